//! Integer → integer kernels for 32/64-bit sources (§4.6): sat ON clamps the exact value to the
//! destination range, sat OFF keeps its low N bits. (≤ 16-bit sources use lookup tables.)
//!
//! Invariant: every i32/u32/i64 value is exact in i64, so `clamp` in i64 and the two's-
//! complement truncation of `as` are exactly the §4.6 rules; 32-bit sources into ≤ 32-bit
//! destinations clamp in the source's own domain instead (the same value: the range bounds are
//! first intersected with the source's range), which vectorises. Tested equal to the generic path.

use super::super::bulk::Lane;
use super::super::ConvSpec;
use super::Body;
use crate::elem::ElemType;

#[inline(always)]
fn body<S: Lane, O: Lane, const SIGNED: bool>(src: &[u8], dst: &mut [u8], sat: Option<(i64, i64)>) {
    for (c, d) in src
        .chunks_exact(S::BYTES)
        .zip(dst.chunks_exact_mut(O::BYTES))
    {
        let raw = S::read(c).to_u64();
        // Sign-extend signed sources from their width.
        let v = if SIGNED {
            let sh = 64 - 8 * S::BYTES as u32;
            ((raw << sh) as i64) >> sh
        } else {
            raw as i64
        };
        let w = match sat {
            Some((lo, hi)) => v.clamp(lo, hi),
            None => v,
        };
        O::from_u64(w as u64).write(d);
    }
}

fn boxed<S: Lane + 'static, O: Lane + 'static, const SIGNED: bool>(
    sat: Option<(i64, i64)>,
) -> Body {
    Box::new(move |s: &[u8], d: &mut [u8]| body::<S, O, SIGNED>(s, d, sat))
}

/// 32-bit source into a ≤ 32-bit destination: the clamp in the source's own 32-bit domain (the
/// destination range intersected with the source's), staged through 64-lane blocks.
fn narrow32<O: Lane + 'static, const SIGNED: bool>(sat: Option<(i64, i64)>) -> Body {
    match sat {
        None => Box::new(|s: &[u8], d: &mut [u8]| super::blocks_dispatch::<O, _>(s, d, |x| x)),
        Some((lo, hi)) if SIGNED => {
            let lo = lo.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            let hi = hi.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32;
            Box::new(move |s: &[u8], d: &mut [u8]| {
                super::blocks_dispatch::<O, _>(s, d, |x| (x as i32).max(lo).min(hi) as u32)
            })
        }
        Some((lo, hi)) => {
            let lo = lo.clamp(0, i64::from(u32::MAX)) as u32;
            let hi = hi.clamp(0, i64::from(u32::MAX)) as u32;
            Box::new(move |s: &[u8], d: &mut [u8]| {
                super::blocks_dispatch::<O, _>(s, d, |x| x.max(lo).min(hi))
            })
        }
    }
}

fn by_dst<S: Lane + 'static, const SIGNED: bool>(dst: ElemType, sat: bool) -> Option<Body> {
    let (bytes, lo, hi) = match dst {
        ElemType::I8 => (1, i64::from(i8::MIN), i64::from(i8::MAX)),
        ElemType::U8 => (1, 0, i64::from(u8::MAX)),
        ElemType::I16 => (2, i64::from(i16::MIN), i64::from(i16::MAX)),
        ElemType::U16 => (2, 0, i64::from(u16::MAX)),
        ElemType::I32 => (4, i64::from(i32::MIN), i64::from(i32::MAX)),
        ElemType::U32 => (4, 0, i64::from(u32::MAX)),
        ElemType::I64 => (8, i64::MIN, i64::MAX),
        _ => return None,
    };
    let sat = sat.then_some((lo, hi));
    if S::BYTES == 4 {
        return Some(match bytes {
            1 => narrow32::<u8, SIGNED>(sat),
            2 => narrow32::<u16, SIGNED>(sat),
            4 => narrow32::<u32, SIGNED>(sat),
            _ => boxed::<S, u64, SIGNED>(sat),
        });
    }
    Some(match bytes {
        1 => boxed::<S, u8, SIGNED>(sat),
        2 => boxed::<S, u16, SIGNED>(sat),
        4 => boxed::<S, u32, SIGNED>(sat),
        _ => boxed::<S, u64, SIGNED>(sat),
    })
}

/// The kernel for an i32 / u32 / i64 source into a whole-byte integer destination.
pub(super) fn int_int_kernel(spec: ConvSpec) -> Option<Body> {
    match spec.src {
        ElemType::I32 => by_dst::<u32, true>(spec.dst, spec.sat),
        ElemType::U32 => by_dst::<u32, false>(spec.dst, spec.sat),
        ElemType::I64 => by_dst::<u64, true>(spec.dst, spec.sat),
        _ => None,
    }
}
