//! Generic ↔ typed operand conversion for [`Insn`]: the `Field` trait and the `conv!` table that
//! maps every variant to its stored operands in [`OpInfo::operands`](super::OpInfo) order.
//!
//! Invariant: `Insn::from_args(op, &x.args().0[..n]) == x` for every instruction `x`.

use super::mods::*;
use super::{Insn, Mod0, Op, Reg};

/// Conversion between a field type and the generic `i64` argument value.
pub(crate) trait Field: Copy {
    fn to_arg(self) -> i64;
    fn from_arg(v: i64) -> Self;
}

impl Field for Reg {
    fn to_arg(self) -> i64 {
        i64::from(self.0)
    }
    fn from_arg(v: i64) -> Self {
        Reg(v as u8)
    }
}
impl Field for u8 {
    fn to_arg(self) -> i64 {
        i64::from(self)
    }
    fn from_arg(v: i64) -> Self {
        v as u8
    }
}
impl Field for u16 {
    fn to_arg(self) -> i64 {
        i64::from(self)
    }
    fn from_arg(v: i64) -> Self {
        v as u16
    }
}
impl Field for i16 {
    fn to_arg(self) -> i64 {
        i64::from(self)
    }
    fn from_arg(v: i64) -> Self {
        v as i16
    }
}
impl Field for Mod0 {
    fn to_arg(self) -> i64 {
        i64::from(self.bits())
    }
    fn from_arg(v: i64) -> Self {
        Mod0::ALL
            .get((v & 15) as usize)
            .copied()
            .unwrap_or(Mod0::SrcB)
    }
}
macro_rules! mod_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            fn to_arg(self) -> i64 { i64::from(self.0) }
            fn from_arg(v: i64) -> Self { Self(v as u8) }
        }
    )*};
}
mod_field!(
    LoadIMod,
    MadMod,
    DivP2Mod,
    ExExpMod,
    ExManMod,
    IAddMod,
    ShftMod,
    SetCcMod,
    MovMod,
    AbsMod,
    BitMod,
    LzMod,
    SetExpMod,
    SetManMod,
    SetSgnMod,
    EnCcMod,
    StackMod,
    StochRndMod,
    CastMod,
    ConfigMod,
    SwapMod,
    Shft2Mod,
    CmpMod,
    RawMod
);

/// The stored operand values of an instruction, in [`OpInfo::operands`] order (zeros skipped).
pub type Args = ([i64; 6], usize);

macro_rules! conv {
    ($($v:ident { $($f:ident),* }),* $(,)?) => {
        impl Insn {
            /// The instruction kind.
            pub fn op(&self) -> Op {
                match self { $(Insn::$v { .. } => Op::$v,)* }
            }

            /// The stored operand values in operand order.
            #[allow(unused_mut)]
            pub fn args(&self) -> Args {
                match *self {
                    $(Insn::$v { $($f),* } => {
                        let mut a = [0i64; 6];
                        let mut n = 0usize;
                        $( if let Some(slot) = a.get_mut(n) { *slot = Field::to_arg($f); } n += 1; )*
                        (a, n)
                    })*
                }
            }

            /// Builds an instruction from operand values in operand order (missing values are 0;
            /// values are truncated to the field type, not range-checked — see [`encode`]).
            pub fn from_args(op: Op, a: &[i64]) -> Insn {
                #[allow(unused_mut, unused_variables)]
                match op {
                    $(Op::$v => {
                        let mut it = a.iter().copied();
                        $( let $f = Field::from_arg(it.next().unwrap_or(0)); )*
                        Insn::$v { $($f),* }
                    })*
                }
            }
        }
    };
}

conv!(
    Replay {
        start,
        len,
        exec,
        load
    },
    Load {
        vd,
        mod0,
        addr_mod,
        imm10
    },
    LoadI { vd, mod0, imm16 },
    Store {
        vd,
        mod0,
        addr_mod,
        imm10
    },
    Lut { vd, mod0 },
    MulI { imm16, vd, mod1 },
    AddI { imm16, vd, mod1 },
    DivP2 {
        imm12,
        vc,
        vd,
        mod1
    },
    ExExp { vc, vd, mod1 },
    ExMan { vc, vd, mod1 },
    IAdd {
        imm12,
        vc,
        vd,
        mod1
    },
    Shft {
        imm12,
        vc,
        vd,
        mod1
    },
    SetCc { imm1, vc, vd, mod1 },
    Mov { vc, vd, mod1 },
    Abs { vc, vd, mod1 },
    And { vb, vc, vd, mod1 },
    Or { vb, vc, vd, mod1 },
    Not { vc, vd },
    Lz { vc, vd, mod1 },
    SetExp { imm8, vc, vd, mod1 },
    SetMan {
        imm12,
        vc,
        vd,
        mod1
    },
    Mad {
        va,
        vb,
        vc,
        vd,
        mod1
    },
    Add {
        va,
        vb,
        vc,
        vd,
        mod1
    },
    Mul {
        va,
        vb,
        vc,
        vd,
        mod1
    },
    PushC { vd, mod1 },
    PopC { vd, mod1 },
    SetSgn { imm1, vc, vd, mod1 },
    EnCc { imm2, vd, mod1 },
    CompC { vd },
    Transp { vd },
    Xor { vc, vd },
    StochRnd {
        rnd_mode,
        imm5,
        vb,
        vc,
        vd,
        mod1
    },
    Nop {},
    Cast { vc, vd, mod1 },
    Config { imm16, dest, mod1 },
    Swap { vc, vd, mod1 },
    LoadMacro {
        lreg,
        mod0,
        addr_mod,
        imm10
    },
    Shft2 {
        imm12,
        vc,
        vd,
        mod1
    },
    LutFp32 { vd, mod1 },
    Le { vc, vd, mod1 },
    Gt { vc, vd, mod1 },
    Mul24 {
        va,
        vb,
        vc,
        vd,
        mod1
    },
    ARecip { imm4, vc, vd, mod1 },
);
