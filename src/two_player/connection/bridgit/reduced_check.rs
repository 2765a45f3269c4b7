//! Short's tree strategy on a shrinking core, checked against every Cut play
//! with a transposition table up to isomorphism (issue 50 item 4, M = 5;
//! `../shared/reference/seed002-ch1235.md §4`, Satz 5.2).
//!
//! **Positions.** The board with the deleted edges removed and the marked
//! edges contracted; A and B the terminals. [`reduce`] keeps the *live* edges,
//! those on some simple A–B path (the block of G + AB that holds the extra
//! edge AB, Tarjan), A = 0, B = 1. Nothing else can matter: Short has won iff
//! A and B are merged, Cut iff no live edge is left; an edge on no simple A–B
//! path stays so after a deletion (fewer paths) and after a contraction (a
//! simple path of G/f lifts to one of G, f added where the path passes the
//! merged node); so the final marked A–B path, taken simple, uses only edges
//! live all game long. A dead edge deleted is a pass of Cut.
//!
//! **The strategy** ([`CoreStrategy`]) keeps a *core* W: a graph over the
//! contracted board whose edges split into two spanning trees (Satz 5.2), and
//! *couples*: two free parallel edges it has promised to answer one by the
//! other. [`shrink`] makes W small after every round, until none applies:
//! (1) dead edges are dropped (abandoned); (2) two parallel edges u–v become
//! a couple and u, v are merged (each tree holds one of them, so both trees
//! stay spanning after the merge; if Cut deletes one, Short marks the other,
//! and the real contraction equals the virtual one); (3) a node other than
//! A, B with two edges is removed with them (abandoned; it is a leaf of both
//! trees, so both stay spanning). Cut's moves:
//! - an edge of a couple: Short marks the other one; W is unchanged;
//! - an edge e of W: W is taken in its canonical labelling ([`canonical`]:
//!   colour refinement with A, B fixed, then every individualisation, the
//!   least sorted edge list), `Packing::maximise` gives trees T0, T1; if e ∈
//!   T_k Short marks the first edge (canonical order) of T_{1−k} that joins
//!   the two parts of T_k − e (the repair: both trees span (W − e)/f);
//! - any other edge (abandoned or outside W): a pass; Short marks the first
//!   edge f of T0 and drops the first edge of the cycle f closes in T1.
//!
//! Then W ← shrink((W − e)/f). When A and B are merged in W, the couples join
//! them: Short answers each Cut move at a couple and otherwise marks an edge
//! of one, and wins. A and B stay joined in the real graph while W − e still
//! joins them (W's edges are free, its merges are marks or intact couples).
//!
//! **The check** ([`check_from`]) keys a state (Cut to move) by the canonical
//! W alone: the reply and the next W are computed on the canonical labelling,
//! so isomorphic cores (A, B fixed) behave alike, and the check tries every
//! edge index of the canonical W plus a pass, which covers whichever
//! isomorphism a real position is mapped by and every Cut move outside W
//! (passes are tried even where the real game has no edge to pass with: more
//! Cut plays, still sound). Moves at couples repeat the state and are skipped.
//! It fails when a Cut move leaves A and B apart in W. Every round merges two
//! nodes, so successors have fewer nodes: the states wait in one set per node
//! count, expanded from the largest count down.
//!
//! [`Rule::NoRepair`] is a deliberately wrong strategy for the tests: after a
//! hit in T_k it marks the first edge of T_{1−k} whether or not it reconnects,
//! and it makes no couples (no promise to repair).

use super::core_graph::{Core, MAX_NODES, Net, Parts, Step, canonical, pair, relabel, shrink};
use super::lehman::Packing;
use std::collections::HashSet;
use std::hash::{BuildHasherDefault, DefaultHasher};

/// Bytes of a key: the canonical edges as pair indices, 0xFF padded.
pub const KEY_BYTES: usize = 48;

/// The reply rule. `Repair` is the strategy; `NoRepair` (always the first edge
/// of the tree Cut did not hit) is deliberately wrong: the check must catch it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rule {
    Repair,
    NoRepair,
}

/// The two forests of a maximum packing of `net` (spanning trees when it is positive).
pub fn forests(net: &Net) -> [Vec<usize>; 2] {
    let mut p = Packing::new(net.nodes, net.edges.iter().map(|&(u, v)| (u as u32, v as u32)).collect());
    p.maximise();
    [p.forest(0), p.forest(1)]
}

/// Short's mark after Cut deleted `cut` (`None`: a pass) from the canonical
/// `net` whose packing is `trees` (see the module text); `None` if no edge is left.
pub fn reply(net: &Net, trees: &[Vec<usize>; 2], cut: Option<usize>, rule: Rule) -> Option<usize> {
    let hit = cut.and_then(|e| (0..2).find(|&k| trees[k].contains(&e)).map(|k| (e, k)));
    let any = || (0..net.edges.len()).find(|&f| Some(f) != cut);
    let Some((e, k)) = hit else {
        return trees[0].iter().copied().find(|&f| Some(f) != cut).or_else(any);
    };
    match rule {
        Rule::Repair => {
            let mut parts = Parts::new(net.nodes);
            trees[k].iter().filter(|&&t| t != e).for_each(|&t| parts.join(net.edges[t]));
            trees[1 - k].iter().copied().find(|&f| !parts.same(net.edges[f]))
        }
        Rule::NoRepair => trees[1 - k].first().copied(),
    }
    .or_else(any)
}

/// The core after Cut deletes `cut` (`None`: a pass) and Short marks `mark` in
/// the canonical `core` with packing `trees`; new couples go to `couples`.
pub fn successor(
    core: &Core,
    trees: &[Vec<usize>; 2],
    (cut, mark): (Option<usize>, usize),
    rule: Rule,
    couples: &mut Vec<(usize, usize)>,
) -> Step {
    let net = &core.net;
    // After a pass: the first edge of the cycle `mark` closes in tree 1 leaves the core.
    let on_cycle = |t: usize| {
        let mut parts = Parts::new(net.nodes);
        trees[1].iter().filter(|&&x| x != t).for_each(|&x| parts.join(net.edges[x]));
        !parts.same(net.edges[mark])
    };
    let drop = cut.or_else(|| trees[1].iter().copied().find(|&t| t != mark && on_cycle(t)));
    let mut parts = Parts::new(net.nodes);
    parts.join(net.edges[mark]);
    let keep: Vec<usize> = (0..net.edges.len()).filter(|&i| Some(i) != drop && i != mark).collect();
    let ends = keep
        .iter()
        .map(|&i| {
            let (u, v) = net.edges[i];
            (parts.find(u) as u32, parts.find(v) as u32)
        })
        .collect();
    let ids = keep.iter().map(|&i| core.ids[i]).collect();
    let ab = (parts.find(0) as u32, parts.find(1) as u32);
    shrink(net.nodes, ends, ids, ab, (rule == Rule::Repair).then_some(couples))
}

/// Whether A and B are still joined after Cut deletes `cut`.
fn joined_without(net: &Net, cut: Option<usize>) -> bool {
    let mut parts = Parts::new(net.nodes);
    (0..net.edges.len()).filter(|&i| Some(i) != cut).for_each(|i| parts.join(net.edges[i]));
    parts.same((0, 1))
}

/// The key of a canonical net: its (sorted) pair indices.
fn encode(net: &Net) -> [u8; KEY_BYTES] {
    let mut key = [u8::MAX; KEY_BYTES];
    net.edges.iter().enumerate().for_each(|(i, &(u, v))| key[i] = pair(u, v));
    key
}

/// The net of a key (edge i named i).
fn decode(key: &[u8; KEY_BYTES]) -> Core {
    let edges: Vec<(u8, u8)> = key
        .iter()
        .take_while(|&&p| p != u8::MAX)
        .map(|&p| {
            let v = (1..MAX_NODES).find(|&v| v * (v + 1) / 2 > p as usize).expect("a pair index");
            (p - (v * (v - 1) / 2) as u8, v as u8)
        })
        .collect();
    let nodes = edges.iter().map(|&(_, v)| v as usize + 1).max().unwrap_or(2);
    Core { ids: (0..edges.len()).collect(), net: Net { nodes, edges } }
}

/// `core` in its canonical labelling (edges sorted, names carried along).
pub fn canonical_core(core: &Core) -> Core {
    let (net, position) = relabel(&core.net, &canonical(&core.net));
    let mut ids = vec![0; position.len()];
    position.iter().zip(&core.ids).for_each(|(&j, &id)| ids[j] = id);
    Core { net, ids }
}

/// What the check visited.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReducedCheck {
    /// Distinct canonical cores (Cut to move).
    pub states: u64,
    /// (state, Cut move) pairs tried, passes included.
    pub cut_moves: u64,
    /// States whose packing is not two spanning trees (0 while the strategy works).
    pub without_trees: u64,
    /// Most states waiting at once (all node counts).
    pub most_waiting: u64,
    /// States per node count, largest count first.
    pub per_nodes: Vec<(usize, u64)>,
    /// Whether every state was expanded (`on_set` may stop the check early).
    pub complete: bool,
    /// A Cut win, described; `None` if the strategy never loses.
    pub failure: Option<String>,
}

/// SipHash with fixed keys: the expansion order, and so a failure's report, is the same in every run.
type Keys = HashSet<[u8; KEY_BYTES], BuildHasherDefault<DefaultHasher>>;

/// Checks Short's strategy `rule` from the core `start` (Cut to move) against
/// every Cut play. `on_set(nodes, states)` reports each set of states before
/// it is expanded and stops the check (incomplete) by returning `false`.
pub fn check_from(start: &Core, rule: Rule, mut on_set: impl FnMut(usize, u64) -> bool) -> ReducedCheck {
    let mut out = ReducedCheck::default();
    if start.net.nodes > MAX_NODES || start.net.edges.len() > KEY_BYTES {
        out.failure = Some(format!("a core of {} nodes passes the key's {MAX_NODES}", start.net.nodes));
        return out;
    }
    let mut waiting: Vec<Keys> = vec![Keys::default(); MAX_NODES + 1];
    waiting[start.net.nodes].insert(encode(&canonical_core(start).net));
    for n in (2..=MAX_NODES).rev() {
        let set = std::mem::take(&mut waiting[n]);
        if set.is_empty() {
            continue;
        }
        if !on_set(n, set.len() as u64) {
            return out;
        }
        out.states += set.len() as u64;
        out.per_nodes.push((n, set.len() as u64));
        let now = waiting.iter().map(|w| w.len() as u64).sum::<u64>() + set.len() as u64;
        for key in &set {
            if let Err(failure) = expand(&decode(key), rule, &mut waiting, &mut out) {
                out.failure = Some(failure);
                return out;
            }
        }
        let now = now.max(waiting.iter().map(|w| w.len() as u64).sum::<u64>() + set.len() as u64);
        out.most_waiting = out.most_waiting.max(now);
    }
    out.complete = true;
    out
}

/// Every Cut move of one canonical core and a pass, answered by `rule`; successors into `waiting`.
fn expand(core: &Core, rule: Rule, waiting: &mut [Keys], out: &mut ReducedCheck) -> Result<(), String> {
    let net = &core.net;
    let trees = forests(net);
    if trees.iter().any(|t| t.len() + 1 != net.nodes) {
        out.without_trees += 1;
    }
    for cut in (0..net.edges.len()).map(Some).chain([None]) {
        out.cut_moves += 1;
        let show = || format!("core {:?}, Cut deletes {cut:?}", net.edges);
        if !joined_without(net, cut) {
            return Err(format!("Cut wins: {}", show()));
        }
        let Some(mark) = reply(net, &trees, cut, rule) else {
            return Err(format!("Short has no edge to mark: {}", show()));
        };
        match successor(core, &trees, (cut, mark), rule, &mut Vec::new()) {
            Step::ShortWon => {}
            Step::CutWon => return Err(format!("Cut wins after Short marks {mark}: {}", show())),
            Step::Live(next) => {
                if next.net.nodes >= net.nodes || next.net.edges.len() > KEY_BYTES {
                    return Err(format!("a core of {} nodes follows one of {}: {}", next.net.nodes, net.nodes, show()));
                }
                waiting[next.net.nodes].insert(encode(&canonical_core(&next).net));
            }
        }
    }
    Ok(())
}

// The strategy on a board.

use super::board::Board;
use super::position::{Classes, Player, Position};

/// Short's strategy on a board: the core W (board edges) and the couples.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CoreStrategy {
    pub core: Vec<usize>,
    pub couples: Vec<(usize, usize)>,
    pub rule: Rule,
}

impl CoreStrategy {
    /// Short moving first: the first edge after which the free edges hold two
    /// spanning trees (of the contracted live graph), and the strategy.
    pub fn opening(board: &Board, rule: Rule) -> Option<(usize, CoreStrategy)> {
        let start = Position::start(board, Player::Short);
        (0..board.edges().len()).find_map(|e| {
            let pos = start.play(e);
            let mut s = CoreStrategy { core: pos.free_edges(board), couples: Vec::new(), rule };
            match s.rebuild(board, &pos, true) {
                Step::ShortWon => {
                    s.core.clear();
                    Some((e, s))
                }
                Step::CutWon => None,
                Step::Live(core) => {
                    let spanning = forests(&core.net).iter().all(|t| t.len() + 1 == core.net.nodes);
                    s.core = core.ids;
                    spanning.then_some((e, s))
                }
            }
        })
    }

    /// The core of `pos` (marks and couples merged), shrunk; new couples kept if `couple`.
    fn rebuild(&mut self, board: &Board, pos: &Position, couple: bool) -> Step {
        let mut merged: Classes = pos.marked_classes(board);
        for &(e, _) in &self.couples {
            let (u, v) = board.edges()[e];
            merged.union(u, v);
        }
        let ends =
            self.core.iter().map(|&e| (merged.find(board.edges()[e].0), merged.find(board.edges()[e].1))).collect();
        let ab = (merged.find(board.a()), merged.find(board.b()));
        let couples = (couple && self.rule == Rule::Repair).then_some(&mut self.couples);
        shrink(board.nodes(), ends, self.core.clone(), ab, couples)
    }

    /// Short's mark after Cut deleted `cut` (`after`: Short to move); `None` once nothing is left to mark.
    pub fn answer(&mut self, board: &Board, after: &Position, cut: usize) -> Option<usize> {
        if let Some(i) = self.couples.iter().position(|&(x, y)| x == cut || y == cut) {
            let (x, y) = self.couples.remove(i);
            return Some(if x == cut { y } else { x });
        }
        let Step::Live(core) = self.rebuild(board, after, false) else {
            // A and B are merged in the core: mark an edge of a couple (any free edge if none is left).
            self.core.clear();
            return match self.couples.is_empty() {
                false => Some(self.couples.remove(0).0),
                true => after.free_edges(board).first().copied(),
            };
        };
        let core = canonical_core(&core);
        let trees = forests(&core.net);
        let at = core.ids.iter().position(|&e| e == cut);
        let Some(mark) = reply(&core.net, &trees, at, self.rule) else {
            // The core is gone (a wrong rule): any free edge.
            self.core.clear();
            return after.free_edges(board).first().copied();
        };
        self.core = match successor(&core, &trees, (at, mark), self.rule, &mut self.couples) {
            Step::Live(next) => next.ids,
            _ => Vec::new(),
        };
        Some(core.ids[mark])
    }
}

/// The check on a board: Short opens with [`CoreStrategy::opening`], then [`check_from`].
pub fn check_board(board: &Board, rule: Rule, on_set: impl FnMut(usize, u64) -> bool) -> Option<ReducedCheck> {
    let (opening, mut s) = CoreStrategy::opening(board, rule)?;
    let pos = Position::start(board, Player::Short).play(opening);
    match s.rebuild(board, &pos, false) {
        Step::Live(core) => Some(check_from(&core, rule, on_set)),
        end => Some(ReducedCheck {
            complete: true,
            failure: (end == Step::CutWon).then(|| "Cut has won".into()),
            ..Default::default()
        }),
    }
}
