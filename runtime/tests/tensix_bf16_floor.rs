//! Simulator facts behind the ≤ 5 cycle question for exact f32→bf16 RINT (docs/performance.md,
//! "Exact f32→bf16: the cycle floor", "The ≤ 5 goal"): what SFPMAD and SFPSTOCHRND can and cannot
//! produce, which bits SFPSTOCHRND's rounding decision reads, and where the ties-away identity
//! `RNE(x) = TA(x + lsb − 1)` holds. If one of these changes, the counting argument in that
//! section must be revisited.

use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim::fma::{fma_bh, fma_wh};
use pto_runtime::tensix::sim::LANES;
use pto_runtime::{ConvSpec, Converter, ElemType, NonSatPath, Rounding};

mod tensix_common;
use tensix_common::*;

/// The `cpu` reference of f32→bf16 RINT sat off, widened to the 32-bit Dst datum (low half zero).
fn reference() -> Converter {
    Converter::new(ConvSpec {
        src: ElemType::F32,
        dst: ElemType::BF16,
        rounding: Rounding::Rint,
        sat: false,
        path: NonSatPath::X86,
    })
    .expect("f32→bf16 RINT is executable")
}

fn rne(c: &Converter, x: u32) -> u32 {
    (c.convert_bits(u64::from(x)) as u32) << 16
}

fn exponent(x: u32) -> u32 {
    (x >> 23) & 0xFF
}

/// Edge patterns plus seeded random ones, every exponent class represented.
fn patterns(n: usize, seed: u64) -> Vec<u32> {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mut v = BF16_EDGES.to_vec();
    while v.len() < n {
        let r = rng.u32(..);
        // Half of them with a forced exponent class (0, 1, 254, 255) so the rare classes show up.
        v.push(match rng.u8(..8) {
            0 => r & 0x807F_FFFF,
            1 => (r & 0x807F_FFFF) | 0x0080_0000,
            2 => (r & 0x807F_FFFF) | 0x7F00_0000,
            3 => r | 0x7F80_0000,
            _ => r,
        });
    }
    v
}

/// Runs `text` on each 32-lane chunk of `xs` (x in L0) and returns register `out` per input.
fn sim(arch: Arch, xs: &[u32], init: &[(usize, u32)], text: &str, out: usize) -> Vec<u32> {
    let mut r = Vec::with_capacity(xs.len());
    for chunk in xs.chunks(LANES) {
        let v = lanes(|l| chunk[l % chunk.len()]);
        let mut regs = vec![(0, v)];
        regs.extend(init.iter().map(|&(i, c)| (i, [c; LANES])));
        let m = run(arch, &regs, text);
        r.extend_from_slice(&reg(&m, out)[..chunk.len()]);
    }
    r
}

#[test]
fn mad_results_are_never_a_signed_canonical_nan_or_a_subnormal() {
    // F1: every MAD-class result is ±0, normal, ±Inf or a NaN; BH NaNs are 0x7FC00000, WH NaNs
    // have bit 0 set. So no SFPMAD result is 0xFFC00000 (the −NaN output) or a non-zero
    // subnormal (a denormal input's output, e.g. 0x00020000), on either arch.
    let xs = patterns(1 << 18, 1);
    let mut rng = fastrand::Rng::with_seed(2);
    for &x in &xs {
        let (y, z) = (xs[rng.usize(..xs.len())], xs[rng.usize(..xs.len())]);
        for (arch, r) in [("bh", fma_bh(x, y, z)), ("wh", fma_wh(x, y, z))] {
            let e = exponent(r);
            let m = r & 0x7F_FFFF;
            assert!(
                e != 0 || m == 0,
                "{arch}: subnormal {r:#x} from {x:#x} {y:#x} {z:#x}"
            );
            if e == 255 && m != 0 {
                if arch == "bh" {
                    assert_eq!(r, 0x7FC0_0000, "bh NaN from {x:#x} {y:#x} {z:#x}");
                } else {
                    assert_eq!(r & 1, 1, "wh NaN without bit 0 from {x:#x} {y:#x} {z:#x}");
                }
            }
        }
    }
}

#[test]
fn a_mad_steps_a_normal_number_down_by_one_ulp() {
    // x·(1 − 2^-24) + 0 is x − 1 on the bit pattern for every normal x whose predecessor is
    // normal: a MAD can do the borrow of a ties fix-up, so the count may not charge a Simple for it.
    let b = 0x3F7F_FFFF; // 1 − 2^-24
    for &x in &patterns(1 << 18, 3) {
        let e = exponent(x);
        if e == 0 || e == 255 || (x & 0x7FFF_FFFF) == 0x0080_0000 {
            continue;
        }
        assert_eq!(fma_bh(x, b, 0), x - 1, "bh {x:#x}");
        assert_eq!(fma_wh(x, b, 0), x - 1, "wh {x:#x}");
    }
}

#[test]
fn stochrnd_fp16b_decides_on_bit_15_alone_and_yields_no_nan_and_no_subnormal() {
    // F2 and the tie lemma: the FP16B rounding reads bit 15 of the dropped half only (bits 0–14
    // never change the result), exponent-0 inputs give +0, NaNs give ±Inf.
    let xs = patterns(1 << 14, 4);
    let cut: Vec<u32> = xs.iter().map(|x| x & !0x7FFF).collect();
    for arch in BOTH {
        let prog = "sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_FP16B";
        let r = sim(arch, &xs, &[], prog, 1);
        let rc = sim(arch, &cut, &[], prog, 1);
        for (i, &x) in xs.iter().enumerate() {
            assert_eq!(r[i], rc[i], "{arch:?}: bits 0-14 of {x:#x} mattered");
            assert_eq!(r[i] & 0xFFFF, 0);
            let (e, m) = (exponent(r[i]), r[i] & 0x7F_FFFF);
            assert!(e != 255 || m == 0, "{arch:?}: NaN out of {x:#x}");
            assert!(e != 0 || m == 0, "{arch:?}: subnormal out of {x:#x}");
            if exponent(x) == 0 {
                assert_eq!(r[i], 0, "{arch:?}: exponent-0 {x:#x}");
            }
        }
    }
}

#[test]
fn ties_away_of_x_plus_lsb_minus_one_is_rne_exactly_on_normal_numbers_above_the_smallest() {
    // RNE(x) = TA(x + lsb − 1): lsb by two shifts, lsb − 1 and the add by two SFPIADDs (the
    // Simple-free alternatives use a MAD for x − 1, see above). It fails on every input with
    // exponent 0 (±0 become ∓Inf or +0, denormals +0), on NaN and on the normal numbers whose
    // x − 1 is subnormal, so a ties-away form needs fix-ups for those lanes.
    let c = reference();
    let prog = "
        sfpmov 0, L0, L1, 0
        sfpshft 15, L1, L1, IMM
        sfpshft -31, L1, L1, IMM
        sfpiadd -1, L1, L1, IMM|CC_NONE
        sfpiadd 0, L0, L1, CC_NONE
        sfpstochrnd 0, 0, L1, L1, L2, FP32_TO_FP16B";
    let xs = patterns(1 << 14, 5);
    for arch in BOTH {
        let r = sim(arch, &xs, &[], prog, 2);
        let mut failed_classes = [false; 4];
        for (i, &x) in xs.iter().enumerate() {
            let e = exponent(x);
            let low = (x & 0x7FFF_FFFF) <= 0x0080_0000 && e == 1;
            let ok = r[i] == rne(&c, x);
            if e == 0 || e == 255 || low {
                if !ok {
                    failed_classes[usize::from(e == 255) + 2 * usize::from(low)] = true;
                }
            } else {
                assert!(ok, "{arch:?} {x:#x}: {:#x} vs {:#x}", r[i], rne(&c, x));
            }
        }
        // The exception classes really fail (exponent 0, NaN, the smallest normals).
        assert_eq!(failed_classes[..3], [true, true, true], "{arch:?}");
    }
}

#[test]
fn mad_rounding_chains_are_rne_with_ties_to_even_only_below_the_top_binades() {
    // Veltkamp (γ = x·65537, δ = x − γ, hi = γ + δ) and the magic constant (s = e·1.5·2^16 + x,
    // r = s − e·1.5·2^16, e = x & 0xFF800000) give RNE with ties to even on both archs, but only
    // up to biased exponent 237 / 238: above, the 2^16-times-larger intermediate overflows. Below
    // (exponent 0) the MAD flushes x. So one MAD chain never covers every finite input.
    let c = reference();
    let (k65537, one, neg1, k) = (0x4780_0080, 0x3F80_0000, 0xBF80_0000, 0x47C0_0000);
    type Fma = fn(u32, u32, u32) -> u32;
    for (arch, f) in [("bh", fma_bh as Fma), ("wh", fma_wh as Fma)] {
        let mut worst_ok = [0u32; 2];
        let mut first_bad = [256u32; 2];
        let mut last_bad = [0u32; 2];
        for &x in &patterns(1 << 17, 6) {
            let (e, want) = (exponent(x), rne(&c, x));
            let g = f(x, k65537, 0);
            let veltkamp = f(g, one, f(g, neg1, x));
            let ev = x & 0xFF80_0000;
            let magic = f(ev, k ^ 0x8000_0000, f(ev, k, x));
            for (i, got) in [veltkamp, magic].into_iter().enumerate() {
                if got == want {
                    worst_ok[i] = worst_ok[i].max(e);
                } else {
                    first_bad[i] = first_bad[i].min(e);
                    if e != 255 {
                        last_bad[i] = last_bad[i].max(e);
                    }
                    if e != 0 {
                        assert!(
                            e >= 238 + i as u32,
                            "{arch} chain {i}: {x:#x} gave {got:#x}"
                        );
                    }
                }
            }
        }
        // Both chains fail on some exponent-0 input and on the top binades.
        assert_eq!(first_bad, [0, 0], "{arch}");
        assert_eq!(last_bad, [254, 254], "{arch}");
        assert!(
            worst_ok[0] >= 237 && worst_ok[1] >= 238,
            "{arch}: {worst_ok:?}"
        );
    }
}
