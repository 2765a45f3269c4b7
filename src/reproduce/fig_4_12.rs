//! Thesis Fig. 4.12, Beams(6c,6p): the exact E(α) from the overviews that
//! its work-unit curve runs write when they merge
//! (`scripts/curve-6c6p.sh`: `<results>/runs/curves/beams-6c6p/<rule>-<from>-<to>.overview.json`,
//! docs/curves-6c6p.md). The thesis drew the figure from a grid (Δα = 0.1, zoom
//! 0.02) at about 3000 CPU-hours (../shared/reference/seed002-ch4.md, Fig. 4.12 cost note). The
//! curve has millions of pieces, so the figure draws, per 1/1000 of the
//! range, the least and the greatest mean of the pieces there, with the
//! exact values on the grid as dots; the section checks the grid values at
//! α = 0, 1, 2, ∞ against the committed `analyze` runs of Table 4.10
//! (two independent computations) and the thesis.

use super::beams_runs::{FULL_ROWS, full_run_total};
use super::templates;
use crate::curve::run::overview::{Bin, GridValue};
use crate::error::Result;
use crate::games::beams::rule::BeamsRule;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, layout};
use crate::plot::{Chart, Marker, Step, StepSeries};
use crate::renyi::alpha::Alpha;
use crate::search::outcome::{Exact, exact_string, parse_exact};
use serde::Deserialize;
use std::path::Path;

/// What this section reads of an overview ([`crate::curve::run::overview::Overview`]).
#[derive(Deserialize)]
struct OverviewFile {
    game: String,
    domain: String,
    #[serde(with = "crate::curve::run::overview::alpha_display")]
    grid_step: Alpha,
    pieces: usize,
    intervals: usize,
    uncertified: u64,
    best_total: String,
    best_mean: f64,
    best: Vec<serde_json::Value>,
    grid: Vec<GridValue>,
    bins: Vec<Bin>,
}

/// "α = x" or "α in (a, b)" of a row of the overview's best pieces.
fn place(row: &serde_json::Value) -> String {
    let text = |k: &str| row.get(k).and_then(|v| v.as_str()).unwrap_or("?").to_string();
    if row.get("kind").and_then(|v| v.as_str()) == Some("point") {
        format!("α = {}", text("lo_text"))
    } else {
        format!("α in ({}, {})", text("lo_text"), text("hi_text"))
    }
}

/// Writes `figures/fig-4.12-beams-6c6p-<run>.svg` for every merged run and
/// returns the markdown section of `tables/curves.md`.
pub fn section(dir: &Path) -> Result<String> {
    let runs = layout::runs(dir, "curves/beams-6c6p");
    let mut stems: Vec<String> = std::fs::read_dir(&runs)
        .map(|d| {
            d.filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".overview.json").map(String::from)).collect()
        })
        .unwrap_or_default();
    stems.sort();
    let mut md = String::from("\n## Beams(6c,6p), Fig. 4.12: the exact curve from its work-unit runs\n\n");
    if stems.is_empty() {
        md += "No Beams(6c,6p) curve run has merged yet; a run in progress keeps its finished units under `runs/curves/beams-6c6p/` (docs/curves-6c6p.md, Status).\n";
        return Ok(md);
    }
    md += templates::FIG_4_12_OVERVIEWS;
    let mut by_rule: Vec<(Option<BeamsRule>, Vec<OverviewFile>)> = Vec::new();
    for stem in &stems {
        let path = runs.join(format!("{stem}.overview.json"));
        let text = std::fs::read_to_string(&path)
            .map_err(|e| crate::error::Error::Io { path: path.display().to_string(), source: e })?;
        let o: OverviewFile = serde_json::from_str(&text)
            .map_err(|e| crate::error::invalid(format!("{}: not an overview ({e})", path.display())))?;
        let rule = BeamsRule::of_run_name(stem);
        let label = rule.map_or("?", |r| r.label());
        let best: Vec<String> = o.best.iter().take(3).map(place).collect();
        md += &format!(
            "### {} on {}\n\n{} pieces ({} intervals), {} uncertified events (expected 0; docs/curves.md). Best total {} (mean {:.6}) on {}{}.\n\n",
            o.game,
            o.domain,
            o.pieces,
            o.intervals,
            o.uncertified,
            o.best_total,
            o.best_mean,
            best.join("; "),
            if o.best.len() > 3 { format!(" … ({} pieces)", o.best.len()) } else { String::new() }
        );
        md += &grid_table(dir, &o.grid, rule)?;
        let chart = chart(std::slice::from_ref(&o), label);
        crate::plot::write_svg(&chart, &layout::figure(dir, &format!("fig-4.12-beams-6c6p-{stem}.svg")))?;
        match by_rule.iter_mut().find(|(r, _)| *r == rule) {
            Some((_, runs)) => runs.push(o),
            None => by_rule.push((rule, vec![o])),
        }
    }
    for (rule, mut runs) in by_rule.into_iter().filter(|(_, runs)| runs.len() > 1) {
        let (slug, label) = rule.map_or(("unknown", "?"), |r| (r.slug(), r.label()));
        let start = |o: &OverviewFile| o.bins.first().map_or(f64::INFINITY, |b| b.lo);
        runs.sort_by(|a, b| start(a).total_cmp(&start(b)));
        let name = format!("fig-4.12-beams-6c6p-{slug}.svg");
        crate::plot::write_svg(&chart(&runs, label), &layout::figure(dir, &name))?;
        md += &format!("{label}, all {} merged runs together: `figures/{name}`.", runs.len());
        md += &least_over(&runs)?;
        md += "\n\n";
    }
    Ok(md)
}

/// " Least total over them: …": the least of the runs' exact best totals,
/// with every run attaining it and the first of its best pieces (the rest
/// are in the run's own line above).
fn least_over(runs: &[OverviewFile]) -> Result<String> {
    let totals = runs
        .iter()
        .map(|o| {
            parse_exact(&o.best_total).ok_or_else(|| {
                crate::error::invalid(format!("overview on {}: best total {:?}", o.domain, o.best_total))
            })
        })
        .collect::<Result<Vec<Exact>>>()?;
    let Some(least) = totals.iter().min() else { return Ok(String::new()) };
    let at: Vec<&OverviewFile> = runs.iter().zip(&totals).filter(|(_, t)| *t == least).map(|(o, _)| o).collect();
    let places: Vec<String> =
        at.iter().map(|o| format!("{} ({})", o.domain, o.best.first().map(place).unwrap_or_default())).collect();
    Ok(format!(
        " Least total over them: {} (mean {:.6}), in the run on {}.",
        exact_string(least),
        at[0].best_mean,
        places.join(" and in the run on ")
    ))
}

/// The grid values at multiples of 0.1 (the thesis' grid), with the
/// committed `analyze` run and the thesis' Table 4.10 value where there is one.
fn grid_table(dir: &Path, grid: &[GridValue], rule: Option<BeamsRule>) -> Result<String> {
    let mut table = MarkdownTable::new([
        ("α", Right),
        ("total", Right),
        ("mean", Right),
        ("max depth", Right),
        ("first query", Left),
        ("analyze run (exact)", Left),
        ("thesis (Table 4.10)", Right),
    ]);
    for g in grid {
        let tenths = match g.alpha {
            Alpha::Finite { den, .. } => 10 % den == 0,
            Alpha::Infinity => true,
        };
        let alpha = g.alpha.to_string();
        if !tenths {
            continue;
        }
        let run = match rule {
            Some(r) => full_run_total(dir, &alpha, r)?,
            None => None,
        };
        let analyze = run.map_or(String::new(), |t| {
            let t = exact_string(&t);
            if t == g.total { format!("= {t}") } else { format!("≠ {t}") }
        });
        let thesis = FULL_ROWS
            .iter()
            .find(|(a, c, _)| *a == alpha && Some(*c) == rule)
            .map_or(String::new(), |(_, _, t)| t.to_string());
        table.row([
            alpha,
            g.total.clone(),
            format!("{:.6}", g.mean),
            g.max_depth.to_string(),
            g.first_queries.join(" "),
            analyze,
            thesis,
        ]);
    }
    Ok(table.to_string() + "\n")
}

/// The figure of one overview, or of several runs of one tie rule in the
/// order of α: the band of least and greatest means per bin, the exact grid
/// values as dots, the thesis' values as crosses.
fn chart(runs: &[OverviewFile], label: &str) -> Chart {
    let bins = || runs.iter().flat_map(|o| &o.bins);
    let band = |least: bool| {
        bins()
            .filter(|b| b.pieces > 0)
            .map(|b: &Bin| Step { lo: b.lo, hi: b.hi, y: if least { b.least_mean } else { b.greatest_mean } })
            .collect()
    };
    let x_range = match (bins().next(), bins().last()) {
        (Some(a), Some(b)) if a.lo < b.hi => (a.lo, b.hi),
        _ => (0.0, 1.0),
    };
    let points =
        runs.iter().flat_map(|o| &o.grid).map(|g| (g.alpha.to_f64(), g.mean)).filter(|(x, _)| x.is_finite()).collect();
    let markers = FULL_ROWS
        .iter()
        .filter(|(_, c, _)| c.label() == label)
        .filter_map(|(a, _, t)| Some((a.parse::<f64>().ok()?, t.parse::<f64>().ok()?)))
        .filter(|(x, _)| *x >= x_range.0 && *x <= x_range.1)
        .map(|(x, y)| Marker { x, y, label: "thesis".into() })
        .collect();
    let domains: Vec<&str> = runs.iter().map(|o| o.domain.as_str()).collect();
    let mut grid_steps: Vec<String> = runs.iter().map(|o| o.grid_step.to_string()).collect();
    grid_steps.dedup();
    let pieces: usize = runs.iter().map(|o| o.pieces).sum();
    Chart {
        title: format!("Beams(6c,6p): exact E(α) of H_α, {label}, α in {} (Fig. 4.12)", domains.join(" + ")),
        x_label: "α".into(),
        y_label: "mean number of queries".into(),
        x_range,
        y_range: None,
        series: vec![
            StepSeries { label: "bin minimum".into(), steps: band(true), points },
            StepSeries { label: "bin maximum".into(), steps: band(false), points: Vec::new() },
        ],
        markers,
        tail_note: Some(format!(
            "{pieces} pieces; bins of 1/1000 of {}; dots: exact values every {}",
            if runs.len() > 1 { "each run's range" } else { "the range" },
            grid_steps.join(", ")
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::report::CurveReport;
    use crate::curve::run::overview::{Overview, grid};
    use crate::curve::{Domain, Point, curve};
    use crate::games::mastermind::Mastermind;
    use crate::output::Provenance;
    use crate::search::TieRule;

    #[test]
    fn a_merged_run_gets_its_figure_and_grid_table() {
        let dir = std::env::temp_dir().join(format!("rs-fig412-{}", std::process::id()));
        assert!(section(&dir).unwrap().contains("No Beams(6c,6p) curve run has merged yet"));
        // Any overview will do for the section's mechanics: MM(3,4) on [0, ∞].
        let mm = Mastermind::new(3, 4, false).unwrap();
        let c = curve(&mm, TieRule::lex(), &Domain::closed(Point::zero(), Point::infinity()), None);
        let report = CurveReport::view(&c, Provenance::new("test", std::time::SystemTime::now(), 0.0));
        let step = "1/100".parse().unwrap();
        let o = Overview::of(&report, &c, step, &grid(&c, step, 1000).unwrap(), 50);
        crate::output::write_json(&layout::runs(&dir, "curves/beams-6c6p").join("lex-c-0-inf.overview.json"), &o)
            .unwrap();
        let md = section(&dir).unwrap();
        assert!(
            md.contains("9 pieces (4 intervals), 0 uncertified events (expected 0; docs/curves.md). Best total 208"),
            "{md}"
        );
        // The header, then the thesis' grid: 0, 0.1, …, 2.6 (the last
        // breakpoint is 2.61…), then ∞.
        assert_eq!(md.lines().filter(|l| l.starts_with("| ")).count(), 1 + 27 + 1, "{md}");
        assert!(md.contains("| inf |"));
        let svg = std::fs::read_to_string(layout::figure(&dir, "fig-4.12-beams-6c6p-lex-c-0-inf.svg")).unwrap();
        assert!(svg.contains("LEX-c"));
        assert!(!md.contains("merged runs together"), "{md}");
        // Two runs of one rule on adjacent ranges get a figure of both too.
        std::fs::remove_file(layout::runs(&dir, "curves/beams-6c6p").join("lex-c-0-inf.overview.json")).unwrap();
        let one = Point::exact("1".parse().unwrap());
        for (name, lo, hi) in [("lex-c-1-inf", one.clone(), Point::infinity()), ("lex-c-0-1", Point::zero(), one)] {
            let c = curve(&mm, TieRule::lex(), &Domain::closed(lo, hi), None);
            let report = CurveReport::view(&c, Provenance::new("test", std::time::SystemTime::now(), 0.0));
            let o = Overview::of(&report, &c, step, &grid(&c, step, 1000).unwrap(), 50);
            let path = layout::runs(&dir, "curves/beams-6c6p").join(format!("{name}.overview.json"));
            crate::output::write_json(&path, &o).unwrap();
        }
        let md = section(&dir).unwrap();
        assert!(md.contains("LEX-c, all 2 merged runs together: `figures/fig-4.12-beams-6c6p-lex-c.svg`"), "{md}");
        // MM(3,4) LEX is least (208, as on [0, ∞] above) in both runs: at α = 0 and from α = 1.
        assert!(
            md.contains(
                " Least total over them: 208 (mean 3.250000), in the run on [0, 1] (α = 0) and in the run on [1, inf] (α = 1)."
            ),
            "{md}"
        );
        let svg = std::fs::read_to_string(layout::figure(&dir, "fig-4.12-beams-6c6p-lex-c.svg")).unwrap();
        assert!(svg.contains("α in [0, 1] + [1, inf]"), "{svg}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
