//! Results replayed from their committed, sealed files (issue 52): a part of a
//! target that takes minutes is recomputed only under `reproduce --full`,
//! which also writes the SHA-256 of the target's files to
//! `results/runs/sealed/<target>.sha256` (`sha256sum` format). The default run
//! checks every listed file against its seal, takes the expensive part from
//! the committed file, recomputes the rest (and a cheap sample of the expensive
//! part) and writes the same bytes as `--full`.

use crate::error::{Result, invalid};
use crate::output::{layout, sha256_hex, write_atomic};
use std::path::{Path, PathBuf};

/// How a target's expensive part came about in this run (the summary line says it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Provenance {
    /// Computed from scratch.
    Recomputed,
    /// Taken from committed files whose seals held, a sample of it recomputed.
    Replayed,
    /// Read from committed files whose seals held (if there are any yet), nothing recomputed:
    /// the 7×7 and 8×8 Hex maps, whose openings take minutes to hours each.
    Read,
}

impl Provenance {
    /// The words of the summary line.
    pub fn words(self) -> &'static str {
        match self {
            Provenance::Recomputed => "recomputed",
            Provenance::Replayed => "partly replayed from committed results",
            Provenance::Read => "read from committed results, nothing recomputed",
        }
    }
}

/// The seal file of `target` under `dir` (the results directory).
pub fn seal_path(dir: &Path, target: &str) -> PathBuf {
    layout::runs(dir, &format!("sealed/{target}.sha256"))
}

/// Seals `files` (paths relative to `dir`, as written by `--full`): one line
/// `HASH  FILE` each, in the order given.
pub fn write_seal(dir: &Path, target: &str, files: &[String]) -> Result<()> {
    let mut text = String::new();
    for file in files {
        let bytes = std::fs::read(dir.join(file)).map_err(|e| invalid(format!("{file}: {e}")))?;
        text += &format!("{}  {file}\n", sha256_hex(&bytes));
    }
    write_atomic(&seal_path(dir, target), text.as_bytes())
}

/// Checks every file the seal of `target` lists against its hash and returns
/// the files; an error (one line) when the seal is missing, lists no file or
/// `expected`'s files are not all listed, or a file is missing or changed
/// (then `reproduce --full TARGET` writes them anew).
pub fn check_seal(dir: &Path, target: &str, expected: &[String]) -> Result<Vec<String>> {
    let path = seal_path(dir, target);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| invalid(format!("{}: {e} (run `reproduce --full {target}`)", path.display())))?;
    let mut files = Vec::new();
    for line in text.lines() {
        let (hash, file) = line.split_once("  ").ok_or_else(|| invalid(format!("{}: bad line", path.display())))?;
        let bytes = std::fs::read(dir.join(file)).map_err(|e| invalid(format!("{file}: {e}")))?;
        if sha256_hex(&bytes) != hash {
            return Err(invalid(format!(
                "{file} does not match its seal in {} (run `reproduce --full {target}`)",
                path.display()
            )));
        }
        files.push(file.to_string());
    }
    if let Some(missing) = expected.iter().find(|f| !files.contains(f)) {
        return Err(invalid(format!("{}: {missing} is not sealed (run `reproduce --full {target}`)", path.display())));
    }
    Ok(files)
}
