//! Catalog rows of the PTO dialect: views, tiles and tile ops in destination-passing style,
//! the vector layer (`pto.v*`, masks) and the VMI layer (`pto.vmi.*`). See the module doc of
//! `front::catalog` for the row format.

use super::{leak, row, Build, Row};

const TILE_DPS: &str =
    "`ins` `(` $srcs `:` type($srcs) `)` (`outs` `(` $dsts^ `:` type($dsts) `)`)? attr-dict";
const V_CAST: &str = "$value attr-dict `:` type($value) `->` type($result)";
const V_BIN: &str = "$lhs `,` $rhs `,` $mask attr-dict `:` type($lhs) `,` type($rhs) `,` type($mask) `->` type($result)";
const V_UNARY: &str =
    "$input `,` $mask attr-dict `:` type($input) `,` type($mask) `->` type($result)";

/// The PTO rows, in family order.
pub(super) fn rows(t: &mut Vec<Row>) {
    t.extend([
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
    ]);
    t.push(
        row(
            "pto.tinsert",
            "src indexRow indexCol fp? preQuantScalar? dst",
            "",
            "*",
            "`ins` `(` $src `,` $indexRow `,` $indexCol `:` type($src) `,` type($indexRow) `,` type($indexCol) (`fp` $fp^ `:` type($fp))? (`pre_quant` $preQuantScalar^ `:` type($preQuantScalar))? `)` `outs` `(` $dst `:` type($dst) `)` attr-dict",
        )
        .doc("writes a tile into a larger one at a row/column offset"),
    );
    t.push(
        row(
            "pto.textract",
            "src indexRow indexCol preQuantScalar? fp? dst",
            "",
            "*",
            "`ins` `(` $src `,` $indexRow `,` $indexCol (`,` $preQuantScalar^)? `:` type($src) `,` type($indexRow) `,` type($indexCol) (`,` type($preQuantScalar)^)? (`fp` $fp^ `:` type($fp))? `)` `outs` `(` $dst `:` type($dst) `)` attr-dict",
        )
        .doc("reads a tile out of a larger one at a row/column offset"),
    );
    for (name, doc) in [
        ("pto.load", "loads one scalar element"),
        ("pto.load_scalar", "loads one scalar element"),
    ] {
        t.push(
            row(
                name,
                "ptr offset",
                "value",
                "*",
                "$ptr `[` $offset `]` attr-dict `:` type($ptr) `->` type($value)",
            )
            .doc(doc),
        );
    }
    for (name, doc) in [
        ("pto.store", "stores one scalar element"),
        ("pto.store_scalar", "stores one scalar element"),
    ] {
        t.push(
            row(
                name,
                "value ptr offset",
                "",
                "*",
                "$value `,` $ptr `[` $offset `]` attr-dict `:` type($ptr) `,` type($value)",
            )
            .doc(doc),
        );
    }
    // SIMT scalar and packed-pair conversion (PTOAS `VPTOOps.td`); its rules are
    // `target::convert`, checked by `verify::rules::convert`.
    t.push(
        row(
            "pto.convert",
            "src",
            "dst",
            "rounding:kw=round saturation:kw=sat signed?:unit unsigned?:unit",
            "$src `round` `(` $rounding `)` $saturation (`signed` $signed^)? (`unsigned` $unsigned^)? attr-dict `:` type($src) `->` type($dst)",
        )
        .doc("converts one scalar or packed pair (`round(...)` letter r a f c z o h, `sat` or `nosat`, optional `signed` or `unsigned`)"),
    );
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
    t.push(
        row(
            "pto.vpack",
            "src",
            "result",
            "part:str *",
            "$src `,` $part attr-dict `:` type($src) `->` type($result)",
        )
        .doc("packs a register into one half (`part` a string)"),
    );
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
}
