//! Fast bulk kernels for 32/64-bit sources, every one tested equal to the generic exact path.
//!
//! Owns [`kernel_for`] (which pair has a kernel) and, in this file, the branchless f32 → narrow
//! IEEE-like float kernels (f16, bf16, f8E4M3FN, f8E5M2): one lane function generic over a
//! destination descriptor ([`Narrow`]) with the rounding mode and saturation as const generics,
//! written with selects only and staged through 64-lane arrays so it auto-vectorises (compiled
//! with AVX2 when the CPU has it, chosen at run time; the same code without AVX2 otherwise).
//! Submodules: `int` (f32 → integers, f32 → hif8, f32 → f32 FR), `fp4` (f32 → FP4 tables),
//! `from_int` (i32/u32 → f32/f16/bf16/fp8), `int_int` (i32/u32/i64 → integers).
//!
//! Invariants: for every input, mode and sat, each kernel equals `Plan::convert`. `tests.rs`
//! checks this on structured sweeps (every sign × exponent × top mantissa bits × low-bit
//! patterns, every rounding position for integer sources) plus random patterns and edge lists;
//! `oracle_tests.rs` (ignored by default: minutes) checks the flagship kernels on all 2^32
//! inputs against hardware/independent oracles. Descriptor constants are checked against
//! `format.rs`. Kernels receive exactly-sized buffers and never index past them.

use super::bulk::Lane;
use super::{ConvSpec, Rounding};
use crate::elem::ElemType;

/// A narrow destination of the f32 kernel (constants in the destination's bit layout).
pub(crate) trait Narrow: 'static {
    /// Stored lane type.
    type Out: Lane;
    /// Mantissa bits and exponent bias.
    const M: i32;
    const BIAS: i32;
    /// Magnitude bits of the largest finite value.
    const MAX: i32;
    /// Magnitude bits for an infinite result: +Inf, or the NaN code where there is no Inf.
    const INF: i32;
    /// Magnitude bits of the canonical quiet NaN.
    const NAN: i32;
    /// Position of the sign bit.
    const SIGN: i32;
}

pub(crate) struct ToF32;
pub(crate) struct ToF16;
pub(crate) struct ToBf16;
pub(crate) struct ToE4M3;
pub(crate) struct ToE5M2;

macro_rules! narrow {
    ($t:ty, $out:ty, $m:expr, $bias:expr, $max:expr, $inf:expr, $nan:expr, $sign:expr) => {
        impl Narrow for $t {
            type Out = $out;
            const M: i32 = $m;
            const BIAS: i32 = $bias;
            const MAX: i32 = $max;
            const INF: i32 = $inf;
            const NAN: i32 = $nan;
            const SIGN: i32 = $sign;
        }
    };
}
narrow!(
    ToF32,
    u32,
    23,
    127,
    0x7F7F_FFFF,
    0x7F80_0000,
    0x7FC0_0000,
    31
);
narrow!(ToF16, u16, 10, 15, 0x7BFF, 0x7C00, 0x7E00, 15);
narrow!(ToBf16, u16, 7, 127, 0x7F7F, 0x7F80, 0x7FC0, 15);
narrow!(ToE4M3, u8, 3, 7, 0x7E, 0x7F, 0x7F, 7);
narrow!(ToE5M2, u8, 2, 15, 0x7B, 0x7C, 0x7E, 7);

const RINT: u8 = 0;
const ROUND: u8 = 1;
const FLOOR: u8 = 2;
const CEIL: u8 = 3;
const TRUNC: u8 = 4;
const ODD: u8 = 5;

/// One f32 lane (§4.3): round once onto the destination grid (subnormals kept), then the
/// overflow / Inf / NaN rules, all as selects.
#[inline(always)]
pub(crate) fn lane<D: Narrow, const MODE: u8, const SAT: bool>(x: u32) -> u32 {
    let neg = (x >> 31) as i32;
    let a = (x & 0x7FFF_FFFF) as i32;
    let e32 = a >> 23;
    // f32 subnormals share the exponent of the smallest normal, without the hidden bit.
    let e = e32.max(1);
    let sig = (a & 0x7F_FFFF) | (i32::from(e32 != 0) << 23);
    // Grid step 2^qe at this binade (never finer than the destination's subnormal step); the
    // f32 LSB is 2^(e − 150). Shifts ≥ 25 discard the whole (< 2^24) significand alike.
    let qe = (e - 127 - D::M).max(1 - D::BIAS - D::M);
    let s = (qe - (e - 150)).min(25);
    let kept = sig >> s;
    let rem = sig & ((1 << s) - 1);
    let half = 1 << (s - 1);
    let nz = i32::from(rem != 0);
    let r = match MODE {
        RINT => kept + i32::from((rem > half) | ((rem == half) & (kept & 1 != 0))),
        ROUND => kept + i32::from(rem >= half),
        FLOOR => kept + (nz & neg),
        CEIL => kept + (nz & (neg ^ 1)),
        TRUNC => kept,
        _ => kept | nz,
    };
    // Exponent field of the step's binade; adding r (hidden bit included) carries naturally
    // into the exponent, and subnormal results have base 0.
    let base = qe + D::M + D::BIAS - 1;
    let mag = (base << D::M) + r;
    let over = if SAT {
        D::MAX
    } else {
        match MODE {
            RINT | ROUND => D::INF,
            FLOOR => select(neg != 0, D::INF, D::MAX),
            CEIL => select(neg != 0, D::MAX, D::INF),
            _ => D::MAX,
        }
    };
    let mag = select(mag > D::MAX, over, mag);
    let inf = if SAT { D::MAX } else { D::INF };
    let mag = select(a == 0x7F80_0000, inf, mag);
    let mag = select(a > 0x7F80_0000, D::NAN, mag);
    (mag | (neg << D::SIGN)) as u32
}

#[inline(always)]
fn select(c: bool, a: i32, b: i32) -> i32 {
    if c {
        a
    } else {
        b
    }
}

const BLOCK: usize = 64;

/// Converts whole buffers (`src.len() / 4` 32-bit elements) with `f`, in blocks of 64 lanes
/// staged through arrays so the lane function auto-vectorises.
#[inline(always)]
pub(crate) fn blocks<O: Lane>(src: &[u8], dst: &mut [u8], f: impl Fn(u32) -> u32) {
    let ob = O::BYTES;
    let mut sc = src.chunks_exact(4 * BLOCK);
    let mut dc = dst.chunks_exact_mut(ob * BLOCK);
    for (s, d) in (&mut sc).zip(&mut dc) {
        let mut inp = [0u32; BLOCK];
        for (o, c) in inp.iter_mut().zip(s.chunks_exact(4)) {
            *o = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        }
        let mut out = [O::default(); BLOCK];
        for (o, x) in out.iter_mut().zip(inp.iter()) {
            *o = O::from_u64(u64::from(f(*x)));
        }
        for (o, c) in out.iter().zip(d.chunks_exact_mut(ob)) {
            o.write(c);
        }
    }
    let tail = sc.remainder().chunks_exact(4);
    for (c, d) in tail.zip(dc.into_remainder().chunks_exact_mut(ob)) {
        let x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        O::from_u64(u64::from(f(x))).write(d);
    }
}

/// [`blocks`] compiled with AVX2 when the CPU has it (chosen at run time), for kernels whose lane
/// function is a closure over run-time constants.
#[inline(always)]
pub(crate) fn blocks_dispatch<O: Lane, F: Fn(u32) -> u32>(src: &[u8], dst: &mut [u8], f: F) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { blocks_avx2::<O, F>(src, dst, f) };
        return;
    }
    blocks::<O>(src, dst, f)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blocks_avx2<O: Lane, F: Fn(u32) -> u32>(src: &[u8], dst: &mut [u8], f: F) {
    blocks::<O>(src, dst, f)
}

#[inline(always)]
fn body<D: Narrow, const MODE: u8, const SAT: bool>(src: &[u8], dst: &mut [u8]) {
    blocks::<D::Out>(src, dst, lane::<D, MODE, SAT>)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn body_avx2<D: Narrow, const MODE: u8, const SAT: bool>(src: &[u8], dst: &mut [u8]) {
    body::<D, MODE, SAT>(src, dst)
}

fn dispatch<D: Narrow, const MODE: u8, const SAT: bool>(src: &[u8], dst: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { body_avx2::<D, MODE, SAT>(src, dst) };
        return;
    }
    body::<D, MODE, SAT>(src, dst)
}

/// A bulk kernel over exactly-sized buffers (`src.len() / 4` f32 elements).
pub(crate) type Body = Box<dyn Fn(&[u8], &mut [u8]) + Send + Sync>;

fn pick<D: Narrow>(mode: Rounding, sat: bool) -> Option<Body> {
    macro_rules! m {
        ($c:expr) => {
            if sat {
                Box::new(dispatch::<D, $c, true>) as Body
            } else {
                Box::new(dispatch::<D, $c, false>) as Body
            }
        };
    }
    Some(match mode {
        Rounding::Rint => m!(RINT),
        Rounding::Round => m!(ROUND),
        Rounding::Floor => m!(FLOOR),
        Rounding::Ceil => m!(CEIL),
        Rounding::Trunc => m!(TRUNC),
        Rounding::Odd => m!(ODD),
        Rounding::Hybrid => return None,
    })
}

/// The kernel for `spec`, if one exists.
pub(super) fn kernel_for(spec: ConvSpec) -> Option<Body> {
    if spec.src != ElemType::F32 {
        return from_int::from_int_kernel(spec).or_else(|| int_int::int_int_kernel(spec));
    }
    match spec.dst {
        ElemType::F16 => pick::<ToF16>(spec.rounding, spec.sat),
        ElemType::BF16 => pick::<ToBf16>(spec.rounding, spec.sat),
        ElemType::F8E4M3FN => pick::<ToE4M3>(spec.rounding, spec.sat),
        ElemType::F8E5M2 => pick::<ToE5M2>(spec.rounding, spec.sat),
        ElemType::Hif8 => int::hif8_kernel(spec),
        ElemType::F32 => int::fr_kernel(spec),
        ElemType::F4E2M1x2 | ElemType::F4E1M2x2 => fp4::fp4_kernel(spec),
        _ => int::int_kernel(spec),
    }
}

/// Runs the kernel for `spec` on exactly-sized buffers (as trimmed by `Converter::checked`);
/// false if there is none.
pub(super) fn run(spec: ConvSpec, src: &[u8], dst: &mut [u8], _count: usize) -> bool {
    match kernel_for(spec) {
        Some(f) => {
            f(src, dst);
            true
        }
        None => false,
    }
}

mod fp4;
mod from_int;
mod int;
mod int_int;
#[cfg(test)]
mod oracle_tests;
#[cfg(test)]
mod tests;
