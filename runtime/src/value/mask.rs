//! Predicate masks (`!pto.mask<b8|b16|b32>`, semantics.md §6.2): the 256 predicate bits of the
//! hardware, one per byte of a vector register, plus the granularity the mask was typed with.
//!
//! Lane `j` of a `bN` mask is predicate bit `j·N/8`; a `bN` constructor sets only those bits, so
//! a b32 mask has 64 lanes. Storage (for `.bin` I/O) is the 32 bytes of predicate bits, bit k
//! of the mask in bit k%8 of byte k/8.
//!
//! Patterns (`pto.pset_bN "PAT_…"`; the names of PTOAS `VPTO.cpp`, meaning as the SVE-style
//! predicate patterns they mirror — a documented convention, no source states them):
//! `PAT_ALL` every lane, `PAT_ALLF` none, `PAT_VLn` the first n lanes (none when n exceeds the
//! lane count), `PAT_H` / `PAT_Q` the first half / quarter, `PAT_M3` / `PAT_M4` the largest
//! multiple of 3 / 4 lanes.

use super::ValueError;

/// Bytes of predicate storage in a mask (256 bits).
pub const MASK_BYTES: usize = 32;

/// The granularity of a mask (`b8`, `b16`, `b32`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Granularity {
    B8,
    B16,
    B32,
}

impl Granularity {
    /// Bits per lane (8, 16, 32).
    pub fn bits(self) -> u32 {
        match self {
            Granularity::B8 => 8,
            Granularity::B16 => 16,
            Granularity::B32 => 32,
        }
    }

    /// The granularity of `bits` (8, 16 or 32).
    pub fn from_bits(bits: u32) -> Option<Granularity> {
        match bits {
            8 => Some(Granularity::B8),
            16 => Some(Granularity::B16),
            32 => Some(Granularity::B32),
            _ => None,
        }
    }

    /// Bytes of a vreg covered by one lane.
    pub fn lane_bytes(self) -> usize {
        self.bits() as usize / 8
    }

    /// Lanes of a mask of this granularity (2048 / bits).
    pub fn lanes(self) -> usize {
        MASK_BYTES * 8 / self.lane_bytes()
    }
}

/// A predicate mask.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Mask {
    granularity: Granularity,
    pbits: [u8; MASK_BYTES],
}

impl Mask {
    /// No lane active.
    pub fn none(granularity: Granularity) -> Mask {
        Mask {
            granularity,
            pbits: [0; MASK_BYTES],
        }
    }

    /// Every lane active.
    pub fn all(granularity: Granularity) -> Mask {
        Mask::first(granularity, granularity.lanes())
    }

    /// The first `n` lanes active (all when `n` exceeds the lane count).
    pub fn first(granularity: Granularity, n: usize) -> Mask {
        let mut m = Mask::none(granularity);
        for j in 0..n.min(granularity.lanes()) {
            m.set_lane(j, true);
        }
        m
    }

    /// The mask of `pto.pset_bN "pattern"` (patterns: module doc).
    pub fn from_pattern(granularity: Granularity, pattern: &str) -> Result<Mask, ValueError> {
        let lanes = granularity.lanes();
        let unknown = || ValueError::UnknownPattern {
            pattern: pattern.to_string(),
        };
        let n = match pattern {
            "PAT_ALL" => lanes,
            "PAT_ALLF" => 0,
            "PAT_H" => lanes / 2,
            "PAT_Q" => lanes / 4,
            "PAT_M3" => lanes / 3 * 3,
            "PAT_M4" => lanes / 4 * 4,
            _ => {
                let digits = pattern.strip_prefix("PAT_VL").ok_or_else(unknown)?;
                if digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(unknown());
                }
                let n: usize = digits.parse().map_err(|_| unknown())?;
                if !(1..=128).contains(&n) {
                    return Err(unknown());
                }
                // SVE convention: a fixed-length pattern longer than the vector is all-false.
                if n > lanes {
                    0
                } else {
                    n
                }
            }
        };
        Ok(Mask::first(granularity, n))
    }

    /// `pto.plt_bN %count`: the first `count` lanes active (count read as unsigned, as the
    /// hardware's `uint32_t` scalar), and the post-updated count `count − active lanes`.
    pub fn plt(granularity: Granularity, count: u32) -> (Mask, u32) {
        let lanes = granularity.lanes();
        let active = (count as usize).min(lanes);
        (Mask::first(granularity, active), count - active as u32)
    }

    /// A mask from one flag per lane (extra flags ignored, missing ones inactive).
    pub fn from_lanes(granularity: Granularity, lanes: &[bool]) -> Mask {
        let mut m = Mask::none(granularity);
        for (j, &on) in lanes.iter().take(granularity.lanes()).enumerate() {
            m.set_lane(j, on);
        }
        m
    }

    /// A mask from its 32 bytes of predicate storage, kept bit for bit.
    pub fn from_storage(granularity: Granularity, bytes: &[u8]) -> Result<Mask, ValueError> {
        let pbits: [u8; MASK_BYTES] = bytes.try_into().map_err(|_| ValueError::StorageSize {
            what: "a mask",
            elem: crate::elem::ElemType::U8,
            needed: MASK_BYTES,
            actual: bytes.len(),
        })?;
        Ok(Mask { granularity, pbits })
    }

    pub fn granularity(&self) -> Granularity {
        self.granularity
    }

    /// The 32 bytes of predicate storage.
    pub fn storage(&self) -> &[u8; MASK_BYTES] {
        &self.pbits
    }

    /// Predicate bit `k` (one per vreg byte); false beyond 255.
    pub fn pbit(&self, k: usize) -> bool {
        self.pbits
            .get(k / 8)
            .is_some_and(|b| (b >> (k % 8)) & 1 == 1)
    }

    fn set_pbit(&mut self, k: usize, on: bool) {
        if let Some(b) = self.pbits.get_mut(k / 8) {
            let bit = 1u8 << (k % 8);
            if on {
                *b |= bit;
            } else {
                *b &= !bit;
            }
        }
    }

    /// Lane `j` of this mask's granularity; false beyond the last lane.
    pub fn lane(&self, j: usize) -> bool {
        j < self.granularity.lanes() && self.pbit(j * self.granularity.lane_bytes())
    }

    /// Sets lane `j` (ignored beyond the last lane).
    pub fn set_lane(&mut self, j: usize, on: bool) {
        if j < self.granularity.lanes() {
            self.set_pbit(j * self.granularity.lane_bytes(), on);
        }
    }

    /// One flag per lane.
    pub fn lanes(&self) -> Vec<bool> {
        (0..self.granularity.lanes())
            .map(|j| self.lane(j))
            .collect()
    }

    /// Number of active lanes.
    pub fn count_active(&self) -> usize {
        (0..self.granularity.lanes())
            .filter(|&j| self.lane(j))
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lanes_map_to_predicate_bits() {
        let m = Mask::all(Granularity::B32);
        assert_eq!(m.count_active(), 64);
        assert!(m.pbit(0) && !m.pbit(1) && m.pbit(4) && m.pbit(252));
        let m = Mask::all(Granularity::B8);
        assert_eq!(m.count_active(), 256);
        assert_eq!(m.storage(), &[0xFF; 32]);
        let mut m = Mask::none(Granularity::B16);
        m.set_lane(3, true);
        m.set_lane(500, true); // ignored
        assert!(m.pbit(6) && m.lane(3) && !m.lane(2));
        assert_eq!(m.count_active(), 1);
    }

    #[test]
    fn patterns() {
        let n = |g, p| Mask::from_pattern(g, p).map(|m| m.count_active());
        assert_eq!(n(Granularity::B32, "PAT_ALL"), Ok(64));
        assert_eq!(n(Granularity::B32, "PAT_ALLF"), Ok(0));
        assert_eq!(n(Granularity::B32, "PAT_VL16"), Ok(16));
        assert_eq!(n(Granularity::B32, "PAT_VL128"), Ok(0));
        assert_eq!(n(Granularity::B8, "PAT_VL128"), Ok(128));
        assert_eq!(n(Granularity::B16, "PAT_H"), Ok(64));
        assert_eq!(n(Granularity::B16, "PAT_Q"), Ok(32));
        assert_eq!(n(Granularity::B32, "PAT_M3"), Ok(63));
        assert_eq!(n(Granularity::B8, "PAT_M4"), Ok(256));
        let m = Mask::from_pattern(Granularity::B32, "PAT_VL3").unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(m.lanes()[..4], [true, true, true, false]);
        for bad in [
            "PAT_VL0",
            "PAT_VL129",
            "PAT_VL",
            "PAT_VL01",
            "PAT_VL+1",
            "ALL",
            "",
        ] {
            assert!(
                matches!(
                    Mask::from_pattern(Granularity::B8, bad),
                    Err(ValueError::UnknownPattern { .. })
                ),
                "{bad}"
            );
        }
    }

    #[test]
    fn plt_counts_down() {
        let (m, rest) = Mask::plt(Granularity::B32, 100);
        assert_eq!((m.count_active(), rest), (64, 36));
        let (m, rest) = Mask::plt(Granularity::B32, 36);
        assert_eq!((m.count_active(), rest), (36, 0));
        assert!(m.lane(35) && !m.lane(36));
        let (m, rest) = Mask::plt(Granularity::B8, u32::MAX);
        assert_eq!((m.count_active(), rest), (256, u32::MAX - 256));
    }

    #[test]
    fn storage_round_trip() {
        let mut bytes = [0u8; 32];
        bytes[0] = 0b1010_0101;
        let m = Mask::from_storage(Granularity::B8, &bytes).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            m.lanes()[..8],
            [true, false, true, false, false, true, false, true]
        );
        assert_eq!(m.storage(), &bytes);
        assert!(Mask::from_storage(Granularity::B8, &bytes[..31]).is_err());
        let m = Mask::from_lanes(Granularity::B32, &[false, true]);
        assert!(m.pbit(4) && !m.pbit(0));
    }
}
