//! The reference interpreter over verified IR functions (issue 3). Being built.
