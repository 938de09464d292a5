//! The last instruction with a register constant K, solved for every 32-bit K instead of a
//! catalog: `g2 = op(a, K)` or `op(K, a)` for a lane-varying vector a. Each completion turns the
//! wanted output of a lane into a modular window of v (`Problem::window`), so a lane allows K in
//! a set that each op family describes exactly:
//!
//! - SFPIADD (a + K, a − K, K − a): one modular arc per lane; arcs are intersected.
//! - bit-copying ops (AND, OR, XOR, SETSGN, SETEXP both modes, SETMAN, SFPSHFT of K by a lane
//!   amount): a depth-first search over K's bits from the top, pruned by the interval
//!   `[f(a, known), f(a, known | unknown)]` that holds every reachable v (each output bit is fixed
//!   or a copy of a K bit), accepting a subtree when every lane's interval lies in its window.
//! - SFPSWAP min / max and BH SFPGT / SFPLE: intervals of the sign-magnitude key of K.
//!
//! SFPSHFT with K as the shift amount is not here: its 63 distinct functions are the immediate
//! shifts, which the search enumerates.

use super::ops::Op;
use super::search::Problem;

/// One way a constant enters the last instruction: `op(K, a)` when `k_first`, else `op(a, K)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KForm {
    pub op: Op,
    pub k_first: bool,
}

impl KForm {
    pub fn eval(self, a: u32, k: u32) -> u32 {
        if self.k_first {
            self.op.eval(k, a)
        } else {
            self.op.eval(a, k)
        }
    }
}

/// Every form with a register constant (commuting ops once; the shift amount excluded).
pub fn kforms() -> Vec<KForm> {
    let mut v = Vec::new();
    for op in super::ops::BINARY {
        for k_first in [false, true] {
            if k_first && op.commutes() {
                continue;
            }
            if k_first && matches!(op, Op::ShftReg | Op::ShftRegArith) {
                continue;
            }
            v.push(KForm { op, k_first });
        }
    }
    v
}

/// Searches deeper than this would mean the pruning failed; the test then fails rather than
/// skip a case.
const NODE_BUDGET: u64 = 1 << 24;

fn plain(s: u32, l: u32) -> [(u32, u32); 2] {
    let end = u64::from(s) + u64::from(l) - 1;
    if end <= u64::from(u32::MAX) {
        [(s, end as u32), (1, 0)]
    } else {
        [(s, u32::MAX), (0, (end - (1 << 32)) as u32)]
    }
}

fn key(x: u32) -> i64 {
    i64::from(if x & 0x8000_0000 != 0 {
        (x ^ 0x7FFF_FFFF) as i32
    } else {
        x as i32
    })
}

fn unkey(k: i64) -> u32 {
    let k = k as i32;
    if k >= 0 {
        k as u32
    } else {
        (k as u32) ^ 0x7FFF_FFFF
    }
}

const KMIN: i64 = i32::MIN as i64;
const KMAX: i64 = i32::MAX as i64;

type Set = Vec<(i64, i64)>;

fn normalise(mut v: Set) -> Set {
    v.retain(|&(a, b)| a <= b);
    v.sort_unstable();
    let mut out: Set = Vec::with_capacity(v.len());
    for (a, b) in v {
        match out.last_mut() {
            Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
            _ => out.push((a, b)),
        }
    }
    out
}

fn intersect(x: &Set, y: &Set) -> Set {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        let (lo, hi) = (x[i].0.max(y[j].0), x[i].1.min(y[j].1));
        if lo <= hi {
            out.push((lo, hi));
        }
        if x[i].1 < y[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// The window `[s, s + l)` as key intervals.
fn window_keys(s: u32, l: u32) -> Set {
    let mut v = Vec::new();
    for (lo, hi) in plain(s, l) {
        if lo > hi {
            continue;
        }
        if lo <= 0x7FFF_FFFF {
            v.push((key(lo), key(hi.min(0x7FFF_FFFF))));
        }
        if hi >= 0x8000_0000 {
            v.push((key(hi), key(lo.max(0x8000_0000))));
        }
    }
    normalise(v)
}

fn inside(v: u32, s: u32, l: u32) -> bool {
    v.wrapping_sub(s) < l
}

impl Problem {
    /// A K with `form(a_i, K)` in every counted lane's window of target t, completion `mode`;
    /// `None` when no 32-bit K exists. A returned K is re-checked lane by lane.
    pub fn solve(&self, t: usize, mode: usize, a: &[u32], form: KForm) -> Option<u32> {
        let k = match form.op {
            Op::IAdd => self.solve_additive(t, mode, a, 0),
            Op::ISub if !form.k_first => self.solve_additive(t, mode, a, 1),
            Op::ISub => self.solve_additive(t, mode, a, 2),
            Op::Min | Op::Max | Op::Gt | Op::Le => self.solve_order(t, mode, a, form),
            _ => self.solve_bits(t, mode, a, form),
        }?;
        for (i, &ai) in a.iter().enumerate() {
            if let Some((s, l)) = self.window(t, mode, i) {
                let v = form.eval(ai, k);
                assert!(inside(v, s, l), "{form:?} K {k:#x}: lane {i} misses");
            }
        }
        Some(k)
    }

    /// `form` 0: a + K, 1: a − K, 2: K − a. Each lane allows K in one modular arc of length
    /// ≤ 0x10001, and two such arcs meet in at most one arc.
    pub fn solve_additive(&self, t: usize, mode: usize, a: &[u32], form: usize) -> Option<u32> {
        // (s, len): the arc of K still allowed, len == 0 before the first counting lane.
        let (mut s, mut len) = (0u32, 0u64);
        for (i, &ai) in a.iter().enumerate() {
            let Some((st, l)) = self.window(t, mode, i) else {
                continue;
            };
            let ts = match form {
                0 => st.wrapping_sub(ai),
                1 => ai.wrapping_sub(st).wrapping_sub(l).wrapping_add(1),
                _ => st.wrapping_add(ai),
            };
            if len == 0 {
                (s, len) = (ts, u64::from(l));
                continue;
            }
            let rel = u64::from(ts.wrapping_sub(s));
            let (lo, hi) = if rel < len {
                (rel, len.min(rel + u64::from(l)))
            } else if rel + u64::from(l) > 1 << 32 {
                (0, len.min(rel + u64::from(l) - (1 << 32)))
            } else {
                return None;
            };
            if lo >= hi {
                return None;
            }
            s = s.wrapping_add(lo as u32);
            len = hi - lo;
        }
        (len > 0).then_some(s)
    }

    fn solve_order(&self, t: usize, mode: usize, a: &[u32], form: KForm) -> Option<u32> {
        let mut allowed: Set = vec![(KMIN, KMAX)];
        for (i, &ai) in a.iter().enumerate() {
            let Some((s, l)) = self.window(t, mode, i) else {
                continue;
            };
            let ka = key(ai);
            let (below, above) = ((KMIN, ka - 1), (ka + 1, KMAX));
            let set = match form.op {
                // v = K below a, a above it (K = a at the tie).
                Op::Min => {
                    let mut v = intersect(&window_keys(s, l), &vec![below]);
                    if inside(ai, s, l) {
                        v.push((ka, KMAX));
                    }
                    v
                }
                Op::Max => {
                    let mut v = intersect(&window_keys(s, l), &vec![above]);
                    if inside(ai, s, l) {
                        v.push((KMIN, ka));
                    }
                    v
                }
                _ => {
                    // The K keys that give −1; the rest give 0.
                    let minus_one = match (form.op, form.k_first) {
                        (Op::Gt, true) => below,
                        (Op::Gt, false) => above,
                        (_, true) => (ka, KMAX),
                        (_, false) => (KMIN, ka),
                    };
                    let zero = if minus_one.0 == KMIN {
                        (minus_one.1 + 1, KMAX)
                    } else {
                        (KMIN, minus_one.0 - 1)
                    };
                    let mut v = Vec::new();
                    if inside(!0, s, l) {
                        v.push(minus_one);
                    }
                    if inside(0, s, l) {
                        v.push(zero);
                    }
                    v
                }
            };
            allowed = intersect(&allowed, &normalise(set));
            if allowed.is_empty() {
                return None;
            }
        }
        Some(unkey(allowed[0].0))
    }

    fn solve_bits(&self, t: usize, mode: usize, a: &[u32], form: KForm) -> Option<u32> {
        let wins = &self.wins_of(t, mode)[..a.len()];
        // The first lanes alone (the test vector's hardest ones) reject most systems: no K there
        // means no K on every lane.
        if a.len() > 2 * PREFILTER {
            bits_on(&a[..PREFILTER], &wins[..PREFILTER], form)?;
        }
        bits_on(a, wins, form)
    }
}

/// Lanes of the prefilter of `solve_bits`.
const PREFILTER: usize = 10;

/// A K for the bit-copying form on the lanes `a` with windows `wins`.
fn bits_on(a: &[u32], wins: &[(u32, u32)], form: KForm) -> Option<u32> {
    // The K bits that reach some lane's result (the others are left 0).
    let relevant = match (form.op, form.k_first) {
        (Op::Xor, _) => !0,
        (Op::And | Op::Or, _) => a
            .iter()
            .fold(0, |r, &ai| r | (form.eval(ai, !0) ^ form.eval(ai, 0))),
        (Op::ShftReg | Op::ShftRegArith, _) => a.iter().fold(0, |r, &ai| {
            let amt = ai as i32;
            r | if amt >= 0 {
                !0 >> (amt & 31)
            } else {
                !0 << (amt.wrapping_neg() & 31)
            }
        }),
        // The field instructions: which K bits they copy does not depend on a.
        _ => (0..32).fold(0, |r, b| {
            r | u32::from(form.eval(0, 1 << b) != form.eval(0, 0)) << b
        }),
    };
    let mut nodes = 0u64;
    dfs(a, wins, form, 0, relevant, &mut nodes, &mut 0)
}

/// Lane verdict for the reachable interval `[lo, hi]` against the window pieces.
fn verdict(lo: u32, hi: u32, w: &[(u32, u32); 2]) -> (bool, bool) {
    let mut meets = false;
    let mut within = false;
    for &(s, e) in w {
        if s > e {
            continue;
        }
        meets |= lo <= e && s <= hi;
        within |= s <= lo && hi <= e;
    }
    (meets, within)
}

/// K's bits above the highest bit of `unknown` are decided (`known`); the bits in `unknown` are
/// open, and every other bit is irrelevant (left 0).
fn dfs(
    a: &[u32],
    wins: &[(u32, u32)],
    form: KForm,
    known: u32,
    unknown: u32,
    nodes: &mut u64,
    hot: &mut usize,
) -> Option<u32> {
    *nodes += 1;
    assert!(
        *nodes < NODE_BUDGET,
        "{form:?}: the bit search did not converge"
    );
    let range = |ai: u32| {
        if form.op == Op::Xor {
            ((known ^ ai) & !unknown, (known ^ ai) | unknown)
        } else {
            (form.eval(ai, known), form.eval(ai, known | unknown))
        }
    };
    // The lane that failed last is tried first: it usually fails again.
    let (s, l) = wins[*hot];
    if l != 0 {
        let (lo, hi) = range(a[*hot]);
        if !verdict(lo, hi, &plain(s, l)).0 {
            return None;
        }
    }
    let mut all_within = true;
    for (i, (&ai, &(s, l))) in a.iter().zip(wins).enumerate() {
        if l == 0 {
            continue;
        }
        let (lo, hi) = range(ai);
        let (meets, within) = verdict(lo, hi, &plain(s, l));
        if !meets {
            *hot = i;
            return None;
        }
        all_within &= within;
    }
    if all_within {
        return Some(known);
    }
    if unknown == 0 {
        return None;
    }
    let b = 31 - unknown.leading_zeros();
    let unknown = unknown & !(1 << b);
    dfs(a, wins, form, known, unknown, nodes, hot)
        .or_else(|| dfs(a, wins, form, known | 1 << b, unknown, nodes, hot))
}
