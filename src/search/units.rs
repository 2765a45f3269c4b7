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

use super::analysis::{LARGE_SET_BYTES, is_large_set, progress_bar, root_representatives, subtree_outcome};
use super::outcome::{Exact, Outcome, exact_f64, exact_string, parse_exact};
use super::problem::{AnswerId, QueryId, SearchProblem};
use super::strategy::{Strategy, decide};
use crate::error::{Error, Result, invalid};
use crate::output::write_json;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Mutex;

/// What identifies a run: units of different runs must never be mixed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunHeader {
    pub program: String,
    pub version: String,
    pub problem: String,
    pub alpha: String,
    pub tie_rule: String,
    pub levels: usize,
}

impl RunHeader {
    /// The header of a run of this program version: `strategy` on the problem
    /// named `problem`, cut into units `levels` queries below the root.
    pub fn new(problem: String, strategy: Strategy, levels: usize) -> RunHeader {
        RunHeader {
            program: "renyi-search".into(),
            version: crate::VERSION.into(),
            problem,
            alpha: strategy.score.alpha().to_string(),
            tie_rule: strategy.tie.to_string(),
            levels,
        }
    }
}

/// One finished unit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct UnitRecord {
    pub index: u64,
    /// Answers from the root to the unit.
    pub path: Vec<AnswerId>,
    /// The query before each answer of `path` (empty in records of older versions).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub queries: Vec<QueryId>,
    /// MIX: the exact probability of the tie choices that lead to the unit;
    /// absent (= 1) under LEX. The unit's share of the result is `weight` × its outcome.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weight: Option<String>,
    pub codes: u64,
    /// Exact per-depth counts (depths from the root) and penalty.
    pub depth_counts: Vec<String>,
    pub penalty: String,
    /// Wall seconds from the unit's start to its end (0 in records of older
    /// versions). Large units run alone on all threads; small units share the
    /// threads with each other, so their seconds overlap.
    #[serde(default)]
    pub seconds: f64,
    /// Codes by penalty points paid (index p; see [`Outcome::penalised`]);
    /// `None` in records of versions that did not keep it.
    #[serde(default)]
    pub penalised: Option<Vec<String>>,
    /// The session (process) that evaluated the unit and when it recorded it;
    /// `None` in records of older versions (see [`sessions_wall_seconds`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub session: Option<SessionTime>,
}

/// When a unit was recorded: the start of its session (Unix seconds, to the
/// microsecond, which tells sessions apart) and the wall seconds from that
/// start to the record.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SessionTime {
    pub started: f64,
    pub at: f64,
}

/// Wall time of a run over all its sessions: for each session, the time from
/// its start to its last recorded unit, summed. Work a killed session did on
/// units it did not finish is not counted (those units are redone and counted
/// in a later session), so this is what an uninterrupted run would have taken,
/// up to the differing load. `None` if some record lacks its session.
pub fn sessions_wall_seconds(records: &[UnitRecord]) -> Option<f64> {
    let mut latest: std::collections::BTreeMap<u64, f64> = std::collections::BTreeMap::new();
    for r in records {
        let t = r.session?;
        let at = latest.entry(t.started.to_bits()).or_insert(0.0);
        *at = at.max(t.at);
    }
    Some(latest.values().sum())
}

/// The result file of one shard.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShardFile {
    pub header: RunHeader,
    pub shard: (u64, u64),
    pub units_total: u64,
    pub codes_total: u64,
    pub seconds: f64,
    /// Peak resident memory of the process that wrote the file, in bytes
    /// (absent where not reported, and in files of older versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
    /// Units of this shard taken from the checkpoint rather than evaluated by
    /// this process: 0 means the run went from scratch (absent in older files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_units: Option<u64>,
    pub units: Vec<UnitRecord>,
}

/// `i/N`: this process evaluates the units whose number is ≡ i mod N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl std::str::FromStr for Shard {
    type Err = Error;
    fn from_str(text: &str) -> Result<Shard> {
        let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if count >= 1 && index < count => Ok(Shard { index, count }),
            _ => Err(invalid(format!("shard `{text}`: write i/N with 0 ≤ i < N, e.g. 0/4"))),
        }
    }
}

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
        }
    }

    fn outcome(&self, problem: &P, strategy: Strategy) -> Outcome {
        let below = if self.solved {
            Outcome::leaf(problem.set_size(&self.set), 0, super::outcome::Exact::from_integer(0.into()))
        } else {
            subtree_outcome(problem, strategy, &self.state, &self.set, super::analysis::RunOptions::default())
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
    pub progress: bool,
}

/// Numbers the units in the order they arrive, and evaluates this shard's
/// units that the checkpoint does not hold, a batch at a time in parallel.
struct UnitSink<'a, P: SearchProblem> {
    problem: &'a P,
    strategy: Strategy,
    shard: Shard,
    finished: std::collections::HashSet<u64>,
    log: Mutex<Option<std::fs::File>>,
    bar: indicatif::ProgressBar,
    progress: bool,
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
        resumed: Vec<UnitRecord>,
        log: Mutex<Option<std::fs::File>>,
    ) -> Self {
        let bar = progress_bar(run.progress);
        bar.set_length(problem.code_count() as u64);
        bar.set_message("codes");
        UnitSink {
            problem,
            strategy,
            shard: run.shard,
            finished: resumed.iter().map(|r| r.index).collect(),
            log,
            bar,
            progress: run.progress,
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
        let (problem, strategy, bar, log) = (self.problem, self.strategy, &self.bar, &self.log);
        let mine: Vec<(u64, &Pending<P>)> = (first..)
            .zip(&batch)
            .filter(|(i, u)| {
                let skip = i % self.shard.count != self.shard.index || self.finished.contains(i);
                if skip {
                    bar.inc(u.weighted_codes(problem));
                }
                !skip
            })
            .collect();
        let (session_started, started) = (self.session_started, self.started);
        let finish = |(index, unit): &(u64, &Pending<P>)| -> Result<UnitRecord> {
            let mut record = unit.evaluate(*index, problem, strategy);
            record.session = Some(SessionTime { started: session_started, at: started.elapsed().as_secs_f64() });
            append_record(log, &record)?;
            bar.inc(unit.weighted_codes(problem));
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

    /// Progress without a terminal (the bar is hidden): one line per finished root class.
    fn report_root_class(&mut self) {
        self.root_classes_done += 1;
        if !self.progress || !self.bar.is_hidden() {
            return;
        }
        let (done, all, elapsed) =
            (self.bar.position(), self.problem.code_count() as f64, self.started.elapsed().as_secs_f64());
        let eta = if done > 0 { elapsed * (all / done as f64 - 1.0) } else { f64::NAN };
        eprintln!("  root class {}: {done} of {all} codes, {elapsed:.0} s, ETA {eta:.0} s", self.root_classes_done);
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
    let run = UnitRun { levels, shard: Shard { index: 0, count: 1 }, checkpoint: None, progress: false };
    let mut sink = UnitSink::new(problem, strategy, &run, Vec::new(), Mutex::new(None));
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
    // The checkpoint is locked before it is read, so that a second run on the
    // same file is refused instead of appending duplicate units.
    let locked = lock_checkpoint(run.checkpoint)?;
    let done = match run.checkpoint {
        Some(path) => read_checkpoint(path, &header)?,
        None => Vec::new(),
    };
    let log = Mutex::new(prepare_checkpoint(locked, run.checkpoint, &header, done.is_empty())?);
    let resumed: Vec<UnitRecord> = done.into_iter().filter(|r| r.index % run.shard.count == run.shard.index).collect();
    let resumed_units = resumed.len() as u64;
    let mut sink = UnitSink::new(problem, strategy, run, resumed, log);
    walk(problem, strategy, run.levels, root_unit(problem), &mut sink)?;
    sink.flush()?;
    sink.bar.finish_and_clear();
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

fn read_checkpoint(path: &Path, header: &RunHeader) -> Result<Vec<UnitRecord>> {
    let Ok(file) = std::fs::File::open(path) else { return Ok(Vec::new()) };
    let mut lines = std::io::BufReader::new(file).lines();
    let first = lines.next().and_then(|l| l.ok()).unwrap_or_default();
    if first.is_empty() && std::fs::metadata(path).is_ok_and(|m| m.len() == 0) {
        // An empty file (e.g. created by a run killed before its header) is
        // an empty checkpoint, not a foreign one.
        return Ok(Vec::new());
    }
    let theirs: RunHeader = serde_json::from_str(&first)
        .map_err(|_| invalid(format!("{} is not a checkpoint of this program (unreadable header)", path.display())))?;
    if &theirs != header {
        return Err(invalid(format!(
            "checkpoint {} belongs to another run ({} {} α={} {} levels {}); this run is {} {} α={} {} levels {}; remove it or choose another file",
            path.display(),
            theirs.version,
            theirs.problem,
            theirs.alpha,
            theirs.tie_rule,
            theirs.levels,
            header.version,
            header.problem,
            header.alpha,
            header.tie_rule,
            header.levels
        )));
    }
    // A line cut off by a kill is ignored; its unit is evaluated again.
    Ok(lines.map_while(|l| l.ok()).filter_map(|l| serde_json::from_str(&l).ok()).collect())
}

/// Opens the checkpoint for appending and takes an exclusive advisory lock
/// on it (held until the run ends); a file locked by another run is refused.
pub(crate) fn lock_checkpoint(path: Option<&Path>) -> Result<Option<std::fs::File>> {
    let Some(path) = path else { return Ok(None) };
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(std::fs::TryLockError::WouldBlock) => Err(invalid(format!(
            "checkpoint {} is in use by another run (locked); wait for it to finish or choose another file",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(io(e)),
    }
}

fn prepare_checkpoint(
    file: Option<std::fs::File>,
    path: Option<&Path>,
    header: &RunHeader,
    fresh: bool,
) -> Result<Option<std::fs::File>> {
    let (Some(mut file), Some(path)) = (file, path) else { return Ok(None) };
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    if fresh && file.metadata().map_err(io)?.len() == 0 {
        writeln!(file, "{}", serde_json::to_string(header).expect("plain data")).map_err(io)?;
    } else if !ends_with_newline(path).map_err(io)? {
        // A line cut off by a kill (or a header without its newline): the
        // records go on on a new line, so that none is glued to the fragment.
        writeln!(file).map_err(io)?;
    }
    Ok(Some(file))
}

/// Whether the file at `path` is empty or ends with a newline.
pub(crate) fn ends_with_newline(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    if file.seek(SeekFrom::End(0))? == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

fn append_record(log: &Mutex<Option<std::fs::File>>, record: &UnitRecord) -> Result<()> {
    let mut guard = log.lock().expect("checkpoint lock");
    if let Some(file) = guard.as_mut() {
        let line = serde_json::to_string(record).expect("plain data");
        writeln!(file, "{line}")
            .and_then(|_| file.flush())
            .map_err(|e| Error::Io { path: "checkpoint".into(), source: e })?;
    }
    Ok(())
}

/// Whether every unit of the shard files recorded how its penalty points split
/// over the codes (records of older versions did not), so that the merged
/// [`Outcome::penalised`] is complete.
pub fn penalty_split_known(shards: &[ShardFile]) -> bool {
    shards.iter().all(|s| s.units.iter().all(|u| u.penalised.is_some()))
}

/// Writes a shard file (atomically).
pub fn write_shard(path: &Path, shard: &ShardFile) -> Result<()> {
    write_json(path, shard)
}

/// Adds the units of complete shard files exactly. Errors if the files come
/// from different runs, a unit appears twice, or any unit is missing.
pub fn merge(shards: &[ShardFile]) -> Result<(RunHeader, Outcome)> {
    let Some(first) = shards.first() else { return Err(invalid("merge needs at least one shard file")) };
    let mut seen = vec![false; first.units_total as usize];
    let mut total = Outcome::empty();
    for s in shards {
        if s.header != first.header || s.units_total != first.units_total {
            return Err(invalid(format!(
                "shard {}/{} belongs to another run than shard {}/{}",
                s.shard.0, s.shard.1, first.shard.0, first.shard.1
            )));
        }
        for r in &s.units {
            let slot = seen
                .get_mut(r.index as usize)
                .ok_or_else(|| invalid(format!("unit {} is beyond the run's {} units", r.index, first.units_total)))?;
            if std::mem::replace(slot, true) {
                return Err(invalid(format!("unit {} appears twice", r.index)));
            }
            let unreadable = || invalid(format!("unit {} has unreadable values", r.index));
            let mut o = Outcome::from_strings(&r.depth_counts, &r.penalty, r.penalised.as_deref().unwrap_or(&[]))
                .ok_or_else(unreadable)?;
            if let Some(w) = &r.weight {
                o = o.scaled(&parse_exact(w).ok_or_else(unreadable)?);
            }
            total.add_shifted(&o, 0);
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        let count = seen.iter().filter(|s| !**s).count();
        return Err(invalid(format!(
            "{count} of {} units are missing (first: unit {missing}); merge every shard of the run",
            first.units_total
        )));
    }
    Ok((first.header.clone(), total))
}
