//! The one interpreter of compiled formats: [`parse`] walks a row's elements against a
//! [`Reader`] and returns the [`Pieces`] read; [`print`] walks the same elements against a
//! [`Writer`]. Both sides follow the same element list, so whatever `print` writes, `parse` reads
//! back into the same pieces (fmt output is a fixed point).
//!
//! The reader is the statement parser (`front::parser::catalog_form`: tokens, `expected ...`
//! diagnostics, the type and attribute grammars); the writer is the IR printer
//! (`ir::printer::catalog`). Neither knows any op: what an op looks like is only in its row.
//!
//! Reading rules, per element:
//! - literal: that token, else `expected '<literal>'` (the op is the diagnostic's context);
//! - `$operand`: one value; `name?`: a value if one is next; `name*`: values separated by `,`
//!   while a value follows the `,` (none at all is fine: `shape = []`);
//! - `$attr`: by the attribute's kind: an attribute value, a bare keyword (of its word set,
//!   else `expected` lists the words), a string, or `<flags>` of its word set;
//! - `type($operand)`: as many types, `,`-separated, as values were read for it (a mismatch is
//!   `expected N operand types, found M`); `type($result)`: one type, or a `,` list for `r*`;
//! - `functional-type($ops, $res)`: `(T, ...) -> R` or `-> (R, ...)`;
//! - `attr-dict`: an optional `{...}`;
//! - `( ... )?`: read when its first element (a literal, or a value for an operand) is next;
//!   once read, its anchor is required (`fp` must be followed by a value); a group anchored on
//!   a result (`(`->` type($r)^)?`) prints when the result exists with a known type.

use super::format::{Arity, AttrKind, Compiled, Elem, Lit, Ref};
use crate::front::lexer::Tok;

/// The `,` separating list items.
pub const COMMA: Lit = Lit {
    text: ",",
    tok: Tok::Comma,
    label: &["','"],
};

const LPAREN: Lit = Lit {
    text: "(",
    tok: Tok::LParen,
    label: &["'('"],
};

const RPAREN: Lit = Lit {
    text: ")",
    tok: Tok::RParen,
    label: &["')'"],
};

const ARROW: Lit = Lit {
    text: "->",
    tok: Tok::Arrow,
    label: &["'->'"],
};

/// What the interpreter may look for ahead of the cursor.
#[derive(Debug, Clone, Copy)]
pub enum Look<'l> {
    Lit(&'l Lit),
    Value,
}

/// The parsing side: token-level reads at a cursor.
pub trait Reader {
    type Use;
    type Ty: Copy + PartialEq;
    type Attr;
    type Dict;
    type Err;
    /// Whether the token `ahead` tokens past the cursor is `what` (no diagnostic).
    fn at(&mut self, ahead: usize, what: Look<'_>) -> bool;
    fn lit(&mut self, l: &Lit) -> Result<(), Self::Err>;
    fn value(&mut self) -> Result<Self::Use, Self::Err>;
    fn ty(&mut self) -> Result<Self::Ty, Self::Err>;
    fn attr(&mut self, kind: AttrKind) -> Result<Self::Attr, Self::Err>;
    fn dict(&mut self) -> Result<Option<Self::Dict>, Self::Err>;
    /// The error for `found` types where `expected` were due.
    fn type_count(&mut self, expected: usize, found: usize) -> Self::Err;
}

/// What a row's format read, by segment.
pub struct Pieces<U, T, A, D> {
    pub operands: Vec<Vec<U>>,
    /// Written types per operand segment (empty where the format writes none).
    pub operand_types: Vec<Vec<T>>,
    /// Written types per result segment (empty where the format writes none).
    pub result_types: Vec<Vec<T>>,
    /// Format-bound attributes, by the row's attribute index.
    pub attrs: Vec<Option<A>>,
    pub dict: Option<D>,
}

/// The pieces a reader `R` produces.
pub type PiecesOf<R> =
    Pieces<<R as Reader>::Use, <R as Reader>::Ty, <R as Reader>::Attr, <R as Reader>::Dict>;

/// Of several rows sharing an op name, the one whose first literal after its leading single
/// operands is next (LL(k) on that literal); the last row when none matches (its error is the
/// one reported).
pub fn pick<R: Reader + ?Sized>(rows: &[&'static Compiled], r: &mut R) -> usize {
    for (i, c) in rows.iter().enumerate() {
        let lead = c
            .elems
            .iter()
            .take_while(
                |e| matches!(e, Elem::Ref(Ref::Operand(o)) if c.operands[*o].arity == Arity::One),
            )
            .count();
        if let Some(Elem::Lit(l)) = c.elems.get(lead) {
            if r.at(lead, Look::Lit(l)) {
                return i;
            }
        }
    }
    rows.len().saturating_sub(1)
}

/// Reads a row's custom form (after the op name).
pub fn parse<R: Reader + ?Sized>(c: &Compiled, r: &mut R) -> Result<PiecesOf<R>, R::Err> {
    let mut p = Pieces {
        operands: c.operands.iter().map(|_| Vec::new()).collect(),
        operand_types: c.operands.iter().map(|_| Vec::new()).collect(),
        result_types: c.results.iter().map(|_| Vec::new()).collect(),
        attrs: c.attrs.iter().map(|_| None).collect(),
        dict: None,
    };
    parse_elems(c, &c.elems, None, r, &mut p)?;
    Ok(p)
}

/// `anchor`: the anchor of the optional group being read, which is required there.
fn parse_elems<R: Reader + ?Sized>(
    c: &Compiled,
    elems: &[Elem],
    anchor: Option<Ref>,
    r: &mut R,
    p: &mut PiecesOf<R>,
) -> Result<(), R::Err> {
    for e in elems {
        match e {
            Elem::Lit(l) => r.lit(l)?,
            Elem::Ref(Ref::Operand(i)) => {
                let vals = &mut p.operands[*i];
                let arity = match c.operands[*i].arity {
                    Arity::Opt if anchor == Some(Ref::Operand(*i)) => Arity::One,
                    a => a,
                };
                match arity {
                    Arity::One => vals.push(r.value()?),
                    Arity::Opt => {
                        if r.at(0, Look::Value) {
                            vals.push(r.value()?);
                        }
                    }
                    Arity::Many => {
                        if r.at(0, Look::Value) || anchor == Some(Ref::Operand(*i)) {
                            vals.push(r.value()?);
                            while r.at(0, Look::Lit(&COMMA)) && r.at(1, Look::Value) {
                                r.lit(&COMMA)?;
                                vals.push(r.value()?);
                            }
                        }
                    }
                }
            }
            Elem::Ref(Ref::Attr(i)) => p.attrs[*i] = Some(r.attr(c.attrs[*i].kind)?),
            Elem::Ref(Ref::Result(_)) => {}
            Elem::Type(Ref::Operand(i)) => {
                let n = p.operands[*i].len();
                let mut tys = Vec::with_capacity(n);
                for k in 0..n {
                    if k > 0 {
                        if !r.at(0, Look::Lit(&COMMA)) {
                            return Err(r.type_count(n, k));
                        }
                        r.lit(&COMMA)?;
                    }
                    tys.push(r.ty()?);
                }
                p.operand_types[*i] = tys;
            }
            Elem::Type(Ref::Result(i)) => {
                let mut tys = vec![r.ty()?];
                if c.results[*i].arity == Arity::Many {
                    while r.at(0, Look::Lit(&COMMA)) {
                        r.lit(&COMMA)?;
                        tys.push(r.ty()?);
                    }
                }
                p.result_types[*i] = tys;
            }
            Elem::Type(Ref::Attr(_)) => {}
            Elem::FnType(Ref::Operand(o), Ref::Result(res)) => {
                r.lit(&LPAREN)?;
                let tys = ty_list_until_rparen(r)?;
                let n = p.operands[*o].len();
                if tys.len() != n {
                    return Err(r.type_count(n, tys.len()));
                }
                p.operand_types[*o] = tys;
                r.lit(&ARROW)?;
                p.result_types[*res] = if r.at(0, Look::Lit(&LPAREN)) {
                    r.lit(&LPAREN)?;
                    ty_list_until_rparen(r)?
                } else {
                    vec![r.ty()?]
                };
            }
            Elem::FnType(..) => {}
            Elem::AttrDict => p.dict = r.dict()?,
            Elem::Optional { elems, anchor } => {
                let present = match elems.first() {
                    Some(Elem::Lit(l)) => r.at(0, Look::Lit(l)),
                    Some(Elem::Ref(Ref::Operand(_))) => r.at(0, Look::Value),
                    _ => false,
                };
                if present {
                    parse_elems(c, elems, *anchor, r, p)?;
                }
            }
        }
    }
    Ok(())
}

/// `T, U)` or `)` (the `(` already read).
fn ty_list_until_rparen<R: Reader + ?Sized>(r: &mut R) -> Result<Vec<R::Ty>, R::Err> {
    let mut tys = Vec::new();
    if !r.at(0, Look::Lit(&RPAREN)) {
        tys.push(r.ty()?);
        while r.at(0, Look::Lit(&COMMA)) {
            r.lit(&COMMA)?;
            tys.push(r.ty()?);
        }
    }
    r.lit(&RPAREN)?;
    Ok(tys)
}

/// The printing side: writes pieces of one op.
pub trait Writer {
    fn raw(&mut self, text: &str);
    fn operand(&mut self, i: usize);
    fn operand_ty(&mut self, i: usize);
    fn result_ty(&mut self, i: usize);
    fn n_results(&self) -> usize;
    /// Whether result `i`'s type is known (an unwritten one is not printed back).
    fn result_known(&self, i: usize) -> bool;
    fn has_attr(&self, a: usize) -> bool;
    fn attr(&mut self, a: usize, kind: AttrKind);
    /// Whether `attr-dict` has anything to print.
    fn dict_nonempty(&self) -> bool;
    /// `{...}` of the attributes that are not format-bound.
    fn dict(&mut self);
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Start,
    Open,
    Keyword,
    Value,
    Other,
}

struct Out<'w, W: Writer + ?Sized> {
    w: &'w mut W,
    prev: Class,
    /// First operand index of each operand segment, and the segment sizes.
    starts: Vec<usize>,
    sizes: Vec<usize>,
    rstarts: Vec<usize>,
    rsizes: Vec<usize>,
}

impl<W: Writer + ?Sized> Out<'_, W> {
    fn gap(&mut self, glued: bool) {
        if !glued && self.prev != Class::Open {
            self.w.raw(" ");
        }
    }
}

/// Prints a row's custom form (after the op name) for an op whose operand segments have the
/// sizes `segs`.
pub fn print<W: Writer + ?Sized>(c: &Compiled, segs: &[u32], w: &mut W) {
    let sizes: Vec<usize> = segs.iter().map(|&n| n as usize).collect();
    let starts = offsets(&sizes);
    let n = w.n_results();
    let fixed = c.results.iter().filter(|s| s.arity == Arity::One).count();
    let rsizes: Vec<usize> = c
        .results
        .iter()
        .map(|s| match s.arity {
            Arity::One => 1,
            _ => n.saturating_sub(fixed),
        })
        .collect();
    let rstarts = offsets(&rsizes);
    let mut o = Out {
        w,
        prev: Class::Start,
        starts,
        sizes,
        rstarts,
        rsizes,
    };
    print_elems(c, &c.elems, &mut o);
}

fn offsets(sizes: &[usize]) -> Vec<usize> {
    let mut at = 0;
    sizes
        .iter()
        .map(|n| {
            let s = at;
            at += n;
            s
        })
        .collect()
}

fn present<W: Writer + ?Sized>(o: &Out<'_, W>, anchor: Option<Ref>) -> bool {
    match anchor {
        None => true,
        Some(Ref::Operand(i)) => o.sizes.get(i).is_some_and(|n| *n > 0),
        Some(Ref::Attr(a)) => o.w.has_attr(a),
        Some(Ref::Result(i)) => {
            let (s, n) = (o.rstarts[i], o.rsizes[i]);
            n > 0 && (s..s + n).all(|k| o.w.result_known(k))
        }
    }
}

fn print_elems<W: Writer + ?Sized>(c: &Compiled, elems: &[Elem], o: &mut Out<'_, W>) {
    for e in elems {
        match e {
            Elem::Lit(l) => {
                let t = l.text;
                let glued = matches!(t, ")" | "]" | ",")
                    || (t == "(" && o.prev == Class::Keyword)
                    || (t == "[" && o.prev == Class::Value);
                o.gap(glued);
                o.w.raw(t);
                o.prev = match t {
                    "(" | "[" => Class::Open,
                    _ if l.is_keyword() => Class::Keyword,
                    _ => Class::Other,
                };
            }
            Elem::Ref(Ref::Operand(i)) => {
                let (s, n) = (o.starts[*i], o.sizes.get(*i).copied().unwrap_or(0));
                for k in 0..n {
                    if k == 0 {
                        o.gap(false);
                    } else {
                        o.w.raw(", ");
                    }
                    o.w.operand(s + k);
                    o.prev = Class::Value;
                }
            }
            Elem::Ref(Ref::Attr(a)) => {
                if o.w.has_attr(*a) && c.attrs[*a].kind != AttrKind::Unit {
                    let kind = c.attrs[*a].kind;
                    // Flags glue to their keyword: `overflow<nsw>`.
                    o.gap(matches!(kind, AttrKind::Flags(_)) && o.prev == Class::Keyword);
                    o.w.attr(*a, kind);
                    o.prev = Class::Keyword;
                }
            }
            Elem::Type(Ref::Operand(i)) => {
                let (s, n) = (o.starts[*i], o.sizes.get(*i).copied().unwrap_or(0));
                for k in 0..n {
                    if k == 0 {
                        o.gap(false);
                    } else {
                        o.w.raw(", ");
                    }
                    o.w.operand_ty(s + k);
                    o.prev = Class::Other;
                }
            }
            Elem::Type(Ref::Result(i)) => {
                let (s, n) = (o.rstarts[*i], o.rsizes[*i]);
                o.gap(false);
                for k in 0..n {
                    if k > 0 {
                        o.w.raw(", ");
                    }
                    o.w.result_ty(s + k);
                }
                o.prev = Class::Other;
            }
            Elem::FnType(Ref::Operand(op), Ref::Result(res)) => {
                o.gap(false);
                o.w.raw("(");
                let (s, n) = (o.starts[*op], o.sizes.get(*op).copied().unwrap_or(0));
                for k in 0..n {
                    if k > 0 {
                        o.w.raw(", ");
                    }
                    o.w.operand_ty(s + k);
                }
                o.w.raw(") -> ");
                let (s, n) = (o.rstarts[*res], o.rsizes[*res]);
                if n != 1 {
                    o.w.raw("(");
                }
                for k in 0..n {
                    if k > 0 {
                        o.w.raw(", ");
                    }
                    o.w.result_ty(s + k);
                }
                if n != 1 {
                    o.w.raw(")");
                }
                o.prev = Class::Other;
            }
            Elem::AttrDict => {
                if o.w.dict_nonempty() {
                    o.gap(false);
                    o.w.dict();
                    o.prev = Class::Other;
                }
            }
            Elem::Optional { elems, anchor } => {
                if present(o, *anchor) {
                    print_elems(c, elems, o);
                }
            }
            Elem::Ref(Ref::Result(_)) | Elem::Type(Ref::Attr(_)) | Elem::FnType(..) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::front::catalog::format::compile;

    /// Whitespace-separated tokens; values start with `%`, anything else is a type or attribute.
    struct Toks {
        toks: Vec<String>,
        at: usize,
    }

    impl Toks {
        fn new(s: &str) -> Self {
            let spaced = s
                .replace('(', " ( ")
                .replace(')', " ) ")
                .replace('[', " [ ")
                .replace(']', " ] ")
                .replace(',', " , ");
            Toks {
                toks: spaced.split_whitespace().map(str::to_string).collect(),
                at: 0,
            }
        }
        fn next(&mut self) -> Option<String> {
            let t = self.toks.get(self.at).cloned();
            self.at += 1;
            t
        }
    }

    impl Reader for Toks {
        type Use = String;
        type Ty = usize;
        type Attr = String;
        type Dict = ();
        type Err = String;
        fn at(&mut self, ahead: usize, what: Look<'_>) -> bool {
            let t = self.toks.get(self.at + ahead);
            match what {
                Look::Value => t.is_some_and(|t| t.starts_with('%')),
                Look::Lit(l) => t.is_some_and(|t| t == l.text),
            }
        }
        fn lit(&mut self, l: &Lit) -> Result<(), String> {
            match self.next() {
                Some(t) if t == l.text => Ok(()),
                t => Err(format!("expected {}, found {t:?}", l.label[0])),
            }
        }
        fn value(&mut self) -> Result<String, String> {
            match self.next() {
                Some(t) if t.starts_with('%') => Ok(t),
                t => Err(format!("expected value, found {t:?}")),
            }
        }
        fn ty(&mut self) -> Result<usize, String> {
            // Types are interned by position in a global list the writer reads back.
            let t = self.next().ok_or("expected type")?;
            TYPES.with(|v| {
                let mut v = v.borrow_mut();
                v.push(t);
                Ok(v.len() - 1)
            })
        }
        fn attr(&mut self, _: AttrKind) -> Result<String, String> {
            self.next().ok_or_else(|| "expected attribute".to_string())
        }
        fn dict(&mut self) -> Result<Option<()>, String> {
            Ok(None)
        }
        fn type_count(&mut self, expected: usize, found: usize) -> String {
            format!("expected {expected} operand types, found {found}")
        }
    }

    thread_local! {
        static TYPES: std::cell::RefCell<Vec<String>> = const { std::cell::RefCell::new(Vec::new()) };
    }

    struct Pr<'a> {
        out: String,
        vals: Vec<String>,
        tys: Vec<Option<usize>>,
        rtys: Vec<usize>,
        attrs: &'a [Option<String>],
    }

    impl Writer for Pr<'_> {
        fn raw(&mut self, text: &str) {
            self.out.push_str(text);
        }
        fn operand(&mut self, i: usize) {
            self.out.push_str(&self.vals[i]);
        }
        fn operand_ty(&mut self, i: usize) {
            let t = self.tys[i].map(|t| TYPES.with(|v| v.borrow()[t].clone()));
            self.out.push_str(&t.unwrap_or_default());
        }
        fn result_ty(&mut self, i: usize) {
            let t = TYPES.with(|v| v.borrow()[self.rtys[i]].clone());
            self.out.push_str(&t);
        }
        fn n_results(&self) -> usize {
            self.rtys.len()
        }
        fn result_known(&self, _: usize) -> bool {
            true
        }
        fn has_attr(&self, a: usize) -> bool {
            self.attrs.get(a).is_some_and(Option::is_some)
        }
        fn attr(&mut self, a: usize, _: AttrKind) {
            let s = self.attrs[a].clone().unwrap_or_default();
            self.out.push_str(&s);
        }
        fn dict_nonempty(&self) -> bool {
            false
        }
        fn dict(&mut self) {}
    }

    /// Reads `text` with the format, prints the pieces back.
    fn round(
        ops: &'static str,
        res: &'static str,
        attrs: &'static str,
        fmt: &'static str,
        text: &str,
    ) -> Result<String, String> {
        let c = compile(ops, res, attrs, fmt, "").unwrap();
        let mut r = Toks::new(text);
        let p = parse(&c, &mut r)?;
        if r.at < r.toks.len() {
            return Err(format!("trailing {:?}", &r.toks[r.at..]));
        }
        let segs: Vec<u32> = p.operands.iter().map(|v| v.len() as u32).collect();
        let vals: Vec<String> = p.operands.iter().flatten().cloned().collect();
        let tys: Vec<Option<usize>> = p
            .operands
            .iter()
            .zip(&p.operand_types)
            .flat_map(|(v, t)| (0..v.len()).map(|k| t.get(k).copied()).collect::<Vec<_>>())
            .collect();
        let rtys: Vec<usize> = p.result_types.iter().flatten().copied().collect();
        let mut w = Pr {
            out: String::new(),
            vals,
            tys,
            rtys,
            attrs: &p.attrs,
        };
        print(&c, &segs, &mut w);
        Ok(w.out)
    }

    const TSTORE: &str = "`ins` `(` $src `:` type($src) (`,` $pre^ `:` type($pre))? \
                          (`fp` $fp^ `:` type($fp))? `)` `outs` `(` $dst `:` type($dst) `)` attr-dict";

    #[test]
    fn optional_groups_round_trip() {
        for text in [
            " ins(%a : T) outs(%b : U)",
            " ins(%a : T, %p : i64) outs(%b : U)",
            " ins(%a : T fp %f : F) outs(%b : U)",
            " ins(%a : T, %p : i64 fp %f : F) outs(%b : U)",
        ] {
            assert_eq!(
                round("src pre? fp? dst", "", "", TSTORE, text).as_deref(),
                Ok(text)
            );
        }
    }

    #[test]
    fn variadics_attrs_and_results() {
        let f = "$source `[` $offsets `]` `sizes` $sizes (`valid` `[` $valid^ `]`)? `:` type($source) `->` type($result)";
        let t = " %t[%i, %j] sizes [8,8] valid [%a] : A -> B";
        // The mock's attribute is one token; brackets print as read.
        let out = round(
            "source offsets* valid*",
            "result",
            "sizes",
            f,
            " %t[%i, %j] sizes S : A -> B",
        );
        assert_eq!(out.as_deref(), Ok(" %t[%i, %j] sizes S : A -> B"));
        assert!(round("source offsets* valid*", "result", "sizes", f, t).is_err());
        let out = round(
            "xs*",
            "rs*",
            "callee",
            "$callee `(` $xs `)` `:` functional-type($xs, $rs)",
            " @f(%a, %b) : (A, B) -> (C, D)",
        );
        assert_eq!(out.as_deref(), Ok(" @f(%a, %b) : (A, B) -> (C, D)"));
        let out = round("xs*", "", "", "`[` $xs `]`", " []");
        assert_eq!(out.as_deref(), Ok(" []"));
    }

    #[test]
    fn errors_name_the_expected_piece() {
        let e = round(
            "src pre? fp? dst",
            "",
            "",
            TSTORE,
            " ins(%a : T fp : F) outs(%b : U)",
        );
        assert_eq!(e, Err("expected value, found Some(\":\")".to_string()));
        let e = round("src pre? fp? dst", "", "", TSTORE, " ins(%a : T) (%b : U)");
        assert_eq!(e, Err("expected 'outs', found Some(\"(\")".to_string()));
        let e = round(
            "xs* d",
            "",
            "",
            "`ins` `(` $xs `:` type($xs) `)` $d",
            " ins(%a, %b : T) %d",
        );
        assert_eq!(e, Err("expected 2 operand types, found 1".to_string()));
    }
}
