//! A game restricted to one node: the codes of a given set, starting from a
//! given state. Used to analyse one subtree on its own (e.g. the codes of one
//! answer to the first query of Beams(6c,6p)) and to test reduced instances.

use super::delegate::Delegate;
use super::problem::{AnswerId, Presentation, QueryId, Rules, SearchProblem, Terminal};
use crate::error::{Result, invalid};

/// `inner`, with `set` as all codes and `state` as the start.
pub struct Subproblem<'a, P: SearchProblem> {
    pub inner: &'a P,
    pub state: P::State,
    pub set: P::Set,
}

impl<'a, P: SearchProblem> Subproblem<'a, P> {
    /// The node reached from the root by `steps` (query, answer), asked in
    /// turn: an error if a query cannot be asked there, if an answer solves
    /// the game (nothing is left to search), or if no code gives these answers.
    /// With `possible_only` (hard mode) every step's query must be a code
    /// still possible there.
    pub fn after(inner: &'a P, steps: &[(QueryId, AnswerId)], possible_only: bool) -> Result<Subproblem<'a, P>> {
        let (mut state, mut set) = (inner.initial_state(), inner.full_set());
        for (i, &(query, answer)) in steps.iter().enumerate() {
            if query as usize >= inner.query_count() || !inner.is_admissible(&state, query) {
                return Err(invalid(format!("step {}: query {query} cannot be asked there", i + 1)));
            }
            if possible_only && !inner.is_possible_secret(query, &set) {
                return Err(invalid(format!(
                    "step {}: query {query} is not a possible code there (--possible-only)",
                    i + 1
                )));
            }
            if answer as usize >= inner.answer_count() {
                return Err(invalid(format!("step {}: answer {answer} is beyond the game's answers", i + 1)));
            }
            set = match inner.split(query, &set).into_iter().find(|(a, _)| *a == answer) {
                Some((_, class)) => class,
                None => return Err(invalid(format!("step {}: no code gives answer {answer} to query {query}", i + 1))),
            };
            if inner.solving_answer(query) == Some(answer) {
                return Err(invalid(format!(
                    "step {}: answer {answer} solves the game; nothing is left below it",
                    i + 1
                )));
            }
            state = inner.next_state(&state, query);
        }
        Ok(Subproblem { inner, state, set })
    }
}

/// The rules are `inner`'s, with `state` and `set` as the start (forwarded by
/// hand: [`Rules`] has no defaults, so none can be skipped).
impl<P: SearchProblem> Rules for Subproblem<'_, P> {
    type State = P::State;
    type Set = P::Set;

    fn code_count(&self) -> usize {
        self.inner.set_size(&self.set) as usize
    }
    fn query_count(&self) -> usize {
        self.inner.query_count()
    }
    fn answer_count(&self) -> usize {
        self.inner.answer_count()
    }
    fn initial_state(&self) -> P::State {
        self.state.clone()
    }
    fn is_admissible(&self, state: &P::State, q: QueryId) -> bool {
        self.inner.is_admissible(state, q)
    }
    fn next_state(&self, state: &P::State, q: QueryId) -> P::State {
        self.inner.next_state(state, q)
    }
    fn full_set(&self) -> P::Set {
        self.set.clone()
    }
    fn set_size(&self, set: &P::Set) -> u64 {
        self.inner.set_size(set)
    }
    fn count_answers(&self, q: QueryId, set: &P::Set, counts: &mut [u64]) {
        self.inner.count_answers(q, set, counts)
    }
    fn split(&self, q: QueryId, set: &P::Set) -> Vec<(AnswerId, P::Set)> {
        self.inner.split(q, set)
    }
    fn solving_answer(&self, q: QueryId) -> Option<AnswerId> {
        self.inner.solving_answer(q)
    }
    fn terminal(&self, set: &P::Set) -> Terminal {
        self.inner.terminal(set)
    }
    /// No symmetry is known at this start (the game's root classes are
    /// those of its own start).
    fn root_class_key(&self, q: QueryId) -> u64 {
        q as u64
    }
}

impl<P: SearchProblem> Presentation for Subproblem<'_, P> {
    fn name(&self) -> String {
        format!("{} (subset of {} codes)", self.inner.name(), self.inner.set_size(&self.set))
    }
    fn query_label(&self, q: QueryId) -> String {
        self.inner.query_label(q)
    }
}

/// Every capability (and [`Replay`](super::tree::Replay)) is `inner`'s.
impl<P: SearchProblem> Delegate for Subproblem<'_, P> {
    type To = P;
    fn delegate(&self) -> &P {
        self.inner
    }
}
