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
//! only; every report then touches O(`FAR_LINES`) lines. JSON keeps all spans as they are.
//!
//! Large files: ariadne's `Source` copies its text and records every line, so it is never given
//! the file: each report gets a `Source` of the few lines it shows (its window), and the line
//! numbers ariadne prints relative to the window are put back by [`renumber`] (ariadne 0.6 offsets
//! only the `file:line:col` header). Line numbers come from `lines::LazyLines`, which counts
//! newlines once, as far as the last diagnostic, and keeps a count per 64 KiB. One diagnostic at
//! the end of a 323 MB file thus costs one counting pass, not a copy and a line table of the
//! file. A test checks that windowed reports equal reports drawn from the whole text.
//!
//! Long lines: ariadne prints every line it shows in full, with an underline as long as the
//! span. When a line a report would show is longer than [`LINE_MAX`] bytes, the report is drawn
//! by [`render_windowed`] instead, in the same layout: each labelled line is shown as a window
//! of at most [`WINDOW`] characters starting [`BEFORE`] characters before its first label, with
//! `...` where the line goes on, and underlines end at the window's edge (as rustc does); a
//! label on such a line that falls outside the window becomes a note with its location. A
//! report's size is then bounded whatever the line length, and so is its cost. Messages,
//! labels, notes and help are bounded by `clip::bound_message`, so JSON is bounded too.
//!
//! Undecodable input (E0002) is shown against the valid prefix followed by the offending
//! bytes escaped as `\xFF` (by the driver's `display_text`); its underline covers those escapes.
//! Invariants: rendering never panics, whatever the spans (they are clamped to the text and to
//! UTF-8 character boundaries first); lines are `\n`-separated lines of the original file, the
//! same lines `--verify-diagnostics` counts, and columns are 1-based character columns on that
//! line (what ariadne prints). Colour is a parameter: deciding it (`NO_COLOR`, TTY) is the CLI's job.

use std::ops::Range;

use ariadne::{Color, Config, IndexType, Label as ALabel, Report, ReportKind, Source};
use serde_json::{json, Value};

use super::clip::bound_message;
use super::lines::LazyLines;
use super::{Code, Diagnostic, Severity, Span};

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
    let index = LazyLines::new(text);
    render_with(d, file_name, text, &index, color, Snippet::Window)
}

/// How many lines a label may lie from the primary span (or span itself) and still be drawn in
/// the snippet; farther labels become notes (see the module doc).
pub const FAR_LINES: usize = 20;

/// Lines `[first, last]` (1-based) that `range` covers.
fn line_extent(index: &LazyLines<'_>, range: &Range<usize>) -> (usize, usize) {
    let first = index.line(range.start);
    let last = index.line(range.end.saturating_sub(1).max(range.start));
    (first, last.max(first))
}

/// `range` cut to the end of its first line when it runs over more than [`FAR_LINES`] lines.
fn clip_long(text: &str, index: &LazyLines<'_>, range: Range<usize>) -> Range<usize> {
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

/// What ariadne is given to draw a report from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Snippet {
    /// Only the lines the report shows; line numbers are put back afterwards ([`renumber`]).
    Window,
    /// The whole text (what ariadne needs to number lines itself): the reference the window is
    /// tested against, and the fallback should the window's output not have the expected shape.
    Whole,
}

fn render_with(
    d: &Diagnostic,
    file_name: &str,
    text: &str,
    index: &LazyLines<'_>,
    color: bool,
    snippet: Snippet,
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
    let mut primary = clip_long(text, index, clamp_span(text, d.span));
    if d.code == Code::InvalidUtf8 && text[primary.start..].starts_with("\\x") {
        // The offending bytes are shown escaped, four characters each (`\xFF`).
        let bytes = d.span.end.saturating_sub(d.span.start).max(1);
        primary.end = floor_boundary(text, primary.start + 4 * bytes);
    }
    let (p_first, p_last) = line_extent(index, &primary);
    // ariadne underlines only labels that carry a message, and starts a new snippet whenever a
    // label lies above the previous one; so the primary label repeats the message and all
    // labels are added in source order.
    let message = d.message();
    let mut labels: Vec<Drawn> = vec![(primary.clone(), message, primary_color)];
    let mut far_notes = Vec::new();
    for l in &d.labels {
        let range = clamp_span(text, l.span);
        let (first, last) = line_extent(index, &range);
        let distance = if first > p_last {
            first - p_last
        } else {
            p_first.saturating_sub(last)
        };
        let msg = bound_message(l.message.clone());
        if distance > FAR_LINES || last - first > FAR_LINES {
            let (line, col) = index.line_col(range.start);
            far_notes.push(format!("{msg}: {file_name}:{line}:{col}"));
        } else {
            labels.push((range, msg, Color::Blue));
        }
    }
    labels.sort_by_key(|(r, _, _)| (r.start, r.end));
    let mut notes = far_notes;
    for n in &d.notes {
        let msg = bound_message(n.message.clone());
        match n.span {
            Some(s) => {
                let (line, col) = index.line_col(s.start);
                notes.push(format!("{msg} (at {file_name}:{line}:{col})"));
            }
            None => notes.push(msg),
        }
    }
    let help = d.help.clone().map(bound_message);
    let shown_lines = labels
        .iter()
        .map(|(r, _, _)| line_extent(index, r))
        .fold((p_first, p_last), |(a, b), (f, l)| (a.min(f), b.max(l)));
    let has_long_line = (shown_lines.0..=shown_lines.1)
        .filter_map(|line| index.line_range(line))
        .any(|r| r.len() > LINE_MAX);
    if has_long_line {
        let report = Windowed {
            d,
            file_name,
            text,
            index,
            color,
        };
        return report.render(&primary, labels, notes, help);
    }
    // The window: every line a label touches, with the `\n` of the last one.
    let (from, to) = match snippet {
        Snippet::Whole => (0, text.len()),
        Snippet::Window => {
            let mut from = index.line_start(shown_lines.0).unwrap_or(0);
            if from == text.len() && from > 0 {
                // The empty "line" after a final `\n`: ariadne shows an offset there on the
                // line before, so the window starts there.
                from = index.line_start(shown_lines.0 - 1).unwrap_or(0);
            }
            let end = index
                .line_range(shown_lines.1)
                .map_or(text.len(), |r| r.end);
            (from, (end + 1).min(text.len()))
        }
    };
    let window = ariadne_text(&text[from..to]);
    let skipped = if from == 0 { 0 } else { index.line(from) - 1 };
    let source = Source::from(window.as_str()).with_display_line_offset(skipped);
    let shift = |r: &Range<usize>| r.start - from..r.end - from;
    let mut builder = Report::build(kind, (file_name, shift(&primary))).with_config(config);
    // ariadne's margin width: the digits of the line of the end of all labels together.
    let all_start = labels.iter().map(|(r, _, _)| r.start).min().unwrap_or(0);
    let all_end = labels.iter().map(|(r, _, _)| r.end).max().unwrap_or(0);
    // ariadne has no line after a final `\n`: an offset there is on the last line.
    let last_line = index.line(text.len()) - usize::from(text.ends_with('\n'));
    let end_line = index
        .line(all_end.saturating_sub(1).max(all_start))
        .min(last_line.max(1));
    for (range, msg, c) in labels {
        let mut label = ALabel::new((file_name, shift(&range))).with_message(msg);
        if color {
            label = label.with_color(c);
        }
        builder.add_label(label);
    }
    for n in notes {
        builder.add_note(n);
    }
    if let Some(h) = help {
        builder.add_help(h);
    }
    let mut buf = Vec::new();
    let body = match builder.finish().write((file_name, &source), &mut buf) {
        Ok(()) => String::from_utf8_lossy(&buf).into_owned(),
        Err(_) => String::new(),
    };
    // ariadne's own header is `Error: message`; replace it by `error[CODE]: message`.
    let rest = body.split_once('\n').map_or("", |(_, rest)| rest);
    let rest = if skipped == 0 {
        std::borrow::Cow::Borrowed(rest)
    } else {
        match renumber(rest, skipped, end_line) {
            Some(fixed) => std::borrow::Cow::Owned(fixed),
            // Not the shape `renumber` knows: let ariadne number the whole text.
            None => return render_with(d, file_name, text, index, color, Snippet::Whole),
        }
    };
    let mut out = header(d, color);
    out.push('\n');
    out.push_str(&rest);
    if !out.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Decimal digits of `n` (1 for 0), as ariadne sizes its margin.
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// ariadne's report body drawn from a window that starts after `skipped` lines, renumbered as if
/// drawn from the whole text: line numbers in the margin grow by `skipped` and the margin widens
/// from the digits of the window's last line number to those of `end_line`'s. The body's
/// lines are those after ariadne's header; each starts with the margin (ANSI colour codes
/// aside): ` 12 │`, `   │`, `   ┆`, `   ╭─[`, or the closing `───╯`. `None` when the body
/// does not end with that closing line of the expected width.
fn renumber(body: &str, skipped: usize, end_line: usize) -> Option<String> {
    let narrow = digits(end_line.checked_sub(skipped)?);
    let wide = digits(end_line);
    let grow = wide - narrow.min(wide);
    // The closing line `─…─╯` tells the width ariadne used.
    let last = body.lines().last()?;
    let bars = strip_ansi(last).chars().take_while(|&c| c == '─').count();
    if bars != narrow + 2 || !strip_ansi(last).ends_with('╯') {
        return None;
    }
    let mut out = String::with_capacity(body.len() + 16 * grow);
    for line in body.split_inclusive('\n') {
        out.push_str(&widen_margin(line, skipped, grow));
    }
    Some(out)
}

/// `s` without ANSI SGR sequences (`ESC [ … m`).
fn strip_ansi(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c == '\x1b' {
            for c in chars.by_ref() {
                if c == 'm' {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// One line of [`renumber`]: finds the first visible character after the margin's leading
/// spaces (skipping colour codes); a line number there is replaced by itself plus `skipped`,
/// right-aligned in a margin `grow` columns wider; otherwise `grow` spaces (or `─` on the closing line) are
/// inserted after the last leading space, where ariadne puts its padding.
fn widen_margin(line: &str, skipped: usize, grow: usize) -> String {
    let bytes = line.as_bytes();
    let mut i = 0;
    let mut last_space_end = None;
    let mut run_start = 0;
    while i < bytes.len() {
        match bytes[i] {
            b' ' => {
                if last_space_end != Some(i) {
                    run_start = i;
                }
                i += 1;
                last_space_end = Some(i);
            }
            0x1b => {
                i += bytes[i..]
                    .iter()
                    .position(|&b| b == b'm')
                    .map_or(bytes.len() - i, |n| n + 1);
            }
            _ => break,
        }
    }
    let mut out = String::with_capacity(line.len() + grow + 4);
    if bytes.get(i).is_some_and(u8::is_ascii_digit) {
        let len = bytes[i..].iter().take_while(|b| b.is_ascii_digit()).count();
        let number: usize = line[i..i + len].parse().unwrap_or(0);
        // The spaces right before the number pad it to the margin's width.
        let (start, pad) = if last_space_end == Some(i) {
            (run_start, i - run_start)
        } else {
            (i, 0)
        };
        let renumbered = (number + skipped).to_string();
        let pad = (pad + grow + len).saturating_sub(renumbered.len());
        out.push_str(&line[..start]);
        out.push_str(&" ".repeat(pad));
        out.push_str(&renumbered);
        out.push_str(&line[i + len..]);
    } else if line[i..].starts_with('─') {
        out.push_str(&line[..i]);
        out.push_str(&"─".repeat(grow));
        out.push_str(&line[i..]);
    } else if let Some(at) = last_space_end {
        out.push_str(&line[..at]);
        out.push_str(&" ".repeat(grow));
        out.push_str(&line[at..]);
    } else {
        out.push_str(line);
    }
    out
}

/// A line longer than this many bytes is shown as a window around its labels.
pub const LINE_MAX: usize = 240;
/// Characters of a long line shown around its labels (without the `...` markers).
pub const WINDOW: usize = 120;
/// Characters of context shown before the first label of a windowed line.
pub const BEFORE: usize = 40;

/// A label to draw: its range, message and colour.
type Drawn = (Range<usize>, String, Color);

/// One report whose snippet has a long line, drawn in ariadne's layout by hand (module doc).
struct Windowed<'a> {
    d: &'a Diagnostic,
    file_name: &'a str,
    text: &'a str,
    index: &'a LazyLines<'a>,
    color: bool,
}

/// A labelled line's shown part: the window's byte range and whether it is cut on each side.
struct LineWindow {
    line: usize,
    range: Range<usize>,
    cut_left: bool,
    cut_right: bool,
}

impl Windowed<'_> {
    fn paint(&self, code: &str, s: &str) -> String {
        if self.color && !s.is_empty() {
            format!("\x1b[{code}m{s}\x1b[0m")
        } else {
            s.to_string()
        }
    }

    /// The window of `line` that starts [`BEFORE`] characters before byte `anchor`.
    fn window(&self, line: usize, anchor: usize) -> LineWindow {
        let text = self.text;
        let full = self.index.line_range(line).unwrap_or(anchor..anchor);
        let full = full.start..floor_boundary(text, full.end);
        let end_of_line = if text[full.clone()].ends_with('\r') {
            full.end - 1
        } else {
            full.end
        };
        let anchor = floor_boundary(text, anchor.clamp(full.start, end_of_line));
        let start = text[full.start..anchor]
            .char_indices()
            .rev()
            .nth(BEFORE.saturating_sub(1))
            .map_or(full.start, |(i, _)| full.start + i);
        let end = text[start..end_of_line]
            .char_indices()
            .nth(WINDOW)
            .map_or(end_of_line, |(i, _)| start + i);
        LineWindow {
            line,
            range: start..end,
            cut_left: start > full.start,
            cut_right: end < end_of_line,
        }
    }

    fn render(
        &self,
        primary: &Range<usize>,
        labels: Vec<Drawn>,
        mut notes: Vec<String>,
        help: Option<String>,
    ) -> String {
        let (text, index, file_name) = (self.text, self.index, self.file_name);
        // Labels by line; a label outside its line's window becomes a note.
        let mut groups: Vec<(LineWindow, Vec<Drawn>)> = Vec::new();
        for (range, msg, c) in labels {
            let line = index.line(range.start);
            if groups.last().is_none_or(|(w, _)| w.line != line) {
                let w = self.window(line, range.start);
                groups.push((w, Vec::new()));
            }
            let Some((w, members)) = groups.last_mut() else {
                continue;
            };
            if range.start > w.range.end || (range.start == w.range.end && w.cut_right) {
                let (line, col) = index.line_col(range.start);
                notes.push(format!("{msg}: {file_name}:{line}:{col}"));
            } else {
                members.push((range, msg, c));
            }
        }
        let last_line = groups.iter().map(|(w, _)| w.line).max().unwrap_or(1);
        let width = last_line.to_string().len();
        let margin = |s: &str| self.paint("38;5;246", s);
        // ariadne's margin: `width + 2` columns, the line number right-aligned before ` │`.
        let pad = " ".repeat(width + 2);
        let bar = margin("│");
        let mut out = String::new();
        out.push_str(&header(self.d, self.color));
        out.push('\n');
        let (line, col) = index.line_col(primary.start);
        out.push_str(&format!(
            "{pad}{} {file_name}:{line}:{col} {}\n",
            margin("╭─["),
            margin("]")
        ));
        out.push_str(&format!("{pad}{bar}\n"));
        let mut previous: Option<usize> = None;
        for (w, members) in &groups {
            if previous.is_some_and(|p| w.line > p + 1) {
                out.push_str(&format!("{pad}{}\n", self.paint("38;5;240", "┆")));
            }
            previous = Some(w.line);
            let lead = if w.cut_left { "..." } else { "" };
            let shown: String = text[w.range.clone()]
                .chars()
                .map(|c| {
                    if c.is_control() || c == '\u{2028}' || c == '\u{2029}' {
                        ' '
                    } else {
                        c
                    }
                })
                .collect();
            let tail = if w.cut_right { "..." } else { "" };
            out.push_str(&format!(
                " {}{lead}{shown}{tail}\n",
                margin(&format!("{:>width$} │ ", w.line))
            ));
            for (range, msg, c) in members {
                let start = range.start.max(w.range.start);
                let col = lead.len() + text[w.range.start..start].chars().count();
                let end = range.end.clamp(start, w.range.end);
                let len = text[start..end].chars().count().max(1);
                let mid = len / 2;
                let code = match c {
                    Color::Red => "31",
                    Color::Yellow => "33",
                    Color::Cyan => "36",
                    _ => "34",
                };
                let underline = format!("{}┬{}", "─".repeat(mid), "─".repeat(len - mid - 1));
                out.push_str(&format!(
                    "{pad}{bar} {}{}\n",
                    " ".repeat(col),
                    self.paint(code, &underline)
                ));
                let arrow = format!("╰{}", "─".repeat(len - mid + 1));
                out.push_str(&format!(
                    "{pad}{bar} {}{} {}\n",
                    " ".repeat(col + mid),
                    self.paint(code, &arrow),
                    self.paint(code, msg)
                ));
            }
        }
        let note_color = |s: &str| self.paint("38;5;115", s);
        if let Some(h) = help {
            out.push_str(&format!(
                "{pad}{bar} \n{pad}{bar} {}: {h}\n",
                note_color("Help")
            ));
        }
        let many = notes.len() > 1;
        for (i, n) in notes.iter().enumerate() {
            let label = if many {
                format!("Note {}", i + 1)
            } else {
                "Note".to_string()
            };
            out.push_str(&format!(
                "{pad}{bar} \n{pad}{bar} {}: {n}\n",
                note_color(&label)
            ));
        }
        out.push_str(&margin(&format!("{}╯", "─".repeat(width + 2))));
        out.push('\n');
        out
    }
}

/// Renders every diagnostic of one file, sorted by position.
pub fn render_human(diags: &[Diagnostic], file_name: &str, text: &str, color: bool) -> String {
    render_human_indexed(diags, file_name, &LazyLines::new(text), color)
}

/// [`render_human`] against the text of `index` (`SourceText::lines` of a mapped file gives
/// back the pages its counting pass has read).
pub fn render_human_indexed(
    diags: &[Diagnostic],
    file_name: &str,
    index: &LazyLines<'_>,
    color: bool,
) -> String {
    let text = index.text();
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.span.end));
    sorted
        .into_iter()
        .map(|d| render_with(d, file_name, text, index, color, Snippet::Window))
        .collect()
}

fn span_json(s: Span) -> Value {
    json!({ "start": s.start, "end": s.end })
}

/// One diagnostic as the JSON object of the CLI contract.
pub fn diagnostic_json(d: &Diagnostic, file_name: &str, index: &LazyLines<'_>) -> Value {
    let (line, column) = index.line_col(d.span.start);
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
            "message": bound_message(l.message.clone()),
            "span": span_json(l.span),
        })).collect::<Vec<_>>(),
        "notes": d.notes.iter().map(|n| json!({
            "message": bound_message(n.message.clone()),
            "span": n.span.map_or(Value::Null, span_json),
        })).collect::<Vec<_>>(),
        "help": d.help.clone().map(bound_message),
    })
}

/// `{"diagnostics":[...]}` for one file, sorted by position, as one line of text.
pub fn render_json(diags: &[Diagnostic], file_name: &str, text: &str) -> String {
    render_json_indexed(diags, file_name, &LazyLines::new(text))
}

/// [`render_json`] against the text of `index`.
pub fn render_json_indexed(diags: &[Diagnostic], file_name: &str, index: &LazyLines<'_>) -> String {
    let mut sorted: Vec<&Diagnostic> = diags.iter().collect();
    sorted.sort_by_key(|d| (d.span.start, d.span.end));
    let list: Vec<Value> = sorted
        .into_iter()
        .map(|d| diagnostic_json(d, file_name, index))
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
    fn long_lines_show_a_window_around_the_span() {
        let text = format!("a\n{}%x{}\nb\n", "y ".repeat(50_000), " z".repeat(50_000));
        let at = text.find("%x").unwrap_or(0);
        let far = text.len() - 10;
        let d = diag(Span::new(at, at + 2))
            .with_label(Span::new(at - 4, at - 2), "near")
            .with_label(Span::new(far, far + 1), "far on the line");
        let out = render_human(&[d], "t.pto", &text, false);
        assert!(out.len() < 2_000, "{} bytes: {out}", out.len());
        assert!(out.lines().all(|l| l.chars().count() < 200), "{out}");
        assert!(out.contains("t.pto:2:100001"), "{out}");
        assert!(out.contains(" 2 │ ...y y y"), "{out}");
        assert!(out.contains("%x z z"), "{out}");
        assert!(out.contains("z z..."), "{out}");
        assert!(out.contains("╰── near"), "{out}");
        assert!(out.contains("Note: far on the line: t.pto:2:"), "{out}");
        // The same margin as ariadne's.
        assert!(out.contains("\n   │\n"), "{out}");
        assert!(out.ends_with("───╯\n"), "{out}");
        // An underline ends at the window's edge.
        let whole = diag(Span::new(2, text.len() - 3));
        let out = render_human(&[whole], "t.pto", &text, true);
        assert!(out.len() < 4_000, "{} bytes", out.len());
    }

    /// A report drawn from a window of lines is the one ariadne draws from the whole text, in
    /// colour or not, whatever the labels, notes and line-number widths.
    #[test]
    fn windowed_reports_equal_whole_text_reports() {
        let mut text = String::new();
        for i in 0..1200 {
            text.push_str(&format!("  %v{i} = op{} %a, %b : i32\n", i % 7));
        }
        let at = |line: usize, col: usize| {
            let index = LazyLines::new(&text);
            index.line_start(line).unwrap_or(0) + col
        };
        let mut cases = Vec::new();
        for &line in &[
            1, 2, 8, 9, 10, 11, 95, 99, 100, 101, 998, 999, 1000, 1001, 1199, 1200,
        ] {
            let p = at(line, 2);
            cases.push(diag(Span::new(p, p + 3)));
            cases.push(diag(Span::new(p, p)).with_help("h1\nh2"));
            let q = at(line.saturating_sub(3).max(1), 4);
            cases.push(
                diag(Span::new(p, p + 3))
                    .with_label(Span::new(q, q + 2), "defined here")
                    .with_note("two\nlines", Some(Span::new(q, q))),
            );
            let r = at((line + 2).min(1201), 0);
            cases.push(diag(Span::new(p, r + 5)).with_label(Span::new(r, r + 1), "after"));
            cases.push(diag(Span::new(q, p + 1)));
        }
        cases.push(diag(Span::new(text.len(), text.len())));
        let index = LazyLines::new(&text);
        for d in &cases {
            for color in [false, true] {
                let whole = render_with(d, "t.pto", &text, &index, color, Snippet::Whole);
                let window = render_with(d, "t.pto", &text, &index, color, Snippet::Window);
                assert_eq!(window, whole, "span {:?}", d.span);
            }
        }
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
