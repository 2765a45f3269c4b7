//! Selection probabilities of pure Monte-Carlo agents (thesis §2.4.3, §2.4.6).
//!
//! MC(N) (thesis Def. 1.1) plays N random play-outs after each candidate move
//! and takes a candidate with the most wins, ties uniform. With candidate i's
//! single play-out win probability p_i, its number of wins is Binomial(N, p_i);
//! b_N(j, p) = C(N,j) p^j (1−p)^(N−j) and B_N(j−1, p) = P(X < j).
//! MC(∞) (Def. 1.2) takes a candidate of largest p, ties uniform.
//!
//! Three methods, which agree (tests, assertion 2.7 of the reference note):
//! - [`select_direct`]: formula (2.1), a sum over the non-empty subsets x of
//!   tied candidates, O(N·2^m·m);
//! - [`select_incremental`]: the fast form of §2.4.6 (Fortran B.2): candidates
//!   are added one at a time, h_ji(t) = P(i reaches the maximum j together with
//!   t candidates)/t, O(N·m³);
//! - [`McFloat::select`]: the production path for `f64`: identical p are
//!   grouped, and Σ_t P(t others tie)/(t+1) = ∫₀¹ Π_{o≠i}(B_o(j−1) + b_o(j)z) dz
//!   is integrated exactly by Gauss–Legendre with ⌈m/2⌉ nodes, O(N·m·d).
//!
//! The generic methods are exact for exact [`Scalar`]s (rationals, Q(√5)).

use super::scalar::Scalar;
use crate::error::{Result, invalid};

/// Largest N accepted by the float path: beyond it the binomial window is wide
/// enough that accumulated rounding could pass the stated bound (thesis l. 4496:
/// rounding errors for N > 10⁵).
pub const MAX_FLOAT_N: u32 = 100_000;

/// Table of b_N(j, p) for j = 0..=N, and B_N(j−1, p) = P(X < j) for j = 0..=N.
#[derive(Clone, Debug)]
pub struct BinomialTable<T> {
    pub pmf: Vec<T>,
    pub below: Vec<T>,
}

/// Exact (for exact `T`) binomial table: powers and C(N, j) built by products.
pub fn binomial_table<T: Scalar>(n: u32, p: &T) -> BinomialTable<T> {
    let q = T::one() - p.clone();
    let nn = n as usize;
    let mut pw = vec![T::one(); nn + 1];
    let mut qw = vec![T::one(); nn + 1];
    for j in 1..=nn {
        pw[j] = pw[j - 1].clone() * p.clone();
        qw[j] = qw[j - 1].clone() * q.clone();
    }
    let mut pmf = Vec::with_capacity(nn + 1);
    let mut c = T::one();
    for j in 0..=nn {
        if j > 0 {
            c = c * T::ratio((nn - j + 1) as i64, j as i64);
        }
        pmf.push(c.clone() * pw[j].clone() * qw[nn - j].clone());
    }
    let mut below = Vec::with_capacity(nn + 1);
    let mut acc = T::zero();
    for b in &pmf {
        below.push(acc.clone());
        acc = acc + b.clone();
    }
    BinomialTable { pmf, below }
}

/// Formula (2.1): f_N(i) = Σ_{x ∋ i} g_N(x)/‖x‖₁ with
/// g_N(x) = Σ_j Π_{x_i=1} b_N(j,p_i) · Π_{x_i=0} B_N(j−1,p_i). At most 20 candidates.
pub fn select_direct<T: Scalar>(tables: &[BinomialTable<T>]) -> Vec<T> {
    let m = tables.len();
    assert!((1..=20).contains(&m), "select_direct: 1 to 20 candidates");
    let len = tables[0].pmf.len();
    let mut f = vec![T::zero(); m];
    for x in 1u32..(1 << m) {
        let mut g = T::zero();
        for j in 0..len {
            let mut term = T::one();
            for (i, t) in tables.iter().enumerate() {
                term = term * if x >> i & 1 == 1 { t.pmf[j].clone() } else { t.below[j].clone() };
            }
            g = g + term;
        }
        let share = g / T::ratio(x.count_ones() as i64, 1);
        for (i, fi) in f.iter_mut().enumerate() {
            if x >> i & 1 == 1 {
                *fi = fi.clone() + share.clone();
            }
        }
    }
    f
}

/// The incremental form of §2.4.6 (Fortran `binomdist_fast`, B.2). For each
/// maximum j, candidates are added in turn; h[i][t] is the probability that
/// candidate i has j wins, exactly t of the candidates added so far have j wins
/// and the others fewer, divided by t. A new candidate with p₀ = b(j), p₋ = B(j−1):
/// worse (×p₋), tie (a (t−1)-tie becomes a t-tie, shares ×(t−1)/t), or it
/// starts with Q(t−1)·p₀/t where Q(t') = Σ_i h[i][t'] (Q(0) = Π p₋ so far).
pub fn select_incremental<T: Scalar>(tables: &[BinomialTable<T>]) -> Vec<T> {
    let m = tables.len();
    let len = tables[0].pmf.len();
    let mut f = vec![T::zero(); m];
    for j in 0..len {
        // h[i][t] for t = 1..=m (index t), and w = P(all added so far < j).
        let mut h: Vec<Vec<T>> = vec![vec![T::zero(); m + 1]; m];
        let mut w = T::one();
        for k in 0..m {
            let (p0, pm) = (tables[k].pmf[j].clone(), tables[k].below[j].clone());
            let mut q = vec![T::zero(); k + 1];
            q[0] = w.clone();
            for row in h.iter().take(k) {
                for t in 1..=k {
                    q[t] = q[t].clone() + row[t].clone();
                }
            }
            for row in h.iter_mut().take(k) {
                for t in (1..=k + 1).rev() {
                    let stay = row[t].clone() * pm.clone();
                    let tied = if t >= 2 {
                        row[t - 1].clone() * p0.clone() * T::ratio((t - 1) as i64, t as i64)
                    } else {
                        T::zero()
                    };
                    row[t] = stay + tied;
                }
            }
            for t in 1..=k + 1 {
                h[k][t] = q[t - 1].clone() * p0.clone() / T::ratio(t as i64, 1);
            }
            w = w * pm;
        }
        for (fi, row) in f.iter_mut().zip(&h) {
            for x in &row[1..] {
                *fi = fi.clone() + x.clone();
            }
        }
    }
    f
}

/// MC(∞): uniform over the candidates of largest p (exact ties for exact `T`).
pub fn select_infinity<T: Scalar>(ps: &[T]) -> Vec<T> {
    let best = ps.iter().skip(1).fold(&ps[0], |b, p| if p > b { p } else { b });
    let ties = ps.iter().filter(|p| *p == best).count();
    let share = T::ratio(1, ties as i64);
    ps.iter().map(|p| if p == best { share.clone() } else { T::zero() }).collect()
}

/// MC(N) exactly (generic `T`), by the incremental form.
pub fn select_exact<T: Scalar>(n: u32, ps: &[T]) -> Vec<T> {
    let tables: Vec<BinomialTable<T>> = ps.iter().map(|p| binomial_table(n, p)).collect();
    select_incremental(&tables)
}

/// A binomial pmf on its significant window: b(j) for j in lo..=hi (normalised
/// to sum 1) and the running P(X < j) there.
#[derive(Clone, Debug)]
pub struct Window {
    lo: usize,
    pmf: Vec<f64>,
    below: Vec<f64>,
}

/// Terms smaller than this times the mode's are dropped. The binomial pmf is
/// log-concave, so each dropped tail is below CUT·(N+1), i.e. < 10⁻¹⁴ for N ≤ 10⁵.
const CUT: f64 = 1e-20;

impl Window {
    /// b(j) by the ratio recurrence b(j±1)/b(j) from the mode outwards, in
    /// linear space, then normalised: relative error ≲ 3u per step from the mode
    /// (u = 2⁻⁵³), so ≲ 10⁻¹² over the ≤ 2 000-term window of N = 10⁵.
    pub fn new(n: u32, p: f64) -> Window {
        let nn = n as usize;
        if p <= 0.0 {
            return Window { lo: 0, pmf: vec![1.0], below: vec![0.0] };
        }
        if p >= 1.0 {
            return Window { lo: nn, pmf: vec![1.0], below: vec![0.0] };
        }
        let mode = (((nn + 1) as f64 * p).floor() as usize).min(nn);
        let odds = p / (1.0 - p);
        let mut up = vec![1.0];
        let mut j = mode;
        while j < nn {
            let next = up[up.len() - 1] * (nn - j) as f64 / (j + 1) as f64 * odds;
            if next < CUT {
                break;
            }
            up.push(next);
            j += 1;
        }
        let mut down = Vec::new();
        let (mut j, mut cur) = (mode, 1.0);
        while j > 0 {
            cur = cur * j as f64 / (nn - j + 1) as f64 / odds;
            if cur < CUT {
                break;
            }
            down.push(cur);
            j -= 1;
        }
        let lo = mode - down.len();
        let mut pmf: Vec<f64> = down.into_iter().rev().collect();
        pmf.extend(up);
        let total: f64 = pmf.iter().sum();
        pmf.iter_mut().for_each(|b| *b /= total);
        let mut below = Vec::with_capacity(pmf.len());
        let mut acc = 0.0;
        for b in &pmf {
            below.push(acc);
            acc += b;
        }
        Window { lo, pmf, below }
    }

    fn hi(&self) -> usize {
        self.lo + self.pmf.len() - 1
    }

    /// (b(j), P(X < j)).
    fn at(&self, j: usize) -> (f64, f64) {
        if j < self.lo {
            (0.0, 0.0)
        } else if j > self.hi() {
            (0.0, 1.0)
        } else {
            (self.pmf[j - self.lo], self.below[j - self.lo])
        }
    }
}

/// x^c for the small multiplicities of grouped candidates.
fn power(x: f64, c: usize) -> f64 {
    match c {
        0 => 1.0,
        1 => x,
        2 => x * x,
        c => x.powi(c as i32),
    }
}

/// Gauss–Legendre nodes and weights on [0, 1] with q nodes (Newton on P_q).
fn gauss_legendre(q: usize) -> (Vec<f64>, Vec<f64>) {
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

/// MC(N) selection probabilities in `f64` (the production path), N ≤ [`MAX_FLOAT_N`].
///
/// Error bound: each pmf term has relative error ≲ 10⁻¹² and each dropped tail
/// is < 10⁻¹⁴; the products and the exact-degree quadrature add ≲ 10·m·u. So
/// |f − f_exact| ≲ 10⁻¹¹ per candidate; the tests compare with exact rationals.
#[derive(Clone, Debug)]
pub struct McFloat {
    n: u32,
    quadrature: Vec<(Vec<f64>, Vec<f64>)>,
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
        Ok(McFloat { n, quadrature: Vec::new() })
    }

    /// Number of play-outs N.
    pub fn n(&self) -> u32 {
        self.n
    }

    /// f_N(i) for the candidates' play-out win probabilities `ps`.
    pub fn select(&self, ps: &[f64]) -> Vec<f64> {
        let windows: Vec<Window> = ps.iter().map(|&p| Window::new(self.n, p)).collect();
        let refs: Vec<&Window> = windows.iter().collect();
        self.select_with(ps, &refs)
    }

    /// The binomial window of one candidate with play-out win probability p.
    pub fn window(&self, p: f64) -> Window {
        Window::new(self.n, p)
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
        let j1 = all.iter().map(|w| w.hi()).max().unwrap_or(0);
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
        let mut factor = vec![0.0; d];
        let mut prefix = vec![1.0; d + 1];
        let mut suffix = vec![1.0; d + 1];
        let mut at = vec![(0.0, 0.0); d];
        // Above the second-highest window end only the top group is active; a
        // single top candidate then simply collects its remaining mass.
        let top = (0..d).max_by_key(|&g| windows[g].hi()).expect("two groups");
        let second = (0..d).filter(|&g| g != top).map(|g| windows[g].hi()).max().expect("two groups");
        let last = if groups[top].1 == 1 && second < j1 {
            let w = windows[top];
            share[top] += 1.0 - w.at(second + 1).1;
            second
        } else {
            j1
        };
        for j in j0..=last {
            for (a, w) in at.iter_mut().zip(&windows) {
                *a = w.at(j);
            }
            if at.iter().all(|a| a.0 == 0.0) {
                continue;
            }
            for (z, wt) in nodes.iter().zip(weights) {
                for g in 0..d {
                    factor[g] = at[g].1 + at[g].0 * z;
                }
                for g in 0..d {
                    prefix[g + 1] = prefix[g] * power(factor[g], groups[g].1);
                }
                for g in (0..d).rev() {
                    suffix[g] = suffix[g + 1] * power(factor[g], groups[g].1);
                }
                for g in 0..d {
                    if at[g].0 == 0.0 {
                        continue;
                    }
                    let own = power(factor[g], groups[g].1 - 1);
                    share[g] += wt * at[g].0 * prefix[g] * own * suffix[g + 1];
                }
            }
        }
        ps.iter().map(|p| groups.iter().position(|g| g.0 == *p).map_or(0.0, |g| share[g])).collect()
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
    use num_rational::BigRational;
    use num_traits::One;

    #[test]
    fn one_play_out_two_candidates_by_hand() {
        // N = 1: f(1) = p(1−q) + (pq + (1−p)(1−q))/2.
        let (p, q) = (BigRational::ratio(1, 3), BigRational::ratio(3, 4));
        let f = select_exact(1, &[p.clone(), q.clone()]);
        let one = BigRational::one();
        let by_hand = p.clone() * (one.clone() - q.clone())
            + (p.clone() * q.clone() + (one.clone() - p) * (one - q)) / BigRational::ratio(2, 1);
        assert_eq!(f[0], by_hand);
        assert_eq!(f[0].clone() + f[1].clone(), BigRational::one());
    }

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
}
