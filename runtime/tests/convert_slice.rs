//! Bulk conversion (`Converter::convert_slice` / `convert_slice_par`): storage layout (little
//! endian, two nibbles per byte with element 2k low, §2.6), odd counts (the last byte's high
//! nibble and every byte past the covered range are preserved), buffer-size errors, and
//! agreement with the per-element `convert_bits` for every pair and executable spec (whose bits
//! are checked against the reference in `convert_exhaustive` / `convert_wide`), plus a direct
//! check against the slow reference on a sample of every pair.

mod slowref;

use pto_runtime::convert::storage_len;
use pto_runtime::{ConvError, ConvSpec, Converter, ElemType, NonSatPath, Rounding};
use slowref::sweep::converters;

fn mask(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// Storage bytes of logical elements (low `value_bits` of each).
fn pack(t: ElemType, vals: &[u64]) -> Vec<u8> {
    let mut out = vec![0u8; storage_len(t, vals.len())];
    if t.is_packed() {
        for (i, v) in vals.iter().enumerate() {
            let nib = (v & 0xF) as u8;
            out[i / 2] |= if i % 2 == 0 { nib } else { nib << 4 };
        }
    } else {
        let w = t.storage_bytes() as usize;
        for (i, v) in vals.iter().enumerate() {
            out[i * w..(i + 1) * w].copy_from_slice(&v.to_le_bytes()[..w]);
        }
    }
    out
}

fn unpack(t: ElemType, bytes: &[u8], count: usize) -> Vec<u64> {
    (0..count)
        .map(|i| {
            if t.is_packed() {
                let b = bytes[i / 2];
                (if i % 2 == 0 { b & 0xF } else { b >> 4 }) as u64
            } else {
                let w = t.storage_bytes() as usize;
                let mut le = [0u8; 8];
                le[..w].copy_from_slice(&bytes[i * w..(i + 1) * w]);
                u64::from_le_bytes(le)
            }
        })
        .collect()
}

/// Source patterns: every pattern of ≤16-bit types, a seeded sample (with specials) otherwise.
fn inputs(t: ElemType) -> Vec<u64> {
    let n = t.value_bits();
    if n <= 16 {
        return (0..1u64 << n).collect();
    }
    let mut rng = fastrand::Rng::with_seed(n as u64 * 7 + t as u64);
    let mut v: Vec<u64> = (0..4093).map(|_| rng.u64(..) & mask(n)).collect();
    v.extend([0, 1, mask(n), 1u64 << (n - 1), 0x7F80_0000, 0x7FC0_0001]);
    v.iter().map(|b| b & mask(n)).collect()
}

fn spec(src: ElemType, dst: ElemType, sat: bool) -> ConvSpec {
    ConvSpec {
        src,
        dst,
        rounding: if dst == ElemType::Hif8 {
            Rounding::Round
        } else {
            Rounding::Rint
        },
        sat,
        path: NonSatPath::X86,
    }
}

/// For every pair and every executable spec: slice result == per-element result, on an odd
/// count (the whole input minus one element) into a destination pre-filled with a canary.
#[test]
fn slice_agrees_with_convert_bits_everywhere() {
    let mut bad = Vec::new();
    for src in ElemType::ALL {
        let vals = inputs(src);
        let count = vals.len() - 1; // odd for every input length used here
        let sbytes = pack(src, &vals);
        for dst in ElemType::ALL {
            for c in converters(src, dst) {
                let need = storage_len(dst, count);
                let mut d = vec![0xA5u8; need + 3];
                if let Err(e) = c.convert_slice(&sbytes, &mut d, count) {
                    bad.push(format!("{:?}: {e}", c.spec()));
                    continue;
                }
                let got = unpack(dst, &d, count);
                let first = (0..count).find(|&i| got[i] != c.convert_bits(vals[i]));
                if let Some(i) = first {
                    bad.push(format!(
                        "{:?}: element {i} (src {:#x}): slice {:#x}, convert_bits {:#x}",
                        c.spec(),
                        vals[i],
                        got[i],
                        c.convert_bits(vals[i])
                    ));
                }
                if d[need..] != [0xA5; 3] {
                    bad.push(format!(
                        "{:?}: bytes past the covered range changed",
                        c.spec()
                    ));
                }
                if dst.is_packed() && count % 2 == 1 && d[need - 1] >> 4 != 0xA {
                    bad.push(format!(
                        "{:?}: high nibble of the last byte changed",
                        c.spec()
                    ));
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// The slice path against the slow reference directly (RINT, or ROUND into hif8; sat off and
/// on), on every 8-bit / nibble pattern and a 2 048-element sample of wider sources.
#[test]
fn slice_matches_the_reference_on_a_sample() {
    let mut bad = Vec::new();
    for src in ElemType::ALL {
        let mut vals = inputs(src);
        vals.truncate(2048);
        let sbytes = pack(src, &vals);
        for dst in ElemType::ALL {
            for sat in [false, true] {
                let s = spec(src, dst, sat);
                let Ok(c) = Converter::new(s) else {
                    bad.push(format!("{s:?} refused"));
                    continue;
                };
                let mut d = vec![0u8; storage_len(dst, vals.len())];
                if let Err(e) = c.convert_slice(&sbytes, &mut d, vals.len()) {
                    bad.push(format!("{s:?}: {e}"));
                    continue;
                }
                let got = unpack(dst, &d, vals.len());
                for (i, &b) in vals.iter().enumerate() {
                    let want = slowref::convert(src, dst, s.rounding, sat, s.path, b).bits;
                    if got[i] != want {
                        bad.push(format!(
                            "{s:?}: src {b:#x}: expected {want:#x}, got {:#x}",
                            got[i]
                        ));
                        break;
                    }
                }
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

/// Packed sources with an odd count ignore the last byte's high nibble.
#[test]
fn odd_count_ignores_the_unused_source_nibble() {
    for src in [ElemType::F4E2M1x2, ElemType::F4E1M2x2, ElemType::S4x2] {
        for dst in ElemType::ALL {
            let c = Converter::new(spec(src, dst, false)).unwrap_or_else(|e| panic!("{e}"));
            let vals: Vec<u64> = (0..15).collect();
            let mut a = pack(src, &vals);
            let mut da = vec![0u8; storage_len(dst, 15)];
            c.convert_slice(&a, &mut da, 15)
                .unwrap_or_else(|e| panic!("{e}"));
            let last = a.len() - 1;
            a[last] |= 0xF0;
            let mut db = vec![0u8; storage_len(dst, 15)];
            c.convert_slice(&a, &mut db, 15)
                .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(da, db, "{src} -> {dst}");
        }
    }
}

/// Neighbouring nibbles of a packed destination survive element-wise writes at every offset.
#[test]
fn packed_destination_neighbours_are_preserved() {
    let c = Converter::new(spec(ElemType::F32, ElemType::F4E2M1x2, false))
        .unwrap_or_else(|e| panic!("{e}"));
    let one = 1.0f32.to_bits() as u64; // E2M1 code 0x2
    for count in 0..9usize {
        let src = pack(ElemType::F32, &vec![one; count]);
        let mut d = vec![0xFFu8; 6];
        c.convert_slice(&src, &mut d, count)
            .unwrap_or_else(|e| panic!("{e}"));
        let got = unpack(ElemType::F4E2M1x2, &d, 12);
        for (i, g) in got.iter().enumerate() {
            let want = if i < count { 0x2 } else { 0xF };
            assert_eq!(*g, want, "count {count}, nibble {i}");
        }
    }
}

#[test]
fn buffer_size_errors_name_role_and_sizes() {
    for (src, dst) in [
        (ElemType::F32, ElemType::F16),
        (ElemType::F16, ElemType::S4x2),
        (ElemType::F4E2M1x2, ElemType::I64),
        (ElemType::S4x2, ElemType::F4E1M2x2),
    ] {
        let c = Converter::new(spec(src, dst, false)).unwrap_or_else(|e| panic!("{e}"));
        for count in [1usize, 2, 7, 8] {
            let sn = storage_len(src, count);
            let dn = storage_len(dst, count);
            let short_src = vec![0u8; sn - 1];
            let mut d = vec![0u8; dn];
            match c.convert_slice(&short_src, &mut d, count) {
                Err(ConvError::BufferSize {
                    role,
                    elem,
                    count: n,
                    needed,
                    actual,
                }) => {
                    assert!(role.starts_with("s"), "{role}");
                    assert_eq!((elem, n, needed, actual), (src, count, sn, sn - 1));
                }
                other => panic!("{src}->{dst} short src, count {count}: {other:?}"),
            }
            let s = vec![0u8; sn];
            let mut short_dst = vec![0u8; dn - 1];
            match c.convert_slice(&s, &mut short_dst, count) {
                Err(ConvError::BufferSize {
                    role,
                    elem,
                    count: n,
                    needed,
                    actual,
                }) => {
                    assert!(role.starts_with("d"), "{role}");
                    assert_eq!((elem, n, needed, actual), (dst, count, dn, dn - 1));
                }
                other => panic!("{src}->{dst} short dst, count {count}: {other:?}"),
            }
            assert!(c.convert_slice_par(&short_src, &mut d, count).is_err());
            // Larger buffers are fine.
            let mut big = vec![0u8; dn + 4];
            assert_eq!(c.convert_slice(&vec![0u8; sn + 4], &mut big, count), Ok(()));
        }
        // count 0 touches nothing.
        let mut d = vec![0x5Au8; 4];
        assert_eq!(c.convert_slice(&[], &mut d, 0), Ok(()));
        assert_eq!(d, vec![0x5A; 4]);
    }
}

/// The parallel variant writes exactly what the single-threaded one writes.
#[test]
fn parallel_slice_equals_single_threaded() {
    let mut rng = fastrand::Rng::with_seed(0x5eed);
    for (src, dst, count) in [
        (ElemType::F32, ElemType::F16, 1_000_003usize),
        (ElemType::F32, ElemType::F4E2M1x2, 1_000_003),
        (ElemType::F4E1M2x2, ElemType::BF16, 999_999),
        (ElemType::I64, ElemType::S4x2, 300_001),
        (ElemType::BF16, ElemType::Hif8, 524_289),
    ] {
        let c = Converter::new(spec(src, dst, true)).unwrap_or_else(|e| panic!("{e}"));
        let mut s = vec![0u8; storage_len(src, count)];
        rng.fill(&mut s);
        let mut a = vec![0x3Cu8; storage_len(dst, count) + 2];
        let mut b = a.clone();
        c.convert_slice(&s, &mut a, count)
            .unwrap_or_else(|e| panic!("{e}"));
        c.convert_slice_par(&s, &mut b, count)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(a == b, "{src} -> {dst}: parallel result differs");
    }
}
