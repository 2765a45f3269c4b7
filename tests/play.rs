//! The playing agent and the Monte-Carlo check: playing every secret gives the
//! exact total of the tree analysis; a seeded simulation contains the exact
//! mean in its 2σ interval; the command line refuses bad secrets and answers.

mod common;

use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::search::play::{OpeningBook, Rng, play_out, simulate};
use renyi_search::search::tree::Replay;
use renyi_search::search::{Rules, RunOptions, Strategy, TieRule, analyze};
use std::io::Write;
use std::process::{Command, Stdio};

fn exhaustive<P: Replay>(problem: &P, strategy: Strategy) -> (u64, String) {
    let book = OpeningBook::new();
    let mut rng = Rng::new(1);
    let sum: u64 = (0..problem.code_count() as u32)
        .map(|c| {
            let (q, p) = play_out(problem, strategy, &book, c, &mut rng);
            q as u64 + p
        })
        .sum();
    (sum, analyze(problem, strategy, RunOptions::default()).total)
}

#[test]
fn playing_every_secret_gives_the_exact_total() {
    for alpha in ["0", "1", "2", "inf"] {
        let lex = Strategy::new(alpha.parse().unwrap(), TieRule::lex());
        let beams = BeamsRule::LexC.game(enumerate("3c6p".parse().unwrap())).unwrap();
        let (sum, total) = exhaustive(&beams, lex);
        assert_eq!(sum.to_string(), total, "Beams(3c,6p) H_{alpha}");
        let mm = Mastermind::new(4, 6, true).unwrap();
        let (sum, total) = exhaustive(&mm, lex);
        assert_eq!(sum.to_string(), total, "MM-360 H_{alpha}");
    }
}

#[test]
fn simulation_interval_contains_the_exact_mean() {
    let beams = BeamsRule::Mix.game(enumerate("6c3p".parse().unwrap())).unwrap();
    let strategy = Strategy::new("1".parse().unwrap(), TieRule::mix());
    let sim = simulate(&beams, strategy, 3000, 2024, &Default::default());
    // Exact H_1-MIX mean of Beams(6c,3p) (results/tables/table-4.10.md): 15510346952/9009 / 223920.
    let exact_mean = 15510346952.0 / 9009.0 / beams.code_count() as f64;
    assert!((exact_mean - 7.688685).abs() < 1e-6);
    assert!(sim.interval.0 <= exact_mean && exact_mean <= sim.interval.1, "{sim:?}");
    assert_eq!(sim.queries_histogram.values().sum::<u64>(), 3000);
    let again = simulate(&beams, strategy, 3000, 2024, &Default::default());
    assert_eq!(again.mean, sim.mean, "a seed reproduces the run");
    // The reduced-list MIX: 8863077893/5148 over the 223920 codes.
    let reduced = BeamsRule::MixReduced.game(enumerate("6c3p".parse().unwrap())).unwrap();
    let sim = simulate(&reduced, strategy, 3000, 2024, &Default::default());
    let exact_mean = 8863077893.0 / 5148.0 / reduced.code_count() as f64;
    assert!((exact_mean - 7.688704).abs() < 1e-6);
    assert!(sim.interval.0 <= exact_mean && exact_mean <= sim.interval.1, "{sim:?}");
}

fn bin(args: &[&str], input: &str) -> (bool, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_renyi-search"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    (out.status.success(), String::from_utf8_lossy(&out.stdout).into(), String::from_utf8_lossy(&out.stderr).into())
}

#[test]
fn agent_on_the_command_line() {
    let beams = BeamsRule::LexC.game(enumerate("3c6p".parse().unwrap())).unwrap();
    let secret = beams.code_label(1234);
    let (ok, out, err) = bin(&["play", "beams", "3c6p", "--secret", &secret], "");
    assert!(ok, "{err}");
    assert!(out.contains(&format!("lay code {secret}")) && out.contains("0 wrong cell"), "{out}");
    let (ok, _, err) = bin(&["play", "beams", "3c6p", "--secret", "012"], "");
    assert!(!ok && err.contains("18 digits"), "{err}");
    // Answers read from stdin: an impossible one is refused with a message.
    let (ok, _, err) = bin(&["play", "beams", "3c6p"], "1 2 3 4 5\n");
    assert!(!ok && (err.contains("impossible") || err.contains("cannot read")) && !err.contains("panicked"), "{err}");
    let (ok, _, err) = bin(&["play", "beams", "3c6p"], "none\n");
    assert!(!ok && err.contains("input ended"), "{err}");
    let (ok, out, err) = bin(&["simulate", "beams", "3c6p", "--tie", "mix-reduced", "--n", "20"], "");
    assert!(ok && out.contains("20 games"), "{err}");
    let (ok, _, err) = bin(&["simulate", "beams", "3c6p", "--tie", "mixr"], "");
    assert!(
        !ok && err.contains("possible values: lex-c, lex-d, mix, mix-reduced") && err.trim().lines().count() == 1,
        "{err}"
    );
    // A game count no run could finish is refused before anything is allocated
    // (it used to die of a capacity overflow).
    let (ok, _, err) = bin(&["simulate", "beams", "3c6p", "--n", "18446744073709551615"], "");
    assert!(!ok && err.contains("at most") && !err.contains("panicked"), "{err}");
}

/// The split of the penalty over the codes (how many codes pay 2, 3, … wrong
/// cells; the thesis' "2 RF") from the tree analysis equals playing every
/// secret of a reduced Beams(6c,3p) instance one by one; on the whole game the
/// split adds up to the penalty total.
#[test]
fn penalty_split_equals_playing_every_secret() {
    use renyi_search::games::beams::codeset::CodeSet;
    use renyi_search::search::subproblem::Subproblem;
    let beams = BeamsRule::LexC.game(enumerate("6c3p".parse().unwrap())).unwrap();
    let lex = Strategy::new("1".parse().unwrap(), TieRule::lex());
    let whole = analyze(&beams, lex, RunOptions::default());
    assert_eq!(whole.penalty_total, "1080");
    assert_eq!(whole.penalty_histogram, ["0", "0", "501", "26"]);
    let mut subset = CodeSet::empty();
    let row = CodeSet::full(1, 720).words().to_vec();
    (0..beams.pattern_count() as u32).step_by(7).for_each(|t| subset.push_row(t, &row));
    let sub = Subproblem { inner: &beams, state: beams.initial_state(), set: subset.clone() };
    let analysis = analyze(&sub, lex, RunOptions::default());
    let (book, mut rng) = (OpeningBook::new(), Rng::new(3));
    let mut by_points = vec![0u64; 37];
    for code in sub.codes_of(&subset) {
        by_points[play_out(&sub, lex, &book, code, &mut rng).1 as usize] += 1;
    }
    by_points[0] = 0;
    while by_points.last() == Some(&0) {
        by_points.pop();
    }
    let played: Vec<String> = by_points.iter().map(|n| n.to_string()).collect();
    assert!(by_points.iter().sum::<u64>() > 0, "the reduced instance has penalised codes");
    assert_eq!(analysis.penalty_histogram, played);
}

/// An opening book that cannot be cached (here a directory stands where the
/// book file would go, which fails for every user, root included, like a
/// read-only codes directory) is a warning: the game is played from memory
/// (audit N12: it was a hard error).
#[test]
fn an_opening_book_that_cannot_be_cached_is_a_warning() {
    let codes = common::scratch_dir("play-book");
    let book = format!("book-3c6p-a1-lex-c-v{}.json", renyi_search::VERSION);
    std::fs::create_dir_all(codes.join(&book).join("occupied")).unwrap();
    let beams = BeamsRule::LexC.game(enumerate("3c6p".parse().unwrap())).unwrap();
    let secret = beams.code_label(77);
    let dir = codes.display().to_string();
    let (ok, out, err) = bin(&["play", "beams", "3c6p", "--secret", &secret, "--codes", &dir], "");
    assert!(ok, "{err}");
    assert!(err.contains("opening book not cached") && err.trim().lines().all(|l| !l.contains("panicked")), "{err}");
    assert!(out.contains(&format!("lay code {secret}")) && out.contains("0 wrong cell"), "{out}");
    let _ = std::fs::remove_dir_all(&codes);
}
