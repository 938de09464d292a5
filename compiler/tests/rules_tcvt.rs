//! `pto.tcvt` rule checks on hand-built IR: every diagnostic of semantics.md §8 the verifier
//! owns for tcvt fires on a minimal case and stays silent on a near miss; worked examples of
//! §3 and profile differences.

mod rules_support;

use ptoc::diag::Severity;
use ptoc::ir::types::{BLayout, Dim, Loc, ScalarType};
use ptoc::ir::{RoundMode, Type};
use ptoc::target::Profile::{self, A2a3, Cpu, A5};
use rules_support::*;

fn fp8e4() -> ScalarType {
    ScalarType::F8E4M3FN
}

#[test]
fn clean_conversion_has_no_diagnostics_on_every_profile() {
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16()));
    for p in Profile::ALL {
        assert_eq!(names(&op.check(p)), Vec::<&str>::new(), "{p}");
    }
    let ssa = op.clone().ssa();
    assert!(ssa.check(A5).is_empty());
}

#[test]
fn operand_not_tile() {
    let op = Tcvt::new(vreg(64, f32()), tb(16, 16, f16()));
    let d = op.check(Cpu);
    let e = only(&d, "tcvt-operand-not-tile");
    assert_eq!(e.span, TY[0]);
    assert!(
        e.message()
            .contains("src must be a rank-2 !pto.tile_buf or !pto.tile, found '!pto.vreg<64xf32>'"),
        "{}",
        e.message()
    );
    // SSA dst (the result type) is checked too.
    let d = Tcvt::new(tb(16, 16, f32()), Type::Scalar(f16()))
        .ssa()
        .check(Cpu);
    assert_eq!(only(&d, "tcvt-operand-not-tile").span, RES_TY);
    // A !pto.tile counts as a tile.
    let tile = Type::Tile(ptoc::ir::types::TileType {
        loc: None,
        rows: 16,
        cols: 16,
        elem: f32(),
        valid: None,
    });
    assert!(Tcvt::new(tile, tb(16, 16, f16())).check(A2a3).is_empty());
}

#[test]
fn unsupported_elem_type_with_hints() {
    for four in [int(4), sint(4), uint(4)] {
        let d = Tcvt::new(tb(16, 16, f32()), tb(16, 16, four)).check(Cpu);
        let e = only(&d, "unsupported-elem-type");
        assert_eq!(e.span, TY[1]);
        assert!(e.help.as_deref().unwrap_or("").contains("!pto.s4x2"));
    }
    let d = Tcvt::new(tb(16, 16, uint(64)), tb(16, 16, f32())).check(Cpu);
    let e = only(&d, "unsupported-elem-type");
    assert!(e.message().contains("'ui64'"), "{}", e.message());
    let d = Tcvt::new(
        tb(16, 16, ScalarType::OtherFloat("f8E4M3FNUZ".into())),
        tb(16, 16, f32()),
    )
    .check(A5);
    assert!(has(&d, "unsupported-elem-type"));
    // Near miss: si8 and i8 are the same element type and take part in conversions.
    assert!(Tcvt::new(tb(16, 16, f16()), tb(16, 16, sint(8)))
        .check(Cpu)
        .is_empty());
    assert_eq!(
        errors(&Tcvt::new(tb(16, 16, f16()), tb(16, 16, sint(8))).check(A2a3)),
        Vec::<&str>::new()
    );
}

#[test]
fn valid_exceeds_shape() {
    let d = Tcvt::new(
        tbv(16, 16, f32(), s(20), s(16)),
        tbv(16, 16, f16(), s(20), s(16)),
    )
    .check(Cpu);
    let hits: Vec<_> = d
        .iter()
        .filter(|d| d.code.name() == "tile-valid-exceeds-shape")
        .collect();
    assert_eq!(hits.len(), 2);
    assert!(
        hits[0].message().contains("valid row 20 exceeds rows 16"),
        "{}",
        hits[0].message()
    );
    assert!(Tcvt::new(
        tbv(16, 16, f32(), s(16), s(3)),
        tbv(16, 16, f16(), s(16), s(3))
    )
    .check(Cpu)
    .is_empty());
}

#[test]
fn shape_mismatch_uses_logical_extents() {
    let d = Tcvt::new(tb(16, 16, f32()), tb(16, 32, f16())).check(Cpu);
    let e = only(&d, "tcvt-shape-mismatch");
    assert_eq!(
        e.message(),
        "pto.tcvt src and dst must have the same logical shape, found 16x16 and 16x32"
    );
    assert_eq!(e.span, NAME);
    // bf16 16x16 <-> f4E1M2x2 16x8 (row_major) is legal: the packed dim is doubled.
    let ok = Tcvt::new(tb(16, 16, bf16()), tb(16, 8, ScalarType::F4E1M2x2));
    assert_eq!(names(&ok.check(A5)), vec!["fp4-nan-to-zero"]);
    // col_major packs rows.
    let col = tile_full(
        Loc::Vec,
        8,
        16,
        ScalarType::F4E2M1x2,
        (s(8), s(16)),
        BLayout::ColMajor,
    );
    assert!(!has(
        &Tcvt::new(tb(16, 16, bf16()), col.clone()).check(A5),
        "tcvt-shape-mismatch"
    ));
    let d = Tcvt::new(tb(16, 16, bf16()), tb(16, 16, ScalarType::F4E2M1x2)).check(A5);
    let e = only(&d, "tcvt-shape-mismatch");
    assert!(e
        .notes
        .iter()
        .any(|n| n.message.contains("packs two elements per byte")));
    // s4x2 follows the same rule.
    assert!(!has(
        &Tcvt::new(tb(4, 8, f32()), tb(4, 4, ScalarType::S4x2)).check(Cpu),
        "tcvt-shape-mismatch"
    ));
}

#[test]
fn subview_alloc_tile_skips_the_shape_check() {
    // Only the extent check is skipped; valid shapes must still agree.
    let mut op = Tcvt::new(tb(16, 16, f32()), tbv(32, 32, f16(), s(16), s(16)));
    assert!(has(&op.check(Cpu), "tcvt-shape-mismatch"));
    op.dst_subview = true;
    assert!(op.check(Cpu).is_empty());
    op.dst = tbv(32, 32, f16(), s(16), s(8));
    assert_eq!(names(&op.check(Cpu)), vec!["tcvt-valid-shape-mismatch"]);
}

#[test]
fn shape_mismatch_does_not_cascade_into_valid_shape_mismatch() {
    // Default valid shapes (and explicit ones equal to the shapes) only restate the shapes.
    let d = Tcvt::new(tb(16, 16, f32()), tb(8, 16, f16())).check(Cpu);
    assert_eq!(names(&d), vec!["tcvt-shape-mismatch"]);
    let d = Tcvt::new(
        tbv(16, 16, f32(), s(16), s(16)),
        tbv(8, 16, f16(), s(8), s(16)),
    )
    .check(A5);
    assert_eq!(names(&d), vec!["tcvt-shape-mismatch"]);
    // An explicitly narrower valid shape on either side: both rules.
    let both = vec!["tcvt-shape-mismatch", "tcvt-valid-shape-mismatch"];
    let d = Tcvt::new(tbv(16, 16, f32(), s(8), s(8)), tb(8, 16, f16())).check(Cpu);
    assert_eq!(names(&d), both);
    let d = Tcvt::new(tb(16, 16, f32()), tbv(8, 16, f16(), s(8), s(4))).check(A2a3);
    assert_eq!(names(&d), both);
    // Packed dst with the default valid shape is full in logical terms too.
    let d = Tcvt::new(tb(16, 16, bf16()), tb(16, 16, ScalarType::F4E1M2x2)).check(Cpu);
    assert!(has(&d, "tcvt-shape-mismatch"), "{:?}", names(&d));
    assert!(!has(&d, "tcvt-valid-shape-mismatch"), "{:?}", names(&d));
}

#[test]
fn valid_shape_mismatch() {
    let d = Tcvt::new(
        tbv(16, 128, f32(), s(16), s(100)),
        tbv(16, 128, f16(), s(16), s(64)),
    )
    .check(A5);
    let e = only(&d, "tcvt-valid-shape-mismatch");
    assert!(
        e.message().contains("found 16x100 and 16x64"),
        "{}",
        e.message()
    );
    // Dynamic dims are not compared statically.
    let ok = Tcvt::new(
        tbv(16, 128, f32(), s(16), Dim::Dynamic),
        tbv(16, 128, f16(), s(16), s(64)),
    );
    assert!(ok.check(A5).is_empty());
    // Packed valid cols are doubled too.
    let ok = Tcvt::new(
        tbv(16, 16, bf16(), s(16), s(8)),
        tbv(16, 8, ScalarType::F4E1M2x2, s(16), s(4)),
    );
    assert!(!has(&ok.check(A5), "tcvt-valid-shape-mismatch"));
}

#[test]
fn pair_unsupported_lists_profiles() {
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(8)));
    assert!(op.check(Cpu).is_empty(), "cpu accepts every pair");
    let d = op.check(A2a3);
    let e = only(&d, "tcvt-pair-unsupported");
    assert_eq!(e.message(), "tcvt from f32 to i8 is not supported on a2a3");
    assert_eq!(
        e.help.as_deref(),
        Some("tcvt from f32 to i8 is supported on cpu")
    );
    assert_eq!(e.span, NAME);
    let d = Tcvt::new(tb(16, 16, f32()), tb(16, 16, ScalarType::Hif8)).check(A2a3);
    assert_eq!(
        only(&d, "tcvt-pair-unsupported").help.as_deref(),
        Some("tcvt from f32 to !pto.hif8 is supported on cpu and a5")
    );
    // a2a3-only and a5-only pairs.
    let deq = Tcvt::new(tb(16, 16, int(32)), tb(16, 16, f16()));
    assert!(errors(&deq.check(A2a3)).is_empty());
    assert_eq!(errors(&deq.check(A5)), vec!["tcvt-pair-unsupported"]);
    let u32_i16 = Tcvt::new(tb(16, 16, uint(32)), tb(16, 16, int(16)));
    assert_eq!(errors(&u32_i16.check(A2a3)), vec!["tcvt-pair-unsupported"]);
    assert!(errors(&u32_i16.check(A5)).is_empty());
    // A5 has no f16 -> fp8.
    assert!(has(
        &Tcvt::new(tb(16, 16, f16()), tb(16, 16, fp8e4())).check(A5),
        "tcvt-pair-unsupported"
    ));
}

#[test]
fn rmode_forced() {
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, fp8e4())).rmode(RoundMode::Floor);
    let d = op.check(A5);
    let w = only(&d, "tcvt-rmode-forced");
    assert_eq!(w.severity, Severity::Warning);
    assert_eq!(w.span, RMODE);
    assert_eq!(
        w.message(),
        "rmode FLOOR is replaced by RINT for tcvt from f32 to f8E4M3FN on a5"
    );
    assert!(op.check(Cpu).is_empty(), "cpu honours FLOOR into fp8");
    assert!(op.clone().rmode(RoundMode::Rint).check(A5).is_empty());
    assert!(op.clone().rmode(RoundMode::CastRint).check(A5).is_empty());
    // hif8: forced ROUND on every profile (cpu included); NONE and ROUND are silent.
    let h = Tcvt::new(tb(16, 16, f16()), tb(16, 16, ScalarType::Hif8));
    for p in [Cpu, A5] {
        assert!(
            has(
                &h.clone().rmode(RoundMode::Rint).check(p),
                "tcvt-rmode-forced"
            ),
            "{p}"
        );
        assert!(h.clone().rmode(RoundMode::None).check(p).is_empty(), "{p}");
        assert!(h.clone().rmode(RoundMode::Round).check(p).is_empty(), "{p}");
        assert!(h.check(p).is_empty(), "{p}: omitted rmode is not explicit");
    }
}

#[test]
fn odd_unsupported() {
    let bf = Tcvt::new(tb(16, 16, f32()), tb(16, 16, bf16())).rmode(RoundMode::Odd);
    for p in [A2a3, A5] {
        let d = bf.check(p);
        let w = only(&d, "tcvt-odd-unsupported");
        assert_eq!(w.span, RMODE);
        assert!(
            w.message().ends_with("the default RINT is used"),
            "{}",
            w.message()
        );
    }
    assert!(bf.check(Cpu).is_empty());
    let f16p = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16())).rmode(RoundMode::Odd);
    for p in Profile::ALL {
        assert!(f16p.check(p).is_empty(), "ODD f32->f16 on {p}");
    }
    // FI falls back to TRUNC.
    let d = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(32)))
        .rmode(RoundMode::Odd)
        .check(A2a3);
    assert!(only(&d, "tcvt-odd-unsupported")
        .message()
        .contains("default TRUNC"));
    // cpu: no ODD into E4M3FN or fp4, fine into E5M2.
    assert!(has(
        &Tcvt::new(tb(16, 16, f32()), tb(16, 16, fp8e4()))
            .rmode(RoundMode::Odd)
            .check(Cpu),
        "tcvt-odd-unsupported"
    ));
    assert!(Tcvt::new(tb(16, 16, f32()), tb(16, 16, ScalarType::F8E5M2))
        .rmode(RoundMode::Odd)
        .check(Cpu)
        .is_empty());
    assert!(has(
        &Tcvt::new(tb(16, 16, bf16()), tb(16, 8, ScalarType::F4E2M1x2))
            .rmode(RoundMode::Odd)
            .check(A5),
        "tcvt-odd-unsupported"
    ));
    // The ODD rule applies on a2a3/a5 even to exact pairs (FF↑), not on cpu.
    let wide = Tcvt::new(tb(16, 16, f16()), tb(16, 16, f32())).rmode(RoundMode::Odd);
    assert!(has(&wide.check(A5), "tcvt-odd-unsupported"));
    assert!(wide.check(Cpu).is_empty());
}

#[test]
fn rmode_ignored_on_a2a3_deq() {
    let op = Tcvt::new(tb(16, 16, int(32)), tb(16, 16, f16()));
    let d = op.clone().rmode(RoundMode::Trunc).check(A2a3);
    let w = only(&d, "tcvt-rmode-ignored");
    assert_eq!((w.span, w.severity), (RMODE, Severity::Warning));
    assert!(op.clone().rmode(RoundMode::Rint).check(A2a3).is_empty());
    assert!(op.clone().rmode(RoundMode::CastRint).check(A2a3).is_empty());
    assert!(
        op.clone().rmode(RoundMode::Trunc).check(Cpu).is_empty(),
        "cpu: ordinary IF pair"
    );
}

#[test]
fn sat_off_ignored_on_a2a3() {
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16())).sat(false);
    let d = op.check(A2a3);
    let w = only(&d, "tcvt-sat-off-ignored");
    assert_eq!(w.span, SAT);
    assert_eq!(
        w.message(),
        "satmode OFF is ignored for tcvt from f32 to f16 on a2a3 without a tmp operand; ON is used"
    );
    let mut legacy = op.clone();
    legacy.legacy_sat_key = true;
    assert_eq!(only(&legacy.check(A2a3), "tcvt-sat-off-ignored").span, SAT);
    // Near misses: a5 honours OFF; a tmp makes it honoured; NARROW6 pairs honour it.
    assert!(op.check(A5).is_empty());
    assert!(!has(
        &op.clone().tmp(tb(16, 16, int(32))).check(A2a3),
        "tcvt-sat-off-ignored"
    ));
    assert!(!has(
        &Tcvt::new(tb(16, 16, f16()), tb(16, 16, int(8)))
            .sat(false)
            .check(A2a3),
        "tcvt-sat-off-ignored"
    ));
    // deq ignores OFF even with tmp.
    let deq = Tcvt::new(tb(16, 16, int(32)), tb(16, 16, f16()))
        .sat(false)
        .tmp(tb(16, 16, int(32)));
    assert!(only(&deq.check(A2a3), "tcvt-sat-off-ignored")
        .message()
        .contains("deq path always saturates"));
}

#[test]
fn tmp_roles_per_profile() {
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16())).tmp(tb(16, 16, int(32)));
    let d = op.check(Cpu);
    let w = only(&d, "tcvt-tmp-ignored");
    assert_eq!((w.span, w.severity), (TY[1], Severity::Warning));
    assert_eq!(names(&op.check(A5)), vec!["tcvt-tmp-unused"]);
    assert_eq!(names(&op.check(A2a3)), vec!["tcvt-tmp-unused"]);
    assert_eq!(
        only(&op.check(A5), "tcvt-tmp-unused").severity,
        Severity::Note
    );
    // a2a3: tmp forwards an explicit OFF on a non-NARROW6 pair.
    let fwd = op.clone().sat(false).check(A2a3);
    assert!(only(&fwd, "tcvt-tmp-unused")
        .message()
        .contains("only makes the explicit satmode OFF take effect"));
    // Near miss: on the TORCH path tmp is used.
    let torch = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(16))).tmp(tb(16, 16, int(32)));
    assert!(!has(&torch.check(A2a3), "tcvt-tmp-unused"));
    assert!(has(&torch.clone().sat(true).check(A2a3), "tcvt-tmp-unused"));
}

#[test]
fn tmp_suggested() {
    let op = Tcvt::new(tb(16, 16, f16()), tb(16, 16, int(8)));
    let d = op.check(A2a3);
    assert_eq!(only(&d, "tcvt-tmp-suggested").severity, Severity::Note);
    assert!(!has(
        &op.clone().sat(true).check(A2a3),
        "tcvt-tmp-suggested"
    ));
    assert!(!has(
        &op.clone().tmp(tb(1, 64, int(32))).check(A2a3),
        "tcvt-tmp-suggested"
    ));
    assert!(!has(&op.check(A5), "tcvt-tmp-suggested"));
    // f16 -> ui8 is not in TORCH3 (signed only).
    assert!(!has(
        &Tcvt::new(tb(16, 16, f16()), tb(16, 16, uint(8))).check(A2a3),
        "tcvt-tmp-suggested"
    ));
}

#[test]
fn tmp_not_vec() {
    let mat = tile_full(Loc::Mat, 16, 16, int(32), (s(16), s(16)), BLayout::RowMajor);
    for p in Profile::ALL {
        let d = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16()))
            .tmp(mat.clone())
            .check(p);
        let e = only(&d, "tcvt-tmp-not-vec");
        assert_eq!(
            e.message(),
            "pto.tcvt tmp must be a loc=vec tile, found loc=mat"
        );
        assert_eq!(e.span, TY[1]);
    }
}

#[test]
fn tmp_too_small_worked_example() {
    // §3.5: src f32 16x128, dst i16 16x128 valid 16x100, sat OFF, a2a3: need 7840 bytes.
    let base = Tcvt::new(tb(16, 128, f32()), tbv(16, 128, int(16), s(16), s(100))).sat(false);
    let src_valid = Tcvt {
        src: tbv(16, 128, f32(), s(16), s(100)),
        ..base
    };
    let d = src_valid.clone().tmp(tb(8, 64, int(32))).check(A2a3);
    let e = only(&d, "tcvt-tmp-too-small");
    assert_eq!(
        e.message(),
        "tcvt tmp capacity must be at least 7840 bytes, found 2048"
    );
    assert_eq!(e.span, TY[1]);
    assert!(!has(
        &src_valid.clone().tmp(tb(16, 128, int(32))).check(A2a3),
        "tcvt-tmp-too-small"
    ));
    // Capacity is byte-sized whatever the dtype: 7840 bytes of ui8 pass, 7839 do not.
    assert!(!has(
        &src_valid.clone().tmp(tb(1, 7840, uint(8))).check(A2a3),
        "tcvt-tmp-too-small"
    ));
    assert!(has(
        &src_valid.clone().tmp(tb(1, 7839, uint(8))).check(A2a3),
        "tcvt-tmp-too-small"
    ));
    // Only a2a3 checks it (a5 ignores tmp).
    assert!(!has(
        &src_valid.clone().tmp(tb(8, 64, int(32))).check(A5),
        "tcvt-tmp-too-small"
    ));
    // f16 -> i8 with C = 20: need 192.
    let h = Tcvt::new(
        tbv(4, 32, f16(), s(4), s(20)),
        tbv(4, 32, int(8), s(4), s(20)),
    );
    assert!(!has(
        &h.clone().tmp(tb(1, 48, int(32))).check(A2a3),
        "tcvt-tmp-too-small"
    ));
    let d = h.clone().tmp(tb(1, 47, int(32))).check(A2a3);
    assert_eq!(
        only(&d, "tcvt-tmp-too-small").message(),
        "tcvt tmp capacity must be at least 192 bytes, found 188"
    );
}

#[test]
fn tmp_bound_dynamic_uses_the_worst_case() {
    let op = Tcvt::new(
        tbv(16, 128, f32(), Dim::Dynamic, Dim::Dynamic),
        tbv(16, 128, int(16), Dim::Dynamic, Dim::Dynamic),
    );
    let d = op.clone().tmp(tb(16, 128, int(32))).check(A2a3);
    let n = only(&d, "tcvt-tmp-bound-dynamic");
    assert_eq!(n.severity, Severity::Note);
    // Worst case: R = 16, C mod 64 = 63 -> 32*(15*16 + 8) = 7936 bytes.
    assert!(
        n.message().contains("worst case of 7936 bytes"),
        "{}",
        n.message()
    );
    assert!(!has(&d, "tcvt-tmp-too-small"));
    assert!(has(
        &op.clone().tmp(tb(8, 64, int(32))).check(A2a3),
        "tcvt-tmp-too-small"
    ));
    let static_ = Tcvt::new(tb(16, 128, f32()), tb(16, 128, int(16))).tmp(tb(16, 128, int(32)));
    assert!(!has(&static_.check(A2a3), "tcvt-tmp-bound-dynamic"));
}

#[test]
fn loc_not_vec() {
    let acc = tile_full(Loc::Acc, 16, 16, f32(), (s(16), s(16)), BLayout::RowMajor);
    let d = Tcvt::new(acc, tb(16, 16, f16())).check(Cpu);
    let w = only(&d, "tcvt-loc-not-vec");
    assert_eq!((w.span, w.severity), (TY[0], Severity::Warning));
    assert!(w.message().contains("src is in loc=acc"));
}

#[test]
fn nonsat_target_defined() {
    let a5 = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(16)));
    let d = a5.check(A5);
    let n = only(&d, "nonsat-target-defined");
    assert!(n.message().contains("int64-then-low-bits"));
    assert!(n
        .message()
        .contains("PyTorch-compatible sequence for 1-D-contiguous tiles"));
    assert!(!has(&a5.check(Cpu), "nonsat-target-defined"));
    assert!(!has(
        &a5.clone().sat(true).check(A5),
        "nonsat-target-defined"
    ));
    // a2a3: NARROW6 default OFF gives the note; a non-NARROW6 OFF without tmp becomes ON.
    let d = Tcvt::new(tb(16, 16, f16()), tb(16, 16, int(8))).check(A2a3);
    assert!(!only(&d, "nonsat-target-defined").message().contains("A5"));
    assert!(!has(
        &Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(32)))
            .sat(false)
            .check(A2a3),
        "nonsat-target-defined"
    ));
    let with_tmp = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(32)))
        .sat(false)
        .tmp(tb(16, 16, int(32)));
    assert!(has(&with_tmp.check(A2a3), "nonsat-target-defined"));
    // The TORCH path states its convention.
    let torch = Tcvt::new(tb(16, 16, f32()), tb(16, 16, int(16)))
        .tmp(tb(16, 16, int(32)))
        .check(A2a3);
    assert!(only(&torch, "nonsat-target-defined")
        .message()
        .contains("int32-then-low-bits"));
    // Not FI: no note.
    assert!(!has(
        &Tcvt::new(tb(16, 16, int(32)), tb(16, 16, int(16))).check(A5),
        "nonsat-target-defined"
    ));
}

#[test]
fn fp4_nan_to_zero() {
    let d = Tcvt::new(tb(16, 16, bf16()), tb(16, 8, ScalarType::F4E2M1x2)).check(A5);
    let n = only(&d, "fp4-nan-to-zero");
    assert_eq!((n.span, n.severity), (TY[1], Severity::Note));
    assert!(!has(
        &Tcvt::new(tb(16, 8, ScalarType::F4E2M1x2), tb(16, 16, bf16())).check(A5),
        "fp4-nan-to-zero"
    ));
    assert!(has(
        &Tcvt::new(tb(16, 16, f32()), tb(16, 8, ScalarType::F4E1M2x2)).check(Cpu),
        "fp4-nan-to-zero"
    ));
}

#[test]
fn same_op_differs_by_profile() {
    // f32 -> ui8 is a cpu-test pair: accepted on cpu, rejected on a2a3 and a5.
    let op = Tcvt::new(tb(16, 16, f32()), tb(16, 16, uint(8)));
    assert!(op.check(Cpu).is_empty());
    assert_eq!(errors(&op.check(A2a3)), vec!["tcvt-pair-unsupported"]);
    assert_eq!(errors(&op.check(A5)), vec!["tcvt-pair-unsupported"]);
}

#[test]
fn malformed_ir_does_not_panic() {
    let mut m = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16())).build();
    // Drop the dst operand and the spans: the op is skipped, not indexed blindly.
    if let Some(op) = m.ops.last_mut() {
        op.operands.truncate(1);
        op.operand_types.clear();
    }
    m.spans.ops.clear();
    let _ = run(&m, A2a3);
    let mut m = Tcvt::new(tb(16, 16, f32()), tb(16, 16, f16())).build();
    if let Some(op) = m.ops.last_mut() {
        op.operand_types = vec![Some(ptoc::ir::TypeId(999)), None].into();
    }
    let _ = run(&m, Cpu);
}
