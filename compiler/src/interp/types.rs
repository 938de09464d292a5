//! IR types → runtime value descriptors: what a function argument needs to be bound
//! ([`ParamKind`]) and how tiles are built from a type plus actual valid extents.

use pto_runtime::value::{Granularity, PackedDim};
use pto_runtime::ElemType;

use crate::ir::types::{BLayout, Dim, MaskGranularity, ScalarType};
use crate::ir::Type;

/// The runtime shape of a tile type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileDesc {
    pub elem: ElemType,
    /// Declared extents (carrier elements for packed types).
    pub rows: u64,
    pub cols: u64,
    /// Static valid extents; `None` = dynamic (`?`).
    pub valid_rows: Option<u64>,
    pub valid_cols: Option<u64>,
    pub packed_dim: PackedDim,
}

/// What a value of some IR type is at run time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    Tile(TileDesc),
    VReg {
        elem: ElemType,
    },
    Mask {
        granularity: Granularity,
    },
    /// An integer or float scalar, stored as `elem` (index = i64).
    Scalar {
        elem: ElemType,
    },
}

impl ParamKind {
    /// The element type of its data files (masks: one u8 flag per lane).
    pub fn data_elem(&self) -> ElemType {
        match *self {
            ParamKind::Tile(t) => t.elem,
            ParamKind::VReg { elem } | ParamKind::Scalar { elem } => elem,
            ParamKind::Mask { .. } => ElemType::U8,
        }
    }
}

fn dim(d: Dim) -> Option<u64> {
    d.as_static()
}

/// The runtime kind of `ty`, or why it has none (the reason names the offending part).
pub fn param_kind(ty: &Type) -> Result<ParamKind, String> {
    if let Some(t) = ty.as_tile() {
        let elem = t
            .elem
            .conversion_elem()
            .ok_or_else(|| "its element type takes part in no conversion".to_string())?;
        return Ok(ParamKind::Tile(TileDesc {
            elem,
            rows: t.rows,
            cols: t.cols,
            valid_rows: dim(t.valid_row),
            valid_cols: dim(t.valid_col),
            packed_dim: match t.blayout {
                BLayout::RowMajor => PackedDim::Cols,
                BLayout::ColMajor => PackedDim::Rows,
            },
        }));
    }
    match ty {
        Type::VReg { elem, .. } => {
            let elem = elem
                .conversion_elem()
                .ok_or_else(|| "its element type takes part in no conversion".to_string())?;
            Ok(ParamKind::VReg { elem })
        }
        Type::Mask(g) => Ok(ParamKind::Mask {
            granularity: match g {
                MaskGranularity::B8 => Granularity::B8,
                MaskGranularity::B16 => Granularity::B16,
                MaskGranularity::B32 => Granularity::B32,
            },
        }),
        Type::Scalar(ScalarType::Index) => Ok(ParamKind::Scalar {
            elem: ElemType::I64,
        }),
        Type::Scalar(s) => match s.conversion_elem() {
            Some(elem) if !elem.is_packed() => Ok(ParamKind::Scalar { elem }),
            _ => Err("scalars of this type are not supported".to_string()),
        },
        _ => Err("values of this type are not supported".to_string()),
    }
}
