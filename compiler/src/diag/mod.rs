//! Diagnostics as data.
//!
//! Owns [`Span`] (byte ranges into the original file), [`Severity`], the stable [`Code`] table,
//! [`Diagnostic`], line numbering (`lines`) and rendering (`render`). A diagnostic's message comes
//! from a structured error value ([`DiagKind`]): a stage's own thiserror enum held as a [`Cause`];
//! text is produced only when rendering at the CLI edge. Library code collects diagnostics and
//! never prints or exits. Text taken from the input is echoed in messages only through `clip`
//! (bounded, control characters escaped).
//!
//! This module is a leaf: it imports no stage (`front`, `verify`, `interp`, `lower`, `exec`,
//! `driver`, `cli`; a test scans its source). Each stage maps its own errors into diagnostics:
//! it implements `From<ItsError> for DiagKind` (with [`DiagKind::cause`]) beside the error type
//! and picks the [`Code`] there, so the dependency runs from the stages down to `diag`.

pub mod clip;
pub mod codes;
pub mod explain;
pub mod lines;
pub mod render;

use std::any::Any;
use std::fmt;
use std::sync::Arc;

pub use codes::Code;
pub use lines::{LazyLines, LineIndex};

/// A byte range `[start, end)` into the original source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Span {
    pub start: usize,
    pub end: usize,
}

impl Span {
    pub const fn new(start: usize, end: usize) -> Self {
        Span { start, end }
    }
    /// An empty span at `at` (used for end of input).
    pub const fn point(at: usize) -> Self {
        Span { start: at, end: at }
    }
    /// The smallest span covering both.
    pub fn join(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
    pub fn range(self) -> std::ops::Range<usize> {
        self.start..self.end
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    Error,
    Warning,
    Note,
    Remark,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        }
    }
}

/// A stage's error value as the cause of a diagnostic: any `PartialEq` error type that can be
/// shared between threads (blanket impl). Which error types become causes is decided by the
/// stages, each with a `From<ItsError> for DiagKind` beside its error enum.
pub trait Cause: std::error::Error + Send + Sync + 'static {
    /// The value as `Any`, to look at a cause's concrete type ([`DiagKind::downcast_ref`]).
    fn as_any(&self) -> &dyn Any;
    /// Equality across the erased type: equal when `other` has the same type and value.
    fn same_as(&self, other: &dyn Cause) -> bool;
}

impl<T: std::error::Error + PartialEq + Send + Sync + 'static> Cause for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same_as(&self, other: &dyn Cause) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// The structured cause of a diagnostic. `Display` gives the message.
#[derive(Clone)]
pub enum DiagKind {
    /// A stage's structured error (lexer, parser, verifier, interpreter, lowering).
    Cause(Arc<dyn Cause>),
    /// Diagnostics about the diagnostics harness itself (`--verify-diagnostics`).
    Directive(String),
}

impl DiagKind {
    /// A stage's error as a cause (what the stages' `From` impls call).
    pub fn cause(cause: impl Cause) -> Self {
        DiagKind::Cause(Arc::new(cause))
    }
    /// The cause as its concrete error type, if it is one.
    pub fn downcast_ref<T: Cause>(&self) -> Option<&T> {
        match self {
            DiagKind::Cause(c) => c.as_any().downcast_ref::<T>(),
            DiagKind::Directive(_) => None,
        }
    }
}

impl fmt::Display for DiagKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagKind::Cause(c) => fmt::Display::fmt(c, f),
            DiagKind::Directive(s) => f.write_str(s),
        }
    }
}

impl fmt::Debug for DiagKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiagKind::Cause(c) => fmt::Debug::fmt(c, f),
            DiagKind::Directive(s) => f.debug_tuple("Directive").field(s).finish(),
        }
    }
}

impl PartialEq for DiagKind {
    fn eq(&self, other: &Self) -> bool {
        match (self, other) {
            (DiagKind::Cause(a), DiagKind::Cause(b)) => a.same_as(b.as_ref()),
            (DiagKind::Directive(a), DiagKind::Directive(b)) => a == b,
            _ => false,
        }
    }
}

/// A secondary label: a span with a short message (`first given here`).
#[derive(Debug, Clone, PartialEq)]
pub struct Label {
    pub span: Span,
    pub message: String,
}

/// A note attached to a diagnostic; spanless notes sit on the parent's line.
#[derive(Debug, Clone, PartialEq)]
pub struct Note {
    pub message: String,
    pub span: Option<Span>,
}

/// One diagnostic: severity, stable code, structured cause, primary span and extras.
#[derive(Debug, Clone, PartialEq)]
pub struct Diagnostic {
    pub code: Code,
    pub severity: Severity,
    pub kind: DiagKind,
    pub span: Span,
    pub labels: Vec<Label>,
    pub notes: Vec<Note>,
    pub help: Option<String>,
}

impl Diagnostic {
    /// A diagnostic with the code's default severity.
    pub fn new(code: Code, kind: impl Into<DiagKind>, span: Span) -> Self {
        Diagnostic {
            code,
            severity: code.default_severity(),
            kind: kind.into(),
            span,
            labels: Vec::new(),
            notes: Vec::new(),
            help: None,
        }
    }
    pub fn with_severity(mut self, severity: Severity) -> Self {
        self.severity = severity;
        self
    }
    pub fn with_label(mut self, span: Span, message: impl Into<String>) -> Self {
        self.labels.push(Label {
            span,
            message: message.into(),
        });
        self
    }
    pub fn with_note(mut self, message: impl Into<String>, span: Option<Span>) -> Self {
        self.notes.push(Note {
            message: message.into(),
            span,
        });
        self
    }
    pub fn with_help(mut self, help: impl Into<String>) -> Self {
        self.help = Some(help.into());
        self
    }
    /// The rendered message (the cause's `Display`), bounded by [`clip::bound_message`].
    pub fn message(&self) -> String {
        clip::bound_message(self.kind.to_string())
    }
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// Sorts diagnostics by position (stable for equal starts), the order in which they are shown.
pub fn sort_by_position(diags: &mut [Diagnostic]) {
    diags.sort_by_key(|d| (d.span.start, d.span.end));
}
