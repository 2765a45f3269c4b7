//! Perfect play on tiny and degenerate Mastermind variants against a plain
//! exhaustive optimum (issue: hardening, item 2 — MM(1,1) was reported as
//! total 2 though one query finds the single code).

use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::perfect::solve_perfect;
use renyi_search::search::{CodeId, Rules};
use std::collections::{BTreeMap, HashMap};

/// Least total number of queries over all codes of `set`, by trying every
/// query at every node (queries are codes; asking the secret ends the game).
fn brute_force(mm: &Mastermind, set: &[CodeId], memo: &mut HashMap<Vec<CodeId>, u64>) -> u64 {
    if set.len() == 1 {
        return 1;
    }
    if let Some(&t) = memo.get(set) {
        return t;
    }
    let n = set.len() as u64;
    let mut best = u64::MAX;
    for q in 0..mm.code_count() as CodeId {
        let mut classes: BTreeMap<u16, Vec<CodeId>> = BTreeMap::new();
        for &c in set {
            if c != q {
                classes.entry(mm.answer(q, c)).or_default().push(c);
            }
        }
        if classes.len() == 1 && !set.contains(&q) {
            continue; // no progress
        }
        let mut total = n;
        for class in classes.values() {
            total += brute_force(mm, class, memo);
        }
        best = best.min(total);
    }
    memo.insert(set.to_vec(), best);
    best
}

#[test]
fn perfect_equals_exhaustive_optimum_on_tiny_variants() {
    for (pegs, colours, distinct) in [
        (1, 1, false),
        (1, 2, false),
        (1, 3, false),
        (2, 1, false),
        (3, 1, false),
        (2, 2, false),
        (2, 3, false),
        (3, 2, false),
        (2, 2, true),
        (3, 3, true),
        (2, 3, true),
    ] {
        let mm = Mastermind::new(pegs, colours, distinct).unwrap();
        let all: Vec<CodeId> = (0..mm.code_count() as CodeId).collect();
        let expected = brute_force(&mm, &all, &mut HashMap::new());
        let (result, _) = solve_perfect(&mm);
        assert_eq!(result.total, expected, "MM({pegs},{colours}) distinct = {distinct}");
    }
}
