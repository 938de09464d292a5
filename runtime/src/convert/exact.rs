//! The one generic, exact conversion algorithm (semantics.md §4), driven by format descriptors.
//!
//! Owns: [`Plan`] (the descriptors and per-pair facts a `Converter` precomputes) and
//! [`Plan::convert`], which decodes the source to its exact value, rounds **once** onto the
//! destination grid (float: precision p with subnormals kept and unbounded exponent; HiFloat8:
//! its tapered grid; integer: the integers), then applies the range rules of §4.2–§4.7.
//!
//! Invariants: total (no panic for any `u64` input; bits above the source width are ignored);
//! the result holds only the destination's `value_bits`; every fast path in this module tree is
//! tested equal to this function. No per-pair hand-written code: pairs differ only by descriptor.

use super::format::{
    decode, encode_hif8, exact_to_f64, format_of, hif8_quantum, mask, Exact, FloatFmt, Format,
    IntFmt, Specials, HIF8_INF, HIF8_MAX, HIF8_NAN,
};
use super::{ConvSpec, NonSatPath, Outcome, Rounding};

/// What `Converter::new` precomputes for the generic path.
#[derive(Debug, Clone, Copy)]
pub struct Plan {
    pub spec: ConvSpec,
    pub src: Format,
    pub dst: Format,
    /// Float→float where every source value is exact in dst (FF↑, §4.4): NaN payloads propagate.
    pub widening: bool,
    /// Same-type float (FR, §4.3): round to an integral value, sat ignored.
    pub integral: bool,
}

/// Magnitude used for "larger than every 64-bit integer" (float→int before clamping).
const HUGE: u128 = 1 << 100;

/// Rounds the magnitude `sig` after discarding its low `shift` bits (`shift ≥ 1`); returns the
/// kept magnitude and whether anything non-zero was discarded.
fn round_shift(sig: u64, shift: u32, mode: Rounding, neg: bool) -> (u64, bool) {
    use std::cmp::Ordering::{Equal, Greater, Less};
    if shift == 0 || sig == 0 {
        return (sig, false);
    }
    let (kept, vs_half) = if shift > 64 {
        (0, Less)
    } else {
        let s = u128::from(sig);
        let rem = s & ((1u128 << shift) - 1);
        if rem == 0 {
            return ((s >> shift) as u64, false);
        }
        ((s >> shift) as u64, rem.cmp(&(1u128 << (shift - 1))))
    };
    let up = match mode {
        Rounding::Rint => vs_half == Greater || (vs_half == Equal && kept & 1 == 1),
        // Hybrid is rejected by `Converter::new`; treat it as ties-away if ever reached.
        Rounding::Round | Rounding::Hybrid => vs_half != Less,
        Rounding::Floor => neg,
        Rounding::Ceil => !neg,
        Rounding::Trunc => false,
        Rounding::Odd => return (kept | 1, true),
    };
    (kept + u64::from(up), true)
}

/// Rounds `sig·2^exp` onto a grid whose step for leading exponent `e` is `2^quantum(e)`.
/// Returns `(r, q, inexact)` with the rounded value `r·2^q`.
fn round_to_grid(
    neg: bool,
    sig: u64,
    exp: i32,
    quantum: impl Fn(i32) -> i32,
    mode: Rounding,
) -> (u64, i32, bool) {
    if sig == 0 {
        return (0, exp, false);
    }
    let e = exp + (63 - sig.leading_zeros() as i32);
    let q = quantum(e);
    if q <= exp {
        return (sig, exp, false);
    }
    let shift = (q - exp).min(200) as u32;
    let (r, inexact) = round_shift(sig, shift, mode, neg);
    (r, q, inexact)
}

/// Does IEEE-like overflow under `mode` give ±Inf (true) or ±max (false)? (§4.3)
fn overflow_is_inf(mode: Rounding, neg: bool) -> bool {
    match mode {
        Rounding::Rint | Rounding::Round | Rounding::Hybrid => true,
        Rounding::Trunc | Rounding::Odd => false,
        Rounding::Floor => neg,
        Rounding::Ceil => !neg,
    }
}

const EXACT: Outcome = Outcome {
    inexact: false,
    out_of_range: false,
};
const INEXACT: Outcome = Outcome {
    inexact: true,
    out_of_range: false,
};
const RANGE: Outcome = Outcome {
    inexact: true,
    out_of_range: true,
};

/// Exactness facts used to decide FF↑: (precision p, finest step exponent, max finite value).
fn float_profile(fmt: Format) -> Option<(i32, i32, f64)> {
    match fmt {
        Format::Float(f) => Some((
            f.mbits as i32 + 1,
            f.qmin(),
            exact_to_f64(decode(fmt, f.max_bits())),
        )),
        Format::Hif8 => Some((4, -22, 32768.0)),
        Format::Int(_) => None,
    }
}

impl Plan {
    pub fn new(spec: ConvSpec) -> Plan {
        let src = format_of(spec.src);
        let dst = format_of(spec.dst);
        let widening = spec.src != spec.dst
            && match (float_profile(src), float_profile(dst)) {
                (Some((ps, qs, ms)), Some((pd, qd, md))) => ps <= pd && qs >= qd && ms <= md,
                _ => false,
            };
        Plan {
            spec,
            src,
            dst,
            widening,
            integral: spec.src == spec.dst && spec.src.is_float(),
        }
    }

    /// The generic exact conversion of one element (§4).
    pub fn convert(&self, bits: u64) -> (u64, Outcome) {
        let x = decode(self.src, bits);
        match self.dst {
            Format::Int(d) => self.int_result(x, d),
            Format::Float(d) => self.float_result(x, d),
            Format::Hif8 => self.hif8_result(x),
        }
    }

    fn mode(&self) -> Rounding {
        self.spec.rounding
    }

    /// Whether ±Inf / overflow saturate to ±max (sat ON; FR ignores sat, §4.3).
    fn sat(&self) -> bool {
        self.spec.sat && !self.integral
    }

    fn float_result(&self, x: Exact, d: FloatFmt) -> (u64, Outcome) {
        let sign = |neg: bool| if neg { d.sign_bit() } else { 0 };
        let max = |neg: bool| sign(neg) | d.max_bits();
        // ±Inf result, or NaN where dst has no Inf (E4M3FN), or ±max for fp4 (§4.3).
        let inf = |neg: bool| match (d.inf_bits(), d.qnan_bits()) {
            (Some(i), _) => (sign(neg) | i, EXACT),
            (None, Some(n)) => (sign(neg) | n, RANGE),
            (None, None) => (max(neg), RANGE),
        };
        match x {
            Exact::Nan {
                neg,
                payload,
                pbits,
            } => match d.specials {
                Specials::None => (0, INEXACT),
                Specials::Ieee if self.widening => {
                    let quiet = 1u64 << (d.mbits - 1);
                    let pay = (payload & mask(pbits)) << d.mbits.saturating_sub(pbits);
                    let bits =
                        sign(neg) | d.inf_bits().unwrap_or(0) | quiet | (pay & mask(d.mbits));
                    (bits, EXACT)
                }
                _ => (sign(neg) | d.qnan_bits().unwrap_or(0), EXACT),
            },
            Exact::Inf { neg } if self.sat() => (max(neg), RANGE),
            Exact::Inf { neg } => inf(neg),
            Exact::Finite { neg, sig, exp } => {
                let qmin = d.qmin();
                let mbits = d.mbits as i32;
                let (r, q, inexact) = if self.integral {
                    round_to_grid(neg, sig, exp, |e| (e - mbits).max(qmin).max(0), self.mode())
                } else {
                    round_to_grid(neg, sig, exp, |e| (e - mbits).max(qmin), self.mode())
                };
                match d.encode(neg, r, q) {
                    Some(b) => (b, Outcome { inexact, ..EXACT }),
                    None if d.specials == Specials::None || self.sat() => (max(neg), RANGE),
                    None if overflow_is_inf(self.mode(), neg) => (inf(neg).0, RANGE),
                    None => (max(neg), RANGE),
                }
            }
        }
    }

    fn hif8_result(&self, x: Exact) -> (u64, Outcome) {
        let sign = |neg: bool| if neg { 0x80 } else { 0 };
        match x {
            Exact::Nan { .. } => (HIF8_NAN, EXACT),
            Exact::Inf { neg } if self.sat() => (sign(neg) | HIF8_MAX, RANGE),
            Exact::Inf { neg } => (sign(neg) | HIF8_INF, EXACT),
            Exact::Finite { neg, sig, exp } => {
                let (r, q, inexact) = if self.integral {
                    round_to_grid(neg, sig, exp, |e| hif8_quantum(e).max(0), self.mode())
                } else {
                    round_to_grid(neg, sig, exp, hif8_quantum, self.mode())
                };
                match encode_hif8(neg, r, q) {
                    Some(b) => (b, Outcome { inexact, ..EXACT }),
                    None if self.sat() || !overflow_is_inf(self.mode(), neg) => {
                        (sign(neg) | HIF8_MAX, RANGE)
                    }
                    None => (sign(neg) | HIF8_INF, RANGE),
                }
            }
        }
    }

    fn int_result(&self, x: Exact, d: IntFmt) -> (u64, Outcome) {
        let (lo, hi) = int_range(d);
        let low_bits = |w: i128| (w as u64) & mask(d.bits);
        if matches!(self.src, Format::Int(_)) {
            // §4.6: exact value; sat clamps, otherwise low N bits.
            let v = signed_value(x);
            let oor = v < lo || v > hi;
            let out = if self.spec.sat {
                low_bits(v.clamp(lo, hi))
            } else {
                low_bits(v)
            };
            let inexact = int_value(d, out) != v;
            return (
                out,
                Outcome {
                    inexact,
                    out_of_range: oor,
                },
            );
        }
        // §4.2: r = the rounded (unbounded) integer; NaN/±Inf handled per path.
        let (r, round_inexact, oor) = match x {
            Exact::Nan { .. } => (None, true, false),
            Exact::Inf { neg } => (
                Some(if neg { -(HUGE as i128) } else { HUGE as i128 }),
                true,
                true,
            ),
            Exact::Finite { neg, sig, exp } => {
                let (mag, inexact) = if exp >= 0 {
                    let lead = 64 - sig.leading_zeros() as i32 + exp;
                    if lead >= 100 {
                        (HUGE, false)
                    } else {
                        (u128::from(sig) << exp, false)
                    }
                } else {
                    let (m, i) = round_shift(sig, exp.unsigned_abs(), self.mode(), neg);
                    (u128::from(m), i)
                };
                let v = if neg { -(mag as i128) } else { mag as i128 };
                (Some(v), inexact, v < lo || v > hi)
            }
        };
        let w = if self.spec.sat {
            r.map_or(0, |v| v.clamp(lo, hi))
        } else {
            match self.spec.path {
                NonSatPath::X86 => {
                    let wide = d.bits == 64 || (d.bits == 32 && !d.signed);
                    let (wmin, wmax) = if wide {
                        (i64::MIN as i128, i64::MAX as i128)
                    } else {
                        (i32::MIN as i128, i32::MAX as i128)
                    };
                    r.filter(|v| (wmin..=wmax).contains(v)).unwrap_or(wmin)
                }
                NonSatPath::Native => r.map_or(0, |v| v.clamp(i64::MIN as i128, i64::MAX as i128)),
                NonSatPath::Torch => r.map_or(0, |v| v.clamp(i32::MIN as i128, i32::MAX as i128)),
            }
        };
        let out = low_bits(w);
        let inexact = round_inexact || r != Some(int_value(d, out));
        (
            out,
            Outcome {
                inexact,
                out_of_range: oor,
            },
        )
    }
}

fn int_range(d: IntFmt) -> (i128, i128) {
    if d.signed {
        (-(1i128 << (d.bits - 1)), (1i128 << (d.bits - 1)) - 1)
    } else {
        (0, (1i128 << d.bits) - 1)
    }
}

/// The value of the integer pattern `bits` (already masked to `d.bits`).
fn int_value(d: IntFmt, bits: u64) -> i128 {
    signed_value(decode(Format::Int(d), bits))
}

fn signed_value(x: Exact) -> i128 {
    match x {
        Exact::Finite { neg, sig, exp } => {
            let m = i128::from(sig) << exp.clamp(0, 63);
            if neg {
                -m
            } else {
                m
            }
        }
        _ => 0,
    }
}
