//! Issue 48 item 5 for the Beams analysis: the estimate `analyze beams`
//! checks the budget with (`analysis_memory::analysis_walk_bytes` plus the
//! pattern table) against the live bytes a counting global allocator measures
//! while the game is built and analysed at α = 1, LEX and MIX (as
//! tests/beams_memory_estimates.rs does for the pattern tables); MIX at the
//! default memo budget and at one a quarter of the memo's estimated size,
//! where the budget binds (`--memo-gib`: the memo budget the job carries,
//! `memory::Budget::with_memo_bytes`). One test in this file, so that
//! nothing else allocates while it counts.

use renyi_search::games::beams::analysis_memory::analysis_walk_bytes;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::memory::Budget;
use renyi_search::search::memo::BUDGET_BYTES;
use renyi_search::search::{Rules, RunOptions, Strategy, TieRule, analyze};
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// The counted peak (bytes) of building `name` and analysing it with `tie`
/// in a job whose memos draw on `memo_budget` bytes, and the estimate for it.
fn peak_and_estimate(name: &str, tie: TieRule, mix: bool, memo_budget: u64) -> (f64, f64) {
    Budget::of_process().with_memo_bytes(memo_budget).within(|| {
        rayon::broadcast(|_| ()); // the job's worker threads' own allocations, before any counting
        job_peak_and_estimate(name, tie, mix, memo_budget)
    })
}

fn job_peak_and_estimate(name: &str, tie: TieRule, mix: bool, memo_budget: u64) -> (f64, f64) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let patterns = enumerate(name.parse().unwrap());
    let (variant, table_bytes) = (patterns.variant, (patterns.pieces.len() * 8) as u64);
    let pattern_count = patterns.count() as u64;
    let game = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let codes = game.code_count() as u64;
    PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
    let result = analyze(&game, Strategy::new("1".parse().unwrap(), tie), RunOptions::default());
    let peak = (PEAK.load(Ordering::Relaxed) - before) as f64;
    assert_eq!(result.codes, codes);
    let threads = rayon::current_num_threads() as u64;
    let walk = analysis_walk_bytes(variant, pattern_count, codes, mix, threads, memo_budget).unwrap();
    (peak, (walk + table_bytes) as f64)
}

/// 3c6p and 6c3p, LEX and MIX at α = 1 (MIX twice): game build plus
/// analysis (about 30 s, 6c3p MIX the most).
#[test]
fn beams_analysis_estimates_are_within_twice_the_counted_peak() {
    rayon::broadcast(|_| ()); // the worker threads' own allocations, before any counting
    for name in ["3c6p", "6c3p"] {
        let variant = name.parse().unwrap();
        let (patterns, codes) = {
            let table = enumerate(variant);
            let codes = Beams::new(table.clone(), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap().code_count();
            (table.count() as u64, codes as u64)
        };
        let memo_unbounded = analysis_walk_bytes(variant, patterns, codes, true, 1, u64::MAX).unwrap()
            - analysis_walk_bytes(variant, patterns, codes, false, 1, u64::MAX).unwrap();
        let binding = memo_unbounded / 4;
        let runs = [("LEX", TieRule::lex(), BUDGET_BYTES), ("MIX", TieRule::mix(), BUDGET_BYTES)];
        let mut peaks = Vec::new();
        for (rule, tie, budget) in runs.into_iter().chain([("MIX", TieRule::mix(), binding)]) {
            let (peak, estimate) = peak_and_estimate(name, tie, rule == "MIX", budget);
            eprintln!(
                "{name} {rule} memo budget {budget}: estimate {estimate} bytes, counted peak {peak}, ratio {:.2}",
                estimate / peak
            );
            assert!(
                estimate <= 2.0 * peak && peak <= 2.0 * estimate,
                "{name} {rule} memo budget {budget}: estimate {estimate} bytes, counted peak {peak}"
            );
            peaks.push(peak);
        }
        // The small budget binds: the memo holds less than it would at the default budget.
        assert!(peaks[2] < peaks[1], "{name}: MIX peaks {peaks:?} at memo budgets 1 GiB and {binding}");
    }
}
