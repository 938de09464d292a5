//! Verifier errors as structured data, re-exported from the passes that raise them.

pub use super::rules::error::RuleError;
pub use super::structure::StructureError;
