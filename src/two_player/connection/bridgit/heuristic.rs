//! Shannon's heuristic (thesis 5.2, reference note §4.2): both players play the
//! free edge with the largest current |x_i − x_j| in the network of the
//! position; Cut and Short use the same rule on the same graph.
//!
//! Ties are exact: a certified float solve comes with an error bound ε; edges
//! within 2ε (+ a margin) of the float maximum are compared by their exact
//! rational drops ([`super::exact`]), so the returned set is exactly the set
//! of maximisers. Edges outside the network (loops of merged nodes, parts cut
//! off from both terminals) carry no current and are never proposed.

use super::board::Board;
use super::exact::exact_potentials;
use super::network::{Network, Pole};
use super::position::Position;
use super::solver::Solver;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::Signed;

/// The exact drop |x_u − x_v| of every link, as a rational.
pub fn exact_drops(board: &Board, pos: &Position) -> Vec<(usize, BigRational)> {
    let net = Network::of(board, pos);
    let ex = exact_potentials(&net);
    net.links
        .iter()
        .map(|&(e, u, v)| {
            (
                e,
                BigRational::new(
                    (scaled(&ex.det, &ex.scaled, u) - scaled(&ex.det, &ex.scaled, v)).abs(),
                    ex.det.clone(),
                ),
            )
        })
        .collect()
}

fn scaled(det: &BigInt, n: &[BigInt], p: Pole) -> BigInt {
    match p {
        Pole::A => det.clone(),
        Pole::B => BigInt::from(0),
        Pole::Inner(i) => n[i].clone(),
    }
}

/// The float drops of every link under `solver`.
pub fn float_drops(board: &Board, pos: &Position, solver: &Solver) -> Vec<(usize, f64)> {
    let net = Network::of(board, pos);
    net.drops(&solver.approximate(&net))
}

/// The free edges with the largest current: exactly for a solver with a
/// certified error bound ([`Solver::Direct`], SOR with a tolerance); for a
/// fixed sweep count (no bound) the maximisers of its approximate drops.
/// Empty only if the game is over.
pub fn best_edges(board: &Board, pos: &Position, solver: &Solver) -> Vec<usize> {
    let net = Network::of(board, pos);
    if net.links.is_empty() {
        return Vec::new();
    }
    let potentials = solver.potentials(&net);
    let drops = net.drops(&potentials.x);
    let max = drops.iter().map(|d| d.1).fold(0.0, f64::max);
    if !potentials.error_bound.is_finite() {
        return drops.iter().filter(|d| d.1 == max).map(|d| d.0).collect();
    }
    let window = 4.0 * potentials.error_bound + 1e-12;
    let near: Vec<usize> = (0..drops.len()).filter(|&i| drops[i].1 >= max - window).collect();
    if near.len() == 1 {
        return vec![drops[near[0]].0];
    }
    let ex = exact_potentials(&net);
    let exact: Vec<BigInt> = near
        .iter()
        .map(|&i| {
            let (_, u, v) = net.links[i];
            (scaled(&ex.det, &ex.scaled, u) - scaled(&ex.det, &ex.scaled, v)).abs()
        })
        .collect();
    let top = exact.iter().max().expect("near is not empty").clone();
    near.iter().zip(&exact).filter(|(_, x)| **x == top).map(|(&i, _)| net.links[i].0).collect()
}

/// Def 5.7: the temperature agent's move probabilities p ∝ (ΔX/ΔX_max)^{1/T}
/// over the edges with ΔX > 0 (T > 0); zero drops get probability 0.
pub fn temperature_weights(drops: &[f64], temperature: f64) -> Vec<f64> {
    let max = drops.iter().copied().fold(0.0, f64::max);
    if max <= 0.0 {
        return vec![0.0; drops.len()];
    }
    let w: Vec<f64> = drops.iter().map(|&d| if d > 0.0 { (d / max).powf(1.0 / temperature) } else { 0.0 }).collect();
    let z: f64 = w.iter().sum();
    w.into_iter().map(|x| x / z).collect()
}

/// A heuristic game from `start`: at every move the maximiser named in `picks`
/// for that move number (1-based) if it is among the ties, else the first tie.
/// Returns the moves until the game is over.
pub fn replay(board: &Board, start: &Position, picks: &[(usize, usize)]) -> Vec<usize> {
    let mut pos = start.clone();
    let mut moves = Vec::new();
    while pos.winner(board).is_none() {
        let best = best_edges(board, &pos, &Solver::Direct);
        let n = moves.len() + 1;
        let pick = picks.iter().find(|p| p.0 == n && best.contains(&p.1)).map_or(best[0], |p| p.1);
        moves.push(pick);
        pos = pos.play(pick);
    }
    moves
}
