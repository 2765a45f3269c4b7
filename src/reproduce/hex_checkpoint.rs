//! The checkpoint of `reproduce --full hex`: each solved opening of a map is
//! appended as it finishes, and a stopped run (Ctrl-C, a kill) resumes with
//! the openings not yet in the file.
//!
//! The file is a sealed JSON-lines file (`output::sealed_lines`, the format
//! of the curve runs and depth-bound checkpoints): line 1 is the run's typed
//! identity ([`HexRunId`]), every other line one [`OpeningRecord`] sealed
//! with the run's key, so that a record of another run is refused like a
//! damaged one, as is an opening recorded twice. A last line cut off by a kill
//! is dropped (and cut from the file); the file is locked while a run appends
//! to it and removed when the results are written.
//!
//! Invariant: an opening's row comes from its computation or from a record of
//! the same run holding exactly what that computation returned, so a resumed
//! run writes the same bytes as an uninterrupted one.

use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::{self, SealedLog, SealedReading};
use crate::output::work_units::{make_parent, open_checkpoint};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
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
    /// Whether each opening is solved reply by reply (`hex_map.rs`: one record per White
    /// reply); not written when false, so a whole-opening run's identity line is unchanged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub split: bool,
}

/// One solved and checked opening.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpeningRecord {
    /// The CRC-32 of the identity line's JSON: the run the record belongs to.
    pub run: String,
    pub opening: usize,
    /// The White reply of a split run: the record is about the position after it (Black to
    /// move), `black_wins` its winner; none: the whole opening (not written then).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reply: Option<usize>,
    pub black_wins: bool,
    pub nodes: u64,
    pub proof_steps: usize,
    pub proof_checked: bool,
    /// Solve + proof + check, wall seconds.
    pub seconds: f64,
    /// Solve + proof + check, CPU seconds of the thread that did it (0 where not measured).
    #[serde(default)]
    pub cpu_seconds: f64,
}

/// An open checkpoint (or none): the records read at the start and the locked file.
pub struct OpeningCheckpoint {
    /// The run's key (`sealed_lines::run_key`): what a record's `run` holds.
    pub key: String,
    file: Option<(PathBuf, SealedLog)>,
    done: HashMap<(usize, Option<usize>), OpeningRecord>,
}

impl OpeningCheckpoint {
    /// Opens (or starts) the checkpoint of run `id` at `path` (none: nothing is kept) and locks it.
    pub fn open(path: Option<&Path>, id: &HexRunId) -> Result<OpeningCheckpoint> {
        let mut checkpoint = OpeningCheckpoint { key: sealed_lines::run_key(id), file: None, done: HashMap::new() };
        let Some(path) = path else { return Ok(checkpoint) };
        make_parent(path)?;
        let reading = SealedReading {
            what: "Hex opening-map checkpoint",
            identity: Box::new(|found: &HexRunId| {
                if found == id {
                    return Ok(());
                }
                Err(invalid(format!(
                    "checkpoint {}: line 1 is not this run's identity (another board, solver or program version); \
                     remove it or choose another results directory",
                    path.display()
                )))
            }),
            unit_of: |r: &OpeningRecord| (r.opening, r.reply),
        };
        let done = &mut checkpoint.done;
        let log = open_checkpoint(path, id, reading, |_, key, r: OpeningRecord| {
            // A reply is a cell of the board other than the opening, and only a split run has replies.
            let reply_ok = r.reply.map_or(!id.split, |c| id.split && c < id.n * id.n && c != r.opening);
            if r.run != key || !id.openings.contains(&r.opening) || !reply_ok {
                return Err(invalid(format!(
                    "checkpoint {}: a record of opening {} (reply {:?}) that is not one of this run's \
                     (edited or damaged)",
                    path.display(),
                    r.opening,
                    r.reply
                )));
            }
            done.insert((r.opening, r.reply), r);
            Ok(())
        })?;
        checkpoint.file = Some((path.to_path_buf(), log));
        Ok(checkpoint)
    }

    /// The record of `opening`, if a run before this one finished it.
    pub fn finished(&self, opening: usize) -> Option<&OpeningRecord> {
        self.done.get(&(opening, None))
    }

    /// The records of the replies (split runs) finished by the runs before this one, by (opening, reply).
    pub fn finished_replies(&self) -> HashMap<(usize, usize), OpeningRecord> {
        self.done.iter().filter_map(|(&(o, r), record)| Some(((o, r?), record.clone()))).collect()
    }

    /// Records (openings, or replies in a split run) taken from the file when the run started.
    pub fn resumed(&self) -> usize {
        self.done.len()
    }

    /// Appends a finished opening (one write of a whole line, flushed).
    pub fn append(&mut self, record: &OpeningRecord) -> Result<()> {
        match &self.file {
            Some((_, log)) => log.append(record),
            None => Ok(()),
        }
    }

    /// The results are written: the checkpoint goes.
    pub fn finish(self) -> Result<()> {
        if let Some((path, log)) = self.file {
            drop(log);
            std::fs::remove_file(&path).map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
        }
        Ok(())
    }
}
