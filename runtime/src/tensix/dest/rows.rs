//! Whole-row SFPU access to Dst (the simulator's and the batch runner's fast path): one SFPU row
//! = the 32 cells an SFPLOAD/SFPSTORE at an even address touches (tensix.md §4.3).
//!
//! Each operation resolves the address, the view and the Mod0 conversion once per row and then
//! runs branch-free loops over `[u32; 32]` / `[u16; 32]`. The hot modes (FP32, INT32, BF16, the
//! raw 16-bit modes) have inline kernels; the others convert per lane through
//! [`formats::load_mod0`] / [`formats::store_mod0`].
//!
//! Invariant (checked by `tests/tensix_dest_rows.rs` against the per-lane [`Dest::sfpu_load`] /
//! [`Dest::sfpu_store`]): for every address, lane-enable mask, Mod0, arch and Dst content, a row
//! operation has exactly the effect of the per-lane operation applied to the enabled lanes in
//! lane order, and returns the error the first failing lane would. On error a load leaves the
//! LReg untouched and a store has written nothing (every error is detected before any write,
//! except [`Dest::write_rows`], which writes the lanes before the failing value, as the per-value
//! path does).

use super::{adj_row, Dest, DestError, DestWidth, Dst16Mode, DST_COLS, LANES};
use crate::tensix::formats::{self, Arch, Cell, FormatError, Mod0, View};

/// One SFPU row of LReg values (lane `l` at index `l`).
pub type Row = [u32; LANES];

#[inline(always)]
fn unshuf32(x: u32) -> u32 {
    (x & 0x8000_FFFF) | ((x & 0x00FF_0000) << 7) | ((x >> 8) & 0x007F_0000)
}

#[inline(always)]
fn shuf32(x: u32) -> u32 {
    (x & 0x8000_FFFF) | ((x & 0x007F_0000) << 8) | ((x >> 7) & 0x00FF_0000)
}

#[inline(always)]
fn shuf16(x: u32) -> u16 {
    ((x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF)) as u16
}

#[inline(always)]
fn unshuf16(x: u16) -> u32 {
    let x = u32::from(x);
    (x & 0x8000) | ((x & 0xFF) << 7) | ((x >> 8) & 0x7F)
}

/// FP32 denormal → signed zero (as `formats` `daz`).
#[inline(always)]
fn daz(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

#[inline(always)]
fn lane_on(en: u32, l: usize) -> bool {
    en >> l & 1 != 0
}

/// Lane `l` of the result is all ones iff lane `l` is enabled (SSE2-friendly select mask).
#[inline(always)]
fn lane_mask(en: u32) -> Row {
    let mut m = [0u32; LANES];
    for (l, x) in m.iter_mut().enumerate() {
        *x = if en & (1 << l) != 0 { !0 } else { 0 };
    }
    m
}

/// `dst[l] = src[l]` in the enabled lanes.
#[inline(always)]
fn merge(en: u32, dst: &mut Row, src: &Row) {
    if en == !0 {
        *dst = *src;
        return;
    }
    let m = lane_mask(en);
    for l in 0..LANES {
        dst[l] = (src[l] & m[l]) | (dst[l] & !m[l]);
    }
}

#[inline(always)]
fn map32(c: &Row, f: impl Fn(u32) -> u32) -> Row {
    let mut o = [0u32; LANES];
    for l in 0..LANES {
        o[l] = f(c[l]);
    }
    o
}

#[inline(always)]
fn map16(c: &[u16; LANES], f: impl Fn(u16) -> u32) -> Row {
    let mut o = [0u32; LANES];
    for l in 0..LANES {
        o[l] = f(c[l]);
    }
    o
}

fn mismatch(mod0: Mod0, expected: View, got: View) -> DestError {
    DestError::Format(FormatError::ViewMismatch {
        mod0: mod0.isa_name(),
        expected,
        got,
    })
}

impl Dest {
    /// Physical row holding `Dst16b[row]`.
    #[inline(always)]
    fn row16(&self, row: usize) -> usize {
        match self.mode {
            Dst16Mode::Literal => row,
            Dst16Mode::HighHalfOfDst32b => adj_row(row),
        }
    }

    #[inline(always)]
    fn prow(&self, prow: usize) -> Result<&[u16; DST_COLS], DestError> {
        self.bits
            .get(prow * DST_COLS..(prow + 1) * DST_COLS)
            .and_then(|s| s.try_into().ok())
            .ok_or(DestError::Row(prow))
    }

    #[inline(always)]
    fn prow_mut(&mut self, prow: usize) -> Result<&mut [u16; DST_COLS], DestError> {
        self.bits
            .get_mut(prow * DST_COLS..(prow + 1) * DST_COLS)
            .and_then(|s| s.try_into().ok())
            .ok_or(DestError::Row(prow))
    }

    /// First enabled lane (in lane order) reading a poisoned cell; `cells(j)` lists the physical
    /// rows lane row `j` reads, in read order. Only HighHalfOfDst32b mode ever poisons cells.
    fn poison_check(&self, addr: u16, en: u32, rows32: bool) -> Result<(), DestError> {
        if self.mode == Dst16Mode::Literal {
            return Ok(());
        }
        let base = usize::from(addr & 0x3FC);
        let odd = usize::from(addr & 2 != 0);
        for l in (0..LANES).filter(|&l| lane_on(en, l)) {
            let col = 2 * (l % 8) + odd;
            let (first, second) = if rows32 {
                let a = adj_row(base + l / 8);
                (a, Some(a + 8))
            } else {
                (self.row16(base + l / 8), None)
            };
            for row in std::iter::once(first).chain(second) {
                if self
                    .poisoned
                    .get(row * DST_COLS + col)
                    .copied()
                    .unwrap_or(false)
                {
                    return Err(DestError::Unpredictable { row, col });
                }
            }
        }
        Ok(())
    }

    /// The 32 `Dst16b` cells of the SFPU row at even `addr`.
    fn get_row16(&self, addr: u16, en: u32) -> Result<[u16; LANES], DestError> {
        self.poison_check(addr, en, false)?;
        let base = usize::from(addr & 0x3FC);
        let odd = usize::from(addr & 2 != 0);
        let mut out = [0u16; LANES];
        for j in 0..4 {
            let cells = self.prow(self.row16(base + j))?;
            for k in 0..8 {
                out[8 * j + k] = cells[2 * k + odd];
            }
        }
        Ok(out)
    }

    /// The 32 `Dst32b` datums of the SFPU row at even `addr`.
    fn get_row32(&self, addr: u16, en: u32) -> Result<Row, DestError> {
        self.poison_check(addr, en, true)?;
        let base = usize::from(addr & 0x3FC);
        let odd = usize::from(addr & 2 != 0);
        let mut out = [0u32; LANES];
        for j in 0..4 {
            let a = adj_row(base + j);
            let hi = self.prow(a)?;
            let lo = self.prow(a + 8)?;
            for k in 0..8 {
                let c = 2 * k + odd;
                out[8 * j + k] = (u32::from(hi[c]) << 16) | u32::from(lo[c]);
            }
        }
        Ok(out)
    }

    /// Writes the enabled lanes' `Dst16b` cells (as [`Dest::write16`] per lane).
    fn put_row16(&mut self, addr: u16, en: u32, vals: &[u16; LANES]) -> Result<(), DestError> {
        let base = usize::from(addr & 0x3FC);
        let odd = usize::from(addr & 2 != 0);
        for j in 0..4 {
            let prow = self.row16(base + j);
            let cells = self.prow_mut(prow)?;
            let byte = (en >> (8 * j)) & 0xFF;
            for k in 0..8 {
                let c = &mut cells[2 * k + odd];
                let keep = (byte >> k) & 1 == 0;
                *c = if keep { *c } else { vals[8 * j + k] };
            }
            if self.mode == Dst16Mode::HighHalfOfDst32b {
                // The high half becomes defined, the low half unpredictable (write16).
                for k in (0..8).filter(|k| lane_on(en, 8 * j + k)) {
                    let col = 2 * k + odd;
                    if let Some(p) = self.poisoned.get_mut(prow * DST_COLS + col) {
                        *p = false;
                    }
                    if let Some(p) = self.poisoned.get_mut((prow + 8) * DST_COLS + col) {
                        *p = true;
                    }
                }
            }
            // Literal mode: no cell is ever poisoned, so there is nothing to clear.
        }
        Ok(())
    }

    /// Writes the enabled lanes' `Dst32b` datums (as [`Dest::write32`] per lane).
    fn put_row32(&mut self, addr: u16, en: u32, vals: &Row) -> Result<(), DestError> {
        let base = usize::from(addr & 0x3FC);
        let odd = usize::from(addr & 2 != 0);
        for j in 0..4 {
            let a = adj_row(base + j);
            for (prow, shift) in [(a, 16), (a + 8, 0)] {
                let cells = self.prow_mut(prow)?;
                let byte = (en >> (8 * j)) & 0xFF;
                if byte == 0xFF {
                    for k in 0..8 {
                        cells[2 * k + odd] = (vals[8 * j + k] >> shift) as u16;
                    }
                } else {
                    for k in 0..8 {
                        let c = &mut cells[2 * k + odd];
                        let v = (vals[8 * j + k] >> shift) as u16;
                        *c = if (byte >> k) & 1 != 0 { v } else { *c };
                    }
                }
                if self.mode == Dst16Mode::HighHalfOfDst32b {
                    for k in (0..8).filter(|k| lane_on(en, 8 * j + k)) {
                        if let Some(p) = self.poisoned.get_mut(prow * DST_COLS + 2 * k + odd) {
                            *p = false;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// SFPLOAD of a whole row: in the lanes of `en`, `lreg[l]` becomes what
    /// [`Dest::sfpu_load`]`(addr, l, mod0, lreg[l], arch)` returns; other lanes keep their value.
    /// `mod0` must be resolved. On error `lreg` is unchanged.
    pub fn sfpu_load_row(
        &self,
        addr: u16,
        en: u32,
        mod0: Mod0,
        arch: Arch,
        lreg: &mut Row,
    ) -> Result<(), DestError> {
        if en == 0 {
            return Ok(());
        }
        if addr & 1 != 0 {
            return Err(DestError::OddAddress(addr));
        }
        let new = match mod0 {
            Mod0::Zero => [0; LANES],
            _ => match mod0.load_view() {
                None => return Err(DestError::NoView(mod0.isa_name())),
                Some(View::Dst32b) => {
                    let c = self.get_row32(addr, en)?;
                    match mod0 {
                        Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All => map32(&c, unshuf32),
                        _ => self.load_generic(en, mod0, arch, lreg, |l| Cell::D32(c[l]))?,
                    }
                }
                Some(View::Dst16b) => {
                    let c = self.get_row16(addr, en)?;
                    match mod0 {
                        Mod0::Bf16 => map16(&c, |x| unshuf16(x) << 16),
                        Mod0::Uint16 | Mod0::Lo16 => map16(&c, u32::from),
                        Mod0::Hi16 => map16(&c, |x| u32::from(x) << 16),
                        Mod0::Lo16Only => {
                            let mut o = map16(&c, u32::from);
                            for l in 0..LANES {
                                o[l] |= lreg[l] & 0xFFFF_0000;
                            }
                            o
                        }
                        Mod0::Hi16Only => {
                            let mut o = map16(&c, |x| u32::from(x) << 16);
                            for l in 0..LANES {
                                o[l] |= lreg[l] & 0xFFFF;
                            }
                            o
                        }
                        _ => self.load_generic(en, mod0, arch, lreg, |l| Cell::D16(c[l]))?,
                    }
                }
            },
        };
        merge(en, lreg, &new);
        Ok(())
    }

    /// Per-lane load conversion for the rarely used modes (enabled lanes only).
    fn load_generic(
        &self,
        en: u32,
        mod0: Mod0,
        arch: Arch,
        lreg: &Row,
        cell: impl Fn(usize) -> Cell,
    ) -> Result<Row, DestError> {
        let mut o = *lreg;
        for l in (0..LANES).filter(|&l| lane_on(en, l)) {
            o[l] = formats::load_mod0(mod0, cell(l), lreg[l], arch)?;
        }
        Ok(o)
    }

    /// SFPSTORE of a whole row: for each lane of `en` in lane order, what
    /// [`Dest::sfpu_store`]`(addr, l, mod0, vals[l], arch)` does. `mod0` must be resolved. On
    /// error nothing has been written.
    pub fn sfpu_store_row(
        &mut self,
        addr: u16,
        en: u32,
        mod0: Mod0,
        arch: Arch,
        vals: &Row,
    ) -> Result<(), DestError> {
        if en == 0 {
            return Ok(());
        }
        if addr & 1 != 0 {
            return Err(DestError::OddAddress(addr));
        }
        match mod0.store_view() {
            None => Err(DestError::Format(FormatError::UnresolvedDefault)),
            Some(View::Dst32b) => {
                let cells = match mod0 {
                    Mod0::Fp32 => map32(vals, |x| shuf32(daz(x))),
                    Mod0::Int32 | Mod0::Int32All => map32(vals, shuf32),
                    Mod0::Hi16 => *vals,
                    Mod0::Lo16 => map32(vals, |x| x.rotate_left(16)),
                    _ => {
                        let mut o = [0u32; LANES];
                        for l in (0..LANES).filter(|&l| lane_on(en, l)) {
                            o[l] = match formats::store_mod0(mod0, vals[l], arch)? {
                                Cell::D32(c) => c,
                                Cell::D16(_) => {
                                    return Err(mismatch(mod0, View::Dst32b, View::Dst16b))
                                }
                            };
                        }
                        o
                    }
                };
                self.put_row32(addr, en, &cells)
            }
            Some(View::Dst16b) => {
                let mut cells = [0u16; LANES];
                match mod0 {
                    Mod0::Bf16 => {
                        for l in 0..LANES {
                            cells[l] = shuf16(daz(vals[l]) >> 16);
                        }
                    }
                    Mod0::Uint16 | Mod0::Lo16Only => {
                        for l in 0..LANES {
                            cells[l] = vals[l] as u16;
                        }
                    }
                    Mod0::Hi16Only => {
                        for l in 0..LANES {
                            cells[l] = (vals[l] >> 16) as u16;
                        }
                    }
                    Mod0::Zero => {}
                    _ => {
                        for l in (0..LANES).filter(|&l| lane_on(en, l)) {
                            cells[l] = match formats::store_mod0(mod0, vals[l], arch)? {
                                Cell::D16(c) => c,
                                Cell::D32(_) => {
                                    return Err(mismatch(mod0, View::Dst16b, View::Dst32b))
                                }
                            };
                        }
                    }
                }
                self.put_row16(addr, en, &cells)
            }
        }
    }

    /// Places logical values in tile order — SFPU row `k` = address `2k`, lane `l` = value
    /// `32k + l` — each through the inverse of load mode `mod0` (so SFPLOAD with `mod0` yields
    /// exactly the value; §4.6/§4.7). A trailing partial row is padded with the cell of 0. On a
    /// value without a preimage, the values before it have been written.
    pub fn write_rows(
        &mut self,
        values: &[u32],
        mod0: Mod0,
        width: DestWidth,
        arch: Arch,
    ) -> Result<(), DestError> {
        let rows = values.len().div_ceil(LANES);
        if rows > width.sfpu_rows() {
            return Err(DestError::TooManyRows {
                rows,
                max: width.sfpu_rows(),
            });
        }
        for (k, chunk) in values.chunks(LANES).enumerate() {
            let mut row = [0u32; LANES];
            row[..chunk.len()].copy_from_slice(chunk);
            let addr = (2 * k) as u16;
            match mod0 {
                Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All => {
                    self.put_row32(addr, !0, &map32(&row, shuf32))?
                }
                _ => self.write_row_generic(addr, &row, mod0, arch)?,
            }
        }
        Ok(())
    }

    fn write_row_generic(
        &mut self,
        addr: u16,
        row: &Row,
        mod0: Mod0,
        arch: Arch,
    ) -> Result<(), DestError> {
        let mut c16 = [0u16; LANES];
        let mut c32 = [0u32; LANES];
        let (mut en16, mut en32) = (0u32, 0u32);
        let mut err = None;
        for l in 0..LANES {
            match formats::load_inverse(mod0, row[l], arch) {
                Ok(Cell::D16(c)) => {
                    c16[l] = c;
                    en16 |= 1 << l;
                }
                Ok(Cell::D32(c)) => {
                    c32[l] = c;
                    en32 |= 1 << l;
                }
                Err(e) => {
                    err = Some(e);
                    break;
                }
            }
        }
        // A mode's cells all have its load view, so the two writes touch disjoint lanes.
        self.put_row16(addr, en16, &c16)?;
        self.put_row32(addr, en32, &c32)?;
        match err {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }

    /// Reads `count` logical values in tile order (as [`Dest::write_rows`]) through load mode
    /// `mod0`.
    pub fn read_rows(
        &self,
        count: usize,
        mod0: Mod0,
        width: DestWidth,
        arch: Arch,
    ) -> Result<Vec<u32>, DestError> {
        let mut out = Vec::with_capacity(count);
        self.read_rows_into(count, mod0, width, arch, &mut out)?;
        Ok(out)
    }

    /// As [`Dest::read_rows`], appending to `out` (on error, `out` is unchanged).
    pub fn read_rows_into(
        &self,
        count: usize,
        mod0: Mod0,
        width: DestWidth,
        arch: Arch,
        out: &mut Vec<u32>,
    ) -> Result<(), DestError> {
        let start = out.len();
        out.resize(start + count, 0);
        let r = self.read_rows_to_slice(mod0, width, arch, &mut out[start..]);
        if r.is_err() {
            out.truncate(start);
        }
        r
    }

    /// As [`Dest::read_rows`] with `count = out.len()`, writing into `out` (on error, the
    /// content of `out` is unspecified).
    pub fn read_rows_to_slice(
        &self,
        mod0: Mod0,
        width: DestWidth,
        arch: Arch,
        out: &mut [u32],
    ) -> Result<(), DestError> {
        let rows = out.len().div_ceil(LANES);
        if rows > width.sfpu_rows() {
            return Err(DestError::TooManyRows {
                rows,
                max: width.sfpu_rows(),
            });
        }
        for (k, o) in out.chunks_mut(LANES).enumerate() {
            let n = o.len();
            let en = if n == LANES { !0 } else { (1u32 << n) - 1 };
            let mut row = [0u32; LANES];
            self.sfpu_load_row((2 * k) as u16, en, mod0, arch, &mut row)?;
            o.copy_from_slice(&row[..n]);
        }
        Ok(())
    }

    /// Resets every cell to 0 (and nothing unpredictable): the state of a new `Dest` of the
    /// same mode, without reallocating.
    pub fn clear(&mut self) {
        self.bits.fill(0);
        self.poisoned.fill(false);
    }
}
