//! Issue 48 item 5: a MIX memo never holds more than its budget, its hash
//! table included (slots, control bytes, the doubling when it grows, the old
//! and the new table while entries move). A counting global allocator
//! measures the live bytes of memos filled past their budget, from one thread
//! and from all; they must stay within the budget and use at least half of
//! it. One test in this file, so that nothing else allocates while it counts.

use rayon::prelude::*;
use renyi_search::search::memo::{Memo, SharedBudget};
use std::sync::Arc;
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// A key like a code set's (a word and a list), and a shared value like an outcome.
type Key = (u64, Box<[u32]>);
type Entry = (Key, Arc<Vec<u64>>);

/// Entry `i`: a list of `i % 23` codes and an outcome of `i % 7` counts, with
/// the heap bytes the caller declares for it (as search/analysis.rs does).
fn entry(i: u64) -> (Entry, u64) {
    let key: Box<[u32]> = (0..i % 23).map(|c| c as u32).collect();
    let value = Arc::new(vec![i; (i % 7) as usize]);
    let heap = 4 * key.len() + 16 + std::mem::size_of::<Vec<u64>>() + 8 * value.capacity();
    (((i, key), value), heap as u64)
}

/// Largest heap of one entry built but not yet stored (the caller's, one per thread).
const IN_FLIGHT: usize = 4 * 22 + 16 + 24 + 8 * 6;

#[test]
fn a_memo_holds_no_more_than_its_budget() {
    rayon::broadcast(|_| ()); // the worker threads' own allocations, before any counting
    let budget = Arc::new(SharedBudget::new(1 << 20));
    for parallel in [false, true] {
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let memo: Memo<Key, Arc<Vec<u64>>> = Memo::with_budget(true, budget.clone());
        let most_held = std::sync::atomic::AtomicUsize::new(0);
        let insert = |i: u64| {
            let ((key, value), heap) = entry(i);
            memo.insert(key, value, heap);
            most_held.fetch_max(LIVE.load(Ordering::Relaxed) - before, Ordering::Relaxed);
        };
        if parallel {
            (0..400_000u64).into_par_iter().for_each(insert);
        } else {
            (0..400_000u64).for_each(insert);
        }
        let peak = PEAK.load(Ordering::Relaxed) - before;
        let (limit, threads) = (budget.limit() as usize, rayon::current_num_threads());
        // rayon's own jobs allocate a little beside the memo when parallel.
        let slack = threads * IN_FLIGHT + if parallel { 64 << 10 } else { 0 };
        let most_held = most_held.load(Ordering::Relaxed);
        eprintln!("parallel {parallel}: budget {limit}, counted peak {peak}, most held after an insert {most_held}");
        assert!(peak <= limit + slack, "parallel {parallel}: counted peak {peak} bytes, budget {limit}");
        assert!(2 * most_held >= limit, "parallel {parallel}: held at most {most_held} bytes of a budget of {limit}");
        assert!(memo.bytes() <= limit as u64 && budget.held() == memo.bytes());
        drop(memo);
        assert_eq!(budget.held(), 0);
    }
}
