//! The enumeration of two-instruction Simple-unit programs around the integer RNE skeleton
//! `r = (x + 0x7FFF + lsb) & 0xFFFF0000`: operand pool, constant catalog, the ways the program's
//! result is used (completions), semantic deduplication of the first instruction, and the
//! early-exit evaluation of the second.

use super::ops::{Arity, Op, BINARY, UNARY};
use super::solve::kforms;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

pub const MASK: u32 = 0xFFFF_0000;

/// The skeleton's values on x, in pool order.
pub const POOL_NAMES: [&str; 10] = [
    "x",
    "x<<15",
    "lsb",
    "lsb+0x7FFF",
    "x+0x7FFF",
    "x+lsb",
    "q",
    "r",
    "x>>16",
    "q>>16",
];

pub fn pool(x: u32) -> [u32; 10] {
    let lsb = (x >> 16) & 1;
    let p = lsb + 0x7FFF;
    let q = x.wrapping_add(p);
    [
        x,
        x << 15,
        lsb,
        p,
        x.wrapping_add(0x7FFF),
        x.wrapping_add(lsb),
        q,
        q & MASK,
        x >> 16,
        q >> 16,
    ]
}

/// Lane-uniform constants a register operand may hold.
pub fn catalog() -> Vec<u32> {
    let mut v: Vec<u32> = vec![
        0,
        1,
        2,
        !0,
        0x7FFF,
        0x8000,
        0xFFFF,
        0x1_0000,
        0xFFFF_8000,
        0xFFFF_0000,
        0x7FFF_0000,
        0x7FFF_8000,
        0x7FC0_0000,
        0xFFC0_0000,
        0x0040_0000,
        0x003F_FFFF,
        0x007F_FFFF,
        0x0080_0000,
        0x00FF_FFFF,
        0x7F80_0000,
        0xFF80_0000,
        0x7F80_0001,
        0xFF80_0001,
        0x7FFF_FFFF,
        0x8000_0000,
        0x7F7F_FFFF,
        0xFF7F_FFFF,
        0x807F_FFFF,
        0x8080_0000,
        0x7FBF_FFFF,
        0x7FBF_8000,
        0x7FBF_8001,
        0x7FC0_7FFF,
        0x7FC0_8000,
        0x7F80_7FFF,
        0x7F80_8000,
        0xFF80_7FFF,
        0xFF80_8000,
        0xFF00_0000,
        0xFF00_0001,
        0x7F00_0000,
        0x7FC0,
        0xFFC0,
        0x7F80,
        0xFF80,
        0xFF,
        0x1FF,
        8,
        15,
        16,
        23,
        31,
        32,
        -8i32 as u32,
        -15i32 as u32,
        -16i32 as u32,
        -23i32 as u32,
        -31i32 as u32,
        127,
        255,
        // 1.0, -1.0 (L11), 1/65536 and the other SFPCONFIG / reset constants (L8, L12–L14).
        0x3F80_0000,
        0xBF80_0000,
        0x3780_0000,
        0x3F56_594B,
        (-0.674_877_6_f32).to_bits(),
        (-0.344_848_43_f32).to_bits(),
        0x4000_0000,
        0x4780_0000,
        0x3F00_0000,
    ];
    for k in 0..32 {
        v.extend([1u32 << k, (1u32 << k) - 1, !((1u32 << k) - 1)]);
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|c| seen.insert(*c));
    v
}

/// The catalog of the full run (`PTOC_NAN_STEP_FULL=1`): the catalog, every constant with a zero
/// low half (every bf16 pattern: each sign, exponent and 7-bit mantissa) and every constant below
/// 0x10000 (the low-half masks and offsets).
pub fn full_catalog() -> Vec<u32> {
    let mut v = catalog();
    for h in 0..0x1_0000u32 {
        v.extend([h << 16, h]);
    }
    let mut seen = std::collections::HashSet::new();
    v.retain(|c| seen.insert(*c));
    v
}

/// Where an operand comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Src {
    Pool(usize),
    Const(u32),
    G1,
    /// The other result of a g1 SFPSWAP (the max when g1 is the min, and the other way round).
    G1Other,
}

/// One instruction: op, VC source, VD source (unused by one-operand ops).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Insn {
    pub op: Op,
    pub c: Src,
    pub d: Src,
}

/// How the program's result v becomes the output (x, lsb = bit 16 of x, p = lsb + 0x7FFF).
pub const MODES: [&str; 6] = [
    "post: v",
    "post-mask: v & M",
    "pre, lsb of v: (v + 0x7FFF + bit16(v)) & M",
    "pre, lsb of x: (v + p) & M",
    "mid: v is x + 0x7FFF, (v + lsb) & M",
    "mid: v is x + lsb, (v + 0x7FFF) & M",
];

pub fn complete(mode: usize, x: u32, v: u32) -> u32 {
    let lsb = (x >> 16) & 1;
    match mode {
        0 => v,
        1 => v & MASK,
        2 => v.wrapping_add(0x7FFF + ((v >> 16) & 1)) & MASK,
        3 => v.wrapping_add(0x7FFF + lsb) & MASK,
        4 => v.wrapping_add(lsb) & MASK,
        _ => v.wrapping_add(0x7FFF) & MASK,
    }
}

/// A program: g1 (may be a plain move) then g2 (may ignore g1), and a completion.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Program {
    pub g1: Insn,
    pub g2: Insn,
    pub mode: usize,
}

fn operand(s: Src, pool: &[u32], g1: u32, other: u32) -> u32 {
    match s {
        Src::Pool(i) => pool[i],
        Src::Const(k) => k,
        Src::G1 => g1,
        Src::G1Other => other,
    }
}

impl Program {
    pub fn output(&self, x: u32) -> u32 {
        self.output_on(x, &pool(x))
    }

    /// The output on x with the pool values `p` (the base pool, then any extra value).
    pub fn output_on(&self, x: u32, p: &[u32]) -> u32 {
        let (c1, d1) = (operand(self.g1.c, p, 0, 0), operand(self.g1.d, p, 0, 0));
        let a = self.g1.op.eval(c1, d1);
        let other = match self.g1.op {
            Op::Min => Op::Max.eval(c1, d1),
            _ => Op::Min.eval(c1, d1),
        };
        let v = self.g2.op.eval(
            operand(self.g2.c, p, a, other),
            operand(self.g2.d, p, a, other),
        );
        complete(self.mode, x, v)
    }
}

/// One target: the wanted output per lane of the test vector, and which lanes count.
#[derive(Clone)]
pub struct Target {
    pub want: Vec<u32>,
    pub care: Vec<bool>,
}

/// The test vector, the targets and the per-lane window bounds of the completions.
#[derive(Clone)]
pub struct Problem {
    pub xs: Vec<u32>,
    pub targets: Vec<Target>,
    /// Per lane: `[x, p, lsb]`.
    lane: Vec<[u32; 3]>,
    /// The pool values per lane, in `POOL_NAMES` order, then any extra value (`with_extra`).
    pub pool: Vec<Vec<u32>>,
    /// The register constants g1 may read.
    pub consts: Vec<u32>,
    /// `window` per target × completion, per lane (length 0: the lane does not count).
    wins: Vec<Vec<(u32, u32)>>,
}

/// Alive bits: 6 completions per target.
pub const NMODES: u32 = 6;

impl Problem {
    pub fn new(xs: Vec<u32>, targets: Vec<Target>, consts: &[u32]) -> Problem {
        assert!(targets.len() * NMODES as usize <= 32);
        let lane = xs
            .iter()
            .map(|&x| {
                let lsb = (x >> 16) & 1;
                [x, lsb + 0x7FFF, lsb]
            })
            .collect();
        let pools: Vec<[u32; 10]> = xs.iter().map(|&x| pool(x)).collect();
        let pool = (0..10)
            .map(|i| pools.iter().map(|p| p[i]).collect())
            .collect();
        let mut p = Problem {
            xs,
            targets,
            lane,
            pool,
            consts: consts.to_vec(),
            wins: Vec::new(),
        };
        for t in 0..p.targets.len() {
            for mode in 0..NMODES as usize {
                let w = (0..p.xs.len())
                    .map(|i| p.window_of(t, mode, i).unwrap_or((0, 0)))
                    .collect();
                p.wins.push(w);
            }
        }
        p
    }

    /// The same problem with one more pool value (index 10) per lane.
    pub fn with_extra(&self, w: Vec<u32>) -> Problem {
        assert_eq!(w.len(), self.xs.len());
        let mut p = self.clone();
        p.pool.push(w);
        p
    }

    fn all_alive(&self) -> u32 {
        if self.targets.len() as u32 * NMODES == 32 {
            !0
        } else {
            (1 << (self.targets.len() as u32 * NMODES)) - 1
        }
    }

    /// The completions under which v is right on lane i, for every target.
    #[inline(always)]
    fn lane_ok(&self, i: usize, v: u32, alive: u32) -> u32 {
        let [_, p, lsb] = self.lane[i];
        let pre_v = v.wrapping_add(0x7FFF + ((v >> 16) & 1)) & MASK;
        let mut ok = 0;
        for (t, tg) in self.targets.iter().enumerate() {
            let sh = t as u32 * NMODES;
            if (alive >> sh) & 63 == 0 {
                continue;
            }
            let m = if !tg.care[i] {
                63
            } else {
                let w = tg.want[i];
                u32::from(v == w)
                    | u32::from((v ^ w) & MASK == 0) << 1
                    | u32::from(pre_v == w) << 2
                    | u32::from(v.wrapping_add(p) & MASK == w) << 3
                    | u32::from(v.wrapping_add(lsb) & MASK == w) << 4
                    | u32::from(v.wrapping_add(0x7FFF) & MASK == w) << 5
            };
            ok |= m << sh;
        }
        ok
    }

    /// The values v that completion `mode` turns into the wanted output on lane i of target t, as
    /// a modular interval `[start, start + len)`; `None` when the lane does not count.
    #[inline(always)]
    pub fn window(&self, t: usize, mode: usize, i: usize) -> Option<(u32, u32)> {
        let w = self.wins[t * NMODES as usize + mode][i];
        (w.1 != 0).then_some(w)
    }

    /// Operand `s` (not g1) on lane i.
    #[inline(always)]
    pub fn src_at(&self, s: Src, i: usize) -> u32 {
        match s {
            Src::Pool(k) => self.pool[k][i],
            Src::Const(k) => k,
            Src::G1 | Src::G1Other => unreachable!("g1 reads the pool and constants"),
        }
    }

    /// The vector of a first instruction.
    pub fn vector(&self, g: &Insn) -> Vec<u32> {
        (0..self.xs.len())
            .map(|i| g.op.eval(self.src_at(g.c, i), self.src_at(g.d, i)))
            .collect()
    }

    /// The windows of target t under completion `mode`, per lane (length 0: not counted).
    pub fn wins_of(&self, t: usize, mode: usize) -> &[(u32, u32)] {
        &self.wins[t * NMODES as usize + mode]
    }

    fn window_of(&self, t: usize, mode: usize, i: usize) -> Option<(u32, u32)> {
        let tg = &self.targets[t];
        if !tg.care[i] {
            return None;
        }
        let w = tg.want[i];
        let [_, p, lsb] = self.lane[i];
        Some(match mode {
            0 => (w, 1),
            1 => (w, 0x1_0000),
            // RNE at bit 16 with ties to even: an even w takes both ties, an odd one neither.
            2 if w & 0x1_0000 == 0 => (w.wrapping_sub(0x8000), 0x1_0001),
            2 => (w.wrapping_sub(0x7FFF), 0xFFFF),
            3 => (w.wrapping_sub(p), 0x1_0000),
            4 => (w.wrapping_sub(lsb), 0x1_0000),
            _ => (w.wrapping_sub(0x7FFF), 0x1_0000),
        })
    }

    /// Whether the lanes with equal `a` (adjacent in `order`, the lanes sorted by a) have
    /// windows of target t under completion `mode` that meet pairwise with the group's first
    /// counted lane: necessary for any v that is a function of a.
    pub fn consistent(&self, t: usize, mode: usize, a: &[u32], order: &[u32]) -> bool {
        let meet = |(s1, l1): (u32, u32), (s2, l2): (u32, u32)| {
            s2.wrapping_sub(s1) < l1 || s1.wrapping_sub(s2) < l2
        };
        let mut rep: Option<(u32, (u32, u32))> = None;
        for &i in order {
            let i = i as usize;
            let Some(w) = self.window(t, mode, i) else {
                continue;
            };
            match rep {
                Some((ar, wr)) if ar == a[i] => {
                    if !meet(wr, w) {
                        return false;
                    }
                }
                _ => rep = Some((a[i], w)),
            }
        }
        true
    }

    /// Alive bits after every lane (early exit when none is left).
    #[inline(always)]
    pub fn check(&self, f: impl Fn(usize) -> u32) -> u32 {
        let mut alive = self.all_alive();
        for i in 0..self.xs.len() {
            alive &= self.lane_ok(i, f(i), alive);
            if alive == 0 {
                return 0;
            }
        }
        alive
    }
}

/// Immediates enumerated per imm op. Shift amounts: one representative per distinct function
/// (the simulator shifts by `amt & 31` or `-amt & 31`, pinned over the whole imm12 range); the
/// others over every value of their field. DIVP2 without ADD equals SETEXP ARG_IMM (pinned).
pub fn imm_ops() -> Vec<Op> {
    let mut v = Vec::new();
    v.extend((-2048..2048).map(Op::IAddImm));
    v.extend((-31..=31).filter(|&a| a != 0).map(Op::ShftImm));
    v.extend((-31..=-1).map(Op::ShftImmArith));
    v.extend((0..2).map(Op::SetSgnImm));
    v.extend((0..=255).map(Op::SetExpImm));
    v.extend((0..0x1000).map(Op::SetManImm));
    v.extend((1..=255).map(Op::DivP2Add));
    v
}

/// A solution: program, target index, completion.
#[derive(Clone, Debug)]
pub struct Found {
    pub program: Program,
    pub target: usize,
}

#[derive(Default, Debug, Clone)]
pub struct Stats {
    /// Instructions g1 enumerated (before deduplication).
    pub g1_programs: u64,
    /// Distinct lane-varying g1 vectors that are not a base operand; g1 that gave a constant.
    pub g1_varying: u64,
    pub g1_uniform: u64,
    /// Second instructions evaluated (each against every completion and target).
    pub g2_candidates: u64,
    pub found: Vec<Found>,
    /// (lane-varying a, constant form, target, completion) systems solved for every 32-bit K.
    pub k_systems: u64,
    /// Solutions per target (all of them are counted; `found` keeps the first few per target).
    pub per_target: Vec<u64>,
}

pub const KEEP: usize = 64;

pub fn record(stats: &mut Vec<Found>, counts: &mut [u64], alive: u32, g1: Insn, g2: Insn) {
    for (t, count) in counts.iter_mut().enumerate() {
        for m in 0..NMODES as usize {
            if alive >> (t * NMODES as usize + m) & 1 != 0 {
                *count += 1;
                if stats.iter().filter(|f| f.target == t).count() < KEEP {
                    stats.push(Found {
                        program: Program { g1, g2, mode: m },
                        target: t,
                    });
                }
            }
        }
    }
}

/// Identity g1 for programs that use one instruction only.
pub const NOP_G1: Insn = Insn {
    op: Op::Mov,
    c: Src::Pool(0),
    d: Src::Pool(0),
};

/// The first instructions, by index without storing them: one-operand and immediate ops on a
/// pool value, then two-operand ops with at least one pool operand (the other a pool value or a
/// constant). An instruction on constants alone gives a constant; a program that uses it is one
/// instruction with a constant operand, which the any-K pass covers.
struct FirstSpace<'a> {
    ops1: Vec<Op>,
    p: &'a Problem,
}

impl FirstSpace<'_> {
    fn len(&self) -> usize {
        let (np, nc) = (self.p.pool.len(), self.p.consts.len());
        np * self.ops1.len() + (np * (np + nc) + nc * np) * BINARY.len()
    }

    fn at(&self, mut i: usize) -> Insn {
        let (np, nc) = (self.p.pool.len(), self.p.consts.len());
        let src = |k: usize| {
            if k < np {
                Src::Pool(k)
            } else {
                Src::Const(self.p.consts[k - np])
            }
        };
        let n1 = np * self.ops1.len();
        if i < n1 {
            let c = Src::Pool(i / self.ops1.len());
            return Insn {
                op: self.ops1[i % self.ops1.len()],
                c,
                d: c,
            };
        }
        i -= n1;
        let op = BINARY[i % BINARY.len()];
        i /= BINARY.len();
        let (c, d) = if i < np * (np + nc) {
            (src(i / (np + nc)), src(i % (np + nc)))
        } else {
            i -= np * (np + nc);
            (src(np + i / np), src(i % np))
        };
        Insn { op, c, d }
    }
}

pub fn hash(v: &[u32]) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = std::collections::hash_map::DefaultHasher::new();
    v.hash(&mut h);
    h.finish()
}

/// The distinct lane-varying first instructions: every one in `FirstSpace` whose vector on the
/// test vector is not constant, not a pool value, and not the vector of an earlier one (by hash,
/// then compared exactly, so a hash collision never drops a vector).
pub fn first(p: &Problem, imm: &[Op], stats: &mut Stats) -> Vec<Insn> {
    let space = FirstSpace {
        ops1: UNARY.iter().chain(imm).copied().collect(),
        p,
    };
    let pool_set: std::collections::HashSet<&Vec<u32>> = p.pool.iter().collect();
    let uniform = AtomicU64::new(0);
    let mut keyed: Vec<(u64, u32)> = (0..space.len())
        .into_par_iter()
        .filter_map(|i| {
            let v = p.vector(&space.at(i));
            if v.iter().all(|&e| e == v[0]) {
                uniform.fetch_add(1, Ordering::Relaxed);
                None
            } else if pool_set.contains(&v) {
                None
            } else {
                Some((hash(&v), i as u32))
            }
        })
        .collect();
    keyed.par_sort_unstable();
    let reps: Vec<Insn> = keyed
        .par_chunk_by(|a, b| a.0 == b.0)
        .flat_map_iter(|group| {
            let mut reps: Vec<(Insn, Vec<u32>)> = Vec::new();
            for &(_, i) in group {
                let g = space.at(i as usize);
                let v = p.vector(&g);
                if !reps.iter().any(|(_, r)| *r == v) {
                    reps.push((g, v));
                }
            }
            reps.into_iter().map(|(g, _)| g)
        })
        .collect();
    stats.g1_programs = space.len() as u64;
    stats.g1_uniform = uniform.into_inner();
    stats.g1_varying = reps.len() as u64;
    reps
}

pub type Partial = (Vec<Found>, Vec<u64>);

pub fn merge(nt: usize) -> impl Fn(Partial, Partial) -> Partial + Sync + Send {
    move |(mut f1, mut c1), (f2, c2)| {
        f1.extend(f2);
        c1.resize(nt, 0);
        for (a, b) in c1.iter_mut().zip(c2) {
            *a += b;
        }
        (f1, c1)
    }
}

pub fn absorb(stats: &mut Stats, (found, counts): Partial) {
    for f in found {
        if stats.found.iter().filter(|g| g.target == f.target).count() < KEEP {
            stats.found.push(f);
        }
    }
    for (a, b) in stats.per_target.iter_mut().zip(counts) {
        *a += b;
    }
}

/// Every g2 on one lane-varying a (g1's vector, or a pool value when `with_g2` is false: then
/// only the constant forms, as one-instruction programs). Returns the candidates evaluated.
pub fn second(
    p: &Problem,
    g1: Insn,
    a: &[u32],
    imm2: &[Op],
    with_g2: bool,
    out: &mut Partial,
) -> u64 {
    let (found, counts) = out;
    let mut local = 0u64;
    let g1src = Src::G1;
    let nt = p.targets.len();
    if with_g2 {
        // g1 alone.
        let alive = p.check(|i| a[i]);
        if alive != 0 {
            let g2 = Insn {
                op: Op::Mov,
                c: g1src,
                d: g1src,
            };
            record(found, counts, alive, g1, g2);
        }
        for &op in UNARY.iter().chain(imm2) {
            local += 1;
            let alive = p.check(|i| op.eval(a[i], 0));
            if alive != 0 {
                let g2 = Insn {
                    op,
                    c: g1src,
                    d: g1src,
                };
                record(found, counts, alive, g1, g2);
            }
        }
        let others = (0..p.pool.len()).map(|k| (Src::Pool(k), &p.pool[k][..]));
        for (s, b) in others.chain([(g1src, a)]) {
            for op in BINARY {
                let orders: &[bool] = if op.commutes() || s == g1src {
                    &[false]
                } else {
                    &[false, true]
                };
                for &swap in orders {
                    local += 1;
                    let alive = if swap {
                        p.check(|i| op.eval(b[i], a[i]))
                    } else {
                        p.check(|i| op.eval(a[i], b[i]))
                    };
                    if alive != 0 {
                        let (c, d) = if swap { (s, g1src) } else { (g1src, s) };
                        record(found, counts, alive, g1, Insn { op, c, d });
                    }
                }
            }
        }
    }
    // op(a, K) or op(K, a) for every 32-bit K. Lanes with equal a get equal v whatever the form
    // and K, so their windows must meet (`consistent`, a necessary condition checked first).
    let mut order: Vec<u32> = (0..a.len() as u32).collect();
    order.sort_unstable_by_key(|&i| a[i as usize]);
    let live: Vec<(usize, usize)> = (0..nt)
        .flat_map(|t| (0..NMODES as usize).map(move |m| (t, m)))
        .filter(|&(t, m)| p.consistent(t, m, a, &order))
        .collect();
    for form in kforms() {
        for &(t, mode) in &live {
            {
                if let Some(k) = p.solve(t, mode, a, form) {
                    let (c, d) = if form.k_first {
                        (Src::Const(k), g1src)
                    } else {
                        (g1src, Src::Const(k))
                    };
                    let g2 = Insn { op: form.op, c, d };
                    record(found, counts, 1 << (t * NMODES as usize + mode), g1, g2);
                }
            }
        }
    }
    local
}

/// The search. g1: every op over the pool and the constants (immediates over `imm`). g2 reads
/// g1: a one-operand op, an immediate op that a register constant cannot replace (the shifts
/// and SFPDIVP2 ADD), a two-operand op with a pool value or g1 itself, or a two-operand op with
/// any 32-bit constant (solved, `solve.rs`; this also covers one-instruction programs
/// `op(pool, K)`). When g1 is an SFPSWAP, g2 may also combine its two results.
pub fn search(p: &Problem, imm: &[Op]) -> Stats {
    let nt = p.targets.len();
    let mut stats = Stats {
        per_target: vec![0; nt],
        ..Stats::default()
    };
    // Zero instructions: a pool value is the result.
    for (k, v) in p.pool.iter().enumerate() {
        let alive = p.check(|i| v[i]);
        if alive != 0 {
            let s = Src::Pool(k);
            let g2 = Insn {
                op: Op::Mov,
                c: s,
                d: s,
            };
            record(&mut stats.found, &mut stats.per_target, alive, NOP_G1, g2);
        }
    }
    let reps = first(p, imm, &mut stats);
    let count = AtomicU64::new(0);
    let imm2: Vec<Op> = imm
        .iter()
        .copied()
        .filter(|op| matches!(op, Op::ShftImm(_) | Op::ShftImmArith(_) | Op::DivP2Add(_)))
        .collect();
    let zero = || (Vec::new(), vec![0u64; nt]);
    let part = reps
        .par_iter()
        .fold(zero, |mut out, g1| {
            let a = p.vector(g1);
            count.fetch_add(second(p, *g1, &a, &imm2, true, &mut out), Ordering::Relaxed);
            out
        })
        .reduce(zero, merge(nt));
    absorb(&mut stats, part);
    let mut out = zero();
    for (k, a) in p.pool.iter().enumerate() {
        let s = Src::Pool(k);
        let g1 = Insn {
            op: Op::Mov,
            c: s,
            d: s,
        };
        second(p, g1, a, &imm2, false, &mut out);
    }
    absorb(&mut stats, out);
    stats.k_systems = ((reps.len() + p.pool.len()) * kforms().len() * nt * NMODES as usize) as u64;
    // g1 is an SFPSWAP, which writes the min and the max: g2 may combine the two.
    let (np, nc) = (p.pool.len(), p.consts.len());
    let pairs: Vec<(Src, Src)> = (0..np)
        .flat_map(|i| {
            (i + 1..np)
                .map(Src::Pool)
                .chain(p.consts.iter().map(|&k| Src::Const(k)))
                .map(move |d| (Src::Pool(i), d))
        })
        .collect();
    debug_assert_eq!(pairs.len(), np * (np - 1) / 2 + np * nc);
    let part = pairs
        .par_iter()
        .fold(zero, |(mut found, mut counts), &(cs, ds)| {
            let mn = p.vector(&Insn {
                op: Op::Min,
                c: cs,
                d: ds,
            });
            let mx = p.vector(&Insn {
                op: Op::Max,
                c: cs,
                d: ds,
            });
            let g1 = Insn {
                op: Op::Min,
                c: cs,
                d: ds,
            };
            let mut local = 0u64;
            for op in BINARY {
                for swap in [false, true] {
                    local += 1;
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
                        record(&mut found, &mut counts, alive, g1, Insn { op, c, d });
                    }
                }
            }
            count.fetch_add(local, Ordering::Relaxed);
            (found, counts)
        })
        .reduce(zero, merge(nt));
    absorb(&mut stats, part);
    stats.g2_candidates = count.into_inner();
    stats
}

/// Checks `prog` against `want` on `xs`; returns the first failing input.
pub fn confirm(
    prog: &Program,
    xs: impl ParallelIterator<Item = u32>,
    want: impl Fn(u32) -> u32 + Sync,
) -> Option<u32> {
    xs.find_any(|&x| prog.output(x) != want(x))
}

#[allow(dead_code)]
pub fn insn_text(i: &Insn) -> String {
    let s = |s: Src| match s {
        Src::Pool(k) => POOL_NAMES.get(k).unwrap_or(&"w").to_string(),
        Src::Const(k) => format!("{k:#x}"),
        Src::G1 => "g1".to_string(),
        Src::G1Other => "g1's other SFPSWAP result".to_string(),
    };
    match i.op.arity() {
        Arity::One | Arity::Imm => format!("{:?}({})", i.op, s(i.c)),
        Arity::Two => format!("{:?}(c={}, d={})", i.op, s(i.c), s(i.d)),
    }
}
