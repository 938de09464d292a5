//! The type grammar of syntax.md §3 as chumsky (1.0.0-alpha.8) parsers.
//!
//! The statement grammar (via `types.rs`, [`Parser::parse_type`](super::Parser)) cuts the
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
//! - **Files**: `grammar` holds the shared machinery (span type, [`TyErr`], [`TyState`], token
//!   matchers), `tile_buf_grammar` the `!pto.tile_buf` forms, this file the other types.
//! - Nothing here panics: no indexing of user data, integer parsing is checked.

use chumsky::input::{InputRef, ValueInput};
use chumsky::prelude::*;

use super::alias::{is_alias_name, verbatim_expanded, AliasKind};
use super::types::{scalar_from_bare, scalar_from_typename, type_hint};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::{dim_prefix_extents, Tok};
use crate::ir::types::{AddrSpace, Dim, MaskGranularity, TileType};
use crate::ir::{ScalarType, Type};

pub(super) use super::grammar::*;
pub(super) use super::tile_buf_grammar::*;

/// An element type; `after_dims`: an extent where it should be is `MissingElemType`.
pub(super) fn elem<'a, I>(after_dims: bool) -> impl Parser<'a, I, ScalarType, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["element type"], move |t, span, st| match t {
        Tok::BareId(w) => Some(scalar_from_bare(w).ok_or_else(|| {
            let err = ParseError::UnknownType {
                name: w.to_string(),
                hint: type_hint(w),
            };
            fatal(err, span, true)
        })),
        Tok::TypeName(n) if is_alias_name(n) => Some(alias_elem(n, span, st)),
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

/// An alias used as an element type: it must name a scalar type.
fn alias_elem(name: &str, span: Span, st: &TyState<'_>) -> Result<ScalarType, Fatal> {
    match st.aliases.get(name).map(|e| (&e.kind, &e.text)) {
        Some((AliasKind::Type(_, Type::Scalar(s)), _)) => Ok(s.clone()),
        Some((_, text)) => {
            let err = ParseError::Expected {
                expected: vec!["element type".to_string()],
                found: format!(
                    "type alias '{}' of {}",
                    crate::diag::clip::Echo(name),
                    crate::diag::clip::Echo(text)
                ),
            };
            Err(fatal(err, span, true))
        }
        None => Err(fatal(st.aliases.undefined(name, "a type"), span, true)),
    }
}

/// A type alias use `!t` (no `.`, no `<` after it): the aliased type. Fails silently on any
/// other token; an undefined name is fatal (no other alternative takes an alias name).
fn alias_type<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    custom(|inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let save = inp.save();
        let before = inp.cursor();
        let t0 = inp.next();
        let span = sp(inp.span_since(&before));
        let angle = matches!(inp.peek(), Some(Tok::LAngle));
        match t0 {
            Some(Tok::TypeName(n)) if is_alias_name(n) && !angle => {
                let st = inp.state();
                match st.aliases.get(n).map(|e| &e.kind) {
                    Some(AliasKind::Type(_, t)) => Ok(t.clone()),
                    _ => Err(TyErr::Fatal(Box::new(fatal(
                        st.aliases.undefined(n, "a type"),
                        span,
                        true,
                    )))),
                }
            }
            _ => {
                inp.rewind(save);
                Err(silent_at(inp, t0, span))
            }
        }
    })
}

/// A silent failure at token `t0` (at `span`), or at the token after the slice when `t0` is
/// `None`.
fn silent_at<'a, I>(
    inp: &mut InputRef<'a, '_, I, Ex<'a>>,
    t0: Option<Tok<'a>>,
    span: Span,
) -> TyErr<'a>
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let (found, span) = match t0 {
        Some(t) => (Some(t), Sp::from(span.start..span.end)),
        None => {
            let st = inp.state();
            let s = st.after_span;
            (st.after, Sp::from(s.start..s.end))
        }
    };
    TyErr::Expected {
        span,
        expected: vec![SILENT],
        found,
        note: None,
    }
}

/// `shape-and-elem ::= DIM_PREFIX elem-type`: extents (`None` = `?`), the prefix span, the type.
pub(super) fn shape_and_elem<'a, I>(
) -> impl Parser<'a, I, (Vec<Option<u64>>, Span, ScalarType), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&["dimension list"], |t, span, _| match t {
        Tok::DimPrefix(p) => Some(match dim_prefix_extents(p) {
            Some(dims) => Ok((dims, span)),
            None => Err(fatal(ParseError::IntegerOutOfRange, span, true)),
        }),
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
pub(super) fn int_value<'a, I>() -> impl Parser<'a, I, (i64, Span), Ex<'a>> + Clone
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

/// `!pto.tile<RxCxT>` or `!pto.tile<loc, RxCxT[, valid=RxC]>` (D-13); positional spellings
/// are rejected.
pub(super) fn tile_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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
pub(super) fn vreg_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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
                            let bytes = u128::from(n) * u128::from(bits) / 8;
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

pub(super) fn mask_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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

pub(super) fn ptr_body<'a, I>() -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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
    // Once the space is read nothing but `>` may follow, so that error lists only `'>'`.
    let close_only = tokp(&["'>'"], |t, _, _| {
        matches!(t, Tok::RAngle).then_some(Ok(()))
    });
    let with_space = punct(Tok::Comma)
        .ignore_then(space)
        .then_ignore(close_only)
        .map(Some);
    punct(Tok::LAngle)
        .ignore_then(elem(false))
        .then(with_space.or(close_angle(false).to(None)))
        .map(|(elem, space)| Type::Ptr {
            elem,
            space: space.unwrap_or(AddrSpace::Gm),
        })
}

/// View shapes: rank >= 1, `?` allowed; rank-only `tensor_view<2xf32>` means `?x?xf32`.
pub(super) fn view_body<'a, I>(tensor: bool) -> impl Parser<'a, I, Type, Ex<'a>> + Clone
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

/// The verbatim text of an opaque type or attribute (D-9), with canonical spacing so that two
/// spellings of one type compare equal and a multi-line one prints on one line: comments are
/// dropped, whitespace runs become one space, and none is kept after `<`, `(`, `[` or before
/// `>`, `)`, `]`, `,`. String literals are kept as written.
pub(crate) fn verbatim(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    let mut space = false;
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                if space && !out.ends_with(['<', '(', '[']) && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
                let mut escaped = false;
                for d in chars.by_ref() {
                    out.push(d);
                    match d {
                        '\\' if !escaped => escaped = true,
                        '"' if !escaped => break,
                        _ => escaped = false,
                    }
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
                space = true;
            }
            c if c.is_whitespace() => space = true,
            c => {
                let glued = matches!(c, '>' | ')' | ']' | ',') || out.ends_with(['<', '(', '[']);
                if space && !glued && !out.is_empty() {
                    out.push(' ');
                }
                space = false;
                out.push(c);
            }
        }
    }
    out
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
        Type::Opaque(verbatim_expanded(e.state(), sp(s)))
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
    // Not an alias name (`!t` without `<`): `alias_type` owns those.
    let other_name = custom(|inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let save = inp.save();
        let before = inp.cursor();
        let t0 = inp.next();
        let span = sp(inp.span_since(&before));
        let angle = matches!(inp.peek(), Some(Tok::LAngle));
        match t0 {
            Some(Tok::TypeName(n))
                if !KNOWN.contains(&n)
                    && scalar_from_typename(n).is_none()
                    && (angle || !is_alias_name(n)) =>
            {
                Ok(())
            }
            _ => {
                inp.rewind(save);
                Err(silent_at(inp, t0, span))
            }
        }
    })
    .then_ignore(balanced_angle().or_not())
    .map_with(opaque_text);
    // `!pto.ptr<!v>` where `!v` is a builtin composite (`vector<...>`).
    let composite_alias = tokp(&[SILENT], |t, _, st| match t {
        Tok::TypeName(n) if is_alias_name(n) => match st.aliases.get(n).map(|e| &e.kind) {
            Some(AliasKind::Type(_, Type::Opaque(text)))
                if OPAQUE_WORDS
                    .iter()
                    .any(|w| text.strip_prefix(w).is_some_and(|r| r.starts_with('<'))) =>
            {
                Some(Ok(()))
            }
            _ => None,
        },
        _ => None,
    });
    choice((
        alias_type(),
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
        // `!pto.ptr<vector<2xf16>, gm>`: a builtin composite element keeps the whole type
        // verbatim (D-9), as other builtin composites are.
        name("!pto.ptr")
            .ignore_then(punct(Tok::LAngle))
            .ignore_then(choice((
                tokp(&[SILENT], |t, _, _| {
                    matches!(t, Tok::BareId(w) if OPAQUE_WORDS.contains(&w)).then_some(Ok(()))
                })
                .then_ignore(balanced_angle()),
                composite_alias,
            )))
            .then_ignore(
                punct(Tok::Comma)
                    .ignore_then(tokp(&[SILENT], |t, _, _| {
                        matches!(t, Tok::BareId(_)).then_some(Ok(()))
                    }))
                    .or_not(),
            )
            .then_ignore(punct(Tok::RAngle))
            .map_with(opaque_text),
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
