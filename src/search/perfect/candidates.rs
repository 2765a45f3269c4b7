//! A node's candidate queries for the perfect search: the queries that split
//! the set, each with its lower bound, the ones below the budget ordered best
//! first; and the closing of a set at the least total 2m − 1 any strategy can
//! reach.

use super::{Left, PerfectSearch, UNCAPPED};
use crate::search::problem::{QueryId, SearchProblem};
use crate::search::strategy::batch_counts_into;

thread_local! {
    /// [`PerfectSearch::candidates`]' answer counts, kept between calls
    /// (MM-1296: 155 KB per node, which fresh allocations zeroed page by page).
    static COUNTS: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Orders candidates by bound, then Σ m·ln m, then query. Bounds below 2^32
/// (every game searched) and sums ≥ 0 (whose f64 bits order as their values)
/// pack into one u128 key, sorted as integers: the comparison closure on
/// tuples was about 10 % of MM-1296's search.
fn sort_best_first(list: &mut [(u64, f64, QueryId)]) {
    if list.iter().all(|c| c.0 <= u64::from(u32::MAX) && c.1.is_sign_positive()) {
        let mut keys: Vec<u128> = list
            .iter()
            .map(|&(bound, shannon, q)| (bound as u128) << 96 | (shannon.to_bits() as u128) << 32 | q as u128)
            .collect();
        keys.sort_unstable();
        for (slot, key) in list.iter_mut().zip(keys) {
            *slot = ((key >> 96) as u64, f64::from_bits((key >> 32) as u64), key as u32 as QueryId);
        }
    } else {
        list.sort_unstable_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)).then(a.2.cmp(&b.2)));
    }
}

/// A node's candidate queries whose bound is below the budget (best first,
/// with their bound and Σ m·ln m), the branching bound for the subtrees below,
/// whether any query splits the set at all (if not, the set is terminal; if
/// so but no candidate is left, the cap or the budget cannot be met) and
/// whether some query was left out for its bound (not for the cap).
pub(super) struct Candidates {
    pub(super) list: Vec<(u64, f64, QueryId)>,
    pub(super) branching: u64,
    pub(super) any_proper: bool,
    pub(super) over_budget: bool,
}

impl<P: SearchProblem> PerfectSearch<'_, P> {
    /// Candidate queries with their bound, best first, and the branching bound
    /// for the subtrees below: the most classes a query makes here if the game
    /// narrows (see [`SearchProblem::narrowing_queries`]), else the root's.
    /// Under a cap, queries with a class that cannot be solved with the
    /// queries left are dropped; in hard mode only possible secrets are asked.
    /// Queries whose bound is at least `budget` are left out before sorting
    /// (no search would try them).
    // Long: the hot path of branch and bound: bounds, symmetry classes and the budget cut are
    //   computed in one pass over the queries
    pub(super) fn candidates(&self, state: &P::State, set: &P::Set, left: Left, budget: u64) -> Candidates {
        let m = self.problem.set_size(set);
        // Symmetries fixing the set map possible secrets to possible
        // secrets, so in hard mode the list stays closed under them.
        let admissible = if self.possible_only {
            self.problem.possible_secret_queries(state, set)
        } else {
            self.problem.admissible_queries(state)
        };
        let queries = self.problem.distinct_up_to_symmetry(state, set, admissible);
        // The counts buffer is reused per thread: taken out (a call that
        // runs meanwhile on this thread, stolen by rayon, finds it empty)
        // and put back at the end.
        let mut all_counts = COUNTS.take();
        batch_counts_into(self.problem, &queries, set, &mut all_counts);
        let a = self.problem.answer_count();
        // One pass: the queries that split the set (no class holds all of
        // it), each with its open classes (non-empty, other than the solving one).
        let mut proper: Vec<(QueryId, &[u64])> = Vec::with_capacity(queries.len());
        let mut most_open = 0u64;
        // (The count of [`Self::open_classes`], fused here with the largest
        // class in one pass over the counts: two passes measured 8–10 % slower
        // on MM-1296.)
        for (&q, counts) in queries.iter().zip(all_counts.chunks_exact(a)) {
            let (mut largest, mut open) = (0u64, 0u64);
            for &c in counts {
                largest = largest.max(c);
                open += (c > 0) as u64;
            }
            if largest < m {
                let solving = self.problem.solving_answer(q).map(|a| a as usize);
                open -= solving.is_some_and(|a| counts[a] > 0) as u64;
                most_open = most_open.max(open);
                proper.push((q, counts));
            }
        }
        let most_open = if proper.is_empty() { 1 } else { most_open };
        let branching = match (self.problem.narrowing_queries(), self.with_solving) {
            // The sets below are subsets: no query there has more open classes
            // than the most here. Counting a query's classes with its solving
            // class, as before, let a query that is not a possible secret (all
            // its classes open) exceed the b − 1 open classes the bound assumes.
            (true, true) => most_open + 1,
            (true, false) => most_open,
            (false, _) => self.max_classes,
        };
        let any_proper = !proper.is_empty();
        // Under a cap: the most classes other than the solving one of any
        // query here, bounding every node below ([`Self::capacity`]).
        let open = match (left, self.problem.narrowing_queries()) {
            (UNCAPPED, _) => u64::MAX,
            (_, true) => most_open,
            (_, false) => self.max_classes,
        };
        let row = self.bound_row(branching, m);
        let mut list = Vec::with_capacity(proper.len());
        let mut over_budget = false;
        for (q, counts) in proper {
            let solving = self.problem.solving_answer(q).map(|a| a as usize);
            if left != UNCAPPED
                && (left == 0
                    || counts
                        .iter()
                        .enumerate()
                        .any(|(a, &c)| c > 0 && Some(a) != solving && !self.fits(c, left - 1, open)))
            {
                continue;
            }
            // row[0] = 0: empty classes add nothing; the solving class is taken out after.
            let mut bound = m + counts.iter().map(|&c| row[c as usize]).sum::<u64>();
            if let Some(a) = solving {
                bound -= row[counts[a] as usize];
            }
            if bound >= budget {
                over_budget = true;
                continue;
            }
            let shannon: f64 = counts
                .iter()
                .filter(|&&c| c > 0)
                .map(|&c| self.xlnx.get(c as usize).copied().unwrap_or(c as f64 * (c as f64).ln()))
                .sum();
            list.push((bound, shannon, q));
        }
        sort_best_first(&mut list);
        COUNTS.set(all_counts);
        Candidates { list, branching, any_proper, over_budget }
    }

    /// In a game with solving answers whose singletons cost one query each,
    /// no strategy for m codes costs less than 2m − 1: the first query finds
    /// at most one code (itself), every other code pays at least two. A
    /// possible secret that splits the set into singletons reaches it; the
    /// first such query in canonical order is also the first of its symmetry
    /// orbit, the candidate the full search would pick. Scanning only the m
    /// possible secrets of sets that can split into singletons (m ≤ the most
    /// classes) costs far less than the full search's queries × m answers.
    /// (Closing nodes at 2m by any all-singleton query as well was measured
    /// slower on MM-1296: such nodes are rare.)
    pub(super) fn finest_possible_secret(&self, state: &P::State, set: &P::Set, left: Left) -> Option<(u64, QueryId)> {
        let m = self.problem.set_size(set);
        if !self.with_solving || m < 3 || left < 2 || m > self.max_classes {
            return None;
        }
        let members = self.problem.possible_secret_queries(state, set);
        let q = self.problem.first_finest_query(&members, set)?;
        let solving = self.problem.solving_answer(q);
        let singletons_cost_one =
            self.problem.split(q, set).into_iter().filter(|(a, _)| Some(*a) != solving).all(|(_, class)| {
                let t = self.problem.terminal(&class);
                t.queries_per_code == 1 && t.penalty_total == crate::search::Exact::from_integer(0.into())
            });
        singletons_cost_one.then_some((2 * m - 1, q))
    }
}
