//! Every SFPLOADMACRO kernel the lowering produces (all accepted combinations, both archs, the
//! exact and the `--nan=any` variants) runs the same through the simulator's expanded macro
//! path and through its step-by-step engine (issue 10 item 7): same result (error included),
//! same Dst, same machine state, on the §9 edge inputs and random words placed as the prover
//! places them, on random Dst cells, for one iteration, a few, and a whole chunk.

use pto_runtime::tensix::dest::Dest;
use pto_runtime::tensix::io::{Datum, KERNEL_DEST, KERNEL_MOD0};
use pto_runtime::tensix::isa::Arch;
use pto_runtime::tensix::sim::kernel::check_issue_paths;
use pto_runtime::tensix::sim::SimConfig;
use ptoc::lower::tensix::prove::{edge_inputs, kernel_sim_config};
use ptoc::lower::tensix::{lower_combo_with, Combo};

#[test]
fn lowered_macro_kernels_run_the_same_on_both_paths() {
    let cfg = SimConfig {
        allow_backdoor: true,
        ..kernel_sim_config()
    };
    let rows = KERNEL_DEST.sfpu_rows();
    let mut rng = fastrand::Rng::with_seed(17);
    let (mut kernels, mut ok) = (0, 0);
    for arch in [Arch::Bh, Arch::Wh] {
        for combo in Combo::all() {
            for nan_any in [false, true] {
                let Ok(k) = lower_combo_with(combo, arch, nan_any) else {
                    continue;
                };
                let (Some(mk), Some(form)) = (k.macro_sim_kernel(), k.macro_form.as_ref()) else {
                    continue;
                };
                kernels += 1;
                let sd = Datum::of(combo.src).unwrap_or(Datum::Raw32);
                let edges = edge_inputs(combo.src);
                let per = rows * 32;
                // Edge inputs (a strided sample when there are more than a chunk), then
                // random words.
                let step = edges.len().div_ceil(per).max(1);
                let mut words: Vec<u32> = edges
                    .iter()
                    .step_by(step)
                    .map(|&b| sd.word_of_bits(b))
                    .collect();
                words.resize(per, 0);
                for w in words.iter_mut().skip(per / 2) {
                    *w = sd.word_of_bits(rng.u64(..));
                }
                let mut placed = Dest::new();
                if let Err(e) = placed.write_rows(&words, KERNEL_MOD0, KERNEL_DEST, arch) {
                    panic!("{e}");
                }
                let mut cells = Dest::new();
                for row in 0..512 {
                    for col in 0..16 {
                        if let Err(e) = cells.set_phys(row, col, rng.u16(..)) {
                            panic!("{e}");
                        }
                    }
                }
                for (dst, runs) in [
                    (&placed, rows / form.rows),
                    (&placed, 1),
                    (&cells, 3),
                    (&cells, 16),
                ] {
                    match check_issue_paths(arch, cfg, &mk, dst, runs) {
                        Ok(res) => ok += usize::from(res.is_ok()),
                        Err(e) => panic!("{arch:?} {} (rule {}): {e}", k.describe(), k.rule),
                    }
                }
            }
        }
    }
    assert!(kernels >= 10, "only {kernels} macro kernels");
    // The placed inputs always run through (the comparison is not only between two errors).
    assert!(
        ok >= 2 * kernels,
        "{ok} successful runs for {kernels} kernels"
    );
}
