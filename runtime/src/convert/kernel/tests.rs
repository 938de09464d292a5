//! The f32 kernels equal the generic exact path.

use rayon::prelude::*;

use super::*;
use crate::convert::format::{format_of, Format};
use crate::convert::{Converter, NonSatPath};

const DSTS: [ElemType; 4] = [
    ElemType::F16,
    ElemType::BF16,
    ElemType::F8E4M3FN,
    ElemType::F8E5M2,
];

fn converters() -> Vec<(Converter, Body)> {
    let mut v = Vec::new();
    for dst in DSTS {
        for rounding in Rounding::EXECUTABLE {
            for sat in [false, true] {
                let spec = ConvSpec {
                    src: ElemType::F32,
                    dst,
                    rounding,
                    sat,
                    path: NonSatPath::X86,
                };
                if let (Ok(c), Some(k)) = (Converter::new(spec), kernel_for(spec)) {
                    v.push((c, k));
                }
            }
        }
    }
    v
}

/// f32 → integer (every mode × {sat ON, X86, NATIVE, TORCH}), f32 → hif8 and f32 → f32 (FR;
/// every mode, sat OFF/ON).
fn other_converters() -> Vec<(Converter, Body)> {
    use ElemType::*;
    let mut specs = Vec::new();
    for dst in [I8, U8, I16, U16, I32, U32, I64] {
        for rounding in Rounding::EXECUTABLE {
            for (sat, path) in [
                (true, NonSatPath::X86),
                (false, NonSatPath::X86),
                (false, NonSatPath::Native),
                (false, NonSatPath::Torch),
            ] {
                specs.push((dst, rounding, sat, path));
            }
        }
    }
    for sat in [false, true] {
        specs.push((Hif8, Rounding::Round, sat, NonSatPath::X86));
        for rounding in Rounding::EXECUTABLE {
            specs.push((F32, rounding, sat, NonSatPath::X86));
        }
    }
    specs
        .into_iter()
        .filter_map(|(dst, rounding, sat, path)| {
            let spec = ConvSpec {
                src: F32,
                dst,
                rounding,
                sat,
                path,
            };
            Some((Converter::new(spec).ok()?, kernel_for(spec)?))
        })
        .collect()
}

fn edges() -> Vec<u32> {
    let mut xs = vec![
        0,
        0x8000_0000,
        1,
        0x8000_0001,
        0x007F_FFFF,
        0x0080_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7F80_0001,
        0xFF80_0001,
        0x7FC0_0000,
        0xFFC1_2345,
        0x7FFF_FFFF,
        0x477F_F000, // 65520 (f16 tie to Inf)
        0x477F_EF00,
        0x43E8_0000, // 464 (E4M3 tie)
        0x43E8_8000,
        0x4770_0000, // 61440
        0x3380_0000, // 2^-24
        0x3300_0000, // 2^-25
        0x3340_0000, // 1.5·2^-25
        0x4720_0000, // 40960 (hif8 overflow boundary)
        0x471F_FF00, // 40959
        0x3400_0000, // 2^-23
        0x33FF_FFFF,
    ];
    // Integer range boundaries (2^7 … 2^64, incl. 2^31, 2^32 and INT_MIN) ± 3 ulps, both signs.
    for k in [7, 8, 15, 16, 31, 32, 63, 64] {
        let b = (127 + k) << 23;
        for d in 0..=6u32 {
            xs.extend([b + d - 3, (b + d - 3) | 0x8000_0000]);
        }
    }
    // Halves and quarters around small integers.
    for n in -300..300 {
        for f in [0.25f32, 0.5, 0.75] {
            xs.push((n as f32 + f).to_bits());
        }
    }
    // Ties and near-ties at every kept position of every binade.
    for e in 0..256u32 {
        for m in [
            0x1000, 0x3000, 0x8000, 0x18000, 0x80000, 0x100000, 0x7FFFFF, 0x400001,
        ] {
            xs.push((e << 23) | m);
            xs.push(0x8000_0000 | (e << 23) | m);
        }
        for k in 0..23 {
            xs.extend([(e << 23) | (1 << k), (e << 23) | (3 << k) & 0x7F_FFFF]);
        }
    }
    xs
}

/// Runs the kernel on `xs` and compares every lane with the generic path.
fn check(c: &Converter, k: &Body, xs: &[u32]) {
    let ob = c.spec().dst.storage_bytes() as usize;
    let src: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
    let mut dst = vec![0u8; xs.len() * ob];
    k(&src, &mut dst);
    for (x, d) in xs.iter().zip(dst.chunks_exact(ob)) {
        let got = d.iter().rev().fold(0u64, |a, b| (a << 8) | u64::from(*b));
        let want = c.plan.convert(u64::from(*x)).0;
        assert_eq!(got, want, "{:?} x={x:#010x}", c.spec());
    }
}

#[test]
fn descriptors_match_the_formats() {
    fn one<D: Narrow>(e: ElemType) {
        let Format::Float(f) = format_of(e) else {
            panic!("{e} is not a float")
        };
        assert_eq!((D::M, D::BIAS), (f.mbits as i32, f.bias), "{e}");
        assert_eq!(D::MAX as u64, f.max_bits(), "{e}");
        assert_eq!(D::NAN as u64, f.qnan_bits().unwrap_or(0), "{e}");
        let inf = f.inf_bits().or(f.qnan_bits()).unwrap_or(0);
        assert_eq!(D::INF as u64, inf, "{e}");
        assert_eq!(1u64 << D::SIGN, f.sign_bit(), "{e}");
        assert_eq!(<D::Out as Lane>::BYTES as u32, e.storage_bytes());
    }
    one::<ToF32>(ElemType::F32);
    one::<ToF16>(ElemType::F16);
    one::<ToBf16>(ElemType::BF16);
    one::<ToE4M3>(ElemType::F8E4M3FN);
    one::<ToE5M2>(ElemType::F8E5M2);
}

#[test]
fn kernels_equal_generic_on_edges() {
    let xs = edges();
    for (c, k) in converters().iter().chain(other_converters().iter()) {
        check(c, k, &xs);
    }
}

/// Structured sweep: every sign × exponent × top 11 mantissa bits (2^20 prefixes) with 8 low-12-bit
/// patterns (exact, ±1 around the half, all ones, random), plus 1M random patterns per kernel.
/// The low 12 bits are below every rounding position of these destinations except through the
/// sticky bit, which the patterns exercise both ways.
#[test]
fn kernels_equal_generic_structured_sweep() {
    let convs = converters();
    assert_eq!(convs.len(), 46);
    convs.par_iter().for_each(|(c, k)| {
        let mut rng = fastrand::Rng::with_seed(u64::from(c.spec().rounding as u8) * 31 + 5);
        let lows = [
            0,
            1,
            0x7FF,
            0x800,
            0x801,
            0xFFF,
            rng.u32(..0x1000),
            rng.u32(..0x1000),
        ];
        let mut xs = Vec::with_capacity(1 << 16);
        for hi in 0..(1u32 << 20) {
            for lo in lows {
                xs.push((hi << 12) | lo);
            }
            if xs.len() >= 1 << 16 {
                check(c, k, &xs);
                xs.clear();
            }
        }
        for _ in 0..16 {
            xs.clear();
            xs.extend((0..1 << 16).map(|_| rng.u32(..)));
            check(c, k, &xs);
        }
    });
}

/// f32 → integer / hif8 / FR: every sign × exponent × top 10 mantissa bits (2^19 prefixes) with 4
/// low-13-bit patterns, plus 256K random patterns per kernel. Integer rounding positions below
/// the prefix are covered by the random low pattern, the random inputs and the edge list.
#[test]
fn int_and_hif8_kernels_equal_generic_structured_sweep() {
    let convs = other_converters();
    assert_eq!(convs.len(), 7 * 6 * 4 + 2 + 12);
    convs.par_iter().enumerate().for_each(|(i, (c, k))| {
        let mut rng = fastrand::Rng::with_seed(i as u64 + 101);
        let lows = [0, 0x1000, 0x1FFF, rng.u32(..0x2000)];
        let mut xs = Vec::with_capacity(1 << 16);
        for hi in 0..(1u32 << 19) {
            for lo in lows {
                xs.push((hi << 13) | lo);
            }
            if xs.len() >= 1 << 16 {
                check(c, k, &xs);
                xs.clear();
            }
        }
        for _ in 0..4 {
            xs.clear();
            xs.extend((0..1 << 16).map(|_| rng.u32(..)));
            check(c, k, &xs);
        }
    });
}

/// i32/u32 sources: every leading bit L × every rounding position k < L × guard bit × sticky
/// (none / random / all ones) × random bits in between, both signs; plus 256K random patterns.
#[test]
fn int_source_kernels_equal_generic() {
    use ElemType::*;
    let mut convs = Vec::new();
    for src in [I32, U32] {
        for dst in [F32, F16, BF16, F8E4M3FN, F8E5M2] {
            for rounding in Rounding::EXECUTABLE {
                for sat in [false, true] {
                    let spec = ConvSpec {
                        src,
                        dst,
                        rounding,
                        sat,
                        path: NonSatPath::X86,
                    };
                    if let (Ok(c), Some(k)) = (Converter::new(spec), kernel_for(spec)) {
                        convs.push((c, k));
                    }
                }
            }
        }
    }
    assert_eq!(convs.len(), 2 * 5 * 12 - 4);
    let mut rng = fastrand::Rng::with_seed(3);
    let mut xs: Vec<u32> = vec![0, 1, 2, 3, 0x7FFF_FFFF, 0x8000_0000, 0x8000_0001, u32::MAX];
    for l in 0..32u32 {
        for k in 0..l {
            for g in [0u32, 1] {
                for sticky in [0, rng.u32(..), u32::MAX] {
                    for _ in 0..2 {
                        let mid = rng.u32(..) & (((1u64 << l) - 1) as u32) & !((2u32 << k) - 1);
                        let low = sticky & ((1u32 << k) - 1);
                        let v = (1u32 << l) | mid | (g << k) | low;
                        xs.extend([v, v.wrapping_neg()]);
                    }
                }
            }
        }
    }
    xs.extend((0..1 << 18).map(|_| rng.u32(..)));
    convs.par_iter().for_each(|(c, k)| check(c, k, &xs));
}

/// f32 → FP4 (packed): the structured prefixes × low patterns, random patterns and the edge
/// list, for every mode; odd lengths check the preserved high nibble.
#[test]
fn fp4_kernels_equal_generic() {
    let mut rng = fastrand::Rng::with_seed(9);
    let mut xs = edges();
    for hi in 0..(1u32 << 16) {
        for lo in [0, 1, 0x8000, 0xFFFF, rng.u32(..0x10000)] {
            xs.push((hi << 16) | lo);
        }
    }
    xs.extend((0..1 << 18).map(|_| rng.u32(..)));
    // Odd length: the last element fills only a low nibble.
    xs.truncate(xs.len() & !1);
    xs.push(0x3F80_0000);
    for dst in [ElemType::F4E2M1x2, ElemType::F4E1M2x2] {
        for rounding in Rounding::EXECUTABLE {
            let spec = ConvSpec {
                src: ElemType::F32,
                dst,
                rounding,
                sat: false,
                path: NonSatPath::X86,
            };
            let (Ok(c), Some(k)) = (Converter::new(spec), kernel_for(spec)) else {
                assert_eq!(rounding, Rounding::Odd);
                continue;
            };
            let src: Vec<u8> = xs.iter().flat_map(|x| x.to_le_bytes()).collect();
            let mut dst = vec![0xA5u8; xs.len().div_ceil(2)];
            k(&src, &mut dst);
            for (i, x) in xs.iter().enumerate() {
                let got = u64::from(dst[i / 2] >> (4 * (i % 2)) & 0xF);
                assert_eq!(got, c.plan.convert(u64::from(*x)).0, "{spec:?} x={x:#010x}");
            }
            assert_eq!(dst[dst.len() - 1] >> 4, 0xA, "high nibble preserved");
        }
    }
}

/// i32 / u32 / i64 → every whole-byte integer, sat ON and OFF: edge values and random patterns.
#[test]
fn int_int_kernels_equal_generic() {
    use ElemType::*;
    let mut rng = fastrand::Rng::with_seed(13);
    let mut vals: Vec<u64> = (0..1 << 16).map(|_| rng.u64(..)).collect();
    for b in [7, 8, 15, 16, 31, 32, 63] {
        for d in [-2i64, -1, 0, 1, 2] {
            vals.extend([
                (1i64 << b).wrapping_add(d) as u64,
                (1i64 << b).wrapping_neg().wrapping_add(d) as u64,
            ]);
        }
    }
    vals.extend([0, u64::MAX, i64::MIN as u64, i64::MAX as u64]);
    for src in [I32, U32, I64] {
        let sb = src.storage_bytes() as usize;
        for dst in [I8, U8, I16, U16, I32, U32, I64] {
            for sat in [false, true] {
                let spec = ConvSpec {
                    src,
                    dst,
                    rounding: Rounding::Rint,
                    sat,
                    path: NonSatPath::X86,
                };
                let (Ok(c), Some(k)) = (Converter::new(spec), kernel_for(spec)) else {
                    panic!("{spec:?}");
                };
                let bytes: Vec<u8> = vals
                    .iter()
                    .flat_map(|v| v.to_le_bytes()[..sb].to_vec())
                    .collect();
                let ob = dst.storage_bytes() as usize;
                let mut out = vec![0u8; vals.len() * ob];
                k(&bytes, &mut out);
                for (v, d) in vals.iter().zip(out.chunks_exact(ob)) {
                    let got = d.iter().rev().fold(0u64, |a, b| (a << 8) | u64::from(*b));
                    assert_eq!(got, c.plan.convert(*v).0, "{spec:?} v={v:#x}");
                }
            }
        }
    }
}

/// Corner cases of the 32-bit integer-domain int → float lane: u32 values ≥ 2^31 whose dropped
/// bits tie exactly (and one above / below), i32::MIN and its neighbours, runs of ones that
/// round up into the next binade, for every mode and sat, against the generic path.
#[test]
fn int_to_float_corner_cases() {
    use ElemType::*;
    let mut xs: Vec<u32> = vec![
        0x8000_0000,
        0x8000_0001,
        0x7FFF_FFFF,
        0xFFFF_FFFF,
        0xFFFF_FF80,
    ];
    for s in 1..=31u32 {
        // Leading bit 31, and a tie at every dropped width (the kept part odd and even).
        for top in [0x8000_0000u32, 0xC000_0000, 0xFFFF_FFFF] {
            let base = top & !((1u32 << s) - 1);
            let half = 1u32 << (s - 1);
            for d in [0u32, 1] {
                let t = (base | half).wrapping_add(d);
                xs.extend([t, t.wrapping_sub(2), t ^ (1 << s)]);
            }
        }
        xs.push((1u32 << s) - 1);
    }
    for src in [I32, U32] {
        for dst in [F32, F16, BF16, F8E4M3FN, F8E5M2] {
            for rounding in Rounding::EXECUTABLE {
                for sat in [false, true] {
                    let spec = ConvSpec {
                        src,
                        dst,
                        rounding,
                        sat,
                        path: NonSatPath::X86,
                    };
                    if let (Ok(c), Some(k)) = (Converter::new(spec), kernel_for(spec)) {
                        check(&c, &k, &xs);
                    }
                }
            }
        }
    }
}
