//! The prover of `pto.vcvt` programs (`vcvt`): runs the program on the simulator, one register
//! per run, and compares the **whole** result register — every lane, including the zero lanes
//! of other parts and of inactive mask lanes — with `pto_runtime::value::vcvt` (the reference
//! interpreter's own vcvt, semantics.md §6.6) under the cpu profile's conversion.
//!
//! Inputs are the element patterns of `prove` (8/16-bit sources exhaustive; 32-bit: the §9
//! edge list plus random patterns, or all 2^32), packed into source registers in order (the last
//! register padded with zeros, which are compared but not counted). Pass 1 runs every register
//! with all lanes active, so every input is converted and compared. Pass 2 checks the mask:
//! registers of the first inputs under seeded random masks (about half the lanes active), plus
//! one all-inactive register. Result rows start as a poison pattern, so a lane the program never
//! stores fails.
//!
//! Invariant: registers are independent (each run rewrites the whole Dst image and every run
//! starts from the D7 row state), so the parallel split does not change the outcome.

use pto_runtime::convert::Converter;
use pto_runtime::tensix::dest::Dest;
use pto_runtime::tensix::io::{KERNEL_DEST, KERNEL_MOD0};
use pto_runtime::tensix::sim::Machine;
use pto_runtime::value::{self, Granularity, Mask, VReg};
use rayon::prelude::*;

use super::prove::{edge_inputs, is_nan, kernel_sim_config, Mismatch, ProofOptions, ProofReport};
use super::vcvt::VregShape;
use super::TensixKernel;

/// Registers per parallel job.
const JOB: usize = 256;
/// Inputs per streamed block (whole registers).
const BLOCK: usize = 1 << 20;
/// Source registers of pass 2 (random masks).
const MASKED_REGS: usize = 512;
/// What result rows hold before the program runs.
const POISON: u32 = 0xDEAD_BEEF;

/// Proves a vcvt program (see the module doc).
pub fn prove_vreg(
    k: &TensixKernel,
    shape: VregShape,
    opts: &ProofOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> ProofReport {
    let mut rep = ProofReport {
        relaxed: opts.nan_any || k.nan_any,
        ..ProofReport::default()
    };
    let conv = match Converter::new(k.combo.spec()) {
        Ok(c) => c,
        Err(e) => {
            rep.error = Some(e.to_string());
            return rep;
        }
    };
    let ctx = Ctx {
        k,
        shape,
        conv: &conv,
        skip_nan: rep.relaxed && k.combo.src.is_float(),
    };
    let bits = k.combo.src.value_bits();
    let pass1 = |inputs: &[u64], rep: &mut ProofReport| {
        ctx.check(inputs, &|_| true, rep);
        rep.inputs += inputs.len() as u64;
        progress(rep.inputs);
    };
    if bits <= 16 {
        rep.exhaustive = true;
        let all: Vec<u64> = (0..1u64 << bits).collect();
        pass1(&all, &mut rep);
    } else if opts.exhaustive {
        rep.exhaustive = true;
        let mut start = 0u64;
        let total = 1u64 << 32;
        while start < total && rep.error.is_none() {
            let end = (start + BLOCK as u64).min(total);
            let block: Vec<u64> = (start..end).collect();
            pass1(&block, &mut rep);
            start = end;
        }
    } else {
        pass1(&edge_inputs(k.combo.src), &mut rep);
        let mut rng = fastrand::Rng::with_seed(opts.seed);
        let mut left = opts.random;
        while left > 0 && rep.error.is_none() {
            let n = left.min(BLOCK as u64) as usize;
            let block: Vec<u64> = (0..n).map(|_| u64::from(rng.u32(..))).collect();
            pass1(&block, &mut rep);
            left -= n as u64;
        }
    }
    if rep.error.is_none() {
        // Pass 2: the mask. Source patterns: the edge list / first patterns, repeated.
        let base: Vec<u64> = if bits <= 16 {
            (0..1u64 << bits).collect()
        } else {
            edge_inputs(k.combo.src)
        };
        let n = MASKED_REGS * shape.src_lanes;
        let inputs: Vec<u64> = base.iter().copied().cycle().take(n).collect();
        let seed = opts.seed;
        let lanes = shape.src_lanes;
        // Register 0 is all-inactive; the others draw each lane from a per-register seed.
        let active = move |e: usize| e >= lanes && splitmix(seed ^ e as u64) & 1 == 1;
        ctx.check(&inputs, &active, &mut rep);
        rep.masked_registers = Some(MASKED_REGS as u64);
    }
    rep
}

struct Ctx<'a> {
    k: &'a TensixKernel,
    shape: VregShape,
    conv: &'a Converter,
    skip_nan: bool,
}

impl Ctx<'_> {
    /// Runs and compares the registers that `inputs` fill; `active(e)` is the mask flag of
    /// input `e` (its register is `e / src_lanes`).
    fn check(
        &self,
        inputs: &[u64],
        active: &(dyn Fn(usize) -> bool + Sync),
        rep: &mut ProofReport,
    ) {
        let ns = self.shape.src_lanes;
        let regs: Vec<usize> = (0..inputs.len().div_ceil(ns)).collect();
        let results: Vec<Result<(u64, Vec<Mismatch>), String>> = regs
            .par_chunks(JOB)
            .map(|job| {
                let mut dst = Dest::new();
                let mut m = Machine::with_config(self.k.arch, kernel_sim_config());
                let sk = self.k.sim_kernel();
                m.enter_kernel_state();
                m.run(&sk.init, &mut dst)
                    .map_err(|e| format!("init: {e}"))?;
                let mut bad = 0u64;
                let mut first = Vec::new();
                let mut image = Vec::new();
                let mut words = vec![0u32; self.shape.dst_lanes];
                for &r in job {
                    let src: Vec<u64> = (0..ns)
                        .map(|i| inputs.get(r * ns + i).copied().unwrap_or(0))
                        .collect();
                    let on: Vec<bool> = (0..ns).map(|i| active(r * ns + i)).collect();
                    self.run_one(&mut m, &sk, &mut dst, &src, &on, &mut image, &mut words)?;
                    let (b, f) = self.compare(&src, &on, &words)?;
                    bad += b;
                    if first.len() < super::prove::MAX_SHOWN {
                        first.extend(f);
                    }
                }
                Ok((bad, first))
            })
            .collect();
        for r in results {
            match r {
                Ok((bad, first)) => {
                    rep.mismatches += bad;
                    let room = super::prove::MAX_SHOWN.saturating_sub(rep.first.len());
                    rep.first.extend(first.into_iter().take(room));
                }
                Err(e) => {
                    rep.error.get_or_insert(e);
                }
            }
        }
        if self.skip_nan {
            rep.nan_skipped += inputs
                .iter()
                .filter(|&&b| is_nan(self.k.combo.src, b))
                .count() as u64;
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn run_one(
        &self,
        m: &mut Machine,
        sk: &pto_runtime::tensix::sim::kernel::Kernel,
        dst: &mut Dest,
        src: &[u64],
        on: &[bool],
        image: &mut Vec<u32>,
        words: &mut [u32],
    ) -> Result<(), String> {
        let sd = self.k.src_datum();
        let src_words: Vec<u32> = src.iter().map(|&b| sd.word_of_bits(b)).collect();
        self.shape.place(&src_words, on, POISON, image);
        dst.write_rows(image, KERNEL_MOD0, KERNEL_DEST, self.k.arch)
            .map_err(|e| e.to_string())?;
        m.set_rwc_dst(0);
        m.enter_kernel_state();
        m.run(&sk.body, dst).map_err(|e| e.to_string())?;
        m.run(&sk.drain, dst).map_err(|e| e.to_string())?;
        dst.read_rows_to_slice(KERNEL_MOD0, KERNEL_DEST, self.k.arch, image)
            .map_err(|e| e.to_string())?;
        self.shape.extract(image, words);
        Ok(())
    }

    /// The reference register and the lanes that differ.
    fn compare(
        &self,
        src: &[u64],
        on: &[bool],
        words: &[u32],
    ) -> Result<(u64, Vec<Mismatch>), String> {
        let s = self.k.combo.src;
        let mut reg = VReg::zeroed(s);
        for (i, &b) in src.iter().enumerate() {
            reg.set_lane(i, b);
        }
        let gran = Granularity::from_bits(s.storage_bits().min(32)).ok_or("mask granularity")?;
        let mask = Mask::from_lanes(gran, on);
        let (want, _) = value::vcvt(&reg, &mask, self.conv, self.shape.part)
            .map_err(|e| format!("reference vcvt: {e}"))?;
        let dd = self.k.dst_datum();
        let mut bad = 0;
        let mut first = Vec::new();
        for (j, &w) in words.iter().enumerate() {
            let source = self.source_of(j).and_then(|i| src.get(i).copied());
            if self.skip_nan && source.is_some_and(|b| is_nan(s, b)) {
                continue;
            }
            let expected = want.lane(j);
            let got = dd.bits_of_word(w);
            if got != Some(expected) {
                bad += 1;
                if first.len() < super::prove::MAX_SHOWN {
                    first.push(Mismatch {
                        input: source.unwrap_or(0),
                        expected,
                        got_word: w,
                        got,
                    });
                }
            }
        }
        Ok((bad, first))
    }

    /// The source element that lands in result lane `j` (§6.6), if any.
    fn source_of(&self, j: usize) -> Option<usize> {
        let (r, k) = (self.shape.ratio(), self.shape.k());
        let (ns, nd) = (self.shape.src_lanes, self.shape.dst_lanes);
        if ns < nd {
            (j % r == k).then_some(j / r)
        } else if ns > nd {
            Some(r * j + k)
        } else {
            Some(j)
        }
    }
}

/// SplitMix64: a seeded per-lane coin for the masks of pass 2.
fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The outcome of [`run_registers`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RegisterRun {
    /// Result element patterns, `dst_lanes` per register, in register order.
    pub out: Vec<u64>,
    pub registers: usize,
    /// Cycles of one program run (§7 cycle model; every register takes the same path).
    pub cycles_per_register: u64,
}

/// Runs a vcvt program over whole registers (`ptoc sim` of an `op=vcvt` listing): `src` holds
/// element patterns, `src_lanes` per register; `active(e)` is the mask flag of element `e`.
/// Registers run in parallel, each from the D7 row state on its own Dst image.
pub fn run_registers(
    k: &TensixKernel,
    shape: VregShape,
    src: &[u64],
    active: &(dyn Fn(usize) -> bool + Sync),
) -> Result<RegisterRun, String> {
    let (ns, nd) = (shape.src_lanes, shape.dst_lanes);
    if src.is_empty() || src.len() % ns != 0 {
        return Err(format!(
            "the input holds {} elements, not a whole number of {ns}-lane registers",
            src.len()
        ));
    }
    let ctx = Ctx {
        k,
        shape,
        conv: &Converter::new(k.combo.spec()).map_err(|e| e.to_string())?,
        skip_nan: false,
    };
    let regs: Vec<usize> = (0..src.len() / ns).collect();
    let dd = k.dst_datum();
    let parts: Vec<Result<(Vec<u64>, u64), String>> = regs
        .par_chunks(JOB)
        .map(|job| {
            let mut dst = Dest::new();
            let mut m = Machine::with_config(k.arch, kernel_sim_config());
            let sk = k.sim_kernel();
            m.enter_kernel_state();
            m.run(&sk.init, &mut dst)
                .map_err(|e| format!("init: {e}"))?;
            let (mut image, mut words) = (Vec::new(), vec![0u32; nd]);
            let mut out = Vec::with_capacity(job.len() * nd);
            let mut cycles = 0;
            for &r in job {
                let regsrc = src.get(r * ns..(r + 1) * ns).unwrap_or(&[]);
                let on: Vec<bool> = (0..ns).map(|i| active(r * ns + i)).collect();
                let before = m.stats().cycles;
                ctx.run_one(&mut m, &sk, &mut dst, regsrc, &on, &mut image, &mut words)?;
                cycles = m.stats().cycles - before;
                for (j, &w) in words.iter().enumerate() {
                    out.push(dd.bits_of_word(w).ok_or_else(|| {
                        format!("register {r}, lane {j}: non-canonical result datum {w:#010x}")
                    })?);
                }
            }
            Ok((out, cycles))
        })
        .collect();
    let mut run = RegisterRun {
        out: Vec::with_capacity(src.len() / ns * nd),
        registers: regs.len(),
        cycles_per_register: 0,
    };
    for p in parts {
        let (out, cycles) = p?;
        run.out.extend(out);
        run.cycles_per_register = cycles;
    }
    Ok(run)
}
