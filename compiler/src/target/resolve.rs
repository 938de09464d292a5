//! Resolution of a tcvt's effective parameters (semantics.md §3.7), shared by the verifier and
//! the interpreter: requested `rmode`/`satmode` + pair + profile + tmp presence → effective
//! rounding mode, saturation, float→int path, and the diagnostics the resolution implies.
//!
//! Invariants: [`resolve`] is pure and total; the returned mode is never `NONE` or
//! `CAST_RINT`. The diagnostics are data ([`ResolveDiag`]); the verifier turns them into
//! `Diagnostic`s with spans, the interpreter may ignore them.

use pto_runtime::ElemType;

use super::profiles::{ForcedKind, TmpPolicy};
use super::tcvt::{
    default_mode, default_sat, is_narrow6, odd_fallback_silent, odd_ok, pair_class, Sat, TorchPair,
};
use super::Profile;
use crate::ir::RoundMode;

/// How a float→int conversion without saturation is evaluated (§4.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum CvtPath {
    /// cpu: `static_cast` after rounding, as GCC on x86-64 (§4.2.2).
    X86,
    /// a2a3/a5 hardware: int64 then low bits (§4.2.3).
    Native,
    /// a2a3 with tmp: int32 under sat, then wrap (§4.2.4).
    Torch,
}

impl CvtPath {
    pub fn as_str(self) -> &'static str {
        match self {
            CvtPath::X86 => "X86",
            CvtPath::Native => "NATIVE",
            CvtPath::Torch => "TORCH",
        }
    }
}

/// Why an explicit sat OFF was ignored on a2a3.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SatOffReason {
    /// i32→f16 deq always saturates (§4.8), even with tmp.
    Deq,
    /// A non-NARROW6 pair without a tmp operand (§3.4).
    NoTmp,
}

/// A diagnostic implied by resolution (names of semantics.md §8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ResolveDiag {
    /// `tcvt-rmode-forced`: the target forces `forced`; `requested` is replaced.
    RmodeForced {
        requested: RoundMode,
        forced: RoundMode,
    },
    /// `tcvt-odd-unsupported`: ODD falls back to the per-pair default `fallback`.
    OddUnsupported { fallback: RoundMode },
    /// `tcvt-rmode-ignored`: a2a3 deq always rounds RINT.
    RmodeIgnored { requested: RoundMode },
    /// `tcvt-sat-off-ignored`: ON is used instead.
    SatOffIgnored { reason: SatOffReason },
}

/// The effective parameters of one tcvt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    pub mode: RoundMode,
    pub sat: Sat,
    pub path: CvtPath,
    pub diags: Vec<ResolveDiag>,
}

/// §3.7 `resolve`, interpreting the profile's data (`target::profiles`): the first
/// [`ForcedMode`](super::profiles::ForcedMode) covering the pair fixes the mode (exact pairs
/// accept every mode silently where the rule says so, §3.3); otherwise ODD is checked against
/// the profile's ODD rule and NONE selects the per-pair default. An explicit sat OFF follows the
/// profile's [`SatOffPolicy`](super::profiles::SatOffPolicy); the path is the profile's nonsat
/// path unless its tmp policy selects TORCH. `rmode_attr`/`sat_attr` are the attributes as
/// written (`None` = absent); `has_tmp` whether a tmp operand is present.
pub fn resolve(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    rmode_attr: Option<RoundMode>,
    sat_attr: Option<Sat>,
    has_tmp: bool,
) -> Resolved {
    let rules = profile.rules();
    let mut diags = Vec::new();
    let mut req = match rmode_attr.unwrap_or(RoundMode::Rint) {
        RoundMode::CastRint => RoundMode::Rint,
        m => m,
    };
    let explicit = rmode_attr.is_some() && req != RoundMode::None;
    let forced = rules
        .forced_modes
        .iter()
        .find(|f| f.pairs.contains(src, dst));
    let mode = if let Some(f) = forced {
        let silent = f.silent_on_exact && pair_class(src, dst).mode_insensitive();
        if explicit && req != f.mode && !silent {
            diags.push(match f.kind {
                ForcedKind::Forced => ResolveDiag::RmodeForced {
                    requested: req,
                    forced: f.mode,
                },
                ForcedKind::Ignored => ResolveDiag::RmodeIgnored { requested: req },
            });
        }
        f.mode
    } else {
        if req == RoundMode::Odd && !odd_ok(profile, src, dst) {
            if !odd_fallback_silent(profile, src, dst) {
                diags.push(ResolveDiag::OddUnsupported {
                    fallback: default_mode(src, dst),
                });
            }
            req = RoundMode::None;
        }
        if req == RoundMode::None {
            default_mode(src, dst)
        } else {
            req
        }
    };

    let mut sat = sat_attr.unwrap_or(default_sat(profile, src, dst));
    if sat_attr == Some(Sat::Off) {
        let policy = rules.sat_off_policy;
        let reason = if policy.always_on.contains(&(src, dst)) {
            Some(SatOffReason::Deq)
        } else if policy.needs_tmp_outside_narrow6 && !is_narrow6(src, dst) && !has_tmp {
            Some(SatOffReason::NoTmp)
        } else {
            None
        };
        if let Some(reason) = reason {
            diags.push(ResolveDiag::SatOffIgnored { reason });
            sat = Sat::On;
        }
    }

    let path = match rules.tmp_policy {
        TmpPolicy::TorchPath { pairs }
            if has_tmp && sat == Sat::Off && pairs.contains(&(src, dst)) =>
        {
            CvtPath::Torch
        }
        _ => rules.nonsat.path,
    };
    Resolved {
        mode,
        sat,
        path,
        diags,
    }
}

/// What the tmp operand does for a resolved tcvt (§3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TmpRole {
    /// No tmp, and none is suggested.
    Absent,
    /// cpu: accepted and ignored (`tcvt-tmp-ignored`).
    IgnoredOnCpu,
    /// a5, or an a2a3 combination off the TORCH path (`tcvt-tmp-unused`). `forwards_sat`: on
    /// a2a3 the tmp still makes an explicit sat OFF take effect on a non-NARROW6 pair.
    Unused { forwards_sat: bool },
    /// a2a3 TORCH path: tmp is scratch and the capacity rule applies.
    TorchScratch(TorchPair),
    /// a2a3 TORCH3 pair with sat OFF and no tmp: NATIVE is used (`tcvt-tmp-suggested`).
    Suggested,
}

/// The role of the tmp operand given the resolution `r` of the same op, interpreting the
/// profile's [`TmpPolicy`].
pub fn tmp_role(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    r: &Resolved,
    sat_attr: Option<Sat>,
    has_tmp: bool,
) -> TmpRole {
    let rules = profile.rules();
    let torch_pair = match rules.tmp_policy {
        TmpPolicy::TorchPath { pairs } if pairs.contains(&(src, dst)) => TorchPair::of(src, dst),
        _ => None,
    };
    match (rules.tmp_policy, has_tmp) {
        (TmpPolicy::Ignored, true) => TmpRole::IgnoredOnCpu,
        (_, true) => match (r.path, torch_pair) {
            (CvtPath::Torch, Some(p)) => TmpRole::TorchScratch(p),
            // The tmp still makes an explicit sat OFF take effect where OFF needs it.
            _ => TmpRole::Unused {
                forwards_sat: rules.sat_off_policy.needs_tmp_outside_narrow6
                    && sat_attr == Some(Sat::Off)
                    && r.sat == Sat::Off
                    && !is_narrow6(src, dst),
            },
        },
        (TmpPolicy::TorchPath { pairs }, false)
            if r.sat == Sat::Off && pairs.contains(&(src, dst)) =>
        {
            TmpRole::Suggested
        }
        _ => TmpRole::Absent,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ElemType::*;

    #[test]
    fn omitted_rmode_is_rint_even_for_float_to_int() {
        let r = resolve(Profile::A5, F32, I32, None, None, false);
        assert_eq!(
            (r.mode, r.sat, r.path),
            (RoundMode::Rint, Sat::On, CvtPath::Native)
        );
        assert!(r.diags.is_empty());
        let r = resolve(Profile::A5, F32, I32, Some(RoundMode::None), None, false);
        assert_eq!(r.mode, RoundMode::Trunc);
        let r = resolve(
            Profile::Cpu,
            F32,
            I32,
            Some(RoundMode::CastRint),
            None,
            false,
        );
        assert_eq!(
            (r.mode, r.sat, r.path),
            (RoundMode::Rint, Sat::Off, CvtPath::X86)
        );
    }

    #[test]
    fn forced_and_ignored_modes() {
        let r = resolve(
            Profile::A5,
            F32,
            F8E4M3FN,
            Some(RoundMode::Floor),
            None,
            false,
        );
        assert_eq!(r.mode, RoundMode::Rint);
        assert_eq!(
            r.diags,
            vec![ResolveDiag::RmodeForced {
                requested: RoundMode::Floor,
                forced: RoundMode::Rint
            }]
        );
        let r = resolve(
            Profile::Cpu,
            F32,
            F8E4M3FN,
            Some(RoundMode::Floor),
            None,
            false,
        );
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Floor, 0));
        let r = resolve(Profile::Cpu, F16, Hif8, Some(RoundMode::Rint), None, false);
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Round, 1));
        let r = resolve(Profile::Cpu, F16, Hif8, Some(RoundMode::None), None, false);
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Round, 0));
        // Exact pairs into E4M3FN take ODD silently on cpu, as the default (the one ODD rule
        // of run, cast and verify; issue 22).
        for src in [S4x2, F4E2M1x2, F4E1M2x2] {
            let r = resolve(
                Profile::Cpu,
                src,
                F8E4M3FN,
                Some(RoundMode::Odd),
                None,
                false,
            );
            assert_eq!((r.mode, r.diags.len()), (RoundMode::Rint, 0));
        }
        let r = resolve(
            Profile::Cpu,
            I8,
            F8E4M3FN,
            Some(RoundMode::Odd),
            None,
            false,
        );
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Rint, 1));
        // Exact pairs into hif8 (cpu only) accept every mode silently (§3.3).
        let r = resolve(
            Profile::Cpu,
            F4E2M1x2,
            Hif8,
            Some(RoundMode::Floor),
            None,
            false,
        );
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Round, 0));
        let r = resolve(Profile::A2a3, I32, F16, Some(RoundMode::Trunc), None, false);
        assert_eq!(r.mode, RoundMode::Rint);
        assert_eq!(
            r.diags,
            vec![ResolveDiag::RmodeIgnored {
                requested: RoundMode::Trunc
            }]
        );
    }

    #[test]
    fn hardware_mode_table_of_section_3_3() {
        use crate::target::tcvt::supported_pairs;
        let five = [
            RoundMode::Rint,
            RoundMode::Round,
            RoundMode::Floor,
            RoundMode::Ceil,
            RoundMode::Trunc,
        ];
        for p in [Profile::A2a3, Profile::A5] {
            for (s, d) in supported_pairs(p) {
                let special = d == Hif8
                    || (p == Profile::A5 && s == F32 && matches!(d, F8E4M3FN | F8E5M2))
                    || (p == Profile::A2a3 && s == I32 && d == F16);
                for m in five {
                    let r = resolve(p, s, d, Some(m), None, false);
                    if !special {
                        assert_eq!((r.mode, r.diags.len()), (m, 0), "{p} {s}->{d} {m:?}");
                    }
                }
                let odd = resolve(p, s, d, Some(RoundMode::Odd), None, false);
                let honoured = odd.mode == RoundMode::Odd && odd.diags.is_empty();
                assert_eq!(honoured, s == F32 && d == F16, "{p} {s}->{d} ODD");
            }
        }
    }

    #[test]
    fn odd_rules() {
        let r = resolve(Profile::A2a3, F32, F16, Some(RoundMode::Odd), None, false);
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Odd, 0));
        let r = resolve(Profile::A2a3, F32, I32, Some(RoundMode::Odd), None, false);
        assert_eq!(r.mode, RoundMode::Trunc);
        assert_eq!(
            r.diags,
            vec![ResolveDiag::OddUnsupported {
                fallback: RoundMode::Trunc
            }]
        );
        let r = resolve(
            Profile::Cpu,
            F32,
            F8E4M3FN,
            Some(RoundMode::Odd),
            None,
            false,
        );
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Rint, 1));
        let r = resolve(Profile::Cpu, F32, F8E5M2, Some(RoundMode::Odd), None, false);
        assert_eq!((r.mode, r.diags.len()), (RoundMode::Odd, 0));
    }

    #[test]
    fn a2a3_sat_quirk_and_paths() {
        // Explicit OFF on a non-NARROW6 pair without tmp: ignored.
        let r = resolve(Profile::A2a3, F32, F16, None, Some(Sat::Off), false);
        assert_eq!(r.sat, Sat::On);
        assert_eq!(
            r.diags,
            vec![ResolveDiag::SatOffIgnored {
                reason: SatOffReason::NoTmp
            }]
        );
        // With tmp it is honoured (and tmp only forwards it).
        let r = resolve(Profile::A2a3, F32, F16, None, Some(Sat::Off), true);
        assert_eq!((r.sat, r.diags.len()), (Sat::Off, 0));
        assert_eq!(
            tmp_role(Profile::A2a3, F32, F16, &r, Some(Sat::Off), true),
            TmpRole::Unused { forwards_sat: true }
        );
        // Deq: always ON, even with tmp.
        let r = resolve(Profile::A2a3, I32, F16, None, Some(Sat::Off), true);
        assert_eq!(r.sat, Sat::On);
        // a5 honours OFF everywhere.
        let r = resolve(Profile::A5, F32, F16, None, Some(Sat::Off), false);
        assert_eq!((r.sat, r.diags.len()), (Sat::Off, 0));
        // TORCH path.
        let r = resolve(Profile::A2a3, F32, I16, None, None, true);
        assert_eq!((r.sat, r.path), (Sat::Off, CvtPath::Torch));
        assert_eq!(
            tmp_role(Profile::A2a3, F32, I16, &r, None, true),
            TmpRole::TorchScratch(TorchPair::F32ToI16)
        );
        let r = resolve(Profile::A2a3, F16, I8, None, None, false);
        assert_eq!(r.path, CvtPath::Native);
        assert_eq!(
            tmp_role(Profile::A2a3, F16, I8, &r, None, false),
            TmpRole::Suggested
        );
        let r = resolve(Profile::A2a3, F16, I8, None, Some(Sat::On), true);
        assert_eq!(
            tmp_role(Profile::A2a3, F16, I8, &r, Some(Sat::On), true),
            TmpRole::Unused {
                forwards_sat: false
            }
        );
    }
}
