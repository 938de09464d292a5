//! Element data files: raw little-endian `.bin` and NumPy `.npy`, read into and written from
//! *storage bytes* (the layout of `pto_runtime::convert`: little-endian elements; packed `x2`
//! types two logical elements per byte, element 2k in the low nibble of byte k, §2.6).
//!
//! - Raw (`.bin`, and any extension other than `.npy`): the file is the storage bytes. Its length
//!   must be a multiple of the element's storage size; a packed file of n bytes holds 2n logical
//!   elements (an odd count cannot be stored: writing one leaves the last high nibble 0).
//! - `.npy` (read with npyz; written as format 1.0, or 2.0 when the header needs it): one dtype
//!   per element type ([`npy_dtype`]): the NumPy type where one exists, `'<u2'` for bf16 and
//!   `'|u1'` (raw unsigned bytes) for fp8, hif8 and the packed types. On read the matching dtype is
//!   accepted, for bf16 and fp8 also ml_dtypes' own descriptors (`'<V2'`, `'<V1'`) and the raw
//!   unsigned view ([`npy_accepted`]); big-endian and structured dtypes are refused. C and
//!   Fortran order are both kept as they are (the conversion is elementwise). ml_dtypes saves
//!   float8_e5m2 as `'<f1'`, a type string npyz rejects: such files must be saved as a `uint8`
//!   view.
//!
//! Invariants: nothing panics on any file; every failure is an [`ExecError`] naming the path.
//! [`Data::bytes`] always holds exactly `storage_len(elem, count)` bytes.

use std::io::Write as _;
use std::path::Path;

use pto_runtime::convert::storage_len;
use pto_runtime::ElemType;

use super::ExecError;

/// The container format of a data file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileFormat {
    /// Raw little-endian storage bytes.
    Raw,
    /// NumPy `.npy`.
    Npy,
}

/// The format chosen by the file name: `.npy` (any case) is NumPy, everything else raw.
pub fn format_of(path: &Path) -> FileFormat {
    match path.extension().and_then(|e| e.to_str()) {
        Some(e) if e.eq_ignore_ascii_case("npy") => FileFormat::Npy,
        _ => FileFormat::Raw,
    }
}

/// The array layout of a `.npy` file, in *storage items* (bytes for packed types).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NpyLayout {
    pub shape: Vec<u64>,
    pub fortran_order: bool,
}

/// Elements read from a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Data {
    buf: Vec<u8>,
    start: usize,
    pub elem: ElemType,
    /// Logical elements (2 per byte for packed types).
    pub count: usize,
    /// The `.npy` layout, when the file was a `.npy`.
    pub layout: Option<NpyLayout>,
}

impl Data {
    /// The storage bytes (exactly `storage_len(elem, count)`).
    pub fn bytes(&self) -> &[u8] {
        self.buf.get(self.start..).unwrap_or(&[])
    }

    /// Wraps storage bytes already in memory (`count` logical elements).
    pub fn from_storage(elem: ElemType, bytes: Vec<u8>, count: usize) -> Result<Data, ExecError> {
        let needed = checked_storage_len(elem, count as u64)?;
        if bytes.len() != needed {
            return Err(ExecError::Conv(pto_runtime::ConvError::BufferSize {
                role: "data",
                elem,
                count,
                needed,
                actual: bytes.len(),
            }));
        }
        Ok(Data {
            buf: bytes,
            start: 0,
            elem,
            count,
            layout: None,
        })
    }
}

/// Storage bytes for `count` logical elements, or `TooLarge`.
pub fn checked_storage_len(elem: ElemType, count: u64) -> Result<usize, ExecError> {
    let bytes = if elem.is_packed() {
        count.div_ceil(2)
    } else {
        count
            .checked_mul(u64::from(elem.storage_bytes()))
            .ok_or(ExecError::TooLarge { elem, count })?
    };
    let ok = usize::try_from(bytes)
        .ok()
        .filter(|&b| b <= isize::MAX as usize);
    match (ok, usize::try_from(count)) {
        (Some(b), Ok(_)) => Ok(b),
        _ => Err(ExecError::TooLarge { elem, count }),
    }
}

/// The dtype written for `elem` (see the module doc).
pub fn npy_dtype(elem: ElemType) -> &'static str {
    match elem {
        ElemType::F32 => "<f4",
        ElemType::F16 => "<f2",
        ElemType::BF16 => "<u2",
        ElemType::F8E4M3FN
        | ElemType::F8E5M2
        | ElemType::Hif8
        | ElemType::F4E2M1x2
        | ElemType::F4E1M2x2
        | ElemType::S4x2
        | ElemType::U8 => "|u1",
        ElemType::I8 => "|i1",
        ElemType::I16 => "<i2",
        ElemType::U16 => "<u2",
        ElemType::I32 => "<i4",
        ElemType::U32 => "<u4",
        ElemType::I64 => "<i8",
    }
}

/// The dtypes accepted on read for `elem`, normalised (one-byte and void types with `|`).
pub fn npy_accepted(elem: ElemType) -> Vec<&'static str> {
    let mut v = vec![npy_dtype(elem)];
    match elem {
        // ml_dtypes.bfloat16 is saved as a 2-byte void.
        ElemType::BF16 => v.push("|V2"),
        // ml_dtypes float8_e4m3fn is saved as a 1-byte void.
        ElemType::F8E4M3FN | ElemType::F8E5M2 => v.push("|V1"),
        _ => {}
    }
    v
}

/// Normalises a dtype string: the byte order of one-byte and void types does not matter.
pub(crate) fn normalise_dtype(s: &str) -> String {
    let mut chars = s.chars();
    let (Some(_order), Some(kind)) = (chars.next(), chars.next()) else {
        return s.to_string();
    };
    let size: String = chars.collect();
    if size == "1" || kind == 'V' {
        format!("|{kind}{size}")
    } else {
        s.to_string()
    }
}

/// Reads `path` as elements of `elem`, by its extension ([`format_of`]).
pub fn read(path: &Path, elem: ElemType) -> Result<Data, ExecError> {
    let bytes = std::fs::read(path).map_err(|e| ExecError::io("read", path, &e))?;
    parse(bytes, format_of(path), elem, path)
}

/// Interprets file contents already in memory (`path` only names the file in errors).
pub fn parse(
    bytes: Vec<u8>,
    format: FileFormat,
    elem: ElemType,
    path: &Path,
) -> Result<Data, ExecError> {
    match format {
        FileFormat::Raw => parse_raw(bytes, elem, path),
        FileFormat::Npy => parse_npy(bytes, elem, path),
    }
}

fn parse_raw(bytes: Vec<u8>, elem: ElemType, path: &Path) -> Result<Data, ExecError> {
    let unit = elem.storage_bytes();
    let len = bytes.len();
    if len % unit as usize != 0 {
        return Err(ExecError::RawSize {
            path: path.to_path_buf(),
            elem,
            bytes: len as u64,
            unit,
        });
    }
    let count = if elem.is_packed() {
        len.checked_mul(2).ok_or(ExecError::TooLarge {
            elem,
            count: len as u64,
        })?
    } else {
        len / unit as usize
    };
    Ok(Data {
        buf: bytes,
        start: 0,
        elem,
        count,
        layout: None,
    })
}

fn parse_npy(bytes: Vec<u8>, elem: ElemType, path: &Path) -> Result<Data, ExecError> {
    super::npy_header::check(&bytes).map_err(|reason| ExecError::NpyHeader {
        path: path.to_path_buf(),
        reason,
    })?;
    let mut rest: &[u8] = &bytes;
    let header = npyz::NpyHeader::from_reader(&mut rest).map_err(|e| ExecError::NpyHeader {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let start = bytes.len() - rest.len();
    let found = match header.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => {
            return Err(ExecError::NpyDtype {
                path: path.to_path_buf(),
                elem,
                found: other.descr(),
                accepted: npy_accepted(elem),
            })
        }
    };
    let accepted = npy_accepted(elem);
    if !accepted.contains(&normalise_dtype(&found).as_str()) {
        return Err(ExecError::NpyDtype {
            path: path.to_path_buf(),
            elem,
            found,
            accepted,
        });
    }
    let items = header.len();
    let logical = if elem.is_packed() {
        items
            .checked_mul(2)
            .ok_or(ExecError::TooLarge { elem, count: items })?
    } else {
        items
    };
    let expected = checked_storage_len(elem, logical)?;
    if rest.len() != expected {
        return Err(ExecError::NpyByteCount {
            path: path.to_path_buf(),
            expected: expected as u64,
            actual: rest.len() as u64,
        });
    }
    let count = usize::try_from(logical).map_err(|_| ExecError::TooLarge {
        elem,
        count: logical,
    })?;
    Ok(Data {
        start,
        elem,
        count,
        layout: Some(NpyLayout {
            shape: header.shape().to_vec(),
            fortran_order: header.order() == npyz::Order::Fortran,
        }),
        buf: bytes,
    })
}

/// The 1-D `.npy` layout of `count` elements of `elem` (in storage items: bytes when packed).
pub fn flat_layout(elem: ElemType, count: usize, fortran_order: bool) -> NpyLayout {
    NpyLayout {
        shape: vec![if elem.is_packed() {
            count.div_ceil(2) as u64
        } else {
            count as u64
        }],
        fortran_order,
    }
}

/// The `.npy` layout of a conversion result (in storage items of `dst`), given the input layout
/// (`None` for a raw input: a 1-D array). Same shape unless the packing changes:
/// - unpacked → packed: the fastest axis (last in C order, first in Fortran order) halves, so
///   rows stay rows (§2.6 row_major packing); a 1-D array of odd length packs as one sequence
///   (the last high nibble 0); with two or more axes an odd fastest axis is
///   [`ExecError::OddPackedAxis`] (the shape could not be kept);
/// - packed → unpacked: the fastest axis doubles.
pub fn result_layout(
    input: Option<&NpyLayout>,
    src: ElemType,
    dst: ElemType,
    count: usize,
) -> Result<NpyLayout, ExecError> {
    let flat = |fortran_order| flat_layout(dst, count, fortran_order);
    let Some(inp) = input else {
        return Ok(flat(false));
    };
    if src.is_packed() == dst.is_packed() {
        return Ok(inp.clone());
    }
    let mut shape = inp.shape.clone();
    let dims = shape.len();
    let axis = if inp.fortran_order {
        shape.first_mut()
    } else {
        shape.last_mut()
    };
    match axis {
        Some(n) if dst.is_packed() && *n % 2 == 0 => *n /= 2,
        Some(n) if dst.is_packed() && dims >= 2 => {
            return Err(ExecError::OddPackedAxis {
                shape: inp.shape.clone(),
                fortran_order: inp.fortran_order,
                len: *n,
                dst: dst.to_string(),
            })
        }
        Some(n) if !dst.is_packed() => match n.checked_mul(2) {
            Some(d) => *n = d,
            None => return Ok(flat(inp.fortran_order)),
        },
        _ => return Ok(flat(inp.fortran_order)),
    }
    Ok(NpyLayout {
        shape,
        fortran_order: inp.fortran_order,
    })
}

/// The `.npy` header (format 1.0, or 2.0 when longer than 65535 bytes) for `elem` and `layout`,
/// padded with spaces and a newline to a multiple of 64 bytes, as NumPy writes it.
pub fn npy_header(elem: ElemType, layout: &NpyLayout) -> Vec<u8> {
    let shape = match layout.shape.as_slice() {
        [n] => format!("({n},)"),
        dims => format!(
            "({})",
            dims.iter()
                .map(|d| d.to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let dict = format!(
        "{{'descr': '{}', 'fortran_order': {}, 'shape': {}, }}",
        npy_dtype(elem),
        if layout.fortran_order {
            "True"
        } else {
            "False"
        },
        shape
    );
    let build = |prefix: usize| {
        let unpadded = prefix + dict.len() + 1;
        let pad = unpadded.div_ceil(64) * 64 - unpadded;
        let mut text = dict.clone().into_bytes();
        text.extend(std::iter::repeat_n(b' ', pad));
        text.push(b'\n');
        text
    };
    let text = build(10);
    let mut out = Vec::with_capacity(text.len() + 12);
    out.extend_from_slice(b"\x93NUMPY");
    if let Ok(len) = u16::try_from(text.len()) {
        out.extend_from_slice(&[1, 0]);
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&text);
    } else {
        let text = build(12);
        out.extend_from_slice(&[2, 0]);
        out.extend_from_slice(&(text.len() as u32).to_le_bytes());
        out.extend_from_slice(&text);
    }
    out
}

/// Creates (truncates) the output file `path`: done before a long conversion, so an
/// unwritable destination fails early.
pub fn create(path: &Path) -> Result<std::fs::File, ExecError> {
    std::fs::File::create(path).map_err(|e| ExecError::io("create", path, &e))
}

/// Writes `bytes` (the storage of `count` logical `elem` elements) to `path`: raw, or `.npy`
/// with `layout` (default: 1-D) by the extension.
pub fn write(
    path: &Path,
    elem: ElemType,
    bytes: &[u8],
    count: usize,
    layout: Option<&NpyLayout>,
) -> Result<(), ExecError> {
    let file = create(path)?;
    write_to(file, path, elem, bytes, count, layout)
}

/// As [`write`], into a file already created with [`create`] (`path` names it in errors and
/// selects the format).
pub fn write_to(
    mut file: std::fs::File,
    path: &Path,
    elem: ElemType,
    bytes: &[u8],
    count: usize,
    layout: Option<&NpyLayout>,
) -> Result<(), ExecError> {
    let needed = storage_len(elem, count);
    let data = bytes
        .get(..needed)
        .ok_or(ExecError::Conv(pto_runtime::ConvError::BufferSize {
            role: "output",
            elem,
            count,
            needed,
            actual: bytes.len(),
        }))?;
    if format_of(path) == FileFormat::Npy {
        let flat;
        let layout = match layout {
            Some(l) => l,
            None => {
                flat = flat_layout(elem, count, false);
                &flat
            }
        };
        file.write_all(&npy_header(elem, layout))
            .map_err(|e| ExecError::io("write", path, &e))?;
    }
    file.write_all(data)
        .map_err(|e| ExecError::io("write", path, &e))?;
    file.flush().map_err(|e| ExecError::io("write", path, &e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn p() -> PathBuf {
        PathBuf::from("x.npy")
    }

    #[test]
    fn raw_sizes_and_packed_counts() {
        let d = parse(vec![0; 8], FileFormat::Raw, ElemType::F32, &p());
        assert_eq!(d.map(|d| d.count), Ok(2));
        let d = parse(vec![0; 3], FileFormat::Raw, ElemType::S4x2, &p());
        assert_eq!(d.map(|d| d.count), Ok(6));
        let e = parse(vec![0; 6], FileFormat::Raw, ElemType::I64, &p());
        assert!(matches!(
            e,
            Err(ExecError::RawSize {
                bytes: 6,
                unit: 8,
                ..
            })
        ));
    }

    #[test]
    fn npy_round_trip_through_npyz() {
        for elem in ElemType::ALL {
            let layout = NpyLayout {
                shape: vec![2, 3],
                fortran_order: elem == ElemType::F16,
            };
            let n = 6 * elem.storage_bytes() as usize;
            let payload: Vec<u8> = (0..n).map(|i| i as u8).collect();
            let mut file = npy_header(elem, &layout);
            assert_eq!(file.len() % 64, 0, "{elem}");
            file.extend_from_slice(&payload);
            let d = parse(file, FileFormat::Npy, elem, &p()).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(d.bytes(), &payload[..]);
            assert_eq!(d.layout.as_ref(), Some(&layout));
            assert_eq!(d.count, if elem.is_packed() { 12 } else { 6 });
        }
    }

    #[test]
    fn npy_dtype_and_size_errors() {
        let layout = NpyLayout {
            shape: vec![4],
            fortran_order: false,
        };
        let mut file = npy_header(ElemType::I32, &layout);
        file.extend_from_slice(&[0; 16]);
        // i32 data read as f32: dtype mismatch.
        let e = parse(file.clone(), FileFormat::Npy, ElemType::F32, &p());
        assert!(matches!(e, Err(ExecError::NpyDtype { ref found, .. }) if found == "<i4"));
        // One byte short.
        file.pop();
        let e = parse(file, FileFormat::Npy, ElemType::I32, &p());
        assert!(matches!(
            e,
            Err(ExecError::NpyByteCount {
                expected: 16,
                actual: 15,
                ..
            })
        ));
        let e = parse(b"not numpy".to_vec(), FileFormat::Npy, ElemType::I32, &p());
        assert!(matches!(e, Err(ExecError::NpyHeader { .. })));
        // bf16 also accepts ml_dtypes' void descriptor.
        assert_eq!(normalise_dtype("<V2"), "|V2");
        assert_eq!(normalise_dtype("<u1"), "|u1");
        assert_eq!(normalise_dtype("<f4"), "<f4");
    }

    #[test]
    fn result_layouts() {
        let l = |shape: &[u64], fortran_order| NpyLayout {
            shape: shape.to_vec(),
            fortran_order,
        };
        use ElemType::*;
        assert_eq!(
            result_layout(Some(&l(&[4, 6], false)), F32, F16, 24),
            Ok(l(&[4, 6], false))
        );
        assert_eq!(
            result_layout(Some(&l(&[4, 6], false)), F32, S4x2, 24),
            Ok(l(&[4, 3], false))
        );
        assert_eq!(
            result_layout(Some(&l(&[6, 4], true)), BF16, F4E2M1x2, 24),
            Ok(l(&[3, 4], true))
        );
        assert!(matches!(
            result_layout(Some(&l(&[3, 5], false)), F32, S4x2, 15),
            Err(ExecError::OddPackedAxis { len: 5, .. })
        ));
        assert!(matches!(
            result_layout(Some(&l(&[5, 4], true)), F32, S4x2, 20),
            Err(ExecError::OddPackedAxis { len: 5, .. })
        ));
        assert_eq!(
            result_layout(Some(&l(&[5], false)), F32, S4x2, 5),
            Ok(l(&[3], false))
        );
        assert_eq!(
            result_layout(Some(&l(&[4, 3], false)), S4x2, F32, 24),
            Ok(l(&[4, 6], false))
        );
        assert_eq!(result_layout(None, F32, S4x2, 5), Ok(l(&[3], false)));
    }
}
