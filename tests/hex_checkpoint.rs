//! The checkpoint of `reproduce --full hex` (src/reproduce/hex_checkpoint.rs):
//! records survive a reopen, a line cut off by a kill is dropped, another
//! run's file and an edited record are refused, a second writer is locked out.
//! The large maps' job (src/reproduce/hex_map.rs): the half turn, a stopped
//! job's checkpoint resumed on 4×4 with two workers gives the map of an uninterrupted one.

use renyi_search::progress::Progress;
use renyi_search::reproduce::hex::OpeningMap;
use renyi_search::reproduce::hex_checkpoint::{HexRunId, OpeningCheckpoint, OpeningRecord};
use renyi_search::reproduce::hex_map::{BigMap, half_turn, map_run_id, representatives, run_map, schedule};
use renyi_search::two_player::connection::hex::board::Board;
use renyi_search::two_player::connection::hex::hsearch::Limits;
use renyi_search::two_player::connection::hex::solver::Solver;

fn id() -> HexRunId {
    HexRunId {
        program: "test".into(),
        version: "0".into(),
        n: 6,
        solver: "s".into(),
        openings: vec![0, 1, 2],
        split: false,
    }
}

fn record(run: &str, opening: usize) -> OpeningRecord {
    OpeningRecord {
        run: run.to_string(),
        opening,
        reply: None,
        black_wins: opening == 2,
        nodes: 100 + opening as u64,
        proof_steps: 7,
        proof_checked: true,
        seconds: 0.5,
        cpu_seconds: 0.25,
    }
}

#[test]
fn resumes_and_refuses_what_it_should() {
    let dir = std::env::temp_dir().join(format!("hex-checkpoint-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("hex-6x6.ckpt");
    {
        let mut c = OpeningCheckpoint::open(Some(&path), &id()).unwrap();
        assert_eq!(c.resumed(), 0);
        let key = c.key.clone();
        c.append(&record(&key, 0)).unwrap();
        c.append(&record(&key, 2)).unwrap();
        assert!(OpeningCheckpoint::open(Some(&path), &id()).is_err(), "a second writer is locked out");
    }
    // A kill in the middle of the last line: that opening is solved again.
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, &text[..text.len() - 9]).unwrap();
    {
        let c = OpeningCheckpoint::open(Some(&path), &id()).unwrap();
        assert_eq!(c.resumed(), 1);
        assert_eq!(c.finished(0).unwrap().nodes, 100);
        assert!(c.finished(2).is_none());
    }
    let other = HexRunId { n: 7, ..id() };
    assert!(OpeningCheckpoint::open(Some(&path), &other).err().unwrap().to_string().contains("identity"));
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("\"nodes\":100", "\"nodes\":101", 1)).unwrap();
    assert!(OpeningCheckpoint::open(Some(&path), &id()).err().unwrap().to_string().contains("line 2"));
    std::fs::write(&path, text).unwrap();
    OpeningCheckpoint::open(Some(&path), &id()).unwrap().finish().unwrap();
    assert!(!path.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The committed maps 1×1 … 6×6 (results/tables/hex.json, sealed).
fn committed_maps() -> Vec<OpeningMap> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("results/tables/hex.json");
    let (maps, _): (Vec<OpeningMap>, serde_json::Value) =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    maps
}

#[test]
fn the_half_turn_keeps_the_winner_on_the_committed_maps() {
    let maps = committed_maps();
    assert_eq!(maps.iter().map(|m| m.n).collect::<Vec<_>>(), [1, 2, 3, 4, 5, 6]);
    for m in &maps {
        for c in 0..m.n * m.n {
            assert_eq!(m.black_wins[c], m.black_wins[half_turn(m.n, c)], "{0}x{0} cell {c}", m.n);
        }
    }
    assert_eq!(half_turn(7, 0), 48);
    assert_eq!(half_turn(7, 24), 24, "d4 is its own image");
    assert_eq!((representatives(6).len(), representatives(7).len(), representatives(8).len()), (18, 25, 32));
    // White's edges (columns a and g) first, the middle row before the corners, then cell order.
    assert_eq!(&schedule(7, &representatives(7))[..4], [21, 14, 20, 7]);
}

#[test]
fn a_stopped_map_job_resumes_to_the_uninterrupted_map() {
    let dir = std::env::temp_dir().join(format!("hex-map-{}", std::process::id()));
    let path = dir.join("hex-4x4.ckpt");
    let cells = representatives(4);
    let straight = run_map(4, &cells, None, 1, None, false, &Progress::none()).unwrap();
    assert!(straight.complete() && straight.resumed == 0);
    // A job killed after three openings: its checkpoint holds their records.
    {
        let mut stopped = OpeningCheckpoint::open(Some(&path), &map_run_id(4, &cells, false)).unwrap();
        for &c in &schedule(4, &cells)[..3] {
            stopped.append(&OpeningRecord { run: stopped.key.clone(), ..straight.solved[&c].clone() }).unwrap();
        }
    }
    let resumed = run_map(4, &cells, Some(&path), 2, None, false, &Progress::none()).unwrap();
    assert!(resumed.complete());
    assert_eq!(resumed.resumed, 3);
    assert!(!path.exists(), "a finished job removes its checkpoint");
    let committed = committed_maps().into_iter().find(|m| m.n == 4).unwrap();
    for &c in &cells {
        let (a, b) = (&resumed.solved[&c], &straight.solved[&c]);
        assert_eq!((a.black_wins, a.nodes, a.proof_steps), (b.black_wins, b.nodes, b.proof_steps), "cell {c}");
        assert_eq!((a.black_wins, a.nodes), (committed.black_wins[c], committed.nodes[c]), "cell {c}");
        assert!(a.proof_checked);
    }
    let map = BigMap::of(&resumed, "machine: test".into()).unwrap();
    let wins: Vec<bool> = map.rows.iter().map(|r| r.black_wins).collect();
    assert_eq!(wins, committed.black_wins, "the images by the half turn complete the committed 4x4 map");
    assert_eq!(map.rows[15].by_half_turn_of.as_deref(), Some("a1"));
    assert_eq!(map.rows[0].by_half_turn_of, None);
    assert!(map.markdown().contains("| d4 | White | by the half turn of a1 |"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_capped_job_solves_exactly_that_many_openings_and_resumes() {
    let dir = std::env::temp_dir().join(format!("hex-map-cap-{}", std::process::id()));
    let path = dir.join("hex-4x4.ckpt");
    let cells = representatives(4);
    // Two workers, a cap of one: the second worker must not start another opening.
    let capped = run_map(4, &cells, Some(&path), 2, Some(1), false, &Progress::none()).unwrap();
    assert_eq!(capped.solved.keys().copied().collect::<Vec<_>>(), vec![schedule(4, &cells)[0]]);
    assert!(!capped.complete() && path.exists(), "a capped job keeps its checkpoint");
    let rest = run_map(4, &cells, Some(&path), 2, None, false, &Progress::none()).unwrap();
    assert_eq!((rest.resumed, rest.solved.len()), (1, cells.len()));
    assert!(rest.complete() && !path.exists());
    std::fs::remove_dir_all(&dir).ok();
}

/// The solver's settings as the run identity shows them (`Solver::describe`): the defaults in
/// their fixed wording, and every setting that changes the search changes the text.
#[test]
fn describe_names_every_setting_of_the_search() {
    let board = Board::new(4, 4).unwrap();
    let fresh = Solver::new(board.clone());
    assert_eq!(
        fresh.describe(),
        "h-search on: or 4 carrier 12 av+ pair 12; edge pair: or 6 carrier 16 av+ pair 24; \
         df-pn (order resistance, new-child dn 0 %, widen 0 %); fill-in on; reuse off; transplant on; \
         vulnerable on; support cut on; dominated on; derivations on"
    );
    assert_eq!(map_run_id(4, &[0, 1], false).solver, fresh.describe());
    let changes: Vec<fn(&mut Solver)> = vec![
        |s| s.limits.max_or = 3,
        |s| s.limits.max_carrier = 11,
        |s| s.limits.av_plus = false,
        |s| s.limits.max_per_pair = 11,
        |s| s.edge_limits = Limits::SOLVER,
        |s| s.edge_limits.max_per_pair = usize::MAX,
        |s| s.use_h_search = false,
        |s| s.dfpn = false,
        |s| s.resistance_order = false,
        |s| s.init_dn = 50,
        |s| s.widen = 25,
        |s| s.fill_in = false,
        |s| s.reuse = true,
        |s| s.transplant = false,
        |s| s.vulnerable = false,
        |s| s.support_cut = false,
        |s| s.dominated = false,
        |s| s.derivations = false,
    ];
    let mut seen = std::collections::HashSet::from([fresh.describe()]);
    for (i, change) in changes.iter().enumerate() {
        let mut s = Solver::new(board.clone());
        change(&mut s);
        assert!(seen.insert(s.describe()), "change {i} gives a text already seen: {}", s.describe());
    }
    let mut s = Solver::new(board);
    s.budget = 10;
    assert_eq!(s.describe(), fresh.describe(), "the node budget stops a search, it does not change one");
}

/// A map job's checkpoint written by another solver (here: the identity of the program before
/// `Solver::describe`, whose solver text was the limits and fill-in) is refused, and left as it was.
#[test]
fn a_checkpoint_of_another_solver_is_refused() {
    let dir = std::env::temp_dir().join(format!("hex-map-solver-{}", std::process::id()));
    let path = dir.join("hex-4x4.ckpt");
    let cells = representatives(4);
    let mut old = map_run_id(4, &cells, false);
    old.solver = "Limits { max_or: 4, max_carrier: 12, av_plus: true, max_per_pair: 12 }, fill-in true".into();
    {
        let mut c = OpeningCheckpoint::open(Some(&path), &old).unwrap();
        let key = c.key.clone();
        c.append(&record(&key, cells[0])).unwrap();
    }
    let before = std::fs::read(&path).unwrap();
    let refused = run_map(4, &cells, Some(&path), 1, None, false, &Progress::none()).err().unwrap().to_string();
    assert!(refused.contains("identity") && refused.contains("solver"), "{refused}");
    assert_eq!(std::fs::read(&path).unwrap(), before, "the refused checkpoint is left as it was");
    // The same file under this solver's identity resumes.
    std::fs::remove_file(&path).unwrap();
    {
        let mut c = OpeningCheckpoint::open(Some(&path), &map_run_id(4, &cells, false)).unwrap();
        let key = c.key.clone();
        c.append(&record(&key, cells[0])).unwrap();
    }
    let run = run_map(4, &cells, Some(&path), 1, Some(0), false, &Progress::none()).unwrap();
    assert_eq!(run.resumed, 1);
    std::fs::remove_dir_all(&dir).ok();
}

/// A committed 6×6-style map (here 2×2, sealed) made by another solver is refused by the replay
/// of `reproduce hex` with a message naming the way out, before any opening is solved.
#[test]
fn a_committed_map_of_another_solver_is_refused() {
    let dir = std::env::temp_dir().join(format!("hex-map-committed-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("tables")).unwrap();
    std::fs::create_dir_all(dir.join("figures")).unwrap();
    let map = |n: usize, solver: &str| OpeningMap {
        n,
        black_wins: vec![true; n * n],
        nodes: vec![1; n * n],
        proof_steps: vec![1; n * n],
        proofs_checked: true,
        solver: solver.to_string(),
        seconds: Vec::new(),
    };
    let json = serde_json::to_string(&(vec![map(1, "old"), map(2, "old")], serde_json::Value::Null)).unwrap();
    std::fs::write(dir.join("tables/hex.json"), json).unwrap();
    std::fs::write(dir.join("tables/hex.md"), "old").unwrap();
    std::fs::write(dir.join("figures/hex-openings.svg"), "old").unwrap();
    let files: Vec<String> = renyi_search::reproduce::hex::FILES.iter().map(|f| f.to_string()).collect();
    renyi_search::reproduce::sealed::write_seal(&dir, "hex", &files).unwrap();
    let refused = renyi_search::reproduce::hex::reproduce(&dir, 2, false, true, &Progress::none());
    let text = refused.err().unwrap().to_string();
    assert!(text.contains("another solver") && text.contains("reproduce --full hex"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
