//! What the checker knows of a game: its own answer table (from the
//! game's per-code answer function), the symmetry generators it verified,
//! whether the counting bound applies, and how it sees a node
//! ([`Context::examine`]). The builder uses the same examination, so both
//! number the classes of a node alike.

use super::Certify;
use super::leaf::LeafBound;
use crate::error::{Result, invalid};
use crate::search::{AnswerId, CodeId, QueryId};
use num_traits::ToPrimitive;
use rayon::prelude::*;

/// The most pairs of codes whose terminal cost the checker computes itself
/// (Beams(3c,6p): 1.7 M pairs in about 2 s; Beams(6c,3p) has 2.5·10¹⁰).
pub const PAIRS_TRIED: u64 = 5_000_000;

/// The least total of m codes when no query has more than s classes other
/// than its solving one: each strategy node finds at most one code, so at
/// most s^(k−1) codes are found by the k-th query; filling the levels
/// greedily gives Σ k·n_k. (A singleton costs 1: it is found by one query.)
pub fn counting_bound(s: u64, m: u64) -> u64 {
    let s = s.max(1);
    let (mut left, mut total, mut layer, mut depth) = (m, 0u64, 1u64, 1u64);
    while left > 0 {
        let here = left.min(layer);
        total += here * depth;
        left -= here;
        layer = layer.saturating_mul(s);
        depth += 1;
    }
    total
}

/// The answer table and verified symmetry generators of a game.
pub struct Context<'a, P: Certify> {
    pub(crate) problem: &'a P,
    n: usize,
    nq: usize,
    /// `table[c·nq + q]`: the answer of query q to code c (from `replay_answer`; at most 64 answers).
    table: Vec<u8>,
    solving: Vec<Option<AnswerId>>,
    /// Generator images of codes and queries.
    gen_codes: Vec<Vec<CodeId>>,
    gen_queries: Vec<Vec<QueryId>>,
    /// `bounds[s][m]` = [`counting_bound`] if it applies ([`Self::counting_applies`]), else empty.
    bounds: Vec<Vec<u64>>,
    /// The bound of games without a solving answer, if its premise holds ([`LeafBound`]).
    leaf: Option<LeafBound>,
}

/// A node as the checker sees it: the splitting admissible orbit
/// representatives in query order, each with its open answers (a bit per
/// answer other than the solving one that some code gives) and the size of
/// its solving class, and the counting parameter s. Positions number the
/// open classes of all representatives in query order, then answer order.
pub struct Examined {
    pub reps: Vec<QueryId>,
    open: Vec<u64>,
    solved: Vec<u64>,
    /// `starts[i]`: the position of representative i's first open class.
    starts: Vec<usize>,
    pub s: u64,
    /// Answers looked up.
    pub lookups: u64,
}

impl Examined {
    /// Number of positions (open classes of all representatives).
    pub fn positions(&self) -> usize {
        self.starts.last().copied().unwrap_or(0)
    }

    /// The representative (its number) and the answer at position `p` (< [`Self::positions`]).
    pub fn at(&self, p: usize) -> (usize, AnswerId) {
        let i = self.starts.partition_point(|&s| s <= p) - 1;
        let mut bits = self.open[i];
        for _ in 0..p - self.starts[i] {
            bits &= bits - 1;
        }
        (i, bits.trailing_zeros() as AnswerId)
    }

    /// The position of representative i's open class of answer a.
    pub fn position(&self, i: usize, a: AnswerId) -> usize {
        self.starts[i] + (self.open[i] & ((1u64 << a) - 1)).count_ones() as usize
    }
}

fn is_permutation(p: &[u32], n: usize) -> bool {
    let mut seen = vec![false; n];
    p.len() == n && p.iter().all(|&x| (x as usize) < n && !std::mem::replace(&mut seen[x as usize], true))
}

/// Union-find root with path halving.
fn find(root: &mut [QueryId], mut x: QueryId) -> QueryId {
    while root[x as usize] != x {
        root[x as usize] = root[root[x as usize] as usize];
        x = root[x as usize];
    }
    x
}

impl<'a, P: Certify> Context<'a, P> {
    /// Builds the table and verifies every generator: a permutation of the
    /// codes and of the queries preserving every answer, the solving answers
    /// and admissibility, in a game whose state never changes.
    pub fn new(problem: &'a P) -> Result<Self> {
        let (n, nq, answers) = (problem.code_count(), problem.query_count(), problem.answer_count());
        if answers > 64 {
            return Err(invalid(format!("certificates need at most 64 answers; {} has {answers}", problem.name())));
        }
        let table: Vec<AnswerId> = (0..n as CodeId)
            .into_par_iter()
            .flat_map_iter(|c| (0..nq as QueryId).map(move |q| problem.replay_answer(q, c)))
            .collect();
        if table.iter().any(|&a| a as usize >= answers) {
            return Err(invalid("certificate: the game answers beyond its answer count"));
        }
        let table: Vec<u8> = table.into_iter().map(|a| a as u8).collect();
        let solving = (0..nq as QueryId).map(|q| problem.solving_answer(q)).collect();
        let (gen_codes, gen_queries): (Vec<_>, Vec<_>) = problem.symmetry_generators().into_iter().unzip();
        let mut ctx =
            Context { problem, n, nq, table, solving, gen_codes, gen_queries, bounds: Vec::new(), leaf: None };
        ctx.verify_generators()?;
        if ctx.counting_applies() {
            ctx.bounds = (0..=answers as u64).map(|s| (0..=n as u64).map(|m| counting_bound(s, m)).collect()).collect();
        } else if let Some(delta) = ctx.pair_cost() {
            ctx.leaf = Some(LeafBound::new(delta, n, answers));
        }
        Ok(ctx)
    }

    fn verify_generators(&self) -> Result<()> {
        if self.gen_codes.is_empty() {
            return Ok(());
        }
        let p = self.problem;
        let s0 = p.initial_state();
        if !(0..self.nq as QueryId).all(|q| p.next_state(&s0, q) == s0 && p.admissible_below(&s0, q)) {
            return Err(invalid("certificate: symmetry generators offered by a game whose state changes"));
        }
        for (i, (gc, gq)) in self.gen_codes.iter().zip(&self.gen_queries).enumerate() {
            let bad = || invalid(format!("certificate: symmetry generator {i} is not a symmetry of the game"));
            if !is_permutation(gc, self.n) || !is_permutation(gq, self.nq) {
                return Err(bad());
            }
            let ok = (0..self.n).into_par_iter().all(|c| {
                let g = gc[c] as usize;
                (0..self.nq).all(|q| self.table[g * self.nq + gq[q] as usize] == self.table[c * self.nq + q])
            }) && (0..self.nq).all(|q| {
                let g = gq[q];
                self.solving[g as usize] == self.solving[q] && p.is_admissible(&s0, g) == p.is_admissible(&s0, q as u32)
            });
            if !ok {
                return Err(bad());
            }
        }
        Ok(())
    }

    /// Whether [`counting_bound`] bounds every class: the state never
    /// changes, every query has a solving answer given by at most one code
    /// (so a query finds at most one code), and every code x is named by an
    /// always admissible query whose solving answer comes from x alone — so
    /// every set of two or more codes splits, a strategy stops only at
    /// singletons, and each singleton costs at least 1 (checked). Otherwise
    /// the checker bounds a class without a child node by 0.
    fn counting_applies(&self) -> bool {
        let p = self.problem;
        let s0 = p.initial_state();
        let mut named = vec![false; self.n];
        for q in 0..self.nq as QueryId {
            let Some(solving) = self.solving[q as usize] else { return false };
            if p.next_state(&s0, q) != s0
                || (0..self.n as CodeId).filter(|&c| self.answer(q, c) == solving).nth(1).is_some()
            {
                return false;
            }
            if let Some(x) = p.code_of_query(q).filter(|&x| (x as usize) < self.n)
                && p.is_admissible(&s0, q)
                && (0..self.n as CodeId).all(|c| (self.answer(q, c) == solving) == (c == x))
            {
                named[x as usize] = true;
            }
        }
        named.iter().all(|&x| x)
            && (0..self.n as CodeId).all(|x| {
                let t = p.terminal(&p.set_of(&[x]));
                t.queries_per_code >= 1 || t.penalty_total >= crate::search::Exact::from_integer(1.into())
            })
    }

    /// δ of [`LeafBound`] for a game without solving answers whose terminal
    /// sets cost no queries: the least terminal cost of two codes (`None`
    /// otherwise). Every pair is tried, up to [`PAIRS_TRIED`] pairs; beyond,
    /// the game's [`Certify::pair_cost_floor`].
    fn pair_cost(&self) -> Option<u64> {
        let p = self.problem;
        if self.solving.iter().any(Option::is_some) || self.n < 2 {
            return None;
        }
        if (self.n as u64) * (self.n as u64 - 1) / 2 > PAIRS_TRIED {
            return p.pair_cost_floor();
        }
        (0..self.n as CodeId)
            .into_par_iter()
            .map(|x| {
                (x + 1..self.n as CodeId)
                    .map(|y| {
                        let t = p.terminal(&p.set_of(&[x, y]));
                        let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer());
                        penalty.filter(|_| t.queries_per_code == 0)
                    })
                    .try_fold(u64::MAX, |a, b| b.map(|b| a.min(b)))
            })
            .try_reduce(|| u64::MAX, |a, b| Some(a.min(b)))
    }

    /// The terminal cost of stopping at `codes` (queries per code times the
    /// codes, plus the penalty), if the penalty is an integer.
    pub fn terminal_cost(&self, codes: &[CodeId]) -> Option<u64> {
        let p = self.problem;
        let t = p.terminal(&p.set_of(codes));
        let penalty = t.penalty_total.to_integer().to_u64().filter(|_| t.penalty_total.is_integer());
        penalty.map(|pen| u64::from(t.queries_per_code) * codes.len() as u64 + pen)
    }

    /// The bound of a class of m codes without a child node, at a node whose
    /// queries have at most s open classes: [`counting_bound`], the
    /// [`LeafBound`], or 0 where neither premise holds.
    #[inline]
    pub fn simple_bound(&self, s: u64, m: u64) -> u64 {
        match (&self.bounds, &self.leaf) {
            (b, _) if !b.is_empty() => b[s as usize][m as usize],
            (_, Some(leaf)) => leaf.bound(s, m),
            _ => 0,
        }
    }

    #[inline]
    pub fn answer(&self, q: QueryId, c: CodeId) -> AnswerId {
        AnswerId::from(self.table[c as usize * self.nq + q as usize])
    }

    /// The codes of `codes` answering `a` to `q`.
    pub fn class(&self, q: QueryId, a: AnswerId, codes: &[CodeId]) -> Vec<CodeId> {
        codes.iter().copied().filter(|&c| self.answer(q, c) == a).collect()
    }

    /// The image of x under a word of generators (codes if `on_codes`, else queries).
    fn image(&self, word: &[u8], x: u32, on_codes: bool) -> u32 {
        let gens = if on_codes { &self.gen_codes } else { &self.gen_queries };
        word.iter().fold(x, |x, &g| gens[g as usize][x as usize])
    }

    /// The orbit representatives (smallest member) under `words`, after
    /// checking that each maps `codes` onto themselves.
    fn representatives(&self, codes: &[CodeId], words: &[Vec<u8>]) -> std::result::Result<Vec<bool>, String> {
        if words.is_empty() {
            return Ok(vec![true; self.nq]);
        }
        let mut member = vec![false; self.n];
        codes.iter().for_each(|&c| member[c as usize] = true);
        let mut root: Vec<QueryId> = (0..self.nq as QueryId).collect();
        for (w, word) in words.iter().enumerate() {
            if word.iter().any(|&g| g as usize >= self.gen_codes.len()) {
                return Err(format!("symmetry word {w} names an unknown generator"));
            }
            if !codes.iter().all(|&c| member[self.image(word, c, true) as usize]) {
                return Err(format!("symmetry word {w} does not map the node's codes onto themselves"));
            }
            for q in 0..self.nq as QueryId {
                let (a, b) = (find(&mut root, q), find(&mut root, self.image(word, q, false)));
                root[a.max(b) as usize] = a.min(b);
            }
        }
        Ok((0..self.nq as QueryId).map(|q| find(&mut root, q) == q).collect())
    }

    /// The node (`state`, `codes`) under the symmetries `words`: one
    /// splitting admissible query per orbit (its smallest) with its open
    /// answers, and s, the most open classes of any query that may be asked
    /// here or below (orbits have equal counts). One pass over the codes'
    /// table rows collects every query's answers as a bit mask.
    pub fn examine(
        &self,
        state: &P::State,
        codes: &[CodeId],
        words: &[Vec<u8>],
    ) -> std::result::Result<Examined, String> {
        let rep = self.representatives(codes, words)?;
        let nq = self.nq;
        let mut masks = vec![0u64; nq];
        for &c in codes {
            let row = &self.table[c as usize * nq..(c as usize + 1) * nq];
            masks.iter_mut().zip(row).for_each(|(m, &a)| *m |= 1u64 << a);
        }
        let mut seen = Examined {
            reps: Vec::new(),
            open: Vec::new(),
            solved: Vec::new(),
            starts: vec![0],
            s: 1,
            lookups: (codes.len() * nq) as u64,
        };
        for q in 0..nq {
            if !rep[q] || !self.problem.admissible_below(state, q as QueryId) {
                continue;
            }
            let solving = self.solving[q].map_or(0, |a| 1u64 << a);
            let open = masks[q] & !solving;
            seen.s = seen.s.max(u64::from(open.count_ones()));
            if masks[q].count_ones() >= 2 && self.problem.is_admissible(state, q as QueryId) {
                let solved = if masks[q] & solving != 0 {
                    seen.lookups += codes.len() as u64;
                    codes.iter().filter(|&&c| Some(self.answer(q as QueryId, c)) == self.solving[q]).count() as u64
                } else {
                    0
                };
                seen.reps.push(q as QueryId);
                seen.open.push(open);
                seen.solved.push(solved);
                seen.starts.push(seen.positions() + open.count_ones() as usize);
            }
        }
        Ok(seen)
    }

    /// A lower bound on |M| + Σ of the simple bounds of representative i's
    /// open classes from their number k alone: the counting bound is convex
    /// in the class size (each further code costs at least as much as the
    /// one before), so the most even split of the |M| − |solving class| codes
    /// into k classes gives the least sum; the leaf bound tabulates that
    /// least sum itself.
    pub fn quick_bound(&self, seen: &Examined, i: usize, m: u64) -> u64 {
        let k = u64::from(seen.open[i].count_ones());
        let rest = m - seen.solved[i];
        if k == 0 {
            return m;
        }
        if let Some(leaf) = &self.leaf {
            return m + leaf.split(seen.s, k, rest);
        }
        let (q, r) = (rest / k, rest % k);
        m + (k - r) * self.simple_bound(seen.s, q) + r * self.simple_bound(seen.s, q + 1)
    }

    /// The open classes (answer, size) of representative i, in answer order.
    pub fn open_classes(&self, seen: &Examined, i: usize, codes: &[CodeId]) -> Vec<(AnswerId, u64)> {
        let q = seen.reps[i];
        let mut counts = [0u64; 64];
        codes.iter().for_each(|&c| counts[self.answer(q, c) as usize] += 1);
        let mut bits = seen.open[i];
        let mut out = Vec::with_capacity(bits.count_ones() as usize);
        while bits != 0 {
            let a = bits.trailing_zeros() as usize;
            out.push((a as AnswerId, counts[a]));
            bits &= bits - 1;
        }
        out
    }
}
