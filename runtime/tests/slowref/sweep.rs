//! Sweeps: compare `Converter::convert_with_outcome` with the reference over a list of source
//! patterns × destinations × every executable (mode, sat, path), in parallel (rayon), and
//! collect the mismatches per combination with the first examples.
//!
//! The reference's costly work (exact decode, neighbour derivation) happens once per
//! (pattern, destination); modes, sat and paths are cheap selections on the prepared value.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use pto_runtime::{ConvError, ConvSpec, Converter, ElemType, NonSatPath, Rounding};
use rayon::prelude::*;

use super::{decode, finish, mode_error, prepare, value, value_string, ModeErr};

pub const ALL_MODES: [Rounding; 7] = [
    Rounding::Rint,
    Rounding::Round,
    Rounding::Floor,
    Rounding::Ceil,
    Rounding::Trunc,
    Rounding::Odd,
    Rounding::Hybrid,
];

pub const PATHS: [NonSatPath; 3] = [NonSatPath::X86, NonSatPath::Native, NonSatPath::Torch];

/// The paths that matter for a spec: all three for float→int with sat OFF, else X86 only.
pub fn paths_for(src: ElemType, dst: ElemType, sat: bool) -> &'static [NonSatPath] {
    if src.is_float() && dst.is_int() && !sat {
        &PATHS
    } else {
        &PATHS[..1]
    }
}

/// Checks `Converter::new` for one spec against [`mode_error`]; `Err` describes a disagreement.
pub fn check_new(spec: ConvSpec) -> Result<Option<Converter>, String> {
    let got = Converter::new(spec);
    let want = mode_error(spec.src, spec.dst, spec.rounding);
    match (want, got) {
        (None, Ok(c)) => {
            if c.spec() != spec {
                return Err(format!("{spec:?}: spec() returned {:?}", c.spec()));
            }
            Ok(Some(c))
        }
        (Some(ModeErr::Hybrid), Err(ConvError::HybridUnsupported { src, dst }))
            if src == spec.src && dst == spec.dst =>
        {
            Ok(None)
        }
        (
            Some(ModeErr::NotDefined),
            Err(ConvError::ModeNotDefined {
                src, dst, rounding, ..
            }),
        ) if src == spec.src && dst == spec.dst && rounding == spec.rounding => Ok(None),
        (want, got) => Err(format!(
            "{}->{} {} sat={} {:?}: expected {}, got {:?}",
            spec.src,
            spec.dst,
            spec.rounding.name(),
            spec.sat,
            spec.path,
            match want {
                None => "Ok".to_string(),
                Some(ModeErr::Hybrid) => "HybridUnsupported".to_string(),
                Some(ModeErr::NotDefined) => "ModeNotDefined".to_string(),
            },
            got.map(|_| "Ok")
        )),
    }
}

/// Every executable converter for (src, dst) (errors of `Converter::new` are checked by
/// [`check_new`] in a test of their own; here they are skipped).
pub fn converters(src: ElemType, dst: ElemType) -> Vec<Converter> {
    let mut out = Vec::new();
    for rounding in ALL_MODES {
        for sat in [false, true] {
            for &path in paths_for(src, dst, sat) {
                let spec = ConvSpec {
                    src,
                    dst,
                    rounding,
                    sat,
                    path,
                };
                if mode_error(src, dst, rounding).is_none() {
                    if let Ok(c) = Converter::new(spec) {
                        out.push(c);
                    }
                }
            }
        }
    }
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Bits,
    Inexact,
    OutOfRange,
}

type Key = (Kind, ElemType, Rounding, bool, u8);

#[derive(Default)]
pub struct Report {
    /// (kind, dst, mode, sat, path index) → (count, first examples).
    map: BTreeMap<Key, (u64, Vec<String>)>,
    pub checked: u64,
}

fn path_index(p: NonSatPath) -> u8 {
    match p {
        NonSatPath::X86 => 0,
        NonSatPath::Native => 1,
        NonSatPath::Torch => 2,
    }
}

impl Report {
    fn add(&mut self, key: Key, example: impl FnOnce() -> String) {
        let e = self.map.entry(key).or_insert((0, Vec::new()));
        e.0 += 1;
        if e.1.len() < 3 {
            e.1.push(example());
        }
    }

    fn merge(mut self, other: Report) -> Report {
        self.checked += other.checked;
        for (k, (n, ex)) in other.map {
            let e = self.map.entry(k).or_insert((0, Vec::new()));
            e.0 += n;
            for x in ex {
                if e.1.len() < 3 {
                    e.1.push(x);
                }
            }
        }
        self
    }

    pub fn is_clean(&self) -> bool {
        self.map.is_empty()
    }

    /// Mismatch summary: one line per failing combination, then its first examples.
    pub fn render(&self, src: ElemType, limit: usize) -> String {
        let mut s = String::new();
        let total: u64 = self.map.values().map(|v| v.0).sum();
        let _ = writeln!(
            s,
            "{src}: {total} mismatches in {} combinations ({} comparisons)",
            self.map.len(),
            self.checked
        );
        for ((kind, dst, mode, sat, path), (n, ex)) in self.map.iter().take(limit) {
            let _ = writeln!(
                s,
                "  {kind:?} {src}->{dst} {} sat={} path={:?}: {n} inputs",
                mode.name(),
                if *sat { "on" } else { "off" },
                PATHS[*path as usize]
            );
            for e in ex {
                let _ = writeln!(s, "      {e}");
            }
        }
        if self.map.len() > limit {
            let _ = writeln!(s, "  ... {} more combinations", self.map.len() - limit);
        }
        s
    }
}

/// Compares every input × every destination in `dsts` × every executable spec.
pub fn sweep(src: ElemType, inputs: &[u64], dsts: &[ElemType]) -> Report {
    let convs: Vec<(ElemType, Vec<Converter>)> =
        dsts.iter().map(|&d| (d, converters(src, d))).collect();
    inputs
        .par_chunks(1024)
        .map(|chunk| {
            let mut rep = Report::default();
            for &b in chunk {
                let x = value(&decode(src, b));
                for (dst, cs) in &convs {
                    let dst = *dst;
                    let p = prepare(&x, src, dst);
                    for c in cs {
                        let s = c.spec();
                        let want = finish(&p, src, dst, s.rounding, s.sat, s.path);
                        let (got, oc) = c.convert_with_outcome(b);
                        rep.checked += 1;
                        let key = |k| (k, dst, s.rounding, s.sat, path_index(s.path));
                        let ex = |what: &str, w: String, g: String| {
                            format!(
                                "src {b:#x} ({}): {what} expected {w}, got {g}",
                                value_string(src, b)
                            )
                        };
                        if got != want.bits {
                            rep.add(key(Kind::Bits), || {
                                ex(
                                    "bits",
                                    format!("{:#x} ({})", want.bits, value_string(dst, want.bits)),
                                    format!("{got:#x} ({})", value_string(dst, got)),
                                )
                            });
                            continue;
                        }
                        if want.inexact.is_some_and(|w| w != oc.inexact) {
                            rep.add(key(Kind::Inexact), || {
                                ex(
                                    "inexact",
                                    format!("{:?}", want.inexact),
                                    oc.inexact.to_string(),
                                )
                            });
                        }
                        if want.out_of_range.is_some_and(|w| w != oc.out_of_range) {
                            rep.add(key(Kind::OutOfRange), || {
                                ex(
                                    "out_of_range",
                                    format!("{:?}", want.out_of_range),
                                    oc.out_of_range.to_string(),
                                )
                            });
                        }
                    }
                }
            }
            rep
        })
        .reduce(Report::default, Report::merge)
}

/// Runs [`sweep`] and panics with the rendered report on any mismatch.
pub fn assert_sweep(src: ElemType, inputs: &[u64], dsts: &[ElemType]) {
    let t = std::time::Instant::now();
    let rep = sweep(src, inputs, dsts);
    eprintln!(
        "{src}: {} inputs, {} comparisons in {:.1?}",
        inputs.len(),
        rep.checked,
        t.elapsed()
    );
    assert!(rep.is_clean(), "{}", rep.render(src, 60));
}
