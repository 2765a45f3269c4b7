//! Property tests (issue 26, "Beyond the list"), each with a modest number of
//! random cases:
//! - on random small Mastermind instances and random subsets of their codes,
//!   the fast analysis equals a plain evaluator (LEX: every secret played on
//!   its own; MIX: the exact rational mean over every tied choice) for random α
//!   written as fractions, decimals, integers or `inf`;
//! - a work-unit run (Mastermind, or Beams(3c,6p) with either penalty) split
//!   into a random number of shards merges to the one-process result exactly;
//! - damaged run files (a flipped byte, a truncation) are refused with an
//!   error or read as the original; never a panic, never another value.

mod common;
use common::plain::{lex_play, tied_best};
use common::scratch;

use proptest::prelude::*;
use proptest::sample::Index;
use renyi_search::curve::run::units::{CurveUnitRun, CurveUnits, run_curve_units};
use renyi_search::curve::{Curve, Domain, Point, Span, curve};
use renyi_search::games::beams::game::{Beams, Penalty, QueryOrder};
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::renyi::score::RenyiScore;
use renyi_search::search::outcome::parse_exact;
use renyi_search::search::subproblem::Subproblem;
use renyi_search::search::units::{Shard, ShardFile, UnitRecord, UnitRun, merge, run_units};
use renyi_search::search::{
    Exact, Outcome, Presentation, Rules, RunOptions, SearchProblem, Strategy as Play, TieRule, analyze,
};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering as AtomicOrdering};

// ---------------------------------------------------------------------------
// The plain evaluators (as in tests/plain_evaluator.rs, on any set of codes).

/// H_α-MIX: the exact expected total number of guesses over the secrets of
/// `set`, every tied query equally likely (memoised by set).
fn mix_total(p: &Mastermind, score: &RenyiScore, set: &[u32], memo: &mut HashMap<Vec<u32>, Exact>) -> Exact {
    if set.len() == 1 {
        return Exact::from_integer(1.into());
    }
    if let Some(v) = memo.get(set) {
        return v.clone();
    }
    let pool = tied_best(p, score, set);
    let mut sum = Exact::from_integer(0.into());
    for &q in &pool {
        let mut classes: std::collections::BTreeMap<usize, Vec<u32>> = Default::default();
        for &c in set {
            classes.entry(p.answer(q, c) as usize).or_default().push(c);
        }
        for class in classes.values() {
            if class == &[q] {
                sum += Exact::from_integer(1.into()); // solved by this guess
            } else {
                sum += Exact::from_integer((class.len() as u64).into()) + mix_total(p, score, class, memo);
            }
        }
    }
    let mean = sum / Exact::from_integer((pool.len() as u64).into());
    memo.insert(set.to_vec(), mean.clone());
    mean
}

// ---------------------------------------------------------------------------
// Random inputs.

/// An α as text: a fraction p/q, a decimal, an integer or infinity.
fn alpha_text() -> impl Strategy<Value = String> {
    prop_oneof![
        (0u32..13, 1u32..7).prop_map(|(p, q)| format!("{p}/{q}")),
        (0u32..5, 0u32..100).prop_map(|(i, f)| format!("{i}.{f:02}")),
        (0u32..8).prop_map(|i| i.to_string()),
        Just("inf".to_string()),
    ]
}

const VARIANTS: [(usize, usize, bool); 7] =
    [(2, 3, false), (2, 4, false), (3, 3, false), (3, 4, false), (3, 4, true), (3, 5, true), (4, 4, false)];

/// The codes of `mm` whose bit is set in `mask` (bit i of the 256-bit mask for
/// code i mod 256); all codes if `full` or if the mask keeps fewer than two.
fn subset(mm: &Mastermind, mask: &[u64; 4], full: bool) -> Vec<u32> {
    let all: Vec<u32> = (0..mm.code_count() as u32).collect();
    if full {
        return all;
    }
    let kept: Vec<u32> = all.iter().copied().filter(|&c| mask[(c as usize % 256) / 64] >> (c % 64) & 1 == 1).collect();
    if kept.len() < 2 { all } else { kept }
}

fn lex() -> TieRule {
    TieRule::lex()
}

fn mix() -> TieRule {
    TieRule::mix()
}

/// A fresh scratch path for one case.
fn case_path(kind: &str) -> std::path::PathBuf {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    scratch(&format!("prop-{kind}-{}", NEXT.fetch_add(1, AtomicOrdering::Relaxed)))
}

/// The exact values of an outcome (depth counts, penalty, penalty split), without trailing zeros.
fn values(o: &Outcome) -> (Vec<String>, String, Vec<String>) {
    let trim = |mut v: Vec<String>| {
        while v.last().is_some_and(|x| x == "0") {
            v.pop();
        }
        v
    };
    let (counts, penalty) = o.to_strings();
    (trim(counts), penalty, trim(o.penalised_strings()))
}

// ---------------------------------------------------------------------------
// 1. The fast analysis equals the plain evaluators.

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn analysis_equals_the_plain_evaluator(
        variant in 0..VARIANTS.len(),
        alpha in alpha_text(),
        mask in any::<[u64; 4]>(),
        full in any::<bool>(),
        use_mix in any::<bool>(),
    ) {
        let (pegs, colors, distinct) = VARIANTS[variant];
        let mm = Mastermind::new(pegs, colors, distinct).unwrap();
        let alpha: Alpha = alpha.parse().unwrap();
        let score = RenyiScore::new(alpha);
        // The plain MIX evaluator follows every tied query: on all 256 codes
        // of MM(4,4) it takes seconds, so MIX there runs on a subset.
        let codes = subset(&mm, &mask, full && !(use_mix && mm.code_count() > 100));
        let sub = Subproblem { inner: &mm, state: mm.initial_state(), set: codes.clone() };
        prop_assert_eq!(sub.code_count(), codes.len());
        let tie = if use_mix { mix() } else { lex() };
        let fast = analyze(&sub, Play::new(alpha, tie), RunOptions::default());
        let plain = if use_mix {
            mix_total(&mm, &score, &codes, &mut HashMap::new())
        } else {
            let total: u64 = codes.iter().map(|&s| lex_play(&mm, &score, &codes, s)).sum();
            Exact::from_integer(total.into())
        };
        prop_assert_eq!(
            fast.exact_total(), plain,
            "{} on {} of its codes, α={} {}", mm.name(), codes.len(), alpha, tie
        );
        // The depth histogram adds up to the codes.
        let codes_in_histogram: Exact = fast
            .depth_histogram
            .iter()
            .map(|c| parse_exact(c).unwrap())
            .sum();
        prop_assert_eq!(codes_in_histogram, Exact::from_integer((codes.len() as u64).into()));
    }
}

// ---------------------------------------------------------------------------
// 2. Random shard counts merge to the one-process result.

fn run_shard(
    problem: &impl SearchProblem,
    strategy: Play,
    levels: usize,
    shard: Shard,
    checkpoint: Option<&Path>,
) -> renyi_search::error::Result<ShardFile> {
    run_units(problem, strategy, &UnitRun { levels, shard, checkpoint, progress: Default::default() })
}

/// Beams(3c,6p) (LEX-c order) with the best-guess or the random-guess penalty.
fn beams_3c6p(random_penalty: bool) -> &'static Beams {
    static BEST: std::sync::OnceLock<Beams> = std::sync::OnceLock::new();
    static RANDOM: std::sync::OnceLock<Beams> = std::sync::OnceLock::new();
    let penalty = if random_penalty { Penalty::RandomGuess } else { Penalty::BestGuess };
    (if random_penalty { &RANDOM } else { &BEST })
        .get_or_init(|| Beams::new(enumerate("3c6p".parse().unwrap()), QueryOrder::ColourFirst, penalty).unwrap())
}

/// Runs `count` shards of the unit run cut at `levels` and merges them,
/// rotated by `rotate`: the one-process result.
fn shards_merge_to_the_whole(
    problem: &impl SearchProblem,
    strategy: Play,
    levels: usize,
    count: u64,
    rotate: usize,
) -> Result<(), TestCaseError> {
    let whole = analyze(problem, strategy, RunOptions::default());
    let mut files: Vec<ShardFile> =
        (0..count).map(|index| run_shard(problem, strategy, levels, Shard { index, count }, None).unwrap()).collect();
    // Every unit in exactly one shard, and the units hold every code once
    // (under MIX weighted by the probability of reaching them).
    let units: u64 = files.iter().map(|f| f.units.len() as u64).sum();
    prop_assert_eq!(units, files[0].units_total);
    let one = Exact::from_integer(1.into());
    let codes: Exact = files
        .iter()
        .flat_map(|f| &f.units)
        .map(|u| {
            let weight = u.weight.as_deref().map_or(one.clone(), |w| parse_exact(w).unwrap());
            weight * Exact::from_integer(u.codes.into())
        })
        .sum();
    prop_assert_eq!(codes, Exact::from_integer((problem.code_count() as u64).into()));
    // The merge does not depend on the order of the files.
    let k = rotate % files.len();
    files.rotate_left(k);
    let (header, merged) = merge(&files).unwrap();
    prop_assert_eq!(header.levels, levels);
    prop_assert_eq!(merged.total(), whole.exact_total());
    prop_assert_eq!(values(&merged), values(&whole.outcome));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn random_shard_counts_merge_to_the_one_process_result(
        game in 0usize..5,
        alpha in prop_oneof![Just("0"), Just("1"), Just("3/2"), Just("2"), Just("inf")],
        use_mix in any::<bool>(),
        levels in 1usize..=2,
        count in 1u64..=5,
        rotate in 0usize..5,
    ) {
        let strategy = Play::new(alpha.parse().unwrap(), if use_mix { mix() } else { lex() });
        match game {
            0 => shards_merge_to_the_whole(&Mastermind::new(3, 4, false).unwrap(), strategy, levels, count, rotate)?,
            1 => shards_merge_to_the_whole(&Mastermind::new(4, 6, true).unwrap(), strategy, levels, count, rotate)?,
            2 => shards_merge_to_the_whole(&Mastermind::new(3, 5, false).unwrap(), strategy, levels, count, rotate)?,
            k => shards_merge_to_the_whole(beams_3c6p(k == 4), strategy, levels, count, rotate)?,
        }
    }
}

// ---------------------------------------------------------------------------
// 3. Damaged run files: refused, or read as the original.

/// A finished work-unit run of MM(3,4) under H_1-MIX cut at 2 levels: its
/// checkpoint's bytes, its shard file's bytes and its result.
struct UnitRunFiles {
    checkpoint: Vec<u8>,
    shard: Vec<u8>,
    result: ShardFile,
}

fn unit_run_strategy() -> Play {
    Play::new("1".parse().unwrap(), mix())
}

fn unit_run_files() -> &'static UnitRunFiles {
    static FILES: std::sync::OnceLock<UnitRunFiles> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mm = Mastermind::new(3, 4, false).unwrap();
        let path = case_path("original.jsonl");
        let result = run_shard(&mm, unit_run_strategy(), 2, Shard { index: 0, count: 1 }, Some(&path)).unwrap();
        let checkpoint = std::fs::read(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        // The shard file as the program writes it (with its checksum).
        let shard_path = case_path("original-shard.json");
        renyi_search::search::units::write_shard(&shard_path, &result).unwrap();
        let shard = std::fs::read(&shard_path).unwrap();
        let _ = std::fs::remove_file(&shard_path);
        UnitRunFiles { checkpoint, shard, result }
    })
}

/// The exact content of unit records (not their timing).
fn record_values(units: &[UnitRecord]) -> Vec<String> {
    let mut v: Vec<String> = units
        .iter()
        .map(|u| {
            format!(
                "{} {:?} {:?} {:?} {} {:?} {} {:?}",
                u.index, u.path, u.queries, u.weight, u.codes, u.depth_counts, u.penalty, u.penalised
            )
        })
        .collect();
    v.sort();
    v
}

/// Resumes the run from a checkpoint holding `bytes`: an error, or the result of the original run.
fn resume_from((bytes, what): (Vec<u8>, String)) -> Result<(), TestCaseError> {
    let what = what.as_str();
    let files = unit_run_files();
    let mm = Mastermind::new(3, 4, false).unwrap();
    let path = case_path("damaged.jsonl");
    std::fs::write(&path, &bytes).unwrap();
    let resumed = run_shard(&mm, unit_run_strategy(), 2, Shard { index: 0, count: 1 }, Some(&path));
    let _ = std::fs::remove_file(&path);
    if let Ok(resumed) = resumed {
        same_records(what, &record_values(&resumed.units), &record_values(&files.result.units))?;
    }
    Ok(())
}

/// A shard file holding `bytes`, as `merge` reads it (or its error).
fn read_shard_bytes(bytes: &[u8]) -> renyi_search::error::Result<ShardFile> {
    let path = case_path("shard.json");
    std::fs::write(&path, bytes).unwrap();
    let read = renyi_search::search::units::read_shard(&path);
    let _ = std::fs::remove_file(&path);
    read
}

/// Merges a shard file holding `bytes` as `merge` reads it: an error, or the original result.
fn merge_from((bytes, what): (Vec<u8>, String)) -> Result<(), TestCaseError> {
    let what = what.as_str();
    let files = unit_run_files();
    let Ok(shard) = read_shard_bytes(&bytes) else { return Ok(()) };
    let Ok((header, outcome)) = merge(std::slice::from_ref(&shard)) else { return Ok(()) };
    let (_, original) = merge(std::slice::from_ref(&files.result)).unwrap();
    prop_assert_eq!(header, files.result.header.clone(), "{}", what);
    prop_assert_eq!(values(&outcome), values(&original), "{}", what);
    same_records(what, &record_values(&shard.units), &record_values(&files.result.units))?;
    Ok(())
}

/// `bytes` with the byte at `at` (an index into them) xor-ed with `xor`, and
/// what was changed (offset, byte before and after).
fn flipped(bytes: &[u8], at: Index, xor: u8) -> (Vec<u8>, String) {
    let mut out = bytes.to_vec();
    let i = at.index(bytes.len());
    out[i] ^= xor;
    let what = format!("byte {i} flipped from {:?} to {:?}", bytes[i] as char, out[i] as char);
    (out, what)
}

/// The first `keep` (an index into them) of `bytes`, and what was changed.
fn truncated(bytes: &[u8], keep: Index) -> (Vec<u8>, String) {
    let n = keep.index(bytes.len());
    (bytes[..n].to_vec(), format!("truncated to {n} of {} bytes", bytes.len()))
}

/// Asserts equal lists of records, naming the first that differs.
fn same_records(what: &str, read: &[String], original: &[String]) -> Result<(), TestCaseError> {
    if let Some(k) = (0..read.len().max(original.len())).find(|&k| read.get(k) != original.get(k)) {
        prop_assert!(
            false,
            "{what}: {} records read, {} written; the first that differs: read {:?}, written {:?}",
            read.len(),
            original.len(),
            read.get(k),
            original.get(k)
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// A truncated checkpoint (a run killed while writing, or a file cut
    /// short) resumes to the identical result: whole lines are kept, the rest
    /// evaluated again.
    #[test]
    fn a_truncated_checkpoint_resumes_to_the_original_result(keep in any::<Index>()) {
        resume_from(truncated(&unit_run_files().checkpoint, keep))?;
    }

    /// A truncated shard file is not a shard file, even if only its final
    /// line break was cut: its closing line is then a line cut off, not read.
    #[test]
    fn a_truncated_shard_file_is_refused(keep in any::<Index>()) {
        let original = &unit_run_files().shard;
        let (bytes, what) = truncated(original, keep);
        prop_assert!(bytes.len() < original.len(), "{}", what);
        prop_assert!(read_shard_bytes(&bytes).is_err(), "{}", what);
    }

    /// Whatever a flipped byte does to a checkpoint or a shard file, resuming
    /// and merging end with a result or an error, never a panic (the
    /// properties below check that the result is the original one).
    #[test]
    fn a_flipped_byte_in_a_checkpoint_or_shard_file_never_panics(at in any::<Index>(), xor in 1u8..=255) {
        let files = unit_run_files();
        let mm = Mastermind::new(3, 4, false).unwrap();
        let (bytes, _) = flipped(&files.checkpoint, at, xor);
        let path = case_path("flipped.jsonl");
        std::fs::write(&path, &bytes).unwrap();
        let resumed = run_shard(&mm, unit_run_strategy(), 2, Shard { index: 0, count: 1 }, Some(&path));
        let _ = std::fs::remove_file(&path);
        if let Ok(resumed) = resumed {
            let _ = merge(&[resumed]);
        }
        let (bytes, _) = flipped(&files.shard, at, xor);
        if let Ok(shard) = read_shard_bytes(&bytes) {
            let _ = merge(&[shard]);
        }
    }

    /// A flipped byte that leaves a checkpoint record valid JSON is refused
    /// (its CRC-32 or its consistency checks fail) or changes nothing. Before
    /// d17a697 it resumed as another value without a word: `"weight"` →
    /// `"veight"` (the weight defaulted to 1) or a depth count `"0"` → `"1"`;
    /// with the program, `merge` then gave 22244/3 or 22478/3 for 44479/6.
    #[test]
    fn a_flipped_byte_in_a_checkpoint_is_refused_or_harmless(at in any::<Index>(), xor in 1u8..=255) {
        resume_from(flipped(&unit_run_files().checkpoint, at, xor))?;
    }

    /// A flipped byte that leaves a shard file valid JSON is refused or
    /// changes nothing. Before d17a697 it merged to another value: `"penalised"`
    /// → `"qenalised"` dropped the split; a weight 1/2 → 1/3 gave 22160/3 for
    /// 44479/6.
    #[test]
    fn a_flipped_byte_in_a_shard_file_is_refused_or_harmless(at in any::<Index>(), xor in 1u8..=255) {
        merge_from(flipped(&unit_run_files().shard, at, xor))?;
    }
}

/// A finished curve unit run of MM(4,4) under LEX cut at 1 level: the run
/// file's bytes, its records as read, and the curve.
struct CurveRunFiles {
    bytes: Vec<u8>,
    records: Vec<String>,
    curve: Vec<String>,
}

fn full_domain() -> Domain {
    Domain::closed(Point::zero(), Point::infinity())
}

/// Every segment of a curve: its span, exact total and first queries.
fn fingerprint(c: &Curve) -> Vec<String> {
    let span = |s: &Span| match s {
        Span::At(p) => format!("at {p}"),
        Span::Open(a, b) => format!("({a}, {b})"),
    };
    c.segments.iter().map(|s| format!("{} {} {:?}", span(&s.span), s.total(), s.first_queries)).collect()
}

/// The game of the curve run: MM(4,4) (smaller games are not cut into units).
fn curve_game() -> Mastermind {
    Mastermind::new(4, 4, false).unwrap()
}

fn run_curve(path: &Path) -> renyi_search::error::Result<CurveUnits> {
    let mm = curve_game();
    let run = CurveUnitRun {
        levels: 1,
        split_above: None,
        shard: Shard { index: 0, count: 1 },
        checkpoint: path,
        with: &[],
        known_only: false,
        units: None,
        by_codes: false,
    };
    run_curve_units(&mm, lex(), &full_domain(), &run, &renyi_search::progress::Progress::none())
}

/// The records of a curve run file as text (their exact content).
fn curve_records(path: &Path) -> renyi_search::error::Result<Option<Vec<String>>> {
    Ok(renyi_search::curve::run::unit_file::read_run_file(path)?
        .map(|(_, records)| records.iter().map(|r| serde_json::to_string(r).unwrap()).collect()))
}

fn curve_run_files() -> &'static CurveRunFiles {
    static FILES: std::sync::OnceLock<CurveRunFiles> = std::sync::OnceLock::new();
    FILES.get_or_init(|| {
        let mm = curve_game();
        let whole = fingerprint(&curve(&mm, lex(), &full_domain(), None));
        let path = case_path("original.units");
        let CurveUnits::Complete { curve, .. } = run_curve(&path).unwrap() else { panic!("one shard completes") };
        assert_eq!(fingerprint(&curve), whole);
        let bytes = std::fs::read(&path).unwrap();
        let records = curve_records(&path).unwrap().unwrap();
        assert!(records.len() > 3, "{} units", records.len());
        let _ = std::fs::remove_file(&path);
        CurveRunFiles { bytes, records, curve: whole }
    })
}

/// Reads and resumes a curve run file holding `bytes`: reading gives an error
/// or a prefix of the original records (a last line cut off by a kill is
/// dropped), and resuming gives an error or the original curve.
fn curve_from((bytes, what): (Vec<u8>, String)) -> Result<(), TestCaseError> {
    let files = curve_run_files();
    let path = case_path("damaged.units");
    std::fs::write(&path, &bytes).unwrap();
    if let Ok(Some(records)) = curve_records(&path) {
        prop_assert!(records.len() <= files.records.len(), "{}", what);
        same_records(&what, &records, &files.records[..records.len()])?;
    }
    let resumed = run_curve(&path);
    let _ = std::fs::remove_file(&path);
    match resumed {
        Ok(CurveUnits::Complete { curve, .. }) => prop_assert_eq!(fingerprint(&curve), files.curve.clone(), "{}", what),
        Ok(CurveUnits::Incomplete { known, units, .. }) => {
            prop_assert!(false, "{what}: one shard of one left {known} of {units} units known")
        }
        Err(_) => {}
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_flipped_byte_in_a_curve_run_file_is_refused_or_harmless(at in any::<Index>(), xor in 1u8..=255) {
        curve_from(flipped(&curve_run_files().bytes, at, xor))?;
    }

    #[test]
    fn a_truncated_curve_run_file_is_refused_or_harmless(keep in any::<Index>()) {
        curve_from(truncated(&curve_run_files().bytes, keep))?;
    }
}
