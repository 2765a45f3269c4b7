//! Tic-tac-toe, the smallest game with terminal draws: a full board without a
//! line is a draw, never a loss for the mover (seed003 §5.3, T21, T28).

use crate::graph::WinLossDraw;
use crate::graph::explicit::{ExplicitGraph, Node};

/// A board: cells 0..9 with 0 empty, 1 = X, 2 = O; X moves when the counts are equal.
pub type Board = [u8; 9];

const LINES: [[usize; 3]; 8] = [[0, 1, 2], [3, 4, 5], [6, 7, 8], [0, 3, 6], [1, 4, 7], [2, 5, 8], [0, 4, 8], [2, 4, 6]];

fn has_line(b: &Board, who: u8) -> bool {
    LINES.iter().any(|l| l.iter().all(|&c| b[c] == who))
}

/// The state's node: the previous mover completed a line (the mover lost),
/// the board is full (draw), or the moves of the player to move.
pub fn node(b: &Board) -> Node<Board> {
    let placed = b.iter().filter(|&&c| c != 0).count();
    let (mover, previous) = if placed % 2 == 0 { (1, 2) } else { (2, 1) };
    if has_line(b, previous) {
        return Node::Terminal(WinLossDraw::Loss(0));
    }
    if placed == 9 {
        return Node::Terminal(WinLossDraw::Draw);
    }
    Node::Moves(
        (0..9)
            .filter(|&c| b[c] == 0)
            .map(|c| {
                let mut n = *b;
                n[c] = mover;
                n
            })
            .collect(),
    )
}

/// All positions reachable from the empty board.
pub fn graph() -> ExplicitGraph<Board> {
    ExplicitGraph::explore([[0u8; 9]], node)
}
