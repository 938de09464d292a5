//! The driver pipeline end to end (syntax.md §8, D-6, D-27): split chunks keep original spans,
//! no verification after parse errors, profile choice, `format_file`, invalid UTF-8.

use ptoc::diag::Code;
use ptoc::driver::{check_file, format_file, match_directives, Options, TargetChoice};
use ptoc::front::InputFormat;
use ptoc::target::Profile;

fn opts(target: TargetChoice, split: bool) -> Options {
    Options {
        target,
        split_input: split,
        format: InputFormat::Pto,
        parse_only: false,
        strict_ops: false,
        pto_level: Default::default(),
        defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
    }
}

const TWO_CHUNKS: &str = "\
func.func @ok(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {
  pto.tcvt ins(%a : !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)
  return
}
// -----
func.func @bad() {
  %r = pto.tfoo %x, %y : !pto.tile<8x8xf32>
  return
}
";

/// `--strict-ops`: the custom form of an unknown op (`pto.tfoo`) is a parse error (E0008).
fn strict(target: TargetChoice, split: bool) -> Options {
    Options {
        strict_ops: true,
        pto_level: Default::default(),
        defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
        ..opts(target, split)
    }
}

#[test]
fn chunks_keep_original_spans_and_skip_verification_after_parse_errors() {
    let r = check_file(TWO_CHUNKS.as_bytes(), &strict(TargetChoice::Auto, true));
    assert_eq!(r.chunks.len(), 2);
    let second = TWO_CHUNKS.find("func.func @bad").expect("fixture");
    assert_eq!(r.chunks[1].range.start, second);
    assert_eq!(
        r.chunks[0].range.end,
        TWO_CHUNKS.find("// -----").expect("fixture")
    );
    let first = &r.chunks[0];
    assert!(!first.parse_failed(), "{:?}", first.parse_diagnostics);
    assert_eq!(first.verified.len(), 1);
    assert_eq!(first.verified[0].profile, Profile::Cpu);
    let bad = &r.chunks[1];
    assert!(bad.parse_failed());
    // spec: D-27
    assert!(bad.verified.is_empty());
    let d = bad
        .parse_diagnostics
        .iter()
        .find(|d| d.code == Code::UnknownOperation)
        .expect("unknown custom op diagnosed");
    assert_eq!(&TWO_CHUNKS[d.span.range()][..8], "pto.tfoo");
    assert!(r.has_errors());
}

#[test]
fn profile_choice() {
    let text = |arch: &str| {
        format!(
            "module attributes {{pto.target_arch = \"{arch}\"}} {{\n  func.func @f() {{\n    return\n  }}\n}}\n"
        )
    };
    let profiles = |src: &str, t: TargetChoice| -> Vec<Profile> {
        let r = check_file(src.as_bytes(), &opts(t, false));
        r.chunks[0].verified.iter().map(|v| v.profile).collect()
    };
    assert_eq!(profiles(&text("a5"), TargetChoice::Auto), vec![Profile::A5]);
    assert_eq!(
        profiles(&text("a2"), TargetChoice::Auto),
        vec![Profile::A2a3]
    );
    assert_eq!(
        profiles(&text("a3"), TargetChoice::Auto),
        vec![Profile::A2a3]
    );
    assert_eq!(
        profiles(&text("cpu"), TargetChoice::Auto),
        vec![Profile::Cpu]
    );
    assert_eq!(
        profiles("func.func @f() {\n  return\n}\n", TargetChoice::Auto),
        vec![Profile::Cpu]
    );
    assert_eq!(
        profiles(&text("a5"), TargetChoice::Profile(Profile::Cpu)),
        vec![Profile::Cpu]
    );
    assert_eq!(
        profiles(&text("a5"), TargetChoice::All),
        vec![Profile::Cpu, Profile::A2a3, Profile::A5]
    );
    // With all profiles verified, the auto profile is the primary one.
    let r = check_file(text("a5").as_bytes(), &opts(TargetChoice::All, false));
    assert_eq!(r.chunks[0].primary().map(|p| p.profile), Some(Profile::A5));
    // parse_only verifies nothing.
    let mut o = opts(TargetChoice::All, false);
    o.parse_only = true;
    let r = check_file(text("a5").as_bytes(), &o);
    assert!(r.chunks[0].verified.is_empty());
}

#[test]
fn format_file_joins_chunks_and_refuses_parse_errors() {
    let bad = format_file(b"\xff", &opts(TargetChoice::Auto, false));
    match bad {
        Err(f) => assert_eq!(f.file_diagnostics[0].code, Code::InvalidUtf8),
        Ok(text) => panic!("invalid UTF-8 formatted as {text:?}"),
    }
    let src = "func.func @a() {\n  return\n}\n// -----\nmodule attributes {pto.target_arch = \"a5\"} {\n}\n";
    let out = format_file(src.as_bytes(), &opts(TargetChoice::Auto, true));
    assert_eq!(
        out.ok().as_deref(),
        Some(
            "module {\n  func.func @a() {\n    return\n  }\n}\n// -----\nmodule attributes {pto.target_arch = \"a5\"} {\n}\n"
        )
    );
    // Without the flag the marker is a comment: several top-level items, printed as written.
    let out = format_file(src.as_bytes(), &opts(TargetChoice::Auto, false));
    assert_eq!(
        out.ok().as_deref(),
        Some(
            "func.func @a() {\n  return\n}\n\nmodule attributes {pto.target_arch = \"a5\"} {\n}\n"
        )
    );
    assert!(format_file(TWO_CHUNKS.as_bytes(), &opts(TargetChoice::Auto, true)).is_err());
}

#[test]
fn verify_diagnostics_end_to_end() {
    let src = "\
func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>) {
  // expected-error@+1 {{use of undefined value '%ghost'}}
  \"test.use\"(%ghost) : (index) -> ()
  return
}
// -----
func.func @g() {
  // expected-error@+1 {{unknown operation 'pto.tfoo' in custom form}}
  %r = pto.tfoo %a, %b : !pto.tile<8x8xf32>
  return
}
";
    let r = check_file(src.as_bytes(), &strict(TargetChoice::Auto, true));
    let failures: Vec<String> = match_directives(&r).iter().map(|d| d.message()).collect();
    assert!(failures.is_empty(), "{failures:?}");
    // A directive whose text is not in the message: a miss plus an unexpected error.
    let wrong = src.replace("'%ghost'", "'%spook'");
    let r = check_file(wrong.as_bytes(), &strict(TargetChoice::Auto, true));
    let codes: Vec<Code> = match_directives(&r).iter().map(|d| d.code).collect();
    assert_eq!(
        codes,
        vec![Code::ExpectedNotProduced, Code::UnexpectedDiagnostic]
    );
}

/// D-6 with nested modules: without `--target` each op is verified on the profile of its nearest
/// module with a `pto.target_arch` (f32 -> f8E4M3FN exists on a5, not on a2a3); `--target`
/// overrides every module.
#[test]
fn each_op_is_verified_on_its_modules_profile() {
    let tcvt = "func.func @k(%x: !pto.tile_buf<vec, 32x32xf32>, %y: !pto.tile_buf<vec, 32x32xf8E4M3FN>) {\n  pto.tcvt ins(%x : !pto.tile_buf<vec, 32x32xf32>) outs(%y : !pto.tile_buf<vec, 32x32xf8E4M3FN>)\n  return\n}\n";
    let src = format!(
        "module attributes {{pto.target_arch = \"a5\"}} {{\n{tcvt}module {{\n{tcvt}}}\n}}\nmodule attributes {{pto.target_arch = \"a3\"}} {{\n{tcvt}}}\n"
    );
    let errors = |t: TargetChoice| -> Vec<usize> {
        let r = check_file(src.as_bytes(), &opts(t, false));
        assert!(
            !r.chunks[0].parse_failed(),
            "{:?}",
            r.chunks[0].parse_diagnostics
        );
        r.chunks[0]
            .diagnostics()
            .filter(|d| d.is_error())
            .map(|d| src[..d.span.start].matches('\n').count() + 1)
            .collect()
    };
    // The a3 module's tcvt only (line 15); the inner module inherits a5.
    assert_eq!(errors(TargetChoice::Auto), vec![15]);
    assert_eq!(
        errors(TargetChoice::Profile(Profile::A5)),
        Vec::<usize>::new()
    );
    assert_eq!(errors(TargetChoice::Profile(Profile::A2a3)), vec![3, 8, 15]);
    // Functions in nested modules are found by symbol (`ptoc run`).
    let r = check_file(src.as_bytes(), &opts(TargetChoice::Auto, false));
    let m = r.chunks[0].module.as_ref().unwrap();
    assert_eq!(ptoc::interp::function_names(m), ["k", "k", "k"]);
    let f = ptoc::interp::find_function(m, "k").unwrap();
    assert_eq!(
        ptoc::driver::profile_of_op(TargetChoice::Auto, m, f),
        Profile::A5
    );
}
