//! The two-instruction NaN-step enumeration of `tensix_bf16_nan_step`: scalar models of the
//! Simple-unit instructions (`ops`) and the search over programs built from them (`search`).

pub mod ops;
pub mod search;
