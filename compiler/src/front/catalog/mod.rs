//! The op catalog: one [`Row`] per op with a custom form, as data. A row gives the op's
//! operand, result and attribute segments and its custom assembly format in the format
//! language of [`format`]; the one interpreter in [`interp`] turns every row into its parser
//! (driven by the statement grammar, `front::parser::catalog_form`) and its printer
//! (`ir::printer::catalog`). `docs/ops.md` is generated from this table.
//!
//! # Adding an op
//! 1. Add a row to `pto_rows.rs` (the PTO dialect) or `std_rows.rs` (the standard
//!    dialects), keeping the family order:
//!    `row("arith.addi", "lhs rhs", "result", "", "$lhs `,` $rhs attr-dict `:` type($result)")
//!    .same("lhs rhs result").doc("integer addition")`.
//!    - operands / results: names in order; `name?` is optional, `name*` variadic;
//!    - attributes: format-bound ones (`$predicate`) and the keys `attr-dict` accepts besides
//!      dotted (discardable) keys; `*` accepts any key (for ops whose attributes are not
//!      catalogued yet); `name?` may be absent (it can anchor an optional group). After `:`,
//!      how a format-bound one is read: `:kw` a bare keyword, `:kw=cmpi` one of a word set
//!      (`format::WORD_SETS`), `:str` a string, `:flags=overflow` `<nsw, nuw>` glued to the
//!      literal before it; without a kind, any attribute value;
//!    - results: an optional group anchored on a result type, `(`->` type($r)^)?`, lets the
//!      type be omitted (it is then unknown) or, for `r?`/`r*`, the results be absent. A
//!      statement may leave every result unnamed (`func.call @f() : () -> i64`);
//!    - `.same("a b r")`: these pieces have one type: an unwritten type is taken from a
//!      written one, and two written types that differ are an error naming both;
//!    - `.bool_result()`: the result is `i1` when the first operand is a scalar (compares);
//!    - `.build(Build::X)`: the op keeps a dedicated `OpKind` (the interpreter and verifier
//!      match on it); the default is `OpKind::Catalog` with the operand segment sizes.
//! 2. Run `cargo test -p ptoc --lib catalog` (every row compiles; the format rules are
//!    checked there), then `PTOC_BLESS=1 cargo test -p ptoc --test ops_docs` to regenerate
//!    `docs/ops.md`, and add a round-trip lit case under `tests/lit/roundtrip/`.
//!
//! Several rows may share a name (alternative forms, e.g. the two `pto.subview` forms): the
//! reader picks the one whose first literal after its leading operands is next.
//!
//! # What stays hand-written (and why)
//! - `pto.tcvt`, `pto.vcvt`: typed rounding/saturation attributes with their own diagnostics
//!   (D-20/D-21: attributes inside or after `ins(...)`, never both), the SSA/DPS form split
//!   with result-count rules, and the hot 100k-op verify path;
//! - `arith.constant`: the literal's type is part of the literal (`1.0 : f32`) and becomes the
//!   result type;
//! - `func.func`, `func.return`, `pto.vecscope` and every op with regions or successors
//!   (`scf.for`, `scf.if`, `cf.br`): regions and blocks are statement-level structure.
//!
//! # Not rows yet (read as opaque statements)
//! - `memref.subview`, `memref.reinterpret_cast`, `llvm.getelementptr`: mixed static/dynamic
//!   lists (`[0, %i]`) are not in the format language; `llvm.alloca` writes a type as an
//!   attribute (`%n x f32`);
//! - `pto.vmi.*`: PTOAS reads them with hand-written parsers, not declarative formats, and
//!   their forms vary per op (types after `:` optional, mask operands optional); each needs
//!   its grammar pinned down from those parsers before it can be a row;
//! - ops whose format writes an attribute or type without its dialect prefix
//!   (`pto.barrier <PIPE_ALL>`, `pto.addptr %p, %o : <f32> -> <f32>`): the reader would need
//!   the attribute's or type's kind from the row;
//! - ops with two optional groups that start alike (`pto.tmov`: `, %fp : T` or `, %q : i64`):
//!   the reader could not tell them apart, so printing would not read back;
//! - the rest of the vector and SIMT layers (`pto.vldsx2`, `pto.vldus`, `pto.copy_*`, ...):
//!   the rows above cover the ops the PTOAS lit corpus uses most; more are added as rows.
//!
//! `pto.convert` is a row (`round` `(` letter `)`, `sat`/`nosat`, the unit attributes `signed`
//! and `unsigned`, each set by its keyword); its rules are `target::convert`, found by row name
//! (`verify::rules::is_convert_row`).
//!
//! Ops in no row and not hand-written are read by the opaque reader.

pub mod format;
pub mod interp;
mod pto_rows;
mod std_rows;

use std::sync::OnceLock;

use rustc_hash::FxHashMap;

use crate::ir::types::MaskGranularity;
use crate::ir::{Attr, AttrDict, CatalogOp, OpKind, VBinaryKind};
use format::Compiled;

/// How a parsed row becomes an `OpKind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Build {
    /// `OpKind::Catalog` with the row and its operand segment sizes.
    Catalog,
    DeclareTile,
    /// Segments `addr? valid_row? valid_col?`.
    AllocTile,
    /// Segments `ptr shape* strides*`.
    MakeTensorView,
    /// Segments `source offsets* sizes*`.
    PartitionView,
    /// `OpKind::Pset`: granularity from the name, the `pattern` attribute moves into the kind.
    Pset,
    /// `OpKind::Plt`: granularity from the name.
    Plt,
    Vlds,
    Vsts,
    Vbr,
    /// `OpKind::VBinary` of the row's name.
    VBinary,
}

/// One op of the catalog (see the module doc).
#[derive(Debug, Clone)]
pub struct Row {
    pub name: &'static str,
    pub operands: &'static str,
    pub results: &'static str,
    pub attrs: &'static str,
    pub format: &'static str,
    pub same: &'static str,
    pub bool_result: bool,
    pub build: Build,
    pub summary: &'static str,
}

impl Row {
    pub const fn same(mut self, s: &'static str) -> Row {
        self.same = s;
        self
    }
    pub const fn build(mut self, b: Build) -> Row {
        self.build = b;
        self
    }
    pub const fn doc(mut self, s: &'static str) -> Row {
        self.summary = s;
        self
    }
    pub const fn bool_result(mut self) -> Row {
        self.bool_result = true;
        self
    }
    /// Whether `attr-dict` accepts any key (`*` in the attribute list).
    pub fn open_attrs(&self) -> bool {
        self.attrs.split_whitespace().any(|w| w == "*")
    }
}

pub(super) const fn row(
    name: &'static str,
    operands: &'static str,
    results: &'static str,
    attrs: &'static str,
    format: &'static str,
) -> Row {
    Row {
        name,
        operands,
        results,
        attrs,
        format,
        same: "",
        bool_result: false,
        build: Build::Catalog,
        summary: "",
    }
}

/// The catalog, in family order (the order of `docs/ops.md`).
fn build_rows() -> Vec<Row> {
    let mut t = Vec::new();
    pto_rows::rows(&mut t);
    std_rows::rows(&mut t);
    t
}

/// Whether `v` can stand for the format-bound attribute `spec` (so that the custom form prints
/// it in place): any value for plain attributes, a string for `:str`, a bare word for `:kw`
/// (of its set), the set's dialect attribute for flags.
pub fn attr_fits(spec: &format::AttrSpec, v: &Attr) -> bool {
    use format::AttrKind as K;
    let word = |w: &str| {
        w.chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && w.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.' || c == '$')
    };
    match (spec.kind, v) {
        (K::Any, _) => true,
        (K::Str, Attr::Str(_)) => true,
        (K::Keyword(None), Attr::Str(w)) => word(w),
        (K::Keyword(Some(set)), Attr::Str(w)) => set.words.contains(&w.as_str()),
        (K::Unit, Attr::Unit) => true,
        (K::Flags(set), Attr::Opaque(t)) => t
            .strip_prefix(set.attr)
            .and_then(|r| r.strip_prefix('<'))
            .and_then(|r| r.strip_suffix('>'))
            .is_some_and(|r| r.split(',').all(|w| set.words.contains(&w.trim()))),
        _ => false,
    }
}

/// A generated format or segment list, kept for the life of the process (the table is built
/// once).
pub(super) fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Row index into [`rows`].
pub type RowId = u16;

struct Table {
    rows: Vec<Row>,
    compiled: Vec<Compiled>,
    by_name: FxHashMap<&'static str, Vec<RowId>>,
}

fn table() -> &'static Table {
    static T: OnceLock<Table> = OnceLock::new();
    T.get_or_init(|| {
        let rows = build_rows();
        let compiled = rows
            .iter()
            .map(|r| {
                format::compile(r.operands, r.results, r.attrs, r.format, r.same).unwrap_or_else(
                    // The catalog's unit test compiles every row; a broken row is a bug here.
                    |e| panic!("catalog row {}: {e}", r.name),
                )
            })
            .collect();
        let mut by_name: FxHashMap<&'static str, Vec<RowId>> = FxHashMap::default();
        for (i, r) in rows.iter().enumerate() {
            by_name.entry(r.name).or_default().push(i as RowId);
        }
        Table {
            rows,
            compiled,
            by_name,
        }
    })
}

/// Every row, in table order.
pub fn rows() -> &'static [Row] {
    &table().rows
}

/// The row `id` and its compiled format.
pub fn get(id: RowId) -> Option<(&'static Row, &'static Compiled)> {
    let t = table();
    Some((t.rows.get(id as usize)?, t.compiled.get(id as usize)?))
}

/// The rows spelled `name` (alternatives in table order); empty if none.
pub fn by_name(name: &str) -> &'static [RowId] {
    table().by_name.get(name).map_or(&[], Vec::as_slice)
}

/// The canonical spelling of `name` if a row has it.
pub fn canonical(name: &str) -> Option<&'static str> {
    let ids = by_name(name);
    ids.first().map(|&i| table().rows[i as usize].name)
}

fn first_row(name: &str) -> Option<RowId> {
    by_name(name).first().copied()
}

fn granularity(name: &str) -> MaskGranularity {
    if name.ends_with("b8") {
        MaskGranularity::B8
    } else if name.ends_with("b16") {
        MaskGranularity::B16
    } else {
        MaskGranularity::B32
    }
}

/// The `OpKind` a parsed row builds, from its operand segment sizes; attributes the kind
/// carries itself (the `pattern` of `pto.pset_*`) move from `attrs` into it.
pub fn build_kind(id: RowId, segs: &[u32], attrs: &mut AttrDict) -> OpKind {
    let (build, name) = get(id).map_or((Build::Catalog, ""), |(r, _)| (r.build, r.name));
    match (build, segs) {
        (Build::DeclareTile, _) => OpKind::DeclareTile,
        (Build::AllocTile, &[a, r, c]) => OpKind::AllocTile {
            addr: a > 0,
            valid_row: r > 0,
            valid_col: c > 0,
        },
        (Build::MakeTensorView, &[_, shape, strides]) => OpKind::MakeTensorView { shape, strides },
        (Build::PartitionView, &[_, offsets, sizes]) => OpKind::PartitionView { offsets, sizes },
        (Build::Pset, _) => match attrs.shift_remove("pattern") {
            Some(Attr::Str(pattern)) => OpKind::Pset {
                granularity: granularity(name),
                pattern: pattern.into(),
            },
            other => {
                if let Some(v) = other {
                    attrs.insert("pattern".to_string(), v);
                }
                catalog_kind(id, segs)
            }
        },
        (Build::Plt, _) => OpKind::Plt {
            granularity: granularity(name),
        },
        (Build::Vlds, _) => OpKind::Vlds,
        (Build::Vsts, _) => OpKind::Vsts,
        (Build::Vbr, _) => OpKind::Vbr,
        (Build::VBinary, _) => match VBinaryKind::ALL.into_iter().find(|k| k.op_name() == name) {
            Some(k) => OpKind::VBinary(k),
            None => catalog_kind(id, segs),
        },
        _ => catalog_kind(id, segs),
    }
}

fn catalog_kind(id: RowId, segs: &[u32]) -> OpKind {
    OpKind::Catalog(CatalogOp {
        row: id,
        segments: segs.into(),
    })
}

/// How a kind prints through its row (inverse of [`build_kind`]).
pub struct RowOf {
    pub row: RowId,
    /// Operand segment sizes.
    pub segments: Vec<u32>,
    /// Format-bound attributes the kind carries instead of the op's dictionary.
    pub attrs: Vec<(&'static str, Attr)>,
}

/// The row that prints `kind` (inverse of [`build_kind`]).
pub fn row_of(kind: &OpKind) -> Option<RowOf> {
    let u = |b: bool| u32::from(b);
    let plain = |name: &str, segments: Vec<u32>| {
        Some(RowOf {
            row: first_row(name)?,
            segments,
            attrs: Vec::new(),
        })
    };
    match kind {
        OpKind::Catalog(c) => Some(RowOf {
            row: c.row,
            segments: c.segments.to_vec(),
            attrs: Vec::new(),
        }),
        OpKind::DeclareTile => plain("pto.declare_tile", Vec::new()),
        OpKind::AllocTile {
            addr,
            valid_row,
            valid_col,
        } => plain(
            "pto.alloc_tile",
            vec![u(*addr), u(*valid_row), u(*valid_col)],
        ),
        OpKind::MakeTensorView { shape, strides } => {
            plain("pto.make_tensor_view", vec![1, *shape, *strides])
        }
        OpKind::PartitionView { offsets, sizes } => {
            plain("pto.partition_view", vec![1, *offsets, *sizes])
        }
        OpKind::Pset {
            granularity,
            pattern,
        } => Some(RowOf {
            row: first_row(kind_name(*granularity, "pto.pset_"))?,
            segments: Vec::new(),
            attrs: vec![("pattern", Attr::Str(pattern.to_string()))],
        }),
        OpKind::Plt { granularity } => plain(kind_name(*granularity, "pto.plt_"), vec![1]),
        OpKind::Vlds => plain("pto.vlds", vec![1, 1]),
        OpKind::Vsts => plain("pto.vsts", vec![1, 1, 1, 1]),
        OpKind::Vbr => plain("pto.vbr", vec![1]),
        OpKind::VBinary(k) => plain(k.op_name(), vec![1, 1, 1]),
        _ => None,
    }
}

fn kind_name(g: MaskGranularity, prefix: &str) -> &'static str {
    let names: [&'static str; 3] = match prefix {
        "pto.pset_" => ["pto.pset_b8", "pto.pset_b16", "pto.pset_b32"],
        _ => ["pto.plt_b8", "pto.plt_b16", "pto.plt_b32"],
    };
    match g {
        MaskGranularity::B8 => names[0],
        MaskGranularity::B16 => names[1],
        MaskGranularity::B32 => names[2],
    }
}

/// Operand segment sizes of a row read in generic form with `n` operands: from
/// `operandSegmentSizes` when given, else when at most one segment is not single (it takes
/// the rest).
pub fn generic_segments(id: RowId, n: usize, given: Option<&[u32]>) -> Option<Vec<u32>> {
    let (_, c) = get(id)?;
    if let Some(seg) = given {
        let fits = c.operands.iter().zip(seg).all(|(s, &k)| match s.arity {
            format::Arity::One => k == 1,
            format::Arity::Opt => k <= 1,
            format::Arity::Many => true,
        });
        return (fits && seg.len() == c.operands.len() && seg.iter().sum::<u32>() as usize == n)
            .then(|| seg.to_vec());
    }
    let fixed = c
        .operands
        .iter()
        .filter(|s| s.arity == format::Arity::One)
        .count();
    let flexible = c.operands.len() - fixed;
    if n == fixed {
        return Some(
            c.operands
                .iter()
                .map(|s| u32::from(s.arity == format::Arity::One))
                .collect(),
        );
    }
    if n < fixed || flexible > 1 || (flexible == 0 && n != fixed) {
        return None;
    }
    Some(
        c.operands
            .iter()
            .map(|s| match s.arity {
                format::Arity::One => 1,
                _ => (n - fixed) as u32,
            })
            .collect(),
    )
}

/// `docs/ops.md`: the generated op index.
pub fn ops_markdown() -> String {
    let mut out = String::from(
        "# Op index\n\n\
         Generated from the op catalog (`compiler/src/front/catalog/`: `pto_rows.rs`,\n\
         `std_rows.rs`) by\n\
         `PTOC_BLESS=1 cargo test -p ptoc --test ops_docs`; do not edit by hand.\n\
         Each row is the op's custom form in the catalog's format language\n\
         (`compiler/src/front/catalog/format.rs`). Ops with hand-written grammars are listed in the\n\
         catalog's module doc; ops in neither are read as opaque statements.\n",
    );
    let mut family = "";
    for r in rows() {
        let fam = r.name.split('.').next().unwrap_or("");
        if fam != family {
            family = fam;
            out.push_str(&format!("\n## `{fam}`\n\n| op | operands | results | attributes | format | |\n|---|---|---|---|---|---|\n"));
        }
        let cell = |s: &str| {
            if s.is_empty() {
                String::new()
            } else {
                format!("`{}`", s.replace('|', "\\|"))
            }
        };
        let mut notes = r.summary.to_string();
        if !r.same.is_empty() {
            notes.push_str(&format!("; same type: {}", r.same));
        }
        if r.bool_result {
            notes.push_str("; result i1");
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | {} | `` {} `` | {} |\n",
            r.name,
            cell(r.operands),
            cell(r.results),
            cell(r.attrs),
            r.format.replace('|', "\\|"),
            notes
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_compiles() {
        for r in build_rows() {
            if let Err(e) = format::compile(r.operands, r.results, r.attrs, r.format, r.same) {
                panic!("row {}: {e}", r.name);
            }
        }
        assert!(rows().len() > 100);
    }

    #[test]
    fn kinds_round_trip_through_rows() {
        for (name, segs) in [
            ("pto.make_tensor_view", vec![1, 2, 2]),
            ("pto.partition_view", vec![1, 3, 3]),
            ("pto.alloc_tile", vec![1, 0, 1]),
            ("pto.declare_tile", vec![]),
            ("pto.tstore", vec![1, 0, 1, 1]),
        ] {
            let id = first_row(name).unwrap();
            let k = build_kind(id, &segs, &mut AttrDict::new());
            let back = row_of(&k).unwrap();
            assert_eq!((back.row, back.segments), (id, segs), "{name}");
        }
    }

    #[test]
    fn generic_segments_infer_one_variadic() {
        let id = first_row("pto.tload").unwrap();
        assert_eq!(generic_segments(id, 2, None), Some(vec![1, 1]));
        assert_eq!(generic_segments(id, 3, None), None);
        let st = first_row("pto.tstore").unwrap();
        assert_eq!(generic_segments(st, 2, None), Some(vec![1, 0, 0, 1]));
        assert_eq!(generic_segments(st, 3, None), None);
        assert_eq!(
            generic_segments(st, 3, Some(&[1, 0, 1, 1])),
            Some(vec![1, 0, 1, 1])
        );
    }
}
