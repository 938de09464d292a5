//! Target-profile rules for `pto.tcvt` and `pto.vcvt` (semantics.md §3, §6, §8), driven by the
//! tables in `crate::target`. Runs only on structurally valid modules.

pub mod error;

use crate::diag::Diagnostic;
use crate::ir::Module;
use crate::target::Profile;

/// Checks every tcvt/vcvt of `module` against `profile`; appends diagnostics.
pub fn check(module: &Module, profile: Profile, diags: &mut Vec<Diagnostic>) {
    let _ = (module, profile, diags);
}
