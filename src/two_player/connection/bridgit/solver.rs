//! Float solvers of the potential equations (thesis 5.2.4) behind one
//! interface: direct elimination (L·D·Lᵀ on the envelope, O(N·b²)) with an
//! a-posteriori error bound, and Gauss–Seidel / SOR with a relaxation ω, a
//! start vector and either a certified tolerance ([`super::iterative`]: the
//! error bound is rigorous, so ties are decided exactly as after a direct
//! solve) or a fixed, finite iteration count (the randomised agents of 5.4.4
//! use the latter: their potentials are approximations by design).

use super::iterative::{Stencil, certified_sor};
use super::network::Network;

/// The start vector of an iterative solve.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StartVector {
    /// x_j = c for every inner node (the thesis starts at ½).
    Constant(f64),
}

/// How to solve the potential equations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Solver {
    /// Direct elimination.
    Direct,
    /// x ← (1 − ω)·x + ω·F(x), node by node, from `start`. With `tolerance` > 0:
    /// stops once the certified max-norm error is at most `tolerance` (or after
    /// `iterations` sweeps, or at the rounding floor) and returns that bound.
    /// With `tolerance` = 0: exactly `iterations` sweeps (fewer only if a sweep
    /// moves no node), no bound.
    GaussSeidel { omega: f64, start: StartVector, iterations: usize, tolerance: f64 },
}

/// Inner potentials and a bound on their error in the max norm (∞ if unknown).
#[derive(Clone, Debug)]
pub struct Potentials {
    pub x: Vec<f64>,
    pub error_bound: f64,
}

impl Solver {
    /// Gauss–Seidel with ω = 1 from ½ for a fixed number of sweeps (thesis 5.4.4).
    pub fn finite_gauss_seidel(iterations: usize) -> Solver {
        Solver::GaussSeidel { omega: 1.0, start: StartVector::Constant(0.5), iterations, tolerance: 0.0 }
    }

    /// The inner potentials of `net` without an error bound: for [`Solver::Direct`]
    /// the floats of [`Self::potentials`] at about half the cost (no bound
    /// computed), else the same as it.
    pub fn approximate(&self, net: &Network) -> Vec<f64> {
        match self {
            Solver::Direct => direct_unbounded(net).unwrap_or_else(|| self.potentials(net).x),
            _ => self.potentials(net).x,
        }
    }

    /// Solves for the inner potentials of `net`.
    pub fn potentials(&self, net: &Network) -> Potentials {
        match *self {
            Solver::Direct => direct(net),
            Solver::GaussSeidel { omega, start, iterations, tolerance } => {
                let StartVector::Constant(c) = start;
                if tolerance > 0.0 {
                    let (x, error_bound) = certified_sor(net, omega, &vec![c; net.inner], iterations, tolerance);
                    return Potentials { x, error_bound };
                }
                let mut x = vec![c; net.inner];
                x.extend([1.0, 0.0]);
                Stencil::natural(net).run(omega, &mut x, iterations, 0.0);
                x.truncate(net.inner);
                Potentials { x, error_bound: f64::INFINITY }
            }
        }
    }
}

/// The direct solve's potentials without their bound (the same floats as
/// [`direct`]'s; `None` if a pivot vanishes, which the positive definite
/// matrix of a network excludes).
fn direct_unbounded(net: &Network) -> Option<Vec<f64>> {
    let (mut a, b) = net.system::<f64>(|v| v as f64);
    a.factor()?;
    Some(a.solve_factored(&b))
}

/// Direct solve. The bound is ‖A⁻¹‖∞·(‖r‖∞ + rounding of r), where A⁻¹ ≥ 0 (A is
/// an M-matrix) so ‖A⁻¹‖∞ = max(A⁻¹·1), solved with the same factors and
/// inflated by 2 for its own rounding.
fn direct(net: &Network) -> Potentials {
    let (mut a, b) = net.system::<f64>(|v| v as f64);
    let original = a.clone();
    if a.factor().is_none() {
        return Potentials { x: vec![0.5; net.inner], error_bound: f64::INFINITY };
    }
    let x = a.solve_factored(&b);
    let z = a.solve_factored(&vec![1.0; net.inner]);
    let n = net.inner;
    let mut residual = b.clone();
    let mut magnitude: Vec<f64> = b.iter().map(|v| v.abs()).collect();
    for i in 0..n {
        for j in 0..=i {
            if let Some(aij) = original.get(i, j) {
                residual[i] -= aij * x[j];
                magnitude[i] += (aij * x[j]).abs();
                if j != i {
                    residual[j] -= aij * x[i];
                    magnitude[j] += (aij * x[i]).abs();
                }
            }
        }
    }
    let r = residual.iter().zip(&magnitude).map(|(r, m)| r.abs() + 16.0 * f64::EPSILON * m).fold(0.0, f64::max);
    let norm_inv = 2.0 * z.iter().copied().fold(0.0, f64::max);
    Potentials { x, error_bound: norm_inv * r + 4.0 * f64::EPSILON }
}
