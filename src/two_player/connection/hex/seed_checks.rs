//! The statements of seed 004 checked by computation (`../shared/reference/seed004-hex.md` §9):
//! soundness of H-search (Satz 4.1), AV₊ never needed (Satz 5.4), DVLS against
//! H-search (Kor 6.11), and the smallest board positions won for the connecting
//! player without an edge-to-edge VC (the open question §9.16 of Satz 4.6).

use super::board::{Bits, Board, Colour, cells_of};
use super::dvls::{dvls_exists, vvls_exists};
use super::graph::HexGraph;
use super::hsearch::{Limits, h_search};
use super::plain::{board_winner, graph_connects};
use super::position::Position;
/// The project's one deterministic generator (splitmix64), shared with play and Monte-Carlo.
pub use crate::search::play::Rng;

/// Counts of a soundness run: every derived VC (SC) checked by exact play on its carrier.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Soundness {
    pub positions: usize,
    pub vcs: usize,
    pub scs: usize,
    pub unsound: usize,
}

/// Satz 4.1 on one graph: every VC holds with the opponent moving first, every
/// SC with the own player moving first, playing only on the carrier.
pub fn soundness_on_graph(graph: &HexGraph, limits: Limits, into: &mut Soundness) {
    let found = h_search(graph, limits);
    for (semi, own_first) in [(false, false), (true, true)] {
        for (x, y, c) in found.all(semi) {
            if semi {
                into.scs += 1
            } else {
                into.vcs += 1
            }
            if !graph_connects(graph, x, y, c, own_first) {
                into.unsound += 1;
            }
        }
    }
}

/// Satz 4.1 on positions: both players' graphs of each.
pub fn soundness_on_positions(positions: &[Position], limits: Limits) -> Soundness {
    let mut s = Soundness::default();
    for p in positions {
        s.positions += 1;
        for colour in [Colour::Black, Colour::White] {
            let pg = HexGraph::from_position(p, colour);
            soundness_on_graph(&pg.graph, limits, &mut s);
        }
    }
    s
}

/// Every position of `board` reachable in play (stone counts B = W or B = W + 1,
/// no winner yet), in order of the base-3 code.
pub fn all_positions(board: &Board) -> Vec<Position> {
    let n = board.cells();
    let mut out = Vec::new();
    for code in 0..3u64.pow(n as u32) {
        let (mut black, mut white, mut rest) = (0 as Bits, 0 as Bits, code);
        for i in 0..n {
            match rest % 3 {
                1 => black |= 1 << i,
                2 => white |= 1 << i,
                _ => {}
            }
            rest /= 3;
        }
        if let Some(p) = legal_position(board, black, white) {
            out.push(p);
        }
    }
    out
}

/// The position with these stones if play could reach it and nobody has won.
fn legal_position(board: &Board, black: Bits, white: Bits) -> Option<Position> {
    let (b, w) = (black.count_ones(), white.count_ones());
    let to_move = if b == w {
        Colour::Black
    } else if b == w + 1 {
        Colour::White
    } else {
        return None;
    };
    let p = Position { board: board.clone(), black, white, to_move };
    p.winner().is_none().then_some(p)
}

/// `count` random reachable positions with `stones` stones on `board`.
pub fn random_positions(board: &Board, stones: usize, count: usize, rng: &mut Rng) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let (mut black, mut white) = (0 as Bits, 0 as Bits);
        for k in 0..stones.min(board.cells()) {
            let free: Vec<usize> = cells_of(board.all() & !(black | white)).collect();
            let c = free[rng.below(free.len() as u64) as usize];
            if k % 2 == 0 { black |= 1 << c } else { white |= 1 << c }
        }
        out.extend(legal_position(board, black, white));
    }
    out
}

/// A random Hex graph: `n` nodes, the first `occupied` of them occupied (never
/// adjacent to each other), each other pair an edge with probability `p_percent`.
pub fn random_graph(n: usize, occupied: usize, p_percent: u64, rng: &mut Rng) -> HexGraph {
    let names: Vec<String> = (0..n).map(|i| format!("v{i}")).collect();
    let refs: Vec<&str> = names.iter().map(String::as_str).collect();
    let mut g = HexGraph::from_names(&refs, &refs[..occupied], &[]).expect("names are distinct");
    for a in 0..n {
        for b in a + 1..n {
            if b >= occupied && rng.below(100) < p_percent {
                g.add_edge(a, b).expect("not two occupied nodes");
            }
        }
    }
    g
}

/// Satz 5.4 on one graph: exhaustive H-search with and without AV₊ keeps the
/// same minimal VC carriers for every pair.
pub fn av_plus_unneeded(graph: &HexGraph) -> bool {
    let with = h_search(graph, Limits::EXHAUSTIVE);
    let without = h_search(graph, Limits { av_plus: false, ..Limits::EXHAUSTIVE });
    let sorted = |mut v: Vec<(usize, usize, Bits)>| {
        v.sort_unstable();
        v
    };
    sorted(with.all(false)) == sorted(without.all(false))
}

/// Kor 6.11 on one graph: for every pair x, y such that no occupied node other
/// than x and y exists (the DVLS recursion assumes all other cells free, seed
/// §6.5), "H-search derives a VC" equals "a DVLS exists". Returns the number of
/// pairs compared and of disagreements.
pub fn dvls_agrees(graph: &HexGraph) -> (usize, usize) {
    let found = h_search(graph, Limits::EXHAUSTIVE);
    let mut pairs = (0, 0);
    for x in 0..graph.len() {
        for y in x + 1..graph.len() {
            if graph.occupied & !(1 << x | 1 << y) != 0 {
                continue;
            }
            pairs.0 += 1;
            if found.vcs(x, y).is_empty() == dvls_exists(graph, x, y, graph.free()) {
                pairs.1 += 1;
            }
        }
    }
    pairs
}

/// Def 7.1 against Def 6.8 on one graph (seed l. 728: every VVLS is a DVLS), over the pairs whose
/// only occupied nodes are the pair itself (as [`dvls_agrees`]): (pairs, pairs with a VVLS, pairs
/// with a VVLS and no DVLS).
pub fn vvls_within_dvls(graph: &HexGraph) -> (usize, usize, usize) {
    let mut out = (0, 0, 0);
    for x in 0..graph.len() {
        for y in x + 1..graph.len() {
            if graph.occupied & !(1 << x | 1 << y) != 0 {
                continue;
            }
            out.0 += 1;
            if vvls_exists(graph, x, y, graph.free()) {
                out.1 += 1;
                out.2 += usize::from(!dvls_exists(graph, x, y, graph.free()));
            }
        }
    }
    out
}

/// A board position won for the player to connect, the opponent to move, in
/// which exhaustive H-search derives no edge-to-edge VC (HEX ∖ HEXY, §9.16).
#[derive(Clone, Debug)]
pub struct Unproved {
    pub position: Position,
    pub connector: Colour,
}

/// The witnesses with the fewest cells (boards in order of cells, then columns),
/// and among them the fewest stones; searches boards up to `max_cells` cells.
pub fn smallest_unproved(max_cells: usize) -> Vec<Unproved> {
    for cells in 1..=max_cells {
        let boards: Vec<Board> =
            (1..=cells).filter(|c| cells % c == 0).filter_map(|c| Board::new(c, cells / c).ok()).collect();
        let mut found: Vec<Unproved> = Vec::new();
        let mut best_stones = u32::MAX;
        for board in &boards {
            for p in all_positions(board) {
                let stones = (p.black | p.white).count_ones();
                if stones > best_stones {
                    continue;
                }
                let connector = p.to_move.other();
                if board_winner(&p) != connector {
                    continue;
                }
                let pg = HexGraph::from_position(&p, connector);
                let (x, y) = pg.edges;
                if h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(x, y).is_empty() {
                    if stones < best_stones {
                        found.clear();
                        best_stones = stones;
                    }
                    found.push(Unproved { position: p, connector });
                }
            }
        }
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// Kor 6.11 on real boards: the edge pair of one player on one empty board, decided by exhaustive
/// H-search and by the DVLS recursion (Alg 6.13, `dvls.rs`). An empty board's graph has only the
/// two edge nodes occupied, which is Alg 6.13's precondition, so Kor 6.11 says the two agree.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EdgeDvls {
    /// Columns × rows.
    pub board: String,
    /// The player whose edges are asked about (`black`, `white`).
    pub player: &'static str,
    /// Exhaustive H-search derives an edge-to-edge VC.
    pub h_search: bool,
    /// The DVLS recursion finds an edge-to-edge DVLS over all free cells.
    pub dvls: bool,
}

/// [`EdgeDvls`] for every empty board with both sides ≥ 2 and at most `max_cells` cells (by cells,
/// then columns) and both players. The DVLS recursion is exponential in the free cells: keep
/// `max_cells` at 12 or below.
pub fn dvls_on_empty_boards(max_cells: usize) -> Vec<EdgeDvls> {
    let mut out = Vec::new();
    for board in empty_boards(max_cells) {
        let name = format!("{}×{}", board.cols, board.rows);
        let position = Position::empty(board);
        for player in [Colour::Black, Colour::White] {
            let pg = HexGraph::from_position(&position, player);
            let (x, y) = pg.edges;
            out.push(EdgeDvls {
                board: name.clone(),
                player: player.name(),
                h_search: !h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(x, y).is_empty(),
                dvls: dvls_exists(&pg.graph, x, y, pg.graph.free()),
            });
        }
    }
    out
}

/// The boards with both sides ≥ 2 and 4 to `max_cells` cells, by cells, then columns.
pub fn empty_boards(max_cells: usize) -> Vec<Board> {
    (4..=max_cells)
        .flat_map(|cells| (2..=cells / 2).filter(move |c| cells % c == 0).map(move |c| (c, cells / c)))
        .filter_map(|(cols, rows)| Board::new(cols, rows).ok())
        .collect()
}
