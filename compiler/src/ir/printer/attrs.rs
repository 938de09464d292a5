//! Attribute spellings (syntax.md §4, §7.3-7.4): dictionaries in D-25 order, literals with
//! `: T` elision, round/saturation modes in the PTOAS spelling, verbatim opaque attributes.

use std::fmt::Write as _;

use super::literals::{self, escape_string, print_float, FloatKind};
use super::{is_bare_id, sorted_keys, Printer};
use crate::ir::types::{ScalarType, Signedness};
use crate::ir::{Attr, AttrDict, OpData, Type, TypeId};

impl Printer<'_> {
    /// An attribute, by its alias name where one is in scope (see [`Printer::limit`]).
    pub(super) fn attr(&mut self, a: &Attr) {
        if !self.alias.attrs.is_empty() {
            let k = self.alias.attr(self.m, a).filter(|&k| k < self.limit);
            if let Some(d) = k.and_then(|k| self.m.aliases.get(k)) {
                self.out.push_str(&d.name);
                return;
            }
        }
        self.attr_body(a);
    }

    /// An attribute spelled out at its top (its parts may still print by alias).
    pub(super) fn attr_body(&mut self, a: &Attr) {
        match a {
            Attr::Int { .. } | Attr::Hex { .. } | Attr::Float { .. } => self.literal(a, false),
            Attr::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            Attr::Str(s) => self.out.push_str(&escape_string(s)),
            Attr::Unit => self.out.push_str("unit"),
            Attr::Type(t) => self.ty(*t),
            Attr::Symbol(s) => self.symbol(s),
            Attr::Array(items) => {
                self.out.push('[');
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.attr(item);
                }
                self.out.push(']');
            }
            Attr::Dict(d) => self.dict_sorted(d),
            Attr::RoundMode(rm) => {
                // spec: D-18
                let _ = write!(self.out, "#pto<round_mode {}>", rm.as_str());
            }
            Attr::SatMode { on } => {
                let _ = write!(
                    self.out,
                    "#pto<saturation_mode {}>",
                    if *on { "ON" } else { "OFF" }
                );
            }
            Attr::Opaque(text) => self.opaque(text),
            Attr::Typed { value, ty } => {
                self.attr(value);
                self.out.push_str(" : ");
                self.ty(*ty);
            }
        }
    }

    /// A numeric literal. With `force_type` (arith.constant) the type is always written (i64 /
    /// f64 when untyped); otherwise `: T` is elided for untyped, `i64` ints and `f64` floats
    /// (§7.4). A bit pattern (hex typed as a float, or a non-finite float) always keeps its
    /// float type so that it re-reads as a float.
    pub(super) fn literal(&mut self, a: &Attr, force_type: bool) {
        let (ty, float, pattern) = match a {
            Attr::Int { value, ty } => {
                let _ = write!(self.out, "{value}");
                (*ty, false, false)
            }
            Attr::Hex { value, ty } => {
                let float_typed = ty.is_some_and(|t| self.is_float_type(t));
                if float_typed || *value > i64::MAX as u64 {
                    // spec: §7.4 (a float bit pattern stays uppercase hex)
                    let _ = write!(self.out, "0x{value:X}");
                } else {
                    let _ = write!(self.out, "{value}");
                }
                (*ty, float_typed, float_typed)
            }
            Attr::Float { bits, ty } => {
                let v = f64::from_bits(*bits);
                if v.is_finite() {
                    self.out.push_str(&print_float(v));
                } else {
                    // spec: §7.4 non-finite values print as the type's bit pattern
                    let kind = ty
                        .and_then(|t| self.float_width(t))
                        .unwrap_or(FloatKind::F64);
                    let _ = write!(self.out, "0x{:X}", literals::nonfinite_bits(v, kind));
                }
                (*ty, true, !v.is_finite())
            }
            _ => return,
        };
        let ty = ty.filter(|t| (t.0 as usize) < self.types.len());
        let elided = match ty.map(|t| self.types.get(t)) {
            None => true,
            Some(Type::Scalar(ScalarType::Int {
                width: 64,
                signedness: Signedness::Signless,
            })) => !float,
            Some(Type::Scalar(ScalarType::F64)) => float && !pattern,
            Some(_) => false,
        };
        if force_type || pattern || !elided {
            self.out.push_str(" : ");
            match ty {
                Some(t) => self.ty(t),
                None if float => self.out.push_str("f64"),
                None => self.out.push_str("i64"),
            }
        }
    }

    pub(super) fn float_width(&self, t: TypeId) -> Option<FloatKind> {
        if t.0 as usize >= self.types.len() {
            return None;
        }
        match self.types.get(t) {
            Type::Scalar(ScalarType::F16) => Some(FloatKind::F16),
            Type::Scalar(ScalarType::BF16) => Some(FloatKind::BF16),
            Type::Scalar(ScalarType::F32) => Some(FloatKind::F32),
            Type::Scalar(ScalarType::F64) => Some(FloatKind::F64),
            _ => None,
        }
    }

    pub(super) fn is_float_type(&self, t: TypeId) -> bool {
        if t.0 as usize >= self.types.len() {
            return false;
        }
        matches!(
            self.types.get(t),
            Type::Scalar(
                ScalarType::F16
                    | ScalarType::BF16
                    | ScalarType::F32
                    | ScalarType::F64
                    | ScalarType::F8E4M3FN
                    | ScalarType::F8E5M2
                    | ScalarType::OtherFloat(_)
                    | ScalarType::Hif8
            )
        )
    }

    pub(super) fn key(&mut self, k: &str) {
        if is_bare_id(k) {
            self.out.push_str(k);
        } else {
            self.out.push_str(&escape_string(k));
        }
    }

    pub(super) fn entry(&mut self, k: &str, v: &Attr) {
        self.key(k);
        if !matches!(v, Attr::Unit) {
            self.out.push_str(" = ");
            self.attr(v);
        }
    }

    /// `{k = v, ...}` sorted bytewise (D-25), printed even when empty.
    pub(super) fn dict_sorted(&mut self, d: &AttrDict) {
        self.out.push('{');
        for (i, k) in sorted_keys(d).into_iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            if let Some(v) = d.get(k) {
                self.entry(k, v);
            }
        }
        self.out.push('}');
    }

    /// A known op's dictionary: `own` entries first in their fixed order, then the extra
    /// (dotted) keys sorted bytewise; nothing at all when empty (D-25). `lead` is printed
    /// before a non-empty dict.
    pub(super) fn known_dict(
        &mut self,
        lead: &str,
        own: &[(&str, Attr)],
        extra: &AttrDict,
        skip: &[&str],
    ) {
        let rest: Vec<&String> = sorted_keys(extra)
            .into_iter()
            .filter(|k| !skip.contains(&k.as_str()))
            .collect();
        if own.is_empty() && rest.is_empty() {
            return;
        }
        self.out.push_str(lead);
        self.out.push('{');
        let mut first = true;
        for (k, v) in own {
            if !first {
                self.out.push_str(", ");
            }
            first = false;
            self.entry(k, v);
        }
        for k in rest {
            if !first {
                self.out.push_str(", ");
            }
            first = false;
            if let Some(v) = extra.get(k) {
                self.entry(k, v);
            }
        }
        self.out.push('}');
    }

    /// Dictionary of a known op without own typed keys (only dotted extras).
    pub(super) fn plain_dict(&mut self, lead: &str, op: &OpData) {
        self.known_dict(lead, &[], &op.attrs, &[]);
    }
}
