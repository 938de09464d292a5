//! A lowered listing re-proves clean from its text (issue 20 item 7): for one kernel per rule
//! and shape (both archs; the exact and the `--nan any` variants; tcvt and vcvt), the listing
//! `ptoc lower --emit asm` writes — the SFPLOADMACRO form and the `--plain` form — is read back
//! with `header::kernel_of_listing` (what `ptoc prove LISTING` does) and proven on the edge list
//! plus random inputs with zero mismatches and no error. The proof of a listing runs it on
//! `sim_io::run_kernel_words`, the path `ptoc sim` runs it on, so this is also the check that
//! `ptoc sim` and `ptoc prove` agree on every emitted form (macro alternation, init, drain).

use std::collections::BTreeSet;

use pto_runtime::tensix::isa::Arch;
use ptoc::lower::tensix::emit::asm::emit;
use ptoc::lower::tensix::header::kernel_of_listing;
use ptoc::lower::tensix::prove::{prove, ProofOptions};
use ptoc::lower::tensix::vcvt::{all_vcvt, lower_vcvt};
use ptoc::lower::tensix::{lower_combo_with, Combo, TensixKernel};

/// What makes two kernels of one rule different enough to be re-proven separately: the rule,
/// the relaxed variant, the lengths of the plain body and of the macro form, the macro form's
/// rows per run, and (vcvt) the register shape.
type Key = (&'static str, bool, usize, Option<(usize, usize)>, String);

fn key(k: &TensixKernel) -> Key {
    (
        k.rule,
        k.nan_any,
        k.body.len(),
        k.macro_form.as_ref().map(|m| (m.body.len(), m.rows)),
        k.vreg.map(|v| format!("{v:?}")).unwrap_or_default(),
    )
}

/// One kernel per [`Key`] on `arch`.
fn kernels(arch: Arch) -> Vec<TensixKernel> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    let mut keep = |k: TensixKernel| {
        if seen.insert(key(&k)) {
            out.push(k);
        }
    };
    for combo in Combo::all() {
        // `--nan any` only changes kernels of float sources.
        let relaxed: &[bool] = if combo.src.is_float() {
            &[false, true]
        } else {
            &[false]
        };
        for &nan_any in relaxed {
            if let Ok(k) = lower_combo_with(combo, arch, nan_any) {
                keep(k);
            }
        }
    }
    for v in all_vcvt() {
        if let Ok(k) = lower_vcvt(v, arch) {
            keep(k);
        }
    }
    out
}

#[test]
fn every_lowered_listing_reproves_from_its_text() {
    let opts = ProofOptions {
        random: 1 << 10,
        ..ProofOptions::default()
    };
    let mut failures = Vec::new();
    let mut proven = 0;
    let mut macro_forms = 0;
    for arch in [Arch::Bh, Arch::Wh] {
        for k in kernels(arch) {
            let forms: &[bool] = if k.macro_form.is_some() {
                &[false, true]
            } else {
                &[true]
            };
            for &plain in forms {
                let text = emit(&k, plain);
                let what = format!(
                    "{arch:?} {} {} rule {}{}",
                    k.op_name(),
                    k.describe(),
                    k.rule,
                    if plain { " --plain" } else { " (macro form)" }
                );
                let back = match kernel_of_listing(&text, None) {
                    Ok(b) => b,
                    Err(e) => {
                        failures.push(format!("{what}: not read back: {e}"));
                        continue;
                    }
                };
                if back.combo != k.combo || back.arch != arch || back.nan_any != k.nan_any {
                    failures.push(format!(
                        "{what}: the header reads back as {} [{:?}] nan_any={}",
                        back.describe(),
                        back.arch,
                        back.nan_any
                    ));
                    continue;
                }
                let rep = prove(&back, &opts, &|_| {});
                if rep.passed() && rep.mismatches == 0 && rep.error.is_none() {
                    proven += 1;
                    macro_forms += usize::from(!plain);
                } else {
                    failures.push(format!(
                        "{what}: {} mismatches of {} inputs, error {:?}, first {:x?}",
                        rep.mismatches,
                        rep.inputs,
                        rep.error,
                        rep.first.first()
                    ));
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} listings do not re-prove:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(proven > 0 && macro_forms > 0, "{proven} {macro_forms}");
}

/// A proof that stops on a machine error reports the error and is not a pass; it counts only
/// the inputs run before it (the CLI then prints no mismatch count).
#[test]
fn a_listing_that_faults_is_an_error_not_a_count() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    let combo = Combo {
        src: ElemType::F32,
        dst: ElemType::I32,
        rounding: Rounding::Trunc,
        sat: false,
    };
    let k = lower_combo_with(combo, Arch::Bh, false).expect("f32 -> i32 TRUNC lowers");
    // Reading a register nothing wrote is a machine error of the strict simulator.
    let text = emit(&k, true).replace("; @body\n", "; @body\nsfpmov 0, L7, L6, 0\n");
    let back = kernel_of_listing(&text, None).expect("the listing reads back");
    let rep = prove(&back, &ProofOptions::default(), &|_| {});
    assert!(rep.error.is_some(), "{rep:?}");
    assert!(!rep.passed());
    assert_eq!((rep.inputs, rep.mismatches), (0, 0));
}
