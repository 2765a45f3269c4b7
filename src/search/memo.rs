//! The MIX memo: outcomes of strategy-tree nodes already expanded, for nodes
//! that different orders of tied queries reach along several paths
//! (transpositions; LEX trees never meet a node twice).
//!
//! Whether it pays depends on the game and α: where transpositions are
//! frequent (Mastermind, Beams(6c,3p) H_∞) it saves whole subtrees; where they
//! are rare or cheap to recompute (Beams(6c,6p) H_1: a 16.9 M-code unit took
//! 13 GB with an unbounded memo and ran faster without it, at a 20 % hit
//! rate) storing every set only costs time and memory. So the memo
//! - shares one budget of [`BUDGET_BYTES`] (keys by the game's
//!   [`SearchProblem::set_bytes`](super::problem::SearchProblem::set_bytes)
//!   estimate, plus outcomes) with every other memo of the process, so that
//!   work units running side by side on all threads stay within it together
//!   (measured: two Beams(6c,6p) H_1-MIX units with a budget each peaked at
//!   7.8 GiB); a memo whose insert overdraws the shared budget starts afresh
//!   (transpositions are mostly close to each other in the tree, so recent
//!   entries are the useful ones);
//! - switches itself off for good if, after [`TRIAL_LOOKUPS`] lookups, fewer
//!   than one in [`MIN_HIT_RATE`] hit.
//!
//! Results are exact either way; only the work done changes.

use dashmap::DashMap;
use std::hash::Hash;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Lookups after which the hit rate is judged.
pub const TRIAL_LOOKUPS: u64 = 200_000;
/// The memo stays on while at least one lookup in this many hits.
pub const MIN_HIT_RATE: u64 = 50;

/// Bytes all memos of the process hold together before one starts afresh,
/// unless [`set_process_budget`] chose otherwise.
pub const BUDGET_BYTES: u64 = 1 << 30;

/// Bytes held by the memos that draw on one budget. Invariant: `held` is the
/// sum of the `bytes` of the live memos using this budget.
pub struct SharedBudget {
    limit: AtomicU64,
    held: AtomicU64,
}

impl SharedBudget {
    pub const fn new(limit: u64) -> Self {
        SharedBudget { limit: AtomicU64::new(limit), held: AtomicU64::new(0) }
    }

    /// The bytes the memos of this budget may hold together.
    pub fn limit(&self) -> u64 {
        self.limit.load(Ordering::Relaxed)
    }

    /// Bytes held now by all memos of this budget.
    pub fn held(&self) -> u64 {
        self.held.load(Ordering::Relaxed)
    }
}

/// The budget of [`Memo::new`]: one per process.
static PROCESS_BUDGET: SharedBudget = SharedBudget::new(BUDGET_BYTES);

/// Sets the budget of every memo of the process (default [`BUDGET_BYTES`]).
/// Results do not depend on it: a larger budget keeps more transpositions
/// (less recomputation, where ties are many: H_0 and H_∞ MIX), a smaller one
/// less memory. Memos over the new limit start afresh at their next insert.
pub fn set_process_budget(bytes: u64) {
    PROCESS_BUDGET.limit.store(bytes, Ordering::Relaxed);
}

/// A concurrent memo that bounds its memory and switches itself off when it does not pay.
pub struct Memo<K: Eq + Hash, V: Clone> {
    map: DashMap<K, V, super::fasthash::FastBuild>,
    budget: &'static SharedBudget,
    /// Bytes this memo holds (its share of `budget`).
    bytes: AtomicU64,
    lookups: AtomicU64,
    hits: AtomicU64,
    active: AtomicBool,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// A memo on the process budget, in use from the start if `active`.
    pub fn new(active: bool) -> Self {
        Self::with_budget(active, &PROCESS_BUDGET)
    }

    /// A memo drawing on `budget`.
    pub fn with_budget(active: bool, budget: &'static SharedBudget) -> Self {
        Memo {
            map: DashMap::default(),
            budget,
            bytes: AtomicU64::new(0),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            active: AtomicBool::new(active),
        }
    }

    /// Empties the map and returns its bytes to the budget.
    fn clear(&self) {
        self.map.clear();
        self.budget.held.fetch_sub(self.bytes.swap(0, Ordering::Relaxed), Ordering::Relaxed);
    }

    /// Whether keys are worth building for [`Self::get`] and [`Self::insert`].
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// The stored value of `key`, if any; judges the hit rate once the trial is over.
    pub fn get(&self, key: &K) -> Option<V> {
        let found = self.map.get(key).map(|v| v.clone());
        let lookups = self.lookups.fetch_add(1, Ordering::Relaxed) + 1;
        let hits = if found.is_some() {
            self.hits.fetch_add(1, Ordering::Relaxed) + 1
        } else {
            self.hits.load(Ordering::Relaxed)
        };
        if lookups == TRIAL_LOOKUPS && hits * MIN_HIT_RATE < lookups {
            self.active.store(false, Ordering::Relaxed);
            self.clear();
        }
        found
    }

    /// Stores `value` for `key` (which holds about `bytes` bytes) while the
    /// memo is in use; if that overdraws the shared budget, this memo is
    /// emptied first.
    pub fn insert(&self, key: K, value: V, bytes: u64) {
        if !self.is_active() {
            return;
        }
        if self.budget.held() + bytes > self.budget.limit() {
            self.clear();
        }
        self.budget.held.fetch_add(bytes, Ordering::Relaxed);
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.map.insert(key, value);
    }

    /// Bytes this memo holds.
    pub fn bytes(&self) -> u64 {
        self.bytes.load(Ordering::Relaxed)
    }

    /// (lookups, hits) so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.lookups.load(Ordering::Relaxed), self.hits.load(Ordering::Relaxed))
    }
}

impl<K: Eq + Hash, V: Clone> Drop for Memo<K, V> {
    fn drop(&mut self) {
        self.budget.held.fetch_sub(*self.bytes.get_mut(), Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memos_share_one_budget() {
        static BUDGET: SharedBudget = SharedBudget::new(100);
        let a: Memo<u32, u32> = Memo::with_budget(true, &BUDGET);
        let b: Memo<u32, u32> = Memo::with_budget(true, &BUDGET);
        (0..6).for_each(|k| a.insert(k, k, 10));
        (0..4).for_each(|k| b.insert(k, k, 10));
        assert_eq!((a.bytes(), b.bytes(), BUDGET.held()), (60, 40, 100));
        // b's next insert overdraws the budget: b starts afresh, a keeps its entries.
        b.insert(9, 9, 10);
        assert_eq!((a.bytes(), b.bytes(), BUDGET.held()), (60, 10, 70));
        assert_eq!((a.get(&5), b.get(&0), b.get(&9)), (Some(5), None, Some(9)));
        drop(a);
        assert_eq!(BUDGET.held(), 10);
        drop(b);
        assert_eq!(BUDGET.held(), 0);
    }

    #[test]
    fn inactive_memo_holds_nothing() {
        static BUDGET: SharedBudget = SharedBudget::new(100);
        let m: Memo<u32, u32> = Memo::with_budget(false, &BUDGET);
        m.insert(1, 1, 10);
        assert_eq!((m.get(&1), BUDGET.held()), (None, 0));
    }
}
