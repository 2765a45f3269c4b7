//! Benchmark (not a test): the exact H_α-LEX analysis of one real work unit of
//! Beams(6c,6p) — the subtree below the first two queries reached by a given
//! answer path — and of the whole of Beams(6c,3p). Prints wall time and µs per
//! code; the totals are printed so that a faster version can be checked to give
//! the same numbers.
//!
//! `cargo bench --bench beams_subtree [-- ALPHA ANSWER1 ANSWER2 [mix]]`, or
//! `cargo bench --bench beams_subtree -- small` for the 6c3p game alone (short
//! enough for `valgrind --tool=callgrind`, whose instruction counts do not
//! depend on the machine's load).
//! (default: α = 1, path 3,1 — a unit of 16 867 440 codes under LEX-c; with
//! `mix` the unit is analysed under MIX, whose first two levels on 6c6p H_1
//! are tie-free, so the unit is the same).

use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::{enumerate, load_or_build};
use renyi_search::search::strategy::decide;
use renyi_search::search::subproblem::Subproblem;
use renyi_search::search::{Rules, RunOptions, SpeedHooks, Strategy, TieRule, analyze};
use std::time::Instant;

/// mimalloc: the analysis allocates many small, short-lived code sets and
/// outcomes; measured faster than the system allocator (see README, Speed).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let small_only = args.first().map(String::as_str) == Some("small");
    if small_only {
        args.remove(0);
    }
    let alpha = args.first().map(String::as_str).unwrap_or("1");
    let path: Vec<u16> =
        if args.len() >= 3 { args[1..3].iter().map(|a| a.parse().expect("answer")).collect() } else { vec![3, 1] };
    let tie = if args.get(3).map(String::as_str) == Some("mix") { TieRule::mix() } else { TieRule::lex() };
    let strategy = Strategy::new(alpha.parse().expect("alpha"), tie);

    let small = Beams::new(enumerate("6c3p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let clock = Instant::now();
    let a = analyze(&small, strategy, RunOptions::default());
    report("Beams(6c,3p) whole game", a.codes, &a.total, clock.elapsed().as_secs_f64());
    if small_only {
        return;
    }

    let (patterns, _) =
        load_or_build("6c6p".parse().unwrap(), Some(std::path::Path::new("codes"))).expect("6c6p table");
    let g = Beams::new(patterns, QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let (mut state, mut set) = (g.initial_state(), g.full_set());
    for &answer in &path {
        let (_, q) = decide(&g, &strategy, &state, &set)[0];
        set = g.restrict(q, answer, &set);
        state = g.next_state(&state, q);
    }
    let unit = Subproblem { inner: &g, state, set };
    let clock = Instant::now();
    let a = analyze(&unit, strategy, RunOptions::default());
    report(&format!("Beams(6c,6p) unit {path:?} {tie}"), a.codes, &a.total, clock.elapsed().as_secs_f64());
}

fn report(what: &str, codes: u64, total: &str, seconds: f64) {
    println!("{what}: {codes} codes, total {total}, {seconds:.2} s, {:.3} µs per code", seconds * 1e6 / codes as f64);
}
