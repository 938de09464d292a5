//! The Tensix I/O contract of ptoc's conversion kernels (tensix.md §4.6, D8): how one logical
//! element of a PTO element type sits in Dst, and therefore in the LReg an SFPLOAD fills.
//!
//! Every kernel ptoc emits runs with the SFPU Fp32 mode on (32-bit Dst) and moves data with the
//! raw `INT32` load/store mode (Mod0 4) on both sides, one 32-bit datum per element. The datum
//! form per type ([`Datum`]) is fixed here, once, for `ptoc lower`, `ptoc sim` (which reads the
//! kernel's `; @io` header) and `ptoc prove`:
//!
//! | type | datum (LReg bits) |
//! |---|---|
//! | f32, i32, ui32 | the element's bits |
//! | bf16 | the bf16 bits in the high half, low half zero (an fp32 value; the packer's truncation to Float16_b is then exact, Q5) |
//! | f16, ui16 | the 16 bits zero-extended (f16 travels as raw IEEE binary16 bits: Tensix FP16 has no Inf/NaN) |
//! | i16, i8 | the value sign-extended to 32 bits |
//! | ui8 | the value zero-extended |
//!
//! Why one width and one raw mode: kernels never mix the 16- and 32-bit Dst views, so OPEN Q1
//! (Dst aliasing) cannot change a result, and no store mode flushes denormals or truncates
//! (D4, D12). Outputs are *canonical*: a datum whose unused bits are not the ones the form
//! prescribes (e.g. a bf16 datum with a non-zero low half) is not a valid result
//! ([`Datum::bits_of_word`] returns `None`), so the prover counts it as a mismatch.
//!
//! Invariant: `bits_of_word(word_of_bits(b)) == Some(b)` for every element pattern `b`.

use crate::elem::ElemType;
use crate::tensix::dest::DestWidth;
use crate::tensix::formats::{shuf32, unshuf32, Mod0};

/// The I/O contract a kernel is built for: how its caller places inputs in Dst and reads
/// results back.
///
/// * [`Abi::Raw`]: ptoc's own contract (the table above), for `ptoc sim` / `ptoc prove`.
/// * [`Abi::TtMetal`]: what tt-metal's unpacker and packer give and take with fp32 dest
///   accumulation (docs/tt-metal.md): f32, i32, ui32, ui8 and bf16 as in `Raw`; ui16 arrives in
///   the low half with unrelated bits above ([`Datum::Low16Dirty`]) and leaves in the high half
///   where the packer reads it ([`Datum::PackerHigh16`], stored with the half-swapping Mod0 9);
///   i8 travels as its raw two's complement byte, zero-extended (tt-metal declares Int8 buffers
///   as UInt8). f16 (tt-metal's Float16 reaches Dst as an fp32 value, not IEEE bits) and i16 (no
///   tt-metal format) have no datum under this contract.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Abi {
    #[default]
    Raw,
    TtMetal,
}

impl Abi {
    /// The name as the command line and `; @io` header spell it.
    pub fn name(self) -> &'static str {
        match self {
            Abi::Raw => "raw",
            Abi::TtMetal => "tt-metal",
        }
    }

    /// Parses [`Abi::name`].
    pub fn parse(s: &str) -> Option<Abi> {
        [Abi::Raw, Abi::TtMetal].into_iter().find(|a| a.name() == s)
    }

    /// The datum a kernel reads for a source of type `elem`, `None` when the contract cannot
    /// carry it.
    pub fn src_datum(self, elem: ElemType) -> Option<Datum> {
        match (self, elem) {
            (Abi::Raw, _) => Datum::of(elem),
            (Abi::TtMetal, ElemType::F16 | ElemType::I16) => None,
            (Abi::TtMetal, ElemType::U16) => Some(Datum::Low16Dirty),
            (Abi::TtMetal, ElemType::I8) => Some(Datum::ZeroExt8),
            (Abi::TtMetal, _) => Datum::of(elem),
        }
    }

    /// The tt-metal `DataFormat` of the circular buffer that feeds or takes `elem` under
    /// [`Abi::TtMetal`] (with fp32 dest accumulation).
    pub fn tt_metal_cb_format(elem: ElemType) -> &'static str {
        match elem {
            ElemType::F32 => "Float32 (unpacked to Dst)",
            ElemType::BF16 => "Float16_b",
            ElemType::I32 => "Int32 (unpacked to Dst)",
            ElemType::U32 => "UInt32 (unpacked to Dst)",
            ElemType::U16 => "UInt16",
            ElemType::U8 => "UInt8",
            ElemType::I8 => "UInt8 (raw Int8 bytes, as tt-metal declares Int8 buffers)",
            _ => "none (not carried)",
        }
    }

    /// The datum a kernel must leave for a result of type `elem`.
    pub fn dst_datum(self, elem: ElemType) -> Option<Datum> {
        match (self, elem) {
            (Abi::TtMetal, ElemType::U16) => Some(Datum::PackerHigh16),
            (_, _) => self.src_datum(elem),
        }
    }
}

/// How one element is held in a 32-bit Dst datum / LReg.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Datum {
    /// The element's own 32 bits (f32, i32, ui32).
    Raw32,
    /// bf16 bits in the high half, low half zero.
    HighHalf16,
    /// 16 bits zero-extended (f16, ui16).
    ZeroExt16,
    /// 16-bit signed value sign-extended (i16).
    SignExt16,
    /// 8 bits zero-extended (ui8).
    ZeroExt8,
    /// 8-bit signed value sign-extended (i8).
    SignExt8,
    /// 16 bits in the low half, unrelated bits in the high half (tt-metal's UInt16 input in a
    /// 32-bit Dst). As an input, the prover fills the high half with a pattern derived from the
    /// value, so a kernel that does not clear it fails.
    Low16Dirty,
    /// 16 bits in the physical high half of the Dst word, where tt-metal's packer reads UInt16,
    /// low half zero; stored raw by SFPSTORE Mod0 9 (`rotl(x, 16)`), so in the LReg view of an
    /// INT32 load the high half appears field-shuffled ([`unshuf32`]).
    PackerHigh16,
}

/// The load/store mode of every ptoc kernel (raw 32-bit).
pub const KERNEL_MOD0: Mod0 = Mod0::Int32;
/// The Dst width of every ptoc kernel.
pub const KERNEL_DEST: DestWidth = DestWidth::W32;

/// The element types ptoc's Tensix kernels read and write.
pub const TENSIX_TYPES: [ElemType; 9] = [
    ElemType::F32,
    ElemType::BF16,
    ElemType::F16,
    ElemType::I32,
    ElemType::U32,
    ElemType::I16,
    ElemType::U16,
    ElemType::I8,
    ElemType::U8,
];

impl Datum {
    /// The datum form of `elem`, or `None` for a type the Tensix kernels do not carry.
    pub fn of(elem: ElemType) -> Option<Datum> {
        Some(match elem {
            ElemType::F32 | ElemType::I32 | ElemType::U32 => Datum::Raw32,
            ElemType::BF16 => Datum::HighHalf16,
            ElemType::F16 | ElemType::U16 => Datum::ZeroExt16,
            ElemType::I16 => Datum::SignExt16,
            ElemType::U8 => Datum::ZeroExt8,
            ElemType::I8 => Datum::SignExt8,
            _ => return None,
        })
    }

    /// The datum holding element pattern `bits` (bits above the element width are ignored).
    #[inline]
    pub fn word_of_bits(self, bits: u64) -> u32 {
        match self {
            Datum::Raw32 => bits as u32,
            Datum::HighHalf16 => (bits as u32 & 0xFFFF) << 16,
            Datum::ZeroExt16 => bits as u32 & 0xFFFF,
            Datum::SignExt16 => bits as u16 as i16 as i32 as u32,
            Datum::ZeroExt8 => bits as u32 & 0xFF,
            Datum::SignExt8 => bits as u8 as i8 as i32 as u32,
            Datum::Low16Dirty => {
                let v = bits as u32 & 0xFFFF;
                // Unrelated high bits, different for neighbouring values.
                (v.wrapping_mul(0x9E37).wrapping_add(0xA5C3) << 16) | v
            }
            Datum::PackerHigh16 => unshuf32((bits as u32 & 0xFFFF) << 16),
        }
    }

    /// The element pattern of a canonical datum, `None` when the bits outside the element are
    /// not what the form prescribes.
    #[inline]
    pub fn bits_of_word(self, word: u32) -> Option<u64> {
        let back = |b: u64| (self.word_of_bits(b) == word).then_some(b);
        match self {
            Datum::Raw32 => Some(u64::from(word)),
            Datum::HighHalf16 => back(u64::from(word >> 16)),
            Datum::ZeroExt16 | Datum::SignExt16 => back(u64::from(word & 0xFFFF)),
            Datum::ZeroExt8 | Datum::SignExt8 => back(u64::from(word & 0xFF)),
            Datum::Low16Dirty => Some(u64::from(word & 0xFFFF)),
            Datum::PackerHigh16 => back(u64::from(shuf32(word) >> 16)),
        }
    }

    /// One-line description for headers and docs.
    pub fn describe(self) -> &'static str {
        match self {
            Datum::Raw32 => "raw 32 bits",
            Datum::HighHalf16 => "bf16 in the high half, low half zero",
            Datum::ZeroExt16 => "16 bits zero-extended",
            Datum::SignExt16 => "16-bit value sign-extended",
            Datum::ZeroExt8 => "8 bits zero-extended",
            Datum::SignExt8 => "8-bit value sign-extended",
            Datum::Low16Dirty => {
                "16 bits in the low half, unrelated bits above (tt-metal UInt16 in)"
            }
            Datum::PackerHigh16 => {
                "16 bits in the high half of the Dst word, stored with Mod0 9 (tt-metal UInt16 out)"
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_pattern_round_trips_and_noncanonical_words_are_rejected() {
        for elem in TENSIX_TYPES {
            let d = Datum::of(elem).expect("tensix type");
            let n = elem.value_bits();
            let samples: Vec<u64> = if n <= 16 {
                (0..1u64 << n).collect()
            } else {
                vec![0, 1, 0x7F80_0000, 0x8000_0000, 0xFFFF_FFFF, 0x1234_5678]
            };
            for b in samples {
                assert_eq!(
                    d.bits_of_word(d.word_of_bits(b)),
                    Some(b),
                    "{elem:?} {b:#x}"
                );
            }
        }
        assert_eq!(Datum::HighHalf16.bits_of_word(0x3F80_0001), None);
        assert_eq!(Datum::SignExt8.bits_of_word(0x0000_0080), None);
        assert_eq!(Datum::SignExt8.bits_of_word(0xFFFF_FF80), Some(0x80));
        assert_eq!(Datum::ZeroExt16.bits_of_word(0x0001_0000), None);
    }

    #[test]
    fn tt_metal_datums_round_trip_and_differ_where_the_contract_does() {
        for elem in TENSIX_TYPES {
            let (Some(s), Some(d)) = (Abi::TtMetal.src_datum(elem), Abi::TtMetal.dst_datum(elem))
            else {
                assert!(matches!(elem, ElemType::F16 | ElemType::I16), "{elem:?}");
                continue;
            };
            for b in 0..1u64 << elem.value_bits().min(16) {
                assert_eq!(
                    s.bits_of_word(s.word_of_bits(b)),
                    Some(b),
                    "{elem:?} {b:#x}"
                );
                assert_eq!(
                    d.bits_of_word(d.word_of_bits(b)),
                    Some(b),
                    "{elem:?} {b:#x}"
                );
            }
        }
        // UInt16 in: the high half is not zero; out: the value sits in the (shuffled) high half.
        assert_ne!(Datum::Low16Dirty.word_of_bits(0x1234) >> 16, 0);
        assert_eq!(
            shuf32(Datum::PackerHigh16.word_of_bits(0x1234)),
            0x1234_0000
        );
        assert_eq!(Datum::PackerHigh16.bits_of_word(0x0000_1234), None);
        assert_eq!(Abi::TtMetal.src_datum(ElemType::I8), Some(Datum::ZeroExt8));
        assert_eq!(Abi::parse("tt-metal"), Some(Abi::TtMetal));
    }
}
