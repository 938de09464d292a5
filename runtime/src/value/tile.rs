//! Tiles (semantics.md §3.6, §5): element type, declared extents, valid extents and row-major
//! storage; and [`tcvt`] over the logical valid region.
//!
//! Extents are stored as declared (in carrier elements for packed `x2` types). The *logical*
//! extents double the packed dimension ([`PackedDim`]: cols for row_major, rows for col_major,
//! §2.6): logical element (i, j) of a row_major `x2` tile is nibble `j % 2` of byte
//! `i·cols + j/2`; of a col_major one, nibble `i % 2` of byte `(i/2)·cols + j`.

use super::{ConvStats, ValueError};
use crate::convert::Converter;
use crate::elem::ElemType;

/// Which declared dimension of a packed `x2` tile holds two logical elements per byte.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PackedDim {
    /// blayout = row_major: a row of C bytes holds 2·C logical elements.
    Cols,
    /// blayout = col_major: a column of R bytes holds 2·R logical elements.
    Rows,
}

/// The largest tile the interpreter holds (1 GiB of storage): larger declared shapes are
/// [`ValueError::TooLarge`] rather than an allocation failure.
pub const MAX_TILE_BYTES: usize = 1 << 30;

/// A tile value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tile {
    elem: ElemType,
    rows: u64,
    cols: u64,
    valid_rows: u64,
    valid_cols: u64,
    packed_dim: PackedDim,
    data: Vec<u8>,
}

impl Tile {
    /// Storage bytes of a `rows × cols` tile of `elem`, if addressable.
    pub fn storage_len(elem: ElemType, rows: u64, cols: u64) -> Result<usize, ValueError> {
        rows.checked_mul(cols)
            .and_then(|n| n.checked_mul(u64::from(elem.storage_bytes())))
            .and_then(|n| usize::try_from(n).ok())
            .filter(|&n| n <= MAX_TILE_BYTES)
            .ok_or(ValueError::TooLarge { elem, rows, cols })
    }

    fn check_valid(
        rows: u64,
        cols: u64,
        valid_rows: u64,
        valid_cols: u64,
    ) -> Result<(), ValueError> {
        if valid_rows > rows {
            return Err(ValueError::ValidExceedsShape {
                dim: "row",
                valid: valid_rows,
                extent: rows,
            });
        }
        if valid_cols > cols {
            return Err(ValueError::ValidExceedsShape {
                dim: "col",
                valid: valid_cols,
                extent: cols,
            });
        }
        Ok(())
    }

    /// A zero-filled tile (every extent declared, in carrier elements).
    pub fn zeroed(
        elem: ElemType,
        rows: u64,
        cols: u64,
        valid_rows: u64,
        valid_cols: u64,
        packed_dim: PackedDim,
    ) -> Result<Tile, ValueError> {
        Tile::check_valid(rows, cols, valid_rows, valid_cols)?;
        let len = Tile::storage_len(elem, rows, cols)?;
        Ok(Tile {
            elem,
            rows,
            cols,
            valid_rows,
            valid_cols,
            packed_dim,
            data: vec![0; len],
        })
    }

    /// A tile over existing storage bytes (exactly `rows·cols·storage_bytes`).
    pub fn from_storage(
        elem: ElemType,
        rows: u64,
        cols: u64,
        valid_rows: u64,
        valid_cols: u64,
        packed_dim: PackedDim,
        data: Vec<u8>,
    ) -> Result<Tile, ValueError> {
        Tile::check_valid(rows, cols, valid_rows, valid_cols)?;
        let needed = Tile::storage_len(elem, rows, cols)?;
        if data.len() != needed {
            return Err(ValueError::StorageSize {
                what: "a tile",
                elem,
                needed,
                actual: data.len(),
            });
        }
        Ok(Tile {
            elem,
            rows,
            cols,
            valid_rows,
            valid_cols,
            packed_dim,
            data,
        })
    }

    pub fn elem(&self) -> ElemType {
        self.elem
    }
    /// Declared (rows, cols), in carrier elements.
    pub fn shape(&self) -> (u64, u64) {
        (self.rows, self.cols)
    }
    /// Valid (rows, cols), in carrier elements.
    pub fn valid(&self) -> (u64, u64) {
        (self.valid_rows, self.valid_cols)
    }
    pub fn packed_dim(&self) -> PackedDim {
        self.packed_dim
    }
    /// Storage bytes, row-major over the declared shape.
    pub fn storage(&self) -> &[u8] {
        &self.data
    }

    fn logical(&self, rows: u64, cols: u64) -> (u64, u64) {
        match (self.elem.is_packed(), self.packed_dim) {
            (false, _) => (rows, cols),
            (true, PackedDim::Cols) => (rows, cols.saturating_mul(2)),
            (true, PackedDim::Rows) => (rows.saturating_mul(2), cols),
        }
    }

    /// Logical extents (§3.6).
    pub fn logical_shape(&self) -> (u64, u64) {
        self.logical(self.rows, self.cols)
    }

    /// Logical valid extents (§3.6).
    pub fn logical_valid(&self) -> (u64, u64) {
        self.logical(self.valid_rows, self.valid_cols)
    }

    /// Logical element count of the whole declared tile.
    pub fn logical_len(&self) -> u64 {
        let (r, c) = self.logical_shape();
        r.saturating_mul(c)
    }

    /// Byte offset and nibble (packed types) of logical element (i, j), if inside the tile.
    fn locate(&self, i: u64, j: u64) -> Option<(usize, Option<u32>)> {
        let (lr, lc) = self.logical_shape();
        if i >= lr || j >= lc {
            return None;
        }
        let w = u64::from(self.elem.storage_bytes());
        let (byte, nibble) = match (self.elem.is_packed(), self.packed_dim) {
            (false, _) => ((i * self.cols + j) * w, None),
            (true, PackedDim::Cols) => (i * self.cols + j / 2, Some((j % 2) as u32)),
            (true, PackedDim::Rows) => ((i / 2) * self.cols + j, Some((i % 2) as u32)),
        };
        Some((usize::try_from(byte).ok()?, nibble))
    }

    /// The bit pattern of logical element (i, j) (0 outside the tile).
    pub fn get(&self, i: u64, j: u64) -> u64 {
        let Some((at, nibble)) = self.locate(i, j) else {
            return 0;
        };
        match nibble {
            Some(n) => self
                .data
                .get(at)
                .map_or(0, |b| u64::from((b >> (4 * n)) & 0xF)),
            None => {
                let w = self.elem.storage_bytes() as usize;
                let mut le = [0u8; 8];
                if let (Some(src), Some(dst)) = (self.data.get(at..at + w), le.get_mut(..w)) {
                    dst.copy_from_slice(src);
                }
                u64::from_le_bytes(le)
            }
        }
    }

    /// Sets logical element (i, j) from the low bits of `bits` (ignored outside the tile).
    pub fn set(&mut self, i: u64, j: u64, bits: u64) {
        let Some((at, nibble)) = self.locate(i, j) else {
            return;
        };
        let w = self.elem.storage_bytes() as usize;
        match nibble {
            Some(n) => {
                if let Some(b) = self.data.get_mut(at) {
                    let shift = 4 * n;
                    *b = (*b & !(0xF << shift)) | (((bits & 0xF) as u8) << shift);
                }
            }
            None => {
                if let Some(dst) = self.data.get_mut(at..at + w) {
                    dst.copy_from_slice(&bits.to_le_bytes()[..w]);
                }
            }
        }
    }
}

/// `tcvt(src, dst)` (§5): converts every element of the logical valid region of `dst` (equal to
/// that of `src`, else [`ValueError::ValidShapeMismatch`]) with `conv`; every dst element
/// outside it, including the other nibble of a packed byte, is left unchanged. `src` is read
/// through a shared borrow, so a caller converting a tile into itself passes a snapshot.
pub fn tcvt(src: &Tile, dst: &mut Tile, conv: &Converter) -> Result<ConvStats, ValueError> {
    tcvt_reporting(src, dst, conv, &mut |_| {})
}

/// [`tcvt`], calling `done(n)` after each row with the number of elements it converted (a
/// progress bar for large tiles; the result does not depend on it).
pub fn tcvt_reporting(
    src: &Tile,
    dst: &mut Tile,
    conv: &Converter,
    done: &mut dyn FnMut(u64),
) -> Result<ConvStats, ValueError> {
    let spec = conv.spec();
    if src.elem != spec.src {
        return Err(ValueError::ElemMismatch {
            role: "tcvt src",
            expected: spec.src,
            found: src.elem,
        });
    }
    if dst.elem != spec.dst {
        return Err(ValueError::ElemMismatch {
            role: "tcvt dst",
            expected: spec.dst,
            found: dst.elem,
        });
    }
    let (sr, sc) = src.logical_valid();
    let (dr, dc) = dst.logical_valid();
    if (sr, sc) != (dr, dc) {
        return Err(ValueError::ValidShapeMismatch {
            src_rows: sr,
            src_cols: sc,
            dst_rows: dr,
            dst_cols: dc,
        });
    }
    let mut stats = ConvStats::default();
    for i in 0..dr {
        for j in 0..dc {
            let (out, outcome) = conv.convert_with_outcome(src.get(i, j));
            dst.set(i, j, out);
            stats.record(outcome);
        }
        done(dc);
    }
    Ok(stats)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn valid_extents_are_checked() {
        let e = Tile::zeroed(ElemType::F32, 4, 8, 5, 8, PackedDim::Cols);
        assert!(matches!(
            e,
            Err(ValueError::ValidExceedsShape {
                dim: "row",
                valid: 5,
                extent: 4
            })
        ));
        let e = Tile::zeroed(ElemType::F32, 4, 8, 4, 9, PackedDim::Cols);
        assert!(matches!(
            e,
            Err(ValueError::ValidExceedsShape { dim: "col", .. })
        ));
        let e = Tile::zeroed(ElemType::F32, u64::MAX, 8, 0, 0, PackedDim::Cols);
        assert!(matches!(e, Err(ValueError::TooLarge { .. })));
        let e = Tile::zeroed(ElemType::F32, 1 << 16, 1 << 14, 0, 0, PackedDim::Cols);
        assert!(
            matches!(e, Err(ValueError::TooLarge { .. })),
            "4 GiB is refused"
        );
        let e = Tile::from_storage(ElemType::I16, 2, 2, 2, 2, PackedDim::Cols, vec![0; 7]);
        assert!(matches!(
            e,
            Err(ValueError::StorageSize {
                needed: 8,
                actual: 7,
                ..
            })
        ));
    }

    #[test]
    fn unpacked_elements_are_little_endian_row_major() {
        let mut t = Tile::zeroed(ElemType::I16, 2, 3, 2, 3, PackedDim::Cols)
            .unwrap_or_else(|e| panic!("{e}"));
        t.set(1, 2, 0xBEEF);
        t.set(0, 1, 0x1_2345); // high bits dropped
        assert_eq!(t.storage()[10..12], [0xEF, 0xBE]);
        assert_eq!(t.storage()[2..4], [0x45, 0x23]);
        assert_eq!(t.get(1, 2), 0xBEEF);
        assert_eq!(t.get(2, 0), 0, "outside");
        t.set(9, 9, 1); // ignored
        assert_eq!(t.logical_shape(), (2, 3));
    }

    #[test]
    fn packed_row_major_and_col_major() {
        let mut t = Tile::zeroed(ElemType::S4x2, 2, 2, 2, 1, PackedDim::Cols)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((t.logical_shape(), t.logical_valid()), ((2, 4), (2, 2)));
        t.set(0, 0, 0x1);
        t.set(0, 1, 0x2);
        t.set(1, 3, 0xF);
        assert_eq!(t.storage(), &[0x21, 0x00, 0x00, 0xF0]);
        assert_eq!((t.get(0, 1), t.get(1, 3), t.get(1, 2)), (2, 0xF, 0));
        let mut t = Tile::zeroed(ElemType::F4E2M1x2, 2, 2, 1, 2, PackedDim::Rows)
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((t.logical_shape(), t.logical_valid()), ((4, 2), (2, 2)));
        t.set(1, 0, 0x7);
        t.set(2, 1, 0x3);
        assert_eq!(t.storage(), &[0x70, 0x00, 0x00, 0x03]);
    }

    #[test]
    fn tcvt_rejects_mismatched_operands() {
        let conv = Converter::new(crate::convert::ConvSpec {
            src: ElemType::I8,
            dst: ElemType::I16,
            rounding: crate::convert::Rounding::Rint,
            sat: false,
            path: crate::convert::NonSatPath::X86,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let src = Tile::zeroed(ElemType::I8, 2, 4, 2, 4, PackedDim::Cols)
            .unwrap_or_else(|e| panic!("{e}"));
        let mut dst = Tile::zeroed(ElemType::I16, 2, 4, 2, 3, PackedDim::Cols)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            tcvt(&src, &mut dst, &conv),
            Err(ValueError::ValidShapeMismatch { .. })
        ));
        let mut wrong = Tile::zeroed(ElemType::I32, 2, 4, 2, 4, PackedDim::Cols)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(matches!(
            tcvt(&src, &mut wrong, &conv),
            Err(ValueError::ElemMismatch {
                role: "tcvt dst",
                ..
            })
        ));
    }

    /// Needs the numeric core (i8 → i16 is a sign extension).
    #[test]
    fn tcvt_converts_only_the_valid_region() {
        let conv = Converter::new(crate::convert::ConvSpec {
            src: ElemType::I8,
            dst: ElemType::I16,
            rounding: crate::convert::Rounding::Rint,
            sat: false,
            path: crate::convert::NonSatPath::X86,
        })
        .unwrap_or_else(|e| panic!("{e}"));
        let src = Tile::from_storage(
            ElemType::I8,
            2,
            3,
            2,
            2,
            PackedDim::Cols,
            vec![1, 0xFF, 3, 4, 0x80, 6],
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let mut dst =
            Tile::from_storage(ElemType::I16, 2, 3, 2, 2, PackedDim::Cols, vec![0xAA; 12])
                .unwrap_or_else(|e| panic!("{e}"));
        let mut rows = Vec::new();
        let stats = tcvt_reporting(&src, &mut dst, &conv, &mut |n| rows.push(n))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(stats.converted, 4);
        assert_eq!(
            rows,
            [2, 2],
            "one report per valid row, of its valid columns"
        );
        assert_eq!(
            dst.storage(),
            &[1, 0, 0xFF, 0xFF, 0xAA, 0xAA, 4, 0, 0x80, 0xFF, 0xAA, 0xAA]
        );
    }
}
