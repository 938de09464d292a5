//! ISA encodings and the assembler/disassembler (tensix.md §2, §10.1, §11; SEED-T listings).

use pto_runtime::tensix::asm::{assemble, disassemble, disassemble_words, AsmErrorKind};
use pto_runtime::tensix::formats::Arch;
use pto_runtime::tensix::isa::{
    decode, encode, DecodeError, EncodeError, IAddMod, Insn, Kind, Op, Reg, OPS,
};

const ARCHES: [Arch; 2] = [Arch::Wh, Arch::Bh];

/// A random instruction of kind `op` with every stored field drawn from its full range on `arch`.
fn random_insn(rng: &mut fastrand::Rng, op: Op, arch: Arch) -> Insn {
    let info = OPS.iter().find(|i| i.op == op).expect("op");
    let mut args = Vec::new();
    for o in info.operands.iter().filter(|o| o.stored()) {
        let (_, w) = o.range(arch);
        let v = match o.kind {
            Kind::SImm => rng.i64(-(1i64 << (w - 1))..(1i64 << (w - 1))),
            _ => rng.i64(0..(1i64 << w)),
        };
        args.push(v);
    }
    Insn::from_args(op, &args)
}

#[test]
fn decode_encode_round_trip_all_instructions_and_field_ranges() {
    let mut rng = fastrand::Rng::with_seed(4);
    for arch in ARCHES {
        for info in OPS.iter().filter(|i| i.available(arch)) {
            // Extremes of every field plus random fills.
            let stored: Vec<_> = info.operands.iter().filter(|o| o.stored()).collect();
            let lo: Vec<i64> = stored
                .iter()
                .map(|o| match o.kind {
                    Kind::SImm => -(1i64 << (o.range(arch).1 - 1)),
                    _ => 0,
                })
                .collect();
            let hi: Vec<i64> = stored
                .iter()
                .map(|o| match o.kind {
                    Kind::SImm => (1i64 << (o.range(arch).1 - 1)) - 1,
                    _ => (1i64 << o.range(arch).1) - 1,
                })
                .collect();
            let mut cases = vec![Insn::from_args(info.op, &lo), Insn::from_args(info.op, &hi)];
            cases.extend((0..2000).map(|_| random_insn(&mut rng, info.op, arch)));
            for x in cases {
                let w = encode(&x, arch).unwrap_or_else(|e| panic!("{x:?}: {e}"));
                assert_eq!(w >> 24, u32::from(info.opcode));
                assert_eq!(decode(w, arch), Ok(x), "{} {w:#010x}", info.mnemonic);
            }
        }
    }
}

#[test]
fn every_word_decodes_to_an_error_or_re_encodes_identically() {
    let mut rng = fastrand::Rng::with_seed(5);
    for arch in ARCHES {
        let mut ok = 0;
        for i in 0..2_000_000u32 {
            // Half random words, half random words with a valid SFPU opcode.
            let w = if i % 2 == 0 {
                rng.u32(..)
            } else {
                (rng.u32(0x70..=0x99) << 24) | (rng.u32(..) & 0x00FF_FFFF & rng.u32(..))
            };
            match decode(w, arch) {
                Ok(x) => {
                    ok += 1;
                    assert_eq!(encode(&x, arch), Ok(w), "{w:#010x}");
                }
                Err(DecodeError::UnknownOpcode { opcode, .. }) => {
                    assert_eq!(opcode, (w >> 24) as u8)
                }
                Err(DecodeError::ReservedBits { bits, .. }) => assert_ne!(bits & w, 0),
            }
        }
        assert!(ok > 10_000, "too few valid words sampled: {ok}");
    }
}

#[test]
fn known_encodings() {
    // TTI_SFPIADD(-31 & 0xfff, 2, 2, 1) (seed line `sfpiadd -31, L2, L2, IMM|CC_LT0`).
    let x = Insn::IAdd {
        imm12: -31,
        vc: Reg::L2,
        vd: Reg::L2,
        mod1: IAddMod::IMM,
    };
    assert_eq!(encode(&x, Arch::Bh), Ok(0x79FE_1221));
    // SFPLOAD AddrMod: WH bits 15:14, BH bits 15:13.
    let p = assemble("sfpload L0, FP32, ADDR_MOD_3, 4", Arch::Wh).expect("wh");
    assert_eq!(p.encode(Arch::Wh), Ok(vec![0x7003_C004]));
    let p = assemble("sfpload L0, FP32, ADDR_MOD_7, 4", Arch::Bh).expect("bh");
    assert_eq!(p.encode(Arch::Bh), Ok(vec![0x7003_E004]));
    // SFPSTOCHRND rounding mode: 1 bit (21) on WH, 2 bits (22:21) on BH.
    let p = assemble("sfpstochrnd 2, 0, L3, L3, L1, FP32_TO_FP16B", Arch::Bh).expect("bh");
    assert_eq!(p.encode(Arch::Bh), Ok(vec![0x8E40_3311]));
    assert!(assemble("sfpstochrnd 2, 0, L3, L3, L1, FP32_TO_FP16B", Arch::Wh).is_err());
    assert!(matches!(
        decode(0x8E40_3311, Arch::Wh),
        Err(DecodeError::ReservedBits {
            bits: 0x0040_0000,
            ..
        })
    ));
    // NOP is opcode only.
    assert_eq!(encode(&Insn::Nop, Arch::Wh), Ok(0x8F00_0000));
    assert!(decode(0x8F00_0080, Arch::Wh).is_err());
    // BH-only instructions.
    assert!(matches!(
        decode(0x9700_0091, Arch::Wh),
        Err(DecodeError::UnknownOpcode { .. })
    ));
    assert!(decode(0x9700_0091, Arch::Bh).is_ok());
    let gt = decode(0x9700_0091, Arch::Bh).expect("gt");
    assert!(matches!(
        encode(&gt, Arch::Wh),
        Err(EncodeError::NotOnArch { .. })
    ));
    // Out-of-range field values are encode errors, not truncation.
    let bad = Insn::Cast {
        vc: Reg(16),
        vd: Reg::L0,
        mod1: Default::default(),
    };
    assert!(matches!(
        encode(&bad, Arch::Bh),
        Err(EncodeError::FieldRange { field: "vc", .. })
    ));
}

const SEED_I32: &str = "sfpload L0, 0, ADDR_MOD_7, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, FLOATB, 0x8000 ; result = INT_MIN (identical to fp32 -0.0)
sfpiadd -31, L2, L2, IMM|CC_LT0 ; exp -= 31 (LaneEnabled = exp < 31)
sfpiadd 8, L2, L2, IMM|CC_NONE ; exp += 8
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpsetcc 0, L0, 0, LREG_LT0 ; LaneEnabled = in < 0
sfpiadd 0, L9, L1, NEG|CC_NONE ; result = 0 - result (two's complement; L9 is constant 0)
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0 ; store i32 (autoincrement addr)";

const SEED_U32: &str = "sfpload L0, 0, ADDR_MOD_7, 0 ; load fp32/bf16
sfploadi L1, 0, 0 ; result = 0
sfpsetcc 0, L0, 0, LREG_GTE0 ; LaneEnabled = in ≥ 0
sfpexexp 0, L0, L2, CC_SGN|CC_COMP ; exp = in.Exp (LaneEnabled = exp >= 0)
sfploadi L1, SHORT, -1 ; result = 0xffffffff
sfpiadd -32, L2, L2, IMM|CC_LT0 ; exp -= 32 (LaneEnabled = exp < 32)
sfpiadd 9, L2, L2, IMM|CC_NONE ; exp += 9
sfpexman 0, L0, L1, 0 ; result = in.Man, including implicit bit
sfpshft 0, L2, L1, 0 ; result <<= exp
sfpencc 0, 0, 0, 0 ; LaneEnabled = true
sfpstore L1, INT32, ADDR_MOD_6, 0 ; store i32 (autoincrement addr)";

const SPEC_10_1: &str = "sfpload  L0, LO16, ADDR_MOD_7, 0   ; v = zero-extended u16
sfpcast  L0, L0, 0                 ; v = float(v), exact below 2^24
sfpstore L0, FP32, ADDR_MOD_6, 0   ; write fp32, advance 2";

/// Plain bodies written for tensix.md §8.1, §8.4, §8.6, §8.7 and §8.8 (as run in
/// `tensix_sim_seq.rs`), BH address modes.
const SPEC_8: &[(&str, &str, usize)] = &[
    (
        "§8.1",
        "sfpload L0, FP32, ADDR_MOD_7, 0
sfpload L1, FP32, ADDR_MOD_7, 0
sfpshft -16, L0, L0, IMM
sfpand 0, L12, L0, 0
sfpiadd 0, L13, L1, CC_NONE
sfpiadd 0, L0, L1, CC_NONE
sfpstore L1, FP16B, ADDR_MOD_6, 0",
        7,
    ),
    (
        "§8.4",
        "sfpload L0, FP32, ADDR_MOD_7, 0
sfpswap 0, L9, L0, MAX_MIN
sfpnop
sfpstochrnd 0, 0, L0, L0, L1, FP32_TO_UINT16
sfpstore L1, LO16, ADDR_MOD_6, 0",
        5,
    ),
    (
        "§8.6",
        "sfpload L0, LO16, ADDR_MOD_7, 0
sfpcast L0, L0, 0
sfpstochrnd 0, 0, L0, L0, L0, FP32_TO_FP16B
sfpstore L0, FP16B, ADDR_MOD_6, 0",
        4,
    ),
    (
        "§8.7",
        "sfploadi L0, FLOATB, 0
sfploadi L1, FLOATB, 0x4f00
sfpload L2, INT32, ADDR_MOD_7, 0
sfpsetsgn 0, L2, L2, ARG_IMM
sfpcast L2, L3, 0
sfpload L7, INT32, ADDR_MOD_7, 0
sfpshft -31, L0, L7, IMM
sfpmad L0, L10, L3, L4, INDIRECT_VA
sfpnop
sfpstore L4, FP32, ADDR_MOD_6, 0",
        10,
    ),
    (
        "§8.8",
        "sfpload L2, INT32, ADDR_MOD_7, 0
sfpabs 0, L2, L3, 0
sfpmov 0, L3, L7, 0
sfpshft -31, L0, L7, IMM
sfpcast L3, L3, 0
sfpsetsgn 0, L3, L2, 0
sfpmad L0, L10, L2, L4, INDIRECT_VA
sfpnop
sfpstore L4, FP32, ADDR_MOD_6, 0
sfpshft2 1, L2, L3, SHFT_LREG
sfpswap 0, L0, L1, 15
sfpconfig 0x4b00, 4, IMM16_IS_VALUE
replay 0, 4, 1, 1",
        13,
    ),
];

#[test]
fn seed_and_spec_listings_round_trip() {
    let extra = SPEC_8.iter().copied();
    for (name, text, n) in extra.chain([
        ("seed i32", SEED_I32, 13),
        ("seed u32", SEED_U32, 11),
        ("§10.1", SPEC_10_1, 3),
    ]) {
        let p = assemble(text, Arch::Bh).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(p.insns.len(), n, "{name}");
        let text2 = disassemble(&p);
        let p2 =
            assemble(&text2, Arch::Bh).unwrap_or_else(|e| panic!("{name} re-asm: {e}\n{text2}"));
        assert_eq!(p2.insns, p.insns, "{name}");
        assert_eq!(
            disassemble(&p2),
            text2,
            "{name}: canonical text is a fixed point"
        );
        // Words → text → words.
        let words = p.encode(Arch::Bh).expect("encode");
        let t3 = disassemble_words(&words, Arch::Bh).expect("decode");
        assert_eq!(
            assemble(&t3, Arch::Bh).expect("re").encode(Arch::Bh),
            Ok(words)
        );
    }
    // Specific canonical renderings.
    let p = assemble(SEED_I32, Arch::Bh).expect("asm");
    let t = disassemble(&p);
    assert!(t.contains("sfpiadd -31, L2, L2, IMM\n"), "{t}");
    assert!(t.contains("sfpexexp 0, L0, L2, CC_SGN|CC_COMP\n"), "{t}");
    assert!(t.contains("sfploadi L1, FLOATB, 0x8000\n"), "{t}");
    assert!(t.contains("sfpstore L1, INT32, ADDR_MOD_6, 0\n"), "{t}");
    assert!(t.contains("sfpiadd 0, L9, L1, NEG|CC_NONE\n"), "{t}");
}

#[test]
fn assembler_errors_are_structured() {
    let e = assemble("sfpnop\n  sfpfoo L0", Arch::Bh).expect_err("unknown");
    assert_eq!((e.line, e.column), (2, 3));
    assert_eq!(e.span, 9..15);
    assert!(matches!(e.kind, AsmErrorKind::UnknownMnemonic { ref found } if found == "sfpfoo"));

    let e = assemble("sfpiadd -31, L2, L2", Arch::Bh).expect_err("count");
    assert!(matches!(
        e.kind,
        AsmErrorKind::OperandCount {
            expected: 4,
            found: 3,
            ..
        }
    ));

    let e = assemble("sfpiadd -31, L2, L2, IMM|CC_LT1", Arch::Bh).expect_err("sym");
    assert_eq!(e.column, 22);
    assert!(matches!(e.kind, AsmErrorKind::UnknownSymbol { ref found, .. } if found == "CC_LT1"));

    let e = assemble("sfpiadd -3000, L2, L2, IMM", Arch::Bh).expect_err("range");
    assert!(matches!(
        e.kind,
        AsmErrorKind::OutOfRange {
            value: -3000,
            min: -2048,
            max: 2047,
            ..
        }
    ));
    let e = assemble("sfpload L0, 0, ADDR_MOD_7, 0", Arch::Wh).expect_err("wh addr mod");
    assert!(matches!(
        e.kind,
        AsmErrorKind::OutOfRange {
            field: "addr_mod",
            ..
        }
    ));
    let e = assemble("sfpgt 0, L1, L2, SET_CC", Arch::Wh).expect_err("bh only");
    assert!(matches!(e.kind, AsmErrorKind::NotOnArch { .. }));
    let e = assemble("sfpcast Lx, L0, 0", Arch::Bh).expect_err("reg");
    assert!(matches!(e.kind, AsmErrorKind::Expected { field: "vc", .. }));
    let e = assemble("sfpnot 1, L0, L1, 0", Arch::Bh).expect_err("zero");
    assert!(matches!(
        e.kind,
        AsmErrorKind::OutOfRange { field: "imm", .. }
    ));
}

#[test]
fn assembler_never_panics_on_garbage() {
    let mut rng = fastrand::Rng::with_seed(6);
    let alphabet: Vec<char> = "sfpiadLoadx0123456789,;|-_ \nABCIMMLT".chars().collect();
    for _ in 0..20_000 {
        let n = rng.usize(0..40);
        let s: String = (0..n)
            .map(|_| alphabet[rng.usize(0..alphabet.len())])
            .collect();
        let _ = assemble(&s, Arch::Bh);
        let _ = assemble(&format!("sfpiadd {s}"), Arch::Wh);
    }
}

#[test]
fn printer_output_reassembles_for_every_instruction_and_field_value() {
    use pto_runtime::tensix::asm::format_insn;
    let mut rng = fastrand::Rng::with_seed(7);
    for arch in ARCHES {
        for info in OPS.iter().filter(|i| i.available(arch)) {
            for _ in 0..3000 {
                let x = random_insn(&mut rng, info.op, arch);
                let text = format_insn(&x);
                let p = assemble(&text, arch).unwrap_or_else(|e| panic!("`{text}`: {e}"));
                assert_eq!(p.insns, vec![x], "`{text}`");
            }
        }
    }
}
