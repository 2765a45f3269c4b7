//! Monte-Carlo simulation of agent pairs on a switching-game board (thesis
//! 5.4.1–5.4.4, `../shared/reference/seed002-ch1235.md §4.4`), for the points
//! whose game graph is too large for [`super::agents::short_win_probability`].
//!
//! - [`SimAgent::Policy`]: any [`Agent`] (heuristic with uniform ties,
//!   temperature, finite Gauss–Seidel), its move drawn from its policy.
//! - [`SimAgent::MonteCarlo`]: MC(k) of thesis Def 1.1 (the agent of
//!   `crate::graph::mc_agents`, here sampled): for every legal move, k uniform
//!   random play-outs to the end; the move with the most wins, ties uniform.
//!
//! A random play-out is decided without playing it move by move: Short's
//! marked set only grows and Cut's deletions only grow, so the first win of a
//! random game is also the winner of its completion, and a uniformly random
//! completion of f free edges gives the player to move ⌈f/2⌉ of them, a
//! uniformly random subset. Short wins iff his marked edges plus his share join
//! A and B.
//!
//! Determinism: game i draws from its own stream `Rng::new(seed ^ i·C)` (the
//! scheme of `crate::search::play::simulate`), and the wins are summed as
//! integers, so the same seed gives the same numbers for any thread count.
//! Intervals are Wilson score intervals at 95 % (z = 1.959964).

use super::agents::Agent;
use super::board::Board;
use super::position::{Classes, Player, Position};
use crate::error::{Result, invalid};
use crate::progress::Progress;
use crate::search::play::Rng;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;

/// A sampled move policy.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum SimAgent {
    /// An agent with an explicit move distribution.
    Policy(Agent),
    /// MC(k): k random play-outs per legal move (thesis Def 1.1), k ≥ 1.
    MonteCarlo(u32),
}

impl fmt::Display for SimAgent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SimAgent::Policy(Agent::Heuristic) => write!(f, "heuristic"),
            SimAgent::Policy(Agent::Temperature(t)) => write!(f, "temperature {t}"),
            SimAgent::Policy(Agent::FiniteGaussSeidel { iterations, temperature }) => {
                write!(f, "{iterations} Gauss–Seidel sweeps, temperature {temperature}")
            }
            SimAgent::MonteCarlo(k) => write!(f, "MC({k})"),
        }
    }
}

impl SimAgent {
    /// Checks the parameters (T > 0, at least one sweep, k ≥ 1).
    pub fn validate(&self) -> Result<()> {
        match self {
            SimAgent::Policy(a) => a.validate(),
            SimAgent::MonteCarlo(0) => Err(invalid("MC(k) needs k ≥ 1 play-outs per move (k = 0 given)")),
            SimAgent::MonteCarlo(_) => Ok(()),
        }
    }

    /// The agent's move in `pos` (the game is not over), drawn with `rng`.
    pub fn sample(&self, board: &Board, pos: &Position, rng: &mut Rng) -> usize {
        match *self {
            SimAgent::Policy(agent) => draw(&agent.policy(board, pos), rng),
            SimAgent::MonteCarlo(k) => monte_carlo_move(board, pos, k, rng),
        }
    }
}

/// A move drawn from (move, probability) pairs.
fn draw(policy: &[(usize, f64)], rng: &mut Rng) -> usize {
    let total: f64 = policy.iter().map(|m| m.1).sum();
    let mut r = unit(rng) * total;
    for &(e, p) in policy {
        if r < p {
            return e;
        }
        r -= p;
    }
    policy.last().expect("a position that is not over has moves").0
}

/// Uniform in [0, 1) with 53 random bits.
fn unit(rng: &mut Rng) -> f64 {
    (rng.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

/// MC(k): the legal move whose k random play-outs give the mover most wins.
fn monte_carlo_move(board: &Board, pos: &Position, k: u32, rng: &mut Rng) -> usize {
    let mover = pos.to_move;
    let mut best: Vec<usize> = Vec::new();
    let mut best_wins = 0;
    let mut free = Vec::new();
    let mut scratch = Classes::new(board.nodes());
    for e in pos.free_edges(board) {
        let next = pos.play(e);
        let wins = match next.winner(board) {
            Some(w) => (w == mover) as u32 * k,
            None => {
                free.clear();
                free.extend(next.free_edges(board));
                let base = next.marked_classes(board);
                let short = (0..k)
                    .filter(|_| random_completion(board, &next, &base, &mut free, &mut scratch, rng))
                    .count() as u32;
                if mover == Player::Short { short } else { k - short }
            }
        };
        if wins > best_wins || best.is_empty() {
            best_wins = wins;
            best.clear();
        }
        if wins == best_wins {
            best.push(e);
        }
    }
    best[rng.below(best.len() as u64) as usize]
}

/// Whether Short wins a uniformly random play-out from `pos` (not over);
/// `free` holds its free edges (reordered), `base` its marked classes;
/// `classes` is scratch space.
fn random_completion(
    board: &Board,
    pos: &Position,
    base: &Classes,
    free: &mut [usize],
    classes: &mut Classes,
    rng: &mut Rng,
) -> bool {
    let f = free.len();
    let short_share = if pos.to_move == Player::Short { f.div_ceil(2) } else { f / 2 };
    classes.assign(base);
    for i in 0..short_share {
        let j = i + rng.below((f - i) as u64) as usize;
        free.swap(i, j);
        let (u, v) = board.edges()[free[i]];
        classes.union(u, v);
    }
    classes.find(board.a()) == classes.find(board.b())
}

/// Short's wins in `games` games, Cut moving first.
#[derive(Clone, Debug, Serialize)]
pub struct Simulation {
    pub games: u64,
    pub seed: u64,
    pub short_wins: u64,
    /// 95 % Wilson score interval of Short's win probability.
    pub interval: (f64, f64),
}

impl Simulation {
    /// Short's observed win rate.
    pub fn rate(&self) -> f64 {
        self.short_wins as f64 / self.games as f64
    }
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_984_540_054;

/// The 95 % Wilson score interval for `wins` successes in `n` > 0 trials.
pub fn wilson_interval(wins: u64, n: u64) -> (f64, f64) {
    let (n, p) = (n as f64, wins as f64 / n as f64);
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One game from the empty board, Cut first; whether Short wins.
pub fn play_game(board: &Board, cut: SimAgent, short: SimAgent, rng: &mut Rng) -> bool {
    let mut pos = Position::start(board, Player::Cut);
    loop {
        if let Some(w) = pos.winner(board) {
            return w == Player::Short;
        }
        let agent = if pos.to_move == Player::Cut { cut } else { short };
        let e = agent.sample(board, &pos, rng);
        pos = pos.play(e);
    }
}

/// Simulates `games` games of `cut` (first) against `short` with `seed`;
/// `progress` counts the games.
pub fn simulate(
    board: &Board,
    cut: SimAgent,
    short: SimAgent,
    games: u64,
    seed: u64,
    progress: &Progress,
) -> Result<Simulation> {
    cut.validate()?;
    short.validate()?;
    if games == 0 {
        return Err(invalid("a simulation needs at least one game"));
    }
    progress.begin("games", Some(games));
    let short_wins: u64 = (0..games)
        .into_par_iter()
        .map(|i| {
            let mut rng = Rng::new(seed ^ i.wrapping_mul(0xD1B5_4A32_D192_ED03));
            let won = play_game(board, cut, short, &mut rng);
            progress.advance(1);
            won as u64
        })
        .sum();
    progress.end();
    Ok(Simulation { games, seed, short_wins, interval: wilson_interval(short_wins, games) })
}
