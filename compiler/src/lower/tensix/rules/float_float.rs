//! float → float rules (semantics.md §4.3 / §4.4), all in the integer domain on the datum's bit
//! pattern, so Wormhole and Blackhole run the same arithmetic (no MAD numerics involved).
//!
//! ## `f32_bf16` — f32 → bf16, every mode, sat OFF/ON
//! The bf16 result is the f32 pattern rounded at bit 16 (the bf16 datum is that pattern with a
//! zero low half). Sequence: NaN lanes are replaced by the canonical quiet NaN with the input's
//! sign (`|x| + 0x7FFFFF < 0` selects them; SFPSETSGN writes `0x7FC00000` keeping the sign);
//! then the integer rounding of the pattern at bit 16 (RINT `+0x7FFF + bit16`, ROUND `+0x8000`,
//! away from zero `+0xFFFF` in the lanes whose sign calls for it (FLOOR of negatives, CEIL of
//! positives), TRUNC nothing, ODD: bit 16 set in the lanes whose low half is non-zero) and the
//! mask `& 0xFFFF0000`. Sat ON: lanes whose result is ±Inf get `- 0x10000` (→ ±max).
//! Exact because the pattern is monotonic in the magnitude: the carry out of the low half moves
//! to the next bf16 value, across binades, from the largest subnormal to the smallest normal
//! and from ±max to ±Inf, which is the §4.3 overflow rule of RINT/ROUND/FLOOR/CEIL with sat
//! OFF; TRUNC/ODD and the non-away side of FLOOR/CEIL never carry into ±Inf (max is odd), so
//! they stay at ±max as §4.3 asks; ±Inf inputs have a zero low half and stay. RINT: 12
//! instructions per row (BH; WH 13), the other modes 11–13. Starts from the published §8.1
//! integer RNE (7 instructions); fixes NaN (canonical, sign kept), keeps subnormal results (raw
//! INT32 store, no FP16B store flush) and adds sat ON.
//!
//! ## `bf16_f32` — bf16 → f32, every mode, sat OFF/ON
//! The bf16 datum already is the f32 value. Only NaN needs work: the quiet bit is set in NaN
//! lanes (payload already left-aligned, sign kept, §4.4). Sat ON also turns ±Inf into ±max
//! (`0x7F800000 - 1 = 0x7F7FFFFF`, sign bit untouched). 6 instructions (sat ON 11).
//! New sequence (no published one).

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Reg};

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    use ElemType::{BF16, F32};
    if c.rounding == Rounding::Hybrid {
        return Err(format!(
            "{}: hybrid rounding is not executable (semantics.md §4.1)",
            c.describe()
        ));
    }
    match (c.src, c.dst) {
        (F32, BF16) => Ok(f32_bf16(b, c.rounding, c.sat)),
        (BF16, F32) => Ok(bf16_f32(b, c.sat)),
        _ => Err(format!("{} is not lowered yet", c.describe())),
    }
}

fn l(r: Reg) -> String {
    format!("L{}", r.0)
}

/// `dst = src` shifted left by `amt` (right when negative), `src` kept.
fn copy_shift(b: &mut Builder, dst: Reg, src: Reg, amt: i32, why: &str) {
    match b.arch() {
        Arch::Bh => b.op(
            &format!("sfpshft {amt}, {}, {}, IMM|IMM_USE_VC", l(src), l(dst)),
            why,
        ),
        Arch::Wh => {
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
fn nan_to_canonical(b: &mut Builder, x: Reg, t: Reg, canon: u32) {
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
}

fn f32_bf16(b: &mut Builder, mode: Rounding, sat: bool) -> Chosen {
    let (x, t) = (Reg::L0, Reg::L1);
    b.load(x, "x (fp32 bits)");
    nan_to_canonical(b, x, Reg::L2, 0x7FC0_0000);
    round_at_16(b, x, t, mode);
    let mask = b.constant(0xFFFF_0000, Reg::L5, "bf16 mask");
    b.op(
        &format!("sfpand 0, {}, {}, 0", l(mask), l(x)),
        "drop the low half",
    );
    if sat {
        let kinf = b.constant(0x7F80_0000, Reg::L4, "+Inf pattern");
        b.op(
            &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(t)),
            "t = |r|",
        );
        b.op(
            &format!("sfpxor 0, {}, {}, 0", l(kinf), l(t)),
            "t = |r| ^ Inf",
        );
        b.op(
            &format!("sfpsetcc 0, {}, 0, LREG_EQ0", l(t)),
            "lanes with r = ±Inf",
        );
        b.op(
            &format!("sfpiadd 0, {}, {}, CC_NONE", l(mask), l(x)),
            "r -= 0x10000: ±Inf -> ±max (sat)",
        );
        b.op("sfpencc 0, 0, 0, 0", "all lanes");
    }
    b.store(x, "bf16 datum (low half zero)");
    Chosen::new(
        "float_float::f32_bf16",
        &[
            "starts from the published tensix.md §8.1 integer RNE; fixes NaN (canonical quiet NaN, sign kept), keeps subnormal results (raw INT32 store), adds the other modes and sat ON",
            "integer rounding of the fp32 pattern at bit 16: the carry moves to the next bf16 value across binades and into ±Inf exactly as §4.3's overflow rule",
        ],
    )
}

/// Rounds the f32 pattern in `x` at bit 16 per `mode` (low half left as garbage for the mask);
/// `t` is scratch. All lanes enabled on entry and exit.
fn round_at_16(b: &mut Builder, x: Reg, t: Reg, mode: Rounding) {
    match mode {
        Rounding::Trunc => {}
        Rounding::Rint => {
            copy_shift(b, t, x, 15, "t = x << 15: bit 16 of x in the sign");
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
            copy_shift(b, t, x, 16, "t = low half of x, at the top");
            b.op(
                &format!("sfpsetcc 0, {}, 0, LREG_NE0", l(t)),
                "lanes with a discarded bit set",
            );
            let k = b.constant(0x1_0000, Reg::L3, "bit 16 (LSB of the kept part)");
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
        let kinf = b.constant(0x7F80_0000, Reg::L5, "+Inf pattern");
        b.op(
            &format!("sfpsetsgn 0, {}, {}, ARG_IMM", l(x), l(t)),
            "t = |x|",
        );
        b.op(
            &format!("sfpxor 0, {}, {}, 0", l(kinf), l(t)),
            "t = |x| ^ Inf",
        );
        b.op(
            &format!("sfpsetcc 0, {}, 0, LREG_EQ0", l(t)),
            "lanes with x = ±Inf",
        );
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
