//! The admission test of a macro form (tensix.md §6.3, §7): what a candidate must pass before
//! `lower_combo` keeps it, whether the scheduler's search placed it ([`super::macro_form`]) or
//! a rule placed it by hand ([`super::super::hand_macro`]).
//!
//! What it owns: the simulator configuration of macro kernels, the fixed sample of input words
//! (edge patterns and fixed-seed random words), the plain program's outputs on that sample, and
//! [`check`]: the candidate runs hazard-free and stall-free through the §7 cycle model with the
//! row count it claims, and its outputs equal the plain program's on the sample.
//!
//! Invariants it relies on: candidates and the plain program follow the kernel I/O contract
//! (`KERNEL_MOD0` load and store, `KERNEL_DEST` rows); the sample is deterministic, so the
//! search's answer is too (it is memoised per kernel); and this is a filter, not a proof — the
//! chosen form is proven against the plain program on every proof input by `ptoc prove` /
//! `tests/tensix_prove.rs` (parent module doc).

use pto_runtime::tensix::io::{KERNEL_DEST, KERNEL_MOD0};
use pto_runtime::tensix::isa::Arch;
use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::{run_kernel_batch, Kernel};
use pto_runtime::tensix::sim::SimConfig;

use super::super::builder::Line;
use super::MacroForm;

/// The simulator configuration of macro kernels (backdoor writes allowed).
fn macro_cfg() -> SimConfig {
    SimConfig {
        allow_backdoor: true,
        ..super::super::prove::kernel_sim_config()
    }
}

pub(in crate::lower::tensix) fn prog(v: &[Line]) -> pto_runtime::tensix::isa::Program {
    pto_runtime::tensix::isa::Program::new(v.iter().map(|l| l.insn).collect())
}

/// The sample words and the plain program's outputs on them: what every macro candidate
/// ([`check`]) must reproduce.
pub(in crate::lower::tensix) fn plain_reference(
    arch: Arch,
    plain: &Kernel,
) -> Option<(Vec<u32>, Vec<u32>)> {
    let words = sample_words();
    let out = run_kernel_batch(
        arch,
        super::super::prove::kernel_sim_config(),
        plain,
        1,
        &words,
        KERNEL_MOD0,
        KERNEL_MOD0,
        KERNEL_DEST,
        64,
    )
    .ok()?;
    Some((words, out))
}

/// Sample words for the candidate check: edge patterns and fixed-seed random words.
fn sample_words() -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0,
        1,
        2,
        0x7F,
        0x80,
        0xFF,
        0x100,
        0x7FFF,
        0x8000,
        0xFFFF,
        0x1_0000,
        0x1_0001,
        0xFF_FFFF,
        0x100_0000,
        0x100_0001,
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0xFFFF_8000,
        0xFFFF_FF80,
        0x3F80_0000,
        0xBF80_0000,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0xFFC0_0000,
        0x0000_8000,
        0x0040_0000,
        0x3F80_8000,
        0x3F81_8000,
        0x4F00_0000,
        0xCF00_0000,
        0x4780_0000,
        0x477F_FF80,
    ];
    let mut rng = fastrand::Rng::with_seed(0x3AC4_0F0A);
    for k in 0..256u32 {
        v.push(k.wrapping_mul(0x0101_0101) ^ 0x8000);
    }
    while v.len() < 64 * 32 * 2 {
        let w = rng.u32(..);
        v.push(match v.len() % 4 {
            0 => w,
            1 => w & 0xFFFF,
            2 => (w & 0xFFFF) | if w & 0x10000 != 0 { 0xFFFF_0000 } else { 0 },
            _ => w & 0x8FFF_FFFF,
        });
    }
    v
}

/// Runs a candidate: hazard-free through the cycle model, equal to the plain program on the
/// sample. Returns its steady-state cycles per body run.
pub(in crate::lower::tensix) fn check(
    arch: Arch,
    plain: &Kernel,
    plain_out: &[u32],
    m: &MacroForm,
    words: &[u32],
) -> Option<u64> {
    let mk = Kernel {
        init: prog(&m.init),
        body: prog(&m.body),
        drain: prog(&m.drain),
    };
    let rep = match steady_state(arch, macro_cfg(), &mk.init, &mk.body, &mk.drain, 2) {
        Ok(r) => r,
        Err(e) => {
            if std::env::var_os("PTOC_MACRO_DEBUG").is_some() {
                eprintln!(
                    "candidate rejected ({} rows, {} body): {e}",
                    m.rows,
                    m.body.len()
                );
            }
            return None;
        }
    };
    let debug = std::env::var_os("PTOC_MACRO_DEBUG").is_some();
    if rep.stalls_per_body != 0 || rep.rows_per_body != m.rows {
        if debug {
            eprintln!(
                "candidate rejected ({} rows, {} body): {} stalls, {} rows per body",
                m.rows,
                m.body.len(),
                rep.stalls_per_body,
                rep.rows_per_body
            );
        }
        return None;
    }
    let got = run_kernel_batch(
        arch,
        macro_cfg(),
        &mk,
        m.rows,
        words,
        KERNEL_MOD0,
        KERNEL_MOD0,
        KERNEL_DEST,
        64,
    );
    let got = match got {
        Ok(g) => g,
        Err(e) => {
            if debug {
                eprintln!("candidate failed ({} rows): {e}", m.rows);
            }
            return None;
        }
    };
    let _ = plain;
    if got != plain_out && debug {
        eprintln!(
            "candidate differs from plain ({} rows, {} body)",
            m.rows,
            m.body.len()
        );
    }
    (got == plain_out).then_some(rep.cycles_per_body)
}
