//! Per-instruction semantics (tensix.md §1.2, §2, §2.1; ISA-WH/BH pages; TTSIM where they differ,
//! D1/D3/D4) and the issue-level checks (backdoor writes, MAD hazards, auto-stalls).
//!
//! Invariant: every handler validates its mode first (returning `Unmodelled` / `Undefined` /
//! `NonContractual` errors), then runs one loop over the 32 lanes, and writes results only to
//! enabled lanes of writable registers.

use super::fma::fma;
use super::{Machine, SimError, LANES, LC_DISABLE_BACKDOOR};
use crate::tensix::dest::Dest;
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{self, Arch, Insn, Reg};

mod fast;
pub(super) mod issue;
mod lanes;

pub(super) use fast::{lower, Lowered, Op};

pub(super) use lanes::prng_step;
use lanes::{map2, mask2, reads, reg_bit, shift, Lanes};

/// Register read sets `(actual, seen by the BH stall logic)` (for the macro engine's checks).
pub(super) fn insn_reads(insn: &Insn) -> (u32, u32) {
    reads(insn)
}

impl Machine {
    fn unmodelled(&self, pc: usize, insn: &Insn, what: impl Into<String>) -> SimError {
        SimError::Unmodelled {
            pc,
            mnemonic: insn.info().mnemonic,
            what: what.into(),
        }
    }

    /// `Unmodelled` unless `ok` (only in strict mode).
    #[inline(always)]
    fn strict_ok(&self, ok: bool, pc: usize, insn: &Insn, what: &str) -> Result<(), SimError> {
        if self.cfg.strict && !ok {
            Err(self.unmodelled(pc, insn, format!("{what} (TTSIM rejects it; D1)")))
        } else {
            Ok(())
        }
    }

    #[inline(always)]
    fn nc(&self, ok: bool, pc: usize, insn: &Insn, what: &'static str) -> Result<(), SimError> {
        if ok {
            Ok(())
        } else {
            Err(SimError::NonContractual {
                pc,
                mnemonic: insn.info().mnemonic,
                what,
            })
        }
    }

    #[inline(always)]
    fn ub(&self, ok: bool, pc: usize, insn: &Insn, what: &'static str) -> Result<(), SimError> {
        if ok {
            Ok(())
        } else {
            Err(SimError::Undefined {
                pc,
                mnemonic: insn.info().mnemonic,
                what,
            })
        }
    }

    /// A copy of LReg `r`, checking that the lanes in `need` are defined.
    #[inline(always)]
    fn src(&self, r: Reg, need: u32, pc: usize) -> Result<Lanes, SimError> {
        let i = usize::from(r.0 & 15);
        let undefined = need & !self.init[i];
        if undefined != 0 {
            return Err(SimError::Uninitialised {
                pc,
                reg: i,
                lanes: undefined,
            });
        }
        Ok(self.lreg[i])
    }

    /// Write rule (§1.1): L0..L7 take the enabled lanes; L8..L11 drop the write (strict mode
    /// reports it, TTSIM rejects it); L12..L15 never get here (backdoor handled at issue).
    #[inline(always)]
    fn dst_write(
        &mut self,
        vd: Reg,
        en: u32,
        out: &Lanes,
        pc: usize,
        insn: &Insn,
    ) -> Result<(), SimError> {
        let i = usize::from(vd.0 & 15);
        if i < 8 {
            self.lreg[i] = *out;
            self.init[i] |= en;
            Ok(())
        } else {
            self.strict_ok(false, pc, insn, "result register L8..L15")
        }
    }

    /// Writes per-lane destinations `LReg[L7 & 15]` (INDIRECT_VD), with the write rule per lane.
    fn indirect_write(&mut self, en: u32, vals: &Lanes, pc: usize) -> Result<(), SimError> {
        let sel = self.src(Reg::L7, en, pc)?;
        for l in 0..LANES {
            if en >> l & 1 != 0 {
                let r = (sel[l] & 15) as usize;
                if r < 8 {
                    self.lreg[r][l] = vals[l];
                    self.init[r] |= 1 << l;
                }
            }
        }
        Ok(())
    }

    #[inline(always)]
    fn set_flags(&mut self, en: u32, cond: u32) {
        self.cc = (self.cc & !en) | (cond & en);
    }

    #[inline(always)]
    fn addr_mod(&mut self, k: u8, pc: usize) -> Result<(), SimError> {
        let incr = self
            .addr_mods
            .get(usize::from(k))
            .copied()
            .flatten()
            .ok_or(SimError::AddrMod { pc, addr_mod: k })?;
        self.rwc_dst = self.rwc_dst.wrapping_add(incr) & 0x3FF;
        Ok(())
    }

    #[inline(always)]
    pub(super) fn dst_addr(&self, imm10: u16) -> u16 {
        imm10.wrapping_add(self.dst_base).wrapping_add(self.rwc_dst) & 0x3FF
    }

    /// Issues one instruction.
    pub(super) fn step(&mut self, insn: &Insn, pc: usize, dst: &mut Dest) -> Result<(), SimError> {
        let inf = insn.info();
        if !inf.available(self.arch) {
            return Err(SimError::NotOnArch {
                pc,
                mnemonic: inf.mnemonic,
                arch: self.arch.name(),
            });
        }
        // Issue timing: hazards against the previous MAD-class result, auto-stalls.
        let prev = issue::IssueState {
            mad_pending: self.mad_pending,
            busy_next: self.busy_next,
            wh_shuffle: self.wh_shuffle,
        };
        let stall = issue::issue_stall(insn, pc, self.arch, &prev);
        // The shuffle state is consumed unless a MAD hazard stopped issue before its check.
        if !matches!(stall, Err(SimError::MadHazard { .. })) {
            self.wh_shuffle = None;
        }
        let stall = stall?;
        self.stats.instructions += 1;
        self.stats.cycles += 1 + stall;
        self.stats.stalls += stall;
        self.mad_pending = 0;
        self.busy_next = false;
        // SFPLOADMACRO engine: scheduled instructions due this cycle, priority and §6.4 checks.
        self.macro_cycle(insn, pc, stall, dst)?;

        // Backdoor template writes (§1.1): VD ≥ 12 on the VD[7:4] instructions.
        let backdoor_on = self.lane_config & LC_DISABLE_BACKDOOR == 0;
        if let Some(vd) = insn.vd_field() {
            if vd >= 12 && backdoor_on {
                if matches!(
                    insn,
                    Insn::Load { .. } | Insn::Store { .. } | Insn::LoadI { .. } | Insn::Lut { .. }
                ) {
                    return Err(self.unmodelled(pc, insn, "template write through VD[23:20]"));
                }
                if !self.cfg.allow_backdoor {
                    return Err(SimError::Backdoor {
                        pc,
                        template: vd - 12,
                    });
                }
                if self.lane_enabled() != !0 {
                    return Err(SimError::LanesDisabled {
                        pc,
                        mnemonic: inf.mnemonic,
                    });
                }
                let word = isa::encode(insn, self.arch)
                    .map_err(|source| SimError::Encode { pc, source })?;
                self.macro_cfg.templates[usize::from(vd - 12)] = Some(word);
                return Ok(());
            }
        }
        self.execute(insn, pc, dst)
    }

    pub(super) fn execute(
        &mut self,
        insn: &Insn,
        pc: usize,
        dst: &mut Dest,
    ) -> Result<(), SimError> {
        use Insn as I;
        let en = self.lane_enabled();
        let arch = self.arch;
        match *insn {
            I::Nop => Ok(()),
            I::Load {
                vd,
                mod0,
                addr_mod,
                imm10,
            } => {
                self.strict_ok(mod0.ttsim_load(), pc, insn, "load Mod0")?;
                self.strict_ok(vd.0 < 12, pc, insn, "load into L12..L15")?;
                let m = self.resolve(mod0);
                if m == Mod0::Int32All {
                    return Err(self.unmodelled(pc, insn, "INT32_ALL addressing"));
                }
                let addr = self.dst_addr(imm10);
                let i = usize::from(vd.0);
                if i < 8 {
                    let keep_old = matches!(m, Mod0::Lo16Only | Mod0::Hi16Only);
                    if keep_old {
                        self.src(vd, en, pc)?;
                    }
                    // Whole-row fast path; on error replay the per-lane path so that the
                    // lanes before the failing one are updated exactly as before.
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
                }
                self.addr_mod(addr_mod, pc)
            }
            I::Store {
                vd,
                mod0,
                addr_mod,
                imm10,
            } => {
                self.strict_ok(
                    mod0.ttsim_store() || mod0 == Mod0::Fp16,
                    pc,
                    insn,
                    "store Mod0",
                )?;
                self.strict_ok(vd.0 < 12, pc, insn, "store from L12..L15")?;
                let m = self.resolve(mod0);
                if m == Mod0::Int32All {
                    return Err(self.unmodelled(pc, insn, "INT32_ALL addressing"));
                }
                let addr = self.dst_addr(imm10);
                let i = usize::from(vd.0 & 15);
                self.src(vd, en, pc)?;
                // Whole-row fast path: its errors (odd address, unresolved Mod0) arise before any
                // write, as in the per-lane path.
                dst.sfpu_store_row(addr, en, m, arch, &self.lreg[i])
                    .map_err(|source| SimError::Dest { pc, source })?;
                self.addr_mod(addr_mod, pc)
            }
            I::LoadI { vd, mod0, imm16 } => {
                let imm = u32::from(imm16);
                let (val, keep): (u32, u32) = match mod0.0 {
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
                    _ => {
                        return Err(SimError::Undefined {
                            pc,
                            mnemonic: insn.info().mnemonic,
                            what: "SFPLOADI Mod0",
                        })
                    }
                };
                if vd.0 >= 8 {
                    return self.strict_ok(false, pc, insn, "SFPLOADI to L8..L11");
                }
                let d = if keep != 0 {
                    self.src(vd, en, pc)?
                } else {
                    self.lreg[usize::from(vd.0)]
                };
                let out = map2(en, &d, &d, |_, old| val | (old & keep));
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::MulI { imm16, vd, mod1 } | I::AddI { imm16, vd, mod1 } => {
                self.strict_ok(mod1.0 == 0, pc, insn, "Mod1 != 0")?;
                if mod1.0 & !8 != 0 {
                    return Err(self.unmodelled(pc, insn, "Mod1 other than INDIRECT_VD"));
                }
                let imm = u32::from(imm16) << 16;
                let d = self.src(vd, en, pc)?;
                let is_mul = matches!(insn, I::MulI { .. });
                let out = map2(en, &d, &d, |_, x| {
                    if is_mul {
                        fma(arch, imm, x, 0)
                    } else {
                        fma(arch, imm, 0x3F80_0000, x)
                    }
                });
                self.mad_pending = reg_bit(vd);
                if mod1.contains(isa::MadMod::INDIRECT_VD) {
                    self.mad_pending = 0xFF;
                    self.indirect_write(en, &out, pc)
                } else {
                    self.dst_write(vd, en, &out, pc, insn)
                }
            }
            I::DivP2 {
                imm12,
                vc,
                vd,
                mod1,
            } => {
                self.nc(mod1.0 <= 1, pc, insn, "reserved Mod1 bits")?;
                let ok = if self.cfg.strict {
                    imm12 <= 0x7F || imm12 >= 0xF80
                } else {
                    imm12 <= 0xFF || imm12 >= 0xF80
                };
                self.nc(ok, pc, insn, "immediate outside the 8-bit range")?;
                let imm = u32::from(imm12 & 0xFF);
                let c = self.src(vc, en, pc)?;
                let add = mod1.contains(isa::DivP2Mod::ADD);
                let out = map2(en, &c, &self.lreg[usize::from(vd.0 & 15)], |c, _| {
                    let mut e = (c >> 23) & 255;
                    if add {
                        if e != 255 {
                            e = (e + imm) & 255;
                        }
                    } else {
                        e = imm;
                    }
                    (e << 23) | (c & 0x807F_FFFF)
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::ExExp { vc, vd, mod1 } => {
                self.nc(mod1.0 & 4 == 0, pc, insn, "reserved Mod1 bit 2")?;
                self.strict_ok(matches!(mod1.0, 0 | 1 | 2 | 10), pc, insn, "Mod1")?;
                let bias = if mod1.contains(isa::ExExpMod::NODEBIAS) {
                    0
                } else {
                    127
                };
                let c = self.src(vc, en, pc)?;
                let old = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &c, &old, |c, _| ((c >> 23) & 255).wrapping_sub(bias));
                if vd.0 < 8 {
                    let mut f = self.cc;
                    if mod1.contains(isa::ExExpMod::CC_SGN) {
                        f = mask2(&out, &out, |r, _| (r as i32) < 0);
                    }
                    if mod1.contains(isa::ExExpMod::CC_COMP) {
                        f = !f;
                    }
                    self.set_flags(en, f);
                }
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::ExMan { vc, vd, mod1 } => {
                self.nc(mod1.0 <= 1, pc, insn, "reserved Mod1 bits")?;
                let hidden = if mod1.contains(isa::ExManMod::PAD9) {
                    0
                } else {
                    0x80_0000
                };
                let c = self.src(vc, en, pc)?;
                let old = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &c, &old, |c, _| (c & 0x7F_FFFF) | hidden);
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::IAdd {
                imm12,
                vc,
                vd,
                mod1,
            } => {
                self.strict_ok(mod1.0 <= 10 && mod1.0 & 3 != 3, pc, insn, "Mod1")?;
                let c = self.src(vc, en, pc)?;
                let m = mod1.0;
                let d = if m & 1 != 0 {
                    self.lreg[usize::from(vd.0 & 15)]
                } else {
                    self.src(vd, en, pc)?
                };
                let imm = i32::from(imm12) as u32;
                let out = map2(en, &c, &d, |c, d| {
                    if m & 1 != 0 {
                        c.wrapping_add(imm)
                    } else if m & 2 != 0 {
                        c.wrapping_sub(d)
                    } else {
                        c.wrapping_add(d)
                    }
                });
                if vd.0 < 8 {
                    let neg = mask2(&out, &out, |r, _| (r as i32) < 0);
                    let f = if m & 8 != 0 && m & 4 != 0 {
                        !self.cc // ISA: flags left as-is, then inverted (not in TTSIM)
                    } else if m & 8 != 0 {
                        !neg
                    } else if m & 4 == 0 {
                        neg
                    } else {
                        self.cc
                    };
                    self.set_flags(en, f);
                }
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::Shft {
                imm12,
                vc,
                vd,
                mod1,
            } => {
                let m = mod1.0;
                match arch {
                    Arch::Wh => self.nc(m <= 1, pc, insn, "reserved Mod1 bits")?,
                    Arch::Bh => self.nc(m <= 7 && m != 4 && m != 6, pc, insn, "reserved Mod1")?,
                }
                self.strict_ok(
                    m & 1 != 0 || imm12 == 0,
                    pc,
                    insn,
                    "immediate without ARG_IMM",
                )?;
                let use_vc = arch == Arch::Bh && m & 4 != 0;
                // VC is read for the shift amount (no ARG_IMM) or as the source (IMM_USE_VC).
                let c = if m & 1 == 0 || use_vc {
                    self.src(vc, en, pc)?
                } else {
                    [0; LANES]
                };
                let arith = arch == Arch::Bh && m & 2 != 0;
                let d = if use_vc {
                    self.lreg[usize::from(vd.0 & 15)]
                } else {
                    self.src(vd, en, pc)?
                };
                let imm = i32::from(imm12);
                let out = map2(en, &c, &d, |c, d| {
                    let x = if use_vc { c } else { d };
                    let amt = if m & 1 != 0 { imm } else { c as i32 };
                    shift(x, amt, arith)
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::SetCc { imm1, vc, vd, mod1 } => {
                let m = mod1.0;
                self.strict_ok(
                    matches!(m, 0 | 2 | 4 | 6) && vd.0 == 0 && imm1 == 0,
                    pc,
                    insn,
                    "Mod1/VD/immediate",
                )?;
                if self.cfg.strict && self.cc_en != !0 {
                    return Err(SimError::CcDisabled {
                        pc,
                        mnemonic: insn.info().mnemonic,
                    });
                }
                let c = self.src(vc, en, pc)?;
                let cond = if m & 8 != 0 {
                    0
                } else if m & 1 != 0 {
                    if imm1 & 1 != 0 {
                        !0
                    } else {
                        0
                    }
                } else {
                    match m {
                        0 => mask2(&c, &c, |c, _| (c as i32) < 0),
                        2 => mask2(&c, &c, |c, _| c != 0),
                        4 => mask2(&c, &c, |c, _| (c as i32) >= 0),
                        _ => mask2(&c, &c, |c, _| c == 0),
                    }
                };
                // Lanes without UseLaneFlags get false (ISA).
                self.set_flags(en, cond & self.cc_en);
                Ok(())
            }
            I::Mov { vc, vd, mod1 } => self.exec_mov(insn, pc, vc, vd, mod1.0, en),
            I::Abs { vc, vd, mod1 } => {
                self.nc(mod1.0 <= 1, pc, insn, "reserved Mod1 bits")?;
                let float = mod1.contains(isa::AbsMod::FLOAT);
                let c = self.src(vc, en, pc)?;
                let old = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &c, &old, |x, _| {
                    if x & 0x8000_0000 == 0 {
                        x
                    } else if float {
                        // D3 (TTSIM): -Inf becomes +Inf; only -NaN keeps its sign.
                        if x <= 0xFF80_0000 {
                            x & 0x7FFF_FFFF
                        } else {
                            x
                        }
                    } else {
                        x.wrapping_neg()
                    }
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::And { vb, vc, vd, mod1 } | I::Or { vb, vc, vd, mod1 } => {
                let use_vb = match (arch, mod1.0) {
                    (_, 0) => {
                        self.strict_ok(vb == 0, pc, insn, "VB field without USE_VB")?;
                        false
                    }
                    (Arch::Bh, 1) => true,
                    _ => return Err(self.unmodelled(pc, insn, "Mod1")),
                };
                let c = self.src(vc, en, pc)?;
                let b = if use_vb { Reg(vb) } else { vd };
                let d = self.src(b, en, pc)?;
                let is_and = matches!(insn, I::And { .. });
                let out = map2(en, &c, &d, |c, b| if is_and { b & c } else { b | c });
                let keep = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &out, &keep, |o, _| o);
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::Xor { vc, vd } => {
                let c = self.src(vc, en, pc)?;
                let d = self.src(vd, en, pc)?;
                let out = map2(en, &c, &d, |c, d| c ^ d);
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::Not { vc, vd } => {
                let c = self.src(vc, en, pc)?;
                let old = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &c, &old, |c, _| !c);
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::Lz { vc, vd, mod1 } => {
                let m = mod1.0;
                self.nc(m & 1 == 0, pc, insn, "reserved Mod1 bit 0")?;
                self.strict_ok(m <= 4, pc, insn, "Mod1")?;
                let c = self.src(vc, en, pc)?;
                let mask = if m & 4 != 0 { 0x7FFF_FFFF } else { !0 };
                let old = self.lreg[usize::from(vd.0 & 15)];
                let out = map2(en, &c, &old, |c, _| (c & mask).leading_zeros());
                if vd.0 < 8 {
                    let mut f = self.cc;
                    if m & 2 != 0 {
                        f = mask2(&c, &c, |c, _| c & mask != 0);
                    }
                    if m & 8 != 0 {
                        f = !f;
                    }
                    self.set_flags(en, f);
                }
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::SetExp { imm8, vc, vd, mod1 } => {
                let m = mod1.0;
                self.nc(m <= 3, pc, insn, "reserved Mod1 bits")?;
                self.strict_ok(m <= 2 && (m == 1 || imm8 == 0), pc, insn, "Mod1/immediate")?;
                let c = self.src(vc, en, pc)?;
                let d = if m & 1 != 0 {
                    self.lreg[usize::from(vd.0 & 15)]
                } else {
                    self.src(vd, en, pc)?
                };
                let imm = u32::from(imm8);
                let out = map2(en, &c, &d, |c, d| {
                    let e = if m & 1 != 0 {
                        imm
                    } else if m & 2 != 0 {
                        (d >> 23) & 0xFF
                    } else {
                        d & 0xFF
                    };
                    (c & 0x807F_FFFF) | (e << 23)
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::SetMan {
                imm12,
                vc,
                vd,
                mod1,
            } => {
                let m = mod1.0;
                self.nc(m <= 1, pc, insn, "reserved Mod1 bits")?;
                self.strict_ok(imm12 == 0, pc, insn, "non-zero immediate")?;
                let c = self.src(vc, en, pc)?;
                let d = if m & 1 != 0 {
                    self.lreg[usize::from(vd.0 & 15)]
                } else {
                    self.src(vd, en, pc)?
                };
                let imm = u32::from(imm12) << 11;
                let out = map2(en, &c, &d, |c, d| {
                    (c & 0xFF80_0000) | if m & 1 != 0 { imm } else { d & 0x7F_FFFF }
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::SetSgn { imm1, vc, vd, mod1 } => {
                let m = mod1.0;
                self.nc(m <= 1, pc, insn, "reserved Mod1 bits")?;
                self.strict_ok(m == 1 || imm1 == 0, pc, insn, "immediate without ARG_IMM")?;
                let c = self.src(vc, en, pc)?;
                let d = if m & 1 != 0 {
                    self.lreg[usize::from(vd.0 & 15)]
                } else {
                    self.src(vd, en, pc)?
                };
                let s = u32::from(imm1 & 1) << 31;
                let out = map2(en, &c, &d, |c, d| {
                    (c & 0x7FFF_FFFF) | if m & 1 != 0 { s } else { d & 0x8000_0000 }
                });
                self.dst_write(vd, en, &out, pc, insn)
            }
            I::Mad {
                va,
                vb,
                vc,
                vd,
                mod1,
            }
            | I::Add {
                va,
                vb,
                vc,
                vd,
                mod1,
            }
            | I::Mul {
                va,
                vb,
                vc,
                vd,
                mod1,
            } => self.exec_mad(insn, pc, [va, vb, vc, vd], mod1.0, en),
            I::PushC { vd, mod1 } | I::PopC { vd, mod1 } => self.exec_stack(insn, pc, vd, mod1.0),
            I::EnCc { imm2, vd, mod1 } => {
                let m = mod1.0;
                self.strict_ok(
                    vd.0 == 0 && (m == 10 || (m == 0 && imm2 == 0)),
                    pc,
                    insn,
                    "Mod1/VD/immediate",
                )?;
                if m & 2 != 0 {
                    self.cc_en = if imm2 & 1 != 0 { !0 } else { 0 };
                } else if m & 1 != 0 {
                    self.cc_en = !self.cc_en;
                }
                self.cc = if m & 8 != 0 {
                    if imm2 & 2 != 0 {
                        !0
                    } else {
                        0
                    }
                } else {
                    !0
                };
                Ok(())
            }
            I::CompC { vd } => {
                self.strict_ok(vd.0 == 0, pc, insn, "VD != 0")?;
                if self.cfg.strict && self.cc_en != !0 {
                    return Err(SimError::CcDisabled {
                        pc,
                        mnemonic: insn.info().mnemonic,
                    });
                }
                let (top_cc, top_en) = if self.sp == 0 {
                    (!0, !0)
                } else {
                    self.stack[self.sp - 1]
                };
                self.strict_ok(top_en == !0, pc, insn, "stack top with lane flags disabled")?;
                self.cc = top_en & self.cc_en & top_cc & !self.cc;
                Ok(())
            }
            I::Transp { vd } => {
                self.strict_ok(vd.0 == 0, pc, insn, "VD != 0")?;
                for r in 0..8 {
                    self.src(Reg(r), !0, pc)?;
                }
                let old = self.lreg;
                for base in [0usize, 4] {
                    for i in 0..4 {
                        for j in 0..4 {
                            for col in 0..8 {
                                let lane = j * 8 + col;
                                if en >> lane & 1 != 0 {
                                    self.lreg[base + i][lane] = old[base + j][i * 8 + col];
                                }
                            }
                        }
                    }
                }
                Ok(())
            }
            I::StochRnd {
                rnd_mode,
                imm5,
                vb,
                vc,
                vd,
                mod1,
            } => self.exec_stochrnd(insn, pc, rnd_mode, imm5, vb, vc, vd, mod1.0, en),
            I::Cast { vc, vd, mod1 } => self.exec_cast(insn, pc, vc, vd, mod1.0, en),
            I::Config { imm16, dest, mod1 } => self.exec_config(insn, pc, imm16, dest, mod1.0),
            I::Swap { vc, vd, mod1 } => self.exec_swap(insn, pc, vc, vd, mod1.0, en),
            I::Shft2 {
                imm12,
                vc,
                vd,
                mod1,
            } => self.exec_shft2(insn, pc, imm12, vc, vd, mod1.0, en),
            I::Le { vc, vd, mod1 } | I::Gt { vc, vd, mod1 } => {
                self.exec_cmp(insn, pc, vc, vd, mod1.0, en)
            }
            I::LoadMacro {
                lreg,
                mod0,
                addr_mod,
                imm10,
            } => {
                // The macro engine's state is now live: no more pre-decoded issue.
                self.macro_seen = true;
                self.exec_loadmacro(pc, lreg, mod0, addr_mod, imm10, dst)
            }
            I::Replay { .. } => Err(self.unmodelled(pc, insn, "REPLAY inside a replayed sequence")),
            I::Lut { .. } | I::LutFp32 { .. } | I::Mul24 { .. } | I::ARecip { .. } => {
                Err(self.unmodelled(pc, insn, "instruction not modelled"))
            }
        }
    }
}

mod more;
