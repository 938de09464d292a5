//! Target profiles (semantics.md §1) and their rule tables, as data.
//!
//! - `tcvt`: the §3.1 pair matrix per profile (with the "c" marks), pair classes, NARROW6 and
//!   TORCH3, per-pair default rounding, ODD legality, saturation defaults, tmp capacity formulas;
//! - `resolve`: the §3.7 `resolve` function (effective mode, sat, float→int path and the
//!   diagnostics it implies) and the tmp role, shared by the verifier and the interpreter;
//! - `vcvt`: the §6.3 contract (52 pairs) and §6.5 availability;
//! - `docs`: the markdown under `docs/rules/`, generated from the tables above.
//!
//! Invariant: the tables are pure functions of profile and `pto_runtime::ElemType` (modes are
//! the enums of `ir::attrs`); nothing here reads a `Module`.

pub mod docs;
pub mod resolve;
pub mod tcvt;
pub mod vcvt;

use std::fmt;

/// A verification profile.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Profile {
    Cpu,
    A2a3,
    A5,
}

impl Profile {
    pub const ALL: [Profile; 3] = [Profile::Cpu, Profile::A2a3, Profile::A5];

    pub fn as_str(self) -> &'static str {
        match self {
            Profile::Cpu => "cpu",
            Profile::A2a3 => "a2a3",
            Profile::A5 => "a5",
        }
    }

    /// Maps a `pto.target_arch` string (D-6): a5 → a5, a2/a3 → a2a3, cpu → cpu.
    pub fn from_target_arch(s: &str) -> Option<Profile> {
        match s {
            "a5" => Some(Profile::A5),
            "a2" | "a3" => Some(Profile::A2a3),
            "cpu" => Some(Profile::Cpu),
            _ => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
