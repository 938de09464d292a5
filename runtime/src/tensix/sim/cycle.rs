//! The steady-state cycle model of tensix.md §7 / D9: one SFPU issue per cycle, auto-stall cycles
//! (BH MAD dependency, SFPSWAP, cross-lane SFPSHFT2) counted by the simulator, macro-scheduled
//! instructions using no issue slot, and the per-row figure measured over ≥ 2 tiles of loop-body
//! iterations after a warm-up.
//!
//! Method: run `init` once, then the loop body repeatedly (D7 kernel state before each run) on a
//! zero Dst; `T(n)` = cumulative cycles after body run `n`. The body advances RWC.Dst by
//! `2·rows` per run (tt-llk typecast address modes), which gives its rows per run (the register
//! alternation period P is whatever the listing unrolls). The measured figure is
//! `(T(N) − T(n0)) / ((N − n0)·rows)` with `n0 = N/2`; the static figure is
//! `(issue slots + stall cycles of one steady run) / rows`; both must agree ([`CycleError::
//! Disagree`]). The drain program (trailing SFPNOPs) runs last and must leave nothing pending.
//!
//! Invariant: figures come only from simulated runs; nothing panics.

use super::{Machine, SimConfig, SimError};
use crate::tensix::dest::Dest;
use crate::tensix::isa::{Arch, Program};

/// SFPU rows of one 32×32 tile.
pub const ROWS_PER_TILE: usize = 32;

/// Errors of the cycle model.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CycleError {
    /// The simulator failed (in `phase`: init, body run `run`, or drain).
    #[error("{phase} (body run {run}): {source}")]
    Sim {
        phase: &'static str,
        run: usize,
        source: SimError,
    },
    /// The body does not advance RWC.Dst by a positive even amount per run.
    #[error("the loop body advances RWC.Dst by {advance} per run; expected a positive even amount (2 per row)")]
    NoAdvance { advance: u16 },
    /// The measured and static figures differ (the body is not in a steady state).
    #[error("measured {measured_num}/{den} cycles per row but the static count gives {static_num}/{den}")]
    Disagree {
        measured_num: u64,
        static_num: u64,
        den: u64,
    },
}

/// The cycle model's report.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CycleReport {
    /// SFPU rows processed by one body run.
    pub rows_per_body: usize,
    /// Steady-state cycles per body run (issue slots + stall cycles).
    pub cycles_per_body: u64,
    /// Issue slots per body run.
    pub issue_slots_per_body: u64,
    /// Auto-stall cycles per body run.
    pub stalls_per_body: u64,
    /// Body runs simulated.
    pub runs: usize,
    /// Cycles of the drain program (trailing NOPs).
    pub drain_cycles: u64,
    /// Cycles of the init program (per-kernel overhead, not per row).
    pub init_cycles: u64,
}

impl CycleReport {
    /// Steady-state cycles per row (D9).
    pub fn cycles_per_row(&self) -> f64 {
        self.cycles_per_body as f64 / self.rows_per_body.max(1) as f64
    }

    /// `cycles_per_row` as text: an integer when whole, else a decimal.
    pub fn cycles_per_row_text(&self) -> String {
        let rows = self.rows_per_body.max(1) as u64;
        if self.cycles_per_body % rows == 0 {
            (self.cycles_per_body / rows).to_string()
        } else {
            format!("{:.3}", self.cycles_per_row())
        }
    }
}

/// Measures the steady-state cycles per row of `body` (see the module doc) over at least
/// `tiles` tiles (minimum 2).
pub fn steady_state(
    arch: Arch,
    cfg: SimConfig,
    init: &Program,
    body: &Program,
    drain: &Program,
    tiles: usize,
) -> Result<CycleReport, CycleError> {
    let mut m = Machine::with_config(arch, cfg);
    let mut dst = Dest::new();
    m.enter_kernel_state();
    let init_stats = m.run(init, &mut dst).map_err(|source| CycleError::Sim {
        phase: "init",
        run: 0,
        source,
    })?;
    m.set_rwc_dst(0);
    let first = m
        .run_rows(body, &mut dst, 1)
        .map_err(|source| CycleError::Sim {
            phase: "body",
            run: 0,
            source,
        })?;
    let _ = first;
    let advance = m.rwc_dst();
    if advance == 0 || advance % 2 != 0 {
        return Err(CycleError::NoAdvance { advance });
    }
    let rows = usize::from(advance / 2);
    let runs = (tiles.max(2) * ROWS_PER_TILE).div_ceil(rows).max(4);
    let mut t = Vec::with_capacity(runs);
    t.push(m.stats().cycles);
    let mut last = first;
    for run in 1..runs {
        // Stay inside Dst: wrap the RWC at a tile boundary like tt-llk's per-face SETRWC.
        if usize::from(m.rwc_dst()) + usize::from(advance) > 1024 {
            m.set_rwc_dst(0);
        }
        last = m
            .run_rows(body, &mut dst, 1)
            .map_err(|source| CycleError::Sim {
                phase: "body",
                run,
                source,
            })?;
        t.push(m.stats().cycles);
    }
    let n0 = runs / 2;
    let span = (runs - 1 - n0) as u64;
    let measured = t[runs - 1] - t[n0];
    let static_body = last.instructions + last.stalls;
    let den = span * rows as u64;
    if measured != static_body * span {
        return Err(CycleError::Disagree {
            measured_num: measured,
            static_num: static_body * span,
            den,
        });
    }
    let drain_stats = m.run(drain, &mut dst).map_err(|source| CycleError::Sim {
        phase: "drain",
        run: runs,
        source,
    })?;
    m.check_drained().map_err(|source| CycleError::Sim {
        phase: "drain",
        run: runs,
        source,
    })?;
    Ok(CycleReport {
        rows_per_body: rows,
        cycles_per_body: static_body,
        issue_slots_per_body: last.instructions,
        stalls_per_body: last.stalls,
        runs,
        drain_cycles: drain_stats.cycles,
        init_cycles: init_stats.cycles,
    })
}
