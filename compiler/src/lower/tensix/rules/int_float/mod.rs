//! int → float rules (semantics.md §4.5): one correct rounding of the exact integer per mode;
//! overflow (f16 only) per the §4.3 rule (sat ON → ±max; sat OFF: RINT/ROUND → ±Inf, TRUNC/ODD →
//! ±max, FLOOR → +max / −Inf, CEIL → +Inf / −max).
//!
//! The only float instruction used is SFPCAST mode 0 (sign-magnitude → fp32, RNE), and only where
//! it is exact or where its RNE *is* the wanted rounding; everything else is integer-domain
//! (SFPLZ, SFPSHFT, SFPIADD, SFPAND/OR, SFPSETSGN, predication), identical on Wormhole and
//! Blackhole.
//!
//! ## `exact_f32` — ui8/ui16/i8/i16 → f32 and ui8/i8 → bf16, every mode, both sat: 3 (unsigned) /
//! 5 (signed, WH) / 4 (signed, BH) instructions; macro 1 (unsigned) / 2 (BH) / 3 (WH) c/row
//! Unsigned: load, SFPCAST, store — the published u16 → f32 sequence (tensix.md §8.5),
//! unchanged. Signed: `|x|` (SFPABS int), SFPCAST, sign from x (SFPSETSGN); on Blackhole
//! SFPCAST mode 3 turns the two's complement word into sign-magnitude and SFPCAST mode 0
//! converts it. Exact: |x| ≤ 2^16 < 2^24, so no rounding happens and the mode is irrelevant;
//! x = 0 gives +0. 8-bit sources into bf16 take the same kernel: |x| ≤ 255 has at most 8
//! significant bits, so float(x) is a bf16 value and its low half is already zero.
//!
//! ## `round_bf16` — ui16/i16 → bf16 ROUND, both sat: 4 (ui16) / 5 (i16 BH) / 6 (i16 WH)
//! instructions; **macro 1 c/row** (ui16) / 2 (i16 BH)
//! The published u16 → bf16 sequence (tensix.md §8.6) — SFPCAST, then SFPSTOCHRND
//! FP32_TO_FP16B in its nearest mode — is exactly ROUND: the cast is exact (|x| ≤ 2^16), and
//! the rounding keeps 7 fraction bits rounding the magnitude half away from zero, leaving the
//! low half zero (§2.1; the carry runs into the exponent). Signed: the sign-magnitude float
//! as in `exact_f32` first (the rounding is symmetric in the sign); x = 0 gives +0 (the only
//! zero; SFPSTOCHRND maps exponent 0 to +0 anyway). Proven on all 65536 inputs, both archs.
//!
//! ## `scale_f16` — integer sources → f16 except i8/i16, every mode and sat
//! (i8/i16 → f16 stay on `cast_round`: the sign table below takes every free L-register, and a
//! `pto.vcvt` wrapping the element kernel needs one for its mask datum.) ui8 and ui16
//! TRUNC/FLOOR/ROUND/CEIL (sat OFF) **macro 2 c/row** (was 6–8); i8 and i16 TRUNC **macro 4**
//! (was 11); ui16 RINT/ODD/sat-ON 9–13, i16 9–12, ui32 10–15, i32 12–16 (was 17–24)
//! 1. `m = |x|` (signed: SFPABS; INT_MIN → 2^31 as a u32); signed sources also put the table
//!    index `L7 = x >> 31` aside (step 4).
//! 2. Clamp (32-bit sources): lanes with `m ≥ 65536` (sat OFF) / `m > 65504` (sat ON) — tested
//!    unsigned as `(m >> 5) − 2048 ≥ 0` / `− 2047` — get `m = 65535` / `65504`. Every mode
//!    rounds 65535 exactly as it must round any larger magnitude (§4.3): TRUNC/ODD (and the
//!    magnitude-down side of FLOOR/CEIL) give max, RINT/ROUND/away give 65536 → Inf; with sat
//!    ON every magnitude > 65504 gives max and 65504 is max. ui16 sat ON in the modes that can
//!    round past 65504 clamps the same way with one SFPSWAP (`min(m, 65504)`, sign-magnitude
//!    order = integer order for m < 2^31).
//! 3. `f = float(m)` by SFPCAST — exact, m ≤ 65535 — then one rounding of the fp32 value to 11
//!    significant bits (the f16 precision) in the mode: TRUNC nothing (the final shift drops the
//!    bits); away `+ 2^13 − 1` on the bit pattern (the carry runs into the exponent, as in
//!    `cast_round`); ROUND SFPSTOCHRND FP32_TO_FP16A (nearest, ties away; the hand-placed
//!    macro form adds `2^12` to the pattern instead, the same rounding); RINT the MAD trick of
//!    `cast_round` with `2^13·2^e` (`f + 2^(e+13)` rounds once on the grid `2^(e−10)`, f's f16
//!    ulp, ties to even; the subtraction is exact); ODD `f |= (f & 0x1FFF) + 0x1FFF`;
//!    FLOOR/CEIL away in the lanes of the right sign (SFPSETCC on x). 8-bit sources need no
//!    rounding (≤ 8 significant bits).
//! 4. `w = f · 2^−112` by one SFPMAD: exact (a power of two; f ≥ 1 keeps w ≥ 2^−112, normal,
//!    so no flush; f = 0 and the pattern leftovers of a rounded 0 — a denormal, flushed — give
//!    +0 on both FMA models). The fp32 exponent field of w is the f16 exponent field (bias
//!    127 − 112 = 15; ≤ 31 since f ≤ 65536, where 31 with a zero fraction is Inf), so
//!    `w >> 13` is the binary16 magnitude. Signed sources multiply by `L[L7]` (SFPMAD
//!    INDIRECT_VA, table L0 = 2^−112, L1 = 2^−80): for x < 0 the exponent field is 32 higher,
//!    i.e. bit 28 set, which the shift puts at bit 15 — the f16 sign. No −0 can arise (x = 0 is
//!    the only zero and is non-negative).
//! 5. `>> 13` (logical), store. On Blackhole the shift reads the MAD result through its VC
//!    form (IMM_USE_VC), which the MAD interlock sees; Wormhole gets its SFPNOP or an
//!    independent instruction from the scheduler.
//!
//! Exact by construction: one rounding of the exact (clamped) magnitude, exact scaling, exact
//! bit moves. **Macro form** (hand-placed, `scale_f16_form`; unsigned 8/16-bit sources with
//! at most the additive bias, i.e. TRUNC, FLOOR, ROUND and CEIL without the sat-ON clamp):
//! per row one SFPLOADMACRO and the regular SFPCAST; the bias add (Simple, use-VB), the
//! scale (MAD, use-VB, constant 2^−112 in L12) and the shift (Round: SFPSHFT2 SHFT_IMM → L16)
//! are slots, the store stores L16; `v` rotates through L0..L3 (4 rows per body), so the
//! next loads never overwrite a row still in flight. 2 c/row on both archs. Signed sources
//! without a rounding step (i8 every mode, i16 TRUNC; `scale_f16_signed_form`): per row one
//! SFPLOADMACRO and the regular `L7 = x >> 31`, SFPABS and SFPCAST; the INDIRECT_VA scale
//! (MAD, use-VB) and the shift (Round → L16) are slots, the store stores L16; `v` alternates
//! L2 / L3 (the table stays in L0 / L1, written after the macro configuration). 4 c/row on
//! both archs (was 8/11). Each row's L7 is read by its MAD slot (cycle 4) before the next
//! row rewrites it (cycle 5).
//!
//! ## `rne_i32` — i32 → f32 RINT, both sat: 7 instructions, plain 8 c/row (BH MAD stall; WH
//! NOP), macro 4 c/row on both archs
//! The published i32 → fp32 sequence (§8.8): `t = |x|` (SFPABS; INT_MIN stays 0x80000000),
//! `L7 = t >> 31` (SFPSHFT2 SHFT_LREG: 1 only for INT_MIN), SFPCAST (one RNE rounding of
//! |x| < 2^31; INT_MIN reads as sign-magnitude −0), sign from x (SFPSETSGN), then SFPMAD
//! INDIRECT_VA `L[L7] · 1.0 + x` with the init table L0 = +0.0, L1 = −2^31: `0 · 1 + x` returns
//! x unchanged on both FMA models (§3 step 6; x = +0 gives +0), INT_MIN gets −2^31 = 0xCF000000.
//! Macro form (scheduler): SFPSETSGN (Simple, VB form) and the SFPMAD (MAD, → L16) as slots with
//! the store; SFPABS, SFPSHFT2, SFPCAST regular; `x` alternates between two registers.
//!
//! ## `split_mad_u32` — ui32 → f32 RINT, both sat: 7 instructions (WH 8 with the MAD NOP), plain 8 c/row, **macro 4 c/row** (BH and WH)
//! `hi = x >> 16` by one copying shift (BH SFPSHFT from VC, WH SFPSHFT2 SHFT_LREG by a −16
//! register), `lo = x & 0xFFFF`, both SFPCAST exactly, `hi · 65536.0 + lo` by one SFPMAD:
//! the product is exact and the sum is rounded once, RNE (§3 step 11); the alignment of lo never
//! drops a bit that could decide a tie (a fully shifted-out lo lies below the round bit) and the
//! sum needs at most a 1-bit normalizing shift (so the WH sticky bug never applies). This is the
//! single-rounding fix proposed in tensix.md §8.7 for the published u32 → fp32 double rounding.
//! Proven exhaustively (all 2^32 inputs) on both archs in addition to the test's edge list.
//! Macro form (scheduler): the shift, `lo` and `float(hi)` stay regular; `float(lo)` (Simple),
//! the SFPMAD (→ L16) and the store are slots of one SFPLOADMACRO, `v` alternating — 4 c/row
//! against the published 3 (whose double rounding is wrong). Before, a copy and a shift made
//! four regular Simple instructions and the slots no longer fit the delay range: 8 (BH) / 9
//! (WH) c/row, no macro form.
//!
//! ## `cast_round` — ui16/i16 → bf16, the modes other than ROUND: 4 (ui16 TRUNC) – 10 (i16
//! FLOOR/CEIL/ODD) instructions (f16 destinations: `scale_f16`; 8-bit sources: `exact_f32`)
//! `m = |x|`, SFPCAST (exact: m ≤ 2^16), then one integer-domain rounding of the fp32 *bit
//! pattern* at bit q (bf16 q = 16, f16 q = 13) with the same mode biases as `normalize_round`
//! step 3 (for a positive normal float, rounding the pattern as an integer at a fixed bit is
//! rounding the value to that precision, the carry running into the exponent). bf16: clear the
//! low half. f16 (only in lanes with m ≠ 0): subtract 112 << 23 (exponent rebias) and shift right
//! by 13 — a carry past 65504 lands on 0x7C00 = Inf, which is the sat-OFF result of every
//! mode that can carry (ui16 sat ON replaces it by 0x7BFF). Then the sign of x. 8-bit sources
//! have ≤ 8 significant bits, so they need no rounding at all. Fixes the published u16 → bf16
//! sequence (tensix.md §8.6: ties away after the cast).
//! (The f16 branch below is kept for reference but no longer dispatched.)
//! **ui16/i16 → bf16 RINT** take a float route instead: `f = float(x)` (exact), `p = 2^e` (SFPSETMAN
//! with a zero mantissa: f's binade, 0 for x = 0), `s = f + 2^16·p` by SFPMAD, `r = s − 2^16·p`
//! by SFPMAD. 6 instructions, plain 8 c/row (two MAD latencies), **macro 4 c/row** (BH and WH;
//! was 9 plain, no macro form): cast, SFPSETMAN and the first MAD regular, the second MAD (→ L16)
//! and the store slots, `v` alternating. Exact: s lies in [2^(e+16), 2^(e+17)) (f < 2^(e+1)
//! rounds at most to 2^(e+1)), where the f32 grid is 2^(e−7) — f's bf16 ulp — so the one RNE
//! rounding of the SFPMAD (product a power of two, exact; one-bit-free alignment, §3) rounds f to
//! 8 significant bits, ties to even because 2^(e+16) is an even multiple of the grid; the
//! subtraction is exact (Sterbenz) and leaves a bf16 value, low half zero. x = 0 gives +0 on both
//! FMA models. Proven on all 65536 inputs, both archs. i16 does the same on the signed float
//! (Blackhole: SFPCAST modes 3 and 0; Wormhole: SFPABS, SFPCAST, SFPSETSGN): p = ±2^e carries
//! f's sign, both MADs work on magnitudes with the sign of the larger operand, and RNE is
//! symmetric, so the result is the signed RNE (was 11 c/row).
//!
//! ## `normalize_round` — 32-bit sources into bf16, and into f32 except RINT: 12–19
//! instructions (i32 → f32 TRUNC 12, ROUND 13, FLOOR/CEIL/ODD 16; ui32 → f32 13–17; i32 → bf16
//! 13–18, ui32 → bf16 14–19; RINT is the longest). f16 destinations: `scale_f16`; the f16
//! branches below (steps 4–6) are kept but no longer dispatched.
//! 1. `m = |x|` (signed sources; INT_MIN → 2^31 as a u32), `lz = clz(m)` with SFPLZ's CC_NE0
//!    flag: the rest runs only in lanes with m ≠ 0 (those keep the loaded 0, i.e. +0).
//! 2. Normalize: `h = m << (lz − 1)` (SFPSHFT by a register; lz = 0 shifts right by one, which
//!    loses nothing except for ui32, where the dropped bit is OR-ed back as a sticky bit:
//!    `n = m << lz; h = (n >> 1) | (n & 1)`). Now 2^30 ≤ h < 2^31 and x = h · 2^(E − 30), E =
//!    31 − lz.
//! 3. Round h to p significant bits (f32 24, bf16 8, f16 11) at bit k = 31 − p, on the
//!    magnitude, in the 32-bit integer domain (no wrap: h + 2^k < 2^32): TRUNC nothing; away from
//!    zero `h += 2^k − 1`; ROUND `h += 2^(k−1)`; RINT `h += 2^(k−1) − 1 + bit_k(h)`; ODD
//!    `h |= (h & (2^k − 1)) + (2^k − 1)` (sets bit k iff a dropped bit is set). FLOOR/CEIL are
//!    TRUNC or away per lane (a SFPPUSHC/SFPSETCC/SFPPOPC group on the sign of x for signed
//!    sources). f32 RINT instead uses SFPCAST on h (its RNE at 24 bits is the wanted rounding;
//!    the sticky information is all in h).
//! 4. Assemble exactly: `R = h >> k` (2^(p−1) ≤ R ≤ 2^p), bits = `((B − z) << F) + (R << S)`
//!    where the hidden bit (or the carry R = 2^p) adds into the exponent field — the same trick
//!    SFPCAST uses. f32/bf16: F = 23, S = 24 − p (bf16 bits land in the high half, low half
//!    zero); f16: F = 10, S = 0.
//! 5. f16 only (sources that can reach 65520: ui16, i32, ui32): results with bits ≥ 0x7C00
//!    become the §4.3 overflow value (0x7BFF, or 0x7C00 in the lanes whose mode rounds away /
//!    to nearest).
//! 6. Sign: SFPSETSGN from x (f16: built in the high half and shifted down to bit 15).
//!
//! Exact by construction: one rounding of the exact magnitude (step 3 sees every bit of m, or
//! of h with the sticky bit for ui32), an exact assembly, and the overflow rule applied to the
//! rounded magnitude. The published u32 → f32 (§8.7, double rounding ≥ 2^31) and u16/u32/i32 →
//! bf16 (§8.6, §8.9, §8.10, ties away, multiple roundings) sequences are replaced by this rule.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

mod fp16;

/// Width in bits and signedness of an integer element type carried by Tensix kernels.
fn int_info(t: ElemType) -> Option<(u32, bool)> {
    Some(match t {
        ElemType::I32 => (32, true),
        ElemType::U32 => (32, false),
        ElemType::I16 => (16, true),
        ElemType::U16 => (16, false),
        ElemType::I8 => (8, true),
        ElemType::U8 => (8, false),
        _ => return None,
    })
}

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    let Some((bits, signed)) = int_info(c.src) else {
        return Err(format!("{} has no integer source", c.describe()));
    };
    let dst = match c.dst {
        ElemType::F32 => Dst::F32,
        ElemType::BF16 => Dst::Bf16,
        ElemType::F16 => Dst::F16,
        _ => return Err(format!("{} has no float destination", c.describe())),
    };
    if c.rounding == Rounding::Hybrid {
        return Err(format!(
            "{}: the hybrid rounding is not executable (semantics.md §4.1)",
            c.describe()
        ));
    }
    if dst == Dst::F32 && bits <= 16 {
        return Ok(exact_f32(b, signed));
    }
    if dst == Dst::F32 && c.src == ElemType::I32 && c.rounding == Rounding::Rint {
        return Ok(rne_i32(b));
    }
    if dst == Dst::F32 && c.src == ElemType::U32 && c.rounding == Rounding::Rint {
        return Ok(split_mad_u32(b));
    }
    // Signed 8/16-bit sources keep `cast_round`: scale_f16's sign table takes every free
    // L-register, and a vcvt wrapping the kernel needs one for its mask datum.
    if dst == Dst::F16 && (!signed || bits > 16) {
        return Ok(fp16::scale_f16(b, c, bits, signed));
    }
    if dst == Dst::Bf16 && bits == 8 {
        // ≤ 8 significant bits: the fp32 value is a bf16 value (low half zero).
        return Ok(exact_f32(b, signed));
    }
    if dst == Dst::Bf16 && bits == 16 && c.rounding == Rounding::Round {
        return Ok(fp16::round_bf16(b, signed));
    }
    if bits <= 16 {
        return Ok(cast_round(b, c, dst, bits, signed));
    }
    Ok(normalize_round(b, c, dst, bits, signed))
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Dst {
    F32,
    Bf16,
    F16,
}

fn exact_f32(b: &mut Builder, signed: bool) -> Chosen {
    b.load(Reg::L0, "x (source datum: the value as an i32)");
    if !signed {
        b.op("sfpcast L0, L0, 0", "float(x), exact below 2^24");
        b.store(Reg::L0, "f32 bits");
        return Chosen::new(
            "int_float::exact_f32",
            &["published u16 → fp32 sequence (tensix.md §8.5), exact for |x| < 2^24 in every mode"],
        );
    }
    if b.arch() == Arch::Bh {
        b.op(
            "sfpcast L0, L0, INT32_SM32",
            "two's complement → sign-magnitude (BH)",
        );
        b.op("sfpcast L0, L0, 0", "float(x), exact below 2^24");
    } else {
        b.op("sfpabs 0, L0, L1, 0", "|x| (integer)");
        b.op("sfpcast L1, L1, 0", "float(|x|), exact below 2^24");
        b.op("sfpsetsgn 0, L1, L0, 0", "sign of x (x = 0 gives +0)");
    }
    b.store(Reg::L0, "f32 bits");
    Chosen::new(
        "int_float::exact_f32",
        &["|x| ≤ 2^16: SFPCAST is exact, the rounding mode is irrelevant"],
    )
}

fn rne_i32(b: &mut Builder) -> Chosen {
    let shift = b.constant((-31i32) as u32, Reg::L6, "−31 (shift amount)");
    // The INDIRECT_VA table: L0 = +0.0, L1 = −2^31 (set last: constants use L0 in init).
    b.init_op("sfploadi L0, USHORT, 0", "L0 = +0.0 (table entry 0)");
    b.init_op("sfploadi L1, FLOATB, 0xcf00", "L1 = −2^31 (table entry 1)");
    b.load(Reg::L2, "x (i32)");
    b.op("sfpabs 0, L2, L4, 0", "t = |x| (INT_MIN stays 0x80000000)");
    b.op(
        &format!("sfpshft2 4, L{}, L7, SHFT_LREG", shift.0),
        "L7 = t >> 31: 1 only for INT_MIN",
    );
    b.op(
        "sfpcast L4, L4, 0",
        "RNE(t) as fp32; INT_MIN reads as sign-magnitude −0",
    );
    b.op("sfpsetsgn 0, L4, L2, 0", "x = float(t) with the sign of x");
    b.op(
        "sfpmad L0, L10, L2, L5, INDIRECT_VA",
        "L[L7] · 1.0 + x: x itself (0 · 1 + x), or −2^31 + (−0) for INT_MIN",
    );
    b.store(Reg::L5, "f32 bits");
    Chosen::new(
        "int_float::rne_i32",
        &["published i32 → fp32 sequence (tensix.md §8.8): abs, cast (one RNE), sign, INT_MIN through the INDIRECT_VA table"],
    )
}

/// How the magnitude is rounded in a lane.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mag {
    Trunc,
    Away,
    Round,
    Rint,
    Odd,
    /// Away from zero in lanes whose source is negative (`true`, FLOOR) or non-negative
    /// (`false`, CEIL); toward zero in the others.
    AwayIfNeg(bool),
}

/// The magnitude rounding of `mode` (FLOOR/CEIL depend on the sign of signed sources).
fn mag_of(mode: Rounding, signed: bool) -> Mag {
    match mode {
        Rounding::Trunc => Mag::Trunc,
        Rounding::Round => Mag::Round,
        Rounding::Rint => Mag::Rint,
        Rounding::Odd => Mag::Odd,
        Rounding::Floor if signed => Mag::AwayIfNeg(true),
        Rounding::Floor => Mag::Trunc,
        Rounding::Ceil if signed => Mag::AwayIfNeg(false),
        _ => Mag::Away,
    }
}

/// `reg += value` (immediate when it fits SFPIADD's 12 bits, else a constant register).
fn add_const(b: &mut Builder, reg: Reg, value: u32, scratch: Reg, why: &str) {
    if value == 0 {
        return;
    }
    if value <= 2047 {
        b.op(
            &format!("sfpiadd {value}, L{r}, L{r}, IMM|CC_NONE", r = reg.0),
            why,
        );
    } else {
        let c = b.constant(value, scratch, why);
        b.op(&format!("sfpiadd 0, L{}, L{}, CC_NONE", c.0, reg.0), why);
    }
}

fn normalize_round(b: &mut Builder, c: &Combo, dst: Dst, bits: u32, signed: bool) -> Chosen {
    let p: u32 = match dst {
        Dst::F32 => 24,
        Dst::Bf16 => 8,
        Dst::F16 => 11,
    };
    let k = 31 - p;
    let mask = (1u32 << k) - 1;
    let u32_src = bits == 32 && !signed;
    let mag = mag_of(c.rounding, signed);
    // Registers: L0 = x (and the result), M = magnitude / h, L2 = z (normalization amount),
    // L3 = scratch.
    let m = if signed { Reg::L1 } else { Reg::L0 };
    let mr = m.0;
    b.load(Reg::L0, "x (source datum)");
    if signed {
        b.op("sfpabs 0, L0, L1, 0", "m = |x| (INT_MIN → 2^31 as a u32)");
    }
    b.op(
        &format!("sfplz 0, L{mr}, L2, CC_NE0"),
        "lz = clz(m); only lanes with m ≠ 0 from here (others keep +0)",
    );
    // Exponent-field base B with bits = ((B − z) << F) + (R << S).
    let z_is_lz = u32_src;
    if u32_src {
        b.op(
            &format!("sfpshft 0, L2, L{mr}, 0"),
            "n = m << lz (leading one at bit 31)",
        );
        b.op("sfploadi L3, USHORT, 1", "1");
        b.op(&format!("sfpand 0, L{mr}, L3, 0"), "n & 1 (sticky)");
        b.op(&format!("sfpshft -1, L{mr}, L{mr}, IMM"), "h = n >> 1");
        b.op(
            &format!("sfpor 0, L3, L{mr}, 0"),
            "h |= n & 1: leading one at bit 30, sticky kept",
        );
    } else {
        b.op("sfpiadd -1, L2, L2, IMM|CC_NONE", "z = lz − 1");
        b.op(
            &format!("sfpshft 0, L2, L{mr}, 0"),
            "h = m << z (z = −1: >> 1, dropping a zero bit): leading one at bit 30",
        );
    }
    // E + 126 = 157 − lz: base for z = lz is 157, for z = lz − 1 it is 156.
    let e_base: u32 = if z_is_lz { 157 } else { 156 };
    if dst == Dst::F32 && mag == Mag::Rint {
        b.op(
            &format!("sfpcast L{mr}, L{mr}, 0"),
            "RNE(h) to 24 bits as fp32 (exponent 157, or 158 on carry)",
        );
        b.op("sfpshft 23, L2, L2, IMM", "z << 23");
        let cbase = if z_is_lz { 1u32 << 23 } else { 0 };
        let cr = b.constant(cbase, Reg::L3, "exponent correction");
        b.op(
            &format!("sfpiadd 0, L{}, L2, NEG|CC_NONE", cr.0),
            "exponent adjustment (E − 30) << 23",
        );
        b.op(
            &format!("sfpiadd 0, L2, L{mr}, CC_NONE"),
            "scale by 2^(E − 30): exact exponent add",
        );
    } else {
        round_h(b, m, k, mask, mag, false);
        b.op(
            &format!("sfpshft -{k}, L{mr}, L{mr}, IMM"),
            "R = h >> k: the rounded significand, 2^(p−1) ≤ R ≤ 2^p",
        );
        let (f, s, base) = match dst {
            Dst::F32 => (23u32, 0u32, e_base),
            Dst::Bf16 => (23, 16, e_base),
            Dst::F16 => (10, 0, e_base - 112),
        };
        if s > 0 {
            b.op(
                &format!("sfpshft {s}, L{mr}, L{mr}, IMM"),
                "R at the fp32 hidden-bit position",
            );
        }
        b.op(&format!("sfpshft {f}, L2, L2, IMM"), "z << F");
        let cr = b.constant(base << f, Reg::L3, "exponent base");
        b.op(
            &format!("sfpiadd 0, L{}, L2, NEG|CC_NONE", cr.0),
            "(B − z) << F: exponent field minus one",
        );
        b.op(
            &format!("sfpiadd 0, L2, L{mr}, CC_NONE"),
            "+ R: the hidden bit (or the carry) completes the exponent",
        );
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes (m = 0 lanes hold 0)");
    if dst == Dst::F16 {
        let can_overflow = bits == 32 || c.src == ElemType::U16;
        if can_overflow {
            f16_overflow(b, c, m, mag);
        }
        if signed {
            b.op(
                &format!("sfpshft 16, L{mr}, L{mr}, IMM"),
                "f16 magnitude bits into the high half",
            );
            b.op(&format!("sfpsetsgn 0, L{mr}, L0, 0"), "sign of x at bit 31");
            b.op("sfpshft -16, L0, L0, IMM", "binary16 bits, zero-extended");
        }
    } else if signed {
        b.op(
            &format!("sfpsetsgn 0, L{mr}, L0, 0"),
            "sign of x (x = 0 keeps +0)",
        );
    }
    b.store(Reg::L0, "result bits (datum form of the destination)");
    Chosen::new(
        "int_float::normalize_round",
        &["normalize with SFPLZ, one integer-domain rounding at bit 31 − p, exact assembly; replaces the published multi-rounding sequences (tensix.md §8.6, §8.7, §8.9, §8.10)"],
    )
}

/// Step 3: rounds h (leading one at bit 30) at bit k by adding the mode's bias.
/// `bh_copy`: on Blackhole, copy-and-shift / copy-and-mask in one instruction (SFPSHFT from VC,
/// SFPAND USE_VB); only `cast_round` asks for it (the 32-bit `normalize_round` keeps the
/// sequence its exhaustive proofs were run on).
fn round_h(b: &mut Builder, m: Reg, k: u32, mask: u32, mag: Mag, bh_copy: bool) {
    let mr = m.0;
    let arch = if bh_copy { b.arch() } else { Arch::Wh };
    match mag {
        Mag::Trunc => {}
        Mag::Away => add_const(b, m, mask, Reg::L3, "h += 2^k − 1 (away from zero)"),
        Mag::Round => add_const(b, m, 1 << (k - 1), Reg::L3, "h += 2^(k−1) (ties away)"),
        Mag::Rint => {
            match arch {
                Arch::Bh => b.op(
                    &format!("sfpshft -{k}, L{mr}, L3, IMM|IMM_USE_VC"),
                    "h >> k (copying shift)",
                ),
                Arch::Wh => {
                    b.op(&format!("sfpiadd 0, L{mr}, L3, IMM|CC_NONE"), "copy of h");
                    b.op(&format!("sfpshft -{k}, L3, L3, IMM"), "h >> k");
                }
            }
            let one = b.constant(1, Reg::L4, "1");
            b.op(
                &format!("sfpand 0, L{}, L3, 0", one.0),
                "bit k of h (the kept LSB)",
            );
            b.op(&format!("sfpiadd 0, L3, L{mr}, CC_NONE"), "h += LSB");
            add_const(
                b,
                m,
                (1 << (k - 1)) - 1,
                Reg::L3,
                "h += 2^(k−1) − 1 (ties to even)",
            );
        }
        Mag::Odd => {
            let mk = b.constant(mask, Reg::L4, "2^k − 1");
            match arch {
                Arch::Bh => b.op(
                    &format!("sfpand {mr}, L{}, L3, USE_VB", mk.0),
                    "dropped bits of h",
                ),
                Arch::Wh => {
                    b.op(&format!("sfpiadd 0, L{mr}, L3, IMM|CC_NONE"), "copy of h");
                    b.op(&format!("sfpand 0, L{}, L3, 0", mk.0), "dropped bits of h");
                }
            }
            b.op(
                &format!("sfpiadd 0, L{}, L3, CC_NONE", mk.0),
                "+ 2^k − 1: bit k set iff a dropped bit is set",
            );
            b.op(
                &format!("sfpor 0, L3, L{mr}, 0"),
                "h |= that: sticky into the LSB (round to odd)",
            );
        }
        Mag::AwayIfNeg(neg) => {
            b.op("sfppushc 0, 0, 0, 0", "save the m ≠ 0 lanes");
            b.op(
                &format!(
                    "sfpsetcc 0, L0, 0, {}",
                    if neg { "LREG_LT0" } else { "LREG_GTE0" }
                ),
                if neg {
                    "lanes with x < 0 (FLOOR rounds the magnitude away)"
                } else {
                    "lanes with x ≥ 0 (CEIL rounds the magnitude away)"
                },
            );
            add_const(b, m, mask, Reg::L3, "h += 2^k − 1 (away from zero)");
            b.op("sfppopc 0, 0, 0, 0", "back to the m ≠ 0 lanes");
        }
    }
}

/// Step 5 (f16): replaces magnitudes ≥ 0x7C00 by the §4.3 overflow value.
fn f16_overflow(b: &mut Builder, c: &Combo, m: Reg, mag: Mag) {
    let mr = m.0;
    b.op("sfploadi L3, USHORT, 0x7c00", "0x7C00 (+Inf)");
    b.op(
        &format!("sfpiadd 0, L{mr}, L3, NEG|CC_GTE0"),
        "lanes with bits ≥ 0x7C00: the rounded magnitude exceeds 65504",
    );
    b.op(
        &format!("sfploadi L{mr}, USHORT, 0x7bff"),
        "65504 (max) there",
    );
    if !c.sat {
        match mag {
            Mag::Round | Mag::Rint | Mag::Away => b.op(
                &format!("sfpiadd 1, L{mr}, L{mr}, IMM|CC_NONE"),
                "sat OFF, rounding away / to nearest: +Inf",
            ),
            Mag::AwayIfNeg(neg) => {
                b.op(
                    &format!(
                        "sfpsetcc 0, L0, 0, {}",
                        if neg { "LREG_LT0" } else { "LREG_GTE0" }
                    ),
                    "lanes whose magnitude rounds away",
                );
                b.op(
                    &format!("sfpiadd 1, L{mr}, L{mr}, IMM|CC_NONE"),
                    "sat OFF: Inf there",
                );
            }
            Mag::Trunc | Mag::Odd => {}
        }
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

fn split_mad_u32(b: &mut Builder) -> Chosen {
    let lo_mask = b.constant(0xFFFF, Reg::L3, "low-half mask");
    let two16 = b.constant(0x4780_0000, Reg::L4, "65536.0");
    b.load(Reg::L0, "x (ui32)");
    // One copying shift (BH: SFPSHFT from VC; WH: SFPSHFT2 SHFT_LREG by a −16 register), so
    // the body's three regular instructions leave the Simple slot for `float(lo)`.
    match b.arch() {
        Arch::Bh => b.op("sfpshft -16, L0, L1, IMM|IMM_USE_VC", "hi = x >> 16"),
        Arch::Wh => {
            let k = b.constant((-16i32) as u32, Reg::L5, "−16: the >> 16 amount (SFPSHFT2)");
            b.op(
                &format!("sfpshft2 0, L{}, L1, SHFT_LREG", k.0),
                "hi = x >> 16",
            );
        }
    }
    b.op(
        &format!("sfpand 0, L{}, L0, 0", lo_mask.0),
        "lo = x & 0xFFFF",
    );
    b.op("sfpcast L1, L1, 0", "float(hi), exact");
    b.op("sfpcast L0, L0, 0", "float(lo), exact");
    b.op(
        &format!("sfpmad L1, L{}, L0, L2, 0", two16.0),
        "hi · 2^16 + lo: exact product, one RNE rounding of the sum",
    );
    b.store(Reg::L2, "f32 bits");
    Chosen::new(
        "int_float::split_mad_u32",
        &["the single-rounding fix proposed for the published u32 → fp32 sequence (tensix.md §8.7): both halves cast exactly, one SFPMAD rounding"],
    )
}

/// ≤ 16-bit sources into bf16 / f16: the exact fp32 value rounded on its bit pattern.
/// ui16 → bf16 RINT (module doc, `cast_round`): `f = float(x)`, `p = 2^e` (f's exponent,
/// mantissa cleared), `f + 2^16·p` rounded once by SFPMAD, then `− 2^16·p` exactly.
fn rint_bf16_by_mad(b: &mut Builder, signed: bool) -> Chosen {
    let up = b.constant(0x4780_0000, Reg::L4, "65536.0");
    let down = b.constant(0xC780_0000, Reg::L5, "−65536.0");
    b.load(Reg::L0, "x (source datum: the value as an i32)");
    if !signed {
        b.op("sfpcast L0, L0, 0", "f = float(x), exact (x < 2^16)");
    } else if b.arch() == Arch::Bh {
        b.op(
            "sfpcast L0, L0, INT32_SM32",
            "two's complement → sign-magnitude (BH)",
        );
        b.op("sfpcast L0, L0, 0", "f = float(x), exact (|x| ≤ 2^15)");
    } else {
        b.op("sfpabs 0, L0, L2, 0", "|x| (integer)");
        b.op("sfpcast L2, L2, 0", "float(|x|), exact");
        b.op("sfpsetsgn 0, L2, L0, 0", "f = float(x) (x = 0 gives +0)");
    }
    b.op(
        "sfpsetman 0, L0, L1, ARG_IMM",
        "p = ±2^e, f's binade with f's sign (f & 0xFF800000; 0 for x = 0)",
    );
    b.op(
        &format!("sfpmad L1, L{}, L0, L0, 0", up.0),
        "f + 2^(e+16), one RNE rounding: the grid is f's bf16 ulp 2^(e−7)",
    );
    b.op(
        &format!("sfpmad L1, L{}, L0, L0, 0", down.0),
        "− 2^(e+16), exact: RNE(f) to 8 significant bits, low half zero",
    );
    b.store(Reg::L0, "bf16 datum");
    Chosen::new(
        "int_float::cast_round",
        &["ui16/i16 → bf16 RINT: exact SFPCAST, then one SFPMAD rounding of f + 2^16·2^e (the bf16 grid of f's binade) and an exact subtraction (fixes the ties-away double rounding of tensix.md §8.6)"],
    )
}

fn cast_round(b: &mut Builder, c: &Combo, dst: Dst, bits: u32, signed: bool) -> Chosen {
    // 8-bit magnitudes (≤ 255, or 128 = 2^7) have at most 8 significant bits: exact in bf16
    // and f16, so no rounding code is emitted.
    let mag = if bits == 8 {
        Mag::Trunc
    } else {
        mag_of(c.rounding, signed)
    };
    if dst == Dst::Bf16 && bits == 16 && mag == Mag::Rint {
        return rint_bf16_by_mad(b, signed);
    }
    let m = if signed { Reg::L1 } else { Reg::L0 };
    let mr = m.0;
    // Rounding position in the fp32 bit pattern: bf16 keeps 7 fraction bits, f16 10.
    let q: u32 = if dst == Dst::Bf16 { 16 } else { 13 };
    b.load(Reg::L0, "x (source datum: the value as an i32)");
    if signed {
        b.op("sfpabs 0, L0, L1, 0", "m = |x|");
    }
    b.op(
        &format!("sfpcast L{mr}, L{mr}, 0"),
        "float(m), exact (m ≤ 2^16)",
    );
    if dst == Dst::F16 {
        b.op(
            &format!("sfpsetcc 0, L{mr}, 0, LREG_NE0"),
            "lanes with m ≠ 0 (the others keep +0)",
        );
    }
    round_h(b, m, q, (1 << q) - 1, mag, true);
    if dst == Dst::Bf16 {
        let hi = b.constant(0xFFFF_0000, Reg::L3, "high-half mask");
        b.op(
            &format!("sfpand 0, L{}, L{mr}, 0", hi.0),
            "drop the rounded-off bits: bf16 in the high half",
        );
        if signed {
            b.op(
                &format!("sfpsetsgn 0, L{mr}, L0, 0"),
                "sign of x (x = 0 keeps +0)",
            );
        }
        b.store(Reg::L0, "bf16 datum");
    } else {
        let rebias = b.constant(112u32.wrapping_neg() << 23, Reg::L3, "−112 << 23");
        b.op(
            &format!("sfpiadd 0, L{}, L{mr}, CC_NONE", rebias.0),
            "exponent rebias 127 → 15",
        );
        b.op(
            &format!("sfpshft -{q}, L{mr}, L{mr}, IMM"),
            "binary16 magnitude bits (a carry past 65504 gives 0x7C00 = Inf)",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
        let rounds_up = matches!(mag, Mag::Rint | Mag::Round | Mag::Away);
        if c.sat && c.src == ElemType::U16 && rounds_up {
            f16_overflow(b, c, m, mag);
        }
        if signed {
            b.op(
                &format!("sfpshft 16, L{mr}, L{mr}, IMM"),
                "f16 magnitude bits into the high half",
            );
            b.op(&format!("sfpsetsgn 0, L{mr}, L0, 0"), "sign of x at bit 31");
            b.op("sfpshft -16, L0, L0, IMM", "binary16 bits, zero-extended");
        }
        b.store(Reg::L0, "f16 datum");
    }
    Chosen::new(
        "int_float::cast_round",
        &["exact SFPCAST (|x| ≤ 2^16), then one integer-domain rounding of the fp32 bit pattern at the bf16/f16 precision (fixes the ties-away double rounding of tensix.md §8.6)"],
    )
}
