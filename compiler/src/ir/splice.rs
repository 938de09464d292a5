//! Appending a module fragment to a module: the join step of the two-thread parse
//! (`front::parser::split`).
//!
//! A fragment is the IR of a run of statements parsed on its own, into a [`Module`] whose type
//! table started as a copy of the receiving module's first `types_before` types, and whose
//! region `stand_in` holds the run's top-level ops. [`Module::append_fragment`] renumbers every
//! handle of the fragment (types, values, ops, regions) into the receiving module and appends
//! its tables, so that the result is the module a single parse of the whole text builds:
//!
//! - types the fragment added are interned in the fragment's order (a later type never refers
//!   to an earlier-unseen one, so the numbering is the one a single parse gives);
//! - the fragment's unbound uses are not values of it but [`Placeholder`]s (operands tagged
//!   [`PLACEHOLDER`]), resolved by the caller against the names the receiving module had at the
//!   join point: bound to an existing value, the use points at it and no value is made (a
//!   single parse creates none for a bound use); bound to a result group that is too short, it
//!   becomes a `ValueDef::BadResultNumber` value; unbound, a `ValueDef::Unresolved` one — both
//!   placed among the fragment's values where the use occurred;
//! - regions `0` (the fragment's module body, unused) and `stand_in` are not appended: the
//!   stand-in's ops join the end of the receiving region `target`.
//!
//! Every field that holds a handle is renumbered by an exhaustive match, so a new [`OpKind`]
//! variant or [`Attr`] form does not compile until it is handled here.

use super::{
    Attr, AttrDict, Module, OpData, OpId, OpKind, RegionData, RegionId, Span, Type, TypeId,
    ValueData, ValueDef, ValueId,
};

/// Fragments with at least this many ops append their op spans on another core.
const PARALLEL_MIN: usize = 50_000;

/// The tag of a fragment operand that is an unbound use: `PLACEHOLDER | k` is the `k`-th
/// [`Placeholder`], not a value of the fragment (module ids stay below 2^31).
pub const PLACEHOLDER: u32 = 1 << 31;

/// A use the fragment could not bind: where it occurred (the fragment's value count then), its
/// span (the name token), its type (written, else the placeholder type) and its name, as an
/// index into the caller's table of the fragment's unbound names (the join resolves each name
/// once and never reads the source text again).
#[derive(Debug, Clone, Copy)]
pub struct Placeholder {
    pub at: u32,
    pub span: Span,
    pub ty: TypeId,
    pub name: u32,
}

/// How the receiving module's names resolve an unresolved use of the fragment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Resolution {
    /// The name denotes this value of the receiving module.
    Value(ValueId),
    /// The name denotes a result group of `op` with only `count` results.
    BadResultNumber { op: OpId, index: u32, count: u32 },
    /// The name is not defined there either.
    Unresolved,
}

/// The handle renumbering of one fragment.
struct Renumber {
    types_before: u32,
    types: Vec<TypeId>,
    values: Vec<ValueId>,
    /// Receiving id of each placeholder, in order.
    placeholders: Vec<ValueId>,
    op_base: u32,
    stand_in: RegionId,
    target: RegionId,
    /// Receiving id of fragment region 2 (regions 0 and 1 are not appended).
    region_base: u32,
}

impl Renumber {
    fn ty(&self, t: TypeId) -> TypeId {
        match t.0.checked_sub(self.types_before) {
            None => t,
            Some(k) => self.types.get(k as usize).copied().unwrap_or(t),
        }
    }
    fn value(&self, v: ValueId) -> ValueId {
        if v.0 & PLACEHOLDER != 0 {
            let k = (v.0 & !PLACEHOLDER) as usize;
            return self.placeholders.get(k).copied().unwrap_or(v);
        }
        self.values.get(v.0 as usize).copied().unwrap_or(v)
    }
    fn op(&self, o: OpId) -> OpId {
        OpId(self.op_base + o.0)
    }
    fn region(&self, r: RegionId) -> RegionId {
        if r == self.stand_in {
            self.target
        } else {
            RegionId(self.region_base + r.0.saturating_sub(2))
        }
    }

    fn type_(&self, t: &mut Type) {
        if let Type::Function { inputs, results } = t {
            for x in inputs.iter_mut().chain(results.iter_mut()) {
                *x = self.ty(*x);
            }
        }
    }

    fn attr(&self, a: &mut Attr) {
        match a {
            Attr::Int { ty, .. } | Attr::Hex { ty, .. } | Attr::Float { ty, .. } => {
                if let Some(t) = ty {
                    *t = self.ty(*t);
                }
            }
            Attr::Type(t) => *t = self.ty(*t),
            Attr::Typed { value, ty } => {
                *ty = self.ty(*ty);
                self.attr(value);
            }
            Attr::Array(items) => items.iter_mut().for_each(|x| self.attr(x)),
            Attr::Dict(d) => self.dict(d),
            Attr::Bool(_)
            | Attr::Str(_)
            | Attr::Unit
            | Attr::Symbol(_)
            | Attr::RoundMode(_)
            | Attr::SatMode { .. }
            | Attr::Opaque(_) => {}
        }
    }

    fn dict(&self, d: &mut AttrDict) {
        for (_, a) in d.iter_mut() {
            self.attr(a);
        }
    }

    fn def(&self, d: &mut ValueDef) {
        match d {
            ValueDef::Result { op, .. } | ValueDef::BadResultNumber { op, .. } => {
                *op = self.op(*op)
            }
            ValueDef::Arg { region, .. } | ValueDef::BlockArg { region, .. } => {
                *region = self.region(*region)
            }
            ValueDef::Unresolved => {}
        }
    }

    fn kind(&self, k: &mut OpKind) {
        match k {
            OpKind::Func(f) => {
                for t in f.result_types.iter_mut().chain(f.decl_arg_types.iter_mut()) {
                    *t = self.ty(*t);
                }
                for d in f.arg_attrs.iter_mut().flatten() {
                    self.dict(d);
                }
            }
            OpKind::ArithConstant { value } => self.attr(value),
            OpKind::Generic(g) => {
                if let Some(p) = &mut g.properties {
                    self.dict(p);
                }
            }
            OpKind::Module(_)
            | OpKind::Return
            | OpKind::Tcvt(_)
            | OpKind::Vcvt(_)
            | OpKind::AllocTile { .. }
            | OpKind::DeclareTile
            | OpKind::MakeTensorView { .. }
            | OpKind::PartitionView { .. }
            | OpKind::Pset { .. }
            | OpKind::Plt { .. }
            | OpKind::Vlds
            | OpKind::Vsts
            | OpKind::Vbr
            | OpKind::VBinary(_)
            | OpKind::VecScope
            | OpKind::Catalog(_)
            | OpKind::Opaque(_) => {}
        }
    }

    fn op_data(&self, o: &mut OpData) {
        self.kind(&mut o.kind);
        for v in o.operands.iter_mut().chain(o.results.iter_mut()) {
            *v = self.value(*v);
        }
        for t in o.operand_types.iter_mut().flatten() {
            *t = self.ty(*t);
        }
        for r in o.regions.iter_mut() {
            *r = self.region(*r);
        }
        if !o.attrs.is_empty() {
            self.dict(&mut o.attrs);
        }
        o.parent = self.region(o.parent);
    }

    fn region_data(&self, r: &mut RegionData) {
        for v in r.args.iter_mut() {
            *v = self.value(*v);
        }
        for o in r.ops.iter_mut() {
            *o = self.op(*o);
        }
        if let Some(p) = &mut r.parent_op {
            *p = self.op(*p);
        }
        for b in r.blocks.iter_mut() {
            for v in b.args.iter_mut() {
                *v = self.value(*v);
            }
        }
    }
}

impl Module {
    /// Appends `frag` (see the module doc): its types beyond the first `types_before`, its
    /// values with its `placeholders` (operands `PLACEHOLDER | k`) between them where they
    /// occurred — each resolved through `resolve` by its name index, in order, and named by
    /// `name_of` if it stays —, its ops and regions; the ops of region `stand_in` join the end of
    /// `target`. Returns the receiving id of every fragment value.
    #[allow(clippy::too_many_arguments)]
    pub fn append_fragment(
        &mut self,
        frag: Module,
        placeholders: Vec<Placeholder>,
        types_before: u32,
        stand_in: RegionId,
        target: RegionId,
        mut resolve: impl FnMut(u32) -> Resolution + Send,
        name_of: impl Fn(u32) -> String + Sync,
    ) -> Vec<ValueId> {
        let mut map = Renumber {
            types_before,
            types: Vec::new(),
            values: Vec::with_capacity(frag.values.len()),
            placeholders: Vec::with_capacity(placeholders.len()),
            op_base: self.ops.len() as u32,
            stand_in,
            target,
            region_base: self.regions.len() as u32,
        };
        for k in types_before as usize..frag.types.len() {
            let mut t = frag.types.get(TypeId(k as u32)).clone();
            map.type_(&mut t);
            let id = self.types.intern(t);
            map.types.push(id);
        }

        let Module {
            values,
            ops,
            regions,
            spans,
            ..
        } = frag;
        let super::SpanTable {
            ops: span_ops,
            values: span_values,
            regions: span_regions,
        } = spans;
        let (dst_values, dst_value_spans) = (&mut self.values, &mut self.spans.values);
        let (dst_ops, dst_op_spans) = (&mut self.ops, &mut self.spans.ops);
        // The op spans need no renumbering: a large table of them is appended on another core
        // meanwhile (the copy and its page faults are most of a large join).
        let big = span_ops.len() >= PARALLEL_MIN;
        let append_spans = move || {
            dst_op_spans.reserve(span_ops.len());
            super::huge::consume_releasing(span_ops, |s| dst_op_spans.push(s));
        };
        let map_ref = &mut map;
        let append_rest = || {
            let map = map_ref;
            // Values first, the fragment's own ones with its unbound uses between them where
            // they occurred: a use bound here leaves no value, as in one parse.
            dst_values.reserve(values.len());
            dst_value_spans.reserve(values.len());
            let mut pending = placeholders.into_iter().peekable();
            let mut place = |p: Placeholder,
                             map: &mut Renumber,
                             dst_values: &mut Vec<ValueData>,
                             dst_value_spans: &mut Vec<Span>| {
                let def = match resolve(p.name) {
                    Resolution::Value(to) => {
                        map.placeholders.push(to);
                        return;
                    }
                    Resolution::BadResultNumber { op, index, count } => {
                        ValueDef::BadResultNumber { op, index, count }
                    }
                    Resolution::Unresolved => ValueDef::Unresolved,
                };
                map.placeholders.push(ValueId(dst_values.len() as u32));
                dst_values.push(ValueData {
                    name: name_of(p.name),
                    ty: map.ty(p.ty),
                    def,
                });
                dst_value_spans.push(p.span);
            };
            let mut span_values = span_values.into_iter();
            let mut j = 0;
            super::huge::consume_releasing(values, |mut v| {
                while let Some(p) = pending.next_if(|p| p.at as usize <= j) {
                    place(p, map, dst_values, dst_value_spans);
                }
                // The fragment's own values: their defs name fragment ops and regions.
                map.def(&mut v.def);
                v.ty = map.ty(v.ty);
                map.values.push(ValueId(dst_values.len() as u32));
                dst_values.push(v);
                dst_value_spans.push(span_values.next().unwrap_or_default());
                j += 1;
            });
            for p in pending {
                place(p, map, dst_values, dst_value_spans);
            }
            dst_ops.reserve(ops.len());
            super::huge::consume_releasing(ops, |mut o| {
                map.op_data(&mut o);
                dst_ops.push(o);
            });
        };
        if big {
            rayon::join(append_spans, append_rest);
        } else {
            append_spans();
            append_rest();
        }
        let mut appended_stand_in = Vec::new();
        for (k, (mut r, s)) in regions.into_iter().zip(span_regions).enumerate() {
            let id = RegionId(k as u32);
            if id == stand_in {
                appended_stand_in = r.ops.iter().map(|&o| map.op(o)).collect();
                continue;
            }
            if k < 2 {
                continue;
            }
            map.region_data(&mut r);
            self.regions.push(r);
            self.spans.regions.push(s);
        }
        if let Some(t) = self.regions.get_mut(target.0 as usize) {
            t.ops.extend(appended_stand_in);
        }
        map.values
    }
}
