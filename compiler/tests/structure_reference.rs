//! The structural pass (`verify::structure::check_tainted`) against a reference: the pass as it
//! was before its scope stack (`structure_support`: a petgraph def-use graph, one hash set and
//! two hash maps per scope, a separate scan of every op for duplicate symbols).
//! Both must give the same diagnostics (codes, messages, spans, labels, order) and the same
//! tainted ops on: every chunk of the lit suite, the examples and the fuzz seeds; mutations of
//! them; random programs built to stress scoping (nested and sibling regions, nested modules,
//! multi-block regions, result groups and `%r#N`, redefinitions,
//! undefined and mistyped uses, duplicate symbols and block labels); and random hand-built IR the
//! parser cannot produce (functions in any region, a value defined in several regions, ops
//! listed twice or never, zero-result groups, dangling handles).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use fastrand::Rng;
use ptoc::diag::{Diagnostic, Span};
use ptoc::front::{parse_module, InputFormat};
use ptoc::ir::Module;
use ptoc::ir::{
    FuncOp, ModuleOp, OpData, OpId, OpKind, OpSpans, RegionId, ResultGroup, ScalarType, TcvtForm,
    Type, TypeId, ValueDef, ValueId,
};
use ptoc::verify::structure;

mod structure_support;
use structure_support::reference_check_tainted;

/// Runs both passes on `m` and asserts that they agree; returns the number of diagnostics.
fn same(m: &Module, what: &dyn Fn() -> String) -> usize {
    let mut want = Vec::new();
    let want_tainted = reference_check_tainted(m, &mut want);
    let mut got = Vec::new();
    let got_tainted = structure::check_tainted(m, &mut got);
    if got != want {
        let show = |d: &[Diagnostic]| -> Vec<String> {
            d.iter()
                .map(|d| {
                    format!(
                        "{} {}..{} {}",
                        d.code.as_str(),
                        d.span.start,
                        d.span.end,
                        d.message()
                    )
                })
                .collect()
        };
        panic!(
            "diagnostics differ on {}:\n  reference: {:#?}\n  new: {:#?}",
            what(),
            show(&want),
            show(&got)
        );
    }
    assert_eq!(
        got_tainted,
        want_tainted,
        "tainted ops differ on {}",
        what()
    );
    got.len()
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .map_or_else(|| PathBuf::from(".."), Path::to_path_buf)
}

/// Every `.pto` under `tests/lit`, `examples` and `compiler/tests/seeds`.
fn corpus() -> Vec<(PathBuf, String)> {
    let root = repo_root();
    let mut files = Vec::new();
    let mut dirs = vec![
        root.join("tests/lit"),
        root.join("examples"),
        root.join("compiler/tests/seeds"),
    ];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "pto") {
                if let Ok(text) = std::fs::read_to_string(&path) {
                    files.push((path, text));
                }
            }
        }
    }
    files.sort();
    files
}

/// Parses each `// -----` chunk of `text`; returns the modules the parser built (with or
/// without parse errors: the passes must agree on any module).
fn modules(text: &str) -> Vec<Module> {
    ptoc::driver::split_chunks(text, true)
        .into_iter()
        .filter_map(|r| parse_module(&text[r.clone()], r.start, InputFormat::Pto).module)
        .collect()
}

#[test]
fn corpus_chunks_agree() {
    let files = corpus();
    assert!(files.len() > 50, "found only {} .pto files", files.len());
    let (mut chunks, mut with_diags) = (0, 0);
    for (path, text) in &files {
        for m in modules(text) {
            chunks += 1;
            with_diags += usize::from(same(&m, &|| path.display().to_string()) > 0);
        }
    }
    assert!(
        with_diags > 20,
        "only {with_diags} of {chunks} chunks with structural diagnostics: the test would be weak"
    );
}

#[test]
fn mutated_corpus_agrees() {
    let files = corpus();
    let mut rng = Rng::with_seed(0x5C0_9E5);
    let (mut checked, mut with_diags) = (0, 0);
    for round in 0..3000 {
        let (path, seed) = &files[rng.usize(..files.len())];
        let (_, other) = &files[rng.usize(..files.len())];
        let bytes = ptoc::fuzzing::mutate(&mut rng, seed.as_bytes(), other.as_bytes(), 4);
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        for m in modules(&text) {
            checked += 1;
            with_diags += usize::from(
                same(&m, &|| {
                    format!("round {round}, mutation of {}: {text}", path.display())
                }) > 0,
            );
        }
    }
    assert!(
        checked > 1000 && with_diags > 300,
        "{checked} modules, {with_diags} with diagnostics"
    );
}

/// Random programs in generic and custom form that stress the scoping rules.
struct Gen {
    rng: Rng,
    out: String,
}

const USE_NAMES: &[&str] = &["%a", "%b", "%0", "%1", "%r", "%x", "%arg0", "%u"];
const DEF_NAMES: &[&str] = &["%a", "%b", "%0", "%1", "%r", "%x"];
const TYPES: &[&str] = &["i32", "f32"];
const SYMS: &[&str] = &["@f", "@g", "@\"q r\""];
const LABELS: &[&str] = &["^bb1", "^bb2", "^bb0"];

impl Gen {
    fn pick<'s>(&mut self, from: &[&'s str]) -> &'s str {
        from[self.rng.usize(..from.len())]
    }

    fn ty(&mut self) -> &'static str {
        self.pick(TYPES)
    }

    fn line(&mut self, indent: usize, text: &str) {
        self.out.push_str(&"  ".repeat(indent));
        self.out.push_str(text);
        self.out.push('\n');
    }

    /// `n` uses (`%r#N` sometimes) with written types.
    fn uses(&mut self, n: usize) -> (Vec<String>, Vec<&'static str>) {
        let mut names = Vec::new();
        let mut types = Vec::new();
        for _ in 0..n {
            let mut name = self.pick(USE_NAMES).to_string();
            if name == "%r" || self.rng.usize(..8) == 0 {
                name = format!("{name}#{}", self.rng.usize(..3));
            }
            names.push(name);
            types.push(self.ty());
        }
        (names, types)
    }

    /// Result names: none, one, or a group; returns the `lhs = ` text and the result count.
    fn results(&mut self) -> (String, usize) {
        match self.rng.usize(..5) {
            0 | 1 => (String::new(), 0),
            2 | 3 => (format!("{} = ", self.pick(DEF_NAMES)), 1),
            _ => {
                let n = self.rng.usize(1..4);
                let name = self.pick(DEF_NAMES);
                if self.rng.bool() {
                    (format!("{name}:{n} = "), n)
                } else {
                    // Several names, one per result.
                    let names: Vec<&str> = (0..n).map(|_| self.pick(DEF_NAMES)).collect();
                    (format!("{} = ", names.join(", ")), n)
                }
            }
        }
    }

    /// A region's body; `blocks`: whether it may have labels (generic ops' regions).
    fn region(&mut self, indent: usize, depth: usize, blocks: bool) -> String {
        let saved = std::mem::take(&mut self.out);
        if blocks && self.rng.usize(..4) == 0 {
            let label = self.pick(LABELS);
            let t = self.ty();
            let a = self.pick(DEF_NAMES);
            self.line(indent, &format!("{label}({a}: {t}):"));
        }
        let n = self.rng.usize(..4);
        for _ in 0..n {
            self.op(indent + 1, depth + 1, false);
        }
        for _ in 0..if blocks { self.rng.usize(..3) } else { 0 } {
            let label = self.pick(LABELS);
            if self.rng.bool() {
                let t = self.ty();
                let a = self.pick(DEF_NAMES);
                self.line(indent, &format!("{label}({a}: {t}):"));
            } else {
                self.line(indent, &format!("{label}:"));
            }
            for _ in 0..self.rng.usize(..3) {
                self.op(indent + 1, depth + 1, false);
            }
        }
        std::mem::replace(&mut self.out, saved)
    }

    fn op(&mut self, indent: usize, depth: usize, top: bool) {
        let kind = self.rng.usize(..if depth > 3 { 6 } else { 10 });
        match kind {
            0..=2 => {
                let (lhs, n) = self.results();
                let k = self.rng.usize(..3);
                let (names, types) = self.uses(k);
                let rt: Vec<&str> = (0..n).map(|_| self.ty()).collect();
                self.line(
                    indent,
                    &format!(
                        "{lhs}\"t.op\"({}) : ({}) -> ({})",
                        names.join(", "),
                        types.join(", "),
                        rt.join(", ")
                    ),
                );
            }
            3 => {
                // Known ops with fixed result counts (a wrong count now and then: a parse
                // error, after which the passes must still agree on the module built).
                let t = self.ty();
                let (one, two) = if self.rng.usize(..10) == 0 {
                    (self.results().0, self.results().0)
                } else {
                    let (a, b) = (self.pick(DEF_NAMES), self.pick(DEF_NAMES));
                    let two = if self.rng.bool() {
                        format!("{a}, {b} = ")
                    } else {
                        format!("{a}:2 = ")
                    };
                    (format!("{a} = "), two)
                };
                if self.rng.bool() {
                    self.line(indent, &format!("{one}arith.constant 1 : {t}"));
                } else {
                    let (names, _) = self.uses(1);
                    self.line(
                        indent,
                        &format!("{two}pto.plt_b32 {} : i32 -> !pto.mask<b32>, i32", names[0]),
                    );
                }
            }
            4 => {
                // An opaque op: custom form of an unknown op.
                let (lhs, _) = self.results();
                let k = self.rng.usize(..3);
                let (names, _) = self.uses(k);
                self.line(indent, &format!("{lhs}t.opaque {}", names.join(", ")));
            }
            5 => {
                let (names, types) = self.uses(2);
                if self.rng.bool() {
                    self.line(
                        indent,
                        &format!(
                            "pto.tcvt ins({} : !pto.tile_buf<vec, 16x16x{}>) outs({} : !pto.tile_buf<vec, 16x16x{}>)",
                            names[0], types[0], names[1], types[1]
                        ),
                    );
                } else {
                    let lhs = self.pick(DEF_NAMES);
                    self.line(
                        indent,
                        &format!(
                            "{lhs} = pto.tcvt {} : !pto.tile<vec, 16x16x{}> -> !pto.tile<vec, 16x16x{}>",
                            names[0], types[0], types[1]
                        ),
                    );
                }
            }
            6 | 7 => {
                let (lhs, n) = self.results();
                let k = self.rng.usize(..2);
                let (names, types) = self.uses(k);
                let rt: Vec<&str> = (0..n).map(|_| self.ty()).collect();
                let regions: Vec<String> = (0..self.rng.usize(1..3))
                    .map(|_| {
                        let body = self.region(indent + 1, depth, true);
                        format!("{{\n{body}{}}}", "  ".repeat(indent))
                    })
                    .collect();
                self.line(
                    indent,
                    &format!(
                        "{lhs}\"t.region\"({}) ({}) : ({}) -> ({})",
                        names.join(", "),
                        regions.join(", "),
                        types.join(", "),
                        rt.join(", ")
                    ),
                );
            }
            8 | 9 if top => {
                if kind == 8 {
                    self.func(indent, depth)
                } else {
                    self.module(indent, depth)
                }
            }
            _ => {
                let body = self.region(indent + 1, depth, false);
                self.out.push_str(&"  ".repeat(indent));
                self.out.push_str("pto.vecscope {\n");
                self.out.push_str(&body);
                self.line(indent, "}");
            }
        }
    }

    fn func(&mut self, indent: usize, depth: usize) {
        let sym = self.pick(SYMS);
        let args: Vec<String> = (0..self.rng.usize(..3))
            .map(|_| {
                let a = self.pick(&["%a", "%arg0", "%u", "%x"]);
                let t = self.ty();
                format!("{a}: {t}")
            })
            .collect();
        let results: Vec<&str> = (0..self.rng.usize(..3)).map(|_| self.ty()).collect();
        self.line(
            indent,
            &format!(
                "func.func {sym}({}) -> ({}) {{",
                args.join(", "),
                results.join(", ")
            ),
        );
        for _ in 0..self.rng.usize(..5) {
            self.op(indent + 1, depth + 1, false);
        }
        let k = self.rng.usize(..3);
        let (names, types) = self.uses(k);
        if names.is_empty() {
            self.line(indent + 1, "return");
        } else {
            self.line(
                indent + 1,
                &format!("return {} : {}", names.join(", "), types.join(", ")),
            );
        }
        self.line(indent, "}");
    }

    fn module(&mut self, indent: usize, depth: usize) {
        let head = if self.rng.bool() {
            format!("module {} {{", self.pick(SYMS))
        } else {
            "module {".to_string()
        };
        self.line(indent, &head);
        for _ in 0..self.rng.usize(..4) {
            self.op(indent + 1, depth + 1, true);
        }
        self.line(indent, "}");
    }

    fn program(&mut self) -> String {
        self.out.clear();
        for _ in 0..self.rng.usize(1..5) {
            self.op(0, 0, true);
        }
        std::mem::take(&mut self.out)
    }
}

#[test]
fn random_programs_agree() {
    let mut g = Gen {
        rng: Rng::with_seed(0xD0_5C0BE),
        out: String::new(),
    };
    let (mut parsed, mut clean, mut with_diags) = (0, 0, 0);
    let mut codes: HashMap<&'static str, usize> = HashMap::new();
    for round in 0..4000 {
        let text = g.program();
        let out = parse_module(&text, 0, InputFormat::Pto);
        let Some(m) = out.module else { continue };
        parsed += 1;
        clean += usize::from(out.diagnostics.is_empty());
        let mut diags = Vec::new();
        structure::check_tainted(&m, &mut diags);
        for d in &diags {
            *codes.entry(d.code.as_str()).or_default() += 1;
        }
        with_diags += usize::from(same(&m, &|| format!("round {round}:\n{text}")) > 0);
    }
    // The generator must reach every structural error the parser leaves to the pass (result
    // counts of known ops are the parser's: hand-built IR covers E0104), mostly in modules
    // without parse errors.
    for code in ["E0101", "E0102", "E0103", "E0105", "E0106"] {
        assert!(
            codes.get(code).copied().unwrap_or(0) > 20,
            "{code}: {codes:?}"
        );
    }
    assert!(
        clean > 2500 && with_diags > 2500,
        "{parsed} parsed, {clean} clean, {with_diags} with diagnostics, {codes:?}"
    );
}

/// Random IR built by hand, including shapes the parser never builds.
fn random_ir(rng: &mut Rng) -> Module {
    let mut m = Module::new();
    let types = [
        m.types.intern(Type::Scalar(ScalarType::F32)),
        m.types.intern(Type::Scalar(ScalarType::F16)),
        m.types
            .intern(Type::Opaque(ptoc::ir::UNKNOWN_TYPE.to_string())),
    ];
    const NAMES: &[&str] = &["%a", "%b", "%r", "%0", "%r#1", "%r#0"];
    const LABELS: &[&str] = &["^bb0", "^bb1", "^bb2"];
    let mut next = 0usize;
    let mut span = || {
        next += 7;
        Span::new(next, next + 3)
    };
    let mut regions = vec![m.body];
    for _ in 0..rng.usize(1..40) {
        let parent = regions[rng.usize(..regions.len())];
        let kind = match rng.usize(..12) {
            0 | 1 => OpKind::Func(Box::new(FuncOp {
                sym: ["f", "g", "q r"][rng.usize(..3)].to_string(),
                visibility: None,
                result_types: (0..rng.usize(..3)).map(|_| types[rng.usize(..3)]).collect(),
                arg_attrs: Vec::new(),
                decl_arg_types: Vec::new(),
                has_body: true,
            })),
            2 => OpKind::Module(Box::new(ModuleOp {
                name: [None, Some("m".to_string())][rng.usize(..2)].clone(),
            })),
            3 => OpKind::Return,
            4 => OpKind::Tcvt(ptoc::ir::TcvtOp {
                form: if rng.bool() {
                    TcvtForm::Ssa
                } else {
                    TcvtForm::Dps
                },
                has_tmp: false,
                rmode: None,
                sat: None,
            }),
            5 => OpKind::VecScope,
            6 => OpKind::Vlds,
            _ => OpKind::Generic(Box::new(ptoc::ir::GenericOp {
                name: "t.op".to_string(),
                properties: None,
                attrs_written: false,
            })),
        };
        let values = m.values.len() as u32;
        let operands: Vec<ValueId> = (0..rng.usize(..4))
            .map(|_| ValueId(rng.u32(..values + 2)))
            .collect();
        let operand_types = operands
            .iter()
            .map(|_| [None, Some(types[rng.usize(..3)]), Some(TypeId(99))][rng.usize(..3)])
            .collect();
        let groups: Vec<ResultGroup> = (0..rng.usize(..3))
            .map(|_| {
                let count = rng.u32(..3);
                ResultGroup {
                    name: NAMES[rng.usize(..3)].to_string(),
                    count,
                    explicit_count: count != 1 || rng.bool(),
                }
            })
            .collect();
        let mut spans = OpSpans {
            op: span(),
            name: span(),
            ..OpSpans::default()
        };
        for _ in &operands {
            spans.operands.push(span());
            spans
                .operand_types
                .push(if rng.bool() { Some(span()) } else { None });
        }
        let data = OpData {
            kind,
            operands: operands.into_iter().collect(),
            operand_types,
            results: Default::default(),
            result_groups: groups.into_iter().collect(),
            regions: Default::default(),
            attrs: Default::default(),
            parent,
        };
        let op = m.push_op(data, spans);
        let count: u32 = m.ops[op.0 as usize]
            .result_groups
            .iter()
            .map(|g| g.count)
            .sum();
        let rt: Vec<TypeId> = (0..count).map(|_| types[rng.usize(..3)]).collect();
        let rs: Vec<Span> = (0..count).map(|_| span()).collect();
        m.add_results(op, &rt, &rs);
        // Sometimes a result the op's groups do not name.
        if rng.usize(..8) == 0 {
            let v = m.add_value(
                NAMES[rng.usize(..NAMES.len())],
                types[0],
                ValueDef::Result { op, index: count },
                span(),
            );
            m.ops[op.0 as usize].results.push(v);
        }
        if rng.usize(..3) == 0
            || matches!(
                m.ops[op.0 as usize].kind,
                OpKind::Func(_) | OpKind::Module(_)
            )
        {
            for _ in 0..rng.usize(1..3) {
                let s = span();
                let r = m.add_region(Some(op), s);
                m.ops[op.0 as usize].regions.push(r);
                regions.push(r);
                for _ in 0..rng.usize(..3) {
                    let s = span();
                    m.add_region_arg(r, NAMES[rng.usize(..NAMES.len())], types[rng.usize(..3)], s);
                }
                if rng.usize(..4) == 0 {
                    m.regions[r.0 as usize].label = Some(LABELS[rng.usize(..3)].to_string());
                }
            }
        }
        // Sometimes a new block in the parent region, with arguments.
        if rng.usize(..6) == 0 {
            let s = span();
            let b = m.add_block(parent, LABELS[rng.usize(..3)], s);
            for _ in 0..rng.usize(..3) {
                let s = span();
                m.add_block_arg(
                    parent,
                    b,
                    NAMES[rng.usize(..NAMES.len())],
                    types[rng.usize(..3)],
                    s,
                );
            }
        }
        // Values without a sound definition.
        if rng.usize(..5) == 0 {
            let s = span();
            m.add_value(
                NAMES[rng.usize(..NAMES.len())],
                types[0],
                ValueDef::Unresolved,
                s,
            );
        }
        if rng.usize(..8) == 0 {
            let s = span();
            let def = OpId(rng.u32(..m.ops.len() as u32 + 1));
            m.add_value(
                "%r#5",
                types[0],
                ValueDef::BadResultNumber {
                    op: def,
                    index: 5,
                    count: 2,
                },
                s,
            );
        }
    }
    // Shapes only hand-built IR has.
    for _ in 0..rng.usize(..4) {
        let values = m.values.len() as u32;
        let r = regions[rng.usize(..regions.len())];
        match rng.usize(..6) {
            // A value defined in one more region, or twice in one.
            0 if values > 0 => m.regions[r.0 as usize]
                .args
                .push(ValueId(rng.u32(..values))),
            // A region-less op listed once more.
            1 => {
                let op = OpId(rng.u32(..m.ops.len() as u32));
                if m.ops[op.0 as usize].regions.is_empty() {
                    m.regions[r.0 as usize].ops.push(op);
                }
            }
            // An op no region lists.
            2 => {
                let ops = &mut m.regions[r.0 as usize].ops;
                if !ops.is_empty() {
                    let i = rng.usize(..ops.len());
                    ops.remove(i);
                }
            }
            // Dangling handles.
            3 => {
                let op = rng.usize(..m.ops.len());
                m.ops[op].operands.push(ValueId(values + 50));
                if rng.bool() {
                    m.ops[op].regions.push(RegionId(9999));
                }
            }
            // Missing span entries.
            4 => {
                let n = rng.usize(..=m.spans.ops.len());
                m.spans.ops.truncate(n);
            }
            _ if values > 0 => {
                let op = rng.usize(..m.ops.len());
                m.ops[op].results.push(ValueId(rng.u32(..values)));
            }
            _ => {}
        }
    }
    m
}

/// Quirks the random inputs reach rarely, each checked against the reference and pinned.
#[test]
fn corner_cases_agree() {
    // Result groups of zero results: a group's name is checked on the first result at its
    // start, the first group starting there if several do (`%a:0` and `%b` both start at 0).
    let mut m = Module::new();
    let f32 = m.types.intern(Type::Scalar(ScalarType::F32));
    let body = m.body;
    let groups = |names: &[(&str, u32)]| -> ptoc::ir::ThinVec<ResultGroup> {
        names
            .iter()
            .map(|&(n, count)| ResultGroup {
                name: n.to_string(),
                count,
                explicit_count: true,
            })
            .collect()
    };
    let generic = || {
        OpKind::Generic(Box::new(ptoc::ir::GenericOp {
            name: "t.op".to_string(),
            properties: None,
            attrs_written: false,
        }))
    };
    for (i, g) in [
        vec![("%c", 1)],
        vec![("%a", 0), ("%b", 1), ("%c", 1)],
        vec![("%d", 2), ("%e", 0), ("%c", 0), ("%b", 1)],
    ]
    .into_iter()
    .enumerate()
    {
        let op = m.push_op(
            OpData {
                kind: generic(),
                operands: Default::default(),
                operand_types: Default::default(),
                results: Default::default(),
                result_groups: groups(&g),
                regions: Default::default(),
                attrs: Default::default(),
                parent: body,
            },
            OpSpans::default(),
        );
        let n: u32 = g.iter().map(|x| x.1).sum();
        let spans: Vec<Span> = (0..n)
            .map(|k| Span::new(100 * i + k as usize, 100 * i + k as usize + 1))
            .collect();
        m.add_results(op, &vec![f32; n as usize], &spans);
    }
    let mut diags = Vec::new();
    structure::check_tainted(&m, &mut diags);
    let messages: Vec<String> = diags.iter().map(Diagnostic::message).collect();
    // Op 1: `%a` (zero results) is checked on result 0, `%c` on result 1. Op 2: `%d` on 0,
    // `%e` on 2 (before `%c` and `%b`, which start there too).
    assert_eq!(messages, ["redefinition of value '%c'"], "{messages:?}");
    same(&m, &|| "zero-count groups".to_string());

    // A use bound to an invisible redefinition means the *first* value of its name in the
    // innermost scope that has one: here `%a` of type f32, so the written f32 agrees (the
    // second `%a`, an i32, would not).
    let text = r#"func.func @f() {
  %a = "t.op"() : () -> (f32)
  %a = "t.op"() : () -> (i32)
  "t.region"() ({
    %a = "t.op"() : () -> (i16)
  }) : () -> ()
  "t.use"(%a) : (f32) -> ()
  return
}
"#;
    let out = parse_module(text, 0, InputFormat::Pto);
    assert!(out.diagnostics.is_empty(), "{:?}", out.diagnostics);
    let m = out.module.expect("module");
    let mut diags = Vec::new();
    let tainted = structure::check_tainted(&m, &mut diags);
    let codes: Vec<&str> = diags.iter().map(|d| d.code.as_str()).collect();
    assert_eq!(
        codes,
        ["E0102", "E0102"],
        "{:?}",
        diags.iter().map(Diagnostic::message).collect::<Vec<_>>()
    );
    assert_eq!(tainted.len(), 3, "two redefining ops and the use");
    same(&m, &|| text.to_string());
}

#[test]
fn random_hand_built_ir_agrees() {
    let mut rng = Rng::with_seed(0x1_2B_1D);
    let mut with_diags = 0;
    let mut codes: HashMap<&'static str, usize> = HashMap::new();
    for round in 0..4000 {
        let m = random_ir(&mut rng);
        let mut diags = Vec::new();
        structure::check_tainted(&m, &mut diags);
        for d in &diags {
            *codes.entry(d.code.as_str()).or_default() += 1;
        }
        with_diags += usize::from(same(&m, &|| format!("round {round}: {m:#?}")) > 0);
    }
    for code in ["E0101", "E0102", "E0103", "E0104", "E0105", "E0106"] {
        assert!(
            codes.get(code).copied().unwrap_or(0) > 20,
            "{code}: {codes:?}"
        );
    }
    assert!(with_diags > 1000, "{with_diags} modules with diagnostics");
}
