//! The prover (tensix.md §9, D6, D8): runs a lowered kernel on the Tensix simulator over
//! generated inputs and compares every output with the reference semantics (`cpu` profile),
//! in process and streamed in blocks (2^32 inputs never sit in memory or in files).
//!
//! Inputs:
//! * sources of ≤ 16 bits: every pattern, always;
//! * 32-bit sources: the edge list of §9 ([`edge_inputs`]: ±0, subnormals, normals at every
//!   exponent with the mantissa patterns that make ties, half-ulps and carries at every rounding
//!   position, ±Inf, NaN payloads, integer limits and powers of two ± small offsets) plus
//!   `random` patterns from a fixed seed; or, with `exhaustive`, all 2^32 patterns.
//!
//! Per block, the simulator side is `sim::kernel::run_kernel_batch` (all cores, D8: inputs
//! placed with the inverse of the kernel's INT32 load, outputs read back the same way) and the
//! reference side is `Converter::convert_slice_par` (the vectorised kernels). An output counts as
//! correct only if it is the canonical datum of the reference result (`tensix::io::Datum`).
//! `nan_any` (§9 relaxed mode) still runs NaN inputs but does not compare them.
//!
//! Invariant: the report's `inputs` is the number of inputs actually compared or skipped; a
//! simulator error stops the proof and is reported (never counted as a pass).

use pto_runtime::convert::Converter;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::formats::{DataFormat, DstConfig};
use pto_runtime::tensix::io::{KERNEL_DEST, KERNEL_MOD0};
use pto_runtime::tensix::sim::kernel::run_kernel_batch;
use pto_runtime::tensix::sim::SimConfig;
use rayon::prelude::*;

use super::TensixKernel;

/// What to check.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProofOptions {
    /// All 2^32 patterns for 32-bit sources.
    pub exhaustive: bool,
    /// Random patterns added to the edge list for 32-bit sources (ignored when exhaustive).
    pub random: u64,
    pub seed: u64,
    /// NaN inputs may give any output (§9 `--nan=any`).
    pub nan_any: bool,
}

impl Default for ProofOptions {
    fn default() -> ProofOptions {
        ProofOptions {
            exhaustive: false,
            random: 1 << 24,
            seed: 0x5EED_7E45,
            nan_any: false,
        }
    }
}

/// One input whose output differs from the reference.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mismatch {
    /// Source element pattern.
    pub input: u64,
    /// Reference destination pattern.
    pub expected: u64,
    /// The datum the kernel stored (decoded as the destination when canonical).
    pub got_word: u32,
    pub got: Option<u64>,
}

/// The outcome of one proof.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ProofReport {
    /// Inputs run (compared or, under `nan_any`, skipped).
    pub inputs: u64,
    pub mismatches: u64,
    /// NaN inputs run but not compared (`nan_any`).
    pub nan_skipped: u64,
    /// The first mismatching inputs (at most [`MAX_SHOWN`]), in input order.
    pub first: Vec<Mismatch>,
    /// A simulator or setup failure that stopped the proof.
    pub error: Option<String>,
    pub exhaustive: bool,
    pub relaxed: bool,
}

impl ProofReport {
    pub fn passed(&self) -> bool {
        self.error.is_none() && self.mismatches == 0 && self.inputs > 0
    }
}

/// Mismatches listed per proof.
pub const MAX_SHOWN: usize = 8;
/// Inputs per streamed block.
const BLOCK: usize = 1 << 22;

/// The simulator configuration of every ptoc kernel (SFPU Fp32 mode on; TTSIM-strict modes).
pub fn kernel_sim_config() -> SimConfig {
    SimConfig {
        strict: true,
        allow_backdoor: false,
        dst: DstConfig {
            sfpu_fp32: true,
            srcb_format: DataFormat::Float16B,
        },
    }
}

/// Whether `bits` is a NaN of float type `elem`.
pub fn is_nan(elem: ElemType, bits: u64) -> bool {
    match elem {
        ElemType::F32 => (bits as u32 & 0x7FFF_FFFF) > 0x7F80_0000,
        ElemType::BF16 => (bits as u16 & 0x7FFF) > 0x7F80,
        ElemType::F16 => (bits as u16 & 0x7FFF) > 0x7C00,
        _ => false,
    }
}

/// Proves `k` (see the module doc). `progress` is called with the number of inputs done.
pub fn prove(
    k: &TensixKernel,
    opts: &ProofOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> ProofReport {
    let opts = &ProofOptions {
        nan_any: opts.nan_any || k.nan_any,
        ..*opts
    };
    let mut rep = ProofReport {
        relaxed: opts.nan_any,
        ..ProofReport::default()
    };
    let conv = match Converter::new(k.combo.spec()) {
        Ok(c) => c,
        Err(e) => {
            rep.error = Some(e.to_string());
            return rep;
        }
    };
    let bits = k.combo.src.value_bits();
    if bits <= 16 {
        rep.exhaustive = true;
        let all: Vec<u64> = (0..1u64 << bits).collect();
        check_block(k, &conv, opts, &all, &mut rep);
    } else if opts.exhaustive {
        rep.exhaustive = true;
        let total = 1u64 << 32;
        let mut start = 0u64;
        while start < total && rep.error.is_none() {
            let end = (start + BLOCK as u64).min(total);
            let block: Vec<u64> = (start..end).collect();
            check_block(k, &conv, opts, &block, &mut rep);
            start = end;
            progress(start);
        }
    } else {
        let edges = edge_inputs(k.combo.src);
        check_block(k, &conv, opts, &edges, &mut rep);
        progress(rep.inputs);
        let mut rng = fastrand::Rng::with_seed(opts.seed);
        let mut left = opts.random;
        while left > 0 && rep.error.is_none() {
            let n = left.min(BLOCK as u64) as usize;
            let block: Vec<u64> = (0..n).map(|_| u64::from(rng.u32(..))).collect();
            check_block(k, &conv, opts, &block, &mut rep);
            left -= n as u64;
            progress(rep.inputs);
        }
    }
    rep
}

fn check_block(
    k: &TensixKernel,
    conv: &Converter,
    opts: &ProofOptions,
    inputs: &[u64],
    rep: &mut ProofReport,
) {
    let (sd, dd) = (k.src_datum(), k.dst_datum());
    let words: Vec<u32> = inputs.par_iter().map(|&b| sd.word_of_bits(b)).collect();
    let out = match run_kernel_batch(
        k.arch,
        kernel_sim_config(),
        &k.sim_kernel(),
        1,
        &words,
        KERNEL_MOD0,
        KERNEL_MOD0,
        KERNEL_DEST,
        KERNEL_DEST.sfpu_rows(),
    ) {
        Ok(o) => o,
        Err(e) => {
            rep.error = Some(e.to_string());
            return;
        }
    };
    let expected = reference(conv, k.combo.src, k.combo.dst, inputs);
    let src = k.combo.src;
    let bad: Vec<Mismatch> = inputs
        .par_iter()
        .zip(out.par_iter())
        .zip(expected.par_iter())
        .filter_map(|((&input, &got_word), &expected)| {
            if opts.nan_any && is_nan(src, input) {
                return None;
            }
            let got = dd.bits_of_word(got_word);
            (got != Some(expected)).then_some(Mismatch {
                input,
                expected,
                got_word,
                got,
            })
        })
        .collect();
    if opts.nan_any {
        rep.nan_skipped += inputs.par_iter().filter(|&&b| is_nan(src, b)).count() as u64;
    }
    rep.inputs += inputs.len() as u64;
    rep.mismatches += bad.len() as u64;
    let room = MAX_SHOWN.saturating_sub(rep.first.len());
    rep.first.extend(bad.into_iter().take(room));
}

/// Reference results (destination patterns) for `inputs`, through the vectorised bulk path.
pub fn reference(conv: &Converter, src: ElemType, dst: ElemType, inputs: &[u64]) -> Vec<u64> {
    let sb = src.storage_bytes() as usize;
    let db = dst.storage_bytes() as usize;
    let mut src_bytes = vec![0u8; inputs.len() * sb];
    src_bytes
        .par_chunks_mut(sb)
        .zip(inputs.par_iter())
        .for_each(|(c, &b)| c.copy_from_slice(&b.to_le_bytes()[..sb]));
    let mut dst_bytes = vec![0u8; inputs.len() * db];
    if conv
        .convert_slice_par(&src_bytes, &mut dst_bytes, inputs.len())
        .is_err()
    {
        // Buffers are sized above; fall back to the element path rather than fail.
        return inputs.iter().map(|&b| conv.convert_bits(b)).collect();
    }
    dst_bytes
        .par_chunks(db)
        .map(|c| {
            let mut w = [0u8; 8];
            w[..db].copy_from_slice(c);
            u64::from_le_bytes(w)
        })
        .collect()
}

/// The §9 edge list for a 32-bit source type (bit patterns; deduplicated, sorted).
pub fn edge_inputs(src: ElemType) -> Vec<u64> {
    let mut v: Vec<u32> = Vec::new();
    // Float-shaped patterns: every exponent × mantissas that sit on, next to, and half-way
    // between rounding positions, both signs. They double as integer bit patterns.
    let mut mants: Vec<u32> = vec![
        0, 1, 2, 3, 0x7F_FFFF, 0x7F_FFFE, 0x40_0000, 0x40_0001, 0x3F_FFFF,
    ];
    for p in 0..23 {
        let b = 1u32 << p;
        mants.extend([
            b,
            b - 1,
            b + 1,
            b | (b << 1),
            (b << 1) - 1,
            0x7F_FFFF & !(b - 1),
        ]);
    }
    for sign in [0u32, 0x8000_0000] {
        for e in 0..=255u32 {
            for &m in &mants {
                v.push(sign | e << 23 | (m & 0x7F_FFFF));
            }
        }
    }
    // Integer-shaped patterns: powers of two and their neighbours, ties of every int→float
    // rounding position (2^k + 2^(k-25) ± 1 etc.), limits.
    for k in 0..32u32 {
        let p = 1u64 << k;
        for d in -3i64..=3 {
            let x = (p as i64 + d) as u64 as u32;
            v.extend([x, x.wrapping_neg()]);
        }
        if k >= 8 {
            for s in 1..=k.min(24) {
                let half = 1u64 << (k - s);
                for extra in [0i64, 1, -1] {
                    for lo in [0u64, 1u64 << (k - s + 1)] {
                        let x = (p + lo + half) as i64 + extra;
                        let x = x as u64 as u32;
                        v.extend([x, x.wrapping_neg()]);
                    }
                }
            }
        }
    }
    v.extend([
        0x7FFF_FFFF,
        0x8000_0000,
        0x8000_0001,
        0xFFFF_FFFF,
        0xFFFF_FFFE,
        0x0000_FFFF,
        0x0001_0000,
        0x0000_7FFF,
        0xFFFF_8000,
        0x0000_00FF,
        0xFFFF_FF80,
    ]);
    let _ = src;
    v.sort_unstable();
    v.dedup();
    v.into_iter().map(u64::from).collect()
}
