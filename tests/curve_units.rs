//! Curves as work-unit runs: cut below the first levels,
//! evaluated in shards, resumed after a kill and merged, a unit run gives
//! exactly the curve of one process; edited and foreign run files are refused.

mod common;
use common::scratch_dir as scratch;

use renyi_search::curve::run::units::{
    CurveUnitRun, CurveUnits, list_unit_domains, list_units, run_curve_units, run_curve_units_in_slices,
};
use renyi_search::curve::walk::domain_text;
use renyi_search::curve::{Curve, Domain, Point, curve};
use renyi_search::games::mastermind::Mastermind;
use renyi_search::progress::Progress;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::units::Shard;
use renyi_search::search::{SearchProblem, TieRule};
use std::path::{Path, PathBuf};

fn full() -> Domain {
    Domain::closed(Point::zero(), Point::infinity())
}

/// Every segment: its span as text, its exact total and its first queries.
fn fingerprint(c: &Curve) -> Vec<String> {
    pieces(&c.segments)
}

fn pieces(segments: &[renyi_search::curve::Segment]) -> Vec<String> {
    segments.iter().map(|s| format!("{:?} {} {:?}", describe(&s.span), s.total(), s.first_queries)).collect()
}

fn describe(span: &renyi_search::curve::Span) -> String {
    match span {
        renyi_search::curve::Span::At(p) => format!("at {p}"),
        renyi_search::curve::Span::Open(a, b) => format!("({a}, {b})"),
    }
}

/// A unit run of `levels` as shard `shard` on `checkpoint`, reading `with`,
/// evaluating (not `known_only`) and listing its own units.
fn unit_run<'a>(levels: usize, shard: &str, checkpoint: &'a Path, with: &'a [PathBuf]) -> CurveUnitRun<'a> {
    CurveUnitRun {
        levels,
        split_above: None,
        shard: shard.parse::<Shard>().unwrap(),
        checkpoint,
        with,
        known_only: false,
        units: None,
        by_codes: false,
    }
}

fn run<P: SearchProblem>(p: &P, tie: TieRule, levels: usize, shard: &str, file: &Path, with: &[PathBuf]) -> CurveUnits {
    let run = unit_run(levels, shard, file, with);
    run_curve_units(p, tie, &full(), &run, &Progress::none()).unwrap()
}

fn complete(r: CurveUnits) -> Curve {
    match r {
        CurveUnits::Complete { curve, .. } => curve,
        CurveUnits::Incomplete { known, units, .. } => panic!("incomplete: {known} of {units} units"),
    }
}

#[test]
fn sharded_and_resumed_unit_runs_give_the_one_process_curve() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    for tie in [TieRule::lex(), TieRule::mix()] {
        let whole = curve(&mm, tie, &full(), None);
        for levels in [1, 2] {
            let dir = scratch(&format!("{tie}-{levels}"));
            let units = list_units(&mm, tie, &full(), levels).unwrap();
            assert!(units.len() > 3, "{tie} levels {levels}: {} units", units.len());
            // Shard 0 of 2 alone: incomplete, with its share of units known.
            let (a, b) = (dir.join("a.units"), dir.join("b.units"));
            match run(&mm, tie, levels, "0/2", &a, &[]) {
                CurveUnits::Incomplete { known, units: n, .. } => assert_eq!(known, n.div_ceil(2)),
                CurveUnits::Complete { .. } => panic!("one shard of two cannot complete"),
            }
            // The diagnostic merge of what is known: nothing evaluated, the
            // missing units counted as zero, so less than the curve where they matter.
            let known_only = CurveUnitRun { known_only: true, ..unit_run(levels, "1/2", &a, &[]) };
            match run_curve_units(&mm, tie, &full(), &known_only, &Progress::none()).unwrap() {
                CurveUnits::Complete { curve: part, evaluated, missing, units: n, .. } => {
                    assert_eq!((evaluated, missing), (0, n / 2), "{tie} levels {levels}");
                    let at_1 = |c: &Curve| c.at(Alpha::integer(1)).unwrap().total();
                    let (low, full_total) = (at_1(&part), at_1(&whole));
                    assert!(low < full_total, "{tie} levels {levels}: {low} vs {full_total}");
                }
                CurveUnits::Incomplete { .. } => panic!("a diagnostic merge merges"),
            }
            // Shard 1 of 2, cut off by a kill inside its last record: the
            // rerun evaluates that unit again, reading the other shard, and merges.
            let r = run(&mm, tie, levels, "1/2", &b, &[]);
            assert!(matches!(r, CurveUnits::Incomplete { .. }));
            let text = std::fs::read_to_string(&b).unwrap();
            std::fs::write(&b, &text[..text.len() - 7]).unwrap();
            let merged = complete(run(&mm, tie, levels, "1/2", &b, std::slice::from_ref(&a)));
            assert_eq!(fingerprint(&merged), fingerprint(&whole), "{tie} levels {levels}");
            assert_eq!(merged.uncertified, 0);
            // Merging alone (nothing left to do) gives it again, with the
            // other file gzip-compressed (as finished parts are kept).
            let gz = dir.join("b.units.gz");
            let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
            std::io::Write::write_all(&mut enc, &std::fs::read(&b).unwrap()).unwrap();
            std::fs::write(&gz, enc.finish().unwrap()).unwrap();
            let again = complete(run(&mm, tie, levels, "0/1", &a, std::slice::from_ref(&gz)));
            assert_eq!(fingerprint(&again), fingerprint(&whole));
            // And xz-compressed, in two concatenated streams.
            let xz = dir.join("b.units.xz");
            let text = std::fs::read(&b).unwrap();
            let cut = text.iter().position(|&c| c == b'\n').unwrap() + 1;
            let mut bytes = liblzma::encode_all(&text[..cut], 9).unwrap();
            bytes.extend(liblzma::encode_all(&text[cut..], 9).unwrap());
            std::fs::write(&xz, bytes).unwrap();
            let again = complete(run(&mm, tie, levels, "0/1", &a, std::slice::from_ref(&xz)));
            assert_eq!(fingerprint(&again), fingerprint(&whole));
        }
    }
}

#[test]
fn edited_or_foreign_run_files_are_refused() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let dir = scratch("tamper");
    let file = dir.join("run.units");
    complete(run(&mm, TieRule::lex(), 1, "0/1", &file, &[]));
    let text = std::fs::read_to_string(&file).unwrap();
    // A changed depth count in the second record.
    let lines: Vec<&str> = text.lines().collect();
    let edited = lines[2].replacen("\"counts\":\"0 ", "\"counts\":\"1 ", 1);
    assert_ne!(edited, lines[2]);
    let mut tampered = lines.clone();
    tampered[2] = &edited;
    std::fs::write(&file, tampered.join("\n") + "\n").unwrap();
    let err = run_curve_units(&mm, TieRule::lex(), &full(), &unit_run(1, "0/1", &file, &[]), &Progress::none())
        .err()
        .expect("an edited record is refused");
    assert!(err.to_string().contains("line 3"), "{err}");
    // The file of another run (other levels) is refused too.
    std::fs::write(&file, &text).unwrap();
    let err = run_curve_units(&mm, TieRule::lex(), &full(), &unit_run(2, "0/1", &file, &[]), &Progress::none())
        .err()
        .expect("another run's file is refused");
    assert!(err.to_string().contains("another run"), "{err}");
    // A file given with --with that does not exist is an error, not an empty run.
    let missing = [file.with_extension("no-such-file")];
    let err = run_curve_units(&mm, TieRule::lex(), &full(), &unit_run(1, "0/1", &file, &missing), &Progress::none())
        .err()
        .expect("a missing --with file is refused");
    assert!(err.to_string().contains("no such file"), "{err}");
}

/// A unit may be recorded in several files (the live checkpoint and the
/// parts cut from it): the same step function with other session fields is
/// one unit, a different step function is refused, naming the unit.
#[test]
fn a_unit_recorded_twice_must_agree() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let dir = scratch("twice");
    let file = dir.join("run.units");
    let whole = complete(run(&mm, TieRule::lex(), 1, "0/1", &file, &[]));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let key = lines[0].split_once(' ').unwrap().0;
    let reseal = |record: &serde_json::Value| renyi_search::curve::run::run_key::keyed_line(key, record);
    let mut record: serde_json::Value = serde_json::from_str(lines[2].split_once(' ').unwrap().1).unwrap();
    let unit = record["key"].as_str().unwrap().to_string();
    // The same record from another session: merged, the curve unchanged.
    record["session_started"] = serde_json::json!(1.0);
    record["seconds"] = serde_json::json!(123.0);
    let copy = dir.join("copy.units");
    std::fs::write(&copy, format!("{}\n{}\n", lines[0], reseal(&record))).unwrap();
    let again = complete(run(&mm, TieRule::lex(), 1, "0/1", &file, std::slice::from_ref(&copy)));
    assert_eq!(fingerprint(&again), fingerprint(&whole));
    // One code moved one level deeper: still a valid record of the unit's
    // codes, but another result for the same unit.
    common::one_code_deeper(&mut record);
    std::fs::write(&copy, format!("{}\n{}\n", lines[0], reseal(&record))).unwrap();
    let run_both = unit_run(1, "0/1", &file, std::slice::from_ref(&copy));
    let err = run_curve_units(&mm, TieRule::lex(), &full(), &run_both, &Progress::none())
        .err()
        .expect("a differing record is refused");
    let message = err.to_string();
    assert!(message.contains("recorded twice with different results") && message.contains(&unit), "{message}");
    assert!(message.contains("copy.units"), "{message}");
}

/// Records each phase: its name, its announced total and what was advanced.
#[derive(Default)]
struct Phases(std::sync::Mutex<Vec<(String, Option<u64>, u64)>>);

impl renyi_search::progress::Observer for Phases {
    fn begin(&self, what: &str, total: Option<u64>) {
        self.0.lock().unwrap().push((what.to_string(), total, 0));
    }
    fn advance(&self, n: u64) {
        if let Some(last) = self.0.lock().unwrap().last_mut() {
            last.2 += n;
        }
    }
    fn status(&self, _: &str) {}
    fn note(&self, _: &str) {}
    fn end(&self) {}
}

/// A unit run reports its phases (long runs log them with an ETA): the
/// evaluation counts codes, so a finished run has advanced by every unit's
/// codes, and so has the merge.
#[test]
fn a_unit_run_reports_its_phases_in_codes() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let units = list_units(&mm, TieRule::lex(), &full(), 2).unwrap();
    let codes: u64 = units.iter().map(|u| u.1).sum();
    let dir = scratch("phases");
    let file = dir.join("run.units");
    let phases = std::sync::Arc::new(Phases::default());
    let run = unit_run(2, "0/1", &file, &[]);
    let progress = Progress::to(phases.clone());
    let c = complete(run_curve_units(&mm, TieRule::lex(), &full(), &run, &progress).unwrap());
    assert_eq!(fingerprint(&c), fingerprint(&curve(&mm, TieRule::lex(), &full(), None)));
    let seen = phases.0.lock().unwrap().clone();
    let names: Vec<&str> = seen.iter().map(|p| p.0.as_str()).collect();
    assert_eq!(
        names,
        [
            "listing the units",
            "run files read",
            "codes in units evaluated",
            "merge: run files read again",
            "merge: codes in units added"
        ]
    );
    assert_eq!(seen[1].1, Some(1));
    assert_eq!((seen[2].1, seen[2].2), (Some(codes), codes));
    assert_eq!((seen[3].1, seen[3].2), (Some(1), 1));
    assert_eq!((seen[4].1, seen[4].2), (Some(codes), codes));
}

/// Asserts that two curves have the same pieces: spans with the same ends
/// (a breakpoint may carry another certified enclosure of the same root: an
/// enclosure depends on where the search for the root started), the same
/// exact totals and first queries.
fn same_pieces(got: &[renyi_search::curve::Segment], want: &[renyi_search::curve::Segment], what: &str) {
    use renyi_search::curve::Span;
    assert_eq!(got.len(), want.len(), "{what}: number of pieces");
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let ends_agree = match (&g.span, &w.span) {
            (Span::At(p), Span::At(q)) => p.same(q),
            (Span::Open(a, b), Span::Open(c, d)) => a.same(c) && b.same(d),
            _ => false,
        };
        assert!(ends_agree, "{what}: piece {i}: {} against {}", describe(&g.span), describe(&w.span));
        assert_eq!((g.total(), &g.first_queries), (w.total(), &w.first_queries), "{what}: piece {i}");
    }
}

/// The merge walked slice by slice of α gives the pieces of the one-process
/// curve, stitched across the cuts (cuts at α = 1, at α = 2 where exact ties
/// make points, and next to the LEX crossover at α* ≈ 1.33790 of MM-1296).
#[test]
fn a_merge_in_slices_gives_the_pieces_of_the_whole_curve() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let cuts: Vec<Alpha> = ["1/2", "1", "1.3378", "1.3379", "2", "3"].iter().map(|a| a.parse().unwrap()).collect();
    for tie in [TieRule::lex(), TieRule::mix()] {
        let whole = curve(&mm, tie, &full(), None);
        for levels in [1, 2] {
            let dir = scratch(&format!("slices-{tie}-{levels}"));
            let file = dir.join("run.units");
            complete(run(&mm, tie, levels, "0/1", &file, &[]));
            let plan = unit_run(levels, "0/1", &file, &[]);
            let mut got = Vec::new();
            let mut sink = |s: &renyi_search::curve::Segment| {
                got.push(s.clone());
                Ok(())
            };
            let r = run_curve_units_in_slices(&mm, tie, &full(), &plan, &cuts, &Progress::none(), &mut sink);
            match r.unwrap() {
                CurveUnits::Complete { curve: merge, evaluated, missing, .. } => {
                    assert_eq!((merge.slices, merge.pieces as usize, evaluated, missing), (7, got.len(), 0, 0));
                    assert_eq!(merge.uncertified, 0);
                }
                _ => panic!("every unit is known: the merge streams"),
            }
            same_pieces(&got, &whole.segments, &format!("{tie} levels {levels}"));
        }
    }
    // Cuts must lie inside the range, ascending.
    let dir = scratch("slices-bad");
    let file = dir.join("run.units");
    let plan = unit_run(1, "0/1", &file, &[]);
    for bad in [["2", "1"], ["0", "1"], ["1", "inf"]] {
        let cuts: Vec<Alpha> = bad.iter().map(|a| a.parse().unwrap()).collect();
        let err =
            run_curve_units_in_slices(&mm, TieRule::lex(), &full(), &plan, &cuts, &Progress::none(), &mut |_| Ok(()))
                .err()
                .expect("a cut outside the range or out of order is refused");
        assert!(err.to_string().contains("strictly inside"), "{err}");
    }
    assert!(!file.exists(), "nothing is written for refused cuts");
}

fn refusal<P: SearchProblem>(p: &P, tie: TieRule, levels: usize, file: &Path) -> String {
    let run = unit_run(levels, "0/1", file, &[]);
    run_curve_units(p, tie, &full(), &run, &Progress::none()).err().expect("the run file is refused").to_string()
}

/// Records are keyed to their run (issue 48 item 4): a record of another
/// run spliced into a file, a unit recorded twice in one file and a file of
/// the older, unkeyed format are refused, naming the file and the line.
#[test]
fn spliced_duplicated_and_unkeyed_records_are_refused() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let dir = scratch("keyed");
    let (lex, mix) = (dir.join("lex.units"), dir.join("mix.units"));
    complete(run(&mm, TieRule::lex(), 1, "0/1", &lex, &[]));
    complete(run(&mm, TieRule::mix(), 1, "0/1", &mix, &[]));
    let text = std::fs::read_to_string(&lex).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].contains(r#""domain":"[0, inf]""#) && lines[0].contains(r#""keyed":true"#), "{}", lines[0]);
    let foreign = std::fs::read_to_string(&mix).unwrap().lines().nth(2).unwrap().to_string();
    // A MIX record spliced into the LEX run's file: its checksum is not of this run.
    let mut spliced: Vec<&str> = lines.clone();
    spliced[2] = &foreign;
    std::fs::write(&lex, spliced.join("\n") + "\n").unwrap();
    let message = refusal(&mm, TieRule::lex(), 1, &lex);
    assert!(message.contains("lex.units line 3") && message.contains("another run"), "{message}");
    // A record of the run twice in one file.
    let mut twice: Vec<&str> = lines.clone();
    twice.push(lines[2]);
    std::fs::write(&lex, twice.join("\n") + "\n").unwrap();
    let message = refusal(&mm, TieRule::lex(), 1, &lex);
    assert!(message.contains(&format!("line {}", twice.len())) && message.contains("second time"), "{message}");
    assert!(message.contains("first on line 3"), "{message}");
    // The same records in the older, unkeyed format: refused by every reader.
    std::fs::write(&lex, unkeyed(&lines, None).join("\n") + "\n").unwrap();
    let message = refusal(&mm, TieRule::lex(), 1, &lex);
    assert!(message.contains("not keyed") && message.contains("docs/runs.md"), "{message}");
    // A record whose key names its sub-domain by printed enclosures (the key
    // before exact ends), sealed under this run's key: of no unit of the run.
    let listed = list_unit_domains(&mm, TieRule::lex(), &full(), 1).unwrap();
    let unit = listed.iter().find(|u| u.key.contains("root(")).expect("a unit bounded by a crossing");
    let printed = format!("{} @ {}", unit.key.rsplit_once(" @ ").unwrap().0, domain_text(&unit.domain));
    let at = lines.iter().position(|l| l.contains(&format!(r#""key":{}"#, serde_json::json!(unit.key)))).unwrap();
    let mut record: serde_json::Value = serde_json::from_str(lines[at].split_once(' ').unwrap().1).unwrap();
    record["key"] = serde_json::json!(printed);
    let resealed = renyi_search::curve::run::run_key::keyed_line(&lines[0][..8], &record);
    let mut old_key: Vec<&str> = lines.clone();
    old_key[at] = &resealed;
    std::fs::write(&lex, old_key.join("\n") + "\n").unwrap();
    let message = refusal(&mm, TieRule::lex(), 1, &lex);
    assert!(!message.contains('\n') && message.contains("lex.units: unit"), "{message}");
    assert!(message.contains("no unit of this run has this key") && message.contains(&printed), "{message}");
    // Restored, the file merges again.
    std::fs::write(&lex, &text).unwrap();
    complete(run(&mm, TieRule::lex(), 1, "0/1", &lex, &[]));
}

type RecordEdit = dyn Fn(&mut serde_json::Value);

/// The lines of a keyed run file in the older, unkeyed format (CRC over
/// each line alone, no `keyed` in the header); `edit` changes one record's JSON first.
fn unkeyed(lines: &[&str], edit: Option<(usize, &RecordEdit)>) -> Vec<String> {
    let json = |line: &str| serde_json::from_str::<serde_json::Value>(line.split_once(' ').unwrap().1).unwrap();
    let mut header = json(lines[0]);
    header.as_object_mut().unwrap().remove("keyed");
    let mut out = vec![renyi_search::output::checked_line(&header)];
    for (i, line) in lines.iter().enumerate().skip(1) {
        let mut record = json(line);
        if let Some((_, f)) = edit.filter(|(at, _)| *at == i) {
            f(&mut record);
        }
        out.push(renyi_search::output::checked_line(&record));
    }
    out
}

/// What the committed part of the older format checked, on a run file the
/// test writes itself (the part left the tree when its converter was
/// retired, docs/runs.md): a reader of run files refuses the older, unkeyed
/// format naming the file; the keyed file, xz-compressed as parts are kept,
/// reads with its records; a flipped byte, a record of another run spliced
/// in and a record given twice are refused with file and line, in one line.
#[test]
fn run_files_refuse_unkeyed_damaged_spliced_and_duplicated_records() {
    use renyi_search::curve::run::unit_file::read_run_file;
    let mm = Mastermind::new(4, 6, false).unwrap();
    let dir = scratch("read-alone");
    let file = dir.join("run.units");
    complete(run(&mm, TieRule::lex(), 2, "0/1", &file, &[]));
    let text = std::fs::read_to_string(&file).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let units = list_units(&mm, TieRule::lex(), &full(), 2).unwrap();
    assert!(units.len() > 3, "{} units", units.len());
    let refused = |name: &str, lines: &[String]| {
        let path = dir.join(name);
        std::fs::write(&path, liblzma::encode_all((lines.join("\n") + "\n").as_bytes(), 6).unwrap()).unwrap();
        let message = read_run_file(&path).expect_err("refused").to_string();
        assert!(!message.contains('\n') && message.contains(name), "{message}");
        message
    };
    let keyed: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
    // The older format: refused as a whole, before any record.
    let message = refused("old.units.xz", &unkeyed(&lines, None));
    assert!(message.contains("not keyed") && message.contains("docs/runs.md"), "{message}");
    // The keyed file, compressed: every record read.
    let xz = dir.join("run.units.xz");
    std::fs::write(&xz, liblzma::encode_all(text.as_bytes(), 6).unwrap()).unwrap();
    let (id, records) = read_run_file(&xz).unwrap().expect("a keyed file");
    assert_eq!((id.keyed, id.domain.as_str(), id.levels, records.len()), (true, "[0, inf]", 2, units.len()));
    // A flipped byte inside the JSON of record 2 (line 3).
    let mut flipped = keyed.clone();
    flipped[2] = flipped[2].replacen("\"codes\":", "\"codes\" :", 1);
    assert_ne!(flipped[2], keyed[2]);
    let message = refused("flipped.units.xz", &flipped);
    assert!(message.contains("flipped.units.xz line 3") && message.contains("fails its checksum"), "{message}");
    // Record 2 sealed under another run's key and spliced in.
    let mut spliced = keyed.clone();
    spliced[2] = renyi_search::curve::run::run_key::keyed_line("0badc0de", &records[1]);
    let message = refused("spliced.units.xz", &spliced);
    assert!(message.contains("spliced.units.xz line 3") && message.contains("another run"), "{message}");
    // Record 1 again at the end.
    let mut twice = keyed.clone();
    twice.push(keyed[1].clone());
    let message = refused("twice.units.xz", &twice);
    let at = format!("twice.units.xz line {}", twice.len());
    assert!(
        message.contains(&at) && message.contains("second time") && message.contains("first on line 2"),
        "{message}"
    );
}
