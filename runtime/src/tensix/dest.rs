//! Tensix dest (issue 4). Being built.
