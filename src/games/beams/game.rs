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

use super::geometry::Board;
use super::patterns::Patterns;
use super::Variant;
use crate::error::{Error, Result};
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

/// The largest explicit answer table built (bytes).
pub const MAX_TABLE_BYTES: u64 = 2 << 30;

/// Search state: which diagonals are used, and the asked colours — their
/// number k (they are 0..k−1) under the reduced offers, a bit mask under
/// [`ColourOffer::All`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BeamsState {
    pub used: u64,
    pub asked: u8,
}

/// A Beams variant with an explicit list of its codes.
pub struct Beams {
    pub variant: Variant,
    pub board: Board,
    pub order: QueryOrder,
    pub penalty: Penalty,
    pub offer: ColourOffer,
    patterns: Patterns,
    /// `colourings[σ][c]` = index of the piece that gets colour c (lexicographic order).
    colourings: Vec<Vec<u8>>,
    /// `answers[q·|C| + code]`.
    answers: Vec<u8>,
}

fn permutations(k: usize) -> Vec<Vec<u8>> {
    let mut out = Vec::new();
    let mut p: Vec<u8> = (0..k as u8).collect();
    loop {
        out.push(p.clone());
        let Some(i) = (0..k.saturating_sub(1)).rev().find(|&i| p[i] < p[i + 1]) else { return out };
        let j = (i + 1..k).rev().find(|&j| p[j] > p[i]).expect("successor exists");
        p.swap(i, j);
        p[i + 1..].reverse();
    }
}

impl Beams {
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
        let codes = patterns.count() as u64 * colourings.len() as u64;
        let queries = (variant.colours * board.diagonals.len()) as u64;
        let bytes = codes * queries;
        if bytes > MAX_TABLE_BYTES {
            return Err(Error::TooLarge(format!(
                "{variant} has {codes} codes; an explicit answer table would need {:.1} GiB (limit {} GiB). \
                 The bit-table analysis for Beams(6c,6p) is not implemented yet",
                bytes as f64 / (1u64 << 30) as f64,
                MAX_TABLE_BYTES >> 30
            )));
        }
        let offer = ColourOffer::ReducedWeighted;
        let mut game = Beams { variant, board, order, penalty, offer, patterns, colourings, answers: Vec::new() };
        game.answers = game.answer_table();
        Ok(game)
    }

    fn answer_table(&self) -> Vec<u8> {
        let n = self.code_count();
        (0..self.query_count() as QueryId)
            .into_par_iter()
            .flat_map_iter(|q| {
                let (c, d) = self.decode_query(q);
                (0..n as CodeId).map(move |code| {
                    let (t, sigma) = self.split_code(code);
                    let piece = self.patterns.pattern(t)[self.colourings[sigma][c] as usize];
                    self.board.hits(piece, d) as u8
                })
            })
            .collect()
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

    fn penalty_total(&self, set: &[CodeId]) -> Exact {
        let int = |x: u64| Exact::from_integer(BigInt::from(x));
        if self.penalty == Penalty::None || set.len() < 2 {
            return int(0);
        }
        let colours: Vec<Vec<u8>> = set.iter().map(|&c| self.cell_colours(c)).collect();
        let distance = |a: &[u8], b: &[u8]| a.iter().zip(b).filter(|(x, y)| x != y).count() as u64;
        let sums: Vec<u64> = colours.iter().map(|x| colours.iter().map(|y| distance(x, y)).sum()).collect();
        match self.penalty {
            Penalty::BestGuess => int(*sums.iter().min().unwrap_or(&0)),
            Penalty::RandomGuess => int(sums.iter().sum()) / int(set.len() as u64),
            Penalty::None => int(0),
        }
    }
}

impl SearchProblem for Beams {
    type State = BeamsState;

    fn name(&self) -> String {
        let order = match self.order {
            QueryOrder::ColourFirst => "LEX-c order",
            QueryOrder::DiagonalFirst => "LEX-d order",
        };
        format!("{} ({order})", self.variant)
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
    fn next_state(&self, state: &BeamsState, q: QueryId) -> BeamsState {
        let (c, d) = self.decode_query(q);
        let asked = if self.offer == ColourOffer::All { state.asked | 1 << c } else { state.asked.max(c as u8 + 1) };
        BeamsState { used: state.used | 1 << d, asked }
    }
    #[inline]
    fn answer(&self, q: QueryId, code: CodeId) -> AnswerId {
        self.answers[q as usize * self.code_count() + code as usize] as AnswerId
    }
    fn solving_answer(&self, _: QueryId) -> Option<AnswerId> {
        None
    }
    fn query_as_code(&self, _: QueryId) -> Option<CodeId> {
        None
    }
    fn terminal(&self, set: &[CodeId]) -> Terminal {
        Terminal { queries_per_code: 0, penalty_total: self.penalty_total(set) }
    }
    /// Diagonals at the same distance from the centre are mapped onto each other
    /// by the 12 board symmetries, and all colours are alike at the root.
    fn root_class_key(&self, q: QueryId) -> u64 {
        let (_, d) = self.decode_query(q);
        self.board.diagonal_offset[d] as u64
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
    fn code_label(&self, code: CodeId) -> String {
        self.cell_colours(code).iter().map(|&c| (b'0' + c) as char).collect()
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
