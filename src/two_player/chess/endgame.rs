//! A pawnless endgame K+X vs K(+Y) as a client of the generic retrograde
//! solver: one stored position per symmetry class, weighted moves and
//! un-moves, captures as exits into the 3-man tables (Ströhlein S5.6, §8.3).

use super::board::{Geometry, Piece, Square};
use super::position::{BK, BY, KING_SLOTS, Position, WK, WX};
use crate::error::{Result, invalid};
use crate::graph::WinLossDraw;
use crate::graph::retrograde::{RetroGraph, Start};
use serde::Serialize;

/// An endgame: White has king + `strong`, Black has king (+ `weak`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Endgame {
    /// White's piece besides the king.
    pub strong: Piece,
    /// Black's piece besides the king, if any.
    pub weak: Option<Piece>,
}

const ACCEPTED: &str = "accepted: K+X vs K or K+X vs K+Y with X, Y among Q R B N (e.g. KRK, KQK, KRKB, KRKN, KQKR; German letters D T L S also work)";

impl Endgame {
    /// Parses a name such as `KQKR` (or German `KDKT`).
    pub fn parse(name: &str) -> Result<Endgame> {
        let upper = name.trim().to_ascii_uppercase();
        if upper.contains('P') {
            return Err(invalid(format!(
                "endgame `{name}`: pawns are not supported (no promotion or en passant in this solver); {ACCEPTED}"
            )));
        }
        let letters: Vec<char> = upper.chars().collect();
        let second_king = letters.iter().skip(1).position(|&c| c == 'K').map(|i| i + 1);
        let (Some(k2), Some('K')) = (second_king, letters.first().copied()) else {
            return Err(invalid(format!("unknown endgame `{name}`; {ACCEPTED}")));
        };
        let (white, black) = (&letters[1..k2], &letters[k2 + 1..]);
        if white.len() + black.len() + 2 > 4 {
            return Err(invalid(format!("endgame `{name}` has more than 4 men; {ACCEPTED}")));
        }
        let piece = |c: char| Piece::from_letter(c).filter(|p| *p != Piece::King);
        match (white, black) {
            ([x], []) => piece(*x).map(|strong| Endgame { strong, weak: None }),
            ([x], [y]) => piece(*x).zip(piece(*y)).map(|(strong, weak)| Endgame { strong, weak: Some(weak) }),
            _ => None,
        }
        .ok_or_else(|| invalid(format!("unknown endgame `{name}`; {ACCEPTED}")))
    }

    /// Name such as `KQKR`.
    pub fn name(&self) -> String {
        let weak = self.weak.map(|p| p.letter().to_string()).unwrap_or_default();
        format!("K{}K{}", self.strong.letter(), weak)
    }

    /// Number of men (3 or 4).
    pub fn men(&self) -> usize {
        3 + self.weak.is_some() as usize
    }

    /// Pieces by role (the fourth is a placeholder in 3-man endgames).
    pub fn pieces(&self) -> [Piece; 4] {
        [Piece::King, self.strong, Piece::King, self.weak.unwrap_or(Piece::King)]
    }

    /// Number of position indices per side to move.
    pub fn per_side(&self) -> usize {
        KING_SLOTS.len() * 64usize.pow(self.men() as u32 - 1)
    }

    /// The dense index of a canonical position.
    pub fn index(&self, pos: &Position) -> usize {
        let slot = KING_SLOTS.iter().position(|&s| s == pos.men[WK]).expect("canonical position");
        let mut i = slot;
        for &s in &pos.men[1..pos.count] {
            i = i * 64 + s as usize;
        }
        i + if pos.white_to_move { 0 } else { self.per_side() }
    }

    /// The position stored at `index` (it may be illegal or not canonical).
    pub fn decode(&self, index: usize) -> Position {
        let count = self.men();
        let white_to_move = index < self.per_side();
        let mut rest = index % self.per_side();
        let mut men = [0 as Square; 4];
        for r in (1..count).rev() {
            men[r] = (rest % 64) as Square;
            rest /= 64;
        }
        men[WK] = KING_SLOTS[rest];
        Position { men, count, white_to_move }
    }
}

/// How depth is counted (all in moves of the winning side, White to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, serde::Deserialize)]
pub enum Metric {
    /// Depth to mate; through captures into the 3-man table's mate depth.
    Dtm,
    /// Depth to conversion: mate, or a capture into a won smaller ending.
    Dtc,
    /// Ströhlein's count (§9): to the capture of the king — one move more than
    /// to mate — or to the capture of the black piece.
    Stroehlein,
}

impl Metric {
    /// Parses `dtm`, `dtc`, `stroehlein` (also `str`).
    pub fn parse(text: &str) -> Result<Metric> {
        match text.to_ascii_lowercase().as_str() {
            "dtm" => Ok(Metric::Dtm),
            "dtc" | "dtz" => Ok(Metric::Dtc),
            "stroehlein" | "ströhlein" | "str" => Ok(Metric::Stroehlein),
            _ => Err(invalid(format!("unknown metric `{text}`; accepted: dtm, dtc, stroehlein"))),
        }
    }

    /// Short name.
    pub fn name(&self) -> &'static str {
        match self {
            Metric::Dtm => "dtm",
            Metric::Dtc => "dtc",
            Metric::Stroehlein => "stroehlein",
        }
    }

    /// The value of a capture for the capturer, given the value of the resulting
    /// smaller ending for its side to move: DTM continues counting; DTC and
    /// Ströhlein's count end at the conversion (the capture is the last move).
    pub fn capture_value(&self, after: WinLossDraw) -> WinLossDraw {
        match self {
            Metric::Dtm => after.before_move(),
            Metric::Dtc | Metric::Stroehlein => match after {
                WinLossDraw::Loss(_) => WinLossDraw::Win(1),
                WinLossDraw::Win(_) => WinLossDraw::Loss(1),
                WinLossDraw::Draw => WinLossDraw::Draw,
            },
        }
    }

    /// The value of a mated side to move: lost now, or (Ströhlein) one white
    /// move later, when the king would be captured.
    pub fn mated(&self) -> WinLossDraw {
        match self {
            Metric::Stroehlein => WinLossDraw::Loss(2),
            _ => WinLossDraw::Loss(0),
        }
    }
}

/// A legal move of the side to move: which man (role), where to, and the result.
#[derive(Clone, Copy, Debug)]
pub struct Move {
    /// Role of the moving man (see [`super::position`]).
    pub role: usize,
    /// Destination square.
    pub to: Square,
    /// The position after the move.
    pub result: MoveResult,
}

impl Move {
    /// Text such as `Rb4` or `Kxb1` (English letters).
    pub fn label(&self, pieces: &[Piece; 4]) -> String {
        let capture = if matches!(self.result, MoveResult::Capture { .. }) { "x" } else { "" };
        format!("{}{capture}{}", pieces[self.role].letter(), super::board::square_name(self.to))
    }
}

/// What a move leads to.
#[derive(Clone, Copy, Debug)]
pub enum MoveResult {
    /// A move that keeps all men on the board.
    Quiet(Position),
    /// A capture of the opponent's piece; the result is a 3-man position of the
    /// capturing side's ending (roles: strong king, strong piece, weak king),
    /// `strong_to_move` false (the side that lost its piece moves next).
    Capture { after: Position, capturer_white: bool },
}

/// Calls `visit` for every legal move of the side to move in a legal position.
pub fn for_each_move(pieces: &[Piece; 4], pos: &Position, mut visit: impl FnMut(Move)) {
    let g = Geometry::get();
    let occupied = pos.occupied();
    let (own, enemy_piece) = if pos.white_to_move { ([WK, WX], BY) } else { ([BK, BY], WX) };
    for &role in own.iter().filter(|&&r| r < pos.count) {
        g.for_each_target(pieces[role], pos.men[role], occupied, |to| {
            if let Some(m) = make_move(pieces, pos, role, to, enemy_piece) {
                visit(m);
            }
        });
    }
}

fn make_move(pieces: &[Piece; 4], pos: &Position, role: usize, to: Square, enemy_piece: usize) -> Option<Move> {
    let g = Geometry::get();
    let own_roles = if pos.white_to_move { [WK, WX] } else { [BK, BY] };
    let enemy_king = if pos.white_to_move { BK } else { WK };
    if own_roles.iter().any(|&r| r < pos.count && pos.men[r] == to) || pos.men[enemy_king] == to {
        return None;
    }
    let mut after = *pos;
    after.men[role] = to;
    after.white_to_move = !pos.white_to_move;
    let captures = enemy_piece < pos.count && pos.men[enemy_piece] == to;
    if g.adjacent(after.men[WK], after.men[BK]) {
        return None;
    }
    let own_king = own_roles[0];
    if !captures
        && enemy_piece < pos.count
        && g.attacks(pieces[enemy_piece], after.men[enemy_piece], after.men[own_king], after.occupied())
    {
        return None;
    }
    if !captures {
        return Some(Move { role, to, result: MoveResult::Quiet(after) });
    }
    // Re-express the 3-man result in its own ending: strong side = the capturer.
    let men = if pos.white_to_move {
        [after.men[WK], after.men[WX], after.men[BK], 0]
    } else {
        [after.men[BK], after.men[BY], after.men[WK], 0]
    };
    let small = Position { men, count: 3, white_to_move: false };
    Some(Move { role, to, result: MoveResult::Capture { after: small, capturer_white: pos.white_to_move } })
}

/// The legal move of the side to move that brings its `piece` to `to`, if any
/// (each side has at most one man of each kind here, so this is unambiguous).
pub fn move_to(pieces: &[Piece; 4], pos: &Position, piece: Piece, to: Square) -> Option<Move> {
    let g = Geometry::get();
    let (own, enemy_piece) = if pos.white_to_move { ([WK, WX], BY) } else { ([BK, BY], WX) };
    let role = own.into_iter().find(|&r| r < pos.count && pieces[r] == piece)?;
    let mut reachable = false;
    g.for_each_target(piece, pos.men[role], pos.occupied(), |s| reachable |= s == to);
    if !reachable {
        return None;
    }
    make_move(pieces, pos, role, to, enemy_piece)
}

/// Calls `visit(previous)` for every legal position from which a quiet move
/// of the side that just moved leads to `pos`.
pub fn for_each_unmove(pieces: &[Piece; 4], pos: &Position, mut visit: impl FnMut(Position)) {
    let g = Geometry::get();
    let occupied = pos.occupied();
    let movers = if pos.white_to_move { [BK, BY] } else { [WK, WX] };
    for &role in movers.iter().filter(|&&r| r < pos.count) {
        g.for_each_target(pieces[role], pos.men[role], occupied, |from| {
            if occupied >> from & 1 != 0 {
                return;
            }
            let mut before = *pos;
            before.men[role] = from;
            before.white_to_move = !pos.white_to_move;
            if before.is_legal(pieces) {
                visit(before);
            }
        });
    }
}

/// Value of a solved 3-man position after a capture: (capturer white?, position) → value for the side to move.
pub type CapturedLookup<'a> = dyn Fn(bool, &Position) -> WinLossDraw + Sync + 'a;

/// The graph of one endgame under one metric, with the solved 3-man endings
/// that captures lead into (`None` for 3-man endgames, whose only capture,
/// of the lone piece, leaves K vs K: a draw).
pub struct EndgameGraph<'a> {
    /// The endgame.
    pub endgame: Endgame,
    /// The depth metric.
    pub metric: Metric,
    /// Value lookup for 3-man results: (capturer white?, position) → value for the side to move.
    pub captured: Option<&'a CapturedLookup<'a>>,
}

impl EndgameGraph<'_> {
    fn exit_value(&self, capturer_white: bool, after: &Position) -> WinLossDraw {
        let Some(lookup) = self.captured else { return WinLossDraw::Draw };
        self.metric.capture_value(lookup(capturer_white, after))
    }

    /// The canonical stored position at `p`, if `p` is used.
    pub fn used(&self, p: usize) -> Option<(Position, u32)> {
        let pos = self.endgame.decode(p);
        let pieces = self.endgame.pieces();
        if !pos.is_legal(&pieces) {
            return None;
        }
        let (canon, stab) = pos.canonical();
        (canon == pos).then_some((pos, stab))
    }
}

impl RetroGraph for EndgameGraph<'_> {
    fn size(&self) -> usize {
        2 * self.endgame.per_side()
    }

    fn start(&self, p: usize) -> Start {
        let Some((pos, _)) = self.used(p) else { return Start::Unused };
        let pieces = self.endgame.pieces();
        let (mut quiet, mut exit, mut any) = (0u32, None::<WinLossDraw>, false);
        for_each_move(&pieces, &pos, |m| {
            any = true;
            match m.result {
                MoveResult::Quiet(_) => quiet += 1,
                MoveResult::Capture { after, capturer_white } => {
                    let v = self.exit_value(capturer_white, &after);
                    exit = Some(exit.map_or(v, |e| e.best(v)));
                }
            }
        });
        if !any {
            return Start::Decided(if pos.in_check(&pieces) { self.metric.mated() } else { WinLossDraw::Draw });
        }
        Start::Open { weight: 8 * quiet, exit }
    }

    /// Weight of the edge q → p (both canonical): |orbit(p)| · |stabiliser(q)|,
    /// so that over a class the weights add up to 8 per move counted in `start`.
    fn predecessors<F: FnMut(usize, u32)>(&self, p: usize, mut visit: F) {
        let pos = self.endgame.decode(p);
        let (_, stab_p) = pos.canonical();
        let orbit_p = 8 / stab_p;
        for_each_unmove(&self.endgame.pieces(), &pos, |before| {
            let (canon, stab_q) = before.canonical();
            visit(self.endgame.index(&canon), orbit_p * stab_q);
        });
    }
}
