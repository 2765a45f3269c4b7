//! The plain H_α choice shared by the plain evaluators of the tests: no
//! floating-point band, no memo, no parallelism.

use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::score::RenyiScore;
use renyi_search::search::Rules;
use renyi_search::search::strategy::class_sizes;
use std::cmp::Ordering;

/// The tied best queries on `set` by pairwise exact comparison of H_α (only
/// queries that split the set), the possible secrets among them first if any.
pub fn tied_best(p: &Mastermind, score: &RenyiScore, set: &[u32]) -> Vec<u32> {
    let mut counts = vec![0u64; p.answer_count()];
    let set_vec = set.to_vec();
    let mut best: Vec<(u32, Vec<u64>)> = Vec::new();
    for q in 0..p.query_count() as u32 {
        let sizes = class_sizes(p, q, &set_vec, &mut counts);
        if sizes.len() < 2 {
            continue;
        }
        match best.first().map(|b| score.compare(&sizes, &b.1)) {
            None | Some(Ordering::Equal) => best.push((q, sizes)),
            Some(Ordering::Greater) => best = vec![(q, sizes)],
            Some(Ordering::Less) => {}
        }
    }
    let ties: Vec<u32> = best.into_iter().map(|b| b.0).collect();
    let possible: Vec<u32> = ties.iter().copied().filter(|q| set.contains(q)).collect();
    if possible.is_empty() { ties } else { possible }
}

/// H_α-LEX: plays `secret` starting from the codes `start`; the number of guesses.
pub fn lex_play(p: &Mastermind, score: &RenyiScore, start: &[u32], secret: u32) -> u64 {
    let mut set = start.to_vec();
    let mut guesses = 0;
    loop {
        if set.len() == 1 {
            return guesses + 1;
        }
        let q = tied_best(p, score, &set)[0];
        guesses += 1;
        if p.black_white(q, secret) == (p.pegs(), 0) {
            return guesses;
        }
        let answer = p.answer(q, secret);
        set.retain(|&c| p.answer(q, c) == answer);
    }
}
