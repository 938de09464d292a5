//! Op names (syntax.md §2.1): the hand-written custom-form spellings (the op catalog,
//! `front::catalog`, knows the rest) and bare-name resolution (D-5),
//! and the `--strict-ops` error (E0008) for unknown ops in
//! custom form with its generic rewrite (by default they are opaque statements, `opaque`). The custom forms themselves are `op_grammar`.

use super::module::GroupDef;
use super::Parser;
use crate::front::error::ParseError;
use crate::front::lexer::Tok;

/// Canonical name of a custom-form op spelling, if it is known (bare names resolve to `pto.*`).
pub(super) fn canonical(name: &str) -> Option<&'static str> {
    const KNOWN: &[&str] = &["pto.tcvt", "pto.vcvt", "arith.constant", "pto.vecscope"];
    if name == "return" || name == "func.return" {
        return Some("func.return");
    }
    if let Some(k) = KNOWN.iter().find(|k| **k == name) {
        return Some(k);
    }
    if let Some(k) = crate::front::catalog::canonical(name) {
        return Some(k);
    }
    if !name.contains('.') {
        let k = KNOWN.iter().find(|k| k.strip_prefix("pto.") == Some(name));
        return match k {
            Some(k) => Some(k),
            None => crate::front::catalog::canonical(&format!("pto.{name}")),
        };
    }
    None
}

impl<'s> Parser<'s> {
    /// The D-5 error with the generic rewrite of the statement.
    pub(super) fn unknown_custom(&mut self, written: &str, groups: &[GroupDef<'s>]) -> super::Fail {
        let span = self.span();
        let mut operands = Vec::new();
        let mut i = self.pos + 1;
        while let Some(t) = self.tok(i) {
            if t.line_start || matches!(t.tok, Tok::Colon | Tok::LBrace) {
                break;
            }
            if let Tok::ValueId(v) = t.tok {
                operands.push(v);
            }
            i += 1;
        }
        let lhs: Vec<String> = groups
            .iter()
            .map(|g| {
                if g.explicit {
                    format!("{}:{}", g.name, g.count)
                } else {
                    g.name.to_string()
                }
            })
            .collect();
        let nres: u32 = groups.iter().map(|g| g.count).sum();
        let ts = vec!["T"; operands.len()].join(", ");
        let results = match nres {
            0 => "()".to_string(),
            1 => "T".to_string(),
            n => format!("({})", vec!["T"; n as usize].join(", ")),
        };
        let mut example = String::new();
        if !lhs.is_empty() {
            example.push_str(&lhs.join(", "));
            example.push_str(" = ");
        }
        example.push_str(&format!(
            "\"{written}\"({}) : ({ts}) -> {results}",
            operands.join(", ")
        ));
        self.error_at(
            ParseError::UnknownCustomOp {
                name: written.to_string(),
                example,
            },
            span,
        )
    }
}
