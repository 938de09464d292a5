//! `ptoc sim`: runs an SFPU kernel over a Dest image on the Tensix simulator (tensix.md §4.7),
//! plain or SFPLOADMACRO-scheduled.
//!
//! ```text
//! ptoc sim PROGRAM.s [--arch wormhole|blackhole] --input IN.bin --output OUT.bin
//!          [--dest 32|16] [--dst-format fp16b|fp16a|uint16] [--out-width 16|32]
//!          [--out-format fp16b|fp16a|uint16] [--dst16-mode literal|high-half]
//!          [--allow-isa-modes] [--init INIT.s]
//! ```
//! - PROGRAM is SFPU assembly (`tensix::asm`, the seed's listing syntax); default arch blackhole.
//!   It may be split into sections by the marker lines `; @init`, `; @body`, `; @drain`
//!   (`tensix::sim::kernel::Kernel::parse`, the form of the published listings); text before the
//!   first marker, and the whole file when there is none, is the loop body. The body must not be
//!   empty.
//! - IN holds raw little-endian words, 32-bit with `--dest 32` (default), 16-bit with `--dest 16`.
//!   Each word is a *logical* value: the LReg value SFPLOAD would produce with the matching mode
//!   — FP32/INT32 (raw) for 32-bit words; for 16-bit words the mode of `--dst-format`: BF16
//!   (`fp16b`, default: the word is the bf16 bits), FP16 (`fp16a`: Tensix fp16 bits, IEEE field
//!   order) or UINT16 (`uint16`: opaque). Each word goes into Dst through that mode's inverse
//!   (i.e. shuffled into the Dst layout), value `32k + l` at SFPU row `k` (address `2k`), lane `l`.
//! - The body runs once per row with tt-llk's typecast address modes (BH `ADDR_MOD_7` +0,
//!   `ADDR_MOD_6` +2; WH `ADDR_MOD_3` +0, `ADDR_MOD_2` +2), RWC.Dst starting at 0, and the D7
//!   kernel state (all lanes enabled, flags true, empty CC stack) re-established before every
//!   row. The body must advance RWC.Dst by a positive even amount per run (`2·rows per run`).
//! - Init code — the `--init INIT.s` file, then the `; @init` section — runs once before the first
//!   row, in the D7 kernel state, like tt-llk's `init_*` functions (SFPCONFIG constants, LREG
//!   setup, macro templates/sequences/Misc); its cycles are reported as `init_cycles: N` and not
//!   counted per row. State it leaves (LRegs, constants, macro configuration) carries over to every
//!   chunk. Macro template writes through VD ≥ 12 (the backdoor, tensix.md §1.1) are allowed in
//!   init code only: a body or drain instruction that would write a template is an error (while
//!   LaneConfig.DISABLE_BACKDOOR is clear after init).
//! - After the rows of each chunk the drain runs on that chunk's Dst — the `; @drain` section, or
//!   8 SFPNOPs when the listing has none — and the SFPLOADMACRO pipeline must then be empty
//!   (`Machine::check_drained`): scheduled stores of the last rows land in their own chunk, and
//!   one still pending is an error rather than a lost store or one leaking into the next chunk.
//! - `--dest 32` turns the SFPU Fp32 mode on (Mod0 0 → FP32); `--dest 16` leaves it off
//!   (Mod0 0 → BF16 or FP16 by `--dst-format`). Outputs are read back the same way as inputs,
//!   with the width of `--out-width` (default: `--dest`) and, for 16-bit output words, the layout
//!   of `--out-format` (default: `--dst-format`; e.g. raw u16 in, bf16 out).
//! - Inputs larger than Dst run in Dst-sized chunks of whole 32×32 tiles (8 tiles with a 32-bit
//!   side, 16 when both sides are 16-bit); the last chunk is padded with zeros, which are run but
//!   not written out. An empty input runs one all-zero tile (to measure cycles) and writes nothing.
//!   Every chunk starts from the machine state init left, so chunks are independent and run on
//!   all cores; the output does not depend on the number of threads.
//! - stdout: (`init_cycles: N` when there is init code,) `rows: R`, then `cycles_per_row: N` as
//!   the last line: the steady-state SFPU cycles per row of the tensix.md §7 cycle model
//!   (`tensix::sim::cycle::steady_state` on init, body and drain: issue slots + auto-stalls per
//!   body run over ≥ 2 tiles after warm-up, cross-checked with the static count;
//!   SFPLOADMACRO-scheduled instructions take no issue slot), an integer or a decimal when not
//!   whole. Init and drain cycles are not part of it.
//! - A listing with a `; @io` header (ptoc's kernels) fixes the word sides (its src/dst elements)
//!   and the 32-bit Dst: `--dest`, `--dst-format`, `--out-width`, `--out-format` and
//!   `--dst16-mode` are then refused (usage error) rather than ignored.
//! - Errors are one line, `ptoc: error[CODE]: FILE:LINE[:COL]: ...` (`cli::error_line`).
//!   Exit status: 0 done; 1 with a code: E0801 the listing does not assemble or its header is
//!   bad, E0802 an input (or mask) file that is not whole words/elements/registers, E0803 a
//!   simulation error (`FILE:LINE:` of the faulting instruction when it has one, and its pc),
//!   including an undrained macro pipeline and a template write outside init code; 2 usage or
//!   I/O error without a code (unreadable program/input, contradicting options).
//!
//! The Tensix I/O contract (word sides, Dst configuration, chunking, drain and init
//! conventions, the set-up and the chunked run — the same path `ptoc prove` proves a listing
//! on) lives in `pto_runtime::tensix::sim_io`; this module is the
//! edge: arguments, files, header checks, error locations and the report.
//!
//! Invariants: never panics on any input; only the `init_cycles:`/`rows:`/`cycles_per_row:`
//! lines go to stdout; every chunk ends with the macro pipeline empty.

use std::path::PathBuf;

use pto_runtime::tensix::asm;
use pto_runtime::tensix::dest::Dst16Mode;
use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim_io::{
    concat, decode_words, default_drain, dst_config, prepare, sixteen_bit_access, ChunkError,
    ChunkedRun, Dst16Format, PrepareError, WordSide,
};

use crate::lower::tensix::header::IoHeader;
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::Kernel;
use pto_runtime::tensix::sim::SimError;

use super::{Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::diag::Code;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ArchArg {
    #[value(alias = "bh")]
    Blackhole,
    #[value(alias = "wh")]
    Wormhole,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum WidthArg {
    #[value(name = "16")]
    W16,
    #[value(name = "32")]
    W32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DstFormatArg {
    /// BF16 (Float16_b): Mod0 0 → BF16.
    #[value(alias = "bf16")]
    Fp16b,
    /// Tensix FP16 (Float16): Mod0 0 → FP16.
    #[value(alias = "fp16")]
    Fp16a,
    /// Opaque 16 bits (UInt16): Mod0 0 → BF16; words are placed raw.
    Uint16,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Dst16ModeArg {
    /// `Dst16b[r][c]` is the physical cell (reset behaviour).
    Literal,
    /// `Dst16b[r][c]` is the high half of `Dst32b[r][c]` (OPEN Q1).
    HighHalf,
}

#[derive(Debug, clap::Args)]
pub struct SimArgs {
    /// SFPU assembly program (the loop body of one row).
    pub program: PathBuf,
    /// Target architecture; default: the listing's `; @io arch=` header, else blackhole.
    #[arg(long, value_enum)]
    pub arch: Option<ArchArg>,
    /// Input: little-endian words (32-bit with --dest 32, 16-bit with --dest 16); for a listing
    /// with a `; @io` header, the header's src elements as `ptoc cast` writes them (whole
    /// registers for a vcvt listing).
    #[arg(long, value_name = "IN.bin")]
    pub input: PathBuf,
    /// Output: little-endian words (width of --out-width, default --dest); with a `; @io`
    /// header, the header's dst elements.
    #[arg(long, value_name = "OUT.bin")]
    pub output: PathBuf,
    /// Dst width: 32 = SFPU Fp32 mode on (Mod0 0 → FP32), 16 = off; default 32. Headerless
    /// listings only (as --dst-format, --out-width, --out-format, --dst16-mode).
    #[arg(long, value_enum)]
    pub dest: Option<WidthArg>,
    /// The 16-bit Dst format (resolves Mod0 0 with --dest 16 and lays out 16-bit words);
    /// default fp16b.
    #[arg(long, value_enum)]
    pub dst_format: Option<DstFormatArg>,
    /// Output word width; default: --dest.
    #[arg(long, value_enum)]
    pub out_width: Option<WidthArg>,
    /// The layout of 16-bit output words; default: --dst-format.
    #[arg(long, value_enum, value_name = "DST_FORMAT")]
    pub out_format: Option<DstFormatArg>,
    /// How Dst16b maps onto the storage (OPEN Q1); default literal, with a warning when a
    /// headerless listing mixes 16-bit accesses into a 32-bit Dst.
    #[arg(long, value_enum)]
    pub dst16_mode: Option<Dst16ModeArg>,
    /// Also execute load/store/instruction modes documented only by the ISA pages (not D1-strict).
    #[arg(long)]
    pub allow_isa_modes: bool,
    /// Initialisation program run once before the first row (constants, SFPCONFIG).
    #[arg(long, value_name = "INIT.s")]
    pub init: Option<PathBuf>,
    /// vcvt listings (`; @io ... op=vcvt`): each register's mask as 32 bytes of raw predicate
    /// storage (what `ptoc run` reads for a mask argument); default: every lane active.
    #[arg(long, value_name = "MASK.bin")]
    pub mask: Option<PathBuf>,
}

impl DstFormatArg {
    fn format(self) -> Dst16Format {
        match self {
            DstFormatArg::Fp16b => Dst16Format::Fp16b,
            DstFormatArg::Fp16a => Dst16Format::Fp16a,
            DstFormatArg::Uint16 => Dst16Format::Uint16,
        }
    }
}

/// A failure of the run: exit status, stable code (none for usage and I/O errors), message.
pub(super) struct Fail {
    pub(super) status: u8,
    pub(super) code: Option<Code>,
    pub(super) msg: String,
}

/// A usage or I/O error (exit 2, no code).
pub(super) fn usage(msg: String) -> Fail {
    Fail {
        status: EXIT_USAGE,
        code: None,
        msg,
    }
}

/// An error about the listing or the data (exit 1, with its code).
pub(super) fn error(code: Code, msg: String) -> Fail {
    Fail {
        status: EXIT_ERRORS,
        code: Some(code),
        msg,
    }
}

pub fn run(args: &SimArgs, io: &mut Io<'_>) -> u8 {
    let mut warnings = Vec::new();
    let res = simulate(args, &mut warnings);
    for w in &warnings {
        io.err(&super::warning_line(w));
    }
    match res {
        Ok(report) => {
            io.out(&report);
            EXIT_OK
        }
        Err(f) => {
            io.err(&super::error_line(f.code, &f.msg));
            f.status
        }
    }
}

/// The options that describe a headerless listing's words; a `; @io` header fixes them (its
/// element types, a 32-bit Dst), so giving one with a header is refused rather than ignored.
fn header_conflicts(args: &SimArgs) -> Option<&'static str> {
    [
        (args.dest == Some(WidthArg::W16), "--dest 16"),
        (args.dst_format.is_some(), "--dst-format"),
        (args.out_width.is_some(), "--out-width"),
        (args.out_format.is_some(), "--out-format"),
        (args.dst16_mode.is_some(), "--dst16-mode"),
    ]
    .into_iter()
    .find_map(|(given, name)| given.then_some(name))
}

fn simulate(args: &SimArgs, warnings: &mut Vec<String>) -> Result<String, Fail> {
    let text = read_text(&args.program)?;
    let shown = args.program.display().to_string();
    let header =
        IoHeader::find(&text).map_err(|e| error(Code::ListingInvalid, e.located(&shown)))?;
    if header.is_some() {
        if let Some(flag) = header_conflicts(args) {
            return Err(usage(format!(
                "{flag} contradicts the listing's `; @io` header: its words are the header's \
                 src/dst elements in a 32-bit Dst (ptoc's kernel I/O contract); drop {flag}"
            )));
        }
    }
    let arch = match (args.arch, header.as_ref().map(|h| h.arch)) {
        (Some(ArchArg::Blackhole), _) => Arch::Bh,
        (Some(ArchArg::Wormhole), _) => Arch::Wh,
        (None, Some(a)) => a,
        (None, None) => Arch::Bh,
    };
    if let (Some(h), Some(_)) = (&header, args.arch) {
        if h.arch != arch {
            return Err(usage(format!(
                "--arch contradicts the listing's `; @io arch=` header ({})",
                crate::lower::tensix::emit::asm::arch_name(h.arch)
            )));
        }
    }
    if let Some(h) = header.as_ref().filter(|h| h.vcvt) {
        if args.init.is_some() {
            return Err(usage(
                "--init applies to tcvt listings; a vcvt listing carries its own init".to_string(),
            ));
        }
        return super::sim_vcvt::simulate_vcvt(
            &args.program,
            &text,
            h,
            arch,
            &args.input,
            &args.output,
            args.mask.as_deref(),
        );
    }
    if args.mask.is_some() {
        return Err(usage(
            "--mask applies to pto.vcvt listings (`; @io ... op=vcvt`) only".to_string(),
        ));
    }
    let kernel = Kernel::parse(&text, arch)
        .map_err(|e| error(Code::ListingInvalid, format!("{shown}:{e}")))?;
    if kernel.body.insns.is_empty() {
        return Err(error(
            Code::ListingInvalid,
            format!("{shown}: the program has no loop-body instructions"),
        ));
    }
    let dest = args.dest.unwrap_or(WidthArg::W32);
    let dst_format = args.dst_format.unwrap_or(DstFormatArg::Fp16b);
    let init = match &args.init {
        Some(p) => concat(&load_program(p, arch)?, &kernel.init),
        None => kernel.init.clone(),
    };
    let drain = default_drain(&kernel);

    let side = |w: WidthArg, f: DstFormatArg| match w {
        WidthArg::W16 => WordSide::W16(f.format()),
        WidthArg::W32 => WordSide::W32,
    };
    let (input_side, output_side) = match &header {
        Some(h) => (
            WordSide::Elem(h.src, h.src_datum),
            WordSide::Elem(h.dst, h.dst_datum),
        ),
        None => (
            side(dest, dst_format),
            side(
                args.out_width.unwrap_or(dest),
                args.out_format.unwrap_or(dst_format),
            ),
        ),
    };
    if header.is_none() && args.dst16_mode.is_none() && dest == WidthArg::W32 {
        if let Some(m) = sixteen_bit_access(&kernel) {
            warnings.push(format!(
                "{}: the listing accesses 32-bit Dst with the 16-bit mode {m}, whose meaning \
                 depends on how Dst16b maps onto Dst32b (tensix.md OPEN Q1); using \
                 --dst16-mode literal. Pass --dst16-mode literal|high-half to choose.",
                args.program.display()
            ));
        }
    }
    let bytes = std::fs::read(&args.input)
        .map_err(|e| usage(format!("cannot read {}: {e}", args.input.display())))?;
    let words = decode_words(&bytes, input_side).ok_or_else(|| {
        let unit = match input_side {
            WordSide::Elem(e, _) => format!("{} elements", e.ir_name()),
            _ => format!("{}-bit words", input_side.bytes() * 8),
        };
        error(
            Code::InputSize,
            format!(
                "{}: {} bytes is not a whole number of {unit} ({} bytes each)",
                args.input.display(),
                bytes.len(),
                input_side.bytes()
            ),
        )
    })?;

    let mode = match args.dst16_mode {
        Some(Dst16ModeArg::Literal) | None => Dst16Mode::Literal,
        Some(Dst16ModeArg::HighHalf) => Dst16Mode::HighHalfOfDst32b,
    };
    let whole = Kernel {
        init,
        body: kernel.body.clone(),
        drain: kernel.drain.clone(),
    };
    let init_src = Source {
        path: args.init.as_deref().unwrap_or(&args.program),
        prog: &whole.init,
    };
    let prepared = prepare(
        arch,
        !args.allow_isa_modes,
        dst_config(dest == WidthArg::W32, dst_format.format()),
        &whole,
        mode,
    )
    .map_err(|e| match e {
        PrepareError::Init { source } => init_src.error("init: simulation", &source, true),
        PrepareError::Backdoor { section, pc, vd } => {
            let prog = if section == "drain" {
                &drain
            } else {
                &kernel.body
            };
            error(
                Code::SimulationFailed,
                format!(
                    "{section}: {}: writes macro template {} through VD {vd} (backdoor); \
                     template writes belong in the init code (`; @init` section or --init)",
                    pc_line(prog, pc),
                    vd.saturating_sub(12)
                ),
            )
        }
    })?;
    let (cfg, init) = (prepared.cfg, &whole.init);
    let machine = &prepared.machine;
    let mut report = String::new();
    if let Some(c) = prepared.init_cycles {
        report.push_str(&format!("init_cycles: {c}\n"));
    }
    let run = ChunkedRun {
        machine,
        body: &kernel.body,
        drain: &drain,
        input: input_side,
        output: output_side,
        dst16_mode: mode,
    };
    let body_src = Source {
        path: &args.program,
        prog: &kernel.body,
    };
    let drain_src = Source {
        path: &args.program,
        prog: &drain,
    };
    let done = run.run(&words).map_err(|e| match e {
        ChunkError::Body { source } => body_src.error("simulation", &source, true),
        // A macro error here may concern an instruction the body scheduled: no drain line.
        ChunkError::Drain { start, source } => drain_src.error(
            &format!("drain of the chunk from value {start}"),
            &source,
            false,
        ),
        e => error(Code::SimulationFailed, e.to_string()),
    })?;
    let (out, rows_run, noncanonical) = (done.bytes, done.rows, done.noncanonical);
    if noncanonical > 0 {
        warnings.push(format!(
            "{noncanonical} outputs were not canonical {} datums (tensix::io); their element bits \
             were written as found",
            match output_side {
                WordSide::Elem(e, _) => e.ir_name(),
                _ => "",
            }
        ));
    }
    std::fs::write(&args.output, &out)
        .map_err(|e| usage(format!("cannot write {}: {e}", args.output.display())))?;
    // Steady-state cycles per row by the tensix.md §7 cycle model (D9): measured over ≥ 2 tiles
    // of body runs after warm-up and cross-checked against the static count; macro-scheduled
    // instructions take no issue slot. Init and drain cycles are not per-row costs.
    let steady = steady_state(arch, cfg, init, &kernel.body, &drain, 2)
        .map_err(|e| error(Code::SimulationFailed, format!("cycle model: {e}")))?;
    report.push_str(&format!(
        "rows: {rows_run}\ncycles_per_row: {}\n",
        per_row(steady.cycles_per_body, steady.rows_per_body as u64)
    ));
    Ok(report)
}

/// Reads a program file as UTF-8 text (exit 2 when unreadable).
fn read_text(path: &std::path::Path) -> Result<String, Fail> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| usage(format!("cannot read {shown}: {e}")))?;
    String::from_utf8(text).map_err(|e| {
        error(
            Code::InvalidUtf8,
            format!(
                "{shown}: invalid UTF-8 at byte {}: programs are UTF-8 text",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Reads and assembles a program file (exit 2 when unreadable, 1 on assembly errors).
fn load_program(path: &std::path::Path, arch: Arch) -> Result<Program, Fail> {
    let text = read_text(path)?;
    asm::assemble(&text, arch)
        .map_err(|e| error(Code::ListingInvalid, format!("{}:{e}", path.display())))
}

/// A program and the file it was read from, to locate simulation errors.
#[derive(Clone, Copy)]
struct Source<'a> {
    path: &'a std::path::Path,
    prog: &'a Program,
}

impl Source<'_> {
    /// `FILE:LINE: what: pc N: ...` when the faulting instruction has a source line in this
    /// program, else `what: pc N: ...`. Macro hazards name the instruction that scheduled the
    /// work, which belongs to this program only when `macro_pcs_here`.
    fn error(&self, what: &str, e: &SimError, macro_pcs_here: bool) -> Fail {
        let here = macro_pcs_here || !matches!(e, SimError::Macro { .. });
        match e
            .pc()
            .filter(|_| here)
            .and_then(|pc| self.prog.lines.get(pc))
        {
            Some(line) => error(
                Code::SimulationFailed,
                format!("{}:{line}: {what}: {e}", self.path.display()),
            ),
            None => error(Code::SimulationFailed, format!("{what}: {e}")),
        }
    }
}

/// `pc N`, with its source line when known.
fn pc_line(prog: &Program, pc: usize) -> String {
    match prog.lines.get(pc) {
        Some(line) => format!("pc {pc} (line {line})"),
        None => format!("pc {pc}"),
    }
}

/// `cycles / rows` as an integer when exact, else a decimal (3 places).
fn per_row(cycles: u64, rows: u64) -> String {
    if rows == 0 {
        return "0".to_string();
    }
    if cycles % rows == 0 {
        (cycles / rows).to_string()
    } else {
        format!("{:.3}", cycles as f64 / rows as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pto_runtime::tensix::sim_io::backdoor_write;

    #[test]
    fn cycles_per_row_rendering() {
        assert_eq!(per_row(26, 2), "13");
        assert_eq!(per_row(5, 2), "2.500");
        assert_eq!(per_row(0, 0), "0");
    }

    #[test]
    fn backdoor_writes_are_found_statically() {
        let prog = |t: &str| asm::assemble(t, Arch::Bh).unwrap_or_default();
        // SFPIADD into L13 writes template 1; SFPLOADI into L13 is not a template write here.
        let p = prog("sfploadi L13, USHORT, 1\nsfpiadd 0, L0, L13, CC_NONE\n");
        assert_eq!(p.insns.len(), 2);
        assert_eq!(backdoor_write(&p), Some((1, 13)));
        assert_eq!(pc_line(&p, 1), "pc 1 (line 2)");
        let q = prog("sfpiadd 0, L0, L11, CC_NONE\nsfpnop\n");
        assert_eq!(q.insns.len(), 2);
        assert_eq!(backdoor_write(&q), None);
    }

    #[test]
    fn simulation_errors_are_located_in_their_program() {
        let p = asm::assemble("; a comment\nsfpnop\n\nsfpnop\n", Arch::Bh).unwrap_or_default();
        let src = Source {
            path: std::path::Path::new("k.s"),
            prog: &p,
        };
        let uninit = SimError::Uninitialised {
            pc: 1,
            reg: 5,
            lanes: 1,
        };
        let msg = |f: Fail| (f.status, f.code, f.msg);
        assert_eq!(
            msg(src.error("simulation", &uninit, false)),
            (
                EXIT_ERRORS,
                Some(Code::SimulationFailed),
                "k.s:4: simulation: pc 1: read of uninitialised L5 in lanes 0x00000001".to_string()
            )
        );
        // No source line for the pc: the pc alone.
        let far = SimError::StackOverflow { pc: 9 };
        assert_eq!(
            src.error("x", &far, true).msg,
            "x: pc 9: flag stack overflow"
        );
        // A macro hazard may name an instruction of another program (the body, from the drain).
        let hazard = SimError::Macro {
            pc: 0,
            hazard: pto_runtime::tensix::sim::MacroHazard::Undrained { pending: 1 },
        };
        assert!(src
            .error("drain", &hazard, false)
            .msg
            .starts_with("drain: pc 0: "));
        assert!(src
            .error("run", &hazard, true)
            .msg
            .starts_with("k.s:2: run: pc 0: "));
    }
}
