//! Pure combinatorial bounds used by the searches.

/// The total depth of the equal-weight `width`-ary Huffman tree with `m`
/// leaves: the least Σ depth over the leaves of a tree whose nodes have at
/// most `width` children (`width` ≥ 2). It is the perfect total of the free
/// search problem (thesis §4.5) and a lower bound for any game whose queries
/// have at most `width` answers and no solving answer.
pub fn huffman_total(width: u64, m: u64) -> u64 {
    if m <= 1 {
        return 0;
    }
    let (mut d, mut power) = (0u64, 1u64);
    while power.saturating_mul(width) <= m {
        power *= width;
        d += 1;
    }
    let extra = m - power;
    d * m + extra + extra.div_ceil(width - 1)
}

/// Lower bounds f_s(m), m = 0..=n, on the total of m codes in a game without
/// a solving answer whose terminal sets may hold several codes, when no
/// query makes more than `width` = s classes and stopping at any set of
/// k ≥ 2 codes costs at least (k − 1)·δ (`delta`,
/// [`SearchProblem::terminal_floor`](super::SearchProblem::terminal_floor)):
/// a strategy either stops (≥ (m − 1)·δ) or asks a query, which every code
/// pays, and goes on in 2..=s classes. By induction over the strategy tree
///
/// f(1) = 0, f(m) = min((m − 1)·δ, m + min over 2 ≤ j ≤ s of the least
/// Σ f(m_i) over j positive parts m_i of m).
///
/// Without the stopping option this is [`huffman_total`]; with it the bound
/// can be lower (s = 2, δ = 2: f(3) = 4 against 5), which is why the
/// Huffman total alone is not a sound bound for such games.
///
/// Cost: with e(m) = (m − 1)·δ − f(m) ≥ 0, a split into j parts costs
/// (m − 1)·δ + m − (j − 1)·δ − Σ e(m_i). If every x ≤ M has e(x) ≤ E and
/// M ≥ (s − 1)·δ + s·E, then by induction e(m) = 0, i.e. f(m) = (m − 1)·δ,
/// for every m > M. The dynamic programme (O(s·M²)) therefore runs only
/// until that M is reached (s = 32, δ = 2: E = 30, M = 1022) or to n.
pub fn grouped_huffman_totals(width: u64, delta: u64, n: u64) -> Vec<u64> {
    let s = width.max(2) as usize;
    let mut limit = n.min(4 * s as u64);
    loop {
        let f = grouped_totals_upto(s, delta, limit as usize);
        let most_saved = (1..f.len()).map(|m| (m as u64 - 1) * delta - f[m]).max().unwrap_or(0);
        let needed = (s as u64 - 1) * delta + s as u64 * most_saved;
        if needed <= limit || limit == n {
            let mut all = f;
            all.extend((limit + 1..=n).map(|m| (m - 1) * delta));
            return all;
        }
        limit = n.min(needed.max(2 * limit));
    }
}

/// f(m) for m = 0..=upto by the recursion of [`grouped_huffman_totals`].
fn grouped_totals_upto(s: usize, delta: u64, upto: usize) -> Vec<u64> {
    // parts[j][m]: the least Σ f over j positive parts of m (parts[1] = f).
    let mut parts = vec![vec![u64::MAX; upto + 1]; s + 1];
    parts[1][0] = 0;
    for m in 1..=upto {
        let mut split = u64::MAX;
        for j in 2..=s.min(m) {
            let (before, here) = parts.split_at_mut(j);
            let (f, fewer) = (&before[1], &before[j - 1]);
            let least = (1..=m - (j - 1)).map(|x| f[x].saturating_add(fewer[m - x])).min().unwrap_or(u64::MAX);
            here[0][m] = least;
            split = split.min(least);
        }
        parts[1][m] = ((m as u64 - 1) * delta).min(split.saturating_add(m as u64));
    }
    parts.swap_remove(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The recursion memoised top-down over (parts, codes), for s, δ fixed.
    fn by_recursion(s: u64, delta: u64, j: u64, m: u64, memo: &mut std::collections::HashMap<(u64, u64), u64>) -> u64 {
        if j == 1 && m <= 1 {
            return 0;
        }
        if let Some(&v) = memo.get(&(j, m)) {
            return v;
        }
        let v = if j == 1 {
            let split = (2..=s.min(m)).map(|k| by_recursion(s, delta, k, m, memo)).min().unwrap_or(u64::MAX);
            ((m - 1) * delta).min(split.saturating_add(m))
        } else {
            (1..=m.saturating_sub(j - 1))
                .map(|x| by_recursion(s, delta, 1, x, memo).saturating_add(by_recursion(s, delta, j - 1, m - x, memo)))
                .min()
                .unwrap_or(u64::MAX)
        };
        memo.insert((j, m), v);
        v
    }

    #[test]
    fn grouped_totals_follow_the_recursion_and_the_threshold() {
        for s in [2, 3, 4, 5, 8] {
            for delta in [0, 1, 2, 3, 5] {
                let mut memo = std::collections::HashMap::new();
                let f = grouped_huffman_totals(s, delta, 60);
                for m in 0..=60 {
                    assert_eq!(f[m as usize], by_recursion(s, delta, 1, m, &mut memo), "s {s} δ {delta} m {m}");
                }
            }
        }
        // The stopping option undercuts Huffman: three codes, binary queries, δ = 2.
        assert_eq!((grouped_huffman_totals(2, 2, 3)[3], huffman_total(2, 3)), (4, 5));
        // Dear stops: the Huffman total.
        let dear = grouped_huffman_totals(6, 1000, 200);
        assert!((0..=200).all(|m| dear[m as usize] == huffman_total(6, m)));
        // Beyond the threshold the whole table is (m − 1)·δ, also when the
        // programme stopped early (s = 32: M = 1022 < 5000).
        let wide = grouped_huffman_totals(32, 2, 5000);
        let full = grouped_totals_upto(32, 2, 1400);
        assert_eq!(&wide[..=1400], &full[..]);
        assert_eq!(wide[5000], 4999 * 2);
        assert_eq!(wide[32], 32);
    }
}
