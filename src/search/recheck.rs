//! Rechecking recorded work units ([`super::units`]): a unit is rebuilt from
//! the root by the queries and answers on its path and evaluated again, e.g.
//! with [`RunOptions::merge_equivalent`] off, by the plain walk. Equal exact
//! values are an independent check of a long run, unit by unit, without
//! repeating all of it.

use super::analysis::{RunOptions, subtree_outcome};
use super::checkpoint::read_checkpoint_file;
use super::outcome::{Exact, Outcome};
use super::problem::{AnswerId, QueryId, SearchProblem};
use super::run_file::alpha_text;
use super::strategy::Strategy;
use super::units::{RunHeader, UnitRecord};
use crate::error::{Error, Result, invalid};
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
    /// Depth counts, penalty and penalty split (where recorded) all equal.
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
    let clock = std::time::Instant::now();
    if record.queries.len() != record.path.len() {
        return Err(invalid(format!(
            "unit {}: the record does not list the queries on its path (a record of an older version)",
            record.index
        )));
    }
    let steps: Vec<(QueryId, AnswerId)> = record.queries.iter().copied().zip(record.path.iter().copied()).collect();
    let outcome =
        outcome_after(problem, strategy, &steps, options).map_err(|e| e.at(&format!("unit {}", record.index)))?;
    if outcome.codes() != Exact::from_integer(record.codes.into()) {
        return Err(invalid(format!(
            "unit {}: its path leads to {} codes, the record has {}",
            record.index,
            outcome.codes(),
            record.codes
        )));
    }
    let (counts, penalty) = outcome.to_strings();
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
    compare(&|d| format!("codes at depth {d}"), &record.depth_counts, &counts);
    compare(&|_| "penalty points".to_string(), std::slice::from_ref(&record.penalty), std::slice::from_ref(&penalty));
    if let Some(split) = &record.penalised {
        compare(&|p| format!("codes paying {p} penalty points"), split, &outcome.penalised_strings());
    }
    let agrees = differences.is_empty();
    Ok(UnitCheck {
        index: record.index,
        codes: record.codes,
        recorded_total: recorded_total(record)?,
        recomputed_total: outcome.total(),
        agrees,
        differences,
        seconds: clock.elapsed().as_secs_f64(),
    })
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
fn recorded_total(record: &UnitRecord) -> Result<Exact> {
    let outcome = Outcome::from_strings(&record.depth_counts, &record.penalty, &[]);
    outcome.map(|o| o.total()).ok_or_else(|| invalid(format!("unit {}: unreadable values", record.index)))
}
