//! Exponential polynomials Σ c_b·b^α (b ≥ 1 integers, c integers) as exact
//! algebra: division and greatest common divisors.
//!
//! With x_p = p^α for every prime p, b^α is the monomial Π x_p^{v_p(b)}, so
//! these sums form the polynomial ring Z[x_2, x_3, x_5, …] (unique
//! factorisation makes b ↦ monomial a bijection). Ordering monomials by the
//! value of b is a monomial order, so the division algorithm by a single
//! divisor decides divisibility, and the ring is a UFD, so two sums have a
//! greatest common divisor. A non-constant common divisor G of the D(α) of
//! two pairs of partitions is what makes their crossings coincide: e.g.
//! {4,5,5,6} − {1,1,2,3,3,10} = (2^α − 2)(1 + 2^α + 3^α − 5^α) and
//! {4,5,5,9,10} − {1,2,2,4,4,5,15} = (3^α − 2^α − 1)(1 + 2^α + 3^α − 5^α)
//! cross at the same α ≈ 1.2244630 (a Beams(6c,6p) node).
//!
//! Coefficients are i128 with checked arithmetic: every operation returns
//! `None` on overflow (the caller then proves nothing, which is safe).

use num_integer::Integer;
use std::collections::BTreeMap;

/// Σ c_b·b^α, no zero coefficient stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpPoly {
    terms: BTreeMap<u64, i128>,
}

impl ExpPoly {
    /// The sum of (base, coefficient) terms (bases may repeat; b ≥ 1).
    pub fn from_terms(terms: impl IntoIterator<Item = (u64, i128)>) -> Option<ExpPoly> {
        let mut p = ExpPoly { terms: BTreeMap::new() };
        for (b, c) in terms {
            p.add_term(b, c)?;
        }
        Some(p)
    }

    fn constant(c: i128) -> ExpPoly {
        ExpPoly::from_terms([(1, c)]).expect("one term")
    }

    /// (base, coefficient), bases ascending.
    pub fn terms(&self) -> impl Iterator<Item = (u64, i128)> + '_ {
        self.terms.iter().map(|(&b, &c)| (b, c))
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Whether the sum does not depend on α (only the base 1, or nothing).
    pub fn is_constant(&self) -> bool {
        self.terms.keys().all(|&b| b == 1)
    }

    fn add_term(&mut self, b: u64, c: i128) -> Option<()> {
        let e = self.terms.entry(b).or_insert(0);
        *e = e.checked_add(c)?;
        if *e == 0 {
            self.terms.remove(&b);
        }
        Some(())
    }

    /// The term of the largest base.
    fn leading(&self) -> Option<(u64, i128)> {
        self.terms.iter().next_back().map(|(&b, &c)| (b, c))
    }

    fn sub(&self, other: &ExpPoly) -> Option<ExpPoly> {
        let mut out = self.clone();
        for (b, c) in other.terms() {
            out.add_term(b, c.checked_neg()?)?;
        }
        Some(out)
    }

    fn mul(&self, other: &ExpPoly) -> Option<ExpPoly> {
        let mut out = ExpPoly { terms: BTreeMap::new() };
        for (b1, c1) in self.terms() {
            for (b2, c2) in other.terms() {
                out.add_term(b1.checked_mul(b2)?, c1.checked_mul(c2)?)?;
            }
        }
        Some(out)
    }

    /// The quotient `self / divisor` when the division is exact (`None`
    /// otherwise, or on overflow): the division algorithm in the order of
    /// bases, which is exact because that order is a monomial order.
    pub fn exact_div(&self, divisor: &ExpPoly) -> Option<ExpPoly> {
        let (lead_b, lead_c) = divisor.leading()?;
        let mut rest = self.clone();
        let mut quotient = ExpPoly { terms: BTreeMap::new() };
        for _ in 0..100_000 {
            let Some((b, c)) = rest.leading() else { return Some(quotient) };
            if b % lead_b != 0 || c % lead_c != 0 {
                return None;
            }
            let (qb, qc) = (b / lead_b, c / lead_c);
            quotient.add_term(qb, qc)?;
            for (db, dc) in divisor.terms() {
                rest.add_term(db.checked_mul(qb)?, qc.checked_mul(dc)?.checked_neg()?)?;
            }
        }
        None
    }

    /// The least prime dividing some base (`None` for a constant).
    fn some_prime(&self) -> Option<u64> {
        self.terms.keys().filter(|&&b| b > 1).map(|&b| least_prime_factor(b)).min()
    }

    /// The coefficients of the sum as a polynomial in x_p = p^α: entry e is
    /// the sum of the terms with v_p(b) = e, each divided by p^{eα}.
    fn coefficients_in(&self, p: u64) -> Vec<ExpPoly> {
        let mut out: Vec<ExpPoly> = Vec::new();
        for (mut b, c) in self.terms() {
            let mut e = 0;
            while b % p == 0 {
                b /= p;
                e += 1;
            }
            if out.len() <= e {
                out.resize(e + 1, ExpPoly { terms: BTreeMap::new() });
            }
            out[e].add_term(b, c).expect("no overflow: the terms were distinct");
        }
        out
    }

    /// Σ coefficients[e]·p^{eα}.
    fn from_coefficients(p: u64, coefficients: &[ExpPoly]) -> Option<ExpPoly> {
        let mut out = ExpPoly { terms: BTreeMap::new() };
        let mut scale = 1u64;
        for (e, c) in coefficients.iter().enumerate() {
            if e > 0 {
                scale = scale.checked_mul(p)?;
            }
            for (b, k) in c.terms() {
                out.add_term(b.checked_mul(scale)?, k)?;
            }
        }
        Some(out)
    }

    /// The greatest common divisor, with a positive leading coefficient
    /// (`None` on overflow). Recursive over the prime variables: content
    /// and primitive part in x_p, then a primitive pseudo-remainder sequence
    /// (Gauss' lemma: gcd = gcd of contents · gcd of primitive parts).
    pub fn gcd(&self, other: &ExpPoly) -> Option<ExpPoly> {
        gcd_depth(self, other, 0).map(normalised)
    }
}

fn normalised(p: ExpPoly) -> ExpPoly {
    match p.leading() {
        Some((_, c)) if c < 0 => ExpPoly { terms: p.terms.into_iter().map(|(b, c)| (b, -c)).collect() },
        _ => p,
    }
}

fn least_prime_factor(b: u64) -> u64 {
    let mut d = 2u64;
    while d.saturating_mul(d) <= b {
        if b.is_multiple_of(d) {
            return d;
        }
        d += 1;
    }
    b
}

/// Recursion depth bound (one level per prime variable, a few per step).
const MAX_DEPTH: u32 = 64;

fn gcd_depth(a: &ExpPoly, b: &ExpPoly, depth: u32) -> Option<ExpPoly> {
    if depth > MAX_DEPTH {
        return None;
    }
    if a.is_zero() {
        return Some(b.clone());
    }
    if b.is_zero() {
        return Some(a.clone());
    }
    let Some(p) = a.some_prime().into_iter().chain(b.some_prime()).min() else {
        // Two constants.
        let (x, y) = (a.leading()?.1, b.leading()?.1);
        return Some(ExpPoly::constant(x.gcd(&y)));
    };
    let (ca, cb) = (a.coefficients_in(p), b.coefficients_in(p));
    if ca.len() == 1 || cb.len() == 1 {
        // One side has degree 0 in x_p: the gcd divides every x_p-coefficient of the other.
        let (constant_side, other) = if ca.len() == 1 { (a, &cb) } else { (b, &ca) };
        let content = content_of(other, depth)?;
        return gcd_depth(&content, constant_side, depth + 1);
    }
    let (content_a, content_b) = (content_of(&ca, depth)?, content_of(&cb, depth)?);
    let content = gcd_depth(&content_a, &content_b, depth + 1)?;
    let mut f = primitive(&ca, &content_a)?;
    let mut g = primitive(&cb, &content_b)?;
    if f.len() < g.len() {
        std::mem::swap(&mut f, &mut g);
    }
    for _ in 0..1_000 {
        let r = pseudo_remainder(&f, &g)?;
        if r.is_empty() {
            return ExpPoly::from_coefficients(p, &g)?.mul(&content);
        }
        if r.len() == 1 {
            return Some(content);
        }
        let cr = content_of(&r, depth)?;
        f = std::mem::replace(&mut g, primitive(&r, &cr)?);
    }
    None
}

/// gcd of the coefficients (the content of a polynomial in x_p).
fn content_of(coefficients: &[ExpPoly], depth: u32) -> Option<ExpPoly> {
    let mut g = ExpPoly { terms: BTreeMap::new() };
    for c in coefficients {
        g = gcd_depth(&g, c, depth + 1)?;
    }
    Some(g)
}

/// The coefficients divided by the content.
fn primitive(coefficients: &[ExpPoly], content: &ExpPoly) -> Option<Vec<ExpPoly>> {
    coefficients.iter().map(|c| c.exact_div(content)).collect()
}

/// The pseudo-remainder of f by g (coefficient vectors in x_p, last entry
/// non-zero, deg f ≥ deg g ≥ 1): f ← lc(g)·f − lc(f)·x_p^{deg f − deg g}·g
/// until deg f < deg g. Empty when the remainder is 0.
fn pseudo_remainder(f: &[ExpPoly], g: &[ExpPoly]) -> Option<Vec<ExpPoly>> {
    let mut f = f.to_vec();
    let lc_g = g.last()?.clone();
    while f.len() >= g.len() {
        let lc_f = f.last()?.clone();
        let shift = f.len() - g.len();
        for (e, fe) in f.iter_mut().enumerate() {
            let mut next = fe.mul(&lc_g)?;
            if e >= shift {
                next = next.sub(&lc_f.mul(&g[e - shift])?)?;
            }
            *fe = next;
        }
        while f.last().is_some_and(ExpPoly::is_zero) {
            f.pop();
        }
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Σ_{c∈plus} c^α − Σ_{c∈minus} c^α.
    fn d(plus: &[u64], minus: &[u64]) -> ExpPoly {
        ExpPoly::from_terms(plus.iter().map(|&b| (b, 1)).chain(minus.iter().map(|&b| (b, -1)))).unwrap()
    }

    fn poly(terms: &[(u64, i128)]) -> ExpPoly {
        ExpPoly::from_terms(terms.iter().copied()).unwrap()
    }

    #[test]
    fn common_factor_of_two_beams_pairs() {
        // Both are multiples of 1 + 2^α + 3^α − 5^α (sympy agrees).
        let a = d(&[4, 5, 5, 6], &[1, 1, 2, 3, 3, 10]);
        let b = d(&[4, 5, 5, 9, 10], &[1, 2, 2, 4, 4, 5, 15]);
        assert_eq!(a.gcd(&b).unwrap(), poly(&[(5, 1), (3, -1), (2, -1), (1, -1)]));
        // 2·2^α − 3^α divides both of these.
        let c = d(&[2, 2, 2, 2, 6], &[3, 3, 4, 4]);
        let e = d(&[4, 4, 6, 8, 8, 18], &[6, 6, 12, 12, 12]);
        assert_eq!(c.gcd(&e).unwrap(), poly(&[(2, -2), (3, 1)]));
        // 4^α − 3^α − 2^α.
        let f = d(&[3, 7, 8, 9], &[2, 3, 3, 7, 12]);
        let g = d(&[2, 4, 4, 4, 6], &[2, 2, 2, 3, 3, 8]);
        assert_eq!(f.gcd(&g).unwrap(), poly(&[(4, 1), (3, -1), (2, -1)]));
    }

    #[test]
    fn gcd_of_coprime_and_of_multiples() {
        let a = d(&[1, 1, 1, 4], &[2, 2, 3]);
        let q = poly(&[(1, 1), (2, 1)]);
        let b = a.mul(&q).unwrap();
        assert_eq!(b.exact_div(&a).unwrap(), q);
        assert_eq!(a.gcd(&b).unwrap(), normalised(a.clone()));
        let other = d(&[2, 2, 6], &[5, 5]);
        assert!(a.gcd(&other).unwrap().is_constant());
        assert_eq!(poly(&[(1, 6)]).gcd(&poly(&[(1, 4)])).unwrap(), poly(&[(1, 2)]));
        // Integer content is kept: gcd(6·x, 4·x·y) = 2·x (x = 2^α, y = 3^α).
        assert_eq!(poly(&[(2, 6)]).gcd(&poly(&[(6, 4)])).unwrap(), poly(&[(2, 2)]));
        assert!(a.exact_div(&other).is_none());
    }
}
