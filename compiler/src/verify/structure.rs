//! Structural verification: SSA def-use, scoping, result numbers, and agreement of written
//! operand types with definitions, function signatures and `return` (syntax.md §2, D-4).
//!
//! The IR builder binds names without judging scope (see `crate::ir`), so every scoping decision
//! is made here. The checks walk the ops in textual order, read each op's uses (the value →
//! op edges of the def-use relation) straight from its operand list, and keep what is visible in
//! a scope stack (`scopes`: one chain of entries per value and per name, O(1) lookups, no hash
//! set per scope). The def-use relation as a petgraph graph, for queries, is [`DefUseGraph`]
//! (`defuse`); the walk does not build it.
//!
//! Scoping rules (D-4): a function body is isolated (it sees only its own arguments and the
//! values it defines); a value is visible from its definition to the end of its region,
//! including nested regions; an op's results are not visible inside the op's own regions. A
//! definition of a name that is visible at that point is a redefinition; sibling regions may
//! reuse a name (as in MLIR). The module body is one more namespace for top-level ops, and so is
//! the body of each nested module (isolated from above, and its own symbol table).
//!
//! Taint: [`check_tainted`] also returns the ops the errors were found on ([`TaintedOps`]), so
//! the target rules can still run on every other op. An op is tainted when it has a structural
//! error itself (result count, a redefinition of one of its results, a duplicate symbol, a
//! `return` mismatch) or when one of its operands is undefined, has a bad result number, is
//! written with a type other than its definition's, or is bound to an invisible definition of a
//! redefined name (its def-use link is then unsound).
//!
//! Order: duplicate-symbol errors first (in op-handle order, over every op of the module, reached
//! by the walk or not), then the walk's errors in walk order. The walk collects the functions and
//! modules it meets, so the symbol check does not scan the op table a second time.
//!
//! Invariants: every error is collected (the walk never stops early); nothing here panics on any
//! IR the builder can produce (all handle lookups are bounds-checked); an op is tainted iff at
//! least one error was reported because of it. On the error-free path nothing is allocated per
//! op or per use (only the scope stack's tables grow, amortized).

mod defuse;
mod scopes;

use rustc_hash::{FxHashMap, FxHashSet};

use crate::diag::clip::{clip, Echo, PHRASE_MAX};
use crate::diag::{Code, Diagnostic, Span};
use crate::ir::{Module, OpData, OpId, OpKind, RegionId, TcvtForm, TypeId, ValueDef, ValueId};

pub use defuse::{DefUseGraph, Edge, Graph, Node};
use scopes::Scopes;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StructureError {
    /// Unresolved, defined later, or defined in a region that does not enclose the use.
    #[error("use of undefined value '{}'", Echo(name))]
    UndefinedValue { name: String },
    #[error("redefinition of value '{}'", Echo(name))]
    Redefinition { name: String },
    #[error("redefinition of block '{}'", Echo(label))]
    BlockRedefinition { label: String },
    /// Two functions (or modules) with one symbol in one symbol table.
    #[error("redefinition of symbol '{}'", Echo(sym))]
    SymbolRedefinition { sym: String },
    /// `%r#N` with `N >= count`; `name` is the group name without `#N`.
    #[error("'{}' has only {count} result{}", Echo(name), plural(*count))]
    ResultNumberOutOfRange { name: String, count: u32 },
    /// The names given for an op's results disagree with the results the op defines.
    #[error("'{}' defines {expected} result{} but {given} name{} {} given",
        Echo(op), if expected == "1" { "" } else { "s" }, plural(*given), if *given == 1 { "was" } else { "were" })]
    ResultCountMismatch {
        op: String,
        /// `1`, `2`, `1 or 2`.
        expected: String,
        given: u32,
    },
    #[error(
        "type mismatch for '{}': defined as {}, used as {}",
        Echo(name),
        clip(defined, PHRASE_MAX),
        clip(used, PHRASE_MAX)
    )]
    OperandTypeMismatch {
        name: String,
        defined: String,
        used: String,
    },
    #[error("'return' has {found} operand{} but the function returns {expected} value{}",
        plural(*found), plural(*expected))]
    ReturnCountMismatch { found: u32, expected: u32 },
    /// `index` is 0-based.
    #[error(
        "type of 'return' operand #{index} ('{}') is {}, but the function returns {}",
        Echo(name),
        clip(found, PHRASE_MAX),
        clip(expected, PHRASE_MAX)
    )]
    ReturnTypeMismatch {
        index: u32,
        name: String,
        found: String,
        expected: String,
    },
}

/// Errors of the structure pass are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<StructureError> for crate::diag::DiagKind {
    fn from(e: StructureError) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

/// The placeholder type of values whose type was never written (`Parser::any_type`).
fn is_unknown_type(module: &Module, ty: TypeId) -> bool {
    (ty.0 as usize) < module.types.len()
        && matches!(module.types.get(ty), crate::ir::Type::Opaque(t) if t == crate::ir::UNKNOWN_TYPE)
}

fn plural(n: u32) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl StructureError {
    pub fn code(&self) -> Code {
        match self {
            StructureError::UndefinedValue { .. } => Code::UndefinedValue,
            StructureError::Redefinition { .. }
            | StructureError::BlockRedefinition { .. }
            | StructureError::SymbolRedefinition { .. } => Code::Redefinition,
            StructureError::ResultNumberOutOfRange { .. } => Code::ResultNumberOutOfRange,
            StructureError::ResultCountMismatch { .. } => Code::ResultCountMismatch,
            StructureError::OperandTypeMismatch { .. } => Code::OperandTypeMismatch,
            StructureError::ReturnCountMismatch { .. }
            | StructureError::ReturnTypeMismatch { .. } => Code::ReturnTypeMismatch,
        }
    }

    fn at(self, span: Span) -> Diagnostic {
        Diagnostic::new(self.code(), self, span)
    }
}

/// Prints a type for a message, in canonical spelling.
pub(crate) fn type_text(module: &Module, ty: TypeId) -> String {
    if (ty.0 as usize) >= module.types.len() {
        return "<unknown type>".to_string();
    }
    crate::ir::printer::print_type(&module.types, ty)
}

/// The ops on which [`check_tainted`] found structural errors (see the module doc).
pub type TaintedOps = FxHashSet<OpId>;

/// Checks the structure of `module`; appends diagnostics (every error found, in walk order).
pub fn check(module: &Module, diags: &mut Vec<Diagnostic>) {
    check_tainted(module, diags);
}

/// [`check`], also returning the tainted ops (empty iff no error was appended).
pub fn check_tainted(module: &Module, diags: &mut Vec<Diagnostic>) -> TaintedOps {
    let start = diags.len();
    let mut checker = Checker {
        module,
        diags,
        scopes: Scopes::new(module.values.len()),
        tainted: TaintedOps::default(),
        resolved: Vec::new(),
        visited: vec![0; module.ops.len().div_ceil(64)],
        symbol_ops: Vec::new(),
    };
    if (module.body.0 as usize) < module.regions.len() {
        checker.namespace(module.body, &[]);
    }
    checker.check_symbols(start);
    checker.tainted
}

struct Checker<'a> {
    module: &'a Module,
    diags: &'a mut Vec<Diagnostic>,
    scopes: Scopes<'a>,
    tainted: TaintedOps,
    /// Scratch for [`Checker::check_uses`]: each operand of the current op resolved to a
    /// visible value (reused, so the walk allocates nothing per op).
    resolved: Vec<Option<ValueId>>,
    /// One bit per op: reached by the walk.
    visited: Vec<u64>,
    /// The functions and modules the walk reached, each once, in walk order.
    symbol_ops: Vec<OpId>,
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

    fn op_spans(&self, op: OpId) -> Option<&'a crate::ir::OpSpans> {
        self.module.spans.ops.get(op.0 as usize)
    }

    /// Duplicate symbols (`func.func @f`, `module @m`) in one symbol table: the top-level
    /// module, or a nested module's body (two modules may each define `@f`). Runs after the
    /// walk on the functions and modules it met, plus those of any op it did not reach, in
    /// op-handle order; the errors go before the walk's (`start` is where the walk's begin).
    fn check_symbols(&mut self, start: usize) {
        let module = self.module;
        let mut ops = std::mem::take(&mut self.symbol_ops);
        for (w, &bits) in self.visited.iter().enumerate() {
            let mut missed = !bits;
            while missed != 0 {
                let i = w * 64 + missed.trailing_zeros() as usize;
                missed &= missed - 1;
                match module.ops.get(i).map(|o| &o.kind) {
                    Some(OpKind::Func(_) | OpKind::Module(_)) => ops.push(OpId(i as u32)),
                    Some(_) => {}
                    None => break,
                }
            }
        }
        ops.sort_unstable();
        let mut found = Vec::new();
        let mut seen: FxHashMap<(Option<OpId>, &str), Span> = FxHashMap::default();
        for id in ops {
            let Some(op) = module.ops.get(id.0 as usize) else {
                continue;
            };
            let sym = match &op.kind {
                OpKind::Func(f) => f.sym.as_str(),
                OpKind::Module(m) => match &m.name {
                    Some(n) => n.as_str(),
                    None => continue,
                },
                _ => continue,
            };
            let span = self
                .op_spans(id)
                .map(|s| s.attrs.get("sym_name").copied().unwrap_or(s.name))
                .unwrap_or_default();
            let table = module.enclosing_module(op.parent);
            if let Some(&first) = seen.get(&(table, sym)) {
                found.push(
                    StructureError::SymbolRedefinition {
                        sym: symbol_text(sym),
                    }
                    .at(span)
                    .with_label(first, "defined here"),
                );
                self.tainted.insert(id);
            } else {
                seen.insert((table, sym), span);
            }
        }
        if !found.is_empty() {
            let at = start.min(self.diags.len());
            self.diags.splice(at..at, found);
        }
    }

    /// Checks an isolated region (module body or function body) with fresh scopes.
    fn namespace(&mut self, region: RegionId, args: &[ValueId]) {
        let saved = self.scopes.enter_namespace();
        self.region(region, args);
        self.scopes.leave_namespace(saved);
    }

    /// Walks `region` in a new scope; `args` are its block arguments.
    fn region(&mut self, region: RegionId, args: &[ValueId]) {
        let module: &'a Module = self.module;
        self.scopes.push();
        for &a in args {
            self.define(a, None);
        }
        let (ops, blocks): (&'a [OpId], &'a [crate::ir::BlockData]) =
            match module.regions.get(region.0 as usize) {
                Some(r) => (&r.ops, &r.blocks),
                None => (&[], &[]),
            };
        if !blocks.is_empty() {
            self.block_labels(region, blocks);
        }
        let mut next_block = blocks.iter().peekable();
        for (i, &op) in ops.iter().enumerate() {
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
    fn block_labels(&mut self, region: RegionId, blocks: &[crate::ir::BlockData]) {
        let entry = self
            .module
            .regions
            .get(region.0 as usize)
            .and_then(|r| r.label.as_deref());
        let mut seen: FxHashMap<&str, Span> = FxHashMap::default();
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
        let module: &'a Module = self.module;
        let Some(data) = module.ops.get(op.0 as usize) else {
            return;
        };
        let (word, bit) = (op.0 as usize / 64, 1u64 << (op.0 % 64));
        if let Some(w) = self.visited.get_mut(word) {
            if *w & bit == 0 {
                *w |= bit;
                if matches!(data.kind, OpKind::Func(_) | OpKind::Module(_)) {
                    self.symbol_ops.push(op);
                }
            }
        }
        let mut resolved = std::mem::take(&mut self.resolved);
        self.check_uses(op, data, &mut resolved);
        self.check_operand_types(op, &resolved);
        self.check_result_count(op);
        if matches!(data.kind, OpKind::Return) {
            self.check_return(op, &resolved);
        }
        self.resolved = resolved;
        for &r in &data.regions {
            let args: &'a [ValueId] = module
                .regions
                .get(r.0 as usize)
                .map_or(&[], |rd| rd.args.as_slice());
            if matches!(data.kind, OpKind::Func(_) | OpKind::Module(_)) {
                self.namespace(r, args);
            } else {
                self.region(r, args);
            }
        }
        // Results become visible after the op (and its regions). The first value of each
        // result group carries the group's name (the first group starting there, if several
        // do); the rest of a group, and results past every group, carry none.
        let groups = &data.result_groups;
        let mut g = 0usize;
        let mut group_start = 0usize;
        for (i, &r) in data.results.iter().enumerate() {
            while g < groups.len() && group_start < i {
                group_start += groups[g].count as usize;
                g += 1;
            }
            let group_name =
                (g < groups.len() && group_start == i).then(|| groups[g].name.as_str());
            self.define(r, Some(group_name));
        }
    }

    /// Makes `v` visible; reports a redefinition if its name is already visible. For results,
    /// `group` is `Some(Some(name))` on the first value of a result group (the name checked for
    /// redefinition), `Some(None)` on the other values of a group.
    fn define(&mut self, v: ValueId, group: Option<Option<&'a str>>) {
        let module: &'a Module = self.module;
        let Some(vd) = module.values.get(v.0 as usize) else {
            return;
        };
        let checked_name = match group {
            None => Some(vd.name.as_str()),
            Some(g) => g,
        };
        let mut checked_id = None;
        if let Some(name) = checked_name {
            let span = self.value_span(v);
            let base = base_name(name);
            let id = self.scopes.name_id(base);
            checked_id = (base == vd.name).then_some(id);
            if let Some(first) = self.scopes.defined(id) {
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
            } else {
                self.scopes.add_def(id, span);
            }
        }
        self.scopes.add_value(v);
        let id = match checked_id {
            Some(id) => id,
            None => self.scopes.name_id(&vd.name),
        };
        self.scopes.bind(id, v);
    }

    /// The span of operand `pos` of `op` (the use of `v`), for a message.
    fn use_span(&self, op: OpId, pos: usize, v: ValueId) -> Span {
        self.op_spans(op)
            .and_then(|s| s.operands.get(pos).copied())
            .unwrap_or_else(|| self.value_span(v))
    }

    /// Reports undefined and out-of-range uses; fills `resolved` with each operand resolved to
    /// a visible value (`None` where it is undefined).
    fn check_uses(&mut self, op: OpId, data: &'a OpData, resolved: &mut Vec<Option<ValueId>>) {
        let module: &'a Module = self.module;
        resolved.clear();
        resolved.resize(data.operands.len(), None);
        for (pos, (&v, slot)) in data.operands.iter().zip(resolved.iter_mut()).enumerate() {
            let Some(vd) = module.values.get(v.0 as usize) else {
                continue;
            };
            *slot = match &vd.def {
                ValueDef::Result { .. } | ValueDef::Arg { .. } | ValueDef::BlockArg { .. } => {
                    if self.scopes.is_visible(v) {
                        Some(v)
                    } else if let Some(other) = self
                        .scopes
                        .find_name(&vd.name)
                        .and_then(|id| self.scopes.bound(id))
                    {
                        // Bound to a later or inner redefinition (already reported); the use
                        // means the visible value of that name. The op's own link is unsound.
                        self.tainted.insert(op);
                        Some(other)
                    } else {
                        let use_span = self.use_span(op, pos, v);
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
                ValueDef::Unresolved => {
                    let use_span = self.use_span(op, pos, v);
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
                    let use_span = self.use_span(op, pos, v);
                    let mut d = StructureError::ResultNumberOutOfRange {
                        name: base_name(&vd.name).to_string(),
                        count: *count,
                    }
                    .at(use_span);
                    if let Some(first) = module
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
            };
        }
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
        let spans = self.op_spans(op);
        let op_span = spans.map(|s| s.op).unwrap_or_default();
        let func_result_spans: &[Span] = self.op_spans(func).map_or(&[], |s| &s.result_types);
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
