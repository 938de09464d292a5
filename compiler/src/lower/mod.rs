//! Lowering of verified IR to target code. One target today: [`tensix`] (Tenstorrent SFPU).
pub mod tensix;
