//! `renyi-search solve mc …`: pure Monte-Carlo agents on the games of thesis
//! ch. 2 (ESR, DSC, S(a,b)), exactly: MC(k) against MC(2k) (or --vs), one k
//! or a scan over k written as CSV.

use clap::{Args, Subcommand};
use num_rational::BigRational;
use renyi_search::error::{Result, invalid};
use renyi_search::graph::mc_agents::{Agent, Duel, McSolver};
use renyi_search::graph::scalar::Scalar;
use renyi_search::output::write_atomic;
use renyi_search::two_player::nim::mc_games::{McGame, McState, dsc, esr, subtraction};
use std::path::PathBuf;
use std::time::Instant;

#[derive(Subcommand)]
pub enum McGameArgs {
    /// Single-step race ESR(n, m, s): m lanes of length n per player, s pieces home win.
    Esr {
        #[arg(long, allow_negative_numbers = true)]
        n: i64,
        #[arg(long, allow_negative_numbers = true)]
        m: i64,
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        s: i64,
        #[command(flatten)]
        duel: DuelArgs,
    },
    /// Double-step crash race DSC(n).
    Dsc {
        #[arg(long, allow_negative_numbers = true)]
        n: i64,
        #[command(flatten)]
        duel: DuelArgs,
    },
    /// Two-move subtraction game S(a, b) from a heap of n.
    Sub {
        #[arg(long, allow_negative_numbers = true)]
        a: i64,
        #[arg(long, allow_negative_numbers = true)]
        b: i64,
        #[arg(long, allow_negative_numbers = true)]
        n: i64,
        #[command(flatten)]
        duel: DuelArgs,
    },
}

#[derive(Args)]
pub struct DuelArgs {
    /// The weaker agent MC(k): k, `inf` (MC(∞)), `random`; a scan: `1:1000` (every k)
    /// or `1:100000:log60` (60 log-spaced k); the scan is written as CSV.
    #[arg(long, allow_hyphen_values = true)]
    k: String,
    /// The opponent: `2k` (MC(2k), the thesis' default), a number N (MC(N)), `inf` or `random`.
    #[arg(long, default_value = "2k")]
    vs: String,
    /// Exact rational arithmetic (MC(∞), random, or MC(N) on small graphs).
    #[arg(long)]
    exact: bool,
    /// Write the CSV (or the single result) to this file instead of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
}

/// One duel: the agents, the float values and, with --exact, the rationals.
type Row = (Agent, Agent, Duel<f64>, Option<Duel<BigRational>>);

pub fn run(game: McGameArgs) -> Result<()> {
    let (built, duel) = match game {
        McGameArgs::Esr { n, m, s, duel } => (esr(n, m, s)?, duel),
        McGameArgs::Dsc { n, duel } => (dsc(n)?, duel),
        McGameArgs::Sub { a, b, n, duel } => (subtraction(a, b, n)?, duel),
    };
    let ks = parse_ks(&duel.k)?;
    let pairs: Vec<(Agent, Agent)> = ks.iter().map(|&k| Ok((k, opponent(k, &duel.vs)?))).collect::<Result<_>>()?;
    if duel.exact {
        let limit = exact_limit(&built);
        if let Some((_, a)) = pairs.iter().find(|(a, b)| playouts(*a).max(playouts(*b)) > limit) {
            return Err(invalid(format!(
                "--exact with {a} on {} ({} states): rational MC(N) is limited to N ≤ {limit} here; drop --exact for the float path",
                built.name,
                built.graph.len()
            )));
        }
    }
    let started = Instant::now();
    let rows: Vec<Row> = if duel.exact {
        let solver: McSolver<McState, BigRational> = McSolver::new(&built.graph)?;
        pairs
            .iter()
            .map(|&(a, b)| {
                let d = solver.duel_exact(built.start, a, b);
                let f = Duel { first: d.first.to_f64(), second: d.second.to_f64() };
                (a, b, f, Some(d))
            })
            .collect()
    } else {
        let solver: McSolver<McState, f64> = McSolver::new(&built.graph)?;
        let duels = solver.duels(built.start, &pairs)?;
        pairs.iter().zip(duels).map(|(&(a, b), d)| (a, b, d, None)).collect()
    };
    let seconds = started.elapsed().as_secs_f64();
    let text = if rows.len() == 1 {
        let (a, b, d, exact) = &rows[0];
        let mut t = format!("{}, {} states: {a} against {b} (win rates of {a})\n", built.name, built.graph.len());
        t += &format!("  Hinspiel ({a} moves first):  {:.10}\n", d.first);
        t += &format!("  Rückspiel ({b} moves first): {:.10}\n", d.second);
        t += &format!("  mean:                        {:.10}\n", d.mean());
        if let Some(e) = exact {
            t += &format!("  exact: {} / {} / {}\n", e.first, e.second, e.mean());
        }
        t += &format!("  ({seconds:.3} s)\n");
        t
    } else {
        let mut t = String::from("k,agent,opponent,hinspiel,rueckspiel,mean\n");
        for (a, b, d, _) in &rows {
            let k = match a {
                Agent::Mc(k) => k.to_string(),
                other => other.to_string(),
            };
            t += &format!("{k},{a},{b},{:.12},{:.12},{:.12}\n", d.first, d.second, d.mean());
        }
        eprintln!("{}: {} duels in {seconds:.2} s", built.name, rows.len());
        t
    };
    match &duel.out {
        Some(path) => write_atomic(path, text.as_bytes()),
        None => {
            print!("{text}");
            Ok(())
        }
    }
}

fn playouts(a: Agent) -> u32 {
    if let Agent::Mc(n) = a { n } else { 0 }
}

/// Rational MC(N) grows the denominators by a factor ~N·(candidates) per state.
fn exact_limit(game: &McGame) -> u32 {
    if game.graph.len() <= 200 { 64 } else { 8 }
}

fn opponent(k: Agent, vs: &str) -> Result<Agent> {
    match vs.trim() {
        "2k" => k.doubled(),
        other => other.parse(),
    }
}

/// `3`, `inf`, `random`, `1:1000`, `1:100000:log60`.
fn parse_ks(text: &str) -> Result<Vec<Agent>> {
    let parts: Vec<&str> = text.split(':').collect();
    let bound = |s: &str| -> Result<u32> {
        match s.parse::<Agent>()? {
            Agent::Mc(k) => Ok(k),
            _ => Err(invalid(format!("a k range needs numbers, got {s:?}"))),
        }
    };
    match parts.as_slice() {
        [one] => Ok(vec![one.parse()?]),
        [lo, hi] | [lo, hi, _] => {
            let (lo, hi) = (bound(lo)?, bound(hi)?);
            if lo > hi {
                return Err(invalid(format!("k range {lo}:{hi} is reversed")));
            }
            let ks: Vec<u32> = match parts.get(2) {
                None => (lo..=hi).collect(),
                Some(spec) => {
                    let count: usize = spec
                        .strip_prefix("log")
                        .and_then(|c| c.parse().ok())
                        .filter(|&c| c >= 2)
                        .ok_or_else(|| invalid(format!("k step {spec:?}: write e.g. log60")))?;
                    let (a, b) = ((lo as f64).ln(), (hi as f64).ln());
                    let mut ks: Vec<u32> = (0..count)
                        .map(|i| (a + (b - a) * i as f64 / (count - 1) as f64).exp().round() as u32)
                        .collect();
                    ks.dedup();
                    ks
                }
            };
            if ks.len() > 100_000 {
                return Err(invalid("at most 100 000 values of k per scan"));
            }
            Ok(ks.into_iter().map(Agent::Mc).collect())
        }
        _ => Err(invalid(format!("cannot read --k {text:?}; write 3, inf, 1:1000 or 1:100000:log60"))),
    }
}
