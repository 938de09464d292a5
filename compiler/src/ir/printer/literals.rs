//! Literal spellings of the printer (syntax.md §7.4): floats, non-finite bit patterns and
//! string escapes. Pure functions of their inputs; never panic.

use std::fmt::Write as _;

/// Float types whose non-finite values print as a bit pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum FloatKind {
    F16,
    BF16,
    F32,
    F64,
}

/// A finite float as Rust `{:?}` prints it, with `.0` inserted before the exponent or at the end
/// when there is no `.` (`1e-5` -> `1.0e-5`), so the text always lexes as a FLOAT.
pub fn print_float(v: f64) -> String {
    let mut s = format!("{v:?}");
    if !s.contains('.') {
        match s.find(['e', 'E']) {
            Some(e) => s.insert_str(e, ".0"),
            None => s.push_str(".0"),
        }
    }
    s
}

/// The bit pattern of a non-finite `v` in the given float type (sign kept; NaN is quiet).
pub(super) fn nonfinite_bits(v: f64, kind: FloatKind) -> u64 {
    let neg = v.is_sign_negative();
    match kind {
        FloatKind::F64 => v.to_bits(),
        FloatKind::F32 => u64::from((v as f32).to_bits()),
        FloatKind::F16 => {
            let sign = if neg { 0x8000 } else { 0 };
            sign | if v.is_nan() { 0x7E00 } else { 0x7C00 }
        }
        FloatKind::BF16 => {
            let sign = if neg { 0x8000 } else { 0 };
            sign | if v.is_nan() { 0x7FC0 } else { 0x7F80 }
        }
    }
}

/// A quoted string literal: `\"` `\\` `\n` `\t`; other bytes below 0x20 and 0x7F as `\XX`;
/// everything else (UTF-8 included) unchanged.
pub fn escape_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                let _ = write!(out, "\\{:02X}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_always_have_a_point() {
        assert_eq!(print_float(1.0), "1.0");
        assert_eq!(print_float(1e-5), "1.0e-5");
        assert_eq!(print_float(-0.25), "-0.25");
        assert_eq!(print_float(1e20), "1.0e20");
        assert_eq!(print_float(2.5e-7), "2.5e-7");
    }

    #[test]
    fn non_finite_patterns() {
        assert_eq!(nonfinite_bits(f64::INFINITY, FloatKind::F32), 0x7F80_0000);
        assert_eq!(nonfinite_bits(f64::NEG_INFINITY, FloatKind::F16), 0xFC00);
        assert_eq!(nonfinite_bits(f64::INFINITY, FloatKind::BF16), 0x7F80);
        assert_eq!(
            nonfinite_bits(f64::INFINITY, FloatKind::F64),
            0x7FF0_0000_0000_0000
        );
    }

    #[test]
    fn escapes() {
        assert_eq!(escape_string("a\"b\\c\nd\te"), r#""a\"b\\c\nd\te""#);
        assert_eq!(escape_string("\u{1}\u{7f}é"), "\"\\01\\7Fé\"");
    }
}
