//! A long Hex solve watched and bounded (issue 51, session 27): `--max-memory` stops a checkpointed
//! `solve hex` between two slices with its checkpoint written and one error line, and the file
//! resumes to the proof of an uninterrupted solve; the status reported through the library's
//! observer; the search order in a checkpoint's identity (a file without one is of order 1).

mod common;

use common::{bin, scratch_dir};
use renyi_search::output::{checked_line, parse_checked_line};
use renyi_search::progress::{Observer, Progress};
use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::snapshot::{RunTotals, SEARCH_ORDER};
use renyi_search::two_player::connection::hex::solver::Solver;
use std::sync::{Arc, Mutex};

#[test]
fn a_tiny_memory_budget_stops_a_checkpointed_solve_that_then_resumes() {
    let dir = scratch_dir("hex-memory");
    let (ckpt, stopped_proof, whole_proof) = (dir.join("a1.ckpt"), dir.join("resumed.txt"), dir.join("whole.txt"));
    let _ = std::fs::remove_file(&ckpt);
    let ckpt_arg = ckpt.to_str().unwrap();
    let solve = ["solve", "hex", "--size", "6", "--black", "a1", "--one-move"];
    // 1 MiB: below the program's own size, so the check after the first slice stops the run (the
    // memory guard would stop it too, but only after its grace of 3 s).
    let sliced = [&solve[..], &["--checkpoint", ckpt_arg, "--slice", "40"]].concat();
    let out = bin(&[&sliced[..], &["--max-memory", "0.001"]].concat());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(out.stdout.is_empty(), "no answer printed");
    let lines: Vec<&str> = err.lines().collect();
    assert_eq!(lines.len(), 2, "the checkpoint's line and one error line: {err}");
    assert!(lines[0].starts_with(&format!("checkpoint {ckpt_arg}: ")), "{err}");
    assert!(lines[0].contains(" 41 positions searched and "), "one slice of 40 (+1 cut short): {err}");
    assert!(lines[1].starts_with("error: too large: the Hex solve neared the memory budget of 1.0 MiB"), "{err}");
    assert!(lines[1].contains("holds the search so far"), "{err}");
    assert!(ckpt.exists());
    // Resumed without the budget: the proof of the uninterrupted solve, byte for byte.
    let resumed = bin(&[&sliced[..], &["--proof", stopped_proof.to_str().unwrap()]].concat());
    assert!(resumed.status.success(), "{}", String::from_utf8_lossy(&resumed.stderr));
    assert!(String::from_utf8_lossy(&resumed.stdout).contains("(41 of them in earlier runs)"));
    let whole = bin(&[&solve[..], &["--proof", whole_proof.to_str().unwrap()]].concat());
    assert!(whole.status.success());
    let (a, b) = (std::fs::read(&stopped_proof).unwrap(), std::fs::read(&whole_proof).unwrap());
    assert!(!a.is_empty() && a == b, "the resumed proof differs from the uninterrupted one");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Keeps the status lines it is given.
#[derive(Default)]
struct Kept(Mutex<Vec<String>>);

impl Observer for Kept {
    fn begin(&self, _: &str, _: Option<u64>) {}
    fn advance(&self, _: u64) {}
    fn status(&self, text: &str) {
        self.0.lock().unwrap().push(text.to_string());
    }
    fn note(&self, _: &str) {}
    fn end(&self) {}
}

#[test]
fn the_solver_reports_its_status_every_256_positions() {
    let p = Position::from_lists(Board::new(6, 6).unwrap(), "a1", "", Colour::White).unwrap();
    let kept = Arc::new(Kept::default());
    let mut solver = Solver::new(p.board.clone());
    solver.progress = Progress::to(kept.clone());
    solver.proof(&p).unwrap();
    let lines = kept.0.lock().unwrap();
    assert_eq!(lines.len() as u64, solver.nodes / 256, "{}", solver.nodes);
    assert!(lines[0].starts_with("256 positions searched; "), "{}", lines[0]);
    assert!(lines.iter().all(|l| l.contains(" decided / ") && l.contains("; root pn ") && l.contains(" CPU-s")));
    // Silent without an observer: the same search.
    let mut quiet = Solver::new(p.board.clone());
    assert_eq!(quiet.proof(&p).unwrap().to_text(), solver.proof(&p).unwrap().to_text());
}

#[test]
fn a_checkpoint_names_its_search_order_and_one_without_is_of_the_first() {
    let dir = scratch_dir("hex-order");
    let path = dir.join("a1.ckpt");
    let p = Position::from_lists(Board::new(6, 6).unwrap(), "a1", "", Colour::White).unwrap();
    let mut solver = Solver::new(p.board.clone());
    solver.budget = 30;
    assert!(solver.proof(&p).is_err());
    solver.write_snapshot(&path, &p, RunTotals::default()).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    let (first, rest) = bytes.split_at(bytes.iter().position(|&b| b == b'\n').unwrap() + 1);
    let (id_line, tail) = rest.split_at(rest.iter().position(|&b| b == b'\n').unwrap());
    let id: serde_json::Value = parse_checked_line(std::str::from_utf8(id_line).unwrap()).unwrap();
    assert_eq!(id["search_order"], SEARCH_ORDER);
    let with = |id: &serde_json::Value| [first, checked_line(id).as_bytes(), tail].concat();
    // Session 26's files name no order: read as order 1 (this program's).
    let mut old = id.clone();
    old.as_object_mut().unwrap().remove("search_order");
    std::fs::write(&path, with(&old)).unwrap();
    assert_eq!(SEARCH_ORDER, 1);
    assert!(Solver::new(p.board.clone()).load_snapshot(&path, &p).is_ok());
    let mut other = id.clone();
    other["search_order"] = (SEARCH_ORDER + 1).into();
    std::fs::write(&path, with(&other)).unwrap();
    let e = Solver::new(p.board.clone()).load_snapshot(&path, &p).unwrap_err().to_string();
    assert!(e.contains("was searched in df-pn's search order 2, this program's is 1"), "{e}");
    std::fs::remove_dir_all(&dir).unwrap();
}
