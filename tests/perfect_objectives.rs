//! Perfect strategies under constraints (issue 27, item 2): depth caps, hard
//! mode and the two lexicographic objectives, against an exhaustive
//! minimisation written here (bit sets, every query at every node, no bounds,
//! no symmetry), and the literature's MM-1296 anchor.

use renyi_search::games::bulls_and_cows::BullsAndCows;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::progress::Progress;
use renyi_search::search::perfect::{Constraints, Objective, PerfectSearch, TableKeys, optimise, solve_constrained};
use renyi_search::search::tree::{Replay, export, verify};
use renyi_search::search::{CodeId, Rules};
use std::collections::HashMap;

/// Exhaustive least totals T(k) of a game whose queries are its codes
/// (k = queries allowed); `answer(q, c)` < 64.
struct Brute<'a> {
    answer: &'a dyn Fn(usize, usize) -> u16,
    n: usize,
    hard: bool,
    memo: HashMap<(u128, u32), Option<u64>>,
}

impl<'a> Brute<'a> {
    fn new(n: usize, answer: &'a dyn Fn(usize, usize) -> u16, hard: bool) -> Self {
        assert!(n <= 128, "bit sets of at most 128 codes");
        Brute { answer, n, hard, memo: HashMap::new() }
    }

    /// Least total over the codes of `set` if each must be found within
    /// `left` queries (`None`: impossible). Asking code q splits the set by
    /// (black, white); the class of q itself is solved by that query.
    fn total(&mut self, set: u128, left: u32) -> Option<u64> {
        let size = set.count_ones() as u64;
        if size == 1 {
            return (left >= 1).then_some(1);
        }
        // Every query splits the set, so |set| queries always suffice.
        let left = left.min(size as u32);
        if left == 0 {
            return None;
        }
        if let Some(&t) = self.memo.get(&(set, left)) {
            return t;
        }
        let mut best: Option<u64> = None;
        for q in 0..self.n {
            if self.hard && set >> q & 1 == 0 {
                continue;
            }
            let mut classes = [0u128; 64];
            let mut rest = set & !(1u128 << q);
            while rest != 0 {
                let c = rest.trailing_zeros() as usize;
                rest &= rest - 1;
                classes[(self.answer)(q, c) as usize] |= 1 << c;
            }
            if set >> q & 1 == 0 && classes.contains(&set) {
                continue; // no information
            }
            let mut total = Some(size);
            for &class in classes.iter().filter(|&&class| class != 0) {
                total = match self.total(class, left - 1) {
                    Some(t) => total.map(|a| a + t),
                    None => None,
                };
                if total.is_none() {
                    break;
                }
            }
            if let Some(t) = total {
                best = Some(best.map_or(t, |b: u64| b.min(t)));
            }
        }
        self.memo.insert((set, left), best);
        best
    }

    fn all(&self) -> u128 {
        if self.n == 128 { u128::MAX } else { (1u128 << self.n) - 1 }
    }
}

/// T(k) for k = 1..=6 and unlimited, plain and hard mode, and both
/// objectives, against the exhaustive values; the trees of the capped optima
/// replay within their caps (and in hard mode ask possible codes only).
/// Returns the exhaustive (unlimited, within 4) totals, plain and hard mode.
fn check_variant<P: Replay>(mm: &P, answer: &dyn Fn(usize, usize) -> u16) -> Vec<(u64, Option<u64>)> {
    let mut found = Vec::new();
    for hard in [false, true] {
        let mut brute = Brute::new(mm.code_count(), answer, hard);
        let all = brute.all();
        let unlimited = brute.total(all, u32::MAX).unwrap();
        for k in 1..=6u32 {
            let expected = brute.total(all, k);
            let constraints = Constraints { max_depth: Some(k), possible_only: hard };
            let (found, search) = solve_constrained(mm, constraints, &Progress::none()).unwrap();
            assert_eq!(found.as_ref().map(|r| r.total), expected, "{} within {k}, hard {hard}", mm.name());
            if let Some(r) = found {
                let replay = verify(mm, &export(&search, mm).unwrap()).unwrap();
                assert_eq!(replay.total, r.total);
                assert!(replay.max_depth <= k as u64 && r.max_depth == replay.max_depth, "{}", mm.name());
                assert!(!hard || replay.all_possible, "{}: hard mode asks possible codes only", mm.name());
            }
        }
        let constraints = Constraints { max_depth: None, possible_only: hard };
        let (plain, _) = solve_constrained(mm, constraints, &Progress::none()).unwrap();
        assert_eq!(plain.unwrap().total, unlimited, "{}, hard {hard}", mm.name());
        // The objectives from the exhaustive T(k): the least feasible k, and
        // the least k at which the unlimited optimum is reached.
        let totals: Vec<Option<u64>> = (0..=mm.code_count() as u32).map(|k| brute.total(all, k)).collect();
        let least_depth = totals.iter().position(|t| t.is_some()).unwrap();
        let at_least_depth = totals[least_depth].unwrap();
        let depth_of_optimum = totals.iter().position(|&t| t == Some(unlimited)).unwrap();
        found.push((unlimited, totals.get(4).copied().flatten()));
        for (objective, expected) in [
            (Objective::DepthThenTotal, (at_least_depth, least_depth as u64)),
            (Objective::TotalThenDepth, (unlimited, depth_of_optimum as u64)),
        ] {
            let o = optimise(mm, constraints, objective, TableKeys::Exact, &Progress::none()).unwrap();
            let r = o.result.unwrap();
            assert_eq!((r.total, r.max_depth), expected, "{} {objective:?}, hard {hard}", mm.name());
            let replay = verify(mm, &export(&o.search, mm).unwrap()).unwrap();
            assert_eq!((replay.total, replay.max_depth), expected, "{} {objective:?} tree", mm.name());
        }
    }
    found
}

#[test]
fn caps_and_hard_mode_equal_exhaustive_minimisation_on_small_mastermind() {
    for (pegs, colours, distinct) in
        [(2, 3, false), (2, 4, false), (3, 3, false), (3, 4, false), (3, 4, true), (4, 4, true), (3, 5, true)]
    {
        let mm = Mastermind::new(pegs, colours, distinct).unwrap();
        check_variant(&mm, &|q, c| mm.answer(q as CodeId, c as CodeId));
    }
}

/// Bulls and Cows with 3 digits of 6 (120 codes): 436 in all, nothing within
/// 4 queries, 437 in hard mode — all from the exhaustive minimisation (on
/// bulls and cows counted here), which the search must match.
#[test]
fn bulls_and_cows_3_of_6_equal_exhaustive_minimisation() {
    let game = BullsAndCows::new(3, 6).unwrap();
    let digits: Vec<Vec<u8>> = (0..game.code_count()).map(|c| game.code_label(c as CodeId).into_bytes()).collect();
    let n = digits.len();
    let table: Vec<u16> = (0..n * n)
        .map(|i| {
            let (g, s) = (&digits[i / n], &digits[i % n]);
            let bulls = g.iter().zip(s).filter(|(a, b)| a == b).count();
            let cows = g.iter().filter(|d| s.contains(d)).count() - bulls;
            (bulls * 4 + cows) as u16
        })
        .collect();
    let bulls_cows = |q: usize, c: usize| table[q * n + c];
    let exhaustive = check_variant(&game, &bulls_cows);
    assert_eq!(exhaustive, [(436, None), (437, None)]);
}

/// MM-1296 within 5 guesses: 5626 (Koyama–Lai 1993); within 4: none.
#[test]
fn mm1296_within_five_guesses_is_5626() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let five = Constraints { max_depth: Some(5), possible_only: false };
    let (found, search) = solve_constrained(&mm, five, &Progress::none()).unwrap();
    assert_eq!(found.map(|r| (r.total, r.max_depth)), Some((5626, 5)));
    let replay = verify(&mm, &export(&search, &mm).unwrap()).unwrap();
    assert_eq!((replay.total, replay.max_depth), (5626, 5));
    // 13 classes besides the solving one at most: 1 + 13 + 13² = 183 codes
    // within 3 queries, 183 + 13³ = 2380 within 4, so no strategy takes fewer than 4.
    let plain = PerfectSearch::new(&mm);
    assert_eq!((plain.capacity(3, 13), plain.capacity(4, 13), plain.depth_lower_bound()), (183, 2380, 4));
    let four = Constraints { max_depth: Some(4), possible_only: false };
    assert!(solve_constrained(&mm, four, &Progress::none()).unwrap().0.is_none());
}
