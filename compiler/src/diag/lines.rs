//! Byte offset → 1-based line/column, shared by the diagnostic renderer and the directive
//! matcher. Columns count Unicode scalar values (UTF-8 aware), starting at 1.
//!
//! Two indexes answer the same questions: [`LineIndex`] records every line start up front (the
//! directive matcher visits every line); [`LazyLines`], for the diagnostic renderer, records
//! only the line count at every [`LAZY_BLOCK`] bytes, and only as far into the text as a
//! query reaches, so rendering one diagnostic in a file of hundreds of MB costs one counting
//! pass up to it and a few KB, not an entry per line.
//!
//! Invariant: every query is total: offsets past the end clamp to the end of the text, offsets
//! inside a multi-byte character count that character as not yet reached. Both indexes give the
//! same answers (tested).

use std::cell::RefCell;

/// Line starts of one text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineIndex {
    /// Byte offset of the first byte of each line; `starts[0] == 0`.
    starts: Vec<usize>,
    len: usize,
}

impl LineIndex {
    pub fn new(text: &str) -> Self {
        let mut starts = vec![0];
        starts.extend(
            text.bytes()
                .enumerate()
                .filter(|&(_, b)| b == b'\n')
                .map(|(i, _)| i + 1),
        );
        LineIndex {
            starts,
            len: text.len(),
        }
    }

    /// Number of lines (a text ending in `\n` has an empty last line).
    pub fn line_count(&self) -> usize {
        self.starts.len()
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.len);
        match self.starts.binary_search(&offset) {
            Ok(i) => i + 1,
            Err(i) => i,
        }
    }

    /// 1-based (line, column) of byte `offset` in `text` (the text this index was built from).
    pub fn line_col(&self, text: &str, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.len).min(text.len());
        let line = self.line(offset);
        let start = self.line_start(line).unwrap_or(0).min(offset);
        (line, column(text, start, offset))
    }

    /// Byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        line.checked_sub(1)
            .and_then(|i| self.starts.get(i))
            .copied()
    }

    /// Byte range of 1-based `line`, without its `\n`.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let start = self.line_start(line)?;
        let end = self
            .line_start(line + 1)
            .map_or(self.len, |next| next.saturating_sub(1));
        Some(start..end.max(start))
    }
}

/// Bytes between two checkpoints of [`LazyLines`].
pub const LAZY_BLOCK: usize = 1 << 16;

/// `\n` bytes in `bytes`, counted in a form the compiler vectorises (a byte-wide sum per
/// 255-byte piece cannot overflow).
fn count_newlines(bytes: &[u8]) -> usize {
    bytes
        .chunks(255)
        .map(|c| usize::from(c.iter().map(|&b| u8::from(b == b'\n')).sum::<u8>()))
        .sum()
}

/// A line index built on demand (module doc): `counts[k]` is the number of `\n` before byte
/// `k * LAZY_BLOCK`, known for the blocks a query has reached.
pub struct LazyLines<'t> {
    text: &'t str,
    counts: RefCell<Vec<usize>>,
    /// Called with each block the counting pass has counted (`SourceText::lines`: a mapped
    /// text gives those pages back).
    release: Option<Box<dyn Fn(std::ops::Range<usize>) + 't>>,
}

impl std::fmt::Debug for LazyLines<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LazyLines")
            .field("len", &self.text.len())
            .field("counts", &self.counts)
            .finish()
    }
}

impl<'t> LazyLines<'t> {
    pub fn new(text: &'t str) -> Self {
        LazyLines {
            text,
            counts: RefCell::new(vec![0]),
            release: None,
        }
    }

    /// [`LazyLines::new`], calling `release` with the byte range of each block once counted.
    pub fn with_release(text: &'t str, release: Box<dyn Fn(std::ops::Range<usize>) + 't>) -> Self {
        LazyLines {
            text,
            counts: RefCell::new(vec![0]),
            release: Some(release),
        }
    }

    /// The text the index is over.
    pub fn text(&self) -> &'t str {
        self.text
    }

    /// Extends the checkpoints until block `block` is known or the text ends; returns how many
    /// are known.
    fn reach_block(&self, block: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut counts = self.counts.borrow_mut();
        while counts.len() <= block {
            let k = counts.len();
            let start = (k - 1) * LAZY_BLOCK;
            if k * LAZY_BLOCK > bytes.len() {
                break;
            }
            let last = counts[k - 1];
            counts.push(last + count_newlines(&bytes[start..k * LAZY_BLOCK]));
            if let Some(release) = &self.release {
                release(start..k * LAZY_BLOCK);
            }
        }
        counts.len()
    }

    /// 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        let offset = offset.min(self.text.len());
        let block = offset / LAZY_BLOCK;
        let known = self.reach_block(block);
        let block = block.min(known - 1);
        let before = self.counts.borrow()[block];
        let from = block * LAZY_BLOCK;
        1 + before + count_newlines(&self.text.as_bytes()[from..offset])
    }

    /// 1-based (line, column) of byte `offset`.
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let text = self.text;
        let offset = offset.min(text.len());
        let line = self.line(offset);
        let start = text.as_bytes()[..offset]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        (line, column(text, start, offset))
    }

    /// Byte offset where 1-based `line` starts.
    pub fn line_start(&self, line: usize) -> Option<usize> {
        let want = line.checked_sub(1)?;
        if want == 0 {
            return Some(0);
        }
        // The last checkpoint with fewer than `want` newlines before it.
        let mut block = 0;
        loop {
            let known = self.reach_block(block + 1);
            if known <= block + 1 || self.counts.borrow()[block + 1] >= want {
                break;
            }
            block += 1;
        }
        let mut seen = self.counts.borrow()[block];
        let bytes = self.text.as_bytes();
        for (i, &b) in bytes.iter().enumerate().skip(block * LAZY_BLOCK) {
            if b == b'\n' {
                seen += 1;
                if seen == want {
                    return Some(i + 1);
                }
            }
        }
        None
    }

    /// Byte range of 1-based `line`, without its `\n`.
    pub fn line_range(&self, line: usize) -> Option<std::ops::Range<usize>> {
        let start = self.line_start(line)?;
        let end = self.text.as_bytes()[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(self.text.len(), |n| start + n);
        Some(start..end)
    }
}

/// 1-based column (in chars) of byte `offset` on the line of `text` that starts at `start`.
fn column(text: &str, start: usize, offset: usize) -> usize {
    let chars = text.get(start..).map_or(0, |rest| {
        rest.char_indices()
            .take_while(|&(i, _)| start + i < offset)
            .count()
    });
    chars + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every query of [`LazyLines`] agrees with [`LineIndex`], across checkpoint boundaries.
    #[test]
    fn lazy_lines_agree_with_the_full_index() {
        let mut t = String::new();
        let mut n = 0u32;
        while t.len() < 3 * LAZY_BLOCK + 500 {
            n = n.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let len = (n >> 16) as usize % 300;
            t.push_str(&"é".repeat(len % 7));
            t.push_str(&"x".repeat(len));
            t.push('\n');
        }
        t.push_str("tail");
        let full = LineIndex::new(&t);
        let lazy = LazyLines::new(&t);
        // Queries out of order, as far labels and notes make them.
        let mut offsets: Vec<usize> = (0..t.len() + 3).step_by(997).collect();
        offsets.extend([
            t.len() - 1,
            t.len(),
            t.len() + 10,
            LAZY_BLOCK,
            LAZY_BLOCK - 1,
            0,
        ]);
        offsets.reverse();
        for &o in &offsets {
            assert_eq!(lazy.line(o), full.line(o), "line({o})");
            assert_eq!(lazy.line_col(o), full.line_col(&t, o), "line_col({o})");
        }
        for line in (0..full.line_count() + 3).rev() {
            assert_eq!(
                lazy.line_start(line),
                full.line_start(line),
                "start({line})"
            );
            assert_eq!(
                lazy.line_range(line),
                full.line_range(line),
                "range({line})"
            );
        }
        let empty = LazyLines::new("");
        assert_eq!(empty.line(5), 1);
        assert_eq!(empty.line_range(1), Some(0..0));
        assert_eq!(empty.line_range(2), None);
    }

    #[test]
    fn lines_and_columns() {
        let t = "ab\néx\n\nz";
        let ix = LineIndex::new(t);
        assert_eq!(ix.line_count(), 4);
        assert_eq!(ix.line_col(t, 0), (1, 1));
        assert_eq!(ix.line_col(t, 2), (1, 3));
        assert_eq!(ix.line_col(t, 3), (2, 1));
        // 'x' is after the two-byte 'é': byte 5, column 2.
        assert_eq!(ix.line_col(t, 5), (2, 2));
        assert_eq!(ix.line_col(t, 7), (3, 1));
        assert_eq!(ix.line_col(t, 8), (4, 1));
        assert_eq!(ix.line_col(t, 100), (4, 2));
        assert_eq!(ix.line_range(2), Some(3..6));
        assert_eq!(ix.line_range(4), Some(8..9));
        assert_eq!(ix.line_range(5), None);
    }
}
