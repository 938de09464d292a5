//! The tt-llk headers ptoc emits, tested through tt-llk's own word arithmetic (issue 20).
//!
//! `tt_llk_stubs` writes a stand-in for the three tt-llk headers the emitted file includes
//! (`ckernel_ops.h`, `ckernel_addrmod.h`, `llk_defs.h`). Its `TT_OP_*` macros compute each
//! instruction word as tt-llk's do — `(opcode << 24) + ((arg << lo) + …)` on the raw arguments,
//! no masking — from a table written here from tt-llk's `ckernel_ops.h` (Blackhole and Wormhole
//! B0), independent of ptoc's ISA table; `TTI_*` records the word instead of emitting it. Every
//! rule's kernel, both archs, both paths (SFPLOADMACRO and `DISABLE_SFPLOADMACRO`), goes into one
//! header per arch, which a `main` includes on its own and drives: `init<false>()`,
//! `calculate<false, 8>()`, `calculate<false, 16>()`. Compiled with `-Wall -Wextra -Werror` as
//! C++17 and C++20. Then:
//!
//! (a) the recorded words equal ptoc's encoder on the kernel's sections (init, the body once per
//!     `rows` rows, drain);
//! Both I/O contracts are covered (`--abi tt-metal`, the `--emit llk` default, and `raw`).
//!
//! (b) the recorded words, decoded and run on ptoc's simulator, convert exactly the first 8 (or
//!     16) SFPU rows of a 16-row block to the reference result and leave the rest untouched,
//!     on the edge list plus random inputs (every input for sources of ≤ 16 bits), with every
//!     LReg in L0..L7 that the header does not list as init state clobbered between init and
//!     calculate;
//! (c) mutation: a masked negative immediate written back unmasked (`-31`) changes the words,
//!     so (a) would fail on it.
//!
//! Under CI (`CI` set) a missing g++ fails the test.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use pto_runtime::convert::Converter;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::io::{Abi, KERNEL_DEST, KERNEL_MOD0};
use pto_runtime::tensix::isa::{decode, encode, Arch, Insn, LoadIMod, Program, Reg};
use pto_runtime::tensix::sim::kernel::{run_kernel_batch, Kernel};
use pto_runtime::tensix::sim::{SimConfig, LANES};
use ptoc::lower::tensix::builder::Line;
use ptoc::lower::tensix::emit::llk::{emit_file, init_lregs, kernel_name};
use ptoc::lower::tensix::prove::{kernel_sim_config, sample_inputs};
use ptoc::lower::tensix::{lower_combo_for, Combo, TensixKernel};

/// How a TT_OP macro places its arguments: the shift of each, in argument order.
#[derive(Clone, Copy)]
enum Shape {
    /// `(imm12, lreg_c, lreg_dest, instr_mod1)`.
    Imm12,
    /// `(lreg_src_a, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)`.
    Abcd,
    /// `(imm16, lreg_dest / config_dest, instr_mod1)`.
    Imm16,
    /// `(lreg_ind, instr_mod0, sfpu_addr_mode, dest_reg_addr)`: addr mode at 13 (BH) / 14 (WH).
    LoadStore,
    /// `(lreg_ind, instr_mod0, imm16)`.
    LoadI,
    /// `(lreg_ind, instr_mod0, dest_reg_addr)`.
    Lut,
    /// `(lreg_src_c, lreg_dest, instr_mod1)`.
    Cast,
    /// `(lreg_dest, instr_mod1)`.
    LutFp32,
    /// `(rnd_mode, imm8, lreg_src_b, lreg_src_c, lreg_dest, instr_mod1)`.
    StochRnd,
    /// `(start_idx, len, execute_while_loading, load_mode)`.
    Replay,
}

impl Shape {
    fn shifts(self, arch: Arch) -> &'static [u32] {
        match self {
            Shape::Imm12 => &[12, 8, 4, 0],
            Shape::Abcd => &[16, 12, 8, 4, 0],
            Shape::Imm16 => &[8, 4, 0],
            Shape::LoadStore => match arch {
                Arch::Bh => &[20, 16, 13, 0],
                Arch::Wh => &[20, 16, 14, 0],
            },
            Shape::LoadI | Shape::Lut => &[20, 16, 0],
            Shape::Cast => &[8, 4, 0],
            Shape::LutFp32 => &[4, 0],
            Shape::StochRnd => &[21, 16, 12, 8, 4, 0],
            Shape::Replay => &[14, 4, 1, 0],
        }
    }
}

/// tt-llk's SFPU macros (ckernel_ops.h): name, opcode, shape, on Wormhole B0.
/// (All exist on Blackhole.)
const TT_OPS: &[(&str, u32, Shape, bool)] = &[
    ("REPLAY", 0x04, Shape::Replay, true),
    ("SFPLOAD", 0x70, Shape::LoadStore, true),
    ("SFPLOADI", 0x71, Shape::LoadI, true),
    ("SFPSTORE", 0x72, Shape::LoadStore, true),
    ("SFPLUT", 0x73, Shape::Lut, true),
    ("SFPMULI", 0x74, Shape::Imm16, true),
    ("SFPADDI", 0x75, Shape::Imm16, true),
    ("SFPDIVP2", 0x76, Shape::Imm12, true),
    ("SFPEXEXP", 0x77, Shape::Imm12, true),
    ("SFPEXMAN", 0x78, Shape::Imm12, true),
    ("SFPIADD", 0x79, Shape::Imm12, true),
    ("SFPSHFT", 0x7a, Shape::Imm12, true),
    ("SFPSETCC", 0x7b, Shape::Imm12, true),
    ("SFPMOV", 0x7c, Shape::Imm12, true),
    ("SFPABS", 0x7d, Shape::Imm12, true),
    ("SFPAND", 0x7e, Shape::Imm12, true),
    ("SFPOR", 0x7f, Shape::Imm12, true),
    ("SFPNOT", 0x80, Shape::Imm12, true),
    ("SFPLZ", 0x81, Shape::Imm12, true),
    ("SFPSETEXP", 0x82, Shape::Imm12, true),
    ("SFPSETMAN", 0x83, Shape::Imm12, true),
    ("SFPMAD", 0x84, Shape::Abcd, true),
    ("SFPADD", 0x85, Shape::Abcd, true),
    ("SFPMUL", 0x86, Shape::Abcd, true),
    ("SFPPUSHC", 0x87, Shape::Imm12, true),
    ("SFPPOPC", 0x88, Shape::Imm12, true),
    ("SFPSETSGN", 0x89, Shape::Imm12, true),
    ("SFPENCC", 0x8a, Shape::Imm12, true),
    ("SFPCOMPC", 0x8b, Shape::Imm12, true),
    ("SFPTRANSP", 0x8c, Shape::Imm12, true),
    ("SFPXOR", 0x8d, Shape::Imm12, true),
    ("SFP_STOCH_RND", 0x8e, Shape::StochRnd, true),
    ("SFPCAST", 0x90, Shape::Cast, true),
    ("SFPCONFIG", 0x91, Shape::Imm16, true),
    ("SFPSWAP", 0x92, Shape::Imm12, true),
    ("SFPLOADMACRO", 0x93, Shape::LoadStore, true),
    ("SFPSHFT2", 0x94, Shape::Imm12, true),
    ("SFPLUTFP32", 0x95, Shape::LutFp32, true),
    ("SFPLE", 0x96, Shape::Imm12, false),
    ("SFPGT", 0x97, Shape::Imm12, false),
    ("SFPMUL24", 0x98, Shape::Abcd, false),
    ("SFPARECIP", 0x99, Shape::Imm12, false),
];

/// The stand-in tt-llk headers for `arch`: name → text.
fn tt_llk_stubs(arch: Arch) -> Vec<(&'static str, String)> {
    let mut ops = String::from(
        "#pragma once\n#include <cstdint>\n#include <cstdio>\n\
         namespace ptoc_test {\n\
         inline void rec(std::uint32_t w) { std::printf(\"%08x\\n\", w); }\n\
         inline void mark(const char* m) { std::printf(\"%s\\n\", m); }\n\
         }\n\
         // tt-llk: the opcode in bits 31:24 plus the unmasked sum of the shifted arguments.\n\
         #define TT_OP(opcode, params) ((opcode << 24) + params)\n\
         #define TT_OP_SFPNOP TT_OP(0x8f, 0)\n\
         #define TTI_SFPNOP ::ptoc_test::rec(static_cast<std::uint32_t>(TT_OP_SFPNOP))\n",
    );
    for &(name, opcode, shape, on_wh) in TT_OPS {
        if arch == Arch::Wh && !on_wh {
            continue;
        }
        let shifts = shape.shifts(arch);
        let params: Vec<String> = (0..shifts.len()).map(|i| format!("a{i}")).collect();
        let sum: Vec<String> = shifts
            .iter()
            .enumerate()
            .map(|(i, s)| format!("((a{i}) << {s})"))
            .collect();
        let p = params.join(", ");
        let _ = writeln!(
            ops,
            "#define TT_OP_{name}({p}) TT_OP({opcode:#04x}, ({}))",
            sum.join(" + ")
        );
        let _ = writeln!(
            ops,
            "#define TTI_{name}({p}) ::ptoc_test::rec(static_cast<std::uint32_t>(TT_OP_{name}({p})))"
        );
    }
    let mut addrmod = String::from(
        "#pragma once\n#include <cstdint>\n#include \"ckernel_ops.h\"\nnamespace ckernel {\n",
    );
    for i in 0..8 {
        let _ = writeln!(addrmod, "constexpr std::uint8_t ADDR_MOD_{i} = {i};");
    }
    addrmod.push_str("}\n");
    // llk_defs.h: InstrModLoadStore as tt-llk numbers it.
    let defs = "#pragma once\n#include <cstdint>\nnamespace ckernel {\n\
                enum InstrModLoadStore { DEFAULT = 0, FP16A = 1, FP16B = 2, FP32 = 3, INT32 = 4, \
                INT8 = 5, LO16 = 6, HI16 = 7, INT32_2S_COMP = 12, INT8_2S_COMP = 13, \
                LO16_ONLY = 14, HI16_ONLY = 15 };\n}\n"
        .to_string();
    vec![
        ("ckernel_ops.h", ops),
        ("ckernel_addrmod.h", addrmod),
        ("llk_defs.h", defs),
    ]
}

/// One kernel per rule, SFPLOADMACRO presence and arch (every rule's header); under the
/// tt-metal contract also one per adapted type (ui16 / i8 on either side).
fn kernels_per_rule(arch: Arch, abi: Abi) -> Vec<TensixKernel> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for combo in Combo::all() {
        let Ok(k) = lower_combo_for(combo, arch, false, abi) else {
            continue;
        };
        let adapted =
            |t: ElemType| abi == Abi::TtMetal && matches!(t, ElemType::U16 | ElemType::I8);
        let key = (
            k.rule,
            k.macro_form.is_some(),
            adapted(combo.src).then_some(combo.src),
            adapted(combo.dst).then_some(combo.dst),
        );
        if !seen.contains(&key) {
            seen.push(key);
            out.push(k);
        }
    }
    out
}

/// The `main` that drives every kernel: a marker line, then the words of each call.
fn driver(kernels: &[TensixKernel]) -> String {
    let mut m = String::from("#include \"kernels.h\"\n\nint main() {\n");
    for k in kernels {
        let n = kernel_name(k);
        let _ = writeln!(m, "    ptoc_test::mark(\"K {n}\");");
        let _ = writeln!(
            m,
            "    ptoc_test::mark(\"init\");\n    ckernel::sfpu::init_{n}<false>();"
        );
        let _ = writeln!(
            m,
            "    ptoc_test::mark(\"calc8\");\n    ckernel::sfpu::calculate_{n}<false, 8>();"
        );
        let _ = writeln!(
            m,
            "    ptoc_test::mark(\"calc16\");\n    ckernel::sfpu::calculate_{n}<false, 16>();"
        );
    }
    m.push_str("    return 0;\n}\n");
    m
}

/// Recorded words: kernel name → section (`init`, `calc8`, `calc16`) → words.
type Recorded = BTreeMap<String, BTreeMap<String, Vec<u32>>>;

fn parse_recording(out: &str) -> Recorded {
    let mut rec = Recorded::new();
    let (mut kernel, mut section) = (String::new(), String::new());
    for line in out.lines() {
        if let Some(n) = line.strip_prefix("K ") {
            kernel = n.to_string();
        } else if matches!(line, "init" | "calc8" | "calc16") {
            section = line.to_string();
            rec.entry(kernel.clone())
                .or_default()
                .entry(section.clone())
                .or_default();
        } else {
            let w = u32::from_str_radix(line, 16).expect("recorded word");
            rec.entry(kernel.clone())
                .or_default()
                .entry(section.clone())
                .or_default()
                .push(w);
        }
    }
    rec
}

/// Compiles `dir/main.cpp` (`flags` added) and, when `run`, returns what it printed.
fn compile(dir: &Path, std: &str, flags: &[&str], run: bool) -> Result<String, String> {
    let exe = dir.join(format!("main_{}", std.replace(['+', '='], "")));
    let mut cmd = Command::new("g++");
    cmd.arg(format!("-std={std}"))
        .args(["-O0", "-I"])
        .arg(dir)
        .args(flags)
        .arg(dir.join("main.cpp"))
        .arg("-o")
        .arg(&exe);
    let out = cmd.output().map_err(|e| format!("g++: {e}"))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).into_owned());
    }
    if !out.stderr.is_empty() {
        return Err(format!(
            "g++ printed warnings:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    if !run {
        return Ok(String::new());
    }
    let r = Command::new(&exe)
        .output()
        .map_err(|e| format!("run: {e}"))?;
    if !r.status.success() {
        return Err(format!("{} exited with {}", exe.display(), r.status));
    }
    Ok(String::from_utf8_lossy(&r.stdout).into_owned())
}

/// A scratch directory with the stand-in headers, or `None` (skip) without g++ outside CI.
fn scratch(tag: &str, arch: Arch) -> Option<PathBuf> {
    if Command::new("g++").arg("--version").output().is_err() {
        assert!(std::env::var_os("CI").is_none(), "g++ is required under CI");
        eprintln!("skipping: no g++");
        return None;
    }
    let dir = std::env::temp_dir().join(format!("ptoc-llk-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    for (name, text) in tt_llk_stubs(arch) {
        std::fs::write(dir.join(name), text).expect("stub header");
    }
    Some(dir)
}

/// One path of a kernel: (init, body, drain, rows per body run).
fn path_of(k: &TensixKernel, macro_path: bool) -> (&[Line], &[Line], &[Line], usize) {
    match (&k.macro_form, macro_path) {
        (Some(m), true) => (&m.init, &m.body, &m.drain, m.rows.max(1)),
        _ => (&k.init, &k.body, &k.drain, 1),
    }
}

fn words(lines: &[Line], arch: Arch) -> Vec<u32> {
    lines
        .iter()
        .map(|l| encode(&l.insn, arch).expect("kernel instruction encodes"))
        .collect()
}

/// (a): what ptoc's encoder says each call must produce.
fn expected_words(k: &TensixKernel, macro_path: bool) -> BTreeMap<String, Vec<u32>> {
    let (init, body, drain, rows) = path_of(k, macro_path);
    let calc = |n: usize| {
        let mut w = Vec::new();
        for _ in 0..n / rows {
            w.extend(words(body, k.arch));
        }
        w.extend(words(drain, k.arch));
        w
    };
    BTreeMap::from([
        ("init".to_string(), words(init, k.arch)),
        ("calc8".to_string(), calc(8)),
        ("calc16".to_string(), calc(16)),
    ])
}

fn program(ws: &[u32], arch: Arch) -> Program {
    Program::new(
        ws.iter()
            .map(|&w| decode(w, arch).unwrap_or_else(|e| panic!("recorded word: {e}")))
            .collect(),
    )
}

/// (b): the recorded words of `calc` (8 or 16 rows) run on the simulator after the recorded
/// init, with unlisted LRegs clobbered, over 16-row blocks: rows below `rows` hold the
/// reference result, the others are untouched. Returns the number of inputs checked.
fn run_recorded(k: &TensixKernel, macro_path: bool, rec: &BTreeMap<String, Vec<u32>>) -> usize {
    const BLOCK_ROWS: usize = 16;
    let arch = k.arch;
    let (init_lines, ..) = path_of(k, macro_path);
    let listed = init_lregs(init_lines);
    let clobber: Vec<Insn> = (0..8u8)
        .filter(|r| !listed.contains(r))
        .map(|r| Insn::LoadI {
            vd: Reg(r),
            mod0: LoadIMod::SHORT,
            imm16: 0x5a5a,
        })
        .collect();
    let conv = Converter::new(k.combo.spec()).expect("converter");
    let (sd, dd) = (k.src_datum(), k.dst_datum());
    let cfg = SimConfig {
        allow_backdoor: macro_path,
        ..kernel_sim_config()
    };
    // Every input for ≤ 16-bit sources, else the edge list plus random patterns.
    let ins = sample_inputs(k.combo.src, 1 << 13, 0x11c0_de20);
    for (section, rows) in [("calc8", 8usize), ("calc16", 16)] {
        let mut body = clobber.clone();
        body.extend(program(&rec[section], arch).insns);
        let kernel = Kernel {
            init: program(&rec["init"], arch),
            body: Program::new(body),
            drain: Program::default(),
        };
        // Every input is converted once: in the first `rows` rows of a block.
        let per = rows * LANES;
        let mut placed = Vec::new();
        let mut filler = 0u32;
        for chunk in ins.chunks(per) {
            placed.extend(chunk.iter().map(|&b| sd.word_of_bits(b)));
            placed.resize(placed.len() + per - chunk.len(), 0);
            for _ in rows..BLOCK_ROWS {
                for _ in 0..LANES {
                    filler = filler.wrapping_mul(0x9E37_79B9).wrapping_add(0x7F4A_7C15);
                    placed.push(filler);
                }
            }
        }
        let got = run_kernel_batch(
            arch,
            cfg,
            &kernel,
            BLOCK_ROWS,
            &placed,
            KERNEL_MOD0,
            KERNEL_MOD0,
            KERNEL_DEST,
            BLOCK_ROWS,
        )
        .unwrap_or_else(|e| panic!("{} {section}: {e}", kernel_name(k)));
        for (b, block) in got.chunks(BLOCK_ROWS * LANES).enumerate() {
            let src_block = &placed[b * BLOCK_ROWS * LANES..(b + 1) * BLOCK_ROWS * LANES];
            for (i, (&g, &p)) in block.iter().zip(src_block).enumerate() {
                let idx = b * per + i;
                if i >= per {
                    assert_eq!(
                        g,
                        p,
                        "{} {section}: row {} beyond ITERATIONS was written",
                        kernel_name(k),
                        i / LANES
                    );
                } else if let Some(&input) = ins.get(idx) {
                    let want = dd.word_of_bits(conv.convert_bits(input));
                    assert_eq!(
                        g,
                        want,
                        "{} ({}) {section}: input {input:#x} gave {g:#010x}, reference {want:#010x}",
                        kernel_name(k),
                        if macro_path { "macro" } else { "plain" }
                    );
                }
            }
        }
    }
    ins.len()
}

fn check_arch(arch: Arch, abi: Abi) {
    let Some(dir) = scratch(&format!("{arch:?}-{}", abi.name()), arch) else {
        return;
    };
    let kernels = kernels_per_rule(arch, abi);
    assert!(kernels.len() >= 10, "{} kernels", kernels.len());
    let refs: Vec<&TensixKernel> = kernels.iter().collect();
    let header = emit_file(&refs);
    std::fs::write(dir.join("kernels.h"), &header).expect("write header");
    std::fs::write(dir.join("main.cpp"), driver(&kernels)).expect("write main");
    let strict = ["-Wall", "-Wextra", "-Werror"];
    compile(
        &dir,
        "c++20",
        &[&strict[..], &["-DDISABLE_SFPLOADMACRO"]].concat(),
        false,
    )
    .unwrap_or_else(|e| panic!("C++20 plain: {e}"));
    let mut checked = 0;
    for macro_path in [true, false] {
        let flags: Vec<&str> = if macro_path {
            strict.to_vec()
        } else {
            [&strict[..], &["-DDISABLE_SFPLOADMACRO"]].concat()
        };
        compile(&dir, "c++20", &flags, false).unwrap_or_else(|e| panic!("C++20: {e}"));
        let out = compile(&dir, "c++17", &flags, true).unwrap_or_else(|e| panic!("C++17: {e}"));
        let rec = parse_recording(&out);
        for k in &kernels {
            let name = kernel_name(k);
            let got = rec
                .get(&name)
                .unwrap_or_else(|| panic!("{name} not recorded"));
            // A kernel without a macro form gives its plain program on both paths.
            let want = expected_words(k, macro_path);
            assert_eq!(
                got, &want,
                "{name} ({arch:?}, macro path {macro_path}): recorded words differ from the encoder"
            );
            run_recorded(k, macro_path, got);
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * kernels.len());
    mutation_changes_words(&dir, &header, &kernels);
    // PTOC_LLK_KEEP=1 keeps the header and driver (for a check against a real tt-llk by hand,
    // docs/tt-metal.md).
    if std::env::var_os("PTOC_LLK_KEEP").is_some() {
        std::fs::write(dir.join("kernels.h"), &header).expect("write header");
        eprintln!("kept {}", dir.display());
    } else {
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// (c): unmasking one negative immediate (`(-31 & 0xfff)` → `-31`) must change the words.
fn mutation_changes_words(dir: &Path, header: &str, kernels: &[TensixKernel]) {
    let Some(at) = header.find("(-31 & 0xfff)") else {
        panic!("no masked -31 in the header (the f32 -> i32 kernels have one)");
    };
    let mutated = format!(
        "{}-31{}",
        &header[..at],
        &header[at + "(-31 & 0xfff)".len()..]
    );
    std::fs::write(dir.join("kernels.h"), mutated).expect("write mutant");
    // A user compiling without -Werror gets a warning at most, and wrong words.
    let out = compile(dir, "c++17", &["-w", "-DDISABLE_SFPLOADMACRO"], true)
        .unwrap_or_else(|e| panic!("mutant: {e}"));
    let rec = parse_recording(&out);
    let differs = kernels
        .iter()
        .any(|k| rec.get(&kernel_name(k)) != Some(&expected_words(k, false)));
    assert!(differs, "an unmasked -31 gave the encoder's words");
}

#[test]
fn blackhole_headers_give_the_encoders_words_and_run_exactly() {
    check_arch(Arch::Bh, Abi::TtMetal);
    check_arch(Arch::Bh, Abi::Raw);
}

#[test]
fn wormhole_headers_give_the_encoders_words_and_run_exactly() {
    check_arch(Arch::Wh, Abi::TtMetal);
    check_arch(Arch::Wh, Abi::Raw);
}

/// vcvt programs: `calculate_<false>()` converts one register (no ITERATIONS loop); the words
/// equal the encoder's.
#[test]
fn vcvt_headers_give_the_encoders_words() {
    use ptoc::lower::tensix::vcvt::{all_vcvt, lower_vcvt};
    for arch in [Arch::Bh, Arch::Wh] {
        let Some(dir) = scratch(&format!("vcvt-{arch:?}"), arch) else {
            return;
        };
        // One program per element family and placement kind (equal, narrowing, widening).
        let mut seen = Vec::new();
        let mut kernels = Vec::new();
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
            kernels.push(lower_vcvt(v, arch).expect("lowered"));
        }
        let refs: Vec<&TensixKernel> = kernels.iter().collect();
        std::fs::write(dir.join("kernels.h"), emit_file(&refs)).expect("header");
        let mut m = String::from("#include \"kernels.h\"\nint main() {\n");
        for k in &kernels {
            let n = kernel_name(k);
            let _ = writeln!(
                m,
                "    ptoc_test::mark(\"K {n}\");\n    ptoc_test::mark(\"init\");\n    \
                 ckernel::sfpu::init_{n}<false>();\n    ptoc_test::mark(\"calc8\");\n    \
                 ckernel::sfpu::calculate_{n}<false>();"
            );
        }
        m.push_str("    return 0;\n}\n");
        std::fs::write(dir.join("main.cpp"), m).expect("main");
        let out = compile(&dir, "c++17", &["-Wall", "-Wextra", "-Werror"], true)
            .unwrap_or_else(|e| panic!("vcvt {arch:?}: {e}"));
        let rec = parse_recording(&out);
        for k in &kernels {
            let mut want = BTreeMap::new();
            want.insert("init".to_string(), words(&k.init, arch));
            let mut calc = words(&k.body, arch);
            calc.extend(words(&k.drain, arch));
            want.insert("calc8".to_string(), calc);
            assert_eq!(rec.get(&kernel_name(k)), Some(&want), "{}", k.describe());
        }
        assert!(kernels.len() >= 4, "{}", kernels.len());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
