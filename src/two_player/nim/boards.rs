//! Chomp (seed003 C217, C225: eat an element with everything above it; the
//! poison element 0 is never eaten, which is normal play on P ∖ {0}) as an
//! explicit graph, and the result type of the solved board games (Cram is
//! solved by regions in [`super::cram`]).

use crate::error::{Result, invalid};
use crate::graph::explicit::{ExplicitGraph, Node};
use crate::graph::grundy::graph_values;

/// A solved impartial game: γ of the start and the winning first moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// Grundy value of the start position (0: the player to move loses).
    pub grundy: u32,
    /// The first moves to a position of value 0.
    pub winning_moves: Vec<M>,
    /// Number of positions reachable from the start.
    pub positions: usize,
}

/// Solves an impartial game (`name`) given by its start and its moves
/// (labelled), through the common explicit graph and mex, within the memory
/// budget ([`crate::memory::budget_bytes`]; a graph that outgrows it is refused).
fn solve_impartial<S: Clone + Eq + std::hash::Hash, M: Clone>(
    name: &str,
    start: S,
    moves: impl Fn(&S) -> Vec<(M, S)>,
) -> Result<Solved<M>> {
    let budget = crate::memory::budget_bytes();
    let graph = ExplicitGraph::explore_within(
        [start.clone()],
        |s| Node::Moves(moves(s).into_iter().map(|(_, t)| t).collect()),
        budget,
    )
    .map_err(|n| {
        crate::error::Error::TooLarge(format!(
            "{name}: the game graph outgrew the memory budget ({}) after {n} positions; \
             raise it with --max-memory GIB or choose a smaller board",
            crate::memory::human_bytes(budget)
        ))
    })?;
    let g = graph_values(&graph).expect("the game is finite and acyclic");
    let value = |s: &S| g[graph.index_of(s).expect("reached")];
    let winning_moves = moves(&start).into_iter().filter(|(_, t)| value(t) == 0).map(|(m, _)| m).collect();
    Ok(Solved { grundy: value(&start), winning_moves, positions: graph.len() })
}

/// A finite poset for Chomp: `up[a]` is the bit set of elements ≥ a (a included);
/// element 0 is the poison (the least element).
#[derive(Clone, Debug)]
pub struct Poset {
    up: Vec<u64>,
}

impl Poset {
    /// The m × n board {0..m−1} × {0..n−1} (m columns, n rows) with the product
    /// order; element (i, j) has number j·m + i, the poison is (0, 0).
    pub fn rectangle(m: usize, n: usize) -> Result<Poset> {
        if m * n > 64 || m == 0 || n == 0 {
            return Err(invalid(format!("Chomp board {m}×{n}: accepted are boards with 1 to 64 squares")));
        }
        let id = |i: usize, j: usize| j * m + i;
        let mut up = vec![0u64; m * n];
        for (i, j) in (0..m).flat_map(|i| (0..n).map(move |j| (i, j))) {
            for (k, l) in (i..m).flat_map(|k| (j..n).map(move |l| (k, l))) {
                up[id(i, j)] |= 1 << id(k, l);
            }
        }
        Ok(Poset { up })
    }

    /// A chain 0 < 1 < … < n−1 (Chomp on it is Nim(n−1), seed003 ≈C225).
    pub fn chain(n: usize) -> Result<Poset> {
        if n == 0 || n > 64 {
            return Err(invalid("a chain for Chomp needs 1 to 64 elements"));
        }
        Ok(Poset { up: (0..n).map(|a| (!0u64 >> (64 - n)) & !((1u64 << a) - 1)).collect() })
    }

    /// A poset from its order relation `less(a, b)` (a < b), elements 0..n; 0 must be least.
    pub fn from_relation(n: usize, less: impl Fn(usize, usize) -> bool) -> Result<Poset> {
        if n == 0 || n > 64 || (1..n).any(|b| !less(0, b)) {
            return Err(invalid("a Chomp poset needs 1 to 64 elements with 0 below all others"));
        }
        Ok(Poset { up: (0..n).map(|a| (0..n).filter(|&b| a == b || less(a, b)).fold(0, |m, b| m | 1 << b)).collect() })
    }

    fn all(&self) -> u64 {
        !0u64 >> (64 - self.up.len())
    }
}

/// Chomp on a poset: a move eats an element a ≠ 0 still present, with all
/// elements above it. Moves are reported as element numbers.
pub fn chomp(poset: &Poset) -> Result<Solved<usize>> {
    solve_impartial("Chomp", poset.all(), |&left| {
        (1..poset.up.len()).filter(|&a| left >> a & 1 == 1).map(|a| (a, left & !poset.up[a])).collect()
    })
}

/// Chomp on the m × n board, winning moves as (column, row).
pub fn chomp_rectangle(m: usize, n: usize) -> Result<Solved<(usize, usize)>> {
    let solved = chomp(&Poset::rectangle(m, n)?)?;
    let moves = solved.winning_moves.iter().map(|&a| (a % m, a / m)).collect();
    Ok(Solved { grundy: solved.grundy, winning_moves: moves, positions: solved.positions })
}
