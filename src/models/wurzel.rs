//! The Wurzel model (thesis Def. 4.8, §4.5): a query on C splits off groups
//! q_1..q_{a−1} from one free remaining group at cost K = Σ_{i<a} (1 + |q_i|),
//! which must not exceed L(C) = ⌈√|C|⌉ (the ceiling is forced by Table 4.15:
//! with ⌊√|C|⌋ no query exists on |C| = 2; ../shared/reference/seed002-ch4.md §1.7).
//!
//! - Perfect play: the cost is additive over the split-off groups, so the best
//!   multiset of groups with element sum S and k groups (S + k ≤ L) is a knapsack
//!   table G[S][k], built once row by row as L grows; then
//!   T(n) = n + min_S (min_{k ≤ L−S} G[S][k] + T(n − S)).
//! - H_α strategies through the size-model core. For fixed S, the most even split
//!   of S into as many groups as the budget allows, k = min(S, L − S), is the unique
//!   H_α-optimal choice for 0 < α < ∞ (splitting a group strictly improves
//!   Σ c^α, Σ c log c; evening out strictly improves them), so one candidate per S
//!   suffices and MIX over ties between different S is exact.

use super::{SizeModel, Split};
use crate::renyi::alpha::Alpha;

/// L(n) = ⌈√n⌉.
pub fn budget(n: u64) -> u64 {
    let r = n.isqrt();
    if r * r == n { r } else { r + 1 }
}

/// The Wurzel model with budget ⌈√|C|⌉.
pub struct Wurzel;

impl SizeModel for Wurzel {
    fn name(&self) -> String {
        "Wurzel model (L = ⌈√|C|⌉)".to_string()
    }

    fn candidates(&self, n: u64, out: &mut Vec<Split>) {
        let l = budget(n);
        out.clear();
        out.extend((1..=(l - 1).min(n - 1)).map(|s| Split::balanced(s, s.min(l - s)).with_class(n - s)));
    }

    fn mix_exact(&self, alpha: Alpha) -> bool {
        alpha != Alpha::Infinity && alpha != Alpha::integer(0)
    }
}

/// Knapsack over the split-off groups: `best[S][b]` = least Σ T(group) over
/// multisets of at most b groups with element sum S (u64::MAX if none).
struct GroupTable {
    /// g[S][k]: exactly k groups with sum S.
    exact: Vec<Vec<u64>>,
    /// prefix minima of `exact[S]` over k.
    best: Vec<Vec<u64>>,
}

impl GroupTable {
    fn new() -> GroupTable {
        GroupTable { exact: vec![vec![0]], best: vec![vec![0]] }
    }

    /// Adds row S = exact.len() (needs T(1..=S)).
    fn add_row(&mut self, t: &[u64]) {
        let s = self.exact.len();
        let mut row = vec![u64::MAX; s + 1];
        for (k, slot) in row.iter_mut().enumerate().skip(1) {
            *slot = (1..=s + 1 - k)
                .filter_map(|p| {
                    let rest = *self.exact[s - p].get(k - 1)?;
                    (rest != u64::MAX).then(|| rest + t[p])
                })
                .min()
                .unwrap_or(u64::MAX);
        }
        let mut prefix = row.clone();
        for k in 1..prefix.len() {
            prefix[k] = prefix[k].min(prefix[k - 1]);
        }
        self.exact.push(row);
        self.best.push(prefix);
    }
}

/// Perfect totals T*(n) = n·E*(n) for n = 0..=upto (T*(0) = T*(1) = 0).
pub fn perfect_totals(upto: u64) -> Vec<u64> {
    let mut t = vec![0u64; (upto + 1).max(2) as usize];
    let mut groups = GroupTable::new();
    for n in 2..=upto {
        let l = budget(n);
        while (groups.exact.len() as u64) < l {
            groups.add_row(&t);
        }
        let best = (1..=(l - 1).min(n - 1))
            .map(|s| {
                let small = groups.best[s as usize][(l - s).min(s) as usize];
                small.saturating_add(t[(n - s) as usize])
            })
            .min()
            .expect("every n ≥ 2 has a query");
        t[n as usize] = n + best;
    }
    t
}

/// Totals of the binary strategy of the proof of Satz 4.10: always split off
/// one group of ⌈√n⌉ − 1 elements (thesis Remark 1 after Table 4.15).
pub fn binary_strategy_totals(upto: u64) -> Vec<u64> {
    let mut t = vec![0u64; (upto + 1).max(2) as usize];
    for n in 2..=upto {
        let x = budget(n) - 1;
        t[n as usize] = n + t[x as usize] + t[(n - x) as usize];
    }
    t
}
