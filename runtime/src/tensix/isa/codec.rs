//! 32-bit instruction words ↔ [`Insn`] (per arch).
//!
//! Invariant: pure and total; reserved bits and out-of-range fields are reported as errors.

use super::{Arch, Insn, Kind, OpInfo, OPS};

/// Why an [`Insn`] cannot be encoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EncodeError {
    /// The instruction does not exist on this arch (e.g. SFPGT on Wormhole).
    #[error("{mnemonic} does not exist on {arch}")]
    NotOnArch {
        mnemonic: &'static str,
        arch: &'static str,
    },
    /// A field value does not fit its bit width.
    #[error("{mnemonic}: field {field} = {value} does not fit {width} bits")]
    FieldRange {
        mnemonic: &'static str,
        field: &'static str,
        value: i64,
        width: u8,
    },
}

/// Why a 32-bit word is not a valid instruction.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    /// No SFPU instruction has this opcode on this arch.
    #[error("word {word:#010x}: opcode {opcode:#04x} is not an SFPU instruction on {arch}")]
    UnknownOpcode {
        word: u32,
        opcode: u8,
        arch: &'static str,
    },
    /// Bits outside every field of the instruction are set.
    #[error("word {word:#010x} ({mnemonic}): reserved bits {bits:#010x} are set")]
    ReservedBits {
        word: u32,
        mnemonic: &'static str,
        bits: u32,
    },
}

fn field_mask(w: u8) -> u64 {
    (1u64 << w) - 1
}

/// Encodes `insn` for `arch`.
pub fn encode(insn: &Insn, arch: Arch) -> Result<u32, EncodeError> {
    let inf = insn.info();
    if !inf.available(arch) {
        return Err(EncodeError::NotOnArch {
            mnemonic: inf.mnemonic,
            arch: arch.name(),
        });
    }
    let (args, _) = insn.args();
    let mut word = u32::from(inf.opcode) << 24;
    for (i, op) in inf.operands.iter().filter(|o| o.stored()).enumerate() {
        let v = args.get(i).copied().unwrap_or(0);
        let (lo, w) = op.range(arch);
        let fits = match op.kind {
            Kind::SImm => {
                let half = 1i64 << (w - 1);
                (-half..half).contains(&v)
            }
            _ => (0..(1i64 << w)).contains(&v),
        };
        if !fits {
            return Err(EncodeError::FieldRange {
                mnemonic: inf.mnemonic,
                field: op.name,
                value: v,
                width: w,
            });
        }
        word |= (((v as u64) & field_mask(w)) as u32) << lo;
    }
    Ok(word)
}

fn by_opcode(opcode: u8, arch: Arch) -> Option<&'static OpInfo> {
    OPS.iter().find(|i| i.opcode == opcode && i.available(arch))
}

/// Decodes a 32-bit word for `arch`.
pub fn decode(word: u32, arch: Arch) -> Result<Insn, DecodeError> {
    let opcode = (word >> 24) as u8;
    let inf = by_opcode(opcode, arch).ok_or(DecodeError::UnknownOpcode {
        word,
        opcode,
        arch: arch.name(),
    })?;
    let mut used = 0xFF00_0000u32;
    let mut args = [0i64; 6];
    let mut n = 0usize;
    for op in inf.operands.iter().filter(|o| o.stored()) {
        let (lo, w) = op.range(arch);
        let m = field_mask(w);
        used |= (m as u32) << lo;
        let raw = (u64::from(word) >> lo) & m;
        let v = match op.kind {
            Kind::SImm if raw >> (w - 1) & 1 == 1 => raw as i64 - (1i64 << w),
            _ => raw as i64,
        };
        if let Some(slot) = args.get_mut(n) {
            *slot = v;
        }
        n += 1;
    }
    let reserved = word & !used;
    if reserved != 0 {
        return Err(DecodeError::ReservedBits {
            word,
            mnemonic: inf.mnemonic,
            bits: reserved,
        });
    }
    Ok(Insn::from_args(inf.op, &args[..n.min(6)]))
}
