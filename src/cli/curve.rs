//! `renyi-search curve …`: the exact expected search length as a function of α.

use super::progress::CallbackBar;
use clap::{Args, Subcommand, ValueEnum};
use renyi_search::renyi::alpha::Alpha;
use renyi_search::curve::run::overview::{Overview, grid};
use renyi_search::curve::report::{CurveReport, Row, Rows, describe};
use renyi_search::curve::run::units::{CurveUnitRun, CurveUnits, list_units, run_curve_units};
use renyi_search::curve::{Curve, Domain, Point, curve};
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::models::SizeModel;
use renyi_search::models::curve::model_curve;
use renyi_search::models::free::FreeSearch;
use renyi_search::models::wurzel::Wurzel;
use renyi_search::output::{Provenance, all_or_none, write_atomic_with, write_json};
use renyi_search::search::units::Shard;
use renyi_search::search::{TieBreak, TieRule};
use std::path::PathBuf;
use std::time::SystemTime;

#[derive(Subcommand)]
pub enum CurveGame {
    /// Mastermind MM(p,c).
    Mastermind {
        #[command(flatten)]
        variant: super::MastermindVariant,
        #[command(flatten)]
        ties: super::TieArgs,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Bulls and Cows: D distinct digits of N.
    BullsAndCows {
        #[command(flatten)]
        variant: super::BullsAndCowsVariant,
        #[command(flatten)]
        ties: super::TieArgs,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Beams (3c6p, 6c3p; 6c6p needs a work-unit run).
    Beams {
        variant: String,
        /// lex-c, lex-d, mix or mix-reduced (as in `analyze beams`).
        #[arg(long, default_value = "lex-c", value_parser = super::beams_rule())]
        tie: BeamsRule,
        /// Cache directory for pattern tables.
        #[arg(long, default_value = "codes")]
        codes: PathBuf,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Free search problem of query width a, at one set size.
    Free {
        #[arg(long, default_value_t = 2)]
        width: u64,
        #[arg(long, default_value_t = 1000)]
        size: u64,
        #[arg(long, value_enum, default_value_t = Tie::Lex)]
        tie: Tie,
        #[command(flatten)]
        out: CurveArgs,
    },
    /// Wurzel model (budget ⌈√|C|⌉), at one set size.
    Wurzel {
        #[arg(long, default_value_t = 1000)]
        size: u64,
        #[arg(long, value_enum, default_value_t = Tie::Lex)]
        tie: Tie,
        #[command(flatten)]
        out: CurveArgs,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Tie {
    Lex,
    Mix,
}

#[derive(Args)]
pub struct CurveArgs {
    /// Lower end of the α-range (included): a number ≥ 0, a fraction, or inf.
    #[arg(long, default_value = "0", allow_hyphen_values = true)]
    from: String,
    /// Upper end of the α-range (included); default ∞.
    #[arg(long, default_value = "inf", allow_hyphen_values = true)]
    to: String,
    /// Write one CSV row per interval and per point to this file.
    #[arg(long)]
    pub(super) csv: Option<PathBuf>,
    /// Write the curve as JSON (with provenance) to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write an overview as JSON to this file: the best α, the exact values on
    /// the --grid, and the least and greatest mean per 1/1000 of the α-range
    /// (for curves of millions of pieces, whose full CSV is gigabytes).
    #[arg(long)]
    pub(super) overview: Option<PathBuf>,
    /// The overview's grid of α: every multiple of this step in the range.
    #[arg(long, default_value = "1/100")]
    grid: String,
    /// Print every piece even when there are many.
    #[arg(long)]
    all: bool,
    /// Show progress: a bar on a terminal, dated lines with ETA in a log.
    #[arg(long)]
    progress: bool,
    /// Work-unit run: cut the walk this many queries below the root (1 or 2);
    /// needs --checkpoint.
    #[arg(long)]
    levels: Option<usize>,
    /// Work-unit run: this process's run file (resumed if present, appended to).
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// Work-unit run: evaluate only units with number ≡ i mod N.
    #[arg(long)]
    shard: Option<String>,
    /// Work-unit run: run files of other shards to merge with (read only).
    #[arg(long = "with")]
    with: Vec<PathBuf>,
    /// Work-unit run: list the units (key and codes) and stop.
    #[arg(long)]
    list_units: bool,
    /// Work-unit run: merge in this many slices of α of equal width (needs a
    /// finite --to), writing the pieces as each slice is done: the merge then
    /// holds one slice, not the whole curve. Writes --csv and --overview, not --json.
    #[arg(long)]
    merge_slices: Option<usize>,
    /// Diagnostic for a unit run: evaluate nothing, merge the known units
    /// with every missing unit counted as zero. NOT the curve: measures what
    /// the merge will need before the run ends.
    #[arg(long, hide = true)]
    diagnostic_merge_known: bool,
}

impl CurveArgs {
    /// What the run reads (its checkpoint, the other shards' run files) and
    /// writes (--csv, --json, --overview), for `files::check_files`.
    pub(super) fn files(&self) -> (super::files::Named<'_>, super::files::Named<'_>) {
        let mut inputs: super::files::Named<'_> =
            self.checkpoint.as_deref().map(|p| ("--checkpoint", p)).into_iter().collect();
        inputs.extend(self.with.iter().map(|p| ("--with", p.as_path())));
        let outputs = [("--csv", &self.csv), ("--json", &self.json), ("--overview", &self.overview)];
        (inputs, outputs.into_iter().filter_map(|(flag, p)| Some((flag, p.as_deref()?))).collect())
    }

    /// The overview's grid step: a positive finite rational.
    pub(super) fn grid_step(&self) -> Result<Alpha> {
        match self.grid.parse::<Alpha>() {
            Ok(step @ Alpha::Finite { num, .. }) if num > 0 => Ok(step),
            _ => Err(invalid(format!("--grid {}: give a positive step such as 1/100 or 0.05", self.grid))),
        }
    }

    /// The α-range, after checking every option that does not need the curve
    /// (so that a bad one is refused before hours of work, not after).
    fn domain(&self) -> Result<Domain> {
        self.grid_step()?;
        if self.diagnostic_merge_known && self.overview.is_some() {
            return Err(invalid(
                "--diagnostic-merge-known does not give the curve: --overview would look like one; use --csv/--json",
            ));
        }
        let (from, to): (Alpha, Alpha) = (self.from.parse()?, self.to.parse()?);
        let (lo, hi) = (Point::exact(from), Point::exact(to));
        if lo.order(&hi) == std::cmp::Ordering::Greater {
            return Err(invalid(format!("--from {from} --to {to}: the α-range is empty (from must not exceed to)")));
        }
        let domain = Domain::closed(lo, hi);
        if let Some(k) = self.merge_slices {
            if self.levels.is_none() {
                return Err(invalid(
                    "--merge-slices belongs to a unit run (Mastermind, Beams): add --levels L --checkpoint FILE",
                ));
            }
            if self.all {
                return Err(invalid("--merge-slices writes the pieces to --csv; --all would print millions of lines"));
            }
            if self.json.is_some() {
                return Err(invalid(
                    "--merge-slices writes the curve as it goes: --json is not written; use --csv and --overview",
                ));
            }
            super::curve_stream::cuts(&domain, k)?;
        }
        Ok(domain)
    }
}

/// The work-unit options, checked: `Some((levels, shard, checkpoint))` for a unit run.
fn unit_options(out: &CurveArgs) -> Result<Option<(usize, Shard, PathBuf)>> {
    let unit_flags = out.shard.is_some() || !out.with.is_empty() || out.list_units;
    match (out.levels, &out.checkpoint) {
        (None, None) if unit_flags => {
            Err(invalid("--shard, --with and --list-units belong to a unit run: add --levels L"))
        }
        (None, None) => Ok(None),
        (Some(levels), _) if !(1..=2).contains(&levels) => {
            Err(invalid(format!("--levels {levels}: a unit run cuts the curve 1 or 2 queries below the root")))
        }
        (Some(levels), Some(file)) => {
            let shard: Shard = out.shard.as_deref().unwrap_or("0/1").parse()?;
            Ok(Some((levels, shard, file.clone())))
        }
        (Some(levels), None) if out.list_units => Ok(Some((levels, Shard { index: 0, count: 1 }, PathBuf::new()))),
        (Some(_), None) => Err(invalid("--levels starts a unit run: give its run file with --checkpoint FILE")),
        (None, Some(_)) => Err(invalid("--checkpoint belongs to a unit run: add --levels L (1 or 2)")),
    }
}

/// The curve in one process, or by work units; `None` when units of other
/// shards are still missing (what is known is printed).
fn whole_or_units<P: renyi_search::search::SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    out: &CurveArgs,
    callback_bar: &CallbackBar,
    started: SystemTime,
) -> Result<Option<Curve>> {
    let bar = &callback_bar.bar;
    let Some((levels, shard, checkpoint)) = unit_options(out)? else {
        let progress_fn = |k: usize, n: usize| callback_bar.update(k as u64, n as u64);
        return Ok(Some(curve(problem, tie, domain, Some(&progress_fn))));
    };
    if out.list_units {
        let units = list_units(problem, tie, domain, levels)?;
        let codes: u64 = units.iter().map(|u| u.1).sum();
        println!("{} units, {codes} codes", units.len());
        for (i, (key, n)) in units.iter().enumerate() {
            println!("{i:>6} {n:>10}  {key}");
        }
        return Ok(None);
    }
    // Hours of work: phases with ETA on a terminal, dated lines in a log.
    bar.finish_and_clear();
    let progress = super::progress::progress_if(out.progress);
    let run = CurveUnitRun {
        levels,
        shard,
        checkpoint: &checkpoint,
        with: &out.with,
        known_only: out.diagnostic_merge_known,
    };
    if let Some(slices) = out.merge_slices {
        super::curve_stream::merge_in_slices(problem, tie, domain, &run, slices, out, started, &progress)?;
        return Ok(None);
    }
    match run_curve_units(problem, tie, domain, &run, &progress)? {
        CurveUnits::Complete { curve, units, evaluated, missing } => {
            say_merged(units, evaluated, missing, "merged");
            Ok(Some(curve))
        }
        CurveUnits::Incomplete { units, known, unit_codes, known_codes, evaluated } => {
            print_incomplete(units, known, unit_codes, known_codes, evaluated, out);
            Ok(None)
        }
    }
}

/// What a unit run that has merged says (`how`: "merged", "merged in K slices").
pub(super) fn say_merged(units: u64, evaluated: u64, missing: u64, how: &str) {
    if missing > 0 {
        eprintln!("DIAGNOSTIC: {missing} of {units} units missing, counted as zero: this is not the curve");
    } else {
        eprintln!("all {units} units known ({evaluated} evaluated by this process); {how}");
    }
}

/// What a unit run that cannot merge yet says.
pub(super) fn print_incomplete(
    units: u64,
    known: u64,
    unit_codes: u64,
    known_codes: u64,
    evaluated: u64,
    out: &CurveArgs,
) {
    println!(
        "{known} of {units} units known ({known_codes} of {unit_codes} codes; {evaluated} evaluated by this process); \
         run the other shards, then again with --with their files to merge"
    );
    if out.json.is_some() || out.csv.is_some() || out.overview.is_some() {
        eprintln!("not merged yet: --json/--csv/--overview not written (units of other shards are missing)");
    }
}

pub(super) fn command_line() -> String {
    std::env::args().skip(1).collect::<Vec<_>>().join(" ")
}

/// Runs `curve …`.
pub fn run(game: CurveGame) -> Result<()> {
    let started = SystemTime::now();
    // A bar over the runs of root pieces with the same first queries, or
    // over the units of a unit run (with ETA); drawn only on a terminal.
    let flag = match &game {
        CurveGame::Mastermind { out, .. }
        | CurveGame::BullsAndCows { out, .. }
        | CurveGame::Beams { out, .. }
        | CurveGame::Free { out, .. }
        | CurveGame::Wurzel { out, .. } => out.progress,
    };
    let callback_bar = CallbackBar::new(flag);
    let bar = &callback_bar.bar;
    bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} root pieces {pos}/{len} [{elapsed_precise}, ETA {eta}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let provenance = |seconds: f64| Provenance::new(command_line(), started, seconds);
    let (report, out) = match &game {
        CurveGame::Mastermind { variant, ties, out } => {
            let domain = out.domain()?;
            let mm = variant.build()?;
            let tie = ties.rule();
            let Some(c) = whole_or_units(&mm, tie, &domain, out, &callback_bar, started)? else { return Ok(()) };
            bar.finish_and_clear();
            return emit_curve(&c, provenance(c.seconds), out);
        }
        CurveGame::BullsAndCows { variant, ties, out } => {
            let domain = out.domain()?;
            let game = variant.build()?;
            let tie = ties.rule();
            let Some(c) = whole_or_units(&game, tie, &domain, out, &callback_bar, started)? else { return Ok(()) };
            bar.finish_and_clear();
            return emit_curve(&c, provenance(c.seconds), out);
        }
        CurveGame::Beams { variant, tie, codes, out } => {
            let domain = out.domain()?;
            let column = *tie;
            let v: Variant = variant.parse()?;
            if (v.colours, v.piece_size) == (6, 6) && out.levels.is_none() {
                return Err(invalid(
                    "curve beams 6c6p: the whole curve needs a work-unit run (days of CPU): add --levels 2 --checkpoint FILE",
                ));
            }
            let (patterns, _) = load_or_build(v, Some(codes))?;
            let g = column.game(patterns)?;
            super::memory_guard::guard_memory(format!("the curve of {v}"));
            let Some(c) = whole_or_units(&g, column.tie_rule(), &domain, out, &callback_bar, started)? else {
                return Ok(());
            };
            bar.finish_and_clear();
            return emit_curve(&c, provenance(c.seconds), out);
        }
        CurveGame::Free { width, size, tie, out } => {
            no_units(out)?;
            (model_report(&FreeSearch::new(*width)?, *size, *tie, out, started, &callback_bar)?, out)
        }
        CurveGame::Wurzel { size, tie, out } => {
            no_units(out)?;
            (model_report(&Wurzel, *size, *tie, out, started, &callback_bar)?, out)
        }
    };
    bar.finish_and_clear();
    emit(&report, out)
}

/// Number of bins of an overview.
pub(super) const OVERVIEW_BINS: usize = 1000;
/// Most grid points of an overview.
pub(super) const OVERVIEW_GRID_MAX: usize = 100_000;

/// Writes a search-problem curve's --csv, --json and --overview (`--grid`
/// was checked before the curve was computed; all renamed into place once
/// all were written), then prints its summary.
fn emit_curve(c: &Curve, provenance: Provenance, out: &CurveArgs) -> Result<()> {
    let report = CurveReport::view(c, provenance);
    all_or_none(|| {
        write_files(&report, out)?;
        if let Some(path) = &out.overview {
            let step = out.grid_step()?;
            let alphas = grid(c, step, OVERVIEW_GRID_MAX).unwrap_or_default();
            warn_if_grid_cut(out, &alphas);
            write_json(path, &Overview::of(&report, c, step, &alphas, OVERVIEW_BINS))?;
        }
        Ok(())
    })?;
    // Printed last: a reader that stops early (`| head`) ends the process.
    print_report(&report, out);
    Ok(())
}

/// Says so if the overview's grid was cut at [`OVERVIEW_GRID_MAX`] points.
pub(super) fn warn_if_grid_cut(out: &CurveArgs, alphas: &[Alpha]) {
    if alphas.len() == OVERVIEW_GRID_MAX {
        eprintln!(
            "--grid {}: the overview holds the first {OVERVIEW_GRID_MAX} grid points only (up to α = {})",
            out.grid,
            alphas.last().map(|a| a.to_string()).unwrap_or_default()
        );
    }
}

/// Size-model curves take seconds: unit-run flags are refused.
fn no_units(out: &CurveArgs) -> Result<()> {
    if unit_options(out)?.is_some() {
        return Err(invalid("free and wurzel curves take seconds: --levels/--checkpoint are for Mastermind and Beams"));
    }
    if out.overview.is_some() {
        return Err(invalid(
            "free and wurzel curves are small: --overview is for Mastermind and Beams (use --csv/--json)",
        ));
    }
    Ok(())
}

/// Largest set size a model curve is computed for (T(n) for every n below it).
const MODEL_SIZE_MAX: u64 = 20_000;

fn model_report<M: SizeModel>(
    model: &M,
    size: u64,
    tie: Tie,
    out: &CurveArgs,
    started: SystemTime,
    callback_bar: &CallbackBar,
) -> Result<CurveReport> {
    let domain = out.domain()?;
    if !(2..=MODEL_SIZE_MAX).contains(&size) {
        return Err(invalid(format!("--size {size}: give a set size from 2 to {MODEL_SIZE_MAX}")));
    }
    let kind = if matches!(tie, Tie::Lex) { TieBreak::Lex } else { TieBreak::Mix };
    let clock = std::time::Instant::now();
    callback_bar.bar.set_style(
        indicatif::ProgressStyle::with_template("{spinner} set sizes {pos}/{len} [{elapsed_precise}, ETA {eta}]")
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
    );
    let progress_fn = |k: u64, n: u64| callback_bar.update(k, n);
    let c = model_curve(model, kind, size, &domain, Some(&progress_fn))?;
    Ok(c.report(Provenance::new(command_line(), started, clock.elapsed().as_secs_f64())))
}

/// Writes the report's files (streamed: a curve's rows are made as they are
/// written) and prints its summary and, unless there are many, its pieces.
fn emit<S: Rows>(report: &CurveReport<S>, out: &CurveArgs) -> Result<()> {
    write_files(report, out)?;
    print_report(report, out);
    Ok(())
}

/// Writes the report's --csv and --json (streamed: rows made as written),
/// both renamed into place once both were written.
fn write_files<S: Rows>(report: &CurveReport<S>, out: &CurveArgs) -> Result<()> {
    all_or_none(|| {
        if let Some(path) = &out.csv {
            write_atomic_with(path, |w| report.write_csv(w))?;
        }
        if let Some(path) = &out.json {
            write_json(path, report)?;
        }
        Ok(())
    })
}

/// Prints the report's summary and, unless there are many, its pieces.
fn print_report<S: Rows>(report: &CurveReport<S>, out: &CurveArgs) {
    for line in report.summary() {
        println!("{line}");
    }
    let many = report.segments.count() > 120 && !out.all;
    if many {
        println!("  {} pieces: use --all to print them, or --csv/--json", report.segments.count());
        return;
    }
    for i in 0..report.segments.count() {
        println!("{}", piece_line(&report.segments.row(i)));
    }
}

fn piece_line(r: &Row) -> String {
    let depth = r.max_depth.map(|d| format!("  depth {d}")).unwrap_or_default();
    let firsts = if r.first_queries.len() > 4 {
        format!("{} … ({} tied)", r.first_queries[..4].join(" "), r.first_queries.len())
    } else {
        r.first_queries.join(" ")
    };
    format!("  {:<66} total {:<14} mean {:.6}{depth}  {firsts}", describe(r), r.total, r.mean)
}
