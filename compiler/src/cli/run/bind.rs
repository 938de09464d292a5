//! Argument binding for `ptoc run`: parses `--input ARG=SOURCE` and `--valid ARG=RxC`, resolves
//! each ARG to a function argument and builds its runtime value.
//!
//! ARG is the argument's SSA name (`%x`, or `x` without the `%`) or its position: a bare
//! number `N` is argument index N (so `%0` is the argument *named* `%0`, `0` the first one).
//! SOURCE is a `.npy` file (dtype as `exec::dataio` maps it; any shape with the right element
//! count), a raw `.bin`/other file holding exactly the argument's storage bytes, `random:SEED`
//! (seeded random bit patterns over the whole storage; masks get random lane flags), or
//! `value:N` for integer scalars (e.g. a `valid_row` or `plt` count).
//! Storage: tiles rows×cols×bytes (row-major, declared extents, packed types two per byte);
//! vector registers 256 bytes; masks 32 bytes of predicate bits in a `.bin`, or one 0/1 `u1`
//! per lane in a `.npy`; scalars their width (index: 8 bytes).
//!
//! Invariants: every argument is bound exactly once; every failure is a [`BindError`] (a usage
//! error, exit 2), never a panic.

use std::path::{Path, PathBuf};

use pto_runtime::value::{Mask, Tile, VReg, MASK_BYTES, VREG_BYTES};
use pto_runtime::ElemType;

use crate::diag::clip::{clip, Echo, PHRASE_MAX};
use crate::exec::dataio::{self, FileFormat};
use crate::exec::ExecError;
use crate::interp::{Param, ParamKind, Value};

/// Where an argument's data comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    File(PathBuf),
    Random(u64),
    Literal(i128),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BindError {
    #[error("--{flag} expects ARG={what}, found '{}'", Echo(text))]
    Syntax {
        flag: &'static str,
        what: &'static str,
        text: String,
    },
    #[error(
        "the function has no argument '{}' (arguments: {})",
        Echo(arg),
        clip(known, PHRASE_MAX)
    )]
    UnknownArg { arg: String, known: String },
    #[error("argument {name} is given more than once by --{flag}")]
    Duplicate { name: String, flag: &'static str },
    #[error("no --input for argument {name} ({ty}); give --input {name}=FILE or --input {name}=random:SEED")]
    Missing { name: String, ty: String },
    #[error("argument {name} has type {ty}, which `ptoc run` cannot bind: {reason}")]
    Unbindable {
        name: String,
        ty: String,
        reason: String,
    },
    #[error("argument {name}: {source}")]
    Exec {
        name: String,
        #[source]
        source: ExecError,
    },
    #[error("argument {name}: '{path}' has shape {found}; a register or mask is one-dimensional: {expected}")]
    Shape {
        name: String,
        path: String,
        expected: String,
        found: String,
    },
    #[error(
        "argument {name}: '{path}' holds {actual} bytes, the argument's storage is {needed} bytes"
    )]
    Size {
        name: String,
        path: String,
        needed: usize,
        actual: usize,
    },
    #[error("argument {name}: value:{value} is only for integer scalars, and must fit {ty}")]
    Literal {
        name: String,
        value: i128,
        ty: String,
    },
    #[error("argument {name}: {reason}")]
    Valid { name: String, reason: String },
}

/// Splits `ARG=REST` at the first `=`.
fn split(
    flag: &'static str,
    what: &'static str,
    text: &str,
) -> Result<(String, String), BindError> {
    match text.split_once('=') {
        Some((a, r)) if !a.is_empty() && !r.is_empty() => Ok((a.to_string(), r.to_string())),
        _ => Err(BindError::Syntax {
            flag,
            what,
            text: text.to_string(),
        }),
    }
}

/// Parses one `--input` value.
pub fn parse_input(text: &str) -> Result<(String, Source), BindError> {
    let (arg, rest) = split("input", "PATH|random:SEED|value:N", text)?;
    let bad = || BindError::Syntax {
        flag: "input",
        what: "PATH|random:SEED|value:N",
        text: text.to_string(),
    };
    let source = if let Some(seed) = rest.strip_prefix("random:") {
        Source::Random(seed.parse().map_err(|_| bad())?)
    } else if let Some(v) = rest.strip_prefix("value:") {
        Source::Literal(v.parse().map_err(|_| bad())?)
    } else {
        Source::File(PathBuf::from(rest))
    };
    Ok((arg, source))
}

/// Parses one `--valid` value: `ARG=ROWSxCOLS`.
pub fn parse_valid(text: &str) -> Result<(String, (u64, u64)), BindError> {
    let (arg, rest) = split("valid", "ROWSxCOLS", text)?;
    let dims = rest
        .split_once('x')
        .and_then(|(r, c)| Some((r.parse().ok()?, c.parse().ok()?)));
    match dims {
        Some(d) => Ok((arg, d)),
        None => Err(BindError::Syntax {
            flag: "valid",
            what: "ROWSxCOLS",
            text: text.to_string(),
        }),
    }
}

/// The parameter `arg` names (module doc).
pub fn resolve_arg(params: &[Param], arg: &str) -> Result<usize, BindError> {
    let found = if arg.bytes().all(|b| b.is_ascii_digit()) {
        arg.parse::<usize>().ok().filter(|&i| i < params.len())
    } else {
        let name = if arg.starts_with('%') {
            arg.to_string()
        } else {
            format!("%{arg}")
        };
        params.iter().position(|p| p.name == name)
    };
    found.ok_or_else(|| BindError::UnknownArg {
        arg: arg.to_string(),
        known: if params.is_empty() {
            "none".to_string()
        } else {
            params
                .iter()
                .map(|p| format!("{} ({})", p.name, p.index))
                .collect::<Vec<_>>()
                .join(", ")
        },
    })
}

fn random_bytes(seed: u64, n: usize) -> Vec<u8> {
    let mut rng = fastrand::Rng::with_seed(seed);
    (0..n).map(|_| rng.u8(..)).collect()
}

/// Reads `path` as `elem` data and checks it holds exactly `needed` storage bytes (`.npy`:
/// `needed_items` items of its dtype).
fn read_exact(
    name: &str,
    path: &Path,
    elem: ElemType,
    needed: usize,
) -> Result<Vec<u8>, BindError> {
    read_shaped(name, path, elem, needed, None)
}

/// As [`read_exact`]; a `.npy` file must also have the one-dimensional shape `(lanes,)` when
/// `lanes` is given (a register or mask is a flat list of lanes: an (8, 8) array is not a
/// 64-lane register).
fn read_shaped(
    name: &str,
    path: &Path,
    elem: ElemType,
    needed: usize,
    lanes: Option<u64>,
) -> Result<Vec<u8>, BindError> {
    let data = dataio::read(path, elem).map_err(|source| BindError::Exec {
        name: name.to_string(),
        source,
    })?;
    if let (Some(lanes), Some(layout)) = (lanes, &data.layout) {
        if layout.shape != [lanes] {
            let dims: Vec<String> = layout.shape.iter().map(u64::to_string).collect();
            return Err(BindError::Shape {
                name: name.to_string(),
                path: path.display().to_string(),
                expected: format!("({lanes},)"),
                found: format!(
                    "({}{})",
                    dims.join(", "),
                    if dims.len() == 1 { "," } else { "" }
                ),
            });
        }
    }
    let bytes = data.bytes();
    if bytes.len() != needed {
        return Err(BindError::Size {
            name: name.to_string(),
            path: path.display().to_string(),
            needed,
            actual: bytes.len(),
        });
    }
    Ok(bytes.to_vec())
}

fn scalar_fits(elem: ElemType, v: i128) -> bool {
    let bits = elem.storage_bits();
    match elem.kind() {
        pto_runtime::ElemKind::UnsignedInt => v >= 0 && v < (1i128 << bits),
        pto_runtime::ElemKind::SignedInt => {
            let half = 1i128 << (bits - 1);
            // Also accept the unsigned spelling of the same pattern (e.g. 0xFFFFFFFF for i32).
            v >= -half && v < (half << 1)
        }
        pto_runtime::ElemKind::Float => false,
    }
}

/// Builds the value of one parameter from its source.
pub fn build(
    p: &Param,
    ty: &str,
    source: &Source,
    valid: Option<(u64, u64)>,
) -> Result<Value, BindError> {
    let name = p.name.as_str();
    let kind = p.kind.clone().map_err(|reason| BindError::Unbindable {
        name: name.to_string(),
        ty: ty.to_string(),
        reason,
    })?;
    let literal_err = |value| BindError::Literal {
        name: name.to_string(),
        value,
        ty: ty.to_string(),
    };
    if valid.is_some() && !matches!(kind, ParamKind::Tile(_)) {
        return Err(BindError::Valid {
            name: name.to_string(),
            reason: "--valid applies to tile arguments only".to_string(),
        });
    }
    match kind {
        ParamKind::Tile(d) => tile_value(name, &d, valid, |needed| match source {
            Source::File(path) => read_exact(name, path, d.elem, needed),
            Source::Random(seed) => Ok(random_bytes(*seed, needed)),
            Source::Literal(v) => Err(literal_err(*v)),
        }),
        ParamKind::VReg { elem } => {
            let bytes = match source {
                Source::File(path) => read_shaped(
                    name,
                    path,
                    elem,
                    VREG_BYTES,
                    Some((VREG_BYTES / elem.storage_bytes() as usize) as u64),
                )?,
                Source::Random(seed) => random_bytes(*seed, VREG_BYTES),
                Source::Literal(v) => return Err(literal_err(*v)),
            };
            VReg::from_storage(elem, &bytes)
                .map(Value::VReg)
                .map_err(|e| BindError::Valid {
                    name: name.to_string(),
                    reason: e.to_string(),
                })
        }
        ParamKind::Mask { granularity } => {
            let lanes = granularity.lanes();
            match source {
                Source::Random(seed) => {
                    let flags: Vec<bool> = random_bytes(*seed, lanes)
                        .iter()
                        .map(|b| b & 1 == 1)
                        .collect();
                    Ok(Value::Mask(Mask::from_lanes(granularity, &flags)))
                }
                Source::File(path) if dataio::format_of(path) == FileFormat::Npy => {
                    let flags = read_shaped(name, path, ElemType::U8, lanes, Some(lanes as u64))?;
                    let flags: Vec<bool> = flags.iter().map(|&b| b != 0).collect();
                    Ok(Value::Mask(Mask::from_lanes(granularity, &flags)))
                }
                Source::File(path) => {
                    let bytes = read_exact(name, path, ElemType::U8, MASK_BYTES)?;
                    Mask::from_storage(granularity, &bytes)
                        .map(Value::Mask)
                        .map_err(|e| BindError::Valid {
                            name: name.to_string(),
                            reason: e.to_string(),
                        })
                }
                Source::Literal(v) => Err(literal_err(*v)),
            }
        }
        ParamKind::Scalar { elem } => {
            let w = elem.storage_bytes() as usize;
            let bits = match source {
                Source::Literal(v) if elem.is_int() && scalar_fits(elem, *v) => *v as u64,
                Source::Literal(v) => return Err(literal_err(*v)),
                Source::Random(seed) => {
                    let mut le = [0u8; 8];
                    le[..w].copy_from_slice(&random_bytes(*seed, w));
                    u64::from_le_bytes(le)
                }
                Source::File(path) => {
                    let mut le = [0u8; 8];
                    le[..w].copy_from_slice(&read_exact(name, path, elem, w)?);
                    u64::from_le_bytes(le)
                }
            };
            // Integers are held sign-extended (as arith.constant values are).
            let shift = 64 - 8 * w as u32;
            let bits = if elem.kind() == pto_runtime::ElemKind::SignedInt && shift > 0 {
                (((bits << shift) as i64) >> shift) as u64
            } else if shift > 0 {
                bits & (u64::MAX >> shift)
            } else {
                bits
            };
            Ok(Value::Scalar(bits))
        }
    }
}

/// The valid extent of one dim: static from the type (a `--valid` value must agree), else the
/// `--valid` value, else the declared extent.
/// A tile value of descriptor `d` (valid extents from the type or `valid`) from the storage bytes
/// `bytes` gives for the byte count it is asked for.
fn tile_value(
    name: &str,
    d: &crate::interp::TileDesc,
    valid: Option<(u64, u64)>,
    bytes: impl FnOnce(usize) -> Result<Vec<u8>, BindError>,
) -> Result<Value, BindError> {
    let vr = pick_valid(name, "rows", d.valid_rows, valid.map(|v| v.0), d.rows)?;
    let vc = pick_valid(name, "cols", d.valid_cols, valid.map(|v| v.1), d.cols)?;
    let needed = Tile::storage_len(d.elem, d.rows, d.cols).map_err(|e| BindError::Valid {
        name: name.to_string(),
        reason: e.to_string(),
    })?;
    let bytes = bytes(needed)?;
    Tile::from_storage(d.elem, d.rows, d.cols, vr, vc, d.packed_dim, bytes)
        .map(Value::Tile)
        .map_err(|e| BindError::Valid {
            name: name.to_string(),
            reason: e.to_string(),
        })
}

/// A zero-filled tile for a tile parameter given no `--input` that the function only writes
/// (`None` if `p` is not a bindable tile): it starts as `pto.alloc_tile` leaves a tile.
pub fn zero_tile(p: &Param, valid: Option<(u64, u64)>) -> Option<Result<Value, BindError>> {
    match p.kind.as_ref().ok()? {
        ParamKind::Tile(d) => Some(tile_value(&p.name, d, valid, |needed| Ok(vec![0; needed]))),
        _ => None,
    }
}

fn pick_valid(
    name: &str,
    what: &str,
    declared: Option<u64>,
    given: Option<u64>,
    extent: u64,
) -> Result<u64, BindError> {
    match (declared, given) {
        (Some(s), Some(g)) if s != g => Err(BindError::Valid {
            name: name.to_string(),
            reason: format!("--valid gives {g} valid {what}, the type says {s}"),
        }),
        (Some(s), _) => Ok(s),
        (None, Some(g)) => Ok(g),
        (None, None) => Ok(extent),
    }
}
