//! Benchmark (not a test): the exact α-curve of one Beams(6c,6p) subtree two
//! queries below the root, as a work unit of a 6c6p curve run computes it
//! (the strategy's queries at α = FROM, then the given answers; the curve of
//! the subtree on [FROM, TO]). Prints wall time, pieces, the total at both
//! ends and seconds per million codes, the figure the run's cost is quoted
//! in (docs/curves-6c6p.md); a faster version must print the same pieces and
//! totals.
//!
//! `cargo bench --bench curve_unit [-- FROM TO ANSWER1 ANSWER2 [lex-d|mix]]`
//! (default: [1/2, 1], answers 3 and 4, LEX-c: 0.64 M codes). Needs the 6c6p
//! code table in codes/ (built on first use).

use renyi_search::curve::{Domain, Point, curve};
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::strategy::decide;
use renyi_search::search::subproblem::Subproblem;
use renyi_search::search::{Rules, SpeedHooks, Strategy, TieRule};
use std::time::Instant;

/// mimalloc, as in the program (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).filter(|a| !a.starts_with("--")).collect();
    let arg = |i: usize, default: &str| args.get(i).cloned().unwrap_or_else(|| default.to_string());
    let (from, to): (Alpha, Alpha) = (arg(0, "1/2").parse().expect("FROM"), arg(1, "1").parse().expect("TO"));
    let path: Vec<u16> = [arg(2, "3"), arg(3, "4")].iter().map(|a| a.parse().expect("answer")).collect();
    let (order, tie) = match arg(4, "lex-c").as_str() {
        "lex-d" => (QueryOrder::DiagonalFirst, TieRule::lex()),
        "mix" => (QueryOrder::ColourFirst, TieRule::mix()),
        _ => (QueryOrder::ColourFirst, TieRule::lex()),
    };
    let (patterns, _) =
        load_or_build("6c6p".parse().expect("variant"), Some(std::path::Path::new("codes"))).expect("6c6p table");
    let g = Beams::new(patterns, order, Penalty::BestGuess).expect("Beams(6c,6p)");
    let strategy = Strategy::new(from, tie);
    let (mut state, mut set) = (g.initial_state(), g.full_set());
    for &answer in &path {
        let (_, q) = decide(&g, &strategy, &state, &set)[0];
        let mut counts = vec![0u64; g.answer_count()];
        g.count_answers(q, &set, &mut counts);
        let classes: Vec<(usize, u64)> = counts.into_iter().enumerate().filter(|c| c.1 > 0).collect();
        eprintln!("answers (answer, codes) of the query: {classes:?}");
        set = g.restrict(q, answer, &set);
        state = g.next_state(&state, q);
    }
    let unit = Subproblem { inner: &g, state, set };
    let codes = unit.inner.set_size(&unit.set);
    eprintln!("subtree {path:?} at {from}: {codes} codes");
    let domain = Domain::closed(Point::exact(from), Point::exact(to));
    let clock = Instant::now();
    let c = curve(&unit, tie, &domain, None);
    let seconds = clock.elapsed().as_secs_f64();
    let (first, last) = (c.segments.first().expect("a piece"), c.segments.last().expect("a piece"));
    println!(
        "Beams(6c,6p) subtree {path:?} {tie} on [{from}, {to}]: {codes} codes, {} pieces, {} nodes, \
         totals {} .. {}, uncertified {}, {seconds:.2} s, {:.2} s per million codes",
        c.segments.len(),
        c.nodes_evaluated,
        first.total(),
        last.total(),
        c.uncertified,
        seconds * 1e6 / codes as f64
    );
}
