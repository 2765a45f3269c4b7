//! The frontier count of Beams patterns (src/games/beams/transfer.rs) against
//! independent oracles: the explicit enumeration of patterns.rs, and a plain
//! counting search over the placements written here (lowest free cell first),
//! with and without the border-contact rule (thesis §4.4.2).

use renyi_search::games::beams::Variant;
use renyi_search::games::beams::geometry::Board;
use renyi_search::games::beams::patterns::{enumerate, placements};
use renyi_search::games::beams::transfer::{count_patterns, count_tilings, count_tilings_without_distance_bound};

fn v(s: &str) -> Variant {
    s.parse().unwrap()
}

/// Tilings counted by search: the lowest free cell is covered by a placement
/// whose lowest cell it is. With `border`, every piece must meet `ring`.
fn search_count(n: i32, piece_size: usize, border: bool) -> u128 {
    let board = Board::new(n);
    let edge = board.n - 1;
    let ring = board
        .cells
        .iter()
        .enumerate()
        .filter(|(_, (q, r))| q.abs().max(r.abs()).max((q + r).abs()) == edge)
        .fold(0u64, |m, (i, _)| m | 1 << i);
    let mut by_lowest = vec![Vec::new(); board.cell_count()];
    for p in placements(&board, piece_size) {
        if !border || p & ring != 0 {
            by_lowest[p.trailing_zeros() as usize].push(p);
        }
    }
    fn go(by_lowest: &[Vec<u64>], free: u64) -> u128 {
        if free == 0 {
            return 1;
        }
        by_lowest[free.trailing_zeros() as usize]
            .iter()
            .filter(|&&p| p & !free == 0)
            .map(|&p| go(by_lowest, free & !p))
            .sum()
    }
    go(&by_lowest, board.all_cells())
}

fn tilings(n: i32, p: usize, border: bool) -> u128 {
    count_tilings(n, p, border, |_, _| {}).unwrap().patterns
}

/// Every split of the boards of edge 2 and 3: the enumeration (up to 8
/// pieces, the colours a variant allows) and the search.
#[test]
fn small_boards_equal_the_enumeration() {
    for (n, cells) in [(2, 6), (3, 18)] {
        for p in (1..=cells).filter(|p| cells % p == 0) {
            let counted = count_tilings(n, p, false, |_, _| {}).unwrap();
            assert_eq!(counted.patterns, search_count(n, p, false), "n={n} p={p}");
            assert_eq!(counted.states.last(), Some(&1), "n={n} p={p}: one final state");
            if let Ok(variant) = Variant::new(cells / p, p) {
                assert_eq!(counted.patterns, enumerate(variant).count() as u128, "{variant}");
            }
            assert_eq!(tilings(n, p, true), search_count(n, p, true), "n={n} p={p} border rule");
        }
    }
    assert_eq!(tilings(3, 18, false), 1, "the board is connected");
}

/// Table 4.8 anchors: 310 and 311 patterns, 1860 and 223 920 codes.
#[test]
fn table_4_8_edge_3() {
    let a = count_patterns(v("3c6p"), false).unwrap();
    let b = count_patterns(v("6c3p"), false).unwrap();
    assert_eq!((a.patterns, a.codes()), (310, Some(1860)));
    assert_eq!((b.patterns, b.codes()), (311, Some(223_920)));
}

/// The edge-4 splits that the search counts in seconds.
#[test]
fn edge_4_small_splits_equal_the_search() {
    for p in [1, 2, 3, 4] {
        assert_eq!(tilings(4, p, false), search_count(4, p, false), "p={p}");
    }
}

/// The distance bound on parts only drops states without a completion: the
/// counts with and without it agree where parts of three or more per piece
/// occur (a bound on every pair of parts lost 1 341 tilings of 4c9p).
#[test]
fn the_distance_bound_keeps_the_count() {
    for (n, p, border) in [(4, 9, false), (4, 12, false), (4, 18, false), (4, 6, true), (3, 9, true)] {
        let plain = count_tilings_without_distance_bound(n, p, border).unwrap();
        let bounded = count_tilings(n, p, border, |_, _| {}).unwrap();
        assert_eq!(bounded.patterns, plain.patterns, "n={n} p={p} border={border}");
        assert!(bounded.peak_states <= plain.peak_states);
    }
}

/// Beams(6c,6p): the explicit table (4 234 462 patterns, Table 4.8).
#[test]
#[ignore = "enumerates 4.2 million patterns (about a minute)"]
fn standard_equals_the_enumeration() {
    let counted = count_patterns(v("6c6p"), false).unwrap();
    assert_eq!(counted.patterns, enumerate(v("6c6p")).count() as u128);
    assert_eq!(counted.patterns, 4_234_462);
    assert_eq!(count_patterns(v("6c6p"), true).unwrap().patterns, search_count(4, 6, true));
}

/// Beams(4c,9p), which has no table: the counting search. (The search is
/// not run for 2c18p: the connected 18-cell sets of the board are too many
/// to list.)
#[test]
#[ignore = "the counting search takes minutes"]
fn four_pieces_of_nine_equal_the_search() {
    assert_eq!(tilings(4, 9, false), search_count(4, 9, false));
}

/// Beams(3c,12p): the counting search.
#[test]
#[ignore = "the counting search takes many minutes"]
fn three_pieces_of_twelve_equal_the_search() {
    assert_eq!(tilings(4, 12, false), search_count(4, 12, false));
}
