//! Opaque statements (syntax.md §2.1 as revised: D-5's "a custom form of an unknown op is an
//! error" is withdrawn): a custom-form op in no row of the op catalog is read token by token
//! into [`OpKind::Opaque`], unless `--strict-ops` asks for the old error (E0008).
//!
//! What is read:
//! - the statement extends, in balanced `()`/`[]`/`<>`/`{}`, to the next token that starts a
//!   line and can start a statement ([`Parser::starts_statement`]: a value, a string, an op name
//!   — an identifier with a dialect prefix, or `return`/`module`/`call`/`call_indirect` — or a
//!   block label definition)
//!   at bracket depth 0, to a `}` at depth 0 (it closes the enclosing region), to a trailing
//!   `loc(...)`, or to the end of input. So `iter_args(...)`, `ins(...)` or a successor
//!   `^bb1(%x : T)` continuing an op on the next line stay in it;
//! - a `{` at depth 0 followed by a line break or a block label opens a **region**, parsed as a
//!   generic region (statements, an optional entry label); any other `{` is attribute text;
//! - every `%value` outside regions is a **use** (an operand, checked like any other), except
//!   header definitions of a region-holding op: `%x` followed by `=` (`scf.for %i = ...`,
//!   `iter_args(%acc = %init)`) and undefined names inside parentheses (`scf.forall (%i) in`),
//!   which become leading arguments of its first region (visible only inside it);
//! - **types**, where the trailing shape is clear: after the last `:` at depth 0 (up to a region
//!   or the end), `(A, B) -> C` / `A, B -> C` give the operand types (when their count equals the
//!   uses) and the result types (when their count equals the results); a plain `T[, U]` gives
//!   the result types only for an op without operands (after operands it may type either:
//!   `arith.cmpi eq, %a, %b : i32` defines an i1), when the counts agree. Other results get the unknown placeholder type
//!   (`ir::UNKNOWN_TYPE`), which agrees with every written type. The types are read
//!   speculatively: a list that does not parse leaves no diagnostic.
//!
//! In a module body, an op name without a dialect prefix (other than func's `return`, `call`,
//! `call_indirect`) is `expected operation`, as in MLIR: it could not start a statement when
//! read back.
//!
//! Invariants: the token sequence is kept exactly (the printer re-spaces it canonically, so
//! printing is a fixed point); nothing here recurses except through regions (bounded by the
//! generic region's `MAX_DEPTH` check); a mismatched closing bracket is a syntax error.

use chumsky::prelude::*;
use chumsky::Parser as P;

use super::grammar::TyErr;
use super::module::OpParts;
use super::region_grammar::generic_region;
use super::stmt_grammar::Stmts;
use super::stmt_prim::{expected_here, here, IRef, In, SEx};
use super::Parser;
use crate::diag::Span;
use crate::front::lexer::{Tok, Token};
use crate::ir::{OpKind, OpaqueItem, OpaqueOp, OpaqueTok, TokClass, TypeId};

type Ty = (TypeId, Span);

/// The opaque statement starting at the op name (the cursor).
pub(super) fn opaque_op<'s>(stmts: Stmts<'s>) -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    let region = generic_region(stmts);
    custom(move |inp: &mut IRef<'s, '_>| {
        let start = here(inp);
        let st = inp.state();
        let Some(Token {
            tok: Tok::BareId(name),
            span: name_span,
            ..
        }) = st.tok(start)
        else {
            return Err(expected_here(inp, &["operation"]));
        };
        // In a module body an op name has a dialect prefix (MLIR: "custom op 'x' is unknown"):
        // a bare word read as an op would print on its own line and then read back as part of
        // the op before it (an alias or `loc` line between them is not printed there). In
        // regions bare words stay ops: an attribute dictionary on its own lines reads as a
        // region of `key = value` statements.
        let top = st.cur_region().1 == super::module::RegionKind::Module;
        if top && !name.contains('.') && !matches!(name, "return" | "call" | "call_indirect") {
            return Err(expected_here(inp, &["operation"]));
        }
        st.cur_name = name_span;
        inp.skip();
        let mut parts = OpParts::new(OpKind::VecScope, name_span);
        let mut items: Vec<OpaqueItem> = Vec::new();
        // Expected closers of the open brackets.
        let mut stack: Vec<Tok<'static>> = Vec::new();
        // Per operand: written as `%x =` / inside parentheses.
        let mut def_like: Vec<bool> = Vec::new();
        let mut in_parens: Vec<bool> = Vec::new();
        let mut regions = Vec::new();
        let mut header_defs = 0u32;
        // Token range of the trailing types: after the last `:` at depth 0, to a region or end.
        let mut colon: Option<(usize, Option<usize>)> = None;
        // Else the result types after the last `->` at depth 0 (`scf.for ... -> (f32) {`).
        let mut arrow: Option<(usize, Option<usize>)> = None;
        loop {
            let i = here(inp);
            let st = inp.state();
            let Some(t) = st.tok(i) else {
                if let Some(&c) = stack.last() {
                    return Err(expected_here(inp, closer_label(c)));
                }
                break;
            };
            if stack.is_empty() {
                let ends = match t.tok {
                    Tok::RBrace => true,
                    Tok::BareId("ins" | "outs") => false,
                    Tok::BareId("loc") => {
                        let ends = st.tok(i + 1).is_some_and(|n| matches!(n.tok, Tok::LParen));
                        if ends {
                            st.check_after_loc(name, i + 1)?;
                        }
                        ends
                    }
                    Tok::ValueId(_)
                    | Tok::Str(_)
                    | Tok::BareId(_)
                    | Tok::BlockId(_)
                    | Tok::TypeName(_)
                    | Tok::AttrName(_) => t.line_start && st.starts_statement(i),
                    _ => false,
                };
                if ends {
                    break;
                }
                if matches!(t.tok, Tok::LBrace) && st.opens_region(i) {
                    for range in [&mut colon, &mut arrow] {
                        if let Some((_, end @ None)) = range {
                            *end = Some(i);
                        }
                    }
                    if regions.is_empty() {
                        header_defs = st.take_header_defs(&mut parts, &def_like, &in_parens);
                    }
                    let r = inp.parse(&region)?;
                    items.push(OpaqueItem::Region(regions.len() as u32));
                    regions.push(r);
                    continue;
                }
            }
            match t.tok {
                Tok::LParen => stack.push(Tok::RParen),
                Tok::LBracket => stack.push(Tok::RBracket),
                Tok::LAngle => stack.push(Tok::RAngle),
                Tok::LBrace => stack.push(Tok::RBrace),
                Tok::RParen | Tok::RBracket | Tok::RAngle | Tok::RBrace => {
                    match stack.last() {
                        Some(&c) if super::same_kind(c, t.tok) => {
                            stack.pop();
                        }
                        // A stray `>` at depth 0 is just a token.
                        None if matches!(t.tok, Tok::RAngle) => {}
                        Some(&c) => return Err(expected_here(inp, closer_label(c))),
                        None => return Err(expected_here(inp, &["operation"])),
                    }
                }
                Tok::ValueId(v) => {
                    let eq = st.tok(i + 1).is_some_and(|n| matches!(n.tok, Tok::Equals));
                    st.push_use(&mut parts, v, t.span, None);
                    def_like.push(eq && !v.contains('#'));
                    in_parens.push(stack.last().is_some_and(|c| matches!(c, Tok::RParen)));
                }
                Tok::Colon if stack.is_empty() => colon = Some((i + 1, None)),
                Tok::Arrow if stack.is_empty() => arrow = Some((i + 1, None)),
                Tok::TypeName(n) | Tok::AttrName(n) => st.check_alias_token(n, i, t.span),
                _ => {}
            }
            let text = st.text(t.span).to_string();
            items.push(OpaqueItem::Tok(OpaqueTok {
                text,
                class: class_of(t.tok),
            }));
            inp.skip();
        }
        let end = here(inp);
        let st = inp.state();
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        let groups = std::mem::take(&mut st.cur_groups);
        let nres: usize = groups.iter().map(|g| g.count as usize).sum();
        let typed = match (colon, arrow) {
            (Some((from, to)), _) => st.opaque_types(from, to.unwrap_or(end), false),
            (None, Some((from, to))) => st.opaque_types(from, to.unwrap_or(end), true),
            (None, None) => None,
        };
        let mut rtypes: Option<Vec<Ty>> = None;
        if let Some((inputs, results)) = typed {
            // A plain `: T` after operands may type them or the result (`arith.cmpi ... : i32`
            // gives an i1): not clear, so the results stay unknown.
            let plain = colon.is_some() && inputs.is_none();
            let results = if plain && !parts.operands.is_empty() {
                Vec::new()
            } else {
                results
            };
            if let Some(inputs) = inputs {
                if inputs.len() == parts.operands.len() {
                    for (k, t) in inputs.into_iter().enumerate() {
                        st.set_operand_type(&mut parts, k, t);
                    }
                }
            }
            if results.len() == nres {
                rtypes = Some(results);
            }
        }
        let (rtys, rspans): (Vec<TypeId>, Vec<Span>) = match rtypes {
            Some(r) => r.into_iter().unzip(),
            None => {
                let any = st.any_type();
                (vec![any; nres], vec![name_span; nres])
            }
        };
        parts.result_types = rtys;
        parts.regions = regions.into();
        parts.kind = OpKind::Opaque(Box::new(OpaqueOp {
            name: name.to_string(),
            items,
            header_defs,
        }));
        let (region, _) = st.cur_region();
        let first = st.cur_first;
        let r = st.finish_op(parts, &groups, region, first, rspans);
        st.cur_groups = groups;
        match r {
            Ok(_) => Ok(()),
            Err(_) => Err(st.reported()),
        }
    })
}

fn closer_label(c: Tok<'_>) -> &'static [&'static str] {
    match c {
        Tok::RParen => &["')'"],
        Tok::RBracket => &["']'"],
        Tok::RAngle => &["'>'"],
        _ => &["'}'"],
    }
}

fn class_of(t: Tok<'_>) -> TokClass {
    match t {
        Tok::LParen | Tok::LBracket | Tok::LAngle | Tok::LBrace => TokClass::Open,
        Tok::RParen | Tok::RBracket | Tok::RAngle | Tok::RBrace => TokClass::Close,
        Tok::Comma => TokClass::Comma,
        Tok::DimPrefix(_) => TokClass::DimPrefix,
        Tok::ValueId(_) => TokClass::Value,
        Tok::BareId(_) | Tok::Symbol(_) | Tok::TypeName(_) | Tok::AttrName(_) | Tok::BlockId(_) => {
            TokClass::Word
        }
        _ => TokClass::Other,
    }
}

impl<'s> Parser<'s> {
    /// After the trailing `loc(` of the opaque op `op` (at token `open`, the `(`): the token
    /// after the location's `)` must not be a word without a dialect prefix. The location ends
    /// the op, but without it (locations are not printed) the word would continue the op, so
    /// the printed text would read back as another program (`x.y loc(unknown) foo`).
    fn check_after_loc(&mut self, op: &str, open: usize) -> Result<(), TyErr<'s>> {
        let mut depth = 0usize;
        let mut k = open;
        while let Some(t) = self.tok(k) {
            match t.tok {
                Tok::LParen => depth += 1,
                Tok::RParen => depth = depth.saturating_sub(1),
                _ => {}
            }
            k += 1;
            if depth == 0 {
                break;
            }
        }
        let Some(next) = self.tok(k) else {
            return Ok(());
        };
        match next.tok {
            Tok::BareId(w) if !self.starts_statement(k) => {
                let err = crate::front::error::ParseError::AfterTrailingLoc {
                    op: op.to_string(),
                    word: w.to_string(),
                };
                self.error_at(err, next.span);
                Err(self.reported_at(k))
            }
            _ => Ok(()),
        }
    }

    /// Whether the line-starting token `i` can begin a statement: a value (result name), a
    /// string (generic op), an op name (an identifier with a dialect prefix, or `return` /
    /// `module`), or a block label definition (`^bb1:` / `^bb1(...):`, not a successor use).
    pub(super) fn starts_statement(&mut self, i: usize) -> bool {
        let Some(t) = self.tok(i) else { return false };
        match t.tok {
            Tok::Str(_) => true,
            Tok::ValueId(_) => self.is_result_list(i),
            // `call`/`call_indirect`/`return`: func ops, whose prefix may be left out inside a
            // function (MLIR's default dialect there).
            Tok::BareId(w) => {
                w.contains('.') || matches!(w, "return" | "module" | "call" | "call_indirect")
            }
            Tok::BlockId(_) => self.is_block_label_def(i),
            Tok::TypeName(_) | Tok::AttrName(_) => self.alias_def_at(i),
            _ => false,
        }
    }

    /// Whether an alias definition `!t =` / `#a =` starts at token `i`.
    pub(super) fn alias_def_at(&mut self, i: usize) -> bool {
        self.tok(i)
            .is_some_and(|t| matches!(t.tok, Tok::TypeName(_) | Tok::AttrName(_)))
            && self
                .tok(i + 1)
                .is_some_and(|t| matches!(t.tok, Tok::Equals))
    }

    /// Whether the value at token `i` begins a result list `%a[:N] {, %b[:N]} =` (a line
    /// starting with an operand, `%x {attrs} : T` or `%x, %y`, continues the op before it).
    fn is_result_list(&mut self, i: usize) -> bool {
        let mut j = i;
        loop {
            if !self
                .tok(j)
                .is_some_and(|t| matches!(t.tok, Tok::ValueId(_)))
            {
                return false;
            }
            j += 1;
            if self.tok(j).is_some_and(|t| matches!(t.tok, Tok::Colon))
                && self
                    .tok(j + 1)
                    .is_some_and(|t| matches!(t.tok, Tok::Int(_)))
            {
                j += 2;
            }
            match self.tok(j).map(|t| t.tok) {
                Some(Tok::Equals) => return true,
                Some(Tok::Comma) => j += 1,
                _ => return false,
            }
        }
    }

    /// Whether the block label at token `i` defines a block: a `:` follows it, directly or
    /// after its balanced argument list.
    fn is_block_label_def(&mut self, i: usize) -> bool {
        let mut j = i + 1;
        if self.tok(j).is_some_and(|t| matches!(t.tok, Tok::LParen)) {
            let mut depth = 0usize;
            while let Some(t) = self.tok(j) {
                match t.tok {
                    Tok::LParen | Tok::LBracket | Tok::LAngle | Tok::LBrace => depth += 1,
                    Tok::RParen | Tok::RBracket | Tok::RAngle | Tok::RBrace => {
                        depth = depth.saturating_sub(1);
                    }
                    _ => {}
                }
                j += 1;
                if depth == 0 {
                    break;
                }
            }
        }
        self.tok(j).is_some_and(|t| matches!(t.tok, Tok::Colon))
    }

    /// Whether the `{` at token `i` opens a region: a line break or a block label follows.
    fn opens_region(&mut self, i: usize) -> bool {
        self.tok(i + 1)
            .is_some_and(|n| n.line_start || matches!(n.tok, Tok::BlockId(_)))
    }

    /// Before the first region of an opaque op: turns its header definitions (`%x =`, and
    /// undefined names inside parentheses) from operands into pending arguments of the region
    /// (`pending_args`, taken by the generic region). Returns how many.
    fn take_header_defs(&mut self, parts: &mut OpParts, def_like: &[bool], paren: &[bool]) -> u32 {
        let mut keep = Vec::with_capacity(parts.operands.len());
        for (k, &v) in parts.operands.iter().enumerate() {
            let unresolved = self.is_unbound(v);
            let name_ok = !self.value_name(v).contains('#');
            let def_like_k = def_like.get(k).copied().unwrap_or(false);
            let paren_k = paren.get(k).copied().unwrap_or(false);
            let is_def = name_ok && (def_like_k || (unresolved && paren_k));
            if unresolved && name_ok && paren_k && !def_like_k && self.fragment.is_some() {
                // Read as a definition because the name is unbound here (`split` checks it).
                let name = self.value_name(v).to_string();
                self.assume_unbound(&name);
            }
            keep.push(!is_def);
        }
        let mut defs = Vec::new();
        let mut k = 0usize;
        let mut operands = Vec::new();
        let mut types = Vec::new();
        let mut spans = Vec::new();
        let mut tspans = Vec::new();
        for (i, &v) in parts.operands.iter().enumerate() {
            let span = parts.spans.operands.get(i).copied().unwrap_or_default();
            if keep.get(i).copied().unwrap_or(true) {
                operands.push(v);
                types.push(parts.operand_types.get(i).copied().flatten());
                spans.push(span);
                tspans.push(parts.spans.operand_types.get(i).copied().flatten());
            } else if self.placeholder_ref(v).is_some() || (v.0 as usize) < self.m.values.len() {
                defs.push((self.value_name(v).to_string(), span));
                k += 1;
            }
        }
        parts.operands = operands.into();
        parts.operand_types = types.into();
        parts.spans.operands = spans.into();
        parts.spans.operand_types = tspans.into();
        for (name, span) in defs {
            // The name as written is the source text at its span (a use token).
            let text = self.text(span);
            if text == name {
                self.pending_args.push((text, span));
            }
        }
        k as u32
    }

    /// Reads the trailing types of an opaque op in tokens `from..to`, speculatively: on any
    /// failure every diagnostic it produced is dropped and `None` returned. Gives the operand
    /// types (when written as a function type or before `->`) and the result types.
    /// With `results_only` the tokens are the result list after a `->` (no operand types).
    fn opaque_types(
        &mut self,
        from: usize,
        to: usize,
        results_only: bool,
    ) -> Option<(Option<Vec<Ty>>, Vec<Ty>)> {
        if from >= to {
            return None;
        }
        self.sync_lex();
        let saved = (
            self.diags.len(),
            self.errors,
            self.stopped,
            self.stmt_reported,
            self.fail_pos,
            self.pos,
        );
        self.pos = from;
        let r = if results_only {
            self.opaque_results(to).map(|r| (None, r))
        } else {
            self.opaque_type_shape(to)
        };
        let ok = r.is_some() && self.pos == to && self.errors == saved.1;
        self.diags.truncate(saved.0);
        (
            _,
            self.errors,
            self.stopped,
            self.stmt_reported,
            self.fail_pos,
            self.pos,
        ) = saved;
        if ok {
            r
        } else {
            None
        }
    }

    fn opaque_type_shape(&mut self, to: usize) -> Option<(Option<Vec<Ty>>, Vec<Ty>)> {
        let first = if self.at(Tok::LParen) {
            self.bump();
            let l = self.opaque_type_list(to, true)?;
            self.at(Tok::Arrow).then_some(())?;
            l
        } else {
            self.opaque_type_list(to, false)?
        };
        if self.pos < to && self.at(Tok::Arrow) {
            self.bump();
            let results = self.opaque_results(to)?;
            return Some((Some(first), results));
        }
        Some((None, first))
    }

    /// `( [T {, T}] )` or `T {, T}`.
    fn opaque_results(&mut self, to: usize) -> Option<Vec<Ty>> {
        if self.at(Tok::LParen) {
            self.bump();
            self.opaque_type_list(to, true)
        } else {
            self.opaque_type_list(to, false)
        }
    }

    /// `T {, T}` (then `)` when `closed`), not past token `to`.
    fn opaque_type_list(&mut self, to: usize, closed: bool) -> Option<Vec<Ty>> {
        let mut v = Vec::new();
        if closed && self.at(Tok::RParen) {
            self.bump();
            return Some(v);
        }
        loop {
            if self.pos >= to || self.at(Tok::LParen) {
                return None;
            }
            let t = self.parse_type().ok()?;
            v.push(t);
            if self.pos < to && self.at(Tok::Comma) {
                self.bump();
                continue;
            }
            break;
        }
        if closed {
            if self.pos < to && self.at(Tok::RParen) {
                self.bump();
            } else {
                return None;
            }
        }
        (self.pos <= to).then_some(v)
    }
}
