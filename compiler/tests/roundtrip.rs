//! Round-trip guarantee (syntax.md §7.5, D-26) over every positive input: each `.pto`/`.ptoasm`
//! file under `tests/`, `examples/` and `compiler/tests/seeds/` without `expected-*` directives
//! (split on `// -----` when the file has such lines; chunks of `RUN: not ptoc` negative tests
//! that fail to parse are skipped). For each chunk, `p1 = print(parse(x))`
//! parses without errors, `print(parse(p1)) == p1`, `parse(p1)` means what `parse(x)` meant
//! (op kinds, attributes present/absent, names, types), and the verifier reports the same
//! (code, severity, message) multiset on `x` and `p1` for every profile.

use std::path::{Path, PathBuf};

use ptoc::driver::{check_file, find_directives, LineIndex, Options, TargetChoice};
use ptoc::front::{parse_module, InputFormat};
use ptoc::ir::printer::{print_attr, print_module, print_type};
use ptoc::ir::{Attr, Module, OpKind, TypeId};
use ptoc::target::Profile;
use ptoc::verify::verify_module;

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            // lit `Inputs/` hold auxiliary (often deliberately invalid) files, not tests.
            if p.file_name().is_some_and(|n| n == "Inputs") {
                continue;
            }
            collect(&p, out);
        } else if matches!(
            p.extension().and_then(|e| e.to_str()),
            Some("pto" | "ptoasm")
        ) {
            out.push(p);
        }
    }
}

/// All positive inputs.
fn inputs() -> Vec<PathBuf> {
    let root = repo_root();
    let mut files = Vec::new();
    for dir in ["tests", "examples", "compiler/tests/seeds"] {
        collect(&root.join(dir), &mut files);
    }
    files
}

fn diag_keys(diags: &[ptoc::diag::Diagnostic]) -> Vec<(String, String, String)> {
    let mut keys: Vec<_> = diags
        .iter()
        .map(|d| {
            (
                d.code.as_str().to_string(),
                d.severity.as_str().to_string(),
                d.message(),
            )
        })
        .collect();
    keys.sort();
    keys
}

fn first_difference(a: &str, b: &str) -> String {
    for (i, (x, y)) in a.lines().zip(b.lines()).enumerate() {
        if x != y {
            return format!("line {}:\n  p1: {x}\n  p2: {y}", i + 1);
        }
    }
    format!(
        "line counts differ: {} vs {}",
        a.lines().count(),
        b.lines().count()
    )
}

/// A module's meaning, independent of spelling and of type-table numbering: per op in walk order,
/// its kind (tcvt `sat_mode`/`satmode` key spelling normalised away), operand and result names
/// and types, attributes and region shape. Absent conversion attributes stay visible as `None`.
fn meaning(m: &Module) -> Vec<String> {
    let ty = |t: TypeId| print_type(&m.types, t);
    let tys = |ts: &[TypeId]| ts.iter().map(|&t| ty(t)).collect::<Vec<_>>().join(", ");
    let dict = |d: &ptoc::ir::AttrDict| print_attr(&m.types, &Attr::Dict(d.clone()));
    m.walk()
        .into_iter()
        .map(|id| {
            let op = m.op(id);
            let kind = match &op.kind {
                OpKind::Func(f) => format!(
                    "func {:?} {:?} -> ({}) decl({}) argattrs{:?} body={}",
                    f.sym,
                    f.visibility,
                    tys(&f.result_types),
                    tys(&f.decl_arg_types),
                    f.arg_attrs
                        .iter()
                        .map(|a| a.as_ref().map(&dict))
                        .collect::<Vec<_>>(),
                    f.has_body
                ),
                OpKind::Tcvt(t) => format!(
                    "tcvt {:?} tmp={} rmode={:?} sat={:?}",
                    t.form,
                    t.has_tmp,
                    t.rmode,
                    t.sat.map(|s| s.on)
                ),
                OpKind::ArithConstant { value } => {
                    format!("constant {}", print_attr(&m.types, value))
                }
                OpKind::Generic(g) => format!(
                    "generic {:?} props={:?} written={}",
                    g.name,
                    g.properties.as_ref().map(&dict),
                    g.attrs_written
                ),
                other => format!("{other:?}"),
            };
            let operands: Vec<String> = op
                .operands
                .iter()
                .map(|&v| format!("{}: {}", m.value(v).name, ty(m.value(v).ty)))
                .collect();
            let results: Vec<String> = op
                .results
                .iter()
                .map(|&v| format!("{}: {}", m.value(v).name, ty(m.value(v).ty)))
                .collect();
            let regions: Vec<String> = op
                .regions
                .iter()
                .map(|&r| {
                    let rd = m.region(r);
                    format!("{:?}/{} args/{} ops", rd.label, rd.args.len(), rd.ops.len())
                })
                .collect();
            format!(
                "{kind} | ({}) -> ({}) | {} | {regions:?}",
                operands.join(", "),
                results.join(", "),
                dict(&op.attrs)
            )
        })
        .collect()
}

/// Checks one parsed chunk; returns the problems found.
fn check_chunk(
    label: &str,
    module: &Module,
    parse_warnings: &[ptoc::diag::Diagnostic],
) -> Vec<String> {
    let mut problems = Vec::new();
    let p1 = print_module(module);
    let out1 = parse_module(&p1, 0, InputFormat::Pto);
    let errors: Vec<String> = out1
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let (line, col) = LineIndex::new(&p1).line_col(&p1, d.span.start);
            format!("{line}:{col}: {}", d.message())
        })
        .collect();
    let Some(m1) = out1.module.filter(|_| errors.is_empty()) else {
        problems.push(format!(
            "{label}: printed text does not re-parse: {errors:?}\n--- printed ---\n{p1}"
        ));
        return problems;
    };
    let p2 = print_module(&m1);
    if p2 != p1 {
        problems.push(format!(
            "{label}: print is not a fixed point: {}",
            first_difference(&p1, &p2)
        ));
    }
    // spec: D-26 (2): meaning preserved, absence preserved
    let (before, after) = (meaning(module), meaning(&m1));
    if before != after {
        let at = before
            .iter()
            .zip(&after)
            .position(|(a, b)| a != b)
            .unwrap_or(before.len().min(after.len()));
        problems.push(format!(
            "{label}: meaning changed by printing at op {at}:\n  input:   {:?}\n  printed: {:?}",
            before.get(at),
            after.get(at)
        ));
    }
    if diag_keys(parse_warnings) != diag_keys(&out1.diagnostics) {
        problems.push(format!(
            "{label}: parse diagnostics differ: {:?} vs {:?}",
            diag_keys(parse_warnings),
            diag_keys(&out1.diagnostics)
        ));
    }
    for profile in Profile::ALL {
        let before = diag_keys(&verify_module(module, profile));
        let after = diag_keys(&verify_module(&m1, profile));
        if before != after {
            problems.push(format!(
                "{label}: verifier ({profile}) differs after printing:\n  input:   {before:?}\n  printed: {after:?}"
            ));
        }
    }
    problems
}

#[test]
fn print_parse_is_a_fixed_point_on_every_positive_input() {
    let files = inputs();
    assert!(!files.is_empty(), "no inputs found under {:?}", repo_root());
    let mut problems = Vec::new();
    let mut checked = 0usize;
    let mut skipped = 0usize;
    for path in &files {
        let Ok(bytes) = std::fs::read(path) else {
            problems.push(format!("{}: unreadable", path.display()));
            continue;
        };
        let text = String::from_utf8_lossy(&bytes);
        if !find_directives(&text, 0..text.len(), &LineIndex::new(&text)).is_empty() {
            continue;
        }
        let negative = text
            .lines()
            .any(|l| l.starts_with("//") && l.contains("RUN:") && l.contains("not ptoc"));
        let split = text
            .lines()
            .any(|l| l.trim_end_matches([' ', '\t']) == "// -----");
        let format = if path.extension().is_some_and(|e| e == "ptoasm") {
            InputFormat::PtoAsm
        } else {
            InputFormat::Pto
        };
        let opts = Options {
            target: TargetChoice::Auto,
            split_input: split,
            format,
            parse_only: true,
            strict_ops: false,
            pto_level: Default::default(),
            defaults: Some(ptoc::target::toolchain::Toolchain::PtoIsa),
        };
        let file = check_file(&bytes, &opts);
        let lines = LineIndex::new(&file.text);
        for (i, chunk) in file.chunks.iter().enumerate() {
            let label = format!("{} (chunk {})", path.display(), i + 1);
            let errors: Vec<String> = chunk
                .parse_diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| {
                    let (l, c) = lines.line_col(&file.text, d.span.start);
                    format!("{l}:{c}: {}", d.message())
                })
                .collect();
            match &chunk.module {
                Some(m) if errors.is_empty() => {
                    problems.extend(check_chunk(&label, m, &chunk.parse_diagnostics));
                    checked += 1;
                }
                // A negative test checked by FileCheck (`RUN: not ptoc ...`) may fail to parse.
                _ if negative => skipped += 1,
                _ => problems.push(format!(
                    "{label}: input without expected-* directives does not parse: {errors:?}"
                )),
            }
        }
    }
    eprintln!(
        "roundtrip: {checked} chunk(s) checked, {skipped} negative chunk(s) skipped, {} file(s)",
        files.len()
    );
    assert!(
        problems.is_empty(),
        "{} round-trip problem(s) over {checked} chunk(s):\n{}",
        problems.len(),
        problems.join("\n\n")
    );
}

#[test]
fn meaning_tells_absent_from_default_attributes() {
    let src = |attrs: &str| {
        format!(
            "func.func @f(%a: !pto.tile_buf<vec, 8x8xf32>, %b: !pto.tile_buf<vec, 8x8xf16>) {{\n  pto.tcvt ins(%a {attrs}: !pto.tile_buf<vec, 8x8xf32>) outs(%b : !pto.tile_buf<vec, 8x8xf16>)\n  return\n}}\n"
        )
    };
    let m = |s: String| parse_module(&s, 0, InputFormat::Pto).module;
    let (Some(none), Some(rint), Some(legacy), Some(modern)) = (
        m(src("")),
        m(src("{rmode = #pto<round_mode RINT>} ")),
        m(src("{sat_mode = #pto<saturation_mode ON>} ")),
        m(src("{satmode = #pto<saturation_mode ON>} ")),
    ) else {
        panic!("fixtures must parse");
    };
    assert_ne!(meaning(&none), meaning(&rint));
    assert_eq!(meaning(&legacy), meaning(&modern));
}
