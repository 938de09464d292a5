//! Tensix Dst-cell ↔ LReg conversions (tensix.md §4.2, §4.5) and scalar formats (§5, SEED-F):
//! worked values from the ISA pages / seed, and exhaustive sweeps over all 2^16 cells.

use pto_runtime::tensix::formats::scalar::{
    bf16_to_fp32, fp16_tensix_to_fp32, fp32_to_bf16, fp32_to_fp16_tensix, fp32_to_tf32,
    int_to_sign_mag, sfpcast_int_abs_bh, sfpcast_sm_twos, sign_mag_to_int, src_from_ieee,
    src_to_ieee, Bf16Rounding,
};
use pto_runtime::tensix::formats::{
    load_inverse, load_mod0, shuf16, shuf32, shuf_fp16, store_mod0, unshuf16, unshuf32,
    unshuf_fp16, Arch, Cell, DataFormat, DstConfig, FormatError, Mod0, View,
};

const ARCHES: [Arch; 2] = [Arch::Wh, Arch::Bh];

fn load(m: Mod0, c: Cell, a: Arch) -> u32 {
    load_mod0(m, c, 0, a).unwrap()
}
fn store(m: Mod0, x: u32, a: Arch) -> Cell {
    store_mod0(m, x, a).unwrap()
}

#[test]
fn shuffles_are_bijections_over_all_16_bit_patterns() {
    let mut seen = vec![false; 1 << 16];
    for x in 0..=u16::MAX {
        assert_eq!(unshuf16(shuf16(x)), x);
        assert_eq!(unshuf_fp16(shuf_fp16(x)), x);
        let s = shuf16(x);
        assert!(!seen[usize::from(s)], "shuf16 not injective at {x:#06x}");
        seen[usize::from(s)] = true;
    }
    // Layouts of §4.2: BF16 1.0 (0x3F80) = Sign 0, Man 0, Exp 0x7F → 0x007F;
    // BF16 -1.5 (0xBFC0) → Sign 1, Man 0x40, Exp 0x7F → 0xC07F.
    assert_eq!(shuf16(0x3F80), 0x007F);
    assert_eq!(shuf16(0xBFC0), 0xC07F);
    // FP16 1.0 (0x3C00): Sign 0, Man 0, Exp 15 → 0x000F; FP16 max 0x7BFF → Man 0x3FF, Exp 30.
    assert_eq!(shuf_fp16(0x3C00), 0x000F);
    assert_eq!(shuf_fp16(0x7BFF), (0x3FF << 5) | 30);
    // FP32 layout Sign ManHi(7) Exp(8) ManLo(16): 1.0 + 2^-23 = 0x3F800001 → 0x007F0001.
    assert_eq!(shuf32(0x3F80_0001), 0x007F_0001);
    let mut rng = fastrand::Rng::with_seed(7);
    for _ in 0..100_000 {
        let x = rng.u32(..);
        assert_eq!(unshuf32(shuf32(x)), x);
    }
}

#[test]
fn mod0_numbering_names_and_views() {
    for b in 0..16u8 {
        assert_eq!(Mod0::from_bits(b).unwrap().bits(), b);
    }
    assert_eq!(Mod0::from_bits(16), Err(FormatError::BadMod0(16)));
    // tt-llk LO16 is ISA UINT16 (= 6); ISA LO16 is 9 (tensix.md §4.5 note).
    assert_eq!(Mod0::Uint16.llk_name(), Some("LO16"));
    assert_eq!(Mod0::Lo16.bits(), 9);
    assert_eq!(Mod0::Lo16.isa_name(), "LO16");
    // HI16 and LO16(9) load 16 bits but store a 32-bit datum.
    assert_eq!(Mod0::Hi16.load_view(), Some(View::Dst16b));
    assert_eq!(Mod0::Hi16.store_view(), Some(View::Dst32b));
    assert_eq!(Mod0::Lo16.store_view(), Some(View::Dst32b));
    assert_eq!(Mod0::Zero.store_view(), Some(View::Dst16b));
    assert_eq!(Mod0::SrcB.load_view(), None);
    // TTSIM-supported sets (§4.5).
    let loads: Vec<u8> = Mod0::ALL
        .iter()
        .filter(|m| m.ttsim_load())
        .map(|m| m.bits())
        .collect();
    assert_eq!(loads, [0, 2, 3, 4, 6, 12, 14, 15]);
    let stores: Vec<u8> = Mod0::ALL
        .iter()
        .filter(|m| m.ttsim_store())
        .map(|m| m.bits())
        .collect();
    assert_eq!(stores, [0, 2, 3, 4, 6, 7, 9, 12, 14, 15]);
}

#[test]
fn default_mod0_resolution() {
    for f in DataFormat::ALL {
        let on = DstConfig {
            sfpu_fp32: true,
            srcb_format: f,
        };
        assert_eq!(Mod0::SrcB.resolve(&on), Mod0::Fp32);
        let off = DstConfig {
            sfpu_fp32: false,
            srcb_format: f,
        };
        // ISA: {FP32, TF32, BF16, BFP8, BFP4, BFP2, INT32, INT16} → BF16, else FP16; the ISA's
        // BFP8 is the seed's Bfp8_b (code 6).
        let bf16 = matches!(f.code(), 0 | 4 | 5 | 6 | 7 | 15 | 8 | 9);
        let want = if bf16 { Mod0::Bf16 } else { Mod0::Fp16 };
        assert_eq!(Mod0::SrcB.resolve(&off), want, "{f:?}");
        assert_eq!(Mod0::Int32.resolve(&off), Mod0::Int32);
    }
    for a in ARCHES {
        assert_eq!(
            load_mod0(Mod0::SrcB, Cell::D32(0), 0, a),
            Err(FormatError::UnresolvedDefault)
        );
        assert_eq!(
            store_mod0(Mod0::SrcB, 0, a),
            Err(FormatError::UnresolvedDefault)
        );
    }
}

#[test]
fn bf16_mode_exhaustive() {
    for a in ARCHES {
        for c in 0..=u16::MAX {
            let v = load(Mod0::Bf16, Cell::D16(c), a);
            assert_eq!(v, u32::from(unshuf16(c)) << 16);
            // Store: denormals (exp 0) flush to signed zero, everything else is exact.
            let back = store(Mod0::Bf16, v, a);
            let exp = (v >> 23) & 0xFF;
            let want = if exp == 0 {
                shuf16((v >> 16) as u16 & 0x8000)
            } else {
                c
            };
            assert_eq!(back, Cell::D16(want), "cell {c:#06x}");
            // Store truncates the low 16 bits (RTZ), whatever they are.
            let noisy = v | 0xFFFF;
            if exp != 0 {
                assert_eq!(store(Mod0::Bf16, noisy, a), Cell::D16(c));
            }
        }
    }
    // NaN payload truncation can make Inf (ISA note): 0x7F800001 → 0x7F80.
    assert_eq!(
        store(Mod0::Bf16, 0x7F80_0001, Arch::Wh),
        Cell::D16(shuf16(0x7F80))
    );
}

#[test]
fn fp16_mode_exhaustive() {
    for a in ARCHES {
        for c in 0..=u16::MAX {
            let v = load(Mod0::Fp16, Cell::D16(c), a);
            let ieee = unshuf_fp16(c);
            let (s, e, m) = (
                u32::from(ieee >> 15),
                u32::from((ieee >> 10) & 31),
                u32::from(ieee & 0x3FF),
            );
            let want_e = if e == 0 { 0 } else { e + 112 };
            assert_eq!(v, (s << 31) | (want_e << 23) | (m << 13));
            // Store back: exact for non-zero exponents (exponent 31 is finite); exponent-0 cells
            // load as FP32 denormals and store as signed zero.
            let back = store(Mod0::Fp16, v, a);
            let want = if e == 0 { (s << 15) as u16 } else { c };
            assert_eq!(back, Cell::D16(want), "cell {c:#06x}");
        }
    }
}

#[test]
fn fp16_store_saturates_flushes_and_truncates() {
    let cell = |h: u16| Cell::D16(shuf_fp16(h));
    let a = Arch::Wh;
    // ±Inf, NaN, and anything with E > 31 become the "huge" cell E=31, M=0x3FF.
    assert_eq!(store(Mod0::Fp16, 0x7F80_0000, a), cell(0x7FFF));
    assert_eq!(store(Mod0::Fp16, 0xFF80_0000, a), cell(0xFFFF));
    assert_eq!(store(Mod0::Fp16, 0x7FC0_0000, a), cell(0x7FFF));
    // 131072 = 2^17: E = 32.
    assert_eq!(store(Mod0::Fp16, 0x4800_0000, a), cell(0x7FFF));
    // 65536 = 2^16: E = 31 is a normal Tensix exponent, mantissa kept.
    assert_eq!(store(Mod0::Fp16, 0x4780_0000, a), cell(0x7C00));
    // 65504.
    assert_eq!(store(Mod0::Fp16, 0x477F_E000, a), cell(0x7BFF));
    // 2^-14 is the smallest normal; 2^-15 (E = 0) flushes to signed zero.
    assert_eq!(store(Mod0::Fp16, 0x3880_0000, a), cell(0x0400));
    assert_eq!(store(Mod0::Fp16, 0x3800_0000, a), cell(0x0000));
    assert_eq!(store(Mod0::Fp16, 0xB800_0000, a), cell(0x8000));
    // Truncation: 1 + 2^-11 + 2^-12 → 1.0; -(1 + 2^-10 + 2^-11) → -(1 + 2^-10).
    assert_eq!(store(Mod0::Fp16, 0x3F80_1800, a), cell(0x3C00));
    assert_eq!(store(Mod0::Fp16, 0xBF80_3000, a), cell(0xBC01));
}

#[test]
fn fp32_and_int32_modes() {
    let mut rng = fastrand::Rng::with_seed(11);
    for a in ARCHES {
        for _ in 0..200_000 {
            let x = rng.u32(..);
            // Loads are raw unshuffles for FP32, INT32, INT32_ALL.
            for m in [Mod0::Fp32, Mod0::Int32, Mod0::Int32All] {
                assert_eq!(load(m, Cell::D32(shuf32(x)), a), x);
            }
            assert_eq!(store(Mod0::Int32, x, a), Cell::D32(shuf32(x)));
            // D4: FP32 store flushes denormals to signed zero on both archs.
            let flushed = if x & 0x7F80_0000 == 0 {
                x & 0x8000_0000
            } else {
                x
            };
            assert_eq!(store(Mod0::Fp32, x, a), Cell::D32(shuf32(flushed)));
        }
        assert_eq!(store(Mod0::Fp32, 0x0000_0001, a), Cell::D32(0));
        assert_eq!(store(Mod0::Fp32, 0x807F_FFFF, a), Cell::D32(0x8000_0000));
        assert_eq!(
            store(Mod0::Int32, 0x807F_FFFF, a),
            Cell::D32(shuf32(0x807F_FFFF))
        );
    }
}

#[test]
fn int32_sm_mode_per_arch() {
    // WH: store two's → sign-magnitude, load back; INT_MIN → "−0" → loads as 0.
    let wh = Arch::Wh;
    assert_eq!(
        store(Mod0::Int32Sm, 0xFFFF_FFFF, wh),
        Cell::D32(shuf32(0x8000_0001))
    );
    assert_eq!(store(Mod0::Int32Sm, 5, wh), Cell::D32(shuf32(5)));
    assert_eq!(
        store(Mod0::Int32Sm, 0x8000_0000, wh),
        Cell::D32(shuf32(0x8000_0000))
    );
    assert_eq!(load(Mod0::Int32Sm, Cell::D32(shuf32(0x8000_0000)), wh), 0);
    assert_eq!(
        load(Mod0::Int32Sm, Cell::D32(shuf32(0x8000_0007)), wh),
        (-7i32) as u32
    );
    let mut rng = fastrand::Rng::with_seed(3);
    for _ in 0..100_000 {
        let x = rng.u32(..);
        let back = load(Mod0::Int32Sm, store(Mod0::Int32Sm, x, wh), wh);
        assert_eq!(back, if x == 0x8000_0000 { 0 } else { x });
        // BH: deprecated, raw.
        let bh = Arch::Bh;
        assert_eq!(store(Mod0::Int32Sm, x, bh), Cell::D32(shuf32(x)));
        assert_eq!(load(Mod0::Int32Sm, Cell::D32(shuf32(x)), bh), x);
    }
}

#[test]
fn sixteen_bit_integer_modes_exhaustive() {
    for a in ARCHES {
        for c in 0..=u16::MAX {
            let cw = u32::from(c);
            assert_eq!(load(Mod0::Uint16, Cell::D16(c), a), cw);
            assert_eq!(load(Mod0::Lo16, Cell::D16(c), a), cw);
            assert_eq!(load(Mod0::Hi16, Cell::D16(c), a), cw << 16);
            assert_eq!(
                load(Mod0::Int16, Cell::D16(c), a),
                ((cw >> 15) << 31) | (cw & 0x7FFF)
            );
            assert_eq!(
                load_mod0(Mod0::Lo16Only, Cell::D16(c), 0xABCD_1234, a).unwrap(),
                0xABCD_0000 | cw
            );
            assert_eq!(
                load_mod0(Mod0::Hi16Only, Cell::D16(c), 0xABCD_1234, a).unwrap(),
                (cw << 16) | 0x1234
            );
            assert_eq!(load(Mod0::Zero, Cell::D16(c), a), 0);
            // Integer "8": WH 7-bit magnitude, BH 8-bit.
            let mag = match a {
                Arch::Wh => (cw >> 5) & 0x7F,
                Arch::Bh => (cw >> 5) & 0xFF,
            };
            assert_eq!(load(Mod0::Int8, Cell::D16(c), a), ((cw >> 15) << 31) | mag);
            // Stores of the 16-bit opaque modes are exact.
            assert_eq!(store(Mod0::Uint16, 0xDEAD_0000 | cw, a), Cell::D16(c));
            assert_eq!(store(Mod0::Lo16Only, 0xDEAD_0000 | cw, a), Cell::D16(c));
            assert_eq!(store(Mod0::Hi16Only, (cw << 16) | 0xBEEF, a), Cell::D16(c));
            assert_eq!(
                load(
                    Mod0::Int16,
                    store(Mod0::Int16, load(Mod0::Int16, Cell::D16(c), a), a),
                    a
                ),
                load(Mod0::Int16, Cell::D16(c), a)
            );
        }
    }
    let a = Arch::Wh;
    // LO16 (9) stores rotl(x, 16) raw; HI16 stores x raw (unshuffled).
    assert_eq!(store(Mod0::Lo16, 0x1234_5678, a), Cell::D32(0x5678_1234));
    assert_eq!(store(Mod0::Hi16, 0x1234_5678, a), Cell::D32(0x1234_5678));
    assert_eq!(store(Mod0::Zero, 0x1234_5678, a), Cell::D16(0));
    // INT16 store: sign bit 31 → 15, low 15 bits kept.
    assert_eq!(store(Mod0::Int16, 0x8000_0123, a), Cell::D16(0x8123));
    // INT8 store: S<<15 | (x & 0x3FF)<<5 | 16 (exponent field 16), both archs.
    assert_eq!(
        store(Mod0::Int8, 0x8000_007F, a),
        Cell::D16(0x8000 | (0x7F << 5) | 16)
    );
    assert_eq!(store(Mod0::Int8, 0, Arch::Bh), Cell::D16(16));
    // INT8_COMP: WH two's ↔ sign-magnitude; BH plain sign-magnitude.
    assert_eq!(
        store(Mod0::Int8Comp, (-3i32) as u32, a),
        Cell::D16(0x8000 | (3 << 5) | 16)
    );
    assert_eq!(
        load(Mod0::Int8Comp, Cell::D16(0x8000 | (3 << 5) | 16), a),
        (-3i32) as u32
    );
    assert_eq!(
        load(Mod0::Int8Comp, Cell::D16(0x8000 | (3 << 5) | 16), Arch::Bh),
        0x8000_0003
    );
}

#[test]
fn view_mismatch_is_an_error() {
    let e = load_mod0(Mod0::Fp32, Cell::D16(0), 0, Arch::Wh).unwrap_err();
    assert!(matches!(
        e,
        FormatError::ViewMismatch {
            expected: View::Dst32b,
            ..
        }
    ));
    let e = load_mod0(Mod0::Bf16, Cell::D32(0), 0, Arch::Bh).unwrap_err();
    assert!(matches!(
        e,
        FormatError::ViewMismatch {
            expected: View::Dst16b,
            ..
        }
    ));
}

#[test]
fn load_inverse_is_a_right_inverse() {
    let modes: Vec<Mod0> = Mod0::ALL
        .into_iter()
        .filter(|m| !matches!(m, Mod0::SrcB | Mod0::Zero | Mod0::Lo16Only | Mod0::Hi16Only))
        .collect();
    for a in ARCHES {
        for &m in &modes {
            // Every value a load can produce has a preimage that loads back to it (all 16-bit
            // cells exhaustively; 32-bit cells sampled).
            let view = m.load_view().unwrap();
            let mut rng = fastrand::Rng::with_seed(u64::from(m.bits()));
            let cells: Vec<Cell> = match view {
                View::Dst16b => (0..=u16::MAX).map(Cell::D16).collect(),
                View::Dst32b => (0..70_000).map(|_| Cell::D32(rng.u32(..))).collect(),
            };
            for c in cells {
                let v = load(m, c, a);
                let pre = load_inverse(m, v, a).unwrap_or_else(|e| panic!("{m:?} {v:#x}: {e}"));
                assert_eq!(load(m, pre, a), v, "{m:?} {a:?} {c:?}");
            }
            // Values outside the image are rejected, never mapped to something else.
            for _ in 0..50_000 {
                let v = rng.u32(..);
                if let Ok(pre) = load_inverse(m, v, a) {
                    assert_eq!(load(m, pre, a), v, "{m:?} {a:?} {v:#x}");
                }
            }
        }
    }
    assert!(load_inverse(Mod0::Bf16, 0x3F80_0001, Arch::Wh).is_err());
    assert!(load_inverse(Mod0::Fp16, 0x7F80_0000, Arch::Wh).is_err()); // exponent 255
    assert!(load_inverse(Mod0::Uint16, 0x1_0000, Arch::Wh).is_err());
    assert!(load_inverse(Mod0::Int32Sm, 0x8000_0000, Arch::Wh).is_err());
    assert!(load_inverse(Mod0::Int32Sm, 0x8000_0000, Arch::Bh).is_ok());
    assert!(load_inverse(Mod0::Int8, 0x80, Arch::Wh).is_err());
    assert!(load_inverse(Mod0::Int8, 0x80, Arch::Bh).is_ok());
    assert!(load_inverse(Mod0::Lo16Only, 1, Arch::Bh).is_err());
}

#[test]
fn data_format_table() {
    // SEED-F §6 codes and §8 tile sizes (32×32, no header).
    let table: [(u8, &str, usize); 14] = [
        (0, "Float32", 4096),
        (1, "Float16", 2048),
        (2, "Bfp8", 1088),
        (3, "Bfp4", 576),
        (4, "Tf32", 4096),
        (5, "Float16_b", 2048),
        (6, "Bfp8_b", 1088),
        (7, "Bfp4_b", 576),
        (8, "Int32", 4096),
        (9, "UInt16", 2048),
        (10, "Lf8", 1024),
        (11, "Bfp2", 320),
        (14, "Int8", 1024),
        (15, "Bfp2_b", 320),
    ];
    for (code, name, bytes) in table {
        let f = DataFormat::from_code(code).unwrap();
        assert_eq!(f.code(), code);
        assert_eq!(f.name(), name);
        assert_eq!(f.tile_bytes(), bytes, "{name}");
    }
    use pto_runtime::tensix::formats::ExtraFormat;
    for (f, name, bytes) in [
        (ExtraFormat::UInt32, "UInt32", 4096),
        (ExtraFormat::UInt8, "UInt8", 1024),
        (ExtraFormat::Fp8E4m3, "Fp8_e4m3", 1024),
    ] {
        assert_eq!((f.name(), f.tile_bytes()), (name, bytes));
    }
    for code in [12u8, 13, 16, 255] {
        assert_eq!(
            DataFormat::from_code(code),
            Err(FormatError::ReservedFormat(code))
        );
    }
}

#[test]
fn bf16_rtz_and_rtne() {
    // RTZ is the seed's `bits >> 16`.
    assert_eq!(fp32_to_bf16(0x3F80_FFFF, Bf16Rounding::Rtz), Ok(0x3F80));
    // RTNE: below half, half to even (down), half to even (up), above half.
    assert_eq!(fp32_to_bf16(0x3F80_7FFF, Bf16Rounding::Rtne), Ok(0x3F80));
    assert_eq!(fp32_to_bf16(0x3F80_8000, Bf16Rounding::Rtne), Ok(0x3F80));
    assert_eq!(fp32_to_bf16(0x3F81_8000, Bf16Rounding::Rtne), Ok(0x3F82));
    assert_eq!(fp32_to_bf16(0x3F80_8001, Bf16Rounding::Rtne), Ok(0x3F81));
    // Carry into the exponent and overflow to Inf; Inf stays Inf; -0 stays -0.
    assert_eq!(fp32_to_bf16(0x3FFF_8000, Bf16Rounding::Rtne), Ok(0x4000));
    assert_eq!(fp32_to_bf16(0x7F7F_8000, Bf16Rounding::Rtne), Ok(0x7F80));
    assert_eq!(fp32_to_bf16(0xFF80_0000, Bf16Rounding::Rtne), Ok(0xFF80));
    assert_eq!(fp32_to_bf16(0x8000_0000, Bf16Rounding::Rtne), Ok(0x8000));
    // NaN under RTNE is not defined by the seed.
    assert!(fp32_to_bf16(0x7FFF_FFFF, Bf16Rounding::Rtne).is_err());
    assert_eq!(fp32_to_bf16(0x7FFF_FFFF, Bf16Rounding::Rtz), Ok(0x7FFF));
    // RTNE agrees with an independent nearest-even computation on random finite inputs.
    let mut rng = fastrand::Rng::with_seed(5);
    for _ in 0..200_000 {
        let x = rng.u32(..);
        if x & 0x7F80_0000 == 0x7F80_0000 {
            continue;
        }
        let lo = f64::from(f32::from_bits(bf16_to_fp32((x >> 16) as u16)));
        // The next bf16 up in magnitude (may be Inf).
        let hi_bits = ((x >> 16) + 1) << 16;
        // Rounding past the largest finite value goes to Inf: measure it as ±2^128.
        let hi = if hi_bits & 0x7F80_0000 == 0x7F80_0000 {
            lo.signum() * 2f64.powi(128)
        } else {
            f64::from(f32::from_bits(hi_bits))
        };
        let v = f64::from(f32::from_bits(x));
        let (dl, dh) = ((v - lo).abs(), (hi - v).abs());
        let want = if dl < dh || (dl == dh && (x >> 16) & 1 == 0) {
            x >> 16
        } else {
            (x >> 16) + 1
        };
        assert_eq!(
            u32::from(fp32_to_bf16(x, Bf16Rounding::Rtne).unwrap()),
            want,
            "{x:#x}"
        );
    }
    assert_eq!(fp32_to_tf32(0x3F80_1FFF), 0x3F80_0000);
    assert_eq!(fp32_to_tf32(0xFFFF_FFFF), 0xFFFF_E000);
}

fn fp16_value(h: u16) -> f64 {
    // Tensix FP16: exponent 31 is finite; subnormals m·2^-24.
    let s = if h >> 15 == 1 { -1.0 } else { 1.0 };
    let e = i32::from((h >> 10) & 31);
    let m = f64::from(h & 0x3FF);
    if e == 0 {
        s * m * 2f64.powi(-24)
    } else {
        s * (1.0 + m / 1024.0) * 2f64.powi(e - 15)
    }
}

#[test]
fn fp16_tensix_scalar_exhaustive() {
    for h in 0..=u16::MAX {
        let f = fp16_tensix_to_fp32(h);
        let want = fp16_value(h);
        assert_eq!(f64::from(f32::from_bits(f)), want, "{h:#06x}");
        assert_eq!(f >> 31, u32::from(h >> 15), "sign of {h:#06x}");
        // Normals (incl. exponent 31) round-trip; subnormals flush to signed zero.
        let back = fp32_to_fp16_tensix(f);
        if (h >> 10) & 31 != 0 {
            assert_eq!(back, h);
        } else {
            assert_eq!(back, h & 0x8000);
        }
    }
    assert_eq!(f32::from_bits(fp16_tensix_to_fp32(0x7FFF)), 131008.0);
    assert_eq!(f32::from_bits(fp16_tensix_to_fp32(0x0001)), 2f32.powi(-24));
}

#[test]
fn sign_magnitude_helpers() {
    assert_eq!(int_to_sign_mag(-5, 32), Ok(0x8000_0005));
    assert_eq!(int_to_sign_mag(5, 32), Ok(5));
    assert_eq!(int_to_sign_mag(-(1 << 31), 32), Ok(0x8000_0000));
    assert!(int_to_sign_mag(1 << 31, 32).is_err());
    assert!(int_to_sign_mag(0, 33).is_err());
    assert_eq!(sign_mag_to_int(0x8000_0000, 32), Ok(0));
    assert_eq!(sign_mag_to_int(0x8000_0005, 32), Ok(-5));
    assert!(sign_mag_to_int(0x1_0000, 16).is_err());
    // 16-bit: exhaustive round trip over the representable range.
    for v in -(1i64 << 15)..(1i64 << 15) {
        let p = int_to_sign_mag(v, 16).unwrap();
        let back = sign_mag_to_int(p, 16).unwrap();
        assert_eq!(back, if v == -(1 << 15) { 0 } else { v });
    }
    // SFPCAST two's ↔ sign-magnitude: −0 → INT_MIN, INT_MIN → −0, an involution.
    assert_eq!(sfpcast_sm_twos(0x8000_0000), 0x8000_0000);
    assert_eq!(sfpcast_sm_twos(0xFFFF_FFFF), 0x8000_0001);
    assert_eq!(sfpcast_sm_twos(0x8000_0001), 0xFFFF_FFFF);
    assert_eq!(sfpcast_sm_twos(7), 7);
    let mut rng = fastrand::Rng::with_seed(9);
    for _ in 0..100_000 {
        let x = rng.u32(..);
        assert_eq!(sfpcast_sm_twos(sfpcast_sm_twos(x)), x);
    }
    assert_eq!(sfpcast_int_abs_bh((-9i32) as u32), 9);
    assert_eq!(sfpcast_int_abs_bh(0x8000_0000), 0x8000_0000);
}

#[test]
fn src_register_cell() {
    // SEED-F §1 worked layout: 1.0 → sign 0, man 0, exp 0x7F; TF32 fits exactly.
    assert_eq!(src_from_ieee(0x3F80_0000), 0x7F);
    assert_eq!(src_from_ieee(0xBFC0_0000), (1 << 18) | (0x200 << 8) | 0x7F);
    for c in 0..(1u32 << 19) {
        let ieee = src_to_ieee(c).unwrap();
        assert_eq!(ieee & 0x1FFF, 0);
        assert_eq!(src_from_ieee(ieee), c);
    }
    assert!(src_to_ieee(1 << 19).is_err());
    let mut rng = fastrand::Rng::with_seed(1);
    for _ in 0..100_000 {
        let x = rng.u32(..);
        assert_eq!(src_to_ieee(src_from_ieee(x)).unwrap(), fp32_to_tf32(x));
    }
}

#[test]
fn store_preimage_inverts_stores() {
    use pto_runtime::tensix::formats::store_preimage;
    let modes: Vec<Mod0> = Mod0::ALL.into_iter().filter(|m| *m != Mod0::SrcB).collect();
    for a in ARCHES {
        for &m in &modes {
            // Every cell with a preimage stores back to itself (16-bit cells exhaustively).
            if m.store_view() == Some(View::Dst16b) {
                for c in 0..=u16::MAX {
                    if let Ok(x) = store_preimage(m, Cell::D16(c), a) {
                        assert_eq!(store(m, x, a), Cell::D16(c), "{m:?} {a:?} {c:#06x}");
                    }
                }
            }
            // Every stored cell has a preimage that stores to it.
            let mut rng = fastrand::Rng::with_seed(u64::from(m.bits()) + 100);
            for _ in 0..50_000 {
                let x = rng.u32(..);
                let cell = store(m, x, a);
                let pre =
                    store_preimage(m, cell, a).unwrap_or_else(|e| panic!("{m:?} {x:#x}: {e}"));
                assert_eq!(store(m, pre, a), cell, "{m:?} {a:?} {x:#x}");
            }
        }
    }
    let wh = Arch::Wh;
    // Cells no store produces.
    assert!(store_preimage(Mod0::Bf16, Cell::D16(shuf16(0x0001)), wh).is_err());
    assert!(store_preimage(Mod0::Fp16, Cell::D16(shuf_fp16(0x0001)), wh).is_err());
    assert!(store_preimage(Mod0::Fp32, Cell::D32(shuf32(0x8000_0001)), wh).is_err());
    assert!(store_preimage(Mod0::Int8, Cell::D16(0), wh).is_err());
    // Canonical values: truncated bits zero; FP16 huge cell → 131008.0; WH "−0" → INT_MIN.
    assert_eq!(
        store_preimage(Mod0::Fp16, Cell::D16(0x7FFF), wh),
        Ok(0x47FF_E000)
    );
    assert_eq!(
        store_preimage(Mod0::Int32Sm, Cell::D32(shuf32(0x8000_0000)), wh),
        Ok(0x8000_0000)
    );
    assert_eq!(
        store_preimage(Mod0::Lo16, Cell::D32(0x5678_1234), wh),
        Ok(0x1234_5678)
    );
    assert!(matches!(
        store_preimage(Mod0::Fp32, Cell::D16(0), wh),
        Err(FormatError::ViewMismatch { .. })
    ));
}
