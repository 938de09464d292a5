//! The `ptoc` binary against the CLI contract: exit codes (0/1/2), stdin, JSON shape, the
//! `--target all` summary, `--verify-diagnostics`, `fmt` and `explain`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

use ptoc::diag::Code;

fn ptoc() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_ptoc"));
    c.env("NO_COLOR", "1");
    c
}

/// Writes `text` to a fresh file in a per-test directory; returns its path.
fn file(test: &str, name: &str, text: &[u8]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ptoc-cli-{}-{test}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// `args` with `--defaults pto-isa` after a `verify`/`run` subcommand: these tests are about
/// other things, and their tcvts omit satmode (W0208 has its own tests).
fn with_defaults<'a>(args: &[&'a str]) -> Vec<&'a str> {
    let mut v = args.to_vec();
    if matches!(v.first(), Some(&"verify") | Some(&"run")) {
        v.splice(1..1, ["--defaults", "pto-isa"]);
    }
    v
}

fn run(args: &[&str]) -> Output {
    ptoc().args(with_defaults(args)).output().unwrap()
}

fn run_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut child = ptoc()
        .args(with_defaults(args))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

const GOOD: &str =
    "func.func @ok(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  return
}
";

const UNDEFINED: &str = "func.func @bad(%b: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%ghost : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  return
}
";

#[test]
fn usage_errors_exit_2() {
    let o = run(&[]);
    assert_eq!(o.status.code(), Some(2), "{}", err(&o));
    let o = run(&["verify", "--target", "a7", "x.pto"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(err(&o).contains("a7"), "{}", err(&o));
    let o = run(&["verify", "--error-format", "xml", "x.pto"]);
    assert_eq!(o.status.code(), Some(2));
    let o = run(&["frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn help_exits_0_on_stdout() {
    let o = run(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    assert!(out(&o).contains("verify"), "{}", out(&o));
}

#[test]
fn missing_file_is_an_io_error() {
    let o = run(&["verify", "/nonexistent/dir/none.pto"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        err(&o).contains("cannot read '/nonexistent/dir/none.pto'"),
        "{}",
        err(&o)
    );
    let o = run(&["fmt", "/nonexistent/dir/none.pto"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn target_aliases_are_accepted() {
    let p = file("aliases", "good.pto", GOOD.as_bytes());
    for t in ["cpu", "a2a3", "a2", "a3", "a5"] {
        let o = run(&["verify", "--target", t, p.to_str().unwrap()]);
        assert_ne!(o.status.code(), Some(2), "--target {t}: {}", err(&o));
    }
}

#[test]
fn good_file_exits_0_silently() {
    let p = file("good", "good.pto", GOOD.as_bytes());
    let o = run(&["verify", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "");
}

#[test]
fn undefined_value_human_on_stderr() {
    let o = run_stdin(&["verify", "-"], UNDEFINED.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(
        e.starts_with("error[E0101]: use of undefined value '%ghost'\n"),
        "{e}"
    );
    assert!(e.contains("<stdin>:2:16"), "{e}");
    assert!(!e.contains('\x1b'), "colour under NO_COLOR: {e}");
    assert_eq!(out(&o), "");
}

#[test]
fn json_shape_on_stdout() {
    let p = file("json", "bad.pto", UNDEFINED.as_bytes());
    let o = run(&["verify", "--error-format", "json", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert_eq!(ds.len(), 1, "{v}");
    let d = &ds[0];
    assert_eq!(d["severity"], "error");
    assert_eq!(d["code"], "E0101");
    assert_eq!(d["name"], "undefined-value");
    assert_eq!(d["message"], "use of undefined value '%ghost'");
    assert_eq!(d["file"], p.to_str().unwrap());
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(16))
    );
    let start = UNDEFINED.find("%ghost").unwrap() as u64;
    assert_eq!(d["span"]["start"].as_u64(), Some(start));
    assert_eq!(d["span"]["end"].as_u64(), Some(start + 6));
    assert!(d["labels"].is_array() && d["notes"].is_array());
    assert!(d.get("help").is_some());
    assert_eq!(err(&o), "");
}

#[test]
fn all_diagnostics_are_shown_sorted() {
    let text = "func.func @two(%b: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%g2 : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  pto.tcvt ins(%g1 : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  return
}
";
    let o = run_stdin(&["verify", "--error-format", "json", "-"], text.as_bytes());
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let msgs: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["message"].as_str().unwrap())
        .collect();
    assert_eq!(
        msgs,
        [
            "use of undefined value '%g2'",
            "use of undefined value '%g1'"
        ]
    );
}

#[test]
fn invalid_utf8_is_exit_1_not_io_error() {
    let o = run_stdin(&["verify", "-"], b"module {\n// caf\xE9\n}\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("input is not valid UTF-8"), "{}", err(&o));
}

#[test]
fn target_all_summary() {
    let p = file("all", "good.pto", GOOD.as_bytes());
    let o = run(&["verify", "--target", "all", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", out(&o));
    assert_eq!(out(&o), "cpu: accepted\na2a3: accepted\na5: accepted\n");
    assert_eq!(err(&o), "");

    let o = run_stdin(&["verify", "--target", "all", "-"], UNDEFINED.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let line = "  error[E0101] <stdin>:2:16: use of undefined value '%ghost'\n";
    assert_eq!(
        out(&o),
        format!("cpu: rejected\n{line}a2a3: rejected\n{line}a5: rejected\n{line}")
    );
    assert_eq!(err(&o), "", "diagnostics are not rendered separately");
}

#[test]
fn target_all_with_split_input() {
    let text = format!("{GOOD}// -----\n{UNDEFINED}");
    let o = run_stdin(
        &["verify", "--target", "all", "--split-input-file", "-"],
        text.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let s = out(&o);
    assert!(
        s.starts_with(
            "chunk 1:\ncpu: accepted\na2a3: accepted\na5: accepted\nchunk 2:\ncpu: rejected\n"
        ),
        "{s}"
    );
}

#[test]
fn verify_diagnostics_directives() {
    let ok = "func.func @bad(%b: !pto.tile_buf<vec, 16x16xf16>) {
  // expected-error@+1 {{use of undefined value '%ghost'}}
  pto.tcvt ins(%ghost : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
  return
}
";
    let o = run_stdin(&["verify", "--verify-diagnostics", "-"], ok.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "");

    let wrong = ok.replace("'%ghost'", "'%spook'");
    let o = run_stdin(&["verify", "--verify-diagnostics", "-"], wrong.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    let e = err(&o);
    assert!(e.contains("was not produced"), "{e}");
    assert!(
        e.contains("unexpected error: use of undefined value '%ghost'"),
        "{e}"
    );
}

#[test]
fn fmt_prints_canonical_text_or_fails() {
    let p = file("fmt", "good.pto", GOOD.as_bytes());
    let o = run(&["fmt", p.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).starts_with("module {\n"), "{}", out(&o));

    let o = run_stdin(&["fmt", "-"], b"func.func @f( {\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("error[E"), "{}", err(&o));
    assert_eq!(out(&o), "");
}

#[test]
fn explain_every_code_by_code_and_name() {
    for &c in Code::ALL {
        for key in [c.as_str().to_string(), c.name().to_string()] {
            let o = run(&["explain", &key]);
            assert_eq!(o.status.code(), Some(0), "{key}");
            let s = out(&o);
            assert!(
                s.starts_with(&format!("{} {}", c.as_str(), c.name())),
                "{s}"
            );
            assert!(s.contains("Example:\n\n    "), "{s}");
        }
    }
}

#[test]
fn explain_unknown_code_exits_2_and_lists_codes() {
    let o = run(&["explain", "E9999"]);
    assert_eq!(o.status.code(), Some(2));
    let e = err(&o);
    assert!(e.contains("unknown diagnostic code 'E9999'"), "{e}");
    assert!(e.contains("E0207  tcvt-pair-unsupported"), "{e}");
}

const PAIR_ASM: &str = ".func @pair
PTO.vcvt v2, v0, vmask, NONE, SAT, EVEN : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>
";

#[test]
fn input_format_by_extension_or_flag() {
    let asm = file("asm", "pair.ptoasm", PAIR_ASM.as_bytes());
    let o = run(&["verify", asm.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));

    // Same text, other extension: read as .pto, so it fails to parse ...
    let txt = file("asm", "pair.txt", PAIR_ASM.as_bytes());
    let o = run(&["verify", txt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    // ... unless the flag says otherwise.
    let o = run(&["verify", "--input-format", "ptoasm", txt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let o = run(&["fmt", "--input-format=ptoasm", txt.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert!(out(&o).contains("pto.vcvt %v0, %vmask"), "{}", out(&o));
}

#[test]
fn fmt_joins_split_chunks() {
    let o = run_stdin(
        &["fmt", "--split-input-file", "-"],
        b"module {\n}\n// -----\nmodule {\n}\n",
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(out(&o), "module {\n}\n// -----\nmodule {\n}\n");
}

const I32_TO_F16_A5: &str = "module attributes {pto.target_arch = \"a5\"} {
  func.func @deq(%a: !pto.tile_buf<vec, 16x16xi32>, %b: !pto.tile_buf<vec, 16x16xf16>) {
    pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xi32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)
    return
  }
}
";

#[test]
fn target_all_reports_each_profile() {
    let o = run_stdin(
        &["verify", "--target", "all", "-"],
        I32_TO_F16_A5.as_bytes(),
    );
    assert_eq!(
        o.status.code(),
        Some(0),
        "some profile accepts: {}",
        out(&o)
    );
    assert_eq!(
        out(&o),
        "cpu: accepted\na2a3: accepted\na5: rejected\n  error[E0207] <stdin>:3:5: tcvt from i32 to f16 is not supported on a5\n"
    );
}

#[test]
fn target_all_json() {
    let o = run_stdin(
        &["verify", "--target", "all", "--error-format", "json", "-"],
        I32_TO_F16_A5.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    assert_eq!(err(&o), "");
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let profiles = v["profiles"].as_array().unwrap();
    let names: Vec<&str> = profiles
        .iter()
        .map(|p| p["profile"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["cpu", "a2a3", "a5"]);
    let accepted: Vec<bool> = profiles
        .iter()
        .map(|p| p["accepted"].as_bool().unwrap())
        .collect();
    assert_eq!(accepted, [true, true, false]);
    assert_eq!(profiles[0]["diagnostics"], serde_json::json!([]));
    // The a5 diagnostics are exactly the objects `--target a5 --error-format json` prints.
    let single = run_stdin(
        &["verify", "--target", "a5", "--error-format", "json", "-"],
        I32_TO_F16_A5.as_bytes(),
    );
    let single: serde_json::Value = serde_json::from_str(&out(&single)).unwrap();
    assert_eq!(profiles[2]["diagnostics"], single["diagnostics"]);
    let d = &profiles[2]["diagnostics"][0];
    assert_eq!(d["code"], "E0207");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(3), Some(5))
    );

    // No profile accepts a parse error: exit 1, the error under every profile.
    let o = run_stdin(
        &["verify", "--target", "all", "--error-format", "json", "-"],
        UNDEFINED.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    for p in v["profiles"].as_array().unwrap() {
        assert_eq!(p["accepted"], false);
        assert_eq!(p["diagnostics"][0]["code"], "E0101");
    }
}

#[test]
fn target_all_json_with_split_input() {
    let text = format!("{GOOD}// -----\n{I32_TO_F16_A5}");
    let o = run_stdin(
        &[
            "verify",
            "--target",
            "all",
            "--error-format",
            "json",
            "--split-input-file",
            "-",
        ],
        text.as_bytes(),
    );
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let chunks = v["chunks"].as_array().unwrap();
    assert_eq!(chunks.len(), 2);
    for (i, c) in chunks.iter().enumerate() {
        assert_eq!(c["chunk"].as_u64(), Some(i as u64 + 1));
        assert_eq!(c["profiles"].as_array().unwrap().len(), 3);
    }
    assert_eq!(chunks[0]["profiles"][2]["accepted"], true);
    assert_eq!(chunks[1]["profiles"][2]["accepted"], false);
    // Lines count in the whole file: chunk 2 starts on line 6, its tcvt is on line 8.
    assert_eq!(
        chunks[1]["profiles"][2]["diagnostics"][0]["line"].as_u64(),
        Some(8)
    );
}

#[test]
fn target_flag_overrides_target_arch() {
    let o = run_stdin(&["verify", "-"], I32_TO_F16_A5.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).starts_with("error[E0207]"), "{}", err(&o));
    for t in ["cpu", "a2", "a3", "a2a3"] {
        let o = run_stdin(&["verify", "--target", t, "-"], I32_TO_F16_A5.as_bytes());
        assert_eq!(o.status.code(), Some(0), "--target {t}: {}", err(&o));
    }
}

#[test]
fn fmt_fails_on_structural_errors_but_not_on_rule_errors() {
    let o = run_stdin(&["fmt", "-"], UNDEFINED.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).starts_with("error[E0101]: use of undefined value '%ghost'"),
        "{}",
        err(&o)
    );
    assert_eq!(out(&o), "");
    // A target-rule error is not fmt's business.
    let o = run_stdin(&["fmt", "-"], I32_TO_F16_A5.as_bytes());
    assert_eq!(o.status.code(), Some(0), "{}", err(&o));
}

#[test]
fn invalid_utf8_json_has_line_and_column() {
    let o = run_stdin(
        &["verify", "--error-format", "json", "-"],
        b"func.func @f() {\n  // caf\xE9\n  return\n}\n",
    );
    assert_eq!(o.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_str(&out(&o)).unwrap();
    let d = &v["diagnostics"][0];
    assert_eq!(d["code"], "E0002");
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(2), Some(9))
    );
}

/// A file of at least `driver::MAP_MIN` bytes is mapped, not read (`driver::SourceText`): the
/// diagnostics, JSON and `fmt` output are those of the same bytes read from stdin, for an error
/// on the last line and for invalid UTF-8 near the end.
#[test]
fn large_mapped_file_reports_as_stdin() {
    let op = "  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>) {rmode = #pto<round_mode RINT>}\n";
    let head =
        "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {\n";
    let min = ptoc::driver::MAP_MIN as usize;
    let mut text = String::with_capacity(min + 4096);
    text.push_str(head);
    while text.len() < min + 1024 {
        text.push_str(op);
    }
    let good = format!("{text}  return\n}}\n");
    let bad = format!("{text}{}  return\n}}\n", op.replace("RINT", "BOGUS"));
    let mut not_utf8 = good.clone().into_bytes();
    let at = not_utf8.len() - 20;
    not_utf8[at] = 0xff;
    for (name, bytes) in [
        ("good.pto", good.as_bytes()),
        ("bad.pto", bad.as_bytes()),
        ("notutf8.pto", &not_utf8[..]),
    ] {
        assert!(bytes.len() as u64 >= ptoc::driver::MAP_MIN);
        let p = file("mapped", name, bytes);
        let path = p.to_str().unwrap();
        for args in [
            &["verify", "--target", "cpu"][..],
            &["verify", "--target", "cpu", "--error-format", "json"],
            &["fmt"],
        ] {
            let mapped = run(&[args, &[path]].concat());
            let read = run_stdin(&[args, &["-"]].concat(), bytes);
            let unname = |s: String| s.replace(path, "<stdin>");
            assert_eq!(mapped.status.code(), read.status.code(), "{name} {args:?}");
            assert_eq!(unname(err(&mapped)), err(&read), "{name} {args:?}");
            assert_eq!(unname(out(&mapped)), out(&read), "{name} {args:?}");
        }
        let o = run(&["verify", "--target", "cpu", path]);
        let want = if name == "good.pto" { Some(0) } else { Some(1) };
        assert_eq!(o.status.code(), want, "{name}: {}", err(&o));
    }
}
