//! Byte offset → 1-based line/column, shared by the diagnostic renderer and the directive
//! matcher. Columns count Unicode scalar values (UTF-8 aware), starting at 1.
//!
//! Invariant: every query is total: offsets past the end clamp to the end of the text, offsets
//! inside a multi-byte character count that character as not yet reached.

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
        let col = text.get(start..).map_or(0, |rest| {
            rest.char_indices()
                .take_while(|&(i, _)| start + i < offset)
                .count()
        });
        (line, col + 1)
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

#[cfg(test)]
mod tests {
    use super::*;

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
