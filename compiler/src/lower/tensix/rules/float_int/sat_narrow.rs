//! `sat_narrow`: f32/bf16/f16 → i16/ui16/i8/ui8 with saturation, every rounding mode but ODD.
//! The sequence, its cost and why it is exact: the module doc of `float_int`.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::super::builder::Builder;
use super::super::super::Combo;
use super::super::Chosen;
use super::int_info;

/// The f32 bits of `v` in the working scale of the source: f16 data are worked on as
/// `|h| << 13` with the sign of h, an f32 holding the f16 value times 2^-112 (exact: the
/// constants are integers below 2^24 or powers of two, normal after the scaling).
pub(super) fn scaled(f16: bool, v: f32) -> u32 {
    if f16 {
        (v * 2f32.powi(-112)).to_bits()
    } else {
        v.to_bits()
    }
}

pub(super) fn reg(r: Reg) -> String {
    format!("L{}", r.0)
}

/// Loads x into L0 (f16: the signed value times 2^-112) and, when `abs` is asked for or the
/// source is f16 (free there), |x| in the same scale into L1. Returns whether L1 holds |x|.
pub(super) fn decode(b: &mut Builder, f16: bool, abs: bool) -> bool {
    b.load(Reg::L0, "x");
    if f16 {
        b.op("sfpshft 16, L0, L0, IMM", "h << 16: the f16 sign in bit 31");
        b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "|h| << 16");
        b.op(
            "sfpshft -3, L1, L1, IMM",
            "|x| * 2^-112 = |h| << 13 as an f32 (f16 denormals: f32 denormals)",
        );
        b.op("sfpsetsgn 0, L1, L0, 0", "x * 2^-112 (sign of h)");
        return true;
    }
    if abs {
        b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "|x| bits");
    }
    abs
}

/// NaN lanes (L1 = |x| bits in the working scale, destroyed) get `target` = 0.
pub(super) fn nan_to_zero(b: &mut Builder, f16: bool, target: Reg) {
    let inf = if f16 { 0x0F80_0000u32 } else { 0x7F80_0000 };
    let k = b.constant((inf + 1).wrapping_neg(), Reg::L7, "-(Inf bits + 1)");
    b.op(
        &format!("sfpiadd 0, {}, L1, CC_GTE0", reg(k)),
        "|x| - (Inf + 1); lanes with NaN (>= 0)",
    );
    b.op(&format!("sfploadi {}, USHORT, 0", reg(target)), "NaN -> 0");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

/// Lowers the combination, or `None` when this rule does not take it.
pub fn lower(c: &Combo, b: &mut Builder) -> Option<Chosen> {
    if !c.sat {
        return None;
    }
    if !matches!(
        c.dst,
        ElemType::I16 | ElemType::U16 | ElemType::I8 | ElemType::U8
    ) {
        return None;
    }
    let f16 = match c.src {
        ElemType::F16 => true,
        ElemType::F32 | ElemType::BF16 => false,
        _ => return None,
    };
    let (bits, signed) = int_info(c.dst);
    let hi = if signed {
        (1u32 << (bits - 1)) - 1
    } else {
        (1u32 << bits) - 1
    };
    let exact = !b.nan_any();
    if !exact {
        b.relax();
    }
    let mode = c.rounding;
    let bh = b.arch() == Arch::Bh;
    let stoch_mode = if bits == 16 {
        "FP32_TO_UINT16"
    } else {
        "FP32_TO_UINT8"
    };
    // Unsigned ROUND / TRUNC / FLOOR: SFPSTOCHRND clamps to max itself, and the NaN fix can
    // come last (x is not needed after the rounding).
    let u_stoch = !signed && matches!(mode, Rounding::Round | Rounding::Trunc | Rounding::Floor);

    // 1. Decode; NaN -> 0; clamp to [min, max] in the float domain (SFPSWAP's sign-magnitude
    //    order: the clamp commutes with every rounding mode, the bounds being integers).
    let have_abs = decode(b, f16, exact && !u_stoch);
    if exact && !u_stoch {
        debug_assert!(have_abs);
        nan_to_zero(b, f16, Reg::L0);
    }
    if signed {
        let lo = b.constant(
            scaled(f16, -((hi + 1) as f32)),
            Reg::L7,
            "min (float, working scale)",
        );
        b.op(
            &format!("sfpswap 0, {}, L0, MAX_MIN", reg(lo)),
            "x = max(x, min)",
        );
    } else {
        b.op(
            "sfpswap 0, L9, L0, MAX_MIN",
            "x = max(x, +0): negatives, -0 and -NaN -> +0",
        );
    }
    if !u_stoch {
        let hr = b.constant(
            scaled(f16, hi as f32),
            Reg::L7,
            "max (float, working scale)",
        );
        b.op(
            &format!("sfpswap 0, {}, L0, MIN_MAX", reg(hr)),
            "x = min(x, max)",
        );
    }

    // 2. Round. The result goes to L1.
    let one_scale = |b: &mut Builder| {
        if f16 {
            b.constant(2f32.powi(112).to_bits(), Reg::L7, "2^112")
        } else {
            Reg::L10
        }
    };
    let mut negate = false;
    let mut out = Reg::L1;
    match mode {
        Rounding::Round => {
            let src = if f16 {
                let k = one_scale(b);
                b.op(
                    &format!("sfpmad L0, {}, L9, L1, 0", reg(k)),
                    "x at its true scale (f16 denormals flush to 0: they round to 0)",
                );
                "L1"
            } else {
                "L0"
            };
            b.op(
                &format!("sfpstochrnd 0, 0, {src}, {src}, L1, {stoch_mode}"),
                "|x| rounded half away from zero (clamped to the unit's max)",
            );
            negate = signed;
        }
        Rounding::Trunc | Rounding::Floor if mode == Rounding::Trunc || !signed => {
            // trunc(a) = round_half_away(a - (0.5 - 2^-25)) for 0 <= a < 2^24: integers k land
            // on k - 0.5 (a tie, rounded away to k), other values strictly inside
            // (k - 0.5, k + 0.5); a - c is exact or rounds within the same interval.
            let a = if signed {
                b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "a = |x|");
                "L1"
            } else {
                "L0"
            };
            let k = one_scale(b);
            let c = b.constant(
                (-(0.5f32 - 2f32.powi(-25))).to_bits(),
                Reg::L7,
                "-(0.5 - 2^-25)",
            );
            b.op(
                &format!("sfpmad {a}, {}, {}, L1, 0", reg(k), reg(c)),
                "a - (0.5 - 2^-25) (true scale)",
            );
            b.op(
                &format!("sfpstochrnd 0, 0, L1, L1, L1, {stoch_mode}"),
                "trunc(a) (ties away; clamped to the unit's max)",
            );
            negate = signed;
        }
        Rounding::Rint => {
            // x + 1.5*2^23 rounds to an integer (RNE) for |x| < 2^22; the bits differ from
            // the magic's by that integer.
            let m = scaled(f16, 12_582_912.0);
            let mk = b.constant(m, Reg::L7, "1.5 * 2^23 (working scale)");
            b.op(
                &format!("sfpmad {}, L10, L0, L0, 0", reg(mk)),
                "t = x + 1.5*2^23: rne(x) in the low bits",
            );
            let nk = b.constant(m.wrapping_neg(), Reg::L6, "-(bits of 1.5*2^23)");
            b.op(
                &format!("sfpiadd 0, {}, L0, CC_NONE", reg(nk)),
                "rne(x) = bits(t) - bits(magic)",
            );
            out = Reg::L0;
        }
        Rounding::Odd => {
            // Magnitudes: floor(a) | [a not an integer], then the sign.
            let m2 = scaled(f16, 8_388_608.0);
            let mk = b.constant(m2, Reg::L7, "2^23 (working scale)");
            let mn = b.constant(scaled(f16, -8_388_608.0), Reg::L6, "-2^23");
            b.op("sfpsetsgn 0, L0, L4, ARG_IMM", "a = |x|");
            b.op(
                &format!("sfpmad {}, L10, L4, L2, 0", reg(mk)),
                "t = a + 2^23 (RNE)",
            );
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(mn)),
                "nf = t - 2^23 = rne(a) as a float (exact)",
            );
            let nk = b.constant(m2.wrapping_neg(), Reg::L5, "-(bits of 2^23)");
            b.op(
                &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
                "n = rne(a)",
            );
            b.op(
                "sfpiadd 0, L4, L3, NEG|CC_NONE",
                "d = a - nf (bits; < 0 where rounded up, 0 where a is an integer)",
            );
            super::magic::odd_bit(b, bh);
            super::magic::odd_finish(b);
            out = Reg::L5;
            negate = signed;
        }
        _ => {
            // FLOOR / CEIL (signed), CEIL (unsigned).
            if bh || !signed {
                let m = scaled(f16, 12_582_912.0);
                let mk = b.constant(m, Reg::L7, "1.5 * 2^23 (working scale)");
                let mn = b.constant(scaled(f16, -12_582_912.0), Reg::L6, "-1.5 * 2^23");
                let floor = mode == Rounding::Floor;
                if floor {
                    b.op("sfpmov 0, L0, L0, NEGATE", "-x: floor(x) = -ceil(-x)");
                }
                b.op(
                    &format!("sfpmad L0, L10, {}, L1, 0", reg(mk)),
                    "t = x + 1.5*2^23 (RNE)",
                );
                b.op(
                    &format!("sfpmad L1, L10, {}, L2, 0", reg(mn)),
                    "nf = t - 1.5*2^23 = rne(x) as a float (exact)",
                );
                if floor {
                    b.op(
                        &format!("sfpiadd 0, {}, L1, NEG|CC_NONE", reg(mk)),
                        "-rne(-x) = bits(magic) - bits(t)",
                    );
                } else {
                    let nk = b.constant(m.wrapping_neg(), Reg::L5, "-(bits of 1.5*2^23)");
                    b.op(
                        &format!("sfpiadd 0, {}, L1, CC_NONE", reg(nk)),
                        "rne(x) = bits(t) - bits(magic)",
                    );
                }
                if bh {
                    b.op(
                        "sfpgt 0, L2, L0, SET_VD",
                        "-1 where x > rne(x) (sign-magnitude order, denormals included), else 0",
                    );
                    if floor {
                        b.op(
                            "sfpiadd 0, L0, L1, CC_NONE",
                            "floor(x) = -(rne(-x) + [-x > rne(-x)])",
                        );
                    } else {
                        b.op(
                            "sfpiadd 0, L1, L0, NEG|CC_NONE",
                            "ceil(x) = rne(x) + [x > rne(x)]",
                        );
                        out = Reg::L0;
                    }
                } else {
                    // Unsigned: x >= +0, so the float order is the integer order of the bits.
                    b.op(
                        "sfpiadd 0, L2, L0, NEG|CC_NONE",
                        "nf - x: negative where x > rne(x)",
                    );
                    b.op("sfpshft -31, L0, L0, IMM", "1 where x > rne(x)");
                    b.op(
                        "sfpiadd 0, L0, L1, CC_NONE",
                        "ceil(x) = rne(x) + [x > rne(x)]",
                    );
                }
            } else {
                // Wormhole, signed: magnitudes, then the sign with the residual.
                let m2 = scaled(f16, 8_388_608.0);
                let mk = b.constant(m2, Reg::L7, "2^23 (working scale)");
                let mn = b.constant(scaled(f16, -8_388_608.0), Reg::L6, "-2^23");
                b.op("sfpsetsgn 0, L0, L2, ARG_IMM", "a = |x|");
                b.op(
                    &format!("sfpmad L2, L10, {}, L1, 0", reg(mk)),
                    "t = a + 2^23 (RNE)",
                );
                b.op(
                    &format!("sfpmad L1, L10, {}, L3, 0", reg(mn)),
                    "nf = t - 2^23 = rne(a) as a float (exact)",
                );
                let nk = b.constant(m2.wrapping_neg(), Reg::L5, "-(bits of 2^23)");
                b.op(
                    &format!("sfpiadd 0, {}, L1, CC_NONE", reg(nk)),
                    "n = rne(a) = bits(t) - bits(2^23)",
                );
                // CEIL: e = nf - a (< 0 where a > nf); FLOOR: d = a - nf (< 0 where a < nf).
                let res = if mode == Rounding::Ceil {
                    b.op("sfpiadd 0, L3, L2, NEG|CC_NONE", "e = nf - a (bits)");
                    Reg::L2
                } else {
                    b.op("sfpiadd 0, L2, L3, NEG|CC_NONE", "d = a - nf (bits)");
                    Reg::L3
                };
                let r = reg(res);
                b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
                b.op("sfpiadd 0, L9, L1, NEG|CC_NONE", "-n");
                b.op(
                    &format!("sfpiadd 0, L9, {r}, NEG|CC_NONE"),
                    "residual * sign",
                );
                b.op("sfpencc 0, 0, 0, 0", "all lanes");
                b.op(
                    &format!("sfpshft -31, {r}, {r}, IMM"),
                    "sign bit of the residual",
                );
                if mode == Rounding::Ceil {
                    b.op(
                        &format!("sfpiadd 0, {r}, L1, CC_NONE"),
                        "ceil = sgn*n + [sgn*e < 0]",
                    );
                } else {
                    b.op(
                        &format!("sfpiadd 0, L1, {r}, NEG|CC_NONE"),
                        "floor = sgn*n - [sgn*d < 0]",
                    );
                    out = res;
                }
            }
        }
    }
    if negate {
        b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
        b.op(
            &format!("sfpiadd 0, L9, {}, NEG|CC_NONE", reg(out)),
            "r = -r",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    if u_stoch && exact {
        // +NaN survived max(x, +0) and became max: x - (Inf + 1) >= 0 marks it.
        let inf = if f16 { 0x0F80_0000u32 } else { 0x7F80_0000 };
        let k = b.constant((inf + 1).wrapping_neg(), Reg::L7, "-(Inf bits + 1)");
        b.op(
            &format!("sfpiadd 0, {}, L0, CC_GTE0", reg(k)),
            "x - (Inf + 1); lanes with +NaN (>= 0)",
        );
        b.op(&format!("sfploadi {}, USHORT, 0", reg(out)), "NaN -> 0");
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    b.store(out, "result datum");
    Some(Chosen::new(
        "float_int::sat_narrow",
        &[
            "new: NaN -> 0, SFPSWAP clamp to [min, max] in the float domain, then the mode's rounding by SFPSTOCHRND or a magic-constant SFPMAD",
            "exact: the clamp commutes with rounding (integer bounds); see the module doc; proven by the simulator",
        ],
    ))
}
