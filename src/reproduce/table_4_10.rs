//! Thesis Table 4.10: H_α strategies on Beams(3c,6p) and Beams(6c,3p) under
//! LEX-c, LEX-d and MIX, with the rules documented in `games::beams::game`.
//! Each cell shows our exact total and mean, the thesis' mean, and the exact
//! total of the reference prototypes (../shared/reference/beams-conventions.md §1) where known.
//! The 6c6p columns and the long small-variant cells come from resumable
//! work-unit runs ([`super::beams_runs`]).

use super::beams_markdown::{MIX_RULES, RULES, penalty_split_text, work_unit_markdown, write_full_table};
use super::beams_runs::{FullCell, full_cells, work_unit_cells};
use super::templates;
use super::{Comparison, Published};
use crate::error::Result;
use crate::games::beams::Variant;
use crate::games::beams::patterns::load_or_build;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, Provenance, write_table};
use crate::progress::Progress;
use crate::search::outcome::{Exact, exact_string};
use crate::search::{Analysis, RunOptions, Strategy, TieRule, analyze};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::Path;
use std::str::FromStr;
use std::time::Instant;

/// The strategy columns of the table are the Beams tie rules.
pub use crate::games::beams::rule::BeamsRule;

/// (variant, α, column, thesis mean, prototype total)
type Row = (&'static str, &'static str, BeamsRule, &'static str, Option<&'static str>);

use BeamsRule::{LexC, LexD, Mix, MixReduced};

/// The cells computed by `reproduce table-4.10`.
pub const ROWS: [Row; 30] = [
    ("3c6p", "0", LexC, "4.0392", Some("7449")),
    ("3c6p", "0", LexD, "4.0328", Some("7447")),
    ("3c6p", "0", Mix, "4.0460", Some("275668321/36960")),
    ("3c6p", "0", MixReduced, "4.0460", Some("275668321/36960")),
    ("3c6p", "1", LexC, "3.9898", Some("7412")),
    ("3c6p", "1", LexD, "3.9919", Some("7412")),
    ("3c6p", "1", Mix, "3.9875", Some("44479/6")),
    ("3c6p", "1", MixReduced, "3.9875", Some("44479/6")),
    ("3c6p", "2", LexC, "4.0043", Some("7468")),
    ("3c6p", "2", LexD, "4.0032", Some("7464")),
    ("3c6p", "2", Mix, "4.0125", Some("7475")),
    ("3c6p", "2", MixReduced, "4.0125", Some("7475")),
    ("3c6p", "inf", LexC, "4.2602", Some("7957")),
    ("3c6p", "inf", LexD, "4.2532", Some("7980")),
    ("3c6p", "inf", Mix, "4.2677", Some("8784304093681/1102701600")),
    ("3c6p", "inf", MixReduced, "4.2677", Some("8784304093681/1102701600")),
    ("6c3p", "0", LexC, "7.8675", Some("1762349")),
    ("6c3p", "0", LexD, "7.8826", Some("1767950")),
    ("6c3p", "1", LexC, "7.6982", Some("1721663")),
    ("6c3p", "1", LexD, "7.6978", Some("1721698")),
    ("6c3p", "1", Mix, "7.6969", None),
    ("6c3p", "1", MixReduced, "7.6969", Some("8863077893/5148")),
    ("6c3p", "2", LexC, "7.8553", Some("1757841")),
    ("6c3p", "2", LexD, "7.8538", Some("1757568")),
    ("6c3p", "2", Mix, "7.8361", None),
    ("6c3p", "2", MixReduced, "7.8361", None),
    ("6c3p", "inf", LexC, "8.3770", Some("1880922")),
    ("6c3p", "inf", LexD, "8.3463", Some("1874274")),
    ("6c3p", "inf", Mix, "8.3026", None),
    ("6c3p", "inf", MixReduced, "8.3026", None),
];

/// A computed cell.
#[derive(Serialize)]
pub struct Cell {
    pub variant: String,
    pub alpha: &'static str,
    pub column: &'static str,
    pub mean_vs_thesis: Comparison,
    /// Our exact total against the prototypes' exact total.
    pub total_vs_prototype: Option<Comparison>,
    pub penalty_total: String,
    #[serde(serialize_with = "super::untimed_analysis")]
    pub analysis: Analysis,
}

/// Computes one cell.
pub fn compute(row: &Row, codes_dir: Option<&Path>, progress: &Progress) -> Result<Cell> {
    let (variant, alpha, column, thesis, prototype) = *row;
    let variant = Variant::from_str(variant)?;
    let (patterns, _) = load_or_build(variant, codes_dir)?;
    let g = column.game(patterns)?;
    let tie = if matches!(column, LexC | LexD) { TieRule::lex() } else { TieRule::mix() };
    let analysis = analyze(&g, Strategy::new(alpha.parse()?, tie), RunOptions::with_progress(progress.clone()));
    let total = analysis.exact_total();
    let mean = &total / Exact::from_integer(BigInt::from(analysis.codes));
    Ok(Cell {
        variant: variant.to_string(),
        alpha,
        column: column.label(),
        mean_vs_thesis: Comparison::new(&mean, Published(thesis), 6),
        total_vs_prototype: prototype.map(|p| Comparison::new(&total, Published(p), 2)),
        penalty_total: analysis.penalty_total.clone(),
        analysis,
    })
}

#[derive(Serialize)]
struct Report<'a> {
    table: &'static str,
    provenance: Provenance,
    rules: &'static str,
    cells: &'a [Cell],
}

/// Computes Table 4.10 (3c6p, 6c3p) and writes `table-4.10.md/.json` into `dir`.
pub fn reproduce(dir: &Path, codes_dir: Option<&Path>, progress: &Progress) -> Result<Vec<Cell>> {
    let clock = Instant::now();
    let mut cells = Vec::new();
    for row in &ROWS {
        let cell = compute(row, codes_dir, progress)?;
        progress.note(&format!(
            "  {} H_{} {:<18} mean {}  thesis {}  total {}{}",
            cell.variant,
            cell.alpha,
            cell.column,
            cell.mean_vs_thesis.ours,
            cell.mean_vs_thesis.published,
            exact_string(&cell.analysis.exact_total()),
            cell.total_vs_prototype.as_ref().map_or(String::new(), |p| format!(
                "  prototype {} {}",
                p.published,
                p.mark()
            ))
        ));
        cells.push(cell);
    }
    let provenance = Provenance::stable("reproduce table-4.10", clock.elapsed().as_secs_f64());
    let report = Report {
        table: "Thesis Table 4.10 (Beams, H_α strategies), 3c6p and 6c3p columns",
        provenance: provenance.clone(),
        rules: RULES,
        cells: &cells,
    };
    let mut text = markdown(&cells, &provenance);
    text += &work_unit_markdown(&work_unit_cells(dir)?);
    write_table(dir, "table-4.10", &report, &text)?;
    Ok(cells)
}

fn markdown(cells: &[Cell], p: &Provenance) -> String {
    let mut s = String::from("# Thesis Table 4.10 — Beams, H_α strategies (3c6p, 6c3p)\n\n");
    s += &format!("{}.\n\n", p.produced_by(""));
    s += &format!("Rules: {RULES}.\n\n");
    s += &format!("{MIX_RULES}, as in the reference prototypes; the two agree on 3c6p, not on 6c3p.\n\n");
    let mut table = MarkdownTable::new([
        ("variant", Left),
        ("α", Left),
        ("rule", Left),
        ("total (ours, exact)", Right),
        ("mean (ours)", Right),
        ("mean (thesis)", Right),
        ("", Left),
        ("prototype total", Right),
        ("", Left),
        ("penalty total", Right),
        ("codes paying p points", Left),
        ("max depth", Right),
    ]);
    for c in cells {
        let (pt, pm) = c.total_vs_prototype.as_ref().map_or(("—", ""), |x| (x.published, x.mark()));
        table.row([
            c.variant.to_string(),
            c.alpha.replace("inf", "∞"),
            c.column.to_string(),
            exact_string(&c.analysis.exact_total()),
            c.mean_vs_thesis.ours.clone(),
            c.mean_vs_thesis.published.to_string(),
            c.mean_vs_thesis.mark().to_string(),
            pt.to_string(),
            pm.to_string(),
            c.penalty_total.to_string(),
            penalty_split_text(&c.analysis.penalty_histogram),
            c.analysis.max_depth.to_string(),
        ]);
    }
    s += &table.to_string();
    let proto = cells.iter().filter_map(|c| c.total_vs_prototype.as_ref()).collect::<Vec<_>>();
    let thesis_equal = cells.iter().filter(|c| c.mean_vs_thesis.equal).count();
    s += &format!(
        "\nPrototype totals reproduced: {} of {}. Thesis means reproduced: {} of {} \
(no rule reading tried so far reproduces Table 4.10; see README and beams-conventions.md).\n",
        proto.iter().filter(|c| c.equal).count(),
        proto.len(),
        thesis_equal,
        cells.len()
    );
    s += templates::TABLE_4_10_NOT_COMPUTED;
    s
}

/// The Beams(6c,6p) columns of Table 4.10 (`table-4.10-6c6p.md/.json`): the
/// cells from their finished work-unit runs (with `run_missing`, the missing
/// runs are run, resumable), written as their table.
pub fn reproduce_6c6p(dir: &Path, codes_dir: &Path, progress: &Progress, run_missing: bool) -> Result<Vec<FullCell>> {
    let full = full_cells(dir, codes_dir, progress, run_missing)?;
    write_full_table(dir, &full)?;
    Ok(full.cells)
}
