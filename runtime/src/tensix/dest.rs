//! The Tensix Dst register (tensix.md §4.1–4.4; ISA-WH/BH `Dst.md`; TTSIM `read_dst32b`).
//!
//! Owns the physical storage `DstBits[1024][16]` of `u16`, its two views and the SFPU addressing:
//! * `Dst16b[r][c]` = `DstBits[r][c]` ([`Dst16Mode::Literal`], the default), or the high half of
//!   `Dst32b[r][c]` ([`Dst16Mode::HighHalfOfDst32b`], `RISCV_DEBUG_REG_DBG_FEATURE_DISABLE` bit
//!   11; OPEN Q1). In that mode a 16-bit write leaves the low half *unpredictable*: the cell is
//!   marked, and reading it through `Dst32b` is an error ([`DestError::Unpredictable`]) instead of
//!   a guessed value.
//! * `Dst32b[r][c]` = `DstBits[A][c] << 16 | DstBits[A + 8][c]` with
//!   `A = ((r & 0x1F8) << 1) | (r & 0x207)` (D10: ISA/TTSIM mapping, high half at `A`; SEED-F
//!   §9 has the halves the other way round). Only 512 distinct datums exist; rows ≥ 512 alias.
//! * SFPU addressing (§4.3): [`lane_cell`] maps an SFPLOAD/SFPSTORE address and lane to
//!   `(row, column)`; [`Dest::sfpu_load`] / [`Dest::sfpu_store`] combine it with the Mod0
//!   conversions of [`formats`](super::formats).
//! * Whole-row access (module `rows`, the fast path): [`Dest::sfpu_load_row`] /
//!   [`Dest::sfpu_store_row`] do one SFPLOAD/SFPSTORE for all 32 lanes with the Mod0 resolved
//!   once, exactly as the per-lane functions applied to the enabled lanes in lane order.
//! * Tile order (§4.4, §4.7): SFPU row `k` (32 datums) is address `2k`; [`Dest::write_rows`] /
//!   [`Dest::read_rows`] / [`Dest::read_rows_into`] move logical values in that order through a
//!   load mode's inverse, a row at a time.
//!
//! API for the simulator (stable):
//! ```text
//! Dest::new() / Dest::with_mode(Dst16Mode)
//! lane_cell(addr: u16, lane: usize) -> Result<(usize, usize), DestError>   (row, column)
//! Dest::sfpu_load(&self, addr, lane, Mod0, old_lreg, Arch) -> Result<u32, DestError>
//! Dest::sfpu_store(&mut self, addr, lane, Mod0, value, Arch) -> Result<(), DestError>
//! Dest::sfpu_load_row(&self, addr, lane_enable: u32, Mod0, Arch, &mut Row) -> Result<(), DestError>
//! Dest::sfpu_store_row(&mut self, addr, lane_enable: u32, Mod0, Arch, &Row) -> Result<(), DestError>
//! Dest::{read16, write16, read32, write32, read, write}(row, col, ..)
//! ```
//! Mod0 must already be resolved (`Mod0::resolve`). Lane enables, RWCs and address-mode
//! increments are the simulator's.
//!
//! Invariants: indices are checked (errors, never panics); the storage always has exactly
//! 1024×16 cells.

use super::formats::{self, Arch, Cell, FormatError, Mod0, View};

mod rows;

pub use rows::Row;

/// Physical rows.
pub const DST_ROWS: usize = 1024;
/// Columns.
pub const DST_COLS: usize = 16;
/// Lanes of one SFPU row (one SFPLOAD).
pub const LANES: usize = 32;

/// How `Dst16b` maps onto the storage (OPEN Q1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Dst16Mode {
    /// `Dst16b[r][c]` is `DstBits[r][c]` (reset behaviour).
    #[default]
    Literal,
    /// `Dst16b[r][c]` is the high half of `Dst32b[r][c]`; writes leave the low half unpredictable.
    HighHalfOfDst32b,
}

/// The Dst width a kernel runs with (`ALU_ACC_CTRL_Fp32_enabled`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DestWidth {
    /// 16-bit Dst: 1024 rows, 16 tiles of 32×32.
    W16,
    /// 32-bit Dst: 512 rows, 8 tiles of 32×32.
    W32,
}

impl DestWidth {
    /// SFPU rows (32 datums each) that fit in Dst at this width.
    pub fn sfpu_rows(self) -> usize {
        match self {
            DestWidth::W16 => DST_ROWS / 2,
            DestWidth::W32 => DST_ROWS / 4,
        }
    }
}

/// Errors of Dst accesses.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DestError {
    /// Row outside the 10-bit index range.
    #[error("Dst row {0} out of range (0..1024)")]
    Row(usize),
    /// Column outside 0..16.
    #[error("Dst column {0} out of range (0..16)")]
    Column(usize),
    /// Lane outside 0..32.
    #[error("SFPU lane {0} out of range (0..32)")]
    Lane(usize),
    /// SFPLOAD/SFPSTORE effective address with bit 0 set (TTSIM rejects it; §4.3).
    #[error("odd Dst address {0} (OddDstAddress)")]
    OddAddress(u16),
    /// A read of a half-datum whose value the hardware leaves unpredictable.
    #[error(
        "Dst row {row} column {col} holds an unpredictable value \
         (16-bit write in HighHalfOfDst32b mode)"
    )]
    Unpredictable { row: usize, col: usize },
    /// Mod0 0 (or another mode without a view) where a concrete view is needed.
    #[error("Mod0 {0} has no Dst view here")]
    NoView(&'static str),
    /// More data than Dst holds.
    #[error("{rows} SFPU rows do not fit in Dst ({max} at this width)")]
    TooManyRows { rows: usize, max: usize },
    /// A format conversion error.
    #[error(transparent)]
    Format(#[from] FormatError),
}

/// The 32-bit view's physical row for the high half (`+ 8` for the low half).
pub fn adj_row(row: usize) -> usize {
    ((row & 0x1F8) << 1) | (row & 0x207)
}

/// `(row, column)` touched by SFPU lane `lane` at effective address `addr` (§4.3, COL_EXCHANGE
/// = 0): rows `(addr & !3) + lane / 8`, columns `2·(lane % 8) + (addr & 2 != 0)`. `addr` is the
/// 10-bit effective address (`Imm10 + offsets + RWC`, already wrapped by the caller); bit 0 set
/// is [`DestError::OddAddress`].
pub fn lane_cell(addr: u16, lane: usize) -> Result<(usize, usize), DestError> {
    if addr & 1 != 0 {
        return Err(DestError::OddAddress(addr));
    }
    if lane >= LANES {
        return Err(DestError::Lane(lane));
    }
    let row = usize::from(addr & 0x3FC) + lane / 8;
    let col = 2 * (lane % 8) + usize::from(addr & 2 != 0);
    Ok((row, col))
}

/// Position of element `(row, col)` of a 32×32 tile in tile (face) order: faces 0..3 =
/// (top-left, top-right, bottom-left, bottom-right), each row-major 16×16. `None` outside the tile.
pub fn tile_index(row: usize, col: usize) -> Option<usize> {
    (row < 32 && col < 32).then(|| ((row / 16) * 2 + col / 16) * 256 + (row % 16) * 16 + col % 16)
}

/// The Dst register file.
#[derive(Clone)]
pub struct Dest {
    bits: Vec<u16>,
    /// Cells whose content is unpredictable (low halves after a HighHalfOfDst32b 16-bit write).
    poisoned: Vec<bool>,
    mode: Dst16Mode,
}

impl std::fmt::Debug for Dest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dest")
            .field("mode", &self.mode)
            .field(
                "nonzero_cells",
                &self.bits.iter().filter(|b| **b != 0).count(),
            )
            .finish()
    }
}

impl Default for Dest {
    fn default() -> Self {
        Dest::new()
    }
}

fn check(row: usize, col: usize) -> Result<usize, DestError> {
    if row >= DST_ROWS {
        return Err(DestError::Row(row));
    }
    if col >= DST_COLS {
        return Err(DestError::Column(col));
    }
    Ok(row * DST_COLS + col)
}

impl Dest {
    /// All-zero Dst, literal 16-bit view.
    pub fn new() -> Dest {
        Dest::with_mode(Dst16Mode::Literal)
    }

    /// All-zero Dst with the given 16-bit view mapping.
    pub fn with_mode(mode: Dst16Mode) -> Dest {
        Dest {
            bits: vec![0; DST_ROWS * DST_COLS],
            poisoned: vec![false; DST_ROWS * DST_COLS],
            mode,
        }
    }

    /// The 16-bit view mapping.
    pub fn mode(&self) -> Dst16Mode {
        self.mode
    }

    /// The physical storage, `DstBits[row * 16 + col]`.
    pub fn bits(&self) -> &[u16] {
        &self.bits
    }

    /// Raw physical cell `DstBits[row][col]`.
    pub fn phys(&self, row: usize, col: usize) -> Result<u16, DestError> {
        let i = check(row, col)?;
        Ok(self.bits[i])
    }

    /// Sets the raw physical cell `DstBits[row][col]`.
    pub fn set_phys(&mut self, row: usize, col: usize, v: u16) -> Result<(), DestError> {
        let i = check(row, col)?;
        self.bits[i] = v;
        self.poisoned[i] = false;
        Ok(())
    }

    fn get(&self, row: usize, col: usize) -> Result<u16, DestError> {
        let i = check(row, col)?;
        if self.poisoned[i] {
            return Err(DestError::Unpredictable { row, col });
        }
        Ok(self.bits[i])
    }

    /// `Dst32b[row][col]`.
    pub fn read32(&self, row: usize, col: usize) -> Result<u32, DestError> {
        check(row, col)?;
        let a = adj_row(row);
        let hi = self.get(a, col)?;
        let lo = self.get(a + 8, col)?;
        Ok((u32::from(hi) << 16) | u32::from(lo))
    }

    /// `Dst32b[row][col] = v`.
    pub fn write32(&mut self, row: usize, col: usize, v: u32) -> Result<(), DestError> {
        check(row, col)?;
        let a = adj_row(row);
        self.set_phys(a, col, (v >> 16) as u16)?;
        self.set_phys(a + 8, col, v as u16)
    }

    /// `Dst16b[row][col]`.
    pub fn read16(&self, row: usize, col: usize) -> Result<u16, DestError> {
        match self.mode {
            Dst16Mode::Literal => self.get(row, col),
            Dst16Mode::HighHalfOfDst32b => {
                check(row, col)?;
                self.get(adj_row(row), col)
            }
        }
    }

    /// `Dst16b[row][col] = v`.
    pub fn write16(&mut self, row: usize, col: usize, v: u16) -> Result<(), DestError> {
        match self.mode {
            Dst16Mode::Literal => self.set_phys(row, col, v),
            Dst16Mode::HighHalfOfDst32b => {
                check(row, col)?;
                let a = adj_row(row);
                self.set_phys(a, col, v)?;
                // ISA: "also write something - generally garbage - to the low 16 bits".
                let lo = check(a + 8, col)?;
                self.poisoned[lo] = true;
                Ok(())
            }
        }
    }

    /// Reads one datum through `view`.
    pub fn read(&self, view: View, row: usize, col: usize) -> Result<Cell, DestError> {
        Ok(match view {
            View::Dst16b => Cell::D16(self.read16(row, col)?),
            View::Dst32b => Cell::D32(self.read32(row, col)?),
        })
    }

    /// Writes one datum through the cell's view.
    pub fn write(&mut self, row: usize, col: usize, cell: Cell) -> Result<(), DestError> {
        match cell {
            Cell::D16(v) => self.write16(row, col, v),
            Cell::D32(v) => self.write32(row, col, v),
        }
    }

    /// SFPLOAD for one lane: the LReg value loaded by `mod0` (resolved) at effective address
    /// `addr`; `old` is the lane's previous LReg value (LO16_ONLY / HI16_ONLY keep half of it).
    pub fn sfpu_load(
        &self,
        addr: u16,
        lane: usize,
        mod0: Mod0,
        old: u32,
        arch: Arch,
    ) -> Result<u32, DestError> {
        let (row, col) = lane_cell(addr, lane)?;
        let cell = match mod0 {
            Mod0::Zero => Cell::D16(0),
            _ => {
                let view = mod0.load_view().ok_or(DestError::NoView(mod0.isa_name()))?;
                self.read(view, row, col)?
            }
        };
        Ok(formats::load_mod0(mod0, cell, old, arch)?)
    }

    /// SFPSTORE for one lane: writes LReg value `value` with `mod0` (resolved) at effective
    /// address `addr`.
    pub fn sfpu_store(
        &mut self,
        addr: u16,
        lane: usize,
        mod0: Mod0,
        value: u32,
        arch: Arch,
    ) -> Result<(), DestError> {
        let (row, col) = lane_cell(addr, lane)?;
        let cell = formats::store_mod0(mod0, value, arch)?;
        self.write(row, col, cell)
    }
}
