//! The two-thread parse (`front::parser::split`) gives exactly the one-thread parse: the same
//! IR (compared whole, by its `Debug` text) and the same diagnostics, on every lit and example
//! file with every line as the split point, and on mutated copies of them. The test also
//! requires that most of those splits really joined the helper's half, so it cannot pass by
//! always falling back to one thread.

use std::path::{Path, PathBuf};

use ptoc::front::{parse_module_with, parse_pto_split_at, InputFormat, ParseOutput};

fn pto_files() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut out = Vec::new();
    let mut stack = vec![root.join("tests/lit"), root.join("examples")];
    // A further tree to check (e.g. the PTOAS lit corpus of docs/corpus.md), never in CI.
    if let Some(extra) = std::env::var_os("PTOC_SPLIT_CORPUS") {
        stack.push(PathBuf::from(extra));
    }
    while let Some(dir) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "pto") {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Offsets of the first non-blank byte of every line that may start a statement (`%` or a
/// letter first, as the parser's own choice of split point requires).
fn line_starts(text: &str) -> Vec<usize> {
    let mut v = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let body = line.trim_start_matches([' ', '\t']);
        if body.starts_with(|c: char| c == '%' || c.is_ascii_alphabetic()) {
            v.push(at + line.len() - body.len());
        }
        at += line.len();
    }
    v
}

fn show(out: &ParseOutput) -> String {
    format!("{:#?}\n{:#?}", out.module, out.diagnostics)
}

/// Splits `text` at every line; returns (splits tried, splits joined).
fn check_every_split(name: &str, text: &str, strict: bool) -> (usize, usize) {
    let one = show(&parse_module_with(text, 0, InputFormat::Pto, strict));
    let mut joined = 0;
    let starts = line_starts(text);
    for &at in &starts {
        let (two, j) = parse_pto_split_at(text, 0, strict, at);
        let two = show(&two);
        assert!(
            one == two,
            "{name}: splitting at byte {at} changed the parse\n--- one thread\n{one}\n--- two threads\n{two}"
        );
        joined += usize::from(j);
    }
    (starts.len(), joined)
}

#[test]
fn two_thread_parse_equals_one_thread_parse_at_every_line() {
    let mut tried = 0;
    let mut joined = 0;
    for path in pto_files() {
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let name = path.display().to_string();
        for (k, chunk) in text.split("// -----").enumerate() {
            let (t, j) = check_every_split(&format!("{name} chunk {k}"), chunk, false);
            tried += t;
            joined += j;
        }
    }
    eprintln!("split points: {tried} tried, {joined} joined");
    // Most lines of the corpus sit in function bodies; a fallback on every one of them would
    // make the comparison vacuous.
    assert!(tried > 1000, "too few split points: {tried}");
    assert!(joined > 300, "only {joined} of {tried} splits joined");
}

/// xorshift64*: deterministic mutations without a dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One line-level mutation: the edits that move definitions and uses across a split point
/// (deleted, duplicated or swapped lines, renamed values) and that put errors on either side.
fn mutate(text: &str, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    if lines.len() < 2 {
        return text.to_string();
    }
    let a = rng.below(lines.len());
    let b = rng.below(lines.len());
    match rng.below(6) {
        0 => {
            lines.remove(a);
        }
        1 => {
            let l = lines[a].clone();
            lines.insert(b, l);
        }
        2 => lines.swap(a, b),
        3 => {
            // Rename one value use or definition to another name of the file.
            let names: Vec<String> = text
                .split(|c: char| !(c.is_ascii_alphanumeric() || c == '%' || c == '_' || c == '#'))
                .filter(|w| w.starts_with('%') && w.len() > 1)
                .map(str::to_string)
                .collect();
            if let (Some(from), Some(to)) = (
                names.get(rng.below(names.len())),
                names.get(rng.below(names.len())),
            ) {
                lines[a] = lines[a].replacen(from.as_str(), to, 1);
            }
        }
        4 => {
            let at = rng.below(lines[a].len() + 1);
            let junk = ["$", "}", "{", "(", "%", ":", "\"", "^bb1:", "#"][rng.below(9)];
            if lines[a].is_char_boundary(at) {
                lines[a].insert_str(at, junk);
            }
        }
        _ => {
            let at = rng.below(lines[a].len() + 1);
            if lines[a].is_char_boundary(at) {
                lines[a].truncate(at);
            }
        }
    }
    lines.join("\n") + "\n"
}

#[test]
fn two_thread_parse_equals_one_thread_parse_on_mutated_files() {
    let files: Vec<String> = pto_files()
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .flat_map(|t| t.split("// -----").map(str::to_string).collect::<Vec<_>>())
        .filter(|c| c.contains("func.func"))
        .collect();
    assert!(!files.is_empty());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut tried, mut joined) = (0, 0);
    for k in 0..1500 {
        let base = &files[rng.below(files.len())];
        let mut text = mutate(base, &mut rng);
        if k % 3 == 0 {
            text = mutate(&text, &mut rng);
        }
        let (t, j) = check_every_split(&format!("mutant {k}"), &text, k % 7 == 0);
        tried += t;
        joined += j;
    }
    eprintln!("mutants: {tried} split points tried, {joined} joined");
    assert!(joined > 300, "only {joined} of {tried} splits joined");
}
