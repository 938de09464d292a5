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
//! The name table holds only names with a live entry: a name whose chains empty when a scope
//! closes leaves the table (its slot is reused), and when the last name entry goes the table is
//! reset at once (replaced if it is mostly empty room, so a reset costs no more than the
//! inserts before it). So the table stays as small as the names in scope, and cache-resident
//! for the many small regions of a large function.
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

/// One name of the table and the heads of its chains: definition names (redefinition check)
/// and use names (binding a use to the visible value of its name).
#[derive(Clone, Copy)]
struct NameSlot<'a> {
    name: &'a str,
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
    names: Vec<NameSlot<'a>>,
    /// Slots of `names` no name holds.
    free_names: Vec<u32>,
    defs: Vec<Entry<u32, Span>>,
    binds: Vec<Entry<u32, ValueId>>,
}

fn link(index: usize) -> u32 {
    u32::try_from(index + 1).unwrap_or(u32::MAX)
}

impl<'a> Scopes<'a> {
    /// Scopes for a module of `values` values.
    pub(super) fn new(values: usize) -> Self {
        Scopes {
            stack: Vec::new(),
            base: 0,
            next_generation: 0,
            value_heads: vec![NO_ENTRY; values],
            values: Vec::new(),
            name_ids: FxHashMap::default(),
            names: Vec::new(),
            free_names: Vec::new(),
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

    /// Ends the current namespace (closing any scope still open) and shows the saved scopes.
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
        if mark.defs == 0 && mark.binds == 0 {
            // No name entry outlives this scope: reset the table at once.
            self.defs.clear();
            self.binds.clear();
            self.names.clear();
            self.free_names.clear();
            if self.name_ids.len() < self.name_ids.capacity() / 4 {
                self.name_ids = FxHashMap::default();
            } else {
                self.name_ids.clear();
            }
            return;
        }
        for i in (mark.defs..self.defs.len()).rev() {
            let e = self.defs[i];
            if let Some(slot) = self.names.get_mut(e.key as usize) {
                slot.def = e.prev;
            }
            self.release_if_unused(e.key);
        }
        self.defs.truncate(mark.defs);
        for i in (mark.binds..self.binds.len()).rev() {
            let e = self.binds[i];
            if let Some(slot) = self.names.get_mut(e.key as usize) {
                slot.bind = e.prev;
            }
            self.release_if_unused(e.key);
        }
        self.binds.truncate(mark.binds);
    }

    /// Drops name `id` from the table when neither of its chains has an entry left.
    fn release_if_unused(&mut self, id: u32) {
        let Some(slot) = self.names.get(id as usize) else {
            return;
        };
        if slot.def == NO_ENTRY
            && slot.bind == NO_ENTRY
            && self.name_ids.remove(slot.name).is_some()
        {
            self.free_names.push(id);
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
        let (names, free) = (&mut self.names, &mut self.free_names);
        *self.name_ids.entry(name).or_insert_with(|| {
            let slot = NameSlot {
                name,
                def: NO_ENTRY,
                bind: NO_ENTRY,
            };
            match free.pop() {
                Some(id) => {
                    names[id as usize] = slot;
                    id
                }
                None => {
                    names.push(slot);
                    (names.len() - 1) as u32
                }
            }
        })
    }

    fn heads(&self, id: u32) -> (u32, u32) {
        self.names
            .get(id as usize)
            .map_or((NO_ENTRY, NO_ENTRY), |s| (s.def, s.bind))
    }

    /// The span of the visible definition named `id`, if one of the current namespace's open
    /// scopes holds one.
    pub(super) fn defined(&self, id: u32) -> Option<Span> {
        let i = self.live(&self.defs, self.heads(id).0)?;
        Some(self.defs[i].item)
    }

    /// Records a definition named `id` at `span` in the innermost scope.
    pub(super) fn add_def(&mut self, id: u32, span: Span) {
        let Some(generation) = self.top() else { return };
        let Some(slot) = self.names.get_mut(id as usize) else {
            return;
        };
        let prev = slot.def;
        slot.def = link(self.defs.len());
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
        let i = self.live(&self.binds, self.heads(id).1)?;
        Some(self.binds[i].item)
    }

    /// Binds use name `id` to `v` in the innermost scope, unless that scope binds it already.
    pub(super) fn bind(&mut self, id: u32, v: ValueId) {
        let Some(generation) = self.top() else { return };
        let Some(prev) = self.names.get(id as usize).map(|s| s.bind) else {
            return;
        };
        let i = (prev as usize).wrapping_sub(1);
        if self
            .binds
            .get(i)
            .is_some_and(|e| e.generation == generation)
        {
            return;
        }
        self.names[id as usize].bind = link(self.binds.len());
        self.binds.push(Entry {
            key: id,
            prev,
            generation,
            item: v,
        });
    }

    /// The id of `name` if it is in the table (for lookups that must not grow it).
    pub(super) fn find_name(&self, name: &str) -> Option<u32> {
        self.name_ids.get(name).copied()
    }
}
