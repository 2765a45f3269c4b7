//! Randomised agents (thesis 5.4): the game-graph values of a policy pair
//! against a plain recursive evaluator of the same policies.

use renyi_search::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use std::collections::HashMap;

/// Short's win probability by direct recursion with memo.
fn plain(board: &Board, pos: &Position, cut: Agent, short: Agent, memo: &mut HashMap<Position, f64>) -> f64 {
    match pos.winner(board) {
        Some(Player::Short) => return 1.0,
        Some(Player::Cut) => return 0.0,
        None => {}
    }
    if let Some(&v) = memo.get(pos) {
        return v;
    }
    let agent = if pos.to_move == Player::Cut { cut } else { short };
    let v = agent.policy(board, pos).into_iter().map(|(e, p)| p * plain(board, &pos.play(e), cut, short, memo)).sum();
    memo.insert(pos.clone(), v);
    v
}

#[test]
fn agent_values_equal_plain_recursion() {
    for m in [2, 3] {
        let b = Board::bridgit(m).unwrap();
        for short in [
            Agent::Temperature(0.1),
            Agent::Temperature(1.0),
            Agent::FiniteGaussSeidel { iterations: 2, temperature: 0.2 },
        ] {
            let (p, _) = short_win_probability(&b, Agent::Heuristic, short, 1 << 30).unwrap();
            let q = plain(&b, &Position::start(&b, Player::Cut), Agent::Heuristic, short, &mut HashMap::new());
            assert!((p - q).abs() < 1e-12, "M = {m}, {short:?}: {p} vs {q}");
            assert!(p > -1e-12 && p < 1.0 && (m == 2 || p > 1e-6), "M = {m}, {short:?}: {p}");
        }
        // Both heuristic: the first player (Cut) always wins for M ≤ 8 (assertion 5.6).
        let (p, _) = short_win_probability(&b, Agent::Heuristic, Agent::Heuristic, 1 << 30).unwrap();
        assert!(p.abs() < 1e-12, "{p}");
    }
    assert!(Agent::Temperature(0.0).validate().is_err());
    assert!(Agent::FiniteGaussSeidel { iterations: 0, temperature: 0.1 }.validate().is_err());
}

#[test]
fn temperature_limits() {
    let b = Board::bridgit(3).unwrap();
    let pos = Position::start(&b, Player::Cut);
    // T → ∞: uniform over ΔX > 0, i.e. over the 9 vertical edges.
    let hot = Agent::Temperature(1e9).policy(&b, &pos);
    assert_eq!(hot.len(), 9);
    assert!(hot.iter().all(|x| (x.1 - 1.0 / 9.0).abs() < 1e-9));
}

/// `short_win_curve` (all temperatures on one graph, one lane each) equals
/// `short_win_probability` per temperature float for float (M = 2, 3).
#[test]
fn temperature_curve_lanes_equal_single_points() {
    use renyi_search::two_player::connection::bridgit::agents::short_win_curve;
    let temperatures = [0.01, 0.05, 0.1, 0.3, 1.0];
    for m in [2, 3] {
        let b = Board::bridgit(m).unwrap();
        let (curve, states) = short_win_curve(&b, Agent::Heuristic, temperatures, 1 << 30).unwrap();
        for (lane, t) in temperatures.into_iter().enumerate() {
            let (p, n) = short_win_probability(&b, Agent::Heuristic, Agent::Temperature(t), 1 << 30).unwrap();
            assert_eq!(curve.0[lane].to_bits(), p.to_bits(), "M = {m}, T = {t}");
            assert!(n <= states, "M = {m}, T = {t}: {n} > {states}");
        }
    }
    assert!(short_win_curve(&Board::bridgit(3).unwrap(), Agent::Heuristic, [0.1, 0.0], 1 << 30).is_err());
}
