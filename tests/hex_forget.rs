//! A df-pn solve whose tables forget (issue 51, session 28; `hex/forget.rs`): with a small bound on
//! the undecided positions kept between slices, the solve gives the same winner and winning moves
//! as without, its proof checks, and the undecided positions never exceed the bound after a slice;
//! stopped and resumed through checkpoints, it gives the uninterrupted bounded run's proof byte for
//! byte; a checkpoint written with another bound (or none) is refused with one line.

mod common;

use common::{bin, one_line_error, scratch_dir};
use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::forget::Forget;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::Proof;
use renyi_search::two_player::connection::hex::snapshot::RunTotals;
use renyi_search::two_player::connection::hex::solver::{Aborted, Solver};
use std::path::Path;

/// The n×n board with Black's stone at `cell`, White to move.
fn opening(n: usize, cell: &str) -> Position {
    Position::from_lists(Board::new(n, n).unwrap(), cell, "", Colour::White).unwrap()
}

/// A solver for `p` that forgets above `above` after slices of `slice`.
fn forgetting(p: &Position, above: usize, slice: u64) -> Solver {
    let mut solver = Solver::new(p.board.clone());
    solver.forget = Some(Forget { above, slice });
    solver
}

/// `task` run in slices by a solver that forgets, the bound checked after every slice; the value and
/// the positions forgotten.
fn bounded<T>(
    p: &Position,
    (above, slice): (usize, u64),
    task: impl FnMut(&mut Solver) -> Result<T, Aborted>,
) -> (T, u64) {
    let (mut solver, mut slices) = (forgetting(p, above, slice), 0);
    let value = solver
        .in_slices(slice, task, |s| {
            slices += 1;
            assert!(slices < 10_000, "no end in sight: {} positions searched", s.nodes);
            let c = s.snapshot_contents(RunTotals::default());
            // Numbers beyond the expansions: only children of the positions on df-pn's path.
            assert!(c.moves <= above as u64 && c.pn_dn <= c.moves + 36 * 36, "after a slice: {c:?}");
            Ok(())
        })
        .unwrap();
    (value, solver.counts.forgotten)
}

#[test]
fn a_bounded_table_gives_the_same_answers_and_stays_bounded() {
    // 6×6 a1: White (to move) wins; b3: Black wins.
    for (cell, winner) in [("a1", Colour::White), ("b3", Colour::Black)] {
        let p = opening(6, cell);
        let whole = Solver::new(p.board.clone()).proof(&p).unwrap();
        let (proof, forgotten) = bounded(&p, (60, 40), |s| s.proof(&p));
        assert!(forgotten > 0, "{cell}: the bound forced forgetting");
        assert_eq!(proof.winner, winner, "{cell}");
        assert_eq!(proof.winner, whole.winner, "{cell}");
        check_proof(&proof).unwrap();
    }
    // Every move of the empty 5×5 board, decided with and without forgetting.
    let empty = Position::from_lists(Board::new(5, 5).unwrap(), "", "", Colour::Black).unwrap();
    let all = Solver::new(empty.board.clone()).winning_moves(&empty).unwrap();
    let (moves, forgotten) = bounded(&empty, (30, 25), |s| s.winning_moves(&empty));
    assert!(forgotten > 0);
    assert_eq!(moves, all);
    assert!(!all.is_empty() && all.len() < 25, "{all:?}");
}

/// The proof of `p` in slices, each by a fresh solver that forgets above `above`, loads the
/// checkpoint `path` (when there is one) and, its slice stopped, forgets and writes it.
fn bounded_through_file(p: &Position, (above, slice): (usize, u64), path: &Path) -> (Proof, usize) {
    for slices in 1.. {
        let mut solver = forgetting(p, above, slice);
        if path.exists() {
            solver.load_snapshot(path, p).unwrap();
        }
        solver.budget = slice;
        match solver.proof(p) {
            Ok(proof) => return (proof, slices),
            Err(_) => {
                solver.forget_undecided();
                let totals = RunTotals { positions: solver.nodes, cpu_ms: 0, runs: slices as u64 };
                let written = solver.write_snapshot(path, p, totals).unwrap();
                assert!(written.moves <= above as u64, "{written:?}");
            }
        }
    }
    unreachable!()
}

#[test]
fn a_bounded_solve_resumed_from_checkpoints_gives_the_same_proof() {
    let dir = scratch_dir("hex-forget-resume");
    for cell in ["a1", "b3"] {
        let p = opening(6, cell);
        let mut slices = 0;
        let mut solver = forgetting(&p, 60, 40);
        let between = |_: &mut Solver| {
            slices += 1;
            Ok(())
        };
        let in_memory = solver.in_slices(40, |s| s.proof(&p), between).unwrap();
        assert!(solver.counts.forgotten > 0, "{cell}: the bound forced forgetting");
        let path = dir.join(format!("{cell}.ckpt"));
        let (resumed, n) = bounded_through_file(&p, (60, 40), &path);
        assert_eq!(n, slices + 1, "{cell}");
        assert_eq!(resumed.to_text(), in_memory.to_text(), "{cell}: the resumed run is the uninterrupted one");
        check_proof(&resumed).unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_checkpoint_of_another_bound_is_refused() {
    let dir = scratch_dir("hex-forget-refuse");
    let (p, path) = (opening(6, "b3"), dir.join("b3.ckpt"));
    // The default settings' text names no bound (committed results keep their identity).
    assert!(!Solver::new(p.board.clone()).describe().contains("forget"));
    let mut solver = forgetting(&p, 60, 40);
    assert!(solver.describe().ends_with("; forget undecided positions above 60 after slices of 40"));
    solver.budget = 40;
    assert!(solver.proof(&p).is_err());
    solver.forget_undecided();
    solver.write_snapshot(&path, &p, RunTotals::default()).unwrap();
    assert!(forgetting(&p, 60, 40).load_snapshot(&path, &p).is_ok());
    for mut other in [forgetting(&p, 80, 40), forgetting(&p, 60, 50), Solver::new(p.board.clone())] {
        let e = other.load_snapshot(&path, &p).unwrap_err().to_string();
        assert!(e.contains("other solver settings") && e.lines().count() == 1, "{e}");
        assert_eq!(other.nodes, 0, "nothing loaded");
    }
    // The command line: --forget-above with and without a checkpoint, then another bound refused.
    let c = dir.join("c.ckpt");
    let solve = ["solve", "hex", "--size", "6", "--black", "b3", "--one-move", "--slice", "40"];
    let with = [&solve[..], &["--forget-above", "60", "--checkpoint", c.to_str().unwrap()]].concat();
    for args in [&with[..], &[&solve[..], &["--forget-above", "60"]].concat()] {
        let out = bin(args);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains("winner: black") && text.contains("proof checked"), "{text}");
    }
    let other = [&solve[..], &["--forget-above", "80", "--checkpoint", c.to_str().unwrap()]].concat();
    assert!(one_line_error(&other).contains("forget undecided positions above 60 after slices of 40"));
    assert!(one_line_error(&[&solve[..], &["--checkpoint", c.to_str().unwrap()]].concat()).contains("settings"));
    assert!(one_line_error(&solve).contains("--slice belongs to"));
    assert!(one_line_error(&[&solve[..], &["--forget-above", "0"]].concat()).contains("--forget-above 0"));
    std::fs::remove_dir_all(&dir).unwrap();
}
