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
//! - the fragment's unresolved uses (`ValueDef::Unresolved`) are resolved by the caller against
//!   the names the receiving module had at the join point: bound to an existing value, the
//!   placeholder is dropped and its uses point at that value (a single parse creates no value
//!   for a bound use); bound to a result group that is too short, it becomes
//!   `ValueDef::BadResultNumber`; unbound, it stays;
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
    /// values (unresolved ones through `resolve`, called once per such value in order with the
    /// value and its span; it may fill in the name), ops and regions; the ops of region `stand_in` join the end of
    /// `target`. Returns the receiving id of every fragment value (a dropped placeholder maps to
    /// the value it resolved to).
    pub fn append_fragment(
        &mut self,
        frag: Module,
        types_before: u32,
        stand_in: RegionId,
        target: RegionId,
        mut resolve: impl FnMut(&mut ValueData, Span) -> Resolution + Send,
    ) -> Vec<ValueId> {
        let mut map = Renumber {
            types_before,
            types: Vec::new(),
            values: Vec::with_capacity(frag.values.len()),
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
        let append_spans = move || dst_op_spans.extend(span_ops);
        let map_ref = &mut map;
        let append_rest = || {
            let map = map_ref;
            // Values first: the renumbering of every later table depends on which placeholders
            // go. Each fragment table is consumed, and so freed, before the next one is
            // appended: the peak holds one fragment table twice, not all of them.
            let mut keep = Vec::with_capacity(values.len());
            let mut next = dst_values.len() as u32;
            dst_values.reserve(values.len());
            for (mut v, &span) in values.into_iter().zip(&span_values) {
                if v.def == ValueDef::Unresolved {
                    match resolve(&mut v, span) {
                        Resolution::Value(to) => {
                            map.values.push(to);
                            keep.push(false);
                            continue;
                        }
                        Resolution::BadResultNumber { op, index, count } => {
                            v.def = ValueDef::BadResultNumber { op, index, count };
                        }
                        Resolution::Unresolved => {}
                    }
                } else {
                    // The fragment's own values: their defs name fragment ops and regions.
                    map.def(&mut v.def);
                }
                v.ty = map.ty(v.ty);
                map.values.push(ValueId(next));
                next += 1;
                keep.push(true);
                dst_values.push(v);
            }
            dst_value_spans.extend(
                span_values
                    .into_iter()
                    .zip(keep)
                    .filter_map(|(s, k)| k.then_some(s)),
            );
            dst_ops.reserve(ops.len());
            for mut o in ops {
                map.op_data(&mut o);
                dst_ops.push(o);
            }
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
