//! `renyi-search curve`: bad input exits 2 with one line and writes nothing;
//! good input writes the CSV and JSON with provenance.

mod common;
use common::{bin, scratch_dir as scratch};

#[test]
fn bad_curve_input_exits_2_and_writes_nothing() {
    let dir = scratch("bad");
    let csv = dir.join("c.csv");
    let csv = csv.to_str().unwrap();
    for args in [
        vec!["curve", "mastermind", "--from", "2", "--to", "1", "--csv", csv],
        vec!["curve", "mastermind", "--from", "-1", "--csv", csv],
        vec!["curve", "mastermind", "--to", "nan", "--csv", csv],
        vec!["curve", "wurzel", "--size", "1", "--csv", csv],
        vec!["curve", "beams", "3c6p", "--tie", "lex-x", "--csv", csv],
        // The whole 6c6p curve needs a unit run (it used to start one silently).
        vec!["curve", "beams", "6c6p", "--csv", csv],
        vec!["curve", "free", "--width", "1", "--csv", csv],
    ] {
        let out = bin(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim().lines().count(), 1, "{args:?}: {err}");
        assert!(!err.contains("panicked"));
        assert!(!std::path::Path::new(csv).exists(), "{args:?} wrote a file");
    }
}

#[test]
fn csv_and_json_carry_the_curve_and_its_provenance() {
    let dir = scratch("good");
    let (csv, json) = (dir.join("mm.csv"), dir.join("mm.json"));
    let out = bin(&[
        "curve",
        "mastermind",
        "--from",
        "1.3",
        "--to",
        "1.4",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&csv).unwrap();
    assert!(text.starts_with("# MM(4,6)"));
    // α = 1.34 lies in the interval after the AABC/ABCD crossing: total 5680.
    let row = text.lines().find(|l| l.starts_with("interval") && l.contains(",5680,")).expect("the 5680 interval");
    assert!(row.contains("AABC"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["provenance"]["program"], "renyi-search");
    assert_eq!(v["tie_rule"], "LEX");
    assert_eq!(v["uncertified"], 0);
    assert_eq!(v["segments"][0]["lo_text"], "1.3");
}
