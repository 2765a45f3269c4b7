//! Pure Monte-Carlo agents on an acyclic game graph: MC(N), MC(∞) and the
//! uniform random player, and their duels (thesis §2.3–2.4: MC(k) against
//! MC(2k), "Hinspiel" with MC(k) moving first, "Rückspiel" with MC(2k) first,
//! win rates from MC(k)'s side, mean of the two).
//!
//! [`McSolver`] computes the layers and the random-play values once, so a scan
//! over k reuses them. `f64` duels use [`McFloat`] (error bound there); exact
//! duels ([`McSolver::duel_exact`]) use [`select_exact`] / [`select_infinity`]
//! in any exact [`Scalar`].

use super::explicit::ExplicitGraph;
use super::mc_select::{McFloat, Window, select_exact, select_infinity};
use super::scalar::Scalar;
use super::stochastic::{PairValues, evaluate_pair, layers, random_values};
use crate::error::{Result, invalid};
use num_rational::BigRational;
use rayon::prelude::*;
use serde::Serialize;
use std::fmt;
use std::str::FromStr;

/// A player of the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Agent {
    /// Uniformly random over the candidate moves.
    Random,
    /// MC(N): N play-outs per candidate, most wins, ties uniform (Def. 1.1).
    Mc(u32),
    /// MC(∞): largest random-play win probability, ties uniform (Def. 1.2).
    Infinity,
}

impl Agent {
    /// MC(2N) for MC(N) (the thesis' opponent with doubled resources); MC(∞) stays.
    pub fn doubled(self) -> Result<Agent> {
        match self {
            Agent::Mc(n) => n.checked_mul(2).map(Agent::Mc).ok_or_else(|| invalid("k too large to double")),
            other => Ok(other),
        }
    }
}

impl fmt::Display for Agent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Agent::Random => write!(f, "random"),
            Agent::Mc(n) => write!(f, "MC({n})"),
            Agent::Infinity => write!(f, "MC(∞)"),
        }
    }
}

impl FromStr for Agent {
    type Err = crate::error::Error;
    /// `3` (MC(3)), `inf` / `∞` (MC(∞)), `random`.
    fn from_str(s: &str) -> Result<Agent> {
        match s.trim() {
            "inf" | "∞" | "infinity" => Ok(Agent::Infinity),
            "random" => Ok(Agent::Random),
            t => match t.parse::<i64>() {
                Ok(k) if k >= 1 && k <= u32::MAX as i64 => Ok(Agent::Mc(k as u32)),
                Ok(k) => Err(invalid(format!("k = {k}: MC(k) needs k ≥ 1 play-outs per candidate"))),
                Err(_) => Err(invalid(format!("cannot read the agent {t:?}; write a number k ≥ 1, inf or random"))),
            },
        }
    }
}

/// One duel's result, from seat 0's side (the weaker agent MC(k) in the thesis).
#[derive(Clone, Debug, Serialize)]
pub struct Duel<T> {
    /// Seat 0 moves first ("Hinspiel").
    pub first: T,
    /// Seat 1 moves first ("Rückspiel").
    pub second: T,
}

impl<T: Scalar> Duel<T> {
    /// The mean of both (each agent starts once; thesis footnote l. 415).
    pub fn mean(&self) -> T {
        (self.first.clone() + self.second.clone()) / T::ratio(2, 1)
    }
}

/// A graph prepared for duels: layers and random-play values (type `T`).
pub struct McSolver<'g, S, T> {
    graph: &'g ExplicitGraph<S>,
    layers: Vec<Vec<usize>>,
    random: Vec<Option<T>>,
}

impl<'g, S: Sync, T: Scalar> McSolver<'g, S, T> {
    /// Orders the graph (error if it has a cycle) and computes R for random play.
    pub fn new(graph: &'g ExplicitGraph<S>) -> Result<Self> {
        let layers = layers(graph)?;
        let random = random_values(graph, &layers);
        Ok(McSolver { graph, layers, random })
    }

    /// R(v): the mover's win probability in a random game from v (`None` at terminals).
    pub fn random(&self, v: usize) -> Option<&T> {
        self.random[v].as_ref()
    }

    /// The graph.
    pub fn graph(&self) -> &ExplicitGraph<S> {
        self.graph
    }

    /// Candidate values p_i(v) = 1 − R(successor i).
    pub fn candidates(&self, v: usize) -> Vec<T> {
        super::stochastic::candidate_values(self.graph, &self.random, v)
    }

    /// Seat 0's values for every state, with exact selection in `T`.
    pub fn duel_values_exact(&self, a0: Agent, a1: Agent) -> PairValues<T> {
        let select = |agent: Agent| {
            move |_: usize, p: &[T]| match agent {
                Agent::Random => vec![T::ratio(1, p.len() as i64); p.len()],
                Agent::Infinity => select_infinity(p),
                Agent::Mc(n) => select_exact(n, p),
            }
        };
        evaluate_pair(self.graph, &self.layers, &self.random, select(a0), select(a1))
    }

    /// The duel from state `v`, exactly in `T`.
    pub fn duel_exact(&self, v: usize, a0: Agent, a1: Agent) -> Duel<T> {
        let values = self.duel_values_exact(a0, a1);
        Duel { first: values.first[v].clone().expect("start"), second: values.second[v].clone().expect("start") }
    }
}

/// The float selection rule of one agent: MC(N) with the states' windows
/// (`table`, or computed per call if empty), MC(∞) by the exact `choice`, random.
fn selector<'a, S: Sync>(
    graph: &'a ExplicitGraph<S>,
    agent: Agent,
    mc: Option<McFloat>,
    table: &'a [Window],
    choice: &'a [Vec<f64>],
) -> impl Fn(usize, &[f64]) -> Vec<f64> + Sync + 'a {
    move |v: usize, p: &[f64]| match (&mc, agent) {
        (Some(mc), _) if !table.is_empty() => {
            let refs: Vec<&Window> = graph.successors(v).iter().map(|&c| &table[c as usize]).collect();
            mc.select_with(p, &refs)
        }
        (Some(mc), _) => mc.select(p),
        (None, Agent::Infinity) => choice[v].clone(),
        _ => vec![1.0 / p.len() as f64; p.len()],
    }
}

impl<S: Sync> McSolver<'_, S, f64> {
    /// Seat 0's values in `f64`; MC(N) by the float path ([`McFloat`], N ≤ 10⁵);
    /// MC(∞) chooses by exact rational random-play values (exact ties).
    pub fn duel_values(&self, a0: Agent, a1: Agent) -> Result<PairValues<f64>> {
        let width = (0..self.graph.len()).map(|v| self.graph.successors(v).len()).max().unwrap_or(1);
        let make = |agent: Agent| -> Result<Option<McFloat>> {
            match agent {
                Agent::Mc(n) => Ok(Some(McFloat::new(n)?.with_capacity(width))),
                _ => Ok(None),
            }
        };
        let (m0, m1) = (make(a0)?, make(a1)?);
        // MC(∞) compares exact rational random-play values: ties stay ties.
        let exact_choice: Vec<Vec<f64>> = if a0 == Agent::Infinity || a1 == Agent::Infinity {
            let exact: McSolver<S, BigRational> = McSolver::new(self.graph)?;
            (0..self.graph.len())
                .map(|v| match self.graph.terminal(v) {
                    Some(_) => Vec::new(),
                    None => select_infinity(&exact.candidates(v)).iter().map(Scalar::to_f64).collect(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let choice = &exact_choice;
        let (w0, w1) = (self.windows(m0.as_ref()), self.windows(m1.as_ref()));
        let (s0, s1) = (selector(self.graph, a0, m0, &w0, choice), selector(self.graph, a1, m1, &w1, choice));
        Ok(evaluate_pair(self.graph, &self.layers, &self.random, s0, s1))
    }

    /// Each state's binomial window as a candidate (p = 1 − its value for its
    /// mover), computed once per duel instead of once per predecessor; empty
    /// if that would take more than about 1 GB.
    fn windows(&self, mc: Option<&McFloat>) -> Vec<Window> {
        let Some(mc) = mc else { return Vec::new() };
        let n = mc.n() as f64;
        let width = (20.0 * n.sqrt() + 10.0).min(n + 1.0);
        if self.graph.len() as f64 * width * 16.0 > 1e9 {
            return Vec::new();
        }
        (0..self.graph.len())
            .into_par_iter()
            .map(|c| {
                let after = match self.graph.terminal(c) {
                    Some(o) => match o {
                        super::value::WinLossDraw::Win(_) => 1.0,
                        super::value::WinLossDraw::Loss(_) => 0.0,
                        super::value::WinLossDraw::Draw => 0.5,
                    },
                    None => self.random[c].expect("value"),
                };
                mc.window(1.0 - after)
            })
            .collect()
    }

    /// The duel from state `v` in `f64`.
    pub fn duel(&self, v: usize, a0: Agent, a1: Agent) -> Result<Duel<f64>> {
        let values = self.duel_values(a0, a1)?;
        Ok(Duel { first: values.first[v].expect("start"), second: values.second[v].expect("start") })
    }
}

/// A winning state where MC(∞) proposes a losing move (thesis Table 2.14 n*).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InfinityError {
    pub state: usize,
    /// Every move MC(∞) may choose loses (else a tie with a winning move: an error with probability < 1).
    pub strict: bool,
}

impl<S: Sync + Clone + Eq + std::hash::Hash, T: Scalar> McSolver<'_, S, T> {
    /// All winning states (by retrograde analysis) where MC(∞), comparing the
    /// random-play values in `T`, may move into a state won by the opponent.
    /// Exact ties need an exact `T`.
    pub fn infinity_errors(&self) -> Vec<InfinityError> {
        let solution = self.graph.solve();
        let loses = |c: usize| self.graph.terminal(c).is_none() && solution.get(c).is_some_and(|o| o.is_win());
        (0..self.graph.len())
            .filter(|&v| self.graph.terminal(v).is_none() && solution.get(v).is_some_and(|o| o.is_win()))
            .filter_map(|v| {
                let chosen = select_infinity(&self.candidates(v));
                let picks: Vec<usize> = self
                    .graph
                    .successors(v)
                    .iter()
                    .zip(&chosen)
                    .filter(|(_, f)| **f > T::zero())
                    .map(|(&c, _)| c as usize)
                    .collect();
                let bad = picks.iter().filter(|&&c| loses(c)).count();
                (bad > 0).then_some(InfinityError { state: v, strict: bad == picks.len() })
            })
            .collect()
    }
}
