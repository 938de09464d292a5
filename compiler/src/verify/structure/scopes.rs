//! The scope stack of the structural walk: which values, definition names and use names are
//! visible at the current point (syntax.md §2, D-4; the rules are in the parent module's doc).
//!
//! A lexical scope is one region; a namespace (a function body, a module body) hides every scope
//! of the enclosing namespaces until it ends. Instead of a hash set per scope, each key (a value,
//! or a name) has a chain of entries, newest first: one entry per scope that holds the key, each
//! stamped with the *generation* of its scope (scopes are numbered in the order they open).
//! Popping a scope unlinks its entries, which are always the newest of their chains (scopes close
//! in reverse order of opening, and entries only go into the innermost scope). So a key is
//! visible iff the head of its chain belongs to the current namespace, that is iff the head's
//! generation is at least the generation of the namespace's first scope: entries of hidden scopes
//! are older than every entry made since the namespace opened. Lookups are O(1) (one array read
//! for values, one hash lookup for names) whatever the nesting depth, and a value costs no
//! hashing at all.
//!
//! Invariants: the answers equal those of one hash set (values), one map of definition names and
//! one map of use names per scope, searched over the scopes of the current namespace (definition
//! names: any of them; use names: the innermost that holds it); this holds on any sequence of
//! calls, including a value or name entered in several scopes, or twice in one.

use rustc_hash::FxHashMap;

use crate::diag::Span;
use crate::ir::ValueId;

/// Chain heads store entry index + 1; 0 is "no entry" (so the head table starts zeroed).
const NO_ENTRY: u32 = 0;

/// Where one open scope's entries start, and its generation.
#[derive(Clone, Copy)]
struct Mark {
    generation: u32,
    values: usize,
    defs: usize,
    binds: usize,
}

/// One link of a chain: the key it belongs to, the previous head, and its scope's generation.
#[derive(Clone, Copy)]
struct Entry<K, T> {
    key: K,
    prev: u32,
    generation: u32,
    item: T,
}

/// Chain heads of one name: definition names (redefinition check) and use names (binding a use
/// to the visible value of its name).
#[derive(Clone, Copy, Default)]
struct NameHeads {
    def: u32,
    bind: u32,
}

/// A namespace's saved state, restored by [`Scopes::leave_namespace`].
pub(super) struct Namespace {
    stack: Vec<Mark>,
    base: u32,
}

pub(super) struct Scopes<'a> {
    /// The open scopes of the current namespace, outermost first.
    stack: Vec<Mark>,
    /// Generation of the current namespace's first scope.
    base: u32,
    next_generation: u32,
    value_heads: Vec<u32>,
    values: Vec<Entry<u32, ()>>,
    name_ids: FxHashMap<&'a str, u32>,
    name_heads: Vec<NameHeads>,
    defs: Vec<Entry<u32, Span>>,
    binds: Vec<Entry<u32, ValueId>>,
}

fn link(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

impl<'a> Scopes<'a> {
    /// Scopes for a module of `values` values (a capacity hint for the name table too).
    pub(super) fn new(values: usize) -> Self {
        Scopes {
            stack: Vec::new(),
            base: 0,
            next_generation: 0,
            value_heads: vec![NO_ENTRY; values],
            values: Vec::new(),
            name_ids: FxHashMap::with_capacity_and_hasher(values, Default::default()),
            name_heads: Vec::with_capacity(values),
            defs: Vec::new(),
            binds: Vec::new(),
        }
    }

    /// Hides every open scope until [`Scopes::leave_namespace`].
    pub(super) fn enter_namespace(&mut self) -> Namespace {
        let saved = Namespace {
            stack: std::mem::take(&mut self.stack),
            base: self.base,
        };
        self.base = self.next_generation;
        saved
    }

    /// Ends the current namespace (its scopes must all be closed) and shows the saved scopes.
    pub(super) fn leave_namespace(&mut self, saved: Namespace) {
        while !self.stack.is_empty() {
            self.pop();
        }
        self.stack = saved.stack;
        self.base = saved.base;
    }

    /// Opens a scope inside the innermost one.
    pub(super) fn push(&mut self) {
        self.stack.push(Mark {
            generation: self.next_generation,
            values: self.values.len(),
            defs: self.defs.len(),
            binds: self.binds.len(),
        });
        self.next_generation = self.next_generation.saturating_add(1);
    }

    /// Closes the innermost scope, unlinking its entries newest first.
    pub(super) fn pop(&mut self) {
        let Some(mark) = self.stack.pop() else {
            return;
        };
        for e in self.values.drain(mark.values..).rev() {
            if let Some(h) = self.value_heads.get_mut(e.key as usize) {
                *h = e.prev;
            }
        }
        for e in self.defs.drain(mark.defs..).rev() {
            if let Some(h) = self.name_heads.get_mut(e.key as usize) {
                h.def = e.prev;
            }
        }
        for e in self.binds.drain(mark.binds..).rev() {
            if let Some(h) = self.name_heads.get_mut(e.key as usize) {
                h.bind = e.prev;
            }
        }
    }

    fn top(&self) -> Option<u32> {
        self.stack.last().map(|m| m.generation)
    }

    /// Whether a chain head is an entry of the current namespace.
    fn live<K, T>(&self, entries: &[Entry<K, T>], head: u32) -> Option<usize> {
        let i = (head as usize).checked_sub(1)?;
        entries
            .get(i)
            .filter(|e| e.generation >= self.base)
            .map(|_| i)
    }

    /// Whether `v` was entered in an open scope of the current namespace.
    pub(super) fn is_visible(&self, v: ValueId) -> bool {
        let head = self
            .value_heads
            .get(v.0 as usize)
            .copied()
            .unwrap_or(NO_ENTRY);
        self.live(&self.values, head).is_some()
    }

    /// Enters `v` in the innermost scope (nothing if no scope is open).
    pub(super) fn add_value(&mut self, v: ValueId) {
        let Some(generation) = self.top() else { return };
        let Some(head) = self.value_heads.get_mut(v.0 as usize) else {
            return;
        };
        let prev = *head;
        *head = link(self.values.len());
        self.values.push(Entry {
            key: v.0,
            prev,
            generation,
            item: (),
        });
    }

    /// The id of `name` in the name table (added on first sight).
    pub(super) fn name_id(&mut self, name: &'a str) -> u32 {
        let next = self.name_heads.len() as u32;
        let id = *self.name_ids.entry(name).or_insert(next);
        if id == next {
            self.name_heads.push(NameHeads::default());
        }
        id
    }

    fn heads(&self, id: u32) -> NameHeads {
        self.name_heads
            .get(id as usize)
            .copied()
            .unwrap_or_default()
    }

    /// The span of the visible definition named `id`, if one of the current namespace's open
    /// scopes holds one.
    pub(super) fn defined(&self, id: u32) -> Option<Span> {
        let i = self.live(&self.defs, self.heads(id).def)?;
        Some(self.defs[i].item)
    }

    /// Records a definition named `id` at `span` in the innermost scope.
    pub(super) fn add_def(&mut self, id: u32, span: Span) {
        let Some(generation) = self.top() else { return };
        let Some(h) = self.name_heads.get_mut(id as usize) else {
            return;
        };
        let prev = h.def;
        h.def = link(self.defs.len());
        self.defs.push(Entry {
            key: id,
            prev,
            generation,
            item: span,
        });
    }

    /// The value bound to use name `id` in the innermost open scope of the current namespace
    /// that binds it.
    pub(super) fn bound(&self, id: u32) -> Option<ValueId> {
        let i = self.live(&self.binds, self.heads(id).bind)?;
        Some(self.binds[i].item)
    }

    /// Binds use name `id` to `v` in the innermost scope, unless that scope binds it already.
    pub(super) fn bind(&mut self, id: u32, v: ValueId) {
        let Some(generation) = self.top() else { return };
        let Some(h) = self.name_heads.get(id as usize).copied() else {
            return;
        };
        let i = (h.bind as usize).wrapping_sub(1);
        if self
            .binds
            .get(i)
            .is_some_and(|e| e.generation == generation)
        {
            return;
        }
        self.name_heads[id as usize].bind = link(self.binds.len());
        self.binds.push(Entry {
            key: id,
            prev: h.bind,
            generation,
            item: v,
        });
    }

    /// The id of `name` if it was ever entered (for lookups that must not grow the table).
    pub(super) fn find_name(&self, name: &str) -> Option<u32> {
        self.name_ids.get(name).copied()
    }
}
