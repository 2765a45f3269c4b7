//! The replies to a position in the solver's own order: the unit list of the
//! split map job (`reproduce/hex_map.rs`, issue 51: an 8×8 opening solved reply
//! by reply), where a winning reply found first ends the opening early.
//!
//! The order only decides which replies are tried first, never which are
//! proved: every free cell is listed. The candidates come first as df-pn's
//! expansion of the position orders them (`dfpn.rs`: after fill-in, inside the
//! mustplay region of the opponent's edge SCs, by the electric-circuit
//! evaluation, ties most central first), then the other free cells most central first.

use super::board::{Bits, cells_of};
use super::dfpn::resistance_scores;
use super::inferior::fill_in;
use super::position::Position;
use super::solver::Solver;

impl Solver {
    /// Every free cell of `position` (a move for its side to move), the solver's
    /// candidate moves first in its order, then the others most central first.
    pub fn reply_order(&mut self, position: &Position) -> Vec<usize> {
        let (black, white, mover) = (position.black, position.white, position.to_move);
        let free = self.board.all() & !(black | white);
        let (fb, fw) = if self.fill_in { fill_in(&self.board, black, white) } else { (0, 0) };
        let (black, white) = (black | fb, white | fw);
        let mut first: Bits = self.board.all() & !(black | white);
        if self.use_h_search {
            let threats = self.threats(black, white, mover.other());
            if threats.vc.is_none() {
                first &= threats.scs.iter().fold(!0, |m, c| m & c);
            }
        }
        let mut order: Vec<usize> = self.centre_order.iter().copied().filter(|&c| first >> c & 1 == 1).collect();
        if self.resistance_order {
            let score = resistance_scores(&self.board, black, white);
            order.sort_by(|&a, &b| score[b].total_cmp(&score[a]));
        }
        let rest = free & !first;
        order.extend(self.centre_order.iter().copied().filter(|&c| rest >> c & 1 == 1));
        debug_assert_eq!(order.iter().fold(0, |m: Bits, &c| m | 1 << c), free);
        debug_assert_eq!(order.len(), cells_of(free).count());
        order
    }
}
