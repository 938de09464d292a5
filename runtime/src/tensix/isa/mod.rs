//! The Tensix SFPU instruction set (tensix.md §2, §10.1, §11): a typed [`Insn`] enum with one
//! variant per instruction, an operand descriptor table ([`OpInfo`]) in the TTI macro argument
//! order, and the 32-bit encoding for Wormhole and Blackhole ([`encode`] / [`decode`]).
//!
//! Sources: ISA-WH `Diagrams/Src/Bits32.lua` and per-instruction pages, ISA-BH pages, TTSIM
//! `data/{wh,bh}/tensix_isa.json` (field layouts). Where a page gives a narrower field than TTSIM
//! decodes (e.g. SFPDIVP2 Imm8 vs TTSIM's 12-bit immediate), the wider TTSIM field is used so that
//! every word tt-llk emits decodes.
//!
//! Invariants:
//! * opcode is bits 31:24; every operand occupies a fixed bit range per arch; operands shown as
//!   `0` in the TTI syntax (kind [`Kind::Zero`]) and all bits outside the operands are reserved and
//!   must be zero — [`decode`] rejects words that set them, never panics;
//! * `decode(encode(i, arch)?, arch) == Ok(i)` for every instruction available on `arch` whose
//!   fields fit their widths (signed immediates are stored sign-extended).

mod codec;
mod fields;
mod mods;
mod table;

pub use codec::{decode, encode, DecodeError, EncodeError};
pub use fields::Args;
pub use mods::*;
pub use table::{by_mnemonic, info, OPS};

pub use super::formats::{Arch, Mod0};

/// An LReg index as it appears in a 4-bit register field (L0..L15; L16 exists only as a
/// SFPLOADMACRO override and cannot be encoded).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Reg(pub u8);

#[allow(missing_docs)]
impl Reg {
    pub const L0: Reg = Reg(0);
    pub const L1: Reg = Reg(1);
    pub const L2: Reg = Reg(2);
    pub const L3: Reg = Reg(3);
    pub const L4: Reg = Reg(4);
    pub const L5: Reg = Reg(5);
    pub const L6: Reg = Reg(6);
    pub const L7: Reg = Reg(7);
    /// Constant 0.8373.
    pub const L8: Reg = Reg(8);
    /// Constant 0 (tt-llk `LCONST_0`).
    pub const L9: Reg = Reg(9);
    /// Constant 1.0 (tt-llk `LCONST_1`).
    pub const L10: Reg = Reg(10);
    pub const L11: Reg = Reg(11);
    pub const L12: Reg = Reg(12);
    pub const L13: Reg = Reg(13);
    pub const L14: Reg = Reg(14);
    /// Lane id × 2.
    pub const L15: Reg = Reg(15);

    /// The index.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }
}

/// The instruction kinds (one per mnemonic).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[allow(missing_docs)]
pub enum Op {
    Replay,
    Load,
    LoadI,
    Store,
    Lut,
    MulI,
    AddI,
    DivP2,
    ExExp,
    ExMan,
    IAdd,
    Shft,
    SetCc,
    Mov,
    Abs,
    And,
    Or,
    Not,
    Lz,
    SetExp,
    SetMan,
    Mad,
    Add,
    Mul,
    PushC,
    PopC,
    SetSgn,
    EnCc,
    CompC,
    Transp,
    Xor,
    StochRnd,
    Nop,
    Cast,
    Config,
    Swap,
    LoadMacro,
    Shft2,
    LutFp32,
    Le,
    Gt,
    Mul24,
    ARecip,
}

/// How an operand is written and stored.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// A register field (`L3` or `3` in text).
    Reg,
    /// An unsigned immediate.
    UImm,
    /// A two's complement immediate (stored sign-extended).
    SImm,
    /// A TTI argument that must be 0 (its bits are reserved).
    Zero,
    /// A symbolic modifier field.
    Mod(&'static Syms),
    /// A SFPLOAD/SFPSTORE Mod0 (tt-llk `InstrModLoadStore` names).
    Mod0,
    /// An address-mode index (`ADDR_MOD_n`).
    AddrMod,
}

/// One operand in TTI argument order with its bit range `(lo, width)` on WH and BH.
#[derive(Debug, Clone, Copy)]
pub struct Operand {
    /// Field name (used in diagnostics).
    pub name: &'static str,
    /// Kind.
    pub kind: Kind,
    /// Wormhole bit range `(lo, width)` (ignored for [`Kind::Zero`]).
    pub wh: (u8, u8),
    /// Blackhole bit range.
    pub bh: (u8, u8),
}

impl Operand {
    /// The bit range on `arch`.
    pub fn range(&self, arch: Arch) -> (u8, u8) {
        match arch {
            Arch::Wh => self.wh,
            Arch::Bh => self.bh,
        }
    }

    /// Whether the operand is stored in the [`Insn`] (not a reserved zero).
    pub fn stored(&self) -> bool {
        !matches!(self.kind, Kind::Zero)
    }
}

/// Static description of one instruction kind.
#[derive(Debug)]
pub struct OpInfo {
    /// The kind.
    pub op: Op,
    /// Lower-case mnemonic (`sfpiadd`; `sfpstochrnd` for TTI_SFP_STOCH_RND).
    pub mnemonic: &'static str,
    /// Opcode (bits 31:24).
    pub opcode: u8,
    /// Exists on Wormhole.
    pub wh: bool,
    /// Exists on Blackhole.
    pub bh: bool,
    /// Operands in TTI argument order.
    pub operands: &'static [Operand],
}

impl OpInfo {
    /// Whether the instruction exists on `arch`.
    pub fn available(&self, arch: Arch) -> bool {
        match arch {
            Arch::Wh => self.wh,
            Arch::Bh => self.bh,
        }
    }
}

/// A straight-line SFPU program (the assembler's output, the simulator's input).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Program {
    /// The instructions in issue order.
    pub insns: Vec<Insn>,
    /// 1-based source line of each instruction (empty when not assembled from text).
    pub lines: Vec<u32>,
}

impl Program {
    /// A program without source lines.
    pub fn new(insns: Vec<Insn>) -> Program {
        Program {
            insns,
            lines: Vec::new(),
        }
    }

    /// The source line of instruction `pc`, if known.
    pub fn line(&self, pc: usize) -> Option<u32> {
        self.lines.get(pc).copied()
    }

    /// Encodes every instruction.
    pub fn encode(&self, arch: Arch) -> Result<Vec<u32>, EncodeError> {
        self.insns.iter().map(|i| encode(i, arch)).collect()
    }
}

/// One SFPU (or REPLAY) instruction. Field names follow the ISA pages; `vd` is the destination,
/// `vc`/`vb`/`va` sources. Immediates hold the field value (signed ones sign-extended).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Insn {
    Replay {
        start: u16,
        len: u16,
        exec: u8,
        load: u8,
    },
    Load {
        vd: Reg,
        mod0: Mod0,
        addr_mod: u8,
        imm10: u16,
    },
    LoadI {
        vd: Reg,
        mod0: LoadIMod,
        imm16: u16,
    },
    Store {
        vd: Reg,
        mod0: Mod0,
        addr_mod: u8,
        imm10: u16,
    },
    Lut {
        vd: Reg,
        mod0: RawMod,
    },
    MulI {
        imm16: u16,
        vd: Reg,
        mod1: MadMod,
    },
    AddI {
        imm16: u16,
        vd: Reg,
        mod1: MadMod,
    },
    DivP2 {
        imm12: u16,
        vc: Reg,
        vd: Reg,
        mod1: DivP2Mod,
    },
    ExExp {
        vc: Reg,
        vd: Reg,
        mod1: ExExpMod,
    },
    ExMan {
        vc: Reg,
        vd: Reg,
        mod1: ExManMod,
    },
    IAdd {
        imm12: i16,
        vc: Reg,
        vd: Reg,
        mod1: IAddMod,
    },
    Shft {
        imm12: i16,
        vc: Reg,
        vd: Reg,
        mod1: ShftMod,
    },
    SetCc {
        imm1: u8,
        vc: Reg,
        vd: Reg,
        mod1: SetCcMod,
    },
    Mov {
        vc: Reg,
        vd: Reg,
        mod1: MovMod,
    },
    Abs {
        vc: Reg,
        vd: Reg,
        mod1: AbsMod,
    },
    And {
        vb: u8,
        vc: Reg,
        vd: Reg,
        mod1: BitMod,
    },
    Or {
        vb: u8,
        vc: Reg,
        vd: Reg,
        mod1: BitMod,
    },
    Not {
        vc: Reg,
        vd: Reg,
    },
    Lz {
        vc: Reg,
        vd: Reg,
        mod1: LzMod,
    },
    SetExp {
        imm8: u8,
        vc: Reg,
        vd: Reg,
        mod1: SetExpMod,
    },
    SetMan {
        imm12: u16,
        vc: Reg,
        vd: Reg,
        mod1: SetManMod,
    },
    Mad {
        va: Reg,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        mod1: MadMod,
    },
    Add {
        va: Reg,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        mod1: MadMod,
    },
    Mul {
        va: Reg,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        mod1: MadMod,
    },
    PushC {
        vd: Reg,
        mod1: StackMod,
    },
    PopC {
        vd: Reg,
        mod1: StackMod,
    },
    SetSgn {
        imm1: u8,
        vc: Reg,
        vd: Reg,
        mod1: SetSgnMod,
    },
    EnCc {
        imm2: u8,
        vd: Reg,
        mod1: EnCcMod,
    },
    CompC {
        vd: Reg,
    },
    Transp {
        vd: Reg,
    },
    Xor {
        vc: Reg,
        vd: Reg,
    },
    StochRnd {
        rnd_mode: u8,
        imm5: u8,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        mod1: StochRndMod,
    },
    Nop,
    Cast {
        vc: Reg,
        vd: Reg,
        mod1: CastMod,
    },
    Config {
        imm16: u16,
        dest: u8,
        mod1: ConfigMod,
    },
    Swap {
        vc: Reg,
        vd: Reg,
        mod1: SwapMod,
    },
    /// `lreg = (macro_index << 2) | (vd & 3)`, `imm10 = (imm9 << 1) | (vd >> 2)` (TTI form).
    LoadMacro {
        lreg: u8,
        mod0: Mod0,
        addr_mod: u8,
        imm10: u16,
    },
    Shft2 {
        imm12: i16,
        vc: Reg,
        vd: Reg,
        mod1: Shft2Mod,
    },
    LutFp32 {
        vd: Reg,
        mod1: RawMod,
    },
    Le {
        vc: Reg,
        vd: Reg,
        mod1: CmpMod,
    },
    Gt {
        vc: Reg,
        vd: Reg,
        mod1: CmpMod,
    },
    Mul24 {
        va: Reg,
        vb: Reg,
        vc: Reg,
        vd: Reg,
        mod1: RawMod,
    },
    ARecip {
        imm4: u8,
        vc: Reg,
        vd: Reg,
        mod1: RawMod,
    },
}

impl Insn {
    /// The static descriptor.
    pub fn info(&self) -> &'static OpInfo {
        info(self.op())
    }

    /// The 4-bit VD field if the instruction has one (backdoor template writes key off it).
    pub fn vd_field(&self) -> Option<u8> {
        match *self {
            Insn::Load { vd, .. }
            | Insn::LoadI { vd, .. }
            | Insn::Store { vd, .. }
            | Insn::Lut { vd, .. }
            | Insn::MulI { vd, .. }
            | Insn::AddI { vd, .. }
            | Insn::DivP2 { vd, .. }
            | Insn::ExExp { vd, .. }
            | Insn::ExMan { vd, .. }
            | Insn::IAdd { vd, .. }
            | Insn::Shft { vd, .. }
            | Insn::SetCc { vd, .. }
            | Insn::Mov { vd, .. }
            | Insn::Abs { vd, .. }
            | Insn::And { vd, .. }
            | Insn::Or { vd, .. }
            | Insn::Not { vd, .. }
            | Insn::Lz { vd, .. }
            | Insn::SetExp { vd, .. }
            | Insn::SetMan { vd, .. }
            | Insn::Mad { vd, .. }
            | Insn::Add { vd, .. }
            | Insn::Mul { vd, .. }
            | Insn::PushC { vd, .. }
            | Insn::PopC { vd, .. }
            | Insn::SetSgn { vd, .. }
            | Insn::EnCc { vd, .. }
            | Insn::CompC { vd }
            | Insn::Transp { vd }
            | Insn::Xor { vd, .. }
            | Insn::StochRnd { vd, .. }
            | Insn::Cast { vd, .. }
            | Insn::Swap { vd, .. }
            | Insn::Shft2 { vd, .. }
            | Insn::LutFp32 { vd, .. }
            | Insn::Le { vd, .. }
            | Insn::Gt { vd, .. }
            | Insn::Mul24 { vd, .. }
            | Insn::ARecip { vd, .. } => Some(vd.0),
            Insn::Replay { .. } | Insn::Nop | Insn::Config { .. } | Insn::LoadMacro { .. } => None,
        }
    }
}

impl core::fmt::Display for Insn {
    /// The canonical assembly text (tensix.md §10.1), arch-independent.
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&super::asm::format_insn(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_exhaustive_and_consistent() {
        for (i, info) in OPS.iter().enumerate() {
            assert_eq!(info.op as usize, i, "OPS must follow Op order");
            let x = Insn::from_args(info.op, &[]);
            assert_eq!(x.op(), info.op);
            let (_, n) = x.args();
            assert_eq!(
                n,
                info.operands.iter().filter(|o| o.stored()).count(),
                "{}",
                info.mnemonic
            );
            assert!(OPS[i + 1..]
                .iter()
                .all(|j| j.op != info.op && j.opcode != info.opcode));
        }
        assert!(OPS
            .iter()
            .any(|i| i.op == Op::Nop && i.opcode == table::NOP_INFO.opcode));
    }
}
