//! Direct-connecting local strategies (DVLS, Def 6.8 of seed 004), decided by
//! the deterministic form of Algorithm 6.13 (`../shared/reference/seed004-hex.md` §6.5):
//!
//! VC(x, y, S) ⟺ {x, y} ∈ E, or for every cell b ∈ S (the opponent's move) some
//! c ∈ S∖{b} and a partition (C¹, C²) of S∖{b, c} have VC(x, c, C¹) and VC(c, y, C²).
//!
//! By Kor 6.11 this holds for S = all free cells exactly when H-search (without
//! bounds) derives an x–y VC, on graphs whose only occupied nodes are x and y
//! (the state after §5.2's clique elimination). It is a second, independent
//! procedure: it never forms SCs or ORs carriers. Exponential; for ≤ ~12 free cells.
//! Beside it the forward-connecting LS of §7.1 (VVLS, Def 7.1), a special DVLS.

use super::board::{Bits, cells_of};
use super::graph::HexGraph;
use std::collections::HashMap;

/// Decides "an (x, y)-DVLS with carrier ⊆ `usable` exists" (free nodes only).
pub fn dvls_exists(graph: &HexGraph, x: usize, y: usize, usable: Bits) -> bool {
    let mut memo = HashMap::new();
    exists(graph, x, y, usable & graph.free() & !(1 << x | 1 << y), &mut memo)
}

fn exists(graph: &HexGraph, x: usize, y: usize, s: Bits, memo: &mut HashMap<(usize, usize, Bits), bool>) -> bool {
    if graph.adjacency[x] >> y & 1 == 1 {
        return true;
    }
    if s.count_ones() < 2 {
        return false;
    }
    let k = (x.min(y), x.max(y), s);
    if let Some(&v) = memo.get(&k) {
        return v;
    }
    let v = cells_of(s).all(|b| {
        cells_of(s & !(1 << b)).any(|c| {
            let rest = s & !(1 << b | 1 << c);
            subsets(rest).any(|c1| exists(graph, x, c, c1, memo) && exists(graph, c, y, rest & !c1, memo))
        })
    });
    memo.insert(k, v);
    v
}

/// Decides "an (x, y)-VVLS with carrier ⊆ `usable` exists" (free nodes only): a forward-connecting
/// LS (Def 7.1), whose every move is next to the path so far: {x, y} ∈ E, or for every cell b ∈ S
/// (the opponent's move) some c ∈ S∖{b} with {x, c} ∈ E and a (c, y)-VVLS over S∖{b, c}. The
/// deterministic form of the definition, as for [`dvls_exists`] (monotone in the carrier; "every
/// b is avoided by some son" is the empty intersection). Every VVLS is a DVLS (l. 728): its first
/// part (x, c) is the edge {x, c}, a DVLS without sons.
pub fn vvls_exists(graph: &HexGraph, x: usize, y: usize, usable: Bits) -> bool {
    let mut memo = HashMap::new();
    forward(graph, x, y, usable & graph.free() & !(1 << x | 1 << y), &mut memo)
}

fn forward(graph: &HexGraph, x: usize, y: usize, s: Bits, memo: &mut HashMap<(usize, Bits), bool>) -> bool {
    if graph.adjacency[x] >> y & 1 == 1 {
        return true;
    }
    if s.count_ones() < 2 {
        return false;
    }
    if let Some(&v) = memo.get(&(x, s)) {
        return v;
    }
    let v = cells_of(s).all(|b| {
        cells_of(s & !(1 << b) & graph.adjacency[x]).any(|c| forward(graph, c, y, s & !(1 << b | 1 << c), memo))
    });
    memo.insert((x, s), v);
    v
}

/// All subsets of `set`.
fn subsets(set: Bits) -> impl Iterator<Item = Bits> {
    let mut next = Some(0 as Bits);
    std::iter::from_fn(move || {
        let current = next?;
        next = if current == set { None } else { Some((current.wrapping_sub(set)) & set) };
        Some(current)
    })
}
