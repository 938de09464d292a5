//! Tensix asm (issue 4). Being built.
