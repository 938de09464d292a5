//! Runs the lit suite (`tests/lit`) against the `ptoc` binary cargo just built.
//!
//! Uses `.venv/bin/lit` (made by `.ci/run`) or `lit` on PATH. When lit is missing the test fails
//! under CI (`CI` set) and otherwise passes with a loud skip notice, so `cargo test` works on a
//! machine without Python. lit's summary is printed; any failing lit test fails this test.
//!
//! Also checks the printer's fixed-point guarantee (syntax.md §7.5) over every positive input
//! (`.pto`/`.ptoasm` under `tests/` and `examples/` without `expected-*` directives); every file of
//! `examples/` and `tests/lit/roundtrip/` must format, so a printer or parser regression there fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

fn find_lit(root: &Path) -> Option<PathBuf> {
    let venv = root.join(".venv").join("bin").join("lit");
    if venv.is_file() {
        return Some(venv);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join("lit"))
        .find(|p| p.is_file())
}

#[test]
fn lit_suite() {
    let root = workspace_root();
    let Some(lit) = find_lit(&root) else {
        let msg = "lit not found (.venv/bin/lit or PATH): run `bash .ci/run` once, or \
                   `python3 -m venv .venv && .venv/bin/pip install -r tests/lit/requirements.txt`";
        if std::env::var_os("CI").is_some() {
            panic!("{msg}");
        }
        eprintln!("\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
        eprintln!("!!! SKIPPED the lit suite: {msg}");
        eprintln!("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
        return;
    };
    let ptoc = env!("CARGO_BIN_EXE_ptoc");
    let out = Command::new(&lit)
        .arg("-sv")
        .arg(root.join("tests").join("lit"))
        .env("PTOC_BIN", ptoc)
        .env("NO_COLOR", "1")
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) => panic!("cannot run {}: {e}", lit.display()),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    // `-sv` prints details of failures only, then the summary. The full output goes through the test
    // harness (shown on failure); the summary is written to stderr directly, bypassing the capture,
    // so that it appears in every CI log.
    println!("{stdout}");
    eprintln!("{stderr}");
    let summary: String = stdout
        .lines()
        .skip_while(|l| !l.starts_with("Total Discovered Tests"))
        .map(|l| format!("lit: {l}\n"))
        .collect();
    let _ = std::io::stderr().write_all(summary.as_bytes());
    assert!(
        out.status.success(),
        "lit reported failures (exit {:?}); see the output above",
        out.status.code()
    );
}

/// Every `.pto`/`.ptoasm` file under `tests/` and `examples/`.
fn inputs(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            inputs(&path, out);
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("pto" | "ptoasm")
        ) {
            out.push(path);
        }
    }
}

fn fmt(file: &Path) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptoc"))
        .args(["fmt", "--split-input-file"])
        .arg(file)
        .env("NO_COLOR", "1")
        .output();
    match out {
        Ok(o) => (
            o.status.success(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        ),
        Err(e) => panic!("cannot run ptoc: {e}"),
    }
}

/// The inputs that must format: every `.pto`/`.ptoasm` file in `examples/` and `tests/lit/roundtrip/`
/// (their `Inputs/` hold expected outputs, not inputs).
fn must_format(root: &Path, file: &Path) -> bool {
    [
        root.join("examples"),
        root.join("tests").join("lit").join("roundtrip"),
    ]
    .iter()
    .any(|dir| file.parent() == Some(dir.as_path()))
}

/// syntax.md §7.5 (D-26) on every positive input of the repository: every file of `examples/` and
/// `tests/lit/roundtrip/` formats without errors (a failure fails the test), and for those and every
/// other file without `expected-*` directives that formats without errors, the output `p1` formats
/// without errors and formatting it again gives `p1` byte for byte.
#[test]
fn fmt_is_a_fixed_point_on_every_positive_input() {
    let root = workspace_root();
    let mut files = Vec::new();
    inputs(&root.join("tests"), &mut files);
    inputs(&root.join("examples"), &mut files);
    files.sort();
    let scratch = std::env::temp_dir().join(format!("ptoc-fixpoint-{}", std::process::id()));
    if let Err(e) = std::fs::create_dir_all(&scratch) {
        panic!("cannot create {}: {e}", scratch.display());
    }
    let mut checked = 0;
    let mut failures = Vec::new();
    let mut mandatory = 0;
    for (i, file) in files.iter().enumerate() {
        let required = must_format(&root, file);
        mandatory += usize::from(required);
        let text = match std::fs::read(file) {
            Ok(text) => text,
            Err(e) => {
                failures.push(format!("{}: unreadable: {e}", file.display()));
                continue;
            }
        };
        if !required && String::from_utf8_lossy(&text).contains("expected-") {
            continue;
        }
        let (ok, p1, err1) = fmt(file);
        if !ok {
            if required {
                failures.push(format!("{}: ptoc fmt fails:\n{err1}", file.display()));
            }
            continue; // otherwise: not an error-free input
        }
        let tmp = scratch.join(format!("{i}.pto"));
        if let Err(e) = std::fs::write(&tmp, &p1) {
            panic!("cannot write {}: {e}", tmp.display());
        }
        let (ok2, p2, err2) = fmt(&tmp);
        checked += 1;
        if !ok2 {
            failures.push(format!(
                "{}: formatted output does not parse:\n{err2}",
                file.display()
            ));
        } else if p2 != p1 {
            failures.push(format!("{}: fmt(fmt(x)) != fmt(x)", file.display()));
        }
    }
    let _ = std::fs::remove_dir_all(&scratch);
    let _ = writeln!(
        std::io::stderr(),
        "fixpoint: {checked} positive inputs checked, {} failed",
        failures.len()
    );
    assert!(checked > 0, "no positive inputs found");
    // examples/ has 6 files and tests/lit/roundtrip/ 8 at the time of writing.
    assert!(
        mandatory >= 10,
        "only {mandatory} files found in examples/ and tests/lit/roundtrip/"
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
