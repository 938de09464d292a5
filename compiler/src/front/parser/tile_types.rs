//! `!pto.tile_buf` (legacy keyed form §3.1 with its fixed key order, compact form §3.2 with
//! defaults, duplicate and unknown keys) and `!pto.tile` (§3.3, D-13). Domain checks (§3.1) are
//! reported at the offending value and the type is still built, so one bad key gives one error.

use super::types::scalar_from_bare;
use super::types::scalar_from_typename;
use super::{PResult, Parser};
use crate::diag::{Diagnostic, Span};
use crate::front::error::ParseError;
use crate::front::lexer::{dim_prefix_extents, Tok};
use crate::ir::types::{BLayout, Dim, Loc, SLayout, TileBufType, TileType};
use crate::ir::{ScalarType, Type};

fn loc_from(s: &str) -> Option<Loc> {
    Some(match s {
        "mat" => Loc::Mat,
        "left" => Loc::Left,
        "right" => Loc::Right,
        "acc" => Loc::Acc,
        "vec" | "ub" => Loc::Vec,
        "bias" => Loc::Bias,
        "scaling" => Loc::Scaling,
        _ => return None,
    })
}

/// Everything known about a compact/legacy tile_buf while it is being read.
struct TbParts {
    loc: Loc,
    elem: ScalarType,
    rows: u64,
    cols: u64,
    valid: Option<(Dim, Dim, Span, Span)>,
    blayout: BLayout,
    slayout: SLayout,
    fractal: u64,
    pad: u8,
    compact: u8,
}
impl<'s> Parser<'s> {
    /// Two static non-zero extents (tile_buf compact, tile).
    pub(super) fn two_static(
        &mut self,
        what: &str,
        dims: &[Option<u64>],
        span: Span,
    ) -> (u64, u64) {
        if dims.len() != 2 {
            self.domain(
                format!(
                    "{what} expects exactly two shape dims, found {}",
                    dims.len()
                ),
                span,
            );
        } else if dims.iter().any(Option::is_none) {
            self.domain(format!("{what} shape must be static"), span);
        } else if dims.contains(&Some(0)) {
            self.domain("tile_buf rows/cols must be positive", span);
        }
        let r = dims.first().copied().flatten().unwrap_or(1);
        let c = dims.get(1).copied().flatten().unwrap_or(1);
        (r, c)
    }

    pub(super) fn tile_buf_body(&mut self, start: Span) -> PResult<Type> {
        self.expect(Tok::LAngle)?;
        self.tile_buf_after_angle(start)
    }

    /// The part of a tile_buf after `<` (shared with `pto.alloc_tile : <...>`, D-7b).
    pub(crate) fn tile_buf_after_angle(&mut self, _start: Span) -> PResult<Type> {
        let parts = if self.at_kw("loc") {
            self.tile_buf_legacy()?
        } else {
            self.tile_buf_compact()?
        };
        Ok(self.build_tile_buf(parts))
    }

    fn build_tile_buf(&mut self, p: TbParts) -> Type {
        let (valid_row, valid_col) = match p.valid {
            Some((r, c, rspan, cspan)) => {
                self.check_valid(r, p.rows, "row", rspan);
                self.check_valid(c, p.cols, "col", cspan);
                (r, c)
            }
            None => (Dim::Static(p.rows), Dim::Static(p.cols)),
        };
        Type::TileBuf(TileBufType {
            loc: p.loc,
            rows: p.rows,
            cols: p.cols,
            elem: p.elem,
            valid_row,
            valid_col,
            blayout: p.blayout,
            slayout: p.slayout,
            fractal: p.fractal,
            pad: p.pad,
            compact: p.compact,
        })
    }

    fn check_valid(&mut self, d: Dim, extent: u64, which: &'static str, span: Span) {
        if let Dim::Static(v) = d {
            if v > extent {
                self.error_at(
                    ParseError::ValidExceeds {
                        which,
                        value: v,
                        extent,
                    },
                    span,
                );
            }
        }
    }

    fn loc_value(&mut self) -> PResult<Loc> {
        let word = match self.peek() {
            Some(Tok::BareId(w)) => w.to_string(),
            Some(Tok::Str(s)) => crate::front::lexer::unescape(s),
            _ => return Err(self.expected(&["tile location"])),
        };
        match loc_from(&word) {
            Some(l) => {
                self.bump();
                Ok(l)
            }
            None => {
                let found = self.found_quoted();
                Err(self.syntax(ParseError::TypeDomain {
                    message: format!("unknown tile location {found}; expected mat, left, right, acc, vec, bias, scaling or ub"),
                }))
            }
        }
    }

    fn blayout_value(&mut self) -> PResult<BLayout> {
        match self.peek() {
            Some(Tok::BareId("row_major")) => {
                self.bump();
                Ok(BLayout::RowMajor)
            }
            Some(Tok::BareId("col_major")) => {
                self.bump();
                Ok(BLayout::ColMajor)
            }
            _ => Err(self.expected(&["'col_major'", "'row_major'"])),
        }
    }

    fn slayout_value(&mut self) -> PResult<SLayout> {
        match self.peek() {
            Some(Tok::BareId("none_box")) => {
                self.bump();
                Ok(SLayout::NoneBox)
            }
            Some(Tok::BareId("row_major")) => {
                self.bump();
                Ok(SLayout::RowMajor)
            }
            Some(Tok::BareId("col_major")) => {
                self.bump();
                Ok(SLayout::ColMajor)
            }
            _ => Err(self.expected(&["'col_major'", "'none_box'", "'row_major'"])),
        }
    }

    /// An integer literal token as i64.
    pub(crate) fn int_value(&mut self) -> PResult<(i64, Span)> {
        match self.peek() {
            Some(Tok::Int(s)) => {
                let span = self.bump();
                match s.parse::<i64>() {
                    Ok(v) => Ok((v, span)),
                    Err(_) => Err(self.error_at(ParseError::IntegerOutOfRange, span)),
                }
            }
            _ => Err(self.expected(&["integer"])),
        }
    }

    fn fractal_value(&mut self) -> PResult<u64> {
        let (v, span) = self.int_value()?;
        if ![16, 32, 512, 1024].contains(&v) {
            self.domain(
                format!("unsupported fractal size {v}; expected 16, 32, 512 or 1024"),
                span,
            );
            return Ok(512);
        }
        Ok(v as u64)
    }

    fn pad_value(&mut self) -> PResult<u8> {
        let (v, span) = self.int_value()?;
        if !(0..=3).contains(&v) {
            self.domain("pad must be 0 (null), 1 (zero), 2 (max) or 3 (min)", span);
            return Ok(0);
        }
        Ok(v as u8)
    }

    fn compact_value(&mut self) -> PResult<u8> {
        let (v, span) = self.int_value()?;
        if !(0..=2).contains(&v) {
            self.domain(
                "compact must be 0 (null), 1 (normal) or 2 (row_plus_one)",
                span,
            );
            return Ok(0);
        }
        Ok(v as u8)
    }

    /// Legacy key: `key =`, in fixed order.
    fn legacy_key(&mut self, key: &'static str) -> PResult<()> {
        if self.at_kw(key) {
            self.bump();
            self.expect(Tok::Equals)?;
            return Ok(());
        }
        let found = self.found_quoted();
        Err(self.syntax(ParseError::LegacyKeyOrder {
            expected: key.to_string(),
            found,
        }))
    }

    /// `,` before the next legacy key, with the note naming it when missing (§9 row 13).
    fn legacy_comma(&mut self, next: &str) -> PResult<()> {
        if self.eat(Tok::Comma) {
            return Ok(());
        }
        let before = self.diags.len();
        let f = self.expected(&["','"]);
        if let Some(d) = self.diags.get_mut(before) {
            d.notes.push(crate::diag::Note {
                message: format!("legacy tile_buf requires {next}="),
                span: None,
            });
        }
        Err(f)
    }

    /// `loc=.., dtype=.., rows=.., cols=.., v_row=.., v_col=.., blayout=.., slayout=..,
    /// fractal=.., pad=..[, compact=..] >` (syntax.md §3.1).
    fn tile_buf_legacy(&mut self) -> PResult<TbParts> {
        self.legacy_key("loc")?;
        let loc = self.loc_value()?;
        self.legacy_comma("dtype")?;
        self.legacy_key("dtype")?;
        let elem = self.elem_type()?;
        self.legacy_comma("rows")?;
        self.legacy_key("rows")?;
        let rows = self.positive_extent()?;
        self.legacy_comma("cols")?;
        self.legacy_key("cols")?;
        let cols = self.positive_extent()?;
        self.legacy_comma("v_row")?;
        self.legacy_key("v_row")?;
        let (vr, vr_span) = self.legacy_vdim("v_row")?;
        self.legacy_comma("v_col")?;
        self.legacy_key("v_col")?;
        let (vc, vc_span) = self.legacy_vdim("v_col")?;
        self.legacy_comma("blayout")?;
        self.legacy_key("blayout")?;
        let blayout = self.blayout_value()?;
        self.legacy_comma("slayout")?;
        self.legacy_key("slayout")?;
        let slayout = self.slayout_value()?;
        self.legacy_comma("fractal")?;
        self.legacy_key("fractal")?;
        let fractal = self.fractal_value()?;
        self.legacy_comma("pad")?;
        self.legacy_key("pad")?;
        let pad = self.pad_value()?;
        let mut compact = 0;
        if self.eat(Tok::Comma) {
            self.legacy_key("compact")?;
            compact = self.compact_value()?;
        }
        if !self.eat(Tok::RAngle) {
            return Err(if self.at(Tok::Comma) {
                self.expected(&["'>'"])
            } else {
                self.expected(&["','", "'>'"])
            });
        }
        Ok(TbParts {
            loc,
            elem,
            rows,
            cols,
            valid: Some((vr, vc, vr_span, vc_span)),
            blayout,
            slayout,
            fractal,
            pad,
            compact,
        })
    }

    fn positive_extent(&mut self) -> PResult<u64> {
        let (v, span) = self.int_value()?;
        if v < 1 {
            self.domain("tile_buf rows/cols must be positive", span);
            return Ok(1);
        }
        Ok(v as u64)
    }

    fn legacy_vdim(&mut self, key: &str) -> PResult<(Dim, Span)> {
        match self.peek() {
            Some(Tok::Question) => Ok((Dim::Dynamic, self.bump())),
            Some(Tok::Int(s)) => {
                let span = self.span();
                match s.parse::<i64>() {
                    Ok(-1) => {
                        self.bump();
                        Ok((Dim::Dynamic, span))
                    }
                    Ok(v) if v >= 0 => {
                        self.bump();
                        Ok((Dim::Static(v as u64), span))
                    }
                    _ => Err(self.vdim_error(key)),
                }
            }
            _ => Err(self.vdim_error(key)),
        }
    }

    fn vdim_error(&mut self, key: &str) -> super::Fail {
        let found = self.found();
        self.syntax(ParseError::TypeDomain {
            message: format!("{key} must be '?', -1, or a non-negative integer, found {found}"),
        })
    }

    /// `loc, RxCxT {, key=value} >` (syntax.md §3.2).
    fn tile_buf_compact(&mut self) -> PResult<TbParts> {
        let loc = self.loc_value()?;
        self.expect(Tok::Comma)?;
        let (dims, elem, dspan) = self.shape_and_elem()?;
        let (rows, cols) = self.two_static("compact tile_buf", &dims, dspan);
        let mut p = TbParts {
            loc,
            elem,
            rows,
            cols,
            valid: None,
            blayout: BLayout::RowMajor,
            slayout: SLayout::NoneBox,
            fractal: 512,
            pad: 0,
            compact: 0,
        };
        let mut seen: Vec<(&'s str, Span)> = Vec::new();
        while self.eat(Tok::Comma) {
            let Some(Tok::BareId(key)) = self.peek() else {
                return Err(self.expected(&[
                    "'blayout'",
                    "'compact'",
                    "'fractal'",
                    "'pad'",
                    "'slayout'",
                    "'valid'",
                ]));
            };
            let kspan = self.bump();
            if let Some(&(_, first)) = seen.iter().find(|(k, _)| *k == key) {
                let d = Diagnostic::new(
                    crate::diag::Code::DuplicateAttribute,
                    ParseError::DuplicateTileBufKey {
                        key: key.to_string(),
                    },
                    kspan,
                )
                .with_label(first, "first given here");
                self.push_diag(d);
            } else {
                seen.push((key, kspan));
            }
            self.expect(Tok::Equals)?;
            match key {
                "valid" => {
                    let (r, c, span) = self.dim_pair()?;
                    p.valid = Some((r, c, span, span));
                }
                "blayout" => p.blayout = self.blayout_value()?,
                "slayout" => p.slayout = self.slayout_value()?,
                "fractal" => p.fractal = self.fractal_value()?,
                "pad" => p.pad = self.pad_value()?,
                "compact" => p.compact = self.compact_value()?,
                _ => {
                    self.error_at(
                        ParseError::UnknownTileBufKey {
                            key: key.to_string(),
                        },
                        kspan,
                    );
                    // Skip the value: one token is enough for every key's shape but `valid`.
                    if self.at(Tok::DimPrefix("")) {
                        self.bump();
                    }
                    self.bump();
                }
            }
        }
        if !self.eat(Tok::RAngle) {
            return Err(self.expected(&["','", "'>'"]));
        }
        Ok(p)
    }

    /// `dim-pair ::= DIM_PREFIX dim` (also `0x<digits>` after `valid=`, §1.3).
    fn dim_pair(&mut self) -> PResult<(Dim, Dim, Span)> {
        let start = self.span();
        match self.peek() {
            Some(Tok::DimPrefix(p)) => {
                self.bump();
                let ext = dim_prefix_extents(p);
                if ext.len() != 1 {
                    self.domain(
                        format!("valid expects two dims, found {}", ext.len() + 1),
                        start,
                    );
                }
                let r = ext
                    .first()
                    .copied()
                    .flatten()
                    .map_or(Dim::Dynamic, Dim::Static);
                let c = match self.peek() {
                    Some(Tok::Question) => {
                        self.bump();
                        Dim::Dynamic
                    }
                    Some(Tok::Int(_)) => {
                        let (v, _) = self.int_value()?;
                        if v == -1 {
                            Dim::Dynamic
                        } else if v < 0 {
                            self.domain("valid extents must be non-negative or '?'", start);
                            Dim::Dynamic
                        } else {
                            Dim::Static(v as u64)
                        }
                    }
                    _ => return Err(self.expected(&["'?'", "integer"])),
                };
                Ok((r, c, start.join(self.prev_span())))
            }
            Some(Tok::HexInt(h)) if h[2..].bytes().all(|b| b.is_ascii_digit()) => {
                self.bump();
                let c = h[2..].parse::<u64>().unwrap_or(u64::MAX);
                Ok((Dim::Static(0), Dim::Static(c), start))
            }
            Some(Tok::HexInt(h)) => {
                let text = h.to_string();
                Err(self.syntax(ParseError::HexDims { text }))
            }
            _ => Err(self.expected(&["dimension list"])),
        }
    }

    /// `!pto.tile<RxCxT>` or `!pto.tile<loc, RxCxT[, valid=RxC]>` (D-13).
    pub(super) fn tile_body(&mut self) -> PResult<Type> {
        self.expect(Tok::LAngle)?;
        let positional = match self.peek() {
            Some(Tok::BareId("loc")) => matches!(self.peek_at(1), Some(Tok::Equals)),
            Some(Tok::BareId(w)) => scalar_from_bare(w).is_some(),
            Some(Tok::TypeName(n)) => scalar_from_typename(n).is_some(),
            _ => false,
        };
        if positional {
            let span = self.span();
            let f = self.error_at(ParseError::PositionalTile, span);
            // Skip to the closing '>' so the statement can continue.
            let _ = self.skip_balanced(Tok::RAngle);
            return Err(f);
        }
        let loc = if matches!(self.peek(), Some(Tok::BareId(_) | Tok::Str(_))) {
            let l = self.loc_value()?;
            self.expect(Tok::Comma)?;
            Some(l)
        } else {
            None
        };
        let (dims, elem, dspan) = self.shape_and_elem()?;
        let (rows, cols) = self.two_static("!pto.tile", &dims, dspan);
        let mut valid = None;
        if loc.is_some() && self.eat(Tok::Comma) {
            self.expect_kw("valid")?;
            self.expect(Tok::Equals)?;
            let (r, c, span) = self.dim_pair()?;
            self.check_valid(r, rows, "row", span);
            self.check_valid(c, cols, "col", span);
            if (r, c) != (Dim::Static(rows), Dim::Static(cols)) {
                valid = Some((r, c));
            }
        }
        if !self.eat(Tok::RAngle) {
            return Err(if loc.is_some() {
                self.expected(&["','", "'>'"])
            } else {
                self.expected(&["'>'"])
            });
        }
        Ok(Type::Tile(TileType {
            loc,
            rows,
            cols,
            elem,
            valid,
        }))
    }
}
