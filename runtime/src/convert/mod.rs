//! Conversions between element types (semantics.md §2, §4): the numeric core of ptoc.
//!
//! CONTRACT (shared by the interpreter, `ptoc cast`, the tests and the Tensix proofs; do not change
//! a signature without the lead): a conversion is described by a [`ConvSpec`] holding *effective*
//! parameters (already resolved by the compiler's `target::resolve` or the vcvt contract — this
//! crate knows no profiles, only the three non-saturating float→int paths). [`Converter::new`]
//! validates the spec (H rounding, modes a destination does not define) and precomputes whatever
//! makes it fast; after that every conversion is total and infallible.
//!
//! Bit patterns travel as `u64` holding the element in its low `value_bits()` bits (a nibble for
//! packed types, sign in bit 3). Bulk buffers are little-endian storage bytes; packed types hold
//! logical element 2k in the low nibble of byte k and 2k+1 in the high nibble (§2.6).
//!
//! Implementation map: `format` (descriptors, exact decode/encode, HiFloat8), `exact` (the single
//! generic exact algorithm every result is defined by), `bulk` (slice conversion, 4/8/16-bit
//! source lookup tables built from the generic path, rayon splitting), `kernel` (vectorisable
//! kernels for f32 / i32 / u32 / i64 sources, tested equal to the generic path), `display`
//! (value printing and classification for the CLI).
//!
//! Invariants: `convert_with_outcome` *is* the generic path; every bulk path returns exactly
//! what it returns element by element; nothing panics for any input or buffer.

use std::sync::{Arc, OnceLock};

use crate::elem::ElemType;

mod bulk;
mod display;
mod exact;
pub mod format;
mod kernel;
#[cfg(test)]
mod tests;

pub use display::{classify, display_value, ValueClass};

// `Converter` is shared across rayon workers and interpreter threads.
const _: fn() = || {
    fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<Converter>();
};

/// An effective rounding mode (§4.1). `Hybrid` is representable (the vcvt verifier accepts H)
/// but never executable.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rounding {
    /// Nearest, ties to even.
    Rint,
    /// Nearest, ties away from zero.
    Round,
    /// Toward −∞.
    Floor,
    /// Toward +∞.
    Ceil,
    /// Toward zero.
    Trunc,
    /// Von Neumann round-to-odd.
    Odd,
    /// HiF8 hybrid rounding: not executable (`rounding-hybrid-unsupported`).
    Hybrid,
}

impl Rounding {
    pub const EXECUTABLE: [Rounding; 6] = [
        Rounding::Rint,
        Rounding::Round,
        Rounding::Floor,
        Rounding::Ceil,
        Rounding::Trunc,
        Rounding::Odd,
    ];

    /// The tcvt mode name (`RINT`, `ROUND`, ...; `H` for hybrid).
    pub fn name(self) -> &'static str {
        match self {
            Rounding::Rint => "RINT",
            Rounding::Round => "ROUND",
            Rounding::Floor => "FLOOR",
            Rounding::Ceil => "CEIL",
            Rounding::Trunc => "TRUNC",
            Rounding::Odd => "ODD",
            Rounding::Hybrid => "H",
        }
    }
}

/// How a float→int conversion with saturation OFF treats out-of-range values (§4.2.2–4.2.4).
/// Ignored for every other pair and when `sat` is on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NonSatPath {
    /// cpu: `static_cast` after rounding through i32 (i64 for i64/ui32 destinations).
    X86,
    /// a2a3/a5 hardware: clamp to i64, NaN → 0, then low N bits.
    Native,
    /// a2a3 with tmp: clamp to i32, NaN → 0, then low N bits.
    Torch,
}

/// The effective parameters of one elementwise conversion.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ConvSpec {
    pub src: ElemType,
    pub dst: ElemType,
    pub rounding: Rounding,
    /// Saturation ON (§3.4, §4.2.1, §4.3, §4.6).
    pub sat: bool,
    pub path: NonSatPath,
}

/// Why a [`ConvSpec`] cannot be executed, or a bulk call was malformed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConvError {
    /// `rounding-hybrid-unsupported` (§4.1, §7 #1).
    #[error("hybrid rounding (H) is not executable ({src} -> {dst})")]
    HybridUnsupported { src: ElemType, dst: ElemType },
    /// A mode the destination does not define: anything but ROUND into hif8 (§2.4), ODD into
    /// f8E4M3FN / fp4 (§3.3). The resolver never produces these; a raw caller can.
    #[error("rounding mode {} is not defined for {src} -> {dst}: {reason}", rounding.name())]
    ModeNotDefined {
        src: ElemType,
        dst: ElemType,
        rounding: Rounding,
        reason: &'static str,
    },
    /// A bulk buffer does not hold `count` elements of its type.
    #[error("{role} buffer holds {actual} bytes, {count} elements of {elem} need {needed}")]
    BufferSize {
        role: &'static str,
        elem: ElemType,
        count: usize,
        needed: usize,
        actual: usize,
    },
}

/// What happened to one element (for run summaries: "saturated" counts).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Outcome {
    /// The result differs from the exact source value (rounding, overflow, NaN change).
    pub inexact: bool,
    /// The source value (after rounding) lies outside the destination's finite range, or is ±Inf
    /// converted to a destination without that Inf; with `sat` this is a saturated element.
    pub out_of_range: bool,
}

/// A validated, prepared conversion. Cheap to clone; `Send + Sync`.
#[derive(Debug, Clone)]
pub struct Converter {
    spec: ConvSpec,
    plan: exact::Plan,
    /// Lookup table for ≤ 16-bit sources, built lazily from the generic path and shared by clones.
    table: Arc<OnceLock<Arc<bulk::Table>>>,
}

impl Converter {
    /// Validates `spec` (see [`ConvError`]) and prepares the fast path.
    pub fn new(spec: ConvSpec) -> Result<Converter, ConvError> {
        let (src, dst, rounding) = (spec.src, spec.dst, spec.rounding);
        if rounding == Rounding::Hybrid {
            return Err(ConvError::HybridUnsupported { src, dst });
        }
        let reason = match dst {
            ElemType::Hif8 if rounding != Rounding::Round => {
                Some("hif8 encoding is defined only for ROUND (nearest, ties away)")
            }
            ElemType::F8E4M3FN if rounding == Rounding::Odd => {
                Some("f8E4M3FN has no odd neighbour at the top of its range (0x7F is NaN)")
            }
            ElemType::F4E2M1x2 | ElemType::F4E1M2x2 if rounding == Rounding::Odd => {
                Some("fp4 always saturates; round-to-odd is not offered")
            }
            _ => None,
        };
        if let Some(reason) = reason {
            return Err(ConvError::ModeNotDefined {
                src,
                dst,
                rounding,
                reason,
            });
        }
        Ok(Converter {
            spec,
            plan: exact::Plan::new(spec),
            table: Arc::new(OnceLock::new()),
        })
    }

    pub fn spec(&self) -> ConvSpec {
        self.spec
    }

    /// Converts one logical element (`bits` in the low `src.value_bits()` bits; higher bits are
    /// ignored). Returns the destination pattern in the low `dst.value_bits()` bits.
    pub fn convert_bits(&self, bits: u64) -> u64 {
        self.convert_with_outcome(bits).0
    }

    /// As [`Converter::convert_bits`], also reporting the [`Outcome`].
    pub fn convert_with_outcome(&self, bits: u64) -> (u64, Outcome) {
        self.plan.convert(bits)
    }

    /// Converts `count` logical elements from `src` storage bytes into `dst` storage bytes
    /// (single thread). Packed destinations are written nibble by nibble (only the bytes covered
    /// by `count` are touched; with odd `count` the last byte's high nibble is preserved).
    ///
    /// Buffers may be longer than needed (the excess is ignored and untouched); a buffer shorter
    /// than `storage_len(elem, count)` is a [`ConvError::BufferSize`] and nothing is written.
    pub fn convert_slice(&self, src: &[u8], dst: &mut [u8], count: usize) -> Result<(), ConvError> {
        let (src, dst) = self.checked(src, dst, count)?;
        self.run(src, dst, count);
        Ok(())
    }

    /// As [`Converter::convert_slice`], split across the rayon thread pool.
    pub fn convert_slice_par(
        &self,
        src: &[u8],
        dst: &mut [u8],
        count: usize,
    ) -> Result<(), ConvError> {
        let (src, dst) = self.checked(src, dst, count)?;
        self.run_par(src, dst, count);
        Ok(())
    }
}

/// Storage bytes needed for `count` logical elements of `elem` (packed: ⌈count/2⌉).
pub fn storage_len(elem: ElemType, count: usize) -> usize {
    if elem.is_packed() {
        count.div_ceil(2)
    } else {
        count.saturating_mul(elem.storage_bytes() as usize)
    }
}
