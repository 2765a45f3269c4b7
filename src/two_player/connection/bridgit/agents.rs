//! Randomised agents (thesis 5.4, reference note §4.4) and their exact win
//! probabilities by backward induction on the game graph (no sampling).
//!
//! - [`Agent::Heuristic`]: Shannon's rule, ties uniform (exact ties).
//! - [`Agent::Temperature`]: Def 5.7, p ∝ (ΔX/ΔX_max)^{1/T} over ΔX > 0
//!   (drops below 10⁻¹² ΔX_max count as 0: float noise of zero currents).
//! - [`Agent::FiniteGaussSeidel`]: 5.4.4, the same with potentials from a fixed
//!   number of Gauss–Seidel sweeps (ω = 1, start ½).
//!
//! The probabilities are computed in `f64` (the move weights are powers of
//! float drops); every game of the policy pair is counted, none sampled.

use super::analysis::PlayState;
use super::board::Board;
use super::heuristic::{best_edges, float_drops, temperature_weights};
use super::lanes::Lanes;
use super::position::{Player, Position};
use super::solver::Solver;
use crate::error::{Result, invalid};
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::scalar::Scalar;
use crate::graph::stochastic;
use num_traits::One;

/// A move policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Agent {
    /// The heuristic with uniform choice among exact ties.
    Heuristic,
    /// Def 5.7 with temperature T > 0.
    Temperature(f64),
    /// Def 5.7 on the potentials of `iterations` Gauss–Seidel sweeps.
    FiniteGaussSeidel { iterations: usize, temperature: f64 },
}

impl Agent {
    /// The agent's moves with positive probability and their probabilities.
    pub fn policy(&self, board: &Board, pos: &Position) -> Vec<(usize, f64)> {
        let (solver, t) = match *self {
            Agent::Heuristic => {
                let best = best_edges(board, pos, &Solver::Direct);
                let p = 1.0 / best.len() as f64;
                return best.into_iter().map(|e| (e, p)).collect();
            }
            Agent::Temperature(t) => (Solver::Direct, t),
            Agent::FiniteGaussSeidel { iterations, temperature } => {
                (Solver::finite_gauss_seidel(iterations), temperature)
            }
        };
        let (edges, cleaned) = cleaned_drops(board, pos, &solver);
        let w = temperature_weights(&cleaned, t);
        edges.into_iter().zip(w).filter(|(_, p)| *p > 0.0).collect()
    }

    /// Checks the parameters: T > 0 and finite, at least one sweep.
    pub fn validate(&self) -> Result<()> {
        let t = match *self {
            Agent::Heuristic => return Ok(()),
            Agent::Temperature(t) => t,
            Agent::FiniteGaussSeidel { iterations, temperature } => {
                if iterations == 0 {
                    return Err(invalid("the Gauss–Seidel agent needs at least one sweep"));
                }
                temperature
            }
        };
        if t.is_finite() && t > 0.0 { Ok(()) } else { Err(invalid(format!("temperature T = {t} must be > 0"))) }
    }
}

/// The links' edges and their drops under `solver`, drops below 10⁻¹² of the
/// largest set to 0 (float noise of links without current).
fn cleaned_drops(board: &Board, pos: &Position, solver: &Solver) -> (Vec<usize>, Vec<f64>) {
    let drops = float_drops(board, pos, solver);
    let max = drops.iter().map(|d| d.1).fold(0.0, f64::max);
    drops.into_iter().map(|(e, d)| (e, if d > 1e-12 * max { d } else { 0.0 })).unzip()
}

/// Short's win probabilities with temperature `temperatures[l]` in lane l
/// (Def 5.7) against `cut`, Cut first, and the number of positions: one game
/// graph for all lanes, Short's moves those with ΔX > 0 (the union of the
/// lanes' supports; a weight that underflows to 0 in a lane adds exactly 0
/// there), so lane l equals [`short_win_probability`] with `Temperature(T_l)`
/// float for float; the number of positions is that of the union graph.
pub fn short_win_curve<const N: usize>(
    board: &Board,
    cut: Agent,
    temperatures: [f64; N],
    limit_bytes: u64,
) -> Result<(Lanes<N>, usize)> {
    cut.validate()?;
    for t in temperatures {
        Agent::Temperature(t).validate()?;
    }
    let policy = |p: &Position| -> Vec<(usize, Lanes<N>)> {
        if p.to_move == Player::Cut {
            return cut.policy(board, p).into_iter().map(|(e, w)| (e, Lanes::splat(w))).collect();
        }
        let (edges, cleaned) = cleaned_drops(board, p, &Solver::Direct);
        let w: Vec<Vec<f64>> = temperatures.iter().map(|&t| temperature_weights(&cleaned, t)).collect();
        let lanes = |i: usize| Lanes(std::array::from_fn(|l| w[l][i]));
        (0..edges.len()).filter(|&i| cleaned[i] > 0.0).map(|i| (edges[i], lanes(i))).collect()
    };
    let (cut_wins, positions) = cut_win_value(board, policy, limit_bytes)?;
    Ok((Lanes::one() - cut_wins, positions))
}

/// Short's exact win probability (Cut moves first) and the number of positions,
/// or an error if the game graph passes `limit_bytes`.
pub fn short_win_probability(board: &Board, cut: Agent, short: Agent, limit_bytes: u64) -> Result<(f64, usize)> {
    cut.validate()?;
    short.validate()?;
    let agent = |p: &Position| if p.to_move == Player::Cut { cut } else { short };
    let (cut_wins, positions) = cut_win_value(board, |p: &Position| agent(p).policy(board, p), limit_bytes)?;
    Ok((1.0 - cut_wins, positions))
}

/// Cut's win probability (Cut moves first) when both play `policy` (the moves
/// of a position with their probabilities in `T`), and the number of
/// positions: the game graph keyed by the network (the policies read only the
/// network of a position), backward induction by `stochastic::play_values`.
fn cut_win_value<T: Scalar>(
    board: &Board,
    policy: impl Fn(&Position) -> Vec<(usize, T)> + Sync,
    limit_bytes: u64,
) -> Result<(T, usize)> {
    let start = PlayState::new(board, Position::start(board, Player::Cut));
    let graph = ExplicitGraph::explore_within(
        [start.clone()],
        |s: &PlayState| {
            let p = &s.position;
            if p.winner(board).is_some() {
                return Node::Moves(Vec::new());
            }
            Node::Moves(policy(p).into_iter().map(|(e, _)| PlayState::new(board, p.play(e))).collect())
        },
        limit_bytes,
    )
    .map_err(|n| invalid(format!("the agents' game graph passed the memory limit after {n} positions")))?;
    let layers = stochastic::layers(&graph)?;
    let values = stochastic::play_values::<_, T>(&graph, &layers, |v| {
        policy(&graph.state(v).position).into_iter().map(|x| x.1).collect()
    });
    let root = graph.index_of(&start).expect("the root is explored");
    Ok((values[root].clone().expect("the root has moves"), graph.len()))
}
