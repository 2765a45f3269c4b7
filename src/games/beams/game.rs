//! Beams as a [`SearchProblem`]: codes are (pattern, colouring) pairs, queries
//! (colour, diagonal) pairs, the answer is the set of hit cells on the line.
//!
//! Rules as implemented (seed002-ch4.md §3.1, beams-conventions.md §1):
//! - each diagonal may be used once (state: used diagonals);
//! - colours not yet asked are interchangeable, so only the asked colours and the
//!   lowest unasked one are offered (state: number of asked colours, which are
//!   always 0..k−1); for MIX the new colour counts as c − k queries, which makes
//!   the reduced MIX equal to the mean over all tied (colour, diagonal) pairs;
//!   LEX over the reduced set equals LEX over all pairs (the new colour is the
//!   lowest unasked one);
//! - LEX-c orders queries by (colour, diagonal), LEX-d by (diagonal, colour);
//! - the game stops at one code, or when no query splits the remaining set M;
//!   the searcher then lays a code and pays one point per wrong cell
//!   ([`Penalty`]).

use super::Variant;
use super::codeset::CodeSet;
use super::geometry::Board;
use super::patterns::Patterns;
use super::symmetry::{BoardAction, permutation_rank};
use crate::error::{Error, Result, invalid};
use crate::games::permutations;
use crate::search::problem::{ClassSizes, merge_orbits};
use crate::search::{AnswerId, CodeId, Exact, QueryId, SearchProblem, Terminal};
use num_bigint::BigInt;
use rayon::prelude::*;

/// The canonical query order used by LEX.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueryOrder {
    /// LEX-c: lowest colour first, then lowest diagonal.
    ColourFirst,
    /// LEX-d: lowest diagonal first, then lowest colour.
    DiagonalFirst,
}

/// What a terminal set M with |M| > 1 costs in wrong cells (summed over M).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Penalty {
    /// The searcher lays the code of M that minimises the expected number of
    /// wrong cells: min_{x∈M} Σ_{y∈M} d(x, y) (default).
    BestGuess,
    /// The searcher lays a uniformly random code of M: (1/|M|) Σ_x Σ_y d(x, y).
    RandomGuess,
    /// No penalty (counts queries only).
    None,
}

/// Which colours are offered as queries, and how MIX weighs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourOffer {
    /// Asked colours plus the lowest unasked one, the new colour counting as
    /// (number of unasked colours) queries: MIX is then exactly the uniform
    /// choice among *all* tied (colour, diagonal) pairs (default).
    ReducedWeighted,
    /// Asked colours plus the lowest unasked one, each candidate counting once
    /// (MIX uniform over the reduced list; the reference prototypes' "MIXr").
    ReducedUnweighted,
    /// Every colour offered (no reduction; for checks — much slower).
    All,
}

/// Memory the analysis tables may use (hit table + full code set), bytes.
pub const MAX_TABLE_BYTES: u64 = 8 << 30;

/// Search state: which diagonals are used, and the asked colours — their
/// number k (they are 0..k−1) under the reduced offers, a bit mask under
/// [`ColourOffer::All`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BeamsState {
    pub used: u64,
    pub asked: u8,
}

/// A Beams variant with its pattern table and counting tables.
pub struct Beams {
    pub variant: Variant,
    pub board: Board,
    pub order: QueryOrder,
    pub penalty: Penalty,
    pub offer: ColourOffer,
    patterns: Patterns,
    /// `colourings[σ][c]` = index of the piece that gets colour c (lexicographic order).
    colourings: Vec<Vec<u8>>,
    /// The same flat: `piece_of[σ·k + c]`.
    piece_of: Vec<u8>,
    /// u64 words per colouring row (⌈c!/64⌉).
    words: usize,
    /// `colour_piece[(c·k + j)·words ..]`: the colourings that give colour c to piece j.
    colour_piece: Vec<u64>,
    /// `hits[(t·D + d)·k + j]`: answer (hit cells on diagonal d) of piece j of pattern t.
    hits: Vec<u8>,
    /// Board symmetries acting on patterns (small variants only).
    action: Option<BoardAction>,
}

/// How many rows ahead the row loops prefetch hit-table entries.
const PREFETCH_AHEAD: usize = 8;

/// Answer counts of several queries, compact (see [`Beams::compact_counts`]).
struct CompactCounts {
    /// The diagonals asked, increasing.
    lines: Vec<usize>,
    /// `offset[i]`: where the answers of `lines[i]` start within a colour's block.
    offset: Vec<usize>,
    /// Length of a colour's block.
    width: usize,
    totals: Vec<u64>,
}

impl CompactCounts {
    /// The counts of the answers 0..2^(cells on d) of query (colour c, diagonal d).
    fn of(&self, c: usize, d: usize) -> &[u64] {
        let i = self.lines.binary_search(&d).expect("a listed diagonal");
        &self.totals[c * self.width + self.offset[i]..c * self.width + self.offset[i + 1]]
    }
}

/// Where one code's answers are read: the offsets of its pattern's hit rows
/// and of its colouring's piece list (see [`Beams::answer_at`]).
#[derive(Clone, Copy)]
struct CodeAt {
    hits: usize,
    pieces: usize,
}

/// The colouring of a row holding exactly one code.
#[inline]
fn single_colouring(mask: &[u64]) -> Option<usize> {
    let mut found = None;
    for (w, &word) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
        if found.is_some() || word & (word - 1) != 0 {
            return None;
        }
        found = Some(w * 64 + word.trailing_zeros() as usize);
    }
    found
}

/// The class of `answer` among `classes`, added if new.
fn class_of(classes: &mut Vec<(AnswerId, CodeSet)>, answer: AnswerId) -> &mut CodeSet {
    let at = match classes.iter().position(|(b, _)| *b == answer) {
        Some(i) => i,
        None => {
            classes.push((answer, CodeSet::empty()));
            classes.len() - 1
        }
    };
    &mut classes[at].1
}

/// Rows between two flushes of the compact u32 answer counts (a row holds at
/// most c! ≤ 720 codes, so no count can overflow in between).
const FLUSH_ROWS: usize = 1 << 20;

/// Largest set whose answers are looked up code by code instead of row by row.
const SMALL_SET: u64 = 48;

/// Largest pattern count for which the board symmetries are tabulated.
const MAX_SYMMETRY_PATTERNS: usize = 100_000;
/// Smallest set for which symmetries fixing it are looked for.
const SYMMETRY_MIN_SET: u64 = 16;
/// Largest set whose settled diagonals are looked for ([`SearchProblem::reduced_state`])
/// and that gets a residual key ([`SearchProblem::residual_key`]); larger sets
/// rarely have settled cells, and both take a pass over the codes.
const SMALL_NODE_SET: u64 = 4096;

impl Beams {
    /// The name of a variant with a query order, as [`SearchProblem::name`] gives it
    /// (known without building the tables, e.g. to check a run file).
    pub fn problem_name(variant: Variant, order: QueryOrder) -> String {
        let order = match order {
            QueryOrder::ColourFirst => "LEX-c order",
            QueryOrder::DiagonalFirst => "LEX-d order",
        };
        format!("{variant} ({order})")
    }

    /// The name of a game, as [`SearchProblem::name`] gives it: [`Beams::problem_name`]
    /// for the default offer and penalty; another colour offer or penalty is named
    /// too, so that run files and checkpoints of different games never share a header.
    pub fn game_name(variant: Variant, order: QueryOrder, offer: ColourOffer, penalty: Penalty) -> String {
        let mut name = Beams::problem_name(variant, order);
        match offer {
            ColourOffer::ReducedWeighted => {}
            ColourOffer::ReducedUnweighted => name.push_str(", MIX over asked colours + one new colour"),
            ColourOffer::All => name.push_str(", all colours offered"),
        }
        match penalty {
            Penalty::BestGuess => {}
            Penalty::RandomGuess => name.push_str(", penalty: random code laid"),
            Penalty::None => name.push_str(", no penalty"),
        }
        name
    }

    /// The same game with another colour offer.
    pub fn with_offer(mut self, offer: ColourOffer) -> Beams {
        self.offer = offer;
        self
    }

    /// Builds the game from a pattern table.
    pub fn new(patterns: Patterns, order: QueryOrder, penalty: Penalty) -> Result<Beams> {
        let variant = patterns.variant;
        let board = Board::new(variant.n);
        let colourings = permutations(variant.colours);
        let (k, nd, t) = (variant.colours, board.diagonals.len(), patterns.count());
        let words = colourings.len().div_ceil(64);
        let bytes = (t * nd * k + t * words * 8) as u64;
        if bytes > MAX_TABLE_BYTES {
            return Err(Error::TooLarge(format!(
                "{variant}: the hit table and code set would need {:.1} GiB (limit {} GiB)",
                bytes as f64 / (1u64 << 30) as f64,
                MAX_TABLE_BYTES >> 30
            )));
        }
        let mut colour_piece = vec![0u64; k * k * words];
        for (sigma, perm) in colourings.iter().enumerate() {
            for (c, &j) in perm.iter().enumerate() {
                colour_piece[(c * k + j as usize) * words + sigma / 64] |= 1 << (sigma % 64);
            }
        }
        let mut hits: Vec<u8> = crate::memory::huge_zeroed(t * nd * k);
        hits.par_chunks_mut(nd * k).enumerate().for_each(|(p, row)| {
            let pieces = patterns.pattern(p);
            for (d, line) in row.chunks_exact_mut(k).enumerate() {
                line.iter_mut().zip(pieces).for_each(|(hit, &piece)| *hit = board.hits(piece, d) as u8);
            }
        });
        let offer = ColourOffer::ReducedWeighted;
        let action = match patterns.count() <= MAX_SYMMETRY_PATTERNS {
            true => Some(BoardAction::new(&board, &patterns).map_err(|why| {
                invalid(format!("the {variant} pattern table is not the variant's ({why}): delete it to rebuild"))
            })?),
            false => None,
        };
        let piece_of = colourings.concat();
        Ok(Beams {
            variant,
            board,
            order,
            penalty,
            offer,
            patterns,
            colourings,
            piece_of,
            words,
            colour_piece,
            hits,
            action,
        })
    }

    /// The answer to query `q` for one code, computed from its pattern and
    /// colouring (independent of the counting tables; for checks).
    pub fn answer_of(&self, q: QueryId, code: CodeId) -> AnswerId {
        let (c, d) = self.decode_query(q);
        let (t, sigma) = self.split_code(code);
        self.board.hits(self.patterns.pattern(t)[self.colourings[sigma][c] as usize], d)
    }

    /// Asks the CPU to fetch the hit-table entries of `pattern` (126 bytes for
    /// 6c6p) into cache. Rows of a deep set are scattered over the 533 MB table,
    /// so without this every row costs two or three memory round trips; the row
    /// loops prefetch [`PREFETCH_AHEAD`] rows ahead.
    #[inline(always)]
    fn prefetch_hits(&self, pattern: u32) {
        #[cfg(target_arch = "x86_64")]
        {
            let span = self.board.diagonals.len() * self.variant.colours;
            let start = pattern as usize * span;
            let mut at = start & !63;
            while at < start + span {
                if let Some(byte) = self.hits.get(at) {
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
    fn prefetch_ahead(&self, patterns: &[u32], row: usize) {
        if let Some(&t) = patterns.get(row + PREFETCH_AHEAD) {
            self.prefetch_hits(t);
        }
    }

    #[inline]
    fn code_at(&self, pattern: u32, colouring: usize) -> CodeAt {
        let k = self.variant.colours;
        CodeAt { hits: pattern as usize * self.board.diagonals.len() * k, pieces: colouring * k }
    }

    /// The answer of a code to (colour c, diagonal d), looked up in the tables.
    #[inline]
    fn answer_at(&self, code: CodeAt, c: usize, d: usize) -> u8 {
        self.hits[code.hits + d * self.variant.colours + self.piece_of[code.pieces + c] as usize]
    }

    /// The cells of each colour of a code (one bit mask per colour).
    #[inline]
    fn colour_cells(&self, pattern: u32, colouring: usize) -> impl Iterator<Item = u64> + '_ {
        let (pieces, k) = (self.patterns.pattern(pattern as usize), self.variant.colours);
        self.piece_of[colouring * k..(colouring + 1) * k].iter().map(move |&piece| pieces[piece as usize])
    }

    /// The cells whose colour is not the same for all codes of `set`.
    fn varying_cells(&self, set: &CodeSet) -> u64 {
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
    fn without_settled(&self, state: &BeamsState, varying: u64) -> BeamsState {
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
    fn piece_hits(&self, pattern: u32, d: usize) -> &[u8] {
        let (k, nd) = (self.variant.colours, self.board.diagonals.len());
        let at = (pattern as usize * nd + d) * k;
        &self.hits[at..at + k]
    }

    #[inline]
    fn colourings_of(&self, colour: usize, piece: usize) -> &[u64] {
        let at = (colour * self.variant.colours + piece) * self.words;
        &self.colour_piece[at..at + self.words]
    }

    /// Code id of (pattern, colouring).
    pub fn code_id(&self, pattern: u32, colouring: usize) -> CodeId {
        (pattern as usize * self.colourings.len() + colouring) as CodeId
    }

    /// (colour, diagonal) of a query id.
    pub fn decode_query(&self, q: QueryId) -> (usize, usize) {
        let (nc, nd) = (self.variant.colours, self.board.diagonals.len());
        match self.order {
            QueryOrder::ColourFirst => (q as usize / nd, q as usize % nd),
            QueryOrder::DiagonalFirst => (q as usize % nc, q as usize / nc),
        }
    }

    /// The query id of (colour, diagonal).
    pub fn query_id(&self, colour: usize, diagonal: usize) -> QueryId {
        let (nc, nd) = (self.variant.colours, self.board.diagonals.len());
        (match self.order {
            QueryOrder::ColourFirst => colour * nd + diagonal,
            QueryOrder::DiagonalFirst => diagonal * nc + colour,
        }) as QueryId
    }

    fn split_code(&self, code: CodeId) -> (usize, usize) {
        let k = self.colourings.len();
        (code as usize / k, code as usize % k)
    }

    /// The colour of every cell of a code.
    pub fn cell_colours(&self, code: CodeId) -> Vec<u8> {
        let (t, sigma) = self.split_code(code);
        let pieces = self.patterns.pattern(t);
        let mut colours = vec![0u8; self.board.cell_count()];
        for (c, &piece) in self.colourings[sigma].iter().enumerate() {
            let mut m = pieces[piece as usize];
            while m != 0 {
                colours[m.trailing_zeros() as usize] = c as u8;
                m &= m - 1;
            }
        }
        colours
    }

    /// Whether (g, π) maps every code of `set` into `set` (π permutes the first
    /// π.len() colours, the others stay).
    fn maps_onto_itself(&self, action: &BoardAction, g: usize, pi: &[u8], set: &CodeSet) -> bool {
        let k = self.variant.colours;
        let mut image = vec![0u8; k];
        set.codes(self.words).all(|(t, sigma)| {
            let t2 = action.pattern[g][t as usize];
            for (c, &piece) in self.colourings[sigma].iter().enumerate() {
                let c2 = if c < pi.len() { pi[c] as usize } else { c };
                image[c2] = action.piece[g][t as usize * k + piece as usize];
            }
            let s2 = permutation_rank(&image);
            match set.patterns.binary_search(&t2) {
                Ok(row) => set.bits[row * self.words + s2 / 64] >> (s2 % 64) & 1 == 1,
                Err(_) => false,
            }
        })
    }

    /// `per_piece[c·k + j]` := number of colourings in `mask` that give colour c
    /// to piece j, for c < `colours`.
    #[inline]
    fn row_piece_counts(&self, mask: &[u64], colours: usize, per_piece: &mut [u64]) {
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
    fn compact_counts(&self, decoded: &[(usize, usize)], set: &CodeSet) -> CompactCounts {
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
        let mut touched: Vec<(usize, u32)> = Vec::with_capacity(used_colours * k);
        let mut starts = vec![0usize; k + 1];
        for (row, (t, mask)) in set.rows(self.words).enumerate() {
            self.prefetch_ahead(&set.patterns, row);
            if row % FLUSH_ROWS == FLUSH_ROWS - 1 {
                flush(&mut compact, &mut totals);
            }
            let hits = &self.hits[t as usize * nd * k..(t as usize + 1) * nd * k];
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
            touched.clear();
            for j in 0..k {
                starts[j] = touched.len();
                touched.extend(
                    (0..used_colours)
                        .filter(|&c| per_piece[c * k + j] != 0)
                        .map(|c| (c * width, per_piece[c * k + j] as u32)),
                );
            }
            starts[k] = touched.len();
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

    /// Number of patterns.
    pub fn pattern_count(&self) -> usize {
        self.patterns.count()
    }

    /// Reads a code written as cell colours (one digit per cell, board order, as
    /// [`Self::code_label`] writes it): every colour must form one piece of the variant.
    pub fn code_from_label(&self, text: &str) -> Result<CodeId> {
        let (cells, k) = (self.board.cell_count(), self.variant.colours);
        let digits: Vec<usize> = text.trim().chars().filter_map(|c| c.to_digit(10).map(|d| d as usize)).collect();
        if digits.len() != cells || text.trim().chars().count() != cells || digits.iter().any(|&d| d >= k) {
            return Err(Error::InvalidInput(format!(
                "a {} code is {cells} digits 0–{} (the colour of each cell in board order), got `{text}`",
                self.variant,
                k - 1
            )));
        }
        let mut masks = vec![0u64; k];
        digits.iter().enumerate().for_each(|(cell, &c)| masks[c] |= 1 << cell);
        let mut pieces = masks.clone();
        pieces.sort_unstable_by_key(|m| m.trailing_zeros());
        let Some(t) = self.patterns.find(&pieces) else {
            return Err(Error::InvalidInput(format!(
                "`{text}` is not a {} code: every colour must cover one connected piece of {} cells",
                self.variant, self.variant.piece_size
            )));
        };
        let piece_of_colour: Vec<u8> =
            masks.iter().map(|m| pieces.iter().position(|p| p == m).expect("own piece") as u8).collect();
        Ok(self.code_id(t as u32, permutation_rank(&piece_of_colour)))
    }

    /// The cells of diagonal `d` in line order, as axial (q, r).
    pub fn diagonal_cells(&self, d: usize) -> Vec<(i32, i32)> {
        let m = self.board.diagonals[d];
        (0..self.board.cell_count()).filter(|&i| m >> i & 1 == 1).map(|i| self.board.cells[i]).collect()
    }

    /// The code as a string of cell colours (digits, cells in board order).
    pub fn code_label(&self, code: CodeId) -> String {
        self.cell_colours(code).iter().map(|&c| (b'0' + c) as char).collect()
    }

    /// The penalty of stopping at `set` (summed over its codes) and its split:
    /// how many codes pay exactly p wrong cells.
    fn penalty_of(&self, set: &CodeSet) -> (Exact, Vec<Exact>) {
        let int = |x: u64| Exact::from_integer(BigInt::from(x));
        if self.penalty == Penalty::None || set.size < 2 {
            return (int(0), Vec::new());
        }
        let mut colours: Vec<Vec<u8>> = Vec::with_capacity(set.size as usize);
        set.for_each_code(self.words, |t, sigma| colours.push(self.cell_colours(self.code_id(t, sigma))));
        let distance = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count();
        let mut by_points = vec![0u64; self.board.cell_count() + 1];
        let sums: Vec<u64> = colours.iter().map(|x| colours.iter().map(|y| distance(x, y) as u64).sum()).collect();
        let (total, weight) = match self.penalty {
            Penalty::BestGuess => {
                let best = (0..sums.len()).min_by_key(|&i| sums[i]).unwrap_or(0);
                colours.iter().for_each(|y| by_points[distance(&colours[best], y)] += 1);
                (int(sums[best]), int(1))
            }
            _ => {
                colours.iter().for_each(|x| colours.iter().for_each(|y| by_points[distance(x, y)] += 1));
                (int(sums.iter().sum()) / int(set.size), int(set.size))
            }
        };
        by_points[0] = 0;
        while by_points.last() == Some(&0) {
            by_points.pop();
        }
        (total, by_points.into_iter().map(|n| int(n) / &weight).collect())
    }
}

impl SearchProblem for Beams {
    type State = BeamsState;
    type Set = CodeSet;

    fn name(&self) -> String {
        Beams::game_name(self.variant, self.order, self.offer, self.penalty)
    }
    fn code_count(&self) -> usize {
        self.patterns.count() * self.colourings.len()
    }
    fn query_count(&self) -> usize {
        self.variant.colours * self.board.diagonals.len()
    }
    fn answer_count(&self) -> usize {
        1 << self.board.diagonals.iter().map(|d| d.count_ones()).max().unwrap_or(0)
    }
    fn initial_state(&self) -> BeamsState {
        BeamsState { used: 0, asked: 0 }
    }
    fn is_admissible(&self, state: &BeamsState, q: QueryId) -> bool {
        let (c, d) = self.decode_query(q);
        state.used >> d & 1 == 0 && (self.offer == ColourOffer::All || c <= state.asked as usize)
    }
    /// Unused diagonals × offered colours, listed in query order (no decoding).
    fn admissible_queries(&self, state: &BeamsState) -> Vec<QueryId> {
        if self.offer == ColourOffer::All {
            return (0..self.query_count() as QueryId).filter(|&q| self.is_admissible(state, q)).collect();
        }
        let (nc, nd) = (self.variant.colours, self.board.diagonals.len());
        let colours = (state.asked as usize + 1).min(nc);
        let free: Vec<usize> = (0..nd).filter(|&d| state.used >> d & 1 == 0).collect();
        let mut out = Vec::with_capacity(colours * free.len());
        match self.order {
            QueryOrder::ColourFirst => {
                (0..colours).for_each(|c| out.extend(free.iter().map(|&d| (c * nd + d) as QueryId)))
            }
            QueryOrder::DiagonalFirst => {
                free.iter().for_each(|&d| out.extend((0..colours).map(|c| (d * nc + c) as QueryId)))
            }
        }
        out
    }
    fn next_state(&self, state: &BeamsState, q: QueryId) -> BeamsState {
        let (c, d) = self.decode_query(q);
        let asked = if self.offer == ColourOffer::All { state.asked | 1 << c } else { state.asked.max(c as u8 + 1) };
        BeamsState { used: state.used | 1 << d, asked }
    }
    fn full_set(&self) -> CodeSet {
        CodeSet::full(self.patterns.count(), self.colourings.len())
    }
    fn set_size(&self, set: &CodeSet) -> u64 {
        set.size
    }
    /// Popcount of each row against the colourings giving colour c to each piece
    /// (zero words of a row are skipped: deep in the tree rows are sparse).
    fn count_answers(&self, q: QueryId, set: &CodeSet, counts: &mut [u64]) {
        let (c, d) = self.decode_query(q);
        let k = self.variant.colours;
        counts.iter_mut().for_each(|x| *x = 0);
        for (t, mask) in set.rows(self.words) {
            let hits = self.piece_hits(t, d);
            for (w, &m) in mask.iter().enumerate().filter(|(_, m)| **m != 0) {
                for (j, &a) in hits.iter().enumerate() {
                    counts[a as usize] += (m & self.colour_piece[(c * k + j) * self.words + w]).count_ones() as u64;
                }
            }
        }
    }
    /// One pass over the set for all queries ([`Beams::compact_counts`]); small
    /// sets look up each code's answer directly (no tables to set up).
    fn count_answers_batch(&self, queries: &[QueryId], set: &CodeSet, counts: &mut [u64]) {
        let a = self.answer_count();
        counts.iter_mut().for_each(|x| *x = 0);
        let decoded: Vec<(usize, usize)> = queries.iter().map(|&q| self.decode_query(q)).collect();
        if set.size <= SMALL_SET {
            set.for_each_code(self.words, |t, sigma| {
                let code = self.code_at(t, sigma);
                for (out, &(c, d)) in counts.chunks_exact_mut(a).zip(&decoded) {
                    out[self.answer_at(code, c, d) as usize] += 1;
                }
            });
            return;
        }
        let compact = self.compact_counts(&decoded, set);
        for (&(c, d), out) in decoded.iter().zip(counts.chunks_exact_mut(a)) {
            let answers = compact.of(c, d);
            out[..answers.len()].copy_from_slice(answers);
        }
    }
    /// Small sets walk their codes: per query the answers of all codes are
    /// collected and sorted, which avoids scanning the whole answer range.
    fn class_sizes_batch(&self, queries: &[QueryId], set: &CodeSet) -> ClassSizes {
        if set.size > SMALL_SET {
            let decoded: Vec<(usize, usize)> = queries.iter().map(|&q| self.decode_query(q)).collect();
            let compact = self.compact_counts(&decoded, set);
            let mut out = ClassSizes::with_capacity(queries.len(), queries.len() * 8);
            decoded.iter().for_each(|&(c, d)| out.push(compact.of(c, d).iter().copied().filter(|&x| x > 0)));
            return out;
        }
        let (k, nd) = (self.variant.colours, self.board.diagonals.len());
        // Per code and colour, where the hits of the piece of that colour start.
        let mut piece_rows: Vec<usize> = Vec::with_capacity(set.size as usize * k);
        set.for_each_code(self.words, |t, sigma| {
            piece_rows
                .extend(self.piece_of[sigma * k..(sigma + 1) * k].iter().map(|&j| t as usize * nd * k + j as usize));
        });
        // Answers are tallied, not sorted: `tally[a]` codes gave answer a (at most SMALL_SET < 256).
        let mut tally = vec![0u8; self.answer_count()];
        let mut seen: Vec<u8> = Vec::with_capacity(set.size as usize);
        let mut out = ClassSizes::with_capacity(queries.len(), queries.len() * set.size as usize);
        for &q in queries {
            let (c, d) = self.decode_query(q);
            seen.clear();
            for code in piece_rows.chunks_exact(k) {
                let answer = self.hits[code[c] + d * k];
                if tally[answer as usize] == 0 {
                    seen.push(answer);
                }
                tally[answer as usize] += 1;
            }
            out.push(seen.iter().map(|&a| std::mem::take(&mut tally[a as usize]) as u64));
        }
        out
    }
    /// One pass over the rows: a row keeps the colourings whose colour-c piece
    /// hits exactly `answer` (rows are filtered in parallel chunks).
    fn restrict(&self, query: QueryId, answer: AnswerId, set: &CodeSet) -> CodeSet {
        let (c, d) = self.decode_query(query);
        let w = self.words;
        let filter_rows = |rows: &[u32], bits: &[u64]| {
            let mut out = CodeSet::empty();
            let mut keep = vec![0u64; w];
            for (i, &t) in rows.iter().enumerate() {
                self.prefetch_ahead(rows, i);
                keep.iter_mut().for_each(|x| *x = 0);
                for (j, _) in self.piece_hits(t, d).iter().enumerate().filter(|(_, a)| **a as AnswerId == answer) {
                    keep.iter_mut().zip(self.colourings_of(c, j)).for_each(|(k, m)| *k |= m);
                }
                keep.iter_mut().zip(&bits[i * w..(i + 1) * w]).for_each(|(k, m)| *k &= m);
                if keep.iter().any(|&x| x != 0) {
                    out.push_row(t, &keep);
                }
            }
            out
        };
        const CHUNK: usize = 1 << 16;
        if set.patterns.len() <= CHUNK {
            return filter_rows(&set.patterns, &set.bits);
        }
        let parts: Vec<CodeSet> = set
            .patterns
            .par_chunks(CHUNK)
            .zip(set.bits.par_chunks(CHUNK * w))
            .map(|(r, b)| filter_rows(r, b))
            .collect();
        let mut out = CodeSet::empty();
        for p in parts {
            out.patterns.extend(p.patterns);
            out.bits.extend(p.bits);
            out.size += p.size;
        }
        out
    }
    /// The best-guess code is laid (the first of least total distance to the set);
    /// the secret pays its wrong cells. A random guess pays the mean, rounded.
    fn terminal_for(&self, set: &CodeSet, secret: CodeId) -> (u32, u64) {
        if set.size < 2 || self.penalty == Penalty::None {
            return (0, 0);
        }
        let mut colours: Vec<Vec<u8>> = Vec::with_capacity(set.size as usize);
        set.for_each_code(self.words, |t, sigma| colours.push(self.cell_colours(self.code_id(t, sigma))));
        let distance = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count() as u64;
        let sums: Vec<u64> = colours.iter().map(|x| colours.iter().map(|y| distance(x, y)).sum()).collect();
        let truth = self.cell_colours(secret);
        match self.penalty {
            Penalty::BestGuess => {
                let best = (0..sums.len()).min_by_key(|&i| sums[i]).unwrap_or(0);
                (0, distance(&colours[best], &truth))
            }
            _ => (0, (colours.iter().map(|x| distance(x, &truth)).sum::<u64>() + set.size / 2) / set.size),
        }
    }
    /// Per row, the colourings are grouped by the answer their colour-c piece gives.
    fn split(&self, q: QueryId, set: &CodeSet) -> Vec<(AnswerId, CodeSet)> {
        let (c, d) = self.decode_query(q);
        let w = self.words;
        let mut classes: Vec<(AnswerId, CodeSet)> = Vec::new();
        let mut answers: Vec<u8> = Vec::with_capacity(self.variant.colours);
        let mut rows: Vec<u64> = Vec::with_capacity(self.variant.colours * w);
        for (row, (t, mask)) in set.rows(w).enumerate() {
            self.prefetch_ahead(&set.patterns, row);
            if let Some(sigma) = single_colouring(mask) {
                let a = self.answer_at(self.code_at(t, sigma), c, d) as AnswerId;
                class_of(&mut classes, a).push_row(t, mask);
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
                    class_of(&mut classes, a as AnswerId).push_row(t, row);
                }
            }
        }
        classes.sort_unstable_by_key(|(a, _)| *a);
        classes
    }
    /// Compares the two codes' answers query by query (no counting).
    fn separating_query(&self, state: &BeamsState, set: &CodeSet) -> Option<QueryId> {
        let mut codes = [CodeAt { hits: 0, pieces: 0 }; 2];
        let mut n = 0;
        set.for_each_code(self.words, |t, sigma| {
            codes[n.min(1)] = self.code_at(t, sigma);
            n += 1;
        });
        self.admissible_queries(state).into_iter().find(|&q| {
            let (c, d) = self.decode_query(q);
            self.answer_at(codes[0], c, d) != self.answer_at(codes[1], c, d)
        })
    }
    /// Looks up each code's answer and marks it in a 256-bit mask (answers are
    /// bytes): a query is finest when no answer repeats.
    fn first_finest_query(&self, queries: &[QueryId], set: &CodeSet) -> Option<QueryId> {
        let mut codes: Vec<CodeAt> = Vec::with_capacity(set.size as usize);
        set.for_each_code(self.words, |t, sigma| codes.push(self.code_at(t, sigma)));
        queries.iter().copied().find(|&q| {
            let (c, d) = self.decode_query(q);
            let mut seen = [0u128; 2];
            codes.iter().all(|&code| {
                let a = self.answer_at(code, c, d);
                let (word, bit) = ((a >> 7) as usize, 1u128 << (a & 127));
                let fresh = seen[word] & bit == 0;
                seen[word] |= bit;
                fresh
            })
        })
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        None
    }
    fn has_solving_answers(&self) -> bool {
        false
    }
    /// Diagonals are only used up; a colour offered later is an unasked colour,
    /// interchangeable here with the lowest unasked one, which is offered.
    fn narrowing_queries(&self) -> bool {
        true
    }
    fn terminal(&self, set: &CodeSet) -> Terminal {
        let (penalty_total, penalised) = self.penalty_of(set);
        Terminal { queries_per_code: 0, penalty_total, penalised }
    }
    /// Diagonals at the same distance from the centre are mapped onto each other
    /// by the 12 board symmetries, and all colours are alike at the root.
    fn root_class_key(&self, q: QueryId) -> u64 {
        let (_, d) = self.decode_query(q);
        self.board.diagonal_offset[d] as u64
    }
    /// Sets of at most four codes per row on average (deep in the tree) are
    /// keyed by their code ids: 4 bytes per code instead of a row of c! bits.
    fn code_list_key(&self, set: &CodeSet) -> Option<Box<[CodeId]>> {
        (set.size <= 4 * set.patterns.len() as u64).then(|| {
            let mut ids = Vec::with_capacity(set.size as usize);
            set.for_each_code(self.words, |t, sigma| ids.push(self.code_id(t, sigma)));
            ids.into_boxed_slice()
        })
    }
    /// Sets of at most `SMALL_NODE_SET` codes: the varying cells V (8 bytes),
    /// then for each code, in set order, the colour of each cell of V (3 bits
    /// each, little-endian), the asked colours renamed in order of appearance
    /// (reduced colour offers, where they are 0..k−1). Sets with equal keys in
    /// equal states have equal subtrees under MIX:
    /// - a query's answer on a code is the set of cells of its colour on its
    ///   diagonal; cells outside V add the same to every code's answer, so both
    ///   sets split into the same classes, row by row (classes keep set order);
    /// - the penalty compares codes cell by cell (cells outside V never
    ///   differ) and takes the first best guess in set order;
    /// - renaming the asked colours maps the offered queries, their answers,
    ///   scores and MIX weights onto each other (not LEX's order; the memo
    ///   serves MIX only).
    fn residual_key(&self, state: &BeamsState, set: &CodeSet) -> Option<(BeamsState, Box<[u8]>)> {
        if set.size > SMALL_NODE_SET {
            return None;
        }
        let varying = self.varying_cells(set);
        let reduced = self.without_settled(state, varying);
        let cells = varying.count_ones() as usize;
        if cells > 42 {
            return None;
        }
        let renamed = if self.offer == ColourOffer::All { 0 } else { state.asked as usize };
        let mut rename: [u8; 8] = std::array::from_fn(|c| c as u8);
        let mut seen = [false; 8];
        let mut next_name = 0u8;
        let per_code = (3 * cells).div_ceil(8);
        let mut key = Vec::with_capacity(8 + per_code * set.size as usize);
        key.extend_from_slice(&varying.to_le_bytes());
        let mut slots = [0u8; 64];
        set.for_each_code(self.words, |t, sigma| {
            for (c, cells_of_c) in self.colour_cells(t, sigma).enumerate() {
                let mut m = cells_of_c & varying;
                while m != 0 {
                    slots[(varying & ((m & m.wrapping_neg()) - 1)).count_ones() as usize] = c as u8;
                    m &= m - 1;
                }
            }
            let mut packed = 0u128;
            for (slot, &c) in slots[..cells].iter().enumerate() {
                if (c as usize) < renamed && !seen[c as usize] {
                    (seen[c as usize], rename[c as usize], next_name) = (true, next_name, next_name + 1);
                }
                packed |= (rename[c as usize] as u128) << (3 * slot);
            }
            key.extend_from_slice(&packed.to_le_bytes()[..per_code]);
        });
        Some((reduced, key.into_boxed_slice()))
    }
    /// A pattern number and a colouring row per pattern.
    fn set_bytes(&self, set: &CodeSet) -> usize {
        set.patterns.len() * (4 + 8 * self.words)
    }
    /// Marks as used the diagonals on which every code of `set` has the same
    /// colours: no query on them splits `set` or any subset of it, and H_α
    /// strategies ask only queries that split (thesis Satz 4.2), so no subtree
    /// depends on whether they were asked. Reducing is idempotent and commutes
    /// with shrinking the set (a settled diagonal stays settled). Sets above
    /// `SMALL_NODE_SET` codes keep their state.
    fn reduced_state(&self, state: &BeamsState, set: &CodeSet) -> BeamsState {
        if set.size > SMALL_NODE_SET {
            return *state;
        }
        self.without_settled(state, self.varying_cells(set))
    }
    fn multiplicity(&self, state: &BeamsState, q: QueryId) -> u64 {
        let (c, _) = self.decode_query(q);
        match self.offer {
            ColourOffer::ReducedWeighted if c == state.asked as usize => (self.variant.colours - c) as u64,
            _ => 1,
        }
    }
    fn query_label(&self, q: QueryId) -> String {
        let (c, d) = self.decode_query(q);
        format!("colour {c} diagonal {d}")
    }
    /// Symmetries (board symmetry g, permutation π of the asked colours) that fix
    /// the used diagonals and map the set onto itself; merges the queries of
    /// each orbit. Reduced colour offers only (asked colours are 0..k−1; the new
    /// colour and its MIX multiplicity stay).
    fn symmetry_classes(&self, state: &BeamsState, set: &CodeSet, weighted: &[(u64, QueryId)]) -> Vec<(u64, QueryId)> {
        let Some(action) = &self.action else { return weighted.to_vec() };
        if self.offer == ColourOffer::All || set.size < SYMMETRY_MIN_SET {
            return weighted.to_vec();
        }
        let asked = state.asked as usize;
        let mut fixing: Vec<(usize, Vec<u8>)> = Vec::new();
        for g in 0..action.diagonal.len() {
            let used_image = (0..self.board.diagonals.len())
                .filter(|&d| state.used >> d & 1 == 1)
                .fold(0u64, |m, d| m | 1 << action.diagonal[g][d]);
            if used_image != state.used {
                continue;
            }
            for pi in permutations(asked) {
                if g == 0 && pi.iter().enumerate().all(|(i, &x)| i == x as usize) {
                    continue;
                }
                if self.maps_onto_itself(action, g, &pi, set) {
                    fixing.push((g, pi));
                }
            }
        }
        if fixing.is_empty() {
            return weighted.to_vec();
        }
        merge_orbits(weighted, |q| {
            let (c, d) = self.decode_query(q);
            fixing
                .iter()
                .map(|(g, pi)| self.query_id(if c < pi.len() { pi[c] as usize } else { c }, action.diagonal[*g][d]))
                .fold(q, QueryId::min)
        })
    }
}

impl crate::search::tree::Replay for Beams {
    fn replay_answer(&self, q: QueryId, code: CodeId) -> AnswerId {
        self.answer_of(q, code)
    }
    fn set_of(&self, codes: &[CodeId]) -> CodeSet {
        let k = self.colourings.len();
        let mut set = CodeSet::empty();
        let mut row = vec![0u64; self.words];
        let mut sorted = codes.to_vec();
        sorted.sort_unstable();
        for chunk in sorted.chunk_by(|a, b| a / k as u32 == b / k as u32) {
            row.iter_mut().for_each(|w| *w = 0);
            chunk.iter().for_each(|&c| row[(c as usize % k) / 64] |= 1 << (c as usize % k % 64));
            set.push_row(chunk[0] / k as u32, &row);
        }
        set
    }
    fn codes_of(&self, set: &CodeSet) -> Vec<CodeId> {
        set.codes(self.words).map(|(t, s)| self.code_id(t, s)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutations_in_lexicographic_order() {
        let p = permutations(3);
        assert_eq!(p.len(), 6);
        assert_eq!(p[0], vec![0, 1, 2]);
        assert_eq!(p[1], vec![0, 2, 1]);
        assert_eq!(p[5], vec![2, 1, 0]);
    }
}
