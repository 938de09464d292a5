//! Parse-time errors (syntax.md §8-9), as structured data. Each variant knows its [`Code`].

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
}

impl ParseError {
    pub fn code(&self) -> Code {
        match self {
            ParseError::Expected { .. } => Code::Syntax,
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
