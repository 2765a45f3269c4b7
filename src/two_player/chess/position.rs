//! Positions of a pawnless endgame K+X vs K(+Y): the men's squares and the
//! side to move, their canonical form under the 8 board symmetries, dense
//! indices, legality, and text (`Ka1 Rb2 / Kc3`, German letters, or FEN).

use super::board::{Geometry, Piece, Square, parse_square, square_name};
use crate::error::{Result, invalid};

/// Role of a man: 0 = white king, 1 = white piece, 2 = black king, 3 = black piece.
pub const WK: usize = 0;
/// The white piece.
pub const WX: usize = 1;
/// The black king.
pub const BK: usize = 2;
/// The black piece (only in 4-man endgames).
pub const BY: usize = 3;

/// The white-king squares of canonical positions: rank ≤ file ≤ d (10 squares);
/// every position has an image under the 8 symmetries with its white king there.
pub const KING_SLOTS: [Square; 10] = [0, 1, 2, 3, 9, 10, 11, 18, 19, 27];

/// A position: squares of the men (by role) and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Position {
    /// Squares by role; `men[BY]` is ignored when `count == 3`.
    pub men: [Square; 4],
    /// 3 or 4 men.
    pub count: usize,
    /// White to move (otherwise Black).
    pub white_to_move: bool,
}

impl Position {
    /// The squares of the men present.
    pub fn squares(&self) -> &[Square] {
        &self.men[..self.count]
    }

    /// Bit mask of occupied squares.
    pub fn occupied(&self) -> u64 {
        self.squares().iter().fold(0, |m, &s| m | 1 << s)
    }

    /// The canonical image under the 8 board symmetries (lexicographically least
    /// men tuple) and the number of symmetries that fix the position.
    pub fn canonical(&self) -> (Position, u32) {
        let g = Geometry::get();
        let mut best = *self;
        let mut stabiliser = 0;
        for t in 0..8 {
            let mut image = *self;
            for s in image.men[..self.count].iter_mut() {
                *s = g.transform(t, *s);
            }
            let key = &image.men[..self.count];
            match key.cmp(&best.men[..self.count]) {
                std::cmp::Ordering::Less => {
                    best = image;
                    stabiliser = 1;
                }
                std::cmp::Ordering::Equal => stabiliser += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        (best, stabiliser)
    }

    /// Whether the position is legal: distinct squares, kings apart, and the
    /// side not to move not in check (the side to move may be in check).
    pub fn is_legal(&self, pieces: &[Piece; 4]) -> bool {
        let sq = self.squares();
        if (1..sq.len()).any(|i| sq[..i].contains(&sq[i])) {
            return false;
        }
        let g = Geometry::get();
        if g.adjacent(self.men[WK], self.men[BK]) {
            return false;
        }
        let (attacker, king) = if self.white_to_move { (WX, BK) } else { (BY, WK) };
        !(attacker < self.count && g.attacks(pieces[attacker], self.men[attacker], self.men[king], self.occupied()))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self, pieces: &[Piece; 4]) -> bool {
        let (attacker, king) = if self.white_to_move { (BY, WK) } else { (WX, BK) };
        attacker < self.count
            && Geometry::get().attacks(pieces[attacker], self.men[attacker], self.men[king], self.occupied())
    }

    /// Text such as `Ka1 Rb2 / Kc3 Nd4 (white to move)`.
    pub fn describe(&self, pieces: &[Piece; 4]) -> String {
        let man = |r: usize| format!("{}{}", pieces[r].letter(), square_name(self.men[r]));
        let black = if self.count == 4 { format!("{} {}", man(BK), man(BY)) } else { man(BK) };
        let side = if self.white_to_move { "white" } else { "black" };
        format!("{} {} / {} ({side} to move)", man(WK), man(WX), black)
    }

    /// FEN of the position (no castling, no en passant): `K7/…/… w - - 0 1`.
    pub fn fen(&self, pieces: &[Piece; 4]) -> String {
        let mut board = [None::<char>; 64];
        for r in 0..self.count {
            let c = pieces[r].letter();
            board[self.men[r] as usize] = Some(if r < 2 { c } else { c.to_ascii_lowercase() });
        }
        let ranks: Vec<String> = (0..8)
            .rev()
            .map(|rank| {
                let mut text = String::new();
                let mut empty = 0;
                for file in 0..8 {
                    match board[rank * 8 + file] {
                        Some(c) => {
                            if empty > 0 {
                                text += &empty.to_string();
                                empty = 0;
                            }
                            text.push(c);
                        }
                        None => empty += 1,
                    }
                }
                if empty > 0 {
                    text += &empty.to_string();
                }
                text
            })
            .collect();
        format!("{} {} - - 0 1", ranks.join("/"), if self.white_to_move { 'w' } else { 'b' })
    }

    /// Short text in the canonical listing style: `Ka1 Rb2 kc3 nd4`.
    pub fn compact(&self, pieces: &[Piece; 4]) -> String {
        let mut parts = vec![
            format!("{}{}", pieces[WK].letter(), square_name(self.men[WK])),
            format!("{}{}", pieces[WX].letter(), square_name(self.men[WX])),
            format!("{}{}", pieces[BK].letter().to_ascii_lowercase(), square_name(self.men[BK])),
        ];
        if self.count == 4 {
            parts.push(format!("{}{}", pieces[BY].letter().to_ascii_lowercase(), square_name(self.men[BY])));
        }
        parts.join(" ")
    }
}

/// Parses a position of the endgame with men `pieces` (`count` men):
/// - `Ka1 Rb2 / Kc3 Nd4` or Ströhlein's `w Ka1 Tb2, s Kc3` (white men, then `/` or
///   `s`/`b`, then black men; English or German letters; commas ignored), or
/// - FEN piece placement such as `8/8/8/8/8/2k5/1R6/K7` (optionally followed by ` w`/` b`).
///
/// The side to move is `white_to_move` unless a FEN field says otherwise.
pub fn parse_position(text: &str, pieces: &[Piece; 4], count: usize, white_to_move: bool) -> Result<Position> {
    let first = text.split_whitespace().next().unwrap_or("");
    let (squares, side) =
        if first.matches('/').count() == 7 { parse_fen(text)? } else { (parse_men_list(text)?, None) };
    let mut pos = Position { men: [0; 4], count, white_to_move: side.unwrap_or(white_to_move) };
    let mut used = [false; 4];
    for (white, piece, sq) in squares {
        let slot = (0..count).find(|&r| !used[r] && pieces[r] == piece && (r < 2) == white);
        let Some(r) = slot else {
            return Err(invalid(format!(
                "the position `{text}` does not fit the endgame: extra or unexpected {} {}",
                if white { "white" } else { "black" },
                piece.letter()
            )));
        };
        used[r] = true;
        pos.men[r] = sq;
    }
    if used[..count].iter().any(|u| !u) {
        return Err(invalid(format!("the position `{text}` lacks a man of the endgame (expected {count} men)")));
    }
    if !pos.is_legal(pieces) {
        return Err(invalid(format!(
            "the position `{text}` is illegal (shared squares, touching kings, or the side not to move in check)"
        )));
    }
    Ok(pos)
}

type Men = Vec<(bool, Piece, Square)>;

fn parse_men_list(text: &str) -> Result<Men> {
    let cleaned = text.replace(',', " ").replace('/', " / ");
    let mut white = true;
    let mut men = Vec::new();
    for token in cleaned.split_whitespace() {
        match token {
            "w" | "W" => white = true,
            "/" | "s" | "S" | "b" | "B" => white = false,
            _ => men.push(parse_man(token, white)?),
        }
    }
    if men.iter().all(|m| m.0) {
        return Err(invalid(format!(
            "cannot read the position `{text}`: write white men, `/`, black men (e.g. `Ka1 Rb2 / Kc3` or `w Ka1 Tb2, s Kc3`), or a FEN board"
        )));
    }
    Ok(men)
}

fn parse_man(token: &str, white: bool) -> Result<(bool, Piece, Square)> {
    let mut chars = token.chars();
    let letter = chars.next().unwrap_or(' ');
    let piece = Piece::from_letter(letter);
    let square = parse_square(chars.as_str());
    match (piece, square) {
        (Some(p), Some(s)) => Ok((white, p, s)),
        _ => Err(invalid(format!(
            "cannot read the man `{token}`: expected a piece letter (K Q R B N, or German K D T L S) and a square, e.g. `Rb2`"
        ))),
    }
}

fn parse_fen(text: &str) -> Result<(Men, Option<bool>)> {
    let mut fields = text.split_whitespace();
    let board = fields.next().unwrap_or("");
    let side = match fields.next() {
        None => None,
        Some("w") => Some(true),
        Some("b") => Some(false),
        Some(other) => return Err(invalid(format!("FEN side to move must be `w` or `b`, not `{other}`"))),
    };
    // The other fields, if given: no castling and no en passant in these
    // pawnless endgames, then two move counters (they used to be ignored).
    let rest: Vec<&str> = fields.collect();
    let counters_ok = rest.iter().skip(2).all(|f| f.parse::<u32>().is_ok());
    if rest.len() > 4 || rest.iter().take(2).any(|f| *f != "-") || !counters_ok {
        return Err(invalid(format!(
            "FEN `{text}`: after the side to move only `- - <halfmove> <fullmove>` fit a pawnless endgame"
        )));
    }
    let mut men = Vec::new();
    for (i, rank_text) in board.split('/').enumerate() {
        let rank = 7 - i as u8;
        let mut file = 0u8;
        for c in rank_text.chars() {
            if let Some(n) = c.to_digit(10).filter(|n| (1..=8).contains(n)) {
                file += n as u8;
                continue;
            }
            let piece = Piece::from_letter(c).filter(|_| "KQRBNkqrbn".contains(c));
            let Some(piece) = piece.filter(|_| file < 8) else {
                return Err(invalid(format!(
                    "cannot read FEN rank `{rank_text}`: use K Q R B N (white), k q r b n (black) and digits 1–8"
                )));
            };
            men.push((c.is_ascii_uppercase(), piece, rank * 8 + file));
            file += 1;
        }
        if file != 8 {
            return Err(invalid(format!("FEN rank `{rank_text}` does not cover 8 files")));
        }
    }
    Ok((men, side))
}

/// Ströhlein's §9 position count for a 4-man ending: white king on the 16
/// squares a1–d4, the other men anywhere, minus his "illegal" positions (two
/// men on one square, or the kings adjacent). The thesis prints 3 418 928.
pub fn quadrant_position_count() -> u64 {
    let g = Geometry::get();
    let quadrant = (0..64u8).filter(|s| s % 8 < 4 && s / 8 < 4);
    let king_pairs = quadrant.flat_map(|wk| (0..64u8).filter(move |&bk| bk != wk && !g.adjacent(wk, bk))).count();
    // The two pieces take any two of the 62 remaining squares, in order.
    king_pairs as u64 * 62 * 61
}
