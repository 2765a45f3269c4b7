//! A watch on the resident memory of jobs whose peak cannot be estimated
//! before they start: Beams analyses and sweeps (their estimate is a lower
//! bound, the table and two sets of all codes; 6c6p peaks at 4.4–8 GiB
//! against its 0.9 GiB bound) and the Beams α-curves. Such a job is checked
//! against `--max-memory` before it allocates and watched while it runs: once
//! the process holds more than the budget, it stops with a one-line error and
//! exit code 2 instead of driving the machine out of memory, where the kernel
//! may kill it or a neighbour. Nothing is lost that a kill would keep: a
//! checkpoint holds every finished unit (a line cut off mid-write is dropped
//! on resume), and output files are written to a temporary name and renamed
//! only when complete.

use renyi_search::memory::{budget_bytes, human_bytes, resident_bytes};
use std::time::Duration;

/// How often the resident memory is read (`/proc/self/statm`, about a
/// microsecond).
const POLL: Duration = Duration::from_millis(100);

/// Starts a thread that ends the process once its resident memory passes the
/// budget; `what` names the job in the message. Where the kernel does not
/// report resident memory, nothing is watched.
pub(super) fn guard_memory(what: String) {
    let budget = budget_bytes();
    if resident_bytes().is_none() {
        return;
    }
    let watch = move || {
        loop {
            std::thread::sleep(POLL);
            if let Some(held) = resident_bytes().filter(|&held| held > budget) {
                eprintln!(
                    "error: {what} passed the memory budget of {} (the process held {}); run it again with a larger \
                     --max-memory GIB, or with less beside it (with --checkpoint, its finished units are kept)",
                    human_bytes(budget),
                    human_bytes(held)
                );
                std::process::exit(2);
            }
        }
    };
    // Without the thread the job runs unwatched, as before this guard; its
    // estimate was checked already.
    let _ = std::thread::Builder::new().name("memory-guard".into()).spawn(watch);
}
