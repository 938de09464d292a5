//! The per-profile rules as data (semantics.md §3, §6.5): one [`ProfileRules`] value per profile
//! ([`CPU`], [`A2A3`], [`A5`]), reached through [`Profile::rules`]. Each value holds that
//! profile's tcvt pair list, forced/ignored rounding modes, ODD legality, saturation defaults,
//! the policy for an explicit `satmode OFF`, the tmp policy, the float→int path and note, and
//! the vcvt pair subset.
//!
//! Invariants: this file is the only place where a profile's behaviour is written down; the
//! interpreters (`tcvt`, `resolve`, `vcvt`, the verifier and `docs`) read these values and never
//! match on [`Profile`] to decide a rule. Profile-independent facts (pair classes, NARROW6 and
//! TORCH3 membership, per-pair default modes, tmp formulas, the vcvt contract rows) stay in
//! `tcvt`/`vcvt`. Pair lists hold no duplicates (checked by unit tests).

use pto_runtime::ElemType;

use super::resolve::CvtPath;
use super::tcvt::{PairClass, Sat};
use super::Profile;
use crate::ir::RoundMode;

use ElemType::{
    F4E1M2x2 as E1M2, F4E2M1x2 as E2M1, Hif8, S4x2, BF16, F16, F32, F8E4M3FN as E4M3,
    F8E5M2 as E5M2, I16, I32, I64, I8, U16, U32, U8,
};

/// An ordered (src, dst) element-type pair.
pub type Pair = (ElemType, ElemType);

/// A set of pairs, as listed or by destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PairSet {
    /// Every ordered pair.
    All,
    /// Exactly these pairs.
    Pairs(&'static [Pair]),
    /// Every pair whose destination is one of these.
    ToAny(&'static [ElemType]),
}

impl PairSet {
    pub fn contains(self, src: ElemType, dst: ElemType) -> bool {
        match self {
            PairSet::All => true,
            PairSet::Pairs(ps) => ps.contains(&(src, dst)),
            PairSet::ToAny(ds) => ds.contains(&dst),
        }
    }

    /// Text for the generated docs.
    pub fn describe(self) -> String {
        let ty = |t: ElemType| t.ir_name().to_string();
        match self {
            PairSet::All => "every pair".to_string(),
            PairSet::Pairs(ps) => ps
                .iter()
                .map(|(s, d)| format!("{}→{}", ty(*s), ty(*d)))
                .collect::<Vec<_>>()
                .join(", "),
            PairSet::ToAny(ds) => format!(
                "every pair into {}",
                ds.iter().map(|d| ty(*d)).collect::<Vec<_>>().join(", ")
            ),
        }
    }
}

/// What the diagnostic says when a requested mode is replaced by a [`ForcedMode`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForcedKind {
    /// `tcvt-rmode-forced`: the target forces the mode.
    Forced,
    /// `tcvt-rmode-ignored`: the hardware path has no rounding choice (a2a3 deq).
    Ignored,
}

/// A pair set on which the rounding mode is fixed, whatever `rmode` says (§3.3, §3.7).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForcedMode {
    pub pairs: PairSet,
    pub mode: RoundMode,
    pub kind: ForcedKind,
    /// Pairs where the mode has no numeric effect (FF↑, II, exact IF) take every explicit
    /// mode without a diagnostic.
    pub silent_on_exact: bool,
}

/// Where ODD is honoured (§3.3, §3.7 `odd_ok`); elsewhere it falls back to the per-pair default
/// with `tcvt-odd-unsupported`. One rule for `verify`, `run` and `cast` (all resolve through
/// `target::resolve`): the interpreter never sees ODD where this rule does not honour it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OddRule {
    /// Only on these pairs; the fallback always warns (§3.3: "the ODD rule still applies on
    /// a2a3/a5", exact pairs included).
    Only(&'static [Pair]),
    /// On every pair except into these destinations (no usable odd neighbour at the top of
    /// their range). There ODD falls back to the per-pair default like on any pair, silently
    /// where the mode has no numeric effect (§3.3: FF↑, II, exact IF pairs accept every mode
    /// silently on cpu; e.g. s4x2 or fp4 → f8E4M3FN), with `tcvt-odd-unsupported` elsewhere.
    ExceptInto(&'static [ElemType]),
}

impl OddRule {
    /// Whether ODD is honoured on the pair.
    pub fn allows(self, src: ElemType, dst: ElemType) -> bool {
        match self {
            OddRule::Only(ps) => ps.contains(&(src, dst)),
            OddRule::ExceptInto(ds) => !ds.contains(&dst),
        }
    }
    /// Whether falling back from ODD on a pair of this class goes without a diagnostic.
    pub fn silent_fallback(self, class: PairClass) -> bool {
        match self {
            OddRule::Only(_) => false,
            OddRule::ExceptInto(_) => class.mode_insensitive(),
        }
    }
}

/// The saturation used when `satmode` is omitted (§3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SatDefaultRule {
    /// For the NARROW6 pairs.
    pub narrow6: Sat,
    /// For every other pair.
    pub other: Sat,
}

/// What an explicit `satmode OFF` does (§3.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SatOffPolicy {
    /// Pairs whose hardware path always saturates (OFF is ignored, even with tmp).
    pub always_on: &'static [Pair],
    /// Outside NARROW6, OFF takes effect only with a tmp operand (else ON is used).
    pub needs_tmp_outside_narrow6: bool,
}

/// What a tcvt tmp operand does (§3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TmpPolicy {
    /// Accepted and ignored (`tcvt-tmp-ignored`, warning).
    Ignored,
    /// Accepted and unused (`tcvt-tmp-unused`, note).
    Unused,
    /// On these pairs, tmp with effective sat OFF selects the PyTorch-compatible path (scratch,
    /// capacity checked); without tmp, sat OFF there gets `tcvt-tmp-suggested`. Elsewhere tmp is
    /// unused.
    TorchPath { pairs: &'static [Pair] },
}

/// Float→int evaluation without saturation (§4.2) and its note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NonsatRule {
    /// The path used unless the tmp policy selects TORCH.
    pub path: CvtPath,
    /// `nonsat-target-defined` is raised (hardware results are target-defined), with this
    /// extra remark appended; `None` = no note (the reference semantics are exact).
    pub note_extra: Option<&'static str>,
}

/// Every rule of one profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileRules {
    pub profile: Profile,
    /// The profile's name as printed (`Profile::as_str`).
    pub name: &'static str,
    /// One-paragraph description for the generated docs.
    pub blurb: &'static str,
    /// tcvt pairs accepted (§3.1).
    pub tcvt_pairs: PairSet,
    /// Pairs exercised by pto-isa's CPU tests (the "c" marks of §3.1); informational only.
    pub tcvt_cpu_tested: &'static [Pair],
    /// Fixed rounding modes, first match wins (§3.3).
    pub forced_modes: &'static [ForcedMode],
    pub odd_ok: OddRule,
    pub sat_default: SatDefaultRule,
    pub sat_off_policy: SatOffPolicy,
    pub tmp_policy: TmpPolicy,
    pub nonsat: NonsatRule,
    /// vcvt contract rows offered (§6.5).
    pub vcvt_pairs: PairSet,
}

impl Profile {
    /// The rules of this profile.
    pub fn rules(self) -> &'static ProfileRules {
        match self {
            Profile::Cpu => &CPU,
            Profile::A2a3 => &A2A3,
            Profile::A5 => &A5,
        }
    }
}

/// Every conversion into hif8 rounds ROUND (§3.3), on every profile.
const HIF8_ROUND: ForcedMode = ForcedMode {
    pairs: PairSet::ToAny(&[Hif8]),
    mode: RoundMode::Round,
    kind: ForcedKind::Forced,
    silent_on_exact: true,
};

/// The a2a3 i32→f16 "deq" path (§4.8): always RINT, always saturating.
const A2A3_DEQ: &[Pair] = &[(I32, F16)];

/// The "c" marks of §3.1.
const CPU_TESTED: &[Pair] = &[
    (F32, E2M1),
    (F32, E1M2),
    (F32, U8),
    (F32, U16),
    (F32, S4x2),
    (E2M1, F32),
    (E1M2, F32),
    (I8, F32),
    (U16, F32),
    (U16, I32),
    (S4x2, F32),
];

/// The reference profile: every pair, every mode except where ODD has no meaning, no sat by
/// default, x86 float→int (DECISIONs of §3.1-3.5).
pub static CPU: ProfileRules = ProfileRules {
    profile: Profile::Cpu,
    name: "cpu",
    blurb: "Reference semantics of ptoc (the default profile): bit-exact and host-independent, derived from the pto-isa CPU simulator with its bugs fixed. tcvt accepts every ordered pair of element types.",
    tcvt_pairs: PairSet::All,
    tcvt_cpu_tested: CPU_TESTED,
    forced_modes: &[HIF8_ROUND],
    odd_ok: OddRule::ExceptInto(&[E4M3, E2M1, E1M2, Hif8]),
    sat_default: SatDefaultRule {
        narrow6: Sat::Off,
        other: Sat::Off,
    },
    sat_off_policy: SatOffPolicy {
        always_on: &[],
        needs_tmp_outside_narrow6: false,
    },
    tmp_policy: TmpPolicy::Ignored,
    nonsat: NonsatRule {
        path: CvtPath::X86,
        note_extra: None,
    },
    vcvt_pairs: PairSet::All,
};

/// Ascend A2/A3 (pto-isa a2a3 TCvt, §3.1 "2" marks, §6.5 a2a3 subset).
pub static A2A3: ProfileRules = ProfileRules {
    profile: Profile::A2a3,
    name: "a2a3",
    blurb: "Ascend A2/A3-class targets (`pto.target_arch = \"a2\"` or `\"a3\"`, or `--target a2a3`), as implemented by pto-isa's a2a3 TCvt.",
    tcvt_pairs: PairSet::Pairs(&[
        (F32, F32),
        (F32, F16),
        (F32, BF16),
        (F32, I16),
        (F32, I32),
        (F32, I64),
        (F16, F32),
        (F16, I8),
        (F16, U8),
        (F16, I16),
        (F16, I32),
        (F16, S4x2),
        (BF16, F32),
        (BF16, I32),
        (I8, F16),
        (U8, F16),
        (I16, F32),
        (I16, F16),
        (I32, F32),
        (I32, F16),
        (I32, I16),
        (I32, I64),
        (I64, F32),
        (I64, I32),
        (S4x2, F16),
    ]),
    tcvt_cpu_tested: CPU_TESTED,
    forced_modes: &[
        HIF8_ROUND,
        ForcedMode {
            pairs: PairSet::Pairs(A2A3_DEQ),
            mode: RoundMode::Rint,
            kind: ForcedKind::Ignored,
            silent_on_exact: false,
        },
    ],
    odd_ok: OddRule::Only(&[(F32, F16)]),
    sat_default: SatDefaultRule {
        narrow6: Sat::Off,
        other: Sat::On,
    },
    sat_off_policy: SatOffPolicy {
        always_on: A2A3_DEQ,
        needs_tmp_outside_narrow6: true,
    },
    tmp_policy: TmpPolicy::TorchPath {
        pairs: &super::tcvt::TORCH3,
    },
    nonsat: NonsatRule {
        path: CvtPath::Native,
        note_extra: Some(""),
    },
    vcvt_pairs: PairSet::Pairs(&[
        (F32, F16),
        (F32, BF16),
        (F32, I16),
        (F32, I64),
        (F32, I32),
        (F16, F32),
        (F16, I32),
        (F16, I16),
        (F16, I8),
        (F16, U8),
        (BF16, F32),
        (BF16, I32),
        (U8, F16),
        (I8, F16),
        (I16, F16),
        (I16, F32),
        (I32, F32),
        (I32, I16),
        (I32, I64),
        (I64, F32),
        (I64, I32),
    ]),
};

/// Ascend A5 (pto-isa a5 TCvt, §3.1 "5" marks; every vcvt contract row).
pub static A5: ProfileRules = ProfileRules {
    profile: Profile::A5,
    name: "a5",
    blurb: "Ascend A5 (`pto.target_arch = \"a5\"`, or `--target a5`), as implemented by pto-isa's a5 TCvt and the PTOAS vcvt contract.",
    tcvt_pairs: PairSet::Pairs(&[
        (F32, F32),
        (F32, F16),
        (F32, BF16),
        (F32, E4M3),
        (F32, E5M2),
        (F32, Hif8),
        (F32, I16),
        (F32, I32),
        (F32, I64),
        (F16, F32),
        (F16, Hif8),
        (F16, I8),
        (F16, U8),
        (F16, I16),
        (F16, I32),
        (BF16, F32),
        (BF16, F16),
        (BF16, E2M1),
        (BF16, E1M2),
        (BF16, I32),
        (E4M3, F32),
        (E5M2, F32),
        (Hif8, F32),
        (E2M1, BF16),
        (E1M2, BF16),
        (I8, F16),
        (I8, I16),
        (I8, I32),
        (U8, F16),
        (U8, U16),
        (I16, F32),
        (I16, F16),
        (I16, U8),
        (I16, I32),
        (I16, U32),
        (I32, F32),
        (I32, U8),
        (I32, I16),
        (I32, U16),
        (I32, I64),
        (U32, U8),
        (U32, I16),
        (U32, U16),
        (I64, F32),
        (I64, I32),
    ]),
    tcvt_cpu_tested: CPU_TESTED,
    forced_modes: &[
        HIF8_ROUND,
        // FACT [A5]: f32→fp8 always rounds RINT.
        ForcedMode {
            pairs: PairSet::Pairs(&[(F32, E4M3), (F32, E5M2)]),
            mode: RoundMode::Rint,
            kind: ForcedKind::Forced,
            silent_on_exact: false,
        },
    ],
    odd_ok: OddRule::Only(&[(F32, F16)]),
    sat_default: SatDefaultRule {
        narrow6: Sat::Off,
        other: Sat::On,
    },
    sat_off_policy: SatOffPolicy {
        always_on: &[],
        needs_tmp_outside_narrow6: false,
    },
    tmp_policy: TmpPolicy::Unused,
    nonsat: NonsatRule {
        path: CvtPath::Native,
        note_extra: Some(
            "; A5 may use the PyTorch-compatible sequence for 1-D-contiguous tiles, which ptoc does not model",
        ),
    },
    vcvt_pairs: PairSet::All,
};

#[cfg(test)]
mod tests {
    use super::*;

    fn no_duplicates(ps: &[Pair]) -> bool {
        ps.iter().enumerate().all(|(i, p)| !ps[i + 1..].contains(p))
    }

    #[test]
    fn each_profile_value_is_reached_and_well_formed() {
        for p in Profile::ALL {
            let r = p.rules();
            assert_eq!(r.profile, p);
            assert_eq!(r.name, p.as_str());
            for set in [r.tcvt_pairs, r.vcvt_pairs] {
                if let PairSet::Pairs(ps) = set {
                    assert!(no_duplicates(ps), "{p}");
                }
            }
            assert!(no_duplicates(r.tcvt_cpu_tested));
            // The "c" marks are informational: hardware profiles do not list them.
            if let PairSet::Pairs(ps) = r.tcvt_pairs {
                assert!(r.tcvt_cpu_tested.iter().all(|c| !ps.contains(c)), "{p}");
            }
        }
    }
}
