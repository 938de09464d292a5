//! Tensix isa (issue 4). Being built.
