//! `pto.vcvt` rule checks on hand-built IR: each diagnostic of semantics.md §6.4/§8 fires on a
//! minimal case and stays silent on a near miss; availability differs by profile.

mod rules_support;

use ptoc::diag::Severity;
use ptoc::ir::types::ScalarType;
use ptoc::ir::{Part, Rnd, VSat};
use ptoc::target::Profile::{self, A2a3, Cpu, A5};
use rules_support::*;

/// f32 -> f16 with every attribute PTOAS requires.
fn f32_f16() -> Vcvt {
    Vcvt::new(vreg(64, f32()), mask(32), vreg(128, f16()))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::Even)
}

#[test]
fn complete_vcvt_is_clean_everywhere() {
    for p in Profile::ALL {
        assert_eq!(names(&f32_f16().check(p)), Vec::<&str>::new(), "{p}");
    }
    // si32 == i32, and round_mode is an alias key.
    let mut op = Vcvt::new(vreg(64, sint(32)), mask(32), vreg(64, f32())).rnd(Rnd::Z);
    op.rnd_key = "round_mode";
    assert!(op.check(A2a3).is_empty());
    let widen = Vcvt::new(vreg(128, f16()), mask(16), vreg(64, f32())).part(Part::Odd);
    assert!(widen.check(A2a3).is_empty());
}

#[test]
fn not_vreg() {
    let d = Vcvt::new(tb(16, 16, f32()), mask(32), vreg(128, f16())).check(Cpu);
    let e = only(&d, "vcvt-not-vreg");
    assert_eq!(e.span, TY[0]);
    assert!(
        e.message().starts_with(
            "pto.vcvt input must be a !pto.vreg, found '!pto.tile_buf<vec, 16x16xf32>'"
        ),
        "{}",
        e.message()
    );
    let d = Vcvt::new(vreg(64, f32()), mask(32), ptoc::ir::Type::Scalar(f16())).check(Cpu);
    assert_eq!(only(&d, "vcvt-not-vreg").span, RES_TY);
}

#[test]
fn unsupported_elem_type() {
    let d = Vcvt::new(vreg(32, uint(64)), mask(32), vreg(64, f32())).check(A5);
    let e = only(&d, "unsupported-elem-type");
    assert_eq!(e.span, TY[0]);
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(512, int(4))).check(A5);
    assert!(only(&d, "unsupported-elem-type")
        .help
        .as_deref()
        .unwrap_or("")
        .contains("!pto.s4x2"));
}

#[test]
fn vreg_size() {
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(64, f16()))
        .part(Part::Even)
        .check(Cpu);
    let e = only(&d, "vreg-size");
    assert_eq!(
        e.message(),
        "!pto.vreg must hold exactly 256 bytes; 64xf16 holds 128"
    );
    assert_eq!(e.span, RES_TY);
}

#[test]
fn mask_granularity() {
    let d = Vcvt::new(vreg(64, f32()), mask(16), vreg(128, f16()))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::Even)
        .check(Cpu);
    let e = only(&d, "vcvt-mask-granularity");
    assert_eq!(
        e.message(),
        "pto.vcvt mask must be !pto.mask<b32> for f32 input, found '!pto.mask<b16>'"
    );
    assert_eq!(e.span, TY[1]);
    // i64 sources use b32 (there is no b64); 8-bit sources b8.
    let i64 = Vcvt::new(vreg(32, int(64)), mask(32), vreg(64, int(32)))
        .sat(VSat::Sat)
        .part(Part::Even);
    assert!(i64.check(A5).is_empty());
    let fp8 = Vcvt::new(vreg(256, ScalarType::F8E5M2), mask(8), vreg(64, f32())).part(Part::P2);
    assert!(fp8.check(A5).is_empty());
    assert!(has(
        &Vcvt {
            mask: mask(32),
            ..fp8
        }
        .check(A5),
        "vcvt-mask-granularity"
    ));
}

#[test]
fn pair_unsupported() {
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(256, int(8))).check(Cpu);
    let e = only(&d, "vcvt-pair-unsupported");
    assert_eq!(e.message(), "pto.vcvt has no contract for f32 to i8");
    assert_eq!(e.span, NAME);
    // a2a3 offers only its 21 pairs.
    let fp8 = Vcvt::new(vreg(64, f32()), mask(32), vreg(256, ScalarType::F8E4M3FN))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::P0);
    assert!(fp8.check(Cpu).is_empty());
    assert!(fp8.check(A5).is_empty());
    let d = fp8.check(A2a3);
    let e = only(&d, "vcvt-pair-unsupported");
    assert_eq!(
        e.message(),
        "vcvt from f32 to f8E4M3FN is not available on a2a3"
    );
    assert_eq!(
        e.help.as_deref(),
        Some("vcvt from f32 to f8E4M3FN is available on cpu and a5")
    );
}

#[test]
fn attr_forbidden() {
    // sat on f16 -> si32, rnd on f16 -> f32, part on f32 -> si32.
    let d = Vcvt::new(vreg(128, f16()), mask(16), vreg(64, int(32)))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::Even)
        .check(A5);
    let e = only(&d, "vcvt-attr-forbidden");
    assert_eq!(
        e.message(),
        "sat attr is not valid for this vcvt type pair (f16 to i32)"
    );
    assert_eq!(e.span, VSAT);
    let d = Vcvt::new(vreg(128, f16()), mask(16), vreg(64, f32()))
        .rnd(Rnd::R)
        .part(Part::Even)
        .check(A5);
    assert_eq!(only(&d, "vcvt-attr-forbidden").span, RND);
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(64, int(32)))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::Even)
        .check(A5);
    assert_eq!(only(&d, "vcvt-attr-forbidden").span, PART);
}

#[test]
fn part_required() {
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(128, f16()))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .check(A5);
    let e = only(&d, "vcvt-part-required");
    assert_eq!(
        e.message(),
        "requires part attr for this vcvt type pair (f32 to f16); expected EVEN or ODD"
    );
    assert!(!has(&f32_f16().check(A5), "vcvt-part-required"));
}

#[test]
fn part_family_uses_ptoas_text() {
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(256, ScalarType::F8E5M2))
        .rnd(Rnd::R)
        .sat(VSat::Sat)
        .part(Part::Even)
        .check(A5);
    let e = only(&d, "vcvt-part-family");
    assert_eq!(
        e.message(),
        "part must be P0, P1, P2, or P3 for packed vcvt forms"
    );
    assert_eq!(e.span, PART);
    let d = f32_f16().part(Part::P1).check(A5);
    assert_eq!(
        only(&d, "vcvt-part-family").message(),
        "part must be EVEN or ODD for 8/16 and 16/32 vcvt forms"
    );
    // fp4 override: bf16 -> fp4x2 is a width ratio of 2 but takes P0..P3.
    let fp4 = Vcvt::new(vreg(128, bf16()), mask(16), vreg(256, ScalarType::F4E2M1x2)).rnd(Rnd::R);
    assert!(fp4.clone().part(Part::P3).check(A5).is_empty());
    assert!(has(&fp4.part(Part::Odd).check(A5), "vcvt-part-family"));
}

#[test]
fn rnd_not_allowed() {
    let d = Vcvt::new(vreg(128, f16()), mask(16), vreg(256, ScalarType::F8E4M3FN))
        .rnd(Rnd::O)
        .sat(VSat::Sat)
        .part(Part::Even)
        .check(A5);
    let e = only(&d, "vcvt-rnd-not-allowed");
    assert_eq!(
        e.message(),
        "rnd 'O' is not allowed for vcvt from f16 to f8E4M3FN; expected one of R, A, F, Z, C"
    );
    assert_eq!(e.span, RND);
    // H on an "any" pair: rejected by ptoc (PTOAS accepts it).
    let d = f32_f16().rnd(Rnd::H).check(Cpu);
    let e = only(&d, "vcvt-rnd-not-allowed");
    assert!(e
        .help
        .as_deref()
        .unwrap_or("")
        .contains("PTOAS also accepts it"));
    // R is not allowed into hif8.
    let hif8 = Vcvt::new(vreg(128, f16()), mask(16), vreg(256, ScalarType::Hif8))
        .sat(VSat::Sat)
        .part(Part::Even);
    assert!(has(
        &hif8.clone().rnd(Rnd::R).check(A5),
        "vcvt-rnd-not-allowed"
    ));
    assert!(hif8.clone().rnd(Rnd::A).check(A5).is_empty());
}

#[test]
fn hybrid_rounding_is_a_note_where_allowed() {
    let op = Vcvt::new(vreg(64, f32()), mask(32), vreg(256, ScalarType::F8E4M3FN))
        .rnd(Rnd::H)
        .sat(VSat::NoSat)
        .part(Part::P0);
    let d = op.check(A5);
    let n = only(&d, "rounding-hybrid-unsupported");
    assert_eq!((n.severity, n.span), (Severity::Note, RND));
    assert!(errors(&d).is_empty());
}

#[test]
fn attr_defaulted_notes() {
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(128, bf16()))
        .part(Part::Even)
        .check(A2a3);
    assert_eq!(
        names(&d),
        vec!["vcvt-attr-defaulted", "vcvt-attr-defaulted"]
    );
    assert!(d.iter().all(|n| n.severity == Severity::Note));
    assert_eq!(
        d[0].message(),
        "rnd is omitted; PTOAS requires rnd here; ptoc uses R"
    );
    assert_eq!(
        d[1].message(),
        "sat is omitted; PTOAS requires sat here; ptoc uses NOSAT"
    );
    // hif8 defaults to A.
    let d = Vcvt::new(vreg(64, f32()), mask(32), vreg(256, ScalarType::Hif8))
        .sat(VSat::Sat)
        .part(Part::P1)
        .check(A5);
    assert!(only(&d, "vcvt-attr-defaulted")
        .message()
        .ends_with("ptoc uses A"));
    // Pairs without rnd/sat never get the note.
    let d = Vcvt::new(vreg(256, uint(8)), mask(8), vreg(128, uint(16)))
        .part(Part::Even)
        .check(A5);
    assert!(d.is_empty());
}
