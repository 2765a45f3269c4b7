//! The Beams board (thesis §4.4, App. A.3): a hexagon of edge length n in axial
//! coordinates (q, r) with max(|q|, |r|, |q + r|) ≤ n − 1, centre cell removed.
//!
//! Numbering (the thesis' Fig. A.1 is lost; this is the documented choice, the
//! same as the reference prototypes'):
//! - cells are sorted by (r, q);
//! - diagonals are the lines r = k (numbers 0 … 2n−2), then q = k (2n−1 …),
//!   then s = −q − r = k (4n−2 …), each for k = −(n−1) … n−1; the centre is
//!   skipped, so every line keeps its other cells;
//! - the answer to a diagonal lists its hit cells in cell order (bit i = i-th
//!   cell of the line).

/// Axial coordinates of a cell.
pub type Axial = (i32, i32);

/// The six hex neighbour offsets.
pub const NEIGHBOURS: [Axial; 6] = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)];

/// A board of edge length `n` with its cells and diagonals.
#[derive(Clone, Debug)]
pub struct Board {
    pub n: i32,
    /// Cells in (r, q) order.
    pub cells: Vec<Axial>,
    /// `neighbours[i]`: bit mask of the cells adjacent to cell i.
    pub neighbours: Vec<u64>,
    /// Diagonals as cell masks, in the numbering above.
    pub diagonals: Vec<u64>,
    /// Distance of each diagonal from the centre, |k| (its symmetry class).
    pub diagonal_offset: Vec<u32>,
}

impl Board {
    /// Answers of a query (one bit per cell of the longest diagonal): the
    /// game's answer count, known from the board alone.
    pub fn answer_count(&self) -> usize {
        1 << self.diagonals.iter().map(|d| d.count_ones()).max().unwrap_or(0)
    }

    /// The board of edge length n (2 ≤ n ≤ 5, so that cells fit a u64 mask).
    pub fn new(n: i32) -> Board {
        assert!((2..=5).contains(&n), "board edge length {n} out of range");
        let on_board = |q: i32, r: i32| q.abs() < n && r.abs() < n && (q + r).abs() < n && (q, r) != (0, 0);
        let mut cells = Vec::new();
        for r in -(n - 1)..n {
            for q in -(n - 1)..n {
                if on_board(q, r) {
                    cells.push((q, r));
                }
            }
        }
        let index = |q: i32, r: i32| cells.iter().position(|&c| c == (q, r));
        let neighbours = cells
            .iter()
            .map(|&(q, r)| NEIGHBOURS.iter().filter_map(|(dq, dr)| index(q + dq, r + dr)).fold(0u64, |m, j| m | 1 << j))
            .collect();
        let mut diagonals = Vec::new();
        let mut diagonal_offset = Vec::new();
        for direction in 0..3 {
            for k in -(n - 1)..n {
                let coordinate = |&(q, r): &Axial| match direction {
                    0 => r,
                    1 => q,
                    _ => -q - r,
                };
                diagonals.push(
                    cells.iter().enumerate().filter(|(_, c)| coordinate(c) == k).fold(0u64, |m, (i, _)| m | 1 << i),
                );
                diagonal_offset.push(k.unsigned_abs());
            }
        }
        Board { n, cells, neighbours, diagonals, diagonal_offset }
    }

    /// Number of cells (3n(n−1)).
    pub fn cell_count(&self) -> usize {
        self.cells.len()
    }

    /// The mask of all cells.
    pub fn all_cells(&self) -> u64 {
        if self.cells.len() == 64 { u64::MAX } else { (1u64 << self.cells.len()) - 1 }
    }

    /// The hit pattern of `piece` on diagonal `d`, as bits in the line's cell order.
    pub fn hits(&self, piece: u64, d: usize) -> u16 {
        compress(piece & self.diagonals[d], self.diagonals[d])
    }
}

/// Gathers the bits of `value` at the positions of `mask` into the low bits.
pub fn compress(value: u64, mask: u64) -> u16 {
    let (mut out, mut bit, mut m) = (0u16, 0, mask);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if value & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        m &= m - 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference B14: cells and diagonals for n = 3, 4, 5.
    #[test]
    fn board_sizes() {
        for (n, cells, diagonals) in [(3, 18, 15), (4, 36, 21), (5, 60, 27)] {
            let b = Board::new(n);
            assert_eq!((b.cell_count(), b.diagonals.len()), (cells, diagonals));
            let mut covered = vec![0; b.cell_count()];
            for d in &b.diagonals {
                (0..b.cell_count()).filter(|i| d >> i & 1 == 1).for_each(|i| covered[i] += 1);
            }
            assert!(covered.iter().all(|&c| c == 3), "every cell lies on one line per direction");
        }
        let lengths: Vec<u32> = Board::new(3).diagonals.iter().map(|d| d.count_ones()).collect();
        assert_eq!(lengths, [3, 4, 4, 4, 3].repeat(3));
    }

    #[test]
    fn compress_gathers_bits() {
        // mask bits 1,2,5,6,7; value bits 2,5,7 → gathered 0b10110
        assert_eq!(compress(0b1010_0100, 0b1110_0110), 0b10110);
    }
}
