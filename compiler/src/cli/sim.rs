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
//! - stdout: (`init_cycles: N` when there is init code,) `rows: R`, then `cycles_per_row: N` as
//!   the last line: the steady-state SFPU cycles per row of the tensix.md §7 cycle model
//!   (`tensix::sim::cycle::steady_state` on init, body and drain: issue slots + auto-stalls per
//!   body run over ≥ 2 tiles after warm-up, cross-checked with the static count;
//!   SFPLOADMACRO-scheduled instructions take no issue slot), an integer or a decimal when not
//!   whole. Init and drain cycles are not part of it.
//! - Exit status: 0 done; 1 assembly or simulation error (`FILE:LINE:` of the faulting
//!   instruction when it has one, and its pc),
//!   including an undrained macro pipeline and a template write outside init code; 2 usage or I/O
//!   error (unreadable program/input, input size not a multiple of the word).
//!
//! Invariants: never panics on any input; only the `init_cycles:`/`rows:`/`cycles_per_row:`
//! lines go to stdout; every chunk ends with the macro pipeline empty.

use std::path::PathBuf;

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::asm;
use pto_runtime::tensix::dest::{lane_cell, Dest, Dst16Mode, LANES};
use pto_runtime::tensix::formats::{
    shuf16, shuf32, shuf_fp16, unshuf16, unshuf32, unshuf_fp16, Arch, Cell, DataFormat, DstConfig,
    View,
};
use pto_runtime::tensix::io::Datum;

use crate::lower::tensix::header::IoHeader;
use pto_runtime::tensix::isa::{Insn, Program};
use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::Kernel;
use pto_runtime::tensix::sim::{Machine, SimConfig, SimError, LC_DISABLE_BACKDOOR};

use super::{Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

/// Values per 32×32 tile.
const TILE: usize = 1024;

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
    /// Input: raw little-endian words (32-bit with --dest 32, 16-bit with --dest 16).
    #[arg(long, value_name = "IN.bin")]
    pub input: PathBuf,
    /// Output: raw little-endian words (width of --out-width, default --dest).
    #[arg(long, value_name = "OUT.bin")]
    pub output: PathBuf,
    /// Dst width: 32 = SFPU Fp32 mode on (Mod0 0 → FP32), 16 = off.
    #[arg(long, value_enum, default_value_t = WidthArg::W32)]
    pub dest: WidthArg,
    /// The 16-bit Dst format (resolves Mod0 0 with --dest 16 and lays out 16-bit words).
    #[arg(long, value_enum, default_value_t = DstFormatArg::Fp16b)]
    pub dst_format: DstFormatArg,
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

/// Word width of one side of the I/O.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    W32,
    W16(DstFormatArg),
    /// A PTO element type through the kernel I/O contract (`tensix::io`, from the `; @io`
    /// header): files hold elements as `ptoc cast` writes them; Dst holds 32-bit datums.
    Elem(ElemType, Datum),
}

impl Side {
    fn bytes(self) -> usize {
        match self {
            Side::W32 => 4,
            Side::W16(_) => 2,
            Side::Elem(e, _) => e.storage_bytes() as usize,
        }
    }

    fn is_32(self) -> bool {
        matches!(self, Side::W32 | Side::Elem(..))
    }

    /// The Dst cell that loads as `word` with the side's mode (the mode's inverse).
    fn cell_of_word(self, word: u32) -> Cell {
        match self {
            Side::W32 | Side::Elem(..) => Cell::D32(shuf32(word)),
            Side::W16(DstFormatArg::Fp16b) => Cell::D16(shuf16(word as u16)),
            Side::W16(DstFormatArg::Fp16a) => Cell::D16(shuf_fp16(word as u16)),
            Side::W16(DstFormatArg::Uint16) => Cell::D16(word as u16),
        }
    }

    /// The logical word of a cell (inverse of [`Side::cell_of_word`]).
    fn word_of(self, cell: Cell) -> Option<u32> {
        match (self, cell) {
            (Side::W32 | Side::Elem(..), Cell::D32(c)) => Some(unshuf32(c)),
            (Side::W16(DstFormatArg::Fp16b), Cell::D16(c)) => Some(u32::from(unshuf16(c))),
            (Side::W16(DstFormatArg::Fp16a), Cell::D16(c)) => Some(u32::from(unshuf_fp16(c))),
            (Side::W16(DstFormatArg::Uint16), Cell::D16(c)) => Some(u32::from(c)),
            _ => None,
        }
    }

    fn view(self) -> View {
        match self {
            Side::W32 | Side::Elem(..) => View::Dst32b,
            Side::W16(_) => View::Dst16b,
        }
    }
}

/// A failure of the run, with its exit status.
struct Fail {
    code: u8,
    msg: String,
}

fn usage(msg: String) -> Fail {
    Fail {
        code: EXIT_USAGE,
        msg,
    }
}

fn error(msg: String) -> Fail {
    Fail {
        code: EXIT_ERRORS,
        msg,
    }
}

pub fn run(args: &SimArgs, io: &mut Io<'_>) -> u8 {
    let mut warnings = Vec::new();
    let res = simulate(args, &mut warnings);
    for w in &warnings {
        io.err(&format!("ptoc sim: warning: {w}\n"));
    }
    match res {
        Ok(report) => {
            io.out(&report);
            EXIT_OK
        }
        Err(f) => {
            io.err(&format!("ptoc sim: {}\n", f.msg));
            f.code
        }
    }
}

fn simulate(args: &SimArgs, warnings: &mut Vec<String>) -> Result<String, Fail> {
    let text = read_text(&args.program)?;
    let header =
        IoHeader::find(&text).map_err(|m| error(format!("{}: {m}", args.program.display())))?;
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
        return super::sim_vcvt::simulate_vcvt(
            &text,
            h,
            arch,
            &args.input,
            &args.output,
            args.mask.as_deref(),
        )
        .map_err(|m| error(format!("{}: {m}", args.program.display())));
    }
    if args.mask.is_some() {
        return Err(usage(
            "--mask applies to pto.vcvt listings (`; @io ... op=vcvt`) only".to_string(),
        ));
    }
    let kernel =
        Kernel::parse(&text, arch).map_err(|e| error(format!("{}:{e}", args.program.display())))?;
    if kernel.body.insns.is_empty() {
        return Err(error(format!(
            "{}: the program has no loop-body instructions",
            args.program.display()
        )));
    }
    let init = match &args.init {
        Some(p) => concat(&load_program(p, arch)?, &kernel.init),
        None => kernel.init.clone(),
    };
    let drain = if kernel.drain.insns.is_empty() {
        Program::new(vec![Insn::Nop; DEFAULT_DRAIN])
    } else {
        kernel.drain.clone()
    };

    let side = |w: WidthArg, f: DstFormatArg| match w {
        WidthArg::W16 => Side::W16(f),
        WidthArg::W32 => Side::W32,
    };
    let (input_side, output_side) = match &header {
        Some(h) => (
            Side::Elem(h.src, h.src_datum),
            Side::Elem(h.dst, h.dst_datum),
        ),
        None => (
            side(args.dest, args.dst_format),
            side(
                args.out_width.unwrap_or(args.dest),
                args.out_format.unwrap_or(args.dst_format),
            ),
        ),
    };
    if header.is_some() && args.dest == WidthArg::W16 {
        return Err(usage(
            "--dest 16 contradicts the listing's `; @io` header (ptoc kernels use a 32-bit Dst)"
                .to_string(),
        ));
    }
    if header.is_none() && args.dst16_mode.is_none() && args.dest == WidthArg::W32 {
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
        usage(format!(
            "{}: {} bytes is not a whole number of {}-bit words",
            args.input.display(),
            bytes.len(),
            input_side.bytes() * 8
        ))
    })?;

    let srcb_format = match args.dst_format {
        DstFormatArg::Fp16b => DataFormat::Float16B,
        DstFormatArg::Fp16a => DataFormat::Float16,
        DstFormatArg::Uint16 => DataFormat::UInt16,
    };
    let cfg = SimConfig {
        strict: !args.allow_isa_modes,
        // Template writes through VD ≥ 12 are init code (tt-llk's `init_*`). The option is per
        // machine, so the body and drain are checked statically below instead.
        allow_backdoor: !init.insns.is_empty(),
        dst: DstConfig {
            sfpu_fp32: args.dest == WidthArg::W32,
            srcb_format,
        },
    };
    let mode = match args.dst16_mode {
        Some(Dst16ModeArg::Literal) | None => Dst16Mode::Literal,
        Some(Dst16ModeArg::HighHalf) => Dst16Mode::HighHalfOfDst32b,
    };
    // A chunk must fit both sides: 256 SFPU rows if either is 32-bit, else 512.
    let chunk_rows = if input_side.is_32() || output_side.is_32() {
        256
    } else {
        512
    };
    let chunk_values = chunk_rows * LANES;

    let mut machine = Machine::with_config(arch, cfg);
    let mut report = String::new();
    if !init.insns.is_empty() {
        // Init code touches no Dst rows the body relies on; it runs against a scratch Dst.
        machine.enter_kernel_state();
        let init_src = Source {
            path: args.init.as_deref().unwrap_or(&args.program),
            prog: &init,
        };
        let stats = machine
            .run(&init, &mut Dest::with_mode(mode))
            .map_err(|e| init_src.error("init: simulation", &e, true))?;
        report.push_str(&format!("init_cycles: {}\n", stats.cycles));
    }
    if machine.lane_config() & LC_DISABLE_BACKDOOR == 0 {
        for (what, prog) in [("loop body", &kernel.body), ("drain", &drain)] {
            if let Some((pc, vd)) = backdoor_write(prog) {
                return Err(error(format!(
                    "{what}: {}: writes macro template {} through VD {vd} (backdoor); template \
                     writes belong in the init code (`; @init` section or --init)",
                    pc_line(prog, pc),
                    vd - 12
                )));
            }
        }
    }
    let mut out = Vec::with_capacity(words.len() * output_side.bytes());
    let mut rows_run = 0u64;
    let mut noncanonical = 0u64;
    let mut start = 0usize;
    loop {
        let end = (start + chunk_values).min(words.len());
        let chunk = words.get(start..end).unwrap_or(&[]);
        // Whole tiles; an empty input still runs one zero tile to measure cycles.
        let padded = chunk.len().div_ceil(TILE).max(1) * TILE;
        let rows = padded / LANES;
        let mut dest = Dest::with_mode(mode);
        for i in 0..padded {
            let w = chunk.get(i).copied().unwrap_or(0);
            let (r, c) = cell_of(i)?;
            dest.write(r, c, input_side.cell_of_word(w))
                .map_err(|e| error(format!("placing input value {}: {e}", start + i)))?;
        }
        machine.set_rwc_dst(0);
        let body = Source {
            path: &args.program,
            prog: &kernel.body,
        };
        run_chunk(&mut machine, body, &mut dest, rows)?;
        // Scheduled (SFPLOADMACRO) stores of the last rows land during the drain: they must reach
        // this chunk's Dst, and none may stay pending into the next chunk.
        let what = format!("drain of the chunk from value {start}");
        let drain_src = Source {
            path: &args.program,
            prog: &drain,
        };
        // A macro error here may concern an instruction the body scheduled: no drain line.
        machine
            .run(&drain, &mut dest)
            .map_err(|e| drain_src.error(&what, &e, false))?;
        machine
            .check_drained()
            .map_err(|e| error(format!("{what}: {e}")))?;
        // Rows that carry input (padding rows are run but not counted).
        rows_run += chunk.len().div_ceil(LANES) as u64;
        for i in 0..chunk.len() {
            let (r, c) = cell_of(i)?;
            let cell = dest
                .read(output_side.view(), r, c)
                .map_err(|e| error(format!("reading output value {}: {e}", start + i)))?;
            let w = output_side
                .word_of(cell)
                .ok_or_else(|| error("internal: output view mismatch".to_string()))?;
            if !encode_word(&mut out, w, output_side) {
                noncanonical += 1;
            }
        }
        start = end;
        if start >= words.len() {
            break;
        }
    }
    if noncanonical > 0 {
        warnings.push(format!(
            "{noncanonical} outputs were not canonical {} datums (tensix::io); their element bits \
             were written as found",
            match output_side {
                Side::Elem(e, _) => e.ir_name(),
                _ => "",
            }
        ));
    }
    std::fs::write(&args.output, &out)
        .map_err(|e| usage(format!("cannot write {}: {e}", args.output.display())))?;
    // Steady-state cycles per row by the tensix.md §7 cycle model (D9): measured over ≥ 2 tiles
    // of body runs after warm-up and cross-checked against the static count; macro-scheduled
    // instructions take no issue slot. Init and drain cycles are not per-row costs.
    let steady = steady_state(arch, cfg, &init, &kernel.body, &drain, 2)
        .map_err(|e| error(format!("cycle model: {e}")))?;
    report.push_str(&format!(
        "rows: {rows_run}\ncycles_per_row: {}\n",
        per_row(steady.cycles_per_body, steady.rows_per_body as u64)
    ));
    Ok(report)
}

/// SFPNOPs run after each chunk when the listing has no `; @drain` section: a scheduled
/// instruction issued in cycle t with delay k ≤ 7 runs by cycle t + 8 (tensix.md §6.2), and NOPs
/// are harmless for plain programs.
const DEFAULT_DRAIN: usize = 8;

/// Reads a program file as UTF-8 text (exit 2 when unreadable).
fn read_text(path: &std::path::Path) -> Result<String, Fail> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| usage(format!("cannot read {shown}: {e}")))?;
    String::from_utf8(text).map_err(|e| {
        error(format!(
            "error[E0002]: {shown}: invalid UTF-8 at byte {}: programs are UTF-8 text",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads and assembles a program file (exit 2 when unreadable, 1 on assembly errors).
fn load_program(path: &std::path::Path, arch: Arch) -> Result<Program, Fail> {
    let text = read_text(path)?;
    asm::assemble(&text, arch).map_err(|e| error(format!("{}:{e}", path.display())))
}

/// `a` then `b` (source lines kept only when they all come from one program).
fn concat(a: &Program, b: &Program) -> Program {
    if b.insns.is_empty() {
        return a.clone();
    }
    if a.insns.is_empty() {
        return b.clone();
    }
    let mut insns = a.insns.clone();
    insns.extend_from_slice(&b.insns);
    Program::new(insns)
}

/// The first instruction of `prog` that writes a macro template through VD ≥ 12: `(pc, VD)`.
/// SFPLOAD/SFPLOADI/SFPSTORE/SFPLUT are left out (the simulator reports those as unmodelled).
fn backdoor_write(prog: &Program) -> Option<(usize, u8)> {
    prog.insns.iter().enumerate().find_map(|(pc, insn)| {
        let vd = insn.vd_field()?;
        let excluded = matches!(
            insn,
            Insn::Load { .. } | Insn::Store { .. } | Insn::LoadI { .. } | Insn::Lut { .. }
        );
        (vd >= 12 && !excluded).then_some((pc, vd))
    })
}

/// A program and the file it was read from, to locate simulation errors.
#[derive(Clone, Copy)]
struct Source<'a> {
    path: &'a std::path::Path,
    prog: &'a Program,
}

impl Source<'_> {
    /// `what: FILE:LINE: pc N: ...` when the faulting instruction has a source line in this
    /// program, else `what: pc N: ...`. Macro hazards name the instruction that scheduled the
    /// work, which belongs to this program only when `macro_pcs_here`.
    fn error(&self, what: &str, e: &SimError, macro_pcs_here: bool) -> Fail {
        let here = macro_pcs_here || !matches!(e, SimError::Macro { .. });
        match e
            .pc()
            .filter(|_| here)
            .and_then(|pc| self.prog.lines.get(pc))
        {
            Some(line) => error(format!("{what}: {}:{line}: {e}", self.path.display())),
            None => error(format!("{what}: {e}")),
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

/// Runs `rows` SFPU rows of the body; returns the cycles spent. The first run measures how far
/// the body advances RWC.Dst (2 per row it processes).
fn run_chunk(
    machine: &mut Machine,
    src: Source<'_>,
    dest: &mut Dest,
    rows: usize,
) -> Result<u64, Fail> {
    let program = src.prog;
    let sim_err = |e: SimError| src.error("simulation", &e, true);
    let before = machine.rwc_dst();
    let first = machine.run_rows(program, dest, 1).map_err(sim_err)?;
    let advance = usize::from(machine.rwc_dst().wrapping_sub(before) & 0x3FF);
    if advance == 0 || advance % 2 != 0 || rows % (advance / 2) != 0 {
        return Err(error(format!(
            "the program advances RWC.Dst by {advance} per run; expected a positive even amount \
             (2 per row, via ADDR_MOD_6 on blackhole / ADDR_MOD_2 on wormhole) dividing {rows} rows"
        )));
    }
    let runs = rows / (advance / 2);
    let rest = machine.run_rows(program, dest, runs - 1).map_err(sim_err)?;
    Ok(first.cycles + rest.cycles)
}

/// Dst `(row, column)` of logical value `i` of a chunk: SFPU row `i / 32` at address `2·(i/32)`,
/// lane `i % 32`.
fn cell_of(i: usize) -> Result<(usize, usize), Fail> {
    let addr =
        u16::try_from(2 * (i / LANES)).map_err(|_| error(format!("value {i} beyond Dst")))?;
    lane_cell(addr, i % LANES).map_err(|e| error(format!("value {i}: {e}")))
}

fn decode_words(bytes: &[u8], side: Side) -> Option<Vec<u32>> {
    let n = side.bytes();
    if bytes.len() % n != 0 {
        return None;
    }
    Some(
        bytes
            .chunks_exact(n)
            .map(|c| {
                let raw = match c {
                    [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
                    [a, b] => u32::from(u16::from_le_bytes([*a, *b])),
                    [a] => u32::from(*a),
                    _ => 0,
                };
                match side {
                    Side::Elem(_, d) => d.word_of_bits(u64::from(raw)),
                    _ => raw,
                }
            })
            .collect(),
    )
}

/// Appends the output word; for element sides, returns false when the datum was not canonical
/// (its element bits are then written as found).
fn encode_word(out: &mut Vec<u8>, w: u32, side: Side) -> bool {
    match side {
        Side::W32 => out.extend_from_slice(&w.to_le_bytes()),
        Side::W16(_) => out.extend_from_slice(&(w as u16).to_le_bytes()),
        Side::Elem(e, d) => {
            let (bits, ok) = match d.bits_of_word(w) {
                Some(b) => (b, true),
                None if d == Datum::HighHalf16 => (u64::from(w >> 16), false),
                None => (u64::from(w), false),
            };
            let n = e.storage_bytes() as usize;
            out.extend_from_slice(&bits.to_le_bytes()[..n]);
            return ok;
        }
    }
    true
}

/// The first 16-bit load/store mode the kernel uses, if any (OPEN Q1 view mixing).
fn sixteen_bit_access(k: &Kernel) -> Option<&'static str> {
    use pto_runtime::tensix::formats::Mod0;
    [&k.init, &k.body, &k.drain]
        .into_iter()
        .flat_map(|p| p.insns.iter())
        .find_map(|i| match *i {
            Insn::Load { mod0, .. } | Insn::Store { mod0, .. } | Insn::LoadMacro { mod0, .. } => {
                match mod0 {
                    Mod0::Fp16
                    | Mod0::Bf16
                    | Mod0::Uint16
                    | Mod0::Hi16
                    | Mod0::Int16
                    | Mod0::Lo16
                    | Mod0::Lo16Only
                    | Mod0::Hi16Only
                    | Mod0::Int8 => Some(mod0.isa_name()),
                    _ => None,
                }
            }
            _ => None,
        })
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

    #[test]
    fn words_round_trip_through_cells() {
        let sides = [
            Side::W32,
            Side::W16(DstFormatArg::Fp16b),
            Side::W16(DstFormatArg::Fp16a),
            Side::W16(DstFormatArg::Uint16),
        ];
        for side in sides {
            let mut rng = fastrand::Rng::with_seed(2);
            for _ in 0..10_000 {
                let w = match side {
                    Side::W32 | Side::Elem(..) => rng.u32(..),
                    Side::W16(_) => u32::from(rng.u16(..)),
                };
                assert_eq!(side.word_of(side.cell_of_word(w)), Some(w));
            }
        }
        // Words are logical values: a 32-bit word is stored shuffled (Sign ManHi Exp ManLo).
        assert_eq!(Side::W32.cell_of_word(0x3F80_0001), Cell::D32(0x007F_0001));
        assert_eq!(Side::W32.word_of(Cell::D16(0)), None);
    }

    #[test]
    fn word_files() {
        assert_eq!(
            decode_words(&[1, 0, 0, 0x80, 2, 0, 0, 0], Side::W32),
            Some(vec![0x8000_0001, 2])
        );
        assert_eq!(
            decode_words(&[1, 0x80, 2, 0], Side::W16(DstFormatArg::Fp16b)),
            Some(vec![0x8001, 2])
        );
        assert_eq!(decode_words(&[1, 2, 3], Side::W32), None);
        let mut out = Vec::new();
        encode_word(&mut out, 0x1234_5678, Side::W32);
        encode_word(&mut out, 0x1234_5678, Side::W16(DstFormatArg::Uint16));
        assert_eq!(out, [0x78, 0x56, 0x34, 0x12, 0x78, 0x56]);
        // Element sides: files hold elements, Dst holds canonical datums.
        let i8_side = Side::Elem(ElemType::I8, Datum::SignExt8);
        assert_eq!(
            decode_words(&[0x80, 1], i8_side),
            Some(vec![0xFFFF_FF80, 1])
        );
        let mut out = Vec::new();
        assert!(encode_word(&mut out, 0xFFFF_FF80, i8_side));
        assert!(!encode_word(&mut out, 0x0000_0180, i8_side));
        assert_eq!(out, [0x80, 0x80]);
    }

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
        let msg = |f: Fail| (f.code, f.msg);
        assert_eq!(
            msg(src.error("simulation", &uninit, false)),
            (
                EXIT_ERRORS,
                "simulation: k.s:4: pc 1: read of uninitialised L5 in lanes 0x00000001".to_string()
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
            .starts_with("run: k.s:2: pc 0: "));
    }

    #[test]
    fn init_code_is_the_file_then_the_section() {
        let a = Program::new(vec![Insn::Nop]);
        let k = Kernel::parse("; @init\nsfpnop\nsfpnop\n; @body\nsfpnop\n", Arch::Bh)
            .unwrap_or_default();
        assert_eq!((k.init.insns.len(), k.body.insns.len()), (2, 1));
        assert_eq!(concat(&a, &k.init).insns.len(), 3);
        assert_eq!(concat(&Program::default(), &k.init), k.init);
        assert_eq!(concat(&a, &Program::default()), a);
    }

    #[test]
    fn values_map_to_sfpu_rows() {
        assert_eq!(cell_of(0).ok(), Some((0, 0)));
        assert_eq!(cell_of(33).ok(), Some((0, 3)));
        assert_eq!(cell_of(32 * 4).ok(), Some((8, 0)));
    }
}
