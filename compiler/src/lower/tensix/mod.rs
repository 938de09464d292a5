//! Lowering of conversions to Tenstorrent Tensix SFPU kernels (tensix.md), the heart of
//! `ptoc lower --target tensix` and `ptoc prove`.
//!
//! Pipeline (each stage owns one thing):
//! 1. [`combos_of_module`]: verified IR → the conversions it contains, each as a [`Combo`]
//!    (effective source/destination type, rounding, saturation) resolved on the `cpu` profile,
//!    whose semantics the kernels reproduce bit for bit (D6).
//! 2. [`rules`]: a combo → the rule of its family (float→int, int→float, float→float,
//!    int→int) that writes its sequence into a [`builder::Builder`]. Each rule states its
//!    sequence, cycles per row and why it is exact; a combo no rule implements exactly is a
//!    [`LowerError::Unsupported`] naming the pair, mode, saturation and reason.
//! 3. [`schedule`]: the body's dependency DAG (petgraph) and the hazard pass (WH MAD latency
//!    NOPs; BH stalls are counted by the cycle model).
//! 4. [`TensixKernel`]: init / body / drain with the I/O contract (`pto_runtime::tensix::io`),
//!    consumed by the emitters ([`emit`]: asm, llk, sfpi) and the prover ([`prove`]).
//! 5. [`vcvt`]: a `pto.vcvt` becomes a one-register program around the element kernel of step
//!    4 (lane-major Dst image, mask as lane enables with zero-merge, part as Dst rows), proven on
//!    whole registers by [`vprove`].
//!
//! Invariants: a kernel is only handed out by [`lower_combo`], which runs every rule through
//! the same builder and scheduler; nothing here panics; the prover, not the rule's comments, is
//! the authority on exactness (tests prove every kernel `lower_combo` returns).

pub mod builder;
pub mod docs;
pub mod emit;
pub mod hand_macro;
pub mod header;
pub mod macros;
pub mod prove;
pub mod published;
pub mod rules;
pub mod schedule;
pub mod ttmetal;
pub mod vcvt;
pub mod vprove;

use pto_runtime::convert::{ConvSpec, NonSatPath, Rounding};
use pto_runtime::elem::ElemType;
use pto_runtime::tensix::io::{Abi, Datum, TENSIX_TYPES};
use pto_runtime::tensix::isa::{Arch, Insn, Program};
use pto_runtime::tensix::sim::kernel::Kernel;

use builder::{Builder, Line};

/// One conversion with effective parameters (the `cpu` profile's resolution).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Combo {
    pub src: ElemType,
    pub dst: ElemType,
    pub rounding: Rounding,
    pub sat: bool,
}

impl Combo {
    /// The reference spec (cpu: the X86 non-saturating path).
    pub fn spec(&self) -> ConvSpec {
        ConvSpec {
            src: self.src,
            dst: self.dst,
            rounding: self.rounding,
            sat: self.sat,
            path: NonSatPath::X86,
        }
    }

    /// `f32 -> bf16 RINT sat=off`.
    pub fn describe(&self) -> String {
        format!(
            "{} -> {} {} sat={}",
            self.src.ir_name(),
            self.dst.ir_name(),
            self.rounding.name(),
            if self.sat { "on" } else { "off" }
        )
    }

    /// A file-name-friendly identifier: `f32_to_bf16_rint_satoff`.
    pub fn slug(&self) -> String {
        format!(
            "{}_to_{}_{}_sat{}",
            self.src.ir_name(),
            self.dst.ir_name(),
            self.rounding.name().to_ascii_lowercase(),
            if self.sat { "on" } else { "off" }
        )
    }

    /// Every combination of the Tensix types × the five rounding modes the issue asks for
    /// (RINT ROUND FLOOR CEIL TRUNC) and ODD, × both saturation modes.
    pub fn all() -> Vec<Combo> {
        let modes = [
            Rounding::Rint,
            Rounding::Round,
            Rounding::Floor,
            Rounding::Ceil,
            Rounding::Trunc,
            Rounding::Odd,
        ];
        let mut v = Vec::new();
        for src in TENSIX_TYPES {
            for dst in TENSIX_TYPES {
                for rounding in modes {
                    for sat in [false, true] {
                        v.push(Combo {
                            src,
                            dst,
                            rounding,
                            sat,
                        });
                    }
                }
            }
        }
        v
    }
}

/// The conversion families, one rule module each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    FloatToInt,
    IntToFloat,
    FloatToFloat,
    IntToInt,
}

impl Family {
    pub fn of(src: ElemType, dst: ElemType) -> Family {
        match (src.is_float(), dst.is_float()) {
            (true, false) => Family::FloatToInt,
            (false, true) => Family::IntToFloat,
            (true, true) => Family::FloatToFloat,
            (false, false) => Family::IntToInt,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Family::FloatToInt => "float->int",
            Family::IntToFloat => "int->float",
            Family::FloatToFloat => "float->float",
            Family::IntToInt => "int->int",
        }
    }
}

/// Why a combination is not lowered (errors), and what a lowering says about its input (notes).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LowerError {
    /// A type the Tensix kernels do not carry (fp8, hif8, fp4, i64, s4).
    #[error(
        "{ty} has no Tensix datum form (supported: f32, bf16, f16, i32, ui32, i16, ui16, i8, ui8)"
    )]
    TypeNotCarried { ty: &'static str },
    /// The I/O contract cannot feed or take the type (tt-metal: f16 reaches Dst as an fp32
    /// value, i16 has no tt-metal format).
    #[error(
        "{ty} has no datum under the {abi} I/O contract (tt-metal feeds f16 to Dst as an fp32 value and has no Int16 format); use `--abi raw`, or convert through f32 / i32"
    )]
    AbiNotCarried { ty: &'static str, abi: &'static str },
    /// No rule implements the combination exactly.
    #[error("no exact Tensix sequence for {combo}: {reason}")]
    Unsupported { combo: String, reason: String },
    /// A rule produced text that does not assemble (a ptoc bug).
    #[error("internal error in rule {rule}: {message}")]
    Internal { rule: &'static str, message: String },
    /// The lowering's self-check proof found a mismatch (never expected: every rule is proven
    /// in CI; this stops a regression from emitting wrong code).
    #[error("the kernel for {combo} differs from the reference: input {input:#x} gives {got:#x}, expected {expected:#x}")]
    ProofFailed {
        combo: String,
        input: u64,
        expected: u64,
        got: u32,
    },
    /// Note: the input holds no conversion op.
    #[error("no pto.tcvt or pto.vcvt to lower: nothing is lowered or proven")]
    NothingToLower,
    /// Note: a module names a profile other than cpu; its conversions are lowered with the cpu
    /// profile's semantics, which every Tensix kernel reproduces.
    #[error(
        "the module's pto.target_arch is \"{arch}\" (profile {profile}), but Tensix kernels \
         reproduce the cpu profile's semantics: its conversions are lowered as cpu resolves them"
    )]
    CpuSemantics { arch: String, profile: &'static str },
}

/// Errors of the Tensix lowering are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<LowerError> for crate::diag::DiagKind {
    fn from(e: LowerError) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

impl LowerError {
    /// The stable diagnostic code.
    pub fn code(&self) -> crate::diag::Code {
        use crate::diag::Code;
        match self {
            LowerError::TypeNotCarried { .. } | LowerError::AbiNotCarried { .. } => {
                Code::TensixTypeNotCarried
            }
            LowerError::Unsupported { .. } | LowerError::Internal { .. } => Code::TensixUnsupported,
            LowerError::ProofFailed { .. } => Code::TensixProofFailed,
            LowerError::NothingToLower => Code::TensixNothingToLower,
            LowerError::CpuSemantics { .. } => Code::TensixCpuSemantics,
        }
    }
}

/// A lowered conversion: the kernel, its provenance and its I/O contract.
#[derive(Debug, Clone)]
pub struct TensixKernel {
    pub combo: Combo,
    pub arch: Arch,
    pub family: Family,
    /// The rule that produced it (`float_int::trunc_i32`, …).
    pub rule: &'static str,
    /// What the rule says about the sequence: its origin, what it fixes, why it is exact.
    pub notes: Vec<String>,
    pub init: Vec<Line>,
    pub body: Vec<Line>,
    pub drain: Vec<Line>,
    /// A `--nan=any` variant: exact on every non-NaN input, NaN inputs may give any output;
    /// proven under the relaxed rule only (NaN inputs run, not compared).
    pub nan_any: bool,
    /// The SFPLOADMACRO form, when the body's shape has one (`macros`); proven equal to the
    /// plain body on every proof input (D5).
    pub macro_form: Option<macros::MacroForm>,
    /// `Some` for a `pto.vcvt` program (one register per run, `vcvt`); `None` for a tcvt kernel
    /// (one row per body run).
    pub vreg: Option<vcvt::VregShape>,
    /// The I/O contract the kernel is built and proven for (`tensix::io::Abi`).
    pub abi: Abi,
}

impl TensixKernel {
    pub fn src_datum(&self) -> Datum {
        // `lower_combo` only builds kernels for types its contract carries.
        self.abi.src_datum(self.combo.src).unwrap_or(Datum::Raw32)
    }

    pub fn dst_datum(&self) -> Datum {
        self.abi.dst_datum(self.combo.dst).unwrap_or(Datum::Raw32)
    }

    /// The simulator's view of the kernel.
    pub fn sim_kernel(&self) -> Kernel {
        let prog = |v: &[Line]| Program::new(v.iter().map(|l| l.insn).collect::<Vec<Insn>>());
        Kernel {
            init: prog(&self.init),
            body: prog(&self.body),
            drain: prog(&self.drain),
        }
    }

    /// The simulator's view of the macro form.
    pub fn macro_sim_kernel(&self) -> Option<Kernel> {
        let prog = |v: &[Line]| Program::new(v.iter().map(|l| l.insn).collect::<Vec<Insn>>());
        self.macro_form.as_ref().map(|m| Kernel {
            init: prog(&m.init),
            body: prog(&m.body),
            drain: prog(&m.drain),
        })
    }

    /// `tcvt` or `vcvt`.
    pub fn op_name(&self) -> &'static str {
        if self.vreg.is_some() {
            "vcvt"
        } else {
            "tcvt"
        }
    }

    /// The combination, with the part of a vcvt: `f32 -> f16 RINT sat=off part=EVEN`.
    pub fn describe(&self) -> String {
        match self.vreg.and_then(|v| v.part_name()) {
            Some(p) => format!("{} part={p}", self.combo.describe()),
            None => self.combo.describe(),
        }
    }

    /// A file-name-friendly identifier (`f32_to_i32_trunc_satoff`, `vcvt_f32_to_f16_rint_satoff_even`).
    pub fn slug(&self) -> String {
        match self.vreg {
            None => self.combo.slug(),
            Some(v) => match v.part_name() {
                Some(p) => format!("vcvt_{}_{}", self.combo.slug(), p.to_ascii_lowercase()),
                None => format!("vcvt_{}", self.combo.slug()),
            },
        }
    }

    /// Issue slots of one body run (one row): the plain instruction count.
    pub fn body_len(&self) -> usize {
        self.body.len()
    }
}

/// Lowers one combination for `arch` (exact on every input).
pub fn lower_combo(combo: Combo, arch: Arch) -> Result<TensixKernel, LowerError> {
    lower_combo_with(combo, arch, false)
}

/// Lowers one combination for `arch`; with `nan_any` (tensix.md §9 `--nan=any`) a rule may
/// pick a cheaper sequence that leaves NaN inputs unhandled, and the kernel then says so
/// ([`TensixKernel::nan_any`]); combinations without such a variant get the exact kernel.
pub fn lower_combo_with(
    combo: Combo,
    arch: Arch,
    nan_any: bool,
) -> Result<TensixKernel, LowerError> {
    lower_combo_for(combo, arch, nan_any, Abi::Raw)
}

/// As [`lower_combo_with`] for the I/O contract `abi`: the builder's load and store adapt the
/// contract's datums to the raw forms the rules assume (`Builder::load` / `Builder::store`).
pub fn lower_combo_for(
    combo: Combo,
    arch: Arch,
    nan_any: bool,
    abi: Abi,
) -> Result<TensixKernel, LowerError> {
    for ty in [combo.src, combo.dst] {
        if Datum::of(ty).is_none() {
            return Err(LowerError::TypeNotCarried { ty: ty.ir_name() });
        }
    }
    if abi.src_datum(combo.src).is_none() || abi.dst_datum(combo.dst).is_none() {
        let ty = if abi.src_datum(combo.src).is_none() {
            combo.src
        } else {
            combo.dst
        };
        return Err(LowerError::AbiNotCarried {
            ty: ty.ir_name(),
            abi: abi.name(),
        });
    }
    let family = Family::of(combo.src, combo.dst);
    let mut b = Builder::new(arch);
    b.nan_any = nan_any;
    if abi != Abi::Raw {
        b.io = Some((abi, combo.src, combo.dst));
    }
    let chosen = rules::select(&combo, &mut b).map_err(|reason| LowerError::Unsupported {
        combo: combo.describe(),
        reason,
    })?;
    if let Some(message) = b.error.take() {
        return Err(LowerError::Internal {
            rule: chosen.name,
            message,
        });
    }
    let body = schedule::schedule(std::mem::take(&mut b.body), arch);
    if !schedule::stores_with_all_lanes(&body) {
        return Err(LowerError::Internal {
            rule: chosen.name,
            message: "the store runs under narrowed lane flags".to_string(),
        });
    }
    let drain = schedule::drain_for(&body, arch);
    let init = std::mem::take(&mut b.init);
    let macro_form = match b.hand_macro.take() {
        Some(h) => hand_macro::hand_form(arch, &init, &body, &h)
            .or_else(|| macros::macro_form(arch, &init, &body)),
        None => macros::macro_form(arch, &init, &body),
    };
    let mut notes = chosen.notes;
    if b.relaxed {
        notes.push(
            "RELAXED --nan=any variant: the NaN fix-up is left out, so NaN inputs may give any \
             output; every other input is exact (proven with NaN inputs run, not compared)"
                .to_string(),
        );
    }
    Ok(TensixKernel {
        combo,
        arch,
        family,
        rule: chosen.name,
        notes,
        init,
        body,
        drain,
        nan_any: b.relaxed,
        macro_form,
        vreg: None,
        abi,
    })
}

/// A conversion op of the input and its kernel.
#[derive(Debug, Clone)]
pub struct LoweredOp {
    /// The op's span in the input file.
    pub span: crate::diag::Span,
    pub kernel: TensixKernel,
}

/// The outcome of lowering a file.
#[derive(Debug, Default)]
pub struct LoweredFile {
    pub ops: Vec<LoweredOp>,
    /// Parse, verifier (cpu profile) and lowering diagnostics, sorted by position.
    pub diagnostics: Vec<crate::diag::Diagnostic>,
}

impl LoweredFile {
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// Parses and verifies `bytes` on the `cpu` profile (the semantics Tensix kernels reproduce),
/// then lowers every conversion op for `arch`. Every error is collected: verifier errors stop
/// lowering of their chunk, lowering errors are reported per op. `self_check` proves each kernel
/// on the §9 edge list before handing it out (`ptoc lower`; `ptoc prove` runs the full proof).
///
/// `nan_any` (`--nan=any`) selects the relaxed variant where a rule has one.
pub fn lower_file(
    bytes: &[u8],
    arch: Arch,
    split_input: bool,
    self_check: bool,
    nan_any: bool,
) -> LoweredFile {
    lower_file_as(
        bytes,
        arch,
        &LowerOptions {
            split_input,
            self_check,
            nan_any,
            ..LowerOptions::default()
        },
    )
}

/// How a file is lowered: everything but the bytes and the arch.
#[derive(Debug, Clone, Copy)]
pub struct LowerOptions {
    /// `.pto` text, or `.ptoasm` assembly (syntax.md §6.2).
    pub format: crate::front::InputFormat,
    /// `--split-input-file`.
    pub split_input: bool,
    /// Prove each kernel on the §9 edge list before handing it out.
    pub self_check: bool,
    /// `--nan=any`: the relaxed variant where a rule has one.
    pub nan_any: bool,
    /// The I/O contract every tcvt kernel is built for (vcvt programs keep ptoc's raw images).
    pub abi: Abi,
    /// `--defaults`: the toolchain whose defaults an omitted `satmode` / `rmode = NONE` take;
    /// `None`: pto-isa's, with W0208 where the choice changes a result.
    pub defaults: Option<crate::target::toolchain::Toolchain>,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            format: crate::front::InputFormat::Pto,
            split_input: false,
            self_check: false,
            nan_any: false,
            abi: Abi::Raw,
            defaults: None,
        }
    }
}

/// [`lower_file`] with every option (`LowerOptions`).
pub fn lower_file_as(bytes: &[u8], arch: Arch, o: &LowerOptions) -> LoweredFile {
    use crate::diag::{Code, Diagnostic};
    use crate::driver::{check_file, Options, TargetChoice};
    let LowerOptions {
        format,
        split_input,
        self_check,
        nan_any,
        abi,
        defaults,
    } = *o;
    let opts = Options {
        target: TargetChoice::Profile(crate::target::Profile::Cpu),
        split_input,
        format,
        parse_only: false,
        strict_ops: false,
        pto_level: Default::default(),
        defaults,
    };
    let file = check_file(bytes, &opts);
    let mut out = LoweredFile::default();
    let mut conversions = 0;
    out.diagnostics
        .extend(file.file_diagnostics.iter().cloned());
    for chunk in &file.chunks {
        out.diagnostics
            .extend(chunk.shown_diagnostics(Some(Default::default())));
        let chunk_failed = chunk.diagnostics().any(|d| d.is_error());
        let (false, Some(module)) = (chunk_failed, &chunk.module) else {
            continue;
        };
        let mut combos: Vec<_> = combos_of_module(module, defaults.unwrap_or_default())
            .into_iter()
            .map(|(op, c)| (op, c.and_then(|c| lower_combo_for(c, arch, nan_any, abi))))
            .collect();
        combos.extend(
            vcvt::vcvt_combos_of_module(module)
                .into_iter()
                .map(|(op, c)| (op, c.and_then(|c| vcvt::lower_vcvt(c, arch)))),
        );
        combos.sort_by_key(|(op, _)| module.op_spans(*op).name.start);
        if !combos.is_empty() {
            out.diagnostics.extend(cpu_semantics_notes(module));
        }
        conversions += combos.len();
        for (op, lowered) in combos {
            let span = module.op_spans(op).name;
            let res = lowered.and_then(|k| {
                if self_check {
                    self_check_kernel(&k)?;
                }
                Ok(k)
            });
            match res {
                Ok(kernel) => out.ops.push(LoweredOp { span, kernel }),
                Err(e) => {
                    let d = Diagnostic::new(e.code(), e, span).with_help(
                        "docs/tensix-kernels.md lists every combination ptoc lowers; the cpu profile's \
                         reference interpreter (`ptoc run`) executes all of them",
                    );
                    out.diagnostics.push(d);
                }
            }
        }
    }
    if conversions == 0 && !out.has_errors() {
        let start = crate::diag::Span::default();
        out.diagnostics.push(Diagnostic::new(
            Code::TensixNothingToLower,
            LowerError::NothingToLower,
            start,
        ));
    }
    crate::diag::sort_by_position(&mut out.diagnostics);
    out
}

/// N0705 at each `pto.target_arch` of `module` that names a known profile other than cpu.
fn cpu_semantics_notes(module: &crate::ir::Module) -> Vec<crate::diag::Diagnostic> {
    use crate::target::Profile;
    module
        .target_archs()
        .into_iter()
        .filter_map(|(attr, span)| match attr {
            crate::ir::Attr::Str(arch) => Profile::from_target_arch(arch)
                .filter(|&p| p != Profile::Cpu)
                .map(|p| {
                    crate::diag::Diagnostic::new(
                        crate::diag::Code::TensixCpuSemantics,
                        LowerError::CpuSemantics {
                            arch: arch.to_string(),
                            profile: p.as_str(),
                        },
                        span,
                    )
                }),
            _ => None,
        })
        .collect()
}

/// Proves `k` on the edge list (and 2^12 random inputs) — cheap enough for every `ptoc lower`.
pub fn self_check_kernel(k: &TensixKernel) -> Result<(), LowerError> {
    let opts = prove::ProofOptions {
        random: 1 << 12,
        ..prove::ProofOptions::default()
    };
    let rep = prove::prove(k, &opts, &|_| {});
    if let Some(m) = rep.first.first() {
        return Err(LowerError::ProofFailed {
            combo: k.combo.describe(),
            input: m.input,
            expected: m.expected,
            got: m.got_word,
        });
    }
    match rep.error {
        Some(message) => Err(LowerError::Internal {
            rule: k.rule,
            message,
        }),
        None => Ok(()),
    }
}

/// The combinations of the `pto.tcvt` ops of a verified module, resolved on the cpu profile,
/// with the op they come from (duplicates kept: each op is lowered). What the op leaves to the
/// toolchain (omitted `satmode`, `rmode = NONE`) takes `toolchain`'s defaults.
pub fn combos_of_module(
    module: &crate::ir::Module,
    toolchain: crate::target::toolchain::Toolchain,
) -> Vec<(crate::ir::OpId, Result<Combo, LowerError>)> {
    use crate::ir::types::Type;
    use crate::ir::OpKind;
    use crate::target::tcvt::Sat;
    use crate::target::Profile;
    let mut out = Vec::new();
    for op in module.walk() {
        let OpKind::Tcvt(t) = &module.op(op).kind else {
            continue;
        };
        let data = module.op(op);
        let elem_of = |v: Option<&crate::ir::ValueId>| {
            v.and_then(|&v| match module.value_type(v) {
                Type::TileBuf(t) => t.elem.conversion_elem(),
                Type::Tile(t) => t.elem.conversion_elem(),
                _ => None,
            })
        };
        let src = elem_of(data.operands.first());
        let dst = match t.dst_index() {
            Some(i) => elem_of(data.operands.get(i)),
            None => elem_of(data.results.first()),
        };
        let (Some(src), Some(dst)) = (src, dst) else {
            continue;
        };
        let sat_attr = t.sat.map(|a| if a.on { Sat::On } else { Sat::Off });
        let res = crate::exec::defaults::conv_spec_for(
            toolchain,
            Profile::Cpu,
            src,
            dst,
            t.rmode,
            sat_attr,
            t.has_tmp,
        )
        .map(|(spec, _)| Combo {
            src: spec.src,
            dst: spec.dst,
            rounding: spec.rounding,
            sat: spec.sat,
        })
        .map_err(|e| LowerError::Unsupported {
            combo: format!("{} -> {}", src.ir_name(), dst.ir_name()),
            reason: e.to_string(),
        });
        out.push((op, res));
    }
    out
}
