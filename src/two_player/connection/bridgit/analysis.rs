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
use super::network::{Network, Pole};
use super::position::{Player, Position};
use super::solver::Solver;
use crate::error::{Error, Result};
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::stochastic;
use crate::memory::{SharedBudget, budget_text, human_bytes};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::collections::HashMap;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// The mover, whether the game is over, and the links (edge, end, end).
type NetworkKey = (Player, bool, Box<[(u32, u32, u32)]>);

/// A position keyed by its network: the free edges that can carry current
/// with their ends (inner nodes numbered as in [`Network::of`]) and the mover.
/// Positions that differ only in dead edges (Cut's choice between the two
/// edges of a 2-chain) share one key; the heuristic's play from them is the
/// same, because it reads only the network.
#[derive(Clone, Debug)]
pub struct PlayState {
    key: NetworkKey,
    pub position: Position,
}

impl PartialEq for PlayState {
    fn eq(&self, other: &PlayState) -> bool {
        self.key == other.key
    }
}

impl Eq for PlayState {}

impl Hash for PlayState {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.key.hash(h);
    }
}

impl PlayState {
    /// The state of `position`.
    pub fn new(board: &Board, position: Position) -> PlayState {
        let net = Network::of(board, &position);
        let code = |p: Pole| match p {
            Pole::A => u32::MAX,
            Pole::B => u32::MAX - 1,
            Pole::Inner(i) => i as u32,
        };
        let links = net.links.iter().map(|&(e, u, v)| (e as u32, code(u), code(v))).collect();
        let over = position.winner(board).is_some();
        PlayState { key: (position.to_move, over, links), position }
    }
}

/// The self-play game graph of the heuristic from the given roots.
pub fn self_play_graph(board: &Board, roots: Vec<Position>) -> ExplicitGraph<PlayState> {
    let roots: Vec<PlayState> = roots.into_iter().map(|p| PlayState::new(board, p)).collect();
    ExplicitGraph::explore(roots, |s: &PlayState| {
        let p = &s.position;
        if p.winner(board).is_some() {
            return Node::Moves(Vec::new());
        }
        let moves = best_edges(board, p, &Solver::Direct);
        Node::Moves(moves.into_iter().map(|e| PlayState::new(board, p.play(e))).collect())
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

/// Shannon vs Shannon with `first` moving first on `board`. Openings are
/// explored once per symmetry class ([`Board::symmetric_images`]).
pub fn self_play(board: &Board, first: Player) -> Result<SelfPlay> {
    let start = Position::start(board, first);
    let openings = best_edges(board, &start, &Solver::Direct);
    let class = |e: usize| board.symmetric_images(e).into_iter().min().unwrap_or(e);
    let reps: Vec<usize> = openings.iter().copied().filter(|&e| class(e) == e).collect();
    let graph = self_play_graph(board, reps.iter().map(|&e| start.play(e)).collect());
    let layers = stochastic::layers(&graph)?;
    let values = stochastic::random_values::<_, BigRational>(&graph, &layers);
    let after = |e: usize| {
        let c = graph.index_of(&PlayState::new(board, start.play(class(e)))).expect("explored root");
        match graph.terminal(c) {
            Some(_) => BigRational::one(),
            None => BigRational::one() - values[c].clone().expect("solved"),
        }
    };
    let openings: Vec<(usize, BigRational)> = openings.iter().map(|&e| (e, after(e))).collect();
    let total = openings.iter().fold(BigRational::zero(), |acc, o| acc + &o.1);
    let first_wins = total / BigRational::from_integer((openings.len() as i64).into());
    Ok(SelfPlay { first_wins, openings, states: graph.len() })
}

/// How Cut's ties are resolved when Short searches for a win.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CutTies {
    /// Short must win after every tied choice of Cut.
    AgainstShort,
    /// Short may pick Cut's tied choice.
    ForShort,
}

/// Heap bytes a position of [`ExploitSearch`] takes at most, measured: 99–135
/// for M = 3..7 (counted peak over positions, both tie readings alive;
/// docs/bridg-it.md), M = 2's 218 being the fixed cost of two small tables.
pub const EXPLOIT_BYTES_PER_POSITION: u64 = 135;

/// Exhaustive search: heuristic Cut against an optimal Short.
pub struct ExploitSearch<'a> {
    board: &'a Board,
    ties: CutTies,
    memo: HashMap<Position, bool>,
    /// Bytes the tables may hold, [`EXPLOIT_BYTES_PER_POSITION`] a position (shared by the searches of one job).
    limit: Option<Arc<SharedBudget>>,
}

impl<'a> ExploitSearch<'a> {
    /// A search on `board` with Cut's ties resolved by `ties`.
    pub fn new(board: &'a Board, ties: CutTies) -> ExploitSearch<'a> {
        ExploitSearch { board, ties, memo: HashMap::new(), limit: None }
    }

    /// The search with its table capped: each position reserves
    /// [`EXPLOIT_BYTES_PER_POSITION`] bytes of `limit`; a position beyond it stops the search.
    pub fn with_limit(mut self, limit: Arc<SharedBudget>) -> ExploitSearch<'a> {
        self.limit = Some(limit);
        self
    }

    /// Positions in the transposition table.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// Whether Short (optimal) wins from `pos` against the heuristic Cut; an
    /// error once the table would pass its limit ([`Self::with_limit`]).
    pub fn short_wins(&mut self, pos: &Position) -> Result<bool> {
        if let Some(w) = pos.winner(self.board) {
            return Ok(w == Player::Short);
        }
        if let Some(&v) = self.memo.get(pos) {
            return Ok(v);
        }
        let best = best_edges(self.board, pos, &Solver::Direct);
        let value = match pos.to_move {
            Player::Cut => {
                // Every tie must win for Short (all), or some tie may (any).
                let all = self.ties == CutTies::AgainstShort;
                let mut value = all;
                for &e in &best {
                    if self.short_wins(&pos.play(e))? != all {
                        value = !all;
                        break;
                    }
                }
                value
            }
            Player::Short => {
                let mut order = best.clone();
                order.extend(pos.free_edges(self.board).into_iter().filter(|e| !best.contains(e)));
                let mut value = false;
                for e in order {
                    if self.short_wins(&pos.play(e))? {
                        value = true;
                        break;
                    }
                }
                value
            }
        };
        if let Some(limit) = &self.limit
            && !limit.reserve(EXPLOIT_BYTES_PER_POSITION)
        {
            return Err(Error::TooLarge(format!(
                "the exploit search passed its limit of {} positions ({} of memory at {EXPLOIT_BYTES_PER_POSITION} \
                 bytes a position: the budget, {}, less what the process held); raise it with --max-memory GIB",
                limit.limit() / EXPLOIT_BYTES_PER_POSITION,
                human_bytes(limit.limit()),
                budget_text()
            )));
        }
        self.memo.insert(pos.clone(), value);
        Ok(value)
    }
}

impl Drop for ExploitSearch<'_> {
    fn drop(&mut self) {
        if let Some(limit) = &self.limit {
            limit.release(self.memo.len() as u64 * EXPLOIT_BYTES_PER_POSITION);
        }
    }
}
