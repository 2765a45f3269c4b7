//! Gauss–Seidel / SOR on the potential equations (thesis 5.2.4, (5.1)):
//! x_j ← (1 − ω)·x_j + ω·(Σ_{i∈N_j} x_i)/|N_j|, node by node.
//!
//! The network is flattened once per solve into compressed rows ([`Stencil`]):
//! for inner node j its neighbours as indices into one vector
//! x = (x_0 … x_{n−1}, 1, 0) whose last two entries are the terminals A and B.
//! A sweep is one pass over two flat arrays without branching on the kind of
//! neighbour.
//!
//! - [`Stencil::natural`]: nodes in index order, neighbours in link order:
//!   the sums and roundings of the thesis' node-by-node iteration, which the
//!   finite-sweep agents of 5.4.4 use (bit for bit as before this module).
//! - [`Stencil::coloured`]: nodes grouped by a greedy colouring (no two
//!   neighbours in one colour; on an unplayed Bridg-It grid the two colours
//!   of a chessboard), so the updates within a colour do not wait for each
//!   other; a multiplication by 1/|N_j| replaces the division. On the grid,
//!   red–black and index order are both consistently ordered, with the same
//!   SOR convergence rate (Young); on any network SOR converges for 0 < ω < 2
//!   (the matrix is symmetric positive definite).
//!
//! [`certified_sor`] stops on a rigorous bound instead of a step size. The
//! matrix A = D − (inner adjacency) is an M-matrix (A⁻¹ ≥ 0 entrywise; see
//! `network.rs`), so for any z with A·z ≥ c·1, c > 0: A⁻¹·1 ≤ z/c and
//! ‖A⁻¹‖∞ ≤ max z / c; and ‖x − x*‖∞ ≤ ‖A⁻¹‖∞·‖b − A·x‖∞. The z: x(1 − x) of
//! the nearly converged potentials (free, and on an unplayed M = 20 board
//! within 2 % of the true ‖A⁻¹‖∞ ≈ 49), else SOR sweeps on A·z = 1. Both A·z and the
//! residual are evaluated in floats with a bound on their rounding
//! (2·(k + 2)·u times the sum of magnitudes for a k-term sum), so the returned
//! bound holds for the returned floats.

use super::network::{Network, Pole};

/// The compressed neighbour lists of a network's inner nodes, in some order.
#[derive(Clone, Debug)]
pub struct Stencil {
    /// Row k's neighbours are `at[start[k]..start[k + 1]]`.
    start: Vec<u32>,
    /// Indices into x: row k of an inner node, n for A, n + 1 for B.
    at: Vec<u32>,
    /// 1/|N_k| per row.
    inverse_degree: Vec<f64>,
    /// Row k holds inner node `node[k]` of the network.
    node: Vec<u32>,
}

impl Stencil {
    /// Index order, neighbours in link order.
    pub fn natural(net: &Network) -> Stencil {
        let identity: Vec<u32> = (0..net.inner as u32).collect();
        Stencil::with_order(net, identity)
    }

    /// Rows grouped by a greedy colouring of the inner nodes in index order.
    pub fn coloured(net: &Network) -> Stencil {
        let natural = Stencil::natural(net);
        let n = net.inner;
        let mut colour = vec![u32::MAX; n];
        let mut used: Vec<u32> = Vec::new();
        for j in 0..n {
            used.clear();
            used.extend(natural.row(j).iter().filter(|&&i| (i as usize) < n).map(|&i| colour[i as usize]));
            colour[j] = (0..).find(|c| !used.contains(c)).expect("a free colour");
        }
        let mut order: Vec<u32> = (0..n as u32).collect();
        order.sort_by_key(|&j| (colour[j as usize], j));
        Stencil::with_order(net, order)
    }

    fn with_order(net: &Network, node: Vec<u32>) -> Stencil {
        let n = net.inner;
        let mut row_of = vec![0u32; n];
        for (k, &j) in node.iter().enumerate() {
            row_of[j as usize] = k as u32;
        }
        let slot = |p: Pole| match p {
            Pole::Inner(i) => row_of[i],
            Pole::A => n as u32,
            Pole::B => n as u32 + 1,
        };
        let mut start = vec![0u32; n + 1];
        for &(_, u, v) in &net.links {
            for p in [u, v] {
                if let Pole::Inner(i) = p {
                    start[row_of[i] as usize + 1] += 1;
                }
            }
        }
        for k in 0..n {
            start[k + 1] += start[k];
        }
        let mut fill: Vec<u32> = start[..n].to_vec();
        let mut at = vec![0u32; start[n] as usize];
        for &(_, u, v) in &net.links {
            for (p, q) in [(u, v), (v, u)] {
                if let Pole::Inner(i) = p {
                    let k = row_of[i] as usize;
                    at[fill[k] as usize] = slot(q);
                    fill[k] += 1;
                }
            }
        }
        let inverse_degree = (0..n).map(|k| 1.0 / (start[k + 1] - start[k]) as f64).collect();
        Stencil { start, at, inverse_degree, node }
    }

    /// Inner nodes.
    pub fn inner(&self) -> usize {
        self.node.len()
    }

    fn row(&self, k: usize) -> &[u32] {
        &self.at[self.start[k] as usize..self.start[k + 1] as usize]
    }

    /// x in row order, extended by the terminals: (…, 1, 0).
    pub fn gather(&self, x: &[f64]) -> Vec<f64> {
        let mut out: Vec<f64> = self.node.iter().map(|&j| x[j as usize]).collect();
        out.extend([1.0, 0.0]);
        out
    }

    /// The inner potentials in node order from x in row order.
    pub fn scatter(&self, x: &[f64]) -> Vec<f64> {
        let mut out = vec![0.0; self.inner()];
        for (k, &j) in self.node.iter().enumerate() {
            out[j as usize] = x[k];
        }
        out
    }

    /// One sweep of (1 − ω)·x_k + ω·(Σ x_i)/|N_k| (division, the thesis' rounding);
    /// returns the largest |step|.
    pub fn sweep(&self, omega: f64, x: &mut [f64]) -> f64 {
        let mut moved: f64 = 0.0;
        for k in 0..self.inner() {
            let row = self.row(k);
            let mut sum = 0.0;
            for &i in row {
                sum += x[i as usize];
            }
            let target = sum / row.len() as f64;
            let next = (1.0 - omega) * x[k] + omega * target;
            moved = moved.max((next - x[k]).abs());
            x[k] = next;
        }
        moved
    }

    /// One SOR sweep for A·x = b + `source`·1 (source 0: the potentials, x = (…, 1, 0);
    /// source 1: A·z = 1, z = (…, 0, 0)), by multiplication with 1/|N_k|.
    fn sweep_fast(&self, omega: f64, source: f64, x: &mut [f64]) {
        for k in 0..self.inner() {
            let mut sum = source;
            for &i in self.row(k) {
                sum += x[i as usize];
            }
            x[k] += omega * (sum * self.inverse_degree[k] - x[k]);
        }
    }

    /// max_k |(b + source·1 − A·x)_k| without and with its rounding bound,
    /// each maximised separately: (residual, rounding).
    fn residual(&self, source: f64, x: &[f64]) -> (f64, f64, f64) {
        let (mut worst, mut rounding, mut low) = (0.0f64, 0.0f64, f64::INFINITY);
        for k in 0..self.inner() {
            let row = self.row(k);
            let (mut sum, mut size) = (source, source.abs());
            for &i in row {
                sum += x[i as usize];
                size += x[i as usize].abs();
            }
            let diag = row.len() as f64 * x[k];
            let r = 2.0 * (row.len() as f64 + 3.0) * f64::EPSILON * (diag.abs() + size);
            worst = worst.max((sum - diag).abs());
            rounding = rounding.max(r);
            low = low.min(diag - (sum - source) - r);
        }
        (worst, rounding, low)
    }

    /// An upper bound on max_k |(b − A·x)_k| for x = (…, 1, 0), rounding included.
    pub fn residual_bound(&self, x: &[f64]) -> f64 {
        let (r, rounding, _) = self.residual(0.0, x);
        r + rounding
    }

    /// A certified upper bound on ‖A⁻¹‖∞ from SOR sweeps on A·z = 1
    /// (`None` if `max_sweeps` do not give A·z ≥ ½ everywhere).
    pub fn inverse_norm_bound(&self, omega: f64, max_sweeps: usize) -> Option<f64> {
        let n = self.inner();
        let mut z = vec![0.0; n + 2];
        let mut sweeps = 0;
        while sweeps < max_sweeps {
            for _ in 0..UNIT_CHECK_EVERY {
                self.sweep_fast(omega, 1.0, &mut z);
            }
            sweeps += UNIT_CHECK_EVERY;
            // low = min_k (A·z)_k rounded down.
            let (_, _, low) = self.residual(1.0, &z);
            if low >= 0.5 {
                let top = z[..n].iter().copied().fold(0.0, f64::max);
                return Some(top / low * (1.0 + 4.0 * f64::EPSILON));
            }
        }
        None
    }

    /// Up to `iterations` sweeps ([`Self::sweep`]), stopping early when no node
    /// moves by more than `tolerance`.
    pub fn run(&self, omega: f64, x: &mut [f64], iterations: usize, tolerance: f64) {
        for _ in 0..iterations {
            if self.sweep(omega, x) <= tolerance {
                break;
            }
        }
    }
}

/// Sweeps between two checks of the stopping bound.
const CHECK_EVERY: usize = 8;
/// Sweeps between two checks of A·z ≥ ½.
const UNIT_CHECK_EVERY: usize = 4;
/// The residual below which the potentials are close enough to harmonic for
/// the certificate z = x(1 − x) of [`Stencil::harmonic_certificate`].
const CERTIFY_BELOW: f64 = 1e-4;

impl Stencil {
    /// ‖A⁻¹‖∞ ≤ max z / min A·z for z = x(1 − x) (terminals 0). For harmonic x,
    /// (A·z)_j = Σ_{i∈N_j} (x_i − x_j)², the squared drops at j, so this is
    /// positive wherever current flows; verified in floats (rounded down), so it
    /// holds for any x. `None` where some node carries no current.
    fn harmonic_certificate(&self, x: &[f64]) -> Option<f64> {
        let n = self.inner();
        let mut z: Vec<f64> = x[..n].iter().map(|&v| v * (1.0 - v)).collect();
        z.extend([0.0, 0.0]);
        let (_, _, low) = self.residual(0.0, &z);
        let top = z[..n].iter().copied().fold(0.0, f64::max);
        (low > 0.0).then(|| top / low * (1.0 + 4.0 * f64::EPSILON))
    }

    /// The better of the two norm bounds (the SOR one only when the certificate
    /// is missing or loose: above n, where nodes with almost no current weaken it).
    fn norm_bound(&self, omega: f64, x: &[f64], max_sweeps: usize) -> Option<f64> {
        match self.harmonic_certificate(x) {
            Some(norm) if norm <= self.inner() as f64 => Some(norm),
            quick => {
                let solved = self.inverse_norm_bound(omega, max_sweeps.max(UNIT_CHECK_EVERY));
                [quick, solved].into_iter().flatten().reduce(f64::min)
            }
        }
    }
}

/// SOR (coloured order) from `x` (inner potentials) until the certified
/// max-norm error is at most `tolerance`, the residual sinks to its rounding
/// bound, or `max_sweeps` sweeps are done. Returns the potentials and their
/// certified error bound (∞ if ‖A⁻¹‖∞ could not be bounded). The norm bound is
/// taken once, when the residual first falls below [`CERTIFY_BELOW`] (or at the end).
pub fn certified_sor(net: &Network, omega: f64, x: &[f64], max_sweeps: usize, tolerance: f64) -> (Vec<f64>, f64) {
    let stencil = Stencil::coloured(net);
    let mut ext = stencil.gather(x);
    let mut norm: Option<Option<f64>> = None;
    let mut sweeps = 0;
    let mut bound = f64::INFINITY;
    while sweeps < max_sweeps {
        let step = CHECK_EVERY.min(max_sweeps - sweeps);
        for _ in 0..step {
            stencil.sweep_fast(omega, 0.0, &mut ext);
        }
        sweeps += step;
        let (r, rounding, _) = stencil.residual(0.0, &ext);
        let last = sweeps >= max_sweeps || r <= rounding;
        if norm.is_none() && (r <= CERTIFY_BELOW || last) {
            norm = Some(stencil.norm_bound(omega, &ext, max_sweeps));
        }
        if let Some(Some(a)) = norm {
            bound = a * (r + rounding) * (1.0 + 4.0 * f64::EPSILON);
        }
        if bound <= tolerance || last {
            break;
        }
    }
    (stencil.scatter(&ext), bound)
}
