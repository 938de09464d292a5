//! Round to integral (FR) of an f32 pattern by the FPU's own rounding or by masking the
//! fraction bits: rules `fr_rint` (RINT), `fr_mask` (TRUNC, FLOOR, CEIL, ROUND) for f32 → f32
//! and bf16 → bf16. ODD stays with the per-lane shift of `fr_f32` (`shift_round`). The
//! sequences, their counts and why they are exact are in the parent module (sections
//! `fr_rint`, `fr_mask`).
//!
//! What it owns: the fraction mask `M` of a pattern (`trunc_bits`, after Tenstorrent's
//! tt-llk trunc: `M = 0x80000000` for |v| < 1, `-1 << (23 - e)` for unbiased exponents
//! `0 <= e <= 23`, all ones above), the magic-constant RINT, and the per-mode adjustments.
//!
//! Invariants it relies on: the f32 pattern arrives in L0 with every lane enabled; every
//! sequence leaves every lane enabled; L0..L5 are used, L9 (0), L10 (1.0) are read; the
//! constants come from [`Builder::constant`]. MAD-class inputs are flushed when denormal (both
//! archs) and a BH MAD returns the canonical NaN `0x7FC00000` for a NaN input (tensix.md §3),
//! which the BH sequences use to canonicalise NaN for free; WH MAD NaNs leak bits, so the WH
//! sequences rebuild NaN lanes explicitly.

use pto_runtime::convert::Rounding;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::super::builder::Builder;

fn l(r: Reg) -> String {
    format!("L{}", r.0)
}

/// `L1 = v & M`: the pattern `v` with its fraction bits cleared (trunc toward zero, sign kept;
/// |v| < 1 and denormals give ±0; |v| >= 2^23, Inf and NaN unchanged). Uses L2 (k) and a
/// constant register holding 23.
fn trunc_bits(b: &mut Builder, v: Reg) {
    let k23 = b.constant(23, Reg::L3, "23: fraction bits of an f32");
    b.op(
        "sfploadi L1, FLOATB, 0x8000",
        "M = sign bit only (|v| < 1 -> ±0)",
    );
    b.op(
        &format!("sfpexexp 0, {}, L2, CC_SGN|CC_COMP", l(v)),
        "e = unbiased exponent of v; lanes with e >= 0",
    );
    b.op("sfploadi L1, SHORT, 0xffff", "M = all ones");
    b.op(
        &format!("sfpiadd 0, {}, L2, NEG|CC_GTE0", l(k23)),
        "k = 23 - e; lanes with e <= 23 (the others are integral)",
    );
    b.op(
        "sfpshft2 1, L2, L1, SHFT_LREG",
        "M = -1 << k: the k fraction bits cleared",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op(&format!("sfpand 0, {}, L1, 0", l(v)), "t = v & M");
}

/// NaN lanes of `x` (tested on the pattern, `tmp` scratch) get `0x7FC00000` in `dst`; the sign
/// is restored by the caller's final SFPSETSGN. All lanes enabled after.
fn nan_lanes_canonical(b: &mut Builder, x: Reg, tmp: Reg, dst: Reg) {
    let knan = b.constant(
        0x007F_FFFF,
        Reg::L7,
        "0x7FFFFF: |x| + it < 0 exactly for NaN",
    );
    b.op(
        &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(tmp)),
        "u = |x| (pattern)",
    );
    b.op(
        &format!("sfpiadd 0, {}, {}, CC_LT0", l(knan), l(tmp)),
        "u += 0x7FFFFF; lanes with u < 0: NaN",
    );
    b.op(
        &format!("sfploadi {}, FLOATB, 0x7fc0", l(dst)),
        "canonical quiet NaN (sign restored below)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

/// RINT of the f32 pattern in L0, result in L0 (`fr_rint`).
pub(super) fn fr_rint(b: &mut Builder) {
    let k23 = b.constant(
        0x4B00_0000,
        Reg::L6,
        "2^23 (magic: rounds |x| < 2^23 to an integer)",
    );
    let kneg = b.constant(0xB500_0000, Reg::L7, "-0x4B000000: |x| - 2^23 as patterns");
    b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "a = |x|");
    b.op(
        &format!("sfpmad L10, L1, {}, L2, 0", l(k23)),
        "s = a + 2^23: the FPU rounds to nearest even at the units place",
    );
    let relaxed = b.nan_any();
    if relaxed {
        b.relax();
    }
    match (b.arch(), relaxed) {
        (Arch::Bh, false) => {
            b.op(
                &format!("sfpiadd 0, {}, L1, CC_GTE0", l(kneg)),
                "a - 2^23 (patterns); lanes with |x| >= 2^23: integral, Inf, NaN",
            );
            b.op(
                "sfpmad L0, L10, L9, L2, 0",
                "r = x * 1 + 0: x itself, NaN -> 0x7FC00000 (BH)",
            );
            b.op("sfpcompc 0, 0, 0, 0", "lanes with |x| < 2^23");
            b.op("sfpaddi 0xcb00, L2, 0", "r = s - 2^23: exact");
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
            b.op("sfpsetsgn 0, L2, L0, 0", "result = |r| with the sign of x");
        }
        (Arch::Wh, false) => {
            b.op(
                &format!("sfpiadd 0, {}, L1, CC_LT0", l(kneg)),
                "a - 2^23 (patterns); lanes with |x| < 2^23",
            );
            b.op("sfpaddi 0xcb00, L2, 0", "r = s - 2^23: exact");
            b.op(
                "sfpcompc 0, 0, 0, 0",
                "lanes with |x| >= 2^23: integral, Inf, NaN",
            );
            b.op("sfpsetsgn 0, L0, L2, ARG_IMM", "r = |x|");
            let kn = b.constant(
                0xCB7F_FFFF,
                Reg::L3,
                "-(0x7F800001 - 0x4B000000): a - 2^23 - it >= 0 exactly for NaN",
            );
            b.op(
                &format!("sfpiadd 0, {}, L1, CC_GTE0", l(kn)),
                "lanes with x NaN",
            );
            b.op("sfploadi L2, FLOATB, 0x7fc0", "r = canonical quiet NaN");
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
            b.op("sfpsetsgn 0, L2, L0, 0", "result = |r| with the sign of x");
        }
        (_, true) => {
            b.op(
                &format!("sfpiadd 0, {}, L1, CC_LT0", l(kneg)),
                "a - 2^23 (patterns); lanes with |x| < 2^23",
            );
            b.op("sfpaddi 0xcb00, L2, 0", "r = s - 2^23: exact");
            b.op(
                "sfpsetsgn 0, L2, L0, 0",
                "x = |r| with the sign of x (-0 kept)",
            );
            b.op(
                "sfpencc 0, 0, 0, 0",
                "all lanes (x stays where |x| >= 2^23)",
            );
        }
    }
}

/// TRUNC / FLOOR / CEIL / ROUND of the f32 pattern in L0; returns the register holding the
/// result (`fr_mask`).
pub(super) fn fr_mask(b: &mut Builder, mode: Rounding) -> Reg {
    let relaxed = b.nan_any();
    let bh = b.arch() == Arch::Bh;
    if mode == Rounding::Round {
        // ROUND(|x|) = trunc(|x| + (0.5 - 2^-25)): the sum rounds up across an integer
        // exactly when the fraction is >= 0.5 (parent doc).
        let kc = b.constant(0x3EFF_FFFF, Reg::L6, "0.5 - 2^-25");
        b.op("sfpsetsgn 0, L0, L5, ARG_IMM", "a = |x|");
        b.op(
            &format!("sfpmad L10, L5, {}, L4, 0", l(kc)),
            "s = a + (0.5 - 2^-25) (BH: NaN -> 0x7FC00000)",
        );
        trunc_bits(b, Reg::L4);
        if !bh {
            if relaxed {
                b.relax();
            } else {
                nan_lanes_canonical(b, Reg::L0, Reg::L5, Reg::L1);
            }
        }
        b.op("sfpsetsgn 0, L1, L0, 0", "result = |t| with the sign of x");
        return Reg::L0;
    }
    // The value the mask is applied to: x, or on BH (exact) x * 1 + 0, whose NaN is canonical.
    let v = if relaxed {
        b.relax();
        Reg::L0
    } else if bh {
        b.op(
            "sfpmad L0, L10, L9, L4, NEGATE_VC",
            "v = x * 1 - 0: NaN -> 0x7FC00000 (BH), denormal -> ±0, -0 kept",
        );
        Reg::L4
    } else {
        super::nan_to_canonical(b, Reg::L0, Reg::L2, 0x7FC0_0000);
        Reg::L0
    };
    trunc_bits(b, v);
    let away = match mode {
        Rounding::Floor => Some(true),
        Rounding::Ceil => Some(false),
        _ => None,
    };
    if let Some(floor) = away {
        if bh {
            if floor {
                b.op(
                    "sfpgt 0, L0, L1, SET_CC",
                    "lanes with t > x (x negative, inexact)",
                );
                b.op("sfpmad L10, L1, L10, L1, NEGATE_VC", "t = t - 1: exact");
            } else {
                b.op(
                    "sfpgt 0, L1, L0, SET_CC",
                    "lanes with x > t (x positive, inexact)",
                );
                b.op("sfpmad L10, L1, L10, L1, 0", "t = t + 1: exact");
            }
        } else {
            if floor {
                b.op("sfpsetcc 0, L1, 0, LREG_LT0", "lanes with x negative");
            } else {
                b.op("sfpsetcc 0, L1, 0, LREG_GTE0", "lanes with x positive");
            }
            b.op(
                "sfpiadd 0, L1, L0, NEG|CC_LT0",
                "t - x < 0 (patterns of one sign): x is not integral",
            );
            if floor {
                let km1 = b.constant(0xBF80_0000, Reg::L5, "-1.0");
                b.op(
                    &format!("sfpmad L10, L1, {}, L1, 0", l(km1)),
                    "t = t - 1: exact",
                );
            } else {
                b.op("sfpmad L10, L1, L10, L1, 0", "t = t + 1: exact");
            }
        }
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    if v == Reg::L4 {
        b.op("sfpsetsgn 0, L1, L0, 0", "result = |t| with the sign of x");
        Reg::L0
    } else {
        Reg::L1
    }
}
