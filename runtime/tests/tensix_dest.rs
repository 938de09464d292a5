//! The Dst register (tensix.md §4.1–4.4): the two views over one storage, SFPU addressing, the
//! tile → rows mapping and the Q1 16-bit mapping switch.

use pto_runtime::tensix::dest::{
    adj_row, lane_cell, tile_index, Dest, DestError, DestWidth, Dst16Mode, LANES,
};
use pto_runtime::tensix::formats::{shuf16, shuf32, Arch, Cell, Mod0, View};

#[test]
fn dst32b_row_mapping() {
    // §4.1: for r < 512, A = (r % 8) + (r / 8) * 16; the low half lives 8 rows further.
    for r in 0..512 {
        assert_eq!(adj_row(r), r % 8 + (r / 8) * 16);
    }
    // Only 512 distinct datums: rows ≥ 512 alias lower ones, and A + 8 never leaves Dst.
    let mut seen = std::collections::HashSet::new();
    for r in 0..1024 {
        assert!(adj_row(r) + 8 < 1024);
        seen.insert(adj_row(r));
    }
    assert_eq!(seen.len(), 512);
    assert_eq!(adj_row(256), adj_row(512));
}

#[test]
fn views_share_storage_high_half_first() {
    let mut d = Dest::new();
    d.write32(1, 3, 0xAAAA_BBBB).unwrap();
    // D10: high half at A (= 1), low half at A + 8 (= 9).
    assert_eq!(d.phys(1, 3).unwrap(), 0xAAAA);
    assert_eq!(d.phys(9, 3).unwrap(), 0xBBBB);
    assert_eq!(d.read16(1, 3).unwrap(), 0xAAAA);
    assert_eq!(d.read16(9, 3).unwrap(), 0xBBBB);
    assert_eq!(d.read32(1, 3).unwrap(), 0xAAAA_BBBB);
    // Dst32b row 8 starts at physical row 16.
    d.write32(8, 0, 0x1234_5678).unwrap();
    assert_eq!(d.phys(16, 0).unwrap(), 0x1234);
    assert_eq!(d.phys(24, 0).unwrap(), 0x5678);
    // A literal 16-bit write to a row with r % 16 ≥ 8 hits the low half of a 32-bit datum (Q1).
    d.write16(9, 3, 0xCCCC).unwrap();
    assert_eq!(d.read32(1, 3).unwrap(), 0xAAAA_CCCC);
    // Index checks.
    assert_eq!(d.read16(1024, 0), Err(DestError::Row(1024)));
    assert_eq!(d.read32(0, 16), Err(DestError::Column(16)));
}

#[test]
fn high_half_mode_poisons_the_low_half() {
    let mut d = Dest::with_mode(Dst16Mode::HighHalfOfDst32b);
    d.write32(9, 5, 0x1111_2222).unwrap();
    // Row 9's 32-bit datum lives at physical 17 (hi) / 25 (lo); Dst16b[9] aliases the high half.
    assert_eq!(d.read16(9, 5).unwrap(), 0x1111);
    d.write16(9, 5, 0x3333).unwrap();
    assert_eq!(d.read16(9, 5).unwrap(), 0x3333);
    assert_eq!(d.phys(17, 5).unwrap(), 0x3333);
    assert_eq!(
        d.read32(9, 5),
        Err(DestError::Unpredictable { row: 25, col: 5 })
    );
    // A full 32-bit write makes it predictable again.
    d.write32(9, 5, 0x4444_5555).unwrap();
    assert_eq!(d.read32(9, 5).unwrap(), 0x4444_5555);
}

#[test]
fn sfpu_lane_addressing() {
    // §4.3: Addr 0 → rows 0..3 even columns; Addr 2 → rows 0..3 odd; Addr 4 → rows 4..7.
    assert_eq!(lane_cell(0, 0).unwrap(), (0, 0));
    assert_eq!(lane_cell(0, 7).unwrap(), (0, 14));
    assert_eq!(lane_cell(0, 8).unwrap(), (1, 0));
    assert_eq!(lane_cell(0, 31).unwrap(), (3, 14));
    assert_eq!(lane_cell(2, 0).unwrap(), (0, 1));
    assert_eq!(lane_cell(2, 31).unwrap(), (3, 15));
    assert_eq!(lane_cell(4, 9).unwrap(), (5, 2));
    assert_eq!(lane_cell(14, 31).unwrap(), (15, 15));
    assert_eq!(lane_cell(16, 0).unwrap(), (16, 0));
    assert_eq!(lane_cell(3, 0), Err(DestError::OddAddress(3)));
    assert_eq!(lane_cell(0, 32), Err(DestError::Lane(32)));
    // §4.4: 8 SFPU rows (Addr 0, 2, …, 14) cover a 16×16 face exactly once.
    let mut hits = [[0u8; 16]; 16];
    for k in 0..8u16 {
        for lane in 0..LANES {
            let (r, c) = lane_cell(2 * k, lane).unwrap();
            hits[r][c] += 1;
        }
    }
    assert!(hits.iter().flatten().all(|h| *h == 1));
    assert_eq!(DestWidth::W32.sfpu_rows(), 256);
    assert_eq!(DestWidth::W16.sfpu_rows(), 512);
}

#[test]
fn tile_order_indices() {
    assert_eq!(tile_index(0, 0), Some(0));
    assert_eq!(tile_index(0, 15), Some(15));
    assert_eq!(tile_index(0, 16), Some(256));
    assert_eq!(tile_index(1, 0), Some(16));
    assert_eq!(tile_index(16, 0), Some(512));
    assert_eq!(tile_index(31, 31), Some(1023));
    assert_eq!(tile_index(32, 0), None);
    let mut all: Vec<usize> = (0..32)
        .flat_map(|r| (0..32).map(move |c| (r, c)))
        .filter_map(|(r, c)| tile_index(r, c))
        .collect();
    all.sort_unstable();
    assert_eq!(all, (0..1024).collect::<Vec<_>>());
}

#[test]
fn sfpu_load_store_through_dest() {
    let mut d = Dest::new();
    for a in [Arch::Wh, Arch::Bh] {
        // FP32 store then load at every lane of a row, every address of a tile.
        for k in 0..32u16 {
            for lane in 0..LANES {
                let v = 0x3F80_0000 | (u32::from(k) << 8) | lane as u32;
                d.sfpu_store(2 * k, lane, Mod0::Fp32, v, a).unwrap();
            }
        }
        for k in 0..32u16 {
            for lane in 0..LANES {
                let v = 0x3F80_0000 | (u32::from(k) << 8) | lane as u32;
                assert_eq!(d.sfpu_load(2 * k, lane, Mod0::Fp32, 0, a).unwrap(), v);
                // The cell in Dst is shuffled.
                let (r, c) = lane_cell(2 * k, lane).unwrap();
                assert_eq!(d.read(View::Dst32b, r, c).unwrap(), Cell::D32(shuf32(v)));
            }
        }
        // BF16 (16-bit view).
        d.sfpu_store(6, 5, Mod0::Bf16, 0xBFC0_1234, a).unwrap();
        let (r, c) = lane_cell(6, 5).unwrap();
        assert_eq!(d.read16(r, c).unwrap(), shuf16(0xBFC0));
        assert_eq!(d.sfpu_load(6, 5, Mod0::Bf16, 0, a).unwrap(), 0xBFC0_0000);
        // Unresolved default is refused.
        assert!(d.sfpu_load(0, 0, Mod0::SrcB, 0, a).is_err());
        assert!(d.sfpu_store(0, 0, Mod0::SrcB, 0, a).is_err());
    }
}

#[test]
fn rows_round_trip_in_tile_order() {
    let mut rng = fastrand::Rng::with_seed(17);
    for a in [Arch::Wh, Arch::Bh] {
        // 32-bit: the whole Dst (8 tiles), raw bits incl. denormals and NaNs survive FP32 loads.
        let n = DestWidth::W32.sfpu_rows() * LANES;
        let vals: Vec<u32> = (0..n).map(|_| rng.u32(..)).collect();
        let mut d = Dest::new();
        d.write_rows(&vals, Mod0::Fp32, DestWidth::W32, a).unwrap();
        assert_eq!(d.read_rows(n, Mod0::Fp32, DestWidth::W32, a).unwrap(), vals);
        // Value i sits in SFPU row i / 32, lane i % 32.
        let (r, c) = lane_cell(2 * 3, 7).unwrap();
        assert_eq!(d.read32(r, c).unwrap(), shuf32(vals[3 * 32 + 7]));
        // 16-bit: all 16 tiles of BF16 values.
        let n16 = DestWidth::W16.sfpu_rows() * LANES;
        let v16: Vec<u32> = (0..n16).map(|_| u32::from(rng.u16(..)) << 16).collect();
        let mut d = Dest::new();
        d.write_rows(&v16, Mod0::Bf16, DestWidth::W16, a).unwrap();
        assert_eq!(
            d.read_rows(n16, Mod0::Bf16, DestWidth::W16, a).unwrap(),
            v16
        );
        // Too much data, and values a mode cannot load, are errors.
        let too_many = vec![0u32; n + 1];
        assert!(matches!(
            d.write_rows(&too_many, Mod0::Fp32, DestWidth::W32, a),
            Err(DestError::TooManyRows {
                rows: 257,
                max: 256
            })
        ));
        assert!(d
            .write_rows(&[0x3F80_0001], Mod0::Bf16, DestWidth::W16, a)
            .is_err());
    }
}
