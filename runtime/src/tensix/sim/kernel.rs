//! Whole kernels (init, loop body, drain) for macro-scheduled programs, the D5 proof step
//! (tensix.md §6.5: run a SFPLOADMACRO program and its plain equivalent on the same Dst and
//! compare Dst bit-for-bit), and a parallel batch runner that drains every chunk.
//!
//! Listing format ([`Kernel::parse`]): SEED-T assembly with section markers on their own lines —
//! `; @init`, `; @body`, `; @drain` (text before the first marker belongs to the body). The body
//! is one loop iteration (it may unroll the register-alternation period) and advances RWC.Dst by
//! 2 per row.
//!
//! Invariants: every run starts from a fresh machine in the D7 kernel state; a kernel that ends
//! with scheduled instructions pending is an error (`Undrained`); nothing panics.

use rayon::prelude::*;

use super::{Machine, SimConfig, SimError, LANES};
use crate::tensix::asm::{assemble, AsmError};
use crate::tensix::dest::{Dest, DestError, DestWidth};
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{Arch, Program};

/// A kernel: init (once), body (per iteration), drain (once at the end).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kernel {
    /// Run once before the first iteration (constants, templates, sequences, Misc).
    pub init: Program,
    /// One loop iteration.
    pub body: Program,
    /// Trailing instructions (drain SFPNOPs).
    pub drain: Program,
}

impl Kernel {
    /// Assembles a sectioned listing (see the module doc).
    pub fn parse(text: &str, arch: Arch) -> Result<Kernel, AsmError> {
        let mut parts = [String::new(), String::new(), String::new()];
        let mut cur = 1usize;
        for line in text.lines() {
            let t = line.trim();
            let sec = match t {
                "; @init" => Some(0),
                "; @body" => Some(1),
                "; @drain" => Some(2),
                _ => None,
            };
            match sec {
                Some(s) => {
                    cur = s;
                    // Keep line numbers aligned with the file for error messages.
                    for p in parts.iter_mut() {
                        p.push('\n');
                    }
                }
                None => {
                    for (i, p) in parts.iter_mut().enumerate() {
                        if i == cur {
                            p.push_str(line);
                        }
                        p.push('\n');
                    }
                }
            }
        }
        Ok(Kernel {
            init: assemble(&parts[0], arch)?,
            body: assemble(&parts[1], arch)?,
            drain: assemble(&parts[2], arch)?,
        })
    }

    /// Runs the kernel on `dst`: init, `runs` body iterations (D7 state before each), drain,
    /// then checks that nothing is pending.
    pub fn run(
        &self,
        arch: Arch,
        cfg: SimConfig,
        dst: &mut Dest,
        runs: usize,
    ) -> Result<super::Stats, SimError> {
        self.run_on(&mut Machine::with_config(arch, cfg), dst, runs)
    }

    /// As [`Kernel::run`] on `m`, a machine in its reset state set up by the caller (e.g. to
    /// choose the issue path with [`Machine::set_macro_fast_path`]); returns the counts of the
    /// body iterations.
    pub fn run_on(
        &self,
        m: &mut Machine,
        dst: &mut Dest,
        runs: usize,
    ) -> Result<super::Stats, SimError> {
        m.enter_kernel_state();
        m.run(&self.init, dst)?;
        m.set_rwc_dst(0);
        let s = m.run_rows(&self.body, dst, runs)?;
        m.run(&self.drain, dst)?;
        m.check_drained()?;
        Ok(s)
    }
}

/// Result of a D5 comparison.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EquivError {
    /// The macro program failed.
    #[error("macro program: {0}")]
    Macro(SimError),
    /// The plain program failed.
    #[error("plain program: {0}")]
    Plain(SimError),
    /// Dst differs at physical cell `index` (row·16 + column).
    #[error(
        "Dst differs at row {row} column {col}: macro {macro_bits:#06x}, plain {plain_bits:#06x}"
    )]
    Differ {
        row: usize,
        col: usize,
        macro_bits: u16,
        plain_bits: u16,
    },
}

/// D5: runs `macro_k` (`macro_runs` iterations) and `plain` (`plain_runs`) on copies of `dst`
/// and requires bit-identical Dst afterwards.
pub fn compare_with_plain(
    arch: Arch,
    cfg: SimConfig,
    macro_k: &Kernel,
    macro_runs: usize,
    plain: &Kernel,
    plain_runs: usize,
    dst: &Dest,
) -> Result<(), EquivError> {
    let mut a = dst.clone();
    let mut b = dst.clone();
    macro_k
        .run(arch, cfg, &mut a, macro_runs)
        .map_err(EquivError::Macro)?;
    plain
        .run(arch, cfg, &mut b, plain_runs)
        .map_err(EquivError::Plain)?;
    let (x, y) = (a.bits(), b.bits());
    match x.iter().zip(y).position(|(p, q)| p != q) {
        None => Ok(()),
        Some(i) => Err(EquivError::Differ {
            row: i / 16,
            col: i % 16,
            macro_bits: x[i],
            plain_bits: y[i],
        }),
    }
}

/// A difference between the two issue paths of a kernel (see [`check_issue_paths`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("expanded and step-by-step runs differ in {what}: {expanded} vs {stepwise}")]
pub struct IssuePathMismatch {
    /// What differs (result, Dst, machine state).
    pub what: &'static str,
    /// The expanded path's side.
    pub expanded: String,
    /// The step-by-step engine's side.
    pub stepwise: String,
}

/// The machine state both issue paths must leave: counts, registers and their defined lanes,
/// lane flags, flag stack depth, RWC.Dst and the number of pending scheduled instructions.
fn observable(m: &Machine) -> String {
    let regs: Vec<(Option<&[u32; LANES]>, u32)> =
        (0..17).map(|r| (m.lreg(r), m.lreg_defined(r))).collect();
    format!(
        "{:?} flags {:#x}/{:#x} depth {} rwc {} pending {} {:?}",
        m.stats(),
        m.lane_flags(),
        m.use_lane_flags(),
        m.stack_depth(),
        m.rwc_dst(),
        m.macro_pending(),
        regs
    )
}

/// Runs `k` (`runs` body iterations) on copies of `dst` through the expanded macro path and
/// through the step-by-step engine ([`Machine::set_macro_fast_path`]) and requires the same
/// result (error included), Dst and machine state; returns the common result. The oracle for
/// the expanded path (issue 10 item 7).
pub fn check_issue_paths(
    arch: Arch,
    cfg: SimConfig,
    k: &Kernel,
    dst: &Dest,
    runs: usize,
) -> Result<Result<super::Stats, SimError>, IssuePathMismatch> {
    let run = |fast: bool| {
        let mut m = Machine::with_config(arch, cfg);
        m.set_macro_fast_path(fast);
        let mut d = dst.clone();
        let res = k.run_on(&mut m, &mut d, runs);
        (res, d, observable(&m))
    };
    let (a, da, sa) = run(true);
    let (b, db, sb) = run(false);
    let differ = |what, x: String, y: String| IssuePathMismatch {
        what,
        expanded: x,
        stepwise: y,
    };
    if a != b {
        return Err(differ("result", format!("{a:?}"), format!("{b:?}")));
    }
    if let Some(i) = da.bits().iter().zip(db.bits()).position(|(x, y)| x != y) {
        return Err(differ(
            "Dst",
            format!("cell {i}: {:#06x}", da.bits()[i]),
            format!("{:#06x}", db.bits()[i]),
        ));
    }
    if sa != sb {
        return Err(differ("machine state", sa, sb));
    }
    Ok(a)
}

/// Errors of [`run_kernel_batch`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum KernelBatchError {
    /// The simulator failed on the chunk whose first value has index `first`.
    #[error("values from {first}: {source}")]
    Sim { first: usize, source: SimError },
    /// Dst I/O failed.
    #[error("values from {first}: Dst I/O: {source}")]
    Dest { first: usize, source: DestError },
    /// `rows_per_chunk` is 0, exceeds the Dst capacity, or is not a multiple of the body's rows.
    #[error("rows_per_chunk {rows} must be a positive multiple of {body_rows} and at most {max}")]
    Rows {
        rows: usize,
        body_rows: usize,
        max: usize,
    },
}

/// Runs `k` over `inputs` in parallel chunks of `rows_per_chunk` SFPU rows: inputs placed through
/// the inverse of `load`, the kernel run (init, iterations, drain) per chunk on a fresh machine,
/// outputs read back through `out`. `body_rows` = rows per body iteration. A trailing partial
/// chunk is padded with zeros (padding not returned).
#[allow(clippy::too_many_arguments)]
pub fn run_kernel_batch(
    arch: Arch,
    cfg: SimConfig,
    k: &Kernel,
    body_rows: usize,
    inputs: &[u32],
    load: Mod0,
    out: Mod0,
    width: DestWidth,
    rows_per_chunk: usize,
) -> Result<Vec<u32>, KernelBatchError> {
    let max = width.sfpu_rows();
    if rows_per_chunk == 0
        || body_rows == 0
        || rows_per_chunk > max
        || rows_per_chunk % body_rows != 0
    {
        return Err(KernelBatchError::Rows {
            rows: rows_per_chunk,
            body_rows,
            max,
        });
    }
    let per = rows_per_chunk * LANES;
    let group = (8192 / per).max(1) * per;
    // Each rayon job reuses one machine (reset per chunk, its caches of pre-decoded and
    // expanded programs kept) and one Dst allocation.
    let parts: Vec<Result<Vec<u32>, KernelBatchError>> = inputs
        .par_chunks(group)
        .enumerate()
        .map_init(
            || (Machine::with_config(arch, cfg), Dest::new()),
            |(m, dst), (g, part)| {
                // A cleared Dst is exactly a new one: groups share no state.
                dst.clear();
                let mut res = Vec::with_capacity(part.len());
                for (i, chunk) in part.chunks(per).enumerate() {
                    let first = g * group + i * per;
                    let mut padded = chunk.to_vec();
                    padded.resize(per, 0);
                    dst.write_rows(&padded, load, width, arch)
                        .map_err(|source| KernelBatchError::Dest { first, source })?;
                    m.reset();
                    k.run_on(m, dst, rows_per_chunk / body_rows)
                        .map_err(|source| KernelBatchError::Sim { first, source })?;
                    let got = dst
                        .read_rows(per, out, width, arch)
                        .map_err(|source| KernelBatchError::Dest { first, source })?;
                    res.extend(got.iter().take(chunk.len()));
                }
                Ok(res)
            },
        )
        .collect();
    let mut all = Vec::with_capacity(inputs.len());
    for p in parts {
        all.extend(p?);
    }
    Ok(all)
}
