//! Types (syntax.md §3): element types, `!pto.tile_buf` (legacy keyed and compact),
//! `!pto.tile`, `!pto.vreg` (D-14 size rule), `!pto.mask`, `!pto.ptr`, views, function types and
//! opaque types (D-9, kept verbatim). Every type is interned in the module's `TypeTable`.
//!
//! Domain errors (a value out of range) are reported and parsing continues with the type built
//! from what was written; only token-level mismatches fail.

use super::{PResult, Parser, MAX_DEPTH};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{dim_prefix_extents, Tok};
use crate::ir::types::{AddrSpace, Dim, MaskGranularity, Signedness};
use crate::ir::{ScalarType, Type, TypeId};

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

fn type_hint(s: &str) -> Option<String> {
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

    pub(super) fn domain(&mut self, message: impl Into<String>, span: Span) {
        self.error_at(
            ParseError::TypeDomain {
                message: message.into(),
            },
            span,
        );
    }

    /// `type` (syntax.md §3); returns the interned type and its span. Parameterised `!pto.*`
    /// types are cached by source text: the January files repeat one tile_buf spelling on
    /// every op.
    pub(crate) fn parse_type(&mut self) -> PResult<(TypeId, Span)> {
        let start = self.span();
        if let (Some(Tok::TypeName(_)), Some(Tok::LAngle)) = (self.peek(), self.peek_at(1)) {
            if let Some(end) = self.angle_end(start.end) {
                let key = self.text(Span::new(start.start, end));
                if let Some(&t) = self.type_cache.get(key) {
                    let span = Span::new(start.start, end);
                    self.skip_cached(span);
                    return Ok((t, span));
                }
                let errors = self.errors;
                let r = self.parse_type_uncached(start)?;
                if self.errors == errors && r.1.end == end {
                    self.type_cache.insert(key, r.0);
                }
                return Ok(r);
            }
        }
        self.parse_type_uncached(start)
    }

    /// Moves past a type whose text is `span`, starting at the current token. When only the
    /// name and `<` are buffered, the lexer jumps over the rest; a single token spanning the
    /// type stays behind so `prev_span` covers it.
    fn skip_cached(&mut self, span: Span) {
        let rel = self.pos.saturating_sub(self.buf_base);
        let jumped = self.toks.len() == rel + 2
            && self
                .stream
                .as_mut()
                .is_some_and(|s| s.skip_to(span.end - self.base));
        if jumped {
            self.toks.truncate(rel + 1);
            if let Some(t) = self.toks.get_mut(rel) {
                t.span = span;
            }
            self.pos += 1;
        } else {
            while self.tok(self.pos).is_some_and(|t| t.span.end <= span.end) {
                self.pos += 1;
            }
        }
    }

    /// Byte offset just past the `>` matching the `<` at `from` (same line, no strings).
    fn angle_end(&self, from: usize) -> Option<usize> {
        let rel = from.checked_sub(self.base)?;
        let bytes = self.src.as_bytes().get(rel..)?;
        let mut depth = 0u32;
        for (i, &b) in bytes.iter().enumerate() {
            match b {
                b'<' => depth += 1,
                b'>' if i > 0 && bytes[i - 1] == b'-' => {}
                b'>' => {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(from + i + 1);
                    }
                }
                b'\n' | b'"' | b'/' => return None,
                _ => {}
            }
        }
        None
    }

    fn parse_type_uncached(&mut self, start: Span) -> PResult<(TypeId, Span)> {
        let ty = match self.peek() {
            Some(Tok::BareId(w)) => {
                if let Some(s) = scalar_from_bare(w) {
                    self.bump();
                    Type::Scalar(s)
                } else if matches!(w, "memref" | "tensor" | "vector" | "complex" | "tuple")
                    && matches!(self.peek_at(1), Some(Tok::LAngle))
                {
                    self.bump();
                    let end = self.skip_balanced_angle()?;
                    Type::Opaque(self.text(start.join(end)).to_string())
                } else {
                    let hint = type_hint(w);
                    return Err(self.syntax(ParseError::UnknownType {
                        name: w.to_string(),
                        hint,
                    }));
                }
            }
            Some(Tok::TypeName(n)) => {
                self.bump();
                match n {
                    "!pto.tile_buf" => self.tile_buf_body(start)?,
                    "!pto.tile" => self.tile_body()?,
                    "!pto.vreg" => self.vreg_body()?,
                    "!pto.mask" => self.mask_body()?,
                    "!pto.ptr" => self.ptr_body()?,
                    "!pto.tensor_view" => {
                        let (shape, elem) = self.view_body(true)?;
                        Type::TensorView { shape, elem }
                    }
                    "!pto.partition_tensor_view" | "!pto.tile_view" => {
                        let (shape, elem) = self.view_body(false)?;
                        Type::PartitionView { shape, elem }
                    }
                    _ => {
                        if let Some(s) = scalar_from_typename(n) {
                            Type::Scalar(s)
                        } else if self.at(Tok::LAngle) {
                            let end = self.skip_balanced_angle()?;
                            Type::Opaque(self.text(start.join(end)).to_string())
                        } else {
                            Type::Opaque(n.to_string())
                        }
                    }
                }
            }
            Some(Tok::LParen) => self.function_type()?.0,
            _ => return Err(self.expected(&["type"])),
        };
        let span = start.join(self.prev_span());
        Ok((self.intern(ty), span))
    }

    /// `( types ) -> (type | ( types ))`.
    pub(crate) fn function_type(&mut self) -> PResult<(Type, Vec<Span>, Vec<Span>)> {
        if self.depth > MAX_DEPTH {
            return Err(self.expected(&["shallower nesting"]));
        }
        self.depth += 1;
        let r = self.function_type_inner();
        self.depth -= 1;
        r
    }

    fn function_type_inner(&mut self) -> PResult<(Type, Vec<Span>, Vec<Span>)> {
        self.expect(Tok::LParen)?;
        let (inputs, in_spans) = self.type_list_until_rparen()?;
        self.expect(Tok::Arrow)?;
        let (results, out_spans) = if self.eat(Tok::LParen) {
            self.type_list_until_rparen()?
        } else {
            let (t, s) = self.parse_type()?;
            (vec![t], vec![s])
        };
        Ok((Type::Function { inputs, results }, in_spans, out_spans))
    }

    /// `[ type { , type } ] )` after an opening `(`.
    pub(crate) fn type_list_until_rparen(&mut self) -> PResult<(Vec<TypeId>, Vec<Span>)> {
        let mut tys = Vec::new();
        let mut spans = Vec::new();
        if self.eat(Tok::RParen) {
            return Ok((tys, spans));
        }
        loop {
            let (t, s) = self.parse_type()?;
            tys.push(t);
            spans.push(s);
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(Tok::RParen) {
                return Ok((tys, spans));
            }
            return Err(self.expected(&["','", "')'"]));
        }
    }

    /// Skips `< balanced-tokens >` starting at the current `<`; returns the span of the `>`.
    pub(crate) fn skip_balanced_angle(&mut self) -> PResult<Span> {
        self.expect(Tok::LAngle)?;
        self.skip_balanced(Tok::RAngle)
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

    /// An element type: builtin scalar word or `!pto.*` scalar.
    pub(crate) fn elem_type(&mut self) -> PResult<ScalarType> {
        match self.peek() {
            Some(Tok::BareId(w)) => {
                if let Some(s) = scalar_from_bare(w) {
                    self.bump();
                    Ok(s)
                } else {
                    let hint = type_hint(w);
                    Err(self.syntax(ParseError::UnknownType {
                        name: w.to_string(),
                        hint,
                    }))
                }
            }
            Some(Tok::TypeName(n)) => match scalar_from_typename(n) {
                Some(s) => {
                    self.bump();
                    Ok(s)
                }
                None => Err(self.expected(&["element type"])),
            },
            _ => Err(self.expected(&["element type"])),
        }
    }

    /// `shape-and-elem ::= DIM_PREFIX elem-type`; `None` extents are `?`.
    pub(super) fn shape_and_elem(&mut self) -> PResult<(Vec<Option<u64>>, ScalarType, Span)> {
        match self.peek() {
            Some(Tok::DimPrefix(p)) => {
                let span = self.bump();
                let dims = dim_prefix_extents(p);
                match self.peek() {
                    Some(Tok::Int(_) | Tok::Question) => {
                        let found = self.found();
                        let mut d = Diagnostic::new(
                            ParseError::MissingElemType {
                                found: found.clone(),
                            }
                            .code(),
                            ParseError::MissingElemType { found },
                            self.span(),
                        );
                        let cur = self.span();
                        let written = self.text(span.join(cur));
                        d = d.with_help(format!("write {written}xf32"));
                        if let Some((cs, name)) = &self.ctx {
                            d = d.with_label(*cs, format!("while parsing this {name}"));
                        }
                        if self.lex_error_before(cur.start) {
                            return Err(super::Fail);
                        }
                        Err(self.report(d))
                    }
                    _ => {
                        let elem = self.elem_type()?;
                        Ok((dims, elem, span))
                    }
                }
            }
            Some(Tok::HexInt(h)) => {
                let text = h.to_string();
                Err(self.syntax(ParseError::HexDims { text }))
            }
            _ => Err(self.expected(&["dimension list"])),
        }
    }

    fn vreg_body(&mut self) -> PResult<Type> {
        self.expect(Tok::LAngle)?;
        let (dims, elem, span) = self.shape_and_elem()?;
        let full = span.join(self.prev_span());
        let lanes = if dims.len() != 1 {
            self.domain(
                format!(
                    "!pto.vreg takes exactly one dimension, found {}",
                    dims.len()
                ),
                full,
            );
            1
        } else if let Some(Some(n)) = dims.first() {
            let n = *n;
            match elem.storage_bits() {
                Some(bits) if n.checked_mul(u64::from(bits)) == Some(2048) => {}
                Some(bits) => {
                    let bytes = n.saturating_mul(u64::from(bits)) / 8;
                    let shape = self.text(full).to_string();
                    self.error_at(ParseError::VregSize { shape, bytes }, full);
                }
                None => self.domain("!pto.vreg element type must have a known bit width", full),
            }
            n
        } else {
            self.domain("!pto.vreg length must be static", full);
            1
        };
        self.expect(Tok::RAngle)?;
        Ok(Type::VReg { lanes, elem })
    }

    fn mask_body(&mut self) -> PResult<Type> {
        self.expect(Tok::LAngle)?;
        let g = match self.peek() {
            Some(Tok::BareId("b8")) => MaskGranularity::B8,
            Some(Tok::BareId("b16")) => MaskGranularity::B16,
            Some(Tok::BareId("b32")) => MaskGranularity::B32,
            _ => {
                let found = self.found_quoted();
                return Err(self.syntax(ParseError::TypeDomain {
                    message: format!("expected mask granularity b8, b16 or b32, found {found}"),
                }));
            }
        };
        self.bump();
        self.expect(Tok::RAngle)?;
        Ok(Type::Mask(g))
    }

    fn ptr_body(&mut self) -> PResult<Type> {
        self.expect(Tok::LAngle)?;
        let elem = self.elem_type()?;
        let mut space = AddrSpace::Gm;
        if self.eat(Tok::Comma) {
            let s = match self.peek() {
                Some(Tok::BareId(w)) => match w {
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
            match s {
                Some(s) => {
                    self.bump();
                    space = s;
                }
                None => {
                    return Err(self.syntax(ParseError::TypeDomain {
                        message: "!pto.ptr address space must be one of gm, ub, vec, mat, l1, left, l0a, right, l0b, acc, l0c, bias, bt, scaling, fb".to_string(),
                    }))
                }
            }
        }
        if !self.eat(Tok::RAngle) {
            return Err(self.expected(&["','", "'>'"]));
        }
        Ok(Type::Ptr { elem, space })
    }

    /// View shapes: rank >= 1, `?` allowed; rank-only `tensor_view<2xf32>` means `?x?xf32`.
    fn view_body(&mut self, tensor: bool) -> PResult<(Vec<Dim>, ScalarType)> {
        self.expect(Tok::LAngle)?;
        let (dims, elem, span) = self.shape_and_elem()?;
        self.expect(Tok::RAngle)?;
        // spec: §3.6 (project lead) — the January rank-only spelling.
        if tensor && dims.len() == 1 {
            if let Some(Some(rank @ 1..=8)) = dims.first() {
                return Ok((vec![Dim::Dynamic; *rank as usize], elem));
            }
        }
        if dims.contains(&Some(0)) {
            self.domain("zero-sized dimensions are not allowed", span);
        }
        let shape = dims
            .into_iter()
            .map(|d| d.map_or(Dim::Dynamic, Dim::Static))
            .collect();
        Ok((shape, elem))
    }
}
