//! File, module, function and region structure (syntax.md §2): implicit/explicit module,
//! `module attributes` with the D-6 `pto.target_arch` check, `func.func` headers and bodies,
//! op statements with result groups and trailing `loc(...)` (D-3), the generic op form and its
//! regions, and the statement loop with recovery (§8.2).

use indexmap::IndexMap;

use super::attrs::{symbol_name, to_dict};
use super::{Binding, PResult, Parser, MAX_DEPTH};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{
    Attr, FuncOp, OpData, OpId, OpKind, OpSpans, RegionId, ResultGroup, TypeId, ValueId,
};

/// A parsed function header: named args, declaration arg types, arg dicts, result types and
/// spans, `attributes` dict and its spans.
/// Everything between a function's symbol and its body.
struct FuncHeader<'s> {
    /// Named arguments (`%a: T`): name, span, type.
    named: Vec<(&'s str, Span, TypeId)>,
    /// Argument types of a declaration (unnamed arguments).
    decl_types: Vec<TypeId>,
    arg_attrs: Vec<Option<crate::ir::AttrDict>>,
    result_types: Vec<TypeId>,
    result_spans: Vec<Span>,
    /// `attributes {...}` and the span of each entry.
    attrs: crate::ir::AttrDict,
    attr_spans: IndexMap<String, Span>,
}

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
    pub operands: Vec<ValueId>,
    pub operand_types: Vec<Option<TypeId>>,
    pub result_types: Vec<TypeId>,
    pub regions: Vec<RegionId>,
    pub attrs: crate::ir::AttrDict,
    pub spans: OpSpans,
}

impl OpParts {
    pub(crate) fn new(kind: OpKind, name: Span) -> Self {
        OpParts {
            kind,
            operands: Vec::with_capacity(4),
            operand_types: Vec::with_capacity(4),
            result_types: Vec::new(),
            regions: Vec::new(),
            attrs: crate::ir::AttrDict::new(),
            spans: OpSpans {
                name,
                ..OpSpans::default()
            },
        }
    }
}

impl<'s> Parser<'s> {
    /// `file ::= { top-item }`.
    pub(crate) fn parse_file(&mut self) {
        let body = self.m.body;
        if self.at_kw("module") || self.at_kw("builtin.module") {
            self.explicit_module = true;
            self.set_stmt(self.pos);
            let start = self.pos;
            if self.module_op().is_err() {
                self.recover(start);
            }
            if !self.stopped() && self.peek().is_some() {
                let found = self.found();
                let span = self.span();
                self.error_at(ParseError::AfterModule { found }, span);
            }
            return;
        }
        self.statements(body, RegionKind::Module);
    }

    /// `module [@sym] [attributes {...}] { ... }`.
    fn module_op(&mut self) -> PResult<()> {
        let mstart = self.bump();
        if let Some(Tok::Symbol(s)) = self.peek() {
            self.bump();
            self.m.name = Some(symbol_name(s));
        }
        if self.eat_kw("attributes") {
            let entries = self.attr_dict()?;
            let mut spans = IndexMap::new();
            for e in &entries {
                if e.key == "pto.target_arch" {
                    self.check_target_arch(&e.value, e.value_span);
                }
            }
            self.m.attrs = to_dict(entries, &mut spans);
            self.m.attrs_span = spans;
        }
        self.expect(Tok::LBrace)?;
        let body = self.m.body;
        self.statements(body, RegionKind::Module);
        if self.stopped() {
            return Ok(());
        }
        let end = self.expect(Tok::RBrace)?;
        if let Some(s) = self.m.spans.regions.get_mut(body.0 as usize) {
            *s = mstart.join(end);
        }
        Ok(())
    }

    /// D-6: validated even when the CLI overrides it.
    fn check_target_arch(&mut self, value: &Attr, span: Span) {
        match value {
            Attr::Str(s) if matches!(s.as_str(), "a2" | "a3" | "a5" | "cpu") => {}
            Attr::Str(s) => {
                self.error_at(ParseError::UnknownTargetArch { value: s.clone() }, span);
            }
            _ => {
                self.error_at(ParseError::TargetArchNotString, span);
            }
        }
    }

    /// Statements up to (not including) the closing `}` or end of input.
    pub(crate) fn statements(&mut self, region: RegionId, kind: RegionKind) {
        loop {
            if self.stopped() {
                return;
            }
            match self.peek() {
                // The caller's `expect('}')` reports a missing brace.
                None => return,
                Some(Tok::RBrace) => {
                    if kind != RegionKind::Module || self.in_explicit_module(region) {
                        return;
                    }
                    self.set_stmt(self.pos);
                    self.ctx = None;
                    self.expected(&["operation"]);
                    self.bump();
                    continue;
                }
                _ => {}
            }
            let start = self.pos;
            if self.depth == 0 {
                self.drop_before(start);
            }
            self.set_stmt(start);
            self.ctx = None;
            if self.statement(region, kind).is_err() {
                self.recover(start);
                if self.pos <= start {
                    self.bump();
                }
            }
        }
        // (unreachable: every path returns)
    }

    /// Whether `region` is the body of an explicit module (its `}` closes it).
    fn in_explicit_module(&self, region: RegionId) -> bool {
        region == self.m.body && self.explicit_module
    }

    /// One op statement (syntax.md §2 `op`), including `func.func` in a module body.
    pub(super) fn statement(&mut self, region: RegionId, kind: RegionKind) -> PResult<()> {
        let first = self.span();
        let mut groups: Vec<GroupDef<'s>> = Vec::new();
        match self.peek() {
            Some(Tok::ValueId(_)) => {
                groups = self.result_defs()?;
                if !self.at(Tok::Equals) {
                    return Err(self.expected(&["','", "'='"]));
                }
                self.bump();
            }
            Some(Tok::AttrName(_) | Tok::TypeName(_))
                if matches!(self.peek_at(1), Some(Tok::Equals)) =>
            {
                let span = self.span();
                return Err(self.error_at(
                    ParseError::Unsupported {
                        what: "alias definitions".to_string(),
                    },
                    span,
                ));
            }
            _ => {}
        }
        match self.peek() {
            Some(Tok::Str(name)) => {
                self.ctx = Some((first, crate::front::lexer::unescape(name)));
                self.generic_op(region, &groups, first)?;
            }
            Some(Tok::BareId("module" | "builtin.module")) => {
                let span = self.span();
                let what = if kind == RegionKind::Module && !self.explicit_module {
                    "modules beside other top-level items"
                } else {
                    "nested modules"
                };
                let f = self.error_at(
                    ParseError::Unsupported {
                        what: what.to_string(),
                    },
                    span,
                );
                self.skip_to_block_end();
                return Err(f);
            }
            Some(Tok::BareId("func.func")) => {
                if kind != RegionKind::Module || !groups.is_empty() {
                    let span = self.span();
                    let f = self.error_at(
                        ParseError::Unsupported {
                            what: "nested functions".to_string(),
                        },
                        span,
                    );
                    self.skip_to_block_end();
                    return Err(f);
                }
                self.ctx = Some((first, "func.func".to_string()));
                self.func_op(region)?;
            }
            Some(Tok::BareId(name)) => {
                self.custom_op(name, region, kind, &groups, first)?;
            }
            _ => {
                return Err(if groups.is_empty() {
                    self.expected(&["operation"])
                } else {
                    self.expected(&["operation name"])
                })
            }
        }
        self.trailing_loc()
    }

    /// Skips to the end of the next `{...}` block of the current statement (nested modules
    /// and functions are rejected whole, so their bodies cause no further errors).
    fn skip_to_block_end(&mut self) {
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

    /// D-3: `loc(...)` after an op is parsed and dropped.
    fn trailing_loc(&mut self) -> PResult<()> {
        if self.at_kw("loc") && matches!(self.peek_at(1), Some(Tok::LParen)) {
            self.pos += 2;
            self.skip_balanced(Tok::RParen)?;
        }
        Ok(())
    }

    /// `result-group { , result-group }`.
    fn result_defs(&mut self) -> PResult<Vec<GroupDef<'s>>> {
        let mut out = Vec::with_capacity(1);
        loop {
            let Some(Tok::ValueId(name)) = self.peek() else {
                return Err(self.expected(&["value"]));
            };
            let span = self.bump();
            self.check_spaced_result_number(name, span);
            let name = match name.split_once('#') {
                Some((base, _)) => {
                    self.error_at(ParseError::ResultNumberInDefinition, span);
                    base
                }
                None => name,
            };
            let mut count = 1;
            let mut explicit = false;
            if self.at(Tok::Colon) && matches!(self.peek_at(1), Some(Tok::Int(_))) {
                self.bump();
                let (n, nspan) = self.int_value()?;
                if n < 1 || n > i64::from(u16::MAX) {
                    return Err(self.error_at(
                        ParseError::TypeDomain {
                            message: format!("result count must be positive, found {n}"),
                        },
                        nspan,
                    ));
                }
                count = n as u32;
                explicit = true;
            }
            out.push(GroupDef {
                name,
                count,
                explicit,
                span: if explicit {
                    span.join(self.prev_span())
                } else {
                    span
                },
            });
            if !self.eat(Tok::Comma) {
                return Ok(out);
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
            if let Some(val) = self.m.values.get_mut(v.0 as usize) {
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
        parts.spans.result_types = result_spans;
        let regions = parts.regions.clone();
        let data = OpData {
            kind: parts.kind,
            operands: parts.operands,
            operand_types: parts.operand_types,
            results: Vec::new(),
            result_groups: groups
                .iter()
                .map(|g| ResultGroup {
                    name: g.name.to_string(),
                    count: g.count,
                    explicit_count: g.explicit,
                })
                .collect(),
            regions: Vec::new(),
            attrs: parts.attrs,
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

    fn kind_name(&self, kind: &OpKind) -> String {
        // Reuse the module's naming by a throwaway lookup table.
        let mut tmp = crate::ir::Module::new();
        tmp.ops.push(OpData {
            kind: kind.clone(),
            operands: Vec::new(),
            operand_types: Vec::new(),
            results: Vec::new(),
            result_groups: Vec::new(),
            regions: Vec::new(),
            attrs: crate::ir::AttrDict::new(),
            parent: RegionId(0),
        });
        tmp.op_name(OpId(0)).to_string()
    }

    /// `func.func [vis] @sym (args) [-> results] [attributes {...}] [{ body }]`.
    fn func_op(&mut self, region: RegionId) -> PResult<()> {
        let name_span = self.bump();
        let first = name_span;
        let mut visibility = None;
        if let Some(Tok::BareId(v @ ("private" | "public" | "nested"))) = self.peek() {
            self.bump();
            visibility = Some(v.to_string());
        }
        let sym = match self.peek() {
            Some(Tok::Symbol(s)) => {
                self.bump();
                symbol_name(s)
            }
            _ => return Err(self.expected(&["symbol"])),
        };
        self.expect(Tok::LParen)?;
        // Function scope: names restart; the module-level map is restored afterwards.
        let saved = std::mem::take(&mut self.names);
        let r = self.func_rest(region, first, name_span, sym, visibility);
        self.names = saved;
        r
    }

    /// After a failed function header: skip the rest of the header and its body, so the body's
    /// statements cause no further errors. Stops before the next `func.func`/`module` line.
    fn skip_func_rest(&mut self) {
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

    fn func_rest(
        &mut self,
        region: RegionId,
        first: Span,
        name_span: Span,
        sym: String,
        visibility: Option<String>,
    ) -> PResult<()> {
        let errors_before = self.errors;
        let header = self.func_header();
        let header = match header {
            Ok(h) => h,
            Err(f) => {
                if self.errors > errors_before || self.stopped() || !self.lex_errs.is_empty() {
                    self.skip_func_rest();
                }
                return Err(f);
            }
        };
        self.func_body(region, first, name_span, sym, visibility, header)
    }

    fn func_header(&mut self) -> PResult<FuncHeader<'s>> {
        let mut named: Vec<(&'s str, Span, TypeId)> = Vec::new();
        let mut decl_types = Vec::new();
        let mut arg_attrs = Vec::new();
        if !self.eat(Tok::RParen) {
            loop {
                if let Some(Tok::ValueId(n)) = self.peek() {
                    let s = self.bump();
                    if !decl_types.is_empty() {
                        return Err(self.error_at(ParseError::MixedArgs, s));
                    }
                    self.expect(Tok::Colon)?;
                    let (t, _) = self.parse_type()?;
                    named.push((n, s, t));
                } else {
                    let (t, s) = self.parse_type()?;
                    if !named.is_empty() {
                        return Err(self.error_at(ParseError::MixedArgs, s));
                    }
                    decl_types.push(t);
                }
                let mut sp = IndexMap::new();
                arg_attrs.push(self.opt_attr_dict()?.map(|(d, _)| to_dict(d, &mut sp)));
                if self.eat(Tok::Comma) {
                    continue;
                }
                if self.eat(Tok::RParen) {
                    break;
                }
                return Err(self.expected(&["','", "')'"]));
            }
        }
        let mut result_types = Vec::new();
        let mut result_spans = Vec::new();
        if self.eat(Tok::Arrow) {
            if self.eat(Tok::LParen) {
                let (t, s) = self.type_list_until_rparen()?;
                result_types = t;
                result_spans = s;
            } else {
                let (t, s) = self.parse_type()?;
                result_types.push(t);
                result_spans.push(s);
            }
        }
        let mut attrs = crate::ir::AttrDict::new();
        let mut attr_spans = IndexMap::new();
        if self.eat_kw("attributes") {
            let entries = self.attr_dict()?;
            attrs = to_dict(entries, &mut attr_spans);
        }
        Ok(FuncHeader {
            named,
            decl_types,
            arg_attrs,
            result_types,
            result_spans,
            attrs,
            attr_spans,
        })
    }

    fn func_body(
        &mut self,
        region: RegionId,
        first: Span,
        name_span: Span,
        sym: String,
        visibility: Option<String>,
        header: FuncHeader<'s>,
    ) -> PResult<()> {
        let FuncHeader {
            named,
            decl_types,
            arg_attrs,
            result_types,
            result_spans,
            attrs,
            attr_spans,
        } = header;
        let body = self.m.add_region(None, Span::default());
        let has_body = self.at(Tok::LBrace);
        if has_body {
            let open = self.bump();
            for (n, s, t) in &named {
                let v = self.m.add_region_arg(body, *n, *t, *s);
                self.define_arg(n, v);
            }
            let errors_before = self.errors;
            self.statements(body, RegionKind::Func);
            let close = self.close_region(body, open)?;
            // A failed statement may have been the `return`: no second error then.
            let clean = self.errors == errors_before;
            self.check_func_body(body, close, clean);
        } else if let Some((_, s, _)) = named.first() {
            let s = *s;
            self.error_at(ParseError::NamedArgsNeedBody, s);
        }
        let mut parts = OpParts::new(
            OpKind::Func(FuncOp {
                sym,
                visibility,
                result_types,
                arg_attrs,
                decl_arg_types: if has_body { Vec::new() } else { decl_types },
                has_body,
            }),
            name_span,
        );
        parts.attrs = attrs;
        parts.spans.attrs = attr_spans;
        if has_body {
            parts.regions.push(body);
        }
        self.finish_op(parts, &[], region, first, result_spans)?;
        Ok(())
    }

    /// `return` must be the last op of a function body, and the body must end with one.
    fn check_func_body(&mut self, body: RegionId, close: Span, clean: bool) {
        let ops = self.m.regions[body.0 as usize].ops.clone();
        for (i, op) in ops.iter().enumerate() {
            if matches!(self.m.ops[op.0 as usize].kind, OpKind::Return) && i + 1 != ops.len() {
                let span = self.m.spans.ops[op.0 as usize].op;
                self.error_at(ParseError::ReturnNotLast, span);
            }
        }
        let ends = ops
            .last()
            .is_some_and(|op| matches!(self.m.ops[op.0 as usize].kind, OpKind::Return));
        if !ends && clean {
            self.error_at(ParseError::MissingReturn, close);
        }
    }

    /// The body of `pto.vecscope { ... }` (no label, no terminator).
    pub(crate) fn vecscope_region(&mut self) -> PResult<RegionId> {
        if self.depth > MAX_DEPTH {
            return Err(self.expected(&["shallower nesting"]));
        }
        let open = self.expect(Tok::LBrace)?;
        let r = self.m.add_region(None, Span::default());
        self.depth += 1;
        let saved_ctx = self.ctx.take();
        let saved = (self.stmt_start, self.stmt_byte);
        self.statements(r, RegionKind::VecScope);
        (self.stmt_start, self.stmt_byte) = saved;
        self.ctx = saved_ctx;
        self.depth -= 1;
        self.close_region(r, open)?;
        Ok(r)
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
