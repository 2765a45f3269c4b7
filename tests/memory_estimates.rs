//! Issue 48 item 5: a job's memory estimate against what it holds. A
//! counting global allocator measures the live bytes of a Mastermind walk;
//! `games::mastermind::heap_bytes` must lie within 2× of the counted peak
//! (the whole process's peak is checked in tests/cli_memory.rs). This file
//! holds one test, so that nothing else allocates while it counts.

use renyi_search::games::mastermind::{Mastermind, heap_bytes};
use renyi_search::search::{RunOptions, Strategy, TieRule, analyze};
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// The answer table is built at its size (collecting it in parallel held
/// 2–2.7× the table at once), and a walk adds 550–730 bytes per code.
#[test]
fn mastermind_heap_estimate_is_within_twice_the_counted_peak() {
    for (pegs, colors, distinct) in [(4, 5, false), (4, 6, false), (4, 7, false), (5, 5, false), (4, 6, true)] {
        let before = LIVE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        let analysis = analyze(&mm, Strategy::new("1".parse().unwrap(), TieRule::lex()), RunOptions::default());
        let peak = (PEAK.load(Ordering::Relaxed) - before) as f64;
        let estimate = heap_bytes(pegs, colors, distinct).unwrap() as f64;
        assert!(
            estimate <= 2.0 * peak && peak <= 2.0 * estimate,
            "MM({pegs},{colors}) distinct {distinct}: estimate {estimate}, peak {peak}"
        );
        drop((analysis, mm));
    }
}
