//! The pipeline over one input file: split into chunks, parse, pick the profile, verify.
//! Shared by the CLI, the lit-adjacent tests and the benchmark.
