//! The per-lane variable-shift rounding of an f32 significand and the two cores built on it:
//! the binary16 encoder [`f16_encode`] (rule `to_f16`, and the last step of `fr_f16`) and the
//! round-to-integral core [`fr_core`] (rules `fr_f32` and `fr_f16`). The rules themselves, the
//! sequences' instruction counts and the argument for their exactness are in the parent module
//! (sections `to_f16`, `fr_f32`, `fr_f16`).
//!
//! What it owns: splitting the f32 pattern into biased exponent and significand
//! (`split_f32`), clamping the per-lane shift (`clamp_shift`), rounding `sig >> s` per mode on
//! the integer (`round_var`), and the encoder and the integral core that chain them.
//!
//! Invariants it relies on: the f32 pattern arrives in L0 with every lane enabled, and every
//! step leaves every lane enabled; the steps pass values in fixed registers (L1 = E, L2 = sig
//! then q, L3 = -s, L4 = s) and use nothing outside L0..L7 (the register conventions of
//! `rules`); after the clamp `1 <= s <= 31` and `sig < 2^24`, what `round_var` needs (a shift
//! clamped to 31 rounds like the true one, parent doc `to_f16`); a subnormal significand
//! carries no hidden bit exactly when the mode can round a tiny magnitude up
//! (`rounds_up_tiny`).

use pto_runtime::convert::Rounding;
use pto_runtime::tensix::isa::Reg;

use super::super::super::builder::Builder;
use super::copy_shift;

/// Whether the mode can round a non-zero magnitude below the grid up to one step (then the
/// f32 subnormal significand must not carry a hidden bit).
fn rounds_up_tiny(mode: Rounding) -> bool {
    matches!(mode, Rounding::Floor | Rounding::Ceil | Rounding::Odd)
}

/// Significand of the f32 pattern in L0 into L2 (hidden bit for normals only when it matters),
/// biased exponent into L1.
fn split_f32(b: &mut Builder, mode: Rounding) {
    b.op("sfpexexp 0, L0, L1, NODEBIAS", "E = biased exponent");
    b.op(
        "sfpexman 0, L0, L2, 0",
        "sig = significand with the hidden bit",
    );
    if rounds_up_tiny(mode) {
        b.op("sfpsetcc 0, L1, 0, LREG_EQ0", "lanes with E = 0");
        b.op("sfpexman 0, L0, L2, PAD9", "subnormal: no hidden bit");
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
}

/// `L3 = -s`, `L4 = s` from `L3` = a raw (negative) shift, clamped to `-31 ..= hi`.
fn clamp_shift(b: &mut Builder, hi: i32) {
    b.op(
        &format!("sfpiadd {}, L3, L6, IMM|CC_GTE0", -hi),
        "lanes whose shift is below the minimum",
    );
    b.imm32(Reg::L3, hi as u32, "shift = minimum");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpiadd 31, L3, L6, IMM", "lanes whose shift exceeds 31");
    b.imm32(
        Reg::L3,
        (-31i32) as u32,
        "shift = 31 (same rounding: sig < 2^24)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpabs 0, L3, L4, 0", "s = -(-s)");
}

/// `L2 = round(L2 >> s)` per `mode` (L3 = -s, L4 = s, 1 <= s <= 31, L2 < 2^24; L0 holds the
/// sign for FLOOR/CEIL); uses L5..L7.
fn round_var(b: &mut Builder, mode: Rounding) {
    let pow = |b: &mut Builder| {
        b.op("sfploadi L5, USHORT, 1", "p = 1");
        b.op("sfpshft 0, L4, L5, 0", "p = 2^s");
    };
    match mode {
        Rounding::Trunc => {}
        Rounding::Round => {
            pow(b);
            b.op("sfpshft -1, L5, L5, IMM", "p = 2^(s-1): half");
            b.op("sfpiadd 0, L5, L2, CC_NONE", "sig += half (ties away)");
        }
        Rounding::Rint => {
            b.op("sfpshft2 2, L3, L6, SHFT_LREG", "t = sig >> s");
            b.op("sfpshft 31, L6, L6, IMM", "  (keep its LSB)");
            b.op("sfpshft -31, L6, L6, IMM", "t = LSB of the kept part");
            b.op("sfpiadd 0, L6, L2, CC_NONE", "sig += LSB");
            pow(b);
            b.op("sfpshft -1, L5, L5, IMM", "p = 2^(s-1): half");
            b.op("sfpiadd 0, L5, L2, CC_NONE", "sig += half");
            b.op(
                "sfpiadd -1, L2, L2, IMM|CC_NONE",
                "sig -= 1: ties go to even",
            );
        }
        Rounding::Floor | Rounding::Ceil => {
            pow(b);
            b.op("sfpiadd -1, L5, L5, IMM|CC_NONE", "p = 2^s - 1");
            if mode == Rounding::Floor {
                b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x negative");
            } else {
                b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "lanes with x positive");
            }
            b.op(
                "sfpiadd 0, L5, L2, CC_NONE",
                "sig += 2^s - 1 (away from zero)",
            );
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
        Rounding::Odd | Rounding::Hybrid => {
            b.op("sfpmov 0, L2, L5, 0", "keep sig");
        }
    }
    b.op("sfpshft 0, L3, L2, 0", "q = sig >> s");
    if matches!(mode, Rounding::Odd | Rounding::Hybrid) {
        b.op("sfpshft2 2, L4, L6, SHFT_LREG", "t = q << s");
        b.op(
            "sfpiadd 0, L5, L6, NEG|CC_NONE",
            "t = sig - (q << s): discarded bits",
        );
        b.op(
            "sfpsetcc 0, L6, 0, LREG_NE0",
            "lanes with a discarded bit set",
        );
        b.op("sfploadi L7, USHORT, 1", "1");
        b.op("sfpor 0, L7, L2, 0", "q |= 1 (round to odd)");
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
}

/// The f32 pattern in L0 → binary16 bits in L2 (§4.3); L0 is consumed, L1..L7 used.
pub(super) fn f16_encode(b: &mut Builder, mode: Rounding, sat: bool) {
    split_f32(b, mode);
    b.op(
        "sfpiadd -126, L1, L3, IMM|CC_NONE",
        "-s = E - 126: the fp16 grid step is 2^max(E-150+13, -24)",
    );
    clamp_shift(b, -13);
    round_var(b, mode);
    b.op(
        "sfpiadd -113, L1, L6, IMM",
        "base = E - 113; lanes with E < 113",
    );
    b.op("sfploadi L6, USHORT, 0", "base = 0 (subnormal results)");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpshft 10, L6, L6, IMM", "base << 10");
    b.op(
        "sfpiadd 0, L6, L2, CC_NONE",
        "r = base + q (the hidden bit and any carry step the exponent)",
    );
    copy_shift(b, Reg::L6, Reg::L2, -10, "t = r >> 10");
    b.op(
        "sfpiadd -31, L6, L6, IMM|CC_GTE0",
        "lanes with r >= 0x7C00: overflow",
    );
    let away_inf = !sat && matches!(mode, Rounding::Rint | Rounding::Round);
    b.imm32(
        Reg::L2,
        if away_inf { 0x7C00 } else { 0x7BFF },
        "overflow: Inf (RINT/ROUND) or max (TRUNC/ODD/sat)",
    );
    if !sat && matches!(mode, Rounding::Floor | Rounding::Ceil) {
        if mode == Rounding::Floor {
            b.op(
                "sfpsetcc 0, L0, 0, LREG_LT0",
                "negative lanes (FLOOR -> -Inf)",
            );
        } else {
            b.op(
                "sfpsetcc 0, L0, 0, LREG_GTE0",
                "positive lanes (CEIL -> +Inf)",
            );
        }
        b.imm32(Reg::L2, 0x7C00, "Inf");
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op(
        "sfpiadd -255, L1, L6, IMM|CC_GTE0",
        "lanes with E = 255 (Inf, NaN)",
    );
    b.imm32(Reg::L2, if sat { 0x7BFF } else { 0x7C00 }, "Inf (sat: max)");
    if b.nan_any() {
        // --nan=any: NaN lanes keep the Inf (or max).
        b.relax();
    } else {
        b.op("sfpexman 0, L0, L6, PAD9", "t = fraction");
        b.op(
            "sfpiadd -1, L6, L6, IMM|CC_GTE0",
            "lanes with a fraction (NaN)",
        );
        b.imm32(Reg::L2, 0x7E00, "canonical quiet NaN");
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpshft -31, L0, L0, IMM", "sign of x");
    b.op("sfpshft 15, L0, L0, IMM", "  at bit 15");
    b.op("sfpor 0, L0, L2, 0", "r |= sign");
}

/// Rounds the f32 pattern in L0 to an integral value (FR, §4.3) in L0; L1..L7 used.
pub(super) fn fr_core(b: &mut Builder, mode: Rounding) {
    split_f32(b, mode);
    b.op(
        "sfpiadd -150, L1, L3, IMM|CC_NONE",
        "-s = E - 150 (the fraction bits of sig)",
    );
    clamp_shift(b, -1);
    round_var(b, mode);
    b.op("sfpcast L2, L2, RNE", "r = float(q): exact (q <= 2^24)");
    b.op(
        "sfpiadd -150, L1, L6, IMM|CC_GTE0",
        "lanes with E >= 150: already integral",
    );
    b.op("sfpmov 0, L0, L2, 0", "r = x");
    if b.nan_any() {
        // --nan=any: NaN lanes keep x.
        b.relax();
    } else {
        b.op("sfpiadd -105, L6, L6, IMM|CC_GTE0", "lanes with E = 255");
        b.op("sfpexman 0, L0, L6, PAD9", "t = fraction");
        b.op(
            "sfpiadd -1, L6, L6, IMM|CC_GTE0",
            "lanes with a fraction (NaN)",
        );
        b.op("sfploadi L2, FLOATB, 0x7fc0", "canonical quiet NaN");
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op(
        "sfpsetsgn 0, L2, L0, 0",
        "result = |r| with the sign of x (-0 kept)",
    );
}
