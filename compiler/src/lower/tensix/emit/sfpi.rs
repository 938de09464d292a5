//! `--emit sfpi`: the llk header ([`super::llk`]) under a comment that says why ptoc does not
//! write SFPI. An SFPI (`sfpi.h`) kernel is C++ that the SFPI compiler turns into instructions
//! with its own selection, register allocation and scheduling; ptoc proves instruction words
//! (the ones `TTI_*` produce), so a kernel handed to another compiler would no longer be the
//! artifact ptoc proved. The flag exists for users who ask for SFPI and documents that answer;
//! the code it gives is exactly `--emit llk`'s.

use super::super::TensixKernel;

/// The comment that opens an `--emit sfpi` file.
pub const WHY_NOT_SFPI: &str = "// --emit sfpi: ptoc writes its kernels as TTI_* instruction words, the form it proves bit-exact.\n\
// An SFPI (sfpi.h) kernel would be compiled by the SFPI compiler, whose instruction selection and\n\
// scheduling ptoc does not prove, so this file is the llk header (what --emit llk writes).\n";

/// The SFPI file: the reason, then the llk header of every kernel.
pub fn emit_file(kernels: &[&TensixKernel]) -> String {
    format!("{WHY_NOT_SFPI}{}", super::llk::emit_file(kernels))
}

/// The SFPI file of one kernel.
pub fn emit(k: &TensixKernel) -> String {
    emit_file(&[k])
}
