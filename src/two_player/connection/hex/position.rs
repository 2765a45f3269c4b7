//! A Hex position: the board, the stones of both players and the side to move;
//! read from a text diagram or from SGF (FF[4], GM[11], as HexGui writes it).

use super::board::{Bits, Board, Colour};
use crate::error::{Result, invalid};

/// Stones and side to move on a board. Invariant: the stone sets are disjoint
/// and at most one player has a winning chain.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Position {
    pub board: Board,
    pub black: Bits,
    pub white: Bits,
    pub to_move: Colour,
}

impl Position {
    /// The empty board with Black to move.
    pub fn empty(board: Board) -> Position {
        Position { board, black: 0, white: 0, to_move: Colour::Black }
    }

    /// The stones of `colour`.
    pub fn stones(&self, colour: Colour) -> Bits {
        match colour {
            Colour::Black => self.black,
            Colour::White => self.white,
        }
    }

    /// The empty cells.
    pub fn free(&self) -> Bits {
        self.board.all() & !(self.black | self.white)
    }

    /// The player whose chain joins his edges, if any.
    pub fn winner(&self) -> Option<Colour> {
        [Colour::Black, Colour::White].into_iter().find(|&c| self.board.connects(c, self.stones(c)))
    }

    /// Puts a stone of `colour` on cell `cell` (must be empty); the side to move
    /// becomes the other player.
    pub fn play(&mut self, colour: Colour, cell: usize) -> Result<()> {
        if cell >= self.board.cells() {
            return Err(invalid(format!("cell {cell} is off the board")));
        }
        if (self.black | self.white) >> cell & 1 == 1 {
            return Err(invalid(format!("cell {} is already occupied", self.board.cell_name(cell))));
        }
        match colour {
            Colour::Black => self.black |= 1 << cell,
            Colour::White => self.white |= 1 << cell,
        }
        self.to_move = colour.other();
        Ok(())
    }

    /// Checks the invariant: not both players connected.
    pub fn validate(&self) -> Result<()> {
        if self.board.connects(Colour::Black, self.black) && self.board.connects(Colour::White, self.white) {
            return Err(invalid("both players have a winning chain"));
        }
        Ok(())
    }

    /// The position from lists of cell names (`a1,b2`), validated.
    pub fn from_lists(board: Board, black: &str, white: &str, to_move: Colour) -> Result<Position> {
        let mut p = Position::empty(board);
        for (colour, list) in [(Colour::Black, black), (Colour::White, white)] {
            for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
                let cell = p.board.parse_cell(name)?;
                p.play(colour, cell)?;
            }
        }
        p.to_move = to_move;
        p.validate()?;
        Ok(p)
    }

    /// A diagram: one line per row, `.` empty, `B`/`X` Black, `W`/`O` White; any
    /// other character (spaces, indentation, coordinates) is ignored; lines
    /// without cells are skipped. The side to move is given separately.
    pub fn from_diagram(text: &str, to_move: Colour) -> Result<Position> {
        let rows: Vec<Vec<char>> = text
            .lines()
            .map(|l| l.chars().filter(|c| matches!(c, '.' | 'B' | 'X' | 'W' | 'O' | 'x' | 'o')).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let cols = rows.first().map_or(0, Vec::len);
        if rows.iter().any(|r| r.len() != cols) {
            return Err(invalid("diagram rows have different lengths"));
        }
        let mut p = Position::empty(Board::new(cols, rows.len())?);
        for (y, row) in rows.iter().enumerate() {
            for (x, c) in row.iter().enumerate() {
                match c {
                    'B' | 'X' | 'x' => p.black |= 1 << (y * cols + x),
                    'W' | 'O' | 'o' => p.white |= 1 << (y * cols + x),
                    _ => {}
                }
            }
        }
        p.to_move = to_move;
        p.validate()?;
        Ok(p)
    }

    /// The diagram of the position (rows shifted right, as a rhombus).
    pub fn diagram(&self) -> String {
        let mut out = String::from("  ");
        for x in 0..self.board.cols {
            out.push((b'a' + x as u8) as char);
            out.push(' ');
        }
        out.push('\n');
        for y in 0..self.board.rows {
            out.push_str(&format!("{}{:>2} ", " ".repeat(y), y + 1));
            for x in 0..self.board.cols {
                let i = y * self.board.cols + x;
                out.push(if self.black >> i & 1 == 1 {
                    'B'
                } else if self.white >> i & 1 == 1 {
                    'W'
                } else {
                    '.'
                });
                out.push(' ');
            }
            out.push('\n');
        }
        out
    }

    /// Reads one game record in SGF: `GM[11]` is required, `SZ[n]` or `SZ[c:r]`
    /// (default 11), setup `AB`/`AW`, moves `B[..]`/`W[..]` with HexGui cell names,
    /// `PL` for the side to move (default: the player after the last move, Black
    /// without moves). Swaps, passes and resignations are refused.
    pub fn from_sgf(text: &str) -> Result<Position> {
        let props = sgf_properties(text)?;
        if !props.iter().any(|(k, v)| k == "GM" && v == "11") {
            return Err(invalid("SGF: not a Hex record (GM[11] missing)"));
        }
        let (cols, rows) = match props.iter().find(|(k, _)| k == "SZ") {
            None => (11, 11),
            Some((_, v)) => {
                let parse = |s: &str| s.trim().parse::<usize>().map_err(|_| invalid(format!("SGF: bad SZ[{v}]")));
                match v.split_once(':') {
                    Some((c, r)) => (parse(c)?, parse(r)?),
                    None => (parse(v)?, parse(v)?),
                }
            }
        };
        let mut p = Position::empty(Board::new(cols, rows)?);
        let mut to_move = None;
        for (key, value) in &props {
            let colour = match key.as_str() {
                "B" | "AB" => Colour::Black,
                "W" | "AW" => Colour::White,
                "PL" => {
                    to_move = Some(Colour::parse(value)?);
                    continue;
                }
                _ => continue,
            };
            let cell = p.board.parse_cell(value).map_err(|e| e.at("SGF"))?;
            p.play(colour, cell).map_err(|e| e.at("SGF"))?;
            if key.len() == 2 {
                p.to_move = Colour::Black;
            }
        }
        if let Some(c) = to_move {
            p.to_move = c;
        }
        p.validate()?;
        Ok(p)
    }
}

/// The properties of an SGF text in order, each value separately
/// (`AB[a1][b2]` gives two entries). Checks the bracket structure.
fn sgf_properties(text: &str) -> Result<Vec<(String, String)>> {
    let text = text.trim();
    if !text.starts_with("(;") || !text.ends_with(')') {
        return Err(invalid("SGF: a record must start with \"(;\" and end with \")\""));
    }
    let mut props = Vec::new();
    let mut key = String::new();
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            'A'..='Z' => key.push(c),
            '[' => {
                if key.is_empty() {
                    match props.last() {
                        Some((k, _)) => key = String::clone(k),
                        None => return Err(invalid("SGF: a value without a property name")),
                    }
                }
                let mut value = String::new();
                loop {
                    match chars.next() {
                        Some('\\') => value.extend(chars.next()),
                        Some(']') => break,
                        Some(ch) => value.push(ch),
                        None => return Err(invalid("SGF: unclosed \"[\"")),
                    }
                }
                props.push((std::mem::take(&mut key), value));
            }
            ';' | '(' | ')' | ' ' | '\n' | '\r' | '\t' if key.is_empty() => {}
            _ => return Err(invalid(format!("SGF: unexpected character {c:?}"))),
        }
    }
    if !key.is_empty() {
        return Err(invalid(format!("SGF: property {key} without a value")));
    }
    Ok(props)
}
