//! The `f64` production path of the MC(N) selection probabilities (thesis
//! §2.4.3; the exact generic methods are in [`super::mc_select`]).
//!
//! Each candidate's Binomial(N, p) pmf is kept on its significant window
//! ([`Window`]); identical p are grouped, and for every maximum j the tie sum
//! Σ_t P(t others tie)/(t+1) = ∫₀¹ Π_{o≠i}(B_o(j−1) + b_o(j)z) dz is integrated
//! exactly by Gauss–Legendre with ⌈m/2⌉ nodes. The j range is cut into
//! segments on which the set of candidates still inside their windows is
//! fixed (the others have B = 1, b = 0 and drop out), so the inner loop reads
//! the windows directly, without bounds cases.

use crate::error::{Result, invalid};

/// Largest N accepted by the float path: beyond it the binomial window is wide
/// enough that accumulated rounding could pass the stated bound (thesis l. 4496:
/// rounding errors for N > 10⁵).
pub const MAX_FLOAT_N: u32 = 100_000;

/// Terms smaller than this times the mode's are dropped. The binomial pmf is
/// log-concave, so each dropped tail is below CUT·(N+1), i.e. < 10⁻¹⁴ for N ≤ 10⁵.
const CUT: f64 = 1e-20;

/// A binomial pmf on its significant window: (b(j), P(X < j)) for j in
/// lo..lo+len, b normalised to sum 1 on the window.
#[derive(Clone, Debug)]
pub struct Window {
    lo: usize,
    cells: Vec<[f64; 2]>,
}

impl Window {
    /// b(j) by the ratio recurrence b(j±1)/b(j) from the mode outwards, in
    /// linear space with the reciprocals `recip[i]` = 1/i (i ≤ N + 1), then
    /// normalised: relative error ≲ 4u per step from the mode (u = 2⁻⁵³), so
    /// ≲ 10⁻¹² over the ≤ 2 000-term window of N = 10⁵.
    fn new(n: u32, p: f64, recip: &[f64]) -> Window {
        let nn = n as usize;
        if p <= 0.0 {
            return Window { lo: 0, cells: vec![[1.0, 0.0]] };
        }
        if p >= 1.0 {
            return Window { lo: nn, cells: vec![[1.0, 0.0]] };
        }
        let mode = (((nn + 1) as f64 * p).floor() as usize).min(nn);
        let (odds, inverse) = (p / (1.0 - p), (1.0 - p) / p);
        // Below the mode b(j−1) = b(j)·j/(N−j+1)/odds, above b(j+1) = b(j)·(N−j)/(j+1)·odds:
        // one pass each to find the window ends, one to store (the same products).
        let down_ratio = |j: usize| j as f64 * recip[nn - j + 1] * inverse;
        let up_ratio = |j: usize| (nn - j) as f64 * recip[j + 1] * odds;
        let (mut j, mut cur) = (mode, 1.0);
        while j > 0 && cur * down_ratio(j) >= CUT {
            cur *= down_ratio(j);
            j -= 1;
        }
        let lo = j;
        let (mut j, mut cur) = (mode, 1.0);
        while j < nn && cur * up_ratio(j) >= CUT {
            cur *= up_ratio(j);
            j += 1;
        }
        let mut cells = vec![[0.0; 2]; j - lo + 1];
        let (low, high) = cells.split_at_mut(mode - lo);
        let (mut cur, mut total) = (1.0, 0.0);
        for (i, cell) in low.iter_mut().rev().enumerate() {
            cur *= down_ratio(mode - i);
            cell[0] = cur;
            total += cur;
        }
        cur = 1.0;
        for (i, cell) in high.iter_mut().enumerate() {
            if i > 0 {
                cur *= up_ratio(mode + i - 1);
            }
            cell[0] = cur;
            total += cur;
        }
        let scale = 1.0 / total;
        let mut acc = 0.0;
        for cell in cells.iter_mut() {
            let b = cell[0] * scale;
            *cell = [b, acc];
            acc += b;
        }
        Window { lo, cells }
    }

    fn hi(&self) -> usize {
        self.lo + self.cells.len() - 1
    }

    /// P(X < j).
    fn below(&self, j: usize) -> f64 {
        if j < self.lo {
            0.0
        } else if j > self.hi() {
            1.0
        } else {
            self.cells[j - self.lo][1]
        }
    }
}

/// x^c by multiplications (c is a candidate multiplicity, ≤ the branching).
#[inline]
fn power(x: f64, c: usize) -> f64 {
    let mut r = 1.0;
    for _ in 0..c {
        r *= x;
    }
    r
}

/// Gauss–Legendre nodes and weights on [0, 1] with q nodes (Newton on P_q).
pub(crate) fn gauss_legendre(q: usize) -> (Vec<f64>, Vec<f64>) {
    let mut nodes = Vec::with_capacity(q);
    let mut weights = Vec::with_capacity(q);
    for i in 0..q {
        let mut x = (std::f64::consts::PI * (i as f64 + 0.75) / (q as f64 + 0.5)).cos();
        let mut dp = 1.0;
        for _ in 0..100 {
            let (mut p0, mut p1) = (1.0, x);
            for k in 2..=q {
                let p2 = ((2 * k - 1) as f64 * x * p1 - (k - 1) as f64 * p0) / k as f64;
                p0 = p1;
                p1 = p2;
            }
            let pq = if q == 0 { 1.0 } else { p1 };
            let pqm1 = if q == 1 { 1.0 } else { p0 };
            dp = q as f64 * (x * pq - pqm1) / (x * x - 1.0);
            let dx = pq / dp;
            x -= dx;
            if dx.abs() < 1e-16 {
                break;
            }
        }
        nodes.push((1.0 - x) / 2.0);
        weights.push(1.0 / ((1.0 - x * x) * dp * dp));
    }
    (nodes, weights)
}

/// The j range start..=end on which the groups `active` (indices into `mult`
/// and `windows`) are inside their windows and all others have passed theirs.
struct Segment<'a> {
    active: &'a [usize],
    mult: &'a [usize],
    windows: &'a [&'a Window],
    start: usize,
    end: usize,
}

impl Segment<'_> {
    /// Adds to `share[g]` Σ_j b_g(j)·∫₀¹ F_g^(c_g−1)·Π_{h≠g} F_h^(c_h) dz with
    /// F_h = B_h(j−1) + b_h(j)·z, by the quadrature (`nodes`, `weights`) padded to
    /// L lanes (padding has weight 0), one lane per node.
    fn integrate<const L: usize>(&self, nodes: &[f64], weights: &[f64], share: &mut [f64]) {
        let (mut z, mut w) = ([0.0; L], [0.0; L]);
        z[..nodes.len()].copy_from_slice(nodes);
        w[..weights.len()].copy_from_slice(weights);
        let a = self.active.len();
        let (mut own, mut full) = (vec![[0.0; L]; a], vec![[0.0; L]; a]);
        let (mut prefix, mut suffix) = (vec![[1.0; L]; a + 1], vec![[1.0; L]; a + 1]);
        let mut b = vec![0.0; a];
        for j in self.start..=self.end {
            for (s, &g) in self.active.iter().enumerate() {
                let window = self.windows[g];
                let [pm, below] = window.cells[j - window.lo];
                b[s] = pm;
                let mut f = [0.0; L];
                for k in 0..L {
                    f[k] = below + pm * z[k];
                }
                let mut o = [1.0; L];
                for _ in 1..self.mult[g] {
                    for k in 0..L {
                        o[k] *= f[k];
                    }
                }
                own[s] = o;
                for k in 0..L {
                    full[s][k] = o[k] * f[k];
                }
            }
            for s in 0..a {
                for k in 0..L {
                    prefix[s + 1][k] = prefix[s][k] * full[s][k];
                }
            }
            for s in (0..a).rev() {
                for k in 0..L {
                    suffix[s][k] = suffix[s + 1][k] * full[s][k];
                }
            }
            for (s, &g) in self.active.iter().enumerate() {
                let mut sum = 0.0;
                for k in 0..L {
                    sum += w[k] * prefix[s][k] * own[s][k] * suffix[s + 1][k];
                }
                share[g] += b[s] * sum;
            }
        }
    }

    /// [`Self::integrate`] for any number of nodes, node by node.
    fn integrate_any(&self, nodes: &[f64], weights: &[f64], share: &mut [f64]) {
        let a = self.active.len();
        let (mut b, mut below, mut factor, mut own) = (vec![0.0; a], vec![0.0; a], vec![0.0; a], vec![0.0; a]);
        let (mut prefix, mut suffix) = (vec![1.0; a + 1], vec![1.0; a + 1]);
        for j in self.start..=self.end {
            for (s, &g) in self.active.iter().enumerate() {
                let window = self.windows[g];
                [b[s], below[s]] = window.cells[j - window.lo];
            }
            for (z, wt) in nodes.iter().zip(weights) {
                for s in 0..a {
                    factor[s] = below[s] + b[s] * z;
                    own[s] = power(factor[s], self.mult[self.active[s]] - 1);
                }
                for s in 0..a {
                    prefix[s + 1] = prefix[s] * own[s] * factor[s];
                }
                for s in (0..a).rev() {
                    suffix[s] = suffix[s + 1] * own[s] * factor[s];
                }
                for (s, &g) in self.active.iter().enumerate() {
                    share[g] += wt * b[s] * prefix[s] * own[s] * suffix[s + 1];
                }
            }
        }
    }
}

/// MC(N) selection probabilities in `f64` (the production path), N ≤ [`MAX_FLOAT_N`].
///
/// Error bound: each pmf term has relative error ≲ 10⁻¹² and each dropped tail
/// is < 10⁻¹⁴; the products and the exact-degree quadrature add ≲ 10·m·u. So
/// |f − f_exact| ≲ 10⁻¹¹ per candidate; the tests compare with exact rationals.
#[derive(Clone, Debug)]
pub struct McFloat {
    n: u32,
    quadrature: Vec<(Vec<f64>, Vec<f64>)>,
    /// 1/i for i = 0..=N+1 (index 0 unused), shared by all windows of this N.
    recip: Vec<f64>,
}

impl McFloat {
    /// An MC(N) selector for N in 1..=[`MAX_FLOAT_N`].
    pub fn new(n: u32) -> Result<McFloat> {
        if n == 0 {
            return Err(invalid("MC(N) needs N ≥ 1 play-outs per candidate (k = 0 given)"));
        }
        if n > MAX_FLOAT_N {
            return Err(invalid(format!(
                "MC({n}): N above {MAX_FLOAT_N} play-outs is beyond the stated float error bound (thesis l. 4496)"
            )));
        }
        let recip = (0..=n as usize + 1).map(|i| if i == 0 { 0.0 } else { 1.0 / i as f64 }).collect();
        Ok(McFloat { n, quadrature: Vec::new(), recip })
    }

    /// Number of play-outs N.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// f_N(i) for the candidates' play-out win probabilities `ps`.
    pub fn select(&self, ps: &[f64]) -> Vec<f64> {
        let windows: Vec<Window> = ps.iter().map(|&p| self.window(p)).collect();
        let refs: Vec<&Window> = windows.iter().collect();
        self.select_with(ps, &refs)
    }

    /// The binomial window of one candidate with play-out win probability p.
    pub fn window(&self, p: f64) -> Window {
        Window::new(self.n, p, &self.recip)
    }

    /// [`Self::select`] with the candidates' windows given (`windows[i]` =
    /// [`Self::window`]`(ps[i])`), so that a graph computes each state's once.
    pub fn select_with(&self, ps: &[f64], windows: &[&Window]) -> Vec<f64> {
        // Group identical p (same successor): f is equal within a group.
        let mut groups: Vec<(f64, usize)> = Vec::new();
        let mut first: Vec<usize> = Vec::new();
        for (i, &p) in ps.iter().enumerate() {
            match groups.iter_mut().find(|g| g.0 == p) {
                Some(g) => g.1 += 1,
                None => {
                    groups.push((p, 1));
                    first.push(i);
                }
            }
        }
        if groups.len() == 1 {
            return vec![1.0 / ps.len() as f64; ps.len()];
        }
        let all: Vec<&Window> = first.iter().map(|&i| windows[i]).collect();
        let j0 = all.iter().map(|w| w.lo).max().unwrap_or(0);
        // A group whose window ends below j0 always has fewer wins than the group
        // starting at j0 (within the window's truncation): it is never chosen and
        // its factor B + b·z is 1 for every j ≥ j0, so it drops out.
        let keep: Vec<usize> = (0..groups.len()).filter(|&g| all[g].hi() >= j0).collect();
        let groups: Vec<(f64, usize)> = keep.iter().map(|&g| groups[g]).collect();
        let windows: Vec<&Window> = keep.into_iter().map(|g| all[g]).collect();
        if groups.len() == 1 {
            let (p, c) = groups[0];
            return ps.iter().map(|x| if *x == p { 1.0 / c as f64 } else { 0.0 }).collect();
        }
        let share = self.shares(&groups, &windows, j0);
        ps.iter().map(|p| groups.iter().position(|g| g.0 == *p).map_or(0.0, |g| share[g])).collect()
    }

    /// Each group's share per member, for ≥ 2 groups whose windows all reach j0
    /// (= the largest window start).
    fn shares(&self, groups: &[(f64, usize)], windows: &[&Window], j0: usize) -> Vec<f64> {
        let q = groups.iter().map(|g| g.1).sum::<usize>().div_ceil(2);
        let owned;
        let (nodes, weights) = match self.quadrature.get(q) {
            Some(nw) => (&nw.0, &nw.1),
            None => {
                owned = gauss_legendre(q);
                (&owned.0, &owned.1)
            }
        };
        let d = groups.len();
        let mut share = vec![0.0; d];
        // Above the second-highest window end only the top group is active; a
        // single top candidate then simply collects its remaining mass.
        let top = (0..d).max_by_key(|&g| windows[g].hi()).expect("two groups");
        let second = (0..d).filter(|&g| g != top).map(|g| windows[g].hi()).max().expect("two groups");
        let last = if groups[top].1 == 1 && second < windows[top].hi() {
            share[top] += 1.0 - windows[top].below(second + 1);
            second
        } else {
            windows[top].hi()
        };
        // Segments [start, end] between window ends: the active groups (hi ≥ j)
        // are fixed on each; every group's window starts at or before j0.
        let mut ends: Vec<usize> = windows.iter().map(|w| w.hi()).filter(|&h| h >= j0).collect();
        ends.sort_unstable();
        ends.dedup();
        let mult: Vec<usize> = groups.iter().map(|g| g.1).collect();
        let mut active: Vec<usize> = Vec::with_capacity(d);
        let mut start = j0;
        for end in ends {
            if start > last {
                break;
            }
            let end = end.min(last);
            active.clear();
            active.extend((0..d).filter(|&g| windows[g].hi() >= end));
            let segment = Segment { active: &active, mult: &mult, windows, start, end };
            match nodes.len() {
                1 => segment.integrate::<1>(nodes, weights, &mut share),
                2 => segment.integrate::<2>(nodes, weights, &mut share),
                3 | 4 => segment.integrate::<4>(nodes, weights, &mut share),
                _ => segment.integrate_any(nodes, weights, &mut share),
            }
            start = end + 1;
        }
        share
    }

    /// Precomputes the quadrature rules for up to `max_candidates` candidates.
    pub fn with_capacity(mut self, max_candidates: usize) -> McFloat {
        self.quadrature = (0..=max_candidates.div_ceil(2)).map(gauss_legendre).collect();
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gauss_legendre_integrates_polynomials_exactly() {
        for q in 1..=8 {
            let (x, w) = gauss_legendre(q);
            for deg in 0..2 * q {
                let s: f64 = x.iter().zip(&w).map(|(x, w)| w * x.powi(deg as i32)).sum();
                assert!((s - 1.0 / (deg + 1) as f64).abs() < 1e-14, "q {q} deg {deg}");
            }
        }
    }

    #[test]
    fn windows_sum_to_one_and_sit_around_the_mean() {
        let mc = McFloat::new(1000).unwrap();
        let w = mc.window(0.3);
        let total: f64 = w.cells.iter().map(|c| c[0]).sum();
        assert!((total - 1.0).abs() < 1e-14);
        assert!(w.lo < 300 && w.hi() > 300 && w.hi() - w.lo < 500, "{} {}", w.lo, w.hi());
        // P(X < j) is the running sum: P(X < 300) ≈ 0.4874 (normal approx. with continuity correction).
        assert!((w.below(300) - 0.4874).abs() < 0.01, "{}", w.below(300));
        assert_eq!(w.below(0), 0.0);
        assert_eq!(w.below(1000), 1.0);
    }
}
