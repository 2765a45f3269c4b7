//! Values of stochastic policies on acyclic game graphs (thesis §2.4.2,
//! §2.4.4): exact backward induction in topological order instead of
//! simulation.
//!
//! The graph is an [`ExplicitGraph`] whose states are seen from the player to
//! move (both players have the same moves, as in all games of thesis ch. 2);
//! repeated successors are parallel moves and count as separate candidates
//! (the per-lane convention of ESR, reference note §0 item 1). A move into a
//! terminal state scores for the mover 1 − s(t), where s(t) is the terminal's
//! score for its own mover: `Loss` 0, `Win` 1, `Draw` ½.
//!
//! Invariants on return (checked by the tests against simulation and against
//! closed forms):
//! - [`play_values`]: R(v) = Σ_i π_i(v)·(1 − R(c_i)), the mover's expected score
//!   when both sides play the fixed policy π (uniform: random games, §2.4.2);
//! - [`candidate_values`]: p_i(v) = 1 − R(c_i), candidate i's single play-out
//!   win probability, which MC agents compare;
//! - [`evaluate_pair`]: V₀(v), V₁(v) = expected score of *seat 0* when seat 0
//!   resp. seat 1 is to move at v and seat s chooses by its selection rule σ_s:
//!   V₀(v) = Σ σ₀(v)_i·W₁(c_i), V₁(v) = Σ σ₁(v)_i·W₀(c_i), with W the V of the
//!   successor or, at a terminal, seat 0's score (thesis B.3: x(1,·), x(2,·)).

use super::explicit::ExplicitGraph;
use super::scalar::Scalar;
use super::value::WinLossDraw;
use crate::error::{Result, invalid};
use rayon::prelude::*;

/// The graph's non-terminal states grouped by height (longest path to a
/// terminal): every successor of a state lies in an earlier group.
pub fn layers<S>(graph: &ExplicitGraph<S>) -> Result<Vec<Vec<usize>>> {
    let order = graph
        .successors_first_order()
        .ok_or_else(|| invalid("the game graph has a cycle; stochastic policies are evaluated on acyclic graphs"))?;
    let mut height = vec![0usize; graph.len()];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for v in order {
        if graph.terminal(v).is_some() {
            continue;
        }
        let h = 1 + graph.successors(v).iter().map(|&c| height[c as usize]).max().unwrap_or(0);
        height[v] = h;
        if out.len() < h {
            out.resize_with(h, Vec::new);
        }
        out[h - 1].push(v);
    }
    Ok(out)
}

/// The score of a terminal outcome for its mover.
fn score<T: Scalar>(o: WinLossDraw) -> T {
    match o {
        WinLossDraw::Win(_) => T::one(),
        WinLossDraw::Loss(_) => T::zero(),
        WinLossDraw::Draw => T::ratio(1, 2),
    }
}

/// Computes `value(v)` for every non-terminal v, layer by layer (in parallel
/// within a layer), reading only values of earlier layers.
fn induct<S: Sync, T: Scalar>(
    graph: &ExplicitGraph<S>,
    layers: &[Vec<usize>],
    fill: impl Fn(usize, &[Option<T>]) -> T + Sync,
) -> Vec<Option<T>> {
    let mut values: Vec<Option<T>> = vec![None; graph.len()];
    for layer in layers {
        let computed: Vec<T> = layer.par_iter().map(|&v| fill(v, &values)).collect();
        for (&v, x) in layer.iter().zip(computed) {
            values[v] = Some(x);
        }
    }
    values
}

/// R(v) for the mover under the policy `weights(v)` (probabilities of the
/// moves of v, in successor order) played by both sides; `None` at terminals.
pub fn play_values<S: Sync, T: Scalar>(
    graph: &ExplicitGraph<S>,
    layers: &[Vec<usize>],
    weights: impl Fn(usize) -> Vec<T> + Sync,
) -> Vec<Option<T>> {
    induct(graph, layers, |v, values| {
        let w = weights(v);
        graph.successors(v).iter().zip(w).fold(T::zero(), |acc, (&c, wi)| {
            let after = match graph.terminal(c as usize) {
                Some(o) => score::<T>(o),
                None => values[c as usize].clone().expect("earlier layer"),
            };
            acc + wi * (T::one() - after)
        })
    })
}

/// Uniform random play (thesis "Zufallspartie"): every move of v equally likely.
pub fn random_values<S: Sync, T: Scalar>(graph: &ExplicitGraph<S>, layers: &[Vec<usize>]) -> Vec<Option<T>> {
    play_values(graph, layers, |v| {
        let d = graph.successors(v).len() as i64;
        vec![T::ratio(1, d); d as usize]
    })
}

/// p_i(v) = 1 − R(c_i): the mover's win probability of one play-out after move i.
pub fn candidate_values<S, T: Scalar>(graph: &ExplicitGraph<S>, random: &[Option<T>], v: usize) -> Vec<T> {
    graph
        .successors(v)
        .iter()
        .map(|&c| {
            T::one()
                - match graph.terminal(c as usize) {
                    Some(o) => score::<T>(o),
                    None => random[c as usize].clone().expect("value of a non-terminal"),
                }
        })
        .collect()
}

/// Seat 0's expected score with seat 0 (`first`) resp. seat 1 (`second`) to move.
#[derive(Clone, Debug)]
pub struct PairValues<T> {
    pub first: Vec<Option<T>>,
    pub second: Vec<Option<T>>,
}

/// Evaluates the policy pair (σ₀, σ₁): `select_s(v, p)` gives the move
/// probabilities of seat s at v from the candidate values p = [`candidate_values`].
pub fn evaluate_pair<S: Sync, T: Scalar>(
    graph: &ExplicitGraph<S>,
    layers: &[Vec<usize>],
    random: &[Option<T>],
    select0: impl Fn(usize, &[T]) -> Vec<T> + Sync,
    select1: impl Fn(usize, &[T]) -> Vec<T> + Sync,
) -> PairValues<T> {
    let mut first: Vec<Option<T>> = vec![None; graph.len()];
    let mut second: Vec<Option<T>> = vec![None; graph.len()];
    for layer in layers {
        let computed: Vec<(T, T)> = layer
            .par_iter()
            .map(|&v| {
                let p = candidate_values(graph, random, v);
                let (s0, s1) = (select0(v, &p), select1(v, &p));
                let mut a = T::zero();
                let mut b = T::zero();
                for ((&c, x0), x1) in graph.successors(v).iter().zip(s0).zip(s1) {
                    let c = c as usize;
                    let (w1, w0) = match graph.terminal(c) {
                        // Seat 0 moved into c: seat 0's score is 1 − s(c); seat 1 moved: s(c).
                        Some(o) => (T::one() - score::<T>(o), score::<T>(o)),
                        None => (second[c].clone().expect("earlier"), first[c].clone().expect("earlier")),
                    };
                    a = a + x0 * w1;
                    b = b + x1 * w0;
                }
                (a, b)
            })
            .collect();
        for (&v, (a, b)) in layer.iter().zip(computed) {
            first[v] = Some(a);
            second[v] = Some(b);
        }
    }
    PairValues { first, second }
}
