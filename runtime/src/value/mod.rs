//! Runtime values: tiles, vector registers, masks, and tcvt/vcvt over them (issue 3). Being built.
