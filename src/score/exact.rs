//! The exact arithmetic behind [`super::RenyiScore`]: multiset differences,
//! prime factorisations, power sums as big integers, Π c^c compared through
//! prime exponents (α = 1) and Σ c^{p/q} decomposed into q-th-power-free
//! radicals (fractional α). Floating point only gives the sign of a difference
//! that is provably not a tie; a sign too close to call is counted in
//! [`super::FLOAT_DECIDED_NEAR_TIES`].

use super::FLOAT_DECIDED_NEAR_TIES;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::sync::atomic::Ordering as AtomicOrdering;

/// Removes the common elements of two sorted multisets: (a \ b, b \ a).
pub fn multiset_difference(a: &[u64], b: &[u64]) -> (Vec<u64>, Vec<u64>) {
    let (mut i, mut j) = (0, 0);
    let (mut ra, mut rb) = (Vec::new(), Vec::new());
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            Ordering::Less => {
                ra.push(a[i]);
                i += 1;
            }
            Ordering::Greater => {
                rb.push(b[j]);
                j += 1;
            }
            Ordering::Equal => {
                i += 1;
                j += 1;
            }
        }
    }
    ra.extend_from_slice(&a[i..]);
    rb.extend_from_slice(&b[j..]);
    (ra, rb)
}

/// Prime factorisation by trial division (class sizes are at most a few 10^9).
fn factorize(mut n: u64) -> Vec<(u64, u32)> {
    let mut out = Vec::new();
    let mut p = 2u64;
    while p * p <= n {
        if n.is_multiple_of(p) {
            let mut e = 0;
            while n.is_multiple_of(p) {
                n /= p;
                e += 1;
            }
            out.push((p, e));
        }
        p += if p == 2 { 1 } else { 2 };
    }
    if n > 1 {
        out.push((n, 1));
    }
    out
}

/// Σ c^k exactly.
pub(super) fn power_sum_big(sizes: &[u64], k: u64) -> BigUint {
    sizes.iter().map(|&c| BigUint::from(c).pow(k as u32)).sum()
}

/// α = 1: the better partition has the smaller Π c^c. Decided exactly: the
/// products are equal iff their prime exponent vectors are; otherwise the sign of
/// Σ_p e_p·ln p is taken in floating point and, when that is too close to call,
/// from the exact products.
pub(super) fn compare_shannon(a: &[u64], b: &[u64]) -> Ordering {
    let mut exponents: BTreeMap<u64, i128> = BTreeMap::new();
    for (sizes, sign) in [(a, 1i128), (b, -1i128)] {
        for &c in sizes {
            for (p, e) in factorize(c) {
                *exponents.entry(p).or_default() += sign * e as i128 * c as i128;
            }
        }
    }
    exponents.retain(|_, e| *e != 0);
    if exponents.is_empty() {
        return Ordering::Equal;
    }
    let log_ratio: f64 = exponents.iter().map(|(&p, &e)| e as f64 * (p as f64).ln()).sum();
    let scale: f64 = exponents.iter().map(|(&p, &e)| (e as f64 * (p as f64).ln()).abs()).sum();
    if log_ratio.abs() > 1e-12 * scale.max(1.0) {
        // a has the larger product (log_ratio > 0) → a is worse.
        return if log_ratio > 0.0 { Ordering::Less } else { Ordering::Greater };
    }
    let bits: f64 = scale / std::f64::consts::LN_2;
    if bits < 5e7 {
        let side = |positive: bool| -> BigUint {
            exponents
                .iter()
                .filter(|&(_, &e)| (e > 0) == positive)
                .map(|(&p, &e)| BigUint::from(p).pow(e.unsigned_abs() as u32))
                .fold(BigUint::one(), |acc, x| acc * x)
        };
        return side(false).cmp(&side(true));
    }
    FLOAT_DECIDED_NEAR_TIES.fetch_add(1, AtomicOrdering::Relaxed);
    if log_ratio > 0.0 { Ordering::Less } else { Ordering::Greater }
}

/// Compares Σ_{c∈a} c^{p/q} with Σ_{c∈b} c^{p/q} (p/q not an integer).
pub(super) fn compare_rational_power_sums(a: &[u64], b: &[u64], p: u64, q: u64) -> Ordering {
    if radical_decomposition(a, p, q) == radical_decomposition(b, p, q) {
        return Ordering::Equal;
    }
    let alpha = p as f64 / q as f64;
    let log_sum = |s: &[u64]| -> f64 {
        if s.is_empty() {
            return f64::NEG_INFINITY;
        }
        let m = s.iter().map(|&c| (c as f64).ln()).fold(f64::NEG_INFINITY, f64::max);
        alpha * m + s.iter().map(|&c| (alpha * ((c as f64).ln() - m)).exp()).sum::<f64>().ln()
    };
    let (la, lb) = (log_sum(a), log_sum(b));
    let clearly_apart = (la - lb).abs() > 1e-12 * la.abs().max(lb.abs()).max(1.0);
    if !clearly_apart {
        FLOAT_DECIDED_NEAR_TIES.fetch_add(1, AtomicOrdering::Relaxed);
    }
    la.partial_cmp(&lb).unwrap_or(Ordering::Equal)
}

/// Σ c^{p/q} as a map from the q-th-power-free radical r (its prime exponents,
/// each below q) to the integer coefficient Σ k, where c^{p/q} = k·r^{1/q}.
pub(super) fn radical_decomposition(sizes: &[u64], p: u64, q: u64) -> BTreeMap<Vec<(u64, u64)>, BigUint> {
    let mut map: BTreeMap<Vec<(u64, u64)>, BigUint> = BTreeMap::new();
    for &c in sizes {
        let mut radical = Vec::new();
        let mut coefficient = BigUint::one();
        for (prime, e) in factorize(c) {
            let total = e as u128 * p as u128;
            let whole = (total / q as u128).to_u32().unwrap_or(u32::MAX);
            let rest = (total % q as u128) as u64;
            coefficient *= BigUint::from(prime).pow(whole);
            if rest != 0 {
                radical.push((prime, rest));
            }
        }
        *map.entry(radical).or_insert_with(BigUint::zero) += coefficient;
    }
    map
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn difference_and_factors() {
        assert_eq!(multiset_difference(&[1, 2, 2, 5], &[2, 3, 5]), (vec![1, 2], vec![3]));
        assert_eq!(factorize(360), vec![(2, 3), (3, 2), (5, 1)]);
        assert_eq!(factorize(97), vec![(97, 1)]);
        // 18^(1/2) + 8^(1/2) = 3·√2 + 2·√2 = 5·√2.
        let radicals = radical_decomposition(&[18, 8], 1, 2);
        assert_eq!(radicals.into_iter().collect::<Vec<_>>(), vec![(vec![(2, 1)], BigUint::from(5u32))]);
    }
}
