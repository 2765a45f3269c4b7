//! Solved endgame tables: values per canonical position, lookups by any
//! position, and the statistics the thesis reports (maximum depth, number of
//! positions at the maximum on the full board, number of symmetry classes).

use super::endgame::{Endgame, EndgameGraph, Metric, Move, MoveResult, for_each_move};
use super::position::Position;
use crate::graph::WinLossDraw;
use crate::graph::retrograde::{self, RetroGraph};
use rayon::prelude::*;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// The solved values of one endgame under one metric.
pub struct Table {
    /// The endgame.
    pub endgame: Endgame,
    /// The metric of the depths.
    pub metric: Metric,
    values: Vec<Option<WinLossDraw>>,
    /// Seconds spent in the retrograde analysis (this table only).
    pub seconds: f64,
}

impl Table {
    /// The value for the side to move of any legal position of the endgame.
    pub fn probe(&self, pos: &Position) -> Option<WinLossDraw> {
        if pos.count != self.endgame.men() || !pos.is_legal(&self.endgame.pieces()) {
            return None;
        }
        let (canon, _) = pos.canonical();
        self.values[self.endgame.index(&canon)]
    }

    /// Every legal move with its value for the mover (the move's ply included).
    pub fn moves(&self, pos: &Position, base: &Tablebase) -> Vec<(Move, WinLossDraw)> {
        let mut out = Vec::new();
        let pieces = self.endgame.pieces();
        for_each_move(&pieces, pos, |m| out.push(m));
        out.into_iter()
            .map(|m| {
                let value = match &m.result {
                    MoveResult::Quiet(after) => self.probe(after).expect("legal successor").before_move(),
                    MoveResult::Capture { after, capturer_white } => {
                        base.capture_exit(self.endgame, self.metric, *capturer_white, after)
                    }
                };
                (m, value)
            })
            .collect()
    }

    /// An optimal line from `pos`: both sides play a best move (the first in
    /// generation order among equals) until a capture, mate or stalemate.
    /// Moves are written `Rb4`, `Kxb1`; the line ends with `#` at mate.
    pub fn principal_variation(&self, pos: &Position, base: &Tablebase) -> Vec<String> {
        let pieces = self.endgame.pieces();
        let mut line = Vec::new();
        let mut current = *pos;
        while line.len() < 400 {
            let moves = self.moves(&current, base);
            let Some((best, _)) = moves.iter().copied().reduce(|a, b| if b.1.better_than(a.1) { b } else { a }) else {
                if current.in_check(&pieces) {
                    line.push("#".to_string());
                }
                break;
            };
            line.push(best.label(&pieces));
            match best.result {
                MoveResult::Quiet(next) if self.probe(&next) != Some(WinLossDraw::Draw) => current = next,
                _ => break,
            }
        }
        line
    }

    /// Independent check of the table: re-derives every stored value from the
    /// position's moves (forward generation, no un-moves, no weights) — the best
    /// move value, or mate/stalemate — and returns the number of positions where
    /// it differs. With integer depths these equations have one solution
    /// (every win and loss is well founded), so 0 proves the table.
    pub fn verify(&self, base: &Tablebase) -> u64 {
        let pieces = self.endgame.pieces();
        (0..self.values.len())
            .into_par_iter()
            .filter(|&p| {
                let Some(stored) = self.values[p] else { return false };
                let pos = self.endgame.decode(p);
                let moves = self.moves(&pos, base);
                let derived = match moves.iter().map(|(_, v)| *v).reduce(WinLossDraw::best) {
                    Some(best) => best,
                    None if pos.in_check(&pieces) => self.metric.mated(),
                    None => WinLossDraw::Draw,
                };
                derived != stored
            })
            .count() as u64
    }

    /// Statistics over positions with the given side to move.
    pub fn summary(&self, white_to_move: bool) -> SideSummary {
        let per_side = self.endgame.per_side();
        let range = if white_to_move { 0..per_side } else { per_side..2 * per_side };
        let parts: Vec<SideSummary> = range
            .clone()
            .into_par_iter()
            .fold(SideSummary::default, |mut acc, p| {
                if let Some(value) = self.values[p] {
                    acc.add(&self.endgame.decode(p), value);
                }
                acc
            })
            .collect();
        let mut total = SideSummary::default();
        parts.into_iter().for_each(|s| total.merge(s));
        let want_win = total.won > 0;
        let max = if want_win { total.max_won() } else { total.max_lost() };
        let pieces = self.endgame.pieces();
        let mut reps: Vec<String> = range
            .into_par_iter()
            .filter(|&p| self.values[p].is_some_and(|v| v.is_win() == want_win && v.winner_moves() == max))
            .map(|p| self.endgame.decode(p).compact(&pieces))
            .collect();
        reps.sort();
        total.representatives_at_max = reps;
        total
    }
}

/// Counts over all legal positions (full board) with one side to move.
#[derive(Clone, Debug, Default, Serialize, serde::Deserialize)]
pub struct SideSummary {
    /// Legal positions.
    pub legal: u64,
    /// Positions won by the side to move.
    pub won: u64,
    /// Positions lost by the side to move.
    pub lost: u64,
    /// Draws.
    pub drawn: u64,
    /// Won positions by depth (moves of the winner) → count.
    pub won_by_depth: BTreeMap<u32, u64>,
    /// Lost positions by depth → count.
    pub lost_by_depth: BTreeMap<u32, u64>,
    /// Symmetry classes of won positions by depth.
    pub won_classes_by_depth: BTreeMap<u32, u64>,
    /// Symmetry classes of lost positions by depth.
    pub lost_classes_by_depth: BTreeMap<u32, u64>,
    /// Canonical representatives at the maximum depth (won if any, else lost).
    pub representatives_at_max: Vec<String>,
}

impl SideSummary {
    fn add(&mut self, pos: &Position, value: WinLossDraw) {
        let (_, stab) = pos.canonical();
        let orbit = 8 / stab as u64;
        self.legal += orbit;
        let Some(depth) = value.winner_moves() else {
            self.drawn += orbit;
            return;
        };
        let (count, by_depth, classes) = if value.is_win() {
            (&mut self.won, &mut self.won_by_depth, &mut self.won_classes_by_depth)
        } else {
            (&mut self.lost, &mut self.lost_by_depth, &mut self.lost_classes_by_depth)
        };
        *count += orbit;
        *by_depth.entry(depth).or_default() += orbit;
        *classes.entry(depth).or_default() += 1;
    }

    fn merge(&mut self, other: SideSummary) {
        self.legal += other.legal;
        self.won += other.won;
        self.lost += other.lost;
        self.drawn += other.drawn;
        for (mine, theirs) in [
            (&mut self.won_by_depth, other.won_by_depth),
            (&mut self.lost_by_depth, other.lost_by_depth),
            (&mut self.won_classes_by_depth, other.won_classes_by_depth),
            (&mut self.lost_classes_by_depth, other.lost_classes_by_depth),
        ] {
            theirs.into_iter().for_each(|(k, v)| *mine.entry(k).or_default() += v);
        }
    }

    /// Maximum depth of a won position.
    pub fn max_won(&self) -> Option<u32> {
        self.won_by_depth.keys().next_back().copied()
    }

    /// Maximum depth of a lost position.
    pub fn max_lost(&self) -> Option<u32> {
        self.lost_by_depth.keys().next_back().copied()
    }

    /// "max / positions at max / classes" (Ströhlein's triple,
    /// ../shared/reference/seed000-chess.md); "—" without a won position.
    pub fn max_triple(&self) -> String {
        match self.max_won() {
            Some(m) => format!("{m} / {} / {}", self.won_by_depth[&m], self.won_classes_by_depth[&m]),
            None => "—".into(),
        }
    }
}

/// Solved tables by endgame and metric; solves the 3-man endings a 4-man
/// ending captures into first (Ströhlein S5.6).
#[derive(Default)]
pub struct Tablebase {
    tables: HashMap<(Endgame, Metric), Arc<Table>>,
}

impl Tablebase {
    /// An empty tablebase.
    pub fn new() -> Tablebase {
        Tablebase::default()
    }

    /// The table of `endgame` under `metric`, solving it (and its sub-endings) if needed.
    pub fn table(&mut self, endgame: Endgame, metric: Metric) -> Arc<Table> {
        if let Some(t) = self.tables.get(&(endgame, metric)) {
            return t.clone();
        }
        if let Some(weak) = endgame.weak {
            for piece in [endgame.strong, weak] {
                self.table(Endgame { strong: piece, weak: None }, Metric::Dtm);
            }
        }
        let started = std::time::Instant::now();
        let values = {
            let lookup = |capturer_white: bool, after: &Position| self.small_value(endgame, capturer_white, after);
            let graph = EndgameGraph { endgame, metric, captured: endgame.weak.map(|_| &lookup as _) };
            solve_values(&graph)
        };
        let table = Arc::new(Table { endgame, metric, values, seconds: started.elapsed().as_secs_f64() });
        self.tables.insert((endgame, metric), table.clone());
        table
    }

    /// Value of a 3-man position reached by a capture in `endgame`, for its side to move.
    fn small_value(&self, endgame: Endgame, capturer_white: bool, after: &Position) -> WinLossDraw {
        let piece = if capturer_white { endgame.strong } else { endgame.weak.expect("4-man ending") };
        let small = &self.tables[&(Endgame { strong: piece, weak: None }, Metric::Dtm)];
        small.probe(after).expect("legal 3-man position after a capture")
    }

    /// The value of a capture move for the capturer, as the metric counts it.
    pub fn capture_exit(
        &self,
        endgame: Endgame,
        metric: Metric,
        capturer_white: bool,
        after: &Position,
    ) -> WinLossDraw {
        if endgame.weak.is_none() {
            return WinLossDraw::Draw;
        }
        metric.capture_value(self.small_value(endgame, capturer_white, after))
    }
}

fn solve_values<G: RetroGraph>(graph: &G) -> Vec<Option<WinLossDraw>> {
    retrograde::solve(graph).values().to_vec()
}
