//! The SFPLOADMACRO scheduler (tensix.md §6, §7) and the typed builder for the macro
//! configuration words (Sequence, Misc, templates) that replaces hand-written hex.
//!
//! What it owns: turning a proven plain body `load v; …; store r` into a software-pipelined
//! loop of one SFPLOADMACRO per row plus the remaining regular instructions, or saying there is
//! none better than the plain program.
//!
//! ## What the scheduler places
//! * **Slots.** Up to three body instructions become template-scheduled slots of macro 0 — at
//!   most one per sub-unit (Simple, MAD, Round) — and the store may become its Store slot. An
//!   instruction qualifies when it runs with every lane enabled in the plain program, writes no
//!   flags, is one the engine can substitute (§6.2), and has one of the operand shapes §6.2 can
//!   express with the loaded register `v` as the macro's VD:
//!   - *VC form* (`use-VB` off): VC is `v`; its other inputs (VA/VB of a MAD, the "d" operand)
//!     are fixed registers written into the template; the result goes to `v` (in place);
//!   - *VB form* (`use-VB` on): VD is `v` and is read as the "d" operand (SFPSETSGN,
//!     SFPSWAP, SFPOR …, or VB of a MAD); VC is a fixed register from the template;
//!   - *final form*: the instruction whose result only the store reads writes L16 (VD16) and
//!     the Store slot stores L16.
//!
//!   Templates are written with `SFPCONFIG 0..3` from the encoded instruction word (so a
//!   template's fixed registers are exactly the plain instruction's), sequences with
//!   [`SequenceWord`], Misc with [`MiscWord`].
//! * **Times.** Every instruction of the row gets a cycle relative to its SFPLOADMACRO (cycle
//!   0): regular instructions issue in the plain order at 1, 2, …; a slot executes at `delay + 1`.
//!   The times come from the body's dependency DAG (`schedule::dependency_graph`, petgraph):
//!   a read-after-write waits for the producer's latency (2 after a MAD-class or SFPSWAP
//!   result, else 1); other edges (write-after-read, write-after-write, flag and Dst order) only
//!   need the order kept, strictly when the later one is a slot because a slot executes before
//!   the regular instruction issued in the same cycle (§6.2 step 3). A regular instruction that
//!   must wait gets SFPNOPs before it (so Blackhole never auto-stalls inside a macro loop: the
//!   delays count cycles); a slot may land in the next row's cycles (software pipelining).
//! * **Period and rotation.** The row period P is the issue count (macro + regular + NOPs),
//!   tried upward with trailing NOPs; when a slot that reads or writes `v` lands after the next
//!   row's load, the body is unrolled over R = 2 or 4 rows with `v` rotating through R
//!   registers the body never names (every regular instruction of row r renamed), so a slot may
//!   use `v` up to R periods after its load. R divides a face's 8 rows (tt-llk's
//!   `ITERATIONS = 8`), which is why 3 is skipped: a 2-c/row chain of load, Simple, MAD
//!   (latency 2) and Round reads `v` 5 cycles after its load and needs R = 4.
//! * **Drain.** SFPNOPs after the loop until every slot of the last row has executed.
//!
//! ## Constraints enforced (§6.3) and why the result is safe
//! The placement pass enforces the DAG, the delay range (0..=6, cycle-counted), slots only in
//! cycles whose lane flags are all enabled, no regular instruction on a slot's sub-unit in its
//! cycle (modulo P) and an SFPNOP on MAD beside a scheduled SFPSWAP. It does not try to
//! re-derive the rest of §6.3/§6.4 (VD16 rule for Simple+Round in one cycle, the cycle after
//! SWAP, macro MAD latency, forgetting, cross-row register reuse); instead every candidate is
//! **run on the simulator**, which reports each of those hazards as an error, through the §7
//! cycle model and against the plain program on a fixed sample of inputs (edge values and
//! random words). A candidate with any hazard, any difference from the plain program, or no
//! gain over the plain program's cycles per row is discarded; the search (smallest period
//! first, then small extra delays) is bounded. The chosen form is then proven by `ptoc prove`
//! / `tests/tensix_prove.rs` against the plain program on every proof input (D5), and the plain
//! program against the reference — so the scheduler can be wrong only by missing a faster form,
//! never by emitting a different kernel.
//!
//! Results are memoised per (arch, init, body): `lower_combo` is pure and called often.
//!
//! A rule may instead hand over a form it placed itself (several SFPLOADMACROs per row,
//! [`super::hand_macro`]); `lower_combo` tries it first, under the same admission test
//! ([`check`]), and falls back to this search when it is rejected.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use petgraph::visit::EdgeRef;
use pto_runtime::tensix::formats::Mod0;
use pto_runtime::tensix::io::KERNEL_MOD0;
use pto_runtime::tensix::isa::{encode, Arch, Insn, Kind, Reg};
use pto_runtime::tensix::sim::{register_reads, unit_of, Unit};

use super::builder::{Builder, Line};
use super::schedule::{dependency_graph, is_mad, register_writes, touches_flags};
/// What a sub-unit slot of a Sequence runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum SlotSrc {
    Nothing,
    Nop,
    /// The Store slot's SFPSTORE.
    Store,
    /// Instruction template 0..=3.
    Template(u8),
}

/// One byte of a Sequence word (§6.2 step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Slot {
    pub src: SlotSrc,
    /// 0..=7 (7 = never forget).
    pub delay: u8,
    /// Result to L16 (store: read L16).
    pub vd16: bool,
    /// Substitute VB instead of VC.
    pub use_vb: bool,
}

impl Slot {
    pub const EMPTY: Slot = Slot {
        src: SlotSrc::Nothing,
        delay: 0,
        vd16: false,
        use_vb: false,
    };

    pub fn byte(self) -> u8 {
        let src = match self.src {
            SlotSrc::Nothing => 0,
            SlotSrc::Nop => 2,
            SlotSrc::Store => 3,
            SlotSrc::Template(t) => 4 + (t & 3),
        };
        src | (self.delay & 7) << 3 | u8::from(self.vd16) << 6 | u8::from(self.use_vb) << 7
    }
}

/// A Sequence register: byte 0 Simple, 1 MAD, 2 Round, 3 Store.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct SequenceWord {
    pub simple: Slot,
    pub mad: Slot,
    pub round: Slot,
    pub store: Slot,
}

impl SequenceWord {
    pub fn word(self) -> u32 {
        u32::from_le_bytes([
            self.simple.byte(),
            self.mad.byte(),
            self.round.byte(),
            self.store.byte(),
        ])
    }
}

/// The Misc register (§6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MiscWord {
    pub store_mod0: Mod0,
    /// Bit per macro: its Store uses the load's Mod0.
    pub uses_load_mod0: u8,
    /// Bit per sub-unit (Simple, MAD, Round, Store): delays count instructions, not cycles.
    pub delay_in_instructions: u8,
}

impl MiscWord {
    pub fn word(self) -> u16 {
        u16::from(self.store_mod0.bits() & 15)
            | u16::from(self.uses_load_mod0 & 15) << 4
            | u16::from(self.delay_in_instructions & 15) << 8
    }
}

/// A kernel's macro form: init (macro configuration, then the plain init), a body of `rows`
/// rows (the register-alternation period) and the drain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroForm {
    pub init: Vec<Line>,
    pub body: Vec<Line>,
    pub drain: Vec<Line>,
    /// Rows processed by one body run (1, or 2 when `v` alternates between two registers).
    pub rows: usize,
}

/// How a body instruction can run as a slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct SlotForm {
    unit: Unit,
    use_vb: bool,
    /// Writes L16 (the final form: only the store reads the result).
    vd16: bool,
    /// Its template names `v` as a fixed operand (forbids alternating `v`).
    pins_v: bool,
}

/// One choice of slots: body index → form; `store` = the store is the Store slot.
#[derive(Debug, Clone)]
struct Choice {
    slots: Vec<(usize, SlotForm)>,
    store: bool,
    store_vd16: bool,
}

/// A placed row: per body index its cycle (slots: execution cycle; regular: issue cycle),
/// the regular issue list with NOPs, and the period.
#[derive(Debug, Clone)]
struct Placement {
    time: Vec<u32>,
    /// Regular issue order (body indices; `None` = SFPNOP), cycles 1..=len.
    regular: Vec<Option<usize>>,
    period: u32,
}

fn bit(r: Reg) -> u32 {
    1u32 << (r.0 & 15)
}

/// The VC field of instructions that have one.
fn vc_of(insn: &Insn) -> Option<Reg> {
    use Insn as I;
    match *insn {
        I::DivP2 { vc, .. }
        | I::ExExp { vc, .. }
        | I::ExMan { vc, .. }
        | I::IAdd { vc, .. }
        | I::Shft { vc, .. }
        | I::Mov { vc, .. }
        | I::Abs { vc, .. }
        | I::And { vc, .. }
        | I::Or { vc, .. }
        | I::Not { vc, .. }
        | I::Lz { vc, .. }
        | I::SetExp { vc, .. }
        | I::SetMan { vc, .. }
        | I::SetSgn { vc, .. }
        | I::Xor { vc, .. }
        | I::Cast { vc, .. }
        | I::Swap { vc, .. }
        | I::Mad { vc, .. }
        | I::Add { vc, .. }
        | I::Mul { vc, .. }
        | I::StochRnd { vc, .. } => Some(vc),
        _ => None,
    }
}

/// Whether the macro engine can substitute `insn` as a template (§6.2; SFPSHFT2 is left out:
/// its SHFT_LREG operand sits in the immediate, which alternation could not rename).
fn schedulable(insn: &Insn) -> bool {
    use Insn as I;
    matches!(
        insn,
        I::DivP2 { .. }
            | I::ExExp { .. }
            | I::ExMan { .. }
            | I::IAdd { .. }
            | I::Shft { .. }
            | I::Mov { .. }
            | I::Abs { .. }
            | I::And { .. }
            | I::Or { .. }
            | I::Not { .. }
            | I::Lz { .. }
            | I::SetExp { .. }
            | I::SetMan { .. }
            | I::SetSgn { .. }
            | I::Xor { .. }
            | I::Cast { .. }
            | I::Swap { .. }
            | I::Mad { .. }
            | I::Add { .. }
            | I::Mul { .. }
            | I::StochRnd { .. }
    ) && !touches_flags(insn)
}

/// SFPSHFT2's SHFT_LREG mode (its VB sits in the low 4 bits of the immediate).
const SHFT2_SHFT_LREG: u8 = 5;

/// `insn` with register `from` renamed to `to` in every register field, including the VB that
/// SFPSHFT2 SHFT_LREG keeps in its immediate (a regular instruction; SHFT_IMM's immediate is a
/// shift amount and is left alone).
pub fn rename(insn: &Insn, from: Reg, to: Reg) -> Insn {
    let (mut a, n) = insn.args();
    let kinds = insn.info().operands.iter().filter(|o| o.stored());
    for (slot, op) in a.iter_mut().take(n).zip(kinds) {
        if matches!(op.kind, Kind::Reg) && *slot == i64::from(from.0) {
            *slot = i64::from(to.0);
        }
    }
    let out = Insn::from_args(insn.op(), a.get(..n).unwrap_or(&[]));
    match out {
        Insn::Shft2 {
            imm12,
            vc,
            vd,
            mod1,
        } if mod1.bits() == SHFT2_SHFT_LREG && (imm12 & 15) == i16::from(from.0) => Insn::Shft2 {
            imm12: (imm12 & !15) | i16::from(to.0),
            vc,
            vd,
            mod1,
        },
        other => other,
    }
}

/// The registers an instruction names in its fields (SFPSHFT2 SHFT_LREG: VB from the
/// immediate too). Unlike `register_reads`, indirect modes do not widen it to every register.
fn named_regs(insn: &Insn) -> u32 {
    let (a, n) = insn.args();
    let kinds = insn.info().operands.iter().filter(|o| o.stored());
    let mut m = 0u32;
    for (v, op) in a.iter().take(n).zip(kinds) {
        if matches!(op.kind, Kind::Reg) {
            m |= 1u32 << (*v & 15);
        }
    }
    if let Insn::Shft2 { imm12, .. } = insn {
        m |= 1u32 << (imm12 & 15);
    }
    m
}

/// Lane flags narrowed before each body instruction (the D7 row state at index 0).
fn narrowed_before(body: &[Line]) -> Vec<bool> {
    let mut out = Vec::with_capacity(body.len());
    let mut narrowed = false;
    let mut stack = Vec::new();
    for l in body {
        out.push(narrowed);
        match l.insn {
            Insn::EnCc { imm2, mod1, .. } => narrowed = mod1.bits() & 8 != 0 && imm2 & 2 == 0,
            Insn::PushC { .. } => stack.push(narrowed),
            Insn::PopC { .. } => narrowed = stack.pop().unwrap_or(true),
            ref i if touches_flags(i) => narrowed = true,
            _ => {}
        }
    }
    out
}

/// The slot form of `body[i]` with loaded register `v`, if any (module doc).
fn slot_form(body: &[Line], i: usize, v: Reg, narrowed: bool) -> Option<SlotForm> {
    let insn = body.get(i)?.insn;
    if narrowed || !schedulable(&insn) {
        return None;
    }
    let unit = match unit_of(&insn)? {
        u @ (Unit::Simple | Unit::Mad | Unit::Round) => u,
        _ => return None,
    };
    let vd = Reg(insn.vd_field()?);
    let vc = vc_of(&insn)?;
    // Whether the "d" operand (the VD field as a source) is read: rename VD to a register the
    // instruction does not name and look at the read set.
    let named = named_regs(&insn);
    let probe = (0..16u8).map(Reg).find(|r| named & bit(*r) == 0)?;
    let reads_d = !is_mad(&insn)
        && register_reads(&pto_runtime::tensix::sim::with_vd(&insn, probe)) & bit(probe) != 0;
    // The final form: the result is read only by the store, which is the last instruction.
    let last = body.len().checked_sub(1)?;
    let only_store_reads = matches!(body.get(last).map(|l| l.insn), Some(Insn::Store { vd: s, .. }) if s == vd)
        && body
            .iter()
            .enumerate()
            .skip(i + 1)
            .take(last.saturating_sub(i + 1))
            .all(|(_, l)| {
                register_reads(&l.insn) & bit(vd) == 0 && register_writes(&l.insn) & bit(vd) == 0
            });
    let mad_vb = match insn {
        Insn::Mad { vb, .. } | Insn::Add { vb, .. } | Insn::Mul { vb, .. } => Some(vb),
        _ => None,
    };
    let (use_vb, pins_v) = if vc == v && !(reads_d && vd != v) {
        (false, reads_d)
    } else if mad_vb.is_some_and(|b| b == v && vc != v)
        || (mad_vb.is_none() && vd == v && reads_d && vc != v)
    {
        (true, false)
    } else {
        return None;
    };
    if matches!(insn, Insn::Swap { .. }) && !use_vb {
        return None;
    }
    let pins_v = pins_v
        || (use_vb && vc == v)
        || matches!(insn, Insn::Mad { va, .. } | Insn::Add { va, .. } | Insn::Mul { va, .. } if va == v)
        || (mad_vb == Some(v) && !use_vb);
    // Prefer L16 for the value only the store reads (frees `v` for the next row's load).
    let vd16 = if only_store_reads {
        true
    } else if vd == v {
        false
    } else {
        return None;
    };
    if matches!(insn, Insn::Swap { .. }) && vd16 {
        return None;
    }
    Some(SlotForm {
        unit,
        use_vb,
        vd16,
        pins_v,
    })
}

/// Result latency of `insn` when a dependent instruction reads it.
fn latency(insn: &Insn) -> u32 {
    if is_mad(insn) || matches!(insn, Insn::Swap { .. }) {
        2
    } else {
        1
    }
}

/// Places one row (module doc, "Times"); `slack[k]` delays the k-th slot by extra cycles.
fn place(body: &[Line], choice: &Choice, slack: &[u32], arch: Arch) -> Option<Placement> {
    let n = body.len();
    let g = dependency_graph(body);
    let mut is_slot = vec![false; n];
    let mut slack_of = vec![0u32; n];
    for (k, (i, _)) in choice.slots.iter().enumerate() {
        is_slot[*i] = true;
        slack_of[*i] = slack.get(k).copied().unwrap_or(0);
    }
    let last = n.checked_sub(1)?;
    if choice.store {
        is_slot[last] = true;
        slack_of[last] = slack.get(choice.slots.len()).copied().unwrap_or(0);
    }
    let mut time = vec![0u32; n];
    let mut regular: Vec<Option<usize>> = Vec::new();
    for j in 1..n {
        let insn = body[j].insn;
        let slot = is_slot[j];
        let mut t = if slot { 1 } else { regular.len() as u32 + 1 };
        for e in g.edges_directed(
            petgraph::graph::NodeIndex::new(j),
            petgraph::Direction::Incoming,
        ) {
            let k = e.source().index();
            let pk = body[k].insn;
            let raw = register_writes(&pk) & register_reads(&insn) != 0;
            let need = if raw {
                time[k] + latency(&pk)
            } else if slot || !is_slot[k] {
                time[k] + 1
            } else {
                time[k]
            };
            // Regular after regular: also keep the issue order (already implied by t).
            t = t.max(need);
        }
        t += slack_of[j];
        if slot {
            time[j] = t;
        } else {
            while (regular.len() as u32 + 1) < t {
                regular.push(None);
            }
            // Blackhole/Wormhole: a regular MAD result read by the next regular instruction
            // gets a NOP rather than a stall (delays count cycles).
            time[j] = regular.len() as u32 + 1;
            regular.push(Some(j));
        }
    }
    let _ = arch;
    let period = regular.len() as u32 + 1;
    Some(Placement {
        time,
        regular,
        period,
    })
}

/// Checks the placement's static constraints for period `p` (module doc); returns the body
/// index of a slot to delay when one fails.
fn static_conflict(body: &[Line], choice: &Choice, pl: &Placement, p: u32) -> Option<usize> {
    // Regular unit per cycle and flag state after each regular cycle (cycle 0 = the macro).
    let mut unit_at: Vec<Option<Unit>> = vec![None; p as usize];
    let mut nop_at = vec![false; p as usize];
    let narrowed = narrowed_before(body);
    let mut narrowed_after = vec![false; p as usize];
    let mut state = false;
    for (c, r) in pl.regular.iter().enumerate() {
        let cyc = c + 1;
        match r {
            Some(i) => {
                unit_at[cyc] = unit_of(&body[*i].insn);
                state = narrowed.get(*i + 1).copied().unwrap_or(false);
            }
            None => nop_at[cyc] = true,
        }
        narrowed_after[cyc] = state;
    }
    for c in pl.regular.len() + 1..p as usize {
        nop_at[c] = true;
        narrowed_after[c] = state;
    }
    let mut idx: Vec<(usize, Unit)> = choice.slots.iter().map(|(i, f)| (*i, f.unit)).collect();
    if choice.store {
        idx.push((body.len() - 1, Unit::Store));
    }
    for (i, u) in idx {
        let e = pl.time[i];
        if e == 0 || e > 7 {
            return Some(i);
        }
        let c = (e % p) as usize;
        let before = (e - 1) % p;
        if narrowed_after[before as usize] {
            return Some(i);
        }
        if unit_at[c] == Some(u) {
            return Some(i);
        }
        if matches!(body[i].insn, Insn::Swap { .. }) && !nop_at[c] {
            // The MAD slot carries the NOP when it is free (see `build`).
            if choice.slots.iter().any(|(_, f)| f.unit == Unit::Mad) {
                return Some(i);
            }
        }
    }
    None
}

/// Builds the macro kernel of a placement with period `p` and `rows` (1 or 2) rows per body.
#[allow(clippy::too_many_arguments)]
fn build(
    arch: Arch,
    init: &[Line],
    body: &[Line],
    choice: &Choice,
    pl: &Placement,
    p: u32,
    rows: usize,
    alts: &[Reg],
) -> Option<MacroForm> {
    let Insn::Load { vd: v, .. } = body.first()?.insn else {
        return None;
    };
    let mut b = Builder::new(arch);
    let (stay, next_row) = b.addr_mods();
    let mut seq = SequenceWord {
        simple: Slot::EMPTY,
        mad: Slot::EMPTY,
        round: Slot::EMPTY,
        store: Slot::EMPTY,
    };
    let mut table = Vec::new();
    let mut max_e = 0;
    for (k, (i, f)) in choice.slots.iter().enumerate() {
        let insn = body[*i].insn;
        let word = encode(&insn, arch).ok()?;
        let t = k as u8;
        let what = pto_runtime::tensix::asm::format_insn(&insn);
        init_template(
            &mut b,
            usize::from(t),
            word,
            &format!("template {t}: {what}"),
        );
        let e = pl.time[*i];
        max_e = max_e.max(e);
        let slot = Slot {
            src: SlotSrc::Template(t),
            delay: (e - 1) as u8,
            vd16: f.vd16,
            use_vb: f.use_vb,
        };
        match f.unit {
            Unit::Simple => seq.simple = slot,
            Unit::Mad => seq.mad = slot,
            Unit::Round => seq.round = slot,
            _ => return None,
        }
        table.push(format!(
            "{:?} d{} {}{}{}",
            f.unit,
            e - 1,
            insn.info().mnemonic,
            if f.use_vb { " VB" } else { "" },
            if f.vd16 { " →L16" } else { "" }
        ));
        if matches!(insn, Insn::Swap { .. }) && seq.mad.src == SlotSrc::Nothing {
            seq.mad = Slot {
                src: SlotSrc::Nop,
                delay: (e - 1) as u8,
                vd16: false,
                use_vb: false,
            };
        }
    }
    let last = body.len() - 1;
    if choice.store {
        let e = pl.time[last];
        max_e = max_e.max(e);
        seq.store = Slot {
            src: SlotSrc::Store,
            delay: (e - 1) as u8,
            vd16: choice.store_vd16,
            use_vb: false,
        };
        table.push(format!(
            "Store d{} {}",
            e - 1,
            if choice.store_vd16 { "L16" } else { "v" }
        ));
    }
    let word = seq.word();
    b.init_op(
        &format!("sfploadi L0, USHORT, {:#06x}", word & 0xFFFF),
        &format!("macro 0: {}", table.join(", ")),
    );
    b.init_op(
        &format!("sfploadi L0, UPPER, {:#06x}", word >> 16),
        "  (Sequence[0] high half: Round, Store)",
    );
    b.init_op("sfpconfig 0, 4, 0", "Sequence[0] = L0");
    init_misc(&mut b);
    let regs: Vec<Reg> = std::iter::once(v).chain(alts.iter().copied()).collect();
    if regs.len() < rows {
        return None;
    }
    for (row, &r) in regs.iter().enumerate().take(rows) {
        let lreg = r.0 & 3;
        let hi = r.0 >> 2;
        let mode = if choice.store { next_row } else { stay };
        b.op(
            &format!("sfploadmacro {lreg}, INT32, {mode}, {hi}"),
            &format!("row {row}: v = L{} (macro 0)", r.0),
        );
        if b.error.is_some() {
            return None;
        }
        for (c, x) in pl.regular.iter().enumerate() {
            match x {
                Some(i) => {
                    let l = &body[*i];
                    b.body.push(Line {
                        insn: rename(&l.insn, v, r),
                        comment: l.comment.clone(),
                    });
                }
                None => b.op(
                    "sfpnop",
                    &format!("cycle {}: wait for a slot result", c + 1),
                ),
            }
        }
        for _ in pl.regular.len() as u32 + 1..p {
            b.op("sfpnop", "period padding");
        }
    }
    let drain_len = max_e.saturating_sub(p - 1);
    for _ in 0..drain_len {
        b.op("sfpnop", "drain the scheduled slots");
    }
    if b.error.is_some() {
        return None;
    }
    let mut full_init = b.init;
    full_init.extend(init.iter().cloned());
    let mut body_lines = b.body;
    let drain = body_lines.split_off(body_lines.len() - drain_len as usize);
    Some(MacroForm {
        init: full_init,
        body: body_lines,
        drain,
        rows,
    })
}

/// Writes the Misc word every ptoc macro form uses: StoreMod0 = the kernel's INT32 mode, no
/// macro stores with its load mode, every delay counted in cycles.
/// Init code writing template `t` = `word` through L0 (two SFPLOADIs and an SFPCONFIG); `label`
/// comments the first of them. Shared by the macro search and the hand-placed forms.
pub(super) fn init_template(b: &mut Builder, t: usize, word: u32, label: &str) {
    b.init_op(
        &format!("sfploadi L0, USHORT, {:#06x}", word & 0xFFFF),
        label,
    );
    b.init_op(
        &format!("sfploadi L0, UPPER, {:#06x}", word >> 16),
        &format!("  (template {t} word {word:#010x})"),
    );
    b.init_op(
        &format!("sfpconfig 0, {t}, 0"),
        &format!("InstructionTemplate[{t}] = L0"),
    );
}

pub(super) fn init_misc(b: &mut Builder) {
    let misc = MiscWord {
        store_mod0: KERNEL_MOD0,
        uses_load_mod0: 0,
        delay_in_instructions: 0,
    };
    b.init_op(
        &format!("sfpconfig {:#x}, 8, 1", misc.word()),
        "Misc: StoreMod0 INT32, delays in cycles",
    );
}

mod admit;
pub(super) use admit::{check, plain_reference, prog};

mod search;
pub use search::macro_form;

#[cfg(test)]
mod scheduler_tests;
#[cfg(test)]
mod tests;
