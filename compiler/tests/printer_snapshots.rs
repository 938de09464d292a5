//! Printer snapshots over hand-built IR (syntax.md §7): layout (D-24), spellings (§7.2),
//! attribute order (D-25) and literals (§7.4). Independent of the parser.

use indexmap::IndexMap;
use ptoc::diag::Span;
use ptoc::ir::printer::{print_attr, print_module, print_type};
use ptoc::ir::smallvec;
use ptoc::ir::types::{AddrSpace, BLayout, Loc, MaskGranularity, SLayout, Signedness, TileBufType};
use ptoc::ir::{
    Attr, AttrDict, Dim, FuncOp, GenericOp, Module, OpData, OpId, OpKind, OpSpans, Part, RegionId,
    ResultGroup, Rnd, RoundMode, SatAttr, ScalarType, TcvtForm, TcvtOp, Type, TypeId, VBinaryKind,
    VSat, ValueId, VcvtOp,
};

/// A small IR builder for tests.
struct B {
    m: Module,
}

impl B {
    fn new() -> Self {
        B { m: Module::new() }
    }
    fn ty(&mut self, t: Type) -> TypeId {
        self.m.types.intern(t)
    }
    fn scalar(&mut self, s: ScalarType) -> TypeId {
        self.ty(Type::Scalar(s))
    }
    fn tile_buf(&mut self, loc: Loc, rows: u64, cols: u64, elem: ScalarType) -> TypeId {
        self.ty(Type::TileBuf(TileBufType {
            loc,
            rows,
            cols,
            elem,
            valid_row: Dim::Static(rows),
            valid_col: Dim::Static(cols),
            blayout: BLayout::RowMajor,
            slayout: SLayout::NoneBox,
            fractal: 512,
            pad: 0,
            compact: 0,
        }))
    }
    /// Pushes an op with the given kind/operands into `parent`, with results named `names`.
    fn op(
        &mut self,
        parent: RegionId,
        kind: OpKind,
        operands: &[ValueId],
        results: &[(&str, TypeId)],
        attrs: AttrDict,
    ) -> (OpId, Vec<ValueId>) {
        let data = OpData {
            kind,
            operands: operands.into(),
            operand_types: smallvec![None; operands.len()],
            results: Default::default(),
            result_groups: results
                .iter()
                .map(|(n, _)| ResultGroup {
                    name: n.to_string(),
                    count: 1,
                    explicit_count: false,
                })
                .collect(),
            regions: Default::default(),
            attrs: attrs.into(),
            parent,
        };
        let id = self.m.push_op(data, OpSpans::default());
        let tys: Vec<TypeId> = results.iter().map(|(_, t)| *t).collect();
        self.m.add_results(id, &tys, &[]);
        let res = self.m.op(id).results.clone();
        (id, res.to_vec())
    }
    /// A `func.func` with a body; returns (op, body region, args).
    fn func(
        &mut self,
        sym: &str,
        args: &[(&str, TypeId)],
        results: &[TypeId],
        attrs: AttrDict,
    ) -> (OpId, RegionId, Vec<ValueId>) {
        let body = self.m.body;
        let (op, _) = self.op(
            body,
            OpKind::Func(Box::new(FuncOp {
                sym: sym.to_string(),
                visibility: None,
                result_types: results.to_vec(),
                arg_attrs: vec![None; args.len()],
                decl_arg_types: Vec::new(),
                has_body: true,
            })),
            &[],
            &[],
            attrs,
        );
        let region = self.m.add_region(Some(op), Span::default());
        self.m.ops[op.0 as usize].regions.push(region);
        let vals = args
            .iter()
            .map(|(n, t)| self.m.add_region_arg(region, *n, *t, Span::default()))
            .collect();
        (op, region, vals)
    }
}

fn dict(entries: &[(&str, Attr)]) -> AttrDict {
    entries
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect::<IndexMap<_, _>>()
}

#[test]
fn conversion_kernel() {
    let mut b = B::new();
    b.m.attrs = dict(&[
        ("pto.target_arch", Attr::Str("a5".into())),
        ("pto.device-spec", Attr::Str("Ascend910B3".into())),
    ]);
    let f32t = b.scalar(ScalarType::F32);
    let f16t = b.scalar(ScalarType::F16);
    let index = b.scalar(ScalarType::Index);
    let src = b.tile_buf(Loc::Vec, 16, 64, ScalarType::F32);
    let dst = b.tile_buf(Loc::Vec, 16, 64, ScalarType::F16);
    let ptr = b.ty(Type::Ptr {
        elem: ScalarType::F32,
        space: AddrSpace::Gm,
    });
    let ptr16 = b.ty(Type::Ptr {
        elem: ScalarType::F16,
        space: AddrSpace::Ub,
    });
    let tv = b.ty(Type::TensorView {
        shape: vec![Dim::Dynamic, Dim::Dynamic],
        elem: ScalarType::F32,
    });
    let pv = b.ty(Type::PartitionView {
        shape: vec![Dim::Static(16), Dim::Static(64)],
        elem: ScalarType::F32,
    });
    let (_, body, args) = b.func(
        "cvt",
        &[("%gin", ptr), ("%buf", ptr16), ("%d", dst)],
        &[],
        dict(&[("pto.entry", Attr::Unit)]),
    );
    let (_, c0) = b.op(
        body,
        OpKind::ArithConstant {
            value: Box::new(Attr::Int {
                value: 0,
                ty: Some(index),
            }),
        },
        &[],
        &[("%c0", index)],
        AttrDict::new(),
    );
    let (_, c16) = b.op(
        body,
        OpKind::ArithConstant {
            value: Box::new(Attr::Int {
                value: 16,
                ty: Some(index),
            }),
        },
        &[],
        &[("%c16", index)],
        AttrDict::new(),
    );
    let (_, view) = b.op(
        body,
        OpKind::MakeTensorView {
            shape: 2,
            strides: 2,
        },
        &[args[0], c16[0], c16[0], c16[0], c0[0]],
        &[("%v", tv)],
        AttrDict::new(),
    );
    let (_, part) = b.op(
        body,
        OpKind::PartitionView {
            offsets: 2,
            sizes: 2,
        },
        &[view[0], c0[0], c0[0], c16[0], c16[0]],
        &[("%p", pv)],
        AttrDict::new(),
    );
    let (_, a) = b.op(
        body,
        OpKind::AllocTile {
            addr: false,
            valid_row: false,
            valid_col: false,
        },
        &[],
        &[("%a", src)],
        AttrDict::new(),
    );
    let tload = OpKind::Catalog(ptoc::ir::CatalogOp {
        row: ptoc::front::catalog::by_name("pto.tload")[0],
        segments: vec![1, 1].into(),
    });
    b.op(body, tload, &[part[0], a[0]], &[], AttrDict::new());
    // Dotted extras come after own keys, sorted bytewise; sat_mode prints as satmode.
    b.op(
        body,
        OpKind::Tcvt(TcvtOp {
            form: TcvtForm::Dps,
            has_tmp: false,
            rmode: Some(RoundMode::Trunc),
            sat: Some(SatAttr {
                on: true,
                legacy_key: true,
            }),
        }),
        &[a[0], args[2]],
        &[],
        dict(&[
            ("pto.z", Attr::Unit),
            ("pto.a", Attr::Int { value: 1, ty: None }),
        ]),
    );
    // No attributes at all: no dict printed (absence preserved).
    let (_, y) = b.op(
        body,
        OpKind::Tcvt(TcvtOp {
            form: TcvtForm::Ssa,
            has_tmp: true,
            rmode: None,
            sat: None,
        }),
        &[a[0], a[0]],
        &[("%y", dst)],
        AttrDict::new(),
    );
    let _ = y;
    let (_, vs) = b.op(body, OpKind::VecScope, &[], &[], AttrDict::new());
    let _ = vs;
    let scope_op = OpId(b.m.ops.len() as u32 - 1);
    let scope = b.m.add_region(Some(scope_op), Span::default());
    b.m.ops[scope_op.0 as usize].regions.push(scope);
    let m32 = b.ty(Type::Mask(MaskGranularity::B32));
    let m16 = b.ty(Type::Mask(MaskGranularity::B16));
    let v64 = b.ty(Type::VReg {
        lanes: 64,
        elem: ScalarType::F32,
    });
    let v128 = b.ty(Type::VReg {
        lanes: 128,
        elem: ScalarType::F16,
    });
    let (_, mask) = b.op(
        scope,
        OpKind::Pset {
            granularity: MaskGranularity::B32,
            pattern: "PAT_ALL".into(),
        },
        &[],
        &[("%m32", m32)],
        AttrDict::new(),
    );
    let (_, m16v) = b.op(
        scope,
        OpKind::Pset {
            granularity: MaskGranularity::B16,
            pattern: "PAT_ALL".into(),
        },
        &[],
        &[("%m16", m16)],
        AttrDict::new(),
    );
    let (_, lo) = b.op(
        scope,
        OpKind::Vlds,
        &[args[0], c0[0]],
        &[("%lo", v64)],
        dict(&[
            ("pto.note", Attr::Str("x".into())),
            ("dist", Attr::Str("NORM".into())),
        ]),
    );
    let (_, ev) = b.op(
        scope,
        OpKind::Vcvt(VcvtOp {
            rnd: Some(Rnd::Z),
            sat: Some(VSat::Sat),
            part: Some(Part::Even),
        }),
        &[lo[0], mask[0]],
        &[("%ev", v128)],
        AttrDict::new(),
    );
    let (_, od) = b.op(
        scope,
        OpKind::Vcvt(VcvtOp {
            rnd: None,
            sat: None,
            part: Some(Part::Odd),
        }),
        &[lo[0], mask[0]],
        &[("%od", v128)],
        AttrDict::new(),
    );
    let (_, mix) = b.op(
        scope,
        OpKind::VBinary(VBinaryKind::Or),
        &[ev[0], od[0], m16v[0]],
        &[("%mix", v128)],
        AttrDict::new(),
    );
    b.op(
        scope,
        OpKind::Vsts,
        &[mix[0], args[1], c0[0], m16v[0]],
        &[],
        AttrDict::new(),
    );
    // Unknown op: generic form, attrs sorted, properties kept apart.
    b.op(
        body,
        OpKind::Generic(Box::new(GenericOp {
            name: "pto.barrier".into(),
            properties: Some(dict(&[("b", Attr::Bool(true))])),
            attrs_written: true,
        })),
        &[],
        &[],
        dict(&[
            ("pipe", Attr::Opaque("#pto.pipe<PIPE_ALL>".into())),
            (
                "count",
                Attr::Int {
                    value: 3,
                    ty: Some(f32t),
                },
            ),
        ]),
    );
    let _ = f16t;
    b.op(body, OpKind::Return, &[], &[], AttrDict::new());
    insta::assert_snapshot!(print_module(&b.m));
}

#[test]
fn empty_module_and_declarations() {
    let b = B::new();
    assert_eq!(print_module(&b.m), "module {\n}\n");

    let mut b = B::new();
    b.m.name = Some("odd name".into());
    let i32t = b.scalar(ScalarType::Int {
        width: 32,
        signedness: Signedness::Signless,
    });
    let body = b.m.body;
    b.op(
        body,
        OpKind::Func(Box::new(FuncOp {
            sym: "ext".into(),
            visibility: Some("private".into()),
            result_types: vec![i32t, i32t],
            arg_attrs: vec![Some(dict(&[("pto.k", Attr::Unit)])), None],
            decl_arg_types: vec![i32t, i32t],
            has_body: false,
        })),
        &[],
        &[],
        AttrDict::new(),
    );
    let (_, region, args) = b.func("second", &[("%x", i32t)], &[i32t], AttrDict::new());
    b.op(region, OpKind::Return, &args, &[], AttrDict::new());
    insta::assert_snapshot!(print_module(&b.m));
}

#[test]
fn type_spellings() {
    let mut b = B::new();
    let mut tb = TileBufType {
        loc: Loc::Mat,
        rows: 32,
        cols: 32,
        elem: ScalarType::BF16,
        valid_row: Dim::Static(8),
        valid_col: Dim::Dynamic,
        blayout: BLayout::ColMajor,
        slayout: SLayout::RowMajor,
        fractal: 1024,
        pad: 1,
        compact: 2,
    };
    let all = b.ty(Type::TileBuf(tb.clone()));
    tb.valid_row = Dim::Static(32);
    tb.valid_col = Dim::Static(32);
    tb.blayout = BLayout::RowMajor;
    tb.slayout = SLayout::NoneBox;
    tb.fractal = 512;
    tb.pad = 0;
    tb.compact = 0;
    let none = b.ty(Type::TileBuf(tb));
    let tile_noloc = b.ty(Type::Tile(ptoc::ir::types::TileType {
        loc: None,
        rows: 8,
        cols: 8,
        elem: ScalarType::F32,
        valid: None,
    }));
    let tile_valid = b.ty(Type::Tile(ptoc::ir::types::TileType {
        loc: Some(Loc::Vec),
        rows: 8,
        cols: 8,
        elem: ScalarType::S4x2,
        valid: Some((Dim::Static(8), Dim::Dynamic)),
    }));
    let ptr = b.ty(Type::Ptr {
        elem: ScalarType::Hif8,
        space: AddrSpace::L0c,
    });
    let i32t = b.scalar(ScalarType::Int {
        width: 32,
        signedness: Signedness::Unsigned,
    });
    let func1 = b.ty(Type::Function {
        inputs: vec![i32t, ptr],
        results: vec![i32t],
    });
    let func2 = b.ty(Type::Function {
        inputs: vec![],
        results: vec![func1],
    });
    let opaque = b.ty(Type::Opaque("memref<4x?xf32, strided<[?, 1]>>".into()));
    let printed: Vec<String> = [all, none, tile_noloc, tile_valid, ptr, func1, func2, opaque]
        .into_iter()
        .map(|t| print_type(&b.m.types, t))
        .collect();
    insta::assert_snapshot!(printed.join("\n"));
}

#[test]
fn literal_spellings() {
    let mut b = B::new();
    let f32t = b.scalar(ScalarType::F32);
    let f16t = b.scalar(ScalarType::F16);
    let f64t = b.scalar(ScalarType::F64);
    let i64t = b.scalar(ScalarType::Int {
        width: 64,
        signedness: Signedness::Signless,
    });
    let i8t = b.scalar(ScalarType::Int {
        width: 8,
        signedness: Signedness::Signed,
    });
    let attrs = [
        Attr::Int {
            value: -7,
            ty: None,
        },
        Attr::Int {
            value: 7,
            ty: Some(i64t),
        },
        Attr::Int {
            value: 7,
            ty: Some(i8t),
        },
        Attr::Hex {
            value: 0x7f80_0000,
            ty: Some(f32t),
        },
        Attr::Hex {
            value: 255,
            ty: Some(i8t),
        },
        Attr::Float {
            bits: 1e-5f64.to_bits(),
            ty: None,
        },
        Attr::Float {
            bits: 1.5f64.to_bits(),
            ty: Some(f64t),
        },
        Attr::Float {
            bits: 0.1f64.to_bits(),
            ty: Some(f32t),
        },
        Attr::Float {
            bits: f64::INFINITY.to_bits(),
            ty: Some(f32t),
        },
        Attr::Float {
            bits: f64::NEG_INFINITY.to_bits(),
            ty: Some(f16t),
        },
        Attr::Float {
            bits: f64::NAN.to_bits(),
            ty: None,
        },
        Attr::Str("tab\there \"q\" \\ \u{1} é".into()),
        Attr::Bool(false),
        Attr::Unit,
        Attr::Symbol("k".into()),
        Attr::Symbol("needs quote".into()),
        Attr::RoundMode(RoundMode::CastRint),
        Attr::SatMode { on: false },
        Attr::Array(vec![Attr::Int { value: 1, ty: None }, Attr::Type(f32t)]),
        Attr::Dict(dict(&[
            ("z", Attr::Unit),
            ("B", Attr::Int { value: 1, ty: None }),
            ("a b", Attr::Unit),
        ])),
    ];
    let printed: Vec<String> = attrs.iter().map(|a| print_attr(&b.m.types, a)).collect();
    insta::assert_snapshot!(printed.join("\n"));
}

#[test]
fn result_groups_and_generic_regions() {
    let mut b = B::new();
    let idx = b.scalar(ScalarType::Index);
    let (_, body, args) = b.func("loop", &[("%n", idx)], &[], AttrDict::new());
    // `%r:2 = "test.pair"(...)` and a use of `%r#1`.
    let data = OpData {
        kind: OpKind::Generic(Box::new(GenericOp {
            name: "test.pair".into(),
            properties: None,
            attrs_written: false,
        })),
        operands: vec![args[0]].into(),
        operand_types: vec![Some(idx)].into(),
        results: Default::default(),
        result_groups: vec![ResultGroup {
            name: "%r".into(),
            count: 2,
            explicit_count: true,
        }]
        .into(),
        regions: Default::default(),
        attrs: Default::default(),
        parent: body,
    };
    let pair = b.m.push_op(data, OpSpans::default());
    b.m.add_results(pair, &[idx, idx], &[]);
    let r1 = b.m.op(pair).results[1];
    let (for_op, _) = b.op(
        body,
        OpKind::Generic(Box::new(GenericOp {
            name: "scf.for".into(),
            properties: None,
            attrs_written: false,
        })),
        &[r1, args[0], r1],
        &[],
        AttrDict::new(),
    );
    let region = b.m.add_region(Some(for_op), Span::default());
    b.m.ops[for_op.0 as usize].regions.push(region);
    b.m.regions[region.0 as usize].label = Some("^bb0".into());
    let iv = b.m.add_region_arg(region, "%i", idx, Span::default());
    b.op(
        region,
        OpKind::Generic(Box::new(GenericOp {
            name: "scf.yield".into(),
            properties: None,
            attrs_written: true,
        })),
        &[],
        &[],
        AttrDict::new(),
    );
    let _ = iv;
    b.op(body, OpKind::Return, &[], &[], AttrDict::new());
    insta::assert_snapshot!(print_module(&b.m));
}

#[test]
fn dangling_handles_do_not_panic() {
    let mut b = B::new();
    let body = b.m.body;
    let data = OpData {
        kind: OpKind::Return,
        operands: vec![ValueId(99)].into(),
        operand_types: vec![Some(TypeId(42))].into(),
        results: Default::default(),
        result_groups: Default::default(),
        regions: vec![RegionId(77)].into(),
        attrs: Default::default(),
        parent: body,
    };
    b.m.push_op(data, OpSpans::default());
    let text = print_module(&b.m);
    assert!(text.contains("<<invalid"), "{text}");
    assert!(text.ends_with("}\n"));
}

#[test]
fn cyclic_regions_do_not_recurse_forever() {
    let mut b = B::new();
    let body = b.m.body;
    let (scope, _) = b.op(body, OpKind::VecScope, &[], &[], AttrDict::new());
    // The vecscope's region is the module body itself: a cycle.
    b.m.ops[scope.0 as usize].regions.push(body);
    let text = print_module(&b.m);
    assert!(text.contains("<<nesting too deep>>"));
    assert!(text.ends_with("}\n"));
}
