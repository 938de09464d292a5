//! Front-end benchmark (`cargo bench -p ptoc --bench frontend`, harness = false).
//!
//! Generates the January-2026 tcvt file with `python3 ../shared/bench/gen_tcvt_january.py N`
//! (path relative to the repository root; override with `PTOC_BENCH_GEN=/path/to/script`) for
//! N = 10k, 50k, 100k ops, then times in-process, best of several runs: lexing alone (the
//! streaming `TokenStream` the parser uses), lexing + parsing (`front::parse_module`), and
//! parse + verify on the cpu profile (`driver::check_file`).
//! Prints time, MB/s and ns/op, and whether time scales linearly with N.
//! Target (docs/performance.md): 100k ops (~32 MB) parse + verify <= 0.35 s.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};
use std::time::{Duration, Instant};

use ptoc::driver::{check_file, Options, TargetChoice};
use ptoc::front::lexer::{LexMode, TokenStream};
use ptoc::front::{parse_module, InputFormat};
use ptoc::target::Profile;

const SIZES: [usize; 3] = [10_000, 50_000, 100_000];
const TARGET_100K: Duration = Duration::from_millis(350);

/// Finds the generator: `$PTOC_BENCH_GEN`, else `shared/bench/gen_tcvt_january.py` next to the
/// repository root or any of its ancestors.
fn find_generator() -> Result<PathBuf, String> {
    if let Ok(p) = std::env::var("PTOC_BENCH_GEN") {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("PTOC_BENCH_GEN={} is not a file", p.display()))
        };
    }
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut tried = Vec::new();
    for dir in manifest.ancestors() {
        for rel in [
            "shared/bench/gen_tcvt_january.py",
            "../shared/bench/gen_tcvt_january.py",
        ] {
            let p = dir.join(rel);
            if p.is_file() {
                return Ok(p);
            }
            tried.push(p);
        }
    }
    Err(format!(
        "gen_tcvt_january.py not found (expected at ../shared/bench/ relative to the repository \
         root; set PTOC_BENCH_GEN). Tried:\n  {}",
        tried
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join("\n  ")
    ))
}

fn generate(script: &Path, n: usize) -> Result<String, String> {
    let out = Command::new("python3")
        .arg(script)
        .arg(n.to_string())
        .output()
        .map_err(|e| format!("cannot run python3 {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "python3 {} {n} failed ({}): {}",
            script.display(),
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    String::from_utf8(out.stdout).map_err(|e| format!("generator output is not UTF-8: {e}"))
}

/// Best wall time of `runs` runs of `f`.
fn best<T>(runs: usize, mut f: impl FnMut() -> T) -> Duration {
    (0..runs)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(f());
            t.elapsed()
        })
        .min()
        .unwrap_or_default()
}

struct Row {
    n: usize,
    bytes: usize,
    lex: Duration,
    parse: Duration,
    verify: Duration,
}

fn mbps(bytes: usize, d: Duration) -> f64 {
    bytes as f64 / 1e6 / d.as_secs_f64().max(1e-12)
}

fn main() -> ExitCode {
    // `cargo bench` passes `--bench`; `cargo test --benches` passes nothing special. Only a
    // quick sanity run under `cargo test` (no timing claims).
    let quick = !std::env::args().any(|a| a == "--bench");
    let script = match find_generator() {
        Ok(s) => s,
        Err(e) => {
            eprintln!("frontend bench: {e}");
            return ExitCode::FAILURE;
        }
    };
    let sizes: &[usize] = if quick { &[1_000] } else { &SIZES };
    let runs = if quick { 1 } else { 5 };
    println!(
        "front-end benchmark: {} (best of {runs} runs)",
        script.display()
    );
    let opts = Options {
        target: TargetChoice::Profile(Profile::Cpu),
        split_input: false,
        format: InputFormat::Pto,
        parse_only: false,
        strict_ops: false,
    };
    let mut rows = Vec::new();
    for &n in sizes {
        let text = match generate(&script, n) {
            Ok(t) => t,
            Err(e) => {
                eprintln!("frontend bench: {e}");
                return ExitCode::FAILURE;
            }
        };
        // Sanity: the file must parse and verify cleanly on cpu (syntax.md D-7b).
        let check = check_file(text.as_bytes(), &opts);
        let errors: Vec<String> = check
            .chunks
            .iter()
            .flat_map(|c| c.diagnostics())
            .filter(|d| d.is_error())
            .take(3)
            .map(|d| d.message())
            .collect();
        let parsed = check.chunks.iter().all(|c| c.module.is_some());
        if !parsed || !errors.is_empty() {
            eprintln!(
                "frontend bench: N={n}: the generated file does not parse+verify cleanly \
                 (module built: {parsed}; first errors: {errors:?}); timings below are not \
                 meaningful"
            );
        }
        // Lexing as the parser does it: the streaming lexer, no token buffer.
        let lex_t = best(runs, || {
            let mut stream = TokenStream::new(&text, 0, LexMode::Mlir);
            let mut n = 0usize;
            while stream.next_token().is_some() {
                n += 1;
            }
            n
        });
        let parse_t = best(runs, || {
            parse_module(&text, 0, InputFormat::Pto).module.is_some()
        });
        let verify_t = best(runs, || check_file(text.as_bytes(), &opts).chunks.len());
        let row = Row {
            n,
            bytes: text.len(),
            lex: lex_t,
            parse: parse_t,
            verify: verify_t,
        };
        println!(
            "N={:>6} ops  {:>6.2} MB | lex {:>8.1} ms {:>7.1} MB/s | lex+parse {:>8.1} ms {:>7.1} MB/s | parse+verify(cpu) {:>8.1} ms {:>7.1} MB/s {:>6.0} ns/op",
            row.n,
            row.bytes as f64 / 1e6,
            row.lex.as_secs_f64() * 1e3,
            mbps(row.bytes, row.lex),
            row.parse.as_secs_f64() * 1e3,
            mbps(row.bytes, row.parse),
            row.verify.as_secs_f64() * 1e3,
            mbps(row.bytes, row.verify),
            row.verify.as_secs_f64() * 1e9 / row.n as f64,
        );
        rows.push(row);
    }
    if let (Some(first), Some(last)) = (rows.first(), rows.last()) {
        if rows.len() > 1 {
            let per_byte = |d: Duration, b: usize| d.as_secs_f64() / b as f64;
            let ratio = per_byte(last.verify, last.bytes) / per_byte(first.verify, first.bytes);
            println!(
                "scaling: time/byte at N={} is {ratio:.2}x that at N={} ({})",
                last.n,
                first.n,
                if ratio <= 1.5 { "linear" } else { "NOT linear" }
            );
        }
        if !quick && last.n == 100_000 {
            println!(
                "target: 100k ops parse+verify {:.1} ms vs {:.0} ms budget: {}",
                last.verify.as_secs_f64() * 1e3,
                TARGET_100K.as_secs_f64() * 1e3,
                if last.verify <= TARGET_100K {
                    "met"
                } else {
                    "MISSED"
                }
            );
        }
    }
    ExitCode::SUCCESS
}
