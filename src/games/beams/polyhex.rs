//! Fixed polyhexes (thesis §4.4.2, Table 4.8 "Puzzleteile"): connected shapes
//! of p hex cells, translates identified, rotations and reflections distinct.
//! A piece counts for a board of edge n if it fits the (2n−1)×(2n−1) rhombus
//! enclosing the hexagon, i.e. its q- and r-extents are both at most 2n−1.

use super::geometry::{Axial, NEIGHBOURS};
use std::collections::HashSet;

/// A shape in normal position: cells sorted, min q = min r = 0.
pub type Shape = Vec<Axial>;

fn normalize(cells: &mut Shape) {
    let (mq, mr) = (cells.iter().map(|c| c.0).min().unwrap_or(0), cells.iter().map(|c| c.1).min().unwrap_or(0));
    cells.iter_mut().for_each(|c| *c = (c.0 - mq, c.1 - mr));
    cells.sort_unstable();
}

/// Fixed polyhexes with n cells, n = 1, 2, … (OEIS A001207; the test checks
/// the enumeration against the first entries).
pub const FIXED_POLYHEX_COUNTS: [u64; 20] = [
    1,
    3,
    11,
    44,
    186,
    814,
    3652,
    16689,
    77359,
    362671,
    1716033,
    8171373,
    39140145,
    188412521,
    911095033,
    4422061938,
    21541063659,
    105235999354,
    515474848665,
    2531296818879,
];

/// Bytes that [`fixed_polyhexes`] holds at its peak for `size` cells (the last
/// two levels of shapes in hash sets), or `None` beyond the known counts.
pub fn enumeration_bytes(size: usize) -> Option<u64> {
    // Measured: 12 cells, 8.2 M + 1.7 M shapes, 2.4 GB peak (≈ 240 bytes each).
    let per_shape = |k: usize| 160 + 8 * k as u64;
    let count = |k: usize| FIXED_POLYHEX_COUNTS.get(k.checked_sub(1)?).copied();
    let last = count(size)?.checked_mul(per_shape(size))?;
    let before = if size > 1 { count(size - 1)? * per_shape(size - 1) } else { 0 };
    last.checked_add(before)
}

/// All fixed polyhexes with `size` cells, grown level by level.
pub fn fixed_polyhexes(size: usize) -> Vec<Shape> {
    let mut level: HashSet<Shape> = HashSet::from([vec![(0, 0)]]);
    for _ in 1..size {
        let mut next = HashSet::with_capacity(level.len() * 4);
        for shape in &level {
            for &(q, r) in shape {
                for (dq, dr) in NEIGHBOURS {
                    let cell = (q + dq, r + dr);
                    if !shape.contains(&cell) {
                        let mut grown = shape.clone();
                        grown.push(cell);
                        normalize(&mut grown);
                        next.insert(grown);
                    }
                }
            }
        }
        level = next;
    }
    let mut out: Vec<Shape> = level.into_iter().collect();
    out.sort();
    out
}

/// The q- and r-extent of a normalised shape.
pub fn extent(shape: &Shape) -> (i32, i32) {
    (shape.iter().map(|c| c.0).max().unwrap_or(0) + 1, shape.iter().map(|c| c.1).max().unwrap_or(0) + 1)
}

/// Number of fixed polyhexes of `size` cells that fit the rhombus of a board of edge `n`.
pub fn pieces_in_rhombus(size: usize, n: i32) -> usize {
    let side = 2 * n - 1;
    fixed_polyhexes(size)
        .iter()
        .filter(|s| {
            let (a, b) = extent(s);
            a <= side && b <= side
        })
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Reference B15 / Table 4.8.
    #[test]
    fn polyhex_counts() {
        assert_eq!(fixed_polyhexes(3).len(), 11);
        for n in 1..=8 {
            assert_eq!(fixed_polyhexes(n).len() as u64, FIXED_POLYHEX_COUNTS[n - 1], "n = {n}");
        }
        assert_eq!(pieces_in_rhombus(3, 3), 11);
        assert_eq!(fixed_polyhexes(6).len(), 814);
        assert_eq!(pieces_in_rhombus(6, 3), 751);
        assert_eq!(pieces_in_rhombus(6, 4), 814);
    }
}
