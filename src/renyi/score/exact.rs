//! The exact arithmetic behind [`super::RenyiScore`]: multiset differences,
//! prime factorisations, power sums as big integers, Π c^c compared through
//! prime exponents (α = 1) and Σ c^{p/q} decomposed into q-th-power-free
//! radicals (fractional α). The sign of a difference that is provably not a
//! tie comes from [`super::certified`] (rising precision with an error bound).

use super::certified::{sign_of_log_combination, sign_of_power_sum_difference};
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};
use std::cmp::Ordering;
use std::collections::BTreeMap;

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

/// The prime exponent vector of Π_{c∈a} c^c / Π_{c∈b} c^c (primes ascending,
/// no exponent 0): empty exactly when the products are equal.
fn shannon_exponents(a: &[u64], b: &[u64]) -> Vec<(u64, i128)> {
    let mut exponents: BTreeMap<u64, i128> = BTreeMap::new();
    for (sizes, sign) in [(a, 1i128), (b, -1i128)] {
        for &c in sizes {
            for (p, e) in factorize(c) {
                *exponents.entry(p).or_default() += sign * e as i128 * c as i128;
            }
        }
    }
    exponents.into_iter().filter(|&(_, e)| e != 0).collect()
}

/// α = 1: the better partition has the smaller Π c^c. The products are
/// equal iff their prime exponent vectors are; otherwise the sign of
/// Σ_p e_p·ln p (not 0: logarithms of primes are linearly independent over ℚ)
/// is certified at rising precision.
pub(super) fn compare_shannon(a: &[u64], b: &[u64]) -> Ordering {
    let terms = shannon_exponents(a, b);
    if terms.is_empty() {
        return Ordering::Equal;
    }
    // a has the larger product (positive log ratio) → a is worse.
    sign_of_log_combination(&terms).reverse()
}

/// Whether Π_{c∈a} c^c = Π_{c∈b} c^c (H_1 tie): the exponent vectors alone,
/// integers only (the sign that [`compare_shannon`] certifies is not needed).
pub(super) fn shannon_ties(a: &[u64], b: &[u64]) -> bool {
    shannon_exponents(a, b).is_empty()
}

/// Compares Σ_{c∈a} c^{p/q} with Σ_{c∈b} c^{p/q} (p/q not an integer; a and b
/// disjoint): exact tie test by radicals, else the certified sign.
pub(super) fn compare_rational_power_sums(a: &[u64], b: &[u64], p: u64, q: u64) -> Ordering {
    if radical_decomposition(a, p, q) == radical_decomposition(b, p, q) {
        return Ordering::Equal;
    }
    sign_of_power_sum_difference(a, b, p, q)
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
