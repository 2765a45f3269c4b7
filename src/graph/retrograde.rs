//! Counter-based retrograde analysis over a weighted predecessor relation.
//!
//! This is Ströhlein's algorithm (1970, S5.3 with the incremental OR side of
//! S5.4 and the "Rückrechnung" of §8.4) in its modern counter form:
//! - a position whose successor is *lost* for the opponent at depth d is won
//!   at depth d+1 (the first such discovery is the shortest win, because
//!   depths are processed in increasing order);
//! - each position counts the (weighted) moves that are not yet known to lead
//!   to a win for the opponent; when the count reaches zero the position is
//!   lost, at one ply more than its latest (deepest) successor — the loser
//!   delays (S3.8: the index of the AND side is n, not n−1);
//! - whatever is undecided when the frontier is empty is a draw (infinite
//!   play, D3.2), and terminal draws (stalemate) are draws from the start, so
//!   they never turn into losses for the mover (thesis §2 remark (c)).
//!
//! Two extensions make the one engine serve every client:
//! - *Exits*: moves that leave the graph into an already solved subgame
//!   (a capture into a 3-man ending, S5.6) carry their value directly.
//! - *Weights*: a game that stores one position per symmetry class reports
//!   `weight` per in-graph move and per predecessor edge such that, for every
//!   class, the predecessor weights reaching it from one class add up to the
//!   move weights it counted into that class (see [`crate::two_player::chess`]).
//!
//! Invariant on return: every used position is `Win(d)` iff some move reaches a
//! position (or exit) lost for the opponent in d−1 plies and none in fewer;
//! `Loss(d)` iff every move reaches a win for the opponent and the deepest is
//! d−1; `Draw` otherwise. Tests check this against the equations (G1, G3).

use super::value::WinLossDraw;
use rayon::prelude::*;
use std::sync::atomic::{AtomicU8, AtomicU32, Ordering::Relaxed};

/// What the game says about a position before the analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Not a position of the game (illegal, or not the representative of its class).
    Unused,
    /// A terminal position with its value for the mover (mate: `Loss(0)`, stalemate: `Draw`).
    Decided(WinLossDraw),
    /// A position with moves: `weight` is the total weight of its moves to positions
    /// of the graph; `exit` is the best value for the mover over its moves that
    /// leave the graph (already seen from the mover, the move's ply included).
    Open { weight: u32, exit: Option<WinLossDraw> },
}

/// A game graph given by dense position indices, initial knowledge and predecessors.
pub trait RetroGraph: Sync {
    /// Number of position indices; used positions are a subset of `0..size()`.
    fn size(&self) -> usize;
    /// Initial knowledge about position `p`.
    fn start(&self, p: usize) -> Start;
    /// Calls `visit(q, w)` for every move from a used position `q` into `p`,
    /// with that move's weight `w` (1 for graphs without symmetry reduction).
    fn predecessors<F: FnMut(usize, u32)>(&self, p: usize, visit: F);
}

/// The value of every position of a solved graph.
#[derive(Clone, Debug)]
pub struct Solution {
    values: Vec<Option<WinLossDraw>>,
}

impl Solution {
    /// The value of position `p` for the mover (`None`: not a used position).
    pub fn get(&self, p: usize) -> Option<WinLossDraw> {
        self.values[p]
    }

    /// All values, indexed like the graph.
    pub fn values(&self) -> &[Option<WinLossDraw>] {
        &self.values
    }
}

const NONE: u32 = u32::MAX;
const OPEN: u8 = 0;
const WON: u8 = 1;
const LOST: u8 = 2;
const UNUSED: u8 = 3;
const DRAWN: u8 = 4;

/// Working state of one analysis; all per-position arrays are indexed like the graph.
struct Work {
    state: Vec<AtomicU8>,
    moves_left: Vec<AtomicU32>,
    win_depth: Vec<AtomicU32>,
    loss_depth: Vec<AtomicU32>,
    exit_loss: Vec<u32>,
    buckets: Vec<Vec<u32>>,
}

impl Work {
    fn new(n: usize) -> Work {
        Work {
            state: (0..n).map(|_| AtomicU8::new(OPEN)).collect(),
            moves_left: (0..n).map(|_| AtomicU32::new(0)).collect(),
            win_depth: (0..n).map(|_| AtomicU32::new(NONE)).collect(),
            loss_depth: (0..n).map(|_| AtomicU32::new(NONE)).collect(),
            exit_loss: vec![NONE; n],
            buckets: Vec::new(),
        }
    }

    fn push(&mut self, depth: u32, p: usize) {
        let d = depth as usize;
        if self.buckets.len() <= d {
            self.buckets.resize_with(d + 1, Vec::new);
        }
        self.buckets[d].push(p as u32);
    }

    /// Records the initial knowledge of `p` and schedules decided positions.
    fn seed(&mut self, p: usize, start: Start) {
        match start {
            Start::Unused => self.state[p] = AtomicU8::new(UNUSED),
            Start::Decided(WinLossDraw::Draw) => self.state[p] = AtomicU8::new(DRAWN),
            Start::Decided(WinLossDraw::Win(d)) => self.schedule_win(p, d),
            Start::Decided(WinLossDraw::Loss(d)) => self.schedule_loss(p, d),
            Start::Open { weight, exit } => self.seed_open(p, weight, exit),
        }
    }

    fn seed_open(&mut self, p: usize, weight: u32, exit: Option<WinLossDraw>) {
        // A winning or drawing exit blocks the loss count for good (one extra unit).
        let blocked = matches!(exit, Some(WinLossDraw::Win(_)) | Some(WinLossDraw::Draw));
        *self.moves_left[p].get_mut() = weight + blocked as u32;
        match exit {
            Some(WinLossDraw::Win(d)) => self.schedule_win(p, d),
            Some(WinLossDraw::Loss(d)) => self.exit_loss[p] = d,
            _ => {}
        }
        if weight == 0 && !blocked {
            let depth = if self.exit_loss[p] == NONE { 0 } else { self.exit_loss[p] };
            self.schedule_loss(p, depth);
        }
    }

    fn schedule_win(&mut self, p: usize, d: u32) {
        *self.win_depth[p].get_mut() = d;
        self.push(d, p);
    }

    fn schedule_loss(&mut self, p: usize, d: u32) {
        *self.loss_depth[p].get_mut() = d;
        self.push(d, p);
    }

    /// Marks the positions of bucket `d` final; returns them with their kind.
    fn finalize(&self, items: &[u32], d: u32) -> Vec<(u32, u8)> {
        items
            .par_iter()
            .filter_map(|&p| {
                let i = p as usize;
                let kind = if self.win_depth[i].load(Relaxed) == d {
                    WON
                } else if self.loss_depth[i].load(Relaxed) == d {
                    LOST
                } else {
                    return None;
                };
                self.state[i].compare_exchange(OPEN, kind, Relaxed, Relaxed).ok().map(|_| (p, kind))
            })
            .collect()
    }

    /// Propagates one final position to its predecessors; returns new schedule entries.
    fn propagate<G: RetroGraph>(&self, graph: &G, p: u32, kind: u8, d: u32, out: &mut Vec<(u32, u32)>) {
        graph.predecessors(p as usize, |q, weight| {
            if self.state[q].load(Relaxed) != OPEN {
                return;
            }
            if kind == LOST {
                if self.win_depth[q].fetch_min(d + 1, Relaxed) > d + 1 {
                    out.push((d + 1, q as u32));
                }
                return;
            }
            let before = self.moves_left[q].fetch_sub(weight, Relaxed);
            assert!(before >= weight, "inconsistent move weights at position {q}");
            if before == weight {
                let exit = self.exit_loss[q];
                let depth = if exit == NONE { d + 1 } else { exit.max(d + 1) };
                self.loss_depth[q].store(depth, Relaxed);
                out.push((depth, q as u32));
            }
        });
    }

    fn outcome(&self, p: usize) -> Option<WinLossDraw> {
        match self.state[p].load(Relaxed) {
            UNUSED => None,
            WON => Some(WinLossDraw::Win(self.win_depth[p].load(Relaxed))),
            LOST => Some(WinLossDraw::Loss(self.loss_depth[p].load(Relaxed))),
            _ => Some(WinLossDraw::Draw),
        }
    }
}

/// Solves a game graph: the value of every used position (see the module invariant).
/// The initial pass and each depth layer run in parallel.
pub fn solve<G: RetroGraph>(graph: &G) -> Solution {
    let n = graph.size();
    assert!(n < u32::MAX as usize, "graph too large for 32-bit position indices");
    let starts: Vec<Start> = (0..n).into_par_iter().map(|p| graph.start(p)).collect();
    let mut work = Work::new(n);
    for (p, start) in starts.into_iter().enumerate() {
        work.seed(p, start);
    }
    let mut d = 0u32;
    while (d as usize) < work.buckets.len() {
        let items = std::mem::take(&mut work.buckets[d as usize]);
        let decided = work.finalize(&items, d);
        let scheduled: Vec<(u32, u32)> = decided
            .par_iter()
            .fold(Vec::new, |mut out, &(p, kind)| {
                work.propagate(graph, p, kind, d, &mut out);
                out
            })
            .reduce(Vec::new, |mut a, mut b| {
                a.append(&mut b);
                a
            });
        for (depth, q) in scheduled {
            work.push(depth, q as usize);
        }
        d += 1;
    }
    let values = (0..n).into_par_iter().map(|p| work.outcome(p)).collect();
    Solution { values }
}
