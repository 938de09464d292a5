//! Assembly-mode driver over the shared cursor (syntax.md §6.2, D-23): reads `PTO.vcvt` lines,
//! maps registers to SSA values and builds one function with a synthesized `return`.

use std::collections::{HashMap, HashSet};

use super::module::OpParts;
use super::{PResult, Parser};
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{FuncOp, OpData, OpKind, Part, ResultGroup, Rnd, TypeId, VSat, ValueId, VcvtOp};

/// What a register holds now.
#[derive(Clone, Copy)]
struct RegState<'s> {
    value: ValueId,
    ty: TypeId,
    line: usize,
    /// The type as written where the register got it (for messages).
    ty_text: &'s str,
}

struct AsmState<'s> {
    regs: HashMap<&'s str, RegState<'s>>,
    /// Written registers in first-write order.
    written: Vec<&'s str>,
    /// Next suffix per register.
    writes: HashMap<&'s str, u32>,
    all_regs: HashSet<&'s str>,
    names: HashSet<String>,
}

impl<'s> Parser<'s> {
    fn line_of(&self, span: Span) -> usize {
        let rel = span.start.saturating_sub(self.base).min(self.src.len());
        // Lines are reported relative to the original file only through spans; this number is
        // for the message text and counts lines of the chunk (1-based).
        self.src.as_bytes()[..rel]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    fn skip_line(&mut self) {
        while let Some(t) = self.peek() {
            self.bump();
            if t == Tok::Newline {
                return;
            }
        }
    }

    /// Parses the whole assembly chunk.
    pub(crate) fn parse_asm_file(&mut self, all_regs: HashSet<&'s str>) {
        let mut st = AsmState {
            regs: HashMap::new(),
            written: Vec::new(),
            writes: HashMap::new(),
            all_regs,
            names: HashSet::new(),
        };
        let body = self.m.add_region(None, Span::default());
        let mut sym = "main".to_string();
        let mut seen_line = false;
        let mut first_span = None;
        loop {
            if self.stopped() {
                break;
            }
            match self.peek() {
                None => break,
                Some(Tok::Newline) => {
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let start = self.pos;
            self.set_stmt(start);
            first_span.get_or_insert(self.span());
            let r = match self.peek() {
                Some(Tok::Directive(".func")) if !seen_line => {
                    self.bump();
                    match self.peek() {
                        Some(Tok::Symbol(s)) => {
                            self.bump();
                            sym = super::attrs::symbol_name(s);
                            self.end_of_line()
                        }
                        _ => Err(self.expected(&["symbol"])),
                    }
                }
                Some(Tok::Directive(".func")) => {
                    let span = self.span();
                    Err(self.error_at(ParseError::AsmFuncPlacement, span))
                }
                Some(Tok::BareId("PTO.vcvt" | "pto.vcvt")) => self.asm_vcvt(body, &mut st),
                _ => {
                    let span = self.span();
                    Err(self.error_at(ParseError::AsmUnsupported, span))
                }
            };
            seen_line = true;
            if r.is_err() {
                self.skip_line();
            }
        }
        // Synthesized return: final value of each written register, first-write order.
        let eof = self.eof_span();
        let mut ret = OpParts::new(OpKind::Return, eof);
        let mut result_types = Vec::new();
        for reg in &st.written {
            if let Some(s) = st.regs.get(reg) {
                ret.operands.push(s.value);
                ret.operand_types.push(Some(s.ty));
                ret.spans.operands.push(eof);
                ret.spans.operand_types.push(None);
                result_types.push(s.ty);
            }
        }
        ret.spans.op = eof;
        self.push_raw(ret, body);
        let nargs = self.m.regions[body.0 as usize].args.len();
        let func = OpParts::new(
            OpKind::Func(FuncOp {
                sym,
                visibility: None,
                result_types,
                arg_attrs: vec![None; nargs],
                decl_arg_types: Vec::new(),
                has_body: true,
            }),
            first_span.unwrap_or(eof),
        );
        let mut func = func;
        func.spans.op = first_span.unwrap_or(eof).join(eof);
        func.regions.push(body);
        let top = self.m.body;
        let id = self.push_raw(func, top);
        if let Some(r) = self.m.regions.get_mut(body.0 as usize) {
            r.parent_op = Some(id);
        }
        if let Some(s) = self.m.spans.regions.get_mut(body.0 as usize) {
            *s = first_span.unwrap_or(eof).join(eof);
        }
    }

    fn push_raw(&mut self, parts: OpParts, region: crate::ir::RegionId) -> crate::ir::OpId {
        let regions = parts.regions.clone();
        let data = OpData {
            kind: parts.kind,
            operands: parts.operands,
            operand_types: parts.operand_types,
            results: Vec::new(),
            result_groups: Vec::new(),
            regions,
            attrs: parts.attrs,
            parent: region,
        };
        self.m.push_op(data, parts.spans)
    }

    fn end_of_line(&mut self) -> PResult<()> {
        match self.peek() {
            None => Ok(()),
            Some(Tok::Newline) => {
                self.bump();
                Ok(())
            }
            _ => Err(self.expected(&["end of line"])),
        }
    }

    fn reg(&mut self) -> PResult<(&'s str, Span)> {
        match self.peek() {
            Some(Tok::BareId(r)) => Ok((r, self.bump())),
            _ => Err(self.expected(&["register"])),
        }
    }

    /// `PTO.vcvt dst, src, mask [, rnd [, sat [, part]]] : T, M -> R`.
    fn asm_vcvt(&mut self, body: crate::ir::RegionId, st: &mut AsmState<'s>) -> PResult<()> {
        let first = self.span();
        self.ctx = Some((first, "PTO.vcvt".to_string()));
        let name_span = self.bump();
        let (dst, dst_span) = self.reg()?;
        self.expect(Tok::Comma)?;
        let (src, src_span) = self.reg()?;
        self.expect(Tok::Comma)?;
        let (mask, mask_span) = self.reg()?;
        let mut modes: Vec<(&'s str, Span)> = Vec::new();
        while modes.len() < 3 && self.eat(Tok::Comma) {
            modes.push(self.reg()?);
        }
        if modes.len() == 3 && self.at(Tok::Comma) {
            // A fourth positional mode: the count is wrong, not the punctuation (E0311).
            self.bump();
            let extra = self.span();
            return Err(self.error_at(ParseError::AsmExtraOperand, extra));
        }
        if !self.at(Tok::Colon) {
            if matches!(self.peek(), None | Some(Tok::Newline)) {
                let span = first.join(self.prev_span());
                return Err(self.error_at(ParseError::AsmMissingTypes, span));
            }
            return Err(self.expected(&["':'"]));
        }
        self.bump();
        let (ts, ts_span) = self.parse_type()?;
        self.expect(Tok::Comma)?;
        let (tm, tm_span) = self.parse_type()?;
        self.expect(Tok::Arrow)?;
        let (tr, tr_span) = self.parse_type()?;
        let mut vcvt = VcvtOp {
            rnd: None,
            sat: None,
            part: None,
        };
        for (i, (m, span)) in modes.iter().enumerate() {
            if *m == "NONE" {
                continue;
            }
            let ok = match i {
                0 => Rnd::parse(m).map(|r| vcvt.rnd = Some(r)),
                1 => VSat::parse(m).map(|s| vcvt.sat = Some(s)),
                _ => Part::parse(m).map(|p| vcvt.part = Some(p)),
            };
            if ok.is_none() {
                let (what, expected) = match i {
                    0 => ("rnd", "R, A, F, C, Z, O, H (ROUND_R, ...)"),
                    1 => ("sat", "SAT, NOSAT (RS_ENABLE, RS_DISABLE)"),
                    _ => ("part", "EVEN, ODD, P0, P1, P2, P3 (PART_EVEN, ...)"),
                };
                return Err(self.error_at(
                    ParseError::AsmMode {
                        position: i + 4,
                        what,
                        expected,
                        found: m.to_string(),
                    },
                    *span,
                ));
            }
        }
        let line = self.line_of(first);
        let s = self.asm_read(st, body, (src, src_span), (ts, ts_span), line)?;
        let mk = self.asm_read(st, body, (mask, mask_span), (tm, tm_span), line)?;
        let mut parts = OpParts::new(OpKind::Vcvt(vcvt), name_span);
        parts.operands = vec![s, mk];
        parts.operand_types = vec![Some(ts), Some(tm)];
        parts.spans.operands = vec![src_span, mask_span];
        parts.spans.operand_types = vec![Some(ts_span), Some(tm_span)];
        parts.spans.result_types = vec![tr_span];
        parts.spans.op = first.join(self.prev_span());
        // Fresh SSA name for the write.
        let n = st.writes.entry(dst).or_insert(0);
        let mut name = if *n == 0 {
            format!("%{dst}")
        } else {
            format!("%{dst}_{n}")
        };
        *n += 1;
        while st.names.contains(&name)
            || (name != format!("%{dst}") && st.all_regs.contains(&name[1..]))
        {
            name = format!("%{dst}_{n}");
            *n += 1;
        }
        st.names.insert(name.clone());
        let id = self.push_raw(parts, body);
        if let Some(op) = self.m.ops.get_mut(id.0 as usize) {
            op.result_groups = vec![ResultGroup {
                name: name.clone(),
                count: 1,
                explicit_count: false,
            }];
        }
        self.m.add_results(id, &[tr], &[dst_span]);
        let v = self.m.ops[id.0 as usize].results.first().copied();
        if let Some(v) = v {
            if !st.written.contains(&dst) {
                st.written.push(dst);
            }
            let ty_text = self.text(tr_span);
            st.regs.insert(
                dst,
                RegState {
                    value: v,
                    ty: tr,
                    line,
                    ty_text,
                },
            );
        }
        self.ctx = None;
        self.end_of_line()
    }

    /// The value a register read sees; the first read of an unwritten register is an argument.
    fn asm_read(
        &mut self,
        st: &mut AsmState<'s>,
        body: crate::ir::RegionId,
        (reg, span): (&'s str, Span),
        (ty, ty_span): (TypeId, Span),
        line: usize,
    ) -> PResult<ValueId> {
        if let Some(s) = st.regs.get(reg).copied() {
            if s.ty != ty {
                return Err(self.error_at(
                    ParseError::AsmRegisterType {
                        reg: reg.to_string(),
                        held: s.ty_text.to_string(),
                        line: s.line,
                        used: self.text(ty_span).to_string(),
                    },
                    span,
                ));
            }
            return Ok(s.value);
        }
        let name = format!("%{reg}");
        st.names.insert(name.clone());
        let v = self.m.add_region_arg(body, name, ty, span);
        let ty_text = self.text(ty_span);
        st.regs.insert(
            reg,
            RegState {
                value: v,
                ty,
                line,
                ty_text,
            },
        );
        Ok(v)
    }
}
