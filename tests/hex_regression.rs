//! The GTP regression suites in tests/hex-regression/ (Benzene / gogui-regress
//! style: a numbered command, then `#? [expected]`), run through `gtp`.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs one suite; returns (id, expected, got) for every numbered command.
fn run_suite(path: &str) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut expected = Vec::new();
    let mut last_id = None;
    for line in text.lines().map(str::trim) {
        if let Some(answer) = line.strip_prefix("#? [").and_then(|l| l.strip_suffix(']')) {
            expected.push((last_id.take().expect("#? after a numbered command"), answer.to_string()));
        } else if let Some(id) = line.split_whitespace().next().filter(|w| w.chars().all(|c| c.is_ascii_digit())) {
            last_id = Some(id.to_string());
        }
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
        .arg("gtp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(format!("{text}\nquit\n").as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let replies = String::from_utf8(out.stdout).unwrap();
    let answer_of = |id: &str| {
        replies
            .lines()
            .find_map(|l| l.strip_prefix(&format!("={id} ")).or_else(|| l.strip_prefix(&format!("?{id} "))))
            .unwrap_or("(no answer)")
            .to_string()
    };
    expected.into_iter().map(|(id, want)| (id.clone(), want, answer_of(&id))).collect()
}

#[test]
fn small_boards_suite() {
    let results = run_suite(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/hex-regression/small-boards.tst"));
    assert_eq!(results.len(), 12);
    let failed: Vec<_> = results.iter().filter(|(_, want, got)| want != got).collect();
    assert!(failed.is_empty(), "failed: {failed:?}");
}
