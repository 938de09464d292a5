//! Cross-profile comparison of conversion results: given one input buffer and the output
//! buffers several profiles produced for it, which elements differ (not all outputs equal),
//! how many, and the first few with their index, input bits and every output, in hex and in
//! decimal (the numeric core's `display_value`, so `cast` and `run` print values alike).
//!
//! Invariants: buffers are storage bytes (packed nibbles read as in §2.6); a buffer shorter
//! than `count` elements needs is an error, never a panic; the report is data
//! ([`DiffReport`]), and [`DiffReport::render`] is a pure function of it.

use pto_runtime::convert::storage_len;
use pto_runtime::{ConvError, ElemType};

use pto_runtime::convert::display_value;

use super::display::format_bits;

/// One differing element.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffExample {
    pub index: usize,
    pub input: u64,
    /// One output pattern per compared buffer, in the order given.
    pub outputs: Vec<u64>,
}

/// The comparison of several outputs of the same conversion.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiffReport {
    pub src: ElemType,
    pub dst: ElemType,
    pub labels: Vec<String>,
    pub count: usize,
    /// Elements where not every output is equal.
    pub differing: usize,
    /// The first differing elements (at most the requested number), by index.
    pub examples: Vec<DiffExample>,
}

/// Reads logical element `i` of a storage buffer (callers have checked the length).
pub fn element_bits(t: ElemType, buf: &[u8], i: usize) -> u64 {
    if t.is_packed() {
        let b = buf.get(i / 2).copied().unwrap_or(0);
        u64::from(if i % 2 == 0 { b & 0x0F } else { b >> 4 })
    } else {
        let w = t.storage_bytes() as usize;
        let mut v = [0u8; 8];
        if let (Some(src), Some(dst)) = (buf.get(i * w..i * w + w), v.get_mut(..w)) {
            dst.copy_from_slice(src);
        }
        u64::from_le_bytes(v)
    }
}

fn check(role: &'static str, t: ElemType, buf: &[u8], count: usize) -> Result<(), ConvError> {
    let needed = storage_len(t, count);
    if buf.len() < needed {
        return Err(ConvError::BufferSize {
            role,
            elem: t,
            count,
            needed,
            actual: buf.len(),
        });
    }
    Ok(())
}

/// Compares `outputs` (label, dst storage) of converting `count` elements of `input` (src
/// storage); keeps the first `max_examples` differing elements.
pub fn compare(
    src: ElemType,
    input: &[u8],
    dst: ElemType,
    outputs: &[(&str, &[u8])],
    count: usize,
    max_examples: usize,
) -> Result<DiffReport, ConvError> {
    check("input", src, input, count)?;
    for (_, o) in outputs {
        check("output", dst, o, count)?;
    }
    let mut report = DiffReport {
        src,
        dst,
        labels: outputs.iter().map(|(l, _)| l.to_string()).collect(),
        count,
        differing: 0,
        examples: Vec::new(),
    };
    let Some(((_, first), rest)) = outputs.split_first() else {
        return Ok(report);
    };
    if rest
        .iter()
        .all(|(_, o)| o.get(..storage_len(dst, count)) == first.get(..storage_len(dst, count)))
    {
        return Ok(report);
    }
    // Mark the differing elements with byte-slice comparisons (fast), then describe them.
    let mut differs = vec![false; count];
    let n_bytes = storage_len(dst, count);
    for (_, o) in rest {
        if dst.is_packed() {
            for (k, (a, b)) in first.iter().zip(o.iter()).take(n_bytes).enumerate() {
                if a != b {
                    for (i, nib) in [(2 * k, 0x0F), (2 * k + 1, 0xF0)] {
                        if a & nib != b & nib {
                            if let Some(d) = differs.get_mut(i) {
                                *d = true;
                            }
                        }
                    }
                }
            }
        } else {
            let w = dst.storage_bytes() as usize;
            let pairs = first.chunks_exact(w).zip(o.chunks_exact(w));
            for (d, (a, b)) in differs.iter_mut().zip(pairs) {
                *d |= a != b;
            }
        }
    }
    for (i, _) in differs.iter().enumerate().filter(|(_, d)| **d) {
        report.differing += 1;
        if report.examples.len() < max_examples {
            report.examples.push(DiffExample {
                index: i,
                input: element_bits(src, input, i),
                outputs: outputs
                    .iter()
                    .map(|(_, o)| element_bits(dst, o, i))
                    .collect(),
            });
        }
    }
    Ok(report)
}

impl DiffReport {
    /// A report with no differences yet, for merging chunk reports into.
    pub fn empty(src: ElemType, dst: ElemType, labels: Vec<&str>, count: usize) -> DiffReport {
        DiffReport {
            src,
            dst,
            labels: labels.into_iter().map(str::to_string).collect(),
            count,
            differing: 0,
            examples: Vec::new(),
        }
    }

    /// Adds the report of a chunk that starts at element `offset` (its examples are re-indexed),
    /// keeping at most `max_examples` examples.
    pub fn merge(&mut self, chunk: DiffReport, offset: usize, max_examples: usize) {
        self.differing += chunk.differing;
        for mut e in chunk.examples {
            if self.examples.len() >= max_examples {
                break;
            }
            e.index += offset;
            self.examples.push(e);
        }
    }

    /// Human text: a summary line, then one line per example:
    /// `  [index] in 0x.. (value) -> cpu 0x.. (value), a2a3 0x.. (value)`.
    pub fn render(&self) -> String {
        let mut o = format!(
            "{} of {} elements differ between {}\n",
            self.differing,
            self.count,
            self.labels.join(", ")
        );
        for e in &self.examples {
            let outs: Vec<String> = self
                .labels
                .iter()
                .zip(&e.outputs)
                .map(|(l, &b)| {
                    format!(
                        "{l} {} ({})",
                        format_bits(self.dst, b),
                        display_value(self.dst, b)
                    )
                })
                .collect();
            o.push_str(&format!(
                "  [{}] in {} ({}) -> {}\n",
                e.index,
                format_bits(self.src, e.input),
                display_value(self.src, e.input),
                outs.join(", ")
            ));
        }
        if self.differing > self.examples.len() {
            o.push_str(&format!(
                "  ... {} more\n",
                self.differing - self.examples.len()
            ));
        }
        o
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_differences_and_renders_them() {
        let input: Vec<u8> = [3e9f32, 1.0, f32::INFINITY]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let cpu: Vec<u8> = [0i16, 1, 0].iter().flat_map(|v| v.to_le_bytes()).collect();
        let a2: Vec<u8> = [24064i16, 1, -1]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let r = compare(
            ElemType::F32,
            &input,
            ElemType::I16,
            &[("cpu", &cpu), ("a2a3", &a2)],
            3,
            1,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.differing, 2);
        assert_eq!(r.examples.len(), 1);
        let text = r.render();
        assert!(
            text.starts_with("2 of 3 elements differ between cpu, a2a3\n"),
            "{text}"
        );
        assert!(
            text.contains("[0] in 0x4F32D05E (3000000000) -> cpu 0x0000 (0), a2a3 0x5E00 (24064)"),
            "{text}"
        );
        assert!(text.contains("... 1 more"), "{text}");
    }

    #[test]
    fn merged_chunks_keep_global_indices_and_packed_nibbles_are_separate() {
        let mut all = DiffReport::empty(ElemType::F32, ElemType::S4x2, vec!["cpu", "a2a3"], 8);
        // Chunk 2 (offset 4): elements 1 and 2 differ (high nibble of byte 0, low of byte 1).
        let input = [0u8; 16];
        let r = compare(
            ElemType::F32,
            &input,
            ElemType::S4x2,
            &[("cpu", &[0x00, 0x00]), ("a2a3", &[0x70, 0x07])],
            4,
            1,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(r.differing, 2);
        all.merge(r, 4, 8);
        assert_eq!(all.differing, 2);
        assert_eq!(all.examples.len(), 1);
        assert_eq!(all.examples[0].index, 5);
        assert_eq!(all.examples[0].outputs, vec![0, 7]);
    }

    #[test]
    fn packed_nibbles_and_short_buffers() {
        assert_eq!(element_bits(ElemType::S4x2, &[0x9A], 0), 0xA);
        assert_eq!(element_bits(ElemType::S4x2, &[0x9A], 1), 0x9);
        let e = compare(
            ElemType::F32,
            &[0; 4],
            ElemType::I16,
            &[("cpu", &[0; 1])],
            1,
            4,
        );
        assert!(e.is_err());
    }
}
