//! Emitters: a [`TensixKernel`](super::TensixKernel) as SFPU assembly ([`asm`]), tt-llk C++
//! ([`llk`]) or SFPI C++ ([`sfpi`]).
pub mod asm;
