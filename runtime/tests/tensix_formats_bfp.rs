//! BFP8/4/2 tiles in formats A and B (SEED-F §7–8; ISA `FloatBitPatterns.md` BFP section,
//! `Packers/FormatConversion.md`): the unpacker conversion against the documented value formula,
//! tile layout, exact round trips and the packer's rounding.

use pto_runtime::tensix::formats::bfp::{
    decode_datum, encode_group, late_convert_fp32, pack_tile, pack_tile_fp32, unpack_tile,
    PackMode, EXPONENTS_PER_TILE, GROUP,
};
use pto_runtime::tensix::formats::scalar::fp16_tensix_to_fp32;
use pto_runtime::tensix::formats::{DataFormat, FormatError};

const B: [DataFormat; 3] = [DataFormat::Bfp8B, DataFormat::Bfp4B, DataFormat::Bfp2B];
const A: [DataFormat; 3] = [DataFormat::Bfp8, DataFormat::Bfp4, DataFormat::Bfp2];

fn bits_of(f: DataFormat) -> u32 {
    f.element_bits()
}

fn bf16_value(h: u16) -> f64 {
    f64::from(f32::from_bits(u32::from(h) << 16))
}

fn fp16_value(h: u16) -> f64 {
    f64::from(f32::from_bits(fp16_tensix_to_fp32(h)))
}

/// The documented meaning: ±Mag/2^(w−2) · 2^(Exp − bias) with Mag the (w−1)-bit magnitude.
fn documented(datum: u8, bits: u32, exp: u8, bias: i32) -> Option<f64> {
    let sign = datum >> (bits - 1) & 1;
    let mag = datum & ((1u16 << (bits - 1)) - 1) as u8;
    if mag == 0 {
        return if sign == 1 { None } else { Some(0.0) };
    }
    let v = f64::from(mag) / f64::from(1u32 << (bits - 2)) * 2f64.powi(i32::from(exp) - bias);
    Some(if sign == 1 { -v } else { v })
}

#[test]
fn format_b_decode_matches_the_documented_value() {
    for f in B {
        let bits = bits_of(f);
        for exp in 0..=255u8 {
            for datum in 0..(1u16 << bits) as u8 {
                let h = decode_datum(f, datum, exp).unwrap();
                match documented(datum, bits, exp, 127) {
                    // sign with zero magnitude: −2^128 / −Inf = BF16 0xFF80.
                    None => assert_eq!(h, 0xFF80),
                    Some(v) => {
                        // The unpacker's u8 exponent arithmetic only gives the value while the
                        // normalised exponent stays ≥ 1 (documented model; below it wraps).
                        let mag = datum & ((1u16 << (bits - 1)) - 1) as u8;
                        let lz = if mag == 0 {
                            0
                        } else {
                            (mag << (9 - bits)).leading_zeros()
                        };
                        if mag == 0 || (u32::from(exp) > lz && u32::from(exp) - lz < 255) {
                            assert_eq!(bf16_value(h), v, "{f:?} d={datum:#x} e={exp}");
                        } else if u32::from(exp) - lz.min(u32::from(exp)) == 255 {
                            // Exponent 255 lands on BF16's Inf/NaN encodings.
                            assert_eq!((h >> 7) & 0xFF, 0xFF);
                        }
                    }
                }
            }
        }
    }
    // Worked values: BFP8 mag 64 = 1.0 at exponent 127; mag 1 = 2^-6; mag 96 = 1.5.
    assert_eq!(decode_datum(DataFormat::Bfp8B, 0x40, 127), Ok(0x3F80));
    assert_eq!(decode_datum(DataFormat::Bfp8B, 0x01, 127), Ok(0x3C80));
    assert_eq!(decode_datum(DataFormat::Bfp8B, 0xE0, 127), Ok(0xBFC0));
    assert_eq!(decode_datum(DataFormat::Bfp8B, 0x80, 3), Ok(0xFF80));
    // BFP4 mag 4 = 1.0, BFP2 mag 1 = 1.0 (2^(Exp−127)).
    assert_eq!(decode_datum(DataFormat::Bfp4B, 0x4, 127), Ok(0x3F80));
    assert_eq!(decode_datum(DataFormat::Bfp2B, 0x1, 127), Ok(0x3F80));
    assert_eq!(decode_datum(DataFormat::Bfp2B, 0x3, 130), Ok(0xC100)); // -8
    assert!(decode_datum(DataFormat::Bfp4B, 0x10, 0).is_err()); // wider than 4 bits
}

#[test]
fn format_a_decode_matches_the_documented_value_or_errors() {
    for f in A {
        let bits = bits_of(f);
        for exp in 0..=255u8 {
            for datum in 0..(1u16 << bits) as u8 {
                let mag = datum & ((1u16 << (bits - 1)) - 1) as u8;
                let lz = if mag == 0 {
                    0
                } else {
                    (mag << (9 - bits)).leading_zeros() as i32
                };
                let e_res = i32::from(exp) - lz;
                match (
                    decode_datum(f, datum, exp),
                    documented(datum, bits, exp, 15),
                ) {
                    (Ok(h), None) => assert_eq!(h, 0xFC00), // −2^16
                    (Ok(h), Some(v)) if mag == 0 || (1..=31).contains(&e_res) => {
                        assert_eq!(fp16_value(h), v, "{f:?} d={datum:#x} e={exp}")
                    }
                    // Result exponent 0: the documented model yields an FP16 exponent-0 cell.
                    (Ok(h), Some(_)) => assert!(e_res == 0 && h & 0x7C00 == 0),
                    // UndefinedBehaviour exactly when the result exponent leaves 0..=31.
                    (Err(FormatError::Undefined { .. }), Some(_)) => {
                        assert!(!(0..=31).contains(&e_res), "{f:?} d={datum:#x} e={exp}")
                    }
                    (r, want) => panic!("{f:?} d={datum:#x} e={exp}: {r:?} vs {want:?}"),
                }
            }
        }
    }
    assert_eq!(decode_datum(DataFormat::Bfp8, 0x40, 15), Ok(0x3C00));
    assert_eq!(decode_datum(DataFormat::Bfp8, 0x80, 15), Ok(0xFC00));
    assert!(decode_datum(DataFormat::Bfp8, 0x40, 40).is_err());
}

#[test]
fn tile_layout_and_sizes() {
    // 1088 / 576 / 320 bytes; exponents first, one per 16 datums; datum 0 in the low bits.
    let mut vals = vec![0u16; 1024];
    vals[0] = 0x3F80; // 1.0 in group 0
    vals[1] = 0xBF80; // -1.0
    vals[16] = 0x4000; // 2.0 in group 1
    for (f, size) in [
        (DataFormat::Bfp8B, 1088),
        (DataFormat::Bfp4B, 576),
        (DataFormat::Bfp2B, 320),
    ] {
        let t = pack_tile(f, &vals, PackMode::Exact).unwrap();
        assert_eq!(t.len(), size);
        assert_eq!(t[0], 127);
        assert_eq!(t[1], 128);
        assert!(t[2..EXPONENTS_PER_TILE].iter().all(|e| *e == 0));
        let data = &t[EXPONENTS_PER_TILE..];
        match f {
            DataFormat::Bfp8B => assert_eq!(&data[..2], &[0x40, 0xC0]),
            DataFormat::Bfp4B => assert_eq!(data[0], 0xC4), // datum 0 low nibble
            _ => assert_eq!(data[0], 0b1101), // datum 0 = 01 (bits 1:0), datum 1 = 11 (bits 3:2)
        }
        assert_eq!(unpack_tile(f, &t).unwrap(), vals);
    }
    assert!(matches!(
        unpack_tile(DataFormat::Bfp8B, &[0; 100]),
        Err(FormatError::BadLength {
            expected: 1088,
            got: 100,
            ..
        })
    ));
    assert!(matches!(
        pack_tile(DataFormat::Float16B, &vals, PackMode::Round),
        Err(FormatError::WrongFormat { .. })
    ));
}

#[test]
fn exact_round_trips_of_representable_tiles() {
    let mut rng = fastrand::Rng::with_seed(42);
    for f in B.into_iter().chain(A) {
        let bits = bits_of(f);
        let is_a = A.contains(&f);
        for _ in 0..200 {
            // Random tile built from datums + exponents, decoded, then packed back exactly.
            let mut vals = Vec::with_capacity(1024);
            for _ in 0..64 {
                let exp = if is_a {
                    rng.u8(8..=31)
                } else {
                    rng.u8(8..=250)
                };
                let mut group: Vec<u8> = (0..16).map(|_| rng.u8(..) >> (8 - bits)).collect();
                // Make one datum carry the group maximum so the shared exponent is exp.
                group[rng.usize(..16)] = 1 << (bits - 2);
                for d in group {
                    let mag = d & ((1u16 << (bits - 1)) - 1) as u8;
                    let d = if mag == 0 { 0 } else { d }; // no −0 datums (they mean −Inf)
                    vals.push(decode_datum(f, d, exp).unwrap());
                }
            }
            let t = pack_tile(f, &vals, PackMode::Exact).unwrap();
            assert_eq!(unpack_tile(f, &t).unwrap(), vals, "{f:?}");
            // Rounding mode leaves representable values unchanged too.
            assert_eq!(pack_tile(f, &vals, PackMode::Round).unwrap(), t);
        }
    }
}

fn group_of(v: &[u16]) -> Vec<u16> {
    let mut g = v.to_vec();
    g.resize(GROUP, 0);
    g
}

fn round_trip(f: DataFormat, v: &[u16]) -> Vec<u16> {
    let (e, d) = encode_group(f, &group_of(v), PackMode::Round).unwrap();
    d.iter()
        .map(|x| decode_datum(f, *x, e).unwrap())
        .take(v.len())
        .collect()
}

#[test]
fn packer_rounding_rules() {
    let f = DataFormat::Bfp8B;
    // Shared exponent = max exponent; 1.0078125 (odd last mantissa bit) is a tie at the BFP8
    // magnitude → away from zero: 65/64 = 1.015625.
    assert_eq!(round_trip(f, &[0x3F80, 0x3F81]), [0x3F80, 0x3F82]);
    assert_eq!(round_trip(f, &[0x3F80, 0xBF81]), [0x3F80, 0xBF82]);
    // Magnitude overflow clamps: 1.9921875 → 127/64.
    assert_eq!(round_trip(f, &[0x3FFF]), [0x3FFE]);
    // Smaller elements shift right: 2.0 sets the exponent (step 2^-5), 0.75 = 24 steps exactly,
    // 2^-6 is half a step → rounds away to 2^-5, 2^-7 is a quarter → 0.
    assert_eq!(
        round_trip(f, &[0x4000, 0x3F40, 0x3C80, 0x3C00]),
        [0x4000, 0x3F40, 0x3D00, 0x0000]
    );
    // Below half of the smallest step → 0, and the sign is dropped (no −Inf pattern).
    assert_eq!(round_trip(f, &[0x4000, 0xBB80]), [0x4000, 0x0000]);
    // Denormals and zeros are zero; an all-zero group has exponent 0.
    assert_eq!(
        encode_group(f, &[0x0001; 16], PackMode::Round).unwrap(),
        (0, [0; 16])
    );
    assert_eq!(
        encode_group(f, &[0x8000; 16], PackMode::Round).unwrap(),
        (0, [0; 16])
    );
    // Inf/NaN: undocumented packer behaviour → error.
    assert!(encode_group(f, &group_of(&[0x7F80]), PackMode::Round).is_err());
    assert!(encode_group(f, &group_of(&[0xFFC1]), PackMode::Round).is_err());
    // BFP4/BFP2 truncate the BFP8 result: 1.25 → BFP4 1.25, 1.125 → 1.0; 1.4 → BFP2 1.0.
    assert_eq!(
        round_trip(DataFormat::Bfp4B, &[0x3FA0, 0x3F90]),
        [0x3FA0, 0x3F80]
    );
    assert_eq!(round_trip(DataFormat::Bfp2B, &[0x3FB3]), [0x3F80]);
    // ... but the BFP8 rounding happens first: 1.2421875 (sig 0x9F) → BFP8 tie 79.5 → 80/64,
    // then BFP4 truncation keeps 5/4 (truncating directly would give 1.0); 1.99 → clamps to
    // 127/64 → BFP4 7/4 = 1.75.
    assert_eq!(round_trip(DataFormat::Bfp4B, &[0x3F9F]), [0x3FA0]);
    assert_eq!(round_trip(DataFormat::Bfp4B, &[0x3FFF]), [0x3FE0]);
    // Exact mode refuses what Round would change.
    assert!(encode_group(f, &group_of(&[0x3F80, 0x3F81]), PackMode::Exact).is_err());
    // Format A: FP16 1.0 (0x3C00) and 0.5 share exponent 15; FP16 mantissa bits below the
    // E5M7 truncation are dropped first (0x3C07 → 1.0), then the tie rule applies.
    let a = DataFormat::Bfp8;
    assert_eq!(
        round_trip(a, &[0x3C00, 0x3800, 0x3C07]),
        [0x3C00, 0x3800, 0x3C00]
    );
    assert_eq!(round_trip(a, &[0x3C00, 0x3C08]), [0x3C00, 0x3C10]);
    assert_eq!(round_trip(a, &[0x7FFF]), [0x7FF0]); // huge: clamps to 127/64 · 2^16
}

#[test]
fn fp32_late_conversion() {
    // Format B: truncation to BF16 (no rounding before the BFP rounding).
    assert_eq!(
        late_convert_fp32(DataFormat::Bfp8B, 0x3F80_FFFF),
        Ok(0x3F80)
    );
    // Format A: E5M7 from FP32 — rebias, truncate, saturate, flush tiny values.
    let a = DataFormat::Bfp8;
    // 1.0.
    assert_eq!(late_convert_fp32(a, 0x3F80_0000), Ok(0x3C00));
    // -131071.99: exponent 31, largest mantissa.
    assert_eq!(late_convert_fp32(a, 0xC7FF_FFFF), Ok(0xFFFF));
    assert_eq!(late_convert_fp32(a, 0x4800_0000), Ok(0x7FFF)); // 2^17: saturates
    assert_eq!(late_convert_fp32(a, 0xFF80_0000), Ok(0xFFFF)); // -Inf: "infinity" = huge
    assert_eq!(late_convert_fp32(a, 0x7FC0_0000), Ok(0x7FFF)); // NaN becomes infinity
    assert_eq!(late_convert_fp32(a, 0x3800_0000), Ok(0x0000)); // 2^-15: flushed
    assert_eq!(late_convert_fp32(a, 0xB7FF_FFFF), Ok(0x8000)); // below 2^-15: flushed
    assert_eq!(late_convert_fp32(a, 0x3880_0000), Ok(0x0400)); // 2^-14: smallest normal
    assert!(late_convert_fp32(a, 0x3800_0001).is_err()); // mishandled range
    assert!(late_convert_fp32(DataFormat::Float32, 0).is_err());
    // A whole tile: 1.0 + 2^-20 truncates to 1.0 in both families; B rejects Inf, A saturates.
    let mut vals = vec![0x3F80_0008u32; 1024];
    for f in [DataFormat::Bfp8B, DataFormat::Bfp8] {
        let t = pack_tile_fp32(f, &vals, PackMode::Round).unwrap();
        let one = if f == DataFormat::Bfp8B {
            0x3F80
        } else {
            0x3C00
        };
        assert!(unpack_tile(f, &t).unwrap().iter().all(|h| *h == one));
    }
    vals[5] = 0x7F80_0000;
    assert!(pack_tile_fp32(DataFormat::Bfp8B, &vals, PackMode::Round).is_err());
    let t = pack_tile_fp32(DataFormat::Bfp8, &vals, PackMode::Round).unwrap();
    let back = unpack_tile(DataFormat::Bfp8, &t).unwrap();
    assert_eq!(back[5], 0x7FF0); // huge, clamped to 127/64 · 2^16
    assert_eq!(back[4], 0x0000); // 1.0 is below half a step next to 2^16·2: flushed
}
