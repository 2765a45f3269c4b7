//! Lexicographic objectives over (total, worst case), by capped searches.
//!
//! Let T(k) be the least total when every code must be found within k
//! queries (∞ if no strategy does), T* the plain optimum and H the worst case
//! of the optimal strategy the plain search found. T(k) is non-increasing in
//! k, T(k) ≥ T*, and T(H) = T* (that strategy respects H). So, with k₀ the
//! counting lower bound on the worst case ([`PerfectSearch::depth_lower_bound`]):
//! - depth-then-total: the least k ≥ k₀ with T(k) finite, and T(k) — tried
//!   k = k₀, k₀+1, … below H, else H with T*;
//! - total-then-depth: the least k with T(k) = T* — tried below H with the
//!   budget T* + 1 (a capped search need only decide whether T* is reachable),
//!   else H.
//!
//! All searches share one transposition table (its keys carry the queries
//! left, so what one cap proved holds for the next).

use super::root::{check_hard_mode, heuristic_bound};
use super::{Constraints, INFEASIBLE, PerfectResult, PerfectSearch, TableKeys, UNCAPPED};
use crate::error::Result;
use crate::progress::Progress;
use crate::search::problem::SearchProblem;
use std::time::Instant;

/// What a perfect strategy minimises.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Objective {
    /// The total number of queries over all codes (the plain optimum).
    Total,
    /// The worst case first, then the total among those strategies.
    DepthThenTotal,
    /// The total first, then the worst case among the optimal strategies.
    TotalThenDepth,
}

impl std::str::FromStr for Objective {
    type Err = crate::error::Error;
    fn from_str(s: &str) -> Result<Objective> {
        match s {
            "total" => Ok(Objective::Total),
            "depth-then-total" => Ok(Objective::DepthThenTotal),
            "total-then-depth" => Ok(Objective::TotalThenDepth),
            other => Err(crate::error::invalid(format!(
                "unknown objective {other:?} (accepted: total, depth-then-total, total-then-depth)"
            ))),
        }
    }
}

/// One capped search of an objective run.
#[derive(Clone, Debug, serde::Serialize)]
pub struct CapStep {
    /// The cap (`None`: the constraints as given).
    pub max_depth: Option<u32>,
    /// The total found (`None`: infeasible, or not below `sought_below`).
    pub total: Option<u64>,
    /// Totals were sought below this bound (`None`: any total).
    pub sought_below: Option<u64>,
    pub nodes: u64,
    pub seconds: f64,
}

/// The optimum under an objective: the strategy (if any respects the
/// constraints), the search holding it (for [`crate::search::tree::export`]),
/// and the capped searches that decided it.
pub struct Optimum<'a, P: SearchProblem> {
    pub result: Option<PerfectResult>,
    pub search: PerfectSearch<'a, P>,
    pub steps: Vec<CapStep>,
}

/// The optimum of `objective` under `constraints` (see the module notes).
/// Under the two lexicographic objectives the result's `constraints` carry
/// the cap that decided it (its worst case). `keys`: how the transposition
/// table keys its nodes ([`TableKeys`]).
pub fn optimise<'a, P: SearchProblem>(
    problem: &'a P,
    constraints: Constraints,
    objective: Objective,
    keys: TableKeys,
    progress: &Progress,
) -> Result<Optimum<'a, P>> {
    check_hard_mode(problem, constraints)?;
    let clock = Instant::now();
    let search = PerfectSearch::with_table(problem, constraints.possible_only, keys);
    let memory_limit = crate::memory::budget_bytes();
    search.limit_memory(memory_limit);
    let mut steps = Vec::new();
    let mut run = |cap: Option<u32>, budget: u64| {
        let (nodes, started) = (search.nodes(), Instant::now());
        let found = search.at_root(cap.unwrap_or(UNCAPPED), budget, progress).ok().filter(|_| !search.gave_up());
        steps.push(CapStep {
            max_depth: cap,
            total: found,
            sought_below: (budget != INFEASIBLE).then_some(budget),
            nodes: search.nodes() - nodes,
            seconds: started.elapsed().as_secs_f64(),
        });
        progress.note(&format!(
            "  within {}: {}",
            cap.map_or("any number of queries".into(), |k| format!("{k} queries")),
            match found {
                _ if search.gave_up() => "given up (memory budget passed)".into(),
                Some(t) => format!("total {t}"),
                None if budget == INFEASIBLE => "no strategy".into(),
                None => format!("no strategy with a total below {budget}"),
            }
        ));
        found
    };
    let budget = if constraints.is_none() { heuristic_bound(problem) } else { INFEASIBLE };
    let gave_up = |search: &PerfectSearch<'_, P>| {
        crate::error::Error::TooLarge(format!(
            "the perfect search for {} passed the memory budget of {} after {} (its transposition table \
             grows with the search); raise it with --max-memory GIB if the machine has it",
            problem.name(),
            crate::memory::human_bytes(memory_limit),
            match search.nodes() {
                1 => "1 node".to_string(),
                n => format!("{n} nodes"),
            }
        ))
    };
    let Some(plain) = run(constraints.max_depth, budget) else {
        if search.gave_up() {
            return Err(gave_up(&search));
        }
        return Ok(Optimum { result: None, search, steps });
    };
    let height = search.strategy_depth();
    let mut chosen = (plain, constraints);
    if objective != Objective::Total {
        let floor = search.depth_lower_bound();
        for k in (floor as u64..height).map(|k| k as u32) {
            let target = if objective == Objective::DepthThenTotal { INFEASIBLE } else { plain + 1 };
            if let Some(total) = run(Some(k), target) {
                chosen = (total, Constraints { max_depth: Some(k), ..constraints });
                break;
            }
        }
        if chosen.1 == constraints {
            // The plain strategy decides: walks start at its root entry again,
            // and its worst case is the cap it meets.
            let (n, cap) = (problem.code_count() as u64, constraints.max_depth.unwrap_or(UNCAPPED));
            search.root_left.store(search.canonical(n, cap), std::sync::atomic::Ordering::Relaxed);
            chosen.1.max_depth = Some(search.strategy_depth() as u32);
        }
    }
    if search.gave_up() {
        return Err(gave_up(&search));
    }
    let result = search.result(chosen.0, chosen.1, clock.elapsed().as_secs_f64());
    Ok(Optimum { result: Some(result), search, steps })
}
