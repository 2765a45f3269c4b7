//! `reproduce` writes the same bytes on every run (issue 52 item 3: run
//! times, dates and hosts go to the run log, not into results files), reports
//! what it checked in a summary, and exits 0 only when every check held.

mod common;

use common::{bin, scratch_dir};
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir` with its bytes, by path relative to `dir`.
fn contents(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let path = e.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                out.insert(rel, std::fs::read(&path).unwrap());
            }
        }
    }
    out
}

/// Two runs of `reproduce nim` (a few seconds) into two directories: the
/// results files are identical byte for byte; only the run log differs, and
/// it is the one file that carries the date.
#[test]
fn two_runs_of_a_target_write_identical_bytes() {
    let (a, b) = (scratch_dir("repro-a"), scratch_dir("repro-b"));
    let codes = scratch_dir("repro-codes");
    for dir in [&a, &b] {
        let out = bin(&["reproduce", "nim", "--results", dir.to_str().unwrap(), "--codes", codes.to_str().unwrap()]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
        assert!(stdout.contains("verdict: every reproduced value holds"), "{stdout}");
        assert!(stdout.contains("nim "), "one line for the target: {stdout}");
    }
    let (mut first, mut second) = (contents(&a), contents(&b));
    let log = "runs/last-reproduce.log";
    let (log_a, _) = (first.remove(log).expect("the run log"), second.remove(log).expect("the run log"));
    assert!(String::from_utf8_lossy(&log_a).contains("started 20"), "the run log has the date");
    assert_eq!(first.keys().collect::<Vec<_>>(), second.keys().collect::<Vec<_>>());
    assert!(first.len() >= 2, "nim.md and nim.json: {:?}", first.keys());
    for (name, bytes) in &first {
        assert!(bytes == &second[name], "{name} differs between two runs");
        let text = String::from_utf8_lossy(bytes);
        assert!(!text.contains("started"), "{name} names a start time");
    }
    for dir in [a, b, codes] {
        std::fs::remove_dir_all(dir).unwrap();
    }
}

/// Unknown and repeated targets: a one-line error (exit 2), and a target
/// named twice runs once.
#[test]
fn targets_are_checked_and_run_once() {
    let dir = scratch_dir("repro-twice");
    let out = bin(&["reproduce", "nim", "table-9", "--results", dir.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("invalid value 'table-9'") && err.contains("possible values: table-4.5"), "{err}");
    assert_eq!(err.trim().lines().count(), 1, "{err}");
    assert!(!dir.join("tables").exists(), "nothing written for bad input");
    let out = bin(&["reproduce", "nim", "nim", "--results", dir.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(stderr.matches("reproduce nim →").count(), 1, "{stderr}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 49 item 8 for the user's CSVs: `analyze wurzel --out F.csv` writes
/// the header row first, and what the CSV holds and what produced it to
/// `F.csv.json` beside it.
#[test]
fn a_size_model_csv_starts_with_its_header_and_has_a_sidecar() {
    let dir = scratch_dir("csv-sidecar");
    let csv = dir.join("w.csv");
    let out = bin(&["analyze", "wurzel", "--upto", "20", "--alpha", "3/2", "--out", csv.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "n,perfect_total,renyi_total,renyi_over_perfect");
    assert_eq!(lines.len(), 21, "the header and |C| = 1..=20");
    assert!(lines[1].starts_with("1,"), "{}", lines[1]);
    let sidecar: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("w.csv.json")).unwrap()).unwrap();
    assert!(sidecar["about"].as_str().unwrap().contains("H_1.5"), "{sidecar}");
    assert_eq!(sidecar["provenance"]["program"], "renyi-search");
    assert!(sidecar["provenance"].get("started").is_none(), "no start time: {sidecar}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Issue 52's replays: a sealed file that changes, or a seal that does not list
/// a file the target replays, is refused (the default run then stops with one line).
#[test]
fn a_changed_file_breaks_its_seal() {
    use renyi_search::reproduce::sealed::{check_seal, write_seal};
    let dir = scratch_dir("repro-seal");
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    std::fs::write(dir.join("tables/a.json"), b"{\"x\": 1}\n").unwrap();
    let files = vec!["tables/a.json".to_string()];
    write_seal(&dir, "demo", &files).unwrap();
    assert_eq!(check_seal(&dir, "demo", &files).unwrap(), files);
    assert!(check_seal(&dir, "demo", &["tables/b.json".to_string()]).is_err(), "b.json is not sealed");
    std::fs::write(dir.join("tables/a.json"), b"{\"x\": 2}\n").unwrap();
    let err = check_seal(&dir, "demo", &files).unwrap_err().to_string();
    assert!(err.contains("does not match its seal") && err.contains("--full demo"), "{err}");
    assert!(check_seal(&dir, "other", &files).is_err(), "no seal file");
    std::fs::remove_dir_all(dir).unwrap();
}

/// The 7×7 map without `--full` only reads a committed table: the summary says so
/// (not "replayed"), and with no table yet the run log's note says how to run it.
#[test]
fn a_large_hex_map_without_full_is_read_not_replayed() {
    let dir = scratch_dir("repro-hex7");
    let out = bin(&["reproduce", "hex-7x7", "--results", dir.to_str().unwrap()]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("read from committed results, nothing recomputed"), "{stdout}");
    assert!(!stdout.contains("replayed"), "{stdout}");
    let log = std::fs::read_to_string(dir.join("runs/last-reproduce.log")).unwrap();
    assert!(log.contains("no finished map yet"), "the run log has the note: {log}");
    std::fs::remove_dir_all(dir).unwrap();
}
