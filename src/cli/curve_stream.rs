//! `curve … --merge-slices K`: a unit run's merge walked in K slices of α,
//! its pieces written as each slice is done (CSV rows, the overview, the
//! summary), so that a curve of 10⁷ pieces is never held whole.

use super::curve_args::{CurveArgs, OVERVIEW_BINS, OVERVIEW_GRID_MAX, cuts, warn_if_grid_cut};
use super::emit::command_line;
use renyi_search::curve::report::{segment_row, write_csv_head, write_csv_row};
use renyi_search::curve::run::overview::{OverviewBuilder, OverviewHead, grid_to};
use renyi_search::curve::run::units::{CurveUnitRun, CurveUnits, run_curve_units_in_slices};
use renyi_search::curve::walk::domain_text;
use renyi_search::curve::{Domain, Segment};
use renyi_search::error::Result;
use renyi_search::output::spool::Spool;
use renyi_search::output::{Provenance, write_json};
use renyi_search::progress::Progress;
use renyi_search::search::{SearchProblem, TieRule};
use std::time::SystemTime;

/// The sliced merge and its outputs (if units are still missing, what is
/// known is printed instead).
#[allow(clippy::too_many_arguments)]
pub(super) fn merge_in_slices<P: SearchProblem>(
    problem: &P,
    tie: TieRule,
    domain: &Domain,
    run: &CurveUnitRun,
    slices: usize,
    out: &CurveArgs,
    started: SystemTime,
    progress: &Progress,
) -> Result<()> {
    let cuts = cuts(domain, slices)?;
    let step = out.grid_step()?;
    let alphas = grid_to(domain, domain.hi.enclosure().hi, step, OVERVIEW_GRID_MAX).unwrap_or_default();
    warn_if_grid_cut(out, &alphas);
    let codes = problem.code_count() as u64;
    let mut overview = OverviewBuilder::new(
        codes,
        step,
        alphas,
        Some((domain.lo.enclosure().lo, domain.hi.enclosure().hi)),
        OVERVIEW_BINS,
    );
    // Made at the first piece: a process that only evaluates units makes none.
    // The CSV's rows wait in a spool: the CSV is written whole at the end.
    let mut rows: Option<Spool> = None;
    let mut sink = |s: &Segment| -> Result<()> {
        if let Some(csv) = &out.csv {
            if rows.is_none() {
                rows = Some(Spool::create(csv)?);
            }
            if let Some(rows) = &mut rows {
                rows.write(|w| write_csv_row(w, &segment_row(s, codes)))?;
            }
        }
        overview.add(s);
        Ok(())
    };
    let merged = run_curve_units_in_slices(problem, tie, domain, run, &cuts, progress, &mut sink);
    let (merge, units, evaluated, missing) = match merged? {
        CurveUnits::Complete { curve, units, evaluated, missing } => (curve, units, evaluated, missing),
        CurveUnits::Incomplete { units, known, unit_codes, known_codes, evaluated, unseen_shards } => {
            print_incomplete((units, known, unit_codes, known_codes, evaluated, unseen_shards), out);
            return Ok(());
        }
    };
    say_merged(units, evaluated, missing, &format!("merged in {slices} slices"));
    let head = OverviewHead {
        provenance: Provenance::new(command_line(), started, merge.seconds),
        game: problem.name(),
        tie_rule: tie,
        domain: domain_text(domain),
        nodes_evaluated: merge.nodes_evaluated,
        uncertified: merge.uncertified,
    };
    let o = renyi_search::output::all_or_none(|| {
        if let (Some(rows), Some(path)) = (rows, &out.csv) {
            rows.finish(path, write_csv_head)?;
        }
        let o = overview.finish(head);
        if let Some(path) = &out.overview {
            write_json(path, &o)?;
        }
        Ok(o)
    })?;
    for line in o.summary() {
        println!("{line}");
    }
    println!("  {} pieces in {} slices: written to --csv (rows) and --overview", o.pieces, merge.slices);
    Ok(())
}

/// What a unit run that has merged says (`how`: "merged", "merged in K slices").
pub(super) fn say_merged(units: u64, evaluated: u64, missing: u64, how: &str) {
    if missing > 0 {
        eprintln!("DIAGNOSTIC: {missing} of {units} units missing, counted as zero: this is not the curve");
    } else {
        eprintln!("all {units} units known ({evaluated} evaluated by this process); {how}");
    }
}

/// What a unit run that cannot merge yet says: units, known, unit codes,
/// known codes, evaluated, shards of a run dealt by codes that no file was given of.
pub(super) fn print_incomplete(
    (units, known, unit_codes, known_codes, evaluated, unseen): (u64, u64, u64, u64, u64, u64),
    out: &CurveArgs,
) {
    let unseen = match unseen {
        0 => String::new(),
        n => format!(", and {n} shards of which no file was given"),
    };
    println!(
        "{known} of {units} units known ({known_codes} of {unit_codes} codes{unseen}; {evaluated} evaluated by this \
         process); run the other shards, then again with --with their files to merge"
    );
    if out.json.is_some() || out.csv.is_some() || out.overview.is_some() {
        eprintln!("not merged yet: --json/--csv/--overview not written (units of other shards are missing)");
    }
}
