//! Issue 48 item 5 for the Beams analysis: the estimate `analyze beams`
//! checks the budget with (`analysis_memory::analysis_walk_bytes` plus the
//! pattern table) against the live bytes a counting global allocator measures
//! while the game is built and analysed at α = 1, LEX and MIX (as
//! tests/beams_memory_estimates.rs does for the pattern tables). One test in
//! this file, so that nothing else allocates while it counts.

use renyi_search::games::beams::analysis_memory::analysis_walk_bytes;
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::search::{Rules, RunOptions, Strategy, TieRule, analyze};
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// 3c6p and 6c3p, LEX and MIX at α = 1: game build plus analysis (about 30 s,
/// 6c3p MIX the most).
#[test]
fn beams_analysis_estimates_are_within_twice_the_counted_peak() {
    rayon::broadcast(|_| ()); // the worker threads' own allocations, before any counting
    for name in ["3c6p", "6c3p"] {
        for (rule, tie) in [("LEX", TieRule::lex()), ("MIX", TieRule::mix())] {
            let before = LIVE.load(Ordering::Relaxed);
            PEAK.store(before, Ordering::Relaxed);
            let patterns = enumerate(name.parse().unwrap());
            let (variant, table_bytes) = (patterns.variant, (patterns.pieces.len() * 8) as u64);
            let pattern_count = patterns.count() as u64;
            let game = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
            let codes = game.code_count() as u64;
            let game_bytes = LIVE.load(Ordering::Relaxed) - before;
            PEAK.store(LIVE.load(Ordering::Relaxed), Ordering::Relaxed);
            let result = analyze(&game, Strategy::new("1".parse().unwrap(), tie), RunOptions::default());
            let peak = (PEAK.load(Ordering::Relaxed) - before) as f64;
            assert_eq!(result.codes, codes);
            let threads = rayon::current_num_threads() as u64;
            let walk = analysis_walk_bytes(variant, pattern_count, codes, rule == "MIX", threads).unwrap();
            let estimate = (walk + table_bytes) as f64;
            eprintln!(
                "{name} {rule}: game live {game_bytes}, estimate {estimate} bytes, counted peak {peak}, ratio {:.2}",
                estimate / peak
            );
            assert!(
                estimate <= 2.0 * peak && peak <= 2.0 * estimate,
                "{name} {rule}: estimate {estimate} bytes, counted peak {peak}"
            );
        }
    }
}
