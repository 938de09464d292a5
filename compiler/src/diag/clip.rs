//! Bounding what a diagnostic echoes back from the input.
//!
//! Owns the one rule for user-supplied text inside messages: a token, name, type or value taken
//! from the input is shown through [`echo`] (or [`Echo`] inside a `#[error(...)]` format), which
//! escapes control characters (so an escape sequence in a string literal cannot drive the
//! terminal) and clips the text to [`TOKEN_MAX`] characters, keeping its start and end around
//! a `…`. Longer pieces of generated text built around user tokens (the suggested generic form of
//! an unknown op) use [`clip`] with [`PHRASE_MAX`]. As a last line of defence every message,
//! label, note and help text is bounded to [`MESSAGE_MAX`] characters when a [`Diagnostic`]
//! is rendered ([`Diagnostic::message`], `render`), so no diagnostic can grow with the input.
//!
//! The structured data keeps the full text: only what is displayed is clipped.
//!
//! [`Diagnostic`]: super::Diagnostic
//! [`Diagnostic::message`]: super::Diagnostic::message

use std::borrow::Cow;
use std::fmt;

/// Characters of one echoed token (name, type, literal) shown in a message.
pub const TOKEN_MAX: usize = 80;
/// Characters of a generated phrase that embeds tokens (an example, a type signature).
pub const PHRASE_MAX: usize = 200;
/// Characters of a whole message, label, note or help text.
pub const MESSAGE_MAX: usize = 1000;

/// The ellipsis that marks clipped text.
pub const ELLIPSIS: char = '…';

/// `s` with control characters escaped (`\u{1b}`, `\t`), clipped to [`TOKEN_MAX`] characters.
pub fn echo(s: &str) -> Cow<'_, str> {
    clip(s, TOKEN_MAX)
}

/// `s` with control characters escaped, clipped to `max` characters: when longer, its first
/// three quarters and its last quarter of `max - 1` characters around [`ELLIPSIS`].
/// Borrowed when nothing changes.
pub fn clip(s: &str, max: usize) -> Cow<'_, str> {
    let max = max.max(2);
    let plain = !s.chars().any(char::is_control);
    // Cheap test first: a byte length within the bound is a char count within it.
    if plain && (s.len() <= max || s.chars().take(max + 1).count() <= max) {
        return Cow::Borrowed(s);
    }
    let count = s.chars().count();
    let mut out = String::with_capacity(max.min(s.len()) + 8);
    if count <= max {
        push_escaped(&mut out, s.chars());
        return Cow::Owned(out);
    }
    let tail = (max - 1) / 4;
    let head = max - 1 - tail;
    push_escaped(&mut out, s.chars().take(head));
    out.push(ELLIPSIS);
    push_escaped(&mut out, s.chars().skip(count - tail));
    Cow::Owned(out)
}

/// A message bounded to [`MESSAGE_MAX`] characters (control characters other than newline and
/// tab escaped); the common short message is returned unchanged without copying.
pub fn bound_message(s: String) -> String {
    let ok = |c: char| !c.is_control() || c == '\n' || c == '\t';
    if s.len() <= MESSAGE_MAX && s.chars().all(ok) {
        return s;
    }
    let count = s.chars().count();
    let mut out = String::with_capacity(s.len().min(MESSAGE_MAX * 4) + 8);
    for c in s.chars().take(MESSAGE_MAX.min(count)) {
        if ok(c) {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    if count > MESSAGE_MAX {
        out.push(ELLIPSIS);
    }
    out
}

fn push_escaped(out: &mut String, chars: impl Iterator<Item = char>) {
    for c in chars {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
}

/// [`echo`] as a `Display` value, for format strings: `#[error("unknown type '{}'", Echo(name))]`.
pub struct Echo<'a>(pub &'a str);

impl fmt::Display for Echo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&echo(self.0))
    }
}

/// One character as a message shows it: itself, or escaped when it is a control character.
pub fn echo_char(c: char) -> String {
    if c.is_control() {
        c.escape_debug().collect()
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_tokens_are_borrowed() {
        assert!(matches!(echo("pto.tcvt"), Cow::Borrowed("pto.tcvt")));
        assert_eq!(echo(&"é".repeat(TOKEN_MAX)), "é".repeat(TOKEN_MAX));
    }

    #[test]
    fn long_tokens_keep_both_ends() {
        let s = format!("a{}z", "x".repeat(200_000));
        let e = echo(&s);
        assert_eq!(e.chars().count(), TOKEN_MAX);
        assert!(e.starts_with("axx") && e.ends_with("xxz") && e.contains(ELLIPSIS));
        // Multi-byte characters are never split.
        let s = "é".repeat(1000);
        assert_eq!(echo(&s).chars().count(), TOKEN_MAX);
    }

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(echo("a\u{1b}[31mb"), "a\\u{1b}[31mb");
        assert_eq!(echo_char('\u{7}'), "\\u{7}");
        assert_eq!(echo_char('$'), "$");
    }

    #[test]
    fn messages_are_bounded() {
        let m = bound_message("y".repeat(10 * MESSAGE_MAX));
        assert_eq!(m.chars().count(), MESSAGE_MAX + 1);
        let short = "expected type".to_string();
        assert_eq!(bound_message(short.clone()), short);
        assert_eq!(bound_message("a\nb\u{1b}".into()), "a\nb\\u{1b}");
    }
}
