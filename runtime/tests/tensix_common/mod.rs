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
