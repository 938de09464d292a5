//! int → f16 by an exact float scale (module doc of [`super`], `scale_f16`).

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::super::builder::Builder;
use super::super::super::hand_macro::HandForm;
use super::super::super::macros::{SequenceWord, Slot, SlotSrc};
use super::super::super::Combo;
use super::super::Chosen;
use super::{mag_of, Mag};

/// The scale factors 2^−112 (x ≥ 0) and 2^−80 (x < 0; the sign lands in bit 28 = f16 bit 15
/// after the shift), as fp32 bits: the INDIRECT_VA table of signed sources (L0, L1).
const SCALE_POS: u32 = 0x0780_0000;

/// Registers of `scale_f16`.
struct Regs {
    /// The source datum x.
    x: Reg,
    /// The magnitude m, then f, then the result.
    m: Reg,
    /// Scratch.
    t: Reg,
}

/// Every integer source → f16, every mode and sat.
pub(super) fn scale_f16(b: &mut Builder, c: &Combo, bits: u32, signed: bool) -> Chosen {
    // 8-bit magnitudes (≤ 255, or 128) have at most 8 significant bits: exact in f16.
    let mag = if bits == 8 {
        Mag::Trunc
    } else {
        mag_of(c.rounding, signed)
    };
    let rounds_up = matches!(mag, Mag::Rint | Mag::Round | Mag::Away);
    let clamp_u16 = c.sat && c.src == ElemType::U16 && rounds_up;
    let bias = match mag {
        Mag::Trunc => Some(0),
        Mag::Round => Some(0x1000),
        Mag::Away => Some(0x1FFF),
        _ => None,
    };
    if let (false, true, false, Some(bias)) = (signed, bits <= 16, clamp_u16, bias) {
        return scale_f16_macro(b, bias);
    }
    if signed && bits <= 16 && mag == Mag::Trunc {
        return scale_f16_signed_macro(b);
    }
    // Every lane-uniform constant first: the signed table is written into L0/L1 after them.
    let shift5 = (bits == 32 && b.arch() == Arch::Wh)
        .then(|| b.constant((-5i32) as u32, Reg::L5, "−5: the >> 5 amount (SFPSHFT2)"));
    let max16 = clamp_u16.then(|| b.constant(0xFFE0, Reg::L5, "65504"));
    round_consts(b, mag);
    let scale = (!signed).then(|| b.constant(SCALE_POS, Reg::L5, "2^−112"));
    let shift31 = (signed && b.arch() == Arch::Wh)
        .then(|| b.constant((-31i32) as u32, Reg::L5, "−31: the >> 31 amount (SFPSHFT2)"));
    let r = if signed {
        b.init_op(
            "sfploadi L0, FLOATB, 0x0780",
            "L0 = 2^−112 (table entry 0: x ≥ 0)",
        );
        b.init_op(
            "sfploadi L1, FLOATB, 0x1780",
            "L1 = 2^−80 (table entry 1: x < 0)",
        );
        Regs {
            x: Reg::L2,
            m: Reg::L3,
            t: Reg::L4,
        }
    } else {
        Regs {
            x: Reg::L0,
            m: Reg::L0,
            t: Reg::L2,
        }
    };
    let (xr, mr, tr) = (r.x.0, r.m.0, r.t.0);
    b.load(r.x, "x (source datum: the value as an i32)");
    if signed {
        b.op(
            &format!("sfpabs 0, L{xr}, L{mr}, 0"),
            "m = |x| (INT_MIN → 2^31 as a u32)",
        );
    }
    if bits == 32 {
        // m ≥ 65536 (sat OFF) or m > 65504 (sat ON) ↔ (m >> 5) ≥ 2048 / 2047: unsigned test.
        let (lim, clamp) = if c.sat {
            (2047, 0xFFE0u32)
        } else {
            (2048, 0xFFFF)
        };
        match shift5 {
            Some(k) => b.op(
                &format!("sfpshft2 {mr}, L{}, L{tr}, SHFT_LREG", k.0),
                "t = m >> 5",
            ),
            None => b.op(
                &format!("sfpshft -5, L{mr}, L{tr}, IMM|IMM_USE_VC"),
                "t = m >> 5",
            ),
        }
        b.op(
            &format!("sfpiadd -{lim}, L{tr}, L{tr}, IMM|CC_GTE0"),
            if c.sat {
                "lanes with m > 65504: every mode gives ±max (sat ON)"
            } else {
                "lanes with m ≥ 65536: rounded like 65535 (the §4.3 overflow value of the mode)"
            },
        );
        b.op(
            &format!("sfploadi L{mr}, USHORT, {clamp:#x}"),
            "clamped magnitude",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    } else if let Some(k) = max16 {
        b.op(
            &format!("sfpswap 0, L{}, L{mr}, MIN_MAX", k.0),
            "m = min(m, 65504): sat ON, the overflow gives max",
        );
    }
    b.op(
        &format!("sfpcast L{mr}, L{mr}, 0"),
        "f = float(m), exact (m ≤ 65535)",
    );
    round_f(b, &r, mag);
    if signed {
        // Late in the rule's order: the scheduler may use it to fill a MAD latency slot.
        sign_index(b, r.x, shift31);
    }
    match scale {
        Some(k) => b.op(
            &format!("sfpmad L{}, L{mr}, L9, L{mr}, 0", k.0),
            "w = f · 2^−112, exact: the f16 exponent (≤ 31) in the fp32 field; 0 stays +0",
        ),
        None => b.op(
            &format!("sfpmad L0, L{mr}, L9, L{mr}, INDIRECT_VA"),
            "w = f · L[L7], exact: f · 2^−112 (f16 exponent in the fp32 field), or f · 2^−80 for x < 0 (the same plus bit 28: the f16 sign after the shift); 0 stays +0",
        ),
    }
    // Blackhole: the copying form (source VC), whose read the MAD interlock sees.
    let mode = match b.arch() {
        Arch::Bh => "IMM|IMM_USE_VC",
        Arch::Wh => "IMM",
    };
    b.op(
        &format!("sfpshft -13, L{mr}, L{mr}, {mode}"),
        "binary16 bits (the dropped bits: the rounding's leftovers; 65536 gives 0x7C00 = Inf)",
    );
    b.store(r.m, "f16 datum");
    Chosen::new(
        "int_float::scale_f16",
        &["exact SFPCAST of the (clamped) magnitude, one rounding of the fp32 value at the f16 precision, exact SFPMAD by 2^−112 (fp32 exponent field = f16 exponent field; 2^−80 puts the sign in), shift"],
    )
}

/// ui8/ui16 → f16 with at most an additive rounding bias (TRUNC 0, ROUND 2^12, away 2^13 − 1):
/// `load; cast; [+ bias]; · 2^−112; >> 13; store`, and its hand-placed macro form at 2 c/row:
/// one SFPLOADMACRO and the regular SFPCAST per row; the bias (Simple, use-VB), the scale (MAD,
/// use-VB) and the shift (Round, SFPSHFT2 SHFT_IMM → L16) are slots, the store stores L16;
/// `v` rotates through L0..L3.
fn scale_f16_macro(b: &mut Builder, bias: u32) -> Chosen {
    let k = b.constant(SCALE_POS, Reg::L5, "2^−112");
    b.load(Reg::L0, "x (source datum)");
    b.op("sfpcast L0, L0, 0", "f = float(x), exact (x < 2^16)");
    if bias != 0 {
        let c = b.constant(bias, Reg::L5, "rounding bias");
        b.op(
            &format!("sfpiadd 0, L{}, L0, CC_NONE", c.0),
            if bias == 0x1000 {
                "+ 2^12 on the bit pattern: ties away (ROUND)"
            } else {
                "+ 2^13 − 1 on the bit pattern: away from zero"
            },
        );
    }
    b.op(
        &format!("sfpmad L{}, L0, L9, L0, 0", k.0),
        "w = f · 2^−112, exact: the f16 exponent (≤ 31) in the fp32 field; 0 stays +0",
    );
    let mode = match b.arch() {
        Arch::Bh => "IMM|IMM_USE_VC",
        Arch::Wh => "IMM",
    };
    b.op(
        &format!("sfpshft -13, L0, L0, {mode}"),
        "binary16 bits (the dropped bits: the rounding's leftovers; 65536 gives 0x7C00 = Inf)",
    );
    b.store(Reg::L0, "f16 datum");
    b.hand_macro = Some(scale_f16_form(b.arch(), bias));
    Chosen::new(
        "int_float::scale_f16",
        &["exact SFPCAST, one additive rounding of the fp32 pattern at the f16 precision, exact SFPMAD by 2^−112 (fp32 exponent field = f16 exponent field), shift; hand-placed macro form"],
    )
}

fn hs(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

/// The macro form of [`scale_f16_macro`] (period 2 per row, 4 rows per body).
fn scale_f16_form(arch: Arch, bias: u32) -> HandForm {
    let next = match arch {
        Arch::Bh => "ADDR_MOD_6",
        Arch::Wh => "ADDR_MOD_2",
    };
    let slot = |t: u8, delay: u8, vd16: bool| Slot {
        src: SlotSrc::Template(t),
        delay,
        vd16,
        use_vb: true,
    };
    let mut consts = vec![(SCALE_POS, "2^−112".to_string())];
    let mut templates = vec![
        hs("sfpmad L12, L0, L9, L0, 0", "use-VB: v = 2^−112 · v + 0"),
        hs("sfpshft2 -13, L0, L0, SHFT_IMM", "use-VB: L16 = v >> 13"),
    ];
    // Row cycles: @0 load v, @1 cast (regular), [@2 v += bias], MAD, shift two later, store.
    let e = u8::from(bias != 0);
    let (simple, what) = if bias != 0 {
        consts.push((bias, "rounding bias".to_string()));
        templates.push(hs("sfpiadd 0, L13, L0, CC_NONE", "use-VB: v += bias"));
        (slot(2, 1, false), "Simple d1 v += bias (@2); ")
    } else {
        (Slot::EMPTY, "")
    };
    let seq = SequenceWord {
        simple,
        mad: slot(0, 1 + e, false),
        round: slot(1, 3 + e, true),
        store: Slot {
            src: SlotSrc::Store,
            delay: 4 + e,
            vd16: true,
            use_vb: false,
        },
    };
    let why = format!(
        "{what}MAD d{} v = v · 2^−112 (@{}); Round d{} L16 = v >> 13 (@{}); Store d{} L16 (@{})",
        1 + e,
        2 + e,
        3 + e,
        4 + e,
        4 + e,
        5 + e
    );
    let mut body = Vec::new();
    for r in 0..4u8 {
        body.push(hs(
            &format!("sfploadmacro {r}, INT32, {next}, 0"),
            &format!("@0 v = L{r} = x (macro 0), next row"),
        ));
        body.push(hs(
            &format!("sfpcast L{r}, L{r}, RNE"),
            "@1 f = float(x), exact",
        ));
    }
    HandForm {
        consts,
        init: Vec::new(),
        templates,
        sequences: vec![(seq, why)],
        body,
        rows: 4,
        drain: usize::from(5 + e),
    }
}

/// `L7 = x >> 31`: the INDIRECT_VA table index (1 for x < 0). Wormhole: SFPSHFT2 by the
/// constant −31 (`k`); Blackhole: SFPSHFT from VC.
fn sign_index(b: &mut Builder, x: Reg, k: Option<Reg>) {
    let xr = x.0;
    match k {
        Some(k) => b.op(
            &format!("sfpshft2 {xr}, L{}, L7, SHFT_LREG", k.0),
            "L7 = x >> 31: the table index (1 for x < 0)",
        ),
        None => b.op(
            &format!("sfpshft -31, L{xr}, L7, IMM|IMM_USE_VC"),
            "L7 = x >> 31: the table index (1 for x < 0)",
        ),
    }
}

/// i8 (every mode: no rounding) and i16 TRUNC → f16: `load; L7 = x >> 31; |x|; cast;
/// · L[L7]; >> 13; store`, and its hand-placed macro form at 4 c/row: per row one
/// SFPLOADMACRO and the regular sign index, SFPABS and SFPCAST; the scale (MAD INDIRECT_VA,
/// use-VB) and the shift (Round: SFPSHFT2 SHFT_IMM → L16) are slots, the store stores L16;
/// `v` alternates L2 / L3 (the table is L0 / L1).
fn scale_f16_signed_macro(b: &mut Builder) -> Chosen {
    let k = (b.arch() == Arch::Wh)
        .then(|| b.constant((-31i32) as u32, Reg::L5, "−31: the >> 31 amount (SFPSHFT2)"));
    b.init_op(
        "sfploadi L0, FLOATB, 0x0780",
        "L0 = 2^−112 (table entry 0: x ≥ 0)",
    );
    b.init_op(
        "sfploadi L1, FLOATB, 0x1780",
        "L1 = 2^−80 (table entry 1: x < 0)",
    );
    b.load(Reg::L2, "x (source datum: the value as an i32)");
    sign_index(b, Reg::L2, k);
    b.op("sfpabs 0, L2, L2, 0", "m = |x|");
    b.op("sfpcast L2, L2, 0", "f = float(m), exact (m ≤ 2^15)");
    b.op(
        "sfpmad L0, L2, L9, L2, INDIRECT_VA",
        "w = f · L[L7], exact: f · 2^−112 (f16 exponent in the fp32 field), or f · 2^−80 for x < 0 (the same plus bit 28: the f16 sign after the shift); 0 stays +0",
    );
    let mode = match b.arch() {
        Arch::Bh => "IMM|IMM_USE_VC",
        Arch::Wh => "IMM",
    };
    b.op(
        &format!("sfpshft -13, L2, L2, {mode}"),
        "binary16 bits (sign, exponent, fraction)",
    );
    b.store(Reg::L2, "f16 datum");
    b.hand_macro = Some(scale_f16_signed_form(b.arch()));
    Chosen::new(
        "int_float::scale_f16",
        &["exact SFPCAST of |x|, exact SFPMAD by 2^−112 or 2^−80 (INDIRECT_VA on the sign: fp32 exponent field = f16 sign and exponent), shift; hand-placed macro form"],
    )
}

/// The macro form of [`scale_f16_signed_macro`] (period 4 per row, 2 rows per body).
fn scale_f16_signed_form(arch: Arch) -> HandForm {
    let next = match arch {
        Arch::Bh => "ADDR_MOD_6",
        Arch::Wh => "ADDR_MOD_2",
    };
    let slot = |t: u8, delay: u8, vd16: bool| Slot {
        src: SlotSrc::Template(t),
        delay,
        vd16,
        use_vb: true,
    };
    let consts = match arch {
        Arch::Wh => vec![((-31i32) as u32, "−31: the >> 31 amount".to_string())],
        Arch::Bh => Vec::new(),
    };
    let seq = SequenceWord {
        simple: Slot::EMPTY,
        mad: slot(0, 3, false),
        round: slot(1, 5, true),
        store: Slot {
            src: SlotSrc::Store,
            delay: 6,
            vd16: true,
            use_vb: false,
        },
    };
    let mut body = Vec::new();
    for v in [2u8, 3] {
        body.push(hs(
            &format!("sfploadmacro {v}, INT32, {next}, 0"),
            &format!("@0 v = L{v} = x (macro 0), next row"),
        ));
        body.push(match arch {
            Arch::Bh => hs(
                &format!("sfpshft -31, L{v}, L7, IMM|IMM_USE_VC"),
                "@1 L7 = x >> 31 (table index)",
            ),
            Arch::Wh => hs(
                &format!("sfpshft2 {v}, L12, L7, SHFT_LREG"),
                "@1 L7 = x >> 31 (table index)",
            ),
        });
        body.push(hs(&format!("sfpabs 0, L{v}, L{v}, 0"), "@2 m = |x|"));
        body.push(hs(
            &format!("sfpcast L{v}, L{v}, RNE"),
            "@3 f = float(m), exact",
        ));
    }
    HandForm {
        consts,
        init: vec![
            hs("sfploadi L0, FLOATB, 0x0780", "L0 = 2^−112 (table entry 0)"),
            hs("sfploadi L1, FLOATB, 0x1780", "L1 = 2^−80 (table entry 1)"),
        ],
        templates: vec![
            hs(
                "sfpmad L0, L0, L9, L0, INDIRECT_VA",
                "use-VB: v = L[L7] · v + 0",
            ),
            hs("sfpshft2 -13, L0, L0, SHFT_IMM", "use-VB: L16 = v >> 13"),
        ],
        sequences: vec![(
            seq,
            "MAD d3 v = L[L7] · v (@4); Round d5 L16 = v >> 13 (@6); Store d6 L16 (@7)".to_string(),
        )],
        body,
        rows: 2,
        drain: 7,
    }
}

/// Allocates the constants `round_f` uses (before the signed table is written).
fn round_consts(b: &mut Builder, mag: Mag) {
    match mag {
        Mag::Trunc | Mag::Round => {}
        Mag::Away | Mag::Odd | Mag::AwayIfNeg(_) => {
            b.constant(0x1FFF, Reg::L5, "2^13 − 1");
        }
        Mag::Rint => {
            b.constant(0x4600_0000, Reg::L5, "8192.0");
            b.constant(0xC600_0000, Reg::L6, "−8192.0");
        }
    }
}

/// Rounds the exact fp32 value in `r.m` (an integer ≤ 65535; x in `r.x` for FLOOR/CEIL)
/// to 11 significant bits in mode `mag`; the bits below the f16 fraction may stay set (the
/// final shift drops them).
fn round_f(b: &mut Builder, r: &Regs, mag: Mag) {
    let (fr, xr, tr) = (r.m.0, r.x.0, r.t.0);
    match mag {
        Mag::Trunc => {}
        Mag::Away => {
            let k = b.constant(0x1FFF, Reg::L5, "2^13 − 1");
            b.op(
                &format!("sfpiadd 0, L{}, L{fr}, CC_NONE", k.0),
                "+ 2^13 − 1 on the bit pattern: away from zero",
            );
        }
        Mag::Round => b.op(
            &format!("sfpstochrnd 0, 0, L{fr}, L{fr}, L{fr}, FP32_TO_FP16A"),
            "10 fraction bits, ties away (nearest SFPSTOCHRND)",
        ),
        Mag::Rint => {
            let up = b.constant(0x4600_0000, Reg::L5, "8192.0");
            let down = b.constant(0xC600_0000, Reg::L6, "−8192.0");
            b.op(
                &format!("sfpsetman 0, L{fr}, L{tr}, ARG_IMM"),
                "p = 2^e, f's binade (0 for f = 0)",
            );
            b.op(
                &format!("sfpmad L{tr}, L{}, L{fr}, L{fr}, 0", up.0),
                "f + 2^(e+13), one RNE rounding on the grid 2^(e−10) = f's f16 ulp",
            );
            b.op(
                &format!("sfpmad L{tr}, L{}, L{fr}, L{fr}, 0", down.0),
                "− 2^(e+13), exact: RNE(f) to 11 significant bits",
            );
        }
        Mag::Odd => {
            let k = b.constant(0x1FFF, Reg::L5, "2^13 − 1");
            match b.arch() {
                Arch::Bh => b.op(
                    &format!("sfpand {fr}, L{}, L{tr}, USE_VB", k.0),
                    "dropped bits of f",
                ),
                Arch::Wh => {
                    b.op(
                        &format!("sfpiadd 0, L{fr}, L{tr}, IMM|CC_NONE"),
                        "copy of f",
                    );
                    b.op(
                        &format!("sfpand 0, L{}, L{tr}, 0", k.0),
                        "dropped bits of f",
                    );
                }
            }
            b.op(
                &format!("sfpiadd 0, L{}, L{tr}, CC_NONE", k.0),
                "+ 2^13 − 1: bit 13 set iff a dropped bit is set",
            );
            b.op(
                &format!("sfpor 0, L{tr}, L{fr}, 0"),
                "f |= that: sticky into the last kept bit (round to odd)",
            );
        }
        Mag::AwayIfNeg(neg) => {
            let k = b.constant(0x1FFF, Reg::L5, "2^13 − 1");
            b.op(
                &format!(
                    "sfpsetcc 0, L{xr}, 0, {}",
                    if neg { "LREG_LT0" } else { "LREG_GTE0" }
                ),
                if neg {
                    "lanes with x < 0 (FLOOR rounds the magnitude away)"
                } else {
                    "lanes with x ≥ 0 (CEIL rounds the magnitude away)"
                },
            );
            b.op(
                &format!("sfpiadd 0, L{}, L{fr}, CC_NONE", k.0),
                "+ 2^13 − 1 on the bit pattern: away from zero",
            );
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
    }
}

/// ≤ 16-bit sources → bf16 ROUND: SFPCAST (exact) then SFPSTOCHRND FP32_TO_FP16B, whose
/// nearest mode rounds the magnitude half away from zero — ROUND itself.
pub(super) fn round_bf16(b: &mut Builder, signed: bool) -> Chosen {
    b.load(Reg::L0, "x (source datum: the value as an i32)");
    let out = if !signed {
        b.op("sfpcast L0, L0, 0", "f = float(x), exact (x < 2^16)");
        Reg::L0
    } else if b.arch() == Arch::Bh {
        b.op(
            "sfpcast L0, L0, INT32_SM32",
            "two's complement → sign-magnitude (BH)",
        );
        b.op("sfpcast L0, L0, 0", "f = float(x), exact (|x| ≤ 2^15)");
        Reg::L0
    } else {
        b.op("sfpabs 0, L0, L1, 0", "|x| (integer)");
        b.op("sfpcast L1, L1, 0", "float(|x|), exact");
        b.op("sfpsetsgn 0, L1, L0, 0", "f = float(x) (x = 0 gives +0)");
        Reg::L0
    };
    let r = out.0;
    b.op(
        &format!("sfpstochrnd 0, 0, L{r}, L{r}, L{r}, FP32_TO_FP16B"),
        "7 fraction bits, ties away from zero (= ROUND), low half zero",
    );
    b.store(out, "bf16 datum");
    Chosen::new(
        "int_float::round_bf16",
        &["tensix.md §8.6 (SFPCAST, SFPSTOCHRND FP32_TO_FP16B): its ties-away rounding is exactly ROUND"],
    )
}
