//! The perfect search on a game without a solving answer whose terminal sets
//! hold several codes (as in Beams): stopping at such a set can be cheaper
//! than any splitting tree, so the b-ary Huffman total is not a lower bound
//! there and must not prune. Codes 0..8; the first question is q2 "is it
//! ≥ 4?", then one more, q0 "is it 0 mod 4?" or q1 "is it 2 or 3 mod 4?";
//! then every set is terminal and costs the penalty below, by residues mod 4
//! (δ = 2: k codes cost at least 2(k − 1)).
//!
//! In each half, q0: {0} | {1,2,3}: 4 + 0 + 4 = 8; q1: {0,1} | {2,3}: 4 + 2 + 3 = 9.
//! With Huffman bounds (binary: H(3) = 5) q0 looked like 4 + 0 + 5 = 9 and
//! was pruned once q1 had reached 9: the search answered 8 + 9 + 9 = 26
//! instead of 8 + 8 + 8 = 24.

use renyi_search::search::perfect::solve_perfect;
use renyi_search::search::{
    AnswerId, CodeId, Exact, MemoKeys, Presentation, QueryId, Rules, SpeedHooks, Symmetry, Terminal, TiePreference,
};

struct TwoQuestions;

fn answer(q: QueryId, c: CodeId) -> bool {
    match q {
        0 => c.is_multiple_of(4),
        1 => c % 4 >= 2,
        _ => c >= 4,
    }
}

impl Rules for TwoQuestions {
    /// Questions asked so far.
    type State = u8;
    type Set = Vec<CodeId>;
    fn code_count(&self) -> usize {
        8
    }
    fn query_count(&self) -> usize {
        3
    }
    fn answer_count(&self) -> usize {
        2
    }
    fn initial_state(&self) -> u8 {
        0
    }
    fn is_admissible(&self, asked: &u8, q: QueryId) -> bool {
        (*asked == 0) == (q == 2) && *asked < 2
    }
    fn next_state(&self, asked: &u8, _: QueryId) -> u8 {
        asked + 1
    }
    fn full_set(&self) -> Vec<CodeId> {
        (0..8).collect()
    }
    fn set_size(&self, set: &Vec<CodeId>) -> u64 {
        set.len() as u64
    }
    fn count_answers(&self, q: QueryId, set: &Vec<CodeId>, counts: &mut [u64]) {
        counts.fill(0);
        set.iter().for_each(|&c| counts[answer(q, c) as usize] += 1);
    }
    fn split(&self, q: QueryId, set: &Vec<CodeId>) -> Vec<(AnswerId, Vec<CodeId>)> {
        let (yes, no): (Vec<CodeId>, Vec<CodeId>) = set.iter().partition(|&&c| answer(q, c));
        [(0, no), (1, yes)].into_iter().filter(|(_, s)| !s.is_empty()).collect()
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        None
    }
    fn terminal(&self, set: &Vec<CodeId>) -> Terminal {
        let residues: Vec<CodeId> = set.iter().map(|c| c % 4).collect();
        let penalty = match residues.as_slice() {
            [_] => 0,
            [0, 1] => 2,
            [2, 3] => 3,
            [1, 2, 3] => 4,
            other => 2 * (other.len() as i64 - 1) + 10,
        };
        let total = Exact::from_integer(penalty.into());
        Terminal { queries_per_code: 0, penalty_total: total, penalised: Vec::new(), penalised_uniform: Vec::new() }
    }
    fn root_class_key(&self, q: QueryId) -> u64 {
        q as u64
    }
}

impl Presentation for TwoQuestions {
    fn name(&self) -> String {
        "two-questions".into()
    }
    fn query_label(&self, q: QueryId) -> String {
        format!("q{q}")
    }
}

impl SpeedHooks for TwoQuestions {
    fn has_solving_answers(&self) -> bool {
        false
    }
    fn terminal_floor(&self) -> u64 {
        2
    }
}
impl Symmetry for TwoQuestions {}
impl MemoKeys for TwoQuestions {}
impl TiePreference for TwoQuestions {}

#[test]
fn a_cheap_terminal_set_is_not_pruned_by_a_huffman_bound() {
    let (result, _) = solve_perfect(&TwoQuestions);
    assert_eq!(result.total, 24);
}
