//! The Tenstorrent Tensix SFPU machine (tensix.md): ISA, assembler, simulator, Dest and data
//! formats. Knows no IR; programs and Dest images are plain values.
//!
//! * [`isa`]: the typed instruction enum, operand table and WH/BH 32-bit encodings.
//! * [`asm`]: the SEED-T assembly syntax (assembler with located errors, canonical printer).
//! * [`sim`]: the functional simulator (lanes, flags, CC stack, every instruction, SFPMAD
//!   models, issue-level hazards and stalls, REPLAY, parallel batch runs).
//! * [`dest`] / [`formats`]: Dst storage and views, Mod0 conversions, data formats.
//!
//! Invariant: nothing here panics on any program, instruction word or Dst content.

pub mod asm;
pub mod dest;
pub mod formats;
pub mod io;
pub mod isa;
pub mod sim;
pub mod sim_io;
