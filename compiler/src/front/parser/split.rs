//! The two-thread parse of a large chunk: the second half of a function body is parsed on a
//! helper thread while the first half is parsed here, and the halves are joined where the
//! first half's parse reaches the second half's first statement. The result — IR, diagnostics,
//! their order — is the one a single parse gives; where that cannot be guaranteed, the helper's
//! work is dropped and the parse simply goes on over the second half.
//!
//! How it goes:
//! 1. On entering a function body with at least [`SPLIT_MIN_BYTES`] of the chunk left, the
//!    parser picks a **split point**: the first line after the middle of what is left that
//!    starts like a statement (`%` or a letter after blanks) — [`split_point`]. It hands the
//!    helper a [`Job`]: that byte, a copy of its type table and aliases, and its nesting.
//! 2. The helper ([`parse_fragment`]) parses statements from there as the body of a function,
//!    into a fresh module whose region 1 stands in for the body, until the token that ends a
//!    function body's statements (`}`, a block label, end of input). Names start empty: a use
//!    of a name defined before the split point is an unresolved placeholder.
//! 3. When the first half's parse opens a statement exactly at the split point, in a function
//!    body at the same nesting, it takes the helper's [`Fragment`] and joins it
//!    ([`Parser::join_fragment`]) if all of these hold, else it drops it:
//!    - the first half reported no error, and nothing at or after the split point (so the
//!      50-error stop and every diagnostic come out as in one parse);
//!    - the helper did not stop (50 errors) and finished its statements;
//!    - no statement of the fragment was read differently because a name was unbound there
//!      (an opaque op's undefined parenthesised name becomes a region argument; the helper
//!      logs each such name, and none may be defined at the join point).
//!
//!    Joining renumbers the fragment's handles into the module (`ir::splice`), resolves its
//!    placeholders against the names in scope at the join point exactly as `bind_use` would
//!    have, takes over the fragment's name bindings, diagnostics, error count and deferred
//!    location-alias checks, and moves the token window to the fragment's end.
//!
//! Why the fragment is what one parse gives: a statement's parse depends on the text, the
//! region kind and nesting (checked equal), the aliases (copied; they are defined before use)
//! and the names in scope only through `bind_use` (replayed at the join) and the opaque-op
//! header rule (logged). Type and dictionary caches only save work. Types the fragment interns
//! are renumbered in its order. `compiler/tests/split_parse.rs` checks the claim on every lit
//! and example file at every line as split point, and on mutated inputs.

use std::ops::Range;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

use super::{alias::Aliases, Binding, Parser};
use crate::diag::{Diagnostic, Span};
use crate::front::lexer::{LexMode, TokenStream};
use crate::ir::splice::{Placeholder, Resolution, PLACEHOLDER};
use crate::ir::{Module, OpId, RegionId, TypeId, TypeTable, ValueId};

/// Chunks smaller than this are parsed on one thread: the two-thread parse was measured only on
/// the 16 and 32 MB benchmark files (docs/performance.md); below a few MiB a thread, a copied
/// type table and a join are a larger share of the work for a gain of a few milliseconds.
pub(crate) const SPLIT_MIN_BYTES: usize = 4 << 20;

/// The fragment releases the input behind it in steps of this many bytes.
const RELEASE_STEP: usize = 2 << 20;

/// The fragment's stand-in for the function body (region 0 is its module body).
const STAND_IN: RegionId = RegionId(1);

/// What the helper needs to parse the second half.
pub(crate) struct Job {
    /// Absolute byte offset of the fragment's first statement.
    start: usize,
    types: TypeTable,
    aliases: Aliases,
    depth: usize,
    module_depth: usize,
    strict_ops: bool,
}

/// A name as a byte range of the chunk (the helper's borrows end with its parser).
type NameAt = Range<usize>;

/// The helper's result.
pub(crate) struct Fragment {
    module: Module,
    types_before: u32,
    diags: Vec<Diagnostic>,
    errors: usize,
    /// The helper stopped (50 errors, or told to) or its grammar failed: not joinable.
    incomplete: bool,
    lex_errs: Vec<usize>,
    /// The bindings at the fragment's end (distinct names, so their order does not matter).
    names: Vec<(NameAt, Binding)>,
    /// Names whose being unbound changed how a statement was read.
    assumed_unbound: Vec<String>,
    deferred_locs: Vec<(String, Span)>,
    /// Absolute byte offset of the token the fragment's statements stopped at.
    end: usize,
    /// The statement state one parse has there: the last statement's context label and start
    /// byte, the cursor relative to the end token, and the start of the token before it.
    ctx: Option<(Span, String)>,
    stmt_byte: usize,
    pos_offset: isize,
    last_tok: Option<usize>,
    placeholders: Vec<Placeholder>,
    unbound_names: Vec<String>,
}

/// Where the fragment will join, as the first half sees it.
struct Pending {
    start: usize,
    depth: usize,
    module_depth: usize,
}

/// The first half's link to the helper.
pub(crate) struct Link {
    jobs: Option<Sender<Job>>,
    results: Receiver<Fragment>,
    cancel: Arc<AtomicBool>,
    pending: Option<Pending>,
    /// A job was handed out (one per chunk).
    offered: bool,
    /// Tests: the split point to use instead of the middle.
    forced: Option<usize>,
    joined: bool,
}

impl Link {
    pub(crate) fn new(
        jobs: Sender<Job>,
        results: Receiver<Fragment>,
        cancel: Arc<AtomicBool>,
        forced: Option<usize>,
    ) -> Self {
        Link {
            jobs: Some(jobs),
            results,
            cancel,
            pending: None,
            offered: false,
            forced,
            joined: false,
        }
    }

    /// Whether the helper's fragment was joined.
    pub(crate) fn joined(&self) -> bool {
        self.joined
    }
}

impl Drop for Link {
    fn drop(&mut self) {
        // A helper still parsing a fragment nobody will join stops at its next statement.
        self.cancel.store(true, Ordering::Relaxed);
    }
}

/// The helper side's state inside its parser.
pub(crate) struct FragmentLog {
    cancel: Arc<AtomicBool>,
    pub(crate) assumed_unbound: Vec<String>,
    /// Set where the statements end (`note_fragment_end`).
    pos_offset: isize,
    last_tok: Option<usize>,
    /// The unbound uses (operands `PLACEHOLDER | k`, `ir::splice`) and their distinct names.
    placeholders: Vec<Placeholder>,
    unbound_names: Vec<String>,
    unbound_ids: rustc_hash::FxHashMap<String, u32>,
}

/// The first line start at or after `from` (absolute) whose first non-blank byte may start a
/// statement: `%` (results) or an ASCII letter (an op name). Comment lines, `}` and block
/// labels are passed over; the search gives up after 64 lines.
pub(crate) fn split_point(src: &str, base: usize, from: usize) -> Option<usize> {
    let bytes = src.as_bytes();
    let mut i = from.checked_sub(base)?;
    if i > 0 {
        i += bytes.get(i..)?.iter().position(|&b| b == b'\n')? + 1;
    }
    for _ in 0..64 {
        let line = bytes.get(i..)?;
        let blanks = line
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        match line.get(blanks) {
            Some(b'%') | Some(b'a'..=b'z') | Some(b'A'..=b'Z') => return Some(base + i + blanks),
            Some(_) => {}
            None => return None,
        }
        i += line.iter().position(|&b| b == b'\n')? + 1;
    }
    None
}

fn name_at(src: &str, base: usize, name: &str) -> Option<NameAt> {
    let off = (name.as_ptr() as usize).checked_sub(src.as_ptr() as usize)?;
    (off + name.len() <= src.len()).then(|| base + off..base + off + name.len())
}

/// Parses the fragment `job` describes (the helper thread's work).
pub(crate) fn parse_fragment(
    chunk: &str,
    base: usize,
    job: Job,
    cancel: Arc<AtomicBool>,
    release: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> Fragment {
    let rel = job.start.saturating_sub(base);
    let stream = TokenStream::starting_at(chunk, base, LexMode::Mlir, rel);
    let arena = bumpalo::Bump::new();
    let mut p = Parser::with_size_hint(stream, chunk, base, &arena, chunk.len() - rel);
    let types_before = job.types.len() as u32;
    p.m.types = job.types;
    p.aliases = job.aliases;
    p.depth = job.depth;
    p.module_depth = job.module_depth;
    p.strict_ops = job.strict_ops;
    p.stmt_byte = job.start;
    // The pages behind the fragment's statements go back as it reads on, in the steps the
    // first half uses (`driver::source`).
    let released = std::cell::Cell::new(job.start);
    if let Some(release) = release {
        release(job.start, job.start);
    }
    let consumed = |at: usize| {
        if let Some(release) = release {
            if at >= released.get() + RELEASE_STEP {
                release(released.get(), at);
                released.set(at);
            }
        }
    };
    p.consumed = Some(&consumed);
    let body = p.m.add_region(None, Span::default());
    debug_assert_eq!(body, STAND_IN);
    p.fragment = Some(FragmentLog {
        cancel,
        assumed_unbound: Vec::new(),
        pos_offset: 0,
        last_tok: None,
        placeholders: Vec::new(),
        unbound_names: Vec::new(),
        unbound_ids: Default::default(),
    });
    let end = p.parse_fragment_body(body);
    p.sync_lex();
    let incomplete = end.is_none() || p.stopped || p.fragment_cancelled();
    let log = p.fragment.take();
    let names = p
        .names
        .iter()
        .filter_map(|(n, b)| Some((name_at(chunk, base, n)?, *b)))
        .collect();
    let (assumed_unbound, pos_offset, last_tok, placeholders, unbound_names) = log
        .map(|l| {
            let FragmentLog {
                assumed_unbound,
                pos_offset,
                last_tok,
                placeholders,
                unbound_names,
                ..
            } = l;
            (
                assumed_unbound,
                pos_offset,
                last_tok,
                placeholders,
                unbound_names,
            )
        })
        .unwrap_or_default();
    let ctx = p.ctx.take();
    let stmt_byte = p.stmt_byte;
    let deferred_locs = std::mem::take(&mut p.aliases.deferred);
    let errors = p.errors;
    let lex_errs = std::mem::take(&mut p.lex_errs);
    let (module, diags) = p.finish();
    Fragment {
        module,
        types_before,
        diags,
        errors,
        incomplete,
        lex_errs,
        names,
        assumed_unbound,
        deferred_locs,
        end: end.unwrap_or(base + chunk.len()),
        ctx,
        stmt_byte,
        pos_offset,
        last_tok,
        placeholders,
        unbound_names,
    }
}

impl<'s> Parser<'s> {
    /// Whether the helper was told to stop (checked at each statement start of a fragment).
    pub(super) fn fragment_cancelled(&self) -> bool {
        self.fragment
            .as_ref()
            .is_some_and(|f| f.cancel.load(Ordering::Relaxed))
    }

    /// In a fragment, records an unbound use at `span` and returns its tagged operand id.
    pub(super) fn placeholder(&mut self, name: &str, span: Span, ty: TypeId) -> Option<ValueId> {
        let at = self.m.values.len() as u32;
        let f = self.fragment.as_mut()?;
        let k = u32::try_from(f.placeholders.len())
            .ok()
            .filter(|k| k & PLACEHOLDER == 0)?;
        let name = match f.unbound_ids.get(name) {
            Some(&id) => id,
            None => {
                let id = f.unbound_names.len() as u32;
                f.unbound_names.push(name.to_string());
                f.unbound_ids.insert(name.to_string(), id);
                id
            }
        };
        f.placeholders.push(Placeholder { at, span, ty, name });
        Some(ValueId(PLACEHOLDER | k))
    }

    /// The name of placeholder `p`.
    pub(super) fn placeholder_name(&self, p: &Placeholder) -> &str {
        self.fragment
            .as_ref()
            .and_then(|f| f.unbound_names.get(p.name as usize))
            .map_or("", String::as_str)
    }

    /// The placeholder `v` stands for, if it is one.
    pub(super) fn placeholder_ref(&self, v: ValueId) -> Option<&Placeholder> {
        if v.0 & PLACEHOLDER == 0 {
            return None;
        }
        let f = self.fragment.as_ref()?;
        f.placeholders.get((v.0 & !PLACEHOLDER) as usize)
    }

    pub(super) fn placeholder_mut(&mut self, v: ValueId) -> Option<&mut Placeholder> {
        if v.0 & PLACEHOLDER == 0 {
            return None;
        }
        let f = self.fragment.as_mut()?;
        f.placeholders.get_mut((v.0 & !PLACEHOLDER) as usize)
    }

    /// Records where a fragment's statements stopped (token `i`): the cursor relative to it and
    /// the token before it, when the fragment has one.
    pub(super) fn note_fragment_end(&mut self, i: usize) {
        let last = match i.checked_sub(1) {
            Some(k) => self.buf.borrow_mut().tok(k).map(|t| t.span.start),
            None => None,
        };
        let pos = self.pos;
        if let Some(f) = &mut self.fragment {
            f.pos_offset = pos as isize - i as isize;
            f.last_tok = last;
        }
    }

    /// Logs that the statement being read depended on `name` being unbound (fragments only).
    pub(super) fn assume_unbound(&mut self, name: &str) {
        if let Some(f) = &mut self.fragment {
            f.assumed_unbound.push(name.to_string());
        }
    }

    /// On entering a function body (the cursor at its first token `at`): hands the helper the
    /// second half when the chunk is large enough (see the module doc).
    pub(super) fn offer_split(&mut self, at: usize) {
        let forced = match &self.split {
            Some(link) if !link.offered && self.errors == 0 && !self.stopped => link.forced,
            _ => return,
        };
        let from = self.span_at(at).start;
        let end = self.base + self.src.len();
        let start = match forced {
            Some(f) if f > from => Some(f),
            Some(_) => None,
            None if end - from >= SPLIT_MIN_BYTES => {
                split_point(self.src, self.base, from + (end - from) / 2)
            }
            None => None,
        };
        let Some(start) = start else { return };
        let mut aliases = self.aliases.clone();
        // Uses waiting for a later location alias stay the first half's to check.
        aliases.deferred.clear();
        let job = Job {
            start,
            types: self.m.types.clone(),
            aliases,
            depth: self.depth,
            module_depth: self.module_depth,
            strict_ops: self.strict_ops,
        };
        let pending = Pending {
            start,
            depth: self.depth,
            module_depth: self.module_depth,
        };
        let Some(link) = &mut self.split else { return };
        link.offered = true;
        // One job per chunk: the sender goes with it.
        if link.jobs.take().is_some_and(|j| j.send(job).is_ok()) {
            link.pending = Some(pending);
        }
    }

    /// At a statement start (token `i`): joins the fragment when `i` is its first statement
    /// and every condition of the module doc holds. Returns whether it joined.
    pub(super) fn maybe_join(&mut self, i: usize) -> bool {
        let Some(link) = &self.split else {
            return false;
        };
        let Some(pending) = &link.pending else {
            return false;
        };
        let start = pending.start;
        let (depth, module_depth) = (pending.depth, pending.module_depth);
        let Some(t) = self.buf.borrow_mut().tok(i) else {
            return false;
        };
        if t.span.start != start {
            return false;
        }
        // This is the one chance: whatever happens, the fragment is settled here.
        let Some(link) = &mut self.split else {
            return false;
        };
        link.pending = None;
        let Ok(frag) = link.results.recv() else {
            return false;
        };
        self.sync_lex();
        let (_, kind) = self.cur_region();
        let joinable = !frag.incomplete
            && kind == super::module::RegionKind::Func
            && self.depth == depth
            && self.module_depth == module_depth
            && self.errors == 0
            && !self.stopped
            && self.diags.iter().all(|d| d.span.start < start)
            && frag.end >= start
            && !frag
                .assumed_unbound
                .iter()
                .any(|n| self.names.contains_key(n.as_str()));
        if !joinable {
            return false;
        }
        self.join_fragment(i, frag);
        if let Some(link) = &mut self.split {
            link.joined = true;
        }
        true
    }

    /// Joins `frag` at token `i` (see the module doc).
    fn join_fragment(&mut self, i: usize, frag: Fragment) {
        let (target, _) = self.cur_region();
        let names = &self.names;
        let src: &'s str = self.src;
        let base = self.base;
        let unbound = &frag.unbound_names;
        // Each distinct name is bound once, as `bind_use` would bind it here.
        let mut resolved: Vec<Option<Resolution>> = vec![None; unbound.len()];
        let resolve = |k: u32| -> Resolution {
            if let Some(Some(r)) = resolved.get(k as usize) {
                return *r;
            }
            let name = unbound.get(k as usize).map_or("", String::as_str);
            let r = super::resolve_name(names, name);
            if let Some(slot) = resolved.get_mut(k as usize) {
                *slot = Some(r);
            }
            r
        };
        let name_of = |k: u32| unbound.get(k as usize).cloned().unwrap_or_default();
        let op_base = self.m.ops.len() as u32;
        let values = self.m.append_fragment(
            frag.module,
            frag.placeholders,
            frag.types_before,
            STAND_IN,
            target,
            resolve,
            name_of,
        );
        let value = |v: ValueId| values.get(v.0 as usize).copied().unwrap_or(v);
        for (r, b) in frag.names {
            let Some(n) = src.get(r.start - base..r.end - base) else {
                continue;
            };
            let b = match b {
                Binding::Arg(v) => Binding::Arg(value(v)),
                Binding::Group { first, count, op } => Binding::Group {
                    first: value(first),
                    count,
                    op: OpId(op_base + op.0),
                },
            };
            self.names.insert(n, b);
        }
        self.diags.extend(frag.diags);
        self.errors += frag.errors;
        self.lex_errs.extend(frag.lex_errs);
        self.aliases.deferred.extend(frag.deferred_locs);
        self.ctx = frag.ctx;
        self.stmt_byte = frag.stmt_byte;
        self.stmt_start = i;
        self.pos = i.saturating_add_signed(frag.pos_offset);
        // Nothing before the fragment's end is read again: its pages go back now (what the first
        // half mapped ahead of itself and the helper's last window would stay mapped otherwise).
        if let Some(consumed) = self.consumed {
            consumed(frag.end);
        }
        // The window forgets what it read from the split point on and resumes at the end;
        // the token before it becomes the fragment's last one, as in one parse.
        let mut buf = self.buf.borrow_mut();
        let keep = buf.forget_from(i);
        if let Some(last) = frag.last_tok {
            let mut one = TokenStream::starting_at(src, base, LexMode::Mlir, last - base);
            if let (Some((t, None)), Some(slot)) = (one.next_token(), keep.checked_sub(1)) {
                if let Some(old) = buf.toks.get_mut(slot) {
                    *old = t;
                }
            }
        }
        buf.stream = Some(TokenStream::starting_at(
            src,
            base,
            LexMode::Mlir,
            frag.end - base,
        ));
    }
}
