//! Structural verifier on parsed text: the front end binds names without scoping judgement, and
//! `verify::structure` decides (syntax.md §2, D-4). Each case checks the exact messages and the
//! line of each primary span.

use ptoc::diag::{Code, Diagnostic};
use ptoc::front::{parse_module, InputFormat};
use ptoc::verify::structure;

/// Parses `text` (which must parse cleanly) and returns the structural diagnostics as
/// `(line, code, message)`.
fn check(text: &str) -> Vec<(usize, Code, String)> {
    let parsed = parse_module(text, 0, InputFormat::Pto);
    let errors: Vec<String> = parsed.diagnostics.iter().map(Diagnostic::message).collect();
    assert!(errors.is_empty(), "parse errors: {errors:?}");
    let module = parsed.module.expect("module");
    let mut diags = Vec::new();
    structure::check(&module, &mut diags);
    diags
        .iter()
        .map(|d| {
            let line = text[..d.span.start.min(text.len())].matches('\n').count() + 1;
            (line, d.code, d.message())
        })
        .collect()
}

fn msgs(v: &[(usize, Code, String)]) -> Vec<(usize, &str)> {
    v.iter().map(|(l, _, m)| (*l, m.as_str())).collect()
}

#[test]
fn value_from_vecscope_is_invisible_after_it() {
    let text = r#"func.func @f() {
  pto.vecscope {
    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
  }
  "test.use"(%m) : (!pto.mask<b32>) -> ()
  return
}
"#;
    assert_eq!(msgs(&check(text)), [(5, "use of undefined value '%m'")]);
}

#[test]
fn outer_values_are_visible_inside_regions() {
    let text = r#"func.func @f(%n: i32) {
  %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
  pto.vecscope {
    "test.use"(%m, %n) : (!pto.mask<b32>, i32) -> ()
  }
  return
}
"#;
    assert_eq!(msgs(&check(text)), []);
}

#[test]
fn forward_reference_is_undefined() {
    let text = r#"func.func @f() {
  "test.use"(%later) : (i32) -> ()
  %later = "test.def"() : () -> i32
  return
}
"#;
    assert_eq!(msgs(&check(text)), [(2, "use of undefined value '%later'")]);
}

#[test]
fn redefinitions_and_duplicate_symbols() {
    let text = r#"func.func @f(%x: i32) {
  %x = "test.def"() : () -> i32
  return
}
func.func @f() {
  %x = "test.def"() : () -> i32
  return
}
"#;
    let got = check(text);
    assert_eq!(
        msgs(&got),
        [
            (5, "redefinition of symbol '@f'"),
            (2, "redefinition of value '%x'"),
        ]
    );
    assert!(got.iter().all(|(_, c, _)| *c == Code::Redefinition));
}

#[test]
fn sibling_regions_may_reuse_names() {
    let text = r#"func.func @f() {
  pto.vecscope {
    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
  }
  pto.vecscope {
    %m = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
    "test.use"(%m) : (!pto.mask<b32>) -> ()
  }
  return
}
"#;
    assert_eq!(msgs(&check(text)), []);
}

#[test]
fn result_number_out_of_range() {
    let text = r#"func.func @f(%n: i32) {
  %p:2 = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32
  "test.use"(%p#1, %p#2) : (i32, i32) -> ()
  return
}
"#;
    assert_eq!(msgs(&check(text)), [(3, "'%p' has only 2 results")]);
}

#[test]
fn operand_types_compare_after_normalisation() {
    // The legacy keyed spelling and the compact one are the same type.
    let text = r#"func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%a : !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16, v_row=16, v_col=16, blayout=row_major, slayout=none_box, fractal=512, pad=0>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xbf16>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  return
}
"#;
    let got = check(text);
    assert_eq!(
        msgs(&got),
        [(
            3,
            "type mismatch for '%a': defined as !pto.tile_buf<vec, 16x16xf32>, used as !pto.tile_buf<vec, 16x16xbf16>"
        )]
    );
    assert_eq!(got[0].1, Code::OperandTypeMismatch);
}

#[test]
fn return_against_signature() {
    let text = r#"func.func @f(%a: f32) -> (f32, f32) {
  return %a : f32
}
func.func @g(%a: f32) -> i32 {
  return %a : f32
}
"#;
    assert_eq!(
        msgs(&check(text)),
        [
            (
                2,
                "'return' has 1 operand but the function returns 2 values"
            ),
            (
                5,
                "type of 'return' operand #0 ('%a') is f32, but the function returns i32"
            ),
        ]
    );
}

#[test]
fn each_module_is_a_symbol_table_and_a_namespace() {
    // @f twice in different modules is fine; @g twice in one module is not, nor is @m twice
    // at the top level. A module body does not see the values of the module around it.
    let text = r#"module @m {
  func.func @f() {
    return
  }
  func.func @g() {
    return
  }
  func.func @g() {
    return
  }
}
module @m {
  func.func @f() {
    return
  }
  %c = arith.constant 1 : index
  module {
    "test.use"(%c) : (index) -> ()
  }
}
"#;
    let got = check(text);
    assert_eq!(
        msgs(&got),
        [
            (8, "redefinition of symbol '@g'"),
            (12, "redefinition of symbol '@m'"),
            (18, "use of undefined value '%c'"),
        ]
    );
}
