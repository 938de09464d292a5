//! The op catalog: one [`Row`] per op with a custom form, as data. A row gives the op's
//! operand, result and attribute segments and its custom assembly format in the format
//! language of [`format`]; the one interpreter in [`interp`] turns every row into its parser
//! (driven by the statement grammar, `front::parser::catalog_form`) and its printer
//! (`ir::printer::catalog`). `docs/ops.md` is generated from this table.
//!
//! # Adding an op
//! 1. Add a row to [`rows`] (keep the family order):
//!    `row("arith.addi", "lhs rhs", "result", "", "$lhs `,` $rhs attr-dict `:` type($result)")
//!    .same("lhs rhs result").doc("integer addition")`.
//!    - operands / results: names in order; `name?` is optional, `name*` variadic;
//!    - attributes: format-bound ones (`$predicate`) and the keys `attr-dict` accepts besides
//!      dotted (discardable) keys; `*` accepts any key (for ops whose attributes are not
//!      catalogued yet); `name?` may be absent (it can anchor an optional group). After `:`,
//!      how a format-bound one is read: `:kw` a bare keyword, `:kw=cmpi` one of a word set
//!      (`format::WORD_SETS`), `:str` a string, `:flags=overflow` `<nsw, nuw>` glued to the
//!      literal before it; without a kind, any attribute value;
//!    - results: an optional group anchored on a result type, `(`->` type($r)^)?`, lets the
//!      type be omitted (it is then unknown) or, for `r?`/`r*`, the results be absent. A
//!      statement may leave every result unnamed (`func.call @f() : () -> i64`);
//!    - `.same("a b r")`: these pieces have one type: an unwritten type is taken from a
//!      written one, and two written types that differ are an error naming both;
//!    - `.bool_result()`: the result is `i1` when the first operand is a scalar (compares);
//!    - `.build(Build::X)`: the op keeps a dedicated `OpKind` (the interpreter and verifier
//!      match on it); the default is `OpKind::Catalog` with the operand segment sizes.
//! 2. Run `cargo test -p ptoc --lib catalog` (every row compiles; the format rules are
//!    checked there), then `PTOC_BLESS=1 cargo test -p ptoc --test ops_docs` to regenerate
//!    `docs/ops.md`, and add a round-trip lit case under `tests/lit/roundtrip/`.
//!
//! Several rows may share a name (alternative forms, e.g. the two `pto.subview` forms): the
//! reader picks the one whose first literal after its leading operands is next.
//!
//! # What stays hand-written (and why)
//! - `pto.tcvt`, `pto.vcvt`: typed rounding/saturation attributes with their own diagnostics
//!   (D-20/D-21: attributes inside or after `ins(...)`, never both), the SSA/DPS form split
//!   with result-count rules, and the hot 100k-op verify path;
//! - `arith.constant`: the literal's type is part of the literal (`1.0 : f32`) and becomes the
//!   result type;
//! - `func.func`, `func.return`, `pto.vecscope` and every op with regions or successors
//!   (`scf.for`, `scf.if`, `cf.br`): regions and blocks are statement-level structure.
//!
//! # Not rows yet (read as opaque statements)
//! - `memref.subview`, `memref.reinterpret_cast`, `llvm.getelementptr`: mixed static/dynamic
//!   lists (`[0, %i]`) are not in the format language; `llvm.alloca` writes a type as an
//!   attribute (`%n x f32`);
//! - `pto.vmi.*`: PTOAS reads them with hand-written parsers, not declarative formats, and
//!   their forms vary per op (types after `:` optional, mask operands optional); each needs
//!   its grammar pinned down from those parsers before it can be a row;
//! - the rest of the vector and SIMT layers (`pto.vldsx2`, `pto.vldus`, `pto.copy_*`, ...):
//!   the rows above cover the ops the PTOAS lit corpus uses most; more are added as rows.
//!
//! Ops in no row and not hand-written are read by the opaque reader.

pub mod format;
pub mod interp;

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::ir::types::MaskGranularity;
use crate::ir::{Attr, AttrDict, CatalogOp, OpKind, VBinaryKind};
use format::Compiled;

/// How a parsed row becomes an `OpKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// `OpKind::Catalog` with the row and its operand segment sizes.
    Catalog,
    DeclareTile,
    /// Segments `addr? valid_row? valid_col?`.
    AllocTile,
    /// Segments `ptr shape* strides*`.
    MakeTensorView,
    /// Segments `source offsets* sizes*`.
    PartitionView,
    /// `OpKind::Pset`: granularity from the name, the `pattern` attribute moves into the kind.
    Pset,
    /// `OpKind::Plt`: granularity from the name.
    Plt,
    Vlds,
    Vsts,
    Vbr,
    /// `OpKind::VBinary` of the row's name.
    VBinary,
}

/// One op of the catalog (see the module doc).
#[derive(Debug, Clone)]
pub struct Row {
    pub name: &'static str,
    pub operands: &'static str,
    pub results: &'static str,
    pub attrs: &'static str,
    pub format: &'static str,
    pub same: &'static str,
    pub bool_result: bool,
    pub build: Build,
    pub summary: &'static str,
}

impl Row {
    pub const fn same(mut self, s: &'static str) -> Row {
        self.same = s;
        self
    }
    pub const fn build(mut self, b: Build) -> Row {
        self.build = b;
        self
    }
    pub const fn doc(mut self, s: &'static str) -> Row {
        self.summary = s;
        self
    }
    pub const fn bool_result(mut self) -> Row {
        self.bool_result = true;
        self
    }
    /// Whether `attr-dict` accepts any key (`*` in the attribute list).
    pub fn open_attrs(&self) -> bool {
        self.attrs.split_whitespace().any(|w| w == "*")
    }
}

const fn row(
    name: &'static str,
    operands: &'static str,
    results: &'static str,
    attrs: &'static str,
    format: &'static str,
) -> Row {
    Row {
        name,
        operands,
        results,
        attrs,
        format,
        same: "",
        bool_result: false,
        build: Build::Catalog,
        summary: "",
    }
}

const BIN: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const BIN_OVF: &str = "$lhs `,` $rhs (`overflow` $overflowFlags^)? attr-dict `:` type($result)";
/// The optional `fastmath<...>` of float ops.
const FM: &str = "fastmath?:flags=fastmath";
const BIN_FM: &str = "$lhs `,` $rhs (`fastmath` $fastmath^)? attr-dict `:` type($result)";
const UNARY_FM: &str = "$operand (`fastmath` $fastmath^)? attr-dict `:` type($result)";
const CMP_FM: &str =
    "$predicate `,` $lhs `,` $rhs (`fastmath` $fastmath^)? attr-dict `:` type($lhs)";
const UNARY: &str = "$operand attr-dict `:` type($result)";
const V_CAST: &str = "$value attr-dict `:` type($value) `->` type($result)";
const V_BIN: &str = "$lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask) `->` type($result)";
const V_UNARY: &str =
    "$input `,` $mask attr-dict `:` type($input) `,` type($mask) `->` type($result)";
const CAST: &str = "$in attr-dict `:` type($in) `to` type($out)";
const CMP: &str = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";
const TILE_DPS: &str =
    "`ins` `(` $srcs `:` type($srcs) `)` (`outs` `(` $dsts^ `:` type($dsts) `)`)? attr-dict";

/// The catalog, in family order (the order of `docs/ops.md`).
fn build_rows() -> Vec<Row> {
    let mut t = vec![
        // ---- PTO: views, tiles, memory ----
        row("pto.make_tensor_view", "ptr shape* strides*", "result", "layout",
            "$ptr `,` `shape` `=` `[` $shape `]` (`,`)? `strides` `=` `[` $strides `]` attr-dict `:` type($result)")
            .build(Build::MakeTensorView)
            .doc("a tensor view over a pointer with dynamic shape and strides (the `,` before `strides` may be omitted, D-7)"),
        row("pto.partition_view", "source offsets* sizes*", "result", "",
            "$source `,` `offsets` `=` `[` $offsets `]` `,` `sizes` `=` `[` $sizes `]` attr-dict `:` type($source) (`->` type($result)^)?")
            .build(Build::PartitionView)
            .doc("a window of a tensor view (the result type may be left to PTOAS's inference: then it is unknown here)"),
        row("pto.subview", "source offsets* valid*", "result", "sizes",
            "$source `[` $offsets `]` `sizes` $sizes (`valid` `[` $valid^ `]`)? attr-dict `:` type($source) `->` type($result)")
            .doc("a window of a tile: dynamic offsets, static sizes, optional dynamic valid extents"),
        row("pto.subview", "source offsets* sizes*", "result", "",
            "$source `,` `offsets` `=` `[` $offsets `]` `,` `sizes` `=` `[` $sizes `]` attr-dict `:` type($source) `->` type($result)")
            .build(Build::PartitionView)
            .doc("January spelling of `pto.partition_view` (printed as `pto.partition_view`)"),
        row("pto.declare_tile", "", "tile", "", "attr-dict `->` type($tile)")
            .build(Build::DeclareTile)
            .doc("a tile without storage"),
        row("pto.alloc_tile", "addr? valid_row? valid_col?", "result", "",
            "(`addr` `=` $addr^)? (`valid_row` `=` $valid_row^)? (`valid_col` `=` $valid_col^)? attr-dict `:` type($result)")
            .build(Build::AllocTile)
            .doc("a tile buffer, optionally at an address with dynamic valid extents (`: <loc=...>` may omit `!pto.tile_buf`, D-7b)"),
        row("pto.tload", "src dst", "", "layout",
            "`ins` `(` $src `:` type($src) `)` `outs` `(` $dst `:` type($dst) `)` attr-dict")
            .doc("global memory to tile"),
        row("pto.tstore", "src pre? fp? dst", "", "layout stPhase atomicType reluPreMode",
            "`ins` `(` $src `:` type($src) (`,` $pre^ `:` type($pre))? (`fp` $fp^ `:` type($fp))? `)` `outs` `(` $dst `:` type($dst) `)` attr-dict")
            .doc("tile to global memory; optional pre-quant scalar and `fp` scaling tile"),
        row("pto.castptr", "src", "result", "", "$src attr-dict `:` type($src) `->` type($result)")
            .doc("reinterprets an address as a typed pointer"),
    ];
    // ---- PTO tile ops in destination-passing style ----
    for (name, doc) in [
        ("pto.tadd", "elementwise tile addition"),
        ("pto.tsub", "elementwise tile subtraction"),
        ("pto.tmul", "elementwise tile multiplication"),
        ("pto.tdiv", "elementwise tile division"),
        ("pto.tmax", "elementwise tile maximum"),
        ("pto.tmin", "elementwise tile minimum"),
        ("pto.tand", "elementwise tile and"),
        ("pto.tor", "elementwise tile or"),
        ("pto.txor", "elementwise tile xor (optional scratch tile)"),
        ("pto.tadds", "tile plus scalar"),
        ("pto.tsubs", "tile minus scalar"),
        ("pto.tmuls", "tile times scalar"),
        ("pto.tdivs", "tile divided by scalar, or scalar by tile"),
        ("pto.tmaxs", "tile maximum with a scalar"),
        ("pto.tmins", "tile minimum with a scalar"),
        ("pto.texp", "elementwise exponential"),
        ("pto.tlog", "elementwise natural logarithm"),
        ("pto.tsqrt", "elementwise square root"),
        ("pto.trsqrt", "elementwise reciprocal square root"),
        ("pto.tabs", "elementwise absolute value"),
        ("pto.trecip", "elementwise reciprocal"),
        ("pto.tneg", "elementwise negation"),
        ("pto.trelu", "elementwise ReLU"),
        ("pto.tnot", "elementwise bitwise not"),
        ("pto.tsel", "select between tiles by a mask"),
        ("pto.tmatmul", "matrix multiplication"),
        (
            "pto.tmatmul.acc",
            "matrix multiplication accumulating into an input",
        ),
        ("pto.tmatmul.mx", "matrix multiplication with scaling tiles"),
    ] {
        t.push(row(name, "srcs* dsts*", "", "*", TILE_DPS).doc(doc));
    }
    // ---- PTO vector layer (registers, masks, unaligned/strided memory) ----
    for name in ["pto.pset_b8", "pto.pset_b16", "pto.pset_b32"] {
        t.push(
            row(
                name,
                "",
                "result",
                "pattern:str",
                "$pattern attr-dict `:` type($result)",
            )
            .build(Build::Pset)
            .doc("a mask from a named pattern (`\"PAT_ALL\"`)"),
        );
    }
    for name in ["pto.plt_b8", "pto.plt_b16", "pto.plt_b32"] {
        t.push(
            row(
                name,
                "scalar",
                "mask scalar_out",
                "",
                "$scalar attr-dict `:` type($scalar) `->` type($mask) `,` type($scalar_out)",
            )
            .build(Build::Plt)
            .doc("a mask of the first `scalar` lanes, and the remaining count"),
        );
    }
    t.push(
        row(
            "pto.vlds",
            "source offset",
            "result updated_base?",
            "dist",
            "$source `[` $offset `]` attr-dict `:` type($source) `->` type($result) (`,` type($updated_base)^)?",
        )
        .build(Build::Vlds)
        .doc("loads a vector register; optionally returns the post-updated base"),
    );
    t.push(
        row(
            "pto.vsts",
            "value destination offset mask",
            "updated_base?",
            "dist",
            "$value `,` $destination `[` $offset `]` `,` $mask attr-dict `:` type($value) `,` type($destination) `,` type($mask) (`->` type($updated_base)^)?",
        )
        .build(Build::Vsts)
        .doc("stores a vector register under a mask; optionally returns the post-updated base"),
    );
    t.push(
        row("pto.vbr", "value", "result", "", V_CAST)
            .build(Build::Vbr)
            .doc("broadcasts a scalar to every lane"),
    );
    for (name, doc) in [
        ("pto.vbitcast", "reinterprets a vector register's bits"),
        (
            "pto.vci",
            "a vector of consecutive indices from a start value",
        ),
        ("pto.vldas", "primes an unaligned load (align register)"),
        ("pto.pbitcast", "reinterprets a mask's bits"),
        ("pto.ppack", "packs a mask"),
        ("pto.punpack", "unpacks a mask"),
    ] {
        t.push(row(name, "value", "result", "*", V_CAST).doc(doc));
    }
    for (name, doc) in [
        ("pto.vadd", "lane-wise addition under a mask"),
        ("pto.vsub", "lane-wise subtraction under a mask"),
        ("pto.vmul", "lane-wise multiplication under a mask"),
        ("pto.vdiv", "lane-wise division under a mask"),
        ("pto.vmax", "lane-wise maximum under a mask"),
        ("pto.vmin", "lane-wise minimum under a mask"),
        ("pto.vand", "lane-wise and under a mask"),
        ("pto.vor", "lane-wise or under a mask"),
        ("pto.vxor", "lane-wise xor under a mask"),
        ("pto.vshl", "lane-wise shift left under a mask"),
        ("pto.vshr", "lane-wise shift right under a mask"),
    ] {
        t.push(
            row(name, "lhs rhs mask", "result", "", V_BIN)
                .build(Build::VBinary)
                .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.vsel", "picks lanes of two registers by a mask"),
        ("pto.vprelu", "PReLU with per-lane slopes"),
    ] {
        t.push(row(name, "lhs rhs mask", "result", "*", V_BIN).doc(doc));
    }
    for (name, doc) in [
        ("pto.vabs", "lane-wise absolute value"),
        ("pto.vexp", "lane-wise exponential"),
        ("pto.vln", "lane-wise natural logarithm"),
        ("pto.vsqrt", "lane-wise square root"),
        ("pto.vneg", "lane-wise negation"),
        ("pto.vrelu", "lane-wise ReLU"),
        ("pto.vnot", "lane-wise bitwise not"),
        ("pto.vcadd", "reduction: sum of the active lanes"),
        ("pto.vcmax", "reduction: maximum of the active lanes"),
        ("pto.vcmin", "reduction: minimum of the active lanes"),
        ("pto.vcgadd", "per-group sums"),
        ("pto.vcgmax", "per-group maxima"),
        ("pto.vcgmin", "per-group minima"),
        ("pto.vcpadd", "pairwise sums"),
        ("pto.vsqz", "compresses the active lanes"),
        ("pto.vusqz", "expands into the active lanes"),
        (
            "pto.vdup",
            "duplicates a scalar or lane under a mask (optional `position`)",
        ),
    ] {
        t.push(row(name, "input mask", "result", "*", V_UNARY).doc(doc));
    }
    for (name, doc) in [
        ("pto.vadds", "adds a scalar under a mask"),
        ("pto.vmuls", "multiplies by a scalar under a mask"),
        ("pto.vmaxs", "maximum with a scalar under a mask"),
        ("pto.vmins", "minimum with a scalar under a mask"),
        ("pto.vlrelu", "leaky ReLU with a scalar slope"),
        ("pto.vshls", "shift left by a scalar"),
        ("pto.vshrs", "shift right by a scalar"),
    ] {
        t.push(
            row(
                name,
                "input scalar mask",
                "result",
                "*",
                "$input `,` $scalar `,` $mask attr-dict `:` type($input) `,` type($scalar) `,` type($mask) `->` type($result)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.vintlv", "interleaves two registers"),
        ("pto.vdintlv", "de-interleaves two registers"),
    ] {
        t.push(
            row(
                name,
                "lhs rhs",
                "low high",
                "*",
                "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($low) `,` type($high)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        (
            "pto.vcbmax",
            "maximum of the active lanes and a mask of where it is",
        ),
        (
            "pto.vcbmin",
            "minimum of the active lanes and a mask of where it is",
        ),
    ] {
        t.push(
            row(
                name,
                "input mask",
                "value predicate",
                "*",
                "$input `,` $mask attr-dict `:` type($input) `,` type($mask) `->` type($value) `,` type($predicate)",
            )
            .doc(doc),
        );
    }
    t.push(
        row(
            "pto.vmull",
            "lhs rhs mask",
            "low high",
            "*",
            "$lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask) `->` type($low) `,` type($high)",
        )
        .doc("widening multiplication: low and high halves"),
    );
    for (name, doc) in [
        ("pto.vmula", "multiply-accumulate under a mask"),
        ("pto.vmadd", "multiply-add under a mask"),
    ] {
        t.push(
            row(
                name,
                "acc lhs rhs mask",
                "result",
                "*",
                "$acc `,` $lhs `,` $rhs `,` $mask attr-dict `:` type($acc) `,` type($lhs) `,` type($rhs) `,` type($mask) `->` type($result)",
            )
            .doc(doc),
        );
    }
    t.push(
        row(
            "pto.vselr",
            "lhs rhs",
            "result",
            "*",
            "$lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)",
        )
        .doc("selects lanes by an index register"),
    );
    for (name, doc) in [(
        "pto.vpack",
        "packs a register into one half (`part` keyword string)",
    )] {
        t.push(
            row(
                name,
                "src",
                "result",
                "part:str *",
                "$src `,` $part attr-dict `:` type($src) `->` type($result)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.vsunpack", "sign-extending unpack of one half"),
        ("pto.vzunpack", "zero-extending unpack of one half"),
    ] {
        t.push(
            row(
                name,
                "src part",
                "result",
                "*",
                "$src `,` $part attr-dict `:` type($src) `->` type($result)",
            )
            .doc(doc),
        );
    }
    t.push(
        row(
            "pto.vcmp",
            "lhs rhs mask",
            "result",
            "cmp_mode:str *",
            "$lhs `,` $rhs `,` $mask `,` $cmp_mode attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask) `->` type($result)",
        )
        .doc("lane-wise comparison into a mask"),
    );
    t.push(
        row(
            "pto.vcmps",
            "src scalar mask",
            "result",
            "cmp_mode:str *",
            "$src `,` $scalar `,` $mask `,` $cmp_mode attr-dict `:` type($src) `,` type($scalar) `,` type($mask) `->` type($result)",
        )
        .doc("lane-wise comparison with a scalar into a mask"),
    );
    t.push(
        row(
            "pto.vexpdif",
            "input max mask",
            "result",
            "part:str *",
            "$input `,` $max `,` $mask `,` $part attr-dict `:` type($input) `,` type($max) `,` type($mask) `->` type($result)",
        )
        .doc("exp(x - max) of one half"),
    );
    t.push(
        row(
            "pto.vgather2",
            "source offsets mask",
            "result",
            "*",
            "$source `,` $offsets `,` $mask attr-dict `:` type($source) `,` type($offsets) `,` type($mask) `->` type($result)",
        )
        .doc("gathers lanes from memory by an offset register"),
    );
    t.push(
        row(
            "pto.vscatter",
            "value destination offsets mask",
            "",
            "*",
            "$value `,` $destination `,` $offsets `,` $mask attr-dict `:` type($value) `,` type($destination) `,` type($offsets) `,` type($mask)",
        )
        .doc("scatters lanes to memory by an offset register"),
    );
    t.push(
        row(
            "pto.vsldb",
            "source block_stride repeat_stride mask",
            "result updated_base?",
            "*",
            "$source `,` $block_stride `,` $repeat_stride `,` $mask attr-dict `:` type($source) `,` type($block_stride) `,` type($repeat_stride) `,` type($mask) `->` type($result) (`,` type($updated_base)^)?",
        )
        .doc("block-strided load"),
    );
    t.push(
        row(
            "pto.vsstb",
            "value destination block_stride repeat_stride mask",
            "updated_base?",
            "*",
            "$value `,` $destination `,` $block_stride `,` $repeat_stride `,` $mask attr-dict `:` type($value) `,` type($destination) `,` type($block_stride) `,` type($repeat_stride) `,` type($mask) (`->` type($updated_base)^)?",
        )
        .doc("block-strided store"),
    );
    t.push(
        row(
            "pto.vstas",
            "value destination offset",
            "updated_base?",
            "*",
            "$value `,` $destination `,` $offset attr-dict `:` type($value) `,` type($destination) `,` type($offset) (`->` type($updated_base)^)?",
        )
        .doc("flushes an align register (unaligned store tail)"),
    );
    t.push(
        row(
            "pto.vstar",
            "value destination",
            "",
            "*",
            "$value `,` $destination attr-dict `:` type($value) `,` type($destination)",
        )
        .doc("flushes an align register to a post-updated base"),
    );
    // ---- PTO VMI layer (logical vectors) ----
    for (name, x, doc) in [
        (
            "pto.vmi.broadcast",
            "value",
            "a scalar or one-lane vector to every lane",
        ),
        ("pto.vmi.vbrc", "value", "broadcast (optional `group`)"),
        ("pto.vmi.iota", "base", "consecutive values from a base"),
        ("pto.vmi.group_iota", "base", "consecutive values per group"),
        (
            "pto.vmi.vci",
            "base",
            "consecutive indices (optional `order`, `group`)",
        ),
        (
            "pto.vmi.create_mask",
            "active_lanes",
            "a mask of the first lanes",
        ),
        (
            "pto.vmi.create_group_mask",
            "active_elems_per_group",
            "a mask of the first lanes of each group",
        ),
        (
            "pto.vmi.active_prefix_index",
            "mask",
            "prefix index of the active lanes",
        ),
        ("pto.vmi.mask_not", "source", "mask complement"),
        ("pto.vmi.negf", "source", "float negation"),
        ("pto.vmi.negi", "source", "integer negation"),
        ("pto.vmi.absf", "source", "float absolute value"),
        ("pto.vmi.absi", "source", "integer absolute value"),
        ("pto.vmi.sqrt", "source", "square root"),
        ("pto.vmi.exp", "source", "exponential"),
        ("pto.vmi.ln", "source", "natural logarithm"),
        ("pto.vmi.relu", "source", "ReLU"),
        ("pto.vmi.not", "source", "bitwise not"),
        (
            "pto.vmi.group_broadcast",
            "source",
            "broadcast within groups",
        ),
        ("pto.vmi.extf", "source", "float extension"),
        (
            "pto.vmi.truncf",
            "source",
            "float truncation (`rounding`, `saturate`)",
        ),
        ("pto.vmi.fptosi", "source", "float to signed integer"),
        ("pto.vmi.fptoui", "source", "float to unsigned integer"),
        ("pto.vmi.sitofp", "source", "signed integer to float"),
        ("pto.vmi.extsi", "source", "sign extension"),
        ("pto.vmi.extui", "source", "zero extension"),
        ("pto.vmi.trunci", "source", "integer truncation"),
        ("pto.vmi.bitcast", "source", "bit-preserving cast"),
        (
            "pto.vmi.vcvt",
            "source",
            "conversion (`rounding`, `saturate`, `pmode`)",
        ),
        (
            "pto.vmi.vinterpret_cast",
            "source",
            "reinterprets the register layout",
        ),
        ("pto.vmi.ensure_layout", "source", "layout normalisation"),
        (
            "pto.vmi.ensure_mask_layout",
            "source",
            "mask layout normalisation",
        ),
        (
            "pto.vmi.ensure_mask_granularity",
            "source",
            "mask granularity change",
        ),
    ] {
        t.push(
            row(
                name,
                x,
                "result",
                "*",
                leak(format!("${x} attr-dict `:` type(${x}) `->` type($result)")),
            )
            .doc(doc),
        );
    }
    for (name, (a, b), doc) in [
        ("pto.vmi.mask_and", ("lhs", "rhs"), "mask and"),
        ("pto.vmi.mask_or", ("lhs", "rhs"), "mask or"),
        ("pto.vmi.mask_xor", ("lhs", "rhs"), "mask xor"),
        ("pto.vmi.addf", ("lhs", "rhs"), "float addition"),
        ("pto.vmi.addi", ("lhs", "rhs"), "integer addition"),
        ("pto.vmi.subf", ("lhs", "rhs"), "float subtraction"),
        ("pto.vmi.subi", ("lhs", "rhs"), "integer subtraction"),
        ("pto.vmi.mulf", ("lhs", "rhs"), "float multiplication"),
        ("pto.vmi.muli", ("lhs", "rhs"), "integer multiplication"),
        ("pto.vmi.divf", ("lhs", "rhs"), "float division"),
        ("pto.vmi.minf", ("lhs", "rhs"), "float minimum"),
        ("pto.vmi.maxf", ("lhs", "rhs"), "float maximum"),
        ("pto.vmi.mini", ("lhs", "rhs"), "integer minimum"),
        ("pto.vmi.maxi", ("lhs", "rhs"), "integer maximum"),
        ("pto.vmi.andi", ("lhs", "rhs"), "bitwise and"),
        ("pto.vmi.ori", ("lhs", "rhs"), "bitwise or"),
        ("pto.vmi.xori", ("lhs", "rhs"), "bitwise xor"),
        ("pto.vmi.shli", ("lhs", "rhs"), "shift left"),
        ("pto.vmi.shrui", ("lhs", "rhs"), "logical shift right"),
        ("pto.vmi.shrsi", ("lhs", "rhs"), "arithmetic shift right"),
        (
            "pto.vmi.vselr",
            ("source", "index"),
            "selects lanes by an index vector",
        ),
        (
            "pto.vmi.compress",
            ("source", "mask"),
            "packs the active lanes",
        ),
        (
            "pto.vmi.reduce_addi",
            ("source", "mask"),
            "integer sum of the active lanes",
        ),
        (
            "pto.vmi.reduce_addf",
            ("source", "mask"),
            "float sum of the active lanes",
        ),
        (
            "pto.vmi.reduce_maxf",
            ("source", "mask"),
            "float maximum of the active lanes",
        ),
        (
            "pto.vmi.reduce_minf",
            ("source", "mask"),
            "float minimum of the active lanes",
        ),
        (
            "pto.vmi.reduce_maxi",
            ("source", "mask"),
            "integer maximum of the active lanes",
        ),
        (
            "pto.vmi.reduce_mini",
            ("source", "mask"),
            "integer minimum of the active lanes",
        ),
        (
            "pto.vmi.group_reduce_addf",
            ("source", "mask"),
            "float sums per group",
        ),
        (
            "pto.vmi.group_reduce_maxf",
            ("source", "mask"),
            "float maxima per group",
        ),
        (
            "pto.vmi.group_reduce_minf",
            ("source", "mask"),
            "float minima per group",
        ),
        (
            "pto.vmi.group_reduce_addi",
            ("source", "mask"),
            "integer sums per group",
        ),
        (
            "pto.vmi.group_reduce_maxi",
            ("source", "mask"),
            "integer maxima per group",
        ),
        (
            "pto.vmi.group_reduce_mini",
            ("source", "mask"),
            "integer minima per group",
        ),
        (
            "pto.vmi.vcadd",
            ("source", "mask"),
            "sum of the active lanes (optional `group`)",
        ),
        (
            "pto.vmi.vcmax",
            ("source", "mask"),
            "maximum of the active lanes",
        ),
        (
            "pto.vmi.vcmin",
            ("source", "mask"),
            "minimum of the active lanes",
        ),
    ] {
        t.push(
            row(
                name,
                leak(format!("{a} {b}")),
                "result",
                "*",
                leak(format!(
                    "${a} `,` ${b} attr-dict `:` type(${a}) `,` type(${b}) `->` type($result)"
                )),
            )
            .doc(doc),
        );
    }
    for (name, (a, b, c), doc) in [
        ("pto.vmi.fma", ("lhs", "rhs", "acc"), "fused multiply-add"),
        (
            "pto.vmi.select",
            ("mask", "true_value", "false_value"),
            "lane select by a mask",
        ),
        (
            "pto.vmi.vsel",
            ("mask", "true_value", "false_value"),
            "lane select by a mask",
        ),
        (
            "pto.vmi.vcmp",
            ("lhs", "rhs", "seed"),
            "lane comparison into a mask (`cmp`)",
        ),
        (
            "pto.vmi.vcmps",
            ("src", "scalar", "seed"),
            "comparison with a scalar (`cmp`)",
        ),
        (
            "pto.vmi.vgather",
            ("source", "offsets", "mask"),
            "gather by offsets",
        ),
        (
            "pto.vmi.vgatherb",
            ("source", "offsets", "mask"),
            "block gather by offsets",
        ),
        ("pto.vmi.vexpdif", ("x", "max", "mask"), "exp(x - max)"),
        ("pto.vmi.vprelu", ("x", "alpha", "mask"), "PReLU"),
    ] {
        t.push(
            row(
                name,
                leak(format!("{a} {b} {c}")),
                "result",
                "*",
                leak(format!("${a} `,` ${b} `,` ${c} attr-dict `:` type(${a}) `,` type(${b}) `,` type(${c}) `->` type($result)")),
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.vmi.vadd", "addition, optionally under a mask"),
        ("pto.vmi.vsub", "subtraction, optionally under a mask"),
        ("pto.vmi.vmul", "multiplication, optionally under a mask"),
        ("pto.vmi.vdiv", "division, optionally under a mask"),
        ("pto.vmi.vmin", "minimum, optionally under a mask"),
        ("pto.vmi.vmax", "maximum, optionally under a mask"),
        ("pto.vmi.vand", "bitwise and, optionally under a mask"),
        ("pto.vmi.vor", "bitwise or, optionally under a mask"),
        ("pto.vmi.vxor", "bitwise xor, optionally under a mask"),
        ("pto.vmi.vshl", "shift left, optionally under a mask"),
        ("pto.vmi.vshr", "shift right, optionally under a mask"),
    ] {
        t.push(
            row(
                name,
                "lhs rhs mask*",
                "result",
                "*",
                "$lhs `,` $rhs (`,` $mask^)? attr-dict `:` type($lhs) `,` type($rhs) (`,` type($mask)^)? `->` type($result)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.vmi.vneg", "negation, optionally under a mask"),
        ("pto.vmi.vabs", "absolute value, optionally under a mask"),
        ("pto.vmi.vsqrt", "square root, optionally under a mask"),
        ("pto.vmi.vexp", "exponential, optionally under a mask"),
        ("pto.vmi.vln", "natural logarithm, optionally under a mask"),
        ("pto.vmi.vrelu", "ReLU, optionally under a mask"),
        ("pto.vmi.vnot", "bitwise not, optionally under a mask"),
    ] {
        t.push(
            row(
                name,
                "source mask*",
                "result",
                "*",
                "$source (`,` $mask^)? attr-dict `:` type($source) (`,` type($mask)^)? `->` type($result)",
            )
            .doc(doc),
        );
    }
    t.push(
        row(
            "pto.vmi.load",
            "source offset",
            "result",
            "*",
            "$source `[` $offset `]` attr-dict `:` type($source) `->` type($result)",
        )
        .doc("loads a logical vector"),
    );
    t.push(
        row(
            "pto.vmi.deinterleave_load",
            "source offset",
            "low high",
            "*",
            "$source `[` $offset `]` attr-dict `:` type($source) `->` type($low) `,` type($high)",
        )
        .doc("loads and de-interleaves into two vectors"),
    );
    t.push(
        row(
            "pto.vmi.store",
            "value destination offset",
            "",
            "*",
            "$value `,` $destination `[` $offset `]` attr-dict `:` type($value) `,` type($destination)",
        )
        .doc("stores a logical vector"),
    );
    // ---- arith ----
    for (name, doc) in [
        ("arith.addi", "integer addition"),
        ("arith.subi", "integer subtraction"),
        ("arith.muli", "integer multiplication"),
        ("arith.shli", "shift left"),
    ] {
        t.push(
            row(
                name,
                "lhs rhs",
                "result",
                "overflowFlags?:flags=overflow",
                BIN_OVF,
            )
            .same("lhs rhs result")
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("arith.divsi", "signed integer division"),
        ("arith.divui", "unsigned integer division"),
        ("arith.ceildivsi", "signed division rounding up"),
        ("arith.ceildivui", "unsigned division rounding up"),
        ("arith.floordivsi", "signed division rounding down"),
        ("arith.remsi", "signed remainder"),
        ("arith.remui", "unsigned remainder"),
        ("arith.andi", "bitwise and"),
        ("arith.ori", "bitwise or"),
        ("arith.xori", "bitwise xor"),
        ("arith.shrsi", "arithmetic shift right"),
        ("arith.shrui", "logical shift right"),
        ("arith.maxsi", "signed maximum"),
        ("arith.minsi", "signed minimum"),
        ("arith.maxui", "unsigned maximum"),
        ("arith.minui", "unsigned minimum"),
    ] {
        t.push(
            row(name, "lhs rhs", "result", "", BIN)
                .same("lhs rhs result")
                .doc(doc),
        );
    }
    for (name, doc) in [
        ("arith.addf", "float addition"),
        ("arith.subf", "float subtraction"),
        ("arith.mulf", "float multiplication"),
        ("arith.divf", "float division"),
        ("arith.remf", "float remainder"),
        ("arith.maximumf", "float maximum (NaN-propagating)"),
        ("arith.minimumf", "float minimum (NaN-propagating)"),
        ("arith.maxnumf", "float maximum (NaN-ignoring)"),
        ("arith.minnumf", "float minimum (NaN-ignoring)"),
    ] {
        t.push(
            row(name, "lhs rhs", "result", FM, BIN_FM)
                .same("lhs rhs result")
                .doc(doc),
        );
    }
    t.push(
        row("arith.negf", "operand", "result", FM, UNARY_FM)
            .same("operand result")
            .doc("float negation"),
    );
    t.push(
        row("arith.cmpi", "lhs rhs", "result", "predicate:kw=cmpi", CMP)
            .same("lhs rhs")
            .bool_result()
            .doc("integer comparison"),
    );
    t.push(
        row(
            "arith.cmpf",
            "lhs rhs",
            "result",
            "predicate:kw=cmpf fastmath?:flags=fastmath",
            CMP_FM,
        )
        .same("lhs rhs")
        .bool_result()
        .doc("float comparison"),
    );
    t.push(
        row(
            "arith.select",
            "condition true_value false_value",
            "result",
            "",
            "$condition `,` $true_value `,` $false_value attr-dict `:` type($result)",
        )
        .same("true_value false_value result")
        .doc("picks one of two values by an i1 condition"),
    );
    for (name, doc) in [
        ("arith.index_cast", "integer to/from index, sign-extending"),
        (
            "arith.index_castui",
            "integer to/from index, zero-extending",
        ),
        ("arith.extsi", "sign extension"),
        ("arith.extui", "zero extension"),
        ("arith.sitofp", "signed integer to float"),
        ("arith.uitofp", "unsigned integer to float"),
        ("arith.fptosi", "float to signed integer"),
        ("arith.fptoui", "float to unsigned integer"),
        ("arith.bitcast", "bit-preserving cast"),
    ] {
        t.push(row(name, "in", "out", "", CAST).doc(doc));
    }
    t.push(
        row(
            "arith.trunci",
            "in",
            "out",
            "overflowFlags?:flags=overflow",
            "$in (`overflow` $overflowFlags^)? attr-dict `:` type($in) `to` type($out)",
        )
        .doc("integer truncation"),
    );
    for (name, doc) in [
        ("arith.extf", "float extension"),
        ("arith.truncf", "float truncation"),
    ] {
        t.push(
            row(
                name,
                "in",
                "out",
                FM,
                "$in (`fastmath` $fastmath^)? attr-dict `:` type($in) `to` type($out)",
            )
            .doc(doc),
        );
    }
    // ---- math ----
    for (name, doc) in [
        ("math.exp", "exponential"),
        ("math.exp2", "base-2 exponential"),
        ("math.log", "natural logarithm"),
        ("math.log2", "base-2 logarithm"),
        ("math.log10", "base-10 logarithm"),
        ("math.sqrt", "square root"),
        ("math.rsqrt", "reciprocal square root"),
        ("math.absf", "float absolute value"),
        ("math.tanh", "hyperbolic tangent"),
        ("math.sin", "sine"),
        ("math.cos", "cosine"),
        ("math.erf", "error function"),
        ("math.floor", "round down"),
        ("math.ceil", "round up"),
        ("math.round", "round half away from zero"),
        ("math.trunc", "round toward zero"),
    ] {
        t.push(
            row(name, "operand", "result", FM, UNARY_FM)
                .same("operand result")
                .doc(doc),
        );
    }
    t.push(
        row("math.absi", "operand", "result", "", UNARY)
            .same("operand result")
            .doc("integer absolute value"),
    );
    t.push(
        row("math.powf", "lhs rhs", "result", FM, BIN_FM)
            .same("lhs rhs result")
            .doc("float power"),
    );
    t.push(
        row(
            "math.fma",
            "a b c",
            "result",
            FM,
            "$a `,` $b `,` $c (`fastmath` $fastmath^)? attr-dict `:` type($result)",
        )
        .same("a b c result")
        .doc("fused multiply-add"),
    );
    // ---- func, scf ----
    t.push(
        row(
            "func.call",
            "operands*",
            "results*",
            "callee",
            "$callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)",
        )
        .doc("calls a function by symbol"),
    );
    t.push(
        row(
            "scf.yield",
            "results*",
            "",
            "",
            "attr-dict ($results^ `:` type($results))?",
        )
        .doc("ends an `scf` region, passing values out"),
    );
    t.push(
        row(
            "scf.condition",
            "condition args*",
            "",
            "",
            "`(` $condition `)` attr-dict ($args^ `:` type($args))?",
        )
        .doc("ends the `before` region of `scf.while`"),
    );
    // ---- memref ----
    t.push(
        row(
            "memref.load",
            "memref indices*",
            "result",
            "",
            "$memref `[` $indices `]` attr-dict `:` type($memref)",
        )
        .doc("reads one element"),
    );
    t.push(
        row(
            "memref.store",
            "value memref indices*",
            "",
            "",
            "$value `,` $memref `[` $indices `]` attr-dict `:` type($memref)",
        )
        .doc("writes one element"),
    );
    for (name, doc) in [
        ("memref.alloc", "allocates a buffer"),
        ("memref.alloca", "allocates a stack buffer"),
    ] {
        t.push(
            row(
                name,
                "dynamicSizes* symbolOperands*",
                "memref",
                "",
                "`(` $dynamicSizes `)` (`[` $symbolOperands^ `]`)? attr-dict `:` type($memref)",
            )
            .doc(doc),
        );
    }
    t.push(
        row(
            "memref.dealloc",
            "memref",
            "",
            "",
            "$memref attr-dict `:` type($memref)",
        )
        .doc("frees a buffer"),
    );
    t.push(
        row(
            "memref.cast",
            "source",
            "dest",
            "",
            "$source attr-dict `:` type($source) `to` type($dest)",
        )
        .doc("changes static shape information"),
    );
    t.push(
        row(
            "memref.copy",
            "source target",
            "",
            "",
            "$source `,` $target attr-dict `:` type($source) `to` type($target)",
        )
        .doc("copies a buffer"),
    );
    t.push(
        row(
            "memref.dim",
            "source index",
            "result",
            "",
            "$source `,` $index attr-dict `:` type($source)",
        )
        .doc("the size of one dimension (an `index`; its type is not written)"),
    );
    // ---- cf (ops without successors; `cf.br`/`cf.cond_br` are block structure) ----
    t.push(
        row("cf.assert", "arg", "", "msg:str", "$arg `,` $msg attr-dict")
            .doc("aborts with a message when the i1 operand is false"),
    );
    // ---- llvm (the ops seen in kernels) ----
    t.push(
        row(
            "llvm.load",
            "addr",
            "res",
            "volatile_?:unit *",
            "(`volatile` $volatile_^)? $addr attr-dict `:` type($addr) `->` type($res)",
        )
        .doc("loads from a pointer (atomic forms are opaque)"),
    );
    t.push(
        row(
            "llvm.store",
            "value addr",
            "",
            "volatile_?:unit *",
            "(`volatile` $volatile_^)? $value `,` $addr attr-dict `:` type($value) `,` type($addr)",
        )
        .doc("stores to a pointer (atomic forms are opaque)"),
    );
    for (name, doc) in [
        ("llvm.bitcast", "bit-preserving cast"),
        ("llvm.inttoptr", "integer to pointer"),
        ("llvm.ptrtoint", "pointer to integer"),
        ("llvm.zext", "zero extension"),
        ("llvm.sext", "sign extension"),
        ("llvm.trunc", "integer truncation"),
        ("llvm.fpext", "float extension"),
        ("llvm.fptrunc", "float truncation"),
    ] {
        t.push(
            row(
                name,
                "arg",
                "res",
                "*",
                "$arg attr-dict `:` type($arg) `to` type($res)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("llvm.and", "bitwise and"),
        ("llvm.or", "bitwise or"),
        ("llvm.xor", "bitwise xor"),
        ("llvm.lshr", "logical shift right"),
        ("llvm.ashr", "arithmetic shift right"),
        ("llvm.udiv", "unsigned division"),
        ("llvm.sdiv", "signed division"),
        ("llvm.urem", "unsigned remainder"),
        ("llvm.srem", "signed remainder"),
    ] {
        t.push(
            row(
                name,
                "lhs rhs",
                "res",
                "*",
                "$lhs `,` $rhs attr-dict `:` type($res)",
            )
            .same("lhs rhs res")
            .doc(doc),
        );
    }
    t.push(
        row(
            "llvm.extractelement",
            "vector position",
            "res",
            "*",
            "$vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)",
        )
        .doc("reads one lane of a vector (result type not written)"),
    );
    t.push(
        row(
            "llvm.insertelement",
            "value vector position",
            "res",
            "*",
            "$value `,` $vector `[` $position `:` type($position) `]` attr-dict `:` type($vector)",
        )
        .same("vector res")
        .doc("writes one lane of a vector"),
    );
    t
}

/// Whether `v` can stand for the format-bound attribute `spec` (so that the custom form prints
/// it in place): any value for plain attributes, a string for `:str`, a bare word for `:kw`
/// (of its set), the set's dialect attribute for flags.
pub fn attr_fits(spec: &format::AttrSpec, v: &Attr) -> bool {
    use format::AttrKind as K;
    let word = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
    };
    match (spec.kind, v) {
        (K::Any, _) => true,
        (K::Str, Attr::Str(_)) => true,
        (K::Keyword(None), Attr::Str(w)) => word(w),
        (K::Keyword(Some(set)), Attr::Str(w)) => set.words.contains(&w.as_str()),
        (K::Unit, Attr::Unit) => true,
        (K::Flags(set), Attr::Opaque(t)) => t
            .strip_prefix(set.attr)
            .and_then(|r| r.strip_prefix('<'))
            .and_then(|r| r.strip_suffix('>'))
            .is_some_and(|r| r.split(',').all(|w| set.words.contains(&w.trim()))),
        _ => false,
    }
}

/// A generated format or segment list, kept for the life of the process (the table is built
/// once).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Row index into [`rows`].
pub type RowId = u16;

struct Table {
    rows: Vec<Row>,
    compiled: Vec<Compiled>,
    by_name: FxHashMap<&'static str, Vec<RowId>>,
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let rows = build_rows();
        let compiled = rows
            .iter()
            .map(|r| {
                format::compile(r.operands, r.results, r.attrs, r.format, r.same).unwrap_or_else(
                    // The catalog's unit test compiles every row; a broken row is a bug here.
                    |e| panic!("catalog row {}: {e}", r.name),
                )
            })
            .collect();
        let mut by_name: FxHashMap<&'static str, Vec<RowId>> = FxHashMap::default();
        for (i, r) in rows.iter().enumerate() {
            by_name.entry(r.name).or_default().push(i as RowId);
        }
        Table {
            rows,
            compiled,
            by_name,
        }
    })
}

/// Every row, in table order.
pub fn rows() -> &'static [Row] {
    &table().rows
}

/// The row `id` and its compiled format.
pub fn get(id: RowId) -> Option<(&'static Row, &'static Compiled)> {
    let t = table();
    Some((t.rows.get(id as usize)?, t.compiled.get(id as usize)?))
}

/// The rows spelled `name` (alternatives in table order); empty if none.
pub fn by_name(name: &str) -> &'static [RowId] {
    table().by_name.get(name).map_or(&[], Vec::as_slice)
}

/// The canonical spelling of `name` if a row has it.
pub fn canonical(name: &str) -> Option<&'static str> {
    let ids = by_name(name);
    ids.first().map(|&i| table().rows[i as usize].name)
}

fn first_row(name: &str) -> Option<RowId> {
    by_name(name).first().copied()
}

fn granularity(name: &str) -> MaskGranularity {
    if name.ends_with("b8") {
        MaskGranularity::B8
    } else if name.ends_with("b16") {
        MaskGranularity::B16
    } else {
        MaskGranularity::B32
    }
}

/// The `OpKind` a parsed row builds, from its operand segment sizes; attributes the kind
/// carries itself (the `pattern` of `pto.pset_*`) move from `attrs` into it.
pub fn build_kind(id: RowId, segs: &[u32], attrs: &mut AttrDict) -> OpKind {
    let (build, name) = get(id).map_or((Build::Catalog, ""), |(r, _)| (r.build, r.name));
    match (build, segs) {
        (Build::DeclareTile, _) => OpKind::DeclareTile,
        (Build::AllocTile, &[a, r, c]) => OpKind::AllocTile {
            addr: a > 0,
            valid_row: r > 0,
            valid_col: c > 0,
        },
        (Build::MakeTensorView, &[_, shape, strides]) => OpKind::MakeTensorView { shape, strides },
        (Build::PartitionView, &[_, offsets, sizes]) => OpKind::PartitionView { offsets, sizes },
        (Build::Pset, _) => match attrs.shift_remove("pattern") {
            Some(Attr::Str(pattern)) => OpKind::Pset {
                granularity: granularity(name),
                pattern,
            },
            other => {
                if let Some(v) = other {
                    attrs.insert("pattern".to_string(), v);
                }
                catalog_kind(id, segs)
            }
        },
        (Build::Plt, _) => OpKind::Plt {
            granularity: granularity(name),
        },
        (Build::Vlds, _) => OpKind::Vlds,
        (Build::Vsts, _) => OpKind::Vsts,
        (Build::Vbr, _) => OpKind::Vbr,
        (Build::VBinary, _) => match VBinaryKind::ALL.into_iter().find(|k| k.op_name() == name) {
            Some(k) => OpKind::VBinary(k),
            None => catalog_kind(id, segs),
        },
        _ => catalog_kind(id, segs),
    }
}

fn catalog_kind(id: RowId, segs: &[u32]) -> OpKind {
    OpKind::Catalog(CatalogOp {
        row: id,
        segments: segs.into(),
    })
}

/// How a kind prints through its row (inverse of [`build_kind`]).
pub struct RowOf {
    pub row: RowId,
    /// Operand segment sizes.
    pub segments: Vec<u32>,
    /// Format-bound attributes the kind carries instead of the op's dictionary.
    pub attrs: Vec<(&'static str, Attr)>,
}

/// The row that prints `kind` (inverse of [`build_kind`]).
pub fn row_of(kind: &OpKind) -> Option<RowOf> {
    let u = |b: bool| u32::from(b);
    let plain = |name: &str, segments: Vec<u32>| {
        Some(RowOf {
            row: first_row(name)?,
            segments,
            attrs: Vec::new(),
        })
    };
    match kind {
        OpKind::Catalog(c) => Some(RowOf {
            row: c.row,
            segments: c.segments.to_vec(),
            attrs: Vec::new(),
        }),
        OpKind::DeclareTile => plain("pto.declare_tile", Vec::new()),
        OpKind::AllocTile {
            addr,
            valid_row,
            valid_col,
        } => plain(
            "pto.alloc_tile",
            vec![u(*addr), u(*valid_row), u(*valid_col)],
        ),
        OpKind::MakeTensorView { shape, strides } => {
            plain("pto.make_tensor_view", vec![1, *shape, *strides])
        }
        OpKind::PartitionView { offsets, sizes } => {
            plain("pto.partition_view", vec![1, *offsets, *sizes])
        }
        OpKind::Pset {
            granularity,
            pattern,
        } => Some(RowOf {
            row: first_row(kind_name(*granularity, "pto.pset_"))?,
            segments: Vec::new(),
            attrs: vec![("pattern", Attr::Str(pattern.clone()))],
        }),
        OpKind::Plt { granularity } => plain(kind_name(*granularity, "pto.plt_"), vec![1]),
        OpKind::Vlds => plain("pto.vlds", vec![1, 1]),
        OpKind::Vsts => plain("pto.vsts", vec![1, 1, 1, 1]),
        OpKind::Vbr => plain("pto.vbr", vec![1]),
        OpKind::VBinary(k) => plain(k.op_name(), vec![1, 1, 1]),
        _ => None,
    }
}

fn kind_name(g: MaskGranularity, prefix: &str) -> &'static str {
    let names: [&'static str; 3] = match prefix {
        "pto.pset_" => ["pto.pset_b8", "pto.pset_b16", "pto.pset_b32"],
        _ => ["pto.plt_b8", "pto.plt_b16", "pto.plt_b32"],
    };
    match g {
        MaskGranularity::B8 => names[0],
        MaskGranularity::B16 => names[1],
        MaskGranularity::B32 => names[2],
    }
}

/// Operand segment sizes of a row read in generic form with `n` operands: from
/// `operandSegmentSizes` when given, else when at most one segment is not single (it takes
/// the rest).
pub fn generic_segments(id: RowId, n: usize, given: Option<&[u32]>) -> Option<Vec<u32>> {
    let (_, c) = get(id)?;
    if let Some(seg) = given {
        let fits = c.operands.iter().zip(seg).all(|(s, &k)| match s.arity {
            format::Arity::One => k == 1,
            format::Arity::Opt => k <= 1,
            format::Arity::Many => true,
        });
        return (fits && seg.len() == c.operands.len() && seg.iter().sum::<u32>() as usize == n)
            .then(|| seg.to_vec());
    }
    let fixed = c
        .operands
        .iter()
        .filter(|s| s.arity == format::Arity::One)
        .count();
    let flexible = c.operands.len() - fixed;
    if n == fixed {
        return Some(
            c.operands
                .iter()
                .map(|s| u32::from(s.arity == format::Arity::One))
                .collect(),
        );
    }
    if n < fixed || flexible > 1 || (flexible == 0 && n != fixed) {
        return None;
    }
    Some(
        c.operands
            .iter()
            .map(|s| match s.arity {
                format::Arity::One => 1,
                _ => (n - fixed) as u32,
            })
            .collect(),
    )
}

/// `docs/ops.md`: the generated op index.
pub fn ops_markdown() -> String {
    let mut out = String::from(
        "# Op index\n\n\
         Generated from the op catalog (`compiler/src/front/catalog/mod.rs`) by\n\
         `PTOC_BLESS=1 cargo test -p ptoc --test ops_docs`; do not edit by hand.\n\
         Each row is the op's custom form in the catalog's format language\n\
         (`compiler/src/front/catalog/format.rs`). Ops with hand-written grammars are listed in the\n\
         catalog's module doc; ops in neither are read as opaque statements.\n",
    );
    let mut family = "";
    for r in rows() {
        let fam = r.name.split('.').next().unwrap_or("");
        if fam != family {
            family = fam;
            out.push_str(&format!("\n## `{fam}`\n\n| op | operands | results | attributes | format | |\n|---|---|---|---|---|---|\n"));
        }
        let cell = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("`{}`", s.replace('|', "\\|"))
            }
        };
        let mut notes = r.summary.to_string();
        if !r.same.is_empty() {
            notes.push_str(&format!("; same type: {}", r.same));
        }
        if r.bool_result {
            notes.push_str("; result i1");
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | `` {} `` | {} |\n",
            r.name,
            cell(r.operands),
            cell(r.results),
            cell(r.attrs),
            r.format.replace('|', "\\|"),
            notes
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_compiles() {
        for r in build_rows() {
            if let Err(e) = format::compile(r.operands, r.results, r.attrs, r.format, r.same) {
                panic!("row {}: {e}", r.name);
            }
        }
        assert!(rows().len() > 100);
    }

    #[test]
    fn kinds_round_trip_through_rows() {
        for (name, segs) in [
            ("pto.make_tensor_view", vec![1, 2, 2]),
            ("pto.partition_view", vec![1, 3, 3]),
            ("pto.alloc_tile", vec![1, 0, 1]),
            ("pto.declare_tile", vec![]),
            ("pto.tstore", vec![1, 0, 1, 1]),
        ] {
            let id = first_row(name).unwrap();
            let k = build_kind(id, &segs, &mut AttrDict::new());
            let back = row_of(&k).unwrap();
            assert_eq!((back.row, back.segments), (id, segs), "{name}");
        }
    }

    #[test]
    fn generic_segments_infer_one_variadic() {
        let id = first_row("pto.tload").unwrap();
        assert_eq!(generic_segments(id, 2, None), Some(vec![1, 1]));
        assert_eq!(generic_segments(id, 3, None), None);
        let st = first_row("pto.tstore").unwrap();
        assert_eq!(generic_segments(st, 2, None), Some(vec![1, 0, 0, 1]));
        assert_eq!(generic_segments(st, 3, None), None);
        assert_eq!(
            generic_segments(st, 3, Some(&[1, 0, 1, 1])),
            Some(vec![1, 0, 1, 1])
        );
    }
}
