//! Checkpoints and shard files of work-unit runs are tamper-evident: an
//! edited header, a damaged or cut line inside the file, a unit recorded
//! twice and a record of another run are refused before any result is
//! written, naming the file and the line; only a last line cut off by a kill
//! is dropped (and cut from the file on resume). A header or record without
//! its checksum (and so a checkpoint of the older, unsealed format) is refused
//! too, and α in a header is exact text. Found by an input audit
//! (issue 26): each case here gave a silent answer before.

mod common;
use common::scratch;

use renyi_search::games::mastermind::Mastermind;
use renyi_search::output::sealed_lines::identity_line;
use renyi_search::search::recheck::read_run;
use renyi_search::search::units::{RunHeader, SessionTime, ShardFile, UnitRecord, UnitRun, merge_named, run_units};
use renyi_search::search::{Strategy, TieRule};
use std::path::Path;

fn game() -> Mastermind {
    Mastermind::new(3, 4, true).unwrap()
}

fn strategy(alpha: &str) -> Strategy {
    Strategy::new(alpha.parse().unwrap(), TieRule::lex())
}

fn run(alpha: &str, checkpoint: &Path) -> renyi_search::error::Result<ShardFile> {
    run_units(
        &game(),
        strategy(alpha),
        &UnitRun {
            levels: 2,
            shard: "0/1".parse().unwrap(),
            checkpoint: Some(checkpoint),
            progress: Default::default(),
        },
    )
}

/// A fresh checkpoint of the α = `alpha` run, as lines (header first).
fn checkpoint_lines(name: &str, alpha: &str) -> (std::path::PathBuf, Vec<String>) {
    let path = scratch(name);
    let _ = std::fs::remove_file(&path);
    run(alpha, &path).unwrap();
    let lines = std::fs::read_to_string(&path).unwrap().lines().map(String::from).collect();
    (path, lines)
}

fn refused(alpha: &str, path: &Path) -> String {
    run(alpha, path).expect_err("the checkpoint must be refused").to_string()
}

#[test]
fn an_edited_header_is_refused_not_read_as_another_alpha() {
    // Before: the α = 0 records, their header's α set to 1, were resumed as
    // an α = 1 run and gave the α = 0 total as H_1's.
    let (path, mut lines) = checkpoint_lines("integrity-header.jsonl", "0");
    let (crc, json) = lines[0].split_once(' ').unwrap();
    let header: RunHeader = serde_json::from_str(json).unwrap();
    assert_eq!(Some(crc), RunHeader::new(header.problem.clone(), strategy("0"), 2).crc.as_deref());
    assert!(header.crc.is_none(), "the checksum stands in front of the identity, not inside it");
    assert!(lines[0].contains(r#""alpha":"0""#));
    lines[0] = lines[0].replace(r#""alpha":"0""#, r#""alpha":"1""#);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("line 1") && message.contains("checksum"), "{message}");
    // The header re-sealed for α = 1 (a deliberate forgery of the header):
    // the records, keyed by the α = 0 header, are refused as another run's.
    lines[0] = identity_line(&RunHeader::new(header.problem.clone(), strategy("1"), header.levels).identity());
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("line 2") && message.contains("another run"), "{message}");
}

#[test]
fn a_damaged_or_cut_line_inside_the_file_is_refused_with_its_line() {
    let (path, lines) = checkpoint_lines("integrity-damaged.jsonl", "1");
    assert!(lines.len() > 6, "a run of several units");
    // One byte flipped: the line no longer parses.
    let mut flipped = lines.clone();
    flipped[4] = flipped[4].replacen('"', "#", 1);
    std::fs::write(&path, flipped.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("integrity-damaged.jsonl line 5") && message.contains("does not parse"), "{message}");
    // A line cut in half with the later lines kept.
    let mut cut = lines.clone();
    cut[3] = cut[3][..cut[3].len() / 2].to_string();
    std::fs::write(&path, cut.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("line 4"), "{message}");
    // The same damage is named by a recheck, whatever unit it asks for.
    let message = read_run(&path).unwrap_err().to_string();
    assert!(message.contains("line 4"), "{message}");
}

#[test]
fn a_unit_recorded_twice_is_refused_before_the_shard_file_is_written() {
    let (path, mut lines) = checkpoint_lines("integrity-twice.jsonl", "1");
    let again = lines[3].clone();
    lines.push(again);
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains(&format!("line {}", lines.len())) && message.contains("second time"), "{message}");
    assert!(message.contains("first on line 4"), "{message}");
    assert!(read_run(&path).unwrap_err().to_string().contains("second time"));
}

#[test]
fn a_record_cut_off_by_a_kill_is_dropped_and_cut_from_the_file() {
    let (path, lines) = checkpoint_lines("integrity-kill.jsonl", "1");
    let whole = run("1", &path).unwrap();
    // The last record cut off mid-line, as a kill leaves it.
    let last = lines.last().unwrap();
    let mut text = lines[..lines.len() - 1].join("\n") + "\n";
    text.push_str(&last[..last.len() / 2]);
    std::fs::write(&path, &text).unwrap();
    let resumed = run("1", &path).unwrap();
    assert_eq!(resumed.units.len(), whole.units.len());
    assert_eq!(
        serde_json::to_string(&resumed.units.iter().map(|u| &u.depth_counts).collect::<Vec<_>>()).unwrap(),
        serde_json::to_string(&whole.units.iter().map(|u| &u.depth_counts).collect::<Vec<_>>()).unwrap()
    );
    // Every line of the file is whole again, each unit once.
    let after = std::fs::read_to_string(&path).unwrap();
    assert!(after.ends_with('\n'));
    assert_eq!(after.lines().count(), lines.len());
    assert_eq!(read_run(&path).unwrap().1.len(), whole.units.len());
}

/// A checkpoint whose checksums are deleted is refused, not read as an
/// older format: before, an edited α or depth count then resumed silently.
/// So is a checkpoint of the older format, the checksums inside the JSON.
#[test]
fn a_checkpoint_without_its_checksums_is_refused() {
    let (path, lines) = checkpoint_lines("integrity-unsealed.jsonl", "1");
    let strip = |line: &str| line.split_once(' ').unwrap().1.to_string();
    // The header's checksum deleted and its α edited.
    let mut unsealed = lines.clone();
    unsealed[0] = strip(&lines[0]).replace(r#""alpha":"1""#, r#""alpha":"101/100""#);
    std::fs::write(&path, unsealed.join("\n") + "\n").unwrap();
    let message = refused("101/100", &path);
    assert!(message.contains("line 1") && message.contains("checksum"), "{message}");
    // One record's checksum deleted and a depth count moved.
    let mut unsealed = lines.clone();
    let mut record: serde_json::Value = serde_json::from_str(&strip(&lines[3])).unwrap();
    let counts = record["depth_counts"].as_array_mut().unwrap();
    // The records' order follows the parallel run, so the moved count goes to
    // a neighbour that exists whichever depth the record's first code has.
    let d = counts.iter().position(|c| c != "0").unwrap();
    let e = if d + 1 < counts.len() { d + 1 } else { d - 1 };
    let n: u64 = counts[d].as_str().unwrap().parse().unwrap();
    counts[d] = (n - 1).to_string().into();
    counts[e] = (counts[e].as_str().unwrap().parse::<u64>().unwrap() + 1).to_string().into();
    unsealed[3] = serde_json::to_string(&record).unwrap();
    std::fs::write(&path, unsealed.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("line 4") && message.contains("checksum"), "{message}");
    assert!(read_run(&path).unwrap_err().to_string().contains("checksum"));
    // The older format: each line's JSON with its checksum inside, as a `crc` field.
    let mut older = lines.clone();
    for line in older.iter_mut() {
        let (crc, json) = line.split_once(' ').unwrap();
        *line = format!("{},\"crc\":\"{crc}\"}}", json.strip_suffix('}').unwrap());
    }
    std::fs::write(&path, older.join("\n") + "\n").unwrap();
    let message = refused("1", &path);
    assert!(message.contains("line 1") && message.contains("checksum") && !message.contains('\n'), "{message}");
}

/// α is written as exact text and compared by value: two α whose decimal
/// display once coincided are two runs, and a header whose α is not exact
/// text is refused.
#[test]
fn alpha_in_a_header_is_exact() {
    let (a, b) = (strategy("4503599627370497.5"), strategy("4503599627370498.5"));
    let (ha, hb) = (RunHeader::new("p".into(), a, 2), RunHeader::new("p".into(), b, 2));
    let text = |h: &RunHeader| serde_json::to_value(h).unwrap()["alpha"].as_str().unwrap().to_string();
    assert_eq!((text(&ha), text(&hb)), ("9007199254740995/2".to_string(), "9007199254740997/2".to_string()));
    assert_ne!(ha.identity(), hb.identity());
    assert_eq!(ha.alpha, "9007199254740995/2".parse().unwrap());
    assert_eq!(text(&RunHeader::new("p".into(), strategy("inf"), 2)), "inf");
    assert_eq!(text(&RunHeader::new("p".into(), strategy("1.34"), 2)), "67/50");
    // A decimal α or a fraction not in lowest terms in a header: refused, not exact text.
    for inexact in ["4503599627370497.5", "134/100", "1.34"] {
        let json = serde_json::to_string(&ha).unwrap().replace("9007199254740995/2", inexact);
        let err = serde_json::from_str::<RunHeader>(&json).unwrap_err().to_string();
        assert!(err.contains("not an exact α"), "{inexact}: {err}");
    }
    // The tie rule and the penalty split are typed, under their texts of before.
    let mix = RunHeader::new("p".into(), Strategy::new("1".parse().unwrap(), TieRule::mix_by_root_class()), 2);
    let json = serde_json::to_string(&mix).unwrap();
    assert!(json.contains(r#""tie_rule":"MIX (root uniform over symmetry classes)""#), "{json}");
    assert!(json.contains(r#""penalty_split":"uniform over the best codes""#), "{json}");
    assert_eq!(serde_json::from_str::<RunHeader>(&json).unwrap(), mix);
    let renamed = json.replace("MIX (root", "MIX(root");
    assert!(serde_json::from_str::<RunHeader>(&renamed).unwrap_err().to_string().contains("not a tie rule"));
    // A checkpoint of one of the two (its header alone) is refused by the other.
    let path = scratch("integrity-alpha.jsonl");
    let header = RunHeader::new(renyi_search::search::Presentation::name(&game()), a, 2);
    std::fs::write(&path, identity_line(&header.identity()) + "\n").unwrap();
    let message = refused("4503599627370498.5", &path);
    assert!(message.contains("another run") && message.contains("9007199254740995/2"), "{message}");
}

#[test]
fn merge_names_the_file_at_fault() {
    let path = scratch("integrity-merge.jsonl");
    let _ = std::fs::remove_file(&path);
    let whole = run("1", &path).unwrap();
    let mut edited = whole.clone();
    edited.units[2].penalty = "99".into();
    let named = |a: &ShardFile, b: &ShardFile| {
        merge_named(&[("good.json".to_string(), a), ("bad.json".to_string(), b)]).unwrap_err().to_string()
    };
    let (mut first, mut second) = (whole.clone(), edited.clone());
    first.units.truncate(2);
    second.units.drain(..2);
    let message = named(&first, &second);
    assert!(message.contains("bad.json: unit") && message.contains("checksum"), "{message}");
    let message = named(&whole, &whole);
    assert!(message.contains("appears twice: in good.json and in bad.json"), "{message}");
}

/// A sealed record survives writing and reading: its floats (wall
/// seconds, session times) must parse back to the very value written,
/// or the checksum over the re-serialised record fails. serde_json's
/// default float parser is not always correctly rounded; the
/// `float_roundtrip` feature is. 1.7638857460000001 s is the unit-35 time
/// of the 6c3p H_0 MIXr re-derivation whose valid record was refused.
#[test]
fn sealed_records_round_trip_their_floats() {
    let secs = [1.7638857460000001, 0.1 + 0.2, 1795636586.036845, 735.293066043, 5e-324, 1.7976931348623157e308];
    for &seconds in &secs {
        let record = UnitRecord {
            index: 35,
            path: vec![0, 6],
            queries: vec![1, 23],
            weight: Some("1/6".into()),
            codes: 1,
            depth_counts: vec!["0".into(), "1".into()],
            penalty: "0".into(),
            seconds,
            penalised: Some(Vec::new()),
            session: Some(SessionTime { started: seconds, at: seconds / 3.0 }),
            crc: None,
        }
        .sealed("0123abcd");
        let text = serde_json::to_string(&record).unwrap();
        let back: UnitRecord = serde_json::from_str(&text).unwrap();
        assert_eq!(back.seconds.to_bits(), seconds.to_bits(), "{text}");
        back.check("0123abcd").unwrap();
        assert!(back.check("0123abce").is_err(), "a record checks only in its own run");
        let unsealed = UnitRecord { crc: None, ..back };
        assert!(unsealed.check("0123abcd").unwrap_err().to_string().contains("no checksum"));
    }
}

/// A finished shard file (sealed lines: identity, one line per unit, a
/// closing line) reads back as written; a flipped byte, a unit line of
/// another run or of another shard, a missing closing line and a unit
/// recorded twice are each refused by `merge` with one line and exit 2.
#[test]
fn damaged_finished_shard_files_are_refused_with_one_line() {
    use renyi_search::search::units::{read_shard, write_shard};
    let dir = common::scratch_dir("integrity-shards");
    let shard = |alpha: &str, shard: &str| {
        let run = UnitRun { levels: 2, shard: shard.parse().unwrap(), checkpoint: None, progress: Default::default() };
        run_units(&game(), strategy(alpha), &run).unwrap()
    };
    let (mine, other_shard, other_run) = (shard("1", "0/2"), shard("1", "1/2"), shard("2", "0/2"));
    let written = |name: &str, file: &ShardFile| {
        let path = dir.join(name);
        write_shard(&path, file).unwrap();
        (path.clone(), std::fs::read_to_string(&path).unwrap().lines().map(String::from).collect::<Vec<_>>())
    };
    let ((good, lines), (other_path, other_lines)) = (written("good.json", &mine), written("other.json", &other_shard));
    let (_, foreign_lines) = written("foreign.json", &other_run);
    let back = read_shard(&good).unwrap();
    assert_eq!(
        (back.header.clone(), back.units.len(), back.seconds),
        (mine.header.clone(), mine.units.len(), mine.seconds)
    );
    for (a, b) in back.units.iter().zip(&mine.units) {
        assert_eq!(serde_json::to_string(a).unwrap(), serde_json::to_string(b).unwrap());
    }
    assert_eq!(lines.len(), mine.units.len() + 2, "identity, units, closing");
    assert!(lines.last().unwrap().contains(r#"{"finished":{"units":"#), "{}", lines.last().unwrap());
    let s = |p: &Path| p.to_str().unwrap().to_string();
    let merged = common::bin(&["merge", &s(&good), &s(&other_path)]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let refused = |name: &str, lines: Vec<String>, needle: &str| {
        let path = dir.join(name);
        std::fs::write(&path, lines.join("\n") + "\n").unwrap();
        let message = common::one_line_error(&["merge", &s(&path), &s(&other_path)]);
        assert!(message.contains(name) && message.contains(needle), "{name}: {message}");
    };
    let mut flipped = lines.clone();
    let mut bytes = flipped[2].clone().into_bytes();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 1;
    flipped[2] = String::from_utf8(bytes).unwrap();
    refused("flipped.json", flipped, "line 3: the record fails its checksum");
    for (name, from) in [("foreign-run.json", &foreign_lines), ("foreign-shard.json", &other_lines)] {
        let mut spliced = lines.clone();
        spliced[1] = from[1].clone();
        refused(name, spliced, "line 2: the record fails its checksum");
    }
    let mut cut = lines.clone();
    cut.pop();
    refused("cut.json", cut, "no closing line");
    let mut twice = lines.clone();
    twice.insert(2, lines[1].clone());
    refused("twice.json", twice, "recorded a second time");
    let mut dropped = lines.clone();
    dropped.remove(1);
    refused("dropped.json", dropped, "lines were removed or added");
    // An edited identity line is still a shard file to `--recheck`'s reader,
    // refused for its checksum (not taken for a checkpoint and misreported).
    let mut head = lines.clone();
    head[0] = head[0].replacen(r#""levels":2"#, r#""levels":3"#, 1);
    assert_ne!(head[0], lines[0]);
    let path = dir.join("head.json");
    std::fs::write(&path, head.join("\n") + "\n").unwrap();
    let message = renyi_search::search::recheck::read_run(&path).unwrap_err().to_string();
    assert!(message.contains("line 1 is not the header of a finished shard"), "{message}");
    std::fs::remove_dir_all(&dir).unwrap();
}
