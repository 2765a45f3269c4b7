//! What a game may add beyond its [`Rules`]: faster paths and pruning facts
//! ([`SpeedHooks`]), symmetries ([`Symmetry`]), compact memo keys
//! ([`MemoKeys`]) and the "possible secrets first" tie preference
//! ([`TiePreference`]). Every method has a correct default, so a game
//! without a capability writes an empty `impl`; a [`Delegate`] gets all of
//! them from the game it stands for (see [`delegating_trait!`]).

use super::Exact;
use super::delegate::{Delegate, delegating_trait};
use super::problem::{AnswerId, ClassSizes, CodeId, QueryId, Rules, Terminal};

delegating_trait! {
    /// Faster paths and facts that let searches prune; each default is
    /// derived from the [`Rules`] and correct for every game.
    pub trait SpeedHooks: Rules;
    delegated where {
        D: Delegate + Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
    }
    required {}
    provided {
        /// [`Rules::count_answers`] for several queries at once: the counts of
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
        /// The answer of each of `queries` to each code of `set`, one byte an
        /// answer, appended to `out` query by query (`set_size` bytes each, the
        /// codes in the same order for every query), for counting the classes of
        /// small sets without a row of counters per query. `false` (nothing
        /// written) if the game has no such path or an answer id exceeds a byte:
        /// the default.
        fn answer_bytes(&self, _queries: &[QueryId], _set: &Self::Set, _out: &mut Vec<u8>) -> bool {
            false
        }
        /// The answers to each code of `set` (in the set's order) as rows indexed
        /// by query id, one byte an answer (`query_count` bytes each): row i holds
        /// every query's answer to the set's i-th code. For passes over all
        /// queries at once, a code at a time. `None` if the game keeps no such
        /// table or an answer id exceeds a byte: the default.
        fn answer_rows(&self, _set: &Self::Set) -> Option<Vec<&[u8]>> {
            None
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
        /// The codes of the full set that give `answer` to `query` (`None`: no
        /// code does): the first filter of a curve unit rebuilt from its trail
        /// (`curve::run::unit_list`). The default filters [`Rules::full_set`];
        /// Beams builds the class without the full set (406 MB for 6c6p).
        fn restrict_full(&self, query: QueryId, answer: AnswerId) -> Option<Self::Set> {
            let all = self.full_set();
            let mut counts = vec![0u64; self.answer_count()];
            self.count_answers(query, &all, &mut counts);
            (counts.get(usize::from(answer)).is_some_and(|&n| n > 0)).then(|| self.restrict(query, answer, &all))
        }
        /// The codes of the full set that give each `(query, answer)` of `trail`
        /// (`None`: no code does, or no step): a curve unit's set rebuilt from its
        /// trail. The default filters one query at a time ([`Self::restrict_full`],
        /// then [`Self::restrict`]); Beams filters its tables by every step in one
        /// pass, so no set larger than the unit's is made (shard 0 of a 6c6p run:
        /// 153 M codes, not the 940 M of the node above).
        fn restrict_full_trail(&self, trail: &[(QueryId, AnswerId)]) -> Option<Self::Set> {
            let (&(query, answer), rest) = trail.split_first()?;
            let mut set = self.restrict_full(query, answer)?;
            let mut counts = vec![0u64; self.answer_count()];
            for &(query, answer) in rest {
                counts.iter_mut().for_each(|n| *n = 0);
                self.count_answers(query, &set, &mut counts);
                if counts.get(usize::from(answer)).is_none_or(|&n| n == 0) {
                    return None;
                }
                set = self.restrict(query, answer, &set);
            }
            Some(set)
        }
        /// The set of all codes as the root's decision reads it: by its size and
        /// the answer counts of its queries only ([`Rules::set_size`],
        /// [`Rules::count_answers`], [`Self::count_answers_batch`],
        /// [`Self::class_sizes_batch`] give what they give on [`Rules::full_set`]),
        /// for the nodes one query below the root that a dealt curve shard lays
        /// its units on (`curve::walk::first_level`). Nothing else may be given
        /// it. The default is the full set; Beams gives a stand-in holding no
        /// code (6c6p: not its 406 MB), counted from its tables.
        fn counted_full_set(&self) -> Self::Set {
            self.full_set()
        }
        /// The class of `answer` to `query` on the set of all codes, of `codes`
        /// codes, as a listing one query below the root reads it: as
        /// [`Self::counted_full_set`], by its size and the answer counts of its
        /// queries only, never split, filtered or walked (`curve::walk::list_counted`:
        /// the decisions of a node one query below the root and the class sizes of
        /// its chosen query). `None` (the default): the game has no such stand-in,
        /// the class is made ([`Self::restrict_full`]). Beams counts it a stretch of
        /// patterns at a time (6c6p: not the 940 M-code class's rows).
        fn counted_class(&self, _query: QueryId, _answer: AnswerId, _codes: u64) -> Option<Self::Set> {
            None
        }
        /// What the game costs `secret` once the strategy stops at the terminal set
        /// `set` (which holds it): (further queries, penalty points). The default
        /// spreads [`Rules::terminal`] evenly; games with a laid code override it.
        fn terminal_for(&self, set: &Self::Set, _secret: CodeId) -> (u32, u64) {
            let t = self.terminal(set);
            let share = t.penalty_total / Exact::from_integer(self.set_size(set).into());
            (t.queries_per_code, share.round().to_integer().try_into().unwrap_or(0))
        }
        /// Whether, at every node below this one, no admissible query makes more
        /// answer classes than some admissible query makes here (true when later
        /// queries are, up to the game's symmetries, among the current ones and
        /// sets only shrink). The perfect search then bounds each subtree with its
        /// parent's branching instead of the root's. Default: false (safe).
        fn narrowing_queries(&self) -> bool {
            false
        }
        /// The admissible queries in `state`, in canonical order. Default: every
        /// query filtered by [`Rules::is_admissible`]; games may list them directly.
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
        /// Removes from `queries` (ascending, as [`Symmetry::distinct_up_to_symmetry`]
        /// lists them for `set`) queries that stand for an earlier one: a query q
        /// may be removed only if a smaller query r left in the list answers every
        /// code of `set` as q does up to a symmetry that maps `set` onto itself
        /// (so equal class sizes answer by answer, no solving class unless both
        /// have it, and equal totals below: the subtrees depend on the classes
        /// only). The perfect search then scores fewer queries at a node and picks
        /// the same one (ties go to the smaller query). Default: keeps all.
        fn drop_equivalent_queries(&self, _set: &Self::Set, _queries: &mut Vec<QueryId>) {}
        /// Whether any query has a solving answer (see [`Rules::solving_answer`]).
        /// Without them every node of two codes costs the same after any query that
        /// separates them, which the analysis uses as a shortcut.
        fn has_solving_answers(&self) -> bool {
            true
        }
        /// A δ such that stopping at any set of k ≥ 2 codes costs at least
        /// (k − 1)·δ (queries and penalty, [`Rules::terminal`]). The perfect
        /// search's bound for games without a solving answer rests on it
        /// ([`grouped_huffman_totals`](super::bounds::grouped_huffman_totals)).
        /// Default 0, which is always true.
        fn terminal_floor(&self) -> u64 {
            0
        }
        /// [`Rules::terminal`] of every set of one code, where it is the same for
        /// all codes: a curve walk then adds such leaves, and the nodes whose
        /// classes are all leaves, without making their sets. `None` (the
        /// default): it may depend on the code.
        fn one_code_terminal(&self) -> Option<Terminal> {
            None
        }
    }
    own {
        /// A smaller copy of the game holding what a walk below `set` reads, and
        /// `set` in its terms: every walk below the set gives the same values in
        /// both (a curve unit walks it, `curve::run::units`; Beams keeps the hit
        /// rows of the set's patterns only). `None` (the default, and for a
        /// delegate): the game itself is walked.
        fn narrowed(&self, set: &Self::Set) -> Option<(Self, Self::Set)> where Self: Sized {
            let _ = set;
            None
        }
    }
}

delegating_trait! {
    /// Symmetries of the game below the start ([`Rules::root_class_key`] is
    /// the one at the start) and interchangeable queries listed once.
    pub trait Symmetry: Rules;
    delegated where {
        D: Delegate + Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
    }
    required {}
    provided {
        /// How many queries `query` stands for in `state` when the problem lists only
        /// one of several interchangeable queries (for exact MIX weights); usually 1.
        fn multiplicity(&self, _state: &Self::State, _query: QueryId) -> u64 {
            1
        }
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
        fn distinct_up_to_symmetry(
            &self,
            state: &Self::State,
            set: &Self::Set,
            candidates: Vec<QueryId>,
        ) -> Vec<QueryId> {
            let weighted: Vec<(u64, QueryId)> = candidates.into_iter().map(|q| (1, q)).collect();
            self.symmetry_classes(state, set, &weighted).into_iter().map(|(_, q)| q).collect()
        }
    }
}

delegating_trait! {
    /// Keys and sizes the analysis memoises nodes by.
    pub trait MemoKeys: Rules;
    delegated where {
        D: Delegate + Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
    }
    required {}
    provided {
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
    }
}

delegating_trait! {
    /// The "possible secrets first" tie preference of games whose queries
    /// are codes.
    pub trait TiePreference: SpeedHooks;
    delegated where {
        D: Delegate + Rules<State = <<D as Delegate>::To as Rules>::State, Set = <<D as Delegate>::To as Rules>::Set>,
    }
    required {}
    provided {
        /// Whether `query` names a code of `set`. Default: false.
        fn is_possible_secret(&self, _query: QueryId, _set: &Self::Set) -> bool {
            false
        }
        /// The admissible queries in `state` that are possible secrets of `set`
        /// ([`Self::is_possible_secret`]), in canonical order. Games whose
        /// queries are the codes themselves may list them from the set directly.
        fn possible_secret_queries(&self, state: &Self::State, set: &Self::Set) -> Vec<QueryId> {
            self.admissible_queries(state).into_iter().filter(|&q| self.is_possible_secret(q, set)).collect()
        }
    }
}

/// The class sizes of one query read from its answer bytes (one byte an
/// answer, as [`SpeedHooks::answer_bytes`] writes them): the count of each
/// answer id (below 64) and the mask of the answers given. Counts are bytes,
/// so the callers keep their sets below 256 codes.
pub fn tally_answer_bytes(bytes: &[u8]) -> ([u8; 64], u64) {
    let mut counts = [0u8; 64];
    let seen = tally_answer_bytes_into(bytes, &mut counts);
    (counts, seen)
}

/// [`tally_answer_bytes`] into the caller's zeroed `counts`, returning the
/// mask. For hot loops: returned by value, the 64 counts were copied by a
/// wide load right after their byte-wise increments, which the processor
/// cannot forward from the pending stores (18 % of the perfect search's
/// candidate scoring on MM-1296, `perf annotate`).
#[inline]
pub fn tally_answer_bytes_into(bytes: &[u8], counts: &mut [u8; 64]) -> u64 {
    let mut seen = 0u64;
    for &answer in bytes {
        let answer = usize::from(answer & 63);
        counts[answer] += 1;
        seen |= 1 << answer;
    }
    seen
}
