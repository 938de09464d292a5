//! i32 / u32 → f32, f16, bf16, f8E4M3FN, f8E5M2 kernels (§4.5: one rounding of the exact integer).
//!
//! Invariant (tested equal to the generic path in `kernel/tests.rs`): the integer magnitude
//! (< 2^32, exact in u64) is rounded once at the destination's step for its binade, then the
//! result is assembled exactly as in the f32 lane (`base << M` + rounded significand, where the
//! hidden bit carries into the exponent) and the §4.3 overflow rule is applied by select.

use super::super::{ConvSpec, Rounding};
use super::{
    Body, Narrow, ToBf16, ToE4M3, ToE5M2, ToF16, ToF32, CEIL, FLOOR, ODD, RINT, ROUND, TRUNC,
};
use crate::elem::ElemType;

#[inline(always)]
fn lane<D: Narrow, const MODE: u8, const SAT: bool, const SIGNED: bool>(x: u32) -> u32 {
    let (neg, mag) = if SIGNED {
        (x >> 31, (x as i32).unsigned_abs())
    } else {
        (0, x)
    };
    let neg_b = neg != 0;
    // Leading exponent from the (exact) f64 conversion, so it vectorises; mag = 0 gives −1023
    // and is selected away below.
    let l = ((f64::from(mag).to_bits() >> 52) as i32) - 1023;
    let mag = i64::from(mag);
    let qe = (l - D::M).max(1 - D::BIAS - D::M);
    let s = qe.clamp(0, 40) as u32;
    let kept = mag >> s;
    let rem = mag & ((1i64 << s) - 1);
    let half = (1i64 << s) >> 1;
    let nz = rem != 0;
    let r = match MODE {
        RINT => kept + i64::from(nz & ((rem > half) | ((rem == half) & (kept & 1 != 0)))),
        ROUND => kept + i64::from(nz & (rem >= half)),
        FLOOR => kept + i64::from(nz & neg_b),
        CEIL => kept + i64::from(nz & !neg_b),
        ODD => kept | i64::from(nz),
        _ => kept,
    };
    // Small magnitudes are exact: scale up to the step 2^qe (qe < 0).
    let r = if qe < 0 { mag << (-qe).clamp(0, 63) } else { r };
    let base = i64::from(qe + D::M + D::BIAS - 1);
    let bits = if mag == 0 { 0 } else { (base << D::M) + r };
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
    let m = if bits > i64::from(D::MAX) {
        over as u32
    } else {
        bits as u32
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
