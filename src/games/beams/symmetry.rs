//! Symmetries of Beams: the 12 symmetries of the hexagonal board (rotations by
//! 60° and reflections, fixing the centre) combined with permutations of the
//! colours. A symmetry maps codes to codes and queries to queries and keeps
//! every answer's shape, so queries that a symmetry fixing the current set and
//! state maps onto each other have subtrees of equal value (perfect search).

use super::geometry::Board;
use super::patterns::Patterns;
use std::collections::HashMap;

/// The board symmetries as cell permutations, identity first.
pub fn board_symmetries(board: &Board) -> Vec<Vec<usize>> {
    let index: HashMap<(i32, i32), usize> = board.cells.iter().enumerate().map(|(i, &c)| (c, i)).collect();
    let rotate = |(q, r): (i32, i32)| (-r, q + r);
    let reflect = |(q, r): (i32, i32)| (r, q);
    let mut out = Vec::new();
    for mirrored in [false, true] {
        for turns in 0..6 {
            let perm = board
                .cells
                .iter()
                .map(|&c| {
                    let mut x = if mirrored { reflect(c) } else { c };
                    (0..turns).for_each(|_| x = rotate(x));
                    index[&x]
                })
                .collect();
            out.push(perm);
        }
    }
    out
}

/// The image of a cell mask under a cell permutation.
pub fn map_mask(perm: &[usize], mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 {
        out |= 1u64 << perm[mask.trailing_zeros() as usize];
        mask &= mask - 1;
    }
    out
}

/// Rank of a permutation in lexicographic order.
pub fn permutation_rank(p: &[u8]) -> usize {
    let k = p.len();
    (0..k).fold(0, |rank, i| rank * (k - i) + p[i + 1..].iter().filter(|&&x| x < p[i]).count())
}

/// Precomputed action of the board symmetries on diagonals and patterns.
pub struct BoardAction {
    /// `diagonal[g][d]`: image of diagonal d.
    pub diagonal: Vec<Vec<usize>>,
    /// `pattern[g][t]`: image pattern of t.
    pub pattern: Vec<Vec<u32>>,
    /// `piece[g][t·k + j]`: index of the image of piece j within the image pattern.
    pub piece: Vec<Vec<u8>>,
}

impl BoardAction {
    /// Fails if a pattern's image under a board symmetry is not in the table
    /// (a table that is not the variant's: crafted or damaged).
    pub fn new(board: &Board, patterns: &Patterns) -> Result<BoardAction, String> {
        let k = patterns.variant.colours;
        let lookup: HashMap<&[u64], u32> = (0..patterns.count()).map(|t| (patterns.pattern(t), t as u32)).collect();
        let (mut diagonal, mut pattern, mut piece) = (Vec::new(), Vec::new(), Vec::new());
        for perm in board_symmetries(board) {
            diagonal.push(
                board
                    .diagonals
                    .iter()
                    .map(|&d| board.diagonals.iter().position(|&e| e == map_mask(&perm, d)).unwrap_or(usize::MAX))
                    .collect(),
            );
            let (mut images, mut pieces) =
                (Vec::with_capacity(patterns.count()), Vec::with_capacity(patterns.count() * k));
            for t in 0..patterns.count() {
                let mapped: Vec<u64> = patterns.pattern(t).iter().map(|&m| map_mask(&perm, m)).collect();
                let mut sorted = mapped.clone();
                sorted.sort_unstable_by_key(|m| m.trailing_zeros());
                let Some(&image) = lookup.get(sorted.as_slice()) else {
                    return Err(format!("pattern {t} has a mirror or rotation that is not in the table"));
                };
                images.push(image);
                pieces.extend(mapped.iter().map(|m| sorted.iter().position(|s| s == m).unwrap_or(0) as u8));
            }
            if diagonal.last().is_some_and(|d: &Vec<usize>| d.contains(&usize::MAX)) {
                return Err("a board symmetry does not map lines onto lines".into());
            }
            pattern.push(images);
            piece.push(pieces);
        }
        Ok(BoardAction { diagonal, pattern, piece })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn twelve_symmetries_fix_the_board() {
        for n in [3, 4] {
            let b = Board::new(n);
            let syms = board_symmetries(&b);
            assert_eq!(syms.len(), 12);
            let mut distinct = syms.clone();
            distinct.sort();
            distinct.dedup();
            assert_eq!(distinct.len(), 12);
            for s in &syms {
                for (i, &j) in s.iter().enumerate() {
                    assert_eq!(map_mask(s, b.neighbours[i]), b.neighbours[j], "adjacency preserved");
                }
            }
        }
    }

    #[test]
    fn ranks() {
        assert_eq!(permutation_rank(&[0, 1, 2]), 0);
        assert_eq!(permutation_rank(&[0, 2, 1]), 1);
        assert_eq!(permutation_rank(&[2, 1, 0]), 5);
    }
}
