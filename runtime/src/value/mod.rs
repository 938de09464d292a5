//! Runtime values of the reference interpreter (semantics.md §5, §6.6): tiles ([`Tile`]), vector
//! registers ([`VReg`]) and predicate masks ([`Mask`]), and the operations on them that ptoc
//! executes: [`tcvt`] over a tile's valid region, [`vcvt`] with zero-merge and part placement,
//! [`vor`], and the mask constructors ([`Mask::from_pattern`], [`Mask::plt`]).
//!
//! Invariants:
//! - every value owns its storage bytes, little-endian, exactly as §2.6 packs them (packed `x2`
//!   types: logical element 2k in the low nibble of carrier byte k);
//! - a tile's storage is row-major over its *declared* extents, whatever its layout keys say
//!   (§5: the result does not depend on layout), and its valid extents never exceed them;
//! - a vector register holds exactly 2048 bits; a mask holds the 256 predicate bits of the
//!   hardware (one per vreg byte), lane `j` of granularity `bN` being predicate bit `j·N/8`;
//! - every operation validates its operands and returns a [`ValueError`] instead of panicking;
//!   conversions themselves are the numeric core's ([`crate::convert::Converter`]).

mod mask;
mod tile;
mod vreg;

pub use mask::{Granularity, Mask, MASK_BYTES};
pub use tile::{tcvt, tcvt_reporting, PackedDim, Tile, MAX_TILE_BYTES};
pub use vreg::{vcvt, vor, Part, VReg, VREG_BITS, VREG_BYTES};

use crate::elem::ElemType;

/// Counts of one conversion over a value (for run summaries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ConvStats {
    /// Elements converted (active lanes, valid-region elements).
    pub converted: u64,
    /// Elements whose [`Outcome::out_of_range`](crate::convert::Outcome) was set: saturated
    /// elements when the conversion saturates.
    pub out_of_range: u64,
    /// Elements whose result differs from the exact source value.
    pub inexact: u64,
}

impl ConvStats {
    fn record(&mut self, o: crate::convert::Outcome) {
        self.converted += 1;
        self.out_of_range += u64::from(o.out_of_range);
        self.inexact += u64::from(o.inexact);
    }
}

/// Why a value could not be built or an operation could not run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// A valid extent exceeds the declared extent (`runtime-valid-shape`).
    #[error("valid {dim} {valid} exceeds {dim}s {extent}")]
    ValidExceedsShape {
        dim: &'static str,
        valid: u64,
        extent: u64,
    },
    /// The logical valid shapes of tcvt src and dst differ (`runtime-valid-shape`).
    #[error("tcvt src and dst have different logical valid shapes at run time: {src_rows}x{src_cols} and {dst_rows}x{dst_cols}")]
    ValidShapeMismatch {
        src_rows: u64,
        src_cols: u64,
        dst_rows: u64,
        dst_cols: u64,
    },
    /// A tile's declared size does not fit in memory.
    #[error(
        "a {rows}x{cols} tile of {elem} is too large for the interpreter (limit {} bytes)",
        MAX_TILE_BYTES
    )]
    TooLarge {
        elem: ElemType,
        rows: u64,
        cols: u64,
    },
    /// Storage bytes given for a value have the wrong length.
    #[error("{what} of {elem} needs {needed} storage bytes, {actual} given")]
    StorageSize {
        what: &'static str,
        elem: ElemType,
        needed: usize,
        actual: usize,
    },
    /// The element type of an operand is not the one the converter expects.
    #[error("{role} holds {found}, the conversion expects {expected}")]
    ElemMismatch {
        role: &'static str,
        expected: ElemType,
        found: ElemType,
    },
    /// A vector register element type whose width does not divide 2048 bits into lanes.
    #[error("{elem} cannot be a vector register element")]
    VregElem { elem: ElemType },
    /// A mask of the wrong granularity for the operation.
    #[error("{op} needs a mask<b{expected}>, found mask<b{found}>")]
    MaskGranularity {
        op: &'static str,
        expected: u32,
        found: u32,
    },
    /// vcvt between registers whose lane counts have no placement rule, or a missing/wrong part.
    #[error("vcvt from {src} to {dst}: {reason}")]
    VcvtPlacement {
        src: ElemType,
        dst: ElemType,
        reason: String,
    },
    /// vor operands of different element types.
    #[error("vor operands hold {lhs} and {rhs}")]
    VorElem { lhs: ElemType, rhs: ElemType },
    /// A pset pattern the interpreter does not know.
    #[error("unknown mask pattern '{pattern}' (known: PAT_ALL, PAT_ALLF, PAT_VL1..PAT_VL128, PAT_H, PAT_Q, PAT_M3, PAT_M4)")]
    UnknownPattern { pattern: String },
}
