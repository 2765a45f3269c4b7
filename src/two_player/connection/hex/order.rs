//! df-pn's move order (`dfpn.rs`): the electric-circuit evaluation that orders a
//! position's candidate moves ([`resistance_scores`]) and progressive widening
//! ([`window_len`]), which lets the mover's proof number look only at the first
//! of them. Neither decides anything: every value still comes from a decided
//! child, an H-search connection or the fill-in.

use super::board::{Bits, Board, Colour, cells_of};
use super::graph::HexGraph;

/// How many of the moves (their children's `numbers`, in move order) the mover's pn looks at
/// ([`Solver::window`](super::solver::Solver::window), `window` p in percent): up to the
/// (1 + ⌈p % · L⌉)-th of the L live ones (not refuted); every move while the window is off or
/// fewer than two are live (so that a second-best sibling exists).
pub(super) fn window_len(window: u32, numbers: &[(u32, u32)]) -> usize {
    let live = numbers.iter().filter(|&&(pn, _)| pn != 0).count();
    if window == 0 || live < 2 {
        return numbers.len();
    }
    let look = 1 + (live * window as usize).div_ceil(100);
    let mut seen = 0;
    for (i, &(pn, _)) in numbers.iter().enumerate() {
        seen += usize::from(pn != 0);
        if seen == look {
            return i + 1;
        }
    }
    numbers.len()
}

/// The electric-circuit evaluation of a position (Anshelevich; the move
/// order of the Benzene solvers): for each player a circuit from his first
/// edge (potential 1) to his second (potential 0) over his Hex graph (free
/// cells of resistance 1, his stones and edges of resistance 0, the
/// opponent's stones cut out), so a link between two free cells conducts 1,
/// a link from a free cell to his group or edge 2. A free cell's score is the
/// current through it as a share of the player's total, summed over both
/// players: the cells both need most come first. A heuristic for the order of
/// the search only (no value depends on it); nodes cut off from both edges
/// carry no current and are left out of the linear system.
pub(super) fn resistance_scores(board: &Board, black: Bits, white: Bits) -> Vec<f64> {
    let mut score = vec![0.0; board.cells()];
    for colour in [Colour::Black, Colour::White] {
        let (own, opp) = if colour == Colour::Black { (black, white) } else { (white, black) };
        let pg = HexGraph::from_stones_unnamed(board, own, opp, colour);
        let (g, (x, y)) = (&pg.graph, pg.edges);
        if x == y {
            continue;
        }
        let volt = potentials(g, x, y);
        let conductance = |u: usize, v: usize| if (g.occupied >> u | g.occupied >> v) & 1 == 1 { 2.0 } else { 1.0 };
        let total: f64 = cells_of(g.adjacency[x]).map(|v| conductance(x, v) * (1.0 - volt[v])).sum();
        if total <= 0.0 {
            continue;
        }
        for u in cells_of(g.free()) {
            let flow: f64 = cells_of(g.adjacency[u]).map(|v| conductance(u, v) * (volt[u] - volt[v]).abs()).sum();
            score[g.cells[u].trailing_zeros() as usize] += flow / 2.0 / total;
        }
    }
    score
}

/// The node potentials of the circuit of [`resistance_scores`] on the graph
/// `g` with `x` at 1 and `y` at 0 (0 for nodes cut off from both): the
/// Laplacian of the other nodes reachable from `x` or `y` is positive definite
/// (each of its parts touches `x` or `y`), so elimination needs no pivoting.
fn potentials(g: &HexGraph, x: usize, y: usize) -> Vec<f64> {
    let mut volt = vec![0.0; g.len()];
    volt[x] = 1.0;
    let mut reach: Bits = 1 << x | 1 << y;
    loop {
        let next = cells_of(reach).fold(reach, |r, v| r | g.adjacency[v]);
        if next == reach {
            break;
        }
        reach = next;
    }
    let inner: Vec<usize> = cells_of(reach & !(1 << x) & !(1 << y)).collect();
    let n = inner.len();
    let mut index = vec![usize::MAX; g.len()];
    for (i, &v) in inner.iter().enumerate() {
        index[v] = i;
    }
    // The augmented system, row i for node inner[i]: Σ_v c_uv (V_u − V_v) = 0.
    let mut a = vec![vec![0.0; n + 1]; n];
    for (i, &u) in inner.iter().enumerate() {
        for v in cells_of(g.adjacency[u]) {
            let c = if (g.occupied >> u | g.occupied >> v) & 1 == 1 { 2.0 } else { 1.0 };
            a[i][i] += c;
            if v == x {
                a[i][n] += c;
            } else if v != y {
                a[i][index[v]] -= c;
            }
        }
    }
    for k in 0..n {
        let (pivot, rest) = a.split_at_mut(k + 1);
        let row = &pivot[k];
        for other in rest.iter_mut() {
            let f = other[k] / row[k];
            if f != 0.0 {
                for (o, r) in other[k..].iter_mut().zip(&row[k..]) {
                    *o -= f * r;
                }
            }
        }
    }
    for k in (0..n).rev() {
        let s = a[k][n] - (k + 1..n).map(|j| a[k][j] * volt[inner[j]]).sum::<f64>();
        volt[inner[k]] = s / a[k][k];
    }
    volt
}
