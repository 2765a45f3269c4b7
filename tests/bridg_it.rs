//! Bridg-It (thesis ch. 5): the board, the potentials and Shannon's heuristic,
//! against the values of `../shared/reference/seed002-ch1235.md §4` (test
//! assertions 5.1–5.3, 5.11) and exact values checked by a plain evaluator.

use num_rational::BigRational;
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::heuristic::{best_edges, exact_drops, float_drops};
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::solver::Solver;

fn play(board: &Board, moves: &[&str]) -> Position {
    moves.iter().fold(Position::start(board, Player::Cut), |p, m| p.play(board.parse_edge(m).unwrap()))
}

fn scaled_drops(board: &Board, pos: &Position, scale: i64) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = exact_drops(board, pos)
        .into_iter()
        .map(|(e, d)| {
            let s = d * BigRational::from_integer(scale.into());
            assert!(s.is_integer(), "drop of {} is not a multiple of 1/{scale}", board.edge_name(e));
            (board.edge_name(e), i64::try_from(s.to_integer()).unwrap())
        })
        .filter(|x| x.1 != 0)
        .collect();
    out.sort_by(|x, y| y.1.cmp(&x.1).then(x.0.cmp(&y.0)));
    out
}

#[test]
fn assertion_5_1_sizes() {
    for (m, nodes, edges) in [(2, 4, 5), (3, 8, 13), (4, 14, 25), (9, 74, 145), (20, 382, 761)] {
        let b = Board::bridgit(m).unwrap();
        assert_eq!((b.nodes(), b.edges().len()), (nodes, edges));
        assert_eq!(b.dual().unwrap().edges().len(), edges);
    }
    assert!(Board::bridgit(1).is_err());
}

#[test]
fn assertion_5_2_first_step_layers() {
    for m in 2..=8 {
        let b = Board::bridgit(m).unwrap();
        let start = Position::start(&b, Player::Cut);
        let drops = exact_drops(&b, &start);
        for (e, d) in &drops {
            let want = if b.is_vertical(*e) {
                BigRational::new(1.into(), (m as i64).into())
            } else {
                BigRational::from_integer(0.into())
            };
            assert_eq!(*d, want, "edge {}", b.edge_name(*e));
        }
        let best = best_edges(&b, &start, &Solver::Direct);
        assert_eq!(best.len(), m * m);
    }
}

#[test]
fn assertion_5_3_fig_5_5_potentials() {
    let b = Board::bridgit(3).unwrap();
    let v = |xs: &[(&str, i64)]| xs.iter().map(|(n, d)| (n.to_string(), *d)).collect::<Vec<_>>();
    let before3 = play(&b, &["A5", "C5"]);
    assert_eq!(
        scaled_drops(&b, &before3, 129),
        v(&[
            ("C3", 71),
            ("C1", 58),
            ("E1", 54),
            ("E3", 50),
            ("A1", 49),
            ("A3", 40),
            ("B4", 40),
            ("D4", 25),
            ("E5", 25),
            ("B2", 9),
            ("D2", 4)
        ])
    );
    let before5 = play(&b, &["A5", "C5", "C3", "A1"]);
    assert_eq!(
        scaled_drops(&b, &before5, 42),
        v(&[("A3", 21), ("B4", 21), ("E3", 20), ("E1", 12), ("D4", 10), ("E5", 10), ("D2", 8), ("B2", 4), ("C1", 4)])
    );
    let mut best: Vec<String> = best_edges(&b, &before5, &Solver::Direct).into_iter().map(|e| b.edge_name(e)).collect();
    best.sort();
    assert_eq!(best, ["A3", "B4"]);
    let before6 = play(&b, &["A5", "C5", "C3", "A1", "B4"]);
    assert_eq!(scaled_drops(&b, &before6, 21)[0], ("E3".to_string(), 10));
    let after6 = play(&b, &["A5", "C5", "C3", "A1", "B4", "E3"]);
    assert_eq!(after6.winner(&b), None);
    for (e, d) in float_drops(&b, &before5, &Solver::Direct) {
        let exact = exact_drops(&b, &before5).into_iter().find(|x| x.0 == e).unwrap().1;
        let q = num_traits::ToPrimitive::to_f64(&exact).unwrap();
        assert!((d - q).abs() < 1e-12);
    }
}

#[test]
fn gauss_seidel_converges_to_the_exact_potentials() {
    let b = Board::bridgit(6).unwrap();
    let pos = play(&b, &["A5", "C5", "C3", "A1", "B4", "E3", "L1", "G7"]);
    let sor = Solver::GaussSeidel {
        omega: 1.5,
        start: renyi_search::two_player::connection::bridgit::solver::StartVector::Constant(0.5),
        iterations: 10_000,
        tolerance: 1e-15,
    };
    let exact = exact_drops(&b, &pos);
    for ((e, d), (e2, q)) in float_drops(&b, &pos, &sor).into_iter().zip(exact) {
        assert_eq!(e, e2);
        assert!((d - num_traits::ToPrimitive::to_f64(&q).unwrap()).abs() < 1e-9);
    }
}

/// Positions of a seeded random game on `board` (every free edge equally likely), the start included.
fn random_game(board: &Board, seed: u64) -> Vec<Position> {
    let mut state = seed;
    let mut pos = Position::start(board, Player::Cut);
    let mut out = vec![pos.clone()];
    while pos.winner(board).is_none() {
        state = state.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        let free = pos.free_edges(board);
        pos = pos.play(free[(state >> 33) as usize % free.len()]);
        out.push(pos.clone());
    }
    out
}

/// Certified SOR (iterative::certified_sor): on every position of random games
/// (dead ends and merged nodes included) the returned bound holds against the
/// exact rational potentials, and the heuristic's maximisers equal those of
/// the direct solve (exact ties through the exact fallback).
#[test]
fn certified_sor_bound_holds_and_ties_stay_exact() {
    use num_traits::ToPrimitive;
    use renyi_search::two_player::connection::bridgit::exact::exact_potentials;
    use renyi_search::two_player::connection::bridgit::network::Network;
    use renyi_search::two_player::connection::bridgit::solver::StartVector;
    let sor =
        Solver::GaussSeidel { omega: 1.65, start: StartVector::Constant(0.5), iterations: 100_000, tolerance: 1e-9 };
    let mut positions = 0;
    for (m, seed) in [(3, 1), (5, 2), (5, 3), (8, 4)] {
        let b = Board::bridgit(m).unwrap();
        for pos in random_game(&b, seed) {
            if pos.winner(&b).is_some() {
                continue;
            }
            let net = Network::of(&b, &pos);
            let p = sor.potentials(&net);
            // The tolerance, or the rounding floor of the residual times the norm bound.
            assert!(p.error_bound <= 1e-7, "M = {m}: bound {}", p.error_bound);
            let ex = exact_potentials(&net);
            for (j, x) in p.x.iter().enumerate() {
                let exact = ex.potential(j).to_f64().unwrap();
                assert!((x - exact).abs() <= p.error_bound + 1e-15, "M = {m}: node {j} off by {}", x - exact);
            }
            let (mut fast, mut direct) = (best_edges(&b, &pos, &sor), best_edges(&b, &pos, &Solver::Direct));
            fast.sort();
            direct.sort();
            assert_eq!(fast, direct, "M = {m}");
            positions += 1;
        }
    }
    assert!(positions > 40);
    let b = Board::bridgit(3).unwrap();
    let mut tie = best_edges(&b, &play(&b, &["A5", "C5", "C3", "A1"]), &sor);
    tie.sort();
    assert_eq!(tie.iter().map(|&e| b.edge_name(e)).collect::<Vec<_>>(), ["A3", "B4"]);
}
