//! Bulls and Cows: the secret is a string of `digits` distinct symbols out of
//! `symbols` (the classic game: 4 distinct digits of 10, 5040 codes); a guess
//! is such a string and is answered by its bulls (right symbol, right place)
//! and cows (right symbol, wrong place). For codes without repetition that is
//! Mastermind's (black, white) answer exactly, so the game is MM(digits,
//! symbols) without repetition under its own name and digit labels (0–9),
//! on the same answer table, symmetries (symbol and place permutations) and
//! search machinery ([`Mastermind`]).

use crate::error::{Result, invalid};
use crate::games::mastermind::Mastermind;
use crate::search::problem::ClassSizes;
use crate::search::tree::Replay;
use crate::search::{AnswerId, CodeId, QueryId, SearchProblem, Terminal};

/// Bulls and Cows with `digits` places and `symbols` symbols (digits 0..symbols).
pub struct BullsAndCows {
    inner: Mastermind,
}

impl BullsAndCows {
    /// Builds the game; at most 10 symbols (labels 0–9), at most as many places as symbols.
    pub fn new(digits: usize, symbols: usize) -> Result<BullsAndCows> {
        if symbols > 10 {
            return Err(invalid(format!("Bulls and Cows with {symbols} symbols: at most 10 (digits 0–9)")));
        }
        if digits == 0 || digits > symbols {
            return Err(invalid(format!(
                "Bulls and Cows with {digits} digits of {symbols}: give 1 to {symbols} distinct digits"
            )));
        }
        Ok(BullsAndCows { inner: Mastermind::new(digits, symbols, true)? })
    }

    pub fn digits(&self) -> usize {
        self.inner.pegs()
    }

    pub fn symbols(&self) -> usize {
        self.inner.colors()
    }

    /// The (bulls, cows) answer of guess `g` to secret `s`.
    pub fn bulls_cows(&self, g: CodeId, s: CodeId) -> (usize, usize) {
        self.inner.black_white(g, s)
    }

    /// The code as its digit string (`0123`).
    pub fn code_label(&self, code: CodeId) -> String {
        self.inner.code_label(code).bytes().map(|b| (b - b'A' + b'0') as char).collect()
    }

    /// The code with this digit string, if it is a code of the game.
    pub fn code_by_label(&self, label: &str) -> Option<CodeId> {
        let letters: Option<String> =
            label.bytes().map(|b| b.checked_sub(b'0').filter(|&d| d < 10).map(|d| (b'A' + d) as char)).collect();
        self.inner.code_by_label(&letters?)
    }

    /// The same game as Mastermind without repetition.
    pub fn as_mastermind(&self) -> &Mastermind {
        &self.inner
    }
}

impl SearchProblem for BullsAndCows {
    type State = ();
    type Set = Vec<CodeId>;

    fn name(&self) -> String {
        format!("Bulls and Cows ({} of {})", self.digits(), self.symbols())
    }
    fn query_label(&self, query: QueryId) -> String {
        self.code_label(query)
    }
    fn code_count(&self) -> usize {
        self.inner.code_count()
    }
    fn query_count(&self) -> usize {
        self.inner.query_count()
    }
    fn answer_count(&self) -> usize {
        self.inner.answer_count()
    }
    fn initial_state(&self) {}
    fn is_admissible(&self, state: &(), q: QueryId) -> bool {
        self.inner.is_admissible(state, q)
    }
    fn next_state(&self, _: &(), _: QueryId) {}
    fn full_set(&self) -> Vec<CodeId> {
        self.inner.full_set()
    }
    fn set_size(&self, set: &Vec<CodeId>) -> u64 {
        set.len() as u64
    }
    fn count_answers(&self, q: QueryId, set: &Vec<CodeId>, counts: &mut [u64]) {
        self.inner.count_answers(q, set, counts)
    }
    fn count_answers_batch(&self, queries: &[QueryId], set: &Vec<CodeId>, counts: &mut [u64]) {
        self.inner.count_answers_batch(queries, set, counts)
    }
    fn class_sizes_batch(&self, queries: &[QueryId], set: &Vec<CodeId>) -> ClassSizes {
        self.inner.class_sizes_batch(queries, set)
    }
    fn restrict(&self, q: QueryId, a: AnswerId, set: &Vec<CodeId>) -> Vec<CodeId> {
        self.inner.restrict(q, a, set)
    }
    fn split(&self, q: QueryId, set: &Vec<CodeId>) -> Vec<(AnswerId, Vec<CodeId>)> {
        self.inner.split(q, set)
    }
    fn narrowing_queries(&self) -> bool {
        self.inner.narrowing_queries()
    }
    fn separating_query(&self, state: &(), set: &Vec<CodeId>) -> Option<QueryId> {
        self.inner.separating_query(state, set)
    }
    fn first_finest_query(&self, queries: &[QueryId], set: &Vec<CodeId>) -> Option<QueryId> {
        self.inner.first_finest_query(queries, set)
    }
    fn has_solving_answers(&self) -> bool {
        self.inner.has_solving_answers()
    }
    fn solving_answer(&self, q: QueryId) -> Option<AnswerId> {
        self.inner.solving_answer(q)
    }
    fn is_possible_secret(&self, q: QueryId, set: &Vec<CodeId>) -> bool {
        self.inner.is_possible_secret(q, set)
    }
    fn possible_secret_queries(&self, state: &(), set: &Vec<CodeId>) -> Vec<QueryId> {
        self.inner.possible_secret_queries(state, set)
    }
    fn terminal(&self, set: &Vec<CodeId>) -> Terminal {
        self.inner.terminal(set)
    }
    fn terminal_for(&self, set: &Vec<CodeId>, secret: CodeId) -> (u32, u64) {
        self.inner.terminal_for(set, secret)
    }
    fn root_class_key(&self, q: QueryId) -> u64 {
        self.inner.root_class_key(q)
    }
    fn multiplicity(&self, state: &(), q: QueryId) -> u64 {
        self.inner.multiplicity(state, q)
    }
    fn set_bytes(&self, set: &Vec<CodeId>) -> usize {
        self.inner.set_bytes(set)
    }
    fn symmetry_classes(&self, state: &(), set: &Vec<CodeId>, weighted: &[(u64, QueryId)]) -> Vec<(u64, QueryId)> {
        self.inner.symmetry_classes(state, set, weighted)
    }
}

impl Replay for BullsAndCows {
    fn replay_answer(&self, q: QueryId, code: CodeId) -> AnswerId {
        self.inner.replay_answer(q, code)
    }
    fn set_of(&self, codes: &[CodeId]) -> Vec<CodeId> {
        codes.to_vec()
    }
    fn codes_of(&self, set: &Vec<CodeId>) -> Vec<CodeId> {
        set.clone()
    }
    fn code_of_query(&self, q: QueryId) -> Option<CodeId> {
        Some(q)
    }
}

impl crate::certificate::Certify for BullsAndCows {
    fn symmetry_generators(&self) -> Vec<(Vec<CodeId>, Vec<QueryId>)> {
        crate::certificate::Certify::symmetry_generators(&self.inner)
    }
    fn stabilizer_words(&self, state: &(), set: &Vec<CodeId>) -> Vec<Vec<u8>> {
        crate::certificate::Certify::stabilizer_words(&self.inner, state, set)
    }
    fn admissible_below(&self, _: &(), _: QueryId) -> bool {
        true
    }
}
