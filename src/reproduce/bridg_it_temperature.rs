//! `reproduce bridg-it`, Fig 5.10 top (thesis 5.4.2, reference note
//! `../shared/reference/seed002-ch1235.md §4.4`, assertion 5.12): Short with
//! temperature T (Def 5.7) against the heuristic Cut, Cut first, as the exact
//! win probability over all games (backward induction in `f64` on the game
//! graph; no sampling).
//!
//! - M = 3: one unit per temperature, every run (5432 positions each).
//! - M = 4: one game graph for all temperatures (`agents::short_win_curve`,
//!   about 3.8 million positions, minutes and about 3 GB), computed by
//!   `--full` into `data/bridg-it-temperature-m4.csv`, sealed in
//!   `runs/sealed/bridg-it.sha256`; the default run checks the seal and plots
//!   the committed file. Both runs plot the values as read back from that
//!   file, so they write the same figure.
//!
//! Why f64 and not rationals: the weights (ΔX/ΔX_max)^{1/T} are irrational for
//! most T (ΔX is rational, 1/T = 1/0.15, 1/0.3 …), so an exact rational value does not
//! exist; the values are every game's probability summed in floats (relative
//! rounding of the order of 10⁻¹³ over games of at most 25 moves), not a sample.

use super::bridg_it_checkpoint::{Scan, TemperatureRow};
use super::sealed::{check_seal, write_seal};
use crate::error::{Result, invalid};
use crate::output::{layout, write_atomic};
use crate::plot::{Chart, Marker, StepSeries, write_svg};
use crate::two_player::connection::bridgit::agents::{Agent, short_win_curve, short_win_probability};
use crate::two_player::connection::bridgit::board::Board;
use std::path::Path;

/// The temperatures of the curves.
pub const TEMPERATURES: [f64; 9] = [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 1.0];
/// The M = 4 curve's file, relative to the results directory (sealed).
pub const M4_FILE: &str = "data/bridg-it-temperature-m4.csv";
/// The graph of the M = 4 curve: 3.8 million positions passed 2 GiB of the estimate for one point.
const M4_MEMORY: u64 = 4 << 30;

/// Where a run takes the M = 4 curve from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CurveSource {
    /// Not at all (small test runs).
    Skip,
    /// The committed, sealed file (default run).
    Replay,
    /// Computed, written and sealed (`--full`).
    Compute,
}

/// The exact curves of `orders`, one unit per (order, temperature).
pub fn temperature_curves(orders: &[usize], scan: &mut Scan) -> Result<Vec<TemperatureRow>> {
    let mut out = Vec::new();
    scan.phase("bridg-it temperature points", orders.len() * TEMPERATURES.len());
    for &m in orders {
        let b = Board::bridgit(m)?;
        for t in TEMPERATURES {
            let row = scan.unit(&format!("temperature M = {m}, T = {t}"), || {
                let (p, states) = short_win_probability(&b, Agent::Heuristic, Agent::Temperature(t), 2 << 30)?;
                Ok(TemperatureRow { order: m, temperature: t, short_wins: p, states })
            })?;
            scan.note(&format!(
                "temperature M = {m}, T = {t}: Short wins {:.6} ({} positions)",
                row.short_wins, row.states
            ));
            out.push(row);
        }
    }
    scan.end_phase();
    Ok(out)
}

/// The M = 4 curve as `source` says (see the module doc), as read from its file.
pub fn m4_curve(dir: &Path, source: CurveSource, scan: &mut Scan) -> Result<Vec<TemperatureRow>> {
    match source {
        CurveSource::Skip => return Ok(Vec::new()),
        CurveSource::Replay => {
            check_seal(dir, "bridg-it", &[M4_FILE.to_string()])?;
        }
        CurveSource::Compute => {
            scan.phase("bridg-it temperature curve M = 4", 1);
            let rows = scan.unit("temperature curve M = 4", || {
                let (p, states) = short_win_curve(&Board::bridgit(4)?, Agent::Heuristic, TEMPERATURES, M4_MEMORY)?;
                let rows = TEMPERATURES.iter().zip(p.0);
                Ok(rows
                    .map(|(&temperature, short_wins)| TemperatureRow { order: 4, temperature, short_wins, states })
                    .collect::<Vec<_>>())
            })?;
            scan.end_phase();
            write_atomic(&dir.join(M4_FILE), csv(&rows).as_bytes())?;
            write_seal(dir, "bridg-it", &[M4_FILE.to_string()])?;
        }
    }
    let path = dir.join(M4_FILE);
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let rows = parse_csv(&text).ok_or_else(|| invalid(format!("{}: not a temperature curve", path.display())))?;
    if let Some(r) = rows.first() {
        scan.note(&format!("temperature curve M = 4 ({} positions): T = 0.1 → {:?}", r.states, at(&rows, 0.1)));
    }
    Ok(rows)
}

/// Short's win probability at temperature `t` in `rows`.
pub fn at(rows: &[TemperatureRow], t: f64) -> Option<f64> {
    rows.iter().find(|r| r.temperature == t).map(|r| r.short_wins)
}

/// The rows as CSV (12 decimals).
pub fn csv(rows: &[TemperatureRow]) -> String {
    let mut csv = String::from("order,temperature,short_wins,states\n");
    for r in rows {
        csv.push_str(&format!("{},{},{:.12},{}\n", r.order, r.temperature, r.short_wins, r.states));
    }
    csv
}

fn parse_csv(text: &str) -> Option<Vec<TemperatureRow>> {
    let mut lines = text.lines();
    (lines.next()? == "order,temperature,short_wins,states").then_some(())?;
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            let [order, temperature, short_wins, states] = f[..] else { return None };
            Some(TemperatureRow {
                order: order.parse().ok()?,
                temperature: temperature.parse().ok()?,
                short_wins: short_wins.parse().ok()?,
                states: states.parse().ok()?,
            })
        })
        .collect()
}

/// The exact temperature curves (Fig 5.10 top): `data/bridg-it-temperature.csv`
/// (the curves every run computes) and `figures/bridg-it-fig-5-10.svg` (those
/// and the M = 4 curve, with the thesis' point).
pub fn write_temperature_outputs(dir: &Path, temperature: &[TemperatureRow], m4: &[TemperatureRow]) -> Result<()> {
    write_atomic(&layout::data(dir, "bridg-it-temperature.csv"), csv(temperature).as_bytes())?;
    let mut series = Vec::new();
    let all: Vec<&TemperatureRow> = temperature.iter().chain(m4).collect();
    for m in all.iter().map(|r| r.order).collect::<std::collections::BTreeSet<_>>() {
        let points = all.iter().filter(|r| r.order == m).map(|r| (r.temperature, r.short_wins)).collect();
        series.push(StepSeries { label: format!("M = {m}, exact"), steps: Vec::new(), points });
    }
    let y_max = all.iter().map(|r| r.short_wins).fold(0.06, f64::max) * 1.1;
    let chart = Chart {
        title: "Short with temperature T vs heuristic Cut: exact win rate (Fig 5.10 top, T_Cut → 0)".into(),
        x_label: "Short's temperature T".into(),
        y_label: "P(Short wins)".into(),
        x_range: (0.0, 1.02),
        y_range: Some((0.0, y_max)),
        series,
        markers: vec![Marker { x: 0.1, y: 0.05, label: "thesis M = 4: ≈ 5 % (1000 games)".into() }],
        tail_note: None,
    };
    write_svg(&chart, &layout::figure(dir, "bridg-it-fig-5-10.svg"))
}
