//! The `pto.vcvt` contract (semantics.md §6.3-6.5) as data: one row per (src, dst) pair with
//! lane counts, mask granularity, allowed rnd letters, sat and part family, plus the attribute
//! defaults of §6.4. Which rows a profile offers (§6.5) is that profile's `vcvt_pairs` in
//! `target::profiles`.
//!
//! Invariants: 52 rows, unique pairs; lane counts are 2048 / storage bits; the mask is
//! `b{min(src bits, 32)}`; the part family is E/O for a width ratio of 2 and P for 4, except the
//! fp4x2 rows (P). Unit tests check all of these against the table.

use pto_runtime::ElemType;

use super::tcvt::Sat;
use super::Profile;
use crate::ir::{Part, Rnd, VSat};

/// Which part tokens a pair takes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PartFamily {
    /// EVEN / ODD.
    EvenOdd,
    /// P0 .. P3.
    Packed4,
}

impl PartFamily {
    pub fn accepts(self, part: Part) -> bool {
        part.is_even_odd() == (self == PartFamily::EvenOdd)
    }
    pub fn label(self) -> &'static str {
        match self {
            PartFamily::EvenOdd => "E/O",
            PartFamily::Packed4 => "P",
        }
    }
    /// PTOAS's `VcvtOp::verify` message for a part of the wrong family [VV].
    pub fn ptoas_message(self) -> &'static str {
        match self {
            PartFamily::EvenOdd => "part must be EVEN or ODD for 8/16 and 16/32 vcvt forms",
            PartFamily::Packed4 => "part must be P0, P1, P2, or P3 for packed vcvt forms",
        }
    }
}

/// One contract row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct VcvtContract {
    pub src: ElemType,
    pub dst: ElemType,
    pub src_lanes: u32,
    pub dst_lanes: u32,
    /// Mask granularity in bits (8, 16, 32).
    pub mask_bits: u32,
    /// Allowed rnd letters; `None` = the pair takes no rnd.
    pub rnd: Option<&'static [Rnd]>,
    /// The pair takes sat.
    pub sat: bool,
    /// The part family; `None` = the pair takes no part.
    pub part: Option<PartFamily>,
}

/// "any" = R A F C Z O (no H).
pub const ANY: &[Rnd] = &[Rnd::R, Rnd::A, Rnd::F, Rnd::C, Rnd::Z, Rnd::O];
const RAHZ: &[Rnd] = &[Rnd::R, Rnd::A, Rnd::H, Rnd::Z];
const AH: &[Rnd] = &[Rnd::A, Rnd::H];
const RAFZC: &[Rnd] = &[Rnd::R, Rnd::A, Rnd::F, Rnd::Z, Rnd::C];

use ElemType::{
    F4E1M2x2 as E1M2, F4E2M1x2 as E2M1, Hif8, BF16, F16, F32, F8E4M3FN as E4M3, F8E5M2 as E5M2,
    I16, I32, I64, I8, U16, U32, U8,
};
use PartFamily::{EvenOdd as EO, Packed4 as P};

// A table-row constructor: one argument per column keeps the table readable.
#[allow(clippy::too_many_arguments)]
const fn row(
    src: ElemType,
    dst: ElemType,
    lanes: (u32, u32),
    mask_bits: u32,
    rnd: Option<&'static [Rnd]>,
    sat: bool,
    part: Option<PartFamily>,
) -> VcvtContract {
    VcvtContract {
        src,
        dst,
        src_lanes: lanes.0,
        dst_lanes: lanes.1,
        mask_bits,
        rnd,
        sat,
        part,
    }
}

/// The §6.3 table (FACT [VV] `lookupVcvtContract`, plus f16→bf16 from [PR1352]).
#[rustfmt::skip]
pub const CONTRACT: [VcvtContract; 52] = [
    row(F32, E4M3, (64, 256), 32, Some(RAHZ), true, Some(P)),
    row(F32, E5M2, (64, 256), 32, Some(RAHZ), true, Some(P)),
    row(F32, Hif8, (64, 256), 32, Some(AH), true, Some(P)),
    row(F32, F16, (64, 128), 32, Some(ANY), true, Some(EO)),
    row(F32, BF16, (64, 128), 32, Some(ANY), true, Some(EO)),
    row(F32, I16, (64, 128), 32, Some(ANY), true, Some(EO)),
    row(F32, I64, (64, 32), 32, Some(ANY), true, Some(EO)),
    row(F32, I32, (64, 64), 32, Some(ANY), true, None),
    row(F16, E4M3, (128, 256), 16, Some(RAFZC), true, Some(EO)),
    row(F16, E5M2, (128, 256), 16, Some(RAFZC), true, Some(EO)),
    row(F16, Hif8, (128, 256), 16, Some(AH), true, Some(EO)),
    row(F16, F32, (128, 64), 16, None, false, Some(EO)),
    row(F16, I32, (128, 64), 16, Some(ANY), false, Some(EO)),
    row(F16, I16, (128, 128), 16, Some(ANY), true, None),
    row(F16, I8, (128, 256), 16, Some(ANY), true, Some(EO)),
    row(F16, U8, (128, 256), 16, Some(ANY), true, Some(EO)),
    row(F16, BF16, (128, 128), 16, Some(ANY), false, None),
    row(BF16, E4M3, (128, 256), 16, Some(RAFZC), true, Some(EO)),
    row(BF16, E5M2, (128, 256), 16, Some(RAFZC), true, Some(EO)),
    row(BF16, E1M2, (128, 256), 16, Some(RAFZC), false, Some(P)),
    row(BF16, E2M1, (128, 256), 16, Some(RAFZC), false, Some(P)),
    row(BF16, F16, (128, 128), 16, Some(ANY), true, None),
    row(BF16, F32, (128, 64), 16, None, false, Some(EO)),
    row(BF16, I32, (128, 64), 16, Some(ANY), true, Some(EO)),
    row(U8, F16, (256, 128), 8, None, false, Some(EO)),
    row(U8, U16, (256, 128), 8, None, false, Some(EO)),
    row(U8, U32, (256, 64), 8, None, false, Some(P)),
    row(I8, F16, (256, 128), 8, None, false, Some(EO)),
    row(I8, I16, (256, 128), 8, None, false, Some(EO)),
    row(I8, I32, (256, 64), 8, None, false, Some(P)),
    row(U16, U8, (128, 256), 16, None, true, Some(EO)),
    row(U16, U32, (128, 64), 16, None, false, Some(EO)),
    row(I16, F16, (128, 128), 16, Some(ANY), false, None),
    row(I16, F32, (128, 64), 16, None, false, Some(EO)),
    row(I16, U32, (128, 64), 16, None, false, Some(EO)),
    row(I16, I32, (128, 64), 16, None, false, Some(EO)),
    row(I16, U8, (128, 256), 16, None, true, Some(EO)),
    row(U32, U8, (64, 256), 32, None, true, Some(P)),
    row(U32, U16, (64, 128), 32, None, true, Some(EO)),
    row(U32, I16, (64, 128), 32, None, true, Some(EO)),
    row(I32, F32, (64, 64), 32, Some(ANY), false, None),
    row(I32, U8, (64, 256), 32, None, true, Some(P)),
    row(I32, U16, (64, 128), 32, None, true, Some(EO)),
    row(I32, I16, (64, 128), 32, None, true, Some(EO)),
    row(I32, I64, (64, 32), 32, None, false, Some(EO)),
    row(I64, F32, (32, 64), 32, Some(ANY), false, Some(EO)),
    row(I64, I32, (32, 64), 32, None, true, Some(EO)),
    row(E4M3, F32, (256, 64), 8, None, false, Some(P)),
    row(E5M2, F32, (256, 64), 8, None, false, Some(P)),
    row(Hif8, F32, (256, 64), 8, None, false, Some(P)),
    row(E1M2, BF16, (256, 128), 8, None, false, Some(P)),
    row(E2M1, BF16, (256, 128), 8, None, false, Some(P)),
];

/// The contract row of a pair, if any (independent of profile).
pub fn lookup(src: ElemType, dst: ElemType) -> Option<&'static VcvtContract> {
    CONTRACT.iter().find(|c| c.src == src && c.dst == dst)
}

/// Whether `profile` offers the contract row (§6.5): the profile's `vcvt_pairs`
/// (`target::profiles`; cpu and a5 all, a2a3 a subset).
pub fn available(profile: Profile, c: &VcvtContract) -> bool {
    profile.rules().vcvt_pairs.contains(c.src, c.dst)
}

/// The profiles offering vcvt from `src` to `dst`, in the order cpu, a2a3, a5.
pub fn profiles_supporting(src: ElemType, dst: ElemType) -> Vec<Profile> {
    match lookup(src, dst) {
        Some(c) => Profile::ALL
            .into_iter()
            .filter(|&p| available(p, c))
            .collect(),
        None => Vec::new(),
    }
}

/// Mask granularity (bits) a vcvt with source `src` needs: `min(bits(src), 32)`.
pub fn mask_bits_for(src: ElemType) -> u32 {
    src.storage_bits().min(32)
}

/// H is allowed only where the contract lists it explicitly (f32→fp8, f32→hif8, f16→hif8).
pub fn allows_hybrid(c: &VcvtContract) -> bool {
    c.rnd.is_some_and(|set| set.contains(&Rnd::H))
}

impl VcvtContract {
    pub fn allows_rnd(&self, r: Rnd) -> bool {
        self.rnd.is_some_and(|set| set.contains(&r))
    }

    /// The rnd used when omitted (§6.4): R, or A where R is not allowed (→hif8); `None` when
    /// the pair takes no rnd.
    pub fn default_rnd(&self) -> Option<Rnd> {
        self.rnd.map(|set| {
            if set.contains(&Rnd::R) {
                Rnd::R
            } else {
                Rnd::A
            }
        })
    }

    /// Saturation the conversion is evaluated with (§6.4): the attribute (default NOSAT) if the
    /// pair takes sat; otherwise ON for integer destinations and OFF for float destinations.
    pub fn effective_sat(&self, sat: Option<VSat>) -> Sat {
        if self.sat {
            match sat {
                Some(VSat::Sat) => Sat::On,
                Some(VSat::NoSat) | None => Sat::Off,
            }
        } else if self.dst.is_int() {
            Sat::On
        } else {
            Sat::Off
        }
    }

    /// The rnd letter in effect: the attribute, else the default (`None`: pair takes none).
    pub fn effective_rnd(&self, rnd: Option<Rnd>) -> Option<Rnd> {
        self.rnd.and(rnd.or(self.default_rnd()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn totals_match_the_spec() {
        assert_eq!(CONTRACT.len(), 52);
        let a2a3 = CONTRACT.iter().filter(|c| available(Profile::A2a3, c));
        assert_eq!(a2a3.count(), 21);
        // Every pair a profile lists has a contract row.
        for p in Profile::ALL {
            if let super::super::profiles::PairSet::Pairs(ps) = p.rules().vcvt_pairs {
                assert!(ps.iter().all(|&(s, d)| lookup(s, d).is_some()), "{p}");
            }
        }
        for (i, c) in CONTRACT.iter().enumerate() {
            assert!(
                CONTRACT[i + 1..]
                    .iter()
                    .all(|o| (o.src, o.dst) != (c.src, c.dst)),
                "duplicate {}->{}",
                c.src,
                c.dst
            );
        }
    }

    #[test]
    fn rows_are_consistent() {
        for c in &CONTRACT {
            let what = format!("{}->{}", c.src, c.dst);
            assert_eq!(c.src_lanes * c.src.storage_bits(), 2048, "{what}");
            assert_eq!(c.dst_lanes * c.dst.storage_bits(), 2048, "{what}");
            assert_eq!(c.mask_bits, mask_bits_for(c.src), "{what}");
            let (big, small) = (
                c.src.storage_bits().max(c.dst.storage_bits()),
                c.src.storage_bits().min(c.dst.storage_bits()),
            );
            let fp4 = c.src.is_packed() || c.dst.is_packed();
            let expected = match big / small {
                1 => None,
                2 if fp4 => Some(PartFamily::Packed4),
                2 => Some(PartFamily::EvenOdd),
                4 => Some(PartFamily::Packed4),
                _ => unreachable!("{what}"),
            };
            assert_eq!(c.part, expected, "{what}");
            if available(Profile::A2a3, c) {
                assert!(
                    super::super::tcvt::mark(c.src, c.dst).a2a3,
                    "a2a3 vcvt pairs are a2a3 tcvt pairs: {what}"
                );
            }
        }
    }

    #[test]
    fn spot_checks() {
        let c = lookup(ElemType::F32, ElemType::Hif8).map(|c| (c.default_rnd(), allows_hybrid(c)));
        assert_eq!(c, Some((Some(Rnd::A), true)));
        let c = lookup(ElemType::F32, ElemType::F16);
        assert!(c.is_some_and(|c| !allows_hybrid(c) && c.allows_rnd(Rnd::O)));
        assert!(lookup(ElemType::F16, ElemType::F8E4M3FN).is_some_and(|c| !c.allows_rnd(Rnd::H)));
        let c = lookup(ElemType::F16, ElemType::I32);
        assert!(c.is_some_and(|c| c.effective_sat(None) == Sat::On));
        let c = lookup(ElemType::F16, ElemType::F32);
        assert!(c.is_some_and(
            |c| c.effective_sat(None) == Sat::Off && c.effective_rnd(Some(Rnd::Z)).is_none()
        ));
        assert!(lookup(ElemType::U32, ElemType::F32).is_none());
        assert_eq!(
            profiles_supporting(ElemType::F32, ElemType::F8E5M2),
            vec![Profile::Cpu, Profile::A5]
        );
        assert_eq!(profiles_supporting(ElemType::I32, ElemType::I16).len(), 3);
    }
}
