//! A game restricted to one node: the codes of a given set, starting from a
//! given state. Used to analyse one subtree on its own (e.g. the codes of one
//! answer to the first query of Beams(6c,6p)) and to test reduced instances.

use super::problem::{AnswerId, ClassSizes, CodeId, QueryId, SearchProblem, Terminal};
use super::tree::Replay;
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

impl<P: SearchProblem> SearchProblem for Subproblem<'_, P> {
    type State = P::State;
    type Set = P::Set;

    fn name(&self) -> String {
        format!("{} (subset of {} codes)", self.inner.name(), self.inner.set_size(&self.set))
    }
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
    fn set_bytes(&self, set: &P::Set) -> usize {
        self.inner.set_bytes(set)
    }
    fn count_answers(&self, q: QueryId, set: &P::Set, counts: &mut [u64]) {
        self.inner.count_answers(q, set, counts)
    }
    fn count_answers_batch(&self, queries: &[QueryId], set: &P::Set, counts: &mut [u64]) {
        self.inner.count_answers_batch(queries, set, counts)
    }
    fn class_sizes_batch(&self, queries: &[QueryId], set: &P::Set) -> ClassSizes {
        self.inner.class_sizes_batch(queries, set)
    }
    fn restrict(&self, q: QueryId, a: AnswerId, set: &P::Set) -> P::Set {
        self.inner.restrict(q, a, set)
    }
    fn terminal_for(&self, set: &P::Set, secret: CodeId) -> (u32, u64) {
        self.inner.terminal_for(set, secret)
    }
    fn split(&self, q: QueryId, set: &P::Set) -> Vec<(AnswerId, P::Set)> {
        self.inner.split(q, set)
    }
    fn separating_query(&self, state: &P::State, set: &P::Set) -> Option<QueryId> {
        self.inner.separating_query(state, set)
    }
    fn narrowing_queries(&self) -> bool {
        self.inner.narrowing_queries()
    }
    fn reduced_state(&self, state: &P::State, set: &P::Set) -> P::State {
        self.inner.reduced_state(state, set)
    }
    fn admissible_queries(&self, state: &P::State) -> Vec<QueryId> {
        self.inner.admissible_queries(state)
    }
    fn residual_key(&self, state: &P::State, set: &P::Set) -> Option<(P::State, Box<[u8]>)> {
        self.inner.residual_key(state, set)
    }
    fn code_list_key(&self, set: &P::Set) -> Option<Box<[CodeId]>> {
        self.inner.code_list_key(set)
    }
    fn first_finest_query(&self, queries: &[QueryId], set: &P::Set) -> Option<QueryId> {
        self.inner.first_finest_query(queries, set)
    }
    fn has_solving_answers(&self) -> bool {
        self.inner.has_solving_answers()
    }
    fn solving_answer(&self, q: QueryId) -> Option<AnswerId> {
        self.inner.solving_answer(q)
    }
    fn is_possible_secret(&self, q: QueryId, set: &P::Set) -> bool {
        self.inner.is_possible_secret(q, set)
    }
    fn possible_secret_queries(&self, state: &P::State, set: &P::Set) -> Vec<QueryId> {
        self.inner.possible_secret_queries(state, set)
    }
    fn terminal(&self, set: &P::Set) -> Terminal {
        self.inner.terminal(set)
    }
    fn terminal_floor(&self) -> u64 {
        self.inner.terminal_floor()
    }
    fn multiplicity(&self, state: &P::State, q: QueryId) -> u64 {
        self.inner.multiplicity(state, q)
    }
    fn query_label(&self, q: QueryId) -> String {
        self.inner.query_label(q)
    }
    fn symmetry_classes(&self, state: &P::State, set: &P::Set, weighted: &[(u64, QueryId)]) -> Vec<(u64, QueryId)> {
        self.inner.symmetry_classes(state, set, weighted)
    }
}

impl<P: Replay> Replay for Subproblem<'_, P> {
    fn replay_answer(&self, q: QueryId, code: CodeId) -> AnswerId {
        self.inner.replay_answer(q, code)
    }
    fn set_of(&self, codes: &[CodeId]) -> P::Set {
        self.inner.set_of(codes)
    }
    fn codes_of(&self, set: &P::Set) -> Vec<CodeId> {
        self.inner.codes_of(set)
    }
    fn code_of_query(&self, q: QueryId) -> Option<CodeId> {
        self.inner.code_of_query(q)
    }
}
