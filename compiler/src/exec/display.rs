//! Exact decoding and printing of element bit patterns (semantics.md §2.2-2.5): [`decode`] gives
//! the exact value of any element, [`format_value`] its exact decimal expansion (every digit, no
//! rounding: a binary fraction always has a finite decimal expansion), [`format_bits`] the hex
//! pattern padded to the element's width. Reports print values with the numeric core's
//! `display_value` (shortest round-trip text); `format_value` is for when every digit matters.
//!
//! Invariants: total over every bit pattern (bits above `value_bits()` are ignored); decoding
//! follows the spec's tables, not the numeric core, so it serves as an independent check of the
//! core's decoder (see the tests).

use pto_runtime::ElemType;

/// The exact value of one element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Value {
    /// (−1)^neg · mant · 2^exp2 (mant = 0 is a zero with its sign).
    Finite {
        neg: bool,
        mant: u64,
        exp2: i32,
    },
    Inf {
        neg: bool,
    },
    /// NaN (the sign bit is kept for display; hif8's NaN has none).
    NaN {
        neg: bool,
    },
    Int(i128),
}

/// Layout of an IEEE-like binary format.
struct Ieee {
    exp_bits: u32,
    man_bits: u32,
    bias: i32,
    /// All-ones exponent is Inf/NaN (false: E4M3FN and fp4, where it is a finite binade).
    special_top: bool,
}

fn ieee(t: ElemType) -> Option<Ieee> {
    let f = |exp_bits, man_bits, bias, special_top| Ieee {
        exp_bits,
        man_bits,
        bias,
        special_top,
    };
    Some(match t {
        ElemType::F32 => f(8, 23, 127, true),
        ElemType::F16 => f(5, 10, 15, true),
        ElemType::BF16 => f(8, 7, 127, true),
        ElemType::F8E5M2 => f(5, 2, 15, true),
        ElemType::F8E4M3FN => f(4, 3, 7, false),
        ElemType::F4E2M1x2 => f(2, 1, 1, false),
        ElemType::F4E1M2x2 => f(1, 2, 1, false),
        _ => return None,
    })
}

/// Decodes `bits` (low `value_bits()` bits) of `t` exactly.
pub fn decode(t: ElemType, bits: u64) -> Value {
    let vb = t.value_bits();
    let bits = if vb >= 64 {
        bits
    } else {
        bits & ((1u64 << vb) - 1)
    };
    if t.is_int() {
        let v = match t.kind() {
            pto_runtime::ElemKind::UnsignedInt => i128::from(bits),
            _ => {
                let shift = 128 - vb;
                (i128::from(bits) << shift) >> shift
            }
        };
        return Value::Int(v);
    }
    if t == ElemType::Hif8 {
        return decode_hif8(bits as u8);
    }
    let Some(f) = ieee(t) else {
        return Value::NaN { neg: false };
    };
    let neg = bits >> (f.exp_bits + f.man_bits) & 1 == 1;
    let e = ((bits >> f.man_bits) & ((1 << f.exp_bits) - 1)) as i32;
    let m = bits & ((1 << f.man_bits) - 1);
    let top = (1 << f.exp_bits) - 1;
    if f.special_top && e == top {
        return if m == 0 {
            Value::Inf { neg }
        } else {
            Value::NaN { neg }
        };
    }
    // E4M3FN: S.1111.111 is the only NaN.
    if t == ElemType::F8E4M3FN && e == top && m == (1 << f.man_bits) - 1 {
        return Value::NaN { neg };
    }
    let man_bits = f.man_bits as i32;
    if e == 0 {
        Value::Finite {
            neg,
            mant: m,
            exp2: 1 - f.bias - man_bits,
        }
    } else {
        Value::Finite {
            neg,
            mant: m | (1 << f.man_bits),
            exp2: e - f.bias - man_bits,
        }
    }
}

/// HiFloat8 decode (§2.3).
fn decode_hif8(b: u8) -> Value {
    if b == 0x80 {
        return Value::NaN { neg: false };
    }
    let neg = b & 0x80 != 0;
    if b & 0x7F == 0x6F {
        return Value::Inf { neg };
    }
    let v = b & 0x7F;
    let bit = |i: u32| u64::from(v >> i & 1);
    // (mantissa bits, exponent) per dot class.
    let (m_bits, m, e): (u32, u64, i32) = if v >> 3 == 0 {
        // denormal: m=0 zero, else 2^(m-23).
        let m = u64::from(v & 7);
        return if m == 0 {
            Value::Finite {
                neg: false,
                mant: 0,
                exp2: 0,
            }
        } else {
            Value::Finite {
                neg,
                mant: 1,
                exp2: m as i32 - 23,
            }
        };
    } else if v >> 3 == 1 {
        (3, u64::from(v & 7), 0)
    } else if v >> 4 == 1 {
        // 001 s mmm: s = b3.
        (3, u64::from(v & 7), if bit(3) == 1 { -1 } else { 1 })
    } else if v >> 5 == 1 {
        // 01 s e mmm
        let mag = 2 + bit(3) as i32;
        (3, u64::from(v & 7), if bit(4) == 1 { -mag } else { mag })
    } else if v >> 5 == 2 {
        // 10 s ee mm
        let mag = 4 + ((v >> 2) & 3) as i32;
        (2, u64::from(v & 3), if bit(4) == 1 { -mag } else { mag })
    } else {
        // 11 s eee m
        let mag = 8 + ((v >> 1) & 7) as i32;
        (1, u64::from(v & 1), if bit(4) == 1 { -mag } else { mag })
    };
    Value::Finite {
        neg,
        mant: m | (1 << m_bits),
        exp2: e - m_bits as i32,
    }
}

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
    match decode(t, bits) {
        Value::Int(v) => v.to_string(),
        Value::Inf { neg } => if neg { "-inf" } else { "inf" }.to_string(),
        Value::NaN { neg } => if neg { "-nan" } else { "nan" }.to_string(),
        Value::Finite { neg, mant, exp2 } => exact_decimal(neg, mant, exp2),
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
        assert_eq!(
            decode(Hif8, 0x7E),
            Value::Finite {
                neg: false,
                mant: 2,
                exp2: -16
            }
        );
        assert_eq!(
            decode(Hif8, 0x01),
            Value::Finite {
                neg: false,
                mant: 1,
                exp2: -22
            }
        );
    }

    /// The numeric core's `display_value` names the same value as the spec-table decoder, for
    /// every pattern of every 4-, 8- and 16-bit type and a sweep of f32 patterns.
    #[test]
    fn agrees_with_the_numeric_core_display() {
        use pto_runtime::convert::display_value;
        let same = |t: ElemType, b: u64| {
            let core = display_value(t, b);
            match decode(t, b) {
                Value::NaN { .. } => assert_eq!(core, "NaN", "{t} {b:#x}"),
                Value::Inf { neg } => {
                    assert_eq!(core, if neg { "-Inf" } else { "+Inf" }, "{t} {b:#x}")
                }
                Value::Int(v) => assert_eq!(core, v.to_string(), "{t} {b:#x}"),
                Value::Finite { neg, mant, exp2 } => {
                    let exact = (mant as f64) * 2f64.powi(exp2);
                    let exact = if neg { -exact } else { exact };
                    let parsed: f64 = core.parse().unwrap_or(f64::NAN);
                    assert!(
                        parsed == exact && parsed.is_sign_negative() == neg,
                        "{t} {b:#x}: {core} vs {exact}"
                    );
                }
            }
        };
        for t in ElemType::ALL {
            let n = match t.value_bits() {
                4 => 16,
                8 => 256,
                16 => 65536,
                _ => 0,
            };
            for b in 0..n {
                same(t, b);
            }
        }
        for k in 0..100_000u64 {
            same(F32, k.wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF);
        }
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
