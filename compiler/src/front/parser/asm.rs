//! `.ptoasm` (syntax.md §6.2, D-23) as a chumsky grammar over the statement input in assembly
//! mode, and the builder that maps registers to SSA values.
//!
//! ```text
//! file  ::= { NEWLINE | line }
//! line  ::= '.func' SYMBOL EOL                                  (before the first line only)
//!         | ('PTO.vcvt' | 'pto.vcvt') reg ',' reg ',' reg modes sig EOL
//! modes ::= [ ',' reg [ ',' reg [ ',' reg [ ',' <E0311> ] ] ] ]     (rnd, sat, part)
//! sig   ::= ':' type ',' type '->' type                 (end of line instead: E0602)
//! ```
//!
//! Invariants:
//! - a line is the unit of recovery: its failure is reported at once (so the 50-error stop and
//!   lexical-error suppression see errors in source order), then the rest of the line is skipped
//!   from the offending token (`skip_line`);
//! - the grammar is LL(1): a `,` after the mask commits to a mode register, a fourth one is
//!   E0311 (the count is wrong, not the punctuation), and a line without `: T, M -> R` is E0602
//!   over the whole line rather than `expected ':'`;
//! - the builder step runs once per line that read all its tokens: mode spellings, register
//!   reads (a register read before any write is a function argument, typed by that line), a
//!   fresh SSA value per write; the function and its synthesized `return` are built after the
//!   last line ([`Parser::parse_asm_file`]).

use std::collections::{HashMap, HashSet};

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::fn_type_grammar::ty;
use super::grammar::{TyErr, SILENT};
use super::module::OpParts;
use super::stmt_prim::{
    advance_to, expected_here, here, is, silent, tk, tokf, when, IRef, In, SEx,
};
use super::Parser;
use crate::diag::Span;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{
    smallvec, thin_vec, FuncOp, OpData, OpKind, Part, RegionId, ResultGroup, Rnd, TypeId, VSat,
    ValueId, VcvtOp,
};

/// What a register holds now.
#[derive(Clone, Copy)]
struct RegState<'s> {
    value: ValueId,
    ty: TypeId,
    line: usize,
    /// The type as written where the register got it (for messages).
    ty_text: &'s str,
}

/// The assembly chunk being read: register contents and the function being built.
#[derive(Default)]
pub(super) struct AsmState<'s> {
    regs: HashMap<&'s str, RegState<'s>>,
    /// Written registers in first-write order.
    written: Vec<&'s str>,
    /// Next suffix per register.
    writes: HashMap<&'s str, u32>,
    all_regs: HashSet<&'s str>,
    names: HashSet<String>,
    body: RegionId,
    sym: Option<String>,
    /// A line (of any kind, failed or not) was read: `.func` is no longer allowed.
    seen_line: bool,
    /// Span of the first token of the first line.
    first_span: Option<Span>,
}

type Reg<'s> = (&'s str, Span);
type Ty = (TypeId, Span);

/// The grammar of a whole assembly chunk.
fn file<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> {
    let unit = line_unit(line());
    silent(Tok::Newline)
        .ignored()
        .or(custom(line_start).ignore_then(unit))
        .repeated()
}

/// Starts a line (fails silently at end of input or after the 50-error stop).
fn line_start<'s>(inp: &mut IRef<'s, '_>) -> Result<(), TyErr<'s>> {
    let i = here(inp);
    let st = inp.state();
    if st.stopped() || st.tok(i).is_none() {
        return Err(expected_here(inp, &[SILENT]));
    }
    st.pos = i;
    st.drop_before(i);
    st.set_stmt(i);
    st.ctx = None;
    st.begin_statement();
    let span = st.span_at(i);
    st.cur_first = span;
    st.asm.first_span.get_or_insert(span);
    Ok(())
}

/// A line that reports its own failure, then skips to the end of the line.
fn line_unit<'s>(
    line: impl P<'s, In<'s>, (), SEx<'s>> + Clone + 's,
) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let reported = custom(move |inp: &mut IRef<'s, '_>| {
        let r = inp.parse(&line);
        let st = inp.state();
        st.asm.seen_line = true;
        match r {
            Ok(()) if !st.stmt_reported => Ok(()),
            Ok(()) => Err(TyErr::Reported),
            Err(e) => Err(st.report_failure(e)),
        }
    });
    reported.recover_with(via_parser(custom(skip_line)))
}

/// Recovery: from the offending token of the failed line (the cursor is at the line start),
/// skip past the next newline.
fn skip_line<'s>(inp: &mut IRef<'s, '_>) -> Result<(), TyErr<'s>> {
    let start = here(inp);
    let st = inp.state();
    // `pos` walks along: lexical errors met on the way are reported at the token being read.
    st.pos = st.fail_pos.max(start);
    while let Some(t) = st.tok(st.pos) {
        st.pos += 1;
        if t.tok == Tok::Newline {
            break;
        }
    }
    let to = st.pos.max(start + 1);
    st.pos = start;
    advance_to(inp, to);
    Ok(())
}

/// One line, by its first token.
fn line<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let func = func_directive();
    let vcvt = vcvt_line();
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        let st = inp.state();
        let span = st.span_at(i);
        match st.tok(i).map(|t| t.tok) {
            Some(Tok::Directive(".func")) if !st.asm.seen_line => inp.parse(&func),
            Some(Tok::Directive(".func")) => {
                st.error_at(ParseError::AsmFuncPlacement, span);
                Err(st.reported_at(i))
            }
            Some(Tok::BareId("PTO.vcvt" | "pto.vcvt")) => inp.parse(&vcvt),
            _ => {
                st.error_at(ParseError::AsmUnsupported, span);
                Err(st.reported_at(i))
            }
        }
    })
}

/// End of line or end of input.
fn eol<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    custom(|inp: &mut IRef<'s, '_>| match inp.peek() {
        None => Ok(()),
        Some(Tok::Newline) => {
            inp.skip();
            Ok(())
        }
        _ => Err(expected_here(inp, &["end of line"])),
    })
}

/// `.func @name`: names the function (default `@main`).
fn func_directive<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    tokf(&["'.func'"], |t| {
        matches!(t, Tok::Directive(".func")).then_some(())
    })
    .ignore_then(tokf(&["symbol"], |t| match t {
        Tok::Symbol(s) => Some(s),
        _ => None,
    }))
    .map_with(|(s, _), e| {
        let st: &mut Parser<'s> = e.state();
        st.asm.sym = Some(super::attrs::symbol_name(s));
    })
    .then_ignore(eol())
}

/// The optional modes after the mask: up to three registers, a fourth is E0311.
fn modes<'s>(
    reg: impl P<'s, In<'s>, Reg<'s>, SEx<'s>> + Clone + 's,
) -> Boxed<'s, 's, In<'s>, Vec<Reg<'s>>, SEx<'s>> {
    let comma = |l: &mut super::stmt_prim::Look<'_, 's>| is(l.a(), Tok::Comma);
    let extra = custom(|inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        let st = inp.state();
        st.pos = i;
        let span = st.span_at(i);
        st.error_at(ParseError::AsmExtraOperand, span);
        Err::<(), _>(st.reported_at(i))
    });
    let mut tail = when(comma, tk(Tok::Comma).ignore_then(extra))
        .map(|_| Vec::new())
        .boxed();
    for _ in 0..3 {
        tail = when(comma, tk(Tok::Comma).ignore_then(reg.clone()).then(tail))
            .map(|o| match o {
                Some((r, mut rest)) => {
                    rest.insert(0, r);
                    rest
                }
                None => Vec::new(),
            })
            .boxed();
    }
    tail
}

/// `PTO.vcvt dst, src, mask [, rnd [, sat [, part]]] : T, M -> R`.
fn vcvt_line<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let name = tokf(&["'PTO.vcvt'"], |t| {
        matches!(t, Tok::BareId("PTO.vcvt" | "pto.vcvt")).then_some(())
    })
    .map_with(|((), span), e| {
        let st: &mut Parser<'s> = e.state();
        st.ctx = Some((span, "PTO.vcvt".to_string()));
        span
    });
    let reg = tokf(&["register"], |t| match t {
        Tok::BareId(r) => Some(r),
        _ => None,
    });
    let typed = tk(Tok::Colon)
        .ignore_then(ty())
        .then_ignore(tk(Tok::Comma))
        .then(ty())
        .then_ignore(tk(Tok::Arrow))
        .then(ty());
    let sig = custom(move |inp: &mut IRef<'s, '_>| {
        if matches!(inp.peek(), None | Some(Tok::Newline)) {
            let i = here(inp);
            let st = inp.state();
            st.pos = i;
            let span = st.cur_first.join(st.prev_span());
            st.error_at(ParseError::AsmMissingTypes, span);
            return Err(st.reported_at(i));
        }
        inp.parse(&typed)
    });
    name.then(reg.clone())
        .then_ignore(tk(Tok::Comma))
        .then(reg.clone())
        .then_ignore(tk(Tok::Comma))
        .then(reg.clone())
        .then(modes(reg))
        .then(sig)
        .try_map_with(
            |(((((first, dst), src), mask), modes), ((ts, tm), tr)), e| {
                let st: &mut Parser<'s> = e.state();
                if st.stmt_reported {
                    return Err(TyErr::Reported);
                }
                let line = AsmLine {
                    first,
                    dst,
                    src,
                    mask,
                    modes,
                    ts,
                    tm,
                    tr,
                };
                st.build_asm_vcvt(line).map_err(|_| st.reported())
            },
        )
        .then_ignore(eol())
}

/// The pieces of one `PTO.vcvt` line.
struct AsmLine<'s> {
    first: Span,
    dst: Reg<'s>,
    src: Reg<'s>,
    mask: Reg<'s>,
    modes: Vec<Reg<'s>>,
    ts: Ty,
    tm: Ty,
    tr: Ty,
}

impl<'s> Parser<'s> {
    /// Parses the whole assembly chunk into one function.
    pub(crate) fn parse_asm_file(&mut self, all_regs: HashSet<&'s str>) {
        let body = self.m.add_region(None, Span::default());
        *self.asm = AsmState {
            all_regs,
            body,
            ..AsmState::default()
        };
        let input = super::tokens::TokInput(self.buf.clone());
        let _ = file().parse_with_state(input, self);
        self.sync_lex();
        self.finish_asm_func();
    }

    /// The function: its body, and a `return` of the final value of each written register, in
    /// first-write order, with an empty span at end of input.
    fn finish_asm_func(&mut self) {
        let st = std::mem::take(&mut *self.asm);
        let body = st.body;
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
        let first = st.first_span.unwrap_or(eof);
        let mut func = OpParts::new(
            OpKind::Func(Box::new(FuncOp {
                sym: st.sym.unwrap_or_else(|| "main".to_string()),
                visibility: None,
                result_types,
                arg_attrs: vec![None; nargs],
                decl_arg_types: Vec::new(),
                has_body: true,
            })),
            first,
        );
        func.spans.op = first.join(eof);
        func.regions.push(body);
        let top = self.m.body;
        let id = self.push_raw(func, top);
        if let Some(r) = self.m.regions.get_mut(body.0 as usize) {
            r.parent_op = Some(id);
        }
        if let Some(s) = self.m.spans.regions.get_mut(body.0 as usize) {
            *s = first.join(eof);
        }
    }

    fn push_raw(&mut self, parts: OpParts, region: RegionId) -> crate::ir::OpId {
        let regions = parts.regions.clone();
        let data = OpData {
            kind: parts.kind,
            operands: parts.operands,
            operand_types: parts.operand_types,
            results: Default::default(),
            result_groups: Default::default(),
            regions,
            attrs: parts.attrs.into(),
            parent: region,
        };
        self.m.push_op(data, parts.spans)
    }

    /// 1-based line of `span` in the chunk (for message text; spans carry the file position).
    fn line_of(&self, span: Span) -> usize {
        let rel = span.start.saturating_sub(self.base).min(self.src.len());
        self.src.as_bytes()[..rel]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1
    }

    /// The op of one `PTO.vcvt` line: modes, register reads, a fresh value for the write.
    fn build_asm_vcvt(&mut self, l: AsmLine<'s>) -> super::PResult<()> {
        let mut vcvt = VcvtOp {
            rnd: None,
            sat: None,
            part: None,
        };
        for (i, (m, span)) in l.modes.iter().enumerate() {
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
        let line = self.line_of(l.first);
        let s = self.asm_read(l.src, l.ts, line)?;
        let mk = self.asm_read(l.mask, l.tm, line)?;
        let (ts, ts_span) = l.ts;
        let (tm, tm_span) = l.tm;
        let (tr, tr_span) = l.tr;
        let (dst, dst_span) = l.dst;
        let mut parts = OpParts::new(OpKind::Vcvt(vcvt), l.first);
        parts.operands = smallvec![s, mk];
        parts.operand_types = smallvec![Some(ts), Some(tm)];
        parts.spans.operands = smallvec![l.src.1, l.mask.1];
        parts.spans.operand_types = smallvec![Some(ts_span), Some(tm_span)];
        parts.spans.result_types = thin_vec![tr_span];
        parts.spans.op = l.first.join(self.prev_span());
        let name = self.asm_write_name(dst);
        let body = self.asm.body;
        let id = self.push_raw(parts, body);
        if let Some(op) = self.m.ops.get_mut(id.0 as usize) {
            op.result_groups = thin_vec![ResultGroup {
                name,
                count: 1,
                explicit_count: false,
            }];
        }
        self.m.add_results(id, &[tr], &[dst_span]);
        if let Some(v) = self.m.ops[id.0 as usize].results.first().copied() {
            if !self.asm.written.contains(&dst) {
                self.asm.written.push(dst);
            }
            let ty_text = self.text(tr_span);
            self.asm.regs.insert(
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
        Ok(())
    }

    /// A fresh SSA name for a write of `dst`: `%dst`, then `%dst_1`, ... skipping names taken
    /// or clashing with register names.
    fn asm_write_name(&mut self, dst: &'s str) -> String {
        let st = &mut self.asm;
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
        name
    }

    /// The value a register read sees; the first read of an unwritten register is an argument.
    fn asm_read(
        &mut self,
        (reg, span): Reg<'s>,
        (ty, ty_span): Ty,
        line: usize,
    ) -> super::PResult<ValueId> {
        if let Some(s) = self.asm.regs.get(reg).copied() {
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
        self.asm.names.insert(name.clone());
        let body = self.asm.body;
        let v = self.m.add_region_arg(body, name, ty, span);
        let ty_text = self.text(ty_span);
        self.asm.regs.insert(
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
