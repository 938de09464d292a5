//! The data-independent rules of the SFPLOADMACRO engine (tensix.md §6.2, §6.3): what one
//! Sequence byte schedules, the forget rule, which pending instructions fall due in a cycle, and
//! the structural checks of one cycle. None of them reads lane data, so the step-by-step engine
//! (`macro_engine`) and the ahead-of-time expansion (`expand`) share them and cannot disagree
//! on a schedule or on a structural hazard.

use super::subst::{sched_reads, substitute};
use super::{hz, MacroHazard, Pending, PlanEntry, Sched, Unit};
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{self, Arch, Insn};
use crate::tensix::sim::{MacroConfig, SimError};

/// The inputs of one Sequence byte's scheduling step besides the queue.
#[derive(Debug, Clone, Copy)]
pub(super) struct ByteCtx<'a> {
    pub cfg: &'a MacroConfig,
    pub arch: Arch,
    /// The macro (0..=3).
    pub m: usize,
    /// Its VD (0..=7).
    pub vd: u8,
    /// Its load mode.
    pub mod0: Mod0,
    pub seq: u32,
    pub misc: u16,
    /// The Dst address recorded by the load part (a Store's address).
    pub addr: u16,
}

/// A SFPLOADMACRO's decoded operands and the configuration it uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct MacroIssue {
    /// The macro (0..=3).
    pub m: usize,
    /// Its VD (0..=7: `lreg & 3` plus VDHi, Imm10 bit 0).
    pub vd: u8,
    /// The datum address offset (Imm10 without VDHi).
    pub imm: u16,
    pub seq: u32,
    pub misc: u16,
}

/// The checks of §6.2 before the load part of `SFPLOADMACRO lreg, …, imm10` (`base` = the Dst
/// address of offset 0 now): `VdHiCarry`, then an unconfigured Sequence or Misc.
pub(super) fn macro_issue(
    cfg: &MacroConfig,
    pc: usize,
    lreg: u8,
    imm10: u16,
    base: u16,
) -> Result<MacroIssue, SimError> {
    let m = usize::from(lreg >> 2) & 3;
    let vd = ((imm10 & 1) as u8) << 2 | (lreg & 3);
    if imm10 & 1 != 0 && base & 1 != 0 {
        return Err(hz(pc, MacroHazard::VdHiCarry { vd, base }));
    }
    let seq = cfg.sequences[m].ok_or_else(|| {
        hz(
            pc,
            MacroHazard::Unconfigured {
                what: format!("Sequence[{m}]"),
            },
        )
    })?;
    let misc = cfg.misc.ok_or_else(|| {
        hz(
            pc,
            MacroHazard::Unconfigured {
                what: "Misc".into(),
            },
        )
    })?;
    // Bit 0 of the address is unused (even base): the datum address is Imm10 without VDHi.
    Ok(MacroIssue {
        m,
        vd,
        imm: imm10 & !1,
        seq,
        misc,
    })
}

/// Source field of Sequence byte `i` (0 = schedule nothing, which the forget rule skips).
pub(super) fn byte_src(seq: u32, i: usize) -> u8 {
    (seq >> (8 * i)) as u8 & 7
}

/// What Sequence byte `i` (sub-unit `Unit::SCHEDULED[i]`) schedules: `None` for src 0, else the
/// entry, or the configuration hazard (§6.4 `UbTemplate`, `ClassMismatch`, `Unconfigured`,
/// `Unmodelled`) it is.
pub(super) fn plan_byte(c: &ByteCtx<'_>, i: usize) -> Result<Option<PlanEntry>, MacroHazard> {
    let unit = Unit::SCHEDULED[i];
    let b = (c.seq >> (8 * i)) as u8;
    let delay = (b >> 3) & 7;
    let vd16 = b & 0x40 != 0;
    let use_vb = b & 0x80 != 0;
    let src = b & 7;
    let what = match src {
        0 => return Ok(None),
        1 => {
            return Err(MacroHazard::UbTemplate {
                what: format!("Sequence[{}] byte {i}: src 1", c.m),
            })
        }
        2 if unit == Unit::Store => {
            return Err(MacroHazard::UbTemplate {
                what: "Store sub-unit fed SFPNOP".into(),
            })
        }
        2 => Sched::Nop,
        3 if unit != Unit::Store => {
            return Err(MacroHazard::ClassMismatch {
                mnemonic: "sfpstore",
                unit,
            })
        }
        _ => {
            let template = if src == 3 {
                None
            } else {
                let k = usize::from(src - 4);
                let w = c.cfg.templates[k].ok_or_else(|| MacroHazard::Unconfigured {
                    what: format!("InstructionTemplate[{k}]"),
                })?;
                Some(isa::decode(w, c.arch).map_err(|e| MacroHazard::Unmodelled {
                    what: format!("InstructionTemplate[{k}]: {e}"),
                })?)
            };
            if unit == Unit::Store {
                let tvd = match template {
                    None => 0,
                    Some(Insn::Store { vd, .. }) => vd.0,
                    Some(t) => {
                        return Err(MacroHazard::UbTemplate {
                            what: format!("Store sub-unit fed {}", t.info().mnemonic),
                        })
                    }
                };
                let svd = if vd16 {
                    16
                } else if use_vb {
                    tvd
                } else {
                    c.vd
                };
                let smod = if c.misc >> (4 + c.m) & 1 != 0 {
                    c.mod0
                } else {
                    Mod0::from_bits((c.misc & 0xF) as u8).unwrap_or(Mod0::SrcB)
                };
                Sched::Store {
                    vd: svd,
                    mod0: smod,
                    imm10: c.addr,
                }
            } else {
                let t = template.unwrap_or(Insn::Nop);
                if super::unit_of(&t) != Some(unit) {
                    return Err(MacroHazard::ClassMismatch {
                        mnemonic: t.info().mnemonic,
                        unit,
                    });
                }
                let (insn, din) = substitute(&t, c.vd, use_vb)?;
                Sched::Op {
                    insn,
                    din,
                    dest: if vd16 { 16 } else { c.vd },
                }
            }
        }
    };
    Ok(Some(PlanEntry {
        unit,
        what,
        delay,
        by_insns: c.misc >> (8 + i) & 1 != 0,
    }))
}

/// The forget rule (§6.2 step 2) for a byte that schedules something on `unit` with `delay`:
/// a pending instruction there with that remaining delay is dropped (removed from `pending`),
/// which the simulator reports as `Forgotten`.
pub(super) fn forget(
    pending: &mut Vec<Pending>,
    pc: usize,
    unit: Unit,
    delay: u8,
) -> Result<(), SimError> {
    if delay == 7 {
        return Ok(());
    }
    if let Some(k) = pending
        .iter()
        .position(|p| p.unit == unit && p.remaining == delay)
    {
        pending.remove(k);
        return Err(hz(pc, MacroHazard::Forgotten { unit, delay }));
    }
    Ok(())
}

/// One cycle's countdown (§6.2 step 3a): the entries due now leave `pending` into `due` (in
/// queue order, then stably by sub-unit), the others count down.
pub(super) fn take_due(pending: &mut Vec<Pending>, due: &mut Vec<Pending>) {
    due.clear();
    pending.retain_mut(|p| {
        if p.remaining == 0 {
            due.push(*p);
            false
        } else {
            p.remaining -= 1;
            true
        }
    });
    due.sort_by_key(|p| p.unit.index());
}

/// The structural checks of one cycle in which `due` executes beside the regular instruction
/// `regular` (`None` for a stall cycle): priority (`RegularCollision`), (‡) both halves, (†),
/// and the scheduled MAD latency, given the previous cycle's scheduled MAD writes `mad_last`
/// and scheduled SWAP `swap_last`. Returns this cycle's `(mad_last, swap_last)` for the next.
pub(super) fn tick_checks(
    regular: Option<&Insn>,
    pc: usize,
    due: &[Pending],
    mad_last: u32,
    swap_last: bool,
) -> Result<(u32, bool), SimError> {
    let reg_unit = regular.and_then(super::unit_of);
    let reg_mn = regular.map_or("cycle", |i| i.info().mnemonic);

    // Priority: the scheduled instruction wins, the regular one is discarded in hardware.
    if let Some(u) = reg_unit {
        if due.iter().any(|p| p.unit == u && p.what != Sched::Nop) {
            return Err(hz(
                pc,
                MacroHazard::RegularCollision {
                    mnemonic: reg_mn,
                    unit: u,
                },
            ));
        }
    }
    // (‡) second half: nothing on Simple/Round right after a scheduled SWAP.
    if swap_last {
        let busy = due
            .iter()
            .any(|p| matches!(p.unit, Unit::Simple | Unit::Round) && p.what != Sched::Nop);
        if busy {
            return Err(hz(
                due.first().map_or(pc, |p| p.pc),
                MacroHazard::SwapNextCycle {
                    what: "a scheduled Simple/Round instruction",
                },
            ));
        }
        if matches!(reg_unit, Some(Unit::Simple | Unit::Round)) {
            return Err(hz(
                pc,
                MacroHazard::SwapNextCycle {
                    what: "a regular Simple/Round instruction",
                },
            ));
        }
    }
    // (†) Simple and Round in one cycle: exactly one writes L16.
    let vd_of = |u: Unit| -> Option<u8> {
        due.iter()
            .find(|p| p.unit == u)
            .and_then(|p| match p.what {
                Sched::Op { dest, .. } => Some(dest),
                _ => None,
            })
            .or_else(|| {
                (reg_unit == Some(u))
                    .then(|| regular.and_then(|i| i.vd_field()))
                    .flatten()
            })
    };
    if let (Some(s), Some(r)) = (vd_of(Unit::Simple), vd_of(Unit::Round)) {
        if (s == 16) == (r == 16) {
            return Err(hz(
                pc,
                MacroHazard::SameCycle {
                    simple_vd: s,
                    round_vd: r,
                },
            ));
        }
    }
    // (‡) first half.
    let swap_now = due.iter().any(|p| {
        matches!(
            p.what,
            Sched::Op {
                insn: Insn::Swap { .. },
                ..
            }
        )
    });
    if swap_now {
        let mad_nop = due
            .iter()
            .any(|p| p.unit == Unit::Mad && p.what == Sched::Nop)
            || matches!(regular, Some(Insn::Nop));
        if !mad_nop {
            return Err(hz(pc, MacroHazard::SwapNeedsMadNop));
        }
    }
    // Scheduled MAD results are not readable in the next cycle.
    if mad_last != 0 {
        let mut reads = regular.map_or(0, |i| crate::tensix::sim::exec::insn_reads(i).0 & 0xFFFF);
        for p in due {
            reads |= match p.what {
                Sched::Op { insn, din, .. } => sched_reads(&insn, din),
                Sched::Store { vd, .. } => 1 << vd,
                Sched::Nop => 0,
            };
        }
        if reads & mad_last != 0 {
            return Err(hz(
                due.first().map_or(pc, |p| p.pc),
                MacroHazard::MadHazard {
                    reg: (reads & mad_last).trailing_zeros() as usize,
                },
            ));
        }
    }
    let mut mad_now = 0u32;
    for p in due {
        if let Sched::Op { dest, .. } = p.what {
            if p.unit == Unit::Mad {
                mad_now |= 1 << dest;
            }
        }
    }
    Ok((mad_now, swap_now))
}
