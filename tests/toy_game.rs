//! The smallest complete deduction game on the public trait (ARCHITECTURE.md):
//! find a number in 0..8 by asking "is it below k?". Every H_α with α > 0
//! asks the balanced question (the unique maximum), so each of the 8 codes
//! needs exactly 3 queries: total 24, for both tie rules. H_0 ties every
//! two-class question, and LEX then asks "below 1" first: E(0) differs from
//! the limit α → 0+.

use renyi_search::curve::{Domain, Point, curve};
use renyi_search::search::{
    AnswerId, CodeId, Exact, MemoKeys, Presentation, QueryId, Rules, RunOptions, SpeedHooks, Strategy, Symmetry,
    Terminal, TiePreference, TieRule, analyze,
};

fn int(n: i64) -> Exact {
    Exact::from_integer(n.into())
}

struct Below;

impl Rules for Below {
    type State = ();
    type Set = Vec<CodeId>;
    fn code_count(&self) -> usize {
        8
    }
    fn query_count(&self) -> usize {
        9
    }
    fn answer_count(&self) -> usize {
        2
    }
    fn initial_state(&self) {}
    fn is_admissible(&self, _: &(), _: QueryId) -> bool {
        true
    }
    fn next_state(&self, _: &(), _: QueryId) {}
    fn full_set(&self) -> Vec<CodeId> {
        (0..8).collect()
    }
    fn set_size(&self, set: &Vec<CodeId>) -> u64 {
        set.len() as u64
    }
    fn count_answers(&self, k: QueryId, set: &Vec<CodeId>, counts: &mut [u64]) {
        counts.fill(0);
        set.iter().for_each(|&c| counts[(c < k) as usize] += 1);
    }
    fn split(&self, k: QueryId, set: &Vec<CodeId>) -> Vec<(AnswerId, Vec<CodeId>)> {
        let (yes, no): (Vec<CodeId>, Vec<CodeId>) = set.iter().partition(|&&c| c < k);
        [(0, no), (1, yes)].into_iter().filter(|(_, s)| !s.is_empty()).collect()
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        None
    }
    fn terminal(&self, _: &Vec<CodeId>) -> Terminal {
        Terminal { queries_per_code: 0, penalty_total: int(0), penalised: Vec::new(), penalised_uniform: Vec::new() }
    }
    fn root_class_key(&self, q: QueryId) -> u64 {
        q as u64
    }
}

impl Presentation for Below {
    fn name(&self) -> String {
        "below-8".into()
    }
    fn query_label(&self, k: QueryId) -> String {
        format!("<{k}")
    }
}

// No capability beyond the rules: every default applies.
impl SpeedHooks for Below {}
impl Symmetry for Below {}
impl MemoKeys for Below {}
impl TiePreference for Below {}

#[test]
fn toy_game_needs_three_queries_per_code() {
    for alpha in ["0.5", "1", "2", "inf"] {
        for tie in [TieRule::lex(), TieRule::mix()] {
            let a = analyze(&Below, Strategy::new(alpha.parse().unwrap(), tie), RunOptions::default());
            assert_eq!(a.exact_total(), int(24), "α = {alpha}");
            assert_eq!(a.max_depth, 3);
        }
    }
    let c = curve(&Below, TieRule::lex(), &Domain::closed(Point::zero(), Point::infinity()), None);
    let at_zero = analyze(&Below, Strategy::new("0".parse().unwrap(), TieRule::lex()), RunOptions::default());
    // 1 + 2 + … + 7 + 7: the codes 0..6 are split off one at a time.
    assert_eq!(at_zero.exact_total(), int(35));
    assert_eq!(c.segments[0].total(), int(35));
    assert!(c.segments[1..].iter().all(|s| s.total() == int(24)));
}
