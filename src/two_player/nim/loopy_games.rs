//! Games with cycles from seed003 §C2: Poker-Nim (≈C209) and Northcott's game
//! (≈C213). Both are explored into explicit graphs and solved by the common
//! retrograde engine (win / loss / draw with depths) and by generalised
//! Sprague-Grundy values; cycles never turn into false losses.

use crate::graph::WinLossDraw;
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::loopy::{Loopy, loopy_values};

/// A Poker-Nim state seen from the player to move: the piles, the mover's
/// stack and the waiting player's stack.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PokerNim {
    /// Pile sizes.
    pub piles: Vec<u32>,
    /// Matches held by the player to move.
    pub mover: u32,
    /// Matches held by the other player.
    pub other: u32,
}

impl PokerNim {
    /// The moves: take s ≥ 1 from a pile into the own stack, or put s ≥ 1 from the
    /// own stack onto a pile; afterwards the roles swap. No move: the mover loses.
    pub fn moves(&self) -> Vec<PokerNim> {
        let mut out = Vec::new();
        for (i, &x) in self.piles.iter().enumerate() {
            for s in 1..=x {
                let mut piles = self.piles.clone();
                piles[i] -= s;
                out.push(PokerNim { piles, mover: self.other, other: self.mover + s });
            }
            for s in 1..=self.mover {
                let mut piles = self.piles.clone();
                piles[i] += s;
                out.push(PokerNim { piles, mover: self.other, other: self.mover - s });
            }
        }
        out
    }

    /// Eisermann's time bound (≈C211): w = [1−u]·a + u·b + Σx_i, with u the
    /// normal-play Nim outcome and a, b the mover's and the other's stack.
    pub fn time_bound(&self) -> u32 {
        let u = self.piles.iter().fold(0, |a, &x| a ^ x) != 0;
        let sum: u32 = self.piles.iter().sum();
        if u { self.other + sum } else { self.mover + sum }
    }
}

/// All Poker-Nim states with `piles` piles of at most `max_pile`, stacks at most
/// `max_stack` (as starts), explored with everything they reach.
pub fn poker_nim_graph(piles: usize, max_pile: u32, max_stack: u32) -> ExplicitGraph<PokerNim> {
    let mut starts = Vec::new();
    let sizes: Vec<Vec<u32>> = (0..(max_pile + 1).pow(piles as u32))
        .map(|mut code| {
            (0..piles)
                .map(|_| {
                    let x = code % (max_pile + 1);
                    code /= max_pile + 1;
                    x
                })
                .collect()
        })
        .collect();
    for p in &sizes {
        for a in 0..=max_stack {
            for b in 0..=max_stack {
                starts.push(PokerNim { piles: p.clone(), mover: a, other: b });
            }
        }
    }
    ExplicitGraph::explore(starts, |s| Node::Moves(s.moves()))
}

/// A Northcott state: per column (white rook row, black rook row) on a board of
/// `height` rows, and whether White moves. The mover slides one of its own rooks
/// up or down without passing the other rook of that column.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Northcott {
    /// (white row, black row) per column, rows 0..height.
    pub columns: Vec<(u8, u8)>,
    /// Board height.
    pub height: u8,
    /// White to move.
    pub white_to_move: bool,
}

impl Northcott {
    /// The moves of the side to move.
    pub fn moves(&self) -> Vec<Northcott> {
        let mut out = Vec::new();
        for (c, &(w, b)) in self.columns.iter().enumerate() {
            let (own, foe) = if self.white_to_move { (w, b) } else { (b, w) };
            let range = if own < foe { 0..foe } else { foe + 1..self.height };
            for to in range.filter(|&r| r != own) {
                let mut next = self.clone();
                next.columns[c] = if self.white_to_move { (to, b) } else { (w, to) };
                next.white_to_move = !self.white_to_move;
                out.push(next);
            }
        }
        out
    }

    /// XOR of the gaps (empty squares between the two rooks of each column).
    pub fn gap_xor(&self) -> u32 {
        self.columns.iter().fold(0, |a, &(w, b)| a ^ (w.abs_diff(b) as u32 - 1))
    }
}

/// Every Northcott state with `columns` columns of `height` rows, both sides to move.
pub fn northcott_graph(columns: usize, height: u8) -> ExplicitGraph<Northcott> {
    let pairs: Vec<(u8, u8)> =
        (0..height).flat_map(|w| (0..height).filter(move |&b| b != w).map(move |b| (w, b))).collect();
    let mut starts = vec![Vec::new()];
    for _ in 0..columns {
        starts = starts
            .iter()
            .flat_map(|s: &Vec<(u8, u8)>| {
                pairs.iter().map(move |&p| {
                    let mut t = s.clone();
                    t.push(p);
                    t
                })
            })
            .collect();
    }
    let states = starts
        .into_iter()
        .flat_map(|cols| [true, false].map(|white_to_move| Northcott { columns: cols.clone(), height, white_to_move }));
    ExplicitGraph::explore(states, |s| Node::Moves(s.moves()))
}

/// WinLossDraw and generalised value of every state of an explored loopy game.
pub fn solve_loopy<S: Clone + Eq + std::hash::Hash + Sync>(graph: &ExplicitGraph<S>) -> (Vec<WinLossDraw>, Vec<Loopy>) {
    let solution = graph.solve();
    let outcomes = (0..graph.len()).map(|v| solution.get(v).expect("every state is used")).collect();
    (outcomes, loopy_values(graph))
}
