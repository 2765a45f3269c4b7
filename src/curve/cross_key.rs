//! The exponential polynomial D(α) = Σ_{c∈P} c^α − Σ_{c∈Q} c^α of a pair of
//! partitions, reduced to a key that decides where the pair crosses, and the
//! exact division of such polynomials that proves two pairs share a root
//! (see [`super::crossing`] for the root search).

use super::exp_poly::ExpPoly;

/// A pair of partitions reduced to what decides their order: the classes of
/// P not in Q (`plus`) and of Q not in P (`minus`), all divided by their gcd,
/// oriented so that `plus ≤ minus`. Pairs with equal keys have the same
/// crossings: scaling every class by k multiplies D by k^α.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CrossKey {
    pub plus: Vec<u64>,
    pub minus: Vec<u64>,
}

impl CrossKey {
    /// D of the key as an exponential polynomial: (base, coefficient), bases ascending.
    fn terms(&self) -> Vec<(u64, i64)> {
        signed_terms(&self.plus, &self.minus)
    }

    /// Whether D of `self` divides D of `other` exactly in the ring of
    /// exponential polynomials Σ c_b·b^α (b ≥ 1 integers). That ring is the
    /// polynomial ring over the primes, and ordering monomials by the value
    /// of b is a monomial order, so the division algorithm by one polynomial
    /// decides divisibility. Then every root of `self` is one of `other`
    /// (e.g. {1,1,1,2,8}−{3,4,6} = (1 + 2^α)·({1,1,1,4}−{2,2,3})).
    pub fn divides(&self, other: &CrossKey) -> bool {
        self.quotient(other).is_some()
    }

    /// `other` / `self` when the division is exact ([`Self::divides`]): the
    /// quotient's (base, coefficient) terms.
    pub fn quotient(&self, other: &CrossKey) -> Option<Vec<(u64, i128)>> {
        Some(other.poly()?.exact_div(&self.poly()?)?.terms().collect())
    }

    /// D of the key as an exact exponential polynomial.
    pub fn poly(&self) -> Option<ExpPoly> {
        ExpPoly::from_terms(self.terms().into_iter().map(|(b, c)| (b, c as i128)))
    }

    /// The greatest common divisor of the D of both keys when it depends on
    /// α: every root of it is a root of both (`None` if it is constant).
    pub fn common_factor(&self, other: &CrossKey) -> Option<ExpPoly> {
        self.poly()?.gcd(&other.poly()?).filter(|g| !g.is_constant())
    }

    /// Whether D of `self` vanishes wherever D of `other` does near a root of
    /// `other`: `self` divides `other`, or `other` = `self` · Q with Q a sum
    /// of exponentials of one sign (never 0), e.g. Q = 1 + 2^α.
    pub fn shares_roots_of(&self, other: &CrossKey) -> bool {
        if other.divides(self) {
            return true;
        }
        self.quotient(other).is_some_and(|q| q.iter().all(|t| t.1 > 0) || q.iter().all(|t| t.1 < 0))
    }
}

/// Σ_{c∈plus} c^α − Σ_{c∈minus} c^α as (base, weight), bases ascending:
/// the run lengths of two sorted multisets with no common element, merged
/// (a linear merge; this runs for every pair of partitions an envelope meets).
pub(super) fn signed_terms(plus: &[u64], minus: &[u64]) -> Vec<(u64, i64)> {
    fn runs(xs: &[u64], sign: i64) -> impl Iterator<Item = (u64, i64)> + '_ {
        xs.chunk_by(|a, b| a == b).map(move |r| (r[0], sign * r.len() as i64))
    }
    let (mut a, mut b) = (runs(plus, 1).peekable(), runs(minus, -1).peekable());
    let mut out = Vec::with_capacity(plus.len() + minus.len());
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some(x), Some(y)) if x.0 == y.0 => {
                let w = x.1 + y.1;
                let base = x.0;
                a.next();
                b.next();
                if w == 0 {
                    continue;
                }
                (base, w)
            }
            (Some(x), Some(y)) => if x.0 < y.0 { a.next() } else { b.next() }.expect("peeked"),
            (Some(_), None) => a.next().expect("peeked"),
            (None, Some(_)) => b.next().expect("peeked"),
            (None, None) => return out,
        };
        out.push(next);
    }
}
