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
pub use super::nodeset::NodeSet;
use super::nodeset::{has, members, single};
use super::trace::{Trace, Why};

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
    /// The solver's default for the edge pair alone (`Solver::edge_limits`; measured in docs/hex.md,
    /// sessions 19 to 21): larger carriers and more of them decide the loser's positions earlier.
    pub const EDGE: Limits = Limits { max_or: 6, max_carrier: 16, av_plus: true, max_per_pair: 24 };
}

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Vc,
    Sc,
}

/// The derived connections of one graph: minimal carriers per unordered pair.
pub struct Connections<S = Bits> {
    n: usize,
    vc: Vec<Vec<S>>,
    sc: Vec<Vec<S>>,
    partners: Vec<S>,
    /// What the run did (counters for the solver's statistics).
    pub work: Work,
}

/// Counters of one H-search run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Work {
    /// Connections taken from the queue and put through the rules.
    pub rules: u64,
    /// Calls of the OR rule's family extension.
    pub or_steps: u64,
    /// Carriers kept (minimal when added).
    pub kept: u64,
}

impl<S: NodeSet> Connections<S> {
    fn pair(&self, x: usize, y: usize) -> usize {
        x.min(y) * self.n + x.max(y)
    }

    /// The minimal VC carriers between x and y.
    pub fn vcs(&self, x: usize, y: usize) -> &[S] {
        &self.vc[self.pair(x, y)]
    }

    /// The minimal SC carriers between x and y.
    pub fn scs(&self, x: usize, y: usize) -> &[S] {
        &self.sc[self.pair(x, y)]
    }

    /// The smallest VC carrier between x and y, if any.
    pub fn smallest_vc(&self, x: usize, y: usize) -> Option<S> {
        self.vcs(x, y).iter().copied().min_by_key(|c| c.count_ones())
    }
}

impl Connections {
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

/// A derived connection waiting for its rules: (kind, x, y, carrier); nodes below 128.
type Pending<S> = (Kind, u8, u8, S);

/// Pending connections by carrier size (a bucket queue: smaller carriers first,
/// so that most supersets are never derived; last in, first out in a bucket).
struct Queue<S> {
    buckets: Vec<Vec<Pending<S>>>,
    lowest: usize,
}

impl<S: NodeSet> Queue<S> {
    fn push(&mut self, item: Pending<S>) {
        let size = item.3.count_ones() as usize;
        self.buckets[size].push(item);
        self.lowest = self.lowest.min(size);
    }

    fn pop(&mut self) -> Option<Pending<S>> {
        while self.lowest < self.buckets.len() {
            if let Some(item) = self.buckets[self.lowest].pop() {
                return Some(item);
            }
            self.lowest += 1;
        }
        None
    }
}

struct Search<'a, S> {
    graph: &'a HexGraph,
    limits: Limits,
    /// A pair index whose connections follow other limits, and those (none: `usize::MAX`).
    edge: (usize, Limits),
    found: Connections<S>,
    queue: Queue<S>,
    /// The derivation of every kept connection, when recorded (`derive.rs`).
    trace: Option<Box<Trace<S>>>,
}

/// Runs H-search on `graph` with `limits` to its fixpoint.
pub fn h_search(graph: &HexGraph, limits: Limits) -> Connections {
    run_from(graph, limits, None, &[], 0)
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
    run_from(graph, limits, (x != y).then(|| x.min(y) * graph.len() + x.max(y)), &[], 0)
}

/// What [`h_search_edge`] tells about the pair (x, y): its smallest VC carrier
/// (as [`Connections::smallest_vc`]), its SC carriers in list order, and the
/// run's work. Computed with 64-bit node sets when the graph has at most 64
/// nodes (the same run, so the same answer), in the tables of `scratch`. The
/// pair (x, y) itself follows the limits `edge` (carrier size, OR fan-in, list
/// length), every other pair `limits`: any limits derive only real connections
/// (Satz 4.1), and wider ones on the pair asked about leave the run's width as is.
pub fn h_search_edge_answer(
    graph: &HexGraph,
    limits: Limits,
    edge: Limits,
    (x, y): (usize, usize),
    scratch: &mut Scratch,
) -> (Option<Bits>, Vec<Bits>, Work) {
    fn answer<S: NodeSet>(found: &Connections<S>, x: usize, y: usize) -> (Option<Bits>, Vec<Bits>, Work) {
        let scs = found.scs(x, y).iter().map(|c| c.bits()).collect();
        (found.smallest_vc(x, y).map(S::bits), scs, found.work)
    }
    let stop = (x != y).then(|| x.min(y) * graph.len() + x.max(y));
    if graph.len() <= 64 {
        let (found, queue) = scratch.small.take().unwrap_or_default();
        let mut s = Search::new(graph, limits, found, queue).with_edge(stop, edge);
        s.run(stop, &[], 0);
        let out = answer(&s.found, x, y);
        scratch.small = Some((s.found, s.queue));
        out
    } else {
        let mut s = Search::<Bits>::new(graph, limits, Connections::default(), Queue::default()).with_edge(stop, edge);
        s.run(stop, &[], 0);
        answer(&s.found, x, y)
    }
}

/// The run of [`h_search_edge_answer`] (without its 64-bit tables) with the
/// derivation of every kept connection recorded (`derive.rs`): for the proof.
pub(super) fn h_search_traced(
    graph: &HexGraph,
    limits: Limits,
    edge: Limits,
    (x, y): (usize, usize),
) -> (Connections, Trace<Bits>) {
    let stop = (x != y).then(|| x.min(y) * graph.len() + x.max(y));
    let mut s = Search::<Bits>::new(graph, limits, Connections::default(), Queue::default()).with_edge(stop, edge);
    s.trace = Some(Box::default());
    s.run(stop, &[], 0);
    let trace = s.trace.take().expect("recorded");
    (s.found, *trace)
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

/// H-search from `seeds` (queued if an end is in `touched`) to the fixpoint or until `stop` (a pair)
/// has a VC smaller than every pending carrier.
fn run_from<S: NodeSet>(
    graph: &HexGraph,
    limits: Limits,
    stop: Option<usize>,
    seeds: &[Seed],
    touched: Bits,
) -> Connections<S> {
    let (found, queue) = Tables::default();
    let mut s = Search::new(graph, limits, found, queue);
    s.run(stop, seeds, touched);
    s.found
}

/// The tables of a run: the connections found and the queue.
type Tables<S> = (Connections<S>, Queue<S>);

/// Tables kept between the solver's H-search runs (thousands per question): the
/// lists and queue buckets keep their memory, so a run allocates almost nothing.
#[derive(Default)]
pub struct Scratch {
    small: Option<Tables<u64>>,
}

impl<S: NodeSet> Default for Connections<S> {
    fn default() -> Self {
        Connections { n: 0, vc: Vec::new(), sc: Vec::new(), partners: Vec::new(), work: Work::default() }
    }
}

impl<S> Default for Queue<S> {
    fn default() -> Self {
        Queue { buckets: Vec::new(), lowest: 0 }
    }
}

impl<'a, S: NodeSet> Search<'a, S> {
    /// A search on `graph` in the (emptied) tables `found` and `queue`.
    fn new(graph: &'a HexGraph, limits: Limits, mut found: Connections<S>, mut queue: Queue<S>) -> Self {
        let n = graph.len();
        found.n = n;
        for lists in [&mut found.vc, &mut found.sc] {
            lists.iter_mut().for_each(Vec::clear);
            lists.resize_with(n * n, Vec::new);
        }
        found.partners.clear();
        found.partners.resize(n, S::zero());
        found.work = Work::default();
        // Carriers hold free nodes only, so no carrier has more than n nodes.
        queue.buckets.iter_mut().for_each(Vec::clear);
        queue.buckets.resize_with((limits.max_carrier as usize).min(n) + 1, Vec::new);
        queue.lowest = 0;
        Search { graph, limits, edge: (usize::MAX, limits), found, queue, trace: None }
    }

    /// The same search with the limits `edge` for the pair `pair` (if any).
    fn with_edge(mut self, pair: Option<usize>, edge: Limits) -> Self {
        let widest = self.limits.max_carrier.max(edge.max_carrier) as usize;
        self.queue.buckets.resize_with(widest.min(self.found.n) + 1, Vec::new);
        self.edge = (pair.unwrap_or(usize::MAX), edge);
        self
    }

    /// The limits of the connections of the pair `pair`.
    fn limits_of(&self, pair: usize) -> Limits {
        if pair == self.edge.0 { self.edge.1 } else { self.limits }
    }

    /// The run: seeds, the base case, then the rules until the queue is empty or `stop` holds.
    fn run(&mut self, stop: Option<usize>, seeds: &[Seed], touched: Bits) {
        let s = self;
        for &(vc, x, y, carrier) in seeds {
            let kind = if vc { Kind::Vc } else { Kind::Sc };
            let carrier = S::from_bits(carrier);
            if s.insert(kind, x, y, carrier) && (touched >> x | touched >> y) & 1 == 1 {
                s.queue.push((kind, x.min(y) as u8, x.max(y) as u8, carrier));
            }
        }
        for x in 0..s.found.n {
            for y in super::board::cells_of(s.graph.adjacency[x]) {
                if x < y {
                    s.note(|| Why::Base);
                    s.add(Kind::Vc, x, y, S::zero());
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
            let (x, y) = (usize::from(x), usize::from(y));
            let pair = s.found.pair(x, y);
            let list = if kind == Kind::Vc { &s.found.vc[pair] } else { &s.found.sc[pair] };
            if !list.contains(&carrier) {
                continue;
            }
            s.found.work.rules += 1;
            match kind {
                Kind::Vc => s.and_rules(x, y, carrier),
                Kind::Sc => s.or_rule(x, y, carrier),
            }
        }
    }
}

impl<S: NodeSet> Search<'_, S> {
    /// Adds a carrier if no kept one is a subset; drops the supersets it replaces.
    #[inline]
    fn add(&mut self, kind: Kind, x: usize, y: usize, carrier: S) {
        if self.insert(kind, x, y, carrier) {
            if let Some(t) = &mut self.trace {
                t.keep(kind == Kind::Vc, x, y, carrier);
            }
            self.queue.push((kind, x.min(y) as u8, x.max(y) as u8, carrier));
        }
    }

    /// When derivations are recorded: the rule application that the next [`Search::add`] makes.
    #[inline]
    fn note(&mut self, why: impl FnOnce() -> Why<S>) {
        if let Some(t) = &mut self.trace {
            t.current = why();
        }
    }

    /// [`Search::add`] without queueing it: whether the carrier was kept.
    fn insert(&mut self, kind: Kind, x: usize, y: usize, carrier: S) -> bool {
        let pair = self.found.pair(x, y);
        let limits = self.limits_of(pair);
        if carrier.count_ones() > limits.max_carrier {
            return false;
        }
        let list = if kind == Kind::Vc { &mut self.found.vc[pair] } else { &mut self.found.sc[pair] };
        if list.iter().any(|&c| c & !carrier == S::zero()) {
            return false;
        }
        list.retain(|&c| c & carrier != carrier);
        if list.len() >= limits.max_per_pair {
            return false;
        }
        list.push(carrier);
        self.found.work.kept += 1;
        if kind == Kind::Vc {
            self.found.partners[x] = self.found.partners[x] | single(y);
            self.found.partners[y] = self.found.partners[y] | single(x);
        }
        true
    }

    /// AND with the new VC (x, a, y) on either side, over every VC at its other end.
    fn and_rules(&mut self, x: usize, y: usize, a: S) {
        for (end, mid) in [(x, y), (y, x)] {
            let occupied = self.graph.occupied >> mid & 1 == 1;
            if occupied && !self.limits.av_plus && a != S::zero() {
                continue;
            }
            for z in members(self.found.partners[mid] & !single::<S>(end) & !a) {
                let pair = self.found.pair(mid, z);
                // (mid, z) ≠ (end, z): the additions below never touch this list.
                for i in 0..self.found.vc[pair].len() {
                    let b = self.found.vc[pair][i];
                    if has(b, end) || a & b != S::zero() {
                        continue;
                    }
                    self.note(|| Why::And { ends: (end, z), mid, a, b });
                    if occupied {
                        if self.limits.av_plus || b == S::zero() {
                            self.add(Kind::Vc, end, z, a | b);
                        }
                    } else {
                        self.add(Kind::Sc, end, z, a | b | single(mid));
                    }
                }
            }
        }
    }

    /// OR over SC families containing the new SC `c` with empty intersection.
    /// The SC list is taken out of the table while the OR runs (no copy): the
    /// OR only adds VCs, so nothing reads or changes it meanwhile.
    fn or_rule(&mut self, x: usize, y: usize, c: S) {
        let pair = self.found.pair(x, y);
        let limits = self.limits_of(pair);
        if c == S::zero() {
            self.add(Kind::Vc, x, y, S::zero());
        } else if limits.max_or > 1 && c.count_ones() <= limits.max_carrier {
            // A node in every SC of the pair is in every family's intersection: no family closes.
            if self.found.sc[pair].iter().fold(c, |m, &s| m & s) != S::zero() {
                return;
            }
            let scs = std::mem::take(&mut self.found.sc[pair]);
            if let Some(t) = &mut self.trace {
                t.family = vec![c];
            }
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
    fn or_extend(&mut self, x: usize, y: usize, scs: &[S], union: S, common: S, used: usize) {
        self.found.work.or_steps += 1;
        if self.found.vcs(x, y).iter().any(|&v| v & !union == S::zero()) {
            return;
        }
        let avoid = single::<S>(common.trailing_zeros() as usize);
        let limits = self.limits_of(self.found.pair(x, y));
        let more = used + 1 < limits.max_or;
        for &s in scs {
            if s & avoid != S::zero() {
                continue;
            }
            let (wider, still) = (union | s, common & s);
            let tracing = self.trace.is_some();
            if tracing {
                self.trace.as_mut().expect("tracing").family.push(s);
            }
            if still == S::zero() {
                self.note(|| Why::Or(Vec::new()));
                self.add(Kind::Vc, x, y, wider);
            } else if more && wider.count_ones() <= limits.max_carrier {
                self.or_extend(x, y, scs, wider, still, used + 1);
            }
            if tracing {
                self.trace.as_mut().expect("tracing").family.pop();
            }
        }
    }
}
