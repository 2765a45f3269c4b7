//! Upper bounds from exact subtree optima (issue 53 item 5): the H_α strategy
//! above, perfect play below every node of at most N codes. The bound lies
//! between the optimum and the H_α total, equals H_α's total with no node
//! solved exactly and the optimum once the leaf size covers the root, and its
//! tree replays to it.

mod common;
use common::{bin, one_line_error, scratch};

use num_traits::ToPrimitive;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::progress::Progress;
use renyi_search::search::analysis::{RunOptions, analyze};
use renyi_search::search::perfect::{solve_perfect, upper_from_strategy};
use renyi_search::search::strategy::{Strategy, TieRule};
use renyi_search::search::tree::{Replay, verify};
use renyi_search::search::{Rules, SearchProblem};

fn h_alpha(alpha: &str) -> Strategy {
    Strategy::new(alpha.parse().unwrap(), TieRule::lex())
}

/// The bound at each leaf size, checked against H_α's total and the optimum.
fn bounds<P: SearchProblem + Replay>(game: &P, alpha: &str, sizes: &[u64]) -> Vec<u64> {
    let heuristic = analyze(game, h_alpha(alpha), RunOptions::default()).exact_total().to_integer().to_u64().unwrap();
    let optimum = solve_perfect(game).0.total;
    let mut found = Vec::new();
    for &n in sizes {
        let upper = upper_from_strategy(game, h_alpha(alpha), n, &Progress::none()).unwrap();
        assert!(optimum <= upper.total && upper.total <= heuristic, "leaf size {n}: {}", upper.total);
        assert_eq!(verify(game, &upper.tree).unwrap().total, upper.total);
        assert_eq!(upper.given_up, 0);
        if n <= 1 {
            assert_eq!((upper.total, upper.exact_leaves), (heuristic, 0), "no node solved exactly");
        }
        if n >= game.code_count() as u64 {
            assert_eq!((upper.total, upper.exact_leaves, upper.strategy_nodes), (optimum, 1, 0));
        }
        found.push(upper.total);
    }
    // A larger leaf size replaces whole H_α subtrees by optima: never worse.
    assert!(found.windows(2).all(|w| w[1] <= w[0]), "{found:?}");
    found
}

#[test]
fn mastermind_3_4_between_the_optimum_206_and_h_alpha() {
    let mm = Mastermind::new(3, 4, false).unwrap();
    assert_eq!(mm.code_count(), 64);
    // H_1 LEX takes 208; its subtrees of up to 16 codes are optimal already.
    assert_eq!(bounds(&mm, "1", &[0, 1, 4, 8, 16, 64]), [208, 208, 208, 208, 208, 206]);
}

#[test]
fn beams_3c6p_between_the_optimum_7334_and_h_alpha() {
    let g = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let all = g.code_count() as u64;
    assert_eq!(all, 1860);
    assert_eq!(bounds(&g, "1717/2000", &[0, 8, 32, 128, all]), [7408, 7388, 7367, 7342, 7334]);
}

#[test]
fn upper_from_on_the_command_line_writes_a_tree_verify_replays() {
    let dir = scratch("perfect-upper");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("beams.json");
    let path = file.to_str().unwrap();
    let args = ["perfect", "beams", "3c6p", "--upper-from", "1717/2000", "--leaf-size", "1000", "--tree", path];
    let out = bin(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains("total  ≤ 7334"), "{text}");
    let checked = bin(&["verify", path]);
    assert!(String::from_utf8_lossy(&checked.stdout).contains("7334"), "{checked:?}");
    for bad in [
        &["perfect", "beams", "3c6p", "--upper-from", "1"][..],
        &["perfect", "beams", "3c6p", "--leaf-size", "8"],
        &["perfect", "beams", "3c6p", "--upper-from", "1", "--leaf-size", "8", "--max-depth", "9"],
        &["perfect", "beams", "3c6p", "--upper-from", "x", "--leaf-size", "8"],
    ] {
        one_line_error(bad);
    }
}
