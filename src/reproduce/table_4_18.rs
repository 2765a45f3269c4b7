//! Thesis Table 4.18, Mastermind columns: the best H_α-LEX strategy over α > 0,
//! found by a scan of α on a 0.02 grid (thesis Fig. 4.6). Also writes the scan
//! as CSV for plotting.

use super::{Comparison, Published};
use crate::error::Result;
use crate::games::mastermind::Mastermind;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, Provenance, layout, write_atomic, write_table};
use crate::progress::Progress;
use crate::renyi::alpha::Alpha;
use crate::search::outcome::Exact;
use crate::search::perfect::solve_perfect;
use crate::search::{Analysis, Presentation, Rules, TieRule};
use crate::sweep::{alpha_grid, plateaus, sweep};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::Path;
use std::time::Instant;

/// The α grid of the scan (thesis Fig. 4.6 plots 0 < α ≤ 6).
pub const GRID: &str = "0.02:6:0.02";

/// Result for one Mastermind variant.
#[derive(Serialize)]
pub struct BestRenyi {
    pub variant: String,
    pub best_total: String,
    /// Grid points where the best total is attained.
    pub best_alphas: Vec<Alpha>,
    pub best_mean: Comparison,
    /// (first α, last α, total) runs of the scan.
    pub plateaus: Vec<(Alpha, Alpha, String)>,
    /// Perfect total (branch-and-bound) and Δ = best/perfect − 1 in percent.
    pub perfect_total: Option<u64>,
    pub delta_percent: Option<Comparison>,
}

/// Scans α for one variant and returns the best value and the whole scan.
pub fn best_renyi(mm: &Mastermind, published_mean: &'static str) -> Result<(BestRenyi, Vec<Analysis>)> {
    let points = sweep(mm, &alpha_grid(GRID)?, TieRule::lex());
    let best = points.iter().map(|p| p.exact_total()).min().expect("non-empty grid");
    let best_alphas = points.iter().filter(|p| p.exact_total() == best).map(|p| p.alpha).collect();
    let mean = &best / Exact::from_integer(BigInt::from(mm.code_count()));
    let result = BestRenyi {
        variant: mm.name(),
        best_total: crate::search::outcome::exact_string(&best),
        best_alphas,
        best_mean: Comparison::new(&mean, Published(published_mean), 4),
        plateaus: plateaus(&points),
        perfect_total: None,
        delta_percent: None,
    };
    Ok((result, points))
}

#[derive(Serialize)]
struct Report<'a> {
    table: &'static str,
    provenance: Provenance,
    grid: &'static str,
    tie_rule: &'static str,
    mastermind: &'a [BestRenyi],
    beams: &'static str,
}

/// Writes `table-4.18.md/.json` and the scans `alpha-scan-mm1296.csv`, `alpha-scan-mm360.csv`.
pub fn reproduce(dir: &Path, progress: &Progress) -> Result<Vec<BestRenyi>> {
    let clock = Instant::now();
    let mut rows = Vec::new();
    for (distinct, published, delta, file) in
        [(true, "4.0278", "0.28", "alpha-scan-mm360.csv"), (false, "4.3827", "0.98", "alpha-scan-mm1296.csv")]
    {
        let mm = Mastermind::new(4, 6, distinct)?;
        let (mut best, points) = best_renyi(&mm, published)?;
        let perfect = solve_perfect(&mm).0.total;
        let ratio = Exact::from_integer(BigInt::from(best.best_total.parse::<u64>().unwrap_or(0)))
            / Exact::from_integer(BigInt::from(perfect));
        let percent = (ratio - Exact::from_integer(1.into())) * Exact::from_integer(100.into());
        best.perfect_total = Some(perfect);
        best.delta_percent = Some(Comparison::new(&percent, Published(delta), 2));
        progress.note(&format!(
            "  {:<40} best H_α-LEX {} (mean {}) at α ∈ {:?}; thesis {}",
            best.variant,
            best.best_total,
            best.best_mean.ours,
            best.best_alphas.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
            published
        ));
        write_atomic(&layout::data(dir, file), crate::sweep::sweep_csv(&points)?.as_bytes())?;
        rows.push(best);
    }
    let provenance = Provenance::stable("reproduce table-4.18", clock.elapsed().as_secs_f64());
    let beams = "Beams columns: not computed yet (Beams issues)";
    let report = Report {
        table: "Thesis Table 4.18 (best Rényi strategy), Mastermind columns",
        provenance: provenance.clone(),
        grid: GRID,
        tie_rule: "LEX",
        mastermind: &rows,
        beams,
    };
    write_table(dir, "table-4.18", &report, &markdown(&rows, &provenance, beams))?;
    Ok(rows)
}

fn markdown(rows: &[BestRenyi], p: &Provenance, beams: &str) -> String {
    let mut s = String::from("# Thesis Table 4.18 — best Rényi strategy (Mastermind columns)\n\n");
    s += &format!("{}.\n", p.produced_by(""));
    s += &format!("H_α-LEX for α on the grid {GRID}; the best total over α > 0.\n\n");
    let mut table = MarkdownTable::new([
        ("variant", Left),
        ("best total", Right),
        ("best mean (ours)", Right),
        ("best mean (thesis)", Right),
        ("", Left),
        ("perfect", Right),
        ("Δ % (ours)", Right),
        ("Δ % (thesis)", Right),
        ("", Left),
        ("α where attained", Left),
    ]);
    for r in rows {
        let alphas: Vec<String> = r.best_alphas.iter().map(|a| a.to_string()).collect();
        let (dours, dpub, dmark) = r
            .delta_percent
            .as_ref()
            .map_or(("—".to_string(), "—", ""), |d| (d.ours.clone(), d.published, d.mark()));
        let perfect = r.perfect_total.map_or("—".to_string(), |p| p.to_string());
        table.row([
            r.variant.to_string(),
            r.best_total.to_string(),
            r.best_mean.ours.clone(),
            r.best_mean.published.to_string(),
            r.best_mean.mark().to_string(),
            perfect,
            dours,
            dpub.to_string(),
            dmark.to_string(),
            alphas.join(", "),
        ]);
    }
    s += &table.to_string();
    s += "\nNote: H_0-LEX on MM-1296 (5668, Table 4.5) is lower than the table's best; Table 4.18 ranges over α > 0 only.\n";
    s += &format!("\n{beams}.\n\nα-scans (plateaus of equal totals):\n");
    for r in rows {
        s += &format!("\n{}:\n\n", r.variant);
        let mut table = MarkdownTable::new([("α from", Right), ("α to", Right), ("total", Right)]);
        for (a, b, t) in &r.plateaus {
            table.row([a.to_string(), b.to_string(), t.to_string()]);
        }
        s += &table.to_string();
    }
    s
}
