//! `pto.vcvt` rule checks (checks 1-9 of the module doc), reading the contract in
//! `target::vcvt`. Operands are looked up with `get`; malformed hand-built IR is skipped.

use pto_runtime::ElemType;

use super::error::RuleError;
use super::{
    attr_span, diag, op_span, operand_type_span, profile_list, result_type_span, scalar_text,
    type_text, unsupported_elem,
};
use crate::diag::{Diagnostic, Span};
use crate::ir::types::ScalarType;
use crate::ir::{Module, OpId, Rnd, Type, TypeId, VcvtOp};
use crate::target::vcvt::{available, lookup, mask_bits_for, profiles_supporting, ANY};
use crate::target::Profile;

struct Reg {
    lanes: u64,
    elem: ScalarType,
    span: Span,
}

pub(super) fn check(
    m: &Module,
    op: OpId,
    v: &VcvtOp,
    profile: Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(data) = m.ops.get(op.0 as usize) else {
        return;
    };
    let spans = m.spans.ops.get(op.0 as usize);
    let ty_of = |i: usize| -> Option<TypeId> {
        let val = *data.operands.get(i)?;
        data.operand_types
            .get(i)
            .copied()
            .flatten()
            .or_else(|| m.values.get(val.0 as usize).map(|d| d.ty))
    };
    let get = |id: TypeId| ((id.0 as usize) < m.types.len()).then(|| m.types.get(id));
    let (Some(in_ty), Some(mask_ty)) = (ty_of(0), ty_of(1)) else {
        return;
    };
    let Some(res_ty) = data
        .results
        .first()
        .and_then(|r| m.values.get(r.0 as usize))
        .map(|d| d.ty)
    else {
        return;
    };

    // 1: vregs.
    let reg =
        |role: &'static str, ty: TypeId, span: Span, diags: &mut Vec<Diagnostic>| match get(ty) {
            Some(Type::VReg { lanes, elem }) => Some(Reg {
                lanes: *lanes,
                elem: elem.clone(),
                span,
            }),
            _ => {
                diags.push(diag(
                    RuleError::VcvtNotVreg {
                        role,
                        ty: type_text(m, ty),
                    },
                    span,
                ));
                None
            }
        };
    let input = reg("input", in_ty, operand_type_span(spans, 0), diags);
    let result = reg("result", res_ty, result_type_span(spans, 0), diags);
    let (Some(input), Some(result)) = (input, result) else {
        return;
    };

    // 2: element types.
    let s = input.elem.conversion_elem();
    let d = result.elem.conversion_elem();
    if s.is_none() {
        diags.push(unsupported_elem(
            "pto.vcvt",
            "input",
            &input.elem,
            input.span,
        ));
    }
    if d.is_none() {
        diags.push(unsupported_elem(
            "pto.vcvt",
            "result",
            &result.elem,
            result.span,
        ));
    }
    let (Some(s), Some(d)) = (s, d) else {
        return;
    };

    // Messages spell the element types as written (`si16` stays `si16`, syntax.md §3.7).
    let (st, dt) = (scalar_text(&input.elem), scalar_text(&result.elem));

    // 3: register sizes.
    let bits = |r: &Reg, e: ElemType| u128::from(r.lanes) * u128::from(e.storage_bits());
    let (sb, db) = (bits(&input, s), bits(&result, d));
    let mut sized = true;
    for (r, b) in [(&input, sb), (&result, db)] {
        if b != 2048 {
            sized = false;
            diags.push(diag(
                RuleError::VregSize {
                    lanes: r.lanes,
                    elem: scalar_text(&r.elem),
                    bytes: b / 8,
                },
                r.span,
            ));
        }
    }
    if sized && sb != db {
        diags.push(diag(
            RuleError::VregTotalBits {
                src_bits: sb,
                dst_bits: db,
            },
            op_span(spans),
        ));
    }

    // 4: mask granularity.
    let expected = mask_bits_for(s);
    let mask_ok = matches!(get(mask_ty), Some(Type::Mask(g)) if g.bits() == expected);
    if !mask_ok {
        diags.push(diag(
            RuleError::VcvtMaskGranularity {
                expected,
                src: st.clone(),
                found: type_text(m, mask_ty),
            },
            operand_type_span(spans, 1),
        ));
    }

    // 5: contract row and availability.
    let Some(c) = lookup(s, d) else {
        diags.push(diag(
            RuleError::VcvtNoContract {
                src: st.clone(),
                dst: dt.clone(),
            },
            op_span(spans),
        ));
        return;
    };
    if !available(profile, c) {
        diags.push(
            diag(
                RuleError::VcvtPairUnavailable {
                    src: st.clone(),
                    dst: dt.clone(),
                    profile: profile.as_str().into(),
                },
                op_span(spans),
            )
            .with_help(format!(
                "vcvt from {st} to {dt} is available on {}",
                profile_list(&profiles_supporting(s, d))
            )),
        );
        return;
    }
    let pair = || (st.clone(), dt.clone());

    // 6-9: attributes.
    let rnd_span = attr_span(spans, &["rnd", "round_mode"]);
    match (v.rnd, c.rnd) {
        (Some(_), None) => {
            let (src, dst) = pair();
            diags.push(diag(
                RuleError::VcvtAttrForbidden {
                    attr: "rnd",
                    src,
                    dst,
                },
                rnd_span,
            ));
        }
        (Some(r), Some(set)) if !set.contains(&r) => {
            let (src, dst) = pair();
            let allowed: Vec<&str> = set.iter().map(|r| r.as_str()).collect();
            let mut e = diag(
                RuleError::VcvtRndNotAllowed {
                    rnd: r.as_str(),
                    src,
                    dst,
                    allowed: allowed.join(", "),
                },
                rnd_span,
            );
            if r == Rnd::H && set == ANY {
                e = e.with_help(
                    "ptoc accepts H only for f32 to f8E4M3FN, f8E5M2 or !pto.hif8 and for f16 to \
                     !pto.hif8 (PTOAS also accepts it here)",
                );
            }
            diags.push(e);
        }
        (Some(Rnd::H), Some(_)) => {
            diags.push(diag(RuleError::RoundingHybridUnsupported, rnd_span));
        }
        (Some(_), Some(_)) | (None, None) => {}
        (None, Some(_)) => {
            if let Some(def) = c.default_rnd() {
                diags.push(diag(
                    RuleError::VcvtAttrDefaulted {
                        attr: "rnd",
                        default: def.as_str(),
                    },
                    op_span(spans),
                ));
            }
        }
    }
    match (v.sat, c.sat) {
        (Some(_), false) => {
            let (src, dst) = pair();
            diags.push(diag(
                RuleError::VcvtAttrForbidden {
                    attr: "sat",
                    src,
                    dst,
                },
                attr_span(spans, &["sat"]),
            ));
        }
        (None, true) => diags.push(diag(
            RuleError::VcvtAttrDefaulted {
                attr: "sat",
                default: "NOSAT",
            },
            op_span(spans),
        )),
        _ => {}
    }
    let part_span = attr_span(spans, &["part"]);
    match (v.part, c.part) {
        (Some(_), None) => {
            let (src, dst) = pair();
            diags.push(diag(
                RuleError::VcvtAttrForbidden {
                    attr: "part",
                    src,
                    dst,
                },
                part_span,
            ));
        }
        (None, Some(family)) => {
            let (src, dst) = pair();
            diags.push(diag(
                RuleError::VcvtPartRequired {
                    src,
                    dst,
                    expected: match family {
                        crate::target::vcvt::PartFamily::EvenOdd => "EVEN or ODD",
                        crate::target::vcvt::PartFamily::Packed4 => "P0, P1, P2 or P3",
                    },
                },
                op_span(spans),
            ));
        }
        (Some(p), Some(family)) if !family.accepts(p) => diags.push(
            diag(
                RuleError::VcvtPartFamily {
                    message: family.ptoas_message(),
                },
                part_span,
            )
            .with_label(part_span, format!("found '{}'", p.as_str())),
        ),
        _ => {}
    }
}
