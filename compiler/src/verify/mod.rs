//! Verifier: structure first, then the rules of one target profile.
//!
//! (Module doc to list every check and its diagnostic once implemented.)

pub mod error;

use crate::diag::Diagnostic;
use crate::ir::Module;
use crate::target::Profile;

/// Verifies `module` against `profile`, returning every diagnostic (errors, warnings, notes).
pub fn verify_module(module: &Module, profile: Profile) -> Vec<Diagnostic> {
    let _ = (module, profile);
    Vec::new()
}
