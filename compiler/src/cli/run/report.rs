//! What `ptoc run` prints and writes: one summary line per output value (shape, dtype, NaN/Inf
//! counts, saturated or out-of-range counts of the conversion that produced it), the `.npy`
//! files, and the cross-profile difference report of `--target all`.
//!
//! Invariants: pure functions of the run results except [`write_npy`]; element positions are
//! logical (packed types: one entry per nibble), so a difference names the element a user
//! reads, with the source element the producing conversion read for it.

use std::path::Path;

use pto_runtime::convert::{classify, ValueClass};
use pto_runtime::value::{Tile, VReg};
use pto_runtime::ElemType;

use crate::exec::dataio::{self, NpyLayout};
use crate::exec::display::{format_bits, format_value};
use crate::exec::ExecError;
use crate::interp::{Origin, ParamKind, Produced, Value};

/// The logical elements of a value, row-major, with the shape that indexes them.
pub struct Elements {
    pub elem: ElemType,
    pub bits: Vec<u64>,
    /// Logical (rows, cols) for tiles; `None` for 1-D values.
    pub grid: Option<(u64, u64)>,
}

fn tile_elements(t: &Tile) -> Elements {
    let (r, c) = t.logical_shape();
    let mut bits = Vec::new();
    for i in 0..r {
        for j in 0..c {
            bits.push(t.get(i, j));
        }
    }
    Elements {
        elem: t.elem(),
        bits,
        grid: Some((r, c)),
    }
}

fn vreg_elements(v: &VReg) -> Elements {
    let e = v.elem();
    let mut bits = Vec::new();
    for i in 0..v.lanes() {
        let lane = v.lane(i);
        if e.is_packed() {
            bits.push(lane & 0xF);
            bits.push(lane >> 4);
        } else {
            bits.push(lane);
        }
    }
    Elements {
        elem: e,
        bits,
        grid: None,
    }
}

/// The logical elements of `v`; `scalar` is the element type of a scalar value.
pub fn elements(v: &Value, scalar: ElemType) -> Elements {
    match v {
        Value::Tile(t) => tile_elements(t),
        Value::VReg(r) => vreg_elements(r),
        Value::Mask(m) => Elements {
            elem: ElemType::U8,
            bits: m.lanes().into_iter().map(u64::from).collect(),
            grid: None,
        },
        Value::Scalar(s) => Elements {
            elem: scalar,
            bits: vec![*s],
            grid: None,
        },
    }
}

/// The position label of logical element `i`.
pub fn position(e: &Elements, i: usize) -> String {
    match e.grid {
        Some((_, c)) if c > 0 => format!("[{},{}]", i as u64 / c, i as u64 % c),
        _ => format!("[{i}]"),
    }
}

/// A short description of a value: `tile 16x64xf16 (valid 16x64)`, `vreg 128xf16`,
/// `mask b32 (64 lanes, 17 active)`, `scalar i32 = 36`.
pub fn describe(v: &Value, scalar: ElemType) -> String {
    match v {
        Value::Tile(t) => {
            let ((r, c), (vr, vc)) = (t.shape(), t.valid());
            format!("tile {r}x{c}x{} (valid {vr}x{vc})", t.elem())
        }
        Value::VReg(r) => format!("vreg {}x{}", r.lanes(), r.elem()),
        Value::Mask(m) => format!(
            "mask b{} ({} lanes, {} active)",
            m.granularity().bits(),
            m.granularity().lanes(),
            m.count_active()
        ),
        Value::Scalar(s) => format!("scalar {scalar} = {}", format_value(scalar, *s)),
    }
}

/// `NaN n, Inf n[, saturated n | out-of-range n]` for a value and its origin.
pub fn counts(p: &Produced, scalar: ElemType) -> String {
    let e = elements(&p.value, scalar);
    let mut out = String::new();
    if e.elem.is_float() && !matches!(p.value, Value::Mask(_)) {
        let (mut nan, mut inf) = (0u64, 0u64);
        for &b in &e.bits {
            match classify(e.elem, b) {
                ValueClass::Nan => nan += 1,
                ValueClass::Inf => inf += 1,
                _ => {}
            }
        }
        out.push_str(&format!("NaN {nan}, Inf {inf}"));
    }
    if let Some(o) = &p.origin {
        if !out.is_empty() {
            out.push_str(", ");
        }
        let what = if o.sat { "saturated" } else { "out-of-range" };
        out.push_str(&format!(
            "{what} {} of {} converted",
            o.stats.out_of_range, o.stats.converted
        ));
    }
    out
}

/// The source element (type, bits) the producing conversion read for logical element `i`.
pub fn input_of(origin: &Origin, out: &Elements, i: usize) -> Option<(ElemType, u64)> {
    match &origin.src {
        Value::Tile(src) => {
            let (_, c) = out.grid?;
            if c == 0 {
                return None;
            }
            let (r, c) = (i as u64 / c, i as u64 % c);
            let (sr, sc) = src.logical_shape();
            (r < sr && c < sc).then(|| (src.elem(), src.get(r, c)))
        }
        Value::VReg(src) => {
            let s = src.elem();
            let d = out.elem;
            let k = origin.part;
            let (ns, nd) = (src.lanes(), vreg_lanes(d));
            // The source lane (or nibble, for packed sources) that dst element i came from.
            let lane_nibble: Option<(usize, Option<usize>)> = if d.is_packed() {
                let (carrier, half) = (i / 2, i % 2);
                (carrier % 4 == k).then_some((2 * (carrier / 4) + half, None))
            } else if s.is_packed() {
                Some((4 * (i / 2) + k, Some(i % 2)))
            } else if ns == nd {
                Some((i, None))
            } else if ns < nd {
                let r = nd / ns;
                (i % r == k).then_some((i / r, None))
            } else {
                Some(((ns / nd) * i + k, None))
            };
            let (lane, nibble) = lane_nibble?;
            if lane >= ns {
                return None;
            }
            let bits = src.lane(lane);
            Some((
                s,
                match nibble {
                    Some(h) => (bits >> (4 * h)) & 0xF,
                    None => bits,
                },
            ))
        }
        _ => None,
    }
}

fn vreg_lanes(e: ElemType) -> usize {
    pto_runtime::value::VREG_BYTES / e.storage_bytes() as usize
}

/// Writes `v` as `.npy`: tiles as 2-D arrays of their declared shape (carrier bytes for packed
/// types), registers and masks (one u1 flag per lane) as 1-D arrays, scalars as 1-element arrays.
pub fn write_npy(path: &Path, v: &Value, kind: Option<ParamKind>) -> Result<(), ExecError> {
    match v {
        Value::Tile(t) => {
            let (r, c) = t.shape();
            let count = t.logical_len() as usize;
            let layout = NpyLayout {
                shape: vec![r, c],
                fortran_order: false,
            };
            dataio::write(path, t.elem(), t.storage(), count, Some(&layout))
        }
        Value::VReg(r) => {
            let e = r.elem();
            let count = if e.is_packed() {
                2 * r.lanes()
            } else {
                r.lanes()
            };
            let layout = NpyLayout {
                shape: vec![r.lanes() as u64],
                fortran_order: false,
            };
            dataio::write(path, e, r.storage(), count, Some(&layout))
        }
        Value::Mask(m) => {
            let flags: Vec<u8> = m.lanes().into_iter().map(u8::from).collect();
            let layout = NpyLayout {
                shape: vec![flags.len() as u64],
                fortran_order: false,
            };
            dataio::write(path, ElemType::U8, &flags, flags.len(), Some(&layout))
        }
        Value::Scalar(s) => {
            let elem = match kind {
                Some(ParamKind::Scalar { elem }) => elem,
                _ => ElemType::I64,
            };
            let w = elem.storage_bytes() as usize;
            let layout = NpyLayout {
                shape: vec![1],
                fortran_order: false,
            };
            dataio::write(path, elem, &s.to_le_bytes()[..w], 1, Some(&layout))
        }
    }
}

/// The difference report of one output across profiles (labels and values in profile order):
/// `None` when every profile produced the same bits.
pub fn diff(
    label: &str,
    runs: &[(&str, &Produced)],
    scalar: ElemType,
    max: usize,
) -> Option<String> {
    let (_, first) = runs.first()?;
    let all: Vec<Elements> = runs
        .iter()
        .map(|(_, p)| elements(&p.value, scalar))
        .collect();
    let base = all.first()?;
    let n = all.iter().map(|e| e.bits.len()).max().unwrap_or(0);
    let get = |e: &Elements, i: usize| e.bits.get(i).copied();
    let differing: Vec<usize> = (0..n)
        .filter(|&i| all.iter().any(|e| get(e, i) != get(base, i)))
        .collect();
    if differing.is_empty() {
        return None;
    }
    let names: Vec<&str> = runs.iter().map(|(l, _)| *l).collect();
    let mut out = format!(
        "{label}: {} of {n} elements differ between {}\n",
        differing.len(),
        names.join(", ")
    );
    for &i in differing.iter().take(max) {
        let input = first
            .origin
            .as_ref()
            .and_then(|o| input_of(o, base, i))
            .map_or("in -".to_string(), |(t, b)| {
                format!("in {} ({})", format_bits(t, b), format_value(t, b))
            });
        let outs: Vec<String> = runs
            .iter()
            .zip(&all)
            .map(|((l, _), e)| match get(e, i) {
                Some(b) => format!(
                    "{l} {} ({})",
                    format_bits(e.elem, b),
                    format_value(e.elem, b)
                ),
                None => format!("{l} -"),
            })
            .collect();
        out.push_str(&format!(
            "  {} {input} -> {}\n",
            position(base, i),
            outs.join(", ")
        ));
    }
    if differing.len() > max {
        out.push_str(&format!("  ... {} more\n", differing.len() - max));
    }
    Some(out)
}
