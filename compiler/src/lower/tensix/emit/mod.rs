//! Emitters: a [`TensixKernel`](super::TensixKernel) as SFPU assembly ([`asm`]), tt-llk C++
//! ([`llk`]) or SFPI C++ ([`sfpi`]). Emitters print; they never change a kernel.
pub mod asm;
pub mod llk;
pub mod sfpi;
