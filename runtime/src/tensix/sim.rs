//! Tensix sim (issue 4). Being built.
