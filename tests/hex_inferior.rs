//! Inferior-cell fill-in (`inferior.rs`, soundness argument in docs/hex.md
//! "Fill-in"): the filled position has the value of the original one by plain
//! minimax, df-pn with fill-in agrees with plain minimax on random 4×4 and 5×5
//! positions (fixed seeds) and its proofs pass the checker, which refuses a
//! fill claim it cannot re-derive. Vulnerable cells (docs/hex.md): the theorem
//! holds on random 4×4 positions by plain minimax, df-pn leaving them out agrees
//! with plain minimax and its proofs pass the checker, which refuses a wrong killer.
//! Dominated cells (docs/hex.md) likewise: a dominated cell never wins where its
//! dominator loses (plain minimax, random 4×4), df-pn leaving them out agrees with
//! plain minimax with proofs checked, and the checker refuses a wrong dominator.

use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::inferior::{captured_pair, dominator, fill_in, killer, useless_to};
use renyi_search::two_player::connection::hex::plain::board_winner;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::{Proof, ProofStep};
use renyi_search::two_player::connection::hex::solver::Solver;

#[path = "common/hex.rs"]
mod hex_common;
use hex_common::random_positions;

#[test]
fn patterns_on_a_diagram() {
    // Black stone a2: the pair a1, b1 on Black's top edge is captured by Black
    // (White's a1 is answered by b1 and vice versa); a1 alone is not useless to White.
    let board = Board::new(3, 3).unwrap();
    let p = Position::from_lists(board.clone(), "a2", "", Colour::White).unwrap();
    let (a1, b1) = (board.parse_cell("a1").unwrap(), board.parse_cell("b1").unwrap());
    assert!(captured_pair(&board, Colour::Black, p.black, p.white, a1, b1));
    assert!(!captured_pair(&board, Colour::White, p.white, p.black, a1, b1));
    assert!(!useless_to(&board, Colour::White, p.white, p.black, a1));
    // b2 with White b1, c1, c2 (one group on White's right edge) and Black a2,
    // a3, b3 (one group on Black's bottom edge): dead, useless to both.
    let q = Position::from_lists(board.clone(), "a2,a3,b3", "b1,c1,c2", Colour::Black).unwrap();
    let b2 = board.parse_cell("b2").unwrap();
    assert!(useless_to(&board, Colour::Black, q.black, q.white, b2));
    assert!(useless_to(&board, Colour::White, q.white, q.black, b2));
    // With White b1 alone, White's b1 and the empty c2 are two neighbours of
    // b2 that touch only through b2.
    let r = Position::from_lists(board.clone(), "a2,a3,b3", "b1", Colour::Black).unwrap();
    assert!(!useless_to(&board, Colour::White, r.white, r.black, b2));
    // On the empty board no cell is inferior.
    assert_eq!(fill_in(&board, 0, 0), (0, 0));
}

#[test]
fn fill_in_keeps_the_value() {
    let mut filled = 0;
    for p in random_positions(4, 5, 60, 7).into_iter().chain(random_positions(5, 14, 25, 8)) {
        let (fb, fw) = fill_in(&p.board, p.black, p.white);
        filled += (fb | fw).count_ones();
        for mover in [Colour::Black, Colour::White] {
            let original = Position { to_move: mover, ..p.clone() };
            let q = Position { black: p.black | fb, white: p.white | fw, to_move: mover, ..p.clone() };
            let value = q.winner().unwrap_or_else(|| board_winner(&q));
            assert_eq!(board_winner(&original), value, "{}", original.diagram());
        }
    }
    assert!(filled >= 20, "{filled} cells filled");
}

#[test]
fn dfpn_with_fill_in_agrees_with_minimax() {
    let (mut fills, mut checked) = (0, 0);
    for p in random_positions(4, 4, 30, 11).into_iter().chain(random_positions(5, 13, 12, 12)) {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let plain = board_winner(&p);
            let mut solver = Solver::baseline(p.board.clone());
            let proof = solver.proof(&p).unwrap();
            assert_eq!(proof.winner, plain, "{}", p.diagram());
            let again = Proof::from_text(&proof.to_text()).unwrap();
            fills += check_proof(&again).unwrap().fills;
            let mut plain_dfpn = Solver::baseline(p.board.clone());
            plain_dfpn.fill_in = false;
            assert_eq!(plain_dfpn.mover_wins(&p).unwrap(), plain == mover, "{}", p.diagram());
            checked += 1;
        }
    }
    assert_eq!(checked, 84);
    assert!(fills >= 10, "{fills} fill steps checked");
}

#[test]
fn the_checker_refuses_an_unfounded_fill() {
    // b2 is not inferior on the empty 3×3 board: a proof claiming to fill it
    // for Black, followed by a valid proof of the filled position, is refused.
    let board = Board::new(3, 3).unwrap();
    let b2 = board.parse_cell("b2").unwrap();
    let filled = Position::from_lists(board.clone(), "b2", "", Colour::White).unwrap();
    let mut proof = Solver::baseline(board.clone()).proof(&filled).unwrap();
    assert_eq!(proof.winner, Colour::Black);
    check_proof(&proof).unwrap();
    proof.position = Position::empty(board);
    proof.position.to_move = Colour::White;
    proof.steps.push((0, 0, Colour::White, ProofStep::Fill(1 << b2, 0)));
    let err = check_proof(&proof).unwrap_err().to_string();
    assert!(err.contains("fill-in"), "{err}");
}

/// Whether the empty cell `c` is dead (useless to both) in `p` with one more stone of `colour` on `k`.
fn dead_after(p: &Position, colour: Colour, k: usize, c: usize) -> bool {
    let (mut black, mut white) = (p.black, p.white);
    if colour == Colour::Black {
        black |= 1 << k
    } else {
        white |= 1 << k
    }
    useless_to(&p.board, Colour::Black, black, white, c) && useless_to(&p.board, Colour::White, white, black, c)
}

#[test]
fn a_winning_move_is_never_only_among_the_vulnerable_cells() {
    // The theorem with every free cell tried as a killer (the solver tries neighbours only).
    let (mut wins, mut vulnerable_wins) = (0, 0);
    for p in random_positions(4, 4, 60, 21) {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            if board_winner(&p) != mover {
                continue;
            }
            let free: Vec<usize> = (0..p.board.cells()).filter(|&c| p.free() >> c & 1 == 1).collect();
            let vulnerable = |c: usize| free.iter().any(|&k| k != c && dead_after(&p, mover.other(), k, c));
            let winning: Vec<usize> = free
                .iter()
                .copied()
                .filter(|&c| {
                    let mut child = p.clone();
                    child.play(mover, c).unwrap();
                    child.winner() == Some(mover) || board_winner(&child) == mover
                })
                .collect();
            assert!(winning.iter().any(|&c| !vulnerable(c)), "{}", p.diagram());
            wins += 1;
            vulnerable_wins += winning.iter().filter(|&&c| vulnerable(c)).count();
        }
    }
    assert!(wins >= 30, "{wins} won positions");
    assert!(vulnerable_wins >= 5, "{vulnerable_wins} winning moves on vulnerable cells");
}

#[test]
fn dfpn_without_vulnerable_moves_agrees_with_minimax() {
    let (mut pruned, mut checked) = (0, 0);
    for p in random_positions(4, 3, 30, 31).into_iter().chain(random_positions(5, 11, 12, 32)) {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let mut solver = Solver::baseline(p.board.clone());
            solver.vulnerable = true;
            let proof = solver.proof(&p).unwrap();
            assert_eq!(proof.winner, board_winner(&p), "{}", p.diagram());
            let again = Proof::from_text(&proof.to_text()).unwrap();
            assert_eq!(again.steps, proof.steps);
            check_proof(&again).unwrap();
            pruned += solver.counts.vulnerable;
            checked += 1;
        }
    }
    assert_eq!(checked, 84);
    assert!(pruned >= 20, "{pruned} vulnerable cells left out");
}

#[test]
fn the_checker_refuses_a_wrong_killer() {
    // The 6×6 opening c3 (Black wins) with vulnerable cells left out: the proof
    // has `every except` steps and passes; with one killer replaced by an empty
    // cell after which the cell is not dead it is refused.
    let board = Board::new(6, 6).unwrap();
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, board.parse_cell("c3").unwrap()).unwrap();
    let mut solver = Solver::baseline(board.clone());
    solver.vulnerable = true;
    let mut proof = solver.proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::Black);
    check_proof(&Proof::from_text(&proof.to_text()).unwrap()).unwrap();
    let excepted: Vec<usize> = (0..proof.steps.len())
        .filter(|&i| matches!(&proof.steps[i].3, ProofStep::Every(k, _) if !k.is_empty()))
        .collect();
    assert!(excepted.len() >= 3, "{} steps with vulnerable cells", excepted.len());
    let i = excepted[0];
    let (black, white, mover, step) = proof.steps[i].clone();
    let ProofStep::Every(mut kills, doms) = step else { unreachable!() };
    let (c, k) = kills[0];
    let at = Position { black, white, to_move: mover, ..p.clone() };
    assert_eq!(killer(&board, mover, at.stones(mover), at.stones(mover.other()), c), Some(k));
    assert!(dead_after(&at, mover.other(), k, c));
    let wrong = (0..board.cells())
        .find(|&w| w != c && at.free() >> w & 1 == 1 && !dead_after(&at, mover.other(), w, c))
        .expect("a cell that does not kill");
    kills[0] = (c, wrong);
    proof.steps[i] = (black, white, mover, ProofStep::Every(kills, doms));
    let err = check_proof(&proof).unwrap_err().to_string();
    assert!(err.contains("not dead after its killer"), "{err}");
}

#[test]
fn the_checker_takes_a_fill_that_closes_a_chain_on_the_way() {
    // Black a1 b1 a2 c4, White b3 c3, White to move: the solver fills d4 and b4
    // (useless to White) and the pairs d2+d3, a3+a4 captured by White, which
    // close White's chain. The checker places the pairs first; after them d4 is
    // no longer "useless to White" by the clique test (his group touches both
    // edges), so it accepts the rest of a claim once a chain is complete.
    let board = Board::new(4, 4).unwrap();
    let p = Position::from_lists(board.clone(), "a1,b1,a2,c4", "b3,c3", Colour::White).unwrap();
    let proof = Solver::baseline(board).proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::White);
    let fill = proof.steps.iter().find_map(|s| if let ProofStep::Fill(b, w) = s.3 { Some((b, w)) } else { None });
    let names = |set: u128| p.board.set_names(set);
    assert_eq!(fill.map(|(b, w)| (names(b), names(w))), Some(("b4,d4".into(), "d2,a3,d3,a4".into())));
    check_proof(&proof).unwrap();
}

/// Whether `mover` wins `p` after his move on the free cell `c` (plain minimax).
fn wins_by(p: &Position, mover: Colour, c: usize) -> bool {
    let mut child = p.clone();
    child.play(mover, c).unwrap();
    child.winner() == Some(mover) || board_winner(&child) == mover
}

#[test]
fn a_dominated_cell_never_wins_where_its_dominator_loses() {
    // Every free cell tried, any other free cell allowed as dominator.
    let (mut dominated, mut winning) = (0, 0);
    for p in random_positions(4, 4, 60, 41).into_iter().chain(random_positions(4, 2, 20, 42)) {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let (own, opp) = (p.stones(mover), p.stones(mover.other()));
            for c in (0..p.board.cells()).filter(|&c| p.free() >> c & 1 == 1) {
                let Some(d) = dominator(&p.board, mover, own, opp, c, p.free() & !(1 << c)) else { continue };
                assert!(d != c && p.free() >> d & 1 == 1);
                dominated += 1;
                if wins_by(&p, mover, c) {
                    assert!(wins_by(&p, mover, d), "{} {c} {d}", p.diagram());
                    winning += 1;
                }
            }
        }
    }
    assert!(dominated >= 40, "{dominated} dominated cells");
    assert!(winning >= 5, "{winning} dominated winning moves");
}

#[test]
fn dfpn_without_dominated_moves_agrees_with_minimax() {
    let (mut pruned, mut checked) = (0, 0);
    for p in random_positions(4, 3, 30, 51).into_iter().chain(random_positions(5, 11, 12, 52)) {
        for mover in [Colour::Black, Colour::White] {
            let p = Position { to_move: mover, ..p.clone() };
            let plain = board_winner(&p);
            for all in [false, true] {
                let mut solver = Solver::baseline(p.board.clone());
                solver.dominated = true;
                (solver.vulnerable, solver.support_cut, solver.transplant, solver.resistance_order) =
                    (all, all, all, all);
                let proof = solver.proof(&p).unwrap();
                assert_eq!(proof.winner, plain, "{}", p.diagram());
                let again = Proof::from_text(&proof.to_text()).unwrap();
                assert_eq!(again.steps, proof.steps);
                check_proof(&again).unwrap();
                let mut without = Solver::baseline(p.board.clone());
                without.use_h_search = false;
                without.dominated = true;
                assert_eq!(without.mover_wins(&p).unwrap(), proof.winner == mover, "{}", p.diagram());
                pruned += solver.counts.dominated + without.counts.dominated;
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 168);
    assert!(pruned >= 40, "{pruned} dominated cells left out");
}

#[test]
fn the_checker_refuses_a_wrong_dominator() {
    // The 6×6 opening c3 (Black wins) with dominated cells left out: the proof
    // (version 5: with derivations) has `every except c>d` steps and passes; with one dominator
    // replaced by an empty cell after which the cell is no fill of the loser it is refused.
    let board = Board::new(6, 6).unwrap();
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, board.parse_cell("c3").unwrap()).unwrap();
    let mut solver = Solver::baseline(board.clone());
    solver.dominated = true;
    let mut proof = solver.proof(&p).unwrap();
    assert_eq!(proof.winner, Colour::Black);
    assert!(proof.to_text().starts_with("hex-proof 5\n"), "dominated cells and derivations");
    check_proof(&Proof::from_text(&proof.to_text()).unwrap()).unwrap();
    let with_doms: Vec<usize> = (0..proof.steps.len())
        .filter(|&i| matches!(&proof.steps[i].3, ProofStep::Every(_, d) if !d.is_empty()))
        .collect();
    assert!(with_doms.len() >= 3, "{} steps with dominated cells", with_doms.len());
    let i = with_doms[0];
    let (black, white, mover, step) = proof.steps[i].clone();
    let ProofStep::Every(kills, mut doms) = step else { unreachable!() };
    let (c, d) = doms[0];
    let at = Position { black, white, to_move: mover, ..p.clone() };
    let (own, opp) = (at.stones(mover), at.stones(mover.other()));
    let allowed = at.free() & !(1 << c);
    assert!(dominator(&board, mover, own, opp, c, allowed).is_some());
    assert!(dominator(&board, mover, own, opp, c, 1 << d).is_some());
    let wrong = (0..board.cells())
        .find(|&w| {
            w != c
                && allowed >> w & 1 == 1
                && dominator(&board, mover, own, opp, c, 1 << w).is_none()
                && !doms.iter().any(|&(x, _)| x == w)
        })
        .expect("a cell that does not dominate");
    doms[0] = (c, wrong);
    proof.steps[i] = (black, white, mover, ProofStep::Every(kills, doms));
    let err = check_proof(&proof).unwrap_err().to_string();
    assert!(err.contains("not filled for the loser"), "{err}");
}
