//! `reproduce bridg-it`, randomised agents (thesis 5.4, reference note
//! `../shared/reference/seed002-ch1235.md §4.4`): Figs 5.9, 5.10 (middle and
//! bottom) and 5.11 as CSV and program-drawn SVG. Exact points come from
//! `agents::short_win_probability` (every game counted), simulated ones from
//! `simulate::simulate` (seeded, 95 % Wilson interval). The top panel of
//! Fig 5.10 (exact curves M = 3, 4) is in `bridg_it_temperature.rs`.

pub use super::bridg_it_checkpoint::AgentPoint;
use super::bridg_it_checkpoint::Scan;
use crate::error::Result;
use crate::graph::scalar::rational_to_f64;
use crate::output::markdown::{Align, MarkdownTable};
use crate::output::{layout, write_atomic};
use crate::plot::{Chart, Marker, StepSeries, write_svg};
use crate::progress::Progress;
use crate::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use crate::two_player::connection::bridgit::board::Board;
use crate::two_player::connection::bridgit::mc_exact::exact_mc_short;
use crate::two_player::connection::bridgit::simulate::{SimAgent, simulate};
use std::collections::BTreeMap;
use std::path::Path;

/// The seed of every simulated point.
pub const SEED: u64 = 1;
/// Games per simulated point (the thesis: 1000, Fig 5.10 middle/bottom 10 000).
pub const GAMES: u64 = 1000;
const TEMPS: [f64; 7] = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0];
const MEMORY: u64 = 2 << 30;
/// The k of the exact MC(k) points of Fig 5.9, M = 3 (M = 4 is out of reach, see `mc_exact`):
/// the default run's simulated k = 1 and 4 (about 35 s wall each under load 20); `--full` adds
/// 2, 8 and 16 (65, 107, 474 s: the rationals grow to 3103-bit denominators at k = 16).
pub const EXACT_MC_KS: [u32; 2] = [1, 4];
const EXACT_MC_KS_FULL: [u32; 3] = [2, 8, 16];

/// Which agent points a run computes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum AgentSet {
    /// None (assertions 5.12 and 5.13 are then "not computed").
    None,
    /// The default run's points (exact M = 2, 3; simulated M = 3, 4 for 5.9 and 5.12).
    Default,
    /// Also the simulated orders of `--full` (M = 4..8, MC(k) up to k = 1024).
    Full,
}

impl AgentSet {
    /// The name in a checkpoint's identity.
    pub fn name(self) -> &'static str {
        match self {
            AgentSet::None => "none",
            AgentSet::Default => "default",
            AgentSet::Full => "full",
        }
    }
}

fn exact(fig: &str, m: usize, cut: Agent, short: Agent, x: f64, series: String) -> Result<AgentPoint> {
    let (p, _) = short_win_probability(&Board::bridgit(m)?, cut, short, MEMORY)?;
    let (cut, short) = (SimAgent::Policy(cut).to_string(), SimAgent::Policy(short).to_string());
    Ok(AgentPoint {
        figure: fig.to_string(),
        order: m,
        cut,
        short,
        x,
        series,
        games: None,
        seed: None,
        short_wins: p,
        interval: (p, p),
        exact: None,
    })
}

fn simulated(fig: &str, m: usize, cut: SimAgent, short: SimAgent, x: f64, series: String) -> Result<AgentPoint> {
    let s = simulate(&Board::bridgit(m)?, cut, short, GAMES, SEED, &Progress::none())?;
    Ok(AgentPoint {
        figure: fig.to_string(),
        order: m,
        cut: cut.to_string(),
        short: short.to_string(),
        x,
        series,
        games: Some(s.games),
        seed: Some(s.seed),
        short_wins: s.rate(),
        interval: s.interval,
        exact: None,
    })
}

/// The agent points of a run, each a unit of `scan` (named by figure, order,
/// agents and x: a point the default and the full set share is computed once).
struct Points<'s, 'a> {
    scan: &'s mut Scan<'a>,
    out: Vec<AgentPoint>,
}

impl Points<'_, '_> {
    fn exact(&mut self, fig: &str, m: usize, cut: Agent, short: Agent, x: f64, series: String) -> Result<()> {
        let name = format!("{fig} M = {m} {} vs {} x = {x} exact", SimAgent::Policy(cut), SimAgent::Policy(short));
        let p = self.scan.unit(&name, || exact(fig, m, cut, short, x, series))?;
        self.out.push(p);
        Ok(())
    }

    /// Fig 5.9 exactly: MC(k) Short against the heuristic Cut ([`exact_mc_short`]).
    fn exact_mc(&mut self, m: usize, k: u32) -> Result<()> {
        let p = self.scan.unit(&format!("5.9 M = {m} heuristic vs MC({k}) exact"), || {
            let r = exact_mc_short(&Board::bridgit(m)?, k, MEMORY)?;
            let p = rational_to_f64(&r.short_wins);
            Ok(AgentPoint {
                figure: "5.9".into(),
                order: m,
                cut: SimAgent::Policy(Agent::Heuristic).to_string(),
                short: SimAgent::MonteCarlo(k).to_string(),
                x: k as f64,
                series: format!("M = {m}, exact"),
                games: None,
                seed: None,
                short_wins: p,
                interval: (p, p),
                exact: Some(r.short_wins.to_string()),
            })
        })?;
        self.out.push(p);
        Ok(())
    }

    fn simulated(&mut self, fig: &str, m: usize, cut: SimAgent, short: SimAgent, x: f64, series: String) -> Result<()> {
        let name = format!("{fig} M = {m} {cut} vs {short} x = {x} simulated");
        let p = self.scan.unit(&name, || simulated(fig, m, cut, short, x, series))?;
        self.out.push(p);
        Ok(())
    }
}

/// The points of `set`, computed through `scan` (progress and checkpoint).
pub fn agent_points(set: AgentSet, scan: &mut Scan) -> Result<Vec<AgentPoint>> {
    let h = Agent::Heuristic;
    let full = set == AgentSet::Full;
    if set == AgentSet::None {
        return Ok(Vec::new());
    }
    let mc_orders: &[(usize, &[u32])] = if full {
        &[(3, &[1, 2, 4, 8, 16, 32, 64, 128, 256]), (4, &[1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024])]
    } else {
        &[(3, &[1, 4, 16, 64]), (4, &[128])]
    };
    let exact_ks: Vec<u32> =
        EXACT_MC_KS.iter().chain(if full { &EXACT_MC_KS_FULL[..] } else { &[] }).copied().collect();
    let mc_units: usize = mc_orders.iter().map(|o| o.1.len()).sum::<usize>() + exact_ks.len();
    let per_temperature = if full { 4 + 2 + 10 + 3 } else { 6 };
    scan.phase(&format!("bridg-it agent points ({})", set.name()), mc_units + 1 + TEMPS.len() * per_temperature);
    let mut p = Points { scan, out: Vec::new() };
    for &(m, ks) in mc_orders {
        for &k in ks {
            p.simulated("5.9", m, SimAgent::Policy(h), SimAgent::MonteCarlo(k), k as f64, format!("M = {m}"))?;
        }
    }
    for k in exact_ks {
        p.exact_mc(3, k)?;
    }
    let (cut, short) = (SimAgent::Policy(h), SimAgent::Policy(Agent::Temperature(0.1)));
    p.simulated("5.12", 4, cut, short, 0.1, "M = 4".into())?;
    for t in TEMPS {
        for m in [2, 3] {
            let s = format!("M = {m}, exact");
            p.exact("5.10 middle", m, Agent::Temperature(t), Agent::Temperature(t), t, s.clone())?;
            p.exact("5.10 bottom", m, Agent::Temperature(0.01), Agent::Temperature(t), t, s)?;
        }
        for n in [1, 3] {
            let short = Agent::FiniteGaussSeidel { iterations: n, temperature: t };
            p.exact("5.11", 3, h, short, t, format!("M = 3, {n} sweeps, exact"))?;
        }
        if full {
            for m in 4..=8 {
                let (tc, ts) = (SimAgent::Policy(Agent::Temperature(t)), SimAgent::Policy(Agent::Temperature(t)));
                p.simulated("5.10 middle", m, tc, ts, t, format!("M = {m}, simulated"))?;
                let cold = SimAgent::Policy(Agent::Temperature(0.01));
                p.simulated("5.10 bottom", m, cold, ts, t, format!("M = {m}, simulated"))?;
            }
            for n in [1, 4, 16] {
                let short = SimAgent::Policy(Agent::FiniteGaussSeidel { iterations: n, temperature: t });
                p.simulated("5.11", 4, SimAgent::Policy(h), short, t, format!("M = 4, {n} sweeps, simulated"))?;
            }
        }
        p.scan.note(&format!("bridg-it agents ({}): temperature {t} done", set.name()));
    }
    p.scan.end_phase();
    Ok(p.out)
}

/// Fig 5.9 exactly (M = 3) next to the simulated points of the same k: a
/// markdown section (empty without exact MC(k) points).
pub fn exact_mc_section(points: &[AgentPoint]) -> String {
    let exact: Vec<&AgentPoint> = points.iter().filter(|p| p.figure == "5.9" && p.exact.is_some()).collect();
    if exact.is_empty() {
        return String::new();
    }
    let mut t = MarkdownTable::new([
        ("M", Align::Right),
        ("Short", Align::Left),
        ("exact P(Short wins)", Align::Right),
        ("simulated", Align::Right),
        ("95 % Wilson", Align::Left),
        ("exact inside", Align::Left),
    ]);
    for e in exact {
        let sim = points.iter().find(|p| p.figure == "5.9" && p.order == e.order && p.x == e.x && p.games.is_some());
        let (rate, interval, inside) = sim.map_or(("-".into(), "-".into(), "-"), |s| {
            let inside = s.interval.0 <= e.short_wins && e.short_wins <= s.interval.1;
            (
                format!("{:.4}", s.short_wins),
                format!("[{:.4}, {:.4}]", s.interval.0, s.interval.1),
                if inside { "yes" } else { "no" },
            )
        });
        t.row([e.order.to_string(), e.short.clone(), format!("{:.6}", e.short_wins), rate, interval, inside.into()]);
    }
    format!(
        "\n## MC(k) Short vs heuristic Cut exactly (Fig 5.9, M = 3)\n\nBackward induction over the game graph: each candidate's play-out win probability counted over all random completions, MC(k)'s move distribution exact (binomial wins, uniform ties); the rationals are in `tables/bridg-it.json`. M = 4 is out of reach (C(23, 11) ≈ 1.35·10⁶ completions per candidate and position).\n\n{t}"
    )
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
