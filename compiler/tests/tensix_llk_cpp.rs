//! The llk emitter is tested for real (issue: "compile the emitted file with the system g++"):
//! a test-only header turns every `TTI_*` macro into a recorded instruction (mnemonic and its
//! arguments in TTI order), the emitted C++ is compiled with g++, `init_` and
//! `calculate_<false, 3>` run, and the recorded stream must equal the asm output's instructions
//! (init, three body runs, drain) — the SFPLOADMACRO form by default and the plain program with
//! `-DDISABLE_SFPLOADMACRO` (plain kernels give the plain stream both ways).
//! One kernel per rule and arch. Under CI (`CI` set) a missing g++ fails the test.

use std::fmt::Write as _;
use std::process::Command;

use pto_runtime::tensix::isa::{Arch, Mod0, OPS};
use ptoc::lower::tensix::builder::Line;
use ptoc::lower::tensix::emit::llk::{emit, kernel_name, macro_args};
use ptoc::lower::tensix::{lower_combo, Combo, TensixKernel};

const RUNS: usize = 3;

/// The recording header: InstrModLoadStore and ADDR_MOD_n constants, one macro per mnemonic.
fn record_header() -> String {
    let mut h = String::from("#include <cstdio>\n#include <initializer_list>\n");
    h.push_str("namespace InstrModLoadStore { enum : long {");
    for m in Mod0::ALL {
        if let Some(n) = m.llk_name() {
            let _ = write!(h, " {n} = {},", m.bits());
        }
    }
    h.push_str(" }; }\n");
    for i in 0..8 {
        let _ = writeln!(h, "constexpr long ADDR_MOD_{i} = {i};");
    }
    h.push_str(
        "static void rec(const char* m, std::initializer_list<long> a) {\n  std::printf(\"%s\", m);\n  \
         for (long v : a) std::printf(\" %ld\", v);\n  std::printf(\"\\n\");\n}\n",
    );
    for op in OPS {
        let name = match op.mnemonic {
            "sfpstochrnd" => "SFP_STOCH_RND".to_string(),
            m => m.to_ascii_uppercase(),
        };
        if op.operands.is_empty() {
            let _ = writeln!(h, "#define TTI_{name} rec(\"{}\", {{}})", op.mnemonic);
        } else {
            let _ = writeln!(
                h,
                "#define TTI_{name}(...) rec(\"{}\", {{__VA_ARGS__}})",
                op.mnemonic
            );
        }
    }
    h
}

/// The instruction stream of the plain program, or of the macro form when `macro_path`.
fn expected_stream(k: &TensixKernel, macro_path: bool, runs: usize) -> String {
    let line = |l: &Line| {
        let mut s = l.insn.info().mnemonic.to_string();
        for v in macro_args(&l.insn) {
            let _ = write!(s, " {v}");
        }
        s.push('\n');
        s
    };
    let (init, body, drain) = match (&k.macro_form, macro_path) {
        (Some(m), true) => (&m.init, &m.body, &m.drain),
        _ => (&k.init, &k.body, &k.drain),
    };
    let mut s: String = init.iter().map(line).collect();
    for _ in 0..runs {
        s.extend(body.iter().map(line));
    }
    s.extend(drain.iter().map(line));
    s
}

/// Compiles `src` (with `define`) in `dir` and returns what the program recorded.
fn compile_and_run(dir: &std::path::Path, name: &str, src: &str, define: Option<&str>) -> String {
    let cpp = dir.join(format!("{name}.cpp"));
    std::fs::write(&cpp, src).expect("write cpp");
    let exe = dir.join(format!(
        "{name}{}",
        if define.is_some() { "_plain" } else { "" }
    ));
    let mut cmd = Command::new("g++");
    cmd.args(["-std=c++17", "-O0", "-Wall", "-Werror", "-o"])
        .arg(&exe)
        .arg(&cpp);
    if let Some(d) = define {
        cmd.arg(d);
    }
    let out = cmd.output().expect("run g++");
    assert!(
        out.status.success(),
        "{name}: g++ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let run = Command::new(&exe).output().expect("run kernel");
    assert!(run.status.success());
    String::from_utf8_lossy(&run.stdout).into_owned()
}

/// A scratch directory holding the recording header, or `None` (skip) without g++ outside CI.
fn scratch(tag: &str) -> Option<std::path::PathBuf> {
    if Command::new("g++").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "g++ is required under CI");
        eprintln!("skipping: no g++");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("ptoc-llk-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    std::fs::write(dir.join("record.h"), record_header()).expect("header");
    Some(dir)
}

/// vcvt programs: `calculate_<false>()` converts one register (no ITERATIONS loop).
#[test]
fn emitted_vcvt_llk_replays_the_asm_stream() {
    use ptoc::lower::tensix::vcvt::{all_vcvt, lower_vcvt};
    let Some(dir) = scratch("vcvt") else {
        return;
    };
    let mut checked = 0;
    for arch in [Arch::Bh, Arch::Wh] {
        // One program per element family and placement kind (equal, narrowing, widening).
        let mut seen = Vec::new();
        for v in all_vcvt() {
            let s = v.shape();
            let key = (
                ptoc::lower::tensix::Family::of(v.elem.src, v.elem.dst),
                s.src_lanes.cmp(&s.dst_lanes),
            );
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let k = lower_vcvt(v, arch).expect("lowered");
            let name = kernel_name(&k);
            let src = format!(
                "#include \"record.h\"\n{}\nint main() {{ init_{name}(); calculate_{name}<false>(); return 0; }}\n",
                emit(&k)
            );
            let got = compile_and_run(&dir, &name, &src, None);
            assert_eq!(got, expected_stream(&k, false, 1), "{}", v.describe());
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked >= 8, "{checked}");
}

#[test]
fn emitted_llk_compiles_and_replays_the_asm_stream() {
    let Some(dir) = scratch("tcvt") else {
        return;
    };
    let mut rules_seen = Vec::new();
    let mut checked = 0;
    for arch in [Arch::Bh, Arch::Wh] {
        for combo in Combo::all() {
            let Ok(k) = lower_combo(combo, arch) else {
                continue;
            };
            let has_macro = k.macro_form.is_some();
            if rules_seen.contains(&(k.rule, arch, has_macro)) {
                continue;
            }
            rules_seen.push((k.rule, arch, has_macro));
            let name = kernel_name(&k);
            let src = format!(
                "#include \"record.h\"\n{}\nint main() {{ init_{name}(); calculate_{name}<false, {RUNS}>(); return 0; }}\n",
                emit(&k)
            );
            for define in [None, Some("-DDISABLE_SFPLOADMACRO")] {
                let got = compile_and_run(&dir, &name, &src, define);
                assert_eq!(
                    got,
                    expected_stream(&k, define.is_none(), RUNS),
                    "{} ({arch:?}, {define:?}): recorded TTI stream differs from the asm",
                    combo.describe()
                );
                checked += 1;
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 0);
}
