//! float → float rules (semantics.md §4.3 / §4.4), in the integer domain on the datum's bit
//! pattern (the only MAD-class instruction is one exact power-of-two SFPMULI in the fp16
//! decode), so Wormhole and Blackhole compute the same bits. Instruction counts are plain body
//! instructions per row, load and store included (= cycles per row; the scheduler needs no NOP
//! in any of them); `body_lengths` in the tests prints them all. The per-lane variable-shift
//! rounding behind `to_f16`, `fr_f32` and `fr_f16` (the binary16 encoder and the integral
//! core) is in `shift_round`.
//!
//! ## `f32_bf16` — f32 → bf16, every mode, sat OFF/ON
//! Sequence: NaN lanes (`|x| + 0x7FFFFF < 0`, one flag-writing SFPIADD on a SFPSETSGN copy)
//! get the canonical quiet NaN with the input's sign (SFPSETSGN from a constant); then the
//! integer rounding of the pattern at bit 16: RINT `+ 0x7FFF + bit16` (bit 16 by a copying
//! `<< 15` and `>> 31`), ROUND `+ 0x8000`, away from zero `+ 0xFFFF` in the lanes whose sign
//! calls for it (FLOOR: negatives, CEIL: positives), TRUNC nothing, ODD `| 0x10000` in the
//! lanes with a non-zero low half; then `& 0xFFFF0000`. Sat ON: lanes whose result is ±Inf
//! (`|r| ^ Inf == 0`) get `- 0x10000`, i.e. ±max.
//! Count (BH = WH): RINT 11, ROUND 8, FLOOR/CEIL 10, TRUNC 7, ODD 11; sat ON adds 5–6.
//! Exact: the f32 pattern is monotonic in the magnitude and bf16 has f32's exponent range, so
//! rounding the pattern at bit 16 is the single rounding at bf16 precision for normals and
//! subnormals alike; the carry moves to the next bf16 value across binades and from ±max into
//! ±Inf, which is §4.3's sat-OFF overflow rule for RINT/ROUND and the away side of FLOOR/CEIL,
//! while TRUNC, ODD (max is odd) and the other side never carry into ±Inf and so stay at ±max
//! as §4.3 asks. ±Inf inputs have a zero low half and stay ±Inf (sat ON: ±max). On WH the
//! canonical NaN constant is `0x7FC0000F` for RINT/ROUND/TRUNC (the low half never carries)
//! and doubles as the `<< 15` amount of a one-instruction SFPSHFT2 copy; ODD's `0x10010`
//! likewise doubles as `<< 16` (bit 4 dies in the mask).
//! Origin: the published §8.1 integer RNE (7 plain instructions); fixes NaN (0x7F800001 gave
//! +Inf, 0x7FFFFFFF gave −0), denormal results (raw INT32 store instead of the flushing FP16B
//! store, no Dst view mixing) and adds the other modes and sat ON.
//! Macro form (RINT sat OFF, exact): 8 c/row on both archs, hand-placed
//! ([`super::f32_bf16_macro`]): four SFPLOADMACROs per row load the datum into three
//! registers (the rounding increment, the value twice, `|x|` for the NaN test) and carry five
//! scheduled instructions; the regular SFPSHFT, the NaN test, the NaN fix and SFPENCC fill the
//! other four cycles. The single-macro search finds none (the NaN step narrows the lane flags
//! and the chain outruns one SFPLOADMACRO's delay range).
//!
//! **`--nan=any` (RELAXED):** the NaN step (4 instructions) is left out — non-NaN lanes never
//! depended on it — so NaN inputs may give any output. RINT 7 instructions, 4 c/row with three
//! SFPLOADMACROs and one regular SFPSHFT per row (hand-placed, [`super::f32_bf16_macro`]),
//! ROUND 4 / 2 c/row, FLOOR/CEIL 6 / 4, TRUNC 3 / 1, ODD 7 / 5 (BH = WH; on WH the
//! `<< 15` amount is a constant register of its own). Exact on every non-NaN input for the
//! reason above; proven with NaN inputs run but not compared.
//!
//! ## `bf16_f32` — bf16 → f32, every mode (exact), sat OFF/ON
//! The bf16 datum already is the f32 value: NaN lanes (same test as above) get the quiet bit
//! (payload already left-aligned, sign kept, §4.4); sat ON also maps lanes with `|x| == Inf` to
//! `x - 1` = ±max. 6 instructions (sat ON 11). New sequence. `--nan=any` (RELAXED): no quiet
//! bit, load + store, 2 instructions / 1 c/row with SFPLOADMACRO (sat ON 7 / 6).
//!
//! ## `f16_f32` — f16 → f32, every mode (exact), sat OFF/ON
//! `m = |h| << 13` (copying `<< 17`, `>> 4`), sign moved to bit 31. Lanes with exponent field 0:
//! `m = float(m)` by SFPCAST (exact, < 2^24) times 2^-37 (SFPMULI, exact power of two, normal
//! result; zero stays +0); other lanes `m += 112 << 23` (rebias); exponent 31: Inf (sat: max),
//! and with a payload `0x7FC00000 | payload << 13`; then SFPSETSGN. 19 (BH) / 20 (WH)
//! instructions, sat ON +1. Exact: every f16 value is an f32 normal (or zero) and each path
//! builds its pattern without rounding. New sequence. `--nan=any` (RELAXED): NaN lanes keep
//! the Inf (or max) of their exponent — no payload step — 15 (BH) / 16 (WH), sat ON +1.
//!
//! ## `to_f16` — f32 / bf16 → f16, every mode, sat OFF/ON
//! E = biased exponent, sig = significand (hidden bit; f32 subnormals without it when the mode
//! can round a tiny value up), shift `s = clamp(126 - E, 13, 31)`, `q = round(sig >> s)` per
//! mode on the integer (TRUNC `>>`; away `+ 2^s - 1`; ROUND `+ 2^(s-1)`; RINT
//! `+ 2^(s-1) - 1 + ((sig >> s) & 1)`; ODD `| 1` when `q << s != sig`), then
//! `r = (max(E - 113, 0) << 10) + q` (the hidden bit and any carry step the exponent, subnormal → normal → overflow),
//! `r >= 0x7C00` → Inf or max per §4.3's mode/sign/sat rule, E = 255 → Inf (sat: max) or the
//! canonical 0x7E00, sign to bit 15. RINT 40 (BH) / 41 (WH), ROUND 35/36, FLOOR/CEIL 42/43,
//! TRUNC 31/32, ODD 41/42. Exact: one rounding of the exact significand on the fp16 grid of
//! its binade (2^max(E-150+13, -24)); shifts ≥ 25 leave `sig < 2^(s-1)`, so the clamp to 31
//! rounds like the true shift. bf16 runs unchanged (its datum is an f32 value). `--nan=any`
//! (RELAXED): NaN lanes keep Inf (or max) — no fraction test — 3 instructions fewer (RINT
//! 37 / 38). The published
//! §8.14 fp16a (SFPSTOCHRND, ties away, flushes subnormals, NaN → Inf) is not used.
//!
//! ## `f16_bf16` — f16 → bf16, every mode, sat OFF/ON
//! The exact `f16_f32` decode followed by the `f32_bf16` rounding (single rounding; NaN
//! canonical; sat). RINT 29 (BH) / 30 (WH) instructions. New sequence. `--nan=any`
//! (RELAXED): without the NaN steps of `f16_f32` and `f32_bf16`, RINT 20 / 21.
//!
//! ## `fr_rint` — f32 → f32 and bf16 → bf16 RINT (round to integral, nearest even), sat ignored
//! Sequence: `a = |x|` (SFPSETSGN), `s = 1.0 * a + 2^23` (SFPMAD), lanes with `a < 2^23`
//! (integer compare of the patterns, SFPIADD with CC): `r = s - 2^23` (SFPADDI); the other
//! lanes keep x (integral, ±Inf) and NaN lanes get `0x7FC00000`; SFPSETSGN puts the sign of x
//! back (−0, −0.3 → −0). NaN: on BH the other lanes compute `r = x * 1 + 0`, whose NaN result
//! is the canonical `0x7FC00000` (tensix.md §3 step 5); on WH (MAD NaNs leak bits) they take
//! `|x|` and a second flag-writing SFPIADD on the same difference narrows them to the NaN
//! lanes for an SFPLOADI. Count: BH 10, WH 12 c/row. `--nan=any` (RELAXED): the lanes with
//! `|x| >= 2^23` keep x, 9 c/row on both archs (one BH stall / WH NOP before the SFPSETSGN).
//! Exact: for `a < 2^23` the sum lies in `[2^23, 2^24]`, where the f32 spacing is 1, so the
//! FPU's single round-to-nearest-even (§3 step 11; `a * 1.0` is exact; an alignment shift
//! below 32 keeps a sticky bit, and one of 32 or more, which drops `a`, happens only for
//! `a < 2^-8`, whose RINT is 0 as well; the normalisation shift is at most 1, so WH's sticky
//! bug cannot fire) is RINT at the units place; `s - 2^23` is exact (Sterbenz). Denormal inputs are flushed to 0 by the
//! MAD, and RINT of a denormal is ±0, which the SFPSETSGN gives. `a >= 2^23` is integral.
//! Origin: the issue-21 hand sequence; tt-llk's `_round_even_` uses the same magic constant.
//! bf16 runs unchanged (a bf16 value rounds to a bf16 value, low half stays zero).
//!
//! ## `fr_mask` — f32 → f32 and bf16 → bf16 TRUNC, FLOOR, CEIL, ROUND, sat ignored
//! Starts from tt-llk's `_trunc_body_` (`ckernel_sfpu_rounding_ops.h`): `M = 0x80000000`;
//! lanes with unbiased exponent `e >= 0` (SFPEXEXP with CC): `M = -1`; of those, lanes with
//! `k = 23 - e >= 0` (SFPIADD with CC): `M = -1 << k` (SFPSHFT2 by register); `t = v & M` is
//! trunc(v) with its sign (|v| < 1 → ±0; |v| >= 2^23, ±Inf, NaN unchanged). What ptoc adds:
//! * **NaN and signed zero.** BH: `v = x * 1 - 0` (SFPMAD with NEGATE_VC): NaN becomes the
//!   canonical `0x7FC00000` and a denormal becomes a zero *of its sign* (BH returns
//!   `sz & p_sign`, and `z = -0`), every other value is x; a final SFPSETSGN restores the sign
//!   of x (NaN). WH: the `f32_bf16` NaN step (4 instructions) on x first; M keeps the sign
//!   bit, so t has the sign of x.
//! * **FLOOR / CEIL**: lanes where `t > x` (FLOOR) / `x > t` (CEIL) get `t ∓ 1` by one exact
//!   SFPMAD (|t| < 2^23 integral; `±0 - 1 = -1`). BH compares with SFPGT (sign-magnitude total
//!   order: −denormal < −0 = t); WH narrows to the lanes of the right sign (SFPSETCC on t) and
//!   then `t - x < 0` (SFPIADD on the patterns, which have one sign there).
//! * **ROUND** (ties away): `t = trunc(|x| + (0.5 - 2^-25))` (one SFPMAD into the masked
//!   value, SFPSETSGN after). The sum rounds up across the next integer exactly when the
//!   fraction of |x| is >= 0.5: for |x| >= 1 a fraction below 0.5 leaves the sum at least
//!   `ulp(x) + 2^-25` below the integer while the sum's spacing is at most `2 ulp(x)`; a tie
//!   `n + 0.5` gives `n + 1 - 2^-25`, within half a spacing of `n + 1`; for |x| < 1 the largest
//!   |x| below 0.5 (0.5 - 2^-25) gives `1 - 2^-24`, representable, and 0.5 gives the tie
//!   `1 - 2^-25` between `1 - 2^-24` (odd) and 1, rounded to 1; |x| >= 2^23 stays (the
//!   constant is below half a spacing). BH: the MAD also canonicalises NaN; WH: NaN lanes of x
//!   get `0x7FC00000` before the SFPSETSGN (4 instructions).
//!
//! Count (c/row, BH / WH): TRUNC 11 / 13, FLOOR/CEIL 14 / 17, ROUND 12 / 16. `--nan=any`
//! (RELAXED: no NaN work, t from x): TRUNC 9 / 9 (tt-llk's 10), FLOOR/CEIL 12 / 13 (tt-llk's
//! 13); ROUND on BH has no NaN work to drop (exact kernel kept), on WH the NaN step goes.
//! Exact: masking the fraction bits of a pattern is trunc toward zero for every binade
//! (e ≤ −1: all of |v| is fraction, e ≥ 23: none); denormals are |v| < 1 (trunc ±0; FLOOR/CEIL
//! see them through the compare, whose operands keep the sign); the ±1 step is exact and
//! moves `t` to the next integer in the rounding direction exactly when x is not integral.
//! bf16 runs unchanged (a bf16 value rounds to a bf16 value).
//!
//! ## `fr_f32` — f32 → f32 and bf16 → bf16 ODD (round to integral, to odd), sat ignored
//! `q = round(sig >> s)` with `s = clamp(150 - E, 1, 31)` (the same integer rounding as
//! `to_f16`) is the integral magnitude; `float(q)` by SFPCAST is exact (q ≤ 2^24); lanes with
//! E ≥ 150 keep x (already integral, ±Inf), NaN lanes get 0x7FC00000; SFPSETSGN restores the
//! sign. ODD 32 (BH = WH). The other modes used this sequence before `fr_rint` / `fr_mask`
//! (RINT 31, ROUND 26, FLOOR/CEIL 31, TRUNC 22). New sequence. `--nan=any` (RELAXED): NaN
//! lanes keep x (no canonical NaN), 4 instructions fewer (28).
//!
//! ## `fr_f16` — f16 → f16 (FR), every mode, sat ignored
//! `f16_f32` decode, `fr_rint` / `fr_mask` / `fr_f32` (ODD), then `to_f16` TRUNC (exact: the
//! value is representable). c/row BH / WH: RINT 56 / 60, ROUND 58 / 64, FLOOR 60 / 67, CEIL
//! 60 / 66, TRUNC 57 / 62, ODD 78 / 80 (68–78 / 70–80 before `fr_rint` / `fr_mask`). New
//! sequence. `--nan=any` (RELAXED): the NaN steps left out (RINT 48 / 50).

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

mod fr_fast;
mod shift_round;
use shift_round::{f16_encode, fr_core};

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    use ElemType::{BF16, F16, F32};
    if c.rounding == Rounding::Hybrid {
        return Err(format!(
            "{}: hybrid rounding is not executable (semantics.md §4.1)",
            c.describe()
        ));
    }
    match (c.src, c.dst) {
        (F32, BF16) => Ok(f32_bf16(b, c.rounding, c.sat)),
        (BF16, F32) => Ok(bf16_f32(b, c.sat)),
        (F16, F32) => Ok(f16_f32(b, c.sat)),
        (F32 | BF16, F16) => Ok(to_f16(b, c.src, c.rounding, c.sat)),
        (F16, BF16) => Ok(f16_bf16(b, c.rounding, c.sat)),
        (F32 | BF16, F32 | BF16) if c.src == c.dst => Ok(fr_f32(b, c.src, c.rounding)),
        (F16, F16) => Ok(fr_f16(b, c.rounding)),
        _ => Err(format!("{} is not lowered yet", c.describe())),
    }
}

fn l(r: Reg) -> String {
    format!("L{}", r.0)
}

/// Narrows the lanes to those where `x` is ±Inf (using `t` as scratch; `scratch` holds the Inf
/// pattern if the constant registers are taken); the caller adjusts them and re-enables all lanes.
fn enable_inf_lanes(b: &mut Builder, x: Reg, t: Reg, scratch: Reg, name: &str) {
    let kinf = b.constant(0x7F80_0000, scratch, "+Inf pattern");
    b.op(
        &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(t)),
        &format!("t = |{name}|"),
    );
    b.op(
        &format!("sfpxor 0, {}, {}, 0", l(kinf), l(t)),
        &format!("t = |{name}| ^ Inf"),
    );
    b.op(
        &format!("sfpsetcc 0, {}, 0, LREG_EQ0", l(t)),
        &format!("lanes with {name} = ±Inf"),
    );
}

/// `dst = src` shifted left by `amt` (right when negative), `src` kept.
fn copy_shift(b: &mut Builder, dst: Reg, src: Reg, amt: i32, why: &str) {
    copy_shift_by(b, dst, src, amt, None, why)
}

/// As [`copy_shift`]; on Wormhole, `by` (a register whose value, read as a shift amount, is
/// `amt`) makes it one SFPSHFT2 instead of a move and a shift.
fn copy_shift_by(b: &mut Builder, dst: Reg, src: Reg, amt: i32, by: Option<Reg>, why: &str) {
    match (b.arch(), by) {
        (Arch::Bh, _) => b.op(
            &format!("sfpshft {amt}, {}, {}, IMM|IMM_USE_VC", l(src), l(dst)),
            why,
        ),
        (Arch::Wh, Some(k)) => b.op(
            &format!("sfpshft2 {}, {}, {}, SHFT_LREG", src.0, l(k), l(dst)),
            why,
        ),
        (Arch::Wh, None) => {
            b.op(&format!("sfpmov 0, {}, {}, 0", l(src), l(dst)), why);
            b.op(
                &format!("sfpshft {amt}, {}, {}, IMM", l(dst), l(dst)),
                "  (shift the copy)",
            );
        }
    }
}

/// NaN lanes of the f32 pattern in `x` become `sign | canon` (canonical quiet NaN of the
/// destination written as an f32 pattern); `t` is scratch. All lanes enabled after.
fn nan_to_canonical(b: &mut Builder, x: Reg, t: Reg, canon: u32) -> Reg {
    let knan = b.constant(
        0x007F_FFFF,
        Reg::L7,
        "0x7FFFFF: |x| + it < 0 exactly for NaN",
    );
    let kc = b.constant(canon, Reg::L6, "canonical quiet NaN");
    b.op(
        &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(t)),
        "t = |x| (pattern)",
    );
    b.op(
        &format!("sfpiadd 0, {}, {}, CC_LT0", l(knan), l(t)),
        "t = |x| + 0x7FFFFF; lanes with t < 0: NaN",
    );
    b.op(
        &format!("sfpsetsgn 0, {}, {}, 0", l(kc), l(x)),
        "x = canonical qNaN, sign of x kept",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    kc
}

fn f32_bf16(b: &mut Builder, mode: Rounding, sat: bool) -> Chosen {
    b.load(Reg::L0, "x (fp32 bits)");
    bf16_core(b, mode, sat);
    b.store(Reg::L0, "bf16 datum (low half zero)");
    if mode == Rounding::Rint && !sat {
        b.hand_macro = Some(super::f32_bf16_macro::rint(b.arch(), b.relaxed));
    }
    if b.relaxed {
        return Chosen::new(
            "float_float::f32_bf16",
            &[
                "starts from the published tensix.md §8.1 integer RNE; keeps subnormal results (raw INT32 store), adds the other modes and sat ON; no NaN fix-up (--nan=any)",
                "integer rounding of the fp32 pattern at bit 16: the carry moves to the next bf16 value across binades and into ±Inf exactly as §4.3's overflow rule",
            ],
        );
    }
    Chosen::new(
        "float_float::f32_bf16",
        &[
            "starts from the published tensix.md §8.1 integer RNE; fixes NaN (canonical quiet NaN, sign kept), keeps subnormal results (raw INT32 store), adds the other modes and sat ON",
            "integer rounding of the fp32 pattern at bit 16: the carry moves to the next bf16 value across binades and into ±Inf exactly as §4.3's overflow rule",
        ],
    )
}

/// The f32 pattern in L0 → the bf16 datum in L0 (see `f32_bf16`); uses L1..L7.
fn bf16_core(b: &mut Builder, mode: Rounding, sat: bool) {
    let (x, t) = (Reg::L0, Reg::L1);
    // RINT/ROUND/TRUNC never carry out of a low half of 0x000F, so the canonical NaN may carry
    // 15 there: read as a shift amount it is the `<< 15` RINT needs (one SFPSHFT2 on WH).
    let low = if matches!(mode, Rounding::Rint | Rounding::Round | Rounding::Trunc) {
        0xF
    } else {
        0
    };
    let kc = if b.nan_any() {
        // --nan=any: NaN lanes are left to the rounding (any output); non-NaN lanes are
        // untouched by the NaN step, so dropping it keeps them exact.
        b.relax();
        (b.arch() == Arch::Wh && mode == Rounding::Rint)
            .then(|| b.constant(15, Reg::L2, "15: the << 15 amount (SFPSHFT2)"))
    } else {
        Some(nan_to_canonical(b, x, Reg::L2, 0x7FC0_0000 | low))
    };
    round_at_16(b, x, t, mode, kc);
    let mask = b.constant(0xFFFF_0000, Reg::L5, "bf16 mask");
    b.op(
        &format!("sfpand 0, {}, {}, 0", l(mask), l(x)),
        "drop the low half",
    );
    if sat {
        enable_inf_lanes(b, x, t, Reg::L4, "r");
        b.op(
            &format!("sfpiadd 0, {}, {}, CC_NONE", l(mask), l(x)),
            "r -= 0x10000: ±Inf -> ±max (sat)",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
}

/// Rounds the f32 pattern in `x` at bit 16 per `mode` (low half left as garbage for the mask);
/// `t` is scratch. All lanes enabled on entry and exit.
fn round_at_16(b: &mut Builder, x: Reg, t: Reg, mode: Rounding, kc: Option<Reg>) {
    match mode {
        Rounding::Trunc => {}
        Rounding::Rint => {
            copy_shift_by(b, t, x, 15, kc, "t = x << 15: bit 16 of x in the sign");
            b.op(
                &format!("sfpshft -31, {}, {}, IMM", l(t), l(t)),
                "t = bit 16 of x (LSB of the kept part)",
            );
            let k = b.constant(0x7FFF, Reg::L3, "0x7FFF (RNE: half minus one)");
            b.op(
                &format!("sfpiadd 0, {}, {}, CC_NONE", l(k), l(x)),
                "x += 0x7FFF",
            );
            b.op(
                &format!("sfpiadd 0, {}, {}, CC_NONE", l(t), l(x)),
                "x += LSB: ties go to even",
            );
        }
        Rounding::Round => {
            let k = b.constant(0x8000, Reg::L3, "0x8000 (half)");
            b.op(
                &format!("sfpiadd 0, {}, {}, CC_NONE", l(k), l(x)),
                "x += 0x8000: ties away from zero",
            );
        }
        Rounding::Floor | Rounding::Ceil => {
            let k = b.constant(0xFFFF, Reg::L3, "0xFFFF (away from zero)");
            let cond = if mode == Rounding::Floor {
                ("LREG_LT0", "lanes with x negative (FLOOR rounds away)")
            } else {
                ("LREG_GTE0", "lanes with x positive (CEIL rounds away)")
            };
            b.op(&format!("sfpsetcc 0, {}, 0, {}", l(x), cond.0), cond.1);
            b.op(
                &format!("sfpiadd 0, {}, {}, CC_NONE", l(k), l(x)),
                "x += 0xFFFF: any discarded bit carries",
            );
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
        Rounding::Odd | Rounding::Hybrid => {
            // Bit 4 is cleared by the final mask; it makes the constant a `<< 16` amount.
            let k = b.constant(
                0x1_0010,
                Reg::L3,
                "bit 16 (LSB of the kept part) | 16 (shift amount)",
            );
            copy_shift_by(b, t, x, 16, Some(k), "t = low half of x, at the top");
            b.op(
                &format!("sfpsetcc 0, {}, 0, LREG_NE0", l(t)),
                "lanes with a discarded bit set",
            );
            b.op(
                &format!("sfpor 0, {}, {}, 0", l(k), l(x)),
                "x |= LSB (round to odd)",
            );
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
    }
}

fn bf16_f32(b: &mut Builder, sat: bool) -> Chosen {
    let (x, t) = (Reg::L0, Reg::L1);
    b.load(x, "x (bf16 in the high half: an fp32 value)");
    if b.nan_any() {
        // --nan=any: the quiet bit is the only NaN work; every other value is the datum.
        b.relax();
        if sat {
            enable_inf_lanes(b, x, t, Reg::L5, "x");
            b.op(
                &format!("sfpiadd -1, {}, {}, IMM|CC_NONE", l(x), l(x)),
                "±Inf - 1 = ±max (sat)",
            );
            b.op("sfpencc 0, 0, 0, 0", "all lanes");
        }
        b.store(x, "fp32");
        return Chosen::new(
            "float_float::bf16_f32",
            &["relaxed (--nan=any): the bf16 datum is the fp32 value; sat ON maps ±Inf to ±max"],
        );
    }
    let knan = b.constant(
        0x007F_FFFF,
        Reg::L7,
        "0x7FFFFF: |x| + it < 0 exactly for NaN",
    );
    let kq = b.constant(0x0040_0000, Reg::L6, "quiet bit");
    b.op(
        &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(t)),
        "t = |x| (pattern)",
    );
    b.op(
        &format!("sfpiadd 0, {}, {}, CC_LT0", l(knan), l(t)),
        "t = |x| + 0x7FFFFF; lanes with t < 0: NaN",
    );
    b.op(
        &format!("sfpor 0, {}, {}, 0", l(kq), l(x)),
        "NaN: set the quiet bit (payload and sign kept)",
    );
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    if sat {
        enable_inf_lanes(b, x, t, Reg::L5, "x");
        b.op(
            &format!("sfpiadd -1, {}, {}, IMM|CC_NONE", l(x), l(x)),
            "±Inf - 1 = ±max (sat)",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    b.store(x, "fp32");
    Chosen::new(
        "float_float::bf16_f32",
        &[
            "new sequence: the bf16 datum is the fp32 value; NaN lanes get the quiet bit (§4.4), sat ON maps ±Inf to ±max",
        ],
    )
}

fn f16_f32(b: &mut Builder, sat: bool) -> Chosen {
    b.load(Reg::L0, "h (binary16 bits, zero-extended)");
    f16_core(b, sat);
    b.store(Reg::L0, "fp32");
    Chosen::new(
        "float_float::f16_f32",
        &[
            "new sequence: integer rebias of the fp16 pattern (exponent + 112), subnormals through an exact SFPCAST and a power-of-two SFPMULI, Inf/NaN rebuilt (quiet bit set, payload left-aligned, sign kept)",
        ],
    )
}

/// Decodes the binary16 bits in L0 into the exact f32 pattern in L0 (NaN: quiet bit set,
/// payload left-aligned; sat: ±Inf → ±max); uses L1..L4.
fn f16_core(b: &mut Builder, sat: bool) {
    let k = b.constant(
        0x3800_0000,
        Reg::L5,
        "112 << 23: fp16 → fp32 exponent rebias",
    );
    copy_shift(b, Reg::L1, Reg::L0, 17, "m = h << 17: sign dropped");
    b.op(
        "sfpshft -4, L1, L1, IMM",
        "m = |h| << 13 (fp32 field positions)",
    );
    b.op("sfpshft 16, L0, L0, IMM", "L0: the sign of h in bit 31");
    b.op("sfpexexp 0, L1, L2, NODEBIAS", "e = fp16 exponent field");
    b.op(
        "sfpsetcc 0, L2, 0, LREG_EQ0",
        "lanes with e = 0 (zero, subnormal)",
    );
    b.op(
        "sfpcast L1, L1, RNE",
        "m = float(mant << 13): exact (< 2^24)",
    );
    b.op(
        "sfpmuli 0x2d00, L1, 0",
        "m *= 2^-37: mant * 2^-24, exact (zero stays +0)",
    );
    b.op("sfpcompc 0, 0, 0, 0", "lanes with e != 0");
    b.op(
        &format!("sfpiadd 0, {}, L1, CC_NONE", l(k)),
        "exponent += 112 (normal: exact rebias)",
    );
    b.op(
        "sfpiadd -31, L2, L2, IMM|CC_GTE0",
        "lanes with e = 31 (Inf, NaN)",
    );
    let nan_fix = !b.nan_any();
    if nan_fix {
        b.op("sfpexman 0, L1, L3, PAD9", "t = payload << 13");
    }
    if sat {
        b.imm32(Reg::L1, 0x7F7F_FFFF, "max (sat: Inf -> max)");
    } else {
        b.imm32(Reg::L1, 0x7F80_0000, "Inf");
    }
    if nan_fix {
        b.op(
            "sfpiadd -1, L3, L4, IMM|CC_GTE0",
            "lanes with a payload (NaN)",
        );
        b.op("sfploadi L1, FLOATB, 0x7fc0", "quiet NaN");
        b.op("sfpor 0, L3, L1, 0", "payload left-aligned");
    } else {
        // --nan=any: NaN lanes keep the Inf (or max) of their exponent.
        b.relax();
    }
    b.op("sfpencc 0, 0, 0, 0", "all lanes");
    b.op("sfpsetsgn 0, L1, L0, 0", "result = |m| with the sign of h");
}

fn f16_bf16(b: &mut Builder, mode: Rounding, sat: bool) -> Chosen {
    b.load(Reg::L0, "h (binary16 bits, zero-extended)");
    f16_core(b, false);
    bf16_core(b, mode, sat);
    b.store(Reg::L0, "bf16 datum (low half zero)");
    Chosen::new(
        "float_float::f16_bf16",
        &[
            "new sequence: exact fp16 → fp32 decode (f16_f32), then the single rounding of f32_bf16 (NaN canonical, sat)",
        ],
    )
}

fn to_f16(b: &mut Builder, src: ElemType, mode: Rounding, sat: bool) -> Chosen {
    b.load(
        Reg::L0,
        if src == ElemType::BF16 {
            "x (bf16 in the high half: an fp32 value)"
        } else {
            "x (fp32 bits)"
        },
    );
    f16_encode(b, mode, sat);
    b.store(Reg::L2, "binary16 bits, zero-extended");
    Chosen::new(
        "float_float::to_f16",
        &[
            "new sequence (the published §8.14 fp16a is ties-away, flushes subnormals and has no Inf/NaN): integer rounding of the significand by a per-lane shift (13 for normal results, more for subnormal ones), exponent rebuilt, overflow/Inf/NaN per §4.3",
        ],
    )
}

fn fr_f32(b: &mut Builder, ty: ElemType, mode: Rounding) -> Chosen {
    let what = if ty == ElemType::BF16 {
        "x (bf16 in the high half: an fp32 value)"
    } else {
        "x (fp32 bits)"
    };
    match mode {
        Rounding::Rint => {
            b.load(Reg::L0, what);
            fr_fast::fr_rint(b);
            b.store(Reg::L0, "integral value, same type");
            return Chosen::new(
                "float_float::fr_rint",
                &["new sequence: |x| + 2^23 - 2^23 on the FPU (round to nearest even at the units place) where |x| < 2^23, x elsewhere; NaN canonical (BH: through a MAD), sign restored. A bf16 value rounds to a bf16 value, so bf16 runs unchanged"],
            );
        }
        Rounding::Trunc | Rounding::Floor | Rounding::Ceil | Rounding::Round => {
            b.load(Reg::L0, what);
            let r = fr_fast::fr_mask(b, mode);
            b.store(r, "integral value, same type");
            return Chosen::new(
                "float_float::fr_mask",
                &["starts from tt-llk's trunc (fraction bits masked by -1 << (23 - e)); adds canonical NaN and the sign of zero, FLOOR/CEIL by one compare and an exact +-1, ROUND as trunc(|x| + 0.5 - 2^-25). A bf16 value rounds to a bf16 value, so bf16 runs unchanged"],
            );
        }
        _ => {}
    }
    b.load(
        Reg::L0,
        if ty == ElemType::BF16 {
            "x (bf16 in the high half: an fp32 value)"
        } else {
            "x (fp32 bits)"
        },
    );
    fr_core(b, mode);
    b.store(Reg::L0, "integral value, same type");
    Chosen::new(
        "float_float::fr_f32",
        &[
            "new sequence: the integer part is the significand rounded by a per-lane shift (150 - E), converted back exactly by SFPCAST (< 2^25), sign restored; |x| >= 2^23, Inf kept; NaN canonical. A bf16 value rounds to a bf16 value, so bf16 runs unchanged",
        ],
    )
}

fn fr_f16(b: &mut Builder, mode: Rounding) -> Chosen {
    b.load(Reg::L0, "h (binary16 bits, zero-extended)");
    f16_core(b, false);
    match mode {
        Rounding::Rint => fr_fast::fr_rint(b),
        Rounding::Trunc | Rounding::Floor | Rounding::Ceil | Rounding::Round => {
            let r = fr_fast::fr_mask(b, mode);
            if r != Reg::L0 {
                b.op(&format!("sfpmov 0, {}, L0, 0", l(r)), "the integral f32");
            }
        }
        _ => fr_core(b, mode),
    }
    f16_encode(b, Rounding::Trunc, false);
    b.store(Reg::L2, "binary16 bits, zero-extended");
    Chosen::new(
        "float_float::fr_f16",
        &[
            "new sequence: exact fp16 → fp32 decode, fr_f32, exact fp32 → fp16 encode (the value is representable, so TRUNC encodes it unchanged)",
        ],
    )
}

#[cfg(test)]
mod tests {
    use super::super::super::prove::{prove, ProofOptions};
    use super::super::super::{lower_combo, Combo, Family};
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    use pto_runtime::tensix::isa::{Arch, Insn};

    /// Prints the body length of every lowered float→float combination (run with
    /// `--nocapture`; the module doc quotes these numbers).
    #[test]
    fn body_lengths() {
        for arch in [Arch::Bh, Arch::Wh] {
            for c in Combo::all() {
                if Family::of(c.src, c.dst) != Family::FloatToFloat {
                    continue;
                }
                if let Ok(k) = lower_combo(c, arch) {
                    let nops = k
                        .body
                        .iter()
                        .filter(|l| matches!(l.insn, Insn::Nop))
                        .count();
                    println!(
                        "{arch:?} {:<28} {:<24} {:>3} instructions ({nops} NOP), init {}",
                        c.describe(),
                        k.rule,
                        k.body_len(),
                        k.init.len()
                    );
                }
            }
        }
    }

    /// The proofs are not vacuous: dropping a tie-breaking step is caught.
    #[test]
    fn a_broken_tie_break_fails_its_proof() {
        for (src, dst, comment) in [
            (ElemType::F32, ElemType::BF16, "x += LSB: ties go to even"),
            (ElemType::F32, ElemType::F16, "sig -= 1: ties go to even"),
            (ElemType::F16, ElemType::BF16, "x += LSB: ties go to even"),
        ] {
            let combo = Combo {
                src,
                dst,
                rounding: Rounding::Rint,
                sat: false,
            };
            for arch in [Arch::Bh, Arch::Wh] {
                let Ok(mut k) = lower_combo(combo, arch) else {
                    panic!("{} is lowered", combo.describe());
                };
                let before = k.body.len();
                k.body.retain(|l| l.comment != comment);
                assert_eq!(k.body.len() + 1, before, "{comment}");
                let rep = prove(
                    &k,
                    &ProofOptions {
                        random: 1 << 12,
                        ..ProofOptions::default()
                    },
                    &|_| {},
                );
                assert!(!rep.passed(), "{arch:?} {}", combo.describe());
            }
        }
    }

    /// f32 sources at `ptoc prove`'s default strength (edge list + 2^24 random patterns);
    /// `cargo test --release -p ptoc --lib float_float -- --ignored`.
    #[test]
    #[ignore]
    fn f32_sources_at_default_strength() {
        for arch in [Arch::Bh, Arch::Wh] {
            for c in Combo::all() {
                if c.src != ElemType::F32 || Family::of(c.src, c.dst) != Family::FloatToFloat {
                    continue;
                }
                let Ok(k) = lower_combo(c, arch) else {
                    continue;
                };
                let rep = prove(&k, &ProofOptions::default(), &|_| {});
                assert!(rep.passed(), "{arch:?} {}: {rep:?}", c.describe());
            }
        }
    }

    /// f32 → bf16 RINT on all 2^32 inputs, both archs.
    #[test]
    #[ignore]
    fn f32_bf16_rint_exhaustive() {
        let c = Combo {
            src: ElemType::F32,
            dst: ElemType::BF16,
            rounding: Rounding::Rint,
            sat: false,
        };
        for arch in [Arch::Bh, Arch::Wh] {
            let Ok(k) = lower_combo(c, arch) else {
                panic!("lowered");
            };
            let opts = ProofOptions {
                exhaustive: true,
                ..ProofOptions::default()
            };
            let rep = prove(&k, &opts, &|_| {});
            assert!(rep.passed(), "{arch:?}: {rep:?}");
            assert_eq!(rep.inputs, 1u64 << 32);
        }
    }
}
