//! Names and effective parameters of one elementwise conversion, as the tools (`ptoc cast`,
//! `ptoc run`) receive them: element-type names (§2.1 spellings), rounding-mode names (§3 tcvt
//! modes), and [`conv_spec`], which resolves a requested (rmode, sat, tmp) on a profile through
//! `target::resolve` (§3.7) into the runtime's [`ConvSpec`].
//!
//! Invariants: [`conv_spec`] never builds a spec for a pair the profile rejects; the returned
//! rounding is never `Hybrid` (resolution never yields NONE, CAST_RINT or H); the resolution's
//! diagnostics are returned as data with [`resolve_diag_code`] / [`resolve_diag_message`] giving
//! the stable code and the verifier's wording, so every tool prints the same warning.

use pto_runtime::{ConvSpec, ElemType, NonSatPath, Rounding};

use super::ExecError;
use crate::diag::Code;
use crate::ir::RoundMode;
use crate::target::resolve::{resolve, CvtPath, ResolveDiag, SatOffReason};
use crate::target::tcvt::{pair_supported, profiles_supporting, Sat};
use crate::target::Profile;

/// Parses an element-type name: the IR spellings of §2.1 (`f32`, `f16`, `bf16`, `f8E4M3FN`,
/// `f8E5M2`, `hif8`/`!pto.hif8`, `f4E2M1x2`/`!pto.f4E2M1x2`, `f4E1M2x2`/`!pto.f4E1M2x2`,
/// `s4x2`/`!pto.s4x2`, `i8`/`si8`, `ui8`, `i16`/`si16`, `ui16`, `i32`/`si32`, `ui32`,
/// `i64`/`si64`). Case-sensitive, as in the IR. `ui64` and 4-bit integer spellings are
/// rejected with a hint.
pub fn parse_elem(name: &str) -> Result<ElemType, ExecError> {
    let bare = name.strip_prefix("!pto.").unwrap_or(name);
    let t = match bare {
        "f32" => ElemType::F32,
        "f16" => ElemType::F16,
        "bf16" => ElemType::BF16,
        "f8E4M3FN" => ElemType::F8E4M3FN,
        "f8E5M2" => ElemType::F8E5M2,
        "hif8" => ElemType::Hif8,
        "f4E2M1x2" => ElemType::F4E2M1x2,
        "f4E1M2x2" => ElemType::F4E1M2x2,
        "s4x2" => ElemType::S4x2,
        "i8" | "si8" => ElemType::I8,
        "ui8" => ElemType::U8,
        "i16" | "si16" => ElemType::I16,
        "ui16" => ElemType::U16,
        "i32" | "si32" => ElemType::I32,
        "ui32" => ElemType::U32,
        "i64" | "si64" => ElemType::I64,
        _ => {
            let hint = match bare {
                "ui64" | "u64" => " (ui64 takes part in no conversion)",
                "i4" | "si4" | "ui4" => " (4-bit integers are the packed !pto.s4x2)",
                "f8E4M3" | "f8E4M3FNUZ" | "f8E4M3B11FNUZ" => " (the only E4M3 flavour is f8E4M3FN)",
                "u8" | "u16" | "u32" => " (unsigned integers are spelled ui8, ui16, ui32)",
                "f64" => " (f64 takes part in no conversion)",
                _ => {
                    " (expected one of f32 f16 bf16 f8E4M3FN f8E5M2 hif8 f4E2M1x2 f4E1M2x2 \
                     s4x2 i8 ui8 i16 ui16 i32 ui32 i64)"
                }
            };
            return Err(ExecError::UnknownElemType {
                name: name.to_string(),
                hint,
            });
        }
    };
    Ok(t)
}

/// Parses a tcvt rounding-mode name (`NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT`, any
/// case). `H`/`HYBRID` is recognised and refused as not executable.
pub fn parse_rmode(name: &str) -> Result<RoundMode, ExecError> {
    let upper = name.to_ascii_uppercase();
    if let Some(m) = RoundMode::from_ptoas(&upper) {
        return Ok(m);
    }
    match upper.as_str() {
        "H" | "HYBRID" | "CAST_HYBRID" | "ROUND_H" => Err(ExecError::HybridUnsupported),
        _ => Err(ExecError::UnknownRoundMode {
            name: name.to_string(),
        }),
    }
}

/// The runtime rounding of a resolved mode (`None` for NONE/CAST_RINT, which resolution
/// replaces).
pub fn rounding_of(mode: RoundMode) -> Option<Rounding> {
    Some(match mode {
        RoundMode::Rint => Rounding::Rint,
        RoundMode::Round => Rounding::Round,
        RoundMode::Floor => Rounding::Floor,
        RoundMode::Ceil => Rounding::Ceil,
        RoundMode::Trunc => Rounding::Trunc,
        RoundMode::Odd => Rounding::Odd,
        RoundMode::None | RoundMode::CastRint => return None,
    })
}

/// The runtime non-saturating path of a resolved float→int path.
pub fn nonsat_path_of(path: CvtPath) -> NonSatPath {
    match path {
        CvtPath::X86 => NonSatPath::X86,
        CvtPath::Native => NonSatPath::Native,
        CvtPath::Torch => NonSatPath::Torch,
    }
}

/// Resolves a conversion on `profile` (§3.7): the pair must be accepted by the profile (else
/// [`ExecError::PairUnsupported`] listing the profiles that accept it); `rmode`/`sat` are the
/// requested attributes (`None` = omitted, so the profile's defaults apply), `has_tmp` whether a
/// tmp operand is present. Returns the effective spec and the diagnostics resolution implies.
pub fn conv_spec(
    profile: Profile,
    src: ElemType,
    dst: ElemType,
    rmode: Option<RoundMode>,
    sat: Option<Sat>,
    has_tmp: bool,
) -> Result<(ConvSpec, Vec<ResolveDiag>), ExecError> {
    if !pair_supported(profile, src, dst) {
        return Err(ExecError::PairUnsupported {
            profile,
            src: src.to_string(),
            dst: dst.to_string(),
            accepted_by: profiles_supporting(src, dst),
        });
    }
    let r = resolve(profile, src, dst, rmode, sat, has_tmp);
    // resolve never returns NONE/CAST_RINT; map defensively rather than panic.
    let rounding = rounding_of(r.mode).unwrap_or(Rounding::Rint);
    let spec = ConvSpec {
        src,
        dst,
        rounding,
        sat: r.sat == Sat::On,
        path: nonsat_path_of(r.path),
    };
    Ok((spec, r.diags))
}

/// The stable code of a resolution diagnostic (all warnings, §8).
pub fn resolve_diag_code(d: &ResolveDiag) -> Code {
    match d {
        ResolveDiag::RmodeForced { .. } => Code::TcvtRmodeForced,
        ResolveDiag::OddUnsupported { .. } => Code::TcvtOddUnsupported,
        ResolveDiag::RmodeIgnored { .. } => Code::TcvtRmodeIgnored,
        ResolveDiag::SatOffIgnored { .. } => Code::TcvtSatOffIgnored,
    }
}

/// The message of a resolution diagnostic, in the verifier's wording.
pub fn resolve_diag_message(
    d: &ResolveDiag,
    profile: Profile,
    src: impl std::fmt::Display,
    dst: impl std::fmt::Display,
) -> String {
    match *d {
        ResolveDiag::RmodeForced { requested, forced } => format!(
            "rmode {} is replaced by {} for tcvt from {src} to {dst} on {profile}",
            requested.as_str(),
            forced.as_str()
        ),
        ResolveDiag::OddUnsupported { fallback } => format!(
            "rmode ODD is not available for tcvt from {src} to {dst} on {profile}; the default {} is used",
            fallback.as_str()
        ),
        ResolveDiag::RmodeIgnored { requested } => format!(
            "rmode {} has no effect on a2a3 tcvt from {src} to {dst}; the deq path always rounds RINT",
            requested.as_str()
        ),
        ResolveDiag::SatOffIgnored { reason } => format!(
            "satmode OFF is ignored for tcvt from {src} to {dst} on a2a3 {}; ON is used",
            match reason {
                SatOffReason::Deq => "(the deq path always saturates)",
                SatOffReason::NoTmp => "without a tmp operand",
            }
        ),
    }
}

/// `warning[Wxxxx]: message` (one line, no newline) for a resolution diagnostic.
pub fn render_resolve_diag(
    d: &ResolveDiag,
    profile: Profile,
    src: impl std::fmt::Display,
    dst: impl std::fmt::Display,
) -> String {
    let code = resolve_diag_code(d);
    format!(
        "{}[{}]: {}",
        code.default_severity().as_str(),
        code.as_str(),
        resolve_diag_message(d, profile, src, dst)
    )
}

/// The runtime placement of a vcvt part attribute.
pub fn runtime_part(p: crate::ir::attrs::Part) -> pto_runtime::value::Part {
    use crate::ir::attrs::Part;
    use pto_runtime::value::Part as V;
    match p {
        Part::Even => V::Even,
        Part::Odd => V::Odd,
        Part::P0 => V::P0,
        Part::P1 => V::P1,
        Part::P2 => V::P2,
        Part::P3 => V::P3,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ir_spelling_parses_and_names_round_trip() {
        for t in ElemType::ALL {
            assert_eq!(parse_elem(t.ir_name()), Ok(t), "{t}");
        }
        assert_eq!(parse_elem("si8"), Ok(ElemType::I8));
        assert_eq!(parse_elem("si64"), Ok(ElemType::I64));
        assert_eq!(parse_elem("hif8"), Ok(ElemType::Hif8));
        assert_eq!(parse_elem("s4x2"), Ok(ElemType::S4x2));
        assert_eq!(parse_elem("f4E1M2x2"), Ok(ElemType::F4E1M2x2));
        for bad in ["ui64", "i4", "F32", "", "!pto.", "f8E4M3", "u8"] {
            assert!(
                matches!(parse_elem(bad), Err(ExecError::UnknownElemType { .. })),
                "{bad}"
            );
        }
        let msg = parse_elem("ui64").map_err(|e| e.to_string());
        assert!(msg.is_err_and(|m| m.contains("ui64 takes part in no conversion")));
    }

    #[test]
    fn rmode_names() {
        for m in RoundMode::ALL {
            assert_eq!(parse_rmode(m.as_str()), Ok(m));
        }
        assert_eq!(parse_rmode("rint"), Ok(RoundMode::Rint));
        assert_eq!(parse_rmode("H"), Err(ExecError::HybridUnsupported));
        assert!(matches!(
            parse_rmode("NEAREST"),
            Err(ExecError::UnknownRoundMode { .. })
        ));
    }

    #[test]
    fn specs_follow_resolution() {
        use ElemType::*;
        // cpu defaults: RINT, sat OFF, X86.
        let (s, d) =
            conv_spec(Profile::Cpu, F32, I16, None, None, false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (s.rounding, s.sat, s.path, d.len()),
            (Rounding::Rint, false, NonSatPath::X86, 0)
        );
        // a2a3: f32->i16 is NARROW6 (sat OFF by default), NATIVE without tmp, TORCH with.
        let (s, _) =
            conv_spec(Profile::A2a3, F32, I16, None, None, false).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.sat, s.path), (false, NonSatPath::Native));
        let (s, _) =
            conv_spec(Profile::A2a3, F32, I16, None, None, true).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.sat, s.path), (false, NonSatPath::Torch));
        // a2a3 sat OFF ignored on f32->i32 without tmp.
        let (s, d) = conv_spec(Profile::A2a3, F32, I32, None, Some(Sat::Off), false)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(s.sat);
        assert_eq!(d.len(), 1);
        assert_eq!(resolve_diag_code(&d[0]), Code::TcvtSatOffIgnored);
        assert!(render_resolve_diag(&d[0], Profile::A2a3, F32, I32).starts_with("warning[W0204]: "));
        // a5 forces RINT for f32->fp8.
        let (s, d) = conv_spec(
            Profile::A5,
            F32,
            F8E4M3FN,
            Some(RoundMode::Floor),
            None,
            false,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((s.rounding, d.len()), (Rounding::Rint, 1));
        // Unsupported pair: the error names the profiles that accept it.
        let e = conv_spec(Profile::A2a3, F32, F8E4M3FN, None, None, false);
        assert_eq!(
            e,
            Err(ExecError::PairUnsupported {
                profile: Profile::A2a3,
                src: "f32".to_string(),
                dst: "f8E4M3FN".to_string(),
                accepted_by: vec![Profile::Cpu, Profile::A5]
            })
        );
        assert!(e.is_err_and(|e| !e.is_usage() && e.to_string().contains("accepted by: cpu, a5")));
    }
}
