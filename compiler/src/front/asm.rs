//! The `.ptoasm` assembly line form (syntax.md §6.2, D-23): `PTO.vcvt dst, src, mask[, rnd[,
//! sat[, part]]] : T, M -> R` lines become one function whose registers are SSA values.
//!
//! Invariants: a register read before any write is a function argument (in first-read order,
//! typed by that line); each write is a fresh value (`%v2`, `%v2_1`, ...; suffixes clashing with
//! register names are skipped); the synthesized `return` yields the final value of every written
//! register in first-write order and has an empty span at end of input. The line grammar is a
//! chumsky grammar over the same token input as `.pto` (`parser::asm`), so types parse exactly
//! as in `.pto`.

use super::{lexer, parser, ParseOutput};

/// Parses an assembly chunk starting at byte `base` of the original file.
pub fn parse_asm(chunk: &str, base: usize) -> ParseOutput {
    // Register names, for the SSA renaming rule (suffixes must not clash with them).
    let all_regs = lexer::lex(chunk, base, lexer::LexMode::Assembly)
        .tokens
        .iter()
        .filter_map(|t| match t.tok {
            lexer::Tok::BareId(b) => Some(b),
            _ => None,
        })
        .collect();
    let stream = lexer::TokenStream::new(chunk, base, lexer::LexMode::Assembly);
    // Token slices handed to the chumsky grammars live as long as the parse (parser::Grammars).
    let arena = bumpalo::Bump::new();
    let mut p = parser::Parser::new(stream, chunk, base, &arena);
    p.parse_asm_file(all_regs);
    let (module, mut diagnostics) = p.finish();
    crate::diag::sort_by_position(&mut diagnostics);
    ParseOutput {
        module: Some(module),
        diagnostics,
    }
}
