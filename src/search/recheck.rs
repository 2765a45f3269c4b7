//! Rechecking recorded work units ([`super::units`]): a unit is rebuilt from
//! the root by the queries and answers on its path and evaluated again, e.g.
//! with [`RunOptions::merge_equivalent`] off, by the plain walk. Equal exact
//! values are an independent check of a long run, unit by unit, without
//! repeating all of it. A run's units are computed again through
//! [`crate::output::work_units::recheck`] ([`RecordedRun`]), as curve runs' are.

use super::analysis::{RunOptions, subtree_outcome};
use super::checkpoint::read_checkpoint_file;
use super::outcome::{Exact, Outcome};
use super::problem::{AnswerId, QueryId, SearchProblem};
use super::run_file::alpha_text;
use super::strategy::Strategy;
use super::units::{RunHeader, UnitRecord};
use crate::error::{Error, Result, invalid};
use crate::output::work_units::{Recompute, WorkUnit};
use std::path::Path;

/// A run's header and unit records, from a checkpoint (sealed lines: identity
/// line, then one record per line; [`super::checkpoint`]) or a finished shard
/// file (sealed lines too, told apart by its identity line; [`super::shard_file`]).
pub fn read_run(path: &Path) -> Result<(RunHeader, Vec<UnitRecord>)> {
    std::fs::metadata(path).map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
    if super::shard_file::is_shard_file(path) {
        let file = super::shard_file::read_shard(path)?;
        return Ok((file.header, file.units));
    }
    read_checkpoint_file(path)?.ok_or_else(|| {
        invalid(format!("{} is neither a run file nor a checkpoint of this program (empty)", path.display()))
    })
}

/// What rechecking one unit found.
#[derive(Clone, Debug)]
pub struct UnitCheck {
    pub index: u64,
    pub codes: u64,
    /// Exact total (queries + penalty) of the unit as recorded and as recomputed.
    pub recorded_total: Exact,
    pub recomputed_total: Exact,
    /// Depth counts, penalty and penalty split (where recorded) all equal:
    /// the records' content hashes ([`WorkUnit::content`]) agree.
    pub agrees: bool,
    /// Where the recomputation differs: (field, recorded, recomputed), e.g.
    /// ("codes paying 2 penalty points", "7/3", "8/3").
    pub differences: Vec<(String, String, String)>,
    pub seconds: f64,
}

/// Rebuilds `record`'s unit from the root of `problem` and evaluates it again
/// with `options`. Fails if the record does not fit the problem (a query not
/// admissible on its path, another number of codes).
pub fn recheck_unit<P: SearchProblem>(
    problem: &P,
    strategy: Strategy,
    record: &UnitRecord,
    options: &RunOptions,
) -> Result<UnitCheck> {
    let again = Recomputer { problem, strategy, options }.unit(record)?;
    Ok(UnitCheck {
        index: record.index,
        codes: record.codes,
        recorded_total: record_total(record)?,
        recomputed_total: record_total(&again)?,
        agrees: again.content() == record.content(),
        differences: differences(record, &again),
        seconds: again.seconds,
    })
}

/// `record`'s unit rebuilt from the root and evaluated again with `options`:
/// its record as this program writes it, laid out as `record` (the same
/// number of depths and penalty classes where the rest are zeros; no penalty
/// split if `record` has none), so that equal values hash equally
/// ([`WorkUnit::content`]).
fn recompute_unit<P: SearchProblem>(run: &Recomputer<P>, record: &UnitRecord) -> Result<UnitRecord> {
    let (problem, clock) = (run.problem, std::time::Instant::now());
    if record.queries.len() != record.path.len() {
        return Err(invalid(format!(
            "unit {}: the record does not list the queries on its path (a record of an older version)",
            record.index
        )));
    }
    let steps: Vec<(QueryId, AnswerId)> = record.queries.iter().copied().zip(record.path.iter().copied()).collect();
    let outcome = outcome_after(problem, run.strategy, &steps, run.options)
        .map_err(|e| e.at(&format!("unit {}", record.index)))?;
    if outcome.codes() != Exact::from_integer(record.codes.into()) {
        return Err(invalid(format!(
            "unit {}: its path leads to {} codes, the record has {}",
            record.index,
            outcome.codes(),
            record.codes
        )));
    }
    let (counts, penalty) = outcome.to_strings();
    Ok(UnitRecord {
        depth_counts: laid_out_as(&record.depth_counts, counts),
        penalty,
        penalised: record.penalised.as_ref().map(|split| laid_out_as(split, outcome.penalised_strings())),
        seconds: clock.elapsed().as_secs_f64(),
        session: None,
        crc: None,
        ..record.clone()
    })
}

/// What evaluates a recorded unit again: `strategy` on `problem` with `options`.
pub struct Recomputer<'a, P> {
    pub problem: &'a P,
    pub strategy: Strategy,
    pub options: &'a RunOptions,
}

impl<P: SearchProblem> Recomputer<'_, P> {
    /// [`recompute_unit`] of `record`.
    pub fn unit(&self, record: &UnitRecord) -> Result<UnitRecord> {
        recompute_unit(self, record)
    }
}

/// `again` with zeros added or dropped at its end towards `recorded`'s length.
fn laid_out_as(recorded: &[String], mut again: Vec<String>) -> Vec<String> {
    while again.len() > recorded.len() && again.last().is_some_and(|c| c == "0") {
        again.pop();
    }
    while again.len() < recorded.len() && recorded[again.len()] == "0" {
        again.push("0".into());
    }
    again
}

/// Where two records of one unit differ: (field, recorded, recomputed), e.g.
/// ("codes paying 2 penalty points", "7/3", "8/3"); a missing entry counts as 0.
pub fn differences(recorded: &UnitRecord, again: &UnitRecord) -> Vec<(String, String, String)> {
    let mut differences = Vec::new();
    let mut compare = |what: &dyn Fn(usize) -> String, recorded: &[String], recomputed: &[String]| {
        for i in 0..recorded.len().max(recomputed.len()) {
            let zero = "0".to_string();
            let (a, b) = (recorded.get(i).unwrap_or(&zero), recomputed.get(i).unwrap_or(&zero));
            if a != b {
                differences.push((what(i), a.clone(), b.clone()));
            }
        }
    };
    compare(&|d| format!("codes at depth {d}"), &recorded.depth_counts, &again.depth_counts);
    let penalty = |r: &UnitRecord| std::slice::from_ref(&r.penalty).to_vec();
    compare(&|_| "penalty points".to_string(), &penalty(recorded), &penalty(again));
    if let (Some(split), Some(split_again)) = (&recorded.penalised, &again.penalised) {
        compare(&|p| format!("codes paying {p} penalty points"), split, split_again);
    }
    differences
}

/// The recorded units of one run file, to be computed again
/// ([`crate::output::work_units::recheck`]) by `recompute`.
pub struct RecordedRun<'a, P> {
    pub recompute: Recomputer<'a, P>,
    /// The run file and its records.
    pub file: &'a Path,
    pub records: &'a [UnitRecord],
    /// Whether the penalty split is compared (a run of the current MIX definition).
    pub compare_split: bool,
}

impl<P: SearchProblem> Recompute for RecordedRun<'_, P> {
    type Record = UnitRecord;

    fn source(&self) -> String {
        self.file.display().to_string()
    }

    fn records(&self, units: &[u64]) -> Result<Vec<(String, UnitRecord)>> {
        let of = |index: &u64| self.records.iter().find(|r| r.index == *index);
        let records = units.iter().filter_map(of).map(|r| {
            let penalised = r.penalised.clone().filter(|_| self.compare_split);
            (self.source(), UnitRecord { penalised, ..r.clone() })
        });
        Ok(records.collect())
    }

    fn recompute(&self, recorded: &UnitRecord) -> Result<UnitRecord> {
        self.recompute.unit(recorded)
    }

    fn differences(&self, recorded: &UnitRecord, again: &UnitRecord) -> Vec<(String, String, String)> {
        differences(recorded, again)
    }
}

/// The outcome of `strategy` on the codes that give the answers of `steps`
/// (query, answer) asked in turn from the root, depths counted from the root
/// (the subtree below, as the strategy plays it from there on, whatever it
/// would have asked above). Fails on a query that is not admissible there.
pub fn outcome_after<P: SearchProblem>(
    problem: &P,
    strategy: Strategy,
    steps: &[(QueryId, AnswerId)],
    options: &RunOptions,
) -> Result<Outcome> {
    let (mut state, mut set, mut solved) = (problem.initial_state(), problem.full_set(), false);
    for &(query, answer) in steps {
        if usize::from(answer) >= problem.answer_count() {
            return Err(invalid(format!(
                "step {query}:{answer}: answer {answer} is out of range (the answers of {} are 0 to {})",
                problem.name(),
                problem.answer_count() - 1
            )));
        }
        if solved || query as usize >= problem.query_count() || !problem.is_admissible(&state, query) {
            return Err(invalid(format!("query {query} cannot be asked after the steps before it")));
        }
        set = problem.restrict(query, answer, &set);
        solved = problem.solving_answer(query) == Some(answer);
        state = problem.next_state(&state, query);
    }
    let below = if solved || problem.set_size(&set) == 0 {
        super::leaf::solved(problem.set_size(&set))
    } else {
        subtree_outcome(problem, strategy, &state, &set, options)
    };
    let mut outcome = Outcome::empty();
    outcome.add_shifted(&below, steps.len());
    Ok(outcome)
}

/// Checks that `header` is the header of `strategy` on `problem` (any
/// version), α compared by value.
pub fn check_header<P: SearchProblem>(problem: &P, strategy: Strategy, header: &RunHeader) -> Result<()> {
    let mine = RunHeader::new(problem.name(), strategy, header.levels);
    let same_alpha = header.alpha == strategy.score.alpha();
    if !same_alpha || (&mine.problem, mine.tie_rule) != (&header.problem, header.tie_rule) {
        return Err(invalid(format!(
            "the run file is {} α={} {}; this is {} α={} {}",
            header.problem,
            alpha_text(header.alpha),
            header.tie_rule,
            mine.problem,
            alpha_text(mine.alpha),
            mine.tie_rule
        )));
    }
    Ok(())
}

/// Σ_d d·count_d + penalty of a record (depths from the root).
pub fn record_total(record: &UnitRecord) -> Result<Exact> {
    let outcome = Outcome::from_strings(&record.depth_counts, &record.penalty, &[]);
    outcome.map(|o| o.total()).ok_or_else(|| invalid(format!("unit {}: unreadable values", record.index)))
}
