//! `ptoc run`: runs a function with the reference interpreter (issue 3). PLACEHOLDER.

use super::{Io, EXIT_USAGE};

#[derive(Debug, clap::Args)]
pub struct RunArgs {}

pub fn run(_args: &RunArgs, io: &mut Io<'_>) -> u8 {
    io.err("ptoc: `run` is not implemented yet\n");
    EXIT_USAGE
}
