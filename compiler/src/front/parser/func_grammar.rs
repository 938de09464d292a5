//! `func.func` and `module` (syntax.md §2) as chumsky parsers: the function header (named or
//! declaration arguments, results, `attributes`), the body with its `return` rules, the skip
//! past a failed header, and modules (the chunk's first, explicit module, and modules nested in
//! a module body) with the D-6 `pto.target_arch` check. Part of the statement grammar
//! (`stmt_grammar`), whose invariants apply.

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::attrs::{symbol_name, to_dict, Entry};
use super::fn_type_grammar::types_until_rparen;
use super::grammar::{TyErr, SILENT};
use super::module::{OpParts, RegionKind};
use super::op_grammar::{self as og, ty};
use super::region_grammar::{region_blocks, region_body};
use super::stmt_grammar::{trailing_loc, Stmts};
use super::stmt_prim::{
    either, expected_here, here, is, kw, silent, tk, tokf, via, when, IRef, In, SEx,
};
use super::{Parser, MAX_DEPTH};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{FuncOp, ModuleOp, OpKind, TypeId};

type Ty = (TypeId, Span);

/// A parsed function header (everything between the symbol's `(` and the body).
struct Header<'s> {
    named: Vec<(&'s str, Span, TypeId)>,
    decl_types: Vec<TypeId>,
    arg_attrs: Vec<Option<crate::ir::AttrDict>>,
    results: Vec<Ty>,
    attrs: Option<Vec<Entry>>,
}

/// One argument: `%a : T` (named) or `T` (declaration), each with an optional dictionary.
#[derive(Clone)]
enum Arg<'s> {
    Named(&'s str, Span, TypeId),
    Decl(TypeId),
}

fn func_header<'s>() -> impl P<'s, In<'s>, Header<'s>, SEx<'s>> + Clone {
    let named = tokf(&["value"], |t| match t {
        Tok::ValueId(v) => Some(v),
        _ => None,
    })
    .try_map_with(|(n, s), e| {
        let st: &mut Parser<'s> = e.state();
        if st.hdr_named == Some(false) {
            st.error_at(ParseError::MixedArgs, s);
            return Err(st.reported());
        }
        st.hdr_named = Some(true);
        Ok((n, s))
    })
    .then_ignore(tk(Tok::Colon))
    .then(ty())
    .map(|((n, s), (t, _))| Arg::Named(n, s, t));
    let decl = ty().try_map_with(|(t, s), e| {
        let st: &mut Parser<'s> = e.state();
        if st.hdr_named == Some(true) {
            st.error_at(ParseError::MixedArgs, s);
            return Err(st.reported());
        }
        st.hdr_named = Some(false);
        Ok(Arg::Decl(t))
    });
    let arg = either(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::ValueId(_)))
        },
        named,
        decl,
    )
    .then(og::opt_dict())
    .then_ignore(trailing_loc());
    let args = either(
        |l| {
            let a = l.a();
            is(a, Tok::RParen)
        },
        silent(Tok::RParen).to(Vec::new()),
        arg.separated_by(tk(Tok::Comma))
            .at_least(1)
            .collect::<Vec<_>>()
            .then_ignore(tk(Tok::RParen)),
    );
    let results = when(
        |l| {
            let a = l.a();
            is(a, Tok::Arrow)
        },
        tk(Tok::Arrow).ignore_then(either(
            |l| {
                let a = l.a();
                is(a, Tok::LParen)
            },
            tk(Tok::LParen).ignore_then(types_until_rparen(ty())),
            ty().map(|t| vec![t]),
        )),
    );
    let attrs = when(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::BareId("attributes")))
        },
        kw("attributes", &["'attributes'"]).ignore_then(via(|p: &mut Parser<'s>| p.attr_dict())),
    );
    args.then(results)
        .then(attrs)
        .map(|((args, results), attrs)| {
            let mut h = Header {
                named: Vec::new(),
                decl_types: Vec::new(),
                arg_attrs: Vec::new(),
                results: results.unwrap_or_default(),
                attrs,
            };
            for (a, d) in args {
                match a {
                    Arg::Named(n, s, t) => h.named.push((n, s, t)),
                    Arg::Decl(t) => h.decl_types.push(t),
                }
                let mut sp = crate::ir::AttrSpans::new();
                h.arg_attrs.push(d.map(|(d, _)| to_dict(d, &mut sp)));
            }
            h
        })
}

/// `func.func [vis] @sym (args) [-> results] [attributes {...}] [{ body }]`.
pub(super) fn func_op<'s>(stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let vis = when(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::BareId("private" | "public" | "nested")))
        },
        tokf(&[SILENT], |t| match t {
            Tok::BareId(v) => Some(v.to_string()),
            _ => None,
        }),
    );
    let sym = tokf(&["symbol"], |t| match t {
        Tok::Symbol(s) => Some(symbol_name(s)),
        _ => None,
    });
    let head = tokf(&["'func.func'"], |t| match t {
        Tok::BareId("func.func") => Some(()),
        _ => None,
    })
    .then(vis)
    .then(sym)
    .then_ignore(tk(Tok::LParen));
    let header = func_header();
    custom(move |inp: &mut IRef<'s, '_>| {
        let ((((), name_span), visibility), (sym, _)) = inp.parse(&head)?;
        let st = inp.state();
        // Function scope: names restart; the module-level map is restored afterwards.
        let saved = std::mem::take(&mut st.names);
        let r = func_rest(
            inp,
            &header,
            &stmts,
            name_span,
            sym,
            visibility.map(|v| v.0),
        );
        inp.state().names = saved;
        r
    })
}

fn func_rest<'s>(
    inp: &mut IRef<'s, '_>,
    header: &(impl P<'s, In<'s>, Header<'s>, SEx<'s>> + Clone),
    stmts: &Stmts<'s>,
    name_span: Span,
    sym: String,
    visibility: Option<String>,
) -> Result<(), TyErr<'s>> {
    let st = inp.state();
    st.hdr_named = None;
    let errors_before = st.errors;
    let h = match inp.parse(header) {
        Ok(h) => h,
        Err(e) => {
            // The header's error, then the rest of the header and the body are skipped, so
            // the body's statements cause no further errors.
            let st = inp.state();
            let at = if st.stmt_reported {
                st.fail_pos
            } else {
                let at = st.index_of_error(&e);
                st.report_err(e);
                at
            };
            let st = inp.state();
            st.pos = at;
            st.sync_lex();
            if st.errors > errors_before || st.stopped() || !st.lex_errs.is_empty() {
                st.skip_func_rest();
            }
            let to = st.pos;
            st.stmt_reported = false;
            return Err(st.reported_at(to));
        }
    };
    let st = inp.state();
    if st.stmt_reported {
        return Err(TyErr::Reported);
    }
    let first = name_span;
    let body = st.m.add_region(None, Span::default());
    let i = here(inp);
    let has_body = matches!(inp.state().tok(i).map(|t| t.tok), Some(Tok::LBrace));
    if has_body {
        let open = inp.parse(tk(Tok::LBrace))?;
        let st = inp.state();
        for (n, s, t) in &h.named {
            let v = st.m.add_region_arg(body, *n, *t, *s);
            st.define_arg(n, v);
        }
        let errors_before = st.errors;
        let first = here(inp);
        inp.state().offer_split(first);
        let label = super::region_grammar::block_label();
        region_blocks(inp, stmts, &label, body, RegionKind::Func)?;
        let close = inp.parse(via(move |p: &mut Parser<'s>| p.close_region(body, open)))?;
        let st = inp.state();
        // A failed statement may have been the `return`: no second error then.
        let clean = st.errors == errors_before;
        st.check_func_body(body, close, clean);
    } else if let Some((_, s, _)) = h.named.first() {
        let s = *s;
        inp.state().error_at(ParseError::NamedArgsNeedBody, s);
    }
    let st = inp.state();
    let (result_types, result_spans): (Vec<TypeId>, Vec<Span>) = h.results.into_iter().unzip();
    let mut parts = OpParts::new(
        OpKind::Func(Box::new(FuncOp {
            sym,
            visibility,
            result_types,
            arg_attrs: h.arg_attrs,
            decl_arg_types: if has_body { Vec::new() } else { h.decl_types },
            has_body,
        })),
        name_span,
    );
    if let Some(entries) = h.attrs {
        let mut spans = crate::ir::AttrSpans::new();
        parts.attrs = to_dict(entries, &mut spans);
        parts.spans.attrs = spans;
    }
    if has_body {
        parts.regions.push(body);
    }
    let (region, _) = st.cur_region();
    match st.finish_op(parts, &[], region, first, result_spans) {
        Ok(_) => Ok(()),
        Err(_) => Err(st.reported()),
    }
}

/// The head of a module: `module`/`builtin.module`, `[@sym]`, `[attributes {...}]`, `{`;
/// the D-6 `pto.target_arch` check runs on its dictionary.
type ModuleHead = (Span, Option<(String, Span)>, Option<Vec<Entry>>, Span);

fn module_head<'s>() -> impl P<'s, In<'s>, ModuleHead, SEx<'s>> + Clone {
    let name = when(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::Symbol(_)))
        },
        tokf(&["symbol"], |t| match t {
            Tok::Symbol(s) => Some(symbol_name(s)),
            _ => None,
        }),
    );
    let attrs = when(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::BareId("attributes")))
        },
        kw("attributes", &["'attributes'"]).ignore_then(via(|p: &mut Parser<'s>| p.attr_dict())),
    );
    tokf(&["'module'"], |t| match t {
        Tok::BareId("module" | "builtin.module") => Some(()),
        _ => None,
    })
    .then(name)
    .then(attrs.try_map_with(|entries, e| {
        let st: &mut Parser<'s> = e.state();
        for en in entries.iter().flatten() {
            if en.key == "pto.target_arch" {
                st.check_target_arch(&en.value, en.value_span);
            }
        }
        Ok(entries)
    }))
    .then(tk(Tok::LBrace))
    .map(|((((_, mstart), name), entries), open)| (mstart, name, entries, open))
}

/// The chunk's first statement when it is a `module`: its name and attributes are the IR
/// module's, its body the IR module's body.
pub(super) fn module_op<'s>(stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let head = module_head();
    let loc = trailing_loc();
    custom(move |inp: &mut IRef<'s, '_>| {
        let (mstart, name, entries, _) = inp.parse(&head)?;
        let st = inp.state();
        st.top_module_name = mstart;
        if let Some((n, _)) = name {
            st.m.name = Some(n);
        }
        if let Some(entries) = entries {
            let mut spans = crate::ir::AttrSpans::new();
            st.m.attrs = to_dict(entries, &mut spans);
            st.m.attrs_span = spans;
        }
        let body = st.m.body;
        region_body(inp, &stmts, body, RegionKind::Module)?;
        if inp.state().stopped() {
            return Ok(());
        }
        let end = inp.parse(tk(Tok::RBrace))?;
        let st = inp.state();
        if let Some(s) = st.m.spans.regions.get_mut(body.0 as usize) {
            *s = mstart.join(end);
        }
        inp.parse(&loc)
    })
}

/// A module in a module body (nested, or one of several top-level modules): an op whose body
/// is a fresh namespace for value names, like a function body.
pub(super) fn nested_module_op<'s>(stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let head = module_head();
    custom(move |inp: &mut IRef<'s, '_>| {
        if inp.state().module_depth > MAX_DEPTH {
            return Err(expected_here(inp, &["shallower nesting"]));
        }
        let (mstart, name, entries, open) = inp.parse(&head)?;
        let st = inp.state();
        let body = st.m.add_region(None, Span::default());
        let saved_names = std::mem::take(&mut st.names);
        let saved_ctx = st.ctx.take();
        let saved = (st.stmt_start, st.stmt_byte);
        st.module_depth += 1;
        let res = region_body(inp, &stmts, body, RegionKind::Module);
        let st = inp.state();
        st.module_depth -= 1;
        (st.stmt_start, st.stmt_byte) = saved;
        st.ctx = saved_ctx;
        st.names = saved_names;
        res?;
        inp.parse(via(move |p: &mut Parser<'s>| p.close_region(body, open)))?;
        let st = inp.state();
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        let mut parts = OpParts::new(
            OpKind::Module(Box::new(ModuleOp {
                name: name.as_ref().map(|(n, _)| n.clone()),
            })),
            mstart,
        );
        parts.regions.push(body);
        if let Some(entries) = entries {
            parts.attrs = to_dict(entries, &mut parts.spans.attrs);
        }
        if let Some((_, s)) = name {
            // The symbol's span, for `redefinition of symbol` (as a generic op's `sym_name`).
            parts.spans.attrs.insert("sym_name".to_string(), s);
        }
        let (region, _) = st.cur_region();
        let first = st.cur_first;
        match st.finish_op(parts, &[], region, first, Vec::new()) {
            Ok(_) => Ok(()),
            Err(_) => Err(st.reported()),
        }
    })
}
