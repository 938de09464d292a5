//! The sequence builder the lowering rules write into: one SFPU instruction per call, written in
//! the seed's assembly syntax (tensix.md §10.1) and assembled at once for the target arch, each
//! with the comment that says *why* it is there. Rules therefore read like the published
//! listings, and the `asm` emitter prints back exactly what a rule wrote.
//!
//! What the builder owns so rules do not repeat it:
//! * the I/O contract: [`Builder::load`] / [`Builder::store`] use the raw `INT32` mode and the
//!   arch's typecast address modes (BH `ADDR_MOD_7` +0 / `ADDR_MOD_6` +2, WH `ADDR_MOD_3` /
//!   `ADDR_MOD_2`), one row per body run;
//! * 32-bit immediates ([`Builder::imm32`]: one SFPLOADI when the value fits a sign- or
//!   zero-extended 16-bit immediate, else two);
//! * programmable constants ([`Builder::constant`]): lane-uniform values placed in L11..L14 by
//!   init code (SFPLOADI into L0, SFPCONFIG), deduplicated; a fifth distinct constant falls back
//!   to a per-row SFPLOADI pair into a scratch register the rule names.
//!
//! Invariant: a rule's text is internal, so an assembly error is a bug in ptoc; it is recorded
//! (not panicked on) and surfaces as `LowerError::Internal` naming the rule and the line.

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::asm::assemble;
use pto_runtime::tensix::io::Abi;
use pto_runtime::tensix::isa::{Arch, Insn, Reg};

/// One emitted instruction with its explanation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub insn: Insn,
    pub comment: String,
}

/// Collects a kernel's init and body sections.
#[derive(Debug)]
pub struct Builder {
    arch: Arch,
    pub(crate) init: Vec<Line>,
    pub(crate) body: Vec<Line>,
    consts: Vec<(u32, Reg)>,
    pub(crate) error: Option<String>,
    /// `--nan=any` was asked for: a rule may drop work that only NaN inputs need.
    pub(crate) nan_any: bool,
    /// The rule did drop such work: the kernel is exact on non-NaN inputs only.
    pub(crate) relaxed: bool,
    /// A macro schedule the rule placed by hand (`hand_macro`), tried before the search.
    pub(crate) hand_macro: Option<super::hand_macro::HandForm>,
    /// The I/O contract and the element types it applies to (`None`: ptoc's raw contract,
    /// nothing to adapt).
    pub(crate) io: Option<(Abi, ElemType, ElemType)>,
}

/// The programmable constant registers, in allocation order.
const CONST_REGS: [Reg; 4] = [Reg::L12, Reg::L13, Reg::L14, Reg::L11];

impl Builder {
    pub fn new(arch: Arch) -> Builder {
        Builder {
            arch,
            init: Vec::new(),
            body: Vec::new(),
            consts: Vec::new(),
            error: None,
            nan_any: false,
            relaxed: false,
            hand_macro: None,
            io: None,
        }
    }

    /// Whether the rule may leave NaN inputs unhandled (`--nan=any`); when it does, it
    /// calls [`Builder::relax`].
    pub fn nan_any(&self) -> bool {
        self.nan_any
    }

    /// Records that the sequence leaves NaN inputs unhandled (only under `--nan=any`).
    pub fn relax(&mut self) {
        self.relaxed = true;
    }

    /// The target arch (rules may pick BH-only instructions).
    pub fn arch(&self) -> Arch {
        self.arch
    }

    fn assemble_line(&mut self, text: &str) -> Option<Insn> {
        match assemble(text, self.arch) {
            Ok(p) if p.insns.len() == 1 => p.insns.first().copied(),
            Ok(p) => {
                self.fail(format!(
                    "`{text}` assembled to {} instructions",
                    p.insns.len()
                ));
                None
            }
            Err(e) => {
                self.fail(format!("`{text}`: {e}"));
                None
            }
        }
    }

    fn fail(&mut self, msg: String) {
        if self.error.is_none() {
            self.error = Some(msg);
        }
    }

    /// Appends one body instruction.
    pub fn op(&mut self, text: &str, comment: &str) {
        if let Some(insn) = self.assemble_line(text) {
            self.body.push(Line {
                insn,
                comment: comment.to_string(),
            });
        }
    }

    /// Appends one init instruction.
    pub fn init_op(&mut self, text: &str, comment: &str) {
        if let Some(insn) = self.assemble_line(text) {
            self.init.push(Line {
                insn,
                comment: comment.to_string(),
            });
        }
    }

    /// The address mode that leaves RWC.Dst unchanged, and the one that advances it one row.
    pub fn addr_mods(&self) -> (&'static str, &'static str) {
        match self.arch {
            Arch::Bh => ("ADDR_MOD_7", "ADDR_MOD_6"),
            Arch::Wh => ("ADDR_MOD_3", "ADDR_MOD_2"),
        }
    }

    /// Loads this row's datum into `reg` (raw INT32, no address increment). Under the tt-metal
    /// contract the datum is then put in ptoc's raw form, which every rule assumes: a UInt16's
    /// unrelated high half is cleared, an Int8's raw byte is sign-extended.
    pub fn load(&mut self, reg: Reg, comment: &str) {
        let (stay, _) = self.addr_mods();
        self.op(&format!("sfpload L{}, INT32, {stay}, 0", reg.0), comment);
        let r = reg.0;
        match self.io {
            Some((Abi::TtMetal, ElemType::U16, _)) => {
                self.op(
                    &format!("sfpshft 16, L{r}, L{r}, IMM"),
                    "tt-metal UInt16 in: clear the unrelated high half",
                );
                self.op(&format!("sfpshft -16, L{r}, L{r}, IMM"), "... (logical)");
            }
            Some((Abi::TtMetal, ElemType::I8, _)) => {
                // x in 0..255 → x − 256·(x ≥ 128) without a constant or a spare register.
                self.op(
                    &format!("sfpiadd -128, L{r}, L{r}, IMM"),
                    "tt-metal Int8 in (raw byte): x - 128; lanes with x < 128",
                );
                self.op(
                    &format!("sfpiadd 256, L{r}, L{r}, IMM|CC_NONE"),
                    "... x + 128 there",
                );
                self.op("sfpencc 0, 0, 0, 0", "all lanes");
                self.op(
                    &format!("sfpiadd -128, L{r}, L{r}, IMM|CC_NONE"),
                    "... sign-extended byte",
                );
            }
            _ => {}
        }
    }

    /// Stores `reg` as this row's result (raw INT32) and advances to the next row. Under the
    /// tt-metal contract an Int8 result leaves as its raw byte and a UInt16 result in the high
    /// half (Mod0 9, tt-metal's `SFPSTORE_MODE_SWAP_HI_LO16`).
    pub fn store(&mut self, reg: Reg, comment: &str) {
        let (_, next) = self.addr_mods();
        let r = reg.0;
        let mode = match self.io {
            // Mod0 9 has no tt-llk name: the assembler takes the number.
            Some((Abi::TtMetal, _, ElemType::U16)) => "9",
            Some((Abi::TtMetal, _, ElemType::I8)) => {
                if r >= 8 {
                    self.fail(format!("tt-metal Int8 store of the constant register L{r}"));
                }
                self.op(
                    &format!("sfpshft 24, L{r}, L{r}, IMM"),
                    "tt-metal Int8 out: keep the low byte",
                );
                self.op(&format!("sfpshft -24, L{r}, L{r}, IMM"), "... (logical)");
                "INT32"
            }
            _ => "INT32",
        };
        self.op(&format!("sfpstore L{r}, {mode}, {next}, 0"), comment);
    }

    /// `reg = value` in the body (predicated like any instruction).
    pub fn imm32(&mut self, reg: Reg, value: u32, comment: &str) {
        for (text, c) in imm32_lines(reg, value, comment) {
            self.op(&text, &c);
        }
    }

    /// A lane-uniform constant register holding `value` (allocated in init code); when the four
    /// programmable registers are taken, `scratch` is loaded in the body instead.
    pub fn constant(&mut self, value: u32, scratch: Reg, comment: &str) -> Reg {
        match value {
            0 => return Reg::L9,
            0x3F80_0000 => return Reg::L10,
            _ => {}
        }
        if let Some(&(_, r)) = self.consts.iter().find(|(v, _)| *v == value) {
            return r;
        }
        let Some(&reg) = CONST_REGS.get(self.consts.len()) else {
            self.imm32(scratch, value, comment);
            return scratch;
        };
        self.consts.push((value, reg));
        for (text, c) in imm32_lines(Reg::L0, value, comment) {
            self.init_op(&text, &c);
        }
        self.init_op(
            &format!("sfpconfig 0, {}, 0", reg.0),
            &format!("L{} = {value:#x} (lane-uniform constant)", reg.0),
        );
        reg
    }
}

/// SFPLOADI lines that set `reg` to `value` in the enabled lanes.
fn imm32_lines(reg: Reg, value: u32, comment: &str) -> Vec<(String, String)> {
    let r = reg.0;
    let lo = value & 0xFFFF;
    let hi = value >> 16;
    if hi == 0 {
        vec![(
            format!("sfploadi L{r}, USHORT, {lo:#x}"),
            comment.to_string(),
        )]
    } else if hi == 0xFFFF && lo & 0x8000 != 0 {
        vec![(
            format!("sfploadi L{r}, SHORT, {lo:#x}"),
            comment.to_string(),
        )]
    } else if lo == 0 {
        vec![(
            format!("sfploadi L{r}, FLOATB, {hi:#x}"),
            comment.to_string(),
        )]
    } else {
        vec![
            (
                format!("sfploadi L{r}, USHORT, {lo:#x}"),
                comment.to_string(),
            ),
            (
                format!("sfploadi L{r}, UPPER, {hi:#x}"),
                format!("  (high half of {value:#x})"),
            ),
        ]
    }
}
