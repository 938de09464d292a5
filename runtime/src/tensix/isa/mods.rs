//! Typed modifier fields (Mod0/Mod1 of the SFPU instructions, tensix.md §2, §10.1) and their
//! assembler symbol tables.
//!
//! Invariant: every modifier is a transparent newtype over the raw field bits, so any value the
//! field can hold is representable (decoding never loses information); the named constants and
//! the symbol tables carry the ISA / tt-llk meanings. Which values an instruction *executes* is the
//! simulator's business, not the encoding's.

/// A symbol table: `(name, value)` pairs for one modifier field.
#[derive(Debug)]
pub struct Syms {
    /// The names, in display preference order (exact-value names first).
    pub names: &'static [(&'static str, u32)],
    /// Whether values are bit sets (`A|B` is printed by decomposition).
    pub flags: bool,
}

impl Syms {
    /// The value of `name` (case-sensitive, as written in SEED-T / tt-llk).
    pub fn lookup(&self, name: &str) -> Option<u32> {
        self.names.iter().find(|(n, _)| *n == name).map(|&(_, v)| v)
    }

    /// Canonical text for `value`: an exact name, else (for flag sets) a `|`-joined decomposition
    /// into non-zero names, else the decimal number.
    pub fn render(&self, value: u32) -> String {
        if let Some((n, _)) = self.names.iter().find(|&&(_, v)| v == value) {
            return (*n).to_string();
        }
        if self.flags && value != 0 {
            let mut rest = value;
            let mut parts = Vec::new();
            for &(n, v) in self.names {
                if v != 0 && v & rest == v && v.count_ones() == 1 {
                    parts.push(n);
                    rest &= !v;
                }
            }
            if rest == 0 && !parts.is_empty() {
                return parts.join("|");
            }
        }
        value.to_string()
    }
}

macro_rules! modifier {
    ($(#[$m:meta])* $name:ident, $syms:ident, $flags:expr, { $($(#[$cm:meta])* $c:ident = $v:expr),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
        pub struct $name(pub u8);

        #[allow(missing_docs)]
        impl $name {
            $($(#[$cm])* pub const $c: $name = $name($v);)*

            /// The raw field bits.
            pub fn bits(self) -> u8 {
                self.0
            }

            /// Whether every bit of `other` is set in `self`.
            pub fn contains(self, other: $name) -> bool {
                self.0 & other.0 == other.0
            }
        }

        impl core::ops::BitOr for $name {
            type Output = $name;
            fn bitor(self, rhs: $name) -> $name {
                $name(self.0 | rhs.0)
            }
        }

        impl From<$name> for u8 {
            fn from(m: $name) -> u8 {
                m.0
            }
        }

        /// Assembler symbols of the field.
        pub static $syms: Syms = Syms {
            names: &[$((stringify!($c), $v)),*],
            flags: $flags,
        };
    };
}

modifier!(
    /// SFPLOADI Mod0 (value-coded).
    LoadIMod, LOADI_SYMS, false, {
        FLOATB = 0, FLOATA = 1, USHORT = 2, SHORT = 4, UPPER = 8, LOWER = 10,
    }
);
modifier!(
    /// MAD-class Mod1 (SFPMAD/ADD/MUL/ADDI/MULI). NEGATE_* exist on Blackhole only.
    MadMod, MAD_SYMS, true, {
        NEGATE_VA = 1, NEGATE_VC = 2, INDIRECT_VA = 4, INDIRECT_VD = 8,
    }
);
modifier!(
    /// SFPDIVP2 Mod1.
    DivP2Mod, DIVP2_SYMS, true, { ADD = 1 }
);
modifier!(
    /// SFPEXEXP Mod1.
    ExExpMod, EXEXP_SYMS, true, { NODEBIAS = 1, CC_SGN = 2, CC_COMP = 8 }
);
modifier!(
    /// SFPEXMAN Mod1.
    ExManMod, EXMAN_SYMS, true, { PAD9 = 1 }
);
modifier!(
    /// SFPIADD Mod1 (`NEG` = ARG_2SCOMP_LREG_DST; `CC_LT0` is the zero default).
    IAddMod, IADD_SYMS, true, { IMM = 1, NEG = 2, CC_NONE = 4, CC_GTE0 = 8, CC_LT0 = 0 }
);
modifier!(
    /// SFPSHFT Mod1 (ARITHMETIC / IMM_USE_VC: Blackhole only).
    ShftMod, SHFT_SYMS, true, { IMM = 1, ARITHMETIC = 2, IMM_USE_VC = 4 }
);
modifier!(
    /// SFPSETCC Mod1 (mostly value-coded).
    SetCcMod, SETCC_SYMS, true, {
        LREG_LT0 = 0, IMM_BIT0 = 1, LREG_NE0 = 2, LREG_GTE0 = 4, LREG_EQ0 = 6, CLEAR = 8,
    }
);
modifier!(
    /// SFPMOV Mod1.
    MovMod, MOV_SYMS, true, { NEGATE = 1, ALL_LANES = 2, FROM_SPECIAL = 8 }
);
modifier!(
    /// SFPABS Mod1.
    AbsMod, ABS_SYMS, true, { FLOAT = 1 }
);
modifier!(
    /// SFPAND / SFPOR Mod1 (USE_VB: Blackhole only).
    BitMod, BIT_SYMS, true, { USE_VB = 1 }
);
modifier!(
    /// SFPLZ Mod1.
    LzMod, LZ_SYMS, true, { CC_NE0 = 2, NOSGN = 4, CC_COMP = 8 }
);
modifier!(
    /// SFPSETEXP Mod1.
    SetExpMod, SETEXP_SYMS, true, { ARG_IMM = 1, ARG_EXPONENT = 2 }
);
modifier!(
    /// SFPSETMAN Mod1.
    SetManMod, SETMAN_SYMS, true, { ARG_IMM = 1 }
);
modifier!(
    /// SFPSETSGN Mod1.
    SetSgnMod, SETSGN_SYMS, true, { ARG_IMM = 1 }
);
modifier!(
    /// SFPENCC Mod1.
    EnCcMod, ENCC_SYMS, true, { EC = 1, EI = 2, RI = 8 }
);
modifier!(
    /// SFPPUSHC / SFPPOPC Mod1 (0 = plain push/pop; 1..15 = stack-top boolean modes).
    StackMod, STACK_SYMS, false, {}
);
modifier!(
    /// SFPSTOCHRND Mod1 (low 3 bits select the family; bit 3 = UseImm5 for the int→int family).
    StochRndMod, STOCHRND_SYMS, false, {
        FP32_TO_FP16A = 0, FP32_TO_FP16B = 1, FP32_TO_UINT8 = 2, FP32_TO_INT8 = 3,
        INT32_TO_UINT8 = 4, INT32_TO_INT8 = 5, FP32_TO_UINT16 = 6, FP32_TO_INT16 = 7,
        USE_IMM5 = 8,
    }
);
modifier!(
    /// SFPCAST Mod1 (INT32_ABS / INT32_SM32: Blackhole only).
    CastMod, CAST_SYMS, false, { RNE = 0, RND_STOCH = 1, INT32_ABS = 2, INT32_SM32 = 3 }
);
modifier!(
    /// SFPCONFIG Mod1.
    ConfigMod, CONFIG_SYMS, true, { IMM16_IS_VALUE = 1, BITWISE_OR = 2, BITWISE_AND = 4, IMM16_IS_LANE_MASK = 8 }
);
modifier!(
    /// SFPSWAP Mod1 (value-coded; 9 = VD gets max, documented on Blackhole and in TTSIM).
    SwapMod, SWAP_SYMS, false, {
        SWAP = 0, MIN_MAX = 1, MIN01_MAX23 = 2, MIN02_MAX13 = 3, MIN03_MAX12 = 4,
        MIN0_MAX123 = 5, MIN1_MAX023 = 6, MIN2_MAX013 = 7, MIN3_MAX012 = 8, MAX_MIN = 9,
    }
);
modifier!(
    /// SFPSHFT2 Mod1 (value-coded).
    Shft2Mod, SHFT2_SYMS, false, {
        COPY4 = 0, CHAINED_COPY4 = 1, SHFLROR1_AND_COPY4 = 2, SHFLROR1 = 3, SHFLSHR1 = 4,
        SHFT_LREG = 5, SHFT_IMM = 6,
    }
);
modifier!(
    /// Blackhole SFPGT / SFPLE Mod1.
    CmpMod, CMP_SYMS, true, { SET_CC = 1, MUTATE_STACK = 2, MUTATE_OR = 4, SET_VD = 8 }
);
modifier!(
    /// A modifier without named values (SFPLUT Mod0, SFPLUTFP32 / SFPMUL24 / SFPARECIP Mod1).
    RawMod, RAW_SYMS, false, {}
);
