//! Benchmark (not a test) for Bridg-It (thesis ch. 5, issue 50's speed targets):
//!
//! 1. Shannon vs Shannon over all tie branches (`analysis::self_play`) for
//!    M = 2..12, or M = 2..20 with `full` (issue target: M = 2..20 in under
//!    10 minutes on 2 cores): wall seconds and positions per M, so the growth
//!    with M can be read off.
//! 2. One potential solve on the empty M = 20 board (382 nodes, 761 edges):
//!    direct elimination and Gauss–Seidel / SOR to a certified max-norm
//!    error of 1e-10 (`iterative::certified_sor`; issue target: under a
//!    millisecond with the iterative solver), mean wall and thread-CPU time of
//!    `REPEAT` solves (default 200), the max-norm distance to the direct
//!    solution and the certified bound.
//!
//! `cargo bench --bench bridg_it [-- full | solve-only]`.

use renyi_search::two_player::connection::bridgit::analysis::self_play;
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::network::Network;
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::solver::{Solver, StartVector};
use std::time::Instant;

/// mimalloc, as in the program (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let full = std::env::args().any(|a| a == "full");
    let repeat: u32 = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(200);
    println!("threads: {}", rayon::current_num_threads());
    let board = Board::bridgit(20).expect("order 20");
    let net = Network::of(&board, &Position::start(&board, Player::Cut));
    let exact = Solver::Direct.potentials(&net).x;
    let mut solvers = vec![("direct".to_string(), Solver::Direct), ("Gauss–Seidel ω = 1".into(), gauss_seidel(1.0))];
    for omega in [1.6, 1.65, 1.7, 1.75, 1.8, 1.85] {
        solvers.push((format!("SOR ω = {omega}"), gauss_seidel(omega)));
    }
    for (name, solver) in solvers {
        let (clock, cpu) = (Instant::now(), thread_cpu_seconds());
        let mut p = solver.potentials(&net);
        for _ in 1..repeat {
            p = solver.potentials(&net);
        }
        let per = clock.elapsed().as_secs_f64() / repeat as f64;
        let per_cpu = (thread_cpu_seconds() - cpu) / repeat as f64;
        let err = p.x.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!(
            "M = 20 potential solve, {name}: {:.3} ms wall, {:.3} ms CPU, max |x − x_direct| = {err:.1e}, bound {:.1e}",
            per * 1e3,
            per_cpu * 1e3,
            p.error_bound
        );
    }
    if std::env::args().any(|a| a == "solve-only") {
        return;
    }
    let max = if full { 20 } else { 12 };
    let all = Instant::now();
    for m in 2..=max {
        let b = Board::bridgit(m).expect("order");
        let clock = Instant::now();
        let r = self_play(&b, Player::Cut).expect("self-play");
        println!(
            "self-play M = {m}: first player wins {} ({} positions), {:.2} s",
            r.first_wins,
            r.states,
            clock.elapsed().as_secs_f64()
        );
    }
    println!("self-play M = 2..{max}: {:.1} s in all", all.elapsed().as_secs_f64());
}

/// CPU seconds of the calling thread (Linux: /proc/thread-self/schedstat, ns), NaN elsewhere:
/// on the shared machine wall time per solve is mostly other processes' time.
fn thread_cpu_seconds() -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<f64>().ok())
        .map_or(f64::NAN, |ns| ns * 1e-9)
}

fn gauss_seidel(omega: f64) -> Solver {
    Solver::GaussSeidel { omega, start: StartVector::Constant(0.5), iterations: 1_000_000, tolerance: 1e-10 }
}
