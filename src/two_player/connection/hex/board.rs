//! Hex boards of `cols`×`rows` cells (both ≤ 11) as 128-bit bitboards.
//!
//! Cell (column x, row y), 0-based, has index `y·cols + x` and the name
//! `<letter x><number y+1>` (`a1` is the top-left corner), as HexGui writes it.
//! The six neighbours of (x, y) are (x±1, y), (x, y±1), (x+1, y−1), (x−1, y+1)
//! (issue 51). Black moves first and connects the top row (y = 0) with the
//! bottom row; White connects the left column (x = 0) with the right one.

use crate::error::{Result, invalid};

/// A set of cells (bit i = cell i), or of Hex-graph nodes.
pub type Bits = u128;

/// The largest supported side length.
pub const MAX_SIDE: usize = 11;

/// The two players.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    /// The other player.
    pub fn other(self) -> Colour {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    /// `black` or `white`.
    pub fn name(self) -> &'static str {
        match self {
            Colour::Black => "black",
            Colour::White => "white",
        }
    }

    /// Reads `b`, `black`, `w`, `white` (any case).
    pub fn parse(text: &str) -> Result<Colour> {
        match text.to_ascii_lowercase().as_str() {
            "b" | "black" => Ok(Colour::Black),
            "w" | "white" => Ok(Colour::White),
            other => Err(invalid(format!("unknown colour {other:?} (accepted: black, white, b, w)"))),
        }
    }
}

/// The geometry of one board: neighbour masks and the four edge rows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Board {
    pub cols: usize,
    pub rows: usize,
    neighbours: Vec<Bits>,
    all: Bits,
}

impl Board {
    /// A `cols`×`rows` board; both sides in 1..=11.
    pub fn new(cols: usize, rows: usize) -> Result<Board> {
        if !(1..=MAX_SIDE).contains(&cols) || !(1..=MAX_SIDE).contains(&rows) {
            return Err(invalid(format!("board {cols}x{rows} not supported (sides 1 to {MAX_SIDE})")));
        }
        let mut neighbours = vec![0; cols * rows];
        for y in 0..rows {
            for x in 0..cols {
                for (dx, dy) in [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)] {
                    let (nx, ny) = (x as i64 + dx, y as i64 + dy);
                    if nx >= 0 && ny >= 0 && (nx as usize) < cols && (ny as usize) < rows {
                        neighbours[y * cols + x] |= 1 << (ny as usize * cols + nx as usize);
                    }
                }
            }
        }
        let all = if cols * rows == 128 { !0 } else { (1u128 << (cols * rows)) - 1 };
        Ok(Board { cols, rows, neighbours, all })
    }

    /// The number of cells.
    pub fn cells(&self) -> usize {
        self.cols * self.rows
    }

    /// All cells.
    pub fn all(&self) -> Bits {
        self.all
    }

    /// The neighbours of cell `i`.
    pub fn neighbours(&self, i: usize) -> Bits {
        self.neighbours[i]
    }

    /// The cells on `colour`'s first edge (Black: top row, White: left column).
    pub fn first_edge(&self, colour: Colour) -> Bits {
        match colour {
            Colour::Black => (0..self.cols).fold(0, |m, x| m | 1 << x),
            Colour::White => (0..self.rows).fold(0, |m, y| m | 1 << (y * self.cols)),
        }
    }

    /// The cells on `colour`'s second edge (Black: bottom row, White: right column).
    pub fn second_edge(&self, colour: Colour) -> Bits {
        match colour {
            Colour::Black => (0..self.cols).fold(0, |m, x| m | 1 << ((self.rows - 1) * self.cols + x)),
            Colour::White => (0..self.rows).fold(0, |m, y| m | 1 << (y * self.cols + self.cols - 1)),
        }
    }

    /// The cells of `within` reachable from `start ∩ within` by steps inside `within`.
    pub fn flood(&self, start: Bits, within: Bits) -> Bits {
        let mut reached = start & within;
        let mut frontier = reached;
        while frontier != 0 {
            let mut next = 0;
            let mut f = frontier;
            while f != 0 {
                let i = f.trailing_zeros() as usize;
                f &= f - 1;
                next |= self.neighbours[i];
            }
            frontier = next & within & !reached;
            reached |= frontier;
        }
        reached
    }

    /// Whether the stones `stones` of `colour` join its two edges.
    pub fn connects(&self, colour: Colour, stones: Bits) -> bool {
        self.flood(self.first_edge(colour), stones) & self.second_edge(colour) != 0
    }

    /// The name of cell `i`, e.g. `c3`.
    pub fn cell_name(&self, i: usize) -> String {
        format!("{}{}", (b'a' + (i % self.cols) as u8) as char, i / self.cols + 1)
    }

    /// The names of a set of cells, comma-separated, in index order.
    pub fn set_names(&self, set: Bits) -> String {
        cells_of(set).map(|i| self.cell_name(i)).collect::<Vec<_>>().join(",")
    }

    /// Reads a cell name (`a1` … `k11`, any case).
    pub fn parse_cell(&self, text: &str) -> Result<usize> {
        let text = text.trim().to_ascii_lowercase();
        let mut chars = text.chars();
        let column = chars.next().filter(|c| c.is_ascii_lowercase());
        let row: Option<usize> = chars.as_str().parse().ok();
        match (column, row) {
            (Some(c), Some(r)) if ((c as u8 - b'a') as usize) < self.cols && (1..=self.rows).contains(&r) => {
                Ok((r - 1) * self.cols + (c as u8 - b'a') as usize)
            }
            _ => Err(invalid(format!("cell {text:?} is not on the {}x{} board", self.cols, self.rows))),
        }
    }
}

/// The indices of the set bits of `set`, ascending.
pub fn cells_of(set: Bits) -> impl Iterator<Item = usize> {
    let mut rest = set;
    std::iter::from_fn(move || {
        if rest == 0 {
            return None;
        }
        let i = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        Some(i)
    })
}
