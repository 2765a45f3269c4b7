//! Incremental H-search for df-pn: the connections that bounded H-search
//! derived for a player at a position are carried to the positions two plies
//! below it (the same player's H-search, one stone of each player and the
//! fill-in later), where they enter the run as seeds
//! ([`super::hsearch::h_search_edge_seeded`]).
//!
//! **Which connections stay valid.** Let P be the player of the graph, G his
//! graph at the earlier position and G′ at the later one, whose stones contain
//! the earlier ones; D = the cells free before and occupied now (P's stones
//! merge into P's occupied nodes, the opponent's delete their nodes). Every
//! connection H-search derived on G is real (Satz 4.1): a VC (x, A, y) is a
//! strategy of P that joins x and y playing only in A with the opponent to
//! move, an SC the same with P to move. If A ∩ D = ∅, it is a real connection
//! of the same kind in G′ between the nodes x′ ∋ x and y′ ∋ y, when neither
//! end was deleted and x′ ≠ y′:
//! - the opponent's new stones lie outside A, so they are moves that the
//!   strategy ignores (it never needed a cell outside A);
//! - P's new stones lie outside A too, so every cell of A is still free; the
//!   strategy's chain from x to y is still built, and x′, y′ contain x, y (an
//!   own stone merges with its occupied neighbours, a free end taken by P
//!   becomes part of x′): joining x and y joins x′ and y′ (seed §2.2, a node
//!   joins where its own stones do).
//!
//! A connection whose carrier meets D or whose end was deleted is dropped
//! (its strategy may no longer exist; when in doubt, recomputed). Every seed
//! is thus real in G′, and the rules applied to real connections give real
//! ones, so the seeded run is as sound as a run from the base case. The new
//! base edges (new adjacency around P's new stones) are derived as usual;
//! seeds ending at a node that absorbed a new stone of P go through the rules
//! again (they meet in a new occupied middle node, or two ends merged); the
//! other seeds were already combined with each other at the earlier position.
//!
//! Nothing here is trusted by the proof checker (`check.rs`): it replays every
//! carrier of a proof by its own search. The solver's side (which result is
//! seeded from where) is `Solver::threats_reusing` in `dfpn.rs`.

use super::board::{Bits, Colour, cells_of};
use super::graph::PlayerGraph;
use super::hsearch::{Connections, Seed};
use crate::search::fasthash::FastBuild;
use std::collections::HashMap;

/// Kept results by position key (the solver's table key).
type KeptMap = HashMap<(Bits, Bits), Kept, FastBuild>;

/// One player's H-search result at a position, kept for the positions below.
pub(super) struct Kept {
    colour: Colour,
    /// The player's and the opponent's stones (after fill-in).
    own: Bits,
    opp: Bits,
    /// The free cells in node order (free node i stands for `free_cells[i]`).
    free_cells: Vec<u8>,
    /// The board cells of the occupied nodes, in node order after the free ones.
    occupied_cells: Vec<Bits>,
    edges: (usize, usize),
    seeds: Vec<Seed>,
}

impl Kept {
    /// The connections `found` on the graph `pg` of `colour` with stones `own`, `opp`.
    pub(super) fn new(colour: Colour, own: Bits, opp: Bits, pg: &PlayerGraph, found: &Connections) -> Kept {
        let free_cells: Vec<u8> = cells_of(pg.graph.free()).map(|v| pg.graph.cells[v].trailing_zeros() as u8).collect();
        let occupied_cells = pg.graph.cells[free_cells.len()..].to_vec();
        Kept { colour, own, opp, free_cells, occupied_cells, edges: pg.edges, seeds: found.seeds() }
    }

    /// The kept connections that stay valid in the graph `pg` of the same
    /// player with stones `own` ⊇ the kept ones, `opp` ⊇ the kept ones (module
    /// doc), in `pg`'s nodes, and the nodes that absorbed a new stone of the
    /// player. `None` if the position does not lie below the kept one.
    pub(super) fn seeds_for(
        &self,
        colour: Colour,
        own: Bits,
        opp: Bits,
        pg: &PlayerGraph,
    ) -> Option<(Vec<Seed>, Bits)> {
        if colour != self.colour || self.own & !own != 0 || self.opp & !opp != 0 {
            return None;
        }
        let g = &pg.graph;
        let first_occupied = cells_of(g.free()).count();
        let holder = |cell: usize| (first_occupied..g.len()).find(|&v| g.cells[v] >> cell & 1 == 1);
        let new_own = own & !self.own;
        let touched = cells_of(new_own).filter_map(holder).fold(0, |m: Bits, v| m | 1 << v);
        // The old node → its node now (None: deleted).
        let mut map: Vec<Option<usize>> = Vec::with_capacity(self.free_cells.len() + self.occupied_cells.len());
        let mut removed: Bits = 0;
        for (i, &c) in self.free_cells.iter().enumerate() {
            let c = usize::from(c);
            map.push(if pg.node_of_cell[c] != usize::MAX {
                Some(pg.node_of_cell[c])
            } else {
                removed |= 1 << i;
                if new_own >> c & 1 == 1 { holder(c) } else { None }
            });
        }
        for (j, &cells) in self.occupied_cells.iter().enumerate() {
            let v = self.free_cells.len() + j;
            map.push(if v == self.edges.0 {
                Some(pg.edges.0)
            } else if v == self.edges.1 {
                Some(pg.edges.1)
            } else {
                holder(cells.trailing_zeros() as usize)
            });
        }
        let mut gone: Vec<u32> = cells_of(removed).map(|d| d as u32).collect();
        gone.reverse();
        let mut seeds = Vec::with_capacity(self.seeds.len());
        for &(vc, x, y, carrier) in &self.seeds {
            let (Some(x), Some(y)) = (map[x], map[y]) else { continue };
            if x == y || carrier & removed != 0 {
                continue;
            }
            // Free node i is node i − |{removed nodes below i}| now: squeeze the removed bits out.
            let carrier = gone.iter().fold(carrier, |a, &d| {
                let low = a & ((1 << d) - 1);
                low | (a ^ low) >> 1
            });
            seeds.push((vc, x, y, carrier));
        }
        Some((seeds, touched))
    }
}

/// Kept results by position key, the most recently used ones: two
/// generations, each holding up to `capacity`; a hit in the old one moves to
/// the new one, a full new generation becomes the old one (deterministic).
pub(super) struct KeptCache {
    new: KeptMap,
    old: KeptMap,
    capacity: usize,
}

impl KeptCache {
    /// An empty cache of two generations of `capacity` entries.
    pub(super) fn new(capacity: usize) -> KeptCache {
        KeptCache { new: KeptMap::default(), old: KeptMap::default(), capacity }
    }

    /// Keeps `kept` under the key `k`.
    pub(super) fn insert(&mut self, k: (Bits, Bits), kept: Kept) {
        if self.new.len() >= self.capacity {
            self.old = std::mem::take(&mut self.new);
        }
        self.new.insert(k, kept);
    }

    /// The result kept under `k`, if still there.
    pub(super) fn get(&mut self, k: (Bits, Bits)) -> Option<&Kept> {
        if !self.new.contains_key(&k) {
            let kept = self.old.remove(&k)?;
            self.insert(k, kept);
        }
        self.new.get(&k)
    }
}
