//! N floats side by side as one [`Scalar`]: the values of N agent parameters
//! (temperatures of Def 5.7) on one game graph in one backward induction
//! (`stochastic::play_values`), lane by lane the same operations in the same
//! order as N separate inductions, hence the same floats.

use crate::graph::scalar::Scalar;
use num_traits::{One, Zero};
use std::ops::{Add, Div, Mul, Sub};

/// One f64 per lane.
#[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
pub struct Lanes<const N: usize>(pub [f64; N]);

impl<const N: usize> Lanes<N> {
    /// The same value in every lane.
    pub fn splat(x: f64) -> Self {
        Lanes([x; N])
    }

    fn zip(self, other: Self, f: impl Fn(f64, f64) -> f64) -> Self {
        Lanes(std::array::from_fn(|i| f(self.0[i], other.0[i])))
    }
}

impl<const N: usize> Add for Lanes<N> {
    type Output = Self;
    fn add(self, o: Self) -> Self {
        self.zip(o, |a, b| a + b)
    }
}

impl<const N: usize> Sub for Lanes<N> {
    type Output = Self;
    fn sub(self, o: Self) -> Self {
        self.zip(o, |a, b| a - b)
    }
}

impl<const N: usize> Mul for Lanes<N> {
    type Output = Self;
    fn mul(self, o: Self) -> Self {
        self.zip(o, |a, b| a * b)
    }
}

impl<const N: usize> Div for Lanes<N> {
    type Output = Self;
    fn div(self, o: Self) -> Self {
        self.zip(o, |a, b| a / b)
    }
}

impl<const N: usize> Zero for Lanes<N> {
    fn zero() -> Self {
        Lanes::splat(0.0)
    }
    fn is_zero(&self) -> bool {
        self.0.iter().all(|x| *x == 0.0)
    }
}

impl<const N: usize> One for Lanes<N> {
    fn one() -> Self {
        Lanes::splat(1.0)
    }
}

impl<const N: usize> Scalar for Lanes<N> {
    fn ratio(n: i64, d: i64) -> Self {
        Lanes::splat(n as f64 / d as f64)
    }
    /// Lane 0.
    fn to_f64(&self) -> f64 {
        self.0[0]
    }
}
