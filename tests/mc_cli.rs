//! `solve mc …` from the command line: answers, scans, and bad input refused
//! with a one-line message and exit code 2 (never a panic).

use std::process::{Command, Output};

fn bin(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_renyi-search")).args(args).output().expect("runs")
}

fn assert_rejected(args: &[&str], needle: &str) {
    let out = bin(args);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?} should exit with 2: {err}");
    assert!(err.contains(needle), "{args:?}: stderr {err:?} lacks {needle:?}");
    assert!(!err.contains("panicked"), "{args:?} panicked: {err}");
    assert_eq!(err.trim().lines().count(), 1, "{args:?}: one line expected, got {err:?}");
}

#[test]
fn bad_mc_input_is_refused() {
    assert_rejected(&["solve", "mc", "esr", "--n", "5", "--m", "6", "--k", "0"], "k ≥ 1");
    assert_rejected(&["solve", "mc", "esr", "--n", "5", "--m", "6", "--s", "7", "--k", "3"], "cannot exceed");
    assert_rejected(&["solve", "mc", "esr", "--n", "-5", "--m", "6", "--k", "3"], "at least 1");
    assert_rejected(&["solve", "mc", "sub", "--a", "2", "--b", "2", "--n", "9", "--k", "3"], "1 ≤ a < b");
    assert_rejected(&["solve", "mc", "sub", "--a", "3", "--b", "2", "--n", "9", "--k", "3"], "1 ≤ a < b");
    assert_rejected(&["solve", "mc", "sub", "--a", "1", "--b", "2", "--n", "-4", "--k", "3"], "heap size");
    assert_rejected(&["solve", "mc", "dsc", "--n", "-1", "--k", "3"], "track length");
    assert_rejected(&["solve", "mc", "dsc", "--n", "10", "--k", "60000"], "float error bound");
    assert_rejected(&["solve", "mc", "dsc", "--n", "10", "--k", "3", "--vs", "200000"], "float error bound");
    assert_rejected(&["solve", "mc", "dsc", "--n", "10", "--k", "5:1"], "reversed");
    assert_rejected(&["solve", "mc", "dsc", "--n", "10", "--k", "x"], "cannot read");
    assert_rejected(&["solve", "mc", "dsc", "--n", "10", "--k", "100", "--exact"], "--exact");
    assert_rejected(&["solve", "mc", "esr", "--n", "12", "--m", "12", "--k", "3"], "states");
}

#[test]
fn mc_answers_and_scans() {
    let out = bin(&["solve", "mc", "esr", "--n", "5", "--m", "6", "--s", "1", "--k", "3"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    // Table 2.4, k = 3 (thesis, exact row).
    assert!(text.contains("0.3758100195") && text.contains("0.3153747770") && text.contains("0.3455923983"), "{text}");
    let out = bin(&["solve", "mc", "dsc", "--n", "10", "--k", "inf", "--vs", "random", "--exact"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("exact:"));
    let dir = std::env::temp_dir().join(format!("renyi-mc-{}", std::process::id()));
    let csv = dir.join("scan.csv");
    let out = bin(&["solve", "mc", "dsc", "--n", "10", "--k", "145:148", "--out", csv.to_str().unwrap()]);
    assert!(out.status.success());
    let text = std::fs::read_to_string(&csv).unwrap();
    assert_eq!(text.lines().count(), 5);
    // The k = 146/147 crossing of 50 % (thesis l. 701).
    let means: Vec<f64> = text.lines().skip(1).map(|l| l.rsplit(',').next().unwrap().parse().unwrap()).collect();
    assert!(means[1] < 0.5 && means[2] > 0.5, "{means:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
