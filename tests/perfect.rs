//! Perfect strategies (thesis Satz 4.2; issue: branch-and-bound with certified
//! trees): the branch-and-bound against exhaustive minimisation on small games,
//! the published values, and the exported trees replayed code by code.

mod common;

use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::perfect::solve_perfect;
use renyi_search::search::tree::{TreeNode, export, verify};
use renyi_search::search::{Presentation, Rules, SearchProblem, SpeedHooks};
use std::collections::HashMap;

/// Exhaustive minimum of T over all sensible queries, memoised on (state, set).
fn brute<P: SearchProblem>(p: &P, state: &P::State, set: &P::Set, memo: &mut HashMap<(P::State, P::Set), u64>) -> u64 {
    let t = p.terminal(set);
    let leaf = t.queries_per_code as u64 * p.set_size(set) + t.penalty_total.to_integer().try_into().unwrap_or(0u64);
    if p.set_size(set) == 1 {
        return leaf;
    }
    if let Some(&v) = memo.get(&(state.clone(), set.clone())) {
        return v;
    }
    let mut best = u64::MAX;
    for q in (0..p.query_count() as u32).filter(|&q| p.is_admissible(state, q)) {
        let classes = p.split(q, set);
        if classes.len() < 2 {
            continue;
        }
        let next = p.next_state(state, q);
        let solving = p.solving_answer(q);
        let total = p.set_size(set)
            + classes.iter().filter(|(a, _)| Some(*a) != solving).map(|(_, c)| brute(p, &next, c, memo)).sum::<u64>();
        best = best.min(total);
    }
    let v = if best == u64::MAX { leaf } else { best };
    memo.insert((state.clone(), set.clone()), v);
    v
}

#[test]
fn branch_and_bound_equals_exhaustive_search() {
    for (pegs, colors, distinct) in
        [(2, 3, false), (2, 4, false), (3, 3, false), (3, 4, true), (3, 5, true), (3, 4, false)]
    {
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        let (r, _) = solve_perfect(&mm);
        assert_eq!(r.total, brute(&mm, &(), &mm.full_set(), &mut HashMap::new()), "{}", mm.name());
        assert!(r.lower_bound_at_root <= r.total);
    }
}

#[test]
fn counting_bound_of_the_thesis() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let search = renyi_search::search::perfect::PerfectSearch::new(&mm);
    assert_eq!(search.lower_bound(1296), 4986, "1·1 + 13·2 + 13²·3 + 1113·4");
    let junior = Mastermind::new(4, 6, true).unwrap();
    // with 11 answers (10 not solving) the bound is sharper than the thesis' 1242
    assert_eq!(renyi_search::search::perfect::PerfectSearch::new(&junior).lower_bound(360), 1317);
}

#[test]
fn mm360_perfect_is_1446_and_its_tree_verifies() {
    let mm = Mastermind::new(4, 6, true).unwrap();
    let (r, search) = solve_perfect(&mm);
    assert_eq!(r.total, 1446);
    let tree = export(&search, &mm).unwrap();
    let v = verify(&mm, &tree).unwrap();
    assert_eq!((v.total, v.codes), (1446, 360));
}

#[test]
fn beams_3c6p_perfect_is_7334_not_7347() {
    let g = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let (r, search) = solve_perfect(&g);
    assert_eq!(r.total, 7334);
    let tree = export(&search, &g).unwrap();
    assert_eq!(verify(&g, &tree).unwrap().total, 7334);
}

#[test]
fn verifier_rejects_broken_trees() {
    let mm = Mastermind::new(3, 3, false).unwrap();
    let (_, search) = solve_perfect(&mm);
    let tree = export(&search, &mm).unwrap();
    let TreeNode::Ask { query, label, mut children } = tree.clone() else { panic!("root asks") };
    let dropped = children.remove(0);
    let err = verify(&mm, &TreeNode::Ask { query, label: label.clone(), children: children.clone() }).unwrap_err();
    assert!(err.to_string().contains("has no branch"), "{err}");
    // a leaf claiming a code that does not reach it
    let mut bad = children.clone();
    bad.insert(0, (dropped.0, TreeNode::Stop { codes: vec![0, 1] }));
    let err = verify(&mm, &TreeNode::Ask { query, label, children: bad }).unwrap_err();
    assert!(err.to_string().contains("leaf"), "{err}");
}

/// MM-1296 = 5625 (Koyama–Lai; thesis §4.3), with symmetry elimination, and its tree.
#[test]
fn mm1296_perfect_is_5625() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let (r, search) = solve_perfect(&mm);
    assert_eq!(r.total, 5625);
    let v = verify(&mm, &export(&search, &mm).unwrap()).unwrap();
    assert_eq!((v.total, v.codes), (5625, 1296));
}

/// MM(3,8): the per-set symmetry search (colour-at-peg counts) gives the
/// optimum found before without any symmetry reduction (710 000 nodes then).
#[test]
fn mm_3_8_perfect_is_2359_with_symmetry_reduction() {
    let (r, _) = solve_perfect(&Mastermind::new(3, 8, false).unwrap());
    assert_eq!(r.total, 2359);
    assert!(r.nodes < 100_000, "symmetry reduction applies ({} nodes)", r.nodes);
}

/// The committed MM(4,7) optimum (11228 = 4.676385 × 2401, Ville 2013: 4.676)
/// replays code by code to its total (the search takes minutes: `reproduce perfect`).
#[test]
fn committed_mm_4_7_tree_verifies_to_11228() {
    use renyi_search::search::tree::StrategyFile;
    let text = std::fs::read_to_string(common::root().join("results/data/trees/perfect-mm47.json")).unwrap();
    let file: StrategyFile<renyi_search::games::GameSpec> = serde_json::from_str(&text).unwrap();
    let checked = verify(&Mastermind::new(4, 7, false).unwrap(), &file.tree).unwrap();
    assert_eq!((checked.total, file.total), (11228, 11228));
}

/// `perfect --after`: the optimum of a subtree (Subproblem::after) equals the
/// exhaustive minimum of that node, on every node one query below the root
/// of MM(3,4) and on small nodes two queries deep in Beams(3c,6p) (whose state, the
/// used diagonals, carries over); and the root optimum is the best first query
/// plus the optima below it.
#[test]
fn subtree_optima_equal_exhaustive_search_and_add_up_to_the_root() {
    use renyi_search::progress::Progress;
    use renyi_search::search::perfect::{Constraints, Objective, TableKeys, optimise};
    use renyi_search::search::subproblem::Subproblem;
    let solve = |node: &Subproblem<'_, Mastermind>| {
        let none = Constraints { max_depth: None, possible_only: false };
        optimise(node, none, Objective::Total, TableKeys::Exact, &Progress::none()).unwrap().result.unwrap().total
    };
    let mm = Mastermind::new(3, 4, false).unwrap();
    let (root, _) = solve_perfect(&mm);
    let mut memo = HashMap::new();
    let mut best_first = u64::MAX;
    for q in 0..mm.query_count() as u32 {
        let mut total = mm.set_size(&mm.full_set());
        for (a, class) in mm.split(q, &mm.full_set()) {
            if mm.solving_answer(q) == Some(a) {
                continue;
            }
            let node = Subproblem::after(&mm, &[(q, a)], false).unwrap();
            let below = solve(&node);
            assert_eq!(below, brute(&mm, &(), &class, &mut memo), "MM(3,4) after {q}:{a}");
            total += below;
        }
        best_first = best_first.min(total);
    }
    assert_eq!(best_first, root.total);
    let g = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let mut memo = HashMap::new();
    let mut checked = 0;
    for (q1, a1) in [(0u32, 0u16), (0, 1), (0, 3)] {
        let first = g.restrict(q1, a1, &g.full_set());
        let state = g.next_state(&g.initial_state(), q1);
        for q2 in (0..g.query_count() as u32).filter(|&q| g.is_admissible(&state, q)).take(3) {
            for (a2, class) in g.split(q2, &first).into_iter().filter(|(_, c)| g.set_size(c) <= 12).take(4) {
                let node = Subproblem::after(&g, &[(q1, a1), (q2, a2)], false).unwrap();
                let none = Constraints { max_depth: None, possible_only: false };
                let below = optimise(&node, none, Objective::Total, TableKeys::Exact, &Progress::none());
                let below = below.unwrap().result.unwrap().total;
                assert_eq!(below, brute(&g, &g.next_state(&state, q2), &class, &mut memo), "after {q1}:{a1},{q2}:{a2}");
                checked += 1;
            }
        }
    }
    assert!(checked >= 12, "{checked} Beams nodes");
    assert!(Subproblem::after(&mm, &[(0, 60)], false).is_err(), "an answer beyond the game's");
    // Hard mode: after AAA answered with no peg, A is no longer possible, so AAB (query 1) is refused.
    assert!(Subproblem::after(&mm, &[(0, 0), (1, 0)], false).is_ok());
    assert!(Subproblem::after(&mm, &[(0, 0), (1, 0)], true).is_err());
}

/// The lower bounds a failed search reports (fail-soft: the least bound over the ways on, kept
/// in the table) lie between the budget and the true optimum, on the full sets and on the classes
/// after each first query of small games, whether the search starts fresh or reuses its table
/// from searches under smaller budgets.
#[test]
fn failed_searches_report_bounds_between_budget_and_optimum() {
    use renyi_search::search::perfect::{PerfectSearch, UNCAPPED};
    let mut checked = 0;
    for (pegs, colors, distinct) in [(2, 3, false), (2, 4, false), (3, 3, false), (3, 4, true), (3, 4, false)] {
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        let mut memo = HashMap::new();
        let mut sets = vec![mm.full_set()];
        for q in [0, 1, mm.query_count() as u32 - 1] {
            sets.extend(mm.split(q, &mm.full_set()).into_iter().map(|(_, c)| c).filter(|c| mm.set_size(c) > 2));
        }
        for set in &sets {
            let optimum = brute(&mm, &(), set, &mut memo);
            let reused = PerfectSearch::new(&mm);
            for budget in 1..=optimum + 2 {
                for search in [&PerfectSearch::new(&mm), &reused] {
                    match search.solve(&(), set, UNCAPPED, budget) {
                        Ok(total) => assert!(total == optimum && optimum < budget, "{}: Ok({total})", mm.name()),
                        Err(lb) => assert!(
                            budget <= lb && lb <= optimum,
                            "{}: budget {budget}, bound {lb}, optimum {optimum}",
                            mm.name()
                        ),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 1000, "{checked}");
}

/// Mastermind's answer table is symmetric (the guess and the secret can
/// swap: black and white pegs stay), which its `answer_bytes` relies on to
/// read the answers to a code from the code's own row; the bytes it appends
/// are the table's answers, query by query, for sets of every length around
/// its blocks of eight codes and for queries in any order; its `answer_rows`
/// are the rows of the set's codes.
#[test]
fn mastermind_answer_bytes_read_a_symmetric_table() {
    for (pegs, colors, distinct) in [(2, 3, false), (3, 4, false), (4, 6, false), (4, 6, true)] {
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        let n = mm.code_count() as u32;
        for g in 0..n {
            for s in 0..n {
                assert_eq!(mm.answer(g, s), mm.answer(s, g), "{} {g} {s}", mm.name());
            }
        }
        let queries: Vec<u32> = (0..n).rev().step_by(3).chain([0, 0, n - 1]).collect();
        for m in [0u32, 1, 2, 7, 8, 9, 16, 17, 40] {
            let set: Vec<u32> = (0..n).step_by((n / m.max(1)).max(1) as usize).take(m as usize).collect();
            let mut out = vec![7u8, 9];
            assert!(mm.answer_bytes(&queries, &set, &mut out));
            assert_eq!(out.len(), 2 + queries.len() * set.len());
            assert_eq!(out[..2], [7, 9]);
            let mm = &mm;
            let expected: Vec<u8> =
                queries.iter().flat_map(|&q| set.iter().map(move |&c| mm.answer(q, c) as u8)).collect();
            assert_eq!(out[2..], expected[..], "{} m {m}", mm.name());
            // The rows of the set's codes (what the perfect search's masks are or-ed from):
            // row i at query q is q's answer to the set's i-th code, for every query id.
            let rows = mm.answer_rows(&set).unwrap();
            assert_eq!(rows.len(), set.len());
            for (row, &c) in rows.iter().zip(&set) {
                assert_eq!(row.len(), n as usize);
                assert!((0..n).all(|q| row[q as usize] == mm.answer(q, c) as u8), "{} code {c}", mm.name());
            }
        }
    }
}

/// Colours no code of the set has: queries with one other than the smallest such colour are
/// dropped, each for its image with those pegs set to the smallest (a smaller query, kept, with
/// the same answers to every code of the set); nothing is dropped with one absent colour or
/// without repetition.
#[test]
fn mastermind_drops_queries_with_absent_colours_for_their_image() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let n = mm.code_count() as u32;
    let colours = |q: u32| mm.code_label(q).into_bytes();
    // Codes of colours A..C only (D, E, F absent), every third: 27 codes, at least 24, so that
    // no transposition fixing the set is looked for (that rule has its own test below).
    let set: Vec<u32> = (0..n).filter(|&c| colours(c).iter().all(|&x| x <= b'C')).step_by(3).collect();
    assert_eq!(set.len(), 27);
    let mut kept: Vec<u32> = (0..n).collect();
    mm.drop_equivalent_queries(&set, &mut kept);
    assert_eq!(kept.len(), 4usize.pow(4), "colours A..D");
    assert!(kept.iter().all(|&q| colours(q).iter().all(|&x| x <= b'D')));
    for q in (0..n).filter(|q| kept.binary_search(q).is_err()) {
        let image: String = colours(q).iter().map(|&x| if x > b'D' { 'D' } else { x as char }).collect();
        let r = mm.code_by_label(&image).unwrap();
        assert!(r < q && kept.binary_search(&r).is_ok(), "{image}");
        assert!(set.iter().all(|&c| mm.answer(q, c) == mm.answer(r, c)), "{image}");
    }
    // One absent colour (F): nothing to merge.
    let with_d_e: Vec<u32> =
        set.iter().copied().chain(["DDDD", "EEEE"].map(|l| mm.code_by_label(l).unwrap())).collect();
    let mut all: Vec<u32> = (0..n).collect();
    mm.drop_equivalent_queries(&with_d_e, &mut all);
    assert_eq!(all.len(), n as usize);
    // Two (E, F): the queries with an F go.
    let with_d: Vec<u32> = set.iter().copied().chain(mm.code_by_label("DDDD")).collect();
    let mut all: Vec<u32> = (0..n).collect();
    mm.drop_equivalent_queries(&with_d, &mut all);
    assert_eq!(all.len(), 5usize.pow(4));
    let distinct = Mastermind::new(4, 6, true).unwrap();
    let mut all: Vec<u32> = (0..distinct.code_count() as u32).collect();
    distinct.drop_equivalent_queries(&vec![0], &mut all);
    assert_eq!(all.len(), 360);
}

/// Transpositions of two colours or two pegs that map a small set onto itself: each query such
/// a transposition lowers is dropped, and a smaller kept query has the same class size for every
/// answer (the same bound, H_1 and total); the least query of each such group stays.
#[test]
fn mastermind_drops_queries_a_transposition_fixing_the_set_lowers() {
    let mm = Mastermind::new(4, 5, false).unwrap();
    let n = mm.code_count() as u32;
    let id = |label: &str| mm.code_by_label(label).unwrap();
    // The codes answering AABB as ABCC does (one black, one white) and AAAB as ACCC does (one
    // black): 21 codes, C, D, E never named (all three in the set) and the first two pegs
    // interchangeable.
    let (aabb, abcc, aaab, accc) = (id("AABB"), id("ABCC"), id("AAAB"), id("ACCC"));
    let set: Vec<u32> = (0..n)
        .filter(|&s| mm.answer(aabb, s) == mm.answer(aabb, abcc) && mm.answer(aaab, s) == mm.answer(aaab, accc))
        .collect();
    assert_eq!(set.len(), 21);
    let sizes = |q: u32| {
        let mut counts = [0u32; 64];
        set.iter().for_each(|&c| counts[mm.answer(q, c) as usize] += 1);
        counts
    };
    let mut kept: Vec<u32> = (0..n).collect();
    mm.drop_equivalent_queries(&set, &mut kept);
    assert!(kept.len() < n as usize, "nothing dropped");
    for q in (0..n).filter(|q| kept.binary_search(q).is_err()) {
        let twin = kept.iter().take_while(|&&k| k < q).find(|&&k| sizes(k) == sizes(q));
        assert!(twin.is_some(), "{} dropped without a smaller twin", mm.code_label(q));
    }
    // Each kept query is the least of the queries with its class sizes per answer that the
    // transpositions reach: no two kept queries differ by swapping D and E.
    let swap_d_e = |q: u32| -> String {
        mm.code_label(q)
            .chars()
            .map(|x| match x {
                'D' => 'E',
                'E' => 'D',
                x => x,
            })
            .collect()
    };
    for &q in &kept {
        let image = id(&swap_d_e(q));
        assert!(image == q || kept.binary_search(&image).is_err(), "{} and its image", mm.code_label(q));
    }
}
