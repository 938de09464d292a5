//! Scheduling of a rule's body (tensix.md §7): the dependency DAG (petgraph) and a list
//! scheduler that fills MAD latency slots.
//!
//! The DAG has an edge `a → b` when `b` must stay after `a`:
//! * register dependences (read-after-write, write-after-read, write-after-write), with the read
//!   sets of the simulator's hazard checks (`sim::register_reads`);
//! * lane-flag barriers: every instruction runs under the current lane enables, so nothing moves
//!   across an instruction that changes flags or the CC stack (SETCC, ENCC, COMPC, PUSHC, POPC,
//!   and SFPIADD / SFPEXEXP / SFPLZ / SFPGT / SFPLE in their flag-writing modes);
//! * Dst order: loads and stores keep their relative order (they share RWC.Dst).
//!
//! The scheduler takes ready instructions in the rule's order, except that an instruction that
//! would read a MAD-class result in the very next cycle is passed over for a ready independent
//! one. When none exists, Wormhole gets an SFPNOP (it has no interlock: `MadHazard`), Blackhole
//! nothing (the hardware stalls one cycle, which the cycle model counts).
//!
//! Invariant: the output is a topological order of the DAG plus NOPs, so it computes exactly what
//! the rule wrote (the prover checks the scheduled program, not the rule's order).

use petgraph::graph::{DiGraph, NodeIndex};
use petgraph::Direction;
use pto_runtime::tensix::isa::{Arch, Insn};
use pto_runtime::tensix::sim::{bh_stall_reads, register_reads};

use super::builder::Line;

fn bit(r: pto_runtime::tensix::isa::Reg) -> u32 {
    1u32 << (r.0 & 15)
}

/// Registers `insn` writes: its VD field, except for instructions that write no register
/// (stores, flag and stack instructions, NOP, CONFIG); SFPSWAP writes VC too. An instruction
/// with no VD field is treated as writing everything (never reordered past).
pub fn register_writes(insn: &Insn) -> u32 {
    use Insn as I;
    match *insn {
        I::Store { .. }
        | I::SetCc { .. }
        | I::EnCc { .. }
        | I::CompC { .. }
        | I::PushC { .. }
        | I::PopC { .. }
        | I::Nop
        | I::Config { .. }
        | I::Replay { .. } => 0,
        I::Swap { vc, vd, .. } => bit(vc) | bit(vd),
        _ => insn.vd_field().map_or(0xFFFF, |vd| 1u32 << (vd & 15)),
    }
}

/// Whether `insn` changes lane flags or the CC stack.
pub fn touches_flags(insn: &Insn) -> bool {
    use Insn as I;
    match *insn {
        I::SetCc { .. } | I::EnCc { .. } | I::CompC { .. } | I::PushC { .. } | I::PopC { .. } => {
            true
        }
        I::IAdd { mod1, .. } => mod1.bits() & 4 == 0,
        I::ExExp { mod1, .. } => mod1.bits() & 0xA != 0,
        I::Lz { mod1, .. } => mod1.bits() & 0xA != 0,
        // SET_CC (and the stack modes) write flags; SET_VD alone only writes VD.
        I::Gt { mod1, .. } | I::Le { mod1, .. } => mod1.bits() & 7 != 0,
        _ => false,
    }
}

/// Whether every SFPSTORE of `body` runs with all lanes enabled (from the D7 row state). A store
/// under narrowed lane flags would leave the input datum in the skipped lanes — a result the
/// prover can miss when input and output happen to agree — so `lower_combo` rejects such a body.
/// Flag writes narrow; `SFPENCC` that sets every flag re-enables all lanes; PUSHC/POPC save and
/// restore.
pub fn stores_with_all_lanes(body: &[Line]) -> bool {
    let mut narrowed = false;
    let mut stack = Vec::new();
    for l in body {
        match l.insn {
            Insn::Store { .. } if narrowed => return false,
            // LaneFlags := (mod1 & 8) ? imm bit 1 : true (tensix.md §1.2).
            Insn::EnCc { imm2, mod1, .. } => narrowed = mod1.bits() & 8 != 0 && imm2 & 2 == 0,
            Insn::PushC { .. } => stack.push(narrowed),
            Insn::PopC { .. } => narrowed = stack.pop().unwrap_or(true),
            ref i if touches_flags(i) => narrowed = true,
            _ => {}
        }
    }
    true
}

/// MAD-class instructions (result latency 2).
pub fn is_mad(insn: &Insn) -> bool {
    matches!(
        insn,
        Insn::Mad { .. }
            | Insn::Add { .. }
            | Insn::Mul { .. }
            | Insn::AddI { .. }
            | Insn::MulI { .. }
    )
}

fn is_dst_access(insn: &Insn) -> bool {
    matches!(
        insn,
        Insn::Load { .. } | Insn::Store { .. } | Insn::LoadMacro { .. }
    )
}

/// The dependency DAG of `body` (node weight = index into `body`).
pub fn dependency_graph(body: &[Line]) -> DiGraph<usize, ()> {
    let mut g = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..body.len()).map(|i| g.add_node(i)).collect();
    for (j, lj) in body.iter().enumerate() {
        let (rj, wj) = (register_reads(&lj.insn), register_writes(&lj.insn));
        let (fj, dj) = (touches_flags(&lj.insn), is_dst_access(&lj.insn));
        for (i, li) in body.iter().enumerate().take(j) {
            let (ri, wi) = (register_reads(&li.insn), register_writes(&li.insn));
            let dep = wi & rj != 0
                || ri & wj != 0
                || wi & wj != 0
                || fj
                || touches_flags(&li.insn)
                || (dj && is_dst_access(&li.insn));
            if dep {
                g.add_edge(nodes[i], nodes[j], ());
            }
        }
    }
    g
}

/// List-schedules `body` (see the module doc).
pub fn schedule(body: Vec<Line>, arch: Arch) -> Vec<Line> {
    let g = dependency_graph(&body);
    let n = body.len();
    let mut preds: Vec<usize> = (0..n)
        .map(|i| {
            g.neighbors_directed(NodeIndex::new(i), Direction::Incoming)
                .count()
        })
        .collect();
    let mut done = vec![false; n];
    let mut out = Vec::with_capacity(n + 4);
    let mut mad_written = 0u32;
    let mut emitted = 0;
    while emitted < n {
        let ready: Vec<usize> = (0..n).filter(|&i| !done[i] && preds[i] == 0).collect();
        let safe = ready
            .iter()
            .copied()
            .find(|&i| register_reads(&body[i].insn) & mad_written == 0);
        let pick = match (safe, ready.first().copied()) {
            (Some(i), _) => i,
            (None, Some(i)) => {
                let reads = register_reads(&body[i].insn) & mad_written;
                if arch == Arch::Wh {
                    out.push(Line {
                        insn: Insn::Nop,
                        comment: "MAD result latency (Wormhole has no interlock)".into(),
                    });
                } else if reads & !bh_stall_reads(&body[i].insn) != 0 {
                    out.push(Line {
                        insn: Insn::Nop,
                        comment: "MAD result latency (read the Blackhole interlock misses)".into(),
                    });
                }
                i
            }
            // Unreachable for a DAG built from a sequence; stop rather than loop.
            (None, None) => break,
        };
        done[pick] = true;
        emitted += 1;
        for s in g.neighbors_directed(NodeIndex::new(pick), Direction::Outgoing) {
            if let Some(p) = preds.get_mut(s.index()) {
                *p = p.saturating_sub(1);
            }
        }
        let insn = body[pick].insn;
        mad_written = if is_mad(&insn) {
            register_writes(&insn)
        } else {
            0
        };
        out.push(body[pick].clone());
    }
    // A MAD result stored by the next row's first instructions is never read across rows:
    // every row starts with its own load. Still, on Wormhole a trailing MAD would be read by
    // nothing in the next cycle, so no NOP is needed at the end.
    out
}

/// Drain after the loop: plain kernels leave nothing pending.
pub fn drain_for(_body: &[Line], _arch: Arch) -> Vec<Line> {
    Vec::new()
}

#[cfg(test)]
mod tests {
    use super::*;
    use pto_runtime::tensix::asm::assemble;

    fn lines(text: &str) -> Vec<Line> {
        assemble(text, Arch::Bh)
            .map(|p| {
                p.insns
                    .into_iter()
                    .map(|insn| Line {
                        insn,
                        comment: String::new(),
                    })
                    .collect()
            })
            .unwrap_or_default()
    }

    #[test]
    fn a_store_under_narrowed_flags_is_found() {
        let narrowed = lines(
            "sfpload L0, INT32, ADDR_MOD_7, 0\nsfpsetcc 0, L0, 0, LREG_LT0\nsfpstore L0, INT32, ADDR_MOD_6, 0\n",
        );
        assert_eq!(narrowed.len(), 3);
        assert!(!stores_with_all_lanes(&narrowed));
        let restored = lines(
            "sfpload L0, INT32, ADDR_MOD_7, 0\nsfppushc 0, 0, 0, 0\nsfpsetcc 0, L0, 0, LREG_LT0\nsfppopc 0, 0, 0, 0\nsfpstore L0, INT32, ADDR_MOD_6, 0\n",
        );
        assert_eq!(restored.len(), 5);
        assert!(stores_with_all_lanes(&restored));
        let reenabled = lines(
            "sfpload L0, INT32, ADDR_MOD_7, 0\nsfpiadd 0, L0, L1, 0\nsfpencc 0, 0, 0, 0\nsfpstore L0, INT32, ADDR_MOD_6, 0\n",
        );
        assert_eq!(reenabled.len(), 4);
        assert!(stores_with_all_lanes(&reenabled));
    }

    #[test]
    fn wormhole_gets_a_nop_only_where_no_instruction_fills_the_mad_slot() {
        let body = lines("sfpload L0, INT32, ADDR_MOD_3, 0\nsfpmad L0, L10, L9, L1, 0\nsfpstore L1, INT32, ADDR_MOD_2, 0\n");
        assert_eq!(body.len(), 3);
        let wh = schedule(body.clone(), Arch::Wh);
        assert_eq!(wh.len(), 4);
        assert_eq!(wh[2].insn, Insn::Nop);
        assert_eq!(schedule(body, Arch::Bh).len(), 3);
    }
}
