//! Throughput of the Tensix SFPU simulator (`cargo bench -p pto-runtime --bench tensix_sim`),
//! in lane-instructions per second (SFPU instructions issued × 32 lanes, per wall second):
//!
//! * (a) ALU only: the 11 non-memory instructions of the tensix.md §8.2 fp32→i32 body, L0
//!   preloaded, one thread, `Machine::run_rows` over 256 rows;
//! * (b) the full §8.2 plain body (13 instructions incl. SFPLOAD/SFPSTORE) over a 32-bit Dst
//!   (256 SFPU rows), one thread;
//! * (c) `run_batch` over 2^24 fp32 inputs on a 2-thread rayon pool, including placing inputs in
//!   Dst and reading outputs back (counted as 13 lane-instructions per value); (c') the same
//!   through `run_batch_into` with a reused output buffer, and the projected time for all 2^32
//!   inputs at that rate.
//!
//! * (d) macro vs plain: the published fp32→bf16 SFPLOADMACRO kernel (tensix.md §8.1,
//!   `tests/data/tensix_published/fp32_to_bf16.macro.s`) and its plain equivalent through
//!   `run_kernel_batch` over 2^18 inputs on ONE thread (values per second, and the
//!   macro/plain time ratio); outputs of the two must agree. Then the same for the published
//!   u32→fp32 kernel (§8.7: scheduled SFPCAST, SFPSHFT2 and an INDIRECT_VA SFPMAD, which run
//!   through the general scheduled-instruction path). `-- macro` runs only (d);
//!   `-- macro-only` / `-- plain-only` time one fp32→bf16 kernel, `-- macro-only-u32` /
//!   `-- plain-only-u32` one u32→fp32 kernel.
//!
//! Each figure is the best of several runs; inputs are deterministic (fastrand seed 7). Results of
//! (c) are checked against x86 `cvttss2si` so a fast wrong simulator cannot report a figure.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pto_runtime::tensix::asm::assemble;
use pto_runtime::tensix::dest::{Dest, DestWidth};
use pto_runtime::tensix::formats::{Arch, Mod0};
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::kernel::{run_kernel_batch, Kernel};
use pto_runtime::tensix::sim::{run_batch, run_batch_into, BatchLayout, Machine, SimConfig};

const ROWS: usize = 256;
const RUNS: usize = 5;

/// The §8.2 body; `mem` = with the SFPLOAD/SFPSTORE (Blackhole address modes).
fn body(mem: bool) -> Result<Program, String> {
    let alu = "sfploadi L1, 0, 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP
sfploadi L1, FLOATB, 0x8000
sfpiadd -31, L2, L2, IMM|CC_LT0
sfpiadd 8, L2, L2, IMM|CC_NONE
sfpexman 0, L0, L1, 0
sfpshft 0, L2, L1, 0
sfpencc 0, 0, 0, 0
sfpsetcc 0, L0, 0, LREG_LT0
sfpiadd 0, L9, L1, NEG|CC_NONE
sfpencc 0, 0, 0, 0";
    let text = if mem {
        format!("sfpload L0, 0, ADDR_MOD_7, 0\n{alu}\nsfpstore L1, INT32, ADDR_MOD_6, 0")
    } else {
        alu.to_string()
    };
    assemble(&text, Arch::Bh).map_err(|e| e.to_string())
}

fn cvttss2si(x: u32) -> u32 {
    let f = f32::from_bits(x);
    if f.is_nan() || !(-2147483648.0..2147483648.0).contains(&f) {
        0x8000_0000
    } else {
        (f as i32) as u32
    }
}

fn best(mut f: impl FnMut() -> Result<(), String>) -> Result<Duration, String> {
    f()?; // warm-up
    let mut best = Duration::MAX;
    for _ in 0..RUNS {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed());
    }
    Ok(best)
}

fn report(name: &str, lane_insns: f64, d: Duration) {
    use std::io::Write;
    // A closed stdout (e.g. piped into `head`) is not worth a panic.
    let _ = writeln!(
        std::io::stdout(),
        "{name:<62} {:>9.3} ms  {:>9.3e} lane-insn/s",
        d.as_secs_f64() * 1e3,
        lane_insns / d.as_secs_f64()
    );
}

fn run() -> Result<(), String> {
    let arch = Arch::Bh;
    let mut rng = fastrand::Rng::with_seed(7);
    if std::env::args().any(|a| a.starts_with("macro") || a.starts_with("plain-only")) {
        // Only (d) (`cargo bench -p pto-runtime --bench tensix_sim -- macro`).
        let inputs: Vec<u32> = (0..1 << 18).map(|_| rng.u32(..)).collect();
        return macro_vs_plain(&inputs);
    }
    let dst_inputs: Vec<u32> = (0..ROWS * 32).map(|_| rng.u32(..)).collect();

    // (a) ALU only.
    let alu = body(false)?;
    let reps = 100;
    let mut m = Machine::new(arch);
    let mut row = [0u32; 32];
    row.copy_from_slice(&dst_inputs[..32]);
    m.set_lreg(0, row);
    let mut dst = Dest::new();
    let d = best(|| {
        for _ in 0..reps {
            m.run_rows(black_box(&alu), &mut dst, ROWS)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    report(
        "(a) ALU-only body (11 insns), 1 thread",
        (reps * ROWS * 32 * alu.insns.len()) as f64,
        d,
    );

    // (b) Full body incl. SFPLOAD/SFPSTORE over a 32-bit Dst.
    let full = body(true)?;
    let mut m = Machine::new(arch);
    let d = best(|| {
        for _ in 0..reps {
            dst.write_rows(&dst_inputs, Mod0::Fp32, DestWidth::W32, arch)
                .map_err(|e| e.to_string())?;
            m.set_rwc_dst(0);
            m.run_rows(black_box(&full), &mut dst, ROWS)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    // Dst input placement is outside the count but inside the time (it is part of the loop).
    let d_write = best(|| {
        for _ in 0..reps {
            dst.write_rows(&dst_inputs, Mod0::Fp32, DestWidth::W32, arch)
                .map_err(|e| e.to_string())?;
        }
        Ok(())
    })?;
    report(
        "(b) fp32->i32 body (13 insns incl. load/store), 1 thread",
        (reps * ROWS * 32 * full.insns.len()) as f64,
        d.saturating_sub(d_write),
    );

    // (c) run_batch over 2^24 inputs, 2 threads, Dst I/O included.
    let n = 1usize << 24;
    let big: Vec<u32> = (0..n).map(|_| rng.u32(..)).collect();
    let layout = BatchLayout {
        load: Mod0::Fp32,
        out: Mod0::Int32,
        width: DestWidth::W32,
        rows_per_chunk: ROWS,
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .map_err(|e| e.to_string())?;
    let init = Program::default();
    let mut out = Vec::new();
    let d = best(|| {
        out = pool
            .install(|| run_batch(arch, SimConfig::default(), &init, &full, &big, layout))
            .map_err(|e| e.to_string())?;
        Ok(())
    })?;
    if let Some(i) = (0..n).find(|&i| out.get(i).copied() != Some(cvttss2si(big[i]))) {
        return Err(format!("run_batch result wrong at input {:#010x}", big[i]));
    }
    report(
        "(c) run_batch fp32->i32, 2^24 values, 2 threads, Dst I/O",
        (n * full.insns.len()) as f64,
        d,
    );

    // (c') The same into a reused output buffer (how a sweep over 2^32 inputs runs slices).
    let mut buf = vec![0u32; n];
    let d = best(|| {
        pool.install(|| {
            run_batch_into(
                arch,
                SimConfig::default(),
                &init,
                &full,
                &big,
                layout,
                &mut buf,
            )
        })
        .map_err(|e| e.to_string())
    })?;
    if buf != out {
        return Err("run_batch_into disagrees with run_batch".into());
    }
    report(
        "(c') run_batch_into, reused output buffer, 2 threads, Dst I/O",
        (n * full.insns.len()) as f64,
        d,
    );
    let secs = (1u64 << 32) as f64 * full.insns.len() as f64 * d.as_secs_f64()
        / (n * full.insns.len()) as f64;
    let _ = std::io::Write::write_fmt(
        &mut std::io::stdout(),
        format_args!("projected: all 2^32 fp32 inputs through the 13-insn body in {secs:.1} s\n"),
    );
    macro_vs_plain(&big[..1 << 18])
}

/// One macro/plain pair of (d): listing stem, I/O modes and rows per body (macro, plain).
struct Pair {
    name: &'static str,
    /// Suffix of its `-- macro-only` / `-- plain-only` arguments.
    arg: &'static str,
    macro_text: &'static str,
    plain_text: &'static str,
    load: Mod0,
    out: Mod0,
    rows: (usize, usize),
}

const PAIRS: [Pair; 2] = [
    Pair {
        name: "fp32->bf16",
        arg: "",
        macro_text: include_str!("../tests/data/tensix_published/fp32_to_bf16.macro.s"),
        plain_text: include_str!("../tests/data/tensix_published/fp32_to_bf16.plain.s"),
        load: Mod0::Fp32,
        out: Mod0::Bf16,
        rows: (2, 1),
    },
    Pair {
        name: "u32->fp32",
        arg: "-u32",
        macro_text: include_str!("../tests/data/tensix_published/u32_to_fp32.macro.s"),
        plain_text: include_str!("../tests/data/tensix_published/u32_to_fp32.plain.s"),
        load: Mod0::Int32,
        out: Mod0::Fp32,
        rows: (1, 1),
    },
];

/// (d): the published macro kernels against their plain equivalents, one thread.
fn macro_vs_plain(inputs: &[u32]) -> Result<(), String> {
    let arch = Arch::Bh;
    let cfg = SimConfig {
        allow_backdoor: true,
        ..SimConfig::default()
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| e.to_string())?;
    let mut out = std::io::stdout();
    for pair in &PAIRS {
        let mk = Kernel::parse(pair.macro_text, arch).map_err(|e| e.to_string())?;
        let pk = Kernel::parse(pair.plain_text, arch).map_err(|e| e.to_string())?;
        let go = |k: &Kernel, rows: usize| {
            pool.install(|| {
                run_kernel_batch(
                    arch,
                    cfg,
                    k,
                    rows,
                    inputs,
                    pair.load,
                    pair.out,
                    DestWidth::W32,
                    ROWS,
                )
            })
            .map_err(|e| e.to_string())
        };
        // `-- macro-only` / `-- plain-only` (`-u32` for the second pair): time one kernel (e.g.
        // under callgrind).
        for (kind, k, rows) in [("macro", &mk, pair.rows.0), ("plain", &pk, pair.rows.1)] {
            let arg = format!("{kind}-only{}", pair.arg);
            if std::env::args().any(|a| a == arg) {
                let d = best(|| go(k, rows).map(|_| ()))?;
                let _ = std::io::Write::write_fmt(
                    &mut out,
                    format_args!("{arg}: {:.3} ms\n", d.as_secs_f64() * 1e3),
                );
                return Ok(());
            }
        }
        if std::env::args().any(|a| a.contains("-only")) {
            continue; // another pair's kernel is to be timed
        }
        let (mut a, mut b) = (Vec::new(), Vec::new());
        let dm = best(|| {
            a = go(&mk, pair.rows.0)?;
            Ok(())
        })?;
        let dp = best(|| {
            b = go(&pk, pair.rows.1)?;
            Ok(())
        })?;
        if a != b {
            return Err(format!("macro and plain {} kernels disagree", pair.name));
        }
        let n = inputs.len() as f64;
        for (kind, d) in [("macro", dm), ("plain", dp)] {
            let name = format!(
                "(d) {} {kind} kernel, run_kernel_batch, 1 thread",
                pair.name
            );
            let _ = std::io::Write::write_fmt(
                &mut out,
                format_args!(
                    "{name:<62} {:>9.3} ms  {:>9.3e} values/s\n",
                    d.as_secs_f64() * 1e3,
                    n / d.as_secs_f64()
                ),
            );
        }
        let _ = std::io::Write::write_fmt(
            &mut out,
            format_args!(
                "{} macro / plain time: {:.2}\n",
                pair.name,
                dm.as_secs_f64() / dp.as_secs_f64()
            ),
        );
    }
    Ok(())
}

fn main() {
    if let Err(e) = run() {
        eprintln!("tensix_sim bench failed: {e}");
        std::process::exit(1);
    }
}
