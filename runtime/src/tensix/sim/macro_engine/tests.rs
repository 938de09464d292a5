//! The expanded path (`expand` + `stream`) against the step-by-step engine on random macro
//! programs: random macro configurations (templates of every schedulable kind, sequences with
//! random delays, VD16/use-VB bits and sources, both delay kinds), random bodies mixing
//! SFPLOADMACRO with regular instructions (MAD-class, SWAP and cross-lane SHFT2 for the issue
//! state, lane-flag instructions for data-dependent enables, loads and stores), partly undefined
//! registers and random Dst cells, both archs. Every case must give the same result (incl. the
//! error), the same machine state (registers, defined lanes, flags, queue, issue state, counts,
//! RWC) and the same Dst; the test also requires that the expanded path really ran (and really
//! failed on lane data) in a good share of the cases, so it cannot pass vacuously.

use super::super::{Machine, SimConfig};
use crate::tensix::dest::Dest;
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{self, Arch, Insn, Program, Reg};

fn reg(rng: &mut fastrand::Rng) -> Reg {
    Reg(if rng.u8(..6) == 0 {
        rng.u8(8..16)
    } else {
        rng.u8(..8)
    })
}

/// A template instruction of a schedulable kind (some with invalid modes).
fn template(rng: &mut fastrand::Rng) -> Insn {
    let (vc, vd) = (reg(rng), reg(rng));
    match rng.u8(..16) {
        0 => Insn::IAdd {
            imm12: rng.i16(-64..64),
            vc,
            vd,
            mod1: isa::IAddMod([0, 1, 4, 5, 6][rng.usize(..5)]),
        },
        1 => Insn::Shft {
            imm12: rng.i16(-20..20),
            vc,
            vd,
            mod1: isa::ShftMod(rng.u8(..2)),
        },
        2 => Insn::Shft2 {
            imm12: rng.i16(-20..20),
            vc,
            vd,
            mod1: isa::Shft2Mod(rng.u8(5..7)),
        },
        3 => Insn::And {
            vb: 0,
            vc,
            vd,
            mod1: isa::BitMod(0),
        },
        4 => Insn::Or {
            vb: 0,
            vc,
            vd,
            mod1: isa::BitMod(0),
        },
        5 => Insn::Mov {
            vc,
            vd,
            mod1: isa::MovMod(0),
        },
        6 => Insn::Mad {
            va: reg(rng),
            vb: reg(rng),
            vc,
            vd,
            // INDIRECT_VA: the registers read depend on L7.
            mod1: isa::MadMod(if rng.u8(..3) == 0 { 4 } else { 0 }),
        },
        7 => Insn::Add {
            va: reg(rng),
            vb: Reg(10),
            vc,
            vd,
            mod1: isa::MadMod(0),
        },
        8 => Insn::MulI {
            imm16: rng.u16(..),
            vd,
            mod1: isa::MadMod(0),
        },
        9 => Insn::AddI {
            imm16: rng.u16(..),
            vd,
            mod1: isa::MadMod(0),
        },
        10 => Insn::StochRnd {
            rnd_mode: 0,
            imm5: rng.u8(..32),
            vb: reg(rng),
            vc,
            vd,
            mod1: isa::StochRndMod(rng.u8(..8)),
        },
        11 => Insn::Swap {
            vc,
            vd,
            mod1: isa::SwapMod(rng.u8(..2)),
        },
        12 => Insn::ExExp {
            vc,
            vd,
            mod1: isa::ExExpMod([0, 1, 2, 10][rng.usize(..4)]),
        },
        13 => Insn::ExMan {
            vc,
            vd,
            mod1: isa::ExManMod(rng.u8(..2)),
        },
        14 => Insn::SetSgn {
            imm1: 0,
            vc,
            vd,
            mod1: isa::SetSgnMod(0),
        },
        _ => Insn::Store {
            vd: reg(rng),
            mod0: Mod0::Fp32,
            addr_mod: 0,
            imm10: 0,
        },
    }
}

/// A Sequence byte for sub-unit `i` given the templates' sub-units: mostly a template of that
/// sub-unit (or SFPNOP / nothing / the store), sometimes any source; short delays.
fn seq_byte(rng: &mut fastrand::Rng, i: usize, units: &[Option<super::Unit>; 4]) -> u32 {
    let unit = super::Unit::SCHEDULED[i];
    let fits: Vec<u8> = (0..4u8)
        .filter(|&k| units[usize::from(k)] == Some(unit))
        .collect();
    let src = match rng.u8(..12) {
        0..=3 => 0,
        4 if unit != super::Unit::Store => 2,
        5 if unit == super::Unit::Store => 3,
        11 => rng.u8(..8),
        _ if unit == super::Unit::Store && (fits.is_empty() || rng.bool()) => 3,
        _ if !fits.is_empty() => 4 + fits[rng.usize(..fits.len())],
        _ => 0,
    };
    let delay = if rng.u8(..8) == 0 { 7 } else { rng.u8(..4) };
    let flags = rng.u8(..4) << 6;
    u32::from(flags | delay << 3 | src)
}

/// A regular instruction of the body.
fn regular(rng: &mut fastrand::Rng, arch: Arch) -> Insn {
    let lm = |rng: &mut fastrand::Rng| {
        let mods = match arch {
            Arch::Bh => [6u8, 7],
            Arch::Wh => [2, 3],
        };
        if rng.u8(..20) == 0 {
            rng.u8(..8)
        } else {
            mods[rng.usize(..2)]
        }
    };
    match rng.u8(..14) {
        0..=4 => Insn::LoadMacro {
            lreg: rng.u8(..16),
            mod0: [Mod0::SrcB, Mod0::Fp32, Mod0::Int32, Mod0::Bf16][rng.usize(..4)],
            addr_mod: lm(rng),
            imm10: if rng.u8(..6) == 0 {
                rng.u16(..8)
            } else {
                rng.u16(..4) & !1
            },
        },
        5 | 6 => Insn::Nop,
        7 => Insn::Load {
            vd: Reg(rng.u8(..8)),
            mod0: Mod0::Fp32,
            addr_mod: lm(rng),
            imm10: rng.u16(..4) & !1,
        },
        8 => Insn::Store {
            vd: Reg(rng.u8(..8)),
            mod0: [Mod0::Fp32, Mod0::Bf16][rng.usize(..2)],
            addr_mod: lm(rng),
            imm10: rng.u16(..4) & !1,
        },
        9 => Insn::SetCc {
            imm1: 0,
            vc: Reg(rng.u8(..8)),
            vd: Reg(0),
            mod1: isa::SetCcMod([0, 2, 4, 6][rng.usize(..4)]),
        },
        10 => Insn::EnCc {
            imm2: 0,
            vd: Reg(0),
            mod1: isa::EnCcMod(0),
        },
        11 => Insn::Swap {
            vc: Reg(rng.u8(..8)),
            vd: Reg(rng.u8(..8)),
            mod1: isa::SwapMod(rng.u8(..2)),
        },
        12 => Insn::Shft2 {
            imm12: 0,
            vc: Reg(rng.u8(..8)),
            vd: Reg(rng.u8(..8)),
            mod1: isa::Shft2Mod(3),
        },
        _ => {
            let t = template(rng);
            if matches!(t, Insn::Store { .. }) {
                Insn::Nop
            } else {
                super::with_vd(&t, Reg(rng.u8(..8)))
            }
        }
    }
}

/// Everything observable about a machine (the caches aside).
fn state(m: &Machine) -> String {
    let ms = &m.macro_state;
    format!(
        "{:?} {:?} cc {:x} en {:x} sp {} {:?} pending {:?} l16 {:x} madl {:x} swapl {} \
         issue {:x} {} {:?} rwc {} seen {} {:?}",
        m.lreg,
        m.init,
        m.cc,
        m.cc_en,
        m.sp,
        m.stack,
        ms.pending,
        ms.l16_init,
        ms.mad_last,
        ms.swap_last,
        m.mad_pending,
        m.busy_next,
        m.wh_shuffle,
        m.rwc_dst,
        m.macro_seen,
        m.stats
    )
}

#[test]
fn expanded_runs_equal_step_by_step_runs() {
    let mut rng = fastrand::Rng::with_seed(29);
    let (mut expanded, mut data_errors, mut ok_runs) = (0, 0, 0);
    let cases = 20_000;
    for case in 0..cases {
        let arch = if case % 2 == 0 { Arch::Bh } else { Arch::Wh };
        let cfg = SimConfig {
            strict: case % 5 != 0,
            allow_backdoor: true,
            ..SimConfig::default()
        };
        let mut m = Machine::with_config(arch, cfg);
        let mut units = [None; 4];
        for (k, unit) in units.iter_mut().enumerate() {
            if rng.u8(..40) != 0 {
                let t = template(&mut rng);
                *unit = super::unit_of(&t);
                m.macro_cfg.templates[k] = isa::encode(&t, arch).ok();
            }
        }
        for k in 0..4 {
            if rng.u8(..40) != 0 {
                let s = (0..4).fold(0, |s, i| s | seq_byte(&mut rng, i, &units) << (8 * i));
                m.macro_cfg.sequences[k] = Some(s);
            }
        }
        if rng.u8(..40) != 0 {
            m.macro_cfg.misc = Some(rng.u16(..0x1000));
        }
        for r in 0..8 {
            if rng.u8(..12) != 0 {
                m.set_lreg(r, crate::tensix::sim::test_support::biased_lanes(&mut rng));
                if rng.u8(..16) == 0 {
                    m.init[r] = rng.u32(..);
                }
            }
        }
        m.enter_kernel_state();
        m.set_rwc_dst(if rng.u8(..20) == 0 {
            1
        } else {
            2 * rng.u16(..2)
        });
        let mut dst = Dest::new();
        for row in 0..64 {
            for col in 0..16 {
                let _ = dst.set_phys(row, col, rng.u16(..));
            }
        }
        let body = Program::new(
            (0..rng.usize(1..9))
                .map(|_| regular(&mut rng, arch))
                .collect::<Vec<_>>(),
        );
        let drain = Program::new(vec![Insn::Nop; rng.usize(..10)]);
        let rows = rng.usize(1..7);
        let rows_mode = rng.bool();

        let mut slow = m.clone();
        slow.set_macro_fast_path(false);
        let mut dst_slow = dst.clone();
        let run = |m: &mut Machine, dst: &mut Dest| {
            let r = if rows_mode {
                m.run_rows(&body, dst, rows).map(|_| ())
            } else {
                (0..rows).try_for_each(|_| m.run(&body, dst).map(|_| ()))
            };
            r.and_then(|()| m.run(&drain, dst).map(|_| ()))
                .and_then(|()| m.check_drained())
        };
        let fast_res = run(&mut m, &mut dst);
        let slow_res = run(&mut slow, &mut dst_slow);
        let ctx = || {
            format!("case {case} {arch:?}: rows {rows} rows_mode {rows_mode} drain {} body {:?} res {fast_res:?}", drain.insns.len(), body.insns)
        };
        assert_eq!(fast_res, slow_res, "{}", ctx());
        assert_eq!(state(&m), state(&slow), "{}", ctx());
        assert!(dst.bits() == dst_slow.bits(), "Dst differs: {}", ctx());
        // A reset machine is a new one (its caches aside).
        let mut reset = slow.clone();
        reset.reset();
        let fresh = Machine::with_config(arch, cfg);
        assert_eq!(state(&reset), state(&fresh), "reset: {}", ctx());
        assert_eq!(reset.macro_cfg, fresh.macro_cfg, "reset: {}", ctx());
        let ran_expanded = m
            .exp_cache
            .progs
            .iter()
            .any(|p| p.states.iter().any(|s| s.exp.is_some()));
        if ran_expanded {
            expanded += 1;
            match &fast_res {
                Ok(()) => ok_runs += 1,
                Err(super::SimError::Macro { .. }) => {}
                Err(_) => data_errors += 1,
            }
        }
    }
    // The expanded path ran (successfully and failing on data) in a good share of the cases.
    assert!(expanded > cases / 4, "expanded in {expanded} of {cases}");
    assert!(ok_runs > cases / 20, "{ok_runs} successful expanded runs");
    assert!(data_errors > cases / 50, "{data_errors} data errors");
}
