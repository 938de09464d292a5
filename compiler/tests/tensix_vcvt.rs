//! `pto.vcvt` on Tensix (`ptoc::lower::tensix::vcvt`): every contract row whose types the
//! kernels carry, with every rnd letter, saturation and part, is lowered and proven on both
//! archs against the reference interpreter's vcvt (whole result registers, random masks); and
//! the prover is shown to catch the faults a placement or mask bug would make.
//!
//! `PTOC_VCVT_RANDOM` sets the random patterns per 32-bit-source proof (default 2^14; 8/16-bit
//! sources are always exhaustive).

use pto_runtime::convert::Rounding;
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::isa::{Arch, Insn, Reg};
use pto_runtime::value::Part;
use ptoc::lower::tensix::builder::Line;
use ptoc::lower::tensix::prove::{prove, ProofOptions};
use ptoc::lower::tensix::vcvt::{all_vcvt, lower_vcvt, VcvtCombo, VregShape};
use ptoc::lower::tensix::{Combo, TensixKernel};

fn opts() -> ProofOptions {
    let random = std::env::var("PTOC_VCVT_RANDOM")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1 << 14);
    ProofOptions {
        random,
        ..ProofOptions::default()
    }
}

#[test]
fn every_carried_vcvt_is_lowered_and_proven_on_both_archs() {
    let all = all_vcvt();
    // 33 contract pairs have carried types on both sides (semantics.md §6.3: all but fp8, hif8, fp4, si64).
    let pairs: std::collections::BTreeSet<_> = all
        .iter()
        .map(|v| (v.elem.src.ir_name(), v.elem.dst.ir_name()))
        .collect();
    assert_eq!(pairs.len(), 33, "{pairs:?}");
    let mut failures = Vec::new();
    let opts = opts();
    for arch in [Arch::Bh, Arch::Wh] {
        for v in &all {
            match lower_vcvt(*v, arch) {
                Err(e) => failures.push(format!("{} {arch:?}: {e}", v.describe())),
                Ok(k) => {
                    let rep = prove(&k, &opts, &|_| {});
                    if !rep.passed() || rep.masked_registers.is_none() {
                        failures.push(format!("{} {arch:?}: {rep:?}", v.describe()));
                    }
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn kernel(src: ElemType, dst: ElemType, part: Option<Part>) -> TensixKernel {
    let v = VcvtCombo {
        elem: Combo {
            src,
            dst,
            rounding: Rounding::Rint,
            sat: false,
        },
        part,
    };
    lower_vcvt(v, Arch::Bh).expect("lowered")
}

fn quick(k: &TensixKernel) -> ptoc::lower::tensix::prove::ProofReport {
    prove(
        k,
        &ProofOptions {
            random: 1 << 10,
            ..ProofOptions::default()
        },
        &|_| {},
    )
}

#[test]
fn the_unmutated_kernels_pass() {
    for k in [
        kernel(ElemType::F32, ElemType::BF16, Some(Part::Odd)),
        kernel(ElemType::I16, ElemType::F32, Some(Part::Even)),
        kernel(ElemType::U32, ElemType::U8, Some(Part::P2)),
    ] {
        assert!(quick(&k).passed(), "{}", k.describe());
    }
}

#[test]
fn a_missing_zero_merge_is_caught_by_the_mask_pass() {
    let mut k = kernel(ElemType::I32, ElemType::F32, None);
    let before = k.body.len();
    k.body.retain(|l| !l.comment.starts_with("zero-merge"));
    assert_eq!(k.body.len(), before - 2, "one zero-merge per group");
    let rep = quick(&k);
    assert!(rep.mismatches > 0, "{rep:?}");
}

#[test]
fn a_result_in_the_wrong_group_is_caught() {
    // EVEN and ODD differ only in the destination rows: storing group 0 where ODD's goes.
    let mut k = kernel(ElemType::F32, ElemType::F16, Some(Part::Even));
    let odd = kernel(ElemType::F32, ElemType::F16, Some(Part::Odd));
    k.body = odd.body.clone();
    let rep = quick(&k);
    assert!(rep.mismatches > 0, "{rep:?}");
}

#[test]
fn a_result_group_never_stored_is_caught() {
    // Without the zero store of the other part's group its rows keep the poison pattern.
    let mut k = kernel(ElemType::U32, ElemType::U8, Some(Part::P1));
    let stores = |b: &[Line]| {
        b.iter()
            .filter(|l| matches!(l.insn, Insn::Store { vd: Reg(9), .. }))
            .count()
    };
    assert_eq!(stores(&k.body), 6, "8 result groups, 2 converted");
    let at = k
        .body
        .iter()
        .rposition(|l| matches!(l.insn, Insn::Store { vd: Reg(9), .. }))
        .expect("a zero store");
    k.body.remove(at);
    assert!(quick(&k).mismatches > 0);
}

#[test]
fn placement_is_group_addressing() {
    // f32 -> f16 (64 -> 128 lanes, r = 2): source group g goes to result group 2g + k.
    let narrow = VregShape {
        src_lanes: 64,
        dst_lanes: 128,
        part: Some(Part::Odd),
    };
    assert_eq!(narrow.moves(), vec![(0, 1), (1, 3)]);
    assert_eq!(narrow.zero_groups(), vec![0, 2]);
    // ui8 -> ui32 (256 -> 64 lanes, r = 4): result group g comes from source group 4g + k.
    let widen = VregShape {
        src_lanes: 256,
        dst_lanes: 64,
        part: Some(Part::P3),
    };
    assert_eq!(widen.moves(), vec![(3, 0), (7, 1)]);
    assert!(widen.zero_groups().is_empty());
    // Element e of a 64-lane register is in group e mod 2, lane e div 2.
    let mut image = Vec::new();
    let src: Vec<u32> = (0..64).collect();
    narrow.place(&src, &[true; 64], 0xFFFF_FFFF, &mut image);
    assert_eq!(image[0], 0);
    assert_eq!(image[32], 1);
    assert_eq!(image[1], 2);
    assert_eq!(image[64..128].iter().filter(|&&m| m == 1).count(), 64);
}

#[test]
fn the_mask_register_never_holds_init_state() {
    // Init code leaves constants and tables (e.g. rne_i32's INDIRECT_VA entries in L0/L1) that
    // every group reads; the mask datum must not overwrite them between groups.
    for arch in [Arch::Bh, Arch::Wh] {
        for v in all_vcvt() {
            let k = lower_vcvt(v, arch).expect("lowered");
            let init_written: Vec<u8> = k.init.iter().filter_map(|l| l.insn.vd_field()).collect();
            for l in k
                .body
                .iter()
                .filter(|l| l.comment.starts_with("mask datums"))
            {
                let Insn::Load { vd, .. } = l.insn else {
                    panic!("mask line is not a load");
                };
                assert!(
                    !init_written.contains(&vd.0),
                    "{} {arch:?}: mask loaded into L{} which init sets",
                    v.describe(),
                    vd.0
                );
            }
        }
    }
}
