//! Exhaustive evidence for the numeric core (issue 3): every pattern of every 8- and 16-bit
//! source type and every nibble of the 4-bit types, converted to all 16 destinations under every
//! executable (mode, sat) and, for float→int with sat OFF, every non-saturating path, compared
//! bit for bit (and the `Outcome` flags where semantics.md pins them) with the independent slow
//! reference in `slowref/`. Also: `Converter::new` refuses exactly the specs the spec leaves
//! undefined, and bits above the source width are ignored.

mod slowref;

use pto_runtime::{ConvSpec, Converter, ElemType, Rounding};
use slowref::sweep::{assert_sweep, check_new, paths_for, ALL_MODES};

fn all_patterns(src: ElemType) -> Vec<u64> {
    (0..1u64 << src.value_bits()).collect()
}

fn exhaustive(src: ElemType) {
    assert_sweep(src, &all_patterns(src), &ElemType::ALL);
}

#[test]
fn converter_new_refuses_exactly_the_undefined_modes() {
    let mut bad = Vec::new();
    let mut accepted = 0;
    for src in ElemType::ALL {
        for dst in ElemType::ALL {
            for rounding in ALL_MODES {
                for sat in [false, true] {
                    for &path in &slowref::sweep::PATHS {
                        let spec = ConvSpec {
                            src,
                            dst,
                            rounding,
                            sat,
                            path,
                        };
                        match check_new(spec) {
                            Ok(Some(_)) => accepted += 1,
                            Ok(None) => {}
                            Err(e) => bad.push(e),
                        }
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} specs disagree:\n{}",
        bad.len(),
        bad.join("\n")
    );
    // 256 pairs × 2 sat × 3 paths × 6 modes, minus hif8 (5 modes) and ODD into E4M3FN/fp4.
    assert_eq!(accepted, (256 * 6 - 16 * 5 - 16 * 3) * 6);
}

#[test]
fn exhaustive_f16() {
    exhaustive(ElemType::F16);
}

#[test]
fn exhaustive_bf16() {
    exhaustive(ElemType::BF16);
}

#[test]
fn exhaustive_i16() {
    exhaustive(ElemType::I16);
}

#[test]
fn exhaustive_ui16() {
    exhaustive(ElemType::U16);
}

#[test]
fn exhaustive_f8e4m3fn() {
    exhaustive(ElemType::F8E4M3FN);
}

#[test]
fn exhaustive_f8e5m2() {
    exhaustive(ElemType::F8E5M2);
}

#[test]
fn exhaustive_hif8() {
    exhaustive(ElemType::Hif8);
}

#[test]
fn exhaustive_i8() {
    exhaustive(ElemType::I8);
}

#[test]
fn exhaustive_ui8() {
    exhaustive(ElemType::U8);
}

#[test]
fn exhaustive_nibbles_f4e2m1_f4e1m2_s4() {
    for src in [ElemType::F4E2M1x2, ElemType::F4E1M2x2, ElemType::S4x2] {
        exhaustive(src);
    }
}

/// `convert_bits` ignores bits above the source's value width and never sets bits above the
/// destination's.
#[test]
fn bits_above_the_element_are_ignored() {
    let mut rng = fastrand::Rng::with_seed(0x1d);
    let mut bad = Vec::new();
    for src in ElemType::ALL {
        for dst in ElemType::ALL {
            let rounding = if dst == ElemType::Hif8 {
                Rounding::Round
            } else {
                Rounding::Trunc
            };
            for sat in [false, true] {
                for &path in paths_for(src, dst, sat) {
                    let spec = ConvSpec {
                        src,
                        dst,
                        rounding,
                        sat,
                        path,
                    };
                    let Ok(c) = Converter::new(spec) else {
                        bad.push(format!("{spec:?} refused"));
                        continue;
                    };
                    let n = src.value_bits();
                    for _ in 0..64 {
                        let b = rng.u64(..) & mask(n);
                        let junk = if n >= 64 { 0 } else { rng.u64(..) << n };
                        let (clean, dirty) = (c.convert_bits(b), c.convert_bits(b | junk));
                        if clean != dirty || clean & !mask(dst.value_bits()) != 0 {
                            bad.push(format!(
                                "{spec:?} {b:#x} | {junk:#x}: {clean:#x} vs {dirty:#x}"
                            ));
                            break;
                        }
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}
