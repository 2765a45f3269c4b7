//! H-search (Def 3.1 of seed 004) on the reconstructed graph of Satz 4.6 and on
//! small boards, checked against plain exhaustive play (Satz 4.1).

use renyi_search::two_player::connection::hex::graph::figure_4;
use renyi_search::two_player::connection::hex::hsearch::{Limits, h_search};
use renyi_search::two_player::connection::hex::plain::graph_connects;
use renyi_search::two_player::connection::hex::solver::Solver;

#[test]
fn figure_4_counts_and_no_vc() {
    let (g, x, y) = figure_4();
    assert_eq!((g.len(), g.edge_count()), (24, 32));
    let found = h_search(&g, Limits::EXHAUSTIVE);
    assert_eq!(found.all(false).len(), 186);
    assert_eq!(found.all(true).len(), 568);
    assert!(found.vcs(x, y).is_empty() && found.scs(x, y).is_empty());
    // White connects x–y with Black to move (seed §9.10).
    assert!(graph_connects(&g, x, y, g.free(), false));
}

#[test]
fn bridge_and_second_row_template() {
    use renyi_search::two_player::connection::hex::board::Colour;
    use renyi_search::two_player::connection::hex::graph::HexGraph;
    use renyi_search::two_player::connection::hex::position::Position;
    // Seed §9.18: a Black stone on the second row has a VC to the top edge with carrier its two top neighbours.
    let p = Position::from_diagram(". . . .\n. B . .\n. . . .\n. . . .", Colour::White).unwrap();
    let pg = HexGraph::from_position(&p, Colour::Black);
    let stone = pg.graph.names.iter().position(|n| n == "b2").unwrap();
    let found = h_search(&pg.graph, Limits::EXHAUSTIVE);
    let carriers: Vec<String> = found.vcs(pg.edges.0, stone).iter().map(|&c| pg.graph.set_names(c)).collect();
    assert_eq!(carriers, ["b1,c1"]);
}

#[test]
fn satz_5_4_and_dvls_on_random_graphs() {
    use renyi_search::two_player::connection::hex::seed_checks::{Rng, av_plus_unneeded, dvls_agrees, random_graph};
    let mut rng = Rng::new(7);
    for k in 0..10 {
        assert!(av_plus_unneeded(&random_graph(8 + k % 3, 3, 30, &mut rng)));
        let (pairs, differ) = dvls_agrees(&random_graph(7 + k % 2, 2 * (k % 2), 35, &mut rng));
        assert!(pairs > 0);
        assert_eq!(differ, 0);
    }
}

/// Def 7.1 (VVLS, forward-connecting): a bridge is one (each move next to x, then next to y); a
/// path of two free cells is neither a VVLS nor a DVLS; on random graphs every VVLS is a DVLS
/// (seed l. 728) and some pairs have one.
#[test]
fn vvls_on_a_bridge_a_path_and_random_graphs() {
    use renyi_search::two_player::connection::hex::dvls::{dvls_exists, vvls_exists};
    use renyi_search::two_player::connection::hex::graph::HexGraph;
    use renyi_search::two_player::connection::hex::seed_checks::{Rng, random_graph, vvls_within_dvls};
    let bridge =
        HexGraph::from_names(&["x", "y", "a", "b"], &["x", "y"], &[("x", "a"), ("x", "b"), ("a", "y"), ("b", "y")])
            .unwrap();
    assert!(vvls_exists(&bridge, 0, 1, bridge.free()) && dvls_exists(&bridge, 0, 1, bridge.free()));
    let path = HexGraph::from_names(&["x", "y", "a", "b"], &["x", "y"], &[("x", "a"), ("a", "b"), ("b", "y")]).unwrap();
    assert!(!vvls_exists(&path, 0, 1, path.free()) && !dvls_exists(&path, 0, 1, path.free()));
    let mut rng = Rng::new(11);
    let (mut with, mut bad) = (0, 0);
    for k in 0..10 {
        let (_, v, b) = vvls_within_dvls(&random_graph(7 + k % 2, 2 * (k % 2), 35, &mut rng));
        (with, bad) = (with + v, bad + b);
    }
    assert!(with > 0);
    assert_eq!(bad, 0);
}

#[test]
fn soundness_on_all_3x3_positions() {
    use renyi_search::two_player::connection::hex::board::Board;
    use renyi_search::two_player::connection::hex::seed_checks::{all_positions, soundness_on_positions};
    let all = all_positions(&Board::new(3, 3).unwrap());
    let s = soundness_on_positions(&all, Limits::EXHAUSTIVE);
    assert!(s.vcs > 0 && s.scs > 0);
    assert_eq!(s.unsound, 0);
}

#[test]
fn edge_answer_in_64_bit_sets_equals_the_general_run() {
    use renyi_search::two_player::connection::hex::board::{Board, Colour};
    use renyi_search::two_player::connection::hex::graph::HexGraph;
    use renyi_search::two_player::connection::hex::hsearch::{Scratch, h_search_edge, h_search_edge_answer};
    use renyi_search::two_player::connection::hex::seed_checks::{Rng, random_positions};
    let board = Board::new(6, 6).expect("6x6");
    let (mut rng, mut scratch) = (Rng::new(51), Scratch::default());
    let (mut with_vc, mut with_scs) = (0, 0);
    for p in random_positions(&board, 8, 20, &mut rng) {
        for colour in [Colour::Black, Colour::White] {
            let pg = HexGraph::from_position(&p, colour);
            let (x, y) = pg.edges;
            let general = h_search_edge(&pg.graph, Limits::SOLVER, x, y);
            // One scratch for all runs: the reused tables must not leak from run to run.
            let (vc, scs, _) = h_search_edge_answer(&pg.graph, Limits::SOLVER, Limits::SOLVER, (x, y), &mut scratch);
            assert_eq!(vc, general.smallest_vc(x, y));
            assert_eq!(scs, general.scs(x, y));
            with_vc += usize::from(vc.is_some());
            with_scs += usize::from(vc.is_none() && !scs.is_empty());
        }
    }
    assert!(with_vc > 0 && with_scs > 0, "{with_vc} with a VC, {with_scs} with SCs only");
}

/// Wider limits for the edge pair alone (`Solver::edge_limits`).
const WIDE: Limits = Limits { max_or: 6, max_carrier: 24, av_plus: true, max_per_pair: 24 };

#[test]
fn wider_edge_limits_derive_only_real_connections_and_a_sound_mustplay() {
    // On random 5×5 positions, for each player X: H-search with the edge pair
    // at WIDE. An edge VC: X wins with the opponent to move; an edge SC: X wins
    // moving first; with SCs and no VC: every opponent move outside the
    // mustplay region (the SCs' intersection) loses (plain minimax).
    use renyi_search::two_player::connection::hex::board::{Board, Colour};
    use renyi_search::two_player::connection::hex::graph::HexGraph;
    use renyi_search::two_player::connection::hex::hsearch::{Scratch, h_search_edge_answer};
    use renyi_search::two_player::connection::hex::plain::board_winner;
    use renyi_search::two_player::connection::hex::position::Position;
    use renyi_search::two_player::connection::hex::seed_checks::{Rng, random_positions};
    let board = Board::new(5, 5).unwrap();
    let (mut rng, mut scratch) = (Rng::new(19), Scratch::default());
    let (mut vcs, mut outside) = (0, 0);
    for p in random_positions(&board, 12, 40, &mut rng) {
        for x in [Colour::Black, Colour::White] {
            let pg = HexGraph::from_position(&p, x);
            let (vc, scs, _) = h_search_edge_answer(&pg.graph, Limits::SOLVER, WIDE, pg.edges, &mut scratch);
            let region = |scs: &[u128]| scs.iter().fold(!0u128, |m, &c| m & pg.graph.board_cells(c));
            if vc.is_some() {
                vcs += 1;
                assert_eq!(board_winner(&Position { to_move: x.other(), ..p.clone() }), x, "{}", p.diagram());
                continue;
            }
            if scs.is_empty() {
                continue;
            }
            assert_eq!(board_winner(&Position { to_move: x, ..p.clone() }), x, "{}", p.diagram());
            let must = region(&scs);
            for c in (0..25).filter(|&c| (p.free() & !must) >> c & 1 == 1) {
                let mut q = Position { to_move: x.other(), ..p.clone() };
                q.play(x.other(), c).unwrap();
                assert_eq!(q.winner().unwrap_or_else(|| board_winner(&q)), x, "{}after {c}", p.diagram());
                outside += 1;
            }
        }
    }
    assert!(vcs >= 5 && outside >= 100, "{vcs} edge VCs, {outside} moves outside the mustplay region");
}

#[test]
fn dfpn_with_wider_edge_limits_agrees_with_minimax_and_its_proofs_check() {
    use renyi_search::two_player::connection::hex::board::{Board, Colour};
    use renyi_search::two_player::connection::hex::check::check_proof;
    use renyi_search::two_player::connection::hex::plain::board_winner;
    use renyi_search::two_player::connection::hex::position::Position;
    use renyi_search::two_player::connection::hex::proof::{Proof, ProofStep};
    use renyi_search::two_player::connection::hex::seed_checks::{Rng, random_positions};
    let mut rng = Rng::new(23);
    let (four, five) = (Board::new(4, 4).unwrap(), Board::new(5, 5).unwrap());
    let mut positions = random_positions(&four, 3, 20, &mut rng);
    positions.extend(random_positions(&five, 11, 10, &mut rng));
    let (mut checked, mut refused) = (0, 0);
    for (i, p) in positions.into_iter().enumerate() {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let mut solver = Solver::baseline(p.board.clone());
            solver.edge_limits = if i % 2 == 0 { WIDE } else { Limits { max_or: 8, max_carrier: 32, ..WIDE } };
            let all = i % 3 == 0;
            (solver.vulnerable, solver.support_cut, solver.transplant, solver.dominated) = (all, all, all, all);
            let proof = solver.proof(&p).unwrap();
            assert_eq!(proof.winner, board_winner(&p), "{}", p.diagram());
            let again = Proof::from_text(&proof.to_text()).unwrap();
            assert_eq!(again.steps, proof.steps);
            check_proof(&again).unwrap();
            checked += 1;
            // A forged step: a carrier emptied is refused (no chain is complete where a carrier is named).
            if let Some(i) = again.steps.iter().position(|s| matches!(s.3, ProofStep::Carrier(c, _) if c != 0)) {
                let mut forged = again.clone();
                let ProofStep::Carrier(_, by) = forged.steps[i].3 else { unreachable!() };
                forged.steps[i].3 = ProofStep::Carrier(0, by);
                assert!(check_proof(&forged).is_err(), "{}", forged.to_text());
                refused += 1;
            }
        }
    }
    assert_eq!(checked, 60);
    assert!(refused >= 20, "{refused} forged carriers refused");
}
