//! Scalar format conversions (tensix.md §5, SEED-F §1–5), on bit patterns.
//!
//! Invariant: every function is total or returns [`FormatError::Undefined`] for the inputs whose
//! result no source defines (the seed's RTNE rule on NaN, fp16 subnormal production).

use super::FormatError;

/// FP32 → BF16 rounding (SEED-F §2): RTZ by default, RTNE with `cfg0` bit 31 `EnBFloatRTNE`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Bf16Rounding {
    /// Truncate (`bits >> 16`).
    Rtz,
    /// Round to nearest, ties to even, on the 16 dropped bits.
    Rtne,
}

/// FP32 → BF16 bits. RTZ is total (NaN payloads may truncate to Inf, as the hardware does).
/// RTNE is defined for every non-NaN input (finite values may round up to ±Inf); for NaN the seed
/// gives no rule (adding the round bit can carry into the sign), so it is an error.
pub fn fp32_to_bf16(bits: u32, rounding: Bf16Rounding) -> Result<u16, FormatError> {
    match rounding {
        Bf16Rounding::Rtz => Ok((bits >> 16) as u16),
        Bf16Rounding::Rtne => {
            if is_nan32(bits) {
                return Err(FormatError::Undefined {
                    what: "fp32 -> bf16 RTNE",
                    value: u64::from(bits),
                    why: "NaN input: the RTNE round bit is unspecified for NaN",
                });
            }
            let lsb = (bits >> 16) & 1;
            // Cannot overflow u32: non-NaN inputs are ≤ 0xFF800000.
            Ok((bits.wrapping_add(0x7FFF + lsb) >> 16) as u16)
        }
    }
}

/// BF16 → FP32: the top 16 bits (exact).
pub fn bf16_to_fp32(h: u16) -> u32 {
    u32::from(h) << 16
}

/// FP32 → TF32 (SEED-F §3): truncate the mantissa to 10 bits, kept as an FP32 pattern.
pub fn fp32_to_tf32(bits: u32) -> u32 {
    bits & 0xFFFF_E000
}

/// FP32 → Tensix FP16 (IEEE field order: sign, exp5, man10), the rule of SFPSTORE `ToFP16`
/// (ISA-WH/BH; TTSIM): rebias by −112; `E ≤ 0` (underflow, denormals, zeros) → signed zero;
/// `E > 31` (incl. ±Inf and NaN) → saturate to E=31, M=0x3FF; mantissa truncated.
///
/// SEED-F says "subnormal or zero" for `E ≤ 0` without a rule and saturates at `E ≥ 31`; the ISA
/// is the only source with bit-level detail (and exponent 31 is finite in Tensix FP16), so it
/// wins here.
pub fn fp32_to_fp16_tensix(bits: u32) -> u16 {
    super::mod0::to_fp16(bits)
}

/// Tensix FP16 (IEEE field order) → FP32 (SEED-F §4 "FP16 → FP32"): rebias by +112, normalise
/// subnormals, zero-extend the mantissa. Exponent 31 is a finite exponent in Tensix FP16
/// (FloatBitPatterns.md), so 0x7C00 → 2^16 and 0x7FFF → 131008, not Inf/NaN. Exact.
pub fn fp16_tensix_to_fp32(h: u16) -> u32 {
    let sign = u32::from(h >> 15) << 31;
    let exp = u32::from((h >> 10) & 0x1F);
    let man = u32::from(h & 0x3FF);
    if exp != 0 {
        return sign | ((exp + 112) << 23) | (man << 13);
    }
    if man == 0 {
        return sign;
    }
    // Subnormal: value = man · 2^-24; normalise so the leading one becomes the hidden bit.
    let lz = man.leading_zeros() - 22; // leading zeros within the 10-bit field
    let m = (man << (lz + 1)) & 0x3FF;
    let e = 113 - (lz + 1);
    sign | (e << 23) | (m << 13)
}

/// Whether an FP32 pattern is a NaN.
pub fn is_nan32(bits: u32) -> bool {
    bits & 0x7FFF_FFFF > 0x7F80_0000
}

/// Shuffled 19-bit SrcA/SrcB cell from FP32 bits (SEED-F §1 `ieee_to_shuffled`): keeps the sign,
/// the exponent and the top 10 mantissa bits (truncation).
pub fn src_from_ieee(bits: u32) -> u32 {
    let sign = bits >> 31;
    let exp = (bits >> 23) & 0xFF;
    let man = (bits >> 13) & 0x3FF;
    (sign << 18) | (man << 8) | exp
}

/// FP32 bits from a shuffled 19-bit SrcA/SrcB cell (SEED-F §1 `shuffled_to_ieee`); the low 13
/// mantissa bits are zero. Cells wider than 19 bits are rejected.
pub fn src_to_ieee(cell: u32) -> Result<u32, FormatError> {
    if cell >> 19 != 0 {
        return Err(FormatError::Undefined {
            what: "SrcA/SrcB cell",
            value: u64::from(cell),
            why: "wider than 19 bits",
        });
    }
    let sign = (cell >> 18) & 1;
    let man = (cell >> 8) & 0x3FF;
    let exp = cell & 0xFF;
    Ok((sign << 31) | (exp << 23) | (man << 13))
}

/// A two's complement value as a `bits`-wide sign-magnitude pattern (SEED-F §5
/// `int_to_signmag`): `v < 0` → sign bit | |v|. `−2^(bits−1)` has magnitude 0 after masking and
/// becomes the "−0" pattern (tensix.md §5). Values outside `[−2^(bits−1), 2^(bits−1) − 1]` and
/// widths outside 2..=32 are errors.
pub fn int_to_sign_mag(v: i64, bits: u32) -> Result<u32, FormatError> {
    if !(2..=32).contains(&bits) {
        return Err(FormatError::Undefined {
            what: "sign-magnitude width",
            value: u64::from(bits),
            why: "width must be 2..=32",
        });
    }
    let half = 1i64 << (bits - 1);
    if v < -half || v >= half {
        return Err(FormatError::Undefined {
            what: "sign-magnitude encode",
            value: v as u64,
            why: "out of the two's complement range of the width",
        });
    }
    let mask = (half - 1) as u64;
    Ok(if v < 0 {
        (half as u64 | (v.unsigned_abs() & mask)) as u32
    } else {
        v as u32
    })
}

/// A `bits`-wide sign-magnitude pattern as an integer (SEED-F §5 `signmag_to_int`); both zeros
/// give 0. Bits above the width are an error.
pub fn sign_mag_to_int(pattern: u32, bits: u32) -> Result<i64, FormatError> {
    if !(2..=32).contains(&bits) || (bits < 32 && pattern >> bits != 0) {
        return Err(FormatError::Undefined {
            what: "sign-magnitude decode",
            value: u64::from(pattern),
            why: "pattern wider than the width (or width outside 2..=32)",
        });
    }
    let mag = i64::from(pattern & ((1u32 << (bits - 1)) - 1));
    Ok(if pattern >> (bits - 1) & 1 == 1 {
        -mag
    } else {
        mag
    })
}

/// The SFPCAST two's complement ↔ sign-magnitude conversion (ISA-BH `SFPCAST_IntInt.md`,
/// Mod1 3 `INT32_SM32`; tensix.md §2): `sign | (sign ? −x : x)`, one implementation for both
/// directions. Quirk: sign-magnitude −0 (0x80000000) becomes INT_MIN (0x80000000) instead of 0,
/// and INT_MIN becomes −0. SEED-F attributes this −0 behaviour to "mode 2"; the ISA pages make
/// Mod1 2 an integer absolute value (hardware bug, see [`sfpcast_int_abs_bh`]) and Mod1 3 this
/// conversion — we follow the ISA numbering.
pub fn sfpcast_sm_twos(x: u32) -> u32 {
    let sign = x & 0x8000_0000;
    sign | if sign != 0 { x.wrapping_neg() } else { x }
}

/// BH SFPCAST Mod1 2 (ISA-BH `SFPCAST_IntAbs.md`): two's complement absolute value, INT_MIN
/// unchanged. Never emitted by ptoc (tensix.md §2); provided so the simulator can model it.
pub fn sfpcast_int_abs_bh(x: u32) -> u32 {
    if x >= 0x8000_0000 {
        x.wrapping_neg()
    } else {
        x
    }
}
