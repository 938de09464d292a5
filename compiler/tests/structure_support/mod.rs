//! The structural pass as it was before its scope stack (git 1551ce3: a petgraph def-use graph,
//! one hash set and two hash maps per scope, a separate scan of every op for duplicate
//! symbols), kept verbatim but for paths and the crate-private `StructureError::at`, as the
//! reference `structure_reference.rs` compares the pass against.

use ptoc::diag::{Diagnostic, Span};
use ptoc::ir::{Module, OpId, OpKind, RegionId, TcvtForm, TypeId, ValueDef, ValueId};
use ptoc::verify::structure::{DefUseGraph, StructureError, TaintedOps};
use rustc_hash::{FxHashMap, FxHashSet};

/// `StructureError::at` is private to the crate.
trait At {
    fn at(self, span: Span) -> Diagnostic;
}

impl At for StructureError {
    fn at(self, span: Span) -> Diagnostic {
        Diagnostic::new(self.code(), self, span)
    }
}

fn is_unknown_type(module: &Module, ty: TypeId) -> bool {
    (ty.0 as usize) < module.types.len()
        && matches!(module.types.get(ty), ptoc::ir::Type::Opaque(t) if t == ptoc::ir::UNKNOWN_TYPE)
}

/// Prints a type for a message, in canonical spelling.
fn type_text(module: &Module, ty: TypeId) -> String {
    if (ty.0 as usize) >= module.types.len() {
        return "<unknown type>".to_string();
    }
    ptoc::ir::printer::print_type(&module.types, ty)
}

/// The pass as it was before the scope stack: a petgraph def-use graph, one hash set and two
/// hash maps per scope, a separate scan of every op for symbols.
pub fn reference_check_tainted(module: &Module, diags: &mut Vec<Diagnostic>) -> TaintedOps {
    let graph = DefUseGraph::build(module);
    let mut checker = Checker {
        module,
        graph: &graph,
        diags,
        scopes: Vec::new(),
        tainted: TaintedOps::default(),
    };
    checker.check_symbols();
    if (module.body.0 as usize) < module.regions.len() {
        checker.namespace(module.body, &[]);
    }
    checker.tainted
}

/// One lexical scope: the values and names defined in one region so far.
#[derive(Default)]
struct Scope<'a> {
    values: FxHashSet<ValueId>,
    /// Name as defined (`%a`, `%r` for a group) → span of its definition.
    names: FxHashMap<&'a str, Span>,
    /// Full value name (`%a`, `%r#1`) → value, to resolve uses bound to an invisible definition.
    by_name: FxHashMap<&'a str, ValueId>,
}

struct Checker<'a> {
    module: &'a Module,
    graph: &'a DefUseGraph,
    diags: &'a mut Vec<Diagnostic>,
    scopes: Vec<Scope<'a>>,
    tainted: TaintedOps,
}

impl<'a> Checker<'a> {
    fn value_span(&self, v: ValueId) -> Span {
        self.module
            .spans
            .values
            .get(v.0 as usize)
            .copied()
            .unwrap_or_default()
    }

    fn op_spans(&self, op: OpId) -> Option<&ptoc::ir::OpSpans> {
        self.module.spans.ops.get(op.0 as usize)
    }

    /// Duplicate symbols (`func.func @f`, `module @m`) in one symbol table: the top-level
    /// module, or a nested module's body (two modules may each define `@f`).
    fn check_symbols(&mut self) {
        let mut seen: FxHashMap<(Option<OpId>, &str), Span> = FxHashMap::default();
        for (i, op) in self.module.ops.iter().enumerate() {
            let sym = match &op.kind {
                OpKind::Func(f) => f.sym.as_str(),
                OpKind::Module(m) => match &m.name {
                    Some(n) => n.as_str(),
                    None => continue,
                },
                _ => continue,
            };
            let span = self
                .op_spans(OpId(i as u32))
                .map(|s| s.attrs.get("sym_name").copied().unwrap_or(s.name))
                .unwrap_or_default();
            let table = self.module.enclosing_module(op.parent);
            if let Some(&first) = seen.get(&(table, sym)) {
                let d = StructureError::SymbolRedefinition {
                    sym: symbol_text(sym),
                }
                .at(span)
                .with_label(first, "defined here");
                self.diags.push(d);
                self.tainted.insert(OpId(i as u32));
            } else {
                seen.insert((table, sym), span);
            }
        }
    }

    /// Checks an isolated region (module body or function body) with fresh scopes.
    fn namespace(&mut self, region: RegionId, args: &[ValueId]) {
        let saved = std::mem::take(&mut self.scopes);
        self.region(region, args);
        self.scopes = saved;
    }

    /// Walks `region` in a new scope; `args` are its block arguments.
    fn region(&mut self, region: RegionId, args: &[ValueId]) {
        self.scopes.push(Scope::default());
        for &a in args {
            self.define(a, None);
        }
        let (ops, blocks) = match self.module.regions.get(region.0 as usize) {
            Some(r) => (r.ops.clone(), r.blocks.clone()),
            None => (Vec::new(), Vec::new()),
        };
        self.block_labels(region, &blocks);
        let mut next_block = blocks.iter().peekable();
        for (i, op) in ops.into_iter().enumerate() {
            // A block's arguments become visible at its label (textual order stands for
            // dominance, as in the parser's name binding).
            while let Some(b) = next_block.next_if(|b| b.start as usize <= i) {
                for &a in &b.args {
                    self.define(a, None);
                }
            }
            self.op(op);
        }
        for b in next_block {
            for &a in &b.args {
                self.define(a, None);
            }
        }
        self.scopes.pop();
    }

    /// Block labels of one region are distinct (the entry label included).
    fn block_labels(&mut self, region: RegionId, blocks: &[ptoc::ir::BlockData]) {
        let entry = self
            .module
            .regions
            .get(region.0 as usize)
            .and_then(|r| r.label.as_deref());
        let mut seen: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
        for b in blocks {
            if let Some(&first) = seen.get(b.label.as_str()) {
                self.diags.push(
                    StructureError::BlockRedefinition {
                        label: b.label.clone(),
                    }
                    .at(b.span)
                    .with_label(first, "defined here"),
                );
            } else if entry == Some(b.label.as_str()) {
                self.diags.push(
                    StructureError::BlockRedefinition {
                        label: b.label.clone(),
                    }
                    .at(b.span),
                );
            } else {
                seen.insert(&b.label, b.span);
            }
        }
    }

    fn op(&mut self, op: OpId) {
        let Some(data) = self.module.ops.get(op.0 as usize) else {
            return;
        };
        let resolved = self.check_uses(op);
        self.check_operand_types(op, &resolved);
        self.check_result_count(op);
        if matches!(data.kind, OpKind::Return) {
            self.check_return(op, &resolved);
        }
        for &r in &data.regions {
            let args = self
                .module
                .regions
                .get(r.0 as usize)
                .map(|rd| rd.args.clone())
                .unwrap_or_default();
            if matches!(data.kind, OpKind::Func(_) | OpKind::Module(_)) {
                self.namespace(r, &args);
            } else {
                self.region(r, &args);
            }
        }
        // Results become visible after the op (and its regions).
        let module = self.module;
        let mut group_starts = Vec::with_capacity(data.result_groups.len());
        let mut idx = 0usize;
        for g in &module.ops[op.0 as usize].result_groups {
            group_starts.push((idx, g.name.as_str()));
            idx += g.count as usize;
        }
        for (i, &r) in data.results.iter().enumerate() {
            let group_name = group_starts
                .iter()
                .find(|(start, _)| *start == i)
                .map(|&(_, n)| n);
            self.define(r, Some(group_name));
        }
    }

    fn is_visible(&self, v: ValueId) -> bool {
        self.scopes.iter().any(|s| s.values.contains(&v))
    }

    fn visible_by_name(&self, name: &str) -> Option<ValueId> {
        self.scopes
            .iter()
            .rev()
            .find_map(|s| s.by_name.get(name).copied())
    }

    /// Makes `v` visible; reports a redefinition if its name is already visible. For results,
    /// `group` is `Some(Some(name))` on the first value of a result group (the name checked for
    /// redefinition), `Some(None)` on the other values of a group.
    fn define(&mut self, v: ValueId, group: Option<Option<&'a str>>) {
        let module: &'a Module = self.module;
        let Some(vd) = module.values.get(v.0 as usize) else {
            return;
        };
        let span = self.value_span(v);
        let checked_name = match group {
            None => Some(vd.name.as_str()),
            Some(g) => g,
        };
        if let Some(name) = checked_name {
            let base = base_name(name);
            let first = self.scopes.iter().find_map(|s| s.names.get(base).copied());
            if let Some(first) = first {
                self.diags.push(
                    StructureError::Redefinition {
                        name: base.to_string(),
                    }
                    .at(span)
                    .with_label(first, "defined here"),
                );
                if let ValueDef::Result { op, .. } = vd.def {
                    self.tainted.insert(op);
                }
            } else if let Some(scope) = self.scopes.last_mut() {
                scope.names.insert(base, span);
            }
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.values.insert(v);
            scope.by_name.entry(vd.name.as_str()).or_insert(v);
        }
    }

    /// Reports undefined and out-of-range uses; returns each operand resolved to a visible value
    /// (`None` where it is undefined).
    fn check_uses(&mut self, op: OpId) -> Vec<Option<ValueId>> {
        let operand_count = self
            .module
            .ops
            .get(op.0 as usize)
            .map_or(0, |d| d.operands.len());
        let mut resolved = vec![None; operand_count];
        for (pos, v) in self.graph.uses_of(op) {
            let use_span = self
                .op_spans(op)
                .and_then(|s| s.operands.get(pos as usize).copied())
                .unwrap_or_else(|| self.value_span(v));
            let Some(vd) = self.module.values.get(v.0 as usize) else {
                continue;
            };
            let r = match &vd.def {
                ValueDef::Unresolved => {
                    self.diags.push(
                        StructureError::UndefinedValue {
                            name: vd.name.clone(),
                        }
                        .at(use_span),
                    );
                    self.tainted.insert(op);
                    None
                }
                ValueDef::BadResultNumber {
                    op: def_op, count, ..
                } => {
                    let mut d = StructureError::ResultNumberOutOfRange {
                        name: base_name(&vd.name).to_string(),
                        count: *count,
                    }
                    .at(use_span);
                    if let Some(first) = self
                        .module
                        .ops
                        .get(def_op.0 as usize)
                        .and_then(|o| o.results.first())
                    {
                        d = d.with_label(self.value_span(*first), "defined here");
                    }
                    self.diags.push(d);
                    self.tainted.insert(op);
                    None
                }
                ValueDef::Result { .. } | ValueDef::Arg { .. } | ValueDef::BlockArg { .. } => {
                    if self.is_visible(v) {
                        Some(v)
                    } else if let Some(other) = self.visible_by_name(&vd.name) {
                        // Bound to a later or inner redefinition (already reported); the use
                        // means the visible value of that name. The op's own link is unsound.
                        self.tainted.insert(op);
                        Some(other)
                    } else {
                        let def_span = self.value_span(v);
                        let why = if def_span.start >= use_span.start {
                            "defined here, after its use"
                        } else {
                            "defined here, in a region that does not enclose this use"
                        };
                        self.diags.push(
                            StructureError::UndefinedValue {
                                name: vd.name.clone(),
                            }
                            .at(use_span)
                            .with_label(def_span, why),
                        );
                        self.tainted.insert(op);
                        None
                    }
                }
            };
            if let Some(slot) = resolved.get_mut(pos as usize) {
                *slot = r;
            }
        }
        resolved
    }

    fn check_operand_types(&mut self, op: OpId, resolved: &[Option<ValueId>]) {
        let Some(data) = self.module.ops.get(op.0 as usize) else {
            return;
        };
        for (pos, written) in data.operand_types.iter().enumerate() {
            let (Some(written), Some(Some(v))) = (written, resolved.get(pos)) else {
                continue;
            };
            let Some(vd) = self.module.values.get(v.0 as usize) else {
                continue;
            };
            // A value whose type no written form gave (an opaque op's result or header
            // definition) agrees with every written type.
            if vd.ty == *written || is_unknown_type(self.module, vd.ty) {
                continue;
            }
            let spans = self.op_spans(op);
            let span = spans
                .and_then(|s| s.operand_types.get(pos).copied().flatten())
                .or_else(|| spans.and_then(|s| s.operands.get(pos).copied()))
                .unwrap_or_else(|| self.value_span(*v));
            let name = data
                .operands
                .get(pos)
                .and_then(|u| self.module.values.get(u.0 as usize))
                .map_or_else(|| vd.name.clone(), |u| u.name.clone());
            let defined = type_text(self.module, vd.ty);
            let d = StructureError::OperandTypeMismatch {
                name,
                defined: defined.clone(),
                used: type_text(self.module, *written),
            }
            .at(span)
            .with_label(self.value_span(*v), format!("defined as {defined} here"));
            self.diags.push(d);
            self.tainted.insert(op);
        }
    }

    fn check_result_count(&mut self, op: OpId) {
        let Some(data) = self.module.ops.get(op.0 as usize) else {
            return;
        };
        let given = data.results.len() as u32;
        let allowed: Option<(u32, u32)> = match &data.kind {
            OpKind::Tcvt(t) => Some(match t.form {
                TcvtForm::Ssa => (1, 1),
                TcvtForm::Dps => (0, 0),
            }),
            OpKind::Vcvt(_)
            | OpKind::ArithConstant { .. }
            | OpKind::AllocTile { .. }
            | OpKind::DeclareTile
            | OpKind::MakeTensorView { .. }
            | OpKind::PartitionView { .. }
            | OpKind::Pset { .. }
            | OpKind::Vbr
            | OpKind::VBinary(_) => Some((1, 1)),
            OpKind::Plt { .. } => Some((2, 2)),
            OpKind::Vlds => Some((1, 2)),
            OpKind::Vsts => Some((0, 1)),
            OpKind::Func(_) | OpKind::Module(_) | OpKind::Return | OpKind::VecScope => Some((0, 0)),
            // A generic op's names and types are matched by the parser (function type).
            // Catalog ops: the parser matched the names against the row's results.
            OpKind::Generic(_) | OpKind::Opaque(_) | OpKind::Catalog(_) => None,
        };
        let Some((lo, hi)) = allowed else { return };
        if (lo..=hi).contains(&given) {
            return;
        }
        let expected = if lo == hi {
            lo.to_string()
        } else {
            format!("{lo} or {hi}")
        };
        let span = data
            .results
            .first()
            .map(|&r| self.value_span(r))
            .or_else(|| self.op_spans(op).map(|s| s.name))
            .unwrap_or_default();
        self.diags.push(
            StructureError::ResultCountMismatch {
                op: self.module.op_name(op).to_string(),
                expected,
                given,
            }
            .at(span),
        );
        self.tainted.insert(op);
    }

    fn check_return(&mut self, op: OpId, resolved: &[Option<ValueId>]) {
        let Some(data) = self.module.ops.get(op.0 as usize) else {
            return;
        };
        let Some(func) = self
            .module
            .regions
            .get(data.parent.0 as usize)
            .and_then(|r| r.parent_op)
        else {
            return;
        };
        let Some(OpKind::Func(f)) = self.module.ops.get(func.0 as usize).map(|o| &o.kind) else {
            // `return` outside a function body is a parse error.
            return;
        };
        let spans = self.op_spans(op).cloned();
        let spans = spans.as_ref();
        let op_span = spans.map(|s| s.op).unwrap_or_default();
        let func_result_spans: Vec<Span> = self
            .op_spans(func)
            .map(|s| s.result_types.to_vec())
            .unwrap_or_default();
        let func_result_span = |i: usize| func_result_spans.get(i).copied();
        if data.operands.len() != f.result_types.len() {
            let mut d = StructureError::ReturnCountMismatch {
                found: data.operands.len() as u32,
                expected: f.result_types.len() as u32,
            }
            .at(op_span);
            if let Some(s) = func_result_span(0) {
                d = d.with_label(s, "function result types declared here");
            }
            self.diags.push(d);
            self.tainted.insert(op);
            return;
        }
        for (i, (&expected, r)) in f.result_types.iter().zip(resolved).enumerate() {
            let Some(v) = r else { continue };
            let Some(vd) = self.module.values.get(v.0 as usize) else {
                continue;
            };
            if vd.ty == expected || is_unknown_type(self.module, vd.ty) {
                continue;
            }
            let span = spans
                .and_then(|s| s.operands.get(i).copied())
                .unwrap_or(op_span);
            let name = data
                .operands
                .get(i)
                .and_then(|u| self.module.values.get(u.0 as usize))
                .map_or_else(|| vd.name.clone(), |u| u.name.clone());
            let mut d = StructureError::ReturnTypeMismatch {
                index: i as u32,
                name,
                found: type_text(self.module, vd.ty),
                expected: type_text(self.module, expected),
            }
            .at(span);
            if let Some(s) = func_result_span(i) {
                d = d.with_label(s, "function result type declared here");
            }
            self.diags.push(d);
            self.tainted.insert(op);
        }
    }
}

/// `%r#1` → `%r`.
fn base_name(name: &str) -> &str {
    match name.find('#') {
        Some(i) => &name[..i],
        None => name,
    }
}

/// `@name`, quoted when the name is not a bare symbol.
fn symbol_text(sym: &str) -> String {
    let bare = sym
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '.'))
        && sym
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'));
    if bare {
        format!("@{sym}")
    } else {
        format!("@{sym:?}")
    }
}
