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
use std::sync::OnceLock;

/// A player of the duel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
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
    /// Successor offsets for [`Selection`]s (`f64` solvers).
    offsets: OnceLock<Vec<usize>>,
    /// MC(∞)'s exact choices, flat like a [`Selection`] (`f64` solvers).
    infinity: OnceLock<Vec<f64>>,
}

impl<'g, S: Sync, T: Scalar> McSolver<'g, S, T> {
    /// Orders the graph (error if it has a cycle) and computes R for random play.
    pub fn new(graph: &'g ExplicitGraph<S>) -> Result<Self> {
        let layers = layers(graph)?;
        let random = random_values(graph, &layers);
        Ok(McSolver { graph, layers, random, offsets: OnceLock::new(), infinity: OnceLock::new() })
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

/// One agent's move probabilities at every state, flat in successor order
/// (the states' successor lists concatenated): computed once per agent and
/// shared by every duel it plays (a scan's MC(2k) is the next MC(k)).
#[derive(Clone, Debug)]
pub struct Selection {
    pub agent: Agent,
    probs: Vec<f64>,
}

impl<S: Sync> McSolver<'_, S, f64> {
    /// Start of each state's successors in a [`Selection`] (length = states + 1).
    fn offsets(&self) -> &[usize] {
        self.offsets.get_or_init(|| {
            let mut off = Vec::with_capacity(self.graph.len() + 1);
            off.push(0);
            for v in 0..self.graph.len() {
                off.push(off[v] + self.graph.successors(v).len());
            }
            off
        })
    }

    /// MC(∞)'s choice at every state, from exact rational random-play values
    /// (exact ties), computed once per solver.
    fn infinity_choice(&self) -> Result<&[f64]> {
        if let Some(c) = self.infinity.get() {
            return Ok(c);
        }
        let exact: McSolver<S, BigRational> = McSolver::new(self.graph)?;
        let choice: Vec<f64> = (0..self.graph.len())
            .flat_map(|v| match self.graph.terminal(v) {
                Some(_) => Vec::new(),
                None => select_infinity(&exact.candidates(v)).iter().map(Scalar::to_f64).collect(),
            })
            .collect();
        Ok(self.infinity.get_or_init(|| choice))
    }

    /// The agent's move probabilities at every state: MC(N) by the float path
    /// ([`McFloat`], N ≤ 10⁵), MC(∞) by exact rational comparisons, random uniform.
    pub fn selection(&self, agent: Agent) -> Result<Selection> {
        let off = self.offsets();
        let probs = match agent {
            Agent::Infinity => self.infinity_choice()?.to_vec(),
            Agent::Random => (0..self.graph.len())
                .flat_map(|v| vec![1.0 / (off[v + 1] - off[v]) as f64; off[v + 1] - off[v]])
                .collect(),
            Agent::Mc(n) => {
                let width = (0..self.graph.len()).map(|v| off[v + 1] - off[v]).max().unwrap_or(1);
                let mc = McFloat::new(n)?.with_capacity(width);
                let windows = self.windows(&mc);
                let per_state: Vec<Vec<f64>> = (0..self.graph.len())
                    .into_par_iter()
                    .map(|v| {
                        if self.graph.terminal(v).is_some() {
                            return Vec::new();
                        }
                        let p = self.candidates(v);
                        if windows.is_empty() {
                            mc.select(&p)
                        } else {
                            let refs: Vec<&Window> =
                                self.graph.successors(v).iter().map(|&c| &windows[c as usize]).collect();
                            mc.select_with(&p, &refs)
                        }
                    })
                    .collect();
                per_state.concat()
            }
        };
        Ok(Selection { agent, probs })
    }

    /// Seat 0's values for every state with the two agents' selections.
    pub fn values_with(&self, s0: &Selection, s1: &Selection) -> PairValues<f64> {
        let off = self.offsets();
        let (p0, p1) = (&s0.probs, &s1.probs);
        let pick0 = |v: usize, _: &[f64]| p0[off[v]..off[v + 1]].to_vec();
        let pick1 = |v: usize, _: &[f64]| p1[off[v]..off[v + 1]].to_vec();
        evaluate_pair(self.graph, &self.layers, &self.random, pick0, pick1)
    }

    /// Seat 0's values in `f64`; MC(N) by the float path ([`McFloat`], N ≤ 10⁵);
    /// MC(∞) chooses by exact rational random-play values (exact ties).
    pub fn duel_values(&self, a0: Agent, a1: Agent) -> Result<PairValues<f64>> {
        let s0 = self.selection(a0)?;
        let s1 = if a1 == a0 { s0.clone() } else { self.selection(a1)? };
        Ok(self.values_with(&s0, &s1))
    }

    /// Each state's binomial window as a candidate (p = 1 − its value for its
    /// mover), computed once per agent instead of once per predecessor; empty
    /// if that would take more than about 1 GB.
    fn windows(&self, mc: &McFloat) -> Vec<Window> {
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

    /// `read(values)` for every duel of `pairs`, in order. Each agent's
    /// [`Selection`] is computed once along chains of pairs where one pair's
    /// opponent is the next pair's agent (MC(k)→MC(2k)→MC(4k) in a k scan);
    /// chains run in parallel.
    pub fn scan<R: Send>(
        &self,
        pairs: &[(Agent, Agent)],
        read: impl Fn(&PairValues<f64>) -> R + Sync,
    ) -> Result<Vec<R>> {
        let chains = chains(pairs);
        let done: Vec<Vec<(usize, R)>> = chains
            .par_iter()
            .map(|chain| {
                let mut out = Vec::with_capacity(chain.len());
                let mut carry: Option<Selection> = None;
                for &i in chain {
                    let (a0, a1) = pairs[i];
                    let s0 = match carry.take() {
                        Some(s) if s.agent == a0 => s,
                        _ => self.selection(a0)?,
                    };
                    let s1 = if a1 == a0 { s0.clone() } else { self.selection(a1)? };
                    out.push((i, read(&self.values_with(&s0, &s1))));
                    carry = Some(s1);
                }
                Ok(out)
            })
            .collect::<Result<_>>()?;
        let mut slots: Vec<Option<R>> = (0..pairs.len()).map(|_| None).collect();
        for (i, r) in done.into_iter().flatten() {
            slots[i] = Some(r);
        }
        Ok(slots.into_iter().map(|r| r.expect("every pair is in one chain")).collect())
    }

    /// The duels from state `v` for every pair (see [`Self::scan`]).
    pub fn duels(&self, v: usize, pairs: &[(Agent, Agent)]) -> Result<Vec<Duel<f64>>> {
        self.scan(pairs, |x| Duel { first: x.first[v].expect("start"), second: x.second[v].expect("start") })
    }
}

/// The pairs' indices cut into chains: within a chain each pair's opponent is
/// the next pair's agent (so its selection can be reused); every index once.
pub fn chains(pairs: &[(Agent, Agent)]) -> Vec<Vec<usize>> {
    use std::collections::HashMap;
    let mut by_agent: HashMap<Agent, Vec<usize>> = HashMap::new();
    for (i, p) in pairs.iter().enumerate().rev() {
        by_agent.entry(p.0).or_default().push(i);
    }
    // next[i]: the first not yet claimed pair whose agent is i's opponent.
    let mut next = vec![None; pairs.len()];
    let mut claimed = vec![false; pairs.len()];
    for (i, p) in pairs.iter().enumerate() {
        if let Some(list) = by_agent.get_mut(&p.1)
            && let Some(pos) = list.iter().rposition(|&j| j != i && !claimed[j])
        {
            let j = list.remove(pos);
            claimed[j] = true;
            next[i] = Some(j);
        }
    }
    let mut seen = vec![false; pairs.len()];
    let mut out = Vec::new();
    // Heads first (unclaimed pairs), then whatever is left on cycles.
    let heads = (0..pairs.len()).filter(|&i| !claimed[i]).chain(0..pairs.len());
    for head in heads {
        let mut chain = Vec::new();
        let mut cur = Some(head);
        while let Some(i) = cur.filter(|&i| !seen[i]) {
            seen[i] = true;
            chain.push(i);
            cur = next[i];
        }
        if !chain.is_empty() {
            out.push(chain);
        }
    }
    out
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
