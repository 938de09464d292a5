//! Errors, warnings and notes raised by the target rules; each variant knows its [`Code`].
//!
//! Messages follow syntax.md §8.1: lowercase start, no final period, modes as printed. Element
//! types of operands are spelled as the user wrote them (syntax.md §3.7: `si16` stays `si16`,
//! `i16` stays `i16`; the verifier passes the printed IR scalar type), never normalised through
//! `ElemType::ir_name`. Fields hold that text so the rendering is fixed here and nowhere else.

use crate::diag::clip::{clip, Echo, PHRASE_MAX};
use crate::diag::Code;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuleError {
    // ---- element types, operand kinds, shapes
    #[error(
        "{op} {role} element type '{}' is not supported by conversions",
        Echo(ty)
    )]
    UnsupportedElemType {
        op: &'static str,
        role: &'static str,
        ty: String,
    },
    #[error(
        "pto.tcvt {role} must be a rank-2 !pto.tile_buf or !pto.tile, found '{}'",
        clip(ty, PHRASE_MAX)
    )]
    TcvtOperandNotTile { role: &'static str, ty: String },
    #[error("pto.tcvt {role}: valid {dim} {valid} exceeds {dim}s {extent}")]
    TileValidExceedsShape {
        role: &'static str,
        dim: &'static str,
        valid: u64,
        extent: u64,
    },
    #[error("pto.tcvt src and dst must have the same logical shape, found {src} and {dst}")]
    TcvtShapeMismatch { src: String, dst: String },
    #[error("pto.tcvt src and dst must have the same logical valid shape, found {src} and {dst}")]
    TcvtValidShapeMismatch { src: String, dst: String },
    // ---- pair and modes
    #[error("tcvt from {src} to {dst} is not supported on {profile}")]
    TcvtPairUnsupported {
        src: String,
        dst: String,
        profile: String,
    },
    #[error("rmode {requested} is replaced by {forced} for tcvt from {src} to {dst} on {profile}")]
    TcvtRmodeForced {
        requested: &'static str,
        forced: &'static str,
        src: String,
        dst: String,
        profile: String,
    },
    #[error(
        "rmode ODD is not available for tcvt from {src} to {dst} on {profile}; the default {fallback} is used"
    )]
    TcvtOddUnsupported {
        src: String,
        dst: String,
        profile: String,
        fallback: &'static str,
    },
    #[error("rmode {requested} has no effect on a2a3 tcvt from {src} to {dst}; the deq path always rounds RINT")]
    TcvtRmodeIgnored {
        requested: &'static str,
        src: String,
        dst: String,
    },
    #[error("satmode OFF is ignored for tcvt from {src} to {dst} on a2a3 {reason}; ON is used")]
    TcvtSatOffIgnored {
        src: String,
        dst: String,
        /// "without a tmp operand" / "(the deq path always saturates)".
        reason: &'static str,
    },
    // ---- tmp
    #[error("the tcvt tmp operand has no effect on cpu")]
    TcvtTmpIgnored,
    #[error("the tcvt tmp operand is not used by tcvt from {src} to {dst} on {profile}{extra}")]
    TcvtTmpUnused {
        src: String,
        dst: String,
        profile: String,
        /// Empty, or the a2a3 sat-forwarding remark.
        extra: &'static str,
    },
    #[error(
        "tcvt from {src} to {dst} with satmode OFF and no tmp uses the native conversion on a2a3; a tmp operand selects the PyTorch-compatible path"
    )]
    TcvtTmpSuggested { src: String, dst: String },
    #[error("tcvt from {src} to {dst} on {profile} leaves {omitted} to the toolchain, and toolchains disagree: {witness}; choose with --defaults pto-isa|ptoas-0.61|ptoas-0.63")]
    TcvtDefaultDependent {
        src: &'static str,
        dst: &'static str,
        profile: &'static str,
        omitted: &'static str,
        /// Formatted once per distinct (profile, pair, modes) and shared by every op with it:
        /// a kernel of 100k such ops stays cheap.
        witness: std::sync::Arc<str>,
    },
    /// PTOAS's wording, then ptoc's detail (E0211).
    #[error("requires explicit tmp for non-saturating narrowing tcvt when PlanMemory is skipped (--pto-level=level3; tcvt from {src} to {dst} with satmode OFF on a2a3)")]
    TcvtTmpRequired { src: String, dst: String },
    #[error("pto.tcvt tmp must be a loc=vec tile, found loc={loc}")]
    TcvtTmpNotVec { loc: &'static str },
    #[error("tcvt tmp capacity must be at least {need} bytes, found {found}")]
    TcvtTmpTooSmall { need: u128, found: u128 },
    #[error(
        "dst valid shape is dynamic; tcvt tmp capacity is checked against the worst case of {need} bytes"
    )]
    TcvtTmpBoundDynamic { need: u128 },
    #[error("pto.tcvt {role} is in loc={loc}, not loc=vec; tcvt runs on the vector pipe")]
    TcvtLocNotVec {
        role: &'static str,
        loc: &'static str,
    },
    #[error(
        "results of tcvt from {src} to {dst} with satmode OFF are target-defined on hardware for Inf, NaN and out-of-range inputs; ptoc uses the {convention} convention{extra}"
    )]
    NonsatTargetDefined {
        src: String,
        dst: String,
        convention: &'static str,
        /// The profile's `nonsat.note_extra` (empty, or the a5 PyTorch-path remark).
        extra: &'static str,
    },
    #[error("NaN inputs of tcvt from {src} to {dst} become +0 (fp4 has no NaN)")]
    Fp4NanToZero { src: String, dst: String },
    // ---- vcvt
    #[error(
        "pto.vcvt {role} must be a !pto.vreg, found '{}'",
        clip(ty, PHRASE_MAX)
    )]
    VcvtNotVreg { role: &'static str, ty: String },
    #[error("!pto.vreg must hold exactly 256 bytes; {lanes}x{elem} holds {bytes}")]
    VregSize {
        lanes: u64,
        elem: String,
        bytes: u128,
    },
    #[error(
        "pto.vcvt source and result must hold the same number of bits, found {src_bits} and {dst_bits}"
    )]
    VregTotalBits { src_bits: u128, dst_bits: u128 },
    #[error("pto.vcvt has no contract for {src} to {dst}")]
    VcvtNoContract { src: String, dst: String },
    #[error("vcvt from {src} to {dst} is not available on {profile}")]
    VcvtPairUnavailable {
        src: String,
        dst: String,
        profile: String,
    },
    #[error(
        "pto.vcvt mask must be !pto.mask<b{expected}> for {src} input, found '{}'",
        clip(found, PHRASE_MAX)
    )]
    VcvtMaskGranularity {
        expected: u32,
        src: String,
        found: String,
    },
    #[error("{attr} attr is not valid for this vcvt type pair ({src} to {dst})")]
    VcvtAttrForbidden {
        attr: &'static str,
        src: String,
        dst: String,
    },
    #[error("requires part attr for this vcvt type pair ({src} to {dst}); expected {expected}")]
    VcvtPartRequired {
        src: String,
        dst: String,
        expected: &'static str,
    },
    /// PTOAS's own text (`PartFamily::ptoas_message`).
    #[error("{message}")]
    VcvtPartFamily { message: &'static str },
    #[error("rnd '{rnd}' is not allowed for vcvt from {src} to {dst}; expected one of {allowed}")]
    VcvtRndNotAllowed {
        rnd: &'static str,
        src: String,
        dst: String,
        allowed: String,
    },
    #[error("{attr} is omitted; PTOAS requires {attr} here; ptoc uses {default}")]
    VcvtAttrDefaulted {
        attr: &'static str,
        default: &'static str,
    },
    #[error("rnd 'H' (hybrid rounding) is accepted but cannot be executed by ptoc's interpreter")]
    RoundingHybridUnsupported,
    // ---- pto.convert (PTOAS `verifyConvertControls`; messages keep PTOAS's words)
    #[error(
        "pto.convert requires i32, i64, f16, bf16, f32 or supported vector<2xT> conversion types; {role} is '{}'",
        clip(ty, PHRASE_MAX)
    )]
    ConvertTypeUnsupported { role: &'static str, ty: String },
    #[error("pto.convert does not support integer-to-integer conversion ({src} -> {dst})")]
    ConvertIntToInt { src: String, dst: String },
    #[error("pto.convert requires signedness when converting to or from integer type ({src} -> {dst}); write `signed` or `unsigned`")]
    ConvertSignednessRequired { src: String, dst: String },
    /// `what`: "floating-to-floating" or "packed floating" (PTOAS's two messages).
    #[error("pto.convert does not accept signedness for {what} conversion ({src} -> {dst})")]
    ConvertSignednessForbidden {
        what: &'static str,
        src: String,
        dst: String,
    },
    #[error("pto.convert takes one of `signed` and `unsigned`, not both")]
    ConvertSignednessConflict,
    /// `what`: "mixed integer and packed" or "mixed scalar and packed".
    #[error("pto.convert does not support {what} conversion ({src} -> {dst})")]
    ConvertMixedPacked {
        what: &'static str,
        src: String,
        dst: String,
    },
    /// PTOAS's message for the pair (`target::convert::unsupported_pair_message`).
    #[error("pto.convert {message} ({src} -> {dst})")]
    ConvertPairUnsupported {
        message: &'static str,
        src: String,
        dst: String,
    },
    #[error("pto.convert {message} ({src} -> {dst}); write `sat`")]
    ConvertSatRequired {
        message: &'static str,
        src: String,
        dst: String,
    },
    #[error("pto.convert {message}; found round({rnd}) ({src} -> {dst})")]
    ConvertRndNotAllowed {
        message: &'static str,
        rnd: &'static str,
        src: String,
        dst: String,
    },
    #[error("round(h) (hybrid rounding) is accepted but cannot be executed by ptoc's interpreter")]
    ConvertHybridUnsupported,
}

/// Errors of the tcvt/vcvt/convert rules are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<RuleError> for crate::diag::DiagKind {
    fn from(e: RuleError) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

impl RuleError {
    pub fn code(&self) -> Code {
        use RuleError::*;
        match self {
            UnsupportedElemType { .. } => Code::UnsupportedElemType,
            TcvtOperandNotTile { .. } => Code::TcvtOperandNotTile,
            TileValidExceedsShape { .. } => Code::TileValidExceedsShape,
            TcvtShapeMismatch { .. } => Code::TcvtShapeMismatch,
            TcvtValidShapeMismatch { .. } => Code::TcvtValidShapeMismatch,
            TcvtPairUnsupported { .. } => Code::TcvtPairUnsupported,
            TcvtRmodeForced { .. } => Code::TcvtRmodeForced,
            TcvtOddUnsupported { .. } => Code::TcvtOddUnsupported,
            TcvtRmodeIgnored { .. } => Code::TcvtRmodeIgnored,
            TcvtSatOffIgnored { .. } => Code::TcvtSatOffIgnored,
            TcvtTmpIgnored => Code::TcvtTmpIgnored,
            TcvtTmpUnused { .. } => Code::TcvtTmpUnused,
            TcvtTmpSuggested { .. } => Code::TcvtTmpSuggested,
            TcvtTmpRequired { .. } => Code::TcvtTmpRequired,
            TcvtDefaultDependent { .. } => Code::TcvtDefaultDependent,
            TcvtTmpNotVec { .. } => Code::TcvtTmpNotVec,
            TcvtTmpTooSmall { .. } => Code::TcvtTmpTooSmall,
            TcvtTmpBoundDynamic { .. } => Code::TcvtTmpBoundDynamic,
            TcvtLocNotVec { .. } => Code::TcvtLocNotVec,
            NonsatTargetDefined { .. } => Code::NonsatTargetDefined,
            Fp4NanToZero { .. } => Code::Fp4NanToZero,
            VcvtNotVreg { .. } => Code::VcvtNotVreg,
            VregSize { .. } | VregTotalBits { .. } => Code::VregSize,
            VcvtNoContract { .. } | VcvtPairUnavailable { .. } => Code::VcvtPairUnsupported,
            VcvtMaskGranularity { .. } => Code::VcvtMaskGranularity,
            VcvtAttrForbidden { .. } => Code::VcvtAttrForbidden,
            VcvtPartRequired { .. } => Code::VcvtPartRequired,
            VcvtPartFamily { .. } => Code::VcvtPartFamily,
            VcvtRndNotAllowed { .. } => Code::VcvtRndNotAllowed,
            VcvtAttrDefaulted { .. } => Code::VcvtAttrDefaulted,
            RoundingHybridUnsupported | ConvertHybridUnsupported => Code::RoundingHybridUnsupported,
            ConvertTypeUnsupported { .. } => Code::ConvertTypeUnsupported,
            ConvertIntToInt { .. } => Code::ConvertIntToInt,
            ConvertSignednessRequired { .. } => Code::ConvertSignednessRequired,
            ConvertSignednessForbidden { .. } => Code::ConvertSignednessForbidden,
            ConvertSignednessConflict => Code::ConvertSignednessConflict,
            ConvertMixedPacked { .. } => Code::ConvertMixedPacked,
            ConvertPairUnsupported { .. } => Code::ConvertPairUnsupported,
            ConvertSatRequired { .. } => Code::ConvertSatRequired,
            ConvertRndNotAllowed { .. } => Code::ConvertRndNotAllowed,
        }
    }
}
