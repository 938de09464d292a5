//! SFPMAD numerics (tensix.md §3; ISA `Miscellaneous/FMA/README.md` properties).

use pto_runtime::tensix::sim::fma::{fma_bh, fma_wh};

const ONE: u32 = 0x3F80_0000;

fn normal(x: f32) -> bool {
    x.is_normal()
}

#[test]
fn multiply_by_one_is_a_correctly_rounded_add() {
    let mut rng = fastrand::Rng::with_seed(10);
    let mut checked = 0;
    for _ in 0..2_000_000 {
        let (a, b) = (rng.u32(..), rng.u32(..));
        let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));
        let want = fa + fb;
        if !(normal(fa) && normal(fb) && normal(want)) {
            continue;
        }
        checked += 1;
        assert_eq!(fma_bh(a, ONE, b), want.to_bits(), "bh {a:#x} + {b:#x}");
        assert_eq!(fma_wh(a, ONE, b), want.to_bits(), "wh {a:#x} + {b:#x}");
    }
    assert!(checked > 500_000);
}

#[test]
fn adding_zero_is_a_correctly_rounded_multiply() {
    let mut rng = fastrand::Rng::with_seed(11);
    let mut checked = 0;
    for _ in 0..2_000_000 {
        // Exponents near the middle so products stay normal.
        let a = (rng.u32(..) & 0x807F_FFFF) | (rng.u32(64..190) << 23);
        let b = (rng.u32(..) & 0x807F_FFFF) | (rng.u32(64..190) << 23);
        let want = f32::from_bits(a) * f32::from_bits(b);
        if !normal(want) {
            continue;
        }
        checked += 1;
        assert_eq!(fma_bh(a, b, 0), want.to_bits(), "bh {a:#x} * {b:#x}");
        assert_eq!(fma_wh(a, b, 0), want.to_bits(), "wh {a:#x} * {b:#x}");
    }
    assert!(checked > 1_000_000);
}

#[test]
fn round_to_integer_via_two_adds_is_ties_to_even() {
    let big = 8_388_608.0f32.to_bits(); // 2^23
    let nbig = (-8_388_608.0f32).to_bits();
    // tensix.md §3: `x + 2^23 − 2^23` rounds non-negative x < 2^23 to an integer, ties to even.
    for (x, want) in [
        (2.5f32, 2.0f32),
        (3.5, 4.0),
        (0.5, 0.0),
        (1.5, 2.0),
        (7.25, 7.0),
        (1e6 + 0.5, 1e6),
    ] {
        for f in [fma_bh, fma_wh] {
            let t = f(x.to_bits(), ONE, big);
            let r = f(t, ONE, nbig);
            assert_eq!(f32::from_bits(r), want, "{x}");
        }
    }
}

#[test]
fn zeros_nans_and_infinities() {
    let neg0 = 0x8000_0000;
    // Exact zero sums: WH +0 always; BH z_sign & p_sign.
    assert_eq!(fma_wh(neg0, ONE, neg0), 0);
    assert_eq!(fma_bh(neg0, ONE, neg0), neg0);
    assert_eq!(fma_bh(ONE, ONE, 0xBF80_0000), 0);
    assert_eq!(fma_wh(0xBF80_0000, ONE, ONE), 0);
    // Denormal inputs are zero.
    assert_eq!(fma_bh(0x0000_0001, ONE, 0), 0);
    assert_eq!(fma_wh(0x0040_0000, ONE, 0), 0);
    // NaN: BH canonical; WH keeps at least 0x7F800001 (and can be negative).
    assert_eq!(fma_bh(0x7F80_0001, ONE, 0), 0x7FC0_0000);
    assert_eq!(fma_bh(0x7F80_0000, 0, 0), 0x7FC0_0000); // Inf * 0
    let n = fma_wh(0x7F80_0000, 0, 0);
    assert_eq!(n & 0x7F80_0001, 0x7F80_0001);
    let n = fma_wh(ONE, ONE, 0xFFC0_0000); // z = -NaN
    assert_eq!(n & 0xFF80_0001, 0xFF80_0001);
    // Inf - Inf.
    assert_eq!(fma_bh(0x7F80_0000, ONE, 0xFF80_0000), 0x7FC0_0000);
    // A finite product that overflows alone gives Inf even if z would bring it back (both),
    // and WH turns "finite overflow + opposite Inf" into NaN while BH returns the Inf.
    let big = 0x7F00_0000; // 2^127
    let four = 0x4080_0000;
    assert_eq!(fma_bh(big, four, 0xFF00_0000), 0x7F80_0000);
    assert_eq!(fma_wh(big, four, 0xFF00_0000), 0x7F80_0000);
    assert_eq!(fma_bh(big, four, 0xFF80_0000), 0xFF80_0000);
    let n = fma_wh(big, four, 0xFF80_0000);
    assert!(
        n & 0x7F80_0000 == 0x7F80_0000 && n & 0x7F_FFFF != 0,
        "{n:#x}"
    );
    // A product that underflows alone is treated as exactly zero: result is z.
    let tiny = 0x0D80_0000; // 2^-100
    assert_eq!(fma_bh(tiny, tiny, ONE), ONE);
    assert_eq!(fma_wh(tiny, tiny, ONE), ONE);
    assert_eq!(fma_wh(tiny, tiny, 0), 0);
    // Denormal results: BH flushes to signed zero after rounding, WH to +0.
    let min_normal_neg = 0x8080_0000; // -2^-126
    assert_eq!(fma_bh(min_normal_neg, 0x3F00_0000, 0), 0x8000_0000);
    assert_eq!(fma_wh(min_normal_neg, 0x3F00_0000, 0), 0);
}

#[test]
fn partly_fused_product_keeps_a_sticky_bit_that_cancellation_exposes() {
    // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 exactly. The product is narrowed to 27 bits plus a sticky
    // bit (README: "the sticky shift can be seen as a kind of round-to-odd"); after the
    // cancellation the sticky bit is shifted up as if it were value: 2^-22 + 2^-26. A fully fused
    // FMA and a separately rounded multiply-add both give 2^-22 (0x34800000).
    let x = 0x3F80_0001;
    assert_eq!(fma_bh(x, x, 0xBF80_0000), 0x3488_0000);
    assert_eq!(fma_wh(x, x, 0xBF80_0000), 0x3488_0000);
    let separate = f32::from_bits(x) * f32::from_bits(x) - 1.0;
    assert_eq!(separate.to_bits(), 0x3480_0000);
    assert_eq!(
        f32::from_bits(x).mul_add(f32::from_bits(x), -1.0).to_bits(),
        0x3480_0000
    );
}

#[test]
fn total_over_random_and_special_operands() {
    // Overflow checks are on in the test profile: any arithmetic slip would panic here.
    let specials = [
        0u32,
        0x8000_0000,
        1,
        0x007F_FFFF,
        0x0080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7FC0_0000,
        0x7F80_0001,
        0x3F80_0000,
        0x0D80_0000,
        0x7F00_0000,
    ];
    for &x in &specials {
        for &y in &specials {
            for &z in &specials {
                let _ = (fma_bh(x, y, z), fma_wh(x, y, z));
            }
        }
    }
    let mut rng = fastrand::Rng::with_seed(13);
    for _ in 0..4_000_000 {
        let (x, y, z) = (rng.u32(..), rng.u32(..), rng.u32(..));
        let b = fma_bh(x, y, z);
        let w = fma_wh(x, y, z);
        // BH NaNs are canonical; WH NaNs have the low mantissa bit set.
        if (b & 0x7FFF_FFFF) > 0x7F80_0000 {
            assert_eq!(b, 0x7FC0_0000);
        }
        if (w & 0x7FFF_FFFF) > 0x7F80_0000 {
            assert_eq!(w & 0x7F80_0001, 0x7F80_0001);
        }
    }
}
