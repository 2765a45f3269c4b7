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

pub use super::mc_float::{MAX_FLOAT_N, McFloat, Window};

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
}
