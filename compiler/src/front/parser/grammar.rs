//! Shared chumsky machinery of the type and attribute grammars: the token span type, the error
//! type [`TyErr`] (named `expected` sets merged at one token, or a fatal semantic error that wins),
//! the parser state [`TyState`] (pending semantic diagnostics, the token after the construct, the
//! compact-key table its inspector rewinds), and the token matchers ([`tokp`], [`punct`], keyword
//! and name matchers). The design and its invariants are described in `type_grammar`'s module doc.

use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::types::TypeTable;
use chumsky::error::{Error as ChError, LabelError};
use chumsky::extra;
use chumsky::input::{Input, InputRef, ValueInput};
use chumsky::inspector::Inspector;
use chumsky::prelude::*;
use chumsky::util::MaybeRef;
use chumsky::DefaultExpected;

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
    /// The statement grammar's primitives already reported this failure (a semantic error, or
    /// a type or dictionary that failed in its own grammar); it wins every merge.
    Reported,
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
            (TyErr::Reported, _) | (_, TyErr::Reported) => TyErr::Reported,
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

pub(super) fn expected_err<'a>(
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
    pub(super) keys: Vec<(&'a str, Span)>,
    /// The module's type table while the attribute grammar interns types (taken from the
    /// module for the parse and put back after it).
    pub types: TypeTable,
    /// The chunk's aliases, lent for the run like `types` (uses resolve in the grammar).
    pub aliases: super::alias::Aliases,
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
            aliases: super::alias::Aliases::default(),
        }
    }

    pub(crate) fn text(&self, span: Span) -> &'a str {
        let src: &'a str = self.src;
        src.get(span.start.saturating_sub(self.base)..span.end.saturating_sub(self.base))
            .unwrap_or("")
    }

    pub(super) fn push(&mut self, err: ParseError, span: Span, at: usize) {
        self.diags.push(Pending {
            err,
            span,
            at,
            label: None,
        });
    }

    pub(super) fn domain(&mut self, message: impl Into<String>, span: Span, at: usize) {
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

pub(super) fn punct_label(t: Tok<'_>) -> &'static str {
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
pub(super) fn found_quoted(t: Option<Tok<'_>>) -> String {
    match t {
        Some(Tok::BareId(s)) => format!("'{}'", crate::diag::clip::Echo(s)),
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

pub(super) fn tokp_note<'a, I, O, F>(
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

pub(super) fn kw<'a, I>(
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
pub(super) fn close_angle<'a, I>(comma_done: bool) -> impl Parser<'a, I, (), Ex<'a>> + Clone
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
pub(super) fn name<'a, I>(n: &'static str) -> impl Parser<'a, I, Span, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&[SILENT], move |t, s, _| {
        matches!(t, Tok::TypeName(w) if w == n).then_some(Ok(s))
    })
}
