//! The memory budget of a command: `--max-memory` read from the user's text,
//! and a watch on the resident memory of every job (issue 48 item 5): Beams
//! pattern enumerations, Mastermind tables and walks, analyses, sweeps,
//! curves, perfect searches, chess endgame tables. Jobs estimate their size before they allocate
//! and refuse beyond `--max-memory` (`memory::check_budget`), but an
//! estimate is only held within 2× of what was measured (some are lower
//! bounds, and what the allocator keeps depends on the load). So the
//! process is watched while it runs: once it holds more than
//! the budget, it stops with a one-line error and exit code 2 instead of
//! driving the machine out of memory, where the kernel may kill it or a
//! neighbour. Nothing is lost that a kill would keep: a checkpoint holds
//! every finished unit (a line cut off mid-write is dropped on resume), and
//! output files are written to a temporary name and renamed only when
//! complete (the temporary files are removed on the way out).

use renyi_search::memory::{budget_bytes, budget_text, human_bytes, resident_bytes};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// How often the resident memory is read (`/proc/self/statm`, about a
/// microsecond).
const POLL: Duration = Duration::from_millis(50);

/// How long the watch of a whole command waits before its first reading: a
/// job's own estimate, checked in its first moments, names the job better
/// than the watch would (a tiny `--max-memory` is below the program's own
/// size).
const GRACE: Duration = Duration::from_secs(3);

/// The watching thread's stack: it reads a number, sleeps, and at most writes one line.
const GUARD_STACK: usize = 256 << 10;

/// The job named in the message, and from when it is watched.
static JOB: Mutex<Option<(String, Instant)>> = Mutex::new(None);

/// Watches the command from [`GRACE`] on under the name `what` (e.g. "`analyze
/// mastermind`"); [`guard_memory`] names the job more precisely later.
pub(super) fn guard_command(what: String) {
    watch(what, Instant::now() + GRACE);
}

/// Watches the job `what` from now on (its estimate was checked already).
pub(super) fn guard_memory(what: String) {
    watch(what, Instant::now());
}

/// Sets the job's name and start, and starts the watching thread once.
fn watch(what: String, from: Instant) {
    let first = JOB.lock().unwrap_or_else(|p| p.into_inner()).replace((what, from)).is_none();
    if !first || resident_bytes().is_none() {
        return;
    }
    // Without the thread the job runs unwatched, as before this guard; its
    // estimate was checked already. Started only with room for its start (`address_space_for`).
    if !super::allocator::address_space_for(super::allocator::thread_room(GUARD_STACK)) {
        return;
    }
    let _ = std::thread::Builder::new().name("memory-guard".into()).stack_size(GUARD_STACK).spawn(|| {
        loop {
            std::thread::sleep(POLL);
            let job = JOB.lock().unwrap_or_else(|p| p.into_inner()).clone();
            let Some((what, _)) = job.filter(|(_, from)| Instant::now() >= *from) else { continue };
            if let Some(held) = resident_bytes().filter(|&held| held > budget_bytes()) {
                stop(&what, held);
            }
        }
    });
}

/// Ends the process: one line, the command's temporary files removed, exit code 2.
fn stop(what: &str, held: u64) -> ! {
    let _files = renyi_search::output::remove_temporary_files();
    eprintln!(
        "error: {what} passed the memory budget of {} (the process held {}); run it again with a larger \
         --max-memory GIB, or with less beside it (with --checkpoint, its finished units are kept)",
        budget_text(),
        human_bytes(held)
    );
    std::process::exit(2);
}

/// A job that stops itself between units (`solve hex --checkpoint`, between two slices of df-pn) does
/// so once the process holds more than this share of the budget (in sixteenths), so that its last
/// checkpoint is written before the watch, which stops it at the whole budget, would end it mid-unit.
const NEAR_BUDGET_SIXTEENTHS: u64 = 15;

/// The resident bytes when the process holds more than 15/16 of the budget ([`NEAR_BUDGET_SIXTEENTHS`]),
/// checked by a job between its units; `None` below that, or where the kernel does not say.
pub(super) fn near_budget() -> Option<u64> {
    resident_bytes().filter(|&held| held > budget_bytes() / 16 * NEAR_BUDGET_SIXTEENTHS)
}

/// The one line of a job that stopped itself near the budget ([`near_budget`]) after writing `kept`.
pub(super) fn near_budget_error(what: &str, held: u64, kept: &str) -> renyi_search::error::Error {
    renyi_search::error::Error::TooLarge(format!(
        "{what} neared the memory budget of {} (the process held {}, past 15/16 of it); {kept}: run the \
         same command again with a larger --max-memory GIB, or with less beside it, to resume",
        budget_text(),
        human_bytes(held)
    ))
}

/// Most GiB `--max-memory` accepts: 1 PiB.
const MAX_MEMORY_GIB: f64 = (1u64 << 20) as f64;

/// `--max-memory GIB` in bytes: a number above 0 (decimal, `1e2`, `0.5`) and
/// at most [`MAX_MEMORY_GIB`]; whole bytes, at least one.
pub(super) fn budget_from_gib(text: &str) -> renyi_search::error::Result<u64> {
    let gib: f64 = text.trim().parse().map_err(|_| {
        renyi_search::error::invalid(format!(
            "--max-memory {text}: give a number of GiB above 0 (e.g. 0.5, 16, 1e3), not {text:?}"
        ))
    })?;
    if !(gib > 0.0 && gib <= MAX_MEMORY_GIB) {
        return Err(renyi_search::error::invalid(format!(
            "--max-memory {text}: give a number of GiB above 0 and at most {MAX_MEMORY_GIB} (1 PiB)"
        )));
    }
    Ok(((gib * (1u64 << 30) as f64) as u64).max(1))
}

/// The job a command runs, for the memory guard's message.
pub(super) fn job_name(command: &super::Command) -> &'static str {
    match command {
        super::Command::Analyze { .. } => "the analysis",
        super::Command::Sweep { .. } => "the sweep",
        super::Command::Perfect { .. } => "the perfect search",
        super::Command::Play { .. } => "the game",
        super::Command::Simulate { .. } => "the simulation",
        super::Command::Merge { .. } => "the merge",
        super::Command::Verify { .. } => "the verification",
        super::Command::Beams { .. } => "the pattern enumeration",
        super::Command::Curve { .. } => "the curve",
        super::Command::Solve { .. } => "the game-graph solver",
        super::Command::Reproduce { .. } => "the reproduction",
        super::Command::Gtp { .. } => "the GTP engine",
    }
}
