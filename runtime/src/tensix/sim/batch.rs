//! Batch execution over many values (the prover's and `ptoc sim`'s bulk path, tensix.md §4.6,
//! §4.7, §9): logical input values are placed in Dst through the inverse of the kernel's load
//! mode, the loop body runs once per SFPU row with the D7 kernel state, and outputs are read
//! back through the store mode's load equivalent. Groups of chunks (a fixed number of values,
//! independent of the thread count) run in parallel (rayon), each on its own [`Machine`] and a
//! cleared [`Dest`], so throughput scales with cores. Dst I/O goes a whole SFPU row at a time
//! (`Dest::write_rows` / `Dest::read_rows_to_slice`) and outputs are written in place
//! ([`run_batch_into`] takes a reusable output buffer).
//!
//! Invariant: results are independent of the degree of parallelism — every group starts from a
//! fresh machine that has run `init` once on an all-zero Dst, and groups share no state.

use rayon::prelude::*;

use super::{Machine, SimConfig, SimError, LANES};
use crate::tensix::dest::{Dest, DestWidth};
use crate::tensix::formats::Mod0;
use crate::tensix::isa::{Arch, Program};

/// Values per parallel task (a whole number of chunks; at least one chunk).
const GROUP_VALUES: usize = 1 << 16;

/// How a kernel's data is laid out in Dst.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct BatchLayout {
    /// Mode whose inverse places each input value (what the kernel's SFPLOAD reads).
    pub load: Mod0,
    /// Mode through which each output value is read back (the load equivalent of the store).
    pub out: Mod0,
    /// Dst width that bounds a chunk.
    pub width: DestWidth,
    /// SFPU rows per chunk (≤ the width's capacity). Use 1 when a row's stores overlap later
    /// rows' inputs (a 32-bit store after 16-bit loads, §4.1), so that every row starts clean.
    pub rows_per_chunk: usize,
}

/// Errors of a batch run.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BatchError {
    /// The simulator failed on chunk `chunk` (whose first value has index `first`).
    #[error("chunk {chunk} (values from {first}): {source}")]
    Sim {
        chunk: usize,
        first: usize,
        source: SimError,
    },
    /// Placing inputs or reading outputs failed.
    #[error("chunk {chunk}: Dst I/O: {source}")]
    Dest {
        chunk: usize,
        source: crate::tensix::dest::DestError,
    },
    /// `rows_per_chunk` is zero or exceeds the Dst capacity at this width.
    #[error("rows_per_chunk {rows} must be in 1..={max}")]
    Rows { rows: usize, max: usize },
    /// The output buffer of [`run_batch_into`] does not have the length of the inputs.
    #[error("output buffer holds {out} values for {inputs} inputs")]
    OutLen { inputs: usize, out: usize },
}

/// Runs `body` once per SFPU row over `inputs` (32 values per row; a trailing partial row is
/// padded with the cell of 0 and the padding is dropped), after `init` on each chunk's machine.
/// The body must advance RWC.Dst by 2 per row (tt-llk's typecast address modes).
pub fn run_batch(
    arch: Arch,
    cfg: SimConfig,
    init: &Program,
    body: &Program,
    inputs: &[u32],
    layout: BatchLayout,
) -> Result<Vec<u32>, BatchError> {
    let mut res = vec![0u32; inputs.len()];
    run_batch_into(arch, cfg, init, body, inputs, layout, &mut res)?;
    Ok(res)
}

/// As [`run_batch`], writing output `i` to `out[i]` (a reusable buffer: sweeps over many batches
/// avoid allocating and faulting in a fresh output each time). `out` must have the length of
/// `inputs` ([`BatchError::OutLen`] otherwise); on error its content is unspecified.
pub fn run_batch_into(
    arch: Arch,
    cfg: SimConfig,
    init: &Program,
    body: &Program,
    inputs: &[u32],
    layout: BatchLayout,
    out: &mut [u32],
) -> Result<(), BatchError> {
    if out.len() != inputs.len() {
        return Err(BatchError::OutLen {
            inputs: inputs.len(),
            out: out.len(),
        });
    }
    let max = layout.width.sfpu_rows();
    if layout.rows_per_chunk == 0 || layout.rows_per_chunk > max {
        return Err(BatchError::Rows {
            rows: layout.rows_per_chunk,
            max,
        });
    }
    let per_chunk = layout.rows_per_chunk * LANES;
    // Group several chunks per task so that machine setup (reset, init, clearing Dst) is
    // amortised: 2^16 values per group (8 chunks of a 32-bit Dst; a 2^22-input proof block is
    // still 64 tasks).
    let group = (GROUP_VALUES / per_chunk).max(1) * per_chunk;
    // Outputs are written in place; each rayon job reuses one Dst allocation, cleared per group
    // (a cleared Dst is exactly a new one), so per-group state is as before.
    let results: Vec<Result<(), BatchError>> = out
        .par_chunks_mut(group)
        .zip(inputs.par_chunks(group))
        .enumerate()
        .map_init(
            || (Machine::with_config(arch, cfg), Dest::new()),
            |(m, dst), (g, (out, part))| {
                dst.clear();
                // A reset machine is a new one, with its pre-decoded programs kept.
                m.reset();
                let base = g * (group / per_chunk);
                m.enter_kernel_state();
                m.run(init, dst).map_err(|source| BatchError::Sim {
                    chunk: base,
                    first: g * group,
                    source,
                })?;
                for (k, (chunk, o)) in part
                    .chunks(per_chunk)
                    .zip(out.chunks_mut(per_chunk))
                    .enumerate()
                {
                    let idx = base + k;
                    dst.write_rows(chunk, layout.load, layout.width, arch)
                        .map_err(|source| BatchError::Dest { chunk: idx, source })?;
                    m.set_rwc_dst(0);
                    m.run_rows(body, dst, chunk.len().div_ceil(LANES))
                        .map_err(|source| BatchError::Sim {
                            chunk: idx,
                            first: idx * per_chunk,
                            source,
                        })?;
                    dst.read_rows_to_slice(layout.out, layout.width, arch, o)
                        .map_err(|source| BatchError::Dest { chunk: idx, source })?;
                }
                Ok(())
            },
        )
        .collect();
    // The first failing group in input order, as a sequential run would report.
    results.into_iter().collect()
}
