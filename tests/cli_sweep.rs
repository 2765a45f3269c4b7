//! The command-line input sweep (issue 26, "Beyond the list"): every
//! subcommand with empty, negative, zero, huge, non-numeric and mistyped
//! values for its options and arguments must exit with code 2 and a short
//! message on stderr (a line `error: …`, a few lines in all, never
//! "panicked"),
//! within seconds. Each case starts from a base command that is accepted and
//! quick (checked by `every_base_command_is_accepted`), so a rejection is due
//! to the value under test. Inputs that panic, hang or exit otherwise today
//! are listed in [`KNOWN_DEFECTS`] (and skipped by the asserting test).

mod common;
use common::scratch_dir;

use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Longest a rejected input may take.
const DEADLINE: Duration = Duration::from_secs(20);

/// Most lines a rejection may print (clap's own errors add a usage line and a tip).
const MAX_LINES: usize = 8;

/// Inputs that do not exit with code 2 (skipped by the asserting test; the
/// ignored test checks they still misbehave). Empty: the 13 found at 1f50adf
/// — Poker-Nim sizes whose u32 sum wrapped past the 14-match check and ran
/// out of memory, Beams variants like `3c-6p` whose sign was dropped,
/// `curve --levels` beyond 2, FEN fields after the side to move — are fixed.
/// Each entry is the command line as [`line`] writes it, with the reason.
const KNOWN_DEFECTS: &[(&str, &str)] = &[];

const EMPTY: &str = "";
const NEGATIVE: &str = "-1";
const ZERO: &str = "0";
const HUGE: &str = "1000000000000000000000000000000"; // 10^30
const HUGE_U64: &str = "18446744073709551616"; // 2^64
const MAX_U64: &str = "18446744073709551615"; // 2^64 - 1: fits, and is far too large
const WORD: &str = "abc";

/// Bad values of a count (an unsigned integer that must be at least 1).
const COUNTS: &[&str] = &[EMPTY, NEGATIVE, ZERO, HUGE, HUGE_U64, WORD, "1.5", "4O", "0x10", "2e3", " 3", "+-3"];

/// Bad values of an integer option where 0 is legal.
const INTEGERS: &[&str] = &[EMPTY, NEGATIVE, HUGE, HUGE_U64, WORD, "1.5", "4O", "0x10", "2e3", "+-3"];

/// Bad values of α.
const ALPHAS: &[&str] = &[
    EMPTY,
    NEGATIVE,
    WORD,
    "1/0",
    "nan",
    "-inf",
    "3/-2",
    "0.5.5",
    "1,5",
    "inf2",
    "1e400",
    "--1",
    "18446744073709551616/0",
];

/// Bad Beams variants.
const VARIANTS: &[&str] = &[
    EMPTY,
    NEGATIVE,
    ZERO,
    WORD,
    "0c0p",
    "3c0p",
    "0c6p",
    "3c6",
    "3x6p",
    "c6p",
    "18446744073709551616c6p",
    "3c18446744073709551616p",
    "-3c6p",
    "3c-6p",
    "7c7p",
];

/// Bad shard specifications.
const SHARDS: &[&str] =
    &[EMPTY, NEGATIVE, ZERO, "1/0", "0/0", "5/4", "-1/2", "a/b", "0/18446744073709551616", "1/1", "0/-1", "1"];

/// Bad rectangular boards (`4x3`).
const BOARDS: &[&str] = &[
    EMPTY,
    NEGATIVE,
    ZERO,
    WORD,
    "0x0",
    "0x3",
    "-1x3",
    "axb",
    "4x",
    "x4",
    "18446744073709551616x2",
    "2x18446744073709551616",
    "1000000x1000000",
    "4x3x2",
];

/// A base command that is accepted and quick, and the values to try in place of one of its parts.
struct Sweep {
    base: Vec<String>,
    /// `Some(option)`: `base option value`; `None`: `base value rest`.
    option: Option<&'static str>,
    values: Vec<&'static str>,
    rest: Vec<String>,
    /// A value that is accepted in the same place (quickly), if there is a
    /// cheap one: `every_base_command_is_accepted` runs it.
    good: Option<String>,
}

fn words(text: &str) -> Vec<String> {
    text.split_whitespace().map(str::to_string).collect()
}

fn opt(base: &str, option: &'static str, values: &[&'static str]) -> Sweep {
    Sweep { base: words(base), option: Some(option), values: values.to_vec(), rest: Vec::new(), good: None }
}

fn arg(base: &str, values: &[&'static str], rest: &str) -> Sweep {
    Sweep { base: words(base), option: None, values: values.to_vec(), rest: words(rest), good: None }
}

impl Sweep {
    /// With `good` as the accepted value.
    fn good(mut self, good: &str) -> Sweep {
        self.good = Some(good.to_string());
        self
    }

    /// The command line with `value` in place.
    fn with(&self, value: &str) -> Vec<String> {
        let mut args = self.base.clone();
        if let Some(o) = self.option {
            args.push(o.to_string());
        }
        args.push(value.to_string());
        args.extend(self.rest.iter().cloned());
        args
    }
}

/// Files the sweep points at: a non-JSON file, an empty file, a path below a
/// file (cannot be created), a directory.
struct Files {
    garbage: String,
    empty: String,
    below_file: String,
    dir: String,
}

fn files(dir: &Path) -> Files {
    let garbage = dir.join("garbage.json");
    std::fs::write(&garbage, "not json {").unwrap();
    let empty = dir.join("empty.json");
    std::fs::write(&empty, "").unwrap();
    let text = |p: &Path| p.to_str().unwrap().to_string();
    Files { below_file: text(&garbage.join("x")), garbage: text(&garbage), empty: text(&empty), dir: text(dir) }
}

fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Every sweep: (base command, where the value goes, the values).
fn sweeps(f: &Files) -> Vec<Sweep> {
    let (garbage, empty, below, dir) =
        (leak(f.garbage.clone()), leak(f.empty.clone()), leak(f.below_file.clone()), leak(f.dir.clone()));
    let files_bad = [EMPTY, garbage, empty, below, dir, "/nonexistent/renyi-search-sweep"];
    let unwritable = [EMPTY, below, dir];
    let mut s = Vec::new();
    // Mastermind, everywhere it is offered.
    for cmd in ["analyze", "sweep", "perfect", "curve"] {
        s.push(opt(&format!("{cmd} mastermind --colors 3"), "--pegs", COUNTS).good("2"));
        s.push(opt(&format!("{cmd} mastermind --pegs 2"), "--colors", COUNTS).good("3"));
        let too_many = &[MAX_U64, "4294967296", "1000000", "27"];
        s.push(opt(&format!("{cmd} mastermind --colors 3"), "--pegs", too_many).good("2"));
        s.push(opt(&format!("{cmd} mastermind --pegs 2"), "--colors", too_many).good("3"));
        s.push(opt(&format!("{cmd} mastermind --pegs 2 --colors 3"), "--pgs", &["2"]));
        s.push(arg(&format!("{cmd} mastermind --pegs 2 --colors 3 --distinct"), &["yes"], ""));
    }
    s.push(opt("analyze mastermind --pegs 2 --colors 3", "--alpha", ALPHAS).good("3/2"));
    let mut ranges = ALPHAS.to_vec();
    ranges.extend([
        "0:1",
        "0:1:0.5:2",
        "0::0.5",
        "1:0:0.5",
        "0:1:0",
        "0:1:-0.5",
        "0:1000000000000000000000000000000:1",
        "0:18446744073709551616:1",
        "0:1:0.000000000000000000000000000001",
        "0:inf:1",
        "a:b:c",
    ]);
    s.push(opt("sweep mastermind --pegs 2 --colors 3", "--alpha", leak_vec(ranges)).good("0:1:0.5"));
    for cmd in ["analyze", "sweep"] {
        s.push(
            opt(&format!("{cmd} mastermind --pegs 2 --colors 3"), "--tie", &[EMPTY, WORD, "LEX", "lex-c", ZERO])
                .good("mix"),
        );
        s.push(
            opt(&format!("{cmd} mastermind --pegs 2 --colors 3"), "--out", leak_vec(unwritable.to_vec())).good("NEW"),
        );
    }
    s.push(opt("perfect mastermind --pegs 2 --colors 3", "--tree", leak_vec(unwritable.to_vec())).good("NEW"));
    let curve = "curve mastermind --pegs 2 --colors 3";
    s.push(opt(curve, "--tie", &[EMPTY, WORD, "lex-c"]).good("mix"));
    for o in ["--from", "--to"] {
        s.push(opt(curve, o, &[EMPTY, NEGATIVE, WORD, "1/0", "nan", "-inf", "1e400"]).good("1"));
    }
    s.push(opt(&format!("{curve} --from 2"), "--to", &["1"]).good("3"));
    let mut levels = COUNTS.to_vec();
    levels.extend(["3", MAX_U64]);
    s.push(opt(curve, "--levels", leak_vec(levels.clone())));
    let checkpoint = leak(format!("{}/curve-levels.units", f.dir));
    s.push(
        opt(&format!("{curve} --checkpoint {checkpoint}"), "--levels", &[EMPTY, NEGATIVE, ZERO, WORD, "3", MAX_U64])
            .good("1"),
    );
    let checkpoint = leak(format!("{}/curve-shard.units", f.dir));
    s.push(opt(&format!("{curve} --levels 1 --checkpoint {checkpoint}"), "--shard", SHARDS).good("0/1"));
    s.push(opt(curve, "--checkpoint", &[EMPTY, dir]));
    s.push(opt(&format!("{curve} --levels 1"), "--checkpoint", &[EMPTY, dir, garbage, below]).good("NEW"));
    let checkpoint = leak(format!("{}/curve-with.units", f.dir));
    s.push(opt(&format!("{curve} --levels 1 --checkpoint {checkpoint}"), "--with", &[EMPTY, dir, garbage]));
    s.push(opt(curve, "--csv", leak_vec(unwritable.to_vec())).good("NEW"));
    s.push(opt(curve, "--json", leak_vec(unwritable.to_vec())).good("NEW"));
    // The size models.
    for (cmd, size) in [("analyze", "--upto"), ("sweep", "--size")] {
        for game in ["free", "wurzel"] {
            let base = format!("{cmd} {game} {size} 10");
            if game == "free" {
                s.push(opt(&base, "--width", COUNTS).good("3"));
                s.push(opt(&base, "--width", &["1"]));
            }
            s.push(opt(&format!("{cmd} {game}"), size, COUNTS).good("10"));
            s.push(opt(&format!("{cmd} {game}"), size, &[MAX_U64, "20000001"]));
            s.push(opt(&base, "--alpha", ALPHAS).good(if cmd == "analyze" { "2" } else { "0:1:0.5" }));
            s.push(opt(&base, "--tie", &[EMPTY, WORD]).good("lex"));
        }
    }
    for game in ["free", "wurzel"] {
        let base = format!("curve {game} --size 10");
        if game == "free" {
            s.push(opt(&base, "--width", COUNTS).good("3"));
        }
        s.push(opt(&format!("curve {game}"), "--size", COUNTS).good("10"));
        s.push(opt(&format!("curve {game}"), "--size", &[MAX_U64]));
        s.push(opt(&base, "--tie", &[EMPTY, WORD]).good("lex"));
        s.push(opt(&base, "--from", &[EMPTY, NEGATIVE, WORD]).good("1"));
    }
    // Beams.
    let out = leak(format!("{}/shard.json", f.dir));
    s.push(arg("analyze beams", VARIANTS, "").good("3c6p"));
    s.push(arg("sweep beams", &[EMPTY, WORD], ""));
    let beams = "analyze beams 3c6p";
    s.push(opt(beams, "--alpha", ALPHAS).good("2"));
    s.push(opt(beams, "--tie", &[EMPTY, WORD, "lex"]).good("mix"));
    s.push(opt(beams, "--penalty", &[EMPTY, WORD]).good("random"));
    s.push(opt(beams, "--memo-gib", &[EMPTY, NEGATIVE, HUGE, WORD, "nan", "inf", "-0"]).good("0.5"));
    s.push(opt(&format!("{beams} --out {out}"), "--shard", SHARDS).good("0/1"));
    let mut unit_levels = INTEGERS.to_vec();
    unit_levels.push(MAX_U64);
    s.push(opt(&format!("{beams} --out {out} --shard 0/2"), "--levels", leak_vec(unit_levels)).good("1"));
    s.push(opt(&format!("{beams} --shard 0/1"), "--out", leak_vec(unwritable.to_vec())).good("NEW"));
    s.push(opt(&format!("{beams} --out {out} --shard 0/1"), "--checkpoint", &[EMPTY, dir, garbage, below]).good("NEW"));
    s.push(opt(beams, "--units", &[EMPTY, NEGATIVE, HUGE_U64, WORD, "1,,2"]));
    s.push(opt(
        beams,
        "--after",
        &[
            EMPTY,
            NEGATIVE,
            WORD,
            "3:x",
            "1:1:1",
            "18446744073709551616:0",
            "0:18446744073709551616",
            "99999:0",
            "0:99999",
        ],
    ));
    s.push(opt(&format!("{beams} --units 0"), "--recheck", leak_vec(files_bad.to_vec())));
    s.push(opt(beams, "--codes", &[EMPTY]).good("codes"));
    s.push(arg("perfect beams", VARIANTS, "").good("3c6p"));
    s.push(arg("beams info", VARIANTS, "").good("3c6p"));
    // 2c18p and 1c36p were refused (no table fits); `beams info` now prints their
    // frontier counts (tests/cli.rs, tests/beams_transfer.rs).
    s.push(opt("beams info 3c6p", "--codes", &[EMPTY]).good("codes"));
    s.push(arg("curve beams", VARIANTS, "").good("3c6p"));
    s.push(opt("curve beams 3c6p", "--tie", &[EMPTY, WORD, "lex", "LEX-C"]).good("lex-d"));
    s.push(opt("curve beams 3c6p", "--from", &[EMPTY, NEGATIVE, WORD]).good("1"));
    for (cmd, tail) in [("play", "--secret random"), ("simulate", "--n 2")] {
        s.push(arg(&format!("{cmd} beams"), VARIANTS, tail).good("3c6p"));
        let base = format!("{cmd} beams 3c6p {tail}");
        s.push(opt(&base, "--alpha", ALPHAS).good("2"));
        s.push(opt(&base, "--tie", &[EMPTY, WORD, "lex", "LEX-C"]).good("lex-d"));
        s.push(opt(&base, "--codes", &[EMPTY]).good("codes"));
    }
    s.push(
        opt(
            "play beams 3c6p",
            "--secret",
            &[
                EMPTY,
                NEGATIVE,
                ZERO,
                WORD,
                "012",
                "00000000000000000",
                "0000000000000000000",
                "333333333333333333",
                "random:",
                "random:-1",
                "random:18446744073709551616",
                "random:abc",
                HUGE,
            ],
        )
        .good("random:7"),
    );
    let mut games = COUNTS.to_vec();
    games.extend(["1", MAX_U64]);
    s.push(opt("simulate beams 3c6p", "--n", leak_vec(games)).good("2"));
    s.push(opt("simulate beams 3c6p --n 2", "--seed", &[EMPTY, NEGATIVE, HUGE_U64, WORD, "1.5"]).good("7"));
    s.push(opt("simulate beams 3c6p --n 2", "--out", leak_vec(unwritable.to_vec())).good("NEW"));
    // Run files.
    s.push(arg("merge", leak_vec(files_bad.to_vec()), ""));
    s.push(opt(&format!("merge {garbage}"), "--out", &[EMPTY]));
    s.push(arg("verify", leak_vec(files_bad.to_vec()), ""));
    s.push(opt("verify", "--certificate", leak_vec(files_bad.to_vec())));
    // Game-graph solvers.
    s.push(arg("solve chess", &[EMPTY, NEGATIVE, ZERO, WORD, "KK", "K", "KRKRKR", HUGE], "").good("KRK"));
    s.push(opt("solve chess KRK", "--metric", &[EMPTY, WORD]).good("dtc"));
    s.push(
        opt("solve chess KRK", "--position", &[EMPTY, NEGATIVE, WORD, "Ka1", HUGE, "8/8/8/8/8/2k5/1R6/K7 w zzz"])
            .good("8/8/8/8/8/2k5/1R6/K7 w"),
    );
    s.push(arg("solve nim", &[EMPTY, NEGATIVE, HUGE_U64, WORD, "1.5"], "").good("3"));
    s.push(opt("solve nim 3 4", "--to", &[EMPTY, NEGATIVE, "4294967296", WORD]).good("1"));
    s.push(arg("solve grundy", &[EMPTY, NEGATIVE, ZERO, WORD], "").good("grundy"));
    let mut upto = INTEGERS.to_vec();
    upto.extend([MAX_U64, "100000000000"]);
    let upto = leak_vec(upto);
    for rule in ["grundy", "lasker", "octal --code 0.07", "subtraction --set 1,2"] {
        s.push(opt(&format!("solve grundy {rule}"), "--upto", upto).good("100"));
    }
    s.push(opt("solve grundy subtraction", "--set", &[EMPTY, NEGATIVE, WORD, ZERO, HUGE_U64, "1,,2"]).good("1,3"));
    s.push(opt("solve grundy octal", "--code", &[EMPTY, NEGATIVE, WORD, "0.", "4.07", "0.8", HUGE]).good("0.07"));
    s.push(opt("solve grundy grundy", "--heaps", &[EMPTY, NEGATIVE, HUGE_U64, WORD, MAX_U64]).good("3"));
    s.push(opt("solve subtraction", "--set", &[EMPTY, NEGATIVE, WORD, ZERO, HUGE_U64]).good("1,3"));
    s.push(opt("solve subtraction --set 1,2", "--upto", upto).good("30"));
    s.push(arg("solve chomp", BOARDS, "").good("4x3"));
    s.push(arg("solve cram", BOARDS, "").good("4x3"));
    s.push(
        opt(
            "solve poker-nim",
            "--piles",
            &[EMPTY, NEGATIVE, "4294967296", WORD, "1,,2", "1,2,3,4,5", "4294967295,1", "2147483648,2147483648"],
        )
        .good("1,2"),
    );
    for o in ["--mover", "--other"] {
        s.push(
            opt("solve poker-nim --piles 1,2", o, &[EMPTY, NEGATIVE, "4294967296", WORD, "15", "4294967295"]).good("1"),
        );
    }
    s.push(arg("reproduce", &[EMPTY, NEGATIVE, ZERO, WORD, "table-4.5x", "table-9.9"], ""));
    s.push(opt("reproduce table-9.9", "--results", &[EMPTY]));
    // Global options and mistyped commands.
    s.push(
        opt(
            "analyze mastermind --pegs 2 --colors 3",
            "--max-memory",
            &[EMPTY, NEGATIVE, ZERO, WORD, "nan", "inf", "-inf", HUGE_U64],
        )
        .good("4"),
    );
    s.push(arg("", &["frobnicate", "analyse", "--alpha"], ""));
    s.push(arg("analyze", &["chess", "mastermnd", "3"], ""));
    s.push(arg("solve", &["tetris"], ""));
    s
}

fn leak_vec(v: Vec<&'static str>) -> &'static [&'static str] {
    Box::leak(v.into_boxed_slice())
}

/// Every command line of the sweep.
fn cases(f: &Files) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    for s in sweeps(f) {
        out.extend(s.values.iter().map(|v| s.with(v)));
    }
    out
}

/// A command line as text: words joined by spaces, an empty word as `""`,
/// the test's scratch directory as `<dir>`.
fn line(args: &[String]) -> String {
    let scratch = std::env::temp_dir().join("renyi-test-");
    let scratch = scratch.to_str().unwrap();
    let word = |a: &String| match a.strip_prefix(scratch) {
        _ if a.is_empty() => "\"\"".to_string(),
        Some(rest) => format!("<dir>{}", rest.find('/').map_or("", |i| &rest[i..])),
        None => a.clone(),
    };
    args.iter().map(word).collect::<Vec<_>>().join(" ")
}

/// How a run ended.
struct Ran {
    /// `None`: killed at the deadline, or ended by a signal.
    code: Option<i32>,
    timed_out: bool,
    stderr: String,
}

/// Runs the program with `args` (stdin closed; address space limited to
/// 8 GB so that a runaway allocation fails instead of taking the machine),
/// killing it at the deadline.
fn run(args: &[String], cwd: &Path) -> Ran {
    let mut child = Command::new("sh")
        .arg("-c")
        .arg("ulimit -v 8000000 && exec \"$0\" \"$@\"")
        .arg(env!("CARGO_BIN_EXE_renyi-search"))
        .args(args)
        .current_dir(cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("runs");
    let drain = |mut pipe: Box<dyn Read + Send>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            let _ = pipe.read_to_end(&mut buf);
            buf
        })
    };
    let out = drain(Box::new(child.stdout.take().unwrap()));
    let err = drain(Box::new(child.stderr.take().unwrap()));
    let started = Instant::now();
    let mut timed_out = false;
    let status = loop {
        if let Some(status) = child.try_wait().expect("waits") {
            break status;
        }
        if started.elapsed() > DEADLINE {
            timed_out = true;
            let _ = child.kill();
            break child.wait().expect("waits");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let _ = out.join();
    let stderr = String::from_utf8_lossy(&err.join().unwrap_or_default()).into_owned();
    Ran { code: status.code(), timed_out, stderr }
}

/// What is wrong with a run of a rejected input, if anything.
fn complaint(ran: &Ran) -> Option<String> {
    let lines = ran.stderr.trim().lines().count();
    let first = ran.stderr.lines().next().unwrap_or("");
    if ran.timed_out {
        Some(format!("still running after {} s (killed)", DEADLINE.as_secs()))
    } else if ran.stderr.contains("panicked") {
        Some(format!("panicked: {}", ran.stderr.trim()))
    } else if ran.code != Some(2) {
        Some(format!("exit {:?} (not 2); stderr {:?}", ran.code, first))
    } else if !ran.stderr.lines().any(|l| l.starts_with("error")) {
        Some(format!("no line of stderr starts with `error`: {:?}", first))
    } else if lines > MAX_LINES {
        Some(format!("{lines} lines on stderr"))
    } else {
        None
    }
}

/// Runs `cases` on a few threads; the complaints, by command line.
fn run_all(cases: Vec<Vec<String>>, cwd: &Path) -> Vec<(String, String)> {
    let queue = std::sync::Mutex::new(cases);
    let found = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..3 {
            scope.spawn(|| {
                loop {
                    let Some(args) = queue.lock().unwrap().pop() else { break };
                    if let Some(c) = complaint(&run(&args, cwd)) {
                        found.lock().unwrap().push((line(&args), c));
                    }
                }
            });
        }
    });
    let mut found = found.into_inner().unwrap();
    found.sort();
    found
}

#[test]
fn bad_values_exit_with_code_2_and_a_short_message() {
    let dir = scratch_dir("cli-sweep");
    let f = files(&dir);
    let known: Vec<&str> = KNOWN_DEFECTS.iter().map(|d| d.0).collect();
    let all = cases(&f);
    assert!(all.len() > 500, "{} cases", all.len());
    eprintln!("{} cases, {} of them known defects", all.len(), KNOWN_DEFECTS.len());
    let todo: Vec<Vec<String>> = all.into_iter().filter(|a| !known.contains(&line(a).as_str())).collect();
    let found = run_all(todo, common::root().as_ref());
    let report: Vec<String> = found.iter().map(|(l, c)| format!("renyi-search {l}\n    {c}")).collect();
    assert!(found.is_empty(), "{} inputs not rejected cleanly:\n{}", found.len(), report.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Each sweep's command with an accepted value in place exits 0, so that the
/// cases above are rejected for their values, not for their base.
#[test]
fn every_base_command_is_accepted() {
    let dir = scratch_dir("cli-sweep-bases");
    let f = files(&dir);
    let mut checked: Vec<Vec<String>> = Vec::new();
    for s in sweeps(&f) {
        if let Some(good) = &s.good {
            let args = s.with(&good.replace("NEW", &format!("{}/{}", f.dir, checked.len())));
            if !checked.contains(&args) {
                checked.push(args);
            }
        }
    }
    assert!(checked.len() > 60, "{} base commands", checked.len());
    let failed: Vec<String> = checked
        .iter()
        .filter_map(|args| {
            let ran = run(args, common::root().as_ref());
            (ran.code != Some(0)).then(|| format!("{}: exit {:?}, {}", line(args), ran.code, ran.stderr.trim()))
        })
        .collect();
    assert!(failed.is_empty(), "base commands not accepted:\n{}", failed.join("\n"));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Every known defect is a case of the sweep (so that the list names inputs
/// the sweep really skips).
#[test]
fn known_defects_are_cases_of_the_sweep() {
    let dir = scratch_dir("cli-sweep-known");
    let lines: Vec<String> = cases(&files(&dir)).iter().map(|a| line(a)).collect();
    for (defect, _) in KNOWN_DEFECTS {
        assert!(lines.iter().any(|l| l == defect), "{defect} is not a case of the sweep");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The known defects still misbehave (run by hand: `cargo test --release
/// --test cli_sweep -- --ignored`; the Poker-Nim cases allocate up to the
/// 8 GB limit). Once one is fixed, this fails and names it: remove it from
/// [`KNOWN_DEFECTS`].
#[test]
#[ignore = "runs the known defects: slow, and some allocate gigabytes"]
fn known_defects_still_misbehave() {
    let dir = scratch_dir("cli-sweep-defects");
    let cases: Vec<Vec<String>> =
        cases(&files(&dir)).into_iter().filter(|a| KNOWN_DEFECTS.iter().any(|d| d.0 == line(a))).collect();
    let fixed: Vec<String> =
        cases.iter().filter(|a| complaint(&run(a, common::root().as_ref())).is_none()).map(|a| line(a)).collect();
    assert!(fixed.is_empty(), "fixed, remove from KNOWN_DEFECTS: {fixed:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
