//! Target profiles (semantics.md §1) and their rule tables, as data.
//!
//! - `profiles`: one `ProfileRules` value per profile (`CPU`, `A2A3`, `A5`, via
//!   [`Profile::rules`]): tcvt pair list and "c" marks, forced rounding modes, ODD legality,
//!   saturation defaults, the explicit-sat-OFF and tmp policies, the float→int path and note, the
//!   vcvt pair subset. The only place where profiles differ;
//! - `tcvt`: profile-independent tcvt facts (pair classes, NARROW6 and TORCH3, per-pair default
//!   rounding, tmp capacity formulas) and lookups into the profile data;
//! - `resolve`: the §3.7 `resolve` function (effective mode, sat, float→int path and the
//!   diagnostics it implies) and the tmp role, a generic interpreter of the profile data shared
//!   by the verifier and the interpreter;
//! - `vcvt`: the §6.3 contract (52 pairs) and its attribute defaults;
//! - `toolchain`: what an omitted `satmode` / `NONE` mode mean per toolchain (pto-isa, PTOAS
//!   0.61, PTOAS 0.63), the `--defaults` choice;
//! - `convert`: the `pto.convert` pairs, letters and `sat` rule (PTOAS the only source);
//! - `docs`: the markdown under `docs/rules/`, generated from the data above.
//!
//! Invariant: the tables are pure functions of profile and `pto_runtime::ElemType` (modes are
//! the enums of `ir::attrs`); nothing here reads a `Module`; rule code never matches on a
//! `Profile` except to pick its `ProfileRules`.

pub mod convert;
pub mod docs;
pub mod profiles;
pub mod resolve;
pub mod semantics_docs;
pub mod tcvt;
pub mod toolchain;
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

    /// Maps a `pto.target_arch` string (D-6): a5 → a5, a2/a3/a2a3 → a2a3, cpu → cpu; a6 (the
    /// name PTOAS forks give an a5 variant, verified there as a5) → a5, with a note
    /// ([`Profile::arch_alias_of`]).
    pub fn from_target_arch(s: &str) -> Option<Profile> {
        match s {
            "a5" | "a6" => Some(Profile::A5),
            "a2" | "a3" | "a2a3" => Some(Profile::A2a3),
            "cpu" => Some(Profile::Cpu),
            _ => None,
        }
    }
}

/// PTOAS's build level (`--pto-level=level1|level2|level3`, default level2): which passes its
/// pipeline runs. ptoc reads it for one consequence: at level3 memory planning (PlanMemory) is
/// skipped, so the tmp tiles PTOAS would otherwise synthesise must be written
/// (`tcvt-tmp-required`, E0211).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PtoLevel {
    Level1,
    #[default]
    Level2,
    Level3,
}

impl PtoLevel {
    /// Whether PTOAS plans memory (and so materialises implicit tmp tiles) at this level.
    pub fn plans_memory(self) -> bool {
        self != PtoLevel::Level3
    }
}

impl Profile {
    /// For an arch name that stands for another arch's rules (`a6` → a5), that profile: a note
    /// says so wherever it is used (`target-arch-alias`, N0206).
    pub fn arch_alias_of(s: &str) -> Option<Profile> {
        match s {
            "a6" => Some(Profile::A5),
            _ => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
