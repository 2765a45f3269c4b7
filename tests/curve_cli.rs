//! `renyi-search curve`: bad input exits 2 with one line and writes nothing;
//! good input writes the CSV and JSON with provenance.

mod common;
use common::{bin, one_line_error, scratch_dir as scratch};

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
    // The header row first (issue 49 item 8); what produced it is in the JSON.
    assert!(text.starts_with("kind,lo,hi,"), "{}", text.lines().next().unwrap_or_default());
    // α = 1.34 lies in the interval after the AABC/ABCD crossing: total 5680.
    let row = text.lines().find(|l| l.starts_with("interval") && l.contains(",5680,")).expect("the 5680 interval");
    assert!(row.contains("AABC"));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(v["provenance"]["program"], "renyi-search");
    assert!(v["provenance"]["command"].as_str().unwrap().starts_with("curve mastermind"));
    assert_eq!(v["game"], "MM(4,6) (MM-1296)");
    assert_eq!(v["tie_rule"], "LEX");
    assert_eq!(v["uncertified"], 0);
    assert_eq!(v["segments"][0]["lo_text"], "1.3");
}

/// A unit run merged in slices writes the same CSV rows (kind, total, mean,
/// first queries; a breakpoint may carry another certified enclosure of the
/// same root) and the same overview grid and bins as the whole merge, and
/// no temporary file; bad slice options exit 2 before any work.
#[test]
fn a_merge_in_slices_writes_what_the_whole_merge_writes() {
    let dir = scratch("slices");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["curve", "mastermind", "--tie", "mix", "--from", "1/2", "--to", "5/2", "--levels", "2"];
        let units = p("run.units");
        args.extend(["--checkpoint", units.as_str()]);
        args.extend(extra);
        let out = bin(&args);
        assert!(out.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["--csv", &p("whole.csv"), "--overview", &p("whole.json")]);
    run(&["--csv", &p("sliced.csv.gz"), "--overview", &p("sliced.json"), "--merge-slices", "7"]);
    let columns = |text: &str| -> Vec<String> {
        let mut rows = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
        rows.records()
            .map(|r| {
                let r = r.unwrap();
                format!("{} {} {} {} queries", &r[0], &r[5], &r[6], r[8].len())
            })
            .collect()
    };
    let whole = std::fs::read_to_string(p("whole.csv")).unwrap();
    let mut sliced = String::new();
    use std::io::Read;
    flate2::read::GzDecoder::new(std::fs::File::open(p("sliced.csv.gz")).unwrap()).read_to_string(&mut sliced).unwrap();
    assert_eq!(whole.lines().next(), sliced.lines().next(), "the same columns");
    assert!(sliced.starts_with("kind,lo,hi,"));
    assert_eq!(columns(&sliced), columns(&whole));
    assert!(columns(&whole).len() > 40, "{} rows", columns(&whole).len());
    let json =
        |name: &str| -> serde_json::Value { serde_json::from_str(&std::fs::read_to_string(p(name)).unwrap()).unwrap() };
    let (w, s) = (json("whole.json"), json("sliced.json"));
    for key in ["grid", "bins", "pieces", "intervals", "best_total", "uncertified", "domain"] {
        assert_eq!(w[key], s[key], "{key}");
    }
    assert_eq!(w["best_total"], "238559/42");
    let left: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    assert!(!left.iter().any(|n| n.contains("tmp")), "{left:?}");
    // Bad slice options: one line, exit 2, nothing written.
    let csv = p("bad.csv");
    for extra in [
        vec!["--merge-slices", "1"],
        vec!["--merge-slices", "3", "--json", &csv],
        vec!["--merge-slices", "3", "--to", "inf"],
        vec!["--merge-slices", "3", "--to", "2", "--all"],
        // Cuts whose fractions do not fit: refused, not wrapped.
        vec!["--merge-slices", "3", "--from", "1/18446744073709551557", "--to", "2/18446744073709551533"],
    ] {
        let units = p("bad.units");
        let mut args = vec!["curve", "mastermind", "--levels", "2", "--checkpoint", &units, "--csv", &csv];
        args.extend(extra.iter().copied());
        let out = bin(&args);
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!((out.status.code(), err.trim().lines().count()), (Some(2), 1), "{extra:?}: {err}");
        assert!(!std::path::Path::new(&csv).exists() && !std::path::Path::new(&units).exists(), "{extra:?}");
    }
    let out = bin(&["curve", "mastermind", "--merge-slices", "3", "--to", "2"]);
    assert_eq!(out.status.code(), Some(2), "--merge-slices without a unit run");
}

/// A reader that stops early (`| head -1`) ends the process by SIGPIPE: every
/// file asked for is written before anything is printed (the overview used
/// to come after the pieces were printed, and was lost: 6c3p on [1, 2] has
/// 1393 pieces, more lines than a pipe holds).
#[test]
fn files_are_written_before_the_pieces_are_printed() {
    let dir = scratch("head");
    let (csv, overview) = (dir.join("c.csv"), dir.join("o.json"));
    let line = format!(
        "'{}' curve beams 6c3p --from 1 --to 2 --all --csv '{}' --overview '{}' | head -1",
        env!("CARGO_BIN_EXE_renyi-search"),
        csv.display(),
        overview.display()
    );
    let out = std::process::Command::new("sh").args(["-c", &line]).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
    assert!(csv.exists() && overview.exists(), "{}", String::from_utf8_lossy(&out.stderr));
    let o: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&overview).unwrap()).unwrap();
    assert_eq!(o["grid"][0]["alpha"], "1");
}

/// The same on a Beams game: 6c3p LEX-c on [1, 2] (175 units, 1393 pieces)
/// merged in 10 slices gives the rows of the whole merge.
#[test]
fn a_beams_merge_in_slices_writes_the_rows_of_the_whole_merge() {
    let dir = scratch("slices-beams");
    let p = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let units = p("run.units");
    let run = |extra: &[&str]| {
        let mut args = vec!["curve", "beams", "6c3p", "--from", "1", "--to", "2", "--levels", "2"];
        args.extend(["--checkpoint", units.as_str()]);
        args.extend(extra);
        let out = bin(&args);
        assert!(out.status.success(), "{extra:?}: {}", String::from_utf8_lossy(&out.stderr));
    };
    run(&["--csv", &p("whole.csv")]);
    run(&["--csv", &p("sliced.csv"), "--merge-slices", "10"]);
    let rows = |name: &str| -> Vec<String> {
        let text = std::fs::read_to_string(p(name)).unwrap();
        let mut rows = csv::ReaderBuilder::new().comment(Some(b'#')).from_reader(text.as_bytes());
        rows.records().map(|r| r.unwrap()).map(|r| format!("{} {} {} {}", &r[0], &r[5], &r[7], &r[8])).collect()
    };
    let (whole, sliced) = (rows("whole.csv"), rows("sliced.csv"));
    assert_eq!(whole.len(), 1393);
    assert_eq!(sliced, whole);
}

/// `curve … --recheck N --seed S`: a seeded draw of the recorded units,
/// computed again, agrees with their records (one line each, the same draw
/// again with the same seed); a record whose step function was changed and
/// sealed again is named with its file and key: exit 2, one line.
#[test]
fn recorded_units_computed_again_agree_and_a_changed_one_is_named() {
    let dir = scratch("recheck");
    let file = dir.join("run.units");
    let units = file.to_str().unwrap();
    let unit_run = |extra: &[&str]| {
        let mut args = vec!["curve", "mastermind", "--from", "1/2", "--to", "5/2", "--levels", "1"];
        args.extend(["--checkpoint", units]);
        args.extend(extra);
        args.iter().map(|a| a.to_string()).collect::<Vec<_>>()
    };
    let run = |extra: &[&str]| {
        let args = unit_run(extra);
        bin(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = run(&[]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let text = std::fs::read_to_string(&file).unwrap();
    let recorded = text.lines().count() - 1;
    assert!(recorded > 3, "{recorded} units");
    let drawn = |out: &std::process::Output| -> Vec<String> {
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "{text} {}", String::from_utf8_lossy(&out.stderr));
        assert!(text.contains(&format!("3 of {recorded} recorded units computed again: all agree")), "{text}");
        let agree = text.lines().filter(|l| l.contains("agrees exactly"));
        agree.map(|l| l.split(" (").next().unwrap().to_string()).collect()
    };
    let keys = drawn(&run(&["--recheck", "3", "--seed", "5"]));
    assert_eq!(keys.len(), 3, "{keys:?}");
    assert_eq!(drawn(&run(&["--recheck", "3", "--seed", "5"])), keys, "the same seed draws the same units");
    // One code of the last record moved one level deeper, the line sealed again.
    let lines: Vec<&str> = text.lines().collect();
    let key = lines[0].split_once(' ').unwrap().0;
    let mut record: serde_json::Value = serde_json::from_str(lines[recorded].split_once(' ').unwrap().1).unwrap();
    common::one_code_deeper(&mut record);
    let mut changed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    changed[recorded] = renyi_search::curve::run::run_key::keyed_line(key, &record);
    std::fs::write(&file, changed.join("\n") + "\n").unwrap();
    let args = unit_run(&["--recheck", "1000"]);
    let err = one_line_error(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let unit = record["key"].as_str().unwrap();
    assert!(err.contains(&format!("1 of {recorded} units differ from their records")), "{err}");
    assert!(err.contains(&format!("{units}: unit {unit:?}")), "{err}");
    // --recheck belongs to a unit run.
    one_line_error(&["curve", "mastermind", "--recheck", "2"]);
}
