//! Every combination `lower_combo` accepts is proven bit-exact on both archs (tensix.md §9):
//! ≤16-bit sources exhaustively, 32-bit sources on the edge list plus random patterns (fewer
//! than `ptoc prove`'s default 2^24, to keep CI short; `ptoc prove` runs the full default).

use pto_runtime::tensix::isa::Arch;
use ptoc::lower::tensix::prove::{prove, ProofOptions};
use ptoc::lower::tensix::{lower_combo, Combo, LowerError};

/// The edge list plus 4096 random patterns: enough for the mutation tests, which must fail fast.
fn quick_proof(k: &ptoc::lower::tensix::TensixKernel) -> ptoc::lower::tensix::prove::ProofReport {
    prove(
        k,
        &ProofOptions {
            random: 1 << 12,
            ..ProofOptions::default()
        },
        &|_| {},
    )
}

/// One failing proof, for the list a test prints.
fn failure_line(
    arch: Arch,
    k: &ptoc::lower::tensix::TensixKernel,
    rep: &ptoc::lower::tensix::prove::ProofReport,
) -> String {
    format!(
        "{arch:?} {}: rule {}: {} mismatches of {}, error {:?}, first {:x?}",
        k.combo.describe(),
        k.rule,
        rep.mismatches,
        rep.inputs,
        rep.error,
        rep.first.first()
    )
}

#[test]
fn every_lowered_combination_is_proven_on_both_archs() {
    let opts = ProofOptions {
        random: 1 << 16,
        ..ProofOptions::default()
    };
    let mut proven = 0;
    let mut failures = Vec::new();
    // Developers may narrow the run to one family while iterating on its rules.
    let only = std::env::var("PTOC_PROVE_FAMILY").ok();
    for arch in [Arch::Bh, Arch::Wh] {
        for combo in Combo::all() {
            let family = ptoc::lower::tensix::Family::of(combo.src, combo.dst);
            if only.as_deref().is_some_and(|f| f != family.name()) {
                continue;
            }
            match lower_combo(combo, arch) {
                Ok(k) => {
                    let rep = prove(&k, &opts, &|_| {});
                    if rep.passed() {
                        proven += 1;
                    } else {
                        failures.push(failure_line(arch, &k, &rep));
                    }
                }
                Err(LowerError::Internal { rule, message }) => {
                    failures.push(format!("{arch:?} {}: {rule}: {message}", combo.describe()))
                }
                Err(_) => {}
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(proven > 0);
}

/// The proof is not vacuous: dropping the negation from the f32 -> i32 kernel is caught.
#[test]
fn a_broken_kernel_fails_its_proof() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    let combo = Combo {
        src: ElemType::F32,
        dst: ElemType::I32,
        rounding: Rounding::Trunc,
        sat: false,
    };
    let mut k = lower_combo(combo, Arch::Bh).expect("f32 -> i32 TRUNC is lowered");
    let neg = k
        .body
        .iter()
        .position(|l| l.comment.contains("0 - result"))
        .expect("negation line");
    k.body.remove(neg);
    let rep = quick_proof(&k);
    assert!(rep.mismatches > 0 && !rep.passed());
    // -1.0 is among the edge inputs and must be reported with both outputs.
    assert!(rep.first.iter().all(|m| m.got != Some(m.expected)));
}

/// D5 is not vacuous: a macro form whose Store slot fires one cycle early (delay 0 instead of 1,
/// so it stores L16 before the cast has written it) fails the proof.
#[test]
fn a_mistimed_macro_fails_its_comparison_with_the_plain_program() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    use pto_runtime::tensix::asm::assemble;
    let combo = Combo {
        src: ElemType::U16,
        dst: ElemType::F32,
        rounding: Rounding::Rint,
        sat: false,
    };
    let mut k = lower_combo(combo, Arch::Bh).expect("u16 -> f32 is lowered");
    let good = prove(&k, &ProofOptions::default(), &|_| {});
    assert!(
        good.passed() && good.macro_mismatches == Some(0),
        "{good:?}"
    );
    let m = k.macro_form.as_mut().expect("u16 -> f32 has a macro form");
    let upper = m
        .init
        .iter_mut()
        .find(|l| l.comment.contains("Sequence[0] high half"))
        .expect("sequence line");
    // Store byte 0x4B (L16, delay 1) -> 0x43 (L16, delay 0).
    upper.insn = assemble("sfploadi L0, UPPER, 0x4300", Arch::Bh)
        .expect("asm")
        .insns[0];
    let bad = prove(&k, &ProofOptions::default(), &|_| {});
    assert!(!bad.passed(), "{bad:?}");
}

/// The ui32 clamp's MAD is what repairs the words with bit 31 set (SFPCAST reads them as
/// negative): with `F = f` in its place the proof fails, on such words only, on both archs.
#[test]
fn the_u32_clamp_fails_without_its_mad() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    use pto_runtime::tensix::asm::assemble;
    let combo = Combo {
        src: ElemType::U32,
        dst: ElemType::U16,
        rounding: Rounding::Rint,
        sat: true,
    };
    for arch in [Arch::Bh, Arch::Wh] {
        let mut k = lower_combo(combo, arch).expect("ui32 -> ui16 sat is lowered");
        let mad = k
            .body
            .iter()
            .position(|l| l.comment.contains("F = 2^127"))
            .expect("MAD line");
        k.body[mad].insn = assemble("sfpmov 0, L1, L0, 0", arch).expect("asm").insns[0];
        k.macro_form = None;
        let rep = quick_proof(&k);
        assert!(rep.mismatches > 0 && !rep.passed(), "{arch:?}: {rep:?}");
        assert!(
            rep.first.iter().all(|m| m.input >= 1 << 31),
            "{arch:?}: {:x?}",
            rep.first
        );
    }
}

/// The register rotation is not vacuous: the ui32 clamp's 2-c/row macro form reads `v` five
/// cycles after its load, so it rotates `v` through four registers; loading rows 2 and 3 into
/// the registers of rows 0 and 1 (a 2-register rotation) fails the comparison with the plain
/// program (D5).
#[test]
fn a_macro_rotated_through_too_few_registers_fails() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    let combo = Combo {
        src: ElemType::U32,
        dst: ElemType::U16,
        rounding: Rounding::Rint,
        sat: true,
    };
    let mut k = lower_combo(combo, Arch::Bh).expect("ui32 -> ui16 sat is lowered");
    let good = quick_proof(&k);
    assert!(
        good.passed() && good.macro_mismatches == Some(0),
        "{good:?}"
    );
    let m = k
        .macro_form
        .as_mut()
        .expect("ui32 -> ui16 sat has a macro form");
    assert_eq!(m.rows, 4);
    let loads: Vec<usize> = (0..m.body.len())
        .filter(|&i| m.body[i].comment.starts_with("row "))
        .collect();
    assert_eq!(loads.len(), 4);
    m.body[loads[2]].insn = m.body[loads[0]].insn;
    m.body[loads[3]].insn = m.body[loads[1]].insn;
    let bad = quick_proof(&k);
    assert!(!bad.passed(), "{bad:?}");
}

/// `--nan=any` variants (tensix.md §9 relaxed mode): every combination whose rule has one is
/// proven under the relaxed rule on both archs (NaN inputs run, not compared; every other
/// input exact, macro form equal to the plain program), is cheaper than the exact kernel, and
/// really is relaxed: the exact proof (NaN compared) fails, so the flag is not decorative.
#[test]
fn every_nan_any_variant_is_proven_relaxed_and_is_cheaper() {
    let opts = ProofOptions {
        random: 1 << 14,
        ..ProofOptions::default()
    };
    let mut variants = 0;
    let mut failures = Vec::new();
    for arch in [Arch::Bh, Arch::Wh] {
        for combo in Combo::all() {
            let Ok(k) = ptoc::lower::tensix::lower_combo_with(combo, arch, true) else {
                continue;
            };
            if !k.nan_any {
                continue;
            }
            variants += 1;
            let exact = lower_combo(combo, arch).expect("the exact kernel exists");
            assert!(!exact.nan_any);
            if k.body_len() >= exact.body_len() {
                failures.push(format!(
                    "{arch:?} {}: relaxed {} >= exact {} instructions",
                    combo.describe(),
                    k.body_len(),
                    exact.body_len()
                ));
            }
            let rep = prove(&k, &opts, &|_| {});
            if !rep.passed() || !rep.relaxed || rep.nan_skipped == 0 {
                failures.push(format!("{arch:?} {}: {rep:?}", combo.describe()));
            }
            let mut strict = k.clone();
            strict.nan_any = false;
            let rep = prove(&strict, &opts, &|_| {});
            if rep.passed() {
                failures.push(format!(
                    "{arch:?} {}: the relaxed kernel also passes the exact proof (nothing dropped?)",
                    combo.describe()
                ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(variants > 0);
}

/// `--abi tt-metal` (issue 20): every combination the contract carries is proven under its
/// datums (UInt16 in with unrelated high bits, out in the packer's high half; Int8 as its raw
/// byte). Where neither type is ui16 or i8 the contract equals ptoc's raw one and the kernel is
/// the raw kernel, instruction for instruction; f16 and i16 are refused with a diagnostic.
#[test]
fn every_tt_metal_combination_is_proven_on_both_archs() {
    use pto_runtime::elem::ElemType;
    use pto_runtime::tensix::io::Abi;
    use ptoc::lower::tensix::lower_combo_for;
    let opts = ProofOptions {
        random: 1 << 14,
        ..ProofOptions::default()
    };
    let (mut proven, mut same, mut refused) = (0, 0, 0);
    let mut failures = Vec::new();
    let adapted = |t: ElemType| matches!(t, ElemType::U16 | ElemType::I8);
    for arch in [Arch::Bh, Arch::Wh] {
        for combo in Combo::all() {
            let tm = lower_combo_for(combo, arch, false, Abi::TtMetal);
            if [combo.src, combo.dst]
                .iter()
                .any(|t| matches!(t, ElemType::F16 | ElemType::I16))
            {
                assert!(
                    matches!(tm, Err(LowerError::AbiNotCarried { .. })),
                    "{}",
                    combo.describe()
                );
                refused += 1;
                continue;
            }
            let raw = lower_combo(combo, arch);
            let (Ok(k), Ok(r)) = (tm, raw) else {
                continue;
            };
            if !adapted(combo.src) && !adapted(combo.dst) {
                assert_eq!(k.body, r.body, "{}", combo.describe());
                same += 1;
                continue;
            }
            let rep = prove(&k, &opts, &|_| {});
            if rep.passed() {
                proven += 1;
            } else {
                failures.push(failure_line(arch, &k, &rep));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(
        proven > 300 && same > 300 && refused > 0,
        "{proven} {same} {refused}"
    );
}

/// The tt-metal datums are not vacuous: a raw kernel (no clearing of UInt16's high half, a
/// zero-extended UInt16 store) proven under them fails.
#[test]
fn a_raw_kernel_fails_under_the_tt_metal_contract() {
    use pto_runtime::convert::Rounding;
    use pto_runtime::elem::ElemType;
    use pto_runtime::tensix::io::Abi;
    for (src, dst) in [
        (ElemType::U16, ElemType::F32),
        (ElemType::F32, ElemType::U16),
    ] {
        let combo = Combo {
            src,
            dst,
            rounding: Rounding::Rint,
            sat: true,
        };
        let mut k = lower_combo(combo, Arch::Bh).expect("lowered");
        k.abi = Abi::TtMetal;
        let rep = quick_proof(&k);
        assert!(rep.mismatches > 0, "{}", combo.describe());
    }
}
