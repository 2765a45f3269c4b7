//! H-search derivations for the proof: the winner's edge VC or SC at a
//! `carrier` step, written as the rule applications of Def 3.1 that derive it
//! (base, AND, OR, each with its carriers), so that the checker verifies each
//! step locally (`check/derivation.rs`; sound by Satz 4.1) instead of playing
//! the game on the carrier.
//!
//! The derivation is found by a recorded H-search run (`hsearch.rs`,
//! [`h_search_traced`]) on the winner's Hex graph of the step's position with
//! every free cell outside the carrier deleted: every connection of that
//! graph is one of the full graph (its nodes and edges are among the full
//! graph's), its carriers lie inside the carrier, and it names no cell outside.
//! Where the run finds no edge connection of the kind needed, the step keeps
//! no derivation and the checker plays the game on the carrier, as before.

use super::board::{Bits, Colour};
use super::graph::HexGraph;
use super::hsearch::{Limits, h_search_traced};
use super::proof::{Derivation, Node, Proof, ProofStep, Rule};
use super::trace::{Trace, Why};
use crate::search::fasthash::FastBuild;
use std::collections::HashMap;

/// The lines written so far, shared by every step (equal lines once).
struct Lines<'a> {
    out: &'a mut Vec<Derivation>,
    index: HashMap<Derivation, usize>,
}

impl Lines<'_> {
    fn intern(&mut self, d: Derivation) -> usize {
        if let Some(&i) = self.index.get(&d) {
            return i;
        }
        self.out.push(d.clone());
        self.index.insert(d, self.out.len() - 1);
        self.out.len() - 1
    }
}

/// Gives every `carrier` step of `proof` the derivation of the winner's edge
/// connection on it, where the recorded H-search with `limits` (and `edge` for
/// the edge pair, as in the solver) finds one: a VC, or an SC where the winner
/// moves. Returns how many steps have one.
pub fn annotate(proof: &mut Proof, limits: Limits, edge: Limits) -> usize {
    let board = proof.position.board.clone();
    let winner = proof.winner;
    let mut derivations = std::mem::take(&mut proof.derivations);
    let mut lines = Lines { index: HashMap::new(), out: &mut derivations };
    for (i, d) in lines.out.iter().enumerate() {
        lines.index.insert(d.clone(), i);
    }
    let mut memo: HashMap<(Bits, Bits), Option<usize>, FastBuild> = HashMap::default();
    let mut count = 0;
    for (black, white, mover, step) in proof.steps.iter_mut() {
        let ProofStep::Carrier(carrier, by @ None) = step else { continue };
        let own = if winner == Colour::Black { *black } else { *white };
        let outside = board.all() & !own & !*carrier;
        let id = *memo.entry((own, *carrier)).or_insert_with(|| {
            let pg = HexGraph::from_stones_unnamed(&board, own, outside, winner);
            derive(&pg.graph, pg.edges, limits, edge, &mut lines)
        });
        if let Some(id) = id
            && (lines.out[id].vc || *mover == winner)
        {
            *by = Some(id);
            count += 1;
        }
    }
    proof.derivations = derivations;
    count
}

/// The derivation of an edge VC of `graph` (the smallest), else of an edge SC; its line number.
fn derive(graph: &HexGraph, (x, y): (usize, usize), limits: Limits, edge: Limits, lines: &mut Lines) -> Option<usize> {
    if x == y {
        return None;
    }
    let (found, trace) = h_search_traced(graph, limits, edge, (x, y));
    let (vc, carrier) = match found.smallest_vc(x, y) {
        Some(c) => (true, c),
        None => (false, *found.scs(x, y).iter().min_by_key(|c| c.count_ones())?),
    };
    let name = |v: usize| match v {
        _ if v == x => Node::Edge(1),
        _ if v == y => Node::Edge(2),
        _ => Node::Cell(graph.cells[v].trailing_zeros() as usize),
    };
    let mut done = HashMap::new();
    Some(emit(&trace, graph, &name, (vc, x, y, carrier), lines, &mut done))
}

/// Writes the lines of the connection `key` (after those it is derived from); its line number.
fn emit(
    trace: &Trace<Bits>,
    graph: &HexGraph,
    name: &dyn Fn(usize) -> Node,
    key: (bool, usize, usize, Bits),
    lines: &mut Lines,
    done: &mut HashMap<(bool, usize, usize, Bits), usize>,
) -> usize {
    let (vc, x, y, carrier) = key;
    let key = (vc, x.min(y), x.max(y), carrier);
    if let Some(&i) = done.get(&key) {
        return i;
    }
    let (rule, ends) = match &trace.origins[&key] {
        Why::Base => (Rule::Base, (x, y)),
        Why::And { ends, mid, a, b } => {
            let i = emit(trace, graph, name, (true, ends.0, *mid, *a), lines, done);
            let j = emit(trace, graph, name, (true, *mid, ends.1, *b), lines, done);
            (Rule::And(i, j), *ends)
        }
        Why::Or(family) => {
            let parts = family.iter().map(|&s| emit(trace, graph, name, (false, x, y, s), lines, done)).collect();
            (Rule::Or(parts), (x, y))
        }
    };
    let line = Derivation { vc, ends: (name(ends.0), name(ends.1)), carrier: graph.board_cells(carrier), rule };
    let i = lines.intern(line);
    done.insert(key, i);
    i
}
