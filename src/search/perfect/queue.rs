//! A node's candidate queries in the search's order (bound, then Σ m·ln m,
//! then query), handed out one at a time. Large sets are scored and sorted
//! at once; small sets, whose queries come with a floor on their bound from
//! their answer masks alone, are tallied only when the search reaches their
//! floor: a query is tallied once every candidate before it is handed out,
//! so a node whose search ends early (a total found that the next bound
//! reaches) never tallies, scores or sorts the queries behind it.
//!
//! The order and the values are those of scoring and sorting every query:
//! a query waits until its floor passes the least key waiting (its bound is
//! at least its floor, so it cannot come before), and the least bound of the
//! queries cut by the budget ([`Candidates::least_cut`]), which the search
//! needs only when it finds nothing below the budget, is completed then.

use super::{Left, UNCAPPED};
use crate::search::capabilities::tally_answer_bytes_into;
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// A node's rule for a query's class sizes: dropped by the cap, cut by the
/// budget with its bound, or kept with its bound and Σ m·ln m.
pub(super) struct Scorer {
    /// Codes of the node, and its budget.
    pub(super) m: u64,
    pub(super) budget: u64,
    /// Queries left, and the largest open class the cap lets the queries
    /// left after this one solve (when `left` is neither 0 nor uncapped).
    pub(super) left: Left,
    pub(super) max_fit: u64,
    /// Per class size c < m: its counting bound and c·ln c.
    pub(super) weights: Vec<(u64, f64)>,
}

/// What [`Scorer::score`] makes of a query.
pub(super) enum Score {
    Dropped,
    Cut(u64),
    Kept(u64, f64),
}

impl Scorer {
    /// The query with non-empty class sizes `sizes` (in answer order) whose
    /// solving class is at position `solving` (`u32::MAX`: none).
    #[inline]
    pub(super) fn score(&self, sizes: &[u64], solving: u32) -> Score {
        let open_class = |i: usize| i != solving as usize;
        if self.left != UNCAPPED
            && (self.left == 0 || sizes.iter().enumerate().any(|(i, &c)| open_class(i) && c > self.max_fit))
        {
            return Score::Dropped;
        }
        // The solving class is found by the query itself: no bound below it.
        let mut bound = self.m;
        for (i, &c) in sizes.iter().enumerate() {
            bound += if open_class(i) { self.weights[c as usize].0 } else { 0 };
        }
        if bound >= self.budget {
            return Score::Cut(bound);
        }
        // Summed in answer order, as over the answer counts before.
        let shannon: f64 = sizes.iter().map(|&c| self.weights[c as usize].1).sum();
        Score::Kept(bound, shannon)
    }
}

/// A small set's query not yet tallied: its answers are in the set's rows at
/// its id, and `floor` bounds its bound from below.
#[derive(Clone, Copy)]
pub(super) struct Waiting {
    pub(super) query: QueryId,
    pub(super) floor: u64,
}

/// A node's candidates (see the module).
pub(super) struct Candidates<'r> {
    /// The branching bound for the subtrees below.
    pub(super) branching: u64,
    /// Whether any query splits the set (if not, the set is terminal).
    pub(super) any_proper: bool,
    scorer: Scorer,
    /// Scored and sorted (large sets), and how many were handed out.
    sorted: Vec<(u64, f64, QueryId)>,
    taken: usize,
    /// The least bound of the queries cut by the budget so far.
    least_cut: u64,
    /// Small sets: the rows of answers, the queries by floor (ascending),
    /// how many were tallied, and the kept ones not yet handed out.
    rows: Vec<&'r [u8]>,
    waiting: Vec<Waiting>,
    tallied: usize,
    heap: BinaryHeap<Reverse<(u64, u64, QueryId)>>,
    sizes: Vec<u64>,
    bytes: Vec<u8>,
}

impl<'r> Candidates<'r> {
    /// Candidates scored already: `sorted` best first, `least_cut` over all.
    pub(super) fn sorted(
        scorer: Scorer,
        sorted: Vec<(u64, f64, QueryId)>,
        least_cut: u64,
        branching: u64,
        any_proper: bool,
    ) -> Candidates<'r> {
        let (rows, waiting, heap) = (Vec::new(), Vec::new(), BinaryHeap::new());
        let (sizes, bytes) = (Vec::new(), Vec::new());
        Candidates {
            branching,
            any_proper,
            scorer,
            sorted,
            taken: 0,
            least_cut,
            rows,
            waiting,
            tallied: 0,
            heap,
            sizes,
            bytes,
        }
    }

    /// Candidates tallied on demand from the set's `rows`, `waiting` in any
    /// order (sorted here by floor).
    pub(super) fn waiting(
        scorer: Scorer,
        rows: Vec<&'r [u8]>,
        mut waiting: Vec<Waiting>,
        least_cut: u64,
        branching: u64,
        any_proper: bool,
    ) -> Candidates<'r> {
        sort_by_floor(&mut waiting);
        let (sizes, bytes) = (Vec::with_capacity(64), Vec::with_capacity(rows.len()));
        Candidates {
            branching,
            any_proper,
            scorer,
            sorted: Vec::new(),
            taken: 0,
            least_cut,
            rows,
            waiting,
            tallied: 0,
            heap: BinaryHeap::new(),
            sizes,
            bytes,
        }
    }

    /// The next candidate (bound, Σ m·ln m, query) in the search's order,
    /// `None` after the last one whose bound is below the budget.
    pub(super) fn next<P: SearchProblem>(&mut self, problem: &P) -> Option<(u64, f64, QueryId)> {
        if let Some(&c) = self.sorted.get(self.taken) {
            self.taken += 1;
            return Some(c);
        }
        loop {
            let due = match (self.waiting.get(self.tallied), self.heap.peek()) {
                (Some(w), Some(Reverse(top))) => w.floor <= top.0,
                (Some(w), None) => w.floor < self.scorer.budget,
                (None, _) => false,
            };
            if !due {
                return self.heap.pop().map(|Reverse((bound, shannon, q))| (bound, f64::from_bits(shannon), q));
            }
            self.tally_next(problem);
        }
    }

    /// Every candidate not yet handed out, in order.
    pub(super) fn rest<P: SearchProblem>(&mut self, problem: &P) -> Vec<(u64, f64, QueryId)> {
        std::iter::from_fn(|| self.next(problem)).collect()
    }

    /// The least bound of a query cut by the budget ([`super::INFEASIBLE`] if
    /// none is), once every candidate was handed out: the waiting queries
    /// whose floor is below the least so far are tallied (the others cannot
    /// lower it).
    pub(super) fn least_cut<P: SearchProblem>(&mut self, problem: &P) -> u64 {
        while self.waiting.get(self.tallied).is_some_and(|w| w.floor < self.least_cut) {
            self.tally_next(problem);
        }
        self.least_cut
    }

    /// Tallies the next waiting query and files it by its score.
    fn tally_next<P: SearchProblem>(&mut self, problem: &P) {
        let query = self.waiting[self.tallied].query;
        self.tallied += 1;
        // The query's answers to the set's codes, in the set's order.
        self.bytes.clear();
        self.bytes.extend(self.rows.iter().map(|row| row[query as usize]));
        let solving = class_sizes(&self.bytes, problem.solving_answer(query), &mut self.sizes);
        match self.scorer.score(&self.sizes, solving) {
            Score::Dropped => {}
            Score::Cut(bound) => self.least_cut = self.least_cut.min(bound),
            Score::Kept(bound, shannon) => self.heap.push(Reverse((bound, shannon.to_bits(), query))),
        }
    }
}

/// Sorts `waiting` by floor: by counting where the floors span a short range
/// (a small set's floors lie in [2m − 1, 3m]), else by comparison.
fn sort_by_floor(waiting: &mut Vec<Waiting>) {
    let (low, high) = waiting.iter().fold((u64::MAX, 0), |(l, h), w| (l.min(w.floor), h.max(w.floor)));
    if waiting.len() < 2 || high - low >= 1024 {
        waiting.sort_unstable_by_key(|w| w.floor);
        return;
    }
    let mut starts = vec![0usize; (high - low + 2) as usize];
    for w in waiting.iter() {
        starts[(w.floor - low + 1) as usize] += 1;
    }
    for i in 1..starts.len() {
        starts[i] += starts[i - 1];
    }
    let mut sorted = vec![Waiting { query: 0, floor: 0 }; waiting.len()];
    for &w in waiting.iter() {
        let slot = &mut starts[(w.floor - low) as usize];
        sorted[*slot] = w;
        *slot += 1;
    }
    *waiting = sorted;
}

/// The non-empty class sizes of a query from its answer bytes, in answer
/// order, into `sizes`, and the position of its `solving` class among them
/// (`u32::MAX` if none is non-empty), as the candidates list them.
#[inline]
fn class_sizes(bytes: &[u8], solving: Option<AnswerId>, sizes: &mut Vec<u64>) -> u32 {
    let mut counts = [0u8; 64];
    let seen = tally_answer_bytes_into(bytes, &mut counts);
    let solving = solving.map_or(usize::MAX, |a| a as usize);
    sizes.clear();
    let mut position = u32::MAX;
    for a in bits(seen) {
        if a == solving {
            position = sizes.len() as u32;
        }
        sizes.push(u64::from(counts[a]));
    }
    position
}

/// The set bits of `mask`, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (mask != 0).then(|| {
            let bit = mask.trailing_zeros() as usize;
            mask &= mask - 1;
            bit
        })
    })
}
