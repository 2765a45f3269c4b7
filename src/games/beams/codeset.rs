//! Sets of Beams codes as bit rows: for each pattern that still has codes in the
//! set, one row of c! bits, bit σ set iff (pattern, colouring σ) is in the set
//! (thesis §4.4.3: "patterns × 720 colourings as bits"). Counting the answers
//! of a query is a popcount of each row against the colourings that give colour c
//! to piece j, for each piece j — no loop over single codes.

/// A non-empty set of Beams codes. Invariants: `patterns` strictly increasing;
/// row i is `bits[i·words .. (i+1)·words]` and is non-zero; `size` = Σ popcount.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct CodeSet {
    pub patterns: Vec<u32>,
    pub bits: Vec<u64>,
    pub size: u64,
}

impl CodeSet {
    /// Every colouring of every one of `patterns` patterns.
    pub fn full(patterns: usize, colourings: usize) -> CodeSet {
        let words = colourings.div_ceil(64);
        let mut row = vec![u64::MAX; words];
        if !colourings.is_multiple_of(64) {
            row[words - 1] = (1u64 << (colourings % 64)) - 1;
        }
        let mut bits: Vec<u64> = crate::memory::huge_zeroed(patterns * words);
        bits.chunks_exact_mut(words).for_each(|r| r.copy_from_slice(&row));
        CodeSet { patterns: (0..patterns as u32).collect(), bits, size: (patterns * colourings) as u64 }
    }

    /// An empty set to be filled row by row.
    pub fn empty() -> CodeSet {
        CodeSet { patterns: Vec::new(), bits: Vec::new(), size: 0 }
    }

    /// Appends a row (pattern above all present ones, mask non-zero).
    pub fn push_row(&mut self, pattern: u32, mask: &[u64]) {
        debug_assert!(self.patterns.last().is_none_or(|&p| p < pattern));
        self.patterns.push(pattern);
        self.bits.extend_from_slice(mask);
        self.size += mask.iter().map(|w| w.count_ones() as u64).sum::<u64>();
    }

    /// The rows as (pattern, mask).
    pub fn rows(&self, words: usize) -> impl Iterator<Item = (u32, &[u64])> {
        self.patterns.iter().copied().zip(self.bits.chunks_exact(words))
    }

    /// Calls `visit(pattern, colouring)` for every code of the set, in order
    /// (plain loops: the hot path for small sets).
    #[inline]
    pub fn for_each_code(&self, words: usize, mut visit: impl FnMut(u32, usize)) {
        for (row, &t) in self.patterns.iter().enumerate() {
            for (w, &word) in self.bits[row * words..(row + 1) * words].iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    visit(t, w * 64 + m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
        }
    }

    /// The (pattern, colouring) pairs of the set, in order.
    pub fn codes(&self, words: usize) -> impl Iterator<Item = (u32, usize)> + '_ {
        self.rows(words).flat_map(move |(t, mask)| {
            mask.iter().enumerate().flat_map(move |(w, &word)| {
                let mut m = word;
                std::iter::from_fn(move || {
                    (m != 0).then(|| {
                        let bit = m.trailing_zeros() as usize;
                        m &= m - 1;
                        (t, w * 64 + bit)
                    })
                })
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_set_and_codes() {
        let s = CodeSet::full(3, 6);
        assert_eq!(s.size, 18);
        assert_eq!(s.codes(1).count(), 18);
        let big = CodeSet::full(2, 720);
        assert_eq!(big.bits.len(), 24);
        assert_eq!(big.size, 1440);
        assert_eq!(big.codes(12).last(), Some((1, 719)));
    }
}
