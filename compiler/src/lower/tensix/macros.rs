//! SFPLOADMACRO forms of short kernels (tensix.md §6) and the typed builder for the macro
//! configuration words that replaces hand-written hex.
//!
//! [`SequenceWord`] / [`MiscWord`] are the §6.1 Sequence and Misc registers as data (one
//! [`Slot`] per sub-unit: source, delay, VD16, use-VB); [`macro_form`] turns a plain body into a
//! one-macro-per-row program when its shape allows:
//!
//! * `load v; store v` — one SFPLOADMACRO whose Store slot (delay 0) writes the loaded
//!   register: 1 cycle/row (the published u16→u32 form);
//! * `load v; w = op(v); store w` where `op` reads only its VC operand (SFPCAST, SFPABS, SFPEXEXP,
//!   SFPEXMAN, SFPMOV, SFPNOT, SFPLZ, SFPDIVP2 without flag writes) — `op` becomes template 0,
//!   scheduled on its sub-unit with VC := the loaded register and VD := L16 (delay 0), and the
//!   Store slot writes L16 one cycle later (two for a MAD-class op): 1 cycle/row (the published
//!   u16→fp32 form).
//!
//! Anything else stays plain. Why this is safe: within a cycle scheduled instructions execute
//! before the regular one issued in it (§6.2 step 3), so the next row's load never clobbers a
//! register a pending slot still reads; and the prover runs every macro kernel against its plain
//! equivalent on every proof input (D5), which also catches a wrong delay (see the mutation test
//! in `compiler/tests/tensix_prove.rs`).

use pto_runtime::tensix::formats::Mod0;
use pto_runtime::tensix::isa::{Arch, Insn, Reg};
use pto_runtime::tensix::sim::{register_reads, unit_of, with_vd, Unit};

use super::builder::{Builder, Line};
use super::schedule::{is_mad, register_writes, touches_flags};

/// What a sub-unit slot of a Sequence runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SlotSrc {
    Nothing,
    Nop,
    /// The Store slot's SFPSTORE.
    Store,
    /// Instruction template 0..=3.
    Template(u8),
}

/// One byte of a Sequence word (§6.2 step 2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slot {
    pub src: SlotSrc,
    /// 0..=7 (7 = never forget).
    pub delay: u8,
    /// Result to L16 (store: read L16).
    pub vd16: bool,
    /// Substitute VB instead of VC.
    pub use_vb: bool,
}

impl Slot {
    pub const EMPTY: Slot = Slot {
        src: SlotSrc::Nothing,
        delay: 0,
        vd16: false,
        use_vb: false,
    };

    pub fn byte(self) -> u8 {
        let src = match self.src {
            SlotSrc::Nothing => 0,
            SlotSrc::Nop => 2,
            SlotSrc::Store => 3,
            SlotSrc::Template(t) => 4 + (t & 3),
        };
        src | (self.delay & 7) << 3 | u8::from(self.vd16) << 6 | u8::from(self.use_vb) << 7
    }
}

/// A Sequence register: byte 0 Simple, 1 MAD, 2 Round, 3 Store.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SequenceWord {
    pub simple: Slot,
    pub mad: Slot,
    pub round: Slot,
    pub store: Slot,
}

impl SequenceWord {
    pub fn word(self) -> u32 {
        u32::from_le_bytes([
            self.simple.byte(),
            self.mad.byte(),
            self.round.byte(),
            self.store.byte(),
        ])
    }
}

/// The Misc register (§6.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MiscWord {
    pub store_mod0: Mod0,
    /// Bit per macro: its Store uses the load's Mod0.
    pub uses_load_mod0: u8,
    /// Bit per sub-unit (Simple, MAD, Round, Store): delays count instructions, not cycles.
    pub delay_in_instructions: u8,
}

impl MiscWord {
    pub fn word(self) -> u16 {
        u16::from(self.store_mod0.bits() & 15)
            | u16::from(self.uses_load_mod0 & 15) << 4
            | u16::from(self.delay_in_instructions & 15) << 8
    }
}

/// A kernel's macro form: init (the plain init plus template, sequence and Misc writes), a
/// one-instruction body and the drain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MacroForm {
    pub init: Vec<Line>,
    pub body: Vec<Line>,
    pub drain: Vec<Line>,
}

/// Unary ops whose only register source is VC (safe to feed from the macro's VD).
fn vc_only(insn: &Insn) -> Option<Reg> {
    let vc = match *insn {
        Insn::Cast { vc, .. }
        | Insn::Abs { vc, .. }
        | Insn::ExExp { vc, .. }
        | Insn::ExMan { vc, .. }
        | Insn::Mov { vc, .. }
        | Insn::Not { vc, .. }
        | Insn::Lz { vc, .. }
        | Insn::DivP2 { vc, .. } => vc,
        _ => return None,
    };
    (!touches_flags(insn) && register_reads(insn) == 1 << vc.0).then_some(vc)
}

/// The macro form of a plain kernel, when its body has one of the shapes of the module doc.
pub fn macro_form(arch: Arch, init: &[Line], body: &[Line]) -> Option<MacroForm> {
    let (first, last) = (body.first()?, body.last()?);
    let Insn::Load { vd: v, .. } = first.insn else {
        return None;
    };
    let Insn::Store { vd: out, .. } = last.insn else {
        return None;
    };
    if v.0 >= 4 {
        return None;
    }
    let mut b = Builder::new(arch);
    let (_, next_row) = b.addr_mods();
    let mut seq = SequenceWord {
        simple: Slot::EMPTY,
        mad: Slot::EMPTY,
        round: Slot::EMPTY,
        store: Slot::EMPTY,
    };
    let what;
    let drain_len;
    match body.len() {
        2 if out == v => {
            seq.store = Slot {
                src: SlotSrc::Store,
                ..Slot::EMPTY
            };
            what = "Store d0 of the loaded register".to_string();
            drain_len = 1;
        }
        3 => {
            let op = &body.get(1)?.insn;
            let w = register_writes(op);
            if vc_only(op)? != v || w != 1 << out.0 {
                return None;
            }
            // Backdoor write of template 0: the op with VD = L12 (`vc_only` ops all have a VD).
            let template = with_vd(op, Reg::L12);
            b.init_op(
                &pto_runtime::tensix::asm::format_insn(&template),
                "template 0 (backdoor write: VD = L12)",
            );
            let slot = Slot {
                src: SlotSrc::Template(0),
                delay: 0,
                vd16: true,
                use_vb: false,
            };
            let latency = if is_mad(op) { 2 } else { 1 };
            match unit_of(op)? {
                Unit::Simple => seq.simple = slot,
                Unit::Mad => seq.mad = slot,
                Unit::Round => seq.round = slot,
                _ => return None,
            }
            seq.store = Slot {
                src: SlotSrc::Store,
                delay: latency,
                vd16: true,
                use_vb: false,
            };
            what = format!(
                "{} (template 0) d0 into L16, Store L16 d{latency}",
                op.info().mnemonic
            );
            drain_len = usize::from(latency) + 1;
        }
        _ => return None,
    }
    let word = seq.word();
    b.init_op(
        &format!("sfploadi L0, USHORT, {:#06x}", word & 0xFFFF),
        &format!("macro 0: {what}"),
    );
    b.init_op(
        &format!("sfploadi L0, UPPER, {:#06x}", word >> 16),
        "  (Sequence[0] high half: Round, Store)",
    );
    b.init_op("sfpconfig 0, 4, 0", "Sequence[0] = L0");
    let misc = MiscWord {
        store_mod0: Mod0::Int32,
        uses_load_mod0: 0,
        delay_in_instructions: 0,
    };
    b.init_op(
        &format!("sfpconfig {:#x}, 8, 1", misc.word()),
        "Misc: StoreMod0 INT32, delays in cycles",
    );
    b.op(
        &format!("sfploadmacro {}, INT32, {next_row}, 0", v.0),
        "load the row into the macro's register; the slots do the rest",
    );
    for _ in 0..drain_len {
        b.op("sfpnop", "drain the scheduled slots");
    }
    if b.error.is_some() {
        return None;
    }
    let mut full_init = init.to_vec();
    full_init.extend(b.init);
    let mut body_lines = b.body;
    let drain = body_lines.split_off(1);
    Some(MacroForm {
        init: full_init,
        body: body_lines,
        drain,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_match_the_published_hex() {
        // u16 -> fp32 (tensix.md §8.5): Simple = template 0, VD16, d0; Store VD16 d1.
        let seq = SequenceWord {
            simple: Slot {
                src: SlotSrc::Template(0),
                delay: 0,
                vd16: true,
                use_vb: false,
            },
            mad: Slot::EMPTY,
            round: Slot::EMPTY,
            store: Slot {
                src: SlotSrc::Store,
                delay: 1,
                vd16: true,
                use_vb: false,
            },
        };
        assert_eq!(seq.word(), 0x4B00_0044);
        let misc = MiscWord {
            store_mod0: Mod0::Fp32,
            uses_load_mod0: 0,
            delay_in_instructions: 1,
        };
        assert_eq!(misc.word(), 0x103);
    }
}
