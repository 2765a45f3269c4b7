//! The fast search for the smallest witnesses of HEX ∖ HEXY (seed 004 §9.16, `witness.rs`)
//! against the plain one (`seed_checks::smallest_unproved`), its exact table against minimax,
//! and its bounded filter against exhaustive H-search.

mod common;

use renyi_search::progress::Progress;
use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::graph::HexGraph;
use renyi_search::two_player::connection::hex::hsearch::{Limits, Scratch};
use renyi_search::two_player::connection::hex::plain::board_winner;
use renyi_search::two_player::connection::hex::seed_checks::{Rng, all_positions, random_positions, smallest_unproved};
use renyi_search::two_player::connection::hex::witness::{
    ExactTable, FILTER, boards_of, edge_vc, half_turn, layer, smallest_witnesses,
};

#[test]
fn exact_table_equals_minimax_on_every_position() {
    for (c, r) in [(3, 3), (4, 2), (2, 4), (1, 5)] {
        let board = Board::new(c, r).unwrap();
        let table = ExactTable::new(&board);
        for p in all_positions(&board) {
            assert_eq!(table.winner(p.black, p.white, p.to_move), board_winner(&p), "{c}x{r}\n{}", p.diagram());
        }
    }
}

#[test]
fn layers_hold_every_placement_once() {
    let board = Board::new(3, 3).unwrap();
    let mut seen: Vec<(u128, u128)> = (0..=9).flat_map(|s| layer(9, s)).collect();
    let total = seen.len();
    seen.sort_unstable();
    seen.dedup();
    assert_eq!(seen.len(), total, "no placement twice");
    let positions =
        seen.iter().filter(|&&(b, w)| !board.connects(Colour::Black, b) && !board.connects(Colour::White, w));
    assert_eq!(positions.count(), all_positions(&board).len());
}

/// The fast search gives the plain search's answer (the same witnesses, here none) on every board
/// up to 9 cells, and per board the plain counts of positions and of positions won for the connector.
#[test]
fn fast_search_equals_the_plain_one_up_to_9_cells() {
    let plain = smallest_unproved(9);
    let fast = smallest_witnesses(9, &Progress::none());
    let key = |u: &renyi_search::two_player::connection::hex::seed_checks::Unproved| {
        (u.position.board.cols, u.position.board.rows, u.position.black, u.position.white, u.connector)
    };
    let fast_witnesses: Vec<_> = fast.last().unwrap().witnesses.iter().map(key).collect();
    assert_eq!(plain.iter().map(key).collect::<Vec<_>>(), fast_witnesses);
    assert_eq!(fast.len(), 9, "every cell count searched (no witness up to 9 cells)");
    for r in &fast {
        assert_eq!(r.boards.len(), boards_of(r.cells).len());
        for (count, board) in r.boards.iter().zip(boards_of(r.cells)) {
            let all = all_positions(&board);
            let won = all.iter().filter(|p| board_winner(p) == p.to_move.other()).count() as u64;
            assert_eq!((count.positions, count.won), (all.len() as u64, won), "{}x{}", board.cols, board.rows);
            assert_eq!(count.won, count.images + count.filtered + count.exhaustive);
            assert_eq!(count.stones, r.cells);
        }
    }
}

/// The bounded filter never settles a position that exhaustive H-search would flag: wherever the
/// bounded run derives an edge VC the exhaustive one does too (both players' graphs).
#[test]
fn the_bounded_filter_never_drops_a_flagged_position() {
    let mut rng = Rng::new(51);
    let mut scratch = Scratch::default();
    let (mut bounded, mut exhaustive, mut tried) = (0, 0, 0);
    for (c, r, stones, count) in
        [(4, 4, 2, 40), (4, 4, 5, 60), (4, 4, 8, 60), (5, 3, 4, 60), (3, 5, 6, 60), (5, 4, 7, 30)]
    {
        let board = Board::new(c, r).unwrap();
        for p in random_positions(&board, stones, count, &mut rng) {
            for colour in [Colour::Black, Colour::White] {
                let pg = HexGraph::from_position(&p, colour);
                if pg.edges.0 == pg.edges.1 {
                    continue;
                }
                tried += 1;
                let full = edge_vc(&pg.graph, Limits::EXHAUSTIVE, pg.edges, &mut scratch);
                if edge_vc(&pg.graph, FILTER, pg.edges, &mut scratch) {
                    bounded += 1;
                    assert!(full, "{c}x{r} {}:\n{}", colour.name(), p.diagram());
                }
                exhaustive += u32::from(full);
            }
        }
    }
    assert!(bounded > 100 && exhaustive >= bounded && tried > 600, "{bounded} {exhaustive} {tried}");
}

/// The half turn keeps the winner and the connector's edge VC.
#[test]
fn the_half_turn_keeps_winner_and_edge_vc() {
    let mut rng = Rng::new(16);
    let mut scratch = Scratch::default();
    for (c, r) in [(4, 4), (3, 5), (2, 6)] {
        let board = Board::new(c, r).unwrap();
        let table = ExactTable::new(&board);
        for p in random_positions(&board, 5, 40, &mut rng) {
            let n = board.cells();
            let (ib, iw) = (half_turn(n, p.black), half_turn(n, p.white));
            assert_eq!(table.winner(p.black, p.white, p.to_move), table.winner(ib, iw, p.to_move));
            let connector = p.to_move.other();
            let mut vc = |b: u128, w: u128| {
                let (own, other) = if connector == Colour::Black { (b, w) } else { (w, b) };
                let pg = HexGraph::from_stones(&board, own, other, connector);
                edge_vc(&pg.graph, Limits::EXHAUSTIVE, pg.edges, &mut scratch)
            };
            let here = vc(p.black, p.white);
            assert_eq!(here, vc(ib, iw), "{}", p.diagram());
        }
    }
}

/// The smallest witnesses (`reproduce --full hex-witness`): 12 cells, 2 stones, the two half-turn
/// images on 3×4; none on any board of up to 11 cells. Each verified again independently: the
/// df-pn solver's proof replayed by the checker, plain minimax, exhaustive H-search.
#[test]
fn the_smallest_witnesses_are_two_stones_on_3x4() {
    use renyi_search::two_player::connection::hex::check::check_proof;
    use renyi_search::two_player::connection::hex::hsearch::h_search;
    use renyi_search::two_player::connection::hex::position::Position;
    use renyi_search::two_player::connection::hex::solver::Solver;
    let results = smallest_witnesses(12, &Progress::none());
    assert_eq!(results.len(), 12);
    assert!(results[..11].iter().all(|r| r.witnesses.is_empty()));
    let last = &results[11];
    let diagrams: Vec<String> = last.witnesses.iter().map(|u| u.position.diagram()).collect();
    let expected = [
        Position::from_diagram("W B .\n . . .\n  . . .\n   . . .", Colour::Black).unwrap(),
        Position::from_diagram(". . .\n . . .\n  . . .\n   . B W", Colour::Black).unwrap(),
    ];
    assert_eq!(diagrams, expected.iter().map(Position::diagram).collect::<Vec<_>>());
    assert_eq!(last.stones(), Some(2));
    for p in &expected {
        assert_eq!(board_winner(p), Colour::White);
        let proof = Solver::new(p.board.clone()).proof(p).unwrap();
        assert_eq!(proof.winner, Colour::White);
        check_proof(&proof).unwrap();
        let pg = HexGraph::from_position(p, Colour::White);
        assert!(h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(pg.edges.0, pg.edges.1).is_empty());
    }
}

/// The plain search (a fresh minimax per position, exhaustive H-search on every won one) gives the
/// same witnesses: none up to 11 cells, the same two on 12 (about 1.5 s).
#[test]
fn the_plain_search_finds_the_same_12_cell_witnesses() {
    let plain: Vec<String> = smallest_unproved(12).iter().map(|u| u.position.diagram()).collect();
    let fast = smallest_witnesses(12, &Progress::none());
    assert_eq!(plain, fast[11].witnesses.iter().map(|u| u.position.diagram()).collect::<Vec<_>>());
}

/// The smallest square board with a witness is 4×4 (none on 2×2 and 3×3): six positions with two
/// stones, Black's first-row stone a1, b1 or c1 against White's a4 and their half-turn images,
/// each won for White with Black to move and without an edge-to-edge VC (verified as above).
#[test]
fn the_4x4_board_has_six_witnesses_with_two_stones() {
    use renyi_search::two_player::connection::hex::check::check_proof;
    use renyi_search::two_player::connection::hex::hsearch::h_search;
    use renyi_search::two_player::connection::hex::solver::Solver;
    use renyi_search::two_player::connection::hex::witness::search_board;
    for n in [2, 3] {
        let (count, found) = search_board(&Board::new(n, n).unwrap(), n * n, &Progress::none());
        assert!(found.is_empty() && count.stones == n * n && count.exhaustive == 0, "{n}x{n}");
    }
    let board = Board::new(4, 4).unwrap();
    let (count, found) = search_board(&board, 16, &Progress::none());
    assert_eq!((count.stones, count.witnesses, found.len()), (2, 6, 6));
    let names: Vec<(String, String)> =
        found.iter().map(|u| (board.set_names(u.position.black), board.set_names(u.position.white))).collect();
    let expected = [("a1", "a4"), ("b1", "a4"), ("c1", "a4"), ("b4", "d1"), ("c4", "d1"), ("d4", "d1")];
    assert_eq!(names, expected.map(|(b, w)| (b.to_string(), w.to_string())));
    for u in &found {
        let p = &u.position;
        assert_eq!((p.to_move, u.connector, board_winner(p)), (Colour::Black, Colour::White, Colour::White));
        let proof = Solver::new(board.clone()).proof(p).unwrap();
        assert_eq!(proof.winner, Colour::White);
        check_proof(&proof).unwrap();
        let pg = HexGraph::from_position(p, Colour::White);
        assert!(h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(pg.edges.0, pg.edges.1).is_empty());
    }
}

/// The committed, sealed table of `reproduce --full hex-witness`: its seal holds, it answers 12 cells
/// and 2 stones, and every witness in it (22: the smallest two and those per shape) is verified again.
#[test]
fn the_committed_witness_table_holds_and_its_witnesses_verify() {
    use renyi_search::reproduce::hex_witness::{answer, committed, reverify, shapes};
    let table = committed(&common::root().join("results")).unwrap().expect("a sealed table");
    assert_eq!((table.searched_to, table.witnesses.len()), (12, 2));
    assert_eq!(answer(&table), "2 witnesses with 12 cells and 2 stones (first: 3x4), none on smaller boards");
    assert_eq!(table.shapes.len(), shapes().len());
    let verified = reverify(&table).unwrap();
    assert_eq!(verified, vec![true; 22]);
}

/// Without `--full` the target only reads a committed table; with none, the run log says how to make it.
#[test]
fn hex_witness_without_full_reads_and_notes() {
    let dir = common::scratch_dir("repro-hex-witness");
    let out = common::bin(&["reproduce", "hex-witness", "--results", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("read from committed results, nothing recomputed"), "{stdout}");
    let log = std::fs::read_to_string(dir.join("runs/last-reproduce.log")).unwrap();
    assert!(log.contains("no sealed table yet"), "the run log has the note: {log}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Beyond the exact tables (20 cells): on 4×5 (White connects the 4 columns, Black to move) the
/// stones b1 (Black) and c1 (White) leave White a win (df-pn, its proof replayed by the checker)
/// without an edge-to-edge VC by exhaustive H-search: a 2-stone witness on a board of 20 cells.
#[test]
fn a_4x5_position_with_two_stones_is_a_witness() {
    use renyi_search::two_player::connection::hex::check::check_proof;
    use renyi_search::two_player::connection::hex::hsearch::h_search;
    use renyi_search::two_player::connection::hex::position::Position;
    use renyi_search::two_player::connection::hex::solver::Solver;
    let p = Position::from_lists(Board::new(4, 5).unwrap(), "b1", "c1", Colour::Black).unwrap();
    let proof = Solver::new(p.board.clone()).proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::White);
    check_proof(&proof).unwrap();
    let pg = HexGraph::from_position(&p, Colour::White);
    assert!(h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(pg.edges.0, pg.edges.1).is_empty());
}

/// The seed's second procedure on 3×4: the deterministic DVLS recursion (Alg 6.13, `dvls.rs`),
/// which never forms SCs or ORs carriers, finds no White edge-to-edge connection in either witness,
/// as exhaustive H-search finds none. On the empty 3×4 board the two disagree: H-search derives
/// White's edge VC (carrier: the whole board), the DVLS recursion finds none, though only the two
/// edges are occupied (Alg 6.13's precondition) — a counterexample to Kor 6.11 as the reference
/// states it (docs/hex.md, session 28, "Kor 6.11 on real boards").
#[test]
fn dvls_on_the_3x4_witnesses_and_on_the_empty_3x4_board() {
    use renyi_search::two_player::connection::hex::dvls::dvls_exists;
    use renyi_search::two_player::connection::hex::hsearch::h_search;
    use renyi_search::two_player::connection::hex::position::Position;
    let cases = [
        ("W B .\n . . .\n  . . .\n   . . .", false, false),
        (". . .\n . . .\n  . . .\n   . B W", false, false),
        (". . .\n . . .\n  . . .\n   . . .", true, false),
    ];
    for (diagram, by_h_search, by_dvls) in cases {
        let p = Position::from_diagram(diagram, Colour::Black).unwrap();
        let pg = HexGraph::from_position(&p, Colour::White);
        let (x, y) = pg.edges;
        let occupied = pg.graph.all() & !pg.graph.free();
        assert_eq!(occupied, 1 << x | 1 << y, "{diagram}: only the two edges are occupied");
        let vcs = h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(x, y).to_vec();
        assert_eq!(!vcs.is_empty(), by_h_search, "{diagram}");
        assert_eq!(dvls_exists(&pg.graph, x, y, pg.graph.free()), by_dvls, "{diagram}");
    }
}

/// The real-board part of the Kor 6.11 check as `reproduce hex` reports it: the empty boards of
/// 4 to 12 cells (both sides ≥ 2), both players: they disagree on 3×4 for White and on its transpose
/// 4×3 for Black only, each time with an H-search VC and no DVLS.
#[test]
fn dvls_against_h_search_on_the_empty_boards() {
    use renyi_search::two_player::connection::hex::seed_checks::dvls_on_empty_boards;
    let rows = dvls_on_empty_boards(12);
    assert_eq!(rows.len(), 2 * 12);
    let differ: Vec<(String, &str)> =
        rows.iter().filter(|r| r.h_search != r.dvls).map(|r| (r.board.clone(), r.player)).collect();
    assert_eq!(differ, [("3×4".to_string(), "white"), ("4×3".to_string(), "black")]);
    assert!(rows.iter().filter(|r| r.h_search != r.dvls).all(|r| r.h_search && !r.dvls));
}
