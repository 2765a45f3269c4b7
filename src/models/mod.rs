//! Search models in which only the *sizes* of the answer classes matter (thesis
//! §4.2.3 free search problems, §4.5 the Wurzel model). A set is characterised
//! by its size n, a query by the multiset of its class sizes, so every strategy
//! is a recursion over n instead of a walk over explicit code sets.
//!
//! The H_α decision reuses the core's exact scoring ([`RenyiScore`]) and tie rules
//! ([`TieRule`]); the canonical (LEX) order of size queries is the increasing
//! lexicographic order of their class sizes sorted in decreasing order, so the
//! most even partition comes first.

pub mod curve;
pub mod free;
pub mod wurzel;

use crate::error::{Result, invalid};
use crate::renyi::alpha::Alpha;
use crate::renyi::score::{Key, RenyiScore, RunKey, contenders};
use crate::search::outcome::Exact;
use crate::search::{Strategy, TieBreak};
use num_bigint::BigInt;
use std::cmp::Ordering;

/// Most runs (distinct class sizes) a size query may have: both models use a
/// balanced split (two sizes) plus one free class.
pub const MAX_RUNS: usize = 4;

/// A partition of n as runs (class size, number of classes): sizes distinct and
/// decreasing, counts positive. A small value type, so that generating the
/// candidates of every n allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Split {
    runs: [(u64, u64); MAX_RUNS],
    len: usize,
}

impl Split {
    /// The canonical split with these runs (merged, sorted; zero runs dropped).
    /// Panics if more than [`MAX_RUNS`] distinct sizes remain (a model bug).
    pub fn from_runs(items: impl IntoIterator<Item = (u64, u64)>) -> Split {
        let mut out = Split { runs: [(0, 0); MAX_RUNS], len: 0 };
        for (size, count) in items.into_iter().filter(|&(s, c)| s > 0 && c > 0) {
            out.add(size, count);
        }
        out
    }

    fn add(&mut self, size: u64, count: u64) {
        if let Some(run) = self.runs[..self.len].iter_mut().find(|r| r.0 == size) {
            run.1 += count;
            return;
        }
        assert!(self.len < MAX_RUNS, "a size query with more than {MAX_RUNS} distinct class sizes");
        let at = self.runs[..self.len].iter().position(|r| r.0 < size).unwrap_or(self.len);
        self.runs.copy_within(at..self.len, at + 1);
        self.runs[at] = (size, count);
        self.len += 1;
    }

    /// The split of `total` into `parts` classes as even as possible:
    /// `total % parts` classes of ⌈total/parts⌉, the rest ⌊total/parts⌋.
    pub fn balanced(total: u64, parts: u64) -> Split {
        let (q, r) = (total / parts, total % parts);
        Split::from_runs([(q + 1, r), (q, parts - r)])
    }

    /// This split with one more class of `size` elements.
    pub fn with_class(mut self, size: u64) -> Split {
        if size > 0 {
            self.add(size, 1);
        }
        self
    }

    pub fn runs(&self) -> &[(u64, u64)] {
        &self.runs[..self.len]
    }

    /// The class sizes, expanded, in decreasing order.
    pub fn expand(&self) -> Vec<u64> {
        self.runs().iter().flat_map(|&(s, c)| std::iter::repeat_n(s, c as usize)).collect()
    }
}

/// A model whose sets are characterised by their size.
pub trait SizeModel: Sync {
    fn name(&self) -> String;
    /// Candidate queries on a set of n ≥ 2 elements, written into `out` (cleared
    /// first). Must contain, for every α, the canonically first H_α-optimal
    /// query; see [`Self::mix_exact`].
    fn candidates(&self, n: u64, out: &mut Vec<Split>);
    /// Whether the candidates contain *every* H_α-optimal query, so that MIX
    /// (the mean over all tied queries) is exact.
    fn mix_exact(&self, alpha: Alpha) -> bool;
}

/// The queries the strategy plays on n elements: the exactly H_α-maximal
/// candidates (found by `key`, confirmed by `score`), reduced to the
/// canonically first for LEX.
pub fn chosen_splits(score: &RenyiScore, key: &RunKey, tie: TieBreak, candidates: &[Split]) -> Vec<Split> {
    let keys: Vec<Key> = candidates.iter().map(|s| key.key(s.runs())).collect();
    if keys.is_empty() {
        return Vec::new();
    }
    // Every candidate not among the contenders is certainly below one that is.
    let band = contenders(&keys);
    if let [only] = band[..] {
        // The one maximal candidate: its own only tie, under LEX and MIX alike.
        return vec![candidates[only]];
    }
    let band: Vec<(Vec<u64>, Split)> = band.into_iter().map(|i| (candidates[i].expand(), candidates[i])).collect();
    let mut best = &band[0].0;
    for (sizes, _) in &band[1..] {
        if score.compare(sizes, best) == Ordering::Greater {
            best = sizes;
        }
    }
    let mut ties: Vec<&(Vec<u64>, Split)> =
        band.iter().filter(|(s, _)| score.compare(s, best) == Ordering::Equal).collect();
    ties.sort_by(|a, b| a.0.cmp(&b.0));
    ties.dedup_by(|a, b| a.0 == b.0);
    let take = if tie == TieBreak::Lex { 1 } else { ties.len() };
    ties.into_iter().take(take).map(|t| t.1).collect()
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
    // The totals that are integers (every one under LEX) also as machine
    // words, so that most sums need no big-number arithmetic; same values.
    let mut words: Vec<Option<u128>> = vec![Some(0); t.len()];
    let mut candidates = Vec::new();
    let key = RunKey::new(alpha, (upto as usize + 1).min(KEY_TABLE_LIMIT));
    for n in 2..=upto {
        model.candidates(n, &mut candidates);
        let chosen = chosen_splits(&strategy.score, &key, strategy.tie.kind, &candidates);
        if chosen.is_empty() {
            return Err(invalid(format!("the {} has no admissible query on {n} elements", model.name())));
        }
        let word = word_total(n, &chosen, &words);
        t[n as usize] = match word {
            Some(w) => Exact::from_integer(BigInt::from(w)),
            None => {
                let sum = chosen.iter().fold(int(0), |acc, s| {
                    acc + s.runs().iter().fold(int(0), |a, &(size, c)| a + &t[size as usize] * int(c))
                });
                int(n) + sum / int(chosen.len() as u64)
            }
        };
        words[n as usize] = word;
    }
    Ok(t)
}

/// Class sizes below this have their key terms in a table (16 bytes each).
const KEY_TABLE_LIMIT: usize = 1 << 21;

/// T(n) = n + mean over `chosen` of Σ T(class) in machine words, when every
/// class total is a word and the mean is an integer (else `None`).
fn word_total(n: u64, chosen: &[Split], words: &[Option<u128>]) -> Option<u128> {
    let mut sum = 0u128;
    for s in chosen {
        for &(size, c) in s.runs() {
            sum = sum.checked_add(words[size as usize]?.checked_mul(c as u128)?)?;
        }
    }
    let parts = chosen.len() as u128;
    sum.is_multiple_of(parts).then(|| sum / parts)?.checked_add(n as u128)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balanced_splits() {
        assert_eq!(Split::balanced(7, 3).runs(), &[(3, 1), (2, 2)]);
        assert_eq!(Split::balanced(6, 3).runs(), &[(2, 3)]);
        assert_eq!(Split::balanced(2, 3).runs(), &[(1, 2)]);
        assert_eq!(Split::from_runs([(1, 2), (4, 1), (1, 1)]).expand(), vec![4, 1, 1, 1]);
        assert_eq!(Split::balanced(4, 2).with_class(2).runs(), &[(2, 3)]);
        assert_eq!(Split::balanced(5, 2).with_class(9).runs(), &[(9, 1), (3, 1), (2, 1)]);
    }
}
