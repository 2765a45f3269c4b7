//! `solve bridg-it …`: Bridg-It and the Shannon switching game (thesis ch. 5).

use clap::Args;
use renyi_search::error::{Result, invalid};
use renyi_search::memory::{
    SharedBudget, budget_bytes, check_budget, check_budget_at_least, process_bytes, resident_bytes,
};
use renyi_search::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use renyi_search::two_player::connection::bridgit::analysis::{CutTies, ExploitSearch, self_play};
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::estimate::{agents_bytes, self_play_bytes};
use renyi_search::two_player::connection::bridgit::heuristic::{best_edges, exact_drops};
use renyi_search::two_player::connection::bridgit::lehman::{TreeStrategy, short_wins_second};
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::simulate::{SimAgent, simulate};
use renyi_search::two_player::connection::bridgit::solver::Solver;
use std::path::PathBuf;
use std::sync::Arc;

/// Largest order for the whole-game analyses (self-play explores every tie branch).
const MAX_ANALYSIS_ORDER: usize = 40;

#[derive(Args)]
pub struct BridgItArgs {
    /// Order M of the Bridg-It graph (M(M−1)+2 nodes, M²+(M−1)² edges).
    #[arg(long, default_value_t = 3)]
    order: usize,
    /// A plain edge list instead (lines "u v"); needs --terminals.
    #[arg(long)]
    graph: Option<PathBuf>,
    /// The terminals A,B of --graph.
    #[arg(long, value_delimiter = ',')]
    terminals: Vec<String>,
    /// Moves from the empty board, Cut first, e.g. A5,C5,C3,A1; each is shown with its potentials.
    #[arg(long, value_delimiter = ',')]
    moves: Vec<String>,
    /// Shannon vs Shannon: the first player's exact win probability per opening.
    #[arg(long)]
    self_play: bool,
    /// Heuristic Cut (first) vs optimal Short: per opening, does Short win?
    #[arg(long)]
    exploit: bool,
    /// Lehman's criterion (Satz 5.2) and Short's two-tree opening.
    #[arg(long)]
    lehman: bool,
    /// Short plays the temperature agent (Def 5.7) with this T against the heuristic Cut:
    /// Short's exact win probability.
    #[arg(long)]
    temperature: Option<f64>,
    /// With --temperature: Short's potentials come from this many Gauss–Seidel sweeps (5.4.4).
    #[arg(long)]
    sweeps: Option<usize>,
    /// Short plays MC(K) (K random play-outs per legal move, thesis Def 1.1) against
    /// the heuristic Cut; always simulated (see --games).
    #[arg(long, value_name = "K")]
    mc: Option<u32>,
    /// Cut plays the temperature agent with this T instead of the plain heuristic.
    #[arg(long, value_name = "T")]
    cut_temperature: Option<f64>,
    /// Simulate this many games (seeded; 95 % Wilson interval) instead of the exact
    /// value; 1000 if --mc is given without it.
    #[arg(long)]
    games: Option<u64>,
    /// Seed of the simulation (same seed, same numbers on any thread count).
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

// Long: one dispatch over the modes of `solve bridg-it` (position, replay, analyses, simulation),
//   each a few lines of library calls and printing
pub fn run(args: BridgItArgs) -> Result<()> {
    let board = match &args.graph {
        Some(path) => {
            let [a, b] = args.terminals.as_slice() else {
                return Err(invalid("--graph needs --terminals A,B"));
            };
            let text = std::fs::read_to_string(path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
            Board::parse_edge_list(&text, a, b)?
        }
        None => Board::bridgit(args.order)?,
    };
    if (args.self_play || args.exploit) && board.order().is_some_and(|m| m > MAX_ANALYSIS_ORDER) {
        return Err(invalid(format!(
            "order {} too large for the whole-game analyses (at most {MAX_ANALYSIS_ORDER})",
            args.order
        )));
    }
    let agent = match (args.temperature, args.sweeps) {
        (Some(t), None) => Some(Agent::Temperature(t)),
        (Some(t), Some(n)) => Some(Agent::FiniteGaussSeidel { iterations: n, temperature: t }),
        (None, Some(_)) => return Err(invalid("--sweeps needs --temperature")),
        (None, None) => None,
    };
    let matchup = agents(&args, agent)?;
    check_memory(&args, &board, matchup.as_ref())?;
    // Searched before anything is printed: a search stopped at its memory limit prints nothing.
    let exploit = if args.exploit { exploit_lines(&board)? } else { Vec::new() };
    let edges: Vec<usize> = args.moves.iter().map(|m| board.parse_edge(m)).collect::<Result<_>>()?;
    let mut check = Position::start(&board, Player::Cut);
    for (i, &e) in edges.iter().enumerate() {
        if !check.is_free(e) || check.winner(&board).is_some() {
            return Err(invalid(format!("move {} ({}) is not legal here", i + 1, board.edge_name(e))));
        }
        check = check.play(e);
    }
    let mut pos = Position::start(&board, Player::Cut);
    for (i, &e) in edges.iter().enumerate() {
        show_potentials(&board, &pos, i + 1);
        println!("{}. {:?} plays {}", i + 1, pos.to_move, board.edge_name(e));
        pos = pos.play(e);
    }
    match pos.winner(&board) {
        Some(w) => println!("game over: {w:?} has won"),
        None => show_potentials(&board, &pos, edges.len() + 1),
    }
    if args.self_play {
        let r = self_play(&board, Player::Cut)?;
        println!("Shannon vs Shannon: first player wins with probability {} ({} positions)", r.first_wins, r.states);
        for (e, p) in r.openings {
            println!("  opening {}: {p}", board.edge_name(e));
        }
    }
    for line in exploit {
        println!("{line}");
    }
    if args.lehman {
        let second = short_wins_second(board.nodes(), board.edges(), board.a(), board.b());
        println!("Short moving second wins (positive subgraph with A, B): {second}");
        match TreeStrategy::opening(&board) {
            Some((e, _)) => println!("Short moving first wins, opening {}", board.edge_name(e)),
            None => println!("Short moving first has no winning opening"),
        }
    }
    match matchup {
        Some((cut, short, Some(games))) => {
            let s = simulate(&board, cut, short, games, args.seed, &super::progress::progress_auto())?;
            println!(
                "{short} (Short) vs {cut} (Cut, first): Short wins {} of {} games = {:.6}, 95 % Wilson interval [{:.6}, {:.6}] (seed {})",
                s.short_wins,
                s.games,
                s.rate(),
                s.interval.0,
                s.interval.1,
                s.seed
            );
        }
        Some((SimAgent::Policy(cut), SimAgent::Policy(short), None)) => {
            let (p, states) = short_win_probability(&board, cut, short, 4 << 30)?;
            println!(
                "{short:?} (Short) vs {cut:?} Cut (first): Short wins with probability {p:.9} ({states} positions)"
            );
        }
        Some(_) => unreachable!("MC(k) is always simulated"),
        None => {}
    }
    Ok(())
}

/// The agent pair (Cut, Short) and the number of games to simulate (None: exact),
/// if an agent option was given; parameters checked.
fn agents(args: &BridgItArgs, short: Option<Agent>) -> Result<Option<(SimAgent, SimAgent, Option<u64>)>> {
    let short = match (args.mc, short) {
        (Some(_), Some(_)) => return Err(invalid("--mc and --temperature both choose Short's agent: give one")),
        (Some(k), None) => Some(SimAgent::MonteCarlo(k)),
        (None, a) => a.map(SimAgent::Policy),
    };
    let cut = SimAgent::Policy(args.cut_temperature.map_or(Agent::Heuristic, Agent::Temperature));
    let Some(short) = short else {
        if args.cut_temperature.is_some() || args.games.is_some() {
            return Err(invalid("--cut-temperature and --games need Short's agent (--temperature or --mc)"));
        }
        return Ok(None);
    };
    cut.validate()?;
    short.validate()?;
    let games = match (args.games, short) {
        (Some(0), _) => return Err(invalid("--games must be at least 1")),
        (None, SimAgent::MonteCarlo(_)) => Some(1000),
        (g, _) => g,
    };
    Ok(Some((cut, short, games)))
}

/// The exploit search (heuristic Cut, both tie readings) after every heuristic
/// opening, one line each. No count of its positions follows from M (docs/bridg-it.md:
/// not monotone, no fit within 2×), so its tables are capped instead: at
/// (budget − resident bytes now) / `EXPLOIT_BYTES_PER_POSITION` (135) positions together.
fn exploit_lines(board: &Board) -> Result<Vec<String>> {
    let free = budget_bytes().saturating_sub(resident_bytes().unwrap_or(0));
    let limit = Arc::new(SharedBudget::new(free));
    let start = Position::start(board, Player::Cut);
    let (mut every, mut some) = (
        ExploitSearch::new(board, CutTies::AgainstShort).with_limit(limit.clone()),
        ExploitSearch::new(board, CutTies::ForShort).with_limit(limit),
    );
    let mut lines = Vec::new();
    for e in best_edges(board, &start, &Solver::Direct) {
        let after = start.play(e);
        let verdict = match (every.short_wins(&after)?, some.short_wins(&after)?) {
            (true, _) => "Short wins for every tie choice",
            (false, true) => "Short wins for some tie choices",
            (false, false) => "Cut is unbeatable",
        };
        lines.push(format!("  Cut opens {}: {verdict}", board.edge_name(e)));
    }
    Ok(lines)
}

/// Refuses, before any work, a self-play or agents' game graph of a Bridg-It
/// board whose estimated memory ([`estimate`](renyi_search::two_player::connection::bridgit::estimate))
/// passes the budget. Plain graphs have no estimate; the memory guard watches them.
fn check_memory(args: &BridgItArgs, board: &Board, matchup: Option<&(SimAgent, SimAgent, Option<u64>)>) -> Result<()> {
    let Some(m) = board.order() else { return Ok(()) };
    if args.self_play {
        check_budget(&format!("self-play on the Bridg-It graph of order {m}"), process_bytes(self_play_bytes(m)))?;
    }
    if let Some((SimAgent::Policy(cut), SimAgent::Policy(_), None)) = matchup {
        let (what, heap) = (format!("the agents' game graph of order {m}"), process_bytes(agents_bytes(m)));
        match cut {
            Agent::Heuristic => check_budget(&what, heap)?,
            _ => check_budget_at_least(&what, heap)?,
        }
    }
    Ok(())
}

fn show_potentials(board: &Board, pos: &Position, move_number: usize) {
    let mut drops = exact_drops(board, pos);
    drops.sort_by(|x, y| y.1.cmp(&x.1));
    let best = best_edges(board, pos, &Solver::Direct);
    let list: Vec<String> = drops.iter().take(12).map(|(e, d)| format!("{} {d}", board.edge_name(*e))).collect();
    let best: Vec<String> = best.into_iter().map(|e| board.edge_name(e)).collect();
    println!("   before move {move_number}: ΔX {}; heuristic: {}", list.join(", "), best.join(" | "));
}
