//! `diag/` is the bottom of the house (issue 22 item 4): it knows spans, codes, line numbers and
//! rendering, and imports no stage. Each stage maps its own errors into diagnostics
//! (`impl From<ItsError> for DiagKind` beside the error type). This test scans the source of
//! `compiler/src/diag/` and fails on any path into a stage module.

use std::path::{Path, PathBuf};

/// The modules above `diag` (everything in `lib.rs` except `diag` itself).
const STAGES: &[&str] = &[
    "front", "interp", "lower", "verify", "exec", "driver", "cli", "ir", "target", "fuzzing",
];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
}

/// Every stage named after `crate::` in `text`, directly (`crate::front::...`) or in a group
/// (`crate::{front, ...}`), and every `super::super` (a way out of `diag/` without `crate`).
fn stage_paths(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (at, _) in text.match_indices("crate::") {
        let rest = &text[at + "crate::".len()..];
        let names: Vec<&str> = if let Some(group) = rest.strip_prefix('{') {
            let end = group.find('}').unwrap_or(group.len());
            group[..end]
                .split(',')
                .map(|s| s.trim().split("::").next().unwrap_or(""))
                .collect()
        } else {
            let end = rest
                .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            vec![&rest[..end]]
        };
        found.extend(
            names
                .into_iter()
                .filter(|n| STAGES.contains(n))
                .map(|n| format!("crate::{n}")),
        );
    }
    if text.contains("super::super") {
        found.push("super::super".to_string());
    }
    found
}

#[test]
fn the_scan_sees_every_form() {
    assert_eq!(
        stage_paths("use crate::front::lexer::LexError;"),
        ["crate::front"]
    );
    assert_eq!(
        stage_paths("use crate::{diag::Span, driver::LazyLines};"),
        ["crate::driver"]
    );
    assert_eq!(stage_paths("x(crate::interp::E)"), ["crate::interp"]);
    assert!(stage_paths("use crate::diag::Code; use super::clip;").is_empty());
}

#[test]
fn diag_imports_no_stage() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/diag");
    let mut files = Vec::new();
    rust_files(&dir, &mut files);
    files.sort();
    assert!(files.len() >= 5, "{files:?}");
    let mut bad = Vec::new();
    for file in &files {
        let text =
            std::fs::read_to_string(file).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
        for path in stage_paths(&text) {
            bad.push(format!("{}: {path}", file.display()));
        }
    }
    assert!(
        bad.is_empty(),
        "diag/ must not depend on a stage; map the stage's errors in the stage instead:\n{}",
        bad.join("\n")
    );
}
