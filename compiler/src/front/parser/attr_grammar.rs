//! The attribute grammar of syntax.md §4 as chumsky (1.0.0-alpha.8) parsers, sharing the token
//! matchers, error type and state of `type_grammar` (see its module doc for the slice input,
//! `found` at the end of the slice, fatal vs `expected` errors, and the LL(1) invariant).
//!
//! - [`attr_dict`] reads `{ entry, ... }` (duplicate keys are pending diagnostics with the label
//!   `first given here`; the first entry is kept); [`attr_value`] reads one `attr-value`
//!   (`arith.constant`'s literal). Both recurse through [`value_and_dict`].
//! - Types inside attributes (`: type` after literals, type values) use the type grammar plus
//!   function types, and are interned into `TyState::types` (the module's table, lent for the
//!   parse).
//! - Where the hand-written parser decided by looking ahead (`#pto<round_mode X>` vs an opaque
//!   `#pto<...>`, `array<...>` vs a type named `array`), a non-consuming [`guard`] fails
//!   silently at the first token, so alternatives stay distinguishable by their first token and
//!   a fatal error (`unknown round mode ...`) is never replaced by a fallback alternative.
//! - `expected` sets follow the hand-written ones: optional pieces (`=`, `: type`, the `}`/`]`
//!   of an empty dict/array) are [`SILENT`].

use chumsky::input::{InputRef, ValueInput};
use chumsky::prelude::*;

use super::alias::{is_alias_name, AliasKind};
use super::attrs::{symbol_name, Entry};
use super::type_grammar::{
    balanced_angle, fatal, punct, sp, tokp, type_parser, Ex, Pending, Sp, TyErr, SILENT,
};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::{Attr, RoundMode, Type, TypeId};

/// Fails silently (at the current token, consuming nothing) unless `ok` holds for the next
/// three tokens; otherwise succeeds without consuming.
fn guard<'a, I, F>(ok: F) -> impl Parser<'a, I, (), Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
    F: Fn(&[Option<Tok<'a>>; 5]) -> bool + Clone,
{
    custom(move |inp: &mut InputRef<'a, '_, I, Ex<'a>>| {
        let save = inp.save();
        let before = inp.cursor();
        let mut look = [None; 5];
        look[0] = inp.next();
        let span: Sp = inp.span_since(&before);
        for l in look.iter_mut().skip(1) {
            *l = inp.next();
        }
        inp.rewind(save);
        if ok(&look) {
            return Ok(());
        }
        // At the end of the slice the token after it is what was found.
        let (found, span) = match look[0] {
            Some(t) => (Some(t), span),
            None => {
                let st = inp.state();
                let s = st.after_span;
                (st.after, Sp::from(s.start..s.end))
            }
        };
        Err(TyErr::Expected {
            span,
            expected: vec![SILENT],
            found,
            note: None,
        })
    })
}

/// A silent punctuation (an optional piece the hand-written parser never listed).
fn quiet<'a, I>(k: Tok<'static>) -> impl Parser<'a, I, Span, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    tokp(&[SILENT], move |t, s, _| {
        (std::mem::discriminant(&t) == std::mem::discriminant(&k)).then_some(Ok(s))
    })
}

/// `type` including function types, interned.
pub(crate) fn full_type<'a, I>() -> impl Parser<'a, I, TypeId, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    recursive(|ty| {
        let list = punct(Tok::LParen).ignore_then(choice((
            quiet(Tok::RParen).map(|_| Vec::new()),
            ty.clone()
                .separated_by(punct(Tok::Comma))
                .at_least(1)
                .collect::<Vec<TypeId>>()
                .then_ignore(punct(Tok::RParen)),
        )));
        let function = list
            .clone()
            .then_ignore(punct(Tok::Arrow))
            .then(choice((list, ty.map(|t| vec![t]))))
            .map_with(|(inputs, results), e| {
                e.state().types.intern(Type::Function { inputs, results })
            });
        let plain = type_parser().map_with(|t, e| e.state().types.intern(t));
        choice((plain, function)).labelled("type")
    })
}

/// `attr-value` and `attr-dict` (syntax.md §4), mutually recursive.
fn value_and_dict<'a, I, V>(value: V) -> impl Parser<'a, I, Vec<Entry>, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
    V: Parser<'a, I, Attr, Ex<'a>> + Clone,
{
    let key = tokp(&["attribute name"], |t, s, _| match t {
        Tok::BareId(k) => Some(Ok((k.to_string(), s))),
        Tok::Str(k) => Some(Ok((unescape(k), s))),
        _ => None,
    });
    let entry = key
        .then(
            quiet(Tok::Equals)
                .ignore_then(value.map_with(|v, e| {
                    let s: Sp = e.span();
                    (v, sp(s))
                }))
                .or_not(),
        )
        .map(|((key, key_span), v)| {
            let (value, value_span) = v.unwrap_or((Attr::Unit, key_span));
            Entry {
                key: key.into(),
                key_span,
                span: key_span.join(value_span),
                value,
                value_span,
            }
        });
    punct(Tok::LBrace)
        .ignore_then(choice((
            quiet(Tok::RBrace).map(|_| Vec::new()),
            entry
                .separated_by(punct(Tok::Comma))
                .at_least(1)
                .collect::<Vec<Entry>>()
                .then_ignore(punct(Tok::RBrace)),
        )))
        .map_with(|entries, e| {
            let st = e.state();
            let mut out: Vec<Entry> = Vec::with_capacity(entries.len());
            for entry in entries {
                if let Some(first) = out.iter().find(|x| x.key == entry.key) {
                    st.diags.push(Pending {
                        err: ParseError::DuplicateAttribute {
                            key: entry.key.to_string(),
                        },
                        span: entry.key_span,
                        at: entry.key_span.end,
                        label: Some((first.key_span, "first given here")),
                    });
                } else {
                    out.push(entry);
                }
            }
            out
        })
}

/// `#pto<round_mode X>` / `#pto<saturation_mode ON|OFF>` (exactly that shape).
fn pto_enum<'a, I>() -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let mode = |kind: &'static str| {
        guard(move |l| {
            matches!(
                l,
                [
                    Some(Tok::AttrName("#pto")),
                    Some(Tok::LAngle),
                    Some(Tok::BareId(k)),
                    Some(Tok::BareId(_)),
                    Some(Tok::RAngle)
                ] if *k == kind
            )
        })
        .ignore_then(
            tokp(&[SILENT], |_, _, _| Some(Ok(())))
                .repeated()
                .exactly(3),
        )
        .ignore_then(tokp(&[SILENT], |t, s, _| match t {
            Tok::BareId(m) => Some(Ok((m, s))),
            _ => None,
        }))
        .then_ignore(punct(Tok::RAngle))
    };
    let round = mode("round_mode").try_map(|(m, s), _| {
        RoundMode::from_ptoas(m)
            .map(Attr::RoundMode)
            .ok_or_else(|| {
                let err = ParseError::UnknownRoundMode {
                    name: m.to_string(),
                };
                TyErr::Fatal(Box::new(fatal(err, s, false)))
            })
    });
    let sat = mode("saturation_mode").try_map(|(m, s), _| match m {
        "ON" => Ok(Attr::SatMode { on: true }),
        "OFF" => Ok(Attr::SatMode { on: false }),
        _ => {
            let err = ParseError::UnknownSatMode {
                name: m.to_string(),
            };
            Err(TyErr::Fatal(Box::new(fatal(err, s, false))))
        }
    });
    choice((round, sat))
}

/// `#pto.round_mode<CAST_X>` (D-18, D-19).
fn isa_round_mode<'a, I>() -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    guard(|l| {
        matches!(
            l,
            [
                Some(Tok::AttrName("#pto.round_mode")),
                Some(Tok::LAngle),
                ..
            ]
        )
    })
    .ignore_then(tokp(&[SILENT], |_, _, _| Some(Ok(()))))
    .ignore_then(punct(Tok::LAngle))
    .ignore_then(tokp(&["round mode"], |t, s, _| match t {
        Tok::BareId(m) => Some(Ok((m, s))),
        _ => None,
    }))
    .then_ignore(punct(Tok::RAngle))
    .try_map(|(m, span), _| {
        let err = match RoundMode::from_isa(m) {
            Some(rm) => return Ok(Attr::RoundMode(rm)),
            None if RoundMode::from_ptoas(m).is_some() => ParseError::RoundModeIsaMixed {
                name: m.to_string(),
            },
            None => ParseError::UnknownIsaRoundMode {
                name: m.to_string(),
            },
        };
        Err(TyErr::Fatal(Box::new(fatal(err, span, false))))
    })
}

/// Any other `#name[<...>]`, kept verbatim (D-9).
fn opaque_attr<'a, I>() -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    let special = |l: &[Option<Tok<'a>>; 5]| {
        let pto_enum = matches!(
            l,
            [
                Some(Tok::AttrName("#pto")),
                Some(Tok::LAngle),
                Some(Tok::BareId("round_mode" | "saturation_mode")),
                Some(Tok::BareId(_)),
                Some(Tok::RAngle)
            ]
        );
        let isa = matches!(
            l,
            [
                Some(Tok::AttrName("#pto.round_mode")),
                Some(Tok::LAngle),
                ..
            ]
        );
        pto_enum || isa
    };
    let alias = |l: &[Option<Tok<'a>>; 5]| {
        matches!(l[0], Some(Tok::AttrName(n)) if is_alias_name(n))
            && !matches!(l[1], Some(Tok::LAngle))
    };
    guard(move |l| matches!(l[0], Some(Tok::AttrName(_))) && !special(l) && !alias(l))
        .ignore_then(tokp(&[SILENT], |t, _, _| {
            matches!(t, Tok::AttrName(_)).then_some(Ok(()))
        }))
        .then(
            guard(|l| matches!(l[0], Some(Tok::LAngle)))
                .ignore_then(balanced_angle())
                .or_not(),
        )
        .map_with(|_, e| {
            let s: Sp = e.span();
            Attr::Opaque(super::alias::verbatim_expanded(e.state(), sp(s)))
        })
}

/// An attribute alias use `#a` (no `.`, no `<` after it): the aliased attribute. Fails silently
/// on any other token; an undefined name, or a location alias, is fatal (no other alternative
/// takes an alias name).
fn alias_attr<'a, I>() -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    guard(|l| {
        matches!(l[0], Some(Tok::AttrName(n)) if is_alias_name(n))
            && !matches!(l[1], Some(Tok::LAngle))
    })
    .ignore_then(tokp(&[SILENT], |t, span, st| match t {
        Tok::AttrName(n) => Some(match st.aliases.get(n).map(|e| &e.kind) {
            Some(AliasKind::Attr(a)) => Ok(a.clone()),
            Some(_) => Err(fatal(
                ParseError::LocationAliasAsAttribute {
                    name: n.to_string(),
                },
                span,
                true,
            )),
            None => Err(fatal(st.aliases.undefined(n, "an attribute"), span, true)),
        }),
        _ => None,
    }))
}

/// `value [: type]`: a typed non-literal attribute ([`Attr::Typed`]) when the type is there.
fn typed<'a, I, P>(p: P) -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
    P: Parser<'a, I, Attr, Ex<'a>> + Clone,
{
    p.then(quiet(Tok::Colon).ignore_then(full_type()).or_not())
        .map(|(value, ty)| match ty {
            Some(ty) => Attr::Typed {
                value: Box::new(value),
                ty,
            },
            None => value,
        })
}

/// `attr-value` (syntax.md §4).
pub(crate) fn attr_value<'a, I>() -> impl Parser<'a, I, Attr, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    recursive(|value| {
        let lit_ty = || quiet(Tok::Colon).ignore_then(full_type()).or_not();
        let int = tokp(&[SILENT], |t, s, _| match t {
            Tok::Int(v) => Some(
                v.parse::<i64>()
                    .map_err(|_| fatal(ParseError::IntegerOutOfRange, s, false)),
            ),
            _ => None,
        })
        .then(lit_ty())
        .map(|(value, ty)| Attr::Int { value, ty });
        let hex = tokp(&[SILENT], |t, s, _| match t {
            Tok::HexInt(v) => Some(
                u64::from_str_radix(v.get(2..).unwrap_or(""), 16)
                    .map_err(|_| fatal(ParseError::IntegerOutOfRange, s, false)),
            ),
            _ => None,
        })
        .then(lit_ty())
        .map(|(value, ty)| Attr::Hex { value, ty });
        let float = tokp(&[SILENT], |t, _, _| match t {
            Tok::Float(v) => Some(Ok(v.parse::<f64>().unwrap_or(f64::NAN).to_bits())),
            _ => None,
        })
        .then(lit_ty())
        .map(|(bits, ty)| Attr::Float { bits, ty });
        let simple = tokp(&[SILENT], |t, _, _| match t {
            Tok::Str(s) => Some(Ok(Attr::Str(unescape(s)))),
            Tok::Symbol(s) => Some(Ok(Attr::Symbol(symbol_name(s)))),
            Tok::BareId("true") => Some(Ok(Attr::Bool(true))),
            Tok::BareId("false") => Some(Ok(Attr::Bool(false))),
            Tok::BareId("unit") => Some(Ok(Attr::Unit)),
            _ => None,
        });
        let array = punct(Tok::LBracket)
            .ignore_then(choice((
                quiet(Tok::RBracket).map(|_| Vec::new()),
                value
                    .clone()
                    .separated_by(punct(Tok::Comma))
                    .at_least(1)
                    .collect::<Vec<Attr>>()
                    .then_ignore(punct(Tok::RBracket)),
            )))
            .map(Attr::Array);
        let dict = value_and_dict(value).map(|entries| {
            Attr::Dict(
                entries
                    .into_iter()
                    .map(|e| (e.key.into(), e.value))
                    .collect(),
            )
        });
        let opaque_word = guard(|l| {
            matches!(
                l,
                [
                    Some(Tok::BareId(
                        "array" | "dense" | "dense_resource" | "sparse" | "affine_map" | "strided"
                    )),
                    Some(Tok::LAngle),
                    ..
                ]
            )
        })
        .ignore_then(tokp(&[SILENT], |_, _, _| Some(Ok(()))))
        .ignore_then(balanced_angle())
        .map_with(|_, e| {
            let s: Sp = e.span();
            Attr::Opaque(super::alias::verbatim_expanded(e.state(), sp(s)))
        });
        // `dense<...> : tensor<4xf32>`, `#a.b<...> : T`: an optional type after the value.
        let opaque_word = typed(opaque_word);
        let opaque_attr = typed(opaque_attr());
        // A type value: anything the alternatives above do not start with.
        let ty = guard(|l| !matches!(l[0], Some(Tok::BareId("true" | "false" | "unit"))))
            .ignore_then(full_type())
            .map(Attr::Type);
        choice((
            alias_attr(),
            int,
            hex,
            float,
            simple,
            array,
            dict,
            pto_enum(),
            isa_round_mode(),
            opaque_attr,
            opaque_word,
            ty,
        ))
        .labelled("attribute value")
    })
}

/// `attr-dict` (syntax.md §4).
pub(crate) fn attr_dict<'a, I>() -> impl Parser<'a, I, Vec<Entry>, Ex<'a>> + Clone
where
    I: ValueInput<'a, Token = Tok<'a>, Span = Sp>,
{
    value_and_dict(attr_value())
}
