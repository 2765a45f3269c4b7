//! A node's decisions ([`Walker::decisions`]), counted only on the queries that
//! may split its set (issue 53 item 4: the per-unit cost of the 6c6p walk).
//! A query that does not split a set splits none of its subsets (a subset of
//! one answer class is one class), so the queries that an ancestor's count
//! found not to split its set are handed down ([`Unsplit`]) and a node counts
//! only the others: the same partitions, members and order (such queries make
//! none), the same envelope and decisions. Unit 37 of [2, 5/2] counted 68.5 %
//! of its (node, query) pairs on queries that do not split their set.

use super::{Decisions, FINEST_SCAN_MAX, PieceRun, Walker};
use crate::curve::envelope::envelope;
use crate::curve::partitions::{Extreme, Partitions, extreme_ties, recycle};
use crate::curve::point::{Witness, shared_label};
use crate::curve::steps::{Domain, Span};
use crate::search::problem::{QueryId, SearchProblem};
use crate::search::strategy::{TieBreak, chosen_queries, finest_first_is_exact};
use std::borrow::Cow;
use std::sync::Arc;

/// Queries (a bit per query id) known not to split a node's set: an
/// ancestor's count found them making one class of its set.
#[derive(Clone, Copy, Debug)]
pub(super) struct Unsplit<'a>(&'a [u64]);

impl<'a> Unsplit<'a> {
    /// Nothing known (the root, a unit rebuilt from its trail).
    pub(super) const NONE: Unsplit<'static> = Unsplit(&[]);

    /// Known from these bits (those [`Walker::decisions_known`] hands on).
    pub(super) fn of(bits: &'a [u64]) -> Unsplit<'a> {
        Unsplit(bits)
    }

    fn holds(self, q: QueryId) -> bool {
        self.0.get(q as usize / 64).is_some_and(|&w| w >> (q % 64) & 1 == 1)
    }

    /// `queries` without the known ones, in their order.
    fn filter<'q>(self, queries: &'q [QueryId]) -> Cow<'q, [QueryId]> {
        if self.0.iter().all(|&w| w == 0) {
            return Cow::Borrowed(queries);
        }
        let mut left = Vec::with_capacity(queries.len());
        left.extend(queries.iter().copied().filter(|&q| !self.holds(q)));
        Cow::Owned(left)
    }

    /// What the children of a node know: these queries and the node's
    /// `counted` queries that made no partition (not in any of `members`).
    fn below(self, counted: &[QueryId], members: &[Vec<QueryId>], query_count: usize) -> Vec<u64> {
        let mut bits = self.0.to_vec();
        bits.resize(bits.len().max(query_count.div_ceil(64)), 0);
        counted.iter().for_each(|&q| bits[q as usize / 64] |= 1 << (q % 64));
        members.iter().flatten().for_each(|&q| bits[q as usize / 64] &= !(1 << (q % 64)));
        bits
    }
}

impl<P: SearchProblem> Walker<'_, P> {
    /// The strategy's decisions at a node over `domain`, as runs of pieces
    /// with the same chosen queries (empty: no query splits the set).
    pub(crate) fn decisions(&self, state: &P::State, set: &P::Set, depth: usize, domain: &Domain) -> Decisions {
        self.decisions_known(state, set, depth, domain, Unsplit::NONE).0
    }

    /// [`Self::decisions`], counting only the queries not `known` to make one
    /// class, and what the node's children know (`None`: `known`, nothing more);
    /// `true` if the decision is a query that splits the set into singletons
    /// (the first finest one, found without counting partitions).
    pub(super) fn decisions_known(
        &self,
        state: &P::State,
        set: &P::Set,
        depth: usize,
        domain: &Domain,
        known: Unsplit,
    ) -> (Decisions, Option<Vec<u64>>, bool) {
        let problem = self.problem;
        let n = problem.set_size(set);
        let admissible = problem.admissible_queries(state);
        let queries = known.filter(&admissible);
        // Whether the tie rule may take the finest query is asked of every admissible query.
        if (2..=FINEST_SCAN_MAX).contains(&n)
            && finest_first_is_exact(problem, &self.tie, set, &admissible)
            && let Some(q) = problem.first_finest_query(&queries, set)
        {
            return (vec![(domain.clone(), vec![(problem.multiplicity(state, q), q)])], None, true);
        }
        let choose = |ties: &[QueryId], finest: bool| {
            let mut chosen = chosen_queries(problem, &self.tie, state, set, ties);
            if finest && self.tie.kind == TieBreak::Mix && !problem.has_solving_answers() {
                chosen.truncate(1);
            }
            chosen
        };
        if let Some(extreme) = Extreme::of_point(domain) {
            // What the envelope below finds at this point, from two numbers per query.
            let (ties, finest) = extreme_ties(problem, &queries, set, extreme);
            let at = Span::At(domain.lo.clone());
            let chosen = if ties.is_empty() { Vec::new() } else { choose(&ties, finest) };
            let run = if ties.is_empty() { domain.clone() } else { Domain::of_run(&at, &at) };
            return (vec![(run, chosen)], None, false);
        }
        let Partitions { parts, members, .. } = Partitions::of(problem, &queries, set);
        if parts.is_empty() {
            return (vec![(domain.clone(), Vec::new())], None, false);
        }
        let witness = |below: usize, above: usize| {
            Arc::new(Witness::new(
                n,
                depth,
                parts[below].clone(),
                parts[above].clone(),
                (
                    shared_label(&problem.query_label(members[below][0])),
                    shared_label(&problem.query_label(members[above][0])),
                ),
            ))
        };
        let pieces = envelope(&parts, domain, &witness);
        let mut out: Vec<PieceRun> = Vec::new();
        for piece in pieces {
            let mut ties: Vec<QueryId> = piece.best.iter().flat_map(|&b| members[b].iter().copied()).collect();
            ties.sort_unstable();
            let chosen = choose(&ties, piece.best.first().is_some_and(|&b| parts[b].len() as u64 == n));
            match out.last_mut() {
                Some(run) if run.2 == chosen => run.1 = piece.span,
                _ => out.push((piece.span.clone(), piece.span, chosen)),
            }
        }
        let groups = out.into_iter().map(|(first, last, chosen)| (Domain::of_run(&first, &last), chosen)).collect();
        let below = known.below(&queries, &members, problem.query_count());
        recycle(parts, members);
        (groups, Some(below), false)
    }
}
