//! Issue 48 item 5 for Beams: the estimates the budget is checked with,
//! against the live bytes a counting global allocator measures (as
//! tests/memory_estimates.rs does for Mastermind): enumerating a pattern
//! table (`patterns_memory::EnumerationShape::enumeration_bytes`) and loading
//! it from the cache (`patterns_memory::loading_bytes`) must lie within 2× of
//! the counted peak. One test in this file, so that nothing else allocates
//! while it counts.

use renyi_search::games::beams::Variant;
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::{cache_path, enumerate, load, save};
use renyi_search::games::beams::patterns_memory::{EnumerationShape, loading_bytes, placements_by_lowest};
use renyi_search::games::beams::transfer::count_patterns;
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// The live bytes `job` adds at its peak, and its result.
fn counted<T>(job: impl FnOnce() -> T) -> (f64, T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = job();
    ((PEAK.load(Ordering::Relaxed) - before) as f64, out)
}

fn within_twice(what: &str, estimate: f64, peak: f64) {
    eprintln!("{what}: estimate {estimate} bytes, counted peak {peak} bytes, ratio {:.2}", estimate / peak);
    assert!(estimate <= 2.0 * peak && peak <= 2.0 * estimate, "{what}: estimate {estimate} bytes, counted peak {peak}");
}

/// Enumerating and loading the tables of the thesis' three variants (6c6p:
/// 4.2 M patterns, a 203 MB table; about 30 s).
#[test]
fn beams_table_estimates_are_within_twice_the_counted_peak() {
    rayon::broadcast(|_| ()); // the worker threads' own allocations, before any counting
    let dir = std::env::temp_dir().join(format!("renyi-beams-memory-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for name in ["3c6p", "6c3p", "6c6p"] {
        let variant: Variant = name.parse().unwrap();
        let board = Board::new(variant.n);
        let shape = EnumerationShape::of(
            &board,
            variant.colours,
            &placements_by_lowest(&board, variant.piece_size, u64::MAX).unwrap(),
        );
        let patterns = u64::try_from(count_patterns(variant, false).unwrap().patterns).unwrap();
        let (peak, table) = counted(|| enumerate(variant));
        assert_eq!(table.count() as u64, patterns, "{name}: the frontier count and the enumeration agree");
        within_twice(&format!("enumerating {name}"), shape.enumeration_bytes(patterns).unwrap() as f64, peak);
        let path = cache_path(&dir, variant);
        save(&table, &path).unwrap();
        drop(table);
        let file_bytes = std::fs::metadata(&path).unwrap().len();
        let (peak, loaded) = counted(|| load(&path, variant));
        assert_eq!(loaded.unwrap().count() as u64, patterns);
        within_twice(
            &format!("loading {name}"),
            loading_bytes(file_bytes, patterns, variant.colours).unwrap() as f64,
            peak,
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}
