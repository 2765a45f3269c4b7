//! 128-bit evaluation of a pair's F(α) = Σ w_b·(b/M)^α, for the signs that
//! f64 interval arithmetic cannot settle (roots where the terms of F cancel
//! to within 1e-13 of their size, e.g. close to the trivial root α = 1).
//! [`sign_at_margin`] asks the fixed-point tier ([`super::fixed_point`])
//! first, which answers only where this one would answer the same; the
//! floating-point evaluation below ([`sign_at_margin_128`]) decides the rest.
//!
//! astro-float rounds every operation to nearest at the requested precision
//! (its documentation: results are correctly rounded). We evaluate at
//! [`PRECISION`] bits and allow a relative error of 2^-100 per term — about
//! 2^20 times the rounding error of the handful of operations per term — so
//! the sign is certified whenever |F| exceeds that bound.

use astro_float::{BigFloat, Consts, RoundingMode};
use std::cell::RefCell;
use std::cmp::Ordering;
use std::collections::HashMap;

/// Working precision in bits.
pub const PRECISION: usize = 128;

thread_local! {
    static CONSTS: RefCell<Option<Consts>> = const { RefCell::new(None) };
    /// ln b at [`PRECISION`] bits, by b (the same class sizes recur).
    static LOGS: RefCell<HashMap<u64, BigFloat>> = RefCell::new(HashMap::new());
}

/// The certified sign of Σ w·(b/M)^α at the exact f64 `alpha` ≥ 0, where
/// `terms` are (b, w) and M is the largest b; `None` if |F| is below the
/// error bound (then F is 0 to within 2^-100 of its terms' size).
pub fn sign_at(terms: &[(u64, i64)], alpha: f64) -> Option<Ordering> {
    sign_at_margin(terms, alpha, 0.0)
}

/// The certified sign of every number within `margin` (≥ 0) of F(`alpha`)
/// (as [`sign_at`]; `None` if |F| does not exceed the error bound plus `margin`).
pub fn sign_at_margin(terms: &[(u64, i64)], alpha: f64, margin: f64) -> Option<Ordering> {
    super::fixed_point::sign_at_margin(terms, alpha, margin).or_else(|| sign_at_margin_128(terms, alpha, margin))
}

/// [`sign_at_margin`] by the 128-bit floating-point evaluation alone.
pub fn sign_at_margin_128(terms: &[(u64, i64)], alpha: f64, margin: f64) -> Option<Ordering> {
    CONSTS.with(|cell| {
        let mut slot = cell.borrow_mut();
        let cc = match slot.as_mut() {
            Some(cc) => cc,
            None => slot.insert(Consts::new().ok()?),
        };
        let p = PRECISION;
        let rm = RoundingMode::ToEven;
        let m = terms.iter().map(|t| t.0).max()?;
        let logs: Vec<BigFloat> = LOGS.with(|logs| {
            let mut logs = logs.borrow_mut();
            terms
                .iter()
                .map(|t| t.0)
                .chain([m])
                .map(|x| logs.entry(x).or_insert_with(|| BigFloat::from_u64(x, p).ln(p, rm, cc)).clone())
                .collect()
        });
        let ln_m = &logs[terms.len()];
        let a = BigFloat::from_f64(alpha, p);
        let mut sum = BigFloat::from_u64(0, p);
        let mut size = BigFloat::from_u64(0, p);
        for (&(_, w), ln_b) in terms.iter().zip(&logs) {
            let t = ln_b.sub(ln_m, p, rm);
            let e = a.mul(&t, p, rm).exp(p, rm, cc);
            let wb = BigFloat::from_u64(w.unsigned_abs(), p);
            let term = e.mul(&wb, p, rm);
            sum = if w > 0 { sum.add(&term, p, rm) } else { sum.sub(&term, p, rm) };
            size = size.add(&term, p, rm);
        }
        if sum.is_nan() || size.is_nan() {
            return None;
        }
        // Error bound: size · 2^-100.
        let scale = BigFloat::from_u64(1, p).div(&BigFloat::from_u64(1 << 50, p), p, rm);
        let bound = size.mul(&scale, p, rm).mul(&scale, p, rm).add(&BigFloat::from_f64(margin, p), p, rm);
        if sum.sub(&bound, p, rm).is_positive() && !sum.sub(&bound, p, rm).is_zero() {
            Some(Ordering::Greater)
        } else if sum.add(&bound, p, rm).is_negative() && !sum.add(&bound, p, rm).is_zero() {
            Some(Ordering::Less)
        } else {
            None
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signs_beyond_f64() {
        // F = 2·(2/3)^α − 1 + … : {2,2,2} vs {3,3}: D = 3·2^α − 2·3^α, zero at α = 1.
        let terms = [(2u64, 3i64), (3, -2)];
        assert_eq!(sign_at(&terms, 1.0 + 1e-15), Some(Ordering::Less));
        assert_eq!(sign_at(&terms, 1.0 - 1e-15), Some(Ordering::Greater));
        assert_eq!(sign_at(&terms, 1.0), None);
    }
}
