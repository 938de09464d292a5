//! `pto.convert` rule checks (checks 1-8 of the module doc), reading the table in
//! `target::convert`, in PTOAS's order (`verifyConvertControls`): one error per op, the first
//! rule it breaks, as PTOAS reports it. Malformed hand-built IR (missing operands, attributes
//! that are not the row's words) is skipped.

use super::error::RuleError;
use super::{attr_span, diag, op_span, operand_type_span, result_type_span, type_text};
use crate::diag::{Diagnostic, Span};
use crate::ir::{Attr, Module, OpId, Rnd, TypeId};
use crate::target::convert::{
    class_of, letter, lookup, parse_letter, unsupported_pair_message, Class,
};
use crate::target::Profile;

/// The controls of one `pto.convert` as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Controls {
    pub rnd: Rnd,
    pub sat: bool,
    pub signed: bool,
    pub unsigned: bool,
}

/// Reads the controls from the op's attributes (`rounding`, `saturation`, `signed`,
/// `unsigned`); `None` when they are not the row's words (hand-built IR).
pub fn controls(m: &Module, op: OpId) -> Option<Controls> {
    let data = m.ops.get(op.0 as usize)?;
    let word = |k: &str| match data.attrs.get(k) {
        Some(Attr::Str(s)) => Some(s.as_str()),
        _ => None,
    };
    let rnd = parse_letter(word("rounding")?)?;
    let sat = match word("saturation")? {
        "sat" => true,
        "nosat" => false,
        _ => return None,
    };
    Some(Controls {
        rnd,
        sat,
        signed: data.attrs.get("signed").is_some(),
        unsigned: data.attrs.get("unsigned").is_some(),
    })
}

pub(super) fn check(m: &Module, op: OpId, profile: Profile, diags: &mut Vec<Diagnostic>) {
    let Some(data) = m.ops.get(op.0 as usize) else {
        return;
    };
    let spans = m.spans.ops.get(op.0 as usize);
    let get = |id: TypeId| ((id.0 as usize) < m.types.len()).then(|| m.types.get(id));
    let Some(src_ty) = data.operands.first().and_then(|v| {
        data.operand_types
            .first()
            .copied()
            .flatten()
            .or_else(|| m.values.get(v.0 as usize).map(|d| d.ty))
    }) else {
        return;
    };
    let Some(dst_ty) = data
        .results
        .first()
        .and_then(|r| m.values.get(r.0 as usize))
        .map(|d| d.ty)
    else {
        return;
    };
    let Some(c) = controls(m, op) else {
        return;
    };
    let at_op = op_span(spans);

    // 1: types.
    let src = get(src_ty).and_then(class_of);
    let dst = get(dst_ty).and_then(class_of);
    let mut bad = false;
    for (class, role, ty, span) in [
        (src, "source", src_ty, operand_type_span(spans, 0)),
        (dst, "result", dst_ty, result_type_span(spans, 0)),
    ] {
        if class.is_none() {
            bad = true;
            diags.push(diag(
                RuleError::ConvertTypeUnsupported {
                    role,
                    ty: type_text(m, ty),
                },
                span,
            ));
        }
    }
    let (Some(s), Some(d)) = (src, dst) else {
        return;
    };
    if bad {
        return;
    }
    let (st, dt) = (type_text(m, src_ty), type_text(m, dst_ty));
    let sign_span = attr_span(spans, &["signed", "unsigned"]);
    let signedness = c.signed || c.unsigned;

    // 2: signed and unsigned together (ptoc's own rule: PTOAS's enum holds one).
    if c.signed && c.unsigned {
        diags.push(diag(RuleError::ConvertSignednessConflict, sign_span));
        return;
    }

    let err = |e: RuleError, span: Span| diag(e, span);
    // 3-4: packed conversions.
    if s.is_packed() || d.is_packed() {
        let first = if s.is_int() || d.is_int() {
            Some(err(
                RuleError::ConvertMixedPacked {
                    what: "mixed integer and packed",
                    src: st.clone(),
                    dst: dt.clone(),
                },
                at_op,
            ))
        } else if signedness {
            Some(err(
                RuleError::ConvertSignednessForbidden {
                    what: "packed floating",
                    src: st.clone(),
                    dst: dt.clone(),
                },
                sign_span,
            ))
        } else if !(s.is_packed() && d.is_packed()) {
            Some(err(
                RuleError::ConvertMixedPacked {
                    what: "mixed scalar and packed",
                    src: st.clone(),
                    dst: dt.clone(),
                },
                at_op,
            ))
        } else {
            None
        };
        if let Some(e) = first {
            diags.push(e);
            return;
        }
        pair_rules(profile, s, d, c, (st, dt), spans, diags);
        return;
    }

    // 5: scalar integer rules.
    if s.is_int() && d.is_int() {
        diags.push(err(RuleError::ConvertIntToInt { src: st, dst: dt }, at_op));
        return;
    }
    if (s.is_int() || d.is_int()) && !signedness {
        diags.push(err(
            RuleError::ConvertSignednessRequired { src: st, dst: dt },
            at_op,
        ));
        return;
    }
    if !s.is_int() && !d.is_int() && signedness {
        diags.push(err(
            RuleError::ConvertSignednessForbidden {
                what: "floating-to-floating",
                src: st,
                dst: dt,
            },
            sign_span,
        ));
        return;
    }
    pair_rules(profile, s, d, c, (st, dt), spans, diags);
}

/// Checks 6-8: the pair, `sat`, the letter (PTOAS checks `sat` before the letter).
fn pair_rules(
    profile: Profile,
    s: Class,
    d: Class,
    c: Controls,
    (st, dt): (String, String),
    spans: Option<&crate::ir::OpSpans>,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(row) = lookup(profile, s, d) else {
        diags.push(diag(
            RuleError::ConvertPairUnsupported {
                message: unsupported_pair_message(s, d),
                src: st,
                dst: dt,
            },
            op_span(spans),
        ));
        return;
    };
    if row.needs_sat && !c.sat {
        diags.push(diag(
            RuleError::ConvertSatRequired {
                message: row.sat_msg,
                src: st,
                dst: dt,
            },
            attr_span(spans, &["saturation"]),
        ));
        return;
    }
    if !row.rnd.contains(&c.rnd) {
        diags.push(diag(
            RuleError::ConvertRndNotAllowed {
                message: row.rnd_msg,
                rnd: letter(c.rnd),
                src: st,
                dst: dt,
            },
            attr_span(spans, &["rounding"]),
        ));
        return;
    }
    if c.rnd == Rnd::H {
        diags.push(diag(
            RuleError::ConvertHybridUnsupported,
            attr_span(spans, &["rounding"]),
        ));
    }
}
