//! `magic`: f32/bf16/f16 → every integer destination with saturation OFF, and → i32/ui32 with
//! saturation ON; RINT, ROUND, FLOOR, CEIL (and TRUNC for f16). The sequence, its cost and why
//! it is exact: the module doc of `float_int`.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::super::builder::Builder;
use super::super::super::Combo;
use super::super::Chosen;
use super::sat_narrow::{reg, scaled};
use super::{canonical_in, int_info};

/// Lowers the combination, or `None` when this rule does not take it.
pub fn lower(c: &Combo, b: &mut Builder) -> Option<Chosen> {
    let f16 = match c.src {
        ElemType::F16 => true,
        ElemType::F32 | ElemType::BF16 => false,
        _ => return None,
    };
    let (bits, signed) = int_info(c.dst);
    if c.sat && bits != 32 {
        return None;
    }
    let mode = c.rounding;
    match mode {
        Rounding::Rint | Rounding::Round | Rounding::Floor | Rounding::Ceil => {}
        Rounding::Trunc | Rounding::Odd if f16 => {}
        // Wormhole i16 sat OFF: the general rule's ODD is one cycle shorter.
        Rounding::Odd if !(f16 || b.arch() == Arch::Wh && c.dst == ElemType::I16 && !c.sat) => {}
        _ => return None,
    }
    if f16 {
        f16_kernel(c, b, bits, signed);
    } else {
        f32_kernel(c, b, bits, signed);
    }
    Some(Chosen::new(
        "float_int::magic",
        &[
            "new: the rounded magnitude from a magic-constant SFPMAD (|x| + 2^23 rounds to nearest even) with an integer compare-and-adjust for the other modes, the exact shift for |x| >= 2^23, then the range rules and the sign",
            "exact: see the module doc; proven by the simulator",
        ],
    ))
}

/// The unsigned saturating destination: negatives clamp to 0 in the float domain first.
fn u32_sat(c: &Combo) -> bool {
    c.sat && c.dst == ElemType::U32
}

/// f32/bf16. L0 = x, L1 = a = |x| (or x when x >= +0), L2 = t → n → r, L3 = residual,
/// L4 = exponent / shift.
fn f32_kernel(c: &Combo, b: &mut Builder, bits: u32, signed: bool) {
    let mode = c.rounding;
    let usat = u32_sat(c);
    let exact = !b.nan_any();
    b.load(Reg::L0, "x");
    let a = if usat {
        b.op(
            "sfpswap 0, L9, L0, MAX_MIN",
            "x = max(x, +0): negatives, -0, -Inf, -NaN -> +0 (they give 0)",
        );
        if mode == Rounding::Ceil {
            b.op("sfpmov 0, L0, L1, 0", "a = x (>= +0)");
            Reg::L1
        } else {
            Reg::L0
        }
    } else {
        b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "a = |x|");
        Reg::L1
    };
    let ra = reg(a);
    let m23 = b.constant(0x4B00_0000, Reg::L7, "2^23");
    b.op(
        &format!("sfpmad {}, L10, {ra}, L2, 0", reg(m23)),
        "t = a + 2^23: rne(a) in the low bits for a < 2^23",
    );
    // Residual for the modes that adjust rne(a).
    let mut resid: Option<Reg> = None;
    let nbias: u32 = if mode == Rounding::Round {
        0x4AFF_FFFF
    } else {
        0x4B00_0000
    };
    match mode {
        Rounding::Round => {
            let hk = b.constant((0.5f32 - 8_388_608.0).to_bits(), Reg::L6, "0.5 - 2^23");
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(hk)),
                "h = t - 2^23 + 0.5 = rne(a) + 0.5 (exact)",
            );
            b.op(
                &format!("sfpiadd 0, {ra}, L3, NEG|CC_NONE"),
                "a - h: >= 0 only on a tie rounded down to even",
            );
            b.op("sfpshft -31, L3, L3, IMM", "1 unless a tie rounded down");
        }
        Rounding::Floor | Rounding::Ceil => {
            let nk = b.constant(0xCB00_0000, Reg::L6, "-2^23");
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(nk)),
                "nf = t - 2^23 = rne(a) as a float (exact)",
            );
            if mode == Rounding::Floor {
                b.op(
                    &format!("sfpiadd 0, {ra}, L3, NEG|CC_NONE"),
                    "d = a - nf (bits; < 0 where rne(a) rounded up)",
                );
                resid = Some(Reg::L3);
            } else {
                b.op(
                    &format!("sfpiadd 0, L3, {ra}, NEG|CC_NONE"),
                    "e = nf - a (bits; < 0 where rne(a) rounded down)",
                );
                resid = Some(a);
            }
        }
        Rounding::Odd => {
            let nk = b.constant(0xCB00_0000, Reg::L6, "-2^23");
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(nk)),
                "nf = t - 2^23 = rne(a) as a float (exact)",
            );
            b.op(
                &format!("sfpiadd 0, {ra}, L3, NEG|CC_NONE"),
                "d = a - nf (bits; < 0 where rne(a) rounded up, 0 where a is an integer)",
            );
            if b.arch() == Arch::Bh {
                b.op(
                    "sfpshft -31, L3, L5, IMM|IMM_USE_VC",
                    "1 where rne(a) rounded up",
                );
            } else {
                b.op("sfpmov 0, L3, L5, 0", "d");
                b.op("sfpshft -31, L5, L5, IMM", "1 where rne(a) rounded up");
            }
        }
        _ => {}
    }
    let nk = b.constant(nbias.wrapping_neg(), Reg::L6, "-(bits of 2^23)");
    b.op(
        &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
        "n = bits(t) - bits(2^23) = rne(a) (ROUND: + 1)",
    );
    // The register holding the magnitude (then the result).
    let mut nr = Reg::L2;
    if mode == Rounding::Round {
        b.op(
            "sfpiadd 0, L2, L3, NEG|CC_NONE",
            "round half away = rne(a) + 1 - [not a tie rounded down]",
        );
        nr = Reg::L3;
    }
    if mode == Rounding::Odd {
        b.op(
            "sfpiadd 0, L2, L5, NEG|CC_NONE",
            "floor(a) = rne(a) - [rounded up]",
        );
        b.op(
            "sfpsetcc 0, L3, 0, LREG_NE0",
            "lanes where a is not an integer",
        );
        let one = b.constant(1, Reg::L6, "1");
        b.op(
            &format!("sfpor 0, {}, L5, 0", reg(one)),
            "round to odd: floor | 1",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
        nr = Reg::L5;
    }
    let n = reg(nr);
    // Big lanes: E >= 23, x is an integer: n = m << (E - 23).
    b.op("sfpexexp 0, L0, L4, 0", "E");
    b.op(
        "sfpiadd -23, L4, L4, IMM|CC_GTE0",
        "E - 23; lanes with |x| >= 2^23 (Inf, NaN)",
    );
    if let Some(r) = resid {
        b.op(
            &format!("sfpmov 0, L9, {}, 0", reg(r)),
            "no adjustment: x is an integer",
        );
    }
    b.op(&format!("sfpexman 0, L0, {n}, 0"), "m");
    b.op(
        &format!("sfpshft 0, L4, {n}, 0"),
        "m << (E - 23) (mod 2^32)",
    );
    match (c.dst, c.sat) {
        (ElemType::U32, false) => {
            b.op(
                "sfpiadd -32, L4, L4, IMM|CC_GTE0",
                "lanes with E >= 55 (Inf, NaN): low 32 bits of the i64 result are 0",
            );
            b.op(&format!("sfploadi {n}, USHORT, 0"), "0");
        }
        (ElemType::U32, true) => {
            b.op(
                "sfpiadd -9, L4, L4, IMM|CC_GTE0",
                "lanes with x >= 2^32 (+Inf, +NaN)",
            );
            b.op(&format!("sfploadi {n}, SHORT, 0xffff"), "UINT_MAX");
            if exact {
                let k = b.constant(0x807F_FFFF, Reg::L7, "-(Inf bits + 1)");
                b.op(
                    &format!("sfpiadd 0, {}, L0, CC_GTE0", reg(k)),
                    "x - (Inf + 1); lanes with +NaN",
                );
                b.op(&format!("sfploadi {n}, USHORT, 0"), "NaN -> 0");
            } else {
                b.relax();
            }
        }
        (ElemType::I32, true) => {
            b.op(
                "sfpiadd -8, L4, L4, IMM|CC_GTE0",
                "lanes with |x| >= 2^31 (Inf, NaN)",
            );
            b.op(
                &format!("sfploadi {n}, FLOATB, 0x8000"),
                "INT_MIN (kept by the negation)",
            );
            b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "... with x >= 0");
            b.op(&format!("sfpiadd -1, {n}, {n}, IMM|CC_NONE"), "INT_MAX");
        }
        _ => {
            b.op(
                "sfpiadd -8, L4, L4, IMM|CC_GTE0",
                "lanes with |x| >= 2^31 (Inf, NaN)",
            );
            b.op(
                &format!("sfploadi {n}, FLOATB, 0x8000"),
                "INT_MIN (x86 rule; its low bits are 0)",
            );
        }
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    if !usat {
        b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
        b.op(&format!("sfpiadd 0, L9, {n}, NEG|CC_NONE"), "r = -n");
        if let Some(r) = resid {
            b.op(
                &format!("sfpiadd 0, L9, {}, NEG|CC_NONE", reg(r)),
                "residual times the sign",
            );
        }
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    let mut out = nr;
    if let Some(r) = resid {
        let rr = reg(r);
        b.op(
            &format!("sfpshft -31, {rr}, {rr}, IMM"),
            "sign bit of the signed residual",
        );
        if mode == Rounding::Floor {
            b.op(
                &format!("sfpiadd 0, {n}, {rr}, NEG|CC_NONE"),
                "floor = r - [signed residual says rounded up]",
            );
            out = r;
        } else {
            b.op(
                &format!("sfpiadd 0, {rr}, {n}, CC_NONE"),
                "ceil = r + [signed residual says rounded down]",
            );
        }
    }
    if c.sat && c.dst == ElemType::I32 {
        if exact {
            if a == Reg::L1 && resid == Some(Reg::L1) {
                b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "|x| again");
            }
            let k = b.constant(0x807F_FFFF, Reg::L7, "-(Inf bits + 1)");
            b.op(
                &format!("sfpiadd 0, {}, L1, CC_GTE0", reg(k)),
                "|x| - (Inf + 1); lanes with NaN",
            );
            b.op(&format!("sfploadi {}, USHORT, 0", reg(out)), "NaN -> 0");
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        } else {
            b.relax();
        }
    }
    if !c.sat && bits < 32 {
        canonical_in(b, out, bits, signed);
    }
    b.store(out, "result datum");
}

/// f16: every finite value is below 2^17, so only the rounding and the Inf/NaN lanes remain.
/// Worked on as `|h| << 13` (an f32 holding |x| * 2^-112, f16 denormals as f32 denormals).
/// L0 = h << 16 (sign in bit 31; with `sy`: x * 2^-112 with its sign), L1 = y = |x| * 2^-112,
/// L2 = r.
fn f16_kernel(c: &Combo, b: &mut Builder, bits: u32, signed: bool) {
    let mode = c.rounding;
    let usat = u32_sat(c);
    let exact = !b.nan_any();
    let bh = b.arch() == Arch::Bh;
    // The signed scaled value is needed by the magic RINT, the BH compare and the clamp.
    let need_sy =
        usat || mode == Rounding::Rint || (bh && matches!(mode, Rounding::Floor | Rounding::Ceil));
    b.load(Reg::L0, "h");
    b.op("sfpshft 16, L0, L0, IMM", "h << 16: the f16 sign in bit 31");
    b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "|h| << 16");
    b.op(
        "sfpshft -3, L1, L1, IMM",
        "y = |h| << 13 = |x| * 2^-112 as an f32 (f16 denormals: f32 denormals)",
    );
    if need_sy {
        b.op("sfpsetsgn 0, L1, L0, 0", "x * 2^-112 (sign of h)");
    }
    // The non-negative working value (after the clamp for ui32 sat).
    let mag = if usat {
        b.op(
            "sfpswap 0, L9, L0, MAX_MIN",
            "x = max(x, +0): negatives, -0, -Inf, -NaN -> +0 (they give 0)",
        );
        Reg::L0
    } else {
        Reg::L1
    };
    let rm = reg(mag);
    let inf = 0x0F80_0000u32;
    let mut sign_after = false;
    let mut y_alive = true;
    let mut out = Reg::L2;
    match mode {
        Rounding::Rint => {
            let m = scaled(true, 12_582_912.0);
            let mk = b.constant(m, Reg::L7, "1.5 * 2^23 * 2^-112");
            b.op(
                &format!("sfpmad {}, L10, L0, L2, 0", reg(mk)),
                "t = x + 1.5*2^23 (scaled): rne(x) in the low bits",
            );
            let nk = b.constant(m.wrapping_neg(), Reg::L6, "-(bits of the magic)");
            b.op(
                &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
                "rne(x) = bits(t) - bits(magic)",
            );
        }
        Rounding::Round | Rounding::Trunc => {
            let k = b.constant(2f32.powi(112).to_bits(), Reg::L7, "2^112");
            let addend = if mode == Rounding::Round {
                Reg::L9
            } else {
                b.constant(
                    (-(0.5f32 - 2f32.powi(-25))).to_bits(),
                    Reg::L6,
                    "-(0.5 - 2^-25)",
                )
            };
            b.op(
                &format!("sfpmad {rm}, {}, {}, L2, 0", reg(k), reg(addend)),
                if mode == Rounding::Round {
                    "|x| at its true scale (f16 denormals flush to 0: they round to 0)"
                } else {
                    "|x| - (0.5 - 2^-25): trunc(|x|) = its rounding half away"
                },
            );
            b.op(
                "sfpstochrnd 0, 0, L2, L2, L2, FP32_TO_UINT16",
                "magnitude rounded half away (|x| <= 65504 < 65535.5; Inf/NaN replaced below)",
            );
            sign_after = !usat;
        }
        Rounding::Odd => {
            // Magnitudes: floor(|x|) | [|x| not an integer], then the sign.
            let m2 = scaled(true, 8_388_608.0);
            let mk = b.constant(m2, Reg::L7, "2^23 * 2^-112");
            let mn = b.constant(scaled(true, -8_388_608.0), Reg::L6, "-2^23 * 2^-112");
            b.op(
                &format!("sfpmad {}, L10, {rm}, L2, 0", reg(mk)),
                "t = |x| + 2^23 (RNE)",
            );
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(mn)),
                "nf = t - 2^23 = rne(|x|) as a float (exact)",
            );
            let nk = b.constant(m2.wrapping_neg(), Reg::L5, "-(bits of 2^23)");
            b.op(
                &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
                "n = rne(|x|)",
            );
            b.op(
                &format!("sfpiadd 0, {rm}, L3, NEG|CC_NONE"),
                "d = |x| - nf (bits; < 0 where rounded up, 0 where |x| is an integer)",
            );
            odd_tail(b, bh);
            out = Reg::L5;
            sign_after = !usat;
        }
        _ if usat || bh => {
            // FLOOR / CEIL on the signed scaled value (ui32 sat: x >= +0).
            let m = scaled(true, 12_582_912.0);
            let mk = b.constant(m, Reg::L7, "1.5 * 2^23 * 2^-112");
            let mn = b.constant(scaled(true, -12_582_912.0), Reg::L6, "-1.5 * 2^23 * 2^-112");
            let floor = mode == Rounding::Floor;
            if usat || !floor {
                b.op("sfpmov 0, L0, L3, 0", "x");
            } else {
                b.op("sfpmov 0, L0, L3, NEGATE", "-x: floor(x) = -ceil(-x)");
            }
            b.op(
                &format!("sfpmad {}, L10, L3, L2, 0", reg(mk)),
                "t = x + 1.5*2^23 (RNE)",
            );
            b.op(
                &format!("sfpmad L2, L10, {}, L4, 0", reg(mn)),
                "nf = t - 1.5*2^23 = rne(x) as a float (exact)",
            );
            let neg_result = floor && !usat;
            if neg_result {
                b.op(
                    &format!("sfpiadd 0, {}, L2, NEG|CC_NONE", reg(mk)),
                    "-rne(-x) = bits(magic) - bits(t)",
                );
            } else {
                let nk = b.constant(m.wrapping_neg(), Reg::L5, "-(bits of the magic)");
                b.op(
                    &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
                    "rne(x) = bits(t) - bits(magic)",
                );
            }
            if bh {
                if floor && usat {
                    b.op(
                        "sfpgt 0, L3, L4, SET_VD",
                        "-1 where rne(x) > x (sign-magnitude order), else 0",
                    );
                    b.op(
                        "sfpiadd 0, L4, L2, CC_NONE",
                        "floor(x) = rne(x) - [rne(x) > x]",
                    );
                } else {
                    b.op(
                        "sfpgt 0, L4, L3, SET_VD",
                        "-1 where x > rne(x) (sign-magnitude order, denormals included), else 0",
                    );
                    if neg_result {
                        b.op(
                            "sfpiadd 0, L3, L2, CC_NONE",
                            "floor(x) = -(rne(-x) + [-x > rne(-x)])",
                        );
                    } else {
                        b.op(
                            "sfpiadd 0, L2, L3, NEG|CC_NONE",
                            "ceil(x) = rne(x) + [x > rne(x)]",
                        );
                        out = Reg::L3;
                    }
                }
            } else if floor {
                // x >= +0: the float order is the integer order of the bits.
                b.op(
                    "sfpiadd 0, L3, L4, NEG|CC_NONE",
                    "x - nf: negative where rne(x) > x",
                );
                b.op("sfpshft -31, L4, L4, IMM", "1 where rne(x) > x");
                b.op(
                    "sfpiadd 0, L2, L4, NEG|CC_NONE",
                    "floor(x) = rne(x) - [rne(x) > x]",
                );
                out = Reg::L4;
            } else {
                b.op(
                    "sfpiadd 0, L4, L3, NEG|CC_NONE",
                    "nf - x: negative where x > rne(x)",
                );
                b.op("sfpshft -31, L3, L3, IMM", "1 where x > rne(x)");
                b.op(
                    "sfpiadd 0, L3, L2, CC_NONE",
                    "ceil(x) = rne(x) + [x > rne(x)]",
                );
            }
        }
        _ => {
            // Wormhole FLOOR / CEIL: magnitudes, then the sign with the residual.
            let m2 = scaled(true, 8_388_608.0);
            let mk = b.constant(m2, Reg::L7, "2^23 * 2^-112");
            let mn = b.constant(scaled(true, -8_388_608.0), Reg::L6, "-2^23 * 2^-112");
            b.op(
                &format!("sfpmad {}, L10, L1, L2, 0", reg(mk)),
                "t = y + 2^23 (RNE)",
            );
            b.op(
                &format!("sfpmad L2, L10, {}, L3, 0", reg(mn)),
                "nf = t - 2^23 = rne(y) as a float (exact)",
            );
            let nk = b.constant(m2.wrapping_neg(), Reg::L5, "-(bits of 2^23)");
            b.op(
                &format!("sfpiadd 0, {}, L2, CC_NONE", reg(nk)),
                "n = rne(|x|)",
            );
            let res = if mode == Rounding::Ceil {
                b.op("sfpmov 0, L1, L4, 0", "y");
                b.op("sfpiadd 0, L3, L4, NEG|CC_NONE", "e = nf - y (bits)");
                Reg::L4
            } else {
                b.op("sfpiadd 0, L1, L3, NEG|CC_NONE", "d = y - nf (bits)");
                Reg::L3
            };
            let r = reg(res);
            b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
            b.op("sfpiadd 0, L9, L2, NEG|CC_NONE", "-n");
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
                    &format!("sfpiadd 0, {r}, L2, CC_NONE"),
                    "ceil = sgn*n + [sgn*e < 0]",
                );
            } else {
                b.op(
                    &format!("sfpiadd 0, L2, {r}, NEG|CC_NONE"),
                    "floor = sgn*n - [sgn*d < 0]",
                );
                out = res;
            }
        }
    }
    let o = reg(out);
    if sign_after {
        b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
        b.op(&format!("sfpiadd 0, L9, {o}, NEG|CC_NONE"), "r = -r");
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    // Inf / NaN lanes: |x| bits >= Inf (scaled).
    let k = b.constant(inf.wrapping_neg(), Reg::L7, "-(Inf bits, scaled)");
    if usat {
        b.op(
            &format!("sfpiadd 0, {}, L0, CC_GTE0", reg(k)),
            "x - Inf; lanes with +Inf, +NaN",
        );
        b.op(&format!("sfploadi {o}, SHORT, 0xffff"), "UINT_MAX");
        if exact {
            b.op("sfpiadd -1, L0, L0, IMM|CC_GTE0", "lanes with +NaN");
            b.op(&format!("sfploadi {o}, USHORT, 0"), "NaN -> 0");
        } else {
            b.relax();
        }
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    } else {
        if !y_alive {
            b.op("sfpsetsgn 0, L0, L1, ARG_IMM", "|x| bits");
        }
        y_alive = false;
        b.op(
            &format!("sfpiadd 0, {}, L1, CC_GTE0", reg(k)),
            "|x| - Inf; lanes with Inf, NaN",
        );
        if c.sat {
            // i32 sat: -Inf -> INT_MIN, +Inf -> INT_MAX, NaN -> 0.
            b.op(&format!("sfploadi {o}, FLOATB, 0x8000"), "INT_MIN");
            b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "... with x >= 0");
            b.op(&format!("sfpiadd -1, {o}, {o}, IMM|CC_NONE"), "INT_MAX");
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
            if exact {
                b.op("sfpiadd -1, L1, L1, IMM|CC_GTE0", "lanes with NaN");
                b.op(&format!("sfploadi {o}, USHORT, 0"), "NaN -> 0");
                b.op("sfpencc 0, 0, 0, 0", "all lanes");
            } else {
                b.relax();
            }
        } else {
            if bits == 32 && signed {
                b.op(
                    &format!("sfploadi {o}, FLOATB, 0x8000"),
                    "INT_MIN (x86 rule)",
                );
            } else {
                b.op(
                    &format!("sfploadi {o}, USHORT, 0"),
                    "0: the low bits of INT_MIN / of the i64 MIN",
                );
            }
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
    }
    let _ = y_alive;
    if !c.sat && bits < 32 {
        canonical_in(b, out, bits, signed);
    }
    b.store(out, "result datum");
}

/// ODD, part 1: L5 = [d < 0] from the residual d = a - nf in L3 (1 where rne(a) rounded up).
pub(super) fn odd_bit(b: &mut Builder, bh: bool) {
    if bh {
        b.op(
            "sfpshft -31, L3, L5, IMM|IMM_USE_VC",
            "1 where rne(a) rounded up",
        );
    } else {
        b.op("sfpmov 0, L3, L5, 0", "d");
        b.op("sfpshft -31, L5, L5, IMM", "1 where rne(a) rounded up");
    }
}

/// ODD, part 2: L5 = floor(a) | [a not an integer] from n = rne(a) in L2, L5 = [d < 0] and
/// the residual d in L3.
pub(super) fn odd_finish(b: &mut Builder) {
    b.op(
        "sfpiadd 0, L2, L5, NEG|CC_NONE",
        "floor(a) = rne(a) - [rounded up]",
    );
    b.op(
        "sfpsetcc 0, L3, 0, LREG_NE0",
        "lanes where a is not an integer",
    );
    let one = b.constant(1, Reg::L6, "1");
    b.op(
        &format!("sfpor 0, {}, L5, 0", reg(one)),
        "round to odd: floor | 1",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

/// ODD for a residual already in L3 and n in L2: L5 = round-to-odd magnitude.
fn odd_tail(b: &mut Builder, bh: bool) {
    odd_bit(b, bh);
    odd_finish(b);
}
