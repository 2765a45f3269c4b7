//! `renyi-search solve …`: the game-graph solver from the command line.

use clap::Subcommand;
use renyi_search::error::{Result, invalid};
use renyi_search::graph::explicit::{ExplicitGraph, Node};
use renyi_search::graph::grundy::{HeapRule, heap_table_options, heap_values, heap_values_with_progress, sum_moves};
use renyi_search::two_player::chess::position::parse_position;
use renyi_search::two_player::chess::{Endgame, Metric, Tablebase};
use renyi_search::two_player::nim::boards::chomp_rectangle;
use renyi_search::two_player::nim::cram::cram_with_progress;
use renyi_search::two_player::nim::heaps::subtraction_table;
use renyi_search::two_player::nim::loopy_games::{PokerNim, solve_loopy};

#[derive(Subcommand)]
pub enum SolveGame {
    /// Pawnless chess endgame (KRK, KQK, KRKB, KRKN, KQKR, any K+X vs K(+Y)).
    Chess {
        /// Endgame name, e.g. KQKR (German letters D T L S also accepted).
        endgame: String,
        /// Depth metric: dtm (to mate), dtc (to mate or winning capture), stroehlein
        /// (to the capture of the king = mate + 1, or of the black piece; thesis §9).
        #[arg(long, default_value = "dtm")]
        metric: String,
        /// A position to evaluate, e.g. "Ka2 Qa3 / Ke4 Rh2", "w Ka2 Da3, s Ke4 Th2" or a FEN board.
        #[arg(long)]
        position: Option<String>,
        /// The position has Black to move (default White).
        #[arg(long)]
        black: bool,
    },
    /// Nim: value and all winning moves (or all moves to value --to).
    Nim {
        /// Pile sizes.
        #[arg(required = true)]
        piles: Vec<usize>,
        /// Target value (0 = winning moves).
        #[arg(long, default_value_t = 0)]
        to: u32,
    },
    /// Heap games: single-heap values and, with --heaps, a position's value and winning moves.
    Grundy {
        /// lasker, grundy (split into unequal heaps), nim, subtraction (with --set), octal (with --code).
        rule: String,
        /// Largest heap.
        #[arg(long, default_value_t = 30)]
        upto: usize,
        /// Subtraction set, e.g. 1,3,4.
        #[arg(long, value_delimiter = ',')]
        set: Vec<usize>,
        /// Octal code, e.g. 0.07 (Cram on a strip).
        #[arg(long)]
        code: Option<String>,
        /// A position (heap sizes) to evaluate.
        #[arg(long, num_args = 1..)]
        heaps: Vec<usize>,
    },
    /// One-pile subtraction game: misère μ, normal ν and Grundy γ for 0..=upto.
    Subtraction {
        #[arg(long, value_delimiter = ',', required = true)]
        set: Vec<usize>,
        #[arg(long, default_value_t = 20)]
        upto: usize,
    },
    /// Chomp on an m×n board (m columns, n rows), e.g. 4x3.
    Chomp { board: String },
    /// Cram ("Fliesentetris") on a rows×cols board, e.g. 4x5.
    Cram { board: String },
    /// Bridg-It / Shannon switching game: positions with potentials, the heuristic's analyses (thesis ch. 5).
    BridgIt(super::bridg_it::BridgItArgs),
    /// Pure Monte-Carlo agents MC(k) against MC(2k), exactly (thesis ch. 2; docs/mc-agents.md).
    Mc {
        #[command(subcommand)]
        game: super::mc::McGameArgs,
    },
    /// Hex position: winner, winning moves, edge-to-edge VCs, optional proof file.
    Hex(super::solve_hex::HexArgs),
    /// Poker-Nim position (piles, the mover's stack, the other player's stack).
    PokerNim {
        #[arg(long, value_delimiter = ',', required = true)]
        piles: Vec<u32>,
        #[arg(long, default_value_t = 0)]
        mover: u32,
        #[arg(long, default_value_t = 0)]
        other: u32,
    },
}

// Long: one match over the solve subcommands, each arm a library call and its printing
pub fn run(game: SolveGame) -> Result<()> {
    match game {
        SolveGame::Chess { endgame, metric, position, black } => chess(&endgame, &metric, position.as_deref(), !black),
        SolveGame::Mc { game } => super::mc::run(game),
        SolveGame::BridgIt(args) => super::bridg_it::run(args),
        SolveGame::Hex(args) => super::solve_hex::run(args),
        SolveGame::Nim { piles, to } => heap_position(&HeapRule::Nim, &piles, to),
        SolveGame::Grundy { rule, upto, set, code, heaps } => {
            let rule = heap_rule(&rule, set, code)?;
            let upto = upto.max(heaps.iter().copied().max().unwrap_or(0));
            if upto > 2_000_000 {
                return Err(invalid("--upto is limited to 2 000 000 heaps (quadratic time)"));
            }
            if !heaps.is_empty() {
                return heap_position(&rule, &heaps, 0);
            }
            let started = std::time::Instant::now();
            let options = heap_table_options(&rule, upto);
            if options > LONG_HEAP_JOB {
                eprintln!(
                    "γ(0..={upto}) examines {options} options (quadratic in --upto; 10^8 to 10^9 per second): progress lines follow"
                );
            }
            let g = heap_values_with_progress(&rule, upto, &super::progress::progress_auto());
            println!("γ(0..={upto}) in {:.2} s", started.elapsed().as_secs_f64());
            for (x, v) in g.iter().enumerate().take(200) {
                println!("{x}\t{v}");
            }
            let zeros: Vec<String> = (0..=upto).filter(|&x| g[x] == 0).map(|x| x.to_string()).collect();
            println!(
                "value-0 heaps: {} (of them {} shown) {}",
                zeros.len(),
                zeros.len().min(50),
                zeros[..zeros.len().min(50)].join(" ")
            );
            Ok(())
        }
        SolveGame::Subtraction { set, upto } => {
            if set.is_empty() || set.contains(&0) || upto > 10_000_000 {
                return Err(invalid("--set needs positive move sizes; --upto at most 10 000 000"));
            }
            let t = subtraction_table(&set, upto);
            println!("x\tμ\tν\tγ");
            (0..=upto).for_each(|x| println!("{x}\t{}\t{}\t{}", t.misere[x], t.normal[x], t.grundy[x]));
            Ok(())
        }
        SolveGame::Chomp { board } => {
            let (m, n) = board_size(&board)?;
            let s = chomp_rectangle(m, n)?;
            println!(
                "Chomp {m}×{n}: γ = {}, {} positions, winning moves (column, row): {:?}",
                s.grundy, s.positions, s.winning_moves
            );
            Ok(())
        }
        SolveGame::Cram { board } => {
            let (r, c) = board_size(&board)?;
            let s = cram_with_progress(r, c, &super::progress::progress_auto())?;
            println!(
                "Cram {r}×{c}: γ = {}, {} regions solved (up to translation), winning first moves (squares, row-major): {:?}",
                s.grundy, s.positions, s.winning_moves
            );
            Ok(())
        }
        SolveGame::PokerNim { piles, mover, other } => {
            // Summed as u64: huge u32 values used to wrap and pass the check.
            let matches = piles.iter().map(|&p| p as u64).sum::<u64>() + mover as u64 + other as u64;
            if matches > 14 || piles.len() > 4 {
                return Err(invalid(
                    "Poker-Nim: at most 4 piles and 14 matches in all (the graph of every reachable state is built)",
                ));
            }
            let start = PokerNim { piles: piles.clone(), mover, other };
            let g = ExplicitGraph::explore([start.clone()], |s| Node::Moves(s.moves()));
            let (outcomes, loopy) = solve_loopy(&g);
            let v = g.index_of(&start).expect("start");
            println!(
                "Poker-Nim {piles:?}, mover {mover}, other {other}: {} (W/L = mover wins/loses, plies to the end), generalised value {}; {} states",
                outcomes[v].label(),
                loopy[v].label(),
                g.len()
            );
            Ok(())
        }
    }
}

fn heap_rule(name: &str, set: Vec<usize>, code: Option<String>) -> Result<HeapRule> {
    match name {
        "lasker" => Ok(HeapRule::Lasker),
        "grundy" => Ok(HeapRule::GrundySplit),
        "nim" => Ok(HeapRule::Nim),
        "subtraction" if !set.is_empty() && !set.contains(&0) => Ok(HeapRule::Subtraction(set)),
        "subtraction" => Err(invalid("subtraction needs --set with positive sizes, e.g. --set 1,3,4")),
        "octal" => code
            .as_deref()
            .and_then(HeapRule::octal)
            .ok_or_else(|| invalid("octal needs --code like 0.07 (digits 0–7)")),
        other => {
            Err(invalid(format!("unknown heap game `{other}`; accepted: lasker, grundy, nim, subtraction, octal")))
        }
    }
}

fn heap_position(rule: &HeapRule, heaps: &[usize], target: u32) -> Result<()> {
    let largest = heaps.iter().copied().max().unwrap_or(0);
    if largest > 100_000 {
        return Err(invalid("heaps up to 100 000 are accepted"));
    }
    let g = heap_values(rule, largest);
    let (value, moves) = sum_moves(rule, heaps, &g, target);
    let verdict = if value == 0 { "the player to move loses" } else { "the player to move wins" };
    println!("position {heaps:?}: γ = {value} ({verdict})");
    println!("moves to value {target}: {}", moves.len());
    for m in moves {
        println!("  heap {} ({}) → {:?}", m.heap, heaps[m.heap], m.leaves);
    }
    Ok(())
}

fn board_size(text: &str) -> Result<(usize, usize)> {
    let parsed =
        text.split_once(['x', 'X', '×']).and_then(|(a, b)| Some((a.trim().parse().ok()?, b.trim().parse().ok()?)));
    parsed.ok_or_else(|| invalid(format!("cannot read the board `{text}`; write e.g. 4x3")))
}

fn chess(name: &str, metric: &str, position: Option<&str>, white_to_move: bool) -> Result<()> {
    let endgame = Endgame::parse(name)?;
    let metric = Metric::parse(metric)?;
    let pieces = endgame.pieces();
    let pos = position.map(|p| parse_position(p, &pieces, endgame.men(), white_to_move)).transpose()?;
    // The endgame tables have no estimate of their own to check first, so the
    // watch starts now rather than after the grace a whole command gets (a
    // small table is built within it, and would pass the budget unseen).
    super::memory_guard::guard_memory("the game-graph solver".to_string());
    let mut base = Tablebase::new();
    let table = base.table(endgame, metric);
    let (w, b) = (table.summary(true), table.summary(false));
    println!("{} ({}), solved in {:.2} s", endgame.name(), metric.name(), table.seconds);
    println!(
        "  White to move: {} legal, {} won, {} drawn, {} lost; max / positions / classes = {}",
        w.legal,
        w.won,
        w.drawn,
        w.lost,
        w.max_triple()
    );
    println!(
        "  Black to move: {} legal, {} lost, {} drawn, {} won; deepest loss {}",
        b.legal,
        b.lost,
        b.drawn,
        b.won,
        b.max_lost().map_or("—".into(), |m| m.to_string())
    );
    if w.representatives_at_max.len() <= 40 {
        println!("  classes at the maximum: {}", w.representatives_at_max.join("; "));
    }
    if let Some(pos) = pos {
        let value = table.probe(&pos).expect("legal position");
        let depth = value.winner_moves().map_or("draw".to_string(), |z| {
            format!("{} in {z}", if value.is_win() { "side to move wins" } else { "side to move loses" })
        });
        println!("{}: {depth}", pos.describe(&pieces));
        for (m, v) in table.moves(&pos, &base) {
            println!(
                "  {:<6} {}",
                m.label(&pieces),
                v.winner_moves().map_or("draw".into(), |z| format!("{} {z}", if v.is_win() { "win" } else { "loss" }))
            );
        }
        println!("  optimal line: {}", table.principal_variation(&pos, &base).join(" "));
    }
    Ok(())
}

/// Options beyond which a heap-game table takes minutes or more (about 10^8
/// options per second per core), so the command says so before it starts.
const LONG_HEAP_JOB: u64 = 10_000_000_000;
