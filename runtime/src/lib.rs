//! `pto-runtime`: the value-level half of ptoc.
//!
//! Owns numeric element formats and (later) the conversions between them, the reference
//! execution of values (tiles, vector registers, masks) and the Tensix SFPU machine model.
//! It knows nothing about IR: the compiler crate maps its IR types onto the descriptors here.
//!
//! Invariant: everything in this crate is pure and deterministic; nothing prints or exits.

pub mod convert;
pub mod elem;
pub mod tensix;
pub mod value;

pub use convert::{ConvError, ConvSpec, Converter, NonSatPath, Outcome, Rounding};
pub use elem::{ElemKind, ElemType};
