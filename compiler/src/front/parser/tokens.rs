//! The token window of a parse and the chumsky [`Input`] over it.
//!
//! [`TokBuf`] pulls tokens from the streaming lexer on demand and keeps only a window of them:
//! the statement grammar drops the tokens before the statement it is parsing (the January
//! benchmark file has 10.4 M tokens; buffering them all cost ~350 ms). Lexical errors are queued
//! here and drained into diagnostics by the parser state (`Parser::sync_lex`), in token order.
//! The window also replays the recorded tokens of a cached dictionary instead of lexing its text
//! again ([`TokBuf::replay`]).
//!
//! [`TokInput`] is the chumsky input of the statement grammar. It shares the window with the
//! parser state (`Rc<RefCell<..>>`): chumsky reads tokens through it, while the state's
//! primitives (types, dictionaries, §8.2 recovery) read and, for a cached type, collapse tokens
//! of the same window. Invariants:
//! - a cursor is an absolute token index (error tokens excluded); chumsky never rewinds before
//!   the start of the statement being parsed, except when a whole function fails, where tokens
//!   already dropped read as [`Tok::Error`] placeholders that nothing matches.

use std::cell::RefCell;
use std::collections::HashMap;
use std::ops::Range;
use std::rc::Rc;

use chumsky::input::{ExactSizeInput, Input, ValueInput};
use rustc_hash::FxBuildHasher;

use super::grammar::Sp;
use crate::diag::Span;
use crate::front::lexer::{LexError, Tok, Token, TokenStream};

pub(crate) struct TokBuf<'s> {
    /// Buffered tokens (error tokens removed); `toks[0]` has absolute index `base_idx`.
    pub(super) toks: Vec<Token<'s>>,
    pub(super) base_idx: usize,
    pub(super) stream: Option<TokenStream<'s>>,
    /// Lexical errors not yet turned into diagnostics.
    pub(super) lex_queue: Vec<(LexError, Span)>,
    /// Empty span at the end of the chunk.
    pub(super) eof: Span,
    /// Token runs of cached one-line texts (dictionaries), by text: the tokens after the first,
    /// with spans relative to the text's start (see [`TokBuf::replay`]).
    replays: HashMap<&'s str, Vec<(Tok<'s>, u32, u32)>, FxBuildHasher>,
}

/// Longest token run kept for replay.
const MAX_REPLAY: usize = 256;

impl<'s> TokBuf<'s> {
    pub(crate) fn new(stream: TokenStream<'s>, eof: Span) -> Self {
        TokBuf {
            toks: Vec::with_capacity(256),
            base_idx: 0,
            stream: Some(stream),
            lex_queue: Vec::new(),
            eof,
            replays: HashMap::default(),
        }
    }

    /// Replays the tokens of `key`, a text at `span` whose first token is the one at absolute
    /// index `at`, when they were recorded and nothing after that token is buffered yet: the
    /// lexer jumps to the end of the text and the recorded tokens (respanned) fill the window.
    /// The text is a cached dictionary: one line, no string, no comment, no lexical error, and
    /// it ends with a one-byte closer, so lexing it again would give exactly these tokens, and
    /// the lexer resumes at a token boundary. Returns how many tokens the text has.
    pub(crate) fn replay(
        &mut self,
        at: usize,
        key: &str,
        span: Span,
        base: usize,
    ) -> Option<usize> {
        let rel = at.checked_sub(self.base_idx)?;
        if self.toks.len() != rel + 1 || self.toks.get(rel)?.span.start != span.start {
            return None;
        }
        let run = self.replays.get(key)?;
        if !self.stream.as_mut()?.skip_to(span.end.checked_sub(base)?) {
            return None;
        }
        self.toks.extend(run.iter().map(|&(tok, s, e)| Token {
            tok,
            span: Span::new(span.start + s as usize, span.start + e as usize),
            line_start: false,
        }));
        Some(1 + run.len())
    }

    /// Records the tokens from absolute index `from` (the first token of `key`, at `span`) up to
    /// `to` for [`TokBuf::replay`], when they are all buffered and cover exactly `span`.
    pub(crate) fn record(&mut self, from: usize, to: usize, key: &'s str, span: Span) {
        if self.replays.contains_key(key) || to <= from + 1 || to - from > MAX_REPLAY {
            return;
        }
        let (Some(a), Some(b)) = (
            from.checked_sub(self.base_idx),
            to.checked_sub(self.base_idx),
        ) else {
            return;
        };
        if b > self.toks.len() {
            return;
        }
        let run: Vec<_> = self.toks.get(a + 1..b).unwrap_or(&[]).to_vec();
        let first = self.toks.get(a).map(|t| t.span.start);
        let last = run.last().map(|t| t.span.end);
        if first != Some(span.start) || last != Some(span.end) || run.iter().any(|t| t.line_start) {
            return;
        }
        let rel = |x: usize| u32::try_from(x.checked_sub(span.start)?).ok();
        let run: Option<Vec<_>> = run
            .iter()
            .map(|t| Some((t.tok, rel(t.span.start)?, rel(t.span.end)?)))
            .collect();
        if let Some(run) = run {
            self.replays.insert(key, run);
        }
    }

    /// Pulls one token into the window; returns false at end of input.
    fn fill(&mut self) -> bool {
        loop {
            let Some(stream) = self.stream.as_mut() else {
                return false;
            };
            match stream.next_token() {
                None => {
                    self.stream = None;
                    return false;
                }
                Some((_, Some(err))) => self.lex_queue.push(err),
                Some((t, None)) => {
                    self.toks.push(t);
                    return true;
                }
            }
        }
    }

    /// The token at absolute index `i`: `None` past the end; a placeholder before the window.
    #[inline]
    pub(crate) fn tok(&mut self, i: usize) -> Option<Token<'s>> {
        let Some(rel) = i.checked_sub(self.base_idx) else {
            return Some(Token {
                tok: Tok::Error,
                span: Span::point(self.toks.first().map_or(self.eof.start, |t| t.span.start)),
                line_start: false,
            });
        };
        if let Some(t) = self.toks.get(rel) {
            return Some(*t);
        }
        self.tok_slow(rel)
    }

    #[inline(never)]
    fn tok_slow(&mut self, rel: usize) -> Option<Token<'s>> {
        while rel >= self.toks.len() {
            if !self.fill() {
                return None;
            }
        }
        self.toks.get(rel).copied()
    }

    /// Drops buffered tokens before absolute index `start` (keeping one for `prev_span`).
    pub(crate) fn drop_before(&mut self, start: usize) {
        let n = start.saturating_sub(1).saturating_sub(self.base_idx);
        let n = n.min(self.toks.len());
        if n >= 64 {
            self.toks.drain(..n);
            self.base_idx += n;
        }
    }

    /// Forgets the buffered tokens from absolute index `i` on, and lexical errors not yet
    /// reported (the two-thread parse then moves the stream elsewhere, `split`). Returns how many
    /// tokens stay buffered.
    pub(crate) fn forget_from(&mut self, i: usize) -> usize {
        let keep = i.saturating_sub(self.base_idx).min(self.toks.len());
        self.toks.truncate(keep);
        self.lex_queue.clear();
        keep
    }

    /// Span of the token at `i`, or the empty span at end of input.
    pub(crate) fn span_at(&mut self, i: usize) -> Span {
        let eof = self.eof;
        self.tok(i).map_or(eof, |t| t.span)
    }
}

/// The shared window.
pub(crate) type Shared<'s> = Rc<RefCell<TokBuf<'s>>>;

/// The statement grammar's chumsky input (see the module doc).
pub(crate) struct TokInput<'s>(pub(crate) Shared<'s>);

impl<'s> Input<'s> for TokInput<'s> {
    type Span = Sp;
    type Token = Tok<'s>;
    type MaybeToken = Tok<'s>;
    type Cursor = usize;
    type Cache = Shared<'s>;

    fn begin(self) -> (usize, Shared<'s>) {
        (0, self.0)
    }

    #[inline]
    fn cursor_location(cursor: &usize) -> usize {
        *cursor
    }

    #[inline]
    unsafe fn next_maybe(cache: &mut Shared<'s>, cursor: &mut usize) -> Option<Tok<'s>> {
        let t = cache.borrow_mut().tok(*cursor)?;
        *cursor += 1;
        Some(t.tok)
    }

    unsafe fn span(cache: &mut Shared<'s>, range: Range<&usize>) -> Sp {
        let mut b = cache.borrow_mut();
        let start = b.span_at(*range.start);
        if *range.end <= *range.start {
            return Sp::from(start.start..start.start);
        }
        let end = b.span_at(*range.end - 1);
        Sp::from(start.start..end.end.max(start.start))
    }
}

impl<'s> ValueInput<'s> for TokInput<'s> {
    #[inline]
    unsafe fn next(cache: &mut Shared<'s>, cursor: &mut usize) -> Option<Tok<'s>> {
        Self::next_maybe(cache, cursor)
    }
}

impl<'s> ExactSizeInput<'s> for TokInput<'s> {
    unsafe fn span_from(cache: &mut Shared<'s>, range: std::ops::RangeFrom<&usize>) -> Sp {
        let mut b = cache.borrow_mut();
        let start = b.span_at(*range.start);
        let eof = b.eof;
        Sp::from(start.start..eof.end.max(start.start))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::lexer::{lex, LexMode};

    #[test]
    fn a_replayed_dictionary_gives_the_tokens_lexing_gives() {
        let src = "{a = #p<m R>, b = 1} x\n  {a = #p<m R>, b = 1}\ny {a = 2}";
        let base = 40;
        let eof = Span::point(base + src.len());
        let want: Vec<Token<'_>> = lex(src, base, LexMode::Mlir).tokens;
        let mut b = TokBuf::new(TokenStream::new(src, base, LexMode::Mlir), eof);
        let first = Span::new(base, base + 20);
        let key = &src[..20];
        // Read the first dictionary (13 tokens) and `x`, then record the dictionary.
        for (i, w) in want.iter().enumerate().take(14) {
            assert_eq!(b.tok(i), Some(*w));
        }
        b.record(0, 13, key, first);
        // The second one starts at token 14; only its `{` is buffered when it is replayed.
        let second = Span::new(base + 25, base + 45);
        assert_eq!(b.tok(14).map(|t| t.span.start), Some(second.start));
        assert_eq!(b.replay(14, key, second, base), Some(13));
        let got: Vec<_> = (0..want.len()).map(|i| b.tok(i)).collect();
        assert_eq!(got, want.iter().copied().map(Some).collect::<Vec<_>>());
        assert_eq!(b.tok(want.len()), None);
        // A text never recorded, or a window already past the `{`, is not replayed.
        let mut c = TokBuf::new(TokenStream::new(src, base, LexMode::Mlir), eof);
        assert_eq!(c.tok(0).map(|t| t.tok), Some(Tok::LBrace));
        assert_eq!(c.replay(0, key, first, base), None);
        for i in 0..16 {
            c.tok(i);
        }
        c.record(0, 13, key, first);
        assert!(c.replays.contains_key(key));
        assert_eq!(c.replay(14, key, second, base), None);
        let got: Vec<_> = (0..want.len()).map(|i| c.tok(i)).collect();
        assert_eq!(got, want.iter().copied().map(Some).collect::<Vec<_>>());
    }
}
