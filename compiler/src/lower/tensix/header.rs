//! The `; @io` header of a lowered kernel listing: the one line that tells `ptoc sim` and
//! `ptoc prove` the source and destination element types (hence the datum forms of
//! `pto_runtime::tensix::io`), the arch, and — for proofs — the effective rounding and
//! saturation. `emit::asm::io_line` writes it; [`IoHeader::find`] reads it back, and
//! [`kernel_of_listing`] turns a whole listing back into the kernel `ptoc prove` proves.
//!
//! Invariant: a listing holds at most one header (a multi-kernel listing is an error, not "the
//! first kernel").

use pto_runtime::elem::ElemType;
use pto_runtime::tensix::io::{Abi, Datum};
use pto_runtime::tensix::isa::Arch;

/// The `; @io src=T dst=T [arch=A] [rmode=M sat=on|off] [nan=any] [abi=tt-metal]` header of a ptoc kernel listing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IoHeader {
    pub src: ElemType,
    pub dst: ElemType,
    pub src_datum: Datum,
    pub dst_datum: Datum,
    pub arch: Arch,
    /// Effective rounding and saturation, when the header states them (`ptoc prove` of a listing).
    pub rounding: Option<pto_runtime::convert::Rounding>,
    pub sat: Option<bool>,
    /// `op=vcvt`: a one-register vcvt program (`lower::tensix::vcvt`), with its part.
    pub vcvt: bool,
    pub part: Option<pto_runtime::value::Part>,
    /// `nan=any`: a relaxed kernel (NaN inputs may give any output; `ptoc prove` of the
    /// listing does not compare them).
    pub nan_any: bool,
    /// `abi=tt-metal`: the kernel's I/O contract (`raw` when absent).
    pub abi: Abi,
}

impl IoHeader {
    /// The register shape of a vcvt program's header (`None` for tcvt kernels).
    pub fn vreg_shape(&self) -> Option<super::vcvt::VregShape> {
        self.vcvt.then(|| super::vcvt::VregShape {
            src_lanes: super::vcvt::lanes_of(self.src),
            dst_lanes: super::vcvt::lanes_of(self.dst),
            part: self.part,
        })
    }
}

/// Why a listing's `; @io` header cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HeaderError {
    /// Several headers: a multi-kernel listing.
    #[error(
        "the listing holds {count} kernels (ptoc lower's output for several conversions); lower \
         with --kernel N for one of them, or --split-kernels DIR for one listing each"
    )]
    Several { count: usize },
    /// A malformed header on 1-based `line`.
    #[error("{line}: `; @io` header: {message}")]
    Bad { line: usize, message: String },
}

impl HeaderError {
    /// The message located in `file`: `k.s:3: ...`, or `k.s: ...` without a line.
    pub fn located(&self, file: &str) -> String {
        match self {
            HeaderError::Bad { .. } => format!("{file}:{self}"),
            HeaderError::Several { .. } => format!("{file}: {self}"),
        }
    }
}

impl IoHeader {
    /// Finds and parses the header line; `Ok(None)` when the listing has none.
    pub fn find(text: &str) -> Result<Option<IoHeader>, HeaderError> {
        let kernels = text
            .lines()
            .filter(|l| l.trim_start().starts_with("; @io"))
            .count();
        if kernels > 1 {
            return Err(HeaderError::Several { count: kernels });
        }
        let Some((n, line)) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.trim_start().starts_with("; @io"))
        else {
            return Ok(None);
        };
        let bad = |message: String| HeaderError::Bad {
            line: n + 1,
            message,
        };
        let mut src = None;
        let mut dst = None;
        let mut arch = Arch::Bh;
        let mut rounding = None;
        let mut sat = None;
        let mut vcvt = false;
        let mut part = None;
        let mut nan_any = false;
        let mut abi = Abi::Raw;
        for kv in line
            .trim_start()
            .trim_start_matches("; @io")
            .split_whitespace()
        {
            let Some((k, v)) = kv.split_once('=') else {
                return Err(bad(format!("expected key=value, found `{kv}`")));
            };
            let ty = |v: &str| {
                pto_runtime::tensix::io::TENSIX_TYPES
                    .into_iter()
                    .find(|t| t.ir_name() == v)
                    .ok_or_else(|| {
                        bad(format!(
                            "unknown element type `{v}` (expected f32, bf16, f16, i32, ui32, i16, ui16, i8 or ui8)"
                        ))
                    })
            };
            match k {
                "src" => src = Some(ty(v)?),
                "dst" => dst = Some(ty(v)?),
                "arch" => {
                    arch = match v {
                        "blackhole" => Arch::Bh,
                        "wormhole" => Arch::Wh,
                        _ => {
                            return Err(bad(format!(
                                "unknown arch `{v}` (expected blackhole or wormhole)"
                            )))
                        }
                    }
                }
                "rmode" => {
                    rounding = crate::exec::spec::parse_rmode(v)
                        .ok()
                        .and_then(crate::exec::spec::rounding_of);
                    if rounding.is_none() {
                        return Err(bad(format!(
                            "rmode must be RINT, ROUND, FLOOR, CEIL, TRUNC or ODD, found `{v}`"
                        )));
                    }
                }
                "sat" => {
                    sat = Some(match v {
                        "on" => true,
                        "off" => false,
                        _ => return Err(bad(format!("sat must be on or off, found `{v}`"))),
                    })
                }
                "op" => {
                    vcvt = match v {
                        "tcvt" => false,
                        "vcvt" => true,
                        _ => return Err(bad(format!("op must be tcvt or vcvt, found `{v}`"))),
                    }
                }
                "part" => {
                    part = Some(super::vcvt::parse_part(v).ok_or_else(|| {
                        bad(format!(
                            "part must be EVEN, ODD, P0, P1, P2 or P3, found `{v}`"
                        ))
                    })?)
                }
                "abi" => {
                    abi = Abi::parse(v)
                        .ok_or_else(|| bad(format!("abi must be raw or tt-metal, found `{v}`")))?
                }
                "nan" => {
                    nan_any = match v {
                        "exact" => false,
                        "any" => true,
                        _ => return Err(bad(format!("nan must be exact or any, found `{v}`"))),
                    }
                }
                _ => return Err(bad(format!("unknown key `{k}`"))),
            }
        }
        let (Some(src), Some(dst)) = (src, dst) else {
            return Err(bad("needs both src= and dst=".to_string()));
        };
        let no_datum = |t: ElemType| {
            bad(format!(
                "{} has no datum form under the {} contract",
                t.ir_name(),
                abi.name()
            ))
        };
        Ok(Some(IoHeader {
            src,
            dst,
            src_datum: abi.src_datum(src).ok_or_else(|| no_datum(src))?,
            dst_datum: abi.dst_datum(dst).ok_or_else(|| no_datum(dst))?,
            arch,
            rounding,
            sat,
            vcvt,
            part,
            nan_any,
            abi,
        }))
    }
}

/// Why a listing cannot be read back as a kernel ([`kernel_of_listing`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ListingError {
    /// The `; @io` header is malformed, or there are several.
    #[error(transparent)]
    Header(#[from] HeaderError),
    /// No `; @io` header.
    #[error("the listing has no `; @io src=T dst=T rmode=M sat=on|off` header")]
    NoHeader,
    /// The header lacks the rounding or the saturation a proof needs.
    #[error("the `; @io` header must state rmode= and sat= to be proven")]
    NoMode,
    /// An instruction does not assemble (`LINE:COLUMN: ...`).
    #[error(transparent)]
    Asm(#[from] pto_runtime::tensix::asm::AsmError),
    /// The reference semantics reject the stated combination.
    #[error(transparent)]
    Conv(#[from] pto_runtime::convert::ConvError),
}

impl ListingError {
    /// The message located in `file`: `k.s:9:20: ...` (assembler), `k.s:3: ...` (header line),
    /// else `k.s: ...`.
    pub fn located(&self, file: &str) -> String {
        match self {
            ListingError::Header(h) => h.located(file),
            ListingError::Asm(_) => format!("{file}:{self}"),
            _ => format!("{file}: {self}"),
        }
    }
}

/// A lowered listing (with its `; @io ... rmode= sat=` header) as a kernel to prove or run:
/// its sections as they are (a SFPLOADMACRO body stays one; the runner measures its rows per
/// run), `arch` overriding the header's.
pub fn kernel_of_listing(
    text: &str,
    arch: Option<Arch>,
) -> Result<super::TensixKernel, ListingError> {
    let h = IoHeader::find(text)?.ok_or(ListingError::NoHeader)?;
    let (Some(rounding), Some(sat)) = (h.rounding, h.sat) else {
        return Err(ListingError::NoMode);
    };
    let arch = arch.unwrap_or(h.arch);
    let k = pto_runtime::tensix::sim::kernel::Kernel::parse(text, arch)?;
    let combo = super::Combo {
        src: h.src,
        dst: h.dst,
        rounding,
        sat,
    };
    pto_runtime::convert::Converter::new(combo.spec())?;
    let lines = |p: &pto_runtime::tensix::isa::Program| {
        p.insns
            .iter()
            .map(|&insn| super::builder::Line {
                insn,
                comment: String::new(),
            })
            .collect::<Vec<_>>()
    };
    Ok(super::TensixKernel {
        combo,
        arch,
        family: super::Family::of(h.src, h.dst),
        rule: "listing",
        notes: Vec::new(),
        init: lines(&k.init),
        body: lines(&k.body),
        drain: lines(&k.drain),
        nan_any: h.nan_any,
        macro_form: None,
        vreg: h.vreg_shape(),
        abi: h.abi,
    })
}
