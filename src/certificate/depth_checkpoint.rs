//! The checkpoint of a `--depth-bound` run: the root's queries are proved
//! independently, so each finished one is appended to a file and a run that
//! is stopped (or killed) resumes with the others. The file is a sealed
//! JSON-lines file ([`crate::output::sealed_lines`], the format of the curve
//! runs too): line 1 is the run's identity (game, depth, the root's queries),
//! every other line one root query's record sealed with the run's key, so a
//! record of another run is refused like a damaged one. A last line cut off
//! by a kill is ignored (that query is proved again); any other damaged line,
//! a root query recorded twice, or a file of another run is refused with its
//! name and line. The file is locked while a run appends to it.
//!
//! Invariant: after [`DepthCheckpoint::open`] the file holds only whole
//! lines (a cut-off last line is removed), so appended records never glue
//! onto a fragment.
//!
//! What is read back is not trusted: the certificate assembled from it is
//! checked by the independent checker before it is written, like any other.

use crate::error::{Result, invalid};
use crate::output::sealed_lines::{SealedLog, SealedReading};
use crate::output::work_units::open_checkpoint;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// What identifies a depth-bound run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthRunId {
    pub program: String,
    /// The certificate format the proof bodies are written in.
    pub format: u32,
    pub problem: String,
    pub depth: u32,
    /// The representatives of the root's query orbits, in order.
    pub root_queries: Vec<u32>,
}

/// One root query's result: its total and the child proofs that raise it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RootRecord {
    /// Index among [`DepthRunId::root_queries`].
    pub rep: usize,
    pub total: u64,
    pub raised: Vec<RaisedRecord>,
}

/// A child proof: position among the node's classes, gain over the simple
/// bound, claim, nodes written and the certificate body (hex).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RaisedRecord {
    pub position: usize,
    pub gain: u64,
    pub claim: u64,
    pub written: u64,
    pub body: String,
}

/// An open checkpoint: the records read at the start, and the locked file new ones go to.
pub struct DepthCheckpoint {
    log: SealedLog,
    done: HashMap<usize, RootRecord>,
}

impl DepthCheckpoint {
    /// Opens (or starts) the checkpoint of run `id` at `path` and locks it.
    pub fn open(path: &Path, id: &DepthRunId) -> Result<DepthCheckpoint> {
        let mut done = HashMap::new();
        let this_run = |found: &DepthRunId| match found == id {
            true => Ok(()),
            false => Err(invalid(format!(
                "checkpoint {}: line 1 is not this run's identity (another game, depth, program or root)",
                path.display()
            ))),
        };
        let reading =
            SealedReading { what: "depth-bound run", identity: Box::new(this_run), unit_of: |r: &RootRecord| r.rep };
        let log = open_checkpoint(path, id, reading, |_, _, r: RootRecord| {
            if r.rep >= id.root_queries.len() {
                return Err(invalid(format!(
                    "checkpoint {}: root query {} is beyond the run's {}",
                    path.display(),
                    r.rep,
                    id.root_queries.len()
                )));
            }
            done.insert(r.rep, r);
            Ok(())
        })?;
        Ok(DepthCheckpoint { log, done })
    }

    /// The record of root query `rep`, if a run before this one proved it.
    pub fn finished(&self, rep: usize) -> Option<&RootRecord> {
        self.done.get(&rep)
    }

    /// How many root queries were proved before this run.
    pub fn finished_count(&self) -> usize {
        self.done.len()
    }

    /// Appends a finished root query (one write of a whole line, flushed).
    pub fn append(&self, record: &RootRecord) -> Result<()> {
        self.log.append(record)
    }
}

/// Bytes as lowercase hex.
pub fn to_hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex back to bytes (`None` if it is not hex).
pub fn from_hex(text: &str) -> Option<Vec<u8>> {
    if !text.len().is_multiple_of(2) {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(text.get(i..i + 2)?, 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id() -> DepthRunId {
        DepthRunId { program: "test".into(), format: 1, problem: "p".into(), depth: 2, root_queries: vec![0, 3, 7] }
    }

    fn record(rep: usize) -> RootRecord {
        let raised = vec![RaisedRecord { position: 2, gain: 5, claim: 9, written: 1, body: to_hex(&[1, 2, 255]) }];
        RootRecord { rep, total: 40 + rep as u64, raised }
    }

    /// Records survive a reopen; a cut-off last line is ignored; an edited
    /// record, another run's file and a second writer are refused.
    #[test]
    fn resumes_and_refuses_what_it_should() {
        let dir = std::env::temp_dir().join(format!("depth-checkpoint-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let _ = std::fs::remove_file(&path);
        {
            let c = DepthCheckpoint::open(&path, &id()).unwrap();
            assert_eq!(c.finished_count(), 0);
            c.append(&record(0)).unwrap();
            c.append(&record(2)).unwrap();
            assert!(DepthCheckpoint::open(&path, &id()).err().unwrap().to_string().contains("locked"));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 9]).unwrap();
        {
            let c = DepthCheckpoint::open(&path, &id()).unwrap();
            assert_eq!(c.finished_count(), 1);
            assert_eq!(c.finished(0).unwrap().total, 40);
            assert_eq!(from_hex(&c.finished(0).unwrap().raised[0].body).unwrap(), vec![1, 2, 255]);
            c.append(&record(2)).unwrap();
        }
        assert_eq!(DepthCheckpoint::open(&path, &id()).unwrap().finished_count(), 2);
        let other = DepthRunId { depth: 3, ..id() };
        assert!(DepthCheckpoint::open(&path, &other).err().unwrap().to_string().contains("identity"));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("\"total\":40", "\"total\":41", 1)).unwrap();
        assert!(DepthCheckpoint::open(&path, &id()).err().unwrap().to_string().contains("line 2"));
        // A record of another run (sealed with its key) is refused where it stands.
        let foreign = dir.join("other.ckpt");
        DepthCheckpoint::open(&foreign, &other).unwrap().append(&record(1)).unwrap();
        let spliced = format!("{}{}", text, std::fs::read_to_string(&foreign).unwrap().lines().nth(1).unwrap());
        std::fs::write(&path, spliced + "\n").unwrap();
        let message = DepthCheckpoint::open(&path, &id()).err().unwrap().to_string();
        assert!(message.contains("line 4") && message.contains("another run"), "{message}");
        std::fs::write(&path, format!("{text}{}\n", text.lines().nth(1).unwrap())).unwrap();
        let message = DepthCheckpoint::open(&path, &id()).err().unwrap().to_string();
        assert!(message.contains("line 4") && message.contains("second time"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
