//! The Nim family of seed003 (test list T01–T29 of ../shared/reference/seed003-cgt.md §8).

use renyi_search::graph::WinLossDraw;
use renyi_search::graph::explicit::ExplicitGraph;
use renyi_search::graph::grundy::{HeapRule, heap_values, sum_moves};
use renyi_search::graph::loopy::Loopy;
use renyi_search::two_player::nim::boards::{Poset, chomp, chomp_rectangle};
use renyi_search::two_player::nim::cram::cram;
use renyi_search::two_player::nim::heaps::{bouton_moves, nim_moves, subtraction_table};
use renyi_search::two_player::nim::loopy_games::{PokerNim, northcott_graph, poker_nim_graph, solve_loopy};
use renyi_search::two_player::nim::tictactoe;

fn digits(text: &str) -> Vec<u32> {
    text.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

fn bits(text: &str) -> Vec<u8> {
    text.split_whitespace().map(|t| t.parse().unwrap()).collect()
}

/// T01–T04: the tables of §3.1 (x = 0..20).
#[test]
fn subtraction_tables_of_the_lecture() {
    let cases = [
        (
            vec![1, 2],
            "1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1",
            "0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1",
            "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2",
        ),
        (
            vec![1, 2, 4],
            "1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1",
            "0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1 0 1 1",
            "0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2 0 1 2",
        ),
        (
            vec![1, 3, 4],
            "1 0 1 0 1 1 1 1 0 1 0 1 1 1 1 0 1 0 1 1 1",
            "0 1 0 1 1 1 1 0 1 0 1 1 1 1 0 1 0 1 1 1 1",
            "0 1 0 1 2 3 2 0 1 0 1 2 3 2 0 1 0 1 2 3 2",
        ),
        (
            vec![1, 3, 6],
            "1 0 1 0 1 0 1 1 1 1 0 1 0 1 0 1 1 1 1 0 1",
            "0 1 0 1 0 1 1 1 1 0 1 0 1 0 1 1 1 1 0 1 0",
            "0 1 0 1 0 1 2 3 2 0 1 0 1 0 1 2 3 2 0 1 0",
        ),
    ];
    for (set, mu, nu, gamma) in cases {
        let t = subtraction_table(&set, 20);
        assert_eq!(t.misere, bits(mu), "μ for {set:?}");
        assert_eq!(t.normal, bits(nu), "ν for {set:?}");
        assert_eq!(t.grundy, digits(gamma), "γ for {set:?}");
        assert_eq!(heap_values(&HeapRule::Subtraction(set.clone()), 20), digits(gamma));
    }
}

/// T05: Satz C1G for S = {1..n−1}, n = 2..8, x ≤ 200.
#[test]
fn satz_c1g() {
    for n in 2..=8usize {
        let set: Vec<usize> = (1..n).collect();
        let t = subtraction_table(&set, 200);
        for x in 0..=200 {
            assert_eq!(t.grundy[x], (x % n) as u32);
            assert_eq!(t.normal[x] == 0, x % n == 0);
            assert_eq!(t.misere[x] == 0, x % n == 1);
        }
    }
}

/// T09, T10: Bouton; the moves to each value n are the Satz C1L moves, odd in number.
#[test]
fn nim_values_and_moves() {
    // (heaps, nim value, winning moves as (heap index, new size))
    type Case<'a> = (&'a [usize], u32, &'a [(usize, usize)]);
    let cases: [Case; 9] = [
        (&[1, 2, 3], 0, &[]),
        (&[3, 4, 5], 2, &[(0, 1)]),
        (&[1, 3, 5, 7], 0, &[]),
        (&[7, 7, 7], 7, &[(0, 0), (1, 0), (2, 0)]),
        (&[5, 9, 12], 0, &[]),
        (&[13, 17, 21], 9, &[(0, 4)]),
        (&[1, 4, 9, 16], 28, &[(3, 12)]),
        (&[6, 10, 15], 3, &[(0, 5), (1, 9), (2, 12)]),
        (&[1, 2, 4, 8, 16], 31, &[(4, 15)]),
    ];
    for (piles, gamma, winning) in cases {
        let (value, moves) = nim_moves(piles, 0);
        assert_eq!(value, gamma);
        let found: Vec<(usize, usize)> =
            moves.iter().map(|m| (m.heap, m.leaves.first().copied().unwrap_or(0))).collect();
        assert_eq!(found, winning.to_vec(), "{piles:?}");
        for target in 0..value {
            let (_, to_n) = nim_moves(piles, target);
            let listed: Vec<(usize, usize)> =
                to_n.iter().map(|m| (m.heap, m.leaves.first().copied().unwrap_or(0))).collect();
            assert_eq!(listed, bouton_moves(piles, target));
            assert_eq!(listed.len() % 2, 1);
        }
    }
    for (a, b, c) in (0..8).flat_map(|a| (0..8).flat_map(move |b| (0..8).map(move |c| (a, b, c)))) {
        assert_eq!(nim_moves(&[a, b, c], 0).0, (a ^ b ^ c) as u32);
    }
}

/// T12: all moves to a value include moves raising a component's value.
#[test]
fn sum_moves_include_raising_moves() {
    let g = heap_values(&HeapRule::Lasker, 12);
    // Lasker (3, 4): γ = 4 ⊕ 3 = 7; winning moves split 3 → (1,2) and reduce 4 → 3.
    let (value, moves) = sum_moves(&HeapRule::Lasker, &[3, 4], &g, 0);
    assert_eq!(value, 7);
    let mut after: Vec<Vec<usize>> = moves
        .iter()
        .map(|m| {
            let mut heaps = vec![[3, 4][1 - m.heap]];
            heaps.extend(&m.leaves);
            heaps.sort();
            heaps
        })
        .collect();
    after.sort();
    assert_eq!(after, vec![vec![1, 2, 4], vec![3, 3]]);
    // A component whose value rises: heap 4 (γ 3) split into (1, 3) has γ 1 ⊕ 4 = 5 > 3;
    // asking for value 5 must list it.
    let (_, up) = sum_moves(&HeapRule::Lasker, &[4], &g, 5);
    assert!(up.iter().any(|m| m.leaves == vec![1, 3]));
}

/// T13: Lasker-Nim; the mod-4 rule to 100; multi-pile exercise answers.
#[test]
fn lasker_nim() {
    let g = heap_values(&HeapRule::Lasker, 100);
    assert_eq!(g[..13].to_vec(), digits("0 1 2 4 3 5 6 8 7 9 10 12 11"));
    assert_eq!(g.len(), 101);
    for (x, &value) in g.iter().enumerate().skip(1) {
        let expected = match x % 4 {
            1 | 2 => x,
            3 => x + 1,
            _ => x - 1,
        };
        assert_eq!(value as usize, expected);
    }
    assert_eq!(sum_moves(&HeapRule::Lasker, &[1, 2, 3], &g, 0).0, 7);
    assert_eq!(sum_moves(&HeapRule::Lasker, &[2, 5, 7], &g, 0).1.len(), 3);
    assert_eq!(sum_moves(&HeapRule::Lasker, &[4, 4, 4], &g, 0).0, 3);
}

/// T14: Grundy's game to 100 and its P-positions up to 300.
#[test]
fn grundys_game() {
    let g = heap_values(&HeapRule::GrundySplit, 300);
    let first = "0 0 0 1 0 2 1 0 2 1 0 2 1 3 2 1 3 2 4 3 0 4 3 0 4 3 0 4 1 2 3 1 2 4 1 2 4 1 2 4 1 5 4 1 5 4 1 5 4 1 0 2 1 0 2 1 5 2 1 3 2 1 3 2 4 3 2 4 3 2 4 3 2 4 3 2 4 3 2 4 5 2 4 5 2 4 3 7 4 3 7 4 3 7 4 3 5 2 3 5 2";
    assert_eq!(g[..=100].to_vec(), digits(first));
    let zeros: Vec<usize> = (0..=300).filter(|&x| g[x] == 0).collect();
    assert_eq!(zeros, vec![0, 1, 2, 4, 7, 10, 20, 23, 26, 50, 53, 270, 273, 276, 282, 285, 288]);
    let (value, moves) = sum_moves(&HeapRule::GrundySplit, &[5, 6, 7], &g, 0);
    assert_eq!((value, moves.len()), (3, 2));
    assert_eq!(sum_moves(&HeapRule::GrundySplit, &[8, 13], &g, 0).0, 1);
}

/// Cram: 1×n strips = octal game 0.07 (§3.7), small boards, the 4×5 board of C205.
#[test]
fn cram_values() {
    let strip = "0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 3 0 1 1 3 0 2 1 1 0 4 5 2 7 4 0 1 1 2 0 3 1 1 0 3 3 2 2 4 4 5 5 2 3 3 0 1 1 3 0 2 1 1 0 4 5 3 7 4 8 1";
    assert_eq!(heap_values(&HeapRule::octal("0.07").unwrap(), 70), digits(strip));
    // Solved by regions, the strip is the octal game itself: every n up to 40.
    for n in 1..=40 {
        assert_eq!(cram(1, n).unwrap().grundy, digits(strip)[n], "1×{n}");
        assert_eq!(cram(n, 1).unwrap().grundy, digits(strip)[n], "{n}×1");
    }
    for n in 1..=6 {
        assert_eq!(cram(2, n).unwrap().grundy, (n % 2) as u32, "2×{n}");
    }
    let expected = [
        (3, 3, 0, None),
        (3, 4, 1, Some(7)),
        (3, 5, 1, Some(8)),
        (3, 6, 4, Some(3)),
        (4, 4, 0, None),
        (4, 5, 2, Some(5)),
    ];
    for (r, c, gamma, winning) in expected {
        let solved = cram(r, c).unwrap();
        assert_eq!(solved.grundy, gamma, "{r}×{c}");
        if let Some(w) = winning {
            assert_eq!(solved.winning_moves.len(), w, "{r}×{c}");
        }
    }
    // 4×5: the winning moves are the vertical dominoes on rows 1–2 of each column.
    let mut moves = cram(4, 5).unwrap().winning_moves;
    moves.sort();
    assert_eq!(moves, (0..5).map(|c| (5 + c, 10 + c)).collect::<Vec<_>>());
}

/// Cram by regions (Sprague-Grundy sums) equals a plain mex over whole
/// positions on every board up to 16 squares, winning moves included.
#[test]
fn cram_regions_equal_whole_positions() {
    fn plain(rows: usize, cols: usize, free: u64, memo: &mut std::collections::HashMap<u64, u32>) -> u32 {
        if let Some(&g) = memo.get(&free) {
            return g;
        }
        let mut seen = std::collections::BTreeSet::new();
        for (_, _, after) in plain_moves(rows, cols, free) {
            seen.insert(plain(rows, cols, after, memo));
        }
        let g = (0..).find(|g| !seen.contains(g)).unwrap();
        memo.insert(free, g);
        g
    }
    fn plain_moves(rows: usize, cols: usize, free: u64) -> Vec<(usize, usize, u64)> {
        let mut out = Vec::new();
        for a in 0..rows * cols {
            let (r, c) = (a / cols, a % cols);
            for b in [(c + 1 < cols).then_some(a + 1), (r + 1 < rows).then_some(a + cols)].into_iter().flatten() {
                if free >> a & 1 == 1 && free >> b & 1 == 1 {
                    out.push((a, b, free & !(1 << a) & !(1 << b)));
                }
            }
        }
        out
    }
    for rows in 1..=4 {
        for cols in 1..=16 / rows {
            let full = (1u64 << (rows * cols)) - 1;
            let mut memo = std::collections::HashMap::new();
            let g = plain(rows, cols, full, &mut memo);
            let mut winning: Vec<(usize, usize)> = plain_moves(rows, cols, full)
                .into_iter()
                .filter(|&(_, _, after)| plain(rows, cols, after, &mut memo) == 0)
                .map(|(a, b, _)| (a, b))
                .collect();
            winning.sort_unstable();
            let solved = cram(rows, cols).unwrap();
            assert_eq!((solved.grundy, solved.winning_moves), (g, winning), "{rows}×{cols}");
        }
    }
}

/// T15–T18: Chomp on rectangles, squares and chains.
#[test]
fn chomp_values() {
    for n in 1..=8 {
        assert_eq!(chomp_rectangle(1, n).unwrap().grundy, n as u32 - 1, "T15");
        assert_eq!(chomp(&Poset::chain(n).unwrap()).unwrap().grundy, n as u32 - 1, "T18");
    }
    for n in 2..=7 {
        let solved = chomp_rectangle(n, n).unwrap();
        assert_eq!(solved.winning_moves, vec![(1, 1)], "T16 {n}×{n}");
    }
    let table = [
        (2, 2, 2, vec![(1, 1)]),
        (2, 3, 4, vec![(1, 2)]),
        (3, 2, 4, vec![(2, 1)]),
        (3, 3, 5, vec![(1, 1)]),
        (4, 3, 9, vec![(2, 1)]),
        (3, 4, 9, vec![(1, 2)]),
        (4, 4, 6, vec![(1, 1)]),
        (5, 3, 11, vec![(3, 2)]),
        (4, 5, 13, vec![(2, 2)]),
        (6, 4, 16, vec![(2, 1)]),
        (7, 3, 13, vec![(4, 2)]),
        (5, 6, 21, vec![(2, 3)]),
        (6, 6, 13, vec![(1, 1)]),
        (7, 7, 20, vec![(1, 1)]),
    ];
    for (m, n, gamma, winning) in table {
        let solved = chomp_rectangle(m, n).unwrap();
        assert_eq!((solved.grundy, solved.winning_moves), (gamma, winning), "{m}×{n}");
    }
    assert_eq!(chomp_rectangle(4, 3).unwrap().positions, 34);
    assert_eq!(chomp_rectangle(4, 4).unwrap().positions, 69);
}

/// T21, T28: tic-tac-toe is a draw; terminal draws are not losses.
#[test]
fn tictactoe_is_a_draw() {
    let g = tictactoe::graph();
    assert_eq!(g.len(), 5478);
    let s = g.solve();
    assert_eq!(s.get(0), Some(WinLossDraw::Draw));
    let (mut x, mut o, mut d) = (0, 0, 0);
    for v in 0..g.len() {
        let x_moves = g.state(v).iter().filter(|&&c| c != 0).count() % 2 == 0;
        match s.get(v).unwrap() {
            WinLossDraw::Draw => d += 1,
            value => {
                if value.is_win() == x_moves {
                    x += 1
                } else {
                    o += 1
                }
            }
        }
    }
    assert_eq!((x, o, d), (2936, 1474, 1068));
    let corner_adjacent = g.index_of(&[1, 2, 0, 0, 0, 0, 0, 0, 0]).unwrap();
    assert_eq!(s.get(corner_adjacent), Some(WinLossDraw::Win(5)));
}

/// T22: Poker-Nim has no draws; W ⇔ ⊕x ≠ 0; Eisermann's time bound satisfies C2A;
/// the generalised value is ⊕x; optimal lengths of the listed examples.
#[test]
fn poker_nim() {
    let g = poker_nim_graph(3, 3, 3);
    let (outcomes, loopy) = solve_loopy(&g);
    assert!(g.len() >= 15_000);
    for v in 0..g.len() {
        let s = g.state(v);
        let xor = s.piles.iter().fold(0, |a, &x| a ^ x);
        assert_ne!(outcomes[v], WinLossDraw::Draw);
        assert_eq!(outcomes[v].is_win(), xor != 0);
        assert_eq!(loopy[v], Loopy::Finite(xor));
        let w = s.time_bound();
        let followers: Vec<&PokerNim> = g.successors(v).iter().map(|&t| g.state(t as usize)).collect();
        if followers.is_empty() {
            assert_eq!(w, 0, "(T)");
        } else if xor == 0 {
            assert!(
                w >= 1 && followers.iter().all(|f| f.piles.iter().fold(0, |a, &x| a ^ x) != 0 && f.time_bound() <= w),
                "(A0)"
            );
        } else {
            assert!(followers.iter().any(|f| f.piles.iter().fold(0, |a, &x| a ^ x) == 0 && f.time_bound() < w), "(A1)");
        }
        let plies = match outcomes[v] {
            WinLossDraw::Win(d) | WinLossDraw::Loss(d) => d,
            WinLossDraw::Draw => unreachable!(),
        };
        assert!(plies <= 2 * w);
    }
    let examples = [
        ((vec![1, 2, 3], 0, 0), WinLossDraw::Loss(12)),
        ((vec![1, 2, 2], 1, 0), WinLossDraw::Win(9)),
        ((vec![1, 1, 0], 2, 0), WinLossDraw::Loss(8)),
        ((vec![2, 3, 1], 0, 3), WinLossDraw::Loss(12)),
    ];
    for ((piles, mover, other), expected) in examples {
        let v = g.index_of(&PokerNim { piles, mover, other }).unwrap();
        assert_eq!(outcomes[v], expected);
    }
    let empty = poker_nim_graph(3, 0, 5);
    let v = empty.index_of(&PokerNim { piles: vec![0, 0, 0], mover: 5, other: 5 }).unwrap();
    assert_eq!(solve_loopy(&empty).0[v], WinLossDraw::Loss(10));
}

/// T23: Northcott's game (model of §5.2): no draws; the mover wins ⇔ XOR of gaps ≠ 0.
#[test]
fn northcott() {
    for (columns, height) in [(1, 4), (2, 4), (2, 5), (2, 6), (3, 4), (3, 5)] {
        let g: ExplicitGraph<_> = northcott_graph(columns, height);
        let (outcomes, _) = solve_loopy(&g);
        assert_eq!(outcomes.len(), g.len());
        for (v, outcome) in outcomes.iter().enumerate() {
            assert_ne!(*outcome, WinLossDraw::Draw);
            assert_eq!(outcome.is_win(), g.state(v).gap_xor() != 0, "{columns}×{height}");
        }
    }
}

/// The work a heap table announces (its progress total and the estimate
/// `solve grundy` prints for long jobs) is the number of options it examines,
/// for every rule; and Nim's direct marking gives γ(x) = x.
#[test]
fn heap_table_work_counts_every_option() {
    use renyi_search::graph::grundy::heap_table_options;
    let rules = [
        HeapRule::Nim,
        HeapRule::Lasker,
        HeapRule::GrundySplit,
        HeapRule::Subtraction(vec![1, 3, 4]),
        HeapRule::octal("0.07").unwrap(),
        HeapRule::octal("0.137").unwrap(),
        HeapRule::octal("0.4007").unwrap(),
    ];
    for rule in &rules {
        for upto in [0, 1, 2, 7, 40] {
            let listed: u64 = (0..=upto).map(|x| rule.options(x).len() as u64).sum();
            assert_eq!(heap_table_options(rule, upto), listed, "{rule:?} up to {upto}");
        }
    }
    assert_eq!(heap_table_options(&HeapRule::Nim, 2_000_000), 2_000_000 * 2_000_001 / 2);
    let nim = heap_values(&HeapRule::Nim, 3000);
    assert!(nim.iter().enumerate().all(|(x, &g)| g as usize == x));
}
