//! `ptoc run`: runs one function of a PTO file with the reference interpreter (`interp`) on
//! data, writes the results as `.npy` and prints a summary per result.
//!
//! ```text
//! ptoc run FILE [--func NAME] --input ARG=PATH|random:SEED|value:N ... [--valid ARG=RxC ...]
//!          [--output-dir DIR] [--target cpu|a2a3|a2|a3|a5|all] [--input-format pto|ptoasm]
//!          [--error-format human|json]
//! ```
//! - The file is parsed and verified first; any error is rendered exactly as `ptoc verify`
//!   renders it (exit 1); warnings are rendered too and the run goes on, notes are not shown.
//!   Diagnostics go to stderr, as text or, with `--error-format=json`, as one
//!   `{"diagnostics":[...]}` line per report (verify's JSON fields). `--func` may be omitted
//!   when the file has one function.
//! - Arguments are bound by name or position (`bind` module doc); `--valid` sets the actual
//!   valid extents of a tile argument whose type has dynamic (`?`) valid dims (default: the
//!   declared extents). Missing, unknown or duplicate arguments and unreadable or wrongly sized
//!   data are usage errors (exit 2), except that a tile argument the function only writes (every
//!   use the dst of a DPS `pto.tcvt`) may be left out: it starts zero-filled, with a note.
//! - Outputs: result i → `DIR/<i>.npy`; a tile argument written by a DPS op → `DIR/arg<k>.npy`
//!   (k = argument index). With `--target all`, under `DIR/<profile>/`.
//! - Runtime errors (E0401, E0402, E0403, hybrid rounding) are diagnostics with the op's span
//!   (exit 1).
//! - `--target all` runs every profile whose verification accepts the file and reports, per
//!   output, the elements whose bits differ between profiles (position, the source element the
//!   producing conversion read, every profile's output in hex and exact decimal).
//! - `--defaults` fixes what an omitted satmode / `rmode = NONE` means (`target::toolchain`).
//! - On a terminal, tcvts over millions of elements draw a progress bar on stderr
//!   (`exec::progress`); pipes and logs never see it.

mod bind;
mod report;

use std::collections::HashMap;
use std::path::PathBuf;

use pto_runtime::ElemType;

use super::args::{self, ErrorFormat, FormatArg, TargetArg};
use super::verify::{all_diagnostics, display_text};
use super::{read_input, Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::diag::render::{render_human, render_json};
use crate::diag::{Diagnostic, Severity};
use crate::driver::{self, LineIndex, Options, TargetChoice};
use crate::exec::progress::Progress;
use crate::interp::{self, InterpError, Interpreter, Param, ParamKind, Produced, RunResult};
use crate::ir::{Module, OpKind};
use crate::target::Profile;

use bind::{BindError, Source};

#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The function to run (the symbol without '@'); optional when the file has one function.
    #[arg(long)]
    pub func: Option<String>,
    /// Argument data: ARG=PATH (.npy, or raw bytes), ARG=random:SEED, or ARG=value:N (integer
    /// scalars). ARG is the SSA name (%x or x) or the argument index.
    #[arg(long = "input", value_name = "ARG=SOURCE")]
    pub inputs: Vec<String>,
    /// Actual valid extents of a tile argument with dynamic valid dims: ARG=ROWSxCOLS.
    #[arg(long = "valid", value_name = "ARG=ROWSxCOLS")]
    pub valid: Vec<String>,
    /// Directory for the result files (created if missing); no files without it.
    #[arg(long)]
    pub output_dir: Option<PathBuf>,
    /// Profile to run on; default: the module's pto.target_arch, else cpu. `all`: every
    /// profile that accepts the file, with a report of the differences. `--pto-arch` is
    /// PTOAS's spelling of the same flag.
    #[arg(long, value_enum, alias = "pto-arch")]
    pub target: Option<TargetArg>,
    /// Toolchain whose defaults an omitted satmode / rmode NONE take (default pto-isa, with
    /// W0208 where the choice changes a result).
    #[arg(long, value_enum)]
    pub defaults: Option<super::args::DefaultsArg>,
    /// Input syntax; default: by extension (.ptoasm → ptoasm), else pto.
    #[arg(long, value_enum)]
    pub input_format: Option<FormatArg>,
    /// How many differing elements `--target all` lists per output.
    #[arg(long, default_value_t = 8)]
    pub max_diffs: usize,
    /// How diagnostics are written (on stderr; stdout carries the run summary).
    #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
    pub error_format: ErrorFormat,
    /// The PTO file.
    pub file: PathBuf,
}

/// The `ptoc run` entry point: 0 ok, 1 diagnostics (verification or runtime), 2 usage/I/O.
pub fn run(a: &RunArgs, io: &mut Io<'_>) -> u8 {
    let format = args::input_format(a.input_format, &a.file);
    let Some((name, bytes)) = read_input(&a.file, io) else {
        return EXIT_USAGE;
    };
    let choice = a.target.map_or(TargetChoice::Auto, |t| t.choice());
    if let Some(note) = a.target.and_then(|t| t.alias_note()) {
        io.err(&note);
    }
    let opts = Options {
        target: choice,
        split_input: false,
        format,
        parse_only: false,
        strict_ops: false,
        pto_level: Default::default(),
        defaults: a.defaults.map(|d| d.toolchain()),
    };
    let file = driver::check_file(&bytes, &opts);
    let shown = display_text(&file, &bytes);
    let index = LineIndex::new(&shown);
    // `  error[E0207] file:line:col: message`, as `ptoc verify --target all` lists errors.
    let error_line = |code: &str, at: usize, message: &str| {
        let (line, col) = index.line_col(&shown, at);
        format!("  error[{code}] {name}:{line}:{col}: {message}\n")
    };
    let render = |diags: &[Diagnostic], io: &mut Io<'_>| {
        if diags.is_empty() {
            return;
        }
        let text = match a.error_format {
            ErrorFormat::Human => render_human(diags, &name, &shown, io.color),
            ErrorFormat::Json => render_json(diags, &name, &shown) + "\n",
        };
        io.err(&text);
    };
    let chunk = match file.chunks.first() {
        Some(c) if !c.parse_failed() && file.file_diagnostics.is_empty() => c,
        _ => {
            render(&all_diagnostics(&file, Some(Default::default())), io);
            return EXIT_ERRORS;
        }
    };
    let Some(module) = chunk.module.as_ref() else {
        render(&all_diagnostics(&file, Some(Default::default())), io);
        return EXIT_ERRORS;
    };

    // Which profiles run: every verified profile without errors (in the order cpu, a2a3, a5).
    let mut accepted = Vec::new();
    let mut rejected: HashMap<Profile, String> = HashMap::new();
    for r in &chunk.verified {
        if r.accepted() {
            accepted.push(r.profile);
            continue;
        }
        if choice != TargetChoice::All {
            render(&all_diagnostics(&file, Some(Default::default())), io);
            return EXIT_ERRORS;
        }
        let mut text = format!("{}: rejected\n", r.profile);
        for d in r.diagnostics.iter().filter(|d| d.is_error()) {
            text.push_str(&error_line(d.code.as_str(), d.span.start, &d.message()));
        }
        rejected.insert(r.profile, text);
    }
    if choice != TargetChoice::All {
        // Warnings change what runs (e.g. an ignored satmode OFF): show them as verify does.
        // Notes are informational and stay quiet.
        let warnings: Vec<Diagnostic> = all_diagnostics(&file, Some(Default::default()))
            .into_iter()
            .filter(|d| d.severity == Severity::Warning)
            .collect();
        render(&warnings, io);
    }
    let mut summary = String::new();
    if accepted.is_empty() {
        for r in &chunk.verified {
            summary.push_str(rejected.get(&r.profile).map_or("", String::as_str));
        }
        io.out(&summary);
        return EXIT_ERRORS;
    }

    let func = match pick_function(module, a.func.as_deref()) {
        Ok(f) => f,
        Err(msg) => {
            io.err(&super::error_line(None, &msg));
            return EXIT_USAGE;
        }
    };
    // Without `--target`, the function runs on the profile of its module (nested modules may
    // each name their own `pto.target_arch`).
    let run_on = |p: Profile| match choice {
        TargetChoice::Auto => driver::profile_of_op(choice, module, func),
        _ => p,
    };
    let params = Interpreter::new(module, func, run_on(accepted[0])).params();
    let mut zeroed = Vec::new();
    let values = match bind_all(module, &params, &a.inputs, &a.valid, &mut zeroed) {
        Ok(v) => v,
        Err(e) => {
            io.err(&super::error_line(None, &e.to_string()));
            return EXIT_USAGE;
        }
    };
    for name in &zeroed {
        io.err(&format!(
            "ptoc: note: no --input for {name}, which the function only writes (as a pto.tcvt dst): it starts zero-filled, as pto.alloc_tile leaves a tile\n"
        ));
    }
    let result_kinds = result_kinds(module, func);
    let scalar_of = |k: Option<&ParamKind>| match k {
        Some(ParamKind::Scalar { elem }) => *elem,
        _ => ElemType::I64,
    };

    let all = choice == TargetChoice::All;
    let mut runs: Vec<(Profile, RunResult)> = Vec::new();
    let mut status = EXIT_OK;
    for profile in chunk.verified.iter().map(|r| r.profile) {
        if let Some(text) = rejected.get(&profile) {
            summary.push_str(text);
            continue;
        }
        // A bar on stderr (a terminal only) once the tiles converted hold millions of elements.
        let bar = Progress::for_elements(tcvt_elements(module), &format!("{profile}: converting"));
        let tick = |n: u64| bar.inc(n);
        let res = Interpreter::new(module, func, run_on(profile))
            .with_defaults(a.defaults.map(|d| d.toolchain()).unwrap_or_default())
            .with_progress(&tick)
            .run(values.clone());
        bar.finish();
        let result = match res {
            Ok(r) => r,
            Err(e) => {
                if all {
                    summary.push_str(&format!("{profile}: failed\n"));
                    summary.push_str(&error_line(e.code().as_str(), e.span.start, &e.to_string()));
                }
                io.out(&summary);
                summary.clear();
                render(&[diagnostic(&e)], io);
                status = EXIT_ERRORS;
                continue;
            }
        };
        let dir = a.output_dir.as_ref().map(|d| {
            if all {
                d.join(profile.as_str())
            } else {
                d.clone()
            }
        });
        if let Some(dir) = &dir {
            if let Err(e) = std::fs::create_dir_all(dir) {
                io.err(&super::error_line(
                    None,
                    &format!("cannot create '{}': {e}", dir.display()),
                ));
                return EXIT_USAGE;
            }
        }
        if all {
            summary.push_str(&format!("{profile}: ran\n"));
        }
        let indent = if all { "  " } else { "" };
        let outputs = named_outputs(&result, &params, &result_kinds);
        for (label, file, p, kind) in &outputs {
            let path = dir.as_ref().map(|d| d.join(file));
            if let Some(path) = &path {
                if let Err(e) = report::write_npy(path, &p.value, *kind) {
                    io.out(&summary);
                    io.err(&super::error_line(None, &e.to_string()));
                    return EXIT_USAGE;
                }
            }
            let scalar = scalar_of(kind.as_ref());
            let counts = report::counts(p, scalar);
            summary.push_str(&format!(
                "{indent}{label}: {}{}{}\n",
                report::describe(&p.value, scalar),
                if counts.is_empty() {
                    String::new()
                } else {
                    format!("; {counts}")
                },
                path.map_or(String::new(), |p| format!(" -> {}", p.display()))
            ));
        }
        runs.push((profile, result));
    }
    if all && runs.len() > 1 {
        summary.push_str(&differences(&runs, &params, &result_kinds, a.max_diffs));
    }
    io.out(&summary);
    status
}

/// The function to run: `--func`, or the only function with a body.
fn pick_function(module: &Module, name: Option<&str>) -> Result<crate::ir::OpId, String> {
    let names = interp::function_names(module);
    let list = if names.is_empty() {
        "none".to_string()
    } else {
        names.join(", ")
    };
    match name {
        Some(n) => {
            let n = n.strip_prefix('@').unwrap_or(n);
            interp::find_function(module, n)
                .filter(|&f| matches!(&module.op(f).kind, OpKind::Func(x) if x.has_body))
                .ok_or_else(|| format!("no function '{n}' with a body in the file (functions: {list})"))
        }
        None if names.len() == 1 => interp::find_function(module, &names[0])
            .ok_or_else(|| "the function disappeared".to_string()),
        None => Err(format!("--func is required when the file does not have exactly one function (functions: {list})")),
    }
}

/// Whether the function only writes the value `v`: it is used, and every use is the dst of a
/// DPS `pto.tcvt` (so its initial content matters only outside the written valid region).
fn output_only(module: &Module, v: crate::ir::ValueId) -> bool {
    let mut used = false;
    for op in module.walk() {
        let data = module.op(op);
        for (i, &o) in data.operands.iter().enumerate() {
            if o != v {
                continue;
            }
            used = true;
            if !matches!(&data.kind, OpKind::Tcvt(t) if t.dst_index() == Some(i)) {
                return false;
            }
        }
    }
    used
}

/// Parses the flags and builds one value per parameter. A tile parameter without `--input` that
/// the function only writes ([`output_only`]) starts zero-filled; its name goes to `zeroed`.
fn bind_all(
    module: &Module,
    params: &[Param],
    inputs: &[String],
    valid: &[String],
    zeroed: &mut Vec<String>,
) -> Result<Vec<interp::Value>, BindError> {
    let mut sources: Vec<Option<Source>> = vec![None; params.len()];
    for text in inputs {
        let (arg, source) = bind::parse_input(text)?;
        let i = bind::resolve_arg(params, &arg)?;
        match sources.get_mut(i) {
            Some(slot @ None) => *slot = Some(source),
            _ => {
                return Err(BindError::Duplicate {
                    name: params.get(i).map_or(arg, |p| p.name.clone()),
                    flag: "input",
                })
            }
        }
    }
    let mut valids: HashMap<usize, (u64, u64)> = HashMap::new();
    for text in valid {
        let (arg, dims) = bind::parse_valid(text)?;
        let i = bind::resolve_arg(params, &arg)?;
        if valids.insert(i, dims).is_some() {
            return Err(BindError::Duplicate {
                name: params.get(i).map_or(arg, |p| p.name.clone()),
                flag: "valid",
            });
        }
    }
    params
        .iter()
        .zip(sources)
        .map(|(p, s)| {
            let ty = crate::ir::printer::print_type(&module.types, module.value(p.value).ty);
            let valid = valids.get(&p.index).copied();
            match s {
                Some(s) => bind::build(p, &ty, &s, valid),
                None => match output_only(module, p.value)
                    .then(|| bind::zero_tile(p, valid))
                    .flatten()
                {
                    Some(v) => {
                        zeroed.push(p.name.clone());
                        v
                    }
                    None => Err(BindError::Missing {
                        name: p.name.clone(),
                        ty,
                    }),
                },
            }
        })
        .collect()
}

/// The runtime kinds of the function's result types.
fn result_kinds(module: &Module, func: crate::ir::OpId) -> Vec<Option<ParamKind>> {
    match &module.op(func).kind {
        OpKind::Func(f) => f
            .result_types
            .iter()
            .map(|&t| interp::param_kind(module.ty(t)).ok())
            .collect(),
        _ => Vec::new(),
    }
}

/// (label, file name, value, kind) of every output: results, then written tile arguments.
fn named_outputs<'r>(
    r: &'r RunResult,
    params: &[Param],
    kinds: &[Option<ParamKind>],
) -> Vec<(String, String, &'r Produced, Option<ParamKind>)> {
    let mut out: Vec<_> = r
        .results
        .iter()
        .enumerate()
        .map(|(i, p)| {
            (
                format!("result {i}"),
                format!("{i}.npy"),
                p,
                kinds.get(i).copied().flatten(),
            )
        })
        .collect();
    for (k, p) in &r.written_args {
        let name = params
            .get(*k)
            .map_or(String::new(), |p| format!(" {}", p.name));
        out.push((
            format!("arg {k}{name}"),
            format!("arg{k}.npy"),
            p,
            params.get(*k).and_then(|p| p.kind.clone().ok()),
        ));
    }
    out
}

/// The `--target all` difference report over every output.
fn differences(
    runs: &[(Profile, RunResult)],
    params: &[Param],
    kinds: &[Option<ParamKind>],
    max: usize,
) -> String {
    let per_run: Vec<_> = runs
        .iter()
        .map(|(p, r)| (p.as_str(), named_outputs(r, params, kinds)))
        .collect();
    let Some((_, first)) = per_run.first() else {
        return String::new();
    };
    let mut out = String::new();
    for (k, (label, _, _, kind)) in first.iter().enumerate() {
        let scalar = match kind {
            Some(ParamKind::Scalar { elem }) => *elem,
            _ => ElemType::I64,
        };
        let values: Vec<(&str, &Produced)> = per_run
            .iter()
            .filter_map(|(prof, outs)| outs.get(k).map(|o| (*prof, o.2)))
            .collect();
        match report::diff(label, &values, scalar, max) {
            Some(text) => out.push_str(&text),
            None => out.push_str(&format!(
                "{label}: identical on {}\n",
                values.iter().map(|v| v.0).collect::<Vec<_>>().join(", ")
            )),
        }
    }
    out
}

/// An interpreter error as a diagnostic with its code and span.
fn diagnostic(e: &InterpError) -> Diagnostic {
    Diagnostic::new(e.code(), e.kind.clone(), e.span).with_severity(e.severity())
}

/// The number of elements the module's tcvts convert, by their source tile types (each op once:
/// the progress bar's total; an op in a loop runs past it, which the bar tolerates).
fn tcvt_elements(module: &Module) -> u64 {
    use crate::ir::types::Type;
    module
        .walk()
        .into_iter()
        .filter(|&op| matches!(module.op(op).kind, OpKind::Tcvt(_)))
        .filter_map(|op| module.op(op).operands.first().copied())
        .map(|v| match module.value_type(v) {
            Type::TileBuf(t) => t.rows.saturating_mul(t.cols),
            Type::Tile(t) => t.rows.saturating_mul(t.cols),
            _ => 0,
        })
        .fold(0, u64::saturating_add)
}
