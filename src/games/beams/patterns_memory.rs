//! What a Beams pattern table costs in memory (issue 48 item 5), estimated
//! before any of it is allocated: enumerating it (the placements, the tasks'
//! outputs and the joined table, `patterns::enumerate_within`) or loading it
//! from the codes/ cache (`patterns::load`).
//!
//! The estimate needs the pattern count. The frontier count
//! (`transfer::count_patterns`) gives it exactly, quickly where a table fits
//! (6c6p: 2 s, 20 MB) but not beyond (6c10p: 30 min, 7.4 GB). So a table is
//! first weighed at a rigorous lower bound of its count, found in seconds:
//! the board's cells (in order) cut into two blocks of whole pieces, every
//! tiling of the first block joined with every tiling of the second is a
//! tiling of the board, so the board has at least the product of the two
//! blocks' tiling counts (6c10p: far beyond any budget; refused before the
//! frontier count starts).

use super::Variant;
use super::geometry::Board;
use crate::error::Result;
use crate::memory::{beyond_budget, check_budget, check_budget_at_least, process_bytes};

/// Calls `visit` once for every connected set of 1 to `size` cells inside
/// `region` (bit masks over the board's cells; `neighbours[i]` the cells
/// next to cell i). Each set is grown from its lowest cell, and a cell joins
/// the candidates only when it is next to the cell just added and to no
/// earlier cell of the set, so no set is reached twice (the ESU scheme of
/// subgraph enumeration); the memory is one mask pair per cell of the set.
pub fn for_each_connected_set(neighbours: &[u64], region: u64, size: usize, visit: &mut impl FnMut(u64) -> bool) {
    let mut cells = region;
    while cells != 0 {
        let root = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let above = region & !((2u64 << root) - 1);
        let start = 1u64 << root;
        if !grow(neighbours, above, start, neighbours[root] & above, start | neighbours[root], size, visit) {
            return;
        }
    }
}

/// One step of [`for_each_connected_set`]: visits `set`, then every way to
/// add a candidate of `candidates` (`near`: the set and its neighbours).
/// False once `visit` asked to stop.
fn grow(
    neighbours: &[u64],
    above: u64,
    set: u64,
    mut candidates: u64,
    near: u64,
    size: usize,
    visit: &mut impl FnMut(u64) -> bool,
) -> bool {
    if !visit(set) {
        return false;
    }
    if set.count_ones() as usize == size {
        return true;
    }
    while candidates != 0 {
        let cell = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        let new = neighbours[cell] & above & !near;
        if !grow(neighbours, above, set | 1 << cell, candidates | new, near | neighbours[cell], size, visit) {
            return false;
        }
    }
    true
}

/// The connected `size`-cell sets of the board ("placements"), grouped by
/// their lowest cell, each group ascending; `None` once there are more than
/// `most` of them (counted before anything is stored).
pub fn placements_by_lowest(board: &Board, size: usize, most: u64) -> Option<Vec<Vec<u64>>> {
    let cells = board.cell_count();
    let mut counts = vec![0u64; cells];
    let mut total = 0u64;
    for_each_connected_set(&board.neighbours, board.all_cells(), size, &mut |set| {
        if set.count_ones() as usize == size {
            counts[set.trailing_zeros() as usize] += 1;
            total += 1;
        }
        total <= most
    });
    if total > most {
        return None;
    }
    let mut groups: Vec<Vec<u64>> = counts.iter().map(|&n| Vec::with_capacity(n as usize)).collect();
    for_each_connected_set(&board.neighbours, board.all_cells(), size, &mut |set| {
        if set.count_ones() as usize == size {
            groups[set.trailing_zeros() as usize].push(set);
        }
        true
    });
    groups.iter_mut().for_each(|g| g.sort_unstable());
    Some(groups)
}

/// The tilings of the cells `free` by the placements (`by_lowest`), counted
/// up to `most` (a count that reached `most` may be larger).
pub fn count_tilings_up_to(by_lowest: &[Vec<u64>], neighbours: &[u64], free: u64, size: usize, most: u64) -> u64 {
    let mut found = 0;
    tilings(by_lowest, neighbours, free, size, most, &mut found);
    found
}

fn tilings(by_lowest: &[Vec<u64>], neighbours: &[u64], free: u64, size: usize, most: u64, found: &mut u64) {
    if free == 0 {
        *found += 1;
        return;
    }
    // The last piece is the rest, if it is connected (no search over the group).
    if free.count_ones() as usize == size {
        *found += u64::from(connected(neighbours, free));
        return;
    }
    for &piece in &by_lowest[free.trailing_zeros() as usize] {
        if *found >= most {
            return;
        }
        if piece & !free == 0 {
            tilings(by_lowest, neighbours, free & !piece, size, most, found);
        }
    }
}

/// Whether the cells of `set` (not empty) form one connected piece.
fn connected(neighbours: &[u64], set: u64) -> bool {
    let mut reached = set & set.wrapping_neg();
    loop {
        let mut next = reached;
        let mut s = reached;
        while s != 0 {
            next |= neighbours[s.trailing_zeros() as usize];
            s &= s - 1;
        }
        next &= set;
        if next == reached {
            return reached == set;
        }
        reached = next;
    }
}

/// The shape of an enumeration, known before it runs: the placements by
/// lowest cell and the number of its tasks (first two pieces).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EnumerationShape {
    pub colours: usize,
    pub cells: usize,
    /// Placements whose lowest cell is cell i.
    pub placements_by_lowest: Vec<u64>,
    /// Tasks: admissible choices of the first two pieces.
    pub tasks: u64,
}

/// Elements a `Vec` that grew by pushes holds room for: Rust's doubling
/// from 4 (elements up to 1 KiB), at least `len`.
fn grown_capacity(len: u64) -> u64 {
    if len == 0 { 0 } else { len.next_power_of_two().max(4) }
}

impl EnumerationShape {
    pub fn of(board: &Board, colours: usize, by_lowest: &[Vec<u64>]) -> EnumerationShape {
        let full = board.all_cells();
        let tasks = by_lowest[0]
            .iter()
            .map(|&first| match full & !first {
                0 => 1,
                free => by_lowest[free.trailing_zeros() as usize].iter().filter(|&&p| p & !free == 0).count() as u64,
            })
            .sum();
        EnumerationShape {
            colours,
            cells: board.cell_count(),
            placements_by_lowest: by_lowest.iter().map(|g| g.len() as u64).collect(),
            tasks,
        }
    }

    /// Live bytes `patterns::enumerate_within` holds at its peak for
    /// `patterns` patterns, when the tasks' outputs are joined: the
    /// placements (listed, then by lowest cell as pushed), the task list
    /// (a two-word vector each, in a list that grew by pushes), the tasks'
    /// outputs (each grown by doubling: 1/ln 2 ≈ 1.44 times its length on
    /// average, at least 4 words) and the joined table. Saving the table
    /// to the cache afterwards holds less: the table and two copies of its
    /// packed bytes (under a sixth of it). `None` beyond 2^64.
    pub fn enumeration_bytes(&self, patterns: u64) -> Option<u64> {
        let placements: u64 = self.placements_by_lowest.iter().sum();
        let grouped: u64 = self.placements_by_lowest.iter().map(|&n| grown_capacity(n)).sum();
        let lists = (placements + grouped).checked_mul(8)?.checked_add(24 * self.cells as u64)?;
        let tasks = grown_capacity(self.tasks).checked_mul(24)?.checked_add(self.tasks.checked_mul(16 + 24 + 32)?)?;
        let table = patterns.checked_mul(8 * self.colours as u64)?;
        let outputs = table.checked_add(table / 100 * 44)?;
        lists.checked_add(tasks)?.checked_add(outputs)?.checked_add(table)
    }
}

/// Live bytes `patterns::load` holds at its peak for a cache file of
/// `file_bytes` holding `patterns` patterns: the file's bytes, the decoded
/// table (allocated once at its size and filled in place) and the lookup of
/// every byte's base-k digits (256 × cells per byte words).
pub fn loading_bytes(file_bytes: u64, patterns: u64, colours: usize) -> Option<u64> {
    let table = patterns.checked_mul(8 * colours as u64)?;
    let digits = 256 * 8 * cells_per_byte(colours) as u64;
    file_bytes.checked_add(table)?.checked_add(digits)
}

/// A rigorous lower bound on the patterns of `variant`: the tilings of the
/// first half of the cells (whole pieces) times those of the rest, each
/// counted up to `most` (see the module's comment). 1 for one piece.
pub fn patterns_at_least(board: &Board, variant: Variant, by_lowest: &[Vec<u64>], most: u64) -> u64 {
    if variant.colours < 2 {
        return 1;
    }
    let first_cells = variant.colours / 2 * variant.piece_size;
    let first = (1u64 << first_cells) - 1;
    let count = |free: u64| count_tilings_up_to(by_lowest, &board.neighbours, free, variant.piece_size, most);
    count(first).saturating_mul(count(board.all_cells() & !first))
}

/// Checks, before anything large is allocated, that enumerating the
/// patterns of `variant` fits the memory budget; `Err` (TooLarge, one line)
/// otherwise. Order: the placements (counted without storing them), the
/// table at the lower bound of its count ([`patterns_at_least`]), then at
/// its exact count (the frontier count, which keeps to the budget itself).
pub fn check_enumeration(variant: Variant) -> Result<EnumerationShape> {
    let board = Board::new(variant.n);
    let what = format!("enumerating the patterns of {variant}");
    // The placements are held twice (listed and grouped): 16 bytes each at least.
    let most = crate::memory::budget_bytes() / 16;
    let Some(by_lowest) = placements_by_lowest(&board, variant.piece_size, most) else {
        let placements = format!("{what} (more than {most} connected sets of {} cells)", variant.piece_size);
        return Err(beyond_budget(&placements, "at least", (most + 1).checked_mul(16)));
    };
    let shape = EnumerationShape::of(&board, variant.colours, &by_lowest);
    let table_most = crate::memory::budget_bytes() / (8 * variant.colours as u64) + 1;
    let at_least = patterns_at_least(&board, variant, &by_lowest, table_most.isqrt() + 1);
    drop(by_lowest);
    check_budget_at_least(
        &format!("{what} ({at_least} patterns or more: the table, its parts and the placements)"),
        process_bytes(shape.enumeration_bytes(at_least)),
    )?;
    let exact = super::transfer::count_patterns(variant, false)?;
    let patterns = u64::try_from(exact.patterns).ok();
    check_budget(
        &format!("{what} ({} patterns: the table, its parts and the placements)", exact.patterns),
        patterns.and_then(|n| process_bytes(shape.enumeration_bytes(n))),
    )?;
    Ok(shape)
}

/// Cells packed per byte: labels in base k (k pieces), as many as fit in 256
/// (at most 8: with one piece every label is 0, and 1^m never exceeds 256 —
/// `beams info 1c6p` used to loop here for ever).
pub(super) fn cells_per_byte(k: usize) -> usize {
    let mut m = 1;
    while m < 8 && (k as u64).pow(m as u32 + 1) <= 256 {
        m += 1;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every connected set of up to 6 cells of the 18-cell board is visited
    /// exactly once: against all 2^18 subsets, checked one by one.
    #[test]
    fn connected_sets_are_visited_once_each() {
        let board = Board::new(3);
        let mut seen = std::collections::HashSet::new();
        let mut by_size = [0u64; 7];
        for_each_connected_set(&board.neighbours, board.all_cells(), 6, &mut |set| {
            assert!(seen.insert(set), "{set:#x} visited twice");
            by_size[set.count_ones() as usize] += 1;
            true
        });
        let mut plain = [0u64; 7];
        for set in 1u64..1 << 18 {
            if set.count_ones() <= 6 && connected(&board.neighbours, set) {
                plain[set.count_ones() as usize] += 1;
            }
        }
        assert_eq!(by_size, plain);
        assert_eq!(plain[1], 18);
    }

    /// The lower bound never passes the pattern count (3c6p: 310, 6c3p: 311;
    /// docs/beams-counting.md) and is not empty.
    #[test]
    fn the_pattern_lower_bound_is_below_the_count() {
        for (name, count) in [("3c6p", 310), ("6c3p", 311), ("6c6p", 4_234_462)] {
            let variant: Variant = name.parse().unwrap();
            let board = Board::new(variant.n);
            let by_lowest = placements_by_lowest(&board, variant.piece_size, u64::MAX).unwrap();
            let bound = patterns_at_least(&board, variant, &by_lowest, u64::MAX);
            assert!(bound > 0 && bound <= count, "{name}: lower bound {bound}, count {count}");
        }
    }
}
