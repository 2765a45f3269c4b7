//! `perfect` under constraints and objectives, and `verify` of sealed
//! strategy files (issue 27): infeasible caps, hard mode, edited files.

mod common;
use common::{assert_rejected, bin, scratch};

fn stdout(args: &[&str]) -> String {
    let out = bin(args);
    assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn caps_objectives_and_hard_mode_on_the_command_line() {
    let mm = ["perfect", "mastermind", "--pegs", "3", "--colors", "4"];
    // MM(3,4): 206 plain (worst 5 — see tests/perfect_objectives.rs for the exhaustive values).
    let none = stdout(&[&mm[..], &["--max-depth", "3"]].concat());
    assert!(none.contains("no strategy finds every code within 3 queries"), "{none}");
    let capped = stdout(&[&mm[..], &["--objective", "depth-then-total"]].concat());
    assert!(capped.contains("within 4 queries") && capped.contains("worst     4 queries"), "{capped}");
    let hard = stdout(&[&mm[..], &["--possible-only", "--max-depth", "3"]].concat());
    assert!(hard.contains("no strategy") && hard.contains("possible codes only"), "{hard}");
    let out = bin(&["perfect", "beams", "3c6p", "--possible-only"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("hard mode does not apply"));
    assert_rejected(&[&mm[..], &["--objective", "fastest"]].concat(), "possible values");
    assert_rejected(&[&mm[..], &["--max-depth", "-1"]].concat(), "");
    assert_rejected(&["perfect", "bulls-and-cows", "--symbols", "12"], "at most 10");
}

#[test]
fn sealed_strategy_files_refuse_edits_and_name_them() {
    let dir = scratch("sealed");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("bc.json");
    let path = file.to_str().unwrap();
    stdout(&[
        "perfect",
        "bulls-and-cows",
        "--digits",
        "3",
        "--symbols",
        "5",
        "--possible-only",
        "--objective",
        "depth-then-total",
        "--tree",
        path,
    ]);
    let checked = stdout(&["verify", path]);
    assert!(checked.contains("seal intact") && checked.contains("hard mode"), "{checked}");
    let text = std::fs::read_to_string(&file).unwrap();
    let bad = dir.join("bad.json");
    let bad_path = bad.to_str().unwrap();
    // A claimed cap one below the replayed worst case: named, and the header seal broken.
    let value: serde_json::Value = serde_json::from_str(&text).unwrap();
    let k = value["constraints"]["max_depth"].as_u64().unwrap();
    let mut edited = value.clone();
    edited["constraints"]["max_depth"] = (k - 1).into();
    std::fs::write(&bad, serde_json::to_string_pretty(&edited).unwrap()).unwrap();
    assert_rejected(&["verify", bad_path], &format!("within {} queries but a code takes {k}", k - 1));
    assert_rejected(&["verify", bad_path], "CRC-32 of its header does not match");
    // A tree edit that still replays (a label): only the seal tells.
    let relabelled = text.replacen("\"label\": \"", "\"label\": \"x", 1);
    std::fs::write(&bad, relabelled).unwrap();
    assert_rejected(&["verify", bad_path], "CRC-32 of its tree does not match");
    // An unsealed file (as written before sealing) is read with a note.
    let mut unsealed = value.clone();
    unsealed.as_object_mut().unwrap().remove("seal");
    std::fs::write(&bad, serde_json::to_string(&unsealed).unwrap()).unwrap();
    assert!(stdout(&["verify", bad_path]).contains("unsealed"));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The transposition table cannot be sized in advance: a search that passes
/// the memory budget gives up with a one-line error and exit code 2 instead of
/// growing until the machine kills it. MM(4,6) under 46 MiB: its up-front
/// estimate (answer table, walk, the allocator's freed blocks and the
/// process, about 43 MiB) fits, the search then passes the budget within its
/// first half second (peaks 47–63 MiB at budgets of 43–51 MiB, 2026-11-28).
/// (A smaller game under a tiny budget is refused by the estimate before the
/// search.)
#[test]
fn a_perfect_search_past_the_memory_budget_gives_up_cleanly() {
    let args = ["perfect", "--max-memory", "0.045", "mastermind"];
    let out = bin(&args);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("error: too large:") && last.contains("passed the memory budget"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("total     "));
}

/// `perfect --after`: one subtree's optimum (MM(3,4) after AAA answered with
/// no peg: the 27 codes of three other colours; 73, the same as MM(3,3) —
/// tests/perfect.rs checks such nodes against exhaustive search), and bad
/// steps or flags for whole games refused with one line and exit code 2.
#[test]
fn perfect_after_solves_one_subtree() {
    let mm = ["perfect", "mastermind", "--pegs", "3", "--colors", "4"];
    let out = stdout(&[&mm[..], &["--after", "0:0"]].concat());
    assert!(out.contains("below 0:0 (27 codes)") && out.contains("total     73 "), "{out}");
    let whole = stdout(&["perfect", "mastermind", "--pegs", "3", "--colors", "3"]);
    assert!(whole.contains("total     73 "), "{whole}");
    assert_rejected(&[&mm[..], &["--after", "0:99"]].concat(), "beyond the game's answers");
    assert_rejected(&[&mm[..], &["--after", "999:0"]].concat(), "cannot be asked there");
    assert_rejected(&[&mm[..], &["--after", "x"]].concat(), "QUERY:ANSWER");
    // Answers of MM(3,4) are black · 4 + white: 12 (three black) finds AAA,
    // 9 (two black, one white) cannot occur.
    assert_rejected(&[&mm[..], &["--after", "0:12"]].concat(), "solves the game");
    assert_rejected(&[&mm[..], &["--after", "0:9"]].concat(), "no code gives answer 9");
    assert_rejected(&[&mm[..], &["--after", "0:0", "--tree", "t.json"]].concat(), "whole games");
    let out = bin(&[&mm[..], &["--after", "0:9"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!((out.status.code(), err.trim().lines().count()), (Some(2), 1), "{err}");
}
