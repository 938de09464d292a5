//! float → int rules.
//!
//! ## `trunc_i32` — f32/bf16 → i32, TRUNC, sat OFF: 13 instructions, 13 c/row
//! The published sequence (tensix.md §8.2) unchanged: exponent narrowing with SFPEXEXP /
//! SFPIADD flags, mantissa shift, two's complement negation. Exact because the reference's
//! sat-OFF rule for i32 is `cvttss2si` (NaN, ±Inf and |x| ≥ 2^31 → INT_MIN), which is what the
//! sequence computes; a bf16 datum is an f32 value with a zero low half, so it runs unchanged.

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    let f32_like = matches!(c.src, ElemType::F32 | ElemType::BF16);
    if f32_like && c.dst == ElemType::I32 && c.rounding == Rounding::Trunc && !c.sat {
        return Ok(trunc_i32(b));
    }
    Err(format!("{} is not lowered yet", c.describe()))
}

fn trunc_i32(b: &mut Builder) -> Chosen {
    use pto_runtime::tensix::isa::Reg;
    b.load(Reg::L0, "x (fp32 bits)");
    b.op("sfploadi L1, USHORT, 0", "result = 0 (|x| < 1)");
    b.op(
        "sfpexexp 0, L0, L2, CC_SGN|CC_COMP",
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
        "sfpexman 0, L0, L1, 0",
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
    b.store(Reg::L1, "i32 result");
    Chosen::new(
        "float_int::trunc_i32",
        &["published tensix.md §8.2 sequence, unchanged (already the reference's sat-OFF rule)"],
    )
}
