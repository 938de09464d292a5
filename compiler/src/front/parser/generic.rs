//! The builder side of the generic op form (syntax.md §2; its syntax is in `stmt_grammar`): the
//! conversion of known ops written generically into typed ops (D-5; D-22 operand order for
//! tcvt; variadic groups from `operandSegmentSizes`). Unknown ops stay `OpKind::Generic` with
//! properties and attributes kept apart.

use super::attrs::Entry;
use super::module::{GroupDef, OpParts};
use super::{PResult, Parser};
use crate::diag::Span;
use crate::front::catalog;
use crate::front::error::ParseError;
use crate::ir::{Attr, GenericOp, OpKind, RegionId, TcvtForm, TcvtOp, VcvtOp};

impl<'s> Parser<'s> {
    /// A generic op: known names become typed ops (D-5, D-22), others `OpKind::Generic`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn build_generic(
        &mut self,
        mut parts: OpParts,
        name: String,
        props: Option<Vec<Entry>>,
        attrs: Option<Vec<Entry>>,
        groups: &[GroupDef<'s>],
        region: RegionId,
        first: Span,
        rspans: Vec<Span>,
    ) -> PResult<()> {
        let known = matches!(
            name.as_str(),
            "pto.tcvt" | "pto.vcvt" | "func.return" | "arith.constant" | "pto.vecscope"
        ) || kind_row(&name);
        if !known {
            let attrs_written = attrs.is_some();
            let mut sp = std::mem::take(&mut parts.spans.attrs);
            let props = props.map(|p| super::attrs::to_dict(p, &mut sp));
            parts.attrs = attrs
                .map(|a| super::attrs::to_dict(a, &mut sp))
                .unwrap_or_default();
            parts.spans.attrs = sp;
            parts.kind = OpKind::Generic(Box::new(GenericOp {
                name,
                properties: props,
                attrs_written,
            }));
            self.finish_op(parts, groups, region, first, rspans)?;
            return Ok(());
        }
        // Known op: properties and attributes merge; a key in both is a duplicate.
        let mut entries: Vec<Entry> = props.unwrap_or_default();
        for e in attrs.unwrap_or_default() {
            if let Some(f) = entries.iter().find(|x| x.key == e.key) {
                let d = crate::diag::Diagnostic::new(
                    crate::diag::Code::DuplicateAttribute,
                    ParseError::DuplicateAttribute {
                        key: e.key.to_string(),
                    },
                    e.key_span,
                )
                .with_label(f.key_span, "first given here");
                self.diag(d);
            } else {
                entries.push(e);
            }
        }
        let n = parts.operands.len();
        let nres = parts.result_types.len();
        let segments = entries
            .iter()
            .find(|e| e.key == "operandSegmentSizes")
            .and_then(|e| segment_sizes(&e.value));
        let name_span = parts_name_span(&parts);
        let count_err = |p: &mut Self, expected: &str| {
            let span = name_span;
            Err(p.error_at(
                ParseError::OperandCount {
                    op: name.clone(),
                    expected: expected.to_string(),
                    found: n,
                },
                span,
            ))
        };
        let kind = match name.as_str() {
            "pto.tcvt" => {
                // spec: D-22 — no result: (src[, tmp], dst); one result: (src[, tmp]).
                let form = match nres {
                    0 if (2..=3).contains(&n) => TcvtForm::Dps,
                    0 => return count_err(self, "2 or 3"),
                    1 if (1..=2).contains(&n) => TcvtForm::Ssa,
                    1 => return count_err(self, "1 or 2"),
                    _ => {
                        let span = parts.spans.name;
                        return Err(self.error_at(ParseError::TcvtSsaResults, span));
                    }
                };
                let has_tmp = match form {
                    TcvtForm::Dps => n == 3,
                    TcvtForm::Ssa => n == 2,
                };
                // §4.4: a present `operandSegmentSizes` is checked, then dropped (D-22).
                let t = u32::from(has_tmp);
                let expected: &[u32] = match form {
                    TcvtForm::Dps => &[1, t, 1],
                    TcvtForm::Ssa => &[1, t],
                };
                self.check_segments(&name, &entries, expected)?;
                let a = self.tcvt_attrs(entries, &mut parts.spans.attrs);
                parts.attrs = a.extra;
                OpKind::Tcvt(TcvtOp {
                    form,
                    has_tmp,
                    rmode: a.rmode,
                    sat: a.sat,
                })
            }
            "pto.vcvt" => {
                if n != 2 {
                    return count_err(self, "2");
                }
                self.check_segments(&name, &entries, &[1, 1])?;
                let v = self.vcvt_attrs(entries, &mut parts.spans.attrs);
                parts.attrs = v.extra;
                OpKind::Vcvt(VcvtOp {
                    rnd: v.rnd,
                    sat: v.sat,
                    part: v.part,
                })
            }
            "func.return" => {
                parts.attrs = self.plain_attrs(&name, entries, &[], &mut parts.spans.attrs);
                OpKind::Return
            }
            "arith.constant" => {
                let pos = entries.iter().position(|e| e.key == "value");
                let (Some(pos), 0, 1) = (pos, n, nres) else {
                    let span = parts.spans.name;
                    return Err(self.error_at(
                        ParseError::GenericForm {
                            op: name.clone(),
                            message: "expects no operands, one result and a 'value' attribute"
                                .to_string(),
                        },
                        span,
                    ));
                };
                let mut entries = entries;
                let value = entries.remove(pos).value;
                parts.attrs = self.plain_attrs(&name, entries, &[], &mut parts.spans.attrs);
                OpKind::ArithConstant {
                    value: Box::new(value),
                }
            }
            "pto.vecscope" => {
                if n != 0 {
                    return count_err(self, "0");
                }
                parts.attrs = self.plain_attrs(&name, entries, &[], &mut parts.spans.attrs);
                OpKind::VecScope
            }
            _ => {
                // Catalog rows whose kind the interpreter runs on (and the rows known before
                // the catalog): the generic form builds the row's kind; segments from
                // `operandSegmentSizes`, else from the operand count.
                let found = catalog::by_name(&name).iter().rev().find_map(|&id| {
                    catalog::generic_segments(id, n, segments.as_deref()).map(|s| (id, s))
                });
                let Some((id, seg)) = found else {
                    return count_err(self, "as many as the op's operand segments take");
                };
                let Some((_, c)) = catalog::get(id) else {
                    return count_err(self, "a known form");
                };
                let own: Vec<&str> = c.attrs.iter().map(|a| a.name).collect();
                parts.attrs = self.plain_attrs(&name, entries, &own, &mut parts.spans.attrs);
                // The custom form prints format-bound attributes in place: each required one
                // must be there, with a value of its kind.
                for a in c.attrs.iter().filter(|a| a.bound) {
                    let fits = match parts.attrs.get(a.name) {
                        None => a.optional,
                        Some(v) => catalog::attr_fits(a, v),
                    };
                    if !fits {
                        let span = parts.spans.name;
                        return Err(self.error_at(
                            ParseError::GenericForm {
                                op: name.clone(),
                                message: format!(
                                    "expects attribute '{}' of the kind its custom form writes",
                                    a.name
                                ),
                            },
                            span,
                        ));
                    }
                }
                catalog::build_kind(id, &seg, &mut parts.attrs)
            }
        };
        parts.kind = kind;
        self.finish_op(parts, groups, region, first, rspans)?;
        Ok(())
    }
}

/// `array<i32: 1, 2, 2>` or `[1, 2, 2]` as segment sizes.
impl Parser<'_> {
    /// A written `operandSegmentSizes` must describe the operands actually given; a matching
    /// one is dropped (syntax.md §4.4, D-22), anything else is an error at the attribute.
    fn check_segments(&mut self, op: &str, entries: &[Entry], expected: &[u32]) -> PResult<()> {
        let Some(e) = entries.iter().find(|e| e.key == "operandSegmentSizes") else {
            return Ok(());
        };
        if segment_sizes(&e.value).as_deref() == Some(expected) {
            return Ok(());
        }
        let list: Vec<String> = expected.iter().map(u32::to_string).collect();
        let message = format!(
            "operandSegmentSizes does not match the operands given; expected array<i32: {}>",
            list.join(", ")
        );
        let span = e.key_span;
        Err(self.error_at(
            ParseError::GenericForm {
                op: op.to_string(),
                message,
            },
            span,
        ))
    }
}

fn segment_sizes(a: &Attr) -> Option<Vec<u32>> {
    match a {
        Attr::Array(items) => items
            .iter()
            .map(|i| match i {
                Attr::Int { value, .. } => u32::try_from(*value).ok(),
                _ => None,
            })
            .collect(),
        Attr::Opaque(text) => {
            let inner = text.strip_prefix("array<")?.strip_suffix('>')?;
            let list = inner.split_once(':').map_or("", |(_, l)| l);
            list.split(',')
                .filter(|p| !p.trim().is_empty())
                .map(|p| p.trim().parse().ok())
                .collect()
        }
        _ => None,
    }
}

/// Catalog rows that the generic form builds as their row's kind (not `OpKind::Generic`):
/// those with a dedicated kind, which the verifier and interpreter run on, and `pto.convert`
/// (a plain catalog row they find by its row: `verify::rules::is_convert_row`).
fn kind_row(name: &str) -> bool {
    catalog::by_name(name)
        .iter()
        .any(|&id| catalog::get(id).is_some_and(|(r, _)| r.build != catalog::Build::Catalog))
        || matches!(
            name,
            "pto.tload" | "pto.tstore" | "pto.subview" | "pto.convert"
        )
}

fn parts_name_span(parts: &OpParts) -> Span {
    parts.spans.name
}
