//! Cram ("Fliesentetris", seed003 C205): a move covers two free orthogonal
//! neighbours with a domino; who cannot move loses.
//!
//! Solved by the Sprague-Grundy theorem (seed003 Satz C.3): a position whose
//! free squares fall apart into regions that touch nowhere is the sum of the
//! regions, so γ(position) = γ(region₁) ⊕ γ(region₂) ⊕ …, and each region is
//! solved once up to translation (its squares shifted to the board's top-left
//! corner). A 1×n strip is thereby the octal game 0.07 with n + 1 regions to
//! solve instead of the Fibonacci-many positions of the whole graph, and every
//! board up to 40 squares is a matter of seconds instead of a graph that
//! outgrows the memory.

use super::boards::Solved;
use crate::error::{Error, Result, invalid};
use crate::progress::Progress;
use std::collections::HashMap;

/// Bytes a memo entry takes in the hash map (key, value, control, slack).
const MEMO_ENTRY_BYTES: u64 = 32;

/// A rows × cols board; squares are numbered row-major, a position is the
/// bit set of its free squares.
struct Board {
    rows: usize,
    cols: usize,
    /// Squares with a right neighbour (no square in the last column).
    has_right: u64,
    /// Squares with a neighbour below.
    has_below: u64,
}

impl Board {
    fn new(rows: usize, cols: usize) -> Board {
        let (mut has_right, mut has_below) = (0u64, 0u64);
        for r in 0..rows {
            for c in 0..cols {
                let a = r * cols + c;
                if c + 1 < cols {
                    has_right |= 1 << a;
                }
                if r + 1 < rows {
                    has_below |= 1 << a;
                }
            }
        }
        Board { rows, cols, has_right, has_below }
    }

    fn full(&self) -> u64 {
        if self.rows * self.cols == 64 { u64::MAX } else { (1u64 << (self.rows * self.cols)) - 1 }
    }

    /// The free squares of `free` orthogonally next to a square of `set`.
    fn neighbours(&self, set: u64, free: u64) -> u64 {
        let right = (set & self.has_right) << 1;
        let left = (set >> 1) & self.has_right;
        let down = (set & self.has_below) << self.cols;
        let up = (set >> self.cols) & self.has_below;
        (right | left | down | up) & free
    }

    /// The region of `free` that holds its lowest square, and the rest.
    fn first_region(&self, free: u64) -> (u64, u64) {
        let mut region = free & free.wrapping_neg();
        loop {
            let grown = region | self.neighbours(region, free);
            if grown == region {
                return (region, free & !region);
            }
            region = grown;
        }
    }

    /// `region` moved to the top-left corner (translation keeps the game).
    fn normalised(&self, region: u64) -> u64 {
        let first_row = region.trailing_zeros() as usize / self.cols;
        let mut columns = 0u64;
        let row_mask = (1u64 << self.cols) - 1;
        for r in 0..self.rows {
            columns |= (region >> (r * self.cols)) & row_mask;
        }
        let first_col = columns.trailing_zeros() as usize;
        region >> (first_row * self.cols + first_col)
    }

    /// The dominoes (a, b) on free squares of `free`, as the bits they cover.
    fn dominoes(&self, free: u64) -> impl Iterator<Item = (usize, usize, u64)> + '_ {
        let horizontal = free & self.has_right & (free >> 1);
        let vertical = free & self.has_below & (free >> self.cols);
        bits(horizontal)
            .map(|a| (a, a + 1, 0b11u64 << a))
            .chain(bits(vertical).map(move |a| (a, a + self.cols, (1u64 << a) | (1u64 << (a + self.cols)))))
    }
}

fn bits(mut x: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (x != 0).then(|| {
            let a = x.trailing_zeros() as usize;
            x &= x - 1;
            a
        })
    })
}

/// γ of regions up to translation, within a memory budget.
struct Solver<'a> {
    board: Board,
    memo: HashMap<u64, u32>,
    max_entries: usize,
    progress: &'a Progress,
}

impl Solver<'_> {
    /// γ of any position: the XOR of its regions' values.
    fn value(&mut self, free: u64) -> Result<u32> {
        let (mut rest, mut g) = (free, 0);
        while rest != 0 {
            let (region, others) = self.board.first_region(rest);
            g ^= self.region_value(region)?;
            rest = others;
        }
        Ok(g)
    }

    /// γ of one connected region: mex over its moves (memoised by shape).
    fn region_value(&mut self, region: u64) -> Result<u32> {
        if region.count_ones() < 2 {
            return Ok(0);
        }
        let key = self.board.normalised(region);
        if let Some(&g) = self.memo.get(&key) {
            return Ok(g);
        }
        // γ ≤ the number of moves (at most 67 dominoes on 40 squares) < 128.
        let mut seen = 0u128;
        let moves: Vec<u64> = self.board.dominoes(key).map(|(_, _, cover)| cover).collect();
        for cover in moves {
            let g = self.value(key & !cover)?;
            if g < 128 {
                seen |= 1 << g;
            }
        }
        let g = (!seen).trailing_zeros();
        if self.memo.len() >= self.max_entries {
            return Err(Error::TooLarge(format!(
                "Cram {}×{}: more than {} regions to solve exceed the memory budget ({}); \
                 raise it with --max-memory GIB or choose a smaller board",
                self.board.rows,
                self.board.cols,
                self.max_entries,
                crate::memory::human_bytes(crate::memory::budget_bytes())
            )));
        }
        self.memo.insert(key, g);
        if self.memo.len().is_multiple_of(1 << 18) {
            self.progress.status(&format!("{} regions solved", self.memo.len()));
        }
        Ok(g)
    }
}

/// Cram on a rows × cols board (1 to 40 squares). Moves are reported as
/// their two squares (row-major); `positions` counts the regions solved
/// (distinct up to translation), not the positions of the whole graph.
pub fn cram(rows: usize, cols: usize) -> Result<Solved<(usize, usize)>> {
    cram_with_progress(rows, cols, &Progress::none())
}

/// [`cram`], reporting the number of regions solved so far (large boards,
/// e.g. 6×6 or 5×8, take minutes).
pub fn cram_with_progress(rows: usize, cols: usize, progress: &Progress) -> Result<Solved<(usize, usize)>> {
    if rows * cols > 40 || rows == 0 || cols == 0 {
        return Err(invalid(format!("Cram board {rows}×{cols}: accepted are boards with 1 to 40 squares")));
    }
    let board = Board::new(rows, cols);
    let max_entries = (crate::memory::budget_bytes() / MEMO_ENTRY_BYTES) as usize;
    let mut solver = Solver { board, memo: HashMap::new(), max_entries, progress };
    progress.begin(&format!("Cram {rows}×{cols}"), None);
    let full = solver.board.full();
    let grundy = solver.value(full)?;
    let moves: Vec<(usize, usize, u64)> = solver.board.dominoes(full).collect();
    let mut winning_moves = Vec::new();
    for (a, b, cover) in moves {
        if solver.value(full & !cover)? == 0 {
            winning_moves.push((a, b));
        }
    }
    winning_moves.sort_unstable();
    progress.end();
    Ok(Solved { grundy, winning_moves, positions: solver.memo.len() })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regions_split_and_normalise() {
        // 3×4 board; free: squares 0,1 (row 0) and 6,7,11 (rows 1–2, columns 2–3).
        let b = Board::new(3, 4);
        let free = 0b1000_1100_0011;
        let (first, rest) = b.first_region(free);
        assert_eq!(first, 0b11);
        assert_eq!(rest, 0b1000_1100_0000);
        // Rows 1–2, columns 2–3 moved to the corner: squares 0, 1 and 5.
        assert_eq!(b.normalised(rest), 0b10_0011);
    }
}
