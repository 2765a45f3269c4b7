//! Float solvers of the potential equations (thesis 5.2.4) behind one
//! interface: direct elimination (L·D·Lᵀ on the envelope, O(N·b²)) with an
//! a-posteriori error bound, and Gauss–Seidel / SOR with a relaxation ω, a
//! start vector and either a tolerance or a fixed, finite iteration count (the
//! randomised agents of 5.4.4 use the latter: their potentials are
//! approximations by design).

use super::network::{Network, Pole};

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
    /// x ← (1 − ω)·x + ω·F(x), node by node, from `start`; stops after
    /// `iterations` sweeps, or earlier when no node moves by more than `tolerance`.
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

    /// Solves for the inner potentials of `net`.
    pub fn potentials(&self, net: &Network) -> Potentials {
        match *self {
            Solver::Direct => direct(net),
            Solver::GaussSeidel { omega, start, iterations, tolerance } => {
                let StartVector::Constant(c) = start;
                let x = gauss_seidel(net, omega, vec![c; net.inner], iterations, tolerance);
                Potentials { x, error_bound: f64::INFINITY }
            }
        }
    }
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

/// Gauss–Seidel / SOR sweeps over the inner nodes in index order.
fn gauss_seidel(net: &Network, omega: f64, mut x: Vec<f64>, iterations: usize, tolerance: f64) -> Vec<f64> {
    let mut adjacent: Vec<Vec<Pole>> = vec![Vec::new(); net.inner];
    for &(_, u, v) in &net.links {
        if let Pole::Inner(i) = u {
            adjacent[i].push(v);
        }
        if let Pole::Inner(j) = v {
            adjacent[j].push(u);
        }
    }
    for _ in 0..iterations {
        let mut moved: f64 = 0.0;
        for j in 0..net.inner {
            let sum: f64 = adjacent[j]
                .iter()
                .map(|p| match *p {
                    Pole::A => 1.0,
                    Pole::B => 0.0,
                    Pole::Inner(i) => x[i],
                })
                .sum();
            let target = sum / adjacent[j].len() as f64;
            let next = (1.0 - omega) * x[j] + omega * target;
            moved = moved.max((next - x[j]).abs());
            x[j] = next;
        }
        if moved <= tolerance {
            break;
        }
    }
    x
}
