//! Lane-array helpers shared by the instruction handlers, and the per-instruction register read
//! sets used for hazard and auto-stall checks (tensix.md §7; ISA-BH `SFPMAD.md` stall-logic
//! caveats).

use super::LANES;
use crate::tensix::isa::{self, Insn, Reg};

pub(super) type Lanes = [u32; LANES];

/// One LFSR step of the per-lane PRNG (VectorUnit.md: new top bit = complement of the parity of
/// `s & 0x80200003`, then shift right).
pub(in crate::tensix::sim) fn prng_step(s: u32) -> u32 {
    let taps = (s & 0x8020_0003).count_ones();
    ((!taps) << 31) | (s >> 1)
}

/// Sign-magnitude total order key (SFPSWAP/SFPGT/SFPLE).
#[inline(always)]
pub(super) fn key(x: u32) -> i32 {
    if x & 0x8000_0000 != 0 {
        (x ^ 0x7FFF_FFFF) as i32
    } else {
        x as i32
    }
}

#[inline(always)]
pub(super) fn shift(x: u32, amt: i32, arith: bool) -> u32 {
    if amt >= 0 {
        x << (amt & 31)
    } else {
        let s = amt.wrapping_neg() & 31;
        if arith {
            ((x as i32) >> s) as u32
        } else {
            x >> s
        }
    }
}

/// Lanewise combine: enabled lanes take `f(c, d)`, others keep `d`.
#[inline(always)]
pub(super) fn map2(en: u32, c: &Lanes, d: &Lanes, f: impl Fn(u32, u32) -> u32) -> Lanes {
    let mut out = *d;
    for l in 0..LANES {
        let r = f(c[l], d[l]);
        out[l] = if en >> l & 1 != 0 { r } else { d[l] };
    }
    out
}

/// Bit mask of lanes where `f(c, d)` holds.
#[inline(always)]
pub(super) fn mask2(c: &Lanes, d: &Lanes, f: impl Fn(u32, u32) -> bool) -> u32 {
    let mut m = 0u32;
    for l in 0..LANES {
        m |= u32::from(f(c[l], d[l])) << l;
    }
    m
}

/// `BooleanOp` of SFPPUSHC/SFPPOPC on lane masks.
pub(super) fn boolean_op(m: u8, a: u32, b: u32) -> u32 {
    match m {
        1 => b,
        2 => !b,
        3 => a & b,
        4 => a | b,
        5 => a & !b,
        6 => a | !b,
        7 => !a & b,
        8 => !a | b,
        9 => !a & !b,
        10 => !a | !b,
        11 => a ^ b,
        _ => !(a ^ b),
    }
}

pub(super) fn reg_bit(r: Reg) -> u32 {
    1u32 << (r.0 & 15)
}

/// Registers an instruction reads: `(actual, seen by the BH stall logic)`.
pub(super) fn reads(insn: &Insn) -> (u32, u32) {
    use Insn as I;
    let all = 0xFFFF;
    match *insn {
        I::Store { vd, .. } | I::MulI { vd, .. } | I::AddI { vd, .. } => (reg_bit(vd), reg_bit(vd)),
        I::LoadI { vd, mod0, .. } => {
            let r = if mod0 == isa::LoadIMod::UPPER || mod0 == isa::LoadIMod::LOWER {
                reg_bit(vd)
            } else {
                0
            };
            (r, r)
        }
        I::DivP2 { vc, .. }
        | I::ExExp { vc, .. }
        | I::ExMan { vc, .. }
        | I::Mov { vc, .. }
        | I::Abs { vc, .. }
        | I::Not { vc, .. }
        | I::Lz { vc, .. }
        | I::Cast { vc, .. }
        | I::SetCc { vc, .. } => (reg_bit(vc), reg_bit(vc)),
        I::IAdd { vc, vd, mod1, .. } => {
            let a = reg_bit(vc)
                | if mod1.contains(isa::IAddMod::IMM) {
                    0
                } else {
                    reg_bit(vd)
                };
            (a, reg_bit(vc))
        }
        I::Shft { vc, vd, mod1, .. } => {
            let c = if mod1.0 & 5 == 1 { 0 } else { reg_bit(vc) };
            (c | reg_bit(vd), c)
        }
        I::SetExp { vc, vd, .. } | I::SetMan { vc, vd, .. } | I::SetSgn { vc, vd, .. } => {
            (reg_bit(vc) | reg_bit(vd), reg_bit(vc) | reg_bit(vd))
        }
        I::Xor { vc, vd } | I::Le { vc, vd, .. } | I::Gt { vc, vd, .. } => {
            (reg_bit(vc) | reg_bit(vd), reg_bit(vc) | reg_bit(vd))
        }
        I::And { vb, vc, vd, mod1 } | I::Or { vb, vc, vd, mod1 } => {
            let b = if mod1.contains(isa::BitMod::USE_VB) {
                reg_bit(Reg(vb))
            } else {
                reg_bit(vd)
            };
            (reg_bit(vc) | b, reg_bit(vc) | reg_bit(vd))
        }
        I::Mad {
            va, vb, vc, mod1, ..
        }
        | I::Add {
            va, vb, vc, mod1, ..
        }
        | I::Mul {
            va, vb, vc, mod1, ..
        } => {
            let a = if mod1.contains(isa::MadMod::INDIRECT_VA) {
                all
            } else {
                reg_bit(va) | reg_bit(vb) | reg_bit(vc)
            } | if mod1.contains(isa::MadMod::INDIRECT_VD) {
                reg_bit(Reg::L7)
            } else {
                0
            };
            (a, a)
        }
        I::StochRnd { vb, vc, .. } => (reg_bit(vb) | reg_bit(vc), reg_bit(vb) | reg_bit(vc)),
        I::Swap { vc, vd, mod1 } => {
            let a = reg_bit(vc) | reg_bit(vd);
            // BH stall logic misses the compare reads of the min/max modes.
            (a, if mod1 == isa::SwapMod::SWAP { a } else { 0 })
        }
        I::Shft2 {
            imm12,
            vc,
            vd,
            mod1,
        } => match mod1.0 {
            5 => (
                reg_bit(vc) | reg_bit(Reg((imm12 & 15) as u8)),
                reg_bit(vc) | reg_bit(vd),
            ),
            6 => (reg_bit(Reg((imm12 & 15) as u8)), reg_bit(vd)),
            _ => (reg_bit(vc) | 0xF, 0),
        },
        I::Config { .. } => (1, 0),
        _ => (0, 0),
    }
}
