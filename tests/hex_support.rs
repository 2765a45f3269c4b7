//! Proof-set (support) pruning (`support.rs`, docs/hex.md "Support cut"): the
//! theorem by plain minimax on random 4×4 positions with the solver's supports
//! (the loser's stones outside the support of a won position leave it won, and
//! a refuted move's siblings outside its support lose too), and df-pn with the
//! cut agrees with plain minimax on random 4×4 and 5×5 positions, both movers,
//! its proofs passing the checker; on 6×6 c3 it cuts and its proof, with `add`
//! steps for the moves cut, passes the checker. The checker accepts a won
//! position's proof replayed with a loser's stone outside the support added,
//! and refuses it for a stone that changes the winner.

use renyi_search::two_player::connection::hex::board::{Bits, Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::plain::board_winner;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::{Proof, ProofStep};
use renyi_search::two_player::connection::hex::solver::Solver;

#[path = "common/hex.rs"]
mod hex_common;
use hex_common::random_positions;

/// The winner of `p` by plain minimax (or its complete chain).
fn value(p: &Position) -> Colour {
    p.winner().unwrap_or_else(|| board_winner(p))
}

/// `p` with the stones `extra` added for `colour` and `to_move` to move.
fn with(p: &Position, colour: Colour, extra: Bits, to_move: Colour) -> Position {
    let (black, white) = if colour == Colour::Black { (p.black | extra, p.white) } else { (p.black, p.white | extra) };
    Position { black, white, to_move, ..p.clone() }
}

#[test]
fn the_loser_s_stones_outside_a_support_change_nothing() {
    // For P with X to move and each move m that Y refutes: S = the solver's
    // support of P + Xm; then Y wins P + Xm with X stones on all free cells
    // outside S, and P + Xm' for every move m' outside S ∪ {m}.
    let (mut refuted, mut outside, mut all_outside) = (0, 0, 0);
    for (i, p) in random_positions(4, 5, 40, 41).into_iter().enumerate() {
        for x in [Colour::Black, Colour::White] {
            let y = x.other();
            let mut solver = Solver::baseline(p.board.clone());
            (solver.support_cut, solver.vulnerable, solver.transplant) = (true, i % 2 == 0, i % 3 == 0);
            // Without H-search the supports are small (no VC carriers), so more siblings fall outside.
            solver.use_h_search = i % 4 < 2;
            for m in (0..p.board.cells()).filter(|&c| p.free() >> c & 1 == 1) {
                let q = with(&p, x, 1 << m, y);
                if q.winner().is_some() || value(&q) != y {
                    continue;
                }
                refuted += 1;
                let s = solver.support_of(&q).unwrap();
                assert_eq!(s & !q.free(), 0);
                let rest = q.free() & !s;
                if rest != 0 {
                    all_outside += 1;
                    assert_eq!(value(&with(&q, x, rest, y)), y, "{}support {s:x}", q.diagram());
                }
                for m2 in (0..p.board.cells()).filter(|&c| rest >> c & 1 == 1) {
                    outside += 1;
                    assert_eq!(value(&with(&p, x, 1 << m2, y)), y, "{}after {m2}, support {s:x}", p.diagram());
                }
            }
        }
    }
    assert!(refuted >= 100, "{refuted} refuted moves");
    assert!(all_outside >= 30, "{all_outside} supports smaller than the free cells");
    assert!(outside >= 100, "{outside} siblings outside a support");
}

#[test]
fn dfpn_with_the_support_cut_agrees_with_minimax() {
    let (mut cuts, mut adds, mut checked) = (0, 0, 0);
    for (i, p) in random_positions(4, 3, 30, 43).into_iter().chain(random_positions(5, 11, 12, 44)).enumerate() {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let mut solver = Solver::baseline(p.board.clone());
            solver.support_cut = true;
            (solver.vulnerable, solver.transplant, solver.resistance_order) = (i % 2 == 1, i % 3 == 1, i % 4 == 1);
            // Without H-search (4×4 only) the supports are small and the cut fires.
            solver.use_h_search = p.board.cells() == 25 || i % 2 == 0;
            let proof = solver.proof(&p).unwrap();
            assert_eq!(proof.winner, value(&p), "{}", p.diagram());
            let again = Proof::from_text(&proof.to_text()).unwrap();
            assert_eq!(again.steps, proof.steps);
            check_proof(&again).unwrap();
            if p.board.cells() == 16 {
                let wins: Vec<usize> = solver.winning_moves(&p).unwrap();
                let free = (0..16).filter(|&c| p.free() >> c & 1 == 1);
                let plain: Vec<usize> =
                    free.filter(|&c| value(&with(&p, mover, 1 << c, mover.other())) == mover).collect();
                assert_eq!(wins, plain, "{}", p.diagram());
            }
            cuts += solver.counts.support_cuts;
            adds += proof.steps.iter().filter(|s| matches!(s.3, ProofStep::Add(_))).count();
            checked += 1;
        }
    }
    assert_eq!(checked, 84);
    // With H-search, carriers this small cover nearly every cell: the cuts come from the runs without it.
    assert!(cuts >= 1 && adds >= 1, "{cuts} moves cut, {adds} add steps checked");
}

#[test]
fn the_cut_on_6x6_c3_gives_a_checked_proof() {
    // The 6×6 opening c3 (Black wins) with the cut: fewer positions than
    // without it, and the proof, with `add` steps for the moves cut, passes.
    let board = Board::new(6, 6).unwrap();
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, board.parse_cell("c3").unwrap()).unwrap();
    let mut plain = Solver::baseline(board.clone());
    assert!(!plain.mover_wins(&p).unwrap());
    let mut solver = Solver::baseline(board.clone());
    // Without derivations (a version 3 file, its carriers checked by their games).
    (solver.support_cut, solver.derivations) = (true, false);
    let proof = solver.proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::Black);
    assert!(solver.counts.support_cuts >= 100, "{} moves cut", solver.counts.support_cuts);
    assert!(solver.nodes < plain.nodes, "{} positions with the cut, {} without", solver.nodes, plain.nodes);
    let text = proof.to_text();
    assert!(text.starts_with("hex-proof 3\n"));
    let again = Proof::from_text(&text).unwrap();
    let adds = again.steps.iter().filter(|s| matches!(s.3, ProofStep::Add(_))).count();
    assert!(adds >= 50, "{adds} add steps");
    check_proof(&again).unwrap();
}

/// The proof of `q` (Y to move, Y wins) moved to `q` with the loser's stone on
/// `c` instead of `m` (`q` = P + Xm): an `add m` step at P + Xc, then every
/// step of `q`'s proof with the stone on `c` added.
fn moved_proof(q: &Proof, x: Colour, m: usize, c: usize) -> Proof {
    let (stone, root) = (1 << c, &q.position);
    let shift = |b: Bits, w: Bits| if x == Colour::Black { (b | stone, w) } else { (b, w | stone) };
    let (b, w) = shift(root.black, root.white);
    let (b, w) = if x == Colour::Black { (b & !(1 << m), w) } else { (b, w & !(1 << m)) };
    let position = Position { black: b, white: w, ..root.clone() };
    let mut steps = vec![(b, w, root.to_move, ProofStep::Add(m))];
    for (b, w, mover, step) in &q.steps {
        let (b, w) = shift(*b, *w);
        if !steps.iter().any(|s| (s.0, s.1, s.2) == (b, w, *mover)) {
            steps.push((b, w, *mover, step.clone()));
        }
    }
    Proof { position, winner: q.winner, steps, derivations: q.derivations.clone() }
}

#[test]
fn the_checker_takes_a_sibling_s_proof_only_with_the_stone_outside_the_support() {
    let (mut accepted, mut refused) = (0, 0);
    for p in random_positions(4, 5, 24, 47) {
        for x in [Colour::Black, Colour::White] {
            let y = x.other();
            let mut solver = Solver::baseline(p.board.clone());
            solver.support_cut = true;
            let free: Vec<usize> = (0..p.board.cells()).filter(|&c| p.free() >> c & 1 == 1).collect();
            for &m in &free {
                let q = with(&p, x, 1 << m, y);
                if q.winner().is_some() || value(&q) != y {
                    continue;
                }
                let s = solver.support_of(&q).unwrap();
                let proof = solver.proof(&q).unwrap();
                check_proof(&proof).unwrap();
                for &c in free.iter().filter(|&&c| c != m) {
                    let moved = Proof::from_text(&moved_proof(&proof, x, m, c).to_text()).unwrap();
                    if s >> c & 1 == 0 {
                        if let Err(e) = check_proof(&moved) {
                            panic!("{e}\n{}support {s:x} m {m} c {c}\n{}", q.diagram(), moved.to_text());
                        }
                        accepted += 1;
                    } else if value(&with(&p, x, 1 << c, y)) == x {
                        assert!(check_proof(&moved).is_err(), "{}", moved.to_text());
                        refused += 1;
                    }
                }
            }
        }
    }
    assert!(accepted >= 50, "{accepted} moved proofs accepted");
    assert!(refused >= 20, "{refused} moved proofs refused");
}
