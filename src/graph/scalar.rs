//! Number types for the values of stochastic policies ([`super::stochastic`],
//! [`super::mc_select`]): `f64` (fast, rounded), exact rationals
//! ([`num_rational::BigRational`]) and exact numbers of the field Q(√5)
//! ([`QSqrt5`]), which thesis ch. 3 needs at ε* = 2 − √5 (Example 3.7).
//!
//! Invariant: for the exact types `==` and `<` are exact, so a tie between two
//! candidates (MC(∞) chooses 50/50) is detected exactly, never by a tolerance
//! (reference note §0 item 4).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use std::cmp::Ordering;
use std::ops::{Add, Div, Mul, Sub};

/// A probability-like number: a field with a total order on the values used.
pub trait Scalar:
    Clone
    + PartialOrd
    + Send
    + Sync
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Zero
    + One
    + std::fmt::Debug
{
    /// The number n/d (d > 0).
    fn ratio(n: i64, d: i64) -> Self;
    /// A float approximation (for output).
    fn to_f64(&self) -> f64;
}

impl Scalar for f64 {
    fn ratio(n: i64, d: i64) -> f64 {
        n as f64 / d as f64
    }
    fn to_f64(&self) -> f64 {
        *self
    }
}

impl Scalar for BigRational {
    fn ratio(n: i64, d: i64) -> BigRational {
        BigRational::new(n.into(), d.into())
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(self)
    }
}

/// A rational as the nearest-ish `f64` (relative error ≲ 2⁻⁵⁰), also for huge
/// numerators and denominators.
pub fn rational_to_f64(q: &BigRational) -> f64 {
    if q.is_zero() {
        return 0.0;
    }
    let (n, d) = (q.numer(), q.denom());
    let shift = n.bits() as i64 - d.bits() as i64 - 60;
    let scaled = if shift >= 0 { n / (d << shift as usize) } else { (n << (-shift) as usize) / d };
    let mantissa: f64 = scaled.to_string().parse().unwrap_or(f64::NAN);
    mantissa * 2f64.powi(shift as i32)
}

/// a + b·√5 with rational a, b: exact arithmetic and exact order in Q(√5).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QSqrt5 {
    pub a: BigRational,
    pub b: BigRational,
}

impl QSqrt5 {
    /// a + b√5 from two rationals.
    pub fn new(a: BigRational, b: BigRational) -> QSqrt5 {
        QSqrt5 { a, b }
    }

    /// The sign of a + b√5, decided exactly (compare a² with 5b²).
    pub fn signum(&self) -> Ordering {
        let (sa, sb) = (sign(&self.a), sign(&self.b));
        if sa == sb || sb == Ordering::Equal {
            return sa;
        }
        if sa == Ordering::Equal {
            return sb;
        }
        // Opposite signs: the larger of |a| and |b|√5 wins.
        let a2 = &self.a * &self.a;
        let b2 = &self.b * &self.b * BigRational::from_integer(BigInt::from(5));
        match a2.cmp(&b2) {
            Ordering::Greater => sa,
            Ordering::Less => sb,
            Ordering::Equal => Ordering::Equal,
        }
    }
}

fn sign(q: &BigRational) -> Ordering {
    if q.is_positive() {
        Ordering::Greater
    } else if q.is_negative() {
        Ordering::Less
    } else {
        Ordering::Equal
    }
}

impl PartialOrd for QSqrt5 {
    fn partial_cmp(&self, other: &QSqrt5) -> Option<Ordering> {
        Some((self.clone() - other.clone()).signum())
    }
}

impl Add for QSqrt5 {
    type Output = QSqrt5;
    fn add(self, o: QSqrt5) -> QSqrt5 {
        QSqrt5 { a: self.a + o.a, b: self.b + o.b }
    }
}

impl Sub for QSqrt5 {
    type Output = QSqrt5;
    fn sub(self, o: QSqrt5) -> QSqrt5 {
        QSqrt5 { a: self.a - o.a, b: self.b - o.b }
    }
}

impl Mul for QSqrt5 {
    type Output = QSqrt5;
    fn mul(self, o: QSqrt5) -> QSqrt5 {
        let five = BigRational::from_integer(BigInt::from(5));
        QSqrt5 { a: &self.a * &o.a + &self.b * &o.b * five, b: &self.a * &o.b + &self.b * &o.a }
    }
}

impl Div for QSqrt5 {
    type Output = QSqrt5;
    /// Division by the conjugate: (a + b√5)⁻¹ = (a − b√5)/(a² − 5b²); the norm
    /// is 0 only for 0 because √5 is irrational. Panics on division by zero.
    fn div(self, o: QSqrt5) -> QSqrt5 {
        let five = BigRational::from_integer(BigInt::from(5));
        let norm = &o.a * &o.a - &o.b * &o.b * five;
        assert!(!norm.is_zero(), "division by zero in Q(√5)");
        let conj = QSqrt5 { a: o.a / &norm, b: -o.b / &norm };
        self * conj
    }
}

impl Zero for QSqrt5 {
    fn zero() -> QSqrt5 {
        QSqrt5 { a: BigRational::zero(), b: BigRational::zero() }
    }
    fn is_zero(&self) -> bool {
        self.a.is_zero() && self.b.is_zero()
    }
}

impl One for QSqrt5 {
    fn one() -> QSqrt5 {
        QSqrt5 { a: BigRational::one(), b: BigRational::zero() }
    }
}

impl Scalar for QSqrt5 {
    fn ratio(n: i64, d: i64) -> QSqrt5 {
        QSqrt5 { a: BigRational::ratio(n, d), b: BigRational::zero() }
    }
    fn to_f64(&self) -> f64 {
        rational_to_f64(&self.a) + rational_to_f64(&self.b) * 5f64.sqrt()
    }
}

/// √5 as an element of Q(√5).
pub fn sqrt5() -> QSqrt5 {
    QSqrt5 { a: BigRational::zero(), b: BigRational::one() }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_and_inverse_in_q_sqrt5() {
        let phi = (QSqrt5::one() + sqrt5()) / QSqrt5::ratio(2, 1);
        // φ² = φ + 1 exactly.
        assert_eq!(phi.clone() * phi.clone(), phi.clone() + QSqrt5::one());
        // 2 − √5 < 0, and 11/5 < √5 < 9/4 (decided exactly).
        let e = QSqrt5::ratio(2, 1) - sqrt5();
        assert_eq!(e.signum(), Ordering::Less);
        assert!(QSqrt5::ratio(11, 5) < sqrt5() && sqrt5() < QSqrt5::ratio(9, 4));
        assert!(QSqrt5::ratio(9, 4) > sqrt5());
        assert!((e.to_f64() - (2.0 - 5f64.sqrt())).abs() < 1e-15);
        assert_eq!(rational_to_f64(&BigRational::ratio(1, 3)), 1.0 / 3.0);
    }
}
