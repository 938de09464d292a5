//! Rule checks on parsed text (front end + structure + rules), including spans and lines.

use ptoc::diag::Diagnostic;
use ptoc::front::{parse_module, InputFormat};
use ptoc::target::Profile;

fn verify(text: &str, profile: Profile) -> Vec<Diagnostic> {
    let out = parse_module(text, 0, InputFormat::Pto);
    assert!(
        out.diagnostics.iter().all(|d| !d.is_error()),
        "parse errors: {:?}",
        out.diagnostics
            .iter()
            .map(|d| d.message())
            .collect::<Vec<_>>()
    );
    let m = out.module.expect("module");
    ptoc::verify::verify_module(&m, profile)
}

fn names(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code.name()).collect()
}

fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].matches('\n').count() + 1
}

const TMP_EXAMPLE: &str = r#"module attributes {pto.target_arch = "a2"} {
  func.func @f(%s: !pto.tile_buf<vec, 16x128xf32, valid=16x100>, %t: !pto.tile_buf<vec, 8x64xi32>,
               %d: !pto.tile_buf<vec, 16x128xi16, valid=16x100>) {
    pto.tcvt ins(%s, %t {satmode = #pto<saturation_mode OFF>}
                 : !pto.tile_buf<vec, 16x128xf32, valid=16x100>, !pto.tile_buf<vec, 8x64xi32>)
             outs(%d : !pto.tile_buf<vec, 16x128xi16, valid=16x100>)
    return
  }
}
"#;

#[test]
fn tmp_worked_example_from_text() {
    let d = verify(TMP_EXAMPLE, Profile::A2a3);
    let e = d
        .iter()
        .find(|d| d.code.name() == "tcvt-tmp-too-small")
        .unwrap_or_else(|| panic!("{:?}", names(&d)));
    assert_eq!(
        e.message(),
        "tcvt tmp capacity must be at least 7840 bytes, found 2048"
    );
    // Points at the tmp type on line 5.
    assert_eq!(line_of(TMP_EXAMPLE, e.span.start), 5);
    assert_eq!(&TMP_EXAMPLE[e.span.range()], "!pto.tile_buf<vec, 8x64xi32>");
    // cpu ignores tmp (warning only).
    assert_eq!(
        names(&verify(TMP_EXAMPLE, Profile::Cpu)),
        vec!["tcvt-tmp-ignored"]
    );
}

const PAIR: &str = r#"func.func @g(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xi8>) {
  pto.tcvt ins(%s {rmode = #pto<round_mode ODD>} : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xi8>)
  return
}
"#;

#[test]
fn pair_and_mode_spans_from_text() {
    assert!(verify(PAIR, Profile::Cpu).is_empty());
    let d = verify(PAIR, Profile::A2a3);
    assert_eq!(names(&d), vec!["tcvt-pair-unsupported"]);
    assert_eq!(&PAIR[d[0].span.range()], "pto.tcvt");
    let f16 = PAIR.replace("xi8>", "xf16>").replace("ODD", "FLOOR");
    assert!(verify(&f16, Profile::A5).is_empty());
    let bf16 = PAIR.replace("xi8>", "xbf16>");
    let d = verify(&bf16, Profile::A5);
    assert_eq!(names(&d), vec!["tcvt-odd-unsupported"]);
    assert!(bf16[d[0].span.range()].starts_with("rmode"));
}

const VCVT: &str = r#"module attributes {pto.target_arch = "a5"} {
  func.func @v(%x: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xf16> {
    %y = pto.vcvt %x, %m {rnd = "H", part = "P1"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>
    return %y : !pto.vreg<128xf16>
  }
}
"#;

#[test]
fn vcvt_from_text() {
    let d = verify(VCVT, Profile::A5);
    let mut n = names(&d);
    n.sort_unstable();
    assert_eq!(
        n,
        vec![
            "vcvt-attr-defaulted",
            "vcvt-part-family",
            "vcvt-rnd-not-allowed"
        ]
    );
    for x in &d {
        assert_eq!(line_of(VCVT, x.span.start), 3);
    }
}

#[test]
fn alias_keys_keep_precise_spans() {
    let text = r#"func.func @h(%s: !pto.tile_buf<vec, 16x16xf32>, %d: !pto.tile_buf<vec, 16x16xf16>) {
  pto.tcvt ins(%s {sat_mode = #pto<saturation_mode OFF>} : !pto.tile_buf<vec, 16x16xf32>) outs(%d : !pto.tile_buf<vec, 16x16xf16>)
  return
}
"#;
    let d = verify(text, Profile::A2a3);
    assert_eq!(names(&d), vec!["tcvt-sat-off-ignored"]);
    assert!(text[d[0].span.range()].starts_with("sat_mode"));
    assert!(verify(text, Profile::A5).is_empty());

    let v = r#"func.func @w(%x: !pto.vreg<64xf32>, %m: !pto.mask<b32>) -> !pto.vreg<128xf16> {
  %y = pto.vcvt %x, %m {round_mode = "ROUND_H", sat = "SAT", part = "PART_EVEN"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>
  return %y : !pto.vreg<128xf16>
}
"#;
    let d = verify(v, Profile::Cpu);
    assert_eq!(names(&d), vec!["vcvt-rnd-not-allowed"]);
    assert!(v[d[0].span.range()].starts_with("round_mode"));
}

/// Messages spell operand element types as written (syntax.md §3.7): `si16` stays `si16` and
/// `i16` stays `i16`, in every message that names an operand's type.
#[test]
fn messages_keep_the_written_integer_spelling() {
    let tile = |src: &str, dst: &str, attrs: &str| {
        format!(
            "func.func @f(%s: !pto.tile_buf<vec, 16x16x{src}>, %d: !pto.tile_buf<vec, 16x16x{dst}>) {{\n  pto.tcvt ins(%s {attrs}: !pto.tile_buf<vec, 16x16x{src}>) outs(%d : !pto.tile_buf<vec, 16x16x{dst}>)\n  return\n}}\n"
        )
    };
    let message = |text: &str, p: Profile, name: &str| -> String {
        let d = verify(text, p);
        d.iter()
            .find(|d| d.code.name() == name)
            .map(|d| d.message())
            .unwrap_or_else(|| panic!("no {name}: {:?}", names(&d)))
    };
    let off = "{satmode = #pto<saturation_mode OFF>} ";
    for int in ["si16", "i16"] {
        assert_eq!(
            message(&tile("f32", int, off), Profile::A5, "nonsat-target-defined"),
            format!(
                "results of tcvt from f32 to {int} with satmode OFF are target-defined on hardware \
                 for Inf, NaN and out-of-range inputs; ptoc uses the int64-then-low-bits \
                 convention; A5 may use the PyTorch-compatible sequence for 1-D-contiguous \
                 tiles, which ptoc does not model"
            )
        );
    }
    for int in ["si32", "i32"] {
        let trunc = "{rmode = #pto<round_mode TRUNC>} ";
        assert_eq!(
            message(
                &tile(int, "f16", trunc),
                Profile::A2a3,
                "tcvt-rmode-ignored"
            ),
            format!(
                "rmode TRUNC has no effect on a2a3 tcvt from {int} to f16; the deq path always \
                 rounds RINT"
            )
        );
    }
    // Pair errors and their help name the written spelling too.
    let d = verify(&tile("si8", "f8E4M3FN", ""), Profile::A2a3);
    let e = d
        .iter()
        .find(|d| d.code.name() == "tcvt-pair-unsupported")
        .unwrap_or_else(|| panic!("{:?}", names(&d)));
    assert_eq!(
        e.message(),
        "tcvt from si8 to f8E4M3FN is not supported on a2a3"
    );
    let help = e.help.clone().unwrap_or_default();
    assert!(
        help.starts_with("tcvt from si8 to f8E4M3FN is supported on "),
        "{help}"
    );
    // vcvt: an si32 source keeps its spelling.
    let v = "func.func @v(%v: !pto.vreg<64xsi32>, %m: !pto.mask<b32>) {\n  %r = pto.vcvt %v, %m {rnd = \"R\", part = \"EVEN\"} : !pto.vreg<64xsi32>, !pto.mask<b32> -> !pto.vreg<64xsi32>\n  return\n}\n";
    assert_eq!(
        message(v, Profile::A5, "vcvt-pair-unsupported"),
        "pto.vcvt has no contract for si32 to si32"
    );
}
