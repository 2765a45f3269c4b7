//! Issue 48 items 5 and 7: every job is watched against --max-memory, an
//! allocation the system refuses is one line, and the messages about budgets
//! and steps say what was given and what is wrong.

mod common;

use common::{bin, one_line_error};
use std::process::Command;

/// MM(4,8)'s answer table (16 MiB) fits a 20.5 MiB budget, but the analysis
/// holds more (about 70 MiB at its peak): it used to end at 3× its budget;
/// then the watch stopped it while it ran; now its estimate counts the whole
/// process (about 55 MiB) and it is refused before it starts, naming the
/// budget as the user gave it. (The watch of a running job is tested on
/// Beams curves: tests/cli.rs.)
#[test]
fn mastermind_analyses_beyond_the_budget_are_refused() {
    let err = one_line_error(&["--max-memory", "0.02", "analyze", "mastermind", "--pegs", "4", "--colors", "8"]);
    assert!(
        err.contains("MM(4,8) (4096 codes: its answer table, a walk over it and the program) would need about "),
        "{err}"
    );
    assert!(err.contains(" MiB (the budget is 20.5 MiB, set by --max-memory 0.02;"), "{err}");
}

/// A refusal before the work names the user's budget, not the default.
#[test]
fn refusals_name_the_budget_given() {
    let err = one_line_error(&["analyze", "mastermind", "--pegs", "4", "--colors", "6", "--max-memory", "0.0001"]);
    assert!(err.contains(" MiB (the budget is 104.9 KiB, set by --max-memory 0.0001;"), "{err}");
}

/// `--max-memory` is a number of GiB above 0 in any decimal notation, up to
/// 1 PiB; anything else is refused saying so (1e11 used to be refused as if
/// it were not above 0).
#[test]
fn max_memory_is_a_number_above_zero() {
    let ok = bin(&["--max-memory", "1e2", "analyze", "mastermind", "--pegs", "2", "--colors", "3"]);
    assert!(ok.status.success() && String::from_utf8_lossy(&ok.stdout).contains("total     21"));
    let err = one_line_error(&["--max-memory", "1e11", "analyze", "mastermind", "--pegs", "2", "--colors", "3"]);
    assert!(err.contains("--max-memory 1e11: give a number of GiB above 0 and at most 1048576"), "{err}");
    for bad in ["abc", "0", "-1", "nan", "inf"] {
        let err = one_line_error(&["--max-memory", bad, "analyze", "mastermind", "--pegs", "2", "--colors", "3"]);
        assert!(err.contains(&format!("--max-memory {bad}: give a number of GiB above 0")), "{err}");
    }
}

/// Under a ulimit the allocator's refusal is one line and exit 2, not an
/// abort with a backtrace. At this limit the worker threads' start is refused
/// first in some runs (about 1 in 12 on 2026-12-01, by the address-space
/// layout): that is also one line and exit 2, so every run must end so, and
/// one of up to eight runs must show the allocator's refusal.
#[test]
fn a_refused_allocation_is_one_line() {
    let program = env!("CARGO_BIN_EXE_renyi-search");
    let mut allocator_seen = false;
    for _ in 0..8 {
        let out = Command::new("sh")
            .args(["-c", &format!("ulimit -v 100000 && exec {program} analyze mastermind --pegs 4 --colors 8")])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
        allocator_seen = err.starts_with("error: out of memory: the system refused an allocation of ");
        assert!(allocator_seen || err.starts_with("error: cannot start the worker threads"), "{err}");
        if allocator_seen {
            break;
        }
    }
    assert!(allocator_seen, "the allocator's refusal in none of eight runs");
}

/// Issue 48 item 5: under a low limit on address space the worker threads
/// could not start, and rayon's first use panicked with a backtrace ("The
/// global thread pool has not been initialized", seen at `ulimit -v` 147–158
/// MB for `curve mastermind`). The pool is now started once at startup. At
/// every limit of a fine sweep each command either succeeds or ends with one
/// line and exit 2, without a panic, and leaves no temporary file; the lowest
/// limits are refused (by the allocator or the thread start).
#[cfg(unix)]
#[test]
fn a_refused_thread_or_allocation_is_one_line_at_every_limit() {
    let program = env!("CARGO_BIN_EXE_renyi-search");
    let game = "mastermind --pegs 2 --colors 3";
    let commands = [
        format!("curve {game} --csv c.csv --json c.json"),
        format!("analyze {game} --out a.json"),
        format!("perfect {game}"),
    ];
    let mut refused = 0;
    for command in &commands {
        for limit in (20_000..=260_000).step_by(2_500) {
            let dir = common::scratch_dir("ulimit");
            let out = Command::new("sh")
                .current_dir(&dir)
                .args(["-c", &format!("ulimit -v {limit} && exec {program} {command}")])
                .output()
                .unwrap();
            let err = String::from_utf8_lossy(&out.stderr);
            let what = format!("`{command}` under ulimit -v {limit}: exit {:?}, stderr {err:?}", out.status.code());
            assert!(!err.contains("panicked") && !err.contains("backtrace"), "{what}");
            if !out.status.success() {
                assert_eq!((out.status.code(), err.lines().count()), (Some(2), 1), "{what}");
                assert!(err.starts_with("error: "), "{what}");
                refused += 1;
            }
            let left: Vec<_> = std::fs::read_dir(&dir).unwrap().flatten().map(|e| e.file_name()).collect();
            assert!(left.iter().all(|f| !f.to_string_lossy().starts_with('.')), "{what}: left {left:?}");
            let _ = std::fs::remove_dir_all(&dir);
        }
    }
    assert!(refused > 0, "no limit of the sweep was refused");
}

/// Messages: an `--after` answer out of range says so; an error about a file
/// is not prefixed twice. The pattern table is built first in a cache of the
/// test's own, so that the refusal is the only line whether or not `codes/`
/// held the table (a fresh cache used to add its "pattern table … built"
/// note to stderr).
#[test]
fn messages_say_what_is_wrong_once() {
    let codes = common::scratch_dir("codes");
    let codes = codes.to_str().unwrap();
    assert!(bin(&["beams", "info", "3c6p", "--codes", codes]).status.success());
    let err = one_line_error(&["analyze", "beams", "3c6p", "--codes", codes, "--after", "0:999"]);
    assert!(
        err.contains("answer 999 is out of range (the answers of Beams(3c,6p) (LEX-c order) are 0 to 15)"),
        "{err}"
    );
    let garbage = common::scratch("garbage-strategy.json");
    std::fs::write(&garbage, "garbage\n").unwrap();
    let err = one_line_error(&["verify", garbage.to_str().unwrap()]);
    assert_eq!(err.matches("invalid input").count(), 1, "{err}");
    assert!(err.contains("not a strategy file"), "{err}");
    let err = one_line_error(&["analyze", "beams", "3c6p", "--codes", codes, "--after", "99999:1"]);
    assert!(err.contains("query 99999 cannot be asked"), "{err}");
    let _ = std::fs::remove_file(&garbage);
    let _ = std::fs::remove_dir_all(codes);
}

/// Issue 48 item 5: "an estimate that is exceeded by more than 2× in a test
/// is a bug of the estimate". The estimate a Mastermind analysis is refused
/// with (the answer table alone, 1.6 MiB for MM(4,6), against a peak of
/// 47–51 MiB resident) now counts the program, the walk, the allocator's
/// reserve and the blocks the worker threads freed but the allocator still
/// holds (MM(5,5): 79–106 MiB peak resident, estimate 66 MiB; without that
/// term 48 MiB, once below half the peak under load), and stays within 2×
/// of the peak resident size either way.
#[cfg(target_os = "linux")]
#[test]
fn mastermind_estimates_are_within_twice_the_peak() {
    for (pegs, colors) in [("4", "5"), ("4", "6"), ("4", "7"), ("5", "5")] {
        let game = ["analyze", "mastermind", "--pegs", pegs, "--colors", colors];
        let refused = one_line_error(&[&["--max-memory", "0.000001"], &game[..]].concat());
        let estimate = stated_bytes(&refused);
        let peak = peak_resident_bytes_of(&game);
        assert!(
            estimate <= 2.0 * peak && peak <= 2.0 * estimate,
            "MM({pegs},{colors}): estimate {estimate} bytes, peak resident {peak} bytes ({refused})"
        );
    }
}

/// The size in "would need about 38.2 MiB" of a refusal, in bytes.
fn stated_bytes(err: &str) -> f64 {
    let rest = &err[err.find("would need about ").expect(err) + "would need about ".len()..];
    let mut words = rest.split_whitespace();
    let number: f64 = words.next().unwrap().parse().expect(err);
    let unit = match words.next().unwrap() {
        "KiB" => 1u64 << 10,
        "MiB" => 1 << 20,
        "GiB" => 1 << 30,
        other => panic!("unit {other} in {err}"),
    };
    number * unit as f64
}

/// The peak resident size of the program run with `args` (Linux: `wait4`'s
/// `ru_maxrss`, in KiB, of that one child).
#[cfg(target_os = "linux")]
fn peak_resident_bytes_of(args: &[&str]) -> f64 {
    /// `struct rusage` of Linux: two `timeval`s, then 14 `long`s, the first `ru_maxrss`.
    #[repr(C)]
    struct Rusage {
        times: [i64; 4],
        maxrss: i64,
        rest: [i64; 13],
    }
    unsafe extern "C" {
        fn wait4(pid: i32, status: *mut i32, options: i32, usage: *mut Rusage) -> i32;
    }
    // The child is reaped by wait4 below (which also gives its peak memory), not by `wait()`.
    #[allow(clippy::zombie_processes)]
    let child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut usage = Rusage { times: [0; 4], maxrss: 0, rest: [0; 13] };
    let mut status = 0;
    // SAFETY: valid pointers; the child is ours and not waited for elsewhere.
    let waited = unsafe { wait4(child.id() as i32, &mut status, 0, &mut usage) };
    assert_eq!(waited, child.id() as i32, "wait4");
    assert_eq!(status, 0, "{args:?} exits 0");
    usage.maxrss as f64 * 1024.0
}

/// `solve chess` was the one job not watched: KRKB held 206 MiB under a
/// 51.2 MiB budget and finished. It is now stopped at the budget (Cram and
/// Chomp keep their own refusals, which name the table: tests/cli.rs).
#[test]
fn chess_endgame_tables_are_watched() {
    let err = one_line_error(&["--max-memory", "0.05", "solve", "chess", "KRKB"]);
    assert!(
        err.contains("the game-graph solver passed the memory budget of 51.2 MiB, set by --max-memory 0.05"),
        "{err}"
    );
}

/// Issue 48 item 5: `analyze beams 6c10p --max-memory 2` estimated the
/// placements only (806 MiB), then grew to 18.7 GB. The table is now weighed
/// first at a rigorous lower bound of its pattern count and refused before
/// anything large is allocated (4 CPU-s).
#[test]
fn a_beams_table_beyond_the_budget_is_refused_before_the_enumeration() {
    let codes = common::scratch_dir("codes-6c10p");
    let err = one_line_error(&["analyze", "beams", "6c10p", "--max-memory", "2", "--codes", codes.to_str().unwrap()]);
    assert!(err.contains("enumerating the patterns of Beams(6c,10p) ("), "{err}");
    assert!(err.contains("patterns or more: the table, its parts and the placements) would need at least "), "{err}");
    assert!(err.contains("(the budget is 2.0 GiB, set by --max-memory 2;"), "{err}");
    assert_eq!(std::fs::read_dir(&codes).unwrap().count(), 0, "nothing written to the cache");
    let _ = std::fs::remove_dir_all(&codes);
}

/// Beams(6c,3p) MIX: its table loads within 20.5 MiB, but the analysis (MIX
/// memo about one entry per code; counted peak 26 MB, estimated 35 MB:
/// tests/beams_analysis_memory.rs) is refused before it starts. The table is
/// built first in a cache of the test's own: a fresh `codes/` (a clean
/// clone) added its "pattern table … built" note to the one line.
#[test]
fn a_beams_analysis_beyond_the_budget_is_refused_before_it_starts() {
    let codes = common::scratch_dir("codes-6c3p");
    let codes = codes.to_str().unwrap();
    assert!(bin(&["beams", "info", "6c3p", "--codes", codes]).status.success());
    let err = one_line_error(&["analyze", "beams", "6c3p", "--tie", "mix", "--max-memory", "0.02", "--codes", codes]);
    let _ = std::fs::remove_dir_all(codes);
    assert!(
        err.contains("analysing Beams(6c,3p) (223920 codes: the table, the partitions walked and the MIX memo)"),
        "{err}"
    );
    assert!(err.contains("would need about 33.4 MiB (the budget is 20.5 MiB, set by --max-memory 0.02;"), "{err}");
}
