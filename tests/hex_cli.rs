//! `solve hex`, `verify --hex` and `gtp` from the command line, bad input included.

use std::io::Write;
use std::process::{Command, Stdio};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_renyi-search"))
}

#[test]
fn solve_writes_a_proof_that_verify_accepts() {
    let dir = std::env::temp_dir().join(format!("hex-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let proof = dir.join("p.txt");
    let out = bin().args(["solve", "hex", "--size", "3", "--black", "b2", "--proof"]).arg(&proof).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("winner: black"), "{text}");
    let out = bin().args(["verify", "--hex"]).arg(&proof).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    // Bad input: one line, exit 2, nothing written.
    let never = dir.join("never.txt");
    for args in [
        vec!["--size", "12"],
        vec!["--size", "3", "--black", "d1"],
        vec!["--size", "3", "--black", "a1", "--white", "a1"],
    ] {
        let out = bin().args(["solve", "hex"]).args(&args).arg("--proof").arg(&never).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1);
        assert!(!never.exists());
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The moves after `label` in `solve hex`'s output.
fn moves_after(text: &str, label: &str) -> Vec<String> {
    let line = text.lines().find(|l| l.starts_with(label)).unwrap_or_else(|| panic!("{label} in {text}"));
    line.rsplit(": ").next().unwrap().split(' ').filter(|m| *m != "none").map(String::from).collect()
}

#[test]
fn one_move_names_one_of_the_winning_moves() {
    let solve = |extra: &[&str]| {
        let out = bin().args(["solve", "hex", "--size", "4"]).args(extra).output().unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let all = moves_after(&solve(&[]), "winning moves of black");
    let one = moves_after(&solve(&["--one-move"]), "a winning move (--one-move) of black");
    // 4×4: Black wins by the four cells of the short diagonal's middle band (a4, b3, c2, d1).
    assert_eq!(all, ["d1", "c2", "b3", "a4"]);
    assert_eq!(one.len(), 1);
    assert!(all.contains(&one[0]), "{one:?} not in {all:?}");
    // The loser names none.
    let text = solve(&["--black", "b3", "--one-move"]);
    assert!(text.contains("winner: black"), "{text}");
    assert!(moves_after(&text, "a winning move (--one-move) of white").is_empty(), "{text}");
}

#[test]
fn gtp_session() {
    let mut child = bin().args(["gtp"]).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let input = "boardsize 3 3\nplay b b2\ndfpn-solve-state white\nplay w b2\nfoo\nundo\ndfpn-solve-state black\ngenmove w\nquit\n";
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    let answers: Vec<&str> = text.split("\n\n").filter(|a| !a.is_empty()).collect();
    assert_eq!(answers.len(), 9, "{text}");
    assert_eq!(answers[0], "=");
    assert_eq!(answers[2], "= black");
    assert!(answers[3].starts_with("? "));
    assert!(answers[4].starts_with("? "));
    // After undo the board is empty: Black to move wins (Satz 1.2).
    assert_eq!(answers[6], "= black");
    // `quit` is answered with success before the engine stops.
    assert_eq!(answers[8], "=");
}
