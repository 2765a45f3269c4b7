//! A node's candidate queries for the perfect search: the queries that split
//! the set, each with its lower bound, the ones below the budget ordered best
//! first; and the closing of a set at the least total 2m − 1 any strategy can
//! reach.

use super::queue::{Candidates, Score, Scorer, Waiting};
use super::{INFEASIBLE, Left, PerfectSearch, UNCAPPED};
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use crate::search::strategy::batch_counts_into;

thread_local! {
    /// [`PerfectSearch::candidates`]' buffers, kept between calls (MM-1296:
    /// 155 KB of answer counts per node, which fresh allocations zeroed page
    /// by page): answer counts, the queries' answer masks (32 or 64 bits)
    /// and the queries' class sizes.
    static COUNTS: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
    static MASKS32: std::cell::Cell<Vec<u32>> = const { std::cell::Cell::new(Vec::new()) };
    static MASKS64: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
    static SIZES: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Largest set whose answer classes are counted from the answers' bytes
/// ([`SpeedHooks::answer_rows`](crate::search::SpeedHooks::answer_rows)) in a
/// 64-bit mask of answers and a byte per answer (so at most 255 codes),
/// instead of in a row of `answer_count` counters per query that is zeroed
/// and scanned twice. Raised from 40 once Mastermind's answer bytes came from
/// the set's own table rows: a standalone measurement on MM(4,7) (all 2401
/// queries, load ≈ 10, noisy) gave bytes and byte counts 1.6× less time than
/// the rows of counters at 100 codes and 2.2× at 160 (at 40 codes, before:
/// 2–3.6× less time for 3–24 codes, 1.1× at 48, with the bytes then read
/// from every query's row).
const SMALL_SET: u64 = 160;

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

/// A query that splits the set: its non-empty class sizes are
/// `sizes[start..end]` of its [`Splits`], in answer order; `solving` is the
/// position of its solving class among them (`u32::MAX` if none is non-empty).
struct Split {
    query: QueryId,
    start: u32,
    end: u32,
    solving: u32,
}

/// The queries of a node that split its set, with their class sizes (or,
/// for small sets, the rows of answers to tally them from when needed), and
/// the most non-empty classes other than the solving one that any makes.
struct Splits<'r> {
    sizes: Vec<u64>,
    list: Vec<Split>,
    most_open: u64,
    rows: Vec<&'r [u8]>,
    waiting: Vec<Waiting>,
}

/// A lower bound on the counting bound m + Σ row[c] over the open classes
/// of a query in a game with a solving answer, from the number of its open
/// classes and the size of its solving class alone: every row of
/// [`PerfectSearch::counting_bounds`] with a solving answer finds one code
/// at depth 1 and every other at depth ≥ 2, so row[c] ≥ 2c − 1 for c ≥ 1,
/// and the open classes hold m − solved codes. (With s the most open classes
/// of the node, row[c] = 2c − 1 for c ≤ s + 1: the floor is the bound itself
/// unless a class holds more than s + 1 codes, which at small sets is rare.)
#[inline]
fn floor(m: u64, open: u32, solved: u32) -> u64 {
    m + 2 * (m - u64::from(solved)) - u64::from(open)
}

impl<'a, P: SearchProblem> PerfectSearch<'a, P> {
    /// Candidate queries with their bound, best first, and the branching bound
    /// for the subtrees below: the most classes a query makes here if the game
    /// narrows (see [`SearchProblem::narrowing_queries`]), else the root's.
    /// Under a cap, queries with a class that cannot be solved with the
    /// queries left are dropped; in hard mode only possible secrets are asked.
    /// Queries whose bound is at least `budget` are left out before sorting
    /// (no search would try them), and queries that stand for a smaller one on
    /// this set are not scored (see
    /// [`drop_equivalent_queries`](crate::search::SpeedHooks::drop_equivalent_queries)):
    /// the smaller one has the same bound, H_1 and total and comes first in
    /// the order, so the search picks the query it picked before.
    // Long: the hot path of branch and bound: bounds, the cap and the budget cut are computed in
    //   one pass over the splitting queries
    pub(super) fn candidates(&self, state: &P::State, set: &P::Set, left: Left, budget: u64) -> Candidates<'a> {
        let m = self.problem.set_size(set);
        // Symmetries fixing the set map possible secrets to possible
        // secrets, so in hard mode the list stays closed under them.
        let admissible = if self.possible_only {
            self.problem.possible_secret_queries(state, set)
        } else {
            self.problem.admissible_queries(state)
        };
        let mut queries = self.problem.distinct_up_to_symmetry(state, set, admissible);
        self.problem.drop_equivalent_queries(set, &mut queries);
        let splits = self.splits(&queries, set, m);
        let any_proper = !splits.list.is_empty() || !splits.waiting.is_empty();
        let most_open = if any_proper { splits.most_open } else { 1 };
        let branching = match (self.problem.narrowing_queries(), self.with_solving) {
            // The sets below are subsets: no query there has more open classes
            // than the most here. Counting a query's classes with its solving
            // class, as before, let a query that is not a possible secret (all
            // its classes open) exceed the b − 1 open classes the bound assumes.
            (true, true) => most_open + 1,
            (true, false) => most_open,
            (false, _) => self.max_classes,
        };
        // Under a cap: the most classes other than the solving one of any
        // query here, bounding every node below ([`Self::capacity`]).
        let open = match (left, self.problem.narrowing_queries()) {
            (UNCAPPED, _) => u64::MAX,
            (_, true) => most_open,
            (_, false) => self.max_classes,
        };
        let row = self.bound_row(branching, m);
        // Per class size c < m (a splitting query's classes are smaller than
        // the set): its counting bound and c·ln c, looked up together.
        let weights: Vec<(u64, f64)> = (0..m as usize)
            .map(|c| (row[c], self.xlnx.get(c).copied().unwrap_or(c as f64 * (c as f64).ln())))
            .collect();
        // Under a cap, the largest class the queries left after this one can solve.
        let max_fit = if left == UNCAPPED || left == 0 { u64::MAX } else { self.largest_fit(left - 1, open) };
        let scorer = Scorer { m, budget, left, max_fit, weights };
        if !splits.waiting.is_empty() {
            SIZES.set(splits.sizes);
            return Candidates::waiting(scorer, splits.rows, splits.waiting, INFEASIBLE, branching, any_proper);
        }
        let mut list = Vec::with_capacity(splits.list.len());
        let mut least_cut = INFEASIBLE;
        for split in &splits.list {
            match scorer.score(&splits.sizes[split.start as usize..split.end as usize], split.solving) {
                Score::Dropped => {}
                Score::Cut(bound) => least_cut = least_cut.min(bound),
                Score::Kept(bound, shannon) => list.push((bound, shannon, split.query)),
            }
        }
        sort_best_first(&mut list);
        SIZES.set(splits.sizes);
        Candidates::sorted(scorer, list, least_cut, branching, any_proper)
    }

    /// The queries among `queries` that split `set` (m codes): for small sets
    /// where the game gives the rows of answers to the set's codes, with those
    /// rows and the floor of their bound ([`Waiting`]); else
    /// with their class sizes from rows of answer counts.
    fn splits(&self, queries: &[QueryId], set: &P::Set, m: u64) -> Splits<'a> {
        let mut splits =
            Splits { sizes: SIZES.take(), list: Vec::new(), most_open: 0, rows: Vec::new(), waiting: Vec::new() };
        splits.sizes.clear();
        let a = self.problem.answer_count();
        let problem: &'a P = self.problem;
        if let Some(rows) = (m <= SMALL_SET && a <= 64).then(|| problem.answer_rows(set)).flatten() {
            // Which answers each query gives: a mask per query id, or-ed a row
            // (a code) at a time; no counts (they are tallied for the queries
            // that need them). Masks of 32 bits when the answers fit.
            let n = problem.query_count();
            if self.answers_below_32 {
                let mut masks = MASKS32.take();
                answer_masks(&rows, n, 31, &mut masks);
                splits.waiting(problem, queries, &masks, &rows, self.with_solving);
                MASKS32.set(masks);
            } else {
                let mut masks = MASKS64.take();
                answer_masks(&rows, n, 63, &mut masks);
                splits.waiting(problem, queries, &masks, &rows, self.with_solving);
                MASKS64.set(masks);
            }
            splits.rows = rows;
            return splits;
        }
        splits.list.reserve(queries.len());
        // The counts buffer is reused per thread: taken out (a call that
        // runs meanwhile on this thread, stolen by rayon, finds it empty)
        // and put back at the end.
        let mut all_counts = COUNTS.take();
        batch_counts_into(self.problem, queries, set, &mut all_counts);
        for (&q, counts) in queries.iter().zip(all_counts.chunks_exact(a)) {
            // Queries that do not split the set are dropped by one vectorised
            // pass before their classes are gathered.
            if counts.iter().copied().max().unwrap_or(0) < m {
                let classes = (0..a).filter(|&a| counts[a] > 0).map(|a| (a, counts[a]));
                splits.push((q, self.problem.solving_answer(q)), m, classes);
            }
        }
        COUNTS.set(all_counts);
        splits
    }
}

/// The answers each query id gives to the codes of a set, as bits of a mask
/// per query (`masks[q]` bit a: some row has answer a at q), from the set's
/// `rows` of answers (`n` query ids each; answer ids ≤ `high`, a mask of
/// the bits below the mask type's width). Whole rows at a time, the inner
/// loop is a shift and an or per query, which the compiler vectorises
/// (eight 32-bit masks an instruction under AVX2), where reading each
/// query's m answers first and then scanning them cost a load, a store and
/// a scan per answer.
fn answer_masks<T>(rows: &[&[u8]], n: usize, high: u8, masks: &mut Vec<T>)
where
    T: Copy + Default + From<u8> + std::ops::BitOrAssign + std::ops::Shl<u8, Output = T>,
{
    masks.clear();
    masks.resize(n, T::default());
    for row in rows {
        for (mask, &answer) in masks.iter_mut().zip(&row[..n]) {
            *mask |= T::from(1) << (answer & high);
        }
    }
}

impl Splits<'_> {
    /// Lists the `queries` that split the set, with their open classes and
    /// solving class size, from their answer `masks` (by query id) and the
    /// set's `rows`: the same values as counting each query's answers one by
    /// one (a query splits the set when it gives two answers or more; its
    /// solving class holds the codes whose answer is its solving one, counted
    /// in the rows only when the mask shows the answer at all).
    fn waiting<P: SearchProblem, T: Copy + Into<u64>>(
        &mut self,
        problem: &P,
        queries: &[QueryId],
        masks: &[T],
        rows: &[&[u8]],
        with_solving: bool,
    ) {
        let m = rows.len() as u64;
        self.waiting.reserve(queries.len());
        for &query in queries {
            let seen: u64 = masks[query as usize].into();
            if seen.count_ones() < 2 {
                continue;
            }
            let solved = match problem.solving_answer(query) {
                Some(s) if s < 64 && seen >> s & 1 == 1 => {
                    rows.iter().filter(|row| u16::from(row[query as usize]) == s).count() as u32
                }
                _ => 0,
            };
            let open = seen.count_ones() - u32::from(solved > 0);
            self.most_open = self.most_open.max(u64::from(open));
            let floor = if with_solving { floor(m, open, solved) } else { 0 };
            self.waiting.push(Waiting { query, floor });
        }
    }

    /// Adds `query` if it splits the set of `m` codes: its non-empty
    /// `classes` as (answer, size), in answer order. (Sizes are pushed one
    /// by one: copying a node's few sizes with `extend_from_slice` called
    /// memmove per query, 9 % of MM-1296's search.)
    #[inline]
    fn push(
        &mut self,
        (query, solving): (QueryId, Option<AnswerId>),
        m: u64,
        classes: impl Iterator<Item = (usize, u64)>,
    ) {
        let solving = solving.map_or(usize::MAX, |a| a as usize);
        let start = self.sizes.len();
        let (mut largest, mut position) = (0u64, u32::MAX);
        for (answer, c) in classes {
            if answer == solving {
                position = (self.sizes.len() - start) as u32;
            }
            largest = largest.max(c);
            self.sizes.push(c);
        }
        if largest >= m {
            self.sizes.truncate(start);
            return;
        }
        let open = (self.sizes.len() - start) as u64 - u64::from(position != u32::MAX);
        self.most_open = self.most_open.max(open);
        self.list.push(Split { query, start: start as u32, end: self.sizes.len() as u32, solving: position });
    }
}

impl<P: SearchProblem> PerfectSearch<'_, P> {
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
