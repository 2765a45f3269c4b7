//! An exact Hex solver: depth-first search with a transposition table, pruned
//! by bounded H-search (Satz 4.1 makes every derived connection real):
//! - the mover's edge-to-edge VC: the mover wins (a leaf with its carrier);
//! - the opponent's edge-to-edge VC: the mover loses (a leaf with its carrier);
//! - the opponent's edge SCs: the mover must play in the intersection of their
//!   carriers (the mustplay region); any other move leaves one SC intact, whose
//!   key move then connects.
//!
//! df-pn also fills inferior cells (`inferior.rs`): a position is searched
//! through its filled position, recorded in [`Solver::fills`] and written
//! into the proof as a fill step. Every stored value is exact; a
//! search stopped by its node budget stores nothing it has not finished.
//! Two searches fill the table: df-pn (`dfpn.rs`, the default) and the plain
//! depth-first search here (`dfpn = false`), kept as a second, simpler oracle.

use super::board::{Bits, Board, Colour, cells_of};
pub use super::counts::Counts;
use super::derive::annotate;
use super::graph::HexGraph;
use super::hsearch::{Limits, Scratch, h_search, h_search_edge_answer};
use super::position::Position;
use super::proof::{Proof, ProofStep};
use super::reuse::KeptCache;
use crate::progress::Progress;
use crate::search::fasthash::FastBuild;
use std::collections::HashMap;

/// A table keyed by positions (the fast word hasher: keys are the program's own stone sets).
pub(super) type PositionMap<V> = HashMap<(Bits, Bits), V, FastBuild>;

/// Why a position is decided, from the mover's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Entry {
    /// The mover wins by this move.
    WinByMove(usize),
    /// The mover's edge VC with this carrier (board cells).
    WinByVc(Bits),
    /// The opponent's edge VC with this carrier.
    LossByVc(Bits),
    /// Every move loses (moves outside the mustplay region by the opponent's SCs).
    LossAll,
}

/// What the opponent's H-search tells the mover.
pub(super) struct Threats {
    /// The opponent's edge VC carrier, if any.
    pub(super) vc: Option<Bits>,
    /// The opponent's edge SC carriers (board cells).
    pub(super) scs: Vec<Bits>,
}

/// An expanded, undecided df-pn position.
pub(super) struct Expanded {
    /// The stones after fill-in (the moves are played there).
    pub(super) stones: (Bits, Bits),
    /// The candidate moves, most central first.
    pub(super) moves: Vec<u8>,
    /// The opponent's SC carriers kept by [`sc_cover`] (kept if the position is lost).
    pub(super) scs: Vec<Bits>,
    /// The vulnerable cells left out of the moves, each with its killer ([`Solver::vulnerable`]),
    /// and the dominated ones, each with its dominator flagged [`DOMINATED`] ([`Solver::dominated`]).
    pub(super) kills: Vec<(u8, u8)>,
    /// The move by which a child was last won ([`Solver::killer`]): tried first at the other children.
    pub(super) killer: Option<u8>,
}

/// The flag on the second cell of a pair of [`Expanded::kills`]: the first cell is
/// dominated by the second (cells are below 128).
pub(super) const DOMINATED: u8 = 0x80;

/// The SCs of `scs` that answer the cells `outside`: in list order, each SC that
/// avoids a cell of `outside` no earlier kept SC avoids. For every cell of
/// `outside` the first SC of `scs` avoiding it is kept, so a search "first SC
/// avoiding c" gives the same carrier in the cover as in the whole list.
pub(super) fn sc_cover(scs: &[Bits], outside: Bits) -> Vec<Bits> {
    let (mut cover, mut answered) = (Vec::new(), 0);
    for &s in scs {
        if outside & !s & !answered != 0 {
            answered |= outside & !s;
            cover.push(s);
        }
    }
    cover
}

/// The bound of a solve that forgets ([`Solver::forget`], `forget.rs`), defined here so that the
/// solver does not import the module that forgets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Forget {
    /// The most undecided expanded positions kept after a slice.
    pub above: usize,
    /// The slice of [`Solver::in_slices`] (positions per question) after which forgetting happens:
    /// it fixes the search path with the bound, so it is named in [`Solver::describe`].
    pub slice: u64,
}

/// The search was stopped by its node budget.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Aborted;

/// The solver with its transposition table (reused across calls on one board).
pub struct Solver {
    pub board: Board,
    pub limits: Limits,
    /// The limits of H-search's edge-to-edge pair alone (its carriers, OR fan-in and list; the
    /// mustplay region is the intersection of that list): by default [`Limits::EDGE`].
    pub edge_limits: Limits,
    /// Whether [`Solver::proof`] gives its carriers their H-search derivations (`derive.rs`), which
    /// the checker verifies rule by rule; off: the checker plays the game on each carrier.
    pub derivations: bool,
    /// Whether H-search prunes (off: plain search with the table only).
    pub use_h_search: bool,
    /// Positions searched so far.
    pub nodes: u64,
    /// Stop after this many nodes in one call.
    pub budget: u64,
    /// Whether df-pn searches (off: the plain depth-first search).
    pub dfpn: bool,
    /// Whether df-pn fills inferior cells (`inferior.rs`).
    pub fill_in: bool,
    /// Decided positions (both searches).
    pub(super) table: PositionMap<Entry>,
    /// df-pn: the numbers of undecided positions searched (`dfpn.rs`).
    pub(super) pn_dn: PositionMap<(u32, u32)>,
    /// df-pn: the candidate moves of expanded undecided positions.
    pub(super) moves: PositionMap<Expanded>,
    /// Positions decided [`Entry::LossAll`] by H-search: opponent SC carriers
    /// that answer every move outside the mustplay region (for the proof).
    pub(super) loss_scs: PositionMap<Vec<Bits>>,
    /// Positions decided [`Entry::LossAll`] with vulnerable cells left out: the cells and their killers.
    pub(super) loss_kills: PositionMap<Vec<(u8, u8)>>,
    /// Positions whose fill-in is not empty: the stones added for Black and
    /// White; the position's table entry is about the filled position.
    pub(super) fills: PositionMap<(Bits, Bits)>,
    pub(super) centre_order: Vec<usize>,
    /// Whether df-pn seeds H-search with the results kept two plies up
    /// (`reuse.rs`; off by default: measured -2 % CPU on 6×6 a3 for 4.7× the memory).
    pub reuse: bool,
    /// df-pn: the H-search results kept for the positions below (`reuse.rs`).
    pub(super) kept: KeptCache,
    /// df-pn: the 1+ε trick (Pawlewicz and Lew): a child is searched until its
    /// dn passes the second-best sibling's by ε (in percent of it, at least 1);
    /// 0: by 1, plain df-pn.
    pub widen: u32,
    /// df-pn: the dn of a child not yet searched, in percent of its parent's
    /// number of candidate moves (its own mustplay size is unknown until its
    /// expansion; at least 1); 0: every new child starts at (1, 1).
    pub init_dn: u32,
    /// df-pn: new children graded by their rank in the move order: the i-th move (from 0) of a
    /// position with L candidate moves starts at dn 1 + ⌊i · g % · L⌋ (over [`Solver::init_dn`]'s),
    /// so df-pn stays on the best-ranked moves longer; 0: every new child at the same numbers.
    /// Only the order of the search changes (`dfpn.rs`).
    pub grade: u32,
    /// df-pn: the killer reply: the move by which a sibling was last won goes first among a
    /// position's moves (`dfpn.rs`). Only the order of the search changes.
    pub killer: bool,
    /// df-pn: candidate moves ordered by the electric-circuit evaluation
    /// (`dfpn.rs`, [`resistance_scores`](super::dfpn)), ties most central first;
    /// off: most central first. Only the order of the search changes. On by default.
    pub resistance_order: bool,
    /// df-pn: a refuted move's refutation carried to its siblings (`support.rs`,
    /// `transplant`): on by default.
    pub transplant: bool,
    /// df-pn: the mover's vulnerable cells (`inferior::killer`) left out of his
    /// moves (the theorem in `docs/hex.md`, "Vulnerable cells"); on by default.
    pub vulnerable: bool,
    /// df-pn: a refuted move's support cuts its siblings (`support.rs`); on by default.
    pub support_cut: bool,
    /// df-pn: the mover's dominated cells (`inferior::dominator`) left out of his
    /// moves (the theorem in `docs/hex.md`, "Dominated cells"); on by default.
    pub dominated: bool,
    /// df-pn with [`Solver::support_cut`]: the supports computed so far and the moves cut (with the
    /// refuted sibling that cut them), by filled position.
    pub(super) supports: PositionMap<Bits>,
    pub(super) cut: PositionMap<Vec<(u8, u8)>>,
    /// df-pn in slices: the bound on the undecided positions kept between slices (`forget.rs`); none
    /// by default (nothing is forgotten).
    pub forget: Option<Forget>,
    /// What df-pn did.
    pub counts: Counts,
    /// Where df-pn reports its status (`report.rs`); none by default.
    pub progress: Progress,
    /// CPU seconds spent on this solve by earlier processes (a resumed solve), for the status.
    pub cpu_before: f64,
    /// The position of the current df-pn question, and its mover (for the status).
    pub(super) root: Option<(Bits, Bits, Colour)>,
    /// The H-search tables reused from run to run.
    pub(super) scratch: Scratch,
}

/// How many H-search results one generation of [`Solver::kept`] holds.
const KEPT_PER_GENERATION: usize = 512;

/// The table key of a position: the stone sets, the mover in the top bit.
pub(super) fn key(black: Bits, white: Bits, mover: Colour) -> (Bits, Bits) {
    (black | u128::from(mover == Colour::White) << 127, white)
}

impl Solver {
    /// A solver for positions on `board`.
    pub fn new(board: Board) -> Solver {
        let (cx, cy) = ((board.cols as f64 - 1.0) / 2.0, (board.rows as f64 - 1.0) / 2.0);
        let mut centre_order: Vec<usize> = (0..board.cells()).collect();
        // Hex distance from the centre in the sheared coordinates, then index.
        let distance = |i: usize| {
            let (dx, dy) = ((i % board.cols) as f64 - cx, (i / board.cols) as f64 - cy);
            ((dx.abs() + dy.abs() + (dx + dy).abs()) * 2.0) as i64
        };
        centre_order.sort_by_key(|&i| (distance(i), i));
        Solver {
            board,
            limits: Limits::SOLVER,
            edge_limits: Limits::EDGE,
            derivations: true,
            use_h_search: true,
            nodes: 0,
            budget: u64::MAX,
            dfpn: true,
            fill_in: true,
            table: PositionMap::default(),
            pn_dn: PositionMap::default(),
            moves: PositionMap::default(),
            loss_scs: PositionMap::default(),
            loss_kills: PositionMap::default(),
            fills: PositionMap::default(),
            centre_order,
            reuse: false,
            kept: KeptCache::new(KEPT_PER_GENERATION),
            widen: 0,
            init_dn: 0,
            grade: 0,
            killer: false,
            resistance_order: true,
            transplant: true,
            vulnerable: true,
            support_cut: true,
            dominated: true,
            supports: PositionMap::default(),
            cut: PositionMap::default(),
            forget: None,
            counts: Counts::default(),
            progress: Progress::none(),
            cpu_before: 0.0,
            root: None,
            scratch: Scratch::default(),
        }
    }

    /// Records the position `k` as [`Entry::LossAll`] with the opponent SC
    /// carriers answering the moves outside the mustplay region and the
    /// vulnerable cells left out with their killers (both for the proof).
    pub(super) fn store_loss_all(&mut self, k: (Bits, Bits), scs: Vec<Bits>, kills: Vec<(u8, u8)>) {
        self.table.insert(k, Entry::LossAll);
        self.loss_scs.insert(k, scs);
        if !kills.is_empty() {
            self.loss_kills.insert(k, kills);
        }
    }

    /// Whether the side to move in `position` wins.
    pub fn mover_wins(&mut self, position: &Position) -> Result<bool, Aborted> {
        self.decide(position.black, position.white, position.to_move)
    }

    /// Whether `mover` wins, by df-pn or the plain search.
    fn decide(&mut self, black: Bits, white: Bits, mover: Colour) -> Result<bool, Aborted> {
        let start = self.nodes;
        if self.dfpn { self.dfpn_decide(black, white, mover, start) } else { self.search(black, white, mover, start) }
    }

    /// The winning moves of the side to move (empty if it loses).
    pub fn winning_moves(&mut self, position: &Position) -> Result<Vec<usize>, Aborted> {
        let mut wins = Vec::new();
        for c in cells_of(position.free()) {
            let mut child = position.clone();
            child.play(position.to_move, c).expect("free cell");
            if child.winner() == Some(position.to_move) || !self.mover_wins(&child)? {
                wins.push(c);
            }
        }
        Ok(wins)
    }

    /// The minimal edge-to-edge VC carriers (board cells) of `colour` found by the solver's H-search.
    pub fn edge_vcs(&self, position: &Position, colour: Colour, limits: Limits) -> Vec<Bits> {
        let pg = HexGraph::from_position(position, colour);
        if pg.edges.0 == pg.edges.1 {
            return vec![0];
        }
        let found = h_search(&pg.graph, limits);
        found.vcs(pg.edges.0, pg.edges.1).iter().map(|&c| pg.graph.board_cells(c)).collect()
    }

    /// The key of the filled position of the position `k` (`k` itself while its
    /// fill-in is empty or not yet computed); df-pn stores entries under it.
    pub(super) fn resolve(&self, k: (Bits, Bits)) -> (Bits, Bits) {
        self.fills.get(&k).map_or(k, |&(fb, fw)| (k.0 | fb, k.1 | fw))
    }

    pub(super) fn stones(&self, black: Bits, white: Bits, colour: Colour) -> (Bits, Bits) {
        if colour == Colour::Black { (black, white) } else { (white, black) }
    }

    /// The H-search facts for `colour` against the other player (the edge pair with [`Solver::edge_limits`]).
    pub(super) fn threats(&mut self, black: Bits, white: Bits, colour: Colour) -> Threats {
        let (own, opp) = self.stones(black, white, colour);
        let pg = HexGraph::from_stones_unnamed(&self.board, own, opp, colour);
        let (x, y) = pg.edges;
        let (limits, edge) = (self.limits, self.edge_limits);
        let (vc, scs, work) = h_search_edge_answer(&pg.graph, limits, edge, (x, y), &mut self.scratch);
        let w = &mut self.counts.work;
        (w.rules, w.or_steps, w.kept) = (w.rules + work.rules, w.or_steps + work.or_steps, w.kept + work.kept);
        let vc = vc.map(|c| pg.graph.board_cells(c));
        let scs = scs.iter().map(|&c| pg.graph.board_cells(c)).collect();
        Threats { vc, scs }
    }

    fn search(&mut self, black: Bits, white: Bits, mover: Colour, start: u64) -> Result<bool, Aborted> {
        let (own, opp) = self.stones(black, white, mover);
        if self.board.connects(mover.other(), opp) {
            return Ok(false);
        }
        if self.board.connects(mover, own) {
            return Ok(true);
        }
        let k = key(black, white, mover);
        if let Some(e) = self.table.get(&k) {
            return Ok(matches!(e, Entry::WinByMove(_) | Entry::WinByVc(_)));
        }
        self.nodes += 1;
        if self.nodes - start > self.budget {
            return Err(Aborted);
        }
        let free = self.board.all() & !(black | white);
        let (mut candidates, mut scs) = (free, Vec::new());
        if self.use_h_search {
            if let Some(c) = self.threats(black, white, mover).vc {
                self.table.insert(k, Entry::WinByVc(c));
                return Ok(true);
            }
            let threats = self.threats(black, white, mover.other());
            if let Some(c) = threats.vc {
                self.table.insert(k, Entry::LossByVc(c));
                return Ok(false);
            }
            candidates &= threats.scs.iter().fold(!0, |m, c| m & c);
            scs = sc_cover(&threats.scs, free & !candidates);
        }
        let order: Vec<usize> = self.centre_order.iter().copied().filter(|&c| candidates >> c & 1 == 1).collect();
        for c in order {
            let (b, w) = if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
            if !self.search(b, w, mover.other(), start)? {
                self.table.insert(k, Entry::WinByMove(c));
                return Ok(true);
            }
        }
        self.table.insert(k, Entry::LossAll);
        self.loss_scs.insert(k, scs);
        Ok(false)
    }

    /// A proof that the winner of `position` wins: the winner's move or a VC
    /// carrier where the winner moves, a carrier or "every move" where the loser
    /// moves (`proof.rs`). Solves what the table lacks.
    pub fn proof(&mut self, position: &Position) -> Result<Proof, Aborted> {
        let mover_wins = self.mover_wins(position)?;
        let winner = if mover_wins { position.to_move } else { position.to_move.other() };
        let mut proof = Proof { position: position.clone(), winner, steps: Vec::new(), derivations: Vec::new() };
        let mut seen = PositionMap::default();
        self.extract(position.black, position.white, position.to_move, winner, 0, &mut proof, &mut seen)?;
        if self.derivations {
            annotate(&mut proof, self.limits, self.edge_limits);
        }
        Ok(proof)
    }

    /// Writes the proof at the position `black`, `white` (`mover` to move) of
    /// the table, with the loser's stones `extra` added to every position
    /// written: `extra` lies outside the table position's support
    /// (`support.rs`), so each step holds there as well. Not empty only below
    /// a move cut by a refuted sibling m, whose proof is written with the cut
    /// move's stone added after an `add m` step (an own stone never hurts).
    #[allow(clippy::too_many_arguments)]
    fn extract(
        &mut self,
        black: Bits,
        white: Bits,
        mover: Colour,
        winner: Colour,
        extra: Bits,
        proof: &mut Proof,
        seen: &mut PositionMap<()>,
    ) -> Result<(), Aborted> {
        let add = |b: Bits, w: Bits| if winner == Colour::Black { (b, w | extra) } else { (b | extra, w) };
        let won = |board: &Board, b: Bits, w: Bits| board.connects(winner, if winner == Colour::Black { b } else { w });
        let (ab, aw) = add(black, white);
        if won(&self.board, black, white) || seen.insert(key(ab, aw, mover), ()).is_some() {
            return Ok(());
        }
        let k = key(black, white, mover);
        if !self.table.contains_key(&self.resolve(k)) {
            if extra != 0 {
                // Not expected (the support was read from decided entries): solve the position itself.
                seen.remove(&key(ab, aw, mover));
                return self.extract(ab, aw, mover, winner, 0, proof, seen);
            }
            self.decide(black, white, mover)?;
        }
        let entry = self.table[&self.resolve(k)];
        // The entry is about the filled position: the fill step leads there.
        let (black, white) = match self.fills.get(&k) {
            Some(&(fb, fw)) => {
                proof.steps.push((ab, aw, mover, ProofStep::Fill(fb, fw)));
                let (b, w) = (black | fb, white | fw);
                let (ab, aw) = add(b, w);
                if won(&self.board, b, w) || seen.insert(key(ab, aw, mover), ()).is_some() {
                    return Ok(());
                }
                (b, w)
            }
            None => (black, white),
        };
        let (ab, aw) = add(black, white);
        match entry {
            Entry::WinByVc(c) | Entry::LossByVc(c) => proof.steps.push((ab, aw, mover, ProofStep::Carrier(c, None))),
            Entry::WinByMove(c) => {
                proof.steps.push((ab, aw, mover, ProofStep::Move(c)));
                let (b, w) = if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
                self.extract(b, w, mover.other(), winner, extra, proof, seen)?;
            }
            Entry::LossAll => self.extract_every((black, white), mover, extra, proof, seen)?,
        }
        Ok(())
    }

    /// [`Solver::extract`] at a filled position decided [`Entry::LossAll`]:
    /// `every` (with the vulnerable cells left out), then each move of the
    /// loser answered in the order of `support.rs`: an SC carrier, the proof
    /// of the refuted sibling that cut it, or the move's own proof.
    fn extract_every(
        &mut self,
        (black, white): (Bits, Bits),
        loser: Colour,
        extra: Bits,
        proof: &mut Proof,
        seen: &mut PositionMap<()>,
    ) -> Result<(), Aborted> {
        let (winner, k) = (loser.other(), key(black, white, loser));
        let add = |b: Bits, w: Bits| if winner == Colour::Black { (b, w | extra) } else { (b | extra, w) };
        let play = |c: usize| if loser == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) };
        let kills = self.loss_kills.get(&k).cloned().unwrap_or_default();
        let pruned = kills.iter().fold(0, |m: Bits, &(c, _)| m | 1 << c);
        let pairs = |flag: u8| -> Vec<(usize, usize)> {
            let of = kills.iter().filter(|&&(_, k)| k & DOMINATED == flag);
            of.map(|&(c, k)| (usize::from(c), usize::from(k & !DOMINATED))).collect()
        };
        let (ab, aw) = add(black, white);
        proof.steps.push((ab, aw, loser, ProofStep::Every(pairs(0), pairs(DOMINATED))));
        let scs = self.loss_scs.get(&k).cloned().unwrap_or_default();
        let cut = self.cut.get(&k).cloned().unwrap_or_default();
        let free = self.board.all() & !(black | white) & !extra;
        for c in cells_of(free & !pruned) {
            let (b, w) = play(c);
            let (ab, aw) = add(b, w);
            if let Some(&s) = scs.iter().find(|&&s| s >> c & 1 == 0) {
                if seen.insert(key(ab, aw, winner), ()).is_none() {
                    proof.steps.push((ab, aw, winner, ProofStep::Carrier(s, None)));
                }
            } else if let Some(&(_, m)) = cut.iter().find(|&&(x, _)| usize::from(x) == c) {
                let m = usize::from(m);
                if extra >> m & 1 == 0 {
                    if seen.insert(key(ab, aw, winner), ()).is_some() {
                        continue;
                    }
                    proof.steps.push((ab, aw, winner, ProofStep::Add(m)));
                }
                let (mb, mw) = play(m);
                self.extract(mb, mw, winner, winner, (extra | 1 << c) & !(1 << m), proof, seen)?;
            } else {
                self.extract(b, w, winner, winner, extra, proof, seen)?;
            }
        }
        Ok(())
    }
}
