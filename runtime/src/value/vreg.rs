//! Vector registers (`!pto.vreg<NxT>`, 2048 bits) and the lane operations ptoc executes:
//! [`vcvt`] exactly as semantics.md §6.6 writes it, and [`vor`].
//!
//! Lanes are storage elements: a packed `x2` register has 256 carrier-byte lanes, each holding
//! two logical nibbles. Masks gate lanes through their predicate bits: the lane of an element of
//! `w` bytes at index `i` is predicate bit `i·w`, which for vcvt is the §6.6 rule (source lane
//! `i` of a ≤32-bit type is mask lane `i`; an i64 lane `i` is b32 lane `2i`).

use super::mask::{Granularity, Mask};
use super::{ConvStats, ValueError};
use crate::convert::Converter;
use crate::elem::ElemType;

/// Bits in a vector register.
pub const VREG_BITS: u32 = 2048;
/// Bytes in a vector register.
pub const VREG_BYTES: usize = 256;

/// The `part` of a vcvt (EVEN = P0 placement index 0, ODD = index 1, Pk = k).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    Even,
    Odd,
    P0,
    P1,
    P2,
    P3,
}

impl Part {
    /// The index k of §6.6.
    pub fn index(self) -> usize {
        match self {
            Part::Even | Part::P0 => 0,
            Part::Odd | Part::P1 => 1,
            Part::P2 => 2,
            Part::P3 => 3,
        }
    }
}

/// A vector register value.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct VReg {
    elem: ElemType,
    bytes: [u8; VREG_BYTES],
}

impl VReg {
    /// An all-zero register of `elem`.
    pub fn zeroed(elem: ElemType) -> VReg {
        VReg {
            elem,
            bytes: [0; VREG_BYTES],
        }
    }

    /// A register from its 256 storage bytes.
    pub fn from_storage(elem: ElemType, bytes: &[u8]) -> Result<VReg, ValueError> {
        let bytes: [u8; VREG_BYTES] = bytes.try_into().map_err(|_| ValueError::StorageSize {
            what: "a vector register",
            elem,
            needed: VREG_BYTES,
            actual: bytes.len(),
        })?;
        Ok(VReg { elem, bytes })
    }

    pub fn elem(&self) -> ElemType {
        self.elem
    }

    /// Lanes: 2048 / storage bits (256 carrier lanes for packed types).
    pub fn lanes(&self) -> usize {
        lanes_of(self.elem)
    }

    pub fn storage(&self) -> &[u8; VREG_BYTES] {
        &self.bytes
    }

    /// Storage bits of lane `i` (the carrier byte for packed types); 0 beyond the last lane.
    pub fn lane(&self, i: usize) -> u64 {
        let w = self.elem.storage_bytes() as usize;
        let mut le = [0u8; 8];
        if let (Some(src), Some(dst)) = (
            i.checked_mul(w).and_then(|at| self.bytes.get(at..at + w)),
            le.get_mut(..w),
        ) {
            dst.copy_from_slice(src);
        }
        u64::from_le_bytes(le)
    }

    /// Sets lane `i` from the low storage bits of `bits` (ignored beyond the last lane).
    pub fn set_lane(&mut self, i: usize, bits: u64) {
        let w = self.elem.storage_bytes() as usize;
        if let Some(dst) = i
            .checked_mul(w)
            .and_then(|at| self.bytes.get_mut(at..at + w))
        {
            dst.copy_from_slice(&bits.to_le_bytes()[..w]);
        }
    }
}

fn lanes_of(elem: ElemType) -> usize {
    VREG_BYTES / elem.storage_bytes() as usize
}

/// Whether lane `i` of an element of `w` bytes is active under `mask` (predicate bit `i·w`).
fn active(mask: &Mask, i: usize, w: usize) -> bool {
    i.checked_mul(w).is_some_and(|k| mask.pbit(k))
}

/// `vcvt(src, mask, rnd, sat, part)` of §6.6, with `conv` holding the effective rounding,
/// saturation and path. The result starts all zero (zero-merge); `part` must be given exactly
/// when the lane counts differ or an fp4x2 carrier is involved, with k below the width ratio
/// (4 for the fp4x2 carrier rules). The mask must have granularity `b{min(bits(src), 32)}`.
pub fn vcvt(
    src: &VReg,
    mask: &Mask,
    conv: &Converter,
    part: Option<Part>,
) -> Result<(VReg, ConvStats), ValueError> {
    let spec = conv.spec();
    let (s, d) = (spec.src, spec.dst);
    if src.elem != s {
        return Err(ValueError::ElemMismatch {
            role: "vcvt input",
            expected: s,
            found: src.elem,
        });
    }
    let need = Granularity::from_bits(s.storage_bits().min(32)).unwrap_or(Granularity::B8);
    if mask.granularity() != need {
        return Err(ValueError::MaskGranularity {
            op: "vcvt",
            expected: need.bits(),
            found: mask.granularity().bits(),
        });
    }
    let placement = |reason: &str| ValueError::VcvtPlacement {
        src: s,
        dst: d,
        reason: reason.to_string(),
    };
    let (ns, nd) = (lanes_of(s), lanes_of(d));
    let fp4 = s.is_packed() || d.is_packed();
    let ratio = if fp4 { 4 } else { ns.max(nd) / ns.min(nd) };
    let k = match (part, ns == nd && !fp4) {
        (None, true) => 0,
        (Some(_), true) => return Err(placement("a same-width conversion takes no part")),
        (None, false) => return Err(placement("a width-changing conversion needs a part")),
        (Some(p), false) if p.index() < ratio => p.index(),
        (Some(p), false) => {
            return Err(placement(&format!(
                "part index {} is out of range for width ratio {ratio}",
                p.index()
            )))
        }
    };
    let sw = s.storage_bytes() as usize;
    let mut dst = VReg::zeroed(d);
    let mut stats = ConvStats::default();
    let mut cvt = |bits: u64| {
        let (out, o) = conv.convert_with_outcome(bits);
        stats.record(o);
        out
    };
    if fp4 && d.is_packed() {
        // bf16 → fp4x2: two source lanes fill the nibbles of carrier 4j+k.
        if ns != 128 || s.is_packed() {
            return Err(placement(
                "packing into fp4x2 needs 128 16-bit source lanes",
            ));
        }
        for j in 0..64 {
            let lo = if active(mask, 2 * j, sw) {
                cvt(src.lane(2 * j)) & 0xF
            } else {
                0
            };
            let hi = if active(mask, 2 * j + 1, sw) {
                cvt(src.lane(2 * j + 1)) & 0xF
            } else {
                0
            };
            dst.set_lane(4 * j + k, lo | (hi << 4));
        }
    } else if fp4 {
        // fp4x2 → bf16: carrier 4j+k unpacks into lanes 2j, 2j+1.
        if nd != 128 {
            return Err(placement("unpacking fp4x2 needs 128 16-bit result lanes"));
        }
        for j in 0..64 {
            let lane = 4 * j + k;
            if active(mask, lane, sw) {
                let b = src.lane(lane);
                dst.set_lane(2 * j, cvt(b & 0xF));
                dst.set_lane(2 * j + 1, cvt(b >> 4));
            }
        }
    } else if ns == nd {
        for i in 0..ns {
            if active(mask, i, sw) {
                dst.set_lane(i, cvt(src.lane(i)));
            }
        }
    } else if ns < nd {
        let r = nd / ns;
        for i in 0..ns {
            if active(mask, i, sw) {
                dst.set_lane(r * i + k, cvt(src.lane(i)));
            }
        }
    } else {
        let r = ns / nd;
        for i in 0..nd {
            if active(mask, r * i + k, sw) {
                dst.set_lane(i, cvt(src.lane(r * i + k)));
            }
        }
    }
    Ok((dst, stats))
}

/// `vor(lhs, rhs, mask)`: bitwise OR of active lanes; inactive lanes are zero (zeroing
/// predication, as vcvt). Both operands must hold the same element type.
pub fn vor(lhs: &VReg, rhs: &VReg, mask: &Mask) -> Result<VReg, ValueError> {
    if lhs.elem != rhs.elem {
        return Err(ValueError::VorElem {
            lhs: lhs.elem,
            rhs: rhs.elem,
        });
    }
    let w = lhs.elem.storage_bytes() as usize;
    let mut out = VReg::zeroed(lhs.elem);
    for i in 0..lhs.lanes() {
        if active(mask, i, w) {
            out.set_lane(i, lhs.lane(i) | rhs.lane(i));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::convert::{ConvSpec, NonSatPath, Rounding};

    fn conv(src: ElemType, dst: ElemType, sat: bool) -> Converter {
        Converter::new(ConvSpec {
            src,
            dst,
            rounding: Rounding::Rint,
            sat,
            path: NonSatPath::X86,
        })
        .unwrap_or_else(|e| panic!("{e}"))
    }

    fn iota(elem: ElemType, f: impl Fn(usize) -> u64) -> VReg {
        let mut v = VReg::zeroed(elem);
        for i in 0..v.lanes() {
            v.set_lane(i, f(i));
        }
        v
    }

    #[test]
    fn lanes_and_storage() {
        let mut v = VReg::zeroed(ElemType::I64);
        assert_eq!(v.lanes(), 32);
        v.set_lane(31, u64::MAX);
        v.set_lane(32, 1); // ignored
        assert_eq!(v.lane(31), u64::MAX);
        assert_eq!(v.storage()[248..], [0xFF; 8]);
        assert_eq!(VReg::zeroed(ElemType::F4E2M1x2).lanes(), 256);
        assert!(VReg::from_storage(ElemType::F32, &[0; 255]).is_err());
    }

    #[test]
    fn operand_checks() {
        let c = conv(ElemType::I32, ElemType::I16, true);
        let v = VReg::zeroed(ElemType::I32);
        let m16 = Mask::all(Granularity::B16);
        assert!(matches!(
            vcvt(&v, &m16, &c, Some(Part::Even)),
            Err(ValueError::MaskGranularity {
                expected: 32,
                found: 16,
                ..
            })
        ));
        let m = Mask::all(Granularity::B32);
        assert!(matches!(
            vcvt(&v, &m, &c, None),
            Err(ValueError::VcvtPlacement { .. })
        ));
        assert!(matches!(
            vcvt(&v, &m, &c, Some(Part::P2)),
            Err(ValueError::VcvtPlacement { .. })
        ));
        let w = VReg::zeroed(ElemType::I16);
        assert!(matches!(
            vcvt(&w, &m, &c, Some(Part::Even)),
            Err(ValueError::ElemMismatch { .. })
        ));
        let c = conv(ElemType::I32, ElemType::F32, false);
        assert!(matches!(
            vcvt(&v, &m, &c, Some(Part::Even)),
            Err(ValueError::VcvtPlacement { .. })
        ));
    }

    #[test]
    fn vor_zeroes_inactive_lanes() {
        let a = iota(ElemType::I16, |i| i as u64);
        let b = iota(ElemType::I16, |_| 0x100);
        let m = Mask::first(Granularity::B16, 3);
        let r = vor(&a, &b, &m).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.lane(0), r.lane(2), r.lane(3)), (0x100, 0x102, 0));
        assert!(vor(&a, &VReg::zeroed(ElemType::U16), &m).is_err());
    }

    // The tests below need the numeric core; their conversions are exact (integer widening and
    // narrowing with saturation), so the expected values are known without it.

    #[test]
    fn narrowing_even_odd_and_vor_interleave() {
        let c = conv(ElemType::I32, ElemType::I16, true);
        let m = Mask::all(Granularity::B32);
        let a = iota(ElemType::I32, |i| i as u64);
        let b = iota(ElemType::I32, |i| (1000 + i) as u64);
        let (ev, st) = vcvt(&a, &m, &c, Some(Part::Even)).unwrap_or_else(|e| panic!("{e}"));
        let (od, _) = vcvt(&b, &m, &c, Some(Part::Odd)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(st.converted, 64);
        assert_eq!(
            (ev.lane(0), ev.lane(1), ev.lane(2), ev.lane(127)),
            (0, 0, 1, 0)
        );
        assert_eq!((od.lane(0), od.lane(1), od.lane(127)), (0, 1000, 1063));
        let mix = vor(&ev, &od, &Mask::all(Granularity::B16)).unwrap_or_else(|e| panic!("{e}"));
        for i in 0..64 {
            assert_eq!(mix.lane(2 * i), i as u64);
            assert_eq!(mix.lane(2 * i + 1), (1000 + i) as u64);
        }
    }

    #[test]
    fn packed4_placement_and_zero_merge() {
        let c = conv(ElemType::I32, ElemType::U8, true);
        let a = iota(ElemType::I32, |i| i as u64 + 1);
        let m = Mask::first(Granularity::B32, 2);
        let (r, st) = vcvt(&a, &m, &c, Some(Part::P3)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(st.converted, 2);
        assert_eq!((r.lane(3), r.lane(7), r.lane(11)), (1, 2, 0));
        assert_eq!((0..256).filter(|&i| r.lane(i) != 0).count(), 2);
        // Widening P2: dst[i] = src[4i + 2], gated by source lane 4i + 2.
        let c = conv(ElemType::I8, ElemType::I32, true);
        let a = iota(ElemType::I8, |i| i as u64);
        let mut m = Mask::all(Granularity::B8);
        m.set_lane(6, false);
        let (r, _) = vcvt(&a, &m, &c, Some(Part::P2)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.lane(0), r.lane(1), r.lane(2)), (2, 0, 10));
    }

    #[test]
    fn i64_lanes_are_gated_by_predicate_bit_2i() {
        let c = conv(ElemType::I64, ElemType::I32, true);
        let a = iota(ElemType::I64, |i| i as u64 + 5);
        // b32 lane 2 (= predicate bit 8) gates i64 lane 1; b32 lane 1 gates nothing.
        let m = Mask::from_lanes(Granularity::B32, &[false, true, true]);
        let (r, st) = vcvt(&a, &m, &c, Some(Part::Even)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(st.converted, 1);
        assert_eq!((r.lane(0), r.lane(2)), (0, 6));
        // Widening i32 -> i64 ODD: dst[i] = src[2i + 1], gated by b32 lane 2i + 1.
        let c = conv(ElemType::I32, ElemType::I64, true);
        let a = iota(ElemType::I32, |i| i as u64);
        let (r, _) = vcvt(&a, &Mask::all(Granularity::B32), &c, Some(Part::Odd))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.lane(0), r.lane(31)), (1, 63));
    }

    #[test]
    fn fp4_carrier_rules() {
        // fp4 e2m1 nibble 0x2 = 1.0 = bf16 0x3F80; 0x9 = -0.5 = 0xBF00.
        let c = conv(ElemType::F4E2M1x2, ElemType::BF16, false);
        let a = iota(ElemType::F4E2M1x2, |i| if i % 4 == 1 { 0x92 } else { 0x22 });
        let (r, _) = vcvt(&a, &Mask::all(Granularity::B8), &c, Some(Part::P1))
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (r.lane(0), r.lane(1), r.lane(127)),
            (0x3F80, 0xBF00, 0xBF00)
        );
        let c = conv(ElemType::BF16, ElemType::F4E2M1x2, false);
        let a = iota(ElemType::BF16, |i| if i % 2 == 0 { 0x3F80 } else { 0xBF00 });
        let m = Mask::from_lanes(Granularity::B16, &[true, true, true, false]);
        let (r, _) = vcvt(&a, &m, &c, Some(Part::P2)).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!((r.lane(2), r.lane(6), r.lane(10)), (0x92, 0x02, 0));
        assert_eq!((0..256).filter(|&i| r.lane(i) != 0).count(), 2);
    }
}
