//! Issue-level timing of regular instructions (tensix.md §7; ISA-BH `SFPMAD.md` stall logic,
//! ISA-WH `SFPSHFT2.md`): the auto-stall a regular instruction owes, the issue hazards it trips,
//! and the issue state its handler leaves for the next instruction. Pure functions of the
//! instruction stream — no lane data — shared by `Machine::step` and the macro expansion
//! (`macro_engine::expand`), which computes a program's whole schedule ahead of execution.

use super::lanes::{reads, reg_bit};
use super::SimError;
use crate::tensix::isa::{self, Arch, Insn};

/// The issue state between two regular instructions (what `step` reads before issuing).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub(in crate::tensix::sim) struct IssueState {
    /// Registers written by the previous instruction if it was MAD-class.
    pub mad_pending: u32,
    /// The previous instruction needs a free following cycle (SFPSWAP, cross-lane SFPSHFT2 on BH).
    pub busy_next: bool,
    /// Wormhole: VD of a cross-lane SFPSHFT2 issued in the previous cycle.
    pub wh_shuffle: Option<u8>,
}

/// The stall cycles `insn` owes after `prev` (0 or 1), or the issue hazard it trips
/// (`MadHazard`, `ShuffleHazard`).
pub(in crate::tensix::sim) fn issue_stall(
    insn: &Insn,
    pc: usize,
    arch: Arch,
    prev: &IssueState,
) -> Result<u64, SimError> {
    let (actual, seen) = reads(insn);
    let mut stall = 0u64;
    if prev.mad_pending & actual != 0 {
        let undetected = match arch {
            Arch::Wh => prev.mad_pending & actual,
            Arch::Bh => prev.mad_pending & actual & !seen,
        };
        if undetected != 0 {
            return Err(SimError::MadHazard {
                pc,
                reg: undetected.trailing_zeros() as usize,
            });
        }
        stall = 1;
    } else if prev.mad_pending & seen != 0 && arch == Arch::Bh {
        stall = 1;
    }
    if prev.busy_next && !matches!(insn, Insn::Nop) {
        stall = stall.max(1);
    }
    if let Some(vd) = prev.wh_shuffle {
        use Insn as I;
        let forbidden = matches!(
            insn,
            I::Abs { .. }
                | I::And { .. }
                | I::Cast { .. }
                | I::DivP2 { .. }
                | I::ExExp { .. }
                | I::ExMan { .. }
                | I::IAdd { .. }
                | I::Lz { .. }
                | I::Mov { .. }
                | I::Not { .. }
                | I::Or { .. }
                | I::SetExp { .. }
                | I::SetMan { .. }
                | I::SetSgn { .. }
                | I::Shft { .. }
                | I::StochRnd { .. }
                | I::Xor { .. }
        ) || matches!(insn, I::Shft2 { mod1, .. } if matches!(mod1.0, 0 | 1 | 5 | 6));
        let reads_vd = vd < 8 && actual >> vd & 1 != 0;
        if forbidden || reads_vd {
            return Err(SimError::ShuffleHazard {
                pc,
                mnemonic: insn.info().mnemonic,
            });
        }
    }
    Ok(stall)
}

/// The issue state a successful execution of `insn` leaves (what its handler sets after `step`
/// cleared it): MAD-class results pending (every LReg with INDIRECT_VD), SFPSWAP and BH
/// cross-lane SFPSHFT2 owing a free cycle, WH cross-lane SFPSHFT2's shuffle hazard. Mirrors the
/// assignments in `exec_mad`, the SFPMULI/SFPADDI arm of `execute`, `exec_swap` and
/// `exec_shft2`; `macro_engine::stream` checks the two agree at the end of every expanded run.
pub(in crate::tensix::sim) fn issue_effects(insn: &Insn, arch: Arch) -> IssueState {
    use Insn as I;
    let mut s = IssueState::default();
    match *insn {
        I::Mad { vd, mod1, .. } | I::Add { vd, mod1, .. } | I::Mul { vd, mod1, .. } => {
            s.mad_pending = if mod1.contains(isa::MadMod::INDIRECT_VD) {
                0xFF
            } else {
                reg_bit(vd)
            };
        }
        I::MulI { vd, mod1, .. } | I::AddI { vd, mod1, .. } => {
            s.mad_pending = if mod1.contains(isa::MadMod::INDIRECT_VD) {
                0xFF
            } else {
                reg_bit(vd)
            };
        }
        I::Swap { .. } => s.busy_next = true,
        I::Shft2 { vd, mod1, .. } if matches!(mod1.0, 3 | 4) => match arch {
            Arch::Bh => s.busy_next = true,
            Arch::Wh => s.wh_shuffle = Some(vd.0),
        },
        _ => {}
    }
    s
}
