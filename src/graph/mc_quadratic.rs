//! Exact real quadratic fields Q(√D) (D > 1 square-free) as [`Scalar`]s, for
//! the algebraic points of thesis ch. 3: Q(√2) at the double root ε = 5 − √32
//! (Example (3.4)); [`super::scalar::QSqrt5`] is the D = 5 case used at ε* = 2 − √5.
//!
//! Invariant: `==` and `<` are exact (the sign of a + b√D is decided by
//! comparing a² with D·b²), so ties are never decided by a float.

use super::scalar::{Scalar, rational_to_f64};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Sub};

/// a + b·√D with rational a, b.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QSqrt<const D: i64> {
    pub a: BigRational,
    pub b: BigRational,
}

/// Q(√2).
pub type QSqrt2 = QSqrt<2>;

impl<const D: i64> QSqrt<D> {
    /// a + b√D.
    pub fn new(a: BigRational, b: BigRational) -> Self {
        QSqrt { a, b }
    }

    /// √D.
    pub fn root() -> Self {
        QSqrt { a: BigRational::zero(), b: BigRational::one() }
    }

    fn d() -> BigRational {
        BigRational::from_integer(BigInt::from(D))
    }

    /// The sign of a + b√D, exactly.
    pub fn signum(&self) -> Ordering {
        let sign = |q: &BigRational| q.numer().sign().cmp(&num_bigint::Sign::NoSign);
        let (sa, sb) = (sign(&self.a), sign(&self.b));
        if sa == sb || sb == Ordering::Equal {
            return sa;
        }
        if sa == Ordering::Equal {
            return sb;
        }
        match (&self.a * &self.a).cmp(&(&self.b * &self.b * Self::d())) {
            Ordering::Greater => sa,
            Ordering::Less => sb,
            Ordering::Equal => Ordering::Equal,
        }
    }
}

impl<const D: i64> PartialOrd for QSqrt<D> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some((self.clone() - other.clone()).signum())
    }
}

impl<const D: i64> Add for QSqrt<D> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        QSqrt { a: self.a + o.a, b: self.b + o.b }
    }
}

impl<const D: i64> Sub for QSqrt<D> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        QSqrt { a: self.a - o.a, b: self.b - o.b }
    }
}

impl<const D: i64> Mul for QSqrt<D> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        QSqrt { a: &self.a * &o.a + &self.b * &o.b * Self::d(), b: &self.a * &o.b + &self.b * &o.a }
    }
}

impl<const D: i64> Div for QSqrt<D> {
    type Output = Self;
    /// By the conjugate; the norm a² − D·b² vanishes only at 0 (√D irrational).
    /// Panics on division by zero.
    fn div(self, o: Self) -> Self {
        let norm = &o.a * &o.a - &o.b * &o.b * Self::d();
        assert!(!norm.is_zero(), "division by zero in Q(√{D})");
        self * QSqrt { a: o.a / &norm, b: -o.b / &norm }
    }
}

impl<const D: i64> Zero for QSqrt<D> {
    fn zero() -> Self {
        QSqrt { a: BigRational::zero(), b: BigRational::zero() }
    }
    fn is_zero(&self) -> bool {
        self.a.is_zero() && self.b.is_zero()
    }
}

impl<const D: i64> One for QSqrt<D> {
    fn one() -> Self {
        QSqrt { a: BigRational::one(), b: BigRational::zero() }
    }
}

impl<const D: i64> Scalar for QSqrt<D> {
    fn ratio(n: i64, d: i64) -> Self {
        QSqrt { a: BigRational::new(n.into(), d.into()), b: BigRational::zero() }
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(&self.a) + rational_to_f64(&self.b) * (D as f64).sqrt()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sqrt2_arithmetic_and_order() {
        let r = QSqrt2::root();
        assert_eq!(r.clone() * r.clone(), QSqrt2::ratio(2, 1));
        // 1 − √2 < 0 and 7/5 < √2 < 3/2, exactly.
        assert_eq!((QSqrt2::one() - r.clone()).signum(), Ordering::Less);
        assert!(QSqrt2::ratio(7, 5) < r && r < QSqrt2::ratio(3, 2));
        // (1 + √2)(√2 − 1) = 1.
        assert_eq!((QSqrt2::one() + r.clone()) * (r.clone() - QSqrt2::one()), QSqrt2::one());
        assert_eq!(QSqrt2::one() / (QSqrt2::one() + r.clone()), r.clone() - QSqrt2::one());
        assert!(((QSqrt2::ratio(5, 1) - QSqrt2::ratio(4, 1) * r).to_f64() - (5.0 - 32f64.sqrt())).abs() < 1e-15);
    }
}
