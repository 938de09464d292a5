//! The enumeration of two-instruction Simple-unit programs around the integer RNE skeleton
//! `r = (x + 0x7FFF + lsb) & 0xFFFF0000`: operand pool, constant catalog, the ways the program's
//! result is used (completions), semantic deduplication of the first instruction, and the
//! early-exit evaluation of the second.

use super::ops::{Arity, Op, BINARY, UNARY};
use rayon::prelude::*;
use std::collections::HashMap;
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

fn operand(s: Src, pool: &[u32; 10], g1: u32, other: u32) -> u32 {
    match s {
        Src::Pool(i) => pool[i],
        Src::Const(k) => k,
        Src::G1 => g1,
        Src::G1Other => other,
    }
}

impl Program {
    pub fn output(&self, x: u32) -> u32 {
        let p = pool(x);
        let (c1, d1) = (operand(self.g1.c, &p, 0, 0), operand(self.g1.d, &p, 0, 0));
        let a = self.g1.op.eval(c1, d1);
        let other = match self.g1.op {
            Op::Min => Op::Max.eval(c1, d1),
            _ => Op::Min.eval(c1, d1),
        };
        let v = self.g2.op.eval(
            operand(self.g2.c, &p, a, other),
            operand(self.g2.d, &p, a, other),
        );
        complete(self.mode, x, v)
    }
}

/// One target: the wanted output per lane of the test vector, and which lanes count.
pub struct Target {
    pub want: Vec<u32>,
    pub care: Vec<bool>,
}

/// The test vector, the targets and the per-lane window bounds of the completions.
pub struct Problem {
    pub xs: Vec<u32>,
    pub targets: Vec<Target>,
    /// Per lane: `[x, p, lsb]`.
    lane: Vec<[u32; 3]>,
    pub base: Vec<(Src, Vec<u32>)>,
}

/// Alive bits: 6 completions per target.
const NMODES: u32 = 6;

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
        let mut base: Vec<(Src, Vec<u32>)> = (0..10)
            .map(|i| (Src::Pool(i), pools.iter().map(|p| p[i]).collect()))
            .collect();
        base.extend(consts.iter().map(|&k| (Src::Const(k), vec![k; xs.len()])));
        Problem {
            xs,
            targets,
            lane,
            base,
        }
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

    /// Alive bits after every lane (early exit when none is left).
    #[inline(always)]
    fn check(&self, f: impl Fn(usize) -> u32) -> u32 {
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
    /// Distinct g1 vectors that are not already a base operand: lane-varying / lane-uniform.
    pub g1_varying: u64,
    pub g1_uniform: u64,
    /// Second instructions evaluated (each against every completion and target).
    pub g2_candidates: u64,
    pub found: Vec<Found>,
    /// Solutions per target (all of them are counted; `found` keeps the first few per target).
    pub per_target: Vec<u64>,
}

const KEEP: usize = 64;

fn record(stats: &mut Vec<Found>, counts: &mut [u64], alive: u32, g1: Insn, g2: Insn) {
    for t in 0..counts.len() {
        for m in 0..NMODES as usize {
            if alive >> (t * NMODES as usize + m) & 1 != 0 {
                counts[t] += 1;
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
const NOP_G1: Insn = Insn {
    op: Op::Mov,
    c: Src::Pool(0),
    d: Src::Pool(0),
};

/// The first instructions: every op over the base operands (immediates over `imm`), deduplicated
/// by their vector on the test vector. Returns the lane-varying and lane-uniform survivors, and
/// checks each one (and each base operand) as a program of its own.
#[allow(clippy::type_complexity)]
fn first(p: &Problem, imm: &[Op], stats: &mut Stats) -> (Vec<(Insn, Vec<u32>)>, Vec<(Insn, u32)>) {
    let n = p.xs.len();
    let mut varying: HashMap<Vec<u32>, Insn> = HashMap::new();
    let mut uniform: HashMap<u32, Insn> = HashMap::new();
    let base_set: std::collections::HashSet<&Vec<u32>> = p.base.iter().map(|b| &b.1).collect();
    // Zero instructions: a base operand is the result.
    for (s, v) in &p.base {
        let alive = p.check(|i| v[i]);
        if alive != 0 {
            let g2 = Insn {
                op: Op::Mov,
                c: *s,
                d: *s,
            };
            record(&mut stats.found, &mut stats.per_target, alive, NOP_G1, g2);
        }
    }
    let mut add = |insn: Insn, v: Vec<u32>, stats: &mut Stats| {
        stats.g1_programs += 1;
        if base_set.contains(&v) {
            return;
        }
        if v.iter().all(|&e| e == v[0]) {
            uniform.entry(v[0]).or_insert(insn);
        } else if !varying.contains_key(&v) {
            let alive = p.check(|i| v[i]);
            if alive != 0 {
                let g2 = Insn {
                    op: Op::Mov,
                    c: Src::G1,
                    d: Src::G1,
                };
                record(&mut stats.found, &mut stats.per_target, alive, insn, g2);
            }
            varying.insert(v, insn);
        }
    };
    for (cs, cv) in &p.base {
        let cu = matches!(cs, Src::Const(_));
        for &op in UNARY.iter().chain(imm) {
            // An op on a constant is a constant: kept as a derived constant.
            let v: Vec<u32> = if cu {
                vec![op.eval(cv[0], 0); n]
            } else {
                cv.iter().map(|&c| op.eval(c, 0)).collect()
            };
            add(Insn { op, c: *cs, d: *cs }, v, stats);
        }
        for (ds, dv) in &p.base {
            for op in BINARY {
                let v: Vec<u32> = if cu && matches!(ds, Src::Const(_)) {
                    vec![op.eval(cv[0], dv[0]); n]
                } else {
                    (0..n).map(|i| op.eval(cv[i], dv[i])).collect()
                };
                add(Insn { op, c: *cs, d: *ds }, v, stats);
            }
        }
    }
    stats.g1_varying = varying.len() as u64;
    stats.g1_uniform = uniform.len() as u64;
    let mut varying: Vec<(Insn, Vec<u32>)> = varying.into_iter().map(|(v, i)| (i, v)).collect();
    varying.sort_by_key(|(i, _)| format!("{i:?}"));
    let mut uniform: Vec<(Insn, u32)> = uniform.into_iter().map(|(k, i)| (i, k)).collect();
    uniform.sort_by_key(|&(_, k)| k);
    (varying, uniform)
}

/// The search: every g1 over the base operands, then every g2 that reads g1 (g2's other operand
/// from the base operands or g1 itself). `imm` lists the immediate ops of both instructions.
pub fn search(p: &Problem, imm: &[Op]) -> Stats {
    let mut stats = Stats {
        per_target: vec![0; p.targets.len()],
        ..Stats::default()
    };
    let (varying, uniform) = first(p, imm, &mut stats);
    let count = AtomicU64::new(0);
    let nt = p.targets.len();
    // g1 varies over the lanes: g2 is any op on it.
    let (found, counts) = varying
        .par_iter()
        .fold(
            || (Vec::new(), vec![0u64; nt]),
            |(mut found, mut counts), (g1, a)| {
                let mut local = 0u64;
                let g1src = Src::G1;
                for &op in UNARY.iter().chain(imm) {
                    local += 1;
                    let alive = p.check(|i| op.eval(a[i], 0));
                    if alive != 0 {
                        let g2 = Insn {
                            op,
                            c: g1src,
                            d: g1src,
                        };
                        record(&mut found, &mut counts, alive, *g1, g2);
                    }
                }
                let others = p.base.iter().map(|(s, v)| (*s, v)).chain([(g1src, a)]);
                for (s, b) in others {
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
                                record(&mut found, &mut counts, alive, *g1, Insn { op, c, d });
                            }
                        }
                    }
                }
                count.fetch_add(local, Ordering::Relaxed);
                (found, counts)
            },
        )
        .reduce(
            || (Vec::new(), vec![0u64; nt]),
            |(mut f1, mut c1), (f2, c2)| {
                f1.extend(f2);
                for (a, b) in c1.iter_mut().zip(c2) {
                    *a += b;
                }
                (f1, c1)
            },
        );
    stats.found.extend(found);
    for (a, b) in stats.per_target.iter_mut().zip(counts) {
        *a += b;
    }
    // g1 is a (derived) constant k: g2 must combine it with a lane-varying base operand.
    let varying_base: Vec<(Src, &Vec<u32>)> = p
        .base
        .iter()
        .filter(|(s, _)| matches!(s, Src::Pool(_)))
        .map(|(s, v)| (*s, v))
        .collect();
    let (found, counts) = uniform
        .par_iter()
        .fold(
            || (Vec::new(), vec![0u64; nt]),
            |(mut found, mut counts), &(g1, k)| {
                let mut local = 0u64;
                for &(s, b) in &varying_base {
                    for op in BINARY {
                        for swap in [false, true] {
                            local += 1;
                            let alive = if swap {
                                p.check(|i| op.eval(b[i], k))
                            } else {
                                p.check(|i| op.eval(k, b[i]))
                            };
                            if alive != 0 {
                                let (c, d) = if swap { (s, Src::G1) } else { (Src::G1, s) };
                                record(&mut found, &mut counts, alive, g1, Insn { op, c, d });
                            }
                        }
                    }
                }
                count.fetch_add(local, Ordering::Relaxed);
                (found, counts)
            },
        )
        .reduce(
            || (Vec::new(), vec![0u64; nt]),
            |(mut f1, mut c1), (f2, c2)| {
                f1.extend(f2);
                for (a, b) in c1.iter_mut().zip(c2) {
                    *a += b;
                }
                (f1, c1)
            },
        );
    stats.found.extend(found);
    for (a, b) in stats.per_target.iter_mut().zip(counts) {
        *a += b;
    }
    // g1 is an SFPSWAP, which writes the min and the max: g2 may combine the two.
    let nb = p.base.len();
    let pairs: Vec<(usize, usize)> = (0..nb)
        .flat_map(|i| (i + 1..nb).map(move |j| (i, j)))
        .filter(|&(i, j)| {
            matches!(p.base[i].0, Src::Pool(_)) || matches!(p.base[j].0, Src::Pool(_))
        })
        .collect();
    let (found, counts) = pairs
        .par_iter()
        .fold(
            || (Vec::new(), vec![0u64; nt]),
            |(mut found, mut counts), &(i, j)| {
                let (cs, cv) = (&p.base[i].0, &p.base[i].1);
                let (ds, dv) = (&p.base[j].0, &p.base[j].1);
                let mn: Vec<u32> = (0..cv.len()).map(|l| Op::Min.eval(cv[l], dv[l])).collect();
                let mx: Vec<u32> = (0..cv.len()).map(|l| Op::Max.eval(cv[l], dv[l])).collect();
                let g1 = Insn {
                    op: Op::Min,
                    c: *cs,
                    d: *ds,
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
            },
        )
        .reduce(
            || (Vec::new(), vec![0u64; nt]),
            |(mut f1, mut c1), (f2, c2)| {
                f1.extend(f2);
                for (a, b) in c1.iter_mut().zip(c2) {
                    *a += b;
                }
                (f1, c1)
            },
        );
    stats.found.extend(found);
    for (a, b) in stats.per_target.iter_mut().zip(counts) {
        *a += b;
    }
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
        Src::Pool(k) => POOL_NAMES[k].to_string(),
        Src::Const(k) => format!("{k:#x}"),
        Src::G1 => "g1".to_string(),
        Src::G1Other => "g1's other SFPSWAP result".to_string(),
    };
    match i.op.arity() {
        Arity::One | Arity::Imm => format!("{:?}({})", i.op, s(i.c)),
        Arity::Two => format!("{:?}(c={}, d={})", i.op, s(i.c), s(i.d)),
    }
}
