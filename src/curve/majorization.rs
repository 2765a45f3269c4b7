//! Majorization of a node's partitions (multisets of class sizes of one set):
//! which partitions majorize no other one. Rényi entropy is strictly
//! Schur-concave for 0 < α < ∞, so a partition that majorizes another one is
//! below it on all of (0, ∞) ([`majorized_by`]); the envelope cuts the open
//! part of a domain among the others alone ([`super::envelope::envelope`]).

/// The partitions (ascending indices) that majorize no other one of `parts`:
/// every other one is below one of them on all of (0, ∞). Equal multisets do
/// not count as majorizing each other.
///
/// Speed (issue 53 item 4): Σ c² is strictly Schur-convex, so a partition
/// majorized by another, distinct one has the smaller Σ c². Taken in order of
/// Σ c², every partition majorized by b comes before b, and then so does one
/// of the minimal ones found so far (majorization is transitive): b is
/// compared with those alone, not with every partition.
pub(super) fn undominated(parts: &[Vec<u64>]) -> Vec<usize> {
    let descending: Vec<std::borrow::Cow<[u64]>> = parts.iter().map(|p| descending_sizes(p)).collect();
    let top = |i: usize| descending[i].first().copied().unwrap_or(0);
    let below = |a: usize, b: usize| {
        a != b && top(a) <= top(b) && majorized_by(&descending[a], &descending[b]) && descending[a] != descending[b]
    };
    let squares: Vec<u128> =
        descending.iter().map(|p| p.iter().map(|&c| u128::from(c) * u128::from(c)).sum()).collect();
    let mut order: Vec<usize> = (0..parts.len()).collect();
    order.sort_by_key(|&i| squares[i]);
    let mut minimal: Vec<usize> = Vec::new();
    for b in order {
        if !minimal.iter().any(|&a| below(a, b)) {
            minimal.push(b);
        }
    }
    minimal.sort_unstable();
    minimal
}

/// The class sizes largest first (borrowed if they are so already).
pub(super) fn descending_sizes(p: &[u64]) -> std::borrow::Cow<'_, [u64]> {
    if p.is_sorted_by(|a, b| a >= b) {
        std::borrow::Cow::Borrowed(p)
    } else {
        let mut d = p.to_vec();
        d.sort_unstable_by(|a, b| b.cmp(a));
        std::borrow::Cow::Owned(d)
    }
}

/// Whether `a` is majorized by `b` (class sizes sorted descending, the same
/// total): every prefix sum of `a` is at most that of `b`. Rényi entropy is
/// strictly Schur-concave for 0 < α < ∞ (Σ c^α is strictly Schur-convex for
/// α > 1 and strictly Schur-concave for α < 1, Shannon entropy strictly
/// Schur-concave), so distinct partitions with a ≺ b have H_α(a) > H_α(b) on
/// all of (0, ∞): they never cross there.
pub(super) fn majorized_by(a: &[u64], b: &[u64]) -> bool {
    let (mut sum_a, mut sum_b) = (0u64, 0u64);
    for i in 0..a.len().max(b.len()) {
        sum_a += a.get(i).copied().unwrap_or(0);
        sum_b += b.get(i).copied().unwrap_or(0);
        if sum_a > sum_b {
            return false;
        }
    }
    debug_assert_eq!(sum_a, sum_b, "partitions of one set");
    true
}

#[cfg(test)]
mod tests {
    use super::{majorized_by, undominated};

    /// The minimal partitions found in order of Σ c² are those that majorize
    /// no other one, compared pair by pair: every partition of 7 and of 9.
    #[test]
    fn undominated_matches_the_pairwise_comparison() {
        fn partitions(n: u64, most: u64) -> Vec<Vec<u64>> {
            if n == 0 {
                return vec![Vec::new()];
            }
            let mut out = Vec::new();
            for first in (1..=most.min(n)).rev() {
                for mut rest in partitions(n - first, first) {
                    rest.insert(0, first);
                    out.push(rest);
                }
            }
            out
        }
        let pairwise = |parts: &[Vec<u64>]| -> Vec<usize> {
            let below = |a: usize, b: usize| a != b && majorized_by(&parts[a], &parts[b]);
            (0..parts.len()).filter(|&b| !(0..parts.len()).any(|a| below(a, b))).collect()
        };
        for n in [7, 9] {
            let all: Vec<Vec<u64>> = partitions(n, n).into_iter().filter(|p| p.len() >= 2).collect();
            // Every window of consecutive partitions, and every third one, in both orders.
            let mut tried = 0;
            for len in [3, 5, 8, all.len()] {
                for start in 0..all.len().saturating_sub(len - 1) {
                    let mut parts: Vec<Vec<u64>> = all[start..start + len].to_vec();
                    assert_eq!(undominated(&parts), pairwise(&parts), "{parts:?}");
                    parts.reverse();
                    assert_eq!(undominated(&parts), pairwise(&parts), "{parts:?}");
                    tried += 1;
                }
            }
            let thirds: Vec<Vec<u64>> = all.iter().step_by(3).cloned().collect();
            assert_eq!(undominated(&thirds), pairwise(&thirds));
            assert!(tried > 20 && pairwise(&all).len() == 1);
        }
    }

    #[test]
    fn majorization_orders_spread() {
        // {2,2,2} ≺ {3,2,1} ≺ {4,1,1}; {4,1,1} and {3,3} are incomparable.
        assert!(majorized_by(&[2, 2, 2], &[3, 2, 1]));
        assert!(majorized_by(&[3, 2, 1], &[4, 1, 1]));
        assert!(!majorized_by(&[3, 2, 1], &[2, 2, 2]));
        assert!(!majorized_by(&[4, 1, 1], &[3, 3]));
        assert!(!majorized_by(&[3, 3], &[4, 1, 1]));
    }
}
