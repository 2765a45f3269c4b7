//! The counting kernels of [`Beams`]: table lookups of one code's answer,
//! per-row popcounts of the colourings that give colour c to piece j, and the
//! compact answer counts of many queries in one pass over the rows (the
//! thesis' 4 234 462 × 720-bit table of 6c6p, counted by popcount).

use super::super::codeset::CodeSet;
use super::super::symmetry::{BoardAction, permutation_rank};
use super::{Beams, BeamsState, ColourOffer, QueryOrder};
use crate::search::{QueryId, Rules};

/// How many rows ahead the row loops prefetch hit-table entries.
pub(super) const PREFETCH_AHEAD: usize = 8;

/// Answer counts of several queries, compact (see [`Beams::compact_counts`]).
pub(super) struct CompactCounts {
    /// The diagonals asked, increasing.
    pub(super) lines: Vec<usize>,
    /// `offset[i]`: where the answers of `lines[i]` start within a colour's block.
    pub(super) offset: Vec<usize>,
    /// Length of a colour's block.
    pub(super) width: usize,
    pub(super) totals: Vec<u64>,
}

impl CompactCounts {
    /// The counts of the answers 0..2^(cells on d) of query (colour c, diagonal d).
    pub(super) fn of(&self, c: usize, d: usize) -> &[u64] {
        let i = self.lines.binary_search(&d).expect("a listed diagonal");
        &self.totals[c * self.width + self.offset[i]..c * self.width + self.offset[i + 1]]
    }
}

/// Where one code's answers are read: the offsets of its pattern's hit rows
/// and of its colouring's piece list (see [`Beams::answer_at`]).
#[derive(Clone, Copy)]
pub(super) struct CodeAt {
    pub(super) hits: usize,
    pub(super) pieces: usize,
}

/// The colouring of a row holding exactly one code.
#[inline]
pub(super) fn single_colouring(mask: &[u64]) -> Option<usize> {
    let mut found = None;
    for (w, &word) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
        if found.is_some() || word & (word - 1) != 0 {
            return None;
        }
        found = Some(w * 64 + word.trailing_zeros() as usize);
    }
    found
}

/// Rows between two flushes of the compact u32 answer counts (a row holds at
/// most c! ≤ 720 codes, so no count can overflow in between).
pub(super) const FLUSH_ROWS: usize = 1 << 20;

/// Largest set whose answers are looked up code by code instead of row by row.
pub(super) const SMALL_SET: u64 = 48;
/// Largest set whose class sizes are tallied code by code when its rows are
/// sparse ([`TALLY_ROW_CODES`]): a tally byte counts at most 255 codes. Per
/// row of one or a few codes the row pass of [`Beams::compact_counts`] does
/// the same lookups, and on top zeroes, flushes and scans its counters of
/// every answer of every query; a row of many colourings it counts by popcount.
pub(super) const TALLY_SET: u64 = 255;
/// Codes per row (on average) up to which a set of at most [`TALLY_SET`] codes is tallied code by code.
pub(super) const TALLY_ROW_CODES: u64 = 3;
const _: () = assert!(SMALL_SET <= TALLY_SET && TALLY_SET <= 255);

/// Codes whose places [`first_finest_query`](crate::search::SpeedHooks::first_finest_query)
/// keeps on the stack (the walk scans sets of at most 64 codes).
pub(super) const FINEST_CODES: usize = 64;

/// Largest pattern count for which the board symmetries are tabulated.
pub(super) const MAX_SYMMETRY_PATTERNS: usize = 100_000;
/// Smallest set for which symmetries fixing it are looked for.
pub(super) const SYMMETRY_MIN_SET: u64 = 16;
/// Largest set whose settled diagonals are looked for ([`reduced_state`](crate::search::SearchProblem::reduced_state))
/// and that gets a residual key ([`residual_key`](crate::search::SearchProblem::residual_key)); larger sets
/// rarely have settled cells, and both take a pass over the codes.
pub(super) const SMALL_NODE_SET: u64 = 4096;

impl Beams {
    /// Asks the CPU to fetch the hit-table entries of `pattern` (126 bytes for
    /// 6c6p) into cache. Rows of a deep set are scattered over the 533 MB table,
    /// so without this every row costs two or three memory round trips; the row
    /// loops prefetch [`PREFETCH_AHEAD`] rows ahead.
    #[inline(always)]
    pub(super) fn prefetch_hits(&self, pattern: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            let span = self.board.diagonals.len() * self.variant.colours;
            let start = pattern as usize * span;
            let mut at = start & !63;
            let hits = self.hits();
            while at < start + span {
                if let Some(byte) = hits.get(at) {
                    // SAFETY: prefetching has no architectural effect; the pointer is in bounds.
                    unsafe {
                        core::arch::x86_64::_mm_prefetch(
                            byte as *const u8 as *const i8,
                            core::arch::x86_64::_MM_HINT_T0,
                        )
                    };
                }
                at += 64;
            }
        }
    }

    /// Prefetches the hit rows of the set's row `row + PREFETCH_AHEAD`.
    #[inline(always)]
    pub(super) fn prefetch_ahead(&self, patterns: &[u32], row: usize) {
        if let Some(&t) = patterns.get(row + PREFETCH_AHEAD) {
            self.prefetch_hits(t);
        }
    }

    /// Visits the admissible queries in query order (unused diagonals ×
    /// offered colours; every admissible query if all colours are offered)
    /// until `stop` holds; the query it held at.
    pub(super) fn find_admissible(&self, state: &BeamsState, mut stop: impl FnMut(QueryId) -> bool) -> Option<QueryId> {
        if self.offer == ColourOffer::All {
            return (0..self.query_count() as QueryId).filter(|&q| self.is_admissible(state, q)).find(|&q| stop(q));
        }
        let (nc, nd) = (self.variant.colours, self.board.diagonals.len());
        let colours = (state.asked as usize + 1).min(nc);
        let free = || (0..nd).filter(|&d| state.used >> d & 1 == 0);
        match self.order {
            QueryOrder::ColourFirst => {
                (0..colours).flat_map(|c| free().map(move |d| (c * nd + d) as QueryId)).find(|&q| stop(q))
            }
            QueryOrder::DiagonalFirst => {
                free().flat_map(|d| (0..colours).map(move |c| (d * nc + c) as QueryId)).find(|&q| stop(q))
            }
        }
    }

    #[inline]
    pub(super) fn code_at(&self, pattern: u32, colouring: usize) -> CodeAt {
        let k = self.variant.colours;
        CodeAt { hits: pattern as usize * self.board.diagonals.len() * k, pieces: colouring * k }
    }

    /// The answer of a code to (colour c, diagonal d), looked up in the tables.
    #[inline]
    pub(super) fn answer_at(&self, code: CodeAt, c: usize, d: usize) -> u8 {
        self.hits()[code.hits + d * self.variant.colours + self.piece_of[code.pieces + c] as usize]
    }

    /// The cells of each colour of a code (one bit mask per colour).
    #[inline]
    pub(super) fn colour_cells(&self, pattern: u32, colouring: usize) -> impl Iterator<Item = u64> + '_ {
        let (pieces, k) = (self.patterns.pattern(pattern as usize), self.variant.colours);
        self.piece_of[colouring * k..(colouring + 1) * k].iter().map(move |&piece| pieces[piece as usize])
    }

    /// The cells whose colour is not the same for all codes of `set`.
    pub(super) fn varying_cells(&self, set: &CodeSet) -> u64 {
        let mut first = [0u64; 8];
        let mut any = false;
        let mut varying = 0u64;
        set.for_each_code(self.words, |t, sigma| {
            if any {
                varying |= self.colour_cells(t, sigma).zip(&first).fold(0, |v, (m, m0)| v | (m ^ m0));
            } else {
                self.colour_cells(t, sigma).zip(first.iter_mut()).for_each(|(m, f)| *f = m);
                any = true;
            }
        });
        varying
    }

    /// `state` with every diagonal that has no cell in `varying` marked used.
    pub(super) fn without_settled(&self, state: &BeamsState, varying: u64) -> BeamsState {
        let settled = self
            .board
            .diagonals
            .iter()
            .enumerate()
            .filter(|(_, cells)| *cells & varying == 0)
            .fold(0u64, |m, (d, _)| m | 1 << d);
        BeamsState { used: state.used | settled, ..*state }
    }

    #[inline]
    pub(super) fn piece_hits(&self, pattern: u32, d: usize) -> &[u8] {
        let (k, nd) = (self.variant.colours, self.board.diagonals.len());
        let at = (pattern as usize * nd + d) * k;
        &self.hits()[at..at + k]
    }

    #[inline]
    pub(super) fn colourings_of(&self, colour: usize, piece: usize) -> &[u64] {
        let at = (colour * self.variant.colours + piece) * self.words;
        &self.colour_piece[at..at + self.words]
    }

    /// Whether (g, π) maps every code of `set` into `set` (π permutes the first
    /// π.len() colours, the others stay).
    pub(super) fn maps_onto_itself(&self, action: &BoardAction, g: usize, pi: &[u8], set: &CodeSet) -> bool {
        let k = self.variant.colours;
        let mut image = vec![0u8; k];
        set.codes(self.words).all(|(t, sigma)| {
            let t2 = action.pattern[g][t as usize];
            for (c, &piece) in self.colourings[sigma].iter().enumerate() {
                let c2 = if c < pi.len() { pi[c] as usize } else { c };
                image[c2] = action.piece[g][t as usize * k + piece as usize];
            }
            let s2 = permutation_rank(&image);
            set.contains(self.words, t2, s2)
        })
    }

    /// `per_piece[c·k + j]` := number of colourings in `mask` that give colour c
    /// to piece j, for c < `colours`.
    #[inline]
    pub(super) fn row_piece_counts(&self, mask: &[u64], colours: usize, per_piece: &mut [u64]) {
        const SPARSE: u32 = 6;
        let k = self.variant.colours;
        per_piece.iter_mut().for_each(|x| *x = 0);
        let bits: u32 = mask.iter().map(|w| w.count_ones()).sum();
        if bits <= SPARSE {
            for (w, &word) in mask.iter().enumerate() {
                let mut m = word;
                while m != 0 {
                    let sigma = w * 64 + m.trailing_zeros() as usize;
                    m &= m - 1;
                    for (c, &j) in self.piece_of[sigma * k..sigma * k + colours].iter().enumerate() {
                        per_piece[c * k + j as usize] += 1;
                    }
                }
            }
            return;
        }
        for (w, &m) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
            for c in 0..colours {
                for j in 0..k {
                    per_piece[c * k + j] += (m & self.colour_piece[(c * k + j) * self.words + w]).count_ones() as u64;
                }
            }
        }
    }

    /// The answer counts of the (colour, diagonal) queries `decoded` on `set`, in
    /// one pass over the rows: per row, the number of codes giving colour c to
    /// piece j (popcounts, or a walk over the set bits of a sparse row) is shared
    /// by every diagonal, which only looks up the answer of piece j. The counts
    /// are compact — per asked colour and diagonal only the 2^(cells on the line)
    /// possible answers, as u32 flushed every [`FLUSH_ROWS`] rows — so that they
    /// stay in the L1 cache (6c6p: 20 KB instead of 126 × 128 × 8 bytes).
    pub(super) fn compact_counts(&self, decoded: &[(usize, usize)], set: &CodeSet) -> CompactCounts {
        let (k, nd) = (self.variant.colours, self.board.diagonals.len());
        let used_colours = decoded.iter().map(|&(c, _)| c + 1).max().unwrap_or(0);
        let mut lines: Vec<usize> = decoded.iter().map(|&(_, d)| d).collect();
        lines.sort_unstable();
        lines.dedup();
        let mut offset = Vec::with_capacity(lines.len() + 1);
        offset.push(0usize);
        for &d in &lines {
            offset.push(offset.last().copied().unwrap_or(0) + (1usize << self.board.diagonals[d].count_ones()));
        }
        let width = offset[lines.len()];
        if decoded.is_empty() {
            // No query to count (e.g. a node whose admissible queries are all
            // used up); the row pass and the blocks below need width > 0.
            return CompactCounts { lines, offset, width, totals: Vec::new() };
        }
        let mut totals = vec![0u64; used_colours * width];
        let mut compact = vec![0u32; used_colours * width];
        let flush = |compact: &mut [u32], totals: &mut [u64]| {
            totals.iter_mut().zip(compact.iter_mut()).for_each(|(t, c)| *t += std::mem::take(c) as u64);
        };
        let mut per_piece = vec![0u64; used_colours * k];
        // Per piece j: the (colour block, count) pairs of this row with a non-zero count.
        let mut touched: Vec<(usize, u32)> = vec![(0, 0); used_colours * k];
        let mut starts = vec![0usize; k + 1];
        let table = self.hits();
        for (row, (t, mask)) in set.rows(self.words).enumerate() {
            self.prefetch_ahead(&set.patterns, row);
            if row % FLUSH_ROWS == FLUSH_ROWS - 1 {
                flush(&mut compact, &mut totals);
            }
            let hits = &table[t as usize * nd * k..(t as usize + 1) * nd * k];
            if let Some(sigma) = single_colouring(mask) {
                // One code in the row (the common case deep in the tree): its
                // answers are looked up directly. Answer 0 is counted too (it is
                // overwritten below), which keeps the loop free of branches.
                let pieces = &self.piece_of[sigma * k..sigma * k + used_colours];
                for (i, &d) in lines.iter().enumerate() {
                    let line = &hits[d * k..(d + 1) * k];
                    for (c, &j) in pieces.iter().enumerate() {
                        compact[c * width + offset[i] + line[j as usize] as usize] += 1;
                    }
                }
                continue;
            }
            self.row_piece_counts(mask, used_colours, &mut per_piece);
            let mut len = 0;
            for j in 0..k {
                starts[j] = len;
                for c in 0..used_colours {
                    let n = per_piece[c * k + j];
                    if n != 0 {
                        touched[len] = (c * width, n as u32);
                        len += 1;
                    }
                }
            }
            starts[k] = len;
            // Answer 0 (no hit) is left out here and filled in from |M| below:
            // it is the most frequent answer and would chain the additions.
            for (i, &d) in lines.iter().enumerate() {
                for (j, &answer) in hits[d * k..(d + 1) * k].iter().enumerate().filter(|(_, a)| **a != 0) {
                    let at = offset[i] + answer as usize;
                    for &(block, n) in &touched[starts[j]..starts[j + 1]] {
                        compact[block + at] += n;
                    }
                }
            }
        }
        flush(&mut compact, &mut totals);
        for block in totals.chunks_exact_mut(width) {
            for i in 0..lines.len() {
                let answers = &mut block[offset[i]..offset[i + 1]];
                answers[0] = set.size - answers[1..].iter().sum::<u64>();
            }
        }
        CompactCounts { lines, offset, width, totals }
    }
}
