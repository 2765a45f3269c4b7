//! The checker's bound for games without a solving answer (Beams): a
//! strategy either stops at a set — its terminal cost — or asks a query
//! that splits it into 2..=s classes, each code paying the query.
//!
//! The premise, checked by the checker over every pair of codes: the
//! terminal cost of a set of k codes is at least (k − 1)·δ, where δ is the
//! least terminal cost of any two codes. (Beams lays a code of the set and
//! every other code pays its wrong cells against it, at least the pair's
//! cost; a single code costs 0.) Then by induction over the strategy tree a
//! set of m codes costs at least f_s(m):
//! f_s(1) = 0, f_s(m) = min((m − 1)·δ, m + min over 2 ≤ j ≤ s of g_j(m)),
//! g_j(m) = the least Σ f_s over j positive parts of m (g_1 = f_s).

use std::sync::OnceLock;

/// f_s and g_j tables, built per s on first use.
pub struct LeafBound {
    delta: u64,
    n: usize,
    /// `tables[s][j][m]` = g_j(m) for that s (j = 1: f_s itself).
    tables: Vec<OnceLock<Vec<Vec<u64>>>>,
}

impl LeafBound {
    /// The bound for sets of up to `n` codes, with δ and at most `max_s` classes per query.
    pub fn new(delta: u64, n: usize, max_s: usize) -> Self {
        LeafBound { delta, n, tables: (0..=max_s).map(|_| OnceLock::new()).collect() }
    }

    fn table(&self, s: u64) -> &[Vec<u64>] {
        let s = (s as usize).clamp(1, self.tables.len() - 1);
        self.tables[s].get_or_init(|| {
            let n = self.n;
            let mut g = vec![vec![u64::MAX; n + 1]; s + 1];
            g[1][0] = 0;
            for m in 1..=n {
                for j in 2..=s.min(m) {
                    g[j][m] =
                        (1..=m - (j - 1)).map(|x| g[1][x].saturating_add(g[j - 1][m - x])).min().unwrap_or(u64::MAX);
                }
                let split = (2..=s.min(m)).map(|j| g[j][m]).min().map_or(u64::MAX, |v| v.saturating_add(m as u64));
                g[1][m] = ((m as u64 - 1) * self.delta).min(split);
            }
            g
        })
    }

    /// f_s(m): the least cost of m codes when no query makes more than s classes.
    pub fn bound(&self, s: u64, m: u64) -> u64 {
        self.table(s)[1][m as usize]
    }

    /// g_k(m) under s: the least Σ f_s over k classes of m codes in all.
    pub fn split(&self, s: u64, k: u64, m: u64) -> u64 {
        let t = self.table(s);
        t.get(k as usize).map_or(0, |row| row[m as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::bounds::huffman_total;

    /// With leaves too dear to use, f_s is the s-ary Huffman total; with δ
    /// small, a set may stop at once: f_s(m) = min((m − 1)·δ, …).
    #[test]
    fn the_leaf_bound_is_huffman_without_cheap_leaves() {
        let dear = LeafBound::new(1_000_000, 60, 6);
        for s in 2..=6 {
            for m in 1..=60 {
                assert_eq!(dear.bound(s, m), huffman_total(s, m), "s {s} m {m}");
            }
        }
        let cheap = LeafBound::new(1, 20, 4);
        assert!((1..=20).all(|m| cheap.bound(4, m) == m - 1));
        // g_2(5) under s = 2 with δ = 2: parts (1, 4) or (2, 3): f(1) + f(4) = 0 + 6, f(2) + f(3) = 2 + 4.
        let two = LeafBound::new(2, 10, 2);
        assert_eq!((two.bound(2, 2), two.bound(2, 3), two.bound(2, 4)), (2, 4, 6));
        assert_eq!(two.split(2, 2, 5), 6);
    }
}
