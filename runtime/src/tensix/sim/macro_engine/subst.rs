//! Operand overrides of macro-scheduled instructions (tensix.md §6.2 step 2): which register
//! becomes VC / VB / the "d" operand, SHFT2 SHFT_IMM as its lanewise SFPSHFT form, and the
//! register read sets used by the hazard checks.
//!
//! Invariant: a rewritten instruction carries a placeholder VD (L0); its real "d" operand is
//! returned separately and substituted by the engine through a scratch register.

use super::MacroHazard;
use crate::tensix::isa::{self, Insn, Reg};

/// Registers read by a scheduled op whose "d" operand (VD position) is `din`.
pub(super) fn sched_reads(insn: &Insn, din: u8) -> u32 {
    crate::tensix::sim::exec::insn_reads(&with_vd(insn, Reg(din & 15))).0
}

/// The VD field of the instructions whose result a scheduled slot can redirect (the ones
/// [`with_vd`] renames); `None` for the others.
pub(super) fn vd_slot(i: &mut Insn) -> Option<&mut Reg> {
    use Insn as I;
    match i {
        I::MulI { vd, .. }
        | I::AddI { vd, .. }
        | I::DivP2 { vd, .. }
        | I::ExExp { vd, .. }
        | I::ExMan { vd, .. }
        | I::IAdd { vd, .. }
        | I::Shft { vd, .. }
        | I::Mov { vd, .. }
        | I::Abs { vd, .. }
        | I::And { vd, .. }
        | I::Or { vd, .. }
        | I::Not { vd, .. }
        | I::Lz { vd, .. }
        | I::SetExp { vd, .. }
        | I::SetMan { vd, .. }
        | I::Mad { vd, .. }
        | I::Add { vd, .. }
        | I::Mul { vd, .. }
        | I::SetSgn { vd, .. }
        | I::Xor { vd, .. }
        | I::StochRnd { vd, .. }
        | I::Cast { vd, .. }
        | I::Swap { vd, .. }
        | I::Shft2 { vd, .. } => Some(vd),
        _ => None,
    }
}

/// `insn` with its VD field replaced (unchanged for instructions without a VD result).
pub fn with_vd(insn: &Insn, r: Reg) -> Insn {
    let mut i = *insn;
    if let Some(vd) = vd_slot(&mut i) {
        *vd = r;
    }
    i
}

/// Applies the operand overrides of §6.2 to a template for a non-store sub-unit: returns the
/// rewritten instruction (VD field = placeholder 0) and its "d" operand register.
pub(super) fn substitute(t: &Insn, m: u8, use_vb: bool) -> Result<(Insn, u8), MacroHazard> {
    use Insn as I;
    let mr = Reg(m);
    let tvd = t.vd_field().unwrap_or(0);
    let un = |what: &str| MacroHazard::Unmodelled {
        what: format!("template {}: {what}", t.info().mnemonic),
    };
    let (i, din) = match *t {
        // MAD class: VB is the multiplicand.
        I::Mad { .. } | I::Add { .. } | I::Mul { .. } => {
            let mut i = *t;
            if let I::Mad { vb, vc, .. } | I::Add { vb, vc, .. } | I::Mul { vb, vc, .. } = &mut i {
                if use_vb {
                    *vb = mr;
                } else {
                    *vc = mr;
                }
            }
            (i, tvd)
        }
        // ADDI/MULI: the operand is VC := macro VD (their "VC = VD" default is skipped).
        I::AddI { .. } | I::MulI { .. } => (*t, m),
        I::StochRnd { .. } => {
            let mut i = *t;
            if let I::StochRnd { vb, vc, .. } = &mut i {
                if use_vb {
                    *vb = mr;
                } else {
                    *vc = mr;
                }
            }
            (i, tvd)
        }
        I::Shft2 {
            imm12, vc, mod1, ..
        } => match mod1.0 {
            5 => {
                let (imm12, vc) = if use_vb {
                    (i16::from(m), vc)
                } else {
                    (imm12, mr)
                };
                (
                    I::Shft2 {
                        imm12,
                        vc,
                        vd: Reg(0),
                        mod1,
                    },
                    tvd,
                )
            }
            // SHFT_IMM: `VB = Imm12 & 15` is skipped when VB is substituted; the lanewise shift
            // of LReg[VB] by Imm12 is exactly SFPSHFT IMM on a copy of VB (D5 plain form).
            6 => {
                let src = if use_vb { m } else { (imm12 & 15) as u8 };
                (
                    I::Shft {
                        imm12,
                        vc: Reg(0),
                        vd: Reg(0),
                        mod1: isa::ShftMod::IMM,
                    },
                    src,
                )
            }
            _ => return Err(un("cross-lane SFPSHFT2 modes")),
        },
        I::Swap { vc, .. } => {
            if use_vb {
                (*t, m)
            } else {
                let mut i = *t;
                if let I::Swap { vc: c, .. } = &mut i {
                    *c = mr;
                }
                let _ = vc;
                (i, tvd)
            }
        }
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
        | I::Cast { .. } => {
            if use_vb {
                (*t, m)
            } else {
                let mut i = *t;
                match &mut i {
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
                    | I::Cast { vc, .. } => *vc = mr,
                    _ => {}
                }
                (i, tvd)
            }
        }
        _ => return Err(un("instruction kind not schedulable")),
    };
    Ok((with_vd(&i, Reg(0)), din))
}
