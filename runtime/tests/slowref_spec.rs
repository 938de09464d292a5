//! Pins the slow reference (`slowref`) to semantics.md itself: every worked example of §2.3–§2.5
//! and §4 is checked here against the reference only (not against the numeric core), plus
//! self-consistency of its format tables (decode/encode round trips, HiF8 table order, the
//! widening pair list by brute force).

mod slowref;

use num_rational::BigRational;
use num_traits::ToPrimitive;
use pto_runtime::{ElemType, NonSatPath, Rounding};
use slowref::*;

use ElemType::*;
use NonSatPath::{Native, Torch, X86};
use Rounding::*;

fn f32b(x: f32) -> u64 {
    x.to_bits() as u64
}

fn f16b(x: f32) -> u64 {
    // Only used for values exactly representable in f16 (checked).
    let bits = (0u64..=0xFFFF)
        .find(|&b| match decode(F16, b) {
            Exact::Finite { neg, mag } => {
                let v = mag.to_f64().unwrap_or(f64::NAN);
                (if neg { -v } else { v }) == x as f64 && (neg == x.is_sign_negative())
            }
            _ => false,
        })
        .unwrap_or_else(|| panic!("{x} is not an f16 value"));
    bits
}

/// Shorthand: the reference's bits for one conversion.
fn r(src: ElemType, dst: ElemType, m: Rounding, sat: bool, p: NonSatPath, bits: u64) -> u64 {
    convert(src, dst, m, sat, p, bits).bits
}

fn sext(bits: u64, n: u32) -> i64 {
    ((bits << (64 - n)) as i64) >> (64 - n)
}

#[test]
fn s4_1_rounding_examples_to_integer() {
    let to_int = |x: f32, m| sext(r(F32, I32, m, true, X86, f32b(x)), 32);
    let cases: &[(f32, Rounding, i64)] = &[
        (2.5, Rint, 2),
        (2.5, Round, 3),
        (2.5, Floor, 2),
        (2.5, Ceil, 3),
        (2.5, Trunc, 2),
        (2.5, Odd, 3),
        (-2.5, Rint, -2),
        (-2.5, Round, -3),
        (-2.5, Floor, -3),
        (-2.5, Ceil, -2),
        (-2.5, Odd, -3),
        (3.5, Rint, 4),
        (3.5, Odd, 3),
        (4.1, Odd, 5),
    ];
    for &(x, m, want) in cases {
        assert_eq!(to_int(x, m), want, "{x} {m:?}");
    }
}

#[test]
fn s4_1_rounding_examples_f32_to_f16() {
    let a = 1.0f32 + 2f32.powi(-11);
    let b = 1.0f32 + 2f32.powi(-12);
    assert_eq!(r(F32, F16, Rint, false, X86, f32b(a)), 0x3C00);
    assert_eq!(r(F32, F16, Odd, false, X86, f32b(a)), 0x3C01);
    assert_eq!(r(F32, F16, Odd, false, X86, f32b(b)), 0x3C01);
}

#[test]
fn s4_2_1_saturation_on() {
    let f16_2007 = f16b(200.75); // 200.7 in f16
    assert_eq!(r(F16, I8, Trunc, true, X86, f16_2007), 127);
    assert_eq!(r(F16, I8, Trunc, true, X86, f16b(-300.0)), 0x80);
    assert_eq!(r(F16, I8, Trunc, true, X86, 0x7E00), 0);
    assert_eq!(r(F32, I16, Rint, true, X86, f32b(40000.0)), 32767);
    assert_eq!(r(F32, U8, Rint, true, X86, f32b(-3.0)), 0);
    assert_eq!(
        r(F32, I32, Rint, true, X86, f32b(f32::INFINITY)),
        0x7FFF_FFFF
    );
    assert_eq!(
        r(F32, I32, Rint, true, X86, f32b(f32::NEG_INFINITY)),
        0x8000_0000
    );
}

#[test]
fn s4_2_2_x86_table() {
    // (x, f32→i16, f32→ui8, f32→i32, f32→ui32)
    let rows: &[(f32, i64, u64, i64, u64)] = &[
        (40000.0, -25536, 64, 40000, 40000),
        (300.0, 300, 44, 300, 300),
        (-1.0, -1, 255, -1, 4294967295),
        (1e10, 0, 0, i32::MIN as i64, 1410065408),
        (3e9, 0, 0, i32::MIN as i64, 3000000000),
        (5e9, 0, 0, i32::MIN as i64, 705032704),
        (f32::NAN, 0, 0, i32::MIN as i64, 0),
        (f32::INFINITY, 0, 0, i32::MIN as i64, 0),
        (f32::NEG_INFINITY, 0, 0, i32::MIN as i64, 0),
    ];
    for m in [Rint, Trunc] {
        for &(x, i16v, u8v, i32v, u32v) in rows {
            let b = f32b(x);
            assert_eq!(sext(r(F32, I16, m, false, X86, b), 16), i16v, "{x} i16");
            assert_eq!(r(F32, U8, m, false, X86, b), u8v, "{x} ui8");
            assert_eq!(sext(r(F32, I32, m, false, X86, b), 32), i32v, "{x} i32");
            assert_eq!(r(F32, U32, m, false, X86, b), u32v, "{x} ui32");
        }
    }
    // f32→s4x2: W = i32, N = 4.
    assert_eq!(r(F32, S4x2, Rint, false, X86, f32b(9.0)), 0x9); // −7
    assert_eq!(r(F32, S4x2, Rint, false, X86, f32b(-9.0)), 0x7);
}

#[test]
fn s4_2_3_native_examples() {
    let i16v = |x: f32| sext(r(F32, I16, Rint, false, Native, f32b(x)), 16);
    assert_eq!(i16v(40000.0), -25536);
    assert_eq!(i16v(3e9), 24064);
    assert_eq!(i16v(f32::INFINITY), -1);
    assert_eq!(i16v(f32::NEG_INFINITY), 0);
    assert_eq!(r(F16, U8, Rint, false, Native, f16b(300.0)), 44);
    assert_eq!(r(F16, U8, Rint, false, Native, 0x7C00), 255);
    let i32v = sext(r(F32, I32, Rint, false, Native, f32b(3e9)), 32);
    assert_eq!(i32v, -1294967296);
}

#[test]
fn s4_2_4_torch_examples() {
    let i16v = |x: f32| sext(r(F32, I16, Rint, false, Torch, f32b(x)), 16);
    assert_eq!(i16v(f32::INFINITY), -1);
    assert_eq!(i16v(f32::NEG_INFINITY), 0);
    assert_eq!(i16v(f32::NAN), 0);
    assert_eq!(i16v(40000.0), -25536);
    assert_eq!(i16v(3e9), -1);
    assert_eq!(sext(r(F16, I8, Rint, false, Torch, f16b(200.0)), 8), -56);
    // Three-way example.
    let three = |b| [X86, Native, Torch].map(|p| sext(r(F32, I16, Rint, false, p, b), 16));
    assert_eq!(three(f32b(3e9)), [0, 24064, -1]);
    assert_eq!(three(f32b(f32::INFINITY)), [0, -1, -1]);
}

#[test]
fn s4_3_narrowing_table() {
    let h = |m, sat, x: f32| r(F32, F16, m, sat, X86, f32b(x));
    assert_eq!(h(Rint, false, 65519.0), 0x7BFF);
    assert_eq!(h(Rint, false, 65520.0), 0x7C00);
    assert_eq!(h(Rint, false, 1e6), 0x7C00);
    assert_eq!(h(Rint, false, f32::NAN), 0x7E00);
    assert_eq!(h(Rint, true, 1e6), 0x7BFF);
    assert_eq!(h(Rint, true, f32::NEG_INFINITY), 0xFBFF);
    assert_eq!(h(Rint, true, f32::NAN), 0x7E00);
    assert_eq!(h(Trunc, false, 1e6), 0x7BFF);
    assert_eq!(h(Floor, false, -1e6), 0xFC00);
    assert_eq!(h(Ceil, false, -1e6), 0xFBFF);
    assert_eq!(h(Rint, false, 2f32.powi(-24)), 0x0001);
    assert_eq!(h(Rint, false, 2f32.powi(-25)), 0x0000);
    assert_eq!(h(Rint, false, 1.5 * 2f32.powi(-25)), 0x0001);

    let e4 = |sat, x: f32| r(F32, F8E4M3FN, Rint, sat, X86, f32b(x));
    assert_eq!(e4(false, 464.0), 0x7E);
    assert_eq!(e4(false, 465.0), 0x7F);
    assert_eq!(e4(false, -1e6), 0xFF);
    assert_eq!(e4(true, 1e6), 0x7E);

    let e5 = |x: f32| r(F32, F8E5M2, Rint, false, X86, f32b(x));
    assert_eq!(e5(61439.0), 0x7B);
    assert_eq!(e5(61440.0), 0x7C);

    let e2 = |x: f32| r(F32, F4E2M1x2, Rint, false, X86, f32b(x));
    assert_eq!(e2(2.5), 0x4);
    assert_eq!(e2(5.0), 0x6);
    assert_eq!(e2(7.0), 0x7);
    assert_eq!(e2(-0.1), 0x8);
    assert_eq!(e2(f32::NAN), 0x0);

    let h8 = |sat, x: f32| r(F32, Hif8, Round, sat, X86, f32b(x));
    assert_eq!(h8(false, 1.0625), 0x09);
    assert_eq!(h8(false, 40959.0), 0x6E);
    assert_eq!(h8(false, 40960.0), 0x6F);
    assert_eq!(h8(true, 40960.0), 0x6E);
    assert_eq!(h8(false, 2f32.powi(-23)), 0x01);
}

#[test]
fn s4_3_fr_examples() {
    let fr = |m, sat, x: f32| r(F32, F32, m, sat, X86, f32b(x));
    for sat in [false, true] {
        assert_eq!(fr(Ceil, sat, -0.5), 0x8000_0000);
        assert_eq!(fr(Rint, sat, 2.5), f32b(2.0));
        assert_eq!(fr(Odd, sat, 2.5), f32b(3.0));
        assert_eq!(fr(Rint, sat, f32::INFINITY), 0x7F80_0000);
        assert_eq!(fr(Rint, sat, f32::NEG_INFINITY), 0xFF80_0000);
        assert_eq!(fr(Rint, sat, f32::from_bits(0xFF81_2345)), 0xFFC0_0000);
        assert_eq!(fr(Rint, sat, f32::from_bits(0x7F81_2345)), 0x7FC0_0000);
    }
}

#[test]
fn s4_4_widening_examples() {
    assert_eq!(r(F16, F32, Rint, false, X86, 0x7C01), 0x7FC0_2000);
    assert_eq!(r(BF16, F32, Rint, false, X86, 0xFF81), 0xFFC1_0000);
    assert_eq!(r(F8E5M2, F32, Rint, false, X86, 0x7D), 0x7FE0_0000);
    assert_eq!(r(F8E4M3FN, F32, Rint, false, X86, 0x7F), 0x7FF0_0000);
    assert_eq!(r(Hif8, F32, Rint, false, X86, 0x80), 0x7FC0_0000);
    assert_eq!(r(Hif8, F32, Rint, false, X86, 0x6F), 0x7F80_0000);
    assert_eq!(r(Hif8, F32, Rint, false, X86, 0xEF), 0xFF80_0000);
    assert_eq!(r(Hif8, F32, Rint, true, X86, 0x6F), 0x7F7F_FFFF);
    assert_eq!(r(Hif8, F32, Rint, true, X86, 0xEF), 0xFF7F_FFFF);
    assert_eq!(r(F16, F32, Rint, true, X86, 0x7C00), 0x7F7F_FFFF);
    assert_eq!(r(F16, F32, Rint, false, X86, 0x7C00), 0x7F80_0000);
    // Exact, including subnormals.
    assert_eq!(r(F16, F32, Rint, false, X86, 0x0001), f32b(2f32.powi(-24)));
}

#[test]
fn s4_5_int_to_float_examples() {
    let b = 16777217u64;
    assert_eq!(r(I32, F32, Rint, false, X86, b), f32b(16777216.0));
    assert_eq!(r(I32, F32, Ceil, false, X86, b), f32b(16777218.0));
    assert_eq!(r(I32, F32, Odd, false, X86, b), f32b(16777218.0));
    assert_eq!(r(I32, F16, Rint, false, X86, 70000), 0x7C00);
    assert_eq!(r(I32, F16, Rint, true, X86, 70000), 0x7BFF);
    assert_eq!(r(I32, F16, Rint, false, X86, 65520), 0x7C00);
    // i64 > 2^53: single rounding (2^62 + 2^38 + 1 is above the f32 tie 2^62 + 2^38).
    let big = (1u64 << 62) + (1u64 << 38) + 1;
    assert_eq!(
        r(I64, F32, Rint, false, X86, big),
        f32b(2f32.powi(62) + 2f32.powi(39))
    );
}

#[test]
fn s4_6_int_to_int_examples() {
    assert_eq!(r(I32, I16, Rint, false, X86, 70000), 4464);
    assert_eq!(r(I32, I16, Rint, true, X86, 70000), 32767);
    let m5 = (-5i16) as u16 as u64;
    assert_eq!(r(I16, U8, Rint, false, X86, m5), 251);
    assert_eq!(r(I16, U8, Rint, true, X86, m5), 0);
    assert_eq!(sext(r(U32, I16, Rint, false, X86, 40000), 16), -25536);
    assert_eq!(r(U32, I16, Rint, true, X86, 40000), 32767);
    assert_eq!(r(I16, U32, Rint, true, X86, m5), 0);
    assert_eq!(r(I16, U32, Rint, false, X86, m5), 0xFFFF_FFFB);
}

#[test]
fn s4_7_s4_and_s2_5_fp4_examples() {
    assert_eq!(r(S4x2, F32, Rint, false, X86, 0x8), f32b(-8.0));
    assert_eq!(r(S4x2, F32, Rint, false, X86, 0xF), f32b(-1.0));
    let e2 = |x: f32| r(F32, F4E2M1x2, Rint, false, X86, f32b(x));
    assert_eq!(e2(2.5), 0x4); // 2
    assert_eq!(e2(5.0), 0x6); // 4
    assert_eq!(e2(0.25), 0x0);
    assert_eq!(e2(1.25), 0x2); // 1
    assert_eq!(e2(f32::INFINITY), 0x7);
    assert_eq!(e2(f32::NEG_INFINITY), 0xF);
    assert_eq!(e2(-f32::NAN), 0x0);
    assert_eq!(e2(1e30), 0x7);
    let e1 = |m, x: f32| r(F32, F4E1M2x2, m, false, X86, f32b(x));
    assert_eq!(e1(Rint, 100.0), 0x7);
    assert_eq!(e1(Ceil, -100.0), 0xF);
    assert_eq!(e1(Rint, 0.375), 0x2); // tie 0.25 (code 1) / 0.5 (code 2): even code
}

#[test]
fn s2_3_hif8_key_values() {
    let v = |b| value_string(Hif8, b);
    assert_eq!(v(0x6E), "32768");
    assert_eq!(v(0x01), format!("{:e} (1/4194304)", 2f64.powi(-22)));
    assert_eq!(v(0x7E), format!("{:e} (1/32768)", 2f64.powi(-15)));
    assert_eq!(v(0x08), "1");
    assert_eq!(v(0x80), "+NaN");
    assert_eq!(v(0xEF), "-Inf");
    assert_eq!(hif8_table().len(), 127);
}

#[test]
fn s2_4_hif8_encoder_decisions() {
    let h8 = |sat, x: f32| r(F32, Hif8, Round, sat, X86, f32b(x));
    for x in [45000.0f32, 49151.0, 49152.0, 1e9, f32::MAX] {
        assert_eq!(h8(true, x), 0x6E, "{x}");
        assert_eq!(h8(false, x), 0x6F, "{x}");
        assert_eq!(h8(true, -x), 0xEE, "{x}");
        assert_eq!(h8(false, -x), 0xEF, "{x}");
    }
    assert_eq!(h8(false, -0.0), 0x00);
    assert_eq!(h8(false, -1e-30), 0x00);
    assert_eq!(h8(false, 2f32.powi(-23) * 0.99), 0x00);
    assert_eq!(h8(false, 1.5 * 2f32.powi(-22)), 0x02); // tie, away: 2^-21
    assert_eq!(h8(false, f32::NAN), 0x80);
    assert_eq!(h8(true, f32::INFINITY), 0x6E);
    assert_eq!(h8(false, f32::NEG_INFINITY), 0xEF);
}

#[test]
fn mode_errors_follow_the_contract() {
    for src in ElemType::ALL {
        for dst in ElemType::ALL {
            assert_eq!(mode_error(src, dst, Hybrid), Some(ModeErr::Hybrid));
            assert_eq!(mode_error(src, dst, Rint).is_some(), dst == Hif8);
            let odd = matches!(dst, Hif8 | F8E4M3FN | F4E2M1x2 | F4E1M2x2);
            assert_eq!(mode_error(src, dst, Odd).is_some(), odd);
            assert_eq!(mode_error(src, dst, Round), None);
        }
    }
}

/// Every finite code of a ≤16-bit IEEE-like format encodes back to itself.
#[test]
fn ieee_decode_encode_round_trip() {
    for t in [F16, BF16, F8E4M3FN, F8E5M2, F4E2M1x2, F4E1M2x2] {
        let f = float_fmt(t).unwrap_or_else(|| panic!("{t}"));
        let sign = 1u64 << (t.value_bits() - 1);
        for c in 0..sign {
            if let Exact::Finite { mag, .. } = decode(t, c) {
                assert_eq!(encode_ieee(&f, &to_fx(&mag)), c, "{t} {c:#x}");
                assert!(&to_fx(&mag) <= max_value(t), "{t} {c:#x}");
            }
        }
    }
    assert_eq!(value_string(F8E4M3FN, 0x7E), "448");
    assert_eq!(value_string(F8E5M2, 0x7B), "57344");
    assert_eq!(value_string(F16, 0x7BFF), "65504");
    assert_eq!(value_string(F4E2M1x2, 0x7), "6");
    assert_eq!(value_string(F4E1M2x2, 0x7), "1.75e0 (7/4)");
    assert_eq!(value_string(F8E4M3FN, 0x7F), "+NaN");
    assert_eq!(value_string(F8E4M3FN, 0x78), "256");
}

/// The widening list of `is_widening` is exactly the set of float pairs where every finite
/// source value converts exactly (by brute force over ≤16-bit sources; f32 widens into nothing).
#[test]
fn widening_pairs_by_brute_force() {
    let floats = [F16, BF16, F8E4M3FN, F8E5M2, Hif8, F4E2M1x2, F4E1M2x2];
    for src in floats {
        for dst in ElemType::ALL.into_iter().filter(|t| t.is_float()) {
            if dst == src {
                continue;
            }
            let all_exact = (0..1u64 << src.value_bits()).all(|b| {
                let x = decode(src, b);
                if !matches!(x, Exact::Finite { .. }) {
                    return true;
                }
                let p = prepare(&value(&x), src, dst);
                matches!(
                    p,
                    Prep::Fin {
                        exact: true,
                        lo: Cand::Code(Some(_)),
                        ..
                    }
                )
            });
            assert_eq!(all_exact, is_widening(src, dst), "{src} -> {dst}");
        }
    }
    assert!(!is_widening(F32, F16));
}

#[test]
fn values_are_exact_rationals() {
    // f32 min subnormal, decoded exactly.
    let Exact::Finite { mag, .. } = decode(F32, 1) else {
        panic!("finite")
    };
    assert_eq!(mag, pow2(-149));
    assert_eq!(floor_log2(&mag), -149);
    let three_halves = BigRational::new(3.into(), 2.into());
    assert_eq!(floor_log2(&three_halves), 0);
}
