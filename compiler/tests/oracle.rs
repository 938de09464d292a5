//! Runs the numpy / ml_dtypes differential oracle (`tests/oracle/cast_oracle.py`) against the
//! `ptoc` binary cargo just built (`ptoc cast`, profile cpu), bit for bit.
//!
//! Uses `<workspace>/.venv/bin/python` (made by `.ci/run` with `tests/oracle/requirements.txt`).
//! When the venv or numpy / ml_dtypes is missing the test fails under CI (`CI` set) and otherwise
//! passes with a loud skip notice, like `lit.rs`. Any mismatch, or a `ptoc cast` that cannot run,
//! fails the test; the script's report (first mismatches per combination) is shown.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// The venv's python if it can import the oracle's libraries, else why not.
fn oracle_python(root: &Path) -> Result<PathBuf, String> {
    let py = root.join(".venv").join("bin").join("python");
    if !py.is_file() {
        return Err(format!("{} not found", py.display()));
    }
    let probe = Command::new(&py)
        .args(["-c", "import numpy, ml_dtypes"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", py.display()))?;
    if !probe.status.success() {
        return Err(format!(
            "numpy / ml_dtypes missing in {}: {}",
            py.display(),
            String::from_utf8_lossy(&probe.stderr).trim()
        ));
    }
    Ok(py)
}

#[test]
fn cast_oracle_numpy_ml_dtypes() {
    let root = workspace_root();
    let py = match oracle_python(&root) {
        Ok(py) => py,
        Err(why) => {
            let msg = format!(
                "{why}: run `bash .ci/run` once, or `python3 -m venv .venv && \
                 .venv/bin/pip install -r tests/oracle/requirements.txt`"
            );
            if std::env::var_os("CI").is_some() {
                panic!("{msg}");
            }
            eprintln!("\n!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
            eprintln!("!!! SKIPPED the numpy/ml_dtypes cast oracle: {msg}");
            eprintln!("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!\n");
            return;
        }
    };
    let script = root.join("tests").join("oracle").join("cast_oracle.py");
    let out = Command::new(&py)
        .arg(&script)
        .env("PTOC_BIN", env!("CARGO_BIN_EXE_ptoc"))
        .env("NO_COLOR", "1")
        .output();
    let out = match out {
        Ok(out) => out,
        Err(e) => panic!("cannot run {} {}: {e}", py.display(), script.display()),
    };
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}");
    // The summary line goes straight to stderr so that it shows in every CI log.
    let summary: String = stdout
        .lines()
        .filter(|l| l.starts_with("cast_oracle:"))
        .map(|l| format!("{l}\n"))
        .collect();
    let _ = std::io::stderr().write_all(summary.as_bytes());
    eprintln!("{stderr}");
    assert!(
        out.status.success(),
        "cast oracle failed (exit {:?}); see the report above",
        out.status.code()
    );
}
