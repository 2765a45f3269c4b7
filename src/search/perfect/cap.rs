//! Depth caps: how many codes a strategy can find within k queries (the
//! counting argument that cuts sets under a cap), the least worst case it
//! allows, and the canonical form of "queries left" in table keys.

use super::{Left, PerfectSearch, UNCAPPED};
use crate::search::problem::{QueryId, SearchProblem};
use crate::search::strategy::batch_counts;

impl<P: SearchProblem> PerfectSearch<'_, P> {
    /// The most codes of a game with a solving answer that any strategy can
    /// find within `left` queries when no query has more than `s` non-empty
    /// classes other than its solving one: 1 + s + s² + … + s^(left−1).
    ///
    /// Why: a code is found only by being asked (the solving answer; a code
    /// known but not asked costs one more query, as at a singleton), so each
    /// query node of the strategy tree finds at most one code, and it has at
    /// most s children that ask again. With N(k) the most codes found within
    /// k queries, N(0) = 0 and N(k) ≤ 1 + s·N(k−1), which sums to the above.
    /// (With s counting all classes, b = s + 1 for a possible secret, a query
    /// that is not one could have b children and N(k) would grow like b^(k−1):
    /// hence s is taken over the non-solving classes of every query.) Under
    /// [`SearchProblem::narrowing_queries`] the s of a node bounds every node
    /// below it (a subset splits into restrictions of the same classes).
    pub fn capacity(&self, left: Left, s: u64) -> u64 {
        let s = s.max(1);
        let (mut sum, mut layer) = (0u64, 1u64);
        for _ in 0..left.min(64) {
            sum = sum.saturating_add(layer);
            layer = layer.saturating_mul(s);
        }
        if left > 64 { u64::MAX } else { sum }
    }

    /// The most codes that can be found within `left` queries as far as
    /// [`Self::capacity`] tells (`u64::MAX` uncapped, and for games without a
    /// solving answer: a leaf may hold codes no query separates, so only the
    /// node itself can tell).
    pub(super) fn largest_fit(&self, left: Left, s: u64) -> u64 {
        if left == UNCAPPED || !self.with_solving { u64::MAX } else { self.capacity(left, s) }
    }

    /// The most non-empty classes other than the solving one that any query
    /// makes, from (query, answer counts) pairs.
    pub(super) fn most_open_classes<'c>(&self, counted: impl Iterator<Item = (QueryId, &'c [u64])>) -> u64 {
        counted.map(|(q, c)| self.open_classes(q, c)).max().unwrap_or(1)
    }

    /// The non-empty classes other than the solving one that query `q` makes,
    /// from its answer counts.
    pub(super) fn open_classes(&self, q: QueryId, counts: &[u64]) -> u64 {
        let non_empty = counts.iter().map(|&n| (n > 0) as u64).sum::<u64>();
        let solving = self.problem.solving_answer(q).map(|x| x as usize);
        non_empty - solving.is_some_and(|x| counts[x] > 0) as u64
    }

    /// The fewest queries within which [`Self::capacity`] allows finding all
    /// codes: a lower bound on the worst case of every strategy (in hard mode
    /// of every hard-mode strategy). 1 for games without a solving answer or
    /// whose queries do not narrow (more than one code).
    pub fn depth_lower_bound(&self) -> Left {
        let n = self.problem.code_count() as u64;
        if !self.with_solving || !self.problem.narrowing_queries() {
            return if n > 1 { 1 } else { 0 };
        }
        let (state, all) = (self.problem.initial_state(), self.problem.full_set());
        let mut queries = self.problem.admissible_queries(&state);
        if self.possible_only {
            queries.retain(|&q| self.problem.is_possible_secret(q, &all));
        }
        let counts = batch_counts(self.problem, &queries, &all);
        let s = self.most_open_classes(queries.iter().copied().zip(counts.chunks_exact(self.problem.answer_count())));
        (0..).find(|&k| self.capacity(k, s) >= n).unwrap_or(UNCAPPED)
    }

    /// `left` as the table keys it: a cap of at least |M| cannot bind (every
    /// query the search asks splits M, so each code is found within |M|
    /// queries, a singleton costing at most one).
    #[inline]
    pub(super) fn canonical(&self, m: u64, left: Left) -> Left {
        if left != UNCAPPED && u64::from(left) >= m { UNCAPPED } else { left }
    }
}
