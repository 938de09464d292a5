//! The format language of catalog rows: a declarative custom assembly format modelled on MLIR's
//! declarative assembly format, compiled once per row into a list of [`Elem`]s.
//!
//! ```text
//! format    ::= elem*
//! elem      ::= literal                      `ins`  `(`  `->`  `,`
//!             | '$' name ['^']               an operand segment or a format-bound attribute
//!             | 'type' '(' '$' name ')'      the type(s) of an operand or result segment
//!             | 'functional-type' '(' '$' operands ',' '$' results ')'
//!             |                              `(T, U) -> R`, `() -> (R, S)`
//!             | 'attr-dict'                  the optional `{...}` of the remaining attributes
//!             | '(' elem+ ')' '?'            an optional group
//! literal   ::= '`' (keyword | punctuation) '`'
//! ```
//!
//! Format-bound attributes are read by their kind, given in the row's attribute list after
//! `:` (see [`attr_specs`]): any attribute value (default), a bare keyword (`:kw`, or one of
//! a [`WordSet`] with `:kw=cmpi`), a string (`:str`), or flags `<w, w>` of a word set glued to
//! the literal before them (`:flags=overflow`, written `overflow<nsw>`).
//!
//! Names resolve against the row's segments (see [`super::Row`]): operands, then results
//! (only inside `type(...)` / `functional-type(...)`), then attributes. Rules checked by
//! [`compile`] (a row that breaks one fails the catalog's unit test, never a user's parse):
//! - every operand segment is referenced exactly once by `$name`;
//! - an optional group starts with a literal or an operand (that is how the reader decides
//!   whether the group is present: the literal, or a value, is the next token); its anchor
//!   (`$x^`) is an optional or variadic operand or an optional attribute, and the printer
//!   prints the group when the anchor is present (non-empty). The anchor may also be a result
//!   in `type($r)^` when the group starts with a literal: the result's type may be left
//!   unwritten (`pto.partition_view ... : A` without `-> B`, `pto.vsts ... -> R` with an
//!   optional result); an unwritten type is the unknown type, which agrees with every use,
//!   and the group prints when the result exists and its type is known. A group without an anchor must
//!   hold only literals: it is optional on input and always printed (e.g. the `,` that the
//!   January `make_tensor_view` form may omit);
//! - a variadic operand is followed by a literal (it reads `%a, %b, ...` until no value
//!   follows a `,`, so two adjacent lists would be ambiguous).
//!
//! Printing spacing is fixed by the language, not by rows: one space between elements, none
//! after `(` or `[`, none before `)`, `]` or `,`, none between a keyword and its `(` or a
//! value and its `[`.

use crate::front::lexer::Tok;

/// How many values a segment holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arity {
    One,
    /// `name?`: zero or one.
    Opt,
    /// `name*`: any number.
    Many,
}

/// How a format-bound attribute is read and printed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttrKind {
    /// Any attribute value (`[5, 128]`, `@callee`, `#pto.layout<nd>`).
    Any,
    /// A bare keyword (`slt` of `arith.cmpi`), kept as a string; with a word set, one of its
    /// words (`name:kw=cmpi`).
    Keyword(Option<&'static WordSet>),
    /// A string literal (`"PAT_ALL"` of `pto.pset_b8`; `name:str`).
    Str,
    /// `<w, w>` of words of the set, glued to the keyword before it (`overflow<nsw, nuw>`,
    /// `fastmath<fast>`; `name:flags=overflow`); kept as the dialect attribute
    /// (`#arith.overflow<nsw, nuw>`), which is also how the generic form writes it.
    Flags(&'static WordSet),
    /// A unit attribute set by the keyword of its optional group (`(`volatile` $volatile_^)?`,
    /// `name?:unit`): reads and prints nothing itself.
    Unit,
}

/// The words an enumerated attribute may take.
#[derive(Debug, PartialEq, Eq)]
pub struct WordSet {
    /// The name rows use after `=` (`cmpi`, `overflow`).
    pub name: &'static str,
    pub words: &'static [&'static str],
    /// `expected` labels, one per word (`'nsw'`).
    pub labels: &'static [&'static str],
    /// For flags: the dialect attribute that holds them (`#arith.overflow`).
    pub attr: &'static str,
}

/// The word sets rows may name (MLIR's `arith` predicates and flags, `pto.convert`'s controls).
pub const WORD_SETS: &[WordSet] = &[
    WordSet {
        name: "cmpi",
        words: &[
            "eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge",
        ],
        labels: &[
            "'eq'", "'ne'", "'slt'", "'sle'", "'sgt'", "'sge'", "'ult'", "'ule'", "'ugt'", "'uge'",
        ],
        attr: "",
    },
    WordSet {
        name: "cmpf",
        words: &[
            "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord", "ueq", "ugt", "uge", "ult",
            "ule", "une", "uno", "true",
        ],
        labels: &[
            "'false'", "'oeq'", "'ogt'", "'oge'", "'olt'", "'ole'", "'one'", "'ord'", "'ueq'",
            "'ugt'", "'uge'", "'ult'", "'ule'", "'une'", "'uno'", "'true'",
        ],
        attr: "",
    },
    WordSet {
        name: "overflow",
        words: &["nsw", "nuw"],
        labels: &["'nsw'", "'nuw'"],
        attr: "#arith.overflow",
    },
    // `pto.convert` (PTOAS `VPTOOps.td`): `round(r)` letters and `sat`/`nosat`.
    WordSet {
        name: "round",
        words: &["r", "a", "f", "c", "z", "o", "h"],
        labels: &["'r'", "'a'", "'f'", "'c'", "'z'", "'o'", "'h'"],
        attr: "",
    },
    WordSet {
        name: "sat",
        words: &["sat", "nosat"],
        labels: &["'sat'", "'nosat'"],
        attr: "",
    },
    WordSet {
        name: "fastmath",
        words: &[
            "none", "reassoc", "nnan", "ninf", "nsz", "arcp", "contract", "afn", "fast",
        ],
        labels: &[
            "'none'",
            "'reassoc'",
            "'nnan'",
            "'ninf'",
            "'nsz'",
            "'arcp'",
            "'contract'",
            "'afn'",
            "'fast'",
        ],
        attr: "#arith.fastmath",
    },
];

fn word_set(name: &str) -> Result<&'static WordSet, String> {
    WORD_SETS
        .iter()
        .find(|w| w.name == name)
        .ok_or_else(|| format!("unknown word set `{name}`"))
}

/// A named operand or result segment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Seg {
    pub name: &'static str,
    pub arity: Arity,
}

/// An attribute the row knows: format-bound (`$name` in the format) or dictionary-only.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttrSpec {
    pub name: &'static str,
    pub kind: AttrKind,
    /// Written as `name?`: a format-bound attribute that may be absent (an anchor).
    pub optional: bool,
    /// Referenced by `$name` in the format (else it may only appear in `attr-dict`).
    pub bound: bool,
}

/// What a `$name` refers to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ref {
    Operand(usize),
    Result(usize),
    Attr(usize),
}

/// A literal token of the format.
#[derive(Debug, Clone, PartialEq)]
pub struct Lit {
    pub text: &'static str,
    /// The token it matches: punctuation, or `BareId(text)` for a keyword.
    pub tok: Tok<'static>,
    /// The `expected` label of the literal (`'ins'`, `','`).
    pub label: &'static [&'static str],
}

impl Lit {
    pub fn is_keyword(&self) -> bool {
        matches!(self.tok, Tok::BareId(_))
    }
}

/// One element of a compiled format.
#[derive(Debug, Clone, PartialEq)]
pub enum Elem {
    Lit(Lit),
    /// `$name`: an operand segment or a format-bound attribute.
    Ref(Ref),
    /// `type($name)`.
    Type(Ref),
    /// `functional-type($operands, $results)`.
    FnType(Ref, Ref),
    AttrDict,
    /// `( ... )?`; `anchor` is `None` for an input-only group of literals.
    Optional {
        elems: Vec<Elem>,
        anchor: Option<Ref>,
    },
}

/// A row with its segments resolved and its format compiled.
#[derive(Debug, Clone, PartialEq)]
pub struct Compiled {
    pub operands: Vec<Seg>,
    pub results: Vec<Seg>,
    pub attrs: Vec<AttrSpec>,
    pub elems: Vec<Elem>,
    /// Groups of pieces whose types agree (`Ref::Operand` / `Ref::Result`).
    pub same: Vec<Vec<Ref>>,
    /// Per result segment: whether the format writes its types anywhere (a segment that
    /// never does takes one unknown-typed result per name given).
    pub result_typed: Vec<bool>,
}

/// Parses a segment list: `src pre? fp? dst`, `xs*`.
pub fn segments(spec: &'static str) -> Vec<Seg> {
    spec.split_whitespace()
        .map(|w| {
            if let Some(n) = w.strip_suffix('?') {
                Seg {
                    name: n,
                    arity: Arity::Opt,
                }
            } else if let Some(n) = w.strip_suffix('*') {
                Seg {
                    name: n,
                    arity: Arity::Many,
                }
            } else {
                Seg {
                    name: w,
                    arity: Arity::One,
                }
            }
        })
        .collect()
}

/// Parses an attribute list: `predicate:kw=cmpi layout sizes? pattern:str ovf?:flags=overflow
/// volatile_?:unit *`
/// (`*`: any other key is allowed too; it is dropped here and read by
/// [`super::Row::open_attrs`]).
pub fn attr_specs(spec: &'static str) -> Result<Vec<AttrSpec>, String> {
    spec.split_whitespace()
        .filter(|w| *w != "*")
        .map(|w| {
            let (w, kind) = match w.split_once(':') {
                None => (w, AttrKind::Any),
                Some((n, "kw")) => (n, AttrKind::Keyword(None)),
                Some((n, "str")) => (n, AttrKind::Str),
                Some((n, "unit")) => (n, AttrKind::Unit),
                Some((n, k)) => match k.split_once('=') {
                    Some(("kw", set)) => (n, AttrKind::Keyword(Some(word_set(set)?))),
                    Some(("flags", set)) => (n, AttrKind::Flags(word_set(set)?)),
                    _ => return Err(format!("unknown attribute kind `{k}` of `{n}`")),
                },
            };
            let (name, optional) = match w.strip_suffix('?') {
                Some(n) => (n, true),
                None => (w, false),
            };
            Ok(AttrSpec {
                name,
                kind,
                optional,
                bound: false,
            })
        })
        .collect()
}

fn punct(text: &str) -> Option<(Tok<'static>, &'static [&'static str])> {
    Some(match text {
        "(" => (Tok::LParen, &["'('"]),
        ")" => (Tok::RParen, &["')'"]),
        "[" => (Tok::LBracket, &["'['"]),
        "]" => (Tok::RBracket, &["']'"]),
        "<" => (Tok::LAngle, &["'<'"]),
        ">" => (Tok::RAngle, &["'>'"]),
        "," => (Tok::Comma, &["','"]),
        ":" => (Tok::Colon, &["':'"]),
        "=" => (Tok::Equals, &["'='"]),
        "->" => (Tok::Arrow, &["'->'"]),
        _ => return None,
    })
}

/// A cursor over the format string.
struct Src {
    s: &'static str,
    at: usize,
}

impl Src {
    fn skip_ws(&mut self) {
        while self.s[self.at..].starts_with(char::is_whitespace) {
            self.at += 1;
        }
    }
    fn eat(&mut self, p: &str) -> bool {
        self.skip_ws();
        if self.s[self.at..].starts_with(p) {
            self.at += p.len();
            true
        } else {
            false
        }
    }
    fn ident(&mut self) -> Option<&'static str> {
        let rest = &self.s[self.at..];
        let n = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        (n > 0).then(|| {
            self.at += n;
            &rest[..n]
        })
    }
    fn err(&self, what: &str) -> String {
        format!("{what} at byte {} of `{}`", self.at, self.s)
    }
}

/// Compiles a row's segments and format (see the module doc for the rules it checks).
pub fn compile(
    operands: &'static str,
    results: &'static str,
    attrs: &'static str,
    format: &'static str,
    same: &'static str,
) -> Result<Compiled, String> {
    let mut c = Compiled {
        operands: segments(operands),
        results: segments(results),
        attrs: attr_specs(attrs)?,
        elems: Vec::new(),
        same: Vec::new(),
        result_typed: Vec::new(),
    };
    let mut src = Src { s: format, at: 0 };
    let mut used = vec![0u32; c.operands.len()];
    c.elems = elems(&mut src, &mut c, &mut used, 0)?;
    src.skip_ws();
    if src.at < format.len() {
        return Err(src.err("unexpected text"));
    }
    for (i, n) in used.iter().enumerate() {
        if *n != 1 {
            return Err(format!(
                "operand ${} is referenced {n} times in `{format}` (must be once)",
                c.operands[i].name
            ));
        }
    }
    for group in same.split(';') {
        let refs = group
            .split_whitespace()
            .map(|n| match resolve(&c, n) {
                Some(r @ (Ref::Operand(_) | Ref::Result(_))) => Ok(r),
                _ => Err(format!("same-type group names unknown piece `{n}`")),
            })
            .collect::<Result<Vec<_>, _>>()?;
        if !refs.is_empty() {
            c.same.push(refs);
        }
    }
    check_variadics(&c.elems, &c)?;
    c.result_typed = (0..c.results.len())
        .map(|i| writes_result(&c.elems, i))
        .collect();
    Ok(c)
}

fn resolve(c: &Compiled, name: &str) -> Option<Ref> {
    if let Some(i) = c.operands.iter().position(|s| s.name == name) {
        return Some(Ref::Operand(i));
    }
    if let Some(i) = c.results.iter().position(|s| s.name == name) {
        return Some(Ref::Result(i));
    }
    c.attrs.iter().position(|a| a.name == name).map(Ref::Attr)
}

fn dollar(src: &mut Src, c: &Compiled) -> Result<Ref, String> {
    if !src.eat("$") {
        return Err(src.err("expected `$name`"));
    }
    let name = src.ident().ok_or_else(|| src.err("expected a name"))?;
    resolve(c, name).ok_or_else(|| src.err(&format!("unknown name `${name}`")))
}

fn elems(
    src: &mut Src,
    c: &mut Compiled,
    used: &mut [u32],
    depth: usize,
) -> Result<Vec<Elem>, String> {
    let mut out = Vec::new();
    loop {
        src.skip_ws();
        if src.at >= src.s.len() || src.s[src.at..].starts_with(')') {
            return Ok(out);
        }
        if src.eat("`") {
            let end = src.s[src.at..]
                .find('`')
                .ok_or_else(|| src.err("unterminated literal"))?;
            let text = &src.s[src.at..src.at + end];
            src.at += end + 1;
            let (tok, label) = match punct(text) {
                Some(p) => p,
                None if !text.is_empty()
                    && text
                        .chars()
                        .all(|ch| ch.is_ascii_alphanumeric() || ch == '_') =>
                {
                    let label: &'static str = Box::leak(format!("'{text}'").into_boxed_str());
                    let label: &'static [&'static str] = Box::leak(vec![label].into_boxed_slice());
                    (Tok::BareId(text), label)
                }
                None => return Err(src.err(&format!("unsupported literal `{text}`"))),
            };
            out.push(Elem::Lit(Lit { text, tok, label }));
        } else if src.s[src.at..].starts_with('$') {
            let r = dollar(src, c)?;
            match r {
                Ref::Operand(i) => used[i] += 1,
                Ref::Attr(i) => c.attrs[i].bound = true,
                Ref::Result(_) => return Err(src.err("a result is only written as type($r)")),
            }
            if depth == 0 && src.s[src.at..].starts_with('^') {
                return Err(src.err("anchor `^` outside an optional group"));
            }
            out.push(Elem::Ref(r));
        } else if src.eat("type(") {
            let r = dollar(src, c)?;
            if matches!(r, Ref::Attr(_)) {
                return Err(src.err("type() of an attribute"));
            }
            if !src.eat(")") {
                return Err(src.err("expected `)`"));
            }
            out.push(Elem::Type(r));
        } else if src.eat("functional-type(") {
            let a = dollar(src, c)?;
            if !src.eat(",") {
                return Err(src.err("expected `,`"));
            }
            let b = dollar(src, c)?;
            if !src.eat(")") {
                return Err(src.err("expected `)`"));
            }
            match (a, b) {
                (Ref::Operand(_), Ref::Result(_)) => out.push(Elem::FnType(a, b)),
                _ => return Err(src.err("functional-type($operands, $results)")),
            }
        } else if src.eat("attr-dict") {
            out.push(Elem::AttrDict);
        } else if src.eat("(") {
            if depth > 0 {
                return Err(src.err("nested optional group"));
            }
            let start = src.at;
            // Anchors are marked in place: scan the group's text for `$name^`.
            let inner = elems(src, c, used, depth + 1)?;
            let text = &src.s[start..src.at];
            if !src.eat(")?") {
                return Err(src.err("expected `)?`"));
            }
            let anchors: Vec<&str> = text
                .split('$')
                .skip(1)
                .filter_map(|t| {
                    let n = t
                        .find(|ch: char| !(ch.is_ascii_alphanumeric() || ch == '_'))
                        .unwrap_or(t.len());
                    (t[n..].starts_with('^') || t[n..].starts_with(")^")).then(|| &t[..n])
                })
                .collect();
            let anchor = match anchors.as_slice() {
                [] => None,
                [n] => resolve(c, n),
                _ => return Err(src.err("two anchors in one group")),
            };
            match (inner.first(), anchor) {
                (None, _) => return Err(src.err("empty optional group")),
                (Some(Elem::Lit(_)), None) if inner.iter().all(|e| matches!(e, Elem::Lit(_))) => {}
                (_, None) => return Err(src.err("optional group without an anchor `$x^`")),
                (Some(Elem::Lit(_) | Elem::Ref(Ref::Operand(_))), Some(a)) => {
                    let ok = match a {
                        Ref::Operand(i) => c.operands[i].arity != Arity::One,
                        Ref::Attr(i) => c.attrs[i].optional,
                        // `(`->` type($r)^)?`: the result's type may be left unwritten.
                        Ref::Result(i) => {
                            matches!(inner.first(), Some(Elem::Lit(_)))
                                && inner.contains(&Elem::Type(Ref::Result(i)))
                        }
                    };
                    if !ok {
                        return Err(src.err("the anchor must be optional or variadic"));
                    }
                }
                _ => return Err(src.err("an optional group starts with a literal or an operand")),
            }
            out.push(Elem::Optional {
                elems: inner,
                anchor,
            });
        } else {
            return Err(src.err("unexpected format text"));
        }
        // An anchor mark after `$name` inside a group.
        if depth > 0 {
            src.eat("^");
        }
    }
}

fn writes_result(elems: &[Elem], i: usize) -> bool {
    elems.iter().any(|e| match e {
        Elem::Type(Ref::Result(r)) | Elem::FnType(_, Ref::Result(r)) => *r == i,
        Elem::Optional { elems, .. } => writes_result(elems, i),
        _ => false,
    })
}

/// A variadic operand must be followed by a literal.
fn check_variadics(elems: &[Elem], c: &Compiled) -> Result<(), String> {
    let flat: Vec<&Elem> = elems
        .iter()
        .flat_map(|e| match e {
            Elem::Optional { elems, .. } => elems.iter().collect::<Vec<_>>(),
            e => vec![e],
        })
        .collect();
    for (i, e) in flat.iter().enumerate() {
        if let Elem::Ref(Ref::Operand(o)) = e {
            if c.operands[*o].arity == Arity::Many
                && flat.get(i + 1).is_some_and(|n| matches!(n, Elem::Ref(_)))
            {
                return Err(format!(
                    "variadic ${} is followed by another `$name`",
                    c.operands[*o].name
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compiles_a_tstore_like_format() {
        let c = compile(
            "src pre? dst",
            "",
            "layout",
            "`ins` `(` $src `:` type($src) (`,` $pre^ `:` type($pre))? `)` \
             `outs` `(` $dst `:` type($dst) `)` attr-dict",
            "",
        )
        .unwrap();
        assert_eq!(c.operands.len(), 3);
        assert!(matches!(&c.elems[0], Elem::Lit(l) if l.text == "ins" && l.is_keyword()));
        let Elem::Optional { elems, anchor } = &c.elems[5] else {
            panic!("{:?}", c.elems[5]);
        };
        assert_eq!(*anchor, Some(Ref::Operand(1)));
        assert!(matches!(&elems[0], Elem::Lit(l) if l.tok == Tok::Comma));
        assert_eq!(c.elems.last(), Some(&Elem::AttrDict));
    }

    #[test]
    fn resolves_results_attrs_and_same_groups() {
        let c = compile(
            "lhs rhs",
            "result",
            "predicate:kw",
            "$predicate `,` $lhs `,` $rhs attr-dict `:` type($lhs)",
            "lhs rhs",
        )
        .unwrap();
        assert_eq!(c.elems[0], Elem::Ref(Ref::Attr(0)));
        assert!(c.attrs[0].bound);
        assert_eq!(c.attrs[0].kind, AttrKind::Keyword(None));
        assert_eq!(c.same, vec![vec![Ref::Operand(0), Ref::Operand(1)]]);
        let f = compile(
            "operands*",
            "results*",
            "callee",
            "$callee `(` $operands `)` attr-dict `:` functional-type($operands, $results)",
            "",
        )
        .unwrap();
        assert_eq!(
            f.elems.last(),
            Some(&Elem::FnType(Ref::Operand(0), Ref::Result(0)))
        );
    }

    #[test]
    fn result_anchors_and_attribute_kinds() {
        let c = compile(
            "a",
            "r u?",
            "p:kw=cmpi o?:flags=overflow s:str",
            "$p $a (`overflow` $o^)? $s `:` type($a) (`->` type($r)^)? (`,` type($u)^)?",
            "",
        )
        .unwrap();
        assert!(matches!(
            &c.elems[6],
            Elem::Optional {
                anchor: Some(Ref::Result(0)),
                ..
            }
        ));
        assert_eq!(c.result_typed, vec![true, true]);
        assert!(matches!(c.attrs[0].kind, AttrKind::Keyword(Some(w)) if w.name == "cmpi"));
        assert!(matches!(c.attrs[1].kind, AttrKind::Flags(w) if w.attr == "#arith.overflow"));
        assert_eq!(c.attrs[2].kind, AttrKind::Str);
        let untyped = compile("", "rs*", "", "attr-dict", "").unwrap();
        assert_eq!(untyped.result_typed, vec![false]);
    }

    #[test]
    fn input_only_group_of_literals() {
        let c = compile("a b*", "", "", "$a (`,`)? `[` $b `]`", "").unwrap();
        assert!(matches!(&c.elems[1], Elem::Optional { anchor: None, .. }));
    }

    #[test]
    fn rejects_bad_formats() {
        let bad = [
            ("a", "", "", "$a $a", "", "referenced 2 times"),
            ("a", "", "", "", "", "referenced 0 times"),
            ("a", "", "", "$b", "", "unknown name"),
            ("a", "", "", "$a `@`", "", "unsupported literal"),
            ("a?", "", "", "($a)?", "", "without an anchor"),
            ("a", "", "", "(`x` $a^)?", "", "optional or variadic"),
            ("a* b", "", "", "$a $b", "", "variadic $a"),
            ("a", "", "", "$a `x", "", "unterminated"),
            ("a", "r", "", "$a $r", "", "only written as type"),
            ("a", "", "", "$a type(", "", "expected `$name`"),
            ("a", "", "", "$a", "zz", "unknown piece"),
            ("a?", "", "", "(type($a) $a^)?", "", "starts with a literal"),
            ("a", "r", "p:kw=nope", "$a $p", "", "unknown word set"),
            ("a", "r", "p:what", "$a $p", "", "unknown attribute kind"),
            ("a", "r", "", "$a (type($r)^)?", "", "starts with a literal"),
            ("a", "r", "", "$a (`->` $a^)?", "", "optional or variadic"),
        ];
        for (ops, res, attrs, fmt, same, want) in bad {
            let e = compile(ops, res, attrs, fmt, same).unwrap_err();
            assert!(e.contains(want), "`{fmt}`: {e}");
        }
    }
}
