//! Exact win probabilities of MC(k) Short against the heuristic Cut (thesis
//! Fig 5.9, `../shared/reference/seed002-ch1235.md §4.4`), by backward
//! induction on the game graph instead of simulation (issue 50 item 5).
//!
//! MC(k) (thesis Def 1.1, the agent [`super::simulate::SimAgent::MonteCarlo`]
//! samples) plays k random play-outs after each free edge and takes an edge
//! with most wins, ties uniform. A random play-out from a position with f free
//! edges gives the player to move ⌈f/2⌉ of them, a uniformly random subset
//! (see [`super::simulate`]), so candidate e's single play-out win probability
//! is the exact fraction p_e = #{subsets of Short's share joining A and B} /
//! C(f, share), counted over all subsets. Its wins are Binomial(k, p_e) and
//! the move distribution is [`crate::graph::mc_select::select_exact`] (exact
//! in rationals); the heuristic Cut plays its exact ties uniformly.
//!
//! The states are whole positions, not networks: p_e depends on the free dead
//! edges too (they take part of Short's share). Cost: the subset count is
//! C(f, ⌊f/2⌋) per candidate (M = 3: at most C(12, 6) = 924); for M = 4
//! (f up to 24: C(23, 11) ≈ 1.35·10⁶ per candidate, 24 candidates, per
//! position) the count alone is out of reach, and [`exact_mc_short`] refuses
//! boards over [`MAX_FREE_EDGES`] edges.

use super::board::Board;
use super::heuristic::best_edges;
use super::position::{Classes, Player, Position};
use super::solver::Solver;
use crate::error::{Result, invalid};
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::mc_select::select_exact;
use crate::graph::scalar::Scalar;
use crate::graph::stochastic;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::sync::Mutex;

/// Boards with more edges are refused (the subset counts grow as C(f, f/2)).
pub const MAX_FREE_EDGES: usize = 16;

/// Short's exact win probability when MC(k) Short plays the heuristic Cut (Cut first).
#[derive(Clone, Debug)]
pub struct ExactMc {
    pub k: u32,
    pub short_wins: BigRational,
    /// Positions in the game graph.
    pub states: usize,
}

/// The probability that a uniformly random completion of `pos` (game not
/// over) joins A and B: Short takes his share of the free edges, every
/// subset of that size equally likely.
pub fn random_completion_probability(board: &Board, pos: &Position) -> BigRational {
    let free = pos.free_edges(board);
    let f = free.len();
    let share = if pos.to_move == Player::Short { f.div_ceil(2) } else { f / 2 };
    let base = pos.marked_classes(board);
    let (mut joined, mut all) = (0u64, 0u64);
    // Every f-bit mask with `share` bits set (Gosper's hack), in increasing order.
    let mut mask: u64 = (1u64 << share) - 1;
    while mask < (1u64 << f) {
        let mut classes: Classes = base.clone();
        for (i, &e) in free.iter().enumerate() {
            if mask >> i & 1 == 1 {
                let (u, v) = board.edges()[e];
                classes.union(u, v);
            }
        }
        joined += (classes.find(board.a()) == classes.find(board.b())) as u64;
        all += 1;
        if mask == 0 {
            break;
        }
        let low = mask & mask.wrapping_neg();
        let ripple = mask + low;
        mask = (((ripple ^ mask) >> 2) / low) | ripple;
    }
    BigRational::new(BigInt::from(joined), BigInt::from(all))
}

/// MC(k) Short against the heuristic Cut on `board`, Cut first: Short's exact
/// win probability. Refuses k = 0, boards over [`MAX_FREE_EDGES`] edges and
/// game graphs over `limit_bytes`.
pub fn exact_mc_short(board: &Board, k: u32, limit_bytes: u64) -> Result<ExactMc> {
    if k == 0 {
        return Err(invalid("MC(k) needs k ≥ 1 play-outs per move (k = 0 given)"));
    }
    if board.edges().len() > MAX_FREE_EDGES {
        return Err(invalid(format!(
            "exact MC(k) counts every random completion: {} edges are too many (at most {MAX_FREE_EDGES})",
            board.edges().len()
        )));
    }
    let start = Position::start(board, Player::Cut);
    let moves = |p: &Position| -> Vec<usize> {
        match p.to_move {
            Player::Cut => best_edges(board, p, &Solver::Direct),
            Player::Short => p.free_edges(board),
        }
    };
    let graph = ExplicitGraph::explore_within(
        [start.clone()],
        |p: &Position| {
            if p.winner(board).is_some() {
                return Node::Moves(Vec::new());
            }
            Node::Moves(moves(p).into_iter().map(|e| p.play(e)).collect())
        },
        limit_bytes,
    )
    .map_err(|n| invalid(format!("the MC(k) game graph passed the memory limit after {n} positions")))?;
    let layers = stochastic::layers(&graph)?;
    let completions: Mutex<HashMap<usize, BigRational>> = Mutex::new(HashMap::new());
    let candidate = |c: usize| -> BigRational {
        if graph.terminal(c).is_some() {
            return BigRational::one(); // Short's move ended the game: he joined A and B
        }
        if let Some(p) = completions.lock().expect("cache").get(&c) {
            return p.clone();
        }
        let p = random_completion_probability(board, graph.state(c));
        completions.lock().expect("cache").insert(c, p.clone());
        p
    };
    let values = stochastic::play_values::<_, BigRational>(&graph, &layers, |v| {
        let n = graph.successors(v).len() as i64;
        match graph.state(v).to_move {
            Player::Cut => vec![BigRational::ratio(1, n); n as usize],
            Player::Short => {
                let ps: Vec<BigRational> = graph.successors(v).iter().map(|&c| candidate(c as usize)).collect();
                select_exact(k, &ps)
            }
        }
    });
    let root = graph.index_of(&start).expect("the root is explored");
    let cut_wins = values[root].clone().unwrap_or_else(BigRational::zero);
    Ok(ExactMc { k, short_wins: BigRational::one() - cut_wins, states: graph.len() })
}
