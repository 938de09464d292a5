//! Differential test of the whole-row Dst fast path (`Dest::{sfpu_load_row, sfpu_store_row,
//! write_rows, read_rows}`) against the per-lane reference (`Dest::{sfpu_load, sfpu_store}`,
//! `formats::load_inverse` + `Dest::write`): random Dst contents in both 16-bit view modes (with
//! poisoned cells), random even and odd addresses, random lane enables, every Mod0, both archs.
//! Results, errors, LReg lanes, Dst bits and the poison state must agree exactly.

use pto_runtime::tensix::dest::{
    lane_cell, Dest, DestError, DestWidth, Dst16Mode, Row, DST_COLS, DST_ROWS, LANES,
};
use pto_runtime::tensix::formats::{load_inverse, Arch, Mod0};

fn random_dest(rng: &mut fastrand::Rng, mode: Dst16Mode) -> Dest {
    let mut d = Dest::with_mode(mode);
    for r in 0..DST_ROWS {
        for c in 0..DST_COLS {
            d.set_phys(r, c, rng.u16(..)).expect("in range");
        }
    }
    // 16-bit writes poison low halves in HighHalfOfDst32b mode.
    for _ in 0..rng.usize(0..3000) {
        d.write16(rng.usize(0..DST_ROWS), rng.usize(0..DST_COLS), rng.u16(..))
            .expect("in range");
    }
    d
}

/// Every observable cell: all physical bits, and every 32-bit and 16-bit read (which reveal the
/// poison state as `Unpredictable` errors).
#[derive(PartialEq)]
struct Snapshot {
    bits: Vec<u16>,
    r32: Vec<Result<u32, DestError>>,
    r16: Vec<Result<u16, DestError>>,
}

fn snapshot(d: &Dest) -> Snapshot {
    let mut r32 = Vec::new();
    let mut r16 = Vec::new();
    for r in 0..DST_ROWS {
        for c in 0..DST_COLS {
            r32.push(d.read32(r, c));
            r16.push(d.read16(r, c));
        }
    }
    Snapshot {
        bits: d.bits().to_vec(),
        r32,
        r16,
    }
}

fn random_en(rng: &mut fastrand::Rng) -> u32 {
    match rng.u8(0..6) {
        0 => 0,
        1 | 2 => !0,
        3 => 1 << rng.u32(0..32),
        _ => rng.u32(..),
    }
}

fn random_addr(rng: &mut fastrand::Rng) -> u16 {
    let a = rng.u16(0..1024);
    if rng.u8(0..8) == 0 {
        a | 1
    } else {
        a & !1
    }
}

fn ref_load(
    d: &Dest,
    addr: u16,
    en: u32,
    m: Mod0,
    arch: Arch,
    lreg: &Row,
) -> Result<Row, DestError> {
    let mut out = *lreg;
    for l in (0..LANES).filter(|&l| en >> l & 1 != 0) {
        out[l] = d.sfpu_load(addr, l, m, lreg[l], arch)?;
    }
    Ok(out)
}

#[test]
fn row_load_store_match_per_lane() {
    let mut rng = fastrand::Rng::with_seed(0x5EED);
    let mut cases = 0;
    for mode in [Dst16Mode::Literal, Dst16Mode::HighHalfOfDst32b] {
        for _ in 0..6 {
            let base = random_dest(&mut rng, mode);
            for arch in [Arch::Wh, Arch::Bh] {
                for m in Mod0::ALL {
                    for _ in 0..20 {
                        let addr = random_addr(&mut rng);
                        let en = random_en(&mut rng);
                        let mut lreg = [0u32; LANES];
                        lreg.iter_mut().for_each(|x| *x = rng.u32(..));
                        // Load.
                        let want = ref_load(&base, addr, en, m, arch, &lreg);
                        let mut got = lreg;
                        let r = base.sfpu_load_row(addr, en, m, arch, &mut got);
                        match want {
                            Ok(w) => {
                                assert_eq!(r, Ok(()), "{mode:?} {arch:?} {m:?} {addr} {en:#x}");
                                assert_eq!(got, w, "{mode:?} {arch:?} {m:?} {addr} {en:#x}");
                            }
                            Err(e) => {
                                assert_eq!(r, Err(e), "{mode:?} {arch:?} {m:?} {addr} {en:#x}");
                                assert_eq!(got, lreg, "row load changed the LReg on error");
                            }
                        }
                        // Store.
                        let mut a = base.clone();
                        let mut b = base.clone();
                        let mut want = Ok(());
                        for l in (0..LANES).filter(|&l| en >> l & 1 != 0) {
                            if let Err(e) = a.sfpu_store(addr, l, m, lreg[l], arch) {
                                want = Err(e);
                                break;
                            }
                        }
                        let r = b.sfpu_store_row(addr, en, m, arch, &lreg);
                        assert_eq!(r, want, "store {mode:?} {arch:?} {m:?} {addr} {en:#x}");
                        // Literal mode never poisons: comparing the bits suffices (and is fast).
                        let same = match mode {
                            Dst16Mode::Literal => a.bits() == b.bits(),
                            Dst16Mode::HighHalfOfDst32b => snapshot(&a) == snapshot(&b),
                        };
                        assert!(same, "store state {mode:?} {arch:?} {m:?} {addr} {en:#x}");
                        cases += 1;
                    }
                }
            }
        }
    }
    assert_eq!(cases, 2 * 6 * 2 * 16 * 20);
}

#[test]
fn bulk_rows_match_per_value() {
    let mut rng = fastrand::Rng::with_seed(0xB01C);
    for mode in [Dst16Mode::Literal, Dst16Mode::HighHalfOfDst32b] {
        for arch in [Arch::Wh, Arch::Bh] {
            for m in Mod0::ALL {
                for width in [DestWidth::W16, DestWidth::W32] {
                    let base = random_dest(&mut rng, mode);
                    let n = match rng.u8(0..4) {
                        0 => rng.usize(0..=width.sfpu_rows() * LANES + 40),
                        _ => rng.usize(0..200),
                    };
                    // Values: mostly loadable through `m` (small, low-zero), some arbitrary.
                    let values: Vec<u32> = (0..n)
                        .map(|_| match rng.u8(0..4) {
                            0 => rng.u32(..),
                            1 => rng.u32(..) & 0xFFFF_0000,
                            2 => rng.u32(..) & 0x7F,
                            _ => rng.u32(..) & 0xFFFF,
                        })
                        .collect();
                    // write_rows vs per-value writes.
                    let mut a = base.clone();
                    let rows = n.div_ceil(LANES);
                    let want = if rows > width.sfpu_rows() {
                        Err(DestError::TooManyRows {
                            rows,
                            max: width.sfpu_rows(),
                        })
                    } else {
                        let mut res = Ok(());
                        'outer: for k in 0..rows {
                            for lane in 0..LANES {
                                let v = values.get(k * LANES + lane).copied().unwrap_or(0);
                                let (row, col) = lane_cell((2 * k) as u16, lane).expect("even");
                                match load_inverse(m, v, arch) {
                                    Ok(cell) => a.write(row, col, cell).expect("in range"),
                                    Err(e) => {
                                        res = Err(DestError::Format(e));
                                        break 'outer;
                                    }
                                }
                            }
                        }
                        res
                    };
                    let mut b = base.clone();
                    let r = b.write_rows(&values, m, width, arch);
                    assert_eq!(r, want, "write_rows {mode:?} {arch:?} {m:?} n={n}");
                    assert!(snapshot(&a) == snapshot(&b), "write_rows state {m:?}");
                    // read_rows vs per-value loads (on the written Dst).
                    let count = n.min(width.sfpu_rows() * LANES + 3);
                    let want: Result<Vec<u32>, DestError> = if count.div_ceil(LANES)
                        > width.sfpu_rows()
                    {
                        Err(DestError::TooManyRows {
                            rows: count.div_ceil(LANES),
                            max: width.sfpu_rows(),
                        })
                    } else {
                        (0..count)
                            .map(|i| b.sfpu_load((2 * (i / LANES)) as u16, i % LANES, m, 0, arch))
                            .collect()
                    };
                    assert_eq!(
                        b.read_rows(count, m, width, arch),
                        want,
                        "read_rows {mode:?} {arch:?} {m:?} count={count}"
                    );
                }
            }
        }
    }
}

/// SFPLOAD on the machine: when a lane fails, the lanes before it are loaded and the others keep
/// their value (what the per-lane path did), and the error names the first failing cell.
#[test]
fn machine_load_error_updates_the_lanes_before_the_failing_one() {
    use pto_runtime::tensix::asm::assemble;
    use pto_runtime::tensix::sim::{Machine, SimError};
    let prog = assemble("sfpload L0, 3, ADDR_MOD_7, 0", Arch::Bh).expect("assembles");
    let mut dst = Dest::with_mode(Dst16Mode::HighHalfOfDst32b);
    for lane in 0..LANES {
        let (row, col) = lane_cell(0, lane).expect("even");
        dst.write32(row, col, 0x3F80_0000 + lane as u32)
            .expect("in range");
    }
    // Lane 5 is row 0, column 10: a 16-bit write there poisons the low half (physical row 8).
    dst.write16(0, 10, 0x4000).expect("in range");
    let mut m = Machine::new(Arch::Bh);
    m.enter_kernel_state();
    assert!(m.set_lreg(0, [0xDEAD; LANES]));
    let err = m.run(&prog, &mut dst).expect_err("poisoned lane");
    assert_eq!(
        err,
        SimError::Dest {
            pc: 0,
            source: DestError::Unpredictable { row: 8, col: 10 }
        }
    );
    let l0 = m.lreg(0).expect("L0");
    for (lane, &got) in l0.iter().enumerate() {
        let want = if lane < 5 {
            dst.sfpu_load(0, lane, Mod0::Fp32, 0, Arch::Bh)
                .expect("clean lane")
        } else {
            0xDEAD
        };
        assert_eq!(got, want, "lane {lane}");
    }
}
