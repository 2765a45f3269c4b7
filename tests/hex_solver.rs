//! The exact Hex solver (H-search pruning, transposition table) against plain
//! exhaustive minimax on small boards, and its proofs replayed by the
//! independent checker.

use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::plain::board_winner;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::Proof;
use renyi_search::two_player::connection::hex::solver::Solver;

/// Every opening of a cols×rows board: the solver's winner equals plain minimax,
/// and the proof of every opening passes the checker (also after a text round trip).
fn openings_agree(cols: usize, rows: usize) -> Vec<bool> {
    let board = Board::new(cols, rows).unwrap();
    let mut solver = Solver::new(board.clone());
    let mut first_wins = Vec::new();
    for cell in 0..board.cells() {
        let mut p = Position::empty(board.clone());
        p.play(Colour::Black, cell).unwrap();
        let plain = board_winner(&p);
        let proof = solver.proof(&p).unwrap();
        assert_eq!(proof.winner, plain, "{cols}x{rows} opening {}", board.cell_name(cell));
        let again = Proof::from_text(&proof.to_text()).unwrap();
        check_proof(&again).unwrap();
        first_wins.push(plain == Colour::Black);
    }
    first_wins
}

#[test]
fn small_boards_match_plain_minimax() {
    for n in 1..=3 {
        let wins = openings_agree(n, n);
        assert!(wins.iter().any(|&w| w), "first player wins {n}x{n} (Satz 1.2)");
    }
    // 3x3: plain minimax finds five winning openings, symmetric under the half turn.
    let board = Board::new(3, 3).unwrap();
    let wins = openings_agree(3, 3);
    let names: Vec<String> = (0..9).filter(|&c| wins[c]).map(|c| board.cell_name(c)).collect();
    assert_eq!(names, ["c1", "a2", "b2", "c2", "a3"]);
    // Non-square: the player whose edges are nearer wins whatever the opening.
    assert!(openings_agree(3, 2).iter().all(|&w| w));
}

#[test]
fn four_by_four_matches_plain_minimax() {
    let wins = openings_agree(4, 4);
    assert!(wins.iter().any(|&w| w));
}

#[test]
fn proofs_with_a_wrong_winner_are_refused() {
    let board = Board::new(3, 3).unwrap();
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, 0).unwrap();
    let mut solver = Solver::new(board);
    let mut proof = solver.proof(&p).unwrap();
    proof.winner = proof.winner.other();
    assert!(check_proof(&proof).is_err());
}
