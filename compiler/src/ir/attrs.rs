//! IR attributes (syntax.md §4): the general attribute value and the typed attributes of the
//! conversion ops.
//!
//! Dictionaries are [`AttrDict`] (insertion-ordered; the printer sorts where D-25 says so).
//! Floats are stored as the f64 they spell, by bits, so attributes are `Eq`. Opaque dialect
//! attributes (`#foo<...>`, `dense<...>`) keep their verbatim text (D-9).

use indexmap::IndexMap;

use super::types::TypeId;

/// Ordered attribute dictionary.
pub type AttrDict = IndexMap<String, Attr>;

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
