//! A df-pn solve run in slices with its tables written to a checkpoint and loaded by a fresh solver
//! between slices (`hex::snapshot`): the same proof, byte for byte, as the same slices in one
//! solver and as an uninterrupted solve (so the same winner and winning move), accepted by the
//! checker; foreign and damaged checkpoints refused, by the library and by `solve hex --checkpoint`.

mod common;

use common::{bin, one_line_error, scratch_dir};
use renyi_search::two_player::connection::hex::board::{Board, Colour};
use renyi_search::two_player::connection::hex::check::check_proof;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::Proof;
use renyi_search::two_player::connection::hex::snapshot::RunTotals;
use renyi_search::two_player::connection::hex::solver::Solver;
use std::path::Path;

/// The n×n board with Black's stone at `cell`, White to move.
fn opening(n: usize, cell: &str) -> Position {
    let board = Board::new(n, n).unwrap();
    Position::from_lists(board, cell, "", Colour::White).unwrap()
}

/// The proof of `p` in slices of `slice` positions, all in one solver; the number of slices.
fn sliced_in_memory(p: &Position, slice: u64) -> (Proof, usize) {
    let mut solver = Solver::new(p.board.clone());
    let mut slices = 0;
    let between = |_: &mut Solver| {
        slices += 1;
        Ok(())
    };
    let proof = solver.in_slices(slice, |s| s.proof(p), between).unwrap();
    (proof, slices + 1)
}

/// The proof of `p` in slices of `slice` positions, each by a fresh solver that loads the
/// checkpoint `path` (when there is one) and writes it when its slice stops.
fn sliced_through_file(p: &Position, slice: u64, path: &Path) -> (Proof, usize) {
    for slices in 1.. {
        let mut solver = Solver::new(p.board.clone());
        if path.exists() {
            let loaded = solver.load_snapshot(path, p).unwrap();
            assert_eq!(loaded.totals.positions, solver.nodes);
            assert_eq!(loaded.totals.runs, slices as u64 - 1);
        }
        solver.budget = slice;
        match solver.proof(p) {
            Ok(proof) => return (proof, slices),
            Err(_) => {
                let totals = RunTotals { positions: solver.nodes, cpu_ms: 0, runs: slices as u64 };
                let written = solver.write_snapshot(path, p, totals).unwrap();
                assert!(written.table > 0 && written.pn_dn > 0, "{written:?}");
            }
        }
    }
    unreachable!()
}

#[test]
fn a_solve_resumed_from_checkpoints_gives_the_same_proof() {
    let dir = scratch_dir("hex-resume");
    // 6×6 a1: White (to move) wins; b3: Black wins.
    for (cell, winner) in [("a1", Colour::White), ("b3", Colour::Black)] {
        let p = opening(6, cell);
        let whole = Solver::new(p.board.clone()).proof(&p).unwrap();
        let (in_memory, n) = sliced_in_memory(&p, 40);
        let path = dir.join(format!("{cell}.ckpt"));
        let (resumed, m) = sliced_through_file(&p, 40, &path);
        assert!(n >= 4, "{cell}: {n} slices");
        assert_eq!(n, m, "{cell}");
        assert_eq!(resumed.to_text(), in_memory.to_text(), "{cell}: the checkpoint loses nothing");
        // A stopped slice loses only the loop state of the positions on df-pn's path, whose stored
        // numbers were not updated since their parents chose them: the restart at the root chooses
        // the same path with the same thresholds, so the proof is the uninterrupted one.
        assert_eq!(resumed.to_text(), whole.to_text(), "{cell}: slices change nothing");
        for proof in [&whole, &resumed] {
            assert_eq!(proof.winner, winner, "{cell}");
            check_proof(proof).unwrap();
        }
        assert_eq!(resumed.root_move(), whole.root_move(), "{cell}");
        if winner == Colour::White {
            assert!(resumed.root_move().is_some());
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `text` with the byte at `at` changed.
fn flipped(bytes: &[u8], at: usize) -> Vec<u8> {
    let mut b = bytes.to_vec();
    b[at] ^= 0x20;
    b
}

#[test]
fn foreign_and_damaged_checkpoints_are_refused() {
    let dir = scratch_dir("hex-refuse");
    let (p, path) = (opening(6, "b3"), dir.join("b3.ckpt"));
    let mut solver = Solver::new(p.board.clone());
    solver.budget = 30;
    assert!(solver.proof(&p).is_err());
    solver.write_snapshot(&path, &p, RunTotals::default()).unwrap();
    let refused = |path: &Path, p: &Position, solver: &mut Solver| {
        let e = solver.load_snapshot(path, p).unwrap_err().to_string();
        assert_eq!(solver.nodes, 0, "nothing loaded");
        assert_eq!(e.lines().count(), 1, "{e}");
        e
    };
    let fresh = |p: &Position| Solver::new(p.board.clone());
    assert!(fresh(&p).load_snapshot(&path, &p).is_ok());
    let other = opening(6, "c3");
    assert!(refused(&path, &other, &mut fresh(&other)).contains("another position"));
    let mut no_cut = fresh(&p);
    no_cut.support_cut = false;
    assert!(refused(&path, &p, &mut no_cut).contains("other solver settings"));
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes).to_string();
    let lines: Vec<&str> = text.splitn(4, '\n').collect();
    let (first, id) = (lines[0].len() + 1, lines[0].len() + lines[1].len() + 2);
    let bad = dir.join("bad.ckpt");
    let try_bytes = |b: &[u8]| {
        std::fs::write(&bad, b).unwrap();
        refused(&bad, &p, &mut fresh(&p))
    };
    assert!(try_bytes(&flipped(&bytes, 3)).contains("not a Hex solver checkpoint"));
    assert!(try_bytes(&flipped(&bytes, first + 30)).contains("identity line fails its checksum"));
    // Another format, sealed anew: refused by its number.
    let id_json = lines[1].split_once(' ').unwrap().1.replace("\"format\":1", "\"format\":2");
    let reformatted = format!("{}\n{:08x} {id_json}\n", lines[0], crc32fast::hash(id_json.as_bytes()));
    assert!(try_bytes(&[reformatted.as_bytes(), &bytes[id..]].concat()).contains("format 2"));
    // The tables: cut short, a byte changed, a byte added.
    for at in [bytes.len() / 2, bytes.len() - 3] {
        assert!(try_bytes(&bytes[..at]).contains("is damaged"));
    }
    let tables = id + lines[2].len() + 1;
    for at in [tables + 40, (tables + bytes.len()) / 2, bytes.len() - 6] {
        assert!(try_bytes(&flipped(&bytes, at)).contains("is damaged"), "byte {at}");
    }
    assert!(try_bytes(&[&bytes[..], b"x"].concat()).contains("is damaged"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn solve_hex_checkpoint_resumes_and_refuses_bad_files() {
    let dir = scratch_dir("hex-resume-cli");
    let (c, p1, p2) = (dir.join("c.ckpt"), dir.join("p1.txt"), dir.join("p2.txt"));
    let solve = |proof: &Path, extra: &[&str]| {
        let mut args = vec!["solve", "hex", "--size", "6", "--black", "b3", "--one-move", "--checkpoint"];
        args.extend([c.to_str().unwrap(), "--proof", proof.to_str().unwrap()]);
        args.extend(extra);
        let out = bin(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
    };
    let (out, err) = solve(&p1, &["--slice", "40", "--checkpoint-every", "0"]);
    assert!(out.contains("winner: black") && out.contains("proof checked"), "{out}");
    assert!(err.lines().filter(|l| l.starts_with("checkpoint ")).count() >= 2, "{err}");
    // Again: the finished tables answer at once, with the same proof.
    let (out, err) = solve(&p2, &[]);
    assert!(err.starts_with("resumed from") && out.contains("of them in earlier runs"), "{err}\n{out}");
    assert_eq!(std::fs::read(&p1).unwrap(), std::fs::read(&p2).unwrap());
    // Bad input: one line, exit 2, nothing written.
    let never = dir.join("never.txt");
    let run = |black: &str, ckpt: &Path| {
        let args = ["solve", "hex", "--size", "6", "--black", black, "--checkpoint", ckpt.to_str().unwrap()];
        one_line_error(&[&args[..], &["--proof", never.to_str().unwrap()]].concat())
    };
    assert!(run("c3", &c).contains("another position"));
    let bad = dir.join("bad.ckpt");
    std::fs::write(&bad, "renyi-search hex solver checkpoint\nnot a line\n").unwrap();
    assert!(run("b3", &bad).contains("checkpoint"));
    assert!(run("b3", Path::new("-")).contains("--checkpoint"));
    assert!(run("b3", &dir).contains("not a regular file"));
    assert!(run("b3", &never).contains("same file"));
    assert!(!never.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
