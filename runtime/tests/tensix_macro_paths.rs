//! The expanded SFPLOADMACRO path against the step-by-step engine (issue 10 item 7) on every
//! published macro listing (`tests/data/tensix_published/*.macro.s`): on both archs where the
//! listing assembles, both SFPU Fp32 settings, several iteration counts, Dst filled with random
//! cells and with the edge patterns of every 16-bit half, and with the drain cut short (an
//! `Undrained` error). `check_issue_paths` requires the same result (error included), Dst and
//! machine state; the lowering's own macro kernels are checked the same way by
//! `compiler/tests/tensix_macro_paths.rs`, random programs by the simulator's unit tests.

use pto_runtime::tensix::dest::Dest;
use pto_runtime::tensix::formats::{Arch, DataFormat, DstConfig};
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::kernel::{check_issue_paths, Kernel};
use pto_runtime::tensix::sim::SimConfig;

fn listings() -> Vec<(String, String)> {
    let dir = format!("{}/tests/data/tensix_published", env!("CARGO_MANIFEST_DIR"));
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".macro.s"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p:?}: {e}"));
            (p.to_string_lossy().into_owned(), text)
        })
        .collect();
    v.sort();
    v
}

/// Dst with the first 512 physical rows random, a share of cells set to 16-bit edge patterns.
fn fill(rng: &mut fastrand::Rng) -> Dest {
    const EDGES: [u16; 10] = [
        0, 0x8000, 0x0001, 0x7F80, 0xFF80, 0x7FC0, 0x7FFF, 0xFFFF, 0x3F80, 0x00FF,
    ];
    let mut d = Dest::new();
    for row in 0..512 {
        for col in 0..16 {
            let v = if rng.u8(..4) == 0 {
                EDGES[rng.usize(..EDGES.len())]
            } else {
                rng.u16(..)
            };
            if let Err(e) = d.set_phys(row, col, v) {
                panic!("{e}");
            }
        }
    }
    d
}

#[test]
fn published_macro_listings_run_the_same_on_both_paths() {
    let mut rng = fastrand::Rng::with_seed(5);
    let mut checked = 0;
    let mut succeeded = 0;
    for (name, text) in listings() {
        for arch in [Arch::Bh, Arch::Wh] {
            let Ok(k) = Kernel::parse(&text, arch) else {
                continue;
            };
            let short = Kernel {
                drain: Program::default(),
                ..k.clone()
            };
            for fp32 in [true, false] {
                let cfg = SimConfig {
                    strict: true,
                    allow_backdoor: true,
                    dst: DstConfig {
                        sfpu_fp32: fp32,
                        srcb_format: DataFormat::Float16B,
                    },
                };
                for runs in [1, 2, 3, 8, 64] {
                    for kernel in [&k, &short] {
                        let dst = fill(&mut rng);
                        match check_issue_paths(arch, cfg, kernel, &dst, runs) {
                            Ok(res) => succeeded += usize::from(res.is_ok()),
                            Err(e) => panic!("{name} {arch:?} fp32 {fp32} runs {runs}: {e}"),
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked >= 10 * 2 * 5 * 2, "{checked} runs checked");
    // Most full-drain runs succeed (the comparison is not only between two errors).
    assert!(
        succeeded * 3 >= checked,
        "{succeeded} of {checked} runs succeeded"
    );
}
