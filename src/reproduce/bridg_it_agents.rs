//! `reproduce bridg-it`, randomised agents (thesis 5.4, reference note
//! `../shared/reference/seed002-ch1235.md §4.4`): Figs 5.9, 5.10 (middle and
//! bottom) and 5.11 as CSV and program-drawn SVG. Exact points come from
//! `agents::short_win_probability` (every game counted), simulated ones from
//! `simulate::simulate` (seeded, 95 % Wilson interval). The top panel of
//! Fig 5.10 and assertion 5.12's exact M = 3 curve are in `bridg_it.rs`.

use crate::error::Result;
use crate::output::{layout, write_atomic};
use crate::plot::{Chart, Marker, StepSeries, write_svg};
use crate::progress::Progress;
use crate::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use crate::two_player::connection::bridgit::board::Board;
use crate::two_player::connection::bridgit::simulate::{SimAgent, simulate};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Short's win rate for one agent pair, Cut moving first.
#[derive(Clone, Debug, Serialize)]
pub struct AgentPoint {
    /// "5.9", "5.10 middle", "5.10 bottom", "5.11", "5.12".
    pub figure: &'static str,
    pub order: usize,
    pub cut: String,
    pub short: String,
    /// The figure's x value: k for MC(k), else Short's temperature.
    pub x: f64,
    /// The series within the figure (e.g. "M = 3, exact").
    pub series: String,
    /// Simulated games (None: exact over all games).
    pub games: Option<u64>,
    pub seed: Option<u64>,
    pub short_wins: f64,
    /// 95 % Wilson interval (the exact value twice for exact points).
    pub interval: (f64, f64),
}

/// The seed of every simulated point.
pub const SEED: u64 = 1;
/// Games per simulated point (the thesis: 1000, Fig 5.10 middle/bottom 10 000).
pub const GAMES: u64 = 1000;
const TEMPS: [f64; 7] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];
const MEMORY: u64 = 2 << 30;

fn exact(fig: &'static str, m: usize, cut: Agent, short: Agent, x: f64, series: String) -> Result<AgentPoint> {
    let (p, _) = short_win_probability(&Board::bridgit(m)?, cut, short, MEMORY)?;
    let (cut, short) = (SimAgent::Policy(cut).to_string(), SimAgent::Policy(short).to_string());
    Ok(AgentPoint {
        figure: fig,
        order: m,
        cut,
        short,
        x,
        series,
        games: None,
        seed: None,
        short_wins: p,
        interval: (p, p),
    })
}

fn simulated(
    fig: &'static str,
    m: usize,
    cut: SimAgent,
    short: SimAgent,
    x: f64,
    series: String,
) -> Result<AgentPoint> {
    let s = simulate(&Board::bridgit(m)?, cut, short, GAMES, SEED, &Progress::none())?;
    Ok(AgentPoint {
        figure: fig,
        order: m,
        cut: cut.to_string(),
        short: short.to_string(),
        x,
        series,
        games: Some(s.games),
        seed: Some(s.seed),
        short_wins: s.rate(),
        interval: s.interval,
    })
}

/// The points of the default run (`full`: also the simulated orders of `--full`).
pub fn agent_points(full: bool, note: &mut impl FnMut(&str)) -> Result<Vec<AgentPoint>> {
    let h = Agent::Heuristic;
    let mut out = Vec::new();
    let mc_orders: &[(usize, &[u32])] = if full {
        &[(3, &[1, 2, 4, 8, 16, 32, 64, 128, 256]), (4, &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])]
    } else {
        &[(3, &[1, 4, 16, 64]), (4, &[128])]
    };
    for &(m, ks) in mc_orders {
        for &k in ks {
            out.push(simulated("5.9", m, SimAgent::Policy(h), SimAgent::MonteCarlo(k), k as f64, format!("M = {m}"))?);
        }
    }
    out.push(simulated(
        "5.12",
        4,
        SimAgent::Policy(h),
        SimAgent::Policy(Agent::Temperature(0.1)),
        0.1,
        "M = 4".into(),
    )?);
    for t in TEMPS {
        for m in [2, 3] {
            let s = format!("M = {m}, exact");
            out.push(exact("5.10 middle", m, Agent::Temperature(t), Agent::Temperature(t), t, s.clone())?);
            out.push(exact("5.10 bottom", m, Agent::Temperature(0.01), Agent::Temperature(t), t, s)?);
        }
        for n in [1, 3] {
            let short = Agent::FiniteGaussSeidel { iterations: n, temperature: t };
            out.push(exact("5.11", 3, h, short, t, format!("M = 3, {n} sweeps, exact"))?);
        }
        if full {
            for m in 4..=8 {
                let (tc, ts) = (SimAgent::Policy(Agent::Temperature(t)), SimAgent::Policy(Agent::Temperature(t)));
                out.push(simulated("5.10 middle", m, tc, ts, t, format!("M = {m}, simulated"))?);
                let cold = SimAgent::Policy(Agent::Temperature(0.01));
                out.push(simulated("5.10 bottom", m, cold, ts, t, format!("M = {m}, simulated"))?);
            }
            for n in [1, 4, 16] {
                let short = SimAgent::Policy(Agent::FiniteGaussSeidel { iterations: n, temperature: t });
                out.push(simulated("5.11", 4, SimAgent::Policy(h), short, t, format!("M = 4, {n} sweeps, simulated"))?);
            }
        }
        note(&format!("bridg-it agents: temperature {t} done"));
    }
    Ok(out)
}

/// The points as CSV (text fields quoted: they contain commas).
pub fn csv(points: &[AgentPoint]) -> String {
    let mut s = String::from("figure,order,cut,short,x,series,games,seed,short_wins,low95,high95\n");
    for p in points {
        let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
        s.push_str(&format!(
            "\"{}\",{},\"{}\",\"{}\",{},\"{}\",{},{},{:.9},{:.9},{:.9}\n",
            p.figure,
            p.order,
            p.cut,
            p.short,
            p.x,
            p.series,
            opt(p.games),
            opt(p.seed),
            p.short_wins,
            p.interval.0,
            p.interval.1
        ));
    }
    s
}

/// One chart per figure: x on a log scale (log₂ k for 5.9, log₁₀ T else);
/// simulated series draw their interval ends as a separate series.
fn chart(points: &[AgentPoint], figure: &str, title: &str, markers: Vec<Marker>) -> Chart {
    let mc = figure == "5.9";
    let lx = |x: f64| if mc { x.log2() } else { x.log10() };
    let mut groups: BTreeMap<&str, Vec<&AgentPoint>> = BTreeMap::new();
    for p in points.iter().filter(|p| p.figure == figure) {
        groups.entry(&p.series).or_default().push(p);
    }
    let mut series = Vec::new();
    let mut bounds = Vec::new();
    for (label, ps) in &groups {
        let points = ps.iter().map(|p| (lx(p.x), p.short_wins)).collect();
        series.push(StepSeries { label: label.to_string(), steps: Vec::new(), points });
        bounds.extend(
            ps.iter().filter(|p| p.games.is_some()).flat_map(|p| [(lx(p.x), p.interval.0), (lx(p.x), p.interval.1)]),
        );
    }
    if !bounds.is_empty() {
        series.push(StepSeries { label: "95 % Wilson ends".into(), steps: Vec::new(), points: bounds });
    }
    let xs: Vec<f64> = points.iter().filter(|p| p.figure == figure).map(|p| lx(p.x)).collect();
    let (x0, x1) = xs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
    let y_max = points.iter().filter(|p| p.figure == figure).map(|p| p.interval.1).fold(0.02, f64::max) * 1.1;
    Chart {
        title: title.into(),
        x_label: if mc { "log₂ k (Short plays MC(k))".into() } else { "log₁₀ T (Short's temperature)".into() },
        y_label: "P(Short wins)".into(),
        x_range: (x0 - 0.2, x1 + 0.2),
        y_range: Some((0.0, y_max.min(1.0))),
        series,
        markers,
        tail_note: Some(format!("simulated: {GAMES} games per point, seed {SEED}")),
    }
}

/// Writes `data/bridg-it-agents{suffix}.csv` and the figures 5.9, 5.10 middle /
/// bottom and 5.11 (`figures/bridg-it-fig-5-9{suffix}.svg`, …).
pub fn write_agent_outputs(dir: &Path, points: &[AgentPoint], suffix: &str) -> Result<()> {
    write_atomic(&layout::data(dir, &format!("bridg-it-agents{suffix}.csv")), csv(points).as_bytes())?;
    let thesis_mc = vec![Marker { x: 7.0, y: 0.015, label: "thesis: MC(128) ≈ 1.5 %, M = 4".into() }];
    let figures = [
        ("5.9", "fig-5-9", "Short MC(k) vs heuristic Cut (Fig 5.9)", thesis_mc),
        ("5.10 middle", "fig-5-10-middle", "Both players with temperature T (Fig 5.10 middle)", Vec::new()),
        ("5.10 bottom", "fig-5-10-bottom", "Cut T = 0.01, Short temperature T (Fig 5.10 bottom)", Vec::new()),
        ("5.11", "fig-5-11", "Short: finite Gauss–Seidel + temperature vs heuristic Cut (Fig 5.11)", Vec::new()),
    ];
    for (figure, stem, title, markers) in figures {
        let c = chart(points, figure, title, markers);
        write_svg(&c, &layout::figure(dir, &format!("bridg-it-{stem}{suffix}.svg")))?;
    }
    Ok(())
}
