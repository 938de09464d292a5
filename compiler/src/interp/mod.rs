//! The reference interpreter over verified IR functions (semantics.md §5, §6.6; issue 3).
//!
//! Owns the execution of one function of a verified [`Module`] on one profile: argument
//! descriptors ([`Interpreter::params`]), the environment of runtime values (`pto_runtime::value`
//! tiles, vector registers, masks, scalars), and the ops it can execute — `pto.alloc_tile`,
//! `pto.declare_tile`, `pto.tcvt` in every form (DPS writes into the existing dst; the Level-1
//! SSA form converts into a fresh zero tile), `pto.vcvt`, `pto.convert` on scalars (the
//! `target::convert` letter modes; `convert-not-executable` where the exact core has no
//! implementation: u64, packed pairs, `h`), `pto.vor`, `pto.pset_b*`,
//! `pto.plt_b*`, integer `arith.constant`, `pto.vecscope` (its body runs in place) and `return`.
//! Any other op stops the run with an [`InterpError`] naming the op at its span.
//!
//! Invariants:
//! - effective tcvt parameters come from `target::resolve` through `exec::spec::conv_spec`;
//!   vcvt parameters from the §6.3 contract with the §6.4 defaults (float→int NOSAT uses the
//!   profile's non-saturating path: X86 on cpu, NATIVE on a2a3/a5, never TORCH);
//! - runtime checks use actual extents: `runtime-valid-shape` (E0401) and
//!   `runtime-tmp-too-small` (E0402, the §3.5 formulas on the dst's actual valid extents);
//!   hybrid rounding is `rounding-hybrid-unsupported` as an error;
//! - each tile value is its own buffer (`alloc_tile addr = ...` aliasing is not modelled); a DPS
//!   tcvt reads a snapshot of src, so converting a tile into itself is safe;
//! - nothing panics on any module: a malformed (unverified) module yields errors, never a panic.

mod error;
mod exec;
mod types;

pub use error::{InterpError, InterpErrorKind};
pub use types::{param_kind, ParamKind, TileDesc};

use pto_runtime::value::{ConvStats, Mask, Tile, VReg};

use crate::diag::Span;
use crate::ir::{Module, OpId, OpKind, RegionId, ValueId};
use crate::target::Profile;

/// A runtime value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Tile(Tile),
    VReg(VReg),
    Mask(Mask),
    /// An integer or float scalar: its bit pattern in the low bits (sign-extended integers).
    Scalar(u64),
}

/// Which conversion produced a value (for summaries and cross-profile reports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Origin {
    pub op: OpId,
    /// The source operand as it was converted.
    pub src: Value,
    /// vcvt part index (0 for tcvt and same-width vcvt).
    pub part: usize,
    pub stats: ConvStats,
    /// The conversion saturated (out-of-range elements were clamped).
    pub sat: bool,
}

/// A value leaving the function, with the conversion that last wrote it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Produced {
    pub value: Value,
    pub origin: Option<Origin>,
}

/// The outcome of a run: returned values, and the final state of each tile argument a DPS op
/// wrote (argument index, value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RunResult {
    pub results: Vec<Produced>,
    pub written_args: Vec<(usize, Produced)>,
}

/// One function argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Param {
    pub index: usize,
    /// The SSA name as written (`%arg0`).
    pub name: String,
    pub value: ValueId,
    /// The runtime kind, or why the argument cannot be bound.
    pub kind: Result<ParamKind, String>,
    pub span: Span,
}

/// The interpreter of one function on one profile.
#[derive(Debug, Clone, Copy)]
pub struct Interpreter<'m> {
    module: &'m Module,
    func: OpId,
    profile: Profile,
    toolchain: crate::target::toolchain::Toolchain,
    progress: Option<OnRows<'m>>,
}

/// A progress callback ([`Interpreter::with_progress`]); shown as `OnRows` by `Debug`.
#[derive(Clone, Copy)]
struct OnRows<'m>(&'m dyn Fn(u64));

impl std::fmt::Debug for OnRows<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("OnRows")
    }
}

/// The first function op of `module` named `name` (the text after `@`), in textual order,
/// nested modules included.
pub fn find_function(module: &Module, name: &str) -> Option<OpId> {
    module
        .walk()
        .into_iter()
        .find(|&op| matches!(&module.op(op).kind, OpKind::Func(f) if f.sym == name))
}

/// Names of every function with a body, in textual order (nested modules included).
pub fn function_names(module: &Module) -> Vec<String> {
    module
        .walk()
        .into_iter()
        .filter_map(|op| match &module.op(op).kind {
            OpKind::Func(f) if f.has_body => Some(f.sym.clone()),
            _ => None,
        })
        .collect()
}

impl<'m> Interpreter<'m> {
    pub fn new(module: &'m Module, func: OpId, profile: Profile) -> Self {
        Interpreter {
            module,
            func,
            profile,
            toolchain: Default::default(),
            progress: None,
        }
    }

    /// Runs tcvts under `toolchain`'s defaults for an omitted `satmode` / `rmode = NONE`
    /// (`--defaults`; pto-isa's when not called).
    pub fn with_defaults(mut self, toolchain: crate::target::toolchain::Toolchain) -> Self {
        self.toolchain = toolchain;
        self
    }

    /// Calls `progress(n)` as tcvts convert, with the number of elements of each row (a
    /// progress bar for large tiles); results do not depend on it.
    pub fn with_progress(mut self, progress: &'m dyn Fn(u64)) -> Self {
        self.progress = Some(OnRows(progress));
        self
    }

    pub fn profile(&self) -> Profile {
        self.profile
    }

    fn body(&self) -> Option<RegionId> {
        let op = self.module.ops.get(self.func.0 as usize)?;
        match &op.kind {
            OpKind::Func(f) if f.has_body => op.regions.first().copied(),
            _ => None,
        }
    }

    /// The function's arguments, in order.
    pub fn params(&self) -> Vec<Param> {
        let Some(body) = self.body() else {
            return Vec::new();
        };
        let Some(region) = self.module.regions.get(body.0 as usize) else {
            return Vec::new();
        };
        region
            .args
            .iter()
            .enumerate()
            .filter_map(|(index, &v)| {
                let data = self.module.values.get(v.0 as usize)?;
                let ty = self.module.types.get(data.ty);
                Some(Param {
                    index,
                    name: data.name.clone(),
                    value: v,
                    kind: param_kind(ty),
                    span: self
                        .module
                        .spans
                        .values
                        .get(v.0 as usize)
                        .copied()
                        .unwrap_or_default(),
                })
            })
            .collect()
    }

    /// Runs the function with `args` (one per parameter, in order, of the parameter's kind).
    pub fn run(&self, args: Vec<Value>) -> Result<RunResult, InterpError> {
        let func_span = self
            .module
            .spans
            .ops
            .get(self.func.0 as usize)
            .map_or(Span::default(), |s| s.op);
        let body = self.body().ok_or_else(|| {
            InterpError::new(
                InterpErrorKind::Unsupported {
                    op: "func.func".into(),
                    reason: "the function has no body".into(),
                },
                func_span,
            )
        })?;
        let params = self.params();
        if args.len() != params.len() {
            return Err(InterpError::new(
                InterpErrorKind::Unsupported {
                    op: "func.func".into(),
                    reason: format!(
                        "{} arguments given, the function takes {}",
                        args.len(),
                        params.len()
                    ),
                },
                func_span,
            ));
        }
        let mut machine = exec::Machine::new(self.module, self.profile, self.toolchain);
        machine.set_progress(self.progress.map(|p| p.0));
        for (p, a) in params.iter().zip(args) {
            machine.bind(p.value, a);
        }
        let returned = machine.run_region(body)?.unwrap_or_default();
        let produced = |m: &exec::Machine, v: ValueId| -> Option<Produced> {
            Some(Produced {
                value: m.get(v)?.clone(),
                origin: m.origin(v).cloned(),
            })
        };
        let mut results = Vec::with_capacity(returned.len());
        for v in returned {
            results.push(produced(&machine, v).ok_or_else(|| {
                InterpError::new(
                    InterpErrorKind::Unsupported {
                        op: "func.return".into(),
                        reason: "a returned value was never computed".into(),
                    },
                    func_span,
                )
            })?);
        }
        let written_args = params
            .iter()
            .filter(|p| machine.was_written(p.value))
            .filter_map(|p| Some((p.index, produced(&machine, p.value)?)))
            .collect();
        Ok(RunResult {
            results,
            written_args,
        })
    }
}
