//! Structural errors taint only the ops they are found on: the target rules still run on every
//! other tcvt/vcvt of the module, so one run reports all errors of a file.

use ptoc::diag::Diagnostic;
use ptoc::front::{parse_module, InputFormat};
use ptoc::ir::{Module, OpKind};
use ptoc::target::Profile;
use ptoc::verify::{structure, verify_module};

fn parse(text: &str) -> Module {
    let parsed = parse_module(text, 0, InputFormat::Pto);
    let errors: Vec<String> = parsed.diagnostics.iter().map(Diagnostic::message).collect();
    assert!(errors.is_empty(), "parse errors: {errors:?}");
    parsed.module.expect("module")
}

/// `(line, code)` of every error of `verify_module`, in order.
fn errors(text: &str, profile: Profile) -> Vec<(usize, &'static str)> {
    verify_module(&parse(text), profile)
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let line = text[..d.span.start.min(text.len())].matches('\n').count() + 1;
            (line, d.code.as_str())
        })
        .collect()
}

/// An E0105 in `@f` (whose written types would also mismatch in shape) and an E0205 in `@g`.
const F_AND_G: &str = r#"func.func @f(%t: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%t : !pto.tile_buf<vec, 8x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
  return
}
func.func @g(%s: !pto.tile_buf<vec, 16x16xf32>, %e: !pto.tile_buf<vec, 16x32xf16>) {
  pto.tcvt ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%e : !pto.tile_buf<vec, 16x32xf16>)
  return
}
"#;

#[test]
fn structure_error_in_f_does_not_hide_rule_error_in_g() {
    for p in Profile::ALL {
        // The mistyped tcvt of @f is skipped (its written shapes would give E0205 on line 2);
        // @g's default valid shapes do not add E0206.
        assert_eq!(errors(F_AND_G, p), vec![(2, "E0105"), (6, "E0205")], "{p}");
    }
}

#[test]
fn tainted_ops_are_exactly_the_ops_with_errors() {
    let m = parse(F_AND_G);
    let mut diags = Vec::new();
    let tainted = structure::check_tainted(&m, &mut diags);
    assert_eq!(diags.len(), 1);
    let tcvts: Vec<_> = m
        .walk()
        .into_iter()
        .filter(|op| matches!(m.ops[op.0 as usize].kind, OpKind::Tcvt(_)))
        .collect();
    assert_eq!(tcvts.len(), 2);
    assert!(tainted.contains(&tcvts[0]));
    assert!(!tainted.contains(&tcvts[1]));
    assert_eq!(tainted.len(), 1);
    // The compatible entry point reports the same diagnostics.
    let mut again = Vec::new();
    structure::check(&m, &mut again);
    assert_eq!(again, diags);
}

#[test]
fn undefined_operand_and_redefinition_taint_only_their_op() {
    // Line 2: undefined %x (its tcvt would be a pair error on a2a3: f32 -> fp4). Line 3: an SSA
    // tcvt redefining %s (same pair). Line 4: a clean op with the unsupported pair.
    let text = r#"func.func @h(%s: !pto.tile<vec, 16x16xf32>, %u: !pto.tile<vec, 16x16xf32>, %q: !pto.tile_buf<vec, 16x8x!pto.f4E2M1x2>) {
  pto.tcvt ins(%x : !pto.tile_buf<vec, 16x16xf32>) outs(%q : !pto.tile_buf<vec, 16x8x!pto.f4E2M1x2>)
  %s = pto.tcvt %s : !pto.tile<vec, 16x16xf32> -> !pto.tile<vec, 16x8x!pto.f4E2M1x2>
  %y = pto.tcvt %u : !pto.tile<vec, 16x16xf32> -> !pto.tile<vec, 16x8x!pto.f4E2M1x2>
  return
}
"#;
    let e = errors(text, Profile::A2a3);
    assert_eq!(
        e,
        vec![(2, "E0101"), (3, "E0102"), (4, "E0207")],
        "{:?}",
        verify_module(&parse(text), Profile::A2a3)
            .iter()
            .map(|d| d.message())
            .collect::<Vec<_>>()
    );
    // A clean module taints nothing.
    let clean = "func.func @k(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {\n  pto.tcvt ins(%s : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)\n  return\n}\n";
    let mut diags = Vec::new();
    assert!(structure::check_tainted(&parse(clean), &mut diags).is_empty());
    assert!(diags.is_empty());
}

/// The two-thread verifier (large modules) gives the one-thread verifier's diagnostics, in the
/// same order, on every `.pto` of the lit suite and the examples (valid files, rule errors,
/// structural errors and both mixed), on every profile.
#[test]
fn two_thread_verify_equals_one_thread_verify() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    let mut dirs = vec![root.join("tests/lit"), root.join("examples")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir)
            .expect("readable test dir")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pto") {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 50, "found only {} .pto files", files.len());
    let mut with_errors = 0;
    for path in &files {
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let parsed = parse_module(&text, 0, InputFormat::Pto);
        let Some(m) = parsed.module else { continue };
        for p in Profile::ALL {
            let one = ptoc::verify::verify_one_thread(&m, &|_| p);
            let two = ptoc::verify::verify_two_threads(&m, &|_| p);
            with_errors += usize::from(one.iter().any(|d| d.is_error()));
            assert_eq!(one, two, "{} on {p}", path.display());
        }
    }
    assert!(
        with_errors > 20,
        "only {with_errors} runs with errors: the test would be weak"
    );
}

/// The same on a module large enough that both threads take several runs of ops of the rules
/// (`rules::check_shared`): rule errors, structural errors and valid ops interleaved over
/// ~30,000 ops must come out in one-thread order on every profile.
#[test]
fn two_thread_verify_equals_one_thread_verify_on_a_large_module() {
    let h = "!pto.tile_buf<vec, 16x16xf16>";
    let b = "!pto.tile_buf<vec, 16x16xbf16>";
    let f = "!pto.tile_buf<vec, 16x16xf32>";
    let mut text = format!("module {{\n  func.func @f(%h: {h}, %b: {b}, %f: {f}) {{\n");
    for i in 0..30_000 {
        let line = match i % 13 {
            // f16 -> bf16: a rule error on a2a3 and a5
            0 | 5 => format!("    pto.tcvt ins(%h : {h}) outs(%b : {b})\n"),
            // an undefined operand: a structural error that taints the op
            7 => format!("    pto.tcvt ins(%u{i} : {h}) outs(%b : {b})\n"),
            // a written type that is not the value's: structural
            11 => format!("    pto.tcvt ins(%h : {f}) outs(%b : {b})\n"),
            _ => format!("    pto.tcvt ins(%f : {f}) outs(%h : {h})\n"),
        };
        text.push_str(&line);
    }
    text.push_str("    return\n  }\n}\n");
    let parsed = parse_module(&text, 0, InputFormat::Pto);
    assert!(
        parsed.diagnostics.is_empty(),
        "{:?}",
        parsed.diagnostics.first()
    );
    let m = parsed.module.expect("module");
    let mut rule_errors = 0;
    for p in Profile::ALL {
        let one = ptoc::verify::verify_one_thread(&m, &|_| p);
        let two = ptoc::verify::verify_two_threads(&m, &|_| p);
        rule_errors += one
            .iter()
            .filter(|d| d.code.as_str().starts_with("E02"))
            .count();
        assert_eq!(one.len(), two.len(), "on {p}");
        assert!(one == two, "on {p}: the two-thread diagnostics differ");
    }
    assert!(
        rule_errors > 4000,
        "only {rule_errors} rule errors: the test would be weak"
    );
}
