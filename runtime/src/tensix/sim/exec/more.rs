//! The larger instruction handlers: SFPMOV, MAD class, flag stack, SFPSTOCHRND, SFPCAST,
//! SFPCONFIG, SFPSWAP, SFPSHFT2, SFPGT/SFPLE.

use super::lanes::{boolean_op, key, map2, mask2, prng_step, reg_bit, shift, Lanes};
use crate::tensix::isa::{Arch, Insn, MadMod, Reg};
use crate::tensix::sim::fma::fma;
use crate::tensix::sim::{
    Machine, SimError, LANES, LC_DISABLE_BACKDOOR, LC_EXCHANGE_SRCB_SRCC, LC_MODELLED, STACK_DEPTH,
};

impl Machine {
    pub(super) fn exec_mov(
        &mut self,
        insn: &Insn,
        pc: usize,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        self.nc(m & 4 == 0, pc, insn, "reserved Mod1 bit 2")?;
        self.strict_ok(matches!(m, 0 | 1 | 2 | 8), pc, insn, "Mod1")?;
        let lanes = if m == 2 { !0 } else { en };
        let old = self.lreg[usize::from(vd.0 & 15)];
        let out = if m & 8 != 0 {
            self.strict_ok(vc.0 == 9, pc, insn, "special source other than the PRNG")?;
            let vals: Lanes = match vc.0 {
                9 => {
                    let Some(st) = self.prng.as_mut() else {
                        return Err(SimError::PrngUnseeded {
                            pc,
                            mnemonic: insn.info().mnemonic,
                        });
                    };
                    let cur = *st;
                    for (l, s) in st.iter_mut().enumerate() {
                        if lanes >> l & 1 != 0 {
                            *s = prng_step(*s);
                        }
                    }
                    cur
                }
                k @ 0..=3 => {
                    [self.macro_cfg.templates[usize::from(k)]
                        .ok_or_else(|| self.unmodelled(pc, insn, "template never written"))?;
                        LANES]
                }
                k @ 4..=7 => {
                    [self.macro_cfg.sequences[usize::from(k - 4)]
                        .ok_or_else(|| self.unmodelled(pc, insn, "sequence never written"))?;
                        LANES]
                }
                8 => {
                    [u32::from(
                        self.macro_cfg
                            .misc
                            .ok_or_else(|| self.unmodelled(pc, insn, "Misc never written"))?,
                    ); LANES]
                }
                15 => [self.lane_config; LANES],
                _ => [0; LANES],
            };
            map2(lanes, &vals, &old, |v, _| v)
        } else {
            let c = self.src(vc, lanes, pc)?;
            let neg = if m & 1 != 0 { 0x8000_0000 } else { 0 };
            map2(lanes, &c, &old, |c, _| c ^ neg)
        };
        self.dst_write(vd, lanes, &out, pc, insn)
    }

    pub(super) fn exec_mad(
        &mut self,
        insn: &Insn,
        pc: usize,
        [va, vb, vc, vd]: [Reg; 4],
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        let arch = self.arch;
        let indirect_va = m & MadMod::INDIRECT_VA.0 != 0;
        let indirect_vd = m & MadMod::INDIRECT_VD.0 != 0;
        if arch == Arch::Wh {
            self.nc(
                m & 3 == 0,
                pc,
                insn,
                "NEGATE modifiers do not exist on Wormhole",
            )?;
        }
        let (is_add, is_mul) = (
            matches!(insn, Insn::Add { .. }),
            matches!(insn, Insn::Mul { .. }),
        );
        // TTSIM: WH Mod1 0; BH SFPMAD/SFPADD Mod1 ≤ 3, SFPMUL ≤ 1; Q3 adds INDIRECT_VA on SFPMAD.
        let base_ok = match arch {
            Arch::Wh => m & 3 == 0,
            Arch::Bh => m & 3 <= if is_mul { 1 } else { 3 },
        };
        let q3 = if matches!(insn, Insn::Mad { .. }) {
            m & !3 == 0 || m & !3 == 4
        } else {
            m & !3 == 0
        };
        self.strict_ok(base_ok && q3, pc, insn, "Mod1")?;
        if is_add && self.cfg.strict {
            self.nc(
                va.0 == 10 || vb.0 == 10,
                pc,
                insn,
                "SFPADD without L10 as a factor",
            )?;
        }
        if is_mul && self.cfg.strict {
            self.nc(vc.0 == 9, pc, insn, "SFPMUL without L9 as the addend")?;
        }
        let b = self.src(vb, en, pc)?;
        let c = self.src(vc, en, pc)?;
        let a: Lanes = if indirect_va {
            let sel = self.src(Reg::L7, en, pc)?;
            let mut a = [0u32; LANES];
            for l in 0..LANES {
                if en >> l & 1 != 0 {
                    let r = (sel[l] & 15) as usize;
                    if self.init[r] >> l & 1 == 0 {
                        return Err(SimError::Uninitialised {
                            pc,
                            reg: r,
                            lanes: 1 << l,
                        });
                    }
                    a[l] = self.lreg[r][l];
                }
            }
            a
        } else {
            self.src(va, en, pc)?
        };
        let na = if m & MadMod::NEGATE_VA.0 != 0 && arch == Arch::Bh {
            0x8000_0000
        } else {
            0
        };
        let nc = if m & MadMod::NEGATE_VC.0 != 0 && arch == Arch::Bh {
            0x8000_0000
        } else {
            0
        };
        let mut out = self.lreg[usize::from(vd.0 & 15)];
        for l in 0..LANES {
            let r = fma(arch, a[l] ^ na, b[l], c[l] ^ nc);
            if en >> l & 1 != 0 {
                out[l] = r;
            }
        }
        if indirect_vd {
            self.mad_pending = 0xFF;
            self.indirect_write(en, &out, pc)
        } else {
            self.mad_pending = reg_bit(vd);
            self.dst_write(vd, en, &out, pc, insn)
        }
    }

    pub(super) fn exec_stack(
        &mut self,
        insn: &Insn,
        pc: usize,
        vd: Reg,
        m: u8,
    ) -> Result<(), SimError> {
        let push = matches!(insn, Insn::PushC { .. });
        self.strict_ok(m == 0 && vd.0 == 0, pc, insn, "Mod1/VD")?;
        if push && m != 0 && self.arch == Arch::Wh {
            return Err(self.unmodelled(pc, insn, "SFPPUSHC Mod1 != 0 does not exist on Wormhole"));
        }
        if push {
            if m == 0 {
                if self.sp >= STACK_DEPTH {
                    return Err(SimError::StackOverflow { pc });
                }
                self.stack[self.sp] = (self.cc, self.cc_en);
                self.sp += 1;
                return Ok(());
            }
            // BH: replace / mutate the stack top.
            if self.sp == 0 {
                return Err(SimError::StackUnderflow { pc });
            }
            let (mut tcc, _) = self.stack[self.sp - 1];
            let ten;
            match m {
                1..=12 => {
                    ten = self.cc_en;
                    tcc = boolean_op(m, tcc, self.cc);
                }
                13 => {
                    self.cc = !self.cc;
                    ten = self.cc_en;
                    tcc = self.cc;
                }
                14 => {
                    ten = !0;
                    tcc = !0;
                }
                _ => {
                    ten = !0;
                    tcc = 0;
                }
            }
            self.stack[self.sp - 1] = (tcc, ten);
            return Ok(());
        }
        let (tcc, ten) = if self.sp == 0 {
            (0, 0)
        } else {
            self.stack[self.sp - 1]
        };
        if m == 0 {
            if self.sp == 0 {
                return Err(SimError::StackUnderflow { pc });
            }
            self.sp -= 1;
            self.cc_en = ten;
            self.cc = tcc;
            return Ok(());
        }
        if self.sp == STACK_DEPTH && self.arch == Arch::Wh {
            // WH hardware bug (ISA-WH SFPPOPC): the bottom entry is overwritten with the top.
            self.stack[0] = (tcc, ten);
        }
        match m {
            1..=12 => {
                self.cc_en = ten;
                self.cc = boolean_op(m, self.cc, tcc);
            }
            13 => self.cc = !self.cc,
            14 => {
                self.cc_en = !0;
                self.cc = !0;
            }
            _ => {
                self.cc_en = !0;
                self.cc = 0;
            }
        }
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_stochrnd(
        &mut self,
        insn: &Insn,
        pc: usize,
        rnd: u8,
        imm5: u8,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        let arch = self.arch;
        self.ub(m <= 7 || m == 12 || m == 13, pc, insn, "Mod1")?;
        // Q3: FP32_TO_FP16A (0) is modelled from the ISA page although TTSIM rejects it.
        self.strict_ok(
            matches!(m, 0 | 1 | 2 | 3 | 6 | 7) && rnd == 0 && imm5 == 0,
            pc,
            insn,
            "Mod1/rounding mode/immediate",
        )?;
        // 0 nearest, 1 stochastic, 2 zero (BH only).
        let mode = match (arch, rnd) {
            (_, 0) => 0,
            (_, 1) => 1,
            (Arch::Bh, 2) => 2,
            _ => {
                return Err(SimError::Undefined {
                    pc,
                    mnemonic: insn.info().mnemonic,
                    what: "rounding mode",
                })
            }
        };
        if mode == 1 && self.prng.is_none() {
            return Err(SimError::PrngUnseeded {
                pc,
                mnemonic: insn.info().mnemonic,
            });
        }
        let c = self.src(vc, en, pc)?;
        let family = m & 7;
        let shifts: Lanes = if family == 4 || family == 5 {
            if m & 8 != 0 {
                [u32::from(imm5); LANES]
            } else {
                let b = self.src(vb, en, pc)?;
                let mut s = [0u32; LANES];
                for l in 0..LANES {
                    s[l] = b[l] & 31;
                }
                s
            }
        } else {
            [0; LANES]
        };
        // TTSIM steps the PRNG in every enabled lane, whatever the mode.
        let mut prng_bits = [0x40_0000u32; LANES];
        if let Some(st) = self.prng.as_mut() {
            for l in 0..LANES {
                if en >> l & 1 != 0 {
                    let cur = st[l];
                    st[l] = prng_step(cur);
                    prng_bits[l] = match mode {
                        1 => cur & 0x7F_FFFF,
                        2 => 0x7F_FFFF,
                        _ => 0x40_0000,
                    };
                }
            }
        } else if mode == 2 {
            prng_bits = [0x7F_FFFF; LANES];
        }
        let mut out = self.lreg[usize::from(vd.0 & 15)];
        for l in 0..LANES {
            let x = c[l];
            let p = prng_bits[l];
            let r = match family {
                0 | 1 => {
                    let (k, keep) = if family == 0 {
                        (13u32, 0x2000u32)
                    } else {
                        (16, 0x1_0000)
                    };
                    let e = (x >> 23) & 0xFF;
                    if e == 0 {
                        0
                    } else if e == 255 {
                        x & 0xFF80_0000
                    } else {
                        let dropped = x & (keep - 1);
                        let base = x - dropped;
                        let up = match arch {
                            Arch::Wh => (dropped << (23 - k)) >= p,
                            Arch::Bh => dropped >= (p >> (23 - k)),
                        };
                        if up {
                            base.wrapping_add(keep)
                        } else {
                            base
                        }
                    }
                }
                4 | 5 => {
                    let sign = x & 0x8000_0000;
                    let mut mag = u64::from(x & 0x7FFF_FFFF) << 23;
                    mag >>= shifts[l];
                    let mut mag = (mag >> 23) + u64::from((mag & 0x7F_FFFF) as u32 >= p);
                    if family == 4 {
                        mag = mag.min(255);
                        mag as u32
                    } else {
                        mag = mag.min(127);
                        (if mag == 0 { 0 } else { sign }) + mag as u32
                    }
                }
                _ => {
                    let (keep_sign, max) = match family {
                        2 => (false, 255u64),
                        3 => (true, 127),
                        6 => (false, 65535),
                        _ => (true, 32767),
                    };
                    let mut sign = if keep_sign { x & 0x8000_0000 } else { 0 };
                    let e = ((x >> 23) & 0xFF) as i32 - 127;
                    if e < -1 {
                        0
                    } else if e >= 16 {
                        sign | max as u32
                    } else {
                        let m0 = u64::from(0x80_0000 | (x & 0x7F_FFFF));
                        let mm = if e >= 0 { m0 << e } else { m0 >> 1 };
                        let mut mag = (mm >> 23) + u64::from((mm & 0x7F_FFFF) as u32 >= p);
                        mag = mag.min(max);
                        if mag == 0 {
                            sign = 0;
                        }
                        sign + mag as u32
                    }
                }
            };
            if en >> l & 1 != 0 {
                out[l] = r;
            }
        }
        self.dst_write(vd, en, &out, pc, insn)
    }

    pub(super) fn exec_cast(
        &mut self,
        insn: &Insn,
        pc: usize,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        let arch = self.arch;
        match arch {
            Arch::Wh => self.nc(m <= 1, pc, insn, "reserved Mod1")?,
            Arch::Bh => self.nc(m <= 3, pc, insn, "reserved Mod1")?,
        }
        if m == 2 {
            return Err(self.unmodelled(pc, insn, "BH INT32_ABS (hardware bug; use SFPABS)"));
        }
        self.strict_ok(m != 1, pc, insn, "stochastic rounding")?;
        if m == 1 && self.prng.is_none() {
            return Err(SimError::PrngUnseeded {
                pc,
                mnemonic: insn.info().mnemonic,
            });
        }
        let c = self.src(vc, en, pc)?;
        let mut out = self.lreg[usize::from(vd.0 & 15)];
        for l in 0..LANES {
            let x = c[l];
            let sign = x & 0x8000_0000;
            let r = if m == 3 {
                sign | if sign != 0 { x.wrapping_neg() } else { x }
            } else {
                let mag = x & 0x7FFF_FFFF;
                let lz = if mag != 0 { mag.leading_zeros() } else { 157 };
                let norm = mag << (lz & 31);
                let mut d = sign.wrapping_add((157 - lz) << 23).wrapping_add(norm >> 8);
                let up = if m == 1 {
                    let st = self.prng.as_mut().map(|s| &mut s[l]);
                    match st {
                        Some(s) if en >> l & 1 != 0 => {
                            let cur = *s;
                            *s = prng_step(cur);
                            (norm & 0xFE) > ((cur >> 9) & 0xFE)
                        }
                        _ => false,
                    }
                } else {
                    norm & 0x80 != 0 && norm & 0x17F != 0
                };
                if up {
                    d = d.wrapping_add(1);
                }
                d
            };
            if en >> l & 1 != 0 {
                out[l] = r;
            }
        }
        self.dst_write(vd, en, &out, pc, insn)
    }

    pub(super) fn exec_config(
        &mut self,
        insn: &Insn,
        pc: usize,
        imm16: u16,
        dest: u8,
        m: u8,
    ) -> Result<(), SimError> {
        let mnemonic = insn.info().mnemonic;
        if m > 1 {
            return Err(self.unmodelled(pc, insn, "Mod1 other than 0/1"));
        }
        if self.lane_enabled() != !0 {
            return Err(SimError::LanesDisabled { pc, mnemonic });
        }
        let l0 = if m == 0 {
            if imm16 != 0 {
                return Err(self.unmodelled(pc, insn, "Imm16 with Mod1 0"));
            }
            let v = self.src(Reg::L0, !0, pc)?;
            if v.iter().any(|&x| x != v[0]) {
                return Err(SimError::ConfigNotUniform { pc, mnemonic });
            }
            v[0]
        } else {
            0
        };
        match dest {
            0..=3 => {
                if m != 0 {
                    return Err(self.unmodelled(pc, insn, "template write with Mod1 1"));
                }
                self.macro_cfg.templates[usize::from(dest)] = Some(l0);
            }
            4..=7 => {
                self.macro_cfg.sequences[usize::from(dest - 4)] =
                    Some(if m == 1 { u32::from(imm16) } else { l0 });
            }
            8 => {
                if m != 1 || imm16 > 0xFFF {
                    return Err(self.unmodelled(pc, insn, "Misc write other than a 12-bit Imm16"));
                }
                self.macro_cfg.misc = Some(imm16);
            }
            9 | 10 => return self.nc(false, pc, insn, "configuration destination 9/10"),
            11..=14 => {
                let v = if m == 1 {
                    if imm16 != 0 {
                        return Err(self.unmodelled(pc, insn, "Imm16 with an LReg destination"));
                    }
                    match dest {
                        11 => 0xBF80_0000,
                        _ if self.cfg.strict => {
                            return Err(self.unmodelled(
                                pc,
                                insn,
                                "default constant other than L11",
                            ))
                        }
                        12 => (1.0f32 / 65536.0).to_bits(),
                        13 => (-0.674_877_6_f32).to_bits(),
                        _ => (-0.344_848_43_f32).to_bits(),
                    }
                } else {
                    l0
                };
                let r = usize::from(dest);
                self.lreg[r] = [v; LANES];
                self.init[r] = !0;
            }
            _ => {
                let v = if m == 1 { u32::from(imm16) } else { l0 };
                let allowed = if self.cfg.strict {
                    LC_DISABLE_BACKDOOR | LC_EXCHANGE_SRCB_SRCC
                } else {
                    LC_MODELLED
                };
                if v & !allowed != 0 {
                    return Err(self.unmodelled(pc, insn, format!("LaneConfig bits {v:#x}")));
                }
                self.lane_config = v;
            }
        }
        Ok(())
    }

    pub(super) fn exec_swap(
        &mut self,
        insn: &Insn,
        pc: usize,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        let arch = self.arch;
        match arch {
            Arch::Wh => self.nc(m <= 9, pc, insn, "Mod1 > 9")?,
            Arch::Bh => self.nc(m <= 9, pc, insn, "Mod1 > 9 (silicon behaves as 9)")?,
        }
        self.strict_ok(matches!(m, 0..=3 | 9), pc, insn, "Mod1")?;
        // Mod1 9 is documented by ISA-BH only, but TTSIM implements it for both archs (D1).
        self.strict_ok(vd.0 < 12, pc, insn, "VD ≥ 12")?;
        let vd_gets_min: u32 = match m {
            0 | 1 => !0,
            2 => 0x0000_FFFF,
            3 => 0x00FF_00FF,
            4 => 0xFF00_00FF,
            5 => 0x0000_00FF,
            6 => 0x0000_FF00,
            7 => 0x00FF_0000,
            8 => 0xFF00_0000,
            _ => 0,
        };
        let c = self.src(vc, en, pc)?;
        let d = self.src(vd, en, pc)?;
        let lt = mask2(&c, &d, |c, d| key(c) < key(d));
        let mut swap = if m == 0 {
            !0
        } else {
            (vd_gets_min & lt) | (!vd_gets_min & !lt)
        };
        if m != 0 && self.lane_config & LC_EXCHANGE_SRCB_SRCC != 0 {
            swap = !swap;
        }
        let sw = swap & en;
        let new_c = map2(sw, &d, &c, |d, _| d);
        let new_d = map2(sw, &c, &d, |c, _| c);
        if vc.0 < 8 {
            self.lreg[usize::from(vc.0)] = new_c;
        }
        if vd.0 < 8 {
            self.lreg[usize::from(vd.0)] = new_d;
        }
        self.busy_next = true;
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn exec_shft2(
        &mut self,
        insn: &Insn,
        pc: usize,
        imm12: i16,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        let arch = self.arch;
        self.ub(m <= 6, pc, insn, "Mod1 > 6")?;
        match m {
            3 | 5 | 6 => {}
            4 if arch == Arch::Bh => {}
            4 => {
                return Err(self.unmodelled(pc, insn, "SHFLSHR1 on Wormhole (hardware bug)"));
            }
            _ => return Err(self.unmodelled(pc, insn, "COPY4 modes are not modelled")),
        }
        let imm_ok = match m {
            5 => (0..16).contains(&imm12),
            6 => true,
            _ => imm12 == 0,
        };
        self.strict_ok(imm_ok, pc, insn, "immediate")?;
        let old = self.lreg[usize::from(vd.0 & 15)];
        let out = match m {
            3 | 4 => {
                let c = self.src(vc, !0, pc)?;
                let mut o = old;
                for l in 0..LANES {
                    let v = if l & 7 != 0 {
                        c[l - 1]
                    } else if m == 3 {
                        c[l + 7]
                    } else {
                        0
                    };
                    if en >> l & 1 != 0 {
                        o[l] = v;
                    }
                }
                match arch {
                    // BH stalls the next instruction automatically.
                    Arch::Bh => self.busy_next = true,
                    // WH relies on software (ISA-WH SFPSHFT2 "Instruction scheduling").
                    Arch::Wh => self.wh_shuffle = Some(vd.0),
                }
                o
            }
            5 => {
                let c = self.src(vc, en, pc)?;
                let b = self.src(Reg((imm12 & 15) as u8), en, pc)?;
                map2(en, &c, &b, |c, b| shift(b, c as i32, false))
                    .iter()
                    .zip(old.iter())
                    .enumerate()
                    .fold(old, |mut acc, (l, (&v, _))| {
                        if en >> l & 1 != 0 {
                            acc[l] = v;
                        }
                        acc
                    })
            }
            _ => {
                let b = self.src(Reg((imm12 & 15) as u8), en, pc)?;
                let amt = i32::from(imm12);
                map2(en, &b, &old, |b, _| shift(b, amt, false))
            }
        };
        self.dst_write(vd, en, &out, pc, insn)
    }

    pub(super) fn exec_cmp(
        &mut self,
        insn: &Insn,
        pc: usize,
        vc: Reg,
        vd: Reg,
        m: u8,
        en: u32,
    ) -> Result<(), SimError> {
        self.strict_ok(m == 1 || m == 8, pc, insn, "Mod1")?;
        let gt = matches!(insn, Insn::Gt { .. });
        let c = self.src(vc, !0, pc)?;
        let d = self.src(vd, !0, pc)?;
        let r = mask2(&c, &d, |c, d| {
            if gt {
                key(c) < key(d)
            } else {
                key(d) <= key(c)
            }
        });
        if m & 8 != 0 {
            let vals = {
                let mut v = [0u32; LANES];
                for (l, slot) in v.iter_mut().enumerate() {
                    *slot = if r >> l & 1 != 0 { !0 } else { 0 };
                }
                v
            };
            let old = self.lreg[usize::from(vd.0 & 15)];
            let out = map2(en, &vals, &old, |v, _| v);
            self.dst_write(vd, en, &out, pc, insn)?;
        }
        if m & 1 != 0 {
            self.set_flags(en, r);
        }
        if m & 2 != 0 && self.sp > 0 {
            let top = &mut self.stack[self.sp - 1].0;
            if m & 4 != 0 {
                *top |= r;
            } else {
                *top &= r;
            }
        }
        Ok(())
    }
}
