//! A position of the switching game: the deleted (Cut, red) and marked
//! (Short, black) edges and the player to move (reference note §4.1).
//!
//! Short has won once marked edges join A and B; Cut has won once A and B are
//! no longer joined by edges that are not deleted. No draws.

use super::board::Board;
use super::edge_set::EdgeSet;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// Deletes an unmarked edge.
    Cut,
    /// Marks an undeleted edge.
    Short,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::Cut => Player::Short,
            Player::Short => Player::Cut,
        }
    }
}

/// Deleted and marked edges and the mover.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    pub deleted: EdgeSet,
    pub marked: EdgeSet,
    pub to_move: Player,
}

/// Union-find over nodes.
#[derive(Clone, Debug)]
pub struct Classes {
    parent: Vec<u32>,
}

impl Classes {
    /// Every node alone.
    pub fn new(n: usize) -> Classes {
        Classes { parent: (0..n as u32).collect() }
    }

    /// Becomes a copy of `other` (same node count), reusing its allocation.
    pub fn assign(&mut self, other: &Classes) {
        self.parent.clone_from(&other.parent);
    }

    /// The representative of x's class.
    pub fn find(&mut self, mut x: u32) -> u32 {
        while self.parent[x as usize] != x {
            let up = self.parent[self.parent[x as usize] as usize];
            self.parent[x as usize] = up;
            x = up;
        }
        x
    }

    /// Joins the classes of x and y (the smaller representative stays).
    pub fn union(&mut self, x: u32, y: u32) {
        let (rx, ry) = (self.find(x), self.find(y));
        let (lo, hi) = (rx.min(ry), rx.max(ry));
        self.parent[hi as usize] = lo;
    }
}

impl Position {
    /// The empty board with `first` to move.
    pub fn start(board: &Board, first: Player) -> Position {
        let n = board.edges().len();
        Position { deleted: EdgeSet::empty(n), marked: EdgeSet::empty(n), to_move: first }
    }

    /// Whether edge e is still free (neither deleted nor marked).
    pub fn is_free(&self, e: usize) -> bool {
        !self.deleted.contains(e) && !self.marked.contains(e)
    }

    /// The free edges.
    pub fn free_edges(&self, board: &Board) -> Vec<usize> {
        (0..board.edges().len()).filter(|&e| self.is_free(e)).collect()
    }

    /// The position after the mover plays edge e (which must be free).
    pub fn play(&self, e: usize) -> Position {
        debug_assert!(self.is_free(e));
        let mut next = self.clone();
        match self.to_move {
            Player::Cut => next.deleted.insert(e),
            Player::Short => next.marked.insert(e),
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The nodes joined by marked edges.
    pub fn marked_classes(&self, board: &Board) -> Classes {
        let mut classes = Classes::new(board.nodes());
        for e in self.marked.iter() {
            let (u, v) = board.edges()[e];
            classes.union(u, v);
        }
        classes
    }

    /// The winner, if the game is over.
    pub fn winner(&self, board: &Board) -> Option<Player> {
        let mut marked = self.marked_classes(board);
        if marked.find(board.a()) == marked.find(board.b()) {
            return Some(Player::Short);
        }
        let mut alive = Classes::new(board.nodes());
        for (e, &(u, v)) in board.edges().iter().enumerate() {
            if !self.deleted.contains(e) {
                alive.union(u, v);
            }
        }
        (alive.find(board.a()) != alive.find(board.b())).then_some(Player::Cut)
    }
}
