//! What df-pn did, counted (`Solver::counts`, printed by the benchmark `hex_solve`).

use super::board::Bits;
use super::hsearch::Work;

/// What df-pn did, counted (for the benchmark's account of where time goes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// H-search runs for the opponent of the mover (one per expansion reaching it).
    pub opponent_searches: u64,
    /// H-search runs for the mover (roots of questions only).
    pub own_searches: u64,
    /// Expansions decided by the opponent's edge VC / by an empty mustplay region.
    pub loss_by_vc: u64,
    pub loss_by_mustplay: u64,
    /// Visits of df-pn that found their position decided / expanded in the tables.
    pub decided_hits: u64,
    pub expanded_hits: u64,
    /// Expansions with a parent on the search path, and those whose grandparent
    /// is expanded or decided (where a result kept two plies up could be reused).
    pub with_parent: u64,
    pub grandparent_known: u64,
    /// The candidate moves and the free cells of undecided expansions, summed.
    pub candidates: u64,
    pub free: u64,
    /// Siblings decided by a refutation carried over (`Solver::transplant`).
    pub transplants: u64,
    /// Vulnerable cells left out of the candidate moves (`Solver::vulnerable`).
    pub vulnerable: u64,
    /// Candidate moves cut by a refuted sibling's support (`Solver::support_cut`).
    pub support_cuts: u64,
    /// Dominated cells left out of the candidate moves (`Solver::dominated`).
    pub dominated: u64,
    /// Positions lost after a search of their moves (not by H-search), and their moves summed.
    pub lost_searched: u64,
    pub lost_moves: u64,
    /// Expansions by the number of stones on the board (after fill-in), in pairs (the last: 62 and more).
    pub by_stones: [u64; 32],
    /// Expansions decided by H-search (an edge VC or an empty region), by stones in pairs as `by_stones`.
    pub decided_by_stones: [u64; 32],
    /// Undecided expansions by the mover (Black, White): how many, their candidate moves and free cells summed.
    pub by_mover: [[u64; 3]; 2],
    /// Positions proved won by a move; the moves refuted there, and the other moves searched
    /// (expanded or decided, the winning one not counted), when the winning one was proved.
    pub won_by_move: u64,
    pub failed_tries: u64,
    pub other_tries: u64,
    /// Undecided positions forgotten between slices (`Solver::forget`, `forget.rs`).
    pub forgotten: u64,
    /// The H-search runs' work, summed.
    pub work: Work,
}

impl Counts {
    /// An expansion decided by H-search at the stones `stones`: by the opponent's edge VC (`by_vc`) or
    /// by an empty mustplay region.
    pub(super) fn decided(&mut self, stones: Bits, by_vc: bool) {
        if by_vc {
            self.loss_by_vc += 1;
        } else {
            self.loss_by_mustplay += 1;
        }
        self.decided_by_stones[(stones.count_ones() as usize / 2).min(31)] += 1;
    }

    /// An undecided expansion at the stones `stones`, White to move or not, with its candidate moves
    /// and free cells.
    pub(super) fn undecided(&mut self, stones: Bits, white: bool, candidates: Bits, free: Bits) {
        let (c, f) = (u64::from(candidates.count_ones()), u64::from(free.count_ones()));
        self.by_stones[(stones.count_ones() as usize / 2).min(31)] += 1;
        (self.candidates, self.free) = (self.candidates + c, self.free + f);
        let side = &mut self.by_mover[usize::from(white)];
        (side[0], side[1], side[2]) = (side[0] + 1, side[1] + c, side[2] + f);
    }
}
