//! Execution of expanded macro runs ([`expand`](super::expand)): regular instructions through
//! their pre-decoded handlers, scheduled instructions through the same handlers with their
//! result redirected (`Machine::fast_io`) or, for instructions without one, through the general
//! `sched_op`; the issue/queue bookkeeping is the expansion's and is only written back to the
//! machine at the end of a call or when an error stops it.
//!
//! Invariants (what makes this path identical to the step-by-step engine):
//! * Events run in the order the step-by-step engine performs the same work, with the same
//!   handlers, so lane-data errors arise at the same point with the same partial effects.
//! * After an error the machine holds the engine state, counts and issue state the
//!   step-by-step engine would hold (replayed from the expansion up to the failing event).
//! * A run the expansion does not support continues on the step-by-step engine from the state
//!   reached so far.

use super::expand::{Ctx, Ev, ExpCache, SchedState};
use super::{Pending, Sched};
use crate::tensix::dest::Dest;
use crate::tensix::isa::{Insn, Program};
use crate::tensix::sim::exec::issue::IssueState;
use crate::tensix::sim::{Machine, SimError, Stats, LANES};

impl Machine {
    /// Whether `prog` runs through an expansion: the fast path is on and the program issues a
    /// SFPLOADMACRO or scheduled instructions are still in flight.
    pub(in crate::tensix::sim) fn wants_expansion(&self, prog: &Program) -> bool {
        self.macro_fast
            && self.recording.is_none()
            && (!self.macro_state.pending.is_empty()
                || self.macro_state.mad_last != 0
                || self.macro_state.swap_last
                || prog
                    .insns
                    .iter()
                    .any(|i| matches!(i, Insn::LoadMacro { .. })))
    }

    /// The engine state, store addresses relative to the current Dst address base.
    fn sched_state(&self) -> SchedState {
        let base = self.dst_addr(0);
        let mut pending = self.macro_state.pending.clone();
        for p in &mut pending {
            if let Sched::Store { imm10, .. } = &mut p.what {
                *imm10 = imm10.wrapping_sub(base) & 0x3FF;
            }
        }
        SchedState {
            issue: IssueState {
                mad_pending: self.mad_pending,
                busy_next: self.busy_next,
                wh_shuffle: self.wh_shuffle,
            },
            pending,
            mad_last: self.macro_state.mad_last,
            swap_last: self.macro_state.swap_last,
            odd: base & 1 != 0,
        }
    }

    /// Writes the queue part of `s` back (store addresses relative to `base`).
    fn set_queue(&mut self, s: &SchedState, base: u16) {
        self.macro_state.pending.clear();
        self.macro_state
            .pending
            .extend(s.pending.iter().map(|p| Pending {
                what: match p.what {
                    Sched::Store { vd, mod0, imm10 } => Sched::Store {
                        vd,
                        mod0,
                        imm10: imm10.wrapping_add(base) & 0x3FF,
                    },
                    w => w,
                },
                ..*p
            }));
        self.macro_state.mad_last = s.mad_last;
        self.macro_state.swap_last = s.swap_last;
    }

    fn set_issue(&mut self, s: &IssueState) {
        self.mad_pending = s.mad_pending;
        self.busy_next = s.busy_next;
        self.wh_shuffle = s.wh_shuffle;
    }

    /// Runs `prog` `rows` times (the D7 kernel state before each when `kernel_state`) through
    /// its expansions (see the module doc).
    pub(in crate::tensix::sim) fn run_expanded(
        &mut self,
        prog: &Program,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        let mut cache = std::mem::take(&mut self.exp_cache);
        let res = self.run_expanded_in(&mut cache, prog, dst, rows, kernel_state);
        self.exp_cache = cache;
        res
    }

    fn run_expanded_in(
        &mut self,
        cache: &mut ExpCache,
        prog: &Program,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        if rows == 0 {
            return Ok(());
        }
        let ctx = Ctx {
            macro_cfg: self.macro_cfg,
            addr_mods: self.addr_mods,
            lane_config: self.lane_config,
        };
        let (arch, cfg) = (self.arch, self.cfg);
        let pi = cache.prog(&prog.insns, ctx);
        let pe = &mut cache.progs[pi];
        let (mut k, _) = pe.entry(arch, &cfg, &self.sched_state());
        for row in 0..rows {
            let Some(exp) = pe.states[k].exp.as_ref() else {
                // Not expandable from here: the step-by-step engine from the state reached.
                return self.run_stepwise(prog, dst, rows - row, kernel_state);
            };
            if kernel_state {
                self.enter_kernel_state();
            }
            let base = self.dst_addr(0);
            if let Err((e, at)) = self.exec_events(&exp.events, base, dst) {
                let (st, stats) = pe.replay_to(arch, &cfg, k, at).unwrap_or_default();
                self.set_queue(&st, base);
                self.add_stats(stats);
                if !matches!(exp.events[at], Ev::Regular { .. } | Ev::MacroLoad { .. }) {
                    // A scheduled instruction failed: `step` had cleared the issue state.
                    self.set_issue(&IssueState::default());
                }
                self.macro_seen |= exp.events[..=at]
                    .iter()
                    .any(|e| matches!(e, Ev::MacroLoad { .. }));
                return Err(e);
            }
            self.add_stats(exp.stats);
            self.macro_seen |= exp.macro_load;
            debug_assert_eq!(
                (self.mad_pending, self.busy_next, self.wh_shuffle),
                (
                    exp.end.issue.mad_pending,
                    exp.end.issue.busy_next,
                    exp.end.issue.wh_shuffle
                ),
                "issue_effects disagrees with the handlers"
            );
            let end_base = self.dst_addr(0);
            let end = &exp.end;
            if row + 1 == rows {
                self.set_queue(end, end_base);
                self.set_issue(&end.issue);
                return Ok(());
            }
            let n = pe.next(arch, &cfg, k);
            let next = &pe.states[n];
            if next.exp.is_none() {
                // The next run falls back: hand it the state so far (the start state of entry
                // `n` is this run's end state; `next` may have dropped entry `k`).
                let start = next.start.clone();
                self.set_queue(&start, end_base);
                self.set_issue(&start.issue);
            }
            k = n;
        }
        Ok(())
    }

    fn add_stats(&mut self, s: Stats) {
        self.stats.instructions += s.instructions;
        self.stats.cycles += s.cycles;
        self.stats.stalls += s.stalls;
    }

    /// The step-by-step engine for `rows` runs of `prog`.
    fn run_stepwise(
        &mut self,
        prog: &Program,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        let low = self.take_lowered(prog);
        let res = self.issue_rows(&low, dst, rows, kernel_state);
        self.put_lowered(low);
        res
    }

    /// Executes one expanded run; on error, the error and the index of the failing event. As
    /// `issue_rows`, AVX2 code where the CPU has it.
    fn exec_events(
        &mut self,
        events: &[Ev],
        base: u16,
        dst: &mut Dest,
    ) -> Result<(), (SimError, usize)> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { self.exec_events_avx2(events, base, dst) };
        }
        self.exec_events_body(events, base, dst)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn exec_events_avx2(
        &mut self,
        events: &[Ev],
        base: u16,
        dst: &mut Dest,
    ) -> Result<(), (SimError, usize)> {
        self.exec_events_body(events, base, dst)
    }

    #[inline(always)]
    fn exec_events_body(
        &mut self,
        events: &[Ev],
        base: u16,
        dst: &mut Dest,
    ) -> Result<(), (SimError, usize)> {
        let mut i = 0;
        while i < events.len() {
            match events[i] {
                Ev::Regular { pc, op, ref insn } => {
                    self.mad_pending = 0;
                    self.busy_next = false;
                    self.wh_shuffle = None;
                    self.exec_op(&op, insn, pc, dst).map_err(|e| (e, i))?;
                }
                Ev::MacroLoad { pc, op, ref load } => {
                    self.mad_pending = 0;
                    self.busy_next = false;
                    self.wh_shuffle = None;
                    self.exec_op(&op, load, pc, dst).map_err(|e| (e, i))?;
                }
                Ev::Deferred { n } => {
                    self.exec_deferred(&events[i + 1..i + 1 + n], i + 1, base, dst)?;
                    i += n;
                }
                Ev::Group { n } => {
                    self.exec_group(&events[i + 1..i + 1 + n], i + 1, base, dst)?;
                    i += n;
                }
                ref ev => self.exec_sched(ev, base, dst).map_err(|e| (e, i))?,
            }
            i += 1;
        }
        Ok(())
    }

    /// A scheduled store or instruction, its result written at once.
    #[inline(always)]
    fn exec_sched(&mut self, ev: &Ev, base: u16, dst: &mut Dest) -> Result<(), SimError> {
        match *ev {
            Ev::Store { pc, vd, mod0, rel } => {
                self.sched_store(pc, vd, mod0, rel.wrapping_add(base) & 0x3FF, dst)
            }
            Ev::Sched {
                pc,
                op,
                ref insn,
                din,
                dest,
                ref run,
            } => {
                let en = self.lane_enabled();
                if self.fast_io(&op, Some(dest)) {
                    if dest == 16 {
                        self.macro_state.l16_init |= en;
                    }
                } else {
                    match run {
                        Some(run) => self.sched_op_in(pc, run, din, dest, dst, None)?,
                        None => self.sched_op(pc, insn, din, dest, dst, None)?,
                    }
                }
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// One cycle's scheduled events one after the other; if one fails, the registers the
    /// earlier ones wrote get their cycle-start values back (`first` = index of `evs[0]`).
    #[inline(always)]
    fn exec_group(
        &mut self,
        evs: &[Ev],
        first: usize,
        base: u16,
        dst: &mut Dest,
    ) -> Result<(), (SimError, usize)> {
        // (register, values, defined lanes) before each earlier write; L16's macro-written
        // lanes before the first.
        let mut undo: [(usize, [u32; LANES], u32); 3] = [(0, [0; LANES], 0); 3];
        let mut saved = 0;
        let l16 = self.macro_state.l16_init;
        for (j, ev) in evs.iter().enumerate() {
            if let Ev::Sched { dest, .. } = *ev {
                if j + 1 < evs.len() && saved < undo.len() {
                    let r = usize::from(dest);
                    undo[saved] = (r, self.lreg[r], self.init[r]);
                    saved += 1;
                }
            }
            if let Err(e) = self.exec_sched(ev, base, dst) {
                for &(r, ref vals, init) in undo[..saved].iter().rev() {
                    self.lreg[r] = *vals;
                    self.init[r] = init;
                }
                self.macro_state.l16_init = l16;
                return Err((e, first + j));
            }
        }
        Ok(())
    }

    /// One cycle's scheduled events on the cycle-start registers (writes applied after the
    /// last), as `macro_tick_due` runs them; `first` = index of `evs[0]` in its run.
    fn exec_deferred(
        &mut self,
        evs: &[Ev],
        first: usize,
        base: u16,
        dst: &mut Dest,
    ) -> Result<(), (SimError, usize)> {
        let mut writes = std::mem::take(&mut self.macro_state.writes_buf);
        writes.clear();
        let mut res = Ok(());
        for (j, ev) in evs.iter().enumerate() {
            res = match *ev {
                Ev::Store { pc, vd, mod0, rel } => {
                    self.sched_store(pc, vd, mod0, rel.wrapping_add(base) & 0x3FF, dst)
                }
                Ev::Sched {
                    pc,
                    ref insn,
                    din,
                    dest,
                    ref run,
                    ..
                } => match run {
                    Some(run) => self.sched_op_in(pc, run, din, dest, dst, Some(&mut writes)),
                    None => self.sched_op(pc, insn, din, dest, dst, Some(&mut writes)),
                },
                _ => Ok(()),
            }
            .map_err(|e| (e, first + j));
            if res.is_err() {
                break;
            }
        }
        if res.is_ok() {
            for &(r, ref vals, en) in &writes {
                self.apply_sched_write(r, vals, en);
            }
        }
        writes.clear();
        self.macro_state.writes_buf = writes;
        res
    }

    /// A scheduled instruction's result: `vals` into the enabled lanes `en` of register `r`.
    pub(super) fn apply_sched_write(&mut self, r: usize, vals: &[u32; LANES], en: u32) {
        if en == !0 {
            self.lreg[r] = *vals;
        } else {
            for (l, v) in vals.iter().enumerate() {
                if en >> l & 1 != 0 {
                    self.lreg[r][l] = *v;
                }
            }
        }
        self.init[r] |= en;
        if r == 16 {
            self.macro_state.l16_init |= en;
        }
    }
}
