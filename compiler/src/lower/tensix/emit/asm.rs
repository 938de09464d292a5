//! The SFPU assembly emitter (tensix.md §10.1, the seed's listing syntax): a comment header, the
//! `; @io` line that `ptoc sim` reads (source and destination types; the I/O contract of
//! `pto_runtime::tensix::io`), then the `; @init`, `; @body`, `; @drain` sections, one
//! instruction per line with the rule's comment.

use pto_runtime::tensix::asm::format_insn;
use pto_runtime::tensix::io::Abi;
use pto_runtime::tensix::isa::Arch;

use super::super::builder::Line;
use super::super::TensixKernel;

/// The arch's name as `ptoc sim --arch` spells it.
pub fn arch_name(arch: Arch) -> &'static str {
    match arch {
        Arch::Bh => "blackhole",
        Arch::Wh => "wormhole",
    }
}

/// The `; @io` header line.
pub fn io_line(k: &TensixKernel) -> String {
    let vcvt = match k.vreg {
        None => String::new(),
        Some(v) => match v.part_name() {
            Some(p) => format!(" op=vcvt part={p}"),
            None => " op=vcvt".to_string(),
        },
    };
    format!(
        "; @io src={} dst={} arch={} rmode={} sat={}{vcvt}{}{}",
        k.combo.src.ir_name(),
        k.combo.dst.ir_name(),
        arch_name(k.arch),
        k.combo.rounding.name(),
        if k.combo.sat { "on" } else { "off" },
        if k.nan_any { " nan=any" } else { "" },
        if k.abi == Abi::Raw {
            String::new()
        } else {
            format!(" abi={}", k.abi.name())
        }
    )
}

/// The Dst image comment of a vcvt program (`lower::tensix::vcvt`).
pub fn vreg_layout(v: &super::super::vcvt::VregShape) -> String {
    format!(
        "; vreg: one register per run; element e of a register of G groups is in SFPU row (e mod G), lane (e div G) of its region; \
         source rows 0..{}, mask rows {}..{} (datum 0 = inactive lane), result rows {}..{}\n",
        v.src_groups(),
        v.src_groups(),
        2 * v.src_groups(),
        2 * v.src_groups(),
        v.rows()
    )
}

/// The header line of a `--nan=any` kernel.
pub const RELAXED_NOTE: &str =
    "; variant: RELAXED (--nan=any): NaN inputs may give any output; every other input is \
     exact, proven with NaN inputs run but not compared (tensix.md §9)\n";

/// The whole listing: the SFPLOADMACRO form when the kernel has one and `plain` is false,
/// else the plain program.
pub fn emit(k: &TensixKernel, plain: bool) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "; ptoc tensix kernel: {} {} ({})\n",
        k.op_name(),
        k.describe(),
        k.family.name()
    ));
    s.push_str(&format!("; rule: {}\n", k.rule));
    for n in &k.notes {
        s.push_str(&format!("; note: {n}\n"));
    }
    s.push_str(&format!(
        "; data: Dst 32-bit, INT32 load/store; src datum: {}; dst datum: {}\n",
        k.src_datum().describe(),
        k.dst_datum().describe()
    ));
    if let Some(v) = &k.vreg {
        s.push_str(&vreg_layout(v));
    }
    if k.nan_any {
        s.push_str(RELAXED_NOTE);
    }
    match (&k.macro_form, plain) {
        (Some(m), false) => {
            s.push_str(
                "; form: SFPLOADMACRO (proven equal to the plain program on every proof input, D5; \
                 `--plain` for the plain form)\n",
            );
            s.push_str(&io_line(k));
            s.push('\n');
            section(&mut s, "init", &m.init);
            section(&mut s, "body", &m.body);
            section(&mut s, "drain", &m.drain);
        }
        _ => {
            s.push_str("; form: plain (no SFPLOADMACRO)\n");
            s.push_str(&io_line(k));
            s.push('\n');
            section(&mut s, "init", &k.init);
            section(&mut s, "body", &k.body);
            section(&mut s, "drain", &k.drain);
        }
    }
    s
}

fn section(s: &mut String, name: &str, lines: &[Line]) {
    s.push_str(&format!("; @{name}\n"));
    let texts: Vec<String> = lines.iter().map(|l| format_insn(&l.insn)).collect();
    let width = texts.iter().map(String::len).max().unwrap_or(0);
    for (t, l) in texts.iter().zip(lines) {
        if l.comment.is_empty() {
            s.push_str(t);
        } else {
            s.push_str(&format!("{t:width$} ; {}", l.comment));
        }
        s.push('\n');
    }
}
