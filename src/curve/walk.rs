//! The exact α-curve of the H_α strategy on a search problem: the strategy
//! tree is walked once per piece of α on which a node's decision is constant.
//!
//! `node(M, D)` returns the step function of the subtree total on the domain
//! D: the node's envelope cuts D into pieces; consecutive pieces with the same
//! chosen queries form one sub-domain, on which each chosen query's answer
//! classes are walked with that sub-domain; children's step functions add
//! (T(M) = |M| + Σ T(M_a), as in [`crate::search::analysis`]) and MIX takes
//! their exact weighted mean. A tie at a breakpoint extends the sub-domain of
//! the query the tie rule plays there, so values at breakpoints cost no
//! extra walk.

use super::point::Point;
pub(crate) use super::steps::covers;
use super::steps::{Domain, Span, Steps, coalesce, constant};
pub use super::steps::{domain_key, domain_text};
use super::verification::Verification;
use crate::renyi::alpha::Alpha;
use crate::search::analysis::root_representatives;
use crate::search::leaf;
use crate::search::memo::Memo;
use crate::search::outcome::{Exact, Outcome};
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use crate::search::strategy::{Strategy, TieBreak, TieRule};
use rayon::prelude::*;
use std::cmp::Ordering as PointOrdering;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

mod fixed;
mod listing;
mod mean;
mod unsplit;
use fixed::Fixed;
pub(crate) use listing::{FirstLevel, first_level, list_below};
use mean::mean_of;
use unsplit::Unsplit;

/// Minimum set size whose answer classes are walked in parallel.
const PARALLEL_SET: u64 = 48;
/// Largest set scanned for a query that splits it into singletons.
const FINEST_SCAN_MAX: u64 = 64;

/// One piece of a curve at the root.
#[derive(Clone, Debug)]
pub struct Segment {
    pub span: Span,
    pub outcome: Arc<Outcome>,
    /// The first queries the strategy may ask on this piece (one for LEX);
    /// shared by the pieces of one root decision (a curve may have millions).
    pub first_queries: Arc<[String]>,
}

impl Segment {
    pub fn total(&self) -> Exact {
        self.outcome.total()
    }
}

/// The exact curve of one problem and tie rule on a domain of α.
#[derive(Clone, Debug)]
pub struct Curve {
    pub problem: String,
    pub tie_rule: TieRule,
    pub codes: u64,
    pub domain: Domain,
    pub segments: Vec<Segment>,
    /// Nodes whose envelope was computed.
    pub nodes_evaluated: u64,
    /// Uncertified events of this walk alone (expected 0; see [`Verification`]).
    pub uncertified: u64,
    /// Always 0: no decision is taken from floating point since issue 48
    /// ([`crate::renyi::score`]); kept for the layout of committed curve files.
    pub float_decided_near_ties: u64,
    pub seconds: f64,
}

impl Curve {
    /// The segment holding the exact point α.
    pub fn at(&self, alpha: Alpha) -> Option<&Segment> {
        let p = Point::exact(alpha);
        // Segments are in order: skip by binary search those ending below α.
        // The first one left is Open(a, b) with a < α ≤ b (if b = α, α is in
        // the At(α) after it) or At(p) with p ≥ α: two candidates at most.
        let first = self.segments.partition_point(|s| s.span.end().order(&p) == PointOrdering::Less);
        self.segments[first..].iter().take(2).find(|s| s.span.holds(&p))
    }

    /// The segments of least total (the best α), in order.
    pub fn minima(&self) -> Vec<&Segment> {
        let Some(min) = self.segments.iter().map(|s| s.total()).min() else { return Vec::new() };
        self.segments.iter().filter(|s| s.total() == min).collect()
    }
}

/// Reports progress: (root pieces done, root pieces in all).
pub type ProgressFn<'a> = &'a (dyn Fn(usize, usize) + Sync);

/// The exact curve of the H_α strategy with tie rule `tie` on `domain`.
pub fn curve<P: SearchProblem>(problem: &P, tie: TieRule, domain: &Domain, progress: Option<ProgressFn>) -> Curve {
    walk_with_cut(problem, tie, domain, progress, None)
}

/// [`curve`], with the nodes `cut.levels` queries below the root handled as
/// work units (see [`super::run::units`]); without a cut the plain walk. The
/// curve's `uncertified` counts this walk's events only.
pub(crate) fn walk_with_cut<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    progress: Option<ProgressFn>,
    cut: Option<&Cut>,
) -> Curve {
    walk_counted(problem, tie, domain, progress, cut, &Verification::new())
}

/// [`walk_with_cut`] counting into `verification`, current on every thread
/// while it works for this walk (the caller may read it as the walk runs,
/// e.g. per finished unit); the curve's `uncertified` is its count at the end.
pub(crate) fn walk_counted<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    progress: Option<ProgressFn>,
    cut: Option<&Cut>,
    verification: &Verification,
) -> Curve {
    verification.within(|| walk_root(problem, tie, domain, progress, cut, verification))
}

/// [`walk_counted`] on the thread where its context is current.
fn walk_root<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    progress: Option<ProgressFn>,
    cut: Option<&Cut>,
    verification: &Verification,
) -> Curve {
    let start = Instant::now();
    let memo = Memo::new(tie.kind == TieBreak::Mix);
    let walker = Walker { problem, tie, nodes: AtomicU64::new(1), memo, cut, verification };
    let root_trail = cut.map(|_| String::new());
    let state = problem.initial_state();
    let all = problem.full_set();
    let (groups, known, _) = walker.decisions_known(&state, &all, 0, domain, Unsplit::NONE);
    let place = Place { trail: root_trail.as_deref(), known: known.as_deref().map_or(Unsplit::NONE, Unsplit::of) };
    let strategy = Strategy::new(Alpha::integer(1), tie);
    let done = AtomicU64::new(0);
    let mut segments = Vec::new();
    for (sub, chosen) in &groups {
        let labels: Arc<[String]> = chosen.iter().map(|&(_, q)| problem.query_label(q)).collect();
        let steps = if chosen.is_empty() {
            constant(sub, Arc::new(walker.terminal(&all)))
        } else {
            let reps = root_representatives(problem, &strategy, chosen);
            let parts: Vec<(u64, NodeSteps)> =
                reps.iter().map(|&(w, q)| (w, walker.after_query(&state, &all, q, 0, sub, place))).collect();
            mean_of(parts)
        };
        segments.extend(steps.into_iter().map(|(span, outcome)| Segment {
            span,
            outcome,
            first_queries: labels.clone(),
        }));
        let k = done.fetch_add(1, Ordering::Relaxed) as usize + 1;
        if let Some(report) = progress {
            report(k, groups.len());
        }
    }
    Curve {
        problem: problem.name(),
        tie_rule: tie,
        codes: problem.code_count() as u64,
        domain: domain.clone(),
        segments: coalesce_segments(segments),
        nodes_evaluated: walker.nodes.load(Ordering::Relaxed),
        uncertified: verification.uncertified(),
        float_decided_near_ties: 0,
        seconds: start.elapsed().as_secs_f64(),
    }
}

/// The step function of the unit at (`state`, `set`), `depth` queries below
/// the root, on its sub-domain `domain`: what a walk cut at `depth` would
/// compute there, without walking the levels above it (a shard rebuilds its
/// units from their trails, [`super::run::unit_list`]).
pub(crate) fn unit_steps_at<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    (state, set): (&P::State, &P::Set),
    depth: usize,
    domain: &Domain,
    verification: &Verification,
) -> NodeSteps {
    let memo = Memo::new(tie.kind == TieBreak::Mix);
    let walker = Walker { problem, tie, nodes: AtomicU64::new(1), memo, cut: None, verification };
    verification.within(|| walker.node(state, set, depth, domain, None))
}

/// Where the walk meets a node: its trail from the root (above a work-unit
/// cut, else `None`) and the queries its ancestors found not to split it.
#[derive(Clone, Copy)]
struct Place<'a> {
    trail: Option<&'a str>,
    known: Unsplit<'a>,
}

/// Joins neighbouring segments with equal outcomes and first queries.
pub(crate) fn coalesce_segments(segments: Vec<Segment>) -> Vec<Segment> {
    #[derive(PartialEq)]
    struct Key(Arc<Outcome>, Arc<[String]>);
    let steps: Steps<Key> = segments.into_iter().map(|s| (s.span, Key(s.outcome, s.first_queries))).collect();
    coalesce(steps)
        .into_iter()
        .map(|(span, Key(outcome, first_queries))| Segment { span, outcome, first_queries })
        .collect()
}

struct Walker<'a, P: SearchProblem> {
    problem: &'a P,
    tie: TieRule,
    nodes: AtomicU64,
    /// MIX only: step functions of expanded nodes, keyed by (reduced state,
    /// set), each with the domain it covers (MIX reaches the same node
    /// through many tied queries). Bounded by the process memo budget
    /// ([`crate::search::memo`]); results do not depend on it.
    memo: Memo<(P::State, P::Set), MemoEntries>,
    /// Work units: how nodes at the cut level are handled (`None`: plain walk).
    cut: Option<&'a Cut<'a>>,
    /// This walk's counters, made current in every closure handed to rayon.
    verification: &'a Verification,
}

/// How a walk treats the nodes `levels` queries below the root. Above the
/// cut every node carries its trail (the queries and answers from the root)
/// and the memo is not used, so every walk meets the same units in the same
/// places; a unit's key is its trail and its sub-domain, whose ends are
/// named exactly ([`super::steps::domain_key`]), never by printed digits.
pub(crate) struct Cut<'a> {
    pub levels: usize,
    /// A node at or below the cut of more than this many codes is no unit:
    /// it is walked one query deeper, again until at most this many (the
    /// same rule for every walk, so every walk meets the same units).
    pub split_above: Option<u64>,
    pub mode: CutMode<'a>,
}

impl Cut<'_> {
    /// Whether a node of `codes` codes `depth` queries below the root is a unit (or evaluated in place).
    fn stops_at(&self, depth: usize, codes: u64) -> bool {
        depth >= self.levels && !self.splits(codes)
    }

    /// Whether a node of `codes` codes at the cut is walked one query deeper.
    fn splits(&self, codes: u64) -> bool {
        self.split_above.is_some_and(|most| codes > most)
    }
}

/// A listed unit: its key (or why its sub-domain has none), code count and sub-domain.
pub(crate) type ListedKey = (Result<String, String>, u64, Domain);

/// What a walk does at a unit.
pub(crate) enum CutMode<'a> {
    /// Records each unit met ([`ListedKey`]).
    List(std::sync::Mutex<Vec<ListedKey>>),
    /// Asks `fetch` (trail, sub-domain, key, codes) for each unit's step function on
    /// the sub-domain when the walk reaches it (a walk meets each unit once,
    /// so only the units being added up are held); keys it has no steps for
    /// are collected in `missing`. A walk of part of the run's domain meets
    /// each unit on the part of its sub-domain inside it, under its trail.
    Lookup { fetch: &'a LookupFn<'a>, missing: std::sync::Mutex<Vec<String>> },
}

/// A unit's step function by (trail, sub-domain, key, the node's codes), if known.
pub(crate) type LookupFn<'a> = dyn Fn(&str, &Domain, &str, u64) -> Option<NodeSteps> + Sync + 'a;

/// Units smaller than this are evaluated in place by every walk.
const MIN_UNIT_CODES: u64 = 16;

/// A sub-domain and the queries (with MIX weights) the strategy plays on it.
type Decisions = Vec<(Domain, Vec<(u64, QueryId)>)>;

/// A node's subtree totals as a step function.
pub(crate) type NodeSteps = Steps<Arc<Outcome>>;
/// The memo's entries of one node: the domains covered and their steps.
type MemoEntries = Arc<Vec<(Domain, Arc<NodeSteps>)>>;
/// A run of envelope pieces with the same chosen queries: (first, last, chosen).
type PieceRun = (Span, Span, Vec<(u64, QueryId)>);

impl<P: SearchProblem> Walker<'_, P> {
    /// The leaf where the strategy stops at `set` ([`leaf::stopped`]).
    fn terminal(&self, set: &P::Set) -> Outcome {
        leaf::stopped(self.problem, set, self.tie.kind)
    }

    /// The step function of the subtree total at (`state`, `set`) on `domain`.
    fn node(&self, state: &P::State, set: &P::Set, depth: usize, domain: &Domain, trail: Option<&str>) -> NodeSteps {
        self.node_at(state, set, depth, domain, Place { trail, known: Unsplit::NONE })
    }

    /// [`Self::node`] where the walk meets it at `place`.
    fn node_at(&self, state: &P::State, set: &P::Set, depth: usize, domain: &Domain, place: Place) -> NodeSteps {
        let trail = place.trail;
        let problem = self.problem;
        let n = problem.set_size(set);
        if n == 1 {
            return constant(domain, Arc::new(self.terminal(set)));
        }
        if n == 2 && !problem.has_solving_answers() {
            return match problem.separating_query(state, set) {
                Some(q) => self.after_query(state, set, q, depth, domain, place),
                None => constant(domain, Arc::new(self.terminal(set))),
            };
        }
        if let (Some(cut), Some(trail)) = (self.cut, trail)
            && cut.stops_at(depth, n)
        {
            return self.at_cut(cut, (trail, place), state, set, depth, domain);
        }
        let key = (self.memo.is_active() && trail.is_none()).then(|| (problem.reduced_state(state, set), set.clone()));
        let known = key.as_ref().and_then(|k| self.memo.get(k));
        if let Some(entries) = &known
            && let Some((d, steps)) = entries.iter().find(|(d, _)| covers(d, domain))
        {
            return if covers(domain, d) { (**steps).clone() } else { super::steps::restrict(steps, domain) };
        }
        self.nodes.fetch_add(1, Ordering::Relaxed);
        let steps = self.expand(state, set, depth, domain, place);
        if let Some(key) = key {
            let mut entries: Vec<(Domain, Arc<NodeSteps>)> = known.map(|e| (*e).clone()).unwrap_or_default();
            let bytes = problem.set_bytes(set)
                + steps.iter().map(|(_, o)| 96 + o.heap_bytes()).sum::<usize>()
                + 64 * entries.len();
            entries.push((domain.clone(), Arc::new(steps.clone())));
            self.memo.insert(key, Arc::new(entries), bytes as u64);
        }
        steps
    }

    /// A node at the cut: a work unit (or, if small, evaluated in place).
    fn at_cut(
        &self,
        cut: &Cut,
        (trail, place): (&str, Place),
        state: &P::State,
        set: &P::Set,
        depth: usize,
        domain: &Domain,
    ) -> NodeSteps {
        let n = self.problem.set_size(set);
        if n < MIN_UNIT_CODES {
            return self.node_at(state, set, depth, domain, Place { trail: None, ..place });
        }
        // A sub-domain without an exact name: the listing refuses the run, so no
        // run has records of the unit, and a merge counts it as missing.
        let key = domain_key(domain).map(|ends| format!("{trail} @ {ends}"));
        // Not a leaf: a stand-in for a unit this pass does not evaluate.
        let placeholder = || constant(domain, Arc::new(Outcome::leaf(n, 0, Exact::from_integer(0.into()))));
        match (&cut.mode, key) {
            (CutMode::List(keys), key) => {
                keys.lock().unwrap_or_else(|e| e.into_inner()).push((key, n, domain.clone()));
                placeholder()
            }
            (CutMode::Lookup { missing, .. }, Err(why)) => {
                missing.lock().unwrap_or_else(|e| e.into_inner()).push(format!("{trail}: {why}"));
                placeholder()
            }
            (CutMode::Lookup { fetch, missing }, Ok(key)) => fetch(trail, domain, &key, n).unwrap_or_else(|| {
                missing.lock().unwrap_or_else(|e| e.into_inner()).push(key);
                placeholder()
            }),
        }
    }

    /// [`Self::node`] without the memo.
    fn expand(&self, state: &P::State, set: &P::Set, depth: usize, domain: &Domain, place: Place) -> NodeSteps {
        let n = self.problem.set_size(set);
        let (groups, known, finest) = self.decisions_known(state, set, depth, domain, place.known);
        if finest && let Some(steps) = self.all_leaves(n, domain, place) {
            return steps;
        }
        let place = Place { known: known.as_deref().map_or(place.known, Unsplit::of), ..place };
        let walk = |(sub, chosen): &(Domain, Vec<(u64, QueryId)>)| {
            if chosen.is_empty() {
                constant(sub, Arc::new(self.terminal(set)))
            } else {
                self.mean_over(state, set, chosen, depth, sub, place)
            }
        };
        let parts: Vec<NodeSteps> = if groups.len() > 1 && n >= PARALLEL_SET {
            groups.par_iter().map(|g| self.verification.within(|| walk(g))).collect()
        } else {
            groups.iter().map(walk).collect()
        };
        coalesce(parts.into_iter().flatten().collect())
    }

    /// The step function after asking `query`: every code pays the query, the
    /// solving class is done, every other class goes on.
    fn after_query(
        &self,
        state: &P::State,
        set: &P::Set,
        query: QueryId,
        depth: usize,
        domain: &Domain,
        place: Place,
    ) -> NodeSteps {
        let problem = self.problem;
        let label = place.trail.map(|t| format!("{t}/{}", problem.query_label(query)));
        // A listing counts the classes at the cut, unless one of them may be split deeper.
        let may_split = self.cut.is_some_and(|cut| cut.splits(problem.set_size(set)));
        if !may_split && let Some(listed) = self.listed_children(query, set, depth, domain, label.as_deref()) {
            return listed;
        }
        let next = problem.next_state(state, query);
        let classes = problem.split(query, set);
        let place = Place { trail: label.as_deref(), ..place };
        self.below(&next, set, (&classes, problem.solving_answer(query)), depth, domain, place)
    }

    /// The step function below a query on `set` that reaches `next`, given
    /// its answer classes and the answer that solves (`place`: the query's trail).
    fn below(
        &self,
        next: &P::State,
        set: &P::Set,
        (classes, solving): (&[(AnswerId, P::Set)], Option<AnswerId>),
        depth: usize,
        domain: &Domain,
        place: Place,
    ) -> NodeSteps {
        let problem = self.problem;
        // Classes whose value is constant ([`Fixed`]) are added up first, into one
        // part where the first of them stood (a sum does not depend on grouping).
        let pairs = self.pairs_fixed(domain, place);
        let kinds: Vec<Fixed> = classes.iter().map(|c| self.fixed(next, c, solving, pairs)).collect();
        let child = |(a, class): &(AnswerId, P::Set)| {
            if Some(*a) == solving {
                constant(domain, Arc::new(leaf::solved(problem.set_size(class))))
            } else {
                let trail = place.trail.map(|l| format!("{l}>{a}"));
                self.node_at(next, class, depth + 1, domain, Place { trail: trail.as_deref(), ..place })
            }
        };
        let others: Vec<&(AnswerId, P::Set)> =
            classes.iter().zip(&kinds).filter(|(_, k)| **k == Fixed::No).map(|(c, _)| c).collect();
        let mut children: Vec<NodeSteps> = if problem.set_size(set) >= PARALLEL_SET {
            others.par_iter().map(|c| self.verification.within(|| child(c))).collect()
        } else {
            others.iter().map(|c| child(c)).collect()
        };
        if let Some(first) = kinds.iter().position(|k| *k != Fixed::No) {
            children.insert(first, constant(domain, Arc::new(self.fixed_sum(classes, &kinds))));
        }
        coalesce(self.sum_below(&children, domain))
    }
}
