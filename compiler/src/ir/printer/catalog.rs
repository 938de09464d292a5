//! Custom forms of catalog ops (`front::catalog`): the printer as the format interpreter's
//! [`Writer`]. Per-op syntax is only in the rows; this file knows none.

use super::Printer;
use crate::front::catalog;
use crate::front::catalog::format::{AttrKind, Compiled};
use crate::front::catalog::interp::{self, Writer};
use crate::ir::{Attr, OpData};

struct W<'p, 'm> {
    p: &'p mut Printer<'m>,
    op: &'p OpData,
    c: &'static Compiled,
}

impl W<'_, '_> {
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
    fn has_attr(&self, a: usize) -> bool {
        self.c
            .attrs
            .get(a)
            .is_some_and(|s| self.op.attrs.get(s.name).is_some())
    }
    fn attr(&mut self, a: usize, kind: AttrKind) {
        let Some(v) = self.c.attrs.get(a).and_then(|s| self.op.attrs.get(s.name)) else {
            return;
        };
        match (kind, v) {
            (AttrKind::Keyword, Attr::Str(s)) => self.p.out.push_str(s),
            _ => self.p.attr(v),
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
        let Some((id, segs)) = catalog::row_of(&op.kind) else {
            return false;
        };
        let Some((row, c)) = catalog::get(id) else {
            return false;
        };
        self.result_defs(op);
        self.out.push_str(row.name);
        let mut w = W { p: self, op, c };
        interp::print(c, &segs, &mut w);
        true
    }
}
