//! Tensix numeric formats (tensix.md §4.2, §4.5, §5; SEED-F): the bit-level conversions between
//! Dst cells, SFPU LReg values, IEEE bit patterns and L1 tile formats.
//!
//! Owns:
//! * [`Mod0`] and the SFPLOAD/SFPSTORE conversions [`load_mod0`] / [`store_mod0`] (Dst cell ↔
//!   LReg `u32`) for every Mod0 on both archs, their inverses [`load_inverse`] (the prover / `ptoc
//!   sim` write logical values into Dst with it, §4.6/§4.7), [`store_preimage`] (decoding outputs
//!   through a store mode), and [`Mod0::resolve`] for the default
//!   mode 0 (SRCB) from a [`DstConfig`];
//! * the Dst field shuffles ([`shuf16`], [`unshuf16`], [`shuf32`], [`unshuf32`], FP16 variants);
//! * scalar conversions (module [`scalar`]): FP32→BF16 RTZ/RTNE, TF32, Tensix FP16 with
//!   saturation, sign-magnitude integers and the SFPCAST two's ↔ sign-magnitude quirk, the
//!   shuffled 19-bit SrcA/SrcB cell;
//! * [`DataFormat`] (the 4-bit hardware enum) with 32×32 tile byte sizes;
//! * BFP8/4/2 in formats A (`Bfp8`, 5-bit shared exponent, FP16-based) and B (`Bfp8_b`, 8-bit
//!   shared exponent, BF16-based): tile pack/unpack (module [`bfp`]).
//!
//! API used by the SFPU simulator (stable):
//! ```text
//! Mod0::from_bits(u8) -> Result<Mod0, FormatError>         Mod0::resolve(self, &DstConfig) -> Mod0
//! Mod0::load_view() / store_view() -> View                   (Dst16b or Dst32b)
//! load_mod0(Mod0, Cell, old_lreg: u32, Arch) -> Result<u32, FormatError>
//! store_mod0(Mod0, lreg: u32, Arch) -> Result<Cell, FormatError>
//! load_inverse(Mod0, lreg: u32, Arch) -> Result<Cell, FormatError>
//! store_preimage(Mod0, Cell, Arch) -> Result<u32, FormatError>
//! ```
//! `dest::Dest::{sfpu_load, sfpu_store}` wrap these with the lane → (row, column) addressing.
//!
//! Invariants: every function is pure and total over its inputs; where the sources leave a result
//! undefined or non-contractual the function returns a [`FormatError`] naming the case instead of
//! guessing. Where the ISA pages and TTSIM disagree, TTSIM wins (tensix.md D1); D4 (FP32 store
//! flushes denormals on both archs) is applied.

pub mod bfp;
mod data_format;
mod mod0;
pub mod scalar;

pub use data_format::{DataFormat, ExtraFormat, TILE_ELEMS};
pub use mod0::{
    load_inverse, load_mod0, shuf16, shuf32, shuf_fp16, store_mod0, store_preimage, unshuf16,
    unshuf32, unshuf_fp16, Cell, DstConfig, Mod0, View,
};

/// The Tenstorrent architecture (tensix.md §11).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Arch {
    /// Wormhole B0.
    Wh,
    /// Blackhole A0.
    Bh,
}

impl Arch {
    /// The CLI spelling (`wormhole` / `blackhole`).
    pub fn name(self) -> &'static str {
        match self {
            Arch::Wh => "wormhole",
            Arch::Bh => "blackhole",
        }
    }
}

/// A conversion the sources do not define, or an input outside a function's domain.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FormatError {
    /// A Mod0 field value outside 0..=15.
    #[error("Mod0 value {0} is not a 4-bit load/store mode")]
    BadMod0(u8),
    /// Mod0 0 (SRCB/DEFAULT) must be resolved with [`Mod0::resolve`] before converting.
    #[error("Mod0 0 (DEFAULT/SRCB) must be resolved against the Dst configuration first")]
    UnresolvedDefault,
    /// The cell handed to a load has the wrong width for the mode's view.
    #[error("Mod0 {mod0} reads {expected:?}, got a {got:?} cell")]
    ViewMismatch {
        mod0: &'static str,
        expected: View,
        got: View,
    },
    /// The mode has no SFPSTORE direction (or it is not a data conversion).
    #[error("Mod0 {mod0} has no {direction} conversion")]
    NoConversion {
        mod0: &'static str,
        direction: &'static str,
    },
    /// No Dst cell makes SFPLOAD with this mode produce the requested LReg value.
    #[error("no Dst cell loads as {value:#010x} with Mod0 {mod0}")]
    NotLoadable { mod0: &'static str, value: u32 },
    /// A DataFormat code the 4-bit table leaves reserved (12, 13).
    #[error("data format code {0} is reserved")]
    ReservedFormat(u8),
    /// A conversion whose result the sources leave undefined for this input.
    #[error("{what}: undefined for input {value:#x} ({why})")]
    Undefined {
        what: &'static str,
        value: u64,
        why: &'static str,
    },
    /// A data format that is not a BFP format was handed to the BFP codec (or vice versa).
    #[error("{format:?} is not valid here: {why}")]
    WrongFormat {
        format: DataFormat,
        why: &'static str,
    },
    /// A buffer of the wrong length.
    #[error("{what}: expected {expected} bytes/elements, got {got}")]
    BadLength {
        what: &'static str,
        expected: usize,
        got: usize,
    },
}
