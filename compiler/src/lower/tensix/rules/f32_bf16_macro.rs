//! The hand-placed SFPLOADMACRO forms of `float_float::f32_bf16` RINT sat OFF (exact and
//! `--nan=any`), several macros per row ([`super::super::hand_macro`]).
//!
//! The rounding is the plain rule's integer RNE, `r = (x + 0x7FFF + lsb) & 0xFFFF0000` with
//! `lsb` = bit 16 of `x`. Every scheduled instruction substitutes only its own macro's register.
//!
//! **`--nan=any`** (period 4; 3 macros + 1 regular instruction), split over two registers:
//! * `p` (L1): `p = x << 15` (Round, SHFT2 SHFT_IMM), then `p >>= 31` (regular), then
//!   `p += 0x7FFF` (Simple). This is the rounding increment `0x7FFF + lsb`.
//! * `q` (L2): loaded twice (macros B and C load the same datum), then `q += p` (Simple; the
//!   template's non-substituted "d" operand names L1), then `L16 = q & 0xFFFF0000` (Simple),
//!   stored by C's Store slot.
//!
//! **Exact** (period 7; a 2-row body, q alternates L3 / L4). Each row has 3 macros and 4 regular
//! instructions. The NaN lanes are fixed in Dst: a flag-gated scheduled store writes the
//! canonical value over the NaN lanes of the row's Dst cell, and a second macro then reloads the
//! row.
//! * Q1 [q] @-1 loads the raw x.
//! * P [p = L2] @0 loads x; its SFPMAD makes `p = x·x` (@1).
//! * Regular instructions:
//!   - `L1 = q << 15` (@1, SFPSHFT2 SHFT_LREG by L11 = 15);
//!   - `q = SFPSETSGN(L5 = 0x7FC00000, q)` (@2);
//!   - `p = x·x + 0x7FFFFF` with CC_LT0 (@3). The flag is set exactly in the NaN lanes: x·x is
//!     ≤ +Inf for every non-NaN x (denormals flush to 0, overflow gives +Inf). For NaN x it is a
//!     positive NaN: 0x7FC00000 on BH; on WH, 0x7F800001 or above.
//! * Q1's Store slot stores q @4, before the regular SFPENCC @4. So only the NaN lanes of the
//!   Dst cell become `sign | 0x7FC00000`.
//! * Q2 [q] @5 reloads the row: x with its NaN lanes canonical.
//! * P's Round slot makes `p = L1 >> 31` (@5; the template without use-VB reads L1). P's Simple
//!   slot makes `p += 0x7FFF` (@6).
//! * Q1's Simple slot makes `q += p` (@7, delay 7). Q2's Simple slot makes
//!   `L16 = q & mask` (@8), and Q2's Store slot stores it (@9).
//!
//! The canonical value has a zero low half, so it survives `+ p` and the mask. The lsb of a NaN
//! lane is never used.
//!
//! Four templates (SHFT2 `>> 31`, SFPIADD, SFPAND, SFPMAD) serve six scheduled instructions. The
//! SFPIADD (`VC = L12 = 0x7FFF`, `VD = L2`) adds 0x7FFF with the use-VB bit and adds `p` without
//! it.
//!
//! Timing (a slot runs at issue + 1 + delay, before the regular instruction of its cycle):
//! * Every residue but one holds exactly one Simple instruction. The free residue (@5) holds the
//!   Round `>> 31`.
//! * The regular Round shift @1 shares its cycle with the VD16 mask (§6.3 †).
//! * The only scheduled instruction inside the narrowed cycle (@4) is the gated store.
//! * p is read by `q += p` (@7) in the same cycle as the next row's P loads it, before the load.
//! * q alternates, so the next row's raw load (@6) does not touch this row's q.
//!
//! The simulator checks all of it ([`super::super::hand_macro`]). `ptoc prove` proves it against
//! the plain program (D5).
//!
//! Cycles per row (BH = WH): `--nan=any` 4 (plain 7), exact 7 (plain 11). Why exact does not go
//! below 7 (5 and, with lane flags, 6 are impossible under the simulator's rules):
//! docs/performance.md, "Exact f32→bf16: the cycle floor".

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
    let consts = vec![
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
            rows: 1,
        };
    }
    exact(consts, stay, next)
}

/// The exact form, period 7 over a 2-row body (q alternates L3 / L4); see the module doc.
fn exact(mut consts: Vec<(u32, String)>, stay: &str, next: &str) -> HandForm {
    consts.push((
        0x007F_FFFF,
        "0x7FFFFF: x*x + it < 0 exactly for NaN".to_string(),
    ));
    consts.push((15, "15: shift amount of x << 15".to_string()));
    let templates = vec![
        s("sfpshft2 -31, L0, L0, SHFT_IMM", "no use-VB: v = L1 >> 31"),
        s(
            "sfpiadd 0, L12, L2, CC_NONE",
            "use-VB: v += 0x7FFF; else v += L2",
        ),
        s("sfpand 0, L13, L0, 0", "use-VB: v & 0xFFFF0000"),
        s("sfpmad L2, L2, L9, L0, 0", "use-VB: v = L2 * v + 0"),
    ];
    let st = |delay: u8, use_vb: bool, vd16: bool| Slot {
        src: SlotSrc::Store,
        delay,
        vd16,
        use_vb,
    };
    let sequences = vec![
        (
            SequenceWord {
                simple: slot(1, 5, false, true),
                mad: slot(3, 0, false, true),
                round: slot(0, 4, false, false),
                store: Slot::EMPTY,
            },
            "P [p = L2] @0: MAD d0 p = x*x (@1); Round d4 p = L1 >> 31 (@5); \
             Simple d5 p += 0x7FFF (@6)"
                .to_string(),
        ),
        (
            seq(slot(2, 2, true, true), Slot::EMPTY, st(3, false, true)),
            "Q2 [q] @5: Simple d2 L16 = q & mask (@8); Store d3 L16 (@9)".to_string(),
        ),
        (
            seq(slot(1, 7, false, false), Slot::EMPTY, st(4, false, false)),
            "Q1 [q] @-1: Store d4 q (@4, NaN lanes only); Simple d7 q += L2 (@7)".to_string(),
        ),
    ];
    let mut body = Vec::new();
    for (q, row) in [(3u8, "even"), (4u8, "odd")] {
        let (lreg1, lreg2, imm) = (8 | (q & 3), 4 | (q & 3), q >> 2);
        body.push(s(
            &format!("sfploadmacro {lreg1}, INT32, {stay}, {imm}"),
            &format!("@-1 Q1 ({row} row): q = L{q} = x"),
        ));
        body.push(s(
            &format!("sfploadmacro 2, INT32, {stay}, 0"),
            "@0 P: p = L2 = x",
        ));
        body.push(s(
            &format!("sfpshft2 {q}, L11, L1, SHFT_LREG"),
            &format!("@1 L1 = L{q} << 15 (bit 16 of x in bit 31)"),
        ));
        body.push(s(
            &format!("sfpsetsgn 0, L5, L{q}, 0"),
            "@2 q = 0x7FC00000 with the sign of x",
        ));
        body.push(s(
            "sfpiadd 0, L14, L2, CC_LT0",
            "@3 p = x*x + 0x7FFFFF; lanes with p < 0: NaN",
        ));
        body.push(s(
            "sfpencc 0, 0, 0, 0",
            "@4 all lanes (after Q1's store of q)",
        ));
        body.push(s(
            &format!("sfploadmacro {lreg2}, INT32, {next}, {imm}"),
            &format!("@5 Q2: q = L{q} = x with NaN canonical (reloaded from Dst), next row"),
        ));
    }
    HandForm {
        consts,
        init: vec![s(
            "sfploadi L5, FLOATB, 0x7fc0",
            "L5 = 0x7FC00000: canonical quiet NaN (the body never writes L5)",
        )],
        templates,
        sequences,
        body,
        drain: 5,
        rows: 2,
    }
}
