//! Attributes (syntax.md §4): dictionaries, literal and composite values, the two round-mode
//! spellings (D-18, D-19), saturation mode, and the per-op key checks of known ops (D-20,
//! tcvt `satmode`/`sat_mode`, vcvt aliases normalised at parse time, §4.3).
//!
//! Invariant: an entry keeps its source spans so diagnostics and `OpSpans.attrs` point at the
//! written `key = value`.

use indexmap::IndexMap;

use super::{edit_distance, PResult, Parser, MAX_DEPTH};
use crate::diag::{Code, Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::{Attr, AttrDict, Part, Rnd, RoundMode, SatAttr, VSat};

/// One `key [= value]` of a dictionary.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: String,
    pub key_span: Span,
    /// `key = value`.
    pub span: Span,
    pub value: Attr,
    pub value_span: Span,
}

/// Typed tcvt attributes.
pub(crate) struct TcvtAttrs {
    pub rmode: Option<RoundMode>,
    pub sat: Option<SatAttr>,
    pub extra: AttrDict,
}

/// Typed vcvt attributes.
pub(crate) struct VcvtAttrs {
    pub rnd: Option<Rnd>,
    pub sat: Option<VSat>,
    pub part: Option<Part>,
    pub extra: AttrDict,
}

impl<'s> Parser<'s> {
    /// `{ entry, ... }` at the current `{`. Duplicates are reported and dropped.
    pub(crate) fn attr_dict(&mut self) -> PResult<Vec<Entry>> {
        if self.depth > MAX_DEPTH {
            return Err(self.expected(&["shallower nesting"]));
        }
        self.depth += 1;
        let r = self.attr_dict_inner();
        self.depth -= 1;
        r
    }

    fn attr_dict_inner(&mut self) -> PResult<Vec<Entry>> {
        self.expect(Tok::LBrace)?;
        let mut out: Vec<Entry> = Vec::new();
        if self.eat(Tok::RBrace) {
            return Ok(out);
        }
        loop {
            let (key, key_span) = match self.peek() {
                Some(Tok::BareId(k)) => (k.to_string(), self.bump()),
                Some(Tok::Str(k)) => (unescape(k), self.bump()),
                _ => return Err(self.expected(&["attribute name"])),
            };
            let (value, value_span) = if self.eat(Tok::Equals) {
                let start = self.span();
                let v = self.attr_value()?;
                (v, start.join(self.prev_span()))
            } else {
                (Attr::Unit, key_span)
            };
            let entry = Entry {
                key,
                key_span,
                span: key_span.join(value_span),
                value,
                value_span,
            };
            if let Some(first) = out.iter().find(|e| e.key == entry.key) {
                let d = Diagnostic::new(
                    Code::DuplicateAttribute,
                    ParseError::DuplicateAttribute {
                        key: entry.key.clone(),
                    },
                    entry.key_span,
                )
                .with_label(first.key_span, "first given here");
                self.push_diag(d);
            } else {
                out.push(entry);
            }
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(Tok::RBrace) {
                return Ok(out);
            }
            return Err(self.expected(&["','", "'}'"]));
        }
    }

    /// An optional dictionary.
    pub(crate) fn opt_attr_dict(&mut self) -> PResult<Option<(Vec<Entry>, Span)>> {
        if self.at(Tok::LBrace) {
            let start = self.span();
            let d = self.attr_dict()?;
            Ok(Some((d, start.join(self.prev_span()))))
        } else {
            Ok(None)
        }
    }

    fn opt_literal_type(&mut self) -> PResult<Option<crate::ir::TypeId>> {
        if self.eat(Tok::Colon) {
            Ok(Some(self.parse_type()?.0))
        } else {
            Ok(None)
        }
    }

    /// `attr-value` (syntax.md §4).
    pub(crate) fn attr_value(&mut self) -> PResult<Attr> {
        if self.depth > MAX_DEPTH {
            return Err(self.expected(&["shallower nesting"]));
        }
        self.depth += 1;
        let r = self.attr_value_inner();
        self.depth -= 1;
        r
    }

    fn attr_value_inner(&mut self) -> PResult<Attr> {
        let start = self.span();
        match self.peek() {
            Some(Tok::Int(s)) => {
                let span = self.bump();
                let Ok(value) = s.parse::<i64>() else {
                    return Err(self.error_at(ParseError::IntegerOutOfRange, span));
                };
                let ty = self.opt_literal_type()?;
                Ok(Attr::Int { value, ty })
            }
            Some(Tok::HexInt(s)) => {
                let span = self.bump();
                let Ok(value) = u64::from_str_radix(&s[2..], 16) else {
                    return Err(self.error_at(ParseError::IntegerOutOfRange, span));
                };
                let ty = self.opt_literal_type()?;
                Ok(Attr::Hex { value, ty })
            }
            Some(Tok::Float(s)) => {
                self.bump();
                let bits = s.parse::<f64>().unwrap_or(f64::NAN).to_bits();
                let ty = self.opt_literal_type()?;
                Ok(Attr::Float { bits, ty })
            }
            Some(Tok::Str(s)) => {
                self.bump();
                Ok(Attr::Str(unescape(s)))
            }
            Some(Tok::Symbol(s)) => {
                self.bump();
                Ok(Attr::Symbol(symbol_name(s)))
            }
            Some(Tok::LBracket) => {
                self.bump();
                let mut items = Vec::new();
                if self.eat(Tok::RBracket) {
                    return Ok(Attr::Array(items));
                }
                loop {
                    items.push(self.attr_value()?);
                    if self.eat(Tok::Comma) {
                        continue;
                    }
                    if self.eat(Tok::RBracket) {
                        return Ok(Attr::Array(items));
                    }
                    return Err(self.expected(&["','", "']'"]));
                }
            }
            Some(Tok::LBrace) => {
                let entries = self.attr_dict()?;
                Ok(Attr::Dict(
                    entries.into_iter().map(|e| (e.key, e.value)).collect(),
                ))
            }
            Some(Tok::AttrName(name)) => {
                self.bump();
                match name {
                    "#pto" if self.at(Tok::LAngle) => self.pto_enum_attr(start),
                    "#pto.round_mode" if self.at(Tok::LAngle) => self.isa_round_mode(),
                    _ => {
                        if self.at(Tok::LAngle) {
                            let end = self.skip_balanced_angle()?;
                            Ok(Attr::Opaque(self.text(start.join(end)).to_string()))
                        } else {
                            Ok(Attr::Opaque(name.to_string()))
                        }
                    }
                }
            }
            Some(Tok::BareId("true")) => {
                self.bump();
                Ok(Attr::Bool(true))
            }
            Some(Tok::BareId("false")) => {
                self.bump();
                Ok(Attr::Bool(false))
            }
            Some(Tok::BareId("unit")) => {
                self.bump();
                Ok(Attr::Unit)
            }
            Some(Tok::BareId(
                "array" | "dense" | "dense_resource" | "sparse" | "affine_map" | "strided",
            )) if matches!(self.peek_at(1), Some(Tok::LAngle)) => {
                self.bump();
                let end = self.skip_balanced_angle()?;
                Ok(Attr::Opaque(self.text(start.join(end)).to_string()))
            }
            Some(Tok::BareId(_) | Tok::TypeName(_) | Tok::LParen) => {
                let (t, _) = self.parse_type()?;
                Ok(Attr::Type(t))
            }
            _ => Err(self.expected(&["attribute value"])),
        }
    }

    /// `#pto<round_mode X>`, `#pto<saturation_mode ON|OFF>`, other `#pto<...>` verbatim.
    fn pto_enum_attr(&mut self, start: Span) -> PResult<Attr> {
        match (self.peek_at(1), self.peek_at(2), self.peek_at(3)) {
            (Some(Tok::BareId("round_mode")), Some(Tok::BareId(m)), Some(Tok::RAngle)) => {
                self.pos += 2;
                let span = self.bump();
                self.bump();
                match RoundMode::from_ptoas(m) {
                    Some(rm) => Ok(Attr::RoundMode(rm)),
                    None => Err(self.error_at(
                        ParseError::UnknownRoundMode {
                            name: m.to_string(),
                        },
                        span,
                    )),
                }
            }
            (Some(Tok::BareId("saturation_mode")), Some(Tok::BareId(m)), Some(Tok::RAngle)) => {
                self.pos += 2;
                let span = self.bump();
                self.bump();
                match m {
                    "ON" => Ok(Attr::SatMode { on: true }),
                    "OFF" => Ok(Attr::SatMode { on: false }),
                    _ => Err(self.error_at(
                        ParseError::UnknownSatMode {
                            name: m.to_string(),
                        },
                        span,
                    )),
                }
            }
            _ => {
                let end = self.skip_balanced_angle()?;
                Ok(Attr::Opaque(self.text(start.join(end)).to_string()))
            }
        }
    }

    /// `#pto.round_mode<CAST_X>` (D-18, D-19).
    fn isa_round_mode(&mut self) -> PResult<Attr> {
        self.expect(Tok::LAngle)?;
        let Some(Tok::BareId(m)) = self.peek() else {
            return Err(self.expected(&["round mode"]));
        };
        let span = self.bump();
        self.expect(Tok::RAngle)?;
        match RoundMode::from_isa(m) {
            Some(rm) => Ok(Attr::RoundMode(rm)),
            None if RoundMode::from_ptoas(m).is_some() => Err(self.error_at(
                ParseError::RoundModeIsaMixed {
                    name: m.to_string(),
                },
                span,
            )),
            None => Err(self.error_at(
                ParseError::UnknownIsaRoundMode {
                    name: m.to_string(),
                },
                span,
            )),
        }
    }

    /// Reports `key` as unknown on `op`, suggesting one of `own` (edit distance <= 2).
    fn unknown_key(&mut self, e: &Entry, op: &str, own: &[&str]) {
        let suggestion = own
            .iter()
            .map(|k| (edit_distance(&e.key, k), *k))
            .filter(|(d, _)| *d <= 2)
            .min()
            .map(|(_, k)| k.to_string());
        self.error_at(
            ParseError::UnknownAttribute {
                key: e.key.clone(),
                op: op.to_string(),
                suggestion,
            },
            e.key_span,
        );
    }

    /// Keys of a known op without typed attributes: `own` keys and dotted keys are kept.
    pub(crate) fn plain_attrs(
        &mut self,
        op: &str,
        entries: Vec<Entry>,
        own: &[&str],
        spans: &mut IndexMap<String, Span>,
    ) -> AttrDict {
        let mut out = AttrDict::new();
        for e in entries {
            if e.key == "operandSegmentSizes" {
                continue;
            }
            if own.contains(&e.key.as_str()) || e.key.contains('.') {
                spans.insert(e.key.clone(), e.span);
                out.insert(e.key, e.value);
            } else {
                self.unknown_key(&e, op, own);
            }
        }
        out
    }

    /// tcvt keys: `rmode`, `satmode` / `sat_mode` (§4.1-4.2, D-20).
    pub(crate) fn tcvt_attrs(
        &mut self,
        entries: Vec<Entry>,
        spans: &mut IndexMap<String, Span>,
    ) -> TcvtAttrs {
        let mut out = TcvtAttrs {
            rmode: None,
            sat: None,
            extra: AttrDict::new(),
        };
        let mut sat_key: Option<Span> = None;
        for e in entries {
            match e.key.as_str() {
                "rmode" => match e.value {
                    Attr::RoundMode(m) => {
                        out.rmode = Some(m);
                        spans.insert(e.key, e.span);
                    }
                    _ => {
                        self.error_at(ParseError::RmodeKind, e.value_span);
                    }
                },
                "satmode" | "sat_mode" => {
                    if let Some(first) = sat_key {
                        let d = Diagnostic::new(
                            ParseError::SatKeysBoth.code(),
                            ParseError::SatKeysBoth,
                            e.key_span,
                        )
                        .with_label(first, "first given here");
                        self.push_diag(d);
                        continue;
                    }
                    sat_key = Some(e.key_span);
                    match e.value {
                        Attr::SatMode { on } => {
                            out.sat = Some(SatAttr {
                                on,
                                legacy_key: e.key == "sat_mode",
                            });
                            if e.key != "satmode" {
                                spans.insert("satmode".to_string(), e.span);
                            }
                            spans.insert(e.key, e.span);
                        }
                        _ => {
                            self.error_at(ParseError::SatmodeKind, e.value_span);
                        }
                    }
                }
                "operandSegmentSizes" => {}
                k if k.contains('.') => {
                    spans.insert(e.key.clone(), e.span);
                    out.extra.insert(e.key, e.value);
                }
                _ => self.unknown_key(&e, "pto.tcvt", &["rmode", "satmode", "sat_mode"]),
            }
        }
        out
    }

    /// vcvt keys `rnd`/`round_mode`, `sat`, `part`; aliases normalised (§4.3).
    pub(crate) fn vcvt_attrs(
        &mut self,
        entries: Vec<Entry>,
        spans: &mut IndexMap<String, Span>,
    ) -> VcvtAttrs {
        let mut out = VcvtAttrs {
            rnd: None,
            sat: None,
            part: None,
            extra: AttrDict::new(),
        };
        let mut rnd_key: Option<Span> = None;
        for e in entries {
            let key = e.key.as_str();
            let canonical = match key {
                "rnd" | "round_mode" => "rnd",
                "sat" => "sat",
                "part" => "part",
                "operandSegmentSizes" => continue,
                k if k.contains('.') => {
                    spans.insert(e.key.clone(), e.span);
                    out.extra.insert(e.key, e.value);
                    continue;
                }
                _ => {
                    self.unknown_key(&e, "pto.vcvt", &["rnd", "round_mode", "sat", "part"]);
                    continue;
                }
            };
            if canonical == "rnd" {
                if let Some(first) = rnd_key {
                    let d = Diagnostic::new(
                        ParseError::RndKeysBoth.code(),
                        ParseError::RndKeysBoth,
                        e.key_span,
                    )
                    .with_label(first, "first given here");
                    self.push_diag(d);
                    continue;
                }
                rnd_key = Some(e.key_span);
            }
            let Attr::Str(v) = &e.value else {
                self.error_at(
                    ParseError::VcvtAttrNotString {
                        key: key.to_string(),
                    },
                    e.value_span,
                );
                continue;
            };
            let ok = match canonical {
                "rnd" => Rnd::parse(v).map(|r| out.rnd = Some(r)),
                "sat" => VSat::parse(v).map(|s| out.sat = Some(s)),
                _ => Part::parse(v).map(|p| out.part = Some(p)),
            };
            if ok.is_none() {
                let expected = match canonical {
                    "rnd" => "R, A, F, C, Z, O, H (or ROUND_R...)",
                    "sat" => "SAT, NOSAT (or RS_ENABLE, RS_DISABLE)",
                    _ => "EVEN, ODD, P0, P1, P2, P3 (or PART_EVEN...)",
                };
                self.error_at(
                    ParseError::VcvtAttrValue {
                        key: key.to_string(),
                        value: v.clone(),
                        expected,
                    },
                    e.value_span,
                );
                continue;
            }
            spans.insert(canonical.to_string(), e.span);
        }
        out
    }
}

/// Symbol text without `@`, decoded if quoted.
pub(crate) fn symbol_name(s: &str) -> String {
    let rest = s.strip_prefix('@').unwrap_or(s);
    if rest.starts_with('"') {
        unescape(rest)
    } else {
        rest.to_string()
    }
}

/// Converts entries to a dictionary, recording spans.
pub(crate) fn to_dict(entries: Vec<Entry>, spans: &mut IndexMap<String, Span>) -> AttrDict {
    let mut d = AttrDict::with_capacity(entries.len());
    for e in entries {
        spans.insert(e.key.clone(), e.span);
        d.insert(e.key, e.value);
    }
    d
}
