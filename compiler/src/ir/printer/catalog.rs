//! Custom forms of catalog ops (`front::catalog`): the printer as the format interpreter's
//! [`Writer`]. Per-op syntax is only in the rows; this file knows none.

use super::Printer;
use crate::front::catalog;
use crate::front::catalog::format::{AttrKind, Compiled};
use crate::front::catalog::interp::{self, Writer};
use crate::ir::{Attr, OpData, Type, UNKNOWN_TYPE};

struct W<'p, 'm> {
    p: &'p mut Printer<'m>,
    op: &'p OpData,
    c: &'static Compiled,
    /// Format-bound attributes the op's kind carries (`pattern` of `pto.pset_*`).
    kind_attrs: Vec<(&'static str, Attr)>,
}

impl W<'_, '_> {
    fn get(&self, name: &str) -> Option<&Attr> {
        self.kind_attrs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| v)
            .or_else(|| self.op.attrs.get(name))
    }

    /// Attributes that `attr-dict` prints: all but the format-bound ones.
    fn dict_keys(&self) -> (Vec<(&'static str, Attr)>, Vec<&'static str>) {
        let bound: Vec<&'static str> = self
            .c
            .attrs
            .iter()
            .filter(|a| a.bound)
            .map(|a| a.name)
            .collect();
        // The row's own keys print first in row order, then the rest sorted (D-25).
        let own: Vec<(&'static str, Attr)> = self
            .c
            .attrs
            .iter()
            .filter(|a| !a.bound)
            .filter_map(|a| self.op.attrs.get(a.name).map(|v| (a.name, v.clone())))
            .collect();
        let mut skip = bound;
        skip.extend(own.iter().map(|(k, _)| *k));
        (own, skip)
    }
}

impl Writer for W<'_, '_> {
    fn raw(&mut self, text: &str) {
        self.p.out.push_str(text);
    }
    fn operand(&mut self, i: usize) {
        self.p.operand(self.op, i);
    }
    fn operand_ty(&mut self, i: usize) {
        self.p.operand_type(self.op, i);
    }
    fn result_ty(&mut self, i: usize) {
        self.p.result_type(self.op, i);
    }
    fn n_results(&self) -> usize {
        self.op.results.len()
    }
    fn result_known(&self, i: usize) -> bool {
        self.op
            .results
            .get(i)
            .and_then(|&v| self.p.m.values.get(v.0 as usize))
            .is_some_and(
                |d| !matches!(self.p.m.types.get(d.ty), Type::Opaque(t) if t == UNKNOWN_TYPE),
            )
    }
    fn has_attr(&self, a: usize) -> bool {
        self.c
            .attrs
            .get(a)
            .is_some_and(|s| self.get(s.name).is_some())
    }
    fn attr(&mut self, a: usize, kind: AttrKind) {
        let Some(v) = self.c.attrs.get(a).and_then(|s| self.get(s.name)).cloned() else {
            return;
        };
        match (kind, &v) {
            (AttrKind::Keyword(_), Attr::Str(s)) => self.p.out.push_str(s),
            (AttrKind::Unit, _) => {}
            (AttrKind::Flags(set), Attr::Opaque(t)) if t.starts_with(set.attr) => {
                self.p.out.push_str(&t[set.attr.len()..]);
            }
            _ => self.p.attr(&v),
        }
    }
    fn dict_nonempty(&self) -> bool {
        let (own, skip) = self.dict_keys();
        !own.is_empty() || self.op.attrs.keys().any(|k| !skip.contains(&k.as_str()))
    }
    fn dict(&mut self) {
        let (own, skip) = self.dict_keys();
        self.p.known_dict("", &own, &self.op.attrs, &skip);
    }
}

impl Printer<'_> {
    /// The custom form of a catalog op, if `op` is one; `false` otherwise.
    pub(super) fn catalog_op(&mut self, op: &OpData) -> bool {
        let Some(of) = catalog::row_of(&op.kind) else {
            return false;
        };
        let Some((row, c)) = catalog::get(of.row) else {
            return false;
        };
        self.result_defs(op);
        self.out.push_str(row.name);
        let mut w = W {
            p: self,
            op,
            c,
            kind_attrs: of.attrs,
        };
        interp::print(c, &of.segments, &mut w);
        true
    }
}
