//! Exact results of Shannon's heuristic over all tie choices (thesis 5.3,
//! reference note §4.3).
//!
//! - Self-play (5.3.2): the game under the policy pair "heuristic vs heuristic"
//!   is an acyclic game graph ([`ExplicitGraph`]) whose moves are the tied
//!   maximisers; uniform tie choice makes them chance moves, and
//!   [`stochastic::random_values`] gives the mover's exact win probability.
//!   Probability 1 means a win for every tie choice, 0 for none.
//! - Heuristic Cut against an optimal Short (5.3.1): exhaustive search with a
//!   transposition table; Cut's ties are resolved against Short (Short must
//!   win for every tie choice) or for Short (for some tie choice).

use super::board::Board;
use super::heuristic::best_edges;
use super::position::{Player, Position};
use super::solver::Solver;
use crate::error::Result;
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::stochastic;
use num_rational::BigRational;
use num_traits::One;
use std::collections::HashMap;

/// The self-play game graph of the heuristic from `start`.
pub fn self_play_graph(board: &Board, start: Position) -> ExplicitGraph<Position> {
    ExplicitGraph::explore([start], |p: &Position| {
        if p.winner(board).is_some() {
            return Node::Moves(Vec::new());
        }
        Node::Moves(best_edges(board, p, &Solver::Direct).into_iter().map(|e| p.play(e)).collect())
    })
}

/// The first player's exact win probability per opening, under uniform ties.
#[derive(Clone, Debug)]
pub struct SelfPlay {
    /// The first player's win probability over the tied openings (uniform).
    pub first_wins: BigRational,
    /// (opening edge, first player's win probability after it).
    pub openings: Vec<(usize, BigRational)>,
    /// Positions in the game graph.
    pub states: usize,
}

/// Shannon vs Shannon with `first` moving first on `board`.
pub fn self_play(board: &Board, first: Player) -> Result<SelfPlay> {
    let start = Position::start(board, first);
    let graph = self_play_graph(board, start.clone());
    let layers = stochastic::layers(&graph)?;
    let values = stochastic::random_values::<_, BigRational>(&graph, &layers);
    let root = graph.index_of(&start).expect("the root is explored");
    let after = |c: usize| match graph.terminal(c) {
        Some(_) => BigRational::one(),
        None => BigRational::one() - values[c].clone().expect("solved"),
    };
    let openings = graph
        .successors(root)
        .iter()
        .map(|&c| {
            let pos = graph.state(c as usize);
            let edge = (0..board.edges().len()).find(|&e| pos.is_free(e) != start.is_free(e)).expect("one move");
            (edge, after(c as usize))
        })
        .collect();
    Ok(SelfPlay { first_wins: values[root].clone().expect("the root has moves"), openings, states: graph.len() })
}

/// How Cut's ties are resolved when Short searches for a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CutTies {
    /// Short must win after every tied choice of Cut.
    AgainstShort,
    /// Short may pick Cut's tied choice.
    ForShort,
}

/// Exhaustive search: heuristic Cut against an optimal Short.
pub struct ExploitSearch<'a> {
    board: &'a Board,
    ties: CutTies,
    memo: HashMap<Position, bool>,
}

impl<'a> ExploitSearch<'a> {
    /// A search on `board` with Cut's ties resolved by `ties`.
    pub fn new(board: &'a Board, ties: CutTies) -> ExploitSearch<'a> {
        ExploitSearch { board, ties, memo: HashMap::new() }
    }

    /// Positions in the transposition table.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Whether Short (optimal) wins from `pos` against the heuristic Cut.
    pub fn short_wins(&mut self, pos: &Position) -> bool {
        if let Some(w) = pos.winner(self.board) {
            return w == Player::Short;
        }
        if let Some(&v) = self.memo.get(pos) {
            return v;
        }
        let best = best_edges(self.board, pos, &Solver::Direct);
        let value = match pos.to_move {
            Player::Cut => match self.ties {
                CutTies::AgainstShort => best.iter().all(|&e| self.short_wins(&pos.play(e))),
                CutTies::ForShort => best.iter().any(|&e| self.short_wins(&pos.play(e))),
            },
            Player::Short => {
                let mut order = best.clone();
                order.extend(pos.free_edges(self.board).into_iter().filter(|e| !best.contains(e)));
                order.into_iter().any(|e| self.short_wins(&pos.play(e)))
            }
        };
        self.memo.insert(pos.clone(), value);
        value
    }
}
