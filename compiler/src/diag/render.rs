//! Rendering diagnostics to text (ariadne, human) or JSON. Used only at the CLI edge.
//!
//! Owns the human format (header `error[E0207]: message`, then ariadne's `file:line:col` snippet
//! with the primary span, secondary labels, notes and help) and the JSON format of the CLI
//! contract. Both sort diagnostics by position and show every one of them.
//!
//! Cost: ariadne walks every source line between a report's first and last label, so a label
//! far from the primary span (a `defined here` on line 1 of a 20k-line function) would make each
//! report O(file) and N reports quadratic. A secondary label more than [`FAR_LINES`] lines from
//! the primary span, or itself longer than that, is therefore rendered as a note
//! `<label>: file:line:col`, and a primary span longer than that is underlined on its first line
//! only; every report then touches O(`FAR_LINES`) lines. The source and line index are built
//! once per file. JSON keeps all spans as they are.
//!
//! Invariants: rendering never panics, whatever the spans (they are clamped to the text and to
//! UTF-8 character boundaries first); lines are `\n`-separated lines of the original file, the
//! same lines `--verify-diagnostics` counts, and columns are 1-based character columns on that
//! line (what ariadne prints). Colour is a parameter: deciding it (`NO_COLOR`, TTY) is the CLI's job.

use std::ops::Range;

use ariadne::{Color, Config, IndexType, Label as ALabel, Report, ReportKind, Source};
use serde_json::{json, Value};

use super::{Diagnostic, Severity, Span};
use crate::driver::LineIndex;

/// The largest char boundary `<= offset`, clamped to `text.len()`.
fn floor_boundary(text: &str, offset: usize) -> usize {
    let mut o = offset.min(text.len());
    while o > 0 && !text.is_char_boundary(o) {
        o -= 1;
    }
    o
}

fn clamp_span(text: &str, span: Span) -> Range<usize> {
    let start = floor_boundary(text, span.start);
    let end = floor_boundary(text, span.end).max(start);
    start..end
}

/// ariadne also breaks lines at `\r`, VT, FF, NEL, LS and PS; replacing those by characters of
/// the same byte length keeps its line numbers equal to ours (`\r\n` stays: it is one break).
fn ariadne_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' if chars.peek() == Some(&'\n') => out.push('\r'),
            '\r' | '\x0B' | '\x0C' => out.push(' '),
            '\u{85}' => out.push('\u{A0}'),
            '\u{2028}' | '\u{2029}' => out.push('\u{2026}'),
            c => out.push(c),
        }
    }
    out
}

/// `error[E0207]: message`, optionally in colour.
fn header(d: &Diagnostic, color: bool) -> String {
    let head = format!("{}[{}]", d.severity.as_str(), d.code.as_str());
    if color {
        let code = match d.severity {
            Severity::Error => "1;31",
            Severity::Warning => "1;33",
            Severity::Note | Severity::Remark => "1;36",
        };
        format!("\x1b[{code}m{head}\x1b[0m\x1b[1m: {}\x1b[0m", d.message())
    } else {
        format!("{head}: {}", d.message())
    }
}

/// Renders one diagnostic (ending with a newline). `file_name` is shown as given.
pub fn render_one(d: &Diagnostic, file_name: &str, text: &str, color: bool) -> String {
    let shown = ariadne_text(text);
    let source = Source::from(shown.as_str());
    let index = LineIndex::new(text);
    render_with(d, file_name, text, &source, &index, color)
}

/// How many lines a label may lie from the primary span (or span itself) and still be drawn in
/// the snippet; farther labels become notes (see the module doc).
pub const FAR_LINES: usize = 20;

/// Lines `[first, last]` (1-based) that `range` covers.
fn line_extent(index: &LineIndex, range: &Range<usize>) -> (usize, usize) {
    let first = index.line(range.start);
    let last = index.line(range.end.saturating_sub(1).max(range.start));
    (first, last.max(first))
}

/// `range` cut to the end of its first line when it runs over more than [`FAR_LINES`] lines.
fn clip_long(text: &str, index: &LineIndex, range: Range<usize>) -> Range<usize> {
    let (first, last) = line_extent(index, &range);
    if last - first <= FAR_LINES {
        return range;
    }
    let line_end = index
        .line_range(first)
        .map_or(range.end, |r| r.end.min(range.end));
    let end = floor_boundary(text, line_end).max(range.start);
    range.start..end
}

fn render_with(
    d: &Diagnostic,
    file_name: &str,
    text: &str,
    source: &Source<&str>,
    index: &LineIndex,
    color: bool,
) -> String {
    let kind = match d.severity {
        Severity::Error => ReportKind::Error,
        Severity::Warning => ReportKind::Warning,
        Severity::Note | Severity::Remark => ReportKind::Advice,
    };
    let primary_color = match d.severity {
        Severity::Error => Color::Red,
        Severity::Warning => Color::Yellow,
        Severity::Note | Severity::Remark => Color::Cyan,
    };
    let config = Config::default()
        .with_index_type(IndexType::Byte)
        .with_color(color);
    let primary = clip_long(text, index, clamp_span(text, d.span));
    let (p_first, p_last) = line_extent(index, &primary);
    let mut builder = Report::build(kind, (file_name, primary.clone())).with_config(config);
    // ariadne underlines only labels that carry a message, and starts a new snippet whenever a
    // label lies above the previous one; so the primary label repeats the message and all
    // labels are added in source order.
    let message = d.message();
    let mut labels: Vec<(Range<usize>, &str, Color)> = vec![(primary, &message, primary_color)];
    let mut far_notes = Vec::new();
    for l in &d.labels {
        let range = clamp_span(text, l.span);
        let (first, last) = line_extent(index, &range);
        let distance = if first > p_last {
            first - p_last
        } else {
            p_first.saturating_sub(last)
        };
        if distance > FAR_LINES || last - first > FAR_LINES {
            let (line, col) = index.line_col(text, range.start);
            far_notes.push(format!("{}: {file_name}:{line}:{col}", l.message));
        } else {
            labels.push((range, l.message.as_str(), Color::Blue));
        }
    }
    labels.sort_by_key(|(r, _, _)| (r.start, r.end));
    for (range, msg, c) in labels {
        let mut label = ALabel::new((file_name, range)).with_message(msg);
        if color {
            label = label.with_color(c);
        }
        builder.add_label(label);
    }
    for n in far_notes {
        builder.add_note(n);
    }
    for n in &d.notes {
        match n.span {
            Some(s) => {
                let (line, col) = index.line_col(text, s.start);
                builder.add_note(format!("{} (at {file_name}:{line}:{col})", n.message));
            }
            None => builder.add_note(&n.message),
        }
    }
    if let Some(h) = &d.help {
        builder.add_help(h);
    }
    let mut buf = Vec::new();
    let body = match builder.finish().write((file_name, source), &mut buf) {
        Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
        Err(_) => String::new(),
    };
    // ariadne's own header is `Error: message`; replace it by `error[CODE]: message`.
    let rest = body.split_once('\n').map_or("", |(_, rest)| rest);
    let mut out = header(d, color);
    out.push('\n');
    out.push_str(rest);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Renders every diagnostic of one file, sorted by position.
pub fn render_human(diags: &[Diagnostic], file_name: &str, text: &str, color: bool) -> String {
    if diags.is_empty() {
        // Building the sources indexes the whole text; a clean 32 MB file must not pay for it.
        return String::new();
    }
    let shown = ariadne_text(text);
    let source = Source::from(shown.as_str());
    let index = LineIndex::new(text);
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.span.end));
    sorted
        .into_iter()
        .map(|d| render_with(d, file_name, text, &source, &index, color))
        .collect()
}

fn span_json(s: Span) -> Value {
    json!({ "start": s.start, "end": s.end })
}

/// One diagnostic as the JSON object of the CLI contract.
pub fn diagnostic_json(d: &Diagnostic, file_name: &str, text: &str, index: &LineIndex) -> Value {
    let (line, column) = index.line_col(text, d.span.start);
    json!({
        "severity": d.severity.as_str(),
        "code": d.code.as_str(),
        "name": d.code.name(),
        "message": d.message(),
        "file": file_name,
        "line": line,
        "column": column,
        "span": span_json(d.span),
        "labels": d.labels.iter().map(|l| json!({
            "message": l.message,
            "span": span_json(l.span),
        })).collect::<Vec<_>>(),
        "notes": d.notes.iter().map(|n| json!({
            "message": n.message,
            "span": n.span.map_or(Value::Null, span_json),
        })).collect::<Vec<_>>(),
        "help": d.help,
    })
}

/// `{"diagnostics":[...]}` for one file, sorted by position, as one line of text.
pub fn render_json(diags: &[Diagnostic], file_name: &str, text: &str) -> String {
    let index = LineIndex::new(text);
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.span.end));
    let list: Vec<Value> = sorted
        .into_iter()
        .map(|d| diagnostic_json(d, file_name, text, &index))
        .collect();
    json!({ "diagnostics": list }).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diag::{Code, DiagKind};

    fn diag(span: Span) -> Diagnostic {
        Diagnostic::new(
            Code::UndefinedValue,
            DiagKind::Directive("use of undefined value '%x'".into()),
            span,
        )
    }

    #[test]
    fn header_and_location_without_colour() {
        let text = "a\n  %x = b\n";
        let out = render_human(&[diag(Span::new(4, 6))], "t.pto", text, false);
        assert!(
            out.starts_with("error[E0101]: use of undefined value '%x'\n"),
            "{out}"
        );
        assert!(out.contains("t.pto:2:3"), "{out}");
        assert!(!out.contains('\x1b'), "{out}");
    }

    #[test]
    fn hostile_spans_do_not_panic() {
        let text = "é\u{2028}\x0C\r\n";
        for (s, e) in [(0, 1), (1, 1), (5, 2), (100, 200), (0, 100), (3, 4)] {
            let d = diag(Span::new(s, e)).with_label(Span::new(e, s), "x");
            let _ = render_human(std::slice::from_ref(&d), "f", text, true);
            let _ = render_json(&[d], "f", text);
        }
        let _ = render_human(&[diag(Span::new(0, 0))], "f", "", false);
    }

    #[test]
    fn far_labels_become_notes_near_labels_stay() {
        let text = format!("def\n{}use\n", "x\n".repeat(FAR_LINES + 5));
        let use_at = text.len() - 4;
        let far = diag(Span::new(use_at, use_at + 3)).with_label(Span::new(0, 3), "defined here");
        let out = render_human(&[far], "t.pto", &text, false);
        let line = FAR_LINES + 7;
        assert!(out.contains(&format!("t.pto:{line}:1")), "{out}");
        assert!(out.contains("Note: defined here: t.pto:1:1"), "{out}");
        assert!(!out.contains("│ def"), "{out}");

        let near = diag(Span::new(4, 5)).with_label(Span::new(0, 3), "defined here");
        let out = render_human(&[near], "t.pto", &text, false);
        assert!(out.contains("1 │ def"), "{out}");
        assert!(!out.contains("Note: defined here"), "{out}");
    }

    #[test]
    fn long_primary_spans_are_underlined_on_their_first_line() {
        let text = format!("first\n{}last\n", "x\n".repeat(FAR_LINES * 3));
        let out = render_human(&[diag(Span::new(0, text.len()))], "t.pto", &text, false);
        assert!(out.contains("t.pto:1:1"), "{out}");
        assert!(!out.contains("last"), "{out}");
    }

    #[test]
    fn json_shape() {
        let d = diag(Span::new(2, 3))
            .with_label(Span::new(0, 1), "defined here")
            .with_note("n", None)
            .with_help("h");
        let v: Value = serde_json::from_str(&render_json(&[d], "f.pto", "a\nb")).unwrap();
        let d = &v["diagnostics"][0];
        assert_eq!(d["severity"], "error");
        assert_eq!(d["code"], "E0101");
        assert_eq!(d["name"], "undefined-value");
        assert_eq!(
            (d["line"].as_u64(), d["column"].as_u64()),
            (Some(2), Some(1))
        );
        assert_eq!(d["span"]["start"], 2);
        assert_eq!(d["labels"][0]["message"], "defined here");
        assert_eq!(d["notes"][0]["span"], Value::Null);
        assert_eq!(d["help"], "h");
    }
}
