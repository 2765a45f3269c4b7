//! A curve run's unit list, written once and read by every shard (issue 53
//! item 3): listing the units walks the top levels of the whole run (for
//! Beams(6c,6p) 40–100 s and 5–8 GB: every set of the top two levels is
//! split and every query counted on it), which a shard must not repeat
//! before its first unit.
//!
//! The list is a sealed file ([`crate::output::sealed_lines`]): line 1 is the
//! run's identity ([`CurveRunId`], so its key is the run's key), then one
//! line per unit in key order, the order that numbers the units: its key,
//! codes and exact sub-domain (each end as a unit record writes its points,
//! [`PointRecord`], so a point rebuilt from it orders, prints and compares as
//! the listing walk's). A shard takes its units (number ≡ i mod N) from the
//! list and rebuilds each one's set from its trail, one filter per query
//! ([`unit_at`]), without walking the levels above it.
//!
//! Or a shard finds its own units without the list and without listing the
//! others ([`shard_unit_domains`]): the nodes one query below the root are
//! laid end to end by their codes, each one's units inside it by theirs, and
//! the shards take equal stretches of that line; a shard lists only the
//! subtrees its stretch touches.

use super::run_key::{UnitCut, same_run};
use super::unit_file::{CurveRunId, PointRecord, point_of, point_record};
use crate::curve::steps::{Domain, domain_key};
use crate::curve::walk::{Cut, CutMode, FirstLevel, ListedKey, first_level, list_below, walk_with_cut};
use crate::error::{Result, invalid};
use crate::output::sealed_lines::{SealedReading, for_each_sealed_line, identity_line, keyed_line, run_key};
#[cfg(doc)]
use crate::search::capabilities::SpeedHooks;
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use crate::search::strategy::TieRule;
use crate::search::units::Shard;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::Mutex;

/// A unit of a run: its key (trail and sub-domain), codes and sub-domain.
#[derive(Clone, Debug)]
pub struct ListedUnit {
    pub key: String,
    pub codes: u64,
    pub domain: Domain,
}

/// A [`ListedUnit`] in the file (and in a deal's cached line, `super::deal_cache`).
#[derive(Serialize, Deserialize)]
pub(super) struct UnitEntry {
    key: String,
    codes: u64,
    lo: PointRecord,
    lo_closed: bool,
    hi: PointRecord,
    hi_closed: bool,
}

impl UnitEntry {
    /// The entry of `u`: its key, codes and sub-domain, each end as a unit record writes it.
    pub(super) fn of(u: &ListedUnit) -> UnitEntry {
        let d = &u.domain;
        UnitEntry {
            key: u.key.clone(),
            codes: u.codes,
            lo: point_record(&d.lo),
            lo_closed: d.lo_closed,
            hi: point_record(&d.hi),
            hi_closed: d.hi_closed,
        }
    }

    /// The unit again; refused (why, naming the unit) unless its key ends
    /// with its sub-domain.
    pub(super) fn unit(self) -> std::result::Result<ListedUnit, String> {
        let bad = |why: String| format!("unit {:?}: {why}", self.key);
        let domain = Domain {
            lo: point_of(&self.lo).map_err(bad)?,
            lo_closed: self.lo_closed,
            hi: point_of(&self.hi).map_err(bad)?,
            hi_closed: self.hi_closed,
        };
        if !self.key.ends_with(&format!(" @ {}", domain_key(&domain).map_err(bad)?)) {
            return Err(bad("the key does not end with the unit's sub-domain".into()));
        }
        Ok(ListedUnit { key: self.key, codes: self.codes, domain })
    }
}

/// Writes the list of run `id`'s units (sorted by key) to `path` (whole or not at all).
pub fn write_unit_list(path: &Path, id: &CurveRunId, units: &[ListedUnit]) -> Result<()> {
    let key = run_key(id);
    let mut text = identity_line(id) + "\n";
    for u in units {
        text += &keyed_line(&key, &UnitEntry::of(u));
        text.push('\n');
    }
    crate::output::write_atomic(path, text.as_bytes())
}

/// Reads the unit list at `path` of the run `expected` (whose unit counts
/// are taken from the file): its identity and units, in key order. A list of
/// another run, an edited or missing line, a unit out of order, or a key that
/// is not its trail and sub-domain is refused, naming the file.
pub fn read_unit_list(path: &Path, expected: &CurveRunId) -> Result<(CurveRunId, Vec<ListedUnit>)> {
    let name = path.display();
    let identity = |theirs: &CurveRunId| {
        let ours = CurveRunId { units: theirs.units, unit_codes: theirs.unit_codes, ..expected.clone() };
        if same_run(theirs, &ours) {
            return Ok(());
        }
        Err(invalid(format!(
            "{name}: the unit list of another run ({} {} {} levels {}, version {}); this run is {} {} {} levels {}, \
             version {}",
            theirs.problem,
            theirs.tie_rule,
            theirs.domain,
            theirs.levels,
            theirs.version,
            ours.problem,
            ours.tie_rule,
            ours.domain,
            ours.levels,
            ours.version
        )))
    };
    let reading =
        SealedReading { what: "curve unit list", identity: Box::new(identity), unit_of: |e: &UnitEntry| e.key.clone() };
    let mut units: Vec<ListedUnit> = Vec::new();
    let found = for_each_sealed_line(path, reading, |_, _, e: UnitEntry| {
        let unit = e.unit().map_err(|why| invalid(format!("{name}: {why}")))?;
        if units.last().is_some_and(|u| u.key >= unit.key) {
            return Err(invalid(format!("{name}: unit {:?}: the units are not in key order", unit.key)));
        }
        units.push(unit);
        Ok(())
    })?;
    let Some((id, _)) = found else {
        return Err(invalid(format!(
            "--units {name}: no such file or empty (write it once with --list-units --units)"
        )));
    };
    let codes: u64 = units.iter().map(|u| u.codes).sum();
    if (units.len() as u64, codes) != (id.units, id.unit_codes) {
        return Err(invalid(format!(
            "{name}: {} units of {codes} codes, but its header names {} of {} (a cut-off file?)",
            units.len(),
            id.units,
            id.unit_codes
        )));
    }
    Ok((id, units))
}

/// The units of the curve walk cut at `cut` (a level count, or a [`UnitCut`]): (key, codes), sorted by key.
pub fn list_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    cut: impl Into<UnitCut>,
) -> Result<Vec<(String, u64)>> {
    Ok(list_unit_domains(problem, tie, domain, cut)?.into_iter().map(|u| (u.key, u.codes)).collect())
}

/// [`list_units`] with each unit's sub-domain.
pub fn list_unit_domains<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    cut: impl Into<UnitCut>,
) -> Result<Vec<ListedUnit>> {
    let UnitCut { levels, split_above } = cut.into();
    if levels == 0 {
        return Err(invalid("--levels: cut at least one query below the root (1 or 2)"));
    }
    let cut = Cut { levels, split_above, mode: CutMode::List(Mutex::new(Vec::new())) };
    walk_with_cut(problem, tie, domain, None, Some(&cut));
    let CutMode::List(keys) = cut.mode else { unreachable!("built as a listing") };
    sorted_units(keyed_units(keys.into_inner().unwrap_or_else(|e| e.into_inner()))?)
}

/// Listed units with their keys (refused if a sub-domain has no exact name).
fn keyed_units(listed: Vec<ListedKey>) -> Result<Vec<ListedUnit>> {
    let keyed = |(key, codes, domain): ListedKey| key.map(|key| ListedUnit { key, codes, domain }).map_err(invalid);
    listed.into_iter().map(keyed).collect()
}

/// `units` in key order; two units with one key are refused.
fn sorted_units(mut units: Vec<ListedUnit>) -> Result<Vec<ListedUnit>> {
    units.sort_by(|a, b| a.key.cmp(&b.key));
    if let Some(w) = units.windows(2).find(|w| w[0].key == w[1].key) {
        return Err(invalid(format!("two units share the key {:?}; choose another --levels", w[0].key)));
    }
    Ok(units)
}

/// The units of shard `shard`: those numbered ≡ i mod N in key order. A shard
/// count above the number of units is refused (a shard would have none),
/// except one shard: a run with no units (every class settled above the cut)
/// is one shard with nothing to evaluate.
pub fn shard_units(units: &[ListedUnit], shard: Shard) -> Result<Vec<&ListedUnit>> {
    let most = (units.len() as u64).max(1);
    if shard.count > most {
        return Err(invalid(format!(
            "--shard {}/{}: the run has {} units, so at most {most} shard{}",
            shard.index,
            shard.count,
            units.len(),
            if most == 1 { "" } else { "s" }
        )));
    }
    Ok(units.iter().skip(shard.index as usize).step_by(shard.count as usize).collect())
}

/// `units` of the run cut at `cut.levels` alone (key order), each of more than
/// `cut.split_above` codes replaced by the units the walk cut at `cut` meets
/// below it (rebuilt from its trail, [`unit_at`], and listed from there on its
/// sub-domain, as the walk of the whole run reaches it): the units of the run
/// cut at `cut`, in key order. A shard dealt a unit so splits it, so all its
/// parts stay in that shard.
pub(super) fn split_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    units: Vec<ListedUnit>,
    cut: UnitCut,
) -> Result<Vec<ListedUnit>> {
    let Some(most) = cut.split_above.filter(|&most| units.iter().any(|u| u.codes > most)) else { return Ok(units) };
    let labels = queries_by_label(problem);
    let mut out = Vec::with_capacity(units.len());
    for unit in units {
        if unit.codes <= most {
            out.push(unit);
            continue;
        }
        let bad = |why: String| invalid(format!("unit {:?}: {why}", unit.key));
        let (state, set, depth) = unit_at(problem, &labels, &unit).map_err(bad)?;
        let trail = unit_trail(&unit).map_err(bad)?;
        let below = (cut.levels, cut.split_above);
        out.extend(keyed_units(list_below(problem, tie, (&state, &set), (depth, trail), &unit.domain, below))?);
    }
    sorted_units(out)
}

/// The trail of `unit`: its key without its sub-domain.
fn unit_trail(unit: &ListedUnit) -> std::result::Result<&str, String> {
    let ends = domain_key(&unit.domain)?;
    unit.key.strip_suffix(&format!(" @ {ends}")).ok_or_else(|| "no sub-domain in the key".into())
}

/// The queries of `problem` by label (a trail names its queries so).
pub fn queries_by_label<P: SearchProblem>(problem: &P) -> HashMap<String, QueryId> {
    (0..problem.query_count() as QueryId).map(|q| (problem.query_label(q), q)).collect()
}

/// The unit's node: (state, set, depth), rebuilt from the root by its
/// trail (`/query>answer` per level), the full set filtered by every query
/// of the trail ([`SpeedHooks::restrict_full_trail`]: Beams does it in one
/// pass over its tables, holding neither its 406 MB full set of 6c6p nor the
/// node above the unit); its size must be the unit's codes.
pub fn unit_at<P: SearchProblem>(
    problem: &P,
    labels: &HashMap<String, QueryId>,
    unit: &ListedUnit,
) -> std::result::Result<(P::State, P::Set, usize), String> {
    let trail = unit_trail(unit)?;
    let mut steps: Vec<(QueryId, AnswerId)> = Vec::new();
    for step in trail.split('/').skip(1) {
        let (label, answer) =
            step.rsplit_once('>').ok_or_else(|| format!("trail step {step:?} is not query>answer"))?;
        let q = *labels.get(label).ok_or_else(|| format!("no query is labelled {label:?}"))?;
        let a: AnswerId = answer.parse().map_err(|_| format!("answer {answer:?} is not a number"))?;
        if usize::from(a) >= problem.answer_count() {
            return Err(format!("answer {a} is not an answer of the game"));
        }
        steps.push((q, a));
    }
    if !trail.starts_with('/') || steps.is_empty() {
        return Err(format!("trail {trail:?} names no query"));
    }
    let set = problem.restrict_full_trail(&steps).ok_or_else(|| format!("no code follows the trail {trail:?}"))?;
    let state = steps.iter().fold(problem.initial_state(), |state, &(q, _)| problem.next_state(&state, q));
    let n = problem.set_size(&set);
    if n != unit.codes {
        return Err(format!("its trail leads to {n} codes, not {}", unit.codes));
    }
    Ok((state, set, steps.len()))
}

/// The units of shard `shard` of the run of `problem` with `tie` on `domain`
/// cut `levels` below the root, in key order, found without listing the
/// other shards' units: exactly the units of the whole listing
/// ([`super::units::list_unit_domains`]) that this rule deals to the shard.
///
/// The rule: the nodes one query below the root that may hold units
/// ([`first_level`], in trail order) lie end to end on a line by their codes,
/// node b on [S_b, S_b + n_b) of [0, L); the units below node b, in key
/// order, start at S_b + n_b·o/U (o: the codes of the node's units before
/// it, U: of all its units); a unit starting at p belongs to shard ⌊N·p/L⌋.
/// A shard lists only the nodes its stretch [i·L/N, (i+1)·L/N) meets, each
/// rebuilt from the game's tables ([`SpeedHooks::restrict_full`]). A deal
/// that leaves a shard without a unit (always so with more shards than
/// units) is refused wherever a shard sees it without listing other shards'
/// nodes: its own stretch empty, a shard strictly between two units of the
/// nodes it met, the first unit of the next node (at that node's first code)
/// or the line's end, N above the line's codes.
pub fn shard_unit_domains<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    cut: impl Into<UnitCut>,
    shard: Shard,
) -> Result<Vec<ListedUnit>> {
    let cut = cut.into();
    if cut.levels == 0 {
        return Err(invalid("--levels: cut at least one query below the root (1 or 2)"));
    }
    let line = level_one_line(problem, tie, domain);
    split_units(problem, tie, deal_shard(&line, shard, |node| node_units(problem, tie, node, cut.levels))?, cut)
}

/// The nodes one query below the root that may hold units ([`first_level`]),
/// in trail order: the line a deal by codes lays its units on.
pub(super) fn level_one_line<P: SearchProblem>(problem: &P, tie: TieRule, domain: &Domain) -> Vec<FirstLevel> {
    let mut nodes = first_level(problem, tie, domain);
    nodes.sort_by(|a, b| a.trail.cmp(&b.trail));
    nodes
}

/// The units of `shard` by the rule of [`shard_unit_domains`], on the line
/// `nodes` (trail order), the units below a node given by `units_of` (key
/// order), asked only of the nodes the shard's stretch meets.
pub(super) fn deal_shard(
    nodes: &[FirstLevel],
    shard: Shard,
    mut units_of: impl FnMut(&FirstLevel) -> Result<Vec<ListedUnit>>,
) -> Result<Vec<ListedUnit>> {
    let line = u128::from(nodes.iter().map(|b| b.codes).sum::<u64>());
    let (i, n) = (u128::from(shard.index), u128::from(shard.count));
    let too_many = || invalid(format!("--shard {}/{}: too many shards to deal", shard.index, shard.count));
    let empty = |j: u128| {
        let whose = if j == i { "this shard".to_string() } else { format!("shard {j}") };
        invalid(format!(
            "--shard {}/{}: no unit of the run falls to {whose} (units are dealt by their codes, and a dealt run merges \
             only with a file of every shard); use fewer shards",
            shard.index, shard.count
        ))
    };
    // Every unit holds a code: more shards than codes leave one without a unit.
    if n > line {
        return Err(invalid(format!(
            "--shard {}/{}: the run has {line} codes, so fewer units",
            shard.index, shard.count
        )));
    }
    let mut mine = Vec::new();
    // The shard of the last unit met, while the nodes met are consecutive.
    let (mut start, mut last): (u128, Option<u128>) = (0, None);
    for node in nodes {
        let (s, c) = (start, u128::from(node.codes));
        start += c;
        let stretch = |p: u128| n.checked_mul(p).map(|x| x / line).ok_or_else(too_many);
        if i < stretch(s)? || i > stretch(s + c)? {
            // The node's first unit starts at its first code, known without listing it.
            if let Some(prev) = last
                && stretch(s)? > prev + 1
            {
                return Err(empty(prev + 1));
            }
            last = None;
            continue;
        }
        let units = units_of(node)?;
        let whole: u128 = units.iter().map(|u| u128::from(u.codes)).sum();
        let mut before = 0u128;
        for u in units {
            let at = (s * whole + c * before).checked_mul(n).ok_or_else(too_many)?;
            before += u128::from(u.codes);
            let to = at / (line * whole);
            // A shard strictly between two units met gets no unit: its stretch lies between them.
            match last {
                Some(prev) if to > prev + 1 => return Err(empty(prev + 1)),
                None if s == 0 && to > 0 => return Err(empty(0)),
                _ => {}
            }
            last = Some(to);
            if to == i {
                mine.push(u);
            }
        }
    }
    // After the line's last unit: the shards beyond its shard get none.
    if let Some(prev) = last
        && prev + 1 < n
    {
        return Err(empty(prev + 1));
    }
    mine.sort_by(|a, b| a.key.cmp(&b.key));
    if mine.is_empty() && shard.count > 1 {
        return Err(empty(i));
    }
    Ok(mine)
}

/// The units below `node`, in key order (at `levels` 1, the node itself).
pub(super) fn node_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    node: &FirstLevel,
    levels: usize,
) -> Result<Vec<ListedUnit>> {
    let units = if levels == 1 {
        let key = domain_key(&node.domain).map(|ends| format!("{} @ {ends}", node.trail));
        keyed_units(vec![(key, node.codes, node.domain.clone())])?
    } else if let Some(listed) = node.list_counted(problem, tie, levels) {
        keyed_units(listed)?
    } else {
        let state = problem.next_state(&problem.initial_state(), node.query);
        let set = problem.restrict_full(node.query, node.answer);
        let set = set.filter(|s| problem.set_size(s) == node.codes).ok_or_else(|| {
            invalid(format!("{}: the game's tables do not give the node's {} codes", node.trail, node.codes))
        })?;
        keyed_units(list_below(problem, tie, (&state, &set), (1, &node.trail), &node.domain, (levels, None)))?
    };
    sorted_units(units)
}
