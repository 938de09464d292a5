//! i32 / u32 → f32, f16, bf16, f8E4M3FN, f8E5M2 kernels (§4.5: one rounding of the exact integer).
//!
//! Invariant (tested equal to the generic path in `kernel/tests.rs`): the integer magnitude
//! (at most 2^32 − 1, exact in u32 after `unsigned_abs`) is rounded once at the destination's step for
//! its binade, then the result is assembled exactly as in the f32 lane and the §4.3 overflow rule
//! is applied by select. Only 32-bit integer operations and one exact i32 → f32 conversion (for
//! the leading bit) are used, all as selects, so the lane auto-vectorises eight wide.

use super::super::{ConvSpec, Rounding};
use super::{
    Body, Narrow, ToBf16, ToE4M3, ToE5M2, ToF16, ToF32, CEIL, FLOOR, ODD, RINT, ROUND, TRUNC,
};
use crate::elem::ElemType;

/// One lane, in 32-bit integer arithmetic only (so eight lanes per AVX2 operation). The leading
/// bit position `l` of the magnitude comes from the exponent of an i32 → f32 conversion that
/// cannot round into the next binade. The
/// magnitude is rounded at the destination's step 2^qe for its binade (shift `s ≤ 31 − M`);
/// magnitudes below 2^M are exact and scaled up to the step instead (`M − l ≤ 23`, no overflow:
/// integers never reach a destination's subnormal range). The result is assembled as in the
/// f32 lane (`base << M` plus the rounded significand, whose hidden bit carries into the
/// exponent) and the §4.3 overflow rule is applied by select.
#[inline(always)]
fn lane<D: Narrow, const MODE: u8, const SAT: bool, const SIGNED: bool>(x: u32) -> u32 {
    let (neg, mag) = if SIGNED {
        (x >> 31, (x as i32).unsigned_abs())
    } else {
        (0, x)
    };
    let neg_b = neg != 0;
    // Keeping only the leading one of each run of ones leaves the leading bit in place and makes
    // the i32 → f32 conversion unable to round up into the next binade. A pattern with bit 31
    // set (a u32 ≥ 2^31, or 2^31 from i32::MIN) is negative as i32: its leading bit is 31.
    let y = (mag & !(mag >> 1)) as i32;
    let l = if y < 0 {
        31
    } else {
        ((y as f32).to_bits() >> 23) as i32 - 127
    };
    let qe = (l - D::M).max(1 - D::BIAS - D::M);
    let s = qe.clamp(0, 31) as u32;
    let kept = mag >> s;
    let rem = mag & ((1u32 << s) - 1);
    let half = (1u32 << s) >> 1;
    let nz = rem != 0;
    let r = match MODE {
        RINT => kept + u32::from(nz & (rem + (kept & 1) > half)),
        ROUND => kept + u32::from(nz & (rem >= half)),
        FLOOR => kept + u32::from(nz & neg_b),
        CEIL => kept + u32::from(nz & !neg_b),
        ODD => kept | u32::from(nz),
        _ => kept,
    };
    let r = if qe < 0 {
        mag << (-qe).clamp(0, 31) as u32
    } else {
        r
    };
    let base = qe + D::M + D::BIAS - 1;
    let bits = if mag == 0 {
        0
    } else {
        ((base << D::M) as u32).wrapping_add(r)
    };
    let over = if SAT {
        D::MAX
    } else {
        match MODE {
            RINT | ROUND => D::INF,
            FLOOR if neg_b => D::INF,
            CEIL if !neg_b => D::INF,
            _ => D::MAX,
        }
    };
    let m = if bits > D::MAX as u32 {
        over as u32
    } else {
        bits
    };
    m | (neg << D::SIGN)
}

#[inline(always)]
fn body<D: Narrow, const MODE: u8, const SAT: bool, const SIGNED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    super::blocks::<D::Out>(src, dst, lane::<D, MODE, SAT, SIGNED>)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn body_avx2<D: Narrow, const MODE: u8, const SAT: bool, const SIGNED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    body::<D, MODE, SAT, SIGNED>(src, dst)
}

fn dispatch<D: Narrow, const MODE: u8, const SAT: bool, const SIGNED: bool>(
    src: &[u8],
    dst: &mut [u8],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU supports AVX2 (checked just above).
        unsafe { body_avx2::<D, MODE, SAT, SIGNED>(src, dst) };
        return;
    }
    body::<D, MODE, SAT, SIGNED>(src, dst)
}

fn pick<D: Narrow, const SIGNED: bool>(mode: Rounding, sat: bool) -> Option<Body> {
    macro_rules! m {
        ($c:expr) => {
            if sat {
                Box::new(dispatch::<D, $c, true, SIGNED>) as Body
            } else {
                Box::new(dispatch::<D, $c, false, SIGNED>) as Body
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

fn by_dst<const SIGNED: bool>(spec: ConvSpec) -> Option<Body> {
    let (m, sat) = (spec.rounding, spec.sat);
    match spec.dst {
        ElemType::F32 => pick::<ToF32, SIGNED>(m, sat),
        ElemType::F16 => pick::<ToF16, SIGNED>(m, sat),
        ElemType::BF16 => pick::<ToBf16, SIGNED>(m, sat),
        ElemType::F8E4M3FN => pick::<ToE4M3, SIGNED>(m, sat),
        ElemType::F8E5M2 => pick::<ToE5M2, SIGNED>(m, sat),
        _ => None,
    }
}

/// The kernel for an i32 / u32 source, if the destination has one.
pub(super) fn from_int_kernel(spec: ConvSpec) -> Option<Body> {
    match spec.src {
        ElemType::I32 => by_dst::<true>(spec),
        ElemType::U32 => by_dst::<false>(spec),
        _ => None,
    }
}
