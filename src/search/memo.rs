//! The MIX memo: outcomes of strategy-tree nodes already expanded, for nodes
//! that different orders of tied queries reach along several paths
//! (transpositions; LEX trees never meet a node twice).
//!
//! Whether it pays depends on the game and α: where transpositions are
//! frequent (Mastermind, Beams(6c,3p) H_∞) it saves whole subtrees; where they
//! are rare or cheap to recompute (Beams(6c,6p) H_1: a 16.9 M-code unit took
//! 13 GB with an unbounded memo and ran faster without it, at a 20 % hit
//! rate) storing every set only costs time and memory. So the memo
//! - keeps at most [`BUDGET_BYTES`] of keys (by the game's
//!   [`SearchProblem::set_bytes`](super::problem::SearchProblem::set_bytes)
//!   estimate) and starts afresh when full (transpositions are mostly close
//!   to each other in the tree, so recent entries are the useful ones);
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

/// Key bytes a memo holds before it starts afresh.
pub const BUDGET_BYTES: u64 = 1 << 30;

/// A concurrent memo that bounds its memory and switches itself off when it does not pay.
pub struct Memo<K: Eq + Hash, V: Clone> {
    map: DashMap<K, V, super::fasthash::FastBuild>,
    bytes: AtomicU64,
    lookups: AtomicU64,
    hits: AtomicU64,
    active: AtomicBool,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// A memo, in use from the start if `active`.
    pub fn new(active: bool) -> Self {
        Memo { map: DashMap::default(), bytes: AtomicU64::new(0), lookups: AtomicU64::new(0), hits: AtomicU64::new(0), active: AtomicBool::new(active) }
    }

    /// Whether keys are worth building for [`Self::get`] and [`Self::insert`].
    pub fn is_active(&self) -> bool {
        self.active.load(Ordering::Relaxed)
    }

    /// The stored value of `key`, if any; judges the hit rate once the trial is over.
    pub fn get(&self, key: &K) -> Option<V> {
        let found = self.map.get(key).map(|v| v.clone());
        let lookups = self.lookups.fetch_add(1, Ordering::Relaxed) + 1;
        let hits = if found.is_some() { self.hits.fetch_add(1, Ordering::Relaxed) + 1 } else { self.hits.load(Ordering::Relaxed) };
        if lookups == TRIAL_LOOKUPS && hits * MIN_HIT_RATE < lookups {
            self.active.store(false, Ordering::Relaxed);
            self.map.clear();
        }
        found
    }

    /// Stores `value` for `key` (which holds about `bytes` bytes) while the
    /// memo is in use; a full memo is emptied first.
    pub fn insert(&self, key: K, value: V, bytes: u64) {
        if !self.is_active() {
            return;
        }
        if self.bytes.fetch_add(bytes, Ordering::Relaxed) + bytes > BUDGET_BYTES {
            self.map.clear();
            self.bytes.store(bytes, Ordering::Relaxed);
        }
        self.map.insert(key, value);
    }

    /// (lookups, hits) so far.
    pub fn stats(&self) -> (u64, u64) {
        (self.lookups.load(Ordering::Relaxed), self.hits.load(Ordering::Relaxed))
    }
}
