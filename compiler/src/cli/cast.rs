//! `ptoc cast`: elementwise conversion of a whole file (issue 3). PLACEHOLDER.

use super::{Io, EXIT_USAGE};

#[derive(Debug, clap::Args)]
pub struct CastArgs {}

pub fn run(_args: &CastArgs, io: &mut Io<'_>) -> u8 {
    io.err("ptoc: `cast` is not implemented yet\n");
    EXIT_USAGE
}
