//! Exact comparison of answer partitions by Rényi entropy: the one comparison
//! of H_α(P) against H_α(Q) that every consumer uses (analyze, sweep, play,
//! simulate, the size models, perfect, the curve's decisions at exact α).
//!
//! Within one decision every query partitions the same set M (|M| = n), so H_α
//! is a monotone function of the class sizes c_i alone (../shared/reference/seed002-ch4.md §1.1):
//!
//! | α            | better partition has                     |
//! |--------------|------------------------------------------|
//! | 0            | more classes                             |
//! | 0 < α < 1    | larger Σ c_i^α                           |
//! | 1            | smaller Σ c_i·log c_i, i.e. smaller Π c_i^{c_i} |
//! | α > 1        | smaller Σ c_i^α                          |
//! | ∞            | smaller max c_i                          |
//!
//! [`RenyiScore::compare`] decides these exactly at every rational α and ∞.
//! First a fast key with a rigorous error bound ([`key`]: continuous through
//! α = 1, formed from the integers of α, never from an f64 α); a pair whose
//! keys the bounds do not separate is decided by the certified path: integer
//! arithmetic for α = 0, integer α and ∞; for α = 1 an exact tie test by
//! prime exponents (Π c^c equal, e.g. {4,1,1,1,1} and {2,2,2,2}); for α = p/q
//! not an integer an exact tie test by writing c^{p/q} = k·r^{1/q} with r free
//! of q-th powers — q-th roots of distinct q-th-power-free integers are
//! linearly independent over ℚ (Besicovitch 1940) — and, for a pair that does
//! not tie, the sign by arithmetic at rising precision ([`certified`]), which
//! ends because the difference is not 0. No decision is taken from an
//! unbounded floating-point value. α = 1 is the Shannon case only when α is
//! exactly 1.

mod certified;
mod exact;
pub mod key;
mod run_key;

pub use exact::multiset_difference;
pub use key::{Key, contenders};
pub use run_key::RunKey;

use crate::renyi::alpha::Alpha;
use exact::{compare_rational_power_sums, compare_shannon, power_sum_big, radical_decomposition, shannon_ties};
use key::KeyForm;
use std::cmp::Ordering;

/// The Rényi score of partitions for one order α.
#[derive(Clone, Copy, Debug)]
pub struct RenyiScore {
    alpha: Alpha,
    form: KeyForm,
}

impl RenyiScore {
    pub fn new(alpha: Alpha) -> Self {
        RenyiScore { alpha, form: KeyForm::new(alpha) }
    }

    pub fn alpha(&self) -> Alpha {
        self.alpha
    }

    /// The fast key of the partition with these class sizes (zeros ignored):
    /// larger is better, within its error bound of the exact key. Not H_α
    /// itself (see [`key`]); keys are comparable among partitions of one set.
    pub fn key(&self, sizes: &[u64]) -> Key {
        self.form.key_of_runs(sizes.iter().map(|&c| (c, 1)))
    }

    /// [`Self::key`] of a partition given as runs (class size, number of classes).
    pub fn key_of_runs(&self, runs: &[(u64, u64)]) -> Key {
        self.form.key_of_runs(runs.iter().copied())
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
        if let Some(order) = self.key(&a).separated(self.key(&b)) {
            return order;
        }
        self.compare_certified(&a, &b)
    }

    /// [`Self::compare`] without the fast key, for sorted, different `a`, `b`.
    fn compare_certified(&self, a: &[u64], b: &[u64]) -> Ordering {
        match self.alpha {
            Alpha::Infinity => b.last().cmp(&a.last()),
            Alpha::Finite { num: 0, .. } => a.len().cmp(&b.len()),
            Alpha::Finite { num, den } if beyond_lexicographic_threshold(num, den, a) => {
                // The larger power sum belongs to the side whose largest
                // differing class is larger (see the threshold); for α > 1
                // the smaller sum is better.
                let (ra, rb) = multiset_difference(a, b);
                rb.last().cmp(&ra.last())
            }
            Alpha::Finite { num, den } => {
                let (ra, rb) = multiset_difference(a, b);
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
                    shannon_ties(&ra, &rb)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::renyi::entropy::renyi_of_sizes;

    fn score(a: &str) -> RenyiScore {
        RenyiScore::new(a.parse().unwrap())
    }

    /// Keys of an exact H_1 tie are not separated (so the tie is decided
    /// exactly), and the key just above 1 (|α − 1| = 2⁻⁵³) still orders.
    #[test]
    fn keys_hand_ties_to_the_certified_path() {
        let s = score("1");
        assert_eq!(s.key(&[4, 1, 1, 1, 1]).separated(s.key(&[2, 2, 2, 2])), None);
        let near_one = score("9007199254740993/9007199254740992");
        assert_eq!(near_one.key(&[3, 3, 3]).separated(near_one.key(&[7, 1, 1])), Some(Ordering::Greater));
        // {4,1,1,1,1} vs {2,2,2,2} just above 1: D(α)/ε → D'(1) = 0, decided by the certified sign.
        assert_eq!(near_one.compare(&[4, 1, 1, 1, 1], &[2, 2, 2, 2]), Ordering::Less);
        let below = score("9007199254740991/9007199254740992");
        assert_eq!(below.compare(&[4, 1, 1, 1, 1], &[2, 2, 2, 2]), Ordering::Greater);
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
        // {5,5} and {7,1} (5² + 5² = 7² + 1²) partition different sets, outside
        // the contract of `compare`. Within one set (n = 12): 1²+5²+6² = 2²+3²+7² = 62; no tie at α = 3 (342 < 378).
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
                let (ha, hb) = (renyi_of_sizes(s.alpha(), &a), renyi_of_sizes(s.alpha(), &b));
                let exact = s.compare(&a, &b);
                if (ha - hb).abs() > 1e-9 {
                    assert_eq!(exact, ha.partial_cmp(&hb).unwrap(), "{a:?} {b:?} α={alpha}");
                }
            }
        }
    }
}
