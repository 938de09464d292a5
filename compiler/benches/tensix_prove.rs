//! The full default proof of every Tensix kernel, and the exhaustive f32 -> i32 proof, timed.
//!
//! `cargo bench -p ptoc --bench tensix_prove` — every combination on both archs with
//! `ptoc prove`'s default inputs (16-bit sources exhaustive; 32-bit sources: the §9 edge list
//! plus 2^24 random patterns), then all 2^32 inputs of f32 -> i32 TRUNC. Prints inputs, time and
//! simulated lane-instructions per second; exits non-zero on any mismatch. (`cargo test` runs the
//! same proofs with 2^16 random patterns to keep CI short.)
//! `PTOC_BENCH_SKIP_ALL=1` runs only the exhaustive proof.

use std::time::Instant;

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::Arch;
use ptoc::lower::tensix::prove::{prove, ProofOptions};
use ptoc::lower::tensix::{lower_combo, Combo};

fn main() {
    let mut failed = false;
    if std::env::var_os("PTOC_BENCH_SKIP_ALL").is_none() {
        let t = Instant::now();
        let (mut inputs, mut lane_insns, mut kernels) = (0u64, 0f64, 0usize);
        for arch in [Arch::Bh, Arch::Wh] {
            for combo in Combo::all() {
                let Ok(k) = lower_combo(combo, arch) else {
                    continue;
                };
                let rep = prove(&k, &ProofOptions::default(), &|_| {});
                if !rep.passed() {
                    eprintln!("{arch:?} {}: {:?}", combo.describe(), rep.first.first());
                    failed = true;
                }
                kernels += 1;
                inputs += rep.inputs;
                lane_insns += rep.inputs as f64 * k.body_len() as f64;
            }
        }
        let s = t.elapsed().as_secs_f64();
        println!(
            "default proof of {kernels} kernels: {inputs} inputs in {s:.1} s, {:.3e} lane-instructions/s",
            lane_insns / s
        );
    }
    let combo = Combo {
        src: ElemType::F32,
        dst: ElemType::I32,
        rounding: Rounding::Trunc,
        sat: false,
    };
    let Ok(k) = lower_combo(combo, Arch::Bh) else {
        eprintln!("f32 -> i32 is not lowered");
        std::process::exit(1);
    };
    let t = Instant::now();
    let opts = ProofOptions {
        exhaustive: true,
        ..ProofOptions::default()
    };
    let rep = prove(&k, &opts, &|_| {});
    let s = t.elapsed().as_secs_f64();
    failed |= !rep.passed();
    println!(
        "exhaustive f32 -> i32 TRUNC (blackhole, {} instructions/row): {} inputs, {} mismatches in {s:.1} s, {:.3e} lane-instructions/s",
        k.body_len(),
        rep.inputs,
        rep.mismatches,
        rep.inputs as f64 * k.body_len() as f64 / s
    );
    if failed {
        std::process::exit(1);
    }
}
