//! Benchmark (not a test): the perfect search (branch and bound, no tree or
//! certificate) on MM-360, MM-1296 and MM(4,7), `REPEAT` times each (default
//! 3). Prints the total (so a faster version can be checked to give the same
//! optimum), the wall seconds and the process CPU seconds of each run, and
//! the threads used. Issue 27's targets: MM-1296 at least 10× less CPU than
//! MasterMindTurbo (15.7 s single-threaded on the project's machine), MM(4,7)
//! under 60 s wall on 2 cores.
//!
//! `cargo bench --bench perfect [-- quick]` (`quick`: MM-360 and MM-1296 only);
//! `RAYON_NUM_THREADS=1` for one thread.

use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::Presentation;
use renyi_search::search::perfect::solve_perfect;
use std::time::Instant;

/// mimalloc, as in the program (src/main.rs).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// CPU seconds (user + system) of this process so far, from /proc/self/stat.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: f64 = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0) // USER_HZ, 100 on Linux
}

fn main() {
    let quick = std::env::args().any(|a| a == "quick");
    let repeat: usize = std::env::var("REPEAT").ok().and_then(|r| r.parse().ok()).unwrap_or(3);
    println!("threads: {}", rayon::current_num_threads());
    let mut games = vec![(4, 6, true), (4, 6, false)];
    if !quick {
        games.push((4, 7, false));
    }
    for (pegs, colors, distinct) in games {
        let game = Mastermind::new(pegs, colors, distinct).expect("variant");
        for _ in 0..repeat {
            let (cpu, clock) = (cpu_seconds(), Instant::now());
            let (result, _) = solve_perfect(&game);
            let wall = clock.elapsed().as_secs_f64();
            let cpu = cpu_seconds().zip(cpu).map_or("?".into(), |(b, a)| format!("{:.2}", b - a));
            println!("{:<40} total {:>6}  {wall:>7.2} s wall  {cpu:>7} s CPU", game.name(), result.total);
        }
    }
}
