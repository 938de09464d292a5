//! Custom forms of the known ops (syntax.md §2.3, §5, §6.1), dispatched on the op-name token,
//! the conversion of known ops written in generic form (D-5, D-22 operand order for tcvt), and
//! the D-5 error for unknown ops in custom form.

use super::attrs::Entry;
use super::module::{GroupDef, OpParts, RegionKind};
use super::{PResult, Parser};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::{unescape, Tok};
use crate::ir::types::MaskGranularity;
use crate::ir::{Attr, OpKind, RegionId, TcvtForm, TcvtOp, VBinaryKind, VcvtOp};

/// Canonical name of a custom-form op spelling, if it is known (bare names resolve to `pto.*`).
fn canonical(name: &str) -> Option<&'static str> {
    const KNOWN: &[&str] = &[
        "pto.tcvt",
        "pto.vcvt",
        "arith.constant",
        "pto.alloc_tile",
        "pto.declare_tile",
        "pto.tload",
        "pto.tstore",
        "pto.make_tensor_view",
        "pto.partition_view",
        "pto.subview",
        "pto.pset_b8",
        "pto.pset_b16",
        "pto.pset_b32",
        "pto.plt_b8",
        "pto.plt_b16",
        "pto.plt_b32",
        "pto.vlds",
        "pto.vsts",
        "pto.vbr",
        "pto.vadd",
        "pto.vsub",
        "pto.vmul",
        "pto.vdiv",
        "pto.vmax",
        "pto.vmin",
        "pto.vand",
        "pto.vor",
        "pto.vxor",
        "pto.vshl",
        "pto.vshr",
        "pto.vecscope",
    ];
    if name == "return" || name == "func.return" {
        return Some("func.return");
    }
    if let Some(k) = KNOWN.iter().find(|k| **k == name) {
        return Some(k);
    }
    if !name.contains('.') {
        return KNOWN
            .iter()
            .find(|k| k.strip_prefix("pto.") == Some(name))
            .copied();
    }
    None
}

pub(super) fn vbinary(name: &str) -> Option<VBinaryKind> {
    VBinaryKind::ALL.into_iter().find(|k| k.op_name() == name)
}

pub(super) fn granularity(name: &str) -> MaskGranularity {
    if name.ends_with("b8") {
        MaskGranularity::B8
    } else if name.ends_with("b16") {
        MaskGranularity::B16
    } else {
        MaskGranularity::B32
    }
}

impl<'s> Parser<'s> {
    /// A custom-form op starting at its name token.
    pub(crate) fn custom_op(
        &mut self,
        written: &'s str,
        region: RegionId,
        kind: RegionKind,
        groups: &[GroupDef<'s>],
        first: Span,
    ) -> PResult<()> {
        let Some(name) = canonical(written) else {
            return Err(self.unknown_custom(written, groups));
        };
        self.ctx = Some((first, name.to_string()));
        let name_span = self.bump();
        let mut parts = OpParts::new(OpKind::Return, name_span);
        let mut rspans: Vec<Span> = Vec::new();
        match name {
            "func.return" => {
                if kind == RegionKind::VecScope {
                    return Err(self.error_at(ParseError::ReturnInVecscope, name_span));
                }
                if kind == RegionKind::Module {
                    return Err(self.error_at(ParseError::ReturnNotLast, name_span));
                }
                // A value on the next line starts the next statement, not an operand.
                let same_line = self.tok(self.pos).is_some_and(|t| !t.line_start);
                if same_line && matches!(self.peek(), Some(Tok::ValueId(_))) {
                    let uses = self.use_list()?;
                    self.expect(Tok::Colon)?;
                    self.typed_uses(&mut parts, &uses)?;
                }
                parts.kind = OpKind::Return;
            }
            "pto.tcvt" => return self.tcvt(parts, region, groups, first),
            "pto.vcvt" => {
                let a = self.expect_value()?;
                self.expect(Tok::Comma)?;
                let b = self.expect_value()?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                self.typed_uses(&mut parts, &[a, b])?;
                self.expect(Tok::Arrow)?;
                let (t, s) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(s);
                let v = self.vcvt_attrs(entries, &mut parts.spans.attrs);
                parts.attrs = v.extra;
                parts.kind = OpKind::Vcvt(VcvtOp {
                    rnd: v.rnd,
                    sat: v.sat,
                    part: v.part,
                });
            }
            "arith.constant" => {
                let entries = self.opt_entries()?;
                let vstart = self.span();
                let value = match self.peek() {
                    Some(Tok::Int(_) | Tok::HexInt(_) | Tok::Float(_)) => {
                        if !matches!(self.peek_at(1), Some(Tok::Colon)) {
                            self.bump();
                            return Err(self.expected(&["':'"]));
                        }
                        self.attr_value()?
                    }
                    Some(Tok::BareId("true" | "false")) => self.attr_value()?,
                    _ => return Err(self.expected(&["literal"])),
                };
                let ty = match &value {
                    Attr::Int { ty, .. } | Attr::Hex { ty, .. } | Attr::Float { ty, .. } => *ty,
                    _ => Some(self.m.types.intern(crate::ir::Type::Scalar(
                        crate::ir::ScalarType::Int {
                            width: 1,
                            signedness: crate::ir::types::Signedness::Signless,
                        },
                    ))),
                };
                let ty = ty.unwrap_or_else(|| self.any_type());
                parts.result_types.push(ty);
                rspans.push(vstart.join(self.prev_span()));
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::ArithConstant { value };
            }
            "pto.alloc_tile" => {
                let mut flags = [false; 3];
                for (i, key) in ["addr", "valid_row", "valid_col"].iter().enumerate() {
                    if self.at_kw(key) && matches!(self.peek_at(1), Some(Tok::Equals)) {
                        self.pos += 2;
                        let (n, s) = self.expect_value()?;
                        self.push_use(&mut parts, n, s, None);
                        flags[i] = true;
                    }
                }
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let (t, s) = if self.at(Tok::LAngle) {
                    // D-7b: `pto.alloc_tile : <loc=ub, ...>` without the `!pto.tile_buf` prefix.
                    let start = self.bump();
                    let ty = self.tile_buf_after_angle(start)?;
                    (self.m.types.intern(ty), start.join(self.prev_span()))
                } else {
                    self.parse_type()?
                };
                parts.result_types.push(t);
                rspans.push(s);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::AllocTile {
                    addr: flags[0],
                    valid_row: flags[1],
                    valid_col: flags[2],
                };
            }
            "pto.declare_tile" => {
                let entries = self.opt_entries()?;
                self.expect(Tok::Arrow)?;
                let (t, s) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(s);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::DeclareTile;
            }
            "pto.tload" | "pto.tstore" => {
                self.expect_kw("ins")?;
                self.expect(Tok::LParen)?;
                let a = self.expect_value()?;
                self.expect(Tok::Colon)?;
                let ta = self.parse_type()?;
                self.expect(Tok::RParen)?;
                self.push_use(&mut parts, a.0, a.1, Some(ta));
                self.expect_kw("outs")?;
                self.expect(Tok::LParen)?;
                let b = self.expect_value()?;
                self.expect(Tok::Colon)?;
                let tb = self.parse_type()?;
                self.expect(Tok::RParen)?;
                self.push_use(&mut parts, b.0, b.1, Some(tb));
                let entries = self.opt_entries()?;
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = if name == "pto.tload" {
                    OpKind::TLoad
                } else {
                    OpKind::TStore
                };
            }
            "pto.make_tensor_view" => {
                let (n, s) = self.expect_value()?;
                self.push_use(&mut parts, n, s, None);
                self.expect(Tok::Comma)?;
                self.expect_kw("shape")?;
                self.expect(Tok::Equals)?;
                let shape = self.bracket_uses(&mut parts)?;
                self.eat(Tok::Comma); // spec: D-7
                self.expect_kw("strides")?;
                self.expect(Tok::Equals)?;
                let strides = self.bracket_uses(&mut parts)?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let (t, ts) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(ts);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::MakeTensorView { shape, strides };
            }
            "pto.partition_view" | "pto.subview" => {
                let (n, s) = self.expect_value()?;
                self.push_use(&mut parts, n, s, None);
                self.expect(Tok::Comma)?;
                self.expect_kw("offsets")?;
                self.expect(Tok::Equals)?;
                let offsets = self.bracket_uses(&mut parts)?;
                self.expect(Tok::Comma)?;
                self.expect_kw("sizes")?;
                self.expect(Tok::Equals)?;
                let sizes = self.bracket_uses(&mut parts)?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let src_ty = self.parse_type()?;
                self.set_operand_type(&mut parts, 0, src_ty);
                self.expect(Tok::Arrow)?; // spec: D-8
                let (t, ts) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(ts);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::PartitionView { offsets, sizes };
            }
            "pto.pset_b8" | "pto.pset_b16" | "pto.pset_b32" => {
                let Some(Tok::Str(p)) = self.peek() else {
                    return Err(self.expected(&["string"]));
                };
                self.bump();
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let (t, s) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(s);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::Pset {
                    granularity: granularity(name),
                    pattern: unescape(p),
                };
            }
            "pto.plt_b8" | "pto.plt_b16" | "pto.plt_b32" => {
                let a = self.expect_value()?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                self.typed_uses(&mut parts, &[a])?;
                self.expect(Tok::Arrow)?;
                self.result_type_list(&mut parts, &mut rspans)?;
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::Plt {
                    granularity: granularity(name),
                };
            }
            "pto.vlds" => {
                let (b, bs) = self.expect_value()?;
                self.expect(Tok::LBracket)?;
                let (i, is) = self.expect_value()?;
                self.expect(Tok::RBracket)?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let bt = self.parse_type()?;
                self.push_use(&mut parts, b, bs, Some(bt));
                self.push_use(&mut parts, i, is, None);
                self.expect(Tok::Arrow)?;
                self.result_type_list(&mut parts, &mut rspans)?;
                parts.attrs = self.plain_attrs(name, entries, &["dist"], &mut parts.spans.attrs);
                parts.kind = OpKind::Vlds;
            }
            "pto.vsts" => {
                let v = self.expect_value()?;
                self.expect(Tok::Comma)?;
                let b = self.expect_value()?;
                self.expect(Tok::LBracket)?;
                let i = self.expect_value()?;
                self.expect(Tok::RBracket)?;
                self.expect(Tok::Comma)?;
                let mk = self.expect_value()?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                let tv = self.parse_type()?;
                self.expect(Tok::Comma)?;
                let tb = self.parse_type()?;
                self.expect(Tok::Comma)?;
                let tm = self.parse_type()?;
                self.push_use(&mut parts, v.0, v.1, Some(tv));
                self.push_use(&mut parts, b.0, b.1, Some(tb));
                self.push_use(&mut parts, i.0, i.1, None);
                self.push_use(&mut parts, mk.0, mk.1, Some(tm));
                if self.eat(Tok::Arrow) {
                    self.result_type_list(&mut parts, &mut rspans)?;
                }
                parts.attrs = self.plain_attrs(name, entries, &["dist"], &mut parts.spans.attrs);
                parts.kind = OpKind::Vsts;
            }
            "pto.vbr" => {
                let a = self.expect_value()?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                self.typed_uses(&mut parts, &[a])?;
                self.expect(Tok::Arrow)?;
                let (t, s) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(s);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::Vbr;
            }
            "pto.vecscope" => {
                let r = self.vecscope_region()?;
                parts.regions.push(r);
                let entries = self.opt_entries()?;
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::VecScope;
            }
            _ => {
                let Some(k) = vbinary(name) else {
                    return Err(self.unknown_custom(written, groups));
                };
                let a = self.expect_value()?;
                self.expect(Tok::Comma)?;
                let b = self.expect_value()?;
                self.expect(Tok::Comma)?;
                let c = self.expect_value()?;
                let entries = self.opt_entries()?;
                self.expect(Tok::Colon)?;
                self.typed_uses(&mut parts, &[a, b, c])?;
                self.expect(Tok::Arrow)?;
                let (t, s) = self.parse_type()?;
                parts.result_types.push(t);
                rspans.push(s);
                parts.attrs = self.plain_attrs(name, entries, &[], &mut parts.spans.attrs);
                parts.kind = OpKind::VBinary(k);
            }
        }
        self.finish_op(parts, groups, region, first, rspans)?;
        Ok(())
    }

    fn opt_entries(&mut self) -> PResult<Vec<Entry>> {
        Ok(self.opt_attr_dict()?.map(|(d, _)| d).unwrap_or_default())
    }

    /// `use { , use }`.
    fn use_list(&mut self) -> PResult<Vec<(&'s str, Span)>> {
        let mut v = Vec::with_capacity(2);
        loop {
            v.push(self.expect_value()?);
            if !(self.at(Tok::Comma) && matches!(self.peek_at(1), Some(Tok::ValueId(_)))) {
                return Ok(v);
            }
            self.bump();
        }
    }

    /// `type { , type }` for `uses`, which are bound with those types.
    fn typed_uses(&mut self, parts: &mut OpParts, uses: &[(&'s str, Span)]) -> PResult<()> {
        let mut tys = Vec::with_capacity(uses.len());
        let first = self.span();
        loop {
            tys.push(self.parse_type()?);
            if tys.len() < uses.len() && self.eat(Tok::Comma) {
                continue;
            }
            break;
        }
        if tys.len() != uses.len() {
            let span = first.join(self.prev_span());
            return Err(self.error_at(
                ParseError::OperandTypeCount {
                    expected: uses.len(),
                    found: tys.len(),
                },
                span,
            ));
        }
        for ((n, s), t) in uses.iter().zip(tys) {
            self.push_use(parts, n, *s, Some(t));
        }
        Ok(())
    }

    /// `type { , type }` after `->`, as result types.
    fn result_type_list(&mut self, parts: &mut OpParts, rspans: &mut Vec<Span>) -> PResult<()> {
        loop {
            let (t, s) = self.parse_type()?;
            parts.result_types.push(t);
            rspans.push(s);
            if !self.eat(Tok::Comma) {
                return Ok(());
            }
        }
    }

    /// `[ uses ]`, bound without written types; returns the count.
    fn bracket_uses(&mut self, parts: &mut OpParts) -> PResult<u32> {
        self.expect(Tok::LBracket)?;
        let mut n = 0;
        if self.eat(Tok::RBracket) {
            return Ok(0);
        }
        loop {
            let (v, s) = self.expect_value()?;
            self.push_use(parts, v, s, None);
            n += 1;
            if self.eat(Tok::Comma) {
                continue;
            }
            if self.eat(Tok::RBracket) {
                return Ok(n);
            }
            return Err(self.expected(&["','", "']'"]));
        }
    }

    /// The D-5 error with the generic rewrite of the statement.
    fn unknown_custom(&mut self, written: &str, groups: &[GroupDef<'s>]) -> super::Fail {
        let span = self.span();
        let mut operands = Vec::new();
        let mut i = self.pos + 1;
        while let Some(t) = self.tok(i) {
            if t.line_start || matches!(t.tok, Tok::Colon | Tok::LBrace) {
                break;
            }
            if let Tok::ValueId(v) = t.tok {
                operands.push(v);
            }
            i += 1;
        }
        let lhs: Vec<String> = groups
            .iter()
            .map(|g| {
                if g.explicit {
                    format!("{}:{}", g.name, g.count)
                } else {
                    g.name.to_string()
                }
            })
            .collect();
        let nres: u32 = groups.iter().map(|g| g.count).sum();
        let ts = vec!["T"; operands.len()].join(", ");
        let results = match nres {
            0 => "()".to_string(),
            1 => "T".to_string(),
            n => format!("({})", vec!["T"; n as usize].join(", ")),
        };
        let mut example = String::new();
        if !lhs.is_empty() {
            example.push_str(&lhs.join(", "));
            example.push_str(" = ");
        }
        example.push_str(&format!(
            "\"{written}\"({}) : ({ts}) -> {results}",
            operands.join(", ")
        ));
        self.error_at(
            ParseError::UnknownCustomOp {
                name: written.to_string(),
                example,
            },
            span,
        )
    }

    /// tcvt forms (a)-(d) (syntax.md §5).
    fn tcvt(
        &mut self,
        mut parts: OpParts,
        region: RegionId,
        groups: &[GroupDef<'s>],
        first: Span,
    ) -> PResult<()> {
        let mut rspans = Vec::new();
        let dps = self.at_kw("ins");
        let entries;
        let n_uses;
        if dps {
            self.bump();
            self.expect(Tok::LParen)?;
            let uses = self.use_list()?;
            let inner = self.opt_attr_dict()?;
            self.expect(Tok::Colon)?;
            self.typed_uses(&mut parts, &uses)?;
            self.expect(Tok::RParen)?;
            self.expect_kw("outs")?;
            self.expect(Tok::LParen)?;
            let d = self.expect_value()?;
            self.expect(Tok::Colon)?;
            let dt = self.parse_type()?;
            self.expect(Tok::RParen)?;
            self.push_use(&mut parts, d.0, d.1, Some(dt));
            let trailing = self.opt_attr_dict()?; // spec: D-21
            entries = match (inner, trailing) {
                (Some(_), Some((_, span))) => {
                    return Err(self.error_at(ParseError::TcvtAttrsBoth, span));
                }
                (Some((e, _)), None) | (None, Some((e, _))) => e,
                (None, None) => Vec::new(),
            };
            n_uses = uses.len();
            if !groups.is_empty() {
                let span = groups[0].span;
                return Err(self.error_at(ParseError::TcvtDpsResults, span));
            }
        } else {
            let uses = self.use_list()?;
            entries = self.opt_entries()?;
            self.expect(Tok::Colon)?;
            self.typed_uses(&mut parts, &uses)?;
            self.expect(Tok::Arrow)?;
            let (t, s) = self.parse_type()?;
            parts.result_types.push(t);
            rspans.push(s);
            n_uses = uses.len();
            let given: u32 = groups.iter().map(|g| g.count).sum();
            if given != 1 {
                let span = parts.spans.name;
                return Err(self.error_at(ParseError::TcvtSsaResults, span));
            }
        }
        if n_uses > 2 {
            let span = parts.spans.operands.get(2).copied().unwrap_or(first);
            return Err(self.error_at(
                ParseError::OperandCount {
                    op: "pto.tcvt".to_string(),
                    expected: "1 or 2 source".to_string(),
                    found: n_uses,
                },
                span,
            ));
        }
        let a = self.tcvt_attrs(entries, &mut parts.spans.attrs);
        parts.attrs = a.extra;
        parts.kind = OpKind::Tcvt(TcvtOp {
            form: if dps { TcvtForm::Dps } else { TcvtForm::Ssa },
            has_tmp: n_uses == 2,
            rmode: a.rmode,
            sat: a.sat,
        });
        self.finish_op(parts, groups, region, first, rspans)?;
        Ok(())
    }
}
