//! Lexer for PTO text (syntax.md §1), built on logos.
//!
//! Owns the token classes and the byte spans of every token. Invariants:
//! - every span is a byte range into the *original* buffer: [`lex`] takes a base offset so that a
//!   split-input chunk lexed as a slice still reports original offsets (syntax.md §8.4);
//! - lexing never stops: a character that starts no token becomes a one-character
//!   [`Tok::Error`] token (and a [`LexError`]), which the parser skips;
//! - `line_start` is true on a token preceded only by whitespace/comments on its line, which is
//!   what the statement-level recovery of the parser keys on (syntax.md §8.2);
//! - `\n` is a token only in assembly mode (syntax.md §6.2); in MLIR mode it only sets `line_start`.

use logos::Logos;

use crate::diag::Span;

/// Why a piece of text could not become a proper token.
#[derive(Debug, Clone, PartialEq, Eq, Default, thiserror::Error)]
pub enum LexError {
    #[default]
    #[error("unexpected character")]
    Unknown,
    #[error("unexpected character '{}'", crate::diag::clip::echo_char(*.0))]
    UnexpectedChar(char),
    #[error("'%' must be followed by a value name")]
    StrayPercent,
    #[error("unterminated string literal")]
    UnterminatedString,
    #[error("invalid escape sequence '\\{}' in string literal", crate::diag::clip::echo_char(*.0))]
    InvalidEscape(char),
    #[error("input is not valid UTF-8")]
    InvalidUtf8,
}

/// Errors of the lexer are diagnostic causes (`diag` knows no stage; the stage maps itself).
impl From<LexError> for crate::diag::DiagKind {
    fn from(e: LexError) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

/// Raw token classes. Conflicts: longest match; on equal length the earlier row of
/// syntax.md §1.2 wins (logos `priority`).
#[derive(Logos, Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[logos(error = LexError)]
#[logos(skip r"[ \t\r\x0C]+")]
#[logos(skip(r"//[^\n]*", allow_greedy = true))]
pub enum Tok<'s> {
    #[regex(r"%(?:[0-9]+|[A-Za-z$._\-][A-Za-z0-9$._\-]*)(?:#[0-9]+)?", |l| l.slice())]
    ValueId(&'s str),
    #[regex(r"@[A-Za-z_$.][A-Za-z0-9_$.\-]*", |l| l.slice())]
    #[regex(r#"@"(?:[^"\\\n]|\\[^\n])*""#, |l| l.slice())]
    Symbol(&'s str),
    #[regex(r"\^[A-Za-z0-9_$.\-]+", |l| l.slice())]
    BlockId(&'s str),
    #[regex(r"![A-Za-z_][A-Za-z0-9_$.]*", |l| l.slice())]
    TypeName(&'s str),
    #[regex(r"#[A-Za-z_][A-Za-z0-9_$.]*", |l| l.slice())]
    AttrName(&'s str),
    /// `16x16x`, `?x`: the slice, including every trailing `x`.
    #[regex(r"(?:(?:[0-9]+|\?)x)+", |l| l.slice(), priority = 4)]
    DimPrefix(&'s str),
    #[regex(r"0x[0-9A-Fa-f]+", |l| l.slice(), priority = 5)]
    HexInt(&'s str),
    #[regex(r"[\-+]?[0-9]+\.[0-9]*(?:[eE][\-+]?[0-9]+)?", |l| l.slice())]
    Float(&'s str),
    #[regex(r"-?[0-9]+", |l| l.slice(), priority = 3)]
    Int(&'s str),
    /// A terminated string literal, quotes included; escapes are validated by the lexer.
    #[regex(r#""(?:[^"\\\n]|\\[^\n])*""#, string_literal)]
    Str(&'s str),
    #[regex(r"[A-Za-z_][A-Za-z0-9_$.]*", |l| l.slice())]
    BareId(&'s str),
    #[regex(r"\.[A-Za-z_]+", |l| l.slice())]
    Directive(&'s str),
    #[token("(")]
    LParen,
    #[token(")")]
    RParen,
    #[token("{")]
    LBrace,
    #[token("}")]
    RBrace,
    #[token("[")]
    LBracket,
    #[token("]")]
    RBracket,
    #[token("<")]
    LAngle,
    #[token(">")]
    RAngle,
    #[token(",")]
    Comma,
    #[token(":")]
    Colon,
    #[token("=")]
    Equals,
    #[token("->")]
    Arrow,
    #[token("?")]
    Question,
    #[token("\n")]
    Newline,
    /// Placeholder for a span that produced a [`LexError`]; never produced by logos itself.
    Error,
}

fn string_literal<'s>(lex: &mut logos::Lexer<'s, Tok<'s>>) -> Result<&'s str, LexError> {
    let s = lex.slice();
    let bytes = s.as_bytes();
    let mut i = 1;
    while i + 1 < bytes.len() {
        if bytes[i] == b'\\' {
            let next = bytes[i + 1];
            let ok = matches!(next, b'"' | b'\\' | b'n' | b't')
                || (next.is_ascii_hexdigit()
                    && bytes.get(i + 2).is_some_and(|b| b.is_ascii_hexdigit())
                    && i + 2 < bytes.len() - 1);
            if !ok {
                let ch = s[i + 1..].chars().next().unwrap_or('\\');
                return Err(LexError::InvalidEscape(ch));
            }
            i += if matches!(next, b'"' | b'\\' | b'n' | b't') {
                2
            } else {
                3
            };
        } else {
            i += 1;
        }
    }
    Ok(s)
}

/// One token with its original byte span.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'s> {
    pub tok: Tok<'s>,
    pub span: Span,
    /// Only whitespace or comments precede this token on its line.
    pub line_start: bool,
}

/// Whether `\n` is significant.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LexMode {
    Mlir,
    Assembly,
}

/// Result of lexing one buffer: the tokens (error tokens included) and the lexical errors.
#[derive(Debug, Default)]
pub struct Lexed<'s> {
    pub tokens: Vec<Token<'s>>,
    pub errors: Vec<(LexError, Span)>,
}

/// Lexes `src`, whose first byte sits at `base` in the original file.
pub fn lex(src: &str, base: usize, mode: LexMode) -> Lexed<'_> {
    let mut out = Lexed {
        tokens: Vec::with_capacity(src.len() / 3 + 16),
        errors: Vec::new(),
    };
    let mut stream = TokenStream::new(src, base, mode);
    while let Some((tok, err)) = stream.next_token() {
        out.tokens.push(tok);
        if let Some(e) = err {
            out.errors.push(e);
        }
    }
    out
}

/// The tokens of a buffer, produced on demand (the parser keeps only a statement's worth, so
/// large files are never materialised as one token vector). Same tokens and errors as [`lex`].
pub struct TokenStream<'s> {
    lexer: logos::Lexer<'s, Tok<'s>>,
    src: &'s str,
    base: usize,
    mode: LexMode,
    line_start: bool,
    /// Tokens produced ahead (the re-lexed tail of a stray `.` in MLIR mode).
    pending: std::collections::VecDeque<(Token<'s>, Option<(LexError, Span)>)>,
}

impl<'s> TokenStream<'s> {
    pub fn new(src: &'s str, base: usize, mode: LexMode) -> Self {
        TokenStream {
            lexer: Tok::lexer(src),
            src,
            base,
            mode,
            line_start: true,
            pending: std::collections::VecDeque::new(),
        }
    }

    /// A stream that starts at byte `at` (relative to `src`, at a token start): the tokens it
    /// gives are the ones a stream from the start gives from there on, `line_start` included
    /// (only blanks separate `at` from the previous line break). The two-thread parse starts
    /// its second half, and resumes the first after it, with this.
    pub fn starting_at(src: &'s str, base: usize, mode: LexMode, at: usize) -> Self {
        let mut s = TokenStream::new(src, base, mode);
        let at = at.min(src.len());
        let before = src.as_bytes().get(..at).unwrap_or(&[]);
        let blank_tail = before
            .iter()
            .rev()
            .take_while(|&&b| matches!(b, b' ' | b'\t' | b'\r' | b'\x0C'))
            .count();
        let line_start =
            before.len() == blank_tail || before[before.len() - blank_tail - 1] == b'\n';
        s.lexer.bump(at);
        s.line_start = line_start;
        s
    }

    /// Skips the source up to byte `to` (relative to the buffer) without producing tokens, when
    /// nothing is pending and `to` is at or past the current position. Used by the parser to
    /// jump over text it already understood (a cached type spelling). Returns false otherwise.
    pub fn skip_to(&mut self, to: usize) -> bool {
        let here = self.lexer.span().end;
        if !self.pending.is_empty() || to < here || to > self.src.len() {
            return false;
        }
        self.lexer.bump(to - here);
        self.line_start = false;
        true
    }

    /// The next token; error tokens ([`Tok::Error`]) come with their [`LexError`].
    pub fn next_token(&mut self) -> Option<(Token<'s>, Option<(LexError, Span)>)> {
        if let Some(p) = self.pending.pop_front() {
            return Some(p);
        }
        loop {
            let res = self.lexer.next()?;
            let r = self.lexer.span();
            let span = Span::new(self.base + r.start, self.base + r.end);
            let line_start = self.line_start;
            match res {
                Ok(Tok::Newline) => {
                    self.line_start = true;
                    if self.mode == LexMode::Assembly {
                        let tok = Token {
                            tok: Tok::Newline,
                            span,
                            line_start,
                        };
                        return Some((tok, None));
                    }
                }
                Ok(Tok::Directive(d)) if self.mode == LexMode::Mlir => {
                    // Directives exist only in assembly mode; in MLIR text the '.' is stray.
                    self.line_start = false;
                    let dot = Span::new(span.start, span.start + 1);
                    let err_tok = Token {
                        tok: Tok::Error,
                        span: dot,
                        line_start,
                    };
                    // Re-lex what follows the dot as ordinary tokens.
                    let sub = lex(&d[1..], span.start + 1, self.mode);
                    let mut errs = sub.errors.into_iter();
                    for (i, mut t) in sub.tokens.into_iter().enumerate() {
                        if i == 0 {
                            t.line_start = false;
                        }
                        let e = if t.tok == Tok::Error {
                            errs.next()
                        } else {
                            None
                        };
                        self.pending.push_back((t, e));
                    }
                    return Some((err_tok, Some((LexError::UnexpectedChar('.'), dot))));
                }
                Ok(tok) => {
                    self.line_start = false;
                    return Some((
                        Token {
                            tok,
                            span,
                            line_start,
                        },
                        None,
                    ));
                }
                Err(err) => {
                    self.line_start = false;
                    let slice = self.lexer.slice();
                    let (err, span) = classify_error(err, slice, span, self.src, r.start);
                    if let LexError::UnterminatedString = err {
                        // Skip to end of line: the literal swallowed it.
                        let line_end = self.src[r.start..]
                            .find('\n')
                            .map_or(self.src.len(), |n| r.start + n);
                        self.lexer.bump(line_end.saturating_sub(r.end));
                        let span = Span::new(self.base + r.start, self.base + line_end);
                        let tok = Token {
                            tok: Tok::Error,
                            span,
                            line_start,
                        };
                        return Some((tok, Some((err, span))));
                    }
                    let tok = Token {
                        tok: Tok::Error,
                        span,
                        line_start,
                    };
                    return Some((tok, Some((err, span))));
                }
            }
        }
    }
}

fn classify_error(
    err: LexError,
    slice: &str,
    span: Span,
    src: &str,
    start: usize,
) -> (LexError, Span) {
    match err {
        LexError::InvalidEscape(_) => (err, span),
        _ => {
            let first = src[start..].chars().next().unwrap_or('\u{FFFD}');
            let one = Span::new(span.start, span.start + first.len_utf8());
            match first {
                '%' => (LexError::StrayPercent, one),
                '"' => (LexError::UnterminatedString, span),
                '@' if slice.starts_with("@\"") => (LexError::UnterminatedString, span),
                c => (LexError::UnexpectedChar(c), one),
            }
        }
    }
}

impl Tok<'_> {
    /// How a token is named in `found ...` messages (syntax.md §8.1).
    pub fn describe(&self) -> String {
        use crate::diag::clip::Echo;
        match self {
            Tok::ValueId(s) => format!("value '{}'", Echo(s)),
            Tok::Symbol(s) => format!("symbol '{}'", Echo(s)),
            Tok::BlockId(s) => format!("block label '{}'", Echo(s)),
            Tok::TypeName(s) => format!("type name '{}'", Echo(s)),
            Tok::AttrName(s) => format!("attribute name '{}'", Echo(s)),
            Tok::DimPrefix(s) => format!("dimension list '{}'", Echo(s)),
            Tok::HexInt(s) => format!("hex integer {}", Echo(s)),
            Tok::Float(s) => format!("float '{}'", Echo(s)),
            Tok::Int(s) => format!("integer '{}'", Echo(s)),
            Tok::Str(s) => format!("string {}", Echo(s)),
            Tok::BareId(s) => format!("identifier '{}'", Echo(s)),
            Tok::Directive(s) => format!("directive '{}'", Echo(s)),
            Tok::Newline => "end of line".to_string(),
            Tok::Error => "invalid token".to_string(),
            other => format!("'{}'", other.punct_text()),
        }
    }

    /// Source text of a punctuation token.
    pub fn punct_text(&self) -> &'static str {
        match self {
            Tok::LParen => "(",
            Tok::RParen => ")",
            Tok::LBrace => "{",
            Tok::RBrace => "}",
            Tok::LBracket => "[",
            Tok::RBracket => "]",
            Tok::LAngle => "<",
            Tok::RAngle => ">",
            Tok::Comma => ",",
            Tok::Colon => ":",
            Tok::Equals => "=",
            Tok::Arrow => "->",
            Tok::Question => "?",
            _ => "",
        }
    }
}

/// Decodes the escapes of a validated string literal (quotes included).
pub fn unescape(lit: &str) -> String {
    let inner = lit
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .unwrap_or(lit);
    let mut out = Vec::with_capacity(inner.len());
    let b = inner.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\' && i + 1 < b.len() {
            match b[i + 1] {
                b'"' => out.push(b'"'),
                b'\\' => out.push(b'\\'),
                b'n' => out.push(b'\n'),
                b't' => out.push(b'\t'),
                _ => {
                    let hex = inner
                        .get(i + 1..i + 3)
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    if let Some(v) = hex {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    out.push(b[i + 1]);
                }
            }
            i += 2;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Extents of a `DIM_PREFIX` slice: `None` is a dynamic `?`. Returns `None` when an extent does
/// not fit `i64` (syntax.md §1.4: such a literal is `integer literal out of range`; saturating it
/// would silently change the program).
pub fn dim_prefix_extents(s: &str) -> Option<Vec<Option<u64>>> {
    s.split('x')
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p == "?" {
                Some(None)
            } else {
                p.parse::<i64>()
                    .ok()
                    .and_then(|n| u64::try_from(n).ok())
                    .map(Some)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Tok<'_>> {
        lex(src, 0, LexMode::Mlir)
            .tokens
            .into_iter()
            .map(|t| t.tok)
            .collect()
    }

    #[test]
    fn dimension_list_pitfall() {
        assert_eq!(
            kinds("16x16xf32"),
            vec![Tok::DimPrefix("16x16x"), Tok::BareId("f32")]
        );
        assert_eq!(
            kinds("?x?xbf16"),
            vec![Tok::DimPrefix("?x?x"), Tok::BareId("bf16")]
        );
        assert_eq!(
            kinds("256x!pto.f4E1M2x2"),
            vec![Tok::DimPrefix("256x"), Tok::TypeName("!pto.f4E1M2x2")]
        );
        assert_eq!(
            kinds("valid=8x1"),
            vec![
                Tok::BareId("valid"),
                Tok::Equals,
                Tok::DimPrefix("8x"),
                Tok::Int("1")
            ]
        );
        assert_eq!(
            kinds("valid=?x?"),
            vec![
                Tok::BareId("valid"),
                Tok::Equals,
                Tok::DimPrefix("?x"),
                Tok::Question
            ]
        );
        assert_eq!(kinds("16x16"), vec![Tok::DimPrefix("16x"), Tok::Int("16")]);
        assert_eq!(kinds("0xf32"), vec![Tok::HexInt("0xf32")]);
        assert_eq!(
            kinds("10x0xf32"),
            vec![Tok::DimPrefix("10x0x"), Tok::BareId("f32")]
        );
    }

    #[test]
    fn value_ids_and_arrows() {
        assert_eq!(kinds("%pair#1"), vec![Tok::ValueId("%pair#1")]);
        assert_eq!(kinds("%a-b"), vec![Tok::ValueId("%a-b")]);
        assert_eq!(kinds("-> -1"), vec![Tok::Arrow, Tok::Int("-1")]);
        assert_eq!(kinds("pto.tcvt"), vec![Tok::BareId("pto.tcvt")]);
    }

    #[test]
    fn errors_never_stop_lexing() {
        let l = lex("% x \"abc\n y", 0, LexMode::Mlir);
        assert_eq!(l.errors[0].0, LexError::StrayPercent);
        assert_eq!(l.errors[1].0, LexError::UnterminatedString);
        assert_eq!(l.errors[1].1, Span::new(4, 8));
        assert_eq!(
            l.tokens.last().map(|t| (t.tok, t.line_start)),
            Some((Tok::BareId("y"), true))
        );
        let e = lex(r#""a\q""#, 0, LexMode::Mlir);
        assert_eq!(e.errors[0].0, LexError::InvalidEscape('q'));
        let ok = lex(r#""a\"b\0A""#, 0, LexMode::Mlir);
        assert!(ok.errors.is_empty());
        assert_eq!(unescape(r#""a\"b\0A""#), "a\"b\n");
    }

    #[test]
    fn spans_are_offset_by_base() {
        let l = lex("f32", 100, LexMode::Mlir);
        assert_eq!(l.tokens[0].span, Span::new(100, 103));
    }

    #[test]
    fn newline_is_a_token_only_in_assembly_mode() {
        let asm = lex(".func @f\nPTO.vcvt", 0, LexMode::Assembly);
        let k: Vec<_> = asm.tokens.iter().map(|t| t.tok).collect();
        assert_eq!(
            k,
            vec![
                Tok::Directive(".func"),
                Tok::Symbol("@f"),
                Tok::Newline,
                Tok::BareId("PTO.vcvt")
            ]
        );
        assert!(lex("a\nb", 0, LexMode::Mlir)
            .tokens
            .iter()
            .all(|t| t.tok != Tok::Newline));
    }

    #[test]
    fn stream_skip_to_jumps_over_text() {
        let src = "a <b, c> d";
        let mut s = TokenStream::new(src, 10, LexMode::Mlir);
        assert_eq!(s.next_token().map(|t| t.0.tok), Some(Tok::BareId("a")));
        assert_eq!(s.next_token().map(|t| t.0.tok), Some(Tok::LAngle));
        assert!(s.skip_to(8));
        let d = s.next_token().map(|t| t.0);
        assert_eq!(
            d.map(|t| (t.tok, t.span, t.line_start)),
            Some((Tok::BareId("d"), Span::new(19, 20), false))
        );
        assert!(!s.skip_to(3), "cannot skip backwards");
        assert!(s.next_token().is_none());
    }
}
