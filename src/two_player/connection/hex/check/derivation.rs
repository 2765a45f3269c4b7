//! The checker's verification of H-search derivations (`derive.rs`, proof
//! version 5). Each line is checked against Def 3.1 on the winner's Hex graph
//! as the checker builds it (its own neighbour table; the winner's groups by its
//! own reach, a group on an edge row merged with that edge; the loser's stones
//! and every cell outside the carrier never named):
//! - `base`: a VC with empty carrier between two adjacent nodes;
//! - `and I J`: VCs I = (x, A, u), J = (u, B, y) with x ≠ y, x ∉ B, y ∉ A,
//!   A ∩ B = ∅; the line is the VC (x, A ∪ B, y) if u is occupied (AV), the SC
//!   (x, A ∪ {u} ∪ B, y) if u is free (AS);
//! - `or I J …`: at least two SCs of the same pair whose carriers meet in no
//!   cell; the line is the VC with their union.
//!
//! Every line's carrier holds no winner's stone and neither end. A verified
//! line is a real connection (Satz 4.1): a VC is won by the winner even with the
//! loser to move, an SC with the winner to move, playing only in the carrier.
//! Every free node that a derivation names is an end of the top line or in its
//! carrier (an AND's free midpoint is in its carrier, every part's carrier in
//! the whole's), and the top line joins the two edges, so once its carrier is
//! empty at the position (checked by the caller) every line holds there,
//! whatever the loser's stones elsewhere: the verdict depends on the winner's
//! stones alone and is kept by them.

use super::Checker;
use crate::error::{Result, invalid};
use crate::two_player::connection::hex::board::{Bits, Colour};
use crate::two_player::connection::hex::proof::{Derivation, Node, Rule};

/// A node of the winner's Hex graph: a free cell, one of his edges (with the
/// groups on it), or another group of his stones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Vertex {
    Free(usize),
    Edge(u8),
    Group(Bits),
}

/// A verified line: a VC or SC between two nodes with its carrier.
#[derive(Clone, Copy, Debug)]
pub(super) struct Verified {
    vc: bool,
    ends: (Vertex, Vertex),
    carrier: Bits,
}

impl Verified {
    /// The other end, if `end` is one of this connection's ends.
    fn other(&self, end: Vertex) -> Option<Vertex> {
        if self.ends.0 == end {
            Some(self.ends.1)
        } else if self.ends.1 == end {
            Some(self.ends.0)
        } else {
            None
        }
    }
}

/// Whether `v` is a free node in `set`.
fn within(v: Vertex, set: Bits) -> bool {
    matches!(v, Vertex::Free(c) if set >> c & 1 == 1)
}

/// The AND rule (AV or AS) for the line `d` with ends (x, y) from the VCs `a` = (x, A, u), `b` = (u, B, y).
fn and_holds(d: &Derivation, (x, y): (Vertex, Vertex), a: Verified, b: Verified) -> bool {
    let Some(u) = a.other(x) else { return false };
    let free_u = match u {
        Vertex::Free(c) => 1 << c,
        _ => 0,
    };
    a.vc && b.vc
        && b.other(u) == Some(y)
        && u != y
        && a.carrier & b.carrier == 0
        && !within(x, b.carrier)
        && !within(y, a.carrier)
        && d.vc == (free_u == 0)
        && d.carrier == a.carrier | b.carrier | free_u
}

impl Checker<'_> {
    /// A `carrier … by line` step: the line joins the winner's edges (stones
    /// `own`) inside `carrier`, a VC, or an SC with the winner to move.
    pub(super) fn derived_leaf(&mut self, own: Bits, mover: Colour, carrier: Bits, line: usize) -> Result<()> {
        let v = self.verify(own, line)?;
        let edges = matches!(v.ends, (Vertex::Edge(1), Vertex::Edge(2)) | (Vertex::Edge(2), Vertex::Edge(1)));
        if !edges || v.carrier & !carrier != 0 {
            return Err(invalid("a derivation does not join the winner's edges inside its carrier"));
        }
        if !v.vc && mover != self.winner {
            return Err(invalid("a derived semi-connection where the loser moves"));
        }
        self.derived += 1;
        Ok(())
    }

    /// The node named `node` with the winner's stones `own`.
    fn vertex(&self, own: Bits, node: Node) -> Result<Vertex> {
        match node {
            Node::Edge(e @ (1 | 2)) => Ok(Vertex::Edge(e)),
            Node::Cell(c) if self.cell_ok(c) && own >> c & 1 == 0 => Ok(Vertex::Free(c)),
            Node::Cell(c) if self.cell_ok(c) => {
                let group = self.reach(1 << c, own);
                let (first, second) = self.winner_edges;
                Ok(if group & first != 0 {
                    Vertex::Edge(1)
                } else if group & second != 0 {
                    Vertex::Edge(2)
                } else {
                    Vertex::Group(group)
                })
            }
            _ => Err(invalid("a derivation names a node off the board")),
        }
    }

    /// Whether `a` and `b` are adjacent in the winner's Hex graph (no two occupied nodes are).
    fn adjacent(&self, own: Bits, a: Vertex, b: Vertex) -> bool {
        let (first, second) = self.winner_edges;
        let touch = |c: usize, v: Vertex| match v {
            Vertex::Free(d) => self.neighbours[c] >> d & 1 == 1,
            Vertex::Group(g) => self.neighbours[c] & g != 0,
            Vertex::Edge(e) => {
                let rows = if e == 1 { first } else { second };
                rows >> c & 1 == 1 || self.neighbours[c] & self.reach(rows, own) != 0
            }
        };
        match (a, b) {
            (Vertex::Free(c), v) | (v, Vertex::Free(c)) => touch(c, v),
            _ => false,
        }
    }

    /// Verifies the derivation line `id` (and the lines it names) with the winner's stones `own`.
    fn verify(&mut self, own: Bits, id: usize) -> Result<Verified> {
        if let Some(&v) = self.verified.get(&(own, id)) {
            return Ok(v);
        }
        let bad = |what: &str| invalid(format!("derivation line {id}: {what}"));
        let d = self.proof.derivations.get(id).ok_or_else(|| bad("not in the proof"))?.clone();
        let (x, y) = (self.vertex(own, d.ends.0)?, self.vertex(own, d.ends.1)?);
        let board = self.proof.position.board.all();
        if x == y || d.carrier & (own | !board) != 0 || within(x, d.carrier) || within(y, d.carrier) {
            return Err(bad("equal ends, or a carrier with a stone, an end or a cell off the board"));
        }
        let ok = match &d.rule {
            Rule::Base => d.vc && d.carrier == 0 && self.adjacent(own, x, y),
            Rule::And(i, j) if *i < id && *j < id => {
                let (a, b) = (self.verify(own, *i)?, self.verify(own, *j)?);
                and_holds(&d, (x, y), a, b)
            }
            Rule::Or(parts) if parts.len() >= 2 && parts.iter().all(|&p| p < id) => {
                let (mut common, mut union, mut all_scs) = (board, 0, true);
                for &p in parts {
                    let s = self.verify(own, p)?;
                    all_scs &= !s.vc && s.other(x) == Some(y);
                    (common, union) = (common & s.carrier, union | s.carrier);
                }
                d.vc && all_scs && common == 0 && union == d.carrier
            }
            _ => false,
        };
        if !ok {
            return Err(bad("not derived by its rule (Def 3.1), or names a later line"));
        }
        let v = Verified { vc: d.vc, ends: (x, y), carrier: d.carrier };
        self.verified.insert((own, id), v);
        Ok(v)
    }
}
