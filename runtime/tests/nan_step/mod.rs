//! The two-instruction NaN-step enumeration of `tensix_bf16_nan_step`: scalar models of the
//! Simple-unit instructions (`ops`), the search over programs built from them (`search`), and the solver for a
//! last instruction with an arbitrary register constant (`solve`); the extra operand values of MAD,
//! Round-shift and SFPSTOCHRND instructions (`extra`) and the search over programs that read one
//! (`widen`).

pub mod extra;
pub mod ops;
pub mod search;
pub mod solve;
pub mod widen;
