//! Diagnostics as data.
//!
//! Owns [`Span`] (byte ranges into the original file), [`Severity`], the stable [`Code`] table and
//! [`Diagnostic`]. A diagnostic's message comes from a structured error value ([`DiagKind`], one
//! thiserror enum per phase); text is produced only when rendering at the CLI edge
//! (`render` module). Library code collects diagnostics and never prints or exits. Text taken
//! from the input is echoed in messages only through `clip` (bounded, control characters
//! escaped).

pub mod clip;
pub mod codes;
pub mod explain;
pub mod render;

pub use codes::Code;

use crate::front::error::ParseError;
use crate::front::lexer::LexError;
use crate::interp::InterpErrorKind;
use crate::verify::error::{RuleError, StructureError};

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

/// The structured cause of a diagnostic, one enum per phase. `Display` gives the message.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DiagKind {
    #[error(transparent)]
    Lex(#[from] LexError),
    #[error(transparent)]
    Parse(#[from] ParseError),
    #[error(transparent)]
    Structure(#[from] StructureError),
    #[error(transparent)]
    Rule(#[from] RuleError),
    /// Runtime errors of the reference interpreter (`ptoc run`).
    #[error(transparent)]
    Interp(#[from] InterpErrorKind),
    /// Tensix lowering and proof diagnostics (`ptoc lower`, `ptoc prove`).
    #[error(transparent)]
    Lower(#[from] crate::lower::tensix::LowerError),
    /// Diagnostics about the diagnostics harness itself (`--verify-diagnostics`).
    #[error("{0}")]
    Directive(String),
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
