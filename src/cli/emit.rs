//! Where a command's text goes: a file (written atomically) or stdout, and
//! the command line that produced it.

use renyi_search::error::Result;
use renyi_search::output::{Provenance, write_atomic, write_json};
use std::path::{Path, PathBuf};

/// The command line after the program's name, as recorded in provenance.
pub(crate) fn command_line() -> String {
    std::env::args().skip(1).collect::<Vec<_>>().join(" ")
}

/// A CSV (header row first) to `out` or stdout; with `out`, what it holds
/// (`about`) and what produced it go to the sidecar `<out>.json` beside it,
/// so that the CSV itself opens in any reader (issue 49 item 8).
pub(crate) fn emit_csv(csv: &str, about: String, out: &Option<PathBuf>) -> Result<()> {
    if let Some(path) = out {
        #[derive(serde::Serialize)]
        struct Sidecar {
            about: String,
            provenance: Provenance,
        }
        let provenance = Provenance::stable(command_line(), 0.0);
        let mut sidecar = path.clone().into_os_string();
        sidecar.push(".json");
        write_json(Path::new(&sidecar), &Sidecar { about, provenance })?;
    }
    emit_text(csv, out)
}

/// `text` to `out`, or to stdout.
pub(crate) fn emit_text(text: &str, out: &Option<PathBuf>) -> Result<()> {
    match out {
        Some(path) => write_atomic(path, text.as_bytes()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}
