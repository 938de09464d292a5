//! Parse-time errors (syntax.md §8-9), as structured data. Each variant knows its [`Code`].
//!
//! Invariant: the `Display` text of a variant is the diagnostic message, written in the style of
//! syntax.md §8.1 (lowercase start, no final period, source text quoted). Source text is
//! echoed through `diag::clip` (bounded, control characters escaped); `found` descriptions come
//! from `Tok::describe`, which already clips.

use crate::diag::clip::{clip, Echo, PHRASE_MAX};
use crate::diag::Code;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ParseError {
    /// `expected <set>, found <token>` (syntax.md §8.1). `expected` is already sorted and
    /// de-duplicated, or a single label such as `type`.
    #[error("expected {}, found {found}", join_alternatives(expected))]
    Expected {
        expected: Vec<String>,
        found: String,
    },
    #[error("expected element type after dimension list, found {found}")]
    MissingElemType { found: String },
    #[error(
        "expected a dimension list, found hex integer {}; zero-sized dimensions are not allowed",
        Echo(text)
    )]
    HexDims { text: String },
    #[error("expected key '{expected}', found {found} (legacy tile_buf keys are ordered loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad[, compact])")]
    LegacyKeyOrder { expected: String, found: String },
    #[error("integer literal out of range")]
    IntegerOutOfRange,
    #[error(
        "result number must directly follow the value name, as in {}#{}",
        Echo(name),
        Echo(number)
    )]
    ResultNumberSpacing { name: String, number: String },
    #[error("result number not allowed in a definition")]
    ResultNumberInDefinition,
    /// A word that cannot start a statement after the trailing `loc(...)` of an opaque op:
    /// without the `loc` it would continue that op, so `fmt` (which drops locations) would
    /// change the program.
    #[error("'{}' cannot follow the trailing location of '{}': a location ends its operation, and an operation name needs a dialect prefix", Echo(word), Echo(op))]
    AfterTrailingLoc { op: String, word: String },
    #[error("'{}' defines {defined} result{} but {given} name{} given", Echo(op), plural(*defined), if *given == 1 { " was" } else { "s were" })]
    ResultCountMismatch {
        op: String,
        defined: usize,
        given: usize,
    },
    #[error("unknown operation '{}' in custom form; ptoc keeps unknown ops only in generic form, e.g. {}", Echo(name), clip(example, PHRASE_MAX))]
    UnknownCustomOp { name: String, example: String },
    #[error("{what} are not supported")]
    Unsupported { what: String },
    #[error("positional !pto.tile syntax is not supported; write !pto.tile<vec, 16x16xf32>")]
    PositionalTile,
    #[error("function body must end with 'return'")]
    MissingReturn,
    #[error("'return' must be the last operation of a function body")]
    ReturnNotLast,
    #[error("'return' is not allowed inside pto.vecscope")]
    ReturnInVecscope,
    #[error("cannot mix named and unnamed function arguments")]
    MixedArgs,
    #[error("named function arguments need a body")]
    NamedArgsNeedBody,
    #[error("duplicate attribute '{}'", Echo(key))]
    DuplicateAttribute { key: String },
    #[error("duplicate key '{}' in compact tile_buf", Echo(key))]
    DuplicateTileBufKey { key: String },
    #[error("unknown key '{}' in compact tile_buf; expected valid, blayout, slayout, fractal, pad or compact", Echo(key))]
    UnknownTileBufKey { key: String },
    #[error("unknown attribute '{}' on '{}'{}", Echo(key), Echo(op), suggestion.as_ref().map(|s| format!("; did you mean '{}'?", Echo(s))).unwrap_or_default())]
    UnknownAttribute {
        key: String,
        op: String,
        suggestion: Option<String>,
    },
    #[error("unknown type '{}'{}", Echo(name), hint.as_ref().map(|h| format!("; did you mean '{}'?", Echo(h))).unwrap_or_default())]
    UnknownType { name: String, hint: Option<String> },
    /// A type parameter outside its domain (syntax.md §3); the message names the rule.
    #[error("{message}")]
    TypeDomain { message: String },
    #[error("valid {which} {value} exceeds {which}s {extent}")]
    ValidExceeds {
        which: &'static str,
        value: u64,
        extent: u64,
    },
    #[error("!pto.vreg must hold exactly 256 bytes; {} holds {bytes}", Echo(shape))]
    VregSize { shape: String, bytes: u128 },
    #[error("unknown round mode '{0}' in #pto.round_mode<...>; the ISA spelling uses CAST_ names: write #pto.round_mode<CAST_{0}> or #pto<round_mode {0}>", Echo(name))]
    RoundModeIsaMixed { name: String },
    #[error("unknown round mode '{}' in #pto.round_mode<...>; expected one of CAST_NONE, CAST_RINT, CAST_ROUND, CAST_FLOOR, CAST_CEIL, CAST_TRUNC, CAST_ODD", Echo(name))]
    UnknownIsaRoundMode { name: String },
    #[error("unknown round mode '{}'; expected one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT", Echo(name))]
    UnknownRoundMode { name: String },
    #[error("rmode expects #pto<round_mode X>")]
    RmodeKind,
    #[error("satmode expects #pto<saturation_mode ON|OFF>")]
    SatmodeKind,
    #[error("unknown saturation mode '{}'; expected ON or OFF", Echo(name))]
    UnknownSatMode { name: String },
    #[error("cannot specify both 'satmode' and 'sat_mode'")]
    SatKeysBoth,
    #[error("rnd and round_mode cannot be specified together")]
    RndKeysBoth,
    #[error("{} must be a string literal", Echo(key))]
    VcvtAttrNotString { key: String },
    #[error(
        "{} has unsupported value '{}'; expected {expected}",
        Echo(key),
        Echo(value)
    )]
    VcvtAttrValue {
        key: String,
        value: String,
        expected: &'static str,
    },
    #[error("attributes given both inside ins(...) and after outs(...); keep one")]
    TcvtAttrsBoth,
    #[error("pto.tcvt in SSA form must define exactly one result")]
    TcvtSsaResults,
    #[error("pto.tcvt in DPS form has no results")]
    TcvtDpsResults,
    #[error("expected {expected} operand types, found {found}")]
    OperandTypeCount { expected: usize, found: usize },
    #[error("'{}' expects {expected} operands, found {found}", Echo(op))]
    OperandCount {
        op: String,
        expected: String,
        found: usize,
    },
    #[error("'{}' in generic form: {message}", Echo(op))]
    GenericForm { op: String, message: String },
    /// Two pieces of a catalog op that its row says share one type (`arith.addi`).
    /// `pieces`: `$lhs and $rhs, found i32 and f32`.
    #[error("'{op}' requires one type for {pieces}")]
    OpTypeAgreement { op: String, pieces: String },
    /// A warning (D-6 as revised): PTOAS falls back rather than failing.
    #[error("unknown pto.target_arch \"{}\"; expected \"a2\", \"a2a3\", \"a3\", \"a5\", \"a6\" or \"cpu\"; using {using}", Echo(value))]
    UnknownTargetArch { value: String, using: String },
    /// A note: an arch name that stands for another arch's rules (`a6`, PTOAS forks).
    #[error("pto.target_arch \"{}\" is verified with the {profile} rules (PTOAS forks name an a5 variant a6)", Echo(value))]
    TargetArchAlias { value: String, profile: String },
    #[error("pto.target_arch must be a string literal")]
    TargetArchNotString,
    #[error("too many errors; stopping")]
    TooManyErrors,
    // --- aliases (user guide, "Aliases and locations") ---
    #[error("undefined alias '{}': expected {expected}", Echo(name))]
    UndefinedAlias {
        name: String,
        expected: &'static str,
    },
    #[error(
        "alias '{}' is a location: expected an attribute, found a location alias",
        Echo(name)
    )]
    LocationAliasAsAttribute { name: String },
    #[error(
        "alias '{}' refers to itself: expected a value that uses only aliases defined before it",
        Echo(name)
    )]
    AliasSelfReference { name: String },
    #[error(
        "redefinition of alias '{}': expected a new alias name, found one already defined",
        Echo(name)
    )]
    AliasRedefinition { name: String },
    #[error("alias name '{}' contains '.': expected a name without '.' (dotted names belong to dialects)", Echo(name))]
    AliasDottedName { name: String },
    #[error("alias definition '{}' inside a module body or region: expected an operation; define aliases at the top level of the file", Echo(name))]
    AliasNotTopLevel { name: String },
    // --- assembly mode (syntax.md §6.2) ---
    #[error("only PTO.vcvt is supported in assembly mode; write other instructions in .pto form")]
    AsmUnsupported,
    #[error("PTO.vcvt needs a type signature in assembly mode, e.g. ': !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>'")]
    AsmMissingTypes,
    #[error("position {position} of PTO.vcvt is the {what} mode; expected {expected} or NONE, found '{}'", Echo(found))]
    AsmMode {
        position: usize,
        what: &'static str,
        expected: &'static str,
        found: String,
    },
    #[error("PTO.vcvt takes at most three mode operands (rnd, sat, part) after dst, src and mask")]
    AsmExtraOperand,
    #[error(
        "register '{}' holds {} (line {line}) but is used as {}",
        Echo(reg),
        Echo(held),
        Echo(used)
    )]
    AsmRegisterType {
        reg: String,
        held: String,
        line: usize,
        used: String,
    },
    #[error("'.func' must be the first line of an assembly file")]
    AsmFuncPlacement,
}

/// Errors of the parser are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<ParseError> for crate::diag::DiagKind {
    fn from(e: ParseError) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl ParseError {
    pub fn code(&self) -> Code {
        use ParseError as E;
        match self {
            E::Expected { .. }
            | E::MissingElemType { .. }
            | E::HexDims { .. }
            | E::LegacyKeyOrder { .. }
            | E::ResultNumberInDefinition
            | E::AfterTrailingLoc { .. } => Code::Syntax,
            E::IntegerOutOfRange => Code::IntegerOutOfRange,
            E::ResultNumberSpacing { .. } => Code::ResultNumberSpacing,
            E::ResultCountMismatch { .. } => Code::ResultCountMismatch,
            E::UnknownCustomOp { .. } => Code::UnknownOperation,
            E::Unsupported { .. } | E::PositionalTile => Code::UnsupportedConstruct,
            E::MissingReturn
            | E::ReturnNotLast
            | E::ReturnInVecscope
            | E::MixedArgs
            | E::NamedArgsNeedBody => Code::FunctionBody,
            E::DuplicateAttribute { .. } | E::DuplicateTileBufKey { .. } => {
                Code::DuplicateAttribute
            }
            E::UnknownAttribute { .. } => Code::UnknownAttribute,
            E::UnknownType { .. } | E::TypeDomain { .. } | E::UnknownTileBufKey { .. } => {
                Code::InvalidType
            }
            E::ValidExceeds { .. } => Code::TileValidExceedsShape,
            E::VregSize { .. } => Code::VregSize,
            E::RoundModeIsaMixed { .. }
            | E::UnknownIsaRoundMode { .. }
            | E::UnknownRoundMode { .. }
            | E::RmodeKind
            | E::SatmodeKind
            | E::UnknownSatMode { .. } => Code::InvalidAttributeValue,
            E::SatKeysBoth => Code::TcvtSatAttrConflict,
            E::RndKeysBoth => Code::VcvtRndAliasConflict,
            E::VcvtAttrNotString { .. } | E::VcvtAttrValue { .. } => Code::VcvtAttrBadToken,
            E::TcvtAttrsBoth
            | E::TcvtSsaResults
            | E::TcvtDpsResults
            | E::OperandTypeCount { .. }
            | E::OperandCount { .. }
            | E::GenericForm { .. }
            | E::OpTypeAgreement { .. } => Code::OpForm,
            E::UnknownTargetArch { .. } => Code::UnknownTargetArch,
            E::TargetArchAlias { .. } => Code::TargetArchAlias,
            E::TargetArchNotString => Code::UnknownProfile,
            E::TooManyErrors => Code::TooManyErrors,
            E::UndefinedAlias { .. } | E::LocationAliasAsAttribute { .. } => Code::UndefinedAlias,
            E::AliasSelfReference { .. }
            | E::AliasRedefinition { .. }
            | E::AliasDottedName { .. }
            | E::AliasNotTopLevel { .. } => Code::AliasDefinition,
            E::AsmUnsupported | E::AsmFuncPlacement => Code::AsmUnsupportedInstruction,
            E::AsmMissingTypes => Code::AsmMissingTypes,
            E::AsmMode { .. } | E::AsmExtraOperand => Code::VcvtAsmOperand,
            E::AsmRegisterType { .. } => Code::AsmRegisterTypeConflict,
        }
    }
}

/// `a`, `a or b`, `a, b or c`.
pub fn join_alternatives(items: &[String]) -> String {
    match items {
        [] => "something else".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}
