//! Printing and classifying single element values (for `ptoc cast` and run summaries).
//!
//! Owns [`display_value`] and [`classify`]. Both are total (bits above `value_bits` ignored) and
//! derive everything from the exact decoder in `format.rs`, so they agree with the converter.

use super::format::{decode, exact_to_f64, format_of, Exact, Format};
use crate::elem::ElemType;

/// The IEEE-style class of one element value.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ValueClass {
    Nan,
    Inf,
    Zero,
    /// Below the smallest normal (IEEE subnormals, fp4 exponent-field-0 codes, hif8 denormals).
    Subnormal,
    Normal,
}

/// Classifies the element `bits` of `elem`. Integers are `Zero` or `Normal`.
pub fn classify(elem: ElemType, bits: u64) -> ValueClass {
    let fmt = format_of(elem);
    match decode(fmt, bits) {
        Exact::Nan { .. } => ValueClass::Nan,
        Exact::Inf { .. } => ValueClass::Inf,
        Exact::Finite { sig: 0, .. } => ValueClass::Zero,
        Exact::Finite { sig, exp, .. } => match fmt {
            Format::Float(f) if exp == f.qmin() && sig >> f.mbits == 0 => ValueClass::Subnormal,
            // hif8 denormal codes 0x01..0x07 decode to 2^(m−23) ≤ 2^-16.
            Format::Hif8 if exp + (63 - sig.leading_zeros() as i32) < -15 => ValueClass::Subnormal,
            _ => ValueClass::Normal,
        },
    }
}

/// Formats the element `bits` of `elem` as text:
/// - integers: exact decimal (`-128`, `4294967295`);
/// - floats: `NaN`, `+Inf`, `-Inf`, `0`, `-0`, otherwise the shortest decimal that round-trips
///   the value's exact `f64` (every format here is exact in `f64`): plain notation for
///   1e-5 ≤ |v| < 1e16 (`1.5`, `65504`), scientific otherwise (`3.4028234663852886e38`).
pub fn display_value(elem: ElemType, bits: u64) -> String {
    let x = decode(format_of(elem), bits);
    if elem.is_int() {
        return match x {
            Exact::Finite { neg, sig, .. } if neg => format!("-{sig}"),
            Exact::Finite { sig, .. } => format!("{sig}"),
            _ => String::from("0"),
        };
    }
    match x {
        Exact::Nan { .. } => String::from("NaN"),
        Exact::Inf { neg } => String::from(if neg { "-Inf" } else { "+Inf" }),
        Exact::Finite { neg, sig: 0, .. } => String::from(if neg { "-0" } else { "0" }),
        Exact::Finite { .. } => {
            let v = exact_to_f64(x);
            let a = v.abs();
            if (1e-5..1e16).contains(&a) {
                format!("{v}")
            } else {
                format!("{v:e}")
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_the_documented_forms() {
        assert_eq!(display_value(ElemType::I8, 0x80), "-128");
        assert_eq!(display_value(ElemType::U32, 0xFFFF_FFFF), "4294967295");
        assert_eq!(
            display_value(ElemType::I64, 1 << 63),
            "-9223372036854775808"
        );
        assert_eq!(display_value(ElemType::S4x2, 0x9), "-7");
        assert_eq!(display_value(ElemType::F16, 0x7BFF), "65504");
        assert_eq!(display_value(ElemType::F16, 0x3E00), "1.5");
        assert_eq!(display_value(ElemType::F16, 0x8000), "-0");
        assert_eq!(display_value(ElemType::F16, 0x7C00), "+Inf");
        assert_eq!(display_value(ElemType::Hif8, 0xEF), "-Inf");
        assert_eq!(display_value(ElemType::Hif8, 0x80), "NaN");
        assert_eq!(
            display_value(ElemType::F32, 0x7F7F_FFFF),
            "3.4028234663852886e38"
        );
        assert_eq!(display_value(ElemType::F32, 1), "1.401298464324817e-45");
        assert_eq!(display_value(ElemType::F4E2M1x2, 0xF), "-6");
    }

    #[test]
    fn classifies_each_class() {
        assert_eq!(classify(ElemType::F32, 0x7FC0_0000), ValueClass::Nan);
        assert_eq!(classify(ElemType::F32, 0xFF80_0000), ValueClass::Inf);
        assert_eq!(classify(ElemType::F32, 0x8000_0000), ValueClass::Zero);
        assert_eq!(classify(ElemType::F32, 0x0000_0001), ValueClass::Subnormal);
        assert_eq!(classify(ElemType::F32, 0x0080_0000), ValueClass::Normal);
        assert_eq!(classify(ElemType::F8E4M3FN, 0x7E), ValueClass::Normal);
        assert_eq!(classify(ElemType::F8E4M3FN, 0x7F), ValueClass::Nan);
        assert_eq!(classify(ElemType::F4E2M1x2, 0x1), ValueClass::Subnormal);
        assert_eq!(classify(ElemType::Hif8, 0x07), ValueClass::Subnormal);
        assert_eq!(classify(ElemType::Hif8, 0x7E), ValueClass::Normal);
        assert_eq!(classify(ElemType::Hif8, 0x00), ValueClass::Zero);
        assert_eq!(classify(ElemType::I32, 0), ValueClass::Zero);
        assert_eq!(classify(ElemType::I32, 0xFFFF_FFFF), ValueClass::Normal);
    }
}
