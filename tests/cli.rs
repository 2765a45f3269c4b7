//! The command line: bad input gets a clear message and a non-zero exit, and
//! nothing is written; good input writes complete files.

mod common;
use common::{assert_rejected, bin, scratch, scratch_dir};

use std::process::Command;

#[test]
fn bad_mastermind_input_is_rejected_clearly() {
    assert_rejected(&["analyze", "mastermind", "--pegs", "0"], "at least 1");
    assert_rejected(&["analyze", "mastermind", "--colors", "0"], "at least 1");
    assert_rejected(&["analyze", "mastermind", "--pegs", "8", "--colors", "9"], "GiB");
    assert_rejected(&["analyze", "mastermind", "--alpha", "-1"], "accepted");
    assert_rejected(&["analyze", "mastermind", "--alpha", "nan"], "accepted");
    assert_rejected(&["analyze", "mastermind", "--tie", "random"], "possible values");
    assert_rejected(
        &["analyze", "mastermind", "--pegs", "5", "--colors", "3", "--distinct"],
        "at least as many colours",
    );
    assert_rejected(&["sweep", "mastermind", "--alpha", "2:1:0.1"], "reversed");
    assert_rejected(&["sweep", "mastermind", "--alpha", "0:1:0"], "positive");
    assert_rejected(&["reproduce", "table-9.9"], "possible values");
}

#[test]
fn failed_run_writes_nothing() {
    let dir = scratch("nothing");
    let out = dir.join("r.json");
    assert_rejected(&["analyze", "mastermind", "--alpha", "x", "--out", out.to_str().unwrap()], "accepted");
    assert!(!out.exists());
}

#[test]
fn analyze_writes_json_with_provenance_fields() {
    let dir = scratch("json");
    let out = dir.join("mm.json");
    let status = bin(&[
        "analyze",
        "mastermind",
        "--pegs",
        "3",
        "--colors",
        "4",
        "--alpha",
        "3/2",
        "--tie",
        "mix",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(status.status.success());
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["alpha"], "1.5");
    assert_eq!(v["codes"], 64);
    assert!(v["tie_rule"].as_str().unwrap().starts_with("MIX"));
    let hist: Vec<String> = serde_json::from_value(v["depth_histogram"].clone()).unwrap();
    assert!(!hist.is_empty());
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `sweep beams` gives, at each α of the grid, the total of `analyze beams` at
/// that α; 6c6p (an hour per α) and the work-unit flags are refused.
#[test]
fn sweep_beams_rows_equal_analyze_at_each_alpha() {
    let out = bin(&["sweep", "beams", "3c6p", "--tie", "lex-d", "--alpha", "0:2:1"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let csv = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<&str> = csv.lines().collect();
    assert_eq!(rows[0], "alpha,alpha_value,total,mean,max_depth,first_query");
    assert_eq!(rows.len(), 4);
    for (row, alpha) in rows[1..].iter().zip(["0", "1", "2"]) {
        let analyzed = bin(&["analyze", "beams", "3c6p", "--tie", "lex-d", "--alpha", alpha, "--json"]);
        let v: serde_json::Value = serde_json::from_slice(&analyzed.stdout).unwrap();
        let total = v["total"].as_str().unwrap().to_string();
        assert_eq!(row.split(',').nth(2), Some(total.as_str()), "α = {alpha}: {row}");
        assert!(row.starts_with(&format!("{alpha},")));
    }
    assert_rejected(&["sweep", "beams", "6c6p", "--alpha", "1"], "about an hour");
    // sweep beams has no work-unit flags (cli/beams_args.rs): clap refuses them.
    assert_rejected(&["sweep", "beams", "3c6p", "--alpha", "1", "--shard", "0/2"], "unexpected argument '--shard'");
}

#[test]
fn sweep_writes_csv() {
    let out = bin(&["sweep", "mastermind", "--pegs", "2", "--colors", "3", "--alpha", "0:1:0.5"]);
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4);
    assert!(lines[0].starts_with("alpha,"));
}

#[test]
fn bad_size_model_input_is_rejected_clearly() {
    assert_rejected(&["analyze", "free", "--width", "1"], "at least 2");
    assert_rejected(&["analyze", "free", "--upto", "0"], "start at 1");
    assert_rejected(&["analyze", "wurzel", "--upto", "0"], "start at 1");
    assert_rejected(&["analyze", "wurzel", "--alpha", "-2"], "accepted");
    assert_rejected(&["analyze", "wurzel", "--alpha", "inf", "--tie", "mix", "--upto", "10"], "not supported");
    assert_rejected(&["sweep", "wurzel", "--size", "100", "--alpha", "2:1:0.5"], "reversed");
    assert_rejected(&["sweep", "wurzel", "--size", "100", "--alpha", "0:1:0"], "positive");
}

#[test]
fn wurzel_and_free_csv() {
    let out = bin(&["analyze", "wurzel", "--upto", "15", "--alpha", "1.5"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // The header row first (issue 49 item 8), then |C| = 1..=15.
    assert!(text.starts_with("n,perfect_total,"), "{text}");
    let perfect: Vec<&str> = text.lines().skip(1).map(|l| l.split(',').nth(1).unwrap()).collect();
    assert_eq!(perfect.join(" "), "0 2 5 9 12 17 21 27 32 36 43 48 54 62 68");
    let free = String::from_utf8(bin(&["analyze", "free", "--width", "3", "--upto", "5"]).stdout).unwrap();
    assert_eq!(free.lines().last().unwrap(), "5,8,9,1.125");
    let sweep = String::from_utf8(bin(&["sweep", "wurzel", "--size", "1000", "--alpha", "1.35"]).stdout).unwrap();
    assert!(sweep.lines().last().unwrap().ends_with(",26521"));
}

#[test]
fn bad_beams_input_is_rejected_clearly() {
    assert_rejected(&["beams", "info", "7c7p"], "not the size of a board");
    assert_rejected(&["beams", "info", "chess"], "accepted");
    assert_rejected(&["analyze", "beams", "5c5p"], "not the size of a board");
    assert_rejected(&["analyze", "beams", "3c6p", "--alpha", "x"], "accepted");
    assert_rejected(&["analyze", "beams", "3c6p", "--tie", "lex"], "possible values");
    assert_rejected(&["analyze", "beams", "3c6p", "--memo-gib", "nan"], "GiB");
    assert_rejected(&["analyze", "beams", "3c6p", "--memo-gib", "5000"], "GiB");
}

/// The MIX memo's budget changes the work, never the result: with a zero
/// budget (each insert empties the memo first), Beams(3c,6p) H_∞-MIX still
/// gives the exact total of the full analysis.
#[test]
fn memo_budget_does_not_change_mix_results() {
    for gib in ["0", "4"] {
        let out = bin(&["analyze", "beams", "3c6p", "--alpha", "inf", "--tie", "mix", "--memo-gib", gib]);
        assert!(out.status.success(), "--memo-gib {gib}: {}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stdout).contains("8784304093681/1102701600"), "--memo-gib {gib}");
    }
}

#[test]
fn perfect_tree_round_trip_and_bad_files() {
    let dir = scratch("perfect");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("mm.json");
    let out = bin(&["perfect", "mastermind", "--pegs", "3", "--colors", "4", "--tree", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(bin(&["verify", file.to_str().unwrap()]).status.success());
    let text = std::fs::read_to_string(&file).unwrap();
    let tampered = text.replacen("\"total\":", "\"total\": 1,\"was\":", 1);
    let bad = dir.join("bad.json");
    std::fs::write(&bad, tampered).unwrap();
    assert_rejected(&["verify", bad.to_str().unwrap()], "claims");
    std::fs::write(&bad, "{ not json").unwrap();
    assert_rejected(&["verify", bad.to_str().unwrap()], "not a strategy file");
    assert_rejected(&["verify", dir.join("missing.json").to_str().unwrap()], "cannot");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_solver_input_is_rejected_clearly() {
    assert_rejected(&["solve", "chess", "KPK"], "pawns are not supported");
    assert_rejected(&["solve", "chess", "KRRKB"], "more than 4 men");
    assert_rejected(&["solve", "chess", "KXK"], "accepted: K+X vs K");
    assert_rejected(&["solve", "chess", "KRK", "--metric", "dtx"], "accepted: dtm, dtc, stroehlein");
    assert_rejected(&["solve", "chess", "KRK", "--position", "Ka1 Rb2"], "write white men");
    assert_rejected(&["solve", "chess", "KRK", "--position", "Ka1 Rb2 / Kb1"], "illegal");
    assert_rejected(&["solve", "chess", "KRK", "--position", "Ka1 Rz9 / Kc3"], "cannot read the man");
    assert_rejected(&["solve", "chess", "KRK", "--position", "Ka1 Qb2 / Kc3"], "does not fit the endgame");
    assert_rejected(&["solve", "chess", "KRK", "--position", "8/8/8/9/8/2k5/1R6/K7"], "FEN rank");
    assert_rejected(&["solve", "grundy", "fibonacci"], "accepted: lasker, grundy");
    assert_rejected(&["solve", "grundy", "octal", "--code", "0.9"], "octal needs --code");
    assert_rejected(&["solve", "chomp", "4by3"], "write e.g. 4x3");
    assert_rejected(&["solve", "cram", "9x9"], "1 to 40 squares");
    assert_rejected(&["solve", "tetris"], "unrecognized subcommand");
}

#[test]
fn solver_answers() {
    let out = bin(&["solve", "nim", "6", "10", "15"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(text.contains("γ = 3") && text.contains("moves to value 0: 3"), "{text}");
    let out = bin(&["solve", "chess", "KQK", "--position", "w Ka1 Db2, s Ke6"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("10 / 8 / 1") && text.contains("side to move wins in 10"), "{text}");
    let out = bin(&["solve", "chess", "KRK", "--metric", "stroehlein", "--position", "8/8/8/8/8/2k5/1R6/K7 w"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("side to move wins in 17"));
    let out = bin(&["solve", "grundy", "grundy", "--upto", "300"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("value-0 heaps: 17"));
}

#[test]
fn beams_units_recheck_and_subtrees_from_the_command_line() {
    let (ckpt, out) = (scratch("recheck-ckpt.jsonl"), scratch("recheck-run.json"));
    let run = bin(&[
        "analyze",
        "beams",
        "3c6p",
        "--alpha",
        "2",
        "--tie",
        "mix",
        "--checkpoint",
        ckpt.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    for file in [&ckpt, &out] {
        let args = [
            "analyze",
            "beams",
            "3c6p",
            "--alpha",
            "2",
            "--tie",
            "mix",
            "--recheck",
            file.to_str().unwrap(),
            "--units",
            "0,3",
            "--no-merge",
            "--progress",
        ];
        let recheck = bin(&args);
        let text = String::from_utf8(recheck.stdout).unwrap();
        assert!(
            recheck.status.success() && text.lines().filter(|l| l.contains("agrees exactly")).count() == 2,
            "{text}"
        );
    }
    let ckpt = ckpt.to_str().unwrap();
    // A seeded draw of the run's units instead of a list (output::work_units::draw).
    let sampled =
        bin(&["analyze", "beams", "3c6p", "--alpha", "2", "--tie", "mix", "--recheck", ckpt, "--sample", "3"]);
    let text = String::from_utf8(sampled.stdout).unwrap();
    assert!(sampled.status.success() && text.lines().filter(|l| l.contains("agrees exactly")).count() == 3, "{text}");
    assert_rejected(
        &["analyze", "beams", "3c6p", "--tie", "mix", "--recheck", ckpt, "--units", "0", "--sample", "2"],
        "cannot be used with",
    );
    assert_rejected(
        &["analyze", "beams", "3c6p", "--alpha", "1", "--tie", "mix", "--recheck", ckpt, "--units", "0"],
        "the run file is",
    );
    assert_rejected(
        &["analyze", "beams", "3c6p", "--alpha", "2", "--tie", "mix", "--recheck", ckpt, "--units", "99999"],
        "holds no unit 99999",
    );
    assert_rejected(&["analyze", "beams", "3c6p", "--alpha", "2", "--tie", "mix", "--recheck", ckpt], "needs --units");
    assert_rejected(&["analyze", "beams", "3c6p", "--after", "3:x"], "QUERY:ANSWER");
    assert_rejected(&["analyze", "beams", "3c6p", "--after", "40:0"], "cannot be asked");
    // The subtrees below the answers to query 0 hold every code once (an
    // answer no code gives is refused, and one beyond the game's answers,
    // 16 to 31 here, is refused as out of range).
    let codes_after = |answer: u32| -> u64 {
        let after = bin(&["analyze", "beams", "3c6p", "--alpha", "1", "--after", &format!("0:{answer}"), "--progress"]);
        let err = String::from_utf8_lossy(&after.stderr);
        if err.contains("no code gives these answers") || err.contains(&format!("answer {answer} is out of range")) {
            return 0;
        }
        let text = String::from_utf8(after.stdout).unwrap();
        let codes = text.split("codes ").nth(1).and_then(|t| t.split(',').next()).and_then(|n| n.parse().ok());
        codes.unwrap_or_else(|| panic!("no code count in {text}"))
    };
    assert_eq!((0..32).map(codes_after).sum::<u64>(), 1860);
}

/// `analyze beams --after`: every flag works or is refused in its combination
/// (it used to ignore --out, --checkpoint, --shard and --json, and print NaN
/// with exit 0 for answers no code gives).
#[test]
fn after_flags_work_or_are_refused() {
    let out = bin(&["analyze", "beams", "3c6p", "--after", "1:0", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    assert_eq!(value["after"][0], "1:0");
    let codes: u64 = value["codes"].as_str().unwrap().parse().unwrap();
    assert!(codes > 1 && codes < 1860, "{codes}");
    // Flags of two modes together are refused by clap (cli/beams_args.rs): one line, exit 2.
    let refused = |args: &[&str], needle: &str| {
        let err = common::one_line_error(args);
        assert!(err.contains(needle), "{args:?}: {err}");
    };
    refused(&["analyze", "beams", "3c6p", "--after", "1:0", "--shard", "0/2"], "'--after <AFTER>' cannot be used with");
    refused(&["analyze", "beams", "3c6p", "--after", "1:0", "--checkpoint", "x.jsonl"], "cannot be used with");
    refused(&["analyze", "beams", "3c6p", "--recheck", "r.json", "--units", "1", "--json"], "cannot be used with");
    refused(&["analyze", "beams", "3c6p", "--shard", "0/2", "--json"], "cannot be used with '--json'");
    assert_rejected(&["analyze", "beams", "3c6p", "--after", "1:0,3:40"], "answer 40 is out of range");
    refused(&["analyze", "beams", "3c6p", "--no-merge"], "not provided:; <--recheck <RECHECK>|--after <AFTER>>");
    refused(&["analyze", "beams", "3c6p", "--units", "3"], "not provided:; --recheck <RECHECK>");
    refused(&["analyze", "beams", "3c6p", "--levels", "3"], "<--shard <SHARD>|--checkpoint <CHECKPOINT>>");
    refused(&["sweep", "beams", "3c6p", "--checkpoint", "x.jsonl"], "unexpected argument '--checkpoint'");
}

/// Variants that are legal but whose enumeration would not fit the memory
/// budget are refused at once with the estimate (they used to loop or grow
/// until the machine died); `--max-memory` sets the budget. `beams info`
/// counts their patterns by frontier states instead.
#[test]
fn oversized_variants_are_refused_with_an_estimate() {
    for (variant, pieces, patterns) in
        [("1c36p", "more than 16 EiB", "table): 1\n"), ("2c18p", "GiB (the budget is", "table): 440209\n")]
    {
        let out = bin(&["beams", "info", variant]);
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success() && text.contains(pieces) && text.contains(patterns), "{variant}: {text}");
    }
    assert_rejected(&["beams", "count", "2c18p", "--max-memory", "0.00001"], "--max-memory");
    assert_rejected(&["beams", "count", "7c7p"], "not the size of a board");
    let dir = scratch_dir("budget");
    let codes = dir.to_str().unwrap();
    assert_rejected(&["beams", "info", "6c6p", "--codes", codes, "--max-memory", "0.0001"], "--max-memory");
    assert_rejected(&["analyze", "beams", "6c6p", "--codes", codes, "--max-memory", "0.0001"], "too large");
    assert_rejected(&["beams", "info", "3c6p", "--max-memory", "0"], "above 0");
    // Game graphs that cannot be counted beforehand stop at the budget
    // (Cram 6×6 used to run the machine out of memory; its regions memo is
    // held to the budget: 51.2 MiB hold 1 677 721 entries).
    assert_rejected(
        &["solve", "cram", "6x6", "--max-memory", "0.05"],
        "more than 1677721 regions to solve exceed the memory budget (51.2 MiB)",
    );
    // The perfect search's bound tables (6c6p: 1.5 TB; 3c6p: 276 KiB) are
    // estimated from the code count before the code table is built or loaded
    // (building the 6c6p table peaks at 0.87-1.05 GB), so a budget of 1 GiB
    // refuses at once and no table is written to the cache (checked below).
    assert_rejected(
        &["perfect", "beams", "6c6p", "--codes", codes, "--max-memory", "1"],
        "bound tables for Beams(6c,6p) (LEX-c order) would need about 1521.9 GiB",
    );
    assert_rejected(
        &["perfect", "beams", "3c6p", "--codes", codes, "--max-memory", "0.0002"],
        "bound tables for Beams(3c,6p) (LEX-c order) would need about 276.2 KiB (the budget is 209.7 KiB,",
    );
    // Mastermind's answer table is held to the budget too (it had a fixed 4 GiB).
    assert_rejected(
        &["analyze", "mastermind", "--pegs", "4", "--colors", "6", "--max-memory", "0.0001"],
        "MM(4,6) (1296 codes: its answer table, a walk over it and the program) would need about ",
    );
    for table in ["beams-6c6p.tbl", "beams-3c6p.tbl"] {
        assert!(!dir.join(table).exists(), "{table} written");
    }
}

/// A reader that closes stdout early (`merge … | head -1`) does not cost the
/// merged file, and a pattern cache that cannot be written costs only the
/// caching: the table is used from memory.
#[test]
fn output_survives_a_closed_pipe_and_an_unwritable_cache() {
    let (shards, merged) = ([scratch("pipe-0.json"), scratch("pipe-1.json")], scratch("pipe-merged.json"));
    for (i, shard) in shards.iter().enumerate() {
        let run = bin(&["analyze", "beams", "3c6p", "--shard", &format!("{i}/2"), "--out", shard.to_str().unwrap()]);
        assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
        .args(["merge", shards[0].to_str().unwrap(), shards[1].to_str().unwrap(), "--out", merged.to_str().unwrap()])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::null())
        .spawn()
        .expect("runs");
    drop(child.stdout.take());
    child.wait().expect("exits");
    let value: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&merged).expect("merged file written")).unwrap();
    assert_eq!(value["total"], "7412", "{value}");

    let not_a_dir = scratch("cache-file");
    std::fs::write(&not_a_dir, b"").unwrap();
    let codes = not_a_dir.join("codes");
    let out = bin(&["analyze", "beams", "3c6p", "--codes", codes.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not cached"));
    assert!(String::from_utf8_lossy(&out.stdout).contains("total     7412"));
}

/// `--max-memory` applies to Beams analyses and curves too (audit,
/// 2026-11-27: a budget of 1 KiB was ignored): an analysis's estimate (its
/// table, the partitions walked and the MIX memo) is checked before it
/// starts, and the process is watched while it runs. The pattern tables are built
/// first in a scratch directory, so that the check under test is reached on a
/// fresh checkout too (without a cached table the enumeration's own estimate
/// refuses first).
#[test]
fn beams_analyses_respect_the_memory_budget() {
    let dir = scratch("budget-analysis");
    let codes = dir.to_str().unwrap();
    for variant in ["6c3p", "3c6p"] {
        let out = bin(&["beams", "info", variant, "--codes", codes]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    }
    // A cached table is weighed at what loading it costs (the process with
    // the file and the decoded table), before it is read.
    assert_rejected(
        &["--max-memory", "0.000001", "analyze", "beams", "6c3p", "--tie", "mix", "--codes", codes],
        "beams-6c3p.tbl (311 patterns of Beams(6c,3p)) would need about ",
    );
    assert_rejected(
        &["--max-memory", "0.000001", "sweep", "beams", "3c6p", "--alpha", "1", "--codes", codes],
        "beams-3c6p.tbl (310 patterns of Beams(3c,6p)) would need about ",
    );
    // Without a table, enumerating the patterns is estimated and refused first
    // (here at its placements; tests/cli_memory.rs at the table).
    let empty = scratch("budget-no-table");
    assert_rejected(
        &["--max-memory", "0.000001", "analyze", "beams", "6c3p", "--codes", empty.to_str().unwrap()],
        "enumerating the patterns of Beams(6c,3p) (more than 67 connected sets of 3 cells) would need at least ",
    );
    // A 6c3p MIX analysis (peak about 33 MiB as units) is refused at a 25.6 MiB
    // budget before it starts (its estimate counts the MIX memo), writes no
    // --out, and the same command without the budget gives the exact total.
    let (checkpoint, out) = (scratch("budget-watch.jsonl"), scratch("budget-watch.json"));
    let args = |budget: Option<&'static str>| {
        let mut a: Vec<&str> = budget.map_or(vec![], |b| vec!["--max-memory", b]);
        a.extend(["analyze", "beams", "6c3p", "--tie", "mix", "--codes", codes]);
        a.extend(["--checkpoint", checkpoint.to_str().unwrap(), "--out", out.to_str().unwrap()]);
        a
    };
    assert_rejected(&args(Some("0.025")), "analysing Beams(6c,3p) (223920 codes: the table, the partitions walked");
    assert!(!out.exists(), "no --out from a stopped run");
    let resumed = bin(&args(None));
    let text = String::from_utf8_lossy(&resumed.stdout);
    assert!(resumed.status.success() && text.contains("total     15510346952/9009 over 223920 codes"), "{text}");
    assert_rejected(
        &["--max-memory", "0.025", "curve", "beams", "6c3p", "--from", "1", "--to", "2", "--codes", codes],
        "the curve of Beams(6c,3p) passed the memory budget of 25.6 MiB",
    );
}
