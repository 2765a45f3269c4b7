//! Neutral games with constant sum (seed003 C1_H / Satz C1H): on an acyclic
//! graph with payoffs v at the terminals, the win function is the unique
//! u with u = v on terminals and u(x) = c − min over moves u(y) elsewhere
//! (the Bellman equation with reward c and discount −1, C114).

use super::explicit::ExplicitGraph;

/// The win function u of every vertex, or `None` if the graph has a cycle.
/// `payoff(v)` is the mover's payoff at terminal v (sinks); `c` is the constant sum.
pub fn constant_sum_values<S>(graph: &ExplicitGraph<S>, payoff: impl Fn(usize) -> f64, c: f64) -> Option<Vec<f64>> {
    let mut u = vec![f64::NAN; graph.len()];
    for x in graph.successors_first_order()? {
        let succ = graph.successors(x);
        u[x] = if succ.is_empty() {
            payoff(x)
        } else {
            c - succ.iter().map(|&y| u[y as usize]).fold(f64::INFINITY, f64::min)
        };
    }
    Some(u)
}
