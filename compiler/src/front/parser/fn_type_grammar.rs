//! Types in operand position (syntax.md §3) as a chumsky grammar over the statement input:
//! [`ty`] reads a function type `( types ) -> ( type | ( types ) )` itself, recursively, and
//! every other type through the builder's type cache and the type grammar
//! (`Parser::parse_type`, run as `stmt_prim::via` runs it). Also the type lists shared by
//! function headers and generic-op signatures.
//!
//! Invariants:
//! - a `(` in type position commits to a function type: its failure is reported at once and
//!   poisons the statement, exactly like a failed non-function type (so an enclosing list or
//!   optional piece can never swallow it and carry on);
//! - a result list `-> (` is a list, not a nested function type (`(i32) -> ((i32) -> i32)` has
//!   one result, a function type);
//! - function types count towards the parser's nesting depth; past `MAX_DEPTH` the `(` is
//!   `expected shallower nesting` (the grammar recurses once per level, through [`ty`]).

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::grammar::TyErr;
use super::stmt_prim::{
    either, expected_here, is, next_span, prev_span, run_via, silent, tk, IRef, In, SEx,
};
use super::{Parser, MAX_DEPTH};
use crate::diag::Span;
use crate::front::lexer::Tok;
use crate::ir::{Type, TypeId};

type Ty = (TypeId, Span);

/// A type (syntax.md §3): a function type here, every other type through the type cache and
/// grammar. Building it allocates nothing (op forms build `ty()` lists while parsing); the
/// function-type grammar is built only when a `(` is met, and recurses through `ty()`.
pub(super) fn ty<'s>() -> impl P<'s, In<'s>, Ty, SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.peek() == Some(Tok::LParen) {
            inp.parse(function_type_ty())
        } else {
            run_via(inp, &|p: &mut Parser<'s>| p.parse_type())
        }
    })
}

/// A function type in type position, interned, with its span.
fn function_type_ty<'s>() -> impl P<'s, In<'s>, Ty, SEx<'s>> + Clone {
    let fn_ty = next_span()
        .then(function_type(ty()))
        .then(prev_span())
        .try_map_with(|((first, (inputs, results)), last), e| {
            let st: &mut Parser<'s> = e.state();
            let inputs = inputs.into_iter().map(|(t, _)| t).collect();
            let results = results.into_iter().map(|(t, _)| t).collect();
            Ok((
                st.intern(Type::Function { inputs, results }),
                first.join(last),
            ))
        });
    committed(nested(fn_ty))
}

/// `[ type { , type } ] )` after an opening `(`.
pub(super) fn types_until_rparen<'s>(
    ty: impl P<'s, In<'s>, Ty, SEx<'s>> + Clone,
) -> impl P<'s, In<'s>, Vec<Ty>, SEx<'s>> + Clone {
    either(
        |l| is(l.a(), Tok::RParen),
        silent(Tok::RParen).to(Vec::new()),
        ty.separated_by(tk(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(tk(Tok::RParen)),
    )
}

/// `( types ) -> (type | ( types ))`: inputs and results with their spans.
pub(super) fn function_type<'s>(
    ty: impl P<'s, In<'s>, Ty, SEx<'s>> + Clone,
) -> impl P<'s, In<'s>, (Vec<Ty>, Vec<Ty>), SEx<'s>> + Clone {
    tk(Tok::LParen)
        .ignore_then(types_until_rparen(ty.clone()))
        .then_ignore(tk(Tok::Arrow))
        .then(either(
            |l| is(l.a(), Tok::LParen),
            tk(Tok::LParen).ignore_then(types_until_rparen(ty.clone())),
            ty.map(|t| vec![t]),
        ))
}

/// `p` one nesting level deeper; past `MAX_DEPTH`, `expected shallower nesting` at the cursor.
fn nested<'s, O>(
    p: impl P<'s, In<'s>, O, SEx<'s>> + Clone,
) -> impl P<'s, In<'s>, O, SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.state().depth > MAX_DEPTH {
            return Err(expected_here(inp, &["shallower nesting"]));
        }
        inp.state().depth += 1;
        let r = inp.parse(&p);
        inp.state().depth -= 1;
        r
    })
}

/// `p` as a committed piece: its failure is reported now (syntax.md §8.1, with the context
/// label of the op) and poisons the statement at the offending token.
fn committed<'s, O>(
    p: impl P<'s, In<'s>, O, SEx<'s>> + Clone,
) -> impl P<'s, In<'s>, O, SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.state().stmt_reported {
            return Err(TyErr::Reported);
        }
        inp.parse(&p).map_err(|e| inp.state().report_failure(e))
    })
}
