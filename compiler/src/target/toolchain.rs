//! Toolchain defaults (issue 22): what an omitted `satmode` and an explicit `NONE` rounding mode
//! mean in each toolchain that lowers the same PTO text. The table ([`TOOLCHAINS`]) is the one
//! place these facts live; `docs/semantics.md` is generated from it.
//!
//! * `pto-isa` (ptoc's default, semantics.md §3.2/§3.4): an omitted `satmode` takes the profile's
//!   per-pair default; `NONE` the per-pair default mode (TRUNC for float→int, ROUND into hif8,
//!   RINT otherwise).
//! * `ptoas-0.61`: PTOAS up to v0.61 lowers a tcvt without `satmode` as an explicit
//!   `SaturationMode::OFF`, and its A5 templates map `NONE` to R (RINT).
//! * `ptoas-0.63`: PTOAS v0.63 switched the omitted `satmode` to ON; `NONE` as in 0.61.
//!
//! An omitted `rmode` is RINT in every toolchain (the attribute's default, syntax.md), so only an
//! explicit `NONE` depends on the choice.
//!
//! Invariant: [`Toolchain::fill`] only replaces what the op left to the toolchain; an explicit
//! `satmode` or a mode other than `NONE` is never changed.

use super::tcvt::Sat;
use crate::ir::RoundMode;

/// A toolchain whose defaults an op may rely on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Toolchain {
    #[default]
    PtoIsa,
    Ptoas061,
    Ptoas063,
}

/// One toolchain's defaults and where each fact comes from.
#[derive(Debug, Clone, Copy)]
pub struct ToolchainDefaults {
    pub toolchain: Toolchain,
    /// An omitted `satmode`: `None` = the profile's per-pair default, else this value.
    pub omitted_sat: Option<Sat>,
    /// `rmode = NONE`: `None` = the per-pair default mode, else this mode.
    pub none_rmode: Option<RoundMode>,
    /// The source of the facts.
    pub source: &'static str,
}

/// Every toolchain, in [`Toolchain`] order.
pub const TOOLCHAINS: [ToolchainDefaults; 3] = [
    ToolchainDefaults {
        toolchain: Toolchain::PtoIsa,
        omitted_sat: None,
        none_rmode: None,
        source: "pto-isa C++ API: TCVT without a saturation mode uses the per-pair default; CAST_NONE the per-pair mode (semantics.md §3.2, §3.4)",
    },
    ToolchainDefaults {
        toolchain: Toolchain::Ptoas061,
        omitted_sat: Some(Sat::Off),
        none_rmode: Some(RoundMode::Rint),
        source: "PTOAS ≤ v0.61 lib/PTO/Transforms/PTOToEmitC.cpp (snapshot e32488c9): a tcvt without satmode is emitted with SaturationMode::OFF; A5 templates map NONE to R",
    },
    ToolchainDefaults {
        toolchain: Toolchain::Ptoas063,
        omitted_sat: Some(Sat::On),
        none_rmode: Some(RoundMode::Rint),
        source: "PTOAS v0.63 (hw-native-sys/pypto#2812: the omitted satmode became ON); NONE as in v0.61",
    },
];

impl Toolchain {
    pub const ALL: [Toolchain; 3] = [Toolchain::PtoIsa, Toolchain::Ptoas061, Toolchain::Ptoas063];

    /// The name as `--defaults` spells it.
    pub fn name(self) -> &'static str {
        match self {
            Toolchain::PtoIsa => "pto-isa",
            Toolchain::Ptoas061 => "ptoas-0.61",
            Toolchain::Ptoas063 => "ptoas-0.63",
        }
    }

    /// Parses [`Toolchain::name`].
    pub fn parse(s: &str) -> Option<Toolchain> {
        Toolchain::ALL.into_iter().find(|t| t.name() == s)
    }

    /// The toolchain's row of [`TOOLCHAINS`].
    pub fn defaults(self) -> &'static ToolchainDefaults {
        &TOOLCHAINS[self as usize]
    }

    /// The (rmode, sat) attributes an op has under this toolchain: what it left open filled in.
    pub fn fill(
        self,
        rmode: Option<RoundMode>,
        sat: Option<Sat>,
    ) -> (Option<RoundMode>, Option<Sat>) {
        let d = self.defaults();
        let rmode = match (rmode, d.none_rmode) {
            (Some(RoundMode::None), Some(m)) => Some(m),
            (r, _) => r,
        };
        (rmode, sat.or(d.omitted_sat))
    }
}

/// Whether an op leaves anything to the toolchain (an omitted `satmode` or `rmode = NONE`).
pub fn leaves_defaults(rmode: Option<RoundMode>, sat: Option<Sat>) -> bool {
    sat.is_none() || rmode == Some(RoundMode::None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_follows_the_enum_and_fill_changes_only_what_was_left_open() {
        for (i, t) in Toolchain::ALL.into_iter().enumerate() {
            assert_eq!(TOOLCHAINS[i].toolchain, t);
            assert_eq!(Toolchain::parse(t.name()), Some(t));
            // Explicit attributes are never changed.
            assert_eq!(
                t.fill(Some(RoundMode::Trunc), Some(Sat::Off)),
                (Some(RoundMode::Trunc), Some(Sat::Off))
            );
        }
        assert_eq!(
            Toolchain::PtoIsa.fill(Some(RoundMode::None), None),
            (Some(RoundMode::None), None)
        );
        assert_eq!(
            Toolchain::Ptoas061.fill(Some(RoundMode::None), None),
            (Some(RoundMode::Rint), Some(Sat::Off))
        );
        assert_eq!(Toolchain::Ptoas063.fill(None, None), (None, Some(Sat::On)));
    }
}
