//! Hand-built IR for the rule tests (the parser is developed in parallel): one tcvt or vcvt
//! per module, with fixed, distinct spans so tests can check where diagnostics point.
#![allow(dead_code)]

use ptoc::diag::{Diagnostic, Severity, Span};
use ptoc::ir::types::{
    BLayout, Dim, Loc, MaskGranularity, SLayout, ScalarType, Signedness, TileBufType,
};
use ptoc::ir::{
    Attr, Module, OpData, OpKind, OpSpans, Part, ResultGroup, Rnd, RoundMode, SatAttr, TcvtForm,
    TcvtOp, Type, VSat, VcvtOp,
};
use ptoc::target::Profile;

pub const OP: Span = Span::new(0, 400);
pub const NAME: Span = Span::new(10, 18);
pub const RMODE: Span = Span::new(30, 50);
pub const SAT: Span = Span::new(50, 70);
pub const RND: Span = Span::new(30, 40);
pub const VSAT: Span = Span::new(40, 50);
pub const PART: Span = Span::new(50, 60);
/// Written operand types, by operand index.
pub const TY: [Span; 3] = [
    Span::new(100, 140),
    Span::new(140, 180),
    Span::new(180, 220),
];
pub const RES_TY: Span = Span::new(300, 340);

pub fn f32() -> ScalarType {
    ScalarType::F32
}
pub fn f16() -> ScalarType {
    ScalarType::F16
}
pub fn bf16() -> ScalarType {
    ScalarType::BF16
}
pub fn int(width: u16) -> ScalarType {
    ScalarType::Int {
        width,
        signedness: Signedness::Signless,
    }
}
pub fn sint(width: u16) -> ScalarType {
    ScalarType::Int {
        width,
        signedness: Signedness::Signed,
    }
}
pub fn uint(width: u16) -> ScalarType {
    ScalarType::Int {
        width,
        signedness: Signedness::Unsigned,
    }
}

/// A `!pto.tile_buf` with the compact form's defaults.
pub fn tile_full(
    loc: Loc,
    rows: u64,
    cols: u64,
    elem: ScalarType,
    valid: (Dim, Dim),
    blayout: BLayout,
) -> Type {
    Type::TileBuf(TileBufType {
        loc,
        rows,
        cols,
        elem,
        valid_row: valid.0,
        valid_col: valid.1,
        blayout,
        slayout: SLayout::NoneBox,
        fractal: 512,
        pad: 0,
        compact: 0,
    })
}

/// `!pto.tile_buf<vec, RxCxT>`.
pub fn tb(rows: u64, cols: u64, elem: ScalarType) -> Type {
    tile_full(
        Loc::Vec,
        rows,
        cols,
        elem,
        (Dim::Static(rows), Dim::Static(cols)),
        BLayout::RowMajor,
    )
}

/// `!pto.tile_buf<vec, RxCxT, valid=VRxVC>`.
pub fn tbv(rows: u64, cols: u64, elem: ScalarType, vr: Dim, vc: Dim) -> Type {
    tile_full(Loc::Vec, rows, cols, elem, (vr, vc), BLayout::RowMajor)
}

pub fn s(n: u64) -> Dim {
    Dim::Static(n)
}

/// A tcvt to build.
#[derive(Clone)]
pub struct Tcvt {
    pub src: Type,
    pub tmp: Option<Type>,
    pub dst: Type,
    pub rmode: Option<RoundMode>,
    pub sat: Option<bool>,
    pub legacy_sat_key: bool,
    pub ssa: bool,
    /// Define dst by an `alloc_tile` with `pto.view_semantics = "subview"`.
    pub dst_subview: bool,
}

impl Tcvt {
    pub fn new(src: Type, dst: Type) -> Self {
        Tcvt {
            src,
            tmp: None,
            dst,
            rmode: None,
            sat: None,
            legacy_sat_key: false,
            ssa: false,
            dst_subview: false,
        }
    }
    pub fn rmode(mut self, m: RoundMode) -> Self {
        self.rmode = Some(m);
        self
    }
    pub fn sat(mut self, on: bool) -> Self {
        self.sat = Some(on);
        self
    }
    pub fn tmp(mut self, t: Type) -> Self {
        self.tmp = Some(t);
        self
    }
    pub fn ssa(mut self) -> Self {
        self.ssa = true;
        self
    }

    pub fn build(&self) -> Module {
        let mut m = Module::new();
        let body = m.body;
        let src_t = m.types.intern(self.src.clone());
        let src = m.add_region_arg(body, "%s", src_t, Span::default());
        let mut operands = vec![src];
        let mut operand_types = vec![Some(src_t)];
        if let Some(t) = &self.tmp {
            let tt = m.types.intern(t.clone());
            operands.push(m.add_region_arg(body, "%t", tt, Span::default()));
            operand_types.push(Some(tt));
        }
        let dst_t = m.types.intern(self.dst.clone());
        if !self.ssa {
            let dst = if self.dst_subview {
                let mut attrs = ptoc::ir::AttrDict::new();
                attrs.insert("pto.view_semantics".into(), Attr::Str("subview".into()));
                let alloc = m.push_op(
                    OpData {
                        kind: OpKind::AllocTile {
                            addr: false,
                            valid_row: false,
                            valid_col: false,
                        },
                        operands: Default::default(),
                        operand_types: Default::default(),
                        results: Default::default(),
                        result_groups: vec![ResultGroup {
                            name: "%d".into(),
                            count: 1,
                            explicit_count: false,
                        }]
                        .into(),
                        regions: Default::default(),
                        attrs: attrs.into(),
                        parent: body,
                    },
                    OpSpans::default(),
                );
                m.add_results(alloc, &[dst_t], &[]);
                m.op(alloc).results[0]
            } else {
                m.add_region_arg(body, "%d", dst_t, Span::default())
            };
            operands.push(dst);
            operand_types.push(Some(dst_t));
        }
        let mut spans = OpSpans {
            op: OP,
            name: NAME,
            operands: operands
                .iter()
                .enumerate()
                .map(|(i, _)| Span::new(200 + i * 10, 205 + i * 10))
                .collect(),
            operand_types: operand_types
                .iter()
                .enumerate()
                .map(|(i, _)| Some(TY[i]))
                .collect(),
            result_types: if self.ssa {
                vec![RES_TY].into()
            } else {
                Default::default()
            },
            attrs: Default::default(),
        };
        if self.rmode.is_some() {
            spans.attrs.insert("rmode", RMODE);
        }
        if self.sat.is_some() {
            let key = if self.legacy_sat_key {
                "sat_mode"
            } else {
                "satmode"
            };
            spans.attrs.insert(key, SAT);
        }
        let op = m.push_op(
            OpData {
                kind: OpKind::Tcvt(TcvtOp {
                    form: if self.ssa {
                        TcvtForm::Ssa
                    } else {
                        TcvtForm::Dps
                    },
                    has_tmp: self.tmp.is_some(),
                    rmode: self.rmode,
                    sat: self.sat.map(|on| SatAttr {
                        on,
                        legacy_key: self.legacy_sat_key,
                    }),
                }),
                operands: operands.into(),
                operand_types: operand_types.into(),
                results: Default::default(),
                result_groups: if self.ssa {
                    vec![ResultGroup {
                        name: "%r".into(),
                        count: 1,
                        explicit_count: false,
                    }]
                    .into()
                } else {
                    Default::default()
                },
                regions: Default::default(),
                attrs: Default::default(),
                parent: body,
            },
            spans,
        );
        if self.ssa {
            m.add_results(op, &[dst_t], &[Span::default()]);
        }
        m
    }

    pub fn check(&self, profile: Profile) -> Vec<Diagnostic> {
        run(&self.build(), profile)
    }
}

pub fn vreg(lanes: u64, elem: ScalarType) -> Type {
    Type::VReg { lanes, elem }
}

pub fn mask(bits: u32) -> Type {
    Type::Mask(match bits {
        8 => MaskGranularity::B8,
        16 => MaskGranularity::B16,
        _ => MaskGranularity::B32,
    })
}

/// A vcvt to build.
#[derive(Clone)]
pub struct Vcvt {
    pub input: Type,
    pub mask: Type,
    pub result: Type,
    pub rnd: Option<Rnd>,
    pub sat: Option<VSat>,
    pub part: Option<Part>,
    pub rnd_key: &'static str,
}

impl Vcvt {
    pub fn new(input: Type, mask: Type, result: Type) -> Self {
        Vcvt {
            input,
            mask,
            result,
            rnd: None,
            sat: None,
            part: None,
            rnd_key: "rnd",
        }
    }
    pub fn rnd(mut self, r: Rnd) -> Self {
        self.rnd = Some(r);
        self
    }
    pub fn sat(mut self, s: VSat) -> Self {
        self.sat = Some(s);
        self
    }
    pub fn part(mut self, p: Part) -> Self {
        self.part = Some(p);
        self
    }

    pub fn build(&self) -> Module {
        let mut m = Module::new();
        let body = m.body;
        let it = m.types.intern(self.input.clone());
        let mt = m.types.intern(self.mask.clone());
        let rt = m.types.intern(self.result.clone());
        let a = m.add_region_arg(body, "%v", it, Span::default());
        let b = m.add_region_arg(body, "%m", mt, Span::default());
        let mut spans = OpSpans {
            op: OP,
            name: NAME,
            operands: vec![Span::new(200, 205), Span::new(210, 215)].into(),
            operand_types: vec![Some(TY[0]), Some(TY[1])].into(),
            result_types: vec![RES_TY].into(),
            attrs: Default::default(),
        };
        if self.rnd.is_some() {
            spans.attrs.insert(self.rnd_key, RND);
        }
        if self.sat.is_some() {
            spans.attrs.insert("sat", VSAT);
        }
        if self.part.is_some() {
            spans.attrs.insert("part", PART);
        }
        let op = m.push_op(
            OpData {
                kind: OpKind::Vcvt(VcvtOp {
                    rnd: self.rnd,
                    sat: self.sat,
                    part: self.part,
                }),
                operands: vec![a, b].into(),
                operand_types: vec![Some(it), Some(mt)].into(),
                results: Default::default(),
                result_groups: vec![ResultGroup {
                    name: "%r".into(),
                    count: 1,
                    explicit_count: false,
                }]
                .into(),
                regions: Default::default(),
                attrs: Default::default(),
                parent: body,
            },
            spans,
        );
        m.add_results(op, &[rt], &[Span::default()]);
        m
    }

    pub fn check(&self, profile: Profile) -> Vec<Diagnostic> {
        run(&self.build(), profile)
    }
}

pub fn run(m: &Module, profile: Profile) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    ptoc::verify::rules::check(m, profile, &mut diags);
    diags
}

/// Names of the diagnostics, in emission order.
pub fn names(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags.iter().map(|d| d.code.name()).collect()
}

/// The single diagnostic named `name` (panics with the list otherwise).
pub fn only<'a>(diags: &'a [Diagnostic], name: &str) -> &'a Diagnostic {
    let hits: Vec<_> = diags.iter().filter(|d| d.code.name() == name).collect();
    assert_eq!(hits.len(), 1, "expected one {name}, got {:?}", names(diags));
    hits[0]
}

pub fn has(diags: &[Diagnostic], name: &str) -> bool {
    diags.iter().any(|d| d.code.name() == name)
}

pub fn errors(diags: &[Diagnostic]) -> Vec<&'static str> {
    diags
        .iter()
        .filter(|d| d.severity == Severity::Error)
        .map(|d| d.code.name())
        .collect()
}
