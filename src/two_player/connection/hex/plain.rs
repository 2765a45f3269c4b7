//! Plain exhaustive minimax, the oracle the solver and H-search are checked
//! against: no H-search, no pruning beyond "a chain is complete" and "the chain
//! can no longer be completed".
//!
//! - [`board_winner`]: the winner of a board position with perfect play.
//! - [`graph_connects`]: the game on a Hex graph restricted to a carrier
//!   (seed §9 "Exact(…)"): can the own player connect x and y when only the
//!   carrier's cells are played, with the given side moving first? Besides
//!   the two cutoffs it uses only immediate threats: a cell whose own stone
//!   completes the chain wins for the own player to move; with two such cells
//!   the opponent to move loses, with one he must take it.

use super::board::{Bits, Colour, cells_of};
use super::graph::HexGraph;
use super::position::Position;
use crate::search::fasthash::FastBuild;
use std::collections::HashMap;

type GameMemo = HashMap<(Bits, Bits, bool), bool, FastBuild>;

/// The winner of `position` with perfect play (exhaustive, memoised).
pub fn board_winner(position: &Position) -> Colour {
    let mut memo = HashMap::default();
    let mover_wins = mover_wins(position, position.black, position.white, position.to_move, &mut memo);
    if mover_wins { position.to_move } else { position.to_move.other() }
}

fn mover_wins(
    p: &Position,
    black: Bits,
    white: Bits,
    mover: Colour,
    memo: &mut HashMap<(Bits, Bits), bool, FastBuild>,
) -> bool {
    let board = &p.board;
    let (own, other) = if mover == Colour::Black { (black, white) } else { (white, black) };
    if board.connects(mover.other(), other) {
        return false;
    }
    if board.connects(mover, own) {
        return true;
    }
    if let Some(&v) = memo.get(&(black, white)) {
        return v;
    }
    let free = board.all() & !(black | white);
    let win = cells_of(free).any(|c| {
        let (b, w) = if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
        !mover_wins(p, b, w, mover.other(), memo)
    });
    memo.insert((black, white), win);
    win
}

/// Whether the own player connects `x` and `y` in `graph` when the game is
/// played on the free nodes `carrier` only, the own player moving first iff
/// `own_first` (occupied nodes count as own stones).
pub fn graph_connects(graph: &HexGraph, x: usize, y: usize, carrier: Bits, own_first: bool) -> bool {
    let mut memo = GameMemo::default();
    let game = GraphGame { graph, x, y, carrier: carrier & graph.free() };
    if own_first { game.own_wins(0, 0, &mut memo) } else { game.opponent_to_move_loses(0, 0, &mut memo) }
}

struct GraphGame<'a> {
    graph: &'a HexGraph,
    x: usize,
    y: usize,
    carrier: Bits,
}

impl GraphGame<'_> {
    /// The free cells where one own stone completes the x–y chain.
    fn threats(&self, own: Bits, free: Bits) -> Bits {
        cells_of(free).filter(|&c| self.graph.connected(self.x, self.y, own | 1 << c)).fold(0, |m, c| m | 1 << c)
    }

    /// Own player to move.
    fn own_wins(&self, own: Bits, opp: Bits, memo: &mut GameMemo) -> bool {
        if self.graph.connected(self.x, self.y, own) {
            return true;
        }
        if !self.graph.connected(self.x, self.y, own | (self.carrier & !opp)) {
            return false;
        }
        if let Some(&v) = memo.get(&(own, opp, true)) {
            return v;
        }
        let free = self.carrier & !(own | opp);
        if self.threats(own, free) != 0 {
            return true;
        }
        let v = cells_of(free).any(|c| self.opponent_to_move_loses(own | 1 << c, opp, memo));
        memo.insert((own, opp, true), v);
        v
    }

    /// Opponent to move: does the own player still connect?
    fn opponent_to_move_loses(&self, own: Bits, opp: Bits, memo: &mut GameMemo) -> bool {
        if self.graph.connected(self.x, self.y, own) {
            return true;
        }
        if !self.graph.connected(self.x, self.y, own | (self.carrier & !opp)) {
            return false;
        }
        if let Some(&v) = memo.get(&(own, opp, false)) {
            return v;
        }
        let mut free = self.carrier & !(own | opp);
        let threats = self.threats(own, free);
        if threats.count_ones() >= 2 {
            return true;
        }
        if threats != 0 {
            free = threats;
        }
        let v = cells_of(free).all(|c| self.own_wins(own, opp | 1 << c, memo));
        memo.insert((own, opp, false), v);
        v
    }
}
