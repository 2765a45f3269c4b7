//! The smallest real-board witnesses of HEX ∖ HEXY (`../shared/reference/seed004-hex.md` §4.3 and
//! §9.16, the open computational question left by Satz 4.6): positions won for the player who
//! connects, the opponent to move, in which exhaustive H-search derives no edge-to-edge VC.
//!
//! The definition is [`smallest_unproved`](super::seed_checks::smallest_unproved)'s, kept as it is:
//! every board of `cells` cells (both sides ≤ 11, so 1×n and n×1 as well), every position play
//! can reach (B = W or B = W + 1 stones, nobody connected), the connector is the player *not* to
//! move (σ_HEX: the opponent is to move), its exact winner is the connector, and exhaustive
//! H-search on the connector's graph (§2.1) finds no VC between its two edge nodes. Fewest cells
//! first, then fewest stones; all witnesses of that stone count on all boards of that cell count.
//! One reading is a choice: a position with the connector to move is not asked about (it is in
//! HEX only in [Rei81]'s sense, seed §2.3), as before.
//!
//! The same answer, faster:
//! - [`ExactTable`]: the exact winner of every position of a board by one retrograde pass over
//!   the positions by stone count (a fresh minimax per position before);
//! - a bounded H-search first ([`FILTER`]): if it derives an edge VC, the exhaustive one does too
//!   (see [`FILTER`]), so only the positions it leaves open are searched exhaustively;
//! - the positions of a stone count in parallel (rayon);
//! - the half turn (x, y) ↦ (cols−1−x, rows−1−y) maps the board onto itself with each player's
//!   edge pair onto itself and colours kept, so a position and its image have the same winner,
//!   stone counts, side to move and isomorphic player graphs: one of each pair is searched, the
//!   image of a witness is a witness. (Mirror images change the cells' neighbourhoods, the
//!   transpose swaps the colours and with them who moves first: neither is used.)
//! - stone counts ascending per board, a board stopped after the fewest stones with a witness
//!   found so far on a board of the same cell count.

use super::board::{Bits, Board, Colour};
use super::graph::HexGraph;
use super::hsearch::{Limits, Scratch, h_search_edge_answer};
use super::position::Position;
use super::seed_checks::Unproved;
use crate::progress::Progress;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// The bounded H-search run before the exhaustive one. Every connection a bounded run keeps is
/// derived by the rules of Def 3.1 (limits only leave derivations out), so it is in the closure of
/// the rules. The exhaustive run keeps, for every connection (x, C, y) of that closure, one with a
/// carrier C′ ⊆ C: each rule stays applicable when its premises' carriers shrink (AND: x ∉ B,
/// y ∉ A, A ∩ B = ∅ survive; OR: an empty intersection stays empty) and gives a carrier within
/// the old one (hsearch.rs). So an edge VC of the bounded run means an edge VC of the exhaustive
/// run: a position the filter settles is never a witness (tested on random positions).
pub const FILTER: Limits = Limits::SOLVER;

/// The largest board (cells) whose exact table this module builds: 3^16 bytes, 43 MB.
pub const MAX_TABLE_CELLS: usize = 16;

const MOVER_WINS: u8 = 1;
const MOVER_LOSES: u8 = 2;

/// The exact result of every position of one board, indexed by the base-3 code
/// Σ 3^i·(1 for a Black stone on cell i, 2 for a White one); 0 for stone counts play never
/// reaches. Invariant: `value[code]` is [`MOVER_WINS`] iff the side to move (Black iff B = W)
/// wins with perfect play, as [`board_winner`](super::plain::board_winner) decides it (a position
/// whose opponent chain is complete is lost for the mover, one whose mover chain is complete won).
pub struct ExactTable {
    pub board: Board,
    pow3: Vec<usize>,
    value: Vec<u8>,
}

impl ExactTable {
    /// The table of `board` (at most [`MAX_TABLE_CELLS`] cells), stone counts from the full board
    /// down: a position's children have one stone more and are decided before it.
    pub fn new(board: &Board) -> ExactTable {
        let n = board.cells();
        assert!(n <= MAX_TABLE_CELLS, "exact tables up to {MAX_TABLE_CELLS} cells");
        let pow3: Vec<usize> = (0..=n).map(|i| 3usize.pow(i as u32)).collect();
        let mut t = ExactTable { board: board.clone(), value: vec![0; pow3[n]], pow3 };
        for stones in (0..=n).rev() {
            let decided: Vec<(usize, u8)> =
                layer(n, stones).par_iter().map(|&(b, w)| (t.code(b, w), t.decide(b, w))).collect();
            for (code, v) in decided {
                t.value[code] = v;
            }
        }
        t
    }

    /// The base-3 code of the stones.
    pub fn code(&self, black: Bits, white: Bits) -> usize {
        let mut code = 0;
        for (set, digit) in [(black, 1), (white, 2)] {
            let mut rest = set;
            while rest != 0 {
                code += digit * self.pow3[rest.trailing_zeros() as usize];
                rest &= rest - 1;
            }
        }
        code
    }

    /// The winner of a reachable position with `mover` to move (stones as the table's board).
    pub fn winner(&self, black: Bits, white: Bits, mover: Colour) -> Colour {
        if self.value[self.code(black, white)] == MOVER_WINS { mover } else { mover.other() }
    }

    /// The mover's result from the children's (all decided).
    fn decide(&self, black: Bits, white: Bits) -> u8 {
        let board = &self.board;
        let mover = if black.count_ones() == white.count_ones() { Colour::Black } else { Colour::White };
        let (own, other) = if mover == Colour::Black { (black, white) } else { (white, black) };
        if board.connects(mover.other(), other) {
            return MOVER_LOSES;
        }
        if board.connects(mover, own) {
            return MOVER_WINS;
        }
        let code = self.code(black, white);
        let digit = if mover == Colour::Black { 1 } else { 2 };
        let mut free = board.all() & !(black | white);
        while free != 0 {
            let c = free.trailing_zeros() as usize;
            free &= free - 1;
            if self.value[code + digit * self.pow3[c]] == MOVER_LOSES {
                return MOVER_WINS;
            }
        }
        MOVER_LOSES
    }
}

/// The k-subsets of the low `n` bits, ascending (Gosper's hack).
fn subsets(n: usize, k: usize) -> impl Iterator<Item = u64> {
    let end = 1u64 << n;
    let mut next = if k <= n { Some((1u64 << k) - 1) } else { None };
    std::iter::from_fn(move || {
        let x = next?;
        next = if x == 0 {
            None
        } else {
            let low = x & x.wrapping_neg();
            let r = x + low;
            let y = (((r ^ x) >> 2) / low) | r;
            (y < end).then_some(y)
        };
        Some(x)
    })
}

/// The bits of `pattern` placed, lowest first, on the set bits of `mask`.
fn deposit(mut pattern: u64, mut mask: u64) -> u64 {
    let mut out = 0;
    while mask != 0 && pattern != 0 {
        let low = mask & mask.wrapping_neg();
        if pattern & 1 == 1 {
            out |= low;
        }
        pattern >>= 1;
        mask &= mask - 1;
    }
    out
}

/// Every placement of `stones` stones on `n` cells with B = ⌈stones/2⌉, W = ⌊stones/2⌋
/// (the counts of play), connected chains included.
pub fn layer(n: usize, stones: usize) -> Vec<(Bits, Bits)> {
    let (nb, nw) = (stones.div_ceil(2), stones / 2);
    let all = if n == 64 { !0 } else { (1u64 << n) - 1 };
    let mut out = Vec::new();
    for black in subsets(n, nb) {
        for pattern in subsets(n - nb.min(n), nw) {
            out.push((Bits::from(black), Bits::from(deposit(pattern, all & !black))));
        }
    }
    out
}

/// The half turn of a stone set on a board of `n` cells: cell i ↦ n − 1 − i.
pub fn half_turn(n: usize, set: Bits) -> Bits {
    if n == 0 { 0 } else { set.reverse_bits() >> (128 - n) }
}

/// What the search did on one board.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BoardCount {
    pub cols: usize,
    pub rows: usize,
    /// Stone counts 0 ..= `stones` were searched (all, or up to the fewest with a witness).
    pub stones: usize,
    /// Reachable positions (B = W or B = W + 1, nobody connected).
    pub positions: u64,
    /// Of them won for the connector (the player not to move), by the exact table.
    pub won: u64,
    /// Won positions not searched: the half-turn image of a searched one (same verdict).
    pub images: u64,
    /// Searched positions in which the bounded H-search ([`FILTER`]) derived an edge VC.
    pub filtered: u64,
    /// Searched positions that went through exhaustive H-search.
    pub exhaustive: u64,
    /// Witnesses (images included).
    pub witnesses: u64,
}

/// One cell count searched: per board its counts, and the witnesses with the fewest stones.
#[derive(Clone, Debug)]
pub struct CellsResult {
    pub cells: usize,
    pub boards: Vec<BoardCount>,
    /// By board (columns ascending), then base-3 code.
    pub witnesses: Vec<Unproved>,
}

impl CellsResult {
    /// The stone count of the witnesses, if there are any.
    pub fn stones(&self) -> Option<usize> {
        self.witnesses.first().map(|u| (u.position.black | u.position.white).count_ones() as usize)
    }
}

/// The boards of `cells` cells, columns ascending (both sides ≤ 11).
pub fn boards_of(cells: usize) -> Vec<Board> {
    (1..=cells).filter(|&c| cells.is_multiple_of(c)).filter_map(|c| Board::new(c, cells / c).ok()).collect()
}

/// The verdict on one placement of stones.
enum Verdict {
    /// Not a position (a chain complete).
    Over,
    Lost,
    Image,
    Filtered,
    Proved,
    Witness,
}

/// Searches every board of `cells` cells (at most [`MAX_TABLE_CELLS`]), each up to the fewest
/// stones with a witness on a board before it.
pub fn search_cells(cells: usize, progress: &Progress) -> CellsResult {
    let mut result = CellsResult { cells, boards: Vec::new(), witnesses: Vec::new() };
    let mut best = usize::MAX;
    for board in boards_of(cells) {
        let (count, found) = search_board(&board, cells.min(best), progress);
        if let Some(u) = found.first() {
            let stones = (u.position.black | u.position.white).count_ones() as usize;
            if stones < best {
                result.witnesses.clear();
                best = stones;
            }
            result.witnesses.extend(found);
        }
        result.boards.push(count);
    }
    result
}

/// One board (at most [`MAX_TABLE_CELLS`] cells): stone counts 0 ..= `max_stones` ascending until
/// one has witnesses; the counts and those witnesses (by base-3 code). Progress per stone count.
pub fn search_board(board: &Board, max_stones: usize, progress: &Progress) -> (BoardCount, Vec<Unproved>) {
    let (cols, rows) = (board.cols, board.rows);
    progress.begin(&format!("hex witnesses {cols}x{rows}: stone counts"), Some(max_stones as u64 + 2));
    progress.status("exact table");
    let table = ExactTable::new(board);
    progress.advance(1);
    let mut count = BoardCount { cols, rows, ..BoardCount::default() };
    let mut found = Vec::new();
    for stones in 0..=max_stones.min(board.cells()) {
        progress.status(&format!("{stones} stones"));
        count.stones = stones;
        found = search_layer(&table, stones, &mut count);
        progress.advance(1);
        if !found.is_empty() {
            break;
        }
    }
    progress.note(&format!(
        "hex witnesses {cols}x{rows}: {} positions to {} stones, {} won for the connector, {} images, {} filtered, \
         {} exhaustive, {} witnesses",
        count.positions, count.stones, count.won, count.images, count.filtered, count.exhaustive, count.witnesses
    ));
    progress.end();
    (count, found)
}

/// The positions with `stones` stones of the table's board: counted into `count`; the witnesses
/// (with their half-turn images) in order of their code.
fn search_layer(table: &ExactTable, stones: usize, count: &mut BoardCount) -> Vec<Unproved> {
    let board = &table.board;
    let placements = layer(board.cells(), stones);
    let verdicts: Vec<Verdict> =
        placements.par_iter().map_init(Scratch::default, |scratch, &(b, w)| verdict(table, b, w, scratch)).collect();
    let mut found: Vec<(usize, Bits, Bits)> = Vec::new();
    for (&(b, w), v) in placements.iter().zip(&verdicts) {
        let add = |c: &mut u64, k: bool| *c += u64::from(k);
        add(&mut count.positions, !matches!(v, Verdict::Over));
        add(&mut count.won, !matches!(v, Verdict::Over | Verdict::Lost));
        add(&mut count.images, matches!(v, Verdict::Image));
        add(&mut count.filtered, matches!(v, Verdict::Filtered));
        add(&mut count.exhaustive, matches!(v, Verdict::Proved | Verdict::Witness));
        if matches!(v, Verdict::Witness) {
            let (ib, iw) = (half_turn(board.cells(), b), half_turn(board.cells(), w));
            found.push((table.code(b, w), b, w));
            if (ib, iw) != (b, w) {
                found.push((table.code(ib, iw), ib, iw));
            }
        }
    }
    count.witnesses += found.len() as u64;
    found.sort_unstable();
    found
        .into_iter()
        .map(|(_, black, white)| {
            let to_move = if black.count_ones() == white.count_ones() { Colour::Black } else { Colour::White };
            let position = Position { board: board.clone(), black, white, to_move };
            Unproved { position, connector: to_move.other() }
        })
        .collect()
}

/// The verdict on the stones `b`, `w`: over, lost for the connector, a half-turn image (the
/// representative is the one with the smaller code), settled by [`FILTER`], proved by exhaustive
/// H-search, or a witness.
fn verdict(table: &ExactTable, b: Bits, w: Bits, scratch: &mut Scratch) -> Verdict {
    let board = &table.board;
    if board.connects(Colour::Black, b) || board.connects(Colour::White, w) {
        return Verdict::Over;
    }
    let mover = if b.count_ones() == w.count_ones() { Colour::Black } else { Colour::White };
    let connector = mover.other();
    if table.winner(b, w, mover) != connector {
        return Verdict::Lost;
    }
    let n = board.cells();
    if table.code(half_turn(n, b), half_turn(n, w)) < table.code(b, w) {
        return Verdict::Image;
    }
    let (own, other) = if connector == Colour::Black { (b, w) } else { (w, b) };
    let pg = HexGraph::from_stones_unnamed(board, own, other, connector);
    if edge_vc(&pg.graph, FILTER, pg.edges, scratch) {
        return Verdict::Filtered;
    }
    if edge_vc(&pg.graph, Limits::EXHAUSTIVE, pg.edges, scratch) { Verdict::Proved } else { Verdict::Witness }
}

/// Whether H-search with `limits` derives a VC between the edge nodes (stopping at the first).
pub fn edge_vc(graph: &HexGraph, limits: Limits, edges: (usize, usize), scratch: &mut Scratch) -> bool {
    h_search_edge_answer(graph, limits, limits, edges, scratch).0.is_some()
}

/// The search of [`smallest_unproved`](super::seed_checks::smallest_unproved) made fast: cell
/// counts 1, 2, … up to `max_cells` until one has witnesses; every cell count's result.
pub fn smallest_witnesses(max_cells: usize, progress: &Progress) -> Vec<CellsResult> {
    let mut out = Vec::new();
    for cells in 1..=max_cells {
        let r = search_cells(cells, progress);
        let done = !r.witnesses.is_empty();
        out.push(r);
        if done {
            break;
        }
    }
    out
}
