//! Rényi entropy H_α in floating point (thesis Def. 4.1, logarithms base 2).
//!
//! These values are for reporting and as a fast first key; decisions between
//! queries are confirmed exactly by [`crate::renyi::score::RenyiScore::compare`].

use crate::renyi::alpha::Alpha;

/// H_α(p) in bits for a probability vector `p` (zero entries are ignored).
///
/// α = 0: log2 of the number of non-zero entries; α = 1: Shannon entropy;
/// α = ∞: −log2 max p; otherwise 1/(1−α)·log2 Σ p_i^α, evaluated stably
/// (via `ln_1p`/`exp_m1` near α = 1 and log-sum-exp elsewhere).
pub fn renyi_entropy(alpha: Alpha, p: &[f64]) -> f64 {
    renyi_of_weighted(alpha, p.iter().map(|&x| (x, 1.0)))
}

/// H_α of the answer distribution of a partition with the given class sizes
/// (zero sizes are ignored). Allocation-free: this is the per-query key.
pub fn renyi_of_sizes(alpha: Alpha, sizes: &[u64]) -> f64 {
    let n = sizes.iter().sum::<u64>() as f64;
    renyi_of_weighted(alpha, sizes.iter().map(move |&c| (c as f64 / n, 1.0)))
}

/// H_α of a partition given as runs (class size, number of classes of that size).
pub fn renyi_of_runs(alpha: Alpha, runs: &[(u64, u64)]) -> f64 {
    let n = runs.iter().map(|(c, k)| c * k).sum::<u64>() as f64;
    renyi_of_weighted(alpha, runs.iter().filter(|r| r.1 > 0).map(move |&(c, k)| (c as f64 / n, k as f64)))
}

/// H_α of probabilities p, each occurring `w` times: items are (p, w).
fn renyi_of_weighted<I: Iterator<Item = (f64, f64)> + Clone>(alpha: Alpha, items: I) -> f64 {
    let p = items.filter(|&(x, _)| x > 0.0);
    let ln2 = std::f64::consts::LN_2;
    match alpha {
        Alpha::Infinity => -p.map(|(x, _)| x).fold(0.0, f64::max).log2(),
        Alpha::Finite { num: 0, .. } => p.map(|(_, w)| w).sum::<f64>().log2(),
        Alpha::Finite { num, den } if num == den => -p.map(|(x, w)| w * x * x.log2()).sum::<f64>(),
        Alpha::Finite { num, den } => {
            // ε = α − 1 from the integers: 1 ± 2⁻⁶⁰ is not 1 (as an f64 α would be, giving 0/0).
            let eps = (num as i128 - den as i128) as f64 / den as f64;
            let a = num as f64 / den as f64;
            let ln_sum = if eps.abs() <= 0.5 {
                // Σ p^α = 1 + Σ p·(p^(α−1) − 1): accurate when α is close to 1.
                p.map(|(x, w)| w * x * (eps * x.ln()).exp_m1()).sum::<f64>().ln_1p()
            } else {
                let m = p.clone().map(|(x, _)| x.ln()).fold(f64::NEG_INFINITY, f64::max);
                a * m + p.map(|(x, w)| w * (a * (x.ln() - m)).exp()).sum::<f64>().ln()
            };
            ln_sum / (-eps * ln2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(s: &str) -> Alpha {
        s.parse().unwrap()
    }

    /// Reference test vector A1 (../shared/reference/seed002-ch4.md §6.1).
    #[test]
    fn matches_reference_vector() {
        let p = [0.5, 0.25, 0.25];
        let expected = [
            ("0", 1.584962500721156),
            ("0.5", 1.5431066063272239),
            ("1", 1.5),
            ("1.5", 1.4568933936727761),
            ("2", 1.415037499278844),
            ("3", 1.339035952556319),
            ("inf", 1.0),
        ];
        for (alpha, h) in expected {
            let got = renyi_entropy(a(alpha), &p);
            assert!((got - h).abs() < 1e-13, "H_{alpha} = {got}, expected {h}");
        }
    }

    /// Reference test A2: continuity at α = 1 and α = 0, monotone in α.
    #[test]
    fn continuous_and_non_increasing() {
        let p = [0.5, 0.25, 0.25];
        let h1 = renyi_entropy(a("1"), &p);
        for near in [Alpha::ratio(9_999_999, 10_000_000).unwrap(), Alpha::ratio(10_000_001, 10_000_000).unwrap()] {
            assert!((renyi_entropy(near, &p) - h1).abs() < 1e-8);
        }
        let h0 = renyi_entropy(a("0"), &p);
        assert!((renyi_entropy(Alpha::ratio(1, 10_000_000).unwrap(), &p) - h0).abs() < 1e-7);
        let mut last = f64::INFINITY;
        for k in 0..=60 {
            let h = renyi_entropy(Alpha::ratio(k, 10).unwrap(), &p);
            assert!(h <= last + 1e-12);
            last = h;
        }
        assert!(renyi_entropy(Alpha::Infinity, &p) <= last);
    }

    /// α = 1 ± 2⁻⁶⁰ is not α = 1 but its H is H_1 to far below 1e-12 (it used
    /// to be NaN: 1 − α rounded to 0 in f64).
    #[test]
    fn finite_next_to_one() {
        let p = [0.5, 0.25, 0.25];
        for near in ["1152921504606846977/1152921504606846976", "1152921504606846975/1152921504606846976"] {
            assert!((renyi_entropy(a(near), &p) - 1.5).abs() < 1e-12, "α = {near}");
        }
    }

    #[test]
    fn runs_equal_expanded_sizes() {
        for alpha in ["0", "0.5", "1", "1.5", "2", "inf"] {
            let (x, y) =
                (renyi_of_runs(a(alpha), &[(3, 2), (1, 3), (7, 0)]), renyi_of_sizes(a(alpha), &[3, 3, 1, 1, 1]));
            assert!((x - y).abs() < 1e-12, "α = {alpha}");
        }
    }
}
