//! `ptoc lower --target tensix` and `ptoc prove`: the CLI edge of `lower::tensix`.
//!
//! ```text
//! ptoc lower [--target tensix] [--emit asm|llk|sfpi] [--arch blackhole|wormhole]
//!            [-o FILE | --split-kernels DIR] [--kernel N] [--plain] [--report]
//!            [--nan exact|any] [--abi raw|tt-metal] [--input-format pto|ptoasm] [--error-format human|json] FILE
//! ptoc prove [--arch ...] [--exhaustive] [--random N] [--seed S] [--nan exact|any]
//!            [--abi raw|tt-metal] [--input-format ...] [--error-format human|json] FILE
//!            # FILE: .pto or .ptoasm, or a lowered .s/.asm listing
//! ```
//! `lower` parses and verifies FILE (`.pto`, or `.ptoasm` in assembly mode) on the cpu profile
//! (whose semantics the kernels reproduce; N0705 notes a module naming another profile), lowers
//! every `pto.tcvt` and `pto.vcvt`, self-checks each kernel on the §9 edge list, and writes one
//! listing per distinct conversion (separated by `; ----- kernel K of N` lines) to `-o FILE` or
//! stdout; `--kernel N` keeps the Nth kernel only, `--split-kernels DIR` writes one file per kernel
//! (named by `TensixKernel::slug`). `--target` defaults to tensix, the only target. Any diagnostic
//! with an error (parse, verify, a combination with no exact kernel) → exit 1 and nothing is
//! written; no conversion at all → note N0704, exit 0. `--report` prints a table instead of code
//! (vcvt programs: cycles per register in a footnote, not per row). `--nan any` lowers the relaxed
//! variant where a rule has one (`TensixKernel::nan_any`, said in the listing and the report).
//!
//! `prove` runs the full proof in process (tensix.md §9): 8/16-bit sources exhaustively, 32-bit
//! sources on the edge list plus `--random` patterns (default 2^24), or all 2^32 with
//! `--exhaustive` (progress bar on a terminal). A listing is read back with
//! `header::kernel_of_listing` and proven on the path `ptoc sim` runs it on. One line per
//! conversion with `mismatches: N`, then the first mismatching inputs; exit 1 on any mismatch. A
//! proof that stopped on a simulator error prints `did not complete` and the error (stderr:
//! `ptoc: error[E0803]: ...`), never a mismatch count. Errors without a span use
//! `cli::error_line` (`ptoc: error[CODE]: FILE:LINE:COL: ...`).

use std::path::PathBuf;

use pto_runtime::tensix::isa::Arch;

use super::args::{input_format, ErrorFormat, FormatArg};
use super::sim::ArchArg;
use super::{read_input, Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::diag::render::{render_human, render_json};
use crate::diag::{Code, Diagnostic};
use crate::exec::progress::Progress;
use crate::lower::tensix::docs::{cycles_per_row, macro_cycles_per_row};
use crate::lower::tensix::emit;
use crate::lower::tensix::header::kernel_of_listing;
use crate::lower::tensix::prove::{self, ProofOptions, ProofReport};
use crate::lower::tensix::{lower_file_as, LowerOptions, LoweredFile, TensixKernel};
use pto_runtime::tensix::io::Abi;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LowerTarget {
    /// Tenstorrent Tensix SFPU (Wormhole / Blackhole).
    Tensix,
}

/// `--abi`: the I/O contract (`pto_runtime::tensix::io::Abi`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum AbiArg {
    /// ptoc's own datum forms (raw INT32 load/store of every type).
    Raw,
    /// tt-metal's datums with fp32 dest accumulation (UInt16 in the low half in, high half out; Int8 as its raw byte).
    #[value(name = "tt-metal")]
    TtMetal,
}

impl AbiArg {
    pub fn abi(self) -> Abi {
        match self {
            AbiArg::Raw => Abi::Raw,
            AbiArg::TtMetal => Abi::TtMetal,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum EmitArg {
    /// SFPU assembly (the seed's listing syntax; `ptoc sim` runs it).
    Asm,
    /// tt-llk style C++ (`TTI_*` macros).
    Llk,
    /// The llk header, under a comment saying why ptoc writes TTI_* words rather than SFPI (the SFPI
    /// compiler's output would not be the proven artifact).
    Sfpi,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NanArg {
    /// NaN inputs must give exactly the reference result.
    Exact,
    /// NaN inputs may give any output (tensix.md §9 relaxed mode); others stay exact.
    Any,
}

#[derive(Debug, clap::Args)]
pub struct LowerArgs {
    /// The target to lower to (the only one, and the default: tensix).
    #[arg(long, value_enum, default_value_t = LowerTarget::Tensix)]
    pub target: LowerTarget,
    /// Output form.
    #[arg(long, value_enum, default_value_t = EmitArg::Asm)]
    pub emit: EmitArg,
    /// Target architecture.
    #[arg(long, value_enum, default_value_t = ArchArg::Blackhole)]
    pub arch: ArchArg,
    /// Write the output to FILE instead of stdout.
    #[arg(short = 'o', long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// The program without SFPLOADMACRO (the llk DISABLE_SFPLOADMACRO path, as asm), for
    /// simulators without macro support (ttsim) and for debugging.
    #[arg(long)]
    pub plain: bool,
    /// Print per conversion: rule, instructions, cycles per row, proof status (no code).
    #[arg(long)]
    pub report: bool,
    /// NaN handling: `any` picks the relaxed (cheaper) kernel where a rule has one; NaN inputs
    /// may then give any output, every other input stays exact.
    #[arg(long, value_enum, default_value_t = NanArg::Exact)]
    pub nan: NanArg,
    /// I/O contract: `tt-metal` (tt-metal's unpacker/packer datums with fp32 dest accumulation;
    /// the default for `--emit llk`) or `raw` (ptoc's own, for `ptoc sim`; the default otherwise).
    #[arg(long, value_enum)]
    pub abi: Option<AbiArg>,
    /// How diagnostics are written.
    /// Toolchain whose defaults an omitted satmode / rmode NONE take (default pto-isa, with
    /// W0208 where the choice changes a result).
    #[arg(long, value_enum)]
    pub defaults: Option<super::args::DefaultsArg>,
    #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
    pub error_format: ErrorFormat,
    /// Split the input on `// -----` lines.
    #[arg(long)]
    pub split_input_file: bool,
    /// Only the Nth kernel (1-based; distinct conversions in first-use order, as `--report`
    /// lists them).
    #[arg(long, value_name = "N")]
    pub kernel: Option<usize>,
    /// Write one file per kernel into DIR (created if missing), named after the conversion
    /// (`f32_to_i32_trunc_satoff.s`; `.h` for --emit llk|sfpi), instead of one output.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["output", "report"])]
    pub split_kernels: Option<PathBuf>,
    /// Input syntax; default: by extension (.ptoasm → ptoasm), else pto.
    #[arg(long, value_enum)]
    pub input_format: Option<FormatArg>,
    /// Input file (.pto or .ptoasm), or '-' for stdin.
    pub file: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct ProveArgs {
    /// Target architecture (a listing's `; @io arch=` header wins when --arch is not given).
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    /// All 2^32 inputs for 32-bit sources.
    #[arg(long)]
    pub exhaustive: bool,
    /// Random inputs added to the edge list for 32-bit sources.
    #[arg(long, default_value_t = 1 << 24)]
    pub random: u64,
    /// Seed of the random inputs.
    #[arg(long, default_value_t = ProofOptions::default().seed)]
    pub seed: u64,
    /// NaN inputs may give any output (`any`): run but not compared.
    #[arg(long, value_enum, default_value_t = NanArg::Exact)]
    pub nan: NanArg,
    /// I/O contract of the kernels to prove (a `.pto` input): `raw` (default) or `tt-metal`
    /// (what `ptoc lower --emit llk` writes); a listing's `; @io` header names its own.
    #[arg(long, value_enum, default_value_t = AbiArg::Raw)]
    pub abi: AbiArg,
    /// How diagnostics and results are written.
    /// Toolchain whose defaults an omitted satmode / rmode NONE take (default pto-isa, with
    /// W0208 where the choice changes a result).
    #[arg(long, value_enum)]
    pub defaults: Option<super::args::DefaultsArg>,
    #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
    pub error_format: ErrorFormat,
    /// Split the input on `// -----` lines.
    #[arg(long)]
    pub split_input_file: bool,
    /// Input syntax of a module; default: by extension (.ptoasm → ptoasm), else pto.
    #[arg(long, value_enum)]
    pub input_format: Option<FormatArg>,
    /// A .pto or .ptoasm file (every tcvt and vcvt is lowered and proven) or a lowered listing
    /// (.s or .asm with an `; @io ... rmode=M sat=on|off` header).
    pub file: PathBuf,
}

fn arch_of(a: ArchArg) -> Arch {
    match a {
        ArchArg::Blackhole => Arch::Bh,
        ArchArg::Wormhole => Arch::Wh,
    }
}

fn report_diags(diags: &[Diagnostic], name: &str, text: &str, fmt: ErrorFormat, io: &mut Io<'_>) {
    match fmt {
        ErrorFormat::Human => io.err(&render_human(diags, name, text, io.color)),
        ErrorFormat::Json => io.err(&render_json(diags, name, text)),
    }
}

/// Distinct kernels in first-use order (several ops with one combination share a kernel).
fn distinct(file: &LoweredFile) -> Vec<&TensixKernel> {
    let mut seen = Vec::new();
    let mut out = Vec::new();
    for op in &file.ops {
        let key = (op.kernel.combo, op.kernel.vreg);
        if !seen.contains(&key) {
            seen.push(key);
            out.push(&op.kernel);
        }
    }
    out
}

pub fn run_lower(args: &LowerArgs, io: &mut Io<'_>) -> u8 {
    let Some((name, bytes)) = read_input(&args.file, io) else {
        return EXIT_USAGE;
    };
    let text = crate::driver::display_text(&bytes).into_owned();
    let arch = arch_of(args.arch);
    // `--nan any`: rules with a relaxed variant pick it (the kernel's `nan_any` says so);
    // the others keep their exact kernel, which is also correct under the relaxed rule.
    let abi = args.abi.map_or(
        if args.emit == EmitArg::Asm {
            Abi::Raw
        } else {
            Abi::TtMetal
        },
        AbiArg::abi,
    );
    let file = lower_file_as(
        &bytes,
        arch,
        &LowerOptions {
            format: input_format(args.input_format, &args.file),
            split_input: args.split_input_file,
            self_check: true,
            nan_any: args.nan == NanArg::Any,
            abi,
            defaults: args.defaults.map(|d| d.toolchain()),
        },
    );
    if !file.diagnostics.is_empty() {
        report_diags(&file.diagnostics, &name, &text, args.error_format, io);
    }
    if file.has_errors() {
        return EXIT_ERRORS;
    }
    let kernels = match select_kernel(distinct(&file), args.kernel) {
        Ok(k) => k,
        Err(m) => {
            io.err(&super::error_line(None, &m));
            return EXIT_USAGE;
        }
    };
    if let Some(dir) = &args.split_kernels {
        return write_split(dir, &kernels, args, io);
    }
    let out = if args.report {
        report_table(&kernels)
    } else if args.emit == EmitArg::Llk {
        // One header for every kernel: tt-llk code includes it once.
        emit::llk::emit_file(&kernels)
    } else if args.emit == EmitArg::Sfpi {
        emit::sfpi::emit_file(&kernels)
    } else {
        let n = kernels.len();
        let mut s = String::new();
        for (i, k) in kernels.iter().enumerate() {
            if n > 1 {
                s.push_str(&format!("; ----- kernel {} of {n}\n", i + 1));
            }
            s.push_str(&emit::asm::emit(k, args.plain));
        }
        if n == 0 {
            s.push_str("; no pto.tcvt or pto.vcvt to lower\n");
        }
        s
    };
    match &args.output {
        Some(p) => match std::fs::write(p, out) {
            Ok(()) => EXIT_OK,
            Err(e) => {
                io.err(&super::error_line(
                    None,
                    &format!("cannot write '{}': {e}", p.display()),
                ));
                EXIT_USAGE
            }
        },
        None => {
            io.out(&out);
            EXIT_OK
        }
    }
}

/// `--kernel N`: only the Nth kernel (1-based); the message of a usage error when there is none.
fn select_kernel(
    kernels: Vec<&TensixKernel>,
    n: Option<usize>,
) -> Result<Vec<&TensixKernel>, String> {
    let Some(n) = n else {
        return Ok(kernels);
    };
    match n.checked_sub(1).and_then(|i| kernels.get(i)) {
        Some(&k) => Ok(vec![k]),
        None => Err(format!(
            "--kernel {n}: the file has {} kernel(s), numbered from 1 (`--report` lists them)",
            kernels.len()
        )),
    }
}

/// `--split-kernels DIR`: one file per kernel, named by its slug; exit status.
fn write_split(
    dir: &std::path::Path,
    kernels: &[&TensixKernel],
    args: &LowerArgs,
    io: &mut Io<'_>,
) -> u8 {
    let fail = |io: &mut Io<'_>, what: &str, p: &std::path::Path, e: std::io::Error| {
        io.err(&super::error_line(
            None,
            &format!("cannot {what} '{}': {e}", p.display()),
        ));
        EXIT_USAGE
    };
    if let Err(e) = std::fs::create_dir_all(dir) {
        return fail(io, "create", dir, e);
    }
    let ext = match args.emit {
        EmitArg::Asm => "s",
        EmitArg::Llk | EmitArg::Sfpi => "h",
    };
    for k in kernels {
        let text = match args.emit {
            EmitArg::Asm => emit::asm::emit(k, args.plain),
            EmitArg::Llk => emit::llk::emit(k),
            EmitArg::Sfpi => emit::sfpi::emit(k),
        };
        let path = dir.join(format!("{}.{ext}", k.slug()));
        if let Err(e) = std::fs::write(&path, text) {
            return fail(io, "write", &path, e);
        }
    }
    EXIT_OK
}

/// Per kernel: rule, instructions and cycles per row. A vcvt program runs once per register,
/// not per row: its cycle cells say `n/a [1]` and footnote 1 gives its cycles per register.
fn report_table(kernels: &[&TensixKernel]) -> String {
    let mut s = String::from(
        "conversion | arch | rule | instructions/row | cycles/row plain | cycles/row macro | proven\n",
    );
    let mut footnotes = Vec::new();
    for k in kernels {
        let (plain, macro_form) = if k.vreg.is_some() {
            footnotes.push(vcvt_footnote(k));
            ("n/a [1]".to_string(), "n/a [1]".to_string())
        } else {
            (cycles_per_row(k), macro_cycles_per_row(k))
        };
        s.push_str(&format!(
            "{} {} | {} | {} | {} | {} | {} | {}edge list + 4096 random (self-check); `ptoc prove` for the full proof\n",
            k.op_name(),
            k.describe(),
            emit::asm::arch_name(k.arch),
            k.rule,
            k.body_len(),
            plain,
            macro_form,
            if k.nan_any {
                "relaxed --nan=any (NaN inputs not compared): "
            } else {
                ""
            },
        ));
    }
    if !footnotes.is_empty() {
        s.push_str(
            "[1] a vcvt program converts one whole register per run, not one Dst row: its \
             instructions and cycles are per register (`ptoc sim` prints cycles_per_register):\n",
        );
        for f in footnotes {
            s.push_str(&f);
        }
    }
    s
}

/// Footnote line of a vcvt kernel: its cycles per register, measured by running one all-zero,
/// all-active register (every register takes the same path).
fn vcvt_footnote(k: &TensixKernel) -> String {
    let cycles = k.vreg.map_or_else(
        || "not measured (no register shape)".to_string(),
        |shape| {
            let zeros = vec![0u64; shape.src_lanes];
            match crate::lower::tensix::vprove::run_registers(k, shape, &zeros, &|_| true) {
                Ok(r) => format!("{} cycles per register", r.cycles_per_register),
                Err(e) => format!("not measured ({e})"),
            }
        },
    );
    format!(
        "    vcvt {} [{}]: {} instructions, {cycles}\n",
        k.describe(),
        emit::asm::arch_name(k.arch),
        k.body_len()
    )
}

pub fn run_prove(args: &ProveArgs, io: &mut Io<'_>) -> u8 {
    let Some((name, bytes)) = read_input(&args.file, io) else {
        return EXIT_USAGE;
    };
    let text = crate::driver::display_text(&bytes).into_owned();
    let is_listing = args
        .file
        .extension()
        .is_some_and(|e| e == "s" || e == "asm");
    let kernels: Vec<TensixKernel> = if is_listing {
        match kernel_of_listing(&text, args.arch.map(arch_of)) {
            Ok(k) => vec![k],
            Err(e) => {
                io.err(&super::error_line(
                    Some(Code::ListingInvalid),
                    &e.located(&name),
                ));
                return EXIT_ERRORS;
            }
        }
    } else {
        let arch = args.arch.map_or(Arch::Bh, arch_of);
        let file = lower_file_as(
            &bytes,
            arch,
            &LowerOptions {
                format: input_format(args.input_format, &args.file),
                split_input: args.split_input_file,
                self_check: false,
                nan_any: args.nan == NanArg::Any,
                abi: args.abi.abi(),
                defaults: args.defaults.map(|d| d.toolchain()),
            },
        );
        if !file.diagnostics.is_empty() {
            report_diags(&file.diagnostics, &name, &text, args.error_format, io);
        }
        if file.has_errors() {
            return EXIT_ERRORS;
        }
        distinct(&file).into_iter().cloned().collect()
    };
    let opts = ProofOptions {
        exhaustive: args.exhaustive,
        random: args.random,
        seed: args.seed,
        nan_any: args.nan == NanArg::Any,
    };
    let mut failed = false;
    let mut json = Vec::new();
    for k in &kernels {
        let bits = k.combo.src.value_bits();
        let total = if bits <= 16 || !args.exhaustive {
            0
        } else {
            1u64 << 32
        };
        let bar = Progress::for_elements(total, &k.describe());
        let last = std::sync::atomic::AtomicU64::new(0);
        let started = std::time::Instant::now();
        let rep = prove::prove(k, &opts, &|done| {
            let before = last.swap(done, std::sync::atomic::Ordering::Relaxed);
            bar.inc(done.saturating_sub(before));
        });
        let secs = started.elapsed().as_secs_f64();
        bar.finish();
        failed |= !rep.passed();
        if let Some(e) = &rep.error {
            // The proof did not complete: an error with its code, never a mismatch count.
            io.err(&super::error_line(
                Some(Code::SimulationFailed),
                &format!("{} {}: {e}", k.op_name(), k.describe()),
            ));
        }
        match args.error_format {
            ErrorFormat::Human => {
                io.out(&render_proof(k, &rep, &opts));
                if args.exhaustive && bits > 16 && rep.error.is_none() {
                    // Throughput of the whole proof (simulator + reference), for the record.
                    let lane_insns = rep.inputs as f64 * k.body_len() as f64;
                    io.out(&format!(
                        "  {secs:.1} s, {:.3e} simulated lane-instructions/s\n",
                        lane_insns / secs.max(1e-9)
                    ));
                }
            }
            ErrorFormat::Json => json.push(proof_json(k, &rep)),
        }
    }
    if args.error_format == ErrorFormat::Json {
        io.out(&format!("{}\n", serde_json::json!({ "proofs": json })));
    }
    if failed {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

fn inputs_text(rep: &ProofReport, opts: &ProofOptions) -> String {
    if rep.exhaustive {
        format!("all {} inputs", rep.inputs)
    } else {
        format!(
            "{} inputs (edge list + {} random, seed {:#x})",
            rep.inputs, opts.random, opts.seed
        )
    }
}

/// One line per conversion, then the first mismatches. A proof that stopped on an error says
/// so instead of giving a mismatch count (its inputs were not all run).
pub fn render_proof(k: &TensixKernel, rep: &ProofReport, opts: &ProofOptions) -> String {
    let head = format!(
        "{} {} [{}] rule {}: ",
        k.op_name(),
        k.describe(),
        emit::asm::arch_name(k.arch),
        k.rule,
    );
    if let Some(e) = &rep.error {
        return format!(
            "{head}did not complete ({} inputs checked before the error)\n  error: {e}\n",
            rep.inputs
        );
    }
    let mut s = format!(
        "{head}{}, {}mismatches: {}\n",
        inputs_text(rep, opts),
        if rep.relaxed {
            format!(
                "relaxed --nan=any ({} NaN inputs run, not compared), ",
                rep.nan_skipped
            )
        } else {
            String::new()
        },
        rep.mismatches
    );
    if let Some(d) = rep.macro_mismatches {
        s.push_str(&format!(
            "  SFPLOADMACRO form vs plain program (D5): {d} differing outputs\n"
        ));
    }
    if let Some(n) = rep.masked_registers {
        s.push_str(&format!(
            "  whole result registers compared; mask: {n} registers under random masks (one all-inactive)\n"
        ));
    }
    let show = |elem: pto_runtime::ElemType, b: u64| {
        format!("{b:#x} ({})", pto_runtime::convert::display_value(elem, b))
    };
    for m in &rep.first {
        let got = match m.got {
            Some(g) => show(k.combo.dst, g),
            None => format!("non-canonical datum {:#010x}", m.got_word),
        };
        s.push_str(&format!(
            "  input {} -> expected {}, kernel gave {}\n",
            show(k.combo.src, m.input),
            show(k.combo.dst, m.expected),
            got
        ));
    }
    s
}

fn proof_json(k: &TensixKernel, rep: &ProofReport) -> serde_json::Value {
    serde_json::json!({
        "op": k.op_name(),
        "conversion": k.describe(),
        "arch": emit::asm::arch_name(k.arch),
        "rule": k.rule,
        "inputs": rep.inputs,
        "exhaustive": rep.exhaustive,
        "relaxed": rep.relaxed,
        "completed": rep.error.is_none(),
        // A proof that did not complete has no mismatch count.
        "mismatches": rep.error.is_none().then_some(rep.mismatches),
        "macro_mismatches": rep.macro_mismatches.filter(|_| rep.error.is_none()),
        "error": rep.error.as_ref().map(|e| serde_json::json!({
            "code": Code::SimulationFailed.as_str(), "message": e,
        })),
        "first": rep.first.iter().map(|m| serde_json::json!({
            "input": m.input, "expected": m.expected, "got_word": m.got_word,
        })).collect::<Vec<_>>(),
    })
}
