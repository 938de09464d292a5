//! Alias definitions and uses, and locations (user guide, "Aliases and locations"), on the parser's side.
//!
//! - **Definitions** `!t = type`, `#a = attr-value`, `#loc = loc(...)` stand at the top level of
//!   a chunk: before, between and after its modules, never inside a module body or a region
//!   ([`alias_def`], called by the statement grammar). A name with a `.` is a dialect's, not an
//!   alias; a name is defined once; a definition may use only aliases defined before it.
//! - **Uses** are resolved where they are read: `!t` (no `.`, no `<` after it) wherever a type
//!   may stand, including element types inside `!pto.ptr<...>` and tile types (type grammar);
//!   `#a` wherever an attribute value may stand (attribute grammar); inside the verbatim text of
//!   opaque types and attributes (`memref<4xf32, #map>`) a use is replaced by the alias's value
//!   ([`verbatim_expanded`]). So the IR holds resolved types and attributes: the verifier never
//!   sees an alias, and two spellings of one type are one type.
//! - The IR keeps the type and attribute definitions (`Module::aliases`) only so that the printer
//!   can print them first and the uses by name.
//! - **Locations** (`loc(...)` after an op, a function or block argument, a module; `#loc`
//!   aliases) are checked for balanced brackets and defined alias names, then dropped: `ptoc fmt`
//!   prints no locations, as MLIR prints without debug info. A location alias may be used before
//!   its definition (MLIR prints location aliases after the module); such uses are checked at the
//!   end of the chunk ([`Parser::check_deferred_locs`]).
//!
//! Undefined names are E0017, bad definitions E0018; each diagnostic names what was expected
//! and what was found, at the name's span.

use std::borrow::Cow;

use chumsky::prelude::*;
use chumsky::Parser as P;
use rustc_hash::FxHashMap;

use super::fn_type_grammar::ty;
use super::grammar::{TyErr, TyState};
use super::stmt_prim::{expected_here, here, run_via, tk, IRef, In, SEx};
use super::type_grammar::verbatim;
use super::{PResult, Parser};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::Tok;
use crate::ir::{AliasDef, AliasValue, Attr, Type, TypeId};

/// What an alias stands for.
#[derive(Debug, Clone)]
pub(crate) enum AliasKind {
    /// A type: its id and the type itself (the type grammar returns types, not ids).
    Type(TypeId, Type),
    Attr(Attr),
    /// A location (`#loc = loc(...)`), dropped.
    Loc,
}

/// One defined alias.
#[derive(Debug, Clone)]
pub(crate) struct AliasEntry {
    pub kind: AliasKind,
    /// The name's span in its definition.
    pub span: Span,
    /// The value spelled out canonically (what a use inside verbatim text becomes).
    pub text: String,
}

/// The aliases of a chunk. Lent to the type and attribute grammars for each run (like the type
/// table), so they resolve uses themselves.
#[derive(Debug, Default, Clone)]
pub(crate) struct Aliases {
    map: FxHashMap<String, AliasEntry>,
    /// The alias whose value is being read: a use of it is a self-reference.
    pub defining: Option<String>,
    /// Location alias uses not defined yet (checked at the end of the chunk).
    pub(super) deferred: Vec<(String, Span)>,
}

impl Aliases {
    pub(crate) fn get(&self, name: &str) -> Option<&AliasEntry> {
        if self.map.is_empty() {
            return None;
        }
        self.map.get(name)
    }

    /// The error for a use of `name` that is not defined; `want` names the kind expected
    /// (`a type`, `an attribute`, `a location`).
    pub(crate) fn undefined(&self, name: &str, want: &'static str) -> ParseError {
        let expected = match want {
            "a type" => "a type alias defined before this use",
            "an attribute" => "an attribute alias defined before this use",
            _ => "a location alias defined in this file",
        };
        if self.defining.as_deref() == Some(name) {
            ParseError::AliasSelfReference {
                name: name.to_string(),
            }
        } else {
            ParseError::UndefinedAlias {
                name: name.to_string(),
                expected,
            }
        }
    }
}

/// Whether a `!name` / `#name` token is an alias rather than a dialect name: it has no `.`
/// (the caller checks that no `<` follows it).
pub(crate) fn is_alias_name(name: &str) -> bool {
    name.len() > 1 && !name.contains('.')
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'$' | b'.')
}

/// Replaces the alias uses in `text` (source text starting at byte `base`) by their values.
/// Returns the text and, for each undefined name, its error and span. Strings and comments are
/// left alone; a name followed by `<` or containing `.` is a dialect's.
fn expand<'t>(
    text: &'t str,
    base: usize,
    aliases: &Aliases,
) -> (Cow<'t, str>, Vec<(ParseError, Span)>) {
    let b = text.as_bytes();
    let mut out = String::new();
    let mut copied = 0;
    let mut errs = Vec::new();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    i += if b[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'!' | b'#'
                if b.get(i + 1)
                    .is_some_and(|c| c.is_ascii_alphabetic() || *c == b'_')
                    && (i == 0 || !is_ident(b[i - 1]) || b[i - 1] == b'x') =>
            {
                let mut j = i + 1;
                while j < b.len() && is_ident(b[j]) {
                    j += 1;
                }
                let name = &text[i..j];
                if is_alias_name(name) && b.get(j) != Some(&b'<') {
                    match aliases.get(name) {
                        Some(e) if !matches!(e.kind, AliasKind::Loc) => {
                            out.push_str(&text[copied..i]);
                            out.push_str(&e.text);
                            copied = j;
                        }
                        Some(_) => {
                            // A location alias prints no definition: it may stand only in
                            // `loc(...)`.
                            let span = Span::new(base + i, base + j);
                            let name = name.to_string();
                            errs.push((ParseError::LocationAliasAsAttribute { name }, span));
                        }
                        None => {
                            let want = if b[i] == b'!' {
                                "a type"
                            } else {
                                "an attribute"
                            };
                            let span = Span::new(base + i, base + j);
                            errs.push((aliases.undefined(name, want), span));
                        }
                    }
                }
                i = j;
            }
            _ => i += 1,
        }
    }
    if copied == 0 {
        return (Cow::Borrowed(text), errs);
    }
    out.push_str(&text[copied..]);
    (Cow::Owned(out), errs)
}

/// The verbatim text (D-9) of the opaque type or attribute at `span`, alias uses replaced by
/// their values; an undefined use is a pending diagnostic.
pub(crate) fn verbatim_expanded(st: &mut TyState<'_>, span: Span) -> String {
    let text = st.text(span);
    if !text.contains(['!', '#']) {
        return verbatim(text);
    }
    let (expanded, errs) = expand(text, span.start, &st.aliases);
    for (err, s) in errs {
        st.push(err, s, s.end);
    }
    verbatim(&expanded)
}

/// `name = value` at the top level of a chunk: `!t = type`, `#a = attr-value`,
/// `#loc = loc(...)`.
pub(super) fn alias_def<'s>() -> impl P<'s, In<'s>, (), SEx<'s>> + Clone {
    custom(move |inp: &mut IRef<'s, '_>| {
        let i = here(inp);
        let st = inp.state();
        let (name, span) = match st.tok(i) {
            Some(t) => match t.tok {
                Tok::TypeName(n) | Tok::AttrName(n) => (n, t.span),
                _ => return Err(expected_here(inp, &["alias name"])),
            },
            None => return Err(expected_here(inp, &["alias name"])),
        };
        st.ctx = Some((span, format!("alias {name}")));
        inp.skip();
        inp.parse(tk(Tok::Equals))?;
        let st = inp.state();
        if !is_alias_name(name) {
            let err = ParseError::AliasDottedName {
                name: name.to_string(),
            };
            st.error_at(err, span);
            return Err(st.reported_at(i));
        }
        if let Some(first) = st.aliases.get(name).map(|e| e.span) {
            let err = ParseError::AliasRedefinition {
                name: name.to_string(),
            };
            let d = Diagnostic::new(err.code(), err, span).with_label(first, "first defined here");
            st.push_diag(d);
            return Err(st.reported_at(i));
        }
        st.aliases.defining = Some(name.to_string());
        let j = here(inp);
        let st = inp.state();
        let is_loc = matches!(st.tok(j).map(|t| t.tok), Some(Tok::BareId("loc")))
            && matches!(st.tok(j + 1).map(|t| t.tok), Some(Tok::LParen));
        let r = if name.starts_with('!') {
            inp.parse(ty()).map(|(t, _)| (Some(t), None))
        } else if is_loc {
            run_via(inp, &|p: &mut Parser<'s>| {
                p.skip_loc().map(|_| (None, None))
            })
        } else {
            run_via(inp, &|p: &mut Parser<'s>| p.attr_value()).map(|a| (None, Some(a)))
        };
        let st = inp.state();
        st.aliases.defining = None;
        let (t, a) = r?;
        if st.stmt_reported {
            return Err(TyErr::Reported);
        }
        st.define_alias(name, span, t, a);
        Ok(())
    })
}

impl<'s> Parser<'s> {
    /// Records a definition read without error (type `t`, else attribute `a`, else location).
    fn define_alias(&mut self, name: &str, span: Span, t: Option<TypeId>, a: Option<Attr>) {
        let (kind, text, value) = match (t, a) {
            (Some(t), _) => {
                let ty = self.m.types.get(t).clone();
                let text = crate::ir::printer::print_type(&self.m.types, t);
                (AliasKind::Type(t, ty), text, Some(AliasValue::Type(t)))
            }
            (None, Some(a)) => {
                let text = crate::ir::printer::print_attr(&self.m.types, &a);
                (AliasKind::Attr(a.clone()), text, Some(AliasValue::Attr(a)))
            }
            (None, None) => (AliasKind::Loc, String::new(), None),
        };
        if let Some(value) = value {
            self.m.aliases.push(AliasDef {
                name: name.to_string(),
                value,
            });
        }
        self.aliases
            .map
            .insert(name.to_string(), AliasEntry { kind, span, text });
    }

    /// A type alias use at the cursor (`!t`, no `<` after it): its type and span, moving past
    /// it; `None` (cursor unmoved) when it is no defined type alias.
    pub(super) fn type_alias_here(&mut self) -> Option<(TypeId, Span)> {
        let t = self.tok(self.pos)?;
        let Tok::TypeName(n) = t.tok else { return None };
        if !is_alias_name(n) || matches!(self.peek_at(1), Some(Tok::LAngle)) {
            return None;
        }
        match self.aliases.get(n)?.kind {
            AliasKind::Type(id, _) => {
                self.pos += 1;
                Some((id, t.span))
            }
            _ => None,
        }
    }

    /// A `!name` / `#name` token at index `i` kept verbatim (an opaque op's token): if it is an
    /// alias use, the alias must be defined (E0017, reported; the op is still read).
    pub(super) fn check_alias_token(&mut self, name: &str, i: usize, span: Span) {
        if !is_alias_name(name)
            || self
                .tok(i + 1)
                .is_some_and(|t| matches!(t.tok, Tok::LAngle))
        {
            return;
        }
        match self.aliases.get(name).map(|e| &e.kind) {
            Some(AliasKind::Loc) => {
                // It prints no definition: it may stand only in `loc(...)`.
                let name = name.to_string();
                self.error_at(ParseError::LocationAliasAsAttribute { name }, span);
                return;
            }
            Some(_) => return,
            None => {}
        }
        let want = if name.starts_with('!') {
            "a type"
        } else {
            "an attribute"
        };
        let err = self.aliases.undefined(name, want);
        self.error_at(err, span);
    }

    /// `loc(...)` at the cursor (`loc` then `(`): skipped as balanced tokens; each alias name
    /// inside must be defined, now or (a location alias) later in the chunk.
    pub(super) fn skip_loc(&mut self) -> PResult<Span> {
        let start = self.bump();
        self.bump();
        let mut depth = 1usize;
        loop {
            let Some(t) = self.tok(self.pos) else {
                return Err(self.expected(&["')'"]));
            };
            match t.tok {
                Tok::LParen | Tok::LAngle | Tok::LBracket | Tok::LBrace => depth += 1,
                Tok::RParen | Tok::RAngle | Tok::RBracket | Tok::RBrace => {
                    depth -= 1;
                    if depth == 0 {
                        if !matches!(t.tok, Tok::RParen) {
                            return Err(self.expected(&["')'"]));
                        }
                        self.pos += 1;
                        return Ok(start.join(t.span));
                    }
                }
                Tok::AttrName(n)
                    if is_alias_name(n)
                        && !matches!(self.peek_at(1), Some(Tok::LAngle))
                        && self.aliases.get(n).is_none() =>
                {
                    if self.aliases.defining.as_deref() == Some(n) {
                        let err = self.aliases.undefined(n, "a location");
                        return Err(self.error_at(err, t.span));
                    }
                    self.aliases.deferred.push((n.to_string(), t.span));
                }
                _ => {}
            }
            self.pos += 1;
        }
    }

    /// Location alias uses that were never defined (end of chunk).
    pub(super) fn check_deferred_locs(&mut self) {
        for (name, span) in std::mem::take(&mut self.aliases.deferred) {
            if self.aliases.get(&name).is_none() {
                let err = ParseError::UndefinedAlias {
                    name,
                    expected: "a location alias defined in this file",
                };
                self.error_at(err, span);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn expansion_skips_strings_comments_and_dialect_names() {
        let mut a = Aliases::default();
        a.map.insert(
            "#m".to_string(),
            AliasEntry {
                kind: AliasKind::Attr(Attr::Unit),
                span: Span::default(),
                text: "affine_map<(d0) -> (d0)>".to_string(),
            },
        );
        let src = "memref<4xf32, #m> \"#m\" #m.x #m<1> #zz // #q";
        let (t, errs) = expand(src, 100, &a);
        assert_eq!(
            t,
            "memref<4xf32, affine_map<(d0) -> (d0)>> \"#m\" #m.x #m<1> #zz // #q"
        );
        let at = src.find("#zz").unwrap_or(0) + 100;
        let spans: Vec<Span> = errs.iter().map(|e| e.1).collect();
        assert_eq!(spans, vec![Span::new(at, at + 3)]);
        a.defining = Some("#zz".to_string());
        let (_, errs) = expand(src, 100, &a);
        assert!(matches!(errs[0].0, ParseError::AliasSelfReference { .. }));
    }
}
