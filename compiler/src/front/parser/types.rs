//! Types (syntax.md §3) on the statement parser's side: the type cache, balanced-token skipping
//! for opaque attributes, the element-type spelling tables, and the bridge to the chumsky type
//! grammar (`type_grammar`), which reads every type except function types in operand position
//! (`fn_type_grammar`). Every type is interned in the module's `TypeTable`.
//!
//! Invariants: the grammar sees exactly the tokens of one type (a balanced `<...>` after a type
//! name or opaque word, else one token), with the token after them standing for its end of
//! input; its diagnostics go through the same lexical-error suppression and context labels as
//! the hand-written ones; a type is cached by its text only if it produced no diagnostic.

use chumsky::input::{Input as _, MappedInput};
use chumsky::Boxed;
use chumsky::Parser as _;

use super::attr_grammar;
use super::grammar::Ex;
use super::type_grammar::{
    tile_buf_after_angle, type_parser, Fatal, Sp, TyErr, TyState, OPAQUE_WORDS, SILENT,
};
use super::{PResult, Parser, MAX_DEPTH};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::types::Signedness;
use crate::ir::{ScalarType, Type, TypeId};

/// Longest token slice handed to a grammar (far beyond any real type or dictionary).
const MAX_TYPE_TOKENS: usize = 4096;
/// Cached spellings compared in place per type name (`Parser::type_spellings`); more distinct
/// spellings of one name still hit `type_cache` after a bracket scan.
const MAX_SPELLINGS: usize = 8;

/// What a grammar run reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Entry {
    /// A type (function types are composed by the statement parser).
    Type,
    /// The part of a tile_buf after `<` (D-7b).
    TileBufAfterAngle,
    /// `{ ... }` (syntax.md §4).
    Dict,
    /// One attribute value.
    Value,
}

/// What a grammar run produced.
pub(super) enum Out {
    Type(Type),
    Dict(Vec<super::attrs::Entry>),
    Value(crate::ir::Attr),
}

/// Builtin float spellings that parse but convert nowhere.
const OTHER_FLOATS: &[&str] = &[
    "f8E4M3FNUZ",
    "f8E5M2FNUZ",
    "f8E4M3",
    "f8E4M3B11FNUZ",
    "f8E3M4",
    "f8E8M0FNU",
    "f6E2M3FN",
    "f6E3M2FN",
    "f4E2M1FN",
    "tf32",
    "f80",
    "f128",
];

/// A builtin scalar spelled as a bare word.
pub(crate) fn scalar_from_bare(s: &str) -> Option<ScalarType> {
    Some(match s {
        "f16" => ScalarType::F16,
        "bf16" => ScalarType::BF16,
        "f32" => ScalarType::F32,
        "f64" => ScalarType::F64,
        "f8E4M3FN" => ScalarType::F8E4M3FN,
        "f8E5M2" => ScalarType::F8E5M2,
        "index" => ScalarType::Index,
        _ if OTHER_FLOATS.contains(&s) => ScalarType::OtherFloat(s.to_string()),
        _ => {
            let (signedness, rest) = if let Some(r) = s.strip_prefix("si") {
                (Signedness::Signed, r)
            } else if let Some(r) = s.strip_prefix("ui") {
                (Signedness::Unsigned, r)
            } else {
                (Signedness::Signless, s.strip_prefix('i')?)
            };
            if rest.is_empty() || !rest.bytes().all(|b| b.is_ascii_digit()) || rest.starts_with('0')
            {
                return None;
            }
            let width: u16 = rest.parse().ok()?;
            ScalarType::Int { width, signedness }
        }
    })
}

/// A `!pto.*` scalar type name.
pub(crate) fn scalar_from_typename(s: &str) -> Option<ScalarType> {
    Some(match s {
        "!pto.hif8" => ScalarType::Hif8,
        "!pto.f4E2M1x2" => ScalarType::F4E2M1x2,
        "!pto.f4E1M2x2" => ScalarType::F4E1M2x2,
        "!pto.s4x2" => ScalarType::S4x2,
        "!pto.f8E8M0" | "!pto.bf16x2" | "!pto.hif8x2" => ScalarType::PtoOther(s.to_string()),
        _ => return None,
    })
}

pub(crate) fn type_hint(s: &str) -> Option<String> {
    let fixed = match s {
        "half" => Some("f16"),
        "float" => Some("f32"),
        "double" => Some("f64"),
        "hif8" => Some("!pto.hif8"),
        "bfloat16" => Some("bf16"),
        "s4x2" => Some("!pto.s4x2"),
        "f4E2M1x2" => Some("!pto.f4E2M1x2"),
        "f4E1M2x2" => Some("!pto.f4E1M2x2"),
        _ => None,
    };
    if let Some(f) = fixed {
        return Some(f.to_string());
    }
    for (p, q) in [("u", "ui"), ("s", "si")] {
        if let Some(d) = s.strip_prefix(p) {
            if !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()) {
                return Some(format!("{q}{d}"));
            }
        }
    }
    None
}

impl<'s> Parser<'s> {
    pub(super) fn intern(&mut self, t: Type) -> TypeId {
        self.m.types.intern(t)
    }

    /// `type` (syntax.md §3) other than a function type (the statement grammar reads those,
    /// `fn_type_grammar`); returns the interned type and its span. Read by the chumsky grammar
    /// (`type_grammar`). Parameterised types and single-word scalars are cached by source text:
    /// the January files repeat one tile_buf spelling on every op.
    pub(crate) fn parse_type(&mut self) -> PResult<(TypeId, Span)> {
        let start = self.span();
        if let Some(r) = self.type_alias_here() {
            return Ok(r);
        }
        match (self.peek(), self.peek_at(1)) {
            (Some(Tok::TypeName(name)), Some(Tok::LAngle)) => {
                if let Some(hit) = self.cached_spelling(name, start.start) {
                    return Ok(hit);
                }
                if let Some(end) = self.bracket_end(start.end, b'<', b'>') {
                    let key = self.text(Span::new(start.start, end));
                    if let Some(&t) = self.type_cache.get(key) {
                        let span = Span::new(start.start, end);
                        self.skip_cached(span, true);
                        return Ok((t, span));
                    }
                    let errors = self.errors;
                    let r = self.grammar_type_id(start)?;
                    if self.errors == errors && r.1.end == end {
                        self.type_cache.insert(key, r.0);
                        let list = self.type_spellings.entry(name).or_default();
                        if list.len() < MAX_SPELLINGS {
                            list.push((key, r.0));
                        }
                    }
                    return Ok(r);
                }
            }
            (Some(Tok::BareId(w)), next) => {
                if let Some(&t) = self.type_cache.get(w) {
                    self.pos += 1;
                    return Ok((t, start));
                }
                if !matches!(next, Some(Tok::LAngle)) {
                    let errors = self.errors;
                    let r = self.grammar_type_id(start)?;
                    if self.errors == errors && r.1 == start {
                        self.type_cache.insert(w, r.0);
                    }
                    return Ok(r);
                }
            }
            _ => {}
        }
        self.grammar_type_id(start)
    }

    /// A cached parameterised type whose spelling starts at byte `at` (its type name `name` is
    /// the current token): the spelling is compared in place. Equal bytes give the same
    /// `bracket_end`, so a hit is exactly a `type_cache` hit of the slow path.
    fn cached_spelling(&mut self, name: &str, at: usize) -> Option<(TypeId, Span)> {
        let rest = self.src.as_bytes().get(at.checked_sub(self.base)?..)?;
        let list = self.type_spellings.get(name)?;
        let k = list
            .iter()
            .position(|(key, _)| rest.starts_with(key.as_bytes()))?;
        let (key, t) = list[k];
        let span = Span::new(at, at + key.len());
        self.skip_cached(span, true);
        Some((t, span))
    }

    /// The part of a tile_buf after `<` (`pto.alloc_tile : <...>`, D-7b), by the chumsky grammar.
    pub(crate) fn tile_buf_after_angle(&mut self, start: Span) -> PResult<Type> {
        self.grammar_type(start, true).map(|(t, _)| t)
    }

    fn grammar_type_id(&mut self, start: Span) -> PResult<(TypeId, Span)> {
        let (t, span) = self.grammar_type(start, false)?;
        Ok((self.intern(t), span))
    }

    /// Appends the tokens from index `i` while brackets are open (`stack` holds the expected
    /// closers): stops after the closer that empties `stack`, before a closer that matches
    /// nothing, at end of input, or after `MAX_TYPE_TOKENS`. Returns the next index, or the
    /// index of the opener that nests deeper than `MAX_DEPTH`.
    fn collect_balanced(
        &mut self,
        mut i: usize,
        stack: &mut Vec<Tok<'static>>,
        out: &mut Vec<(Tok<'s>, Sp)>,
    ) -> Result<usize, usize> {
        while let Some(t) = self.tok(i) {
            if out.len() >= MAX_TYPE_TOKENS {
                break;
            }
            let close = match t.tok {
                Tok::LAngle => Some(Tok::RAngle),
                Tok::LParen => Some(Tok::RParen),
                Tok::LBracket => Some(Tok::RBracket),
                Tok::LBrace => Some(Tok::RBrace),
                _ => None,
            };
            if let Some(c) = close {
                if stack.len() >= MAX_DEPTH {
                    return Err(i);
                }
                stack.push(c);
            } else if matches!(
                t.tok,
                Tok::RAngle | Tok::RParen | Tok::RBracket | Tok::RBrace
            ) {
                if stack.last().is_some_and(|c| super::same_kind(*c, t.tok)) {
                    stack.pop();
                } else {
                    break;
                }
            }
            out.push((t.tok, Sp::from(t.span.start..t.span.end)));
            i += 1;
            if stack.is_empty() {
                break;
            }
        }
        Ok(i)
    }

    /// The tokens of the type at index `i`: a type name or opaque word with its balanced
    /// `<...>`, a function type (`(...) -> ...`), else the single token.
    fn collect_type(&mut self, mut i: usize, out: &mut Vec<(Tok<'s>, Sp)>) -> Result<usize, usize> {
        // `(..) -> (..) -> ...` chains stay flat (no recursion).
        loop {
            let Some(t0) = self.tok(i) else {
                return Ok(i);
            };
            if matches!(t0.tok, Tok::LParen) {
                i = self.collect_balanced(i, &mut Vec::new(), out)?;
                match self.tok(i) {
                    Some(t) if matches!(t.tok, Tok::Arrow) && out.len() < MAX_TYPE_TOKENS => {
                        out.push((t.tok, Sp::from(t.span.start..t.span.end)));
                        i += 1;
                        continue;
                    }
                    _ => return Ok(i),
                }
            }
            out.push((t0.tok, Sp::from(t0.span.start..t0.span.end)));
            i += 1;
            let angled = match t0.tok {
                Tok::TypeName(n) => scalar_from_typename(n).is_none(),
                Tok::BareId(w) => OPAQUE_WORDS.contains(&w),
                _ => false,
            };
            if angled && matches!(self.tok(i).map(|t| t.tok), Some(Tok::LAngle)) {
                return self.collect_balanced(i, &mut Vec::new(), out);
            }
            return Ok(i);
        }
    }

    /// A dimension list written with spaces (`8 x 128 x f32`, `8x 128 xf32`, MLIR reads them)
    /// becomes the tokens of its spaceless spelling: one `DIM_PREFIX` (`8x128x`, allocated in the
    /// parse's arena, spanning the written extents) and the element word. Only runs where an
    /// extent is followed by an `x...` word; nothing else changes.
    fn spaced_dims(&mut self, toks: &mut Vec<(Tok<'s>, Sp)>) {
        let is_x = |t: Option<&(Tok<'s>, Sp)>| matches!(t, Some((Tok::BareId(w), _)) if w.starts_with('x'));
        let is_extent = |t: &Tok<'s>| match t {
            Tok::Int(n) => n.bytes().all(|b| b.is_ascii_digit()),
            Tok::Question => true,
            _ => false,
        };
        if !toks
            .windows(2)
            .any(|w| is_extent(&w[0].0) && is_x(Some(&w[1])))
        {
            return;
        }
        let mut out: Vec<(Tok<'s>, Sp)> = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            // A shape starts after `<` or `,` (or at the slice start).
            let shape_pos = i == 0 || matches!(toks[i - 1].0, Tok::LAngle | Tok::Comma);
            let starts = shape_pos
                && match toks[i].0 {
                    Tok::DimPrefix(_) => true,
                    ref t => is_extent(t) && is_x(toks.get(i + 1)),
                };
            if !starts {
                out.push(toks[i]);
                i += 1;
                continue;
            }
            let begin = i;
            let first = toks[i].1;
            let mut dims = String::new();
            let mut end = first.end;
            let mut rest: Option<(&'s str, Sp)> = None;
            while i < toks.len() {
                match toks[i].0 {
                    Tok::DimPrefix(p) => {
                        dims.push_str(p);
                        end = toks[i].1.end;
                        i += 1;
                    }
                    ref t if is_extent(t) && is_x(toks.get(i + 1)) => {
                        match t {
                            Tok::Int(n) => dims.push_str(n),
                            _ => dims.push('?'),
                        }
                        dims.push('x');
                        let (Tok::BareId(w), xs) = toks[i + 1] else {
                            break;
                        };
                        i += 2;
                        // `x128xf32` (one word): more extents, then the element word.
                        let mut tail = &w[1..];
                        let mut at = xs.start + 1;
                        while let Some(k) = tail
                            .find('x')
                            .filter(|&k| k > 0 && tail[..k].bytes().all(|b| b.is_ascii_digit()))
                        {
                            dims.push_str(&tail[..=k]);
                            tail = &tail[k + 1..];
                            at += k + 1;
                        }
                        end = at;
                        if !tail.is_empty() {
                            rest = Some((tail, Sp::from(at..xs.end)));
                            break;
                        }
                    }
                    _ => break,
                }
            }
            // ... and ends with its element type (`pad=1 x>` is no shape).
            let elem_next = matches!(toks.get(i), Some((Tok::BareId(_) | Tok::TypeName(_), _)));
            if rest.is_none() && !elem_next {
                out.extend_from_slice(&toks[begin..i]);
                continue;
            }
            let text: &'s str = self.arena.alloc_str(&dims);
            out.push((Tok::DimPrefix(text), Sp::from(first.start..end)));
            if let Some((w, sp)) = rest {
                out.push((Tok::BareId(w), sp));
            }
        }
        *toks = out;
    }

    /// The tokens `entry` reads at the cursor.
    /// Returns them (spaced dimension lists rewritten) and how many tokens of the input they
    /// cover.
    fn grammar_tokens(&mut self, entry: Entry) -> Result<(Vec<(Tok<'s>, Sp)>, usize), usize> {
        let mut out = Vec::new();
        let i = self.pos;
        match entry {
            Entry::Type => {
                self.collect_type(i, &mut out)?;
                let n = out.len();
                self.spaced_dims(&mut out);
                return Ok((out, n));
            }
            Entry::TileBufAfterAngle => {
                self.collect_balanced(i, &mut vec![Tok::RAngle], &mut out)?;
                let n = out.len();
                self.spaced_dims(&mut out);
                return Ok((out, n));
            }
            Entry::Dict => {
                self.collect_balanced(i, &mut Vec::new(), &mut out)?;
            }
            Entry::Value => {
                // A literal and its `: type`, or a bracketed value, or one token.
                match self.tok(i).map(|t| t.tok) {
                    Some(Tok::LBrace | Tok::LBracket) => {
                        self.collect_balanced(i, &mut Vec::new(), &mut out)?;
                    }
                    Some(Tok::Int(_) | Tok::HexInt(_) | Tok::Float(_)) => {
                        let mut j = self.collect_type(i, &mut out)?;
                        if let Some(t) = self.tok(j).filter(|t| matches!(t.tok, Tok::Colon)) {
                            out.push((t.tok, Sp::from(t.span.start..t.span.end)));
                            j += 1;
                            self.collect_type(j, &mut out)?;
                        }
                    }
                    // `dense<...> [: type]`, `#dialect.attr<...> [: type]`.
                    Some(
                        Tok::BareId(
                            "array" | "dense" | "dense_resource" | "sparse" | "affine_map"
                            | "strided",
                        )
                        | Tok::AttrName(_),
                    ) => {
                        let t = self.tok(i).ok_or(i)?;
                        out.push((t.tok, Sp::from(t.span.start..t.span.end)));
                        let mut j = i + 1;
                        if matches!(self.tok(j).map(|t| t.tok), Some(Tok::LAngle)) {
                            j = self.collect_balanced(j, &mut Vec::new(), &mut out)?;
                        }
                        if let Some(t) = self.tok(j).filter(|t| matches!(t.tok, Tok::Colon)) {
                            out.push((t.tok, Sp::from(t.span.start..t.span.end)));
                            self.collect_type(j + 1, &mut out)?;
                        }
                    }
                    _ => {
                        self.collect_type(i, &mut out)?;
                    }
                }
            }
        }
        let n = out.len();
        Ok((out, n))
    }

    /// `<entry>` of the type grammar (`type`, or a tile_buf after `<`) at the cursor.
    fn grammar_type(&mut self, start: Span, after_angle: bool) -> PResult<(Type, Span)> {
        let entry = if after_angle {
            Entry::TileBufAfterAngle
        } else {
            Entry::Type
        };
        match self.run_grammar(start, entry)? {
            (Out::Type(t), span) => Ok((t, span)),
            _ => Err(super::Fail),
        }
    }

    /// Runs a chumsky grammar (`type_grammar`, `attr_grammar`) on the tokens of one construct at
    /// the cursor and reports what it found: pending semantic diagnostics first, then the error
    /// that stopped it (if any), both through the usual lexical-error and context-label rules.
    /// On success the cursor moves past the construct; on failure it rests on the offending
    /// token (past the closing `>` for a positional `!pto.tile`). Nesting deeper than `MAX_DEPTH` is
    /// `expected shallower nesting` at the opener, without running the grammar.
    pub(super) fn run_grammar(&mut self, start: Span, entry: Entry) -> PResult<(Out, Span)> {
        let (toks, n) = match self.grammar_tokens(entry) {
            Ok(t) => t,
            Err(deep) => {
                self.pos = deep;
                return Err(self.expected(&["shallower nesting"]));
            }
        };
        // Values are cached by the text of their tokens (`0 : index` recurs in every function).
        let value_key = match (entry, toks.first(), toks.last()) {
            (Entry::Value, Some((_, a)), Some((_, b))) => {
                Some(self.text(Span::new(a.start, b.end)))
            }
            _ => None,
        };
        if let Some(v) = value_key.and_then(|k| self.value_cache.get(k)) {
            let v = v.clone();
            self.pos += n;
            return Ok((Out::Value(v), start.join(self.prev_span())));
        }
        let errors = self.errors;
        let (after, after_span) = match self.tok(self.pos + n) {
            Some(t) => (Some(t.tok), t.span),
            None => (None, self.eof_span()),
        };
        let slice: &'s [(Tok<'s>, Sp)] = self.arena.alloc_slice_copy(&toks);
        let mut st = TyState::new(self.src, self.base, after, after_span);
        st.aliases = std::mem::take(&mut self.aliases);
        let eoi = Sp::from(after_span.start..after_span.start);
        let input: GrammarInput<'s> = slice.map(eoi, split_token as SplitToken<'s>);
        let g = self.grammars.get_or_insert_with(Grammars::new);
        let (out, errs) = match entry {
            Entry::Type => {
                let (o, e) = g.ty.parse_with_state(input, &mut st).into_output_errors();
                (o.map(Out::Type), e)
            }
            Entry::TileBufAfterAngle => {
                let (o, e) = g
                    .tile_buf
                    .parse_with_state(input, &mut st)
                    .into_output_errors();
                (o.map(Out::Type), e)
            }
            Entry::Dict => {
                st.types = std::mem::take(&mut self.m.types);
                let (o, e) = g.dict.parse_with_state(input, &mut st).into_output_errors();
                self.m.types = std::mem::take(&mut st.types);
                (o.map(Out::Dict), e)
            }
            Entry::Value => {
                st.types = std::mem::take(&mut self.m.types);
                let (o, e) = g
                    .value
                    .parse_with_state(input, &mut st)
                    .into_output_errors();
                self.m.types = std::mem::take(&mut st.types);
                (o.map(Out::Value), e)
            }
        };
        self.aliases = std::mem::take(&mut st.aliases);
        for p in std::mem::take(&mut st.diags) {
            match p.label {
                Some((first, label)) => {
                    let d = Diagnostic::new(p.err.code(), p.err, p.span).with_label(first, label);
                    self.push_diag(d);
                }
                None => {
                    self.error_at_pos(p.err, p.span, p.at);
                }
            }
        }
        match (out, errs.into_iter().next()) {
            (Some(o), None) => {
                self.pos += n;
                if let (Some(k), Out::Value(v)) = (value_key, &o) {
                    if self.errors == errors {
                        self.value_cache.insert(k, v.clone());
                    }
                }
                Ok((o, start.join(self.prev_span())))
            }
            (_, err) => {
                let (fail, skip, at) = match err {
                    Some(e) => self.report_type_error(e, slice, after, after_span),
                    None => (super::Fail, false, after_span.start),
                };
                let from = self.pos;
                let k = (0..n)
                    .find(|&k| self.tok(from + k).is_some_and(|t| t.span.start >= at))
                    .unwrap_or(n);
                self.pos += k;
                if skip {
                    // Positional `!pto.tile<...>`: continue after its closing '>' (reporting an
                    // unbalanced one), as the statement parser always did.
                    let _ = self.skip_balanced(Tok::RAngle);
                }
                Err(fail)
            }
        }
    }

    /// Turns a grammar error into a diagnostic (syntax.md §8.1). Returns the failure, whether
    /// to skip the whole type, and the byte offset of the offending token.
    fn report_type_error(
        &mut self,
        e: TyErr<'_>,
        toks: &[(Tok<'_>, Sp)],
        after: Option<Tok<'_>>,
        after_span: Span,
    ) -> (super::Fail, bool, usize) {
        match e {
            TyErr::Expected {
                span,
                expected,
                found,
                note,
            } => {
                let (found, span) = match found.or(after) {
                    Some(t) if found.is_some() => (t.describe(), Span::new(span.start, span.end)),
                    Some(t) => (t.describe(), after_span),
                    None => ("end of input".to_string(), after_span),
                };
                let set: Vec<String> = expected
                    .into_iter()
                    .filter(|l| *l != SILENT)
                    .map(str::to_string)
                    .collect();
                let err = ParseError::Expected {
                    expected: super::sort_expected(set),
                    found,
                };
                let mut d = Diagnostic::new(err.code(), err, span);
                if let Some(message) = note {
                    d.notes.push(crate::diag::Note {
                        message,
                        span: None,
                    });
                }
                (self.report_syntax(d, span.start, true), false, span.start)
            }
            TyErr::Fatal(f) => {
                let Fatal {
                    err,
                    span,
                    ctx,
                    help_prev,
                    skip_type,
                } = *f;
                let mut d = Diagnostic::new(err.code(), err, span);
                if help_prev {
                    let prev = toks
                        .iter()
                        .rev()
                        .find(|(_, s)| s.end <= span.start)
                        .map_or(span.start, |(_, s)| s.start);
                    let written = self.text(Span::new(prev, span.end));
                    d = d.with_help(format!("write {written}xf32"));
                }
                let at = if ctx { span.start } else { span.end };
                (self.report_syntax(d, at, ctx), skip_type, span.start)
            }
            TyErr::Reported => (super::Fail, false, after_span.start),
        }
    }

    /// Moves past a type or dictionary whose text is `span`, starting at the current token.
    /// With `jump` (types), when only the name and `<` are buffered, the lexer jumps over the
    /// rest; a single token spanning the type stays behind so `prev_span` covers it. Dictionaries
    /// never jump: recovery (§8.2) counts their braces. Their tokens are replayed instead
    /// (`TokBuf::replay`): the same tokens lexing would give, without lexing.
    pub(super) fn skip_cached(&mut self, span: Span, jump: bool) {
        if !jump {
            let key = self.text(span);
            let from = self.pos;
            let replayed = self.buf.borrow_mut().replay(from, key, span, self.base);
            match replayed {
                Some(n) => self.pos += n,
                None => {
                    while self.tok(self.pos).is_some_and(|t| t.span.end <= span.end) {
                        self.pos += 1;
                    }
                    if !self.lex_error_in(span) {
                        self.buf.borrow_mut().record(from, self.pos, key, span);
                    }
                }
            }
            return;
        }
        let jumped = {
            let mut b = self.buf.borrow_mut();
            let rel = self.pos.saturating_sub(b.base_idx);
            let jump = jump
                && b.toks.len() == rel + 2
                && b.stream
                    .as_mut()
                    .is_some_and(|s| s.skip_to(span.end - self.base));
            if jump {
                b.toks.truncate(rel + 1);
                if let Some(t) = b.toks.get_mut(rel) {
                    t.span = span;
                }
            }
            jump
        };
        if jumped {
            self.pos += 1;
        } else {
            while self.tok(self.pos).is_some_and(|t| t.span.end <= span.end) {
                self.pos += 1;
            }
        }
    }

    /// Whether a lexical error starts inside `span`.
    fn lex_error_in(&mut self, span: Span) -> bool {
        self.sync_lex();
        let i = self.lex_errs.partition_point(|&s| s < span.start);
        self.lex_errs.get(i).is_some_and(|&s| s < span.end)
    }

    /// Skips balanced tokens up to and including the closer matching an already consumed opener.
    pub(crate) fn skip_balanced(&mut self, closer: Tok<'static>) -> PResult<Span> {
        let mut stack: Vec<Tok<'static>> = vec![closer];
        loop {
            let Some(t) = self.peek() else {
                let name = format!("'{}'", closer.punct_text());
                return Err(self.expected(&[&name]));
            };
            let s = self.bump();
            match t {
                Tok::LAngle => stack.push(Tok::RAngle),
                Tok::LParen => stack.push(Tok::RParen),
                Tok::LBracket => stack.push(Tok::RBracket),
                Tok::LBrace => stack.push(Tok::RBrace),
                Tok::RAngle | Tok::RParen | Tok::RBracket | Tok::RBrace => {
                    if stack.last().is_some_and(|c| super::same_kind(*c, t)) {
                        stack.pop();
                        if stack.is_empty() {
                            return Ok(s);
                        }
                    } else {
                        self.pos -= 1;
                        let name = stack
                            .last()
                            .map_or(String::new(), |c| format!("'{}'", c.punct_text()));
                        return Err(self.expected(&[&name]));
                    }
                }
                _ => {}
            }
        }
    }
}

/// The chumsky input of a grammar run: a token slice from the parse's arena.
pub(crate) type SplitToken<'s> = fn(&'s (Tok<'s>, Sp)) -> (&'s Tok<'s>, &'s Sp);
pub(crate) type GrammarInput<'s> = MappedInput<Tok<'s>, Sp, &'s [(Tok<'s>, Sp)], SplitToken<'s>>;

fn split_token<'s>(pair: &'s (Tok<'s>, Sp)) -> (&'s Tok<'s>, &'s Sp) {
    (&pair.0, &pair.1)
}

/// The four chumsky grammars, built once per parse: building one (`recursive` allocates, the
/// combinator values are large) costs several microseconds, far more than most runs.
pub(crate) struct Grammars<'s> {
    ty: Boxed<'s, 's, GrammarInput<'s>, Type, Ex<'s>>,
    tile_buf: Boxed<'s, 's, GrammarInput<'s>, Type, Ex<'s>>,
    dict: Boxed<'s, 's, GrammarInput<'s>, Vec<super::attrs::Entry>, Ex<'s>>,
    value: Boxed<'s, 's, GrammarInput<'s>, crate::ir::Attr, Ex<'s>>,
}

impl<'s> Grammars<'s> {
    pub(crate) fn new() -> Self {
        Grammars {
            ty: type_parser().boxed(),
            tile_buf: tile_buf_after_angle().boxed(),
            dict: attr_grammar::attr_dict().boxed(),
            value: attr_grammar::attr_value().boxed(),
        }
    }
}
