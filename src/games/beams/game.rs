//! Beams as a [`SearchProblem`]: codes are (pattern, colouring) pairs, queries
//! (colour, diagonal) pairs, the answer is the set of hit cells on the line.
//!
//! Rules as implemented (../shared/reference/seed002-ch4.md §3.1, ../shared/reference/beams-conventions.md §1):
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
//!
//! Files: this one holds the rules, the tables and the labels; `kernels` the
//! counting kernels; `classes` a node's classes (small sets' class sizes, the
//! split); `from_tables` sets below the root made or counted from the tables
//! alone; `narrowed` the game narrowed to one set's patterns (a curve unit);
//! `search_problem` the [`SearchProblem`](crate::search::SearchProblem)
//! implementation and the penalty.

mod classes;
mod from_tables;
mod kernels;
mod memo_keys;
mod narrowed;
mod search_problem;

use kernels::MAX_SYMMETRY_PATTERNS;

use super::Variant;
use super::codeset;
use super::geometry::Board;
use super::patterns::Patterns;
use super::symmetry::{BoardAction, permutation_rank};
use crate::error::{Error, Result, invalid};
use crate::games::permutations;
use crate::search::{AnswerId, CodeId, QueryId};
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
    /// `colour_piece[(c·k + j)·words ..]`: the colourings that give colour c to piece j
    /// (built bit by bit as a `bitvec` table, kept as raw words for the popcount kernels).
    colour_piece: Vec<u64>,
    /// `hits[(t·D + d)·k + j]`: answer (hit cells on diagonal d) of piece j of pattern t,
    /// made on first use ([`Beams::hits`]): a curve unit walks a narrowed game
    /// ([`Beams::narrowed_to`]) and never needs the whole table (533 MB for 6c6p).
    hits: std::sync::OnceLock<Vec<u8>>,
    /// `line_hits[(d·k + j)·A + a]`: how many patterns' piece j hits answer a
    /// on diagonal d (A answers), made once from `hits` when the set of all
    /// codes is first counted ([`Beams::full_set_counts`]).
    line_hits: std::sync::OnceLock<Vec<u64>>,
    /// The tables the counts of the last few stand-ins for classes one query
    /// below the root are read from, each made once ([`Beams::stand_in`]).
    stand_ins: std::sync::Mutex<Vec<std::sync::Arc<from_tables::StandInTables>>>,
    /// Board symmetries acting on patterns (small variants only).
    action: Option<BoardAction>,
    /// Whether this game holds only the patterns of one set ([`Beams::narrowed_to`]).
    narrowed: bool,
}

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
        let mut colour_piece = codeset::zeroed_rows(k * k, words);
        for (sigma, perm) in colourings.iter().enumerate() {
            for (c, &j) in perm.iter().enumerate() {
                colour_piece.set((c * k + j as usize) * words * 64 + sigma, true);
            }
        }
        let colour_piece = colour_piece.into_vec();
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
            hits: std::sync::OnceLock::new(),
            line_hits: std::sync::OnceLock::new(),
            stand_ins: std::sync::Mutex::new(Vec::new()),
            action,
            narrowed: false,
        })
    }

    /// The hit table ([`hit_table`]), made on first use.
    #[inline]
    pub(super) fn hits(&self) -> &[u8] {
        self.hits.get_or_init(|| hit_table(&self.patterns, &self.board))
    }

    /// The answer to query `q` for one code, computed from its pattern and
    /// colouring (independent of the counting tables; for checks).
    pub fn answer_of(&self, q: QueryId, code: CodeId) -> AnswerId {
        let (c, d) = self.decode_query(q);
        let (t, sigma) = self.split_code(code);
        self.board.hits(self.patterns.pattern(t)[self.colourings[sigma][c] as usize], d)
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
}

/// `hits[(t·D + d)·k + j]` = `board.hits(piece j of t, d)`: bit i of the answer is the i-th cell of
/// diagonal d (lowest first) in piece j, which is the piece's cells gathered under the diagonal's
/// mask (one PEXT; was an OR into a 16-bit answer per cell and diagonal through it, whose chained
/// stores to the same answers made this table a tenth of a unit's process). Made in parallel
/// unless asked from inside the thread pool (whose other threads may wait for it meanwhile).
fn hit_table(patterns: &Patterns, board: &Board) -> Vec<u8> {
    let (k, nd, t) = (patterns.variant.colours, board.diagonals.len(), patterns.count());
    let mut hits: Vec<u8> = crate::memory::huge_zeroed(t * nd * k);
    let fill = |(p, row): (usize, &mut [u8])| {
        for (j, &piece) in patterns.pattern(p).iter().enumerate() {
            for (d, &mask) in board.diagonals.iter().enumerate() {
                row[d * k + j] = gather_bits(piece, mask) as u8;
            }
        }
    };
    if rayon::current_thread_index().is_some() {
        hits.chunks_mut(nd * k).enumerate().for_each(fill);
    } else {
        hits.par_chunks_mut(nd * k).enumerate().for_each(fill);
    }
    hits
}

/// The bits of `x` under `mask`, packed from the lowest (bit i: the i-th set bit of `mask`, lowest first):
/// [`Board::hits`]' `compress`, in one instruction where the build has BMI2.
#[inline]
fn gather_bits(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: BMI2 is enabled for this build (`target_feature = "bmi2"`).
        unsafe { core::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        u64::from(super::geometry::compress(x & mask, mask))
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
