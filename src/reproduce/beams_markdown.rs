//! The markdown of the Beams work-unit runs: the work-unit section of
//! `tables/table-4.10.md` and the whole of `tables/table-4.10-6c6p.md`.

use super::beams_runs::{FULL_ROWS, FullCell, FullCells, MONTE_CARLO_FILE, MonteCarloCheck};
use super::templates::{self, fill};
use crate::error::Result;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, Provenance, write_table};
use serde::Serialize;
use std::path::Path;

/// The rules of the Beams game as the reproduced tables state them.
pub const RULES: &str = "hexagonal board without centre; each colour one connected piece; query (colour, diagonal), \
answer = set of hit cells; each diagonal once; stop at one code or when no query splits M; penalty = wrong cells of \
the best code laid (min over x in M of the summed Hamming distance); offered colours = asked + lowest unasked; \
numbering: cells by (r,q), diagonals r=k, q=k, s=k for k=-(n-1)..n-1";

/// The two MIX columns.
/// The MIX tie rule, as the tables state it.
pub const MIX_RULES: &str = "MIX = uniform over all tied (colour, diagonal) queries (exact, by weighting the new colour with the number of unasked colours). \
MIX (reduced list) = uniform over the tied queries among asked colours + one new colour";

/// The thesis' 2σ error bound of its Monte-Carlo cells (../shared/reference/seed002-ch4.md §3.4).
const THESIS_MONTE_CARLO_BOUND: f64 = 0.05;

/// The section of the work-unit cells: ours against the thesis' Monte-Carlo
/// estimate and its 2σ bound.
pub(super) fn work_unit_markdown(cells: &[(&str, FullCell)]) -> String {
    let bound = THESIS_MONTE_CARLO_BOUND.to_string();
    let s = format!("\n{}", fill(templates::BEAMS_WORK_UNITS, &[("bound", &bound)]));
    if cells.is_empty() {
        return s + "No finished run.\n";
    }
    let mut table = MarkdownTable::new([
        ("variant", Left),
        ("α", Left),
        ("rule", Left),
        ("total (exact)", Right),
        ("mean (ours)", Right),
        ("thesis (Monte-Carlo)", Right),
        ("within ±0.05", Left),
        ("penalty total", Right),
        ("codes paying p points", Left),
        ("max depth", Right),
        ("units", Right),
        ("wall s (all sessions)", Right),
        ("peak GiB", Right),
    ]);
    for (variant, c) in cells {
        let (ours, thesis) = (&c.mean_vs_thesis.ours, c.mean_vs_thesis.published);
        let near = (ours.parse().unwrap_or(f64::NAN) - thesis.parse::<f64>().unwrap_or(f64::NAN)).abs()
            <= THESIS_MONTE_CARLO_BOUND;
        table.row([
            variant.to_string(),
            c.alpha.replace("inf", "∞"),
            c.column.to_string(),
            c.total.clone(),
            ours.clone(),
            format!("≈ {thesis}*"),
            (if near { "yes" } else { "no" }).to_string(),
            c.penalty_total.clone(),
            c.split_text(),
            c.max_depth().to_string(),
            c.units.to_string(),
            c.sessions_wall_text(),
            c.peak_gib_text(),
        ]);
    }
    s + &table.to_string()
}

/// "2: 501, 3: 26" — codes by penalty points paid (exact strings by p), or "none".
pub(super) fn penalty_split_text(by_points: &[String]) -> String {
    let parts: Vec<String> =
        by_points.iter().enumerate().filter(|(p, n)| *p > 0 && *n != "0").map(|(p, n)| format!("{p}: {n}")).collect();
    if parts.is_empty() { "none".to_string() } else { parts.join(", ") }
}

pub(super) fn full_markdown(cells: &[FullCell], monte_carlo: Option<&MonteCarloCheck>, p: &Provenance) -> String {
    let mut s = String::from("# Thesis Table 4.10 — Beams(6c,6p), exact over all 3 048 812 640 codes\n\n");
    s += &format!("{}.\n\n", p.produced_by(" in this session"));
    s += &format!("Rules: {RULES}.\n\n{MIX_RULES}.\n\n");
    let mut table = MarkdownTable::new([
        ("α", Left),
        ("rule", Left),
        ("total (exact)", Right),
        ("mean (ours)", Right),
        ("mean (thesis)", Right),
        ("", Left),
        ("penalty total", Right),
        ("codes paying p points", Left),
        ("max depth", Right),
        ("wall s", Right),
        ("from scratch", Left),
        ("all sessions wall s", Right),
        ("unit thread-s", Right),
        ("peak GiB", Right),
    ]);
    for c in cells {
        table.row([
            c.alpha.replace("inf", "∞"),
            c.column.to_string(),
            c.total.clone(),
            c.mean_vs_thesis.ours.clone(),
            c.mean_vs_thesis.published.to_string(),
            c.mean_vs_thesis.mark().to_string(),
            c.penalty_total.clone(),
            c.split_text(),
            c.max_depth().to_string(),
            format!("{:.0}", c.seconds),
            c.resumed_units.map_or("?", |r| if r == 0 { "yes" } else { "no" }).to_string(),
            c.sessions_wall_text(),
            format!("{:.0}", c.unit_thread_seconds),
            c.peak_gib_text(),
        ]);
    }
    s += &table.to_string();
    let missing: Vec<String> = FULL_ROWS
        .iter()
        .filter(|(a, col, _)| !cells.iter().any(|c| c.alpha == *a && c.column == col.label()))
        .map(|(a, col, t)| format!("H_{} {} (thesis {t})", a.replace("inf", "∞"), col.label()))
        .collect();
    if !missing.is_empty() {
        s += &format!(
            "\nNot computed yet (run `reproduce table-4.10 --full`; runs are resumable): {}.\n",
            missing.join(", ")
        );
    }
    if let Some(m) = monte_carlo {
        s += &format!(
            "\nMonte-Carlo check (thesis §4.4.5; `{}`, file `{MONTE_CARLO_FILE}`): {} games, mean {:.4}, 2σ interval [{:.4}, {:.4}]; the exact H_1 MIX mean {} lies {} it.\n",
            m.command,
            m.games,
            m.mean,
            m.interval.0,
            m.interval.1,
            m.exact_mean,
            if m.inside { "inside" } else { "OUTSIDE" }
        );
    }
    s += "\n";
    s += templates::BEAMS_RUN_TIME;
    s
}

impl FullCell {
    /// The deepest depth any code reaches.
    fn max_depth(&self) -> usize {
        self.depth_histogram.iter().rposition(|n| n != "0").unwrap_or(0)
    }

    /// Codes by penalty points, or "not recorded".
    fn split_text(&self) -> String {
        self.penalised.as_deref().map_or_else(|| "not recorded by this version".to_string(), penalty_split_text)
    }

    /// Wall seconds over all sessions, or "?".
    fn sessions_wall_text(&self) -> String {
        self.sessions_wall_seconds.map_or_else(|| "?".to_string(), |w| format!("{w:.0}"))
    }

    /// Peak memory in GiB, or "?".
    fn peak_gib_text(&self) -> String {
        self.peak_memory_bytes.map_or_else(|| "?".to_string(), |b| format!("{:.1}", b as f64 / (1u64 << 30) as f64))
    }
}

/// Writes `table-4.10-6c6p.md/.json` from the Beams(6c,6p) cells. The cells
/// are read from finished work-unit runs in both modes (`--full` first runs the
/// missing ones), so the provenance names the same command either way and the
/// two modes write the same bytes (issue 52).
pub fn write_full_table(dir: &Path, full: &FullCells) -> Result<()> {
    let FullCells { cells, monte_carlo, seconds } = full;
    let provenance = Provenance::stable("reproduce table-4.10 (finished 6c6p runs only)", *seconds);
    #[derive(Serialize)]
    struct FullReport<'a> {
        table: &'static str,
        provenance: Provenance,
        rules: &'static str,
        cells: &'a [FullCell],
        monte_carlo: Option<&'a MonteCarloCheck>,
    }
    let report = FullReport {
        table: "Thesis Table 4.10, Beams(6c,6p) (exact, all 3 048 812 640 codes)",
        provenance: provenance.clone(),
        rules: RULES,
        cells,
        monte_carlo: monte_carlo.as_ref(),
    };
    write_table(dir, "table-4.10-6c6p", &report, &full_markdown(cells, monte_carlo.as_ref(), &provenance))
}
