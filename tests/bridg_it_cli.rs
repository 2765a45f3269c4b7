//! `solve bridg-it …` from the command line: a replay with potentials, the
//! analyses, and bad input refused with one line and exit code 2.

mod common;

use common::{bin, one_line_error, scratch};

fn assert_refused(args: &[&str], needle: &str) {
    let err = one_line_error(args);
    assert!(err.contains(needle), "{args:?}: stderr {err:?} lacks {needle:?}");
    assert!(bin(args).stdout.is_empty(), "{args:?} printed to stdout");
}

#[test]
fn replay_shows_the_fig_5_5_tie() {
    let out = bin(&["solve", "bridg-it", "--order", "3", "--moves", "A5,C5,C3,A1"]);
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let last = text.lines().last().unwrap();
    assert!(last.contains("before move 5: ΔX A3 1/2, B4 1/2, E3 10/21"), "{last}");
    assert!(last.ends_with("heuristic: A3 | B4"), "{last}");
}

#[test]
fn edge_list_graph_and_lehman() {
    // Two parallel A–B paths of length 2 plus a rung: K4 minus an edge is positive.
    let path = scratch("bridg-it-graph.txt");
    std::fs::write(&path, "# K4\ns x\ns y\nx y\nx t\ny t\ns t\n").unwrap();
    let out = bin(&["solve", "bridg-it", "--graph", path.to_str().unwrap(), "--terminals", "s,t", "--lehman"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("Short moving second wins (positive subgraph with A, B): true")
    );
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn simulated_mc_agent_is_seeded() {
    let args = ["solve", "bridg-it", "--order", "3", "--mc", "4", "--games", "100", "--seed", "5"];
    let (one, two) = (bin(&args), bin(&args));
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let text = String::from_utf8_lossy(&one.stdout);
    assert!(text.contains("MC(4) (Short) vs heuristic (Cut, first): Short wins"), "{text}");
    assert!(text.contains("95 % Wilson interval") && text.contains("(seed 5)"), "{text}");
    assert_eq!(one.stdout, two.stdout);
}

#[test]
fn bad_input_is_refused() {
    assert_refused(&["solve", "bridg-it", "--order", "1"], "2..=200");
    assert_refused(&["solve", "bridg-it", "--order", "100000"], "2..=200");
    assert_refused(&["solve", "bridg-it", "--order", "60", "--self-play"], "too large");
    // Estimated before any work (issue 50): 40 would need about 340 GB, 5's agents' graph about 10 TB.
    assert_refused(&["solve", "bridg-it", "--order", "40", "--self-play", "--max-memory", "1"], "--max-memory 1");
    assert_refused(
        &["solve", "bridg-it", "--order", "5", "--temperature", "0.1", "--max-memory", "1"],
        "agents' game graph of order 5",
    );
    // The exploit search has no estimate: its tables are capped at the budget less what the process holds.
    assert_refused(
        &["solve", "bridg-it", "--order", "4", "--exploit", "--max-memory", "0.001"],
        "exploit search passed its limit",
    );
    assert_refused(&["solve", "bridg-it", "--order", "3", "--moves", "Z9"], "unknown cell name");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--moves", "B1"], "unknown cell name");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--moves", "A1,A1"], "not legal");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--temperature", "0"], "must be > 0");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--temperature=-1"], "must be > 0");
    assert_refused(
        &["solve", "bridg-it", "--order", "3", "--temperature", "0.1", "--sweeps", "0"],
        "at least one sweep",
    );
    assert_refused(&["solve", "bridg-it", "--order", "3", "--mc", "0"], "k ≥ 1");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--mc", "4", "--games", "0"], "at least 1");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--mc", "4", "--temperature", "0.1"], "give one");
    assert_refused(
        &["solve", "bridg-it", "--order", "3", "--temperature", "0.1", "--cut-temperature", "0"],
        "must be > 0",
    );
    assert_refused(&["solve", "bridg-it", "--order", "3", "--temperature", "inf"], "must be > 0");
    assert_refused(&["solve", "bridg-it", "--order", "3", "--games", "10"], "need Short's agent");
    let path = scratch("bridg-it-bad.txt");
    for (text, needle) in
        [("s x\nx x\nx t\n", "self-loop"), ("s x\nx y\n", "not a node"), ("s x\ny t\n", "not connected")]
    {
        std::fs::write(&path, text).unwrap();
        assert_refused(&["solve", "bridg-it", "--graph", path.to_str().unwrap(), "--terminals", "s,t"], needle);
    }
    assert_refused(&["solve", "bridg-it", "--graph", path.to_str().unwrap()], "--terminals");
    std::fs::remove_file(&path).unwrap();
}
