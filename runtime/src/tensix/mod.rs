//! The Tenstorrent Tensix SFPU machine (tensix.md): ISA, assembler, simulator, Dest and data
//! formats. Knows no IR; programs and Dest images are plain values.

pub mod asm;
pub mod dest;
pub mod formats;
pub mod isa;
pub mod sim;
