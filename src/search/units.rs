//! Long analyses in work units (for Beams(6c,6p), thesis §4.4.3): the
//! strategy tree is cut below its first `levels` queries; each subtree there
//! is a unit with an exact partial outcome. Under MIX every tied query of a
//! cut node starts its own branch, and a unit carries its *weight*: the
//! probability that the random tie choices above it lead to it (the product of
//! the tie shares on its path; 1 under LEX). Units are numbered in a fixed
//! depth-first order, so
//! - a run can keep a checkpoint (one line per finished unit) and resume after
//!   being killed, giving the identical result;
//! - `--shard i/N` evaluates the units with number ≡ i (mod N), and
//!   [`merge`] adds the shard files exactly, after checking that they belong
//!   to the same run and cover every unit once.
//!
//! The weighted sum of all unit outcomes (each shifted by its depth) is the
//! outcome of [`super::analysis::analyze`], exactly, because a MIX node's
//! outcome is the weighted mean of its branches; the tests check this on small
//! games for LEX and MIX.

use super::analysis::{LARGE_SET_BYTES, is_large_set, root_representatives, subtree_outcome};
use super::checkpoint::{append_record, open_checkpoint};
use super::outcome::{Exact, Outcome, exact_f64, exact_string};
use super::problem::{AnswerId, QueryId, SearchProblem};
pub use super::run_file::{
    PenaltySplit, RunHeader, SessionTime, Shard, ShardFile, UnitRecord, merge, merge_named, penalty_split_known,
    sessions_wall_seconds,
};
pub use super::shard_file::{read_shard, write_shard};
use super::strategy::{Strategy, decide};
use crate::error::{Result, invalid};
use crate::output::sealed_lines::SealedLog;
use crate::progress::Progress;
use rayon::prelude::*;
use std::path::Path;

/// A unit waiting to be evaluated: the subtree at (state, set) at `depth`, or a
/// class solved by its last query; reached with probability `weight`.
struct Pending<P: SearchProblem> {
    path: Vec<AnswerId>,
    queries: Vec<QueryId>,
    weight: Exact,
    depth: usize,
    state: P::State,
    set: P::Set,
    solved: bool,
}

impl<P: SearchProblem> Pending<P> {
    /// Evaluates the unit: its exact record (number `index`), timed.
    fn evaluate(&self, index: u64, problem: &P, strategy: Strategy) -> UnitRecord {
        let clock = std::time::Instant::now();
        let outcome = self.outcome(problem, strategy);
        let (depth_counts, penalty) = outcome.to_strings();
        UnitRecord {
            index,
            path: self.path.clone(),
            queries: self.queries.clone(),
            weight: (!self.weight.is_integer()).then(|| exact_string(&self.weight)),
            codes: problem.set_size(&self.set),
            depth_counts,
            penalty,
            seconds: clock.elapsed().as_secs_f64(),
            penalised: Some(outcome.penalised_strings()),
            session: None,
            crc: None,
        }
    }

    fn outcome(&self, problem: &P, strategy: Strategy) -> Outcome {
        let below = if self.solved {
            super::leaf::solved(problem.set_size(&self.set))
        } else {
            subtree_outcome(problem, strategy, &self.state, &self.set, &super::analysis::RunOptions::default())
        };
        let mut out = Outcome::empty();
        out.add_shifted(&below, self.depth);
        out
    }

    /// The unit's codes times its weight, rounded (for progress).
    fn weighted_codes(&self, problem: &P) -> u64 {
        (problem.set_size(&self.set) as f64 * exact_f64(&self.weight)).round() as u64
    }
}

/// Whether `unit` is a unit of the cut (not expanded further).
fn is_cut<P: SearchProblem>(problem: &P, levels: usize, unit: &Pending<P>) -> bool {
    unit.solved || unit.depth >= levels || problem.set_size(&unit.set) == 1
}

/// Batches of units waiting for evaluation are flushed once their code sets
/// hold this many bytes (or at the end of a root class).
const BATCH_BYTES: usize = 256 << 20;

/// Walks the tree cut `levels` below `unit` depth-first and hands its units,
/// in order, to `sink` (which numbers them). Every query the tie rule may play
/// starts a branch with its share of the weight (at the root one query per
/// symmetry class, as in [`super::analysis::analyze`]).
///
/// Memory: only the nodes on the current path and the pending batch are held.
/// A node's code set is dropped once its last query has split it, and each
/// class is dropped once its units are evaluated (the whole cut of a Beams(6c,6p)
/// MIX root held 2 GB of code sets, one root class's cut up to 2 GB more).
fn walk<P: SearchProblem>(
    problem: &P,
    strategy: Strategy,
    levels: usize,
    unit: Pending<P>,
    sink: &mut UnitSink<P>,
) -> Result<()> {
    if is_cut(problem, levels, &unit) {
        return sink.push(unit);
    }
    let mut chosen = decide(problem, &strategy, &unit.state, &unit.set);
    if unit.depth == 0 {
        chosen = root_representatives(problem, &strategy, &chosen);
    }
    if chosen.is_empty() {
        return sink.push(unit);
    }
    let all: u64 = chosen.iter().map(|c| c.0).sum();
    let Pending { path, queries, weight, depth, state, set, .. } = unit;
    let mut set = Some(set);
    for (k, &(w, query)) in chosen.iter().enumerate() {
        let classes = if k + 1 == chosen.len() {
            problem.split(query, &set.take().expect("held until the last query"))
        } else {
            problem.split(query, set.as_ref().expect("held until the last query"))
        };
        let weight = &weight * Exact::new(w.into(), all.into());
        let next = problem.next_state(&state, query);
        let solving = problem.solving_answer(query);
        for (answer, class) in classes {
            let (mut path, mut queries) = (path.clone(), queries.clone());
            path.push(answer);
            queries.push(query);
            let solved = Some(answer) == solving;
            let child = Pending {
                path,
                queries,
                weight: weight.clone(),
                depth: depth + 1,
                state: next.clone(),
                set: class,
                solved,
            };
            walk(problem, strategy, levels, child, sink)?;
            if depth == 0 {
                sink.flush()?;
                sink.report_root_class();
            }
        }
    }
    Ok(())
}

/// Options of a unit run.
pub struct UnitRun<'a> {
    pub levels: usize,
    pub shard: Shard,
    pub checkpoint: Option<&'a Path>,
    /// Reports codes done (weighted by the units' weights) and one note per
    /// finished root class.
    pub progress: Progress,
}

/// Numbers the units in the order they arrive, and evaluates this shard's
/// units that the checkpoint does not hold, a batch at a time in parallel.
struct UnitSink<'a, P: SearchProblem> {
    problem: &'a P,
    strategy: Strategy,
    shard: Shard,
    /// The checkpoint's units of this shard, with their paths (checked
    /// against the units this walk numbers).
    finished: std::collections::HashMap<u64, Vec<AnswerId>>,
    /// [`RunHeader::record_key`] of the run's header: new records are sealed with it.
    key: String,
    /// The checkpoint's path, for messages.
    checkpoint: String,
    log: Option<SealedLog>,
    progress: Progress,
    /// Codes done, weighted by the units' weights (for the root-class notes).
    codes_done: std::sync::atomic::AtomicU64,
    started: std::time::Instant,
    /// `started` in Unix seconds (recorded with each unit).
    session_started: f64,
    batch: Vec<Pending<P>>,
    batch_bytes: usize,
    next_index: u64,
    root_classes_done: usize,
    records: Vec<UnitRecord>,
    /// `Some` in a listing walk: the units' (path, queries), nothing evaluated.
    listing: Option<Vec<UnitPath>>,
}

/// The answers and the queries from the root to a unit.
pub type UnitPath = (Vec<AnswerId>, Vec<QueryId>);

impl<'a, P: SearchProblem> UnitSink<'a, P> {
    /// A sink for `run`, holding the checkpoint's records of this shard (`resumed`)
    /// and writing new ones to `log`.
    fn new(
        problem: &'a P,
        strategy: Strategy,
        run: &UnitRun,
        (key, resumed): (String, Vec<UnitRecord>),
        log: Option<SealedLog>,
    ) -> Self {
        run.progress.begin("codes", Some(problem.code_count() as u64));
        UnitSink {
            problem,
            strategy,
            shard: run.shard,
            finished: resumed.iter().map(|r| (r.index, r.path.clone())).collect(),
            key,
            checkpoint: run.checkpoint.map_or(String::new(), |p| p.display().to_string()),
            log,
            progress: run.progress.clone(),
            codes_done: std::sync::atomic::AtomicU64::new(0),
            started: std::time::Instant::now(),
            session_started: std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0.0, |d| d.as_micros() as f64 / 1e6),
            batch: Vec::new(),
            batch_bytes: 0,
            next_index: 0,
            root_classes_done: 0,
            records: resumed,
            listing: None,
        }
    }

    /// Takes the next unit; evaluates the batch once it is large.
    fn push(&mut self, unit: Pending<P>) -> Result<()> {
        self.batch_bytes += self.problem.set_bytes(&unit.set);
        self.batch.push(unit);
        if self.batch_bytes >= BATCH_BYTES {
            self.flush()?;
        }
        Ok(())
    }

    /// Numbers the batch's units and evaluates those of this shard not yet done.
    fn flush(&mut self) -> Result<()> {
        let batch = std::mem::take(&mut self.batch);
        self.batch_bytes = 0;
        let first = self.next_index;
        self.next_index += batch.len() as u64;
        if let Some(listing) = &mut self.listing {
            listing.extend(batch.into_iter().map(|u| (u.path, u.queries)));
            return Ok(());
        }
        let (problem, strategy, log) = (self.problem, self.strategy, &self.log);
        let advance = |codes: u64| {
            self.codes_done.fetch_add(codes, std::sync::atomic::Ordering::Relaxed);
            self.progress.advance(codes);
        };
        for (i, u) in (first..).zip(&batch) {
            if let Some(path) = self.finished.get(&i)
                && *path != u.path
            {
                return Err(invalid(format!(
                    "checkpoint {}: unit {i} is recorded with answers {path:?}, but this run's unit {i} has answers {:?} (a record of another numbering)",
                    self.checkpoint, u.path
                )));
            }
        }
        let mine: Vec<(u64, &Pending<P>)> = (first..)
            .zip(&batch)
            .filter(|(i, u)| {
                let skip = i % self.shard.count != self.shard.index || self.finished.contains_key(i);
                if skip {
                    advance(u.weighted_codes(problem));
                }
                !skip
            })
            .collect();
        let (session_started, started, key) = (self.session_started, self.started, self.key.as_str());
        let finish = |(index, unit): &(u64, &Pending<P>)| -> Result<UnitRecord> {
            let mut record = unit.evaluate(*index, problem, strategy);
            record.session = Some(SessionTime { started: session_started, at: started.elapsed().as_secs_f64() });
            let record = record.sealed(key);
            append_record(log, &record)?;
            advance(unit.weighted_codes(problem));
            Ok(record)
        };
        // Large units one at a time (their threads share each node's work; see
        // `LARGE_SET_BYTES`), the others in parallel.
        let (large, small): (Vec<_>, Vec<_>) =
            mine.into_iter().partition(|(_, u)| is_large_set(problem, &u.set, LARGE_SET_BYTES));
        let mut fresh: Vec<Result<UnitRecord>> = large.iter().map(finish).collect();
        fresh.extend(small.par_iter().map(finish).collect::<Vec<_>>());
        for r in fresh {
            self.records.push(r?);
        }
        Ok(())
    }

    /// One note per finished root class: codes done, time, ETA (for logs,
    /// where no bar is drawn).
    fn report_root_class(&mut self) {
        self.root_classes_done += 1;
        if !self.progress.is_observed() {
            return;
        }
        let done = self.codes_done.load(std::sync::atomic::Ordering::Relaxed);
        let (all, elapsed) = (self.problem.code_count() as f64, self.started.elapsed().as_secs_f64());
        let eta = if done > 0 { elapsed * (all / done as f64 - 1.0) } else { f64::NAN };
        self.progress.note(&format!(
            "  root class {}: {done} of {all} codes, {elapsed:.0} s, ETA {eta:.0} s",
            self.root_classes_done
        ));
    }
}

/// The whole tree's root node as a unit to walk.
fn root_unit<P: SearchProblem>(problem: &P) -> Pending<P> {
    let one = Exact::from_integer(1.into());
    Pending {
        path: Vec::new(),
        queries: Vec::new(),
        weight: one,
        depth: 0,
        state: problem.initial_state(),
        set: problem.full_set(),
        solved: false,
    }
}

/// The units of a run cut at `levels`, in their numbering order, as (path,
/// queries), without evaluating any (to check that a checkpoint's numbering
/// is the one this program walks).
pub fn unit_paths<P: SearchProblem>(problem: &P, strategy: Strategy, levels: usize) -> Result<Vec<UnitPath>> {
    let run = UnitRun { levels, shard: Shard { index: 0, count: 1 }, checkpoint: None, progress: Progress::none() };
    let mut sink = UnitSink::new(problem, strategy, &run, (String::new(), Vec::new()), None);
    sink.listing = Some(Vec::new());
    walk(problem, strategy, levels, root_unit(problem), &mut sink)?;
    sink.flush()?;
    Ok(sink.listing.unwrap_or_default())
}

/// Evaluates this shard's units of the analysis of `strategy` on `problem`,
/// walking the cut tree depth-first (see [`walk`]); units are evaluated in
/// parallel batches. Progress counts codes weighted by the units' weights.
pub fn run_units<P: SearchProblem>(problem: &P, strategy: Strategy, run: &UnitRun) -> Result<ShardFile> {
    let started = std::time::Instant::now();
    let header = RunHeader::new(problem.name(), strategy, run.levels);
    let (log, done) = match run.checkpoint {
        Some(path) => open_checkpoint(path, &header).map(|(log, done)| (Some(log), done))?,
        None => (None, Vec::new()),
    };
    let resumed: Vec<UnitRecord> = done.into_iter().filter(|r| r.index % run.shard.count == run.shard.index).collect();
    let resumed_units = resumed.len() as u64;
    let key = header.record_key().to_string();
    let mut sink = UnitSink::new(problem, strategy, run, (key, resumed), log);
    walk(problem, strategy, run.levels, root_unit(problem), &mut sink)?;
    sink.flush()?;
    sink.progress.end();
    if let Some(beyond) = sink.finished.keys().find(|&&i| i >= sink.next_index) {
        return Err(invalid(format!(
            "checkpoint {}: unit {beyond} is recorded, but this run has {} units",
            run.checkpoint.map_or(String::new(), |p| p.display().to_string()),
            sink.next_index
        )));
    }
    let mut records = sink.records;
    records.sort_by_key(|r| r.index);
    Ok(ShardFile {
        header,
        shard: (run.shard.index, run.shard.count),
        units_total: sink.next_index,
        codes_total: problem.code_count() as u64,
        seconds: started.elapsed().as_secs_f64(),
        peak_memory_bytes: crate::memory::peak_resident_bytes(),
        resumed_units: Some(resumed_units),
        units: records,
    })
}
