//! Long explanations of the diagnostic codes, for `ptoc explain CODE`.
//!
//! Owns one [`Explanation`] per [`Code`]: what the rule is, a short input that triggers it, and
//! what to do about it. The `match` in [`explanation`] is exhaustive, so a new code does not
//! compile without its explanation. Every example is true: `tests/cli_explain_examples.rs` runs
//! each through the driver and checks that it produces its code (conventions there).

use super::Code;

/// The long form of a code's documentation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Explanation {
    /// What the rule says (one or more sentences).
    pub description: &'static str,
    /// A short input that triggers the diagnostic (`.pto` text unless stated).
    pub example: &'static str,
    /// How to fix the input.
    pub fix: &'static str,
}

const E: fn(&'static str, &'static str, &'static str) -> Explanation =
    |description, example, fix| Explanation {
        description,
        example,
        fix,
    };

/// The explanation of `code`.
pub fn explanation(code: Code) -> Explanation {
    use Code::*;
    match code {
        Syntax => E(
            "A token is not what the grammar allows at this point. The message lists the accepted tokens (`expected ',' or ')', found ...`) or names the construct (`expected type`); a secondary label marks the construct being parsed. Parsing resumes at the next statement, so later errors are still reported.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>)\n  return\n}",
            "Write the missing or expected token; here `outs(%b : !pto.tile_buf<vec, 8x8xf16>)` after `ins(...)`.",
        ),
        InvalidUtf8 => E(
            "Input files must be UTF-8. The error points at the first byte that is not part of a valid UTF-8 sequence; it is an ordinary error (exit code 1), not an I/O failure.",
            "// a comment saved as Latin-1: caf\\xE9 (the byte 0xE9 alone is not UTF-8)\nmodule {\n}",
            "Re-encode the file as UTF-8. Non-ASCII text is only allowed in strings and comments anyway.",
        ),
        UnexpectedCharacter => E(
            "A character starts no token, for example a stray `;`, or a `%` that is not followed by a value name. The character is skipped and lexing continues.",
            "func.func @f() -> i32 {\n  return % : i32\n}",
            "Remove the character, or complete the value name (`%x`).",
        ),
        UnterminatedString => E(
            "A string literal has no closing `\"` before the end of its line. The span runs from the opening quote to the end of the line; the next line still parses.",
            "%m = pto.pset_b32 \"PAT_ALL : !pto.mask<b32>",
            "Close the string: `%m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>`.",
        ),
        InvalidEscape => E(
            "String literals accept only the escapes `\\\"`, `\\\\`, `\\n`, `\\t` and two hex digits `\\XX`.",
            "%m = pto.pset_b32 \"PAT\\qALL\" : !pto.mask<b32>",
            "Use one of the accepted escapes, or write the character itself.",
        ),
        IntegerOutOfRange => E(
            "An integer literal does not fit its type: decimal literals are i64, hex literals u64.",
            "%c = arith.constant 99999999999999999999 : i64",
            "Use a value in range for the type.",
        ),
        ResultNumberSpacing => E(
            "A result number `#N` is part of the value name and must follow it directly (D-1).",
            "func.func @f(%n: i32) -> i32 {\n  %p:2 = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32\n  return %p #1 : i32\n}",
            "Write `%p#1` without a space.",
        ),
        UnknownOperation => E(
            "Only under `--strict-ops`: a custom (pretty) form of an op ptoc does not know is an error. By default such an op is read as an opaque statement (syntax.md §2.1): its tokens are kept and printed back, its value uses are checked, its regions are parsed, and `ptoc run` refuses to execute it (E0403). In generic form, `\"dialect.op\"(operands) : (types) -> types`, an unknown op is always accepted. The message shows the generic rewrite.",
            "%r = pto.tfoo %a, %b : !pto.tile<16x16xf32>",
            "Write the op in generic form: `%r = \"pto.tfoo\"(%a, %b) : (!pto.tile<16x16xf32>, !pto.tile<16x16xf32>) -> !pto.tile<16x16xf32>`.",
        ),
        UnsupportedConstruct => E(
            "The input uses a construct ptoc does not accept: a module outside a module body (in a function or an op region), or the positional `!pto.tile<loc=vec, f32, 16, 16, ...>` spelling.",
            "func.func @f() {\n  module {\n  }\n  return\n}",
            "Put modules at the top level or in a module body, and write `!pto.tile<vec, 16x16xf32>` for tiles.",
        ),
        FunctionBody => E(
            "A function body is one unlabelled block that ends with `return`; `return` may appear nowhere else (not inside `pto.vecscope`). Named arguments need a body, and named and unnamed arguments cannot be mixed.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>) {\n  %c = arith.constant 0 : index\n}",
            "End the body with `return` (with the function's result values), and keep `return` as its last operation.",
        ),
        DuplicateAttribute => E(
            "An attribute key, or a key of a compact `!pto.tile_buf`, is given twice, including once in the properties `<{...}>` and once in the attributes `{...}` of a known op.",
            "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32, pad=1, pad=2>) {\n  return\n}",
            "Keep one of the two (the secondary label shows the first).",
        ),
        UnknownAttribute => E(
            "A known op carries a bare (undotted) attribute key it does not define (D-20). Dotted keys such as `pto.note` are kept; a close misspelling gets a `did you mean` hint.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%a {rmod = #pto<round_mode ROUND>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}",
            "Use the op's keys: tcvt takes `rmode` and `satmode` (or `sat_mode`); vcvt takes `rnd` (or `round_mode`), `sat` and `part`.",
        ),
        InvalidType => E(
            "A type is unknown, or one of its parameters is outside its domain: a `!pto.vreg` that does not hold exactly 256 bytes or has more than one dimension, a mask granularity other than b8/b16/b32, a valid extent larger than the shape, an unsupported fractal size, an unknown `!pto.ptr` address space, a zero extent.",
            "func.func @f() {\n  %m = \"test.op\"() : () -> !pto.mask<b64>\n  return\n}",
            "Fix the parameter; here a mask granularity that exists, e.g. `!pto.mask<b32>`.",
        ),
        InvalidAttributeValue => E(
            "An attribute has a value of the wrong kind or an unknown enumerant, e.g. a round mode that is not one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT, or a mixed spelling such as `#pto.round_mode<FLOOR>` (D-19).",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%a {rmode = #pto<round_mode HALF_UP>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}",
            "Use a value from the list in the message, in the spelling `#pto<round_mode X>`.",
        ),
        OpForm => E(
            "An op's operands, results or attribute placement do not fit its form: a tcvt in SSA form without exactly one result, a generic known op with the wrong operand count, attribute dictionaries both inside `ins(...)` and after `outs(...)`, or a name count that does not match the result count.",
            "%y = pto.tcvt %x, %t, %u : !pto.tile<16x16xf32>, !pto.tile<16x16xf32>, !pto.tile<16x16xf32> -> !pto.tile<16x16xf16>",
            "Write the form as the grammar gives it: `%y = pto.tcvt %src[, %tmp] {attrs} : S[, T] -> D`, or `pto.tcvt ins(%src[, %tmp] {attrs} : S[, T]) outs(%dst : D)`.",
        ),
        TooManyErrors => E(
            "After 50 errors in one chunk the parser stops, to keep the report readable. The verifier's diagnostics of a chunk are capped the same way when reported: after the first 50 errors (or 100 diagnostics of any severity) one E0016 counts the rest by severity (`950 more errors of this chunk not shown`), in text, JSON and `--target all`; it is a warning when only warnings were left out. `--verify-diagnostics` matches every diagnostic, and `--error-limit N` moves the cap (0: none).",
            "// a file of 60 copies of the next line (each one a syntax error)\n%x = = =",
            "Fix the first errors and run again; later errors are often consequences of earlier ones. To see every verification diagnostic, pass `--error-limit 0`.",
        ),
        UndefinedAlias => E(
            "A name `!t` or `#a` without a `.` (and without `<` after it) is an alias: it must be defined at the top level of the file before its first use (`!t = type`, `#a = attribute`), as in MLIR. A location alias `#loc` may also be defined after its use in `loc(#loc)`, anywhere in the chunk, but cannot stand for an attribute. Names with a `.` (`!pto.ptr`, `#pto.pipe`) belong to dialects.",
            "func.func @f(%a: !tile) {\n  return\n}",
            "Define the alias above its first use (`!tile = !pto.tile_buf<vec, 16x16xf32>`), or spell the type out.",
        ),
        AliasDefinition => E(
            "An alias definition `!t = type` / `#a = attribute` / `#loc = loc(...)` stands at the top level of the file (before, between or after modules, not inside a module body or a function), defines a name without `.` once, and its value may use only aliases defined before it.",
            "!t = !pto.tile_buf<vec, 16x16xf32>\n!t = !pto.tile_buf<vec, 16x16xf16>\nfunc.func @f(%a: !t) {\n  return\n}",
            "Give each alias its own name, define it above the module, and spell out any part that would refer to the alias itself.",
        ),
        UndefinedValue => E(
            "A value must be defined textually before its use, in the same region or an enclosing one (D-4). There are no forward references, values defined inside a region such as `pto.vecscope` are invisible after it, and function bodies cannot see values from outside. A secondary label shows a definition that exists but is not visible from the use.",
            "func.func @f() {\n  pto.vecscope {\n    %m = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n  }\n  %n = \"test.use\"(%m) : (!pto.mask<b32>) -> i32\n  return\n}",
            "Define the value before the use and in a region that encloses it, or pass it in as a function argument.",
        ),
        Redefinition => E(
            "A value name is defined while a value of that name is still visible (in the same function, in this or an enclosing region), or two functions have the same symbol. The label `defined here` marks the first definition.",
            "func.func @f(%x: !pto.tile_buf<vec, 8x8xf32>) {\n  %x = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>\n  return\n}",
            "Rename one of the two definitions (and its uses).",
        ),
        ResultNumberOutOfRange => E(
            "`%r#N` names result N of the op that defined `%r`; that op has fewer results. Result numbers start at 0.",
            "func.func @f(%n: i32) {\n  %p:2 = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32\n  %q = \"test.use\"(%p#2) : (i32) -> i32\n  return\n}",
            "Use a result number below the op's result count (`%p#0` or `%p#1` here).",
        ),
        ResultCountMismatch => E(
            "The number of result names given differs from the number of results the op defines, e.g. `pto.plt_*` defines two results (mask and remaining count), `pto.tcvt` in SSA form one, `pto.tcvt` in DPS form none.",
            "func.func @f(%n: i32) {\n  %m = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n  return\n}",
            "Name every result: `%m, %rest = pto.plt_b16 ...` or `%p:2 = pto.plt_b16 ...`.",
        ),
        OperandTypeMismatch => E(
            "A type written for an operand (in a custom form, or in a generic op's function type) must equal the type the value was defined with. Types are compared after normalisation, so the legacy and compact `!pto.tile_buf` spellings of one type agree.",
            "func.func @f(%t: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {\n  pto.tcvt ins(%t : !pto.tile_buf<vec, 16x16xbf16>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)\n  return\n}",
            "Write the value's defined type (the label shows the definition), or convert the value first.",
        ),
        ReturnTypeMismatch => E(
            "`return` must return exactly the function's result values: as many operands as the signature has results, each of the declared type.",
            "func.func @f(%a: !pto.tile<16x16xf32>) -> !pto.tile<16x16xf16> {\n  return %a : !pto.tile<16x16xf32>\n}",
            "Return values of the declared result types, or change the signature.",
        ),
        UnknownProfile => E(
            "`pto.target_arch` selects the profile (D-6): \"a5\" -> a5, \"a2\", \"a3\" and \"a2a3\" -> a2a3, \"cpu\" -> cpu. Its value must be a string literal, even when `--target` overrides the attribute (an unknown string is only the warning W0207).",
            "module attributes {pto.target_arch = 5} {\n}",
            "Write the arch as a string (`\"a5\"`), or remove the attribute (cpu is the default).",
        ),
        TcvtDefaultDependent => E(
            "The same PTO text is lowered by toolchains that disagree on what an omitted `satmode` and `rmode = NONE` mean: pto-isa's C++ API (ptoc's default) takes the per-pair defaults of semantics.md §3.2/§3.4; PTOAS up to v0.61 emits sat OFF and maps NONE to RINT; PTOAS v0.63 emits sat ON (docs/semantics.md, \"Toolchain defaults\"). When the op leaves one of them open and the choice changes a result, ptoc warns once per op with the first input it found and each toolchain's result for it. No warning where every choice gives the same result, or when `--defaults` names the toolchain.",
            "// ptoc verify --target a5: 1e6 saturates to 65504 under pto-isa's default (sat ON on a5) and overflows to +Inf under PTOAS 0.61's sat OFF\nmodule attributes {pto.target_arch = \"a5\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n    pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n    return\n  }\n}",
            "Write `satmode` and an explicit rounding mode on the op, or choose the toolchain whose behaviour you rely on with `--defaults pto-isa|ptoas-0.61|ptoas-0.63` (verify, cast, run, lower, prove).",
        ),
        UnknownTargetArch => E(
            "`pto.target_arch` names no profile ptoc knows. As PTOAS does, ptoc falls back instead of failing: the profile used is the `--target` given on the command line, else cpu; the warning names it. The value is printed back as written.",
            "module attributes {pto.target_arch = \"a7\"} {\n}",
            "Use one of \"a2\", \"a2a3\", \"a3\", \"a5\", \"cpu\", or remove the attribute (cpu is the default).",
        ),
        UnsupportedElemType => E(
            "A tcvt/vcvt operand has an element type that takes part in no conversion (e.g. ui64, i4, f8E4M3FNUZ, f64). Such types still parse, and generic ops may carry them; only tcvt and vcvt reject them.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xi4>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xi4>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}",
            "Use a supported element type; 4-bit integers are spelled `!pto.s4x2` (two values per byte).",
        ),
        TcvtOperandNotTile => E(
            "The src, dst and tmp operands of `pto.tcvt` must be rank-2 `!pto.tile_buf` or `!pto.tile` values (a `!pto.tile` counts as a tile_buf with the compact form's defaults, loc vec when none is written).",
            "func.func @f(%v: !pto.vreg<64xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%v : !pto.vreg<64xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}",
            "Convert tiles with `pto.tcvt` and vector registers with `pto.vcvt`.",
        ),
        TileValidExceedsShape => E(
            "A static valid extent of a tile is larger than the tile's shape in that dimension.",
            "func.func @f(%a: !pto.tile<vec, 16x16xf32, valid=20x16>, %b: !pto.tile<vec, 16x16xf16>) {\n  pto.tcvt ins(%a : !pto.tile<vec, 16x16xf32, valid=20x16>) outs(%b : !pto.tile<vec, 16x16xf16>)\n  return\n}",
            "Make the valid extents at most the shape, or use `?` for a dynamic extent.",
        ),
        TcvtShapeMismatch => E(
            "The logical extents of src and dst must be equal where both are static. Logical means the packed dimension of `x2` types (fp4x2, s4x2) counts twice, so `16x16xbf16` matches `16x8x!pto.f4E1M2x2`.",
            "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x32xf16>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x32xf16>)\n  return\n}",
            "Give src and dst the same logical shape.",
        ),
        TcvtValidShapeMismatch => E(
            "The logical valid shapes of src and dst must be equal where both are static (dynamic ones are checked by the interpreter at run time).",
            "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32, valid=8x16>, %b: !pto.tile_buf<vec, 16x16xf16>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32, valid=8x16>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)\n  return\n}",
            "Use the same valid shape on both tiles.",
        ),
        TcvtPairUnsupported => E(
            "The (src, dst) element pair is not supported by `pto.tcvt` on the selected profile. cpu accepts every pair of conversion element types; a2a3 and a5 accept only the pairs their implementations provide (semantics.md §3.1). The help lists the profiles that do accept the pair.",
            "module attributes {pto.target_arch = \"a5\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 16x16xf16>, %b: !pto.tile_buf<vec, 16x16xf8E4M3FN>) {\n    pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf16>) outs(%b : !pto.tile_buf<vec, 16x16xf8E4M3FN>)\n    return\n  }\n}",
            "Pick a supported pair (e.g. convert through f32), or verify for a profile that supports it (`--target all` shows which do).",
        ),
        TcvtSatAttrConflict => E(
            "Saturation may be given as `satmode` or as its older spelling `sat_mode`, not both.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi16>) {\n  pto.tcvt ins(%a {satmode = #pto<saturation_mode ON>, sat_mode = #pto<saturation_mode ON>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi16>)\n  return\n}",
            "Keep one key (`satmode` is the canonical one).",
        ),
        TcvtTmpNotVec => E(
            "The tmp operand of `pto.tcvt` must be a tile in loc=vec.",
            "func.func @f(%a: !pto.tile_buf<vec, 16x64xf32>, %t: !pto.tile_buf<mat, 16x64xi32>, %b: !pto.tile_buf<vec, 16x64xi16>) {\n  pto.tcvt ins(%a, %t : !pto.tile_buf<vec, 16x64xf32>, !pto.tile_buf<mat, 16x64xi32>) outs(%b : !pto.tile_buf<vec, 16x64xi16>)\n  return\n}",
            "Allocate tmp in vec: `!pto.tile_buf<vec, ...>`.",
        ),
        TcvtTmpTooSmall => E(
            "On a2a3 the PyTorch-compatible path (f32->i16, f16->i16, f16->i8 with sat OFF and a tmp) needs a tmp of at least the bytes given by the formulas of semantics.md §3.5, computed from the dst valid shape and the src row stride. The capacity is rows x cols x element bytes of the tmp's declared shape; the message gives both numbers.",
            "module attributes {pto.target_arch = \"a2\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 16x128xf32, valid=16x100>, %t: !pto.tile_buf<vec, 8x64xi32>, %b: !pto.tile_buf<vec, 16x128xi16, valid=16x100>) {\n    pto.tcvt ins(%a, %t {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 16x128xf32, valid=16x100>, !pto.tile_buf<vec, 8x64xi32>) outs(%b : !pto.tile_buf<vec, 16x128xi16, valid=16x100>)\n    return\n  }\n}",
            "Enlarge the tmp tile to at least the required bytes (here 7840, e.g. 16x128xi32).",
        ),
        TcvtTmpRequired => E(
            "PTOAS synthesises the tmp tile of a non-saturating narrowing tcvt on a2/a3 (f32 -> i16/ui16, f16 -> i16/ui16/i8/ui8 with satmode OFF, written or by the pair's default) during memory planning. At `--pto-level=level3` memory planning is skipped, so PTOAS rejects such a tcvt without a tmp: \"requires explicit tmp for non-saturating narrowing tcvt when PlanMemory is skipped\" (PTOAS `PTOMaterializeImplicitTmp.cpp`, the only source of this rule). ptoc reports it with the same words under the same flag; a5 and cpu need no tmp.",
            "// ptoc verify --pto-level=level3\nmodule attributes {pto.target_arch = \"a3\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 1x16xf32>, %b: !pto.tile_buf<vec, 1x16xi16>) {\n    pto.tcvt ins(%a {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 1x16xf32>) outs(%b : !pto.tile_buf<vec, 1x16xi16>)\n    return\n  }\n}",
            "Pass a tmp tile sized by semantics.md §3.5 (`pto.tcvt ins(%a, %tmp {...} : ...)`), write satmode ON, or build at level2 (memory planning synthesises the tmp).",
        ),
        TargetArchAlias => E(
            "PTOAS forks name an a5 variant `a6` and verify it as a5 (`--pto-arch=a6`, `pto.target_arch = \"a6\"`). ptoc has no a6 profile of its own: it verifies such input with the a5 rules and says so in this note (for the flag, a note line on stderr).",
            "module attributes {pto.target_arch = \"a6\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n    pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n    return\n  }\n}",
            "Nothing to do if a5 is what you mean; write `a5` to silence the note.",
        ),
        TcvtRmodeForced => E(
            "The target fixes the rounding of this pair, so the requested mode is replaced: conversions to `!pto.hif8` always use ROUND (every profile), and f32 -> f8E4M3FN/f8E5M2 on a5 always uses RINT.",
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8x!pto.hif8>) {\n  pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8x!pto.hif8>)\n  return\n}",
            "Drop `rmode` or write the forced mode, so the text says what runs.",
        ),
        TcvtOddUnsupported => E(
            "ODD (round to odd) is honoured only where the target offers it: on a2a3 and a5 only for f32 -> f16; on cpu for every pair except destinations f8E4M3FN, fp4x2 and hif8. Elsewhere the pair's default mode is used (by `verify`, `run` and `cast` alike); on cpu without this warning where the conversion is exact and the mode has no effect (s4x2 or fp4 -> f8E4M3FN).",
            "// cpu (the default profile)\nfunc.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf8E4M3FN>) {\n  pto.tcvt ins(%a {rmode = #pto<round_mode ODD>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf8E4M3FN>)\n  return\n}",
            "Use another rounding mode, or remove `rmode` to get the default.",
        ),
        TcvtRmodeIgnored => E(
            "On a2a3, i32 -> f16 goes through the dequantisation path, which always rounds RINT; an explicit different mode has no effect.",
            "module attributes {pto.target_arch = \"a2\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xi32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n    pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 8x8xi32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n    return\n  }\n}",
            "Remove `rmode` (or write RINT).",
        ),
        TcvtSatOffIgnored => E(
            "On a2a3 an explicit saturation OFF is honoured only for the NARROW6 pairs (f16->ui8, f16->i8, f32->i16, f16->i16, i64->i32, i32->i16) or when a tmp operand is given; otherwise, and always for i32 -> f16, the hardware path saturates (ON).",
            "module attributes {pto.target_arch = \"a3\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi32>) {\n    pto.tcvt ins(%a {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi32>)\n    return\n  }\n}",
            "Remove `satmode` or write ON, or add a tmp operand where that enables the non-saturating path.",
        ),
        TcvtTmpIgnored => E(
            "The CPU simulator has no tmp overload; on cpu the tmp operand is accepted so that one kernel verifies on every profile, but it has no effect.",
            "func.func @f(%a: !pto.tile_buf<vec, 16x64xf32>, %t: !pto.tile_buf<vec, 16x64xi32>, %b: !pto.tile_buf<vec, 16x64xi16>) {\n  pto.tcvt ins(%a, %t : !pto.tile_buf<vec, 16x64xf32>, !pto.tile_buf<vec, 16x64xi32>) outs(%b : !pto.tile_buf<vec, 16x64xi16>)\n  return\n}",
            "Nothing is required; remove tmp if the kernel only targets cpu.",
        ),
        TcvtLocNotVec => E(
            "tcvt runs on the vector pipe; a src or dst tile outside loc=vec is accepted but probably not what the kernel wants.",
            "func.func @f(%a: !pto.tile_buf<mat, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {\n  pto.tcvt ins(%a : !pto.tile_buf<mat, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}",
            "Move the tile to vec (tload it into a vec tile first).",
        ),
        TcvtTmpUnused => E(
            "The tmp operand is not used for this pair, saturation and profile: a5 ignores tmp entirely, and a2a3 uses it only for f32->i16, f16->i16 and f16->i8 with sat OFF.",
            "module attributes {pto.target_arch = \"a5\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x64xf32>, %t: !pto.tile_buf<vec, 8x64xi32>, %b: !pto.tile_buf<vec, 8x64xf16>) {\n    pto.tcvt ins(%a, %t : !pto.tile_buf<vec, 8x64xf32>, !pto.tile_buf<vec, 8x64xi32>) outs(%b : !pto.tile_buf<vec, 8x64xf16>)\n    return\n  }\n}",
            "Informational; remove tmp if no profile you target needs it.",
        ),
        TcvtTmpSuggested => E(
            "On a2a3, f32->i16, f16->i16 and f16->i8 with sat OFF but no tmp use the native hardware conversion, not the PyTorch-compatible path (PTOAS would synthesise a tmp).",
            "module attributes {pto.target_arch = \"a3\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x64xf16>, %b: !pto.tile_buf<vec, 8x64xi8>) {\n    pto.tcvt ins(%a {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 8x64xf16>) outs(%b : !pto.tile_buf<vec, 8x64xi8>)\n    return\n  }\n}",
            "Add a vec tmp tile if you want PyTorch-compatible results for out-of-range values.",
        ),
        TcvtTmpBoundDynamic => E(
            "The dst valid shape is dynamic, so the tmp capacity is checked against the worst case over all valid extents up to the shape; the interpreter re-checks with the actual extents.",
            concat!(
                "module attributes {pto.target_arch = \"a2\"} {\n",
                "  func.func @f(%a: !pto.tile_buf<vec, 16x128xf32>, %t: !pto.tile_buf<vec, 16x128xi32>, %b: !pto.tile_buf<vec, 16x128xi16, valid=?x?>) {\n",
                "    pto.tcvt ins(%a, %t {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 16x128xf32>, !pto.tile_buf<vec, 16x128xi32>) outs(%b : !pto.tile_buf<vec, 16x128xi16, valid=?x?>)\n",
                "    return\n",
                "  }\n",
                "}"
            ),
            "Informational; give static valid extents for an exact check.",
        ),
        NonsatTargetDefined => E(
            "Float -> integer without saturation on a2a3/a5: results for Inf, NaN and out-of-range inputs are target-defined. ptoc models them with its stated convention (semantics.md §4.2); on a5 the shape-dependent PyTorch path is not modelled.",
            "module attributes {pto.target_arch = \"a5\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi16>) {\n    pto.tcvt ins(%a {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi16>)\n    return\n  }\n}",
            "Informational; use sat ON if out-of-range inputs can occur and you need defined results.",
        ),
        Fp4NanToZero => E(
            "FP4 formats have no NaN encoding, so float -> fp4x2 turns NaN inputs into +0.",
            "func.func @f(%a: !pto.tile_buf<vec, 16x16xbf16>, %b: !pto.tile_buf<vec, 16x8x!pto.f4E2M1x2>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xbf16>) outs(%b : !pto.tile_buf<vec, 16x8x!pto.f4E2M1x2>)\n  return\n}",
            "Informational; filter NaNs first if they matter.",
        ),
        VcvtNotVreg => E(
            "The input and the result of `pto.vcvt` must be `!pto.vreg` values.",
            "func.func @f(%t: !pto.tile_buf<vec, 8x8xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xf16> {\n  %r = pto.vcvt %t, %m {part = \"EVEN\"} : !pto.tile_buf<vec, 8x8xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n  return %r : !pto.vreg<128xf16>\n}",
            "Load the data into a vector register first (`pto.vlds`), or use `pto.tcvt` for tiles.",
        ),
        VregSize => E(
            "A `!pto.vreg<NxT>` must hold exactly 2048 bits (N x bits(T), with 8 bits for fp8, hif8 and the x2 carriers), and a vcvt's source and result must have the same total size.",
            "func.func @f(%v: !pto.vreg<32xf32>) {\n  return\n}",
            "Use the lane count for the element width: 64 for 32-bit, 128 for 16-bit, 256 for 8-bit, 32 for 64-bit types.",
        ),
        VcvtPairUnsupported => E(
            "No vcvt contract row exists for the (src, dst) pair, or the pair is outside the a2a3 subset (semantics.md §6.3, §6.5).",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xui16> {\n  %r = pto.vcvt %v, %m {part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xui16>\n  return %r : !pto.vreg<128xui16>\n}",
            "Use a pair of the contract table (here f32 -> si16), or convert in two steps.",
        ),
        VcvtMaskGranularity => E(
            "The mask of a vcvt must have granularity b{min(bits(src), 32)}: b32 for 32/64-bit sources, b16 for 16-bit, b8 for 8-bit.",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b16>) -> !pto.vreg<128xf16> {\n  %r = pto.vcvt %v, %m {part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b16> -> !pto.vreg<128xf16>\n  return %r : !pto.vreg<128xf16>\n}",
            "Use a mask of the source granularity (`!pto.mask<b32>` here, e.g. from `pto.pset_b32`).",
        ),
        VcvtAttrBadToken => E(
            "A vcvt `rnd`, `sat` or `part` value is not a recognised token or alias, or is not a string. rnd: R A F C Z O H (or ROUND_x); sat: SAT, NOSAT (RS_ENABLE, RS_DISABLE); part: EVEN, ODD, P0..P3 (or PART_x).",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<64xsi32> {\n  %r = pto.vcvt %v, %m {sat = \"CLAMP\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xsi32>\n  return %r : !pto.vreg<64xsi32>\n}",
            "Write one of the listed tokens as a string.",
        ),
        VcvtRndAliasConflict => E(
            "`round_mode` is an alias of `rnd`; giving both is an error.",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<64xsi32> {\n  %r = pto.vcvt %v, %m {rnd = \"R\", round_mode = \"ROUND_A\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xsi32>\n  return %r : !pto.vreg<64xsi32>\n}",
            "Keep one (`rnd` is canonical).",
        ),
        VcvtAttrForbidden => E(
            "rnd, sat or part is given on a pair whose contract does not take it, e.g. rnd on an exact widening, sat on f16 -> si32, part on a same-width pair.",
            "func.func @f(%v: !pto.vreg<128xf16>, %m: !pto.mask<b16>) -> !pto.vreg<64xf32> {\n  %r = pto.vcvt %v, %m {rnd = \"R\", part = \"EVEN\"} : !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<64xf32>\n  return %r : !pto.vreg<64xf32>\n}",
            "Remove the attribute the pair does not take.",
        ),
        VcvtPartRequired => E(
            "A width-changing vcvt reads or writes only part of a register, so it must say which: EVEN/ODD for a width ratio of 2, P0..P3 for 4 (fp4x2 pairs use P).",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xf16> {\n  %r = pto.vcvt %v, %m {rnd = \"R\", sat = \"SAT\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n  return %r : !pto.vreg<128xf16>\n}",
            "Add `part = \"EVEN\"` or `part = \"ODD\"` (or P0..P3 for a ratio of 4).",
        ),
        VcvtPartFamily => E(
            "The part is from the wrong family: EVEN/ODD apply to pairs whose widths differ by 2x, P0..P3 to 4x pairs and to the fp4x2 pairs.",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<256xf8E4M3FN> {\n  %r = pto.vcvt %v, %m {rnd = \"R\", sat = \"SAT\", part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<256xf8E4M3FN>\n  return %r : !pto.vreg<256xf8E4M3FN>\n}",
            "Use a part of the pair's family (P0..P3 here).",
        ),
        VcvtRndNotAllowed => E(
            "The rnd letter is not allowed for the pair (semantics.md §6.3). H (hybrid) is allowed only for f32 -> fp8, f32 -> hif8 and f16 -> hif8.",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<256xf8E4M3FN> {\n  %r = pto.vcvt %v, %m {rnd = \"F\", sat = \"SAT\", part = \"P0\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<256xf8E4M3FN>\n  return %r : !pto.vreg<256xf8E4M3FN>\n}",
            "Use one of the pair's letters (R, A, H or Z here).",
        ),
        VcvtAsmOperand => E(
            "In assembly form, the operands after the mask are positional: rnd, then sat, then part; each takes the vcvt tokens or NONE (absent).",
            "// a .ptoasm file\nPTO.vcvt v2, v0, vmask, NONE, EVEN : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>",
            "Put each mode in its position, with NONE for absent ones: `PTO.vcvt v2, v0, vmask, NONE, SAT, EVEN : ...`.",
        ),
        VcvtAttrDefaulted => E(
            "rnd or sat is omitted on a pair that takes it. PTOAS requires it; ptoc applies the documented default (rnd R, or A where R is not allowed; sat NOSAT).",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xf16> {\n  %r = pto.vcvt %v, %m {part = \"EVEN\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n  return %r : !pto.vreg<128xf16>\n}",
            "Write the attributes explicitly if the file must also pass PTOAS.",
        ),
        RoundingHybridUnsupported => E(
            "H (hybrid) rounding is accepted by the verifier where the contract allows it, but its exact behaviour is defined in no source, so the interpreter cannot execute it.",
            "func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<256x!pto.hif8> {\n  %r = pto.vcvt %v, %m {rnd = \"H\", sat = \"SAT\", part = \"P0\"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<256x!pto.hif8>\n  return %r : !pto.vreg<256x!pto.hif8>\n}",
            "Informational for verification; use A to run the kernel in the interpreter.",
        ),
        ConvertTypeUnsupported => E(
            "A pto.convert converts one i32, i64, f16, bf16 or f32 scalar, or one packed pair (vector<2xf32>, vector<2xf16>, vector<2xbf16>, vector<2xf8E4M3FN>, vector<2xf8E5M2>, !pto.hif8x2, !pto.f4E2M1x2, !pto.f4E1M2x2). Any other source or result type is rejected, as PTOAS's verifier does (PTOAS is the only source of the pto.convert rules: docs/rules/convert.md).",
            "func.func @f(%x: i16) -> f32 {\n  %d = pto.convert %x round(r) nosat signed : i16 -> f32\n  return %d : f32\n}",
            "Widen or narrow the integer to i32 first, or use pto.tcvt / pto.vcvt for other types.",
        ),
        ConvertIntToInt => E(
            "pto.convert does not convert between integers (PTOAS: \"does not support integer-to-integer conversion\").",
            "func.func @f(%x: i32) -> i64 {\n  %d = pto.convert %x round(r) nosat signed : i32 -> i64\n  return %d : i64\n}",
            "Use arith.extsi / arith.trunci for integer width changes.",
        ),
        ConvertSignednessRequired => E(
            "A pto.convert to or from an integer must say how the integer is read: `signed` or `unsigned` after the saturation keyword (PTOAS: \"requires signedness when converting to or from integer type\").",
            "func.func @f(%x: f32) -> i32 {\n  %d = pto.convert %x round(z) sat : f32 -> i32\n  return %d : i32\n}",
            "Write `signed` or `unsigned`: `pto.convert %x round(z) sat signed : f32 -> i32`.",
        ),
        ConvertSignednessForbidden => E(
            "`signed`/`unsigned` is only for conversions to or from an integer; a float-to-float or packed pto.convert must not carry it (PTOAS: \"does not accept signedness for floating-to-floating conversion\").",
            "func.func @f(%x: f32) -> f16 {\n  %d = pto.convert %x round(r) nosat signed : f32 -> f16\n  return %d : f16\n}",
            "Remove the keyword.",
        ),
        ConvertSignednessConflict => E(
            "A pto.convert carries both `signed` and `unsigned`. PTOAS's signedness is one enum, so it cannot express both; ptoc reads the two keywords separately and rejects the pair.",
            "func.func @f(%x: f32) -> i32 {\n  %d = pto.convert %x round(z) sat signed unsigned : f32 -> i32\n  return %d : i32\n}",
            "Keep the one that describes the integer.",
        ),
        ConvertMixedPacked => E(
            "A packed pto.convert converts a packed pair into a packed pair: mixing a packed type with an integer (PTOAS: \"does not support mixed integer and packed conversion\") or with a scalar float (\"does not support mixed scalar and packed conversion\") is rejected.",
            "func.func @f(%x: vector<2xf32>) -> f16 {\n  %d = pto.convert %x round(r) nosat : vector<2xf32> -> f16\n  return %d : f16\n}",
            "Convert a pair into a pair (vector<2xf32> -> vector<2xf16>), or convert scalars.",
        ),
        ConvertPairUnsupported => E(
            "The (src, dst) pair is not in pto.convert's table (docs/rules/convert.md): i64 converts only to or from f32, i32 only to f32, f16 and bf16, and packed pairs are f32x2<->f16x2, f32x2<->bf16x2, f32x2->f8x2, f32x2/f16x2->hif8x2, f8x2/hif8x2->f32x2/f16x2 and bf16x2<->f4. The message is PTOAS's.",
            "func.func @f(%x: i64) -> f16 {\n  %d = pto.convert %x round(r) nosat signed : i64 -> f16\n  return %d : f16\n}",
            "Go through f32 (i64 -> f32 -> f16), or pick a supported pair.",
        ),
        ConvertSatRequired => E(
            "A float-to-integer pto.convert must saturate: `sat`, not `nosat` (PTOAS: \"fp32-to-integer conversion requires saturation enable\", \"fp16/bf16-to-integer conversion requires saturation enable\"). This is PTOAS's own negative lit test simt_lowlevel_convert_negative.pto.",
            "func.func @f(%x: f32) -> i32 {\n  %d = pto.convert %x round(z) nosat signed : f32 -> i32\n  return %d : i32\n}",
            "Write `sat`.",
        ),
        ConvertRndNotAllowed => E(
            "The round(...) letter is not allowed for the pair: o (round to odd) only for f32 -> f16 (scalar or packed), h (hybrid) only into !pto.hif8x2, f32x2 -> f8x2 only r, f32x2/f16x2 -> hif8x2 only a or h, every other pair r, a, f, c or z (docs/rules/convert.md). The message is PTOAS's.",
            "func.func @f(%x: f32) -> bf16 {\n  %d = pto.convert %x round(o) nosat : f32 -> bf16\n  return %d : bf16\n}",
            "Use one of the pair's letters (r, a, f, c or z here).",
        ),
        RuntimeValidShape => E(
            "At run time, the dynamic valid extents of a tcvt exceed the tile shape or differ between src and dst. Only the interpreter reports this code, when it executes the kernel with actual extents; `ptoc verify` never does (statically it checks what it can: E0204, E0206).",
            "pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32, valid=?x?>) outs(%b : !pto.tile_buf<vec, 16x16xf16, valid=?x?>)\n// run with src valid 8x16 and dst valid 16x16",
            "Pass equal valid extents within the shape.",
        ),
        RuntimeTmpTooSmall => E(
            "At run time, the actual valid extents need more tmp bytes than the tmp tile provides (the static check used the worst case or could not decide). Only the interpreter reports this code, when it executes the kernel; `ptoc verify` never does (statically: E0210 and note N0203).",
            "pto.tcvt ins(%a, %t {satmode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 16x128xf32>, !pto.tile_buf<vec, 8x64xi32>) outs(%b : !pto.tile_buf<vec, 16x128xi16, valid=?x?>)\n// run on a2a3 with dst valid 16x100",
            "Enlarge the tmp tile.",
        ),
        InterpUnsupported => E(
            "`ptoc run` executes tile allocation (pto.alloc_tile, pto.declare_tile), pto.tcvt in every form, pto.vcvt, pto.vor, the mask constructors (pto.pset_b*, pto.plt_b*), integer arith.constant, pto.vecscope and return. Any other op (loads, stores, views, other vector arithmetic, generic ops), or a value of a type it cannot hold (e.g. an f64 tile), stops the run with this error at the op. Only the interpreter reports this code; `ptoc verify` never does.",
            "func.func @f(%a: !pto.vreg<64xf32>, %b: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<64xf32> {\n  %r = pto.vadd %a, %b, %m : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>\n  return %r : !pto.vreg<64xf32>\n}\n// ptoc run --func f ... stops at pto.vadd",
            "Run a kernel made of the supported ops, or check the op with `ptoc verify` only.",
        ),
        ConvertNotExecutable => E(
            "`ptoc run` executes pto.convert with the exact conversion core (round letters r a f c z o = RINT, ROUND (ties away), FLOOR, CEIL, TRUNC, ODD). Where the core has no exact implementation it stops with this code instead of guessing: unsigned i64 (the core has no u64), packed pairs, and round(h) (hybrid rounding is defined in no source). Only the interpreter reports this code; `ptoc verify` never does (round(h) gets note N0302 there).",
            "func.func @f(%x: f32) -> i64 {\n  %d = pto.convert %x round(z) sat unsigned : f32 -> i64\n  return %d : i64\n}\n// ptoc run f.pto --input x=1.5",
            "Convert to a type the core implements (signed i64, or i32 unsigned), or run the kernel in PTOAS's simulator.",
        ),
        ExpectedNotProduced => E(
            "With --verify-diagnostics, an `expected-*` directive found no diagnostic of its severity whose primary span starts on the target line and whose message contains the text.",
            "// expected-error@+1 {{use of undefined value '%y'}}\n%z = \"test.use\"(%x) : (i32) -> i32",
            "Fix the directive's text, line offset or severity, or the input.",
        ),
        UnexpectedDiagnostic => E(
            "With --verify-diagnostics, a diagnostic was produced that no directive expects. Every error, warning and note must be expected.",
            "func.func @f() {\n  %z = \"test.use\"(%ghost) : (i32) -> i32\n  return\n}",
            "Add a directive such as `// expected-error@+1 {{use of undefined value '%ghost'}}`, or fix the input.",
        ),
        DirectiveOutsideChunk => E(
            "With --split-input-file, a directive's target line (`@+N`, `@-N`, `@above`, `@below`) must lie in the directive's own chunk.",
            "// expected-error@+4 {{oops}}\nmodule {\n}\n// -----\nmodule {\n}",
            "Move the directive next to its line, inside the same chunk.",
        ),
        AsmUnsupportedInstruction => E(
            "Assembly mode (.ptoasm) supports only PTO.vcvt lines (and an optional leading .func).",
            "// a .ptoasm file\nPTO.vadd v2, v0, v1, vmask : !pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<64xf32>",
            "Write other instructions in .pto form.",
        ),
        AsmMissingTypes => E(
            "An assembly vcvt line must end with its type signature, because registers carry no types.",
            "// a .ptoasm file\nPTO.vcvt v0, v1, vmask, R, SAT, EVEN",
            "Append the signature, e.g. `: !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>`.",
        ),
        AsmRegisterTypeConflict => E(
            "In assembly mode a register keeps the type of its latest write (or first read); a later line uses it with a different type.",
            "// a .ptoasm file\nPTO.vcvt v2, v1, vmask, R, SAT, EVEN : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\nPTO.vcvt v3, v1, vmask, R, SAT, EVEN : !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<256xi8>",
            "Use a different register, or the register's actual type.",
        ),
        TensixUnsupported => E(
            "`ptoc lower --target tensix` (and `ptoc verify --lower-check tensix`) emits only SFPU kernels that reproduce the cpu profile's semantics bit for bit and are proven so on the simulator. A conversion between carried types (its source and destination type, effective rounding mode and saturation, as the cpu profile resolves them) for which no lowering rule exists is reported with this code and the rule's reason. Today every combination of the carried types has a proven rule (docs/tensix-kernels.md), so no input produces it; the verifier never produces it either.",
            "// ptoc lower --target tensix: a conversion without a rule would be reported at its op.\n// Today every carried combination has one, so even this ODD-rounding tcvt is lowered.\nfunc.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi32>) {\n  pto.tcvt ins(%a {rmode = #pto<round_mode ODD>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi32>)\n  return\n}",
            "Use a combination docs/tensix-kernels.md lists as lowered, or run the conversion elsewhere (the reference interpreter executes every combination).",
        ),
        TensixTypeNotCarried => E(
            "Tensix kernels carry f32, bf16, f16, i32, ui32, i16, ui16, i8 and ui8 elements (one 32-bit Dst datum each: the I/O contract of docs/tensix-kernels.md). fp8, hif8, fp4, i64 and s4 tiles have no Dst form in ptoc's kernels.",
            "// ptoc lower --target tensix\nfunc.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi64>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi64>)\n  return\n}",
            "Convert through a carried type, or keep the conversion off the Tensix target.",
        ),
        TensixProofFailed => E(
            "A lowered kernel gave a result different from the reference semantics on some input: `ptoc prove` reports it with the input and both outputs, and `ptoc lower` refuses to emit a kernel whose quick self-check fails. Every rule is proven in ptoc's own test suite, so this code means a defect in ptoc (or a hand-edited listing given to `ptoc prove`); the verifier never produces it.",
            "; ptoc prove kernel.s, where kernel.s is a lowered listing whose negation line was deleted\n; @io src=f32 dst=i32 arch=blackhole rmode=TRUNC sat=off",
            "Report the input and both outputs; do not use the kernel.",
        ),
        TensixNothingToLower => E(
            "`ptoc lower --target tensix` and `ptoc prove` lower every pto.tcvt and pto.vcvt of the input; an input without any has nothing to lower. `lower` still writes its (empty) output with a comment line and `prove` proves nothing; both exit 0, and this note says why nothing happened.",
            "// ptoc lower --target tensix (or ptoc prove) on a module without conversions\nfunc.func @f() {\n  return\n}",
            "Give the file that holds the conversions, or nothing is to be done.",
        ),
        TensixCpuSemantics => E(
            "Tensix kernels reproduce the cpu profile's semantics bit for bit (docs/design/tensix-lowering.md; the shared spec tensix.md §9): `ptoc lower` and `ptoc prove` verify and lower every module on the cpu profile, whatever its `pto.target_arch` says. When a module names another profile (a2a3, a5), its conversions may resolve differently there (forced or ignored rounding modes, saturation defaults); this note says that the cpu resolution is the one lowered.",
            "// ptoc lower --target tensix\nmodule attributes {pto.target_arch = \"a3\"} {\n  func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xi32>) {\n    pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xi32>)\n    return\n  }\n}",
            "Nothing, if the cpu semantics are what the kernel should compute; otherwise check the conversion on the module's profile with `ptoc run` or `ptoc cast --target`.",
        ),
        ListingInvalid => E(
            "`ptoc sim` and `ptoc prove` read SFPU listings (`ptoc lower --emit asm` output): sections `; @init`, `; @body`, `; @drain`, and for `prove` (and element-typed `sim` runs) one `; @io src=T dst=T arch=A rmode=M sat=on|off` header. The error names the file, line and column of an instruction that does not assemble, or the header problem: unknown key or type, missing rmode=/sat= for a proof, or several headers (a multi-kernel listing: lower with `--kernel N` or `--split-kernels DIR` to get one listing per kernel). A runtime error of a tool run; the verifier never produces it.",
            "; k.s, given to ptoc sim or ptoc prove\n; @io src=f32 dst=i32 arch=blackhole rmode=TRUNC sat=off\n; @body\nsfpbogus L0",
            "Fix the line named, or lower the .pto again.",
        ),
        InputSize => E(
            "A raw input file holds whole words or elements: `ptoc sim` reads 32-bit words (16-bit with --dest 16; elements of the header's source type for a listing with a `; @io` header; whole source registers for a vcvt listing), `ptoc cast` reads elements of --from. A file whose length is not a multiple of that unit is refused with exit 1 before anything runs. A runtime error of a tool run; the verifier never produces it.",
            "ptoc cast --from f32 --to f16 five-bytes.bin out.bin",
            "Write whole elements (e.g. with numpy's `tofile`), or pass the element type the file holds.",
        ),
        SimulationFailed => E(
            "The Tensix simulator stopped on a machine error: a read of an undefined LReg, a mode the strict model does not execute, a SFPLOADMACRO hazard or a pipeline still busy after the drain, a macro template written outside the init code, or a body that does not advance RWC.Dst by whole rows. `ptoc sim` writes no output; `ptoc prove` reports the error instead of a mismatch count, because the proof did not complete. The message names the listing's line and the pc when the instruction has one. A runtime error of a tool run; the verifier never produces it.",
            "; k.s, given to ptoc sim or ptoc prove: the body reads L3, which nothing wrote\n; @body\nsfpmov 0, L3, L0, 0\nsfpstore L0, 0, ADDR_MOD_6, 0",
            "Fix the listing (initialise the register, move template writes into `; @init`, add a drain), or lower the .pto again.",
        ),
        InputFileFormat => E(
            "`ptoc cast` reads a `.npy` input as NumPy's format: the header must parse, its dtype must hold the element type of --from, and the data must have the size the header promises. A runtime error of a tool run; the verifier never produces it.",
            "ptoc cast --from f32 --to f16 not-really.npy out.bin",
            "Write the file with numpy.save, or name a raw file without the .npy extension.",
        ),
    }
}

/// The text `ptoc explain` prints for `code`, ending with a newline.
pub fn render(code: Code) -> String {
    let e = explanation(code);
    let example: String = e.example.lines().map(|l| format!("    {l}\n")).collect();
    format!(
        "{} {} ({})\n\n{}.\n\n{}\n\nExample:\n\n{}\nWhat to do: {}\n",
        code.as_str(),
        code.name(),
        code.default_severity().as_str(),
        capitalise(code.summary()),
        e.description,
        example,
        e.fix,
    )
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_has_an_explanation_with_an_example() {
        for &code in Code::ALL {
            let e = explanation(code);
            assert!(e.description.len() > 40, "{code:?}");
            assert!(e.fix.len() > 10, "{code:?}");
            // An example is real input: it names a value, an op, a directive or a type.
            assert!(
                ["%", "pto", "func", "module", "expected-"]
                    .iter()
                    .any(|k| e.example.contains(k)),
                "{code:?}: {}",
                e.example
            );
            let text = render(code);
            assert!(text.starts_with(code.as_str()), "{text}");
            assert!(text.contains("Example:"), "{text}");
        }
    }

    /// Every `docs/....md` an explanation points at exists in the repository (issue 22: E0702
    /// named a docs/tensix.md that is not there).
    #[test]
    fn every_document_named_exists() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        let mut named = 0;
        for &code in Code::ALL {
            let text = render(code);
            for (at, _) in text.match_indices("docs/") {
                let rest = &text[at..];
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || "/._-".contains(c)))
                    .unwrap_or(rest.len());
                let path = rest[..end].trim_end_matches('.');
                if path.ends_with(".md") {
                    named += 1;
                    assert!(root.join(path).is_file(), "{code:?} names {path}");
                }
            }
        }
        assert!(named > 0);
    }
}
