//! Issue 50 item 2 (bad input "too large for memory, estimate first"): the
//! estimates `solve bridg-it` checks before a self-play or agents' game graph
//! is explored, against the live bytes a counting global allocator measures
//! (as tests/beams_memory_estimates.rs does for Beams).

use renyi_search::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use renyi_search::two_player::connection::bridgit::analysis::self_play;
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::estimate::{agents_bytes, self_play_bytes};
use renyi_search::two_player::connection::bridgit::position::Player;
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
