//! IR attributes (syntax.md §4): the general attribute value and the typed attributes of the
//! conversion ops.
//!
//! Dictionaries are [`AttrDict`] (insertion-ordered; the printer sorts where D-25 says so). An
//! op holds its dictionary as [`OpAttrs`] (one pointer, nothing allocated while empty) and the
//! spans of its attributes as [`AttrSpans`] (inline for one entry, keys shared as [`AttrKey`]).
//! Floats are stored as the f64 they spell, by bits, so attributes are `Eq`. Opaque dialect
//! attributes (`#foo<...>`, `dense<...>`) keep their verbatim text (D-9).

use std::sync::Arc;

use indexmap::IndexMap;
use smallvec::SmallVec;

use super::types::TypeId;
use crate::diag::Span;

/// Ordered attribute dictionary.
pub type AttrDict = IndexMap<String, Attr>;

/// An attribute key shared between the parser's dictionary cache and every op that writes the
/// same dictionary: cloning it costs a reference count, not an allocation.
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct AttrKey(Arc<str>);

impl AttrKey {
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::ops::Deref for AttrKey {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for AttrKey {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for AttrKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&*self.0, f)
    }
}

impl std::fmt::Display for AttrKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for AttrKey {
    fn from(s: &str) -> Self {
        AttrKey(s.into())
    }
}

impl From<String> for AttrKey {
    fn from(s: String) -> Self {
        AttrKey(s.into())
    }
}

impl From<&AttrKey> for AttrKey {
    fn from(k: &AttrKey) -> Self {
        k.clone()
    }
}

impl From<AttrKey> for String {
    fn from(k: AttrKey) -> String {
        k.0.to_string()
    }
}

impl PartialEq<str> for AttrKey {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for AttrKey {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for AttrKey {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

/// The spans of an op's attributes, `key = value` by key, in insertion order (the part of an
/// `IndexMap<String, Span>` the IR uses). One entry is held inline.
#[derive(Clone, Default, PartialEq)]
pub struct AttrSpans(SmallVec<[(AttrKey, Span); 1]>);

impl AttrSpans {
    pub fn new() -> Self {
        AttrSpans::default()
    }

    /// Sets the span of `key`, keeping its position if present; returns the old span.
    pub fn insert(&mut self, key: impl Into<AttrKey>, span: Span) -> Option<Span> {
        let key = key.into();
        if let Some(slot) = self.0.iter_mut().find(|(k, _)| *k == key) {
            return Some(std::mem::replace(&mut slot.1, span));
        }
        self.0.push((key, span));
        None
    }

    pub fn get(&self, key: &str) -> Option<&Span> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, s)| s)
    }

    pub fn contains_key(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&AttrKey, &Span)> {
        self.0.iter().map(|(k, s)| (k, s))
    }

    pub fn keys(&self) -> impl Iterator<Item = &AttrKey> {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn shrink_to_fit(&mut self) {
        self.0.shrink_to_fit();
    }
}

impl std::ops::Index<&str> for AttrSpans {
    type Output = Span;
    /// The span of `key`; panics if absent (as `IndexMap`'s index does).
    fn index(&self, key: &str) -> &Span {
        self.get(key).expect("AttrSpans: no span for this key")
    }
}

impl std::fmt::Debug for AttrSpans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Into<AttrKey>> FromIterator<(K, Span)> for AttrSpans {
    fn from_iter<I: IntoIterator<Item = (K, Span)>>(iter: I) -> Self {
        let mut out = AttrSpans::new();
        for (k, s) in iter {
            out.insert(k, s);
        }
        out
    }
}

/// An op's attribute dictionary: one pointer, and no allocation while empty (most ops keep
/// their attributes in their kind). Reads and writes go through [`AttrDict`] by deref; a write
/// allocates the dictionary.
#[derive(Clone, Default)]
pub struct OpAttrs(Option<Box<AttrDict>>);

fn empty_dict() -> &'static AttrDict {
    static EMPTY: std::sync::OnceLock<AttrDict> = std::sync::OnceLock::new();
    EMPTY.get_or_init(AttrDict::new)
}

impl OpAttrs {
    pub fn new() -> Self {
        OpAttrs(None)
    }
}

impl std::ops::Deref for OpAttrs {
    type Target = AttrDict;
    fn deref(&self) -> &AttrDict {
        match &self.0 {
            Some(d) => d,
            None => empty_dict(),
        }
    }
}

impl std::ops::DerefMut for OpAttrs {
    fn deref_mut(&mut self) -> &mut AttrDict {
        self.0.get_or_insert_with(Box::default)
    }
}

impl From<AttrDict> for OpAttrs {
    fn from(d: AttrDict) -> Self {
        OpAttrs((!d.is_empty()).then(|| Box::new(d)))
    }
}

impl PartialEq for OpAttrs {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for OpAttrs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(&**self, f)
    }
}

impl<'a> IntoIterator for &'a OpAttrs {
    type Item = (&'a String, &'a Attr);
    type IntoIter = indexmap::map::Iter<'a, String, Attr>;
    fn into_iter(self) -> Self::IntoIter {
        (**self).iter()
    }
}

/// `#pto<round_mode X>` / `#pto.round_mode<CAST_X>`. `Rint` and `CastRint` stay distinct
/// values (D-18) with the same meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum RoundMode {
    None,
    Rint,
    Round,
    Floor,
    Ceil,
    Trunc,
    Odd,
    CastRint,
}

impl RoundMode {
    pub const ALL: [RoundMode; 8] = [
        RoundMode::None,
        RoundMode::Rint,
        RoundMode::Round,
        RoundMode::Floor,
        RoundMode::Ceil,
        RoundMode::Trunc,
        RoundMode::Odd,
        RoundMode::CastRint,
    ];

    /// PTOAS spelling (`#pto<round_mode X>`), the printed one.
    pub fn as_str(self) -> &'static str {
        match self {
            RoundMode::None => "NONE",
            RoundMode::Rint => "RINT",
            RoundMode::Round => "ROUND",
            RoundMode::Floor => "FLOOR",
            RoundMode::Ceil => "CEIL",
            RoundMode::Trunc => "TRUNC",
            RoundMode::Odd => "ODD",
            RoundMode::CastRint => "CAST_RINT",
        }
    }

    pub fn from_ptoas(s: &str) -> Option<RoundMode> {
        RoundMode::ALL.into_iter().find(|m| m.as_str() == s)
    }

    /// ISA-doc spelling (`#pto.round_mode<CAST_X>`): drop `CAST_`, except `CAST_RINT` stays.
    pub fn from_isa(s: &str) -> Option<RoundMode> {
        match s {
            "CAST_RINT" => Some(RoundMode::CastRint),
            "CAST_NONE" => Some(RoundMode::None),
            _ => s
                .strip_prefix("CAST_")
                .and_then(RoundMode::from_ptoas)
                .filter(|m| *m != RoundMode::CastRint && *m != RoundMode::Rint),
        }
    }
}

/// vcvt `rnd` letters (semantics.md §6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rnd {
    R,
    A,
    F,
    C,
    Z,
    O,
    H,
}

impl Rnd {
    pub const ALL: [Rnd; 7] = [Rnd::R, Rnd::A, Rnd::F, Rnd::C, Rnd::Z, Rnd::O, Rnd::H];
    pub fn as_str(self) -> &'static str {
        match self {
            Rnd::R => "R",
            Rnd::A => "A",
            Rnd::F => "F",
            Rnd::C => "C",
            Rnd::Z => "Z",
            Rnd::O => "O",
            Rnd::H => "H",
        }
    }
    /// Accepts the letter or its `ROUND_` alias.
    pub fn parse(s: &str) -> Option<Rnd> {
        let s = s.strip_prefix("ROUND_").unwrap_or(s);
        Rnd::ALL.into_iter().find(|r| r.as_str() == s)
    }
}

/// vcvt `sat` (`SAT`/`RS_ENABLE`, `NOSAT`/`RS_DISABLE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VSat {
    Sat,
    NoSat,
}

impl VSat {
    pub fn as_str(self) -> &'static str {
        match self {
            VSat::Sat => "SAT",
            VSat::NoSat => "NOSAT",
        }
    }
    pub fn parse(s: &str) -> Option<VSat> {
        match s {
            "SAT" | "RS_ENABLE" => Some(VSat::Sat),
            "NOSAT" | "RS_DISABLE" => Some(VSat::NoSat),
            _ => None,
        }
    }
}

/// vcvt `part` (`EVEN`/`PART_EVEN`, ..., `P0`..`P3`/`PART_P0`..).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Part {
    Even,
    Odd,
    P0,
    P1,
    P2,
    P3,
}

impl Part {
    pub const ALL: [Part; 6] = [
        Part::Even,
        Part::Odd,
        Part::P0,
        Part::P1,
        Part::P2,
        Part::P3,
    ];
    pub fn as_str(self) -> &'static str {
        match self {
            Part::Even => "EVEN",
            Part::Odd => "ODD",
            Part::P0 => "P0",
            Part::P1 => "P1",
            Part::P2 => "P2",
            Part::P3 => "P3",
        }
    }
    pub fn parse(s: &str) -> Option<Part> {
        let s = s.strip_prefix("PART_").unwrap_or(s);
        Part::ALL.into_iter().find(|p| p.as_str() == s)
    }
    /// Index k of the part (EVEN=0, ODD=1, Pk=k).
    pub fn index(self) -> u32 {
        match self {
            Part::Even | Part::P0 => 0,
            Part::Odd | Part::P1 => 1,
            Part::P2 => 2,
            Part::P3 => 3,
        }
    }
    /// EVEN/ODD family (true) or P0..P3 family (false).
    pub fn is_even_odd(self) -> bool {
        matches!(self, Part::Even | Part::Odd)
    }
}

/// A general attribute value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Attr {
    /// Integer literal; `ty: None` = untyped (i64, elided when printed).
    Int {
        value: i64,
        ty: Option<TypeId>,
    },
    /// Hex integer literal, kept in hex when typed as a float (a bit pattern).
    Hex {
        value: u64,
        ty: Option<TypeId>,
    },
    /// Float literal stored as f64 bits; `ty: None` = f64.
    Float {
        bits: u64,
        ty: Option<TypeId>,
    },
    Bool(bool),
    /// Decoded string contents.
    Str(String),
    Unit,
    Type(TypeId),
    Symbol(String),
    Array(Vec<Attr>),
    Dict(AttrDict),
    RoundMode(RoundMode),
    SatMode {
        on: bool,
    },
    /// `#pto.pipe<...>`, `dense<...>`, `array<...>`: verbatim source text.
    Opaque(String),
    /// A non-literal value with its type: `dense<1.0> : tensor<4xf32>` (numeric literals keep
    /// their type in `Int`/`Hex`/`Float`).
    Typed {
        value: Box<Attr>,
        ty: TypeId,
    },
}
