//! The generic search problem (thesis §4.2.2): a finite code set C, a
//! state-dependent set of admitted queries, and an answer function. A query
//! partitions the remaining set M into answer classes.
//!
//! A game gives its [`Rules`] and [`Presentation`]; what it adds beyond them
//! (faster paths, symmetries, memo keys, a tie preference) are the optional
//! capability traits of [`super::capabilities`]; [`SearchProblem`] is all of
//! them together.
//!
//! How a set of codes is stored is the game's choice ([`Rules::Set`]):
//! Mastermind keeps sorted code lists; Beams keeps rows of (pattern, colouring
//! bits) and counts answers by popcount. The analysis only counts, splits and
//! measures sets through the trait.

pub use super::capabilities::{MemoKeys, SpeedHooks, Symmetry, TiePreference};
use std::hash::Hash;

/// Index of a code in the problem's code list (canonical order).
pub type CodeId = u32;
/// Index of a query in the problem's query list; the index order is the
/// canonical "lexicographic" order used by the LEX tie rule.
pub type QueryId = u32;
/// Index of an answer, below [`Rules::answer_count`].
pub type AnswerId = u16;

/// How a set of codes at which the search stops is paid for.
#[derive(Clone, Debug, PartialEq)]
pub struct Terminal {
    /// Queries each code still pays (Mastermind: 1, the secret must be played).
    pub queries_per_code: u32,
    /// Penalty points summed over the codes of the set (Beams: wrong cells of
    /// the code laid), exact.
    pub penalty_total: super::Exact,
    /// `penalised[p]`: (expected) number of codes of the set that pay exactly p
    /// points, p ≥ 1 (Σ p·penalised[p] = `penalty_total`); empty without penalties.
    /// Where the game must choose what to lay among equally good options, this
    /// is the first option (the LEX reading of a tie).
    pub penalised: Vec<super::Exact>,
    /// The same split with the option drawn uniformly among the equally good
    /// ones (the MIX reading of a tie); it must be invariant under the game's
    /// symmetries ([`Symmetry::symmetry_classes`]), which MIX walks merge.
    /// Equal to `penalised` where there is no such choice.
    pub penalised_uniform: Vec<super::Exact>,
}

/// The rules every deduction game must give: the code set, the queries and
/// when they may be asked, the answers, and what a stop costs. No method has
/// a default, so an implementation that forwards the rules by hand (see
/// [`Subproblem`](super::subproblem::Subproblem)) cannot skip one: a rule
/// added here breaks every implementation until it says what the rule is.
pub trait Rules: Sync {
    /// Game state beyond the remaining set (e.g. Beams' used diagonals); `()` if none.
    type State: Clone + Eq + Hash + Send + Sync + std::fmt::Debug;
    /// A non-empty set of codes. Equal sets must compare equal (memo key).
    type Set: Clone + Eq + Hash + Send + Sync;

    /// |C|.
    fn code_count(&self) -> usize;
    /// Number of queries in the global query list.
    fn query_count(&self) -> usize;
    /// Answers are numbered `0..answer_count()`.
    fn answer_count(&self) -> usize;
    /// The state at the start of a game.
    fn initial_state(&self) -> Self::State;
    /// Whether `query` may be asked in `state`.
    fn is_admissible(&self, state: &Self::State, query: QueryId) -> bool;
    /// The state after asking `query`.
    fn next_state(&self, state: &Self::State, query: QueryId) -> Self::State;
    /// All codes.
    fn full_set(&self) -> Self::Set;
    /// |M|.
    fn set_size(&self, set: &Self::Set) -> u64;
    /// Sets `counts[a]` (length `answer_count`) to the number of codes of `set`
    /// that give answer a to `query`. The hot path of every analysis.
    fn count_answers(&self, query: QueryId, set: &Self::Set, counts: &mut [u64]);
    /// The non-empty answer classes of `set` under `query`, by answer.
    fn split(&self, query: QueryId, set: &Self::Set) -> Vec<(AnswerId, Self::Set)>;
    /// The answer after which the game is over because the query *was* the
    /// secret (Mastermind's (p,0)); `None` if the game has no such answer.
    fn solving_answer(&self, query: QueryId) -> Option<AnswerId>;
    /// Cost of stopping with `set`: at |M| = 1, or when no admissible query splits M.
    fn terminal(&self, set: &Self::Set) -> Terminal;
    /// Symmetry class of a query at the start of the game ([`Self::initial_state`],
    /// [`Self::full_set`]): queries with equal keys are mapped onto each other by
    /// a symmetry of the game that fixes the start. Used to evaluate one
    /// representative per class at the root; `query as u64` where no symmetry
    /// is known (always safe).
    fn root_class_key(&self, query: QueryId) -> u64;
}

/// How a game names itself and its queries: all that a game played under
/// another name with the same rules changes (Bulls and Cows is Mastermind
/// without repetition, [`Delegate`](super::delegate::Delegate)).
pub trait Presentation {
    /// A short name of the variant, e.g. `MM(4,6)`.
    fn name(&self) -> String;
    /// Human-readable query, e.g. `AABC`.
    fn query_label(&self, query: QueryId) -> String;
}

/// A deduction game as the analysis sees it: its [`Rules`] and
/// [`Presentation`], and the optional capabilities ([`SpeedHooks`],
/// [`Symmetry`], [`MemoKeys`], [`TiePreference`]), whose methods all have
/// correct defaults (a game without the capability writes an empty `impl`).
/// Implemented for every type that has all six; the analyses are generic over
/// it (monomorphised per game).
pub trait SearchProblem: Rules + Presentation + SpeedHooks + Symmetry + MemoKeys + TiePreference {}

impl<P: Rules + Presentation + SpeedHooks + Symmetry + MemoKeys + TiePreference> SearchProblem for P {}

/// `weighted` merged by orbits: `orbit_min(q)` is the smallest query of q's
/// orbit; weights of one orbit add up under it. In query order.
pub fn merge_orbits(weighted: &[(u64, QueryId)], orbit_min: impl Fn(QueryId) -> QueryId) -> Vec<(u64, QueryId)> {
    let mut by_orbit: Vec<(QueryId, u64)> = weighted.iter().map(|&(w, q)| (orbit_min(q), w)).collect();
    by_orbit.sort_unstable_by_key(|&(q, _)| q);
    let mut merged: Vec<(u64, QueryId)> = Vec::with_capacity(by_orbit.len());
    for (q, w) in by_orbit {
        match merged.last_mut() {
            Some((sum, last)) if *last == q => *sum += w,
            _ => merged.push((w, q)),
        }
    }
    merged
}

/// Class sizes of several queries, flattened (see [`SpeedHooks::class_sizes_batch`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ClassSizes {
    sizes: Vec<u64>,
    ends: Vec<usize>,
}

impl ClassSizes {
    /// Room for `queries` queries with `sizes` class sizes in all.
    pub fn with_capacity(queries: usize, sizes: usize) -> ClassSizes {
        ClassSizes { sizes: Vec::with_capacity(sizes), ends: Vec::with_capacity(queries) }
    }

    /// Appends the class sizes of the next query.
    pub fn push(&mut self, sizes: impl IntoIterator<Item = u64>) {
        self.sizes.extend(sizes);
        self.ends.push(self.sizes.len());
    }

    /// Appends another batch.
    pub fn append(&mut self, other: ClassSizes) {
        let base = self.sizes.len();
        self.sizes.extend(other.sizes);
        self.ends.extend(other.ends.into_iter().map(|e| e + base));
    }

    /// The class sizes of query number `i`.
    pub fn get(&self, i: usize) -> &[u64] {
        let start = if i == 0 { 0 } else { self.ends[i - 1] };
        &self.sizes[start..self.ends[i]]
    }

    /// Number of queries.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether no query is held.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

/// Helpers for games that store a set as a sorted list of code ids and can
/// answer one (query, code) pair at a time.
pub mod code_list {
    use super::{AnswerId, CodeId, QueryId};

    /// Counts answers over a code list.
    #[inline]
    pub fn count_answers(
        answer: impl Fn(QueryId, CodeId) -> AnswerId,
        query: QueryId,
        set: &[CodeId],
        counts: &mut [u64],
    ) {
        counts.iter_mut().for_each(|c| *c = 0);
        for &code in set {
            counts[answer(query, code) as usize] += 1;
        }
    }

    /// Splits a code list by answer (answers ascending, codes stay in order):
    /// the (answer, code) pairs sorted stably by answer and cut into runs, one
    /// allocation per class of its exact size (a map of growing vectors was 8 %
    /// of the MM-1296 MIX curve).
    pub fn split(
        answer: impl Fn(QueryId, CodeId) -> AnswerId,
        query: QueryId,
        set: &[CodeId],
    ) -> Vec<(AnswerId, Vec<CodeId>)> {
        let mut pairs: Vec<(AnswerId, CodeId)> = set.iter().map(|&code| (answer(query, code), code)).collect();
        pairs.sort_by_key(|&(a, _)| a);
        pairs.chunk_by(|x, y| x.0 == y.0).map(|run| (run[0].0, run.iter().map(|&(_, code)| code).collect())).collect()
    }
}
