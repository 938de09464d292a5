//! The text of one input file as the driver holds it: an owned `String`, or for a large regular
//! file a read-only memory map whose pages are given back to the kernel as the passes over the
//! text move past them.
//!
//! Why: a file of hundreds of MB read into a buffer stays resident for the whole run, next to
//! the IR built from it (the 1M-op benchmark file is 323 MB). A mapped file costs resident
//! memory only for the pages not yet released: the UTF-8 check maps the text in bulk
//! (`MADV_POPULATE_READ`) and keeps it for the parser, which walks it once from the front while
//! [`SourceText::release_before`] / [`SourceText::release_range`] drop the pages behind it, so
//! the text shrinks as the IR grows (`madvise(MADV_DONTNEED)` in [`RELEASE_CHUNK`] steps; on a
//! read-only shared file mapping this only unmaps them, the page cache keeps the data). Whatever
//! reads the text later (a diagnostic's snippet, the line count up to it, a cache key) faults
//! the pages it touches back in from the file. [`SourceText::lines`] gives the renderer a line
//! index whose counting pass releases the blocks it has counted, so one diagnostic at the end of
//! a large file does not bring the whole file back.
//!
//! Trade-off (docs/performance.md, "IR memory"): the text is the file's current contents, not a
//! snapshot. If another process truncates the file while ptoc runs, touching a page past the new
//! end raises SIGBUS and ptoc dies; if it rewrites the file in place, diagnostics may show the
//! new bytes. Files smaller than [`MAP_MIN`], standard input and anything that is not a regular
//! file are read into memory as before.
//!
//! Invariant: the bytes of a [`SourceText`] were valid UTF-8 when it was built (a mapped file is
//! checked in full by [`SourceText::map_checked`] before any `&str` is handed out).

use std::cell::Cell;
use std::ops::Range;

use crate::diag::LazyLines;

/// Files at least this large are mapped instead of read (smaller ones gain nothing).
pub const MAP_MIN: u64 = 16 << 20;

/// Pages are released in steps of this many bytes (fewer system calls; at most this much text
/// stays resident behind a pass).
pub const RELEASE_CHUNK: usize = 2 << 20;

/// A decoded input text (module doc).
pub struct SourceText {
    repr: Repr,
}

enum Repr {
    Owned(String),
    Mapped {
        map: memmap2::Mmap,
        /// The parser pass has released the pages before this offset.
        released: Cell<usize>,
    },
}

/// How [`SourceText::map_checked`] ended when the mapped bytes are not UTF-8.
pub struct NotUtf8 {
    /// The valid prefix and at most `INVALID_SHOWN` bytes from the first invalid one: what
    /// `driver::read_source` would have returned for the same file.
    pub prefix: Vec<u8>,
}

impl SourceText {
    /// Maps `file` read-only (the caller decided it is a regular file of at least [`MAP_MIN`]
    /// bytes) and checks that it is UTF-8, mapping its pages in [`RELEASE_CHUNK`] windows and
    /// keeping them: the parser reads them next and releases them behind itself, so the peak
    /// does not grow (the IR built in their place is about as large). Fails with the
    /// I/O error of the mapping, or returns the bytes a reader would have kept when the text is
    /// not UTF-8.
    pub fn map_checked(file: &std::fs::File) -> std::io::Result<Result<SourceText, NotUtf8>> {
        // SAFETY: the map is read-only; the file changing under it is the documented trade-off
        // of the module doc (the text is checked here, and a later change can only alter what
        // a diagnostic shows, or raise SIGBUS on truncation).
        let map = unsafe { memmap2::Mmap::map(file)? };
        let _ = map.advise(memmap2::Advice::Sequential);
        let text = SourceText {
            repr: Repr::Mapped {
                map,
                released: Cell::new(0),
            },
        };
        let bytes = text.bytes();
        let mut checked = 0;
        while checked < bytes.len() {
            let end = (checked + RELEASE_CHUNK).min(bytes.len());
            text.populate(checked, end);
            match std::str::from_utf8(&bytes[checked..end]) {
                Ok(_) => checked = end,
                Err(e) => {
                    let at = checked + e.valid_up_to();
                    if e.error_len().is_none() && end < bytes.len() {
                        // A sequence cut by the chunk's end: check it with the next chunk.
                        checked = at;
                    } else {
                        let keep = bytes.len().min(at + super::INVALID_SHOWN);
                        return Ok(Err(NotUtf8 {
                            prefix: bytes[..keep].to_vec(),
                        }));
                    }
                }
            }
        }
        Ok(Ok(text))
    }

    /// Whether the text is a memory map (module doc).
    pub fn is_mapped(&self) -> bool {
        matches!(self.repr, Repr::Mapped { .. })
    }

    fn bytes(&self) -> &[u8] {
        match &self.repr {
            Repr::Owned(s) => s.as_bytes(),
            Repr::Mapped { map, .. } => map,
        }
    }

    /// The parser has consumed the text before byte `at`: release the whole
    /// [`RELEASE_CHUNK`]s behind it not released yet. No effect on an owned text.
    pub fn release_before(&self, at: usize) {
        if let Repr::Mapped { released, .. } = &self.repr {
            let from = released.get();
            if at >= from + RELEASE_CHUNK {
                self.release_range(from, at);
                let base = at - at % page_size();
                released.set(base);
                self.populate(base, base + 2 * RELEASE_CHUNK);
            }
        }
    }

    /// Maps the pages of `from..to` in one call (`MADV_POPULATE_READ`) instead of one fault per
    /// page; a kernel without it (before Linux 5.14, or not Linux) just faults them in as they
    /// are read.
    fn populate(&self, from: usize, to: usize) {
        if let Repr::Mapped { map, .. } = &self.repr {
            populate_map_range(map, from, to);
        }
    }

    /// Releases the pages that lie wholly inside `range` (a mapped text only).
    pub fn release_range(&self, from: usize, to: usize) {
        if let Repr::Mapped { map, .. } = &self.repr {
            release_map_range(map, from, to);
        }
    }

    /// What [`SourceText::release_before`] does, for a reader of its own that another thread
    /// may run (the second half of a two-thread parse): `(from, to)` releases the pages of
    /// `from..to` and maps the next two [`RELEASE_CHUNK`]s ahead of `to`.
    pub fn range_releaser(&self) -> impl Fn(usize, usize) + Sync + '_ {
        let map = match &self.repr {
            Repr::Mapped { map, .. } => Some(map),
            Repr::Owned(_) => None,
        };
        move |from, to| {
            if let Some(map) = map {
                release_map_range(map, from, to);
                populate_map_range(map, to, to + 2 * RELEASE_CHUNK);
            }
        }
    }

    /// A line index over the text for the renderer; over a mapped text its counting pass
    /// releases the blocks it has counted.
    pub fn lines(&self) -> LazyLines<'_> {
        match &self.repr {
            Repr::Owned(_) => LazyLines::new(self),
            Repr::Mapped { .. } => LazyLines::with_release(
                self,
                Box::new(|r: Range<usize>| self.release_range(r.start, r.end)),
            ),
        }
    }
}

/// Maps the pages of `from..to` of `map` in one call ([`SourceText::populate`]).
fn populate_map_range(map: &memmap2::Mmap, from: usize, to: usize) {
    #[cfg(not(target_os = "linux"))]
    let _ = (map, from, to);
    #[cfg(target_os = "linux")]
    {
        let page = page_size();
        let start = from / page * page;
        let end = to.min(map.len());
        if end > start {
            let _ = map.advise_range(memmap2::Advice::PopulateRead, start, end - start);
        }
    }
}

/// Releases the pages of `map` that lie wholly inside `from..to`.
fn release_map_range(map: &memmap2::Mmap, from: usize, to: usize) {
    let page = page_size();
    let start = from.div_ceil(page) * page;
    let end = to.min(map.len()) / page * page;
    if end > start {
        // SAFETY: the range lies inside the read-only shared file mapping; after
        // MADV_DONTNEED its pages read back the file's contents (never zeroes, which
        // only private or anonymous mappings get).
        let _ = unsafe {
            map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, start, end - start)
        };
    }
}

/// The release granularity. Where the kernel's pages are larger, `madvise` gets a range that
/// memmap2 widens to whole pages, which may drop a page the pass is still reading: it is then
/// read back from the file (a cost, never a wrong byte).
fn page_size() -> usize {
    4096
}

impl From<String> for SourceText {
    fn from(text: String) -> Self {
        SourceText {
            repr: Repr::Owned(text),
        }
    }
}

impl std::ops::Deref for SourceText {
    type Target = str;
    fn deref(&self) -> &str {
        match &self.repr {
            Repr::Owned(s) => s,
            // SAFETY: checked by `map_checked` before the value was built (module invariant).
            Repr::Mapped { map, .. } => unsafe { std::str::from_utf8_unchecked(map) },
        }
    }
}

impl AsRef<str> for SourceText {
    fn as_ref(&self) -> &str {
        self
    }
}

impl PartialEq for SourceText {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for SourceText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let kind = if self.is_mapped() { "mapped" } else { "owned" };
        write!(f, "SourceText({kind}, {} bytes)", self.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn temp_file(name: &str, bytes: &[u8]) -> (std::path::PathBuf, std::fs::File) {
        let path = std::env::temp_dir().join(format!("ptoc-source-{}-{name}", std::process::id()));
        std::fs::File::create(&path)
            .and_then(|mut f| f.write_all(bytes))
            .expect("write temp file");
        let f = std::fs::File::open(&path).expect("open temp file");
        (path, f)
    }

    /// A mapped text reads as the file, before and after its pages are released, and a line
    /// index over it agrees with one over an owned copy.
    #[test]
    fn mapped_text_survives_release() {
        let mut text = String::new();
        let mut i = 0;
        while text.len() < 3 * RELEASE_CHUNK + 12345 {
            text.push_str(&format!("line {i} \u{e9}\u{1f600}\n"));
            i += 1;
        }
        let (path, f) = temp_file("ok", text.as_bytes());
        let mapped = match SourceText::map_checked(&f).expect("map") {
            Ok(t) => t,
            Err(_) => panic!("valid UTF-8 reported as invalid"),
        };
        assert!(mapped.is_mapped());
        assert_eq!(&*mapped, text.as_str());
        mapped.release_before(2 * RELEASE_CHUNK + 7);
        mapped.release_range(0, mapped.len());
        assert_eq!(&*mapped, text.as_str());
        let owned = SourceText::from(text.clone());
        let (a, b) = (mapped.lines(), owned.lines());
        for off in [0, 5, RELEASE_CHUNK + 3, text.len() - 1, text.len()] {
            assert_eq!(a.line_col(off), b.line_col(off));
        }
        assert_eq!(&*mapped, text.as_str());
        let _ = std::fs::remove_file(path);
    }

    /// Invalid UTF-8 in a mapped file: the prefix a reader keeps, also when the bad sequence
    /// straddles a check chunk's end.
    #[test]
    fn mapped_invalid_utf8_keeps_the_readers_prefix() {
        for at in [10, RELEASE_CHUNK - 1, RELEASE_CHUNK + 5] {
            let mut bytes = vec![b'a'; RELEASE_CHUNK + 100];
            bytes[at] = 0xff;
            let (path, f) = temp_file(&format!("bad{at}"), &bytes);
            let want = super::super::read_source(&mut bytes.as_slice()).expect("read from a slice");
            match SourceText::map_checked(&f).expect("map") {
                Ok(_) => panic!("invalid UTF-8 at {at} not found"),
                Err(bad) => assert_eq!(bad.prefix, want, "at {at}"),
            }
            let _ = std::fs::remove_file(path);
        }
        // A multi-byte character across the first chunk boundary is valid.
        let mut bytes = vec![b'a'; RELEASE_CHUNK + 100];
        bytes[RELEASE_CHUNK - 1..RELEASE_CHUNK + 2].copy_from_slice("\u{2603}".as_bytes());
        let (path, f) = temp_file("straddle", &bytes);
        assert!(matches!(SourceText::map_checked(&f), Ok(Ok(_))));
        let _ = std::fs::remove_file(path);
    }
}
