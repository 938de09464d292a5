//! Printing of element bit patterns: [`format_value`] gives the exact decimal expansion of an
//! element (every digit, no rounding: a binary fraction always has a finite decimal expansion),
//! [`format_bits`] the hex pattern padded to the element's width. Values are decoded by the
//! numeric core (`pto_runtime::convert::format`), whose decoder is checked against an independent
//! exact reference in `runtime/tests/slowref`. Reports print values with the core's
//! `display_value` (shortest round-trip text); `format_value` is for when every digit matters.
//!
//! Invariants: total over every bit pattern (bits above `value_bits()` are ignored).

use pto_runtime::convert::format::{decode, format_of, Exact};
use pto_runtime::ElemType;

/// `0x` + the pattern, padded to the element's width (one hex digit for a nibble).
pub fn format_bits(t: ElemType, bits: u64) -> String {
    let vb = t.value_bits();
    let bits = if vb >= 64 {
        bits
    } else {
        bits & ((1u64 << vb) - 1)
    };
    format!("0x{:0w$X}", bits, w = vb.div_ceil(4) as usize)
}

/// The exact decimal value of `bits` of `t` (`inf`, `-inf`, `nan`, `-nan` for specials).
pub fn format_value(t: ElemType, bits: u64) -> String {
    match decode(format_of(t), bits) {
        Exact::Inf { neg } => if neg { "-inf" } else { "inf" }.to_string(),
        Exact::Nan { neg, .. } => if neg { "-nan" } else { "nan" }.to_string(),
        Exact::Finite { neg, sig, exp } => exact_decimal(neg, sig, exp),
    }
}

/// Exact decimal of ±mant·2^exp2: plain notation for 1e-6 ≤ |v| < 1e21, else scientific with
/// every significant digit.
fn exact_decimal(neg: bool, mant: u64, exp2: i32) -> String {
    let sign = if neg { "-" } else { "" };
    if mant == 0 {
        return format!("{sign}0");
    }
    // digits (little-endian decimal) of mant·2^exp2 · 10^frac, with frac = max(0, -exp2).
    let mut digits: Vec<u8> = Vec::new();
    let mut m = mant;
    while m > 0 {
        digits.push((m % 10) as u8);
        m /= 10;
    }
    let mul = |digits: &mut Vec<u8>, k: u8| {
        let mut carry = 0u8;
        for d in digits.iter_mut() {
            let v = *d * k + carry;
            *d = v % 10;
            carry = v / 10;
        }
        while carry > 0 {
            digits.push(carry % 10);
            carry /= 10;
        }
    };
    let frac = if exp2 >= 0 {
        for _ in 0..exp2 {
            mul(&mut digits, 2);
        }
        0usize
    } else {
        // m·2^-k = m·5^k / 10^k
        for _ in 0..exp2.unsigned_abs() {
            mul(&mut digits, 5);
        }
        exp2.unsigned_abs() as usize
    };
    // Strip trailing zeros of the fraction.
    let mut frac = frac;
    let mut lo = 0;
    while frac > 0 && digits.get(lo) == Some(&0) {
        lo += 1;
        frac -= 1;
    }
    let digits: Vec<u8> = digits[lo..].iter().rev().copied().collect();
    let s: String = digits.iter().map(|d| char::from(b'0' + d)).collect();
    // Decimal exponent of the leading digit.
    let lead_exp = s.len() as i64 - 1 - frac as i64;
    if (-6..21).contains(&lead_exp) {
        if frac == 0 {
            format!("{sign}{s}")
        } else if s.len() > frac {
            let (i, f) = s.split_at(s.len() - frac);
            format!("{sign}{i}.{f}")
        } else {
            format!("{sign}0.{}{s}", "0".repeat(frac - s.len()))
        }
    } else {
        let (h, t) = s.split_at(1);
        let t = t.trim_end_matches('0');
        if t.is_empty() {
            format!("{sign}{h}e{lead_exp}")
        } else {
            format!("{sign}{h}.{t}e{lead_exp}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElemType::*;

    #[test]
    fn ieee_values() {
        assert_eq!(format_value(F32, 0x3F80_0000), "1");
        assert_eq!(format_value(F32, 0x8000_0000), "-0");
        assert_eq!(
            format_value(F32, 0x3DCC_CCCD),
            "0.100000001490116119384765625"
        );
        assert_eq!(format_value(F32, 0x7F80_0000), "inf");
        assert_eq!(format_value(F32, 0xFFC0_0000), "-nan");
        assert_eq!(
            format_value(F32, 0x7F7F_FFFF),
            "3.4028234663852885981170418348451692544e38"
        );
        assert_eq!(format_value(F32, 1), format!("1.{}e-45", "40129846432481707092372958328991613128026194187651577175706828388979108268586060148663818836212158203125"));
        assert_eq!(format_value(F16, 0x7BFF), "65504");
        assert_eq!(format_value(F16, 0x0001), "5.9604644775390625e-8");
        assert_eq!(
            format_value(BF16, 0x7F7F),
            "3.3895313892515354759047080037148786688e38"
        );
        assert_eq!(format_value(F8E4M3FN, 0x7E), "448");
        assert_eq!(format_value(F8E4M3FN, 0x7F), "nan");
        assert_eq!(format_value(F8E4M3FN, 0x78), "256");
        assert_eq!(format_value(F8E4M3FN, 0x01), "0.001953125");
        assert_eq!(format_value(F8E5M2, 0x7B), "57344");
        assert_eq!(format_value(F8E5M2, 0x7C), "inf");
        assert_eq!(format_value(F4E2M1x2, 0x7), "6");
        assert_eq!(format_value(F4E2M1x2, 0x1), "0.5");
        assert_eq!(format_value(F4E2M1x2, 0x8), "-0");
        assert_eq!(format_value(F4E1M2x2, 0x7), "1.75");
        assert_eq!(format_value(F4E1M2x2, 0x3), "0.75");
    }

    #[test]
    fn hif8_values_of_the_spec() {
        assert_eq!(format_value(Hif8, 0x6E), "32768");
        assert_eq!(format_value(Hif8, 0x6F), "inf");
        assert_eq!(format_value(Hif8, 0xEF), "-inf");
        assert_eq!(format_value(Hif8, 0x80), "nan");
        assert_eq!(format_value(Hif8, 0x00), "0");
        assert_eq!(format_value(Hif8, 0x09), "1.125");
        assert_eq!(format_value(Hif8, 0x08), "1");
        assert_eq!(format_value(Hif8, 0x7E), "0.000030517578125");
        assert_eq!(format_value(Hif8, 0x01), "2.384185791015625e-7");
    }

    #[test]
    fn ints_and_bits() {
        assert_eq!(format_value(I16, 0x5E00), "24064");
        assert_eq!(format_value(I16, 0x9C40), "-25536");
        assert_eq!(format_value(S4x2, 0x9), "-7");
        assert_eq!(format_value(U32, 0xFFFF_FFFF), "4294967295");
        assert_eq!(format_value(I64, 1 << 63), "-9223372036854775808");
        assert_eq!(format_bits(I16, 0x5E00), "0x5E00");
        assert_eq!(format_bits(S4x2, 0x9), "0x9");
        assert_eq!(format_bits(F8E4M3FN, 0x7), "0x07");
    }
}
