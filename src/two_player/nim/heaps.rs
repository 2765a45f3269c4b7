//! Heap games: one-pile subtraction games with misère (μ) and normal (ν)
//! outcomes and Grundy values γ (seed003 §3.1, Satz C1G), and Nim with every
//! move to a chosen value (Satz C1L, exercise C132).

use crate::graph::WinLossDraw;
use crate::graph::explicit::ExplicitGraph;
use crate::graph::grundy::{HeapMove, HeapRule, graph_values, heap_values, sum_moves};

/// Table of a one-pile subtraction game for x = 0..=upto.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SubtractionTable {
    /// μ(x): 1 if the mover wins under misère play (whoever cannot move wins).
    pub misere: Vec<u8>,
    /// ν(x): 1 if the mover wins under normal play.
    pub normal: Vec<u8>,
    /// γ(x): Sprague-Grundy value.
    pub grundy: Vec<u32>,
}

/// Solves the subtraction game with move set `set` on piles 0..=upto: μ and ν
/// by retrograde analysis of the pile graph (sinks lost resp. won for the
/// mover), γ by mex over the same graph.
pub fn subtraction_table(set: &[usize], upto: usize) -> SubtractionTable {
    let edges: Vec<(usize, usize)> =
        (0..=upto).flat_map(|x| set.iter().filter(move |&&s| s >= 1 && s <= x).map(move |&s| (x, x - s))).collect();
    let wins = |sink: WinLossDraw| {
        let graph = ExplicitGraph::from_edges(upto + 1, &edges, sink);
        let solution = graph.solve();
        (0..=upto).map(|x| solution.get(x).is_some_and(WinLossDraw::is_win) as u8).collect::<Vec<u8>>()
    };
    let graph = ExplicitGraph::from_edges(upto + 1, &edges, WinLossDraw::Loss(0));
    SubtractionTable {
        misere: wins(WinLossDraw::Win(0)),
        normal: wins(WinLossDraw::Loss(0)),
        grundy: graph_values(&graph).expect("a subtraction graph is acyclic"),
    }
}

/// Nim: value ⊕x_i and every move to a position of value `target`.
pub fn nim_moves(piles: &[usize], target: u32) -> (u32, Vec<HeapMove>) {
    let largest = piles.iter().copied().max().unwrap_or(0);
    let g = heap_values(&HeapRule::Nim, largest);
    sum_moves(&HeapRule::Nim, piles, &g, target)
}

/// The moves of Satz C1L (exercise C132): with z = γ ⊕ n and ℓ its top bit,
/// reduce each pile r with bit ℓ set to x_r ⊕ z. Returns (pile, new size).
pub fn bouton_moves(piles: &[usize], target: u32) -> Vec<(usize, usize)> {
    let gamma = piles.iter().fold(0u32, |a, &x| a ^ x as u32);
    let z = gamma ^ target;
    if z == 0 {
        return Vec::new();
    }
    let top = 31 - z.leading_zeros();
    piles
        .iter()
        .enumerate()
        .filter(|(_, x)| (**x as u32) >> top & 1 == 1)
        .map(|(r, &x)| (r, (x as u32 ^ z) as usize))
        .collect()
}
