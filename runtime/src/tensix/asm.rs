//! SFPU assembly text (tensix.md §10.1, SEED-T syntax): [`assemble`] and the canonical printer
//! [`format_insn`] / [`disassemble`].
//!
//! Syntax: one instruction per line, `mnemonic op, op, …` in TTI macro argument order
//! (destination register last for arithmetic), `;` starts a comment, blank lines are ignored.
//! Registers are `L0`..`L15` (or plain numbers; tt-llk `LREGn`, `LCONST_0`, `LCONST_1`,
//! `LCONST_neg1` are accepted); modifiers are symbols joined by `|` or numbers; load/store Mod0
//! use the tt-llk names; address modes are `ADDR_MOD_n`. No labels (the seed uses none).
//!
//! Invariants: the assembler never panics; every error carries the line, column and byte span of
//! the offending text. `assemble(&disassemble(p))` reproduces `p` bit for bit (the printer only
//! emits forms the assembler reads back to the same field values).

use std::ops::Range;

use super::formats::Mod0;
use super::isa::{self, by_mnemonic, encode, Arch, Insn, Kind, OpInfo, Program};

/// What the assembler expected and did not find.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AsmErrorKind {
    /// Unknown mnemonic.
    #[error("unknown mnemonic `{found}`")]
    UnknownMnemonic { found: String },
    /// The instruction does not exist on the selected arch.
    #[error("`{mnemonic}` does not exist on {arch}")]
    NotOnArch {
        mnemonic: &'static str,
        arch: &'static str,
    },
    /// Wrong operand count.
    #[error("`{mnemonic}` takes {expected} operands, found {found}")]
    OperandCount {
        mnemonic: &'static str,
        expected: usize,
        found: usize,
    },
    /// A token of the wrong shape.
    #[error("expected {expected} for operand `{field}`, found `{found}`")]
    Expected {
        field: &'static str,
        expected: &'static str,
        found: String,
    },
    /// A symbol not in the field's table.
    #[error("unknown symbol `{found}` for operand `{field}`")]
    UnknownSymbol { field: &'static str, found: String },
    /// A value outside the field's range.
    #[error("operand `{field}` = {value} is out of range {min}..={max}")]
    OutOfRange {
        field: &'static str,
        value: i64,
        min: i64,
        max: i64,
    },
}

/// An assembler error with its location (1-based line and column, byte span in the input).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{line}:{column}: {kind}")]
pub struct AsmError {
    /// 1-based line.
    pub line: u32,
    /// 1-based column (in characters).
    pub column: u32,
    /// Byte range in the whole input.
    pub span: Range<usize>,
    /// What went wrong.
    pub kind: AsmErrorKind,
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, body) = match s.strip_prefix('-') {
        Some(b) => (true, b),
        None => (false, s.strip_prefix('+').unwrap_or(s)),
    };
    let v = if let Some(h) = body.strip_prefix("0x").or_else(|| body.strip_prefix("0X")) {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else {
        if body.is_empty() || !body.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        body.parse::<i64>().ok()?
    };
    if v > (1i64 << 40) {
        return None;
    }
    Some(if neg { -v } else { v })
}

fn parse_reg(s: &str) -> Option<i64> {
    let named = match s {
        "LCONST_0" => Some(9),
        "LCONST_1" => Some(10),
        "LCONST_neg1" => Some(11),
        _ => None,
    };
    if named.is_some() {
        return named;
    }
    let num = s
        .strip_prefix("p_sfpu::LREG")
        .or_else(|| s.strip_prefix("LREG"))
        .or_else(|| s.strip_prefix('L'))
        .or_else(|| s.strip_prefix('l'));
    match num {
        Some(n) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => n.parse().ok(),
        _ => parse_int(s),
    }
}

struct Tok<'a> {
    text: &'a str,
    start: usize,
}

/// Assembles `text` for `arch`.
pub fn assemble(text: &str, arch: Arch) -> Result<Program, AsmError> {
    let mut prog = Program::default();
    let mut line_start = 0usize;
    for (ln, raw_line) in text.split_inclusive('\n').enumerate() {
        let line_no = (ln + 1) as u32;
        let code = raw_line.split(';').next().unwrap_or("");
        let code = code.trim_end_matches(['\n', '\r']);
        let err = |off: usize, len: usize, kind: AsmErrorKind| AsmError {
            line: line_no,
            column: (raw_line
                .get(..off)
                .map(|p| p.chars().count())
                .unwrap_or(off)
                + 1) as u32,
            span: line_start + off..line_start + off + len,
            kind,
        };
        let trimmed = code.trim_start();
        if trimmed.trim().is_empty() {
            line_start += raw_line.len();
            continue;
        }
        let m_off = code.len() - trimmed.len();
        let m_len = trimmed
            .find(|c: char| c.is_whitespace())
            .unwrap_or(trimmed.len());
        let mnem = &trimmed[..m_len];
        let lower = mnem.to_ascii_lowercase();
        let inf = by_mnemonic(&lower).ok_or_else(|| {
            err(
                m_off,
                m_len,
                AsmErrorKind::UnknownMnemonic {
                    found: mnem.to_string(),
                },
            )
        })?;
        if !inf.available(arch) {
            return Err(err(
                m_off,
                m_len,
                AsmErrorKind::NotOnArch {
                    mnemonic: inf.mnemonic,
                    arch: arch.name(),
                },
            ));
        }
        // Split operands on commas, keeping byte offsets.
        let rest_off = m_off + m_len;
        let rest = &code[rest_off..];
        let mut toks: Vec<Tok<'_>> = Vec::new();
        if !rest.trim().is_empty() {
            let mut pos = 0usize;
            for piece in rest.split(',') {
                let lead = piece.len() - piece.trim_start().len();
                toks.push(Tok {
                    text: piece.trim(),
                    start: rest_off + pos + lead,
                });
                pos += piece.len() + 1;
            }
        }
        if toks.len() != inf.operands.len() {
            return Err(err(
                rest_off.min(code.len()),
                code.len().saturating_sub(rest_off),
                AsmErrorKind::OperandCount {
                    mnemonic: inf.mnemonic,
                    expected: inf.operands.len(),
                    found: toks.len(),
                },
            ));
        }
        let mut args = Vec::with_capacity(6);
        for (tok, op) in toks.iter().zip(inf.operands) {
            let e = |kind| err(tok.start, tok.text.len(), kind);
            let expected = |what: &'static str| {
                e(AsmErrorKind::Expected {
                    field: op.name,
                    expected: what,
                    found: tok.text.to_string(),
                })
            };
            let (_, w) = op.range(arch);
            let (min, max, v) = match op.kind {
                Kind::Zero => {
                    let v = parse_reg(tok.text).ok_or_else(|| expected("0"))?;
                    (0, 0, v)
                }
                Kind::Reg => {
                    let v = parse_reg(tok.text).ok_or_else(|| expected("a register"))?;
                    (0, (1i64 << w) - 1, v)
                }
                Kind::UImm => {
                    let v = parse_reg(tok.text).ok_or_else(|| expected("an integer"))?;
                    // Negative literals are accepted as two's complement of the field.
                    let v = if v < 0 && v >= -(1i64 << (w - 1)) {
                        v + (1i64 << w)
                    } else {
                        v
                    };
                    (0, (1i64 << w) - 1, v)
                }
                Kind::SImm => {
                    let v = parse_reg(tok.text).ok_or_else(|| expected("an integer"))?;
                    (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1, v)
                }
                Kind::AddrMod => {
                    let v = match tok.text.strip_prefix("ADDR_MOD_") {
                        Some(n) => parse_int(n),
                        None => parse_int(tok.text),
                    }
                    .ok_or_else(|| expected("ADDR_MOD_n"))?;
                    (0, (1i64 << w) - 1, v)
                }
                Kind::Mod0 => {
                    let name = tok
                        .text
                        .strip_prefix("InstrModLoadStore::")
                        .unwrap_or(tok.text);
                    let v = match Mod0::ALL.iter().find(|m| m.llk_name() == Some(name)) {
                        Some(m) => i64::from(m.bits()),
                        None => parse_int(name).ok_or_else(|| {
                            e(AsmErrorKind::UnknownSymbol {
                                field: op.name,
                                found: tok.text.to_string(),
                            })
                        })?,
                    };
                    (0, 15, v)
                }
                Kind::Mod(syms) => {
                    let mut v = 0i64;
                    for part in tok.text.split('|') {
                        let part = part.trim();
                        let x = match syms.lookup(part) {
                            Some(x) => i64::from(x),
                            None => parse_int(part).ok_or_else(|| {
                                e(AsmErrorKind::UnknownSymbol {
                                    field: op.name,
                                    found: part.to_string(),
                                })
                            })?,
                        };
                        v |= x;
                    }
                    (0, (1i64 << w) - 1, v)
                }
            };
            if !(min..=max).contains(&v) {
                return Err(e(AsmErrorKind::OutOfRange {
                    field: op.name,
                    value: v,
                    min,
                    max,
                }));
            }
            if op.stored() {
                args.push(v);
            }
        }
        let insn = Insn::from_args(inf.op, &args);
        // Range checks above make encoding infallible; keep the check as a guard.
        if let Err(x) = encode(&insn, arch) {
            return Err(err(
                m_off,
                code.len() - m_off,
                AsmErrorKind::Expected {
                    field: "instruction",
                    expected: "an encodable instruction",
                    found: x.to_string(),
                },
            ));
        }
        prog.insns.push(insn);
        prog.lines.push(line_no);
        line_start += raw_line.len();
    }
    Ok(prog)
}

fn format_operand(op: &isa::Operand, v: i64) -> String {
    match op.kind {
        Kind::Zero => "0".to_string(),
        Kind::Reg => format!("L{v}"),
        Kind::SImm => v.to_string(),
        Kind::UImm => {
            if op.wh.1 >= 12 && v > 9 {
                format!("{v:#x}")
            } else {
                v.to_string()
            }
        }
        Kind::AddrMod => format!("ADDR_MOD_{v}"),
        Kind::Mod0 => Mod0::ALL
            .get((v & 15) as usize)
            .and_then(|m| m.llk_name())
            .map(str::to_string)
            .unwrap_or_else(|| v.to_string()),
        Kind::Mod(syms) => syms.render(v as u32),
    }
}

fn format_with(inf: &OpInfo, args: &[i64]) -> String {
    let mut out = inf.mnemonic.to_string();
    let mut it = args.iter().copied();
    for (k, op) in inf.operands.iter().enumerate() {
        out.push_str(if k == 0 { " " } else { ", " });
        let v = if op.stored() {
            it.next().unwrap_or(0)
        } else {
            0
        };
        out.push_str(&format_operand(op, v));
    }
    out
}

/// The canonical text of one instruction.
pub fn format_insn(i: &Insn) -> String {
    let (a, n) = i.args();
    format_with(i.info(), a.get(..n).unwrap_or(&[]))
}

/// The canonical text of a program, one instruction per line.
pub fn disassemble(p: &Program) -> String {
    let mut s = String::new();
    for i in &p.insns {
        s.push_str(&format_insn(i));
        s.push('\n');
    }
    s
}

/// Decodes and prints instruction words (one line each).
pub fn disassemble_words(words: &[u32], arch: Arch) -> Result<String, isa::DecodeError> {
    let mut s = String::new();
    for &w in words {
        s.push_str(&format_insn(&isa::decode(w, arch)?));
        s.push('\n');
    }
    Ok(s)
}
