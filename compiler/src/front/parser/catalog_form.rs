//! Catalog rows (`front::catalog`) in custom form: the statement parser as the format
//! interpreter's [`Reader`], and the build step that turns the [`Pieces`] read into an op
//! (bind uses, type agreement of the row's `same` groups, attributes, `OpKind` by the row's
//! builder). Nothing here knows an op: per-op syntax is only in the rows. A format-bound
//! attribute's span is its own text (a unit attribute's: the keyword that sets it), so rule
//! diagnostics on it (e.g. `pto.convert`'s `nosat`) point at the word.

use chumsky::prelude::*;
use chumsky::Parser as _;

use super::attrs::Entry;
use super::grammar::TyErr;
use super::module::OpParts;
use super::op_grammar::{opt_dict, ty, Op};
use super::stmt_prim::{either, here, is, next_span, prev_span, tk, tokf, value, via, IRef};
use super::Parser;
use crate::diag::Span;
use crate::front::catalog::format::{Arity, AttrKind, Lit, Ref};
use crate::front::catalog::interp::{self, Look, Pieces, Reader};
use crate::front::catalog::{self, RowId};
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::{Attr, OpKind, Type, TypeId, ValueDef};

type Ty = (TypeId, Span);

fn lit_matches(t: Tok<'_>, want: Tok<'static>) -> bool {
    match want {
        Tok::BareId(w) => matches!(t, Tok::BareId(x) if x == w),
        _ => super::same_kind(t, want),
    }
}

struct Rd<'a, 's: 'p, 'p> {
    inp: &'a mut IRef<'s, 'p>,
}

impl<'s> Rd<'_, 's, '_> {
    /// A bare keyword; one of `words` unless that is empty.
    fn word(
        &mut self,
        labels: &'static [&'static str],
        words: &'static [&'static str],
    ) -> Result<String, TyErr<'s>> {
        self.inp
            .parse(tokf(labels, move |t| match t {
                Tok::BareId(w) if words.is_empty() || words.contains(&w) => Some(w),
                _ => None,
            }))
            .map(|(w, _)| w.to_string())
    }
    /// A format-bound attribute's value, read by its kind (not `Unit`: see `attr`).
    fn attr_value(&mut self, kind: AttrKind) -> Result<Attr, TyErr<'s>> {
        match kind {
            AttrKind::Any => self.inp.parse(via(|p: &mut Parser<'s>| p.attr_value())),
            AttrKind::Keyword(None) => self.word(&["keyword"], &[]).map(Attr::Str),
            AttrKind::Keyword(Some(set)) => self.word(set.labels, set.words).map(Attr::Str),
            AttrKind::Str => self
                .inp
                .parse(tokf(&["string"], |t| match t {
                    Tok::Str(s) => Some(s),
                    _ => None,
                }))
                .map(|(s, _)| Attr::Str(unescape(s))),
            AttrKind::Unit => Ok(Attr::Unit),
            AttrKind::Flags(set) => {
                self.inp.parse(tk(Tok::LAngle))?;
                let mut words = vec![self.word(set.labels, set.words)?];
                while self.at(0, Look::Lit(&interp::COMMA)) {
                    self.inp.parse(tk(Tok::Comma))?;
                    words.push(self.word(set.labels, set.words)?);
                }
                self.inp.parse(tk(Tok::RAngle))?;
                Ok(Attr::Opaque(format!("{}<{}>", set.attr, words.join(", "))))
            }
        }
    }
}

impl<'s> Reader for Rd<'_, 's, '_> {
    type Use = (&'s str, Span);
    type Ty = Ty;
    /// The value and the span of its text (for a unit attribute: its keyword).
    type Attr = (Attr, Span);
    type Dict = Vec<Entry>;
    type Err = TyErr<'s>;

    fn at(&mut self, ahead: usize, what: Look<'_>) -> bool {
        let i = here(self.inp) + ahead;
        let t = self.inp.state().tok(i).map(|t| t.tok);
        match what {
            Look::Value => matches!(t, Some(Tok::ValueId(_))),
            Look::Lit(l) => t.is_some_and(|t| lit_matches(t, l.tok)),
        }
    }

    fn lit(&mut self, l: &Lit) -> Result<(), TyErr<'s>> {
        let want = l.tok;
        self.inp
            .parse(tokf(l.label, move |t| lit_matches(t, want).then_some(())))
            .map(|_| ())
    }

    fn value(&mut self) -> Result<(&'s str, Span), TyErr<'s>> {
        self.inp.parse(value())
    }

    fn ty(&mut self) -> Result<Ty, TyErr<'s>> {
        // D-7b: `<loc=ub, ...>` stands for `!pto.tile_buf<...>` (no other type starts so).
        let bare = via(|p: &mut Parser<'s>| {
            let start = p.bump();
            let ty = p.tile_buf_after_angle(start)?;
            Ok((p.m.types.intern(ty), start.join(p.prev_span())))
        });
        self.inp
            .parse(either(|l| is(l.a(), Tok::LAngle), bare, ty()))
    }

    fn attr(&mut self, kind: AttrKind) -> Result<(Attr, Span), TyErr<'s>> {
        if kind == AttrKind::Unit {
            // Set by the keyword just read: that keyword is its text.
            return Ok((Attr::Unit, self.inp.parse(prev_span())?));
        }
        let start = self.inp.parse(next_span())?;
        let a = self.attr_value(kind)?;
        let end = self.inp.parse(prev_span())?;
        Ok((a, start.join(end)))
    }

    fn dict(&mut self) -> Result<Option<Vec<Entry>>, TyErr<'s>> {
        Ok(self.inp.parse(opt_dict())?.map(|(e, _)| e))
    }

    fn type_count(&mut self, expected: usize, found: usize) -> TyErr<'s> {
        let i = here(self.inp);
        let st = self.inp.state();
        let span = st.span_at(i);
        st.error_at(ParseError::OperandTypeCount { expected, found }, span);
        st.reported()
    }
}

/// The custom form of every catalog op; the row comes from the op name of the statement.
pub(super) fn catalog_op<'s>() -> Op<'s> {
    custom(move |inp: &mut IRef<'s, '_>| {
        let name = inp
            .state()
            .ctx
            .as_ref()
            .map(|c| c.1.clone())
            .unwrap_or_default();
        let ids = catalog::by_name(&name);
        let rows: Vec<_> = ids
            .iter()
            .filter_map(|&i| catalog::get(i).map(|(_, c)| c))
            .collect();
        let mut rd = Rd { inp };
        let k = interp::pick(&rows, &mut rd);
        let (Some(&id), Some(c)) = (ids.get(k), rows.get(k)) else {
            return Err(TyErr::Reported);
        };
        let pieces = interp::parse(c, &mut rd)?;
        build(inp.state(), id, pieces)
    })
    .boxed()
}

type P<'s> = Pieces<(&'s str, Span), Ty, (Attr, Span), Vec<Entry>>;

fn build<'s>(st: &mut Parser<'s>, id: RowId, p: P<'s>) -> Result<(), TyErr<'s>> {
    if st.stmt_reported {
        return Err(TyErr::Reported);
    }
    let Some((row, c)) = catalog::get(id) else {
        return Err(TyErr::Reported);
    };
    // Types per operand and per result, written or not.
    let mut op_tys: Vec<Vec<Option<Ty>>> = p
        .operands
        .iter()
        .zip(&p.operand_types)
        .map(|(vals, tys)| (0..vals.len()).map(|k| tys.get(k).copied()).collect())
        .collect();
    let mut res_tys: Vec<Vec<Option<Ty>>> = c
        .results
        .iter()
        .zip(&p.result_types)
        .map(|(seg, tys)| match (seg.arity, tys.is_empty()) {
            (_, false) => tys.iter().copied().map(Some).collect(),
            (Arity::One, true) => vec![None],
            _ => Vec::new(),
        })
        .collect();
    for group in &c.same {
        let mut first: Option<(Ty, Ref)> = None;
        for &r in group {
            let tys = match r {
                Ref::Operand(i) => &op_tys[i],
                Ref::Result(i) => &res_tys[i],
                Ref::Attr(_) => continue,
            };
            for t in tys.iter().flatten() {
                match first {
                    None => first = Some((*t, r)),
                    Some((f, fr)) if f.0 != t.0 => {
                        let name = |r: Ref| match r {
                            Ref::Operand(i) => format!("${}", c.operands[i].name),
                            Ref::Result(i) => format!("${}", c.results[i].name),
                            Ref::Attr(i) => format!("${}", c.attrs[i].name),
                        };
                        let err = ParseError::OpTypeAgreement {
                            op: row.name.to_string(),
                            pieces: format!(
                                "{} and {}, found {} and {}",
                                name(fr),
                                name(r),
                                crate::ir::printer::print_type(&st.m.types, f.0),
                                crate::ir::printer::print_type(&st.m.types, t.0)
                            ),
                        };
                        st.error_at(err, t.1);
                        return Err(st.reported());
                    }
                    Some(_) => {}
                }
            }
        }
        if let Some((f, _)) = first {
            for &r in group {
                let tys = match r {
                    Ref::Operand(i) => &mut op_tys[i],
                    Ref::Result(i) => &mut res_tys[i],
                    Ref::Attr(_) => continue,
                };
                for t in tys.iter_mut().filter(|t| t.is_none()) {
                    *t = Some(f);
                }
            }
        }
    }
    if row.bool_result {
        let scalar = op_tys
            .first()
            .and_then(|v| v.first().copied().flatten())
            .filter(|t| matches!(st.m.types.get(t.0), Type::Scalar(_)));
        if let (Some(t), Some(slot)) = (scalar, res_tys.first_mut().and_then(|v| v.first_mut())) {
            if slot.is_none() {
                let i1 = st.m.types.intern(Type::Scalar(crate::ir::ScalarType::Int {
                    width: 1,
                    signedness: crate::ir::types::Signedness::Signless,
                }));
                *slot = Some((i1, t.1));
            }
        }
    }
    let mut parts = OpParts::new(OpKind::Return, st.cur_name);
    for (vals, tys) in p.operands.iter().zip(&op_tys) {
        for (u, t) in vals.iter().zip(tys) {
            st.push_use(&mut parts, u.0, u.1, *t);
        }
    }
    let mut rspans = Vec::new();
    for t in res_tys.iter().flatten() {
        let (t, s) = t.unwrap_or_else(|| (st.any_type(), st.cur_name));
        parts.result_types.push(t);
        rspans.push(s);
    }
    // A variadic result segment whose types the format never writes takes as many results as
    // are named.
    if c.results
        .iter()
        .zip(&c.result_typed)
        .any(|(s, typed)| s.arity == Arity::Many && !typed)
        && p.result_types.iter().all(Vec::is_empty)
    {
        let given: u32 = st.cur_groups.iter().map(|g| g.count).sum();
        while parts.result_types.len() < given as usize {
            let any = st.any_type();
            parts.result_types.push(any);
            rspans.push(st.cur_name);
        }
    }
    let entries = p.dict.unwrap_or_default();
    let own: Vec<&str> = if row.open_attrs() {
        entries.iter().map(|e| e.key.as_str()).collect::<Vec<_>>()
    } else {
        c.attrs.iter().map(|a| a.name).collect()
    };
    // A format-bound attribute given in the dictionary prints in its place in the custom
    // form, so its value must be of the kind that place reads.
    if let Some((spec, e)) = c.attrs.iter().filter(|a| a.bound).find_map(|a| {
        let e = entries.iter().find(|e| e.key == a.name)?;
        (!catalog::attr_fits(a, &e.value)).then_some((a, e))
    }) {
        let err = ParseError::Expected {
            expected: vec![format!("{} as the custom form writes it", spec.name)],
            found: "another attribute value".to_string(),
        };
        st.error_at(err, e.span);
        return Err(st.reported());
    }
    // `own` borrows `entries`; collect owned keys first for the open case.
    let own: Vec<String> = own.into_iter().map(str::to_string).collect();
    let own: Vec<&str> = own.iter().map(String::as_str).collect();
    parts.attrs = st.plain_attrs(row.name, entries, &own, &mut parts.spans.attrs);
    for (spec, a) in c.attrs.iter().zip(p.attrs) {
        if let Some((a, span)) = a {
            parts.spans.attrs.insert(spec.name.to_string(), span);
            parts.attrs.insert(spec.name.to_string(), a);
        }
    }
    let segs: Vec<u32> = p.operands.iter().map(|v| v.len() as u32).collect();
    parts.kind = catalog::build_kind(id, &segs, &mut parts.attrs);
    let groups = std::mem::take(&mut st.cur_groups);
    let (region, _) = st.cur_region();
    let first = st.cur_first;
    // Results left unnamed (`func.call @f() : () -> i64` as a statement): the op has them,
    // nothing can use them, and they print back unnamed.
    let unnamed = if groups.is_empty() && !parts.result_types.is_empty() {
        let tys = std::mem::take(&mut parts.result_types);
        Some((tys, rspans.clone()))
    } else {
        None
    };
    let r = st.finish_op(parts, &groups, region, first, rspans);
    st.cur_groups = groups;
    let id = r.map_err(|_| st.reported())?;
    if let Some((tys, spans)) = unnamed {
        let results = tys
            .iter()
            .zip(spans)
            .enumerate()
            .map(|(index, (&ty, span))| {
                let def = ValueDef::Result {
                    op: id,
                    index: index as u32,
                };
                st.m.add_value(String::new(), ty, def, span)
            })
            .collect();
        st.m.ops[id.0 as usize].results = results;
    }
    Ok(())
}
