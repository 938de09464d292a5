//! Errors, warnings and notes raised by the target rules; each variant knows its [`Code`].

use crate::diag::Code;

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
