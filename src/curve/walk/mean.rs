//! A MIX node's exact mean over its chosen queries: tied queries that a
//! symmetry of the node maps onto each other are walked once with their
//! orbit's weight, and (outside work units' trails) tied queries with the same
//! answer classes are walked once with their summed weight.

use super::{NodeSteps, PARALLEL_SET, Place, Walker};
use crate::curve::steps::{Domain, coalesce, merge};
use crate::search::analysis::DISTINCT_TIES_SET;
use crate::search::outcome::Outcome;
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use rayon::prelude::*;
use std::sync::Arc;

/// The exact weighted mean of step functions on one domain.
pub(super) fn mean_of(parts: Vec<(u64, NodeSteps)>) -> NodeSteps {
    if parts.len() == 1 {
        return parts.into_iter().next().map(|p| p.1).unwrap_or_default();
    }
    let weights: Vec<u64> = parts.iter().map(|p| p.0).collect();
    let refs: Vec<&NodeSteps> = parts.iter().map(|p| &p.1).collect();
    coalesce(merge(&refs, |vals| {
        let weighted: Vec<(u64, Arc<Outcome>)> = weights.iter().zip(vals).map(|(&w, v)| (w, (*v).clone())).collect();
        Arc::new(Outcome::weighted_mean(&weighted))
    }))
}

/// The answer classes of one tied query (or of several with the same classes).
struct Split<P: SearchProblem> {
    /// The MIX weight of the queries with these classes.
    weight: u64,
    /// The state after the first of them, where its classes are walked.
    next: P::State,
    solving: Option<AnswerId>,
    classes: Vec<(AnswerId, P::Set)>,
    /// Per class, the reduced state it is reached in (the memo's key; none
    /// for the solving class, a leaf whatever the state).
    reached: Vec<Option<P::State>>,
}

impl<P: SearchProblem> Split<P> {
    /// Whether `other` has the same classes, each solving or not alike and
    /// reached in the same reduced state (the classes of one partition are
    /// disjoint and non-empty, hence distinct): then every class has the same
    /// subtree under both, and so has the query.
    fn same_subtree(&self, other: &Split<P>) -> bool {
        let mine = || self.classes.iter().map(|c| &c.1).zip(&self.reached);
        let theirs = || other.classes.iter().map(|c| &c.1).zip(&other.reached);
        self.classes.len() == other.classes.len() && mine().all(|class| theirs().any(|c| c == class))
    }
}

impl<P: SearchProblem> Walker<'_, P> {
    /// The exact mean over the chosen queries, walked under `trail` (if any).
    pub(super) fn mean_over(
        &self,
        state: &P::State,
        set: &P::Set,
        chosen: &[(u64, QueryId)],
        depth: usize,
        domain: &Domain,
        place: Place,
    ) -> NodeSteps {
        let merged;
        let chosen = if chosen.len() > 1 {
            merged = self.problem.symmetry_classes(state, set, chosen);
            &merged[..]
        } else {
            chosen
        };
        let n = self.problem.set_size(set);
        if chosen.len() > 1 && place.trail.is_none() && n <= DISTINCT_TIES_SET {
            return self.mean_over_distinct(state, set, chosen, depth, (domain, place));
        }
        let walk = |&(w, q): &(u64, QueryId)| (w, self.after_query(state, set, q, depth, domain, place));
        mean_of(self.walk_each(chosen, n, walk))
    }

    /// `walk` over `items`, in parallel when there are several and the set
    /// has `n` ≥ [`PARALLEL_SET`] codes (each under the walk's verification
    /// scope), in item order either way.
    fn walk_each<T: Sync>(
        &self,
        items: &[T],
        n: u64,
        walk: impl Fn(&T) -> (u64, NodeSteps) + Sync,
    ) -> Vec<(u64, NodeSteps)> {
        if items.len() > 1 && n >= PARALLEL_SET {
            items.par_iter().map(|item| self.verification.within(|| walk(item))).collect()
        } else {
            items.iter().map(walk).collect()
        }
    }

    /// [`Self::mean_over`] of a small set without a trail: the queries are
    /// split first, and those with the same classes ([`Split::same_subtree`],
    /// as `analyze` groups them) are walked once, by the first of them, with
    /// their summed weight. Exact: Σ wᵢ·v / Σ w is the same mean. (At α = 0
    /// H_0 ties every query with the most classes, and many of them make
    /// the same classes of a small set.)
    fn mean_over_distinct(
        &self,
        state: &P::State,
        set: &P::Set,
        chosen: &[(u64, QueryId)],
        depth: usize,
        (domain, place): (&Domain, Place),
    ) -> NodeSteps {
        let problem = self.problem;
        let mut groups: Vec<Split<P>> = Vec::with_capacity(chosen.len());
        for &(weight, q) in chosen {
            let next = problem.next_state(state, q);
            let solving = problem.solving_answer(q);
            let classes = problem.split(q, set);
            let reached = classes
                .iter()
                .map(|(a, class)| (Some(*a) != solving).then(|| problem.reduced_state(&next, class)))
                .collect();
            let split = Split { weight, next, solving, classes, reached };
            match groups.iter_mut().find(|g| g.same_subtree(&split)) {
                Some(group) => group.weight += weight,
                None => groups.push(split),
            }
        }
        let walk = |g: &Split<P>| (g.weight, self.below(&g.next, set, (&g.classes, g.solving), depth, domain, place));
        mean_of(self.walk_each(&groups, problem.set_size(set), walk))
    }
}
