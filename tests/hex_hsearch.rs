//! H-search (Def 3.1 of seed 004) on the reconstructed graph of Satz 4.6 and on
//! small boards, checked against plain exhaustive play (Satz 4.1).

use renyi_search::two_player::connection::hex::graph::figure_4;
use renyi_search::two_player::connection::hex::hsearch::{Limits, h_search};
use renyi_search::two_player::connection::hex::plain::graph_connects;

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
            let (vc, scs, _) = h_search_edge_answer(&pg.graph, Limits::SOLVER, (x, y), &mut scratch);
            assert_eq!(vc, general.smallest_vc(x, y));
            assert_eq!(scs, general.scs(x, y));
            with_vc += usize::from(vc.is_some());
            with_scs += usize::from(vc.is_none() && !scs.is_empty());
        }
    }
    assert!(with_vc > 0 && with_scs > 0, "{with_vc} with a VC, {with_scs} with SCs only");
}
