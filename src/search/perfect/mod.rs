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
//! - games without one (Beams): a tree with m leaves and at most b children per
//!   node, T(m) ≥ the equal-weight b-ary Huffman total ([`huffman_total`]).
//!
//! Queries are tried in order of their bound (then H_1), a transposition table
//! stores exact values and proven lower bounds per (state, set), and tied first
//! queries of one symmetry class are searched once.

use super::bounds::huffman_total;
use super::problem::{AnswerId, QueryId, SearchProblem};
use super::strategy::{batch_counts, class_sizes};
use dashmap::DashMap;
use num_traits::ToPrimitive;
use rayon::prelude::*;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// Smallest set whose candidate queries [`PerfectSearch::solve`] tries in parallel.
const PARALLEL_PERFECT: u64 = 256;

/// What the table knows about a node.
#[derive(Clone, Copy, Debug)]
enum Known {
    Exact { total: u64, query: Option<QueryId> },
    AtLeast(u64),
}

/// A perfect strategy: its total and the query to ask at every reached node.
pub struct PerfectSearch<'a, P: SearchProblem> {
    problem: &'a P,
    max_classes: u64,
    with_solving: bool,
    table: DashMap<(P::State, P::Set), Known, super::fasthash::FastBuild>,
    nodes: AtomicU64,
    /// `bounds[b][m]`: counting bound for m codes when no query makes more than
    /// b classes (b ≤ `max_classes`, m ≤ |C|); `xlnx[m]` = m·ln m.
    bounds: Vec<Vec<u64>>,
    xlnx: Vec<f64>,
}

/// Result of a perfect search.
#[derive(Clone, Debug, serde::Serialize)]
pub struct PerfectResult {
    pub problem: String,
    pub codes: u64,
    pub total: u64,
    pub mean: f64,
    pub lower_bound_at_root: u64,
    pub nodes: u64,
    pub seconds: f64,
}

impl<'a, P: SearchProblem> PerfectSearch<'a, P> {
    pub fn new(problem: &'a P) -> Self {
        let all = problem.full_set();
        let state = problem.initial_state();
        let mut counts = vec![0u64; problem.answer_count()];
        let max_classes = (0..problem.query_count() as QueryId)
            .filter(|&q| problem.is_admissible(&state, q))
            .map(|q| class_sizes(problem, q, &all, &mut counts).len() as u64)
            .max()
            .unwrap_or(1);
        let with_solving = problem.solving_answer(0).is_some();
        let mut search = PerfectSearch {
            problem,
            max_classes,
            with_solving,
            table: DashMap::default(),
            nodes: AtomicU64::new(0),
            bounds: Vec::new(),
            xlnx: Vec::new(),
        };
        let n = problem.code_count() as u64;
        search.bounds = (0..=max_classes).map(|b| (0..=n).map(|m| search.counting_bound(b, m)).collect()).collect();
        search.xlnx = (0..=n).map(|m| if m == 0 { 0.0 } else { m as f64 * (m as f64).ln() }).collect();
        search
    }

    /// Tabulated [`Self::counting_bound`].
    #[inline]
    fn bound_of(&self, b: u64, m: u64) -> u64 {
        self.bounds
            .get(b as usize)
            .and_then(|row| row.get(m as usize))
            .copied()
            .unwrap_or_else(|| self.counting_bound(b, m))
    }

    /// Admissible lower bound on T of a set of m codes (any node).
    pub fn lower_bound(&self, m: u64) -> u64 {
        self.bound_of(self.max_classes, m)
    }

    /// Lower bound on T of m codes when no query makes more than b answer
    /// classes (thesis Satz 4.2's counting argument, generalised): the best
    /// conceivable tree fills every level with b-fold branching.
    fn counting_bound(&self, b: u64, m: u64) -> u64 {
        if self.with_solving {
            let b = b.saturating_sub(1).max(1);
            let (mut left, mut total, mut layer, mut depth) = (m, 0u64, 1u64, 1u64);
            while left > 0 {
                let here = left.min(layer);
                total += here * depth;
                left -= here;
                layer = layer.saturating_mul(b);
                depth += 1;
            }
            total
        } else {
            huffman_total(b.max(2), m)
        }
    }

    fn terminal_total(&self, set: &P::Set) -> Option<u64> {
        let t = self.problem.terminal(set);
        let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer())?;
        Some(t.queries_per_code as u64 * self.problem.set_size(set) + penalty)
    }

    /// Candidate queries with their bound, best first, and the branching bound
    /// for the subtrees below: the most classes a query makes here if the game
    /// narrows (see [`SearchProblem::narrowing_queries`]), else the root's.
    fn candidates(&self, state: &P::State, set: &P::Set) -> (Vec<(u64, f64, QueryId)>, u64) {
        let m = self.problem.set_size(set);
        let admissible = self.problem.admissible_queries(state);
        let queries = self.problem.distinct_up_to_symmetry(state, set, admissible);
        let all_counts = batch_counts(self.problem, &queries, set);
        let a = self.problem.answer_count();
        let proper: Vec<(QueryId, &[u64])> =
            queries.iter().copied().zip(all_counts.chunks_exact(a)).filter(|(_, c)| c.iter().all(|&x| x < m)).collect();
        let branching = if self.problem.narrowing_queries() {
            proper.iter().map(|(_, c)| c.iter().filter(|&&x| x > 0).count() as u64).max().unwrap_or(1)
        } else {
            self.max_classes
        };
        let mut out = Vec::with_capacity(proper.len());
        for (q, counts) in proper {
            let solving = self.problem.solving_answer(q).map(|a| a as usize);
            let (mut bound, mut shannon) = (m, 0.0);
            for (a, &c) in counts.iter().enumerate().filter(|(_, c)| **c > 0) {
                shannon += self.xlnx.get(c as usize).copied().unwrap_or(c as f64 * (c as f64).ln());
                if Some(a) != solving {
                    bound += self.bound_of(branching, c);
                }
            }
            out.push((bound, shannon, q));
        }
        out.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
        (out, branching)
    }

    /// The exact total if it is below `budget`, else `None` (the total is ≥ budget).
    pub fn solve(&self, state: &P::State, set: &P::Set, budget: u64) -> Option<u64> {
        if self.problem.set_size(set) == 1 {
            return self.terminal_total(set).filter(|&t| t < budget);
        }
        if self.problem.set_size(set) == 2 && !self.problem.has_solving_answers() {
            // Any separating query costs each code one query and ends at two
            // singletons; without one the set is terminal (as in the analysis).
            let total = match self.problem.separating_query(state, set) {
                Some(_) => Some(2),
                None => self.terminal_total(set),
            };
            return total.filter(|&t| t < budget);
        }
        let key = (state.clone(), set.clone());
        match self.table.get(&key).map(|k| *k) {
            Some(Known::Exact { total, .. }) => return (total < budget).then_some(total),
            Some(Known::AtLeast(lb)) if lb >= budget => return None,
            _ => {}
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let (candidates, branching) = self.candidates(state, set);
        let (mut best, mut best_query) = (budget, None);
        if candidates.is_empty()
            && let Some(t) = self.terminal_total(set)
            && t < best
        {
            best = t;
        }
        if self.problem.set_size(set) >= PARALLEL_PERFECT && rayon::current_num_threads() > 1 {
            (best, best_query) = self.best_in_parallel(state, set, &candidates, best, branching);
        } else {
            for &(bound, _, q) in &candidates {
                if bound >= best {
                    break;
                }
                if let Some(total) = self.after_query(state, set, q, best, branching) {
                    best = total;
                    best_query = Some(q);
                }
            }
        }
        let found = best < budget;
        let entry = if found { Known::Exact { total: best, query: best_query } } else { Known::AtLeast(budget) };
        self.table
            .entry(key)
            .and_modify(|k| {
                if let (Known::AtLeast(old), Known::AtLeast(new)) = (*k, entry) {
                    *k = Known::AtLeast(old.max(new));
                } else if matches!(entry, Known::Exact { .. }) {
                    *k = entry;
                }
            })
            .or_insert(entry);
        found.then_some(best)
    }

    /// The candidates of a large node tried in parallel with a shared best
    /// total (each starts with the best known when it starts; ties keep the
    /// earliest candidate, as the sequential loop does).
    fn best_in_parallel(
        &self,
        state: &P::State,
        set: &P::Set,
        candidates: &[(u64, f64, QueryId)],
        budget: u64,
        branching: u64,
    ) -> (u64, Option<QueryId>) {
        let best = AtomicU64::new(budget);
        let found: Vec<Option<(u64, usize)>> = candidates
            .par_iter()
            .enumerate()
            .map(|(i, &(bound, _, q))| {
                let now = best.load(Ordering::Relaxed);
                if bound >= now {
                    return None;
                }
                let total = self.after_query(state, set, q, now, branching)?;
                best.fetch_min(total, Ordering::Relaxed);
                Some((total, i))
            })
            .collect();
        match found.into_iter().flatten().min() {
            Some((total, i)) => (total, Some(candidates[i].2)),
            None => (budget, None),
        }
    }

    /// T after asking `query`, if below `budget`.
    fn after_query(&self, state: &P::State, set: &P::Set, query: QueryId, budget: u64, branching: u64) -> Option<u64> {
        let solving = self.problem.solving_answer(query);
        let next = self.problem.next_state(state, query);
        let mut classes: Vec<(AnswerId, P::Set)> =
            self.problem.split(query, set).into_iter().filter(|(a, _)| Some(*a) != solving).collect();
        classes.sort_by_key(|(_, s)| std::cmp::Reverse(self.problem.set_size(s)));
        let mut rest: u64 = classes.iter().map(|(_, s)| self.bound_of(branching, self.problem.set_size(s))).sum();
        let mut total = self.problem.set_size(set);
        for (_, class) in &classes {
            rest -= self.bound_of(branching, self.problem.set_size(class));
            if total + rest >= budget {
                return None;
            }
            total += self.solve(&next, class, budget - total - rest)?;
        }
        (total < budget).then_some(total)
    }

    /// The query the perfect strategy asks at a solved node.
    pub fn best_query(&self, state: &P::State, set: &P::Set) -> Option<QueryId> {
        if self.problem.set_size(set) == 2 && !self.problem.has_solving_answers() {
            return self.problem.separating_query(state, set);
        }
        match self.table.get(&(state.clone(), set.clone())).map(|k| *k) {
            Some(Known::Exact { query, .. }) => query,
            _ => None,
        }
    }

    pub fn nodes(&self) -> u64 {
        self.nodes.load(Ordering::Relaxed)
    }
}

/// Bytes of the counting-bound tables [`PerfectSearch::new`] allocates (one
/// u64 per (class count ≤ answers + 1, set size ≤ |C|), plus m·ln m per set
/// size), estimated from above; `None` beyond 2^64. The transposition table
/// grows on top of this during the search. (`perfect beams 6c6p` used to ask
/// the allocator for 24 GB here and abort.)
pub fn bound_table_bytes<P: SearchProblem>(problem: &P) -> Option<u64> {
    let sizes = (problem.code_count() as u64).checked_add(1)?;
    (problem.answer_count() as u64 + 3).checked_mul(sizes)?.checked_mul(8)
}

/// Runs the search from the root: one representative per symmetry class of
/// first queries, the classes in parallel with a shared best bound.
pub fn solve_perfect<P: SearchProblem>(problem: &P) -> (PerfectResult, PerfectSearch<'_, P>) {
    solve_perfect_with_progress(problem, &crate::progress::Progress::none())
}

/// [`solve_perfect`] reporting to `progress`: root classes done, best total so far.
pub fn solve_perfect_with_progress<'a, P: SearchProblem>(
    problem: &'a P,
    progress: &crate::progress::Progress,
) -> (PerfectResult, PerfectSearch<'a, P>) {
    let clock = Instant::now();
    let search = PerfectSearch::new(problem);
    let state = problem.initial_state();
    let all = problem.full_set();
    let mut reps: BTreeMap<u64, QueryId> = BTreeMap::new();
    let (root_candidates, branching) = search.candidates(&state, &all);
    for (_, _, q) in root_candidates {
        reps.entry(problem.root_class_key(q)).or_insert(q);
    }
    let lb = search.lower_bound(problem.set_size(&all));
    // The H_1-LEX strategy is a strategy: its total bounds the optimum from above,
    // so even the first descent can cut (budget = that total + 1).
    let heuristic = super::analysis::analyze(
        problem,
        super::strategy::Strategy::new(crate::alpha::Alpha::integer(1), super::strategy::TieRule::lex()),
        Default::default(),
    );
    let upper = heuristic.exact_total().ceil().to_integer().to_u64().unwrap_or(u64::MAX - 1);
    let best = AtomicU64::new(upper.saturating_add(1));
    let winner = AtomicU64::new(u64::MAX);
    let reps: Vec<QueryId> = reps.into_values().collect();
    progress.begin("root classes", Some(reps.len() as u64));
    progress.status(&format!("lower bound {lb}"));
    reps.par_iter().for_each(|&q| {
        let budget = best.load(Ordering::SeqCst);
        if let Some(t) = search.after_query(&state, &all, q, budget, branching)
            && best.fetch_min(t, Ordering::SeqCst) > t
        {
            winner.store(q as u64, Ordering::SeqCst);
        }
        progress.advance(1);
        progress.status(&format!(
            "best total {} (lower bound {lb}), {} nodes",
            best.load(Ordering::SeqCst),
            search.nodes()
        ));
    });
    progress.end();
    // No query splits the codes (a single code, or one colour): the game
    // ends at once at the terminal cost, which the H_1 analysis above already
    // is exactly (it used to be reported as that bound + 1).
    let (total, root_query) = if reps.is_empty() {
        (upper, None)
    } else {
        (best.load(Ordering::SeqCst), Some(winner.load(Ordering::SeqCst) as QueryId))
    };
    search.table.insert((state, all), Known::Exact { total, query: root_query });
    let codes = problem.code_count() as u64;
    let result = PerfectResult {
        problem: problem.name(),
        codes,
        total,
        mean: total as f64 / codes as f64,
        lower_bound_at_root: lb,
        nodes: search.nodes(),
        seconds: clock.elapsed().as_secs_f64(),
    };
    (result, search)
}
