//! The graphs of [`super::reduced_check`]: the live part of a contracted
//! position ([`reduce`]), its canonical labelling up to isomorphism with A and
//! B fixed ([`canonical`]) and the core a round leaves ([`shrink`]). The
//! module text of `reduced_check` says why each step is sound.

/// Most nodes of a reduced graph (pair indices v(v−1)/2 + u must fit a byte below 0xFF).
pub const MAX_NODES: usize = 22;

/// A two-terminal multigraph: A = 0, B = 1, no loops.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    pub nodes: usize,
    pub edges: Vec<(u8, u8)>,
}

/// What a reduction left: nothing to play for one side, or the live graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reduced {
    ShortWon,
    CutWon,
    /// The live graph and for every input edge its index in `net.edges` (None if dead or a loop).
    Live(Net, Vec<Option<usize>>),
}

/// The live edges (on some simple A–B path) of the multigraph `ends` over
/// nodes `0..nodes` (loops allowed, never live), renumbered with A = 0, B = 1.
pub fn reduce(nodes: usize, ends: &[(u32, u32)], a: u32, b: u32) -> Reduced {
    if a == b {
        return Reduced::ShortWon;
    }
    // Biconnected components of G + AB (edge index ends.len()) by an iterative Tarjan DFS.
    let mut all: Vec<(u32, u32)> = ends.to_vec();
    all.push((a, b));
    let mut adjacent: Vec<Vec<(u32, usize)>> = vec![Vec::new(); nodes];
    for (i, &(u, v)) in all.iter().enumerate() {
        if u != v {
            adjacent[u as usize].push((v, i));
            adjacent[v as usize].push((u, i));
        }
    }
    let live = block_of(&adjacent, a, all.len() - 1, all.len());
    if live.iter().take(ends.len()).all(|&l| !l) {
        return Reduced::CutWon;
    }
    let mut id = vec![u8::MAX; nodes];
    id[a as usize] = 0;
    id[b as usize] = 1;
    let mut next = 2u8;
    let mut net = Net { nodes: 0, edges: Vec::new() };
    let mut map = vec![None; ends.len()];
    for (i, &(u, v)) in ends.iter().enumerate() {
        if !live[i] {
            continue;
        }
        for w in [u, v] {
            if id[w as usize] == u8::MAX {
                id[w as usize] = next;
                next += 1;
            }
        }
        map[i] = Some(net.edges.len());
        net.edges.push((id[u as usize], id[v as usize]));
    }
    net.nodes = next as usize;
    Reduced::Live(net, map)
}

/// The edges in the same biconnected component as edge `target` (DFS from `root`).
fn block_of(adjacent: &[Vec<(u32, usize)>], root: u32, target: usize, edges: usize) -> Vec<bool> {
    let n = adjacent.len();
    let (mut disc, mut low) = (vec![u32::MAX; n], vec![0u32; n]);
    let mut stack: Vec<usize> = Vec::new();
    let mut live = vec![false; edges];
    // Frames: (node, index into its adjacency, edge it was entered by).
    let mut frames: Vec<(u32, usize, usize)> = vec![(root, 0, usize::MAX)];
    let mut time = 0;
    disc[root as usize] = time;
    low[root as usize] = time;
    while let Some(&mut (v, ref mut i, via)) = frames.last_mut() {
        if let Some(&(w, e)) = adjacent[v as usize].get(*i) {
            *i += 1;
            if e == via {
                continue;
            }
            if disc[w as usize] == u32::MAX {
                time += 1;
                disc[w as usize] = time;
                low[w as usize] = time;
                stack.push(e);
                frames.push((w, 0, e));
            } else if disc[w as usize] < disc[v as usize] {
                stack.push(e);
                low[v as usize] = low[v as usize].min(disc[w as usize]);
            }
            continue;
        }
        frames.pop();
        if let Some(&(p, _, _)) = frames.last() {
            low[p as usize] = low[p as usize].min(low[v as usize]);
            if low[v as usize] >= disc[p as usize] {
                // The edges above `via` on the stack form one block.
                let at = stack.iter().rposition(|&e| e == via).expect("tree edge on the stack");
                let block: Vec<usize> = stack.drain(at..).collect();
                if block.contains(&target) {
                    block.into_iter().for_each(|e| live[e] = true);
                }
            }
        }
    }
    live
}

/// The pair index of an edge: v(v−1)/2 + u for u < v.
pub fn pair(u: u8, v: u8) -> u8 {
    let (u, v) = (u.min(v) as usize, u.max(v) as usize);
    (v * (v - 1) / 2 + u) as u8
}

/// The canonical labelling of `net`: for every node its new number (A, B
/// stay 0, 1), chosen so that isomorphic graphs (fixing A and B) get the same
/// sorted edge list.
pub fn canonical(net: &Net) -> Vec<u8> {
    let n = net.nodes;
    let mut mult = vec![0u8; n * n];
    for &(u, v) in &net.edges {
        mult[u as usize * n + v as usize] += 1;
        mult[v as usize * n + u as usize] += 1;
    }
    let colours: Vec<u32> = (0..n).map(|v| v.min(2) as u32).collect();
    let mut best: Option<(Vec<u8>, Vec<u8>)> = None;
    search(net, &mult, colours, &mut best);
    best.expect("a discrete colouring").1
}

/// Refines `colours` (an ordered partition) until stable; then individualises
/// every node of the first non-trivial cell in turn, keeping the least encoding.
fn search(net: &Net, mult: &[u8], mut colours: Vec<u32>, best: &mut Option<(Vec<u8>, Vec<u8>)>) {
    let n = net.nodes;
    if refine(n, mult, &mut colours) == n {
        let label: Vec<u8> = colours.iter().map(|&c| c as u8).collect();
        let mut code: Vec<u8> = net.edges.iter().map(|&(u, v)| pair(label[u as usize], label[v as usize])).collect();
        code.sort_unstable();
        if best.as_ref().is_none_or(|(b, _)| code < *b) {
            *best = Some((code, label));
        }
        return;
    }
    let mut size = vec![0u32; n];
    colours.iter().for_each(|&c| size[c as usize] += 1);
    let cell = (0..n as u32).find(|&c| size[c as usize] > 1).expect("a non-trivial cell");
    for v in (0..n).filter(|&v| colours[v] == cell) {
        let mut split: Vec<u32> = colours.iter().map(|&c| 2 * c + 1).collect();
        split[v] = 2 * cell;
        search(net, mult, split, best);
    }
}

/// Colour refinement: a node's new colour is the rank of (its colour, the
/// sorted colours and multiplicities of its neighbours). Returns the cell count.
fn refine(n: usize, mult: &[u8], colours: &mut [u32]) -> usize {
    let mut cells = {
        let mut c = colours.to_vec();
        c.sort_unstable();
        c.dedup();
        c.len()
    };
    loop {
        let mut sigs: Vec<(Vec<u32>, usize)> = (0..n)
            .map(|v| {
                let mut s: Vec<u32> =
                    (0..n).filter(|&w| mult[v * n + w] > 0).map(|w| colours[w] << 8 | mult[v * n + w] as u32).collect();
                s.sort_unstable();
                s.insert(0, colours[v]);
                (s, v)
            })
            .collect();
        sigs.sort_unstable();
        let mut rank = 0u32;
        for i in 0..n {
            if i > 0 && sigs[i].0 != sigs[i - 1].0 {
                rank += 1;
            }
            colours[sigs[i].1] = rank;
        }
        let now = rank as usize + 1;
        if now == cells {
            return cells;
        }
        cells = now;
    }
}

/// `net` relabelled by `label`, edges sorted by pair index; for every input
/// edge its index in the result (parallel copies in input order).
pub fn relabel(net: &Net, label: &[u8]) -> (Net, Vec<usize>) {
    let mut order: Vec<(u8, usize)> =
        net.edges.iter().enumerate().map(|(i, &(u, v))| (pair(label[u as usize], label[v as usize]), i)).collect();
    order.sort_unstable();
    let mut position = vec![0; net.edges.len()];
    let mut edges = Vec::with_capacity(order.len());
    for (j, &(_, i)) in order.iter().enumerate() {
        position[i] = j;
        let (u, v) = net.edges[i];
        let (x, y) = (label[u as usize], label[v as usize]);
        edges.push((x.min(y), x.max(y)));
    }
    (Net { nodes: net.nodes, edges }, position)
}

/// A core: its graph and, for every edge, the caller's name for it (a board edge).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Core {
    pub net: Net,
    pub ids: Vec<usize>,
}

/// Where a round ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// A and B merged (by marks and couples).
    ShortWon,
    /// A and B apart in the core.
    CutWon,
    Live(Core),
}

/// Shrinks the graph `ends` (named `ids`) over `0..nodes` to its core (see the
/// module text): dead edges dropped, parallel pairs merged as couples (pushed
/// to `couples`, none if `None`), nodes of degree two removed.
pub fn shrink(
    nodes: usize,
    mut ends: Vec<(u32, u32)>,
    mut ids: Vec<usize>,
    (mut a, mut b): (u32, u32),
    mut couples: Option<&mut Vec<(usize, usize)>>,
) -> Step {
    let mut nodes = nodes;
    loop {
        let net = match reduce(nodes, &ends, a, b) {
            Reduced::ShortWon => return Step::ShortWon,
            Reduced::CutWon => return Step::CutWon,
            Reduced::Live(net, map) => {
                let mut kept = vec![0; net.edges.len()];
                map.iter().zip(&ids).for_each(|(m, &id)| m.iter().for_each(|&j| kept[j] = id));
                ids = kept;
                net
            }
        };
        let n = net.nodes;
        let norm = |i: usize| (net.edges[i].0.min(net.edges[i].1), net.edges[i].0.max(net.edges[i].1));
        let mut order: Vec<usize> = (0..net.edges.len()).collect();
        order.sort_by_key(|&i| (norm(i), i));
        let parallel = order.windows(2).find(|w| norm(w[0]) == norm(w[1])).filter(|_| couples.is_some());
        let mut degree = vec![0u32; n];
        net.edges.iter().for_each(|&(u, v)| [u, v].iter().for_each(|&x| degree[x as usize] += 1));
        let (keep, merge): (Vec<usize>, Option<(u8, u8)>) = match (parallel, (2..n).find(|&w| degree[w] == 2)) {
            (Some(w), _) => {
                couples.as_mut().expect("couples kept").push((ids[w[0]], ids[w[1]]));
                ((0..net.edges.len()).filter(|&i| i != w[0] && i != w[1]).collect(), Some(norm(w[0])))
            }
            (None, Some(w)) => {
                let w = w as u8;
                ((0..net.edges.len()).filter(|&i| net.edges[i].0 != w && net.edges[i].1 != w).collect(), None)
            }
            (None, None) => return Step::Live(Core { net, ids }),
        };
        let to = |x: u8| match merge {
            Some((u, v)) if x == v => u as u32,
            _ => x as u32,
        };
        ends = keep.iter().map(|&i| (to(net.edges[i].0), to(net.edges[i].1))).collect();
        ids = keep.iter().map(|&i| ids[i]).collect();
        nodes = n;
        (a, b) = (to(0), to(1));
    }
}

/// Union-find over the nodes of a [`Net`].
pub struct Parts(Vec<u8>);

impl Parts {
    pub fn new(n: usize) -> Parts {
        Parts((0..n as u8).collect())
    }
    pub fn find(&mut self, mut x: u8) -> u8 {
        while self.0[x as usize] != x {
            x = self.0[x as usize];
        }
        x
    }
    pub fn join(&mut self, (u, v): (u8, u8)) {
        let (x, y) = (self.find(u), self.find(v));
        self.0[x.max(y) as usize] = x.min(y);
    }
    pub fn same(&mut self, (u, v): (u8, u8)) -> bool {
        self.find(u) == self.find(v)
    }
}
