//! Element types that take part in conversions (semantics.md §2.1) and their static properties.
//!
//! This is the single list of conversion-capable element types. Spelling variants of the IR
//! (`i8` vs `si8`) collapse here: the IR keeps the spelling, the runtime keeps the meaning.
//! Packed `x2` types (fp4x2, s4x2) are described per *logical* element (4 bits) with an 8-bit
//! carrier; `storage_bits` is the carrier width used for vector-register lane counts.

use std::fmt;

/// Broad numeric class of an element type.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ElemKind {
    /// Binary floating point (IEEE-like, HiFloat8 or FP4).
    Float,
    /// Two's-complement signed integer.
    SignedInt,
    /// Unsigned integer.
    UnsignedInt,
}

/// A conversion-capable element type (semantics.md §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    F32,
    F16,
    BF16,
    F8E4M3FN,
    F8E5M2,
    Hif8,
    F4E2M1x2,
    F4E1M2x2,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    S4x2,
}

impl ElemType {
    /// Every element type, in the order of the semantics.md §3.1 matrix.
    pub const ALL: [ElemType; 16] = [
        ElemType::F32,
        ElemType::F16,
        ElemType::BF16,
        ElemType::F8E4M3FN,
        ElemType::F8E5M2,
        ElemType::Hif8,
        ElemType::F4E2M1x2,
        ElemType::F4E1M2x2,
        ElemType::I8,
        ElemType::U8,
        ElemType::I16,
        ElemType::U16,
        ElemType::I32,
        ElemType::U32,
        ElemType::I64,
        ElemType::S4x2,
    ];

    /// The canonical IR spelling (signed integers use the signless spelling, as written in docs).
    pub fn ir_name(self) -> &'static str {
        match self {
            ElemType::F32 => "f32",
            ElemType::F16 => "f16",
            ElemType::BF16 => "bf16",
            ElemType::F8E4M3FN => "f8E4M3FN",
            ElemType::F8E5M2 => "f8E5M2",
            ElemType::Hif8 => "!pto.hif8",
            ElemType::F4E2M1x2 => "!pto.f4E2M1x2",
            ElemType::F4E1M2x2 => "!pto.f4E1M2x2",
            ElemType::I8 => "i8",
            ElemType::U8 => "ui8",
            ElemType::I16 => "i16",
            ElemType::U16 => "ui16",
            ElemType::I32 => "i32",
            ElemType::U32 => "ui32",
            ElemType::I64 => "i64",
            ElemType::S4x2 => "!pto.s4x2",
        }
    }

    pub fn kind(self) -> ElemKind {
        match self {
            ElemType::F32
            | ElemType::F16
            | ElemType::BF16
            | ElemType::F8E4M3FN
            | ElemType::F8E5M2
            | ElemType::Hif8
            | ElemType::F4E2M1x2
            | ElemType::F4E1M2x2 => ElemKind::Float,
            ElemType::I8 | ElemType::I16 | ElemType::I32 | ElemType::I64 | ElemType::S4x2 => {
                ElemKind::SignedInt
            }
            ElemType::U8 | ElemType::U16 | ElemType::U32 => ElemKind::UnsignedInt,
        }
    }

    pub fn is_float(self) -> bool {
        self.kind() == ElemKind::Float
    }

    pub fn is_int(self) -> bool {
        !self.is_float()
    }

    /// Two logical elements per carrier byte (fp4x2, s4x2).
    pub fn is_packed(self) -> bool {
        matches!(
            self,
            ElemType::F4E2M1x2 | ElemType::F4E1M2x2 | ElemType::S4x2
        )
    }

    /// Bits of one *logical* element (4 for packed types).
    pub fn value_bits(self) -> u32 {
        if self.is_packed() {
            4
        } else {
            self.storage_bits()
        }
    }

    /// Bits of one stored element: the carrier byte for packed types. This is the width that
    /// counts for vector-register lane counts and tile byte sizes.
    pub fn storage_bits(self) -> u32 {
        match self {
            ElemType::F32 | ElemType::I32 | ElemType::U32 => 32,
            ElemType::F16 | ElemType::BF16 | ElemType::I16 | ElemType::U16 => 16,
            ElemType::I64 => 64,
            _ => 8,
        }
    }

    /// Bytes of one stored element.
    pub fn storage_bytes(self) -> u32 {
        self.storage_bits() / 8
    }
}

impl fmt::Display for ElemType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.ir_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packed_types_have_byte_carriers_and_nibble_values() {
        for t in ElemType::ALL {
            if t.is_packed() {
                assert_eq!((t.storage_bits(), t.value_bits()), (8, 4), "{t}");
            } else {
                assert_eq!(t.storage_bits(), t.value_bits(), "{t}");
            }
        }
    }

    #[test]
    fn every_type_has_a_distinct_name() {
        let mut names: Vec<_> = ElemType::ALL.iter().map(|t| t.ir_name()).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), ElemType::ALL.len());
    }
}
