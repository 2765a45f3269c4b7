//! H-search (Anshelevich; Def 3.1 of seed 004): virtual connections (VCs) and
//! semi-connections (SCs) with carriers, derived by
//! - the base case: {x, y} ∈ E gives the VC (x, ∅, y);
//! - the AND rules: VCs (x, A, u), (u, B, y) with x ≠ y, x ∉ B, y ∉ A, A ∩ B = ∅
//!   give the VC (x, A ∪ B, y) if u is occupied (AV) and the SC
//!   (x, A ∪ {u} ∪ B, y) if u is free (AS);
//! - the OR rule: SCs (x, C_k, y) with ⋂ C_k = ∅ give the VC (x, ⋃ C_k, y).
//!
//! Per unordered pair only the inclusion-minimal carriers are kept (exact for
//! "is there a VC", `../shared/reference/seed004-hex.md` §3 notes: every rule stays applicable when a
//! carrier shrinks). [`Limits::EXHAUSTIVE`] runs all rules to the fixpoint;
//! bounded limits (OR fan-in, carrier size) give the practical H-search, which
//! derives a subset. `av_plus = false` restricts AV to empty carriers (AV₀,
//! Def 5.2), the variant that Satz 5.4 shows loses nothing.

use super::board::Bits;
use super::graph::HexGraph;

/// Which rule applications are allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The largest number of SCs one OR combines (≥ 2).
    pub max_or: usize,
    /// The largest carrier kept (number of free nodes).
    pub max_carrier: u32,
    /// Whether AV may combine non-empty carriers (AV₊).
    pub av_plus: bool,
    /// At most this many minimal carriers per pair and kind (later ones are dropped).
    pub max_per_pair: usize,
}

impl Limits {
    /// All rules without bounds (the fixpoint of Def 3.1; exponential).
    pub const EXHAUSTIVE: Limits =
        Limits { max_or: usize::MAX, max_carrier: u32::MAX, av_plus: true, max_per_pair: usize::MAX };
    /// The bounded mode used by the solver.
    pub const SOLVER: Limits = Limits { max_or: 4, max_carrier: 12, av_plus: true, max_per_pair: 12 };
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Vc,
    Sc,
}

/// The derived connections of one graph: minimal carriers per unordered pair.
pub struct Connections {
    n: usize,
    vc: Vec<Vec<Bits>>,
    sc: Vec<Vec<Bits>>,
    partners: Vec<Bits>,
}

impl Connections {
    fn pair(&self, x: usize, y: usize) -> usize {
        x.min(y) * self.n + x.max(y)
    }

    /// The minimal VC carriers between x and y.
    pub fn vcs(&self, x: usize, y: usize) -> &[Bits] {
        &self.vc[self.pair(x, y)]
    }

    /// The minimal SC carriers between x and y.
    pub fn scs(&self, x: usize, y: usize) -> &[Bits] {
        &self.sc[self.pair(x, y)]
    }

    /// The smallest VC carrier between x and y, if any.
    pub fn smallest_vc(&self, x: usize, y: usize) -> Option<Bits> {
        self.vcs(x, y).iter().copied().min_by_key(|c| c.count_ones())
    }

    /// All (x, y, carrier) with x < y, VCs or SCs.
    pub fn all(&self, semi: bool) -> Vec<(usize, usize, Bits)> {
        let lists = if semi { &self.sc } else { &self.vc };
        let mut out = Vec::new();
        for x in 0..self.n {
            for y in x + 1..self.n {
                out.extend(lists[x * self.n + y].iter().map(|&c| (x, y, c)));
            }
        }
        out
    }

    /// Every kept connection as a [`Seed`]: per pair the VCs, then the SCs, in list order.
    pub fn seeds(&self) -> Vec<Seed> {
        let mut out = Vec::new();
        for x in 0..self.n {
            for y in x + 1..self.n {
                let pair = x * self.n + y;
                out.extend(self.vc[pair].iter().map(|&c| (true, x, y, c)));
                out.extend(self.sc[pair].iter().map(|&c| (false, x, y, c)));
            }
        }
        out
    }

    /// The mustplay region against the player of this graph: the intersection of
    /// his x–y SC carriers (the opponent must play there, else the key move of
    /// one intact SC connects). `None` if there is no SC.
    pub fn mustplay(&self, x: usize, y: usize) -> Option<Bits> {
        let scs = self.scs(x, y);
        if scs.is_empty() { None } else { Some(scs.iter().fold(!0, |m, c| m & c)) }
    }
}

/// A derived connection waiting for its rules: (kind, x, y, carrier).
type Pending = (Kind, usize, usize, Bits);

/// Pending connections by carrier size (a bucket queue: smaller carriers first,
/// so that most supersets are never derived; last in, first out in a bucket).
struct Queue {
    buckets: Vec<Vec<Pending>>,
    lowest: usize,
}

impl Queue {
    fn push(&mut self, item: Pending) {
        let size = item.3.count_ones() as usize;
        self.buckets[size].push(item);
        self.lowest = self.lowest.min(size);
    }

    fn pop(&mut self) -> Option<Pending> {
        while self.lowest < self.buckets.len() {
            if let Some(item) = self.buckets[self.lowest].pop() {
                return Some(item);
            }
            self.lowest += 1;
        }
        None
    }
}

struct Search<'a> {
    graph: &'a HexGraph,
    limits: Limits,
    found: Connections,
    queue: Queue,
}

/// Runs H-search on `graph` with `limits` to its fixpoint.
pub fn h_search(graph: &HexGraph, limits: Limits) -> Connections {
    run(graph, limits, None)
}

/// H-search for the question "is there an x–y VC, and which is the smallest?":
/// it stops once an x–y VC is known and every pending carrier is larger. The
/// rules only grow carriers (AND: A ∪ B ⊇ A; OR: the union ⊇ the new SC) and the
/// queue hands carriers out by size, so by then every carrier of at most that
/// size that the full run derives has been derived, in the same order; later
/// derivations neither add a carrier that small nor drop one (a dropped carrier
/// contains the new, larger one). So [`Connections::smallest_vc`] for (x, y)
/// equals the full run's; the other lists may be partial when an x–y VC
/// exists. Without an x–y VC this is the full run.
pub fn h_search_edge(graph: &HexGraph, limits: Limits, x: usize, y: usize) -> Connections {
    run(graph, limits, (x != y).then(|| x.min(y) * graph.len() + x.max(y)))
}

/// A connection carried into a run (`reuse.rs`): (VC?, x, y, carrier) in the run's graph.
pub type Seed = (bool, usize, usize, Bits);

/// [`h_search_edge`] started from `seeds`, connections of this graph known to be
/// real (`reuse.rs` shows which carried-over connections are): they enter the
/// tables like derived ones, kept or dropped by the same minimality and limits,
/// but only those with an end in `touched` go through the rules again; the
/// others were combined with each other where they were derived. Sound as the
/// plain run (every rule applied to real connections gives a real one, Satz
/// 4.1); the derived set may differ from the plain run's (bounded limits).
pub fn h_search_edge_seeded(
    graph: &HexGraph,
    limits: Limits,
    ends: (usize, usize),
    seeds: &[Seed],
    touched: Bits,
) -> Connections {
    let (x, y) = ends;
    run_from(graph, limits, (x != y).then(|| x.min(y) * graph.len() + x.max(y)), seeds, touched)
}

/// H-search to the fixpoint, or until `stop` (a pair index) has a VC smaller than every pending carrier.
fn run(graph: &HexGraph, limits: Limits, stop: Option<usize>) -> Connections {
    run_from(graph, limits, stop, &[], 0)
}

/// [`run`] after entering `seeds` (those with an end in `touched` queued).
fn run_from(graph: &HexGraph, limits: Limits, stop: Option<usize>, seeds: &[Seed], touched: Bits) -> Connections {
    let n = graph.len();
    let found = Connections { n, vc: vec![Vec::new(); n * n], sc: vec![Vec::new(); n * n], partners: vec![0; n] };
    let queue = Queue { buckets: vec![Vec::new(); 129], lowest: 0 };
    let mut s = Search { graph, limits, found, queue };
    for &(vc, x, y, carrier) in seeds {
        let kind = if vc { Kind::Vc } else { Kind::Sc };
        if s.insert(kind, x, y, carrier) && (touched >> x | touched >> y) & 1 == 1 {
            s.queue.push((kind, x.min(y), x.max(y), carrier));
        }
    }
    for x in 0..n {
        for y in super::board::cells_of(graph.adjacency[x]) {
            if x < y {
                s.add(Kind::Vc, x, y, 0);
            }
        }
    }
    while let Some((kind, x, y, carrier)) = s.queue.pop() {
        if let Some(p) = stop
            && let Some(best) = s.found.vc[p].iter().map(|c| c.count_ones()).min()
            && carrier.count_ones() > best
        {
            break;
        }
        let pair = s.found.pair(x, y);
        let list = if kind == Kind::Vc { &s.found.vc[pair] } else { &s.found.sc[pair] };
        if !list.contains(&carrier) {
            continue;
        }
        match kind {
            Kind::Vc => s.and_rules(x, y, carrier),
            Kind::Sc => s.or_rule(x, y, carrier),
        }
    }
    s.found
}

impl Search<'_> {
    /// Adds a carrier if no kept one is a subset; drops the supersets it replaces.
    fn add(&mut self, kind: Kind, x: usize, y: usize, carrier: Bits) {
        if self.insert(kind, x, y, carrier) {
            self.queue.push((kind, x.min(y), x.max(y), carrier));
        }
    }

    /// [`Search::add`] without queueing it: whether the carrier was kept.
    fn insert(&mut self, kind: Kind, x: usize, y: usize, carrier: Bits) -> bool {
        if carrier.count_ones() > self.limits.max_carrier {
            return false;
        }
        let pair = self.found.pair(x, y);
        let list = if kind == Kind::Vc { &mut self.found.vc[pair] } else { &mut self.found.sc[pair] };
        if list.iter().any(|&c| c & !carrier == 0) {
            return false;
        }
        list.retain(|&c| c & carrier != carrier);
        if list.len() >= self.limits.max_per_pair {
            return false;
        }
        list.push(carrier);
        if kind == Kind::Vc {
            self.found.partners[x] |= 1 << y;
            self.found.partners[y] |= 1 << x;
        }
        true
    }

    /// AND with the new VC (x, a, y) on either side, over every VC at its other end.
    fn and_rules(&mut self, x: usize, y: usize, a: Bits) {
        for (end, mid) in [(x, y), (y, x)] {
            let occupied = self.graph.occupied >> mid & 1 == 1;
            if occupied && !self.limits.av_plus && a != 0 {
                continue;
            }
            for z in super::board::cells_of(self.found.partners[mid] & !(1 << end)) {
                if a >> z & 1 == 1 {
                    continue;
                }
                let pair = self.found.pair(mid, z);
                // (mid, z) ≠ (end, z): the additions below never touch this list.
                for i in 0..self.found.vc[pair].len() {
                    let b = self.found.vc[pair][i];
                    if b >> end & 1 == 1 || a & b != 0 {
                        continue;
                    }
                    if occupied {
                        if self.limits.av_plus || b == 0 {
                            self.add(Kind::Vc, end, z, a | b);
                        }
                    } else {
                        self.add(Kind::Sc, end, z, a | b | 1 << mid);
                    }
                }
            }
        }
    }

    /// OR over SC families containing the new SC `c` with empty intersection.
    /// The SC list is taken out of the table while the OR runs (no copy): the
    /// OR only adds VCs, so nothing reads or changes it meanwhile.
    fn or_rule(&mut self, x: usize, y: usize, c: Bits) {
        if c == 0 {
            self.add(Kind::Vc, x, y, 0);
        } else if self.limits.max_or > 1 && c.count_ones() <= self.limits.max_carrier {
            let pair = self.found.pair(x, y);
            let scs = std::mem::take(&mut self.found.sc[pair]);
            self.or_extend(x, y, &scs, c, c, 1);
            self.found.sc[pair] = scs;
        }
    }

    /// Extends the family (`union`, `common` ≠ ∅, `used` SCs) by each SC avoiding
    /// the lowest cell of `common`. A family that closes (`common` ∩ s = ∅) goes
    /// straight to `add`, whose subset test is the VC test below; an
    /// open one is extended only while SCs may be added and its union fits the
    /// carrier bound (a call for any other would return at once). The same
    /// additions in the same order as trying every extension.
    fn or_extend(&mut self, x: usize, y: usize, scs: &[Bits], union: Bits, common: Bits, used: usize) {
        if self.found.vcs(x, y).iter().any(|&v| v & !union == 0) {
            return;
        }
        let avoid = common & common.wrapping_neg();
        let more = used + 1 < self.limits.max_or;
        for &s in scs {
            if s & avoid != 0 {
                continue;
            }
            let (wider, still) = (union | s, common & s);
            if still == 0 {
                self.add(Kind::Vc, x, y, wider);
            } else if more && wider.count_ones() <= self.limits.max_carrier {
                self.or_extend(x, y, scs, wider, still, used + 1);
            }
        }
    }
}
