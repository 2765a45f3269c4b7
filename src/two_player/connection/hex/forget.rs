//! A df-pn solve whose tables forget (issue 51, the bounded transposition table): a long solve in
//! slices ([`Solver::in_slices`]) drops undecided positions between slices, so that the tables of
//! undecided positions stay below a bound however long it runs.
//!
//! **What is forgotten.** With [`Solver::forget`] set, after every slice stopped by its node budget,
//! when more than [`Forget::above`] undecided positions are expanded ([`Solver::moves`]), the excess
//! is dropped: those positions' expansions and their numbers ([`Solver::pn_dn`]), nothing else.
//! Never a decided position ([`Solver::table`]) nor what the proof reads beside it (fills, the
//! loser's SC carriers and left-out cells, supports, cut moves), nor the expansion of a position on
//! the path from the current question's root that the next slice walks down first
//! ([`Solver::root_path`]: the stack of df-pn calls the stopped slice had), nor the numbers of their
//! children: those are the loop state of every call on that stack, so the next slice takes up the
//! search where the stopped one was (forgetting them livelocks: a slice that expands the same
//! positions again, stopped at the same place, and forgets them again). Numbers kept without their
//! expansion so are dropped at a later forgetting, once their parent is off the path.
//! Invariant: after [`Solver::forget_undecided`], `moves.len() ≤ above` unless the root's path alone
//! is longer, and every key of `pn_dn` is one of `moves` or a child of a position on the path.
//!
//! **Which.** The smallest pn + dn first (the stored numbers; an expanded position without numbers,
//! one left on the path of a stopped slice, counts as (1, 1)), ties by key: the positions df-pn
//! has put least work into. The choice reads the tables and the current root only. A checkpoint
//! holds the tables exactly, and the root is the question the stopped slice worked on, which a
//! resumed process asks again in the same order (every slice restarts its task, and the questions
//! answered before are answered from the table), so forgetting after the same slices in one process
//! and in a chain of processes leaves the same tables and the search goes on alike. When forgetting
//! happens is fixed by the slice, so [`Forget::slice`] is part of [`Solver::describe`] with the bound
//! (a checkpoint of another bound or slice is refused).
//!
//! **Why it is sound.** Between slices no df-pn call is on the stack: no loop holds a forgotten
//! expansion, and the next slice starts at the root from the stored numbers. To df-pn a forgotten
//! position is one not yet searched: its parent reads it as new, and `mid` expands it again when it
//! meets it (the same fill-in, H-search and pruning, so the same candidate moves; the moves cut
//! there before by a refuted sibling are left out again, [`Solver::cut_before`]). Numbers only order
//! the search: no position is stored as decided by them, a win needs a child decided lost and a loss
//! every candidate child decided won (or answered by a kept SC carrier, a left-out cell with its
//! killer or dominator, a cut move with the decided sibling that cut it), and decided entries are
//! never forgotten. The proof is extracted from decided entries and what lies beside them alone,
//! and every proof is replayed by the independent checker (`check.rs`) anyway. Forgetting can cost
//! positions (an expansion searched again), and a bound below the search's working set could keep a
//! solve from finishing; it cannot make an answer wrong. Without forgetting no position is expanded
//! twice (an expansion is removed only when its position is decided), so [`Solver::cut_before`] is
//! empty there and a default solve is unchanged.

use super::board::{Bits, Colour};
use super::dfpn::graded;
pub use super::solver::Forget;
use super::solver::{PositionMap, Solver, key};
use std::collections::BTreeMap;

/// The mover flag of a table key (White to move).
const TOP: Bits = 1 << 127;

impl Solver {
    /// Forgets undecided positions above the bound of [`Solver::forget`] (module doc): called by
    /// [`Solver::in_slices`] after each stopped slice, and by a caller that runs its slices itself.
    /// Returns the number of positions forgotten (0 without a bound).
    pub fn forget_undecided(&mut self) -> usize {
        let Some(bound) = self.forget.map(|f| f.above) else { return 0 };
        if self.moves.len() <= bound {
            return 0;
        }
        let excess = self.moves.len() - bound;
        let (kept, children) = self.root_path();
        let rank = |k: &(Bits, Bits)| {
            let (pn, dn) = self.pn_dn.get(k).copied().unwrap_or((1, 1));
            u64::from(pn) + u64::from(dn)
        };
        let open = || self.moves.keys().filter(|k| !kept.contains_key(k));
        // The rank of the last position forgotten, and how many rank below it.
        let mut by_rank: BTreeMap<u64, usize> = BTreeMap::new();
        for k in open() {
            *by_rank.entry(rank(k)).or_default() += 1;
        }
        let (mut below, mut last) = (0, u64::MAX);
        for (&r, &n) in &by_rank {
            if below + n >= excess {
                last = r;
                break;
            }
            below += n;
        }
        let mut gone: Vec<(Bits, Bits)> = open().filter(|k| rank(k) < last).copied().collect();
        let mut ties: Vec<(Bits, Bits)> = open().filter(|k| rank(k) == last).copied().collect();
        ties.sort_unstable();
        ties.truncate(excess - below);
        gone.extend(ties);
        for k in &gone {
            self.moves.remove(k);
        }
        let moves = &self.moves;
        self.pn_dn.retain(|k, _| moves.contains_key(k) || children.contains_key(k));
        self.counts.forgotten += gone.len() as u64;
        gone.len()
    }

    /// The expanded positions on df-pn's way down from the root of the current question: from the
    /// root, the child of smallest dn (the first in move order among equals, as `mid` chooses it;
    /// the killer rule's reordering aside), as long as it is expanded; and the children of those
    /// positions (by their filled keys).
    pub(super) fn root_path(&self) -> (PositionMap<()>, PositionMap<()>) {
        let (mut path, mut children) = (PositionMap::default(), PositionMap::default());
        let Some((black, white, mover)) = self.root else { return (path, children) };
        let mut k = self.resolve(key(black, white, mover));
        while let Some(e) = self.moves.get(&k) {
            if path.insert(k, ()).is_some() {
                break;
            }
            let mover = if k.0 & TOP != 0 { Colour::White } else { Colour::Black };
            let ((b0, w0), n) = (e.stones, e.moves.len());
            let (fresh, step) = (self.fresh(n), u64::from(self.grade) * n as u64);
            let child = |c: u8| {
                let (b, w) = if mover == Colour::Black { (b0 | 1 << c, w0) } else { (b0, w0 | 1 << c) };
                self.resolve(key(b, w, mover.other()))
            };
            children.extend(e.moves.iter().map(|&c| (child(c), ())));
            let best =
                e.moves.iter().enumerate().min_by_key(|&(i, &c)| self.known_or(child(c), graded(fresh, i, step)).1);
            let Some((_, &c)) = best else { break };
            k = child(c);
        }
        (path, children)
    }

    /// The moves cut before at the filled position `k` (`support.rs`), left out when `k` is expanded
    /// again after it was forgotten; empty at a first expansion (module doc).
    pub(super) fn cut_before(&self, k: (Bits, Bits)) -> Bits {
        self.cut.get(&k).map_or(0, |v| v.iter().fold(0, |a: Bits, &(c, _)| a | 1 << c))
    }
}
