//! The op-by-op machine behind [`Interpreter`](super::Interpreter): the value environment
//! (indexed by `ValueId`), the provenance of converted values, and one handler per executable
//! op. Every handler reads its operands from the environment and reports an [`InterpError`] at
//! the op's span instead of panicking, so an unverified or malformed module is safe too.

use std::collections::{HashMap, HashSet};

use pto_runtime::value::{self, Granularity, Mask, Part as VPart, Tile, ValueError};
use pto_runtime::{ConvError, ConvSpec, Converter, ElemType, Rounding};

use super::types::{param_kind, ParamKind, TileDesc};
use super::{InterpError, InterpErrorKind, Origin, Value};
use crate::diag::Span;
use crate::exec::spec::{nonsat_path_of, runtime_part as vpart};
use crate::ir::attrs::{Attr, Rnd};
use crate::ir::types::MaskGranularity;
use crate::ir::{Module, OpId, OpKind, RegionId, TcvtOp, VBinaryKind, ValueId, VcvtOp};
use crate::target::convert::rounding_of as rounding_of_rnd;
use crate::target::resolve::{resolve, tmp_role, TmpRole};
use crate::target::tcvt::{tmp_capacity_bytes, tmp_required_bytes, Sat};
use crate::target::{vcvt as contract, Profile};

type Res<T> = Result<T, InterpError>;

pub(super) struct Machine<'m> {
    module: &'m Module,
    profile: Profile,
    toolchain: crate::target::toolchain::Toolchain,
    /// Called with the number of elements each tcvt row converted (`ptoc run`'s progress bar).
    progress: Option<&'m dyn Fn(u64)>,
    env: Vec<Option<Value>>,
    origins: HashMap<ValueId, Origin>,
    written: HashSet<ValueId>,
}

fn granularity(g: MaskGranularity) -> Granularity {
    match g {
        MaskGranularity::B8 => Granularity::B8,
        MaskGranularity::B16 => Granularity::B16,
        MaskGranularity::B32 => Granularity::B32,
    }
}

impl<'m> Machine<'m> {
    pub(super) fn new(
        module: &'m Module,
        profile: Profile,
        toolchain: crate::target::toolchain::Toolchain,
    ) -> Self {
        Machine {
            module,
            profile,
            toolchain,
            progress: None,
            env: vec![None; module.values.len()],
            origins: HashMap::new(),
            written: HashSet::new(),
        }
    }

    pub(super) fn set_progress(&mut self, progress: Option<&'m dyn Fn(u64)>) {
        self.progress = progress;
    }

    pub(super) fn bind(&mut self, v: ValueId, value: Value) {
        if let Some(slot) = self.env.get_mut(v.0 as usize) {
            *slot = Some(value);
        }
    }

    pub(super) fn get(&self, v: ValueId) -> Option<&Value> {
        self.env.get(v.0 as usize).and_then(Option::as_ref)
    }

    pub(super) fn origin(&self, v: ValueId) -> Option<&Origin> {
        self.origins.get(&v)
    }

    pub(super) fn was_written(&self, v: ValueId) -> bool {
        self.written.contains(&v)
    }

    fn span(&self, op: OpId) -> Span {
        self.module
            .spans
            .ops
            .get(op.0 as usize)
            .map_or(Span::default(), |s| s.op)
    }

    fn name(&self, op: OpId) -> String {
        self.module.op_name(op).to_string()
    }

    fn err(&self, op: OpId, kind: InterpErrorKind) -> InterpError {
        InterpError::new(kind, self.span(op))
    }

    fn unsupported(&self, op: OpId, reason: impl Into<String>) -> InterpError {
        self.err(
            op,
            InterpErrorKind::Unsupported {
                op: self.name(op),
                reason: reason.into(),
            },
        )
    }

    fn value_err(&self, op: OpId, source: ValueError) -> InterpError {
        let kind = match source {
            ValueError::ValidExceedsShape { .. } | ValueError::ValidShapeMismatch { .. } => {
                InterpErrorKind::ValidShape {
                    op: self.name(op),
                    source,
                }
            }
            source => InterpErrorKind::Value {
                op: self.name(op),
                source,
            },
        };
        self.err(op, kind)
    }

    fn operand(&self, op: OpId, i: usize) -> Res<ValueId> {
        self.module
            .op(op)
            .operands
            .get(i)
            .copied()
            .ok_or_else(|| self.unsupported(op, format!("operand {i} is missing")))
    }

    fn value(&self, op: OpId, i: usize) -> Res<&Value> {
        let v = self.operand(op, i)?;
        self.get(v)
            .ok_or_else(|| self.unsupported(op, format!("operand {i} has no value at this point")))
    }

    fn tile(&self, op: OpId, i: usize) -> Res<&Tile> {
        match self.value(op, i)? {
            Value::Tile(t) => Ok(t),
            _ => Err(self.unsupported(op, format!("operand {i} is not a tile"))),
        }
    }

    fn vreg(&self, op: OpId, i: usize) -> Res<&value::VReg> {
        match self.value(op, i)? {
            Value::VReg(v) => Ok(v),
            _ => Err(self.unsupported(op, format!("operand {i} is not a vector register"))),
        }
    }

    fn mask(&self, op: OpId, i: usize) -> Res<&Mask> {
        match self.value(op, i)? {
            Value::Mask(m) => Ok(m),
            _ => Err(self.unsupported(op, format!("operand {i} is not a mask"))),
        }
    }

    fn scalar(&self, op: OpId, i: usize) -> Res<u64> {
        match self.value(op, i)? {
            Value::Scalar(s) => Ok(*s),
            _ => Err(self.unsupported(op, format!("operand {i} is not a scalar"))),
        }
    }

    fn result(&self, op: OpId, i: usize) -> Res<ValueId> {
        self.module
            .op(op)
            .results
            .get(i)
            .copied()
            .ok_or_else(|| self.unsupported(op, format!("result {i} is missing")))
    }

    fn result_kind(&self, op: OpId, i: usize) -> Res<ParamKind> {
        let v = self.result(op, i)?;
        let ty = self.module.value_type(v);
        param_kind(ty).map_err(|reason| {
            let text = crate::ir::printer::print_type(&self.module.types, self.module.value(v).ty);
            self.unsupported(op, format!("result type {text}: {reason}"))
        })
    }

    fn result_tile_desc(&self, op: OpId, i: usize) -> Res<TileDesc> {
        match self.result_kind(op, i)? {
            ParamKind::Tile(d) => Ok(d),
            _ => Err(self.unsupported(op, "the result is not a tile")),
        }
    }

    /// Runs `region`'s ops in order; `Some(values)` when a `return` was executed.
    pub(super) fn run_region(&mut self, region: RegionId) -> Res<Option<Vec<ValueId>>> {
        let ops = match self.module.regions.get(region.0 as usize) {
            Some(r) => r.ops.clone(),
            None => return Ok(None),
        };
        for op in ops {
            if let Some(ret) = self.step(op)? {
                return Ok(Some(ret));
            }
        }
        Ok(None)
    }

    fn step(&mut self, op: OpId) -> Res<Option<Vec<ValueId>>> {
        let data = self.module.op(op);
        match &data.kind {
            OpKind::Return => return Ok(Some(data.operands.to_vec())),
            OpKind::VecScope => {
                if let Some(&r) = data.regions.first() {
                    return self.run_region(r);
                }
            }
            OpKind::ArithConstant { value } => self.constant(op, value)?,
            OpKind::AllocTile {
                addr,
                valid_row,
                valid_col,
            } => self.alloc_tile(op, *addr, *valid_row, *valid_col)?,
            OpKind::DeclareTile => self.alloc_tile(op, false, false, false)?,
            OpKind::Tcvt(t) => self.tcvt(op, t)?,
            OpKind::Vcvt(v) => self.vcvt(op, v)?,
            OpKind::VBinary(VBinaryKind::Or) => self.vor(op)?,
            OpKind::Pset {
                granularity: g,
                pattern,
            } => {
                let m = Mask::from_pattern(granularity(*g), pattern)
                    .map_err(|e| self.value_err(op, e))?;
                let r = self.result(op, 0)?;
                self.bind(r, Value::Mask(m));
            }
            OpKind::Plt { granularity: g } => {
                // The scalar is the hardware's uint32_t count: its low 32 bits.
                let count = self.scalar(op, 0)? as u32;
                let (m, rest) = Mask::plt(granularity(*g), count);
                let r = self.result(op, 0)?;
                self.bind(r, Value::Mask(m));
                if let Ok(r) = self.result(op, 1) {
                    self.bind(r, Value::Scalar(u64::from(rest)));
                }
            }
            OpKind::Catalog(c) if crate::verify::rules::is_convert_row(c.row) => {
                self.convert(op)?
            }
            OpKind::Opaque(_) => {
                return Err(self.err(op, InterpErrorKind::OpaqueOp { op: self.name(op) }))
            }
            _ => return Err(self.err(op, InterpErrorKind::UnsupportedOp { op: self.name(op) })),
        }
        Ok(None)
    }

    /// `pto.convert` on a scalar, through the exact core (`target::convert::rounding_of` maps
    /// the letter). The core has no u64, no packed-pair values and no hybrid rounding: those
    /// are `convert-not-executable`, never a guess.
    fn convert(&mut self, op: OpId) -> Res<()> {
        use crate::target::convert::{class_of, rounding_of, Class};
        let not_exec = |me: &Self, reason: String| {
            me.err(op, InterpErrorKind::ConvertNotExecutable { reason })
        };
        let c = crate::verify::rules::convert_controls(self.module, op)
            .ok_or_else(|| self.unsupported(op, "its round/sat controls are not readable"))?;
        let data = self.module.op(op);
        let ty_class = |v: Option<&ValueId>| {
            v.and_then(|v| self.module.values.get(v.0 as usize))
                .filter(|d| (d.ty.0 as usize) < self.module.types.len())
                .and_then(|d| class_of(self.module.ty(d.ty)))
        };
        let (Some(s), Some(d)) = (
            ty_class(data.operands.first()),
            ty_class(data.results.first()),
        ) else {
            return Err(self.unsupported(op, "its types are not pto.convert types"));
        };
        let elem = |k: Class| -> Result<ElemType, String> {
            Ok(match k {
                Class::F32 => ElemType::F32,
                Class::F16 => ElemType::F16,
                Class::BF16 => ElemType::BF16,
                Class::I32 if c.unsigned => ElemType::U32,
                Class::I32 => ElemType::I32,
                Class::I64 if c.unsigned => {
                    return Err(
                        "unsigned i64 (u64): the exact core has no 64-bit unsigned integer".into(),
                    )
                }
                Class::I64 => ElemType::I64,
                other => {
                    return Err(format!(
                        "packed pair {}: packed values are not executed",
                        other.text()
                    ))
                }
            })
        };
        let (se, de) = match (elem(s), elem(d)) {
            (Ok(a), Ok(b)) => (a, b),
            (Err(e), _) | (_, Err(e)) => return Err(not_exec(self, e)),
        };
        let rounding = rounding_of(c.rnd);
        let spec = ConvSpec {
            src: se,
            dst: de,
            rounding,
            sat: c.sat,
            path: nonsat_path_of(self.profile.rules().nonsat.path),
        };
        let conv = Converter::new(spec).map_err(|e| not_exec(self, e.to_string()))?;
        let bits = self.scalar(op, 0)?;
        let (out, outcome) = conv.convert_with_outcome(bits);
        // Integers are kept sign-extended (signed) or zero-extended (unsigned) in the scalar.
        let out = match de {
            ElemType::I32 => out as u32 as i32 as i64 as u64,
            ElemType::U32 => u64::from(out as u32),
            _ => out,
        };
        let r = self.result(op, 0)?;
        self.bind(r, Value::Scalar(out));
        let sat = c.sat && outcome.out_of_range;
        let stats = value::ConvStats {
            converted: 1,
            out_of_range: u64::from(outcome.out_of_range),
            inexact: u64::from(outcome.inexact),
        };
        self.origins.insert(
            r,
            Origin {
                op,
                src: Value::Scalar(bits),
                part: 0,
                stats,
                sat,
            },
        );
        Ok(())
    }

    fn constant(&mut self, op: OpId, value: &Attr) -> Res<()> {
        let bits = match value {
            Attr::Int { value, .. } => *value as u64,
            Attr::Hex { value, ty: None } => *value,
            Attr::Hex { value, ty: Some(t) }
                if matches!(
                    self.module.ty(*t),
                    crate::ir::Type::Scalar(
                        crate::ir::ScalarType::Int { .. } | crate::ir::ScalarType::Index
                    )
                ) =>
            {
                *value
            }
            Attr::Bool(b) => u64::from(*b),
            _ => return Err(self.unsupported(op, "only integer constants are executed")),
        };
        let r = self.result(op, 0)?;
        self.bind(r, Value::Scalar(bits));
        Ok(())
    }

    /// A valid extent from a dynamic-dim operand (an integer; negative is out of shape).
    fn extent_operand(&self, op: OpId, i: usize, dim: &'static str, extent: u64) -> Res<u64> {
        let raw = self.scalar(op, i)? as i64;
        u64::try_from(raw).map_err(|_| {
            self.err(
                op,
                InterpErrorKind::ValidShape {
                    op: self.name(op),
                    source: ValueError::ValidExceedsShape {
                        dim,
                        valid: raw as u64,
                        extent,
                    },
                },
            )
        })
    }

    fn alloc_tile(&mut self, op: OpId, addr: bool, valid_row: bool, valid_col: bool) -> Res<()> {
        let d = self.result_tile_desc(op, 0)?;
        let mut next = usize::from(addr);
        let vr = if valid_row {
            next += 1;
            self.extent_operand(op, next - 1, "row", d.rows)?
        } else {
            d.valid_rows.unwrap_or(d.rows)
        };
        let vc = if valid_col {
            self.extent_operand(op, next, "col", d.cols)?
        } else {
            d.valid_cols.unwrap_or(d.cols)
        };
        let t = Tile::zeroed(d.elem, d.rows, d.cols, vr, vc, d.packed_dim)
            .map_err(|e| self.value_err(op, e))?;
        let r = self.result(op, 0)?;
        self.bind(r, Value::Tile(t));
        Ok(())
    }

    /// The zero dst of a Level-1 SSA tcvt: the result type's extents; a dynamic valid dim takes
    /// the src's actual logical valid extent (in the dst's carrier units).
    fn fresh_dst(&self, op: OpId, src: &Tile) -> Res<Tile> {
        let d = self.result_tile_desc(op, 0)?;
        let (lr, lc) = src.logical_valid();
        let packed = d.elem.is_packed();
        let carrier = |logical: u64, is_packed_dim: bool, dim: &'static str, extent: u64| {
            if packed && is_packed_dim {
                if logical % 2 != 0 {
                    return Err(self.err(
                        op,
                        InterpErrorKind::ValidShape {
                            op: self.name(op),
                            source: ValueError::ValidExceedsShape {
                                dim,
                                valid: logical,
                                extent: extent.saturating_mul(2),
                            },
                        },
                    ));
                }
                Ok(logical / 2)
            } else {
                Ok(logical)
            }
        };
        use pto_runtime::value::PackedDim;
        let vr = match d.valid_rows {
            Some(v) => v,
            None => carrier(lr, d.packed_dim == PackedDim::Rows, "row", d.rows)?,
        };
        let vc = match d.valid_cols {
            Some(v) => v,
            None => carrier(lc, d.packed_dim == PackedDim::Cols, "col", d.cols)?,
        };
        Tile::zeroed(d.elem, d.rows, d.cols, vr, vc, d.packed_dim)
            .map_err(|e| self.value_err(op, e))
    }

    fn tcvt(&mut self, op: OpId, t: &TcvtOp) -> Res<()> {
        // Snapshot src before anything is written (aliasing safe).
        let src = self.tile(op, 0)?.clone();
        let dst_id = t.dst_index().map(|i| self.operand(op, i)).transpose()?;
        let mut dst = match dst_id {
            Some(_) => self.tile(op, t.dst_index().unwrap_or(1))?.clone(),
            None => self.fresh_dst(op, &src)?,
        };
        let tmp = match t.tmp_index() {
            Some(i) => Some(self.tile(op, i)?.clone()),
            None => None,
        };
        let (s, d) = (src.elem(), dst.elem());
        let sat_attr = t.sat.map(|a| if a.on { Sat::On } else { Sat::Off });
        let (spec, _) = crate::exec::defaults::conv_spec_for(
            self.toolchain,
            self.profile,
            s,
            d,
            t.rmode,
            sat_attr,
            t.has_tmp,
        )
        .map_err(|e| {
            self.err(
                op,
                InterpErrorKind::Conversion {
                    op: "pto.tcvt",
                    message: e.to_string(),
                },
            )
        })?;
        // Valid shapes first: the tmp formulas need the dst's actual extents.
        if src.logical_valid() != dst.logical_valid() {
            let ((sr, sc), (dr, dc)) = (src.logical_valid(), dst.logical_valid());
            return Err(self.value_err(
                op,
                ValueError::ValidShapeMismatch {
                    src_rows: sr,
                    src_cols: sc,
                    dst_rows: dr,
                    dst_cols: dc,
                },
            ));
        }
        if let Some(tmp) = &tmp {
            let r = resolve(self.profile, s, d, t.rmode, sat_attr, true);
            if let TmpRole::TorchScratch(pair) = tmp_role(self.profile, s, d, &r, sat_attr, true) {
                let (rows, cols) = dst.valid();
                let need = tmp_required_bytes(pair, rows, cols, src.shape().1);
                let (tr, tc) = tmp.shape();
                let have = tmp_capacity_bytes(tr, tc, tmp.elem().storage_bytes());
                if have < need {
                    return Err(self.err(
                        op,
                        InterpErrorKind::TmpTooSmall {
                            need,
                            have,
                            rows,
                            cols,
                        },
                    ));
                }
            }
        }
        let conv = self.converter(op, spec, "pto.tcvt")?;
        let progress = self.progress;
        let stats = value::tcvt_reporting(&src, &mut dst, &conv, &mut |n| {
            if let Some(p) = progress {
                p(n)
            }
        })
        .map_err(|e| self.value_err(op, e))?;
        let origin = Origin {
            op,
            src: Value::Tile(src),
            part: 0,
            stats,
            sat: spec.sat,
        };
        let target = match dst_id {
            Some(v) => {
                self.written.insert(v);
                v
            }
            None => self.result(op, 0)?,
        };
        self.bind(target, Value::Tile(dst));
        self.origins.insert(target, origin);
        Ok(())
    }

    fn converter(&self, op: OpId, spec: ConvSpec, name: &'static str) -> Res<Converter> {
        Converter::new(spec).map_err(|e| match e {
            ConvError::HybridUnsupported { src, dst } => {
                self.err(op, InterpErrorKind::HybridUnsupported { src, dst })
            }
            e => self.err(
                op,
                InterpErrorKind::Conversion {
                    op: name,
                    message: e.to_string(),
                },
            ),
        })
    }

    fn vcvt(&mut self, op: OpId, v: &VcvtOp) -> Res<()> {
        let input = self.vreg(op, 0)?.clone();
        let mask = self.mask(op, 1)?.clone();
        let d = match self.result_kind(op, 0)? {
            ParamKind::VReg { elem } => elem,
            _ => return Err(self.unsupported(op, "the result is not a vector register")),
        };
        let s = input.elem();
        let conversion = |message: String| {
            self.err(
                op,
                InterpErrorKind::Conversion {
                    op: "pto.vcvt",
                    message,
                },
            )
        };
        let c = contract::lookup(s, d)
            .ok_or_else(|| conversion(format!("no vcvt contract row for {s} -> {d}")))?;
        if !contract::available(self.profile, c) {
            return Err(conversion(format!(
                "vcvt from {s} to {d} is not available on {}",
                self.profile
            )));
        }
        let rnd = c.effective_rnd(v.rnd);
        if rnd == Some(Rnd::H) {
            return Err(self.err(op, InterpErrorKind::HybridUnsupported { src: s, dst: d }));
        }
        // Pairs without rnd are exact (widening); RINT is as good as any mode there.
        let rounding = rnd.map_or(Rounding::Rint, rounding_of_rnd);
        let sat = c.effective_sat(v.sat) == Sat::On;
        let spec = ConvSpec {
            src: s,
            dst: d,
            rounding,
            sat,
            // spec: §6.6 float→int NOSAT: X86 on cpu, NATIVE on hardware, never TORCH.
            path: nonsat_path_of(self.profile.rules().nonsat.path),
        };
        let conv = self.converter(op, spec, "pto.vcvt")?;
        let part = v.part.map(vpart);
        let (out, stats) =
            value::vcvt(&input, &mask, &conv, part).map_err(|e| self.value_err(op, e))?;
        let r = self.result(op, 0)?;
        self.bind(r, Value::VReg(out));
        self.origins.insert(
            r,
            Origin {
                op,
                src: Value::VReg(input),
                part: part.map_or(0, VPart::index),
                stats,
                sat,
            },
        );
        Ok(())
    }

    fn vor(&mut self, op: OpId) -> Res<()> {
        let out = {
            let (a, b, m) = (self.vreg(op, 0)?, self.vreg(op, 1)?, self.mask(op, 2)?);
            value::vor(a, b, m).map_err(|e| self.value_err(op, e))?
        };
        let expected = match self.result_kind(op, 0)? {
            ParamKind::VReg { elem } => elem,
            _ => return Err(self.unsupported(op, "the result is not a vector register")),
        };
        if expected != out.elem() {
            return Err(self.unsupported(
                op,
                format!(
                    "the result type holds {expected}, the operands {}",
                    out.elem()
                ),
            ));
        }
        let r = self.result(op, 0)?;
        self.bind(r, Value::VReg(out));
        Ok(())
    }
}
