//! Listing a run's units without evaluating anything (issue 53 item 3): a
//! listing walk counts the classes of a node above the cut instead of
//! splitting it (only their sizes decide which are units), and a shard lists
//! only the subtrees it owns: the nodes one query below the root
//! ([`first_level`]: the root's decisions and the class sizes of its chosen
//! queries, no class made) and the units below one of them ([`list_below`]),
//! each met exactly as the walk of the whole run meets it.

use super::{Cut, CutMode, ListedKey, MIN_UNIT_CODES, NodeSteps, Walker};
use crate::curve::steps::{Domain, constant, domain_key};
use crate::curve::verification::Verification;
use crate::renyi::alpha::Alpha;
use crate::search::analysis::root_representatives;
#[cfg(doc)]
use crate::search::capabilities::SpeedHooks;
use crate::search::memo::Memo;
use crate::search::outcome::{Exact, Outcome};
use crate::search::problem::{AnswerId, QueryId, SearchProblem};
use crate::search::strategy::{Strategy, TieBreak, TieRule};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};

/// A node one query below the root as the walk of a domain reaches it.
#[derive(Clone, Debug)]
pub(crate) struct FirstLevel {
    /// `/QUERY>ANSWER`, as the unit keys below it begin.
    pub trail: String,
    pub query: QueryId,
    pub answer: AnswerId,
    pub codes: u64,
    /// The sub-domain of the root decision that asks `query`.
    pub domain: Domain,
}

/// The nodes one query below the root that the walk of `domain` reaches and
/// that may hold units (at least [`MIN_UNIT_CODES`] codes), in walk order.
/// The root decides on the set of all codes as counting reads it
/// ([`SpeedHooks::counted_full_set`]: Beams a stand-in, not its 406 MB 6c6p
/// set), from the class sizes of its queries alone, as the walk does.
pub(crate) fn first_level<P: SearchProblem>(problem: &P, tie: TieRule, domain: &Domain) -> Vec<FirstLevel> {
    let verification = Verification::new();
    let memo = Memo::new(false);
    let walker = Walker { problem, tie, nodes: AtomicU64::new(1), memo, cut: None, verification: &verification };
    let state = problem.initial_state();
    let all = problem.counted_full_set();
    let groups = verification.within(|| walker.decisions(&state, &all, 0, domain));
    let strategy = Strategy::new(Alpha::integer(1), tie);
    let mut counts = vec![0u64; problem.answer_count()];
    let mut out = Vec::new();
    for (sub, chosen) in groups.iter().filter(|(_, chosen)| !chosen.is_empty()) {
        for (_, query) in root_representatives(problem, &strategy, chosen) {
            problem.count_answers(query, &all, &mut counts);
            let label = problem.query_label(query);
            for (a, &codes) in counts.iter().enumerate() {
                let answer = a as AnswerId;
                if codes >= MIN_UNIT_CODES && problem.solving_answer(query) != Some(answer) {
                    let trail = format!("/{label}>{answer}");
                    out.push(FirstLevel { trail, query, answer, codes, domain: sub.clone() });
                }
            }
        }
    }
    out
}

/// The units that a listing walk cut `levels` below the root (nodes there of more
/// than `split_above` codes one query deeper, [`Cut::split_above`]) meets below the
/// node (`state`, `set`) that `trail` reaches `depth` queries below the root on `domain`.
pub(crate) fn list_below<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    (state, set): (&P::State, &P::Set),
    (depth, trail): (usize, &str),
    domain: &Domain,
    (levels, split_above): (usize, Option<u64>),
) -> Vec<ListedKey> {
    let cut = Cut { levels, split_above, mode: CutMode::List(Mutex::new(Vec::new())) };
    let verification = Verification::new();
    {
        let memo = Memo::new(tie.kind == TieBreak::Mix);
        let walker =
            Walker { problem, tie, nodes: AtomicU64::new(1), memo, cut: Some(&cut), verification: &verification };
        verification.within(|| walker.node(state, set, depth, domain, Some(trail)));
    }
    let CutMode::List(keys) = cut.mode else { unreachable!("built as a listing") };
    keys.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// The units one query below a node, `label` being the node's trail and the
/// query: the classes of `query` on `set` counted, not made, and each that is
/// a unit listed as the walk would at the cut ([`Walker::at_cut`]: a class of
/// at least [`MIN_UNIT_CODES`] codes that is not the solving one; smaller
/// classes are evaluated in place and hold no unit).
fn listed_classes<P: SearchProblem>(
    problem: &P,
    query: QueryId,
    set: &P::Set,
    label: &str,
    domain: &Domain,
    listed: &mut Vec<ListedKey>,
) {
    let mut counts = vec![0u64; problem.answer_count()];
    problem.count_answers(query, set, &mut counts);
    let ends = domain_key(domain);
    for (a, &codes) in counts.iter().enumerate() {
        let answer = a as AnswerId;
        if codes >= MIN_UNIT_CODES && problem.solving_answer(query) != Some(answer) {
            let key = ends.as_ref().map(|ends| format!("{label}>{answer} @ {ends}")).map_err(Clone::clone);
            listed.push((key, codes, domain.clone()));
        }
    }
}

/// Smallest node one query below the root that [`FirstLevel::list_counted`] lists from a
/// stand-in (smaller decisions may walk a set code by code).
const COUNTED_NODE_MIN: u64 = 4096;

impl FirstLevel {
    /// [`list_below`] of this node for a cut two levels below the root, decided on
    /// the game's stand-in for its set ([`SpeedHooks::counted_class`]: read
    /// only by its size and answer counts) instead of the set: the node's
    /// decisions on its sub-domain and the class sizes of the query each decision
    /// asks are all the listing walk reads there ([`Walker::node`] at depth 1 with
    /// a trail: no memo; [`Walker::listed_children`] one query above the cut).
    /// The same units in the same order. `None` where it cannot stand in: another
    /// cut, a node of at most [`COUNTED_NODE_MIN`] codes, a game without the
    /// stand-in, or a decision that ties several queries (merging them by
    /// symmetry reads the set; the caller then makes it).
    pub(crate) fn list_counted<P: SearchProblem>(
        &self,
        problem: &P,
        tie: TieRule,
        levels: usize,
    ) -> Option<Vec<ListedKey>> {
        if levels != 2 || self.codes <= COUNTED_NODE_MIN {
            return None;
        }
        let set = problem.counted_class(self.query, self.answer, self.codes)?;
        let state = problem.next_state(&problem.initial_state(), self.query);
        let verification = Verification::new();
        let memo = Memo::new(false);
        let walker = Walker { problem, tie, nodes: AtomicU64::new(1), memo, cut: None, verification: &verification };
        let groups = verification.within(|| walker.decisions(&state, &set, 1, &self.domain));
        if groups.iter().any(|(_, chosen)| chosen.len() > 1) {
            return None;
        }
        let mut listed = Vec::new();
        for (sub, chosen) in &groups {
            // No query: the walk stops there, a leaf and no unit.
            if let Some(&(_, query)) = chosen.first() {
                let label = format!("{}/{}", self.trail, problem.query_label(query));
                listed_classes(problem, query, &set, &label, sub, &mut listed);
            }
        }
        Some(listed)
    }
}

impl<P: SearchProblem> Walker<'_, P> {
    /// A listing walk one query above its cut: the classes of `query` on `set`
    /// counted, not made, and each that is a unit listed ([`listed_classes`]).
    /// `None` unless listing at this depth. What it returns stands in for the
    /// subtree (a listing's curve is not used).
    pub(super) fn listed_children(
        &self,
        query: QueryId,
        set: &P::Set,
        depth: usize,
        domain: &Domain,
        label: Option<&str>,
    ) -> Option<NodeSteps> {
        let (Some(cut), Some(label)) = (self.cut, label) else { return None };
        let CutMode::List(keys) = &cut.mode else { return None };
        if depth + 1 < cut.levels {
            return None;
        }
        let problem = self.problem;
        let mut found = Vec::new();
        listed_classes(problem, query, set, label, domain, &mut found);
        keys.lock().unwrap_or_else(|e| e.into_inner()).extend(found);
        let n = problem.set_size(set);
        Some(constant(domain, Arc::new(Outcome::leaf(n, 0, Exact::from_integer(0.into())))))
    }
}
