//! Memory estimates of the whole-game explorations, checked before they start
//! (issue 50, bad input "too large for memory (estimate first)"): the states
//! of the reachable game graph as a function of the order M, fitted to
//! measurements, times the heap bytes per state. Measured with the counting
//! allocator of `tests/bridg_it_memory_estimates.rs` (its ignored test
//! `measure_graph_growth` prints the figures; docs/bridg-it.md lists them).
//!
//! - Self-play ([`super::analysis::self_play`]): states ≈ 0.0392·M^5.21 (least
//!   squares of ln states on ln M over M = 6..12: 380, 1574, 1261, 4576, 4611,
//!   13 561, 15 389 states); heap per state ≈ 670 + 12.5·E bytes (E = M² +
//!   (M−1)² edges: a state's key holds the links of its network), fitted on the
//!   same runs. Estimate / counted peak 0.66–1.48 for M = 6..12 (odd orders
//!   have more tie branches than the fit, even ones fewer); the states of
//!   M = 13..20 (not fitted) lie within 0.74–1.33 of it.
//! - Agents' game graph ([`super::agents::short_win_probability`], the
//!   heuristic Cut against a temperature Short; Short's moves are all edges
//!   with ΔX > 0, whatever T): 38, 5432 and 3 831 913 states for M = 2, 3, 4,
//!   ln states interpolated by the quadratic in M through them (the growth
//!   factor rises: 143, then 705); heap per state ≈ 348 + 10.5·E bytes (415,
//!   460, 621 measured). A Cut that randomises too explores more: the figure
//!   is then a lower bound.

/// Edges of the Bridg-It graph of order M.
fn edges(order: usize) -> f64 {
    let m = order as f64;
    m * m + (m - 1.0) * (m - 1.0)
}

/// `x` bytes rounded up, `None` beyond 2^64.
fn bytes(x: f64) -> Option<u64> {
    (x.is_finite() && x < u64::MAX as f64).then(|| x.ceil() as u64)
}

/// Estimated heap bytes of Shannon-vs-Shannon self-play on the Bridg-It graph of order M.
pub fn self_play_bytes(order: usize) -> Option<u64> {
    let states = 0.0392 * (order as f64).powf(5.21);
    bytes(states * (670.0 + 12.5 * edges(order)))
}

/// Estimated heap bytes of the agents' game graph (heuristic Cut, temperature
/// Short) on the Bridg-It graph of order M.
pub fn agents_bytes(order: usize) -> Option<u64> {
    let (l2, l3, l4) = (38f64.ln(), 5432f64.ln(), 3_831_913f64.ln());
    let m = order as f64;
    let ln_states = l2 + (l3 - l2) * (m - 2.0) + ((l4 - l3) - (l3 - l2)) / 2.0 * (m - 2.0) * (m - 3.0);
    bytes(ln_states.exp() * (348.0 + 10.5 * edges(order)))
}

#[cfg(test)]
mod tests {
    use super::{agents_bytes, self_play_bytes};

    #[test]
    fn estimates_grow_and_saturate() {
        assert!((2..60).all(|m| self_play_bytes(m) < self_play_bytes(m + 1)));
        assert!((2..6).all(|m| agents_bytes(m) < agents_bytes(m + 1)));
        // The quadratic exponent passes 2^64 bytes soon after M = 5.
        assert_eq!(agents_bytes(40), None);
        assert!(agents_bytes(5).is_some_and(|b| b > 1 << 40));
    }
}
