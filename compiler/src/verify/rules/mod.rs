//! Target-profile rules for `pto.tcvt`, `pto.vcvt` (semantics.md §3, §6, §8) and `pto.convert`,
//! driven by the tables in `crate::target` (`target::tcvt`, `target::resolve`, `target::vcvt`,
//! `target::convert`). Runs on every
//! op the structure pass did not taint ([`check_except`]); never panics on any IR (missing
//! operands or dangling handles make the op be skipped).
//!
//! Checks performed, per op, and the diagnostic each raises (severity as in §8):
//!
//! `pto.tcvt` (operands `[src, tmp?, dst?]`; SSA form: dst = the result):
//! 1. src/dst/tmp is a rank-2 `!pto.tile_buf`/`!pto.tile` — `tcvt-operand-not-tile` (E).
//! 2. each operand's element type is in §2.1 — `unsupported-elem-type` (E; help `!pto.s4x2`
//!    for i4/si4/ui4; ui64 is rejected).
//! 3. each static valid dim ≤ its shape dim — `tile-valid-exceeds-shape` (E).
//! 4. logical extents of src and dst are equal (packed dim doubled per blayout), skipped when
//!    either is an `alloc_tile` with `pto.view_semantics = "subview"` — `tcvt-shape-mismatch` (E).
//! 5. static logical valid dims of src and dst are equal — `tcvt-valid-shape-mismatch` (E); not
//!    raised when check 4 fired and both valid shapes equal their shapes (no cascade).
//! 6. src/dst in `loc=vec` — `tcvt-loc-not-vec` (W); tmp in `loc=vec` — `tcvt-tmp-not-vec` (E).
//! 7. the (src, dst) pair is supported on the profile — `tcvt-pair-unsupported` (E, help lists
//!    the profiles that accept it). Checks 8-11 run only for supported pairs.
//! 8. `target::resolve::resolve` (§3.7): `tcvt-rmode-forced` (W), `tcvt-odd-unsupported` (W),
//!    `tcvt-rmode-ignored` (W), `tcvt-sat-off-ignored` (W).
//! 9. tmp role (§3.5): cpu `tcvt-tmp-ignored` (W); a5 / a2a3 off the TORCH path
//!    `tcvt-tmp-unused` (N); a2a3 TORCH3 + sat OFF without tmp `tcvt-tmp-suggested` (N); on the
//!    TORCH path, capacity ≥ required bytes — `tcvt-tmp-too-small` (E), with
//!    `tcvt-tmp-bound-dynamic` (N) when the dst valid shape is dynamic (worst case checked).
//! 10. FI pair with effective sat OFF on a2a3/a5 — `nonsat-target-defined` (N).
//! 11. float (with NaN) → fp4 — `fp4-nan-to-zero` (N).
//!
//! `pto.vcvt` (operands `[input, mask]`, one result):
//! 1. input and result are `!pto.vreg` — `vcvt-not-vreg` (E).
//! 2. element types are in §2.1 — `unsupported-elem-type` (E).
//! 3. each vreg holds 2048 bits, and source and result hold the same total — `vreg-size` (E).
//! 4. mask is `!pto.mask<b{min(src bits, 32)}>` — `vcvt-mask-granularity` (E).
//! 5. a contract row exists and the profile offers it — `vcvt-pair-unsupported` (E).
//!    Checks 6-9 run only for available pairs.
//! 6. rnd/sat/part given on a pair that does not take it — `vcvt-attr-forbidden` (E).
//! 7. part missing on a pair that takes part — `vcvt-part-required` (E); part of the wrong
//!    family — `vcvt-part-family` (E, PTOAS text).
//! 8. rnd letter outside the pair's set (incl. H outside f32→fp8/hif8, f16→hif8) —
//!    `vcvt-rnd-not-allowed` (E); H accepted — `rounding-hybrid-unsupported` (N).
//! 9. rnd or sat omitted where PTOAS requires it — `vcvt-attr-defaulted` (N, default R/A, NOSAT).
//!
//! `pto.convert` (operand `src`, result `dst`; `target::convert`, PTOAS `verifyConvertControls`;
//! one error per op, the first broken rule in this order, PTOAS's words in the message):
//! 1. source and result are i32, i64, f16, bf16, f32 or a packed type of the table —
//!    `convert-type-unsupported` (E0320).
//! 2. not both `signed` and `unsigned` — `convert-signedness-conflict` (E0324).
//! 3. packed: no integer on either side, no scalar on one side — `convert-mixed-packed` (E0325);
//!    no `signed`/`unsigned` — `convert-signedness-forbidden` (E0323).
//! 4. scalar: not integer to integer — `convert-int-to-int` (E0321); to or from an integer needs
//!    `signed`/`unsigned` — `convert-signedness-required` (E0322); float to float must not carry
//!    one — `convert-signedness-forbidden` (E0323).
//! 5. the pair is a row of the table (i64 only to/from f32, i32 only to f32/f16/bf16, the packed
//!    pair list) — `convert-pair-unsupported` (E0326).
//! 6. float → integer has `sat` — `convert-sat-required` (E0327).
//! 7. the `round(...)` letter is one of the row's (o only f32→f16, h only into `!pto.hif8x2`,
//!    f32x2→f8x2 only r) — `convert-rnd-not-allowed` (E0328).
//! 8. round(h) accepted — `rounding-hybrid-unsupported` (N0302: not executable).
//!
//! Parse-time checks (sat_mode+satmode, rnd+round_mode, bad tokens, a vreg type's own size)
//! belong to the parser; check 3 repeats the size rule only for hand-built IR.
//!
//! Spans: attribute issues point at `key = value`, type issues at the written operand/result
//! type, everything else at the op name (falling back to the whole op when a span is empty).

mod convert;
pub mod error;
pub use convert::{controls as convert_controls, Controls as ConvertControls};
mod tcvt;
pub use tcvt::{check_plan_memory_skipped, check_toolchain_defaults};
mod vcvt;

use crate::diag::{Diagnostic, Span};
use crate::ir::types::{ScalarType, Signedness};
use crate::ir::{Module, OpId, OpKind, OpSpans, TypeId};
use crate::target::Profile;
use crate::verify::structure::TaintedOps;

use error::RuleError;

/// Checks every tcvt/vcvt of `module` against `profile`; appends diagnostics.
pub fn check(module: &Module, profile: Profile, diags: &mut Vec<Diagnostic>) {
    check_except(module, profile, &TaintedOps::default(), diags);
}

/// [`check`], skipping the ops in `skip` (those with structural errors).
pub fn check_except(
    module: &Module,
    profile: Profile,
    skip: &TaintedOps,
    diags: &mut Vec<Diagnostic>,
) {
    check_except_with(module, &|_| profile, skip, diags);
}

/// [`check_except`] with each op's profile chosen by `profile_of`.
pub fn check_except_with(
    module: &Module,
    profile_of: &dyn Fn(OpId) -> Profile,
    skip: &TaintedOps,
    diags: &mut Vec<Diagnostic>,
) {
    for op in module.walk() {
        if !skip.contains(&op) {
            check_op(module, op, profile_of, diags);
        }
    }
}

/// The rules of one op (tcvt, vcvt and convert have rules; other ops have none).
fn check_op(
    module: &Module,
    op: OpId,
    profile_of: &dyn Fn(OpId) -> Profile,
    diags: &mut Vec<Diagnostic>,
) {
    let Some(data) = module.ops.get(op.0 as usize) else {
        return;
    };
    match &data.kind {
        OpKind::Tcvt(t) => tcvt::check(module, op, t, profile_of(op), diags),
        OpKind::Vcvt(v) => vcvt::check(module, op, v, profile_of(op), diags),
        OpKind::Catalog(c) if is_convert_row(c.row) => {
            convert::check(module, op, profile_of(op), diags)
        }
        _ => {}
    }
}

/// Whether catalog row `row` is `pto.convert` (its id, looked up once).
pub fn is_convert_row(row: crate::front::catalog::RowId) -> bool {
    static ID: std::sync::OnceLock<Option<crate::front::catalog::RowId>> =
        std::sync::OnceLock::new();
    *ID.get_or_init(|| {
        crate::front::catalog::rows()
            .iter()
            .position(|r| r.name == "pto.convert")
            .and_then(|i| u16::try_from(i).ok())
    }) == Some(row)
}

/// One run of ops of [`check_shared`]: its index and the diagnostics of its ops that have any.
pub type RuleRun = (usize, Vec<(OpId, Vec<Diagnostic>)>);

/// Ops per unit of work of [`check_shared`].
const SHARE_CHUNK: usize = 4096;

/// The rule diagnostics of every tcvt/vcvt of `ops` (none skipped), shared between threads:
/// each caller takes the next unclaimed run of [`SHARE_CHUNK`] ops (through `next`) until none
/// is left, and returns its runs with their indices. The runs of all callers, sorted by index,
/// hold the diagnostics grouped by op in the order of `ops` (ops without any left out);
/// `crate::verify::verify_two_threads` filters them by taint.
pub fn check_shared(
    module: &Module,
    ops: &[OpId],
    profile_of: &(dyn Fn(OpId) -> Profile + Sync),
    next: &std::sync::atomic::AtomicUsize,
) -> Vec<RuleRun> {
    let mut runs = Vec::new();
    let mut found = Vec::new();
    loop {
        let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let Some(run) = ops.chunks(SHARE_CHUNK).nth(k) else {
            return runs;
        };
        let mut out = Vec::new();
        for &op in run {
            check_op(module, op, profile_of, &mut found);
            if !found.is_empty() {
                out.push((op, std::mem::take(&mut found)));
            }
        }
        runs.push((k, out));
    }
}

/// Builds a diagnostic with the error's code and default severity.
fn diag(e: RuleError, span: Span) -> Diagnostic {
    Diagnostic::new(e.code(), e, span)
}

/// The op name span, else the whole op.
fn op_span(spans: Option<&OpSpans>) -> Span {
    match spans {
        Some(s) if s.name != Span::default() => s.name,
        Some(s) => s.op,
        None => Span::default(),
    }
}

/// The span of the first present attribute among `keys`, else the op span.
fn attr_span(spans: Option<&OpSpans>, keys: &[&str]) -> Span {
    spans
        .and_then(|s| keys.iter().find_map(|k| s.attrs.get(k).copied()))
        .unwrap_or_else(|| op_span(spans))
}

/// The written type of operand `i`, else the operand use, else the op.
fn operand_type_span(spans: Option<&OpSpans>, i: usize) -> Span {
    spans
        .and_then(|s| {
            s.operand_types
                .get(i)
                .copied()
                .flatten()
                .or_else(|| s.operands.get(i).copied())
        })
        .unwrap_or_else(|| op_span(spans))
}

/// The written type of result `i`, else the op.
fn result_type_span(spans: Option<&OpSpans>, i: usize) -> Span {
    spans
        .and_then(|s| s.result_types.get(i).copied())
        .unwrap_or_else(|| op_span(spans))
}

/// Canonical spelling of a type, tolerant of dangling ids.
fn type_text(module: &Module, ty: TypeId) -> String {
    crate::ir::printer::print_type(&module.types, ty)
}

/// Canonical spelling of an element type as written (keeps `si8` vs `i8`).
fn scalar_text(s: &ScalarType) -> String {
    match s {
        ScalarType::F16 => "f16".into(),
        ScalarType::BF16 => "bf16".into(),
        ScalarType::F32 => "f32".into(),
        ScalarType::F64 => "f64".into(),
        ScalarType::F8E4M3FN => "f8E4M3FN".into(),
        ScalarType::F8E5M2 => "f8E5M2".into(),
        ScalarType::OtherFloat(n) => n.clone(),
        ScalarType::Hif8 => "!pto.hif8".into(),
        ScalarType::F4E2M1x2 => "!pto.f4E2M1x2".into(),
        ScalarType::F4E1M2x2 => "!pto.f4E1M2x2".into(),
        ScalarType::S4x2 => "!pto.s4x2".into(),
        ScalarType::PtoOther(n) if n.starts_with('!') => n.clone(),
        ScalarType::PtoOther(n) => format!("!pto.{n}"),
        ScalarType::Int { width, signedness } => {
            let prefix = match signedness {
                Signedness::Signless => "i",
                Signedness::Signed => "si",
                Signedness::Unsigned => "ui",
            };
            format!("{prefix}{width}")
        }
        ScalarType::Index => "index".into(),
    }
}

/// `unsupported-elem-type` with the §2.1 hints.
fn unsupported_elem(
    op: &'static str,
    role: &'static str,
    s: &ScalarType,
    span: Span,
) -> Diagnostic {
    let d = diag(
        RuleError::UnsupportedElemType {
            op,
            role,
            ty: scalar_text(s),
        },
        span,
    );
    match s {
        ScalarType::Int { width: 4, .. } => {
            d.with_help("write !pto.s4x2 for 4-bit integers (two per byte)")
        }
        ScalarType::Int {
            width: 64,
            signedness: Signedness::Unsigned,
        } => d.with_help("no conversion uses ui64; use i64"),
        _ => d.with_help(
            "conversions take f32, f16, bf16, f8E4M3FN, f8E5M2, !pto.hif8, !pto.f4E2M1x2, \
             !pto.f4E1M2x2, !pto.s4x2, i8, ui8, i16, ui16, i32, ui32 and i64",
        ),
    }
}

/// "cpu", "cpu and a5", "cpu, a2a3 and a5".
fn profile_list(ps: &[Profile]) -> String {
    let names: Vec<&str> = ps.iter().map(|p| p.as_str()).collect();
    match names.as_slice() {
        [] => "no profile".to_string(),
        [one] => (*one).to_string(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}
