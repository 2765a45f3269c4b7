//! Curves too large for one process (Beams(6c,6p), thesis Fig. 4.12) as a
//! work-unit run. The curve walk is cut `levels` queries below the root:
//! every node there, with the sub-domain of α on which the walk reaches it,
//! is a unit whose result is its own exact step function. The top levels are
//! cheap (few, large sets) and are walked again by every process.
//!
//! A run lists its units (a walk of the top levels, sorted by key, so unit
//! i is the same in every process; or read from the run's unit list, written
//! once, [`super::unit_list`]), evaluates this shard's units not yet in a run
//! file (`--shard i/N`: unit numbers ≡ i mod N), each rebuilt from its trail
//! and sub-domain without walking the levels above it and appended to the
//! checkpoint as it finishes, and, once every unit of the run is in the
//! checkpoint or in the files given with it, merges: the top levels walked
//! with the units' step functions in place of their subtrees, which gives
//! exactly the curve of [`super::curve`] (a test checks this).
//!
//! Run files carry the run's identity and a checksum per line, each
//! record's keyed to its run ([`super::unit_file`], [`super::run_key`]); a
//! record of another run, an edited record, a unit recorded twice in one
//! file (or in two with different results) or a record of no unit of the run
//! is refused with the file and line named.

use super::deal::{DealBooks, Standing, dealt_id, same_deal_or_refuse};
use super::deal_cache::{cache_path, cached_shard_units};
use super::run_key::UnitCut;
use super::run_key::{exact_domain_text, same_run};
use super::unit_file::{CurveRunId, UnitSteps, for_each_record, reading, unit_record, unit_steps};
use super::unit_list::{ListedUnit, queries_by_label, read_unit_list, split_units, unit_at};
pub use super::unit_list::{list_unit_domains, list_units, shard_units};
use super::unit_merge::{Digest, MergeCut, SlicedMerge, digest, merge_in_slices, merge_whole, slices};
use crate::curve::steps::Domain;
use crate::curve::walk::{Curve, NodeSteps, Segment, unit_steps_at};
use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::SealedLog;
use crate::output::work_units::{Twice, UnitTally, open_checkpoint};
use crate::progress::Progress;
use crate::renyi::alpha::Alpha;
use crate::search::SearchProblem;
use crate::search::TieRule;
use crate::search::units::Shard;
use rayon::prelude::*;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What a unit run is asked to do.
pub struct CurveUnitRun<'a> {
    pub levels: usize,
    /// Nodes at the cut of more than this many codes are cut one query deeper ([`UnitCut`]).
    pub split_above: Option<u64>,
    pub shard: Shard,
    /// This process's run file: read on start (resume), appended to.
    pub checkpoint: &'a Path,
    /// Finished units of other processes (their checkpoints), read only.
    pub with: &'a [PathBuf],
    /// Diagnostic: evaluate nothing and merge the known units, each missing
    /// unit counted as its placeholder (no codes below it). The result is
    /// NOT the curve; it measures what the merge of a run will need (memory,
    /// time) before its last unit is done.
    pub known_only: bool,
    /// The run's unit list ([`super::unit_list`]), read instead of listing
    /// the units (`None`: listed by this process).
    pub units: Option<&'a Path>,
    /// Deal this shard its units by their codes, without the run's listing
    /// ([`super::deal`]; not with `units`).
    pub by_codes: bool,
}

impl CurveUnitRun<'_> {
    /// Where the run cuts the walk.
    pub fn cut(&self) -> UnitCut {
        UnitCut { levels: self.levels, split_above: self.split_above }
    }

    /// What the merge takes of the run.
    fn merge_cut(&self) -> MergeCut {
        MergeCut { cut: self.cut(), known_only: self.known_only }
    }
}

/// Where a unit run stands when this process is done. `M` is what the
/// merge gives: the curve ([`run_curve_units`]), or, when its pieces went
/// to a sink, what else it reports ([`run_curve_units_in_slices`]).
pub enum CurveUnits<M = Curve> {
    /// Units of other shards are still missing. A run dealt by codes knows
    /// the units of the shards it was given files of (`unseen_shards`: the
    /// shards of none).
    Incomplete { units: u64, known: u64, unit_codes: u64, known_codes: u64, evaluated: u64, unseen_shards: u64 },
    /// Every unit is known: the merged curve (with `known_only`, the units
    /// known, `missing` of them counted as zero).
    Complete { curve: M, units: u64, evaluated: u64, missing: u64 },
}

/// A run whose units are all known, ready to merge.
struct Known {
    known: HashMap<String, Digest>,
    files: Vec<PathBuf>,
    units: u64,
    evaluated: u64,
}

impl Known {
    /// Units counted as zero (the diagnostic `known_only`).
    fn missing(&self) -> u64 {
        self.units.saturating_sub(self.known.len() as u64)
    }
}

/// The run's units: read from its unit list (its header's counts checked
/// against the units) or listed by a walk of the top levels; or, dealt by
/// codes, this shard's units and identity.
pub(super) fn run_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
) -> Result<(CurveRunId, Vec<ListedUnit>)> {
    if run.by_codes {
        if run.units.is_some() {
            return Err(invalid("--units: a shard dealt its units by codes reads no unit list"));
        }
        // The line is the run's at `levels` alone (shared with such a run); units
        // over `split_above` are split after the deal, each within its shard.
        let whole = run_id(problem, tie, domain, run.levels, &[]);
        let cache = cache_path(run.checkpoint, &whole);
        let units = cached_shard_units(problem, (tie, domain, run.levels), run.shard, &whole, &cache)?;
        let units = split_units(problem, tie, units, run.cut())?;
        return Ok((dealt_id(run_id(problem, tie, domain, run.cut(), &units), run.shard), units));
    }
    let Some(path) = run.units else {
        let units = list_unit_domains(problem, tie, domain, run.cut())?;
        return Ok((run_id(problem, tie, domain, run.cut(), &units), units));
    };
    read_unit_list(path, &run_id(problem, tie, domain, run.cut(), &[]))
}

/// The identity of the run of `problem` with `tie` on `domain` cut at `cut` (a level count, or a [`UnitCut`]).
pub fn run_id<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    cut: impl Into<UnitCut>,
    units: &[ListedUnit],
) -> CurveRunId {
    let UnitCut { levels, split_above } = cut.into();
    CurveRunId {
        program: "renyi-search".into(),
        version: crate::VERSION.into(),
        problem: problem.name(),
        tie_rule: tie,
        domain: exact_domain_text(domain),
        levels,
        split_above,
        units: units.len() as u64,
        unit_codes: units.iter().map(|u| u.codes).sum(),
        keyed: true,
        deal: None,
    }
}

/// Runs this process's part of a curve unit run and merges when every unit is known.
/// `progress` gets the phases: listing the units, reading the run files,
/// evaluating (counted in codes, so that the ETA weighs units by size),
/// and the merge (reading the records again, then the codes added up).
pub fn run_curve_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    progress: &Progress,
) -> Result<CurveUnits> {
    let k = match prepare_merge(problem, tie, domain, run, progress)? {
        Ok(k) => k,
        Err(incomplete) => return Ok(incomplete),
    };
    let curve = merge_whole(problem, tie, domain, run.merge_cut(), &k.known, &k.files, progress);
    progress.end();
    Ok(CurveUnits::Complete { curve: curve?, units: k.units, evaluated: k.evaluated, missing: k.missing() })
}

/// [`run_curve_units`], with the merge walked slice by slice of α (between
/// the exact points `cuts`, strictly inside the domain and ascending) and
/// every piece of the curve handed to `sink` in order, stitched across the
/// cuts: the same pieces as the whole merge, while the merge holds the
/// packed records and one slice of the curve, not the whole curve
/// (Beams(6c,6p) on [1, 2]: about 10⁷ pieces).
pub fn run_curve_units_in_slices<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    cuts: &[Alpha],
    progress: &Progress,
    sink: &mut dyn FnMut(&Segment) -> Result<()>,
) -> Result<CurveUnits<SlicedMerge>> {
    let slices = slices(domain, cuts)?;
    let k = match prepare_merge(problem, tie, domain, run, progress)? {
        Ok(k) => k,
        Err(incomplete) => return Ok(incomplete),
    };
    let merge = merge_in_slices(problem, tie, &slices, run.merge_cut(), &k.known, &k.files, progress, sink);
    progress.end();
    Ok(CurveUnits::Complete { curve: merge?, units: k.units, evaluated: k.evaluated, missing: k.missing() })
}

/// Lists the run's units, reads its files and evaluates this process's
/// units not yet known: every unit known now, or where the run stands.
fn prepare_merge<P: SearchProblem, M>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    progress: &Progress,
) -> Result<std::result::Result<Known, CurveUnits<M>>> {
    if std::fs::read(run.checkpoint).is_ok_and(|b| b.starts_with(&[0x1f, 0x8b])) {
        return Err(invalid(format!(
            "{} is compressed: give it with --with and start a new --checkpoint",
            run.checkpoint.display()
        )));
    }
    let (id, units) = listed_units(problem, tie, domain, run, progress)?;
    let mine = if run.by_codes { units.iter().collect() } else { shard_units(&units, run.shard)? };
    let mut books = if run.by_codes { Some(DealBooks::new(&id)?) } else { None };
    let files = run_files(run)?;
    let mut known = UnitTally::new(units.iter().map(|u| (u.key.clone(), Some(u.codes))), Twice::IfEqual);
    progress.begin("run files read", Some(files.len() as u64));
    progress.status(&format!("{}", run.checkpoint.display()));
    // Locked (and made, if new) once the run's units are known to hold this shard, then read
    // (identity, records) and opened for appending, as every run's checkpoint (output::work_units).
    let reading = reading(run.checkpoint, |theirs| same_run_or_refuse(run.checkpoint, theirs, &id));
    let file = open_checkpoint(run.checkpoint, &id, reading, |_, _, r| add_record(&mut known, r, (0, run.checkpoint)));
    progress.advance(1);
    let file = file.inspect_err(|_| progress.end())?;
    let read = read_run_files(&files[1..], 1, &id, &mut known, books.as_mut(), progress);
    progress.end();
    read?;
    let todo: Vec<&ListedUnit> = mine.into_iter().filter(|u| !run.known_only && !known.contains(&u.key)).collect();
    let evaluated = todo.len() as u64;
    let standing = |known: &UnitTally<Digest>| match &books {
        Some(books) => books.standing(known),
        None => Ok(Standing { units: id.units, unit_codes: id.unit_codes, unseen_shards: 0, complete: true }),
    };
    let (before, known_codes) = (standing(&known)?, known.known_codes());
    progress.note(&format!(
        "{} of {} units known ({known_codes} of {} codes{}); {evaluated} to evaluate in this process",
        known.len(),
        before.units,
        before.unit_codes,
        match before.unseen_shards {
            0 => String::new(),
            n => format!("; no file of {n} shards"),
        }
    ));
    if !todo.is_empty() {
        let todo_codes: u64 = todo.iter().map(|u| u.codes).sum();
        progress.begin("codes in units evaluated", Some(todo_codes));
        let finished = evaluate(problem, tie, &todo, (&file, run.checkpoint), progress);
        progress.end();
        for r in finished? {
            add_digest(&mut known, r, (0, run.checkpoint))?;
        }
    }
    let (now, known_codes) = (standing(&known)?, known.known_codes());
    if ((known.len() as u64) < now.units || !now.complete) && !run.known_only {
        return Ok(Err(CurveUnits::Incomplete {
            units: now.units,
            known: known.len() as u64,
            unit_codes: now.unit_codes,
            known_codes,
            evaluated,
            unseen_shards: now.unseen_shards,
        }));
    }
    let known = known.into_records().into_iter().collect();
    Ok(Ok(Known { known, files, units: now.units, evaluated }))
}

/// The run's identity and units ([`run_units`]), as a phase of `progress`.
pub(super) fn listed_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    progress: &Progress,
) -> Result<(CurveRunId, Vec<ListedUnit>)> {
    let phase = match (run.units, run.by_codes) {
        (Some(_), _) => "reading the unit list",
        (None, true) => "dealing this shard its units",
        (None, false) => "listing the units",
    };
    progress.begin(phase, None);
    let listed = run_units(problem, tie, domain, run);
    progress.end();
    listed
}

/// The run's files: its checkpoint, then the files given with it (which must exist).
pub(super) fn run_files(run: &CurveUnitRun) -> Result<Vec<PathBuf>> {
    if let Some(missing) = run.with.iter().find(|p| !p.exists()) {
        // A checkpoint may be new; a file given with --with must exist (a typo
        // would otherwise show only later as units missing from the merge).
        return Err(invalid(format!("--with {}: no such file", missing.display())));
    }
    Ok(std::iter::once(run.checkpoint.to_path_buf()).chain(run.with.iter().cloned()).collect())
}

/// Reads the run files `files` (numbered from `first`) of run `id` into
/// `known`, each file's identity checked first; `progress` advances by file.
/// With `books` (a run dealt by codes), a file of any shard of the deal is
/// read, its units taken as the run's and its shard noted.
pub(super) fn read_run_files(
    files: &[PathBuf],
    first: usize,
    id: &CurveRunId,
    known: &mut UnitTally<Digest>,
    mut books: Option<&mut DealBooks>,
    progress: &Progress,
) -> Result<()> {
    for (file, path) in files.iter().enumerate() {
        progress.status(&format!("{}", path.display()));
        let dealt = books.is_some();
        let theirs = for_each_record(
            path,
            |theirs| if dealt { same_deal_or_refuse(path, theirs, id) } else { same_run_or_refuse(path, theirs, id) },
            |r| {
                if dealt {
                    known.admit(r.key.clone());
                }
                add_record(known, r, (first + file, path))
            },
        )?;
        if let (Some(books), Some(theirs)) = (books.as_deref_mut(), theirs) {
            books.file(first + file, path, &theirs)?;
        }
        progress.advance(1);
    }
    Ok(())
}

/// Refuses the file at `path` unless its identity `theirs` is of the run `id`.
fn same_run_or_refuse(path: &Path, theirs: &CurveRunId, id: &CurveRunId) -> Result<()> {
    if same_run(theirs, id) {
        return Ok(());
    }
    Err(invalid(format!(
        "{} belongs to another run ({} {} {} levels {} {} units, version {}); this run is {} {} {} levels {} {} units, version {}",
        path.display(),
        theirs.problem,
        theirs.tie_rule,
        theirs.domain,
        theirs.levels,
        theirs.units,
        theirs.version,
        id.problem,
        id.tie_rule,
        id.domain,
        id.levels,
        id.units,
        id.version
    )))
}

/// Adds a record of file number `file` at `path` after checking it belongs
/// to a unit of the run, with the unit's codes, has a valid step function
/// and agrees with an earlier record of the same unit.
pub(super) fn add_record(known: &mut UnitTally<Digest>, r: UnitSteps, (file, path): (usize, &Path)) -> Result<()> {
    let bad = |what: String| invalid(format!("{}: unit {:?}: {what}", path.display(), r.key));
    known.check(&r.key, r.codes).map_err(|e| bad(e.to_string()))?;
    if !known.contains(&r.key) {
        unit_steps(&r).map_err(bad)?;
    }
    add_digest(known, digest(&r), (file, path))
}

/// [`add_record`] for a record already checked (its digest).
fn add_digest(known: &mut UnitTally<Digest>, d: Digest, (file, path): (usize, &Path)) -> Result<()> {
    let unit = d.key.clone();
    known.add(d, file).map(|_| ()).map_err(|e| invalid(format!("{}: unit {unit:?}: {e}", path.display())))
}

/// Evaluates the units in `todo` (two at a time on two cores), each rebuilt
/// from its trail ([`unit_at`]) and evaluated on its sub-domain as the walk
/// cut above it would ([`unit_steps_at`]), appending each record to `file`
/// as it finishes; `progress` advances by each unit's codes.
fn evaluate<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    todo: &[&ListedUnit],
    (file, path): (&SealedLog, &Path),
    progress: &Progress,
) -> Result<Vec<Digest>> {
    let verification = crate::curve::Verification::new();
    let clock = std::time::Instant::now();
    let session_started =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs_f64()).unwrap_or(0.0);
    let log = Mutex::new((Vec::<Digest>::new(), None::<Error>));
    let total = todo.len();
    let finished = |key: &str, codes: u64, steps: &NodeSteps, started: std::time::Instant| {
        let mut r = unit_record(key, codes, steps);
        r.seconds = started.elapsed().as_secs_f64();
        r.session_started = session_started;
        r.session_seconds = clock.elapsed().as_secs_f64();
        r.session_uncertified = verification.uncertified();
        // No decision is taken from floating point since issue 48.
        r.session_float_ties = 0;
        let written = file.append(&r);
        let mut guard = log.lock().unwrap_or_else(|e| e.into_inner());
        let (done, error) = &mut *guard;
        if let Err(e) = written {
            error.get_or_insert(e);
        }
        // The record as a reader will see it: its step function must rebuild.
        if let Err(e) = unit_steps(&r) {
            error.get_or_insert(invalid(format!("{}: unit {:?}: {e}", path.display(), r.key)));
        }
        done.push(digest(&r));
        progress.advance(codes);
        progress.status(&format!("units {}/{total}", done.len()));
    };
    let labels = queries_by_label(problem);
    let first_started = std::sync::atomic::AtomicBool::new(false);
    let rebuilding = Mutex::new(());
    todo.par_iter().with_max_len(1).for_each(|unit| {
        if log.lock().unwrap_or_else(|e| e.into_inner()).1.is_some() {
            return;
        }
        // One rebuild at a time: a rebuild holds the unit's set while it is made (Beams(6c,6p):
        // up to the 153 M codes of shard 0's first unit), and the first unit starts sooner.
        let rebuilt = {
            let _one = rebuilding.lock().unwrap_or_else(|e| e.into_inner());
            unit_at(problem, &labels, unit)
        };
        match rebuilt {
            Ok((state, set, depth)) => {
                if !first_started.swap(true, std::sync::atomic::Ordering::Relaxed) {
                    progress.note(&format!("first unit started: {} ({} codes)", unit.key, unit.codes));
                }
                let started = std::time::Instant::now();
                // The game narrowed to the unit's set where it offers that (the same values).
                let steps = match problem.narrowed(&set) {
                    Some((game, set)) => unit_steps_at(&game, tie, (&state, &set), depth, &unit.domain, &verification),
                    None => unit_steps_at(problem, tie, (&state, &set), depth, &unit.domain, &verification),
                };
                drop(set);
                finished(&unit.key, unit.codes, &steps, started);
            }
            Err(why) => {
                let e = invalid(format!("unit {:?}: {why}", unit.key));
                log.lock().unwrap_or_else(|e| e.into_inner()).1.get_or_insert(e);
            }
        }
    });
    let (done, error) = log.into_inner().unwrap_or_else(|e| e.into_inner());
    match error {
        Some(e) => Err(e),
        None => Ok(done),
    }
}
