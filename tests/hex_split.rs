//! The split map job (src/reproduce/hex_map.rs, issue 51): an opening solved reply by reply,
//! one checked record per (opening, reply). Split and whole runs give the same winners on 4×4
//! and on openings of 5×5, every reply's proof checked; a checkpoint with a foreign (opening,
//! reply) record is refused; a job stopped between replies resumes without solving them again.

use renyi_search::progress::Progress;
use renyi_search::reproduce::hex::{opening_of_replies, replies, solve_reply};
use renyi_search::reproduce::hex_checkpoint::{OpeningCheckpoint, OpeningRecord};
use renyi_search::reproduce::hex_map::{BigMap, map_run_id, representatives, run_map};
use renyi_search::two_player::connection::hex::board::Board;

#[test]
fn split_and_whole_runs_agree_on_4x4_every_reply_checked() {
    let cells = representatives(4);
    let whole = run_map(4, &cells, None, 1, None, false, &Progress::none()).unwrap();
    let split = run_map(4, &cells, None, 2, None, true, &Progress::none()).unwrap();
    assert!(whole.complete() && split.complete() && whole.replies.is_empty());
    for &c in &cells {
        let (w, s) = (&whole.solved[&c], &split.solved[&c]);
        assert_eq!(w.black_wins, s.black_wins, "cell {c}");
        assert!(s.proof_checked && s.reply.is_none());
        // Black's opening rests on all 15 replies; White's ends at White's first winning reply.
        let k = split.replies[&c];
        assert!(if s.black_wins { k == 15 } else { (1..=15).contains(&k) }, "cell {c}: {k} replies");
    }
    // The 4x4 map: Black wins exactly on the short diagonal (d1 c2 b3 a4).
    let black: Vec<usize> = cells.iter().copied().filter(|c| split.solved[c].black_wins).collect();
    assert_eq!(black, [3, 6]);
    assert_eq!(split.new_replies, split.replies.values().sum::<usize>());
    let map = BigMap::of(&split, "machine: test".into()).unwrap();
    assert_eq!(map.rows[3].replies, Some(15));
    assert!(map.markdown().contains("Solved reply by reply") && map.markdown().contains("| replies |"));
    let whole_md = BigMap::of(&whole, "machine: test".into()).unwrap().markdown();
    assert!(!whole_md.contains("replies"), "a whole run's table is as before");
}

/// 5×5: c3 and b2 win for Black, a1 and a3 for White (the committed map, results/tables/hex.md).
#[test]
fn split_openings_of_5x5_get_the_committed_winners() {
    let board = Board::new(5, 5).unwrap();
    for (name, black_wins) in [("c3", true), ("b2", true), ("a1", false), ("a3", false)] {
        let cell = board.parse_cell(name).unwrap();
        let order = replies(&board, cell).unwrap();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(sorted, (0..25).filter(|&c| c != cell).collect::<Vec<_>>(), "every free cell once");
        let mut records = std::collections::HashMap::new();
        for &r in &order {
            let record = solve_reply(&board, cell, r, "k").unwrap();
            assert!(record.proof_checked && record.reply == Some(r));
            let white = !record.black_wins;
            records.insert(r, record);
            if white {
                break;
            }
        }
        let (opening, k) = opening_of_replies(cell, &order, "k", |r| records.get(&r).cloned()).unwrap();
        assert_eq!(opening.black_wins, black_wins, "{name}");
        assert_eq!(k, records.len());
        assert_eq!(opening.nodes, records.values().map(|r| r.nodes).sum::<u64>());
        // A missing reply before the decision leaves the opening undecided.
        let first = order[0];
        assert!(opening_of_replies(cell, &order, "k", |r| records.get(&r).filter(|_| r != first).cloned()).is_none());
    }
}

fn reply_record(run: &str, opening: usize, reply: Option<usize>) -> OpeningRecord {
    OpeningRecord {
        run: run.to_string(),
        opening,
        reply,
        black_wins: true,
        nodes: 10,
        proof_steps: 3,
        proof_checked: true,
        seconds: 0.1,
        cpu_seconds: 0.1,
    }
}

#[test]
fn a_checkpoint_with_a_foreign_opening_reply_record_is_refused() {
    let dir = std::env::temp_dir().join(format!("hex-split-foreign-{}", std::process::id()));
    let path = dir.join("hex-4x4.ckpt");
    let cells = representatives(4);
    let (split, whole) = (map_run_id(4, &cells, true), map_run_id(4, &cells, false));
    assert_ne!(split, whole);
    // A whole run's identity and records are written as before the split (the 7x7 job's checkpoint reads on).
    let text = serde_json::to_string(&whole).unwrap();
    assert!(text.ends_with(r#""openings":[0,1,2,3,4,5,6,7]}"#), "{text}");
    let line = r#"{"run":"656d01cb","opening":14,"black_wins":false,"nodes":401910,"proof_steps":51121,"#;
    let line = format!("{line}{}", r#""proof_checked":true,"seconds":736.98,"cpu_seconds":661.57}"#);
    let old: OpeningRecord = serde_json::from_str(&line).unwrap();
    assert_eq!((old.reply, serde_json::to_string(&old).unwrap()), (None, line));
    let foreign = [
        (split.clone(), reply_record("", 0, Some(0))), // the opening's own cell as a reply
        (split.clone(), reply_record("", 0, Some(16))), // off the board
        (split.clone(), reply_record("", 15, Some(1))), // an opening not of this run (d4 is a1's image)
        (split.clone(), reply_record("", 0, None)),    // a whole opening in a split run
        (whole.clone(), reply_record("", 0, Some(1))), // a reply in a whole run
    ];
    for (id, record) in foreign {
        std::fs::remove_file(&path).ok();
        {
            let mut c = OpeningCheckpoint::open(Some(&path), &id).unwrap();
            let key = c.key.clone();
            c.append(&reply_record(&key, 1, id.split.then_some(5))).unwrap();
            c.append(&OpeningRecord { run: key, ..record.clone() }).unwrap();
        }
        let refused = OpeningCheckpoint::open(Some(&path), &id).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(refused.contains("not one of this run's"), "{record:?}: {refused}");
    }
    // A record of another run (sealed with its key) fails its checksum here.
    std::fs::remove_file(&path).ok();
    let other = map_run_id(4, &cells[..3], true);
    let line = {
        let other_path = dir.join("other.ckpt");
        let mut c = OpeningCheckpoint::open(Some(&other_path), &other).unwrap();
        let key = c.key.clone();
        c.append(&reply_record(&key, 1, Some(2))).unwrap();
        drop(c);
        std::fs::read_to_string(&other_path).unwrap().lines().nth(1).unwrap().to_string()
    };
    drop(OpeningCheckpoint::open(Some(&path), &split).unwrap());
    let text = std::fs::read_to_string(&path).unwrap() + &line + "\n";
    std::fs::write(&path, text).unwrap();
    assert!(OpeningCheckpoint::open(Some(&path), &split).err().unwrap().to_string().contains("line 2"));
    // The same reply recorded twice is refused.
    std::fs::remove_file(&path).ok();
    {
        let mut c = OpeningCheckpoint::open(Some(&path), &split).unwrap();
        let key = c.key.clone();
        c.append(&reply_record(&key, 1, Some(2))).unwrap();
        c.append(&reply_record(&key, 1, Some(2))).unwrap();
    }
    assert!(OpeningCheckpoint::open(Some(&path), &split).err().unwrap().to_string().contains("second time"));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn a_split_job_stopped_between_replies_resumes_without_solving_them_again() {
    let dir = std::env::temp_dir().join(format!("hex-split-resume-{}", std::process::id()));
    let path = dir.join("hex-4x4.ckpt");
    let cells = representatives(4);
    let straight = run_map(4, &cells, None, 1, None, true, &Progress::none()).unwrap();
    // Stopped after five replies (the allowance stands for a kill between two replies).
    let stopped = run_map(4, &cells, Some(&path), 1, Some(5), true, &Progress::none()).unwrap();
    assert_eq!(stopped.new_replies, 5);
    assert!(!stopped.complete() && path.exists());
    // A kill in the middle of the fifth reply's line: that reply is solved again.
    let text = std::fs::read_to_string(&path).unwrap();
    assert_eq!(text.lines().count(), 6, "the identity and five replies");
    std::fs::write(&path, &text[..text.len() - 7]).unwrap();
    let resumed = run_map(4, &cells, Some(&path), 2, None, true, &Progress::none()).unwrap();
    assert!(resumed.complete() && !path.exists());
    assert_eq!(resumed.resumed, 4);
    assert_eq!(resumed.new_replies, straight.new_replies - 4);
    for &c in &cells {
        let (a, b) = (&resumed.solved[&c], &straight.solved[&c]);
        assert_eq!((a.black_wins, a.nodes, a.proof_steps), (b.black_wins, b.nodes, b.proof_steps), "cell {c}");
        assert_eq!(resumed.replies[&c], straight.replies[&c]);
        assert!(a.proof_checked);
    }
    std::fs::remove_dir_all(&dir).ok();
}
