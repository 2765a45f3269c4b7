//! `beams info`: board, pieces, patterns and code counts of a variant.

use super::*;

pub(super) fn beams_info(variant: &str, codes: &std::path::Path) -> Result<()> {
    let variant: Variant = variant.parse()?;
    let board = Board::new(variant.n);
    println!(
        "{variant}: board edge {}, {} cells (centre removed), {} diagonals",
        variant.n,
        board.cell_count(),
        board.diagonals.len()
    );
    renyi_search::memory::check_budget(
        &format!("enumerating the fixed polyhexes of {} cells", variant.piece_size),
        renyi_search::games::beams::polyhex::enumeration_bytes(variant.piece_size),
    )?;
    println!(
        "  pieces (fixed polyhexes of {} cells in the {}×{} rhombus): {}",
        variant.piece_size,
        2 * variant.n - 1,
        2 * variant.n - 1,
        pieces_in_rhombus(variant.piece_size, variant.n)
    );
    if variant.n > 4 {
        println!("  patterns: not enumerated for boards of edge 5 (far too many)");
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
