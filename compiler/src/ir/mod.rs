//! The ptoc IR: one module per input chunk, held in arenas with typed handles.
//!
//! Owns values, ops and regions (each a `Vec` indexed by [`ValueId`], [`OpId`], [`RegionId`]),
//! the type uniquing table and the span side table. Ops are a closed enum ([`OpKind`]) plus a
//! uniform part ([`OpData`]: operands, written operand types, results, regions, extra
//! attributes) that structural passes walk without knowing the op.
//!
//! Memory: a large file's IR is millions of ops, so an op is kept small (docs/performance.md, "IR
//! memory"): rare large kinds are boxed, short lists sit inline ([`SmallVec`]) or cost one
//! pointer when empty ([`ThinVec`], [`OpAttrs`]), and attribute spans share their keys
//! ([`AttrKey`]).
//!
//! Invariants the builder (front end) guarantees and passes rely on:
//! - every `OpData.operands[i]` is a valid `ValueId`; a use whose name could not be bound
//!   points at a value with [`ValueDef::Unresolved`] (the structural verifier reports it);
//! - `operand_types.len() == operands.len()`;
//! - every value, op and region has a span entry (`spans`), possibly empty for synthesized IR;
//! - regions list their ops in textual order; name binding makes no scoping judgement
//!   (a use binds the latest textual definition of its name in the function), so def-before-use,
//!   scoping and redefinition are all decided by `verify::structure`.

pub mod attrs;
pub mod huge;
pub mod printer;
pub mod splice;
pub mod types;

pub use attrs::{Attr, AttrDict, AttrKey, AttrSpans, OpAttrs, Part, Rnd, RoundMode, VSat};
pub use smallvec::{smallvec, SmallVec};
pub use thin_vec::{thin_vec, ThinVec};
pub use types::{Dim, ScalarType, TileView, Type, TypeId, TypeTable};

use crate::diag::Span;

/// An op's operands (four inline, no allocation for the usual op).
pub type ValueList = SmallVec<[ValueId; 4]>;
/// An op's written operand types (two inline).
pub type OperandTypes = SmallVec<[Option<TypeId>; 2]>;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ValueId(pub u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct OpId(pub u32);
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct RegionId(pub u32);

/// Where a value comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ValueDef {
    /// Result `index` of `op`.
    Result { op: OpId, index: u32 },
    /// Argument `index` of `region` (function arguments are the body region's arguments).
    Arg { region: RegionId, index: u32 },
    /// Argument `index` of block `block` (an index into `RegionData::blocks`) of `region`.
    BlockArg {
        region: RegionId,
        block: u32,
        index: u32,
    },
    /// A use whose name has no definition at or before it (textually) in the function.
    Unresolved,
    /// `%r#N` where the latest definition of `%r` has fewer than N+1 results.
    BadResultNumber { op: OpId, index: u32, count: u32 },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ValueData {
    /// Full name as used: `%a`, `%r#1`, `%arg0`.
    pub name: String,
    pub ty: TypeId,
    pub def: ValueDef,
}

/// A named group of results: `%a` (count 1), `%r:2` (defines `%r#0`, `%r#1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultGroup {
    /// Name without `#N`, e.g. `%r`.
    pub name: String,
    pub count: u32,
    /// Written with `:N` (printed back so).
    pub explicit_count: bool,
}

/// Which textual form a tcvt was written in; forms (b) and (e)-with-result print as `Ssa`,
/// (d) and (e)-without-result as `Dps` (syntax.md §7.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TcvtForm {
    /// `%d = pto.tcvt %s[, %tmp] ... : S[, T] -> D`; operands `[src, tmp?]`, one result.
    Ssa,
    /// `pto.tcvt ins(%s[, %tmp] ...) outs(%d ...)`; operands `[src, tmp?, dst]`, no result.
    Dps,
}

/// Saturation attribute as written: value and which key spelled it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SatAttr {
    pub on: bool,
    /// Written as `sat_mode` (PTOAS-Apr) rather than `satmode`; printed as `satmode` anyway.
    pub legacy_key: bool,
}

#[derive(Debug, Clone, PartialEq)]
pub struct TcvtOp {
    pub form: TcvtForm,
    pub has_tmp: bool,
    /// Absent stays absent (D-26).
    pub rmode: Option<RoundMode>,
    pub sat: Option<SatAttr>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct VcvtOp {
    pub rnd: Option<Rnd>,
    pub sat: Option<VSat>,
    pub part: Option<Part>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct FuncOp {
    /// Symbol name without `@` quoting decisions: the text after `@` (decoded if quoted).
    pub sym: String,
    pub visibility: Option<String>,
    pub result_types: Vec<TypeId>,
    /// Per-argument attribute dictionaries (`%a: T {k = v}`), `None` where absent.
    pub arg_attrs: Vec<Option<AttrDict>>,
    /// Argument types of a declaration (no body); empty when there is a body (the body
    /// region's argument values carry the types).
    pub decl_arg_types: Vec<TypeId>,
    /// `func.func` has an `attributes {...}` dict, kept in `OpData.attrs`.
    pub has_body: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VBinaryKind {
    Add,
    Sub,
    Mul,
    Div,
    Max,
    Min,
    And,
    Or,
    Xor,
    Shl,
    Shr,
}

impl VBinaryKind {
    pub const ALL: [VBinaryKind; 11] = [
        VBinaryKind::Add,
        VBinaryKind::Sub,
        VBinaryKind::Mul,
        VBinaryKind::Div,
        VBinaryKind::Max,
        VBinaryKind::Min,
        VBinaryKind::And,
        VBinaryKind::Or,
        VBinaryKind::Xor,
        VBinaryKind::Shl,
        VBinaryKind::Shr,
    ];
    pub fn op_name(self) -> &'static str {
        match self {
            VBinaryKind::Add => "pto.vadd",
            VBinaryKind::Sub => "pto.vsub",
            VBinaryKind::Mul => "pto.vmul",
            VBinaryKind::Div => "pto.vdiv",
            VBinaryKind::Max => "pto.vmax",
            VBinaryKind::Min => "pto.vmin",
            VBinaryKind::And => "pto.vand",
            VBinaryKind::Or => "pto.vor",
            VBinaryKind::Xor => "pto.vxor",
            VBinaryKind::Shl => "pto.vshl",
            VBinaryKind::Shr => "pto.vshr",
        }
    }
}

/// Unknown op kept in generic form (D-5).
#[derive(Debug, Clone, PartialEq)]
pub struct GenericOp {
    pub name: String,
    /// `<{...}>` properties, printed as written.
    pub properties: Option<AttrDict>,
    /// Whether an attribute dict `{...}` was written (an empty one is printed back).
    pub attrs_written: bool,
}

/// Text of the placeholder type (`Type::Opaque`) of values no written form gives a type: uses of
/// undefined names, results and header definitions of opaque ops. It agrees with every written
/// type; it cannot be written (it does not lex as a type).
pub const UNKNOWN_TYPE: &str = "<unknown>";

/// One piece of an opaque op's text after its name (syntax.md §2.1, D-5 as revised).
#[derive(Debug, Clone, PartialEq)]
pub enum OpaqueItem {
    /// A token, as written (value names, strings and literals verbatim).
    Tok(OpaqueTok),
    /// `regions[i]` of the op.
    Region(u32),
}

/// A token of an opaque op and the spacing class the printer uses for it.
#[derive(Debug, Clone, PartialEq)]
pub struct OpaqueTok {
    pub text: String,
    pub class: TokClass,
}

/// How an opaque op's token is spaced when printed (canonical spacing: one space between
/// tokens, none inside brackets, before `,` or after a dimension prefix).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokClass {
    /// `(`, `[`, `<`, `{`: no space after.
    Open,
    /// `)`, `]`, `>`, `}`: no space before.
    Close,
    Comma,
    /// `16x`, `?x`: no space after.
    DimPrefix,
    /// A `%value` (no space before a following `[`).
    Value,
    /// A bare identifier, symbol, type or attribute name (no space before a following `(`/`<`).
    Word,
    /// Anything else: literals, `:`, `=`, `->`, `?`.
    Other,
}

/// An op read by a row of the op catalog: the row and the sizes of its operand segments
/// (operands are stored flat, segment after segment; results and attributes as for any op,
/// format-bound attributes under their names).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogOp {
    pub row: u16,
    pub segments: ThinVec<u32>,
}

/// A custom-form op that is in no row of the op catalog, kept as an opaque statement (syntax.md
/// §2.1 as revised): its tokens print back one for one with canonical spacing; value uses are
/// the op's operands, its regions are parsed as regions. `header_defs` leading arguments of
/// `regions[0]` are values the op's header defines (`scf.for %i = ...`), printed in the header,
/// not in a block label.
#[derive(Debug, Clone, PartialEq)]
pub struct OpaqueOp {
    pub name: String,
    pub items: Vec<OpaqueItem>,
    pub header_defs: u32,
}

/// `module [@name] [attributes {...}] { ... }` nested in a module body (or one of several
/// top-level modules, see [`Module::bare`]). `attributes` are in `OpData.attrs`, the body is
/// `regions[0]`; it is a symbol table and, like a function body, isolated from above.
#[derive(Debug, Clone, PartialEq)]
pub struct ModuleOp {
    /// Symbol of `module @name`, the text after `@` (decoded if quoted).
    pub name: Option<String>,
}

/// The closed set of ops ptoc knows; everything else is [`OpKind::Generic`] (generic form) or
/// [`OpKind::Opaque`] (custom form).
#[derive(Debug, Clone, PartialEq)]
pub enum OpKind {
    /// `func.func`; body (if any) is `regions[0]`, whose arguments are the function arguments.
    Func(Box<FuncOp>),
    /// A nested module; body is `regions[0]`.
    Module(Box<ModuleOp>),
    /// `return` / `func.return`; operands are the returned values.
    Return,
    Tcvt(TcvtOp),
    /// Operands `[input, mask]`, one result.
    Vcvt(VcvtOp),
    /// One result; the literal.
    ArithConstant {
        value: Box<Attr>,
    },
    /// Operands: `addr`, `valid_row`, `valid_col` where present (flags say which).
    AllocTile {
        addr: bool,
        valid_row: bool,
        valid_col: bool,
    },
    DeclareTile,
    /// Operands `[ptr, shape..., strides...]`.
    MakeTensorView {
        shape: u32,
        strides: u32,
    },
    /// Operands `[source, offsets..., sizes...]`; `subview` spelling is an alias.
    PartitionView {
        offsets: u32,
        sizes: u32,
    },
    Pset {
        granularity: types::MaskGranularity,
        pattern: Box<str>,
    },
    /// Operand `[count]`; results `[mask, i32]`.
    Plt {
        granularity: types::MaskGranularity,
    },
    /// Operands `[base, index]`; results `[vreg]` or `[vreg, T]`.
    Vlds,
    /// Operands `[value, base, index, mask]`; optional result.
    Vsts,
    /// Operand `[scalar]`; result vreg.
    Vbr,
    /// Operands `[lhs, rhs, mask]`; result vreg.
    VBinary(VBinaryKind),
    /// `regions[0]` is the body; no terminator.
    VecScope,
    Generic(Box<GenericOp>),
    /// An op of the op catalog (`front::catalog`) without a dedicated kind.
    Catalog(CatalogOp),
    /// An unknown op in custom form; operands are its value uses in textual order.
    Opaque(Box<OpaqueOp>),
}

#[derive(Debug, Clone, PartialEq)]
pub struct OpData {
    pub kind: OpKind,
    pub operands: ValueList,
    /// Type written for each operand (custom form or generic function type); `None` where the
    /// form writes none (e.g. `alloc_tile addr = %a`).
    pub operand_types: OperandTypes,
    pub results: ThinVec<ValueId>,
    pub result_groups: ThinVec<ResultGroup>,
    pub regions: ThinVec<RegionId>,
    /// Extra attributes: discardable (dotted) keys on known ops, every attribute of a generic
    /// op, the `attributes {...}` of a function.
    pub attrs: OpAttrs,
    pub parent: RegionId,
}

#[derive(Debug, Clone, PartialEq)]
pub struct RegionData {
    pub args: Vec<ValueId>,
    pub ops: Vec<OpId>,
    /// The op owning this region; `None` for the module body.
    pub parent_op: Option<OpId>,
    /// Entry block label (`^bb0`) of a generic region, if written.
    pub label: Option<String>,
    /// The blocks after the entry block, in textual order (syntax.md §2.2, multi-block
    /// regions). `ops` stays the flat list of every op; block `k` owns
    /// `ops[blocks[k].start..]` up to the next block's start.
    pub blocks: Vec<BlockData>,
}

/// A non-entry block of a region: `^label(%a: T, ...):` and the ops that follow it.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockData {
    /// The label as written, with its `^`.
    pub label: String,
    /// Index into the region's `ops` of the block's first op.
    pub start: u32,
    pub args: Vec<ValueId>,
    /// The label token.
    pub span: Span,
}

/// Spans of one op's pieces, for precise diagnostics.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OpSpans {
    /// The whole statement.
    pub op: Span,
    /// The op name token.
    pub name: Span,
    /// Each operand use (the value token).
    pub operands: SmallVec<[Span; 2]>,
    /// Each written operand type, where written.
    pub operand_types: SmallVec<[Option<Span>; 2]>,
    /// Each result type as written.
    pub result_types: ThinVec<Span>,
    /// Attribute key → span of `key = value`.
    pub attrs: AttrSpans,
}

/// The span side table, indexed by handle.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SpanTable {
    pub ops: Vec<OpSpans>,
    /// Definition site of each value (name token, or the use site for unresolved values).
    pub values: Vec<Span>,
    pub regions: Vec<Span>,
}

/// One module: the unit of parsing, printing and verification.
#[derive(Debug, Clone, Default)]
pub struct Module {
    /// Symbol of an explicit `module @name`.
    pub name: Option<String>,
    /// `module attributes {...}` (includes `pto.target_arch`).
    pub attrs: AttrDict,
    pub attrs_span: AttrSpans,
    /// The chunk's top-level items are the body's ops, at least one of them a module (several
    /// top-level modules, or a module beside other items): MLIR reads them into an implicit
    /// module, and the printer prints them back bare, without a `module` wrapper. `name` and
    /// `attrs` are then empty.
    pub bare: bool,
    pub body: RegionId,
    pub types: TypeTable,
    pub values: Vec<ValueData>,
    pub ops: Vec<OpData>,
    pub regions: Vec<RegionData>,
    pub spans: SpanTable,
    /// Top-level alias definitions (`!t = type`, `#a = attr`) in definition order, resolved:
    /// the IR holds the types and attributes themselves, this table only names them for the
    /// printer (definitions first, uses by name). Location aliases are not kept (locations
    /// are dropped, as MLIR prints without debug info).
    pub aliases: Vec<AliasDef>,
}

/// A top-level alias definition (user guide, "Aliases and locations").
#[derive(Debug, Clone, PartialEq)]
pub struct AliasDef {
    /// The name with its sigil: `!t`, `#map`.
    pub name: String,
    pub value: AliasValue,
}

/// What an alias stands for.
#[derive(Debug, Clone, PartialEq)]
pub enum AliasValue {
    Type(TypeId),
    Attr(Attr),
}

impl Module {
    /// An empty module with its body region.
    pub fn new() -> Self {
        let mut m = Module::default();
        m.body = m.add_region(None, Span::default());
        m
    }

    pub fn add_region(&mut self, parent_op: Option<OpId>, span: Span) -> RegionId {
        let id = RegionId(self.regions.len() as u32);
        self.regions.push(RegionData {
            args: Vec::new(),
            ops: Vec::new(),
            parent_op,
            label: None,
            blocks: Vec::new(),
        });
        self.spans.regions.push(span);
        id
    }

    pub fn add_value(
        &mut self,
        name: impl Into<String>,
        ty: TypeId,
        def: ValueDef,
        span: Span,
    ) -> ValueId {
        let id = ValueId(self.values.len() as u32);
        self.values.push(ValueData {
            name: name.into(),
            ty,
            def,
        });
        self.spans.values.push(span);
        id
    }

    /// Adds a region argument of type `ty`.
    pub fn add_region_arg(
        &mut self,
        region: RegionId,
        name: impl Into<String>,
        ty: TypeId,
        span: Span,
    ) -> ValueId {
        let index = self.regions[region.0 as usize].args.len() as u32;
        let v = self.add_value(name, ty, ValueDef::Arg { region, index }, span);
        self.regions[region.0 as usize].args.push(v);
        v
    }

    /// Starts a new (non-entry) block of `region` at its current end; returns its index.
    pub fn add_block(&mut self, region: RegionId, label: impl Into<String>, span: Span) -> u32 {
        let rd = &mut self.regions[region.0 as usize];
        let start = rd.ops.len() as u32;
        rd.blocks.push(BlockData {
            label: label.into(),
            start,
            args: Vec::new(),
            span,
        });
        (rd.blocks.len() - 1) as u32
    }

    /// Adds an argument of type `ty` to block `block` of `region`.
    pub fn add_block_arg(
        &mut self,
        region: RegionId,
        block: u32,
        name: impl Into<String>,
        ty: TypeId,
        span: Span,
    ) -> ValueId {
        let index = self.regions[region.0 as usize]
            .blocks
            .get(block as usize)
            .map_or(0, |b| b.args.len() as u32);
        let v = self.add_value(
            name,
            ty,
            ValueDef::BlockArg {
                region,
                block,
                index,
            },
            span,
        );
        if let Some(b) = self.regions[region.0 as usize]
            .blocks
            .get_mut(block as usize)
        {
            b.args.push(v);
        }
        v
    }

    /// Appends `data` to the end of `data.parent` and records its spans. Lists that outgrew
    /// their inline room are cut to their length first.
    pub fn push_op(&mut self, mut data: OpData, mut spans: OpSpans) -> OpId {
        data.operands.shrink_to_fit();
        data.operand_types.shrink_to_fit();
        spans.operands.shrink_to_fit();
        spans.operand_types.shrink_to_fit();
        spans.attrs.shrink_to_fit();
        let id = OpId(self.ops.len() as u32);
        let parent = data.parent;
        self.ops.push(data);
        self.spans.ops.push(spans);
        self.regions[parent.0 as usize].ops.push(id);
        id
    }

    /// Creates the result values of `op` from its groups and the given result types.
    pub fn add_results(&mut self, op: OpId, types: &[TypeId], spans: &[Span]) {
        let groups = self.ops[op.0 as usize].result_groups.clone();
        let mut index = 0u32;
        let mut results = ThinVec::with_capacity(types.len());
        for g in &groups {
            for k in 0..g.count {
                let ty = types.get(index as usize).copied().unwrap_or(TypeId(0));
                let name = if g.count == 1 && !g.explicit_count {
                    g.name.clone()
                } else {
                    format!("{}#{k}", g.name)
                };
                let span = spans.get(index as usize).copied().unwrap_or_default();
                results.push(self.add_value(name, ty, ValueDef::Result { op, index }, span));
                index += 1;
            }
        }
        self.ops[op.0 as usize].results = results;
    }

    pub fn op(&self, id: OpId) -> &OpData {
        &self.ops[id.0 as usize]
    }
    pub fn value(&self, id: ValueId) -> &ValueData {
        &self.values[id.0 as usize]
    }
    pub fn region(&self, id: RegionId) -> &RegionData {
        &self.regions[id.0 as usize]
    }
    pub fn ty(&self, id: TypeId) -> &Type {
        self.types.get(id)
    }
    pub fn value_type(&self, id: ValueId) -> &Type {
        self.types.get(self.value(id).ty)
    }
    pub fn op_spans(&self, id: OpId) -> &OpSpans {
        &self.spans.ops[id.0 as usize]
    }
    pub fn value_span(&self, id: ValueId) -> Span {
        self.spans.values[id.0 as usize]
    }

    /// The op name as printed (`pto.tcvt`, `func.func`, or a generic op's name).
    pub fn op_name(&self, id: OpId) -> &str {
        match &self.op(id).kind {
            OpKind::Func(_) => "func.func",
            OpKind::Module(_) => "builtin.module",
            OpKind::Return => "func.return",
            OpKind::Tcvt(_) => "pto.tcvt",
            OpKind::Vcvt(_) => "pto.vcvt",
            OpKind::ArithConstant { .. } => "arith.constant",
            OpKind::AllocTile { .. } => "pto.alloc_tile",
            OpKind::DeclareTile => "pto.declare_tile",
            OpKind::Catalog(c) => {
                crate::front::catalog::get(c.row).map_or("<<unknown row>>", |(r, _)| r.name)
            }
            OpKind::MakeTensorView { .. } => "pto.make_tensor_view",
            OpKind::PartitionView { .. } => "pto.partition_view",
            OpKind::Pset { granularity, .. } => match granularity {
                types::MaskGranularity::B8 => "pto.pset_b8",
                types::MaskGranularity::B16 => "pto.pset_b16",
                types::MaskGranularity::B32 => "pto.pset_b32",
            },
            OpKind::Plt { granularity } => match granularity {
                types::MaskGranularity::B8 => "pto.plt_b8",
                types::MaskGranularity::B16 => "pto.plt_b16",
                types::MaskGranularity::B32 => "pto.plt_b32",
            },
            OpKind::Vlds => "pto.vlds",
            OpKind::Vsts => "pto.vsts",
            OpKind::Vbr => "pto.vbr",
            OpKind::VBinary(k) => k.op_name(),
            OpKind::VecScope => "pto.vecscope",
            OpKind::Generic(g) => &g.name,
            OpKind::Opaque(o) => &o.name,
        }
    }

    /// All ops in textual (pre-)order, descending into regions.
    pub fn walk(&self) -> Vec<OpId> {
        let mut out = Vec::with_capacity(self.ops.len());
        self.walk_region(self.body, &mut out);
        out
    }

    fn walk_region(&self, region: RegionId, out: &mut Vec<OpId>) {
        for &op in &self.region(region).ops {
            out.push(op);
            for &r in &self.op(op).regions {
                self.walk_region(r, out);
            }
        }
    }

    /// The function op enclosing `region`, if any.
    pub fn enclosing_func(&self, mut region: RegionId) -> Option<OpId> {
        loop {
            let parent = self.region(region).parent_op?;
            if matches!(self.op(parent).kind, OpKind::Func(_)) {
                return Some(parent);
            }
            region = self.op(parent).parent;
        }
    }

    /// `pto.target_arch` of the top-level module as written, if it is a string.
    pub fn target_arch(&self) -> Option<&str> {
        match self.attrs.get("pto.target_arch") {
            Some(Attr::Str(s)) => Some(s),
            _ => None,
        }
    }

    /// The module op enclosing `region` (`None` at the top level).
    pub fn enclosing_module(&self, mut region: RegionId) -> Option<OpId> {
        // Bounded: hand-built IR may have a cycle of regions and ops.
        for _ in 0..=self.regions.len() {
            let parent = self.regions.get(region.0 as usize)?.parent_op?;
            let op = self.ops.get(parent.0 as usize)?;
            if matches!(op.kind, OpKind::Module(_)) {
                return Some(parent);
            }
            region = op.parent;
        }
        None
    }

    /// `pto.target_arch` in force for the ops of `region`: the attribute of the nearest
    /// enclosing module that has one (inner modules inherit it), else the top-level module's.
    /// `None` when no module says, or the nearest one's value is not a string.
    pub fn target_arch_in(&self, region: RegionId) -> Option<&str> {
        let mut at = region;
        while let Some(m) = self.enclosing_module(at) {
            let op = self.op(m);
            if let Some(a) = op.attrs.get("pto.target_arch") {
                return match a {
                    Attr::Str(s) => Some(s),
                    _ => None,
                };
            }
            at = op.parent;
        }
        self.target_arch()
    }

    /// Every `pto.target_arch` written in the chunk (top-level module first, then nested
    /// modules in textual order) with the span of its `key = value`.
    pub fn target_archs(&self) -> Vec<(&Attr, Span)> {
        let key = "pto.target_arch";
        let mut out = Vec::new();
        if let Some(a) = self.attrs.get(key) {
            out.push((a, self.attrs_span.get(key).copied().unwrap_or_default()));
        }
        for op in self.walk() {
            let data = self.op(op);
            if let (OpKind::Module(_), Some(a)) = (&data.kind, data.attrs.get(key)) {
                let span = self.spans.ops.get(op.0 as usize);
                let span = span.and_then(|s| s.attrs.get(key).copied());
                out.push((a, span.unwrap_or_default()));
            }
        }
        out
    }
}

impl TcvtOp {
    /// Operand index of `dst` (DPS form only).
    pub fn dst_index(&self) -> Option<usize> {
        match self.form {
            TcvtForm::Dps => Some(if self.has_tmp { 2 } else { 1 }),
            TcvtForm::Ssa => None,
        }
    }
    /// Operand index of `tmp`, if present.
    pub fn tmp_index(&self) -> Option<usize> {
        self.has_tmp.then_some(1)
    }
}

/// Sizes the memory budget of a large file depends on (docs/performance.md, "IR memory").
#[cfg(all(test, target_pointer_width = "64"))]
mod size_tests {
    use super::*;

    #[test]
    fn op_sizes_stay_small() {
        let sizes = [
            std::mem::size_of::<OpKind>(),
            std::mem::size_of::<OpData>(),
            std::mem::size_of::<OpSpans>(),
        ];
        eprintln!("OpKind, OpData, OpSpans: {sizes:?} bytes");
        // Before the compact layout: 128, 328 and 176 bytes plus five heap blocks per op.
        assert!(
            sizes[0] <= 24 && sizes[1] <= 112 && sizes[2] <= 176,
            "{sizes:?}"
        );
    }
}
