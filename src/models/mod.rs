//! Search models in which only the *sizes* of the answer classes matter (thesis
//! §4.2.3 free search problems, §4.5 the Wurzel model). A set is characterised
//! by its size n, a query by the multiset of its class sizes, so every strategy
//! is a recursion over n instead of a walk over explicit code sets.
//!
//! The H_α decision reuses the core's exact scoring ([`RenyiScore`]) and tie rules
//! ([`TieRule`]); the canonical (LEX) order of size queries is the increasing
//! lexicographic order of their class sizes sorted in decreasing order, so the
//! most even partition comes first.

pub mod free;
pub mod wurzel;

use crate::alpha::Alpha;
use crate::entropy::renyi_of_runs;
use crate::error::{invalid, Result};
use crate::score::RenyiScore;
use crate::search::outcome::Exact;
use crate::search::{Strategy, TieBreak};
use num_bigint::BigInt;
use std::cmp::Ordering;

/// A partition of n given as runs (class size, number of classes), sizes distinct
/// and decreasing, counts positive.
pub type Split = Vec<(u64, u64)>;

/// The split of `total` into `parts` classes as even as possible:
/// `total % parts` classes of ⌈total/parts⌉, the rest ⌊total/parts⌋.
pub fn balanced(total: u64, parts: u64) -> Split {
    let (q, r) = (total / parts, total % parts);
    [(q + 1, r), (q, parts - r)].into_iter().filter(|&(s, c)| c > 0 && s > 0).collect()
}

/// Merges runs into canonical form (distinct sizes, decreasing).
pub fn normalize(mut runs: Split) -> Split {
    runs.retain(|&(s, c)| s > 0 && c > 0);
    runs.sort_unstable_by(|a, b| b.0.cmp(&a.0));
    let mut out: Split = Vec::with_capacity(runs.len());
    for (s, c) in runs {
        match out.last_mut() {
            Some(last) if last.0 == s => last.1 += c,
            _ => out.push((s, c)),
        }
    }
    out
}

/// The class sizes of a split, expanded, in decreasing order.
pub fn expand(split: &Split) -> Vec<u64> {
    split.iter().flat_map(|&(s, c)| std::iter::repeat_n(s, c as usize)).collect()
}

/// A model whose sets are characterised by their size.
pub trait SizeModel: Sync {
    fn name(&self) -> String;
    /// Candidate queries on a set of n ≥ 2 elements. Must contain, for every α,
    /// the canonically first H_α-optimal query; see [`Self::mix_exact`].
    fn candidates(&self, n: u64) -> Vec<Split>;
    /// Whether the candidates contain *every* H_α-optimal query, so that MIX
    /// (the mean over all tied queries) is exact.
    fn mix_exact(&self, alpha: Alpha) -> bool;
}

/// The queries the strategy plays on n elements: the exactly H_α-maximal
/// candidates, reduced to the canonically first for LEX.
pub fn chosen_splits(score: &RenyiScore, tie: TieBreak, candidates: Vec<Split>) -> Vec<Split> {
    let keyed: Vec<(f64, Split)> = candidates.into_iter().map(|s| (renyi_of_runs(score.alpha(), &s), s)).collect();
    let Some(top) = keyed.iter().map(|k| k.0).reduce(f64::max) else { return Vec::new() };
    let band: Vec<Vec<u64>> = keyed.into_iter().filter(|(k, _)| RenyiScore::near(*k, top)).map(|(_, s)| expand(&s)).collect();
    let mut best = band[0].clone();
    for sizes in &band[1..] {
        if score.compare(sizes, &best) == Ordering::Greater {
            best = sizes.clone();
        }
    }
    let mut ties: Vec<Vec<u64>> = band.into_iter().filter(|s| score.compare(s, &best) == Ordering::Equal).collect();
    ties.sort();
    ties.dedup();
    let runs = |v: Vec<u64>| normalize(v.into_iter().map(|s| (s, 1)).collect());
    match tie {
        TieBreak::Lex => ties.into_iter().take(1).map(runs).collect(),
        TieBreak::Mix => ties.into_iter().map(runs).collect(),
    }
}

/// Exact totals T(n) = n·E(n) of an H_α strategy for n = 0..=upto
/// (T(0) = T(1) = 0): T(n) = n + mean over the chosen queries of Σ T(class).
pub fn strategy_totals<M: SizeModel>(model: &M, strategy: Strategy, upto: u64) -> Result<Vec<Exact>> {
    let alpha = strategy.score.alpha();
    if strategy.tie.kind == TieBreak::Mix && !model.mix_exact(alpha) {
        return Err(invalid(format!(
            "MIX with α = {alpha} in the {} is not supported: its ties are not all among the candidate partitions (use --tie lex)",
            model.name()
        )));
    }
    let int = |x: u64| Exact::from_integer(BigInt::from(x));
    let mut t: Vec<Exact> = vec![int(0); (upto + 1).max(2) as usize];
    for n in 2..=upto {
        let chosen = chosen_splits(&strategy.score, strategy.tie.kind, model.candidates(n));
        if chosen.is_empty() {
            return Err(invalid(format!("the {} has no admissible query on {n} elements", model.name())));
        }
        let sum = chosen.iter().fold(int(0), |acc, s| acc + s.iter().fold(int(0), |a, &(size, c)| a + &t[size as usize] * int(c)));
        t[n as usize] = int(n) + sum / int(chosen.len() as u64);
    }
    Ok(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_splits() {
        assert_eq!(balanced(7, 3), vec![(3, 1), (2, 2)]);
        assert_eq!(balanced(6, 3), vec![(2, 3)]);
        assert_eq!(balanced(2, 3), vec![(1, 2)]);
        assert_eq!(expand(&normalize(vec![(1, 2), (4, 1), (1, 1)])), vec![4, 1, 1, 1]);
    }
}
