//! The tree analysis of the core against a plain per-code evaluator that plays
//! every secret on its own, choosing queries by pairwise exact comparison (no
//! floating-point band, no memo, no parallelism).

mod common;
use common::plain::lex_play;

use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::renyi::score::RenyiScore;
use renyi_search::search::{Presentation, Rules, RunOptions, Strategy, TieRule, analyze};

/// Plays `secret` with H_α-LEX (possible secrets first) and returns the number of guesses.
fn play(p: &Mastermind, score: &RenyiScore, secret: u32) -> u32 {
    let all: Vec<u32> = (0..p.code_count() as u32).collect();
    lex_play(p, score, &all, secret) as u32
}

fn plain_total(p: &Mastermind, alpha: Alpha) -> u64 {
    let score = RenyiScore::new(alpha);
    (0..p.code_count() as u32).map(|s| play(p, &score, s) as u64).sum()
}

#[test]
fn tree_analysis_equals_per_code_play_on_small_variants() {
    let variants = [(2, 3, false), (3, 3, false), (2, 4, false), (3, 4, true), (3, 5, true), (3, 4, false)];
    for (pegs, colors, distinct) in variants {
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        for alpha in ["0", "0.5", "1", "1.5", "2", "3", "inf"] {
            let alpha: Alpha = alpha.parse().unwrap();
            let tree = analyze(&mm, Strategy::new(alpha, TieRule::lex()), RunOptions::default());
            let plain = plain_total(&mm, alpha);
            assert_eq!(tree.total, plain.to_string(), "{} α={alpha}", mm.name());
        }
    }
}

/// MM(2,2) by hand: every first guess splits {AA,AB,BA,BB} as {2,1,1}; LEX plays
/// AA, then AB on {AB,BA}; depths AA 1, AB 2, BB 2, BA 3: total 8.
#[test]
fn mm_2_2_by_hand() {
    let mm = Mastermind::new(2, 2, false).unwrap();
    for alpha in ["0", "1", "2", "inf"] {
        for tie in [TieRule::lex(), TieRule::mix()] {
            let r = analyze(&mm, Strategy::new(alpha.parse().unwrap(), tie), RunOptions::default());
            assert_eq!(r.total, "8");
            assert_eq!(r.depth_histogram, vec!["0", "1", "2", "1"]);
        }
    }
    let lex = analyze(&mm, Strategy::new(Alpha::integer(1), TieRule::lex()), RunOptions::default());
    assert_eq!(lex.first_queries, vec!["AA"]);
}

/// The one-class-at-a-time expansion (the game's default `restrict`) equals
/// the full split on MM(3,4), LEX and MIX.
#[test]
fn class_by_class_expansion_equals_full_split() {
    let mm = Mastermind::new(3, 4, false).unwrap();
    let by_class = RunOptions { large_set_bytes: 0, ..RunOptions::default() };
    for tie in [TieRule::lex(), TieRule::mix()] {
        let strategy = Strategy::new(Alpha::integer(2), tie);
        let split = analyze(&mm, strategy, RunOptions::default());
        let one_by_one = analyze(&mm, strategy, by_class.clone());
        assert_eq!((one_by_one.total, one_by_one.depth_histogram), (split.total, split.depth_histogram), "{tie}");
    }
}

/// MM(2,3) by hand. Guess AB against the 9 secrets: AB (2,0); AA AC BB CB (1,0);
/// BA (0,2); BC CA (0,1); CC (0,0) — sizes {4,2,1,1,1}. Guess AA: {4,4,1}.
/// Both have max class 4, so H_∞ ties everything and LEX plays AA; H_0, H_1 and
/// H_2 prefer AB's five classes.
#[test]
fn mm_2_3_first_guess_by_hand() {
    let mm = Mastermind::new(2, 3, false).unwrap();
    let ab = mm.code_by_label("AB").unwrap();
    let mut sizes = std::collections::BTreeMap::new();
    for s in 0..9 {
        *sizes.entry(mm.black_white(ab, s)).or_insert(0) += 1;
    }
    let expected = [((0, 0), 1), ((0, 1), 2), ((0, 2), 1), ((1, 0), 4), ((2, 0), 1)];
    assert_eq!(sizes.into_iter().collect::<Vec<_>>(), expected.to_vec());
    let first = |alpha: Alpha| analyze(&mm, Strategy::new(alpha, TieRule::lex()), RunOptions::default()).first_queries;
    assert_eq!(first(Alpha::Infinity), vec!["AA"]);
    for a in [0, 1, 2] {
        assert_eq!(first(Alpha::integer(a)), vec!["AB"]);
    }
}
