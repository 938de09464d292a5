//! `pto.tcvt` facts that do not depend on the profile (semantics.md §3.1-3.5): pair classes,
//! NARROW6/TORCH3, per-pair default rounding and the a2a3 tmp capacity formulas; plus lookups
//! (`pair_supported`, `mark`, `odd_ok`, `default_sat`) that read the per-profile data of
//! `target::profiles`.
//!
//! Invariants: everything here is a pure function of (profile, element types, numbers); nothing
//! reads IR and nothing matches on a profile. The verifier, the docs generator and the
//! interpreter share these tables, so each rule lives in exactly one place. Arithmetic on user extents is done in `u128` with saturating
//! operations, so no input can overflow or panic.

use pto_runtime::ElemType;

use super::Profile;
use crate::ir::RoundMode;

/// Saturation mode of a tcvt (`#pto<saturation_mode ON|OFF>`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Sat {
    On,
    Off,
}

impl Sat {
    pub fn as_str(self) -> &'static str {
        match self {
            Sat::On => "ON",
            Sat::Off => "OFF",
        }
    }
}

/// Marks of one cell of the §3.1 matrix.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PairMark {
    /// Supported on a2a3 ("2").
    pub a2a3: bool,
    /// Supported on a5 ("5").
    pub a5: bool,
    /// Exercised by pto-isa's CPU tests ("c"); informational only, cpu accepts every pair.
    pub cpu_test: bool,
}

use ElemType::{
    F4E1M2x2 as E1M2, F4E2M1x2 as E2M1, Hif8, S4x2, BF16, F16, F32, F8E4M3FN as E4M3,
    F8E5M2 as E5M2, I16, I32, I64, I8, U16, U32, U8,
};

/// The marks of the (src, dst) cell of the §3.1 matrix, read from the profile values
/// (`target::profiles`); all false for an empty cell.
pub fn mark(src: ElemType, dst: ElemType) -> PairMark {
    PairMark {
        a2a3: Profile::A2a3.rules().tcvt_pairs.contains(src, dst),
        a5: Profile::A5.rules().tcvt_pairs.contains(src, dst),
        cpu_test: Profile::Cpu.rules().tcvt_cpu_tested.contains(&(src, dst)),
    }
}

/// Whether `profile` accepts tcvt from `src` to `dst` (cpu: every ordered pair, DECISION).
pub fn pair_supported(profile: Profile, src: ElemType, dst: ElemType) -> bool {
    profile.rules().tcvt_pairs.contains(src, dst)
}

/// The profiles accepting the pair, in the order cpu, a2a3, a5.
pub fn profiles_supporting(src: ElemType, dst: ElemType) -> Vec<Profile> {
    Profile::ALL
        .into_iter()
        .filter(|&p| pair_supported(p, src, dst))
        .collect()
}

/// Every pair `profile` accepts, in matrix order (rows = src, columns = dst).
pub fn supported_pairs(profile: Profile) -> Vec<(ElemType, ElemType)> {
    let mut out = Vec::new();
    for s in ElemType::ALL {
        for d in ElemType::ALL {
            if pair_supported(profile, s, d) {
                out.push((s, d));
            }
        }
    }
    out
}

/// Pair classes of §3.1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PairClass {
    /// FI: float → int (including `!pto.s4x2`).
    FloatToInt,
    /// FF↓: float → narrower or otherwise inexact float.
    FloatNarrow,
    /// FF↑: float → float that holds every source value exactly.
    FloatWiden,
    /// FR: float → the same float = round to an integral value.
    FloatRound,
    /// IF, exact: every source integer is representable.
    IntToFloatExact,
    /// IF, inexact (i16→f16, i32→f32, i64→f32, i32→f16, ...).
    IntToFloatInexact,
    /// II: int → int.
    IntToInt,
}

impl PairClass {
    pub fn label(self) -> &'static str {
        match self {
            PairClass::FloatToInt => "FI",
            PairClass::FloatNarrow => "FF↓",
            PairClass::FloatWiden => "FF↑",
            PairClass::FloatRound => "FR",
            PairClass::IntToFloatExact => "IF (exact)",
            PairClass::IntToFloatInexact => "IF (inexact)",
            PairClass::IntToInt => "II",
        }
    }

    /// The rounding mode has no numeric effect (§3.3: FF↑, II, exact IF).
    pub fn mode_insensitive(self) -> bool {
        matches!(
            self,
            PairClass::FloatWiden | PairClass::IntToFloatExact | PairClass::IntToInt
        )
    }
}

/// Value-set parameters of a float format: precision p (with hidden bit), max finite, min
/// subnormal, Inf and NaN availability (§2.2-2.5).
struct FloatFmt {
    p: u32,
    max: f64,
    min_sub: f64,
    inf: bool,
    nan: bool,
}

fn float_fmt(t: ElemType) -> Option<FloatFmt> {
    let f = |p, max, min_sub_exp: i32, inf, nan| FloatFmt {
        p,
        max,
        min_sub: 2f64.powi(min_sub_exp),
        inf,
        nan,
    };
    Some(match t {
        F32 => f(24, f64::from(f32::MAX), -149, true, true),
        F16 => f(11, 65504.0, -24, true, true),
        BF16 => f(8, 3.389_531_389_251_535_5e38, -133, true, true),
        E4M3 => f(4, 448.0, -9, false, true),
        E5M2 => f(3, 57344.0, -16, true, true),
        // HiF8 has at most 4 significant bits (|E| <= 3); see `float_exact` for its taper.
        Hif8 => f(4, 32768.0, -22, true, true),
        E2M1 => f(2, 6.0, -1, false, false),
        E1M2 => f(3, 1.75, -2, false, false),
        _ => return None,
    })
}

/// Inclusive value range of an integer element type (s4x2: one 4-bit element).
pub fn int_range(t: ElemType) -> Option<(i128, i128)> {
    Some(match t {
        I8 => (i128::from(i8::MIN), i128::from(i8::MAX)),
        U8 => (0, i128::from(u8::MAX)),
        I16 => (i128::from(i16::MIN), i128::from(i16::MAX)),
        U16 => (0, i128::from(u16::MAX)),
        I32 => (i128::from(i32::MIN), i128::from(i32::MAX)),
        U32 => (0, i128::from(u32::MAX)),
        I64 => (i128::from(i64::MIN), i128::from(i64::MAX)),
        S4x2 => (-8, 7),
        _ => return None,
    })
}

/// Every value (incl. Inf/NaN) of float `src` is representable in float `dst`.
fn float_exact(src: ElemType, dst: ElemType) -> bool {
    let (Some(s), Some(d)) = (float_fmt(src), float_fmt(dst)) else {
        return false;
    };
    if dst == Hif8 {
        // The HiF8 grid tapers (4 bits only for |E| <= 3): only the small fp4 grids fit.
        return matches!(src, E2M1 | E1M2);
    }
    s.p <= d.p && s.max <= d.max && s.min_sub >= d.min_sub && (!s.inf || d.inf) && (!s.nan || d.nan)
}

/// Every integer of `src` is representable in float `dst`.
fn int_exact_in_float(src: ElemType, dst: ElemType) -> bool {
    let (Some((lo, hi)), Some(d)) = (int_range(src), float_fmt(dst)) else {
        return false;
    };
    let magnitude = lo.unsigned_abs().max(hi.unsigned_abs());
    // All integers up to 2^p are representable, as long as they are in range.
    magnitude <= (1u128 << d.p) && (magnitude as f64) <= d.max
}

/// The class of a pair (§3.1). Same-type floats are FR (the f32→f32 rule generalised).
pub fn pair_class(src: ElemType, dst: ElemType) -> PairClass {
    match (src.is_float(), dst.is_float()) {
        (true, false) => PairClass::FloatToInt,
        (true, true) if src == dst => PairClass::FloatRound,
        (true, true) if float_exact(src, dst) => PairClass::FloatWiden,
        (true, true) => PairClass::FloatNarrow,
        (false, true) if int_exact_in_float(src, dst) => PairClass::IntToFloatExact,
        (false, true) => PairClass::IntToFloatInexact,
        (false, false) => PairClass::IntToInt,
    }
}

/// NARROW6 (§3.4, FACT [A2] `kIsNarrowingCvt`).
pub const NARROW6: [(ElemType, ElemType); 6] = [
    (F16, U8),
    (F16, I8),
    (F32, I16),
    (F16, I16),
    (I64, I32),
    (I32, I16),
];

/// TORCH3 (§3.5): the a2a3 pairs with a PyTorch-compatible tmp path. Signed only.
pub const TORCH3: [(ElemType, ElemType); 3] = [(F32, I16), (F16, I16), (F16, I8)];

/// The pairs for which PTOAS materialises an implicit tmp tile before memory planning when a
/// non-A5 tcvt has satmode OFF and no tmp (PTOAS `PTOMaterializeImplicitTmp.cpp`,
/// `tcvtNeedsTmp`: f32 → 16-bit integer, f16 → 8- or 16-bit integer; MLIR's `isInteger(n)` takes
/// both signednesses). At `--pto-level=level3` memory planning is skipped and such a tcvt must
/// carry its tmp (E0211). PTOAS is the only source of this rule.
pub const PLANMEMORY_TMP_PAIRS: [(ElemType, ElemType); 6] = [
    (F32, I16),
    (F32, U16),
    (F16, I16),
    (F16, U16),
    (F16, I8),
    (F16, U8),
];

/// Whether a tcvt on `profile` without tmp needs one written when PTOAS skips memory planning
/// (`--pto-level=level3`): a2a3, a [`PLANMEMORY_TMP_PAIRS`] pair, and satmode OFF (written, or
/// omitted where the profile's default for the pair is OFF).
pub fn needs_explicit_tmp_at_level3(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    sat_attr: Option<Sat>,
) -> bool {
    profile == Profile::A2a3
        && PLANMEMORY_TMP_PAIRS.contains(&(src, dst))
        && sat_attr.unwrap_or(default_sat(profile, src, dst)) == Sat::Off
}

pub fn is_narrow6(src: ElemType, dst: ElemType) -> bool {
    NARROW6.contains(&(src, dst))
}

pub fn is_torch3(src: ElemType, dst: ElemType) -> bool {
    TORCH3.contains(&(src, dst))
}

/// The per-pair default that NONE selects (§3.2): TRUNC for FI, ROUND into hif8, else RINT.
pub fn default_mode(src: ElemType, dst: ElemType) -> RoundMode {
    if pair_class(src, dst) == PairClass::FloatToInt {
        RoundMode::Trunc
    } else if dst == Hif8 {
        RoundMode::Round
    } else {
        RoundMode::Rint
    }
}

/// Whether ODD is honoured for the pair on the profile (§3.3, §3.7 `odd_ok`): the profile's
/// [`OddRule`](super::profiles::OddRule).
pub fn odd_ok(profile: Profile, src: ElemType, dst: ElemType) -> bool {
    profile.rules().odd_ok.allows(src, dst)
}

/// Whether ODD falls back to the per-pair default without `tcvt-odd-unsupported` on a pair
/// where it is not honoured (cpu: the pairs where the mode has no numeric effect).
pub fn odd_fallback_silent(profile: Profile, src: ElemType, dst: ElemType) -> bool {
    profile.rules().odd_ok.silent_fallback(pair_class(src, dst))
}

/// The saturation used when `satmode` is omitted (§3.4): the profile's
/// [`SatDefaultRule`](super::profiles::SatDefaultRule).
pub fn default_sat(profile: Profile, src: ElemType, dst: ElemType) -> Sat {
    let rule = profile.rules().sat_default;
    if is_narrow6(src, dst) {
        rule.narrow6
    } else {
        rule.other
    }
}

/// The TORCH3 pair whose tmp formula applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TorchPair {
    F32ToI16,
    F16ToI16,
    F16ToI8,
}

impl TorchPair {
    pub fn of(src: ElemType, dst: ElemType) -> Option<TorchPair> {
        match (src, dst) {
            (F32, I16) => Some(TorchPair::F32ToI16),
            (F16, I16) => Some(TorchPair::F16ToI16),
            (F16, I8) => Some(TorchPair::F16ToI8),
            _ => None,
        }
    }
}

/// Capacity of a tmp tile: rows × cols × byte width of its dtype (§3.5; byte-sized whatever
/// the dtype; packed types count their carrier byte).
pub fn tmp_capacity_bytes(rows: u64, cols: u64, elem_bytes: u32) -> u128 {
    u128::from(rows)
        .saturating_mul(u128::from(cols))
        .saturating_mul(u128::from(elem_bytes))
}

fn ceil_div(a: u128, b: u128) -> u128 {
    a.div_ceil(b)
}

/// Required tmp bytes (§3.5) for dst valid rows `r`, cols `c` and src row stride `ss` (declared
/// src cols, in source elements). Zero when `r` or `c` is zero.
pub fn tmp_required_bytes(pair: TorchPair, r: u64, c: u64, ss: u64) -> u128 {
    if r == 0 || c == 0 {
        return 0;
    }
    let (r, c, ss) = (u128::from(r), u128::from(c), u128::from(ss));
    match pair {
        TorchPair::F32ToI16 => {
            let head = 4 * 64 * (c / 64).min(255);
            let rem = c % 64;
            let tail = if rem == 0 {
                0
            } else {
                32u128.saturating_mul(
                    (r.min(255) - 1)
                        .saturating_mul(ss / 8)
                        .saturating_add(ceil_div(rem, 8)),
                )
            };
            head.max(tail)
        }
        TorchPair::F16ToI16 => 32 * ceil_div(c.min(64), 8),
        TorchPair::F16ToI8 => {
            let h = c.min(64);
            (32 * ceil_div(h, 8)).max(128 + 32 * ceil_div(h, 16))
        }
    }
}

/// A dst valid extent for the capacity check: known, or dynamic up to the declared extent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Extent {
    Static(u64),
    UpTo(u64),
}

/// Maximum of [`tmp_required_bytes`] over every extent allowed by `r` and `c` (the DECISION for
/// dynamic valid shapes, §3.5). Closed form: `need` grows with R, and with C except through
/// `C mod 64` in the f32→i16 tail, whose worst residue is `min(cols, 63)`.
pub fn tmp_required_worst(pair: TorchPair, r: Extent, c: Extent, ss: u64) -> u128 {
    let r_max = match r {
        Extent::Static(v) | Extent::UpTo(v) => v,
    };
    match c {
        Extent::Static(c) => tmp_required_bytes(pair, r_max, c, ss),
        Extent::UpTo(cols) => {
            let at_max = tmp_required_bytes(pair, r_max, cols, ss);
            if pair != TorchPair::F32ToI16 || cols == 0 {
                return at_max;
            }
            // The tail depends on C only through ceil((C mod 64)/8): take the worst residue.
            let worst_rem = cols.min(63);
            tmp_required_bytes(pair, r_max, worst_rem, ss).max(at_max)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_match_the_spec() {
        assert_eq!(supported_pairs(Profile::A2a3).len(), 25);
        assert_eq!(supported_pairs(Profile::A5).len(), 45);
        assert_eq!(supported_pairs(Profile::Cpu).len(), 256);
    }

    #[test]
    fn spot_check_cells() {
        assert_eq!(
            mark(F32, I16),
            PairMark {
                a2a3: true,
                a5: true,
                cpu_test: false
            }
        );
        assert!(mark(F16, S4x2).a2a3 && !mark(F16, S4x2).a5);
        assert!(mark(I32, F16).a2a3 && !mark(I32, F16).a5);
        assert!(!mark(F16, E4M3).a5, "A5 has no f16->fp8");
        assert!(mark(F32, U8).cpu_test && !mark(F32, U8).a2a3 && !mark(F32, U8).a5);
        assert!(mark(U32, I16).a5 && !mark(U32, I16).a2a3);
        assert!(!mark(F32, I8).a2a3 && !mark(F32, I8).a5 && !mark(F32, I8).cpu_test);
        assert_eq!(
            profiles_supporting(F32, I8),
            vec![Profile::Cpu],
            "cpu accepts every pair"
        );
        assert_eq!(
            profiles_supporting(F32, Hif8),
            vec![Profile::Cpu, Profile::A5]
        );
        assert_eq!(Profile::Cpu.rules().tcvt_cpu_tested.len(), 11);
    }

    #[test]
    fn pair_classes() {
        assert_eq!(pair_class(F32, I16), PairClass::FloatToInt);
        assert_eq!(pair_class(F16, S4x2), PairClass::FloatToInt);
        assert_eq!(pair_class(F32, F32), PairClass::FloatRound);
        assert_eq!(pair_class(F16, F32), PairClass::FloatWiden);
        assert_eq!(pair_class(Hif8, F32), PairClass::FloatWiden);
        assert_eq!(pair_class(E2M1, BF16), PairClass::FloatWiden);
        assert_eq!(pair_class(E2M1, Hif8), PairClass::FloatWiden);
        assert_eq!(pair_class(E4M3, Hif8), PairClass::FloatNarrow);
        assert_eq!(pair_class(BF16, F16), PairClass::FloatNarrow);
        assert_eq!(pair_class(F16, BF16), PairClass::FloatNarrow);
        assert_eq!(pair_class(E5M2, E4M3), PairClass::FloatNarrow);
        assert_eq!(pair_class(E4M3, E5M2), PairClass::FloatNarrow);
        assert_eq!(pair_class(F32, E2M1), PairClass::FloatNarrow);
        assert_eq!(pair_class(I8, F16), PairClass::IntToFloatExact);
        assert_eq!(pair_class(U8, BF16), PairClass::IntToFloatExact);
        assert_eq!(pair_class(S4x2, E5M2), PairClass::IntToFloatExact);
        for (s, d) in [(I16, F16), (I32, F32), (I64, F32), (I32, F16), (U16, F16)] {
            assert_eq!(pair_class(s, d), PairClass::IntToFloatInexact, "{s}->{d}");
        }
        assert_eq!(pair_class(I16, F32), PairClass::IntToFloatExact);
        assert_eq!(pair_class(I32, I32), PairClass::IntToInt);
    }

    #[test]
    fn defaults_and_odd() {
        assert_eq!(default_mode(F32, I16), RoundMode::Trunc);
        assert_eq!(default_mode(F16, S4x2), RoundMode::Trunc);
        assert_eq!(default_mode(F16, Hif8), RoundMode::Round);
        assert_eq!(default_mode(I32, F32), RoundMode::Rint);
        assert!(odd_ok(Profile::A5, F32, F16));
        assert!(!odd_ok(Profile::A5, F32, BF16));
        assert!(!odd_ok(Profile::A2a3, F16, F32));
        assert!(odd_ok(Profile::Cpu, F32, E5M2));
        assert!(!odd_ok(Profile::Cpu, F32, E4M3));
        assert!(!odd_ok(Profile::Cpu, BF16, E2M1));
        assert!(odd_ok(Profile::Cpu, F16, F32));
        // --pto-level=level3: a2a3 NARROW pairs with sat OFF (written or by default) need a tmp.
        assert!(needs_explicit_tmp_at_level3(Profile::A2a3, F32, I16, None));
        assert!(needs_explicit_tmp_at_level3(
            Profile::A2a3,
            F32,
            U16,
            Some(Sat::Off)
        ));
        assert!(!needs_explicit_tmp_at_level3(Profile::A2a3, F32, U16, None));
        assert!(!needs_explicit_tmp_at_level3(
            Profile::A2a3,
            F32,
            I16,
            Some(Sat::On)
        ));
        assert!(!needs_explicit_tmp_at_level3(
            Profile::A5,
            F32,
            I16,
            Some(Sat::Off)
        ));
        assert!(!needs_explicit_tmp_at_level3(
            Profile::A2a3,
            F32,
            I32,
            Some(Sat::Off)
        ));
        // Exact pairs into E4M3FN: not honoured (the runtime has no ODD there), but silent.
        assert!(!odd_ok(Profile::Cpu, S4x2, E4M3));
        assert!(odd_fallback_silent(Profile::Cpu, S4x2, E4M3));
        assert!(odd_fallback_silent(Profile::Cpu, E2M1, E4M3));
        assert!(!odd_fallback_silent(Profile::Cpu, I8, E4M3));
        assert!(!odd_fallback_silent(Profile::A5, F16, F32));
        assert_eq!(default_sat(Profile::Cpu, F16, I8), Sat::Off);
        assert_eq!(default_sat(Profile::A2a3, F16, I8), Sat::Off);
        assert_eq!(default_sat(Profile::A5, F32, F16), Sat::On);
        assert_eq!(NARROW6.iter().filter(|p| is_torch3(p.0, p.1)).count(), 3);
    }

    #[test]
    fn tmp_worked_examples() {
        // §3.5: f32 16x128 -> i16 valid 16x100: head 256, tail 7840.
        assert_eq!(tmp_required_bytes(TorchPair::F32ToI16, 16, 100, 128), 7840);
        assert_eq!(tmp_capacity_bytes(16, 128, 4), 8192);
        assert_eq!(tmp_capacity_bytes(8, 64, 4), 2048);
        assert_eq!(tmp_required_bytes(TorchPair::F16ToI8, 4, 20, 20), 192);
        assert_eq!(tmp_required_bytes(TorchPair::F16ToI16, 4, 20, 20), 96);
        assert_eq!(tmp_required_bytes(TorchPair::F16ToI8, 4, 1000, 1000), 256);
        assert_eq!(tmp_required_bytes(TorchPair::F32ToI16, 0, 100, 128), 0);
        assert_eq!(tmp_required_bytes(TorchPair::F32ToI16, 16, 128, 128), 512);
    }

    #[test]
    fn tmp_worst_case_is_the_maximum() {
        for pair in [TorchPair::F32ToI16, TorchPair::F16ToI16, TorchPair::F16ToI8] {
            for rows in [1u64, 3, 16] {
                for cols in [1u64, 7, 64, 100, 130] {
                    let ss = cols;
                    let mut brute = 0;
                    for r in 0..=rows {
                        for c in 0..=cols {
                            brute = brute.max(tmp_required_bytes(pair, r, c, ss));
                        }
                    }
                    let w = tmp_required_worst(pair, Extent::UpTo(rows), Extent::UpTo(cols), ss);
                    assert_eq!(w, brute, "{pair:?} {rows}x{cols}");
                }
            }
        }
        // Huge extents neither overflow nor panic.
        let _ = tmp_required_worst(
            TorchPair::F32ToI16,
            Extent::UpTo(u64::MAX),
            Extent::UpTo(u64::MAX),
            u64::MAX,
        );
    }
}
