//! Perfect strategies by depth-first branch-and-bound (thesis Satz 4.2):
//! T(M) = |M| + min_q Σ_{classes a not solving} T(M_a), with the game's terminal
//! cost at singletons and at sets no query splits.
//!
//! Pruning uses admissible lower bounds per class size m, from the largest number
//! b of answer classes any query has on the full code set (a sub-partition has at
//! most as many classes):
//! - games with a solving answer (Mastermind): at most b^{k−1} codes are solved by
//!   the k-th query, so T(m) ≥ Σ_k k·n_k with n_k greedily b^{k−1}
//!   (the thesis' 1·1 + 13·2 + 13²·3 + … bound);
//! - games without one (Beams): a tree with at most b children per node whose
//!   leaves are singletons or terminal sets of k codes costing at least
//!   (k − 1)·δ ([`SearchProblem::terminal_floor`]), T(m) ≥ f_b(m) of
//!   [`grouped_huffman_totals`] (the equal-weight b-ary Huffman total when
//!   stopping is dear; the Huffman total alone is not a bound when it is not).
//!
//! Queries are tried in order of their bound (then H_1), a transposition table
//! stores exact values and proven lower bounds per (state, set, queries left),
//! and tied first queries of one symmetry class are searched once.
//!
//! Constraints ([`Constraints`]): a cap on the number of queries any code may
//! take, and "hard mode" (only queries that are still possible secrets). Under a
//! cap a node knows how many queries are left (`left`, [`UNCAPPED`] without a
//! cap) and is cut by the counting argument of [`PerfectSearch::capacity`]; a
//! set that cannot be solved within the cap has no strategy at all, which
//! [`PerfectSearch::solve`] reports as the lower bound [`INFEASIBLE`]. The
//! root drivers are in `root.rs`, the lexicographic objectives in `objective.rs`,
//! a node's candidate queries and the 2m − 1 closing in `candidates.rs`; upper
//! bounds from exact subtree optima below an H_α strategy in `upper.rs`.

mod candidates;
mod cap;
mod objective;
mod queue;
mod root;
mod table;
mod upper;

pub use objective::{CapStep, Objective, Optimum, optimise};
pub use root::{
    PerfectResult, bound_table_bytes, bound_table_bytes_for, solve_constrained, solve_perfect,
    solve_perfect_with_progress,
};
pub use table::TableKeys;
pub use upper::{UpperBound, upper_from_strategy};

use super::bounds::grouped_huffman_totals;
use super::problem::{QueryId, SearchProblem};
use super::strategy::class_sizes;
use num_traits::ToPrimitive;
use queue::Candidates;
use rayon::prelude::*;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use table::{Known, Table};

/// Smallest set whose candidate queries [`PerfectSearch::solve`] tries in parallel.
const PARALLEL_PERFECT: u64 = 256;

/// Nodes between two reads of the process's resident memory under a budget
/// (`/proc/self/statm`, a few µs): often enough that MM-1296's ~30 000 nodes
/// see its table pass a budget (4096 missed it in about half the runs once
/// small sets stopped tallying every query), rare enough to cost nothing.
const MEMORY_CHECK_EVERY: u64 = 256;

/// Queries left to a node under a depth cap.
pub type Left = u32;
/// `left` of a node without a cap (or with one that cannot bind there).
pub const UNCAPPED: Left = Left::MAX;
/// The lower bound [`PerfectSearch::solve`] reports for a node that no strategy
/// solves within its cap (no total at all).
pub const INFEASIBLE: u64 = u64::MAX;

/// What the perfect search is asked to respect besides minimising the total.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Constraints {
    /// Every code must be found within this many queries (Mastermind: the
    /// secret played at the latest as the k-th guess).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_depth: Option<u32>,
    /// Hard mode: only queries that are still possible secrets (consistent
    /// with every answer so far). For games whose queries are codes.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub possible_only: bool,
}

impl Constraints {
    /// No constraint: the plain optimum.
    pub fn none() -> Self {
        Constraints::default()
    }

    /// Whether nothing is constrained.
    pub fn is_none(&self) -> bool {
        *self == Constraints::default()
    }
}

/// A perfect strategy: its total and the query to ask at every reached node.
pub struct PerfectSearch<'a, P: SearchProblem> {
    problem: &'a P,
    possible_only: bool,
    max_classes: u64,
    with_solving: bool,
    /// Whether every answer any query gives to any code has an id below 32
    /// (answer masks of 32 bits then hold every answer of a set).
    answers_below_32: bool,
    table: Table<(P::State, P::Set, Left)>,
    nodes: AtomicU64,
    /// `bounds[b][m]`: counting bound for m codes when no query makes more than
    /// b classes (b ≤ `max_classes`, m ≤ |C|); `xlnx[m]` = m·ln m.
    bounds: Vec<Vec<u64>>,
    xlnx: Vec<f64>,
    /// The cap of the last root search (`left` at the root), for [`Self::best_query`] walks.
    root_left: AtomicU32,
    /// Resident bytes beyond which the search gives up ([`Self::limit_memory`]).
    memory_limit: AtomicU64,
    /// Set once the limit was passed: every node then fails at once.
    gave_up: AtomicBool,
}

impl<'a, P: SearchProblem> PerfectSearch<'a, P> {
    /// A search for the plain optimum (no hard mode; caps are chosen per root search).
    pub fn new(problem: &'a P) -> Self {
        Self::with_hard_mode(problem, false)
    }

    /// A search whose queries are restricted to possible secrets if `possible_only`.
    pub fn with_hard_mode(problem: &'a P, possible_only: bool) -> Self {
        Self::with_table(problem, possible_only, TableKeys::Exact)
    }

    /// A search with hard mode as in [`Self::with_hard_mode`] and its table keyed by `keys`.
    pub fn with_table(problem: &'a P, possible_only: bool, keys: TableKeys) -> Self {
        let all = problem.full_set();
        let state = problem.initial_state();
        let mut counts = vec![0u64; problem.answer_count()];
        let with_solving = problem.solving_answer(0).is_some();
        // The counting bound with a solving answer allows b − 1 open classes
        // per query (see [`Self::counting_bounds`]); a query that is not a
        // possible secret has no solving class, so all its classes are open.
        let max_classes = (0..problem.query_count() as QueryId)
            .filter(|&q| problem.is_admissible(&state, q))
            .map(|q| {
                let classes = class_sizes(problem, q, &all, &mut counts).len() as u64;
                let solvable = with_solving && problem.is_possible_secret(q, &all);
                if with_solving && !solvable { classes + 1 } else { classes }
            })
            .max()
            .unwrap_or(1);
        // Every set is a subset of the full set, so its answers are among these.
        let answers_below_32 = problem.answer_count() <= 32
            || (problem.answer_count() <= 64
                && problem.answer_rows(&all).is_some_and(|rows| rows.iter().all(|row| row.iter().all(|&a| a < 32))));
        let mut search = PerfectSearch {
            problem,
            possible_only,
            max_classes,
            with_solving,
            answers_below_32,
            table: Table::new(keys),
            nodes: AtomicU64::new(0),
            bounds: Vec::new(),
            xlnx: Vec::new(),
            root_left: AtomicU32::new(UNCAPPED),
            memory_limit: AtomicU64::new(u64::MAX),
            gave_up: AtomicBool::new(false),
        };
        let n = problem.code_count() as u64;
        search.bounds = (0..=max_classes).map(|b| search.counting_bounds(b, n)).collect();
        search.xlnx = (0..=n).map(|m| if m == 0 { 0.0 } else { m as f64 * (m as f64).ln() }).collect();
        search
    }

    /// Gives up once the process holds more than `bytes` (checked every
    /// [`MEMORY_CHECK_EVERY`] nodes): the transposition table grows with the search and cannot be
    /// sized in advance. After that every node fails at once, and
    /// [`Self::gave_up`] tells the driver to discard the result.
    pub fn limit_memory(&self, bytes: u64) {
        self.memory_limit.store(bytes, Ordering::Relaxed);
    }

    /// Whether the search passed its memory limit (its results are void).
    pub fn gave_up(&self) -> bool {
        self.gave_up.load(Ordering::Relaxed)
    }

    /// Whether queries are restricted to possible secrets.
    pub fn possible_only(&self) -> bool {
        self.possible_only
    }

    /// Tabulated [`Self::counting_bounds`].
    #[inline]
    fn bound_of(&self, b: u64, m: u64) -> u64 {
        self.bounds
            .get(b as usize)
            .and_then(|row| row.get(m as usize))
            .copied()
            .unwrap_or_else(|| self.bound_row(b, m)[m as usize])
    }

    /// The bounds for at most b classes and sets of up to m codes (tabulated
    /// unless b exceeds the root's classes).
    fn bound_row(&self, b: u64, m: u64) -> std::borrow::Cow<'_, [u64]> {
        match self.bounds.get(b as usize) {
            Some(row) => std::borrow::Cow::Borrowed(&row[..]),
            None => std::borrow::Cow::Owned(self.counting_bounds(b, m)),
        }
    }

    /// Admissible lower bound on T of a set of m codes (any node).
    pub fn lower_bound(&self, m: u64) -> u64 {
        self.bound_of(self.max_classes, m)
    }

    /// Lower bounds on T of m = 0..=n codes when no query makes more than b
    /// answer classes (thesis Satz 4.2's counting argument, generalised): the
    /// best conceivable tree fills every level with b-fold branching; without
    /// a solving answer its leaves may also be terminal sets
    /// ([`grouped_huffman_totals`]).
    fn counting_bounds(&self, b: u64, n: u64) -> Vec<u64> {
        if !self.with_solving {
            return grouped_huffman_totals(b.max(2), self.problem.terminal_floor(), n);
        }
        let b = b.saturating_sub(1).max(1);
        let mut bounds = Vec::with_capacity(n as usize + 1);
        let (mut total, mut layer, mut depth, mut filled) = (0u64, 1u64, 1u64, 0u64);
        bounds.push(0);
        for _ in 1..=n {
            if filled == layer {
                (layer, depth, filled) = (layer.saturating_mul(b), depth + 1, 0);
            }
            total += depth;
            filled += 1;
            bounds.push(total);
        }
        bounds
    }

    fn terminal_total(&self, set: &P::Set) -> Option<u64> {
        let t = self.problem.terminal(set);
        let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer())?;
        Some(t.queries_per_code as u64 * self.problem.set_size(set) + penalty)
    }

    /// Whether stopping at the terminal set `set` respects `left`.
    fn terminal_fits(&self, set: &P::Set, left: Left) -> bool {
        left == UNCAPPED || self.problem.terminal(set).queries_per_code <= left
    }

    /// The exact total of (`state`, `set`) with `left` queries left if it is
    /// below `budget`; else `Err(lb)` with a proven lower bound lb ≥ `budget`
    /// ([`INFEASIBLE`]: no strategy solves the set within `left`).
    ///
    /// Fail-soft: lb is the least bound over every way on that was not shown
    /// to reach the budget (a terminal stop at its exact cost, a query cut by
    /// its counting bound at that bound, a query searched in vain at the lower
    /// bound [`Self::after_query`] proves), not merely `budget`. It is sound
    /// because T of the node is the minimum over those ways of their totals
    /// and each is at least its bound; the table keeps it, so the node is not
    /// opened again under any budget up to lb.
    // Long: the branch-and-bound node: memo lookup, candidate loop with its cut-offs and the memo
    //   store in one body; the hot path of `perfect`
    pub fn solve(&self, state: &P::State, set: &P::Set, left: Left, budget: u64) -> Result<u64, u64> {
        let m = self.problem.set_size(set);
        let left = self.canonical(m, left);
        // An exact terminal total at or above the budget is its own lower bound.
        let below = |t: Option<u64>| match t {
            Some(t) if t < budget => Ok(t),
            t => Err(t.unwrap_or(budget)),
        };
        if m == 1 {
            if !self.terminal_fits(set, left) {
                return Err(INFEASIBLE);
            }
            return below(self.terminal_total(set));
        }
        if m == 2 && !self.problem.has_solving_answers() {
            // Any separating query costs each code one query and ends at two
            // singletons; without one the set is terminal (as in the analysis).
            return match self.problem.separating_query(state, set) {
                Some(_) if left == 0 => Err(INFEASIBLE),
                Some(_) => below(Some(2)),
                None if !self.terminal_fits(set, left) => Err(INFEASIBLE),
                None => below(self.terminal_total(set)),
            };
        }
        let key = (state.clone(), set.clone(), left);
        match self.table.get(&key) {
            Some(Known::Exact { total, .. }) => return if total < budget { Ok(total) } else { Err(total) },
            Some(Known::AtLeast(lb)) if lb >= budget => return Err(lb),
            _ => {}
        }
        if let Some((total, q)) = self.finest_possible_secret(state, set, left) {
            self.table.learn(key, Known::Exact { total, query: Some(q) });
            return if total < budget { Ok(total) } else { Err(total) };
        }
        let visited = self.nodes.fetch_add(1, Ordering::Relaxed);
        if self.gave_up() {
            return Err(budget);
        }
        let limit = self.memory_limit.load(Ordering::Relaxed);
        if visited.is_multiple_of(MEMORY_CHECK_EVERY)
            && limit != u64::MAX
            && crate::memory::resident_bytes().is_some_and(|b| b > limit)
        {
            self.gave_up.store(true, Ordering::Relaxed);
            return Err(budget);
        }
        let mut candidates = self.candidates(state, set, left, budget);
        let (mut best, mut best_query) = (budget, None);
        // The least lower bound of the ways on not shown to reach `best`
        // (INFEASIBLE while every one misses the cap); it matters only if
        // nothing below the budget is found, and then it is ≥ `budget` (the
        // queries cut by the budget are added then).
        let mut least = INFEASIBLE;
        if !candidates.any_proper && self.terminal_fits(set, left) {
            match self.terminal_total(set) {
                Some(t) if t < best => best = t,
                t => least = least.min(t.unwrap_or(budget)),
            }
        }
        if m >= PARALLEL_PERFECT && rayon::current_num_threads() > 1 {
            let lb;
            (best, best_query, lb) = self.best_in_parallel(state, set, left, &mut candidates, best);
            least = least.min(lb);
        } else {
            while let Some((bound, _, q)) = candidates.next(self.problem) {
                if bound >= best {
                    least = least.min(bound);
                    break;
                }
                match self.after_query(state, set, q, left, best, candidates.branching) {
                    Ok(total) => {
                        best = total;
                        best_query = Some(q);
                    }
                    Err(lb) => least = least.min(lb),
                }
            }
        }
        let entry = if best < budget {
            Known::Exact { total: best, query: best_query }
        } else {
            least = least.min(candidates.least_cut(self.problem));
            debug_assert!(least >= budget, "a fail-soft bound {least} below the budget {budget}");
            Known::AtLeast(least.max(budget))
        };
        self.table.learn(key, entry);
        match entry {
            Known::Exact { total, .. } => Ok(total),
            Known::AtLeast(lb) => Err(lb),
        }
    }

    /// The candidates of a large node tried in parallel with a shared best
    /// total (each starts with the best known when it starts; ties keep the
    /// earliest candidate, as the sequential loop does). Also the least lower
    /// bound of the candidates that missed (meaningful when none is found:
    /// all then ran against `budget`; [`INFEASIBLE`] if all missed the cap).
    fn best_in_parallel(
        &self,
        state: &P::State,
        set: &P::Set,
        left: Left,
        candidates: &mut Candidates,
        budget: u64,
    ) -> (u64, Option<QueryId>, u64) {
        let best = AtomicU64::new(budget);
        let least = AtomicU64::new(INFEASIBLE);
        let list = candidates.rest(self.problem);
        let found: Vec<Option<(u64, usize)>> = list
            .par_iter()
            .enumerate()
            .map(|(i, &(bound, _, q))| {
                let now = best.load(Ordering::Relaxed);
                if bound >= now {
                    least.fetch_min(bound, Ordering::Relaxed);
                    return None;
                }
                match self.after_query(state, set, q, left, now, candidates.branching) {
                    Ok(total) => {
                        best.fetch_min(total, Ordering::Relaxed);
                        Some((total, i))
                    }
                    Err(lb) => {
                        least.fetch_min(lb, Ordering::Relaxed);
                        None
                    }
                }
            })
            .collect();
        match found.into_iter().flatten().min() {
            Some((total, i)) => (total, Some(list[i].2), INFEASIBLE),
            None => (budget, None, least.into_inner()),
        }
    }

    /// T after asking `query` with `left` queries left (counting this one), if
    /// below `budget`; else a lower bound lb ≥ `budget` as [`Self::solve`]
    /// gives it: m plus the exact totals of the classes solved so far, the
    /// failed class's own lower bound and the counting bounds of the classes
    /// not yet searched (each admissible for its class, so their sum is).
    fn after_query(
        &self,
        state: &P::State,
        set: &P::Set,
        query: QueryId,
        left: Left,
        budget: u64,
        branching: u64,
    ) -> Result<u64, u64> {
        let solving = self.problem.solving_answer(query);
        let next = self.problem.next_state(state, query);
        let below = child_left(left);
        let mut classes: Vec<(u64, P::Set)> = self
            .problem
            .split(query, set)
            .into_iter()
            .filter(|(a, _)| Some(*a) != solving)
            .map(|(_, class)| (self.class_bound(&next, &class, below, branching), class))
            .collect();
        classes.sort_by_key(|(_, s)| std::cmp::Reverse(self.problem.set_size(s)));
        let mut rest: u64 = classes.iter().map(|&(own, _)| own).sum();
        let mut total = self.problem.set_size(set);
        for &(own, ref class) in &classes {
            rest -= own;
            // The class cannot cost less than its own bound: no need to open it.
            if total + rest + own >= budget {
                return Err(total + rest + own);
            }
            match self.solve(&next, class, below, budget - total - rest) {
                Ok(t) => total += t,
                Err(INFEASIBLE) => return Err(INFEASIBLE),
                // (A sum past u64 falls back to the budget, as before the bound was kept.)
                Err(lb) => {
                    let sum = total.checked_add(lb).and_then(|s| s.checked_add(rest)).filter(|&s| s < INFEASIBLE);
                    return Err(sum.unwrap_or(budget));
                }
            }
        }
        if total < budget { Ok(total) } else { Err(total) }
    }

    /// A lower bound on T of a class with `left` queries left: its counting
    /// bound, raised to what the table knows of it (an exact total, or a
    /// lower bound a failed search proved), looked up before any class of
    /// the query is searched: a query that a later class rules out is then
    /// cut before the earlier ones are searched. Sets of ≤ 2 codes keep the
    /// counting bound (with a solving answer it is exact there: 1 and 3).
    fn class_bound(&self, next: &P::State, class: &P::Set, left: Left, branching: u64) -> u64 {
        let c = self.problem.set_size(class);
        let counting = self.bound_of(branching, c);
        if c < 3 {
            return counting;
        }
        match self.table.get(&(next.clone(), class.clone(), self.canonical(c, left))) {
            Some(Known::Exact { total, .. }) => total.max(counting),
            Some(Known::AtLeast(lb)) if lb != INFEASIBLE => lb.max(counting),
            _ => counting,
        }
    }

    /// The query the perfect strategy asks at a solved node with `left`
    /// queries left (as in the root search that solved it).
    pub fn best_query(&self, state: &P::State, set: &P::Set, left: Left) -> Option<QueryId> {
        let m = self.problem.set_size(set);
        if m == 2 && !self.problem.has_solving_answers() {
            return self.problem.separating_query(state, set);
        }
        match self.table.get(&(state.clone(), set.clone(), self.canonical(m, left))) {
            Some(Known::Exact { query, .. }) => query,
            _ => None,
        }
    }

    /// `left` at the root of the last root search (see [`Self::best_query`]).
    pub fn root_left(&self) -> Left {
        self.root_left.load(Ordering::Relaxed)
    }

    /// How the table keys its nodes.
    pub fn table_keys(&self) -> TableKeys {
        self.table.keys()
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Queries left below a node that has `left` (one fewer, unless uncapped).
#[inline]
pub fn child_left(left: Left) -> Left {
    if left == UNCAPPED { UNCAPPED } else { left.saturating_sub(1) }
}
