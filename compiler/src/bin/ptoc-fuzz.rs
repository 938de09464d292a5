//! `ptoc-fuzz`: a stable-Rust mutation fuzzer over the parser, verifier, printer and driver.
//!
//! Usage: `cargo run --release -p ptoc --bin ptoc-fuzz -- [--seconds S] [--iterations N]
//! [--seed X] [--corpus DIR]... [--out DIR]`
//!
//! Seeds are every `.pto`/`.ptoasm` file under the corpus directories (default: the repository's
//! `tests/`, `examples/` and `compiler/tests/seeds/`). Each iteration runs one input made of
//! random bytes, random token soup, or mutations (bit flips, truncations, splices, duplications,
//! token insertions) of a corpus entry, and checks:
//! - no panic anywhere (`check_file` in both input formats with and without splitting, every
//!   profile, `match_directives`, `format_file`);
//! - for every chunk that parses without errors, `print(parse(x))` re-parses without errors and
//!   is a fixed point (D-26);
//! - no super-linear time: an input repeated 8x must not take more than ~24x as long.
//!
//! Inputs that parse cleanly join the in-memory corpus (cheap feedback without coverage).
//! Failures are written to the output directory (default `target/fuzz-failures/`); the exit
//! status is 1 if any were found. Time- or iteration-bounded; deterministic for a given seed
//! apart from the timing checks.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use ptoc::driver::{check_file, format_file, match_directives, Options, TargetChoice};
use ptoc::front::{parse_module, InputFormat};
use ptoc::ir::printer::print_module;

static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

/// SplitMix64.
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
    "dense<[1, 2]>",
    "memref<4xf32>",
];

struct Config {
    seconds: u64,
    iterations: Option<u64>,
    seed: u64,
    corpus: Vec<PathBuf>,
    out: PathBuf,
}

fn parse_args() -> Result<Config, String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf);
    let mut cfg = Config {
        seconds: 60,
        iterations: None,
        seed: 0x00C0_FFEE,
        corpus: Vec::new(),
        out: root.join("target/fuzz-failures"),
    };
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--seconds" => {
                cfg.seconds = value("--seconds")?
                    .parse()
                    .map_err(|e| format!("--seconds: {e}"))?
            }
            "--iterations" => {
                cfg.iterations = Some(
                    value("--iterations")?
                        .parse()
                        .map_err(|e| format!("--iterations: {e}"))?,
                )
            }
            "--seed" => {
                cfg.seed = value("--seed")?
                    .parse()
                    .map_err(|e| format!("--seed: {e}"))?
            }
            "--corpus" => cfg.corpus.push(PathBuf::from(value("--corpus")?)),
            "--out" => cfg.out = PathBuf::from(value("--out")?),
            "-h" | "--help" => {
                return Err(
                    "usage: ptoc-fuzz [--seconds S] [--iterations N] [--seed X] \
                            [--corpus DIR]... [--out DIR]"
                        .to_string(),
                )
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    if cfg.corpus.is_empty() {
        for d in ["tests", "examples", "compiler/tests/seeds"] {
            cfg.corpus.push(root.join(d));
        }
    }
    Ok(cfg)
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

/// Runs the whole pipeline on `input`; returns property violations (not panics) and whether
/// some chunk parsed cleanly.
fn exercise(input: &[u8]) -> (Vec<String>, bool) {
    let mut problems = Vec::new();
    let mut clean = false;
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
            if split {
                continue;
            }
            for chunk in &file.chunks {
                let Some(m) = chunk.module.as_ref().filter(|_| !chunk.parse_failed()) else {
                    continue;
                };
                // Only inputs with some substance are worth mutating further.
                clean |= m.ops.len() >= 2;
                let p1 = print_module(m);
                let again = parse_module(&p1, 0, InputFormat::Pto);
                let errs: Vec<String> = again
                    .diagnostics
                    .iter()
                    .filter(|d| d.is_error())
                    .map(|d| d.message())
                    .collect();
                match again.module {
                    Some(m1) if errs.is_empty() => {
                        if print_module(&m1) != p1 {
                            problems.push("print(parse(x)) is not a fixed point".to_string());
                        }
                    }
                    _ => problems.push(format!(
                        "print(parse(x)) does not re-parse: {:?}",
                        errs.first()
                    )),
                }
            }
        }
    }
    (problems, clean)
}

fn mutate(rng: &mut Rng, seed: &[u8], other: &[u8]) -> Vec<u8> {
    let mut v = seed.to_vec();
    for _ in 0..1 + rng.below(6) {
        match rng.below(7) {
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
                let b = (a + rng.below(300)).min(other.len());
                let piece = other[a..b].to_vec();
                v.splice(at..at, piece);
            }
            3 if !v.is_empty() => {
                let a = rng.below(v.len());
                let b = (a + rng.below(200)).min(v.len());
                let piece = v[a..b].to_vec();
                v.splice(a..a, piece);
            }
            4 | 5 => {
                let at = rng.below(v.len() + 1);
                let tok = TOKENS[rng.below(TOKENS.len())].as_bytes().to_vec();
                v.splice(at..at, tok);
            }
            _ if !v.is_empty() => {
                let a = rng.below(v.len());
                let b = (a + rng.below(60)).min(v.len());
                v.drain(a..b);
            }
            _ => {}
        }
    }
    v
}

fn generate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    match rng.below(10) {
        0 => (0..rng.below(512)).map(|_| rng.next() as u8).collect(),
        1 | 2 => {
            let mut s = String::new();
            for _ in 0..rng.below(200) {
                s.push_str(TOKENS[rng.below(TOKENS.len())]);
                s.push(if rng.below(4) == 0 { '\n' } else { ' ' });
            }
            s.into_bytes()
        }
        _ if !corpus.is_empty() => {
            let a = &corpus[rng.below(corpus.len())];
            let b = &corpus[rng.below(corpus.len())];
            mutate(rng, a, b)
        }
        _ => Vec::new(),
    }
}

fn save(out: &Path, kind: &str, n: u64, input: &[u8], why: &str) {
    let _ = std::fs::create_dir_all(out);
    let path = out.join(format!("{kind}-{n}.pto"));
    let _ = std::fs::write(&path, input);
    println!("FAIL {kind} #{n}: {why} -> {}", path.display());
}

fn timed(input: &[u8]) -> Duration {
    let t = Instant::now();
    let _ = catch_unwind(AssertUnwindSafe(|| exercise(input)));
    t.elapsed()
}

fn main() -> ExitCode {
    let cfg = match parse_args() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("ptoc-fuzz: {e}");
            return ExitCode::from(2);
        }
    };
    std::panic::set_hook(Box::new(|info| {
        if let Ok(mut last) = LAST_PANIC.lock() {
            *last = info.to_string();
        }
    }));
    let mut corpus = Vec::new();
    for d in &cfg.corpus {
        collect(d, &mut corpus);
    }
    println!(
        "ptoc-fuzz: {} seed file(s), seed {:#x}, {} s{}",
        corpus.len(),
        cfg.seed,
        cfg.seconds,
        cfg.iterations
            .map_or(String::new(), |n| format!(", at most {n} iterations"))
    );
    let seeds = corpus.len();
    let mut added = 0u64;
    let mut rng = Rng(cfg.seed);
    let deadline = Instant::now() + Duration::from_secs(cfg.seconds);
    let (mut iters, mut failures, mut bytes) = (0u64, 0u64, 0u64);
    while Instant::now() < deadline && cfg.iterations.is_none_or(|n| iters < n) {
        iters += 1;
        let input = generate(&mut rng, &corpus);
        bytes += input.len() as u64;
        match catch_unwind(AssertUnwindSafe(|| exercise(&input))) {
            Err(_) => {
                failures += 1;
                let msg = LAST_PANIC.lock().map(|s| s.clone()).unwrap_or_default();
                save(&cfg.out, "panic", iters, &input, &msg);
            }
            Ok((problems, clean)) => {
                if let Some(p) = problems.first() {
                    failures += 1;
                    save(&cfg.out, "roundtrip", iters, &input, p);
                }
                if clean {
                    added += 1;
                    if corpus.len() < 4_000 {
                        corpus.push(input.clone());
                    } else if corpus.len() > seeds {
                        // Keep the seeds; replace a random grown entry.
                        let i = seeds + rng.below(corpus.len() - seeds);
                        corpus[i] = input.clone();
                    }
                }
            }
        }
        // Every so often, check that 8x the input costs at most ~24x the time.
        if iters % 250 == 0 && input.len() > 64 {
            let big = input.repeat(8);
            let (t1, t8) = (timed(&input), timed(&big));
            if t8 > t1 * 24 + Duration::from_millis(50) {
                failures += 1;
                save(
                    &cfg.out,
                    "slow",
                    iters,
                    &input,
                    &format!("1x {t1:?}, 8x {t8:?}"),
                );
            }
        }
        if iters % 5_000 == 0 {
            println!(
                "  {iters} iterations, {failures} failure(s), corpus {}",
                corpus.len()
            );
        }
    }
    println!(
        "ptoc-fuzz: {iters} iterations, {:.1} MB, {failures} failure(s), corpus {} ({added} clean inputs found)",
        bytes as f64 / 1e6,
        corpus.len()
    );
    if failures > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
