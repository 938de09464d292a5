//! Type spellings (syntax.md §3, §7.2): compact `!pto.tile_buf` with defaults omitted, the two
//! `!pto.tile` forms, hardware `!pto.ptr` space names (D-15), `!pto.partition_tensor_view` (D-16)
//! and verbatim opaque types (D-9).

use std::fmt::Write as _;

use super::Printer;
use crate::ir::types::{
    AddrSpace, BLayout, Dim, Loc, MaskGranularity, SLayout, ScalarType, Signedness,
};
use crate::ir::{Type, TypeId};

fn space_name(space: AddrSpace) -> &'static str {
    // spec: D-15 (hardware names)
    match space {
        AddrSpace::Gm => "gm",
        AddrSpace::Ub => "ub",
        AddrSpace::L1 => "l1",
        AddrSpace::L0a => "l0a",
        AddrSpace::L0b => "l0b",
        AddrSpace::L0c => "l0c",
        AddrSpace::Bt => "bt",
        AddrSpace::Fb => "fb",
    }
}

pub(super) fn mask_name(g: MaskGranularity) -> &'static str {
    match g {
        MaskGranularity::B8 => "b8",
        MaskGranularity::B16 => "b16",
        MaskGranularity::B32 => "b32",
    }
}

impl Printer<'_> {
    /// A type, by its alias name where one is in scope (see [`Printer::limit`]).
    pub(super) fn ty(&mut self, id: TypeId) {
        if let Some(&k) = self.alias.types.get(&id) {
            if let Some(a) = self.m.aliases.get(k).filter(|_| k < self.limit) {
                self.out.push_str(&a.name);
                return;
            }
        }
        self.ty_body(id);
    }

    /// A type spelled out at its top (its parts may still print by alias).
    pub(super) fn ty_body(&mut self, id: TypeId) {
        if id.0 as usize >= self.types.len() {
            self.out.push_str("<<invalid type>>");
            return;
        }
        match self.types.get(id) {
            Type::Scalar(s) => self.scalar(s),
            Type::TileBuf(t) => {
                // spec: §7.2 compact form, defaults omitted, ub printed as vec (D-10)
                let _ = write!(
                    self.out,
                    "!pto.tile_buf<{}, {}x{}x",
                    t.loc.as_str(),
                    t.rows,
                    t.cols
                );
                self.scalar(&t.elem);
                if t.valid_row != Dim::Static(t.rows) || t.valid_col != Dim::Static(t.cols) {
                    self.out.push_str(", valid=");
                    self.dim(t.valid_row);
                    self.out.push('x');
                    self.dim(t.valid_col);
                }
                if t.blayout != BLayout::RowMajor {
                    self.out.push_str(", blayout=col_major");
                }
                match t.slayout {
                    SLayout::NoneBox => {}
                    SLayout::RowMajor => self.out.push_str(", slayout=row_major"),
                    SLayout::ColMajor => self.out.push_str(", slayout=col_major"),
                }
                if t.fractal != 512 {
                    let _ = write!(self.out, ", fractal={}", t.fractal);
                }
                if t.pad != 0 {
                    let _ = write!(self.out, ", pad={}", t.pad);
                }
                if t.compact != 0 {
                    let _ = write!(self.out, ", compact={}", t.compact);
                }
                self.out.push('>');
            }
            Type::Tile(t) => {
                // spec: D-13; a valid shape needs the loc form, so it forces `vec`
                let differs = t
                    .valid
                    .is_some_and(|(r, c)| r != Dim::Static(t.rows) || c != Dim::Static(t.cols));
                self.out.push_str("!pto.tile<");
                let loc = match (t.loc, differs) {
                    (Some(l), _) => Some(l),
                    (None, true) => Some(Loc::Vec),
                    (None, false) => None,
                };
                if let Some(l) = loc {
                    self.out.push_str(l.as_str());
                    self.out.push_str(", ");
                }
                let _ = write!(self.out, "{}x{}x", t.rows, t.cols);
                self.scalar(&t.elem);
                if let (true, Some((r, c))) = (differs, t.valid) {
                    self.out.push_str(", valid=");
                    self.dim(r);
                    self.out.push('x');
                    self.dim(c);
                }
                self.out.push('>');
            }
            Type::VReg { lanes, elem } => {
                let _ = write!(self.out, "!pto.vreg<{lanes}x");
                self.scalar(elem);
                self.out.push('>');
            }
            Type::Mask(g) => {
                let _ = write!(self.out, "!pto.mask<{}>", mask_name(*g));
            }
            Type::Ptr { elem, space } => {
                self.out.push_str("!pto.ptr<");
                self.scalar(elem);
                let _ = write!(self.out, ", {}>", space_name(*space));
            }
            Type::TensorView { shape, elem } => {
                self.out.push_str("!pto.tensor_view<");
                self.shape(shape);
                self.scalar(elem);
                self.out.push('>');
            }
            Type::PartitionView { shape, elem } => {
                // spec: D-16
                self.out.push_str("!pto.partition_tensor_view<");
                self.shape(shape);
                self.scalar(elem);
                self.out.push('>');
            }
            Type::Function { inputs, results } => {
                self.out.push('(');
                self.type_list(inputs);
                self.out.push_str(") -> ");
                self.result_types(results);
            }
            Type::Opaque(text) => self.opaque(text),
        }
    }

    pub(super) fn type_list(&mut self, tys: &[TypeId]) {
        for (i, &t) in tys.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.ty(t);
        }
    }

    /// `T` for one non-function result, `(...)` otherwise (function-type results).
    pub(super) fn result_types(&mut self, tys: &[TypeId]) {
        let single_plain = match tys {
            [t] => {
                (t.0 as usize) < self.types.len()
                    && !matches!(self.types.get(*t), Type::Function { .. })
            }
            _ => false,
        };
        if single_plain {
            self.type_list(tys);
        } else {
            self.out.push('(');
            self.type_list(tys);
            self.out.push(')');
        }
    }

    /// `16x?x` (each extent followed by `x`).
    fn shape(&mut self, dims: &[Dim]) {
        for &d in dims {
            self.dim(d);
            self.out.push('x');
        }
    }

    fn dim(&mut self, d: Dim) {
        match d {
            Dim::Static(n) => {
                let _ = write!(self.out, "{n}");
            }
            Dim::Dynamic => self.out.push('?'),
        }
    }

    pub(super) fn scalar(&mut self, s: &ScalarType) {
        // An element type prints by alias too, as MLIR prints nested types.
        if let Some(&k) = self.alias.scalars.get(s) {
            if let Some(a) = self.m.aliases.get(k).filter(|_| k < self.limit) {
                self.out.push_str(&a.name);
                return;
            }
        }
        match s {
            ScalarType::F16 => self.out.push_str("f16"),
            ScalarType::BF16 => self.out.push_str("bf16"),
            ScalarType::F32 => self.out.push_str("f32"),
            ScalarType::F64 => self.out.push_str("f64"),
            ScalarType::F8E4M3FN => self.out.push_str("f8E4M3FN"),
            ScalarType::F8E5M2 => self.out.push_str("f8E5M2"),
            ScalarType::OtherFloat(name) => self.out.push_str(name),
            ScalarType::Hif8 => self.out.push_str("!pto.hif8"),
            ScalarType::F4E2M1x2 => self.out.push_str("!pto.f4E2M1x2"),
            ScalarType::F4E1M2x2 => self.out.push_str("!pto.f4E1M2x2"),
            ScalarType::S4x2 => self.out.push_str("!pto.s4x2"),
            ScalarType::PtoOther(name) => {
                if !name.starts_with('!') {
                    self.out.push_str("!pto.");
                }
                self.out.push_str(name);
            }
            ScalarType::Int { width, signedness } => {
                let prefix = match signedness {
                    Signedness::Signless => "i",
                    Signedness::Signed => "si",
                    Signedness::Unsigned => "ui",
                };
                let _ = write!(self.out, "{prefix}{width}");
            }
            ScalarType::Index => self.out.push_str("index"),
        }
    }
}
