//! The checkpoint of `reproduce --full hex`: each solved opening of a map is
//! appended as it finishes, and a stopped run (Ctrl-C, a kill) resumes with
//! the openings not yet in the file.
//!
//! The file is the sealed JSON-lines format of the Bridg-It scan
//! (`bridg_it_checkpoint.rs`, after `certificate::depth_checkpoint`): every
//! line starts with the CRC-32 of its JSON text ([`checked_line`]); line 1 is
//! the run's typed identity ([`HexRunId`]), every other line one
//! [`OpeningRecord`] carrying the key of its run (the CRC-32 of the identity
//! JSON), so that a record of another run is refused like a damaged one. A
//! last line cut off by a kill is dropped (and cut from the file); the file
//! is locked while a run appends to it and removed when the results are written.
//!
//! Invariant: an opening's row comes from its computation or from a record of
//! the same run holding exactly what that computation returned, so a resumed
//! run writes the same bytes as an uninterrupted one.

use crate::error::{Error, Result, invalid};
use crate::output::{checked_line, crc32_hex, parse_checked_line};
use crate::search::checkpoint::lock_checkpoint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What identifies a run of one opening map.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HexRunId {
    pub program: String,
    pub version: String,
    /// The board side.
    pub n: usize,
    /// The solver's H-search limits and fill-in setting, as text.
    pub solver: String,
    /// The openings (cell indices) of the map, in order.
    pub openings: Vec<usize>,
}

/// One solved and checked opening.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The CRC-32 of the identity line's JSON: the run the record belongs to.
    pub run: String,
    pub opening: usize,
    pub black_wins: bool,
    pub nodes: u64,
    pub proof_steps: usize,
    pub proof_checked: bool,
    /// Solve + proof + check, wall seconds (for the run log only).
    pub seconds: f64,
}

/// An open checkpoint (or none): the records read at the start and the locked file.
pub struct OpeningCheckpoint {
    pub key: String,
    file: Option<(PathBuf, std::fs::File)>,
    done: HashMap<usize, OpeningRecord>,
}

impl OpeningCheckpoint {
    /// Opens (or starts) the checkpoint of run `id` at `path` (none: nothing is kept) and locks it.
    pub fn open(path: Option<&Path>, id: &HexRunId) -> Result<OpeningCheckpoint> {
        let key = crc32_hex(serde_json::to_string(id).unwrap_or_default().as_bytes());
        let mut checkpoint = OpeningCheckpoint { key, file: None, done: HashMap::new() };
        let Some(path) = path else { return Ok(checkpoint) };
        let io = |e| Error::Io { path: path.display().to_string(), source: e };
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(io)?;
        }
        let mut file = lock_checkpoint(Some(path))?.expect("a path was given");
        let text = std::fs::read_to_string(path).map_err(io)?;
        let lines: Vec<&str> = text.lines().collect();
        if text.trim().is_empty() {
            file.set_len(0).map_err(io)?;
            writeln!(file, "{}", checked_line(id)).map_err(io)?;
        } else if parse_checked_line::<HexRunId>(lines[0]).as_ref() != Some(id) {
            return Err(invalid(format!(
                "checkpoint {}: line 1 is not this run's identity (another board, solver or program version; \
                 or damaged); remove it or choose another results directory",
                path.display()
            )));
        } else {
            let complete = text.ends_with('\n');
            for (k, line) in lines.iter().enumerate().skip(1) {
                match parse_checked_line::<OpeningRecord>(line) {
                    Some(r) if r.run == checkpoint.key && id.openings.contains(&r.opening) => {
                        checkpoint.done.insert(r.opening, r);
                    }
                    None if k + 1 == lines.len() && !complete => {} // cut off by a kill
                    _ => {
                        return Err(invalid(format!(
                            "checkpoint {} line {}: the record fails its checksum, does not parse or belongs to \
                             another run (edited or damaged)",
                            path.display(),
                            k + 1
                        )));
                    }
                }
            }
            if !complete {
                // Drop the fragment, so that the next record starts a line of its own.
                file.set_len(text.rfind('\n').map_or(0, |i| i + 1) as u64).map_err(io)?;
            }
        }
        checkpoint.file = Some((path.to_path_buf(), file));
        Ok(checkpoint)
    }

    /// The record of `opening`, if a run before this one finished it.
    pub fn finished(&self, opening: usize) -> Option<&OpeningRecord> {
        self.done.get(&opening)
    }

    /// Openings taken from the file when the run started.
    pub fn resumed(&self) -> usize {
        self.done.len()
    }

    /// Appends a finished opening (one write of a whole line, flushed).
    pub fn append(&mut self, record: &OpeningRecord) -> Result<()> {
        if let Some((path, file)) = &mut self.file {
            let line = checked_line(record) + "\n";
            file.write_all(line.as_bytes())
                .and_then(|_| file.flush())
                .map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
        }
        Ok(())
    }

    /// The results are written: the checkpoint goes.
    pub fn finish(self) -> Result<()> {
        if let Some((path, file)) = self.file {
            drop(file);
            std::fs::remove_file(&path).map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
        }
        Ok(())
    }
}
