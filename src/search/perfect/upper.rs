//! An upper bound on the least total from exact subtree optima: the H_α
//! strategy is walked from the root, and every node it reaches with at most
//! `leaf_size` codes is played perfectly below (the search of this module on
//! that node alone, as `perfect --after` solves one node). The result is a
//! real strategy (H_α above, optimal below), so its total bounds the optimum
//! from above; it is exported as a strategy tree and replayed code by code
//! ([`crate::search::tree::verify`]) before the bound is returned.

use super::root::heuristic_bound;
use super::{PerfectSearch, UNCAPPED};
use crate::error::{Result, invalid};
use crate::progress::Progress;
use crate::search::problem::{AnswerId, QueryId, Rules, SearchProblem};
use crate::search::strategy::{Strategy, decide_finest_first};
use crate::search::subproblem::Subproblem;
use crate::search::tree::{self, Replay, TreeNode};
use num_traits::ToPrimitive;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The strategy found and what it took.
pub struct UpperBound {
    /// The strategy's total (equal to its tree's replayed total).
    pub total: u64,
    /// The most queries any code takes (from the replay).
    pub max_depth: u64,
    /// H_α above, the perfect subtrees below.
    pub tree: TreeNode,
    /// Nodes where the H_α strategy decided (above the exact subtrees).
    pub strategy_nodes: u64,
    /// Nodes solved exactly, their codes, and the largest of them.
    pub exact_leaves: u64,
    pub exact_codes: u64,
    pub largest_leaf: u64,
    /// Nodes of at most `leaf_size` codes whose search passed the memory
    /// budget: the H_α strategy went on below them.
    pub given_up: u64,
    /// Nodes visited by all the exact searches together.
    pub search_nodes: u64,
    pub seconds: f64,
}

/// The H_α strategy `strategy` with every node of at most `leaf_size` codes
/// it reaches replaced by a perfect strategy of that node (see the module
/// notes). `progress` counts the subtrees below the first query; an exact
/// search that passes the memory budget ([`crate::memory::budget_bytes`]) is
/// dropped and H_α goes on below its node (the bound stays sound).
pub fn upper_from_strategy<P: SearchProblem + Replay>(
    problem: &P,
    strategy: Strategy,
    leaf_size: u64,
    progress: &Progress,
) -> Result<UpperBound> {
    let clock = Instant::now();
    let walk = Walk { problem, strategy, leaf_size, progress, stats: Default::default() };
    let (total, tree) = walk.node(&problem.initial_state(), &problem.full_set(), 0)?;
    progress.end();
    let checked = tree::verify(problem, &tree)?;
    if checked.total != total {
        return Err(invalid(format!(
            "internal error: the strategy's tree replays to total {} instead of {total}",
            checked.total
        )));
    }
    let s = &walk.stats;
    let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
    Ok(UpperBound {
        total,
        max_depth: checked.max_depth,
        tree,
        strategy_nodes: get(&s.strategy_nodes),
        exact_leaves: get(&s.exact_leaves),
        exact_codes: get(&s.exact_codes),
        largest_leaf: get(&s.largest_leaf),
        given_up: get(&s.given_up),
        search_nodes: get(&s.search_nodes),
        seconds: clock.elapsed().as_secs_f64(),
    })
}

#[derive(Default)]
struct Stats {
    strategy_nodes: AtomicU64,
    exact_leaves: AtomicU64,
    exact_codes: AtomicU64,
    largest_leaf: AtomicU64,
    given_up: AtomicU64,
    search_nodes: AtomicU64,
}

struct Walk<'a, P: SearchProblem> {
    problem: &'a P,
    strategy: Strategy,
    leaf_size: u64,
    progress: &'a Progress,
    stats: Stats,
}

impl<P: SearchProblem + Replay> Walk<'_, P> {
    /// The total and tree below a node `level` queries deep. The H_α decision
    /// is the analysis' own (`search::analysis`): two codes of a game without
    /// solving answers are separated by the first separating query, larger
    /// sets decided by [`decide_finest_first`], LEX taking the first choice.
    fn node(&self, state: &P::State, set: &P::Set, level: u32) -> Result<(u64, TreeNode)> {
        let p = self.problem;
        let m = p.set_size(set);
        if m > 1
            && m <= self.leaf_size
            && let Some(found) = self.exact(state, set)?
        {
            return Ok(found);
        }
        let query = match m {
            1 => None,
            2 if !p.has_solving_answers() => p.separating_query(state, set),
            _ => decide_finest_first(p, &self.strategy, state, set).chosen.first().map(|&(_, q)| q),
        };
        let Some(q) = query else {
            return Ok((terminal_total(p, set)?, TreeNode::Stop { codes: p.codes_of(set) }));
        };
        self.stats.strategy_nodes.fetch_add(1, Ordering::Relaxed);
        self.after_query(state, set, q, level)
    }

    /// The node's total and tree when it asks `query`: |M| plus its open classes' totals.
    fn after_query(&self, state: &P::State, set: &P::Set, query: QueryId, level: u32) -> Result<(u64, TreeNode)> {
        let p = self.problem;
        let (next, solving) = (p.next_state(state, query), p.solving_answer(query));
        let classes: Vec<(AnswerId, P::Set)> =
            p.split(query, set).into_iter().filter(|(a, _)| Some(*a) != solving).collect();
        if level == 0 {
            self.progress.begin("subtrees below the first query", Some(classes.len() as u64));
        }
        let parts: Vec<Result<(AnswerId, (u64, TreeNode))>> = classes
            .into_par_iter()
            .map(|(a, class)| {
                let below = self.node(&next, &class, level + 1)?;
                if level == 0 {
                    // The status first, so the bar the advance redraws shows this subtree's counts.
                    self.progress.status(&format!(
                        "{} nodes solved exactly ({} codes), {} search nodes",
                        self.stats.exact_leaves.load(Ordering::Relaxed),
                        self.stats.exact_codes.load(Ordering::Relaxed),
                        self.stats.search_nodes.load(Ordering::Relaxed)
                    ));
                    self.progress.advance(1);
                }
                Ok((a, below))
            })
            .collect();
        let mut total = p.set_size(set);
        let mut children = Vec::with_capacity(parts.len());
        for part in parts {
            let (a, (t, child)) = part?;
            total += t;
            children.push((a, child));
        }
        Ok((total, TreeNode::Ask { query, label: p.query_label(query), children }))
    }

    /// The perfect strategy of the node, or `None` if its search passed
    /// [`SEARCH_SHARE`] of the memory budget (below the whole command's
    /// watch, so that the search gives up first).
    fn exact(&self, state: &P::State, set: &P::Set) -> Result<Option<(u64, TreeNode)>> {
        let sub = Subproblem { inner: self.problem, state: state.clone(), set: set.clone() };
        let search = PerfectSearch::new(&sub);
        search.limit_memory(crate::memory::budget_bytes() / 4 * SEARCH_SHARE);
        let found = search.at_root(UNCAPPED, heuristic_bound(&sub), &Progress::none());
        let s = &self.stats;
        s.search_nodes.fetch_add(search.nodes(), Ordering::Relaxed);
        if search.gave_up() {
            s.given_up.fetch_add(1, Ordering::Relaxed);
            return Ok(None);
        }
        // The budget is the H_1 strategy's total + 1: some strategy is below it.
        let total = found.map_err(|_| invalid("internal error: no strategy below the H_1 total"))?;
        let tree = tree::export(&search, &sub)?;
        let m = sub.code_count() as u64;
        s.exact_leaves.fetch_add(1, Ordering::Relaxed);
        s.exact_codes.fetch_add(m, Ordering::Relaxed);
        s.largest_leaf.fetch_max(m, Ordering::Relaxed);
        Ok(Some((total, tree)))
    }
}

/// Quarters of the memory budget an exact search may hold before it gives up.
const SEARCH_SHARE: u64 = 3;

/// What stopping at `set` costs: every code's remaining queries plus the
/// penalty (a whole number: LEX reads the game's first option).
fn terminal_total<P: SearchProblem>(problem: &P, set: &P::Set) -> Result<u64> {
    let t = problem.terminal(set);
    let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer());
    let penalty = penalty.ok_or_else(|| invalid("a leaf penalty is not a whole number"))?;
    Ok(t.queries_per_code as u64 * problem.set_size(set) + penalty)
}
