//! Beams (thesis §4.4, App. A.2/A.3): a hexagonal board of edge n without its
//! centre, tiled by c connected pieces of p cells each, one colour per piece.
//! A query (colour, diagonal) reveals the cells of that colour on that line;
//! each diagonal may be used once.

pub mod analysis_memory;
pub mod codeset;
pub mod game;
pub mod geometry;
pub mod patterns;
pub mod patterns_memory;
pub mod polyhex;
pub mod rule;
pub mod symmetry;
pub mod transfer;
mod transfer_state;

use crate::error::{Result, invalid};
use std::fmt;
use std::str::FromStr;

/// A Beams variant Beams(c colours, p cells per piece) on the board whose
/// 3n(n−1) cells equal c·p.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    pub colours: usize,
    pub piece_size: usize,
    pub n: i32,
}

impl Variant {
    /// Checks that c·p = 3n(n−1) for a board the program supports (n ≤ 5).
    pub fn new(colours: usize, piece_size: usize) -> Result<Variant> {
        let cells = colours * piece_size;
        if colours == 0 || piece_size == 0 {
            return Err(invalid("Beams needs at least one colour and one cell per piece"));
        }
        if colours > 8 {
            return Err(invalid(format!("{colours} colours: at most 8 are supported")));
        }
        match (2..=5).find(|&n| 3 * n * (n - 1) == cells as i32) {
            Some(n) => Ok(Variant { colours, piece_size, n }),
            None => Err(invalid(format!(
                "Beams({colours}c,{piece_size}p): {cells} cells is not the size of a board (3n(n−1) = 6, 18, 36 or 60 cells for n = 2..5)"
            ))),
        }
    }

    /// Number of colourings of a pattern, c!.
    pub fn colourings(&self) -> usize {
        (1..=self.colours).product()
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Beams({}c,{}p)", self.colours, self.piece_size)
    }
}

impl FromStr for Variant {
    type Err = crate::error::Error;

    /// Parses `3c6p`, `6c3p`, `6c6p`, `Beams(6c,6p)`.
    fn from_str(s: &str) -> Result<Variant> {
        let lower = s.to_ascii_lowercase().replace("beams", "");
        // Only the punctuation of `Beams(6c,6p)` is skipped (a minus sign used
        // to be dropped: `3c-6p` ran as 3c6p).
        let t: String = lower.chars().filter(|c| !matches!(c, '(' | ')' | ',' | ' ')).collect();
        let bad = || {
            invalid(format!(
                "unknown Beams variant {s:?} (accepted: 3c6p, 6c3p, 6c6p, or any <c>c<p>p with c·p = 6, 18, 36, 60)"
            ))
        };
        if !t.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Err(bad());
        }
        let (c, rest) = t.split_once('c').ok_or_else(bad)?;
        let p = rest.strip_suffix('p').ok_or_else(bad)?;
        Variant::new(c.parse().map_err(|_| bad())?, p.parse().map_err(|_| bad())?)
    }
}
