//! Hand-placed SFPLOADMACRO schedules: a rule may describe its macro form directly (templates,
//! Sequence words, the per-row issue stream with its SFPLOADMACROs, the drain) when the
//! search of [`super::macros`] — one SFPLOADMACRO per row — cannot reach the form it wants,
//! e.g. several macros per row loading the same datum into different registers (tensix.md
//! §8.7) or a scheduled instruction reading another macro's register through the template's
//! non-substituted operand.
//!
//! What it owns: turning a [`HandForm`] into a [`MacroForm`] (constants, `SFPCONFIG` of the
//! templates from their encoded words, [`SequenceWord`]s, Misc) and admitting it only when it
//! is hazard-free on the simulator through the §7 cycle model, equal to the plain program on
//! the scheduler's sample inputs, and faster than the plain program — the same admission test
//! the search applies ([`super::macros::check`]). `ptoc prove` then proves it against the plain
//! program on every proof input (D5), so a hand form can only be rejected, never wrong.
//! Results are memoised per (arch, plain body, form).

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use pto_runtime::tensix::isa::{encode, Arch, Insn, Reg};
use pto_runtime::tensix::sim::cycle::steady_state;
use pto_runtime::tensix::sim::kernel::Kernel;

use super::builder::{Builder, Line};
use super::macros::{
    check, init_misc, init_template, plain_reference, prog, MacroForm, SequenceWord,
};

/// A macro schedule written by a rule. Assembly text is in the seed syntax (tensix.md §10.1);
/// every body instruction is issued once per body of `rows` rows, the macros included.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct HandForm {
    /// Lane-uniform constants, allocated in order (L12, L13, L14, L11).
    pub consts: Vec<(u32, String)>,
    /// Further init instructions (registers the body only reads), written after the macro
    /// configuration (which goes through L0): (text, comment).
    pub init: Vec<(String, String)>,
    /// Instruction templates 0..=3: (text, comment).
    pub templates: Vec<(String, String)>,
    /// Sequence words of macros 0..=3 with the comment that explains the slots.
    pub sequences: Vec<(SequenceWord, String)>,
    /// The issue stream of `rows` rows: (text, comment).
    pub body: Vec<(String, String)>,
    /// Rows per body (the register-alternation period, 1 or 2).
    pub rows: usize,
    /// SFPNOPs after the loop until every scheduled instruction has executed.
    pub drain: usize,
}

type Memo = HashMap<(Arch, Vec<Insn>, HandForm), Option<MacroForm>>;

fn memo() -> &'static Mutex<Memo> {
    static MEMO: OnceLock<Mutex<Memo>> = OnceLock::new();
    MEMO.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The macro form of `h` for the plain kernel (`init`, `body`), if it is admitted (module doc).
pub fn hand_form(arch: Arch, init: &[Line], body: &[Line], h: &HandForm) -> Option<MacroForm> {
    let key = (arch, body.iter().map(|l| l.insn).collect(), h.clone());
    if let Ok(m) = memo().lock() {
        if let Some(hit) = m.get(&key) {
            return hit.clone();
        }
    }
    let found = admit(arch, init, body, h);
    if let Ok(mut m) = memo().lock() {
        m.insert(key, found.clone());
    }
    found
}

fn debug(msg: &str) {
    if std::env::var_os("PTOC_MACRO_DEBUG").is_some() {
        eprintln!("hand macro form: {msg}");
    }
}

/// Assembles `h` into a [`MacroForm`] (no admission test).
pub fn assemble(arch: Arch, h: &HandForm) -> Result<MacroForm, String> {
    let mut b = Builder::new(arch);
    for (v, why) in &h.consts {
        let r = b.constant(*v, Reg::L0, why);
        if r.0 < 11 && *v != 0 && *v != 0x3F80_0000 {
            return Err(format!("constant {v:#x}: no programmable register left"));
        }
    }
    for (t, (text, why)) in h.templates.iter().enumerate() {
        let insn = pto_runtime::tensix::asm::assemble(text, arch)
            .map_err(|e| format!("template `{text}`: {e}"))?
            .insns
            .first()
            .copied()
            .ok_or_else(|| format!("template `{text}` is empty"))?;
        let word = encode(&insn, arch).map_err(|e| format!("template `{text}`: {e}"))?;
        init_template(&mut b, t, word, &format!("template {t}: {text} ({why})"));
    }
    for (m, (seq, why)) in h.sequences.iter().enumerate() {
        let word = seq.word();
        b.init_op(
            &format!("sfploadi L0, USHORT, {:#06x}", word & 0xFFFF),
            &format!("macro {m}: {why}"),
        );
        b.init_op(
            &format!("sfploadi L0, UPPER, {:#06x}", word >> 16),
            &format!("  (Sequence[{m}] word {word:#010x})"),
        );
        b.init_op(
            &format!("sfpconfig 0, {}, 0", 4 + m),
            &format!("Sequence[{m}] = L0"),
        );
    }
    init_misc(&mut b);
    // Last: the template and sequence writes above go through L0.
    for (text, why) in &h.init {
        b.init_op(text, why);
    }
    for (text, why) in &h.body {
        b.op(text, why);
    }
    for _ in 0..h.drain {
        b.op("sfpnop", "drain the scheduled slots");
    }
    if let Some(e) = b.error.take() {
        return Err(e);
    }
    let mut body = b.body;
    let drain = body.split_off(body.len() - h.drain);
    Ok(MacroForm {
        init: b.init,
        body,
        drain,
        rows: h.rows,
    })
}

fn admit(arch: Arch, init: &[Line], body: &[Line], h: &HandForm) -> Option<MacroForm> {
    let m = match assemble(arch, h) {
        Ok(m) => m,
        Err(e) => {
            debug(&e);
            return None;
        }
    };
    let plain = Kernel {
        init: prog(init),
        body: prog(body),
        drain: Kernel::default().drain,
    };
    let cfg = super::prove::kernel_sim_config();
    let plain_cycles = steady_state(arch, cfg, &plain.init, &plain.body, &plain.drain, 2)
        .ok()?
        .cycles_per_body;
    let (words, plain_out) = plain_reference(arch, &plain)?;
    // `check` counts cycles per body of `m.rows` rows, the plain body is one row.
    match check(arch, &plain, &plain_out, &m, &words) {
        Some(c) if c < plain_cycles * m.rows as u64 => Some(m),
        Some(c) => {
            debug(&format!(
                "{c} cycles per {} rows, plain {plain_cycles} per row: no gain",
                m.rows
            ));
            None
        }
        None => {
            debug("rejected by the simulator (PTOC_MACRO_DEBUG shows why above)");
            None
        }
    }
}
