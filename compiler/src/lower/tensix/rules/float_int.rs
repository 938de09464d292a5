//! float → int rules.
//!
//! ## `trunc_i32` — f32/bf16 → i32, TRUNC, sat OFF: 13 instructions, 13 c/row
//! The published sequence (tensix.md §8.2) unchanged: exponent narrowing with SFPEXEXP /
//! SFPIADD flags, mantissa shift, two's complement negation. Exact because the reference's
//! sat-OFF rule for i32 is `cvttss2si` (NaN, ±Inf and |x| ≥ 2^31 → INT_MIN), which is what the
//! sequence computes; a bf16 datum is an f32 value with a zero low half, so it runs unchanged.
//!
//! ## `trunc_i32_sat` — f32/bf16 → i32, TRUNC, sat ON: 21 instructions, 21 c/row
//! §8.2 plus a fix-up: `|x|` saved before the body; after it, lanes with x ≥ 0 whose result
//! is INT_MIN (overflow, +Inf, +NaN) get INT_MAX (SFPSETCC ×2 narrowing, SFPIADD −1), then
//! lanes with `0x7F800000 − |x| < 0` (NaN) get 0. Exact: §8.2 is the i32 truncation with
//! INT_MIN for every out-of-range input; the fix-up turns that into clamp / NaN → 0
//! (semantics.md §4.2.1). Starts from §8.2 (the tt-metal fix-up idea), adds the NaN rule.
//! `--nan=any` (RELAXED): without the NaN rule (the `|x|` copy and the NaN → 0 lanes), 17
//! instructions; +NaN then gives INT_MAX, −NaN INT_MIN.
//!
//! ## `trunc_u32` — f32/bf16 → ui32, TRUNC, sat OFF: 12 instructions, 12 c/row
//! New, shaped like §8.2: result 0; lanes with 0 ≤ E < 55 (two flag-writing ops) get
//! `significand << (E − 23)` (a right shift truncates, a left shift keeps the low 32 bits);
//! negation for x < 0. Exact: the reference's rule is the low 32 bits of the i64 truncation,
//! 0 for |x| ≥ 2^55 (all kept bits shifted out) and for Inf/NaN (i64 MIN); −y mod 2^32 is
//! the low half of the i64 negation. Replaces §8.3, which saturates.
//!
//! ## `trunc_u32_sat` — f32/bf16 → ui32, TRUNC, sat ON: 14 instructions, 14 c/row
//! §8.3 unchanged (result 0; lanes x ≥ 0 and E ≥ 0: UINT_MAX; lanes E < 32: the shifted
//! significand) plus the NaN fix: `x − 0x7F800001 ≥ 0` (only +NaN among the lanes that are
//! not already 0) → 0. Exact: §8.3 is the clamp except +NaN → UINT_MAX. `--nan=any`
//! (RELAXED): §8.3 as published, 11 instructions / 11 c/row (+NaN → UINT_MAX).
//!
//! ## `trunc_narrow` — f32/bf16 → i16/ui16/i8/ui8, TRUNC, sat OFF: 14–16 instructions
//! §8.2 (the i32 x86 rule) then the canonical datum of the low N bits: AND with the mask
//! (unsigned, 14); sign-extension by shift left + arithmetic shift right (Blackhole, 15) or
//! `((r + 2^(N−1)) & mask) − 2^(N−1)` (Wormhole, 16). Exact: the reference's rule is the low
//! N bits of the i32 result, and INT_MIN's low bits are 0.
//!
//! ## `round_unsigned_sat` — f32/bf16 → ui16/ui8, ROUND, sat ON: 7 instructions, 8 c/row
//! §8.4: SFPSWAP max(x, +0) (one stall cycle follows), SFPSTOCHRND `FP32_TO_UINT16` /
//! `FP32_TO_UINT8` (ties away, clamp to max), plus the NaN fix: `x − 0x7F800001 ≥ 0` on the
//! swapped (non-negative) x marks +NaN, which SFPSTOCHRND turned into max → 0 (the reference
//! gives NaN → 0; −NaN is already 0 through the swap). `--nan=any` (RELAXED): §8.4 as
//! published, 4 instructions, 2 c/row with SFPLOADMACRO on both archs (the published figure;
//! +NaN → max).
//!
//! ## `round_via_trunc` — f32/bf16 → i32/ui32/i16/ui16/i8/ui8, ROUND, sat OFF (and i32/ui32 sat ON)
//! New: the truncation rule of the same destination and saturation (`trunc_i32`,
//! `trunc_i32_sat`, `trunc_u32`, `trunc_u32_sat`, `trunc_narrow`) with its exponent and
//! significand read from `u = |x| + (0.5 − 2^-25)` (SFPSETSGN, one SFPMAD) and its sign tests
//! still on x: 2 instructions more than the truncation (e.g. f32 → i32 15 c/row, → ui32 14).
//! Exact: `trunc(|x| + 0.5 − 2^-25)` is |x| rounded half away from zero for every f32. With
//! |x| = k + f: a tie (f = 0.5) sums to `k + 1 − 2^-25`, which rounds (RNE, one rounding in the
//! MAD) to k + 1 since ulp(k + 1) ≥ 2^-23 for k < 2^23 (k = 0: `1 − 2^-25` is a tie between
//! `1 − 2^-24` and 1 and goes to the even 1); f < 0.5 stays below k + 1 (the largest such |x|
//! is `k + 0.5 − ulp`, whose sum rounds to at most `k + 1 − ulp`; `0.5 − 2^-25` sums exactly to
//! `1 − 2^-24`); f > 0.5 sums to at least k + 1. For |x| ≥ 2^23 the addend is below half an ulp,
//! so u = |x|. Denormals flush to 0 in the MAD (their ROUND is 0); Inf and NaN stay Inf and NaN
//! (NaN's payload and sign do not matter: the rules test NaN on u and the sign on x).
//!
//! ## `sat_narrow` — f32/bf16/f16 → i16/ui16/i8/ui8, sat ON, every mode
//! New (`float_int/sat_narrow.rs`). Saturation commutes with rounding when the bounds are
//! integers, so x is clamped first, in the float domain, and the rounding then never overflows:
//! 1. f16 only: `h << 16` (sign in bit 31), `y = |h| << 13` (an f32 holding |x|·2^-112, f16
//!    denormals as f32 denormals), `x·2^-112` with the sign of h; every constant below is
//!    scaled by 2^-112 (exact: integers < 2^24 and powers of two stay normal).
//! 2. NaN → 0 (`|x| − (Inf + 1) ≥ 0` lanes; unsigned ROUND/TRUNC/FLOOR test `+NaN` at the end
//!    instead), then SFPSWAP `max(x, min)` and `min(x, max)` (sign-magnitude order: −Inf → min,
//!    +Inf → max; unsigned: `max(x, +0)`); ROUND/TRUNC/FLOOR unsigned skip the upper clamp
//!    (SFPSTOCHRND saturates itself).
//! 3. Rounding: RINT: `t = x + 1.5·2^23` (one RNE rounding, |x| ≤ 2^16 < 2^22), result
//!    `bits(t) − bits(1.5·2^23)`, already two's complement. ROUND: SFPSTOCHRND `FP32_TO_UINT16`
//!    / `UINT8` (ties away from zero on |x|), sign applied. TRUNC (and unsigned FLOOR):
//!    SFPSTOCHRND of `|x| − (0.5 − 2^-25)` — an integer k lands on `k − 0.5` (a tie, away → k),
//!    anything in (k, k + 1) strictly inside (k − 0.5, k + 0.5), and the subtraction is exact or
//!    rounds within that interval; sign applied. CEIL (and signed FLOOR as `−ceil(−x)`): RINT's
//!    t, `nf = t − 1.5·2^23` (the float rne(x), exact), then `ceil = rne(x) + [x > nf]`; the
//!    compare is Blackhole's SFPGT (sign-magnitude order: denormals, ±0 included) or, for x ≥ +0,
//!    the integer compare of the bits; Wormhole signed FLOOR/CEIL use the magnitudes: `a = |x|`,
//!    `rne(a)` from `a + 2^23`, the residual `a − nf` (or `nf − a`) as an integer, both negated
//!    in the x < 0 lanes, and the residual's sign bit adjusts the signed result. ODD: the
//!    magnitude `a = |x|` as in `magic` (`floor(a) | 1` where `a ≠ nf`), then the sign.
//!
//! Cost: f32 RINT 13, ROUND 14 (signed), TRUNC 10 / 17, CEIL 16–17 (BH), FLOOR 10 / 18 (BH);
//! Wormhole signed FLOOR/CEIL 23; ODD 22–27; f16 3–4 more. Exact: the clamp is exact (SFPSWAP moves bits),
//! the magic add rounds once, SFPSTOCHRND is applied to values within its range, the integer
//! compares are exact; denormal inputs reach only the compares (integer) and MADs whose result
//! they cannot change except through the flush, which RINT/ROUND/TRUNC tolerate (|x| < 0.5).
//!
//! ## `magic` — f32/bf16/f16 → every integer type sat OFF, → i32/ui32 sat ON: RINT, FLOOR, CEIL, ODD (f32: ROUND is `round_via_trunc`), every mode (f16)
//! New (`float_int/magic.rs`). f32/bf16: `a = |x|` (ui32 sat ON: `x = max(x, +0)` by SFPSWAP and
//! no sign step), `t = a + 2^23` (one RNE rounding, exact for a < 2^23: the integer
//! `n = bits(t) − bits(2^23)` is rne(a)); FLOOR/CEIL/ODD also `nf = t − 2^23` (the float rne(a),
//! exact) and the residual `a − nf` (or `nf − a`) as an integer (float order of non-negative
//! floats = integer order of their bits, denormals included: a denormal a has nf = 0 and a
//! positive residual). Lanes with E ≥ 23 take `m << (E − 23)` (x is an integer there; its
//! residual is 0) and the range rule of the destination (E ≥ 31: INT_MIN for i32 and via i32
//! for 16/8-bit; ui32 sat OFF: the low 32 bits of the i64 result, 0 from E ≥ 55; ui32 sat ON:
//! UINT_MAX from 2^32, +NaN → 0; i32 sat ON: INT_MIN, x ≥ 0 → INT_MAX, NaN → 0). Then the sign
//! (two's complement negation of n and of the residual in the x < 0 lanes) and the mode's
//! adjustment: FLOOR `r − [sgn·(a − nf) < 0]`, CEIL `r + [sgn·(nf − a) < 0]`; ODD (before
//! the sign) `floor(a) | 1` where `a ≠ nf`; narrow destinations then take the canonical datum.
//! RINT f32 → i32 15 c/row; FLOOR/CEIL 21; ODD 23 (BH).
//! f16: every finite value is below 2^17, so there is no E ≥ 23 block: the rounding works on
//! `|h| << 13` (or the signed scaled value) as in `sat_narrow` (ODD: the magnitude path above,
//! scaled), 12–29 c/row, then Inf/NaN lanes
//! (`|h| << 13 ≥ bits of Inf·2^-112`) take INT_MIN (i32 sat OFF), 0 (via i32 / i64 sat OFF), or
//! ±Inf → INT_MAX/INT_MIN and NaN → 0 (i32 sat ON), +Inf → UINT_MAX and +NaN → 0 (ui32 sat ON).
//! Exact by the same arguments; every combination is proven by the simulator.
//!
//! ## `general` — f32/bf16/f16 → i32/ui32/i16/ui16/i8/ui8, every mode, sat ON and OFF
//! New (no published sequence covers the modes other than TRUNC or the sat rules exactly);
//! used for every combination the rules above do not take (since `sat_narrow`, `magic` and
//! `round_via_trunc`: only f32/bf16 → i16 ODD sat OFF on Wormhole, where it is 1 cycle shorter).
//! 19–42 instructions per row
//! (= c/row: integer ops only, no MAD, so no NOPs on Wormhole); e.g. f32 → i32 RINT sat OFF
//! 28, f32 → ui16 ROUND sat OFF 24, f16 → ui16 RINT sat ON 38, f16 → i8 ODD sat OFF 31 (BH).
//! Sequence in words:
//! 1. Decode: `F = significand·2^7` (< 2^31) and `nv = E − 30`, so that |x| = F·2^nv and the
//!    integer part is `F >> −nv`. f16 is first moved to the f32 field positions with a sign
//!    shift (`h << 16`, whose bit 31 is the sign the later tests read) and `|h| << 13`
//!    (exponent bias 15, corrected in `nv`).
//! 2. |x| < 0.5 (E ≤ −2, incl. zeros and every denormal): `nv = −31` and `F = |x|` bits
//!    (< 2^30, non-zero iff x ≠ 0; ODD/FLOOR/CEIL) or `F = 0` (the other modes), so every
//!    mode below yields 0, or 1 when it rounds a non-zero value away from zero — the right
//!    result. TRUNC only zeroes F (its shift amount is then irrelevant).
//! 3. Round the magnitude right by `v = −nv ∈ [0, 31]` with the integer rule of the mode:
//!    `P = 1 << v`; TRUNC adds nothing; away-from-zero (CEIL on x ≥ 0, FLOOR on x < 0) adds
//!    `P − 1`; ROUND adds `P >> 1`; RINT adds `(P − 1 + ((F >> v) & 1)) >> 1`; ODD ORs the
//!    sticky bit `(F & (P − 1)) ≠ 0` into `F >> v`. No sum wraps (F < 2^31, bias < 2^31), and
//!    v = 0 adds nothing.
//! 4. Range (lanes with E ≥ 31, or f16 Inf/NaN, selected by an SFPIADD flag on `nv`; NaN
//!    lanes narrowed further by `0x7F800000 − |x| < 0` or a non-zero f16 mantissa):
//!    sat OFF: i32 → INT_MIN; via i32 (16/8-bit) → 0 (the low bits of INT_MIN); ui32 (the i64
//!    rule) → `(m << (E − 23)) mod 2^32` for E ≤ 54, else 0. sat ON 16/8-bit: lanes with E ≥ 16
//!    get the magnitude 2^16, which the clamp turns into max/min (this keeps |r| ≤ 2^16, so
//!    the clamp's subtractions cannot wrap), ui32 → `m << 8` (E = 31) or UINT_MAX, i32 → INT_MIN
//!    (turned into INT_MAX for x ≥ 0 after the negation), NaN → 0.
//! 5. Sign: two's complement negation in lanes with x < 0 (unsigned sat ON: those lanes → 0).
//! 6. sat ON: clamp with flag-writing SFPIADDs against max+1 / min; sat OFF 16/8-bit: the
//!    canonical datum (zero-extension by AND; sign-extension by `((r + 2^(N−1)) & mask) −
//!    2^(N−1)` on Wormhole, shift left + arithmetic shift right on Blackhole).
//!
//! Exact because every step is an integer identity on the exact value `F·2^nv`: the rounding
//! of step 3 is the definition of each mode on the discarded bits, and steps 4–6 are the
//! reference's range rules (semantics.md §4.2.1, §4.2.2) case by case. The prover checks it.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

mod magic;
mod sat_narrow;

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    let f32_like = matches!(c.src, ElemType::F32 | ElemType::BF16);
    if !f32_like && c.src != ElemType::F16 {
        return Err(format!("{} is not a float source", c.src.ir_name()));
    }
    let dst_ok = matches!(
        c.dst,
        ElemType::I32 | ElemType::U32 | ElemType::I16 | ElemType::U16 | ElemType::I8 | ElemType::U8
    );
    if !dst_ok {
        return Err(format!("{} is not an integer destination", c.dst.ir_name()));
    }
    if !Rounding::EXECUTABLE.contains(&c.rounding) {
        return Err(format!(
            "rounding mode {} is not executable",
            c.rounding.name()
        ));
    }
    if f32_like && c.rounding == Rounding::Trunc {
        match (c.dst, c.sat) {
            (ElemType::I32, false) => return Ok(trunc_i32(b, false)),
            (ElemType::I32, true) => return Ok(trunc_i32_sat(b, false)),
            (ElemType::U32, false) => return Ok(trunc_u32(b, false)),
            (ElemType::U32, true) => return Ok(trunc_u32_sat(b, false)),
            (_, false) => return Ok(trunc_narrow(c, b, false)),
            _ => {}
        }
    }
    // ROUND = TRUNC of x + sgn(x) * (0.5 - 2^-25) (`round_via_trunc`).
    if f32_like && c.rounding == Rounding::Round {
        match (c.dst, c.sat) {
            (ElemType::I32, false) => return Ok(trunc_i32(b, true)),
            (ElemType::I32, true) => return Ok(trunc_i32_sat(b, true)),
            (ElemType::U32, false) => return Ok(trunc_u32(b, true)),
            (ElemType::U32, true) => return Ok(trunc_u32_sat(b, true)),
            (_, false) => return Ok(trunc_narrow(c, b, true)),
            _ => {}
        }
    }
    if f32_like && c.rounding == Rounding::Round && c.sat {
        match c.dst {
            ElemType::U16 => return Ok(round_unsigned_sat(b, "FP32_TO_UINT16", "ui16")),
            ElemType::U8 => return Ok(round_unsigned_sat(b, "FP32_TO_UINT8", "ui8")),
            _ => {}
        }
    }
    if let Some(chosen) = magic::lower(c, b) {
        return Ok(chosen);
    }
    if let Some(chosen) = sat_narrow::lower(c, b) {
        return Ok(chosen);
    }
    Ok(general(c, b))
}

/// Loads x into L0; for ROUND (`round`) also L4 = |x| + (0.5 - 2^-25), whose truncation is
/// round-half-away of |x| (see `round_via_trunc` in the module doc). Returns the register the
/// truncation reads the exponent and significand from (the sign is always L0's).
fn load_x(b: &mut Builder, round: bool) -> &'static str {
    b.load(Reg::L0, "x (fp32 bits)");
    if !round {
        return "L0";
    }
    b.op("sfpsetsgn 0, L0, L4, ARG_IMM", "|x|");
    let c = b.constant(0x3EFF_FFFF, Reg::L7, "0.5 - 2^-25");
    b.op(
        &format!("sfpmad L{}, L10, L4, L4, 0", c.0),
        "u = |x| + (0.5 - 2^-25): trunc(u) = |x| rounded half away",
    );
    "L4"
}

/// The chosen rule, renamed `round_via_trunc` when the truncation serves ROUND.
fn named(round: bool, truncation: Chosen) -> Chosen {
    if !round {
        return truncation;
    }
    Chosen::new(
        "float_int::round_via_trunc",
        &[
            "new: the truncation rule (tensix.md §8.2 / §8.3 based) applied to |x| + (0.5 - 2^-25) with the sign of x",
            "exact: trunc(|x| + 0.5 - 2^-25) is |x| rounded half away from zero for every f32 (module doc); proven by the simulator",
        ],
    )
}

/// The §8.2 body up to (and without) the store: L1 = trunc(x) as i32, INT_MIN out of range.
fn trunc_i32_body(b: &mut Builder, round: bool) {
    let f = load_x(b, round);
    trunc_i32_body_after_load(b, f);
}

fn trunc_i32_body_after_load(b: &mut Builder, f: &str) {
    b.op("sfploadi L1, USHORT, 0", "result = 0 (|x| < 1)");
    b.op(
        &format!("sfpexexp 0, {f}, L2, CC_SGN|CC_COMP"),
        "e = exp(x); lanes with e >= 0",
    );
    b.op(
        "sfploadi L1, FLOATB, 0x8000",
        "result = INT_MIN (overflow, Inf, NaN)",
    );
    b.op(
        "sfpiadd -31, L2, L2, IMM|CC_LT0",
        "e -= 31; lanes with e < 31",
    );
    b.op("sfpiadd 8, L2, L2, IMM|CC_NONE", "shift = e - 23");
    b.op(
        &format!("sfpexman 0, {f}, L1, 0"),
        "result = significand with hidden bit",
    );
    b.op(
        "sfpshft 0, L2, L1, 0",
        "result <<= shift (right shift truncates)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
    b.op("sfpiadd 0, L9, L1, NEG|CC_NONE", "result = 0 - result");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

fn trunc_i32(b: &mut Builder, round: bool) -> Chosen {
    trunc_i32_body(b, round);
    b.store(Reg::L1, "i32 result");
    named(
        round,
        Chosen::new(
            "float_int::trunc_i32",
            &["published tensix.md §8.2 sequence, unchanged (already the reference's sat-OFF rule)"],
        ),
    )
}

fn trunc_i32_sat(b: &mut Builder, round: bool) -> Chosen {
    let f = load_x(b, round);
    let nan_fix = !b.nan_any();
    if nan_fix {
        b.op(
            &format!("sfpsetsgn 0, {f}, L3, ARG_IMM"),
            "|x| bits (NaN test below)",
        );
    } else {
        b.relax();
    }
    trunc_i32_body_after_load(b, f);
    b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "lanes with x >= 0");
    b.op(
        "sfpsetcc 0, L1, 0, LREG_LT0",
        "... whose result is INT_MIN (overflow)",
    );
    b.op("sfpiadd -1, L1, L1, IMM|CC_NONE", "INT_MAX");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    if nan_fix {
        let k = b.constant(0x7F80_0000, Reg::L7, "+Inf bits");
        b.op(
            &format!("sfpiadd 0, L{}, L3, NEG", k.0),
            "0x7F800000 - |x|; lanes with NaN (< 0)",
        );
        b.op("sfploadi L1, USHORT, 0", "NaN -> 0");
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    b.store(Reg::L1, "i32 result");
    named(
        round,
        Chosen::new(
            "float_int::trunc_i32_sat",
            &["published tensix.md §8.2 sequence + sat fix-up: x >= 0 with INT_MIN -> INT_MAX, NaN -> 0"],
        ),
    )
}

fn trunc_u32(b: &mut Builder, round: bool) -> Chosen {
    let f = load_x(b, round);
    b.op(
        "sfploadi L1, USHORT, 0",
        "result = 0 (|x| < 1, |x| >= 2^55, Inf, NaN)",
    );
    b.op(
        &format!("sfpexexp 0, {f}, L2, CC_SGN|CC_COMP"),
        "E = exp(x); lanes with E >= 0",
    );
    b.op("sfpiadd -55, L2, L2, IMM", "E - 55; lanes with E < 55");
    b.op(
        "sfpiadd 32, L2, L2, IMM|CC_NONE",
        "shift = E - 23 (-23..31)",
    );
    b.op(
        &format!("sfpexman 0, {f}, L1, 0"),
        "significand with the hidden bit",
    );
    b.op(
        "sfpshft 0, L2, L1, 0",
        "truncated |x| mod 2^32 (right shift truncates, left shift wraps)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
    b.op(
        "sfpiadd 0, L9, L1, NEG|CC_NONE",
        "two's complement mod 2^32 (i64 rule)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.store(Reg::L1, "ui32 result");
    named(
        round,
        Chosen::new(
            "float_int::trunc_u32",
            &["new, shaped like tensix.md §8.2: low 32 bits of the i64 truncation (x86 sat-OFF rule)"],
        ),
    )
}

fn trunc_u32_sat(b: &mut Builder, round: bool) -> Chosen {
    let f = load_x(b, round);
    b.op("sfploadi L1, USHORT, 0", "result = 0 (x < 0, |x| < 1)");
    b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "lanes with x >= 0");
    b.op(
        &format!("sfpexexp 0, {f}, L2, CC_SGN|CC_COMP"),
        "E = exp(x); lanes with E >= 0",
    );
    b.op(
        "sfploadi L1, SHORT, 0xffff",
        "UINT_MAX (x >= 2^32, +Inf, +NaN)",
    );
    b.op("sfpiadd -32, L2, L2, IMM", "E - 32; lanes with E < 32");
    b.op("sfpiadd 9, L2, L2, IMM|CC_NONE", "shift = E - 23");
    b.op(
        &format!("sfpexman 0, {f}, L1, 0"),
        "significand with the hidden bit",
    );
    b.op("sfpshft 0, L2, L1, 0", "trunc(x)");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    nan_to_zero(b);
    b.store(Reg::L1, "ui32 result");
    named(
        round,
        Chosen::new(
            "float_int::trunc_u32_sat",
            &["published tensix.md §8.3 sequence + NaN fix-up (+NaN -> 0 instead of UINT_MAX)"],
        ),
    )
}

/// f32/bf16 → i16/ui16/i8/ui8 TRUNC sat OFF: the low bits of the §8.2 i32 result.
fn trunc_narrow(c: &Combo, b: &mut Builder, round: bool) -> Chosen {
    let (bits, signed) = int_info(c.dst);
    trunc_i32_body(b, round);
    canonical(b, bits, signed);
    b.store(Reg::L1, "result datum");
    named(
        round,
        Chosen::new(
            "float_int::trunc_narrow",
            &["published tensix.md §8.2 sequence (the i32 x86 rule) + the low bits as the canonical datum"],
        ),
    )
}

/// f32/bf16 → ui16/ui8 ROUND sat ON (tensix.md §8.4) with the NaN fix.
fn round_unsigned_sat(b: &mut Builder, rnd: &str, ty: &str) -> Chosen {
    b.load(Reg::L0, "x (fp32 bits)");
    b.op(
        "sfpswap 0, L9, L0, MAX_MIN",
        "x = max(x, +0) (sign-magnitude order: negatives, -NaN -> +0)",
    );
    b.op(
        &format!("sfpstochrnd 0, 0, L0, L0, L1, {rnd}"),
        "round half away, clamp to max (|x| < 0.5 -> 0; +Inf, +NaN -> max)",
    );
    nan_to_zero(b);
    b.store(Reg::L1, &format!("{ty} result"));
    Chosen::new(
        "float_int::round_unsigned_sat",
        &["published tensix.md §8.4 sequence (SFPSWAP max with +0, SFPSTOCHRND) + NaN fix-up (+NaN -> 0)"],
    )
}

/// The +NaN fix-up of the §8.3 / §8.4 sequences (L0 = x, non-negative or +NaN where it
/// matters; L1 = result): +NaN lanes get 0. Left out under `--nan=any` (the kernel is then
/// relaxed: +NaN gives max).
fn nan_to_zero(b: &mut Builder) {
    if b.nan_any() {
        b.relax();
        return;
    }
    let k = b.constant(0x807F_FFFF, Reg::L7, "-0x7F800001");
    b.op(
        &format!("sfpiadd 0, L{}, L0, CC_GTE0", k.0),
        "x - 0x7F800001; lanes with +NaN (>= 0)",
    );
    b.op("sfploadi L1, USHORT, 0", "NaN -> 0");
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
}

/// Bits and range of an integer destination.
fn int_info(dst: ElemType) -> (u32, bool) {
    match dst {
        ElemType::I32 => (32, true),
        ElemType::U32 => (32, false),
        ElemType::I16 => (16, true),
        ElemType::U16 => (16, false),
        ElemType::I8 => (8, true),
        _ => (8, false),
    }
}

/// Register roles of the general rule.
/// L0 x (sign in bit 31), L1 F → result, L2 nv, L3 v, L4 scratch (bias, flag results),
/// L5 f16 magnitude y, L6 RINT scratch, L7 fallback constant scratch.
struct Gen {
    f16: bool,
}

impl Gen {
    /// Register holding the f32-positioned fields of |x| (exexp / exman source).
    fn fields(&self) -> &'static str {
        if self.f16 {
            "L5"
        } else {
            "L0"
        }
    }

    /// Enables the lanes where the datum is out of the core's range: E ≥ 31 (f32/bf16), or
    /// Inf/NaN (f16, whose finite values stay below 2^16).
    fn big(&self, b: &mut Builder) {
        if self.f16 {
            b.op(
                "sfpiadd 14, L2, L4, IMM|CC_GTE0",
                "lanes with E >= 16: f16 Inf/NaN",
            );
        } else {
            b.op(
                "sfpiadd -1, L2, L4, IMM|CC_GTE0",
                "lanes with E >= 31: |x| >= 2^31, Inf, NaN",
            );
        }
    }

    /// Narrows the enabled (big) lanes to the NaN ones.
    fn nan(&self, b: &mut Builder) {
        if self.f16 {
            b.op("sfpexman 0, L5, L4, PAD9", "f16 mantissa (Inf: 0)");
            b.op("sfpsetcc 0, L4, 0, LREG_NE0", "lanes with NaN");
        } else {
            let k = b.constant(0x7F80_0000, Reg::L7, "+Inf bits");
            b.op("sfpsetsgn 0, L0, L4, ARG_IMM", "|x| bits");
            b.op(
                &format!("sfpiadd 0, L{}, L4, NEG", k.0),
                "0x7F800000 - |x|; lanes with NaN (< 0)",
            );
        }
    }

    fn all(&self, b: &mut Builder) {
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }

    fn negate(&self, b: &mut Builder) {
        b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
        b.op("sfpiadd 0, L9, L1, NEG|CC_NONE", "r = 0 - r");
        self.all(b);
    }
}

fn general(c: &Combo, b: &mut Builder) -> Chosen {
    let g = Gen {
        f16: c.src == ElemType::F16,
    };
    let mode = c.rounding;
    let (bits, signed) = int_info(c.dst);

    // 1. Decode.
    b.load(Reg::L0, "x");
    if g.f16 {
        b.op(
            "sfpshft 16, L0, L0, IMM",
            "h << 16: the f16 sign in bit 31 for the sign tests",
        );
        b.op("sfpsetsgn 0, L0, L5, ARG_IMM", "|h| << 16");
        b.op(
            "sfpshft -3, L5, L5, IMM",
            "y = |h| << 13: f16 fields at the f32 positions (bias 15)",
        );
    }
    let f = g.fields();
    b.op(
        &format!("sfpexman 0, {f}, L1, 0"),
        "m = significand with the hidden bit",
    );
    b.op("sfpshft 7, L1, L1, IMM", "F = m << 7 (< 2^31)");
    b.op(&format!("sfpexexp 0, {f}, L2, 0"), "unbiased exponent");
    if g.f16 {
        b.op(
            "sfpiadd 82, L2, L2, IMM|CC_NONE",
            "nv = E - 30 (y's exponent is E - 112): |x| = F * 2^nv",
        );
    } else {
        b.op(
            "sfpiadd -30, L2, L2, IMM|CC_NONE",
            "nv = E - 30: |x| = F * 2^nv",
        );
    }

    // 2. |x| < 0.5.
    b.op(
        "sfpiadd 31, L2, L4, IMM",
        "lanes with nv < -31 (E <= -2: |x| < 0.5, zeros, denormals)",
    );
    let sticky_small = matches!(mode, Rounding::Odd | Rounding::Floor | Rounding::Ceil);
    if mode != Rounding::Trunc {
        b.op(
            "sfploadi L2, SHORT, 0xffe1",
            "nv = -31 (shift amounts stay below 32)",
        );
    }
    if sticky_small {
        if g.f16 {
            b.op(
                "sfpmov 0, L5, L1, 0",
                "F = y (< 2^28, non-zero iff x != 0): rounds to 0 or 1",
            );
        } else {
            b.op(
                "sfpsetsgn 0, L0, L1, ARG_IMM",
                "F = |x| bits (< 2^30, non-zero iff x != 0): rounds to 0 or 1",
            );
        }
    } else {
        b.op("sfploadi L1, USHORT, 0", "F = 0 (the result is 0)");
    }
    g.all(b);

    // 3. Round right by v = -nv.
    if mode != Rounding::Trunc {
        b.op("sfpmov 0, L2, L3, 0", "copy nv");
        b.op(
            "sfpiadd 0, L9, L3, NEG|CC_NONE",
            "v = -nv in [0, 31]: the bits below the integer point",
        );
        b.op("sfploadi L4, USHORT, 1", "1");
        b.op("sfpshft 0, L3, L4, 0", "P = 2^v");
    }
    match mode {
        Rounding::Trunc => {}
        Rounding::Round => {
            b.op("sfpshft -1, L4, L4, IMM", "half = P >> 1 (0 when v = 0)");
            b.op("sfpiadd 0, L4, L1, CC_NONE", "F += half (ties away)");
        }
        Rounding::Floor | Rounding::Ceil => {
            b.op("sfpiadd -1, L4, L4, IMM|CC_NONE", "A = P - 1");
            if mode == Rounding::Floor {
                b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0 (away)");
            } else {
                b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "lanes with x >= 0 (away)");
            }
            b.op("sfpiadd 0, L4, L1, CC_NONE", "F += A (up in magnitude)");
            g.all(b);
        }
        Rounding::Rint => {
            let one = b.constant(1, Reg::L7, "1");
            b.op("sfpiadd -1, L4, L4, IMM|CC_NONE", "A = P - 1");
            b.op("sfpmov 0, L1, L6, 0", "copy F");
            b.op("sfpshft 0, L2, L6, 0", "F >> v");
            b.op(
                &format!("sfpand 0, L{}, L6, 0", one.0),
                "lsb of the truncation",
            );
            b.op("sfpiadd 0, L6, L4, CC_NONE", "A + lsb");
            b.op(
                "sfpshft -1, L4, L4, IMM",
                "(A + lsb) >> 1: half - 1, or half when the truncation is odd",
            );
            b.op("sfpiadd 0, L4, L1, CC_NONE", "F += bias (ties to even)");
        }
        _ => {
            // ODD
            b.op("sfpiadd -1, L4, L4, IMM|CC_NONE", "A = P - 1");
            b.op("sfpand 0, L1, L4, 0", "discarded bits F & A");
            b.op(
                "sfpiadd 0, L9, L4, NEG|CC_NONE",
                "-(F & A): negative iff inexact",
            );
            b.op("sfpshft -31, L4, L4, IMM", "sticky bit");
        }
    }
    b.op(
        "sfpshft 0, L2, L1, 0",
        "R = F >> v (rounded magnitude; E >= 31 lanes: garbage, replaced below)",
    );
    if mode == Rounding::Odd {
        b.op("sfpor 0, L4, L1, 0", "R |= sticky (round to odd)");
    }

    // 4.–6. Range, sign, canonical datum.
    match (c.dst, c.sat) {
        (ElemType::I32, false) => {
            g.big(b);
            b.op("sfploadi L1, FLOATB, 0x8000", "INT_MIN (x86 rule)");
            g.all(b);
            g.negate(b);
        }
        (ElemType::I32, true) => {
            g.big(b);
            b.op(
                "sfploadi L1, FLOATB, 0x8000",
                "INT_MIN (stays INT_MIN when negated)",
            );
            g.nan(b);
            b.op("sfploadi L1, USHORT, 0", "NaN -> 0");
            g.all(b);
            g.negate(b);
            b.op("sfpsetcc 0, L0, 0, LREG_GTE0", "lanes with x >= 0");
            b.op("sfpsetcc 0, L1, 0, LREG_LT0", "... whose result is INT_MIN");
            b.op("sfpiadd -1, L1, L1, IMM|CC_NONE", "INT_MAX");
            g.all(b);
        }
        (ElemType::U32, true) => {
            g.big(b);
            if !g.f16 {
                b.op("sfpexman 0, L0, L1, 0", "m");
                b.op("sfpshft 8, L1, L1, IMM", "E = 31: exact m << 8");
                b.op(
                    "sfpiadd -2, L2, L4, IMM|CC_GTE0",
                    "lanes with E >= 32 (Inf, NaN)",
                );
            }
            b.op("sfploadi L1, SHORT, 0xffff", "UINT_MAX");
            g.nan(b);
            b.op("sfploadi L1, USHORT, 0", "NaN -> 0");
            g.all(b);
            b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
            b.op("sfploadi L1, USHORT, 0", "negative -> 0");
            g.all(b);
        }
        (ElemType::U32, false) => {
            g.big(b);
            if g.f16 {
                b.op(
                    "sfploadi L1, USHORT, 0",
                    "Inf/NaN -> low bits of i64 MIN = 0",
                );
            } else {
                b.op("sfpexman 0, L0, L1, 0", "m");
                b.op(
                    "sfpiadd 7, L2, L4, IMM|CC_NONE",
                    "E - 23 (8..31 for E <= 54)",
                );
                b.op(
                    "sfpshft 0, L4, L1, 0",
                    "low 32 bits of m * 2^(E-23) (i64 rule)",
                );
                b.op(
                    "sfpiadd -25, L2, L4, IMM|CC_GTE0",
                    "lanes with E >= 55 (incl. Inf, NaN)",
                );
                b.op(
                    "sfploadi L1, USHORT, 0",
                    "low 32 bits are 0 (or i64 MIN: 0)",
                );
            }
            g.all(b);
            g.negate(b);
        }
        (_, false) => {
            g.big(b);
            b.op(
                "sfploadi L1, USHORT, 0",
                "out of i32 range -> INT_MIN, whose low bits are 0",
            );
            g.all(b);
            g.negate(b);
            canonical(b, bits, signed);
        }
        (_, true) => {
            // E >= 16 for every source: keeps |r| <= 2^16 so the clamp's subtractions
            // cannot wrap.
            b.op(
                "sfpiadd 14, L2, L4, IMM|CC_GTE0",
                "lanes with E >= 16 (|x| >= 2^16, Inf, NaN)",
            );
            b.op(
                "sfploadi L1, FLOATB, 0x1",
                "2^16: beyond every 16/8-bit range",
            );
            g.nan(b);
            b.op("sfploadi L1, USHORT, 0", "NaN -> 0");
            g.all(b);
            if signed {
                g.negate(b);
            } else {
                b.op("sfpsetcc 0, L0, 0, LREG_LT0", "lanes with x < 0");
                b.op("sfploadi L1, USHORT, 0", "negative -> 0");
                g.all(b);
            }
            let max = if signed {
                (1u32 << (bits - 1)) - 1
            } else {
                (1u32 << bits) - 1
            };
            if max < 2047 {
                b.op(
                    &format!("sfpiadd -{}, L1, L4, IMM|CC_GTE0", max + 1),
                    "lanes with r > max",
                );
            } else {
                load_u32(b, Reg::L4, max + 1, "max + 1");
                b.op(
                    "sfpiadd 0, L1, L4, NEG|CC_GTE0",
                    "r - (max + 1); lanes with r > max",
                );
            }
            load_u32(b, Reg::L1, max, "max");
            g.all(b);
            if signed {
                let min = 1u32 << (bits - 1);
                if min <= 2048 {
                    b.op(&format!("sfpiadd {min}, L1, L4, IMM"), "lanes with r < min");
                } else {
                    load_u32(b, Reg::L4, min.wrapping_neg(), "min");
                    b.op("sfpiadd 0, L1, L4, NEG", "r - min; lanes with r < min");
                }
                load_u32(b, Reg::L1, min.wrapping_neg(), "min");
                g.all(b);
            }
        }
    }
    b.store(Reg::L1, "result datum");
    Chosen::new(
        "float_int::general",
        &[
            "new integer-domain sequence (decode, round the magnitude by the mode, range rules, sign)",
            "exact: each step is an integer identity on the exact value; proven by the simulator",
        ],
    )
}

/// `reg = value` in the body (1 or 2 SFPLOADI).
fn load_u32(b: &mut Builder, reg: Reg, value: u32, why: &str) {
    b.imm32(reg, value, why);
}

/// Turns the i32 result in L1 into the canonical datum of a 16/8-bit destination (low bits,
/// sign- or zero-extended).
fn canonical(b: &mut Builder, bits: u32, signed: bool) {
    canonical_in(b, Reg::L1, bits, signed);
}

/// [`canonical`] on the i32 result in `r`.
fn canonical_in(b: &mut Builder, r: Reg, bits: u32, signed: bool) {
    let r = r.0;
    let mask = (1u32 << bits) - 1;
    if !signed {
        let m = b.constant(mask, Reg::L7, "low-bits mask");
        b.op(&format!("sfpand 0, L{}, L{r}, 0", m.0), "keep the low bits");
        return;
    }
    if b.arch() == Arch::Bh {
        let s = 32 - bits;
        b.op(
            &format!("sfpshft {s}, L{r}, L{r}, IMM"),
            "low bits to the top",
        );
        b.op(
            &format!("sfpshft -{s}, L{r}, L{r}, IMM|ARITHMETIC"),
            "sign-extend (arithmetic shift)",
        );
        return;
    }
    let half = 1u32 << (bits - 1);
    if half <= 2047 {
        b.op(
            &format!("sfpiadd {half}, L{r}, L{r}, IMM|CC_NONE"),
            "+ 2^(N-1)",
        );
    } else {
        let h = b.constant(half, Reg::L7, "2^(N-1)");
        b.op(&format!("sfpiadd 0, L{}, L{r}, CC_NONE", h.0), "+ 2^(N-1)");
    }
    let m = b.constant(mask, Reg::L7, "low-bits mask");
    b.op(&format!("sfpand 0, L{}, L{r}, 0", m.0), "low bits, offset");
    if half <= 2048 {
        b.op(
            &format!("sfpiadd -{half}, L{r}, L{r}, IMM|CC_NONE"),
            "- 2^(N-1): sign-extended",
        );
    } else {
        let h = b.constant(half.wrapping_neg(), Reg::L7, "-2^(N-1)");
        b.op(
            &format!("sfpiadd 0, L{}, L{r}, CC_NONE", h.0),
            "- 2^(N-1): sign-extended",
        );
    }
}
