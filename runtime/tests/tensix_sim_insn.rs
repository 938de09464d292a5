//! Per-instruction simulator tests derived from the ISA pages' functional models (tensix.md §1–§2),
//! including lane enables, flags and the flag stack.

use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim::{Machine, SimError, LANES};

mod tensix_common;
use tensix_common::*;

#[test]
fn reset_state_and_constants() {
    for arch in BOTH {
        let m = Machine::new(arch);
        assert_eq!(reg(&m, 8), [0x3F56_594B; LANES]);
        assert_eq!(reg(&m, 9), [0; LANES]);
        assert_eq!(reg(&m, 10), [0x3F80_0000; LANES]);
        assert_eq!(reg(&m, 15), lanes(|l| 2 * l as u32));
        assert_eq!(
            m.lane_enabled(),
            !0,
            "UseLaneFlags starts false: all lanes enabled"
        );
        let mut m = Machine::new(arch);
        let e = exec(&mut m, "sfpmov 0, L0, L1, 0").expect_err("uninitialised");
        assert!(matches!(
            e,
            SimError::Uninitialised {
                reg: 0,
                lanes: 0xFFFF_FFFF,
                ..
            }
        ));
        let e = exec(&mut m, "sfpmov 0, L12, L1, 0").expect_err("L12 unconfigured");
        assert!(matches!(e, SimError::Uninitialised { reg: 12, .. }));
    }
}

#[test]
fn sfploadi_modes() {
    for arch in BOTH {
        let m = run(
            arch,
            &[(3, [0x1234_5678; LANES])],
            "
            sfploadi L0, FLOATB, 0xbf80
            sfploadi L1, FLOATA, 0x3c00
            sfploadi L2, USHORT, 0xffff
            sfploadi L4, SHORT, 0xfffe
            sfploadi L3, UPPER, 0xabcd
            sfploadi L5, SHORT, 7
            sfploadi L5, LOWER, 0x1111",
        );
        assert_eq!(reg(&m, 0)[0], 0xBF80_0000);
        assert_eq!(reg(&m, 1)[5], 0x3F80_0000);
        assert_eq!(reg(&m, 2)[9], 0x0000_FFFF);
        assert_eq!(reg(&m, 4)[31], 0xFFFF_FFFE);
        assert_eq!(reg(&m, 3)[1], 0xABCD_5678);
        assert_eq!(reg(&m, 5)[2], 0x0000_1111);
        // FLOATA has no special cases: fp16 0x7c00 (Inf) becomes 2^16 (exponent 31 + 112).
        let m = run(arch, &[], "sfploadi L0, FLOATA, 0x7c00");
        assert_eq!(reg(&m, 0)[0], 0x4780_0000);
        let mut m = machine(arch, true);
        let e = exec(&mut m, "sfploadi L0, 3, 0").expect_err("ub");
        assert!(matches!(e, SimError::Undefined { .. }));
    }
}

#[test]
fn sfpiadd_arithmetic_and_flags() {
    for arch in BOTH {
        let a = lanes(|l| l as u32);
        let m = run(arch, &[(0, a)], "sfpiadd -5, L0, L1, IMM");
        assert_eq!(reg(&m, 1), lanes(|l| (l as u32).wrapping_sub(5)));
        assert_eq!(m.lane_flags(), 0x1F, "CC_LT0: flag = result < 0");
        // NEG: d = c - d; CC_GTE0.
        let m = run(
            arch,
            &[(0, a), (1, [10; LANES])],
            "sfpiadd 0, L0, L1, NEG|CC_GTE0",
        );
        assert_eq!(reg(&m, 1), lanes(|l| (l as u32).wrapping_sub(10)));
        assert_eq!(m.lane_flags(), !0x3FF);
        // CC_NONE leaves flags.
        let m = run(arch, &[(0, a), (1, a)], "sfpiadd 0, L0, L1, CC_NONE");
        assert_eq!(reg(&m, 1), lanes(|l| 2 * l as u32));
        assert_eq!(m.lane_flags(), !0);
        // Narrowing: flag writes happen only in enabled lanes; disabled lanes keep values.
        let m = run(
            arch,
            &[(0, a)],
            "
            sfpiadd -16, L0, L1, IMM          ; lanes 0..15 negative → enabled
            sfpiadd 100, L0, L1, IMM|CC_NONE  ; only lanes 0..15 written",
        );
        assert_eq!(
            reg(&m, 1),
            lanes(|l| if l < 16 {
                l as u32 + 100
            } else {
                l as u32 - 16
            })
        );
        // Strict: Mod1 with both argument bits is unmodelled.
        let mut m = machine(arch, true);
        m.set_lreg(0, a);
        let e = exec(&mut m, "sfpiadd 1, L0, L0, 3").expect_err("mod1 3");
        assert!(matches!(e, SimError::Unmodelled { .. }));
    }
}

#[test]
fn sfpexexp_sfpexman() {
    for arch in BOTH {
        let x = [0x4000_0000u32, 0x3F00_0000, 0x0000_0001, 0xFF80_0000];
        let v = lanes(|l| x[l % 4]);
        let m = run(
            arch,
            &[(0, v)],
            "
            sfpexexp 0, L0, L1, 0
            sfpexexp 0, L0, L2, NODEBIAS
            sfpexman 0, L0, L3, 0
            sfpexman 0, L0, L4, PAD9
            sfpexexp 0, L0, L5, CC_SGN|CC_COMP",
        );
        assert_eq!(
            &reg(&m, 1)[..4],
            &[1, (-1i32) as u32, (-127i32) as u32, 128]
        );
        assert_eq!(&reg(&m, 2)[..4], &[128, 126, 0, 255]);
        assert_eq!(
            &reg(&m, 3)[..4],
            &[0x80_0000, 0x80_0000, 0x80_0001, 0x80_0000]
        );
        assert_eq!(&reg(&m, 4)[..4], &[0, 0, 1, 0]);
        assert_eq!(
            m.lane_flags(),
            lanes(|l| u32::from(l % 4 == 0 || l % 4 == 3))
                .iter()
                .enumerate()
                .fold(0, |a, (l, &b)| a | b << l)
        );
    }
}

#[test]
fn sfpshft_logical_arithmetic() {
    for arch in BOTH {
        let v = [0x8000_00F0u32; LANES];
        let amt = lanes(|l| (l as i32 - 16) as u32);
        let m = run(
            arch,
            &[(0, v), (1, amt), (2, v), (3, v)],
            "
            sfpshft 0, L1, L0, 0
            sfpshft -4, L0, L2, IMM
            sfpshft 36, L0, L3, IMM",
        );
        for l in 0..LANES {
            let a = l as i32 - 16;
            let want = if a >= 0 {
                0x8000_00F0u32 << (a & 31)
            } else {
                0x8000_00F0u32 >> ((-a) & 31)
            };
            assert_eq!(reg(&m, 0)[l], want);
        }
        assert_eq!(reg(&m, 2)[0], 0x0800_000F);
        assert_eq!(reg(&m, 3)[0], 0x0000_0F00, "amount & 31");
    }
    let m = run(
        Arch::Bh,
        &[(0, [0x8000_00F0; LANES]), (1, [3; LANES])],
        "
        sfpshft -4, L0, L0, IMM|ARITHMETIC
        sfpshft 2, L1, L2, IMM|IMM_USE_VC",
    );
    assert_eq!(reg(&m, 0)[0], 0xF800_000F);
    assert_eq!(reg(&m, 2)[0], 12);
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, [1; LANES]);
    assert!(matches!(
        exec(&mut m, "sfpshft -4, L0, L0, 3"),
        Err(SimError::NonContractual { .. })
    ));
}

#[test]
fn sfpabs_sfpsetsgn_sfpsetexp_sfpsetman_sfpdivp2() {
    for arch in BOTH {
        let x = [
            0xFF80_0000u32,
            0xFFC0_0001,
            0x8000_0000,
            0xBF80_0000,
            0x8000_0000,
            0xFFFF_FFFB,
        ];
        let v = lanes(|l| x[l % 6]);
        let m = run(
            arch,
            &[(0, v)],
            "sfpabs 0, L0, L1, FLOAT\nsfpabs 0, L0, L2, 0",
        );
        // D3: -Inf → +Inf (TTSIM), -NaN keeps its sign; INT_MIN stays INT_MIN.
        assert_eq!(
            &reg(&m, 1)[..6],
            &[0x7F80_0000, 0xFFC0_0001, 0, 0x3F80_0000, 0, 0xFFFF_FFFB]
        );
        assert_eq!(
            &reg(&m, 2)[..6],
            &[
                0x0080_0000,
                0x003F_FFFF,
                0x8000_0000,
                0x4080_0000,
                0x8000_0000,
                5
            ]
        );
        let m = run(
            arch,
            &[(0, [0x3FC0_0000; LANES]), (1, [0x8000_0000 | 130; LANES])],
            "
            sfpsetsgn 1, L0, L2, ARG_IMM
            sfpmov 0, L1, L3, 0
            sfpsetsgn 0, L0, L3, 0
            sfpmov 0, L1, L4, 0
            sfpsetexp 0, L0, L4, 0
            sfpmov 0, L1, L5, 0
            sfpsetexp 0, L0, L5, ARG_EXPONENT
            sfpsetexp 100, L0, L6, ARG_IMM
            sfpmov 0, L1, L7, 0
            sfpsetman 0, L0, L7, 0",
        );
        assert_eq!(reg(&m, 2)[0], 0xBFC0_0000);
        assert_eq!(reg(&m, 3)[0], 0xBFC0_0000);
        assert_eq!(reg(&m, 4)[0], (130 << 23) | 0x40_0000);
        assert_eq!(
            reg(&m, 5)[0],
            0x0040_0000,
            "exponent field of 0x80000082 is 0"
        );
        assert_eq!(reg(&m, 6)[0], (100 << 23) | 0x40_0000);
        assert_eq!(reg(&m, 7)[0], 0x3F80_0082);
        let m = run(
            arch,
            &[(0, lanes(|l| [0x3F80_0000, 0x7F80_0000, 0x7F00_0000][l % 3]))],
            "
            sfpdivp2 3, L0, L1, ADD
            sfpdivp2 -1, L0, L2, ADD
            sfpdivp2 5, L0, L3, 0",
        );
        assert_eq!(
            &reg(&m, 1)[..3],
            &[0x4100_0000, 0x7F80_0000, 0x0080_0000],
            "wraps mod 256, Inf kept"
        );
        assert_eq!(&reg(&m, 2)[..3], &[0x3F00_0000, 0x7F80_0000, 0x7E80_0000]);
        assert_eq!(reg(&m, 3)[0], 5 << 23);
    }
}

#[test]
fn bitwise_lz_mov() {
    for arch in BOTH {
        let a = lanes(|l| 0xF0F0_0000 | l as u32);
        let b = [0x0FF0_00FF; LANES];
        let m = run(
            arch,
            &[(0, a), (1, b), (2, b), (3, b), (4, b)],
            "
            sfpand 0, L0, L1, 0
            sfpor 0, L0, L2, 0
            sfpxor 0, L0, L3, 0
            sfpnot 0, L0, L4, 0
            sfplz 0, L0, L5, 0
            sfplz 0, L9, L6, 0
            sfplz 0, L0, L7, NOSGN",
        );
        assert_eq!(reg(&m, 1)[3], 0x00F0_0003);
        assert_eq!(reg(&m, 2)[3], 0xFFF0_00FF);
        assert_eq!(reg(&m, 3)[3], 0xFF00_00FC);
        assert_eq!(reg(&m, 4)[3], !0xF0F0_0003);
        assert_eq!(reg(&m, 5)[3], 0);
        assert_eq!(reg(&m, 6)[3], 32);
        assert_eq!(reg(&m, 7)[3], 1);
        // SFPMOV: negate; mode 2 writes every lane regardless of enables.
        let m = run(
            arch,
            &[(0, a), (1, [7; LANES])],
            "
            sfpmov 0, L0, L2, NEGATE
            sfpsetcc 0, L15, 0, LREG_EQ0      ; only lane 0 enabled
            sfpmov 0, L0, L1, 0
            sfpmov 0, L0, L3, ALL_LANES",
        );
        assert_eq!(reg(&m, 2)[1], 0x70F0_0001);
        assert_eq!(reg(&m, 1), lanes(|l| if l == 0 { a[0] } else { 7 }));
        assert_eq!(reg(&m, 3), a);
    }
    // BH USE_VB; WH rejects it.
    let m = run(
        Arch::Bh,
        &[(0, [0xFF; LANES]), (1, [0x0F; LANES]), (2, [0; LANES])],
        "sfpand L1, L0, L2, USE_VB",
    );
    assert_eq!(reg(&m, 2)[0], 0x0F);
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, [1; LANES]);
    assert!(exec(&mut m, "sfpand 1, L0, L0, USE_VB").is_err());
}

#[test]
fn sfpcast_sign_magnitude_and_rne() {
    let x = [
        0u32,
        0x8000_0000,
        5,
        0x8000_0005,
        (1 << 24) + 1,
        (1 << 24) + 3,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
    ];
    let want = [
        0u32,
        0x8000_0000,
        0x40A0_0000,
        0xC0A0_0000,
        0x4B80_0000,
        0x4B80_0002,
        0x4F00_0000,
        0xCF00_0000,
    ];
    for arch in BOTH {
        let m = run(arch, &[(0, lanes(|l| x[l % 8]))], "sfpcast L0, L1, 0");
        assert_eq!(&reg(&m, 1)[..8], &want, "{arch:?}");
        // Exhaustive-ish: every magnitude below 2^25 in steps, vs host RNE conversion.
        let mut mm = machine(arch, true);
        for base in (0..(1u32 << 25)).step_by(32 * 997) {
            mm.set_lreg(0, lanes(|l| base + l as u32));
            exec(&mut mm, "sfpcast L0, L1, 0").expect("cast");
            for l in 0..LANES {
                assert_eq!(reg(&mm, 1)[l], ((base + l as u32) as f32).to_bits());
            }
        }
    }
    // BH mode 3: two's complement ↔ sign-magnitude; INT_MIN ↔ 0x80000000.
    let m = run(
        Arch::Bh,
        &[(
            0,
            lanes(|l| [0xFFFF_FFFB, 5, 0x8000_0000, 0x8000_0005][l % 4]),
        )],
        "sfpcast L0, L1, INT32_SM32",
    );
    assert_eq!(
        &reg(&m, 1)[..4],
        &[0x8000_0005, 5, 0x8000_0000, 0xFFFF_FFFB]
    );
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, [1; LANES]);
    assert!(matches!(
        exec(&mut m, "sfpcast L0, L1, INT32_SM32"),
        Err(SimError::NonContractual { .. })
    ));
    assert!(matches!(
        exec(&mut m, "sfpcast L0, L1, RND_STOCH"),
        Err(SimError::Unmodelled { .. })
    ));
}

#[test]
fn sfpstochrnd_nearest_families() {
    let f = |x: f32| x.to_bits();
    let x = [
        0x3F80_8000, // 1 + 2^-8
        f(1.0117188),
        0x7FC0_0000,
        0xFFC0_0001,
        0x8000_0000,
        0x0000_1234,
        f(-3.7),
        f(65535.5),
        f(2.5),
        f(0.49),
        f(-2.5),
        f(1e9),
    ];
    for arch in BOTH {
        let v = lanes(|l| x[l % x.len()]);
        let m = run(
            arch,
            &[(0, v)],
            "
            sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_FP16B
            sfpstochrnd 0, 0, L0, L0, L2, FP32_TO_UINT16
            sfpstochrnd 0, 0, L0, L0, L3, FP32_TO_INT16
            sfpstochrnd 0, 0, L0, L0, L4, FP32_TO_FP16A",
        );
        let r1 = &reg(&m, 1)[..12];
        // Ties away from zero at 16 dropped bits; NaN → ±Inf; −0 and denormals → +0.
        assert_eq!(r1[0], 0x3F81_0000);
        assert_eq!(r1[1], 0x3F82_0000);
        assert_eq!(
            (r1[2], r1[3], r1[4], r1[5]),
            (0x7F80_0000, 0xFF80_0000, 0, 0)
        );
        let r2 = &reg(&m, 2)[..12];
        assert_eq!(
            (r2[6], r2[7], r2[8], r2[9], r2[10], r2[2], r2[3]),
            (4, 65535, 3, 0, 3, 65535, 65535)
        );
        let r3 = &reg(&m, 3)[..12];
        assert_eq!(
            (r3[6], r3[8], r3[10], r3[11], r3[3]),
            (0x8000_0004, 3, 0x8000_0003, 32767, 0x8000_7FFF)
        );
        let r4 = &reg(&m, 4)[..12];
        assert_eq!(r4[0], 0x3F80_8000, "fp16a keeps 10 bits: 1.00390625 exact");
        // Strict mode rejects stochastic rounding.
        let mut mm = machine(arch, true);
        mm.set_lreg(0, v);
        assert!(exec(&mut mm, "sfpstochrnd 1, 0, L0, L0, L1, FP32_TO_FP16B").is_err());
    }
}

#[test]
fn sfpswap_modes_and_write_rule() {
    let c = [0x3F80_0000u32, 0x8000_0000, 0xFFC0_0000, 0x7F80_0000];
    let d = [0x4000_0000u32, 0x0000_0000, 0xFF80_0000, 0x7FC0_0000];
    for arch in BOTH {
        let (vc, vd) = (lanes(|l| c[l % 4]), lanes(|l| d[l % 4]));
        let m = run(arch, &[(0, vc), (1, vd)], "sfpswap 0, L0, L1, SWAP");
        assert_eq!((reg(&m, 0), reg(&m, 1)), (vd, vc));
        let m = run(arch, &[(0, vc), (1, vd)], "sfpswap 0, L0, L1, MIN_MAX");
        // VD = min, VC = max in the sign-magnitude order (-NaN < -Inf < -0 < +0 < ... < +NaN).
        assert_eq!(
            &reg(&m, 1)[..4],
            &[0x3F80_0000, 0x8000_0000, 0xFFC0_0000, 0x7F80_0000]
        );
        assert_eq!(
            &reg(&m, 0)[..4],
            &[0x4000_0000, 0x0000_0000, 0xFF80_0000, 0x7FC0_0000]
        );
        let m = run(arch, &[(0, vc), (1, vd)], "sfpswap 0, L0, L1, MAX_MIN");
        assert_eq!(
            &reg(&m, 1)[..4],
            &[0x4000_0000, 0x0000_0000, 0xFF80_0000, 0x7FC0_0000]
        );
        // max(v, 0) with VC = L9: the "min" half is dropped (write rule).
        let m = run(arch, &[(1, vd)], "sfpswap 0, L9, L1, MAX_MIN");
        assert_eq!(&reg(&m, 1)[..4], &[0x4000_0000, 0, 0, 0x7FC0_0000]);
        assert_eq!(reg(&m, 9), [0; LANES]);
        let mut mm = machine(arch, true);
        mm.set_lreg(0, vc);
        mm.set_lreg(1, vd);
        assert!(matches!(
            exec(&mut mm, "sfpswap 0, L0, L1, 15"),
            Err(SimError::NonContractual { .. })
        ));
    }
}

#[test]
fn sfpshft2_modes() {
    for arch in BOTH {
        let v = lanes(|l| 100 + l as u32);
        // SHFT_IMM with VB = Imm12 & 15 = 1 (Imm12 = -15 = 0xFF1): L1 >> 15.
        let m = run(
            arch,
            &[(1, [0xF_0000; LANES])],
            "sfpshft2 -15, 0, L4, SHFT_IMM",
        );
        assert_eq!(reg(&m, 4), [0x1E; LANES]);
        let m2 = run(
            arch,
            &[
                (0, v),
                (1, [0xF0; LANES]),
                (2, lanes(|l| (l as i32 - 4) as u32)),
            ],
            "sfpshft2 1, L2, L3, SHFT_LREG",
        );
        for l in 0..LANES {
            let a = l as i32 - 4;
            let w = if a >= 0 { 0xF0u32 << a } else { 0xF0 >> -a };
            assert_eq!(reg(&m2, 3)[l], w);
        }
        // SHFT_IMM: VB = Imm12 & 15 = 12 (-4 = 0xFFC) → L12 is read; unconfigured → error.
        let mut mm = machine(arch, true);
        mm.set_lreg(0, v);
        assert!(matches!(
            exec(&mut mm, "sfpshft2 -4, 0, L4, SHFT_IMM"),
            Err(SimError::Uninitialised { reg: 12, .. })
        ));
        let m = run(arch, &[(0, v)], "sfpshft2 0, L0, L5, SHFLROR1");
        assert_eq!(
            reg(&m, 5),
            lanes(|l| if l % 8 == 0 {
                100 + l as u32 + 7
            } else {
                100 + l as u32 - 1
            })
        );
    }
    let m = run(
        Arch::Bh,
        &[(0, lanes(|l| 100 + l as u32))],
        "sfpshft2 0, L0, L5, SHFLSHR1",
    );
    assert_eq!(
        reg(&m, 5),
        lanes(|l| if l % 8 == 0 { 0 } else { 99 + l as u32 })
    );
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, [1; LANES]);
    assert!(matches!(
        exec(&mut m, "sfpshft2 0, L0, L5, SHFLSHR1"),
        Err(SimError::Unmodelled { .. })
    ));
}

#[test]
fn sfpgt_sfple_blackhole() {
    let c = lanes(|l| [0u32, 0x8000_0000, 5, 0xBF80_0000][l % 4]);
    let d = lanes(|l| [0x8000_0000u32, 0, 5, 0x3F80_0000][l % 4]);
    let m = run(
        Arch::Bh,
        &[(0, c), (1, d), (2, d)],
        "sfpgt 0, L0, L1, SET_VD\nsfple 0, L0, L2, SET_VD",
    );
    assert_eq!(&reg(&m, 1)[..4], &[0, !0, 0, !0]);
    assert_eq!(&reg(&m, 2)[..4], &[!0, 0, !0, 0]);
    let m = run(Arch::Bh, &[(0, c), (1, d)], "sfpgt 0, L0, L1, SET_CC");
    assert_eq!(m.lane_flags() & 0xF, 0b1010);
}
