//! `renyi-search`: the command line over the library (see src/cli/).

mod cli;

/// mimalloc: the analysis allocates many small, short-lived code sets and
/// outcomes; measured faster than the system allocator (docs/runs.md, Speed).
/// Wrapped so that an allocation the system refuses (a ulimit, a full
/// machine) ends the program with one line and exit code 2 instead of an
/// abort with a backtrace (`std::alloc::set_alloc_error_hook` is unstable).
#[global_allocator]
static ALLOCATOR: cli::allocator::OneLineOnFailure<mimalloc::MiMalloc> =
    cli::allocator::OneLineOnFailure(mimalloc::MiMalloc);

use clap::Parser;
use std::process::ExitCode;

fn main() -> ExitCode {
    cli::quiet_on_closed_pipe();
    cli::signals::clean_up_on_signals();
    let parsed = match cli::Cli::try_parse() {
        Ok(parsed) => parsed,
        // --help, --version, and the help shown for a missing subcommand (exit 2).
        Err(e) if !e.use_stderr() || e.kind() == clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            e.exit()
        }
        Err(e) => {
            eprintln!("{}", cli::one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
    };
    // The worker threads are started here, once: rayon would start them at
    // its first use and panic with a backtrace if the system refuses a thread
    // (a ulimit on address space or processes); issue 48 item 5.
    // Each worker's start needs room for its stacks, or the runtime aborts (`address_space_for`).
    let workers = std::env::var("RAYON_NUM_THREADS").ok().and_then(|n| n.parse().ok()).filter(|&n: &usize| n > 0);
    let workers = workers.or_else(|| std::thread::available_parallelism().ok().map(|n| n.get())).unwrap_or(1);
    let room = workers.saturating_mul(cli::allocator::thread_room(2 << 20));
    let started = if cli::allocator::address_space_for(room) {
        rayon::ThreadPoolBuilder::new().build_global().map_err(|e| e.to_string())
    } else {
        Err(format!("{} MiB of address space are not there for {workers} thread(s)", room >> 20))
    };
    if let Err(e) = started {
        // A worker thread that did start may have had an allocation refused
        // meanwhile and be writing its own line: one line only.
        if !cli::allocator::claim_the_error_line() {
            loop {
                std::thread::park();
            }
        }
        eprintln!("error: cannot start the worker threads ({e}); raise the limit on memory or processes (ulimit)");
        return ExitCode::from(2);
    }
    match cli::run(parsed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
