//! A fast floating-point key of a partition under H_α with a rigorous error
//! bound: two partitions whose keys are separated by their bounds are ordered
//! by the keys; every other pair goes to the certified comparison
//! ([`super::RenyiScore::compare`]).
//!
//! For a partition of n codes into classes c (Σ c = n) and α = p/q ≠ 1, write
//! ε = α − 1 = (p − q)/q. H_α is larger exactly when
//!
//!   K = Σ c·(c^ε − 1)/ε
//!
//! is smaller, for ε > 0 and ε < 0 alike: Σ c^α − n = ε·K, and H_α =
//! log₂(Σ c^α / n^α)/(1 − α) with the sign of 1 − α = −ε. K is continuous
//! through α = 1, where it becomes Σ c·ln c (the Shannon key), so a key near
//! α = 1 neither cancels nor divides by zero. Every term of K is ≥ 0 (both
//! c^ε − 1 and ε have one sign), so K carries a relative error bound.
//!
//! Error bound (u = 2⁻⁵³; ln, exp_m1 within 1 ulp as glibc documents, the
//! arithmetic correctly rounded): ε is formed from the integers p − q and q
//! (≤ 3u relative), ln c (≤ 1u), x = ε·ln c (≤ 5u, i.e. 5u·|x| absolute);
//! exp_m1 turns an absolute input error η into a relative output error of at
//! most (1 + |x|)·η, plus its own ulp; the division by ε and the product with
//! c add 5u; summing k non-negative terms adds k·u. Hence
//! |K̃ − K| ≤ K·(5|x_max| + 11 + k)·u, and we use the larger
//! K·(8|x_max| + 24 + 2k)·u. Where c^ε could overflow (ε·ln n > 500) the key
//! is ln Σ c^α instead (smaller is better, α > 1 there), with the absolute
//! bound derived at [`log_key`].

use crate::renyi::alpha::Alpha;

/// The rounding unit of f64.
const U: f64 = 1.0 / 9_007_199_254_740_992.0;

/// A key of a partition: `value` (larger is better) is within `err` of the
/// exact key. Exact keys (α = 0, ∞) have `err` = 0.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Key {
    pub value: f64,
    pub err: f64,
}

impl Key {
    /// Whether the exact keys of `self` and `other` are certainly different,
    /// and then which is larger (`Greater`: `self` is the better partition).
    pub fn separated(self, other: Key) -> Option<std::cmp::Ordering> {
        let gap = self.value - other.value;
        // The subtraction rounds by at most one part in 2^53 of the gap.
        if gap.abs() * (1.0 - 2.0 * U) > (self.err + other.err) * (1.0 + 4.0 * U) {
            gap.partial_cmp(&0.0)
        } else {
            None
        }
    }

    /// The largest value the exact key may have.
    fn upper(self) -> f64 {
        (self.value + self.err * (1.0 + 4.0 * U)) * (1.0 + 2.0 * U) + f64::MIN_POSITIVE
    }

    /// The smallest value the exact key may have.
    fn lower(self) -> f64 {
        (self.value - self.err * (1.0 + 4.0 * U)) - (self.value - self.err).abs() * 2.0 * U - f64::MIN_POSITIVE
    }
}

/// The indices of the keys that may belong to a maximal partition: every
/// other one is certainly below some key's lower bound. Ascending; empty only
/// for no keys.
pub fn contenders(keys: &[Key]) -> Vec<usize> {
    let floor = keys.iter().map(|k| k.lower()).fold(f64::NEG_INFINITY, f64::max);
    (0..keys.len()).filter(|&i| keys[i].upper() >= floor).collect()
}

/// How keys are formed for one α.
#[derive(Clone, Copy, Debug)]
pub(super) enum KeyForm {
    /// α = 0: the number of classes (exact).
    Count,
    /// α = ∞: minus the largest class (exact).
    NegMax,
    /// 0 < α < ∞: −K with ε = α − 1 (0 for α = 1 exactly) and α as floats.
    Smooth { eps: f64, alpha: f64 },
}

impl KeyForm {
    pub(super) fn new(alpha: Alpha) -> KeyForm {
        match alpha {
            Alpha::Infinity => KeyForm::NegMax,
            Alpha::Finite { num: 0, .. } => KeyForm::Count,
            Alpha::Finite { num, den } => {
                let eps = (num as i128 - den as i128) as f64 / den as f64;
                KeyForm::Smooth { eps, alpha: num as f64 / den as f64 }
            }
        }
    }

    /// The key of a partition given as runs (class size, number of classes).
    pub(super) fn key_of_runs(self, runs: impl Iterator<Item = (u64, u64)> + Clone) -> Key {
        self.key_with(runs, |c| self.term(c))
    }

    /// The smooth form's term of class size c ≥ 2 and its |ε·ln c|
    /// (zeros for the exact forms).
    pub(super) fn term(self, c: u64) -> (f64, f64) {
        match self {
            KeyForm::Smooth { eps, .. } => smooth_term(c, eps),
            _ => (0.0, 0.0),
        }
    }

    /// [`Self::key_of_runs`] with the terms of the smooth form from `term`
    /// (which must return [`Self::term`], e.g. from a table).
    pub(super) fn key_with(
        self,
        runs: impl Iterator<Item = (u64, u64)> + Clone,
        term: impl Fn(u64) -> (f64, f64),
    ) -> Key {
        let runs = runs.filter(|&(c, k)| c > 0 && k > 0);
        match self {
            KeyForm::Count => Key { value: runs.map(|r| r.1).sum::<u64>() as f64, err: 0.0 },
            KeyForm::NegMax => Key { value: -(runs.map(|r| r.0).max().unwrap_or(0) as f64), err: 0.0 },
            KeyForm::Smooth { eps, alpha } => {
                // The domain depends on n only: one for all partitions of a set.
                let n: u64 = runs.clone().map(|(c, k)| c * k).sum();
                if eps * (n.max(1) as f64).ln() > 500.0 {
                    return log_key(runs, alpha);
                }
                smooth_key(runs, term)
            }
        }
    }

    /// The largest set size n for which [`Self::key_with`] certainly takes the
    /// smooth form (ε·ln n ≤ 500 with a margin of ε·ln 2 far above rounding):
    /// callers that know n ≤ this may call [`smooth_key`] directly and skip
    /// one logarithm per key. `None` for the exact forms.
    pub(super) fn smooth_upto(self) -> Option<u64> {
        match self {
            KeyForm::Smooth { eps, .. } if eps > 0.0 => Some(((500.0 / eps).exp() / 2.0).min(u64::MAX as f64) as u64),
            KeyForm::Smooth { .. } => Some(u64::MAX),
            _ => None,
        }
    }
}

/// The smooth form's key −K of a partition (runs with c > 0, k > 0) with its
/// error bound (module doc), the terms of the class sizes from `term`.
pub(super) fn smooth_key(runs: impl Iterator<Item = (u64, u64)>, term: impl Fn(u64) -> (f64, f64)) -> Key {
    let (mut sum, mut terms, mut x_max) = (0.0f64, 0u64, 0.0f64);
    for (c, k) in runs.filter(|r| r.0 > 1) {
        let (t, x) = term(c);
        sum += k as f64 * t;
        terms += 1;
        x_max = x_max.max(x);
    }
    let err = sum * (8.0 * x_max + 24.0 + 2.0 * terms as f64) * U;
    Key { value: -sum, err }
}

/// c·(c^ε − 1)/ε (c·ln c at ε = 0) and |ε·ln c|, for c ≥ 2.
fn smooth_term(c: u64, eps: f64) -> (f64, f64) {
    let (cf, l) = (c as f64, (c as f64).ln());
    // `c as f64` rounds for c > 2^53: one more unit, covered by the 24 of the bound.
    if eps == 0.0 {
        return (cf * l, 0.0);
    }
    let x = eps * l;
    (cf * (x.exp_m1() / eps), x.abs())
}

/// −ln Σ c^α for α > 1 large (smaller Σ is better), by log-sum-exp around the
/// largest class M: α·ln M + ln Σ (c/M)^α. With α, ln c, ln M and the
/// differences each within a few u: every exponent y = α·(ln c − ln M) is
/// within 7·α·ln M·u, so the sum S ∈ [1, k] is within (7·α·ln M + k + 1)·u
/// relative and ln S within that absolute; α·ln M adds 3·α·ln M·u and the last
/// addition |value|·u. Doubled for the bound.
fn log_key(runs: impl Iterator<Item = (u64, u64)> + Clone, alpha: f64) -> Key {
    let m = runs.clone().map(|r| r.0).max().unwrap_or(1);
    let ln_m = (m as f64).ln();
    let (mut s, mut terms) = (0.0f64, 0u64);
    for (c, k) in runs {
        s += k as f64 * (alpha * ((c as f64).ln() - ln_m)).exp();
        terms += 1;
    }
    let value = alpha * ln_m + s.ln();
    let err = 2.0 * (10.0 * alpha * ln_m + 2.0 * terms as f64 + 8.0 + value.abs()) * U;
    Key { value: -value, err }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(alpha: &str, sizes: &[u64]) -> Key {
        KeyForm::new(alpha.parse().unwrap()).key_of_runs(sizes.iter().map(|&c| (c, 1)))
    }

    /// The key is continuous through α = 1: just either side of 1 it is within
    /// its bound of the Shannon key Σ c·ln c.
    #[test]
    fn continuous_at_one() {
        let sizes = [5u64, 3, 3, 1, 1, 17];
        let shannon = key("1", &sizes);
        for near in ["9007199254740993/9007199254740992", "9007199254740991/9007199254740992", "1.000000001"] {
            let k = key(near, &sizes);
            assert!((k.value - shannon.value).abs() < 1e-7 * shannon.value.abs(), "{near}: {k:?} vs {shannon:?}");
            assert!(k.err < 1e-12 * k.value.abs());
        }
    }

    #[test]
    fn separation_and_contenders() {
        let a = Key { value: 1.0, err: 0.1 };
        let b = Key { value: 1.15, err: 0.1 };
        let c = Key { value: 2.0, err: 0.1 };
        assert_eq!(a.separated(b), None);
        assert_eq!(c.separated(a), Some(std::cmp::Ordering::Greater));
        assert_eq!(contenders(&[a, b, c]), vec![2]);
        assert_eq!(contenders(&[a, b]), vec![0, 1]);
    }

    /// Large α takes the logarithmic form and stays finite.
    #[test]
    fn large_alpha_keys_are_finite_and_ordered() {
        let (even, skew) = (key("400", &[500, 500]), key("400", &[999, 1]));
        assert!(even.value.is_finite() && skew.value.is_finite());
        assert_eq!(even.separated(skew), Some(std::cmp::Ordering::Greater));
    }
}
