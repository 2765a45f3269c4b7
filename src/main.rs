//! `renyi-search`: the command line over the library (see src/cli/).

mod cli;

/// mimalloc: the analysis allocates many small, short-lived code sets and
/// outcomes; measured faster than the system allocator (docs/runs.md, Speed).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    cli::quiet_on_closed_pipe();
    match cli::run(cli::Cli::parse()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
