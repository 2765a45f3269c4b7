//! The line a deal by codes lays its units on, kept for the other shards
//! (issue 53 item 3). Every shard of a run dealt by codes computes the same
//! root decision, the same nodes one query below the root and, for the nodes
//! its stretch meets, the same units below them ([`super::unit_list`]); for
//! Beams(6c,6p) that is seconds of counting per shard (the root decides on
//! the counts of the set of all codes, without making its 406 MB:
//! `SpeedHooks::counted_full_set`, and lists a node below it from the counts
//! of a stand-in for its class, `SpeedHooks::counted_class`). The first shard writes what it computed into a sealed
//! file beside its checkpoint ([`cache_path`]: one per run, whatever the
//! shard count), and each later shard reads it and adds the nodes it had to
//! list itself.
//!
//! The file is a sealed JSON-lines file ([`crate::output::sealed_lines`]):
//! line 1 its identity ([`LineId`]: what it is, the run's identity without
//! any shard's fields, and the line's node count and codes), then one line
//! per node in line order: its trail, query, answer, codes and sub-domain,
//! and its units once a shard has listed them. It is written whole (temporary
//! file, then rename); two shards that write at once each write a correct
//! file, and a node one of them listed may be listed again later. A cache
//! that fails a check (a line edited or cut off, a node missing, a unit out
//! of order or outside its node, another run's file) is refused with one line
//! naming it, never trusted and never silently replaced: it was written whole
//! and checked, so damage means something outside the program touched it
//! (delete it to rebuild).

use super::run_key::same_run;
use super::unit_file::{CurveRunId, PointRecord, point_of, point_record};
use super::unit_list::{ListedUnit, UnitEntry, deal_shard, level_one_line, node_units};
use crate::curve::steps::Domain;
use crate::curve::walk::FirstLevel;
use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::{SealedReading, ends_with_newline, for_each_sealed_line, identity_line, keyed_line};
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use crate::search::strategy::TieRule;
use crate::search::units::Shard;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The identity of a cached line: the run (no shard's units or deal in it)
/// and the line's nodes and codes, checked against the lines read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct LineId {
    cache: String,
    run: CurveRunId,
    nodes: u64,
    codes: u64,
}

/// What [`LineId::cache`] says.
const WHAT: &str = "curve deal line";

/// A node of the line in the file, with its units once listed.
#[derive(Serialize, Deserialize)]
struct NodeEntry {
    index: usize,
    trail: String,
    query: QueryId,
    answer: AnswerId,
    codes: u64,
    lo: PointRecord,
    lo_closed: bool,
    hi: PointRecord,
    hi_closed: bool,
    units: Option<Vec<UnitEntry>>,
}

/// A node of the line and its units, if listed.
type Node = (FirstLevel, Option<Vec<ListedUnit>>);

/// The cache of the run `run` (its identity without units or deal) beside
/// `checkpoint`: `curve-deal-line-KEY.lines`, KEY the run's key, so runs
/// sharing a directory never share a cache.
pub fn cache_path(checkpoint: &Path, run: &CurveRunId) -> PathBuf {
    let name = format!("curve-deal-line-{}.lines", super::run_key::run_key(run));
    checkpoint.parent().map_or_else(|| PathBuf::from(&name), |dir| dir.join(&name))
}

/// The units of `shard` of the run `run` ([`super::unit_list::shard_unit_domains`],
/// the same units), its line and the units of the nodes it meets read from
/// the cache at `path` where they are there, computed and added to it where not.
pub fn cached_shard_units<P: SearchProblem>(
    problem: &P,
    (tie, domain, levels): (TieRule, &Domain, usize),
    shard: Shard,
    run: &CurveRunId,
    path: &Path,
) -> Result<Vec<ListedUnit>> {
    if levels == 0 {
        return Err(invalid("--levels: cut at least one query below the root (1 or 2)"));
    }
    let (mut nodes, mut changed) = match read_line(problem, run, path)? {
        Some(nodes) => (nodes, false),
        None => (level_one_line(problem, tie, domain).into_iter().map(|n| (n, None)).collect(), true),
    };
    refuse_more_shards_than_units(&nodes, shard, path)?;
    let line: Vec<FirstLevel> = nodes.iter().map(|(n, _)| n.clone()).collect();
    let mine = deal_shard(&line, shard, |node| {
        let at = line.iter().position(|n| std::ptr::eq(n, node)).ok_or_else(|| invalid("a node not on the line"))?;
        if let Some(units) = &nodes[at].1 {
            return Ok(units.clone());
        }
        let units = node_units(problem, tie, node, levels)?;
        nodes[at].1 = Some(units.clone());
        changed = true;
        Ok(units)
    })?;
    if changed {
        // Units another shard added since this one read the file are kept.
        if let Some(now) = read_line(problem, run, path)? {
            for ((_, ours), (_, theirs)) in nodes.iter_mut().zip(now) {
                if ours.is_none() {
                    *ours = theirs;
                }
            }
        }
        refuse_more_shards_than_units(&nodes, shard, path)?;
        write_line(run, &nodes, path)?;
    }
    Ok(mine)
}

/// Once every node's units are known (`nodes` from the cache at `path`, with
/// what this shard added) the run's count is known: more shards than units are
/// refused, before anything is written.
fn refuse_more_shards_than_units(nodes: &[Node], shard: Shard, path: &Path) -> Result<()> {
    let known: Option<usize> = nodes.iter().map(|(_, units)| units.as_ref().map(Vec::len)).sum();
    match known {
        Some(units) if shard.count > units as u64 => Err(invalid(format!(
            "--shard {}/{}: the run has {units} units ({}), so at most {units} shards",
            shard.index,
            shard.count,
            path.display()
        ))),
        _ => Ok(()),
    }
}

/// Writes the line `nodes` of run `run` to `path`, whole or not at all.
fn write_line(run: &CurveRunId, nodes: &[Node], path: &Path) -> Result<()> {
    let id = line_id(run, nodes.iter().map(|(n, _)| n));
    let key = super::run_key::run_key(&id);
    let mut text = identity_line(&id) + "\n";
    for (index, (n, units)) in nodes.iter().enumerate() {
        let entry = NodeEntry {
            index,
            trail: n.trail.clone(),
            query: n.query,
            answer: n.answer,
            codes: n.codes,
            lo: point_record(&n.domain.lo),
            lo_closed: n.domain.lo_closed,
            hi: point_record(&n.domain.hi),
            hi_closed: n.domain.hi_closed,
            units: units.as_ref().map(|u| u.iter().map(UnitEntry::of).collect()),
        };
        text += &keyed_line(&key, &entry);
        text.push('\n');
    }
    crate::output::write_atomic(path, text.as_bytes())
}

/// The identity of the line `nodes` of run `run`.
fn line_id<'a>(run: &CurveRunId, nodes: impl Iterator<Item = &'a FirstLevel>) -> LineId {
    let (mut count, mut codes) = (0, 0);
    for n in nodes {
        (count, codes) = (count + 1, codes + n.codes);
    }
    LineId { cache: WHAT.into(), run: run.clone(), nodes: count, codes }
}

/// The line cached at `path` for run `run` (`None`: no file yet), every node
/// and unit checked; a file that fails a check is refused, naming it.
fn read_line<P: SearchProblem>(problem: &P, run: &CurveRunId, path: &Path) -> Result<Option<Vec<Node>>> {
    read_checked(problem, run, path).map_err(|e| match e {
        Error::InvalidInput(why) => invalid(format!("{why}; this cache cannot be used (delete it to rebuild)")),
        e => e,
    })
}

/// [`read_line`] but for the advice on a refused file.
fn read_checked<P: SearchProblem>(problem: &P, run: &CurveRunId, path: &Path) -> Result<Option<Vec<Node>>> {
    let name = path.display().to_string();
    let refuse = |why: String| invalid(format!("{name}: {why}"));
    match ends_with_newline(path) {
        Ok(true) => {}
        Ok(false) => return Err(refuse("its last line is cut off".into())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(Error::Io { path: name, source: e }),
    }
    let identity = |theirs: &LineId| match theirs.cache == WHAT && same_run(&theirs.run, run) {
        true => Ok(()),
        false => Err(refuse(format!("the line of another run ({} {})", theirs.run.problem, theirs.run.domain))),
    };
    let reading = SealedReading { what: WHAT, identity: Box::new(identity), unit_of: |e: &NodeEntry| e.index };
    let mut nodes: Vec<Node> = Vec::new();
    let found = for_each_sealed_line(path, reading, |_, _, e: NodeEntry| {
        let node = node_of(problem, e, nodes.len()).map_err(refuse)?;
        nodes.push(node);
        Ok(())
    })?;
    let Some((id, _)) = found else { return Err(refuse("it is empty".into())) };
    let expected = LineId { run: run.clone(), ..id.clone() };
    if line_id(run, nodes.iter().map(|(n, _)| n)) != expected {
        return Err(refuse(format!("{} nodes read, but its header names {}", nodes.len(), id.nodes)));
    }
    if nodes.windows(2).any(|w| w[0].0.trail > w[1].0.trail) {
        return Err(refuse("its nodes are not in trail order".into()));
    }
    Ok(Some(nodes))
}

/// The node `e` (number `index` of the line) and its units, checked: its
/// trail names its query and answer, each unit lies below it, in key order,
/// and holds at most its codes.
fn node_of<P: SearchProblem>(problem: &P, e: NodeEntry, index: usize) -> std::result::Result<Node, String> {
    let bad = |why: String| format!("node {index} ({:?}): {why}", e.trail);
    if e.index != index {
        return Err(bad(format!("numbered {}", e.index)));
    }
    if e.query as usize >= problem.query_count() || usize::from(e.answer) >= problem.answer_count() {
        return Err(bad("no such query or answer".into()));
    }
    if e.trail != format!("/{}>{}", problem.query_label(e.query), e.answer) {
        return Err(bad("the trail does not name its query and answer".into()));
    }
    let domain = Domain {
        lo: point_of(&e.lo).map_err(bad)?,
        lo_closed: e.lo_closed,
        hi: point_of(&e.hi).map_err(bad)?,
        hi_closed: e.hi_closed,
    };
    let units = match e.units {
        None => None,
        Some(entries) => {
            let units = entries.into_iter().map(UnitEntry::unit).collect::<std::result::Result<Vec<_>, _>>();
            let units = units.map_err(bad)?;
            let below = |u: &ListedUnit| {
                u.key.strip_prefix(&e.trail).is_some_and(|r| r.starts_with('/') || r.starts_with(" @ "))
            };
            if !units.iter().all(below) || units.windows(2).any(|w| w[0].key >= w[1].key) {
                return Err(bad("its units are not below it in key order".into()));
            }
            // (A node's units may overlap in codes: a class below it on two sub-domains is two units.)
            if units.iter().any(|u| u.codes > e.codes) {
                return Err(bad("a unit holds more codes than it".into()));
            }
            Some(units)
        }
    };
    let node = FirstLevel { trail: e.trail, query: e.query, answer: e.answer, codes: e.codes, domain };
    Ok((node, units))
}
