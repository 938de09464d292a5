//! The SFPLOADMACRO engine (tensix.md §6; ISA-BH/WH `SFPLOADMACRO.md`, tt-llk
//! `ckernel_sfpu_typecast.h` schedules): the macro configuration (templates, sequences, Misc),
//! the per-sub-unit queues of scheduled instructions with their delays, the WaitForElapsed
//! Instructions / Cycles counters, priority over regular issue, the VD==16 rule, and every
//! hazard of §6.4 as a structured [`MacroHazard`].
//!
//! Timing model (§6.2 step 3): an instruction scheduled with delay `k` by a SFPLOADMACRO issued
//! in cycle `t` executes in cycle `t + 1 + k`. Each issue cycle first executes the pending
//! instructions whose counter is 0 (in sub-unit order Simple, MAD, Round, Store), decrements the
//! others, then lets the regular instruction issue (and a SFPLOADMACRO enqueue, forgetting first).
//!
//! Readings of the sources that the published schedules force (each checked by
//! `tests/tensix_published.rs`, which runs tt-llk's schedules hazard-free):
//! * The forget rule (§6.2 step 2) applies only to bytes with `src != 0`: tt-llk's u32→fp32
//!   relies on macro 0's all-zero MAD byte not dropping macro 1's MAD that is due next cycle.
//! * (‡) "SFPNOP on MAD in the same cycle" is met by a scheduled NOP on MAD or by a regular
//!   SFPNOP issued in that cycle (tt-llk fp32→u16 issues `SFPNOP` after each macro, MAD byte 0).
//! * The cycle after a scheduled SWAP forbids Simple/Round work (scheduled or regular); a regular
//!   load (the next SFPLOADMACRO in tt-llk's fp32→u16 loop) is allowed.
//! * Macro configuration is stored lane-uniform; SFPCONFIG already rejects a non-uniform L0
//!   (`ConfigNotUniform`) and SFPCONFIG / backdoor writes need every lane enabled, so no per-lane
//!   configuration — hence no "Store scheduled in some lanes only" (ISA: scheduling depends on
//!   the per-lane config, not on lane enables) — can arise.
//! * L16 has no 4-bit encoding: regular instructions can neither read nor write it, so
//!   `L16Misuse` reduces to a scheduled store reading L16 in lanes no scheduled instruction wrote.
//! * `ConfigWhilePending` covers SFPCONFIG and backdoor template writes (VD ≥ 12 with backdoor
//!   enabled); the check runs before the backdoor write is performed in `step`.
//!
//! What a SFPLOADMACRO schedules depends only on (macro, VD, load mode, macro configuration);
//! it is computed once and cached (`MacroState::plans`), so the templates are decoded once per
//! configuration, not per issue.
//!
//! Two ways to run a macro program share the data-independent rules (`rules`, and the issue
//! timing of `exec::issue`): the step-by-step engine in this file, which does the bookkeeping
//! every cycle, and the ahead-of-time expansion (`expand`, executed by `stream`), which does
//! it once per program and queue state and then runs a pre-decoded stream. `Machine::run` /
//! `run_rows` take the expansion for programs that issue SFPLOADMACRO (or while scheduled
//! instructions are in flight) unless `Machine::set_macro_fast_path(false)`; the step-by-step
//! engine is the oracle the expansion is tested against and its fallback.
//!
//! Invariants:
//! * A scheduled instruction runs through the regular per-instruction handlers on a renamed copy
//!   (its VB/"d" operand copied into a scratch LReg not otherwise read); the result is moved to
//!   L16 or the macro's VD, the registers it can write are restored (every LReg for the
//!   instructions `scratch_writes` does not know), and issue-level state (MAD hazard, SWAP
//!   stall) is left untouched, so scheduled instructions never create regular-issue stalls.
//! * Only the register write and (for VD < 8) the flag writes of the scheduled instruction are
//!   visible; with VD = 16 lane flags are restored (writes to VD ≥ 8 never set flags).
//! * Nothing panics; every hazard is a [`SimError::Macro`].

use super::{Machine, SimError, LANES};
use crate::tensix::dest::Dest;
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{self, Insn, Reg};

pub(super) mod expand;
mod rules;
mod stream;
mod subst;
#[cfg(test)]
mod tests;
use subst::sched_reads;
pub use subst::with_vd;

/// The SFPU sub-units a macro can schedule on (§6.1 byte order).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    /// Simple sub-unit (byte 0).
    Simple,
    /// MAD sub-unit (byte 1).
    Mad,
    /// Round sub-unit (byte 2).
    Round,
    /// Store sub-unit (byte 3).
    Store,
    /// Load sub-unit (regular issue only).
    Load,
}

impl Unit {
    const SCHEDULED: [Unit; 4] = [Unit::Simple, Unit::Mad, Unit::Round, Unit::Store];

    fn index(self) -> usize {
        match self {
            Unit::Simple => 0,
            Unit::Mad => 1,
            Unit::Round => 2,
            Unit::Store => 3,
            Unit::Load => 4,
        }
    }
}

/// The sub-unit that executes a (regular or template) instruction (tensix.md §2 "Unit").
/// `None` for SFPNOP (runs anywhere) and REPLAY.
pub fn unit_of(insn: &Insn) -> Option<Unit> {
    use Insn as I;
    Some(match insn {
        I::Nop | I::Replay { .. } => return None,
        I::Load { .. } | I::LoadI { .. } | I::LoadMacro { .. } | I::Lut { .. } => Unit::Load,
        I::Store { .. } => Unit::Store,
        I::Mad { .. }
        | I::Add { .. }
        | I::Mul { .. }
        | I::AddI { .. }
        | I::MulI { .. }
        | I::LutFp32 { .. }
        | I::Mul24 { .. } => Unit::Mad,
        I::StochRnd { .. } | I::Shft2 { .. } => Unit::Round,
        _ => Unit::Simple,
    })
}

/// The hazards of tensix.md §6.4 that concern SFPLOADMACRO (the others — `CcDisabled`,
/// `Unmodelled`, `OddDstAddress`, `Backdoor`, `MadHazard` of regular issue — are reported by the
/// regular [`SimError`] variants).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MacroHazard {
    /// A macro uses a Sequence/Template/Misc never written.
    #[error("Unconfigured: {what} was never written")]
    Unconfigured { what: String },
    /// Sequence byte with src 1, or a Store sub-unit fed something other than a store.
    #[error("UbTemplate: {what}")]
    UbTemplate { what: String },
    /// Template opcode not executable by the sub-unit it is scheduled on.
    #[error("ClassMismatch: {mnemonic} scheduled on the {unit:?} sub-unit")]
    ClassMismatch { mnemonic: &'static str, unit: Unit },
    /// Rule (†): Simple and Round in the same cycle without exactly one of them writing L16.
    #[error("SameCycle: Simple (VD {simple_vd}) and Round (VD {round_vd}) in one cycle need exactly one VD == 16")]
    SameCycle { simple_vd: u8, round_vd: u8 },
    /// Rule (‡) first half: a scheduled SWAP without an SFPNOP on MAD in its cycle.
    #[error("SwapNeedsMadNop: a scheduled SFPSWAP needs SFPNOP on the MAD sub-unit in its cycle")]
    SwapNeedsMadNop,
    /// Rule (‡) second half: Simple/Round busy in the cycle after a scheduled SWAP.
    #[error("SwapNextCycle: {what} in the cycle after a scheduled SFPSWAP")]
    SwapNextCycle { what: &'static str },
    /// A scheduled MAD-class result read in the next cycle (no interlock for macros).
    #[error("MadHazard: L{reg} written by a scheduled MAD is read in the next cycle")]
    MadHazard { reg: usize },
    /// A regular instruction lands on a sub-unit used by a scheduled one in the same cycle.
    #[error("RegularCollision: {mnemonic} collides with a scheduled instruction on the {unit:?} sub-unit (the hardware discards it)")]
    RegularCollision { mnemonic: &'static str, unit: Unit },
    /// A pending scheduled instruction dropped by the forget rule.
    #[error(
        "Forgotten: a pending {unit:?} instruction with delay {delay} was dropped by a new macro"
    )]
    Forgotten { unit: Unit, delay: u8 },
    /// SFPCONFIG or a backdoor write to macro state while scheduled instructions are pending.
    #[error("ConfigWhilePending: macro configuration changed with scheduled instructions pending")]
    ConfigWhilePending,
    /// VD ≥ 4 sets Imm10 bit 0 while the address base is odd.
    #[error("VdHiCarry: VD {vd} sets Imm10 bit 0 and the Dst address base {base} is odd")]
    VdHiCarry { vd: u8, base: u16 },
    /// L16 read where it holds nothing written by a macro in those lanes.
    #[error("L16Misuse: L16 read in lanes {lanes:#010x} that no scheduled instruction wrote")]
    L16Misuse { lanes: u32 },
    /// Program ended with pending scheduled instructions.
    #[error("Undrained: {pending} scheduled instruction(s) still pending (add SFPNOPs)")]
    Undrained { pending: usize },
    /// A template mode the engine does not model.
    #[error("Unmodelled: {what}")]
    Unmodelled { what: String },
}

/// What a pending entry will do.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sched {
    Nop,
    /// SFPSTORE of `vd` (0..=16) with `mod0` at the recorded address.
    Store {
        vd: u8,
        mod0: Mod0,
        imm10: u16,
    },
    /// `insn` with its "d" operand register `din` (the instruction's VD field holds a placeholder);
    /// the result goes to `dest` (macro VD or 16).
    Op {
        insn: Insn,
        din: u8,
        dest: u8,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Pending {
    unit: Unit,
    what: Sched,
    remaining: u8,
    /// UnitDelayKind: WaitForElapsedInstructions.
    by_insns: bool,
    /// pc of the scheduling SFPLOADMACRO.
    pc: usize,
}

/// Engine state held by the [`Machine`].
#[derive(Debug, Clone, Default)]
pub(super) struct MacroState {
    pending: Vec<Pending>,
    /// Lanes of L16 written by scheduled instructions.
    l16_init: u32,
    /// Registers (bit 16 = L16) written by a scheduled MAD in the previous cycle.
    mad_last: u32,
    /// A scheduled SWAP executed in the previous cycle.
    swap_last: bool,
    /// Scratch buffers of `macro_tick` (kept to avoid allocating every cycle; empty between
    /// cycles).
    due_buf: Vec<Pending>,
    writes_buf: Vec<SchedWrite>,
    /// What a SFPLOADMACRO schedules, by everything that decides it (see [`PlanKey`]): decoding
    /// and substituting the templates once per configuration instead of once per issue.
    plans: Vec<(PlanKey, [Option<PlanEntry>; 4])>,
}

/// The inputs of a SFPLOADMACRO's scheduling step besides the address: the macro, its VD, its
/// load mode and the whole macro configuration (so any configuration write misses the cache).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PlanKey {
    m: usize,
    vd: u8,
    mod0: Mod0,
    seq: u32,
    misc: u16,
    templates: [Option<u32>; 4],
}

/// One scheduled entry of a cached plan (a Store's address is filled in at issue).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct PlanEntry {
    unit: Unit,
    what: Sched,
    delay: u8,
    by_insns: bool,
}

/// Bound on cached plans (a kernel uses at most 4 macros × a few VDs).
const MAX_PLANS: usize = 32;

impl MacroState {
    pub(super) fn pending(&self) -> usize {
        self.pending.len()
    }
}

fn hz(pc: usize, hazard: MacroHazard) -> SimError {
    SimError::Macro { pc, hazard }
}

/// The LRegs `insn` (a scheduled instruction renamed onto a scratch register) can write, for
/// the instructions whose write set is their VD (plus VC for the two-register SFPSWAP modes);
/// `None` for anything else (cross-lane SFPSHFT2 / SFPSWAP modes, SFPTRANSP, …), which makes
/// `sched_op` save every register.
fn scratch_writes(insn: &Insn) -> Option<u32> {
    let bit = |r: Reg| 1u32 << (r.0 & 15);
    match *insn {
        // The cross-lane SFPSHFT2 modes and the multi-register SFPSWAP modes write other LRegs.
        Insn::Shft2 { mod1, .. } if !matches!(mod1.0, 5 | 6) => None,
        Insn::Swap { vc, vd, mod1 } => matches!(mod1.0, 0 | 1 | 9).then(|| bit(vc) | bit(vd)),
        mut i => subst::vd_slot(&mut i).map(|vd| bit(*vd)),
    }
}

/// A scheduled op renamed onto its scratch register `s`: the instruction `sched_op` runs, its
/// pre-decoded form, and the registers it can write (saved and restored around it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct SchedRun {
    pub s: u8,
    pub run: Insn,
    pub op: super::exec::Op,
    /// The registers to save and restore around it (the first `saves` entries), or `None`
    /// for every LReg.
    pub saved: Option<([u8; 2], usize)>,
}

/// A scheduled op's result waiting for the end of its cycle: `(register, values, lanes)`.
pub(super) type SchedWrite = (usize, [u32; LANES], u32);

impl SchedRun {
    pub(super) fn new(insn: &Insn, s: u8, arch: isa::Arch, cfg: &super::SimConfig) -> SchedRun {
        let run = with_vd(insn, Reg(s));
        SchedRun {
            s,
            run,
            op: super::exec::lower(&run, arch, cfg.strict, &cfg.dst),
            // The scratch (and, for the two-output SFPSWAP modes, VC) when `scratch_writes`
            // knows the instruction, else every LReg.
            saved: scratch_writes(&run)
                .map(|w| w | 1 << s)
                .filter(|w| w.count_ones() <= 2)
                .map(|w| {
                    let mut regs = [0u8; 2];
                    for (k, r) in (0..17u8).filter(|r| w >> r & 1 != 0).enumerate() {
                        regs[k] = r;
                    }
                    (regs, w.count_ones() as usize)
                }),
        }
    }
}

impl Machine {
    /// Number of scheduled instructions still pending.
    pub fn macro_pending(&self) -> usize {
        self.macro_state.pending()
    }

    /// `Err(Undrained)` if scheduled instructions are still pending (call at the end of a
    /// kernel, after its drain NOPs).
    pub fn check_drained(&self) -> Result<(), SimError> {
        match self.macro_state.pending() {
            0 => Ok(()),
            n => Err(hz(
                self.macro_state.pending.first().map_or(0, |p| p.pc),
                MacroHazard::Undrained { pending: n },
            )),
        }
    }

    /// The issue-cycle hook (called by `step` for every issued instruction after its own hazard
    /// checks): runs the `1 + stall` cycles' worth of due scheduled instructions and checks the
    /// regular instruction against them (priority, (†), (‡), scheduled MAD latency).
    pub(super) fn macro_cycle(
        &mut self,
        insn: &Insn,
        pc: usize,
        stall: u64,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        // Configuration writes with anything pending.
        let cfg_write = match insn {
            Insn::Config { dest, .. } => *dest <= 8,
            _ => {
                insn.vd_field().is_some_and(|v| v >= 12)
                    && self.lane_config & super::LC_DISABLE_BACKDOOR == 0
            }
        };
        if cfg_write && !self.macro_state.pending.is_empty() {
            return Err(hz(pc, MacroHazard::ConfigWhilePending));
        }
        if self.macro_state.pending.is_empty()
            && self.macro_state.mad_last == 0
            && !self.macro_state.swap_last
        {
            return Ok(());
        }
        let by_insns = self.macro_state.pending.iter().any(|p| p.by_insns);
        let extra = if by_insns { 0 } else { stall };
        for _ in 0..extra {
            self.macro_tick(None, pc, dst)?;
        }
        self.macro_tick(Some(insn), pc, dst)
    }

    /// One cycle: execute due scheduled instructions (with `regular` issuing in the same cycle).
    fn macro_tick(
        &mut self,
        regular: Option<&Insn>,
        pc: usize,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        let mut due = std::mem::take(&mut self.macro_state.due_buf);
        rules::take_due(&mut self.macro_state.pending, &mut due);
        let res = self.macro_tick_due(regular, pc, &due, dst);
        due.clear();
        self.macro_state.due_buf = due;
        res
    }

    /// The rest of [`Machine::macro_tick`] once the due instructions are known.
    fn macro_tick_due(
        &mut self,
        regular: Option<&Insn>,
        pc: usize,
        due: &[Pending],
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        let (mad_now, swap_now) = rules::tick_checks(
            regular,
            pc,
            due,
            self.macro_state.mad_last,
            self.macro_state.swap_last,
        )?;
        // Execute: all due instructions read the state before any of them writes (they run in
        // parallel sub-units). No snapshot is needed: register writes are collected and applied
        // after the loop, `sched_store` changes no register, and `sched_op` restores LRegs and
        // their defined lanes before returning, so the LRegs read here are the cycle-start ones.
        let mut writes = std::mem::take(&mut self.macro_state.writes_buf);
        writes.clear();
        let mut res = Ok(());
        for p in due {
            res = match p.what {
                Sched::Nop => Ok(()),
                Sched::Store { vd, mod0, imm10 } => self.sched_store(p.pc, vd, mod0, imm10, dst),
                Sched::Op { insn, din, dest } => {
                    self.sched_op(p.pc, &insn, din, dest, dst, Some(&mut writes))
                }
            };
            if res.is_err() {
                break;
            }
        }
        if let Err(e) = res {
            writes.clear();
            self.macro_state.writes_buf = writes;
            return Err(e);
        }
        for &(r, ref vals, en) in &writes {
            self.apply_sched_write(r, vals, en);
        }
        writes.clear();
        self.macro_state.writes_buf = writes;
        self.macro_state.mad_last = mad_now;
        self.macro_state.swap_last = swap_now;
        Ok(())
    }

    /// A scheduled SFPSTORE of `vd` (the cycle-start value: see `macro_tick_due`).
    fn sched_store(
        &mut self,
        pc: usize,
        vd: u8,
        mod0: Mod0,
        imm10: u16,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        let en = self.lane_enabled();
        let r = usize::from(vd).min(16);
        let defined = if r == 16 {
            self.macro_state.l16_init
        } else {
            self.init[r]
        };
        if en & !defined != 0 {
            return Err(if r == 16 {
                hz(
                    pc,
                    MacroHazard::L16Misuse {
                        lanes: en & !defined,
                    },
                )
            } else {
                SimError::Uninitialised {
                    pc,
                    reg: r,
                    lanes: en & !defined,
                }
            });
        }
        let m = mod0.resolve(&self.cfg.dst);
        let addr = imm10;
        if m != Mod0::Int32All {
            // The whole row at once: the same cells as the per-lane loop below (errors — odd
            // address, unresolved mode — arise before any write; a failed kernel's Dst is
            // never read).
            return dst
                .sfpu_store_row(addr, en, m, self.arch, &self.lreg[r])
                .map_err(|source| SimError::Dest { pc, source });
        }
        for l in 0..LANES {
            if en >> l & 1 != 0 {
                dst.sfpu_store(addr, l, m, self.lreg[r][l], self.arch)
                    .map_err(|source| SimError::Dest { pc, source })?;
            }
        }
        Ok(())
    }

    /// Runs a scheduled op on the cycle-start state (see `macro_tick_due`) and restores the
    /// LRegs; its result `(dest register, values, lanes)` goes to `defer` when given, else into
    /// the register at once.
    pub(super) fn sched_op(
        &mut self,
        pc: usize,
        insn: &Insn,
        din: u8,
        dest: u8,
        dst: &mut Dest,
        defer: Option<&mut Vec<SchedWrite>>,
    ) -> Result<(), SimError> {
        // Scratch register: one the renamed instruction does not otherwise read.
        let mut reads = sched_reads(insn, din) | 1 << 7 | 1 << din;
        if let Insn::Mad { vb, vc, mod1, .. }
        | Insn::Add { vb, vc, mod1, .. }
        | Insn::Mul { vb, vc, mod1, .. } = *insn
        {
            if mod1.contains(isa::MadMod::INDIRECT_VA) {
                // Only the registers L7 selects in this cycle are read as VA.
                reads = 1 << (vb.0 & 15) | 1 << (vc.0 & 15) | 1 << 7 | 1 << din;
                for &sel in self.lreg[7].iter() {
                    reads |= 1 << (sel & 15);
                }
            }
        }
        let Some(s) = (0u8..8).find(|r| reads >> r & 1 == 0) else {
            return Err(hz(
                pc,
                MacroHazard::Unmodelled {
                    what: "no free LReg to evaluate a scheduled instruction".into(),
                },
            ));
        };
        let run = SchedRun::new(insn, s, self.arch, &self.cfg);
        self.sched_op_in(pc, &run, din, dest, dst, defer)
    }

    /// [`Machine::sched_op`] once its scratch register is chosen.
    pub(super) fn sched_op_in(
        &mut self,
        pc: usize,
        r: &SchedRun,
        din: u8,
        dest: u8,
        dst: &mut Dest,
        defer: Option<&mut Vec<SchedWrite>>,
    ) -> Result<(), SimError> {
        let su = usize::from(r.s);
        let cur_i = self.init;
        let mut saved = [[0u32; LANES]; 2];
        let full = match r.saved {
            Some((regs, n)) => {
                for k in 0..n {
                    saved[k] = self.lreg[usize::from(regs[k])];
                }
                None
            }
            None => Some(Box::new(self.lreg)),
        };
        let d = usize::from(din & 15);
        self.lreg[su] = self.lreg[d];
        self.init[su] = cur_i[d];
        let (cc, mad, busy, sh) = (self.cc, self.mad_pending, self.busy_next, self.wh_shuffle);
        let en = self.lane_enabled();
        let res = if self.fast(&r.op) {
            Ok(())
        } else {
            self.execute(&r.run, pc, dst)
        };
        let out = self.lreg[su];
        let new_cc = self.cc;
        match (full, r.saved) {
            (Some(all), _) => self.lreg = *all,
            (None, Some((regs, n))) => {
                for k in 0..n {
                    self.lreg[usize::from(regs[k])] = saved[k];
                }
            }
            (None, None) => {}
        }
        self.init = cur_i;
        self.mad_pending = mad;
        self.busy_next = busy;
        self.wh_shuffle = sh;
        self.cc = if dest >= 8 { cc } else { new_cc };
        res?;
        let reg = usize::from(dest).min(16);
        match defer {
            Some(w) => w.push((reg, out, en)),
            None => self.apply_sched_write(reg, &out, en),
        }
        Ok(())
    }

    /// SFPLOADMACRO (§6.2): the load part, then enqueue the sequence.
    pub(super) fn exec_loadmacro(
        &mut self,
        pc: usize,
        lreg: u8,
        mod0: Mod0,
        addr_mod: u8,
        imm10: u16,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        let rules::MacroIssue {
            m,
            vd,
            imm,
            seq,
            misc,
        } = rules::macro_issue(&self.macro_cfg, pc, lreg, imm10, self.dst_addr(0))?;
        let addr = self.dst_addr(imm);
        let load = Insn::Load {
            vd: Reg(vd),
            mod0,
            addr_mod,
            imm10: imm,
        };
        self.execute(&load, pc, dst)?;
        let key = PlanKey {
            m,
            vd,
            mod0,
            seq,
            misc,
            templates: self.macro_cfg.templates,
        };
        if let Some(&(_, plan)) = self.macro_state.plans.iter().find(|(k, _)| *k == key) {
            // A cached plan was built by the loop below without error, so only the forget rule
            // (which depends on what is pending) can fail here, checked in the same unit order.
            for e in plan.iter().flatten() {
                rules::forget(&mut self.macro_state.pending, pc, e.unit, e.delay)?;
                let what = match e.what {
                    Sched::Store { vd, mod0, .. } => Sched::Store {
                        vd,
                        mod0,
                        imm10: addr,
                    },
                    w => w,
                };
                self.macro_state.pending.push(Pending {
                    unit: e.unit,
                    what,
                    remaining: e.delay,
                    by_insns: e.by_insns,
                    pc,
                });
            }
            return Ok(());
        }
        let ctx = rules::ByteCtx {
            cfg: &self.macro_cfg,
            arch: self.arch,
            m,
            vd,
            mod0,
            seq,
            misc,
            addr,
        };
        let mut plan = [None; 4];
        for (i, slot) in plan.iter_mut().enumerate() {
            // The forget rule applies only to bytes that schedule something (src != 0): the
            // published u32→fp32 schedule (tt-llk) relies on an all-zero MAD byte of macro 0 not
            // dropping macro 1's pending MAD (tensix.md §6.2 "revisit" clause).
            if rules::byte_src(seq, i) != 0 {
                let b = (seq >> (8 * i)) as u8;
                rules::forget(
                    &mut self.macro_state.pending,
                    pc,
                    Unit::SCHEDULED[i],
                    (b >> 3) & 7,
                )?;
            }
            let Some(e) = rules::plan_byte(&ctx, i).map_err(|h| hz(pc, h))? else {
                continue;
            };
            *slot = Some(e);
            self.macro_state.pending.push(Pending {
                unit: e.unit,
                what: e.what,
                remaining: e.delay,
                by_insns: e.by_insns,
                pc,
            });
        }
        if self.macro_state.plans.len() >= MAX_PLANS {
            self.macro_state.plans.clear();
        }
        self.macro_state.plans.push((key, plan));
        Ok(())
    }
}
