//! The candidate search (`macro_form`): tries slot choices, register rotations and row counts
//! within a budget of short simulations, keeps the fastest candidate that the simulator runs
//! without hazards and that equals the plain program on the sample words; memoised per kernel.
//! Placement and building of one candidate live in the parent module, its admission check in
//! `admit`.

use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::Kernel;

use super::*;

type Memo = HashMap<(Arch, Vec<Insn>, Vec<Insn>), Option<MacroForm>>;

fn memo() -> &'static Mutex<Memo> {
    static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// Candidate checks per kernel (each is a short simulation).
const BUDGET: usize = 36;

/// Rows one body run may hold: `v` rotates through that many registers, so a slot may read `v`
/// up to that many periods after its load. Divisors of a face's 8 rows only (tt-llk runs
/// `ITERATIONS = 8` per face; the batch simulator and the prover chunk by whole bodies).
const ROTATIONS: [usize; 3] = [1, 2, 4];
const MAX_ROWS: usize = 4;

/// The fastest proven-safe macro form of a plain kernel, if it beats the plain program (module
/// doc). Deterministic; memoised.
pub fn macro_form(arch: Arch, init: &[Line], body: &[Line]) -> Option<MacroForm> {
    let key = (
        arch,
        init.iter().map(|l| l.insn).collect::<Vec<_>>(),
        body.iter().map(|l| l.insn).collect::<Vec<_>>(),
    );
    if let Ok(m) = memo().lock() {
        if let Some(hit) = m.get(&key) {
            return hit.clone();
        }
    }
    let found = search(arch, init, body);
    if let Ok(mut m) = memo().lock() {
        m.insert(key, found.clone());
    }
    found
}

fn search(arch: Arch, init: &[Line], plain_body: &[Line]) -> Option<MacroForm> {
    // The plain schedule's latency NOPs are dropped: placement inserts its own.
    let body: Vec<Line> = plain_body
        .iter()
        .filter(|l| l.insn != Insn::Nop)
        .cloned()
        .collect();
    let body = body.as_slice();
    let n = body.len();
    let Insn::Load { vd: v, mod0, .. } = body.first()?.insn else {
        return None;
    };
    let Insn::Store {
        vd: out,
        mod0: smod,
        ..
    } = body.last()?.insn
    else {
        return None;
    };
    if v.0 >= 8 || mod0 != Mod0::Int32 || smod != Mod0::Int32 || n < 2 {
        return None;
    }
    // One load and one store per row, no configuration or macros of its own.
    let inner = body.get(1..n - 1)?;
    if inner.iter().any(|l| {
        matches!(
            l.insn,
            Insn::Load { .. }
                | Insn::Store { .. }
                | Insn::LoadMacro { .. }
                | Insn::Config { .. }
                | Insn::Replay { .. }
        )
    }) {
        return None;
    }
    let plain = Kernel {
        init: prog(init),
        body: prog(plain_body),
        drain: Kernel::default().drain,
    };
    let plain_rep = steady_state(
        arch,
        super::super::prove::kernel_sim_config(),
        &plain.init,
        &plain.body,
        &plain.drain,
        2,
    )
    .ok()?;
    let plain_cycles = plain_rep.cycles_per_body;
    let narrowed = narrowed_before(body);
    let forms: Vec<(usize, SlotForm)> = (1..n - 1)
        .filter_map(|i| slot_form(body, i, v, narrowed[i]).map(|f| (i, f)))
        .collect();
    // Rotation partners: registers the body never names.
    let used = body
        .iter()
        .chain(init)
        .fold(bit(Reg::L7), |m, l| m | named_regs(&l.insn));
    let alts: Vec<Reg> = (0..8u8)
        .map(Reg)
        .filter(|r| used & bit(*r) == 0 && r.0 != 7)
        .take(MAX_ROWS - 1)
        .collect();
    let mut choices = Vec::new();
    let by_unit = |u: Unit| -> Vec<Option<(usize, SlotForm)>> {
        let mut c: Vec<Option<(usize, SlotForm)>> = forms
            .iter()
            .filter(|(_, f)| f.unit == u)
            .map(|x| Some(*x))
            .collect();
        c.push(None);
        c
    };
    for s in by_unit(Unit::Simple) {
        for m in by_unit(Unit::Mad) {
            for r in by_unit(Unit::Round) {
                let mut slots: Vec<(usize, SlotForm)> = [s, m, r].into_iter().flatten().collect();
                slots.sort_by_key(|(i, _)| *i);
                let l16 = slots.iter().filter(|(_, f)| f.vd16).count();
                if l16 > 1 {
                    continue;
                }
                if l16 == 1 {
                    choices.push(Choice {
                        slots,
                        store: true,
                        store_vd16: true,
                    });
                } else {
                    if out == v {
                        choices.push(Choice {
                            slots: slots.clone(),
                            store: true,
                            store_vd16: false,
                        });
                    }
                    if !slots.is_empty() {
                        choices.push(Choice {
                            slots,
                            store: false,
                            store_vd16: false,
                        });
                    }
                }
            }
        }
    }
    // Lower bound of cycles per row: 1 + regular instructions.
    let regular_count = |c: &Choice| n - 1 - c.slots.len() - usize::from(c.store);
    choices.sort_by_key(|c| regular_count(c));
    let (words, plain_out) = plain_reference(arch, &plain)?;
    if std::env::var_os("PTOC_MACRO_DEBUG").is_some() {
        eprintln!(
            "macro search: {} choices, plain {plain_cycles} cycles per row, slot forms {:?}",
            choices.len(),
            forms.iter().map(|(i, f)| (*i, f.unit)).collect::<Vec<_>>()
        );
    }
    let mut best: Option<(u64, MacroForm)> = None;
    let mut budget = BUDGET;
    for c in &choices {
        let lb = (regular_count(c) as u64 + 1).max(1);
        if let Some((b, _)) = &best {
            if lb >= *b {
                break;
            }
        }
        if lb >= plain_cycles {
            break;
        }
        let k = c.slots.len() + usize::from(c.store);
        let mut slack = vec![0u32; k];
        let mut repairs = 0;
        'repair: while repairs < 8 && budget > 0 {
            let pl = place(body, c, &slack, arch)?;
            for p in pl.period..pl.period + 3 {
                if let Some(i) = static_conflict(body, c, &pl, p) {
                    // Delay the offending slot and re-place (bounded).
                    let pos = c.slots.iter().position(|(j, _)| *j == i).unwrap_or(k - 1);
                    if let Some(s) = slack.get_mut(pos) {
                        *s += 1;
                    }
                    repairs += 1;
                    continue 'repair;
                }
                let pins = c.slots.iter().any(|(_, f)| f.pins_v);
                for rows in ROTATIONS {
                    if rows > 1 && (pins || alts.len() < rows - 1) {
                        continue;
                    }
                    if budget == 0 {
                        break 'repair;
                    }
                    budget -= 1;
                    let Some(m) = build(arch, init, body, c, &pl, p, rows, &alts) else {
                        continue;
                    };
                    if let Some(cyc) = check(arch, &plain, &plain_out, &m, &words) {
                        let per_row_x = cyc; // cycles per body run
                                             // `b` is the best form's cycles per row.
                        let better = match &best {
                            None => true,
                            Some((b, _)) => per_row_x < *b * (rows as u64),
                        };
                        if per_row_x < plain_cycles * rows as u64 && better {
                            best = Some((per_row_x / rows as u64, m));
                        }
                        break 'repair;
                    }
                }
            }
            // Nothing passed at these periods: try one more cycle of slack on the last slot.
            if let Some(s) = slack.last_mut() {
                *s += 1;
            }
            repairs += 1;
        }
    }
    best.map(|(_, m)| m)
}
