//! Every syntax form of syntax.md §2-§6 parses into the expected IR (kinds, operands, types,
//! attributes, spans); every positive input is a print/parse fixed point (D-26); mangled inputs
//! never panic.

use ptoc::front::{parse_module, InputFormat};
use ptoc::ir::printer::print_module;
use ptoc::ir::types::{AddrSpace, BLayout, Dim, Loc, MaskGranularity, SLayout, Signedness};
use ptoc::ir::{
    Attr, Module, OpId, OpKind, Part, Rnd, RoundMode, ScalarType, TcvtForm, Type, VSat, ValueDef,
};

#[track_caller]
fn parse_ok(src: &str) -> Module {
    parse_fmt_ok(src, InputFormat::Pto)
}

#[track_caller]
fn parse_fmt_ok(src: &str, fmt: InputFormat) -> Module {
    let out = parse_module(src, 0, fmt);
    let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.message()).collect();
    assert!(msgs.is_empty(), "unexpected diagnostics: {msgs:#?}");
    out.module.expect("module")
}

/// The ops of kind `pred`, in walk order.
fn ops_where(m: &Module, pred: impl Fn(&OpKind) -> bool) -> Vec<OpId> {
    m.walk()
        .into_iter()
        .filter(|&o| pred(&m.op(o).kind))
        .collect()
}

fn tcvts(m: &Module) -> Vec<OpId> {
    ops_where(m, |k| matches!(k, OpKind::Tcvt(_)))
}

fn text(src: &str, s: ptoc::diag::Span) -> &str {
    &src[s.range()]
}

const SPEC_EXAMPLE: &str = r#"// Scale-free f32 -> bf16 narrowing of one 32x64 tile.
module attributes {pto.target_arch = "a5"} {
  func.func @narrow_block(%gin: !pto.ptr<f32, gm>, %gout: !pto.ptr<bf16, gm>) attributes {pto.entry} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %rows = arith.constant 32 : index
    %cols = arith.constant 64 : index
    %vin = pto.make_tensor_view %gin, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xf32>
    %vout = pto.make_tensor_view %gout, shape = [%rows, %cols], strides = [%cols, %c1] : !pto.tensor_view<?x?xbf16>
    %pin = pto.partition_view %vin, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<32x64xf32>
    %pout = pto.partition_view %vout, offsets = [%c0, %c0], sizes = [%rows, %cols] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<32x64xbf16>
    %a = pto.alloc_tile : !pto.tile_buf<vec, 32x64xf32>
    %b = pto.alloc_tile : !pto.tile_buf<vec, 32x64xbf16>
    pto.tload ins(%pin : !pto.partition_tensor_view<32x64xf32>) outs(%a : !pto.tile_buf<vec, 32x64xf32>)
    pto.tcvt ins(%a {rmode = #pto<round_mode TRUNC>} : !pto.tile_buf<vec, 32x64xf32>) outs(%b : !pto.tile_buf<vec, 32x64xbf16>)
    pto.tstore ins(%b : !pto.tile_buf<vec, 32x64xbf16>) outs(%pout : !pto.partition_tensor_view<32x64xbf16>)
    "pto.barrier"() {pipe = #pto.pipe<PIPE_ALL>} : () -> ()
    return
  }
}
"#;

const VCVT_EXAMPLE: &str = r#"module attributes {pto.target_arch = "a5"} {
  func.func @pack_pair(%buf: !pto.ptr<f32, ub>, %res: !pto.ptr<f16, ub>) {
    %c0 = arith.constant 0 : index
    %c64 = arith.constant 64 : index
    pto.vecscope {
      %m32 = pto.pset_b32 "PAT_ALL" : !pto.mask<b32>
      %m16 = pto.pset_b16 "PAT_ALL" : !pto.mask<b16>
      %lo = pto.vlds %buf[%c0] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %hi = pto.vlds %buf[%c64] : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>
      %ev = pto.vcvt %lo, %m32 {round_mode = "ROUND_Z", part = "PART_EVEN"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>
      %od = pto.vcvt %hi, %m32 {rnd = "Z", part = "ODD"} : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>
      %mix = pto.vor %ev, %od, %m16 : !pto.vreg<128xf16>, !pto.vreg<128xf16>, !pto.mask<b16> -> !pto.vreg<128xf16>
      pto.vsts %mix, %res[%c0], %m16 : !pto.vreg<128xf16>, !pto.ptr<f16, ub>, !pto.mask<b16>
    }
    return
  }
}
"#;

const TCVT_FORMS: &str = r#"func.func @ssa_round(%x: !pto.tile<vec, 16x64xf32>) -> !pto.tile<vec, 16x64xi16> {
  %y = pto.tcvt %x {rmode = #pto<round_mode ROUND>, satmode = #pto<saturation_mode ON>}
      : !pto.tile<vec, 16x64xf32> -> !pto.tile<vec, 16x64xi16>
  return %y : !pto.tile<vec, 16x64xi16>
}
func.func @ptoas(%w: !pto.tile<8x8xf32>) {
  %h = tcvt %w {rmode = #pto.round_mode<CAST_FLOOR>} : !pto.tile<8x8xf32> -> !pto.tile<8x8xf16>
  return
}
func.func @dps_with_scratch(%s: !pto.tile_buf<vec, 16x128xf16>, %t: !pto.tile_buf<vec, 16x64xi32>,
                            %d: !pto.tile_buf<vec, 16x128xi8>) {
  pto.tcvt ins(%s, %t {rmode = #pto<round_mode TRUNC>, satmode = #pto<saturation_mode OFF>}
               : !pto.tile_buf<vec, 16x128xf16>, !pto.tile_buf<vec, 16x64xi32>)
           outs(%d : !pto.tile_buf<vec, 16x128xi8>)
  return
}
func.func @january(%a: !pto.tile_buf<loc=ub, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>, %b: !pto.tile_buf<vec, 8x32xf16>) {
  pto.tcvt ins(%a : !pto.tile_buf<loc=ub, dtype=f32, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)
           outs(%b : !pto.tile_buf<loc=ub, dtype=f16, rows=8, cols=32, v_row=8, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>) {rmode = #pto<round_mode CEIL>}
  return
}
func.func @generic(%a: !pto.tile_buf<vec, 16x16xf32>, %tmp: !pto.tile_buf<vec, 16x16xf32>, %b: !pto.tile_buf<vec, 16x16xf16>) {
  "pto.tcvt"(%a, %b) {rmode = #pto<round_mode ODD>} : (!pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf16>) -> ()
  "pto.tcvt"(%a, %tmp, %b) <{satmode = #pto<saturation_mode ON>}> : (!pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf32>, !pto.tile_buf<vec, 16x16xf16>) -> ()
  %r = "pto.tcvt"(%a) {sat_mode = #pto<saturation_mode OFF>, pto.note = "x"} : (!pto.tile_buf<vec, 16x16xf32>) -> !pto.tile_buf<vec, 16x16xf16>
  return
}
"#;

#[test]
fn spec_example_module_and_ops() {
    let src = SPEC_EXAMPLE;
    let m = parse_ok(src);
    assert_eq!(m.target_arch(), Some("a5"));
    let funcs = ops_where(&m, |k| matches!(k, OpKind::Func(_)));
    assert_eq!(funcs.len(), 1);
    let f = m.op(funcs[0]);
    let OpKind::Func(fd) = &f.kind else {
        unreachable!()
    };
    assert_eq!(fd.sym, "narrow_block");
    assert!(fd.has_body);
    assert!(f.attrs.contains_key("pto.entry"));
    let body = m.region(f.regions[0]);
    assert_eq!(body.args.len(), 2);
    assert_eq!(
        m.value_type(body.args[0]),
        &Type::Ptr {
            elem: ScalarType::F32,
            space: AddrSpace::Gm
        }
    );
    let t = tcvts(&m);
    assert_eq!(t.len(), 1);
    let op = m.op(t[0]);
    let OpKind::Tcvt(tc) = &op.kind else {
        unreachable!()
    };
    assert_eq!(tc.form, TcvtForm::Dps);
    assert!(!tc.has_tmp);
    assert_eq!(tc.rmode, Some(RoundMode::Trunc));
    assert_eq!(tc.sat, None);
    assert_eq!(op.operands.len(), 2);
    assert_eq!(m.value(op.operands[0]).name, "%a");
    assert!(matches!(
        m.value(op.operands[0]).def,
        ValueDef::Result { .. }
    ));
    let sp = m.op_spans(t[0]);
    assert_eq!(text(src, sp.name), "pto.tcvt");
    assert_eq!(text(src, sp.operands[1]), "%b");
    assert_eq!(
        text(src, sp.operand_types[1].unwrap()),
        "!pto.tile_buf<vec, 32x64xbf16>"
    );
    assert_eq!(
        text(src, sp.attrs["rmode"]),
        "rmode = #pto<round_mode TRUNC>"
    );
    assert!(text(src, sp.op).starts_with("pto.tcvt ins(") && text(src, sp.op).ends_with(")"));
    // Operand types are written and interned equal to the definitions.
    assert_eq!(op.operand_types[0], Some(m.value(op.operands[0]).ty));
    // Generic unknown op.
    let g = ops_where(&m, |k| matches!(k, OpKind::Generic(_)));
    let OpKind::Generic(gd) = &m.op(g[0]).kind else {
        unreachable!()
    };
    assert_eq!(gd.name, "pto.barrier");
    assert!(gd.attrs_written);
    assert_eq!(
        m.op(g[0]).attrs["pipe"],
        Attr::Opaque("#pto.pipe<PIPE_ALL>".into())
    );
    let mtv = ops_where(&m, |k| matches!(k, OpKind::MakeTensorView { .. }));
    assert_eq!(
        m.op(mtv[0]).kind,
        OpKind::MakeTensorView {
            shape: 2,
            strides: 2
        }
    );
    assert_eq!(m.op(mtv[0]).operands.len(), 5);
    let pv = ops_where(&m, |k| matches!(k, OpKind::PartitionView { .. }));
    assert_eq!(
        m.op(pv[0]).operand_types[0].map(|t| m.ty(t).clone()),
        Some(Type::TensorView {
            shape: vec![Dim::Dynamic, Dim::Dynamic],
            elem: ScalarType::F32
        })
    );
}

#[test]
fn tcvt_forms_a_to_e() {
    let m = parse_ok(TCVT_FORMS);
    let t = tcvts(&m);
    assert_eq!(t.len(), 7);
    let k = |i: usize| match &m.op(t[i]).kind {
        OpKind::Tcvt(tc) => tc.clone(),
        _ => unreachable!(),
    };
    // (a)
    assert_eq!(k(0).form, TcvtForm::Ssa);
    assert_eq!(k(0).rmode, Some(RoundMode::Round));
    assert_eq!(k(0).sat.map(|s| (s.on, s.legacy_key)), Some((true, false)));
    assert_eq!(m.op(t[0]).results.len(), 1);
    // (b) bare name, ISA spelling
    assert_eq!(k(1).rmode, Some(RoundMode::Floor));
    assert_eq!(m.value(m.op(t[1]).results[0]).name, "%h");
    // (c) with tmp
    assert_eq!(k(2).form, TcvtForm::Dps);
    assert!(k(2).has_tmp);
    assert_eq!(m.op(t[2]).operands.len(), 3);
    assert_eq!(k(2).sat.map(|s| s.on), Some(false));
    // (d) January trailing dict, legacy types = compact types
    assert_eq!(k(3).rmode, Some(RoundMode::Ceil));
    let src_ty = m.op(t[3]).operand_types[0].unwrap();
    match m.ty(src_ty) {
        Type::TileBuf(tb) => {
            assert_eq!(tb.loc, Loc::Vec);
            assert_eq!((tb.rows, tb.cols, tb.fractal, tb.pad), (8, 32, 512, 0));
            assert_eq!(
                (tb.valid_row, tb.valid_col),
                (Dim::Static(8), Dim::Static(32))
            );
            assert_eq!(
                (tb.blayout, tb.slayout),
                (BLayout::RowMajor, SLayout::NoneBox)
            );
        }
        other => panic!("{other:?}"),
    }
    let b_def = m.value(m.op(t[3]).operands[1]).ty;
    assert_eq!(
        m.op(t[3]).operand_types[1],
        Some(b_def),
        "legacy and compact spellings intern equal"
    );
    // (e) generic: D-22 order
    assert_eq!(k(4).form, TcvtForm::Dps);
    assert!(!k(4).has_tmp);
    assert_eq!(k(4).rmode, Some(RoundMode::Odd));
    assert!(k(5).has_tmp);
    assert_eq!(k(5).sat.map(|s| s.on), Some(true));
    assert_eq!(m.op(t[5]).operands.len(), 3);
    assert_eq!(k(6).form, TcvtForm::Ssa);
    assert_eq!(k(6).sat.map(|s| (s.on, s.legacy_key)), Some((false, true)));
}

#[test]
fn generic_tcvt_with_result_is_ssa_and_keeps_dotted_keys() {
    let src = "func.func @g(%a: !pto.tile_buf<vec, 16x16xf32>) {\n  %r = \"pto.tcvt\"(%a) {sat_mode = #pto<saturation_mode OFF>, pto.note = \"x\"} : (!pto.tile_buf<vec, 16x16xf32>) -> !pto.tile_buf<vec, 16x16xf16>\n  return\n}\n";
    let m = parse_ok(src);
    let t = tcvts(&m)[0];
    let OpKind::Tcvt(tc) = &m.op(t).kind else {
        unreachable!()
    };
    assert_eq!(tc.form, TcvtForm::Ssa);
    assert_eq!(tc.sat.map(|s| (s.on, s.legacy_key)), Some((false, true)));
    assert_eq!(m.op(t).attrs["pto.note"], Attr::Str("x".into()));
    assert_eq!(m.op(t).results.len(), 1);
}

#[test]
fn vcvt_and_vector_ops() {
    let src = VCVT_EXAMPLE;
    let m = parse_ok(src);
    let v = ops_where(&m, |k| matches!(k, OpKind::Vcvt(_)));
    assert_eq!(v.len(), 2);
    let OpKind::Vcvt(a) = &m.op(v[0]).kind else {
        unreachable!()
    };
    assert_eq!(
        (a.rnd, a.sat, a.part),
        (Some(Rnd::Z), None, Some(Part::Even))
    );
    assert_eq!(
        text(src, m.op_spans(v[0]).attrs["rnd"]),
        "round_mode = \"ROUND_Z\""
    );
    let vs = ops_where(&m, |k| matches!(k, OpKind::VecScope));
    assert_eq!(m.op(vs[0]).regions.len(), 1);
    assert_eq!(m.region(m.op(vs[0]).regions[0]).ops.len(), 8);
    assert_eq!(m.region(m.op(vs[0]).regions[0]).parent_op, Some(vs[0]));
    let vsts = ops_where(&m, |k| matches!(k, OpKind::Vsts));
    assert_eq!(m.op(vsts[0]).operands.len(), 4);
    assert_eq!(m.op(vsts[0]).operand_types[2], None);
    let pset = ops_where(&m, |k| matches!(k, OpKind::Pset { .. }));
    assert_eq!(
        m.op(pset[0]).kind,
        OpKind::Pset {
            granularity: MaskGranularity::B32,
            pattern: "PAT_ALL".into()
        }
    );
    let vt = m.value_type(m.op(v[0]).results[0]);
    assert_eq!(
        vt,
        &Type::VReg {
            lanes: 128,
            elem: ScalarType::F16
        }
    );
}

#[test]
fn result_groups_and_result_numbers() {
    let src = "func.func @p(%n: i32) {\n  %m:2 = pto.plt_b16 %n : i32 -> !pto.mask<b16>, i32\n  %a, %b = pto.plt_b32 %n : i32 -> !pto.mask<b32>, i32\n  \"x.use\"(%m#1, %b, %m#5, %a#0) : (i32, i32, i32, !pto.mask<b32>) -> ()\n  return\n}\n";
    let m = parse_ok(src);
    let plt = ops_where(&m, |k| matches!(k, OpKind::Plt { .. }));
    let g = &m.op(plt[0]).result_groups;
    assert_eq!(
        (g[0].name.as_str(), g[0].count, g[0].explicit_count),
        ("%m", 2, true)
    );
    assert_eq!(m.value(m.op(plt[0]).results[1]).name, "%m#1");
    assert_eq!(m.op(plt[1]).result_groups.len(), 2);
    let u = ops_where(&m, |k| matches!(k, OpKind::Generic(_)))[0];
    let ops = &m.op(u).operands;
    assert_eq!(ops[0], m.op(plt[0]).results[1]);
    assert_eq!(ops[1], m.op(plt[1]).results[1]);
    assert_eq!(
        m.value(ops[2]).def,
        ValueDef::BadResultNumber {
            op: plt[0],
            index: 5,
            count: 2
        }
    );
    assert_eq!(ops[3], m.op(plt[1]).results[0]);
}

#[test]
fn binding_takes_latest_definition_across_regions() {
    let src = "func.func @s() {\n  pto.vecscope {\n    %x = arith.constant 1 : i32\n  }\n  \"x.use\"(%x, %y) : (i32, f32) -> ()\n  %x = arith.constant 2 : i32\n  \"x.use\"(%x) : (i32) -> ()\n  return\n}\n";
    let m = parse_ok(src);
    let c = ops_where(&m, |k| matches!(k, OpKind::ArithConstant { .. }));
    let u = ops_where(&m, |k| matches!(k, OpKind::Generic(_)));
    assert_eq!(m.op(u[0]).operands[0], m.op(c[0]).results[0]);
    let y = m.value(m.op(u[0]).operands[1]);
    assert_eq!(y.def, ValueDef::Unresolved);
    assert_eq!(m.ty(y.ty), &Type::Scalar(ScalarType::F32));
    assert_eq!(m.op(u[1]).operands[0], m.op(c[1]).results[0]);
}

#[test]
fn types_of_section_3() {
    let src = r#"func.func @t(%a: !pto.tile_buf<mat, 32x32xbf16, blayout=col_major, slayout=row_major, fractal=1024>,
    %b: !pto.tile_buf<vec, 8x64xi8, valid=8x?>, %c: !pto.tile_buf<vec, 16x16xf32, valid=0x16>,
    %d: !pto.tile<vec, 16x16xf32, valid=8x?>, %e: !pto.ptr<f16, vec>, %f: !pto.tile_view<4x4xf32>,
    %g: !pto.tensor_view<2xf32>, %h: !pto.vreg<256x!pto.f4E2M1x2>, %i: !pto.vreg<64xui32>,
    %j: memref<4x?xf32, strided<[?, 1]>>, %k: !foo.bar<"x", [1, 2]>, %l: ui64, %m: i4, %n: f8E4M3FNUZ,
    %o: !pto.s4x2, %p: !pto.hif8, %q: si17, %r: (i32, f32) -> (), %s: !pto.tile_buf<"left", 16x16xf16, pad=3, compact=2>,
    %t: !pto.tile_buf<loc=acc, dtype=f32, rows=16, cols=16, v_row=?, v_col=-1, blayout=col_major, slayout=row_major, fractal=1024, pad=1, compact=1>) {
  return
}
"#;
    let m = parse_ok(src);
    let f = ops_where(&m, |k| matches!(k, OpKind::Func(_)))[0];
    let args = &m.region(m.op(f).regions[0]).args;
    let ty = |i: usize| m.value_type(args[i]).clone();
    match ty(1) {
        Type::TileBuf(t) => assert_eq!((t.valid_row, t.valid_col), (Dim::Static(8), Dim::Dynamic)),
        o => panic!("{o:?}"),
    }
    match ty(2) {
        Type::TileBuf(t) => assert_eq!(
            (t.valid_row, t.valid_col),
            (Dim::Static(0), Dim::Static(16))
        ),
        o => panic!("{o:?}"),
    }
    match ty(3) {
        Type::Tile(t) => assert_eq!(t.valid, Some((Dim::Static(8), Dim::Dynamic))),
        o => panic!("{o:?}"),
    }
    assert_eq!(
        ty(4),
        Type::Ptr {
            elem: ScalarType::F16,
            space: AddrSpace::Ub
        }
    );
    assert_eq!(
        ty(5),
        Type::PartitionView {
            shape: vec![Dim::Static(4); 2],
            elem: ScalarType::F32
        }
    );
    assert_eq!(
        ty(6),
        Type::TensorView {
            shape: vec![Dim::Dynamic; 2],
            elem: ScalarType::F32
        }
    );
    assert_eq!(
        ty(7),
        Type::VReg {
            lanes: 256,
            elem: ScalarType::F4E2M1x2
        }
    );
    assert_eq!(
        ty(9),
        Type::Opaque("memref<4x?xf32, strided<[?, 1]>>".into())
    );
    assert_eq!(ty(10), Type::Opaque("!foo.bar<\"x\", [1, 2]>".into()));
    assert_eq!(
        ty(11),
        Type::Scalar(ScalarType::Int {
            width: 64,
            signedness: Signedness::Unsigned
        })
    );
    assert_eq!(
        ty(12),
        Type::Scalar(ScalarType::Int {
            width: 4,
            signedness: Signedness::Signless
        })
    );
    assert_eq!(
        ty(13),
        Type::Scalar(ScalarType::OtherFloat("f8E4M3FNUZ".into()))
    );
    assert_eq!(ty(14), Type::Scalar(ScalarType::S4x2));
    assert_eq!(
        ty(16),
        Type::Scalar(ScalarType::Int {
            width: 17,
            signedness: Signedness::Signed
        })
    );
    assert!(matches!(ty(17), Type::Function { .. }));
    match ty(18) {
        Type::TileBuf(t) => assert_eq!((t.loc, t.pad, t.compact), (Loc::Left, 3, 2)),
        o => panic!("{o:?}"),
    }
    match ty(19) {
        Type::TileBuf(t) => {
            assert_eq!(
                (t.loc, t.valid_row, t.valid_col),
                (Loc::Acc, Dim::Dynamic, Dim::Dynamic)
            );
            assert_eq!((t.fractal, t.pad, t.compact), (1024, 1, 1));
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn attributes_of_section_4() {
    let src = r#"func.func @a() attributes {b = [1, 2.5, "s", true], c = {x = unit}, d = 0x7F800000 : f32, e = -3 : i8, f = @sym, g = dense<[1, 2]>, h = i32, k, "quoted key" = false} {
  return
}
"#;
    let m = parse_ok(src);
    let f = ops_where(&m, |k| matches!(k, OpKind::Func(_)))[0];
    let a = &m.op(f).attrs;
    assert_eq!(a["k"], Attr::Unit);
    assert_eq!(a["quoted key"], Attr::Bool(false));
    assert_eq!(a["f"], Attr::Symbol("sym".into()));
    assert_eq!(a["g"], Attr::Opaque("dense<[1, 2]>".into()));
    assert!(matches!(
        a["d"],
        Attr::Hex {
            value: 0x7F80_0000,
            ty: Some(_)
        }
    ));
    assert!(matches!(
        a["e"],
        Attr::Int {
            value: -3,
            ty: Some(_)
        }
    ));
    match &a["b"] {
        Attr::Array(v) => {
            assert_eq!(v[0], Attr::Int { value: 1, ty: None });
            assert_eq!(
                v[1],
                Attr::Float {
                    bits: 2.5f64.to_bits(),
                    ty: None
                }
            );
        }
        o => panic!("{o:?}"),
    }
}

#[test]
fn module_forms_and_loc_and_declarations() {
    let src = "module @m {\n  func.func private @decl(i32, !pto.mask<b8> {x}) -> (i32, f32)\n  func.func @f() {\n    %c = arith.constant 1 : index loc(\"a.py\":1:2)\n    return loc(unknown)\n  }\n}\n";
    let m = parse_ok(src);
    assert_eq!(m.name.as_deref(), Some("m"));
    let fs = ops_where(&m, |k| matches!(k, OpKind::Func(_)));
    let OpKind::Func(d) = &m.op(fs[0]).kind else {
        unreachable!()
    };
    assert!(!d.has_body);
    assert_eq!(d.visibility.as_deref(), Some("private"));
    assert_eq!(d.decl_arg_types.len(), 2);
    assert_eq!(d.result_types.len(), 2);
    assert!(d.arg_attrs[1].is_some());
    // implicit module: top-level ops
    let m2 = parse_ok("\"x.y\"() : () -> ()\nfunc.func @g() {\n  return\n}\n");
    assert_eq!(m2.region(m2.body).ops.len(), 2);
}

#[test]
fn other_custom_forms() {
    let src = r#"func.func @o(%p: !pto.ptr<f32, ub>, %i: index, %s: f32, %n: i32, %r: index) {
  %t = pto.alloc_tile addr = %i valid_row = %r valid_col = %r : !pto.tile_buf<vec, 16x16xf32, valid=?x?>
  %u = pto.alloc_tile : <loc=ub, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>
  %d = pto.declare_tile -> !pto.tile_buf<vec, 16x16xf16>
  %b = pto.vbr %s : f32 -> !pto.vreg<64xf32>
  %v, %k = pto.vlds %p[%i] {dist = "NORM"} : !pto.ptr<f32, ub> -> !pto.vreg<64xf32>, i32
  %q = pto.vsts %b, %p[%i], %m : !pto.vreg<64xf32>, !pto.ptr<f32, ub>, !pto.mask<b32> -> i32
  %m = pto.pset_b32 "PAT_ALL" {pto.note} : !pto.mask<b32>
  %w = pto.subview %t, offsets = [%i, %i], sizes = [%i, %i] : !pto.tile_buf<vec, 16x16xf32, valid=?x?> -> !pto.tile_view<8x8xf32>
  %x = "pto.vadd"(%b, %b, %m) : (!pto.vreg<64xf32>, !pto.vreg<64xf32>, !pto.mask<b32>) -> !pto.vreg<64xf32>
  %c = arith.constant true
  %f = arith.constant 1.5 : f32
  return
}
"#;
    let m = parse_ok(src);
    let at = ops_where(&m, |k| matches!(k, OpKind::AllocTile { .. }));
    assert_eq!(
        m.op(at[0]).kind,
        OpKind::AllocTile {
            addr: true,
            valid_row: true,
            valid_col: true
        }
    );
    assert_eq!(m.op(at[0]).operands.len(), 3);
    assert_eq!(m.op(at[0]).operand_types.to_vec(), vec![None, None, None]);
    assert!(matches!(
        m.value_type(m.op(at[1]).results[0]),
        Type::TileBuf(_)
    ));
    let vl = ops_where(&m, |k| matches!(k, OpKind::Vlds));
    assert_eq!(m.op(vl[0]).results.len(), 2);
    assert_eq!(m.op(vl[0]).attrs["dist"], Attr::Str("NORM".into()));
    let vs = ops_where(&m, |k| matches!(k, OpKind::Vsts));
    // %m is used before its definition: bound to an unresolved value (the verifier reports it).
    assert_eq!(m.value(m.op(vs[0]).operands[3]).def, ValueDef::Unresolved);
    let pv = ops_where(&m, |k| matches!(k, OpKind::PartitionView { .. }));
    assert_eq!(
        m.op(pv[0]).kind,
        OpKind::PartitionView {
            offsets: 2,
            sizes: 2
        }
    );
    let vb = ops_where(&m, |k| matches!(k, OpKind::VBinary(_)));
    assert_eq!(vb.len(), 1, "known op in generic form becomes typed");
}

#[test]
fn assembly_mode() {
    let src = ".func @pair\nPTO.vcvt v2, v0, vmask, NONE, SAT, EVEN : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>\nPTO.vcvt v3, v1, vmask, NONE, SAT, ODD  : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>\nPTO.vcvt v2, v1, vmask, ROUND_R : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>\n";
    let m = parse_fmt_ok(src, InputFormat::PtoAsm);
    let f = ops_where(&m, |k| matches!(k, OpKind::Func(_)))[0];
    let OpKind::Func(fd) = &m.op(f).kind else {
        unreachable!()
    };
    assert_eq!(fd.sym, "pair");
    let body = m.region(m.op(f).regions[0]);
    let names: Vec<&str> = body
        .args
        .iter()
        .map(|&a| m.value(a).name.as_str())
        .collect();
    assert_eq!(names, ["%v0", "%vmask", "%v1"]);
    let v = ops_where(&m, |k| matches!(k, OpKind::Vcvt(_)));
    let OpKind::Vcvt(a) = &m.op(v[0]).kind else {
        unreachable!()
    };
    assert_eq!(
        (a.rnd, a.sat, a.part),
        (None, Some(VSat::Sat), Some(Part::Even))
    );
    assert_eq!(m.value(m.op(v[2]).results[0]).name, "%v2_1");
    let ret = *body.ops.last().unwrap();
    assert_eq!(m.op(ret).kind, OpKind::Return);
    let rn: Vec<&str> = m
        .op(ret)
        .operands
        .iter()
        .map(|&o| m.value(o).name.as_str())
        .collect();
    assert_eq!(rn, ["%v2_1", "%v3"]);
    assert_eq!(m.op_spans(ret).op, ptoc::diag::Span::point(src.len()));
    assert_eq!(fd.result_types.len(), 2);
}

#[test]
fn assembly_mode_errors() {
    let d = |s: &str| {
        parse_module(s, 0, InputFormat::PtoAsm)
            .diagnostics
            .iter()
            .map(|d| d.message())
            .collect::<Vec<_>>()
    };
    assert!(d("PTO.vcvt v0, v1, vmask, R, SAT, NONE\n")[0]
        .starts_with("PTO.vcvt needs a type signature in assembly mode"));
    assert_eq!(
        d("PTO.vadd v0, v1, v2\n")[0],
        "only PTO.vcvt is supported in assembly mode; write other instructions in .pto form"
    );
    assert_eq!(d("PTO.vcvt v2, v0, vmask, NONE, EVEN : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>\n")[0],
        "position 5 of PTO.vcvt is the sat mode; expected SAT, NOSAT (RS_ENABLE, RS_DISABLE) or NONE, found 'EVEN'");
    let e = d("PTO.vcvt v2, v1, vmask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\nPTO.vcvt v3, v2, vmask : !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>\n");
    assert_eq!(
        e[0],
        "register 'v2' holds !pto.vreg<128xf16> (line 1) but is used as !pto.vreg<64xf32>"
    );
}

/// Each line is its own unit of recovery: one diagnostic per bad line, at the offending token,
/// and the lines after it are still read.
#[test]
fn assembly_mode_recovers_per_line() {
    let t = ": !pto.vreg<64xf32>, !pto.mask<b32> -> !pto.vreg<128xf16>";
    let lines = [
        format!("PTO.vcvt v0, v1, vm {t} junk"),
        format!("PTO.vcvt v2, v1, vm R {t}"),
        ".func @late".to_string(),
        format!("PTO.vcvt v3, v1, vm, R, SAT, EVEN, X {t}"),
        "PTO.vcvt v4, v1, vm, R, SAT".to_string(),
        "PTO.vcvt v5, v1, vm : (i32 -> i32, !pto.mask<b32> -> !pto.vreg<128xf16>".to_string(),
        format!("PTO.vcvt v6, v1, vm, , SAT {t}"),
        format!("PTO.vcvt v7, v1, vm {t}"),
    ];
    let src = lines.join("\n") + "\n";
    let out = parse_module(&src, 0, InputFormat::PtoAsm);
    let got: Vec<(String, usize, String)> = out
        .diagnostics
        .iter()
        .map(|d| {
            let line = src[..d.span.start].matches('\n').count() + 1;
            (d.code.to_string(), line, text(&src, d.span).to_string())
        })
        .collect();
    let want = [
        ("E0001", 1, "junk"),
        ("E0001", 2, "R"),
        ("E0601", 3, ".func"),
        ("E0311", 4, "X"),
        ("E0602", 5, "PTO.vcvt v4, v1, vm, R, SAT"),
        ("E0001", 6, "->"),
        ("E0001", 7, ","),
    ];
    let want: Vec<(String, usize, String)> = want
        .iter()
        .map(|(c, l, t)| (c.to_string(), *l, t.to_string()))
        .collect();
    assert_eq!(got, want);
    let msgs: Vec<String> = out.diagnostics.iter().map(|d| d.message()).collect();
    assert_eq!(msgs[0], "expected end of line, found identifier 'junk'");
    assert_eq!(msgs[1], "expected ':', found identifier 'R'");
    assert_eq!(msgs[5], "expected ',' or ')', found '->'");
    assert_eq!(msgs[6], "expected register, found ','");
    // Lines that read all their tokens are built (v0 despite its trailing junk, and v7).
    let m = out.module.expect("module");
    let written: Vec<&str> = ops_where(&m, |k| matches!(k, OpKind::Vcvt(_)))
        .iter()
        .map(|&o| m.value(m.op(o).results[0]).name.as_str())
        .collect();
    assert_eq!(written, ["%v0", "%v7"]);
    let e = parse_module(".func\n", 0, InputFormat::PtoAsm).diagnostics;
    assert_eq!(e[0].message(), "expected symbol, found end of line");
}

/// Function types in operand position (syntax.md §3): nested, as arguments and results.
#[test]
fn function_types_in_operand_position() {
    let src = "func.func @f(%a: (i32, f32) -> (i32), %b: () -> ((i32) -> i32)) {\n  return\n}\n";
    let m = parse_ok(src);
    let f = ops_where(&m, |k| matches!(k, OpKind::Func(_)))[0];
    let args = &m.region(m.op(f).regions[0]).args;
    let Type::Function { inputs, results } = m.types.get(m.value(args[1]).ty) else {
        panic!("not a function type")
    };
    assert!(inputs.is_empty());
    assert!(matches!(m.types.get(results[0]), Type::Function { .. }));
    roundtrip(src, InputFormat::Pto);
    let d = |s: &str| {
        let src = format!("func.func @f(%a: {s}) {{\n  return\n}}\n");
        let out = parse_module(&src, 0, InputFormat::Pto);
        out.diagnostics
            .iter()
            .map(|d| (d.message(), text(&src, d.span).to_string()))
            .collect::<Vec<_>>()
    };
    let one = |m: &str, at: &str| vec![(m.to_string(), at.to_string())];
    assert_eq!(
        d("(i32 f32) -> i32"),
        one("expected ',' or ')', found identifier 'f32'", "f32")
    );
    assert_eq!(
        d("(i32) i32"),
        one("expected '->', found identifier 'i32'", "i32")
    );
    // A failed nested function type is reported where it failed, once; the argument list
    // that contains it does not swallow it.
    assert_eq!(
        d("i32, %b: (i32, (f32 -> i32)) -> i32"),
        one("expected ',' or ')', found '->'", "->")
    );
}

/// Function types nest up to the parser's depth bound, then report instead of recursing, with
/// a 1 MB stack (test threads get 2 MB).
#[test]
fn deep_function_types_are_bounded() {
    let run = || {
        let mut nested = String::from("i32");
        for _ in 0..150 {
            nested = format!("(i32, {nested}) -> i32");
        }
        let ok = format!("func.func @f(%a: {nested}) {{\n  return\n}}\n");
        assert!(parse_module(&ok, 0, InputFormat::Pto)
            .diagnostics
            .is_empty());
        let deep = format!(
            "func.func @f(%a: {}i32) {{\n  return\n}}\n",
            "(".repeat(5000)
        );
        let d = parse_module(&deep, 0, InputFormat::Pto).diagnostics;
        assert_eq!(d.len(), 1);
        assert!(d[0].message().starts_with("expected shallower nesting"));
        let asm = format!(
            "PTO.vcvt v0, v1, vm : {nested}, !pto.mask<b32> -> {}i32\n",
            "(".repeat(5000)
        );
        let d = parse_module(&asm, 0, InputFormat::PtoAsm).diagnostics;
        let msgs: Vec<String> = d.iter().map(|d| d.message()).collect();
        assert!(
            msgs[0].starts_with("expected shallower nesting"),
            "{msgs:?}"
        );
    };
    std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(run)
        .expect("thread")
        .join()
        .expect("no stack overflow");
}

#[test]
fn january_benchmark_grammar_parses() {
    let src = "module {\n  func.func @cvt_bench(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f16>) {\n    %c0 = arith.constant 0 : index\n    %c1 = arith.constant 1 : index\n    %c32 = arith.constant 32 : index\n    %0 = pto.make_tensor_view %arg0, shape = [%c32, %c32] strides = [%c32, %c1] : !pto.tensor_view<2xf32>\n    %2 = pto.subview %0, offsets = [%c0, %c0], sizes = [%c32, %c32] : !pto.tensor_view<2xf32> -> !pto.tile_view<32x32xf32>\n    %4 = pto.alloc_tile : <loc=ub, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>\n    pto.tload ins(%2 : !pto.tile_view<32x32xf32>) outs(%4 : !pto.tile_buf<loc=ub, dtype=f32, rows=32, cols=32, v_row=32, v_col=32, blayout=row_major, slayout=none_box, fractal=512, pad=0>)\n    return\n  }\n}\n";
    let m = parse_ok(src);
    let pv = ops_where(&m, |k| matches!(k, OpKind::PartitionView { .. }));
    assert_eq!(
        m.op(pv[0]).operand_types[0],
        Some(m.value(m.op(pv[0]).operands[0]).ty)
    );
    roundtrip(src, InputFormat::Pto);
}

/// D-26: `p1 = print(parse(x))` parses cleanly and `print(parse(p1)) == p1`.
#[track_caller]
fn roundtrip(src: &str, fmt: InputFormat) {
    let p1 = print_module(&parse_fmt_ok(src, fmt));
    let p2 = print_module(&parse_ok(&p1));
    assert_eq!(p1, p2, "not a fixed point");
}

#[test]
fn print_parse_fixed_point() {
    for src in [SPEC_EXAMPLE, VCVT_EXAMPLE, TCVT_FORMS] {
        roundtrip(src, InputFormat::Pto);
    }
    roundtrip(".func @pair\nPTO.vcvt v2, v0, vmask, NONE, SAT, EVEN : !pto.vreg<64xi32>, !pto.mask<b32> -> !pto.vreg<128xi16>\n", InputFormat::PtoAsm);
}

/// Truncations and single-byte perturbations of valid inputs never panic.
#[test]
fn mangled_inputs_never_panic() {
    let corpus = [SPEC_EXAMPLE, VCVT_EXAMPLE, TCVT_FORMS];
    let replacements: &[u8] = b"%#<>{}()[],:=\"x0 \n.-?!@^";
    for src in corpus {
        let bytes = src.as_bytes();
        for cut in 0..=bytes.len() {
            if let Ok(s) = std::str::from_utf8(&bytes[..cut]) {
                let _ = parse_module(s, 7, InputFormat::Pto);
                let _ = parse_module(s, 0, InputFormat::PtoAsm);
            }
        }
        for i in (0..bytes.len()).step_by(3) {
            let r = replacements[i % replacements.len()];
            let mut b = bytes.to_vec();
            b[i] = r;
            if let Ok(s) = std::str::from_utf8(&b) {
                let _ = parse_module(s, 0, InputFormat::Pto);
            }
            let mut d = bytes.to_vec();
            d.remove(i);
            if let Ok(s) = std::str::from_utf8(&d) {
                let _ = parse_module(s, 0, InputFormat::Pto);
            }
        }
    }
    // Deep nesting is bounded, not a stack overflow.
    let deep = format!(
        "\"x.y\"() {{a = {}1{}}} : () -> ()\n",
        "[".repeat(5000),
        "]".repeat(5000)
    );
    let _ = parse_module(&deep, 0, InputFormat::Pto);
    let deep_regions = format!(
        "func.func @f() {{\n{}{}return\n}}\n",
        "pto.vecscope {\n".repeat(3000),
        "}\n".repeat(3000)
    );
    let _ = parse_module(&deep_regions, 0, InputFormat::Pto);
}

#[test]
fn known_ops_in_generic_form_become_typed() {
    let src = r#"func.func @g(%p: !pto.ptr<f32, gm>, %i: index, %n: i32) {
  %c = "arith.constant"() {value = 4 : index} : () -> index
  %v = "pto.make_tensor_view"(%p, %i, %i, %i, %i) {operandSegmentSizes = array<i32: 1, 2, 2>} : (!pto.ptr<f32, gm>, index, index, index, index) -> !pto.tensor_view<?x?xf32>
  %w = "pto.partition_view"(%v, %i, %i, %i, %i) <{operandSegmentSizes = array<i32: 1, 2, 2>}> : (!pto.tensor_view<?x?xf32>, index, index, index, index) -> !pto.partition_tensor_view<4x4xf32>
  %t = "pto.alloc_tile"(%i) {operandSegmentSizes = array<i32: 1, 0, 0>} : (index) -> !pto.tile_buf<vec, 16x16xf32>
  %d = "pto.declare_tile"() : () -> !pto.tile_buf<vec, 16x16xf16>
  %m, %k = "pto.plt_b32"(%n) : (i32) -> (!pto.mask<b32>, i32)
  "pto.vecscope"() ({
    %x = "x.op"() : () -> i32
  }) : () -> ()
  "func.return"() : () -> ()
}
"#;
    let m = parse_ok(src);
    assert!(ops_where(&m, |k| matches!(k, OpKind::Generic(g) if g.name != "x.op")).is_empty());
    assert_eq!(
        m.op(ops_where(&m, |k| matches!(k, OpKind::MakeTensorView { .. }))[0])
            .kind,
        OpKind::MakeTensorView {
            shape: 2,
            strides: 2
        }
    );
    assert_eq!(
        m.op(ops_where(&m, |k| matches!(k, OpKind::AllocTile { .. }))[0])
            .kind,
        OpKind::AllocTile {
            addr: true,
            valid_row: false,
            valid_col: false
        }
    );
    let c = ops_where(&m, |k| matches!(k, OpKind::ArithConstant { .. }))[0];
    assert!(matches!(
        &m.op(c).kind,
        OpKind::ArithConstant { value } if matches!(**value, Attr::Int { value: 4, .. })
    ));
    assert_eq!(ops_where(&m, |k| matches!(k, OpKind::VecScope)).len(), 1);
    roundtrip(src, InputFormat::Pto);
}

#[test]
fn spans_are_original_file_offsets() {
    let chunk = "func.func @f(%a: !pto.mask<b64>) {\n  return\n}\n";
    let base = 1000;
    let out = parse_module(chunk, base, InputFormat::Pto);
    let d = &out.diagnostics[0];
    assert_eq!(d.span.start, base + chunk.find("b64").unwrap());
    let ok = parse_module("func.func @g() {\n  return\n}\n", base, InputFormat::Pto);
    let m = ok.module.unwrap();
    let f = m.region(m.body).ops[0];
    assert_eq!(m.op_spans(f).name.start, base);
    let r = m.region(m.op(f).regions[0]).ops[0];
    assert_eq!(
        m.op_spans(r).op,
        ptoc::diag::Span::new(base + 19, base + 25)
    );
}
