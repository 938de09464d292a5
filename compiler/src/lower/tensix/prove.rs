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
//! Per block, the simulator side is `sim_io::run_kernel_words` — the path `ptoc sim` runs a
//! listing on (init once, rows per body run measured from RWC.Dst, drain and empty-pipeline check
//! per chunk; all cores; D8: inputs placed with the inverse of the kernel's INT32 load, outputs
//! read back the same way), for a kernel lowered in process and a listing read back alike — and
//! the reference side is `Converter::convert_slice_par` (the vectorised kernels). An output counts as
//! correct only if it is the canonical datum of the reference result (`tensix::io::Datum`).
//! `nan_any` (§9 relaxed mode) still runs NaN inputs but does not compare them.
//!
//! Invariant: the report's `inputs` is the number of inputs actually compared or skipped; a
//! simulator error stops the proof and is reported (never counted as a pass).

use pto_runtime::convert::Converter;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::formats::{DataFormat, DstConfig};
use pto_runtime::tensix::isa::Arch;
use pto_runtime::tensix::sim::kernel::Kernel;
use pto_runtime::tensix::sim::SimConfig;
use pto_runtime::tensix::sim_io::run_kernel_words;
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
    /// D5: inputs on which the SFPLOADMACRO form's output differs from the plain program's
    /// (`None` when the kernel has no macro form).
    pub macro_mismatches: Option<u64>,
    /// vcvt programs: source registers run under random masks (and one all-inactive register)
    /// besides the all-active pass (`vprove`).
    pub masked_registers: Option<u64>,
}

impl ProofReport {
    pub fn passed(&self) -> bool {
        self.error.is_none()
            && self.mismatches == 0
            && self.inputs > 0
            && self.macro_mismatches.unwrap_or(0) == 0
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
    if let Some(shape) = k.vreg {
        return super::vprove::prove_vreg(k, shape, opts, progress);
    }
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
    let mut bufs = Buffers::default();
    let bits = k.combo.src.value_bits();
    if bits <= 16 {
        rep.exhaustive = true;
        let all: Vec<u64> = (0..1u64 << bits).collect();
        check_block(k, &conv, opts, &all, &mut bufs, &mut rep);
    } else if opts.exhaustive {
        rep.exhaustive = true;
        let total = 1u64 << 32;
        let mut block = vec![0u64; BLOCK];
        let mut start = 0u64;
        while start < total && rep.error.is_none() {
            let end = (start + BLOCK as u64).min(total);
            let n = (end - start) as usize;
            block.truncate(n);
            block
                .par_iter_mut()
                .enumerate()
                .for_each(|(i, b)| *b = start + i as u64);
            check_block(k, &conv, opts, &block, &mut bufs, &mut rep);
            start = end;
            progress(start);
        }
    } else {
        let edges = edge_inputs(k.combo.src);
        check_block(k, &conv, opts, &edges, &mut bufs, &mut rep);
        progress(rep.inputs);
        let mut rng = fastrand::Rng::with_seed(opts.seed);
        let mut left = opts.random;
        let mut block = Vec::with_capacity(BLOCK);
        while left > 0 && rep.error.is_none() {
            let n = left.min(BLOCK as u64) as usize;
            block.clear();
            block.extend((0..n).map(|_| u64::from(rng.u32(..))));
            check_block(k, &conv, opts, &block, &mut bufs, &mut rep);
            left -= n as u64;
            progress(rep.inputs);
        }
    }
    rep
}

/// Buffers reused across blocks (a 2^32 proof must not allocate per block).
#[derive(Default)]
struct Buffers {
    words: Vec<u32>,
    out: Vec<u32>,
    macro_out: Vec<u32>,
    src_bytes: Vec<u8>,
    dst_bytes: Vec<u8>,
}

fn check_block(
    k: &TensixKernel,
    conv: &Converter,
    opts: &ProofOptions,
    inputs: &[u64],
    bufs: &mut Buffers,
    rep: &mut ProofReport,
) {
    let (sd, dd) = (k.src_datum(), k.dst_datum());
    let n = inputs.len();
    bufs.words.resize(n, 0);
    bufs.words
        .par_iter_mut()
        .zip(inputs.par_iter())
        .for_each(|(w, &b)| *w = sd.word_of_bits(b));
    bufs.out.resize(n, 0);
    if let Err(e) = simulate(&k.sim_kernel(), k.arch, &bufs.words, &mut bufs.out) {
        rep.error = Some(e);
        return;
    }
    if let Some(mk) = k.macro_sim_kernel() {
        // D5: the macro program against its plain equivalent, on the same inputs and path.
        bufs.macro_out.resize(n, 0);
        if let Err(e) = simulate(&mk, k.arch, &bufs.words, &mut bufs.macro_out) {
            rep.error = Some(format!("macro form: {e}"));
            return;
        }
        let d = bufs
            .macro_out
            .par_iter()
            .zip(bufs.out.par_iter())
            .filter(|(a, b)| a != b)
            .count();
        *rep.macro_mismatches.get_or_insert(0) += d as u64;
    }
    let (src, dst) = (k.combo.src, k.combo.dst);
    let (sb, db) = (src.storage_bytes() as usize, dst.storage_bytes() as usize);
    bufs.src_bytes.resize(n * sb, 0);
    match sb {
        1 => fill_le::<1>(&mut bufs.src_bytes, inputs),
        2 => fill_le::<2>(&mut bufs.src_bytes, inputs),
        _ => fill_le::<4>(&mut bufs.src_bytes, inputs),
    }
    bufs.dst_bytes.resize(n * db, 0);
    if let Err(e) = conv.convert_slice_par(&bufs.src_bytes, &mut bufs.dst_bytes, n) {
        rep.error = Some(e.to_string());
        return;
    }
    let skip_nan = opts.nan_any && src.is_float();
    let room = MAX_SHOWN.saturating_sub(rep.first.len());
    let check = Check {
        inputs,
        out: &bufs.out,
        expected: &bufs.dst_bytes,
        datum: dd,
        src,
        skip_nan,
    };
    let (bad, first) = match db {
        1 => check.run::<1>(room),
        2 => check.run::<2>(room),
        _ => check.run::<4>(room),
    };
    rep.first.extend(first);
    if opts.nan_any {
        rep.nan_skipped += inputs.par_iter().filter(|&&b| is_nan(src, b)).count() as u64;
    }
    rep.inputs += n as u64;
    rep.mismatches += bad;
}

/// Writes each input's low `N` bytes, little-endian (fixed width: no per-element memmove).
fn fill_le<const N: usize>(bytes: &mut [u8], inputs: &[u64]) {
    bytes
        .par_chunks_exact_mut(N)
        .zip(inputs.par_iter())
        .for_each(|(c, &b)| {
            let le = b.to_le_bytes();
            c.copy_from_slice(&le[..N]);
        });
}

/// One block's comparison: simulator outputs against reference bytes.
struct Check<'a> {
    inputs: &'a [u64],
    out: &'a [u32],
    expected: &'a [u8],
    datum: pto_runtime::tensix::io::Datum,
    src: ElemType,
    skip_nan: bool,
}

impl Check<'_> {
    fn mismatch<const N: usize>(&self, input: u64, got_word: u32, exp: &[u8]) -> Option<Mismatch> {
        if self.skip_nan && is_nan(self.src, input) {
            return None;
        }
        let mut w = [0u8; 8];
        w[..N].copy_from_slice(&exp[..N]);
        let expected = u64::from_le_bytes(w);
        let got = self.datum.bits_of_word(got_word);
        (got != Some(expected)).then_some(Mismatch {
            input,
            expected,
            got_word,
            got,
        })
    }

    /// (mismatch count, the first `room` mismatches in input order).
    fn run<const N: usize>(&self, room: usize) -> (u64, Vec<Mismatch>) {
        let bad = self
            .inputs
            .par_iter()
            .zip(self.out.par_iter())
            .zip(self.expected.par_chunks_exact(N))
            .filter(|((&i, &g), e)| self.mismatch::<N>(i, g, e).is_some())
            .count() as u64;
        if bad == 0 || room == 0 {
            return (bad, Vec::new());
        }
        let first = self
            .inputs
            .iter()
            .zip(self.out.iter())
            .zip(self.expected.chunks_exact(N))
            .filter_map(|((&i, &g), e)| self.mismatch::<N>(i, g, e))
            .take(room)
            .collect();
        (bad, first)
    }
}

/// Runs the kernel over `words` into `out` on all cores, exactly as `ptoc sim` runs its
/// listing (`sim_io::run_kernel_words`: init once, rows per body run measured, drain and
/// pipeline check per chunk).
fn simulate(k: &Kernel, arch: Arch, words: &[u32], out: &mut [u32]) -> Result<(), String> {
    run_kernel_words(arch, k, words, out).map_err(|e| e.to_string())
}

/// The §9 edge list for a 32-bit source type (bit patterns; deduplicated, sorted).
/// Every pattern of a source of ≤ 16 bits; else the edge list plus `random` patterns from a
/// fixed `seed` (the sample the llk word test and the tt-metal witness search run).
pub fn sample_inputs(src: ElemType, random: usize, seed: u64) -> Vec<u64> {
    if src.value_bits() <= 16 {
        return (0..1u64 << src.value_bits()).collect();
    }
    let mut v = edge_inputs(src);
    let mut rng = fastrand::Rng::with_seed(seed);
    v.extend((0..random).map(|_| u64::from(rng.u32(..))));
    v
}

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
