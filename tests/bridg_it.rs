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
