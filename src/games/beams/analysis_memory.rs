//! The memory an analysis walk over a Beams variant holds beyond its pattern
//! table: the estimate the CLI checks against `--max-memory` before an
//! `analyze beams` starts (docs/reliability.md). Kept apart from the pattern
//! table's estimate (patterns_memory.rs), which the table's own enumeration
//! uses below the game.

use super::Variant;
use super::codeset::CodeSet;
use super::game::BeamsState;
use super::geometry::Board;
use crate::search::analysis::LARGE_SET_BYTES;

/// Live bytes of an analysis of Beams `variant` beyond its pattern table
/// (`None` beyond 2^64): the game's hit table (a byte per pattern, diagonal
/// and piece: games/beams/game.rs) and the walk. A code set keeps one row of
/// ⌈c!/64⌉ words and a pattern number per pattern it touches
/// (games/beams/codeset.rs), and a query splits each row among at most c
/// classes (the piece that has the asked colour), so a partition of a set
/// holds at most c times its rows. The walk splits sets below
/// `search::analysis::LARGE_SET_BYTES` (16 MiB) whole: a partition of at most c such sets at the
/// root's level, and on each worker thread a path of partitions below it,
/// each at most its parent set split, about twice that. Larger sets (only
/// the big variants: Beams(6c,6p)'s set of all codes holds 423 MB) are
/// expanded one class at a time, each at most its parent: their path is
/// counted at twice the set of all codes. MIX adds its memo
/// (search/memo.rs): one entry per expanded node, keyed by the node's state
/// and set, valued by an outcome; a strategy tree has fewer inner nodes than
/// codes, and MIX's ties add nodes but meet again as transpositions, so one
/// entry per code, capped by `memo_budget`, the budget of the memos in force
/// (`--memo-gib`; the memo counts its table and never holds more).
/// tests/beams_analysis_memory.rs holds this within 2× of the counted peak
/// (3c6p, 6c3p; LEX, and MIX at a budget that binds and one that does not).
pub fn analysis_walk_bytes(
    variant: Variant,
    patterns: u64,
    codes: u64,
    mix: bool,
    threads: u64,
    memo_budget: u64,
) -> Option<u64> {
    let k = variant.colours as u64;
    let colourings = (1..=k).try_fold(1u64, |f, i| f.checked_mul(i))?;
    let all = patterns.checked_mul(4 + 8 * colourings.div_ceil(64))?;
    let hits = patterns.checked_mul(Board::new(variant.n).diagonals.len() as u64)?.checked_mul(k)?;
    let split_whole = all.min(LARGE_SET_BYTES as u64).checked_mul(k)?.checked_mul(1 + 2 * threads.max(1))?;
    let one_class_at_a_time = if all >= LARGE_SET_BYTES as u64 { all.checked_mul(2)? } else { 0 };
    let walk = hits.checked_add(split_whole)?.checked_add(one_class_at_a_time)?;
    if !mix {
        return Some(walk);
    }
    let entry = (std::mem::size_of::<(BeamsState, CodeSet)>()
        + std::mem::size_of::<crate::search::Outcome>()
        + 2 * std::mem::size_of::<usize>()) as u64;
    let memo = codes.checked_mul(entry)?.min(memo_budget);
    walk.checked_add(memo)
}
