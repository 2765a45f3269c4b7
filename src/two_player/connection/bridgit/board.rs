//! The board of a Shannon switching game: a finite connected multigraph with
//! two terminals A (x = 1) and B (x = 0), `../shared/reference/seed002-ch1235.md §4.1`.
//!
//! Bridg-It graphs of order M (Def 5.5) use the thesis' cell coordinates
//! (reference note §0 item 5): columns and rows run 1..2M−1; vertical edges sit
//! at (odd column, odd row), horizontal edges at (even, even), grid nodes at
//! (odd column, even row); the terminals are row 0 (A) and row 2M (B). Columns
//! are lettered A, B, … skipping I (the M = 9 game prints column 17 as "R"),
//! then AA, AB, … beyond Z; a cell name is its letters and its row, e.g. `E9`.
//!
//! Invariants: no self-loops, A ≠ B, every node reaches A or B; in a Bridg-It
//! graph edge i of [`Board::dual`] crosses edge i of the board.

use crate::error::{Result, invalid};

/// Column letters without I.
const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

/// A switching-game board: nodes `0..nodes`, edges as node pairs, two terminals.
#[derive(Clone, Debug)]
pub struct Board {
    nodes: usize,
    edges: Vec<(u32, u32)>,
    a: u32,
    b: u32,
    /// For Bridg-It boards: the order M; edge cells are then known.
    order: Option<usize>,
    cells: Vec<(usize, usize)>,
}

impl Board {
    /// A board from an edge list; rejects self-loops, unknown nodes, A = B and
    /// graphs in which A and B are not connected.
    pub fn new(nodes: usize, edges: Vec<(u32, u32)>, a: u32, b: u32) -> Result<Board> {
        if a == b || a as usize >= nodes || b as usize >= nodes {
            return Err(invalid(format!("terminals {a} and {b} must be two different nodes of 0..{nodes}")));
        }
        for (i, &(u, v)) in edges.iter().enumerate() {
            if u == v {
                return Err(invalid(format!("edge {i} ({u}, {v}) is a self-loop")));
            }
            if u as usize >= nodes || v as usize >= nodes {
                return Err(invalid(format!("edge {i} ({u}, {v}) names a node outside 0..{nodes}")));
            }
        }
        let board = Board { nodes, edges, a, b, order: None, cells: Vec::new() };
        if !board.connected_all() {
            return Err(invalid("the graph is not connected"));
        }
        Ok(board)
    }

    /// Parses a plain edge list: lines `u v` (node names are any tokens), blank
    /// lines and `#` comments ignored, and the terminals given by name.
    pub fn parse_edge_list(text: &str, a: &str, b: &str) -> Result<Board> {
        let mut names: Vec<String> = Vec::new();
        let id = |s: &str, names: &mut Vec<String>| -> u32 {
            match names.iter().position(|n| n == s) {
                Some(i) => i as u32,
                None => {
                    names.push(s.to_string());
                    names.len() as u32 - 1
                }
            }
        };
        let mut edges = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let line = line.split('#').next().unwrap_or("").trim();
            if line.is_empty() {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            if parts.len() != 2 {
                return Err(invalid(format!("line {}: expected two node names, got {line:?}", n + 1)));
            }
            if parts[0] == parts[1] {
                return Err(invalid(format!("line {}: self-loop at node {}", n + 1, parts[0])));
            }
            edges.push((id(parts[0], &mut names), id(parts[1], &mut names)));
        }
        let find = |t: &str| names.iter().position(|n| n == t).map(|i| i as u32);
        let (Some(ta), Some(tb)) = (find(a), find(b)) else {
            return Err(invalid(format!("terminal {a} or {b} is not a node of the graph")));
        };
        Board::new(names.len(), edges, ta, tb)
    }

    /// The Bridg-It graph of order M ≥ 2 (Def 5.5): M(M−1)+2 nodes, M²+(M−1)² edges,
    /// edges in row-major order of their cells.
    pub fn bridgit(m: usize) -> Result<Board> {
        if !(2..=200).contains(&m) {
            return Err(invalid(format!("Bridg-It order M = {m} must lie in 2..=200")));
        }
        let (a, b) = (0u32, (m * (m - 1) + 1) as u32);
        // Grid node at (odd column c, even row r), terminals at rows 0 and 2M.
        let node = |c: usize, r: usize| -> u32 {
            match r {
                0 => a,
                r if r == 2 * m => b,
                r => (1 + (r / 2 - 1) * m + (c - 1) / 2) as u32,
            }
        };
        let (mut edges, mut cells) = (Vec::new(), Vec::new());
        for r in 1..2 * m {
            for c in 1..2 * m {
                if c % 2 == 1 && r % 2 == 1 {
                    edges.push((node(c, r - 1), node(c, r + 1)));
                } else if c % 2 == 0 && r % 2 == 0 {
                    edges.push((node(c - 1, r), node(c + 1, r)));
                } else {
                    continue;
                }
                cells.push((c, r));
            }
        }
        Ok(Board { nodes: m * (m - 1) + 2, edges, a, b, order: Some(m), cells })
    }

    /// The planar dual of a Bridg-It board (Satz 5.4): grid nodes at (even column,
    /// odd row), terminals at columns 0 (A′) and 2M (B′); edge i crosses edge i.
    pub fn dual(&self) -> Result<Board> {
        let m = self.order.ok_or_else(|| invalid("the dual is built for Bridg-It boards only"))?;
        let (a, b) = (0u32, (m * (m - 1) + 1) as u32);
        let node = |c: usize, r: usize| -> u32 {
            match c {
                0 => a,
                c if c == 2 * m => b,
                c => (1 + (r - 1) / 2 * (m - 1) + (c / 2 - 1)) as u32,
            }
        };
        let edges = self
            .cells
            .iter()
            .map(|&(c, r)| if c % 2 == 1 { (node(c - 1, r), node(c + 1, r)) } else { (node(c, r - 1), node(c, r + 1)) })
            .collect();
        Ok(Board { nodes: self.nodes, edges, a, b, order: None, cells: Vec::new() })
    }

    /// Number of nodes.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// The edges as node pairs.
    pub fn edges(&self) -> &[(u32, u32)] {
        &self.edges
    }

    /// Terminal A (potential 1).
    pub fn a(&self) -> u32 {
        self.a
    }

    /// Terminal B (potential 0).
    pub fn b(&self) -> u32 {
        self.b
    }

    /// The Bridg-It order M, if this is a Bridg-It board.
    pub fn order(&self) -> Option<usize> {
        self.order
    }

    /// The cell (column, row) of edge `e` on a Bridg-It board.
    pub fn cell(&self, e: usize) -> Option<(usize, usize)> {
        self.cells.get(e).copied()
    }

    /// The edge at cell (column, row), if there is one.
    pub fn edge_at(&self, column: usize, row: usize) -> Option<usize> {
        self.cells.iter().position(|&c| c == (column, row))
    }

    /// The images of edge `e` under the symmetries of a Bridg-It board (the
    /// left–right mirror and the top–bottom mirror, which swaps A and B; the
    /// heuristic is invariant under both because |x_i − x_j| is invariant under
    /// x → 1 − x). Just `[e]` on other boards.
    pub fn symmetric_images(&self, e: usize) -> Vec<usize> {
        let (Some(m), Some(&(c, r))) = (self.order, self.cells.get(e)) else { return vec![e] };
        let n = 2 * m;
        [(c, r), (n - c, r), (c, n - r), (n - c, n - r)].iter().filter_map(|&(c, r)| self.edge_at(c, r)).collect()
    }

    /// Whether edge `e` is a vertical Bridg-It edge (odd column and row).
    pub fn is_vertical(&self, e: usize) -> bool {
        self.cells.get(e).is_some_and(|&(c, _)| c % 2 == 1)
    }

    /// The name of edge `e`: its cell name on Bridg-It boards, else `e<index>`.
    pub fn edge_name(&self, e: usize) -> String {
        match self.cells.get(e) {
            Some(&(c, r)) => format!("{}{r}", column_letters(c)),
            None => format!("e{e}"),
        }
    }

    /// The edge named `name` (a cell name such as `A3`, or `e<index>`).
    pub fn parse_edge(&self, name: &str) -> Result<usize> {
        let found = if self.order.is_some() {
            let split = name.find(|ch: char| ch.is_ascii_digit()).unwrap_or(name.len());
            let (letters, row) = name.split_at(split);
            match (column_of(&letters.to_ascii_uppercase()), row.parse::<usize>()) {
                (Some(c), Ok(r)) => self.edge_at(c, r),
                _ => None,
            }
        } else {
            name.strip_prefix('e').and_then(|i| i.parse::<usize>().ok()).filter(|&i| i < self.edges.len())
        };
        found.ok_or_else(|| invalid(format!("unknown cell name {name:?}")))
    }

    /// Whether every node is connected to A or B (and A to B) by edges.
    fn connected_all(&self) -> bool {
        let mut parent: Vec<u32> = (0..self.nodes as u32).collect();
        fn find(p: &mut [u32], mut x: u32) -> u32 {
            while p[x as usize] != x {
                p[x as usize] = p[p[x as usize] as usize];
                x = p[x as usize];
            }
            x
        }
        for &(u, v) in &self.edges {
            let (ru, rv) = (find(&mut parent, u), find(&mut parent, v));
            parent[ru as usize] = rv;
        }
        let root = find(&mut parent, self.a);
        (0..self.nodes as u32).all(|x| find(&mut parent, x) == root)
    }
}

/// Letters of column c ≥ 1: A…Z without I, then AA, AB, …
pub fn column_letters(c: usize) -> String {
    let n = LETTERS.len();
    let mut c = c;
    let mut out = Vec::new();
    while c > 0 {
        c -= 1;
        out.push(LETTERS[c % n]);
        c /= n;
    }
    out.reverse();
    String::from_utf8(out).expect("ASCII letters")
}

/// The column of a letter string (inverse of [`column_letters`]).
fn column_of(letters: &str) -> Option<usize> {
    if letters.is_empty() {
        return None;
    }
    letters.bytes().try_fold(0usize, |acc, ch| {
        let d = LETTERS.iter().position(|&l| l == ch)?;
        acc.checked_mul(LETTERS.len())?.checked_add(d + 1)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for c in 1..2000 {
            assert_eq!(column_of(&column_letters(c)), Some(c));
        }
        assert_eq!(column_letters(9), "J");
        assert_eq!(column_letters(17), "R");
        assert_eq!(column_letters(26), "AA");
    }
}
