//! Exact comparison of answer partitions by Rényi entropy.
//!
//! Within one decision every query partitions the same set M (|M| = n), so H_α
//! is a monotone function of the class sizes c_i alone (seed002-ch4.md §1.1):
//!
//! | α            | better partition has                     |
//! |--------------|------------------------------------------|
//! | 0            | more classes                             |
//! | 0 < α < 1    | larger Σ c_i^α                           |
//! | 1            | smaller Σ c_i·log c_i, i.e. smaller Π c_i^{c_i} |
//! | α > 1        | smaller Σ c_i^α                          |
//! | ∞            | smaller max c_i                          |
//!
//! [`RenyiScore::compare`] decides these exactly: integer arithmetic for α = 0,
//! integer α and ∞; unique prime factorisation for α = 1 (two partitions tie iff
//! Π c^c are equal, e.g. {4,1,1,1,1} and {2,2,2,2}); for α = p/q not an integer,
//! equality is decided exactly by writing c^{p/q} = k·r^{1/q} with r free of q-th
//! powers — q-th roots of distinct q-th-power-free integers are linearly
//! independent over ℚ (Besicovitch 1940) — and only the sign of a difference that
//! is not an exact tie is taken from floating point.

mod exact;
mod run_key;

pub use exact::multiset_difference;
pub use run_key::RunKey;

use crate::alpha::Alpha;
use crate::entropy::renyi_of_sizes;
use exact::{compare_rational_power_sums, compare_shannon, power_sum_big, radical_decomposition};
use std::cmp::Ordering;
use std::sync::atomic::AtomicU64;

/// Counts decisions between different partitions whose order had to be taken
/// from floating point because their difference was below 1e-12 relative and
/// they were provably not tied. Reported with every analysis; expected to stay 0.
pub static FLOAT_DECIDED_NEAR_TIES: AtomicU64 = AtomicU64::new(0);

/// Relative band within which two approximate H_α values are treated as a
/// possible tie and handed to the exact comparison.
pub const NEAR_TIE_BAND: f64 = 1e-9;

/// The Rényi score of partitions for one order α.
#[derive(Clone, Copy, Debug)]
pub struct RenyiScore {
    alpha: Alpha,
}

impl RenyiScore {
    pub fn new(alpha: Alpha) -> Self {
        RenyiScore { alpha }
    }

    pub fn alpha(&self) -> Alpha {
        self.alpha
    }

    /// H_α (bits) of the partition with these non-zero class sizes; a fast key.
    /// α = 1 and 2 use the class sizes directly — H_1 = log2 n − (1/n)·Σ c·log2 c
    /// with a table of c·log2 c, H_2 = log2(n² / Σ c²) — which costs at most one
    /// logarithm per partition; the error stays far below [`NEAR_TIE_BAND`].
    pub fn approx(&self, sizes: &[u64]) -> f64 {
        match self.alpha {
            Alpha::Finite { num, den } if num == den => shannon_bits(sizes),
            Alpha::Finite { num: 2, den: 1 } => {
                let n = sizes.iter().sum::<u64>() as f64;
                (n * n / sizes.iter().map(|&c| (c as f64) * (c as f64)).sum::<f64>()).log2()
            }
            _ => renyi_of_sizes(self.alpha, sizes),
        }
    }

    /// True if two approximate scores are close enough to need [`Self::compare`].
    pub fn near(a: f64, b: f64) -> bool {
        (a - b).abs() <= NEAR_TIE_BAND * a.abs().max(b.abs()).max(1.0)
    }

    /// Exact order of two partitions of the same set: `Greater` if `a` has the
    /// larger H_α (is the better query), `Equal` only for an exact tie.
    pub fn compare(&self, a: &[u64], b: &[u64]) -> Ordering {
        let (mut a, mut b) = (a.to_vec(), b.to_vec());
        a.sort_unstable();
        b.sort_unstable();
        if a == b {
            return Ordering::Equal;
        }
        match self.alpha {
            Alpha::Infinity => b.last().cmp(&a.last()),
            Alpha::Finite { num: 0, .. } => a.len().cmp(&b.len()),
            Alpha::Finite { num, den } if beyond_lexicographic_threshold(num, den, &a) => {
                // The larger power sum belongs to the side whose largest
                // differing class is larger (see the threshold); for α > 1
                // the smaller sum is better.
                let (ra, rb) = multiset_difference(&a, &b);
                rb.last().cmp(&ra.last())
            }
            Alpha::Finite { num, den } => {
                let (ra, rb) = multiset_difference(&a, &b);
                if num == den {
                    compare_shannon(&ra, &rb)
                } else if den == 1 {
                    power_sum_big(&rb, num).cmp(&power_sum_big(&ra, num))
                } else {
                    let larger_sum_is_better = num < den;
                    let by_sum = compare_rational_power_sums(&ra, &rb, num, den);
                    if larger_sum_is_better { by_sum } else { by_sum.reverse() }
                }
            }
        }
    }
}

impl RenyiScore {
    /// Whether two partitions of one set tie exactly under H_α — decided
    /// without any floating point (unlike the sign in [`Self::compare`]):
    /// equal multisets, equal class counts (α = 0), equal largest classes
    /// (∞), equal Π c^c (α = 1), equal Σ c^k (integer k), or equal radical
    /// decompositions of Σ c^{p/q}.
    pub fn ties_exactly(&self, a: &[u64], b: &[u64]) -> bool {
        let (mut a, mut b) = (a.to_vec(), b.to_vec());
        a.sort_unstable();
        b.sort_unstable();
        if a == b {
            return true;
        }
        match self.alpha {
            Alpha::Infinity => a.last() == b.last(),
            Alpha::Finite { num: 0, .. } => a.len() == b.len(),
            // Beyond the threshold different multisets never tie.
            Alpha::Finite { num, den } if beyond_lexicographic_threshold(num, den, &a) => false,
            Alpha::Finite { num, den } => {
                let (ra, rb) = multiset_difference(&a, &b);
                if num == den {
                    compare_shannon(&ra, &rb) == Ordering::Equal
                } else if den == 1 {
                    power_sum_big(&ra, num) == power_sum_big(&rb, num)
                } else {
                    radical_decomposition(&ra, num, den) == radical_decomposition(&rb, num, den)
                }
            }
        }
    }
}

/// Whether α = num/den is so large that power sums of partitions of one set
/// of n codes are ordered by their largest differing class alone: if c is the
/// largest class in the multiset difference (on one side only), that side's
/// Σ x^α ≥ c^α while the other's is at most n·(c − 1)^α, and c^α > n·(c−1)^α
/// once α > ln n / ln(c/(c−1)); as ln(c/(c−1)) > 1/c ≥ 1/n, α > n·ln n
/// suffices for every c ≤ n. Beyond it the exact comparison needs no
/// powers at all (huge integer α would otherwise take unbounded time and
/// memory, and exponents beyond u32 used to wrap).
fn beyond_lexicographic_threshold(num: u64, den: u64, sizes: &[u64]) -> bool {
    let n = sizes.iter().sum::<u64>().max(2) as f64;
    // Compared with margin: num/den ≥ 2·n·ln n + 2.
    (num as f64) >= (2.0 * n * n.ln() + 2.0) * den as f64
}

/// Class sizes below this have their c·log2 c in a table.
const XLOG2X_TABLE: usize = 4096;

/// Shannon entropy (bits) of a partition: log2 n − (1/n)·Σ c·log2 c.
fn shannon_bits(sizes: &[u64]) -> f64 {
    static TABLE: std::sync::OnceLock<Vec<f64>> = std::sync::OnceLock::new();
    let table = TABLE
        .get_or_init(|| (0..XLOG2X_TABLE).map(|c| if c == 0 { 0.0 } else { c as f64 * (c as f64).log2() }).collect());
    let n = sizes.iter().sum::<u64>() as f64;
    let sum: f64 = sizes
        .iter()
        .map(|&c| match table.get(c as usize) {
            Some(&x) => x,
            None => c as f64 * (c as f64).log2(),
        })
        .sum();
    n.log2() - sum / n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(a: &str) -> RenyiScore {
        RenyiScore::new(a.parse().unwrap())
    }

    /// The fast keys of α = 1 and 2 are H_α itself, to far below the tie band.
    #[test]
    fn fast_keys_equal_entropy() {
        let partitions: [&[u64]; 6] =
            [&[4, 1, 1, 1, 1], &[2, 2, 2, 2], &[5, 5], &[7, 1], &[3_000_000_000, 1], &[5000, 4095, 4096, 1, 1, 17]];
        for alpha in ["1", "2"] {
            for sizes in partitions {
                let (fast, plain) = (score(alpha).approx(sizes), renyi_of_sizes(alpha.parse().unwrap(), sizes));
                assert!((fast - plain).abs() < 1e-12, "α = {alpha}, {sizes:?}: {fast} vs {plain}");
            }
        }
        assert_eq!(score("1").approx(&[4, 1, 1, 1, 1]), score("1").approx(&[2, 2, 2, 2]));
    }

    #[test]
    fn shannon_tie_across_different_multisets() {
        // 4^4 = 2^2·2^2·2^2·2^2 = 256: an exact tie at α = 1.
        assert_eq!(score("1").compare(&[4, 1, 1, 1, 1], &[2, 2, 2, 2]), Ordering::Equal);
        // …that floating point alone does not see as exactly equal in general,
        // and that breaks at other α:
        assert_ne!(score("2").compare(&[4, 1, 1, 1, 1], &[2, 2, 2, 2]), Ordering::Equal);
    }

    #[test]
    fn collision_entropy_tie() {
        // 5² + 5² = 7² + 1² = 50 (the example; as power sums).
        assert_eq!(score("2").compare(&[5, 5], &[7, 1]), Ordering::Equal);
        // Within one set (n = 12): 1²+5²+6² = 2²+3²+7² = 62; no tie at α = 3 (342 < 378).
        assert_eq!(score("2").compare(&[1, 5, 6], &[2, 3, 7]), Ordering::Equal);
        assert_eq!(score("3").compare(&[1, 5, 6], &[2, 3, 7]), Ordering::Greater);
    }

    #[test]
    fn fractional_order_tie_found_exactly() {
        // n = 32 at α = 1/2: √18+√8+3·√2 = 8√2 = 4·√8, an exact tie of different multisets.
        let half = score("1/2");
        assert_eq!(half.compare(&[18, 8, 2, 2, 2], &[8, 8, 8, 8]), Ordering::Equal);
        // n = 11: √4+√4+3 = 7 > √9+2 = 5, and a larger sum is better for α < 1.
        assert_eq!(half.compare(&[4, 4, 1, 1, 1], &[9, 1, 1]), Ordering::Greater);
        // At α = 3/2 the same pair is no tie: 76√2 > 64√2, and a smaller sum is better.
        assert_eq!(score("3/2").compare(&[18, 8, 2, 2, 2], &[8, 8, 8, 8]), Ordering::Less);
    }

    /// α ≥ 2^32 used to wrap (exponent `as u32`): 2^32 ran as α = 0.
    #[test]
    fn huge_integer_alpha_is_the_lexicographic_limit() {
        for alpha in [
            Alpha::integer(1 << 32),
            Alpha::integer(10_000_000),
            Alpha::integer(4_294_967_295),
            Alpha::ratio(u64::MAX - 1, 3).unwrap(),
        ] {
            let s = RenyiScore::new(alpha);
            // Smaller largest class is better for large α: {2,2} beats {3,1}.
            assert_eq!(s.compare(&[2, 2], &[3, 1]), Ordering::Greater, "α = {alpha}");
            // Equal largest classes: the next class decides ({4,2,2} beats {4,3,1}).
            assert_eq!(s.compare(&[4, 3, 1], &[4, 2, 2]), Ordering::Less, "α = {alpha}");
            assert!(!s.ties_exactly(&[5, 5], &[7, 1, 1, 1]));
            assert!(s.ties_exactly(&[5, 1], &[1, 5]));
        }
        // Just below the threshold the power sums are still compared exactly.
        assert_eq!(score("9").compare(&[2, 2], &[3, 1]), Ordering::Greater);
    }

    #[test]
    fn order_directions() {
        let parts_even = [3u64, 3, 3];
        let parts_skew = [7u64, 1, 1];
        for a in ["0.5", "1", "1.5", "2", "3", "inf"] {
            assert_eq!(score(a).compare(&parts_even, &parts_skew), Ordering::Greater, "α = {a}");
        }
        assert_eq!(score("0").compare(&parts_even, &parts_skew), Ordering::Equal);
        assert_eq!(score("0").compare(&[3, 3, 2, 1], &parts_skew), Ordering::Greater);
    }

    #[test]
    fn exact_compare_agrees_with_float_entropy_on_random_partitions() {
        let mut seed = 12345u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let n = 2 + next() % 40;
            let split = |next: &mut dyn FnMut() -> u64| {
                let mut left = n;
                let mut v = Vec::new();
                while left > 0 {
                    let c = 1 + next() % left;
                    v.push(c);
                    left -= c;
                }
                v
            };
            let a = split(&mut next);
            let b = split(&mut next);
            for alpha in ["0.5", "1", "1.5", "2", "3", "inf", "7/3"] {
                let s = score(alpha);
                let (ha, hb) = (s.approx(&a), s.approx(&b));
                let exact = s.compare(&a, &b);
                if !RenyiScore::near(ha, hb) {
                    assert_eq!(exact, ha.partial_cmp(&hb).unwrap(), "{a:?} {b:?} α={alpha}");
                }
            }
        }
    }
}
