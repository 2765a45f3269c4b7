//! Issue 50 item 4 at M = 5: Short's tree strategy on a shrinking core
//! (`reduced_check`), checked against every Cut play up to isomorphism; its
//! graph steps (live edges, canonical form) against brute force; a broken
//! strategy caught; the strategy on the board against random Cut play; the
//! exploit search stopped at its memory limit.

use proptest::prelude::*;
use renyi_search::memory::SharedBudget;
use renyi_search::two_player::connection::bridgit::analysis::{CutTies, EXPLOIT_BYTES_PER_POSITION, ExploitSearch};
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::core_graph::{Net, Reduced, canonical, reduce, relabel};
use renyi_search::two_player::connection::bridgit::heuristic::best_edges;
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::reduced_check::{CoreStrategy, Rule, check_board};
use renyi_search::two_player::connection::bridgit::solver::Solver;
use std::sync::Arc;

/// Edges on some simple path from node 0 to node 1, by enumerating the paths.
fn on_simple_paths(nodes: usize, edges: &[(u32, u32)]) -> Vec<bool> {
    fn go(at: u32, edges: &[(u32, u32)], seen: &mut Vec<bool>, path: &mut Vec<usize>, live: &mut Vec<bool>) {
        if at == 1 {
            path.iter().for_each(|&e| live[e] = true);
            return;
        }
        for (e, &(u, v)) in edges.iter().enumerate() {
            let next = if u == at {
                v
            } else if v == at {
                u
            } else {
                continue;
            };
            if u != v && !seen[next as usize] {
                seen[next as usize] = true;
                path.push(e);
                go(next, edges, seen, path, live);
                path.pop();
                seen[next as usize] = false;
            }
        }
    }
    let (mut seen, mut live) = (vec![false; nodes], vec![false; edges.len()]);
    seen[0] = true;
    go(0, edges, &mut seen, &mut Vec::new(), &mut live);
    live
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn reduce_keeps_exactly_the_edges_on_simple_paths(
        nodes in 2usize..8, raw in prop::collection::vec((0u32..8, 0u32..8), 1..=12)
    ) {
        let edges: Vec<(u32, u32)> = raw.into_iter().map(|(u, v)| (u % nodes as u32, v % nodes as u32)).collect();
        let live = on_simple_paths(nodes, &edges);
        match reduce(nodes, &edges, 0, 1) {
            Reduced::Live(net, map) => {
                prop_assert_eq!(map.iter().map(Option::is_some).collect::<Vec<_>>(), live);
                prop_assert_eq!(net.edges.len(), map.iter().flatten().count());
            }
            Reduced::CutWon => prop_assert!(live.iter().all(|&l| !l)),
            Reduced::ShortWon => prop_assert!(false, "0 ≠ 1"),
        }
    }

    #[test]
    fn canonical_form_ignores_node_and_edge_names(
        raw in prop::collection::vec((0u8..7, 0u8..7), 1..=14), shuffle in any::<u64>()
    ) {
        let edges: Vec<(u8, u8)> = raw.into_iter().filter(|(u, v)| u != v).collect();
        prop_assume!(!edges.is_empty());
        let net = Net { nodes: 7, edges };
        // Rename the nodes 2..7 and reverse the edge list; A = 0 and B = 1 stay.
        let mut names: Vec<u8> = (0..7).collect();
        let mut x = shuffle | 1;
        for i in (3..7).rev() {
            x ^= x << 13; x ^= x >> 7; x ^= x << 17;
            names.swap(i, 2 + (x % (i as u64 - 1)) as usize);
        }
        let renamed = Net {
            nodes: 7,
            edges: net.edges.iter().rev().map(|&(u, v)| (names[v as usize], names[u as usize])).collect(),
        };
        prop_assert_eq!(relabel(&net, &canonical(&net)).0, relabel(&renamed, &canonical(&renamed)).0);
    }
}

#[test]
fn tree_strategy_never_loses_bridgit_2_to_4() {
    let mut counts = Vec::new();
    for m in 2..=4 {
        let r = check_board(&Board::bridgit(m).unwrap(), Rule::Repair, |_, _| true).unwrap();
        assert!(r.complete && r.failure.is_none() && r.without_trees == 0, "M = {m}: {r:?}");
        counts.push((r.states, r.cut_moves));
    }
    // M = 2 is won by the couples alone; the raw check (tree_check) visits 1 155 375 states at M = 4.
    assert_eq!(counts, [(0, 0), (2, 16), (104, 1326)]);
}

/// The check at M = 5 (about 15 CPU-s; `reproduce bridg-it` runs it too).
#[test]
#[ignore]
fn tree_strategy_never_loses_bridgit_5() {
    let clock = std::time::Instant::now();
    let r = check_board(&Board::bridgit(5).unwrap(), Rule::Repair, |n, states| {
        println!("M = 5: {states} cores of {n} nodes, {:.1} s", clock.elapsed().as_secs_f64());
        true
    })
    .unwrap();
    println!("{r:?}");
    assert!(r.complete && r.failure.is_none() && r.without_trees == 0, "{r:?}");
    assert_eq!((r.states, r.cut_moves, r.most_waiting), (59_919, 1_170_747, 42_829));
}

#[test]
fn broken_strategy_is_caught_on_bridgit_3() {
    // No repair: after a hit in one tree, the first edge of the other, reconnecting or not; no couples.
    let r = check_board(&Board::bridgit(3).unwrap(), Rule::NoRepair, |_, _| true).unwrap();
    assert!(!r.complete, "{r:?}");
    assert!(r.failure.as_deref().is_some_and(|f| f.starts_with("Cut wins")), "{r:?}");
}

/// Games of the board strategy against a Cut that plays uniformly at random (xorshift, fixed seed).
fn short_losses(m: usize, rule: Rule, games: usize) -> usize {
    let b = Board::bridgit(m).unwrap();
    let mut x = 0x9e37_79b9_7f4a_7c15u64 ^ m as u64;
    let mut lost = 0;
    for _ in 0..games {
        let (opening, mut s) = CoreStrategy::opening(&b, rule).unwrap();
        let mut pos = Position::start(&b, Player::Short).play(opening);
        while pos.winner(&b).is_none() {
            let free = pos.free_edges(&b);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let cut = free[(x % free.len() as u64) as usize];
            pos = pos.play(cut);
            if pos.winner(&b).is_none() {
                let mark = s.answer(&b, &pos, cut).unwrap();
                assert!(pos.is_free(mark), "M = {m}: Short marks a played edge");
                pos = pos.play(mark);
            }
        }
        lost += usize::from(pos.winner(&b) == Some(Player::Cut));
    }
    lost
}

#[test]
fn board_strategy_wins_against_random_cut() {
    for (m, games) in [(2, 50), (3, 200), (4, 200), (5, 100)] {
        assert_eq!(short_losses(m, Rule::Repair, games), 0, "M = {m}");
    }
    assert!(short_losses(3, Rule::NoRepair, 200) > 0);
}

#[test]
fn exploit_search_stops_at_its_limit() {
    let b = Board::bridgit(3).unwrap();
    let start = Position::start(&b, Player::Cut);
    let openings = best_edges(&b, &start, &Solver::Direct);
    let verdicts = |limit: Option<u64>| -> Result<Vec<bool>, String> {
        let mut s = ExploitSearch::new(&b, CutTies::AgainstShort);
        if let Some(bytes) = limit {
            s = s.with_limit(Arc::new(SharedBudget::new(bytes)));
        }
        openings.iter().map(|&e| s.short_wins(&start.play(e)).map_err(|e| e.to_string())).collect()
    };
    let free = verdicts(None).unwrap();
    // M = 3 takes 2 843 positions with every tie against Short (docs/bridg-it.md).
    assert_eq!(verdicts(Some(3000 * EXPLOIT_BYTES_PER_POSITION)), Ok(free));
    let err = verdicts(Some(100 * EXPLOIT_BYTES_PER_POSITION)).unwrap_err();
    assert!(err.contains("passed its limit of 100 positions") && !err.contains('\n'), "{err}");
}
