//! Parser and IR builder for `.pto` and `.ptoasm` text (syntax.md §2-§6.2, §8), on chumsky
//! 1.0.0-alpha.8.
//!
//! Layers: `tokens` (the streaming token window and the chumsky `Input` over it), `stmt_prim`
//! (token-level primitives of the statement grammar), `stmt_grammar` (file, op
//! statements, §8.2 recovery with `recover_with`), `region_grammar` (regions and their
//! blocks), `func_grammar` (`func.func`, `module`),
//! `op_grammar` (hand-written custom op forms), `catalog_form` (every op of the op catalog,
//! `front::catalog`, read by its row through the format interpreter), `opaque` (custom forms of unknown ops kept as opaque
//! statements), `type_grammar`/`tile_buf_grammar`/`attr_grammar` (§3-§4,
//! run on one construct's tokens by `types::run_grammar`). The [`Parser`] is the grammar's
//! state: it builds the IR (`module`: op assembly and name binding, `ops`/`generic`: op-kind
//! rules, `attrs`: per-op key checks) and owns the diagnostics (`expected <set>, found <token>`
//! with the context label, lexical error suppression, the 50-error stop). `fn_type_grammar`
//! reads types in operand position (function types recursively); `asm` is the `.ptoasm` line
//! grammar and its register-to-SSA builder; `alias` reads alias definitions and locations and
//! resolves alias uses. Every construct is parsed by a chumsky grammar; the
//! builder-side helpers the grammars call (`stmt_prim::via`) are single-token reads, balanced
//! bracket skips, cache lookups and runs of the type/attribute grammars.
//!
//! Invariants:
//! - parsing walks the lexer's tokens minus error tokens (those are reported by the lexer; a
//!   statement containing one reports no further syntax error);
//! - a use binds the latest textual definition of its name in the current function (no scoping
//!   judgement); unknown names become `ValueDef::Unresolved` values;
//! - nothing here panics on any input: token access is bounds-checked, and recursion on nested
//!   brackets and regions is bounded by `MAX_DEPTH`.

mod alias;
mod asm;
mod attr_grammar;
mod attrs;
mod catalog_form;
mod fn_type_grammar;
mod func_grammar;
mod generic;
mod grammar;
mod module;
mod op_grammar;
mod opaque;
mod ops;
mod region_grammar;
pub(crate) mod split;
mod stmt_grammar;
mod stmt_prim;
mod tile_buf_grammar;
mod tokens;
mod type_grammar;
mod types;

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{Tok, Token, TokenStream};
use crate::ir::splice::Resolution;
use crate::ir::{Module, OpId, Type, TypeId, ValueDef, ValueId};

/// Errors after which a chunk stops parsing (syntax.md §8.2).
const MAX_ERRORS: usize = 50;
/// Bracket nesting beyond this is reported instead of recursing further.
const MAX_DEPTH: usize = 200;

/// A failed parse step; its diagnostic has already been recorded.
#[derive(Debug)]
pub(crate) struct Fail;
pub(crate) type PResult<T> = Result<T, Fail>;

/// What a name currently denotes in the function.
#[derive(Debug, Clone, Copy)]
enum Binding {
    Arg(ValueId),
    Group {
        first: ValueId,
        count: u32,
        op: OpId,
    },
}

pub(crate) struct Parser<'s> {
    /// The token window, shared with the chumsky input of the statement grammar.
    buf: tokens::Shared<'s>,
    /// Absolute index of the current token.
    pos: usize,
    src: &'s str,
    base: usize,
    pub(crate) m: Module,
    diags: Vec<Diagnostic>,
    /// Start offsets of lexical error tokens, sorted.
    lex_errs: Vec<usize>,
    errors: usize,
    stopped: bool,
    /// Context label of the op being parsed: span of its first token and its name.
    ctx: Option<(Span, String)>,
    /// Token index where the current statement started, and its byte offset.
    stmt_start: usize,
    stmt_byte: usize,
    /// The chunk is one explicit `module` (its first statement, until something follows it).
    explicit_module: bool,
    /// Span of the `module` keyword of that first module.
    top_module_name: Span,
    /// Modules being parsed inside the chunk's module body (bounded by `MAX_DEPTH`).
    module_depth: usize,
    names: HashMap<&'s str, Binding, FxBuildHasher>,
    /// Types already built from the same source text (no diagnostics when first built).
    type_cache: HashMap<&'s str, TypeId, FxBuildHasher>,
    /// The parameterised spellings in `type_cache`, by the text of their type name (a few per
    /// name): a hit is a prefix compare, with no bracket scan or hash of the whole spelling.
    type_spellings: HashMap<&'s str, Vec<(&'s str, TypeId)>, FxBuildHasher>,
    /// Dictionaries already read from the same one-line source text (no diagnostics when first
    /// read), with spans relative to their `{`.
    dict_cache: HashMap<&'s str, Vec<attrs::Entry>, FxBuildHasher>,
    /// Attribute values (`arith.constant` literals) already read from the same token text.
    value_cache: HashMap<&'s str, crate::ir::Attr, FxBuildHasher>,
    any_ty: Option<TypeId>,
    depth: usize,
    /// Holds the token slice of every construct a chumsky grammar reads, for the whole parse,
    /// so that the grammars can be built once (their input type names this lifetime).
    arena: &'s bumpalo::Bump,
    /// Built on first use: tiny inputs without types or attributes never pay for them.
    grammars: Option<types::Grammars<'s>>,
    /// The statement being parsed failed with an already reported error, at token `fail_pos`:
    /// every later primitive of the statement fails quietly (syntax.md §8.2 recovers from there).
    stmt_reported: bool,
    fail_pos: usize,
    /// The statement being parsed: its result groups and the span of its first token.
    cur_groups: Vec<module::GroupDef<'s>>,
    cur_first: Span,
    /// Span of the op name of the statement being parsed.
    cur_name: Span,
    /// Regions being filled, innermost last.
    regions: Vec<(crate::ir::RegionId, module::RegionKind)>,
    /// Function header being parsed: whether its arguments are named (`None` before the first).
    hdr_named: Option<bool>,
    /// The assembly chunk being read (`.ptoasm` only).
    asm: Box<asm::AsmState<'s>>,
    /// `--strict-ops`: a custom form of an unknown op is an error (E0008) instead of an opaque
    /// statement.
    pub(crate) strict_ops: bool,
    /// Header definitions of an opaque op (`scf.for %i = ...`), to become the leading
    /// arguments of the region parsed next.
    pending_args: Vec<(&'s str, Span)>,
    /// The chunk's alias definitions (`alias`).
    aliases: alias::Aliases,
    /// Told the byte offset of each top-level statement start (`front::parse_module_consumed`).
    pub(crate) consumed: Option<&'s dyn Fn(usize)>,
    /// The first half of a two-thread parse: its link to the helper (`split`).
    pub(crate) split: Option<split::Link>,
    /// The second half of a two-thread parse: what the join needs to know (`split`).
    fragment: Option<split::FragmentLog>,
}

impl<'s> Parser<'s> {
    pub(crate) fn new(
        stream: TokenStream<'s>,
        src: &'s str,
        base: usize,
        arena: &'s bumpalo::Bump,
    ) -> Self {
        Self::with_size_hint(stream, src, base, arena, src.len())
    }

    /// [`Parser::new`] for a stream that reads only `size` bytes of `src` (the IR tables are
    /// reserved from it).
    pub(crate) fn with_size_hint(
        stream: TokenStream<'s>,
        src: &'s str,
        base: usize,
        arena: &'s bumpalo::Bump,
        size: usize,
    ) -> Self {
        let values = size / 64;
        let mut m = Module::new();
        m.values.reserve(values);
        m.spans.values.reserve(values);
        m.ops.reserve(size / 256);
        m.spans.ops.reserve(size / 256);
        crate::ir::huge::advise_vec(&m.values);
        crate::ir::huge::advise_vec(&m.spans.values);
        crate::ir::huge::advise_vec(&m.ops);
        crate::ir::huge::advise_vec(&m.spans.ops);
        // The placeholder type of unbound uses is interned first, whatever the input: the id of
        // every later type then does not depend on whether some use was bound, which the
        // two-thread parse needs (`split`: its second half cannot know).
        let any = m
            .types
            .intern(Type::Opaque(crate::ir::UNKNOWN_TYPE.to_string()));
        let eof = Span::point(base + src.len());
        Parser {
            buf: std::rc::Rc::new(std::cell::RefCell::new(tokens::TokBuf::new(stream, eof))),
            pos: 0,
            src,
            base,
            m,
            diags: Vec::new(),
            lex_errs: Vec::new(),
            errors: 0,
            stopped: false,
            ctx: None,
            stmt_start: 0,
            stmt_byte: base,
            explicit_module: false,
            top_module_name: Span::point(base),
            module_depth: 0,
            names: HashMap::with_capacity_and_hasher(values, FxBuildHasher),
            type_cache: HashMap::with_capacity_and_hasher(64, FxBuildHasher),
            type_spellings: HashMap::with_capacity_and_hasher(16, FxBuildHasher),
            dict_cache: HashMap::with_capacity_and_hasher(16, FxBuildHasher),
            value_cache: HashMap::with_capacity_and_hasher(16, FxBuildHasher),
            any_ty: Some(any),
            depth: 0,
            arena,
            grammars: None,
            stmt_reported: false,
            fail_pos: 0,
            cur_groups: Vec::new(),
            cur_first: Span::point(base),
            cur_name: Span::point(base),
            regions: Vec::new(),
            hdr_named: None,
            asm: Box::default(),
            strict_ops: false,
            pending_args: Vec::new(),
            aliases: alias::Aliases::default(),
            consumed: None,
            split: None,
            fragment: None,
        }
    }

    pub(crate) fn finish(self) -> (Module, Vec<Diagnostic>) {
        (self.m, self.diags)
    }

    // ---- cursor ----

    /// Turns queued lexical errors into diagnostics (the window queues them as it lexes).
    pub(crate) fn sync_lex(&mut self) {
        let queued = std::mem::take(&mut self.buf.borrow_mut().lex_queue);
        for (err, span) in queued {
            self.lex_errs.push(span.start);
            let code = crate::front::lex_code(&err);
            self.report_raw(Diagnostic::new(code, err, span));
        }
    }

    /// The token at absolute index `i` (`None` past the end).
    #[inline]
    pub(crate) fn tok(&mut self, i: usize) -> Option<Token<'s>> {
        let (t, lexed) = {
            let mut b = self.buf.borrow_mut();
            (b.tok(i), !b.lex_queue.is_empty())
        };
        if lexed {
            self.sync_lex();
        }
        t
    }

    /// Drops buffered tokens before the statement starting at `start` (keeping one for
    /// `prev_span`), so memory stays bounded by one statement.
    fn drop_before(&mut self, start: usize) {
        self.buf.borrow_mut().drop_before(start);
        if let Some(consumed) = self.consumed {
            let at = self.span_at(start).start;
            consumed(at);
        }
    }

    fn set_stmt(&mut self, start: usize) {
        self.stmt_start = start;
        self.stmt_byte = self
            .tok(start)
            .map_or(self.base + self.src.len(), |t| t.span.start);
    }

    fn peek(&mut self) -> Option<Tok<'s>> {
        self.tok(self.pos).map(|t| t.tok)
    }
    fn peek_at(&mut self, k: usize) -> Option<Tok<'s>> {
        self.tok(self.pos + k).map(|t| t.tok)
    }
    fn at(&mut self, tok: Tok<'_>) -> bool {
        self.peek().is_some_and(|t| same_kind(t, tok))
    }
    fn eof_span(&self) -> Span {
        Span::point(self.base + self.src.len())
    }
    /// Span of the current token (empty at end of input).
    fn span(&mut self) -> Span {
        match self.tok(self.pos) {
            Some(t) => t.span,
            None => self.eof_span(),
        }
    }
    /// Span of the token at absolute index `i` (empty at end of input).
    pub(crate) fn span_at(&mut self, i: usize) -> Span {
        match self.tok(i) {
            Some(t) => t.span,
            None => self.eof_span(),
        }
    }

    /// A failure already reported at token `at`: poisons the statement (see `stmt_prim`).
    pub(crate) fn reported_at(&mut self, at: usize) -> grammar::TyErr<'s> {
        if !self.stmt_reported {
            self.stmt_reported = true;
            self.fail_pos = at;
        }
        grammar::TyErr::Reported
    }

    /// [`Self::reported_at`] the current position.
    pub(crate) fn reported(&mut self) -> grammar::TyErr<'s> {
        self.reported_at(self.pos)
    }

    /// Span of the previous token.
    pub(crate) fn prev_span(&self) -> Span {
        let b = self.buf.borrow();
        self.pos
            .checked_sub(1)
            .and_then(|i| i.checked_sub(b.base_idx))
            .and_then(|i| b.toks.get(i))
            .map_or_else(|| Span::point(self.base), |t| t.span)
    }
    fn bump(&mut self) -> Span {
        match self.tok(self.pos) {
            Some(t) => {
                self.pos += 1;
                t.span
            }
            None => self.eof_span(),
        }
    }
    fn text(&self, span: Span) -> &'s str {
        let src: &'s str = self.src;
        src.get(span.start.saturating_sub(self.base)..span.end.saturating_sub(self.base))
            .unwrap_or("")
    }
    /// `found` text of the current token (syntax.md §8.1).
    fn found(&mut self) -> String {
        self.peek()
            .map_or_else(|| "end of input".to_string(), |t| t.describe())
    }
    // ---- diagnostics ----

    /// Records `diag`, counting errors; returns `Fail` for `?` chaining.
    fn report(&mut self, diag: Diagnostic) -> Fail {
        self.sync_lex();
        self.report_raw(diag)
    }

    fn report_raw(&mut self, diag: Diagnostic) -> Fail {
        if self.stopped {
            return Fail;
        }
        if diag.is_error() {
            self.errors += 1;
        }
        self.diags.push(diag);
        if self.errors >= MAX_ERRORS {
            self.stopped = true;
            let at = self.span();
            self.diags.push(Diagnostic::new(
                ParseError::TooManyErrors.code(),
                ParseError::TooManyErrors,
                at,
            ));
        }
        Fail
    }

    pub(crate) fn error_at(&mut self, err: ParseError, span: Span) -> Fail {
        if self.lex_error_before(span.start.max(self.prev_span().end)) {
            return Fail;
        }
        let d = Diagnostic::new(err.code(), err, span);
        self.report(d)
    }

    /// Whether a lexical error sits on the current statement's first line or later, before `at`:
    /// such a statement reports no further syntax error (the lexer already did).
    fn lex_error_before(&mut self, at: usize) -> bool {
        self.sync_lex();
        if self.lex_errs.is_empty() {
            return false;
        }
        let first = self.stmt_byte.min(at);
        let rel = first.saturating_sub(self.base).min(self.src.len());
        let line_start = self.src.as_bytes()[..rel]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(self.base, |i| self.base + i + 1);
        let i = self.lex_errs.partition_point(|&s| s < line_start);
        self.lex_errs.get(i).is_some_and(|&s| s <= at)
    }

    /// A syntax error at the current token, with the context label of the current op.
    fn syntax(&mut self, err: ParseError) -> Fail {
        let span = self.span();
        if self.lex_error_before(span.start) {
            return Fail;
        }
        let mut d = Diagnostic::new(err.code(), err, span);
        if let Some((cspan, name)) = &self.ctx {
            d = d.with_label(*cspan, format!("while parsing this {name}"));
        }
        self.report(d)
    }

    /// `expected <set>, found <current token>`; `set` is sorted and de-duplicated here.
    fn expected(&mut self, set: &[&str]) -> Fail {
        let v = sort_expected(set.iter().map(|s| s.to_string()).collect());
        let found = self.found();
        self.syntax(ParseError::Expected { expected: v, found })
    }

    /// Reports a syntax-style diagnostic built elsewhere (the type grammar): silenced by a
    /// lexical error before `at`, and given the context label of the current op when `ctx`.
    fn report_syntax(&mut self, mut d: Diagnostic, at: usize, ctx: bool) -> Fail {
        let at = if ctx {
            at
        } else {
            at.max(self.prev_span().end)
        };
        if self.lex_error_before(at) {
            return Fail;
        }
        if ctx {
            if let Some((cspan, name)) = &self.ctx {
                d = d.with_label(*cspan, format!("while parsing this {name}"));
            }
        }
        self.report(d)
    }

    /// [`Self::error_at`] for an error found up to byte `at` (the type grammar's pending
    /// diagnostics, reported after the cursor moved on).
    pub(crate) fn error_at_pos(&mut self, err: ParseError, span: Span, at: usize) -> Fail {
        if self.lex_error_before(span.start.max(at)) {
            return Fail;
        }
        let d = Diagnostic::new(err.code(), err, span);
        self.report(d)
    }

    /// An integer literal token as i64.
    pub(crate) fn int_value(&mut self) -> PResult<(i64, Span)> {
        match self.peek() {
            Some(Tok::Int(s)) => {
                let span = self.bump();
                match s.parse::<i64>() {
                    Ok(v) => Ok((v, span)),
                    Err(_) => Err(self.error_at(ParseError::IntegerOutOfRange, span)),
                }
            }
            _ => Err(self.expected(&["integer"])),
        }
    }

    fn expect(&mut self, tok: Tok<'_>) -> PResult<Span> {
        if self.at(tok) {
            Ok(self.bump())
        } else {
            let name = format!("'{}'", tok.punct_text());
            Err(self.expected(&[&name]))
        }
    }

    /// `%pair #1`: the lexer dropped `#` as an error token; report the D-1 message instead.
    pub(crate) fn check_spaced_result_number(&mut self, name: &str, span: Span) {
        let next = self.peek();
        self.sync_lex();
        if self.lex_errs.is_empty() {
            return;
        }
        if let Some(Tok::Int(n)) = next {
            let cur = self.span();
            let between = self.text(Span::new(span.end, cur.start));
            if between.trim() == "#" && !name.contains('#') {
                let hash = span.end + between.find('#').unwrap_or(0);
                // Replace the lexer's "unexpected character '#'" by the precise message.
                self.suppress_lex_error(hash);
                let err = ParseError::ResultNumberSpacing {
                    name: name.to_string(),
                    number: n.to_string(),
                };
                let at = Span::new(span.start, self.span().end);
                self.error_at(err, at);
                // Read on as if `#N` had been attached.
                self.bump();
            }
        }
    }

    fn suppress_lex_error(&mut self, at: usize) {
        self.sync_lex();
        self.lex_errs.retain(|&s| s != at);
        self.diags.retain(|d| {
            !(d.kind
                .downcast_ref::<crate::front::lexer::LexError>()
                .is_some()
                && d.span.start == at)
        });
    }

    pub(crate) fn push_diag(&mut self, d: Diagnostic) {
        self.report(d);
    }

    pub(crate) fn stopped(&self) -> bool {
        self.stopped
    }

    // ---- recovery (syntax.md §8.2) ----

    /// Skips from a failed statement that started at token `start` to the next statement start.
    fn recover(&mut self, start: usize) {
        let err_pos = self.pos.max(start + 1);
        let mut depth = 0i64;
        let mut i = start.max(self.buf.borrow().base_idx);
        while let Some(t) = self.tok(i) {
            if i >= err_pos {
                // `outs(` continuing a multi-line DPS op cannot start a statement.
                let starts_stmt = t.line_start && self.starts_statement(i);
                if starts_stmt || (matches!(t.tok, Tok::RBrace) && depth <= 0) {
                    break;
                }
            }
            match t.tok {
                Tok::LBrace => depth += 1,
                Tok::RBrace => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        self.pos = i;
    }

    // ---- names ----

    fn any_type(&mut self) -> TypeId {
        if let Some(t) = self.any_ty {
            return t;
        }
        let t = self
            .m
            .types
            .intern(Type::Opaque(crate::ir::UNKNOWN_TYPE.to_string()));
        self.any_ty = Some(t);
        t
    }

    /// Binds a use of `name` (possibly `%r#N`) to the latest definition in the function.
    fn bind_use(&mut self, name: &'s str, span: Span, ty: Option<TypeId>) -> ValueId {
        let def = match resolve_name(&self.names, name) {
            Resolution::Value(v) => return v,
            Resolution::BadResultNumber { op, index, count } => {
                ValueDef::BadResultNumber { op, index, count }
            }
            Resolution::Unresolved => ValueDef::Unresolved,
        };
        let ty = match ty {
            Some(t) => t,
            None => self.any_type(),
        };
        // A fragment's unbound use is usually bound at the join (`split`): no value yet.
        if def == ValueDef::Unresolved {
            if let Some(v) = self.placeholder(name, span, ty) {
                return v;
            }
        }
        self.m.add_value(name, ty, def, span)
    }

    /// The name of value `v` as written.
    fn value_name(&self, v: ValueId) -> &str {
        if let Some(p) = self.placeholder_ref(v) {
            return self.placeholder_name(p);
        }
        self.m.values.get(v.0 as usize).map_or("", |d| &d.name)
    }

    /// Whether `v` is a use no definition was bound to.
    fn is_unbound(&self, v: ValueId) -> bool {
        self.placeholder_ref(v).is_some()
            || self
                .m
                .values
                .get(v.0 as usize)
                .is_some_and(|d| d.def == ValueDef::Unresolved)
    }

    /// Byte offset just past the `close` matching the `open` at `from`, when the bracketed text
    /// sits on one line with no strings or comments (`->` never closes an angle bracket). Used
    /// to key the type and dictionary caches by source text; `None` means "do not cache".
    pub(crate) fn bracket_end(&self, from: usize, open: u8, close: u8) -> Option<usize> {
        let rel = from.checked_sub(self.base)?;
        let bytes = self.src.as_bytes().get(rel..)?;
        let mut depth = 0u32;
        let mut i = 0;
        loop {
            // Only five byte values matter; the rest is skipped in a tight loop.
            i += bytes
                .get(i..)?
                .iter()
                .position(|&b| b == open || b == close || b == b'\n' || b == b'"' || b == b'/')?;
            let b = bytes[i];
            if b == open {
                depth += 1;
            } else if b == close {
                if !(close == b'>' && i > 0 && bytes[i - 1] == b'-') {
                    depth = depth.checked_sub(1)?;
                    if depth == 0 {
                        return Some(from + i + 1);
                    }
                }
            } else {
                return None;
            }
            i += 1;
        }
    }

    fn define_arg(&mut self, name: &'s str, v: ValueId) {
        self.names.insert(name, Binding::Arg(v));
    }
}

/// What a use of `name` (possibly `%r#N`) denotes under the bindings `names`: the latest
/// definition of its base name, a result number past that group's end, or nothing. The one
/// binding rule of `bind_use` and of the two-thread parse's join (`split`).
fn resolve_name<S: std::hash::BuildHasher>(
    names: &HashMap<&str, Binding, S>,
    name: &str,
) -> Resolution {
    let (base, num) = match name.split_once('#') {
        Some((b, n)) => (b, Some(n.parse::<u32>().unwrap_or(u32::MAX))),
        None => (name, None),
    };
    let idx = num.unwrap_or(0);
    match names.get(base).copied() {
        Some(Binding::Arg(v)) if idx == 0 => Resolution::Value(v),
        Some(Binding::Group { first, count, .. }) if idx < count => {
            Resolution::Value(ValueId(first.0 + idx))
        }
        Some(Binding::Group { count, op, .. }) => Resolution::BadResultNumber {
            op,
            index: idx,
            count,
        },
        _ => Resolution::Unresolved,
    }
}

/// Sorts an `expected` set as syntax.md §8.1 wants it: separators first, then closers, then
/// everything else alphabetically (`expected ',' or ')'`), without duplicates.
pub(crate) fn sort_expected(mut v: Vec<String>) -> Vec<String> {
    let rank = |s: &str| match s {
        "','" => 0,
        "')'" | "']'" | "'}'" | "'>'" => 1,
        _ => 2,
    };
    v.sort_by(|a, b| rank(a).cmp(&rank(b)).then_with(|| a.cmp(b)));
    v.dedup();
    v
}

/// Token kinds compare equal ignoring their payload.
pub(crate) fn same_kind(a: Tok<'_>, b: Tok<'_>) -> bool {
    std::mem::discriminant(&a) == std::mem::discriminant(&b)
}

/// Levenshtein distance, for did-you-mean hints.
pub(crate) fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = Vec::with_capacity(b.len() + 1);
        cur.push(i + 1);
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != *cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev.last().copied().unwrap_or(0)
}
