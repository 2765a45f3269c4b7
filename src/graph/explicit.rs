//! Games given only forward (a successor function): the reachable states are
//! explored once and stored as an explicit graph with successor and
//! predecessor lists, which [`super::retrograde`] and the other solvers use.

use super::retrograde::{self, RetroGraph, Solution, Start};
use super::value::WinLossDraw;
use std::collections::HashMap;
use std::hash::Hash;

/// What a state is: a terminal with its value for the mover, or a list of moves.
#[derive(Clone, Debug)]
pub enum Node<S> {
    /// The game is over; the value is the mover's (normal play: `Loss(0)`;
    /// a full tic-tac-toe board or a stalemate: `Draw`).
    Terminal(WinLossDraw),
    /// The states reachable in one move (repeated entries are parallel moves).
    Moves(Vec<S>),
}

/// Compressed adjacency lists: the targets of vertex `v` are `targets[offsets[v]..offsets[v+1]]`.
#[derive(Clone, Debug, Default)]
pub struct Adjacency {
    offsets: Vec<u32>,
    targets: Vec<u32>,
}

impl Adjacency {
    /// Builds the lists from (source, target) edges over `n` vertices.
    pub fn from_edges(n: usize, edges: &[(u32, u32)]) -> Adjacency {
        let mut offsets = vec![0u32; n + 1];
        for &(s, _) in edges {
            offsets[s as usize + 1] += 1;
        }
        for v in 0..n {
            offsets[v + 1] += offsets[v];
        }
        let mut fill = offsets.clone();
        let mut targets = vec![0u32; edges.len()];
        for &(s, t) in edges {
            targets[fill[s as usize] as usize] = t;
            fill[s as usize] += 1;
        }
        Adjacency { offsets, targets }
    }

    /// The targets of `v`.
    pub fn of(&self, v: usize) -> &[u32] {
        &self.targets[self.offsets[v] as usize..self.offsets[v + 1] as usize]
    }
}

/// A finite game graph with explicit successor and predecessor lists.
#[derive(Clone, Debug)]
pub struct ExplicitGraph<S> {
    states: Vec<S>,
    index: HashMap<S, u32>,
    succ: Adjacency,
    pred: Adjacency,
    terminal: Vec<Option<WinLossDraw>>,
}

impl<S: Clone + Eq + Hash> ExplicitGraph<S> {
    /// Explores every state reachable from `roots`. A state with an empty move
    /// list is a normal-play terminal (`Loss(0)`).
    pub fn explore(roots: impl IntoIterator<Item = S>, expand: impl FnMut(&S) -> Node<S>) -> Self {
        Self::explore_within(roots, expand, u64::MAX).unwrap_or_else(|n| unreachable!("no limit, yet {n} states"))
    }

    /// [`Self::explore`] giving up (with the number of states reached) once
    /// the graph's estimated size — states, hash index, edges both ways —
    /// passes `limit_bytes`, checked every 65 536 expansions. Games whose
    /// positions cannot be counted beforehand (Cram, Chomp) explore within the
    /// memory budget instead of running the machine out of memory.
    pub fn explore_within(
        roots: impl IntoIterator<Item = S>,
        mut expand: impl FnMut(&S) -> Node<S>,
        limit_bytes: u64,
    ) -> std::result::Result<Self, usize> {
        let per_state = 2 * std::mem::size_of::<S>() as u64 + 64;
        let mut states: Vec<S> = Vec::new();
        let mut index: HashMap<S, u32> = HashMap::new();
        for root in roots {
            if !index.contains_key(&root) {
                index.insert(root.clone(), states.len() as u32);
                states.push(root);
            }
        }
        let mut edges = Vec::new();
        let mut terminal = Vec::new();
        let mut next = 0;
        while next < states.len() {
            let node = expand(&states[next]);
            terminal.push(match node {
                Node::Terminal(value) => Some(value),
                Node::Moves(targets) if targets.is_empty() => Some(WinLossDraw::Loss(0)),
                Node::Moves(targets) => {
                    for t in targets {
                        let id = *index.entry(t.clone()).or_insert_with(|| {
                            states.push(t);
                            (states.len() - 1) as u32
                        });
                        edges.push((next as u32, id));
                    }
                    None
                }
            });
            next += 1;
            if next % (1 << 16) == 0 && states.len() as u64 * per_state + edges.len() as u64 * 24 > limit_bytes {
                return Err(states.len());
            }
        }
        Ok(Self::assemble(states, index, &edges, terminal))
    }

    fn assemble(
        states: Vec<S>,
        index: HashMap<S, u32>,
        edges: &[(u32, u32)],
        terminal: Vec<Option<WinLossDraw>>,
    ) -> Self {
        let n = states.len();
        let succ = Adjacency::from_edges(n, edges);
        let reversed: Vec<(u32, u32)> = edges.iter().map(|&(s, t)| (t, s)).collect();
        let pred = Adjacency::from_edges(n, &reversed);
        ExplicitGraph { states, index, succ, pred, terminal }
    }

    /// The index of a state, if it was reached.
    pub fn index_of(&self, s: &S) -> Option<usize> {
        self.index.get(s).map(|&v| v as usize)
    }
}

impl<S> ExplicitGraph<S> {
    /// Number of states.
    pub fn len(&self) -> usize {
        self.states.len()
    }

    /// Whether the graph has no state.
    pub fn is_empty(&self) -> bool {
        self.states.is_empty()
    }

    /// The state with index `v`.
    pub fn state(&self, v: usize) -> &S {
        &self.states[v]
    }

    /// The successors of `v` (with repetitions for parallel moves).
    pub fn successors(&self, v: usize) -> &[u32] {
        self.succ.of(v)
    }

    /// The predecessors of `v`.
    pub fn predecessors_of(&self, v: usize) -> &[u32] {
        self.pred.of(v)
    }

    /// The vertices ordered so that every vertex comes after all its successors
    /// (sinks first), or `None` if the graph has a cycle.
    pub fn successors_first_order(&self) -> Option<Vec<usize>> {
        let n = self.len();
        let mut pending: Vec<usize> = (0..n).map(|v| self.successors(v).len()).collect();
        let mut ready: Vec<usize> = (0..n).filter(|&v| pending[v] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(v) = ready.pop() {
            order.push(v);
            for &u in self.predecessors_of(v) {
                pending[u as usize] -= 1;
                if pending[u as usize] == 0 {
                    ready.push(u as usize);
                }
            }
        }
        (order.len() == n).then_some(order)
    }

    /// The terminal value of `v`, if it is terminal.
    pub fn terminal(&self, v: usize) -> Option<WinLossDraw> {
        self.terminal[v]
    }

    /// Win / loss / draw with depths for every state (retrograde analysis).
    pub fn solve(&self) -> Solution
    where
        S: Sync,
    {
        retrograde::solve(self)
    }
}

impl ExplicitGraph<usize> {
    /// A graph on vertices `0..n` from directed edges; sinks are terminals with
    /// the value `sink_value` (normal play: `Loss(0)`, misère: `Win(0)`).
    pub fn from_edges(n: usize, edges: &[(usize, usize)], sink_value: WinLossDraw) -> Self {
        let pairs: Vec<(u32, u32)> = edges.iter().map(|&(s, t)| (s as u32, t as u32)).collect();
        let mut out_degree = vec![0usize; n];
        for &(s, _) in edges {
            out_degree[s] += 1;
        }
        let terminal = out_degree.iter().map(|&d| (d == 0).then_some(sink_value)).collect();
        let index = (0..n).map(|v| (v, v as u32)).collect();
        Self::assemble((0..n).collect(), index, &pairs, terminal)
    }
}

impl<S: Sync> RetroGraph for ExplicitGraph<S> {
    fn size(&self) -> usize {
        self.states.len()
    }

    fn start(&self, p: usize) -> Start {
        match self.terminal[p] {
            Some(value) => Start::Decided(value),
            None => Start::Open { weight: self.succ.of(p).len() as u32, exit: None },
        }
    }

    fn predecessors<F: FnMut(usize, u32)>(&self, p: usize, mut visit: F) {
        for &q in self.pred.of(p) {
            visit(q as usize, 1);
        }
    }
}
