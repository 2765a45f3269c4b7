//! The merge of a curve unit run ([`super::units`]): the top levels walked
//! again with each unit's step function in place of its subtree.
//!
//! Records are read again from the run files (in the order of the first
//! reading, so each unit's record is the one its digest was taken from, and
//! it must still match it), kept packed ([`PackedRecord`]) and built into
//! step functions only when the walk reaches their unit.
//!
//! Two forms: the whole domain in one walk ([`merge_whole`]: the curve is
//! returned, so the merge holds every piece of it), or slice by slice of α
//! ([`merge_in_slices`]: each slice walked on its own, every unit met on the
//! part of its sub-domain inside the slice, the pieces handed out as each
//! slice is done and stitched across the cuts). Both give the same pieces:
//! a step function restricted to a slice is the restriction of the whole,
//! and the walk of a slice meets the sub-domains of the whole walk cut by
//! the slice (a test checks this segment by segment).

use super::unit_file::{PackedRecord, UnitSteps, digest_of, for_each_line, record_domain, unit_steps};
use crate::curve::point::Point;
use crate::curve::steps::{Domain, restrict};
use crate::curve::walk::{Curve, Cut, CutMode, LookupFn, NodeSteps, Segment, coalesce_segments, covers, walk_with_cut};
use crate::error::{Error, Result, invalid};
use crate::progress::Progress;
use crate::renyi::alpha::Alpha;
use crate::search::SearchProblem;
use crate::search::TieRule;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;

/// What the merge takes of its run: the cut depth and whether missing units
/// count as placeholders ([`super::units::CurveUnitRun::known_only`]).
#[derive(Clone, Copy)]
pub(super) struct MergeCut {
    pub(super) cut: super::run_key::UnitCut,
    pub(super) known_only: bool,
}

/// What a merge in slices reports besides its pieces.
#[derive(Clone, Debug, Default)]
pub struct SlicedMerge {
    pub slices: usize,
    /// Pieces handed to the sink (after stitching).
    pub pieces: u64,
    /// Nodes whose envelope was computed, over all slices (the top levels
    /// are walked once per slice, so more than in a whole merge).
    pub nodes_evaluated: u64,
    /// Breakpoints that could not be certified: the merge's and the units' sessions' (expected 0).
    pub uncertified: u64,
    pub float_decided_near_ties: u64,
    /// The units' sessions and the merge's walks (as a whole merge counts them).
    pub seconds: f64,
}

/// The slices of `domain` between `cuts`: exact points strictly inside it,
/// ascending. The first slice keeps the domain's lower end, each later one
/// starts open at its cut, so every α lies in exactly one slice.
pub(super) fn slices(domain: &Domain, cuts: &[Alpha]) -> Result<Vec<Domain>> {
    let mut out = Vec::with_capacity(cuts.len() + 1);
    let (mut lo, mut lo_closed) = (domain.lo.clone(), domain.lo_closed);
    for &a in cuts {
        let p = Point::exact(a);
        if !(lo.order(&p).is_lt() && p.order(&domain.hi).is_lt()) {
            return Err(invalid(format!(
                "merge slice at α = {a}: cuts must lie strictly inside the α-range {}, ascending",
                crate::curve::walk::domain_text(domain)
            )));
        }
        out.push(Domain { lo, lo_closed, hi: p.clone(), hi_closed: true });
        (lo, lo_closed) = (p, false);
    }
    out.push(Domain { lo, lo_closed, hi: domain.hi.clone(), hi_closed: domain.hi_closed });
    Ok(out)
}

/// A unit's packed record and the file it came from.
type Packed = HashMap<String, (PackedRecord, usize)>;

/// Reads every known unit's record again, checks it against its digest and
/// keeps it packed; with `domains`, also each unit's sub-domain by trail.
fn read_records(
    known: &HashMap<String, Digest>,
    files: &[PathBuf],
    mut domains: Option<&mut HashMap<String, Vec<(Domain, String)>>>,
    progress: &Progress,
) -> Result<Packed> {
    let mut packed: Packed = HashMap::with_capacity(known.len());
    progress.begin("merge: run files read again", Some(files.len() as u64));
    for (f, path) in files.iter().enumerate() {
        progress.status(&format!("{}", path.display()));
        for_each_line(
            path,
            |_| Ok(()),
            |line, key, r| {
                if packed.contains_key(&r.key) {
                    return Ok(());
                }
                let bad = |what: String| invalid(format!("{}: unit {:?}: {what}", path.display(), r.key));
                match known.get(&r.key) {
                    Some(d) if d.content == digest_of(&r, ()).content => {}
                    _ => return Err(bad("changed since the run read it".into())),
                }
                if let Some(domains) = domains.as_deref_mut() {
                    let (trail, _) =
                        r.key.rsplit_once(" @ ").ok_or_else(|| bad("a key without its sub-domain".into()))?;
                    let d = record_domain(&r).map_err(bad)?;
                    domains.entry(trail.to_string()).or_default().push((d, r.key.clone()));
                }
                packed.insert(r.key, (PackedRecord::pack(line, key), f));
                Ok(())
            },
        )?;
        progress.advance(1);
    }
    Ok(packed)
}

/// The step function of a packed record of a node of `codes` codes, or the error naming its file.
fn build(packed: &PackedRecord, file: &std::path::Path, key: &str, codes: u64) -> Result<NodeSteps> {
    let bad = |e: String| invalid(format!("{}: unit {key:?}: {e}", file.display()));
    let r = packed.unpack().map_err(bad)?;
    if r.codes != codes {
        return Err(bad(format!("its record holds {} codes, the merge met {codes} there", r.codes)));
    }
    unit_steps(&r).map_err(bad)
}

/// Refuses records the merge did not meet (a record of no unit of the run:
/// possible only in a run dealt by codes, whose shards know their own units).
fn all_met<'a>(mut unmet: impl Iterator<Item = &'a String>, files: usize) -> Result<()> {
    match unmet.next() {
        None => Ok(()),
        Some(key) => Err(invalid(format!(
            "the run's {files} files hold units the merge did not meet, e.g. {key:?} ({} in all): not of this run",
            1 + unmet.count()
        ))),
    }
}

/// The value, or `None` with the first error kept in `failure` (the walk
/// goes on; [`walk_units`] reports it).
fn keep_first<T>(failure: &Mutex<Option<Error>>, r: Result<T>) -> Option<T> {
    r.map_err(|e| {
        failure.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert(e);
    })
    .ok()
}

/// Walks `domain` with the units looked up by `fetch`; errors first, then
/// units the walk met that no file holds (allowed only with `known_only`).
fn walk_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: MergeCut,
    fetch: &LookupFn,
    failure: &Mutex<Option<Error>>,
) -> Result<Curve> {
    let (levels, split_above) = (run.cut.levels, run.cut.split_above);
    let cut = Cut { levels, split_above, mode: CutMode::Lookup { fetch, missing: Mutex::new(Vec::new()) } };
    let curve = walk_with_cut(problem, tie, domain, None, Some(&cut));
    if let Some(e) = failure.lock().unwrap_or_else(|e| e.into_inner()).take() {
        return Err(e);
    }
    if let CutMode::Lookup { missing, .. } = &cut.mode {
        let missing = missing.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(key) = missing.first().filter(|_| !run.known_only) {
            return Err(invalid(format!("the merge met a unit no file holds: {key:?} ({} in all)", missing.len())));
        }
    }
    Ok(curve)
}

/// Work done in the units' sessions: per session, its counters at its last
/// record: (seconds, uncertified, float-decided near ties), summed.
fn sessions(known: &HashMap<String, Digest>) -> (f64, u64, u64) {
    let mut by_start: HashMap<u64, (f64, u64, u64)> = HashMap::new();
    for r in known.values() {
        let (r, s) = (&r.kept, by_start.entry(r.kept.started.to_bits()).or_default());
        *s = (s.0.max(r.seconds), s.1.max(r.uncertified), s.2.max(r.float_ties));
    }
    by_start.values().fold((0.0, 0, 0), |a, s| (a.0 + s.0, a.1 + s.1, a.2 + s.2))
}

/// The curve of the whole domain in one walk. Each unit's record is built
/// when the walk reaches the unit and freed once added up, so the merge
/// holds the top levels' sets, the units in progress and the sums, never
/// every unit's step function at once (but every piece of the curve).
pub(super) fn merge_whole<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: MergeCut,
    known: &HashMap<String, Digest>,
    files: &[PathBuf],
    progress: &Progress,
) -> Result<Curve> {
    let packed = Mutex::new(read_records(known, files, None, progress)?);
    progress.begin("merge: codes in units added", Some(known.values().map(|d| d.codes).sum()));
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let fetch = |_: &str, _: &Domain, key: &str, codes: u64| -> Option<NodeSteps> {
        let (record, f) = packed.lock().unwrap_or_else(|e| e.into_inner()).remove(key)?;
        progress.advance(known.get(key).map_or(0, |d| d.codes));
        keep_first(&failure, build(&record, &files[f], key, codes))
    };
    let mut curve = walk_units(problem, tie, domain, run, &fetch, &failure)?;
    all_met(packed.into_inner().unwrap_or_else(|e| e.into_inner()).keys(), files.len())?;
    let (seconds, uncertified, float_ties) = sessions(known);
    curve.seconds += seconds;
    curve.uncertified += uncertified;
    curve.float_decided_near_ties += float_ties;
    Ok(curve)
}

/// The curve slice by slice (see the module documentation): each slice
/// walked on its own, each unit met in it built from its record and
/// restricted to the slice, the pieces handed to `sink` in order as each
/// slice is done. The last two pieces of a slice are held back until the
/// next is walked, so that a piece cut by a slice end is joined again
/// (Open(a, c), At(c), Open(c, b) with one value → Open(a, b)).
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_in_slices<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    slices: &[Domain],
    run: MergeCut,
    known: &HashMap<String, Digest>,
    files: &[PathBuf],
    progress: &Progress,
    sink: &mut dyn FnMut(&Segment) -> Result<()>,
) -> Result<SlicedMerge> {
    let mut by_trail: HashMap<String, Vec<(Domain, String)>> = HashMap::new();
    let packed = read_records(known, files, Some(&mut by_trail), progress)?;
    progress.begin("merge: slices of α walked", Some(slices.len() as u64));
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    let met: Mutex<std::collections::HashSet<String>> = Mutex::new(Default::default());
    let fetch = |trail: &str, part: &Domain, _: &str, codes: u64| -> Option<NodeSteps> {
        let (domain, key) = by_trail.get(trail)?.iter().find(|(d, _)| covers(d, part))?;
        let (record, f) = packed.get(key)?;
        met.lock().unwrap_or_else(|e| e.into_inner()).insert(key.clone());
        let steps = keep_first(&failure, build(record, &files[*f], key, codes))?;
        Some(if covers(part, domain) { steps } else { restrict(&steps, part) })
    };
    let mut out = SlicedMerge { slices: slices.len(), ..SlicedMerge::default() };
    let mut held: Vec<Segment> = Vec::new();
    for (i, slice) in slices.iter().enumerate() {
        progress.status(&format!("slice {}/{}: α in {}", i + 1, slices.len(), crate::curve::walk::domain_text(slice)));
        let curve = walk_units(problem, tie, slice, run, &fetch, &failure)?;
        out.nodes_evaluated += curve.nodes_evaluated;
        out.seconds += curve.seconds;
        out.uncertified += curve.uncertified;
        out.float_decided_near_ties += curve.float_decided_near_ties;
        held.extend(curve.segments);
        let mut joined = coalesce_segments(std::mem::take(&mut held));
        held = joined.split_off(joined.len().saturating_sub(2));
        for s in &joined {
            sink(s)?;
        }
        out.pieces += joined.len() as u64;
        progress.advance(1);
    }
    for s in &held {
        sink(s)?;
    }
    let met = met.into_inner().unwrap_or_else(|e| e.into_inner());
    all_met(packed.keys().filter(|k| !met.contains(*k)), files.len())?;
    out.pieces += held.len() as u64;
    let (seconds, uncertified, float_ties) = sessions(known);
    out.seconds += seconds;
    out.uncertified += uncertified;
    out.float_decided_near_ties += float_ties;
    Ok(out)
}

/// What a run keeps of a checked record until the merge beside its unit,
/// codes and content hash ([`Digest`]): its session's counters. The step
/// function itself is read again from the files by the merge, so a run holds
/// the keys of its units, not their records (several GB for Beams(6c,6p)).
#[derive(Clone, Copy, Debug)]
pub(super) struct Session {
    started: f64,
    seconds: f64,
    uncertified: u64,
    float_ties: u64,
}

/// A curve run's digest of a record ([`crate::output::work_units::Digest`]).
pub(super) type Digest = crate::output::work_units::Digest<String, Session>;

/// The digest of a record whose step function has been checked.
pub(super) fn digest(r: &UnitSteps) -> Digest {
    let session = Session {
        started: r.session_started,
        seconds: r.session_seconds,
        uncertified: r.session_uncertified,
        float_ties: r.session_float_ties,
    };
    digest_of(r, session)
}
