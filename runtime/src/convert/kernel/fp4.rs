//! f32 → FP4 (E2M1, E1M2) through a top-bits + sticky table, written as packed nibbles.
//!
//! Invariant: with p kept mantissa bits at most (`mbits`), the result of any rounding mode
//! depends only on the sign, the exponent, the top `mbits + 1` mantissa bits (kept bits and the
//! half bit, or more of the discarded bits where the result is subnormal) and whether any lower
//! bit is set. So a table indexed by `(x >> S) · 2 + sticky`, `S = 22 − mbits`, filled from the
//! generic path with the representative `(x >> S) << S | sticky`, is exact for every input —
//! NaN included, since a NaN whose payload lies below the index has sticky = 1 and its
//! representative is a NaN too. FP4 ignores sat (always saturating), so tables depend on the
//! destination and the mode only. Odd is never offered for FP4 (`Converter::new` rejects it).

use std::sync::OnceLock;

use super::super::exact::Plan;
use super::super::{ConvSpec, NonSatPath, Rounding};
use super::Body;
use crate::elem::ElemType;

const MODES: [Rounding; 5] = [
    Rounding::Rint,
    Rounding::Round,
    Rounding::Floor,
    Rounding::Ceil,
    Rounding::Trunc,
];

static TABLES: [[OnceLock<Box<[u8]>>; 5]; 2] = [
    [const { OnceLock::new() }; 5],
    [const { OnceLock::new() }; 5],
];

fn table(dst: ElemType, mode: Rounding, shift: u32) -> Option<&'static [u8]> {
    let d = usize::from(dst == ElemType::F4E1M2x2);
    let m = MODES.iter().position(|x| *x == mode)?;
    let t = TABLES[d][m].get_or_init(|| {
        let plan = Plan::new(ConvSpec {
            src: ElemType::F32,
            dst,
            rounding: mode,
            sat: false,
            path: NonSatPath::X86,
        });
        (0..2u64 << (32 - shift))
            .map(|i| plan.convert(((i >> 1) << shift) | (i & 1)).0 as u8)
            .collect()
    });
    Some(t)
}

#[inline(always)]
fn nibble(t: &[u8], shift: u32, x: u32) -> u8 {
    let i = (((x >> shift) as usize) << 1) | usize::from(x & ((1 << shift) - 1) != 0);
    t.get(i).copied().unwrap_or(0) & 0xF
}

/// Converts `src.len() / 4` f32 elements into packed nibbles (element 2k low, 2k+1 high); with
/// an odd count the last byte's high nibble is preserved.
fn body(t: &[u8], shift: u32, src: &[u8], dst: &mut [u8]) {
    let pairs = src.chunks_exact(8);
    let rest = pairs.remainder();
    let mut out = dst.iter_mut();
    for (c, d) in pairs.zip(&mut out) {
        let lo = u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
        let hi = u32::from_le_bytes([c[4], c[5], c[6], c[7]]);
        *d = nibble(t, shift, lo) | (nibble(t, shift, hi) << 4);
    }
    if let (Some(d), [a, b, c, e]) = (out.next(), rest) {
        let x = u32::from_le_bytes([*a, *b, *c, *e]);
        *d = (*d & 0xF0) | nibble(t, shift, x);
    }
}

/// The f32 → FP4 kernel for `spec`, if the destination is an FP4 type.
pub(super) fn fp4_kernel(spec: ConvSpec) -> Option<Body> {
    let shift = match spec.dst {
        ElemType::F4E2M1x2 => 21,
        ElemType::F4E1M2x2 => 20,
        _ => return None,
    };
    let t = table(spec.dst, spec.rounding, shift)?;
    Some(Box::new(move |s: &[u8], d: &mut [u8]| body(t, shift, s, d)))
}
