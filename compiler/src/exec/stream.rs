//! Chunked reading and writing of element files, for conversions of files larger than is
//! comfortable to hold twice in memory (`ptoc cast`): the same formats and checks as
//! [`super::dataio`] (raw `.bin` / `.npy`, packed nibbles, accepted dtypes, byte counts), but the
//! data section is read and written a chunk at a time into buffers the caller reuses.
//!
//! Invariants: the size checks happen when the file is opened, before any data is read (a lying
//! `.npy` header cannot make us allocate); chunk requests must start on a byte boundary, i.e.
//! every chunk but the last holds an even number of elements of a packed type (checked, an
//! error rather than a panic); an [`ElemWriter`] refuses to write more than it announced and
//! [`ElemWriter::finish`] fails if it wrote less.

use std::fs::File;
use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};

use pto_runtime::convert::storage_len;
use pto_runtime::ElemType;

use super::dataio::{
    checked_storage_len, flat_layout, format_of, normalise_dtype, npy_accepted, npy_header,
    FileFormat, NpyLayout,
};
use super::ExecError;

/// An element file opened for chunked reading.
#[derive(Debug)]
pub struct ElemReader {
    file: File,
    path: PathBuf,
    pub elem: ElemType,
    /// Logical elements in the file.
    pub count: usize,
    /// The `.npy` layout, when the file is a `.npy`.
    pub layout: Option<NpyLayout>,
    done: usize,
}

impl ElemReader {
    /// Opens `path` (format by extension) and checks its size against `elem` (and the header).
    pub fn open(path: &Path, elem: ElemType) -> Result<ElemReader, ExecError> {
        let mut file = File::open(path).map_err(|e| ExecError::io("read", path, &e))?;
        let total = file
            .metadata()
            .map_err(|e| ExecError::io("read", path, &e))?
            .len();
        let (count, layout) = match format_of(path) {
            FileFormat::Raw => (raw_count(path, elem, total)?, None),
            FileFormat::Npy => {
                let (count, layout) = npy_count(&mut file, path, elem, total)?;
                (count, Some(layout))
            }
        };
        Ok(ElemReader {
            file,
            path: path.to_path_buf(),
            elem,
            count,
            layout,
            done: 0,
        })
    }

    /// Elements not read yet.
    pub fn remaining(&self) -> usize {
        self.count - self.done
    }

    /// Reads the next `n` logical elements into `buf` (resized to their storage).
    pub fn read_next(&mut self, n: usize, buf: &mut Vec<u8>) -> Result<(), ExecError> {
        let n = n.min(self.remaining());
        if self.elem.is_packed() && self.done % 2 == 1 {
            return Err(ExecError::TooLarge {
                elem: self.elem,
                count: self.done as u64,
            });
        }
        buf.resize(storage_len(self.elem, n), 0);
        self.file
            .read_exact(buf)
            .map_err(|e| ExecError::io("read", &self.path, &e))?;
        self.done += n;
        Ok(())
    }
}

fn raw_count(path: &Path, elem: ElemType, bytes: u64) -> Result<usize, ExecError> {
    let unit = u64::from(elem.storage_bytes());
    if bytes % unit != 0 {
        return Err(ExecError::RawSize {
            path: path.to_path_buf(),
            elem,
            bytes,
            unit: elem.storage_bytes(),
        });
    }
    let logical = if elem.is_packed() {
        bytes.checked_mul(2)
    } else {
        Some(bytes / unit)
    };
    let logical = logical.ok_or(ExecError::TooLarge { elem, count: bytes })?;
    checked_storage_len(elem, logical)?;
    usize::try_from(logical).map_err(|_| ExecError::TooLarge {
        elem,
        count: logical,
    })
}

fn npy_count(
    file: &mut File,
    path: &Path,
    elem: ElemType,
    total: u64,
) -> Result<(usize, NpyLayout), ExecError> {
    crate::exec::npy_header::check_reader(&mut *file).map_err(|reason| ExecError::NpyHeader {
        path: path.to_path_buf(),
        reason,
    })?;
    let header = npyz::NpyHeader::from_reader(&mut *file).map_err(|e| ExecError::NpyHeader {
        path: path.to_path_buf(),
        reason: e.to_string(),
    })?;
    let start = file
        .stream_position()
        .map_err(|e| ExecError::io("read", path, &e))?;
    let accepted = npy_accepted(elem);
    let found = match header.dtype() {
        npyz::DType::Plain(ts) => ts.to_string(),
        other => other.descr(),
    };
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
    let expected = checked_storage_len(elem, logical)? as u64;
    let actual = total.saturating_sub(start);
    if actual != expected {
        return Err(ExecError::NpyByteCount {
            path: path.to_path_buf(),
            expected,
            actual,
        });
    }
    let count = usize::try_from(logical).map_err(|_| ExecError::TooLarge {
        elem,
        count: logical,
    })?;
    Ok((
        count,
        NpyLayout {
            shape: header.shape().to_vec(),
            fortran_order: header.order() == npyz::Order::Fortran,
        },
    ))
}

/// An element file being written chunk by chunk.
#[derive(Debug)]
pub struct ElemWriter {
    file: File,
    path: PathBuf,
    elem: ElemType,
    /// Storage bytes still to come.
    left: usize,
}

impl ElemWriter {
    /// Creates `path` for `count` logical elements of `elem` and writes the `.npy` header
    /// (`layout`, default 1-D) when the extension asks for one.
    pub fn create(
        path: &Path,
        elem: ElemType,
        count: usize,
        layout: Option<&NpyLayout>,
    ) -> Result<ElemWriter, ExecError> {
        let left = checked_storage_len(elem, count as u64)?;
        let mut file = File::create(path).map_err(|e| ExecError::io("create", path, &e))?;
        if format_of(path) == FileFormat::Npy {
            let flat = flat_layout(elem, count, false);
            let header = npy_header(elem, layout.unwrap_or(&flat));
            file.write_all(&header)
                .map_err(|e| ExecError::io("write", path, &e))?;
        }
        Ok(ElemWriter {
            file,
            path: path.to_path_buf(),
            elem,
            left,
        })
    }

    /// Appends storage bytes (a whole number of chunks as produced by the converter).
    pub fn write_next(&mut self, bytes: &[u8]) -> Result<(), ExecError> {
        if bytes.len() > self.left {
            return Err(ExecError::Conv(pto_runtime::ConvError::BufferSize {
                role: "output",
                elem: self.elem,
                count: 0,
                needed: self.left,
                actual: bytes.len(),
            }));
        }
        self.file
            .write_all(bytes)
            .map_err(|e| ExecError::io("write", &self.path, &e))?;
        self.left -= bytes.len();
        Ok(())
    }

    /// Flushes; fails if fewer bytes were written than announced.
    pub fn finish(mut self) -> Result<(), ExecError> {
        if self.left != 0 {
            return Err(ExecError::Conv(pto_runtime::ConvError::BufferSize {
                role: "output",
                elem: self.elem,
                count: 0,
                needed: self.left,
                actual: 0,
            }));
        }
        self.file
            .flush()
            .map_err(|e| ExecError::io("write", &self.path, &e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tmp(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("ptoc-stream-{}", std::process::id()));
        let _ = std::fs::create_dir_all(&dir);
        dir.join(name)
    }

    #[test]
    fn chunks_round_trip_raw_and_npy() {
        for name in ["a.bin", "a.npy"] {
            let p = tmp(name);
            let payload: Vec<u8> = (0..1000u32).map(|i| (i * 7) as u8).collect();
            let layout = NpyLayout {
                shape: vec![10, 100],
                fortran_order: false,
            };
            let mut w = ElemWriter::create(&p, ElemType::S4x2, 2000, Some(&layout))
                .unwrap_or_else(|e| panic!("{e}"));
            for c in payload.chunks(300) {
                w.write_next(c).unwrap_or_else(|e| panic!("{e}"));
            }
            assert!(w.write_next(&[0]).is_err(), "over-long");
            w.finish().unwrap_or_else(|e| panic!("{e}"));
            let mut r = ElemReader::open(&p, ElemType::S4x2).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(r.count, 2000);
            let mut all = Vec::new();
            let mut buf = Vec::new();
            while r.remaining() > 0 {
                r.read_next(246, &mut buf).unwrap_or_else(|e| panic!("{e}"));
                all.extend_from_slice(&buf);
            }
            assert_eq!(all, payload, "{name}");
            let _ = std::fs::remove_file(&p);
        }
    }

    #[test]
    fn lying_headers_and_short_writes_are_errors() {
        let p = tmp("lie.npy");
        let mut bytes = npy_header(
            ElemType::F32,
            &NpyLayout {
                shape: vec![u64::MAX / 2],
                fortran_order: false,
            },
        );
        bytes.extend_from_slice(&[0; 8]);
        let _ = std::fs::write(&p, &bytes);
        assert!(ElemReader::open(&p, ElemType::F32).is_err());
        let w = ElemWriter::create(&tmp("short.bin"), ElemType::F32, 4, None)
            .unwrap_or_else(|e| panic!("{e}"));
        assert!(w.finish().is_err());
    }
}
