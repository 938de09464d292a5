//! int_float rules (placeholder: no combination of this family is lowered yet).

use super::super::builder::Builder;
use super::super::Combo;
use super::Chosen;

/// Lowers `c` or says why not.
pub fn lower(c: &Combo, b: &mut Builder) -> Result<Chosen, String> {
    let _ = b;
    Err(format!("{} is not lowered yet", c.describe()))
}
