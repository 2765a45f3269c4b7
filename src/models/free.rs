//! Free search problems (thesis Def. 4.3): every partition of the remaining set
//! into at most `a` classes is a query.
//!
//! - Perfect play by the recursion of Satz 4.5 over (m, j), in totals
//!   T(m, j) = m·E(m, j), and by the closed form of the equal-weight a-ary
//!   Huffman tree (leaves at depths d and d+1, a^d ≤ m < a^{d+1}):
//!   T(m) = d·m + (m − a^d) + ⌈(m − a^d)/(a − 1)⌉.
//! - H_α strategies through the size-model core: for 0 < α < ∞ the most even
//!   partition into min(a, m) classes is the unique optimum (Satz 4.6); for α = 0
//!   and ∞ it is the canonically first of many tied ones (LEX).

use super::{SizeModel, Split};
use crate::error::{Result, invalid};
use crate::renyi::alpha::Alpha;

/// The free search problem of query width `a` ≥ 2.
pub struct FreeSearch {
    pub width: u64,
}

impl FreeSearch {
    pub fn new(width: u64) -> Result<FreeSearch> {
        if width < 2 {
            return Err(invalid(format!("query width {width}: it must be at least 2")));
        }
        Ok(FreeSearch { width })
    }
}

impl SizeModel for FreeSearch {
    fn name(&self) -> String {
        format!("free search problem (width {})", self.width)
    }

    /// The most even split into j classes for every j = 2..min(a, n).
    fn candidates(&self, n: u64, out: &mut Vec<Split>) {
        out.clear();
        out.extend((2..=self.width.min(n)).map(|j| Split::balanced(n, j)));
    }

    fn mix_exact(&self, alpha: Alpha) -> bool {
        alpha != Alpha::Infinity && alpha != Alpha::integer(0)
    }
}

/// Perfect totals T(m) = m·E(m) for m = 0..=upto by Satz 4.5 (O(upto²·ln a)).
pub fn perfect_totals_recursive(width: u64, upto: u64) -> Vec<u64> {
    let a = width as usize;
    let m_max = upto as usize;
    // t[j][m] = T(m, j); row a is T(m) itself.
    let mut t = vec![vec![0u64; m_max + 1]; a + 1];
    for m in 2..=m_max {
        for j in 2..=a {
            t[j][m] = if m <= j {
                m as u64
            } else if j == 2 {
                (1..=m / 2).map(|m1| m as u64 + t[a][m1] + t[a][m - m1]).min().unwrap_or(u64::MAX)
            } else {
                (1..=m / j).map(|m1| m1 as u64 + t[a][m1] + t[j - 1][m - m1]).min().unwrap_or(u64::MAX)
            };
        }
    }
    t.swap_remove(a)
}

/// Perfect total T(m) by the closed form of the equal-weight a-ary Huffman
/// tree ([`crate::search::bounds::huffman_total`]).
pub fn perfect_total_closed(width: u64, m: u64) -> u64 {
    crate::search::bounds::huffman_total(width, m)
}
