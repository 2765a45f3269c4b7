//! Exhaustive check of Short's tree strategy (Satz 5.2, [`TreeStrategy`])
//! against every Cut play (issue 50 item 4; `../shared/reference/seed002-ch1235.md §4`).
//!
//! Short moves first with [`TreeStrategy::opening`]; then every Cut move at
//! every Cut turn is tried and answered by [`TreeStrategy::answer`]. A state
//! (Cut to move) is keyed by what the rest of the game depends on: the marked
//! edges, the two trees and whether some free edge lies outside both trees.
//! The deleted edges are left out of the key. That is sound because
//! the check asserts, after every Cut move, that the marked edges and the
//! remaining tree edges still join A and B (so Cut has not won, whatever else
//! is deleted), and the strategy reads a position only through its marked
//! edges. Cut's deletions of edges outside both trees are one "pass" move
//! (the strategy answers them alike and they stay free in the key).
//!
//! Every Cut move is answered by one mark, so a state's number of marked
//! edges is its level and transpositions stay within a level: the search runs
//! level by level and keeps only two levels (keys of two bits per edge and one
//! flag in a `u128`, boards of at most [`MAX_EDGES`] edges).

use super::board::Board;
use super::lehman::TreeStrategy;
use super::position::{Classes, Player, Position};
use crate::error::{Result, invalid};
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, Hasher};

/// The most edges a key holds (two bits per edge and one flag in 128 bits).
pub const MAX_EDGES: usize = 63;

/// What the check visited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TreeCheck {
    /// Distinct states with Cut to move (all levels).
    pub states: u64,
    /// (state, Cut move) pairs tried: every tree edge and the pass where there is one.
    pub cut_moves: u64,
    /// States of the largest level (what the memory holds at once, with its successor level).
    pub widest_level: u64,
    /// Number of levels (Short's marks after the opening until the last win).
    pub levels: usize,
    /// Whether every level was expanded (`on_level` may stop the check early).
    pub complete: bool,
    /// A Cut play that beats the strategy, described; `None` if it never loses.
    pub failure: Option<String>,
}

/// A multiplicative hasher for the `u128` keys (the default SipHash costs more than the key).
#[derive(Default)]
struct Fold(u64);

impl Hasher for Fold {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u128(&mut self, k: u128) {
        let x = (k as u64) ^ ((k >> 64) as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 = (x ^ x >> 29).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        self.0 ^= self.0 >> 32;
    }
}

type Level = HashSet<u128, BuildHasherDefault<Fold>>;

fn bits(set: &super::edge_set::EdgeSet) -> u64 {
    set.iter().fold(0, |w, e| w | 1 << e)
}

/// Key: low half marked | tree 1, high half tree 0 | tree 1, bit 126 the outside flag.
fn key(pos: &Position, s: &TreeStrategy, outside: bool) -> u128 {
    let (m, t0, t1) = (bits(&pos.marked), bits(&s.trees[0]), bits(&s.trees[1]));
    (m | t1) as u128 | ((t0 | t1) as u128) << 63 | (outside as u128) << 126
}

/// The state of a key: deleted = every edge outside marks and trees except one
/// outside edge kept free when the flag is set.
fn decode(board: &Board, k: u128) -> (Position, TreeStrategy) {
    let mask = (1u64 << 63) - 1;
    let (lo, hi) = (k as u64 & mask, (k >> 63) as u64 & mask);
    let n = board.edges().len();
    let mut pos = Position::start(board, Player::Cut);
    let mut s = TreeStrategy { trees: [pos.marked.clone(), pos.marked.clone()] };
    let mut kept_outside = k >> 126 & 1 == 0;
    for e in 0..n {
        match (lo >> e & 1, hi >> e & 1) {
            (1, 0) => pos.marked.insert(e),
            (0, 1) => s.trees[0].insert(e),
            (1, 1) => s.trees[1].insert(e),
            _ if !kept_outside => kept_outside = true,
            _ => pos.deleted.insert(e),
        }
    }
    (pos, s)
}

/// Whether A and B are joined by the marked edges and the tree edges other than `cut`.
fn trees_join(board: &Board, pos: &Position, s: &TreeStrategy, cut: usize) -> bool {
    let mut c = Classes::new(board.nodes());
    let edges = pos.marked.iter().chain(s.trees[0].iter()).chain(s.trees[1].iter());
    for e in edges.filter(|&e| e != cut) {
        let (u, v) = board.edges()[e];
        c.union(u, v);
    }
    c.find(board.a()) == c.find(board.b())
}

/// Checks the tree strategy against every Cut play on `board` (Short moves
/// first). `on_level(level, states)` reports each level before it is expanded
/// and stops the check (incomplete) by returning `false`. Fails on boards
/// with more than [`MAX_EDGES`] edges or on which Short has no two-tree opening.
pub fn check_tree_strategy(board: &Board, mut on_level: impl FnMut(usize, u64) -> bool) -> Result<TreeCheck> {
    let n = board.edges().len();
    if n > MAX_EDGES {
        return Err(invalid(format!("the tree-strategy check keys at most {MAX_EDGES} edges, the board has {n}")));
    }
    let (opening, strategy) =
        TreeStrategy::opening(board).ok_or_else(|| invalid("Short has no two-tree opening on this board"))?;
    let start = Position::start(board, Player::Short).play(opening);
    let mut out = TreeCheck::default();
    let mut level: Vec<u128> = vec![key(&start, &strategy, outside_exists(n, &start, &strategy))];
    while !level.is_empty() {
        if !on_level(out.levels, level.len() as u64) {
            return Ok(out);
        }
        out.states += level.len() as u64;
        out.widest_level = out.widest_level.max(level.len() as u64);
        out.levels += 1;
        let mut next = Level::default();
        for &k in &level {
            if let Err(failure) = expand(board, k, &mut next, &mut out.cut_moves) {
                out.failure = Some(failure);
                return Ok(out);
            }
        }
        level = next.into_iter().collect();
    }
    out.complete = true;
    Ok(out)
}

fn outside_exists(n: usize, pos: &Position, s: &TreeStrategy) -> bool {
    (0..n).any(|e| pos.is_free(e) && !s.trees[0].contains(e) && !s.trees[1].contains(e))
}

/// Tries every Cut move of the state `k`, inserting the states after Short's answers into `next`.
fn expand(board: &Board, k: u128, next: &mut Level, cut_moves: &mut u64) -> std::result::Result<(), String> {
    let n = board.edges().len();
    let (pos, strategy) = decode(board, k);
    let [t0, t1] = &strategy.trees;
    if (0..n).any(|e| t0.contains(e) && t1.contains(e) || (t0.contains(e) || t1.contains(e)) && !pos.is_free(e)) {
        return Err(format!("the trees overlap or hold a played edge (marked {:?})", names(board, &pos)));
    }
    let pass = (0..n).find(|&e| pos.is_free(e) && !t0.contains(e) && !t1.contains(e));
    for cut in t0.iter().chain(t1.iter()).chain(pass) {
        *cut_moves += 1;
        let fail =
            |what: &str| format!("Cut deletes {} with marked {:?}: {what}", board.edge_name(cut), names(board, &pos));
        if !trees_join(board, &pos, &strategy, cut) {
            return Err(fail("marks and trees no longer join A and B"));
        }
        let after = pos.play(cut);
        let mut s = strategy.clone();
        let Some(mark) = s.answer(board, &after, cut) else {
            return Err(fail("the strategy has no answer"));
        };
        if !after.is_free(mark) {
            return Err(fail("the answer is not a free edge"));
        }
        let mut reply = after.play(mark);
        match reply.winner(board) {
            Some(Player::Short) => {}
            Some(Player::Cut) => return Err(fail("Cut won after Short's answer")),
            None => {
                if Some(cut) == pass {
                    reply.deleted.remove(cut);
                }
                let outside = outside_exists(n, &reply, &s);
                next.insert(key(&reply, &s, outside));
            }
        }
    }
    Ok(())
}

fn names(board: &Board, pos: &Position) -> Vec<String> {
    pos.marked.iter().map(|e| board.edge_name(e)).collect()
}
