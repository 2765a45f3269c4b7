//! Thesis Table 4.5: H_α strategies on Mastermind MM-1296 and MM-360, LEX and
//! MIX, totals over all codes (../shared/reference/seed002-ch4.md §2.4), plus the first-guess
//! crossover α* of the Fig. 4.6 text.

use super::{Comparison, Published};
use crate::error::Result;
use crate::games::mastermind::Mastermind;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, Provenance, write_table};
use crate::progress::Progress;
use crate::renyi::alpha::Alpha;
use crate::renyi::score::RenyiScore;
use crate::search::outcome::Exact;
use crate::search::perfect::solve_perfect;
use crate::search::strategy::best_queries;
use crate::search::{Analysis, Presentation, Rules, RunOptions, Strategy, TieBreak, TieRule, analyze};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// One published cell of Table 4.5.
struct Row {
    distinct: bool,
    alpha: &'static str,
    tie: TieBreak,
    total: Published,
    mean: Published,
    delta_percent: Published,
    note: Option<&'static str>,
}

const fn row(
    distinct: bool,
    alpha: &'static str,
    tie: TieBreak,
    total: &'static str,
    mean: &'static str,
    delta: &'static str,
) -> Row {
    Row {
        distinct,
        alpha,
        tie,
        total: Published(total),
        mean: Published(mean),
        delta_percent: Published(delta),
        note: None,
    }
}

use TieBreak::{Lex, Mix};

/// Table 4.5 as printed (MIX fractions from its footnotes a, b, c).
const ROWS: [Row; 16] = [
    Row {
        note: Some("5668/1296 = 4.373457…: the thesis mean 4.3734 is truncated, not rounded"),
        ..row(false, "0", Lex, "5668", "4.3734", "0.76")
    },
    row(false, "1", Lex, "5722", "4.4151", "1.72"),
    row(false, "2", Lex, "5696", "4.3951", "1.26"),
    row(false, "inf", Lex, "5801", "4.4761", "3.13"),
    row(false, "0", Mix, "5706.96", "4.4035", "1.46"),
    row(false, "1", Mix, "11445/2", "4.4155", "1.73"),
    row(false, "2", Mix, "5256409/924", "4.3895", "1.13"),
    row(false, "inf", Mix, "5791.42", "4.4687", "2.96"),
    row(true, "0", Lex, "1457", "4.0472", "0.76"),
    row(true, "1", Lex, "1450", "4.0278", "0.28"),
    row(true, "2", Lex, "1459", "4.0528", "0.90"),
    row(true, "inf", Lex, "1490", "4.1389", "3.04"),
    row(true, "0", Mix, "1451.80", "4.0328", "0.40"),
    row(true, "1", Mix, "1450", "4.0278", "0.28"),
    row(true, "2", Mix, "4375/3", "4.0509", "0.85"),
    Row {
        note: Some(
            "thesis mean 4.1216 is inconsistent with its own total 1483.67 (= 4.1213 per code): a typo or OCR slip",
        ),
        ..row(true, "inf", Mix, "1483.67", "4.1216", "2.61")
    },
];

/// The tie rule of the table's columns: LEX, or MIX with the root averaged over
/// symmetry classes (the thesis' H_0-MIX convention; for every other cell the
/// root ties form one class, so it changes nothing there).
pub fn table_rule(tie: TieBreak) -> TieRule {
    match tie {
        Lex => TieRule::lex(),
        Mix => TieRule::mix_by_root_class(),
    }
}

/// A computed cell.
#[derive(Serialize)]
pub struct Cell {
    pub variant: String,
    pub strategy: String,
    pub total: Comparison,
    pub mean: Comparison,
    pub delta_percent: Comparison,
    pub note: Option<&'static str>,
    #[serde(serialize_with = "super::untimed_analysis")]
    pub analysis: Analysis,
}

/// The α at which the H_α-LEX first query of MM-1296 changes from ABCD to AABC.
#[derive(Serialize)]
pub struct Crossover {
    pub alpha_star: f64,
    pub below: String,
    pub above: String,
    pub published: &'static str,
    /// The thesis truncates: α* ∈ [1.33789, 1.33790).
    pub consistent: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    table: &'static str,
    provenance: Provenance,
    perfect_used_for_delta: String,
    cells: &'a [Cell],
    first_guess_crossover: &'a Crossover,
}

/// Computes one cell.
fn compute_cell(mm: &Mastermind, r: &Row, perfect_total: u64, progress: &Progress) -> Cell {
    let alpha: Alpha = r.alpha.parse().expect("table α");
    let analysis = analyze(mm, Strategy::new(alpha, table_rule(r.tie)), RunOptions::with_progress(progress.clone()));
    let total = analysis.exact_total();
    let codes = Exact::from_integer(BigInt::from(analysis.codes));
    let perfect = Exact::from_integer(BigInt::from(perfect_total));
    let delta = (&total / &perfect - Exact::from_integer(1.into())) * Exact::from_integer(100.into());
    Cell {
        variant: mm.name(),
        strategy: format!("H_{} {}", r.alpha.replace("inf", "∞"), if r.tie == Lex { "LEX" } else { "MIX" }),
        total: Comparison::new(&total, r.total, 2),
        mean: Comparison::new(&(&total / &codes), r.mean, 4),
        delta_percent: Comparison::new(&delta, r.delta_percent, 2),
        note: r.note,
        analysis,
    }
}

/// Finds α* by bisection on the exact root decision of H_α-LEX on MM-1296.
pub fn first_guess_crossover(mm: &Mastermind) -> Crossover {
    let all: Vec<u32> = (0..mm.code_count() as u32).collect();
    let first = |alpha: Alpha| -> String {
        let ties = best_queries(mm, &RenyiScore::new(alpha), &(), &all);
        mm.query_label(ties[0])
    };
    let den = 1u64 << 40;
    let (mut lo, mut hi) = (den, 2 * den);
    let (below, above) = (first(Alpha::ratio(lo, den).unwrap()), first(Alpha::ratio(hi, den).unwrap()));
    while hi - lo > 1 {
        let mid = (lo + hi) / 2;
        if first(Alpha::ratio(mid, den).unwrap()) == below { lo = mid } else { hi = mid }
    }
    let alpha_star = (lo as f64 + 0.5) / den as f64;
    Crossover { alpha_star, below, above, published: "1.33789", consistent: (1.33789..1.33790).contains(&alpha_star) }
}

/// Computes Table 4.5 and writes `table-4.5.md` and `table-4.5.json` into `dir`.
pub fn reproduce(dir: &Path, progress: &Progress) -> Result<Vec<Cell>> {
    let clock = Instant::now();
    let full = Mastermind::new(4, 6, false)?;
    let junior = Mastermind::new(4, 6, true)?;
    let (perfect_full, perfect_junior) = (solve_perfect(&full).0.total, solve_perfect(&junior).0.total);
    progress.note(&format!(
        "  perfect (branch-and-bound): MM-1296 {perfect_full}, MM-360 {perfect_junior} (thesis 5625, 1446)"
    ));
    let cells: Vec<Cell> = ROWS
        .iter()
        .map(|r| {
            let (mm, perfect) = if r.distinct { (&junior, perfect_junior) } else { (&full, perfect_full) };
            let cell = compute_cell(mm, r, perfect, progress);
            progress.note(&format!(
                "  {:<40} {:<10} {:>12}  thesis {:>12} {}",
                cell.variant,
                cell.strategy,
                cell.total.ours,
                cell.total.published,
                cell.total.mark()
            ));
            cell
        })
        .collect();
    let crossover = first_guess_crossover(&full);
    let provenance = Provenance::stable("reproduce table-4.5", clock.elapsed().as_secs_f64());
    let report = Report {
        table: "Thesis Table 4.5 (Mastermind, H_α strategies)",
        provenance: provenance.clone(),
        perfect_used_for_delta: format!(
            "perfect totals by our branch-and-bound: {perfect_full} (MM-1296), {perfect_junior} (MM-360); published 5625, 1446"
        ),
        cells: &cells,
        first_guess_crossover: &crossover,
    };
    write_table(dir, "table-4.5", &report, &markdown(&cells, &crossover, &provenance))?;
    Ok(cells)
}

fn markdown(cells: &[Cell], crossover: &Crossover, p: &Provenance) -> String {
    let mut s = String::from("# Thesis Table 4.5 — Mastermind, H_α strategies (totals over all codes)\n\n");
    s += &format!("{}.\n\n", p.produced_by(""));
    s += "LEX: first tied query in code order (AAAA < AAAB < …) that is still a possible secret, else the first tied query.\n";
    s += "MIX: exact mean over the tied queries that are possible secrets (else over all tied queries); at the root, uniform over the symmetry classes of the tied first guesses.\n";
    s += "Δ is relative to the perfect totals computed by `perfect` (5625 and 1446, equal to the published ones).\n\n";
    let mut table = MarkdownTable::new([
        ("variant", Left),
        ("strategy", Left),
        ("total (ours)", Right),
        ("exact", Right),
        ("total (thesis)", Right),
        ("", Left),
        ("mean (ours)", Right),
        ("mean (thesis)", Right),
        ("", Left),
        ("Δ % (ours)", Right),
        ("Δ % (thesis)", Right),
        ("", Left),
        ("first query", Left),
        ("max depth", Right),
    ]);
    for c in cells {
        let first = c.analysis.first_queries.first().cloned().unwrap_or_default();
        let more = if c.analysis.first_queries.len() > 1 {
            format!(" (+{} tied)", c.analysis.first_queries.len() - 1)
        } else {
            String::new()
        };
        table.row([
            c.variant.to_string(),
            c.strategy.to_string(),
            c.total.ours.clone(),
            c.total.ours_exact.clone(),
            c.total.published.to_string(),
            c.total.mark().to_string(),
            c.mean.ours.clone(),
            c.mean.published.to_string(),
            c.mean.mark().to_string(),
            c.delta_percent.ours.clone(),
            c.delta_percent.published.to_string(),
            c.delta_percent.mark().to_string(),
            first + &more,
            c.analysis.max_depth.to_string(),
        ]);
    }
    s += &table.to_string();
    let notes: Vec<String> =
        cells.iter().filter_map(|c| c.note.map(|n| format!("- {} {}: {n}", c.variant, c.strategy))).collect();
    if !notes.is_empty() {
        s += &format!("\nNotes:\n{}\n", notes.join("\n"));
    }
    s += &format!(
        "\nFirst-guess crossover on MM-1296 (Fig. 4.6 text, thesis \"α ≳ {}\"): H_α-LEX opens with {} below α* = {:.10} and with {} above ({}).\n",
        crossover.published,
        crossover.below,
        crossover.alpha_star,
        crossover.above,
        if crossover.consistent {
            "consistent with the thesis, which truncates"
        } else {
            "NOT consistent with the thesis"
        }
    );
    s += &format!("\nAll totals equal: {}.\n", cells.iter().all(|c| c.total.equal));
    s
}
