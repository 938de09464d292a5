//! `pto.tcvt` rule checks (checks 1-11 of the module doc), reading `target::tcvt` and
//! `target::resolve`. Operands are looked up with `get`, so malformed hand-built IR is skipped,
//! never indexed blindly.

use pto_runtime::ElemType;

use super::error::RuleError;
use super::{
    attr_span, diag, op_span, operand_type_span, profile_list, result_type_span, scalar_text,
    type_text, unsupported_elem,
};
use crate::diag::{Diagnostic, Span};
use crate::ir::types::{BLayout, Dim, Loc, TileView};
use crate::ir::{Attr, Module, OpId, OpKind, TcvtOp, TypeId, ValueDef, ValueId};
use crate::target::resolve::{resolve, tmp_role, CvtPath, ResolveDiag, SatOffReason, TmpRole};
use crate::target::tcvt::{
    needs_explicit_tmp_at_level3, pair_class, pair_supported, profiles_supporting,
    tmp_capacity_bytes, tmp_required_worst, Extent, PairClass, Sat,
};
use crate::target::Profile;

/// One tile operand of a tcvt.
struct Operand {
    role: &'static str,
    ty: TypeId,
    span: Span,
    value: Option<ValueId>,
}

/// An operand that is a tile, with its element type if conversion-capable.
struct Tile {
    view: TileView,
    elem: Option<ElemType>,
    span: Span,
    value: Option<ValueId>,
}

pub(super) fn check(
    m: &Module,
    op: OpId,
    t: &TcvtOp,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(data) = m.ops.get(op.0 as usize) else {
        return;
    };
    let spans = m.spans.ops.get(op.0 as usize);
    let operand = |i: usize, role| -> Option<Operand> {
        let v = *data.operands.get(i)?;
        let ty = data
            .operand_types
            .get(i)
            .copied()
            .flatten()
            .or_else(|| m.values.get(v.0 as usize).map(|d| d.ty))?;
        Some(Operand {
            role,
            ty,
            span: operand_type_span(spans, i),
            value: Some(v),
        })
    };
    let Some(src) = operand(0, "src") else {
        return;
    };
    let tmp = match t.tmp_index() {
        Some(i) => match operand(i, "tmp") {
            Some(o) => Some(o),
            None => return,
        },
        None => None,
    };
    let dst = match t.dst_index() {
        Some(i) => operand(i, "dst"),
        None => data.results.first().and_then(|&r| {
            Some(Operand {
                role: "dst",
                ty: m.values.get(r.0 as usize)?.ty,
                span: result_type_span(spans, 0),
                value: None,
            })
        }),
    };
    let Some(dst) = dst else {
        return;
    };

    // 1-3: operand kinds, element types, valid <= shape.
    let tile = |o: &Operand, diags: &mut Vec<Diagnostic>| -> Option<Tile> {
        let Some(view) = type_get(m, o.ty).and_then(|ty| ty.as_tile()) else {
            diags.push(diag(
                RuleError::TcvtOperandNotTile {
                    role: o.role,
                    ty: type_text(m, o.ty),
                },
                o.span,
            ));
            return None;
        };
        let elem = view.elem.conversion_elem();
        if elem.is_none() {
            diags.push(unsupported_elem("pto.tcvt", o.role, &view.elem, o.span));
        }
        for (dim, valid, extent) in [
            ("row", view.valid_row, view.rows),
            ("col", view.valid_col, view.cols),
        ] {
            if let Dim::Static(v) = valid {
                if v > extent {
                    diags.push(diag(
                        RuleError::TileValidExceedsShape {
                            role: o.role,
                            dim,
                            valid: v,
                            extent,
                        },
                        o.span,
                    ));
                }
            }
        }
        Some(Tile {
            view,
            elem,
            span: o.span,
            value: o.value,
        })
    };
    let src_t = tile(&src, diags);
    let tmp_t = tmp.as_ref().map(|o| tile(o, diags));
    let dst_t = tile(&dst, diags);
    let (Some(src_t), Some(dst_t)) = (src_t, dst_t) else {
        return;
    };
    let tmp_t = tmp_t.flatten();

    // 4-5: logical shapes.
    let (sl, dl) = (Logical::of(&src_t.view), Logical::of(&dst_t.view));
    let subview = is_subview(m, src_t.value) || is_subview(m, dst_t.value);
    let shape_mismatch = !subview && (sl.rows, sl.cols) != (dl.rows, dl.cols);
    if shape_mismatch {
        let mut d = diag(
            RuleError::TcvtShapeMismatch {
                src: format!("{}x{}", sl.rows, sl.cols),
                dst: format!("{}x{}", dl.rows, dl.cols),
            },
            op_span(spans),
        )
        .with_label(src_t.span, "src type")
        .with_label(dst_t.span, "dst type");
        for tl in [&src_t, &dst_t] {
            if tl.view.elem.is_packed() {
                d = d.with_note(
                    format!(
                        "{} packs two elements per byte: {}x{} holds {} logical elements",
                        scalar_text(&tl.view.elem),
                        tl.view.rows,
                        tl.view.cols,
                        Logical::of(&tl.view).shape_text()
                    ),
                    Some(tl.span),
                );
            }
        }
        diags.push(d);
    }
    let differs = |a: Dim, b: Dim| matches!((a, b), (Dim::Static(x), Dim::Static(y)) if x != y);
    // With a shape mismatch already reported, valid shapes that merely restate the shapes would
    // only repeat it; E0206 then fires only when a valid shape is explicitly narrower.
    let cascade = shape_mismatch && sl.valid_is_full() && dl.valid_is_full();
    if !cascade && (differs(sl.valid_row, dl.valid_row) || differs(sl.valid_col, dl.valid_col)) {
        diags.push(
            diag(
                RuleError::TcvtValidShapeMismatch {
                    src: sl.valid_text(),
                    dst: dl.valid_text(),
                },
                op_span(spans),
            )
            .with_label(src_t.span, "src type")
            .with_label(dst_t.span, "dst type"),
        );
    }

    // 6: locations.
    for (role, tl) in [("src", &src_t), ("dst", &dst_t)] {
        if tl.view.loc != Loc::Vec {
            diags.push(diag(
                RuleError::TcvtLocNotVec {
                    role,
                    loc: tl.view.loc.as_str(),
                },
                tl.span,
            ));
        }
    }
    if let Some(tl) = &tmp_t {
        if tl.view.loc != Loc::Vec {
            diags.push(diag(
                RuleError::TcvtTmpNotVec {
                    loc: tl.view.loc.as_str(),
                },
                tl.span,
            ));
        }
    }

    // 7: the pair.
    let (Some(s), Some(d)) = (src_t.elem, dst_t.elem) else {
        return;
    };
    // Messages spell the element types as written (`si16` stays `si16`, syntax.md §3.7).
    let (st, dt) = (scalar_text(&src_t.view.elem), scalar_text(&dst_t.view.elem));
    if !pair_supported(profile, s, d) {
        diags.push(
            diag(
                RuleError::TcvtPairUnsupported {
                    src: st.clone(),
                    dst: dt.clone(),
                    profile: profile.as_str().into(),
                },
                op_span(spans),
            )
            .with_label(src_t.span, "src type")
            .with_label(dst_t.span, "dst type")
            .with_help(format!(
                "tcvt from {st} to {dt} is supported on {}",
                profile_list(&profiles_supporting(s, d))
            )),
        );
        return;
    }

    // 8: effective mode and saturation.
    let sat_attr = t.sat.map(|a| if a.on { Sat::On } else { Sat::Off });
    let sat_keys: &[&str] = match t.sat {
        Some(a) if a.legacy_key => &["sat_mode", "satmode"],
        _ => &["satmode", "sat_mode"],
    };
    let has_tmp = tmp_t.is_some();
    let r = resolve(profile, s, d, t.rmode, sat_attr, has_tmp);
    for rd in &r.diags {
        let (e, span) = match *rd {
            ResolveDiag::RmodeForced { requested, forced } => (
                RuleError::TcvtRmodeForced {
                    requested: requested.as_str(),
                    forced: forced.as_str(),
                    src: st.clone(),
                    dst: dt.clone(),
                    profile: profile.as_str().into(),
                },
                attr_span(spans, &["rmode"]),
            ),
            ResolveDiag::OddUnsupported { fallback } => (
                RuleError::TcvtOddUnsupported {
                    src: st.clone(),
                    dst: dt.clone(),
                    profile: profile.as_str().into(),
                    fallback: fallback.as_str(),
                },
                attr_span(spans, &["rmode"]),
            ),
            ResolveDiag::RmodeIgnored { requested } => (
                RuleError::TcvtRmodeIgnored {
                    requested: requested.as_str(),
                    src: st.clone(),
                    dst: dt.clone(),
                },
                attr_span(spans, &["rmode"]),
            ),
            ResolveDiag::SatOffIgnored { reason } => (
                RuleError::TcvtSatOffIgnored {
                    src: st.clone(),
                    dst: dt.clone(),
                    reason: match reason {
                        SatOffReason::Deq => "(the deq path always saturates)",
                        SatOffReason::NoTmp => "without a tmp operand",
                    },
                },
                attr_span(spans, sat_keys),
            ),
        };
        diags.push(diag(e, span));
    }

    // 9: the tmp operand.
    match tmp_role(profile, s, d, &r, sat_attr, has_tmp) {
        TmpRole::Absent => {}
        TmpRole::IgnoredOnCpu => {
            if let Some(tl) = &tmp_t {
                diags.push(diag(RuleError::TcvtTmpIgnored, tl.span));
            }
        }
        TmpRole::Unused { forwards_sat } => {
            if let Some(tl) = &tmp_t {
                diags.push(diag(
                    RuleError::TcvtTmpUnused {
                        src: st.clone(),
                        dst: dt.clone(),
                        profile: profile.as_str().into(),
                        extra: if forwards_sat {
                            "; it only makes the explicit satmode OFF take effect"
                        } else {
                            ""
                        },
                    },
                    tl.span,
                ));
            }
        }
        TmpRole::Suggested => diags.push(diag(
            RuleError::TcvtTmpSuggested {
                src: st.clone(),
                dst: dt.clone(),
            },
            op_span(spans),
        )),
        TmpRole::TorchScratch(pair) => {
            if let (Some(tl), Some(tmp_elem)) = (&tmp_t, tmp_t.as_ref().and_then(|t| t.elem)) {
                let extent = |v: Dim, n: u64| match v {
                    Dim::Static(x) => Extent::Static(x),
                    Dim::Dynamic => Extent::UpTo(n),
                };
                let (rr, cc) = (extent(dl.valid_row, dl.rows), extent(dl.valid_col, dl.cols));
                let need = tmp_required_worst(pair, rr, cc, src_t.view.cols);
                let found =
                    tmp_capacity_bytes(tl.view.rows, tl.view.cols, tmp_elem.storage_bytes());
                let dynamic = matches!(rr, Extent::UpTo(_)) || matches!(cc, Extent::UpTo(_));
                if dynamic {
                    diags.push(diag(RuleError::TcvtTmpBoundDynamic { need }, tl.span));
                }
                if found < need {
                    diags.push(
                        diag(RuleError::TcvtTmpTooSmall { need, found }, tl.span).with_note(
                            format!(
                                "the a2a3 PyTorch-compatible {st} to {dt} path needs it for dst valid {} and src row stride {}",
                                dl.valid_text(),
                                src_t.view.cols
                            ),
                            None,
                        ),
                    );
                }
            }
        }
    }

    // 10-11: notes on numeric conventions.
    let note_extra = profile.rules().nonsat.note_extra;
    if let Some(extra) =
        note_extra.filter(|_| pair_class(s, d) == PairClass::FloatToInt && r.sat == Sat::Off)
    {
        diags.push(diag(
            RuleError::NonsatTargetDefined {
                src: st.clone(),
                dst: dt.clone(),
                convention: match r.path {
                    CvtPath::Torch => "PyTorch-compatible int32-then-low-bits (tmp path)",
                    _ => "int64-then-low-bits",
                },
                extra,
            },
            attr_span(spans, sat_keys),
        ));
    }
    if matches!(d, ElemType::F4E2M1x2 | ElemType::F4E1M2x2) && s.is_float() && !s.is_packed() {
        diags.push(diag(
            RuleError::Fp4NanToZero {
                src: st.clone(),
                dst: dt.clone(),
            },
            dst_t.span,
        ));
    }
}

/// Logical extents and valid dims: the packed dim doubled (§2.6, §3.6).
struct Logical {
    rows: u64,
    cols: u64,
    valid_row: Dim,
    valid_col: Dim,
}

impl Logical {
    fn of(v: &TileView) -> Logical {
        let double = |d: Dim| match d {
            Dim::Static(n) => Dim::Static(n.saturating_mul(2)),
            Dim::Dynamic => Dim::Dynamic,
        };
        let packed = v.elem.is_packed();
        match (packed, v.blayout) {
            (true, BLayout::RowMajor) => Logical {
                rows: v.rows,
                cols: v.cols.saturating_mul(2),
                valid_row: v.valid_row,
                valid_col: double(v.valid_col),
            },
            (true, BLayout::ColMajor) => Logical {
                rows: v.rows.saturating_mul(2),
                cols: v.cols,
                valid_row: double(v.valid_row),
                valid_col: v.valid_col,
            },
            (false, _) => Logical {
                rows: v.rows,
                cols: v.cols,
                valid_row: v.valid_row,
                valid_col: v.valid_col,
            },
        }
    }
    /// The valid shape equals the shape (no explicitly different valid dims).
    fn valid_is_full(&self) -> bool {
        self.valid_row == Dim::Static(self.rows) && self.valid_col == Dim::Static(self.cols)
    }
    fn shape_text(&self) -> String {
        format!("{}x{}", self.rows, self.cols)
    }
    fn valid_text(&self) -> String {
        let d = |d: Dim| match d {
            Dim::Static(n) => n.to_string(),
            Dim::Dynamic => "?".to_string(),
        };
        format!("{}x{}", d(self.valid_row), d(self.valid_col))
    }
}

/// `--pto-level=level3` (PTOAS skips memory planning): every tcvt of `m` without a tmp that
/// PTOAS would give an implicit one ([`needs_explicit_tmp_at_level3`] on its profile) is
/// `tcvt-tmp-required` (E0211) at the op, in PTOAS's words. Ops whose pair the profile does not
/// support are left to E0207; ops in `skip` (structural errors) are not looked at.
pub fn check_plan_memory_skipped(
    m: &Module,
    profile_of: &dyn Fn(OpId) -> Profile,
    skip: &crate::verify::structure::TaintedOps,
    diags: &mut Vec<Diagnostic>,
) {
    for op in m.walk() {
        let Some((t, s, d)) = tcvt_elems(m, op) else {
            continue;
        };
        if skip.contains(&op) || t.tmp_index().is_some() {
            continue;
        }
        let profile = profile_of(op);
        let sat_attr = t.sat.map(|a| if a.on { Sat::On } else { Sat::Off });
        if pair_supported(profile, s, d) && needs_explicit_tmp_at_level3(profile, s, d, sat_attr) {
            let spans = m.spans.ops.get(op.0 as usize);
            let at = op_span(spans);
            // The native-path note (N0202) describes what level2 builds; at level3 it is moot.
            diags.retain(|x| !(x.code == crate::diag::Code::TcvtTmpSuggested && x.span == at));
            diags.push(diag(
                RuleError::TcvtTmpRequired {
                    src: s.to_string(),
                    dst: d.to_string(),
                },
                at,
            ));
        }
    }
}

/// An `alloc_tile` result carrying `pto.view_semantics = "subview"` (shape check exception).
fn is_subview(m: &Module, v: Option<ValueId>) -> bool {
    let Some(ValueDef::Result { op, .. }) =
        v.and_then(|v| m.values.get(v.0 as usize)).map(|d| &d.def)
    else {
        return false;
    };
    m.ops.get(op.0 as usize).is_some_and(|o| {
        matches!(o.kind, OpKind::AllocTile { .. })
            && matches!(o.attrs.get("pto.view_semantics"), Some(Attr::Str(s)) if s == "subview")
    })
}

/// Tolerant type lookup (hand-built IR may carry dangling ids).
fn type_get(m: &Module, id: TypeId) -> Option<&crate::ir::Type> {
    ((id.0 as usize) < m.types.len()).then(|| m.types.get(id))
}

/// A tcvt op with its source and destination element types (`None` for other ops, or when a
/// type is missing or not a conversion element).
pub(super) fn tcvt_elems(m: &Module, op: OpId) -> Option<(&TcvtOp, ElemType, ElemType)> {
    let data = m.ops.get(op.0 as usize)?;
    let OpKind::Tcvt(t) = &data.kind else {
        return None;
    };
    let elem_of = |ty: Option<TypeId>| -> Option<ElemType> {
        type_get(m, ty?)?.as_tile()?.elem.conversion_elem()
    };
    let operand_ty = |i: usize| -> Option<TypeId> {
        let v = *data.operands.get(i)?;
        data.operand_types
            .get(i)
            .copied()
            .flatten()
            .or_else(|| m.values.get(v.0 as usize).map(|d| d.ty))
    };
    let dst_ty = match t.dst_index() {
        Some(i) => operand_ty(i),
        None => data
            .results
            .first()
            .and_then(|&r| m.values.get(r.0 as usize))
            .map(|d| d.ty),
    };
    Some((t, elem_of(operand_ty(0))?, elem_of(dst_ty)?))
}

/// With no `--defaults` choice: every tcvt that leaves `satmode` or the mode (`NONE`) to the
/// toolchain, on a pair whose result depends on that choice, is `tcvt-default-dependent` (W0208)
/// at the op, once, with an input the interpreter found and each toolchain's result for it
/// (`exec::defaults`). Pairs where every choice gives the same result get nothing.
pub fn check_toolchain_defaults(
    m: &Module,
    profile_of: &dyn Fn(OpId) -> Profile,
    diags: &mut Vec<Diagnostic>,
) {
    use crate::exec::defaults::default_dependence;
    use crate::target::toolchain::leaves_defaults;
    use std::collections::HashMap;
    use std::sync::Arc;
    type Key = (
        Profile,
        ElemType,
        ElemType,
        Option<crate::ir::RoundMode>,
        Option<Sat>,
        bool,
    );
    // The witness text of each distinct combination, `None` where the toolchains agree.
    let mut seen: HashMap<Key, Option<Arc<str>>> = HashMap::new();
    for op in m.walk() {
        let Some((t, s, d)) = tcvt_elems(m, op) else {
            continue;
        };
        let sat_attr = t.sat.map(|a| if a.on { Sat::On } else { Sat::Off });
        if !leaves_defaults(t.rmode, sat_attr) {
            continue;
        }
        let profile = profile_of(op);
        let has_tmp = t.tmp_index().is_some();
        let key = (profile, s, d, t.rmode, sat_attr, has_tmp);
        let witness = seen.entry(key).or_insert_with(|| {
            let w = default_dependence(profile, s, d, t.rmode, sat_attr, has_tmp)?;
            let show = |ty: ElemType, bits: u64| {
                format!(
                    "{} ({bits:#x})",
                    pto_runtime::convert::display_value(ty, bits)
                )
            };
            let results = w
                .results
                .iter()
                .map(|(tc, r)| format!("{} {}", tc.name(), show(d, *r)))
                .collect::<Vec<_>>()
                .join(", ");
            Some(Arc::from(format!("{}: {results}", show(s, w.input))))
        });
        let Some(witness) = witness.clone() else {
            continue;
        };
        let omitted = match (
            sat_attr.is_none(),
            t.rmode == Some(crate::ir::RoundMode::None),
        ) {
            (true, true) => "satmode and rmode NONE",
            (true, false) => "satmode",
            _ => "rmode NONE",
        };
        diags.push(diag(
            RuleError::TcvtDefaultDependent {
                src: s.ir_name(),
                dst: d.ir_name(),
                profile: profile.as_str(),
                omitted,
                witness,
            },
            op_span(m.spans.ops.get(op.0 as usize)),
        ));
    }
}
