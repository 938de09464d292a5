//! Pre-decoded programs: a [`Program`] is lowered once into [`Op`]s (registers resolved,
//! immediates and mode decisions precomputed, the mode checks of `SimConfig::strict` and the
//! non-contractual/undefined mode checks done at lowering) and then issued without re-decoding.
//!
//! Invariants (what makes the fast path semantically identical to [`Machine::step`]):
//! * An op other than [`Op::Slow`] is only issued while the issue state is idle — no MAD result
//!   pending, no auto-stall owed, no Wormhole shuffle hazard, no REPLAY recording — in which
//!   state `step` does nothing but count one instruction and one cycle, run the SFPLOADMACRO
//!   engine's cycle hook (`macro_cycle` with no stall; only once the engine has been used) and
//!   then `execute`; otherwise the op goes through the full path. Scheduled macro instructions
//!   use the specialised handlers too (`macro_engine::SchedRun`, `Machine::fast_io`).
//! * Only instructions that exist on the arch and have no VD ≥ 12 (backdoor writes) are lowered;
//!   REPLAY and SFPLOADMACRO always take the full path.
//! * A specialised op is lowered only when every static check of its handler passes; a runtime
//!   check that fails (uninitialised register, CcDisabled) defers to `execute` before any state
//!   is changed, so errors and partial effects are exactly those of the handler.

use super::lanes::{shift, Lanes};
use super::{Machine, SimError, LANES};
use crate::tensix::dest::Dest;
use crate::tensix::formats::{DstConfig, Mod0};
use crate::tensix::isa::{Arch, Insn, Program};

/// One pre-decoded instruction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::tensix::sim) enum Op {
    /// The full issue path (REPLAY, SFPLOADMACRO, backdoor writes, not on this arch).
    Slow,
    /// Idle issue: count, then the generic handler.
    Exec,
    /// SFPLOADI into L0..L7: enabled lanes get `val | (old & keep)`.
    LoadI { d: u8, val: u32, keep: u32 },
    /// SFPEXEXP into L0..L7.
    ExExp {
        c: u8,
        d: u8,
        bias: u32,
        sgn: bool,
        comp: bool,
    },
    /// SFPEXMAN into L0..L7.
    ExMan { c: u8, d: u8, hidden: u32 },
    /// SFPIADD into L0..L7 (`m` = Mod1).
    IAdd { c: u8, d: u8, imm: u32, m: u8 },
    /// SFPSHFT into L0..L7.
    Shft {
        c: u8,
        d: u8,
        imm: i32,
        m: u8,
        use_vc: bool,
        arith: bool,
    },
    /// SFPSETCC with a register condition (Mod1 0/2/4/6, VD 0, immediate 0).
    SetCc { c: u8, m: u8 },
    /// SFPENCC in its TTSIM-accepted forms.
    EnCc { imm2: u8, m: u8 },
    /// SFPLOAD into L0..L7 with a resolved Mod0 that replaces the whole lane value.
    Load {
        d: u8,
        m: Mod0,
        addr_mod: u8,
        imm10: u16,
    },
    /// SFPSTORE with a resolved Mod0.
    Store {
        d: u8,
        m: Mod0,
        addr_mod: u8,
        imm10: u16,
    },
}

/// A lowered program with the instructions it was lowered from (the cache key).
#[derive(Debug, Clone, Default)]
pub(in crate::tensix::sim) struct Lowered {
    insns: Vec<Insn>,
    ops: Vec<Op>,
}

const BIT: Lanes = {
    let mut b = [0u32; LANES];
    let mut i = 0;
    while i < LANES {
        b[i] = 1 << i;
        i += 1;
    }
    b
};

/// Lane mask as all-ones / all-zeros words (branch-free selects).
#[inline(always)]
fn expand(en: u32) -> Lanes {
    let mut m = [0u32; LANES];
    for l in 0..LANES {
        m[l] = 0u32.wrapping_sub(u32::from(en & BIT[l] != 0));
    }
    m
}

/// Enabled lanes of `dst` take `r`.
#[inline(always)]
fn select(dst: &mut Lanes, m: &Lanes, r: &Lanes) {
    for l in 0..LANES {
        dst[l] = (r[l] & m[l]) | (dst[l] & !m[l]);
    }
}

/// Bit mask of the lanes where `f` holds (select + OR-reduce, which vectorises).
#[inline(always)]
fn pred_mask(v: &Lanes, f: impl Fn(u32) -> bool) -> u32 {
    let mut m = 0u32;
    for l in 0..LANES {
        m |= BIT[l] & 0u32.wrapping_sub(u32::from(f(v[l])));
    }
    m
}

/// Lanes whose value is negative as a signed integer.
#[inline(always)]
fn neg_mask(r: &Lanes) -> u32 {
    pred_mask(r, |v| (v as i32) < 0)
}

/// [`shift`] without a data-dependent branch (per-lane shift amounts are random in sweeps).
#[inline(always)]
fn shift_var(x: u32, amt: u32, arith: bool) -> u32 {
    let left = x << (amt & 31);
    let s = amt.wrapping_neg() & 31;
    let right = if arith {
        ((x as i32) >> s) as u32
    } else {
        x >> s
    };
    let neg = ((amt as i32) >> 31) as u32;
    (left & !neg) | (right & neg)
}

#[inline(always)]
fn map(src: &Lanes, f: impl Fn(u32) -> u32) -> Lanes {
    let mut r = [0u32; LANES];
    for l in 0..LANES {
        r[l] = f(src[l]);
    }
    r
}

/// Lowers one instruction (see the module invariants).
pub(in crate::tensix::sim) fn lower(insn: &Insn, arch: Arch, strict: bool, dcfg: &DstConfig) -> Op {
    use Insn as I;
    if !insn.info().available(arch)
        || insn.vd_field().is_some_and(|v| v >= 12)
        || matches!(insn, I::Replay { .. } | I::LoadMacro { .. })
    {
        return Op::Slow;
    }
    match *insn {
        I::LoadI { vd, mod0, imm16 } if vd.0 < 8 => {
            let imm = u32::from(imm16);
            let (val, keep) = match mod0.0 {
                0 => (imm << 16, 0),
                1 => {
                    let s = imm & 0x8000;
                    let em = imm & 0x7FFF;
                    ((s << 16) | ((em + (112 << 10)) << 13), 0)
                }
                2 => (imm, 0),
                4 => (imm16 as i16 as i32 as u32, 0),
                8 => (imm << 16, 0xFFFF),
                10 => (imm, 0xFFFF_0000),
                _ => return Op::Exec,
            };
            Op::LoadI { d: vd.0, val, keep }
        }
        I::ExExp { vc, vd, mod1 }
            if vd.0 < 8 && mod1.0 & 4 == 0 && (!strict || matches!(mod1.0, 0 | 1 | 2 | 10)) =>
        {
            Op::ExExp {
                c: vc.0 & 15,
                d: vd.0,
                bias: if mod1.0 & 1 != 0 { 0 } else { 127 },
                sgn: mod1.0 & 2 != 0,
                comp: mod1.0 & 8 != 0,
            }
        }
        I::ExMan { vc, vd, mod1 } if vd.0 < 8 && mod1.0 <= 1 => Op::ExMan {
            c: vc.0 & 15,
            d: vd.0,
            hidden: if mod1.0 & 1 != 0 { 0 } else { 0x80_0000 },
        },
        I::IAdd {
            imm12,
            vc,
            vd,
            mod1,
        } if vd.0 < 8 && (!strict || (mod1.0 <= 10 && mod1.0 & 3 != 3)) => Op::IAdd {
            c: vc.0 & 15,
            d: vd.0,
            imm: i32::from(imm12) as u32,
            m: mod1.0,
        },
        I::Shft {
            imm12,
            vc,
            vd,
            mod1,
        } => {
            let m = mod1.0;
            let nc_ok = match arch {
                Arch::Wh => m <= 1,
                Arch::Bh => m <= 7 && m != 4 && m != 6,
            };
            let strict_ok = !strict || m & 1 != 0 || imm12 == 0;
            if vd.0 < 8 && nc_ok && strict_ok {
                Op::Shft {
                    c: vc.0 & 15,
                    d: vd.0,
                    imm: i32::from(imm12),
                    m,
                    use_vc: arch == Arch::Bh && m & 4 != 0,
                    arith: arch == Arch::Bh && m & 2 != 0,
                }
            } else {
                Op::Exec
            }
        }
        I::SetCc { imm1, vc, vd, mod1 }
            if matches!(mod1.0, 0 | 2 | 4 | 6) && vd.0 == 0 && imm1 == 0 =>
        {
            Op::SetCc {
                c: vc.0 & 15,
                m: mod1.0,
            }
        }
        I::EnCc { imm2, vd, mod1 } if vd.0 == 0 && (mod1.0 == 10 || (mod1.0 == 0 && imm2 == 0)) => {
            Op::EnCc { imm2, m: mod1.0 }
        }
        I::Load {
            vd,
            mod0,
            addr_mod,
            imm10,
        } if vd.0 < 8 && (!strict || mod0.ttsim_load()) => {
            let m = mod0.resolve(dcfg);
            if matches!(m, Mod0::Int32All | Mod0::Lo16Only | Mod0::Hi16Only) {
                Op::Exec
            } else {
                Op::Load {
                    d: vd.0,
                    m,
                    addr_mod,
                    imm10,
                }
            }
        }
        I::Store {
            vd,
            mod0,
            addr_mod,
            imm10,
        } if vd.0 < 12 && (!strict || mod0.ttsim_store() || mod0 == Mod0::Fp16) => {
            let m = mod0.resolve(dcfg);
            if m == Mod0::Int32All {
                Op::Exec
            } else {
                Op::Store {
                    d: vd.0,
                    m,
                    addr_mod,
                    imm10,
                }
            }
        }
        _ => Op::Exec,
    }
}

impl Machine {
    /// Whether `step` would only count the next instruction before executing it.
    #[inline(always)]
    fn issue_idle(&self) -> bool {
        self.mad_pending == 0
            && !self.busy_next
            && self.wh_shuffle.is_none()
            && self.recording.is_none()
    }

    /// `Some` when the lanes in `need` of LReg `r` are defined.
    #[inline(always)]
    fn defined(&self, r: u8, need: u32) -> bool {
        need & !self.init[usize::from(r & 15)] == 0
    }

    /// The lowered form of `prog`, taken out of the machine's cache (re-lowered if the cache
    /// holds another program); hand it back with [`Machine::put_lowered`].
    pub(in crate::tensix::sim) fn take_lowered(&mut self, prog: &Program) -> Lowered {
        let mut low = std::mem::take(&mut self.lowered);
        if low.insns != prog.insns {
            low.insns.clone_from(&prog.insns);
            low.ops = prog
                .insns
                .iter()
                .map(|i| lower(i, self.arch, self.cfg.strict, &self.cfg.dst))
                .collect();
        }
        low
    }

    /// Returns a lowered program to the cache.
    pub(in crate::tensix::sim) fn put_lowered(&mut self, low: Lowered) {
        self.lowered = low;
    }

    /// Issues a lowered program once from its first instruction.
    pub(in crate::tensix::sim) fn issue_ops(
        &mut self,
        low: &Lowered,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        self.issue_rows(low, dst, 1, false)
    }

    /// Issues a lowered program `rows` times, establishing the D7 kernel state before each run
    /// when `kernel_state`; stops at the first error. On x86-64 CPUs with AVX2 the loop (with
    /// the specialised handlers inlined into it) runs as code compiled for AVX2 — the same
    /// integer lane loops, vectorised 8 lanes wide; the generic handlers are shared.
    pub(in crate::tensix::sim) fn issue_rows(
        &mut self,
        low: &Lowered,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            return unsafe { self.issue_rows_avx2(low, dst, rows, kernel_state) };
        }
        self.issue_rows_body(low, dst, rows, kernel_state)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn issue_rows_avx2(
        &mut self,
        low: &Lowered,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        self.issue_rows_body(low, dst, rows, kernel_state)
    }

    #[inline(always)]
    fn issue_rows_body(
        &mut self,
        low: &Lowered,
        dst: &mut Dest,
        rows: usize,
        kernel_state: bool,
    ) -> Result<(), SimError> {
        for _ in 0..rows {
            if kernel_state {
                self.enter_kernel_state();
            }
            self.issue_once(low, dst)?;
        }
        Ok(())
    }

    /// One run of a lowered program.
    #[inline(always)]
    fn issue_once(&mut self, low: &Lowered, dst: &mut Dest) -> Result<(), SimError> {
        for (pc, (insn, op)) in low.insns.iter().zip(&low.ops).enumerate() {
            if *op == Op::Slow || !self.issue_idle() {
                self.issue(pc, insn, dst)?;
                continue;
            }
            self.stats.instructions += 1;
            self.stats.cycles += 1;
            if self.macro_seen {
                // `step`'s macro hook (no stall owed in the idle state).
                self.macro_cycle(insn, pc, 0, dst)?;
            }
            self.exec_op(op, insn, pc, dst)?;
        }
        Ok(())
    }

    /// Executes a regular instruction through its lowered form `op` (not `Op::Slow`), after the
    /// issue-level work: exactly what `execute(insn)` does (see the module invariants).
    #[inline(always)]
    pub(in crate::tensix::sim) fn exec_op(
        &mut self,
        op: &Op,
        insn: &Insn,
        pc: usize,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        match *op {
            Op::Load {
                d,
                m,
                addr_mod,
                imm10,
            } => self.fast_load(d, m, addr_mod, imm10, pc, dst),
            Op::Store {
                d,
                m,
                addr_mod,
                imm10,
            } => {
                let en = self.lane_enabled();
                if !self.defined(d, en) {
                    return self.execute(insn, pc, dst);
                }
                let addr = self.dst_addr(imm10);
                // Errors (odd address, unresolved Mod0) arise before any write.
                dst.sfpu_store_row(addr, en, m, self.arch, &self.lreg[usize::from(d)])
                    .map_err(|source| SimError::Dest { pc, source })?;
                self.addr_mod(addr_mod, pc)
            }
            _ => {
                if self.fast(op) {
                    Ok(())
                } else {
                    self.execute(insn, pc, dst)
                }
            }
        }
    }

    /// SFPLOAD as its generic handler does it, with the mode checks done at lowering.
    #[inline(always)]
    fn fast_load(
        &mut self,
        d: u8,
        m: Mod0,
        addr_mod: u8,
        imm10: u16,
        pc: usize,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        let en = self.lane_enabled();
        let arch = self.arch;
        let addr = self.dst_addr(imm10);
        let i = usize::from(d);
        // On error replay the per-lane path so that the lanes before the failing one are
        // updated exactly as the generic handler does.
        if let Err(source) = dst.sfpu_load_row(addr, en, m, arch, &mut self.lreg[i]) {
            for l in (0..LANES).filter(|&l| en >> l & 1 != 0) {
                match dst.sfpu_load(addr, l, m, self.lreg[i][l], arch) {
                    Ok(v) => self.lreg[i][l] = v,
                    Err(_) => break,
                }
            }
            return Err(SimError::Dest { pc, source });
        }
        self.init[i] |= en;
        self.addr_mod(addr_mod, pc)
    }

    /// Write rule for L0..L7 (index `i`): the enabled lanes take `r` and become defined.
    #[inline(always)]
    fn write_lanes(&mut self, i: usize, en: u32, r: &Lanes) {
        if en == !0 {
            // All lanes enabled (the common case after SFPENCC): a plain store.
            self.lreg[i] = *r;
        } else {
            select(&mut self.lreg[i], &expand(en), r);
        }
        self.init[i] |= en;
    }

    /// Executes a specialised op; `false` = not done (generic op, or a runtime check failed
    /// before any state changed), run the generic handler.
    #[inline(always)]
    pub(in crate::tensix::sim) fn fast(&mut self, op: &Op) -> bool {
        self.fast_io(op, None)
    }

    /// [`Machine::fast`] with the result redirected: with `Some(out)` the op reads its "d"
    /// operand from its `d` register as usual but writes its result to `out` (0..=7 or 16),
    /// setting lane flags only when `out` < 8 — a macro-scheduled instruction's §6.2 operand
    /// substitution (`sched_op` evaluates the same through a scratch register). Only the ops
    /// whose result is a function of their sources (not LoadI's keep-old form) redirect;
    /// `false` as for `fast`.
    #[inline(always)]
    pub(in crate::tensix::sim) fn fast_io(&mut self, op: &Op, redirect: Option<u8>) -> bool {
        let en = self.lane_enabled();
        // Output register and whether flag writes are kept.
        let out = |d: u8| usize::from(redirect.unwrap_or(d));
        let flags = redirect.is_none_or(|o| o < 8);
        match *op {
            Op::Slow | Op::Exec | Op::Load { .. } | Op::Store { .. } => false,
            Op::LoadI { .. } | Op::SetCc { .. } | Op::EnCc { .. } if redirect.is_some() => false,
            Op::LoadI { d, val, keep } => {
                if keep != 0 && !self.defined(d, en) {
                    return false;
                }
                let i = usize::from(d);
                let r = map(&self.lreg[i], |old| val | (old & keep));
                self.write_lanes(i, en, &r);
                true
            }
            Op::ExExp {
                c,
                d,
                bias,
                sgn,
                comp,
            } => {
                if !self.defined(c, en) {
                    return false;
                }
                let r = map(&self.lreg[usize::from(c)], |c| {
                    ((c >> 23) & 255).wrapping_sub(bias)
                });
                let mut f = self.cc;
                if sgn {
                    f = neg_mask(&r);
                }
                if comp {
                    f = !f;
                }
                if flags {
                    self.set_flags(en, f);
                }
                self.write_lanes(out(d), en, &r);
                true
            }
            Op::ExMan { c, d, hidden } => {
                if !self.defined(c, en) {
                    return false;
                }
                let r = map(&self.lreg[usize::from(c)], |c| (c & 0x7F_FFFF) | hidden);
                self.write_lanes(out(d), en, &r);
                true
            }
            Op::IAdd { c, d, imm, m } => {
                if !self.defined(c, en) || (m & 1 == 0 && !self.defined(d, en)) {
                    return false;
                }
                let i = usize::from(d);
                let cv = &self.lreg[usize::from(c)];
                let r = if m & 1 != 0 {
                    map(cv, |c| c.wrapping_add(imm))
                } else {
                    let dv = &self.lreg[i];
                    let mut r = [0u32; LANES];
                    if m & 2 != 0 {
                        for l in 0..LANES {
                            r[l] = cv[l].wrapping_sub(dv[l]);
                        }
                    } else {
                        for l in 0..LANES {
                            r[l] = cv[l].wrapping_add(dv[l]);
                        }
                    }
                    r
                };
                let f = if m & 8 != 0 && m & 4 != 0 {
                    !self.cc // ISA: flags left as-is, then inverted (not in TTSIM)
                } else if m & 8 != 0 {
                    !neg_mask(&r)
                } else if m & 4 == 0 {
                    neg_mask(&r)
                } else {
                    self.cc
                };
                if flags {
                    self.set_flags(en, f);
                }
                self.write_lanes(out(d), en, &r);
                true
            }
            Op::Shft {
                c,
                d,
                imm,
                m,
                use_vc,
                arith,
            } => {
                let need_c = m & 1 == 0 || use_vc;
                if (need_c && !self.defined(c, en)) || (!use_vc && !self.defined(d, en)) {
                    return false;
                }
                let i = usize::from(d);
                let cv = &self.lreg[usize::from(c)];
                let dv = &self.lreg[i];
                let mut r = [0u32; LANES];
                if m & 1 != 0 {
                    let x = if use_vc { cv } else { dv };
                    for l in 0..LANES {
                        r[l] = shift(x[l], imm, arith);
                    }
                } else {
                    let x = if use_vc { cv } else { dv };
                    // `arith` is hoisted out of the lane loop.
                    if arith {
                        for l in 0..LANES {
                            r[l] = shift_var(x[l], cv[l], true);
                        }
                    } else {
                        for l in 0..LANES {
                            r[l] = shift_var(x[l], cv[l], false);
                        }
                    }
                }
                self.write_lanes(out(d), en, &r);
                true
            }
            Op::SetCc { c, m } => {
                if (self.cfg.strict && self.cc_en != !0) || !self.defined(c, en) {
                    return false;
                }
                let cv = &self.lreg[usize::from(c)];
                let cond = match m {
                    0 => pred_mask(cv, |v| (v as i32) < 0),
                    2 => pred_mask(cv, |v| v != 0),
                    4 => pred_mask(cv, |v| (v as i32) >= 0),
                    _ => pred_mask(cv, |v| v == 0),
                };
                self.set_flags(en, cond & self.cc_en);
                true
            }
            Op::EnCc { imm2, m } => {
                if m & 2 != 0 {
                    self.cc_en = if imm2 & 1 != 0 { !0 } else { 0 };
                } else if m & 1 != 0 {
                    self.cc_en = !self.cc_en;
                }
                self.cc = if m & 8 != 0 && imm2 & 2 == 0 { 0 } else { !0 };
                true
            }
        }
    }
}

#[cfg(test)]
mod tests {
    //! The pre-decoded path against the full issue path (`Machine::issue` per instruction) on
    //! random programs of the specialised instructions with random (also invalid) modes, random
    //! defined registers, both archs and both strictness settings.

    use super::super::super::{Machine, SimConfig};
    use crate::tensix::dest::{Dest, DestWidth};
    use crate::tensix::formats::Mod0;
    use crate::tensix::isa::{self, Arch, Insn, Program, Reg};

    fn reg(rng: &mut fastrand::Rng) -> Reg {
        // Mostly the writable registers, sometimes the constants/special ones.
        Reg(if rng.u8(..4) == 0 {
            rng.u8(..16)
        } else {
            rng.u8(..8)
        })
    }

    fn insn(rng: &mut fastrand::Rng) -> Insn {
        let (vc, vd) = (reg(rng), reg(rng));
        let small = |rng: &mut fastrand::Rng, n: u8| if rng.bool() { rng.u8(..n) } else { 0 };
        match rng.u8(..11) {
            0 => Insn::LoadI {
                vd,
                mod0: isa::LoadIMod(rng.u8(..12)),
                imm16: rng.u16(..),
            },
            1 => Insn::ExExp {
                vc,
                vd,
                mod1: isa::ExExpMod(rng.u8(..16)),
            },
            2 => Insn::ExMan {
                vc,
                vd,
                mod1: isa::ExManMod(rng.u8(..3)),
            },
            3 => Insn::IAdd {
                imm12: rng.i16(-2048..2048),
                vc,
                vd,
                mod1: isa::IAddMod(rng.u8(..16)),
            },
            4 => Insn::Shft {
                imm12: if rng.bool() { rng.i16(-40..40) } else { 0 },
                vc,
                vd,
                mod1: isa::ShftMod(rng.u8(..8)),
            },
            5 => Insn::SetCc {
                imm1: small(rng, 2),
                vc,
                vd: Reg(small(rng, 2)),
                mod1: isa::SetCcMod(rng.u8(..16)),
            },
            6 => Insn::EnCc {
                imm2: rng.u8(..4),
                vd: Reg(small(rng, 2)),
                mod1: isa::EnCcMod(if rng.bool() { 10 } else { rng.u8(..16) }),
            },
            7 => Insn::Not { vc, vd },
            8 | 9 => {
                let mod0 = Mod0::from_bits(rng.u8(..16)).unwrap_or(Mod0::Fp32);
                let addr_mod = rng.u8(..8);
                let imm10 = rng.u16(..8);
                if rng.bool() {
                    Insn::Load {
                        vd,
                        mod0,
                        addr_mod,
                        imm10,
                    }
                } else {
                    Insn::Store {
                        vd,
                        mod0,
                        addr_mod,
                        imm10,
                    }
                }
            }
            _ => Insn::Nop,
        }
    }

    fn state(m: &Machine) -> String {
        format!(
            "{:?} {:?} {:x} {:x} {} {:?}",
            m.lreg, m.init, m.cc, m.cc_en, m.sp, m.stats
        )
    }

    #[test]
    fn lowered_issue_equals_full_issue() {
        let mut rng = fastrand::Rng::with_seed(11);
        for case in 0..4000 {
            let arch = if case % 2 == 0 { Arch::Bh } else { Arch::Wh };
            let cfg = SimConfig {
                strict: case % 4 < 2,
                ..SimConfig::default()
            };
            let mut m = Machine::with_config(arch, cfg);
            for r in 0..8 {
                if rng.u8(..3) != 0 {
                    m.set_lreg(r, crate::tensix::sim::test_support::biased_lanes(&mut rng));
                }
            }
            if rng.bool() {
                m.enter_kernel_state();
            }
            m.cc = rng.u32(..);
            let prog = Program {
                insns: (0..rng.usize(1..12)).map(|_| insn(&mut rng)).collect(),
                lines: Vec::new(),
            };
            let mut slow = m.clone();
            let mut dst = Dest::new();
            if rng.bool() {
                let vals: Vec<u32> = (0..8 * 32).map(|_| rng.u32(..)).collect();
                let _ = dst.write_rows(&vals, Mod0::Int32, DestWidth::W32, arch);
            }
            let mut dst2 = dst.clone();
            let fast_res = m.run(&prog, &mut dst).map(|_| ());
            let mut slow_res = Ok(());
            for (pc, i) in prog.insns.iter().enumerate() {
                slow_res = slow.issue(pc, i, &mut dst2);
                if slow_res.is_err() {
                    break;
                }
            }
            assert_eq!(fast_res, slow_res, "case {case}: {:?}", prog.insns);
            assert_eq!(state(&m), state(&slow), "case {case}: {:?}", prog.insns);
            assert_eq!(m.rwc_dst(), slow.rwc_dst(), "case {case}");
            let read = |d: &Dest| d.read_rows(8 * 32, Mod0::Int32, DestWidth::W32, arch);
            assert_eq!(read(&dst), read(&dst2), "case {case}: {:?}", prog.insns);
        }
    }
}
