//! `--verify-diagnostics` (syntax.md §8.3): finding `expected-*` directives in `//` comments and
//! matching them one-to-one against the diagnostics of their chunk.
//!
//! The directive pattern is MLIR's, hand-matched (no regex dependency):
//! `expected-(error|warning|note|remark)(?:@([+-][0-9]+|above|below))?\s*\{\{(.*?)\}\}`, the
//! first match in a comment, one per line. Matching is by severity, the line of the primary span
//! (a spanless note uses its parent's), and case-sensitive substring; notes count as separate
//! diagnostics; labels and rendering are never compared.

use std::ops::Range;

use super::{FileResult, LineIndex};
use crate::diag::{Code, DiagKind, Diagnostic, Severity, Span};

/// One `expected-*` directive.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Directive {
    pub severity: Severity,
    /// The expected substring (between `{{` and `}}`).
    pub text: String,
    /// 1-based line of the directive itself.
    pub line: usize,
    /// 1-based line it targets; `None` if it points before line 1.
    pub target: Option<usize>,
    /// From `expected-` to the closing `}}`, in original byte offsets.
    pub span: Span,
}

/// The directives inside `range` of `text`, in source order.
pub fn find_directives(text: &str, range: Range<usize>, lines: &LineIndex) -> Vec<Directive> {
    let Some(chunk) = text.get(range.clone()) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut offset = range.start;
    for line in chunk.split_inclusive('\n') {
        if let Some(c) = comment_start(line) {
            if let Some((sev, loc, text_range, span)) = parse_directive(&line[c..]) {
                let at = offset + c;
                let own = lines.line(at);
                let target = match loc {
                    Loc::Here => Some(own),
                    Loc::Plus(n) => own.checked_add(n),
                    Loc::Minus(n) => own.checked_sub(n).filter(|&l| l >= 1),
                };
                out.push(Directive {
                    severity: sev,
                    text: line[c..][text_range].to_string(),
                    line: own,
                    target,
                    span: Span::new(at + span.start, at + span.end),
                });
            }
        }
        offset += line.len();
    }
    out
}

/// Byte offset of the `//` that starts a comment on `line` (outside string literals).
fn comment_start(line: &str) -> Option<usize> {
    let b = line.as_bytes();
    let mut in_str = false;
    let mut i = 0;
    while i < b.len() {
        match (in_str, b[i]) {
            (true, b'\\') => i += 1,
            (_, b'"') => in_str = !in_str,
            (false, b'/') if b.get(i + 1) == Some(&b'/') => return Some(i),
            _ => {}
        }
        i += 1;
    }
    None
}

enum Loc {
    Here,
    Plus(usize),
    Minus(usize),
}

/// First directive in `comment`: severity, location, range of the text, range of the match.
fn parse_directive(comment: &str) -> Option<(Severity, Loc, Range<usize>, Range<usize>)> {
    let mut from = 0;
    while let Some(pos) = comment.get(from..).and_then(|s| s.find("expected-")) {
        let start = from + pos;
        if let Some(found) = directive_at(comment, start) {
            return Some(found);
        }
        from = start + 1;
    }
    None
}

fn directive_at(s: &str, start: usize) -> Option<(Severity, Loc, Range<usize>, Range<usize>)> {
    let mut i = start + "expected-".len();
    let rest = s.get(i..)?;
    let (sev, word) = [
        (Severity::Error, "error"),
        (Severity::Warning, "warning"),
        (Severity::Note, "note"),
        (Severity::Remark, "remark"),
    ]
    .into_iter()
    .find(|(_, w)| rest.starts_with(w))?;
    i += word.len();
    let mut loc = Loc::Here;
    if s[i..].starts_with('@') {
        let spec = &s[i + 1..];
        if let Some(sign) = spec.chars().next().filter(|c| *c == '+' || *c == '-') {
            let digits = spec[1..].bytes().take_while(u8::is_ascii_digit).count();
            if digits == 0 {
                return None;
            }
            // Absurd offsets saturate, which lands outside any chunk.
            let n = spec[1..1 + digits].parse::<usize>().unwrap_or(usize::MAX);
            loc = if sign == '+' {
                Loc::Plus(n)
            } else {
                Loc::Minus(n)
            };
            i += 2 + digits;
        } else if spec.starts_with("above") {
            loc = Loc::Minus(1);
            i += 6;
        } else if spec.starts_with("below") {
            loc = Loc::Plus(1);
            i += 6;
        } else {
            return None;
        }
    }
    let ws = s[i..]
        .bytes()
        .take_while(|b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C' | b'\x0B'))
        .count();
    i += ws;
    if !s[i..].starts_with("{{") {
        return None;
    }
    let text_start = i + 2;
    let close = s[text_start..].find("}}")?;
    let text_end = text_start + close;
    // `.` in the pattern does not cross a line end.
    if s[text_start..text_end].contains('\n') {
        return None;
    }
    Some((sev, loc, text_start..text_end, start..text_end + 2))
}

/// One diagnostic or note taking part in matching.
struct Candidate {
    severity: Severity,
    line: usize,
    message: String,
    span: Span,
    matched: bool,
}

fn candidates<'a>(
    diags: impl Iterator<Item = &'a Diagnostic>,
    lines: &LineIndex,
) -> Vec<Candidate> {
    let mut out = Vec::new();
    for d in diags {
        let line = lines.line(d.span.start);
        out.push(Candidate {
            severity: d.severity,
            line,
            message: d.message(),
            span: d.span,
            matched: false,
        });
        for n in &d.notes {
            // A spanless note sits on its parent's line.
            let span = n.span.unwrap_or(d.span);
            out.push(Candidate {
                severity: Severity::Note,
                line: lines.line(span.start),
                message: n.message.clone(),
                span,
                matched: false,
            });
        }
    }
    // Source order; stable, so a diagnostic precedes its notes at the same offset.
    out.sort_by_key(|c| c.span.start);
    out
}

/// Checks every chunk's directives against its diagnostics (the parse diagnostics plus those of
/// the auto/selected profile, [`super::ChunkResult::primary`]). Returns the failures: empty means
/// `--verify-diagnostics` succeeds.
pub fn match_directives(file: &FileResult) -> Vec<Diagnostic> {
    let lines = LineIndex::new(&file.text);
    let mut out = Vec::new();
    for d in &file.file_diagnostics {
        out.push(unexpected(d.severity, &d.message(), d.span));
    }
    for chunk in &file.chunks {
        let first = lines.line(chunk.range.start);
        let last = if chunk.range.is_empty() {
            first
        } else {
            lines.line(chunk.range.end - 1)
        };
        let mut cands = candidates(chunk.diagnostics(), &lines);
        for dir in find_directives(&file.text, chunk.range.clone(), &lines) {
            let target = match dir.target {
                Some(t) if (first..=last).contains(&t) => t,
                other => {
                    let shown = other.map_or_else(|| format!("-{}", dir.line), |t| t.to_string());
                    out.push(Diagnostic::new(
                        Code::DirectiveOutsideChunk,
                        DiagKind::Directive(format!(
                            "expected-{} directive targets line {shown}, outside its split chunk",
                            dir.severity.as_str()
                        )),
                        dir.span,
                    ));
                    continue;
                }
            };
            let hit = cands.iter_mut().find(|c| {
                !c.matched
                    && c.severity == dir.severity
                    && c.line == target
                    && c.message.contains(&dir.text)
            });
            match hit {
                Some(c) => c.matched = true,
                None => out.push(Diagnostic::new(
                    Code::ExpectedNotProduced,
                    DiagKind::Directive(format!(
                        "expected {} \"{}\" was not produced",
                        dir.severity.as_str(),
                        crate::diag::clip::clip(&dir.text, crate::diag::clip::PHRASE_MAX)
                    )),
                    dir.span,
                )),
            }
        }
        for c in cands.iter().filter(|c| !c.matched) {
            out.push(unexpected(c.severity, &c.message, c.span));
        }
    }
    out
}

fn unexpected(severity: Severity, message: &str, span: Span) -> Diagnostic {
    Diagnostic::new(
        Code::UnexpectedDiagnostic,
        DiagKind::Directive(format!("unexpected {}: {message}", severity.as_str())),
        span,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dirs(text: &str) -> Vec<Directive> {
        find_directives(text, 0..text.len(), &LineIndex::new(text))
    }

    #[test]
    fn directive_forms() {
        let t = "x // expected-error {{a b}}\n\
                 // expected-warning@+2 {{w}}\n\
                 // expected-note@-1{{n}}\n\
                 // expected-remark@above {{r}} expected-error {{second}}\n\
                 // expected-error@below {{e}}\n\
                 \"// expected-error {{in string}}\"\n\
                 // expected-error@x {{bad}} expected-note {{ok}}\n";
        let d = dirs(t);
        let got: Vec<_> = d
            .iter()
            .map(|d| (d.severity, d.text.as_str(), d.line, d.target))
            .collect();
        assert_eq!(
            got,
            vec![
                (Severity::Error, "a b", 1, Some(1)),
                (Severity::Warning, "w", 2, Some(4)),
                (Severity::Note, "n", 3, Some(2)),
                (Severity::Remark, "r", 4, Some(3)),
                (Severity::Error, "e", 5, Some(6)),
                (Severity::Note, "ok", 7, Some(7)),
            ]
        );
        assert_eq!(&t[d[0].span.range()], "expected-error {{a b}}");
        assert_eq!(dirs("// expected-error@-5 {{x}}")[0].target, None);
    }
}
