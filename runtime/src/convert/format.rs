//! Format descriptors of the 16 element types (semantics.md §2) and exact decoding/encoding.
//!
//! Owns: [`Format`] (one descriptor per [`ElemType`]), [`Exact`] (the exact value of one element:
//! NaN, ±Inf, or `(-1)^neg · sig · 2^exp` with a 64-bit integer significand), decoding of any
//! element to [`Exact`], and encoding of a value that already lies on a destination grid.
//!
//! Invariants:
//! - decoding is total: bits above the format's width are ignored, every pattern has a meaning;
//! - encoders only receive values on the destination grid (the rounding in `exact.rs` puts them
//!   there); they report overflow (`None`) instead of producing an out-of-range code;
//! - HiFloat8 follows §2.3 (decode) and §2.4 (grid, 0x80 NaN, 0x6F/0xEF Inf, no −0).

use crate::elem::ElemType;

/// How a binary float format spends its top exponent code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Specials {
    /// IEEE 754: exponent all ones = Inf (mantissa 0) or NaN (mantissa ≠ 0).
    Ieee,
    /// OCP E4M3FN: no Inf; only S.1111.111 is NaN, the rest of the top binade is finite.
    OnlyAllOnesNan,
    /// FP4: no Inf, no NaN; every code is finite.
    None,
}

/// An IEEE-like binary float format (f32, f16, bf16, fp8, fp4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct FloatFmt {
    pub ebits: u32,
    pub mbits: u32,
    pub bias: i32,
    pub specials: Specials,
}

/// A two's-complement or unsigned integer format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct IntFmt {
    pub bits: u32,
    pub signed: bool,
}

/// The descriptor of one element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Format {
    Float(FloatFmt),
    /// HiFloat8 (§2.3/§2.4): tapered precision, its own special codes.
    Hif8,
    Int(IntFmt),
}

/// The exact value of one element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Exact {
    /// A NaN; `payload` is the source mantissa field (`pbits` wide) for payload propagation.
    Nan {
        neg: bool,
        payload: u64,
        pbits: u32,
    },
    Inf {
        neg: bool,
    },
    /// `(-1)^neg · sig · 2^exp`; `sig == 0` is a (signed) zero.
    Finite {
        neg: bool,
        sig: u64,
        exp: i32,
    },
}

const fn ff(ebits: u32, mbits: u32, bias: i32, specials: Specials) -> Format {
    Format::Float(FloatFmt {
        ebits,
        mbits,
        bias,
        specials,
    })
}

const fn int(bits: u32, signed: bool) -> Format {
    Format::Int(IntFmt { bits, signed })
}

/// The descriptor of `elem` (§2.1, §2.2, §2.5; s4 per §4.7).
pub const fn format_of(elem: ElemType) -> Format {
    match elem {
        ElemType::F32 => ff(8, 23, 127, Specials::Ieee),
        ElemType::F16 => ff(5, 10, 15, Specials::Ieee),
        ElemType::BF16 => ff(8, 7, 127, Specials::Ieee),
        ElemType::F8E4M3FN => ff(4, 3, 7, Specials::OnlyAllOnesNan),
        ElemType::F8E5M2 => ff(5, 2, 15, Specials::Ieee),
        ElemType::Hif8 => Format::Hif8,
        ElemType::F4E2M1x2 => ff(2, 1, 1, Specials::None),
        ElemType::F4E1M2x2 => ff(1, 2, 1, Specials::None),
        ElemType::I8 => int(8, true),
        ElemType::U8 => int(8, false),
        ElemType::I16 => int(16, true),
        ElemType::U16 => int(16, false),
        ElemType::I32 => int(32, true),
        ElemType::U32 => int(32, false),
        ElemType::I64 => int(64, true),
        ElemType::S4x2 => int(4, true),
    }
}

/// `2^n − 1` for `n ≤ 64`.
pub const fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

impl FloatFmt {
    pub const fn width(self) -> u32 {
        1 + self.ebits + self.mbits
    }
    pub const fn sign_bit(self) -> u64 {
        1u64 << (self.ebits + self.mbits)
    }
    const fn emax_field(self) -> u64 {
        mask(self.ebits)
    }
    /// Exponent of the smallest quantum (the subnormal step): `1 − bias − mbits`.
    pub const fn qmin(self) -> i32 {
        1 - self.bias - self.mbits as i32
    }
    /// Magnitude bits of the largest finite value.
    pub const fn max_bits(self) -> u64 {
        let m = mask(self.mbits);
        match self.specials {
            Specials::Ieee => ((self.emax_field() - 1) << self.mbits) | m,
            Specials::OnlyAllOnesNan => (self.emax_field() << self.mbits) | (m - 1),
            Specials::None => mask(self.ebits + self.mbits),
        }
    }
    /// Magnitude bits of +Inf, if the format has one.
    pub const fn inf_bits(self) -> Option<u64> {
        match self.specials {
            Specials::Ieee => Some(self.emax_field() << self.mbits),
            _ => None,
        }
    }
    /// Magnitude bits of the canonical quiet NaN, if the format has NaN.
    pub const fn qnan_bits(self) -> Option<u64> {
        match self.specials {
            Specials::Ieee => Some((self.emax_field() << self.mbits) | (1u64 << (self.mbits - 1))),
            Specials::OnlyAllOnesNan => Some(mask(self.ebits + self.mbits)),
            Specials::None => None,
        }
    }

    fn decode(self, bits: u64) -> Exact {
        let b = bits & mask(self.width());
        let neg = b & self.sign_bit() != 0;
        let ef = (b >> self.mbits) & self.emax_field();
        let mf = b & mask(self.mbits);
        let top = ef == self.emax_field();
        match self.specials {
            Specials::Ieee if top && mf == 0 => return Exact::Inf { neg },
            Specials::Ieee if top => return self.nan(neg, mf),
            Specials::OnlyAllOnesNan if top && mf == mask(self.mbits) => return self.nan(neg, mf),
            _ => {}
        }
        if ef == 0 {
            Exact::Finite {
                neg,
                sig: mf,
                exp: self.qmin(),
            }
        } else {
            Exact::Finite {
                neg,
                sig: mf | (1u64 << self.mbits),
                exp: ef as i32 - self.bias - self.mbits as i32,
            }
        }
    }

    fn nan(self, neg: bool, payload: u64) -> Exact {
        Exact::Nan {
            neg,
            payload,
            pbits: self.mbits,
        }
    }

    /// Encodes `(-1)^neg · r · 2^q` (on this format's grid, `q ≥ qmin`). `None` = overflow.
    pub fn encode(self, neg: bool, r: u64, q: i32) -> Option<u64> {
        let sign = if neg { self.sign_bit() } else { 0 };
        if r == 0 {
            return Some(sign);
        }
        let msb = 63 - r.leading_zeros() as i32;
        let e = q + msb;
        let emin = 1 - self.bias;
        let mag = if e < emin {
            // Subnormal: r·2^q = mant·2^qmin with 0 ≤ q − qmin < mbits.
            r << (q - self.qmin()).clamp(0, 63)
        } else {
            if e > self.emax_field() as i32 - self.bias {
                return None;
            }
            let biased = (e + self.bias) as u64;
            let m = self.mbits as i32;
            let mant = if msb >= m {
                r >> (msb - m)
            } else {
                r << (m - msb)
            };
            (biased << self.mbits) | (mant & mask(self.mbits))
        };
        (mag <= self.max_bits()).then_some(mag | sign)
    }
}

/// HiFloat8 fraction bits kept for leading exponent `e` (§2.3): 3/2/1, 0 for denormals.
pub const fn hif8_pbits(e: i32) -> i32 {
    match e.unsigned_abs() {
        0..=3 => 3,
        4..=7 => 2,
        8..=15 => 1,
        _ => 0,
    }
}

/// The HiFloat8 grid step for a value with leading exponent `e` (§2.4): `2^(e − p(e))`, never
/// finer than the smallest denormal 2^-22 (so [2^-23, 2^-22) rounds to 2^-22 under ties-away).
pub const fn hif8_quantum(e: i32) -> i32 {
    let q = e - hif8_pbits(e);
    if q < -22 {
        -22
    } else {
        q
    }
}

/// HiFloat8 special codes (§2.3).
pub const HIF8_NAN: u64 = 0x80;
pub const HIF8_INF: u64 = 0x6F;
pub const HIF8_MAX: u64 = 0x6E;

fn decode_hif8(bits: u64) -> Exact {
    let b = bits & 0xFF;
    if b == HIF8_NAN {
        return Exact::Nan {
            neg: false,
            payload: 0,
            pbits: 0,
        };
    }
    let neg = b & 0x80 != 0;
    let c = b & 0x7F;
    if c == HIF8_INF {
        return Exact::Inf { neg };
    }
    // (exponent magnitude, exponent-sign bit, fraction bits) per dot field.
    let (emag, esign, p): (i32, u64, u32) = match c >> 3 {
        0 => {
            // Denormal: m = 0 is zero, else 2^(m−23).
            let m = c & 7;
            let (sig, exp) = if m == 0 { (0, 0) } else { (1, m as i32 - 23) };
            return Exact::Finite { neg, sig, exp };
        }
        1 => (0, 0, 3),
        2 | 3 => (1, (c >> 3) & 1, 3),
        4..=7 => (2 + ((c >> 3) & 1) as i32, (c >> 4) & 1, 3),
        8..=11 => (4 + ((c >> 2) & 3) as i32, (c >> 4) & 1, 2),
        _ => (8 + ((c >> 1) & 7) as i32, (c >> 4) & 1, 1),
    };
    let e = if esign == 1 { -emag } else { emag };
    let m = c & mask(p);
    Exact::Finite {
        neg,
        sig: (1u64 << p) | m,
        exp: e - p as i32,
    }
}

/// Encodes `(-1)^neg · r · 2^q` (on the HiFloat8 grid) as HiFloat8. `None` = overflow
/// (value > 32768). Zero of either sign is 0x00.
pub fn encode_hif8(neg: bool, r: u64, q: i32) -> Option<u64> {
    if r == 0 {
        return Some(0);
    }
    let msb = 63 - r.leading_zeros() as i32;
    let e = q + msb;
    if e > 15 {
        return None;
    }
    let sign = if neg { 0x80 } else { 0 };
    if e < -15 {
        // Denormal powers of two 2^-22 … 2^-16 (m = e + 23); the grid guarantees r = 2^k.
        return Some(sign | (e + 23).clamp(1, 7) as u64);
    }
    let p = hif8_pbits(e);
    let frac = if msb >= p {
        r >> (msb - p)
    } else {
        r << (p - msb)
    } & mask(p as u32);
    let es = u64::from(e < 0);
    let a = u64::from(e.unsigned_abs());
    let code = match a {
        0 => 0x08 | frac,
        1 => 0x10 | (es << 3) | frac,
        2..=3 => 0x20 | (es << 4) | ((a - 2) << 3) | frac,
        4..=7 => 0x40 | (es << 4) | ((a - 4) << 2) | frac,
        _ => 0x60 | (es << 4) | ((a - 8) << 1) | frac,
    };
    (code != HIF8_INF).then_some(sign | code)
}

/// Decodes the low `value_bits` of `bits` as an element of `fmt` (higher bits are ignored).
pub fn decode(fmt: Format, bits: u64) -> Exact {
    match fmt {
        Format::Float(f) => f.decode(bits),
        Format::Hif8 => decode_hif8(bits),
        Format::Int(i) => {
            let b = bits & mask(i.bits);
            let (neg, mag) = if i.signed && i.bits < 64 && b >> (i.bits - 1) != 0 {
                (true, (mask(i.bits) - b) + 1)
            } else if i.signed && i.bits == 64 {
                let v = b as i64;
                (v < 0, v.unsigned_abs())
            } else {
                (false, b)
            };
            Exact::Finite {
                neg,
                sig: mag,
                exp: 0,
            }
        }
    }
}

/// The exact value as `f64` (exact for every float format and for integers below 2^53).
pub fn exact_to_f64(x: Exact) -> f64 {
    match x {
        Exact::Nan { .. } => f64::NAN,
        Exact::Inf { neg } => {
            if neg {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Exact::Finite { neg, sig, exp } => {
            let m = sig as f64 * 2f64.powi(exp);
            if neg {
                -m
            } else {
                m
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn val(elem: ElemType, bits: u64) -> f64 {
        exact_to_f64(decode(format_of(elem), bits))
    }

    #[test]
    fn max_values_match_the_tables() {
        assert_eq!(val(ElemType::F16, 0x7BFF), 65504.0);
        assert_eq!(val(ElemType::F8E4M3FN, 0x7E), 448.0);
        assert_eq!(val(ElemType::F8E5M2, 0x7B), 57344.0);
        assert_eq!(val(ElemType::F4E2M1x2, 0x7), 6.0);
        assert_eq!(val(ElemType::F4E1M2x2, 0x7), 1.75);
        assert_eq!(val(ElemType::Hif8, 0x6E), 32768.0);
        assert_eq!(val(ElemType::Hif8, 0x7E), 2f64.powi(-15));
        assert_eq!(val(ElemType::Hif8, 0x01), 2f64.powi(-22));
        assert_eq!(val(ElemType::Hif8, 0x09), 1.125);
        assert!(val(ElemType::Hif8, 0x80).is_nan());
        assert_eq!(val(ElemType::Hif8, 0xEF), f64::NEG_INFINITY);
        assert!(val(ElemType::F8E4M3FN, 0xFF).is_nan());
        assert_eq!(val(ElemType::F8E4M3FN, 0x78), 256.0);
        assert_eq!(val(ElemType::S4x2, 0x8), -8.0);
        assert_eq!(val(ElemType::S4x2, 0xF7), 7.0);
        assert_eq!(val(ElemType::I64, 1 << 63), -(2f64.powi(63)));
    }

    #[test]
    fn fp4_codes_match_the_table() {
        let e2m1 = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0];
        let e1m2 = [0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75];
        for c in 0..8u64 {
            assert_eq!(val(ElemType::F4E2M1x2, c), e2m1[c as usize]);
            assert_eq!(val(ElemType::F4E1M2x2, c), e1m2[c as usize]);
            assert_eq!(val(ElemType::F4E2M1x2, c | 8), -e2m1[c as usize]);
        }
    }

    #[test]
    fn hif8_encode_inverts_decode_on_every_finite_code() {
        for b in 0..=255u64 {
            match decode(Format::Hif8, b) {
                Exact::Finite { neg, sig, exp } => {
                    let want = if sig == 0 { 0 } else { b };
                    assert_eq!(encode_hif8(neg, sig, exp), Some(want), "{b:#x}");
                }
                _ => assert!(b == 0x80 || b & 0x7F == 0x6F, "{b:#x}"),
            }
        }
    }

    #[test]
    fn hif8_decode_is_monotonic_over_positive_codes() {
        let mut prev = -1.0;
        for b in 0..0x6Fu64 {
            let v = val(ElemType::Hif8, b);
            // Codes are not value-ordered across dot fields; only check distinctness and range.
            assert!((0.0..=32768.0).contains(&v) && v != prev, "{b:#x}");
            prev = v;
        }
    }
}
