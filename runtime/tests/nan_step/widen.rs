//! The two-instruction search with one extra pool value w (a MAD, Round-shift or SFPSTOCHRND
//! result, `extra.rs`) at pool index 10, restricted to the programs that read w: the base search
//! (`search::search`) already covers the others.
//!
//! - g1 reads w: every one-operand and immediate op on w, every two-operand op with w and a
//!   pool value, w itself or a catalog constant. Their distinct vectors that are neither
//!   constant, nor a base pool value, nor the vector of a base first instruction get the whole
//!   second step (`search::second`, whose pool now includes w).
//! - g1 does not read w: g2 = op(g1, w) or op(w, g1) for every distinct base first
//!   instruction and every pool value as g1.
//! - g1 is an SFPSWAP with w as an operand and g2 combines its two results.
//!
//! One-instruction programs on w (w alone, op(w, ·), op(w, K) for any K) come with g1 = SFPMOV w.

use super::ops::{Op, BINARY, UNARY};
use super::search::{self, absorb, hash, record, second, Insn, Partial, Problem, Src, Stats};
use rayon::prelude::*;
use std::collections::HashMap;

/// The pool index of w.
pub const W: usize = 10;

/// The distinct first instructions of the base search, findable by vector.
pub struct BaseReps {
    pub reps: Vec<Insn>,
    by_hash: HashMap<u64, Vec<u32>>,
}

impl BaseReps {
    /// `p`: the base problem (10 pool values).
    pub fn new(p: &Problem, imm: &[Op]) -> BaseReps {
        assert_eq!(p.pool.len(), W);
        let mut stats = Stats::default();
        let reps = search::first(p, imm, &mut stats);
        let mut by_hash: HashMap<u64, Vec<u32>> = HashMap::new();
        let hashes: Vec<u64> = reps.par_iter().map(|g| hash(&p.vector(g))).collect();
        for (i, h) in hashes.into_iter().enumerate() {
            by_hash.entry(h).or_default().push(i as u32);
        }
        BaseReps { reps, by_hash }
    }

    fn contains(&self, p: &Problem, h: u64, v: &[u32]) -> bool {
        self.by_hash
            .get(&h)
            .is_some_and(|ix| ix.iter().any(|&i| p.vector(&self.reps[i as usize]) == v))
    }
}

/// Counts of one w (summed over w's by the caller).
#[derive(Default, Debug, Clone)]
pub struct WStats {
    /// First instructions that read w; their distinct new vectors.
    pub g1_programs: u64,
    pub g1_new: u64,
    /// Second instructions evaluated (the constant forms not included).
    pub g2_candidates: u64,
    /// Solutions per target.
    pub per_target: Vec<u64>,
    /// Seconds of one thread.
    pub secs: f64,
    pub found: Vec<search::Found>,
}

impl WStats {
    pub fn add(&mut self, o: WStats) {
        self.g1_programs += o.g1_programs;
        self.g1_new += o.g1_new;
        self.g2_candidates += o.g2_candidates;
        self.secs += o.secs;
        self.per_target
            .resize(o.per_target.len().max(self.per_target.len()), 0);
        for (a, b) in self.per_target.iter_mut().zip(&o.per_target) {
            *a += b;
        }
        for f in o.found {
            if self.found.iter().filter(|g| g.target == f.target).count() < search::KEEP {
                self.found.push(f);
            }
        }
    }
}

/// The search over the programs that read w; `p` has w at pool index `W`. Sequential (the
/// caller runs w's in parallel).
pub fn search_w(p: &Problem, imm: &[Op], base: &BaseReps) -> WStats {
    assert_eq!(p.pool.len(), W + 1);
    let t0 = std::time::Instant::now();
    let nt = p.targets.len();
    let mut out: Partial = (Vec::new(), vec![0; nt]);
    let mut stats = WStats::default();
    let ws = Src::Pool(W);
    let w = &p.pool[W];
    // g1 reads w.
    let mut cands: Vec<Insn> = UNARY
        .iter()
        .chain(imm)
        .map(|&op| Insn { op, c: ws, d: ws })
        .collect();
    let others: Vec<Src> = (0..=W)
        .map(Src::Pool)
        .chain(p.consts.iter().map(|&k| Src::Const(k)))
        .collect();
    for op in BINARY {
        for &s in &others {
            cands.push(Insn { op, c: ws, d: s });
            if s != ws {
                cands.push(Insn { op, c: s, d: ws });
            }
        }
    }
    stats.g1_programs = cands.len() as u64;
    let base_pool = &p.pool[..W];
    let mut seen: HashMap<u64, Vec<Vec<u32>>> = HashMap::new();
    let imm2: Vec<Op> = imm
        .iter()
        .copied()
        .filter(|op| matches!(op, Op::ShftImm(_) | Op::ShftImmArith(_) | Op::DivP2Add(_)))
        .collect();
    for g1 in cands {
        let a = p.vector(&g1);
        if a.iter().all(|&e| e == a[0]) || base_pool.contains(&a) {
            continue;
        }
        let h = hash(&a);
        if base.contains(p, h, &a) {
            continue;
        }
        let bucket = seen.entry(h).or_default();
        if bucket.contains(&a) {
            continue;
        }
        bucket.push(a.clone());
        stats.g1_new += 1;
        stats.g2_candidates += second(p, g1, &a, &imm2, true, &mut out);
    }
    // g1 does not read w: g2 combines it with w.
    let movs = (0..W).map(|k| Insn {
        op: Op::Mov,
        c: Src::Pool(k),
        d: Src::Pool(k),
    });
    for g1 in base.reps.iter().copied().chain(movs) {
        let a = |i: usize| g1.op.eval(p.src_at(g1.c, i), p.src_at(g1.d, i));
        for op in BINARY {
            for swap in [false, true] {
                if swap && op.commutes() {
                    continue;
                }
                stats.g2_candidates += 1;
                let alive = if swap {
                    p.check(|i| op.eval(w[i], a(i)))
                } else {
                    p.check(|i| op.eval(a(i), w[i]))
                };
                if alive != 0 {
                    let (c, d) = if swap { (ws, Src::G1) } else { (Src::G1, ws) };
                    record(&mut out.0, &mut out.1, alive, g1, Insn { op, c, d });
                }
            }
        }
    }
    // g1 = SFPSWAP(w, s): g2 combines the min and the max.
    for &s in others.iter().filter(|&&s| s != ws) {
        let g1 = Insn {
            op: Op::Min,
            c: ws,
            d: s,
        };
        let mn = p.vector(&g1);
        let mx = p.vector(&Insn { op: Op::Max, ..g1 });
        for op in BINARY {
            for swap in [false, true] {
                stats.g2_candidates += 1;
                let alive = if swap {
                    p.check(|l| op.eval(mx[l], mn[l]))
                } else {
                    p.check(|l| op.eval(mn[l], mx[l]))
                };
                if alive != 0 {
                    let (c, d) = if swap {
                        (Src::G1Other, Src::G1)
                    } else {
                        (Src::G1, Src::G1Other)
                    };
                    record(&mut out.0, &mut out.1, alive, g1, Insn { op, c, d });
                }
            }
        }
    }
    let mut s = Stats {
        per_target: vec![0; nt],
        ..Stats::default()
    };
    absorb(&mut s, out);
    stats.per_target = s.per_target;
    stats.found = s.found;
    stats.secs = t0.elapsed().as_secs_f64();
    stats
}

/// Runs `search_w` for every w vector, in parallel; the stats in `ws` order.
/// With `progress`, a line every 100 w's (the full run).
pub fn search_all(
    p: &Problem,
    ws: &[Vec<u32>],
    imm: &[Op],
    base: &BaseReps,
    progress: bool,
) -> Vec<WStats> {
    let done = std::sync::atomic::AtomicUsize::new(0);
    let t0 = std::time::Instant::now();
    ws.par_iter()
        .map(|w| {
            let s = search_w(&p.with_extra(w.clone()), imm, base);
            let n = done.fetch_add(1, std::sync::atomic::Ordering::Relaxed) + 1;
            if progress && n % 100 == 0 {
                eprintln!(
                    "  {n} of {} w's, {:.0} s",
                    ws.len(),
                    t0.elapsed().as_secs_f64()
                );
            }
            s
        })
        .collect()
}
