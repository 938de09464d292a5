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
    parse_module_paged(chunk, base, format, strict_ops, consumed, None)
}

/// [`parse_module_consumed`]; a second thread that parses part of the chunk calls `release`
/// with each absolute byte range it is done with (`from`, `to`), from that thread.
pub fn parse_module_paged(
    chunk: &str,
    base: usize,
    format: InputFormat,
    strict_ops: bool,
    consumed: Option<&dyn Fn(usize)>,
    release: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> ParseOutput {
    match format {
        InputFormat::Pto => parse_pto(chunk, base, strict_ops, consumed, release),
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
    release: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> ParseOutput {
    let two_threads = chunk.len() >= parser::split::SPLIT_MIN_BYTES
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1);
    if two_threads {
        parse_pto_split(chunk, base, strict_ops, consumed, release, None).0
    } else {
        parse_pto_with(chunk, base, strict_ops, consumed, None).0
    }
}

/// One parse of `chunk`, on this thread, with an optional link to a second-half helper; also
/// says whether the helper's fragment was joined.
fn parse_pto_with(
    chunk: &str,
    base: usize,
    strict_ops: bool,
    consumed: Option<&dyn Fn(usize)>,
    split: Option<parser::split::Link>,
) -> (ParseOutput, bool) {
    let stream = lexer::TokenStream::new(chunk, base, lexer::LexMode::Mlir);
    // Token slices handed to the chumsky grammars live as long as the parse (parser::Grammars).
    let arena = bumpalo::Bump::new();
    let mut p = parser::Parser::new(stream, chunk, base, &arena);
    p.strict_ops = strict_ops;
    p.consumed = consumed;
    p.split = split;
    p.parse_file();
    // Dropping the link tells a helper whose fragment was not joined to stop.
    let joined = p.split.take().is_some_and(|l| l.joined());
    let (module, mut diagnostics) = p.finish();
    crate::diag::sort_by_position(&mut diagnostics);
    let out = ParseOutput {
        module: Some(module),
        diagnostics,
    };
    (out, joined)
}

/// [`parse_pto_with`] with a helper thread that parses the second half of a large function
/// body (`parser::split`); `forced` picks the split point instead of the middle (tests).
fn parse_pto_split(
    chunk: &str,
    base: usize,
    strict_ops: bool,
    consumed: Option<&dyn Fn(usize)>,
    release: Option<&(dyn Fn(usize, usize) + Sync)>,
    forced: Option<usize>,
) -> (ParseOutput, bool) {
    use std::sync::atomic::AtomicBool;
    use std::sync::{mpsc, Arc};
    let (jobs, job_rx) = mpsc::channel::<parser::split::Job>();
    let (results_tx, results) = mpsc::channel::<parser::split::Fragment>();
    let cancel = Arc::new(AtomicBool::new(false));
    let helper_cancel = cancel.clone();
    std::thread::scope(|scope| {
        let helper = std::thread::Builder::new().spawn_scoped(scope, move || {
            if let Ok(job) = job_rx.recv() {
                let frag = parser::split::parse_fragment(chunk, base, job, helper_cancel, release);
                let _ = results_tx.send(frag);
            }
        });
        match helper {
            Ok(_) => {
                let link = parser::split::Link::new(jobs, results, cancel, forced);
                parse_pto_with(chunk, base, strict_ops, consumed, Some(link))
            }
            // No thread to be had: one parse does it all.
            Err(_) => parse_pto_with(chunk, base, strict_ops, consumed, None),
        }
    })
}

/// Parses a `.pto` chunk on two threads with the second half starting at byte `split_at`
/// (absolute), whatever the chunk's size: the two-thread parse's equality tests compare this
/// with [`parse_module`]. A split point that is not a statement start of a function body
/// leaves the parse on one thread. Also says whether the second half was joined.
#[doc(hidden)]
pub fn parse_pto_split_at(
    chunk: &str,
    base: usize,
    strict_ops: bool,
    split_at: usize,
) -> (ParseOutput, bool) {
    parse_pto_split(chunk, base, strict_ops, None, None, Some(split_at))
}
