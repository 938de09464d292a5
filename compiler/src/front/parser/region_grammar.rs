//! Regions and their blocks (syntax.md §2.2) for the statement grammar (`stmt_grammar`):
//! the statements of a region up to its `}` ([`region_body`]), a block's label line
//! ([`block_label`]), a region's entry block followed by labelled blocks ([`region_blocks`]),
//! and the `{ [^bb0(args):] ops }` region of the generic form and of opaque ops
//! ([`generic_region`]).
//!
//! Invariants it relies on (besides `stmt_grammar`'s): the region being filled is the top of
//! the state's region stack, pushed and popped around its statements, and the enclosing
//! statement's context (result groups, spans, failure state) is saved before a nested region
//! and restored after it, so the op that owns the region is finished with its own context;
//! `generic_region` counts itself in the nesting depth bounded by `MAX_DEPTH`; block and
//! region arguments are defined before the statements that use them (names resolve
//! textually).

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::fn_type_grammar::ty;
use super::grammar::TyErr;
use super::module::{GroupDef, RegionKind};
use super::stmt_grammar::{trailing_loc, Stmts};
use super::stmt_prim::{
    advance_to, either, expected_here, here, is, silent, tk, tokf, value, via, when, IRef, In, SEx,
};
use super::{Parser, MAX_DEPTH};
use crate::diag::Span;
use crate::front::lexer::Tok;
use crate::ir::{RegionId, TypeId};

/// Saved statement context around a nested region.
struct Saved<'s> {
    groups: Vec<GroupDef<'s>>,
    first: Span,
    name: Span,
    reported: bool,
    fail_pos: usize,
}

impl<'s> Parser<'s> {
    fn save_stmt(&mut self) -> Saved<'s> {
        Saved {
            groups: std::mem::take(&mut self.cur_groups),
            first: self.cur_first,
            name: self.cur_name,
            reported: self.stmt_reported,
            fail_pos: self.fail_pos,
        }
    }

    fn restore_stmt(&mut self, s: Saved<'s>) {
        self.cur_groups = s.groups;
        self.cur_first = s.first;
        self.cur_name = s.name;
        self.stmt_reported = s.reported;
        self.fail_pos = s.fail_pos;
    }
}

/// Statements of `region` (of `kind`) up to its closing `}` (not consumed).
pub(super) fn region_body<'s>(
    inp: &mut IRef<'s, '_>,
    stmts: &Stmts<'s>,
    region: RegionId,
    kind: RegionKind,
) -> Result<(), TyErr<'s>> {
    let st = inp.state();
    let saved = st.save_stmt();
    st.regions.push((region, kind));
    let r = inp.parse(stmts);
    let st = inp.state();
    st.regions.pop();
    st.restore_stmt(saved);
    r
}

/// `{ [^bb0[(args)]:] ops }` of a generic op; a second block is rejected.
pub(super) fn generic_region<'s>(
    stmts: Stmts<'s>,
) -> impl P<'s, In<'s>, RegionId, SEx<'s>> + Clone {
    let label = block_label();
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.state().depth > MAX_DEPTH {
            return Err(expected_here(inp, &["shallower nesting"]));
        }
        let open = inp.parse(tk(Tok::LBrace))?;
        let st = inp.state();
        let r = st.m.add_region(None, Span::default());
        // Header definitions of an opaque op come first (syntax.md §2.1).
        let pending = std::mem::take(&mut st.pending_args);
        for (n, s) in pending {
            let any = st.any_type();
            let v = st.m.add_region_arg(r, n, any, s);
            st.define_arg(n, v);
        }
        if let Some(((l, _), args)) = inp.parse(when(
            |l| {
                let a = l.a();
                a.is_some_and(|t| matches!(t.tok, Tok::BlockId(_)))
            },
            label.clone(),
        ))? {
            let st = inp.state();
            if let Some(rd) = st.m.regions.get_mut(r.0 as usize) {
                rd.label = Some(l.to_string());
            }
            for ((n, s), (t, _)) in args.unwrap_or_default() {
                let v = st.m.add_region_arg(r, n, t, s);
                st.define_arg(n, v);
            }
        }
        let st = inp.state();
        st.depth += 1;
        let saved_ctx = st.ctx.take();
        let saved = (st.stmt_start, st.stmt_byte);
        let res = region_blocks(inp, &stmts, &label, r, RegionKind::Generic);
        let st = inp.state();
        (st.stmt_start, st.stmt_byte) = saved;
        st.ctx = saved_ctx;
        st.depth -= 1;
        res?;
        inp.parse(via(move |p: &mut Parser<'s>| p.close_region(r, open)))?;
        Ok(r)
    })
}

/// A block's label line without its statements: `^name[(%a: T, ...)]:`.
type BlockLabel<'s> = (
    (&'s str, Span),
    Option<Vec<((&'s str, Span), (TypeId, Span))>>,
);

pub(super) fn block_label<'s>() -> impl P<'s, In<'s>, BlockLabel<'s>, SEx<'s>> + Clone {
    let arg = value()
        .then_ignore(tk(Tok::Colon))
        .then(ty())
        .then_ignore(trailing_loc());
    let args = when(
        |l| {
            let a = l.a();
            is(a, Tok::LParen)
        },
        tk(Tok::LParen).ignore_then(either(
            |l| {
                let a = l.a();
                is(a, Tok::RParen)
            },
            silent(Tok::RParen).to(Vec::new()),
            arg.separated_by(silent(Tok::Comma))
                .at_least(1)
                .collect::<Vec<_>>()
                .then_ignore(tk(Tok::RParen)),
        )),
    );
    tokf(&["block label"], |t| match t {
        Tok::BlockId(l) => Some(l),
        _ => None,
    })
    .then(args)
    .then_ignore(tk(Tok::Colon))
}

/// The statements of a region's entry block, then each further block (syntax.md §2.2):
/// a label line `^name(%a: T, ...):` starts a block of `region` whose arguments are visible
/// from there on (names resolve textually, which is dominance for the structured code kernels
/// hold). A label that does not parse is reported and the rest of the region skipped.
pub(super) fn region_blocks<'s>(
    inp: &mut IRef<'s, '_>,
    stmts: &Stmts<'s>,
    label: &(impl P<'s, In<'s>, BlockLabel<'s>, SEx<'s>> + Clone),
    region: RegionId,
    kind: RegionKind,
) -> Result<(), TyErr<'s>> {
    region_body(inp, stmts, region, kind)?;
    loop {
        let i = here(inp);
        let st = inp.state();
        if st.stopped() || !st.tok(i).is_some_and(|t| matches!(t.tok, Tok::BlockId(_))) {
            return Ok(());
        }
        st.pos = i;
        st.set_stmt(i);
        st.begin_statement();
        match inp.parse(label) {
            Ok(((l, span), args)) => {
                let st = inp.state();
                let block = st.m.add_block(region, l, span);
                for ((n, s), (t, _)) in args.unwrap_or_default() {
                    let v = st.m.add_block_arg(region, block, n, t, s);
                    st.define_arg(n, v);
                }
            }
            Err(e) => {
                let st = inp.state();
                let _ = st.report_failure(e);
                st.pos = i;
                st.skip_to_region_end();
                let to = st.pos;
                st.pos = i;
                advance_to(inp, to);
                return Ok(());
            }
        }
        region_body(inp, stmts, region, kind)?;
    }
}

impl<'s> Parser<'s> {
    /// Skips to the `}` that closes the current region (after a second block label).
    pub(super) fn skip_to_region_end(&mut self) {
        let mut depth = 0i64;
        while let Some(t) = self.peek() {
            match t {
                Tok::LBrace => depth += 1,
                Tok::RBrace if depth == 0 => return,
                Tok::RBrace => depth -= 1,
                _ => {}
            }
            self.bump();
        }
    }
}
