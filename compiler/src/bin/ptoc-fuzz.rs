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
//! Input generation and the checks themselves live in `ptoc::fuzzing` (shared with the smoke
//! test). Inputs that parse cleanly join the in-memory corpus (cheap feedback without coverage).
//! Failures are written to the output directory (default `target/fuzz-failures/`); the exit
//! status is 1 if any were found. Time- or iteration-bounded; deterministic for a given seed
//! apart from the timing checks.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fastrand::Rng;
use ptoc::fuzzing::{collect, exercise, mutate, random_bytes, token_soup, Outcome};

static LAST_PANIC: Mutex<String> = Mutex::new(String::new());

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

fn generate(rng: &mut Rng, corpus: &[Vec<u8>]) -> Vec<u8> {
    match rng.usize(..10) {
        0 => random_bytes(rng, 512),
        1 | 2 => token_soup(rng, 200),
        _ if !corpus.is_empty() => {
            let a = &corpus[rng.usize(..corpus.len())];
            let b = &corpus[rng.usize(..corpus.len())];
            mutate(rng, a, b, 6)
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
    let mut rng = Rng::with_seed(cfg.seed);
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
            Ok(Outcome { problems, clean }) => {
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
                        let i = seeds + rng.usize(..corpus.len() - seeds);
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
