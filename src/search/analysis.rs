//! Exact analysis of an H_α strategy over every secret code (thesis §4.3–4.4):
//! the strategy tree is expanded completely and every code's number of queries
//! is counted exactly; MIX nodes are the exact mean over the tied queries.
//!
//! Totals follow T(M) = |M| + Σ_{answers a not solving} T(M_a) at an inner node
//! and the game's [`Terminal`](super::problem::Terminal) cost at a leaf.

use super::leaf;
use super::memo::Memo;
use super::outcome::{Exact, Outcome, exact_f64, exact_string};
use super::problem::{AnswerId, CodeId, QueryId, Rules, SearchProblem};
use super::strategy::{Strategy, TieBreak, decide, decide_finest_first};
use crate::progress::Progress;
use crate::renyi::alpha::Alpha;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

/// The result of an exact analysis, ready to be written as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct Analysis {
    pub problem: String,
    pub alpha: Alpha,
    pub tie_rule: String,
    pub codes: u64,
    /// Exact total number of queries (plus penalty points) over all codes.
    pub total: String,
    pub total_decimal: f64,
    pub mean: f64,
    pub max_depth: usize,
    /// `depth_histogram[d]`: (expected) number of codes solved with d queries, exact.
    pub depth_histogram: Vec<String>,
    pub penalty_total: String,
    /// `penalty_histogram[p]`: (expected) number of codes that paid exactly p
    /// penalty points (p ≥ 1; index 0 unused), exact.
    pub penalty_histogram: Vec<String>,
    /// The first queries the strategy may ask (one for LEX).
    pub first_queries: Vec<String>,
    /// Strategy-tree nodes whose decision was computed.
    pub nodes_evaluated: u64,
    /// Always 0: no decision is taken from floating point since issue 48
    /// ([`crate::renyi::score`]); kept so that committed results files keep their layout.
    pub float_decided_near_ties: u64,
    pub seconds: f64,
    #[serde(skip)]
    pub outcome: Outcome,
}

impl Analysis {
    /// The exact total as a rational.
    pub fn exact_total(&self) -> Exact {
        self.outcome.total()
    }
}

/// Options of an analysis run that do not change its result.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Where progress is reported (root subtrees done; nodes evaluated in a
    /// work unit's subtree).
    pub progress: Progress,
    /// Sets of at least this many bytes are expanded one class at a time
    /// (default [`LARGE_SET_BYTES`]; tests lower it to exercise that path).
    pub large_set_bytes: usize,
    /// Treat nodes the game declares equivalent as one: key them by reduced
    /// state ([`SearchProblem::reduced_state`]) and residual key
    /// ([`SearchProblem::residual_key`]), and expand tied queries that a
    /// symmetry of the node maps onto each other once
    /// ([`SearchProblem::symmetry_classes`]). Default on; tests and `--recheck
    /// --no-merge` turn it off to check that it changes nothing.
    pub merge_equivalent: bool,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions { progress: Progress::none(), large_set_bytes: LARGE_SET_BYTES, merge_equivalent: true }
    }
}

impl RunOptions {
    /// The default options, reporting to `progress`.
    pub fn with_progress(progress: Progress) -> Self {
        RunOptions { progress, ..RunOptions::default() }
    }
}

/// A memo key: the node's (reduced) state and its set's key.
type MemoKey<P> = (<P as Rules>::State, SetKey<<P as Rules>::Set>);
/// Outcomes of already expanded subtrees, keyed by (state, candidate set).
type OutcomeMemo<P> = Memo<MemoKey<P>, Arc<Outcome>>;

/// Expands the strategy tree of one problem and strategy.
struct TreeWalker<'a, P: SearchProblem> {
    problem: &'a P,
    strategy: Strategy,
    memo: OutcomeMemo<P>,
    nodes: AtomicU64,
    /// See [`RunOptions::large_set_bytes`].
    large_set_bytes: usize,
    /// See [`RunOptions::merge_equivalent`].
    merge_equivalent: bool,
}

/// A memo key's set: the set itself, or its codes listed when the game finds
/// that shorter ([`SearchProblem::code_list_key`]; which form a set takes
/// depends on its contents only, so equal sets have equal keys).
#[derive(Clone, PartialEq, Eq, Hash)]
enum SetKey<S> {
    Set(S),
    Codes(Box<[CodeId]>),
    Residual(Box<[u8]>),
}

/// The memo of a walker: in use for MIX only (see [`Memo`]).
fn mix_memo<K: Eq + std::hash::Hash>(strategy: &Strategy) -> Memo<K, Arc<Outcome>> {
    Memo::new(strategy.tie.kind == TieBreak::Mix)
}

/// Sets of at most this many codes compare their tied queries' partitions
/// before expanding them ([`TreeWalker::mean_over_distinct`]); larger sets
/// rarely repeat a partition, and holding all their splits would cost memory.
pub(crate) const DISTINCT_TIES_SET: u64 = 4096;

/// Minimum set size for which the children of a node are expanded in parallel.
const PARALLEL_SET: u64 = 48;

/// Sets of at least this many bytes ([`SearchProblem::set_bytes`]) are
/// expanded one answer class and one tied query at a time, each class cut out
/// by [`SearchProblem::restrict`] when it is needed; the threads then share the
/// work inside each node (query scoring, filtering rows). Memory: a full split
/// holds up to one copy of the parent's rows per answer, and parallel siblings
/// (with rayon's work stealing) each hold theirs — on Beams(6c,6p) MIX that
/// was about 6 GB of live code sets. One class at a time keeps the path's sets
/// at most the parent's size per level.
pub(crate) const LARGE_SET_BYTES: usize = 16 << 20;

/// Whether `set` is expanded one class at a time: it holds at least `limit`
/// bytes (usually [`LARGE_SET_BYTES`]).
pub(crate) fn is_large_set<P: SearchProblem>(problem: &P, set: &P::Set, limit: usize) -> bool {
    problem.set_bytes(set) >= limit
}

impl<'a, P: SearchProblem> TreeWalker<'a, P> {
    fn new(problem: &'a P, strategy: Strategy, options: &RunOptions) -> Self {
        let (large_set_bytes, merge_equivalent) = (options.large_set_bytes, options.merge_equivalent);
        TreeWalker {
            problem,
            strategy,
            memo: mix_memo(&strategy),
            nodes: AtomicU64::new(0),
            large_set_bytes,
            merge_equivalent,
        }
    }

    /// The state in which (`state`, `set`) is looked up and decided.
    fn reduced(&self, state: &P::State, set: &P::Set) -> P::State {
        if self.merge_equivalent { self.problem.reduced_state(state, set) } else { state.clone() }
    }

    /// The outcome of the strategy on `set` in `state`.
    fn node(&self, state: &P::State, set: &P::Set) -> Arc<Outcome> {
        if self.problem.set_size(set) == 1 {
            return Arc::new(self.terminal(set));
        }
        if self.problem.set_size(set) == 2 && !self.problem.has_solving_answers() {
            self.nodes.fetch_add(1, Ordering::Relaxed);
            return Arc::new(self.pair(state, set));
        }
        let (state, key) = self.keyed(state, set);
        let state = &state;
        if let Some(hit) = key.as_ref().and_then(|k| self.memo.get(k)) {
            return hit;
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let decision = decide_finest_first(self.problem, &self.strategy, state, set);
        let mut chosen = &decision.chosen[..];
        // Queries that split M into singletons all lead to the same classes,
        // which end at once (no state matters): one of them stands for all.
        if decision.best_sizes.len() as u64 == self.problem.set_size(set) && !self.problem.has_solving_answers() {
            chosen = &chosen[..chosen.len().min(1)];
        }
        let outcome = Arc::new(if chosen.is_empty() { self.terminal(set) } else { self.mean_over(state, set, chosen) });
        if let Some(key) = key {
            let bytes = match &key.1 {
                SetKey::Set(set) => self.problem.set_bytes(set),
                SetKey::Codes(codes) => 4 * codes.len(),
                SetKey::Residual(bytes) => bytes.len(),
            };
            self.memo.insert(key, outcome.clone(), (bytes + outcome.heap_bytes()) as u64 + 64);
        }
        outcome
    }

    /// The state in which the node is decided and its memo key. With the
    /// memo off (LEX) the state is kept as it is: reducing it would only spare
    /// scoring a few queries that split nothing, which costs more than it saves
    /// (benchmark unit [3,1] H_1-LEX: 42 s kept, 46 s reduced).
    fn keyed(&self, state: &P::State, set: &P::Set) -> (P::State, Option<MemoKey<P>>) {
        if !self.memo.is_active() {
            return (state.clone(), None);
        }
        if self.merge_equivalent
            && let Some((reduced, residual)) = self.problem.residual_key(state, set)
        {
            return (reduced.clone(), Some((reduced, SetKey::Residual(residual))));
        }
        let reduced = self.reduced(state, set);
        let set_key = match self.problem.code_list_key(set) {
            Some(codes) => SetKey::Codes(codes),
            None => SetKey::Set(set.clone()),
        };
        (reduced.clone(), Some((reduced, set_key)))
    }

    /// A node of two codes in a game without solving answers: every query that
    /// separates them is maximal for every α and leads to the same two leaves,
    /// so the first one found decides the node for LEX and MIX alike.
    fn pair(&self, state: &P::State, set: &P::Set) -> Outcome {
        match self.problem.separating_query(state, set) {
            Some(q) => self.after_query(state, set, q),
            None => self.terminal(set),
        }
    }

    /// The leaf where the strategy stops at `set` ([`leaf::stopped`]).
    fn terminal(&self, set: &P::Set) -> Outcome {
        leaf::stopped(self.problem, set, self.strategy.tie.kind)
    }

    /// Exact weighted mean of the outcomes after each chosen query.
    fn mean_over(&self, state: &P::State, set: &P::Set, chosen: &[(u64, QueryId)]) -> Outcome {
        // Tied queries that a symmetry of the node maps onto each other have
        // equal subtrees: one per orbit, with the orbit's weight.
        let merged;
        let chosen = if chosen.len() > 1 && self.merge_equivalent {
            merged = self.problem.symmetry_classes(state, set, chosen);
            &merged[..]
        } else {
            chosen
        };
        if chosen.len() > 1 && self.problem.set_size(set) <= DISTINCT_TIES_SET {
            return self.mean_over_distinct(state, set, chosen);
        }
        let parallel = chosen.len() > 1 && self.problem.set_size(set) >= PARALLEL_SET && !self.is_large(set);
        let parts: Vec<(u64, Arc<Outcome>)> = if parallel {
            chosen.par_iter().map(|&(w, q)| (w, Arc::new(self.after_query(state, set, q)))).collect()
        } else {
            chosen.iter().map(|&(w, q)| (w, Arc::new(self.after_query(state, set, q)))).collect()
        };
        single_or_mean(parts)
    }

    /// [`Self::mean_over`] for small sets: tied queries whose answer classes
    /// are the same (the same solving class included), each reached in the same
    /// reduced state ([`SearchProblem::reduced_state`]), have equal subtrees, so
    /// each distinct group is expanded once with the summed weight. (Beams(6c,6p)
    /// H_2-MIX: about a third of the tied queries of sets below 16 codes repeat
    /// another's partition and state.)
    fn mean_over_distinct(&self, state: &P::State, set: &P::Set, chosen: &[(u64, QueryId)]) -> Outcome {
        let mut groups: Vec<(u64, Vec<Branch<P>>)> = Vec::with_capacity(chosen.len());
        for &(w, q) in chosen {
            let next = self.problem.next_state(state, q);
            let branches: Vec<Branch<P>> = self
                .marked_split(q, set)
                .into_iter()
                .map(|(solving, class)| {
                    let reached = if solving { next.clone() } else { self.reduced(&next, &class) };
                    (solving, class, reached)
                })
                .collect();
            match groups.iter_mut().find(|g| same_branches::<P>(&g.1, &branches)) {
                Some(group) => group.0 += w,
                None => groups.push((w, branches)),
            }
        }
        let parallel = self.problem.set_size(set) >= PARALLEL_SET;
        single_or_mean(groups.iter().map(|(w, branches)| (*w, Arc::new(self.expand(branches, parallel)))).collect())
    }

    /// The answer classes of `query` on `set`, each marked whether its answer solves.
    fn marked_split(&self, query: QueryId, set: &P::Set) -> Vec<(bool, P::Set)> {
        let solving = self.problem.solving_answer(query);
        self.problem.split(query, set).into_iter().map(|(a, class)| (Some(a) == solving, class)).collect()
    }

    /// The answer classes of `query` on `set` as branches reaching `next`.
    fn branches(&self, query: QueryId, set: &P::Set, next: &P::State) -> Vec<Branch<P>> {
        self.marked_split(query, set).into_iter().map(|(solving, class)| (solving, class, next.clone())).collect()
    }

    /// The outcome of asking `query` at this node: every code pays the query;
    /// the solving class is done, every other class continues.
    fn after_query(&self, state: &P::State, set: &P::Set, query: QueryId) -> Outcome {
        let next = self.problem.next_state(state, query);
        if !self.is_large(set) {
            return self.expand(&self.branches(query, set, &next), self.problem.set_size(set) >= PARALLEL_SET);
        }
        let solving = self.problem.solving_answer(query);
        let mut out = Outcome::empty();
        for answer in self.possible_answers(query, set) {
            let branch = (Some(answer) == solving, self.problem.restrict(query, answer, set), next.clone());
            out.add_shifted(&self.child(&branch), 1);
        }
        out
    }

    /// The outcome below a query with answer classes `branches`.
    fn expand(&self, branches: &[Branch<P>], parallel: bool) -> Outcome {
        let child = |branch: &Branch<P>| self.child(branch);
        let children: Vec<Arc<Outcome>> =
            if parallel { branches.par_iter().map(child).collect() } else { branches.iter().map(child).collect() };
        Outcome::sum_shifted(children.iter().map(|c| &**c), 1)
    }

    /// One answer class below a query.
    fn child(&self, (solving, class, next): &Branch<P>) -> Arc<Outcome> {
        if *solving { Arc::new(leaf::solved(self.problem.set_size(class))) } else { self.node(next, class) }
    }

    fn is_large(&self, set: &P::Set) -> bool {
        is_large_set(self.problem, set, self.large_set_bytes)
    }

    /// The answers that some code of `set` gives to `query`, in order.
    fn possible_answers(&self, query: QueryId, set: &P::Set) -> Vec<AnswerId> {
        let mut counts = vec![0u64; self.problem.answer_count()];
        self.problem.count_answers(query, set, &mut counts);
        (0..counts.len()).filter(|&a| counts[a] > 0).map(|a| a as AnswerId).collect()
    }
}

/// One answer class below a query: whether its answer solves, its codes, and
/// the state in which the game goes on there.
type Branch<P> = (bool, <P as Rules>::Set, <P as Rules>::State);

/// Whether two partitions of one set have the same classes, each with the same
/// state (classes of a partition are disjoint and non-empty, hence distinct).
fn same_branches<P: SearchProblem>(a: &[Branch<P>], b: &[Branch<P>]) -> bool {
    a.len() == b.len() && a.iter().all(|branch| b.contains(branch))
}

/// The one outcome of `parts`, or their exact weighted mean.
fn single_or_mean(parts: Vec<(u64, Arc<Outcome>)>) -> Outcome {
    if parts.len() == 1 {
        return Arc::try_unwrap(parts.into_iter().next().unwrap().1).unwrap_or_else(|a| (*a).clone());
    }
    Outcome::weighted_mean(&parts)
}

/// The exact outcome of `strategy` on the subtree at (`state`, `set`), as if
/// that node were the root of its own analysis (depths counted from it).
/// Used by [`super::units`] for work units below the first queries. With
/// an observer in `options.progress`, the status line counts the nodes
/// evaluated (a subtree's size is unknown before it is walked: no ETA).
pub(crate) fn subtree_outcome<P: SearchProblem>(
    problem: &P,
    strategy: Strategy,
    state: &P::State,
    set: &P::Set,
    options: &RunOptions,
) -> Outcome {
    let walker = TreeWalker::new(problem, strategy, options);
    let codes = problem.set_size(set);
    let walk = || Arc::try_unwrap(walker.node(state, set)).unwrap_or_else(|a| (*a).clone());
    if !options.progress.is_observed() {
        return walk();
    }
    with_node_count(&options.progress, &format!("subtree of {codes} codes:"), &walker.nodes, walk)
}

/// Runs `work` while the status line of `progress` shows `nodes`, the count
/// of nodes evaluated so far, every quarter second.
fn with_node_count<T>(progress: &Progress, label: &str, nodes: &AtomicU64, work: impl FnOnce() -> T) -> T {
    progress.begin(label, None);
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                progress.status(&format!("{label} {} nodes evaluated", nodes.load(Ordering::Relaxed)));
                std::thread::sleep(std::time::Duration::from_millis(250));
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    });
    progress.end();
    result
}

/// Runs the exact analysis of `strategy` on all codes of `problem`.
///
/// At the root, tied queries that are symmetric (equal
/// [`SearchProblem::root_class_key`]) are evaluated once: MIX weighs each class
/// by its number of queries, or uniformly with `root_by_class`.
pub fn analyze<P: SearchProblem>(problem: &P, strategy: Strategy, options: RunOptions) -> Analysis {
    let start = Instant::now();
    let walker = TreeWalker::new(problem, strategy, &options);
    walker.nodes.store(1, Ordering::Relaxed); // the root, decided here
    let state = problem.initial_state();
    let all = problem.full_set();
    let chosen = decide(problem, &strategy, &state, &all);
    let representatives = root_representatives(problem, &strategy, &chosen);
    options.progress.begin("root subtrees", Some(representatives.len() as u64));
    let outcome = if representatives.is_empty() {
        walker.terminal(&all)
    } else {
        let parts: Vec<(u64, Arc<Outcome>)> = representatives
            .iter()
            .map(|&(w, q)| {
                let o = Arc::new(walker.after_query(&state, &all, q));
                options.progress.advance(1);
                (w, o)
            })
            .collect();
        Outcome::weighted_mean(&parts)
    };
    options.progress.end();
    let total = outcome.total();
    let codes = problem.code_count() as u64;
    Analysis {
        problem: problem.name(),
        alpha: strategy.score.alpha(),
        tie_rule: strategy.tie.to_string(),
        codes,
        total: exact_string(&total),
        total_decimal: exact_f64(&total),
        mean: exact_f64(&total) / codes as f64,
        max_depth: outcome.max_depth(),
        depth_histogram: outcome.depth_counts().iter().map(exact_string).collect(),
        penalty_total: exact_string(&outcome.penalty()),
        penalty_histogram: outcome.penalised_strings(),
        first_queries: chosen.iter().map(|&(_, q)| problem.query_label(q)).collect(),
        nodes_evaluated: walker.nodes.load(Ordering::Relaxed),
        float_decided_near_ties: 0,
        seconds: start.elapsed().as_secs_f64(),
        outcome,
    }
}

/// One query per root symmetry class of `chosen`, with the class weight.
pub(crate) fn root_representatives<P: SearchProblem>(
    problem: &P,
    strategy: &Strategy,
    chosen: &[(u64, QueryId)],
) -> Vec<(u64, QueryId)> {
    if strategy.tie.kind == TieBreak::Lex {
        return chosen.to_vec();
    }
    let mut classes: BTreeMap<u64, (u64, QueryId)> = BTreeMap::new();
    for &(w, q) in chosen {
        let entry = classes.entry(problem.root_class_key(q)).or_insert((0, q));
        entry.0 += w;
    }
    let mut reps: Vec<(u64, QueryId)> = classes.into_values().collect();
    if strategy.tie.root_by_class {
        reps.iter_mut().for_each(|r| r.0 = 1);
    }
    reps.sort_by_key(|r| r.1);
    reps
}
