//! Verifier: structure first, then the rules of one target profile.
//!
//! (Module doc to list every check and its diagnostic once implemented.)

pub mod error;
pub mod rules;
pub mod structure;

use crate::diag::Diagnostic;
use crate::ir::Module;
use crate::target::Profile;

/// Verifies `module` against `profile`, returning every diagnostic (errors, warnings, notes).
/// Target rules run only when the structure is sound.
pub fn verify_module(module: &Module, profile: Profile) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    structure::check(module, &mut diags);
    if !diags.iter().any(|d| d.is_error()) {
        rules::check(module, profile, &mut diags);
    }
    diags
}
