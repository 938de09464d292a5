//! The SFPLOADMACRO engine (tensix.md §6): the D5 proof step (each published macro program vs
//! its plain equivalent, Dst compared bit-for-bit), the §6.5 mutation test (a swapped template
//! index or a changed delay must make the comparison fail), and one program per §6.4 hazard that
//! the simulator must report as a structured error.

use pto_runtime::tensix::asm::assemble;
use pto_runtime::tensix::dest::{Dest, DestWidth};
use pto_runtime::tensix::formats::{Arch, DataFormat, DstConfig, Mod0};
use pto_runtime::tensix::isa::Program;
use pto_runtime::tensix::sim::kernel::{compare_with_plain, EquivError, Kernel};
use pto_runtime::tensix::sim::{Machine, MacroHazard, SimConfig, SimError};

const ARCH: Arch = Arch::Bh;

fn cfg(fp32: bool) -> SimConfig {
    SimConfig {
        strict: true,
        allow_backdoor: true,
        dst: DstConfig {
            sfpu_fp32: fp32,
            srcb_format: DataFormat::Float16B,
        },
    }
}

fn listing(name: &str) -> String {
    let path = format!(
        "{}/tests/data/tensix_published/{name}.s",
        env!("CARGO_MANIFEST_DIR")
    );
    match std::fs::read_to_string(&path) {
        Ok(s) => s,
        Err(e) => panic!("{path}: {e}"),
    }
}

fn kernel_text(text: &str) -> Kernel {
    match Kernel::parse(text, ARCH) {
        Ok(k) => k,
        Err(e) => panic!("{e}"),
    }
}

fn random_dst(width: DestWidth, rows: usize, load: Mod0, seed: u64) -> Dest {
    let mut rng = fastrand::Rng::with_seed(seed);
    let mask = if width == DestWidth::W16 { 0xFFFF } else { !0 };
    let vals: Vec<u32> = (0..rows * 32).map(|_| rng.u32(..) & mask).collect();
    let mut d = Dest::new();
    if let Err(e) = d.write_rows(&vals, load, width, ARCH) {
        panic!("{e}");
    }
    d
}

/// (name, fp32 Dst mode, input width, input load mode, macro body runs, plain body runs)
const D5: &[(&str, bool, DestWidth, Mod0, usize, usize)] = &[
    ("fp32_to_bf16", true, DestWidth::W32, Mod0::Fp32, 128, 256),
    ("fp32_to_u16", true, DestWidth::W32, Mod0::Fp32, 128, 256),
    // One row: a row's 32-bit store overlaps the next rows' 16-bit cells, and the macro form
    // loads row n+1 before storing row n (pipelining), so multi-row Dst images differ by design.
    ("u16_to_fp32", true, DestWidth::W16, Mod0::Uint16, 1, 1),
    ("u16_to_bf16", false, DestWidth::W16, Mod0::Uint16, 128, 256),
    ("u32_to_fp32", true, DestWidth::W32, Mod0::Int32, 256, 256),
    ("i32_to_fp32", true, DestWidth::W32, Mod0::Int32, 128, 256),
    ("u32_to_bf16", true, DestWidth::W32, Mod0::Int32, 128, 256),
    ("i32_to_bf16", true, DestWidth::W32, Mod0::Int32, 128, 256),
    ("u16_to_u32", true, DestWidth::W16, Mod0::Uint16, 1, 1),
    ("i32_to_u16", true, DestWidth::W32, Mod0::Int32, 128, 256),
];

#[test]
fn every_published_macro_program_equals_its_plain_equivalent() {
    for (i, &(name, fp32, width, load, mruns, pruns)) in D5.iter().enumerate() {
        let mk = kernel_text(&listing(&format!("{name}.macro")));
        let pk = kernel_text(&listing(&format!("{name}.plain")));
        let rows = mruns.max(pruns).max(1);
        for seed in 0..3u64 {
            let dst = random_dst(width, rows, load, 100 * i as u64 + seed);
            if let Err(e) = compare_with_plain(ARCH, cfg(fp32), &mk, mruns, &pk, pruns, &dst) {
                panic!("{name}: {e}");
            }
        }
    }
}

#[test]
fn mutations_make_the_comparison_fail() {
    // (listing, original text, mutated text): swapped template index / changed delay.
    let cases = [
        (
            "u32_to_fp32",
            "sfpconfig 0x5785, 5, 1",
            "sfpconfig 0x5784, 5, 1",
        ),
        (
            "u32_to_fp32",
            "sfpconfig 0x5785, 5, 1",
            "sfpconfig 0x5f85, 5, 1",
        ),
        (
            "fp32_to_bf16",
            "sfploadi L0, UPPER, 0x5b00",
            "sfploadi L0, UPPER, 0x6300",
        ),
        (
            "fp32_to_u16",
            "sfploadi L0, UPPER, 0x5b55",
            "sfploadi L0, UPPER, 0x5b4d",
        ),
        (
            "i32_to_fp32",
            "sfploadi L0, USHORT, 0x659c",
            "sfploadi L0, USHORT, 0x659d",
        ),
    ];
    for (name, from, to) in cases {
        let text = listing(&format!("{name}.macro"));
        assert!(text.contains(from), "{name}: {from}");
        let mk = kernel_text(&text.replace(from, to));
        let pk = kernel_text(&listing(&format!("{name}.plain")));
        let (fp32, width, load, mruns, pruns) = D5
            .iter()
            .find(|d| d.0 == name)
            .map(|d| (d.1, d.2, d.3, d.4, d.5))
            .unwrap_or((true, DestWidth::W32, Mod0::Int32, 1, 1));
        let dst = random_dst(width, mruns.max(pruns), load, 7);
        let r = compare_with_plain(ARCH, cfg(fp32), &mk, mruns, &pk, pruns, &dst);
        assert!(r.is_err(), "{name}: mutation {to} went unnoticed");
        if let Err(EquivError::Plain(e)) = r {
            panic!("{name}: the plain program must not fail: {e}");
        }
    }
}

// ------------------------------------------------------------------------------ hazards (§6.4)

fn prog(text: &str) -> Program {
    match assemble(text, ARCH) {
        Ok(p) => p,
        Err(e) => panic!("{e}\n{text}"),
    }
}

/// Runs `init` then `body` on a fresh machine (Dst of zeros) and returns the body's result.
fn run(init: &str, body: &str) -> (Machine, Result<(), SimError>) {
    let mut m = Machine::with_config(ARCH, cfg(true));
    let mut dst = Dest::new();
    m.enter_kernel_state();
    if let Err(e) = m.run(&prog(init), &mut dst) {
        panic!("init: {e}");
    }
    let r = m.run(&prog(body), &mut dst).map(|_| ());
    (m, r)
}

fn hazard(init: &str, body: &str) -> MacroHazard {
    match run(init, body).1 {
        Err(SimError::Macro { hazard, .. }) => hazard,
        other => panic!("expected a macro hazard, got {other:?}\n{body}"),
    }
}

/// Template 0 = cast, template 1 = FP32_TO_UINT16 round, template 2 = SWAP max, template 3 = MAD.
const TEMPLATES: &str = "
    sfpcast L0, L12, 0
    sfpstochrnd 0, 0, L0, L0, L13, FP32_TO_UINT16
    sfpswap 0, L9, L14, MAX_MIN
    sfpmad L9, L10, L9, L15, 0
    sfploadi L1, USHORT, 0
    sfploadi L5, USHORT, 0
";

fn init_with(seq_lo: u16, seq_hi: u16, misc: u16) -> String {
    format!(
        "{TEMPLATES}
         sfploadi L0, USHORT, {seq_lo:#x}
         sfploadi L0, UPPER, {seq_hi:#x}
         sfpconfig 0, 4, 0
         sfpconfig {misc:#x}, 8, 1"
    )
}

#[test]
fn unconfigured_macro_state_is_reported() {
    let h = hazard("sfpnop", "sfploadmacro 0, INT32, ADDR_MOD_7, 0");
    assert!(matches!(h, MacroHazard::Unconfigured { .. }), "{h:?}");
    // Sequence written but template 0 never written.
    let h = hazard(
        "sfpconfig 0x0004, 4, 1\nsfpconfig 0x100, 8, 1",
        "sfploadmacro 0, INT32, ADDR_MOD_7, 0",
    );
    assert!(matches!(h, MacroHazard::Unconfigured { .. }), "{h:?}");
}

#[test]
fn ub_template_and_class_mismatch() {
    let h = hazard(
        &init_with(0x0001, 0, 0x100),
        "sfploadmacro 0, INT32, ADDR_MOD_7, 0",
    );
    assert!(matches!(h, MacroHazard::UbTemplate { .. }), "{h:?}");
    // Store sub-unit fed SFPNOP.
    let h = hazard(
        &init_with(0, 0x0200, 0x100),
        "sfploadmacro 0, INT32, ADDR_MOD_7, 0",
    );
    assert!(matches!(h, MacroHazard::UbTemplate { .. }), "{h:?}");
    // SFPCAST (Simple) scheduled on MAD.
    let h = hazard(
        &init_with(0x0400, 0, 0x100),
        "sfploadmacro 0, INT32, ADDR_MOD_7, 0",
    );
    assert!(matches!(h, MacroHazard::ClassMismatch { .. }), "{h:?}");
}

#[test]
fn simple_and_round_in_one_cycle_need_exactly_one_vd16() {
    // Simple cast d0 (VD = L0) and Round d0 (VD = L0): both ≠ 16.
    let init = init_with(0x0004, 0x0005, 0x100);
    let h = hazard(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop");
    assert!(matches!(h, MacroHazard::SameCycle { .. }), "{h:?}");
    // Round with VD16: accepted (store nothing; the L16 result is simply unused).
    let init = init_with(0x0004, 0x0045, 0x100);
    let (m, r) = run(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop");
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
}

#[test]
fn rule_dagger_counts_regular_instructions_without_a_result() {
    // A scheduled Round d0 (VD = L0) beside a regular SFPENCC or SFPSETCC: the simulator applies
    // (†) through the regular instruction's VD field, so no Simple-unit cycle can host a Round
    // instruction unless one of the two writes L16. The exact f32→bf16 cycle floor relies on
    // this (docs/performance.md, "Exact f32→bf16: the cycle floor", R3); revisit it if this changes.
    let init = init_with(0, 0x0005, 0x100);
    for regular in ["sfpencc 0, 0, 0, 0", "sfpsetcc 0, L1, 0, LREG_LT0"] {
        let h = hazard(
            &init,
            &format!("sfploadmacro 0, FP32, ADDR_MOD_7, 0\n{regular}"),
        );
        assert!(
            matches!(h, MacroHazard::SameCycle { .. }),
            "{regular}: {h:?}"
        );
    }
    // The same Round beside an SFPNOP runs.
    let (m, r) = run(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop");
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
}

#[test]
fn swap_rules() {
    // SWAP (template 2, VB := VD) on Simple d0.
    let init = init_with(0x0086, 0, 0x100);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfploadi L5, USHORT, 1",
    );
    assert_eq!(h, MacroHazard::SwapNeedsMadNop);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpabs 0, L1, L5, 0",
    );
    assert!(matches!(h, MacroHazard::SwapNextCycle { .. }), "{h:?}");
    // With the NOP and an idle next cycle it runs.
    let (_, r) = run(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop\nsfpabs 0, L1, L5, 0",
    );
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn scheduled_mad_result_read_next_cycle() {
    // MAD (template 3) d0 writing the macro VD (L0); the next cycle reads L0.
    let init = init_with(0x0700, 0, 0x100);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpabs 0, L0, L5, 0",
    );
    assert!(matches!(h, MacroHazard::MadHazard { reg: 0 }), "{h:?}");
    let (_, r) = run(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop\nsfpabs 0, L0, L5, 0",
    );
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn regular_collision_forgotten_and_config_while_pending() {
    let init = init_with(0x0004, 0, 0x100);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpabs 0, L1, L5, 0",
    );
    assert!(matches!(h, MacroHazard::RegularCollision { .. }), "{h:?}");
    // m0: Simple d2; m1: Simple d1 issued one cycle later lands on the same remaining delay.
    let init = format!("{}\nsfpconfig 0x000c, 5, 1", init_with(0x0014, 0, 0x100));
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfploadmacro 5, FP32, ADDR_MOD_7, 0",
    );
    assert!(
        matches!(h, MacroHazard::Forgotten { delay: 1, .. }),
        "{h:?}"
    );
    let init = init_with(0x001c, 0, 0x100);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpconfig 0x100, 8, 1",
    );
    assert_eq!(h, MacroHazard::ConfigWhilePending);
}

#[test]
fn vdhi_carry_l16_misuse_and_undrained() {
    let init = init_with(0x0004, 0, 0x100);
    let mut m = Machine::with_config(ARCH, cfg(true));
    let mut dst = Dest::new();
    m.enter_kernel_state();
    assert!(m.run(&prog(&init), &mut dst).is_ok());
    m.set_dst_base(1);
    let r = m.run(&prog("sfploadmacro 0, FP32, ADDR_MOD_7, 1"), &mut dst);
    assert!(
        matches!(
            r,
            Err(SimError::Macro {
                hazard: MacroHazard::VdHiCarry { vd: 4, base: 1 },
                ..
            })
        ),
        "{r:?}"
    );
    // Store of L16 (d0) with nothing ever written to L16.
    let init = init_with(0, 0x4300, 0x100);
    let h = hazard(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop");
    assert!(matches!(h, MacroHazard::L16Misuse { .. }), "{h:?}");
    // Pending at the end.
    let init = init_with(0x0004, 0, 0x100);
    let (m, r) = run(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0");
    assert!(r.is_ok());
    assert!(matches!(
        m.check_drained(),
        Err(SimError::Macro {
            hazard: MacroHazard::Undrained { pending: 1 },
            ..
        })
    ));
}

#[test]
fn backdoor_writes_need_declared_init_code() {
    let mut m = Machine::new(ARCH); // allow_backdoor = false
    let mut dst = Dest::new();
    m.enter_kernel_state();
    let r = m.run(&prog("sfpcast L0, L12, 0"), &mut dst);
    assert!(
        matches!(r, Err(SimError::Backdoor { template: 0, .. })),
        "{r:?}"
    );
}

/// Wormhole: the same macro programs (address modes renamed to WH's ADDR_MOD_3 / ADDR_MOD_2)
/// equal their plain equivalents and keep their published cycles per row.
#[test]
fn wormhole_macro_programs_equal_plain_and_keep_their_cycles() {
    use pto_runtime::tensix::sim::cycle::steady_state;
    let wh = |t: String| {
        t.replace("ADDR_MOD_7", "ADDR_MOD_3")
            .replace("ADDR_MOD_6", "ADDR_MOD_2")
    };
    let published = [
        ("fp32_to_bf16", "3"),
        ("fp32_to_u16", "2"),
        ("u16_to_fp32", "1"),
        ("u16_to_bf16", "1"),
        ("u32_to_fp32", "3"),
        ("i32_to_fp32", "4"),
        ("u32_to_bf16", "3"),
        ("i32_to_bf16", "4"),
        ("u16_to_u32", "1"),
        ("i32_to_u16", "3"),
    ];
    for (i, &(name, fp32, width, load, mruns, pruns)) in D5.iter().enumerate() {
        let parse = |t: String| match Kernel::parse(&t, Arch::Wh) {
            Ok(k) => k,
            Err(e) => panic!("{name}: {e}"),
        };
        let mk = parse(wh(listing(&format!("{name}.macro"))));
        let pk = parse(wh(listing(&format!("{name}.plain"))));
        let mut rng = fastrand::Rng::with_seed(500 + i as u64);
        let mask = if width == DestWidth::W16 { 0xFFFF } else { !0 };
        let rows = mruns.max(pruns);
        let vals: Vec<u32> = (0..rows * 32).map(|_| rng.u32(..) & mask).collect();
        let mut dst = Dest::new();
        if let Err(e) = dst.write_rows(&vals, load, width, Arch::Wh) {
            panic!("{e}");
        }
        if let Err(e) = compare_with_plain(Arch::Wh, cfg(fp32), &mk, mruns, &pk, pruns, &dst) {
            panic!("WH {name}: {e}");
        }
        let want = published.iter().find(|p| p.0 == name).map_or("?", |p| p.1);
        match steady_state(Arch::Wh, cfg(fp32), &mk.init, &mk.body, &mk.drain, 2) {
            Ok(r) => assert_eq!(r.cycles_per_row_text(), want, "WH {name}"),
            Err(e) => panic!("WH {name}: {e}"),
        }
    }
}

// ------------------------------------------------- §6.4 gaps: trigger + near miss for each row

#[test]
fn backdoor_template_write_while_pending() {
    // Simple d3 (template 0) pending; a backdoor write (VD = L12) lands before it executes.
    let init = init_with(0x001c, 0, 0x100);
    let h = hazard(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpcast L0, L12, 0",
    );
    assert_eq!(h, MacroHazard::ConfigWhilePending);
    // Near miss: issued t, executes t + 4; four NOPs drain it, then the same write is fine.
    let (m, r) = run(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop\nsfpnop\nsfpnop\nsfpcast L0, L12, 0",
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
    // Near miss for SFPCONFIG too.
    let (_, r) = run(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop\nsfpnop\nsfpnop\nsfpconfig 0x100, 8, 1",
    );
    assert!(r.is_ok(), "{r:?}");
}

#[test]
fn l16_is_only_reachable_through_macros() {
    // Regular instructions cannot name L16 (4-bit register fields), so "read by a non-scheduled
    // instruction / written outside a macro" is rejected at assembly.
    assert!(assemble("sfpabs 0, L16, L1, 0", ARCH).is_err());
    assert!(assemble("sfpabs 0, L1, L16, 0", ARCH).is_err());
    // Trigger: a scheduled store of L16 that no scheduled instruction wrote.
    let h = hazard(
        &init_with(0, 0x4300, 0x100),
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop",
    );
    assert!(matches!(h, MacroHazard::L16Misuse { .. }), "{h:?}");
    // Near miss: Round d0 writes L16 (VD16), Store d1 reads it one cycle later.
    let (m, r) = run(
        &init_with(0, 0x4B45, 0x100),
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop",
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
}

#[test]
fn store_in_some_lanes_only_cannot_be_configured() {
    // Macro config is per lane in hardware; a sequence word that differs across lanes (here the
    // Store byte) is rejected when written, so no Store can be scheduled in some lanes only.
    let mut m = Machine::with_config(ARCH, cfg(true));
    let mut dst = random_dst(DestWidth::W32, 1, Mod0::Int32, 7);
    m.enter_kernel_state();
    let r = m.run(
        &prog(&format!(
            "{TEMPLATES}
             sfpload L0, INT32, ADDR_MOD_7, 0
             sfploadi L0, UPPER, 0x0300
             sfpconfig 0, 4, 0"
        )),
        &mut dst,
    );
    assert!(matches!(r, Err(SimError::ConfigNotUniform { .. })), "{r:?}");
    // A partial lane enable while configuring is rejected as well (config must be written in
    // every lane).
    let mut m = Machine::with_config(ARCH, cfg(true));
    let mut dst = Dest::new();
    m.enter_kernel_state();
    let r = m.run(
        &prog(
            "sfploadi L1, USHORT, 1
             sfpsetcc 0, L1, L0, 6
             sfploadi L0, USHORT, 0x0300
             sfpconfig 0, 4, 0",
        ),
        &mut dst,
    );
    assert!(matches!(r, Err(SimError::LanesDisabled { .. })), "{r:?}");
    // Near miss: a lane-uniform Store byte schedules the store in every lane.
    let (m, r) = run(
        &init_with(0, 0x0300, 0x100),
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop",
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
}

#[test]
fn near_misses_for_the_remaining_hazards() {
    let init = init_with(0x0004, 0, 0x100);
    // RegularCollision: a regular load-unit instruction beside a scheduled Simple is fine.
    let (_, r) = run(
        &init,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfploadi L5, USHORT, 1",
    );
    assert!(r.is_ok(), "{r:?}");
    // Undrained: one NOP drains the delay-0 instruction.
    let (m, r) = run(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop");
    assert!(r.is_ok(), "{r:?}");
    assert!(m.check_drained().is_ok());
    // VdHiCarry: VD 4 (Imm10 bit 0) with an even base is fine.
    let (_, r) = run(&init, "sfploadmacro 0, FP32, ADDR_MOD_7, 1\nsfpnop");
    assert!(r.is_ok(), "{r:?}");
    // Forgotten: m1 (Simple d1) two cycles after m0 (Simple d2) lands on a different cycle.
    let init2 = format!("{}\nsfpconfig 0x000c, 5, 1", init_with(0x0014, 0, 0x100));
    let (m, r) = run(
        &init2,
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop\nsfploadmacro 5, FP32, ADDR_MOD_7, 0\nsfpnop\nsfpnop\nsfpnop",
    );
    assert!(r.is_ok(), "{r:?}");
    assert_eq!(m.macro_pending(), 0);
    // UbTemplate / ClassMismatch: SFPNOP on MAD and a store on Store are fine.
    let (_, r) = run(
        &init_with(0x0200, 0x0300, 0x100),
        "sfploadmacro 0, FP32, ADDR_MOD_7, 0\nsfpnop",
    );
    assert!(r.is_ok(), "{r:?}");
    // Backdoor: the same write is accepted when template-writing init code is declared.
    let mut m = Machine::with_config(ARCH, cfg(true));
    let mut dst = Dest::new();
    m.enter_kernel_state();
    let r = m.run(&prog("sfpcast L0, L12, 0"), &mut dst);
    assert!(r.is_ok(), "{r:?}");
}
