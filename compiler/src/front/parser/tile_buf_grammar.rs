//! The `!pto.tile_buf` grammar (syntax.md §3.1-3.2) on chumsky: the legacy keyed form with its
//! fixed key order, the compact form with optional keys in any order, their value domains, and
//! the D-7b `pto.alloc_tile : <...>` spelling ([`tile_buf_after_angle`]). Built on the shared
//! machinery of `grammar` and the element/shape parsers of `type_grammar`; both spellings build
//! one `TileBufType` with defaults applied.

use super::grammar::*;
use super::type_grammar::*;
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::{dim_prefix_extents, unescape, Tok};
use crate::ir::types::{BLayout, Dim, Loc, SLayout, TileBufType};
use crate::ir::{ScalarType, Type};
use chumsky::input::ValueInput;
use chumsky::prelude::*;

pub(super) fn loc_from(s: &str) -> Option<Loc> {
    Some(match s {
        "mat" => Loc::Mat,
        "left" => Loc::Left,
        "right" => Loc::Right,
        "acc" => Loc::Acc,
        "vec" | "ub" => Loc::Vec,
        "bias" => Loc::Bias,
        "scaling" => Loc::Scaling,
        _ => return None,
    })
}

pub(super) fn loc_value<'a, I>(
    labels: &'static [&'static str],
) -> impl Parser<'a, I, Loc, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(labels, |t, span, _| {
        let word = match t {
            Tok::BareId(w) => w.to_string(),
            Tok::Str(s) => unescape(s),
            _ => return None,
        };
        Some(loc_from(&word).ok_or_else(|| {
            let message = format!(
                "unknown tile location {}; expected mat, left, right, acc, vec, bias, scaling or ub",
                found_quoted(Some(t))
            );
            fatal(ParseError::TypeDomain { message }, span, true)
        }))
    })
}

pub(super) fn blayout<'a, I>() -> impl Parser<'a, I, BLayout, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["'col_major'", "'row_major'"], |t, _, _| match t {
        Tok::BareId("row_major") => Some(Ok(BLayout::RowMajor)),
        Tok::BareId("col_major") => Some(Ok(BLayout::ColMajor)),
        _ => None,
    })
}

pub(super) fn slayout<'a, I>() -> impl Parser<'a, I, SLayout, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(
        &["'col_major'", "'none_box'", "'row_major'"],
        |t, _, _| match t {
            Tok::BareId("none_box") => Some(Ok(SLayout::NoneBox)),
            Tok::BareId("row_major") => Some(Ok(SLayout::RowMajor)),
            Tok::BareId("col_major") => Some(Ok(SLayout::ColMajor)),
            _ => None,
        },
    )
}

pub(super) fn fractal<'a, I>() -> impl Parser<'a, I, u64, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    int_value().map_with(|(v, span), e| {
        if [16, 32, 512, 1024].contains(&v) {
            v.unsigned_abs()
        } else {
            let msg = format!("unsupported fractal size {v}; expected 16, 32, 512 or 1024");
            e.state().domain(msg, span, span.end);
            512
        }
    })
}

pub(super) fn small<'a, I>(max: i64, msg: &'static str) -> impl Parser<'a, I, u8, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    int_value().map_with(move |(v, span), e| match u8::try_from(v) {
        Ok(b) if v <= max => b,
        _ => {
            e.state().domain(msg, span, span.end);
            0
        }
    })
}

pub(super) fn pad<'a, I>() -> impl Parser<'a, I, u8, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    small(3, "pad must be 0 (null), 1 (zero), 2 (max) or 3 (min)")
}

pub(super) fn compact<'a, I>() -> impl Parser<'a, I, u8, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    small(
        2,
        "compact must be 0 (null), 1 (normal) or 2 (row_plus_one)",
    )
}

/// `dim-pair ::= DIM_PREFIX dim` (also `0x<digits>` after `valid=`, §1.3): rows, cols, span.
pub(super) fn dim_pair<'a, I>() -> impl Parser<'a, I, (Dim, Dim, Span), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let prefixed = tokp(&["dimension list"], |t, span, _| match t {
        Tok::DimPrefix(p) => Some(match dim_prefix_extents(p) {
            Some(dims) => Ok((dims, span)),
            None => Err(fatal(ParseError::IntegerOutOfRange, span, true)),
        }),
        _ => None,
    })
    .then(tokp(&["'?'", "integer"], |t, span, _| match t {
        Tok::Question => Some(Ok(None)),
        Tok::Int(s) => Some(
            s.parse::<i64>()
                .map(Some)
                .map_err(|_| fatal(ParseError::IntegerOutOfRange, span, false)),
        ),
        _ => None,
    }))
    .map_with(|((ext, start), col), e| {
        let st = e.state();
        if ext.len() != 1 {
            let msg = format!("valid expects two dims, found {}", ext.len() + 1);
            st.domain(msg, start, start.end);
        }
        let r = ext
            .first()
            .copied()
            .flatten()
            .map_or(Dim::Dynamic, Dim::Static);
        let whole: Sp = e.span();
        let c = match col {
            None | Some(-1) => Dim::Dynamic,
            Some(v) if v < 0 => {
                let msg = "valid extents must be non-negative or '?'";
                e.state().domain(msg, start, whole.end);
                Dim::Dynamic
            }
            Some(v) => Dim::Static(v.unsigned_abs()),
        };
        (r, c, Span::new(start.start, whole.end))
    });
    let hex = tokp(&["dimension list"], |t, span, _| match t {
        Tok::HexInt(h) => {
            let digits = h.get(2..).unwrap_or("");
            Some(if digits.bytes().all(|b| b.is_ascii_digit()) {
                let c = digits.parse::<u64>().unwrap_or(u64::MAX);
                Ok((Dim::Static(0), Dim::Static(c), span))
            } else {
                Err(fatal(
                    ParseError::HexDims {
                        text: h.to_string(),
                    },
                    span,
                    true,
                ))
            })
        }
        _ => None,
    });
    choice((prefixed, hex))
}

/// Two static non-zero extents (compact tile_buf, tile).
pub(super) fn two_static(
    st: &mut TyState<'_>,
    what: &str,
    dims: &[Option<u64>],
    span: Span,
    at: usize,
) -> (u64, u64) {
    if dims.len() != 2 {
        let msg = format!(
            "{what} expects exactly two shape dims, found {}",
            dims.len()
        );
        st.domain(msg, span, at);
    } else if dims.iter().any(Option::is_none) {
        st.domain(format!("{what} shape must be static"), span, at);
    } else if dims.contains(&Some(0)) {
        st.domain("tile_buf rows/cols must be positive", span, at);
    }
    let r = dims.first().copied().flatten().unwrap_or(1);
    let c = dims.get(1).copied().flatten().unwrap_or(1);
    (r, c)
}

pub(super) fn check_valid(
    st: &mut TyState<'_>,
    d: Dim,
    extent: u64,
    which: &'static str,
    span: Span,
    at: usize,
) {
    if let Dim::Static(v) = d {
        if v > extent {
            let err = ParseError::ValidExceeds {
                which,
                value: v,
                extent,
            };
            st.push(err, span, at);
        }
    }
}

/// Everything known about a tile_buf while it is being read.
pub(super) struct TbParts {
    loc: Loc,
    elem: ScalarType,
    rows: u64,
    cols: u64,
    valid: Option<(Dim, Dim, Span, Span)>,
    blayout: BLayout,
    slayout: SLayout,
    fractal: u64,
    pad: u8,
    compact: u8,
}

pub(super) fn build_tile_buf(st: &mut TyState<'_>, p: TbParts, at: usize) -> Type {
    let (valid_row, valid_col) = match p.valid {
        Some((r, c, rspan, cspan)) => {
            check_valid(st, r, p.rows, "row", rspan, at);
            check_valid(st, c, p.cols, "col", cspan, at);
            (r, c)
        }
        None => (Dim::Static(p.rows), Dim::Static(p.cols)),
    };
    Type::TileBuf(TileBufType {
        loc: p.loc,
        rows: p.rows,
        cols: p.cols,
        elem: p.elem,
        valid_row,
        valid_col,
        blayout: p.blayout,
        slayout: p.slayout,
        fractal: p.fractal,
        pad: p.pad,
        compact: p.compact,
    })
}

/// A compact tile_buf key with its value.
#[derive(Clone)]
pub(super) enum Key {
    Valid(Dim, Dim, Span),
    BLayout(BLayout),
    SLayout(SLayout),
    Fractal(u64),
    Pad(u8),
    Compact(u8),
    Unknown,
}

pub(super) const TB_KEYS: &[&str] = &[
    "'blayout'",
    "'compact'",
    "'fractal'",
    "'pad'",
    "'slayout'",
    "'valid'",
];

/// `, key = value` of the compact form; duplicate and unknown keys are pending diagnostics.
pub(super) fn tb_key<'a, I>() -> impl Parser<'a, I, Key, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    // A key word, checked for duplicates as soon as it is read (before its `=`).
    // (`then`, not `ignore_then`: an ignored output is parsed in check mode, where `map_with`
    // closures do not run.)
    let key = |word: &'static str| {
        kw(word, TB_KEYS)
            .map_with(|kspan, e| note_key(e.state(), kspan))
            .then_ignore(punct(Tok::Equals))
    };
    let known = choice((
        key("valid")
            .then(dim_pair())
            .map(|(_, (r, c, s))| Key::Valid(r, c, s)),
        key("blayout").then(blayout()).map(|(_, b)| Key::BLayout(b)),
        key("slayout").then(slayout()).map(|(_, s)| Key::SLayout(s)),
        key("fractal").then(fractal()).map(|(_, f)| Key::Fractal(f)),
        key("pad").then(pad()).map(|(_, v)| Key::Pad(v)),
        key("compact").then(compact()).map(|(_, v)| Key::Compact(v)),
    ));
    let known_word = |w: &str| {
        matches!(
            w,
            "valid" | "blayout" | "slayout" | "fractal" | "pad" | "compact"
        )
    };
    // An unknown key (reported after its `=`): its value is skipped (one token, or a
    // dimension list and one token).
    let unknown = tokp(TB_KEYS, move |t, s, _| match t {
        Tok::BareId(w) if !known_word(w) => Some(Ok(s)),
        _ => None,
    })
    .map_with(|kspan, e| {
        note_key(e.state(), kspan);
        kspan
    })
    .then_ignore(punct(Tok::Equals))
    .map_with(|s, e| {
        let st = e.state();
        let key = st.text(s).to_string();
        st.push(ParseError::UnknownTileBufKey { key }, s, s.end);
    })
    .then_ignore(
        tokp(&[SILENT], |t, _, _| {
            matches!(t, Tok::DimPrefix(_)).then_some(Ok(()))
        })
        .or_not(),
    )
    .then_ignore(tokp(&[SILENT], |_, _, _| Some(Ok(()))))
    .map(|_| Key::Unknown);
    punct(Tok::Comma).ignore_then(choice((known, unknown)))
}

/// Records a compact key, or reports it as a duplicate (label `first given here`).
pub(super) fn note_key<'a>(st: &mut TyState<'a>, kspan: Span) {
    let word = st.text(kspan);
    if let Some(&(_, first)) = st.keys.iter().find(|(k, _)| *k == word) {
        st.diags.push(Pending {
            err: ParseError::DuplicateTileBufKey {
                key: word.to_string(),
            },
            span: kspan,
            at: kspan.end,
            label: Some((first, "first given here")),
        });
    } else {
        st.keys.push((word, kspan));
    }
}

/// `loc, RxCxT {, key=value} >` (syntax.md §3.2).
pub(super) fn tile_buf_compact<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    loc_value(&["tile location"])
        .then_ignore(punct(Tok::Comma))
        .then(shape_and_elem().map_with(|(dims, span, elem), e| {
            let whole: Sp = e.span();
            let end = whole.end;
            let (r, c) = two_static(e.state(), "compact tile_buf", &dims, span, end);
            (r, c, elem)
        }))
        .then(tb_key().repeated().collect::<Vec<Key>>())
        .then_ignore(punct(Tok::RAngle))
        .map_with(|((loc, (rows, cols, elem)), keys), e| {
            let mut p = TbParts {
                loc,
                elem,
                rows,
                cols,
                valid: None,
                blayout: BLayout::RowMajor,
                slayout: SLayout::NoneBox,
                fractal: 512,
                pad: 0,
                compact: 0,
            };
            for k in keys {
                match k {
                    Key::Valid(r, c, s) => p.valid = Some((r, c, s, s)),
                    Key::BLayout(b) => p.blayout = b,
                    Key::SLayout(s) => p.slayout = s,
                    Key::Fractal(f) => p.fractal = f,
                    Key::Pad(v) => p.pad = v,
                    Key::Compact(v) => p.compact = v,
                    Key::Unknown => {}
                }
            }
            let end: Sp = e.span();
            build_tile_buf(e.state(), p, end.end)
        })
}

/// A legacy key `key =` in its fixed place (`LegacyKeyOrder` otherwise).
pub(super) fn lkey<'a, I>(key: &'static str) -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&[SILENT], move |t, span, _| {
        Some(match t {
            Tok::BareId(w) if w == key => Ok(()),
            _ => Err(fatal(
                ParseError::LegacyKeyOrder {
                    expected: key.to_string(),
                    found: found_quoted(Some(t)),
                },
                span,
                true,
            )),
        })
    })
    .then_ignore(punct(Tok::Equals))
}

/// `,` before the legacy key `next`, with the note naming it when missing (§9 row 13).
pub(super) fn lcomma<'a, I>(next: &'static str) -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let note = Some(format!("legacy tile_buf requires {next}="));
    tokp_note(&["','"], note, |t, _, _| {
        matches!(t, Tok::Comma).then_some(Ok(()))
    })
}

pub(super) fn positive_extent<'a, I>() -> impl Parser<'a, I, u64, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    int_value().map_with(|(v, span), e| {
        if v < 1 {
            e.state()
                .domain("tile_buf rows/cols must be positive", span, span.end);
            1
        } else {
            v.unsigned_abs()
        }
    })
}

pub(super) fn legacy_vdim<'a, I>(
    key: &'static str,
) -> impl Parser<'a, I, (Dim, Span), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&[SILENT], move |t, span, _| {
        let bad = || {
            let message = format!(
                "{key} must be '?', -1, or a non-negative integer, found {}",
                t.describe()
            );
            Err(fatal(ParseError::TypeDomain { message }, span, true))
        };
        Some(match t {
            Tok::Question => Ok((Dim::Dynamic, span)),
            Tok::Int(s) => match s.parse::<i64>() {
                Ok(-1) => Ok((Dim::Dynamic, span)),
                Ok(v) if v >= 0 => Ok((Dim::Static(v.unsigned_abs()), span)),
                _ => bad(),
            },
            _ => bad(),
        })
    })
}

/// `loc=.., dtype=.., rows=.., cols=.., v_row=.., v_col=.., blayout=.., slayout=..,
/// fractal=.., pad=..[, compact=..] >` (syntax.md §3.1).
pub(super) fn tile_buf_legacy<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    // `loc` itself is matched silently: without it the compact form is tried instead.
    let head = kw("loc", &[SILENT])
        .then(punct(Tok::Equals))
        .ignore_then(loc_value(&["tile location"]))
        .then_ignore(lcomma("dtype").then(lkey("dtype")))
        .then(elem(false))
        .then_ignore(lcomma("rows").then(lkey("rows")))
        .then(positive_extent())
        .then_ignore(lcomma("cols").then(lkey("cols")))
        .then(positive_extent());
    let valid = lcomma("v_row")
        .then(lkey("v_row"))
        .ignore_then(legacy_vdim("v_row"))
        .then_ignore(lcomma("v_col").then(lkey("v_col")))
        .then(legacy_vdim("v_col"));
    let layout = lcomma("blayout")
        .then(lkey("blayout"))
        .ignore_then(blayout())
        .then_ignore(lcomma("slayout").then(lkey("slayout")))
        .then(slayout())
        .then_ignore(lcomma("fractal").then(lkey("fractal")))
        .then(fractal())
        .then_ignore(lcomma("pad").then(lkey("pad")))
        .then(pad())
        .then(
            punct(Tok::Comma)
                .ignore_then(lkey("compact"))
                .ignore_then(compact())
                .or_not(),
        );
    head.then(valid)
        .then(layout)
        .then_ignore(close_angle(true))
        .map_with(
            |(
                ((((loc, elem), rows), cols), ((vr, vrs), (vc, vcs))),
                ((((bl, sl), fr), pd), cp),
            ),
             e| {
                let p = TbParts {
                    loc,
                    elem,
                    rows,
                    cols,
                    valid: Some((vr, vc, vrs, vcs)),
                    blayout: bl,
                    slayout: sl,
                    fractal: fr,
                    pad: pd,
                    compact: cp.unwrap_or(0),
                };
                let end: Sp = e.span();
                build_tile_buf(e.state(), p, end.end)
            },
        )
}

/// The part of a tile_buf after `<`: legacy if it starts with `loc`, else compact. Also the
/// entry point for `pto.alloc_tile : <...>` (D-7b).
pub(crate) fn tile_buf_after_angle<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    choice((tile_buf_legacy(), tile_buf_compact()))
}
