//! Ahead-of-time expansion of a macro program run (issue 10 item 7): the schedule of
//! SFPLOADMACRO-scheduled instructions depends only on the instruction stream — delays, the
//! forget rule, WaitForElapsedInstructions counting, auto-stalls, the §6.3 structural checks —
//! never on lane data. So one run of a program from a given issue/queue state is expanded once
//! into a straight-line stream of [`Ev`]s in which every scheduled instruction appears, with its
//! operands substituted and its store address resolved, at the point it executes (before the
//! regular instruction of its cycle); `stream` then executes the stream through the same
//! pre-decoded handlers as plain programs.
//!
//! The expansion runs exactly the bookkeeping of the step-by-step engine (`Machine::step`,
//! `macro_cycle`, `macro_tick`, `exec_loadmacro`) on a [`SchedState`], through the shared
//! [`issue`] timing and [`rules`] functions; whatever that bookkeeping would report as an error
//! (a structural hazard, `Forgotten`, an unconfigured macro or address mode, …) makes the run
//! [`Unsupported`](Halt::Unsupported), and the caller runs it on the step-by-step engine, which
//! reports the error at its exact point. So does anything whose effect is not a function of the
//! stream: SFPCONFIG and backdoor writes (configuration changes), REPLAY, an instruction not on
//! the arch. What stays data-dependent is checked when the stream executes, by the same
//! handlers: uninitialised lanes, `L16Misuse`, Dst errors, lane flags and enables, the scratch
//! register of a scheduled MAD with INDIRECT_VA (it depends on L7).
//!
//! Store addresses in a [`SchedState`] are offsets from the Dst address base (offset + RWC.Dst)
//! at the state's point, so a loop body's steady state repeats from one iteration to the next
//! and its expansion is reused for every iteration ([`ExpCache`]).
//!
//! Invariant: replaying an expansion up to event `k` gives the engine state the step-by-step path
//! holds when event `k` executes (used to leave the machine exactly as that path would after an
//! error).

use super::rules;
use super::subst::sched_reads;
use super::{Pending, Sched, SchedRun, Unit};
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{self, Arch, Insn, Reg};
use crate::tensix::sim::exec::issue::{issue_effects, issue_stall, IssueState};
use crate::tensix::sim::exec::{lower, Op};
use crate::tensix::sim::{MacroConfig, SimConfig, Stats};

/// The data-independent engine state between two regular instructions.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct SchedState {
    pub issue: IssueState,
    /// Pending scheduled instructions, a Store's `imm10` being its address relative to the Dst
    /// address base at this state's point.
    pub pending: Vec<Pending>,
    pub mad_last: u32,
    pub swap_last: bool,
    /// Parity of the Dst address base (VdHiCarry).
    pub odd: bool,
}

/// Everything besides the program and the start state that an expansion depends on (arch and
/// [`SimConfig`] are fixed per machine, whose cache this is).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Ctx {
    pub macro_cfg: MacroConfig,
    pub addr_mods: [Option<u16>; 8],
    pub lane_config: u32,
}

/// One step of an expanded run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Ev {
    /// A regular instruction (lowered form `op`), after its cycle's scheduled instructions.
    Regular { pc: usize, op: Op, insn: Insn },
    /// The load part of a SFPLOADMACRO (`load` is its SFPLOAD, lowered to `op`); its scheduling
    /// part is all in the expansion.
    MacroLoad { pc: usize, op: Op, load: Insn },
    /// The next `n` scheduled events form one cycle in which a register written by one is read
    /// by a later one: run them on the cycle-start registers (writes applied after the last).
    Deferred { n: usize },
    /// The next `n` (≥ 2) scheduled events form one cycle and may run one after the other, but
    /// a failing one must leave the registers the earlier ones wrote as they were (the
    /// step-by-step engine applies a cycle's writes only when all of it succeeded). A single
    /// scheduled event of a cycle has no header.
    Group { n: usize },
    /// A scheduled SFPSTORE (`pc` of its SFPLOADMACRO) at `rel` + the base at the run's start.
    Store {
        pc: usize,
        vd: u8,
        mod0: Mod0,
        rel: u16,
    },
    /// A scheduled instruction: `insn` with "d" operand `din`, result to `dest`; `op` is its
    /// pre-decoded form reading `din` (redirected to `dest` by `Machine::fast_io`), or
    /// `Op::Exec` when it has none (then the general `sched_op` evaluates it).
    Sched {
        pc: usize,
        op: Op,
        insn: Insn,
        din: u8,
        dest: u8,
        /// Its renamed form when the scratch register does not depend on lane data.
        run: Option<SchedRun>,
    },
}

/// An expanded run.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(super) struct Expansion {
    pub events: Vec<Ev>,
    /// The state after the run (addresses relative to the base after the run).
    pub end: SchedState,
    /// Instructions, cycles and stalls of the run.
    pub stats: Stats,
    /// The run issues a SFPLOADMACRO.
    pub macro_load: bool,
}

/// Why an expansion stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Halt {
    /// The run is not a function of its stream, or its bookkeeping reports an error: run it on
    /// the step-by-step engine.
    Unsupported,
    /// Stopped before emitting the requested event.
    Stopped,
}

/// The expander: the step-by-step engine's bookkeeping without lane data.
pub(super) struct Expander<'a> {
    arch: Arch,
    cfg: &'a SimConfig,
    ctx: &'a Ctx,
    pub state: SchedState,
    pub stats: Stats,
    pub events: Vec<Ev>,
    /// RWC.Dst advance since the start (mod 1024).
    rwc_off: u16,
    macro_load: bool,
    /// Stop before emitting event number `stop`.
    stop: Option<usize>,
    due: Vec<Pending>,
}

impl<'a> Expander<'a> {
    pub fn new(
        arch: Arch,
        cfg: &'a SimConfig,
        ctx: &'a Ctx,
        start: &SchedState,
        stop: Option<usize>,
    ) -> Expander<'a> {
        Expander {
            arch,
            cfg,
            ctx,
            state: start.clone(),
            stats: Stats::default(),
            events: Vec::new(),
            rwc_off: 0,
            macro_load: false,
            stop,
            due: Vec::new(),
        }
    }

    fn emit(&mut self, ev: Ev) -> Result<(), Halt> {
        if self.stop == Some(self.events.len()) {
            return Err(Halt::Stopped);
        }
        self.events.push(ev);
        Ok(())
    }

    /// Expands one run of `insns`.
    pub fn run(mut self, insns: &[Insn]) -> Result<Expansion, Halt> {
        for (pc, insn) in insns.iter().enumerate() {
            self.insn(pc, insn)?;
        }
        for p in &mut self.state.pending {
            if let Sched::Store { imm10, .. } = &mut p.what {
                *imm10 = imm10.wrapping_sub(self.rwc_off) & 0x3FF;
            }
        }
        Ok(Expansion {
            events: self.events,
            end: self.state,
            stats: self.stats,
            macro_load: self.macro_load,
        })
    }

    /// RWC.Dst increment of address mode `k` (unconfigured: the handler's `AddrMod` error).
    fn advance(&mut self, k: u8) -> Result<(), Halt> {
        let incr = self
            .ctx
            .addr_mods
            .get(usize::from(k))
            .copied()
            .flatten()
            .ok_or(Halt::Unsupported)?;
        self.rwc_off = self.rwc_off.wrapping_add(incr) & 0x3FF;
        self.state.odd ^= incr & 1 != 0;
        Ok(())
    }

    /// `Machine::step` / the idle path of `issue_ops` for one regular instruction.
    fn insn(&mut self, pc: usize, insn: &Insn) -> Result<(), Halt> {
        let supported = insn.info().available(self.arch)
            && !matches!(insn, Insn::Replay { .. } | Insn::Config { .. })
            && insn.vd_field().is_none_or(|v| v < 12);
        if !supported {
            return Err(Halt::Unsupported);
        }
        let stall =
            issue_stall(insn, pc, self.arch, &self.state.issue).map_err(|_| Halt::Unsupported)?;
        self.stats.instructions += 1;
        self.stats.cycles += 1 + stall;
        self.stats.stalls += stall;
        self.state.issue = IssueState::default();
        // `macro_cycle` (a configuration write cannot occur: SFPCONFIG and VD ≥ 12 are out).
        let s = &self.state;
        if !(s.pending.is_empty() && s.mad_last == 0 && !s.swap_last) {
            let by_insns = s.pending.iter().any(|p| p.by_insns);
            let extra = if by_insns { 0 } else { stall };
            for _ in 0..extra {
                self.tick(None, pc)?;
            }
            self.tick(Some(insn), pc)?;
        }
        let dcfg = &self.cfg.dst;
        match *insn {
            Insn::LoadMacro {
                lreg,
                mod0,
                addr_mod,
                imm10,
            } => {
                // Only the parity of the base matters to the check; any other error is
                // reported by the step-by-step engine.
                let base = u16::from(self.state.odd);
                let mi = rules::macro_issue(&self.ctx.macro_cfg, pc, lreg, imm10, base)
                    .map_err(|_| Halt::Unsupported)?;
                let rel = mi.imm.wrapping_add(self.rwc_off) & 0x3FF;
                let load = Insn::Load {
                    vd: Reg(mi.vd),
                    mod0,
                    addr_mod,
                    imm10: mi.imm,
                };
                let op = lower(&load, self.arch, self.cfg.strict, dcfg);
                self.emit(Ev::MacroLoad { pc, op, load })?;
                self.macro_load = true;
                self.advance(addr_mod)?;
                let bc = rules::ByteCtx {
                    cfg: &self.ctx.macro_cfg,
                    arch: self.arch,
                    m: mi.m,
                    vd: mi.vd,
                    mod0,
                    seq: mi.seq,
                    misc: mi.misc,
                    addr: rel,
                };
                for i in 0..4 {
                    if rules::byte_src(mi.seq, i) != 0 {
                        let b = (mi.seq >> (8 * i)) as u8;
                        rules::forget(&mut self.state.pending, pc, Unit::SCHEDULED[i], b >> 3 & 7)
                            .map_err(|_| Halt::Unsupported)?;
                    }
                    let e = rules::plan_byte(&bc, i).map_err(|_| Halt::Unsupported)?;
                    if let Some(e) = e {
                        self.state.pending.push(Pending {
                            unit: e.unit,
                            what: e.what,
                            remaining: e.delay,
                            by_insns: e.by_insns,
                            pc,
                        });
                    }
                }
            }
            _ => {
                let op = lower(insn, self.arch, self.cfg.strict, dcfg);
                self.emit(Ev::Regular {
                    pc,
                    op,
                    insn: *insn,
                })?;
                if let Insn::Load { addr_mod, .. } | Insn::Store { addr_mod, .. } = *insn {
                    self.advance(addr_mod)?;
                }
                self.state.issue = issue_effects(insn, self.arch);
            }
        }
        Ok(())
    }

    /// `macro_tick`: one cycle's due scheduled instructions beside `regular`.
    fn tick(&mut self, regular: Option<&Insn>, pc: usize) -> Result<(), Halt> {
        let mut due = std::mem::take(&mut self.due);
        rules::take_due(&mut self.state.pending, &mut due);
        let res = self.tick_due(regular, pc, &due);
        self.due = due;
        res
    }

    fn tick_due(&mut self, regular: Option<&Insn>, pc: usize, due: &[Pending]) -> Result<(), Halt> {
        let (mad_now, swap_now) =
            rules::tick_checks(regular, pc, due, self.state.mad_last, self.state.swap_last)
                .map_err(|_| Halt::Unsupported)?;
        let mut evs: [Option<Ev>; 4] = [None; 4];
        let mut n = 0;
        // Registers each event reads (bit 16 = L16) and writes.
        let mut rw = [(0u32, 0u32); 4];
        for p in due {
            let ev = match p.what {
                Sched::Nop => continue,
                Sched::Store { vd, mod0, imm10 } => {
                    rw[n] = (1 << vd, 0);
                    Ev::Store {
                        pc: p.pc,
                        vd,
                        mod0,
                        rel: imm10,
                    }
                }
                Sched::Op { insn, din, dest } => {
                    // `sched_op` picks the scratch register and reports when there is none; the
                    // redirected form needs the same scratch to lower the renamed instruction.
                    let run =
                        scratch(&insn, din).map(|s| SchedRun::new(&insn, s, self.arch, self.cfg));
                    let op = run
                        .and_then(|r| redirectable(r.op))
                        .map_or(Op::Exec, |o| with_d(o, din));
                    rw[n] = (sched_reads(&insn, din) | 1 << (din & 15), 1 << dest);
                    Ev::Sched {
                        pc: p.pc,
                        op,
                        insn,
                        din,
                        dest,
                        run,
                    }
                }
            };
            // At most one entry per sub-unit is due in a cycle (the forget rule drops a second
            // one with the same remaining delay).
            if n == evs.len() {
                return Err(Halt::Unsupported);
            }
            evs[n] = Some(ev);
            n += 1;
        }
        // A cycle's scheduled instructions read the cycle-start registers: one after the other
        // is the same unless a later one reads what an earlier one writes.
        let hazard = (0..n).any(|i| (i + 1..n).any(|j| rw[i].1 & rw[j].0 != 0));
        if hazard {
            self.emit(Ev::Deferred { n })?;
        } else if n > 1 {
            self.emit(Ev::Group { n })?;
        }
        for ev in evs.into_iter().flatten() {
            self.emit(ev)?;
        }
        self.state.mad_last = mad_now;
        self.state.swap_last = swap_now;
        Ok(())
    }
}

/// The scratch register `sched_op` evaluates a scheduled op in (one the renamed instruction does
/// not otherwise read); `None` when there is none or when it depends on lane data (INDIRECT_VA:
/// the registers L7 selects), in which case the op runs through `sched_op`, which decides.
pub(super) fn scratch(insn: &Insn, din: u8) -> Option<u8> {
    if let Insn::Mad { mod1, .. } | Insn::Add { mod1, .. } | Insn::Mul { mod1, .. } = *insn {
        if mod1.contains(isa::MadMod::INDIRECT_VA) {
            return None;
        }
    }
    let reads = sched_reads(insn, din) | 1 << 7 | 1 << din;
    (0u8..8).find(|r| reads >> r & 1 == 0)
}

/// `op` if `Machine::fast_io` can redirect its result.
fn redirectable(op: Op) -> Option<Op> {
    matches!(
        op,
        Op::ExExp { .. } | Op::ExMan { .. } | Op::IAdd { .. } | Op::Shft { .. }
    )
    .then_some(op)
}

/// `op` with its "d" register replaced by `din` (the scheduled instruction's "d" operand).
fn with_d(mut op: Op, din: u8) -> Op {
    match &mut op {
        Op::ExExp { d, .. } | Op::ExMan { d, .. } | Op::IAdd { d, .. } | Op::Shft { d, .. } => {
            *d = din & 15
        }
        _ => {}
    }
    op
}

/// Bound on the programs and on the start states per program an [`ExpCache`] keeps (tiny in
/// unit tests, so that the random-program test also runs the eviction paths).
const MAX_PROGS: usize = if cfg!(test) { 2 } else { 8 };
const MAX_STATES: usize = if cfg!(test) { 3 } else { 32 };

/// Expansions of one program in one context, by start state.
#[derive(Debug, Clone)]
pub(super) struct ProgExpansions {
    insns: Vec<Insn>,
    ctx: Ctx,
    pub states: Vec<StateEntry>,
}

/// The expansion from one start state (`None`: unsupported) and the entry its end state starts.
#[derive(Debug, Clone)]
pub(super) struct StateEntry {
    pub start: SchedState,
    pub exp: Option<Expansion>,
    pub next: Option<usize>,
}

/// A machine's cache of expansions (bounded; see the module doc).
#[derive(Debug, Clone, Default)]
pub(in crate::tensix::sim) struct ExpCache {
    pub(super) progs: Vec<ProgExpansions>,
}

impl ExpCache {
    /// The index of `insns`' expansions in `ctx`, created if needed.
    pub(super) fn prog(&mut self, insns: &[Insn], ctx: Ctx) -> usize {
        if let Some(i) = self
            .progs
            .iter()
            .position(|p| p.ctx == ctx && p.insns == insns)
        {
            return i;
        }
        if self.progs.len() >= MAX_PROGS {
            self.progs.clear();
        }
        self.progs.push(ProgExpansions {
            insns: insns.to_vec(),
            ctx,
            states: Vec::new(),
        });
        self.progs.len() - 1
    }
}

impl ProgExpansions {
    /// The entry for start state `start`, expanded if new, and whether older entries were
    /// dropped to make room (which invalidates their indices).
    pub fn entry(&mut self, arch: Arch, cfg: &SimConfig, start: &SchedState) -> (usize, bool) {
        if let Some(i) = self.states.iter().position(|e| e.start == *start) {
            return (i, false);
        }
        let cleared = self.states.len() >= MAX_STATES;
        if cleared {
            self.states.clear();
        }
        let exp = Expander::new(arch, cfg, &self.ctx, start, None)
            .run(&self.insns)
            .ok();
        self.states.push(StateEntry {
            start: start.clone(),
            exp,
            next: None,
        });
        (self.states.len() - 1, cleared)
    }

    /// The entry that follows entry `k` (whose expansion exists), linked for the next time.
    pub fn next(&mut self, arch: Arch, cfg: &SimConfig, k: usize) -> usize {
        if let Some(n) = self.states[k].next {
            return n;
        }
        let Some(end) = self.states[k].exp.as_ref().map(|e| e.end.clone()) else {
            return k;
        };
        let (n, cleared) = self.entry(arch, cfg, &end);
        if !cleared {
            self.states[k].next = Some(n);
        }
        n
    }

    /// The engine state and counts when event `stop` of entry `k`'s run executes.
    pub fn replay_to(
        &self,
        arch: Arch,
        cfg: &SimConfig,
        k: usize,
        stop: usize,
    ) -> Option<(SchedState, Stats)> {
        let mut x = Expander::new(arch, cfg, &self.ctx, &self.states[k].start, Some(stop));
        for (pc, insn) in self.insns.iter().enumerate() {
            match x.insn(pc, insn) {
                Ok(()) => {}
                Err(Halt::Stopped) => return Some((x.state, x.stats)),
                Err(Halt::Unsupported) => return None,
            }
        }
        None
    }
}
