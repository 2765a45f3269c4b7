//! Proof-set (support) pruning for df-pn (the general case of Benzene's
//! proof-set pruning; `Solver::transplant`, here too, is its simplest case).
//!
//! **Support.** Let Y win a decided position Q (the loser X to move or not).
//! A set S of cells is a *support* of Q's proof when Y still wins Q + E, the
//! position with X stones added on any set E of Q's free cells outside S.
//! Computed bottom-up from the table entries (`Solver::support`), each rule
//! reading at least the cells whose X stone could break the step:
//! - a complete chain: ∅ (X stones on free cells break no chain);
//! - an edge VC of Y (either player to move) with carrier C: C (Satz 4.1: the
//!   connection is real and Y's strategy plays only in C, whatever X holds
//!   outside);
//! - Y to move, wins by r: {r} ∪ S(Q + Yr) (r must stay free);
//! - X to move, every move loses: the union over X's moves c of S(Q + Xc) for
//!   the moves searched, of the SC carrier answering c for the moves outside
//!   the mustplay region, and for a vulnerable cell c with killer k the cells
//!   c, k and their neighbours (the killer test reads the neighbourhood of c;
//!   X stones farther away only merge X's groups next to c, which keeps c
//!   useless to X); for a dominated cell c with dominator d the same cells
//!   (the fill-in of c after X's stone on d reads c's neighbourhood, the
//!   captured partner of c among it, and stays valid with X stones anywhere
//!   else, which only delete Y's neighbours; the walked end of d's chain adds
//!   its own support); a move cut by a sibling (below) adds nothing;
//! - a position searched through its fill-in F (`inferior.rs`): S of the
//!   filled position ∪ F ∪ the free neighbours of F (every fill step stays
//!   valid with X stones outside them: a cell useless to Y stays so when X
//!   takes cells outside its neighbourhood, one useless to X when X adds
//!   stones anywhere outside it, the two cases that make up a captured pair
//!   alike; so Q + E has the value of Q + F + E).
//!
//! A larger set is always a support; a position without a table entry gets
//! the whole board.
//!
//! **The cut.** X to move at P, the move m refuted (Y wins P + Xm) with
//! support S. For every other candidate m' ∉ S ∪ {m}: Y wins P + Xm + Xm'
//! (m' is free there and outside S), and P + Xm' has one X stone fewer, so Y
//! wins it too (monotonicity of Hex: an own stone never hurts). So X's
//! candidate list at P is cut to S (and m; moves already decided stay); the moves cut are recorded
//! with m, and the
//! support of P, once lost, still holds: with X stones E outside S(P) ⊇ S, a
//! cut move m' leads to P + E + Xm', below P + Xm + (E ∪ {m'}) which Y wins.

use super::board::{Bits, Colour, cells_of};
use super::position::Position;
use super::solver::{Aborted, DOMINATED, Entry, Solver, key};

/// The mover flag of a table key.
const TOP: Bits = 1 << 127;

impl Solver {
    /// Cuts the candidate moves `moves` of the filled, expanded position `k`
    /// after its move `m` was refuted (module doc), when [`Solver::support_cut`] is on.
    pub(super) fn cut_siblings(&mut self, k: (Bits, Bits), moves: &mut Vec<u8>, m: u8) {
        let (b, w) = play(k, m);
        let child = self.resolve(key(b, w, mover_of(k).other()));
        if !matches!(self.table.get(&child), Some(Entry::WinByMove(_) | Entry::WinByVc(_))) {
            return;
        }
        let Some(s) = self.child_support(k, m) else { return };
        // Moves already decided stay (a refuted one's support is part of the position's).
        let undecided = |solver: &Solver, c: u8| {
            let (b, w) = play(k, c);
            !solver.table.contains_key(&solver.resolve(key(b, w, mover_of(k).other())))
        };
        let cut: Vec<(u8, u8)> =
            moves.iter().filter(|&&c| c != m && s >> c & 1 == 0 && undecided(self, c)).map(|&c| (c, m)).collect();
        if cut.is_empty() {
            return;
        }
        moves.retain(|&c| !cut.iter().any(|&(x, _)| x == c));
        self.counts.support_cuts += cut.len() as u64;
        self.cut.entry(k).or_default().extend(cut);
        if let Some(e) = self.moves.get_mut(&k) {
            e.moves.clone_from(moves);
        }
    }

    /// Carries the refutation of the move `m` at the filled position `stones`
    /// (`mover` to move) to the other candidate moves: if the opponent Y wins
    /// after `m` by a reply r after which the mover loses by Y's edge VC with
    /// carrier C, and no fill-in gave Y a stone on the way (Y holds exactly his
    /// stones here plus r), then Y wins after every move m' ∉ C ∪ {r} by the
    /// same reply and carrier: Y's Hex graph after m' and r has the same Y
    /// groups and the same free carrier (the mover's stones, m' included, lie
    /// outside C; `m` is free there, outside C), so the same derivation gives
    /// the same VC (Satz 4.1 makes it real). Stored as decided entries of
    /// positions not yet visited (no table, fill, number or move entry), so
    /// the proof plays r and names C, and the checker replays both.
    pub(super) fn transplant(&mut self, (black, white): (Bits, Bits), mover: Colour, moves: &[u8], m: u8) {
        let top = 1u128 << 127;
        let with = |b: Bits, w: Bits, c: u8, colour: Colour| {
            if colour == Colour::Black { (b | 1 << c, w) } else { (b, w | 1 << c) }
        };
        let (b, w) = with(black, white, m, mover);
        let child = self.resolve(key(b, w, mover.other()));
        let Some(&Entry::WinByMove(r)) = self.table.get(&child) else { return };
        let (cb, cw) = with(child.0 & !top, child.1, r as u8, mover.other());
        let grand = self.resolve(key(cb, cw, mover));
        let Some(&Entry::LossByVc(carrier)) = self.table.get(&grand) else { return };
        let opp_then = if mover == Colour::Black { grand.1 } else { grand.0 & !top };
        let opp_now = if mover == Colour::Black { white } else { black };
        if opp_then != opp_now | 1 << r {
            return;
        }
        let unvisited = |s: &Solver, k: &(Bits, Bits)| {
            !(s.table.contains_key(k) || s.fills.contains_key(k) || s.pn_dn.contains_key(k) || s.moves.contains_key(k))
        };
        for &m2 in moves {
            if m2 == m || usize::from(m2) == r || carrier >> m2 & 1 == 1 {
                continue;
            }
            let (b, w) = with(black, white, m2, mover);
            let k1 = key(b, w, mover.other());
            let (b2, w2) = with(b, w, r as u8, mover.other());
            let k2 = key(b2, w2, mover);
            if unvisited(self, &k1) && unvisited(self, &k2) {
                self.table.insert(k1, Entry::WinByMove(r));
                self.table.insert(k2, Entry::LossByVc(carrier));
                self.counts.transplants += 1;
            }
        }
    }

    /// The support of the position after the move `c` at the filled position
    /// `k`; `None` if that position is undecided.
    fn child_support(&mut self, k: (Bits, Bits), c: u8) -> Option<Bits> {
        let mover = mover_of(k);
        let (b, w) = play(k, c);
        let (own, _) = self.stones(b, w, mover);
        if self.board.connects(mover, own) {
            return Some(0);
        }
        self.unfilled_support(key(b, w, mover.other()))
    }

    /// The support of the position `k` searched through its fill-in (the
    /// fill-in's reads added); `None` if it is undecided.
    fn unfilled_support(&mut self, k: (Bits, Bits)) -> Option<Bits> {
        let free = self.board.all() & !(k.0 & !TOP | k.1);
        let reads = self.fills.get(&k).map_or(0, |&(fb, fw)| {
            let f = fb | fw;
            cells_of(f).fold(f, |a, x| a | self.board.neighbours(x)) & free
        });
        let filled = self.resolve(k);
        if !self.table.contains_key(&filled) {
            return None;
        }
        Some(self.support(filled) | reads)
    }

    /// A support (module doc) of the proof that the winner of `position`
    /// wins: the loser's stones added on free cells outside it leave the
    /// winner winning. Solves the position first; the whole board for a
    /// position already won.
    pub fn support_of(&mut self, position: &Position) -> Result<Bits, Aborted> {
        self.mover_wins(position)?;
        let k = key(position.black, position.white, position.to_move);
        Ok(self.unfilled_support(k).unwrap_or(self.board.all()) & position.free())
    }

    /// The support of the decided, filled position `k` (module doc), memoised.
    pub(super) fn support(&mut self, k: (Bits, Bits)) -> Bits {
        if let Some(&s) = self.supports.get(&k) {
            return s;
        }
        let all = self.board.all();
        let s = match self.table.get(&k).copied() {
            Some(Entry::WinByVc(c) | Entry::LossByVc(c)) => c,
            Some(Entry::WinByMove(r)) => self.child_support(k, r as u8).map_or(all, |s| s | 1 << r),
            Some(Entry::LossAll) => self.loss_support(k),
            None => all,
        };
        self.supports.insert(k, s);
        s
    }

    /// The support of the filled position `k` decided [`Entry::LossAll`].
    fn loss_support(&mut self, k: (Bits, Bits)) -> Bits {
        let free = self.board.all() & !(k.0 & !TOP | k.1);
        let scs = self.loss_scs.get(&k).cloned().unwrap_or_default();
        let kills = self.loss_kills.get(&k).cloned().unwrap_or_default();
        let cut = self.cut.get(&k).map_or(0, |v| v.iter().fold(0, |a: Bits, &(c, _)| a | 1 << c));
        let (mut s, mut pruned) = (0, 0);
        for &(c, killer) in &kills {
            let (c, killer) = (usize::from(c), usize::from(killer & !DOMINATED));
            s |= 1 << c | 1 << killer | self.board.neighbours(c) | self.board.neighbours(killer);
            pruned |= 1 << c;
        }
        for c in cells_of(free & !pruned) {
            if let Some(&sc) = scs.iter().find(|&&x| x >> c & 1 == 0) {
                s |= sc;
            } else if cut >> c & 1 == 0 {
                s |= self.child_support(k, c as u8).unwrap_or(self.board.all());
            }
        }
        s & free
    }
}

/// The side to move of a table key.
fn mover_of(k: (Bits, Bits)) -> Colour {
    if k.0 & TOP != 0 { Colour::White } else { Colour::Black }
}

/// The stones after the mover of the key `k` plays `c`.
fn play(k: (Bits, Bits), c: u8) -> (Bits, Bits) {
    let (black, white) = (k.0 & !TOP, k.1);
    if mover_of(k) == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) }
}
