//! The lowering rules, one module per conversion family, tried in this order:
//!
//! | family | module | covers |
//! |---|---|---|
//! | float→int | [`float_int`] | f32/bf16/f16 → i32/ui32/i16/ui16/i8/ui8 |
//! | int→float | [`int_float`] | i32/ui32/i16/ui16/i8/ui8 → f32/bf16/f16 |
//! | float→float | [`float_float`] | f32/bf16/f16 → f32/bf16/f16 (incl. same-type round to integral) |
//! | int→int | [`int_int`] | every integer pair (copy, extend, wrap, clamp) |
//!
//! A rule writes one row's body into the [`Builder`] (load, compute, store) and returns what it
//! is ([`Chosen`]): its name and notes stating the sequence's origin (which published sequence,
//! tensix.md §8, it starts from and what it fixes) and why it is exact. A combination no rule
//! implements returns `Err(reason)`, which `lower_combo` turns into a coded diagnostic.
//!
//! Register conventions: rules use L0..L7 freely; L9 = 0, L10 = 1.0 and L15 are hardware
//! constants; L11..L14 are handed out by [`Builder::constant`].

use super::builder::Builder;
use super::{Combo, Family};

pub mod f32_bf16_macro;
pub mod float_float;
pub mod float_int;
pub mod int_float;
pub mod int_int;

/// The rule that implements a combination.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chosen {
    pub name: &'static str,
    pub notes: Vec<String>,
}

impl Chosen {
    pub fn new(name: &'static str, notes: &[&str]) -> Chosen {
        Chosen {
            name,
            notes: notes.iter().map(|s| s.to_string()).collect(),
        }
    }
}

/// Selects and runs the rule of `c`'s family.
pub fn select(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    match Family::of(c.src, c.dst) {
        Family::FloatToInt => float_int::lower(c, b),
        Family::IntToFloat => int_float::lower(c, b),
        Family::FloatToFloat => float_float::lower(c, b),
        Family::IntToInt => int_int::lower(c, b),
    }
}
