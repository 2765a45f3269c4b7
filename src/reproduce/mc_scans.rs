//! The k scans behind the chapter-2 figures: ESR(5,6,1) and ESR(5,6,2)
//! (Figs. 2.3/2.5/2.6), DSC(3…40) and DSC(40) (Figs. 2.10–2.12) and the six
//! S(a,b) of Table 2.14 (Fig. 2.15), each written as CSV and SVG
//! ([`super::mc_figures`]), with the statements the DSC figures support.

use super::mc_figures::{Curve, LogChart, write as write_chart};
use super::mc_report::{Fact, log_grid};
use crate::error::Result;
use crate::graph::mc_agents::{Agent, Duel, McSolver};
use crate::output::write_atomic;
use crate::two_player::nim::mc_games::{dsc, esr};
use rayon::prelude::*;
use std::path::Path;

fn pairs(ks: &[u32]) -> Vec<(Agent, Agent)> {
    ks.iter().map(|&k| (Agent::Mc(k), Agent::Mc(2 * k))).collect()
}

fn curve(label: impl Into<String>, ks: &[u32], ys: impl Iterator<Item = f64>) -> Curve {
    Curve { label: label.into(), points: ks.iter().map(|&k| k as f64).zip(ys).collect() }
}

fn duel_csv(ks: &[u32], duels: &[Duel<f64>], prefix: &str) -> String {
    ks.iter()
        .zip(duels)
        .map(|(k, d)| format!("{prefix}{k},{:.12},{:.12},{:.12}\n", d.first, d.second, d.mean()))
        .collect()
}

fn three_curves(ks: &[u32], duels: &[Duel<f64>]) -> Vec<Curve> {
    vec![
        curve("Hinspiel", ks, duels.iter().map(|d| d.first)),
        curve("Rückspiel", ks, duels.iter().map(|d| d.second)),
        curve("mean", ks, duels.iter().map(Duel::mean)),
    ]
}

const WIN_RATE: &str = "win rate of MC(k)";
const K_AXIS: &str = "k (log scale): MC(k) plays MC(2k)";

/// Figs. 2.3/2.5/2.6: ESR(5,6,1) and ESR(5,6,2) over log k.
pub fn esr_figures(dir: &Path, files: &mut Vec<String>) -> Result<()> {
    for s_home in [1i64, 2] {
        let g = esr(5, 6, s_home)?;
        let solver: McSolver<_, f64> = McSolver::new(&g.graph)?;
        let ks = log_grid(1, 3000, 100);
        let duels = solver.duels(g.start, &pairs(&ks))?;
        let name = format!("mc-esr-5-6-{s_home}");
        let csv = String::from("k,hinspiel,rueckspiel,mean\n") + &duel_csv(&ks, &duels, "");
        write_atomic(&crate::output::layout::data(dir, &format!("{name}.csv")), csv.as_bytes())?;
        let chart = LogChart {
            title: format!("ESR(5,6,{s_home}): MC(k) against MC(2k), exact"),
            subtitle: format!(
                "Hinspiel: MC(k) moves first; Rückspiel: MC(2k) moves first; mean of both (Fig. 2.{} style)",
                if s_home == 1 { 5 } else { 6 }
            ),
            x_label: K_AXIS.into(),
            y_label: WIN_RATE.into(),
            k_range: (1.0, 3000.0),
            y_range: Some((0.0, 1.0)),
            curves: three_curves(&ks, &duels),
            reference: Some((0.5, "50 %".into())),
        };
        write_chart(&chart, &crate::output::layout::figure(dir, &format!("fig-{name}.svg")))?;
        files.push(format!("{name}.csv"));
        files.push(format!("fig-{name}.svg"));
    }
    Ok(())
}

/// Fig. 2.15 for S(a,b): the mean for the heaps `shown`, from `means[k−1][n−1]`.
pub fn subtraction_figure(
    dir: &Path,
    (a, b): (i64, i64),
    n_star: &str,
    grid: &[u32],
    shown: &[usize],
    means: &[Vec<f64>],
    files: &mut Vec<String>,
) -> Result<()> {
    let curves = shown
        .iter()
        .map(|&n| curve(format!("n = {n}"), grid, grid.iter().map(|&k| means[k as usize - 1][n - 1])))
        .collect();
    let top = grid.last().copied().unwrap_or(1) as f64;
    let chart = LogChart {
        title: format!("S({a},{b}): MC(k) against MC(2k), exact"),
        subtitle: format!(
            "mean win rate of MC(k) over both starts, start heap n; MC(∞) first errs at n* = {n_star} (Fig. 2.15 style)"
        ),
        x_label: K_AXIS.into(),
        y_label: WIN_RATE.into(),
        k_range: (1.0, top),
        y_range: None,
        curves,
        reference: Some((0.5, "50 %".into())),
    };
    let name = format!("fig-mc-subtraction-{a}-{b}.svg");
    write_chart(&chart, &crate::output::layout::figure(dir, &name))?;
    files.push(name);
    Ok(())
}

/// Interior local minima of `ys` (strictly below both neighbours) at the grid's k.
fn local_minima(ks: &[u32], ys: &[f64]) -> Vec<u32> {
    (1..ys.len().saturating_sub(1)).filter(|&i| ys[i] < ys[i - 1] && ys[i] < ys[i + 1]).map(|i| ks[i]).collect()
}

/// Figs. 2.10/2.11 (DSC(3…40), k ≤ 5000) and 2.12 (DSC(40), k ≤ 5·10⁴), with statements.
// Long: Figs 2.10–2.12 share one scan and its statements; one block per figure
pub fn dsc_figures(dir: &Path, facts: &mut Vec<Fact>, files: &mut Vec<String>) -> Result<()> {
    let ks = log_grid(1, 5000, 100);
    let all: Vec<(u32, Vec<Duel<f64>>)> = (3u32..=40)
        .into_par_iter()
        .map(|n| {
            let g = dsc(n as i64)?;
            let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
            Ok((n, s.duels(g.start, &pairs(&ks))?))
        })
        .collect::<Result<_>>()?;
    let mut csv = String::from("n,k,hinspiel,rueckspiel,mean\n");
    for (n, duels) in &all {
        csv += &duel_csv(&ks, duels, &format!("{n},"));
    }
    write_atomic(&crate::output::layout::data(dir, "mc-dsc-scan.csv"), csv.as_bytes())?;
    let shown = [3u32, 5, 7, 10, 15, 20, 26, 30, 35, 40];
    let curves = all
        .iter()
        .filter(|(n, _)| shown.contains(n))
        .map(|(n, d)| curve(format!("n = {n}"), &ks, d.iter().map(Duel::mean)))
        .collect();
    let chart = LogChart {
        title: "DSC(n): MC(k) against MC(2k), exact".into(),
        subtitle: "mean win rate of MC(k) over both starts, track length n (Figs. 2.10/2.11 style; the CSV has every n = 3 … 40)"
            .into(),
        x_label: K_AXIS.into(),
        y_label: WIN_RATE.into(),
        k_range: (1.0, 5000.0),
        y_range: None,
        curves,
        reference: Some((0.5, "50 %".into())),
    };
    write_chart(&chart, &crate::output::layout::figure(dir, "fig-mc-dsc.svg"))?;
    files.extend(["mc-dsc-scan.csv".to_string(), "fig-mc-dsc.svg".to_string()]);
    // Fig. 2.11: for k > 100 and n < 40 every curve lies above the n = 7 curve.
    let mean = |n: u32, i: usize| all[(n - 3) as usize].1[i].mean();
    let above: Vec<(u32, u32)> = (0..ks.len())
        .filter(|&i| ks[i] > 100)
        .flat_map(|i| (3..40).filter(move |&n| n != 7).map(move |n| (n, i)))
        .filter(|&(n, i)| mean(n, i) < mean(7, i))
        .map(|(n, i)| (n, ks[i]))
        .collect();
    facts.push(Fact {
        statement: "DSC(n), Fig. 2.11: for 100 < k ≤ 5000 and n < 40 every curve lies above the n = 7 curve (k on a 100-point log grid)"
            .into(),
        published: "all graphs above n = 7 for k > 100, n < 40".into(),
        ours: if above.is_empty() {
            "none below".into()
        } else {
            format!("{} (n, k) below, e.g. {:?}", above.len(), &above[..above.len().min(4)])
        },
        holds: above.is_empty(),
    });
    let (top40, at) =
        (0..ks.len()).map(|i| (mean(40, i), ks[i])).fold((f64::NEG_INFINITY, 0), |b, x| if x.0 > b.0 { x } else { b });
    let over: Vec<u32> = (10..40).filter(|&n| (0..ks.len()).any(|i| mean(n, i) > 0.5)).collect();
    facts.push(Fact {
        statement: "DSC(40), Fig. 2.11: the mean stays below 50 % for k ≤ 5000 (100-point log grid)".into(),
        published: "clearly below 50 % even for large k".into(),
        ours: format!(
            "largest mean {top40:.6} (k = {at}); for comparison {} of the n = 10 … 39 exceed 50 % somewhere",
            over.len()
        ),
        holds: top40 < 0.5,
    });
    let big = log_grid(1, 50_000, 160);
    let g = dsc(40)?;
    let s: McSolver<_, f64> = McSolver::new(&g.graph)?;
    let duels = s.duels(g.start, &pairs(&big))?;
    let csv = String::from("k,hinspiel,rueckspiel,mean\n") + &duel_csv(&big, &duels, "");
    write_atomic(&crate::output::layout::data(dir, "mc-dsc-40.csv"), csv.as_bytes())?;
    let chart = LogChart {
        title: "DSC(40): MC(k) against MC(2k), exact".into(),
        subtitle: "Fig. 2.12 style, k ≤ 5·10⁴ (the float path stops at 2k = 10⁵; the thesis' third basin near k ≈ 2·10⁵ lies beyond)"
            .into(),
        x_label: K_AXIS.into(),
        y_label: WIN_RATE.into(),
        k_range: (1.0, 50_000.0),
        y_range: Some((0.0, 1.0)),
        curves: three_curves(&big, &duels),
        reference: Some((0.5, "50 %".into())),
    };
    write_chart(&chart, &crate::output::layout::figure(dir, "fig-mc-dsc-40.svg"))?;
    files.extend(["mc-dsc-40.csv".to_string(), "fig-mc-dsc-40.svg".to_string()]);
    let means: Vec<f64> = duels.iter().map(Duel::mean).collect();
    let minima = local_minima(&big, &means);
    let near = |lo: u32, hi: u32| minima.iter().filter(|&&k| (lo..=hi).contains(&k)).count() == 1;
    facts.push(Fact {
        statement: "DSC(40), Fig. 2.12: basins (interior local minima of the mean, 160-point log grid, k ≤ 5·10⁴): one near 10, one near 600, no other".into(),
        published: "three basins near k ≈ 10, 600 and 200 000, plus half a basin at k < 3".into(),
        ours: format!("local minima at k = {minima:?} (k ≤ 5·10⁴ only)"),
        holds: near(5, 20)
            && near(300, 1200)
            && minima.iter().all(|&k| k < 3 || (5..=20).contains(&k) || (300..=1200).contains(&k)),
    });
    Ok(())
}
