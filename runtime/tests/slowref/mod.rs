//! A slow, deliberately simple reference for element conversions, written from the text of
//! semantics.md §2 and §4 (not from the numeric core), used by the integration tests to check
//! `pto_runtime::Converter` bit for bit.
//!
//! Structure (different from a bit-level implementation on purpose):
//! 1. [`decode`] turns a source pattern into an exact value ([`Exact`]): a `BigRational` magnitude
//!    with a separate sign (so −0 survives), or ±Inf, or NaN with its payload.
//! 2. [`value`] moves the magnitude to exact fixed point (a `BigInt` in units of 2^-160, which
//!    every value of every format is a multiple of), and [`prepare`] derives, for one
//!    destination, the two neighbouring representable values of that magnitude on the
//!    destination's grid (integers, an IEEE-like grid with unbounded exponent, or the enumerated
//!    HiF8 value set) and encodes both neighbours ([`Prep`]).
//! 3. [`finish`] picks a neighbour by the rounding mode (§4.1, ODD = von Neumann) and applies the
//!    range / NaN / Inf / saturation / non-saturating-path rules of §4.2–4.7 ([`Expect`]).
//!
//! Invariants: every value is exact until the single rounding step; the reference is only asked
//! about executable specs (see [`mode_error`]); it panics on anything else (test code).

#![allow(dead_code)]

mod formats;
pub mod sweep;

pub use formats::{decode, float_fmt, hif8_table, int_range, Exact, FloatFmt};

use std::cmp::Ordering;
use std::sync::OnceLock;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
use pto_runtime::{ElemType, NonSatPath, Rounding};

/// Which error `Converter::new` must return for a (src, dst, mode), if any (§3.3, §4.1, §2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ModeErr {
    Hybrid,
    NotDefined,
}

pub fn mode_error(_src: ElemType, dst: ElemType, rounding: Rounding) -> Option<ModeErr> {
    if rounding == Rounding::Hybrid {
        return Some(ModeErr::Hybrid);
    }
    // §2.4 DECISION: hif8 encoding is defined only for ROUND.
    if dst == ElemType::Hif8 && rounding != Rounding::Round {
        return Some(ModeErr::NotDefined);
    }
    // §3.3 DECISION: no ODD into f8E4M3FN or fp4 (no usable odd neighbour at the top).
    if rounding == Rounding::Odd
        && matches!(
            dst,
            ElemType::F8E4M3FN | ElemType::F4E2M1x2 | ElemType::F4E1M2x2
        )
    {
        return Some(ModeErr::NotDefined);
    }
    None
}

/// What the reference expects for one element. Outcome flags are `None` where semantics.md does
/// not pin them down (NaN inputs; Inf into a format that has Inf).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expect {
    pub bits: u64,
    pub inexact: Option<bool>,
    pub out_of_range: Option<bool>,
}

/// One neighbour, already encoded for the destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cand {
    /// Integer destination: the signed rounded value, clamped to ±2^100 (every range rule
    /// treats anything beyond i64 alike, so the clamp loses nothing).
    Int(i128),
    /// Float destination: the magnitude code, or `None` when the value exceeds the finite range.
    Code(Option<u64>),
}

/// The source value prepared for one destination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prep {
    Nan {
        neg: bool,
        payload: u64,
        pbits: u32,
        /// The source is hif8 (its NaN carries no sign and no payload).
        hif8: bool,
    },
    Inf {
        neg: bool,
    },
    Fin {
        neg: bool,
        /// The magnitude is itself on the grid (then `lo` is it and `hi` is unused).
        exact: bool,
        /// (|x| − lo) compared with half the gap (hi − lo).
        half: Ordering,
        lo: Cand,
        hi: Cand,
        /// The lower neighbour's last bit (significand LSB / integer parity) is 1.
        lo_odd: bool,
    },
}

pub fn pow2(e: i64) -> BigRational {
    let one = BigInt::one();
    if e >= 0 {
        BigRational::from_integer(one << (e as usize))
    } else {
        BigRational::new(one.clone(), one << ((-e) as usize))
    }
}

/// floor(log2 a) for a > 0.
pub fn floor_log2(a: &BigRational) -> i64 {
    let bn = a.numer().bits() as i64;
    let bd = a.denom().bits() as i64;
    // a lies in (2^(bn-bd-1), 2^(bn-bd+1)).
    if *a >= pow2(bn - bd) {
        bn - bd
    } else {
        bn - bd - 1
    }
}

/// Fixed-point scale of the grid arithmetic: every value of every format (f32's smallest
/// subnormal is 2^-149, hif8's 2^-22) and every grid point used is an integer multiple of
/// 2^-FRAC, so magnitudes are held exactly as `BigInt`s in units of 2^-FRAC (no gcds).
pub const FRAC: i64 = 160;

/// Exact conversion of a dyadic magnitude to fixed point (panics if it is not a multiple of
/// 2^-FRAC, which no format produces).
pub fn to_fx(mag: &BigRational) -> BigInt {
    let scaled = mag * pow2(FRAC);
    assert!(scaled.is_integer(), "{mag} is not a multiple of 2^-{FRAC}");
    scaled.to_integer()
}

/// 2^e in fixed point (e ≥ −FRAC).
pub fn fx_pow2(e: i64) -> BigInt {
    assert!(e >= -FRAC, "2^{e} below the fixed-point scale");
    BigInt::one() << ((e + FRAC) as usize)
}

/// The shift that divides a fixed-point value by 2^e (e ≥ −FRAC).
fn fx_shift(e: i64) -> usize {
    assert!(e >= -FRAC, "2^{e} below the fixed-point scale");
    (e + FRAC) as usize
}

/// floor(log2 q) of a fixed-point magnitude q > 0.
pub fn fx_floor_log2(q: &BigInt) -> i64 {
    q.bits() as i64 - 1 - FRAC
}

/// A source value ready for the grids: NaN / Inf as decoded, finite magnitudes in fixed point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    Nan { neg: bool, payload: u64, pbits: u32 },
    Inf { neg: bool },
    Fin { neg: bool, fx: BigInt },
}

pub fn value(x: &Exact) -> Val {
    match x {
        Exact::Nan {
            neg,
            payload,
            pbits,
        } => Val::Nan {
            neg: *neg,
            payload: *payload,
            pbits: *pbits,
        },
        Exact::Inf { neg } => Val::Inf { neg: *neg },
        Exact::Finite { neg, mag } => Val::Fin {
            neg: *neg,
            fx: to_fx(mag),
        },
    }
}

fn sat_i128(v: &BigInt) -> i128 {
    let lim = BigInt::one() << 100usize;
    if *v > lim {
        1i128 << 100
    } else if *v < -lim.clone() {
        -(1i128 << 100)
    } else {
        v.to_i128().unwrap_or(0)
    }
}

/// Two neighbours of `a` (≥ 0) on a grid, in fixed point, with the last-bit parity of `lo`.
struct Nb {
    lo: BigInt,
    hi: BigInt,
    exact: bool,
    half: Ordering,
    lo_odd: bool,
}

fn nb_from(a: &BigInt, lo: BigInt, hi: BigInt, lo_odd: bool) -> Nb {
    let exact = lo == *a;
    let twice: BigInt = (a - &lo) * 2;
    let half = twice.cmp(&(&hi - &lo));
    Nb {
        lo,
        hi,
        exact,
        half,
        lo_odd,
    }
}

/// The grid of all multiples k·2^s: lo = floor(a / 2^s)·2^s, hi = lo + 2^s, parity of k.
fn multiples_neighbours(a: &BigInt, s: i64) -> Nb {
    // Division by the power of two 2^s (2^(s+FRAC) in fixed point) as shifts: a ≥ 0, so the
    // right shift is the floor.
    let sh = fx_shift(s);
    let k = a >> sh;
    let lo = &k << sh;
    let hi = (&k + 1u32) << sh;
    nb_from(a, lo, hi, k.bit(0))
}

/// Integer grid: floor(a) and floor(a)+1.
fn int_neighbours(a: &BigInt) -> Nb {
    multiples_neighbours(a, 0)
}

/// IEEE-like grid with precision mbits+1, minimum normal exponent emin, unbounded exponent
/// above: in the binade [2^e, 2^(e+1)) (or below 2^emin) the spacing is 2^(max(e,emin)−mbits).
fn ieee_neighbours(f: &FloatFmt, a: &BigInt) -> Nb {
    if a.is_zero() {
        return nb_from(a, a.clone(), a.clone(), false);
    }
    let e = fx_floor_log2(a).max(f.emin());
    multiples_neighbours(a, e - f.mbits as i64)
}

/// Every finite non-negative hif8 value in fixed point with its code, sorted.
fn hif8_fx_table() -> &'static [(BigInt, u64)] {
    static T: OnceLock<Vec<(BigInt, u64)>> = OnceLock::new();
    T.get_or_init(|| hif8_table().iter().map(|(v, c)| (to_fx(v), *c)).collect())
}

/// HiF8 grid: the enumerated non-negative finite values, continued by the next point of the
/// E = 15 binade (1.5·2^15 = 49152) so that "nearest" is defined up to the overflow threshold.
/// Only ROUND is executable into hif8, so the parity is that of the code (never used).
/// `None`: |x| ≥ 49152, beyond every neighbour pair (overflow in any mode).
fn hif8_neighbours(a: &BigInt) -> Option<Nb> {
    let t = hif8_fx_table();
    let beyond = fx_pow2(15) + fx_pow2(14);
    if *a >= beyond {
        return None;
    }
    let i = t.partition_point(|(v, _)| v <= a);
    let (lo, lo_code) = t[i - 1].clone();
    let hi = match t.get(i) {
        Some((v, _)) => v.clone(),
        None => beyond,
    };
    Some(nb_from(a, lo, hi, lo_code & 1 == 1))
}

/// Magnitude code of an on-grid value q (0 ≤ q ≤ max, fixed point) of an IEEE-like format.
pub fn encode_ieee(f: &FloatFmt, q: &BigInt) -> u64 {
    if q.is_zero() {
        return 0;
    }
    let e = fx_floor_log2(q);
    if e < f.emin() {
        // subnormal: q = m · 2^(emin − mbits)
        let m = q >> fx_shift(f.emin() - f.mbits as i64);
        return m.to_u64().unwrap_or(u64::MAX);
    }
    // normal: q = (2^mbits + m) · 2^(e − mbits)
    let m = (q >> fx_shift(e - f.mbits as i64)) - (BigInt::one() << f.mbits as usize);
    let field = (e + f.bias as i64) as u64;
    (field << f.mbits) | m.to_u64().unwrap_or(u64::MAX)
}

/// Exact magnitude of the largest finite value, in fixed point.
pub fn max_value(dst: ElemType) -> &'static BigInt {
    static CACHE: OnceLock<Vec<Option<BigInt>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| {
        ElemType::ALL
            .iter()
            .map(|&t| t.is_float().then(|| max_value_uncached(t)))
            .collect()
    });
    let i = ElemType::ALL.iter().position(|&t| t == dst);
    match i.and_then(|i| cache[i].as_ref()) {
        Some(v) => v,
        None => unreachable!("max_value of an integer type"),
    }
}

fn max_value_uncached(dst: ElemType) -> BigInt {
    if dst == ElemType::Hif8 {
        return fx_pow2(15);
    }
    match float_fmt(dst) {
        Some(f) => match decode(dst, f.max_code()) {
            Exact::Finite { mag, .. } => to_fx(&mag),
            _ => unreachable!("max code is finite"),
        },
        None => unreachable!("max_value of an integer type"),
    }
}

fn encode_float(dst: ElemType, q: &BigInt) -> Option<u64> {
    if q > max_value(dst) {
        return None;
    }
    if dst == ElemType::Hif8 {
        let t = hif8_fx_table();
        return t.binary_search_by(|(v, _)| v.cmp(q)).ok().map(|i| t[i].1);
    }
    float_fmt(dst).map(|f| encode_ieee(&f, q))
}

/// Prepares the source value `v` (of type `src`) for destination `dst`.
pub fn prepare(v: &Val, src: ElemType, dst: ElemType) -> Prep {
    let (neg, mag) = match v {
        Val::Nan {
            neg,
            payload,
            pbits,
        } => {
            return Prep::Nan {
                neg: *neg,
                payload: *payload,
                pbits: *pbits,
                hif8: src == ElemType::Hif8,
            }
        }
        Val::Inf { neg } => return Prep::Inf { neg: *neg },
        Val::Fin { neg, fx } => (*neg, fx),
    };
    if dst.is_int() {
        let nb = int_neighbours(mag);
        let sgn = |v: &BigInt| {
            let i = v >> fx_shift(0); // v ≥ 0 and integral
            Cand::Int(sat_i128(&if neg { -i } else { i }))
        };
        let hi = if nb.exact { sgn(&nb.lo) } else { sgn(&nb.hi) };
        return Prep::Fin {
            neg,
            exact: nb.exact,
            half: nb.half,
            lo: sgn(&nb.lo),
            hi,
            lo_odd: nb.lo_odd,
        };
    }
    let nb = if src == dst {
        // FR generalised (§3.1, §4.3): round to an integral value in the same format.
        int_neighbours(mag)
    } else if dst == ElemType::Hif8 {
        match hif8_neighbours(mag) {
            Some(nb) => nb,
            None => {
                return Prep::Fin {
                    neg,
                    exact: false,
                    half: Ordering::Greater,
                    lo: Cand::Code(None),
                    hi: Cand::Code(None),
                    lo_odd: false,
                }
            }
        }
    } else {
        let f = float_fmt(dst).unwrap_or_else(|| unreachable!("float dst"));
        ieee_neighbours(&f, mag)
    };
    let lo = Cand::Code(encode_float(dst, &nb.lo));
    let hi = if nb.exact {
        lo.clone()
    } else {
        Cand::Code(encode_float(dst, &nb.hi))
    };
    Prep::Fin {
        neg,
        exact: nb.exact,
        half: nb.half,
        lo,
        hi,
        lo_odd: nb.lo_odd,
    }
}

/// §4.1 on magnitudes: true = take the upper neighbour.
fn take_hi(mode: Rounding, neg: bool, exact: bool, half: Ordering, lo_odd: bool) -> bool {
    if exact {
        return false;
    }
    match mode {
        Rounding::Rint => match half {
            Ordering::Less => false,
            Ordering::Greater => true,
            Ordering::Equal => lo_odd,
        },
        Rounding::Round => half != Ordering::Less,
        Rounding::Floor => neg,
        Rounding::Ceil => !neg,
        Rounding::Trunc => false,
        Rounding::Odd => !lo_odd,
        Rounding::Hybrid => panic!("the reference is only asked about executable modes"),
    }
}

fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// The value of an integer destination pattern (by the destination's signedness).
fn int_value_of(dst: ElemType, bits: u64) -> i128 {
    let n = dst.value_bits();
    let signed = dst.kind() == pto_runtime::ElemKind::SignedInt;
    if signed && (bits >> (n - 1)) & 1 == 1 {
        bits as i128 - (1i128 << n)
    } else {
        bits as i128
    }
}

fn low_bits(w: i128, n: u32) -> u64 {
    (w as u64) & mask(n)
}

/// A float destination's sign bit.
fn sign_bit(dst: ElemType) -> u64 {
    1u64 << (dst.value_bits() - 1)
}

fn with_sign(dst: ElemType, neg: bool, code: u64) -> u64 {
    if dst == ElemType::Hif8 && code == 0 {
        return 0; // hif8 has no −0
    }
    if neg {
        code | sign_bit(dst)
    } else {
        code
    }
}

fn max_code(dst: ElemType) -> u64 {
    if dst == ElemType::Hif8 {
        0x6E
    } else {
        float_fmt(dst)
            .unwrap_or_else(|| unreachable!("float dst"))
            .max_code()
    }
}

/// ±Inf of a float destination (hif8 0x6F/0xEF; E4M3FN has none: NaN; fp4 has none: ±max).
fn inf_code(dst: ElemType, neg: bool) -> u64 {
    match dst {
        ElemType::Hif8 => with_sign(dst, neg, 0x6F),
        ElemType::F8E4M3FN => with_sign(dst, neg, 0x7F),
        ElemType::F4E2M1x2 | ElemType::F4E1M2x2 => with_sign(dst, neg, max_code(dst)),
        _ => {
            let f = float_fmt(dst).unwrap_or_else(|| unreachable!("float dst"));
            with_sign(dst, neg, ((1u64 << f.ebits) - 1) << f.mbits)
        }
    }
}

fn is_fp4(t: ElemType) -> bool {
    matches!(t, ElemType::F4E2M1x2 | ElemType::F4E1M2x2)
}

/// Float pairs whose every finite source value is representable in the destination (FF↑):
/// NaN payloads survive only there (§4.4). Checked by brute force in the reference's own tests.
pub fn is_widening(src: ElemType, dst: ElemType) -> bool {
    use ElemType::*;
    matches!(
        (src, dst),
        (F16 | BF16 | F8E4M3FN | F8E5M2 | Hif8, F32) | (F8E4M3FN | F8E5M2 | Hif8, F16 | BF16)
    ) || (is_fp4(src) && dst.is_float() && dst != src && !is_fp4(dst))
}

fn nan_bits(src: ElemType, dst: ElemType, neg: bool, payload: u64, pbits: u32, hif8: bool) -> u64 {
    if is_fp4(dst) {
        return 0; // §2.5: NaN → +0
    }
    if dst == ElemType::Hif8 {
        return 0x80;
    }
    // hif8's NaN carries no sign (§4.4): the positive quiet NaN.
    let neg = neg && !hif8;
    if dst == ElemType::F8E4M3FN {
        return with_sign(dst, neg, 0x7F);
    }
    let f = float_fmt(dst).unwrap_or_else(|| unreachable!("float dst"));
    let quiet = 1u64 << (f.mbits - 1);
    let exp = ((1u64 << f.ebits) - 1) << f.mbits;
    if src != dst && is_widening(src, dst) && !hif8 {
        // §4.4: payload left-aligned into the wider mantissa, quiet bit set.
        let man = (payload << (f.mbits - pbits)) | quiet;
        return with_sign(dst, neg, exp | man);
    }
    with_sign(dst, neg, exp | quiet)
}

/// The expected result of converting the prepared value under (mode, sat, path).
pub fn finish(
    p: &Prep,
    src: ElemType,
    dst: ElemType,
    mode: Rounding,
    sat: bool,
    path: NonSatPath,
) -> Expect {
    if dst.is_int() {
        return finish_int(p, src, dst, mode, sat, path);
    }
    let fr = src == dst;
    match p {
        Prep::Nan {
            neg,
            payload,
            pbits,
            hif8,
        } => Expect {
            bits: nan_bits(src, dst, *neg, *payload, *pbits, *hif8),
            inexact: None,
            out_of_range: None,
        },
        Prep::Inf { neg } => {
            let bits = if fr {
                inf_code(dst, *neg) // FR ignores sat
            } else if sat {
                with_sign(dst, *neg, max_code(dst))
            } else {
                inf_code(dst, *neg)
            };
            let no_inf = is_fp4(dst) || dst == ElemType::F8E4M3FN;
            Expect {
                bits,
                inexact: None,
                out_of_range: if no_inf { Some(true) } else { None },
            }
        }
        Prep::Fin {
            neg,
            exact,
            half,
            lo,
            hi,
            lo_odd,
        } => {
            let c = if take_hi(mode, *neg, *exact, *half, *lo_odd) {
                hi
            } else {
                lo
            };
            let code = match c {
                Cand::Code(c) => *c,
                Cand::Int(_) => unreachable!("float dst"),
            };
            let bits = match code {
                Some(m) => with_sign(dst, *neg, m),
                None => overflow_bits(dst, *neg, mode, sat || fr),
            };
            Expect {
                bits,
                inexact: Some(!exact || code.is_none()),
                out_of_range: Some(code.is_none()),
            }
        }
    }
}

/// §4.3 overflow rule (after rounding with unbounded exponent).
fn overflow_bits(dst: ElemType, neg: bool, mode: Rounding, sat: bool) -> u64 {
    let max = with_sign(dst, neg, max_code(dst));
    if is_fp4(dst) || sat {
        return max;
    }
    let inf = inf_code(dst, neg);
    match mode {
        Rounding::Rint | Rounding::Round => inf,
        Rounding::Trunc | Rounding::Odd => max,
        Rounding::Floor => {
            if neg {
                inf
            } else {
                max
            }
        }
        Rounding::Ceil => {
            if neg {
                max
            } else {
                inf
            }
        }
        Rounding::Hybrid => panic!("not executable"),
    }
}

fn finish_int(
    p: &Prep,
    src: ElemType,
    dst: ElemType,
    mode: Rounding,
    sat: bool,
    path: NonSatPath,
) -> Expect {
    let (min, max) = int_range(dst);
    let n = dst.value_bits();
    if src.is_int() {
        // §4.6: exact source value; clamp (sat) or low N bits.
        let v = match p {
            Prep::Fin {
                lo: Cand::Int(v), ..
            } => *v,
            _ => unreachable!("integer sources are finite and exact"),
        };
        let oor = v < min || v > max;
        let bits = if sat {
            low_bits(v.clamp(min, max), n)
        } else {
            low_bits(v, n)
        };
        return Expect {
            bits,
            inexact: Some(oor),
            out_of_range: Some(oor),
        };
    }
    // §4.2: r = rounded value (None: NaN), inf = Some(sign) for ±Inf.
    let (r, inf): (Option<i128>, Option<bool>) = match p {
        Prep::Nan { .. } => (None, None),
        Prep::Inf { neg } => (None, Some(*neg)),
        Prep::Fin {
            neg,
            exact,
            half,
            lo,
            hi,
            lo_odd,
        } => {
            let c = if take_hi(mode, *neg, *exact, *half, *lo_odd) {
                hi
            } else {
                lo
            };
            match c {
                Cand::Int(v) => (Some(*v), None),
                Cand::Code(_) => unreachable!("int dst"),
            }
        }
    };
    let w: i128 = if sat {
        match (r, inf) {
            (Some(r), _) => r.clamp(min, max),
            (None, Some(true)) => min,
            (None, Some(false)) => max,
            (None, None) => 0,
        }
    } else {
        match path {
            NonSatPath::X86 => {
                let (wmin, wmax) = if matches!(dst, ElemType::I64 | ElemType::U32) {
                    (i64::MIN as i128, i64::MAX as i128)
                } else {
                    (i32::MIN as i128, i32::MAX as i128)
                };
                match r {
                    Some(r) if (wmin..=wmax).contains(&r) => r,
                    _ => wmin,
                }
            }
            NonSatPath::Native | NonSatPath::Torch => {
                let (wmin, wmax) = if path == NonSatPath::Native {
                    (i64::MIN as i128, i64::MAX as i128)
                } else {
                    (i32::MIN as i128, i32::MAX as i128)
                };
                match (r, inf) {
                    (Some(r), _) => r.clamp(wmin, wmax),
                    (None, Some(true)) => wmin,
                    (None, Some(false)) => wmax,
                    (None, None) => 0,
                }
            }
        }
    };
    let bits = low_bits(w, n);
    let (inexact, oor) = match (p, r) {
        (Prep::Fin { exact, .. }, Some(r)) => {
            let oor = r < min || r > max;
            // The result differs from x when rounding moved it or the range rule (clamp, wrap,
            // the X86 / TORCH intermediate) changed r; compare the result's value with r.
            let got = int_value_of(dst, bits);
            (Some(!exact || got != r), Some(oor))
        }
        (Prep::Inf { .. }, _) => (None, Some(true)),
        _ => (None, None),
    };
    Expect {
        bits,
        inexact,
        out_of_range: oor,
    }
}

/// The whole reference in one call (slow; the sweeps use [`prepare`] once per destination).
pub fn convert(
    src: ElemType,
    dst: ElemType,
    mode: Rounding,
    sat: bool,
    path: NonSatPath,
    bits: u64,
) -> Expect {
    let v = value(&decode(src, bits));
    finish(&prepare(&v, src, dst), src, dst, mode, sat, path)
}

/// The exact value of a destination pattern as a rational, for messages and the reference tests.
pub fn value_string(t: ElemType, bits: u64) -> String {
    match decode(t, bits) {
        Exact::Nan { neg, .. } => format!("{}NaN", if neg { "-" } else { "+" }),
        Exact::Inf { neg } => format!("{}Inf", if neg { "-" } else { "+" }),
        Exact::Finite { neg, mag } => {
            let s = if mag.is_integer() {
                mag.to_integer().to_string()
            } else {
                let f = mag.to_f64().unwrap_or(f64::NAN);
                format!("{f:e} ({mag})")
            };
            format!("{}{s}", if neg { "-" } else { "" })
        }
    }
}
