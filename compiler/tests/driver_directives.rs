//! `--verify-diagnostics` matching (syntax.md §8.3) on hand-made results, independent of the
//! parser and verifier: target lines, severities, substrings, notes, one-to-one matching, split
//! chunks and the profile whose diagnostics take part.

use ptoc::diag::{Code, DiagKind, Diagnostic, Severity, Span};
use ptoc::driver::{match_directives, split_chunks, ChunkResult, FileResult, ProfileResult};
use ptoc::ir::{Attr, Module};
use ptoc::target::Profile;

/// A diagnostic with `message` starting at the first occurrence of `at` in `text`.
fn diag(text: &str, at: &str, sev: Severity, message: &str) -> Diagnostic {
    let start = text.find(at).expect("anchor present in test text");
    Diagnostic::new(
        Code::Syntax,
        DiagKind::Directive(message.to_string()),
        Span::new(start, start + at.len()),
    )
    .with_severity(sev)
}

/// One-chunk (or split) file whose chunks report `parse` diagnostics.
fn file(text: &str, split: bool, parse: Vec<Vec<Diagnostic>>) -> FileResult {
    let chunks = split_chunks(text, split)
        .into_iter()
        .zip(parse)
        .map(|(range, diags)| ChunkResult {
            range,
            module: Some(Module::new()),
            parse_diagnostics: diags,
            verified: Vec::new(),
        })
        .collect();
    FileResult {
        text: text.to_string().into(),
        chunks,
        file_diagnostics: Vec::new(),
    }
}

fn messages(diags: &[Diagnostic]) -> Vec<(Code, String)> {
    diags.iter().map(|d| (d.code, d.message())).collect()
}

#[test]
fn same_line_and_relative_targets_match() {
    let text = "bad thing // expected-error {{bad}}\n\
                // expected-warning@+1 {{careful}}\n\
                warn here\n\
                // expected-remark@below {{fyi}}\n\
                remark here\n\
                note here\n\
                // expected-note@above {{see}}\n";
    let f = file(
        text,
        false,
        vec![vec![
            diag(text, "bad thing", Severity::Error, "a bad thing happened"),
            diag(text, "warn here", Severity::Warning, "be careful"),
            diag(text, "remark here", Severity::Remark, "fyi: x"),
            diag(text, "note here", Severity::Note, "see this"),
        ]],
    );
    assert_eq!(messages(&match_directives(&f)), vec![]);
}

#[test]
fn misses_and_extras_are_reported_where_they_are() {
    let text = "x\n// expected-error@-1 {{wanted}}\ny\n";
    let f = file(
        text,
        false,
        vec![vec![diag(text, "y", Severity::Error, "something else")]],
    );
    let out = match_directives(&f);
    assert_eq!(
        messages(&out),
        vec![
            (
                Code::ExpectedNotProduced,
                "expected error \"wanted\" was not produced".to_string()
            ),
            (
                Code::UnexpectedDiagnostic,
                "unexpected error: something else".to_string()
            ),
        ]
    );
    // The miss sits at the directive, the extra at the diagnostic.
    assert_eq!(&text[out[0].span.range()], "expected-error@-1 {{wanted}}");
    assert_eq!(&text[out[1].span.range()], "y");
}

#[test]
fn severity_and_case_must_match() {
    let text = "x // expected-warning {{Boom}}\n";
    let f = file(
        text,
        false,
        vec![vec![diag(text, "x", Severity::Error, "Boom")]],
    );
    assert_eq!(match_directives(&f).len(), 2);
    let text = "x // expected-error {{boom}}\n";
    let f = file(
        text,
        false,
        vec![vec![diag(text, "x", Severity::Error, "Boom")]],
    );
    assert_eq!(match_directives(&f).len(), 2);
}

#[test]
fn matching_is_one_to_one() {
    let text = "x // expected-error {{dup}}\n";
    let d = diag(text, "x", Severity::Error, "dup");
    let f = file(text, false, vec![vec![d.clone(), d]]);
    assert_eq!(
        messages(&match_directives(&f)),
        vec![(
            Code::UnexpectedDiagnostic,
            "unexpected error: dup".to_string()
        )]
    );
    let text = "x // expected-error {{dup}}\n// expected-error@-1 {{dup}}\n";
    let d = diag(text, "x", Severity::Error, "dup");
    let f = file(text, false, vec![vec![d.clone(), d]]);
    assert!(match_directives(&f).is_empty());
}

#[test]
fn notes_are_separate_diagnostics() {
    let text = "x // expected-error {{parent}}\n\
                // expected-note@-1 {{spanless}}\n\
                there\n\
                // expected-note@-1 {{spanned}}\n";
    let there = text.find("there").expect("anchor");
    let d = diag(text, "x", Severity::Error, "parent")
        .with_note("spanless note", None)
        .with_note("spanned note", Some(Span::new(there, there + 5)));
    let f = file(text, false, vec![vec![d.clone()]]);
    assert!(match_directives(&f).is_empty());
    // Without the note directives, both notes are unexpected.
    let text2 = text.replace("expected-note", "xxxxxxxx-note");
    let f = file(&text2, false, vec![vec![d]]);
    let got = messages(&match_directives(&f));
    assert_eq!(
        got,
        vec![
            (
                Code::UnexpectedDiagnostic,
                "unexpected note: spanless note".to_string()
            ),
            (
                Code::UnexpectedDiagnostic,
                "unexpected note: spanned note".to_string()
            ),
        ]
    );
}

#[test]
fn directives_are_scoped_to_their_chunk() {
    let text = "a\n// expected-error@+2 {{later}}\n// -----\nb\n";
    let f = file(
        text,
        true,
        vec![vec![], vec![diag(text, "b", Severity::Error, "later")]],
    );
    let got = messages(&match_directives(&f));
    assert_eq!(
        got,
        vec![
            (
                Code::DirectiveOutsideChunk,
                "expected-error directive targets line 4, outside its split chunk".to_string()
            ),
            (
                Code::UnexpectedDiagnostic,
                "unexpected error: later".to_string()
            ),
        ]
    );
    // Without splitting, the same directive reaches line 4.
    let f = file(
        text,
        false,
        vec![vec![diag(text, "b", Severity::Error, "later")]],
    );
    assert!(match_directives(&f).is_empty());
}

#[test]
fn the_auto_profile_counts_when_all_are_verified() {
    let text = "x // expected-error {{a5 only}}\n";
    let mut module = Module::new();
    module
        .attrs
        .insert("pto.target_arch".into(), Attr::Str("a5".into()));
    let per_profile = |p: Profile| ProfileResult {
        profile: p,
        diagnostics: if p == Profile::A5 {
            vec![diag(text, "x", Severity::Error, "a5 only")]
        } else {
            vec![diag(text, "x", Severity::Error, "not a5")]
        },
    };
    let f = FileResult {
        text: text.to_string().into(),
        chunks: vec![ChunkResult {
            range: 0..text.len(),
            module: Some(module),
            parse_diagnostics: Vec::new(),
            verified: Profile::ALL.into_iter().map(per_profile).collect(),
        }],
        file_diagnostics: Vec::new(),
    };
    assert!(match_directives(&f).is_empty());
}

#[test]
fn file_level_diagnostics_are_unexpected() {
    let f = ptoc::driver::check_file(
        b"\xC3\x28",
        &ptoc::driver::Options {
            target: ptoc::driver::TargetChoice::Auto,
            split_input: false,
            format: ptoc::front::InputFormat::Pto,
            parse_only: false,
            strict_ops: false,
            pto_level: Default::default(),
            defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
        },
    );
    assert_eq!(
        messages(&match_directives(&f)),
        vec![(
            Code::UnexpectedDiagnostic,
            "unexpected error: input is not valid UTF-8".to_string()
        )]
    );
}
