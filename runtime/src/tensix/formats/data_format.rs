//! The 4-bit Tensix `DataFormat` enum (tensix.md §5, SEED-F §6, ISA `Packers/FormatConversion.md`)
//! and the L1 byte size of a 32×32 tile in each format.
//!
//! Naming: the seed's names (tt-metal's). `Bfp8`/`Bfp4`/`Bfp2` are the ISA's BFP8a/BFP4a/BFP2a
//! (5-bit shared exponent, expand to FP16); `Bfp8B`/`Bfp4B`/`Bfp2B` are the ISA's BFP8/BFP4/BFP2
//! (8-bit shared exponent, expand to BF16).

use super::FormatError;

/// Elements in a 32×32 tile.
pub const TILE_ELEMS: usize = 1024;

/// A hardware data format code (4 bits; 12 and 13 are reserved).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum DataFormat {
    /// 0: IEEE FP32.
    Float32 = 0,
    /// 1: FP16 (Tensix: exponent 31 is finite, no NaN).
    Float16 = 1,
    /// 2: BFP8 format A (ISA BFP8a): 7-bit magnitudes, 5-bit shared exponent.
    Bfp8 = 2,
    /// 3: BFP4 format A (ISA BFP4a).
    Bfp4 = 3,
    /// 4: TF32 (19 logical bits, stored as 32).
    Tf32 = 4,
    /// 5: BF16 (`Float16_b`).
    Float16B = 5,
    /// 6: BFP8 format B (ISA BFP8): 8-bit shared exponent.
    Bfp8B = 6,
    /// 7: BFP4 format B.
    Bfp4B = 7,
    /// 8: Int32 (documented sign-magnitude; ptoc moves two's complement bits, D2).
    Int32 = 8,
    /// 9: UInt16 (ISA INT16: opaque 16 bits).
    UInt16 = 9,
    /// 10: Lf8 (E5M2, or E4M3 when `Pac/Unp_LF8_4b_exp` = 1).
    Lf8 = 10,
    /// 11: BFP2 format A (ISA BFP2a).
    Bfp2 = 11,
    /// 14: Int8 (sign-magnitude).
    Int8 = 14,
    /// 15: BFP2 format B.
    Bfp2B = 15,
}

impl DataFormat {
    /// Every defined format, by code.
    pub const ALL: [DataFormat; 14] = [
        DataFormat::Float32,
        DataFormat::Float16,
        DataFormat::Bfp8,
        DataFormat::Bfp4,
        DataFormat::Tf32,
        DataFormat::Float16B,
        DataFormat::Bfp8B,
        DataFormat::Bfp4B,
        DataFormat::Int32,
        DataFormat::UInt16,
        DataFormat::Lf8,
        DataFormat::Bfp2,
        DataFormat::Int8,
        DataFormat::Bfp2B,
    ];

    /// Decodes the 4-bit field; 12/13 are reserved, ≥ 16 is not a 4-bit code.
    pub fn from_code(code: u8) -> Result<DataFormat, FormatError> {
        DataFormat::ALL
            .iter()
            .copied()
            .find(|f| *f as u8 == code)
            .ok_or(FormatError::ReservedFormat(code))
    }

    /// The 4-bit code.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The seed / tt-metal name.
    pub fn name(self) -> &'static str {
        match self {
            DataFormat::Float32 => "Float32",
            DataFormat::Float16 => "Float16",
            DataFormat::Bfp8 => "Bfp8",
            DataFormat::Bfp4 => "Bfp4",
            DataFormat::Tf32 => "Tf32",
            DataFormat::Float16B => "Float16_b",
            DataFormat::Bfp8B => "Bfp8_b",
            DataFormat::Bfp4B => "Bfp4_b",
            DataFormat::Int32 => "Int32",
            DataFormat::UInt16 => "UInt16",
            DataFormat::Lf8 => "Lf8",
            DataFormat::Bfp2 => "Bfp2",
            DataFormat::Int8 => "Int8",
            DataFormat::Bfp2B => "Bfp2_b",
        }
    }

    /// Bits per element in the data section (BFP: sign + magnitude, without the exponent).
    pub fn element_bits(self) -> u32 {
        match self {
            DataFormat::Float32 | DataFormat::Tf32 | DataFormat::Int32 => 32,
            DataFormat::Float16 | DataFormat::Float16B | DataFormat::UInt16 => 16,
            DataFormat::Bfp8 | DataFormat::Bfp8B | DataFormat::Lf8 | DataFormat::Int8 => 8,
            DataFormat::Bfp4 | DataFormat::Bfp4B => 4,
            DataFormat::Bfp2 | DataFormat::Bfp2B => 2,
        }
    }

    /// Whether this is a block-floating-point format (a shared-exponent section per tile).
    pub fn is_bfp(self) -> bool {
        matches!(
            self,
            DataFormat::Bfp8
                | DataFormat::Bfp4
                | DataFormat::Bfp2
                | DataFormat::Bfp8B
                | DataFormat::Bfp4B
                | DataFormat::Bfp2B
        )
    }

    /// Bytes of one 32×32 tile in L1 without the 16-byte header: data section plus, for BFP, the
    /// 64-byte exponent section (SEED-F §8). TF32 is stored in 32-bit words.
    pub fn tile_bytes(self) -> usize {
        let data = TILE_ELEMS * self.element_bits() as usize / 8;
        if self.is_bfp() {
            data + TILE_ELEMS / 16
        } else {
            data
        }
    }
}

/// Tile formats SEED-F §8 sizes that have no 4-bit hardware code of their own (tt-metal ids).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExtraFormat {
    /// tt-metal UInt32: 32-bit words, moved like [`DataFormat::Int32`].
    UInt32,
    /// tt-metal UInt8: one byte per element.
    UInt8,
    /// FP8 E4M3: [`DataFormat::Lf8`] with `Pac_LF8_4b_exp` / `Unp_LF8_4b_exp` = 1.
    Fp8E4m3,
}

impl ExtraFormat {
    /// The seed / tt-metal name.
    pub fn name(self) -> &'static str {
        match self {
            ExtraFormat::UInt32 => "UInt32",
            ExtraFormat::UInt8 => "UInt8",
            ExtraFormat::Fp8E4m3 => "Fp8_e4m3",
        }
    }

    /// Bytes of one 32×32 tile without the 16-byte header (SEED-F §8).
    pub fn tile_bytes(self) -> usize {
        match self {
            ExtraFormat::UInt32 => TILE_ELEMS * 4,
            ExtraFormat::UInt8 | ExtraFormat::Fp8E4m3 => TILE_ELEMS,
        }
    }
}
