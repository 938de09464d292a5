//! Transparent huge pages for the few large arrays the parser fills front to back (the op,
//! op-span and value tables of a large file).
//!
//! Why: those tables are reserved from the input's size and then written once, page by page.
//! With 4 KiB pages every first touch is a page fault (about 7,000 of them for the 100k-op
//! benchmark file, most of the kernel time of a run); on a 2 MiB transparent huge page one
//! fault maps 512 pages. The machine's THP mode is usually `madvise`, so the region has to ask.
//!
//! Invariant: only advice is given (`madvise(MADV_HUGEPAGE)` on the 2 MiB-aligned part of a
//! vector's allocated capacity); it never changes contents, and a kernel that refuses it leaves
//! the program as it was. Vectors under two huge pages are left alone, at most the first
//! [`MAX_ADVISED`] bytes of one are advised, and on systems other than Linux nothing is done.

/// The huge page size the advice is aligned to (x86-64 and aarch64 with 4 KiB base pages).
const HUGE: usize = 2 << 20;

/// At most this much of one vector is advised. Past it, faulting in ever more huge pages makes
/// the kernel compact memory on the fault path (THP `defrag` is `madvise` by default), which
/// measured slower than 4 KiB faults for the 1M-op file (docs/performance.md).
const MAX_ADVISED: usize = 32 << 20;

/// Asks for transparent huge pages on the allocated capacity of `v` (module doc).
pub fn advise_vec<T>(v: &Vec<T>) {
    let bytes = v.capacity() * std::mem::size_of::<T>();
    if bytes < 2 * HUGE {
        return;
    }
    let start = v.as_ptr() as usize;
    let from = start.div_ceil(HUGE) * HUGE;
    let to = ((start + bytes) / HUGE * HUGE).min(from + MAX_ADVISED);
    #[cfg(target_os = "linux")]
    if to > from {
        // SAFETY: `from..to` lies inside the vector's own allocation (its capacity); MADV_HUGEPAGE
        // is advice only and does not change the memory's contents or validity.
        unsafe {
            libc::madvise(from as *mut libc::c_void, to - from, libc::MADV_HUGEPAGE);
        }
    }
}
