//! Verifier errors as structured data: [`StructureError`] (SSA and type agreement) and
//! [`RuleError`] (target-profile rules for tcvt/vcvt). Each variant knows its [`Code`].

use crate::diag::Code;

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

#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuleError {
    #[error("tcvt from {src} to {dst} is not supported on {profile}")]
    TcvtPairUnsupported {
        src: String,
        dst: String,
        profile: String,
    },
}

impl RuleError {
    pub fn code(&self) -> Code {
        match self {
            RuleError::TcvtPairUnsupported { .. } => Code::TcvtPairUnsupported,
        }
    }
}
