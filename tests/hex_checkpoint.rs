//! The checkpoint of `reproduce --full hex` (src/reproduce/hex_checkpoint.rs):
//! records survive a reopen, a line cut off by a kill is dropped, another
//! run's file and an edited record are refused, a second writer is locked out.

use renyi_search::reproduce::hex_checkpoint::{HexRunId, OpeningCheckpoint, OpeningRecord};

fn id() -> HexRunId {
    HexRunId { program: "test".into(), version: "0".into(), n: 6, solver: "s".into(), openings: vec![0, 1, 2] }
}

fn record(run: &str, opening: usize) -> OpeningRecord {
    OpeningRecord {
        run: run.to_string(),
        opening,
        black_wins: opening == 2,
        nodes: 100 + opening as u64,
        proof_steps: 7,
        proof_checked: true,
        seconds: 0.5,
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
