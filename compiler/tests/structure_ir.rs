//! Structural verifier on hand-built IR: scoping (D-4), redefinition, result numbers, result
//! counts, operand and return types. Each test builds the IR the front end would build for the
//! text in its comment (name binding without scoping judgement, see `ptoc::ir`).

use ptoc::diag::{Code, Diagnostic, Span};
use ptoc::ir::types::{Loc, MaskGranularity};
use ptoc::ir::{
    FuncOp, Module, OpData, OpId, OpKind, OpSpans, RegionId, ResultGroup, ScalarType, Type, TypeId,
    ValueDef, ValueId,
};
use ptoc::verify::structure::{self, DefUseGraph};

/// A small builder over `Module` with distinct spans per item, so labels can be checked.
struct B {
    m: Module,
    next: usize,
}

impl B {
    fn new() -> Self {
        B {
            m: Module::new(),
            next: 0,
        }
    }
    fn span(&mut self) -> Span {
        self.next += 10;
        Span::new(self.next, self.next + 3)
    }
    fn ty(&mut self, t: Type) -> TypeId {
        self.m.types.intern(t)
    }
    fn f32(&mut self) -> TypeId {
        self.ty(Type::Scalar(ScalarType::F32))
    }
    fn i32(&mut self) -> TypeId {
        self.ty(Type::Scalar(ScalarType::Int {
            width: 32,
            signedness: ptoc::ir::types::Signedness::Signless,
        }))
    }

    /// `func.func @sym(args) -> results { }`; returns the op and its body.
    fn func(&mut self, sym: &str, results: &[TypeId]) -> (OpId, RegionId) {
        let body = self.m.body;
        let op = self.op(
            OpKind::Func(Box::new(FuncOp {
                sym: sym.into(),
                visibility: None,
                result_types: results.to_vec(),
                arg_attrs: Vec::new(),
                decl_arg_types: Vec::new(),
                has_body: true,
            })),
            body,
            &[],
            &[],
            &[],
        );
        let s = self.span();
        let region = self.m.add_region(Some(op), s);
        self.m.ops[op.0 as usize].regions.push(region);
        (op, region)
    }

    fn arg(&mut self, region: RegionId, name: &str, ty: TypeId) -> ValueId {
        let s = self.span();
        self.m.add_region_arg(region, name, ty, s)
    }

    /// An op with operands (written types), and result groups `(name, count)` of types `results`.
    fn op(
        &mut self,
        kind: OpKind,
        parent: RegionId,
        operands: &[(ValueId, Option<TypeId>)],
        groups: &[(&str, u32)],
        results: &[TypeId],
    ) -> OpId {
        let mut spans = OpSpans {
            op: self.span(),
            name: self.span(),
            ..OpSpans::default()
        };
        for _ in operands {
            let s = self.span();
            spans.operands.push(s);
            let t = self.span();
            spans.operand_types.push(Some(t));
        }
        let data = OpData {
            kind,
            operands: operands.iter().map(|o| o.0).collect(),
            operand_types: operands.iter().map(|o| o.1).collect(),
            results: Default::default(),
            result_groups: groups
                .iter()
                .map(|&(n, c)| ResultGroup {
                    name: n.into(),
                    count: c,
                    explicit_count: c != 1,
                })
                .collect(),
            regions: Default::default(),
            attrs: Default::default(),
            parent,
        };
        let op = self.m.push_op(data, spans);
        let rs: Vec<Span> = results.iter().map(|_| self.span()).collect();
        self.m.add_results(op, results, &rs);
        op
    }

    /// A generic op `%name = "test.def"() : () -> T`.
    fn def(&mut self, parent: RegionId, name: &str, ty: TypeId) -> ValueId {
        let op = self.op(generic("test.def"), parent, &[], &[(name, 1)], &[ty]);
        self.m.op(op).results[0]
    }

    /// A generic op using `vals` with their written types.
    fn use_(&mut self, parent: RegionId, vals: &[(ValueId, Option<TypeId>)]) -> OpId {
        self.op(generic("test.use"), parent, vals, &[], &[])
    }

    /// A use of a name that has no definition.
    fn unresolved(&mut self, name: &str, ty: TypeId) -> ValueId {
        let s = self.span();
        self.m.add_value(name, ty, ValueDef::Unresolved, s)
    }

    fn vecscope(&mut self, parent: RegionId) -> RegionId {
        let op = self.op(OpKind::VecScope, parent, &[], &[], &[]);
        let s = self.span();
        let r = self.m.add_region(Some(op), s);
        self.m.ops[op.0 as usize].regions.push(r);
        r
    }

    fn ret(&mut self, parent: RegionId, vals: &[(ValueId, Option<TypeId>)]) -> OpId {
        self.op(OpKind::Return, parent, vals, &[], &[])
    }

    fn check(&self) -> Vec<Diagnostic> {
        let mut d = Vec::new();
        structure::check(&self.m, &mut d);
        d
    }
}

fn generic(name: &str) -> OpKind {
    OpKind::Generic(Box::new(ptoc::ir::GenericOp {
        name: name.into(),
        properties: None,
        attrs_written: false,
    }))
}

fn messages(d: &[Diagnostic]) -> Vec<String> {
    d.iter().map(|d| d.message()).collect()
}

#[test]
fn sound_function_has_no_diagnostics() {
    // func.func @f(%a: f32) -> f32 { pto.vecscope { use %a } ; return %a : f32 }
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[f32]);
    let a = b.arg(body, "%a", f32);
    let vs = b.vecscope(body);
    b.use_(vs, &[(a, Some(f32))]);
    b.ret(body, &[(a, Some(f32))]);
    assert_eq!(messages(&b.check()), Vec::<String>::new());
}

#[test]
fn unresolved_use_is_undefined() {
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let ghost = b.unresolved("%ghost", f32);
    let u = b.use_(body, &[(ghost, None)]);
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(messages(&d), ["use of undefined value '%ghost'"]);
    assert_eq!(d[0].code, Code::UndefinedValue);
    assert_eq!(d[0].span, b.m.op_spans(u).operands[0]);
}

#[test]
fn value_defined_in_a_region_is_invisible_after_it() {
    // pto.vecscope { %m = ... }  "test.use"(%m)
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let vs = b.vecscope(body);
    let m = b.def(vs, "%m", f32);
    b.use_(body, &[(m, None)]);
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(messages(&d), ["use of undefined value '%m'"]);
    assert_eq!(d[0].labels.len(), 1);
    assert_eq!(d[0].labels[0].span, b.m.value_span(m));
    assert!(
        d[0].labels[0].message.contains("does not enclose"),
        "{:?}",
        d[0].labels
    );
}

#[test]
fn forward_reference_is_undefined() {
    // "test.use"(%x)   then   %x = ...   (the builder bound the use to the later definition)
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let u = b.use_(body, &[]);
    let x = b.def(body, "%x", f32);
    b.m.ops[u.0 as usize].operands.push(x);
    b.m.ops[u.0 as usize].operand_types.push(None);
    b.m.spans.ops[u.0 as usize].operands.push(Span::new(1, 3));
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(messages(&d), ["use of undefined value '%x'"]);
    assert_eq!(d[0].span, Span::new(1, 3));
    assert!(d[0].labels[0].message.contains("after its use"));
}

#[test]
fn results_are_not_visible_in_their_own_op_regions() {
    // %r = "test.region"() ({ "test.use"(%r) }) : () -> f32
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let op = b.op(generic("test.region"), body, &[], &[("%r", 1)], &[f32]);
    let s = b.span();
    let inner = b.m.add_region(Some(op), s);
    b.m.ops[op.0 as usize].regions.push(inner);
    let r = b.m.op(op).results[0];
    b.use_(inner, &[(r, None)]);
    b.ret(body, &[]);
    assert_eq!(messages(&b.check()), ["use of undefined value '%r'"]);
}

#[test]
fn function_bodies_are_isolated() {
    // %c at module level; func.func @f() { "test.use"(%c) }
    let mut b = B::new();
    let f32 = b.f32();
    let top = b.m.body;
    let c = b.def(top, "%c", f32);
    let (_, body) = b.func("f", &[]);
    b.use_(body, &[(c, None)]);
    b.ret(body, &[]);
    assert_eq!(messages(&b.check()), ["use of undefined value '%c'"]);
}

#[test]
fn redefinition_reports_both_sites_and_is_per_function() {
    // @f(%x) { %x = ...; %x = ... }   @g() { %x = ... }
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let x0 = b.arg(body, "%x", f32);
    let x1 = b.def(body, "%x", f32);
    let x2 = b.def(body, "%x", f32);
    b.ret(body, &[]);
    let (_, g) = b.func("g", &[]);
    b.def(g, "%x", f32);
    b.ret(g, &[]);
    let d = b.check();
    assert_eq!(
        messages(&d),
        ["redefinition of value '%x'", "redefinition of value '%x'"]
    );
    for (diag, v) in d.iter().zip([x1, x2]) {
        assert_eq!(diag.code, Code::Redefinition);
        assert_eq!(diag.span, b.m.value_span(v));
        assert_eq!(diag.labels[0].message, "defined here");
        assert_eq!(diag.labels[0].span, b.m.value_span(x0));
    }
}

#[test]
fn sibling_regions_may_reuse_a_name_but_inner_may_not_shadow() {
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let a = b.vecscope(body);
    b.def(a, "%v", f32);
    let c = b.vecscope(body);
    b.def(c, "%v", f32);
    b.def(body, "%w", f32);
    let d = b.vecscope(body);
    b.def(d, "%w", f32);
    b.ret(body, &[]);
    assert_eq!(messages(&b.check()), ["redefinition of value '%w'"]);
}

#[test]
fn duplicate_function_symbol() {
    let mut b = B::new();
    let (_, f1) = b.func("k", &[]);
    b.ret(f1, &[]);
    let (f2op, f2) = b.func("k", &[]);
    b.ret(f2, &[]);
    let d = b.check();
    assert_eq!(messages(&d), ["redefinition of symbol '@k'"]);
    assert_eq!(d[0].code, Code::Redefinition);
    assert_eq!(d[0].span, b.m.op_spans(f2op).name);
    assert_eq!(d[0].labels[0].message, "defined here");
}

#[test]
fn result_number_out_of_range() {
    // %r:2 = ...; "test.use"(%r#2)
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let def = b.op(generic("test.two"), body, &[], &[("%r", 2)], &[f32, f32]);
    let s = b.span();
    let bad = b.m.add_value(
        "%r#2",
        f32,
        ValueDef::BadResultNumber {
            op: def,
            index: 2,
            count: 2,
        },
        s,
    );
    b.use_(body, &[(bad, None)]);
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(messages(&d), ["'%r' has only 2 results"]);
    assert_eq!(d[0].code, Code::ResultNumberOutOfRange);
}

#[test]
fn group_results_are_usable_and_group_name_redefinition_detected() {
    // %r:2 = ...; use %r#0, %r#1; %r = ...
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let def = b.op(generic("test.two"), body, &[], &[("%r", 2)], &[f32, f32]);
    let rs = b.m.op(def).results.clone();
    b.use_(body, &[(rs[0], None), (rs[1], None)]);
    b.def(body, "%r", f32);
    b.ret(body, &[]);
    assert_eq!(messages(&b.check()), ["redefinition of value '%r'"]);
}

#[test]
fn written_operand_type_must_match_definition() {
    let mut b = B::new();
    let f32 = b.f32();
    let tile = b.ty(Type::Tile(ptoc::ir::types::TileType {
        loc: Some(Loc::Vec),
        rows: 16,
        cols: 16,
        elem: ScalarType::F16,
        valid: None,
    }));
    let (_, body) = b.func("f", &[]);
    let t = b.arg(body, "%t", f32);
    let u = b.use_(body, &[(t, Some(tile)), (t, Some(f32))]);
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(
        messages(&d),
        ["type mismatch for '%t': defined as f32, used as !pto.tile<vec, 16x16xf16>"]
    );
    assert_eq!(d[0].code, Code::OperandTypeMismatch);
    assert_eq!(Some(d[0].span), b.m.op_spans(u).operand_types[0]);
    assert_eq!(d[0].labels[0].span, b.m.value_span(t));
}

#[test]
fn return_count_and_types() {
    let mut b = B::new();
    let f32 = b.f32();
    let i32 = b.i32();
    let (_, f) = b.func("f", &[f32, f32]);
    let a = b.arg(f, "%a", f32);
    b.ret(f, &[(a, None)]);
    let (_, g) = b.func("g", &[i32]);
    let x = b.arg(g, "%x", f32);
    b.ret(g, &[(x, None)]);
    let d = b.check();
    assert_eq!(
        messages(&d),
        [
            "'return' has 1 operand but the function returns 2 values",
            "type of 'return' operand #0 ('%x') is f32, but the function returns i32",
        ]
    );
    assert!(d.iter().all(|d| d.code == Code::ReturnTypeMismatch));
}

#[test]
fn op_result_counts() {
    // %m = pto.plt_b16 %n : ... (one name for two results)
    let mut b = B::new();
    let i32 = b.i32();
    let mask = b.ty(Type::Mask(MaskGranularity::B16));
    let (_, body) = b.func("f", &[]);
    let n = b.arg(body, "%n", i32);
    b.op(
        OpKind::Plt {
            granularity: MaskGranularity::B16,
        },
        body,
        &[(n, Some(i32))],
        &[("%m", 1)],
        &[mask],
    );
    b.op(OpKind::Vlds, body, &[], &[("%v", 3)], &[i32, i32, i32]);
    b.ret(body, &[]);
    let d = b.check();
    assert_eq!(
        messages(&d),
        [
            "'pto.plt_b16' defines 2 results but 1 name was given",
            "'pto.vlds' defines 1 or 2 results but 3 names were given",
        ]
    );
    assert!(d.iter().all(|d| d.code == Code::ResultCountMismatch));
}

#[test]
fn all_errors_are_collected() {
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let g1 = b.unresolved("%g1", f32);
    let g2 = b.unresolved("%g2", f32);
    b.use_(body, &[(g1, None), (g2, None)]);
    b.def(body, "%d", f32);
    b.def(body, "%d", f32);
    b.ret(body, &[]);
    assert_eq!(b.check().len(), 3);
}

#[test]
fn def_use_graph_records_positions() {
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[]);
    let a = b.arg(body, "%a", f32);
    let c = b.def(body, "%c", f32);
    let u = b.use_(body, &[(a, None), (c, None), (a, None)]);
    let g = DefUseGraph::build(&b.m);
    assert_eq!(g.uses_of(u), vec![(0, a), (1, c), (2, a)]);
    assert_eq!(g.users_of(a), vec![u]);
}

#[test]
fn hostile_ir_does_not_panic() {
    // Dangling handles and missing span entries must be tolerated.
    let mut b = B::new();
    let f32 = b.f32();
    let (_, body) = b.func("f", &[f32]);
    let u = b.use_(body, &[]);
    b.m.ops[u.0 as usize].operands.push(ValueId(9999));
    b.m.ops[u.0 as usize].operand_types.push(Some(TypeId(77)));
    b.m.ops[u.0 as usize].regions.push(RegionId(4242));
    b.m.spans.ops[u.0 as usize].operands.clear();
    let r = b.ret(body, &[]);
    b.m.ops[r.0 as usize].parent = RegionId(555);
    let _ = b.check();
}
