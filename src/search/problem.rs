//! The generic search problem (thesis §4.2.2): a finite code set C, a
//! state-dependent set of admitted queries, and an answer function. A query
//! partitions the remaining set M into answer classes.

use std::hash::Hash;

/// Index of a code in the problem's code list (canonical order).
pub type CodeId = u32;
/// Index of a query in the problem's query list; the index order is the
/// canonical "lexicographic" order used by the LEX tie rule.
pub type QueryId = u32;
/// Index of an answer, below [`SearchProblem::answer_count`].
pub type AnswerId = u16;

/// How a set of codes at which the search stops is paid for.
#[derive(Clone, Debug, PartialEq)]
pub struct Terminal {
    /// Queries each code still pays (Mastermind: 1, the secret must be played).
    pub queries_per_code: u32,
    /// Penalty points summed over the codes of the set (Beams: wrong cells of
    /// the code laid), exact.
    pub penalty_total: super::Exact,
}

/// A deduction game as the analysis sees it. Implementations must make the
/// answer a pure function of (query, code).
pub trait SearchProblem: Sync {
    /// Game state beyond the remaining set (e.g. Beams' used diagonals); `()` if none.
    type State: Clone + Eq + Hash + Send + Sync + std::fmt::Debug;

    /// A short name of the variant, e.g. `MM(4,6)`.
    fn name(&self) -> String;
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
    /// The answer to `query` if `code` is the secret.
    fn answer(&self, query: QueryId, code: CodeId) -> AnswerId;
    /// The answer after which the game is over because the query *was* the
    /// secret (Mastermind's (p,0)); `None` if the game has no such answer.
    fn solving_answer(&self, query: QueryId) -> Option<AnswerId>;
    /// The code a query names, if queries are codes (for the "possible secrets
    /// first" tie preference).
    fn query_as_code(&self, query: QueryId) -> Option<CodeId>;
    /// Cost of stopping with the non-empty set `set`: at |M| = 1, or when no
    /// admissible query splits M.
    fn terminal(&self, set: &[CodeId]) -> Terminal;
    /// Symmetry class of a query at the start of the game: queries with equal keys
    /// are mapped onto each other by a symmetry of the game (which fixes C). Used to
    /// evaluate one representative per class at the root.
    fn root_class_key(&self, query: QueryId) -> u64 {
        query as u64
    }
    /// How many queries `query` stands for in `state` when the problem lists only
    /// one of several interchangeable queries (for exact MIX weights); usually 1.
    fn multiplicity(&self, _state: &Self::State, _query: QueryId) -> u64 {
        1
    }
    /// Human-readable query, e.g. `AABC`.
    fn query_label(&self, query: QueryId) -> String;
    /// Human-readable code.
    fn code_label(&self, code: CodeId) -> String;
}
