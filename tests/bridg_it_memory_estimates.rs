//! Issue 50 item 2 (bad input "too large for memory, estimate first"): the
//! estimates `solve bridg-it` checks before a self-play or agents' game graph
//! is explored, against the live bytes a counting global allocator measures
//! (as tests/beams_memory_estimates.rs does for Beams).

use renyi_search::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use renyi_search::two_player::connection::bridgit::analysis::{CutTies, ExploitSearch, self_play};
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::estimate::{agents_bytes, self_play_bytes};
use renyi_search::two_player::connection::bridgit::heuristic::best_edges;
use renyi_search::two_player::connection::bridgit::position::Player;
use renyi_search::two_player::connection::bridgit::position::Position;
use renyi_search::two_player::connection::bridgit::solver::Solver;
use std::sync::Mutex;
use std::sync::atomic::Ordering;

#[path = "common/counting.rs"]
mod counting;
use counting::{LIVE, PEAK};

#[global_allocator]
static ALLOCATOR: counting::Counting = counting::Counting;

/// The tests of this file count one at a time.
static ONE: Mutex<()> = Mutex::new(());

/// The live bytes `job` adds at its peak, and its result.
fn counted<T>(job: impl FnOnce() -> T) -> (f64, T) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = job();
    ((PEAK.load(Ordering::Relaxed) - before) as f64, out)
}

/// The measurements the model is fitted to (`--ignored`; M = 4 agents: minutes, 2.5 GB).
#[test]
#[ignore]
fn measure_graph_growth() {
    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    for m in 2..=12 {
        let b = Board::bridgit(m).unwrap();
        let (peak, r) = counted(|| self_play(&b, Player::Cut).unwrap());
        println!(
            "self-play M = {m}: {} states, peak {peak} bytes, {:.0} bytes/state",
            r.states,
            peak / r.states as f64
        );
    }
    for m in 2..=4 {
        let b = Board::bridgit(m).unwrap();
        let (peak, (_, states)) =
            counted(|| short_win_probability(&b, Agent::Heuristic, Agent::Temperature(0.1), u64::MAX).unwrap());
        println!("agents M = {m}: {states} states, peak {peak} bytes, {:.0} bytes/state", peak / states as f64);
    }
}

/// The exploit search as `solve bridg-it --exploit` runs it (both tie
/// readings, every heuristic opening, the two memos alive together): its
/// positions and counted peak for M = 2 ..= BRIDG_IT_EXPLOIT_MAX (`--ignored`).
#[test]
#[ignore]
fn measure_exploit_growth() {
    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    let most: usize = std::env::var("BRIDG_IT_EXPLOIT_MAX").ok().and_then(|m| m.parse().ok()).unwrap_or(5);
    for m in 2..=most {
        let b = Board::bridgit(m).unwrap();
        let t = std::time::Instant::now();
        let (peak, (every, some)) = counted(|| {
            let start = Position::start(&b, Player::Cut);
            let (mut every, mut some) =
                (ExploitSearch::new(&b, CutTies::AgainstShort), ExploitSearch::new(&b, CutTies::ForShort));
            for e in best_edges(&b, &start, &Solver::Direct) {
                let after = start.play(e);
                every.short_wins(&after).unwrap();
                some.short_wins(&after).unwrap();
            }
            (every.positions(), some.positions())
        });
        println!(
            "exploit M = {m}: {every} + {some} positions, peak {peak} bytes, {:.0} bytes/position, {:.1} s",
            peak / (every + some) as f64,
            t.elapsed().as_secs_f64()
        );
    }
}

fn within_twice(what: &str, estimate: f64, peak: f64) {
    eprintln!("{what}: estimate {estimate} bytes, counted peak {peak} bytes, ratio {:.2}", estimate / peak);
    assert!(estimate <= 2.0 * peak && peak <= 2.0 * estimate, "{what}: estimate {estimate} bytes, counted peak {peak}");
}

/// Self-play M = 6..11 (a few seconds) and the agents' graph M = 2, 3: the
/// estimates lie within 2× of the counted peak.
#[test]
fn estimates_are_within_twice_the_counted_peak() {
    let _one = ONE.lock().unwrap_or_else(|p| p.into_inner());
    for m in 6..=11 {
        let b = Board::bridgit(m).unwrap();
        let (peak, r) = counted(|| self_play(&b, Player::Cut).unwrap());
        assert!(r.states > 0);
        within_twice(&format!("self-play M = {m}"), self_play_bytes(m).unwrap() as f64, peak);
    }
    for m in 2..=3 {
        let b = Board::bridgit(m).unwrap();
        let (peak, _) =
            counted(|| short_win_probability(&b, Agent::Heuristic, Agent::Temperature(0.1), u64::MAX).unwrap());
        within_twice(&format!("agents M = {m}"), agents_bytes(m).unwrap() as f64, peak);
    }
}
