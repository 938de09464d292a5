//! Every row of syntax.md §9 (and the other parse-time messages of §1-§6) produces its message,
//! on the right line, with its code; recovery reports several errors per file.

use ptoc::diag::{Code, Diagnostic};
use ptoc::front::{parse_module, InputFormat};

fn diags(src: &str) -> Vec<Diagnostic> {
    parse_module(src, 0, InputFormat::Pto).diagnostics
}

/// `--strict-ops`: a custom form of an unknown op is an error (E0008).
fn strict_diags(src: &str) -> Vec<Diagnostic> {
    ptoc::front::parse_module_with(src, 0, InputFormat::Pto, true).diagnostics
}

fn line_of(src: &str, at: usize) -> usize {
    src[..at.min(src.len())].matches('\n').count() + 1
}

/// Asserts exactly one error whose message contains `gist`, on `line`, with `code`.
#[track_caller]
fn one(src: &str, gist: &str, line: usize, code: Code) -> Diagnostic {
    let ds = diags(src);
    let msgs: Vec<String> = ds
        .iter()
        .map(|d| format!("{}:{} {}", line_of(src, d.span.start), d.code, d.message()))
        .collect();
    assert_eq!(ds.len(), 1, "expected one diagnostic, got {msgs:#?}");
    let d = ds.into_iter().next().unwrap();
    assert!(d.message().contains(gist), "{msgs:#?} lacks {gist:?}");
    assert_eq!(line_of(src, d.span.start), line, "{msgs:#?}");
    assert_eq!(d.code, code, "{msgs:#?}");
    d
}

fn func(body: &str) -> String {
    format!("func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {{\n{body}\n  return\n}}\n")
}

fn with_type(ty: &str) -> String {
    format!("func.func @f(%a: {ty}) {{\n  return\n}}\n")
}

#[test]
fn row01_missing_elem_type() {
    let d = one(
        &with_type("!pto.tile_buf<vec, 16x16>"),
        "expected element type after dimension list, found integer '16'",
        1,
        Code::Syntax,
    );
    assert_eq!(d.help.as_deref(), Some("write 16x16xf32"));
}

#[test]
fn row02_isa_spelling_without_cast() {
    let src = func("  pto.tcvt ins(%a {rmode = #pto.round_mode<FLOOR>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)");
    let d = one(
        &src,
        "unknown round mode 'FLOOR' in #pto.round_mode<...>",
        2,
        Code::InvalidAttributeValue,
    );
    assert!(d.message().contains("CAST_FLOOR"));
}

#[test]
fn row03_ptoas_spelling_with_cast() {
    let src = func("  pto.tcvt ins(%a {rmode = #pto<round_mode CAST_FLOOR>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)");
    one(&src, "unknown round mode 'CAST_FLOOR'; expected one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT", 2, Code::InvalidAttributeValue);
}

const LEGACY_HEAD: &str = "!pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, ";

#[test]
fn row04_bad_v_row() {
    let ty = format!("{LEGACY_HEAD}v_row=abc, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>");
    one(
        &with_type(&ty),
        "v_row must be '?', -1, or a non-negative integer, found identifier 'abc'",
        1,
        Code::InvalidType,
    );
}

#[test]
fn row05_duplicate_compact_key() {
    let d = one(
        &with_type("!pto.tile_buf<vec, 16x16xf32, pad=1, pad=2>"),
        "duplicate key 'pad' in compact tile_buf",
        1,
        Code::DuplicateAttribute,
    );
    assert_eq!(d.labels[0].message, "first given here");
}

#[test]
fn row06_mask_granularity() {
    one(
        &with_type("!pto.mask<b64>"),
        "expected mask granularity b8, b16 or b32, found 'b64'",
        1,
        Code::InvalidType,
    );
}

#[test]
fn row07_vreg_rank() {
    one(
        &with_type("!pto.vreg<4x4x16xf32>"),
        "!pto.vreg takes exactly one dimension, found 3",
        1,
        Code::InvalidType,
    );
}

#[test]
fn row08_vreg_size() {
    one(
        &with_type("!pto.vreg<64xf16>"),
        "!pto.vreg must hold exactly 256 bytes; 64xf16 holds 128",
        1,
        Code::VregSize,
    );
}

#[test]
fn row09_unterminated_string_next_line_parses() {
    let src = "func.func @f() {\n  %m = pto.pset_b32 \"PAT_ALL : !pto.mask<b32>\n  %n = pto.pset_b32 \"PAT_ALL\" : !pto.mask<b32>\n  return\n}\n";
    let d = one(
        src,
        "unterminated string literal",
        2,
        Code::UnterminatedString,
    );
    assert_eq!(&src[d.span.range()], "\"PAT_ALL : !pto.mask<b32>");
    let m = parse_module(src, 0, InputFormat::Pto).module.unwrap();
    assert!(m
        .ops
        .iter()
        .any(|o| matches!(o.kind, ptoc::ir::OpKind::Pset { .. })));
}

#[test]
fn row10_stray_percent() {
    let src = "func.func @f() -> i32 {\n  return % : i32\n}\n";
    one(
        src,
        "'%' must be followed by a value name",
        2,
        Code::UnexpectedCharacter,
    );
}

#[test]
fn row11_missing_outs_with_context() {
    let src = "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>)\n  return\n}\n";
    let d = one(
        src,
        "expected 'outs', found identifier 'return'",
        3,
        Code::Syntax,
    );
    assert_eq!(d.labels[0].message, "while parsing this pto.tcvt");
    assert_eq!(&src[d.labels[0].span.range()], "pto.tcvt");
}

#[test]
fn row12_legacy_key_order() {
    let ty = "!pto.tile_buf<loc=vec, rows=16, dtype=f32, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
    let d = one(
        &with_type(ty),
        "expected key 'dtype', found 'rows'",
        1,
        Code::Syntax,
    );
    assert!(d.message().contains(
        "loc, dtype, rows, cols, v_row, v_col, blayout, slayout, fractal, pad[, compact]"
    ));
}

#[test]
fn row13_legacy_missing_pad() {
    let ty = format!(
        "{LEGACY_HEAD}v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512>"
    );
    let d = one(&with_type(&ty), "expected ',', found '>'", 1, Code::Syntax);
    assert_eq!(d.notes[0].message, "legacy tile_buf requires pad=");
}

#[test]
fn row14_both_sat_keys() {
    let src = func("  pto.tcvt ins(%a {rmode = #pto<round_mode ROUND>, sat_mode = #pto<saturation_mode ON>, satmode = #pto<saturation_mode ON>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)");
    one(
        &src,
        "cannot specify both 'satmode' and 'sat_mode'",
        2,
        Code::TcvtSatAttrConflict,
    );
}

fn vcvt(attrs: &str) -> String {
    format!("func.func @f(%v: !pto.vreg<64xf32>, %m: !pto.mask<b32>) {{\n  %r = pto.vcvt %v, %m {attrs} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n  return\n}}\n")
}

#[test]
fn row15_rnd_alias_conflict() {
    one(
        &vcvt("{rnd = \"R\", round_mode = \"ROUND_A\"}"),
        "rnd and round_mode cannot be specified together",
        2,
        Code::VcvtRndAliasConflict,
    );
}

#[test]
fn row16_vcvt_values() {
    one(
        &vcvt("{part = 1}"),
        "part must be a string literal",
        2,
        Code::VcvtAttrBadToken,
    );
    one(
        &vcvt("{sat = \"CLAMP\"}"),
        "sat has unsupported value 'CLAMP'",
        2,
        Code::VcvtAttrBadToken,
    );
    one(
        &vcvt("{rnd = \"NEAREST\"}"),
        "rnd has unsupported value 'NEAREST'; expected R, A, F, C, Z, O, H (or ROUND_R...)",
        2,
        Code::VcvtAttrBadToken,
    );
}

#[test]
fn row17_attrs_in_both_places() {
    let src = func("  pto.tcvt ins(%a {rmode = #pto<round_mode ROUND>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>) {}");
    one(
        &src,
        "attributes given both inside ins(...) and after outs(...)",
        2,
        Code::OpForm,
    );
}

#[test]
fn row18_positional_tile() {
    one(
        &with_type("!pto.tile<loc=vec, f32, 16, 16, RowMajor, NoneBox, None, Zero>"),
        "positional !pto.tile syntax is not supported; write !pto.tile<vec, 16x16xf32>",
        1,
        Code::UnsupportedConstruct,
    );
    one(
        &with_type("!pto.tile<f32, 16, 16>"),
        "positional !pto.tile syntax is not supported",
        1,
        Code::UnsupportedConstruct,
    );
}

#[test]
fn row19_unknown_custom_op() {
    let src = "func.func @f(%a: !pto.tile<16x16xf32>, %b: !pto.tile<16x16xf32>) {\n  %r = pto.tfoo %a, %b : !pto.tile<16x16xf32>\n  return\n}\n";
    // By default (D-5 revised) an opaque statement: no diagnostic, two uses, one typed result.
    let out = parse_module(src, 0, InputFormat::Pto);
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let m = out.module.unwrap();
    let op = m
        .ops
        .iter()
        .find(|o| matches!(&o.kind, ptoc::ir::OpKind::Opaque(x) if x.name == "pto.tfoo"))
        .expect("opaque pto.tfoo");
    assert_eq!(op.operands.len(), 2);
    assert_eq!(op.results.len(), 1);
    let ds = strict_diags(src);
    assert_eq!(ds.len(), 1);
    let d = ds.into_iter().next().unwrap();
    assert_eq!(d.code, Code::UnknownOperation);
    assert_eq!(line_of(src, d.span.start), 2);
    assert!(d.message().contains(
        "unknown operation 'pto.tfoo' in custom form; ptoc keeps unknown ops only in generic form"
    ));
    assert!(
        d.message()
            .contains("%r = \"pto.tfoo\"(%a, %b) : (T, T) -> T"),
        "{}",
        d.message()
    );
}

#[test]
fn row20_valid_and_fractal() {
    one(
        &with_type("!pto.tile_buf<vec, 16x16xf32, valid=20x16>"),
        "valid row 20 exceeds rows 16",
        1,
        Code::TileValidExceedsShape,
    );
    one(
        &with_type("!pto.tile_buf<vec, 16x16xf32, fractal=64>"),
        "unsupported fractal size 64",
        1,
        Code::InvalidType,
    );
}

#[test]
fn row21_ptr_space() {
    one(&with_type("!pto.ptr<f32, l2>"), "!pto.ptr address space must be one of gm, ub, vec, mat, l1, left, l0a, right, l0b, acc, l0c, bias, bt, scaling, fb", 1, Code::InvalidType);
}

#[test]
fn row22_hex_dims() {
    one(
        &with_type("!pto.vreg<0xf32>"),
        "expected a dimension list, found hex integer 0xf32; zero-sized dimensions are not allowed",
        1,
        Code::Syntax,
    );
}

#[test]
fn row23_ssa_tcvt_without_result() {
    let src = "func.func @f(%a: !pto.tile<16x16xf32>) {\n  pto.tcvt %a : !pto.tile<16x16xf32> -> !pto.tile<16x16xf16>\n  return\n}\n";
    one(
        src,
        "pto.tcvt in SSA form must define exactly one result",
        2,
        Code::OpForm,
    );
}

#[test]
fn row24_names_are_left_to_the_verifier() {
    // Parse-time binding makes no judgement: no diagnostic, an Unresolved value instead.
    let src = "func.func @f() {\n  %x = arith.constant 1 : index\n  %x = arith.constant 2 : index\n  return %ghost : index\n}\n";
    let out = parse_module(src, 0, InputFormat::Pto);
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let m = out.module.unwrap();
    let ghost = m.values.iter().find(|v| v.name == "%ghost").unwrap();
    assert_eq!(ghost.def, ptoc::ir::ValueDef::Unresolved);
    assert_eq!(
        m.ty(ghost.ty),
        &ptoc::ir::Type::Scalar(ptoc::ir::ScalarType::Index)
    );
}

#[test]
fn row25_target_arch() {
    // An unknown string is the driver's warning W0207 (it names the profile used instead).
    assert!(diags("module attributes {pto.target_arch = \"a7\"} {}\n").is_empty());
    let opts = ptoc::driver::Options {
        target: ptoc::driver::TargetChoice::Auto,
        split_input: false,
        format: InputFormat::Pto,
        parse_only: false,
        strict_ops: false,
        pto_level: Default::default(),
        defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
    };
    let r = ptoc::driver::check_file(b"module attributes {pto.target_arch = \"a7\"} {}\n", &opts);
    let ds: Vec<&Diagnostic> = r.chunks.iter().flat_map(|c| c.diagnostics()).collect();
    assert_eq!(ds.len(), 1);
    assert_eq!(ds[0].code, Code::UnknownTargetArch);
    assert!(!ds[0].is_error());
    assert!(ds[0].message().contains(
        "unknown pto.target_arch \"a7\"; expected \"a2\", \"a2a3\", \"a3\", \"a5\", \"a6\" or \"cpu\"; using cpu"
    ));
    one(
        "module attributes {pto.target_arch = 5} {}\n",
        "pto.target_arch must be a string literal",
        1,
        Code::UnknownProfile,
    );
}

#[test]
fn row26_unknown_key_did_you_mean() {
    let src = func("  pto.tcvt ins(%a {rmod = #pto<round_mode ROUND>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)");
    one(
        &src,
        "unknown attribute 'rmod' on 'pto.tcvt'; did you mean 'rmode'?",
        2,
        Code::UnknownAttribute,
    );
}

#[test]
fn row27_loc_ub_accepted() {
    let ty = "!pto.tile_buf<loc=ub, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>";
    assert!(diags(&with_type(ty)).is_empty());
}

#[test]
fn other_parse_time_messages() {
    one(
        "func.func @f() {\n  %pair #1 = arith.constant 1 : index\n  return\n}\n",
        "result number must directly follow the value name, as in %pair#1",
        2,
        Code::ResultNumberSpacing,
    );
    one(
        "func.func @f() {\n  %r#1 = arith.constant 1 : index\n  return\n}\n",
        "result number not allowed in a definition",
        2,
        Code::Syntax,
    );
    one("func.func @f(%n: i32) {\n  %m = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n  return\n}\n", "'pto.plt_b16' defines 2 results but 1 name was given", 2, Code::ResultCountMismatch);
    one(
        "func.func @f() {\n  %c = arith.constant 1 : index\n}\n",
        "function body must end with 'return'",
        3,
        Code::FunctionBody,
    );
    one(
        "func.func @f() {\n  return\n  %c = arith.constant 1 : index\n  return\n}\n",
        "'return' must be the last operation of a function body",
        2,
        Code::FunctionBody,
    );
    one(
        "func.func @f() {\n  pto.vecscope {\n    return\n  }\n  return\n}\n",
        "'return' is not allowed inside pto.vecscope",
        3,
        Code::FunctionBody,
    );
    one(
        "func.func @f(%a: i32, i32)\n",
        "cannot mix named and unnamed function arguments",
        1,
        Code::FunctionBody,
    );
    one(
        "module {\n  #map = affine_map<(d0) -> (d0)>\n}\n",
        "alias definition '#map' inside a module body or region: expected an operation; define aliases at the top level of the file",
        2,
        Code::AliasDefinition,
    );
    one(
        "func.func @f(%a: !t) {\n  return\n}\n",
        "undefined alias '!t': expected a type alias defined before this use",
        1,
        Code::UndefinedAlias,
    );
    one(
        "func.func @f() {\n  module {\n  }\n  return\n}\n",
        "modules outside a module body are not supported",
        2,
        Code::UnsupportedConstruct,
    );
    one(
        "module {\n  %x = module {\n  }\n}\n",
        "results of a module are not supported",
        2,
        Code::UnsupportedConstruct,
    );
    // Something after the first module is another top-level item; a stray `}` is not one.
    one(
        "module {\n}\n}\n",
        "expected operation, found '}'",
        3,
        Code::Syntax,
    );
    one("module {\n  module {\n}\n", "expected '}'", 4, Code::Syntax);
    one(&with_type("!pto.tile_buf<vec, 16x16xf32, layout=1>"), "unknown key 'layout' in compact tile_buf; expected valid, blayout, slayout, fractal, pad or compact", 1, Code::InvalidType);
    one(
        &with_type("!pto.tile_buf<vec, 4x16x16xf32>"),
        "compact tile_buf expects exactly two shape dims, found 3",
        1,
        Code::InvalidType,
    );
    one(
        &with_type("!pto.tile_buf<vec, ?x16xf32>"),
        "compact tile_buf shape must be static",
        1,
        Code::InvalidType,
    );
    one(
        &with_type("!pto.vreg<?xf32>"),
        "!pto.vreg length must be static",
        1,
        Code::InvalidType,
    );
    one(
        &with_type("u8"),
        "unknown type 'u8'; did you mean 'ui8'?",
        1,
        Code::InvalidType,
    );
    one(
        &with_type("half"),
        "did you mean 'f16'?",
        1,
        Code::InvalidType,
    );
    one("func.func @f() {\n  \"pto.tcvt\"(%a, %b, %c, %d) : (i32, i32, i32, i32) -> ()\n  return\n}\n", "'pto.tcvt' expects 2 or 3 operands, found 4", 2, Code::OpForm);
    one(
        &vcvt("{rnd = \"R\", rnd = \"Z\"}"),
        "duplicate attribute 'rnd'",
        2,
        Code::DuplicateAttribute,
    );
    one(
        "func.func @f() {\n  %c = arith.constant 99999999999999999999 : i64\n  return\n}\n",
        "integer literal out of range",
        2,
        Code::IntegerOutOfRange,
    );
    one(
        "func.func @f() {\n  %s = \"a\\q\"\n  return\n}\n",
        "invalid escape sequence '\\q' in string literal",
        2,
        Code::InvalidEscape,
    );
    let d = one("func.func @f() {\n  \"x.y\"() <{k = 1}> {k = 2} : () -> ()\n  %v = \"pto.vbr\"(%s) <{pto.k = 1}> {pto.k = 2} : (f32) -> !pto.vreg<64xf32>\n  return\n}\n", "duplicate attribute 'pto.k'", 3, Code::DuplicateAttribute);
    assert_eq!(d.labels[0].message, "first given here");
}

#[test]
fn syntax_error_at_eof_has_empty_span() {
    let src = "func.func @f() {\n  %c = arith.constant 1 : index\n";
    let d = one(src, "expected '}', found end of input", 3, Code::Syntax);
    assert_eq!(d.span.start, d.span.end);
    assert_eq!(d.span.start, src.len());
}

#[test]
fn expected_sets_are_sorted_and_joined() {
    let src = "func.func @f(%a: i32 %b: i32) {\n  return\n}\n";
    one(
        src,
        "expected ',' or ')', found value '%b'",
        1,
        Code::Syntax,
    );
}

#[test]
fn recovery_reports_several_errors_without_duplicates() {
    let src = "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {\n  %x = pto.tfoo %a, %b : !pto.tile<16x16xf32>\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.mask<b64>)\n  %m = pto.pset_b32 : !pto.mask<b32>\n  pto.vecscope {\n    %y = pto.vfoo %a\n  }\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)\n  return\n}\n";
    let ds = strict_diags(src);
    let lines: Vec<usize> = ds.iter().map(|d| line_of(src, d.span.start)).collect();
    assert_eq!(
        lines,
        vec![2, 3, 4, 6],
        "{:#?}",
        ds.iter().map(|d| d.message()).collect::<Vec<_>>()
    );
}

#[test]
fn too_many_errors_stops_at_fifty() {
    let mut src = String::from("func.func @f() {\n");
    for _ in 0..80 {
        src.push_str("  %x = pto.nope %y\n");
    }
    src.push_str("  return\n}\n");
    assert!(diags(&src).is_empty());
    let ds = strict_diags(&src);
    assert_eq!(ds.len(), 51);
    assert_eq!(ds.last().unwrap().message(), "too many errors; stopping");
    assert_eq!(ds.last().unwrap().code, Code::TooManyErrors);
}

#[test]
fn lexer_errors_do_not_stop_parsing() {
    let src = "func.func @f() {\n  %c = arith.constant 1 : index ~\n  %d = pto.nope\n  return\n}\n";
    let ds = strict_diags(src);
    assert_eq!(
        ds.len(),
        2,
        "{:?}",
        ds.iter().map(|d| d.message()).collect::<Vec<_>>()
    );
    assert_eq!(ds[0].message(), "unexpected character '~'");
    assert!(ds[1].message().starts_with("unknown operation 'pto.nope'"));
}

#[test]
fn multi_line_dps_error_gives_one_diagnostic() {
    let src = "func.func @f(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {\n  pto.tcvt ins(%s {rmode = #pto<round_mode BAD>}\n               : !pto.tile_buf<vec, 16x16xf32>)\n           outs(%d : !pto.tile_buf<vec, 16x16xf16>)\n  return\n}\n";
    one(
        src,
        "unknown round mode 'BAD'",
        2,
        Code::InvalidAttributeValue,
    );
}

#[test]
fn nested_and_several_top_level_modules_parse() {
    for src in [
        "module {\n  module {\n  }\n}\n",
        "module {\n}\nfunc.func @g()\n",
        "func.func @f() {\n  return\n}\nmodule {\n}\n",
        "module @a {\n}\nbuiltin.module @b attributes {pto.target_arch = \"a5\"} {\n}\n",
        "module {\n} loc(unknown)\n",
    ] {
        let ds = diags(src);
        assert!(ds.is_empty(), "{src:?}: {ds:#?}");
    }
}

#[test]
fn missing_return_is_reported_per_function() {
    let src = "func.func @a(%x: !pto.mask<b64>) {\n  return\n}\nfunc.func @b() {\n  %c = arith.constant 1 : index\n}\n";
    let ds = diags(src);
    let got: Vec<(usize, String)> = ds
        .iter()
        .map(|d| (line_of(src, d.span.start), d.message()))
        .collect();
    assert_eq!(got.len(), 2, "{got:#?}");
    assert_eq!(
        got[1],
        (6, "function body must end with 'return'".to_string())
    );
}
