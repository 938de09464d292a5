//! Execution plumbing shared by `ptoc cast` and `ptoc run` (issue 3): everything between the
//! command line and the numeric core (`pto_runtime::convert`) that is not a conversion itself.
//!
//! - [`spec`]: element-type and rounding-mode names as written on the command line, and
//!   [`spec::conv_spec`], which turns a (profile, pair, requested rmode/sat, tmp) into the
//!   runtime's effective [`ConvSpec`](pto_runtime::ConvSpec) through `target::resolve` (§3.7);
//! - [`dataio`]: raw little-endian `.bin` and `.npy` files ↔ storage bytes + element count +
//!   shape (packed types two logical elements per byte, low nibble first, §2.6);
//! - [`display`]: exact decoding and decimal printing of any element's bit pattern;
//! - [`diff`]: cross-profile comparison of result buffers (which elements differ, with input
//!   and every profile's output in hex and decimal);
//! - [`progress`]: an indicatif bar drawn only when stderr is a terminal;
//! - [`stream`]: the same files read and written chunk by chunk (for `ptoc cast`).
//!
//! Invariants: nothing here prints (except the progress bar, to a TTY stderr only) or exits, and
//! nothing panics on any input: every failure is an [`ExecError`], whose
//! [`ExecError::is_usage`] tells the CLI which exit status (2 usage/I/O, 1 semantic) to use.

pub mod dataio;
pub mod defaults;
pub mod diff;
pub mod display;
pub mod npy_header;
pub mod progress;
pub mod spec;
pub mod stream;

use std::path::PathBuf;

use pto_runtime::{ConvError, ElemType};

use crate::target::Profile;

/// Why a file could not be read, written or converted.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// An element-type name that is not one of §2.1's spellings (usage).
    #[error("unknown element type '{}'{hint}", crate::diag::clip::Echo(name))]
    UnknownElemType { name: String, hint: &'static str },
    /// A rounding-mode name that is not a tcvt mode (usage).
    #[error("unknown rounding mode '{}' (expected one of NONE, RINT, ROUND, FLOOR, CEIL, TRUNC, ODD, CAST_RINT)", crate::diag::clip::Echo(name))]
    UnknownRoundMode { name: String },
    /// H (hybrid) rounding was requested: it cannot be executed (§4.1, `rounding-hybrid-unsupported`).
    #[error("hybrid rounding (H) cannot be executed (rounding-hybrid-unsupported)")]
    HybridUnsupported,
    /// The pair is not supported on the profile (`tcvt-pair-unsupported`, E0207, §3.1). `src`
    /// and `dst` are the type names as the user wrote them (`s4x2` or `!pto.s4x2`).
    #[error(
        "{} -> {} is not supported on {profile} (tcvt-pair-unsupported); accepted by: {}",
        crate::diag::clip::Echo(src),
        crate::diag::clip::Echo(dst),
        join_profiles(accepted_by)
    )]
    PairUnsupported {
        profile: Profile,
        src: String,
        dst: String,
        accepted_by: Vec<Profile>,
    },
    /// The numeric core rejected the effective spec.
    #[error("{0}")]
    Conv(#[from] ConvError),
    /// An operating-system I/O error (usage/I/O).
    #[error("cannot {op} '{}': {message}", path.display())]
    Io {
        op: &'static str,
        path: PathBuf,
        message: String,
    },
    /// A raw file whose length is not a whole number of elements.
    #[error("'{}' holds {bytes} bytes, not a whole number of {elem} elements ({unit} bytes each)", path.display())]
    RawSize {
        path: PathBuf,
        elem: ElemType,
        bytes: u64,
        unit: u32,
    },
    /// A malformed `.npy` header.
    #[error("'{}' is not a readable .npy file: {reason}", path.display())]
    NpyHeader { path: PathBuf, reason: String },
    /// A `.npy` dtype that does not hold the requested element type.
    #[error("'{}' has dtype '{found}', which does not hold {elem} (accepted: {})", path.display(), accepted.join(", "))]
    NpyDtype {
        path: PathBuf,
        elem: ElemType,
        found: String,
        accepted: Vec<&'static str>,
    },
    /// A `.npy` file whose data section does not match its header.
    #[error("'{}': the header promises {expected} data bytes, the file holds {actual}", path.display())]
    NpyByteCount {
        path: PathBuf,
        expected: u64,
        actual: u64,
    },
    /// The output would overwrite the input while it is being streamed.
    #[error("the output '{}' is the input file; choose another output path", path.display())]
    SameFile { path: PathBuf },
    /// Packing a `.npy` array of two or more axes whose fastest axis has an odd length: two
    /// elements share a byte, so rows would run into each other and the shape could not be kept.
    #[error("cannot pack the {} array into {} keeping its shape: its {} axis has odd length {len} (two elements share a byte); pad that axis to an even length, or give a 1-D array (packed as one sequence, the last high nibble 0)", shape_text(shape), crate::diag::clip::Echo(dst), if *fortran_order { "first (fastest, Fortran order)" } else { "last" })]
    OddPackedAxis {
        shape: Vec<u64>,
        fortran_order: bool,
        len: u64,
        /// The packed type as the user wrote it.
        dst: String,
    },
    /// An element count whose storage does not fit in memory addresses.
    #[error("{count} elements of {elem} do not fit in memory")]
    TooLarge { elem: ElemType, count: u64 },
}

/// A shape as NumPy prints it: `(2, 3)`, `(5,)`.
fn shape_text(shape: &[u64]) -> String {
    match shape {
        [n] => format!("({n},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(u64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

fn join_profiles(ps: &[Profile]) -> String {
    if ps.is_empty() {
        return "none".to_string();
    }
    ps.iter().map(|p| p.as_str()).collect::<Vec<_>>().join(", ")
}

impl ExecError {
    /// This error with the type names as the user spelled them (unsupported pair, odd axis).
    pub fn spelled(self, src: &str, dst: &str) -> ExecError {
        match self {
            ExecError::PairUnsupported {
                profile,
                accepted_by,
                ..
            } => ExecError::PairUnsupported {
                profile,
                src: src.to_string(),
                dst: dst.to_string(),
                accepted_by,
            },
            ExecError::OddPackedAxis {
                shape,
                fortran_order,
                len,
                ..
            } => ExecError::OddPackedAxis {
                shape,
                fortran_order,
                len,
                dst: dst.to_string(),
            },
            e => e,
        }
    }

    /// Usage or I/O error (exit 2) rather than an error about the data (exit 1): bad names,
    /// unreadable or unwritable files, OUT = IN. Unsupported pairs, non-executable conversions and
    /// input files of the wrong size or format are about the data (exit 1, with a code).
    pub fn is_usage(&self) -> bool {
        self.code().is_none()
    }

    /// The stable diagnostic code of an error about the data (`None`: usage or I/O).
    pub fn code(&self) -> Option<crate::diag::Code> {
        use crate::diag::Code;
        match self {
            ExecError::PairUnsupported { .. } => Some(Code::TcvtPairUnsupported),
            ExecError::HybridUnsupported => Some(Code::RoundingHybridUnsupported),
            ExecError::Conv(_) => Some(Code::TcvtPairUnsupported),
            ExecError::RawSize { .. } => Some(Code::InputSize),
            ExecError::NpyHeader { .. }
            | ExecError::NpyDtype { .. }
            | ExecError::NpyByteCount { .. } => Some(Code::InputFileFormat),
            ExecError::UnknownElemType { .. }
            | ExecError::UnknownRoundMode { .. }
            | ExecError::Io { .. }
            | ExecError::SameFile { .. }
            | ExecError::TooLarge { .. }
            | ExecError::OddPackedAxis { .. } => None,
        }
    }

    pub(crate) fn io(op: &'static str, path: &std::path::Path, e: &std::io::Error) -> ExecError {
        ExecError::Io {
            op,
            path: path.to_path_buf(),
            message: e.to_string(),
        }
    }
}
