//! Bounded, seeded random-input smoke test of the whole pipeline (decode, split, parse, verify,
//! directive matching, fmt): random bytes, random token soup, and mutations (byte flips,
//! truncations, splices, duplications) of the valid seed inputs. Asserts that nothing panics and
//! that time grows roughly linearly with input size, for checking and for rendering many
//! diagnostics (human and JSON). Runs in a few seconds; the deeper,
//! open-ended search is `ptoc-fuzz` (src/bin/ptoc-fuzz.rs).

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use ptoc::diag::render::{render_human, render_json};
use ptoc::driver::{check_file, format_file, match_directives, Options, TargetChoice};
use ptoc::front::InputFormat;

/// SplitMix64: tiny, seedable, good enough for input generation.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
}

const TOKENS: &[&str] = &[
    "module",
    "func.func",
    "@f",
    "@\"q\"",
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
    "sat",
    "part",
    "\"EVEN\"",
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
    "f16",
    "bf16",
    "!pto.s4x2",
    "\"pto.barrier\"",
    "PTO.vcvt",
    ".func",
    "v0",
    "vmask",
    "NONE",
    "// -----",
    "// expected-error {{x}}",
    "\n",
    "\n",
    " ",
    "é",
    "\t",
    "#",
    "!",
    "$",
];

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

fn collect(dir: &Path, out: &mut Vec<Vec<u8>>) {
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

fn seeds() -> Vec<Vec<u8>> {
    let root = repo_root();
    let mut out = Vec::new();
    for dir in ["compiler/tests/seeds", "tests", "examples"] {
        collect(&root.join(dir), &mut out);
    }
    out
}

/// Runs every pipeline entry point on `input`.
fn exercise(input: &[u8]) {
    for format in [InputFormat::Pto, InputFormat::PtoAsm] {
        for split in [false, true] {
            let opts = Options {
                target: TargetChoice::All,
                split_input: split,
                format,
                parse_only: false,
            };
            let file = check_file(input, &opts);
            let _ = match_directives(&file);
            let _ = format_file(input, &opts);
        }
    }
}

/// Runs `exercise` and turns a panic into a test failure that shows the input.
fn no_panic(kind: &str, input: &[u8]) {
    if catch_unwind(AssertUnwindSafe(|| exercise(input))).is_err() {
        let path = std::env::temp_dir().join(format!("ptoc-smoke-{kind}.bin"));
        let _ = std::fs::write(&path, input);
        panic!(
            "panic on {kind} input (saved to {}): {:?}",
            path.display(),
            String::from_utf8_lossy(&input[..input.len().min(400)])
        );
    }
}

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(4) {
        match rng.below(6) {
            0 if !v.is_empty() => {
                let i = rng.below(v.len());
                v[i] ^= 1 << rng.below(8);
            }
            1 => {
                let cut = rng.below(v.len() + 1);
                v.truncate(cut);
            }
            2 if !other.is_empty() => {
                let at = rng.below(v.len() + 1);
                let a = rng.below(other.len());
                let b = (a + rng.below(200)).min(other.len());
                let piece = other[a..b].to_vec();
                v.splice(at..at, piece);
            }
            3 if !v.is_empty() => {
                let a = rng.below(v.len());
                let b = (a + rng.below(100)).min(v.len());
                let piece = v[a..b].to_vec();
                v.splice(a..a, piece);
            }
            4 => {
                let at = rng.below(v.len() + 1);
                let tok = TOKENS[rng.below(TOKENS.len())].as_bytes().to_vec();
                v.splice(at..at, tok);
            }
            _ if !v.is_empty() => {
                let a = rng.below(v.len());
                let b = (a + rng.below(50)).min(v.len());
                v.drain(a..b);
            }
            _ => {}
        }
    }
    v
}

#[test]
fn random_inputs_never_panic() {
    let mut rng = Rng(0x5EED_0FC0_FFEE);
    let seeds = seeds();
    assert!(!seeds.is_empty(), "no seed inputs found");
    let deadline = Instant::now() + Duration::from_secs(3);
    let mut runs = 0usize;
    while Instant::now() < deadline || runs < 60 {
        let input: Vec<u8> = match runs % 3 {
            0 => (0..rng.below(300)).map(|_| rng.next() as u8).collect(),
            1 => {
                let mut s = String::new();
                for _ in 0..rng.below(120) {
                    s.push_str(TOKENS[rng.below(TOKENS.len())]);
                    s.push(if rng.below(4) == 0 { '\n' } else { ' ' });
                }
                s.into_bytes()
            }
            _ => {
                let a = &seeds[rng.below(seeds.len())];
                let b = &seeds[rng.below(seeds.len())];
                mutate(&mut rng, a, b)
            }
        };
        no_panic(["bytes", "tokens", "mutation"][runs % 3], &input);
        runs += 1;
        if runs > 20_000 {
            break;
        }
    }
    // Deep nesting must neither panic nor overflow the stack.
    for open in ["(", "{", "[", "<", "module {"] {
        let deep = open.repeat(5_000);
        no_panic("nesting", deep.as_bytes());
    }
    eprintln!("smoke_random: {runs} random inputs");
}

/// Best-of-5 wall time of the full pipeline (parse + verify, auto profile) on `input`.
fn time(input: &[u8]) -> Duration {
    let opts = Options {
        target: TargetChoice::Auto,
        split_input: false,
        format: InputFormat::Pto,
        parse_only: false,
    };
    (0..5)
        .map(|_| {
            let t = Instant::now();
            let r = check_file(input, &opts);
            std::hint::black_box(&r);
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

/// `body` repeated `n` times inside one function.
fn repeated(body: &str, n: usize) -> Vec<u8> {
    let mut s = String::from(
        "func.func @f(%a: !pto.tile_buf<vec, 32x32xf32>, %b: !pto.tile_buf<vec, 32x32xf16>) {\n",
    );
    for _ in 0..n {
        s.push_str(body);
    }
    s.push_str("  return\n}\n");
    s.into_bytes()
}

#[test]
fn time_grows_linearly() {
    let cases = [
        (
            "valid tcvt",
            "  pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 32x32xf32>) outs(%b : !pto.tile_buf<vec, 32x32xf16>)\n",
        ),
        ("broken statements", "  pto.tcvt ins(%a : !pto.tile_buf<vec, 16x16>) outs(\n"),
        ("token soup", "  %x = ( [ < { } > ] ) -> : , = ?x? 16x \"s\" #pto !pto.vreg\n"),
    ];
    for (name, body) in cases {
        let small = repeated(body, 2_000);
        let large = repeated(body, 16_000);
        let (ts, tl) = (time(&small), time(&large));
        // 8x the input; allow 3x slack over linear, plus a floor for timer noise.
        let limit = ts * 24 + Duration::from_millis(20);
        assert!(
            tl <= limit,
            "{name}: {} bytes took {ts:?}, 8x ({} bytes) took {tl:?} (> {limit:?}): super-linear",
            small.len(),
            large.len()
        );
        eprintln!("{name}: 1x {ts:?}, 8x {tl:?}");
    }
}

/// A function whose argument `%a: i32` is used as `index` `n` times: `n` E0105 diagnostics, each
/// with a `defined here` label on line 1.
fn mistyped_uses(n: usize) -> Vec<u8> {
    let mut s = String::from("func.func @f(%a: i32) {\n");
    for _ in 0..n {
        s.push_str("  \"x.y\"(%a) : (index) -> ()\n");
    }
    s.push_str("  return\n}\n");
    s.into_bytes()
}

/// Best-of-3 wall time of rendering every diagnostic of `input` (human and JSON), after checking
/// that it produced `n` diagnostics.
fn render_time(input: &[u8], n: usize) -> (Duration, Duration) {
    let opts = Options {
        target: TargetChoice::Auto,
        split_input: false,
        format: InputFormat::Pto,
        parse_only: false,
    };
    let file = check_file(input, &opts);
    let diags: Vec<_> = file
        .chunks
        .iter()
        .flat_map(|c| c.diagnostics())
        .cloned()
        .collect();
    assert_eq!(diags.len(), n, "one diagnostic per mistyped use");
    assert!(diags.iter().all(|d| d.code.as_str() == "E0105"));
    let best = |f: &dyn Fn() -> usize| {
        (0..3)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(f());
                t.elapsed()
            })
            .min()
            .unwrap_or_default()
    };
    let human = best(&|| render_human(&diags, "f.pto", &file.text, false).len());
    let json = best(&|| render_json(&diags, "f.pto", &file.text).len());
    (human, json)
}

#[test]
fn rendering_many_diagnostics_grows_linearly() {
    let (n, big) = (2_000, 16_000);
    let (hs, js) = render_time(&mistyped_uses(n), n);
    let (hl, jl) = render_time(&mistyped_uses(big), big);
    for (fmt, ts, tl) in [("human", hs, hl), ("json", js, jl)] {
        // 8x the diagnostics; allow 3x slack over linear, plus a floor for timer noise.
        let limit = ts * 24 + Duration::from_millis(20);
        assert!(
            tl <= limit,
            "{fmt}: {n} diagnostics took {ts:?}, {big} took {tl:?} (> {limit:?}): super-linear"
        );
        eprintln!("{fmt} rendering: {n} diagnostics {ts:?}, {big} diagnostics {tl:?}");
    }
}
