//! Runs the lit suite (`tests/lit`) against the `ptoc` binary cargo just built.
//!
//! Uses `.venv/bin/lit` (made by `.ci/run`) or `lit` on PATH. When lit is missing the test fails
//! under CI (`CI` set) and otherwise passes with a loud skip notice, so `cargo test` works on a
//! machine without Python. lit's summary is printed; any failing lit test fails this test.
//!
//! Also checks the printer's fixed-point guarantee (syntax.md §7.5) over every positive input
//! (`.pto`/`.ptoasm` under `tests/` and `examples/` without `expected-*` directives).

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

/// syntax.md §7.5 (D-26) on every positive input of the repository: for each file without
/// `expected-*` directives that formats without errors, the output `p1` formats without errors and
/// formatting it again gives `p1` byte for byte.
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
    for (i, file) in files.iter().enumerate() {
        let text = std::fs::read(file).unwrap_or_default();
        if String::from_utf8_lossy(&text).contains("expected-") {
            continue;
        }
        let (ok, p1, _) = fmt(file);
        if !ok {
            continue; // not an error-free input
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
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
