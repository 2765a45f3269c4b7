//! Sets of Beams codes as bit rows: for each pattern that still has codes in the
//! set, one row of c! bits, bit σ set iff (pattern, colouring σ) is in the set
//! (thesis §4.4.3: "patterns × 720 colourings as bits"). Counting the answers
//! of a query is a popcount of each row against the colourings that give colour c
//! to piece j, for each piece j — no loop over single codes.
//!
//! The rows live in one `bitvec` [`BitVec`] (`u64` words, least significant bit
//! first). Single bits are read and written through its bit API; the counting
//! kernels (`game/kernels.rs`, `game/search_problem.rs`) AND and popcount whole
//! rows and take them as raw words ([`CodeSet::rows`], `BitVec::as_raw_slice`):
//! a row is a whole number of words, so word-wise and bit-wise views agree.

use crate::search::{AnswerId, QueryId};
use bitvec::prelude::{BitSlice, BitVec, Lsb0};
use std::hash::{Hash, Hasher};

/// The bits of a code set or of a colouring table: rows of whole `u64` words.
pub type Bits = BitVec<u64, Lsb0>;

/// A non-empty set of Beams codes. Invariants: `patterns` strictly increasing;
/// row i is bits `i·words·64 .. (i+1)·words·64` (the last word's bits past c!
/// are zero) and is non-zero; `size` = the number of set bits. The one
/// exception is a stand-in, [`CodeSet::counted`], which only counting reads.
#[derive(Clone, Debug)]
pub struct CodeSet {
    pub patterns: Vec<u32>,
    pub bits: Bits,
    pub size: u64,
}

/// Equality and hashing by whole words (the bit-wise forms of `BitVec` cost a
/// step per bit; these sets key the search memo tables).
impl PartialEq for CodeSet {
    fn eq(&self, other: &CodeSet) -> bool {
        self.size == other.size && self.patterns == other.patterns && self.words() == other.words()
    }
}

impl Eq for CodeSet {}

impl Hash for CodeSet {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.patterns.hash(state);
        self.words().hash(state);
        self.size.hash(state);
    }
}

impl CodeSet {
    /// Every colouring of every one of `patterns` patterns.
    pub fn full(patterns: usize, colourings: usize) -> CodeSet {
        let (row, words) = (every_colouring(colourings), colourings.div_ceil(64));
        let mut raw: Vec<u64> = crate::memory::huge_zeroed(patterns * words);
        raw.chunks_exact_mut(words).for_each(|r| r.copy_from_slice(row.as_raw_slice()));
        CodeSet {
            patterns: (0..patterns as u32).collect(),
            bits: Bits::from_vec(raw),
            size: (patterns * colourings) as u64,
        }
    }

    /// The set of all codes as only the counting of the full set reads it
    /// (`Beams::full_set_counts`: its size alone; the root's decision,
    /// `SpeedHooks::counted_full_set`): [`CodeSet::counted`] of no step.
    pub fn counted_full(patterns: usize, colourings: usize) -> CodeSet {
        CodeSet::counted(&[], (patterns * colourings) as u64)
    }

    /// A stand-in for the `size` codes of the full set that give every
    /// (query, answer) of `trail` (all codes if it is empty), as only the
    /// counting hooks read it (`Beams::stand_in_counts`: from the game's
    /// tables, pattern by pattern; a decision one or no query below the root,
    /// `SpeedHooks::counted_class`). It holds no pattern and its words are the
    /// trail, not rows: every walk over its rows is refused
    /// ([`CodeSet::rows`]); it must never be split, filtered or compared with
    /// a set of codes. A set of codes with codes always has a pattern.
    pub fn counted(trail: &[(QueryId, AnswerId)], size: u64) -> CodeSet {
        let words = trail.iter().map(|&(q, a)| u64::from(q) << 32 | u64::from(a)).collect();
        CodeSet { patterns: Vec::new(), bits: Bits::from_vec(words), size }
    }

    /// Whether this is a stand-in ([`CodeSet::counted`]), not a set of codes.
    #[inline]
    pub fn is_counted(&self) -> bool {
        self.patterns.is_empty() && self.size > 0
    }

    /// The trail a stand-in stands for ([`CodeSet::counted`]); `None` for a set of codes.
    pub fn counted_trail(&self) -> Option<Vec<(QueryId, AnswerId)>> {
        let step = |&w: &u64| ((w >> 32) as QueryId, (w & 0xffff) as AnswerId);
        self.is_counted().then(|| self.words().iter().map(step).collect())
    }

    /// An empty set to be filled row by row.
    pub fn empty() -> CodeSet {
        CodeSet { patterns: Vec::new(), bits: Bits::new(), size: 0 }
    }

    /// Empties the set, keeping its allocations (a buffer refilled row by row).
    pub fn clear(&mut self) {
        let mut raw = std::mem::take(&mut self.bits).into_vec();
        raw.clear();
        self.bits = Bits::from_vec(raw);
        self.patterns.clear();
        self.size = 0;
    }

    /// All rows as raw words.
    #[inline]
    pub fn words(&self) -> &[u64] {
        self.bits.as_raw_slice()
    }

    /// Appends a row (pattern above all present ones, mask non-zero, whole words).
    pub fn push_row(&mut self, pattern: u32, mask: &[u64]) {
        debug_assert!(self.patterns.last().is_none_or(|&p| p < pattern));
        self.patterns.push(pattern);
        self.extend_words(mask);
        self.size += mask.iter().map(|w| w.count_ones() as u64).sum::<u64>();
    }

    /// Appends every row of `other` (its patterns all above this set's).
    pub fn append(&mut self, other: CodeSet) {
        debug_assert!(self.patterns.last().is_none_or(|&p| other.patterns.first().is_none_or(|&q| p < q)));
        self.extend_words(other.words());
        self.patterns.extend(other.patterns);
        self.size += other.size;
    }

    /// Appends whole words. `BitVec::extend_from_raw_slice` goes bit-span by
    /// bit-span (18 % of the 6c3p analysis in a profile) and `resize` grows the
    /// buffer without amortisation; the rows are word-aligned, so the words are
    /// appended to the underlying `Vec` (`into_vec`/`from_vec` move, not copy).
    #[inline]
    fn extend_words(&mut self, words: &[u64]) {
        let mut raw = std::mem::take(&mut self.bits).into_vec();
        raw.extend_from_slice(words);
        self.bits = Bits::from_vec(raw);
    }

    /// The rows as (pattern, mask). A stand-in ([`CodeSet::counted`]) has
    /// none to walk: asking for them is a bug, refused.
    pub fn rows(&self, words: usize) -> impl Iterator<Item = (u32, &[u64])> {
        assert!(!self.is_counted(), "a counted stand-in has no rows to walk");
        self.patterns.iter().copied().zip(self.words().chunks_exact(words))
    }

    /// The row of `pattern` as bits, if the set has codes of it.
    pub fn row(&self, words: usize, pattern: u32) -> Option<&BitSlice<u64, Lsb0>> {
        let at = self.patterns.binary_search(&pattern).ok()?;
        Some(&self.bits[at * words * 64..(at + 1) * words * 64])
    }

    /// Whether (pattern, colouring) is in the set.
    pub fn contains(&self, words: usize, pattern: u32, colouring: usize) -> bool {
        self.row(words, pattern).is_some_and(|row| row[colouring])
    }

    /// Calls `visit(pattern, colouring)` for every code of the set, in order
    /// (plain loops over the words: the hot path for small sets).
    #[inline]
    pub fn for_each_code(&self, words: usize, mut visit: impl FnMut(u32, usize)) {
        for (t, mask) in self.rows(words) {
            for (w, &word) in mask.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    visit(t, w * 64 + m.trailing_zeros() as usize);
                    m &= m - 1;
                }
            }
        }
    }

    /// The (pattern, colouring) pairs of the set, in order (word loops, as
    /// [`CodeSet::for_each_code`]: `iter_ones` of the whole table was slower).
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

/// One row (whole words) with the bits of every one of `colourings` colourings set.
fn every_colouring(colourings: usize) -> Bits {
    let mut row = Bits::repeat(false, colourings.div_ceil(64) * 64);
    row[..colourings].fill(true);
    row
}

/// A table of rows of `words` words each, every bit clear.
pub fn zeroed_rows(rows: usize, words: usize) -> Bits {
    Bits::repeat(false, rows * words * 64)
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
        assert_eq!(big.words().len(), 24);
        assert_eq!(big.size, 1440);
        assert_eq!(big.codes(12).last(), Some((1, 719)));
        assert!(big.contains(12, 1, 719) && !big.contains(12, 1, 720) && !big.contains(12, 2, 0));
        let mut visited = Vec::new();
        big.for_each_code(12, |t, s| visited.push((t, s)));
        assert_eq!(visited, big.codes(12).collect::<Vec<_>>());
    }

    #[test]
    fn rows_append_and_equality() {
        let mut a = CodeSet::empty();
        a.push_row(2, &[0b1010, 0]);
        let mut b = CodeSet::empty();
        b.push_row(5, &[0, 1 << 63]);
        a.append(b);
        assert_eq!(a.size, 3);
        assert_eq!(a.codes(2).collect::<Vec<_>>(), vec![(2, 1), (2, 3), (5, 127)]);
        let mut c = CodeSet::empty();
        c.push_row(2, &[0b1010, 0]);
        c.push_row(5, &[0, 1 << 63]);
        assert_eq!(a, c);
        c.bits.set(64, true);
        assert_ne!(a, c);
    }
}
