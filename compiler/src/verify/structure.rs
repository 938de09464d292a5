//! Structural verification: SSA def-use (petgraph), scoping, result numbers, and agreement of
//! written operand types with definitions, function signatures and `return`.

use crate::diag::{Code, Diagnostic};
use crate::ir::Module;

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum StructureError {
    #[error("use of undefined value '{name}'")]
    UndefinedValue { name: String },
}

impl StructureError {
    pub fn code(&self) -> Code {
        match self {
            StructureError::UndefinedValue { .. } => Code::UndefinedValue,
        }
    }
}

/// Checks the structure of `module`; appends diagnostics.
pub fn check(module: &Module, diags: &mut Vec<Diagnostic>) {
    let _ = (module, diags);
}
