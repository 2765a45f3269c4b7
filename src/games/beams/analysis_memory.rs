//! The memory an analysis walk over a Beams variant holds beyond its pattern
//! table: the estimate the CLI checks against `--max-memory` before an
//! `analyze beams` starts (docs/reliability.md). Kept apart from the pattern
//! table's estimate (patterns_memory.rs), which the table's own enumeration
//! uses below the game.

use super::Variant;
use super::codeset::CodeSet;
use super::game::BeamsState;

/// Live bytes of an analysis walk over Beams `variant` beyond its pattern
/// table (`None` beyond 2^64). A code set keeps one row of ⌈c!/64⌉ words and a
/// pattern number per pattern it touches (games/beams/codeset.rs), and a query
/// splits each row among at most c classes (the piece that has the asked
/// colour), so a partition of all codes holds at most R = patterns·c rows. The
/// walk holds the root's partition, and each worker thread a path of
/// partitions below it, each at most its parent set split, about 2R per path.
/// MIX adds its memo (search/memo.rs): one entry per expanded node, keyed by
/// the node's state and set, valued by an outcome; a strategy tree has fewer
/// inner nodes than codes, and MIX's ties add nodes but meet again as
/// transpositions, so one entry per code, capped by `memo_budget`, the budget
/// of the memos in force (`--memo-gib`; the memo counts its table and never
/// holds more). tests/beams_analysis_memory.rs holds this within 2× of the
/// counted peak (3c6p, 6c3p; LEX, and MIX at a budget that binds and one that
/// does not).
pub fn analysis_walk_bytes(
    variant: Variant,
    patterns: u64,
    codes: u64,
    mix: bool,
    threads: u64,
    memo_budget: u64,
) -> Option<u64> {
    let colourings = (1..=variant.colours as u64).try_fold(1u64, |f, k| f.checked_mul(k))?;
    let row_bytes = 4 + 8 * colourings.div_ceil(64);
    let partition = patterns.checked_mul(variant.colours as u64)?.checked_mul(row_bytes)?;
    let paths = partition.checked_mul(1 + 2 * threads.max(1))?;
    if !mix {
        return Some(paths);
    }
    let entry = (std::mem::size_of::<(BeamsState, CodeSet)>()
        + std::mem::size_of::<crate::search::Outcome>()
        + 2 * std::mem::size_of::<usize>()) as u64;
    let memo = codes.checked_mul(entry)?.min(memo_budget);
    paths.checked_add(memo)
}
