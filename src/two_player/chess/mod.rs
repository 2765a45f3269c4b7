//! Pawnless chess endgames (Ströhlein 1970, seed 000) as a client of the
//! generic game-graph solver [`crate::graph`].
//!
//! Model (standard chess legality, no castling, no 50-move rule, repetition =
//! infinite play = draw): all men on distinct squares, kings not adjacent, the
//! side not to move not in check; stalemate is a draw; captures of the lone
//! piece lead into the 3-man tables, solved first (S5.6). One position per
//! class under the 8 board symmetries is stored (white king on a1–d1–d4 with
//! the lexicographically least men tuple); counts are reported on the full
//! board (each class weighted by its orbit size).
//!
//! Depths are in moves of the winning side with White to move (Ströhlein
//! D4.1): DTM, DTC, and Ströhlein's own count (mate + 1, or capture) — see
//! [`endgame::Metric`].

pub mod board;
pub mod endgame;
pub mod position;
pub mod table;

pub use endgame::{Endgame, Metric};
pub use table::{Table, Tablebase};
