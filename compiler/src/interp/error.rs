//! Errors of the reference interpreter: each is structured data with the span of the op (or
//! argument) it concerns and a stable [`Code`] (semantics.md §8: `runtime-valid-shape`,
//! `runtime-tmp-too-small`, `rounding-hybrid-unsupported` with error severity at run time,
//! `convert-not-executable` for a `pto.convert` the exact core does not implement, and
//! `interp-unsupported` for ops and values the interpreter does not execute).

use pto_runtime::value::ValueError;
use pto_runtime::ElemType;

use crate::diag::clip::Echo;
use crate::diag::{Code, Severity, Span};

/// What went wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum InterpErrorKind {
    /// An op the interpreter does not execute.
    #[error("'{}' cannot be executed by ptoc's interpreter (it runs tile allocation, pto.tcvt, pto.vcvt, pto.convert, pto.vor, pto.pset_*/pto.plt_*, arith.constant integers, pto.vecscope and return)", Echo(op))]
    UnsupportedOp { op: String },
    /// An op ptoc does not know at all (read as an opaque statement).
    #[error("'{}' is not an operation ptoc knows (it was read as an opaque statement); the interpreter cannot execute it", Echo(op))]
    OpaqueOp { op: String },
    /// An op the interpreter knows, in a form or with a type it cannot execute.
    #[error("'{}': {reason}", Echo(op))]
    Unsupported { op: String, reason: String },
    /// `runtime-valid-shape`.
    #[error("{op}: {source}")]
    ValidShape {
        op: String,
        #[source]
        source: ValueError,
    },
    /// `runtime-tmp-too-small`.
    #[error("tcvt tmp capacity must be at least {need} bytes for the actual extents {rows}x{cols}, found {have} bytes")]
    TmpTooSmall {
        need: u128,
        have: u128,
        rows: u64,
        cols: u64,
    },
    /// `rounding-hybrid-unsupported` (an error when executing).
    #[error("rnd 'H' (hybrid rounding) cannot be executed: vcvt from {src} to {dst}")]
    HybridUnsupported { src: ElemType, dst: ElemType },
    /// A value operation failed for another reason (an operand the verifier should have
    /// rejected, e.g. a function run on a profile that rejects it).
    #[error("{op}: {source}")]
    Value {
        op: String,
        #[source]
        source: ValueError,
    },
    /// `convert-not-executable`: a `pto.convert` the exact core does not implement.
    #[error("pto.convert cannot be executed exactly: {reason}")]
    ConvertNotExecutable { reason: String },
    /// The conversion cannot be built on this profile (pair unsupported, mode not defined).
    #[error("{op}: {message}")]
    Conversion { op: &'static str, message: String },
}

/// Errors of the interpreter are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<InterpErrorKind> for crate::diag::DiagKind {
    fn from(e: InterpErrorKind) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

/// An interpreter error at a span.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{kind}")]
pub struct InterpError {
    pub kind: InterpErrorKind,
    /// The op statement (or argument) the error concerns.
    pub span: Span,
}

impl InterpError {
    pub fn new(kind: InterpErrorKind, span: Span) -> InterpError {
        InterpError { kind, span }
    }

    /// The stable code.
    pub fn code(&self) -> Code {
        match self.kind {
            InterpErrorKind::ValidShape { .. } => Code::RuntimeValidShape,
            InterpErrorKind::TmpTooSmall { .. } => Code::RuntimeTmpTooSmall,
            InterpErrorKind::HybridUnsupported { .. } => Code::RoundingHybridUnsupported,
            InterpErrorKind::ConvertNotExecutable { .. } => Code::ConvertNotExecutable,
            InterpErrorKind::UnsupportedOp { .. }
            | InterpErrorKind::OpaqueOp { .. }
            | InterpErrorKind::Unsupported { .. }
            | InterpErrorKind::Value { .. }
            | InterpErrorKind::Conversion { .. } => Code::InterpUnsupported,
        }
    }

    /// Always an error at run time (`rounding-hybrid-unsupported` is a note only at verify).
    pub fn severity(&self) -> Severity {
        Severity::Error
    }
}
