//! `ptoc sim`: runs an SFPU program body over a Dest image on the Tensix simulator
//! (tensix.md §4.7).
//!
//! ```text
//! ptoc sim PROGRAM.s [--arch wormhole|blackhole] --input IN.bin --output OUT.bin
//!          [--dest 32|16] [--dst-format fp16b|fp16a|uint16] [--out-width 16|32]
//!          [--dst16-mode literal|high-half] [--allow-isa-modes] [--init INIT.s]
//! ```
//! - PROGRAM is SFPU assembly (`tensix::asm`, the seed's listing syntax); default arch blackhole.
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
//! - `--init INIT.s` (optional) runs once before the first row, in the D7 kernel state, like
//!   tt-llk's `init_*` functions (SFPCONFIG constants, LREG setup); its cycles are reported as
//!   `init_cycles: N` and not counted per row. State it leaves (LRegs, constants) carries over.
//! - `--dest 32` turns the SFPU Fp32 mode on (Mod0 0 → FP32); `--dest 16` leaves it off
//!   (Mod0 0 → BF16 or FP16 by `--dst-format`). Outputs are read back the same way as inputs,
//!   with the width of `--out-width` (default: `--dest`).
//! - Inputs larger than Dst run in Dst-sized chunks of whole 32×32 tiles (8 tiles with a 32-bit
//!   side, 16 when both sides are 16-bit); the last chunk is padded with zeros, which are run but
//!   not written out. An empty input runs one all-zero tile (to measure cycles) and writes nothing.
//! - stdout: (`init_cycles: N`,) `rows: R`, then `cycles_per_row: N` as the last line: SFPU
//!   issue cycles (incl. auto-stalls) per row from the simulator's counts (integer, or a decimal
//!   when not whole).
//! - Exit status: 0 done; 1 assembly or simulation error (the message names the line/pc);
//!   2 usage or I/O error (unreadable program/input, input size not a multiple of the word).
//!
//! Invariants: never panics on any input; only the `init_cycles:`/`rows:`/`cycles_per_row:`
//! lines go to stdout.

use std::path::PathBuf;

use pto_runtime::tensix::asm;
use pto_runtime::tensix::dest::{lane_cell, Dest, Dst16Mode, LANES};
use pto_runtime::tensix::formats::{
    shuf16, shuf32, shuf_fp16, unshuf16, unshuf32, unshuf_fp16, Arch, Cell, DataFormat, DstConfig,
    View,
};
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::{Machine, SimConfig, SimError};

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
    /// Target architecture.
    #[arg(long, value_enum, default_value_t = ArchArg::Blackhole)]
    pub arch: ArchArg,
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
    /// How Dst16b maps onto the storage (OPEN Q1).
    #[arg(long, value_enum, default_value_t = Dst16ModeArg::Literal)]
    pub dst16_mode: Dst16ModeArg,
    /// Also execute load/store/instruction modes documented only by the ISA pages (not D1-strict).
    #[arg(long)]
    pub allow_isa_modes: bool,
    /// Initialisation program run once before the first row (constants, SFPCONFIG).
    #[arg(long, value_name = "INIT.s")]
    pub init: Option<PathBuf>,
}

/// Word width of one side of the I/O.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Side {
    W32,
    W16(DstFormatArg),
}

impl Side {
    fn bytes(self) -> usize {
        match self {
            Side::W32 => 4,
            Side::W16(_) => 2,
        }
    }

    /// The Dst cell that loads as `word` with the side's mode (the mode's inverse).
    fn cell_of_word(self, word: u32) -> Cell {
        match self {
            Side::W32 => Cell::D32(shuf32(word)),
            Side::W16(DstFormatArg::Fp16b) => Cell::D16(shuf16(word as u16)),
            Side::W16(DstFormatArg::Fp16a) => Cell::D16(shuf_fp16(word as u16)),
            Side::W16(DstFormatArg::Uint16) => Cell::D16(word as u16),
        }
    }

    /// The logical word of a cell (inverse of [`Side::cell_of_word`]).
    fn word_of(self, cell: Cell) -> Option<u32> {
        match (self, cell) {
            (Side::W32, Cell::D32(c)) => Some(unshuf32(c)),
            (Side::W16(DstFormatArg::Fp16b), Cell::D16(c)) => Some(u32::from(unshuf16(c))),
            (Side::W16(DstFormatArg::Fp16a), Cell::D16(c)) => Some(u32::from(unshuf_fp16(c))),
            (Side::W16(DstFormatArg::Uint16), Cell::D16(c)) => Some(u32::from(c)),
            _ => None,
        }
    }

    fn view(self) -> View {
        match self {
            Side::W32 => View::Dst32b,
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
    match simulate(args) {
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

fn simulate(args: &SimArgs) -> Result<String, Fail> {
    let arch = match args.arch {
        ArchArg::Blackhole => Arch::Bh,
        ArchArg::Wormhole => Arch::Wh,
    };
    let program = load_program(&args.program, arch)?;
    if program.insns.is_empty() {
        return Err(error(format!(
            "{}: the program has no instructions",
            args.program.display()
        )));
    }
    let init = match &args.init {
        Some(p) => Some(load_program(p, arch)?),
        None => None,
    };

    let side = |w: WidthArg| match w {
        WidthArg::W16 => Side::W16(args.dst_format),
        WidthArg::W32 => Side::W32,
    };
    let input_side = side(args.dest);
    let output_side = side(args.out_width.unwrap_or(args.dest));
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
        allow_backdoor: false,
        dst: DstConfig {
            sfpu_fp32: args.dest == WidthArg::W32,
            srcb_format,
        },
    };
    let mode = match args.dst16_mode {
        Dst16ModeArg::Literal => Dst16Mode::Literal,
        Dst16ModeArg::HighHalf => Dst16Mode::HighHalfOfDst32b,
    };
    // A chunk must fit both sides: 256 SFPU rows if either is 32-bit, else 512.
    let chunk_rows = if input_side == Side::W32 || output_side == Side::W32 {
        256
    } else {
        512
    };
    let chunk_values = chunk_rows * LANES;

    let mut machine = Machine::with_config(arch, cfg);
    let mut report = String::new();
    if let Some(init) = &init {
        // Init code touches no Dst rows the body relies on; it runs against a scratch Dst.
        machine.enter_kernel_state();
        let stats = machine
            .run(init, &mut Dest::with_mode(mode))
            .map_err(|e| error(format!("init: simulation: {e}")))?;
        report.push_str(&format!("init_cycles: {}\n", stats.cycles));
    }
    let mut out = Vec::with_capacity(words.len() * output_side.bytes());
    let mut rows_run = 0u64;
    let mut cycles = 0u64;
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
        cycles += run_chunk(&mut machine, &program, &mut dest, rows)?;
        rows_run += rows as u64;
        for i in 0..chunk.len() {
            let (r, c) = cell_of(i)?;
            let cell = dest
                .read(output_side.view(), r, c)
                .map_err(|e| error(format!("reading output value {}: {e}", start + i)))?;
            let w = output_side
                .word_of(cell)
                .ok_or_else(|| error("internal: output view mismatch".to_string()))?;
            encode_word(&mut out, w, output_side);
        }
        start = end;
        if start >= words.len() {
            break;
        }
    }
    std::fs::write(&args.output, &out)
        .map_err(|e| usage(format!("cannot write {}: {e}", args.output.display())))?;
    report.push_str(&format!(
        "rows: {rows_run}\ncycles_per_row: {}\n",
        per_row(cycles, rows_run)
    ));
    Ok(report)
}

/// Reads and assembles a program file (exit 2 when unreadable, 1 on assembly errors).
fn load_program(path: &std::path::Path, arch: Arch) -> Result<Program, Fail> {
    let shown = path.display();
    let text = std::fs::read(path).map_err(|e| usage(format!("cannot read {shown}: {e}")))?;
    let text = String::from_utf8(text)
        .map_err(|_| usage(format!("{shown}: program is not UTF-8 text")))?;
    asm::assemble(&text, arch).map_err(|e| error(format!("{shown}:{e}")))
}

/// Runs `rows` SFPU rows of the body; returns the cycles spent. The first run measures how far
/// the body advances RWC.Dst (2 per row it processes).
fn run_chunk(
    machine: &mut Machine,
    program: &Program,
    dest: &mut Dest,
    rows: usize,
) -> Result<u64, Fail> {
    let sim_err = |e: SimError| error(format!("simulation: {e}"));
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
            .map(|c| match c {
                [a, b, c, d] => u32::from_le_bytes([*a, *b, *c, *d]),
                [a, b] => u32::from(u16::from_le_bytes([*a, *b])),
                _ => 0,
            })
            .collect(),
    )
}

fn encode_word(out: &mut Vec<u8>, w: u32, side: Side) {
    match side {
        Side::W32 => out.extend_from_slice(&w.to_le_bytes()),
        Side::W16(_) => out.extend_from_slice(&(w as u16).to_le_bytes()),
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
                    Side::W32 => rng.u32(..),
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
    }

    #[test]
    fn cycles_per_row_rendering() {
        assert_eq!(per_row(26, 2), "13");
        assert_eq!(per_row(5, 2), "2.500");
        assert_eq!(per_row(0, 0), "0");
    }

    #[test]
    fn values_map_to_sfpu_rows() {
        assert_eq!(cell_of(0).ok(), Some((0, 0)));
        assert_eq!(cell_of(33).ok(), Some((0, 3)));
        assert_eq!(cell_of(32 * 4).ok(), Some((8, 0)));
    }
}
