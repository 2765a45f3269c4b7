//! Beams cells computed by resumable work-unit runs: the Beams(6c,6p)
//! columns of thesis Table 4.10 (`reproduce table-4.10 --full`, 3·10⁹ codes,
//! about an hour per LEX cell on 2 cores) and the small-variant cells too long
//! for `reproduce table-4.10`. Run files (checkpoint, finished run, GNU time
//! output) are kept under `<results>/runs/beams-<variant>/` and committed, so that
//! a later session or another machine continues an interrupted run.

use super::{Comparison, Published};
use crate::error::Result;
use crate::games::beams::Variant;
use crate::games::beams::patterns::{Patterns, load_or_build};
use crate::games::beams::rule::BeamsRule;
use crate::progress::Progress;
use crate::search::Strategy;
use crate::search::outcome::{Exact, exact_string};
use BeamsRule::{LexC, LexD, Mix, MixReduced};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

/// Small-variant cells too long for `reproduce table-4.10` (thesis: Monte-Carlo
/// only), computed by resumable work-unit runs whose files are kept in
/// `<results>/<variant runs dir>/`: (variant, α, column, thesis mean).
pub const WORK_UNIT_ROWS: [(&str, &str, BeamsRule, &str); 2] =
    [("6c3p", "0", MixReduced, "8.080"), ("6c3p", "0", Mix, "8.080")];

/// The directory of a variant's work-unit runs below the results directory.
pub fn runs_dir(results: &Path, variant: &str) -> PathBuf {
    crate::output::layout::runs(results, &format!("beams-{variant}"))
}

/// The file stem of a work-unit run (`.jsonl` checkpoint, `.json` finished
/// run, `.time.txt` GNU time output) in [`runs_dir`].
fn run_name(variant: &str, alpha: &str, column: BeamsRule) -> String {
    format!("beams-{variant}-h{alpha}-{}", column.slug())
}

/// The finished runs of [`WORK_UNIT_ROWS`] in `dir` (missing ones are left out).
pub(super) fn work_unit_cells(dir: &Path) -> Result<Vec<(&'static str, FullCell)>> {
    let mut out = Vec::new();
    for (variant, alpha, column, thesis) in WORK_UNIT_ROWS {
        let runs = runs_dir(dir, variant);
        let name = run_name(variant, alpha, column);
        let strategy = Strategy::new(alpha.parse()?, column.tie_rule());
        let Some(file) = finished_run(
            &runs.join(format!("{name}.json")),
            column.game_name(Variant::from_str(variant)?),
            strategy,
            FULL_LEVELS,
        )?
        else {
            continue;
        };
        let time_txt = std::fs::read_to_string(runs.join(format!("{name}.time.txt"))).ok();
        out.push((variant, full_cell(alpha, column, thesis, &file, time_txt.as_deref())?.0));
    }
    Ok(out)
}

/// The 6c6p cells: (α, column, thesis mean), in the order `--full` runs them
/// (the MIX cells last: each takes several LEX cells' time).
pub const FULL_ROWS: [(&str, BeamsRule, &str); 12] = [
    ("1", LexC, "10.2829"),
    ("1", LexD, "10.2830"),
    ("2", LexC, "10.4646"),
    ("2", LexD, "10.4641"),
    ("0", LexC, "10.6639"),
    ("0", LexD, "10.6729"),
    ("inf", LexC, "10.9718"),
    ("inf", LexD, "10.9530"),
    ("1", Mix, "10.2827"),
    ("2", Mix, "10.4628"),
    ("2", MixReduced, "10.4628"),
    ("1", MixReduced, "10.2827"),
];

/// The Monte-Carlo run (`simulate beams 6c6p --alpha 1 --tie mix --out …`)
/// that the full report checks the exact H_1-MIX mean against, in the results directory.
pub const MONTE_CARLO_FILE: &str = "data/beams-6c6p-montecarlo.json";

/// Thesis §4.4.5: the exact H_1-MIX mean must lie in the 2σ interval of a
/// Monte-Carlo run of the same strategy.
#[derive(Serialize)]
pub struct MonteCarloCheck {
    pub command: String,
    pub games: u64,
    pub mean: f64,
    pub interval: (f64, f64),
    pub exact_mean: String,
    /// Whether the exact mean lies in the interval (compared exactly).
    pub inside: bool,
}

/// The check of `exact_mean` against the H_1-MIX simulation of `game_name`
/// stored in `dir`, if there is one (a file of another game, α or tie rule is ignored).
fn monte_carlo_check(dir: &Path, game_name: &str, exact_mean: &Exact) -> Option<MonteCarloCheck> {
    #[derive(serde::Deserialize)]
    struct SimulationFile {
        provenance: serde_json::Value,
        game: String,
        alpha: String,
        tie: String,
        simulation: crate::search::play::Simulation,
    }
    let text = std::fs::read_to_string(dir.join(MONTE_CARLO_FILE)).ok()?;
    let file: SimulationFile = serde_json::from_str(&text).ok()?;
    if file.game != game_name || file.alpha != "1" || file.tie != "mix" {
        return None;
    }
    let sim = file.simulation;
    let (low, high) = (Exact::from_float(sim.interval.0)?, Exact::from_float(sim.interval.1)?);
    Some(MonteCarloCheck {
        command: file.provenance.get("command").and_then(|c| c.as_str()).unwrap_or("simulate").to_string(),
        games: sim.games,
        mean: sim.mean,
        interval: sim.interval,
        exact_mean: format!("{:.6}", crate::search::outcome::exact_f64(exact_mean)),
        inside: &low <= exact_mean && exact_mean <= &high,
    })
}

/// A full-scale cell, from the merged work units of its run.
#[derive(Serialize)]
pub struct FullCell {
    pub alpha: &'static str,
    pub column: &'static str,
    pub total: String,
    pub mean_vs_thesis: Comparison,
    pub depth_histogram: Vec<String>,
    pub penalty_total: String,
    /// Codes by penalty points paid (index p ≥ 1), exact; `None` if the run's
    /// records come from a version that did not keep the split.
    pub penalised: Option<Vec<String>>,
    /// Wall-clock seconds of the session that finished the run.
    pub seconds: f64,
    /// Seconds the threads spent on the units, over all sessions of the run
    /// (records of versions before this field count 0).
    pub unit_thread_seconds: f64,
    /// Wall seconds over all sessions of the run, each to its last recorded
    /// unit ([`crate::search::units::sessions_wall_seconds`]); `None` when
    /// records of older versions lack their session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sessions_wall_seconds: Option<f64>,
    pub units: u64,
    /// Peak resident memory of the session that finished the run, in bytes:
    /// from the run file, or for runs of older versions from the GNU time
    /// output `<run>.time.txt` next to it; `None` if neither has it.
    pub peak_memory_bytes: Option<u64>,
    /// Units that session took from the checkpoint (0: the run went from
    /// scratch, so `seconds` is a whole cell); `None` for older run files.
    pub resumed_units: Option<u64>,
}

/// The exact total of the finished 6c6p run of H_α with `column` in
/// `<results>/runs/beams-6c6p/`, if there is one (α as its file names it: "1", "2", …);
/// a damaged or mislabelled run file is an error ([`finished_run`]).
pub fn full_run_total(dir: &Path, alpha: &str, column: BeamsRule) -> Result<Option<Exact>> {
    let name = run_name("6c6p", alpha, column);
    let strategy = Strategy::new(alpha.parse()?, column.tie_rule());
    let variant = Variant::from_str("6c6p")?;
    let path = runs_dir(dir, "6c6p").join(format!("{name}.json"));
    let Some(file) = finished_run(&path, column.game_name(variant), strategy, FULL_LEVELS)? else {
        return Ok(None);
    };
    let (_, outcome) = crate::search::units::merge(std::slice::from_ref(&file))?;
    Ok(Some(outcome.total()))
}

/// Peak memory from GNU `time -v` output ("Maximum resident set size (kbytes): N").
fn gnu_time_peak_bytes(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.trim_start().starts_with("Maximum resident set size (kbytes):"))?;
    Some(line.rsplit(':').next()?.trim().parse::<u64>().ok()? * 1024)
}

/// Runs (or resumes, or reuses) every 6c6p LEX cell. Each run keeps its
/// checkpoint and its finished shard file under `<results>/runs/beams-6c6p/`
/// (committed with the results, so that a later session or another machine
/// continues where an interrupted `reproduce table-4.10 --full` stopped).
/// With `run_missing` false only finished runs are reported (the rest is listed as not computed).
/// The Beams(6c,6p) cells of Table 4.10 with the Monte-Carlo check of the
/// H_1 MIX cell, and the seconds they took (for the run log).
pub struct FullCells {
    pub cells: Vec<FullCell>,
    pub monte_carlo: Option<MonteCarloCheck>,
    pub seconds: f64,
}

/// The Beams(6c,6p) cells from their finished runs; with `run_missing`, the
/// runs not finished yet are run (resumable), else left out with a note.
pub fn full_cells(dir: &Path, codes_dir: &Path, progress: &Progress, run_missing: bool) -> Result<FullCells> {
    use crate::search::units::{Shard, UnitRun, run_units, write_shard};
    let clock = Instant::now();
    let runs = runs_dir(dir, "6c6p");
    std::fs::create_dir_all(&runs)
        .map_err(|e| crate::error::Error::Io { path: runs.display().to_string(), source: e })?;
    let variant = Variant::from_str("6c6p")?;
    let mut patterns: Option<Patterns> = None;
    let mut cells = Vec::new();
    let mut monte_carlo = None;
    for (alpha, column, thesis) in FULL_ROWS {
        let name = run_name("6c6p", alpha, column);
        let (done, checkpoint) = (runs.join(format!("{name}.json")), runs.join(format!("{name}.jsonl")));
        let strategy = Strategy::new(alpha.parse()?, column.tie_rule());
        let file = match finished_run(&done, column.game_name(variant), strategy, FULL_LEVELS)? {
            Some(f) => f,
            None if !run_missing => {
                progress.note(&format!("  6c6p H_{alpha} {}: not computed yet", column.label()));
                continue;
            }
            None => {
                progress.note(&format!(
                    "  6c6p H_{alpha} {}: running (resumable; checkpoint {})",
                    column.label(),
                    checkpoint.display()
                ));
                if patterns.is_none() {
                    patterns = Some(load_or_build(variant, Some(codes_dir))?.0);
                }
                let g = column.game(patterns.clone().expect("loaded"))?;
                let run = UnitRun {
                    levels: FULL_LEVELS,
                    shard: Shard { index: 0, count: 1 },
                    checkpoint: Some(&checkpoint),
                    progress: progress.clone(),
                };
                let f = run_units(&g, strategy, &run)?;
                write_shard(&done, &f)?;
                f
            }
        };
        let time_txt = std::fs::read_to_string(runs.join(format!("{name}.time.txt"))).ok();
        let (cell, mean) = full_cell(alpha, column, thesis, &file, time_txt.as_deref())?;
        if (alpha, column) == ("1", Mix) {
            monte_carlo = monte_carlo_check(dir, &column.game_name(variant), &mean);
        }
        progress.note(&format!(
            "  6c6p H_{alpha} {:<6} mean {} thesis {} ({:.0} s)",
            cell.column, cell.mean_vs_thesis.ours, thesis, cell.seconds
        ));
        cells.push(cell);
    }
    Ok(FullCells { cells, monte_carlo, seconds: clock.elapsed().as_secs_f64() })
}

/// Full-scale runs are cut into units two queries below the root (1935 units for H_1).
const FULL_LEVELS: usize = 2;

/// The finished run file at `path`: `None` when there is none. A file that is
/// there but damaged (its checksums, its closing line) or that holds another
/// run than `problem` under `strategy` with `levels` is an error, never
/// skipped: a reader would report the cell as missing, and `--full` would
/// recompute hours of work over it.
fn finished_run(
    path: &Path,
    problem: String,
    strategy: Strategy,
    levels: usize,
) -> Result<Option<crate::search::units::ShardFile>> {
    if !path.exists() {
        return Ok(None);
    }
    let file = crate::search::units::read_shard(path)?;
    // A MIX run of an older version is the same run with a stale penalty
    // split ([`crate::search::units::penalty_split_known`] leaves it out).
    let wanted = crate::search::units::RunHeader::new(problem, strategy, levels);
    if !file.header.same_run_as(&wanted) {
        return Err(crate::error::Error::InvalidInput(format!(
            "{} holds a run of {} at α = {} ({}, levels {}), not the {} at α = {} ({}, levels {}) its name says",
            path.display(),
            file.header.problem,
            file.header.alpha,
            file.header.tie_rule,
            file.header.levels,
            wanted.problem,
            wanted.alpha,
            wanted.tie_rule,
            wanted.levels
        )));
    }
    Ok(Some(file))
}

/// One report row from a finished run (and the GNU time output beside it, for
/// the peak memory of runs by older versions); also returns the exact mean.
fn full_cell(
    alpha: &'static str,
    column: BeamsRule,
    thesis: &'static str,
    file: &crate::search::units::ShardFile,
    time_txt: Option<&str>,
) -> Result<(FullCell, Exact)> {
    use crate::search::units::{merge, penalty_split_known};
    let (_, outcome) = merge(std::slice::from_ref(file))?;
    let total = outcome.total();
    let mean = &total / Exact::from_integer(BigInt::from(file.codes_total));
    let (depth_histogram, penalty_total) = outcome.to_strings();
    let cell = FullCell {
        alpha,
        column: column.label(),
        total: exact_string(&total),
        mean_vs_thesis: Comparison::new(&mean, Published(thesis), 6),
        depth_histogram,
        penalty_total,
        penalised: penalty_split_known(std::slice::from_ref(file)).then(|| outcome.penalised_strings()),
        seconds: file.seconds,
        unit_thread_seconds: file.units.iter().map(|u| u.seconds).sum(),
        sessions_wall_seconds: crate::search::units::sessions_wall_seconds(&file.units),
        units: file.units_total,
        peak_memory_bytes: file.peak_memory_bytes.or_else(|| time_txt.and_then(gnu_time_peak_bytes)),
        resumed_units: file.resumed_units,
    };
    Ok((cell, mean))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::write_json;

    #[test]
    fn committed_runs_give_their_totals() {
        // The checkout under test, read at run time (see tests/common::root).
        let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
        let results = Path::new(&root).join("results");
        let total = |alpha, column| full_run_total(&results, alpha, column).unwrap().map(|t| t.to_string());
        assert_eq!(total("1", BeamsRule::LexC).as_deref(), Some("31350697259"));
        assert_eq!(total("2", BeamsRule::LexD).as_deref(), Some("31902980917"));
        assert_eq!(total("1.5", BeamsRule::LexC), None);
    }

    #[test]
    fn a_damaged_or_mislabelled_run_file_is_refused_not_skipped() {
        let root = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_else(|| env!("CARGO_MANIFEST_DIR").into());
        let committed = runs_dir(&Path::new(&root).join("results"), "6c6p");
        let dir = std::env::temp_dir().join(format!("rs-damaged-run-{}", std::process::id()));
        let runs = runs_dir(&dir, "6c6p");
        std::fs::create_dir_all(&runs).unwrap();
        assert!(full_run_total(&dir, "1", BeamsRule::LexC).unwrap().is_none(), "no file: not computed yet");
        // The H_1 LEX-c run under the H_2 LEX-c name: another run.
        let h1 = std::fs::read(committed.join(format!("{}.json", run_name("6c6p", "1", LexC)))).unwrap();
        std::fs::write(runs.join(format!("{}.json", run_name("6c6p", "2", LexC))), &h1).unwrap();
        let err = full_run_total(&dir, "2", LexC).unwrap_err().to_string();
        assert!(err.contains("holds a run of") && err.contains("α = 1"), "{err}");
        // One flipped digit in a unit line: its checksum fails.
        let mut damaged = h1.clone();
        // The first unit's `"codes":142559280`: its second digit.
        let at = damaged.windows(8).position(|w| w == b"\"codes\":").unwrap() + 9;
        damaged[at] = if damaged[at] == b'1' { b'2' } else { b'1' };
        std::fs::write(runs.join(format!("{}.json", run_name("6c6p", "1", LexC))), &damaged).unwrap();
        assert!(full_run_total(&dir, "1", LexC).is_err());
        assert!(work_unit_cells(&dir).unwrap().is_empty(), "no 6c3p runs there: nothing to report");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// A simulation file as `simulate … --out` writes it (interval 10.25…10.30).
    fn write_simulation(dir: &Path, game: &str, tie: &str) {
        let sim = crate::search::play::Simulation {
            games: 100,
            seed: 7,
            mean: 10.275,
            variance: 1.5,
            interval: (10.25, 10.30),
            queries_histogram: Default::default(),
            penalty_histogram: Default::default(),
            seconds: 1.0,
        };
        let provenance = serde_json::json!({ "command": "simulate beams 6c6p --alpha 1 --tie mix --n 100 --seed 7" });
        let file =
            serde_json::json!({ "provenance": provenance, "game": game, "alpha": "1", "tie": tie, "simulation": sim });
        write_json(&dir.join(MONTE_CARLO_FILE), &file).unwrap();
    }

    #[test]
    fn monte_carlo_check_compares_the_exact_mean_with_the_interval() {
        let dir = std::env::temp_dir().join(format!("rs-mc-{}", std::process::id()));
        let ratio = |n: i64, d: i64| Exact::new(n.into(), d.into());
        let game_name =
            crate::games::beams::game::Beams::problem_name(Variant::from_str("6c6p").unwrap(), Mix.query_order());
        assert!(monte_carlo_check(&dir, &game_name, &ratio(1028, 100)).is_none(), "no file, no check");
        write_simulation(&dir, &game_name, "mix");
        let inside = monte_carlo_check(&dir, &game_name, &ratio(10_282_701, 1_000_000)).unwrap();
        assert!(inside.inside);
        assert_eq!((inside.games, inside.exact_mean.as_str()), (100, "10.282701"));
        assert!(!monte_carlo_check(&dir, &game_name, &ratio(1031, 100)).unwrap().inside);
        assert!(
            monte_carlo_check(&dir, &game_name, &ratio(1025, 100)).unwrap().inside,
            "the interval's ends belong to it"
        );
        write_simulation(&dir, &game_name, "lex-c");
        assert!(
            monte_carlo_check(&dir, &game_name, &ratio(1028, 100)).is_none(),
            "a LEX simulation does not check MIX"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn run_files_are_found_under_their_game_names() {
        use crate::search::Presentation;
        let variant = Variant::from_str("3c6p").unwrap();
        let patterns = crate::games::beams::patterns::enumerate(variant);
        let names: Vec<String> = [LexC, LexD, Mix, MixReduced].iter().map(|&c| c.game_name(variant)).collect();
        for (&column, name) in [LexC, LexD, Mix, MixReduced].iter().zip(&names) {
            assert_eq!(&column.game(patterns.clone()).unwrap().name(), name);
        }
        // Only the two MIX columns share query order and tie rule; their games differ.
        assert_ne!(names[2], names[3]);
        assert_eq!(names[2], "Beams(3c,6p) (LEX-c order)", "the name of older run files");
    }

    #[test]
    fn peak_memory_is_read_from_gnu_time_output() {
        let text = "\tCommand being timed: \"rs analyze\"\n\tElapsed (wall clock) time (h:mm:ss or m:ss): 46:28.56\n\tMaximum resident set size (kbytes): 6675716\n\tExit status: 0\n";
        assert_eq!(gnu_time_peak_bytes(text), Some(6675716 * 1024));
        assert_eq!(gnu_time_peak_bytes("\tExit status: 0\n"), None);
    }
}
