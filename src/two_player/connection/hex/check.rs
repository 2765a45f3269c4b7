//! The independent checker of Hex proofs (`proof.rs`). It shares no game code
//! with the solver: its own neighbour rule from the coordinates, its own chain
//! test (a breadth-first search over (column, row) pairs) and its own search of
//! the game restricted to a carrier. It walks the proof from the root:
//! where the winner moves it plays the listed move (or checks a carrier),
//! where the loser moves it tries every empty cell (or checks a carrier), and
//! it accepts a position only when a winner's chain is complete. A fill-in
//! step is accepted only when `check_fill.rs` re-derives every filled cell.
//!
//! What it trusts: the theorem on vulnerable cells (`docs/hex.md`,
//! "Vulnerable cells": if the mover wins, some winning move is not vulnerable),
//! and that a loser's stone on a dominator is worth at least his stone on the
//! cell it dominates ("Dominated cells": the fill-in rules, re-derived here,
//! make the cell his after the dominator; own stones never hurt).
//! An `every except` step leaves the loser's moves on its listed cells
//! unanswered; for each the checker verifies, with its own clique test
//! (`check_fill.rs`), that the cell is empty and dead (useless to both players)
//! once the winner holds its killer, an empty cell other than it. Every other
//! empty cell is walked as for `every`; a dominated cell (`c3>d3`) is left
//! out when `check_fill.rs` re-derives it as the loser's fill after his stone
//! on its dominator and its chain of dominators ends at a walked cell. And the monotonicity of Hex: an `add`
//! step (the loser's stone added on an empty cell) is accepted when the
//! winner wins the position with that stone. A `carrier … by` step (version 5)
//! is accepted when its derivation passes `check/derivation.rs`: each rule
//! application of Def 3.1 verified on the checker's own Hex graph, which Satz
//! 4.1 makes a real connection; without a derivation the carrier's game is searched.

mod derivation;

use super::board::{Bits, Colour};
use super::check_fill::Geometry;
use super::proof::{Proof, ProofStep};
use crate::error::{Result, invalid};
use crate::search::fasthash::FastBuild;
use std::collections::{HashMap, HashSet};

type Memo = HashMap<(Bits, Bits), bool, FastBuild>;

/// The members of a cell set, lowest first.
fn members(mut set: Bits) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// What a successful check saw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckReport {
    /// Positions of the proof walked.
    pub positions: usize,
    /// Carrier leaves checked (a leaf whose game was decided before is looked up).
    pub carriers: usize,
    /// Fill-in claims re-derived.
    pub fills: usize,
    /// Carrier leaves accepted by their derivation (`check/derivation.rs`), no search.
    pub derived: usize,
}

struct Checker<'a> {
    cols: usize,
    rows: usize,
    winner: Colour,
    steps: HashMap<(Bits, Bits, Colour), ProofStep, FastBuild>,
    done: HashSet<(Bits, Bits, Colour), FastBuild>,
    /// Games on a carrier decided so far: (winner's stones, carrier, winner to move) → wins.
    /// The game's value depends on these three only (`restricted` reads the
    /// loser's stones only through the cells they take from the carrier, and
    /// every cell of a leaf's carrier is empty), so leaves that share them, e.g.
    /// the answers by one SC to the loser's moves outside it, are searched once.
    leaves: HashMap<(Bits, Bits, bool), bool, FastBuild>,
    carriers: usize,
    fills: usize,
    /// Derivation lines verified, by (winner's stones, line): the connection.
    verified: HashMap<(Bits, usize), derivation::Verified, FastBuild>,
    derived: usize,
    proof: &'a Proof,
    /// The neighbours of every cell, from (column, row) by the rule above.
    neighbours: Vec<Bits>,
    /// The winner's first and second edge (row 0 and the last row for Black, columns for White).
    winner_edges: (Bits, Bits),
}

/// Checks that `proof.winner` wins `proof.position` by following the proof.
pub fn check_proof(proof: &Proof) -> Result<CheckReport> {
    let p = &proof.position;
    let mut checker = Checker {
        cols: p.board.cols,
        rows: p.board.rows,
        winner: proof.winner,
        steps: HashMap::default(),
        done: HashSet::default(),
        leaves: HashMap::default(),
        carriers: 0,
        fills: 0,
        verified: HashMap::default(),
        derived: 0,
        proof,
        neighbours: Vec::new(),
        winner_edges: (0, 0),
    };
    checker.tables();
    for (b, w, mover, step) in &proof.steps {
        if checker.steps.insert((*b, *w, *mover), step.clone()).is_some() {
            return Err(invalid("proof lists a position twice"));
        }
    }
    checker.walk(p.black, p.white, p.to_move)?;
    let (positions, carriers, fills, derived) = (checker.done.len(), checker.carriers, checker.fills, checker.derived);
    Ok(CheckReport { positions, carriers, fills, derived })
}

impl Checker<'_> {
    /// Fills the neighbour table and the winner's edges (for the carrier searches).
    fn tables(&mut self) {
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        let index = |x: i64, y: i64| (x >= 0 && y >= 0 && x < cols && y < rows).then(|| (y * cols + x) as usize);
        for y in 0..rows {
            for x in 0..cols {
                let steps = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];
                let around = steps.iter().filter_map(|(dx, dy)| index(x + dx, y + dy)).fold(0, |m, c| m | 1 << c);
                self.neighbours.push(around);
            }
        }
        let line = |cells: &mut dyn Iterator<Item = Option<usize>>| cells.flatten().fold(0, |m: Bits, c| m | 1 << c);
        self.winner_edges = if self.winner == Colour::Black {
            (line(&mut (0..cols).map(|x| index(x, 0))), line(&mut (0..cols).map(|x| index(x, rows - 1))))
        } else {
            (line(&mut (0..rows).map(|y| index(0, y))), line(&mut (0..rows).map(|y| index(cols - 1, y))))
        };
    }

    /// The cells of `within` joined to `from ∩ within` inside `within` (by the neighbour table).
    fn reach(&self, from: Bits, within: Bits) -> Bits {
        let (mut reached, mut list) = (from & within, from & within);
        while list != 0 {
            let c = list.trailing_zeros() as usize;
            list &= list - 1;
            let new = self.neighbours[c] & within & !reached;
            reached |= new;
            list |= new;
        }
        reached
    }

    /// The cells of `left` where one more stone of the winner (stones `own`)
    /// joins his two edges: cells touching both the part of `own` joined to the
    /// first edge (or that edge) and the part joined to the second.
    /// `near_first` is `reach(first edge, own)`, already known to the caller.
    fn threats(&self, own: Bits, near_first: Bits, left: Bits) -> Bits {
        let (first, second) = self.winner_edges;
        let near_second = self.reach(second, own);
        let mut threats = 0;
        let mut cells = left;
        while cells != 0 {
            let c = cells.trailing_zeros() as usize;
            cells &= cells - 1;
            let touches = |part: Bits, edge: Bits| edge >> c & 1 == 1 || self.neighbours[c] & part != 0;
            if touches(near_first, first) && touches(near_second, second) {
                threats |= 1 << c;
            }
        }
        threats
    }

    fn cell_ok(&self, cell: usize) -> bool {
        cell < self.cols * self.rows
    }

    /// Whether `stones` of `colour` join its two edges: depth-first search from
    /// the first edge (Black: row 0; White: column 0) over the six neighbours of
    /// (column, row), the visited cells as a bit set.
    fn chain(&self, colour: Colour, stones: Bits) -> bool {
        let (cols, rows) = (self.cols as i64, self.rows as i64);
        let has = |x: i64, y: i64| x >= 0 && y >= 0 && x < cols && y < rows && stones >> (y * cols + x) & 1 == 1;
        let (mut stack, mut depth) = ([(0i64, 0i64); 128], 0);
        let mut seen: Bits = 0;
        let mut visit = |x: i64, y: i64, stack: &mut [(i64, i64); 128], depth: &mut usize| {
            if has(x, y) && seen >> (y * cols + x) & 1 == 0 {
                seen |= 1 << (y * cols + x);
                stack[*depth] = (x, y);
                *depth += 1;
            }
        };
        for k in 0..if colour == Colour::Black { cols } else { rows } {
            let (x, y) = if colour == Colour::Black { (k, 0) } else { (0, k) };
            visit(x, y, &mut stack, &mut depth);
        }
        while depth > 0 {
            depth -= 1;
            let (x, y) = stack[depth];
            if (colour == Colour::Black && y == rows - 1) || (colour == Colour::White && x == cols - 1) {
                return true;
            }
            for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                visit(x + dx, y + dy, &mut stack, &mut depth);
            }
        }
        false
    }

    fn of(&self, black: Bits, white: Bits, colour: Colour) -> Bits {
        if colour == Colour::Black { black } else { white }
    }

    fn walk(&mut self, black: Bits, white: Bits, mover: Colour) -> Result<()> {
        let loser = self.winner.other();
        if self.chain(loser, self.of(black, white, loser)) {
            return Err(invalid("the proof reaches a position the loser has won"));
        }
        if self.chain(self.winner, self.of(black, white, self.winner)) || !self.done.insert((black, white, mover)) {
            return Ok(());
        }
        let board = self.proof.position.board.all();
        let empty = board & !(black | white);
        let play = |c: usize| if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
        match self.steps.get(&(black, white, mover)).cloned() {
            None => Err(invalid(format!("the proof has no step at black {black:x} white {white:x}"))),
            Some(ProofStep::Carrier(c, by)) => {
                if c & !empty != 0 {
                    return Err(invalid("a carrier holds a stone or a cell off the board"));
                }
                self.carriers += 1;
                if let Some(line) = by {
                    return self.derived_leaf(self.of(black, white, self.winner), mover, c, line);
                }
                let leaf = (self.of(black, white, self.winner), c, mover == self.winner);
                let won = match self.leaves.get(&leaf) {
                    Some(&won) => won,
                    None => {
                        let won = self.restricted(black, white, mover, c, 0, &mut Memo::default());
                        self.leaves.insert(leaf, won);
                        won
                    }
                };
                if won { Ok(()) } else { Err(invalid("the winner does not win the game on a carrier")) }
            }
            Some(ProofStep::Move(c)) => {
                if mover != self.winner || !self.cell_ok(c) || empty >> c & 1 == 0 {
                    return Err(invalid("a listed move is not a legal move of the winner"));
                }
                let (b, w) = play(c);
                self.walk(b, w, mover.other())
            }
            Some(ProofStep::Fill(fill_black, fill_white)) => {
                let geometry = Geometry { cols: self.cols, rows: self.rows };
                if (fill_black | fill_white) & !empty != 0
                    || fill_black & fill_white != 0
                    || fill_black | fill_white == 0
                {
                    return Err(invalid("a fill-in claim names a stone, a cell twice, or nothing"));
                }
                if !geometry.fill_holds(black, white, fill_black, fill_white) {
                    return Err(invalid("a fill-in claim is not derived by the dead-cell and captured-pair rules"));
                }
                self.fills += 1;
                self.walk(black | fill_black, white | fill_white, mover)
            }
            Some(ProofStep::Add(c)) => {
                // Monotonicity of Hex: the winner who wins with a loser's stone more wins without it.
                if !self.cell_ok(c) || empty >> c & 1 == 0 {
                    return Err(invalid("an added stone is not on an empty cell"));
                }
                let (b, w) = if loser == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
                self.walk(b, w, mover)
            }
            Some(ProofStep::Every(kills, doms)) => {
                if mover == self.winner {
                    return Err(invalid("\"every\" listed where the winner moves"));
                }
                let pruned = self.vulnerable(black, white, mover, &kills)?;
                let pruned = self.dominated(black, white, mover, &doms, pruned)?;
                for c in (0..self.cols * self.rows).filter(|&c| (empty & !pruned) >> c & 1 == 1) {
                    let (b, w) = play(c);
                    self.walk(b, w, mover.other())?;
                }
                Ok(())
            }
        }
    }

    /// The cells of an `every except` step (`kills`: cell and killer) after
    /// checking each: both empty and different, the cell named once, and the
    /// cell dead by the checker's own clique test once the winner holds the killer.
    fn vulnerable(&self, black: Bits, white: Bits, mover: Colour, kills: &[(usize, usize)]) -> Result<Bits> {
        let geometry = Geometry { cols: self.cols, rows: self.rows };
        let empty = self.proof.position.board.all() & !(black | white);
        let (own, opp) = (self.of(black, white, mover), self.of(black, white, self.winner));
        let mut pruned: Bits = 0;
        for &(c, k) in kills {
            if !self.cell_ok(c)
                || !self.cell_ok(k)
                || c == k
                || empty >> c & empty >> k & 1 == 0
                || pruned >> c & 1 == 1
            {
                return Err(invalid("a vulnerable cell or its killer is not an empty cell, or is named twice"));
            }
            let opp = opp | 1 << k;
            if !(geometry.useless(mover, own, opp, c) && geometry.useless(self.winner, opp, own, c)) {
                return Err(invalid("a vulnerable cell is not dead after its killer"));
            }
            pruned |= 1 << c;
        }
        Ok(pruned)
    }

    /// The cells of an `every except` step, `pruned` (the vulnerable ones) and
    /// the dominated ones (`doms`: cell and dominator), after checking each
    /// dominated cell: it and its dominator empty and different, the cell named
    /// once, and the cell re-derived by `check_fill.rs` as a fill of the loser
    /// (alone or with an empty neighbour, a captured pair) once the loser holds
    /// the dominator; and every chain of dominators ends at a cell that is walked
    /// (neither vulnerable nor dominated), so that each cell left out loses if
    /// that cell does (the loser's stone on the dominator is worth at least his
    /// stone on the cell).
    fn dominated(
        &self,
        black: Bits,
        white: Bits,
        loser: Colour,
        doms: &[(usize, usize)],
        pruned: Bits,
    ) -> Result<Bits> {
        let geometry = Geometry { cols: self.cols, rows: self.rows };
        let empty = self.proof.position.board.all() & !(black | white);
        let mut all = pruned;
        for &(c, d) in doms {
            if !self.cell_ok(c) || !self.cell_ok(d) || c == d || empty >> c & empty >> d & 1 == 0 || all >> c & 1 == 1 {
                return Err(invalid("a dominated cell or its dominator is not an empty cell, or is named twice"));
            }
            let (b, w) = if loser == Colour::Black { (black | 1 << d, white) } else { (black, white | 1 << d) };
            let fills = |f: Bits| {
                if loser == Colour::Black { geometry.fill_holds(b, w, f, 0) } else { geometry.fill_holds(b, w, 0, f) }
            };
            let partners = self.neighbours[c] & empty & !(1 << d);
            if !(fills(1 << c) || members(partners).any(|e| fills(1 << c | 1 << e))) {
                return Err(invalid("a dominated cell is not filled for the loser after its dominator"));
            }
            all |= 1 << c;
        }
        let dominator = |c: usize| doms.iter().find(|&&(x, _)| x == c).map(|&(_, d)| d);
        for &(c, _) in doms {
            let mut at = c;
            for _ in 0..=doms.len() {
                match dominator(at) {
                    Some(d) => at = d,
                    None => break,
                }
            }
            if all >> at & 1 == 1 {
                return Err(invalid("a chain of dominators does not end at a cell that is answered"));
            }
        }
        Ok(all)
    }

    /// Whether the winner wins when only the cells of `carrier` are played
    /// (exhaustive; a move elsewhere never helps the loser, as extra stones never hurt in Hex).
    /// `last`: the cell the loser has just taken (as a set; 0 at the start).
    /// The winner tries the cells next to it first (the answer to an intrusion
    /// into a bridge or an edge template is next to it); the order only decides
    /// how soon `any` finds a winning move, never the verdict.
    fn restricted(&self, black: Bits, white: Bits, mover: Colour, carrier: Bits, last: Bits, memo: &mut Memo) -> bool {
        // A position seen before in this search (the mover follows from the stones played since its start).
        if let Some(&v) = memo.get(&(black, white)) {
            return v;
        }
        let own = self.of(black, white, self.winner);
        let (first, second) = self.winner_edges;
        // The winner's chain is complete when his stones joined to the first edge reach the second.
        let near_first = self.reach(first, own);
        if near_first & second != 0 {
            return true;
        }
        let left = carrier & !(black | white);
        if left == 0 || self.reach(first, own | left) & second == 0 {
            return false;
        }
        // Immediate threats: cells where one winner's stone completes the chain.
        let threats = self.threats(own, near_first, left);
        if (mover == self.winner && threats != 0) || (mover != self.winner && threats.count_ones() >= 2) {
            memo.insert((black, white), true);
            return true;
        }
        let forced = if threats != 0 { threats } else { left };
        let play = |c: usize| if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
        let v = if mover == self.winner {
            let close = if last == 0 { 0 } else { self.neighbours[last.trailing_zeros() as usize] & forced };
            members(close).chain(members(forced & !close)).any(|c| {
                let (b, w) = play(c);
                self.restricted(b, w, mover.other(), carrier, 0, memo)
            })
        } else {
            members(forced).all(|c| {
                let (b, w) = play(c);
                self.restricted(b, w, mover.other(), carrier, 1 << c, memo)
            })
        };
        memo.insert((black, white), v);
        v
    }
}
