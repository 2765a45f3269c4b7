//! Perfect play (Satz 5.2, Lehman): Short, moving second, wins iff the graph
//! has a *positive* subgraph (two edge-disjoint spanning trees, Def 5.1)
//! containing A and B.
//!
//! Decision: pack two edge-disjoint forests of maximum total size (matroid
//! union of the graphic matroid with itself, Edmonds' augmenting paths found
//! by breadth-first search), then try to add an extra edge e₀ = (A, B). A
//! positive subgraph S ∋ A, B exists iff e₀ lies in the span of the union
//! matroid: ⇐ the circuit C ∋ e₀ has |C| = 2(|V(C)| − 1) + 1 and C − e₀ is
//! two spanning trees of V(C); ⇒ S has rank 2(|V(S)| − 1) already. Polynomial.
//!
//! Strategy ([`TreeStrategy`]): the two trees of a minimal such C − e₀. When
//! Cut deletes an edge of one tree, Short marks an edge of the other tree that
//! reconnects it; otherwise Short marks a tree edge and drops one edge of the
//! cycle this closes in the other tree. Marked edges are contracted; both
//! trees stay edge-disjoint spanning trees of the contracted V(S), so A and B
//! stay connected and Short's marks join them at the latest after |V(S)| − 1 moves.

use super::board::Board;
use super::edge_set::EdgeSet;
use super::position::{Classes, Position};
use std::collections::VecDeque;

/// Edges placed into two forests (index 0 or 1), `None` for unplaced.
#[derive(Clone, Debug)]
pub struct Packing {
    nodes: usize,
    edges: Vec<(u32, u32)>,
    forest: Vec<Option<u8>>,
}

impl Packing {
    /// The empty packing of a multigraph (loops are never placed).
    pub fn new(nodes: usize, edges: Vec<(u32, u32)>) -> Packing {
        let forest = vec![None; edges.len()];
        Packing { nodes, edges, forest }
    }

    /// Places every edge it can: a maximum packing.
    pub fn maximise(&mut self) {
        for e in 0..self.edges.len() {
            self.insert(e);
        }
    }

    /// The edges of forest k.
    pub fn forest(&self, k: u8) -> Vec<usize> {
        (0..self.edges.len()).filter(|&e| self.forest[e] == Some(k)).collect()
    }

    /// The path of forest k from u to v (edge indices), or `None` if not joined.
    fn path(&self, k: u8, u: u32, v: u32) -> Option<Vec<usize>> {
        let mut adjacent: Vec<Vec<(u32, usize)>> = vec![Vec::new(); self.nodes];
        for (e, &(x, y)) in self.edges.iter().enumerate() {
            if self.forest[e] == Some(k) {
                adjacent[x as usize].push((y, e));
                adjacent[y as usize].push((x, e));
            }
        }
        let mut via: Vec<Option<(u32, usize)>> = vec![None; self.nodes];
        let mut seen = vec![false; self.nodes];
        let mut queue = VecDeque::from([u]);
        seen[u as usize] = true;
        while let Some(x) = queue.pop_front() {
            for &(y, e) in &adjacent[x as usize] {
                if !seen[y as usize] {
                    seen[y as usize] = true;
                    via[y as usize] = Some((x, e));
                    queue.push_back(y);
                }
            }
        }
        if !seen[v as usize] {
            return None;
        }
        let mut out = Vec::new();
        let mut x = v;
        while let Some((p, e)) = via[x as usize] {
            out.push(e);
            x = p;
        }
        Some(out)
    }

    /// Tries to place edge `s` by an augmenting path; returns whether it was placed.
    pub fn insert(&mut self, s: usize) -> bool {
        let (u, v) = self.edges[s];
        if u == v || self.forest[s].is_some() {
            return false;
        }
        // label[y] = (x, k): x enters forest k in place of y.
        let mut label: Vec<Option<(usize, u8)>> = vec![None; self.edges.len()];
        let mut queue = VecDeque::from([s]);
        let mut visited = vec![false; self.edges.len()];
        visited[s] = true;
        while let Some(x) = queue.pop_front() {
            let (xu, xv) = self.edges[x];
            for k in [0u8, 1] {
                if self.forest[x] == Some(k) {
                    continue;
                }
                match self.path(k, xu, xv) {
                    None => {
                        self.augment(x, k, &label);
                        return true;
                    }
                    Some(cycle) => {
                        for y in cycle {
                            if !visited[y] {
                                visited[y] = true;
                                label[y] = Some((x, k));
                                queue.push_back(y);
                            }
                        }
                    }
                }
            }
        }
        false
    }

    fn augment(&mut self, last: usize, k: u8, label: &[Option<(usize, u8)>]) {
        let (mut x, mut k) = (last, k);
        loop {
            self.forest[x] = Some(k);
            match label[x] {
                Some((parent, into)) => {
                    x = parent;
                    k = into;
                }
                None => return,
            }
        }
    }
}

/// Lehman's criterion: whether Short, moving second, wins the switching game
/// on `edges` between `a` and `b`.
pub fn short_wins_second(nodes: usize, edges: &[(u32, u32)], a: u32, b: u32) -> bool {
    let mut p = Packing::new(nodes, edges.iter().copied().chain([(a, b)]).collect());
    for e in 0..edges.len() {
        p.insert(e);
    }
    !p.insert(edges.len())
}

/// Two edge-disjoint trees on a common node set containing A and B (indices
/// into `edges`), if Short wins moving second.
pub fn two_trees(nodes: usize, edges: &[(u32, u32)], a: u32, b: u32) -> Option<(Vec<usize>, Vec<usize>)> {
    if !short_wins_second(nodes, edges, a, b) {
        return None;
    }
    let mut keep: Vec<usize> = (0..edges.len()).collect();
    let mut i = 0;
    while i < keep.len() {
        let trial: Vec<(u32, u32)> = keep.iter().enumerate().filter(|&(j, _)| j != i).map(|(_, &e)| edges[e]).collect();
        if short_wins_second(nodes, &trial, a, b) {
            keep.remove(i);
        } else {
            i += 1;
        }
    }
    let mut p = Packing::new(nodes, keep.iter().map(|&e| edges[e]).collect());
    p.maximise();
    let to_board = |f: Vec<usize>| f.into_iter().map(|j| keep[j]).collect::<Vec<usize>>();
    Some((to_board(p.forest(0)), to_board(p.forest(1))))
}

/// Short's tree strategy on a board (Cut moves first).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TreeStrategy {
    pub trees: [EdgeSet; 2],
}

impl TreeStrategy {
    /// The strategy from `pos` (Cut to move) on the graph with `pos`'s marked
    /// edges contracted and deleted edges removed, if Short wins moving second there.
    pub fn new(board: &Board, pos: &Position) -> Option<TreeStrategy> {
        let mut merged = pos.marked_classes(board);
        let free = pos.free_edges(board);
        let local: Vec<(u32, u32)> = free
            .iter()
            .map(|&e| {
                let (u, v) = board.edges()[e];
                (merged.find(u), merged.find(v))
            })
            .collect();
        let (a, b) = (merged.find(board.a()), merged.find(board.b()));
        let (t0, t1) = two_trees(board.nodes(), &local, a, b)?;
        let set = |t: Vec<usize>| {
            let mut s = EdgeSet::empty(board.edges().len());
            t.into_iter().for_each(|j| s.insert(free[j]));
            s
        };
        Some(TreeStrategy { trees: [set(t0), set(t1)] })
    }

    /// Short moving first: the first edge after which the strategy exists, and the strategy.
    pub fn opening(board: &Board) -> Option<(usize, TreeStrategy)> {
        let start = Position::start(board, super::position::Player::Short);
        (0..board.edges().len()).find_map(|e| TreeStrategy::new(board, &start.play(e)).map(|s| (e, s)))
    }

    /// Short's answer to Cut's deletion of `cut` in `pos` (Short to move, the
    /// deletion already played); updates the trees. `None` if the trees are exhausted.
    pub fn answer(&mut self, board: &Board, pos: &Position, cut: usize) -> Option<usize> {
        let mut merged = pos.marked_classes(board);
        let ends = |e: usize, m: &mut Classes| {
            let (u, v) = board.edges()[e];
            (m.find(u), m.find(v))
        };
        let hit = (0..2).find(|&k| self.trees[k].contains(cut));
        let mark = match hit {
            Some(k) => {
                self.trees[k].remove(cut);
                let mut split = merged.clone();
                for e in self.trees[k].iter() {
                    let (u, v) = ends(e, &mut merged);
                    split.union(u, v);
                }
                let f = self.trees[1 - k].iter().find(|&f| {
                    let (u, v) = board.edges()[f];
                    split.find(u) != split.find(v)
                })?;
                self.trees[1 - k].remove(f);
                self.trees[k].insert(f);
                f
            }
            None => self.trees[0].iter().next()?,
        };
        // Contract `mark`: it leaves tree 0 or 1; the other tree closes a cycle, drop one edge of it.
        let owner = (0..2).find(|&k| self.trees[k].contains(mark)).expect("the mark is a tree edge");
        self.trees[owner].remove(mark);
        let other = 1 - owner;
        let (mu, mv) = ends(mark, &mut merged);
        let nodes: Vec<(u32, u32)> = board.edges().to_vec();
        let list: Vec<usize> = self.trees[other].iter().collect();
        let local: Vec<(u32, u32)> = list
            .iter()
            .map(|&e| {
                let (u, v) = nodes[e];
                (merged.find(u), merged.find(v))
            })
            .collect();
        let mut packing = Packing::new(board.nodes(), local);
        packing.forest = vec![Some(0); list.len()];
        if let Some(&drop) = packing.path(0, mu, mv).as_ref().and_then(|cycle| cycle.first()) {
            self.trees[other].remove(list[drop]);
        }
        Some(mark)
    }
}
