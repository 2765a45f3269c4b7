//! The checkpoint of a `--depth-bound` run: the root's queries are proved
//! independently, and so are the answer classes below each of them, so every
//! proved class (its LB_{k−1} proof) and every finished root query is
//! appended to a file and a run that is stopped (or killed) resumes with the
//! rest, also part-way through a root query. The file is a sealed JSON-lines
//! file ([`crate::output::sealed_lines`], the format of the curve runs too):
//! line 1 is the run's identity (game, depth, the root's queries, the
//! checkpoint's format), every other line one record sealed with the run's
//! key, so a record of another run is refused like a damaged one. A last line
//! cut off by a kill is ignored (that class or query is proved again); any
//! other damaged line, a class or root query recorded twice, a class the run's
//! root does not have, or a file of another run is refused with its name and
//! line. The file is locked while a run appends to it.
//!
//! Checkpoint format 3: a proof is kept once, in its class record, packed
//! ([`super::packed_body`]: xz, base64, with its SHA-256); a finished root
//! query's record names the classes that raise its total (answer, position,
//! SHA-256) instead of repeating their proofs. A root record whose class has
//! no record, or whose SHA-256 is not its class record's, is refused.
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
use crate::search::AnswerId;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;

/// What identifies a depth-bound run.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DepthRunId {
    pub program: String,
    /// The certificate format the proof bodies are written in.
    pub format: u32,
    /// The checkpoint's own format ([`CHECKPOINT_FORMAT`]); 0 in files
    /// written before class records (2026-11-30), which held whole root queries only.
    #[serde(default)]
    pub checkpoint: u32,
    pub problem: String,
    pub depth: u32,
    /// The representatives of the root's query orbits, in order.
    pub root_queries: Vec<u32>,
}

/// The format of the checkpoint's records: 2 since a proved class is a record
/// of its own, 3 since its proof is packed and a root record names its classes.
pub const CHECKPOINT_FORMAT: u32 = 3;

/// A record: a finished root query, or one proved class below a root query.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DepthRecord {
    Root(RootRecord),
    Class(ClassRecord),
}

/// What a record is of; one file holds at most one record of each.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DepthUnit {
    /// A root query (its index among [`DepthRunId::root_queries`]).
    Root(usize),
    /// A class below a root query (its position among the root's classes).
    Class(usize),
}

impl DepthRecord {
    fn unit(&self) -> DepthUnit {
        match self {
            DepthRecord::Root(r) => DepthUnit::Root(r.rep),
            DepthRecord::Class(c) => DepthUnit::Class(c.position),
        }
    }
}

/// One answer class of a root query, proved by LB_{k−1}: which class, its
/// claim, the nodes written and its certificate body (packed, with its
/// SHA-256; both empty when the claim does not pass the class's simple bound,
/// as no certificate needs it).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClassRecord {
    /// Index among [`DepthRunId::root_queries`].
    pub rep: usize,
    pub answer: AnswerId,
    /// Position among the root's open classes (of all its queries).
    pub position: usize,
    pub claim: u64,
    pub written: u64,
    /// The SHA-256 of the body ([`super::packed_body::digest`]).
    pub digest: String,
    /// The body, [`super::packed_body::pack`]ed.
    pub body: String,
}

/// One root query's result: its total and the classes whose proofs raise it
/// (their records hold the proofs). The gains are not kept: a resumed run
/// takes each from its class's claim and simple bound, and the total must be
/// the query's simple total plus those gains.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RootRecord {
    /// Index among [`DepthRunId::root_queries`].
    pub rep: usize,
    pub total: u64,
    pub raised: Vec<ClassRef>,
}

/// A class a root record rests on: its answer, its position among the
/// root's classes and the SHA-256 of its proof.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClassRef {
    pub answer: AnswerId,
    pub position: usize,
    pub digest: String,
}

/// An open checkpoint: the records read at the start, and the locked file new ones go to.
pub struct DepthCheckpoint {
    log: SealedLog,
    done: HashMap<usize, RootRecord>,
    classes: HashMap<usize, ClassRecord>,
}

impl DepthCheckpoint {
    /// Opens (or starts) the checkpoint of run `id` at `path` and locks it.
    /// `classes[r]`: root query r's classes a class record may name, as
    /// (answer, position); class records of a finished root query are dropped.
    pub fn open(path: &Path, id: &DepthRunId, classes: &[Vec<(AnswerId, usize)>]) -> Result<DepthCheckpoint> {
        let (mut done, mut proved) = (HashMap::new(), HashMap::new());
        let this_run = |found: &DepthRunId| match (found == id, found.checkpoint == id.checkpoint) {
            (true, _) => Ok(()),
            (false, false) => Err(invalid(format!(
                "checkpoint {}: written in checkpoint format {}, this program writes {}: delete it and start again",
                path.display(),
                found.checkpoint,
                id.checkpoint
            ))),
            (false, true) => Err(invalid(format!(
                "checkpoint {}: line 1 is not this run's identity (another game, depth, program or root)",
                path.display()
            ))),
        };
        let reading =
            SealedReading { what: "depth-bound run", identity: Box::new(this_run), unit_of: DepthRecord::unit };
        let log = open_checkpoint(path, id, reading, |_, _, record: DepthRecord| {
            let rep = match &record {
                DepthRecord::Root(r) => r.rep,
                DepthRecord::Class(c) => c.rep,
            };
            if rep >= id.root_queries.len() {
                return Err(invalid(format!(
                    "checkpoint {}: root query {rep} is beyond the run's {}",
                    path.display(),
                    id.root_queries.len()
                )));
            }
            match record {
                DepthRecord::Root(r) => {
                    done.insert(r.rep, r);
                }
                DepthRecord::Class(c) if classes.get(rep).is_some_and(|v| v.contains(&(c.answer, c.position))) => {
                    proved.insert(c.position, c);
                }
                DepthRecord::Class(c) => {
                    return Err(invalid(format!(
                        "checkpoint {}: root query {rep} has no class of two or more codes for answer {} at \
                         position {}",
                        path.display(),
                        c.answer,
                        c.position
                    )));
                }
            }
            Ok(())
        })?;
        rests_on_its_classes(path, &done, &proved)?;
        // Kept: the classes of unfinished root queries, and those a finished one rests on.
        let named: std::collections::HashSet<usize> =
            done.values().flat_map(|r| r.raised.iter().map(|c| c.position)).collect();
        proved.retain(|p, c: &mut ClassRecord| !done.contains_key(&c.rep) || named.contains(p));
        Ok(DepthCheckpoint { log, done, classes: proved })
    }

    /// The record of root query `rep`, if a run before this one proved it.
    pub fn finished(&self, rep: usize) -> Option<&RootRecord> {
        self.done.get(&rep)
    }

    /// How many root queries were proved before this run.
    pub fn finished_count(&self) -> usize {
        self.done.len()
    }

    /// The record of the class at `position`, if a run before this one proved
    /// it (of a finished root query: only the classes its record names).
    pub fn proved(&self, position: usize) -> Option<&ClassRecord> {
        self.classes.get(&position)
    }

    /// How many class records were kept: of unfinished root queries, and those finished ones rest on.
    pub fn proved_count(&self) -> usize {
        self.classes.len()
    }

    /// Appends a record (one write of a whole line, flushed).
    pub fn append(&self, record: &DepthRecord) -> Result<()> {
        self.log.append(record)
    }
}

/// Refuses a root record that names a class with no record, or one whose
/// record is of another root query or answer or holds another proof (SHA-256).
fn rests_on_its_classes(
    path: &Path,
    done: &HashMap<usize, RootRecord>,
    proved: &HashMap<usize, ClassRecord>,
) -> Result<()> {
    let mut roots: Vec<&RootRecord> = done.values().collect();
    roots.sort_by_key(|r| r.rep);
    for root in roots {
        for named in &root.raised {
            let problem = match proved.get(&named.position) {
                None => "has no class record",
                Some(c) if (c.rep, c.answer) != (root.rep, named.answer) => "is another class in its record",
                Some(c) if c.digest != named.digest || c.body.is_empty() => {
                    "has another proof in its class record (SHA-256)"
                }
                Some(_) => continue,
            };
            return Err(invalid(format!(
                "checkpoint {}: root query {} rests on the class of answer {} at position {}, which {problem}",
                path.display(),
                root.rep,
                named.answer,
                named.position
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::packed_body::{digest, pack, unpack};

    fn id() -> DepthRunId {
        DepthRunId {
            program: "test".into(),
            format: 1,
            checkpoint: CHECKPOINT_FORMAT,
            problem: "p".into(),
            depth: 2,
            root_queries: vec![0, 3, 7],
        }
    }

    /// Root query r's classes: answers 1 and 4 at positions 2r and 2r + 1.
    fn classes() -> Vec<Vec<(AnswerId, usize)>> {
        (0..3).map(|r| vec![(1, 2 * r), (4, 2 * r + 1)]).collect()
    }

    /// A new scratch folder `name` and the path of a checkpoint in it (no file yet).
    fn fresh(name: &str) -> (std::path::PathBuf, std::path::PathBuf) {
        let dir = std::env::temp_dir().join(format!("{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("run.ckpt");
        let _ = std::fs::remove_file(&path);
        (dir, path)
    }

    fn open(path: &Path, id: &DepthRunId) -> Result<DepthCheckpoint> {
        DepthCheckpoint::open(path, id, &classes())
    }

    /// The proof body of the class at `position` in these tests.
    fn body(position: usize) -> Vec<u8> {
        vec![3, 4, position as u8]
    }

    /// A root record resting on the classes (answer, position) with the bodies of [`body`].
    fn root(rep: usize, raised: &[(AnswerId, usize)]) -> DepthRecord {
        let raised =
            raised.iter().map(|&(answer, position)| ClassRef { answer, position, digest: digest(&body(position)) });
        DepthRecord::Root(RootRecord { rep, total: 40 + rep as u64, raised: raised.collect() })
    }

    /// A root record resting on no class (a query not deepened).
    fn record(rep: usize) -> DepthRecord {
        root(rep, &[])
    }

    fn class(rep: usize, answer: AnswerId, position: usize) -> DepthRecord {
        let (digest, body) = (digest(&body(position)), pack(&body(position)));
        DepthRecord::Class(ClassRecord { rep, answer, position, claim: 7, written: 2, digest, body })
    }

    /// Records survive a reopen; a cut-off last line is ignored; an edited
    /// record, another run's file and a second writer are refused.
    #[test]
    fn resumes_and_refuses_what_it_should() {
        let (dir, path) = fresh("depth-checkpoint");
        {
            let c = open(&path, &id()).unwrap();
            assert_eq!(c.finished_count(), 0);
            c.append(&record(0)).unwrap();
            c.append(&record(2)).unwrap();
            assert!(open(&path, &id()).err().unwrap().to_string().contains("locked"));
        }
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, &text[..text.len() - 9]).unwrap();
        {
            let c = open(&path, &id()).unwrap();
            assert_eq!(c.finished_count(), 1);
            assert_eq!(c.finished(0).unwrap().total, 40);
            assert!(c.finished(0).unwrap().raised.is_empty());
            c.append(&record(2)).unwrap();
        }
        assert_eq!(open(&path, &id()).unwrap().finished_count(), 2);
        let other = DepthRunId { depth: 3, ..id() };
        assert!(open(&path, &other).err().unwrap().to_string().contains("identity"));
        let text = std::fs::read_to_string(&path).unwrap();
        std::fs::write(&path, text.replacen("\"total\":40", "\"total\":41", 1)).unwrap();
        assert!(open(&path, &id()).err().unwrap().to_string().contains("line 2"));
        // A record of another run (sealed with its key) is refused where it stands.
        let foreign = dir.join("other.ckpt");
        open(&foreign, &other).unwrap().append(&record(1)).unwrap();
        let spliced = format!("{}{}", text, std::fs::read_to_string(&foreign).unwrap().lines().nth(1).unwrap());
        std::fs::write(&path, spliced + "\n").unwrap();
        let message = open(&path, &id()).err().unwrap().to_string();
        assert!(message.contains("line 4") && message.contains("another run"), "{message}");
        std::fs::write(&path, format!("{text}{}\n", text.lines().nth(1).unwrap())).unwrap();
        let message = open(&path, &id()).err().unwrap().to_string();
        assert!(message.contains("line 4") && message.contains("second time"), "{message}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Class records come back for unfinished root queries, and for a
    /// finished one those its record names; a class the root does not have, a
    /// class recorded twice, a root record naming a class with no record, of
    /// another root query or with another proof, and a file of an older
    /// checkpoint format are refused.
    #[test]
    fn class_records_resume_and_are_refused_out_of_range() {
        let (dir, path) = fresh("depth-checkpoint-classes");
        {
            let c = open(&path, &id()).unwrap();
            for record in [class(0, 1, 0), class(1, 4, 3), class(0, 4, 1), root(0, &[(1, 0)])] {
                c.append(&record).unwrap();
            }
        }
        let c = open(&path, &id()).unwrap();
        assert_eq!((c.finished_count(), c.proved_count()), (1, 2));
        assert_eq!(c.finished(0).unwrap().raised, vec![ClassRef { answer: 1, position: 0, digest: digest(&body(0)) }]);
        let proved = c.proved(3).unwrap();
        assert_eq!((proved.rep, proved.answer, proved.claim), (1, 4, 7));
        assert_eq!(unpack(&proved.body, &proved.digest).unwrap(), body(3));
        assert_eq!(unpack(&c.proved(0).unwrap().body, &digest(&body(0))).unwrap(), body(0));
        assert!(c.proved(1).is_none(), "root query 0 is finished without it: its class record is dropped");
        drop(c);
        let text = std::fs::read_to_string(&path).unwrap();
        let other_proof = DepthRecord::Root(RootRecord {
            rep: 1,
            total: 41,
            raised: vec![ClassRef { answer: 4, position: 3, digest: digest(&body(4)) }],
        });
        for (wrong, message) in [
            (class(3, 1, 6), "root query 3 is beyond the run's 3"),
            (class(1, 4, 2), "no class of two or more codes for answer 4 at position 2"),
            (class(2, 2, 4), "no class of two or more codes for answer 2 at position 4"),
            (class(1, 4, 3), "second time"),
            (
                root(2, &[(1, 4)]),
                "root query 2 rests on the class of answer 1 at position 4, which has no class record",
            ),
            (root(2, &[(4, 3)]), "at position 3, which is another class in its record"),
            (other_proof, "root query 1 rests on the class of answer 4 at position 3, which has another proof"),
        ] {
            let line = crate::output::sealed_lines::keyed_line(&text[..8], &wrong);
            std::fs::write(&path, format!("{text}{line}\n")).unwrap();
            let found = open(&path, &id()).err().unwrap().to_string();
            assert!(found.contains(message), "{found}");
        }
        // The identity lines of older programs: no checkpoint format, and format 2.
        let old =
            serde_json::to_string(&DepthRunId { checkpoint: 0, ..id() }).unwrap().replace(",\"checkpoint\":0", "");
        std::fs::write(&path, format!("{} {old}\n", crate::output::crc32_hex(old.as_bytes()))).unwrap();
        let found = open(&path, &id()).err().unwrap().to_string();
        assert!(found.contains("checkpoint format 0, this program writes 3"), "{found}");
        let two = crate::output::checked_line(&DepthRunId { checkpoint: 2, ..id() });
        std::fs::write(&path, format!("{two}\n")).unwrap();
        let found = open(&path, &id()).err().unwrap().to_string();
        assert!(found.contains("written in checkpoint format 2, this program writes 3: delete it"), "{found}");
        assert_eq!(found.lines().count(), 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
