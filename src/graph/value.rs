//! Game values from the point of view of the player to move.
//!
//! Depths count plies (half-moves) to the end of the game under optimal play:
//! the winner hurries, the loser delays (Ströhlein D4.1/S4.6; seed003 C2A). A
//! game that reports depths in *moves of the winning side* (Ströhlein's
//! "Zugzahl", thesis §3: |α| = ⌊n/2⌋) converts with [`WinLossDraw::winner_moves`].

use serde::Serialize;

/// Value of a position for the player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum WinLossDraw {
    /// The mover wins in this many plies (odd for a normal game end).
    Win(u32),
    /// The mover loses in this many plies (0 = no move and the game is lost).
    Loss(u32),
    /// Neither side can force a win (terminal draw, stalemate or infinite play).
    Draw,
}

impl WinLossDraw {
    /// The value of the position one ply earlier, seen by the player who moved
    /// into `self`: a loss for the opponent is a win one ply longer.
    pub fn before_move(self) -> WinLossDraw {
        match self {
            WinLossDraw::Win(d) => WinLossDraw::Loss(d + 1),
            WinLossDraw::Loss(d) => WinLossDraw::Win(d + 1),
            WinLossDraw::Draw => WinLossDraw::Draw,
        }
    }

    /// Whether `self` is strictly better than `other` for the player to move:
    /// wins beat draws beat losses; a shorter win and a longer loss are better.
    pub fn better_than(self, other: WinLossDraw) -> bool {
        self.rank() > other.rank()
    }

    /// The better of two options for the player choosing between them.
    pub fn best(self, other: WinLossDraw) -> WinLossDraw {
        if other.better_than(self) { other } else { self }
    }

    fn rank(self) -> i64 {
        match self {
            WinLossDraw::Win(d) => i64::MAX / 2 - d as i64,
            WinLossDraw::Draw => 0,
            WinLossDraw::Loss(d) => -(i64::MAX / 2) + d as i64,
        }
    }

    /// Depth in moves of the winning side (Ströhlein's Zugzahl z): a won
    /// position needs ⌈plies/2⌉ moves of the mover, a lost one ⌊plies/2⌋ moves
    /// of the opponent. `None` for a draw.
    pub fn winner_moves(self) -> Option<u32> {
        match self {
            WinLossDraw::Win(d) => Some(d.div_ceil(2)),
            WinLossDraw::Loss(d) => Some(d / 2),
            WinLossDraw::Draw => None,
        }
    }

    /// Short text: `W7`, `L6`, `D`.
    pub fn label(self) -> String {
        match self {
            WinLossDraw::Win(d) => format!("W{d}"),
            WinLossDraw::Loss(d) => format!("L{d}"),
            WinLossDraw::Draw => "D".to_string(),
        }
    }

    /// Whether the mover wins.
    pub fn is_win(self) -> bool {
        matches!(self, WinLossDraw::Win(_))
    }

    /// Whether the mover loses.
    pub fn is_loss(self) -> bool {
        matches!(self, WinLossDraw::Loss(_))
    }
}

#[cfg(test)]
mod tests {
    use super::WinLossDraw::*;

    #[test]
    fn order_prefers_short_wins_and_long_losses() {
        assert!(Win(1).better_than(Win(3)));
        assert!(Win(99).better_than(Draw));
        assert!(Draw.better_than(Loss(50)));
        assert!(Loss(4).better_than(Loss(2)));
        assert_eq!(Loss(3).before_move(), Win(4));
        assert_eq!(Win(3).winner_moves(), Some(2));
        assert_eq!(Loss(4).winner_moves(), Some(2));
    }
}
