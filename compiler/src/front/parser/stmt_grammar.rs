//! The statement level of syntax.md §2 as a chumsky grammar: file, module, `func.func`,
//! op statements (result groups, op-name dispatch, the generic form, trailing `loc(...)`), and
//! the §8.2 recovery (`recover_with(via_parser(..))`). Regions and their blocks are read by
//! `region_grammar`.
//!
//! One chumsky parse reads the whole chunk ([`TokInput`](super::tokens::TokInput)); its state is
//! the [`Parser`], which builds the IR as statements succeed. Invariants:
//! - the unit of recovery is the op statement ([`statement_unit`]): its failure is turned into
//!   a diagnostic right away (so the 50-error stop and lexical-error suppression see errors in
//!   source order), then [`recover`] skips to the next statement start;
//! - a statement is LL(1) on its first tokens (dispatch by op name); builder side effects happen
//!   only on committed paths, so backtracking never has to undo them (the inspector only tracks
//!   the cursor);
//! - the region being filled is a stack in the state (kind decides `return` rules and where a
//!   body ends).

use chumsky::prelude::*;
use chumsky::recursive::Indirect;
use chumsky::Parser as P;

use super::fn_type_grammar::{function_type, ty};
use super::grammar::{TyErr, SILENT};
use super::module::{GroupDef, OpParts, RegionKind};
use super::op_grammar::{self as og, Op};
use super::region_grammar::{generic_region, region_body};
use super::stmt_prim::{
    advance_to, either, expected_here, fail, here, is, silent, tk, tokf, value, via, when, IRef,
    In, SEx,
};
use super::{Parser, MAX_DEPTH};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::{OpKind, RegionId, TypeId};

pub(super) type Stmts<'s> = Recursive<Indirect<'s, 's, In<'s>, (), SEx<'s>>>;

/// The statements of a region, up to what ends it (see [`statement_start`]).
fn statements<'s>() -> Stmts<'s> {
    let mut stmts: Stmts<'s> = Recursive::declare();
    let forms = Forms::new(stmts.clone());
    let stmt = statement(forms, stmts.clone());
    let unit = statement_unit(stmt);
    stmts.define(
        custom(move |inp: &mut IRef<'s, '_>| statement_start(inp))
            .ignore_then(unit.clone())
            .repeated()
            .collect::<Vec<()>>()
            .ignored(),
    );
    stmts
}

/// The second half of a two-thread parse (`split`): statements of a function body `body`
/// from the cursor on; gives the absolute byte offset of the token they stopped at (`None` if
/// the grammar failed).
pub(super) fn fragment<'s>(body: RegionId) -> Boxed<'s, 's, In<'s>, Option<usize>, SEx<'s>> {
    let stmts = statements();
    custom(move |inp: &mut IRef<'s, '_>| {
        inp.state().regions.push((body, RegionKind::Func));
        let r = inp.parse(&stmts);
        let i = here(inp);
        let st = inp.state();
        st.regions.pop();
        let end = r.ok().map(|()| st.span_at(i).start);
        st.note_fragment_end(i);
        // The rest of the chunk is not the fragment's: end the input here, unread.
        let mut buf = st.buf.borrow_mut();
        buf.forget_from(i);
        buf.stream = None;
        Ok(end)
    })
    .boxed()
}

/// The grammar of a whole `.pto` chunk.
pub(super) fn file<'s>() -> Boxed<'s, 's, In<'s>, (), SEx<'s>> {
    let stmts = statements();
    let module = super::func_grammar::module_op(stmts.clone());
    let rest = stmts.clone();
    // Alias definitions before the first module (and after it) are no items of the chunk.
    let aliases = custom(|inp: &mut IRef<'s, '_>| alias_start(inp))
        .ignore_then(statement_unit(super::alias::alias_def()))
        .repeated()
        .collect::<Vec<()>>()
        .ignored();
    let after = aliases.clone();
    let module_file = custom(move |inp: &mut IRef<'s, '_>| {
        let start = here(inp);
        let st = inp.state();
        st.explicit_module = true;
        st.pos = start;
        st.ctx = None;
        st.set_stmt(start);
        st.begin_statement();
        let r = inp.parse(statement_unit(module.clone()));
        if r.is_ok() {
            inp.parse(&after)?;
        }
        let i = here(inp);
        let st = inp.state();
        if r.is_err() || st.stopped() || st.tok(i).is_none() {
            return r;
        }
        // More follows: several top-level items (MLIR's implicit module around them).
        st.wrap_top_module();
        let body = st.m.body;
        st.regions.push((body, RegionKind::Module));
        let r = inp.parse(&rest);
        inp.state().regions.pop();
        r
    });
    let implicit = custom(move |inp: &mut IRef<'s, '_>| {
        let st = inp.state();
        let body = st.m.body;
        st.regions.push((body, RegionKind::Module));
        let r = inp.parse(&stmts);
        inp.state().regions.pop();
        r
    });
    aliases
        .ignore_then(either(
            |l| {
                let a = l.a();
                a.is_some_and(|t| matches!(t.tok, Tok::BareId("module" | "builtin.module")))
            },
            module_file,
            implicit,
        ))
        .boxed()
}

/// Whether an alias definition (`!t =`, `#a =`) follows at the top level (fails silently if
/// not); starts it as a statement.
fn alias_start<'s>(inp: &mut IRef<'s, '_>) -> Result<(), TyErr<'s>> {
    let i = here(inp);
    let st = inp.state();
    if st.stopped() || !st.alias_def_at(i) {
        return Err(expected_here(inp, &[SILENT]));
    }
    st.open_statement(i);
    Ok(())
}

/// Decides whether another statement follows in the current region (fails silently if not),
/// and reports a stray `}` in an implicit module (consuming it as a failed statement).
fn statement_start<'s>(inp: &mut IRef<'s, '_>) -> Result<(), TyErr<'s>> {
    let i = here(inp);
    let st = inp.state();
    if st.split.is_some() {
        // The second half of the body may already be parsed (`split`).
        st.maybe_join(i);
    } else if st.fragment_cancelled() {
        return Err(expected_here(inp, &[SILENT]));
    }
    let st = inp.state();
    let (region, kind) = st.cur_region();
    let next = st.tok(i).map(|t| t.tok);
    let end = st.stopped()
        || match next {
            None => true,
            Some(Tok::RBrace) => kind != RegionKind::Module || !st.in_implicit_top(region),
            Some(Tok::BlockId(_)) => matches!(kind, RegionKind::Generic | RegionKind::Func),
            _ => false,
        };
    if end {
        return Err(expected_here(inp, &[SILENT]));
    }
    let st = inp.state();
    st.open_statement(i);
    Ok(())
}

/// A statement that reports its own failure, then recovers (syntax.md §8.2).
fn statement_unit<'s>(
    stmt: impl P<'s, In<'s>, (), SEx<'s>> + Clone + 's,
) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let reported = custom(move |inp: &mut IRef<'s, '_>| {
        let r = inp.parse(&stmt);
        let st = inp.state();
        match r {
            Ok(()) if !st.stmt_reported => Ok(()),
            Ok(()) => Err(TyErr::Reported),
            Err(e) => Err(st.report_failure(e)),
        }
    });
    let unit = reported.recover_with(via_parser(custom(|inp: &mut IRef<'s, '_>| recover(inp))));
    custom(move |inp: &mut IRef<'s, '_>| {
        // A `}` in an implicit module: `expected operation`, then it is skipped.
        if inp.peek() == Some(Tok::RBrace) {
            let e = expected_here(inp, &["operation"]);
            inp.state().report_err(e);
            inp.skip();
            return Ok(());
        }
        inp.parse(&unit)
    })
}

/// §8.2: from the failed statement's start (the cursor), skip to the next statement start.
fn recover<'s>(inp: &mut IRef<'s, '_>) -> Result<(), TyErr<'s>> {
    let start = here(inp);
    let st = inp.state();
    st.pos = st.fail_pos;
    st.recover(start);
    let mut to = st.pos;
    st.pos = start;
    if to <= start {
        to = start + 1;
    }
    advance_to(inp, to);
    Ok(())
}

/// One op statement (syntax.md §2 `op`), including `func.func` in a module body.
fn statement<'s>(forms: Forms<'s>, stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let group = value()
        .then(when(
            |l| is(l.a(), Tok::Colon) && l.b().is_some_and(|t| matches!(t.tok, Tok::Int(_))),
            tk(Tok::Colon).ignore_then(via(|p: &mut Parser<'s>| p.int_value())),
        ))
        .try_map_with(|((name, span), count), e| {
            let st: &mut Parser<'s> = e.state();
            let name = match name.split_once('#') {
                Some((base, _)) => {
                    st.error_at(ParseError::ResultNumberInDefinition, span);
                    base
                }
                None => name,
            };
            let (count, explicit, span) = match count {
                None => (1, false, span),
                Some((n, nspan)) => {
                    if !(1..=i64::from(u16::MAX)).contains(&n) {
                        st.error_at(
                            ParseError::TypeDomain {
                                message: format!("result count must be positive, found {n}"),
                            },
                            nspan,
                        );
                        return Err(st.reported());
                    }
                    (n as u32, true, span.join(nspan))
                }
            };
            Ok(GroupDef {
                name,
                count,
                explicit,
                span,
            })
        });
    let groups = group
        .separated_by(tk(Tok::Comma))
        .at_least(1)
        .collect::<Vec<_>>()
        .then_ignore(tk(Tok::Equals));
    let generic = generic_op(stmts.clone());
    let opaque = super::opaque::opaque_op(stmts.clone());
    let func = super::func_grammar::func_op(stmts.clone());
    let module = super::func_grammar::nested_module_op(stmts);
    let alias_def = super::alias::alias_def();
    let loc = trailing_loc();
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        let st = inp.state();
        let first = st.span_at(i);
        st.cur_first = first;
        st.cur_groups.clear();
        let (region, kind) = st.cur_region();
        let t0 = st.tok(i).map(|t| t.tok);
        match t0 {
            Some(Tok::ValueId(_)) => {
                let g = inp.parse(&groups)?;
                inp.state().cur_groups = g;
            }
            Some(Tok::AttrName(n) | Tok::TypeName(n)) if st.alias_def_at(i) => {
                // Aliases are defined at the top level of the chunk only (user guide, "Aliases and locations").
                if kind == RegionKind::Module && st.in_implicit_top(region) {
                    return inp.parse(&alias_def);
                }
                let err = ParseError::AliasNotTopLevel {
                    name: n.to_string(),
                };
                st.error_at(err, first);
                return Err(st.reported_at(i));
            }
            _ => {}
        }
        let j = here(inp);
        let st = inp.state();
        let next = st.tok(j).map(|t| t.tok);
        let no_groups = st.cur_groups.is_empty();
        match next {
            Some(Tok::Str(name)) => {
                st.ctx = Some((first, unescape(name)));
                inp.parse(&generic)?;
            }
            Some(Tok::BareId("module" | "builtin.module"))
                if kind == RegionKind::Module && no_groups =>
            {
                st.ctx = Some((first, "builtin.module".to_string()));
                inp.parse(&module)?;
            }
            Some(Tok::BareId(w @ ("module" | "builtin.module" | "func.func")))
                if w != "func.func" || kind != RegionKind::Module || !no_groups =>
            {
                let what = match w {
                    "func.func" => "nested functions",
                    _ if !no_groups => "results of a module",
                    _ => "modules outside a module body",
                };
                let span = st.span_at(j);
                st.error_at(
                    ParseError::Unsupported {
                        what: what.to_string(),
                    },
                    span,
                );
                st.pos = j;
                st.skip_to_block_end();
                let at = st.pos;
                return Err(st.reported_at(at));
            }
            Some(Tok::BareId("func.func")) => {
                st.ctx = Some((first, "func.func".to_string()));
                inp.parse(&func)?;
            }
            Some(Tok::BareId(written))
                if super::ops::canonical(written).is_none() && !st.strict_ops =>
            {
                // spec: D-5 (revised) — an unknown op in custom form is an opaque statement.
                st.ctx = Some((first, written.to_string()));
                inp.parse(&opaque)?;
            }
            Some(Tok::BareId(written)) => {
                let Some(name) = super::ops::canonical(written) else {
                    st.pos = j;
                    let groups = std::mem::take(&mut st.cur_groups);
                    st.unknown_custom(written, &groups);
                    return Err(st.reported_at(j));
                };
                st.ctx = Some((first, name.to_string()));
                let name_span = st.span_at(j);
                st.cur_name = name_span;
                inp.skip();
                if name == "func.return" && kind != RegionKind::Func && kind != RegionKind::Generic
                {
                    let st = inp.state();
                    let err = if kind == RegionKind::VecScope {
                        ParseError::ReturnInVecscope
                    } else {
                        ParseError::ReturnNotLast
                    };
                    st.error_at(err, name_span);
                    return Err(st.reported_at(j + 1));
                }
                match forms.get(name) {
                    Some(form) => inp.parse(form)?,
                    None if !crate::front::catalog::by_name(name).is_empty() => {
                        inp.parse(&forms.catalog)?
                    }
                    None => {
                        let st = inp.state();
                        st.pos = j + 1;
                        let groups = std::mem::take(&mut st.cur_groups);
                        st.unknown_custom(written, &groups);
                        return Err(st.reported_at(j + 1));
                    }
                }
            }
            _ => {
                let labels: &'static [&'static str] = if no_groups {
                    &["operation"]
                } else {
                    &["operation name"]
                };
                return inp.parse(fail(labels));
            }
        }
        inp.parse(&loc)?;
        Ok(())
    })
}

/// An optional `loc(...)` after a statement, a module or a function or block argument
/// (checked and dropped, `alias::Parser::skip_loc`).
pub(super) fn trailing_loc<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    when(
        |l| l.a().is_some_and(|t| matches!(t.tok, Tok::BareId("loc"))) && is(l.b(), Tok::LParen),
        via(|p: &mut Parser<'s>| p.skip_loc()),
    )
    .ignored()
}

/// The custom forms, by canonical op name.
#[derive(Clone)]
struct Forms<'s> {
    table: std::rc::Rc<rustc_hash::FxHashMap<&'static str, Op<'s>>>,
    /// The format interpreter, for every op of the catalog.
    catalog: Op<'s>,
}

impl<'s> Forms<'s> {
    fn new(stmts: Stmts<'s>) -> Self {
        let t: Vec<(&'static str, Op<'s>)> = vec![
            ("func.return", og::ret()),
            ("pto.tcvt", og::tcvt()),
            ("pto.vcvt", og::vcvt()),
            ("arith.constant", og::arith_constant()),
            ("pto.vecscope", vecscope(stmts)),
        ];
        Forms {
            table: std::rc::Rc::new(t.into_iter().collect()),
            catalog: super::catalog_form::catalog_op(),
        }
    }

    fn get(&self, name: &str) -> Option<&Op<'s>> {
        self.table.get(name)
    }
}

/// `pto.vecscope { ... } {attrs}` (no label, no terminator).
fn vecscope<'s>(stmts: Stmts<'s>) -> Op<'s> {
    let entries = og::opt_dict().map(|d| d.map(|(e, _)| e).unwrap_or_default());
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.state().depth > MAX_DEPTH {
            return Err(expected_here(inp, &["shallower nesting"]));
        }
        let open = inp.parse(tk(Tok::LBrace))?;
        let st = inp.state();
        let r = st.m.add_region(None, Span::default());
        st.depth += 1;
        let saved_ctx = st.ctx.take();
        let saved = (st.stmt_start, st.stmt_byte);
        let res = region_body(inp, &stmts, r, RegionKind::VecScope);
        let st = inp.state();
        (st.stmt_start, st.stmt_byte) = saved;
        st.ctx = saved_ctx;
        st.depth -= 1;
        res?;
        inp.parse(via(move |p: &mut Parser<'s>| p.close_region(r, open)))?;
        let entries = inp.parse(&entries)?;
        let st = inp.state();
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        let mut parts = OpParts::new(OpKind::VecScope, st.cur_name);
        parts.regions.push(r);
        parts.attrs = st.plain_attrs("pto.vecscope", entries, &[], &mut parts.spans.attrs);
        let groups = std::mem::take(&mut st.cur_groups);
        let (region, _) = st.cur_region();
        let first = st.cur_first;
        let res = st.finish_op(parts, &groups, region, first, Vec::new());
        st.cur_groups = groups;
        match res {
            Ok(_) => Ok(()),
            Err(_) => Err(st.reported()),
        }
    })
    .boxed()
}

/// `generic-op ::= STRING ( uses ) [< dict >] [( regions )] [dict] : function-type`.
fn generic_op<'s>(stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let name = tokf(&["string"], |t| match t {
        Tok::Str(s) => Some(s),
        _ => None,
    });
    let uses = tk(Tok::LParen).ignore_then(either(
        |l| {
            let a = l.a();
            is(a, Tok::RParen)
        },
        silent(Tok::RParen).to(Vec::new()),
        value()
            .separated_by(tk(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(tk(Tok::RParen)),
    ));
    let props = when(
        |l| is(l.a(), Tok::LAngle) && is(l.b(), Tok::LBrace),
        tk(Tok::LAngle)
            .ignore_then(via(|p: &mut Parser<'s>| p.attr_dict()))
            .then_ignore(tk(Tok::RAngle)),
    );
    let region = generic_region(stmts);
    let regions = when(
        |l| is(l.a(), Tok::LParen) && is(l.b(), Tok::LBrace),
        tk(Tok::LParen)
            .ignore_then(
                region
                    .separated_by(silent(Tok::Comma))
                    .at_least(1)
                    .collect::<Vec<_>>(),
            )
            .then_ignore(tk(Tok::RParen)),
    );
    let attrs = when(
        |l| {
            let a = l.a();
            is(a, Tok::LBrace)
        },
        via(|p: &mut Parser<'s>| p.attr_dict()),
    );
    let sig = tk(Tok::Colon)
        .ignore_then(super::stmt_prim::next_span())
        .then(function_type(ty()))
        .then(super::stmt_prim::prev_span());
    custom(move |inp: &mut IRef<'s, '_>| {
        let (lit, name_span) = inp.parse(&name)?;
        let uses = inp.parse(&uses)?;
        let st = inp.state();
        let mut parts = OpParts::new(OpKind::Return, name_span);
        for (n, s) in &uses {
            st.push_use(&mut parts, n, *s, None);
        }
        let props = inp.parse(&props)?;
        let regions = inp.parse(&regions)?;
        let attrs = inp.parse(&attrs)?;
        let ((_, (inputs, results)), after) = inp.parse(&sig)?;
        let st = inp.state();
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        parts.regions = regions.unwrap_or_default().into();
        if inputs.len() != uses.len() {
            let span = inputs
                .first()
                .map_or(after, |(_, s)| s.join(inputs.last().map_or(*s, |l| l.1)));
            st.error_at(
                ParseError::OperandTypeCount {
                    expected: uses.len(),
                    found: inputs.len(),
                },
                span,
            );
            return Err(st.reported());
        }
        for (i, t) in inputs.into_iter().enumerate() {
            st.set_operand_type(&mut parts, i, t);
        }
        let (rtys, rspans): (Vec<TypeId>, Vec<Span>) = results.into_iter().unzip();
        parts.result_types = rtys;
        let groups = std::mem::take(&mut st.cur_groups);
        let (region, _) = st.cur_region();
        let first = st.cur_first;
        let r = st.build_generic(
            parts,
            unescape(lit),
            props,
            attrs,
            &groups,
            region,
            first,
            rspans,
        );
        st.cur_groups = groups;
        r.map_err(|_| st.reported())
    })
}

impl<'s> Parser<'s> {
    /// Starts a statement at token `i`: the cursor moves there, top-level tokens before it are
    /// released, and the statement's context and failure state are reset.
    fn open_statement(&mut self, i: usize) {
        self.pos = i;
        if self.depth == 0 {
            self.drop_before(i);
        }
        self.set_stmt(i);
        self.ctx = None;
        self.begin_statement();
    }

    /// Resets the per-statement failure state.
    pub(super) fn begin_statement(&mut self) {
        self.stmt_reported = false;
        self.fail_pos = self.pos;
    }

    /// The region being filled and its kind.
    pub(super) fn cur_region(&self) -> (RegionId, RegionKind) {
        self.regions
            .last()
            .copied()
            .unwrap_or((self.m.body, RegionKind::Module))
    }

    /// Token index of a grammar error (for §8.2 recovery): the first token at or after its
    /// span, searched from the statement start.
    pub(super) fn index_of_error(&mut self, e: &TyErr<'s>) -> usize {
        let at = match e {
            TyErr::Expected { span, .. } => span.start,
            _ => return self.pos,
        };
        let mut i = self.stmt_start.max(self.buf.borrow().base_idx);
        while let Some(t) = self.tok(i) {
            if t.span.start >= at {
                break;
            }
            i += 1;
        }
        i
    }

    /// Ends a failed unit (statement, `.ptoasm` line, committed type): reports its error once
    /// and poisons the statement at the offending token; an already reported failure passes.
    pub(super) fn report_failure(&mut self, e: TyErr<'s>) -> TyErr<'s> {
        if !self.stmt_reported {
            let at = self.index_of_error(&e);
            self.report_err(e);
            self.reported_at(at);
        }
        TyErr::Reported
    }

    /// Reports a grammar error (syntax.md §8.1): `expected <set>, found <token>` with the context
    /// label of the current op, unless a lexical error on the statement's line silences it.
    pub(super) fn report_err(&mut self, e: TyErr<'s>) {
        if let TyErr::Expected {
            span,
            expected,
            found,
            note,
        } = e
        {
            let set: Vec<String> = expected
                .into_iter()
                .filter(|l| *l != SILENT)
                .map(str::to_string)
                .collect();
            let found = found.map_or_else(|| "end of input".to_string(), |t| t.describe());
            let err = ParseError::Expected {
                expected: super::sort_expected(set),
                found,
            };
            let span = Span::new(span.start, span.end);
            let mut d = Diagnostic::new(err.code(), err, span);
            if let Some(message) = note {
                d.notes.push(crate::diag::Note {
                    message,
                    span: None,
                });
            }
            self.report_syntax(d, span.start, true);
        }
    }
}
