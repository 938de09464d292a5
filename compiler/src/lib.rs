//! `ptoc`: compiler front end, verifier and tools for the PTO dialect's conversion ops
//! (`pto.tcvt`, `pto.vcvt`).
//!
//! Pipeline: `front` (lexer, parser, IR builder) → `ir` (arena IR, printer) → `verify`
//! (structure, then the rules of a `target` profile) → `diag` (structured diagnostics, rendered
//! only by `cli`). Library code never prints or exits. `diag` is a leaf that every stage uses and
//! that uses none: each stage turns its own error enum into a diagnostic cause.

pub mod cli;
pub mod diag;
pub mod driver;
pub mod exec;
pub mod front;
#[doc(hidden)]
pub mod fuzzing;
pub mod interp;
pub mod ir;
pub mod lower;
pub mod target;
pub mod verify;
