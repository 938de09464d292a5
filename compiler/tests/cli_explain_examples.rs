//! Every `ptoc explain` example is true: run through the driver (`check_file`, and for the
//! `--verify-diagnostics` codes E05xx also `match_directives`), it produces the code it explains.
//!
//! Conventions of the examples, which this test follows: an example that starts with
//! `// a .ptoasm file` is read in assembly mode; one containing a `// -----` line is read with
//! `--split-input-file`; the E0002 example spells its Latin-1 byte as the text `\xE9`, which is
//! replaced by that byte; the E0016 example's last line is repeated the 60 times its first line
//! says; one starting with `// ptoc verify --pto-level=level3` is verified at that level (E0211);
//! x07xx examples go through `lower::tensix::lower_file` (the `ptoc lower` path). The
//! interpreter codes (E0401, E0402, E0403, E0404) cannot be produced by `verify`;
//! their explanations must say so instead.

use ptoc::diag::explain::explanation;
use ptoc::diag::{Code, Diagnostic};
use ptoc::driver::{check_file, match_directives, Options, TargetChoice};
use ptoc::front::InputFormat;

const INTERPRETER_ONLY: &[&str] = &["E0401", "E0402", "E0403", "E0404"];
/// Tensix lowering codes are produced by `lower::tensix::lower_file` (the `ptoc lower` path);
/// E0703 (a failed proof) only by a defective kernel and E0701 (no rule) by no input while every
/// carried combination has a rule, so their explanations must say that the verifier never
/// produces them.
/// E08xx are runtime errors of tool runs (`sim`, `cast`, `prove`) on files and listings.
const NOT_FROM_INPUT: &[&str] = &["E0701", "E0703", "E0801", "E0802", "E0803", "E0804"];

/// The codes produced by running `example` the way the test conventions say, as `(code, message)`.
fn produced(code: Code, example: &str) -> Vec<(Code, String)> {
    let bytes: Vec<u8> = if code == Code::InvalidUtf8 {
        let mut b = Vec::new();
        let mut rest = example;
        while let Some(i) = rest.find("\\xE9") {
            b.extend_from_slice(&rest.as_bytes()[..i]);
            b.push(0xE9);
            rest = &rest[i + 4..];
        }
        b.extend_from_slice(rest.as_bytes());
        b
    } else if code == Code::TooManyErrors {
        assert!(
            example.starts_with("// a file of 60 copies of the next line"),
            "{example}"
        );
        let last = example.lines().last().unwrap_or("");
        format!("{last}\n").repeat(60).into_bytes()
    } else {
        example.as_bytes().to_vec()
    };
    let format = if example.starts_with("// a .ptoasm file") {
        InputFormat::PtoAsm
    } else {
        InputFormat::Pto
    };
    let opts = Options {
        target: TargetChoice::Auto,
        split_input: example.lines().any(|l| l.trim_end() == "// -----"),
        format,
        parse_only: false,
        // E0008 exists only under --strict-ops (syntax.md §2.1).
        strict_ops: code == Code::UnknownOperation,
        // E0211 exists only at --pto-level=level3 (memory planning skipped).
        pto_level: if example.starts_with("// ptoc verify --pto-level=level3") {
            ptoc::target::PtoLevel::Level3
        } else {
            Default::default()
        },
        // W0208 exists only when no toolchain was chosen.
        defaults: None,
    };
    if code.as_str()[1..].starts_with("07") {
        let lowered = ptoc::lower::tensix::lower_file(
            &bytes,
            pto_runtime::tensix::isa::Arch::Bh,
            false,
            true,
            false,
        );
        return lowered
            .diagnostics
            .iter()
            .map(|d| (d.code, d.message()))
            .collect();
    }
    let file = check_file(&bytes, &opts);
    let mut diags: Vec<Diagnostic> = file.file_diagnostics.clone();
    diags.extend(file.chunks.iter().flat_map(|c| c.diagnostics()).cloned());
    if code.as_str().starts_with("E05") {
        diags = match_directives(&file);
    }
    diags.iter().map(|d| (d.code, d.message())).collect()
}

#[test]
fn every_example_produces_its_code() {
    let mut wrong = Vec::new();
    for &code in Code::ALL {
        let e = explanation(code);
        if INTERPRETER_ONLY.contains(&code.as_str()) {
            if !(e.description.contains("interpreter") && e.description.contains("verify")) {
                wrong.push(format!(
                    "{}: an interpreter-only code must say that `verify` does not produce it: {}",
                    code.as_str(),
                    e.description
                ));
            }
            continue;
        }
        if NOT_FROM_INPUT.contains(&code.as_str()) {
            if !e.description.contains("the verifier never produces it") {
                wrong.push(format!(
                    "{code} must say that the verifier never produces it"
                ));
            }
            continue;
        }
        let got = produced(code, e.example);
        if !got.iter().any(|(c, _)| *c == code) {
            wrong.push(format!(
                "{} {}: example\n{}\nproduced {:?}",
                code.as_str(),
                code.name(),
                e.example,
                got
            ));
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n\n"));
}

#[test]
fn interpreter_codes_are_exactly_e04xx() {
    let e04: Vec<&str> = Code::ALL
        .iter()
        .map(|c| c.as_str())
        .filter(|c| c.starts_with("E04"))
        .collect();
    assert_eq!(e04, INTERPRETER_ONLY);
}
