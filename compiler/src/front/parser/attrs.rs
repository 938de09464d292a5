//! Attributes (syntax.md §4) on the statement parser's side: the entry points that run the
//! chumsky attribute grammar (`attr_grammar`: dictionaries, literal and composite values, the two
//! round-mode spellings D-18/D-19, saturation mode) on a dictionary's or value's tokens, and the
//! per-op key checks of known ops (D-20, tcvt `satmode`/`sat_mode`, vcvt aliases normalised at
//! parse time, §4.3).
//!
//! Invariant: an entry keeps its source spans so diagnostics and `OpSpans.attrs` point at the
//! written `key = value`.

use super::types::{Entry as GrammarEntry, Out};
use super::{edit_distance, PResult, Parser};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::{Attr, AttrDict, AttrKey, AttrSpans, Part, Rnd, RoundMode, SatAttr, VSat};

/// One `key [= value]` of a dictionary.
#[derive(Debug, Clone)]
pub(crate) struct Entry {
    pub key: AttrKey,
    pub key_span: Span,
    /// `key = value`.
    pub span: Span,
    pub value: Attr,
    pub value_span: Span,
}

impl Entry {
    /// The entry with its spans moved by `by` bytes (forward when `forward`, else back).
    fn shifted(&self, by: usize, forward: bool) -> Entry {
        let mv = |s: Span| {
            if forward {
                Span::new(s.start.saturating_add(by), s.end.saturating_add(by))
            } else {
                Span::new(s.start.saturating_sub(by), s.end.saturating_sub(by))
            }
        };
        Entry {
            key: self.key.clone(),
            key_span: mv(self.key_span),
            span: mv(self.span),
            value: self.value.clone(),
            value_span: mv(self.value_span),
        }
    }
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
    /// `{ entry, ... }` at the current `{`, by the chumsky grammar (`attr_grammar`).
    /// Duplicates are reported and dropped.
    /// One-line dictionaries are cached by source text like types (the January files repeat
    /// `{rmode = ...}` on every op); a cached entry is rebased to the new `{`.
    pub(crate) fn attr_dict(&mut self) -> PResult<Vec<Entry>> {
        let start = self.span();
        let Some(end) = self.bracket_end(start.start, b'{', b'}') else {
            return self.attr_dict_uncached(start);
        };
        let key = self.text(Span::new(start.start, end));
        if let Some(cached) = self.dict_cache.get(key) {
            let entries = cached
                .iter()
                .map(|e| e.shifted(start.start, true))
                .collect();
            self.skip_cached(Span::new(start.start, end), false);
            return Ok(entries);
        }
        let errors = self.errors;
        let d = self.attr_dict_uncached(start)?;
        if self.errors == errors && self.prev_span().end == end {
            let rel = d.iter().map(|e| e.shifted(start.start, false)).collect();
            self.dict_cache.insert(key, rel);
        }
        Ok(d)
    }

    fn attr_dict_uncached(&mut self, start: Span) -> PResult<Vec<Entry>> {
        match self.run_grammar(start, GrammarEntry::Dict)? {
            (Out::Dict(d), _) => Ok(d),
            _ => Err(super::Fail),
        }
    }

    /// An optional dictionary: a `{` commits to one.
    pub(crate) fn opt_attr_dict(&mut self) -> PResult<Option<(Vec<Entry>, Span)>> {
        if self.at(Tok::LBrace) {
            let start = self.span();
            let d = self.attr_dict()?;
            Ok(Some((d, start.join(self.prev_span()))))
        } else {
            Ok(None)
        }
    }

    /// `attr-value` (syntax.md §4) at the cursor, by the chumsky grammar.
    pub(crate) fn attr_value(&mut self) -> PResult<Attr> {
        let start = self.span();
        match self.run_grammar(start, GrammarEntry::Value)? {
            (Out::Value(v), _) => Ok(v),
            _ => Err(super::Fail),
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
                key: e.key.to_string(),
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
        spans: &mut AttrSpans,
    ) -> AttrDict {
        let mut out = AttrDict::new();
        for e in entries {
            if e.key == "operandSegmentSizes" {
                continue;
            }
            if own.contains(&e.key.as_str()) || e.key.contains('.') {
                spans.insert(e.key.clone(), e.span);
                out.insert(e.key.into(), e.value);
            } else {
                self.unknown_key(&e, op, own);
            }
        }
        out
    }

    /// tcvt keys: `rmode`, `satmode` / `sat_mode` (§4.1-4.2, D-20).
    pub(crate) fn tcvt_attrs(&mut self, entries: Vec<Entry>, spans: &mut AttrSpans) -> TcvtAttrs {
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
                    out.extra.insert(e.key.into(), e.value);
                }
                _ => self.unknown_key(&e, "pto.tcvt", &["rmode", "satmode", "sat_mode"]),
            }
        }
        out
    }

    /// vcvt keys `rnd`/`round_mode`, `sat`, `part`; aliases normalised (§4.3).
    pub(crate) fn vcvt_attrs(&mut self, entries: Vec<Entry>, spans: &mut AttrSpans) -> VcvtAttrs {
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
                    out.extra.insert(e.key.into(), e.value);
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
pub(crate) fn to_dict(entries: Vec<Entry>, spans: &mut AttrSpans) -> AttrDict {
    let mut d = AttrDict::with_capacity(entries.len());
    for e in entries {
        spans.insert(e.key.clone(), e.span);
        d.insert(e.key.into(), e.value);
    }
    d
}
