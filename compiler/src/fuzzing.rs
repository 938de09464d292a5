//! Input generation for robustness testing: the token vocabulary, the seed corpus, random
//! inputs and mutations, and one function that drives every pipeline entry point on an input.
//!
//! Shared by the bounded smoke test in the normal suite (`compiler/tests/smoke_random.rs`) and
//! the open-ended stable-Rust fuzzer (`src/bin/ptoc-fuzz.rs`), so both search the same space.
//! Randomness comes from a seeded `fastrand::Rng`: a run is reproducible from its seed.
//! Not part of the compiler proper; nothing here is used by the CLI.

use std::path::Path;

use fastrand::Rng;

use crate::diag::clip::MESSAGE_MAX;
use crate::diag::render::{render_human, render_json, LINE_MAX};
use crate::driver::{
    check_file, display_text, format_file, match_directives, FileResult, Options, TargetChoice,
};
use crate::front::{parse_module, InputFormat};
use crate::ir::printer::print_module;

/// Fragments of PTO and `.ptoasm` text, valid and invalid, spliced into inputs.
pub const TOKENS: &[&str] = &[
    "module",
    "func.func",
    "@f",
    "(",
    ")",
    "{",
    "}",
    "[",
    "]",
    "<",
    ">",
    ",",
    ":",
    "=",
    "->",
    "?",
    "%a",
    "%0",
    "%r#1",
    "%r:2",
    "%",
    "^bb0",
    "return",
    "pto.tcvt",
    "scf.for",
    "scf.if",
    "else",
    "iter_args",
    "pto.tadd",
    "\n  pto.barrier",
    "tcvt",
    "pto.vcvt",
    "ins",
    "outs",
    "attributes",
    "loc",
    "valid=",
    "16x16xf32",
    "16x",
    "?x?x",
    "0xf32",
    "0x7F800000",
    "1.5",
    "-1",
    "99999999999999999999",
    "\"PAT_ALL\"",
    "\"unterminated",
    "\"\\q\"",
    "!pto.tile_buf",
    "!pto.tile",
    "!pto.vreg",
    "!pto.mask",
    "!pto.ptr",
    "!pto.tensor_view",
    "!pto.partition_tensor_view",
    "!pto.tile_view",
    "<vec, 16x16xf32>",
    "<b32>",
    "<64xf32>",
    "#pto",
    "<round_mode TRUNC>",
    "#pto.round_mode<CAST_FLOOR>",
    "#pto<saturation_mode ON>",
    "rmode",
    "satmode",
    "sat_mode",
    "rnd",
    "round_mode",
    "sat",
    "part",
    "\"EVEN\"",
    "\"ROUND_Z\"",
    "dtype=f32",
    "rows=8",
    "loc=ub",
    "pto.vecscope",
    "pto.alloc_tile",
    "pto.make_tensor_view",
    "shape",
    "strides",
    "pto.partition_view",
    "pto.subview",
    "offsets",
    "sizes",
    "arith.constant",
    "index",
    "i32",
    "ui8",
    "f16",
    "bf16",
    "!pto.s4x2",
    "!pto.hif8",
    "\"pto.barrier\"",
    "PTO.vcvt",
    ".func",
    "v0",
    "vmask",
    "NONE",
    "SAT",
    "// -----",
    "// expected-error {{x}}",
    "\n",
    " ",
    "é",
    "\t",
    "#",
    "!",
    "$",
    "loc(\"x\":1:2)",
    "pto.target_arch = \"a5\"",
    "{pto.target_arch = \"a7\"}",
    "builtin.module @m attributes {pto.target_arch = \"a3\"} {",
    "dense<[1, 2]>",
    "memref<4xf32>",
    "@\"q\"",
    "!t = ",
    "#a = ",
    "!t",
    "#a",
    "#map",
    "!t = !pto.tile_buf<vec, 16x16xf32>\n",
    "#map = affine_map<(d0) -> (d0)>\n",
    "#loc1 = loc(\"f\":1:2)\n",
    "loc(#loc1)",
    "loc(fused[#loc1, \"n\"])",
    "8 x 128 x f32",
    " x ",
];

/// Every `.pto`/`.ptoasm` file below `root`'s `compiler/tests/seeds`, `tests` and `examples`, in
/// path order.
pub fn seed_inputs(root: &Path) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    for dir in ["compiler/tests/seeds", "tests", "examples"] {
        collect(&root.join(dir), &mut out);
    }
    out
}

/// Every `.pto`/`.ptoasm` file below `dir`, in path order.
pub fn collect(dir: &Path, out: &mut Vec<Vec<u8>>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            collect(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("pto" | "ptoasm")
        ) {
            if let Ok(b) = std::fs::read(&p) {
                out.push(b);
            }
        }
    }
}

/// Up to `max_len` random bytes.
pub fn random_bytes(rng: &mut Rng, max_len: usize) -> Vec<u8> {
    let len = rng.usize(..=max_len);
    (0..len).map(|_| rng.u8(..)).collect()
}

/// Up to `max_tokens` fragments of [`TOKENS`], separated by spaces or newlines.
pub fn token_soup(rng: &mut Rng, max_tokens: usize) -> Vec<u8> {
    let mut s = String::new();
    for _ in 0..rng.usize(..=max_tokens) {
        s.push_str(TOKENS[rng.usize(..TOKENS.len())]);
        s.push(if rng.usize(..4) == 0 { '\n' } else { ' ' });
    }
    s.into_bytes()
}

/// `seed` after 1..=`max_steps` random edits: bit flips, truncation, splices from `other`,
/// duplicated ranges, inserted tokens and deleted ranges.
pub fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8], max_steps: usize) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..rng.usize(1..=max_steps.max(1)) {
        match rng.usize(..7) {
            0 if !v.is_empty() => {
                let i = rng.usize(..v.len());
                v[i] ^= 1 << rng.u32(..8);
            }
            1 => {
                let cut = rng.usize(..=v.len());
                v.truncate(cut);
            }
            2 if !other.is_empty() => {
                let at = rng.usize(..=v.len());
                let a = rng.usize(..other.len());
                let b = (a + rng.usize(..300)).min(other.len());
                let piece = other[a..b].to_vec();
                v.splice(at..at, piece);
            }
            3 if !v.is_empty() => {
                let a = rng.usize(..v.len());
                let b = (a + rng.usize(..200)).min(v.len());
                let piece = v[a..b].to_vec();
                v.splice(a..a, piece);
            }
            4 | 5 => {
                let at = rng.usize(..=v.len());
                let tok = TOKENS[rng.usize(..TOKENS.len())].as_bytes().to_vec();
                v.splice(at..at, tok);
            }
            _ if !v.is_empty() => {
                let a = rng.usize(..v.len());
                let b = (a + rng.usize(..60)).min(v.len());
                v.drain(a..b);
            }
            _ => {}
        }
    }
    v
}

/// Hostile inputs whose diagnostics must stay small (issue 11 item 9), by name: a 256 KiB line
/// with a lexical error every two characters, an undefined value with a 256 KiB name, an op, a
/// type and an attribute value with 200,000-character spellings, an unterminated string of as
/// many, one long line of many syntax errors, control characters in tokens, and binary data
/// after a valid prefix.
pub fn hostile_inputs() -> Vec<(&'static str, Vec<u8>)> {
    let long = "x".repeat(200_000);
    let func = |body: &str| format!("func.func @f(%a: i32) {{\n  {body}\n  return\n}}\n");
    let mut binary = b"module {\n  mod\xFF\xFE".to_vec();
    let mut rng = Rng::with_seed(7);
    binary.extend((0..1 << 16).map(|_| rng.u8(..)));
    vec![
        ("long-line", func(&"$ ".repeat(1 << 17)).into_bytes()),
        (
            "long-value",
            func(&format!("\"x.y\"(%v{}) : (i32) -> ()", "v".repeat(1 << 18))).into_bytes(),
        ),
        (
            "long-op",
            func(&format!("pto.{long} %a : i32")).into_bytes(),
        ),
        (
            "long-type",
            func(&format!("\"x.y\"(%a) : (!pto.{long}) -> ()")).into_bytes(),
        ),
        (
            "long-attr",
            func(&format!(
                "pto.tcvt ins(%a {{rmode = #pto<round_mode {long}>}} : i32) outs(%a : i32)"
            ))
            .into_bytes(),
        ),
        (
            "long-string",
            func(&format!("%m = pto.pset_b32 \"{long} : !pto.mask<b32>")).into_bytes(),
        ),
        (
            "many-errors",
            func(&"%a = 1 ( } ".repeat(20_000)).into_bytes(),
        ),
        (
            "control-chars",
            func("%\u{1b}[31m = \"x\\\u{7}\" \u{1b}[2J").into_bytes(),
        ),
        ("binary", binary),
    ]
}

/// The longest line a rendered diagnostic may have: a shown source line (at most
/// `render::LINE_MAX` bytes, tabs expanded, or a window of the line) or a message, with margins.
pub const RENDERED_LINE_MAX: usize = 4 * LINE_MAX + MESSAGE_MAX + 64;

/// The bounds every rendering of `file`'s diagnostics must keep, as problems: a message longer
/// than `clip::MESSAGE_MAX` characters (plus the ellipsis), or a rendered line (human or JSON
/// per diagnostic) longer than [`RENDERED_LINE_MAX`] characters, or human output of more than
/// `per_diag` bytes per diagnostic.
pub fn rendering_problems(file: &FileResult, input: &[u8], per_diag: usize) -> Vec<String> {
    let text = if file.text.is_empty() {
        display_text(input).into_owned()
    } else {
        file.text.to_string()
    };
    let diags: Vec<_> = file
        .file_diagnostics
        .iter()
        .chain(file.chunks.iter().flat_map(|c| c.diagnostics()))
        .cloned()
        .collect();
    let mut problems = Vec::new();
    for d in &diags {
        let n = d.message().chars().count();
        if n > MESSAGE_MAX + 1 {
            problems.push(format!("{}: message of {n} characters", d.code.as_str()));
        }
        for (format, out) in [
            (
                "human",
                render_human(std::slice::from_ref(d), "f.pto", &text, false),
            ),
            ("json", render_json(std::slice::from_ref(d), "f.pto", &text)),
        ] {
            let longest = out.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            if longest > RENDERED_LINE_MAX {
                problems.push(format!(
                    "{}: {format} line of {longest} characters",
                    d.code.as_str()
                ));
            }
            if format == "human" && out.len() > per_diag {
                problems.push(format!(
                    "{}: {} bytes of {format}",
                    d.code.as_str(),
                    out.len()
                ));
            }
        }
    }
    problems
}

/// Bytes of human output one diagnostic may take in [`exercise`]: its snippet shows at most a
/// few dozen lines (`render::FAR_LINES`), each bounded.
pub const RENDERED_PER_DIAG: usize = 64 * RENDERED_LINE_MAX;

/// What one run of [`exercise`] found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Property violations (not panics): printed text that does not re-parse, or is not a
    /// fixed point of print∘parse.
    pub problems: Vec<String>,
    /// Some chunk parsed cleanly with at least two ops (worth keeping in a growing corpus).
    pub clean: bool,
}

/// Runs every pipeline entry point on `input` (both input formats, with and without split input
/// and `--strict-ops`, `--target all`, directive matching, fmt), checks the bounds of
/// [`rendering_problems`] on every diagnostic, and the print∘parse fixed point on every chunk
/// that parsed cleanly. Panics propagate: callers wrap this in `catch_unwind`.
pub fn exercise(input: &[u8]) -> Outcome {
    let mut out = Outcome::default();
    for format in [InputFormat::Pto, InputFormat::PtoAsm] {
        for split in [false, true] {
            let opts = Options {
                target: TargetChoice::All,
                split_input: split,
                format,
                parse_only: false,
                strict_ops: split,
                pto_level: Default::default(),
                defaults: None,
            };
            let file = check_file(input, &opts);
            let _ = match_directives(&file);
            let _ = format_file(input, &opts);
            out.problems
                .extend(rendering_problems(&file, input, RENDERED_PER_DIAG));
            if split {
                continue;
            }
            for chunk in &file.chunks {
                let Some(m) = chunk.module.as_ref().filter(|_| !chunk.parse_failed()) else {
                    continue;
                };
                out.clean |= m.ops.len() >= 2;
                let p1 = print_module(m);
                let again = parse_module(&p1, 0, InputFormat::Pto);
                let first_error = again
                    .diagnostics
                    .iter()
                    .find(|d| d.is_error())
                    .map(|d| d.message());
                match (again.module, first_error) {
                    (Some(m1), None) => {
                        if print_module(&m1) != p1 {
                            out.problems
                                .push("print(parse(x)) is not a fixed point".to_string());
                        }
                    }
                    (_, err) => out
                        .problems
                        .push(format!("print(parse(x)) does not re-parse: {err:?}")),
                }
            }
        }
    }
    out
}
