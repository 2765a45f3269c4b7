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
    let mut solver = Solver::baseline(board.clone());
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
    let mut solver = Solver::baseline(board);
    let mut proof = solver.proof(&p).unwrap();
    proof.winner = proof.winner.other();
    assert!(check_proof(&proof).is_err());
}

/// df-pn and the plain depth-first search against plain minimax on random 4×4
/// positions (both sides to move), every df-pn proof replayed by the checker.
#[test]
fn dfpn_and_depth_first_agree_with_minimax() {
    let board = Board::new(4, 4).unwrap();
    let mut checked = 0;
    // 3 to 5 stones: plain minimax on 11 to 13 free cells stays quick.
    for mut p in (0..36).filter_map(|round| random_position(&board, 51, round)) {
        for mover in [Colour::Black, Colour::White] {
            p.to_move = mover;
            let plain = board_winner(&p);
            let mut dfpn = Solver::baseline(board.clone());
            let mut dfs = Solver::baseline(board.clone());
            dfs.dfpn = false;
            let proof = dfpn.proof(&p).unwrap();
            assert_eq!(proof.winner, plain, "{}", p.diagram());
            assert_eq!(dfs.mover_wins(&p).unwrap(), plain == mover, "{}", p.diagram());
            check_proof(&proof).unwrap();
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} positions");
}

/// df-pn with the incremental H-search (connections kept two plies up reused)
/// against df-pn without it (the default) on every 5×5 opening: the same winner
/// (the committed map: 13 of 25 openings win for Black), every proof of the
/// reusing solver replayed by the checker, which trusts no reused connection.
#[test]
fn reused_h_search_keeps_every_5x5_value() {
    let board = Board::new(5, 5).unwrap();
    let (mut with, mut without) = (Solver::baseline(board.clone()), Solver::baseline(board.clone()));
    with.reuse = true;
    assert!(!without.reuse);
    assert_eq!(black_wins_5x5(&mut with, &mut without), 13);
}

/// The df-pn order settings (circuit move order, the dn of new children, the
/// 1+ε trick) change only the order of the search, and refutations carried to
/// sibling moves are real ones (the checker replays them): with each, one solver
/// (one table for all openings) gives every 5×5 opening the default solver's
/// winner (13 of 25 win for Black), every proof replayed by the checker.
#[test]
fn search_order_settings_keep_every_5x5_value() {
    let board = Board::new(5, 5).unwrap();
    let mut plain = Solver::baseline(board.clone());
    assert_eq!((plain.resistance_order, plain.init_dn, plain.widen, plain.transplant), (false, 0, 0, false));
    let settings = [(true, 0, 0, false), (false, 100, 0, false), (true, 50, 25, true), (false, 0, 0, true)];
    for (resistance_order, init_dn, widen, transplant) in settings {
        let mut solver = Solver::baseline(board.clone());
        (solver.resistance_order, solver.init_dn, solver.widen) = (resistance_order, init_dn, widen);
        solver.transplant = transplant;
        let mut wins = 0;
        for cell in 0..board.cells() {
            let mut p = Position::empty(board.clone());
            p.play(Colour::Black, cell).unwrap();
            let proof = solver.proof(&p).unwrap();
            let name = board.cell_name(cell);
            assert_eq!(proof.winner, plain.proof(&p).unwrap().winner, "{name} {resistance_order} {init_dn} {widen}");
            check_proof(&proof).unwrap();
            wins += usize::from(proof.winner == Colour::Black);
        }
        assert_eq!(wins, 13);
    }
}

/// Refutations carried to sibling moves on the 6×6 opening c3 (Black wins,
/// the committed map): some are carried, and the proof that plays them is
/// replayed by the checker.
#[test]
fn carried_refutations_are_checked_on_6x6_c3() {
    let board = Board::new(6, 6).unwrap();
    let mut solver = Solver::baseline(board.clone());
    solver.transplant = true;
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, board.parse_cell("c3").unwrap()).unwrap();
    let proof = solver.proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::Black);
    assert!(solver.counts.transplants > 0);
    check_proof(&proof).unwrap();
}

/// The default solver (every rule on, the wider edge limits: `Solver::describe`) against the
/// baseline of the earlier sessions on every 5×5 opening with both movers after it: the same
/// winners (13 of 25 openings win for Black), every default proof replayed by the checker with
/// each carrier accepted by its derivation.
#[test]
fn the_default_solver_keeps_every_5x5_value() {
    let board = Board::new(5, 5).unwrap();
    let (mut default, mut baseline) = (Solver::new(board.clone()), Solver::baseline(board.clone()));
    assert_ne!(default.describe(), baseline.describe());
    let mut wins = 0;
    for cell in 0..board.cells() {
        let mut p = Position::empty(board.clone());
        p.play(Colour::Black, cell).unwrap();
        for mover in [Colour::White, Colour::Black] {
            let p = Position { to_move: mover, ..p.clone() };
            let proof = default.proof(&p).unwrap();
            assert_eq!(proof.winner, baseline.proof(&p).unwrap().winner, "{} {mover:?}", board.cell_name(cell));
            let report = check_proof(&proof).unwrap();
            assert_eq!(report.derived, report.carriers, "{} {mover:?}", board.cell_name(cell));
            wins += usize::from(mover == Colour::White && proof.winner == Colour::Black);
        }
    }
    assert_eq!(wins, 13);
}

/// The session-23 order settings (new children graded by rank, the killer reply first) change only
/// the order of the search: with each, and both, df-pn with the default rules gives plain minimax's
/// winner on random 4×4 positions (both movers) and the baseline's on every 5×5 opening (13 of 25
/// win for Black), every proof replayed by the checker; `describe()` names each.
#[test]
fn graded_numbers_and_the_killer_keep_every_value() {
    let board = Board::new(4, 4).unwrap();
    let settings = [(50, false), (200, false), (0, true), (100, true)];
    let mut texts = std::collections::HashSet::from([Solver::new(board.clone()).describe()]);
    let mut checked = 0;
    for (grade, killer) in settings {
        let configured = |board: &Board| {
            let mut s = Solver::new(board.clone());
            (s.grade, s.killer) = (grade, killer);
            s
        };
        assert!(texts.insert(configured(&board).describe()), "grade {grade}, killer {killer}");
        for round in 0..36 {
            let Some(p) = random_position(&board, 51, round) else { continue };
            for to_move in [Colour::Black, Colour::White] {
                let p = Position { to_move, ..p.clone() };
                let proof = configured(&board).proof(&p).unwrap();
                assert_eq!(proof.winner, board_winner(&p), "grade {grade}, killer {killer}\n{}", p.diagram());
                check_proof(&proof).unwrap();
                checked += 1;
            }
        }
        let five = Board::new(5, 5).unwrap();
        let (mut solver, mut baseline) = (configured(&five), Solver::baseline(five.clone()));
        assert_eq!(black_wins_5x5(&mut solver, &mut baseline), 13, "grade {grade}, killer {killer}");
    }
    assert!(checked >= 4 * 50, "{checked} positions");
}

/// Every 5×5 opening solved by `solver` (one table for all) has `oracle`'s winner, every proof of
/// `solver` replayed by the checker: how many win for Black.
fn black_wins_5x5(solver: &mut Solver, oracle: &mut Solver) -> usize {
    let board = solver.board.clone();
    let mut wins = 0;
    for cell in 0..board.cells() {
        let mut p = Position::empty(board.clone());
        p.play(Colour::Black, cell).unwrap();
        let proof = solver.proof(&p).unwrap();
        assert_eq!(proof.winner, oracle.proof(&p).unwrap().winner, "5x5 opening {}", board.cell_name(cell));
        check_proof(&proof).unwrap();
        wins += usize::from(proof.winner == Colour::Black);
    }
    wins
}

/// The `round`-th position of `dfpn_and_depth_first_agree_with_minimax` (its generator seeded
/// `seed`, replayed from the start: 3 to 5 random stones alternating from Black on 4×4), `None` if
/// a player has connected.
fn random_position(board: &Board, seed: u64, round: usize) -> Option<Position> {
    let mut state = seed;
    let mut next = |n: usize| {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) as usize % n
    };
    let mut p = Position::empty(board.clone());
    for r in 0..=round {
        p = Position::empty(board.clone());
        for k in 0..(3 + r % 3) {
            let free: Vec<usize> = (0..16).filter(|&c| p.free() >> c & 1 == 1).collect();
            p.play(if k % 2 == 0 { Colour::Black } else { Colour::White }, free[next(free.len())]).unwrap();
        }
    }
    p.winner().is_none().then_some(p)
}
