//! Block floating point tiles: BFP8/BFP4/BFP2 in format A (`Bfp8`, ISA "BFP8a": 5-bit shared
//! exponent, expands to Tensix FP16) and format B (`Bfp8_b`, ISA "BFP8": 8-bit shared exponent,
//! expands to BF16).
//!
//! Sources and the rules taken from each:
//! * SEED-F §7–8: 64 shared exponents per 32×32 tile (4 faces × 16 face rows, one per 16 datums),
//!   one byte each, separate from the data; tile sizes 1088/576/320 bytes.
//! * ISA-WH `FloatBitPatterns.md` (BFP): a datum is sign + magnitude (no hidden bit); BFP8 value
//!   `±Mag/2^6 · 2^(Exp−bias)`; sign 1 with magnitude 0 means −2^128/−Inf (B) or −2^16 (A); the
//!   unpacker conversions `BFP8ToBF16` / `BFP8aToFP16` (implemented bit-exactly in
//!   [`decode_datum`]; BFP4/BFP2 are the top 4/2 bits of a BFP8 datum). The A conversion is
//!   undefined when the result exponent needs more than 5 bits → [`FormatError::Undefined`].
//! * ISA-WH `Packers/OutputAddressGenerator.md`: the exponent stream precedes the data stream, so
//!   a tile is `[64 exponent bytes][data]`; `Compression.md`: the first datum sits in the least
//!   significant bits (so BFP4 datum 2k is the low nibble of byte k).
//! * ISA-WH `Packers/FormatConversion.md` (late conversion): to BFP8 = truncate to BF16 (A: to
//!   E5M7), then round to nearest, ties away from zero, with one shared exponent per 16 datums;
//!   BFP4/BFP2 = that BFP8 result truncated. Denormals (exponent 0) are flushed to zero. FP32
//!   input goes through [`late_convert_fp32`] first ([`pack_tile_fp32`]).
//!
//! DECISIONS where those sources are silent (documented, tested):
//! * the shared exponent is the maximum exponent of the 16 datums (SEED-F "typically the
//!   maximum"; tt-metal's host packer `get_max_exp` does the same);
//! * a magnitude that rounds up past the field maximum (e.g. 1.1111111b at the shared exponent →
//!   127.5) is clamped to the maximum (tt-metal host packer `convert_u32_to_bfp8` clamps at 127);
//! * a datum whose magnitude is zero after rounding/truncation is written with sign 0 (a set sign
//!   with magnitude 0 would decode as −Inf / −2^16);
//! * Inf/NaN inputs (B: exponent 255; A: none, Tensix FP16 has no Inf/NaN) have no documented
//!   packer behaviour → [`FormatError::Undefined`].
//!
//! Element order: every function takes/returns the 1024 datums in tile order (the L1 order: face
//! 0..3, each face row-major 16×16); `dest::tile_index` maps (row, col) to it.

use super::{DataFormat, FormatError, TILE_ELEMS};

/// Datums that share one exponent.
pub const GROUP: usize = 16;
/// Shared exponents per tile.
pub const EXPONENTS_PER_TILE: usize = TILE_ELEMS / GROUP;

/// The format family and datum width of a BFP format.
fn bfp_params(format: DataFormat) -> Result<(bool, u32), FormatError> {
    // (is format A, bits per datum)
    Ok(match format {
        DataFormat::Bfp8 => (true, 8),
        DataFormat::Bfp4 => (true, 4),
        DataFormat::Bfp2 => (true, 2),
        DataFormat::Bfp8B => (false, 8),
        DataFormat::Bfp4B => (false, 4),
        DataFormat::Bfp2B => (false, 2),
        _ => {
            return Err(FormatError::WrongFormat {
                format,
                why: "not a BFP format",
            })
        }
    })
}

/// Expands one datum (the low `bits` of `datum`) with its shared exponent, per the ISA unpacker:
/// format B → BF16 bits, format A → Tensix FP16 bits (IEEE field order). Exact (lossless).
pub fn decode_datum(format: DataFormat, datum: u8, exp: u8) -> Result<u16, FormatError> {
    let (is_a, bits) = bfp_params(format)?;
    if bits < 8 && u32::from(datum) >> bits != 0 {
        return Err(FormatError::Undefined {
            what: "BFP datum",
            value: u64::from(datum),
            why: "wider than the format's datum",
        });
    }
    // BFP4/BFP2 are the top bits of a BFP8 datum.
    let d8 = datum << (8 - bits);
    let sign = u16::from(d8 >> 7);
    let mag = d8 << 1;
    if mag == 0 {
        return Ok(match (sign, is_a) {
            (0, _) => 0,
            (_, false) => 0xFF80,
            (_, true) => 0xFC00,
        });
    }
    let lz = mag.leading_zeros() as u8;
    let mag = mag << lz;
    // u8 arithmetic as in the ISA model (format B may wrap below zero; that is the documented
    // model, not a guess). Format A: a result exponent needing > 5 bits is UndefinedBehaviour.
    let e = exp.wrapping_sub(lz);
    if is_a {
        if e & 0xE0 != 0 {
            return Err(FormatError::Undefined {
                what: "BFP8a -> FP16 unpack",
                value: (u64::from(datum) << 8) | u64::from(exp),
                why: "result exponent does not fit 5 bits (ISA UndefinedBehaviour)",
            });
        }
        Ok((sign << 15) | (u16::from(e) << 10) | (u16::from(mag & 0x7E) << 3))
    } else {
        Ok((sign << 15) | (u16::from(e) << 7) | u16::from(mag & 0x7E))
    }
}

/// Unpacks one L1 tile (`[64 exponents][data]`, [`DataFormat::tile_bytes`] long) into 1024
/// BF16 (format B) or Tensix FP16 (format A) bit patterns in tile order.
pub fn unpack_tile(format: DataFormat, bytes: &[u8]) -> Result<Vec<u16>, FormatError> {
    let (_, bits) = bfp_params(format)?;
    if bytes.len() != format.tile_bytes() {
        return Err(FormatError::BadLength {
            what: "BFP tile",
            expected: format.tile_bytes(),
            got: bytes.len(),
        });
    }
    let (exps, data) = bytes.split_at(EXPONENTS_PER_TILE);
    let mut out = Vec::with_capacity(TILE_ELEMS);
    for (g, &exp) in exps.iter().enumerate() {
        for i in g * GROUP..(g + 1) * GROUP {
            out.push(decode_datum(format, read_datum(data, i, bits), exp)?);
        }
    }
    Ok(out)
}

fn read_datum(data: &[u8], i: usize, bits: u32) -> u8 {
    let bit = i * bits as usize;
    let mask = ((1u16 << bits) - 1) as u8;
    data.get(bit / 8).map_or(0, |b| (b >> (bit % 8)) & mask)
}

fn write_datum(data: &mut [u8], i: usize, bits: u32, v: u8) {
    let bit = i * bits as usize;
    if let Some(b) = data.get_mut(bit / 8) {
        *b |= v << (bit % 8);
    }
}

/// How [`pack_tile`] treats values the BFP format cannot hold exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PackMode {
    /// The packer's rounding (module doc): BFP8 round-to-nearest ties away with clamping, BFP4/2
    /// truncation of that BFP8 result.
    Round,
    /// Fail with [`FormatError::Undefined`] unless every value is exactly representable.
    Exact,
}

/// One 16-bit input value split into (sign, exponent, 8-bit significand with the hidden bit at
/// bit 7); `None` for zeros and flushed denormals.
fn split(format_a: bool, v: u16) -> Result<Option<(u8, u8, u8)>, FormatError> {
    let sign = (v >> 15) as u8;
    if format_a {
        // Tensix FP16 → E5M7 by truncating the mantissa (exponent width unchanged).
        let e = ((v >> 10) & 0x1F) as u8;
        if e == 0 {
            return Ok(None);
        }
        Ok(Some((sign, e, 0x80 | ((v >> 3) & 0x7F) as u8)))
    } else {
        let e = ((v >> 7) & 0xFF) as u8;
        if e == 0xFF {
            return Err(FormatError::Undefined {
                what: "BF16 -> BFP pack",
                value: u64::from(v),
                why: "Inf/NaN input: packer behaviour undocumented",
            });
        }
        if e == 0 {
            return Ok(None);
        }
        Ok(Some((sign, e, 0x80 | (v & 0x7F) as u8)))
    }
}

/// Encodes one group of 16 values (BF16 for format B, Tensix FP16 for format A) into its
/// shared exponent and 16 datums (low `bits` bits each).
pub fn encode_group(
    format: DataFormat,
    values: &[u16],
    mode: PackMode,
) -> Result<(u8, [u8; GROUP]), FormatError> {
    let (is_a, bits) = bfp_params(format)?;
    if values.len() != GROUP {
        return Err(FormatError::BadLength {
            what: "BFP group",
            expected: GROUP,
            got: values.len(),
        });
    }
    let mut parts = [None; GROUP];
    for (p, v) in parts.iter_mut().zip(values) {
        *p = split(is_a, *v)?;
    }
    let shared = parts.iter().flatten().map(|p| p.1).max().unwrap_or(0);
    let mut out = [0u8; GROUP];
    for ((o, p), v) in out.iter_mut().zip(parts).zip(values) {
        let Some((sign, e, sig)) = p else {
            if mode == PackMode::Exact && v & 0x7FFF != 0 {
                return Err(inexact(*v));
            }
            continue;
        };
        // mag7 = sig · 2^(e − shared) / 2 (the BFP8 magnitude has 6 fraction bits).
        let shift = (u32::from(shared - e) + 1).min(9);
        let sig = u32::from(sig);
        let dropped = sig & ((1 << shift) - 1);
        let mut mag7 = sig >> shift;
        if mode == PackMode::Exact && dropped != 0 {
            return Err(inexact(*v));
        }
        if dropped >= 1 << (shift - 1) {
            mag7 += 1; // round to nearest, ties away from zero on the magnitude
        }
        let mag7 = mag7.min(0x7F) as u8;
        // BFP4/BFP2: truncate the BFP8 magnitude to its top bits.
        let mag = mag7 >> (8 - bits);
        if mode == PackMode::Exact && u16::from(mag) << (8 - bits) != u16::from(mag7) {
            return Err(inexact(*v));
        }
        let sign = if mag == 0 { 0 } else { sign };
        *o = (sign << (bits - 1)) | mag;
    }
    Ok((shared, out))
}

fn inexact(v: u16) -> FormatError {
    FormatError::Undefined {
        what: "exact BFP pack",
        value: u64::from(v),
        why: "value not representable with the group's shared exponent",
    }
}

/// Packs 1024 values in tile order (BF16 for format B, Tensix FP16 for format A) into one L1
/// tile `[64 exponents][data]`.
pub fn pack_tile(
    format: DataFormat,
    values: &[u16],
    mode: PackMode,
) -> Result<Vec<u8>, FormatError> {
    let (_, bits) = bfp_params(format)?;
    if values.len() != TILE_ELEMS {
        return Err(FormatError::BadLength {
            what: "BFP tile values",
            expected: TILE_ELEMS,
            got: values.len(),
        });
    }
    let mut out = vec![0u8; format.tile_bytes()];
    let (exps, data) = out.split_at_mut(EXPONENTS_PER_TILE);
    for (g, (chunk, e)) in values.chunks(GROUP).zip(exps.iter_mut()).enumerate() {
        let (shared, datums) = encode_group(format, chunk, mode)?;
        *e = shared;
        for (k, d) in datums.into_iter().enumerate() {
            write_datum(data, g * GROUP + k, bits, d);
        }
    }
    Ok(out)
}

/// The packer's late conversion of one FP32 datum to the 16-bit input of [`encode_group`]
/// (ISA `Packers/FormatConversion.md`): format B truncates to BF16; format A converts to E5M7 —
/// saturating a too-large exponent (incl. ±Inf and NaN, "NaN becomes infinity", i.e. the largest
/// 5-bit-exponent pattern, sign kept), truncating the mantissa, flushing `|x| ≤ 2^-15` to zero —
/// and reports the documented "mishandled" range `2^-15 < |x| < 2^-14` as undefined.
pub fn late_convert_fp32(format: DataFormat, x: u32) -> Result<u16, FormatError> {
    let (is_a, _) = bfp_params(format)?;
    if !is_a {
        return Ok((x >> 16) as u16);
    }
    let sign = ((x >> 16) & 0x8000) as u16;
    let e = ((x >> 23) & 0xFF) as i32;
    let m = x & 0x7F_FFFF;
    let e16 = e - 112;
    if e == 255 || e16 > 31 {
        return Ok(sign | 0x7FFF);
    }
    if e16 >= 1 {
        return Ok(sign | ((e16 as u16) << 10) | (m >> 13) as u16);
    }
    if e16 < 0 || m == 0 {
        return Ok(sign);
    }
    Err(FormatError::Undefined {
        what: "FP32 -> BFP8a late conversion",
        value: u64::from(x),
        why: "2^-15 < |x| < 2^-14 is mishandled by the packer (ISA FormatConversion.md)",
    })
}

/// Packs 1024 FP32 values in tile order: [`late_convert_fp32`] per datum, then [`pack_tile`].
pub fn pack_tile_fp32(
    format: DataFormat,
    values: &[u32],
    mode: PackMode,
) -> Result<Vec<u8>, FormatError> {
    let converted = values
        .iter()
        .map(|&x| late_convert_fp32(format, x))
        .collect::<Result<Vec<u16>, FormatError>>()?;
    pack_tile(format, &converted, mode)
}
