//! Simulator control and machine-level behaviour (tensix.md §1.2, §6.1 config, §7 timing):
//! flags and the CC stack, SFPCONFIG, MAD hazards and auto-stalls, backdoor template writes,
//! Dst addressing errors, REPLAY, and a no-panic fuzz over random instruction streams.

use pto_runtime::tensix::dest::Dest;
use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::sim::{Machine, SimConfig, SimError, LANES};

mod tensix_common;
use tensix_common::*;

#[test]
fn sfpsetcc_encc_and_if_else_with_the_stack() {
    for arch in BOTH {
        let v = lanes(|l| (l as i32 - 8) as u32);
        // v_if (v < 0) { x = 1 } v_else { x = 2 } v_endif — PUSHC/SETCC/COMPC/POPC.
        let m = run(
            arch,
            &[(0, v)],
            "
            sfploadi L1, USHORT, 0
            sfppushc 0, 0, 0, 0
            sfpsetcc 0, L0, 0, LREG_LT0
            sfploadi L1, USHORT, 1
            sfpcompc 0, 0, 0, 0
            sfploadi L1, USHORT, 2
            sfppopc 0, 0, 0, 0",
        );
        assert_eq!(reg(&m, 1), lanes(|l| if l < 8 { 1 } else { 2 }));
        assert_eq!(m.lane_flags(), !0);
        assert_eq!(m.stack_depth(), 0);
        // Every SETCC mode.
        let z = lanes(|l| [0u32, 5, 0x8000_0000, 0xFFFF_FFFF][l % 4]);
        for (mode, want) in [
            ("LREG_LT0", [0, 0, 1, 1]),
            ("LREG_NE0", [0, 1, 1, 1]),
            ("LREG_GTE0", [1, 1, 0, 0]),
            ("LREG_EQ0", [1, 0, 0, 0]),
        ] {
            let m = run(arch, &[(0, z)], &format!("sfpsetcc 0, L0, 0, {mode}"));
            let mask = (0..32).fold(0u32, |a, l| a | (want[l % 4] << l));
            assert_eq!(
                m.lane_flags(),
                mask,
                "{mode}: -0 counts as negative (raw sign bit)"
            );
        }
        // ENCC 3,...,10: enable flags, all true; ENCC 2,...,10 (imm bit1 set, bit0 clear) disables.
        let mut m = machine(arch, true);
        exec(&mut m, "sfpencc 3, 0, 0, 10").expect("encc");
        assert_eq!((m.use_lane_flags(), m.lane_flags()), (!0, !0));
        exec(&mut m, "sfpencc 2, 0, 0, 10").expect("encc");
        assert_eq!((m.use_lane_flags(), m.lane_flags()), (0, !0));
        // SETCC with lane flags disabled is CcDisabled (D7).
        m.set_lreg(0, z);
        assert!(matches!(
            exec(&mut m, "sfpsetcc 0, L0, 0, LREG_LT0"),
            Err(SimError::CcDisabled { .. })
        ));
        // Other ENCC modes are unmodelled in strict mode.
        assert!(matches!(
            exec(&mut m, "sfpencc 0, 0, 0, EC"),
            Err(SimError::Unmodelled { .. })
        ));
        // Stack limits.
        let mut m = machine(arch, true);
        m.enter_kernel_state();
        exec(&mut m, &"sfppushc 0, 0, 0, 0\n".repeat(8)).expect("8 pushes");
        assert!(matches!(
            exec(&mut m, "sfppushc 0, 0, 0, 0"),
            Err(SimError::StackOverflow { .. })
        ));
        let mut m = machine(arch, true);
        assert!(matches!(
            exec(&mut m, "sfppopc 0, 0, 0, 0"),
            Err(SimError::StackUnderflow { .. })
        ));
    }
}

#[test]
fn isa_only_modes_run_when_not_strict() {
    for arch in BOTH {
        let mut m = machine(arch, false);
        m.enter_kernel_state();
        m.set_lreg(0, lanes(|l| l as u32));
        // SETCC IMM_BIT0 / CLEAR, ENCC toggle, LZ CC_COMP, POPC boolean modes.
        exec(&mut m, "sfpsetcc 1, L0, 0, IMM_BIT0").expect("imm");
        assert_eq!(m.lane_flags(), !0);
        exec(
            &mut m,
            "sfppushc 0, 0, 0, 0\nsfpsetcc 0, L0, 0, CLEAR\nsfpencc 0, 0, 0, 0",
        )
        .expect("clear");
        exec(&mut m, "sfplz 0, L0, L1, CC_NE0|CC_COMP").expect("lz");
        assert_eq!(m.lane_flags(), 1, "flag = (x == 0)");
        exec(&mut m, "sfppopc 0, 0, 0, 13").expect("popc invert");
        assert_eq!(m.lane_flags(), !1);
        exec(&mut m, "sfpencc 0, 0, 0, EC").expect("toggle");
        assert_eq!(m.use_lane_flags(), 0);
    }
}

#[test]
fn sfpconfig_constants_and_lane_config() {
    for arch in BOTH {
        let mut m = machine(arch, true);
        exec(
            &mut m,
            "sfploadi L0, USHORT, 0x7fff\nsfpconfig 0, 13, 0\nsfpconfig 0, 11, IMM16_IS_VALUE",
        )
        .expect("cfg");
        assert_eq!(reg(&m, 13), [0x7FFF; LANES]);
        assert_eq!(reg(&m, 11), [0xBF80_0000; LANES]);
        exec(
            &mut m,
            "sfpconfig 0x1234, 5, IMM16_IS_VALUE\nsfpconfig 0x123, 8, IMM16_IS_VALUE",
        )
        .expect("macro cfg");
        assert_eq!(m.macro_config().sequences[1], Some(0x1234));
        assert_eq!(m.macro_config().misc, Some(0x123));
        m.set_lreg(0, lanes(|l| l as u32));
        assert!(matches!(
            exec(&mut m, "sfpconfig 0, 12, 0"),
            Err(SimError::ConfigNotUniform { .. })
        ));
        // Requires all lanes enabled.
        let mut m = machine(arch, true);
        m.enter_kernel_state();
        exec(&mut m, "sfpsetcc 0, L15, 0, LREG_EQ0").expect("setcc");
        assert!(matches!(
            exec(&mut m, "sfpconfig 0, 11, IMM16_IS_VALUE"),
            Err(SimError::LanesDisabled { .. })
        ));
        // ROW_MASK (non-strict): rows 1 and 3 disabled.
        let mut m = machine(arch, false);
        exec(
            &mut m,
            "sfpconfig 0xa000, 15, IMM16_IS_VALUE\nsfploadi L0, USHORT, 9",
        )
        .expect("row mask");
        assert_eq!(m.lane_enabled(), 0x00FF_00FF);
        assert_eq!(m.lreg_defined(0), 0x00FF_00FF);
    }
}

#[test]
fn mad_hazards_and_stalls() {
    let one = [0x3F80_0000u32; LANES];
    // WH: reading a MAD result in the next cycle is a hazard; a NOP in between fixes it.
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, one);
    let e = exec(&mut m, "sfpmad L0, L0, L0, L1, 0\nsfpmov 0, L1, L2, 0").expect_err("hazard");
    assert!(matches!(e, SimError::MadHazard { reg: 1, .. }));
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, one);
    exec(
        &mut m,
        "sfpmad L0, L0, L0, L1, 0\nsfpnop\nsfpmov 0, L1, L2, 0",
    )
    .expect("nop");
    assert_eq!(reg(&m, 2), [0x4000_0000; LANES]);
    // BH: the hardware stalls one cycle ...
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, one);
    exec(&mut m, "sfpmad L0, L0, L0, L1, 0\nsfpmov 0, L1, L2, 0").expect("stall");
    assert_eq!((m.stats().cycles, m.stats().stalls), (3, 1));
    // ... except where its stall logic is documented not to look (SFPIADD reading VD).
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, one);
    let e = exec(
        &mut m,
        "sfpmad L0, L0, L0, L1, 0\nsfpiadd 0, L0, L1, CC_NONE",
    )
    .expect_err("bh hazard");
    assert!(matches!(e, SimError::MadHazard { reg: 1, .. }));
    // SFPSWAP: the next non-NOP instruction stalls one cycle.
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, one);
    m.set_lreg(1, one);
    exec(&mut m, "sfpswap 0, L0, L1, 0\nsfpmov 0, L0, L2, 0").expect("swap");
    assert_eq!(m.stats().stalls, 1);
    // BH negate modifiers; SFPADD requires an L10 factor in strict mode.
    let m = run(
        Arch::Bh,
        &[(0, [0x4000_0000; LANES]), (1, [0x3F80_0000; LANES])],
        "sfpmad L0, L0, L1, L2, NEGATE_VA|NEGATE_VC",
    );
    assert_eq!(reg(&m, 2)[0], 0xC0A0_0000); // -(2*2) - 1
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, one);
    assert!(matches!(
        exec(&mut m, "sfpadd L0, L0, L0, L1, 0"),
        Err(SimError::NonContractual { .. })
    ));
}

#[test]
fn mad_indirect_va_selects_per_lane() {
    // §8.7 trick: L16 = L[L7] * 1.0 + b with L0 = 0.0, L1 = 2^31 (here into L3).
    for arch in BOTH {
        let m = run(
            arch,
            &[
                (0, [0; LANES]),
                (1, [0x4F00_0000; LANES]),
                (7, lanes(|l| (l % 2) as u32)),
                (2, [0x3F80_0000; LANES]),
            ],
            "
            sfpmad L0, L10, L2, L3, INDIRECT_VA
            sfpnop",
        );
        assert_eq!(
            reg(&m, 3),
            lanes(|l| if l % 2 == 1 { 0x4F00_0000 } else { 0x3F80_0000 })
        );
    }
}

#[test]
fn backdoor_template_writes() {
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, [1; LANES]);
    let e = exec(&mut m, "sfpcast L0, L12, 0").expect_err("undeclared backdoor");
    assert!(matches!(e, SimError::Backdoor { template: 0, .. }));
    let mut m = Machine::with_config(
        Arch::Bh,
        SimConfig {
            allow_backdoor: true,
            ..SimConfig::default()
        },
    );
    exec(&mut m, "sfpcast L0, L12, 0\nsfpiadd 5, L1, L13, IMM").expect("backdoor");
    assert_eq!(m.macro_config().templates[0], Some(0x9000_00C0));
    assert_eq!(m.macro_config().templates[1], Some(0x7900_51D1));
    // With DISABLE_BACKDOOR_LOAD the instruction executes (its write to L12 is dropped).
    let mut m = machine(Arch::Bh, false);
    m.set_lreg(0, [1; LANES]);
    exec(
        &mut m,
        "sfpconfig 2, 15, IMM16_IS_VALUE\nsfpnop\nsfpcast L0, L12, 0",
    )
    .expect("disabled backdoor");
    assert_eq!(m.lreg_defined(12), 0);
}

#[test]
fn load_store_addressing_errors() {
    for arch in BOTH {
        let (k, n) = if arch == Arch::Bh {
            ("ADDR_MOD_7", "ADDR_MOD_6")
        } else {
            ("ADDR_MOD_3", "ADDR_MOD_2")
        };
        let mut m = machine(arch, true);
        m.set_lreg(0, [0x3F80_0000; LANES]);
        let e = exec(&mut m, &format!("sfpstore L0, FP32, {k}, 1")).expect_err("odd");
        assert!(matches!(e, SimError::Dest { .. }));
        let e = exec(&mut m, "sfpstore L0, FP32, ADDR_MOD_1, 0").expect_err("addr mod");
        assert!(matches!(e, SimError::AddrMod { addr_mod: 1, .. }));
        // Stores advance RWC.Dst by the configured increment.
        exec(
            &mut m,
            &format!("sfpstore L0, FP32, {n}, 0\nsfpstore L0, FP32, {n}, 0"),
        )
        .expect("store");
        assert_eq!(m.rwc_dst(), 4);
        // Strict: load modes TTSIM does not implement.
        assert!(matches!(
            exec(&mut m, &format!("sfpload L1, INT8, {k}, 0")),
            Err(SimError::Unmodelled { .. })
        ));
    }
}

#[test]
fn replay_records_and_expands() {
    for arch in BOTH {
        let mut m = machine(arch, true);
        m.set_lreg(0, [1; LANES]);
        // Record two instructions (and execute them), then replay them twice (Count 4 wraps
        // nowhere: slots 3..6 hold the same pair recorded at 3 and 5).
        exec(
            &mut m,
            "replay 3, 2, 1, 1
             sfpiadd 1, L0, L0, IMM|CC_NONE
             sfpiadd 10, L0, L0, IMM|CC_NONE
             replay 3, 2, 0, 0
             replay 3, 2, 0, 0",
        )
        .expect("replay");
        assert_eq!(reg(&m, 0), [1 + 3 * 11; LANES]);
        assert_eq!(
            m.stats().instructions,
            6,
            "REPLAY itself takes no SFPU slot"
        );
        // Load without Exec only records.
        let mut m = machine(arch, true);
        m.set_lreg(0, [1; LANES]);
        exec(&mut m, "replay 0, 1, 0, 1\nsfpiadd 1, L0, L0, IMM|CC_NONE").expect("record");
        assert_eq!(reg(&m, 0), [1; LANES]);
        let e = exec(&mut m, "replay 5, 1, 0, 0").expect_err("empty slot");
        assert!(matches!(e, SimError::Unmodelled { .. }));
    }
}

#[test]
fn random_instruction_streams_never_panic() {
    use pto_runtime::tensix::isa::{Insn, Kind, OPS};
    let mut rng = fastrand::Rng::with_seed(12);
    for arch in BOTH {
        for strict in [true, false] {
            let cfg = SimConfig {
                strict,
                allow_backdoor: rng.bool(),
                ..SimConfig::default()
            };
            let mut m = Machine::with_config(arch, cfg);
            let mut dst = Dest::new();
            m.seed_prng(7);
            for r in 0..8 {
                m.set_lreg(r, lanes(|_| rng.u32(..)));
            }
            let avail: Vec<_> = OPS.iter().filter(|i| i.available(arch)).collect();
            let mut ok = 0usize;
            for k in 0..60_000 {
                if k % 97 == 0 {
                    m.enter_kernel_state();
                }
                let info = avail[rng.usize(0..avail.len())];
                let args: Vec<i64> = info
                    .operands
                    .iter()
                    .filter(|o| o.stored())
                    .map(|o| {
                        let (_, w) = o.range(arch);
                        match o.kind {
                            Kind::SImm => rng.i64(-(1i64 << (w - 1))..(1i64 << (w - 1))),
                            Kind::Reg if rng.u8(..) < 200 => rng.i64(0..11),
                            _ => rng.i64(0..(1i64 << w)),
                        }
                    })
                    .collect();
                let insn = Insn::from_args(info.op, &args);
                let p = pto_runtime::tensix::isa::Program::new(vec![insn]);
                if m.run(&p, &mut dst).is_ok() {
                    ok += 1;
                }
            }
            assert!(
                ok > 1000,
                "{arch:?} strict={strict}: only {ok} instructions executed"
            );
        }
    }
}

#[test]
fn cross_lane_shft2_scheduling() {
    let v = lanes(|l| l as u32);
    // WH: software must keep the next cycle free of dependent / simple-unit instructions.
    let mut m = machine(Arch::Wh, true);
    m.set_lreg(0, v);
    let e = exec(&mut m, "sfpshft2 0, L0, L5, SHFLROR1\nsfpmov 0, L1, L2, 0").expect_err("wh");
    assert!(matches!(
        e,
        SimError::Uninitialised { .. } | SimError::ShuffleHazard { .. }
    ));
    m.set_lreg(1, v);
    let e = exec(&mut m, "sfpshft2 0, L0, L5, SHFLROR1\nsfpmov 0, L1, L2, 0").expect_err("wh");
    assert!(matches!(e, SimError::ShuffleHazard { .. }));
    exec(
        &mut m,
        "sfpshft2 0, L0, L5, SHFLROR1\nsfpnop\nsfpmov 0, L5, L2, 0",
    )
    .expect("nop");
    // BH: the hardware stalls one cycle instead.
    let mut m = machine(Arch::Bh, true);
    m.set_lreg(0, v);
    exec(&mut m, "sfpshft2 0, L0, L5, SHFLROR1\nsfpmov 0, L5, L2, 0").expect("bh");
    assert_eq!((m.stats().cycles, m.stats().stalls), (3, 1));
}
