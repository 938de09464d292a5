//! Front end: text → IR.
//!
//! Owns lexing (`lexer`, logos), parsing and IR building with name binding (`parser`: chumsky
//! grammars over the lexer's token stream for every construct of both input formats —
//! statements, ops, types, attributes and `.ptoasm` lines; no hand-written parsing remains, see
//! docs/design/parser.md) and the assembly line form's entry point (`asm`).
//! Entry point: [`parse_module`]. Invariants: spans are byte offsets into the original file,
//! also for split-input chunks; diagnostics come back sorted by position; nothing panics on any
//! input.

pub mod asm;
pub mod catalog;
pub mod error;
pub mod lexer;
mod parser;

use crate::diag::{Code, Diagnostic};
use crate::ir::Module;
use lexer::LexError;

/// Input syntax of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InputFormat {
    /// MLIR-style `.pto` text.
    Pto,
    /// `.ptoasm` assembly lines (syntax.md §6.2).
    PtoAsm,
}

/// Result of parsing one chunk: the module (when parsing got far enough to build one) and every
/// diagnostic (lexical, syntax and parse-time semantic), in source order.
#[derive(Debug, Default)]
pub struct ParseOutput {
    pub module: Option<Module>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Parses `chunk`, which starts at byte `base` of the original file.
pub fn parse_module(chunk: &str, base: usize, format: InputFormat) -> ParseOutput {
    parse_module_with(chunk, base, format, false)
}

/// [`parse_module`]; with `strict_ops` (`--strict-ops`), a custom form of an unknown op is the
/// error E0008 instead of an opaque statement (syntax.md §2.1).
pub fn parse_module_with(
    chunk: &str,
    base: usize,
    format: InputFormat,
    strict_ops: bool,
) -> ParseOutput {
    parse_module_consumed(chunk, base, format, strict_ops, None)
}

/// [`parse_module_with`], telling `consumed` the absolute offset of each top-level statement
/// the `.pto` parser starts: the text before it is not read again while parsing (only a
/// diagnostic may look back). The driver gives a mapped file's pages back there.
pub fn parse_module_consumed(
    chunk: &str,
    base: usize,
    format: InputFormat,
    strict_ops: bool,
    consumed: Option<&dyn Fn(usize)>,
) -> ParseOutput {
    match format {
        InputFormat::Pto => parse_pto(chunk, base, strict_ops, consumed),
        InputFormat::PtoAsm => asm::parse_asm(chunk, base),
    }
}

/// The code of a lexical error.
pub(crate) fn lex_code(e: &LexError) -> Code {
    match e {
        LexError::UnterminatedString => Code::UnterminatedString,
        LexError::InvalidEscape(_) => Code::InvalidEscape,
        LexError::InvalidUtf8 => Code::InvalidUtf8,
        _ => Code::UnexpectedCharacter,
    }
}

fn parse_pto(
    chunk: &str,
    base: usize,
    strict_ops: bool,
    consumed: Option<&dyn Fn(usize)>,
) -> ParseOutput {
    let stream = lexer::TokenStream::new(chunk, base, lexer::LexMode::Mlir);
    // Token slices handed to the chumsky grammars live as long as the parse (parser::Grammars).
    let arena = bumpalo::Bump::new();
    let mut p = parser::Parser::new(stream, chunk, base, &arena);
    p.strict_ops = strict_ops;
    p.consumed = consumed;
    p.parse_file();
    let (module, mut diagnostics) = p.finish();
    crate::diag::sort_by_position(&mut diagnostics);
    ParseOutput {
        module: Some(module),
        diagnostics,
    }
}
