//! Depth-first proof-number search (df-pn, Nagai 2002; the search of the
//! Benzene family's Hex solver) for [`Solver`], with the same H-search pruning
//! as the plain depth-first search (`solver.rs`) and the same transposition
//! table of decided positions, so that proofs are extracted and replayed alike.
//!
//! Numbers are from the mover's view: `pn` estimates how many leaves must be
//! decided to prove "the mover wins", `dn` to prove "the mover loses". For a
//! position with children (one per candidate move, the child's numbers from
//! its own mover's view): `pn = min dn(child)`, `dn = Σ pn(child)`. Decided
//! positions are (0, ∞) (mover wins) and (∞, 0) (mover loses); undecided ones
//! keep finite numbers below [`INF`]. A position is only stored as decided when
//! it is: a win needs a child decided as a loss for its mover, a loss needs
//! every candidate child decided as a win for its mover (candidates outside the
//! opponent's mustplay region lose by Satz 4.1, as in `solver.rs`). The Hex
//! game graph is acyclic (every move adds a stone), so transpositions need no
//! cycle handling; a number counted twice through a transposition only changes
//! the order of the search, never a decision.

use super::board::{Bits, Board, Colour, cells_of};
use super::graph::HexGraph;
use super::hsearch::{h_search_edge, h_search_edge_seeded};
use super::inferior::{dominator, fill_in, killer};
use super::reuse::Kept;
use super::solver::{Aborted, DOMINATED, Entry, Expanded, Solver, Threats, key, sc_cover};

/// The candidate moves of an expanded position and the stones they are played on (after fill-in).
type Candidates = (Vec<u8>, (Bits, Bits));

/// The keys of a position's parent and grandparent on the df-pn path (`None` above the root).
type Up = [Option<(Bits, Bits)>; 2];

/// "Infinite" proof or disproof number.
pub const INF: u32 = 1 << 30;

impl Solver {
    /// Whether `mover` wins: df-pn from this position until it is decided.
    pub(super) fn dfpn_decide(&mut self, black: Bits, white: Bits, mover: Colour, start: u64) -> Result<bool, Aborted> {
        let (own, opp) = self.stones(black, white, mover);
        if self.board.connects(mover.other(), opp) {
            return Ok(false);
        }
        if self.board.connects(mover, own) {
            return Ok(true);
        }
        self.root = Some((black, white, mover));
        let (pn, _) = self.mid(black, white, mover, INF, INF, start, [None, None])?;
        Ok(pn == 0)
    }

    /// The numbers of a position as far as known, through its filled position
    /// once that is known (both have the same value).
    fn numbers(&self, k: (Bits, Bits)) -> (u32, u32) {
        self.known(self.resolve(k))
    }

    /// The numbers stored under the key `k`: decided, stored, or (1, 1).
    fn known(&self, k: (Bits, Bits)) -> (u32, u32) {
        self.known_or(k, (1, 1))
    }

    /// The numbers stored under the key `k`: decided, stored, or `fresh`.
    pub(super) fn known_or(&self, k: (Bits, Bits), fresh: (u32, u32)) -> (u32, u32) {
        match self.table.get(&k) {
            Some(Entry::WinByMove(_) | Entry::WinByVc(_)) => (0, INF),
            Some(Entry::LossByVc(_) | Entry::LossAll) => (INF, 0),
            None => self.pn_dn.get(&k).copied().unwrap_or(fresh),
        }
    }

    /// The numbers of a child not yet searched ([`Solver::init_dn`]), for a
    /// parent with `moves` candidate moves.
    pub(super) fn fresh(&self, moves: usize) -> (u32, u32) {
        (1, (moves as u64 * u64::from(self.init_dn) / 100).clamp(1, u64::from(INF - 1)) as u32)
    }

    /// The dn threshold of the best child: past the second-best sibling's dn
    /// `second` by 1, or by ε percent of it ([`Solver::widen`], the 1+ε trick).
    fn widened(&self, second: u32) -> u32 {
        let step = (u64::from(second) * u64::from(self.widen) / 100).clamp(1, u64::from(INF));
        (u64::from(second) + step).min(u64::from(INF)) as u32
    }

    /// Multiple iterative deepening at one position: searches below it until its
    /// pn reaches `th_pn` or its dn reaches `th_dn` (or it is decided).
    /// `up`: the keys of the parent and the grandparent on the search path (the
    /// position is a child of an expanded position when it has a parent; see
    /// [`Solver::expand`]).
    #[allow(clippy::too_many_arguments)]
    fn mid(
        &mut self,
        black: Bits,
        white: Bits,
        mover: Colour,
        th_pn: u32,
        th_dn: u32,
        start: u64,
        up: Up,
    ) -> Result<(u32, u32), Aborted> {
        let k = self.resolve(key(black, white, mover));
        if self.table.contains_key(&k) {
            self.counts.decided_hits += 1;
            return Ok(self.known(k));
        }
        let (mut moves, (black, white)) = match self.moves.get(&k) {
            Some(m) => {
                self.counts.expanded_hits += 1;
                (m.moves.clone(), m.stones)
            }
            None => match self.expand(black, white, mover, start, up)? {
                Some(m) => m,
                None => return Ok(self.numbers(key(black, white, mover))),
            },
        };
        // The filled position: every entry below is stored under its key.
        let k = key(black, white, mover);
        self.killer_first(k, &mut moves, up[0]);
        let play = |c: u8| {
            if mover == Colour::Black { (black | 1 << c, white) } else { (black, white | 1 << c) }
        };
        let (fresh, step) = (self.fresh(moves.len()), u64::from(self.grade) * moves.len() as u64);
        loop {
            // pn = min child dn (best child first in move order), dn = Σ child pn.
            let (mut pn, mut second, mut dn) = (INF, INF, 0u32);
            let (mut best, mut best_pn, mut refuted) = (0, 0, 0u64);
            for (i, &c) in moves.iter().enumerate() {
                let (b, w) = play(c);
                let (cpn, cdn) = self.known_or(self.resolve(key(b, w, mover.other())), graded(fresh, i, step));
                if cdn < pn {
                    (second, pn, best, best_pn) = (pn, cdn, i, cpn);
                } else if cdn < second {
                    second = cdn;
                }
                dn = dn.saturating_add(cpn).min(INF);
                refuted += u64::from(cpn == 0);
            }
            if pn == 0 {
                self.store_win((black, white), mover, &moves, best, refuted, up[0]);
                return Ok((0, INF));
            }
            if dn == 0 {
                self.pn_dn.remove(&k);
                self.counts.lost_searched += 1;
                self.counts.lost_moves += moves.len() as u64;
                let expanded = self.moves.remove(&k).map_or((Vec::new(), Vec::new()), |e| (e.scs, e.kills));
                self.store_loss_all(k, expanded.0, expanded.1);
                return Ok((INF, 0));
            }
            // Undecided: no child is (∞, 0) or (0, ∞) in a way that decides, so pn, dn < ∞.
            let dn = dn.min(INF - 1);
            if pn >= th_pn || dn >= th_dn {
                self.pn_dn.insert(k, (pn, dn));
                return Ok((pn, dn));
            }
            let child_th_pn = th_dn - (dn - best_pn.min(dn));
            let child_th_dn = th_pn.min(self.widened(second));
            let (b, w) = play(moves[best]);
            self.mid(b, w, mover.other(), child_th_pn, child_th_dn, start, [Some(k), up[0]])?;
            if self.transplant {
                self.transplant((black, white), mover, &moves, moves[best]);
            }
            if self.support_cut {
                let m = moves[best];
                self.cut_siblings(k, &mut moves, m);
            }
        }
    }

    /// Puts the killer of the parent (the move by which a sibling was last won) first among the
    /// moves of the expanded position `k`, here and in its stored moves, when [`Solver::killer`] is on.
    fn killer_first(&mut self, k: (Bits, Bits), moves: &mut [u8], parent: Option<(Bits, Bits)>) {
        if !self.killer {
            return;
        }
        let Some(r) = parent.and_then(|p| self.moves.get(&p)).and_then(|e| e.killer) else { return };
        let Some(j) = moves.iter().position(|&c| c == r).filter(|&j| j > 0) else { return };
        moves[..=j].rotate_right(1);
        if let Some(e) = self.moves.get_mut(&k) {
            e.moves.copy_from_slice(moves);
        }
    }

    /// Records the filled position `stones` as won by its move `moves[best]`, the move as the killer
    /// of the `parent` ([`Solver::killer`]), and counts the `refuted` moves and the other moves
    /// searched there (expanded or decided, the winning one not counted).
    #[inline(never)]
    fn store_win(
        &mut self,
        stones: (Bits, Bits),
        mover: Colour,
        moves: &[u8],
        best: usize,
        refuted: u64,
        parent: Option<(Bits, Bits)>,
    ) {
        if let Some(p) = parent.filter(|_| self.killer)
            && let Some(e) = self.moves.get_mut(&p)
        {
            e.killer = Some(moves[best]);
        }
        let k = key(stones.0, stones.1, mover);
        self.table.insert(k, Entry::WinByMove(moves[best] as usize));
        self.pn_dn.remove(&k);
        self.moves.remove(&k);
        let tried = moves.iter().filter(|&&c| {
            let (b, w) =
                if mover == Colour::Black { (stones.0 | 1 << c, stones.1) } else { (stones.0, stones.1 | 1 << c) };
            let ck = self.resolve(key(b, w, mover.other()));
            self.table.contains_key(&ck) || self.pn_dn.contains_key(&ck) || self.moves.contains_key(&ck)
        });
        let other = (tried.count() as u64).saturating_sub(1);
        let n = &mut self.counts;
        (n.won_by_move, n.failed_tries, n.other_tries) =
            (n.won_by_move + 1, n.failed_tries + refuted, n.other_tries + other);
    }

    /// The first visit of a position: fills its inferior cells (`inferior.rs`;
    /// a non-empty fill-in is kept in [`Solver::fills`], and everything below is
    /// about the filled position, stored under its key, so that positions with
    /// the same filled position share one entry; a filled position already
    /// decided or expanded is not searched again), then decides it outright (a chain completed
    /// by the fill-in, an immediate winning move, an edge VC of either player,
    /// an empty mustplay region; stored in the table, `None` returned) or
    /// returns its candidate moves, most central first, with the filled stones.
    ///
    /// The opponent's H-search comes first: his edge VC or an empty mustplay
    /// region decides a loss (then the mover has no edge VC, by Satz 4.1 both
    /// cannot hold); it is seeded with the same player's connections kept at the
    /// grandparent `up[1]` (`reuse.rs`). The mover's own H-search is skipped for
    /// a child of an expanded position (one with a parent `up[0]`): the parent
    /// (the other player to move) found no edge VC of this mover by H-search on
    /// the position one stone of the parent's mover fewer, and exhaustive
    /// H-search on the child derives exactly the parent's connections whose
    /// carriers avoid that stone (a deleted free node appears in no derivation
    /// of a carrier without it), so the check would find nothing; bounded
    /// H-search may rarely find a VC there, and skipping a check only costs
    /// nodes, never soundness.
    fn expand(
        &mut self,
        black: Bits,
        white: Bits,
        mover: Colour,
        start: u64,
        up: Up,
    ) -> Result<Option<Candidates>, Aborted> {
        let (black, white) = self.filled(key(black, white, mover), black, white);
        let k = key(black, white, mover);
        if self.table.contains_key(&k) {
            return Ok(None);
        }
        if let Some(m) = self.moves.get(&k) {
            return Ok(Some((m.moves.clone(), m.stones)));
        }
        self.count_position(start)?;
        self.counts.with_parent += u64::from(up[0].is_some());
        if let Some(g) = up[1]
            && (self.moves.contains_key(&g) || self.table.contains_key(&g))
        {
            self.counts.grandparent_known += 1;
        }
        let (own, opp) = self.stones(black, white, mover);
        if self.board.connects(mover, own) || self.board.connects(mover.other(), opp) {
            let entry = if self.board.connects(mover, own) { Entry::WinByVc(0) } else { Entry::LossByVc(0) };
            self.table.insert(k, entry);
            return Ok(None);
        }
        let free = self.board.all() & !(black | white);
        if let Some(c) = cells_of(free).find(|&c| self.board.connects(mover, own | 1 << c)) {
            self.table.insert(k, Entry::WinByMove(c));
            return Ok(None);
        }
        let (mut candidates, mut scs, mut kept) = (free, Vec::new(), None);
        if self.use_h_search {
            self.counts.opponent_searches += 1;
            let (threats, found) = self.threats_reusing(black, white, mover.other(), up[1]);
            kept = found;
            if let Some(c) = threats.vc {
                self.counts.decided(black | white, true);
                self.table.insert(k, Entry::LossByVc(c));
                return Ok(None);
            }
            candidates &= threats.scs.iter().fold(!0, |m, c| m & c);
            scs = sc_cover(&threats.scs, free & !candidates);
            if candidates != 0 && up[0].is_none() {
                self.counts.own_searches += 1;
                if let Some(c) = self.threats(black, white, mover).vc {
                    self.table.insert(k, Entry::WinByVc(c));
                    return Ok(None);
                }
            }
        }
        let mut kills = self.prune_vulnerable(black, white, mover, &mut candidates);
        self.prune_dominated(black, white, mover, free, &mut candidates, &mut kills);
        candidates &= !self.cut_before(k); // Only after a forgotten expansion (`forget.rs`).
        if candidates == 0 {
            self.counts.decided(black | white, false);
            self.store_loss_all(k, scs, kills);
            return Ok(None);
        }
        self.counts.undecided(black | white, mover == Colour::White, candidates, free);
        let mut order: Vec<u8> =
            self.centre_order.iter().filter(|&&c| candidates >> c & 1 == 1).map(|&c| c as u8).collect();
        if self.resistance_order {
            let score = resistance_scores(&self.board, black, white);
            order.sort_by(|&a, &b| score[b as usize].total_cmp(&score[a as usize]));
        }
        self.moves.insert(k, Expanded { stones: (black, white), moves: order.clone(), scs, kills, killer: None });
        if let Some(kept) = kept {
            self.kept.insert(k, kept);
        }
        Ok(Some((order, (black, white))))
    }

    /// Leaves the mover's vulnerable cells out of `candidates` when
    /// [`Solver::vulnerable`] is on (`inferior::killer`; the theorem in
    /// `docs/hex.md`, "Vulnerable cells": if the mover wins, a winning move
    /// remains, so the position is lost when none is left): the cells left out
    /// with their killers.
    fn prune_vulnerable(&mut self, black: Bits, white: Bits, mover: Colour, candidates: &mut Bits) -> Vec<(u8, u8)> {
        let mut kills = Vec::new();
        if !self.vulnerable {
            return kills;
        }
        let (own, opp) = self.stones(black, white, mover);
        for c in cells_of(*candidates) {
            if let Some(kill) = killer(&self.board, mover, own, opp, c) {
                *candidates &= !(1 << c);
                kills.push((c as u8, kill as u8));
            }
        }
        self.counts.vulnerable += kills.len() as u64;
        kills
    }

    /// Leaves the mover's dominated cells out of `candidates` when
    /// [`Solver::dominated`] is on (`inferior::dominator`; `docs/hex.md`,
    /// "Dominated cells"), each pushed to `kills` with its dominator flagged
    /// [`DOMINATED`]. A dominator is a cell still answered when its cell is left
    /// out: a candidate or a `free` cell outside the mustplay region (lost by an
    /// SC), never a cell left out before (vulnerable or dominated), so every
    /// chain of dominators ends at an answered cell: if the mover wins by a cell
    /// left out, he wins by that cell.
    fn prune_dominated(
        &mut self,
        black: Bits,
        white: Bits,
        mover: Colour,
        free: Bits,
        candidates: &mut Bits,
        kills: &mut Vec<(u8, u8)>,
    ) {
        if !self.dominated {
            return;
        }
        let (own, opp) = self.stones(black, white, mover);
        let mut answered = kills.iter().fold(free, |a, &(c, _)| a & !(1 << c));
        for c in cells_of(*candidates) {
            if let Some(d) = dominator(&self.board, mover, own, opp, c, answered & !(1 << c)) {
                (*candidates, answered) = (*candidates & !(1 << c), answered & !(1 << c));
                kills.push((c as u8, d as u8 | DOMINATED));
                self.counts.dominated += 1;
            }
        }
    }

    /// [`Solver::threats`] for `colour` at the (filled) position `black`,
    /// `white`, seeded from the result kept at `grand` (the position two plies
    /// up on the search path) when [`Solver::reuse`] is on and it is kept;
    /// with the result to keep for this position, when it has no edge VC.
    fn threats_reusing(
        &mut self,
        black: Bits,
        white: Bits,
        colour: Colour,
        grand: Option<(Bits, Bits)>,
    ) -> (Threats, Option<Kept>) {
        if !self.reuse {
            return (self.threats(black, white, colour), None);
        }
        let (own, opp) = self.stones(black, white, colour);
        let pg = HexGraph::from_stones_unnamed(&self.board, own, opp, colour);
        let seeded = grand.and_then(|k| self.kept.get(k)).and_then(|kept| kept.seeds_for(colour, own, opp, &pg));
        let found = match seeded {
            Some((seeds, touched)) => h_search_edge_seeded(&pg.graph, self.limits, pg.edges, &seeds, touched),
            None => h_search_edge(&pg.graph, self.limits, pg.edges.0, pg.edges.1),
        };
        let (x, y) = pg.edges;
        let vc = found.smallest_vc(x, y).map(|c| pg.graph.board_cells(c));
        let scs = found.scs(x, y).iter().map(|&c| pg.graph.board_cells(c)).collect();
        let kept = vc.is_none().then(|| Kept::new(colour, own, opp, &pg, &found));
        (Threats { vc, scs }, kept)
    }

    /// The position after fill-in (unchanged if fill-in is off); a non-empty fill-in is recorded.
    fn filled(&mut self, k: (Bits, Bits), black: Bits, white: Bits) -> (Bits, Bits) {
        if !self.fill_in {
            return (black, white);
        }
        let (fb, fw) = fill_in(&self.board, black, white);
        if fb | fw != 0 {
            self.fills.insert(k, (fb, fw));
        }
        (black | fb, white | fw)
    }
}

/// The numbers of the `rank`-th new child (from 0) under graded numbers ([`Solver::grade`]):
/// `fresh` with its dn raised by ⌊rank · step / 100⌋ (below [`INF`]); `fresh` itself when `step` is 0.
pub(super) fn graded(fresh: (u32, u32), rank: usize, step: u64) -> (u32, u32) {
    if step == 0 {
        return fresh;
    }
    (fresh.0, (u64::from(fresh.1) + rank as u64 * step / 100).min(u64::from(INF - 1)) as u32)
}

/// The electric-circuit evaluation of a position (Anshelevich; the move
/// order of the Benzene solvers): for each player a circuit from his first
/// edge (potential 1) to his second (potential 0) over his Hex graph (free
/// cells of resistance 1, his stones and edges of resistance 0, the
/// opponent's stones cut out), so a link between two free cells conducts 1,
/// a link from a free cell to his group or edge 2. A free cell's score is the
/// current through it as a share of the player's total, summed over both
/// players: the cells both need most come first. A heuristic for the order of
/// the search only (no value depends on it); nodes cut off from both edges
/// carry no current and are left out of the linear system.
pub(super) fn resistance_scores(board: &Board, black: Bits, white: Bits) -> Vec<f64> {
    let mut score = vec![0.0; board.cells()];
    for colour in [Colour::Black, Colour::White] {
        let (own, opp) = if colour == Colour::Black { (black, white) } else { (white, black) };
        let pg = HexGraph::from_stones_unnamed(board, own, opp, colour);
        let (g, (x, y)) = (&pg.graph, pg.edges);
        if x == y {
            continue;
        }
        let volt = potentials(g, x, y);
        let conductance = |u: usize, v: usize| if (g.occupied >> u | g.occupied >> v) & 1 == 1 { 2.0 } else { 1.0 };
        let total: f64 = cells_of(g.adjacency[x]).map(|v| conductance(x, v) * (1.0 - volt[v])).sum();
        if total <= 0.0 {
            continue;
        }
        for u in cells_of(g.free()) {
            let flow: f64 = cells_of(g.adjacency[u]).map(|v| conductance(u, v) * (volt[u] - volt[v]).abs()).sum();
            score[g.cells[u].trailing_zeros() as usize] += flow / 2.0 / total;
        }
    }
    score
}

/// The node potentials of the circuit of [`resistance_scores`] on the graph
/// `g` with `x` at 1 and `y` at 0 (0 for nodes cut off from both): the
/// Laplacian of the other nodes reachable from `x` or `y` is positive definite
/// (each of its parts touches `x` or `y`), so elimination needs no pivoting.
fn potentials(g: &HexGraph, x: usize, y: usize) -> Vec<f64> {
    let mut volt = vec![0.0; g.len()];
    volt[x] = 1.0;
    let mut reach: Bits = 1 << x | 1 << y;
    loop {
        let next = cells_of(reach).fold(reach, |r, v| r | g.adjacency[v]);
        if next == reach {
            break;
        }
        reach = next;
    }
    let inner: Vec<usize> = cells_of(reach & !(1 << x) & !(1 << y)).collect();
    let n = inner.len();
    let mut index = vec![usize::MAX; g.len()];
    for (i, &v) in inner.iter().enumerate() {
        index[v] = i;
    }
    // The augmented system, row i for node inner[i]: Σ_v c_uv (V_u − V_v) = 0.
    let mut a = vec![vec![0.0; n + 1]; n];
    for (i, &u) in inner.iter().enumerate() {
        for v in cells_of(g.adjacency[u]) {
            let c = if (g.occupied >> u | g.occupied >> v) & 1 == 1 { 2.0 } else { 1.0 };
            a[i][i] += c;
            if v == x {
                a[i][n] += c;
            } else if v != y {
                a[i][index[v]] -= c;
            }
        }
    }
    for k in 0..n {
        let (pivot, rest) = a.split_at_mut(k + 1);
        let row = &pivot[k];
        for other in rest.iter_mut() {
            let f = other[k] / row[k];
            if f != 0.0 {
                for (o, r) in other[k..].iter_mut().zip(&row[k..]) {
                    *o -= f * r;
                }
            }
        }
    }
    for k in (0..n).rev() {
        let s = a[k][n] - (k + 1..n).map(|j| a[k][j] * volt[inner[j]]).sum::<f64>();
        volt[inner[k]] = s / a[k][k];
    }
    volt
}
