//! The hand-placed SFPLOADMACRO forms of `float_float::f32_bf16` RINT sat OFF (exact and
//! `--nan=any`), several macros per row ([`super::super::hand_macro`]).
//!
//! The rounding is the plain rule's integer RNE, `r = (x + 0x7FFF + lsb) & 0xFFFF0000` with
//! `lsb` = bit 16 of `x`, split over three registers so that every macro's scheduled
//! instruction substitutes only its own register:
//! * `p` (L1, fixed): `p = x << 15` (Round, SHFT2 SHFT_IMM), `p >>= 31` (regular),
//!   `p += 0x7FFF` (Simple) — the rounding increment `0x7FFF + lsb`;
//! * `q` (L2, fixed): loaded twice (macros B and C load the same datum), `q += p` (Simple,
//!   the template's non-substituted "d" operand names L1), `L16 = q & 0xFFFF0000` (Simple),
//!   stored raw by C's Store slot;
//! * exact only, `t` (L3): `t = x & 0x7FFFFFFF` (Simple; the AND template read the other way
//!   round), then the regular NaN step: `t + 0x7FFFFF < 0` narrows to the NaN lanes, where
//!   `q = SFPSETSGN(L4 = 0x7FC00000, sign of q)` = the canonical quiet NaN with the sign kept (its zero low
//!   half survives `+ p` and the mask: `0x7FC00000 + 0x8000` still masks to `0x7FC00000`), and
//!   SFPENCC re-enables every lane.
//!
//! Three templates serve five scheduled instructions: one SFPIADD (`VC = L12 = 0x7FFF`,
//! `VD = L1`) adds 0x7FFF with the use-VB bit (VD is the macro's register) and adds `p` without
//! it (VC is the macro's register, L1 the other operand); one SFPAND (`VC = L13 = mask`,
//! `VD = L14 = 0x7FFFFFFF`) masks with use-VB and takes `|x|` without.
//!
//! Timing (cycle 0 = the row's first SFPLOADMACRO; a slot runs at issue + 1 + delay, before
//! the regular instruction of its cycle): every Simple-unit cycle of the period holds exactly
//! one instruction, scheduled or regular, no scheduled instruction runs while the NaN lanes
//! are narrowed, L1 and L2 are read by the next row's slots before the next row's loads
//! overwrite them (a slot runs before the regular instruction of its cycle), and the Round
//! slot shares its cycle only with the VD16 Simple slot (§6.3 †). The simulator checks all of
//! it ([`super::super::hand_macro`]), `ptoc prove` proves it against the plain program (D5).
//!
//! Cycles per row (BH = WH): `--nan=any` 4 (3 macros + 1 regular; plain 7), exact 8 (4 macros and
//! 4 regular; plain 11). Why exact does not go below 8 (5 and, with lane flags, 6 are impossible
//! under the simulator's rules; 7 is open): docs/performance.md, "Exact f32→bf16: the cycle floor".

use pto_runtime::tensix::isa::Arch;

use super::super::hand_macro::HandForm;
use super::super::macros::{SequenceWord, Slot, SlotSrc};

fn slot(t: u8, delay: u8, vd16: bool, use_vb: bool) -> Slot {
    Slot {
        src: SlotSrc::Template(t),
        delay,
        vd16,
        use_vb,
    }
}

fn seq(simple: Slot, round: Slot, store: Slot) -> SequenceWord {
    SequenceWord {
        simple,
        mad: Slot::EMPTY,
        round,
        store,
    }
}

fn store(delay: u8) -> Slot {
    Slot {
        src: SlotSrc::Store,
        delay,
        vd16: true,
        use_vb: false,
    }
}

fn s(a: &str, b: &str) -> (String, String) {
    (a.to_string(), b.to_string())
}

/// The macro form of f32 → bf16 RINT sat OFF; `relaxed` = the `--nan=any` variant.
pub fn rint(arch: Arch, relaxed: bool) -> HandForm {
    let (stay, next) = match arch {
        Arch::Bh => ("ADDR_MOD_7", "ADDR_MOD_6"),
        Arch::Wh => ("ADDR_MOD_3", "ADDR_MOD_2"),
    };
    let mut consts = vec![
        (0x7FFF, "0x7FFF (RNE: half minus one)".to_string()),
        (0xFFFF_0000, "bf16 mask".to_string()),
    ];
    let templates = vec![
        s("sfpshft2 15, L0, L0, SHFT_IMM", "use-VB: v <<= 15"),
        s(
            "sfpiadd 0, L12, L1, CC_NONE",
            "use-VB: v += 0x7FFF; else v += L1",
        ),
        s(
            "sfpand 0, L13, L14, 0",
            "use-VB: v & 0xFFFF0000; else v & L14",
        ),
    ];
    // Macro A is the same in both forms: p <<= 15 on Round, then p += 0x7FFF on Simple.
    let macro_a = (
        seq(
            slot(1, 2, false, true),
            slot(0, 0, false, true),
            Slot::EMPTY,
        ),
        "A [p]: Round d0 p <<= 15 (@1); Simple d2 p += 0x7FFF (@3)".to_string(),
    );
    if relaxed {
        // Period 4: A@0 [L1], B@1 [L2], regular @2, C@3 [L2] (advances the row).
        return HandForm {
            consts,
            init: Vec::new(),
            templates,
            sequences: vec![
                macro_a.clone(),
                (
                    seq(slot(1, 2, false, false), Slot::EMPTY, Slot::EMPTY),
                    "B [q]: Simple d2 q += L1 (@4)".to_string(),
                ),
                (
                    seq(slot(2, 1, true, true), Slot::EMPTY, store(2)),
                    "C [q]: Simple d1 L16 = q & mask (@5); Store d2 L16 (@6)".to_string(),
                ),
            ],
            body: vec![
                s(
                    &format!("sfploadmacro 1, INT32, {stay}, 0"),
                    "@0 A: p = L1 = x",
                ),
                s(
                    &format!("sfploadmacro 6, INT32, {stay}, 0"),
                    "@1 B: q = L2 = x",
                ),
                s("sfpshft -31, L1, L1, IMM", "@2 p = lsb (bit 16 of x)"),
                s(
                    &format!("sfploadmacro 10, INT32, {next}, 0"),
                    "@3 C: q = L2 = x again (same datum), next row",
                ),
            ],
            drain: 3,
        };
    }
    consts.push((0x7FFF_FFFF, "0x7FFFFFFF: |x| mask".to_string()));
    consts.push((
        0x007F_FFFF,
        "0x7FFFFF: |x| + it < 0 exactly for NaN".to_string(),
    ));
    // Period 8: A@0 [L1], D@1 [L3], regular @2, B@3 [L2], C@4 [L2], regular @5..@7.
    HandForm {
        consts,
        init: vec![s(
            "sfploadi L4, FLOATB, 0x7fc0",
            "L4 = 0x7FC00000: canonical quiet NaN (the body never writes L4)",
        )],
        templates,
        sequences: vec![
            macro_a,
            (
                seq(slot(1, 4, false, false), Slot::EMPTY, Slot::EMPTY),
                "B [q]: Simple d4 q += L1 (@8)".to_string(),
            ),
            (
                seq(slot(2, 4, true, true), Slot::EMPTY, store(5)),
                "C [q]: Simple d4 L16 = q & mask (@9); Store d5 L16 (@10)".to_string(),
            ),
            (
                seq(slot(2, 2, false, false), Slot::EMPTY, Slot::EMPTY),
                "D [t]: Simple d2 t = x & 0x7FFFFFFF (@4)".to_string(),
            ),
        ],
        body: vec![
            s(
                &format!("sfploadmacro 1, INT32, {stay}, 0"),
                "@0 A: p = L1 = x",
            ),
            s(
                &format!("sfploadmacro 15, INT32, {stay}, 0"),
                "@1 D: t = L3 = x",
            ),
            s("sfpshft -31, L1, L1, IMM", "@2 p = lsb (bit 16 of x)"),
            s(
                &format!("sfploadmacro 6, INT32, {stay}, 0"),
                "@3 B: q = L2 = x",
            ),
            s(
                &format!("sfploadmacro 10, INT32, {next}, 0"),
                "@4 C: q = L2 = x again (same datum), next row",
            ),
            s(
                "sfpiadd 0, L11, L3, CC_LT0",
                "@5 t = |x| + 0x7FFFFF; lanes with t < 0: NaN",
            ),
            s(
                "sfpsetsgn 0, L4, L2, 0",
                "@6 NaN lanes: q = canonical quiet NaN, sign kept",
            ),
            s("sfpencc 0, 0, 0, 0", "@7 all lanes"),
        ],
        drain: 3,
    }
}
