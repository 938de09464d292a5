//! `ptoc sim`: runs an SFPU program on the Tensix simulator (issue 4). PLACEHOLDER.

use super::{Io, EXIT_USAGE};

#[derive(Debug, clap::Args)]
pub struct SimArgs {}

pub fn run(_args: &SimArgs, io: &mut Io<'_>) -> u8 {
    io.err("ptoc: `sim` is not implemented yet\n");
    EXIT_USAGE
}
