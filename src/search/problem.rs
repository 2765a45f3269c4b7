//! The generic search problem (thesis §4.2.2): a finite code set C, a
//! state-dependent set of admitted queries, and an answer function. A query
//! partitions the remaining set M into answer classes.
//!
//! How a set of codes is stored is the game's choice ([`SearchProblem::Set`]):
//! Mastermind keeps sorted code lists; Beams keeps rows of (pattern, colouring
//! bits) and counts answers by popcount. The analysis only counts, splits and
//! measures sets through the trait.

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
    /// `penalised[p]`: (expected) number of codes of the set that pay exactly p
    /// points, p ≥ 1 (Σ p·penalised[p] = `penalty_total`); empty without penalties.
    /// Where the game must choose what to lay among equally good options, this
    /// is the first option (the LEX reading of a tie).
    pub penalised: Vec<super::Exact>,
    /// The same split with the option drawn uniformly among the equally good
    /// ones (the MIX reading of a tie); it must be invariant under the game's
    /// symmetries ([`SearchProblem::symmetry_classes`]), which MIX walks merge.
    /// Equal to `penalised` where there is no such choice.
    pub penalised_uniform: Vec<super::Exact>,
}

impl Terminal {
    /// The split of the penalty under `tie` (see [`Terminal::penalised`] and
    /// [`Terminal::penalised_uniform`]).
    pub fn penalised_under(&self, tie: super::strategy::TieBreak) -> &[super::Exact] {
        match tie {
            super::strategy::TieBreak::Lex => &self.penalised,
            super::strategy::TieBreak::Mix => &self.penalised_uniform,
        }
    }
}

/// A deduction game as the analysis sees it.
pub trait SearchProblem: Sync {
    /// Game state beyond the remaining set (e.g. Beams' used diagonals); `()` if none.
    type State: Clone + Eq + Hash + Send + Sync + std::fmt::Debug;
    /// A non-empty set of codes. Equal sets must compare equal (memo key).
    type Set: Clone + Eq + Hash + Send + Sync;

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
    /// All codes.
    fn full_set(&self) -> Self::Set;
    /// |M|.
    fn set_size(&self, set: &Self::Set) -> u64;
    /// Sets `counts[a]` (length `answer_count`) to the number of codes of `set`
    /// that give answer a to `query`. The hot path of every analysis.
    fn count_answers(&self, query: QueryId, set: &Self::Set, counts: &mut [u64]);
    /// [`Self::count_answers`] for several queries at once: the counts of
    /// `queries[i]` go to `counts[i·A .. (i+1)·A]` (A = `answer_count`). Games
    /// whose counting can share work between queries override this (Beams shares
    /// one pass over the set); the default counts query by query. `counts`
    /// arrives zeroed (every caller allocates or clears it).
    fn count_answers_batch(&self, queries: &[QueryId], set: &Self::Set, counts: &mut [u64]) {
        let a = self.answer_count();
        for (&q, out) in queries.iter().zip(counts.chunks_exact_mut(a)) {
            self.count_answers(q, set, out);
        }
    }
    /// The sizes of the non-empty answer classes of each query (any order within
    /// a query): `sizes[ends[i−1]..ends[i]]` for `queries[i]`. The default uses
    /// [`Self::count_answers_batch`]; games with a cheaper path for small sets
    /// override it.
    fn class_sizes_batch(&self, queries: &[QueryId], set: &Self::Set) -> ClassSizes {
        let a = self.answer_count();
        let mut counts = vec![0u64; queries.len() * a];
        self.count_answers_batch(queries, set, &mut counts);
        let mut out = ClassSizes::default();
        for chunk in counts.chunks_exact(a) {
            out.push(chunk.iter().copied().filter(|&c| c > 0));
        }
        out
    }
    /// The codes of `set` that give `answer` to `query`. The default splits and
    /// keeps one class; games override it with a one-pass filter.
    fn restrict(&self, query: QueryId, answer: AnswerId, set: &Self::Set) -> Self::Set {
        self.split(query, set).into_iter().find(|(a, _)| *a == answer).map(|(_, s)| s).expect("a possible answer")
    }
    /// What the game costs `secret` once the strategy stops at the terminal set
    /// `set` (which holds it): (further queries, penalty points). The default
    /// spreads [`Self::terminal`] evenly; games with a laid code override it.
    fn terminal_for(&self, set: &Self::Set, _secret: CodeId) -> (u32, u64) {
        let t = self.terminal(set);
        let share = t.penalty_total / super::Exact::from_integer(self.set_size(set).into());
        (t.queries_per_code, share.round().to_integer().try_into().unwrap_or(0))
    }
    /// The non-empty answer classes of `set` under `query`, by answer.
    fn split(&self, query: QueryId, set: &Self::Set) -> Vec<(AnswerId, Self::Set)>;
    /// Whether, at every node below this one, no admissible query makes more
    /// answer classes than some admissible query makes here (true when later
    /// queries are, up to the game's symmetries, among the current ones and
    /// sets only shrink). The perfect search then bounds each subtree with its
    /// parent's branching instead of the root's. Default: false (safe).
    fn narrowing_queries(&self) -> bool {
        false
    }
    /// The admissible queries in `state`, in canonical order. Default: every
    /// query filtered by [`Self::is_admissible`]; games may list them directly.
    fn admissible_queries(&self, state: &Self::State) -> Vec<QueryId> {
        (0..self.query_count() as QueryId).filter(|&q| self.is_admissible(state, q)).collect()
    }
    /// For a set of two codes: the first admissible query (canonical order)
    /// that tells them apart, if any. Games may override the default (which
    /// counts classes query by query) with a direct comparison.
    fn separating_query(&self, state: &Self::State, set: &Self::Set) -> Option<QueryId> {
        (0..self.query_count() as QueryId)
            .find(|&q| self.is_admissible(state, q) && self.class_sizes_batch(&[q], set).get(0).len() == 2)
    }
    /// The first of `queries` (in the order given) that splits `set` into
    /// singletons, if any. The default counts a few queries at a time; games
    /// may compare the codes' answers directly.
    fn first_finest_query(&self, queries: &[QueryId], set: &Self::Set) -> Option<QueryId> {
        let n = self.set_size(set) as usize;
        queries.chunks(8).find_map(|chunk| {
            let sizes = self.class_sizes_batch(chunk, set);
            (0..chunk.len()).find(|&i| sizes.get(i).len() == n).map(|i| chunk[i])
        })
    }
    /// Whether any query has a solving answer (see [`Self::solving_answer`]).
    /// Without them every node of two codes costs the same after any query that
    /// separates them, which the analysis uses as a shortcut.
    fn has_solving_answers(&self) -> bool {
        true
    }
    /// The answer after which the game is over because the query *was* the
    /// secret (Mastermind's (p,0)); `None` if the game has no such answer.
    fn solving_answer(&self, query: QueryId) -> Option<AnswerId>;
    /// Whether `query` names a code of `set` (for the "possible secrets first"
    /// tie preference of games whose queries are codes).
    fn is_possible_secret(&self, _query: QueryId, _set: &Self::Set) -> bool {
        false
    }
    /// The admissible queries in `state` that are possible secrets of `set`
    /// ([`Self::is_possible_secret`]), in canonical order. Games whose
    /// queries are the codes themselves may list them from the set directly.
    fn possible_secret_queries(&self, state: &Self::State, set: &Self::Set) -> Vec<QueryId> {
        self.admissible_queries(state).into_iter().filter(|&q| self.is_possible_secret(q, set)).collect()
    }
    /// Cost of stopping with `set`: at |M| = 1, or when no admissible query splits M.
    fn terminal(&self, set: &Self::Set) -> Terminal;
    /// A δ such that stopping at any set of k ≥ 2 codes costs at least
    /// (k − 1)·δ (queries and penalty, [`Self::terminal`]). The perfect
    /// search's bound for games without a solving answer rests on it
    /// ([`grouped_huffman_totals`](super::bounds::grouped_huffman_totals)).
    /// Default 0, which is always true.
    fn terminal_floor(&self) -> u64 {
        0
    }
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
    /// The codes of `set` as a short key for the MIX memo, when that is
    /// smaller than the set itself (e.g. sparse bit rows). The choice must
    /// depend on the set's contents only, so that equal sets get equal keys.
    /// Default: `None` (the set is its own key).
    fn code_list_key(&self, _set: &Self::Set) -> Option<Box<[CodeId]>> {
        None
    }
    /// The reduced state ([`Self::reduced_state`]) and a MIX memo key under
    /// which nodes with equal keys and equal reduced states have equal
    /// subtrees (outcomes) even when their codes differ — the part of the set
    /// that can still matter. The key must depend on the set's contents and
    /// the state only. Beams: the colours of the cells that vary within the
    /// set, code by code in set order, the asked colours renamed in order of
    /// appearance. Default: `None` (no such key).
    fn residual_key(&self, _state: &Self::State, _set: &Self::Set) -> Option<(Self::State, Box<[u8]>)> {
        None
    }
    /// About how many heap bytes `set` occupies (memo budgets). Default: 4 per code.
    fn set_bytes(&self, set: &Self::Set) -> usize {
        4 * self.set_size(set) as usize
    }
    /// `state` with what cannot matter below (`state`, `set`) normalised. For
    /// every H_α strategy and tie rule the subtrees at (`state`, `set`) and at
    /// (reduced state, `set`) must be equal, and reducing at a subset of `set`
    /// must give the same whether or not the state was reduced before. The
    /// analysis keys its MIX memo and its tie grouping by the reduced state, so
    /// nodes that differ only in what cannot matter are expanded once.
    /// Default: `state` itself.
    fn reduced_state(&self, state: &Self::State, _set: &Self::Set) -> Self::State {
        state.clone()
    }
    /// Human-readable query, e.g. `AABC`.
    fn query_label(&self, query: QueryId) -> String;
    /// `weighted` (weight, query) pairs merged by the symmetries of the game
    /// that fix `state` and map `set` onto itself: one pair per orbit, its
    /// smallest query with the orbit's summed weight, in query order. Queries of
    /// one orbit have equal subtrees under every H_α strategy with MIX (and
    /// equal values under perfect play). `weighted` must be closed under those
    /// symmetries (admissible queries, or the tied ones). Default: no symmetry.
    fn symmetry_classes(
        &self,
        _state: &Self::State,
        _set: &Self::Set,
        weighted: &[(u64, QueryId)],
    ) -> Vec<(u64, QueryId)> {
        weighted.to_vec()
    }
    /// The smallest query of each orbit of `candidates` ([`Self::symmetry_classes`]).
    fn distinct_up_to_symmetry(&self, state: &Self::State, set: &Self::Set, candidates: Vec<QueryId>) -> Vec<QueryId> {
        let weighted: Vec<(u64, QueryId)> = candidates.into_iter().map(|q| (1, q)).collect();
        self.symmetry_classes(state, set, &weighted).into_iter().map(|(_, q)| q).collect()
    }
}

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

/// Class sizes of several queries, flattened (see [`SearchProblem::class_sizes_batch`]).
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
    use std::collections::BTreeMap;

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

    /// Splits a code list by answer (codes stay in order).
    pub fn split(
        answer: impl Fn(QueryId, CodeId) -> AnswerId,
        query: QueryId,
        set: &[CodeId],
    ) -> Vec<(AnswerId, Vec<CodeId>)> {
        let mut classes: BTreeMap<AnswerId, Vec<CodeId>> = BTreeMap::new();
        for &code in set {
            classes.entry(answer(query, code)).or_default().push(code);
        }
        classes.into_iter().collect()
    }
}
