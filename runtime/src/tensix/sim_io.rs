//! The Tensix I/O contract of a simulated kernel run (tensix.md §4.7), shared by `ptoc sim`,
//! `ptoc prove` and any other caller that runs a listing over a file of values: how a word of an
//! input/output file maps onto Dst ([`WordSide`]: 32-bit words, 16-bit words in a Dst16 format, or
//! PTO elements through the [`Datum`] forms of [`super::io`]), the Dst configuration a run implies
//! ([`dst_config`]), chunking into Dst-sized groups of whole 32×32 tiles ([`chunk_rows`],
//! [`cell_of`]), the drain and init conventions ([`default_drain`], [`concat`],
//! [`backdoor_write`], [`sixteen_bit_access`]), the set-up of a kernel ([`prepare`]: init once,
//! the backdoor rule) and the chunked run itself ([`ChunkedRun`]: rows per body run measured,
//! drain and pipeline check per chunk). [`run_kernel_words`] is that same path for ptoc's
//! kernels (32-bit datum words), so a listing proven by `ptoc prove` runs exactly as `ptoc sim`
//! runs it.
//!
//! Invariants:
//! * `side.word_of(side.cell_of_word(w)) == Some(w)` for every word of the side's width;
//! * value `32k + l` of a chunk sits at SFPU row `k` (Dst address `2k`), lane `l`;
//! * every chunk starts from the machine state left by init (restored from a snapshot, RWC.Dst
//!   0) on a cleared Dst, runs its rows, then the drain, and must end with the macro pipeline
//!   empty; so chunks are independent and [`ChunkedRun`] runs them on all cores (rayon) with a
//!   result — output words, counts, and the first error in input order — independent of the
//!   thread count;
//! * nothing panics; every failure is a [`ChunkError`] or a [`PrepareError`].

use rayon::prelude::*;

use super::dest::{lane_cell, Dest, DestError, DestWidth, Dst16Mode, LANES};
use super::formats::{
    shuf16, shuf32, shuf_fp16, unshuf16, unshuf32, unshuf_fp16, Cell, DataFormat, DstConfig, Mod0,
    View,
};
use super::io::Datum;
use super::isa::{Insn, Program};
use super::sim::kernel::Kernel;
use super::sim::{Machine, SimConfig, SimError, LC_DISABLE_BACKDOOR};
use crate::elem::ElemType;

/// Values per 32×32 tile.
pub const TILE: usize = 1024;

/// SFPNOPs run after each chunk when a listing has no `; @drain` section: a scheduled
/// instruction issued in cycle t with delay k ≤ 7 runs by cycle t + 8 (tensix.md §6.2), and NOPs
/// are harmless for plain programs.
pub const DEFAULT_DRAIN: usize = 8;

/// The layout of 16-bit words in a 16-bit Dst (and the SrcB format resolving Mod0 0).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dst16Format {
    /// BF16 (Float16_b): Mod0 0 → BF16; words are bf16 bits.
    Fp16b,
    /// Tensix FP16 (Float16): Mod0 0 → FP16; words are IEEE binary16 field order.
    Fp16a,
    /// Opaque 16 bits (UInt16): Mod0 0 → BF16; words are placed raw.
    Uint16,
}

impl Dst16Format {
    /// The SrcB data format this Dst format stands for.
    pub fn srcb_format(self) -> DataFormat {
        match self {
            Dst16Format::Fp16b => DataFormat::Float16B,
            Dst16Format::Fp16a => DataFormat::Float16,
            Dst16Format::Uint16 => DataFormat::UInt16,
        }
    }
}

/// The Dst configuration of a run: SFPU Fp32 mode on for a 32-bit Dst; Mod0 0 resolved by the
/// 16-bit format otherwise.
pub fn dst_config(dest32: bool, fmt: Dst16Format) -> DstConfig {
    DstConfig {
        sfpu_fp32: dest32,
        srcb_format: fmt.srcb_format(),
    }
}

/// How the words of one side (input or output file) map onto Dst.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WordSide {
    /// 32-bit logical words (the FP32 / INT32 load value).
    W32,
    /// 16-bit logical words in the given layout.
    W16(Dst16Format),
    /// A PTO element type through the kernel I/O contract (`tensix::io`): files hold elements
    /// as `ptoc cast` writes them; Dst holds 32-bit datums.
    Elem(ElemType, Datum),
}

impl WordSide {
    /// Bytes per word in a file.
    pub fn bytes(self) -> usize {
        match self {
            WordSide::W32 => 4,
            WordSide::W16(_) => 2,
            WordSide::Elem(e, _) => e.storage_bytes() as usize,
        }
    }

    /// Whether the side uses the 32-bit Dst view.
    pub fn is_32(self) -> bool {
        matches!(self, WordSide::W32 | WordSide::Elem(..))
    }

    /// The Dst cell that loads as `word` with the side's mode (the mode's inverse).
    pub fn cell_of_word(self, word: u32) -> Cell {
        match self {
            WordSide::W32 | WordSide::Elem(..) => Cell::D32(shuf32(word)),
            WordSide::W16(Dst16Format::Fp16b) => Cell::D16(shuf16(word as u16)),
            WordSide::W16(Dst16Format::Fp16a) => Cell::D16(shuf_fp16(word as u16)),
            WordSide::W16(Dst16Format::Uint16) => Cell::D16(word as u16),
        }
    }

    /// The logical word of a cell (inverse of [`WordSide::cell_of_word`]); `None` when the cell
    /// is of the other view.
    pub fn word_of(self, cell: Cell) -> Option<u32> {
        match (self, cell) {
            (WordSide::W32 | WordSide::Elem(..), Cell::D32(c)) => Some(unshuf32(c)),
            (WordSide::W16(Dst16Format::Fp16b), Cell::D16(c)) => Some(u32::from(unshuf16(c))),
            (WordSide::W16(Dst16Format::Fp16a), Cell::D16(c)) => Some(u32::from(unshuf_fp16(c))),
            (WordSide::W16(Dst16Format::Uint16), Cell::D16(c)) => Some(u32::from(c)),
            _ => None,
        }
    }

    /// The Dst view the side's words live in.
    pub fn view(self) -> View {
        if self.is_32() {
            View::Dst32b
        } else {
            View::Dst16b
        }
    }
}

/// SFPU rows per chunk: 256 if either side is 32-bit (8 tiles), else 512 (16 tiles).
pub fn chunk_rows(input: WordSide, output: WordSide) -> usize {
    if input.is_32() || output.is_32() {
        256
    } else {
        512
    }
}

/// Decodes a file's bytes into logical words (`None`: not a whole number of words).
pub fn decode_words(bytes: &[u8], side: WordSide) -> Option<Vec<u32>> {
    let n = side.bytes();
    if n == 0 || bytes.len() % n != 0 {
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
                    WordSide::Elem(_, d) => d.word_of_bits(u64::from(raw)),
                    _ => raw,
                }
            })
            .collect(),
    )
}

/// Appends the output word; for element sides, returns false when the datum was not canonical
/// (its element bits are then written as found).
pub fn encode_word(out: &mut Vec<u8>, w: u32, side: WordSide) -> bool {
    match side {
        WordSide::W32 => out.extend_from_slice(&w.to_le_bytes()),
        WordSide::W16(_) => out.extend_from_slice(&(w as u16).to_le_bytes()),
        WordSide::Elem(e, d) => {
            let (bits, ok) = match d.bits_of_word(w) {
                Some(b) => (b, true),
                None if d == Datum::HighHalf16 => (u64::from(w >> 16), false),
                None => (u64::from(w), false),
            };
            let n = e.storage_bytes() as usize;
            out.extend_from_slice(&bits.to_le_bytes()[..n.min(8)]);
            return ok;
        }
    }
    true
}

/// Dst `(row, column)` of logical value `i` of a chunk: SFPU row `i / 32` at address `2·(i/32)`,
/// lane `i % 32`.
pub fn cell_of(i: usize) -> Result<(usize, usize), ChunkError> {
    let addr = u16::try_from(2 * (i / LANES)).map_err(|_| ChunkError::BeyondDst { index: i })?;
    lane_cell(addr, i % LANES).map_err(|source| ChunkError::Cell { index: i, source })
}

/// The drain of a kernel: its `; @drain` section, or [`DEFAULT_DRAIN`] SFPNOPs.
pub fn default_drain(k: &Kernel) -> Program {
    if k.drain.insns.is_empty() {
        Program::new(vec![Insn::Nop; DEFAULT_DRAIN])
    } else {
        k.drain.clone()
    }
}

/// `a` then `b` (source lines kept only when they all come from one program).
pub fn concat(a: &Program, b: &Program) -> Program {
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
pub fn backdoor_write(prog: &Program) -> Option<(usize, u8)> {
    prog.insns.iter().enumerate().find_map(|(pc, insn)| {
        let vd = insn.vd_field()?;
        let excluded = matches!(
            insn,
            Insn::Load { .. } | Insn::Store { .. } | Insn::LoadI { .. } | Insn::Lut { .. }
        );
        (vd >= 12 && !excluded).then_some((pc, vd))
    })
}

/// The first 16-bit load/store mode the kernel uses, if any (OPEN Q1 view mixing).
pub fn sixteen_bit_access(k: &Kernel) -> Option<&'static str> {
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

/// Why a chunked run failed (the first failure in input order).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ChunkError {
    /// Chunk-local value `index` lies beyond Dst.
    #[error("value {index} beyond Dst")]
    BeyondDst { index: usize },
    /// Chunk-local value `index` has no lane cell.
    #[error("value {index}: {source}")]
    Cell { index: usize, source: DestError },
    /// Placing input value `index` (global) failed.
    #[error("placing input value {index}: {source}")]
    Place { index: usize, source: DestError },
    /// The loop body failed (pcs refer to the body).
    #[error("simulation: {source}")]
    Body { source: SimError },
    /// The body does not advance RWC.Dst by a positive even amount dividing the chunk's rows.
    #[error(
        "the program advances RWC.Dst by {advance} per run; expected a positive even amount \
         (2 per row, via ADDR_MOD_6 on blackhole / ADDR_MOD_2 on wormhole) dividing {rows} rows"
    )]
    Advance { advance: usize, rows: usize },
    /// The drain of the chunk from value `start` failed (macro pcs may refer to the body).
    #[error("drain of the chunk from value {start}: {source}")]
    Drain { start: usize, source: SimError },
    /// Scheduled instructions were still pending after the drain of the chunk from `start`.
    #[error("drain of the chunk from value {start}: {source}")]
    Undrained { start: usize, source: SimError },
    /// Reading output value `index` (global) failed.
    #[error("reading output value {index}: {source}")]
    Read { index: usize, source: DestError },
    /// The output side's view and the cell read disagree (cannot happen).
    #[error("internal: output view mismatch")]
    ViewMismatch,
    /// The output buffer's length differs from the input's.
    #[error("internal: {out} output words for {inputs} inputs")]
    OutLen { inputs: usize, out: usize },
}

/// What a chunked run produced.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ChunkedOutput {
    /// The output file's bytes, in input order.
    pub bytes: Vec<u8>,
    /// SFPU rows that carried input (padding rows are run but not counted).
    pub rows: u64,
    /// Outputs that were not canonical datums of an element side.
    pub noncanonical: u64,
}

/// Why a kernel could not be set up for a run ([`prepare`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PrepareError {
    /// The init code failed (pcs refer to the init program).
    #[error("init: simulation: {source}")]
    Init { source: SimError },
    /// The loop body or the drain writes a macro template through VD ≥ 12 (the backdoor) while
    /// init left the backdoor enabled; template writes belong in the init code.
    #[error(
        "{section}: pc {pc}: writes macro template {} through VD {vd} (backdoor); template \
         writes belong in the init code (`; @init` section or --init)",
        vd.saturating_sub(12)
    )]
    Backdoor {
        section: &'static str,
        pc: usize,
        vd: u8,
    },
}

/// A kernel set up to run: the machine state init left (every chunk starts from it), the drain
/// every chunk ends with, and the configuration (see [`prepare`]).
#[derive(Debug, Clone)]
pub struct Prepared {
    /// The machine after init (a snapshot: no program caches).
    pub machine: Machine,
    /// The kernel's drain, or [`DEFAULT_DRAIN`] SFPNOPs ([`default_drain`]).
    pub drain: Program,
    /// The options the kernel runs with (`allow_backdoor` set when there is init code).
    pub cfg: SimConfig,
    /// Issue cycles of the init code (`None` when there is none).
    pub init_cycles: Option<u64>,
}

/// Sets a kernel up the way every run of a listing does (`ptoc sim`, `ptoc prove`): a machine
/// with `strict` and `dst`, template writes through VD ≥ 12 allowed when the kernel has init
/// code (tt-llk's `init_*`), the init run once in the D7 kernel state against a scratch Dst of
/// `mode` (its state — LRegs, constants, macro configuration — carries over to every chunk),
/// then a static check that neither the body nor the drain writes a template while the
/// backdoor is still enabled (the option is per machine, so it cannot be checked at run time).
pub fn prepare(
    arch: super::isa::Arch,
    strict: bool,
    dst: DstConfig,
    k: &Kernel,
    mode: Dst16Mode,
) -> Result<Prepared, PrepareError> {
    let cfg = SimConfig {
        strict,
        allow_backdoor: !k.init.insns.is_empty(),
        dst,
    };
    let mut machine = Machine::with_config(arch, cfg);
    let mut init_cycles = None;
    if !k.init.insns.is_empty() {
        // Init code touches no Dst rows the body relies on; it runs against a scratch Dst.
        machine.enter_kernel_state();
        let stats = machine
            .run(&k.init, &mut Dest::with_mode(mode))
            .map_err(|source| PrepareError::Init { source })?;
        init_cycles = Some(stats.cycles);
    }
    let drain = default_drain(k);
    if machine.lane_config() & LC_DISABLE_BACKDOOR == 0 {
        for (section, prog) in [("loop body", &k.body), ("drain", &drain)] {
            if let Some((pc, vd)) = backdoor_write(prog) {
                return Err(PrepareError::Backdoor { section, pc, vd });
            }
        }
    }
    Ok(Prepared {
        machine: machine.snapshot(),
        drain,
        cfg,
        init_cycles,
    })
}

/// Errors of [`run_kernel_words`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelRunError {
    #[error(transparent)]
    Prepare(#[from] PrepareError),
    #[error(transparent)]
    Run(#[from] ChunkError),
}

/// Runs kernel `k` over 32-bit logical words (the INT32 load value: a ptoc kernel's datums)
/// into `out` (same length) exactly as `ptoc sim` runs a listing with a `; @io` header:
/// [`prepare`] with the 32-bit Dst of the kernel I/O contract (SFPU Fp32 mode on, strict modes,
/// literal Dst16b mapping), then a [`ChunkedRun`]. The one simulator path of `ptoc prove`.
pub fn run_kernel_words(
    arch: super::isa::Arch,
    k: &Kernel,
    words: &[u32],
    out: &mut [u32],
) -> Result<(), KernelRunError> {
    let p = prepare(
        arch,
        true,
        dst_config(true, Dst16Format::Fp16b),
        k,
        Dst16Mode::Literal,
    )?;
    let run = ChunkedRun {
        machine: &p.machine,
        body: &k.body,
        drain: &p.drain,
        input: WordSide::W32,
        output: WordSide::W32,
        dst16_mode: Dst16Mode::Literal,
    };
    run.run_words_into(words, out)?;
    Ok(())
}

/// One chunked run: the machine after init, the programs, and the I/O contract.
#[derive(Debug, Clone, Copy)]
pub struct ChunkedRun<'a> {
    /// The machine state every chunk starts from (init already run; see [`prepare`]).
    pub machine: &'a Machine,
    pub body: &'a Program,
    pub drain: &'a Program,
    pub input: WordSide,
    pub output: WordSide,
    pub dst16_mode: Dst16Mode,
}

impl ChunkedRun<'_> {
    /// Runs `words` in Dst-sized chunks of whole tiles (the last padded with zeros, which run
    /// but are not written out; no input runs one all-zero tile and writes nothing), all chunks
    /// in parallel; the output file's bytes.
    pub fn run(&self, words: &[u32]) -> Result<ChunkedOutput, ChunkError> {
        let mut out = vec![0u32; words.len()];
        let rows = self.run_words_into(words, &mut out)?;
        let mut all = ChunkedOutput {
            bytes: Vec::with_capacity(words.len() * self.output.bytes()),
            rows,
            noncanonical: 0,
        };
        for &w in &out {
            if !encode_word(&mut all.bytes, w, self.output) {
                all.noncanonical += 1;
            }
        }
        Ok(all)
    }

    /// As [`ChunkedRun::run`], writing each output's logical word (the output side's load
    /// value) into `out` (the length of `words`); returns the SFPU rows that carried input.
    pub fn run_words_into(&self, words: &[u32], out: &mut [u32]) -> Result<u64, ChunkError> {
        if out.len() != words.len() {
            return Err(ChunkError::OutLen {
                inputs: words.len(),
                out: out.len(),
            });
        }
        let per = chunk_rows(self.input, self.output) * LANES;
        let snap = self.machine.snapshot();
        let worker = || (snap.clone(), Dest::with_mode(self.dst16_mode));
        if words.is_empty() {
            let (mut m, mut dest) = worker();
            self.chunk(&mut m, &mut dest, &snap, 0, &[], &mut [])?;
            return Ok(0);
        }
        // Each rayon job reuses one machine (its program caches kept, its state restored per
        // chunk) and one Dst (cleared per chunk): chunks share no state.
        let parts: Vec<Result<(), ChunkError>> = out
            .par_chunks_mut(per)
            .zip(words.par_chunks(per))
            .enumerate()
            .map_init(worker, |(m, dest), (k, (o, w))| {
                self.chunk(m, dest, &snap, k * per, w, o)
            })
            .collect();
        parts.into_iter().collect::<Result<(), ChunkError>>()?;
        Ok(words.len().div_ceil(LANES) as u64)
    }

    /// One chunk whose first value has index `start`, on `m` (restored to `snap`) and `dest`.
    fn chunk(
        &self,
        m: &mut Machine,
        dest: &mut Dest,
        snap: &Machine,
        start: usize,
        chunk: &[u32],
        out: &mut [u32],
    ) -> Result<(), ChunkError> {
        // Whole tiles; an empty input still runs one zero tile to measure cycles.
        let padded = chunk.len().div_ceil(TILE).max(1) * TILE;
        let rows = padded / LANES;
        dest.clear();
        let arch = snap.arch();
        let fast = self.dst16_mode == Dst16Mode::Literal;
        if fast && self.input.is_32() {
            // The INT32 load's inverse is the 32-bit side's (`shuf32`); a cleared cell is the
            // cell of 0, so the padding needs no writes.
            dest.write_rows(chunk, Mod0::Int32, DestWidth::W32, arch)
                .map_err(|source| ChunkError::Place {
                    index: start,
                    source,
                })?;
        } else {
            for i in 0..padded {
                let w = chunk.get(i).copied().unwrap_or(0);
                let (r, c) = cell_of(i)?;
                dest.write(r, c, self.input.cell_of_word(w))
                    .map_err(|source| ChunkError::Place {
                        index: start + i,
                        source,
                    })?;
            }
        }
        m.restore(snap);
        m.set_rwc_dst(0);
        run_rows(m, self.body, dest, rows)?;
        // Scheduled (SFPLOADMACRO) stores of the last rows land during the drain: they must
        // reach this chunk's Dst, and none may stay pending.
        m.run(self.drain, dest)
            .map_err(|source| ChunkError::Drain { start, source })?;
        m.check_drained()
            .map_err(|source| ChunkError::Undrained { start, source })?;
        if fast && self.output.is_32() {
            return dest
                .read_rows_to_slice(Mod0::Int32, DestWidth::W32, arch, out)
                .map_err(|source| ChunkError::Read {
                    index: start,
                    source,
                });
        }
        for (i, o) in out.iter_mut().enumerate() {
            let (r, c) = cell_of(i)?;
            let cell = dest
                .read(self.output.view(), r, c)
                .map_err(|source| ChunkError::Read {
                    index: start + i,
                    source,
                })?;
            *o = self.output.word_of(cell).ok_or(ChunkError::ViewMismatch)?;
        }
        Ok(())
    }
}

/// Runs `rows` SFPU rows of the body. The first run measures how far the body advances RWC.Dst
/// (2 per row it processes).
fn run_rows(
    m: &mut Machine,
    body: &Program,
    dest: &mut Dest,
    rows: usize,
) -> Result<(), ChunkError> {
    let before = m.rwc_dst();
    m.run_rows(body, dest, 1)
        .map_err(|source| ChunkError::Body { source })?;
    let advance = usize::from(m.rwc_dst().wrapping_sub(before) & 0x3FF);
    if advance == 0 || advance % 2 != 0 || rows % (advance / 2) != 0 {
        return Err(ChunkError::Advance { advance, rows });
    }
    let runs = rows / (advance / 2);
    m.run_rows(body, dest, runs - 1)
        .map_err(|source| ChunkError::Body { source })?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_round_trip_through_cells() {
        let sides = [
            WordSide::W32,
            WordSide::W16(Dst16Format::Fp16b),
            WordSide::W16(Dst16Format::Fp16a),
            WordSide::W16(Dst16Format::Uint16),
        ];
        for side in sides {
            let mut rng = fastrand::Rng::with_seed(2);
            for _ in 0..10_000 {
                let w = match side {
                    WordSide::W16(_) => u32::from(rng.u16(..)),
                    _ => rng.u32(..),
                };
                assert_eq!(side.word_of(side.cell_of_word(w)), Some(w));
            }
        }
        // Words are logical values: a 32-bit word is stored shuffled (Sign ManHi Exp ManLo).
        assert_eq!(
            WordSide::W32.cell_of_word(0x3F80_0001),
            Cell::D32(0x007F_0001)
        );
        assert_eq!(WordSide::W32.word_of(Cell::D16(0)), None);
    }

    #[test]
    fn word_files() {
        assert_eq!(
            decode_words(&[1, 0, 0, 0x80, 2, 0, 0, 0], WordSide::W32),
            Some(vec![0x8000_0001, 2])
        );
        assert_eq!(
            decode_words(&[1, 0x80, 2, 0], WordSide::W16(Dst16Format::Fp16b)),
            Some(vec![0x8001, 2])
        );
        assert_eq!(decode_words(&[1, 2, 3], WordSide::W32), None);
        let mut out = Vec::new();
        encode_word(&mut out, 0x1234_5678, WordSide::W32);
        encode_word(&mut out, 0x1234_5678, WordSide::W16(Dst16Format::Uint16));
        assert_eq!(out, [0x78, 0x56, 0x34, 0x12, 0x78, 0x56]);
        // Element sides: files hold elements, Dst holds canonical datums.
        let i8_side = WordSide::Elem(ElemType::I8, Datum::SignExt8);
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
    fn values_map_to_sfpu_rows() {
        assert_eq!(cell_of(0).ok(), Some((0, 0)));
        assert_eq!(cell_of(33).ok(), Some((0, 3)));
        assert_eq!(cell_of(32 * 4).ok(), Some((8, 0)));
    }

    #[test]
    fn init_code_is_the_file_then_the_section() {
        let a = Program::new(vec![Insn::Nop]);
        let k = Kernel::parse(
            "; @init\nsfpnop\nsfpnop\n; @body\nsfpnop\n",
            crate::tensix::isa::Arch::Bh,
        )
        .unwrap_or_default();
        assert_eq!((k.init.insns.len(), k.body.insns.len()), (2, 1));
        assert_eq!(concat(&a, &k.init).insns.len(), 3);
        assert_eq!(concat(&Program::default(), &k.init), k.init);
        assert_eq!(concat(&a, &Program::default()), a);
        assert_eq!(default_drain(&k).insns.len(), DEFAULT_DRAIN);
    }

    /// The parallel run equals a sequential one chunk by chunk (thread-count independence).
    #[test]
    fn chunks_are_independent_of_threads() {
        use crate::tensix::asm::assemble;
        use crate::tensix::sim::SimConfig;
        let arch = crate::tensix::isa::Arch::Bh;
        let body = assemble(
            "sfpload L0, 0, ADDR_MOD_7, 0\nsfpiadd 1, L0, L0, IMM|CC_NONE\nsfpstore L0, 0, ADDR_MOD_6, 0",
            arch,
        )
        .unwrap_or_default();
        assert_eq!(body.insns.len(), 3);
        let m = Machine::with_config(arch, SimConfig::default());
        let drain = Program::new(vec![Insn::Nop; DEFAULT_DRAIN]);
        let run = ChunkedRun {
            machine: &m,
            body: &body,
            drain: &drain,
            input: WordSide::W32,
            output: WordSide::W32,
            dst16_mode: Dst16Mode::Literal,
        };
        let words: Vec<u32> = (0..20_000u32).collect();
        let par = run.run(&words);
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .ok()
            .map(|p| p.install(|| run.run(&words)));
        assert!(par.is_ok());
        assert_eq!(Some(par.clone()), one);
        let out = par.unwrap_or_default();
        assert_eq!(out.rows, 20_000u64.div_ceil(32));
        assert_eq!(out.bytes.len(), 4 * words.len());
    }
}
