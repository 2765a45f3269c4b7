//! Exact MC(k) win probabilities (thesis Fig 5.9): the random-completion
//! count against plain random play, the k = 1 value against a brute-force
//! evaluator over all play-out outcomes, and the exact values inside the 95 %
//! interval of the seeded simulation.

use num_rational::BigRational;
use num_traits::ToPrimitive;
use renyi_search::progress::Progress;
use renyi_search::two_player::connection::bridgit::agents::Agent;
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::heuristic::best_edges;
use renyi_search::two_player::connection::bridgit::mc_exact::{exact_mc_short, random_completion_probability};
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::simulate::{SimAgent, simulate};
use renyi_search::two_player::connection::bridgit::solver::Solver;
use std::collections::HashMap;

fn f(x: &BigRational) -> f64 {
    x.to_f64().unwrap()
}

/// P(Short wins) when both play uniformly random moves from `pos`, by recursion.
fn random_play(board: &Board, pos: &Position, memo: &mut HashMap<Position, f64>) -> f64 {
    if let Some(w) = pos.winner(board) {
        return (w == Player::Short) as u8 as f64;
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let free = pos.free_edges(board);
    let v = free.iter().map(|&e| random_play(board, &pos.play(e), memo)).sum::<f64>() / free.len() as f64;
    memo.insert(pos.clone(), v);
    v
}

#[test]
fn random_completion_equals_random_play() {
    for (m, moves) in [(2, vec![]), (2, vec!["A1"]), (3, vec!["A1", "C3", "E3"]), (3, vec!["C3", "B2"])] {
        let b = Board::bridgit(m).unwrap();
        let pos = moves.iter().fold(Position::start(&b, Player::Cut), |p, n| p.play(b.parse_edge(n).unwrap()));
        let exact = f(&random_completion_probability(&b, &pos));
        let plain = random_play(&b, &pos, &mut HashMap::new());
        assert!((exact - plain).abs() < 1e-12, "M = {m} after {moves:?}: {exact} vs {plain}");
        assert!(exact > 0.0 && exact < 1.0);
    }
}

/// MC(1) by brute force: every outcome (win or not) of the one play-out per
/// candidate, the move uniform among the winners (among all if none won).
fn mc1(board: &Board, pos: &Position, memo: &mut HashMap<Position, f64>) -> f64 {
    if let Some(w) = pos.winner(board) {
        return (w == Player::Short) as u8 as f64;
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let v = if pos.to_move == Player::Cut {
        let best = best_edges(board, pos, &Solver::Direct);
        best.iter().map(|&e| mc1(board, &pos.play(e), memo)).sum::<f64>() / best.len() as f64
    } else {
        let free = pos.free_edges(board);
        let p: Vec<f64> = free
            .iter()
            .map(|&e| {
                let c = pos.play(e);
                if c.winner(board).is_some() { 1.0 } else { f(&random_completion_probability(board, &c)) }
            })
            .collect();
        let after: Vec<f64> = free.iter().map(|&e| mc1(board, &pos.play(e), memo)).collect();
        let mut total = 0.0;
        for outcome in 0u32..(1 << free.len()) {
            let chance: f64 = (0..free.len()).map(|i| if outcome >> i & 1 == 1 { p[i] } else { 1.0 - p[i] }).product();
            let chosen: Vec<usize> = if outcome == 0 {
                (0..free.len()).collect()
            } else {
                (0..free.len()).filter(|i| outcome >> i & 1 == 1).collect()
            };
            total += chance * chosen.iter().map(|&i| after[i]).sum::<f64>() / chosen.len() as f64;
        }
        total
    };
    memo.insert(pos.clone(), v);
    v
}

/// M = 2 and 3 with k = 1 against the brute force; M = 3, k = 1 and 4 inside
/// the 95 % interval of a seeded simulation of 20 000 games (the reproduce
/// run's 1000 games, seed 1, saw 2 wins for MC(1): the exact 0.029 % lies
/// below that interval, a 3 % event; 200 000 games, seed 7, gave 0.032 %
/// [0.025, 0.041] for k = 1 and 0.114 % [0.100, 0.129] for k = 4).
#[test]
fn exact_mc_equals_brute_force_and_simulation() {
    let two = Board::bridgit(2).unwrap();
    let plain = mc1(&two, &Position::start(&two, Player::Cut), &mut HashMap::new());
    assert!((f(&exact_mc_short(&two, 1, 1 << 30).unwrap().short_wins) - plain).abs() < 1e-12);
    let b = Board::bridgit(3).unwrap();
    for k in [1, 4] {
        let exact = exact_mc_short(&b, k, 1 << 30).unwrap();
        let x = f(&exact.short_wins);
        if k == 1 {
            let plain = mc1(&b, &Position::start(&b, Player::Cut), &mut HashMap::new());
            assert!((x - plain).abs() < 1e-12, "M = 3: {} vs {plain}", exact.short_wins);
        }
        let heuristic = SimAgent::Policy(Agent::Heuristic);
        let s = simulate(&b, heuristic, SimAgent::MonteCarlo(k), 20_000, 1, &Progress::none()).unwrap();
        assert!(s.interval.0 <= x && x <= s.interval.1, "k = {k}: exact {x} outside {:?}", s.interval);
        assert_eq!(exact.states, 11107, "positions of the M = 3 game graph");
    }
    assert!(exact_mc_short(&b, 0, 1 << 30).is_err());
    assert!(exact_mc_short(&Board::bridgit(4).unwrap(), 1, 1 << 30).unwrap_err().to_string().contains("too many"));
}
