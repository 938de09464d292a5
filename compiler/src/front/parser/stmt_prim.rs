//! Token-level primitives of the statement grammar (`stmt_grammar`, `op_grammar`): chumsky
//! parsers over [`TokInput`] whose state is the [`Parser`] (the IR builder).
//!
//! - [`tk`], [`kw`], [`value`], [`silent`]: one token, with a named `expected` set at that token
//!   (syntax.md §8.1); [`SILENT`] labels never show in messages (optional pieces).
//! - [`via`]: runs a builder-side reader (a type through its cache and grammar, a dictionary, a
//!   balanced skip) at the cursor and moves chumsky's cursor past what it read. Its failures
//!   are already reported ([`TyErr::Reported`]), so `via` parsers are only used where the
//!   grammar is committed (LL(1): never as a non-last alternative).
//! - [`peek_is`]: a condition on the next tokens, for LL(1) dispatch without an error.
//!
//! The state tracks chumsky's cursor (`Parser::pos`) through its [`Inspector`]: `on_token`
//! advances it, a rewind restores it.

use chumsky::extra;
use chumsky::input::{Checkpoint, Cursor, InputRef};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;

use super::grammar::{punct_label, Sp, TyErr, SILENT};
use super::tokens::TokInput;
use super::{PResult, Parser};
use crate::diag::Span;
use crate::front::lexer::{Tok, Token};
use chumsky::Parser as P;

pub(super) type In<'s> = TokInput<'s>;
pub(super) type SEx<'s> = extra::Full<TyErr<'s>, Parser<'s>, ()>;
pub(super) type IRef<'s, 'p> = InputRef<'s, 'p, In<'s>, SEx<'s>>;

impl<'s> Inspector<'s, In<'s>> for Parser<'s> {
    type Checkpoint = ();
    #[inline]
    fn on_token(&mut self, _: &Tok<'s>) {
        self.pos += 1;
    }
    #[inline]
    fn on_save<'p>(&self, _: &Cursor<'s, 'p, In<'s>>) {}
    #[inline]
    fn on_rewind<'p>(&mut self, c: &Checkpoint<'s, 'p, In<'s>, ()>) {
        self.pos = *c.cursor().inner();
    }
}

/// Absolute index of chumsky's cursor.
#[inline]
pub(super) fn here(inp: &mut IRef<'_, '_>) -> usize {
    *inp.cursor().inner()
}

/// Moves chumsky's cursor forward to absolute index `to`.
pub(super) fn advance_to(inp: &mut IRef<'_, '_>, to: usize) {
    while here(inp) < to {
        if inp.next().is_none() {
            break;
        }
    }
}

/// `expected <labels>, found <next token>` at the next token.
pub(super) fn expected_here<'s>(
    inp: &mut IRef<'s, '_>,
    labels: &'static [&'static str],
) -> TyErr<'s> {
    let i = here(inp);
    let (found, span) = {
        let st = inp.state();
        let t = st.tok(i);
        (t.map(|t| t.tok), st.span_at(i))
    };
    TyErr::Expected {
        span: Sp::from(span.start..span.end),
        // A silent failure lists nothing (and allocates nothing: it happens at the end of
        // every list and optional piece).
        expected: if labels == [SILENT] {
            Vec::new()
        } else {
            labels.to_vec()
        },
        found,
        note: None,
    }
}

/// One token accepted by `f`, with its span; else `expected <labels>` at it.
pub(super) fn tokf<'s, O, F>(
    labels: &'static [&'static str],
    f: F,
) -> impl P<'s, In<'s>, (O, Span), SEx<'s>> + Clone
where
    F: Fn(Tok<'s>) -> Option<O> + Clone,
{
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        match inp.peek().and_then(&f) {
            Some(o) => {
                let span = inp.state().span_at(i);
                inp.skip();
                Ok((o, span))
            }
            None => Err(expected_here(inp, labels)),
        }
    })
}

/// A punctuation token.
pub(super) fn tk<'s>(k: Tok<'static>) -> impl P<'s, In<'s>, Span, SEx<'s>> + Clone {
    let labels: &'static [&'static str] = match k {
        Tok::LAngle => &["'<'"],
        Tok::RAngle => &["'>'"],
        Tok::LParen => &["'('"],
        Tok::RParen => &["')'"],
        Tok::LBracket => &["'['"],
        Tok::RBracket => &["']'"],
        Tok::LBrace => &["'{'"],
        Tok::RBrace => &["'}'"],
        Tok::Comma => &["','"],
        Tok::Colon => &["':'"],
        Tok::Equals => &["'='"],
        Tok::Arrow => &["'->'"],
        _ => &["token"],
    };
    debug_assert!(labels[0] == punct_label(k));
    tokf(labels, move |t| super::same_kind(t, k).then_some(())).map(|(_, s)| s)
}

/// A punctuation token that never appears in `expected` sets (an optional piece).
pub(super) fn silent<'s>(k: Tok<'static>) -> impl P<'s, In<'s>, Span, SEx<'s>> + Clone {
    tokf(&[SILENT], move |t| super::same_kind(t, k).then_some(())).map(|(_, s)| s)
}

/// A contextual keyword (`'ins'`).
pub(super) fn kw<'s>(
    word: &'static str,
    labels: &'static [&'static str],
) -> impl P<'s, In<'s>, Span, SEx<'s>> + Clone {
    tokf(labels, move |t| {
        matches!(t, Tok::BareId(w) if w == word).then_some(())
    })
    .map(|(_, s)| s)
}

/// A value use or definition name (`%a`, `%r#1`), with the D-1 `%pair #1` check.
pub(super) fn value<'s>() -> impl P<'s, In<'s>, (&'s str, Span), SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        match inp.peek() {
            Some(Tok::ValueId(v)) => {
                inp.skip();
                let st = inp.state();
                let span = st.span_at(i);
                let before = st.pos;
                st.check_spaced_result_number(v, span);
                let to = st.pos;
                st.pos = before;
                advance_to(inp, to);
                Ok((v, span))
            }
            _ => Err(expected_here(inp, &["value"])),
        }
    })
}

/// Runs a builder-side reader at the cursor (see the module doc).
pub(super) fn via<'s, O, F>(f: F) -> impl P<'s, In<'s>, O, SEx<'s>> + Clone
where
    F: Fn(&mut Parser<'s>) -> PResult<O> + Clone,
{
    custom(move |inp: &mut IRef<'s, '_>| run_via(inp, &f))
}

/// The body of [`via`], for callers that dispatch before it.
#[inline]
pub(super) fn run_via<'s, O, F>(inp: &mut IRef<'s, '_>, f: &F) -> Result<O, TyErr<'s>>
where
    F: Fn(&mut Parser<'s>) -> PResult<O>,
{
    let start = here(inp);
    let st = inp.state();
    if st.stmt_reported {
        return Err(TyErr::Reported);
    }
    st.pos = start;
    let r = f(st);
    let end = st.pos;
    st.pos = start;
    match r {
        Ok(o) => {
            advance_to(inp, end);
            Ok(o)
        }
        Err(_) => Err(inp.state().reported_at(end)),
    }
}

/// Lazy lookahead for LL(1) decisions: the second token is lexed only when asked for (a
/// lexical error is known only once the lexer passed it, which decides its suppression).
pub(super) struct Look<'p, 's> {
    st: &'p mut Parser<'s>,
    i: usize,
}

impl<'s> Look<'_, 's> {
    pub(super) fn a(&mut self) -> Option<Token<'s>> {
        self.st.tok(self.i)
    }
    pub(super) fn b(&mut self) -> Option<Token<'s>> {
        self.st.tok(self.i + 1)
    }
}

fn look<'s, F>(inp: &mut IRef<'s, '_>, f: &F) -> bool
where
    F: Fn(&mut Look<'_, 's>) -> bool,
{
    let i = here(inp);
    f(&mut Look { st: inp.state(), i })
}

/// Succeeds without reading when the next tokens satisfy `f`; else fails silently.
pub(super) fn peek_is<'s, F>(f: F) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone
where
    F: Fn(&mut Look<'_, 's>) -> bool + Clone,
{
    custom(move |inp: &mut IRef<'s, '_>| {
        if look(inp, &f) {
            Ok(())
        } else {
            Err(expected_here(inp, &[SILENT]))
        }
    })
}

/// The span of the next token (empty at end of input), without reading it.
pub(super) fn next_span<'s>() -> impl P<'s, In<'s>, Span, SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        Ok(inp.state().span_at(i))
    })
}

/// Span of the token before the cursor.
pub(super) fn prev_span<'s>() -> impl P<'s, In<'s>, Span, SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        let st = inp.state();
        st.pos = i;
        Ok(st.prev_span())
    })
}

/// `Some(body)` when the next tokens satisfy `f` (then `body` must succeed: a commit point),
/// `None` without reading otherwise.
pub(super) fn when<'s, O, F, B>(f: F, body: B) -> impl P<'s, In<'s>, Option<O>, SEx<'s>> + Clone
where
    F: Fn(&mut Look<'_, 's>) -> bool + Clone,
    B: P<'s, In<'s>, O, SEx<'s>> + Clone,
{
    custom(move |inp: &mut IRef<'s, '_>| {
        if look(inp, &f) {
            inp.parse(&body).map(Some)
        } else {
            Ok(None)
        }
    })
}

/// LL(1) choice of two parsers by the next tokens (`a` when `f` holds).
pub(super) fn either<'s, O, F, A, B>(f: F, a: A, b: B) -> impl P<'s, In<'s>, O, SEx<'s>> + Clone
where
    F: Fn(&mut Look<'_, 's>) -> bool + Clone,
    A: P<'s, In<'s>, O, SEx<'s>> + Clone,
    B: P<'s, In<'s>, O, SEx<'s>> + Clone,
{
    custom(move |inp: &mut IRef<'s, '_>| {
        if look(inp, &f) {
            inp.parse(&a)
        } else {
            inp.parse(&b)
        }
    })
}

/// The kind of an optional token.
pub(super) fn is<'s>(t: Option<Token<'s>>, k: Tok<'static>) -> bool {
    t.is_some_and(|t| super::same_kind(t.tok, k))
}

/// Fails with `expected <labels>` at the cursor. Inside a `custom` that already read tokens,
/// `inp.parse(fail(..))` places the error at the cursor (a `custom`'s own error sits at its
/// start), so it competes with the alternatives' errors by position as chumsky intends.
pub(super) fn fail<'s>(labels: &'static [&'static str]) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| Err(expected_here(inp, labels)))
}
