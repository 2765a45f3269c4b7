//! `renyi-search curve …`: the exact expected search length as a function of α.

use super::common_args::Tie;
use super::curve_args::{CurveArgs, CurveGame, OVERVIEW_BINS, OVERVIEW_GRID_MAX, unit_options, warn_if_grid_cut};
use super::curve_stream::{merge_in_slices, print_incomplete, say_merged};
use super::emit::command_line;
use super::outcome_text::recheck_verdict;
use super::progress::{CallbackBar, progress_if};
use renyi_search::curve::report::{CurveReport, Row, Rows, describe};
use renyi_search::curve::run::overview::{Overview, grid};
use renyi_search::curve::run::recheck::recheck_curve_units;
use renyi_search::curve::run::unit_list::{shard_unit_domains, write_unit_list};
use renyi_search::curve::run::units::{CurveUnitRun, CurveUnits, list_unit_domains, run_curve_units, run_id};
use renyi_search::curve::{Curve, Domain, curve};
use renyi_search::error::{Result, invalid};
use renyi_search::games::beams::Variant;
use renyi_search::games::beams::patterns::load_or_build;
use renyi_search::models::SizeModel;
use renyi_search::models::curve::model_curve;
use renyi_search::models::free::FreeSearch;
use renyi_search::models::wurzel::Wurzel;
use renyi_search::output::work_units::Pick;
use renyi_search::output::{Provenance, all_or_none, write_atomic_with, write_json};
use renyi_search::progress::Progress;
use renyi_search::search::{SearchProblem, TieRule};
use std::time::SystemTime;

/// The curve of a search problem on `domain` (`out` checked), in one
/// process or by work units, written and printed; nothing is written while
/// units of other shards are missing (what is known is printed).
fn search_curve<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    out: &CurveArgs,
    callback_bar: &CallbackBar,
    started: SystemTime,
) -> Result<()> {
    let bar = &callback_bar.bar;
    let Some((cut, shard, checkpoint)) = unit_options(out)? else {
        let progress_fn = |k: usize, n: usize| callback_bar.update(k as u64, n as u64);
        return emit_search_curve(&curve(problem, tie, domain, Some(&progress_fn)), callback_bar, out, started);
    };
    if out.list_units && (out.shard.is_some() || out.deal.is_some()) {
        if out.units.is_some() {
            return Err(invalid(
                "--list-units --shard lists one shard's units; the unit list (--units) holds the whole run",
            ));
        }
        let units = shard_unit_domains(problem, tie, domain, cut, shard)?;
        let codes: u64 = units.iter().map(|u| u.codes).sum();
        println!("{} units of shard {}/{}, {codes} codes", units.len(), shard.index, shard.count);
        for u in &units {
            println!("{:>10}  {}", u.codes, u.key);
        }
        return Ok(());
    }
    if out.list_units {
        let units = list_unit_domains(problem, tie, domain, cut)?;
        if let Some(path) = &out.units {
            write_unit_list(path, &run_id(problem, tie, domain, cut, &units), &units)?;
        }
        let codes: u64 = units.iter().map(|u| u.codes).sum();
        println!("{} units, {codes} codes", units.len());
        for (i, u) in units.iter().enumerate() {
            println!("{i:>6} {:>10}  {}", u.codes, u.key);
        }
        return Ok(());
    }
    // Hours of work: phases with ETA on a terminal, dated lines in a log.
    bar.finish_and_clear();
    let progress = progress_if(out.progress);
    let run = CurveUnitRun {
        levels: cut.levels,
        split_above: cut.split_above,
        shard,
        checkpoint: &checkpoint,
        with: &out.with,
        known_only: out.diagnostic_merge_known,
        units: out.units.as_deref(),
        by_codes: out.deal.is_some(),
    };
    if let Some(count) = out.recheck {
        if out.shard.is_some() && out.deal.is_none() {
            return Err(invalid("--recheck --shard: only a shard dealt by codes (--deal codes) is rechecked by shard"));
        }
        recheck_units(problem, tie, domain, &run, Pick::Sample { count, seed: out.seed }, &progress)?;
        return Ok(());
    }
    if let Some(slices) = out.merge_slices {
        merge_in_slices(problem, tie, domain, &run, slices, out, started, &progress)?;
        return Ok(());
    }
    match run_curve_units(problem, tie, domain, &run, &progress)? {
        CurveUnits::Complete { curve, units, evaluated, missing } => {
            say_merged(units, evaluated, missing, "merged");
            emit_search_curve(&curve, callback_bar, out, started)
        }
        CurveUnits::Incomplete { units, known, unit_codes, known_codes, evaluated, unseen_shards } => {
            print_incomplete((units, known, unit_codes, known_codes, evaluated, unseen_shards), out);
            Ok(())
        }
    }
}

/// `curve … --recheck N`: units of the run's files computed again, one line each.
fn recheck_units<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    pick: Pick<String>,
    progress: &Progress,
) -> Result<()> {
    let (recorded, rechecked) = recheck_curve_units(problem, tie, domain, run, &pick, progress, |check| {
        let verdict = recheck_verdict(check.agrees, "", &check.differences);
        let (r, seconds) = (&check.recorded, check.seconds);
        println!(
            "unit {:?} ({}): {} codes, {} spans, {verdict} ({seconds:.1} s)",
            r.key,
            check.file,
            r.codes,
            r.kept.steps.len()
        );
    })?;
    println!("{rechecked} of {recorded} recorded units computed again: all agree exactly");
    Ok(())
}

/// Runs `curve …`, then says on stderr why, if anything could not be certified.
pub(super) fn run(game: CurveGame) -> Result<()> {
    let result = run_game(game);
    let kinds = renyi_search::curve::uncertified_by_kind();
    if !kinds.is_empty() {
        let text: Vec<String> = kinds.iter().map(|(k, n)| format!("{} {n}", k.describe())).collect();
        eprintln!("uncertified events in this process: {}", text.join(", "));
    }
    result
}

fn run_game(game: CurveGame) -> Result<()> {
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
    let (report, out) = match &game {
        CurveGame::Mastermind { variant, ties, out } => {
            let domain = out.domain()?;
            return search_curve(&variant.build()?, ties.rule(), &domain, out, &callback_bar, started);
        }
        CurveGame::BullsAndCows { variant, ties, out } => {
            let domain = out.domain()?;
            return search_curve(&variant.build()?, ties.rule(), &domain, out, &callback_bar, started);
        }
        CurveGame::Beams { variant, tie, codes, out } => {
            let domain = out.domain()?;
            let v: Variant = variant.parse()?;
            if (v.colours, v.piece_size) == (6, 6) && out.levels.is_none() {
                return Err(invalid(
                    "curve beams 6c6p: the whole curve needs a work-unit run (days of CPU): add --levels 2 --checkpoint FILE",
                ));
            }
            let (patterns, _) = load_or_build(v, Some(codes))?;
            let g = tie.game(patterns)?;
            super::memory_guard::guard_memory(format!("the curve of {v}"));
            return search_curve(&g, tie.tie_rule(), &domain, out, &callback_bar, started);
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

/// Writes and prints the curve of a search problem.
fn emit_search_curve(c: &Curve, callback_bar: &CallbackBar, out: &CurveArgs, started: SystemTime) -> Result<()> {
    callback_bar.bar.finish_and_clear();
    emit_curve(c, Provenance::new(command_line(), started, c.seconds), out)
}

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
    let kind = tie.kind();
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
