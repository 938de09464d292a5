//! Throughput of the numeric core's bulk paths (`cargo bench -p pto-runtime --bench convert`).
//!
//! For each case: N = 4M elements in memory (f32 source = 16 MB), best of 7 runs of
//! `convert_slice` (one thread) and `convert_slice_par` (rayon pool), reported in G elements/s.
//! Inputs are deterministic (fastrand seed 1).
//!
//! `cargo bench -p pto-runtime --bench convert -- sweep` instead measures, on ONE thread, every
//! 32-bit-source conversion the Tensix prover uses (sources f32 / i32 / ui32 × destinations f32,
//! bf16, f16, i32, ui32, i16, ui16, i8, ui8 × the six executable modes × sat off/on, cpu
//! profile: X86 non-saturating path), N = 1M elements, best of 9, and marks each figure below
//! 1 G el/s with `SLOW`. Sources are random bit patterns (ints) and, for f32, half random bit
//! patterns and half values within ±2^20, interleaved at random (so data-dependent branches
//! would show). Further arguments after `sweep` keep only the rows whose label contains one of
//! them, e.g. `-- sweep i32->f`.

use std::hint::black_box;
use std::time::{Duration, Instant};

use pto_runtime::convert::storage_len;
use pto_runtime::{ConvSpec, Converter, ElemType, NonSatPath, Rounding};

const N: usize = 1 << 22;
const RUNS: usize = 7;

fn best(mut f: impl FnMut()) -> Duration {
    f(); // warm-up (also builds lookup tables)
    (0..RUNS)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

fn case(name: &str, src: ElemType, dst: ElemType, rounding: Rounding, input: &[u8]) {
    let spec = ConvSpec {
        src,
        dst,
        rounding,
        sat: false,
        path: NonSatPath::X86,
    };
    let c = match Converter::new(spec) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("{name}: {e}");
            return;
        }
    };
    let mut out = vec![0u8; storage_len(dst, N)];
    if let Err(e) = c.convert_slice(input, &mut out, N) {
        eprintln!("{name}: {e}");
        return;
    }
    let single = best(|| {
        let r = c.convert_slice(black_box(input), &mut out, N);
        black_box((r.is_ok(), &out));
    });
    let par = best(|| {
        let r = c.convert_slice_par(black_box(input), &mut out, N);
        black_box((r.is_ok(), &out));
    });
    let g = |d: Duration| N as f64 / d.as_secs_f64() / 1e9;
    println!(
        "{name:<44} 1 thread {:>6.2} G el/s   rayon ({} threads) {:>6.2} G el/s",
        g(single),
        rayon::current_num_threads(),
        g(par)
    );
}

/// One thread, best of `runs`, in G elements/s (None: the spec is not executable).
fn single(spec: ConvSpec, input: &[u8], n: usize, runs: usize) -> Option<f64> {
    let c = Converter::new(spec).ok()?;
    let mut out = vec![0u8; storage_len(spec.dst, n)];
    c.convert_slice(input, &mut out, n).ok()?;
    let d = (0..runs)
        .map(|_| {
            let t = Instant::now();
            let r = c.convert_slice(black_box(input), &mut out, n);
            black_box((r.is_ok(), &out));
            t.elapsed()
        })
        .min()
        .unwrap_or_default();
    Some(n as f64 / d.as_secs_f64() / 1e9)
}

/// `filter`: only rows whose label (`src->dst[ sat]`) contains one of these strings (all if empty).
fn sweep(filter: &[String]) {
    use ElemType::*;
    const SN: usize = 1 << 20;
    let mut rng = fastrand::Rng::with_seed(1);
    let ints: Vec<u8> = (0..SN).flat_map(|_| rng.u32(..).to_le_bytes()).collect();
    let floats: Vec<u8> = (0..SN)
        .flat_map(|_| {
            {
                if rng.bool() {
                    rng.u32(..)
                } else {
                    ((rng.f32() * 2.0 - 1.0) * 1048576.0).to_bits()
                }
            }
            .to_le_bytes()
        })
        .collect();
    let dsts = [F32, BF16, F16, I32, U32, I16, U16, I8, U8];
    println!("single thread, N = {SN} elements per call, best of 9 (G el/s; SLOW = below 1)");
    let (mut slow, mut total) = (0, 0);
    for src in [F32, I32, U32] {
        let input = if src == F32 { &floats } else { &ints };
        for dst in dsts {
            for sat in [false, true] {
                let label = format!("{src}->{dst}{}", if sat { " sat" } else { "" });
                if !filter.is_empty() && !filter.iter().any(|f| label.contains(f.as_str())) {
                    continue;
                }
                let mut line = format!(
                    "{:<12}",
                    format!("{src}->{dst}{}", if sat { " sat" } else { "" })
                );
                for rounding in Rounding::EXECUTABLE {
                    let spec = ConvSpec {
                        src,
                        dst,
                        rounding,
                        sat,
                        path: NonSatPath::X86,
                    };
                    let cell = match single(spec, input, SN, 9) {
                        Some(g) => {
                            total += 1;
                            let mark = if g < 1.0 {
                                slow += 1;
                                " SLOW"
                            } else {
                                ""
                            };
                            format!("{}={g:.2}{mark}", rounding.name())
                        }
                        None => format!("{}=n/a", rounding.name()),
                    };
                    line.push_str(&format!(" {cell:<16}"));
                }
                println!("{line}");
            }
        }
    }
    println!("{slow} of {total} combinations below 1 G el/s");
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(i) = args.iter().position(|a| a == "sweep") {
        let filter: Vec<String> = args[i + 1..]
            .iter()
            .filter(|a| !a.starts_with("--"))
            .cloned()
            .collect();
        return sweep(&filter);
    }
    let mut rng = fastrand::Rng::with_seed(1);
    let f32s = |v: Vec<f32>| -> Vec<u8> { v.iter().flat_map(|x| x.to_le_bytes()).collect() };
    // Values inside the f16 normal range, with random signs.
    let normal = f32s((0..N).map(|_| (rng.f32() * 2.0 - 1.0) * 60000.0).collect());
    let bits: Vec<u8> = (0..N).flat_map(|_| rng.u32(..).to_le_bytes()).collect();
    // Subnormal/NaN/Inf-heavy: exponent fields 0, 255 and the f16 subnormal band.
    let nasty: Vec<u8> = (0..N)
        .flat_map(|_| {
            let e = [0u32, 255, 100, 103, 110][rng.usize(..5)];
            ((rng.u32(..) & 0x807F_FFFF) | (e << 23)).to_le_bytes()
        })
        .collect();
    let small = f32s((0..N).map(|_| (rng.f32() * 2.0 - 1.0) * 400.0).collect());
    let halves: Vec<u8> = (0..N).flat_map(|_| rng.u16(..).to_le_bytes()).collect();

    use ElemType::*;
    use Rounding::*;
    println!("N = {N} elements per call, best of {RUNS}");
    case("f32->bf16 RINT (random bits)", F32, BF16, Rint, &bits);
    case("f32->bf16 RINT (normal range)", F32, BF16, Rint, &normal);
    case("f32->f16 RINT (normal range)", F32, F16, Rint, &normal);
    case("f32->f16 RINT (random bits)", F32, F16, Rint, &bits);
    case(
        "f32->f16 RINT (subnormal/NaN/Inf heavy)",
        F32,
        F16,
        Rint,
        &nasty,
    );
    case("f32->f16 ODD (random bits)", F32, F16, Odd, &bits);
    case(
        "f32->f8E4M3FN RINT (|x| < 400)",
        F32,
        F8E4M3FN,
        Rint,
        &small,
    );
    case(
        "f32->f8E4M3FN RINT (random bits)",
        F32,
        F8E4M3FN,
        Rint,
        &bits,
    );
    case("f32->f8E5M2 RINT (random bits)", F32, F8E5M2, Rint, &bits);
    case("f16->f32 RINT (16-bit table)", F16, F32, Rint, &halves);
    case("bf16->f16 RINT (16-bit table)", BF16, F16, Rint, &halves);
    case("f32->i32 TRUNC (f64 kernel)", F32, I32, Trunc, &normal);
    case(
        "f32->i16 RINT X86 (f64 kernel, random bits)",
        F32,
        I16,
        Rint,
        &bits,
    );
    case("f32->hif8 ROUND (13-bit table)", F32, Hif8, Round, &normal);
    case("f32->f32 RINT (round to integral)", F32, F32, Rint, &small);
    case("f32->s4x2 TRUNC (generic path)", F32, S4x2, Trunc, &small);
    case("i32->f32 RINT (int kernel)", I32, F32, Rint, &bits);
    case("i32->f16 FLOOR (int kernel)", I32, F16, Floor, &bits);
    let longs: Vec<u8> = (0..N).flat_map(|_| rng.u64(..).to_le_bytes()).collect();
    case("i64->f32 RINT (generic path)", I64, F32, Rint, &longs);
    case(
        "f32->f4E2M1x2 RINT (sticky table)",
        F32,
        F4E2M1x2,
        Rint,
        &small,
    );
}
