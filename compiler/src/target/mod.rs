//! Target profiles (semantics.md §1) and their rule tables, as data.
//!
//! One table per profile for tcvt pairs, rounding legality, saturation defaults and the vcvt
//! contract; the verifier and (later) the interpreter read them, and `docs/` is generated from
//! them.

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
