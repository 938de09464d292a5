//! Custom forms of the hand-written ops (syntax.md §2.3, §5, §6.1): `pto.tcvt`, `pto.vcvt`,
//! `arith.constant` and `return` (why these are not catalog rows: the catalog's module doc;
//! every other known op is a row, read by `catalog_form`), as chumsky parsers over the
//! statement input, dispatched on the op-name token by `stmt_grammar`. Each form reads its
//! tokens, then builds the op in one `try_map_with` step (bind uses, check attributes, push the
//! op and define its results), in the same order as the forms' syntax.
//!
//! Invariants: the `expected` sets are those of the forms' syntax in syntax.md (optional pieces
//! are silent); a build step first checks that the statement is not poisoned (a primitive
//! already reported its failure), so nothing is built after a reported error.

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::attrs::Entry;
use super::grammar::TyErr;
use super::module::OpParts;
use super::stmt_prim::{
    either, is, kw, next_span, peek_is, prev_span, silent, tk, value, via, when, In, SEx,
};
use super::Parser;
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{Attr, OpKind, TcvtForm, TcvtOp, TypeId, VcvtOp};

pub(super) type Op<'s> = Boxed<'s, 's, In<'s>, (), SEx<'s>>;
type Ty = (TypeId, Span);
type Use<'s> = (&'s str, Span);

pub(super) use super::fn_type_grammar::ty;

/// An optional `{...}`: a `{` commits to a dictionary (its failure fails the op).
pub(super) fn opt_dict<'s>() -> impl P<'s, In<'s>, Option<(Vec<Entry>, Span)>, SEx<'s>> + Clone {
    via(|p: &mut Parser<'s>| p.opt_attr_dict())
}

fn entries<'s>() -> impl P<'s, In<'s>, Vec<Entry>, SEx<'s>> + Clone {
    opt_dict().map(|d| d.map(|(e, _)| e).unwrap_or_default())
}

/// `use { , use }`: a comma continues the list only when a value follows it.
fn use_list<'s>() -> impl P<'s, In<'s>, Vec<Use<'s>>, SEx<'s>> + Clone {
    value()
        .separated_by(
            peek_is(|l| {
                is(l.a(), Tok::Comma) && l.b().is_some_and(|t| matches!(t.tok, Tok::ValueId(_)))
            })
            .ignore_then(tk(Tok::Comma)),
        )
        .at_least(1)
        .collect::<Vec<_>>()
}

/// `type { , type }` for `n` operands; a count mismatch is `OperandTypeCount`.
fn types_for<'s>(n: usize) -> impl P<'s, In<'s>, Vec<Ty>, SEx<'s>> + Clone {
    next_span()
        .then(
            ty().separated_by(silent(Tok::Comma))
                .at_least(1)
                .at_most(n.max(1))
                .collect::<Vec<_>>(),
        )
        .then(prev_span())
        .try_map_with(move |((first, tys), last), e| {
            let st: &mut Parser<'s> = e.state();
            if st.stmt_reported {
                return Err(TyErr::Reported);
            }
            if tys.len() != n {
                st.error_at(
                    ParseError::OperandTypeCount {
                        expected: n,
                        found: tys.len(),
                    },
                    first.join(last),
                );
                return Err(st.reported());
            }
            Ok(tys)
        })
}

/// Shared tail of a form: binds, checks, pushes (see the module doc).
fn build<'s, O, F>(
    p: impl P<'s, In<'s>, O, SEx<'s>> + Clone,
    f: F,
) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone
where
    F: Fn(&mut Parser<'s>, O, &mut OpParts, &mut Vec<Span>) -> Result<(), TyErr<'s>> + Clone,
{
    p.try_map_with(move |o, e| {
        let st: &mut Parser<'s> = e.state();
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        let mut parts = OpParts::new(OpKind::Return, st.cur_name);
        let mut rspans = Vec::new();
        f(st, o, &mut parts, &mut rspans)?;
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        let groups = std::mem::take(&mut st.cur_groups);
        let (region, _) = st.cur_region();
        let first = st.cur_first;
        let r = st.finish_op(parts, &groups, region, first, rspans);
        st.cur_groups = groups;
        match r {
            Ok(_) => Ok(()),
            Err(_) => Err(st.reported()),
        }
    })
}

fn push_typed<'s>(st: &mut Parser<'s>, parts: &mut OpParts, uses: &[Use<'s>], tys: Vec<Ty>) {
    for ((n, s), t) in uses.iter().zip(tys) {
        st.push_use(parts, n, *s, Some(t));
    }
}

fn one_result(parts: &mut OpParts, rspans: &mut Vec<Span>, (t, s): Ty) {
    parts.result_types.push(t);
    rspans.push(s);
}

fn plain<'s>(
    st: &mut Parser<'s>,
    name: &str,
    parts: &mut OpParts,
    entries: Vec<Entry>,
    own: &[&str],
) {
    parts.attrs = st.plain_attrs(name, entries, own, &mut parts.spans.attrs);
}

/// `return [uses : types]`; the operands must sit on the return's line.
pub(super) fn ret<'s>() -> Op<'s> {
    let operands = when(
        |l| {
            let a = l.a();
            a.is_some_and(|t| !t.line_start && matches!(t.tok, Tok::ValueId(_)))
        },
        use_list().then_ignore(tk(Tok::Colon)).then_with_types(),
    );
    build(operands, |st, ops, parts, _| {
        if let Some((uses, tys)) = ops {
            push_typed(st, parts, &uses, tys);
        }
        parts.kind = OpKind::Return;
        Ok(())
    })
    .boxed()
}

/// `uses` followed by their types.
trait ThenTypes<'s>: P<'s, In<'s>, Vec<Use<'s>>, SEx<'s>> + Clone + Sized {
    fn then_with_types(self) -> impl P<'s, In<'s>, (Vec<Use<'s>>, Vec<Ty>), SEx<'s>> + Clone {
        custom(
            move |inp: &mut chumsky::input::InputRef<'s, '_, In<'s>, SEx<'s>>| {
                let uses = inp.parse(&self)?;
                let tys = inp.parse(types_for(uses.len()))?;
                Ok((uses, tys))
            },
        )
    }
}
impl<'s, T: P<'s, In<'s>, Vec<Use<'s>>, SEx<'s>> + Clone> ThenTypes<'s> for T {}

pub(super) fn vcvt<'s>() -> Op<'s> {
    let p = value()
        .then_ignore(tk(Tok::Comma))
        .then(value())
        .then(entries())
        .then_ignore(tk(Tok::Colon))
        .then(types_for(2))
        .then_ignore(tk(Tok::Arrow))
        .then(ty());
    build(p, |st, ((((a, b), entries), tys), rt), parts, rspans| {
        push_typed(st, parts, &[a, b], tys);
        one_result(parts, rspans, rt);
        let v = st.vcvt_attrs(entries, &mut parts.spans.attrs);
        parts.attrs = v.extra;
        parts.kind = OpKind::Vcvt(VcvtOp {
            rnd: v.rnd,
            sat: v.sat,
            part: v.part,
        });
        Ok(())
    })
    .boxed()
}

pub(super) fn arith_constant<'s>() -> Op<'s> {
    // A numeric literal needs `: type` right after it.
    let literal = via(|p: &mut Parser<'s>| match p.peek() {
        Some(Tok::Int(_) | Tok::HexInt(_) | Tok::Float(_)) => {
            if !matches!(p.peek_at(1), Some(Tok::Colon)) {
                p.bump();
                return Err(p.expected(&["':'"]));
            }
            p.attr_value()
        }
        Some(Tok::BareId("true" | "false")) => p.attr_value(),
        // `dense<...> : vector<4xi16>`: an elements attribute, typed (Attr::Typed).
        Some(Tok::BareId("dense" | "dense_resource" | "sparse"))
            if matches!(p.peek_at(1), Some(Tok::LAngle)) =>
        {
            let v = p.attr_value()?;
            if matches!(v, Attr::Typed { .. }) {
                Ok(v)
            } else {
                Err(p.expected(&["':'"]))
            }
        }
        _ => Err(p.expected(&["literal"])),
    });
    let p = entries().then(next_span()).then(literal).then(prev_span());
    build(
        p,
        |st, (((entries, vstart), value), vend), parts, rspans| {
            let ty = match &value {
                Attr::Int { ty, .. } | Attr::Hex { ty, .. } | Attr::Float { ty, .. } => *ty,
                Attr::Typed { ty, .. } => Some(*ty),
                _ => Some(
                    st.m.types
                        .intern(crate::ir::Type::Scalar(crate::ir::ScalarType::Int {
                            width: 1,
                            signedness: crate::ir::types::Signedness::Signless,
                        })),
                ),
            };
            let ty = ty.unwrap_or_else(|| st.any_type());
            parts.result_types.push(ty);
            rspans.push(vstart.join(vend));
            plain(st, "arith.constant", parts, entries, &[]);
            parts.kind = OpKind::ArithConstant {
                value: Box::new(value),
            };
            Ok(())
        },
    )
    .boxed()
}

/// tcvt forms (a)-(d) (syntax.md §5).
pub(super) fn tcvt<'s>() -> Op<'s> {
    let dps = kw("ins", &["'ins'"])
        .ignore_then(tk(Tok::LParen))
        .ignore_then(use_list())
        .then(opt_dict())
        .then_ignore(tk(Tok::Colon))
        .then_types_after_dict()
        .then_ignore(tk(Tok::RParen))
        .then_ignore(kw("outs", &["'outs'"]))
        .then_ignore(tk(Tok::LParen))
        .then(value())
        .then_ignore(tk(Tok::Colon))
        .then(ty())
        .then_ignore(tk(Tok::RParen))
        .then(opt_dict()); // spec: D-21
    let dps = build(
        dps,
        |st, ((((uses, inner, tys), d), dt), trailing), parts, _| {
            push_typed(st, parts, &uses, tys);
            st.push_use(parts, d.0, d.1, Some(dt));
            let entries = match (inner, trailing) {
                (Some(_), Some((_, span))) => {
                    st.error_at(ParseError::TcvtAttrsBoth, span);
                    return Err(st.reported());
                }
                (Some((e, _)), None) | (None, Some((e, _))) => e,
                (None, None) => Vec::new(),
            };
            if let Some(g) = st.cur_groups.first() {
                let span = g.span;
                st.error_at(ParseError::TcvtDpsResults, span);
                return Err(st.reported());
            }
            tcvt_finish(st, parts, entries, uses.len(), TcvtForm::Dps)
        },
    );
    let ssa = use_list()
        .then(entries())
        .then_ignore(tk(Tok::Colon))
        .then_types_after_entries()
        .then_ignore(tk(Tok::Arrow))
        .then(ty());
    let ssa = build(ssa, |st, (((uses, entries), tys), rt), parts, rspans| {
        push_typed(st, parts, &uses, tys);
        one_result(parts, rspans, rt);
        let given: u32 = st.cur_groups.iter().map(|g| g.count).sum();
        if given != 1 {
            let span = parts.spans.name;
            st.error_at(ParseError::TcvtSsaResults, span);
            return Err(st.reported());
        }
        tcvt_finish(st, parts, entries, uses.len(), TcvtForm::Ssa)
    });
    either(
        |l| {
            let a = l.a();
            a.is_some_and(|t| matches!(t.tok, Tok::BareId("ins")))
        },
        dps,
        ssa,
    )
    .boxed()
}

fn tcvt_finish<'s>(
    st: &mut Parser<'s>,
    parts: &mut OpParts,
    entries: Vec<Entry>,
    n_uses: usize,
    form: TcvtForm,
) -> Result<(), TyErr<'s>> {
    if n_uses > 2 {
        let span = parts.spans.operands.get(2).copied().unwrap_or(st.cur_first);
        st.error_at(
            ParseError::OperandCount {
                op: "pto.tcvt".to_string(),
                expected: "1 or 2 source".to_string(),
                found: n_uses,
            },
            span,
        );
        return Err(st.reported());
    }
    let a = st.tcvt_attrs(entries, &mut parts.spans.attrs);
    parts.attrs = a.extra;
    parts.kind = OpKind::Tcvt(TcvtOp {
        form,
        has_tmp: n_uses == 2,
        rmode: a.rmode,
        sat: a.sat,
    });
    Ok(())
}

type DictOpt = Option<(Vec<Entry>, Span)>;

/// Types of a use list read before a dictionary.
trait ThenTypesAfter<'s, D: Clone>: P<'s, In<'s>, (Vec<Use<'s>>, D), SEx<'s>> + Clone + Sized {
    fn then_types_after(self) -> impl P<'s, In<'s>, (Vec<Use<'s>>, D, Vec<Ty>), SEx<'s>> + Clone {
        custom(
            move |inp: &mut chumsky::input::InputRef<'s, '_, In<'s>, SEx<'s>>| {
                let (uses, d) = inp.parse(&self)?;
                let tys = inp.parse(types_for(uses.len()))?;
                Ok((uses, d, tys))
            },
        )
    }
}
impl<'s, D: Clone, T: P<'s, In<'s>, (Vec<Use<'s>>, D), SEx<'s>> + Clone> ThenTypesAfter<'s, D>
    for T
{
}

trait TcvtTypes<'s>: P<'s, In<'s>, (Vec<Use<'s>>, DictOpt), SEx<'s>> + Clone + Sized {
    fn then_types_after_dict(
        self,
    ) -> impl P<'s, In<'s>, (Vec<Use<'s>>, DictOpt, Vec<Ty>), SEx<'s>> + Clone {
        self.then_types_after()
    }
}
impl<'s, T: P<'s, In<'s>, (Vec<Use<'s>>, DictOpt), SEx<'s>> + Clone> TcvtTypes<'s> for T {}

trait SsaTypes<'s>: P<'s, In<'s>, (Vec<Use<'s>>, Vec<Entry>), SEx<'s>> + Clone + Sized {
    fn then_types_after_entries(
        self,
    ) -> impl P<'s, In<'s>, ((Vec<Use<'s>>, Vec<Entry>), Vec<Ty>), SEx<'s>> + Clone {
        self.then_types_after().map(|(u, e, t)| ((u, e), t))
    }
}
impl<'s, T: P<'s, In<'s>, (Vec<Use<'s>>, Vec<Entry>), SEx<'s>> + Clone> SsaTypes<'s> for T {}
