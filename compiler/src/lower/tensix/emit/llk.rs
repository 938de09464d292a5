//! The tt-llk style C++ emitter (tensix.md §10.2): `init_<name>()` runs the kernel's init code,
//! `calculate_<name><APPROXIMATION_MODE, ITERATIONS>()` loops the body over ITERATIONS rows and
//! ends with the drain. Every instruction is one `TTI_*` macro with constant arguments in the TTI
//! argument order of the ISA table (`isa::OpInfo::operands`, reserved fields as 0); load/store
//! modes use `InstrModLoadStore::*` and address modes `ADDR_MOD_n`, other fields are numbers
//! followed by the assembly text as a comment.
//!
//! A kernel with an SFPLOADMACRO form gets both paths, as tt-llk does: the macro init and loop by
//! default, the plain ones under `#ifdef DISABLE_SFPLOADMACRO` (the path ttsim can run). A plain
//! kernel has one path and the file says so.

use pto_runtime::tensix::asm::format_insn;
use pto_runtime::tensix::isa::{Insn, Kind, Mod0};

use super::super::builder::Line;
use super::super::TensixKernel;

/// The C++ identifier of a kernel: `ptoc_f32_to_i32_trunc_satoff`.
pub fn kernel_name(k: &TensixKernel) -> String {
    format!("ptoc_{}", k.slug()).replace(['!', '.'], "_")
}

/// The TTI macro of an instruction (`TTI_SFPIADD`, `TTI_SFP_STOCH_RND`).
pub fn macro_name(insn: &Insn) -> String {
    match insn.info().mnemonic {
        "sfpstochrnd" => "TTI_SFP_STOCH_RND".to_string(),
        m => format!("TTI_{}", m.to_ascii_uppercase()),
    }
}

/// The macro arguments in TTI order, reserved fields as 0 (what a recording header sees).
pub fn macro_args(insn: &Insn) -> Vec<i64> {
    let (a, n) = insn.args();
    let mut stored = a.get(..n).unwrap_or(&[]).iter().copied();
    insn.info()
        .operands
        .iter()
        .map(|op| {
            if op.stored() {
                stored.next().unwrap_or(0)
            } else {
                0
            }
        })
        .collect()
}

fn macro_call(insn: &Insn) -> String {
    if matches!(insn, Insn::Nop) {
        return "TTI_SFPNOP;".to_string();
    }
    let args: Vec<String> = insn
        .info()
        .operands
        .iter()
        .zip(macro_args(insn))
        .map(|(op, v)| match op.kind {
            Kind::Mod0 => Mod0::ALL
                .get((v & 15) as usize)
                .and_then(|m| m.llk_name())
                .map_or_else(|| v.to_string(), |n| format!("InstrModLoadStore::{n}")),
            Kind::AddrMod => format!("ADDR_MOD_{v}"),
            _ => v.to_string(),
        })
        .collect();
    format!("{}({});", macro_name(insn), args.join(", "))
}

fn block(s: &mut String, indent: &str, lines: &[Line]) {
    for l in lines {
        let asm = format_insn(&l.insn);
        let why = if l.comment.is_empty() {
            String::new()
        } else {
            format!(" -- {}", l.comment)
        };
        s.push_str(&format!("{indent}{}  // {asm}{why}\n", macro_call(&l.insn)));
    }
}

/// The whole C++ file.
pub fn emit(k: &TensixKernel) -> String {
    let name = kernel_name(k);
    let mut s = String::new();
    s.push_str(&format!(
        "// ptoc tensix kernel: {} {} ({}), rule {}\n",
        k.op_name(),
        k.describe(),
        k.family.name(),
        k.rule
    ));
    for n in &k.notes {
        s.push_str(&format!("// note: {n}\n"));
    }
    if k.nan_any {
        s.push_str(&super::asm::RELAXED_NOTE.replacen(';', "//", 1));
    }
    s.push_str(&format!(
        "// arch: {}; Dst 32-bit (SFPU Fp32 mode), INT32 load/store; src datum: {}; dst datum: {}\n",
        super::asm::arch_name(k.arch),
        k.src_datum().describe(),
        k.dst_datum().describe()
    ));
    if let Some(v) = &k.vreg {
        s.push_str(&format!(
            "// vcvt: calculate_ converts one register at the current Dst base (no ITERATIONS loop: the\n\
             // caller points the Dst base at each register's image).\n{}",
            super::asm::vreg_layout(v).replace("; ", "// ")
        ));
    }
    let looped = k.vreg.is_none();
    let Some(m) = &k.macro_form else {
        s.push_str("// No SFPLOADMACRO: this is also the DISABLE_SFPLOADMACRO path.\n\n");
        functions(&mut s, &name, [&k.init, &k.body, &k.drain], looped);
        return s;
    };
    s.push_str(
        "// SFPLOADMACRO form by default; DISABLE_SFPLOADMACRO selects the plain program.\n\n",
    );
    s.push_str("#ifdef DISABLE_SFPLOADMACRO\n");
    functions(&mut s, &name, [&k.init, &k.body, &k.drain], looped);
    s.push_str("#else\n");
    functions(&mut s, &name, [&m.init, &m.body, &m.drain], looped);
    s.push_str("#endif\n");
    s
}

fn functions(s: &mut String, name: &str, [init, body, drain]: [&[Line]; 3], looped: bool) {
    s.push_str(&format!("inline void init_{name}() {{\n"));
    block(s, "    ", init);
    s.push_str("}\n\n");
    if !looped {
        s.push_str(&format!(
            "template <bool APPROXIMATION_MODE>\ninline void calculate_{name}() {{\n"
        ));
        block(s, "    ", body);
        block(s, "    ", drain);
        s.push_str("}\n");
        return;
    }
    s.push_str(&format!(
        "template <bool APPROXIMATION_MODE, int ITERATIONS>\ninline void calculate_{name}() {{\n"
    ));
    s.push_str("#pragma GCC unroll 8\n    for (int d = 0; d < ITERATIONS; d++) {\n");
    block(s, "        ", body);
    s.push_str("    }\n");
    block(s, "    ", drain);
    s.push_str("}\n");
}
