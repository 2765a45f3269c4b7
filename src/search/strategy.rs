//! The H_α strategy (thesis §4.2.4): at every node ask a sensible query of
//! maximal Rényi entropy; ties are broken by a [`TieRule`].

use super::problem::{ClassSizes, QueryId, SearchProblem, Terminal};
use crate::renyi::alpha::Alpha;
use crate::renyi::score::{Key, RenyiScore, contenders};
use rayon::prelude::*;
use serde::Serialize;
use std::cmp::Ordering;
use std::fmt;

/// How a choice among queries of equal H_α is made (thesis §4.3, "LEX" and "MIX").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum TieBreak {
    /// The first tied query in the game's canonical order.
    Lex,
    /// Uniformly at random among the tied queries, analysed exactly as the mean.
    Mix,
}

impl Terminal {
    /// The split of the penalty under `tie` (see [`Terminal::penalised`] and
    /// [`Terminal::penalised_uniform`]).
    pub fn penalised_under(&self, tie: TieBreak) -> &[super::Exact] {
        match tie {
            TieBreak::Lex => &self.penalised,
            TieBreak::Mix => &self.penalised_uniform,
        }
    }
}

/// A tie rule. The defaults are the conventions that reproduce thesis Table 4.5
/// (../shared/reference/seed002-ch4.md §2.4): possible secrets first, for LEX and MIX alike.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TieRule {
    pub kind: TieBreak,
    /// Restrict the tied queries to those that are still possible secrets when
    /// there are any (games whose queries are codes).
    pub possible_secrets_first: bool,
    /// MIX only: at the root, choose uniformly among the *symmetry classes* of the
    /// tied queries instead of among the queries (thesis' H_0-MIX on MM-1296).
    pub root_by_class: bool,
}

impl TieRule {
    pub fn lex() -> TieRule {
        TieRule { kind: TieBreak::Lex, possible_secrets_first: true, root_by_class: false }
    }

    pub fn mix() -> TieRule {
        TieRule { kind: TieBreak::Mix, possible_secrets_first: true, root_by_class: false }
    }

    /// MIX with the root averaged over symmetry classes.
    pub fn mix_by_root_class() -> TieRule {
        TieRule { root_by_class: true, ..TieRule::mix() }
    }
}

impl fmt::Display for TieRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let base = match self.kind {
            TieBreak::Lex => "LEX",
            TieBreak::Mix => "MIX",
        };
        write!(f, "{base}")?;
        let mut notes = Vec::new();
        if !self.possible_secrets_first {
            notes.push("all tied queries alike");
        }
        if self.root_by_class && self.kind == TieBreak::Mix {
            notes.push("root uniform over symmetry classes");
        }
        if !notes.is_empty() {
            write!(f, " ({})", notes.join("; "))?;
        }
        Ok(())
    }
}

/// An H_α strategy: a Rényi order and a tie rule.
#[derive(Clone, Copy, Debug)]
pub struct Strategy {
    pub score: RenyiScore,
    pub tie: TieRule,
}

impl Strategy {
    pub fn new(alpha: Alpha, tie: TieRule) -> Strategy {
        Strategy { score: RenyiScore::new(alpha), tie }
    }
}

/// The queries the strategy plays at a node (canonical order, with MIX
/// weights; exactly one for LEX, none if no query splits the set): the exact
/// maxima of H_α ([`best_queries`]) under the tie rule ([`chosen_queries`]).
pub fn decide<P: SearchProblem>(
    problem: &P,
    strategy: &Strategy,
    state: &P::State,
    set: &P::Set,
) -> Vec<(u64, QueryId)> {
    decide_sized(problem, strategy, state, set).chosen
}

/// A decision of the strategy with the class sizes of its (tied) best partition.
pub struct Decision {
    /// As [`decide`] returns it.
    pub chosen: Vec<(u64, QueryId)>,
    /// The non-zero class sizes every chosen query makes (any order; the tied
    /// partitions share their multiset of sizes only up to exact H_α equality,
    /// so this is the first tied query's); empty if nothing is chosen.
    pub best_sizes: Vec<u64>,
}

/// [`decide`] that also reports the class sizes of the best partition.
pub fn decide_sized<P: SearchProblem>(problem: &P, strategy: &Strategy, state: &P::State, set: &P::Set) -> Decision {
    decide_among(problem, strategy, state, set, &problem.admissible_queries(state))
}

/// [`decide_sized`] among the admissible `queries` (canonical order).
fn decide_among<P: SearchProblem>(
    problem: &P,
    strategy: &Strategy,
    state: &P::State,
    set: &P::Set,
    queries: &[QueryId],
) -> Decision {
    let (ties, best_sizes) = best_among(problem, &strategy.score, set, queries);
    Decision { chosen: chosen_queries(problem, &strategy.tie, state, set, &ties), best_sizes }
}

/// Largest set scanned for a query that splits it into singletons
/// ([`decide_finest_first`]).
const FINEST_SCAN_MAX: u64 = 64;

/// [`decide_sized`] for the exact tree walk, which needs only one query when
/// some admissible query splits M into singletons. That partition is the
/// unique maximum of H_α for every α (H_α is Schur-concave and {1,…,1} is
/// majorised by every partition of |M|), so the first such query in canonical
/// order is LEX's choice, and under MIX every tied query leads to the same
/// singleton leaves in a game without solving answers. Small sets are scanned
/// in canonical order and the scan stops at that query; everything else is
/// decided as by [`decide_sized`].
pub fn decide_finest_first<P: SearchProblem>(
    problem: &P,
    strategy: &Strategy,
    state: &P::State,
    set: &P::Set,
) -> Decision {
    let n = problem.set_size(set);
    let queries = problem.admissible_queries(state);
    if (2..=FINEST_SCAN_MAX).contains(&n)
        && finest_first_is_exact(problem, &strategy.tie, set, &queries)
        && let Some(q) = problem.first_finest_query(&queries, set)
    {
        return Decision { chosen: vec![(problem.multiplicity(state, q), q)], best_sizes: vec![1; n as usize] };
    }
    decide_among(problem, strategy, state, set, &queries)
}

/// Whether the first finest query stands for the tie rule's whole choice: LEX
/// with no possible secret among the queries to prefer, or MIX in a game
/// without solving answers. (A query can only be a possible secret in a game
/// with solving answers — asking the secret solves it — so games with them,
/// like Mastermind, take the full decision without checking every query.)
pub(crate) fn finest_first_is_exact<P: SearchProblem>(
    problem: &P,
    rule: &TieRule,
    set: &P::Set,
    queries: &[QueryId],
) -> bool {
    match rule.kind {
        TieBreak::Lex if problem.has_solving_answers() => !rule.possible_secrets_first,
        TieBreak::Lex => !rule.possible_secrets_first || !queries.iter().any(|&q| problem.is_possible_secret(q, set)),
        TieBreak::Mix => !problem.has_solving_answers(),
    }
}

/// The non-zero class sizes of the partition of `set` by `query`;
/// `counts` is scratch space of length `answer_count`.
pub fn class_sizes<P: SearchProblem>(problem: &P, query: QueryId, set: &P::Set, counts: &mut [u64]) -> Vec<u64> {
    problem.count_answers(query, set, counts);
    counts.iter().copied().filter(|&c| c > 0).collect()
}

/// Minimum |M|·|Q| for which scoring the queries is spread over threads.
const PARALLEL_WORK: usize = 1 << 15;

/// All sensible admissible queries of maximal H_α at this node, in canonical
/// order. A query is sensible if it splits `set` into at least two classes
/// (thesis Satz 4.2, Q*). The maximum and the tie set are exact.
pub fn best_queries<P: SearchProblem>(problem: &P, score: &RenyiScore, state: &P::State, set: &P::Set) -> Vec<QueryId> {
    best_among(problem, score, set, &problem.admissible_queries(state)).0
}

/// The maxima among `queries` (as [`best_queries`]) with the class sizes of the first of them.
fn best_among<P: SearchProblem>(
    problem: &P,
    score: &RenyiScore,
    set: &P::Set,
    queries: &[QueryId],
) -> (Vec<QueryId>, Vec<u64>) {
    let n = problem.set_size(set);
    let sizes = batch_class_sizes(problem, queries, set);
    let sensible: Vec<usize> = (0..sizes.len()).filter(|&i| sizes.get(i).iter().all(|&x| x < n)).collect();
    let keys: Vec<Key> = sensible.iter().map(|&i| score.key(sizes.get(i))).collect();
    // Every query not among the contenders is certainly below one that is.
    let band: Vec<(QueryId, Vec<u64>)> =
        contenders(&keys).into_iter().map(|j| (queries[sensible[j]], sizes.get(sensible[j]).to_vec())).collect();
    exact_maxima(score, band)
}

/// Whether a job of |M| codes × `queries` is worth splitting over threads.
fn parallel_job(set_size: u64, queries: usize) -> bool {
    set_size as usize * queries >= PARALLEL_WORK && rayon::current_num_threads() > 1 && queries > 1
}

/// Class sizes of all `queries` on `set`; large jobs are split into query
/// chunks counted in parallel.
pub fn batch_class_sizes<P: SearchProblem>(problem: &P, queries: &[QueryId], set: &P::Set) -> ClassSizes {
    if !parallel_job(problem.set_size(set), queries.len()) {
        return problem.class_sizes_batch(queries, set);
    }
    let chunk = queries.len().div_ceil(rayon::current_num_threads());
    let parts: Vec<ClassSizes> = queries.par_chunks(chunk).map(|qs| problem.class_sizes_batch(qs, set)).collect();
    let mut out = ClassSizes::default();
    parts.into_iter().for_each(|p| out.append(p));
    out
}

/// Answer counts of all `queries` on `set` (flattened, `answer_count` per
/// query); large jobs are split into query chunks counted in parallel.
pub fn batch_counts<P: SearchProblem>(problem: &P, queries: &[QueryId], set: &P::Set) -> Vec<u64> {
    let mut counts = Vec::new();
    batch_counts_into(problem, queries, set, &mut counts);
    counts
}

/// [`batch_counts`] into `counts` (resized; its allocation is reused).
pub fn batch_counts_into<P: SearchProblem>(problem: &P, queries: &[QueryId], set: &P::Set, counts: &mut Vec<u64>) {
    let a = problem.answer_count();
    counts.clear();
    counts.resize(queries.len() * a, 0);
    if parallel_job(problem.set_size(set), queries.len()) {
        let chunk = queries.len().div_ceil(rayon::current_num_threads());
        queries
            .par_chunks(chunk)
            .zip(counts.par_chunks_mut(chunk * a))
            .for_each(|(qs, out)| problem.count_answers_batch(qs, set, out));
    } else {
        problem.count_answers_batch(queries, set, counts);
    }
}

/// The members of `band` whose partitions are exactly maximal under `score`,
/// with the class sizes of the first of them.
fn exact_maxima(score: &RenyiScore, band: Vec<(QueryId, Vec<u64>)>) -> (Vec<QueryId>, Vec<u64>) {
    let mut best: Option<&Vec<u64>> = None;
    for (_, sizes) in &band {
        if best.is_none_or(|b| score.compare(sizes, b) == Ordering::Greater) {
            best = Some(sizes);
        }
    }
    let best = best.cloned().unwrap_or_default();
    let maxima: Vec<(QueryId, Vec<u64>)> =
        band.into_iter().filter(|(_, s)| score.compare(s, &best) == Ordering::Equal).collect();
    let first_sizes = maxima.first().map(|m| m.1.clone()).unwrap_or_default();
    (maxima.into_iter().map(|(q, _)| q).collect(), first_sizes)
}

/// The queries the tie rule plays among `ties` (canonical order), each with its
/// MIX weight. LEX returns exactly one.
pub fn chosen_queries<P: SearchProblem>(
    problem: &P,
    rule: &TieRule,
    state: &P::State,
    set: &P::Set,
    ties: &[QueryId],
) -> Vec<(u64, QueryId)> {
    let is_possible_secret = |q: &QueryId| problem.is_possible_secret(*q, set);
    let preferred: Vec<QueryId> = if rule.possible_secrets_first {
        ties.iter().copied().filter(is_possible_secret).collect()
    } else {
        Vec::new()
    };
    let pool = if preferred.is_empty() { ties } else { &preferred[..] };
    match rule.kind {
        TieBreak::Lex => pool.first().map(|&q| vec![(1, q)]).unwrap_or_default(),
        TieBreak::Mix => pool.iter().map(|&q| (problem.multiplicity(state, q), q)).collect(),
    }
}
