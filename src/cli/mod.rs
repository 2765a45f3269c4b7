//! The command line: argument types (args.rs) and dispatch. One file per
//! subcommand; each calls library functions and prints (the library never prints).

pub(crate) mod allocator;
mod analyze;
mod args;
mod beams;
mod beams_args;
mod bridg_it;
mod common_args;
mod curve;
mod curve_args;
mod curve_stream;
mod emit;
mod files;
mod gtp;
mod mc;
mod memory_guard;
mod merge;
mod outcome_text;
mod perfect;
mod play;
mod progress;
mod reproduce;
pub(crate) mod signals;
mod solve;
mod solve_hex;
mod solve_hex_resume;
mod sweep;
mod variants;
mod verify;

pub(crate) use args::{Cli, Command};
use args::{PlayGame, SimulateGame};
use renyi_search::error::Result;

/// A command-line error of clap on one line: its message and hints (possible
/// values, a similar value, the usage) joined, without the blank lines and the
/// "For more information" footer.
pub(crate) fn one_line(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with("For more information"))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Output into a closed pipe (`… | head`) ends the program quietly, as other
/// command-line tools do, instead of a "Broken pipe" panic.
#[cfg(unix)]
pub(crate) fn quiet_on_closed_pipe() {
    unsafe extern "C" {
        fn signal(signum: i32, handler: usize) -> usize;
    }
    const SIGPIPE: i32 = 13;
    const SIG_DFL: usize = 0;
    // SAFETY: resetting SIGPIPE to its default action before any thread starts.
    unsafe {
        signal(SIGPIPE, SIG_DFL);
    }
}

#[cfg(not(unix))]
pub(crate) fn quiet_on_closed_pipe() {}

pub(crate) fn run(cli: Cli) -> Result<()> {
    if let Some(text) = &cli.max_memory {
        let bytes = memory_guard::budget_from_gib(text)?;
        renyi_search::memory::set_budget_given(bytes, format!("--max-memory {text}"));
    }
    files::check_files(&cli.command)?;
    // Cram and Chomp hold their game graphs to the budget themselves and say
    // which table did not fit (`solve cram 6x6`); every other job, chess
    // endgame tables included, is watched.
    if !matches!(cli.command, Command::Solve { game: solve::SolveGame::Cram { .. } | solve::SolveGame::Chomp { .. } }) {
        memory_guard::guard_command(memory_guard::job_name(&cli.command).to_string());
    }
    match cli.command {
        Command::Analyze { game } => analyze::run(game),
        Command::Sweep { game } => sweep::run(game),
        Command::Perfect { game, options } => perfect::run(game, &options),
        Command::Beams { what } => beams::run(what),
        Command::Verify { hex: Some(path), .. } => solve_hex::verify(&path),
        Command::Verify { file, certificate, hex: None } => {
            verify::verify_command(file.as_deref(), certificate.as_deref())
        }
        Command::Gtp { size, budget } => gtp::run(size, budget),
        Command::Merge { files, out } => merge::merge_files(&files, out.as_deref()),
        Command::Play { game: PlayGame::Beams { agent, secret } } => play::play(&agent, secret.as_deref()),
        Command::Simulate { game: SimulateGame::Beams { agent, n, seed, out } } => {
            play::run_simulation(&agent, n, seed, out.as_deref())
        }
        Command::Solve { game } => solve::run(game),
        Command::Curve { game } => curve::run(game),
        Command::Reproduce { targets, results, codes, full, full_report } => {
            reproduce::reproduce(&targets, &results, &codes, full, full_report)
        }
    }
}
