//! Canonical printer (syntax.md §7). `print_module(parse(x))` is a fixed point of fmt (D-26).
//!
//! Owns the textual spelling of every IR construct: layout (D-24: always `module {`, except for
//! several top-level items ([`Module::bare`]), printed as written; two-space indent, one op per
//! line, a blank line between the items of a module body), the canonical spellings of
//! §7.2 (compact `!pto.tile_buf`, hardware `!pto.ptr` spaces, PTOAS round modes, `satmode`,
//! custom forms for every known op), attribute order (D-25) and literals (§7.4).
//!
//! Aliases (user guide, "Aliases and locations"): the module's alias definitions print first, one per line in
//! definition order, then a blank line; every type or attribute equal to an alias's value prints
//! as the alias name (the first alias of that value), also inside other types and attributes,
//! as MLIR prints them. A definition's own value is spelled out, its parts using only the
//! aliases defined before it, so the output reads back to the same IR.
//!
//! Invariants: the printer never panics, even on IR with dangling handles (they print as
//! `<<invalid ...>>`, which the parser rejects); it never emits locations (MLIR without debug
//! info) or comments; the output ends with exactly one `\n`.

mod attrs;
mod catalog;
mod literals;
mod ops;
mod types;

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use super::{
    AliasValue, Attr, AttrDict, Module, OpData, RegionId, ScalarType, TypeId, TypeTable, ValueId,
};

pub use literals::{escape_string, print_float};

/// Prints a module in canonical form, ending with exactly one `\n`.
pub fn print_module(module: &Module) -> String {
    let mut p = Printer {
        m: module,
        types: &module.types,
        out: String::with_capacity(module.ops.len() * 96 + 64),
        alias: AliasIndex::new(module),
        limit: usize::MAX,
    };
    p.aliases();
    p.module();
    p.out
}

/// Prints one type in canonical spelling (used by diagnostics and tests).
pub fn print_type(types: &TypeTable, ty: TypeId) -> String {
    let empty = Module::default();
    let mut p = Printer {
        m: &empty,
        types,
        out: String::new(),
        alias: AliasIndex::default(),
        limit: usize::MAX,
    };
    p.ty(ty);
    p.out
}

/// Prints one attribute value in canonical spelling (types it names come from `types`).
pub fn print_attr(types: &TypeTable, attr: &Attr) -> String {
    let empty = Module::default();
    let mut p = Printer {
        m: &empty,
        types,
        out: String::new(),
        alias: AliasIndex::default(),
        limit: usize::MAX,
    };
    p.attr(attr);
    p.out
}

struct Printer<'m> {
    m: &'m Module,
    /// The type table (the module's, or a caller's for `print_type`).
    types: &'m TypeTable,
    out: String,
    /// The module's aliases by value.
    alias: AliasIndex<'m>,
    /// Only aliases before this index print by name (while printing definition `limit`, the
    /// ones defined before it; `usize::MAX` otherwise).
    limit: usize,
}

/// The module's aliases by value, so that printing a type or attribute looks its alias up in
/// constant time (a file may define many aliases). Each map holds the index into
/// `Module::aliases` of the first alias of a value.
#[derive(Default)]
struct AliasIndex<'m> {
    types: FxHashMap<TypeId, usize>,
    scalars: FxHashMap<&'m ScalarType, usize>,
    /// By a hash of the attribute's top level; the candidates are compared in full.
    attrs: FxHashMap<u64, Vec<usize>>,
    /// Opaque alias values (`#map = affine_map<...>`, `!v = vector<2xf16>`) by their text.
    opaque: FxHashMap<&'m str, usize>,
}

impl<'m> AliasIndex<'m> {
    fn new(m: &'m Module) -> Self {
        let mut ix = AliasIndex::default();
        for (k, a) in m.aliases.iter().enumerate() {
            match &a.value {
                AliasValue::Type(t) => {
                    ix.types.entry(*t).or_insert(k);
                    if (t.0 as usize) < m.types.len() {
                        match m.types.get(*t) {
                            super::Type::Scalar(s) => {
                                ix.scalars.entry(s).or_insert(k);
                            }
                            super::Type::Opaque(text) => {
                                ix.opaque.entry(text.as_str()).or_insert(k);
                            }
                            _ => {}
                        }
                    }
                }
                AliasValue::Attr(v) => {
                    ix.attrs.entry(shallow_hash(v)).or_default().push(k);
                    if let Attr::Opaque(text) = v {
                        ix.opaque.entry(text.as_str()).or_insert(k);
                    }
                }
            }
        }
        ix
    }

    /// The first alias whose value is `a`.
    fn attr(&self, m: &Module, a: &Attr) -> Option<usize> {
        let ks = self.attrs.get(&shallow_hash(a))?;
        ks.iter().copied().find(
            |&k| matches!(m.aliases.get(k).map(|d| &d.value), Some(AliasValue::Attr(x)) if x == a),
        )
    }
}

/// A hash of an attribute's kind and scalar content (equal attributes hash equal).
fn shallow_hash(a: &Attr) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    std::mem::discriminant(a).hash(&mut h);
    match a {
        Attr::Int { value, .. } => value.hash(&mut h),
        Attr::Hex { value, .. } => value.hash(&mut h),
        Attr::Float { bits, .. } => bits.hash(&mut h),
        Attr::Bool(b) => b.hash(&mut h),
        Attr::Str(s) | Attr::Symbol(s) | Attr::Opaque(s) => s.hash(&mut h),
        Attr::Type(t) => t.hash(&mut h),
        Attr::Array(v) => v.len().hash(&mut h),
        Attr::Dict(d) => d.len().hash(&mut h),
        Attr::RoundMode(r) => r.hash(&mut h),
        Attr::SatMode { on } => on.hash(&mut h),
        Attr::Typed { ty, .. } => ty.hash(&mut h),
        Attr::Unit => {}
    }
    h.finish()
}

/// Whether `s` can be printed as a bare identifier (attribute key).
fn is_bare_id(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.'))
}

/// Whether `s` can follow `@` unquoted.
fn is_bare_symbol(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || matches!(c, '_' | '$' | '.'))
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '$' | '.' | '-'))
}

/// The end of the word at `i` and its balanced `<...>` (`affine_map<(d0) -> (d0)>`), if a `<`
/// follows the word; `->` inside never closes, strings are skipped.
fn balanced_word_end(b: &[u8], i: usize) -> Option<usize> {
    let ident = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'!' | b'#');
    let mut j = i;
    while j < b.len() && ident(b[j]) {
        j += 1;
    }
    if b.get(j) != Some(&b'<') {
        return None;
    }
    let mut depth = 0usize;
    let mut in_str = false;
    while j < b.len() {
        match b[j] {
            b'"' if j == 0 || b[j - 1] != b'\\' => in_str = !in_str,
            b'<' if !in_str => depth += 1,
            b'>' if !in_str && b[j - 1] != b'-' => {
                depth -= 1;
                if depth == 0 {
                    return Some(j + 1);
                }
            }
            _ => {}
        }
        j += 1;
    }
    None
}

/// Sorted (bytewise) keys of a dictionary, as MLIR's `DictionaryAttr` (D-25).
fn sorted_keys(d: &AttrDict) -> Vec<&String> {
    let mut keys: Vec<&String> = d.keys().collect();
    keys.sort_unstable_by(|a, b| a.as_bytes().cmp(b.as_bytes()));
    keys
}

impl<'m> Printer<'m> {
    fn indent(&mut self, level: usize) {
        for _ in 0..level {
            self.out.push_str("  ");
        }
    }

    // ---------------------------------------------------------------- module, regions

    /// The alias definitions, then a blank line (nothing without aliases).
    fn aliases(&mut self) {
        let m = self.m;
        for (k, a) in m.aliases.iter().enumerate() {
            self.limit = k;
            self.out.push_str(&a.name);
            self.out.push_str(" = ");
            match &a.value {
                AliasValue::Type(t) => self.ty_body(*t),
                AliasValue::Attr(v) => self.attr_body(v),
            }
            self.out.push('\n');
        }
        self.limit = usize::MAX;
        if !m.aliases.is_empty() {
            self.out.push('\n');
        }
    }

    fn module(&mut self) {
        // spec: D-24
        let items = self.m.regions.get(self.m.body.0 as usize);
        if self.m.bare && items.is_some_and(|r| !r.ops.is_empty()) {
            // Several top-level items: printed as written, without an invented wrapper.
            self.items(self.m.body, 0);
            return;
        }
        self.out.push_str("module");
        if let Some(name) = &self.m.name {
            self.out.push(' ');
            self.symbol(name);
        }
        if !self.m.attrs.is_empty() {
            self.out.push_str(" attributes ");
            self.dict_sorted(&self.m.attrs);
        }
        self.out.push_str(" {\n");
        self.items(self.m.body, 1);
        self.out.push_str("}\n");
    }

    /// The ops of a module body at `level`, a blank line between two.
    fn items(&mut self, body: RegionId, level: usize) {
        let ops = self.m.regions.get(body.0 as usize).map(|r| &r.ops);
        if let Some(ops) = ops {
            for (i, &op) in ops.iter().enumerate() {
                if i > 0 {
                    self.out.push('\n');
                }
                self.op(op, level);
            }
        }
    }

    /// Prints the ops of `region` at `level`, one per line.
    fn region_ops(&mut self, region: RegionId, level: usize) {
        let Some(r) = self.m.regions.get(region.0 as usize) else {
            return;
        };
        let mut blocks = r.blocks.iter().peekable();
        for (i, &op) in r.ops.iter().enumerate() {
            while let Some(b) = blocks.next_if(|b| b.start as usize <= i) {
                self.block_label(b, level);
            }
            self.op(op, level);
        }
        for b in blocks {
            self.block_label(b, level);
        }
    }

    /// `^name(%a: T, ...):` one level left of the block's ops, as MLIR prints it.
    fn block_label(&mut self, b: &crate::ir::BlockData, level: usize) {
        self.indent(level.saturating_sub(1));
        self.out.push_str(&b.label);
        if !b.args.is_empty() {
            self.out.push('(');
            for (i, &a) in b.args.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.value(a);
                self.out.push_str(": ");
                match self.m.values.get(a.0 as usize) {
                    Some(d) => self.ty(d.ty),
                    None => self.out.push_str("<<missing type>>"),
                }
            }
            self.out.push(')');
        }
        self.out.push_str(":\n");
    }

    /// Verbatim text of an opaque type or attribute (D-9). The parser replaced the alias uses
    /// in it by their values; an alias whose value is itself opaque (`#map = affine_map<...>`)
    /// prints by name again where its whole text stands inside (`memref<4xf32, #map>`).
    fn opaque(&mut self, text: &str) {
        if self.alias.opaque.is_empty() {
            self.out.push_str(text);
            return;
        }
        let m = self.m;
        let b = text.as_bytes();
        let ident =
            |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'$' | b'.' | b'!' | b'#');
        let mut i = 0;
        let mut copied = 0;
        let mut in_str = false;
        while i < b.len() {
            if b[i] == b'"' && (i == 0 || b[i - 1] != b'\\') {
                in_str = !in_str;
            }
            // A candidate: a word (or `!`/`#` name) with its balanced `<...>`, standing whole.
            if !in_str && i > 0 && ident(b[i]) && !ident(b[i - 1]) {
                if let Some(end) = balanced_word_end(b, i) {
                    let k = self.alias.opaque.get(&text[i..end]).copied();
                    if let Some(d) = k.filter(|&k| k < self.limit).and_then(|k| m.aliases.get(k)) {
                        self.out.push_str(&text[copied..i]);
                        self.out.push_str(&d.name);
                        copied = end;
                        i = end;
                        continue;
                    }
                }
            }
            i += 1;
        }
        self.out.push_str(&text[copied..]);
    }

    // ---------------------------------------------------------------- values, names

    fn value(&mut self, v: ValueId) {
        match self.m.values.get(v.0 as usize) {
            Some(d) => self.out.push_str(&d.name),
            None => self.out.push_str("%<<invalid value>>"),
        }
    }

    fn values(&mut self, vs: &[ValueId]) {
        for (i, &v) in vs.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.value(v);
        }
    }

    fn value_ty(&self, v: ValueId) -> Option<TypeId> {
        self.m.values.get(v.0 as usize).map(|d| d.ty)
    }

    /// The type written for operand `i`, else the type of its definition.
    fn operand_ty(&self, op: &OpData, i: usize) -> Option<TypeId> {
        match op.operand_types.get(i) {
            Some(Some(t)) => Some(*t),
            _ => op.operands.get(i).and_then(|&v| self.value_ty(v)),
        }
    }

    fn operand(&mut self, op: &OpData, i: usize) {
        match op.operands.get(i) {
            Some(&v) => self.value(v),
            None => self.out.push_str("%<<missing operand>>"),
        }
    }

    fn operand_type(&mut self, op: &OpData, i: usize) {
        match self.operand_ty(op, i) {
            Some(t) => self.ty(t),
            None => self.out.push_str("<<missing type>>"),
        }
    }

    fn result_type(&mut self, op: &OpData, i: usize) {
        match op.results.get(i).and_then(|&v| self.value_ty(v)) {
            Some(t) => self.ty(t),
            None => self.out.push_str("<<missing type>>"),
        }
    }

    /// `%a, %b = ` or `%r:2 = `, nothing for ops without results or whose results were left
    /// unnamed (`func.call @f() : () -> i64` as a statement).
    fn result_defs(&mut self, op: &OpData) {
        let unnamed = |v: &ValueId| {
            self.m
                .values
                .get(v.0 as usize)
                .is_some_and(|d| d.name.is_empty())
        };
        if op.results.is_empty() || (op.result_groups.is_empty() && op.results.iter().all(unnamed))
        {
            return;
        }
        if op.result_groups.is_empty() {
            self.values(&op.results);
        } else {
            for (i, g) in op.result_groups.iter().enumerate() {
                if i > 0 {
                    self.out.push_str(", ");
                }
                self.out.push_str(&g.name);
                if g.explicit_count {
                    let _ = write!(self.out, ":{}", g.count);
                }
            }
        }
        self.out.push_str(" = ");
    }

    fn symbol(&mut self, s: &str) {
        self.out.push('@');
        if is_bare_symbol(s) {
            self.out.push_str(s);
        } else {
            self.out.push_str(&escape_string(s));
        }
    }
}
