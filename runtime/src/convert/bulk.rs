//! Bulk conversion of storage buffers: size checks, packed nibbles, lookup tables, rayon split.
//!
//! Owns `Converter::{checked, run, run_par}` and the lookup [`Table`]s (per converter, and a
//! bounded process-wide cache keyed by `ConvSpec`).
//!
//! Invariants:
//! - buffers shorter than `storage_len(elem, count)` are rejected before anything is written;
//!   bytes past the covered range are never touched; with an odd count into a packed type the
//!   last byte's high nibble is preserved;
//! - every path computes exactly `Plan::convert`: tables are filled *from* it (so they are exact
//!   by construction) and the f32 kernels are tested equal to it;
//! - parallel chunks start on even element indices, so no packed byte is shared by two threads.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use super::{kernel, storage_len, ConvError, ConvSpec, Converter};
use crate::elem::ElemType;

/// A storage lane of 1, 2, 4 or 8 little-endian bytes.
pub(crate) trait Lane: Copy + Default + Send + Sync {
    const BYTES: usize;
    fn from_u64(v: u64) -> Self;
    fn to_u64(self) -> u64;
    fn read(b: &[u8]) -> Self;
    fn write(self, out: &mut [u8]);
}

macro_rules! lane {
    ($t:ty, $n:expr) => {
        impl Lane for $t {
            const BYTES: usize = $n;
            #[inline(always)]
            fn from_u64(v: u64) -> Self {
                v as $t
            }
            #[inline(always)]
            fn to_u64(self) -> u64 {
                self as u64
            }
            #[inline(always)]
            fn read(b: &[u8]) -> Self {
                let mut a = [0u8; $n];
                a.copy_from_slice(&b[..$n]);
                <$t>::from_le_bytes(a)
            }
            #[inline(always)]
            fn write(self, out: &mut [u8]) {
                out[..$n].copy_from_slice(&self.to_le_bytes());
            }
        }
    };
}
lane!(u8, 1);
lane!(u16, 2);
lane!(u32, 4);
lane!(u64, 8);

/// Destination patterns for every source pattern of a ≤ 16-bit source, typed by dst storage.
#[derive(Debug)]
pub enum Table {
    B8(Vec<u8>),
    B16(Vec<u16>),
    B32(Vec<u32>),
    B64(Vec<u64>),
}

impl Table {
    fn get(&self, i: u64) -> u64 {
        let i = i as usize;
        match self {
            Table::B8(t) => t.get(i).map_or(0, |v| u64::from(*v)),
            Table::B16(t) => t.get(i).map_or(0, |v| u64::from(*v)),
            Table::B32(t) => t.get(i).map_or(0, |v| u64::from(*v)),
            Table::B64(t) => t.get(i).copied().unwrap_or(0),
        }
    }
}

/// Below this many elements a 16-bit source is converted without building its 65536-entry table.
const TABLE16_MIN: usize = 4096;
/// At most this many tables are kept in the process-wide cache (≤ 512 KiB each).
const CACHE_MAX: usize = 64;

/// Tables shared by every `Converter` with the same spec (interpreters create one per op).
static CACHE: OnceLock<Mutex<HashMap<ConvSpec, Arc<Table>>>> = OnceLock::new();

/// Below this many elements `convert_slice_par` stays on the calling thread.
const PAR_MIN: usize = 1 << 16;
/// Elements per block of the generic block path (even: packed bytes stay whole).
const BLOCK: usize = 256;

impl Converter {
    /// Validates buffer sizes and returns the covered prefixes.
    pub(super) fn checked<'a, 'b>(
        &self,
        src: &'a [u8],
        dst: &'b mut [u8],
        count: usize,
    ) -> Result<(&'a [u8], &'b mut [u8]), ConvError> {
        let check = |role, elem: ElemType, actual: usize| {
            let needed = storage_len(elem, count);
            // `storage_len` saturates, so an impossible size is simply larger than any buffer.
            if actual < needed {
                Err(ConvError::BufferSize {
                    role,
                    elem,
                    count,
                    needed,
                    actual,
                })
            } else {
                Ok(needed)
            }
        };
        let ns = check("source", self.spec.src, src.len())?;
        let nd = check("destination", self.spec.dst, dst.len())?;
        Ok((&src[..ns], &mut dst[..nd]))
    }

    /// The table for this converter's source: from the process-wide cache, or built on first
    /// use from the generic path (and cached while the cache has room).
    fn table(&self) -> &Table {
        self.table.get_or_init(|| {
            let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
            // A poisoned lock only disables caching; the table is rebuilt instead.
            if let Some(t) = cache.lock().ok().and_then(|m| m.get(&self.spec).cloned()) {
                return t;
            }
            let t = Arc::new(self.build_table());
            if let Ok(mut m) = cache.lock() {
                if m.len() < CACHE_MAX {
                    m.insert(self.spec, Arc::clone(&t));
                }
            }
            t
        })
    }

    fn build_table(&self) -> Table {
        let n = 1u64 << self.spec.src.value_bits();
        let f = |i| self.plan.convert(i).0;
        match self.spec.dst.storage_bytes() {
            1 => Table::B8((0..n).map(|i| f(i) as u8).collect()),
            2 => Table::B16((0..n).map(|i| f(i) as u16).collect()),
            4 => Table::B32((0..n).map(|i| f(i) as u32).collect()),
            _ => Table::B64((0..n).map(f).collect()),
        }
    }

    /// Converts exactly-sized buffers (single thread).
    pub(super) fn run(&self, src: &[u8], dst: &mut [u8], count: usize) {
        if kernel::run(self.spec, src, dst, count) {
            return;
        }
        let (s, d) = (self.spec.src, self.spec.dst);
        let bits = s.value_bits();
        let built = self.table.get().is_some();
        if bits <= 8 || (bits <= 16 && (count >= TABLE16_MIN || built)) {
            let t = self.table();
            if !s.is_packed() && !d.is_packed() {
                match (s.storage_bytes(), t) {
                    (1, Table::B8(t)) => lookup::<u8, u8>(t, src, dst),
                    (1, Table::B16(t)) => lookup::<u8, u16>(t, src, dst),
                    (1, Table::B32(t)) => lookup::<u8, u32>(t, src, dst),
                    (1, Table::B64(t)) => lookup::<u8, u64>(t, src, dst),
                    (_, Table::B8(t)) => lookup::<u16, u8>(t, src, dst),
                    (_, Table::B16(t)) => lookup::<u16, u16>(t, src, dst),
                    (_, Table::B32(t)) => lookup::<u16, u32>(t, src, dst),
                    (_, Table::B64(t)) => lookup::<u16, u64>(t, src, dst),
                }
            } else {
                blocks(s, d, src, dst, count, |b| t.get(b));
            }
            return;
        }
        blocks(s, d, src, dst, count, |b| self.plan.convert(b).0);
    }

    /// As [`Converter::run`], split into even-aligned chunks over the rayon pool.
    pub(super) fn run_par(&self, src: &[u8], dst: &mut [u8], count: usize) {
        if count < PAR_MIN {
            return self.run(src, dst, count);
        }
        if self.spec.src.value_bits() <= 16 {
            self.table();
        }
        let parts = rayon::current_num_threads().max(1) * 4;
        let chunk = (count.div_ceil(parts).max(PAR_MIN / 4) + 1) & !1;
        let sb = storage_len(self.spec.src, chunk);
        let db = storage_len(self.spec.dst, chunk);
        src.par_chunks(sb)
            .zip(dst.par_chunks_mut(db))
            .enumerate()
            .for_each(|(i, (s, d))| {
                let n = chunk.min(count - i * chunk);
                self.run(s, d, n);
            });
    }
}

/// Table lookup for whole-byte lanes: `S` indexes the table, `D` is written.
fn lookup<S: Lane, D: Lane>(t: &[D], src: &[u8], dst: &mut [u8]) {
    for (s, d) in src
        .chunks_exact(S::BYTES)
        .zip(dst.chunks_exact_mut(D::BYTES))
    {
        let v = t
            .get(S::read(s).to_u64() as usize)
            .copied()
            .unwrap_or_default();
        v.write(d);
    }
}

/// Reads `out.len()` logical elements starting at logical index `start`.
fn load(elem: ElemType, src: &[u8], start: usize, out: &mut [u64]) {
    if elem.is_packed() {
        // `start` is even: element start+j sits in byte (start+j)/2.
        let bytes = src.get(start / 2..).unwrap_or(&[]);
        for (j, o) in out.iter_mut().enumerate() {
            let b = bytes.get(j / 2).copied().unwrap_or(0);
            *o = u64::from(if j % 2 == 0 { b & 0xF } else { b >> 4 });
        }
        return;
    }
    let n = elem.storage_bytes() as usize;
    let bytes = src.get(start * n..).unwrap_or(&[]);
    let it = bytes.chunks_exact(n).zip(out.iter_mut());
    match n {
        1 => it.for_each(|(c, o)| *o = u8::read(c).to_u64()),
        2 => it.for_each(|(c, o)| *o = u16::read(c).to_u64()),
        4 => it.for_each(|(c, o)| *o = u32::read(c).to_u64()),
        _ => it.for_each(|(c, o)| *o = u64::read(c)),
    }
}

/// Writes `vals` as logical elements starting at the even logical index `start`; with an odd
/// number of values into a packed type the last byte's high nibble is preserved.
fn store(elem: ElemType, dst: &mut [u8], start: usize, vals: &[u64]) {
    if elem.is_packed() {
        let bytes = dst.get_mut(start / 2..).unwrap_or(&mut []);
        for (b, pair) in bytes.iter_mut().zip(vals.chunks(2)) {
            let lo = (pair[0] & 0xF) as u8;
            *b = match pair.get(1) {
                Some(hi) => lo | ((*hi as u8 & 0xF) << 4),
                None => (*b & 0xF0) | lo,
            };
        }
        return;
    }
    let n = elem.storage_bytes() as usize;
    let bytes = dst.get_mut(start * n..).unwrap_or(&mut []);
    let it = bytes.chunks_exact_mut(n).zip(vals.iter());
    match n {
        1 => it.for_each(|(c, v)| u8::from_u64(*v).write(c)),
        2 => it.for_each(|(c, v)| u16::from_u64(*v).write(c)),
        4 => it.for_each(|(c, v)| u32::from_u64(*v).write(c)),
        _ => it.for_each(|(c, v)| v.write(c)),
    }
}

/// The general path: blocks of logical elements through a `u64` buffer and `f`.
fn blocks(
    s: ElemType,
    d: ElemType,
    src: &[u8],
    dst: &mut [u8],
    count: usize,
    f: impl Fn(u64) -> u64,
) {
    let mut buf = [0u64; BLOCK];
    let mut start = 0;
    while start < count {
        let n = BLOCK.min(count - start);
        let vals = &mut buf[..n];
        load(s, src, start, vals);
        vals.iter_mut().for_each(|v| *v = f(*v));
        store(d, dst, start, vals);
        start += n;
    }
}
