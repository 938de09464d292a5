//! Element formats of semantics.md §2 as the reference sees them: field layouts, the HiF8 decode
//! table (§2.3) transcribed row by row, and the exact decoding of every pattern.
//!
//! Invariant: `decode` is total on the low `value_bits()` bits of a pattern and exact.

use std::sync::OnceLock;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use pto_runtime::ElemType;

use super::pow2;

/// The exact value of a pattern. NaN keeps its sign and mantissa field (`payload`, `pbits` wide).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Exact {
    Nan { neg: bool, payload: u64, pbits: u32 },
    Inf { neg: bool },
    Finite { neg: bool, mag: BigRational },
}

/// How a format spends its top exponent field (§2.2, §2.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Special {
    /// All-ones exponent: Inf (mantissa 0) or NaN.
    Ieee,
    /// Only S.1111.111 is NaN; no Inf.
    E4M3FN,
    /// fp4: neither Inf nor NaN.
    None,
}

/// An IEEE-like layout: sign, `ebits` exponent bits with `bias`, `mbits` mantissa bits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FloatFmt {
    pub ebits: u32,
    pub mbits: u32,
    pub bias: i32,
    pub special: Special,
}

impl FloatFmt {
    /// Exponent of the smallest normal binade.
    pub fn emin(&self) -> i64 {
        1 - self.bias as i64
    }

    /// Magnitude code of the largest finite value.
    pub fn max_code(&self) -> u64 {
        let all_e = (1u64 << self.ebits) - 1;
        let all_m = (1u64 << self.mbits) - 1;
        match self.special {
            Special::Ieee => ((all_e - 1) << self.mbits) | all_m,
            Special::E4M3FN => (all_e << self.mbits) | (all_m - 1),
            Special::None => (all_e << self.mbits) | all_m,
        }
    }
}

/// The IEEE-like layout of a float type (hif8 and integers: `None`).
pub fn float_fmt(t: ElemType) -> Option<FloatFmt> {
    let f = |ebits, mbits, bias, special| {
        Some(FloatFmt {
            ebits,
            mbits,
            bias,
            special,
        })
    };
    match t {
        ElemType::F32 => f(8, 23, 127, Special::Ieee),
        ElemType::F16 => f(5, 10, 15, Special::Ieee),
        ElemType::BF16 => f(8, 7, 127, Special::Ieee),
        ElemType::F8E5M2 => f(5, 2, 15, Special::Ieee),
        ElemType::F8E4M3FN => f(4, 3, 7, Special::E4M3FN),
        ElemType::F4E2M1x2 => f(2, 1, 1, Special::None),
        ElemType::F4E1M2x2 => f(1, 2, 1, Special::None),
        _ => None,
    }
}

/// [min, max] of an integer type (s4x2: one nibble, [−8, 7]).
pub fn int_range(t: ElemType) -> (i128, i128) {
    match t {
        ElemType::I8 => (i8::MIN as i128, i8::MAX as i128),
        ElemType::U8 => (0, u8::MAX as i128),
        ElemType::I16 => (i16::MIN as i128, i16::MAX as i128),
        ElemType::U16 => (0, u16::MAX as i128),
        ElemType::I32 => (i32::MIN as i128, i32::MAX as i128),
        ElemType::U32 => (0, u32::MAX as i128),
        ElemType::I64 => (i64::MIN as i128, i64::MAX as i128),
        ElemType::S4x2 => (-8, 7),
        _ => panic!("int_range of a float type {t}"),
    }
}

fn finite(neg: bool, mag: BigRational) -> Exact {
    Exact::Finite { neg, mag }
}

fn decode_ieee(f: &FloatFmt, bits: u64) -> Exact {
    let neg = (bits >> (f.ebits + f.mbits)) & 1 == 1;
    let e = (bits >> f.mbits) & ((1u64 << f.ebits) - 1);
    let m = bits & ((1u64 << f.mbits) - 1);
    let all_e = (1u64 << f.ebits) - 1;
    match f.special {
        Special::Ieee if e == all_e => {
            return if m == 0 {
                Exact::Inf { neg }
            } else {
                Exact::Nan {
                    neg,
                    payload: m,
                    pbits: f.mbits,
                }
            };
        }
        Special::E4M3FN if e == all_e && m == (1u64 << f.mbits) - 1 => {
            return Exact::Nan {
                neg,
                payload: m,
                pbits: f.mbits,
            }
        }
        _ => {}
    }
    let mbig = BigRational::from_integer(BigInt::from(m));
    if e == 0 {
        // subnormal: m · 2^(emin − mbits)
        finite(neg, mbig * pow2(f.emin() - f.mbits as i64))
    } else {
        let sig = BigRational::from_integer(BigInt::one() << f.mbits as usize) + mbig;
        finite(neg, sig * pow2(e as i64 - f.bias as i64 - f.mbits as i64))
    }
}

/// §2.3, one row of the table per arm.
fn decode_hif8(b: u64) -> Exact {
    let b = b & 0xFF;
    if b == 0x80 {
        return Exact::Nan {
            neg: false,
            payload: 0,
            pbits: 0,
        };
    }
    let neg = b & 0x80 != 0;
    if b & 0x7F == 0x6F {
        return Exact::Inf { neg };
    }
    let low = b & 0x7F;
    let bit = |i: u32| (low >> i) & 1;
    // (mantissa, mantissa bits, exponent)
    let (m, mb, exp): (u64, u32, i64) = if low >> 3 == 0 {
        // 0000 mmm: denormal
        let m = low & 7;
        if m == 0 {
            return finite(neg, BigRational::zero());
        }
        return finite(neg, pow2(m as i64 - 23));
    } else if low >> 3 == 1 {
        // 0001 mmm: D0
        (low & 7, 3, 0)
    } else if low >> 4 == 1 {
        // 001 s mmm: D1, s = b3
        (low & 7, 3, if bit(3) == 1 { -1 } else { 1 })
    } else if low >> 5 == 1 {
        // 01 s e mmm: D2, s = b4, e = b3
        let mag = 2 + bit(3) as i64;
        (low & 7, 3, if bit(4) == 1 { -mag } else { mag })
    } else if low >> 5 == 2 {
        // 10 s ee mm: D3, s = b4, ee = b3b2
        let mag = 4 + ((low >> 2) & 3) as i64;
        (low & 3, 2, if bit(4) == 1 { -mag } else { mag })
    } else {
        // 11 s eee m: D4, s = b4, eee = b3b2b1
        let mag = 8 + ((low >> 1) & 7) as i64;
        (low & 1, 1, if bit(4) == 1 { -mag } else { mag })
    };
    let frac = BigRational::new(BigInt::from(m), BigInt::one() << mb as usize);
    finite(neg, (BigRational::one() + frac) * pow2(exp))
}

/// Two's-complement or unsigned value of the low bits of an integer pattern.
fn int_value(t: ElemType, bits: u64) -> i128 {
    let n = t.value_bits();
    let raw = if n >= 64 {
        bits
    } else {
        bits & ((1u64 << n) - 1)
    };
    if t.kind() == pto_runtime::ElemKind::SignedInt && n < 128 && (raw >> (n - 1)) & 1 == 1 {
        raw as i128 - (1i128 << n)
    } else {
        raw as i128
    }
}

/// The exact value of the low `t.value_bits()` bits of `bits`.
pub fn decode(t: ElemType, bits: u64) -> Exact {
    let n = t.value_bits();
    let bits = if n >= 64 {
        bits
    } else {
        bits & ((1u64 << n) - 1)
    };
    if t == ElemType::Hif8 {
        return decode_hif8(bits);
    }
    if let Some(f) = float_fmt(t) {
        return decode_ieee(&f, bits);
    }
    let v = int_value(t, bits);
    finite(
        v < 0,
        BigRational::from_integer(BigInt::from(v.unsigned_abs())),
    )
}

/// Every finite non-negative hif8 value with its code, sorted by value (0x00 first).
pub fn hif8_table() -> &'static [(BigRational, u64)] {
    static T: OnceLock<Vec<(BigRational, u64)>> = OnceLock::new();
    T.get_or_init(|| {
        let mut t: Vec<(BigRational, u64)> = (0u64..0x80)
            .filter_map(|c| match decode_hif8(c) {
                Exact::Finite { mag, .. } => Some((mag, c)),
                _ => None,
            })
            .collect();
        t.sort();
        t
    })
}
