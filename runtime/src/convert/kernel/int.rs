//! f32 → integer (§4.2), f32 → hif8 (§2.4) and f32 → f32 round-to-integral (FR, §4.3) kernels.
//!
//! Invariants (tested equal to the generic path in `kernel/tests.rs`):
//! - ≤ 32-bit destinations under sat ON or the X86 path (what the prover uses) take the
//!   branch-free `fast_lane`: rounding to an integer in f32 (`round32`, exact), the range rule in
//!   f64 with selects, and the low bits read from `r + 1.5·2^52` (exact for |r| < 2^51);
//! - otherwise f32 → f64 is exact and every f32 non-integer is below 2^23, so rounding to an integer in
//!   f64 (`round_ties_even`, `round`, `floor`, `ceil`, `trunc`, trunc-then-odd) is exact; the
//!   range rules then use Rust's saturating float→int casts (NaN → 0), which are exactly the
//!   clamp of NATIVE (i64) and TORCH (i32) and, after clamping to the destination, of sat ON;
//! - HiFloat8 is only encoded with ties-away rounding, whose result depends only on the sign,
//!   the exponent and the top four mantissa bits (kept bits + the half bit) — except NaN, whose
//!   non-zero mantissa may lie below them — so an 8192-entry table indexed by `x >> 19`, filled
//!   from the generic path, plus a NaN select is exact;
//! - FR rounds in f32 itself (IEEE roundToIntegral keeps the sign of zero; the fraction
//!   `v − trunc(v)` and `trunc(v) ± 1` are exact below 2^23, the only place rounding happens);
//!   NaN becomes the canonical quiet NaN with its sign, ±Inf stay, sat is ignored.

use std::sync::OnceLock;

use super::super::bulk::Lane;
use super::super::exact::Plan;
use super::super::{ConvSpec, NonSatPath, Rounding};
use super::{Body, CEIL, FLOOR, ODD, RINT, ROUND, TRUNC};
use crate::elem::ElemType;

/// What happens to the rounded value `r` (an integral f64, ±Inf or NaN).
#[derive(Debug, Clone, Copy)]
enum Rule {
    /// sat ON: clamp to `[lo, hi]` (NaN → 0 through the cast).
    Sat { lo: f64, hi: f64 },
    /// X86: `r` if within `[lo, hi_excl)` (W's range), else W.MIN.
    X86 { lo: f64, hi_excl: f64, min: i64 },
    /// NATIVE: clamp to i64, NaN → 0.
    Native,
    /// TORCH: clamp to i32, NaN → 0.
    Torch,
}

#[inline(always)]
fn round<const MODE: u8>(v: f64) -> f64 {
    match MODE {
        RINT => v.round_ties_even(),
        ROUND => {
            // Ties away without a libm call: v − trunc(v) is exact for these magnitudes.
            let t = v.trunc();
            if (v - t).abs() >= 0.5 {
                t + 1f64.copysign(v)
            } else {
                t
            }
        }
        FLOOR => v.floor(),
        CEIL => v.ceil(),
        TRUNC => v.trunc(),
        _ => {
            let t = v.trunc();
            let m = t.abs();
            // Von Neumann: an inexact result gets its last bit set (|t| < 2^23 here). Parity
            // by halving (exact) instead of `%` (a libm call) or a cast (not vectorisable).
            let h = m * 0.5;
            let odd = if t != v && h == h.trunc() { m + 1.0 } else { m };
            odd.copysign(v)
        }
    }
}

#[inline(always)]
fn int_lane<const MODE: u8>(x: u32, rule: Rule) -> i64 {
    let r = round::<MODE>(f64::from(f32::from_bits(x)));
    match rule {
        Rule::Sat { lo, hi } => r.clamp(lo, hi) as i64,
        Rule::X86 { lo, hi_excl, min } => {
            if r >= lo && r < hi_excl {
                r as i64
            } else {
                min
            }
        }
        Rule::Native => r as i64,
        Rule::Torch => i64::from(r as i32),
    }
}

#[inline(always)]
fn int_body<O: Lane, const MODE: u8>(src: &[u8], dst: &mut [u8], rule: Rule) {
    for (c, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(O::BYTES)) {
        let x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        O::from_u64(int_lane::<MODE>(x, rule) as u64).write(d);
    }
}

/// The same loop compiled with AVX2 (and so SSE4.1 `roundsd` instead of libm calls).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn int_body_avx2<O: Lane, const MODE: u8>(src: &[u8], dst: &mut [u8], rule: Rule) {
    int_body::<O, MODE>(src, dst, rule)
}

fn int_dispatch<O: Lane, const MODE: u8>(src: &[u8], dst: &mut [u8], rule: Rule) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { int_body_avx2::<O, MODE>(src, dst, rule) };
        return;
    }
    int_body::<O, MODE>(src, dst, rule)
}

fn int_mode<O: Lane + 'static>(mode: Rounding, rule: Rule) -> Option<Body> {
    macro_rules! k {
        ($m:expr) => {
            Box::new(move |s: &[u8], d: &mut [u8]| int_dispatch::<O, $m>(s, d, rule))
        };
    }
    Some(match mode {
        Rounding::Rint => k!(RINT),
        Rounding::Round => k!(ROUND),
        Rounding::Floor => k!(FLOOR),
        Rounding::Ceil => k!(CEIL),
        Rounding::Trunc => k!(TRUNC),
        Rounding::Odd => k!(ODD),
        Rounding::Hybrid => return None,
    })
}

/// 1.5 · 2^52: adding it to an integral f64 below 2^51 in magnitude leaves the integer, in two's
/// complement, in the low bits of the sum's pattern.
const MAGIC: f64 = 6_755_399_441_055_744.0;

/// The low 32 bits of the integral `c` (|c| < 2^51), without a (non-vectorisable) cast.
#[inline(always)]
fn low32(c: f64) -> u32 {
    (c + MAGIC).to_bits() as u32
}

/// How the fast lane maps the rounded value onto ≤ 32-bit destinations.
/// sat ON: clamp to `[lo, hi]`, NaN → 0.
const SAT: u8 = 0;
/// X86 through i32: `r` if in `[-2^31, 2^31)`, else i32::MIN (then the low bits).
const X86_32: u8 = 1;
/// X86 through i64 (ui32 destination): the low 32 bits of `r` if in `[-2^63, 2^63)`, else 0.
const X86_64: u8 = 2;

/// The branch-free lane for ≤ 32-bit destinations under sat ON or the X86 path: the same
/// values as [`int_lane`] (truncated to 32 bits). Rounding to an integer happens in f32
/// ([`round32`]: exact, eight lanes), the range rules in f64 (exact for every f32) with min/max/
/// compare selects, and [`low32`] instead of a saturating cast. For X86_64,
/// `r − ⌊r / 2^32⌋ · 2^32` is exact (the product is a multiple of 2^32 not above `r`, and the
/// difference is below 2^32 on `r`'s own grid).
#[inline(always)]
fn fast_lane<const MODE: u8, const KIND: u8>(x: u32, lo: f64, hi: f64) -> u32 {
    let r = f64::from(round32::<MODE>(f32::from_bits(x)));
    match KIND {
        SAT => {
            let c = r.max(lo).min(hi);
            low32(if r.is_nan() { 0.0 } else { c })
        }
        X86_32 => low32(if r >= lo && r < hi { r } else { lo }),
        _ => {
            let ok = r >= -(2f64.powi(63)) && r < 2f64.powi(63);
            let q = (r * 2f64.powi(-32)).floor();
            let d = r - q * 2f64.powi(32);
            low32(if ok { d } else { 0.0 })
        }
    }
}

fn fast_mode<O: Lane + 'static, const KIND: u8>(mode: Rounding, lo: f64, hi: f64) -> Option<Body> {
    macro_rules! k {
        ($m:expr) => {
            Box::new(move |s: &[u8], d: &mut [u8]| {
                super::blocks_dispatch::<O, _>(s, d, |x| fast_lane::<$m, KIND>(x, lo, hi))
            })
        };
    }
    Some(match mode {
        Rounding::Rint => k!(RINT),
        Rounding::Round => k!(ROUND),
        Rounding::Floor => k!(FLOOR),
        Rounding::Ceil => k!(CEIL),
        Rounding::Trunc => k!(TRUNC),
        Rounding::Odd => k!(ODD),
        Rounding::Hybrid => return None,
    })
}

/// The fast kernel for ≤ 32-bit destinations with sat ON or the X86 path; NATIVE / TORCH keep
/// the f64 lane.
fn fast_kernel<O: Lane + 'static>(rule: Rule, mode: Rounding) -> Option<Body> {
    match rule {
        Rule::Sat { lo, hi } => fast_mode::<O, SAT>(mode, lo, hi),
        Rule::X86 { lo, hi_excl, min } if min == i64::from(i32::MIN) => {
            fast_mode::<O, X86_32>(mode, lo, hi_excl)
        }
        Rule::X86 { .. } => fast_mode::<O, X86_64>(mode, 0.0, 0.0),
        Rule::Native | Rule::Torch => int_mode::<O>(mode, rule),
    }
}

/// The f32 → integer kernel for `spec` (whole-byte destinations only).
pub(super) fn int_kernel(spec: ConvSpec) -> Option<Body> {
    let (bits, signed) = match spec.dst {
        ElemType::I8 => (8, true),
        ElemType::U8 => (8, false),
        ElemType::I16 => (16, true),
        ElemType::U16 => (16, false),
        ElemType::I32 => (32, true),
        ElemType::U32 => (32, false),
        ElemType::I64 => (64, true),
        _ => return None,
    };
    let rule = if spec.sat {
        let (lo, hi) = if signed {
            (-(2f64.powi(bits - 1)), 2f64.powi(bits - 1) - 1.0)
        } else {
            (0.0, 2f64.powi(bits) - 1.0)
        };
        // For i64, hi = 2^63 after rounding; the saturating cast gives i64::MAX.
        Rule::Sat { lo, hi }
    } else {
        match spec.path {
            NonSatPath::X86 if bits == 64 || (bits == 32 && !signed) => Rule::X86 {
                lo: -(2f64.powi(63)),
                hi_excl: 2f64.powi(63),
                min: i64::MIN,
            },
            NonSatPath::X86 => Rule::X86 {
                lo: -(2f64.powi(31)),
                hi_excl: 2f64.powi(31),
                min: i64::from(i32::MIN),
            },
            NonSatPath::Native => Rule::Native,
            NonSatPath::Torch => Rule::Torch,
        }
    };
    match bits {
        8 => fast_kernel::<u8>(rule, spec.rounding),
        16 => fast_kernel::<u16>(rule, spec.rounding),
        32 => fast_kernel::<u32>(rule, spec.rounding),
        _ => int_mode::<u64>(spec.rounding, rule),
    }
}

type Hif8Table = Box<[u8; 8192]>;

static HIF8: [OnceLock<Hif8Table>; 2] = [OnceLock::new(), OnceLock::new()];

/// The f32 → hif8 table for `sat`, indexed by the top 13 bits of the f32 pattern.
fn hif8_table(sat: bool) -> &'static [u8; 8192] {
    HIF8[usize::from(sat)].get_or_init(|| {
        let plan = Plan::new(ConvSpec {
            src: ElemType::F32,
            dst: ElemType::Hif8,
            rounding: Rounding::Round,
            sat,
            path: NonSatPath::X86,
        });
        let mut t = Box::new([0u8; 8192]);
        for (i, v) in t.iter_mut().enumerate() {
            *v = plan.convert((i as u64) << 19).0 as u8;
        }
        t
    })
}

fn hif8_body(src: &[u8], dst: &mut [u8], t: &[u8; 8192]) {
    for (c, d) in src.chunks_exact(4).zip(dst.iter_mut()) {
        let x = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let v = t[(x >> 19) as usize & 0x1FFF];
        *d = if x & 0x7FFF_FFFF > 0x7F80_0000 {
            0x80
        } else {
            v
        };
    }
}

/// The f32 → hif8 kernel (ROUND only; `Converter::new` rejects every other mode).
pub(super) fn hif8_kernel(spec: ConvSpec) -> Option<Body> {
    if spec.dst != ElemType::Hif8 || spec.rounding != Rounding::Round {
        return None;
    }
    let t = hif8_table(spec.sat);
    Some(Box::new(move |s: &[u8], d: &mut [u8]| hif8_body(s, d, t)))
}

/// Rounds an f32 to an integral f32 in `MODE` (exact: every f32 of magnitude ≥ 2^23 is already
/// integral and below it the fraction `v − trunc(v)` and `trunc(v) ± 1` are exact); ±0 and ±Inf
/// keep their sign, NaN stays NaN.
#[inline(always)]
fn round32<const MODE: u8>(v: f32) -> f32 {
    match MODE {
        RINT => v.round_ties_even(),
        ROUND => {
            let t = v.trunc();
            if (v - t).abs() >= 0.5 {
                t + 1f32.copysign(v)
            } else {
                t
            }
        }
        FLOOR => v.floor(),
        CEIL => v.ceil(),
        TRUNC => v.trunc(),
        _ => {
            let t = v.trunc();
            let m = t.abs();
            // Parity by halving: exact, and vectorises (a cast to i32 does not).
            let h = m * 0.5;
            let odd = if t != v && h == h.trunc() { m + 1.0 } else { m };
            odd.copysign(v)
        }
    }
}

#[inline(always)]
fn fr_lane<const MODE: u8>(x: u32) -> u32 {
    let v = f32::from_bits(x);
    if v.is_nan() {
        (x & 0x8000_0000) | 0x7FC0_0000
    } else {
        round32::<MODE>(v).to_bits()
    }
}

#[inline(always)]
fn fr_body<const MODE: u8>(src: &[u8], dst: &mut [u8]) {
    super::blocks::<u32>(src, dst, fr_lane::<MODE>)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn fr_body_avx2<const MODE: u8>(src: &[u8], dst: &mut [u8]) {
    fr_body::<MODE>(src, dst)
}

fn fr_dispatch<const MODE: u8>(src: &[u8], dst: &mut [u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { fr_body_avx2::<MODE>(src, dst) };
        return;
    }
    fr_body::<MODE>(src, dst)
}

/// The f32 → f32 (FR) kernel.
pub(super) fn fr_kernel(spec: ConvSpec) -> Option<Body> {
    if spec.dst != ElemType::F32 {
        return None;
    }
    Some(match spec.rounding {
        Rounding::Rint => Box::new(fr_dispatch::<RINT>),
        Rounding::Round => Box::new(fr_dispatch::<ROUND>),
        Rounding::Floor => Box::new(fr_dispatch::<FLOOR>),
        Rounding::Ceil => Box::new(fr_dispatch::<CEIL>),
        Rounding::Trunc => Box::new(fr_dispatch::<TRUNC>),
        Rounding::Odd => Box::new(fr_dispatch::<ODD>),
        Rounding::Hybrid => return None,
    })
}
