//! SIGINT and SIGTERM (issue 48 item 6): the command's temporary files
//! (`.NAME.tmpPID`, a curve's rows file) are removed and the process exits
//! with 128 + the signal's number (130, 143), as a shell reports a process
//! killed by it. Checkpoints need nothing: every finished unit is a whole
//! line, a line cut off mid-write is dropped on resume, and the lock on the
//! file ends with the process.
//!
//! The crate `signal-hook` receives the signals: a handler may only do
//! async-signal-safe work, and removing files is not; its iterator runs the
//! clean-up on an ordinary thread instead, which std alone cannot arrange.

use signal_hook::consts::{SIGINT, SIGTERM};

/// Starts the thread that cleans up on SIGINT and SIGTERM. If the handlers
/// cannot be installed, the signals keep their default action (the process
/// ends, temporary files stay).
pub(crate) fn clean_up_on_signals() {
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM]) else { return };
    let _ = std::thread::Builder::new().name("signals".into()).spawn(move || {
        if let Some(signal) = signals.forever().next() {
            // Held until the exit: no new temporary file is made meanwhile.
            let _files = renyi_search::output::remove_temporary_files();
            std::process::exit(128 + signal);
        }
    });
}
