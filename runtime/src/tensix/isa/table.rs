//! The operand descriptor table ([`OPS`]): one [`OpInfo`] per instruction kind with its opcode,
//! arch availability and operand bit ranges in TTI argument order.
//!
//! Invariant: `OPS[k].op as usize == k` (checked by a unit test), so [`info`] is a direct index.

use super::mods::*;
use super::{Kind, Op, OpInfo, Operand};

const fn o(name: &'static str, kind: Kind, lo: u8, w: u8) -> Operand {
    Operand {
        name,
        kind,
        wh: (lo, w),
        bh: (lo, w),
    }
}
const fn z(name: &'static str) -> Operand {
    o(name, Kind::Zero, 0, 0)
}
const R: Kind = Kind::Reg;
const U: Kind = Kind::UImm;
const S: Kind = Kind::SImm;
const VC: Operand = o("vc", R, 8, 4);
const VD: Operand = o("vd", R, 4, 4);
const fn m1(s: &'static Syms) -> Operand {
    o("mod1", Kind::Mod(s), 0, 4)
}
const LS: [Operand; 4] = [
    o("vd", R, 20, 4),
    o("mod0", Kind::Mod0, 16, 4),
    Operand {
        name: "addr_mod",
        kind: Kind::AddrMod,
        wh: (14, 2),
        bh: (13, 3),
    },
    o("imm10", U, 0, 10),
];
const MAD: [Operand; 5] = [o("va", R, 16, 4), o("vb", R, 12, 4), VC, VD, m1(&MAD_SYMS)];

macro_rules! info {
    ($op:ident, $mn:literal, $opc:literal, $wh:literal, $bh:literal, $ops:expr) => {
        OpInfo {
            op: Op::$op,
            mnemonic: $mn,
            opcode: $opc,
            wh: $wh,
            bh: $bh,
            operands: $ops,
        }
    };
}

/// Every instruction kind, in opcode order.
pub static OPS: &[OpInfo] = &[
    info!(
        Replay,
        "replay",
        0x04,
        true,
        true,
        &[
            // ISA-WH REPLAY.md: Index u5 @14, Count u6 @4 (0 means 64), Exec @1, Load @0.
            o("start", U, 14, 5),
            o("len", U, 4, 6),
            o("exec", U, 1, 1),
            o("load", U, 0, 1)
        ]
    ),
    info!(Load, "sfpload", 0x70, true, true, &LS),
    info!(
        LoadI,
        "sfploadi",
        0x71,
        true,
        true,
        &[
            o("vd", R, 20, 4),
            o("mod0", Kind::Mod(&LOADI_SYMS), 16, 4),
            o("imm16", U, 0, 16)
        ]
    ),
    info!(Store, "sfpstore", 0x72, true, true, &LS),
    info!(
        Lut,
        "sfplut",
        0x73,
        true,
        true,
        &[o("vd", R, 20, 4), o("mod0", Kind::Mod(&RAW_SYMS), 16, 4)]
    ),
    info!(
        MulI,
        "sfpmuli",
        0x74,
        true,
        true,
        &[o("imm16", U, 8, 16), VD, m1(&MAD_SYMS)]
    ),
    info!(
        AddI,
        "sfpaddi",
        0x75,
        true,
        true,
        &[o("imm16", U, 8, 16), VD, m1(&MAD_SYMS)]
    ),
    info!(
        DivP2,
        "sfpdivp2",
        0x76,
        true,
        true,
        &[o("imm12", U, 12, 12), VC, VD, m1(&DIVP2_SYMS)]
    ),
    info!(
        ExExp,
        "sfpexexp",
        0x77,
        true,
        true,
        &[z("imm"), VC, VD, m1(&EXEXP_SYMS)]
    ),
    info!(
        ExMan,
        "sfpexman",
        0x78,
        true,
        true,
        &[z("imm"), VC, VD, m1(&EXMAN_SYMS)]
    ),
    info!(
        IAdd,
        "sfpiadd",
        0x79,
        true,
        true,
        &[o("imm12", S, 12, 12), VC, VD, m1(&IADD_SYMS)]
    ),
    info!(
        Shft,
        "sfpshft",
        0x7A,
        true,
        true,
        &[o("imm12", S, 12, 12), VC, VD, m1(&SHFT_SYMS)]
    ),
    info!(
        SetCc,
        "sfpsetcc",
        0x7B,
        true,
        true,
        &[o("imm1", U, 12, 1), VC, VD, m1(&SETCC_SYMS)]
    ),
    info!(
        Mov,
        "sfpmov",
        0x7C,
        true,
        true,
        &[z("imm"), VC, VD, m1(&MOV_SYMS)]
    ),
    info!(
        Abs,
        "sfpabs",
        0x7D,
        true,
        true,
        &[z("imm"), VC, VD, m1(&ABS_SYMS)]
    ),
    info!(
        And,
        "sfpand",
        0x7E,
        true,
        true,
        &[o("vb", U, 12, 4), VC, VD, m1(&BIT_SYMS)]
    ),
    info!(
        Or,
        "sfpor",
        0x7F,
        true,
        true,
        &[o("vb", U, 12, 4), VC, VD, m1(&BIT_SYMS)]
    ),
    info!(
        Not,
        "sfpnot",
        0x80,
        true,
        true,
        &[z("imm"), VC, VD, z("mod1")]
    ),
    info!(
        Lz,
        "sfplz",
        0x81,
        true,
        true,
        &[z("imm"), VC, VD, m1(&LZ_SYMS)]
    ),
    info!(
        SetExp,
        "sfpsetexp",
        0x82,
        true,
        true,
        &[o("imm8", U, 12, 8), VC, VD, m1(&SETEXP_SYMS)]
    ),
    info!(
        SetMan,
        "sfpsetman",
        0x83,
        true,
        true,
        &[o("imm12", U, 12, 12), VC, VD, m1(&SETMAN_SYMS)]
    ),
    info!(Mad, "sfpmad", 0x84, true, true, &MAD),
    info!(Add, "sfpadd", 0x85, true, true, &MAD),
    info!(Mul, "sfpmul", 0x86, true, true, &MAD),
    info!(
        PushC,
        "sfppushc",
        0x87,
        true,
        true,
        &[z("imm"), z("vc"), VD, m1(&STACK_SYMS)]
    ),
    info!(
        PopC,
        "sfppopc",
        0x88,
        true,
        true,
        &[z("imm"), z("vc"), VD, m1(&STACK_SYMS)]
    ),
    info!(
        SetSgn,
        "sfpsetsgn",
        0x89,
        true,
        true,
        &[o("imm1", U, 12, 1), VC, VD, m1(&SETSGN_SYMS)]
    ),
    info!(
        EnCc,
        "sfpencc",
        0x8A,
        true,
        true,
        &[o("imm2", U, 12, 2), z("vc"), VD, m1(&ENCC_SYMS)]
    ),
    info!(
        CompC,
        "sfpcompc",
        0x8B,
        true,
        true,
        &[z("imm"), z("vc"), VD, z("mod1")]
    ),
    info!(
        Transp,
        "sfptransp",
        0x8C,
        true,
        true,
        &[z("imm"), z("vc"), VD, z("mod1")]
    ),
    info!(
        Xor,
        "sfpxor",
        0x8D,
        true,
        true,
        &[z("imm"), VC, VD, z("mod1")]
    ),
    OpInfo {
        op: Op::StochRnd,
        mnemonic: "sfpstochrnd",
        opcode: 0x8E,
        wh: true,
        bh: true,
        operands: &[
            Operand {
                name: "rnd_mode",
                kind: U,
                wh: (21, 1),
                bh: (21, 2),
            },
            o("imm5", U, 16, 5),
            o("vb", R, 12, 4),
            VC,
            VD,
            m1(&STOCHRND_SYMS),
        ],
    },
    info!(Nop, "sfpnop", 0x8F, true, true, &[]),
    info!(Cast, "sfpcast", 0x90, true, true, &[VC, VD, m1(&CAST_SYMS)]),
    info!(
        Config,
        "sfpconfig",
        0x91,
        true,
        true,
        &[o("imm16", U, 8, 16), o("dest", U, 4, 4), m1(&CONFIG_SYMS)]
    ),
    info!(
        Swap,
        "sfpswap",
        0x92,
        true,
        true,
        &[z("imm"), VC, VD, m1(&SWAP_SYMS)]
    ),
    info!(
        LoadMacro,
        "sfploadmacro",
        0x93,
        true,
        true,
        &[o("lreg", U, 20, 4), LS[1], LS[2], LS[3]]
    ),
    info!(
        Shft2,
        "sfpshft2",
        0x94,
        true,
        true,
        &[o("imm12", S, 12, 12), VC, VD, m1(&SHFT2_SYMS)]
    ),
    info!(
        LutFp32,
        "sfplutfp32",
        0x95,
        true,
        true,
        &[VD, m1(&RAW_SYMS)]
    ),
    info!(
        Le,
        "sfple",
        0x96,
        false,
        true,
        &[z("imm"), VC, VD, m1(&CMP_SYMS)]
    ),
    info!(
        Gt,
        "sfpgt",
        0x97,
        false,
        true,
        &[z("imm"), VC, VD, m1(&CMP_SYMS)]
    ),
    info!(
        Mul24,
        "sfpmul24",
        0x98,
        false,
        true,
        &[o("va", R, 16, 4), o("vb", R, 12, 4), VC, VD, m1(&RAW_SYMS)]
    ),
    info!(
        ARecip,
        "sfparecip",
        0x99,
        false,
        true,
        &[o("imm4", U, 12, 4), VC, VD, m1(&RAW_SYMS)]
    ),
];

pub(super) static NOP_INFO: OpInfo = info!(Nop, "sfpnop", 0x8F, true, true, &[]);

/// The descriptor of `op`.
pub fn info(op: Op) -> &'static OpInfo {
    // OPS lists the kinds in `Op` order (checked by a unit test); fall back to NOP defensively.
    match OPS.get(op as usize) {
        Some(i) if i.op == op => i,
        _ => OPS.iter().find(|i| i.op == op).unwrap_or(&NOP_INFO),
    }
}

/// The descriptor with this mnemonic (lower case; `sfp_stoch_rnd` is accepted as an alias).
pub fn by_mnemonic(m: &str) -> Option<&'static OpInfo> {
    let m = if m == "sfp_stoch_rnd" {
        "sfpstochrnd"
    } else {
        m
    };
    OPS.iter().find(|i| i.mnemonic == m)
}
