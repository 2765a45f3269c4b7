//! Certified signs of differences that are known not to be zero, by
//! arithmetic at rising precision (astro-float: every operation correctly
//! rounded, so within 2^-P relative at precision P bits).
//!
//! The caller proves the difference non-zero exactly (prime exponents at
//! α = 1, q-th-power-free radicals at α = p/q — [`super::exact`]); then a
//! precision large enough to make the error bound smaller than the difference
//! exists, and the loop doubling P ends. No floating-point sign is ever taken
//! without its bound.

use astro_float::{BigFloat, Consts, RoundingMode};
use std::cell::RefCell;
use std::cmp::Ordering;

/// The first precision tried, in bits.
const START_PRECISION: usize = 128;

thread_local! {
    static CONSTS: RefCell<Option<Consts>> = const { RefCell::new(None) };
}

/// Runs `f` with this thread's constant cache.
fn with_consts<T>(f: impl FnOnce(&mut Consts) -> T) -> T {
    CONSTS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let cc = slot.get_or_insert_with(|| Consts::new().expect("astro-float constants"));
        f(cc)
    })
}

/// 2^-e as a BigFloat.
fn two_to_minus(e: usize, p: usize) -> BigFloat {
    let mut x = BigFloat::from_u64(1, p);
    let one = x.exponent().expect("1 is finite");
    x.set_exponent(one - e as i32);
    x
}

/// The sign of `value` if |value| exceeds `bound`.
fn sign_beyond(value: &BigFloat, bound: &BigFloat, p: usize) -> Option<Ordering> {
    let rm = RoundingMode::None;
    let below = value.sub(bound, p, rm);
    let above = value.add(bound, p, rm);
    if below.is_positive() && !below.is_zero() {
        Some(Ordering::Greater)
    } else if above.is_negative() && !above.is_zero() {
        Some(Ordering::Less)
    } else {
        None
    }
}

/// Doubles the precision from [`START_PRECISION`] until `attempt` gives a sign.
fn rising(mut attempt: impl FnMut(usize, &mut Consts) -> Option<Ordering>) -> Ordering {
    let mut p = START_PRECISION;
    loop {
        if let Some(s) = with_consts(|cc| attempt(p, cc)) {
            return s;
        }
        p *= 2;
    }
}

/// The sign of Σ e·ln p over `(p, e)` (p ≥ 2, e ≠ 0), which the caller knows
/// is not 0 (e.g. distinct primes: their logarithms are linearly independent
/// over ℚ). Each e·ln p is within 2·2^-P of its size, the sum of k terms adds
/// k·2^-P of the total size: the bound is size·(4 + 2k)·2^-P.
pub fn sign_of_log_combination(terms: &[(u64, i128)]) -> Ordering {
    rising(|p, cc| {
        let rm = RoundingMode::ToEven;
        let (mut sum, mut size) = (BigFloat::from_u64(0, p), BigFloat::from_u64(0, p));
        for &(base, e) in terms {
            let t = BigFloat::from_u64(base, p).ln(p, rm, cc).mul(&BigFloat::from_i128(e, p), p, rm);
            sum = sum.add(&t, p, rm);
            size = if t.is_negative() { size.sub(&t, p, rm) } else { size.add(&t, p, rm) };
        }
        if sum.is_nan() || size.is_nan() {
            return None;
        }
        let factor = BigFloat::from_u64(4 + 2 * terms.len() as u64, p);
        sign_beyond(&sum, &size.mul(&factor, p, rm).mul(&two_to_minus(p - 2, p), p, rm), p)
    })
}

/// The sign of Σ_{c∈a} c^{num/den} − Σ_{c∈b} c^{num/den} (a, b disjoint, not
/// both empty), which the caller knows is not 0.
///
/// Evaluated as Σ ±(c/M)^α with M the largest class: α = num/den and each
/// ln c, ln M are within 2^-P relative, so y = α·(ln c − ln M) is within
/// (4·α·(ln c + ln M) + |y|)·2^-P ≤ Y·2^-P with Y = 8·α·ln M + |y| + 4, and
/// e^y within (Y + 2)·2^-P relative; k additions add k·2^-P of the total
/// size. The bound is size·(Y_max + 4 + 2k)·2^-(P-2).
pub fn sign_of_power_sum_difference(a: &[u64], b: &[u64], num: u64, den: u64) -> Ordering {
    let m = a.iter().chain(b).copied().max().unwrap_or(1);
    rising(|p, cc| {
        let rm = RoundingMode::ToEven;
        let alpha = BigFloat::from_u64(num, p).div(&BigFloat::from_u64(den, p), p, rm);
        let ln_m = BigFloat::from_u64(m, p).ln(p, rm, cc);
        let alpha_ln_m = alpha.mul(&ln_m, p, rm);
        let (mut sum, mut size) = (BigFloat::from_u64(0, p), BigFloat::from_u64(0, p));
        let mut y_max = BigFloat::from_u64(0, p);
        for (set, positive) in [(a, true), (b, false)] {
            for &c in set {
                let y = alpha.mul(&BigFloat::from_u64(c, p).ln(p, rm, cc).sub(&ln_m, p, rm), p, rm);
                if y.neg().sub(&y_max, p, rm).is_positive() {
                    y_max = y.neg();
                }
                let t = y.exp(p, rm, cc);
                sum = if positive { sum.add(&t, p, rm) } else { sum.sub(&t, p, rm) };
                size = size.add(&t, p, rm);
            }
        }
        if sum.is_nan() || size.is_nan() {
            return None;
        }
        let k = (a.len() + b.len()) as u64;
        let factor = alpha_ln_m.mul(&BigFloat::from_u64(8, p), p, rm).add(&y_max, p, rm).add(
            &BigFloat::from_u64(8 + 2 * k, p),
            p,
            rm,
        );
        sign_beyond(&sum, &size.mul(&factor, p, rm).mul(&two_to_minus(p - 2, p), p, rm), p)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_of_close_differences() {
        // 3·ln 2 − 2·ln 3 = ln(8/9) < 0.
        assert_eq!(sign_of_log_combination(&[(2, 3), (3, -2)]), Ordering::Less);
        // 2^(1+2^-60) + 2^(1+2^-60) > 4^(1+2^-60)? 2·2^α − 4^α = 2^α(2 − 2^α) < 0 for α > 1.
        let (num, den) = ((1u64 << 60) + 1, 1u64 << 60);
        assert_eq!(sign_of_power_sum_difference(&[2, 2], &[4], num, den), Ordering::Less);
        assert_eq!(sign_of_power_sum_difference(&[2, 2], &[4], (1 << 60) - 1, den), Ordering::Greater);
    }
}
