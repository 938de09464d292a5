//! Evidence for the numeric core on 32- and 64-bit sources (issue 3): seeded random patterns
//! (f32 also exponent-stratified, integers also magnitude-stratified) plus edge lists (signed
//! zeros, subnormals, min normal, max, ±Inf, NaN payloads, ties at every destination's precision,
//! every destination's max / overflow threshold, integer range limits, i64 beyond 2^53), each
//! converted to all 16 destinations under every executable (mode, sat, path) and compared bit for
//! bit with the slow reference in `slowref/`.
//!
//! Sample sizes: 2^20 random f32 patterns, 2^18 per integer type (`RANDOM_*`; the env variable
//! `PTO_SLOWREF_RANDOM` overrides both); the edge lists are complete as generated below.

mod slowref;

use num_traits::ToPrimitive;
use pto_runtime::ElemType;
use slowref::sweep::assert_sweep;
use slowref::{decode, Exact};

/// Random f32 patterns (half uniform bits, half exponent-stratified).
const RANDOM_F32: usize = 1 << 20;
/// Random patterns per integer source type (half uniform, half magnitude-stratified). Smaller
/// than the f32 sample to keep the runtime suite within its time budget; all three at 2^20 pass
/// too (`PTO_SLOWREF_RANDOM=1048576`: 88 s for this file on 2 idle cores, vs 30 s).
const RANDOM_INT: usize = 1 << 18;

/// The sample size: `PTO_SLOWREF_RANDOM` overrides the default (for a longer local run).
fn random_count(default: usize) -> usize {
    std::env::var("PTO_SLOWREF_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn f32_random() -> Vec<u64> {
    let mut rng = fastrand::Rng::with_seed(0xF32);
    (0..random_count(RANDOM_F32))
        .map(|i| {
            if i % 2 == 0 {
                rng.u32(..) as u64
            } else {
                let sign = rng.u32(..2) << 31;
                let exp = rng.u32(..256) << 23;
                (sign | exp | rng.u32(..1 << 23)) as u64
            }
        })
        .collect()
}

fn int_random(bits: u32, seed: u64) -> Vec<u64> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    (0..random_count(RANDOM_INT))
        .map(|i| {
            if i % 2 == 0 {
                rng.u64(..) & mask
            } else {
                // magnitude-stratified: a random bit length, then a random sign
                let v = rng.u64(..) >> rng.u32(0..64);
                let v = if rng.bool() { v.wrapping_neg() } else { v };
                v & mask
            }
        })
        .collect()
}

/// f32 patterns at and next to `t` (the nearest f32 and ±1, ±2 ulps), both signs.
fn around(out: &mut Vec<u64>, t: f64) {
    let c = (t as f32).to_bits() as i64;
    for d in -2i64..=2 {
        let b = (c + d).clamp(0, 0x7F80_0000) as u64;
        out.push(b);
        out.push(b | 0x8000_0000);
    }
}

/// Exact f64 value of a finite destination pattern (all formats here fit f64 exactly).
fn value_f64(t: ElemType, bits: u64) -> Option<f64> {
    match decode(t, bits) {
        Exact::Finite { neg, mag } => mag.to_f64().map(|v| if neg { -v } else { v }),
        _ => None,
    }
}

fn f32_edges() -> Vec<u64> {
    let mut out: Vec<u64> = vec![
        0x0000_0000,
        0x8000_0000,
        0x0000_0001,
        0x8000_0001,
        0x0000_0002,
        0x0000_0003,
        0x0040_0000,
        0x007F_FFFF,
        0x807F_FFFF,
        0x0080_0000,
        0x8080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0xFFC0_0000,
        0x7F80_0001,
        0xFF80_0001,
        0x7FBF_FFFF,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        0x7FC1_2345,
        0xFF81_2345,
        0x7FA0_0000,
    ];
    // Every destination grid: each value, the midpoint to the next value (ties), and the point
    // just above max (the overflow threshold, on the unbounded grid), with f32 neighbours.
    for dst in ElemType::ALL
        .into_iter()
        .filter(|t| t.is_float() && *t != ElemType::F32)
    {
        let n = 1u64 << (dst.value_bits() - 1);
        let mut vals: Vec<f64> = (0..n).filter_map(|c| value_f64(dst, c)).collect();
        vals.sort_by(f64::total_cmp);
        vals.dedup();
        // 16-bit grids: every 61st value plus the first and last 64 (still ~1 000 points each).
        let len = vals.len();
        let keep = |i: usize| dst.value_bits() <= 8 || i < 64 || i + 64 >= len || i % 61 == 0;
        for i in 0..len {
            if !keep(i) {
                continue;
            }
            around(&mut out, vals[i]);
            let next = if i + 1 < len {
                vals[i + 1]
            } else {
                // next point of the unbounded grid above max: max + its spacing
                let prev = vals[i - 1];
                let step = if dst == ElemType::Hif8 {
                    16384.0
                } else {
                    vals[i] - prev
                };
                vals[i] + step
            };
            around(&mut out, (vals[i] + next) / 2.0);
            around(&mut out, vals[i] + (next - vals[i]) / 4.0);
        }
    }
    // Named thresholds of semantics.md: fp8 / hif8 / f16 / int ranges.
    let named = [
        448.0, 464.0, 465.0, 480.0, 57344.0, 61439.0, 61440.0, 32768.0, 40959.0, 40960.0, 45000.0,
        49151.0, 49152.0, 65504.0, 65519.0, 65520.0, 1e6, 1e10, 3e9, 5e9, 2.5, 3.5, 4.1, 0.5, 1.5,
    ];
    for t in named {
        around(&mut out, t);
    }
    // Integer grids: halves and quarters near 0 and every integer range limit, powers of two.
    let limits: [f64; 10] = [
        0.0,
        8.0,
        128.0,
        256.0,
        32768.0,
        65536.0,
        2147483648.0,
        4294967296.0,
        9223372036854775808.0,
        18446744073709551616.0,
    ];
    for l in limits {
        for k in -3i32..=3 {
            for frac in [0.0, 0.25, 0.5, 0.75] {
                around(&mut out, l + k as f64 + frac);
            }
        }
    }
    for e in -150..=128 {
        around(&mut out, 2f64.powi(e));
        around(&mut out, 1.5 * 2f64.powi(e));
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Integer edges: ties at f32/f16/bf16 precision for every bit length, every float
/// destination's max and overflow thresholds, integer range limits; each ±2, both signs.
fn int_edges(bits: u32) -> Vec<u64> {
    let mut t: Vec<i128> = vec![0, 1, 2, 3, 7, 8, 9, 15, 16, 17];
    for e in 1..=64u32 {
        let p = 1i128 << e;
        t.push(p);
        for prec in [24u32, 11, 8, 4, 3, 2] {
            if e > prec {
                let half = 1i128 << (e - prec - 1);
                t.push(p + half); // tie, even neighbour below
                t.push(p + 3 * half); // tie, odd neighbour below
                t.push(p + 2 * half);
            }
        }
    }
    t.extend([
        448,
        464,
        480,
        57344,
        61440,
        32768,
        40960,
        49152,
        65504,
        65520,
        2048 + 1,
        4096 + 2,
        16777217,
        9007199254740993,
    ]);
    t.extend([
        i8::MAX as i128,
        u8::MAX as i128,
        i16::MAX as i128,
        u16::MAX as i128,
        i32::MAX as i128,
        u32::MAX as i128,
        i64::MAX as i128,
    ]);
    let mask = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let mut out = Vec::new();
    for v in t {
        for d in -2..=2 {
            for s in [1i128, -1] {
                out.push(((s * (v + d)) as u64) & mask);
            }
        }
    }
    out.push(1u64 << (bits - 1)); // INT_MIN pattern
    out.sort_unstable();
    out.dedup();
    out
}

#[test]
fn f32_edges_all_destinations() {
    let e = f32_edges();
    assert!(e.len() > 10_000, "edge list too short: {}", e.len());
    assert_sweep(ElemType::F32, &e, &ElemType::ALL);
}

#[test]
fn f32_random_all_destinations() {
    assert_sweep(ElemType::F32, &f32_random(), &ElemType::ALL);
}

#[test]
fn i32_edges_and_random_all_destinations() {
    let mut v = int_edges(32);
    v.extend(int_random(32, 0x132));
    assert_sweep(ElemType::I32, &v, &ElemType::ALL);
}

#[test]
fn ui32_edges_and_random_all_destinations() {
    let mut v = int_edges(32);
    v.extend(int_random(32, 0x232));
    assert_sweep(ElemType::U32, &v, &ElemType::ALL);
}

#[test]
fn i64_edges_and_random_all_destinations() {
    let mut v = int_edges(64);
    v.extend(int_random(64, 0x164));
    assert_sweep(ElemType::I64, &v, &ElemType::ALL);
}
