//! The tt-llk C++ emitter (tensix.md §10.2): a header a tt-metal / tt-llk SFPU kernel includes as
//! is. One file holds every kernel of a `ptoc lower` run (one arch):
//!
//! * `#pragma once`, the tt-llk includes the `TTI_*` macros need (`ckernel_addrmod.h`,
//!   `ckernel_ops.h`, `llk_defs.h`; no SFPI builtins), `namespace ckernel::sfpu`;
//! * per kernel `template <bool APPROXIMATION_MODE> inline void init_<name>()` and
//!   `template <bool APPROXIMATION_MODE, int ITERATIONS = 8> inline void calculate_<name>()`,
//!   named in tt-metal's spelling ([`kernel_name`]: `ptoc_typecast_fp32_to_int32_trunc_satoff`);
//! * `ITERATIONS` counts SFPU rows on every path: a body that handles `rows` rows per run
//!   (the SFPLOADMACRO forms that alternate two registers) loops `d += rows`, with a
//!   `static_assert` that `ITERATIONS` is a multiple of it, so `calculate_<name><A, 8>()`
//!   covers exactly one 8-row face;
//! * a kernel with an SFPLOADMACRO form gets both paths, as tt-llk does: the macro form by
//!   default, the plain program under `#ifdef DISABLE_SFPLOADMACRO`.
//!
//! Words by construction: every `TTI_*` argument is spelled in its field's width
//! ([`cxx_arg`]). tt-llk's `TT_OP_*` macros shift and add the raw arguments without masking,
//! so a negative immediate written as `-31` would borrow into the neighbouring fields and the
//! opcode; `(-31 & 0xfff)` gives exactly the encoder's word (`isa::encode`).
//!
//! The header's comment states the call contract the kernels rely on and do not program
//! themselves: tt-llk's `_llk_math_eltwise_unary_sfpu_init_<SfpuType::typecast>()` sets the
//! address modifiers the loads and stores name, the params wrapper points the Dst base at each
//! face, Dst is in 32-bit mode, and the LRegs each init writes hold until its calculate runs.
//!
//! Invariant: an emitter prints; it never changes a kernel. Argument spelling depends on the
//! operand table only (`isa::OpInfo::operands`), never on a rule.

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::asm::format_insn;
use pto_runtime::tensix::io::Abi;
use pto_runtime::tensix::isa::{Arch, Insn, Kind, Mod0, Operand};

use super::super::builder::Line;
use super::super::schedule::register_writes;
use super::super::TensixKernel;

/// tt-metal's spelling of an element type in typecast kernel names (`fp32`, `fp16b`, `uint16`).
pub fn ttmetal_type_name(t: ElemType) -> &'static str {
    match t {
        ElemType::F32 => "fp32",
        ElemType::BF16 => "fp16b",
        ElemType::F16 => "fp16",
        ElemType::I32 => "int32",
        ElemType::U32 => "uint32",
        ElemType::I16 => "int16",
        ElemType::U16 => "uint16",
        ElemType::I8 => "int8",
        ElemType::U8 => "uint8",
        other => other.ir_name(),
    }
}

/// The C++ identifier of a kernel, in tt-metal's spelling plus rounding and saturation:
/// `ptoc_typecast_fp32_to_int32_trunc_satoff`, `ptoc_vcvt_fp32_to_fp16_rint_satoff_even`.
pub fn kernel_name(k: &TensixKernel) -> String {
    let c = &k.combo;
    let base = format!(
        "{}_to_{}_{}_sat{}",
        ttmetal_type_name(c.src),
        ttmetal_type_name(c.dst),
        c.rounding.name().to_ascii_lowercase(),
        if c.sat { "on" } else { "off" }
    );
    let name = match k.vreg {
        None => format!("ptoc_typecast_{base}"),
        Some(v) => match v.part_name() {
            Some(p) => format!("ptoc_vcvt_{base}_{}", p.to_ascii_lowercase()),
            None => format!("ptoc_vcvt_{base}"),
        },
    };
    let relaxed = if k.nan_any { "_nanany" } else { "" };
    format!("{name}{relaxed}").replace(|c: char| !c.is_ascii_alphanumeric(), "_")
}

/// The TTI macro of an instruction (`TTI_SFPIADD`, `TTI_SFP_STOCH_RND`).
pub fn macro_name(insn: &Insn) -> String {
    match insn.info().mnemonic {
        "sfpstochrnd" => "TTI_SFP_STOCH_RND".to_string(),
        m => format!("TTI_{}", m.to_ascii_uppercase()),
    }
}

/// The macro arguments in TTI order as signed values, reserved fields as 0.
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

/// One argument spelled so that tt-llk's unmasked `(arg << lo)` adds exactly the field's bits:
/// a negative immediate as `(-31 & 0xfff)` (its two's complement in the field's width), Mod0 by
/// its `InstrModLoadStore` name, address modes as `ADDR_MOD_n`, other values as numbers.
pub fn cxx_arg(op: &Operand, v: i64, arch: Arch) -> String {
    let (_, width) = op.range(arch);
    match op.kind {
        Kind::Mod0 => Mod0::ALL
            .get((v & 15) as usize)
            .and_then(|m| m.llk_name())
            .map_or_else(|| v.to_string(), |n| format!("InstrModLoadStore::{n}")),
        Kind::AddrMod => format!("ADDR_MOD_{v}"),
        _ if v < 0 => {
            let mask = (1i64 << width.min(62)) - 1;
            format!("({v} & {mask:#x})")
        }
        _ if v > 9 => format!("{v:#x}"),
        _ => v.to_string(),
    }
}

fn macro_call(insn: &Insn, arch: Arch) -> String {
    if matches!(insn, Insn::Nop) {
        return "TTI_SFPNOP;".to_string();
    }
    let args: Vec<String> = insn
        .info()
        .operands
        .iter()
        .zip(macro_args(insn))
        .map(|(op, v)| cxx_arg(op, v, arch))
        .collect();
    format!("{}({});", macro_name(insn), args.join(", "))
}

fn block(s: &mut String, indent: &str, lines: &[Line], arch: Arch) {
    for l in lines {
        let asm = format_insn(&l.insn);
        let why = if l.comment.is_empty() {
            String::new()
        } else {
            format!(" -- {}", l.comment)
        };
        s.push_str(&format!(
            "{indent}{}  // {asm}{why}\n",
            macro_call(&l.insn, arch)
        ));
    }
}

/// The LRegs an init writes (its VD fields, and L11..L14 set through SFPCONFIG).
pub fn init_lregs(init: &[Line]) -> Vec<u8> {
    let mut mask = 0u32;
    for l in init {
        mask |= match l.insn {
            Insn::Config { dest, .. } if (11..=14).contains(&dest) => 1 << dest,
            Insn::Config { .. } | Insn::LoadMacro { .. } => 0,
            ref i => register_writes(i),
        };
    }
    (0..16u8).filter(|r| mask & (1 << r) != 0).collect()
}

fn lreg_list(regs: &[u8]) -> String {
    if regs.is_empty() {
        return "none".to_string();
    }
    regs.iter()
        .map(|r| format!("L{r}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The file comment: what the kernels assume of their caller (one arch per file).
fn file_comment(arch: Arch) -> String {
    let (load_am, store_am, wh_note) = match arch {
        Arch::Bh => ("ADDR_MOD_7", "ADDR_MOD_6", ""),
        Arch::Wh => (
            "ADDR_MOD_3",
            "ADDR_MOD_2",
            "\n//     (Wormhole: the SFPU address-mode field is 2 bits; with the addr_mod base the\n\
             //     wrapper sets, ADDR_MOD_3 / ADDR_MOD_2 select ADDR_MOD_7 / ADDR_MOD_6)",
        ),
    };
    format!(
        "// Generated by ptoc (ptoc lower --target tensix --emit llk): Tensix SFPU conversion kernels\n\
         // for tt-llk / tt-metal, arch {arch}. Each kernel is proven bit-exact by `ptoc prove` against\n\
         // ptoc's cpu-profile semantics; the words these TTI_* calls produce are tested against ptoc's\n\
         // encoder and run on its simulator (compiler/tests/tensix_llk_cpp.rs).\n\
         //\n\
         // Include path: tt_llk_{dir}/common/inc and tt_llk_{dir}/llk_lib (no SFPI builtins used).\n\
         // Call contract, for every kernel below:\n\
         //   * run inside tt-llk's unary SFPU wrapper: _llk_math_eltwise_unary_sfpu_init_<SfpuType::typecast>()\n\
         //     programs the address modifiers the kernels name: loads use {load_am} (Dst += 0),\n\
         //     stores use {store_am} (Dst += 2, one SFPU row){wh_note};\n\
         //     _llk_math_eltwise_unary_sfpu_params_ points the Dst base at each face and calls\n\
         //     calculate_<name><APPROX, 8>() once per 8-row face (ITERATIONS counts SFPU rows).\n\
         //   * Dst holds 32-bit datums (fp32 dest accumulation); loads move them raw\n\
         //     (InstrModLoadStore::INT32), stores too except a tt-metal UInt16 result (Mod0 9, tt-metal's\n\
         //     SFPSTORE_MODE_SWAP_HI_LO16: the packer reads UInt16 from the high half). Each kernel's\n\
         //     comment gives its I/O contract, the datum form it reads and writes, and the CB formats.\n\
         //   * init_<name><APPROX>() runs once before the first calculate_<name>(); the LRegs it\n\
         //     writes (listed per kernel) must hold their values until the last calculate_<name>().\n",
        arch = super::asm::arch_name(arch),
        dir = match arch {
            Arch::Bh => "blackhole",
            Arch::Wh => "wormhole_b0",
        },
    )
}

/// One file holding `kernels` (all for the same arch; the first one's arch names the file).
/// Kernels with the same [`kernel_name`] are emitted once.
pub fn emit_file(kernels: &[&TensixKernel]) -> String {
    let arch = kernels.first().map_or(Arch::Bh, |k| k.arch);
    let mut s = file_comment(arch);
    s.push_str(
        "\n#pragma once\n\n#include \"ckernel_addrmod.h\"\n#include \"ckernel_ops.h\"\n#include \"llk_defs.h\"\n\n\
         namespace ckernel::sfpu {\n",
    );
    let mut seen: Vec<String> = Vec::new();
    for k in kernels {
        let name = kernel_name(k);
        if seen.contains(&name) {
            continue;
        }
        s.push('\n');
        kernel(&mut s, k, &name);
        seen.push(name);
    }
    s.push_str("\n} // namespace ckernel::sfpu\n");
    s
}

/// The whole header for one kernel.
pub fn emit(k: &TensixKernel) -> String {
    emit_file(&[k])
}

fn kernel(s: &mut String, k: &TensixKernel, name: &str) {
    s.push_str(&format!(
        "// ---- {} {} ({}), rule {}\n",
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
        "// I/O contract {}: src datum: {}; dst datum: {}\n",
        k.abi.name(),
        k.src_datum().describe(),
        k.dst_datum().describe()
    ));
    if k.abi == Abi::TtMetal {
        s.push_str(&format!(
            "// tt-metal: input CB {}, output CB {}, fp32_dest_acc_en = true (32-bit Dst)\n",
            Abi::tt_metal_cb_format(k.combo.src),
            Abi::tt_metal_cb_format(k.combo.dst)
        ));
    }
    if let Some(v) = &k.vreg {
        s.push_str(&format!(
            "// vcvt: calculate_ converts one register at the current Dst base (no ITERATIONS loop: the\n\
             // caller points the Dst base at each register's image).\n{}",
            super::asm::vreg_layout(v).replace("; ", "// ")
        ));
    }
    let plain = Path {
        init: &k.init,
        body: &k.body,
        drain: &k.drain,
        rows: 1,
    };
    let Some(m) = &k.macro_form else {
        s.push_str(&format!(
            "// LRegs init writes (hold them until calculate): {}\n",
            lreg_list(&init_lregs(&k.init))
        ));
        s.push_str("// No SFPLOADMACRO form: this is also the DISABLE_SFPLOADMACRO path.\n");
        functions(s, name, k, &plain);
        return;
    };
    s.push_str(&format!(
        "// LRegs init writes (hold them until calculate): {} (SFPLOADMACRO form), {} (plain)\n",
        lreg_list(&init_lregs(&m.init)),
        lreg_list(&init_lregs(&k.init))
    ));
    s.push_str(&format!(
        "// SFPLOADMACRO form by default ({} row{} per loop step); DISABLE_SFPLOADMACRO selects the plain program.\n",
        m.rows,
        if m.rows == 1 { "" } else { "s" }
    ));
    s.push_str("#ifdef DISABLE_SFPLOADMACRO\n");
    functions(s, name, k, &plain);
    s.push_str("#else\n");
    let macro_path = Path {
        init: &m.init,
        body: &m.body,
        drain: &m.drain,
        rows: m.rows.max(1),
    };
    functions(s, name, k, &macro_path);
    s.push_str("#endif\n");
}

/// One path of a kernel: its sections and the rows one body run handles.
struct Path<'a> {
    init: &'a [Line],
    body: &'a [Line],
    drain: &'a [Line],
    rows: usize,
}

fn functions(s: &mut String, name: &str, k: &TensixKernel, p: &Path<'_>) {
    let arch = k.arch;
    s.push_str(&format!(
        "template <bool APPROXIMATION_MODE>\ninline void init_{name}() {{\n"
    ));
    block(s, "    ", p.init, arch);
    s.push_str("}\n\n");
    if k.vreg.is_some() {
        s.push_str(&format!(
            "template <bool APPROXIMATION_MODE>\ninline void calculate_{name}() {{\n"
        ));
        block(s, "    ", p.body, arch);
        block(s, "    ", p.drain, arch);
        s.push_str("}\n");
        return;
    }
    s.push_str(&format!(
        "template <bool APPROXIMATION_MODE, int ITERATIONS = 8>\ninline void calculate_{name}() {{\n"
    ));
    let step = if p.rows > 1 {
        s.push_str(&format!(
            "    static_assert(ITERATIONS % {r} == 0, \"this form converts {r} rows per loop step\");\n",
            r = p.rows
        ));
        format!("d += {}", p.rows)
    } else {
        "d++".to_string()
    };
    s.push_str(&format!(
        "#pragma GCC unroll 8\n    for (int d = 0; d < ITERATIONS; {step}) {{\n"
    ));
    block(s, "        ", p.body, arch);
    s.push_str("    }\n");
    block(s, "    ", p.drain, arch);
    s.push_str("}\n");
}
