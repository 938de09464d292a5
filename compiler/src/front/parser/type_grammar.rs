//! The type grammar of syntax.md §3 as chumsky (1.0.0-alpha.8) parsers.
//!
//! The hand-written statement parser (`types.rs`, [`Parser::parse_type`](super::Parser)) cuts the
//! tokens of one type out of its token buffer (the balanced `<...>` after a type name, or the
//! single token of a scalar type) and runs [`type_parser`] (or [`tile_buf_after_angle`] for the
//! D-7b `pto.alloc_tile : <...>` spelling) on that slice. Design and invariants:
//!
//! - **Input**: a slice of `(Tok, SimpleSpan)` pairs whose spans are the tokens' original byte
//!   offsets; end of input of the slice stands for the token *after* the type, which the caller
//!   puts into [`TyState::after`] so that `found ...` names it and the error span is its span
//!   (empty at end of file).
//! - **Tokens** are matched by [`tokp`], a `custom` parser that reads one token and either
//!   accepts it, rejects it with a named `expected` set, or rejects it with a *fatal* semantic
//!   error (an existing [`ParseError`] variant such as `UnknownType` or `HexDims`). Errors are
//!   recorded at the token, so chumsky's furthest-error rule picks the same token the
//!   hand-written parser stopped at, and alternatives failing at one token merge their sets
//!   (`expected ',' or '>'`). [`SILENT`] labels optional pieces the hand-written parser never
//!   listed; they are dropped when the error becomes a message.
//! - **Errors** are the crate's own chumsky error type [`TyErr`]: `Expected` (merged as a set) or
//!   `Fatal` (wins every merge at its position, is never relabelled).
//! - **Semantic checks** that do not stop parsing (tile_buf domains, `valid` bounds, duplicate
//!   and unknown compact keys, the vreg 2048-bit rule, shape rules) run in `map_with` closures
//!   and record [`Pending`] diagnostics in the [`TyState`] (`extra::State`); every such closure
//!   sits on an emitting path (collected repetitions, never the discarded side of
//!   `ignore_then`/`then_ignore`: chumsky parses discarded outputs in check mode, where
//!   `map_with` does not run), so it always runs.
//! - **LL(1)**: every alternative is told apart by its first token, and an alternative that fails
//!   after consuming a token makes the whole type fail (the furthest error wins over anything a
//!   sibling could do). Hence pending diagnostics are never from an abandoned alternative of a
//!   successful parse, and keeping them when the parse fails reproduces the hand-written
//!   parser's "domain error, then syntax error" output. The state's inspector therefore only
//!   rewinds the compact-key table.
//! - **Parity**: messages, spans and recovery positions are those of the hand-written parser
//!   this replaced (differentially fuzzed against it): e.g. the closing `>` after an optional
//!   last part lists `','` too ([`close_angle`]), and a positional `!pto.tile` leaves the
//!   statement parser to skip to its `>`.
//! - **Scope**: the caller cuts the slice (`types.rs`: balanced brackets, at most `MAX_DEPTH`
//!   deep and 4096 tokens). Function types in statement position (op signatures) are lists of
//!   types composed by the statement parser; inside attributes `attr_grammar::full_type` reads
//!   them.
//! - Nothing here panics: no indexing of user data, integer parsing is checked.

use chumsky::error::{Error as ChError, LabelError};
use chumsky::extra;
use chumsky::input::{Input, InputRef, ValueInput};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;

use super::types::{scalar_from_bare, scalar_from_typename, type_hint};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::{dim_prefix_extents, unescape, Tok};
use crate::ir::types::TypeTable;
use crate::ir::types::{
    AddrSpace, BLayout, Dim, Loc, MaskGranularity, SLayout, TileBufType, TileType,
};
use crate::ir::{ScalarType, Type};

/// Byte span of a token, as chumsky sees it.
pub(crate) type Sp = SimpleSpan<usize>;

/// Label of alternatives that never appear in `expected` sets.
pub(crate) const SILENT: &str = "";

/// A semantic error that stops the type (reported like a syntax error).
#[derive(Debug, Clone)]
pub(crate) struct Fatal {
    pub err: ParseError,
    pub span: Span,
    /// Reported with the statement's `while parsing this ...` label (a syntax-style error).
    pub ctx: bool,
    /// `MissingElemType`: help `write <dims>xf32`, from the token before `span` to its end.
    pub help_prev: bool,
    /// The statement continues after the whole type (positional `!pto.tile`).
    pub skip_type: bool,
}

/// The chumsky error type of the type grammar.
#[derive(Debug, Clone)]
pub(crate) enum TyErr<'a> {
    Expected {
        span: Sp,
        expected: Vec<&'static str>,
        /// `None`: end of the slice and no token after it (end of file).
        found: Option<Tok<'a>>,
        note: Option<String>,
    },
    Fatal(Box<Fatal>),
}

pub(crate) fn fatal(err: ParseError, span: Span, ctx: bool) -> Fatal {
    Fatal {
        err,
        span,
        ctx,
        help_prev: false,
        skip_type: false,
    }
}

impl<'a, I: Input<'a, Token = Tok<'a>, Span = Sp>> ChError<'a, I> for TyErr<'a> {
    fn merge(self, other: Self) -> Self {
        match (self, other) {
            (f @ TyErr::Fatal(_), _) | (_, f @ TyErr::Fatal(_)) => f,
            (
                TyErr::Expected {
                    span,
                    mut expected,
                    found,
                    note,
                },
                TyErr::Expected {
                    span: s2,
                    expected: more,
                    found: f2,
                    note: n2,
                },
            ) => {
                for e in more {
                    if !expected.contains(&e) {
                        expected.push(e);
                    }
                }
                let span = if found.is_none() && f2.is_some() {
                    s2
                } else {
                    span
                };
                TyErr::Expected {
                    span,
                    expected,
                    found: found.or(f2),
                    note: note.or(n2),
                }
            }
        }
    }
}

fn expected_err<'a>(
    labels: impl IntoIterator<Item = &'static str>,
    found: Option<MaybeRef<'a, Tok<'a>>>,
    span: Sp,
) -> TyErr<'a> {
    TyErr::Expected {
        span,
        expected: labels.into_iter().collect(),
        found: found.map(|t| *t),
        note: None,
    }
}

impl<'a, I: Input<'a, Token = Tok<'a>, Span = Sp>> LabelError<'a, I, DefaultExpected<'a, Tok<'a>>>
    for TyErr<'a>
{
    fn expected_found<E: IntoIterator<Item = DefaultExpected<'a, Tok<'a>>>>(
        expected: E,
        found: Option<MaybeRef<'a, Tok<'a>>>,
        span: Sp,
    ) -> Self {
        let labels = expected.into_iter().filter_map(|e| match e {
            DefaultExpected::Token(t) => Some(punct_label(*t)),
            DefaultExpected::EndOfInput => Some("end of input"),
            _ => None,
        });
        expected_err(labels, found, span)
    }
}

impl<'a, I: Input<'a, Token = Tok<'a>, Span = Sp>> LabelError<'a, I, &'static str> for TyErr<'a> {
    fn expected_found<E: IntoIterator<Item = &'static str>>(
        expected: E,
        found: Option<MaybeRef<'a, Tok<'a>>>,
        span: Sp,
    ) -> Self {
        expected_err(expected, found, span)
    }

    fn label_with(&mut self, label: &'static str) {
        if let TyErr::Expected { expected, .. } = self {
            expected.clear();
            expected.push(label);
        }
    }
}

/// A non-fatal diagnostic found while parsing a type.
#[derive(Debug, Clone)]
pub(crate) struct Pending {
    pub err: ParseError,
    pub span: Span,
    /// Byte offset up to which the type had been read (lexical errors before it silence this).
    pub at: usize,
    /// Secondary label (`first given here`).
    pub label: Option<(Span, &'static str)>,
}

/// Parser state (`extra::State`): the source for spelled-out texts, what follows the slice,
/// the pending diagnostics and the compact tile_buf keys seen so far.
pub(crate) struct TyState<'a> {
    pub src: &'a str,
    pub base: usize,
    /// The token after the slice and its span (empty span at end of file when `None`).
    pub after: Option<Tok<'a>>,
    pub after_span: Span,
    pub diags: Vec<Pending>,
    keys: Vec<(&'a str, Span)>,
    /// The module's type table while the attribute grammar interns types (taken from the
    /// module for the parse and put back after it).
    pub types: TypeTable,
}

impl<'a> TyState<'a> {
    pub(crate) fn new(src: &'a str, base: usize, after: Option<Tok<'a>>, after_span: Span) -> Self {
        TyState {
            src,
            base,
            after,
            after_span,
            diags: Vec::new(),
            keys: Vec::new(),
            types: TypeTable::default(),
        }
    }

    pub(crate) fn text(&self, span: Span) -> &'a str {
        let src: &'a str = self.src;
        src.get(span.start.saturating_sub(self.base)..span.end.saturating_sub(self.base))
            .unwrap_or("")
    }

    fn push(&mut self, err: ParseError, span: Span, at: usize) {
        self.diags.push(Pending {
            err,
            span,
            at,
            label: None,
        });
    }

    fn domain(&mut self, message: impl Into<String>, span: Span, at: usize) {
        self.push(
            ParseError::TypeDomain {
                message: message.into(),
            },
            span,
            at,
        );
    }
}

/// Rewinds only the key table (see the module doc for why diagnostics stay).
impl<'a, I: Input<'a>> Inspector<'a, I> for TyState<'a> {
    type Checkpoint = usize;
    fn on_token(&mut self, _: &I::Token) {}
    fn on_save<'p>(&self, _: &chumsky::input::Cursor<'a, 'p, I>) -> usize {
        self.keys.len()
    }
    fn on_rewind<'p>(&mut self, c: &chumsky::input::Checkpoint<'a, 'p, I, usize>) {
        self.keys.truncate(*c.inspector());
    }
}

pub(crate) type Ex<'a> = extra::Full<TyErr<'a>, TyState<'a>, ()>;

pub(crate) fn sp(s: Sp) -> Span {
    Span::new(s.start, s.end)
}

fn punct_label(t: Tok<'_>) -> &'static str {
    match t {
        Tok::LParen => "'('",
        Tok::RParen => "')'",
        Tok::LBrace => "'{'",
        Tok::RBrace => "'}'",
        Tok::LBracket => "'['",
        Tok::RBracket => "']'",
        Tok::LAngle => "'<'",
        Tok::RAngle => "'>'",
        Tok::Comma => "','",
        Tok::Colon => "':'",
        Tok::Equals => "'='",
        Tok::Arrow => "'->'",
        Tok::Question => "'?'",
        _ => "token",
    }
}

/// A bare word quoted as written (`'rows'`), other tokens described.
fn found_quoted(t: Option<Tok<'_>>) -> String {
    match t {
        Some(Tok::BareId(s)) => format!("'{s}'"),
        Some(t) => t.describe(),
        None => "end of input".to_string(),
    }
}

/// One token: `f` accepts it (`Some(Ok)`), rejects it fatally (`Some(Err)`) or does not know
/// it (`None`: `expected <labels>`). At the end of the slice `f` sees the token after the type,
/// only to build its error.
pub(crate) fn tokp<'a, I, O, F>(
    labels: &'static [&'static str],
    f: F,
) -> impl Parser<'a, I, O, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
    F: Fn(Tok<'a>, Span, &mut TyState<'a>) -> Option<Result<O, Fatal>> + Clone,
{
    tokp_note(labels, None, f)
}

fn tokp_note<'a, I, O, F>(
    labels: &'static [&'static str],
    note: Option<String>,
    f: F,
) -> impl Parser<'a, I, O, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
    F: Fn(Tok<'a>, Span, &mut TyState<'a>) -> Option<Result<O, Fatal>> + Clone,
{
    custom(move |inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let before = inp.cursor();
        let next = inp.next();
        let (tok, span, real) = match next {
            Some(t) => (Some(t), sp(inp.span_since(&before)), true),
            None => {
                let st = inp.state();
                (st.after, st.after_span, false)
            }
        };
        let r = match tok {
            Some(t) => f(t, span, inp.state()),
            None => None,
        };
        match r {
            Some(Ok(o)) if real => Ok(o),
            Some(Err(e)) => Err(TyErr::Fatal(Box::new(e))),
            _ => Err(TyErr::Expected {
                span: Sp::from(span.start..span.end),
                expected: labels.to_vec(),
                found: tok,
                note: note.clone(),
            }),
        }
    })
}

pub(crate) fn punct<'a, I>(k: Tok<'static>) -> impl Parser<'a, I, Span, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let labels: &'static [&'static str] = match k {
        Tok::LAngle => &["'<'"],
        Tok::RAngle => &["'>'"],
        Tok::LParen => &["'('"],
        Tok::RParen => &["')'"],
        Tok::LBracket => &["'['"],
        Tok::RBracket => &["']'"],
        Tok::LBrace => &["'{'"],
        Tok::RBrace => &["'}'"],
        Tok::Comma => &["','"],
        Tok::Colon => &["':'"],
        Tok::Equals => &["'='"],
        Tok::Arrow => &["'->'"],
        _ => &["token"],
    };
    tokp(labels, move |t, s, _| {
        (std::mem::discriminant(&t) == std::mem::discriminant(&k)).then_some(Ok(s))
    })
}

fn kw<'a, I>(
    word: &'static str,
    labels: &'static [&'static str],
) -> impl Parser<'a, I, Span, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(labels, move |t, s, _| {
        matches!(t, Tok::BareId(w) if w == word).then_some(Ok(s))
    })
}

/// The closing `>` of a type whose last part was optional: `expected ',' or '>'` (just
/// `'>'` at a `,` when `comma_done`, after the legacy `compact` key), as the hand-written
/// parser listed it.
fn close_angle<'a, I>(comma_done: bool) -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let both = tokp(&["','", "'>'"], |t, _, _| {
        matches!(t, Tok::RAngle).then_some(Ok(()))
    });
    let only = tokp(&["'>'"], |t, _, _| {
        matches!(t, Tok::RAngle).then_some(Ok(()))
    });
    custom(move |inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let at_comma = comma_done && matches!(inp.peek(), Some(Tok::Comma));
        if at_comma {
            inp.parse(&only)
        } else {
            inp.parse(&both)
        }
    })
}

/// A type name token.
fn name<'a, I>(n: &'static str) -> impl Parser<'a, I, Span, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&[SILENT], move |t, s, _| {
        matches!(t, Tok::TypeName(w) if w == n).then_some(Ok(s))
    })
}

/// An element type; `after_dims`: an extent where it should be is `MissingElemType`.
fn elem<'a, I>(after_dims: bool) -> impl Parser<'a, I, ScalarType, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["element type"], move |t, span, _| match t {
        Tok::BareId(w) => Some(scalar_from_bare(w).ok_or_else(|| {
            let err = ParseError::UnknownType {
                name: w.to_string(),
                hint: type_hint(w),
            };
            fatal(err, span, true)
        })),
        Tok::TypeName(n) => scalar_from_typename(n).map(Ok),
        Tok::Int(_) | Tok::Question if after_dims => Some(Err(Fatal {
            help_prev: true,
            ..fatal(
                ParseError::MissingElemType {
                    found: t.describe(),
                },
                span,
                true,
            )
        })),
        _ => None,
    })
}

/// `shape-and-elem ::= DIM_PREFIX elem-type`: extents (`None` = `?`), the prefix span, the type.
fn shape_and_elem<'a, I>(
) -> impl Parser<'a, I, (Vec<Option<u64>>, Span, ScalarType), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["dimension list"], |t, span, _| match t {
        Tok::DimPrefix(p) => Some(Ok((dim_prefix_extents(p), span))),
        Tok::HexInt(h) => Some(Err(fatal(
            ParseError::HexDims {
                text: h.to_string(),
            },
            span,
            true,
        ))),
        _ => None,
    })
    .then(elem(true))
    .map(|((dims, span), e)| (dims, span, e))
}

/// An integer literal as i64 (`integer literal out of range` is fatal, as before).
fn int_value<'a, I>() -> impl Parser<'a, I, (i64, Span), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["integer"], |t, span, _| match t {
        Tok::Int(s) => Some(
            s.parse::<i64>()
                .map(|v| (v, span))
                .map_err(|_| fatal(ParseError::IntegerOutOfRange, span, false)),
        ),
        _ => None,
    })
}

fn loc_from(s: &str) -> Option<Loc> {
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

fn loc_value<'a, I>(labels: &'static [&'static str]) -> impl Parser<'a, I, Loc, Ex<'a>> + Clone
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

fn blayout<'a, I>() -> impl Parser<'a, I, BLayout, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["'col_major'", "'row_major'"], |t, _, _| match t {
        Tok::BareId("row_major") => Some(Ok(BLayout::RowMajor)),
        Tok::BareId("col_major") => Some(Ok(BLayout::ColMajor)),
        _ => None,
    })
}

fn slayout<'a, I>() -> impl Parser<'a, I, SLayout, Ex<'a>> + Clone
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

fn fractal<'a, I>() -> impl Parser<'a, I, u64, Ex<'a>> + Clone
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

fn small<'a, I>(max: i64, msg: &'static str) -> impl Parser<'a, I, u8, Ex<'a>> + Clone
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

fn pad<'a, I>() -> impl Parser<'a, I, u8, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    small(3, "pad must be 0 (null), 1 (zero), 2 (max) or 3 (min)")
}

fn compact<'a, I>() -> impl Parser<'a, I, u8, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    small(
        2,
        "compact must be 0 (null), 1 (normal) or 2 (row_plus_one)",
    )
}

/// `dim-pair ::= DIM_PREFIX dim` (also `0x<digits>` after `valid=`, §1.3): rows, cols, span.
fn dim_pair<'a, I>() -> impl Parser<'a, I, (Dim, Dim, Span), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let prefixed = tokp(&["dimension list"], |t, span, _| match t {
        Tok::DimPrefix(p) => Some(Ok((dim_prefix_extents(p), span))),
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
fn two_static(
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

fn check_valid(
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
struct TbParts {
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

fn build_tile_buf(st: &mut TyState<'_>, p: TbParts, at: usize) -> Type {
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
enum Key {
    Valid(Dim, Dim, Span),
    BLayout(BLayout),
    SLayout(SLayout),
    Fractal(u64),
    Pad(u8),
    Compact(u8),
    Unknown,
}

const TB_KEYS: &[&str] = &[
    "'blayout'",
    "'compact'",
    "'fractal'",
    "'pad'",
    "'slayout'",
    "'valid'",
];

/// `, key = value` of the compact form; duplicate and unknown keys are pending diagnostics.
fn tb_key<'a, I>() -> impl Parser<'a, I, Key, Ex<'a>> + Clone
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
fn note_key<'a>(st: &mut TyState<'a>, kspan: Span) {
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
fn tile_buf_compact<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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
fn lkey<'a, I>(key: &'static str) -> impl Parser<'a, I, (), Ex<'a>> + Clone
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
fn lcomma<'a, I>(next: &'static str) -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let note = Some(format!("legacy tile_buf requires {next}="));
    tokp_note(&["','"], note, |t, _, _| {
        matches!(t, Tok::Comma).then_some(Ok(()))
    })
}

fn positive_extent<'a, I>() -> impl Parser<'a, I, u64, Ex<'a>> + Clone
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

fn legacy_vdim<'a, I>(key: &'static str) -> impl Parser<'a, I, (Dim, Span), Ex<'a>> + Clone
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
fn tile_buf_legacy<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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

/// `!pto.tile<RxCxT>` or `!pto.tile<loc, RxCxT[, valid=RxC]>` (D-13); positional spellings
/// are rejected.
fn tile_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    // Peeks (never consumes): `loc =`, or an element type right after `<`.
    let positional = custom(|inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let save = inp.save();
        let before = inp.cursor();
        let t0 = inp.next();
        let span = sp(inp.span_since(&before));
        let t1 = inp.next();
        inp.rewind(save);
        let positional = match t0 {
            Some(Tok::BareId("loc")) => matches!(t1, Some(Tok::Equals)),
            Some(Tok::BareId(w)) => scalar_from_bare(w).is_some(),
            Some(Tok::TypeName(n)) => scalar_from_typename(n).is_some(),
            _ => false,
        };
        if positional {
            return Err(TyErr::Fatal(Box::new(Fatal {
                skip_type: true,
                ..fatal(ParseError::PositionalTile, span, false)
            })));
        }
        Ok(())
    });
    let shape = |what: &'static str| {
        shape_and_elem().map_with(move |(dims, span, elem), e| {
            let whole: Sp = e.span();
            let end = whole.end;
            let (r, c) = two_static(e.state(), what, &dims, span, end);
            (r, c, elem)
        })
    };
    let no_loc = shape("!pto.tile")
        .then_ignore(punct(Tok::RAngle))
        .map(|(rows, cols, elem)| {
            Type::Tile(TileType {
                loc: None,
                rows,
                cols,
                elem,
                valid: None,
            })
        });
    let with_loc = loc_value(&[SILENT])
        .then_ignore(punct(Tok::Comma))
        .then(shape("!pto.tile"))
        .then(
            punct(Tok::Comma)
                .ignore_then(kw("valid", &["'valid'"]))
                .ignore_then(punct(Tok::Equals))
                .ignore_then(dim_pair())
                .or_not(),
        )
        .then_ignore(close_angle(false))
        .map_with(|((loc, (rows, cols, elem)), valid), e| {
            let end: Sp = e.span();
            let valid = valid.and_then(|(r, c, span)| {
                check_valid(e.state(), r, rows, "row", span, end.end);
                check_valid(e.state(), c, cols, "col", span, end.end);
                ((r, c) != (Dim::Static(rows), Dim::Static(cols))).then_some((r, c))
            });
            Type::Tile(TileType {
                loc: Some(loc),
                rows,
                cols,
                elem,
                valid,
            })
        });
    punct(Tok::LAngle)
        .ignore_then(positional)
        .ignore_then(choice((with_loc, no_loc)))
}

/// `!pto.vreg<N x T>`: one static extent and N x bitwidth(T) = 2048 (D-14).
fn vreg_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    punct(Tok::LAngle)
        .ignore_then(shape_and_elem())
        .map_with(|(dims, span, elem), e| {
            let end: Sp = e.span();
            let full = Span::new(span.start, end.end);
            let st = e.state();
            let lanes = match dims.as_slice() {
                [Some(n)] => {
                    let n = *n;
                    match elem.storage_bits() {
                        Some(bits) if n.checked_mul(u64::from(bits)) == Some(2048) => {}
                        Some(bits) => {
                            let bytes = n.saturating_mul(u64::from(bits)) / 8;
                            let shape = st.text(full).to_string();
                            st.push(ParseError::VregSize { shape, bytes }, full, full.end);
                        }
                        None => st.domain(
                            "!pto.vreg element type must have a known bit width",
                            full,
                            full.end,
                        ),
                    }
                    n
                }
                [None] => {
                    st.domain("!pto.vreg length must be static", full, full.end);
                    1
                }
                _ => {
                    let msg = format!(
                        "!pto.vreg takes exactly one dimension, found {}",
                        dims.len()
                    );
                    st.domain(msg, full, full.end);
                    1
                }
            };
            Type::VReg { lanes, elem }
        })
        .then_ignore(punct(Tok::RAngle))
}

fn mask_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let gran = tokp(&[SILENT], |t, span, _| {
        Some(match t {
            Tok::BareId("b8") => Ok(MaskGranularity::B8),
            Tok::BareId("b16") => Ok(MaskGranularity::B16),
            Tok::BareId("b32") => Ok(MaskGranularity::B32),
            _ => {
                let message = format!(
                    "expected mask granularity b8, b16 or b32, found {}",
                    found_quoted(Some(t))
                );
                Err(fatal(ParseError::TypeDomain { message }, span, true))
            }
        })
    });
    punct(Tok::LAngle)
        .ignore_then(gran)
        .then_ignore(punct(Tok::RAngle))
        .map(Type::Mask)
}

fn ptr_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let space = tokp(&[SILENT], |t, span, _| {
        let s = match t {
            Tok::BareId(w) => match w {
                "gm" => Some(AddrSpace::Gm),
                "ub" | "vec" => Some(AddrSpace::Ub),
                "mat" | "l1" => Some(AddrSpace::L1),
                "left" | "l0a" => Some(AddrSpace::L0a),
                "right" | "l0b" => Some(AddrSpace::L0b),
                "acc" | "l0c" => Some(AddrSpace::L0c),
                "bias" | "bt" => Some(AddrSpace::Bt),
                "scaling" | "fb" => Some(AddrSpace::Fb),
                _ => None,
            },
            _ => None,
        };
        Some(s.ok_or_else(|| {
            let message = "!pto.ptr address space must be one of gm, ub, vec, mat, l1, left, l0a, right, l0b, acc, l0c, bias, bt, scaling, fb".to_string();
            fatal(ParseError::TypeDomain { message }, span, true)
        }))
    });
    punct(Tok::LAngle)
        .ignore_then(elem(false))
        .then(punct(Tok::Comma).ignore_then(space).or_not())
        .then_ignore(close_angle(false))
        .map(|(elem, space)| Type::Ptr {
            elem,
            space: space.unwrap_or(AddrSpace::Gm),
        })
}

/// View shapes: rank >= 1, `?` allowed; rank-only `tensor_view<2xf32>` means `?x?xf32`.
fn view_body<'a, I>(tensor: bool) -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    punct(Tok::LAngle)
        .ignore_then(shape_and_elem())
        .then_ignore(punct(Tok::RAngle))
        .map_with(move |(dims, span, elem), e| {
            // spec: §3.6 (project lead) — the January rank-only spelling.
            let rank_only = match dims.as_slice() {
                [Some(rank @ 1..=8)] if tensor => usize::try_from(*rank).ok(),
                _ => None,
            };
            let shape = match rank_only {
                Some(rank) => vec![Dim::Dynamic; rank],
                None => {
                    if dims.contains(&Some(0)) {
                        e.state()
                            .domain("zero-sized dimensions are not allowed", span, span.end);
                    }
                    dims.into_iter()
                        .map(|d| d.map_or(Dim::Dynamic, Dim::Static))
                        .collect()
                }
            };
            if tensor {
                Type::TensorView { shape, elem }
            } else {
                Type::PartitionView { shape, elem }
            }
        })
}

/// `< balanced-tokens >` (D-9): the closer matching each opener; a wrong closer or the end of
/// the slice is `expected '<closer>'`.
pub(crate) fn balanced_angle<'a, I>() -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let closer = |t: Tok<'_>| match t {
        Tok::LAngle => Some(Tok::RAngle),
        Tok::LParen => Some(Tok::RParen),
        Tok::LBracket => Some(Tok::RBracket),
        Tok::LBrace => Some(Tok::RBrace),
        _ => None,
    };
    punct(Tok::LAngle).ignore_then(custom(move |inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let mut stack: Vec<Tok<'static>> = vec![Tok::RAngle];
        loop {
            let before = inp.cursor();
            let t = inp.next();
            let span: Sp = inp.span_since(&before);
            let want = stack.last().copied().unwrap_or(Tok::RAngle);
            let miss = |found: Option<Tok<'a>>, span: Sp| TyErr::Expected {
                span,
                expected: vec![punct_label(want)],
                found,
                note: None,
            };
            match t {
                None => {
                    let st = inp.state();
                    let s = st.after_span;
                    return Err(miss(st.after, Sp::from(s.start..s.end)));
                }
                Some(t) => {
                    if let Some(c) = closer(t) {
                        stack.push(c);
                    } else if matches!(t, Tok::RAngle | Tok::RParen | Tok::RBracket | Tok::RBrace) {
                        if std::mem::discriminant(&want) == std::mem::discriminant(&t) {
                            stack.pop();
                            if stack.is_empty() {
                                return Ok(());
                            }
                        } else {
                            return Err(miss(Some(t), span));
                        }
                    }
                }
            }
        }
    }))
}

/// The composite builtin types kept opaque (D-9).
pub(crate) const OPAQUE_WORDS: &[&str] = &["memref", "tensor", "vector", "complex", "tuple"];

/// `type` (syntax.md §3) minus function types, which the statement parser composes from types.
pub(crate) fn type_parser<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let opaque_text = |_: (), e: &mut chumsky::input::MapExtra<'a, '_, I, Ex<'a>>| {
        let s: Sp = e.span();
        let text = e.state().text(sp(s)).to_string();
        Type::Opaque(text)
    };
    let scalar_word = tokp(&[SILENT], |t, span, _| match t {
        Tok::BareId(w) if !OPAQUE_WORDS.contains(&w) => {
            Some(scalar_from_bare(w).map(Type::Scalar).ok_or_else(|| {
                let err = ParseError::UnknownType {
                    name: w.to_string(),
                    hint: type_hint(w),
                };
                fatal(err, span, true)
            }))
        }
        _ => None,
    });
    let opaque_word = tokp(&[SILENT], |t, _, _| {
        matches!(t, Tok::BareId(w) if OPAQUE_WORDS.contains(&w)).then_some(Ok(()))
    })
    .then_ignore(balanced_angle())
    .map_with(opaque_text);
    const KNOWN: &[&str] = &[
        "!pto.tile_buf",
        "!pto.tile",
        "!pto.vreg",
        "!pto.mask",
        "!pto.ptr",
        "!pto.tensor_view",
        "!pto.partition_tensor_view",
        "!pto.tile_view",
    ];
    let scalar_name = tokp(&[SILENT], |t, _, _| match t {
        Tok::TypeName(n) => scalar_from_typename(n).map(|s| Ok(Type::Scalar(s))),
        _ => None,
    });
    // An unknown `!dialect.name`, with `<...>` when the slice has it.
    let other_name = tokp(&[SILENT], |t, _, _| match t {
        Tok::TypeName(n) if !KNOWN.contains(&n) && scalar_from_typename(n).is_none() => {
            Some(Ok(()))
        }
        _ => None,
    })
    .then_ignore(balanced_angle().or_not())
    .map_with(opaque_text);
    choice((
        scalar_word,
        opaque_word,
        scalar_name,
        other_name,
        name("!pto.tile_buf")
            .ignore_then(punct(Tok::LAngle))
            .ignore_then(tile_buf_after_angle()),
        name("!pto.tile").ignore_then(tile_body()),
        name("!pto.vreg").ignore_then(vreg_body()),
        name("!pto.mask").ignore_then(mask_body()),
        name("!pto.ptr").ignore_then(ptr_body()),
        name("!pto.tensor_view").ignore_then(view_body(true)),
        name("!pto.partition_tensor_view").ignore_then(view_body(false)),
        name("!pto.tile_view").ignore_then(view_body(false)),
    ))
    .labelled("type")
}

#[cfg(test)]
mod tests {
    use crate::diag::Diagnostic;
    use crate::front::{parse_module, InputFormat};

    fn diags(src: &str) -> Vec<Diagnostic> {
        parse_module(src, 0, InputFormat::Pto).diagnostics
    }

    fn messages(src: &str) -> Vec<(String, usize, usize)> {
        diags(src)
            .iter()
            .map(|d| (d.message(), d.span.start, d.span.end))
            .collect()
    }

    fn with_type(ty: &str) -> String {
        format!("func.func @f(%a: {ty}) {{\n  return\n}}\n")
    }

    #[test]
    fn expected_sets_merge_at_one_token() {
        let src = with_type("!pto.ptr<f32 x>");
        let m = messages(&src);
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].0, "expected ',' or '>', found identifier 'x'");
        let x = src.find(" x>").map_or(0, |i| i + 1);
        assert_eq!((m[0].1, m[0].2), (x, x + 1));
    }

    #[test]
    fn end_of_slice_names_the_next_token() {
        // The slice stops before the unmatched ')'; `found` is that ')' with its span.
        let src = with_type("!pto.tile_buf<vec, 16x16xf32");
        let m = messages(&src);
        assert_eq!(m[0].0, "expected ',' or '>', found ')'", "{m:?}");
        let close = src.find(") {").unwrap_or(0);
        assert_eq!((m[0].1, m[0].2), (close, close + 1));
    }

    #[test]
    fn domain_errors_then_syntax_error() {
        let m = messages(&with_type("!pto.tile_buf<vec, 16x16xf32, pad=7, pad=1 x>"));
        let texts: Vec<&str> = m.iter().map(|t| t.0.as_str()).collect();
        assert_eq!(
            texts,
            [
                "pad must be 0 (null), 1 (zero), 2 (max) or 3 (min)",
                "duplicate key 'pad' in compact tile_buf",
                "expected ',' or '>', found identifier 'x'"
            ]
        );
    }

    #[test]
    fn fatal_errors_are_not_relabelled() {
        let m = messages(&with_type("float"));
        assert_eq!(m[0].0, "unknown type 'float'; did you mean 'f32'?");
        let m = messages(&with_type("->"));
        assert_eq!(m[0].0, "expected type, found '->'");
    }

    #[test]
    fn attribute_sets_and_cached_dictionaries() {
        let line = "  pto.tcvt ins(%a {rmod = #pto<round_mode ROUND>} : !pto.tile_buf<vec, 16x16xf32>) outs(%b : !pto.tile_buf<vec, 16x16xf16>)\n";
        let src = format!(
            "func.func @f(%a: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {{\n{line}{line}  return\n}}\n"
        );
        let m = messages(&src);
        // The second dictionary comes from the cache: its key span is rebased to its own line.
        let keys: Vec<usize> = src.match_indices("rmod ").map(|(i, _)| i).collect();
        let spans: Vec<usize> = m.iter().map(|t| t.1).collect();
        assert_eq!(spans, keys, "{m:?}");
        let m = messages("module attributes {,} {\n}\n");
        assert_eq!(m[0].0, "expected attribute name, found ','");
        let m = messages("module attributes {a = [1 2]} {\n}\n");
        assert_eq!(m[0].0, "expected ',' or ']', found integer '2'");
        let m = messages("module attributes {a = #pto<round_mode HALF_UP>} {\n}\n");
        assert!(m[0].0.starts_with("unknown round mode 'HALF_UP'"), "{m:?}");
    }
}
