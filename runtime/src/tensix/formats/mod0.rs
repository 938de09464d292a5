//! SFPLOAD / SFPSTORE Mod0 conversions (tensix.md §4.5; ISA-WH/ISA-BH `SFPLOAD.md`,
//! `SFPSTORE.md`; TTSIM `tensix.cpp`): Dst cell ↔ LReg value, per arch.
//!
//! Invariant: [`load_mod0`] and [`store_mod0`] are exactly the per-lane data conversion of the
//! functional models; addressing, lane enables and RWC updates belong to the caller.

use super::{Arch, FormatError};

/// Which Dst view an access goes through (§4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum View {
    /// `Dst16b[Row][Col]`: one 16-bit cell.
    Dst16b,
    /// `Dst32b[Row][Col]`: one 32-bit datum (two physical rows 8 apart).
    Dst32b,
}

/// One Dst datum as seen through a view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Cell {
    /// A `Dst16b` cell.
    D16(u16),
    /// A `Dst32b` datum (high half = the physical row at `AdjRow`).
    D32(u32),
}

impl Cell {
    /// The view this cell belongs to.
    pub fn view(self) -> View {
        match self {
            Cell::D16(_) => View::Dst16b,
            Cell::D32(_) => View::Dst32b,
        }
    }
}

/// SFPLOAD/SFPSTORE Mod0, ISA numbering (tt-llk names in [`Mod0::llk_name`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Mod0 {
    /// 0: resolves to FP32, BF16 or FP16 from the Dst configuration.
    SrcB = 0,
    /// 1: Tensix FP16 ("fp16a").
    Fp16 = 1,
    /// 2: BF16 ("fp16b").
    Bf16 = 2,
    /// 3: FP32 (store flushes denormals, D4).
    Fp32 = 3,
    /// 4: raw 32-bit (two's complement ints travel through it, D2).
    Int32 = 4,
    /// 5: Integer "8" (sign + magnitude overlaid on FP16).
    Int8 = 5,
    /// 6: opaque 16 bits, zero-extended (tt-llk `LO16`).
    Uint16 = 6,
    /// 7: load `cell << 16`; store the raw unshuffled 32-bit datum.
    Hi16 = 7,
    /// 8: Integer "16" sign-magnitude.
    Int16 = 8,
    /// 9: load zero-extended 16 bits; store `rotl(x, 16)` as a raw 32-bit datum.
    Lo16 = 9,
    /// 10: raw 32-bit with lane enables ignored and special addressing.
    Int32All = 10,
    /// 11: zero.
    Zero = 11,
    /// 12: WH sign-magnitude ↔ two's complement; BH raw (deprecated).
    Int32Sm = 12,
    /// 13: WH Integer "8" ↔ two's complement; BH sign-magnitude (deprecated).
    Int8Comp = 13,
    /// 14: 16 bits into/from the low half of the LReg, the high half preserved on load.
    Lo16Only = 14,
    /// 15: 16 bits into/from the high half of the LReg, the low half preserved on load.
    Hi16Only = 15,
}

/// The Dst configuration that resolves Mod0 0 (`ALU_ACC_CTRL_SFPU_Fp32_enabled`, SrcB format).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DstConfig {
    /// `ALU_ACC_CTRL_SFPU_Fp32_enabled`: Mod0 0 → FP32.
    pub sfpu_fp32: bool,
    /// The effective SrcB format (`ALU_FORMAT_SPEC_REG1_SrcB` or its override).
    pub srcb_format: super::DataFormat,
}

impl Mod0 {
    /// All sixteen modes, in numeric order.
    pub const ALL: [Mod0; 16] = [
        Mod0::SrcB,
        Mod0::Fp16,
        Mod0::Bf16,
        Mod0::Fp32,
        Mod0::Int32,
        Mod0::Int8,
        Mod0::Uint16,
        Mod0::Hi16,
        Mod0::Int16,
        Mod0::Lo16,
        Mod0::Int32All,
        Mod0::Zero,
        Mod0::Int32Sm,
        Mod0::Int8Comp,
        Mod0::Lo16Only,
        Mod0::Hi16Only,
    ];

    /// Decodes the 4-bit field.
    pub fn from_bits(bits: u8) -> Result<Mod0, FormatError> {
        Mod0::ALL
            .get(usize::from(bits))
            .copied()
            .ok_or(FormatError::BadMod0(bits))
    }

    /// The field value.
    pub fn bits(self) -> u8 {
        self as u8
    }

    /// The ISA name (`MOD0_FMT_<name>`).
    pub fn isa_name(self) -> &'static str {
        match self {
            Mod0::SrcB => "SRCB",
            Mod0::Fp16 => "FP16",
            Mod0::Bf16 => "BF16",
            Mod0::Fp32 => "FP32",
            Mod0::Int32 => "INT32",
            Mod0::Int8 => "INT8",
            Mod0::Uint16 => "UINT16",
            Mod0::Hi16 => "HI16",
            Mod0::Int16 => "INT16",
            Mod0::Lo16 => "LO16",
            Mod0::Int32All => "INT32_ALL",
            Mod0::Zero => "ZERO",
            Mod0::Int32Sm => "INT32_SM",
            Mod0::Int8Comp => "INT8_COMP",
            Mod0::Lo16Only => "LO16_ONLY",
            Mod0::Hi16Only => "HI16_ONLY",
        }
    }

    /// The tt-llk `InstrModLoadStore` name, where tt-llk has one (note tt-llk `LO16` = ISA
    /// `UINT16` = 6).
    pub fn llk_name(self) -> Option<&'static str> {
        Some(match self {
            Mod0::SrcB => "DEFAULT",
            Mod0::Fp16 => "FP16A",
            Mod0::Bf16 => "FP16B",
            Mod0::Fp32 => "FP32",
            Mod0::Int32 => "INT32",
            Mod0::Int8 => "INT8",
            Mod0::Uint16 => "LO16",
            Mod0::Hi16 => "HI16",
            Mod0::Int32Sm => "INT32_2S_COMP",
            Mod0::Int8Comp => "INT8_2S_COMP",
            Mod0::Lo16Only => "LO16_ONLY",
            Mod0::Hi16Only => "HI16_ONLY",
            Mod0::Int16 | Mod0::Lo16 | Mod0::Int32All | Mod0::Zero => return None,
        })
    }

    /// Resolves Mod0 0 (SFPLOAD/SFPSTORE functional models): FP32 when the SFPU Fp32 mode is on,
    /// else BF16 for SrcB formats {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16} (the `_b`
    /// family), else FP16. Other modes are returned unchanged.
    pub fn resolve(self, cfg: &DstConfig) -> Mod0 {
        use super::DataFormat as F;
        if self != Mod0::SrcB {
            return self;
        }
        if cfg.sfpu_fp32 {
            return Mod0::Fp32;
        }
        match cfg.srcb_format {
            F::Float32
            | F::Tf32
            | F::Float16B
            | F::Bfp8B
            | F::Bfp4B
            | F::Bfp2B
            | F::Int32
            | F::UInt16 => Mod0::Bf16,
            F::Float16 | F::Bfp8 | F::Bfp4 | F::Bfp2 | F::Lf8 | F::Int8 => Mod0::Fp16,
        }
    }

    /// The view SFPLOAD reads with this mode (`None` for ZERO, which reads nothing; SRCB must be
    /// resolved first and reports `None`).
    pub fn load_view(self) -> Option<View> {
        match self {
            Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All | Mod0::Int32Sm => Some(View::Dst32b),
            Mod0::Fp16
            | Mod0::Bf16
            | Mod0::Int8
            | Mod0::Uint16
            | Mod0::Hi16
            | Mod0::Int16
            | Mod0::Lo16
            | Mod0::Int8Comp
            | Mod0::Lo16Only
            | Mod0::Hi16Only => Some(View::Dst16b),
            Mod0::SrcB | Mod0::Zero => None,
        }
    }

    /// The view SFPSTORE writes with this mode (ZERO writes a `Dst16b` cell; SRCB → `None`).
    pub fn store_view(self) -> Option<View> {
        match self {
            Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All | Mod0::Int32Sm | Mod0::Hi16 | Mod0::Lo16 => {
                Some(View::Dst32b)
            }
            Mod0::Fp16
            | Mod0::Bf16
            | Mod0::Int8
            | Mod0::Uint16
            | Mod0::Int16
            | Mod0::Zero
            | Mod0::Int8Comp
            | Mod0::Lo16Only
            | Mod0::Hi16Only => Some(View::Dst16b),
            Mod0::SrcB => None,
        }
    }

    /// Whether TTSIM implements this mode for SFPLOAD (`{0,2,3,4,6,12,14,15}`); the simulator
    /// reports `Unmodelled` for the others when it runs in TTSIM-strict mode (D1).
    pub fn ttsim_load(self) -> bool {
        matches!(self.bits(), 0 | 2 | 3 | 4 | 6 | 12 | 14 | 15)
    }

    /// Whether TTSIM implements this mode for SFPSTORE (`{0,2,3,4,6,7,9,12,14,15}`).
    pub fn ttsim_store(self) -> bool {
        matches!(self.bits(), 0 | 2 | 3 | 4 | 6 | 7 | 9 | 12 | 14 | 15)
    }
}

/// BF16 field shuffle into the Dst layout: `Sign Exp(8) Man(7)` → `Sign Man(7) Exp(8)`.
pub fn shuf16(x: u16) -> u16 {
    (x & 0x8000) | ((x & 0x7F) << 8) | ((x >> 7) & 0xFF)
}

/// Inverse of [`shuf16`]: `Sign Man(7) Exp(8)` → `Sign Exp(8) Man(7)`.
pub fn unshuf16(x: u16) -> u16 {
    (x & 0x8000) | ((x & 0xFF) << 7) | ((x >> 8) & 0x7F)
}

/// FP32/INT32 shuffle: [`shuf16`] on the high half, low half unchanged.
pub fn shuf32(x: u32) -> u32 {
    (u32::from(shuf16((x >> 16) as u16)) << 16) | (x & 0xFFFF)
}

/// Inverse of [`shuf32`].
pub fn unshuf32(x: u32) -> u32 {
    (u32::from(unshuf16((x >> 16) as u16)) << 16) | (x & 0xFFFF)
}

/// FP16 field shuffle into the Dst layout: `Sign Exp(5) Man(10)` → `Sign Man(10) Exp(5)`.
pub fn shuf_fp16(x: u16) -> u16 {
    (x & 0x8000) | ((x & 0x3FF) << 5) | ((x >> 10) & 0x1F)
}

/// Inverse of [`shuf_fp16`].
pub fn unshuf_fp16(x: u16) -> u16 {
    (x & 0x8000) | ((x & 0x1F) << 10) | ((x >> 5) & 0x3FF)
}

/// SFPLOAD `ReadFP16` with `ENABLE_FP16A_INF` = 0 (reset value; TTSIM rejects setting it):
/// rebias a non-zero exponent by 112, leave exponent 0 as an FP32 denormal.
fn read_fp16(cell: u16) -> u32 {
    let sign = u32::from(cell >> 15);
    let man = u32::from((cell >> 5) & 0x3FF);
    let mut exp = u32::from(cell & 0x1F);
    if exp != 0 {
        exp += 112;
    }
    (sign << 31) | (exp << 23) | (man << 13)
}

/// SFPSTORE `ToFP16`: flush `E ≤ 0` to signed zero, saturate `E > 31` to E=31/M=0x3FF (NaN and
/// Inf included), truncate the mantissa. Result in Tensix FP16 field order (not shuffled).
pub(crate) fn to_fp16(x: u32) -> u16 {
    let sign = (x >> 31) as u16;
    let exp = ((x >> 23) & 0xFF) as i32 - 112;
    let man = x & 0x7F_FFFF;
    let (e, m) = if exp <= 0 {
        (0u16, 0u16)
    } else if exp > 31 {
        (31, 0x3FF)
    } else {
        (exp as u16, (man >> 13) as u16)
    };
    (sign << 15) | (e << 10) | m
}

/// Flush an FP32 denormal to signed zero (TTSIM `denormals_as_zeros`, ISA `ToFP32`/`ToBF16`).
fn daz(x: u32) -> u32 {
    if x & 0x7F80_0000 == 0 {
        x & 0x8000_0000
    } else {
        x
    }
}

/// Two's complement → sign-magnitude (ISA `ToSignMag`): INT_MIN → 0x80000000 ("−0").
fn to_sign_mag(x: u32) -> u32 {
    let sign = x & 0x8000_0000;
    let mag = if sign != 0 { x.wrapping_neg() } else { x };
    sign | (mag & 0x7FFF_FFFF)
}

/// Sign-magnitude → two's complement (ISA `SignMagToTwosComp`): −0 → 0.
fn sign_mag_to_twos(x: u32) -> u32 {
    let mag = x & 0x7FFF_FFFF;
    if x & 0x8000_0000 != 0 {
        mag.wrapping_neg()
    } else {
        mag
    }
}

/// Integer "8" cell from a sign-magnitude value (ISA `SignMag11ToFP16` then the FP16 shuffle):
/// `S<<15 | (x & 0x3FF)<<5 | 16`.
fn int8_cell(x: u32) -> u16 {
    let sign = ((x >> 31) as u16) << 15;
    sign | (((x & 0x3FF) as u16) << 5) | 16
}

fn expect16(mod0: Mod0, cell: Cell) -> Result<u16, FormatError> {
    match cell {
        Cell::D16(c) => Ok(c),
        Cell::D32(_) => Err(FormatError::ViewMismatch {
            mod0: mod0.isa_name(),
            expected: View::Dst16b,
            got: View::Dst32b,
        }),
    }
}

fn expect32(mod0: Mod0, cell: Cell) -> Result<u32, FormatError> {
    match cell {
        Cell::D32(c) => Ok(c),
        Cell::D16(_) => Err(FormatError::ViewMismatch {
            mod0: mod0.isa_name(),
            expected: View::Dst32b,
            got: View::Dst16b,
        }),
    }
}

/// SFPLOAD data conversion: the LReg value produced from `cell` (read through
/// [`Mod0::load_view`]); `old` is the previous LReg value (used by LO16_ONLY / HI16_ONLY).
/// For ZERO any cell is accepted and ignored. Mod0 0 must be resolved first.
pub fn load_mod0(mod0: Mod0, cell: Cell, old: u32, arch: Arch) -> Result<u32, FormatError> {
    Ok(match mod0 {
        Mod0::SrcB => return Err(FormatError::UnresolvedDefault),
        Mod0::Fp16 => read_fp16(expect16(mod0, cell)?),
        Mod0::Bf16 => u32::from(unshuf16(expect16(mod0, cell)?)) << 16,
        Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All => unshuf32(expect32(mod0, cell)?),
        Mod0::Int32Sm => {
            let v = unshuf32(expect32(mod0, cell)?);
            match arch {
                Arch::Wh => sign_mag_to_twos(v),
                Arch::Bh => v,
            }
        }
        Mod0::Int8 => {
            let c = u32::from(expect16(mod0, cell)?);
            let mask = match arch {
                Arch::Wh => 0x7F,
                Arch::Bh => 0xFF,
            };
            ((c >> 15) << 31) | ((c >> 5) & mask)
        }
        Mod0::Int8Comp => {
            let c = u32::from(expect16(mod0, cell)?);
            let sm = ((c >> 15) << 31) | ((c >> 5) & 0x3FF);
            match arch {
                Arch::Wh => sign_mag_to_twos(sm),
                Arch::Bh => sm,
            }
        }
        Mod0::Uint16 | Mod0::Lo16 => u32::from(expect16(mod0, cell)?),
        Mod0::Hi16 => u32::from(expect16(mod0, cell)?) << 16,
        Mod0::Int16 => {
            let c = u32::from(expect16(mod0, cell)?);
            ((c >> 15) << 31) | (c & 0x7FFF)
        }
        Mod0::Zero => 0,
        Mod0::Lo16Only => (old & 0xFFFF_0000) | u32::from(expect16(mod0, cell)?),
        Mod0::Hi16Only => (u32::from(expect16(mod0, cell)?) << 16) | (old & 0xFFFF),
    })
}

/// SFPSTORE data conversion: the Dst cell written for LReg value `x` (through
/// [`Mod0::store_view`]). Mod0 0 must be resolved first.
pub fn store_mod0(mod0: Mod0, x: u32, arch: Arch) -> Result<Cell, FormatError> {
    Ok(match mod0 {
        Mod0::SrcB => return Err(FormatError::UnresolvedDefault),
        Mod0::Fp16 => Cell::D16(shuf_fp16(to_fp16(x))),
        Mod0::Bf16 => Cell::D16(shuf16((daz(x) >> 16) as u16)),
        // D4: both archs flush denormals (TTSIM); ISA-WH documents a raw store.
        Mod0::Fp32 => Cell::D32(shuf32(daz(x))),
        Mod0::Int32 | Mod0::Int32All => Cell::D32(shuf32(x)),
        Mod0::Int32Sm => Cell::D32(shuf32(match arch {
            Arch::Wh => to_sign_mag(x),
            Arch::Bh => x,
        })),
        Mod0::Int8 => Cell::D16(int8_cell(x)),
        Mod0::Int8Comp => Cell::D16(int8_cell(match arch {
            Arch::Wh => to_sign_mag(x),
            Arch::Bh => x,
        })),
        Mod0::Uint16 | Mod0::Lo16Only => Cell::D16((x & 0xFFFF) as u16),
        Mod0::Hi16Only => Cell::D16((x >> 16) as u16),
        Mod0::Int16 => Cell::D16((((x >> 31) as u16) << 15) | (x & 0x7FFF) as u16),
        Mod0::Lo16 => Cell::D32(x.rotate_left(16)),
        Mod0::Hi16 => Cell::D32(x),
        Mod0::Zero => Cell::D16(0),
    })
}

/// The Dst cell from which SFPLOAD with `mod0` yields exactly `value` (the prover's and
/// `ptoc sim`'s input path, §4.6/§4.7). Errors when no such cell exists (e.g. BF16 with non-zero
/// low 16 bits) or when the result would depend on the old LReg (LO16_ONLY / HI16_ONLY, ZERO).
/// Where several cells load the same value (WH INT32_SM −0/+0, Integer "8"), the canonical one is
/// returned: +0 for zero magnitudes, exponent field 16 for Integer "8".
pub fn load_inverse(mod0: Mod0, value: u32, arch: Arch) -> Result<Cell, FormatError> {
    let not = || FormatError::NotLoadable {
        mod0: mod0.isa_name(),
        value,
    };
    match mod0 {
        Mod0::SrcB => Err(FormatError::UnresolvedDefault),
        Mod0::Fp16 => {
            // Only values with zero low 13 bits whose exponent is 0 or 113..=143 are produced.
            if value & 0x1FFF != 0 {
                return Err(not());
            }
            let exp = (value >> 23) & 0xFF;
            let e5 = match exp {
                0 => 0,
                113..=143 => exp - 112,
                _ => return Err(not()),
            };
            let man = (value >> 13) & 0x3FF;
            let sign = value >> 31;
            Ok(Cell::D16(((sign << 15) | (man << 5) | e5) as u16))
        }
        Mod0::Bf16 => {
            if value & 0xFFFF != 0 {
                return Err(not());
            }
            Ok(Cell::D16(shuf16((value >> 16) as u16)))
        }
        Mod0::Fp32 | Mod0::Int32 | Mod0::Int32All => Ok(Cell::D32(shuf32(value))),
        Mod0::Int32Sm => match arch {
            Arch::Bh => Ok(Cell::D32(shuf32(value))),
            // WH loads sign-magnitude as two's complement: INT_MIN has no preimage.
            Arch::Wh if value == 0x8000_0000 => Err(not()),
            Arch::Wh => Ok(Cell::D32(shuf32(to_sign_mag(value)))),
        },
        Mod0::Int8 => {
            let mask = match arch {
                Arch::Wh => 0x7F,
                Arch::Bh => 0xFF,
            };
            if value & 0x7FFF_FFFF & !mask != 0 {
                return Err(not());
            }
            Ok(Cell::D16(int8_cell(value)))
        }
        Mod0::Int8Comp => {
            let sm = match arch {
                Arch::Wh => {
                    let sm = to_sign_mag(value);
                    // −0 is not produced by WH (magnitude 0 loads as +0); INT_MIN → "−0" is out.
                    if value == 0x8000_0000 {
                        return Err(not());
                    }
                    sm
                }
                Arch::Bh => value,
            };
            if sm & 0x7FFF_FC00 != 0 {
                return Err(not());
            }
            Ok(Cell::D16(int8_cell(sm)))
        }
        Mod0::Uint16 | Mod0::Lo16 => u16::try_from(value).map(Cell::D16).map_err(|_| not()),
        Mod0::Hi16 => {
            if value & 0xFFFF != 0 {
                return Err(not());
            }
            Ok(Cell::D16((value >> 16) as u16))
        }
        Mod0::Int16 => {
            if value & 0x7FFF_8000 != 0 {
                return Err(not());
            }
            Ok(Cell::D16(
                (((value >> 31) as u16) << 15) | (value & 0x7FFF) as u16,
            ))
        }
        Mod0::Zero | Mod0::Lo16Only | Mod0::Hi16Only => Err(FormatError::NoConversion {
            mod0: mod0.isa_name(),
            direction: "inverse load (result depends on the old LReg or ignores Dst)",
        }),
    }
}

/// The canonical LReg value that SFPSTORE with `mod0` turns into exactly `cell` (the prover's
/// output decoding, §4.6: "the inverse of the store mode"): the value whose bits that the store
/// drops (truncated mantissa bits, high halves of 16-bit stores) are zero; for WH INT8_COMP's
/// signed zero-magnitude cell, the smallest-magnitude source −1024. Errors when no LReg value
/// stores as `cell` (e.g. a denormal BF16 cell: the store flushes those; an FP16 cell with
/// exponent 0 and a non-zero mantissa; an Integer "8" cell whose exponent field is not 16).
pub fn store_preimage(mod0: Mod0, cell: Cell, arch: Arch) -> Result<u32, FormatError> {
    let not = |c: u32| FormatError::Undefined {
        what: "store preimage",
        value: u64::from(c),
        why: "no LReg value stores as this cell",
    };
    let view = mod0.store_view().ok_or(FormatError::UnresolvedDefault)?;
    if view != cell.view() {
        return Err(FormatError::ViewMismatch {
            mod0: mod0.isa_name(),
            expected: view,
            got: cell.view(),
        });
    }
    let (c16, c32) = match cell {
        Cell::D16(c) => (c, 0),
        Cell::D32(c) => (0, c),
    };
    Ok(match mod0 {
        Mod0::SrcB => return Err(FormatError::UnresolvedDefault),
        Mod0::Fp16 => {
            let h = unshuf_fp16(c16);
            let (e, m) = (u32::from((h >> 10) & 0x1F), u32::from(h & 0x3FF));
            if e == 0 && m != 0 {
                return Err(not(u32::from(c16)));
            }
            let e8 = if e == 0 { 0 } else { e + 112 };
            (u32::from(h >> 15) << 31) | (e8 << 23) | (m << 13)
        }
        Mod0::Bf16 => {
            let h = unshuf16(c16);
            if h & 0x7F80 == 0 && h & 0x7F != 0 {
                return Err(not(u32::from(c16)));
            }
            u32::from(h) << 16
        }
        Mod0::Fp32 => {
            let x = unshuf32(c32);
            if x & 0x7F80_0000 == 0 && x & 0x7F_FFFF != 0 {
                return Err(not(c32));
            }
            x
        }
        Mod0::Int32 | Mod0::Int32All => unshuf32(c32),
        Mod0::Int32Sm => {
            let sm = unshuf32(c32);
            match arch {
                // Inverse of ToSignMag: "−0" comes from INT_MIN.
                Arch::Wh if sm == 0x8000_0000 => 0x8000_0000,
                Arch::Wh => sign_mag_to_twos(sm),
                Arch::Bh => sm,
            }
        }
        Mod0::Int8 | Mod0::Int8Comp => {
            if c16 & 0x1F != 16 {
                return Err(not(u32::from(c16)));
            }
            let sign = u32::from(c16 >> 15);
            let mag = u32::from((c16 >> 5) & 0x3FF);
            match (mod0, arch) {
                (Mod0::Int8Comp, Arch::Wh) if sign == 1 && mag == 0 => (-1024i32) as u32,
                (Mod0::Int8Comp, Arch::Wh) if sign == 1 => mag.wrapping_neg(),
                _ => (sign << 31) | mag,
            }
        }
        Mod0::Uint16 | Mod0::Lo16Only => u32::from(c16),
        Mod0::Hi16Only => u32::from(c16) << 16,
        Mod0::Int16 => (u32::from(c16 >> 15) << 31) | u32::from(c16 & 0x7FFF),
        Mod0::Lo16 => c32.rotate_right(16),
        Mod0::Hi16 => c32,
        Mod0::Zero => {
            if c16 != 0 {
                return Err(not(u32::from(c16)));
            }
            0
        }
    })
}
