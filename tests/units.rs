//! Work units, checkpoints, shards and merge: the sum over units equals the
//! whole analysis; a resumed run gives the identical result; bad shard files
//! and checkpoints are refused with a message.

mod common;
use common::scratch;

use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::units::{Shard, ShardFile, UnitRun, merge, run_units, sessions_wall_seconds, unit_paths};
use renyi_search::search::{Presentation, RunOptions, SearchProblem, Strategy, TieRule, analyze};

fn run(
    problem: &impl SearchProblem,
    strategy: Strategy,
    levels: usize,
    shard: &str,
    checkpoint: Option<&std::path::Path>,
) -> ShardFile {
    run_units(
        problem,
        strategy,
        &UnitRun { levels, shard: shard.parse().unwrap(), checkpoint, progress: Default::default() },
    )
    .unwrap()
}

/// The exact values of an outcome (depth counts, penalty, penalty split), without trailing zeros.
fn values(o: &renyi_search::search::Outcome) -> (Vec<String>, String, Vec<String>) {
    let trim = |mut v: Vec<String>| {
        while v.last().is_some_and(|x| x == "0") {
            v.pop();
        }
        v
    };
    let (counts, penalty) = o.to_strings();
    (trim(counts), penalty, trim(o.penalised_strings()))
}

fn check_sum_of_units(problem: &impl SearchProblem, alpha: &str, tie: TieRule) {
    check_cuts(problem, alpha, tie, &[(1, 1), (2, 3), (3, 2)]);
}

/// Cuts at `levels` with the run split into `shards` shards, for each (levels, shards).
fn check_cuts(problem: &impl SearchProblem, alpha: &str, tie: TieRule, cuts: &[(usize, u64)]) {
    let strategy = Strategy::new(alpha.parse().unwrap(), tie);
    let whole = analyze(problem, strategy, RunOptions::default());
    for &(levels, shards) in cuts {
        let files: Vec<ShardFile> =
            (0..shards).map(|i| run(problem, strategy, levels, &format!("{i}/{shards}"), None)).collect();
        assert_eq!(files[0].codes_total, problem.code_count() as u64);
        let (_, outcome) = merge(&files).unwrap();
        let what = format!("{} α={alpha} {tie}, levels {levels}, {shards} shards", problem.name());
        assert_eq!(outcome.total(), whole.exact_total(), "{what}");
        assert_eq!(values(&outcome), values(&whole.outcome), "{what}: depth histogram, penalty and its split");
        check_listing(problem, strategy, levels, &files);
    }
}

/// The listing walk numbers the units as the evaluating run did.
fn check_listing(problem: &impl SearchProblem, strategy: Strategy, levels: usize, files: &[ShardFile]) {
    let listed = unit_paths(problem, strategy, levels).unwrap();
    assert_eq!(listed.len() as u64, files[0].units_total);
    for unit in files.iter().flat_map(|f| &f.units) {
        assert_eq!(listed[unit.index as usize], (unit.path.clone(), unit.queries.clone()), "unit {}", unit.index);
    }
}

#[test]
fn units_add_up_to_the_whole_analysis() {
    check_sum_of_units(&Mastermind::new(4, 6, true).unwrap(), "1", TieRule::lex());
    check_sum_of_units(&Mastermind::new(3, 4, false).unwrap(), "0", TieRule::lex());
    check_sum_of_units(
        &Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap(),
        "2",
        TieRule::lex(),
    );
}

/// MIX units carry the probability of the tie choices above them; the
/// weighted sum is the exact MIX mean (rational totals).
#[test]
fn mix_units_add_up_to_the_whole_analysis() {
    check_sum_of_units(&Mastermind::new(3, 4, true).unwrap(), "0", TieRule::mix());
    check_sum_of_units(&Mastermind::new(4, 6, true).unwrap(), "1", TieRule::mix());
    let beams =
        |v: &str| Beams::new(enumerate(v.parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    check_sum_of_units(&beams("3c6p"), "inf", TieRule::mix());
    check_cuts(&beams("6c3p"), "1", TieRule::mix(), &[(2, 2)]);
}

#[test]
fn a_resumed_run_gives_the_identical_result() {
    resume_check(TieRule::lex(), "resume-lex");
    resume_check(TieRule::mix(), "resume-mix");
}

fn resume_check(tie: TieRule, name: &str) {
    let mm = Mastermind::new(4, 6, true).unwrap();
    let strategy = Strategy::new("1".parse().unwrap(), tie);
    let path = scratch(name);
    let full = run(&mm, strategy, 2, "0/1", Some(&path));
    // Keep the header and a third of the records, plus a line cut off by a kill.
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let keep = 1 + (lines.len() - 1) / 3;
    let partial = format!("{}\n{}", lines[..keep].join("\n"), &lines[keep][..lines[keep].len() / 2]);
    std::fs::write(&path, partial).unwrap();
    let resumed = run(&mm, strategy, 2, "0/1", Some(&path));
    // The checkpoint itself now holds every unit once, each on a line of its own
    // (the cut-off line is left alone, the next record starts on a new line).
    let text = std::fs::read_to_string(&path).unwrap();
    let parsed: Vec<u64> = text
        .lines()
        .skip(1)
        .filter_map(|l| serde_json::from_str::<renyi_search::search::units::UnitRecord>(l.split_once(' ')?.1).ok())
        .map(|r| r.index)
        .collect();
    let distinct: std::collections::BTreeSet<u64> = parsed.iter().copied().collect();
    assert_eq!((parsed.len() as u64, distinct.len() as u64), (full.units_total, full.units_total), "{name}");
    // Identical results; only the measured seconds per unit may differ.
    let results = |units: &[renyi_search::search::units::UnitRecord]| -> Vec<String> {
        units
            .iter()
            .map(|u| {
                format!(
                    "{} {:?} {:?} {:?} {} {:?} {}",
                    u.index, u.path, u.queries, u.weight, u.codes, u.depth_counts, u.penalty
                )
            })
            .collect()
    };
    assert_eq!(results(&resumed.units), results(&full.units));
    // The run files say which session went from scratch.
    assert_eq!((full.resumed_units, resumed.resumed_units), (Some(0), Some(keep as u64 - 1)));
    // Every record names its session; the resumed run spans two, and its wall
    // over sessions adds each session's time to its last record.
    let starts: std::collections::BTreeSet<u64> =
        resumed.units.iter().map(|u| u.session.unwrap().started.to_bits()).collect();
    assert_eq!(starts.len(), 2);
    let last_at = |first: bool| {
        let s0 = full.units[0].session.unwrap().started;
        resumed
            .units
            .iter()
            .map(|u| u.session.unwrap())
            .filter(|t| (t.started == s0) == first)
            .map(|t| t.at)
            .fold(0.0, f64::max)
    };
    assert_eq!(sessions_wall_seconds(&resumed.units), Some(last_at(true) + last_at(false)));
    assert!(sessions_wall_seconds(&full.units).unwrap() <= full.seconds);
    // Another α must not reuse the checkpoint.
    let other = Strategy::new("2".parse().unwrap(), tie);
    let err = run_units(
        &mm,
        other,
        &UnitRun {
            levels: 2,
            shard: Shard { index: 0, count: 1 },
            checkpoint: Some(&path),
            progress: Default::default(),
        },
    );
    assert!(err.unwrap_err().to_string().contains("belongs to another run"));
    let _ = std::fs::remove_file(&path);
}

#[test]
fn bad_shards_are_refused() {
    for bad in ["5/4", "1/0", "a/b", "3"] {
        assert!(bad.parse::<Shard>().unwrap_err().to_string().contains("0 ≤ i < N"), "{bad}");
    }
    let mm = Mastermind::new(3, 4, true).unwrap();
    let strategy = Strategy::new("1".parse().unwrap(), TieRule::lex());
    let a = run(&mm, strategy, 2, "0/2", None);
    let b = run(&mm, strategy, 2, "1/2", None);
    assert!(merge(std::slice::from_ref(&a)).unwrap_err().to_string().contains("missing"));
    assert!(merge(&[a.clone(), a.clone(), b.clone()]).unwrap_err().to_string().contains("twice"));
    let mut alien = b.clone();
    alien.header.alpha = "2".parse().unwrap();
    // Edited in place, the header fails its own checksum; without one it is
    // refused; re-sealed, it is another run's.
    assert!(merge(&[a.clone(), alien.clone()]).unwrap_err().to_string().contains("header was altered"));
    alien.header.crc = None;
    assert!(merge(&[a.clone(), alien.clone()]).unwrap_err().to_string().contains("no checksum"));
    alien.header = alien.header.sealed();
    assert!(merge(&[a.clone(), alien]).unwrap_err().to_string().contains("another run"));
    assert!(merge(&[a.clone(), b.clone()]).is_ok());
    let mut unreadable = b;
    unreadable.units[0].weight = Some("1/x".into());
    assert!(merge(&[a.clone(), unreadable.clone()]).unwrap_err().to_string().contains("checksum"));
    unreadable.units[0] = unreadable.units[0].clone().sealed(unreadable.header.record_key());
    assert!(merge(&[a, unreadable]).unwrap_err().to_string().contains("unreadable"));
}

/// Edited records are refused with their unit named: each
/// record carries a CRC-32 of its contents; a record re-sealed after an edit
/// must still have depth counts that add up to its codes and a penalty split
/// that adds up to its points; and a merge checks that the
/// units hold every code once (Σ weight·codes = the run's codes, so a MIX
/// weight or a unit's code count cannot be changed either).
#[test]
fn edited_run_files_are_refused() {
    let mm = Mastermind::new(3, 4, true).unwrap();
    let mix = Strategy::new("1".parse().unwrap(), TieRule::mix());
    let path = scratch("edited.jsonl");
    let whole = run(&mm, mix, 2, "0/1", Some(&path));
    assert!(whole.units.iter().all(|u| u.crc.is_some()));
    assert!(merge(std::slice::from_ref(&whole)).is_ok());
    let err = |file: &ShardFile| merge(std::slice::from_ref(file)).unwrap_err().to_string();
    // A changed count with the old checksum.
    let mut edited = whole.clone();
    let i = edited.units.iter().position(|u| u.depth_counts.iter().any(|c| c != "0")).unwrap();
    let d = edited.units[i].depth_counts.iter().position(|c| c != "0").unwrap();
    edited.units[i].depth_counts[d] = format!("{}1", edited.units[i].depth_counts[d]);
    let index = edited.units[i].index;
    assert!(err(&edited).contains(&format!("unit {index}: checksum")), "{}", err(&edited));
    // The same edit re-sealed: the counts no longer add up.
    edited.units[i] = edited.units[i].clone().sealed(edited.header.record_key());
    assert!(err(&edited).contains("add up to"), "{}", err(&edited));
    // A consistent record re-sealed with another weight or code count: the run's code mass is off.
    let mut reweighted = whole.clone();
    let j = reweighted.units.iter().position(|u| u.weight.is_some()).expect("MIX units carry weights");
    reweighted.units[j].weight = Some("1/1000".into());
    reweighted.units[j] = reweighted.units[j].clone().sealed(reweighted.header.record_key());
    assert!(err(&reweighted).contains("weighted"), "{}", err(&reweighted));
    // A checkpoint line edited in place is refused on resume, naming the file and unit.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    let (crc, json) = lines[1].split_once(' ').unwrap();
    let mut record: renyi_search::search::units::UnitRecord = serde_json::from_str(json).unwrap();
    record.penalty = "7".into();
    lines[1] = format!("{crc} {}", serde_json::to_string(&record).unwrap());
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let resumed = run_units(
        &mm,
        mix,
        &UnitRun { levels: 2, shard: "0/1".parse().unwrap(), checkpoint: Some(&path), progress: Default::default() },
    );
    let message = resumed.unwrap_err().to_string();
    assert!(message.contains("edited.jsonl line 2") && message.contains("checksum"), "{message}");
    let _ = std::fs::remove_file(&path);
}

#[test]
fn checkpoints_of_other_beams_games_are_refused() {
    use renyi_search::games::beams::game::ColourOffer;
    let beams = || Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let mix = Strategy::new("1".parse().unwrap(), TieRule::mix());
    let path = scratch("beams-offer.jsonl");
    run(&beams(), mix, 2, "0/1", Some(&path));
    // The same α and tie rule on another game: the reduced-list MIX, another
    // penalty. Each has its own name, so the checkpoint is not resumed.
    let mut random_penalty = beams();
    random_penalty.penalty = Penalty::RandomGuess;
    for other in [beams().with_offer(ColourOffer::ReducedUnweighted), random_penalty] {
        assert_ne!(other.name(), beams().name());
        let err = run_units(
            &other,
            mix,
            &UnitRun {
                levels: 2,
                shard: Shard { index: 0, count: 1 },
                checkpoint: Some(&path),
                progress: Default::default(),
            },
        );
        assert!(err.unwrap_err().to_string().contains("belongs to another run"), "{}", other.name());
    }
    let _ = std::fs::remove_file(&path);
}

#[test]
fn recorded_units_recheck_exactly_and_tampered_ones_do_not() {
    use renyi_search::search::recheck::{check_header, outcome_after, read_run, recheck_unit};
    let g = Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, Penalty::BestGuess).unwrap();
    let mix = Strategy::new("2".parse().unwrap(), TieRule::mix());
    let path = scratch("recheck.jsonl");
    let file = run(&g, mix, 2, "0/1", Some(&path));
    let (header, records) = read_run(&path).unwrap();
    check_header(&g, mix, &header).unwrap();
    assert!(check_header(&g, Strategy::new("1".parse().unwrap(), TieRule::mix()), &header).is_err());
    assert_eq!(records.len() as u64, file.units_total);
    let plain = RunOptions { merge_equivalent: false, ..RunOptions::default() };
    for record in &records {
        let check = recheck_unit(&g, mix, record, &plain).unwrap();
        assert!(check.agrees, "unit {}", record.index);
        assert_eq!(check.recorded_total, check.recomputed_total);
    }
    // A unit whose record was altered: its penalty, or its number of codes.
    let unit = records.iter().find(|r| r.codes > 10).unwrap();
    let mut altered = unit.clone();
    altered.penalty = if altered.penalty == "12345/7" { "0".into() } else { "12345/7".into() };
    let check = recheck_unit(&g, mix, &altered, &plain).unwrap();
    assert!(!check.agrees);
    // The check names what differs, with both values.
    assert_eq!(check.differences.len(), 1, "{:?}", check.differences);
    assert_eq!(check.differences[0].0, "penalty points");
    assert_eq!(check.differences[0].1, altered.penalty);
    assert_eq!(check.differences[0].2, unit.penalty);
    if let Some(split) = &unit.penalised {
        let mut changed = unit.clone();
        let mut split = split.clone();
        split.push("1".into());
        changed.penalised = Some(split.clone());
        let check = recheck_unit(&g, mix, &changed, &plain).unwrap();
        let p = split.len() - 1;
        assert_eq!(check.differences, vec![(format!("codes paying {p} penalty points"), "1".into(), "0".into())]);
    }
    altered = unit.clone();
    altered.codes += 1;
    assert!(recheck_unit(&g, mix, &altered, &plain).unwrap_err().to_string().contains("codes"));
    // No steps: the whole analysis.
    let whole = analyze(&g, mix, RunOptions::default()).outcome;
    assert_eq!(values(&outcome_after(&g, mix, &[], &plain).unwrap()), values(&whole));
    // A query that is not offered (a colour beyond the asked ones + one new).
    let unknown_colour = (2 * g.board.diagonals.len()) as u32;
    assert!(outcome_after(&g, mix, &[(unknown_colour, 0)], &plain).is_err());
    let _ = std::fs::remove_file(&path);
}
