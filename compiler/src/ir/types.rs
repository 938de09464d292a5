//! IR types (syntax.md §3) and the uniquing table that interns them.
//!
//! Types are values compared field-wise *after defaults*: the legacy and compact `!pto.tile_buf`
//! spellings build the same [`TileBufType`]. Opaque types (D-9) compare by their verbatim text.
//! A [`TypeId`] is an index into the module's [`TypeTable`]; equal types get equal ids, so type
//! equality checks are id comparisons.

use indexmap::IndexSet;
use pto_runtime::ElemType;
use rustc_hash::FxBuildHasher;

/// Handle of an interned type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct TypeId(pub u32);

/// Integer signedness as spelled: `i8` (signless), `si8`, `ui8`. Signless means signed in
/// conversion semantics (semantics.md §2.1), but the spelling is kept for printing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Signedness {
    Signless,
    Signed,
    Unsigned,
}

/// A scalar (element) type. Every MLIR-valid integer width parses (syntax.md §3.7); whether a
/// conversion accepts it is the verifier's business (`unsupported-elem-type`).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ScalarType {
    F16,
    BF16,
    F32,
    F64,
    F8E4M3FN,
    F8E5M2,
    /// Other builtin float spellings that parse but convert nowhere (`f8E4M3FNUZ`, `f8E4M3`, ...).
    OtherFloat(String),
    Hif8,
    F4E2M1x2,
    F4E1M2x2,
    S4x2,
    /// `!pto.f8E8M0`, `!pto.bf16x2`, `!pto.hif8x2`: preserved, not in conversion tables.
    PtoOther(String),
    Int {
        width: u16,
        signedness: Signedness,
    },
    Index,
}

impl ScalarType {
    /// The conversion-capable runtime type this scalar denotes, if any.
    pub fn conversion_elem(&self) -> Option<ElemType> {
        use Signedness::*;
        Some(match self {
            ScalarType::F16 => ElemType::F16,
            ScalarType::BF16 => ElemType::BF16,
            ScalarType::F32 => ElemType::F32,
            ScalarType::F8E4M3FN => ElemType::F8E4M3FN,
            ScalarType::F8E5M2 => ElemType::F8E5M2,
            ScalarType::Hif8 => ElemType::Hif8,
            ScalarType::F4E2M1x2 => ElemType::F4E2M1x2,
            ScalarType::F4E1M2x2 => ElemType::F4E1M2x2,
            ScalarType::S4x2 => ElemType::S4x2,
            ScalarType::Int { width, signedness } => match (width, signedness) {
                (8, Signless | Signed) => ElemType::I8,
                (8, Unsigned) => ElemType::U8,
                (16, Signless | Signed) => ElemType::I16,
                (16, Unsigned) => ElemType::U16,
                (32, Signless | Signed) => ElemType::I32,
                (32, Unsigned) => ElemType::U32,
                (64, Signless | Signed) => ElemType::I64,
                _ => return None,
            },
            _ => return None,
        })
    }

    /// Storage bits of one element (carrier byte for packed types); `None` for `index` and
    /// opaque spellings whose width ptoc does not know.
    pub fn storage_bits(&self) -> Option<u32> {
        match self {
            ScalarType::F16 | ScalarType::BF16 => Some(16),
            ScalarType::F32 => Some(32),
            ScalarType::F64 => Some(64),
            ScalarType::F8E4M3FN
            | ScalarType::F8E5M2
            | ScalarType::OtherFloat(_)
            | ScalarType::Hif8
            | ScalarType::F4E2M1x2
            | ScalarType::F4E1M2x2
            | ScalarType::S4x2 => Some(8),
            ScalarType::PtoOther(name) => match name.as_str() {
                "!pto.f8E8M0" => Some(8),
                "!pto.bf16x2" => Some(32),
                "!pto.hif8x2" => Some(16),
                _ => None,
            },
            ScalarType::Int { width, .. } => Some(u32::from(*width)),
            ScalarType::Index => None,
        }
    }

    /// Two logical elements per byte (fp4x2, s4x2).
    pub fn is_packed(&self) -> bool {
        matches!(
            self,
            ScalarType::F4E2M1x2 | ScalarType::F4E1M2x2 | ScalarType::S4x2
        )
    }
}

/// Memory location of a tile (`loc`). `ub` is an input alias of `vec` (D-10).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Loc {
    Mat,
    Left,
    Right,
    Acc,
    Vec,
    Bias,
    Scaling,
}

impl Loc {
    /// The printed spelling (`vec`, never the `ub` alias).
    pub fn as_str(self) -> &'static str {
        match self {
            Loc::Mat => "mat",
            Loc::Left => "left",
            Loc::Right => "right",
            Loc::Acc => "acc",
            Loc::Vec => "vec",
            Loc::Bias => "bias",
            Loc::Scaling => "scaling",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BLayout {
    RowMajor,
    ColMajor,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SLayout {
    NoneBox,
    RowMajor,
    ColMajor,
}

/// A dimension: static extent or dynamic `?` (also written `-1` in legacy valid dims).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dim {
    Static(u64),
    Dynamic,
}

impl Dim {
    pub fn as_static(self) -> Option<u64> {
        match self {
            Dim::Static(n) => Some(n),
            Dim::Dynamic => None,
        }
    }
}

/// `!pto.tile_buf`, both spellings, with defaults applied (syntax.md §3.1-3.2).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TileBufType {
    pub loc: Loc,
    pub rows: u64,
    pub cols: u64,
    pub elem: ScalarType,
    pub valid_row: Dim,
    pub valid_col: Dim,
    pub blayout: BLayout,
    pub slayout: SLayout,
    pub fractal: u64,
    pub pad: u8,
    pub compact: u8,
}

/// `!pto.tile` (D-13). `loc: None` means it was written without a location (printed so).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct TileType {
    pub loc: Option<Loc>,
    pub rows: u64,
    pub cols: u64,
    pub elem: ScalarType,
    pub valid: Option<(Dim, Dim)>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MaskGranularity {
    B8,
    B16,
    B32,
}

impl MaskGranularity {
    pub fn bits(self) -> u32 {
        match self {
            MaskGranularity::B8 => 8,
            MaskGranularity::B16 => 16,
            MaskGranularity::B32 => 32,
        }
    }
}

/// `!pto.ptr` address spaces, canonical (hardware) names; aliases map onto these (D-15).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum AddrSpace {
    Gm,
    Ub,
    L1,
    L0a,
    L0b,
    L0c,
    Bt,
    Fb,
}

#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Type {
    Scalar(ScalarType),
    TileBuf(TileBufType),
    Tile(TileType),
    /// `!pto.vreg<NxT>`; the 2048-bit rule is checked when built (D-14).
    VReg {
        lanes: u64,
        elem: ScalarType,
    },
    Mask(MaskGranularity),
    Ptr {
        elem: ScalarType,
        space: AddrSpace,
    },
    TensorView {
        shape: Vec<Dim>,
        elem: ScalarType,
    },
    /// `!pto.partition_tensor_view` (input alias `!pto.tile_view`, D-16).
    PartitionView {
        shape: Vec<Dim>,
        elem: ScalarType,
    },
    Function {
        inputs: Vec<TypeId>,
        results: Vec<TypeId>,
    },
    /// Unknown `!dialect.name<...>`, builtin composites (`memref<...>`): verbatim text (D-9).
    Opaque(String),
}

/// The uniquing table of a module: equal types share one [`TypeId`].
#[derive(Debug, Default, Clone)]
pub struct TypeTable {
    /// Fx hashing: interning runs once per written type, SipHash showed up in profiles.
    types: IndexSet<Type, FxBuildHasher>,
}

impl TypeTable {
    pub fn intern(&mut self, ty: Type) -> TypeId {
        let (idx, _) = self.types.insert_full(ty);
        TypeId(idx as u32)
    }
    /// The text of an opaque type (`None` for any other type or a dangling id).
    pub fn lookup_opaque(&self, id: TypeId) -> Option<&String> {
        match self.types.get_index(id.0 as usize) {
            Some(Type::Opaque(t)) => Some(t),
            _ => None,
        }
    }

    /// The id of `ty` if it is interned (nothing is added).
    pub fn lookup(&self, ty: &Type) -> Option<TypeId> {
        self.types.get_index_of(ty).map(|i| TypeId(i as u32))
    }
    pub fn get(&self, id: TypeId) -> &Type {
        &self.types[id.0 as usize]
    }
    pub fn len(&self) -> usize {
        self.types.len()
    }
    pub fn is_empty(&self) -> bool {
        self.types.is_empty()
    }
}

/// A tile-like operand type viewed uniformly (a `!pto.tile` counts as a tile_buf with the compact
/// form's defaults and loc `vec` when none is written; semantics.md §3.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TileView {
    pub loc: Loc,
    pub rows: u64,
    pub cols: u64,
    pub elem: ScalarType,
    pub valid_row: Dim,
    pub valid_col: Dim,
    pub blayout: BLayout,
}

impl Type {
    /// The tile view of a `!pto.tile_buf` or `!pto.tile`, `None` for anything else.
    pub fn as_tile(&self) -> Option<TileView> {
        match self {
            Type::TileBuf(t) => Some(TileView {
                loc: t.loc,
                rows: t.rows,
                cols: t.cols,
                elem: t.elem.clone(),
                valid_row: t.valid_row,
                valid_col: t.valid_col,
                blayout: t.blayout,
            }),
            Type::Tile(t) => {
                let (valid_row, valid_col) = t
                    .valid
                    .unwrap_or((Dim::Static(t.rows), Dim::Static(t.cols)));
                Some(TileView {
                    loc: t.loc.unwrap_or(Loc::Vec),
                    rows: t.rows,
                    cols: t.cols,
                    elem: t.elem.clone(),
                    valid_row,
                    valid_col,
                    blayout: BLayout::RowMajor,
                })
            }
            _ => None,
        }
    }
}
