//! `solve bridg-it …`: Bridg-It and the Shannon switching game (thesis ch. 5).

use clap::Args;
use renyi_search::two_player::connection::bridgit::agents::{Agent, short_win_probability};
use renyi_search::two_player::connection::bridgit::analysis::{CutTies, ExploitSearch, self_play};
use renyi_search::two_player::connection::bridgit::board::Board;
use renyi_search::two_player::connection::bridgit::heuristic::{best_edges, exact_drops};
use renyi_search::two_player::connection::bridgit::lehman::{TreeStrategy, short_wins_second};
use renyi_search::two_player::connection::bridgit::position::{Player, Position};
use renyi_search::two_player::connection::bridgit::solver::Solver;
use renyi_search::error::{Result, invalid};
use std::path::PathBuf;

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
}

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
    if let Some(a) = agent {
        a.validate()?;
    }
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
    if args.exploit {
        let start = Position::start(&board, Player::Cut);
        let (mut every, mut some) =
            (ExploitSearch::new(&board, CutTies::AgainstShort), ExploitSearch::new(&board, CutTies::ForShort));
        for e in best_edges(&board, &start, &Solver::Direct) {
            let after = start.play(e);
            let verdict = match (every.short_wins(&after), some.short_wins(&after)) {
                (true, _) => "Short wins for every tie choice",
                (false, true) => "Short wins for some tie choices",
                (false, false) => "Cut is unbeatable",
            };
            println!("  Cut opens {}: {verdict}", board.edge_name(e));
        }
    }
    if args.lehman {
        let second = short_wins_second(board.nodes(), board.edges(), board.a(), board.b());
        println!("Short moving second wins (positive subgraph with A, B): {second}");
        match TreeStrategy::opening(&board) {
            Some((e, _)) => println!("Short moving first wins, opening {}", board.edge_name(e)),
            None => println!("Short moving first has no winning opening"),
        }
    }
    if let Some(a) = agent {
        let (p, states) = short_win_probability(&board, Agent::Heuristic, a, 4 << 30)?;
        println!("{a:?} (Short) vs heuristic Cut (first): Short wins with probability {p:.9} ({states} positions)");
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
