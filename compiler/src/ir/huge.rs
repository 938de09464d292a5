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

/// Consumed elements between two page releases of [`consume_releasing`].
const RELEASE_STEP: usize = 1024;
/// Release at least this many bytes at once (fewer system calls).
const RELEASE_BYTES: usize = 1 << 20;
/// The base page size releases are aligned to.
const PAGE: usize = 4096;

/// Moves every element of `v` into `each`, in order, giving the memory of the ones already
/// moved back to the system as it goes (`MADV_DONTNEED` on whole pages of the consumed
/// prefix): appending a large table to another then costs one copy of it at a time, not two.
/// The remaining elements and the allocation itself are untouched; the allocation is freed at
/// the end as usual.
pub fn consume_releasing<T>(v: Vec<T>, mut each: impl FnMut(T)) {
    let size = std::mem::size_of::<T>();
    let base = v.as_ptr() as usize;
    let mut released = base.div_ceil(PAGE) * PAGE;
    for (k, x) in v.into_iter().enumerate() {
        each(x);
        let moved = k + 1;
        if size == 0 || moved % RELEASE_STEP != 0 {
            continue;
        }
        let done = (base + moved * size) / PAGE * PAGE;
        #[cfg(target_os = "linux")]
        if done >= released + RELEASE_BYTES {
            // SAFETY: `released..done` is whole pages inside the vector's buffer that hold only
            // elements the iterator has moved out: it never reads or drops them again, and the
            // allocator's own header lies before `base`. MADV_DONTNEED on this private
            // anonymous memory only discards the dead contents (they would read back as
            // zeroes); the mapping stays valid until the buffer is freed.
            unsafe {
                libc::madvise(
                    released as *mut libc::c_void,
                    done - released,
                    libc::MADV_DONTNEED,
                );
            }
            released = done;
        }
        #[cfg(not(target_os = "linux"))]
        let _ = (done, &mut released);
    }
}
