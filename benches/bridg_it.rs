//! Benchmark (not a test) for Bridg-It (thesis ch. 5, issue 50's speed targets):
//!
//! 1. Shannon vs Shannon over all tie branches (`analysis::self_play`) for
//!    M = 2..12, or M = 2..20 with `full` (issue target: M = 2..20 in under
//!    10 minutes on 2 cores): wall seconds and positions per M, so the growth
//!    with M can be read off.
//! 2. One potential solve on the empty M = 20 board (382 nodes, 761 edges):
//!    direct elimination and Gauss–Seidel / SOR to a tolerance of 1e-10
//!    (issue target: under a millisecond with the iterative solver), mean of
//!    `REPEAT` solves (default 200) and the max-norm distance to the direct
//!    solution.
//!
//! `cargo bench --bench bridg_it [-- full]`.

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
    let solvers = [
        ("direct", Solver::Direct),
        ("Gauss–Seidel ω = 1", gauss_seidel(1.0)),
        ("SOR ω = 1.7", gauss_seidel(1.7)),
        ("SOR ω = 1.85", gauss_seidel(1.85)),
    ];
    for (name, solver) in solvers {
        let clock = Instant::now();
        let mut x = Vec::new();
        for _ in 0..repeat {
            x = solver.potentials(&net).x;
        }
        let per = clock.elapsed().as_secs_f64() / repeat as f64;
        let err = x.iter().zip(&exact).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        println!("M = 20 potential solve, {name}: {:.3} ms, max |x − x_direct| = {err:.1e}", per * 1e3);
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

fn gauss_seidel(omega: f64) -> Solver {
    Solver::GaussSeidel { omega, start: StartVector::Constant(0.5), iterations: 1_000_000, tolerance: 1e-10 }
}
