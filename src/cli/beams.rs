//! `beams info`: board, pieces, patterns and code counts of a variant;
//! `beams count`: patterns and codes by frontier states, without a table.

use super::args::BeamsCommand;
use renyi_search::error::Result;
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::{CacheStatus, cache_path, load_or_build, placements};
use renyi_search::games::beams::polyhex::pieces_in_rhombus;

/// Runs `beams info|count …`.
pub(super) fn run(what: BeamsCommand) -> Result<()> {
    match what {
        BeamsCommand::Info { variant, codes } => beams_info(&variant, &codes),
        BeamsCommand::Count { variant, border_rule, progress } => beams_count(&variant, border_rule, progress),
    }
}

fn beams_info(variant: &str, codes: &std::path::Path) -> Result<()> {
    let variant: Variant = variant.parse()?;
    let board = Board::new(variant.n);
    println!(
        "{variant}: board edge {}, {} cells (centre removed), {} diagonals",
        variant.n,
        board.cell_count(),
        board.diagonals.len()
    );
    match renyi_search::memory::check_budget(
        &format!("enumerating the fixed polyhexes of {} cells", variant.piece_size),
        renyi_search::games::beams::polyhex::enumeration_bytes(variant.piece_size),
    ) {
        Ok(()) => println!(
            "  pieces (fixed polyhexes of {} cells in the {}×{} rhombus): {}",
            variant.piece_size,
            2 * variant.n - 1,
            2 * variant.n - 1,
            pieces_in_rhombus(variant.piece_size, variant.n)
        ),
        Err(e) => println!("  pieces: not enumerated ({e})"),
    }
    if variant.n > 4 {
        println!(
            "  patterns: no table on the board of edge 5; `beams count {}c{}p` counts them by frontier states \
             (docs/beams-counting.md)",
            variant.colours, variant.piece_size
        );
        return Ok(());
    }
    // The frontier count takes under a second on the boards of edge ≤ 4; the
    // explicit table is built only for pieces of ≤ 6 cells (the thesis'
    // variants) or read when cached: larger pieces take minutes to enumerate.
    print_transfer_count(variant, false, false)?;
    if variant.piece_size > 6 && !cache_path(codes, variant).exists() {
        println!("  table: not built (pieces of more than 6 cells take minutes to enumerate)");
        return Ok(());
    }
    renyi_search::games::beams::patterns::check_enumerable(variant)?;
    println!(
        "  placements (connected {}-cell sets on the board): {}",
        variant.piece_size,
        placements(&board, variant.piece_size).len()
    );
    let clock = std::time::Instant::now();
    let (patterns, status) = load_or_build(variant, Some(codes))?;
    let how = match status {
        CacheStatus::Loaded => format!("loaded from {}", codes.display()),
        CacheStatus::Built { reason } => reason,
    };
    println!("  patterns: {} ({how}, {:.2} s)", patterns.count(), clock.elapsed().as_secs_f64());
    let codes_total = patterns.count() as u64 * variant.colourings() as u64;
    println!(
        "  codes: {} = {} × {} colourings; as a bit table {} bytes ({:.1} MiB)",
        codes_total,
        patterns.count(),
        variant.colourings(),
        codes_total.div_ceil(8),
        codes_total as f64 / 8.0 / 1048576.0
    );
    Ok(())
}

/// `beams count`: the frontier count of patterns and codes (no table).
fn beams_count(variant: &str, border_rule: bool, progress: bool) -> Result<()> {
    let variant: Variant = variant.parse()?;
    let rule = if border_rule { ", every piece on the outer ring" } else { "" };
    println!("{variant}: board edge {}, {} cells{rule}", variant.n, variant.colours * variant.piece_size);
    print_transfer_count(variant, border_rule, progress)
}

/// Counts the patterns of `variant` by frontier states and prints the lines
/// of `beams count` (patterns, codes, states, memory, time).
fn print_transfer_count(variant: Variant, border_rule: bool, progress: bool) -> Result<()> {
    use renyi_search::memory::{human_bytes, peak_resident_bytes};
    let clock = std::time::Instant::now();
    let count =
        renyi_search::games::beams::transfer::count_tilings(variant.n, variant.piece_size, border_rule, |c, n| {
            if progress {
                eprintln!("cell {c}: {n} states, {:.1} s", clock.elapsed().as_secs_f64());
            }
        })?;
    let seconds = clock.elapsed().as_secs_f64();
    println!("  patterns (frontier count, no table): {}", count.patterns);
    match count.codes() {
        Some(codes) => println!("  codes: {codes} = {} × {} colourings", count.patterns, variant.colourings()),
        None => println!("  codes: {} × {} colourings (beyond 2^128)", count.patterns, variant.colourings()),
    }
    let peak_cell = count.states.iter().position(|&n| n == count.peak_states).unwrap_or(0);
    println!(
        "  states: at most {} (after cell {peak_cell} of {}), {} in all; state tables {} at most; peak resident {}; {seconds:.2} s",
        count.peak_states,
        count.states.len(),
        count.states.iter().map(|&n| n as u64).sum::<u64>(),
        human_bytes(count.peak_table_bytes),
        peak_resident_bytes().map_or("not reported".to_string(), human_bytes),
    );
    Ok(())
}
