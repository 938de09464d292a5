//! Catalog rows of the standard dialects kernels use: `arith`, `math`, `func`, `scf`,
//! `memref`, `cf` and `llvm`. See the module doc of `front::catalog` for the row format.

use super::{row, Row};

const BIN: &str = "$lhs `,` $rhs attr-dict `:` type($result)";
const BIN_OVF: &str = "$lhs `,` $rhs (`overflow` $overflowFlags^)? attr-dict `:` type($result)";
/// The optional `fastmath<...>` of float ops.
const FM: &str = "fastmath?:flags=fastmath";
const BIN_FM: &str = "$lhs `,` $rhs (`fastmath` $fastmath^)? attr-dict `:` type($result)";
const UNARY_FM: &str = "$operand (`fastmath` $fastmath^)? attr-dict `:` type($result)";
const CMP_FM: &str =
    "$predicate `,` $lhs `,` $rhs (`fastmath` $fastmath^)? attr-dict `:` type($lhs)";
const UNARY: &str = "$operand attr-dict `:` type($result)";
const CAST: &str = "$in attr-dict `:` type($in) `to` type($out)";
const CMP: &str = "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)";

/// The standard-dialect rows, in family order.
pub(super) fn rows(t: &mut Vec<Row>) {
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
}
