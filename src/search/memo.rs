//! The MIX memo: outcomes of strategy-tree nodes already expanded, for nodes
//! that different orders of tied queries reach along several paths
//! (transpositions; LEX trees never meet a node twice).
//!
//! Whether it pays depends on the game and α: where transpositions are
//! frequent (Mastermind, Beams(6c,3p) H_∞) it saves whole subtrees; where they
//! are rare or cheap to recompute (Beams(6c,6p) H_1: a 16.9 M-code unit took
//! 13 GB with an unbounded memo and ran faster without it, at a 20 % hit
//! rate) storing every set only costs time and memory. So the memo
//! - shares one budget (keys by the game's
//!   [`SearchProblem::set_bytes`](super::problem::SearchProblem::set_bytes)
//!   estimate, plus outcomes, plus the map's table at its largest while it
//!   grows: [`Memo::slot_bytes`]) with every other memo of its job: the memo
//!   budget the job's [`crate::memory::Budget`] carries ([`BUDGET_BYTES`]
//!   unless `--memo-gib` says otherwise; outside every job one shared budget
//!   of that size), so that work units running side by side on all threads
//!   stay within it together, and two jobs in one process each within theirs
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
use std::sync::{Arc, RwLock};

pub use crate::memory::{DEFAULT_MEMO_BYTES as BUDGET_BYTES, SharedBudget};

/// Lookups after which the hit rate is judged.
pub const TRIAL_LOOKUPS: u64 = 200_000;
/// The memo stays on while at least one lookup in this many hits.
pub const MIN_HIT_RATE: u64 = 50;

/// A concurrent memo that bounds its memory and switches itself off when it does not pay.
///
/// Invariant: `bytes` is at least what the memo holds, its map's table
/// included, so that the memos of one budget never hold more than its limit
/// together. Per entry it counts the caller's heap bytes of key and value
/// plus [`Self::slot_bytes`]; per memo the shards ([`Self::base_bytes`]). An
/// emptied map gives its table back ([`Self::clear`]); a reservation that
/// does not fit is not made, so concurrent inserts cannot overdraw either.
/// tests/memo_budget.rs counts the allocations of a memo against its budget.
pub struct Memo<K: Eq + Hash, V: Clone> {
    map: DashMap<K, V, super::fasthash::FastBuild>,
    budget: Arc<SharedBudget>,
    /// Bytes this memo holds (its share of `budget`).
    bytes: AtomicU64,
    /// Inserts hold it shared, [`Self::clear`] alone: an entry is never
    /// inserted into a map being emptied after its bytes were counted.
    clearing: RwLock<()>,
    lookups: AtomicU64,
    hits: AtomicU64,
    active: AtomicBool,
}

impl<K: Eq + Hash, V: Clone> Memo<K, V> {
    /// A memo on the memo budget of the job this thread runs
    /// ([`crate::memory::memo_budget`]), in use from the start if `active`.
    pub fn new(active: bool) -> Self {
        Self::with_budget(active, crate::memory::memo_budget())
    }

    /// A memo drawing on `budget`; off from the start if `budget` cannot hold its shards.
    pub fn with_budget(active: bool, budget: Arc<SharedBudget>) -> Self {
        let shards = shard_count();
        let memo = Memo {
            map: DashMap::with_hasher_and_shard_amount(Default::default(), shards),
            budget,
            bytes: AtomicU64::new(0),
            clearing: RwLock::new(()),
            lookups: AtomicU64::new(0),
            hits: AtomicU64::new(0),
            active: AtomicBool::new(active),
        };
        if active && memo.reserve(Self::base_bytes()) {
            memo.bytes.store(Self::base_bytes(), Ordering::Relaxed);
        } else {
            memo.active.store(false, Ordering::Relaxed);
        }
        memo
    }

    /// Bytes an entry takes in the map's table beyond the heap data of its key
    /// and value: its slot and control byte, times 24/7. A table (hashbrown,
    /// one per shard) is at most 7/8 full; it grows by doubling when full,
    /// and while it moves its entries the old table (B slots) and the new
    /// (2B) are both allocated for 7B/8 entries: 24/7 slots per entry.
    pub fn slot_bytes() -> u64 {
        ((std::mem::size_of::<(K, V)>() as u64 + 1) * 24).div_ceil(7)
    }

    /// Bytes of an empty memo and the part of its small tables that
    /// [`Self::slot_bytes`] does not cover: per shard its lock and map (one
    /// cache line at most 128 bytes), a table of up to 4 slots for its first
    /// entry, 16 control bytes more and alignment.
    pub fn base_bytes() -> u64 {
        shard_count() as u64 * (128 + 4 * (std::mem::size_of::<(K, V)>() as u64 + 1) + 32)
    }

    /// Adds `bytes` to the budget if they fit under its limit.
    fn reserve(&self, bytes: u64) -> bool {
        self.budget.reserve(bytes)
    }

    /// Returns `bytes` to this memo's budget.
    fn release(&self, bytes: u64) {
        self.bytes.fetch_sub(bytes, Ordering::Relaxed);
        self.budget.release(bytes);
    }

    /// Empties the map, gives its tables back and returns its entries' bytes
    /// to the budget (the shards stay counted).
    fn clear(&self) {
        let _alone = self.clearing.write().unwrap_or_else(|p| p.into_inner());
        self.map.clear();
        self.map.shrink_to_fit();
        let base = Self::base_bytes().min(self.bytes.load(Ordering::Relaxed));
        self.budget.release(self.bytes.swap(base, Ordering::Relaxed) - base);
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

    /// Stores `value` for `key`, whose heap data (beyond the table slot) take
    /// about `heap` bytes, while the memo is in use. If the entry does not fit
    /// the shared budget, this memo is emptied first; if it still does not
    /// fit (other memos hold the budget), it is not stored.
    pub fn insert(&self, key: K, value: V, heap: u64) {
        if !self.is_active() {
            return;
        }
        let bytes = heap.saturating_add(Self::slot_bytes());
        if !self.reserve(bytes) {
            self.clear();
            if !self.reserve(bytes) {
                return;
            }
        }
        let _shared = self.clearing.read().unwrap_or_else(|p| p.into_inner());
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        if self.map.insert(key, value).is_some() {
            // Another thread stored this node first; its entry was replaced and stays counted once.
            self.release(bytes);
        }
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

/// Shards of a memo's map: DashMap's default of four per core (a power of
/// two, at least 2), fixed here so that [`Memo::base_bytes`] knows them.
fn shard_count() -> usize {
    static SHARDS: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *SHARDS.get_or_init(|| (std::thread::available_parallelism().map_or(1, usize::from) * 4).next_power_of_two().max(2))
}

impl<K: Eq + Hash, V: Clone> Drop for Memo<K, V> {
    fn drop(&mut self) {
        self.budget.release(*self.bytes.get_mut());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    type Small = Memo<u32, u32>;

    #[test]
    fn memos_share_one_budget() {
        let (base, entry) = (Small::base_bytes(), 10 + Small::slot_bytes());
        let budget = Arc::new(SharedBudget::new(2 * base + 10 * entry));
        let a = Small::with_budget(true, budget.clone());
        let b = Small::with_budget(true, budget.clone());
        (0..6).for_each(|k| a.insert(k, k, 10));
        (0..4).for_each(|k| b.insert(k, k, 10));
        assert_eq!((a.bytes(), b.bytes(), budget.held()), (base + 6 * entry, base + 4 * entry, 2 * base + 10 * entry));
        // b's next insert overdraws the budget: b starts afresh, a keeps its entries.
        b.insert(9, 9, 10);
        assert_eq!((a.bytes(), b.bytes(), budget.held()), (base + 6 * entry, base + entry, 2 * base + 7 * entry));
        assert_eq!((a.get(&5), b.get(&0), b.get(&9)), (Some(5), None, Some(9)));
        // A node stored twice (two threads expanded it) is counted once.
        a.insert(5, 5, 10);
        assert_eq!((a.bytes(), budget.held()), (base + 6 * entry, 2 * base + 7 * entry));
        drop(a);
        assert_eq!(budget.held(), base + entry);
        drop(b);
        assert_eq!(budget.held(), 0);
    }

    /// When other memos hold the budget, emptying this one does not make
    /// room: the entry is not stored, and the budget is not overdrawn.
    #[test]
    fn an_entry_that_does_not_fit_is_not_stored() {
        let (base, entry) = (Small::base_bytes(), 10 + Small::slot_bytes());
        let budget = Arc::new(SharedBudget::new(2 * base + 3 * entry));
        let a = Small::with_budget(true, budget.clone());
        let b = Small::with_budget(true, budget.clone());
        (0..3).for_each(|k| a.insert(k, k, 10));
        b.insert(7, 7, 10);
        assert_eq!((b.get(&7), b.bytes(), budget.held()), (None, base, 2 * base + 3 * entry));
        // A budget below one memo's shards turns the memo off.
        let c = Small::with_budget(true, budget.clone());
        assert!(!c.is_active());
    }

    #[test]
    fn inactive_memo_holds_nothing() {
        let budget = Arc::new(SharedBudget::new(1 << 20));
        let m: Memo<u32, u32> = Memo::with_budget(false, budget.clone());
        m.insert(1, 1, 10);
        assert_eq!((m.get(&1), budget.held()), (None, 0));
    }
}
