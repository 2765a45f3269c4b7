//! Hex graphs (Def 2.1 of seed 004): nodes, an undirected neighbourhood without
//! loops, and an occupation β: free or occupied by the own player; no edge joins
//! two occupied nodes. At most 128 nodes (a node set is a [`Bits`]).
//!
//! [`HexGraph::from_position`] builds the graph of a board position from one
//! player's view (`../shared/reference/seed004-hex.md` §2.1): adjacent own stones merged into one
//! node, opponent stones deleted with their edges, the player's two board edges
//! as occupied nodes (a group touching an edge merges with it).

use super::board::{Bits, Board, Colour, cells_of};
use super::position::Position;
use crate::error::{Result, invalid};

/// A Hex graph with named nodes; `cells[v]` are the board cells a node stands
/// for (empty for graphs not built from a board).
#[derive(Clone, Debug)]
pub struct HexGraph {
    pub adjacency: Vec<Bits>,
    pub occupied: Bits,
    pub names: Vec<String>,
    pub cells: Vec<Bits>,
}

/// The graph of a position from `colour`'s view with its two edge nodes.
#[derive(Clone, Debug)]
pub struct PlayerGraph {
    pub graph: HexGraph,
    /// The node of the first and of the second edge (equal if already connected).
    pub edges: (usize, usize),
    /// The node of each free board cell (`usize::MAX` for stones).
    pub node_of_cell: Vec<usize>,
}

impl HexGraph {
    /// A graph from named nodes, the occupied ones and edges by name; checks Def 2.1.
    pub fn from_names(names: &[&str], occupied: &[&str], edges: &[(&str, &str)]) -> Result<HexGraph> {
        if names.len() > 128 {
            return Err(invalid("a Hex graph has at most 128 nodes here"));
        }
        let index = |n: &str| names.iter().position(|m| *m == n).ok_or_else(|| invalid(format!("unknown node {n:?}")));
        let mut g = HexGraph {
            adjacency: vec![0; names.len()],
            occupied: 0,
            names: names.iter().map(|s| s.to_string()).collect(),
            cells: vec![0; names.len()],
        };
        for n in occupied {
            g.occupied |= 1 << index(n)?;
        }
        for (a, b) in edges {
            let (a, b) = (index(a)?, index(b)?);
            g.add_edge(a, b)?;
        }
        Ok(g)
    }

    /// Adds {a, b}; refuses loops and edges between two occupied nodes.
    pub fn add_edge(&mut self, a: usize, b: usize) -> Result<()> {
        if a == b || (self.occupied >> a & 1 == 1 && self.occupied >> b & 1 == 1) {
            return Err(invalid(format!("edge {}–{} violates Def 2.1", self.names[a], self.names[b])));
        }
        self.adjacency[a] |= 1 << b;
        self.adjacency[b] |= 1 << a;
        Ok(())
    }

    /// The number of nodes.
    pub fn len(&self) -> usize {
        self.adjacency.len()
    }

    /// Whether the graph has no nodes.
    pub fn is_empty(&self) -> bool {
        self.adjacency.is_empty()
    }

    /// All nodes.
    pub fn all(&self) -> Bits {
        if self.len() == 128 { !0 } else { (1u128 << self.len()) - 1 }
    }

    /// The free nodes.
    pub fn free(&self) -> Bits {
        self.all() & !self.occupied
    }

    /// The number of edges.
    pub fn edge_count(&self) -> usize {
        self.adjacency.iter().map(|a| a.count_ones() as usize).sum::<usize>() / 2
    }

    /// Names of a node set, comma-separated.
    pub fn set_names(&self, set: Bits) -> String {
        cells_of(set).map(|v| self.names[v].clone()).collect::<Vec<_>>().join(",")
    }

    /// The board cells of a node set.
    pub fn board_cells(&self, set: Bits) -> Bits {
        cells_of(set).fold(0, |m, v| m | self.cells[v])
    }

    /// Whether the own stones `own` (plus the occupied nodes) join `x` and `y`
    /// (play on Hex graphs, seed §2.2: x and y themselves need not be occupied).
    pub fn connected(&self, x: usize, y: usize, own: Bits) -> bool {
        if self.adjacency[x] >> y & 1 == 1 || x == y {
            return true;
        }
        let within = own | self.occupied;
        let mut reached: Bits = 1 << x;
        let mut frontier = reached;
        while frontier != 0 {
            let next = cells_of(frontier).fold(0, |m, v| m | self.adjacency[v]);
            if next >> y & 1 == 1 {
                return true;
            }
            frontier = next & within & !reached;
            reached |= frontier;
        }
        false
    }

    /// The graph of `position` from `colour`'s view (Def 2.1 and §2.1 of the notes).
    pub fn from_position(position: &Position, colour: Colour) -> PlayerGraph {
        let opponent = position.stones(colour.other());
        HexGraph::from_stones(&position.board, position.stones(colour), opponent, colour)
    }

    /// The graph of the stones `own` (of `colour`) and `opponent` on `board`.
    pub fn from_stones(board: &Board, own: Bits, opponent: Bits, colour: Colour) -> PlayerGraph {
        HexGraph::build(board, own, opponent, colour, true)
    }

    /// [`HexGraph::from_stones`] with empty node names (the solver's H-search
    /// reads no names; this saves their allocation at every position).
    pub fn from_stones_unnamed(board: &Board, own: Bits, opponent: Bits, colour: Colour) -> PlayerGraph {
        HexGraph::build(board, own, opponent, colour, false)
    }

    fn build(board: &Board, own: Bits, opponent: Bits, colour: Colour, named: bool) -> PlayerGraph {
        let n = board.cells();
        let free = board.all() & !(own | opponent);
        // Components of own stones, each with the edges it touches.
        let first = board.first_edge(colour);
        let second = board.second_edge(colour);
        let mut component_of = vec![usize::MAX; n];
        let mut groups: Vec<Bits> = Vec::new();
        for start in cells_of(own) {
            if component_of[start] == usize::MAX {
                let group = board.flood(1 << start, own);
                for c in cells_of(group) {
                    component_of[c] = groups.len();
                }
                groups.push(group);
            }
        }
        // Nodes: free cells, then one node per edge (with the groups touching it), then other groups.
        let mut g = HexGraph { adjacency: Vec::new(), occupied: 0, names: Vec::new(), cells: Vec::new() };
        let mut node_of_cell = vec![usize::MAX; n];
        for c in cells_of(free) {
            node_of_cell[c] = g.names.len();
            g.names.push(if named { board.cell_name(c) } else { String::new() });
            g.cells.push(1 << c);
        }
        let mut node_of_group = vec![usize::MAX; groups.len()];
        let edge_node = |g: &mut HexGraph, border: Bits, name: &str, node_of_group: &mut Vec<usize>| {
            let v = g.names.len();
            g.names.push(name.to_string());
            g.cells.push(0);
            for (k, group) in groups.iter().enumerate() {
                if group & border != 0 && node_of_group[k] == usize::MAX {
                    node_of_group[k] = v;
                    g.cells[v] |= group;
                }
            }
            v
        };
        let x = edge_node(&mut g, first, "edge1", &mut node_of_group);
        let touches_x: Vec<bool> = node_of_group.iter().map(|&v| v == x).collect();
        let y = if groups.iter().enumerate().any(|(k, grp)| touches_x[k] && grp & second != 0) {
            for (k, group) in groups.iter().enumerate() {
                if group & second != 0 && node_of_group[k] == usize::MAX {
                    node_of_group[k] = x;
                    g.cells[x] |= group;
                }
            }
            x
        } else {
            edge_node(&mut g, second, "edge2", &mut node_of_group)
        };
        for (k, group) in groups.iter().enumerate() {
            if node_of_group[k] == usize::MAX {
                node_of_group[k] = g.names.len();
                g.names.push(if named { board.set_names(*group) } else { String::new() });
                g.cells.push(*group);
            }
        }
        g.adjacency = vec![0; g.names.len()];
        for v in x..g.names.len() {
            g.occupied |= 1 << v;
        }
        let mut neighbour_cells = |v: usize, cells: Bits| {
            for c in cells_of(cells & free) {
                g.adjacency[v] |= 1 << node_of_cell[c];
                g.adjacency[node_of_cell[c]] |= 1 << v;
            }
        };
        for c in cells_of(free) {
            neighbour_cells(node_of_cell[c], board.neighbours(c));
        }
        neighbour_cells(x, first);
        neighbour_cells(y, second);
        for (k, group) in groups.iter().enumerate() {
            let around = cells_of(*group).fold(0, |m, c| m | board.neighbours(c));
            neighbour_cells(node_of_group[k], around);
        }
        PlayerGraph { graph: g, edges: (x, y), node_of_cell }
    }
}

/// The graph G of Satz 4.6 / Fig 4, rebuilt from the proof text
/// (`../shared/reference/seed004-hex.md` §4.4): own (White) nodes x, y, t, s, t′, s′; 18 free cells;
/// 32 edges. Returns the graph and the nodes x, y.
pub fn figure_4() -> (HexGraph, usize, usize) {
    let names = [
        "x", "y", "t", "s", "t'", "s'", "a", "b", "c", "d", "e", "f", "g", "h", "i", "a'", "b'", "c'", "d'", "e'",
        "f'", "g'", "h'", "i'",
    ];
    let upper = [
        ("x", "a"),
        ("x", "b"),
        ("a", "t"),
        ("b", "t"),
        ("t", "c"),
        ("c", "d"),
        ("d", "y"),
        ("c", "e"),
        ("e", "g"),
        ("g", "f"),
        ("f", "x"),
        ("g", "s"),
        ("s", "h"),
        ("s", "i"),
        ("h", "y"),
        ("i", "y"),
    ];
    // The lower half: the same with x and y swapped and every other name primed.
    let prime = |n: &str| -> String {
        match n {
            "x" => "y".into(),
            "y" => "x".into(),
            other => format!("{other}'"),
        }
    };
    let lower: Vec<(String, String)> = upper.iter().map(|(a, b)| (prime(a), prime(b))).collect();
    let mut edges: Vec<(&str, &str)> = upper.to_vec();
    edges.extend(lower.iter().map(|(a, b)| (a.as_str(), b.as_str())));
    let g = HexGraph::from_names(&names, &["x", "y", "t", "s", "t'", "s'"], &edges).expect("figure 4 is a Hex graph");
    (g, 0, 1)
}
