//! The answer classes of one node of [`Beams`]: the class sizes of small sets
//! tallied code by code, several queries at a time, and `split` into classes
//! gathered in per-thread buffers (issue 53 item 4: the per-unit cost of the
//! 6c6p curve walk).

use super::super::codeset::{Bits, CodeSet};
use super::Beams;
use super::kernels::single_colouring;
use crate::search::problem::ClassSizes;
use crate::search::{AnswerId, QueryId};
use std::cell::Cell;

/// Queries tallied together: their tallies are separate arrays, so that the
/// increments of one code's answers do not wait on each other (one query at a
/// time, a run of codes with the same answer chained every increment through
/// the same byte in memory).
const LANES: usize = 4;

/// Words of a class's gathered rows up to which [`split`](Beams::split_classes)
/// keeps the buffer for the next call and hands over an exact copy; a larger
/// class takes the buffer itself.
const KEEP_WORDS: usize = 1 << 14;

/// The rows of one answer's class while a set is split.
#[derive(Default)]
struct ClassRows {
    patterns: Vec<u32>,
    words: Vec<u64>,
    size: u64,
}

impl ClassRows {
    fn push(&mut self, pattern: u32, mask: &[u64]) {
        self.patterns.push(pattern);
        self.words.extend_from_slice(mask);
        self.size += mask.iter().map(|w| u64::from(w.count_ones())).sum::<u64>();
    }

    /// The class as a set; the buffers are left empty (kept if small).
    fn take_set(&mut self) -> CodeSet {
        let size = std::mem::take(&mut self.size);
        if self.words.capacity() > KEEP_WORDS {
            let (patterns, words) = (std::mem::take(&mut self.patterns), std::mem::take(&mut self.words));
            return CodeSet { patterns, bits: Bits::from_vec(words), size };
        }
        let set = CodeSet { patterns: self.patterns.clone(), bits: Bits::from_vec(self.words.clone()), size };
        self.patterns.clear();
        self.words.clear();
        set
    }
}

thread_local! {
    /// [`Beams::split_classes`]' buffers, one per answer byte, kept between
    /// calls (taken out while in use: a call on this thread meanwhile finds none).
    static CLASS_ROWS: Cell<Vec<ClassRows>> = const { Cell::new(Vec::new()) };
}

impl Beams {
    /// The class sizes of every query on `set` (at most 255 codes: a tally
    /// byte), in answer order, from each code's answers looked up one by one;
    /// [`LANES`] queries per pass over the codes. The set's hit rows are
    /// prefetched first.
    pub(super) fn tally_class_sizes(&self, queries: &[QueryId], set: &CodeSet) -> ClassSizes {
        debug_assert!(set.size <= 255);
        let (k, nd) = (self.variant.colours, self.board.diagonals.len());
        set.patterns.iter().for_each(|&t| self.prefetch_hits(t));
        // Per code and colour, where the hits of the piece of that colour start.
        let mut piece_rows: Vec<usize> = Vec::with_capacity(set.size as usize * k);
        set.for_each_code(self.words, |t, sigma| {
            piece_rows
                .extend(self.piece_of[sigma * k..(sigma + 1) * k].iter().map(|&j| t as usize * nd * k + j as usize));
        });
        // `tally[l][a]` codes gave answer a to lane l's query, the answers given
        // marked in a 256-bit mask (answers are bytes), so that the loop over
        // the codes has no branch; the sizes come out in answer order.
        let mut tally = [[0u8; 256]; LANES];
        let mut sizes = [0u64; 256];
        let mut out = ClassSizes::with_capacity(queries.len(), queries.len() * (set.size as usize).min(8));
        let hits = self.hits();
        for group in queries.chunks(LANES) {
            // Lanes past the group's end repeat its first query; their tallies are only cleared.
            let (mut colour, mut line) = ([0usize; LANES], [0usize; LANES]);
            for l in 0..LANES {
                let (c, d) = self.decode_query(group[if l < group.len() { l } else { 0 }]);
                (colour[l], line[l]) = (c, d * k);
            }
            let mut seen = [[0u64; 4]; LANES];
            for code in piece_rows.chunks_exact(k) {
                for l in 0..LANES {
                    let answer = usize::from(hits[code[colour[l]] + line[l]]);
                    tally[l][answer] += 1;
                    seen[l][answer >> 6] |= 1 << (answer & 63);
                }
            }
            for (l, (tally, seen)) in tally.iter_mut().zip(&seen).enumerate() {
                let mut m = 0;
                for (w, &word) in seen.iter().enumerate() {
                    let mut rest = word;
                    while rest != 0 {
                        sizes[m] = u64::from(std::mem::take(&mut tally[w * 64 + rest.trailing_zeros() as usize]));
                        rest &= rest - 1;
                        m += 1;
                    }
                }
                if l < group.len() {
                    out.push(sizes[..m].iter().copied());
                }
            }
        }
        out
    }

    /// Reserves each answer's buffers of [`Self::split_classes`] at the size of
    /// its class, its rows counted first (for a set whose large classes are
    /// handed over whole: grown row by row, their memory was moved and faulted
    /// in again at every doubling). A row is in answer a's class iff the
    /// colour-c piece of one of its colourings hits a on d.
    fn reserve_classes(&self, c: usize, d: usize, set: &CodeSet, classes: &mut [ClassRows]) {
        let w = self.words;
        let mut rows = [0usize; 256];
        for (row, (t, mask)) in set.rows(w).enumerate() {
            self.prefetch_ahead(&set.patterns, row);
            if let Some(sigma) = single_colouring(mask) {
                rows[usize::from(self.answer_at(self.code_at(t, sigma), c, d))] += 1;
                continue;
            }
            let mut given = [0u64; 4];
            for (j, &a) in self.piece_hits(t, d).iter().enumerate() {
                let a = usize::from(a);
                let fresh = given[a >> 6] >> (a & 63) & 1 == 0;
                if fresh && mask.iter().zip(self.colourings_of(c, j)).any(|(m, k)| m & k != 0) {
                    given[a >> 6] |= 1 << (a & 63);
                    rows[a] += 1;
                }
            }
        }
        for (class, &n) in classes.iter_mut().zip(&rows).filter(|(_, n)| **n > 0) {
            class.patterns.reserve_exact(n);
            class.words.reserve_exact(n * w);
        }
    }

    /// The classes of query (colour c, diagonal d) on `set`, in answer order:
    /// per row, the colourings grouped by the answer their colour-c piece
    /// gives. The rows of each answer are gathered in this thread's buffers
    /// and each class is made once at its size (no set grown row by row, no
    /// search for a class, no sort).
    pub(super) fn split_classes(&self, c: usize, d: usize, set: &CodeSet) -> Vec<(AnswerId, CodeSet)> {
        let w = self.words;
        let mut classes = CLASS_ROWS.take();
        classes.resize_with(256, ClassRows::default);
        if set.words().len() > KEEP_WORDS {
            self.reserve_classes(c, d, set, &mut classes);
        }
        let mut given = [0u64; 4];
        let mut answers: Vec<u8> = Vec::with_capacity(self.variant.colours);
        let mut rows: Vec<u64> = Vec::with_capacity(self.variant.colours * w);
        for (row, (t, mask)) in set.rows(w).enumerate() {
            self.prefetch_ahead(&set.patterns, row);
            if let Some(sigma) = single_colouring(mask) {
                let a = usize::from(self.answer_at(self.code_at(t, sigma), c, d));
                classes[a].push(t, mask);
                given[a >> 6] |= 1 << (a & 63);
                continue;
            }
            answers.clear();
            rows.clear();
            for (j, &a) in self.piece_hits(t, d).iter().enumerate() {
                let slot = answers.iter().position(|&x| x == a).unwrap_or_else(|| {
                    answers.push(a);
                    rows.resize(answers.len() * w, 0);
                    answers.len() - 1
                });
                let colourings = self.colourings_of(c, j);
                for (i, &m) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
                    rows[slot * w + i] |= m & colourings[i];
                }
            }
            for (slot, &a) in answers.iter().enumerate() {
                let row = &rows[slot * w..(slot + 1) * w];
                if row.iter().any(|&x| x != 0) {
                    let a = usize::from(a);
                    classes[a].push(t, row);
                    given[a >> 6] |= 1 << (a & 63);
                }
            }
        }
        let mut out = Vec::with_capacity(given.iter().map(|x| x.count_ones() as usize).sum());
        for (word, &bits) in given.iter().enumerate() {
            let mut rest = bits;
            while rest != 0 {
                let a = word * 64 + rest.trailing_zeros() as usize;
                out.push((a as AnswerId, classes[a].take_set()));
                rest &= rest - 1;
            }
        }
        CLASS_ROWS.set(classes);
        out
    }
}
