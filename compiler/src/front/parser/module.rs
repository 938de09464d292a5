//! The builder side of syntax.md §2 (the syntax is `stmt_grammar`): the entry point
//! [`Parser::parse_file`], op assembly (`OpParts`, result groups, name binding of uses and
//! results), the D-6 `pto.target_arch` check, function-body `return` rules, region closing, and
//! the token-level skips the grammar uses as primitives (to a block's end, past a failed
//! function header).

use super::{Binding, PResult, Parser};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{
    thin_vec, Attr, OpData, OpId, OpKind, OpSpans, RegionId, ResultGroup, ThinVec, TypeId,
};

/// Where a list of statements sits; decides `return` rules and what may appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RegionKind {
    /// Module body (implicit or explicit).
    Module,
    Func,
    VecScope,
    Generic,
}

/// One `%name[:N]` of the result definitions.
#[derive(Debug, Clone, Copy)]
pub(crate) struct GroupDef<'s> {
    pub name: &'s str,
    pub count: u32,
    pub explicit: bool,
    pub span: Span,
}

/// Everything a parsed op statement contributes, before it is pushed.
pub(crate) struct OpParts {
    pub kind: OpKind,
    pub operands: crate::ir::ValueList,
    pub operand_types: crate::ir::OperandTypes,
    pub result_types: Vec<TypeId>,
    pub regions: ThinVec<RegionId>,
    pub attrs: crate::ir::AttrDict,
    pub spans: OpSpans,
}

impl OpParts {
    pub(crate) fn new(kind: OpKind, name: Span) -> Self {
        OpParts {
            kind,
            operands: crate::ir::ValueList::new(),
            operand_types: crate::ir::OperandTypes::new(),
            result_types: Vec::new(),
            regions: ThinVec::new(),
            attrs: crate::ir::AttrDict::new(),
            spans: OpSpans {
                name,
                ..OpSpans::default()
            },
        }
    }
}

impl<'s> Parser<'s> {
    /// Parses the chunk with the chumsky statement grammar (`stmt_grammar`).
    /// Parses a fragment of a function body (the helper side of `split`) into region `body`;
    /// returns the absolute offset where its statements stopped (`None`: the grammar failed).
    pub(crate) fn parse_fragment_body(&mut self, body: RegionId) -> Option<usize> {
        use chumsky::Parser as _;
        let g = super::stmt_grammar::fragment(body);
        let input = super::tokens::TokInput(self.buf.clone());
        g.parse_with_state(input, self).into_output().flatten()
    }

    pub(crate) fn parse_file(&mut self) {
        use chumsky::Parser as _;
        let g = super::stmt_grammar::file();
        let input = super::tokens::TokInput(self.buf.clone());
        let _ = g.parse_with_state(input, self);
        self.sync_lex();
        if !self.stopped {
            self.check_deferred_locs();
        }
        if !self.explicit_module {
            let body = &self.m.regions[self.m.body.0 as usize];
            self.m.bare = body
                .ops
                .iter()
                .any(|op| matches!(self.m.ops[op.0 as usize].kind, OpKind::Module(_)));
        }
    }

    /// Something follows the chunk's first module: the chunk holds several top-level items,
    /// read as MLIR does into an implicit module. The first module becomes an op of a new
    /// top-level body, taking the IR module's name and attributes.
    pub(super) fn wrap_top_module(&mut self) {
        let old = self.m.body;
        let whole = self.m.spans.regions[old.0 as usize];
        let new = self.m.add_region(None, Span::default());
        let name = self.m.name.take();
        let attrs = std::mem::take(&mut self.m.attrs);
        let attr_spans = std::mem::take(&mut self.m.attrs_span);
        let data = OpData {
            kind: OpKind::Module(Box::new(crate::ir::ModuleOp { name })),
            operands: Default::default(),
            operand_types: Default::default(),
            results: ThinVec::new(),
            result_groups: ThinVec::new(),
            regions: thin_vec![old],
            attrs: attrs.into(),
            parent: new,
        };
        let spans = OpSpans {
            op: whole,
            name: self.top_module_name,
            attrs: attr_spans,
            ..OpSpans::default()
        };
        self.m.body = new;
        let id = self.m.push_op(data, spans);
        self.m.regions[old.0 as usize].parent_op = Some(id);
        self.explicit_module = false;
    }

    /// D-6: a non-string value is an error, even when the CLI overrides it. An unknown string
    /// is a warning naming the profile used instead, which only the driver knows
    /// (`driver::target_arch_warnings`).
    pub(super) fn check_target_arch(&mut self, value: &Attr, span: Span) {
        match value {
            Attr::Str(_) => {}
            _ => {
                self.error_at(ParseError::TargetArchNotString, span);
            }
        }
    }

    /// Whether `region` is the implicit top-level module body (no `}` closes it).
    pub(super) fn in_implicit_top(&self, region: RegionId) -> bool {
        region == self.m.body && !self.explicit_module
    }

    /// Skips to the end of the next `{...}` block of the current statement (nested functions
    /// and misplaced modules are rejected whole, so their bodies cause no further errors).
    pub(super) fn skip_to_block_end(&mut self) {
        while let Some(t) = self.peek() {
            match t {
                Tok::LBrace => {
                    self.bump();
                    let _ = self.skip_balanced(Tok::RBrace);
                    return;
                }
                Tok::RBrace => return,
                _ => {
                    self.bump();
                }
            }
        }
    }

    /// Binds a use and records its span and written type.
    pub(crate) fn push_use(
        &mut self,
        parts: &mut OpParts,
        name: &'s str,
        span: Span,
        ty: Option<(TypeId, Span)>,
    ) {
        let v = self.bind_use(name, span, ty.map(|t| t.0));
        parts.operands.push(v);
        parts.operand_types.push(ty.map(|t| t.0));
        parts.spans.operands.push(span);
        parts.spans.operand_types.push(ty.map(|t| t.1));
    }

    /// Sets the written type of operand `i` (types follow the operands in most forms).
    pub(crate) fn set_operand_type(&mut self, parts: &mut OpParts, i: usize, ty: (TypeId, Span)) {
        if let Some(slot) = parts.operand_types.get_mut(i) {
            *slot = Some(ty.0);
        }
        if let Some(slot) = parts.spans.operand_types.get_mut(i) {
            *slot = Some(ty.1);
        }
        // An unresolved use takes the written type.
        if let Some(&v) = parts.operands.get(i) {
            let any = self.any_ty;
            if let Some(p) = self.placeholder_mut(v) {
                if Some(p.ty) == any {
                    p.ty = ty.0;
                }
            } else if let Some(val) = self.m.values.get_mut(v.0 as usize) {
                let unbound = matches!(
                    val.def,
                    crate::ir::ValueDef::Unresolved | crate::ir::ValueDef::BadResultNumber { .. }
                );
                if unbound && Some(val.ty) == any {
                    val.ty = ty.0;
                }
            }
        }
    }

    /// Pushes the op, creates its results and defines their names.
    pub(crate) fn finish_op(
        &mut self,
        mut parts: OpParts,
        groups: &[GroupDef<'s>],
        region: RegionId,
        first: Span,
        result_spans: Vec<Span>,
    ) -> PResult<OpId> {
        let given: u32 = groups.iter().map(|g| g.count).sum();
        if given as usize != parts.result_types.len() {
            let op = self.kind_name(&parts.kind);
            let span = groups.first().map_or(first, |g| {
                g.span.join(groups.last().map_or(g.span, |l| l.span))
            });
            return Err(self.error_at(
                ParseError::ResultCountMismatch {
                    op,
                    defined: parts.result_types.len(),
                    given: given as usize,
                },
                span,
            ));
        }
        parts.spans.op = first.join(self.prev_span());
        parts.spans.result_types = result_spans.into();
        let regions = parts.regions.clone();
        let data = OpData {
            kind: parts.kind,
            operands: parts.operands,
            operand_types: parts.operand_types,
            results: ThinVec::new(),
            result_groups: groups
                .iter()
                .map(|g| ResultGroup {
                    name: g.name.to_string(),
                    count: g.count,
                    explicit_count: g.explicit,
                })
                .collect(),
            regions: ThinVec::new(),
            attrs: parts.attrs.into(),
            parent: region,
        };
        let id = self.m.push_op(data, parts.spans);
        for r in &regions {
            if let Some(rd) = self.m.regions.get_mut(r.0 as usize) {
                rd.parent_op = Some(id);
            }
        }
        if let Some(op) = self.m.ops.get_mut(id.0 as usize) {
            op.regions = regions;
        }
        if given > 0 {
            let mut def_spans = Vec::with_capacity(given as usize);
            for g in groups {
                for _ in 0..g.count {
                    def_spans.push(g.span);
                }
            }
            self.m.add_results(id, &parts.result_types, &def_spans);
            let results = &self.m.ops[id.0 as usize].results;
            let mut k = 0usize;
            let mut binds = Vec::with_capacity(groups.len());
            for g in groups {
                if let Some(&first) = results.get(k) {
                    binds.push((
                        g.name,
                        Binding::Group {
                            first,
                            count: g.count,
                            op: id,
                        },
                    ));
                }
                k += g.count as usize;
            }
            for (n, b) in binds {
                self.names.insert(n, b);
            }
        }
        Ok(id)
    }

    pub(super) fn kind_name(&self, kind: &OpKind) -> String {
        // Reuse the module's naming by a throwaway lookup table.
        let mut tmp = crate::ir::Module::new();
        tmp.ops.push(OpData {
            kind: kind.clone(),
            operands: Default::default(),
            operand_types: Default::default(),
            results: ThinVec::new(),
            result_groups: ThinVec::new(),
            regions: ThinVec::new(),
            attrs: Default::default(),
            parent: RegionId(0),
        });
        tmp.op_name(OpId(0)).to_string()
    }

    /// After a failed function header: skip the rest of the header and its body, so the body's
    /// statements cause no further errors. Stops before the next `func.func`/`module` line.
    pub(super) fn skip_func_rest(&mut self) {
        let mut depth = 0i64;
        while let Some(t) = self.tok(self.pos) {
            match t.tok {
                Tok::BareId("func.func" | "module") if t.line_start => return,
                Tok::LParen | Tok::LBracket | Tok::LAngle => depth += 1,
                Tok::RParen | Tok::RBracket | Tok::RAngle => depth -= 1,
                Tok::LBrace if depth <= 0 => {
                    self.bump();
                    let _ = self.skip_balanced(Tok::RBrace);
                    return;
                }
                Tok::RBrace if depth <= 0 => return,
                _ => {}
            }
            self.bump();
        }
    }

    /// `return` must be the last op of its block, and the body's last block must end with one
    /// or with an op ptoc cannot judge (an opaque op, e.g. `cf.br`, may be a terminator; its
    /// successors are not checked).
    pub(super) fn check_func_body(&mut self, body: RegionId, close: Span, clean: bool) {
        let region = &self.m.regions[body.0 as usize];
        let ops = region.ops.clone();
        let multi = !region.blocks.is_empty();
        let mut block_ends: Vec<usize> = region.blocks.iter().map(|b| b.start as usize).collect();
        block_ends.push(ops.len());
        for (i, op) in ops.iter().enumerate() {
            let last_of_block = block_ends.contains(&(i + 1));
            if matches!(self.m.ops[op.0 as usize].kind, OpKind::Return) && !last_of_block {
                let span = self.m.spans.ops[op.0 as usize].op;
                self.error_at(ParseError::ReturnNotLast, span);
            }
        }
        let ends = ops
            .last()
            .is_some_and(|op| match self.m.ops[op.0 as usize].kind {
                OpKind::Return => true,
                OpKind::Opaque(_) => multi,
                _ => false,
            });
        if !ends && clean {
            self.error_at(ParseError::MissingReturn, close);
        }
    }

    /// Ends a region body: fails quietly if parsing has stopped, else expects the closing `}`
    /// and records the region's span from its opening brace `open`. Returns the `}` span.
    pub(super) fn close_region(&mut self, r: RegionId, open: Span) -> PResult<Span> {
        if self.stopped() {
            return Err(super::Fail);
        }
        let close = self.expect(Tok::RBrace)?;
        if let Some(s) = self.m.spans.regions.get_mut(r.0 as usize) {
            *s = open.join(close);
        }
        Ok(close)
    }

    /// Reports a diagnostic built elsewhere (used by ops for labelled errors).
    pub(crate) fn diag(&mut self, d: Diagnostic) {
        self.push_diag(d);
    }
}
