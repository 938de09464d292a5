//! Execution plumbing shared by `ptoc cast` and `ptoc run` (issue 3). Being built.
