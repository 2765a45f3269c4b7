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
//!
//! The tables grow on demand (doubling, up to the game's code count), so the
//! small sets deep in a tree never pay for the root's size; and g_j(m) takes
//! its first part x as the smallest, x ≤ m/j (every composition of m into j
//! parts has one such ordering, and every term is a composition), which is
//! exact and cuts the work by about (s − 1)/(H_s − 1) for s classes.

use std::sync::RwLock;

/// f_s and g_j tables per s, grown as larger sets are asked for.
pub struct LeafBound {
    delta: u64,
    n: usize,
    /// `tables[s][j][m]` = g_j(m) for that s (j = 1: f_s itself; j = 0: none,
    /// u64::MAX), for m below the rows' common length.
    tables: Vec<RwLock<Vec<Vec<u64>>>>,
}

impl LeafBound {
    /// The bound for sets of up to `n` codes, with δ and at most `max_s` classes per query.
    pub fn new(delta: u64, n: usize, max_s: usize) -> Self {
        LeafBound { delta, n, tables: (0..=max_s).map(|_| RwLock::new(Vec::new())).collect() }
    }

    /// g_`j`(`m`) under `s` (s clamped to 1..=max_s; 0 for j > s, as no query makes that many classes).
    fn value(&self, s: u64, j: u64, m: u64) -> u64 {
        let s = (s as usize).clamp(1, self.tables.len() - 1);
        let (j, m) = (j as usize, m as usize);
        if j > s {
            return 0;
        }
        {
            let rows = self.tables[s].read().unwrap_or_else(|e| e.into_inner());
            if rows.first().is_some_and(|row| m < row.len()) {
                return rows[j][m];
            }
        }
        let mut rows = self.tables[s].write().unwrap_or_else(|e| e.into_inner());
        let have = rows.first().map_or(0, Vec::len);
        if m >= have {
            let want = (2 * have).min(self.n + 1).max(m + 1);
            self.grow(&mut rows, s, want);
        }
        rows[j][m]
    }

    /// Extends the rows of `s` to length `want`.
    fn grow(&self, g: &mut Vec<Vec<u64>>, s: usize, want: usize) {
        if g.is_empty() {
            *g = vec![Vec::with_capacity(want); s + 1];
        }
        for m in g[0].len()..want {
            g[0].push(u64::MAX);
            if m == 0 {
                g[1].push(0);
                g.iter_mut().skip(2).for_each(|row| row.push(u64::MAX));
                continue;
            }
            for j in 2..=s {
                let v = if j > m {
                    u64::MAX
                } else {
                    let (first, rest) = (&g[1], &g[j - 1]);
                    (1..=m / j).map(|x| first[x].saturating_add(rest[m - x])).min().unwrap_or(u64::MAX)
                };
                g[j].push(v);
            }
            let split = (2..=s.min(m)).map(|j| g[j][m]).min().map_or(u64::MAX, |v| v.saturating_add(m as u64));
            g[1].push(((m as u64 - 1) * self.delta).min(split));
        }
    }

    /// f_s(m): the least cost of m codes when no query makes more than s classes.
    pub fn bound(&self, s: u64, m: u64) -> u64 {
        self.value(s, 1, m)
    }

    /// g_k(m) under s: the least Σ f_s over k classes of m codes in all.
    pub fn split(&self, s: u64, k: u64, m: u64) -> u64 {
        self.value(s, k, m)
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

    /// The recursion as written (every first part x, whole tables at once).
    fn naive(delta: u64, n: usize, s: usize) -> Vec<Vec<u64>> {
        let mut g = vec![vec![u64::MAX; n + 1]; s + 1];
        g[1][0] = 0;
        for m in 1..=n {
            for j in 2..=s.min(m) {
                g[j][m] = (1..=m - (j - 1)).map(|x| g[1][x].saturating_add(g[j - 1][m - x])).min().unwrap();
            }
            let split = (2..=s.min(m)).map(|j| g[j][m]).min().map_or(u64::MAX, |v| v.saturating_add(m as u64));
            g[1][m] = ((m as u64 - 1) * delta).min(split);
        }
        g
    }

    /// Grown on demand, in any order of requests, with the smallest part
    /// first: every g_j(m) equals the naive recursion's.
    #[test]
    fn grown_tables_equal_the_naive_recursion() {
        let n = 240;
        for delta in [1, 2, 3, 7] {
            let leaf = LeafBound::new(delta, n, 9);
            for s in [2, 3, 5, 9] {
                let want = naive(delta, n, s);
                for m in [17, 3, 240, 0, 64, 1, 128, 239] {
                    assert_eq!(leaf.bound(s as u64, m), want[1][m as usize], "δ {delta} s {s} m {m}");
                }
                for (j, row) in want.iter().enumerate() {
                    for (m, &value) in row.iter().enumerate() {
                        assert_eq!(leaf.split(s as u64, j as u64, m as u64), value, "δ {delta} s {s} j {j} m {m}");
                    }
                }
                assert_eq!(leaf.split(s as u64, s as u64 + 1, 10), 0, "more classes than any query makes");
            }
        }
    }
}
