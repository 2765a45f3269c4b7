//! The resistor network of a position (thesis 5.2.5, reference note §4.2):
//! marked edges merged (short circuit), deleted edges removed (open circuit),
//! parts split off from both terminals dropped (their edges carry no current).
//! Unit conductance on every free edge; the potentials solve (5.1)
//! Σ_{i∈N_j} (x_i − x_j) = 0 for every inner node j, x_A = 1, x_B = 0.
//!
//! Inner nodes are numbered by their smallest board node, so on Bridg-It
//! boards the matrix has a narrow envelope; [`Skyline`] factors it as L·D·Lᵀ
//! over any field ([`Field`]: `f64` here, integers mod p in [`super::exact`]).
//! The matrix is symmetric, strictly diagonally dominant on the kept parts
//! (every kept part touches a terminal), hence positive definite and every
//! pivot of the elimination without pivoting is positive.

use super::board::Board;
use super::position::{Classes, Position};
use std::ops::{Add, Mul, Sub};

/// An end of a free edge in the network.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pole {
    /// Terminal A, x = 1.
    A,
    /// Terminal B, x = 0.
    B,
    /// Inner node i of the network.
    Inner(usize),
}

/// The network: inner nodes and the free edges that can carry current.
#[derive(Clone, Debug)]
pub struct Network {
    pub inner: usize,
    /// (board edge, end, end) for every free edge between kept, different nodes.
    pub links: Vec<(usize, Pole, Pole)>,
}

impl Network {
    /// The network of a position that is not over (A and B neither merged nor cut apart).
    pub fn of(board: &Board, pos: &Position) -> Network {
        let mut merged: Classes = pos.marked_classes(board);
        let free: Vec<(usize, u32, u32)> = (0..board.edges().len())
            .filter(|&e| pos.is_free(e))
            .map(|e| {
                let (u, v) = board.edges()[e];
                (e, merged.find(u), merged.find(v))
            })
            .filter(|&(_, u, v)| u != v)
            .collect();
        let mut alive = Classes::new(board.nodes());
        for &(_, u, v) in &free {
            alive.union(u, v);
        }
        let (ra, rb) = (merged.find(board.a()), merged.find(board.b()));
        let (ka, kb) = (alive.find(ra), alive.find(rb));
        let mut index = vec![usize::MAX; board.nodes()];
        let mut inner = 0;
        for x in 0..board.nodes() as u32 {
            let r = merged.find(x);
            if r == x && r != ra && r != rb && [ka, kb].contains(&alive.find(r)) {
                index[x as usize] = inner;
                inner += 1;
            }
        }
        let pole = |r: u32| -> Option<Pole> {
            if r == ra {
                Some(Pole::A)
            } else if r == rb {
                Some(Pole::B)
            } else {
                (index[r as usize] != usize::MAX).then(|| Pole::Inner(index[r as usize]))
            }
        };
        let links = free.iter().filter_map(|&(e, u, v)| Some((e, pole(u)?, pole(v)?))).collect();
        Network { inner, links }
    }

    /// The Laplacian of the inner nodes (envelope form) and the right-hand side
    /// Σ over links to A, as values of the field `F`.
    pub fn system<F: Field>(&self, from_int: impl Fn(i64) -> F) -> (Skyline<F>, Vec<F>) {
        let n = self.inner;
        let mut first: Vec<usize> = (0..n).collect();
        for &(_, u, v) in &self.links {
            if let (Pole::Inner(i), Pole::Inner(j)) = (u, v) {
                let (lo, hi) = (i.min(j), i.max(j));
                first[hi] = first[hi].min(lo);
            }
        }
        let mut m = Skyline::zeros(first, from_int(0));
        let mut rhs = vec![0i64; n];
        let mut entries: Vec<(usize, usize, i64)> = Vec::new();
        for &(_, u, v) in &self.links {
            for (p, q) in [(u, v), (v, u)] {
                if let Pole::Inner(i) = p {
                    entries.push((i, i, 1));
                    match q {
                        Pole::A => rhs[i] += 1,
                        Pole::B => {}
                        Pole::Inner(j) if j < i => entries.push((i, j, -1)),
                        Pole::Inner(_) => {}
                    }
                }
            }
        }
        for (i, j, x) in entries {
            let slot = m.slot(i, j);
            m.values[slot] = m.values[slot] + from_int(x);
        }
        (m, rhs.into_iter().map(from_int).collect())
    }

    /// |x_u − x_v| of every link, from the inner potentials `x`.
    pub fn drops(&self, x: &[f64]) -> Vec<(usize, f64)> {
        let at = |p: Pole| match p {
            Pole::A => 1.0,
            Pole::B => 0.0,
            Pole::Inner(i) => x[i],
        };
        self.links.iter().map(|&(e, u, v)| (e, (at(u) - at(v)).abs())).collect()
    }
}

/// The arithmetic the elimination needs.
pub trait Field: Copy + Add<Output = Self> + Sub<Output = Self> + Mul<Output = Self> {
    /// 1/self, or `None` for zero.
    fn inverse(self) -> Option<Self>;
}

impl Field for f64 {
    fn inverse(self) -> Option<f64> {
        (self != 0.0).then(|| 1.0 / self)
    }
}

/// A symmetric matrix stored by rows from its first nonzero column to the diagonal.
#[derive(Clone, Debug)]
pub struct Skyline<F> {
    first: Vec<usize>,
    start: Vec<usize>,
    values: Vec<F>,
}

impl<F: Field> Skyline<F> {
    /// The zero matrix with the envelope `first` (first[i] ≤ i).
    pub fn zeros(first: Vec<usize>, zero: F) -> Skyline<F> {
        let mut start = Vec::with_capacity(first.len() + 1);
        start.push(0);
        for (i, &f) in first.iter().enumerate() {
            start.push(start[i] + i - f + 1);
        }
        let len = *start.last().expect("start has one entry");
        Skyline { first, start, values: vec![zero; len] }
    }

    fn slot(&self, i: usize, j: usize) -> usize {
        self.start[i] + j - self.first[i]
    }

    /// The entry (i, j), j ≤ i, inside the envelope.
    pub fn get(&self, i: usize, j: usize) -> Option<F> {
        (j >= self.first[i] && j <= i).then(|| self.values[self.slot(i, j)])
    }

    /// Factors in place into L (unit lower, below the diagonal) and D (the
    /// diagonal); returns the pivots D, or `None` if a pivot is zero.
    #[allow(clippy::needless_range_loop)] // envelope index arithmetic over rows i, j and k
    pub fn factor(&mut self) -> Option<Vec<F>> {
        let n = self.first.len();
        let mut inv_d: Vec<F> = Vec::with_capacity(n);
        let mut d: Vec<F> = Vec::with_capacity(n);
        for i in 0..n {
            let fi = self.first[i];
            // w_ij = a_ij − Σ_k l_ik w_jk… computed as row i of L·D, then scaled.
            for j in fi..i {
                let fj = self.first[j].max(fi);
                let mut w = self.values[self.slot(i, j)];
                for k in fj..j {
                    w = w - self.values[self.slot(i, k)] * d[k] * self.values[self.slot(j, k)];
                }
                let s = self.slot(i, j);
                self.values[s] = w * inv_d[j];
            }
            let mut di = self.values[self.slot(i, i)];
            for k in fi..i {
                let l = self.values[self.slot(i, k)];
                di = di - l * d[k] * l;
            }
            inv_d.push(di.inverse()?);
            d.push(di);
        }
        for (i, &di) in d.iter().enumerate() {
            let s = self.slot(i, i);
            self.values[s] = di;
        }
        Some(d)
    }

    /// Solves with a factored matrix (after [`Self::factor`]).
    pub fn solve_factored(&self, rhs: &[F]) -> Vec<F> {
        let n = self.first.len();
        let mut y = rhs.to_vec();
        for i in 0..n {
            for k in self.first[i]..i {
                y[i] = y[i] - self.values[self.slot(i, k)] * y[k];
            }
        }
        for (i, yi) in y.iter_mut().enumerate() {
            *yi = *yi * self.values[self.slot(i, i)].inverse().expect("nonzero pivot");
        }
        for i in (0..n).rev() {
            for k in self.first[i]..i {
                y[k] = y[k] - self.values[self.slot(i, k)] * y[i];
            }
        }
        y
    }
}
