//! Shared helpers of the simulator test binaries (`tensix_sim_insn`, `tensix_sim_flow`):
//! build lane arrays, run assembly text on a strict machine, read registers.
// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

use pto_runtime::tensix::asm::assemble;
use pto_runtime::tensix::dest::Dest;
use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim::{Machine, SimConfig, SimError, LANES};

pub fn lanes(mut f: impl FnMut(usize) -> u32) -> [u32; LANES] {
    let mut a = [0; LANES];
    for (l, x) in a.iter_mut().enumerate() {
        *x = f(l);
    }
    a
}

pub fn machine(arch: Arch, strict: bool) -> Machine {
    Machine::with_config(
        arch,
        SimConfig {
            strict,
            ..SimConfig::default()
        },
    )
}

pub fn exec(m: &mut Machine, text: &str) -> Result<(), SimError> {
    let p = assemble(text, m.arch()).unwrap_or_else(|e| panic!("{e}"));
    let mut dst = Dest::new();
    m.run(&p, &mut dst).map(|_| ())
}

pub fn run(arch: Arch, init: &[(usize, [u32; LANES])], text: &str) -> Machine {
    let mut m = machine(arch, true);
    for (r, v) in init {
        m.set_lreg(*r, *v);
    }
    m.enter_kernel_state();
    exec(&mut m, text).unwrap_or_else(|e| panic!("{e}"));
    m
}

pub fn reg(m: &Machine, r: usize) -> [u32; LANES] {
    *m.lreg(r).expect("reg")
}

pub const BOTH: [Arch; 2] = [Arch::Wh, Arch::Bh];

/// Edge patterns of f32→bf16 RINT: ±0, denormal ties, the smallest normal, ties at 1.0, the
/// largest finite, ±Inf and NaNs (shared by the bf16 floor and NaN-step tests).
#[allow(dead_code)]
pub const BF16_EDGES: [u32; 19] = [
    0,
    0x8000_0000,
    1,
    0x0000_8000,
    0x0001_8000,
    0x0001_7FFF,
    0x807F_FFFF,
    0x0080_0000,
    0x0080_8000,
    0x3F80_8000,
    0x3F81_8000,
    0x3F80_8001,
    0x7F7F_FFFF,
    0x7F80_0000,
    0xFF80_0000,
    0x7F80_0001,
    0xFF80_0001,
    0x7FC0_0000,
    0xFFFF_FFFF,
];
