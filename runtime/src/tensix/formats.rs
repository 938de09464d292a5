//! Tensix formats (issue 4). Being built.
