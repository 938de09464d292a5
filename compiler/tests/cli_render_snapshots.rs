//! Snapshots of the human rendering (no colour, file name as given) of one representative
//! diagnostic per phase: lexical, syntax with a context label, structure with a secondary label,
//! a rule error with help, a warning and a note. Each test first asserts that the expected code
//! is produced, so a snapshot can never bless the wrong diagnostic. Bless with
//! `cargo insta review` or `INSTA_UPDATE=always`.

use ptoc::diag::render::render_human;
use ptoc::diag::{Code, DiagKind, Diagnostic, Span};
use ptoc::driver::{check_file, Options, TargetChoice};
use ptoc::front::InputFormat;
use ptoc::target::Profile;

fn render(text: &str, target: TargetChoice, expect: Code) -> String {
    let opts = Options {
        target,
        split_input: false,
        format: InputFormat::Pto,
        parse_only: false,
        strict_ops: false,
        pto_level: Default::default(),
        defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
    };
    let file = check_file(text.as_bytes(), &opts);
    let diags: Vec<Diagnostic> = file
        .file_diagnostics
        .iter()
        .chain(file.chunks.iter().flat_map(|c| c.diagnostics()))
        .cloned()
        .collect();
    assert!(
        diags.iter().any(|d| d.code == expect),
        "expected {expect:?}, got {:?}",
        diags
            .iter()
            .map(|d| (d.code, d.message()))
            .collect::<Vec<_>>()
    );
    render_human(&diags, "input.pto", &file.text, false)
}

#[test]
fn lexical_unterminated_string() {
    let text = "func.func @f() {\n  %m = pto.pset_b32 \"PAT_ALL : !pto.mask<b32>\n  return\n}\n";
    insta::assert_snapshot!(render(text, TargetChoice::Auto, Code::UnterminatedString));
}

#[test]
fn syntax_with_context_label() {
    let text = "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>)\n  return\n}\n";
    insta::assert_snapshot!(render(text, TargetChoice::Auto, Code::Syntax));
}

#[test]
fn structure_redefinition_with_label() {
    let text = "func.func @f(%x: !pto.tile_buf<vec, 8x8xf32>) {\n  %x = pto.alloc_tile : !pto.tile_buf<vec, 8x8xf32>\n  return\n}\n";
    insta::assert_snapshot!(render(text, TargetChoice::Auto, Code::Redefinition));
}

#[test]
fn rule_error_with_help() {
    let text = "func.func @f(%a: !pto.tile_buf<vec, 16x16xf16>, %b: !pto.tile_buf<vec, 16x16xf8E4M3FN>) {\n  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf16>) outs(%b : !pto.tile_buf<vec, 16x16xf8E4M3FN>)\n  return\n}\n";
    insta::assert_snapshot!(render(
        text,
        TargetChoice::Profile(Profile::A5),
        Code::TcvtPairUnsupported
    ));
}

#[test]
fn warning_rmode_forced() {
    let text = "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8x!pto.hif8>) {\n  pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8x!pto.hif8>)\n  return\n}\n";
    insta::assert_snapshot!(render(
        text,
        TargetChoice::Profile(Profile::A5),
        Code::TcvtRmodeForced
    ));
}

#[test]
fn note_tmp_unused() {
    let text = "func.func @f(%a: !pto.tile_buf<vec, 8x64xf32>, %t: !pto.tile_buf<vec, 8x64xi32>, %b: !pto.tile_buf<vec, 8x64xf16>) {\n  pto.tcvt ins(%a, %t : !pto.tile_buf<vec, 8x64xf32>, !pto.tile_buf<vec, 8x64xi32>) outs(%b : !pto.tile_buf<vec, 8x64xf16>)\n  return\n}\n";
    insta::assert_snapshot!(render(
        text,
        TargetChoice::Profile(Profile::A5),
        Code::TcvtTmpUnused
    ));
}

/// Every part of a diagnostic at once (labels, spanned and spanless notes, help), independent of
/// the other phases.
#[test]
fn handbuilt_all_parts() {
    let text = "module {\n  %x = \"test.a\"() : () -> f32\n  %x = \"test.b\"() : () -> f32\n}\n";
    let first = text.find("%x").unwrap();
    let second = text.rfind("%x").unwrap();
    let d = Diagnostic::new(
        Code::Redefinition,
        DiagKind::Directive("redefinition of value '%x'".into()),
        Span::new(second, second + 2),
    )
    .with_label(Span::new(first, first + 2), "defined here")
    .with_note("names are unique per function", None)
    .with_note("the first definition", Some(Span::new(first, first + 2)))
    .with_help("rename one of the two definitions");
    insta::assert_snapshot!(render_human(&[d], "dir/input.pto", text, false));
}
