//! `solve hex`: a Hex position → winner, winning moves, edge VCs, optional proof;
//! and `verify --hex FILE`: the independent check of a proof file.

use super::solve_hex_resume::Resume;
use clap::Args;
use renyi_search::error::{Error, Result, invalid};
use renyi_search::output::same_file::{refuse_clashes, refuse_stdout};
use renyi_search::output::target::writes_in_place;
use renyi_search::two_player::connection::hex::board::{Board, Colour, MAX_SIDE, cells_of};
use renyi_search::two_player::connection::hex::check::{CheckReport, check_proof};
use renyi_search::two_player::connection::hex::forget::Forget;
use renyi_search::two_player::connection::hex::hsearch::Limits;
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::proof::Proof;
use renyi_search::two_player::connection::hex::solver::{Aborted, Solver};
use std::path::{Path, PathBuf};

#[derive(Args)]
pub struct HexArgs {
    /// Board size: N or CxR (columns x rows), sides 1 to 11.
    #[arg(long, default_value = "5")]
    size: String,
    /// Black stones, comma-separated cells (a1,b2,…).
    #[arg(long, default_value = "")]
    black: String,
    /// White stones, comma-separated cells.
    #[arg(long, default_value = "")]
    white: String,
    /// Side to move: black or white (default: Black if the stone counts are equal, else White).
    #[arg(long)]
    to_move: Option<String>,
    /// Read the position from an SGF file (FF[4], GM[11]) instead.
    #[arg(long)]
    sgf: Option<PathBuf>,
    /// Read the position from a text diagram (`.`, `B`, `W`; one row per line) instead.
    #[arg(long)]
    diagram: Option<PathBuf>,
    /// Write the proof to this file (checked by `verify --hex FILE`).
    #[arg(long)]
    proof: Option<PathBuf>,
    /// Name one winning move (the proof's, confirmed by the solver) instead of
    /// deciding every move of the side to move, which can take far longer.
    #[arg(long)]
    one_move: bool,
    /// Stop after this many searched positions per question (with --checkpoint: in this run, the
    /// checkpoint written first; with --forget-above alone: per answer, the proof or the moves).
    #[arg(long, default_value_t = 50_000_000)]
    budget: u64,
    /// Resume the solve from this file if it exists, and write the search's tables there (every
    /// --checkpoint-every seconds, when --budget stops the run, and when the solve is finished: the
    /// file is then left holding the solved tables, so the same command answers again without
    /// searching; remove it by hand). A file of another position or solver settings, or a damaged
    /// one, is refused. Ctrl-C or a kill leaves the last whole checkpoint.
    #[arg(long)]
    checkpoint: Option<PathBuf>,
    /// With --checkpoint: seconds between checkpoints (written after the slice that passes them).
    #[arg(long, default_value_t = 600, requires = "checkpoint")]
    checkpoint_every: u64,
    /// With --checkpoint or --forget-above: the search runs in slices of at most this many positions
    /// per question (10 000 if not given), each restarting df-pn at the root from its stored numbers.
    #[arg(long)]
    slice: Option<u64>,
    /// Bounded tables: after each slice, forget the undecided positions above N (smallest proof plus
    /// disproof number first; never a decided one), so the tables stop growing. Changes the search
    /// path (a checkpoint of another bound or slice is refused); the answer is as sound (its proof is
    /// checked). Runs the search in slices, with or without --checkpoint.
    #[arg(long, value_name = "N")]
    forget_above: Option<usize>,
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|source| Error::Io { path: path.display().to_string(), source })
}

/// Parses `N` or `CxR`.
pub fn parse_size(text: &str) -> Result<Board> {
    let bad = || invalid(format!("board size {text:?}: give N or CxR with sides 1 to {MAX_SIDE}"));
    let (c, r) = text.split_once(['x', 'X']).unwrap_or((text, text));
    Board::new(c.trim().parse().map_err(|_| bad())?, r.trim().parse().map_err(|_| bad())?)
}

fn position(args: &HexArgs) -> Result<Position> {
    let mover = args.to_move.as_deref().map(Colour::parse).transpose()?;
    let mut p = if let Some(path) = &args.sgf {
        Position::from_sgf(&read(path)?)?
    } else if let Some(path) = &args.diagram {
        Position::from_diagram(&read(path)?, Colour::Black)?
    } else {
        Position::from_lists(parse_size(&args.size)?, &args.black, &args.white, Colour::Black)?
    };
    if args.sgf.is_none() {
        let more_black = p.black.count_ones() > p.white.count_ones();
        p.to_move = if more_black { Colour::White } else { Colour::Black };
    }
    if let Some(m) = mover {
        p.to_move = m;
    }
    Ok(p)
}

/// The flags of `list` that were given, with their paths.
fn present<'a>(list: [(&'static str, &'a Option<PathBuf>); 2]) -> Vec<(&'static str, &'a Path)> {
    list.into_iter().filter_map(|(flag, p)| Some((flag, p.as_deref()?))).collect()
}

/// Refuses a checkpoint path that is not a file of its own: stdout, a device, the proof or an input.
fn refuse_checkpoint_clashes(args: &HexArgs) -> Result<()> {
    let Some(c) = &args.checkpoint else { return Ok(()) };
    refuse_stdout("--checkpoint", Some(c.as_path()))?;
    if c.is_dir() || (c.exists() && writes_in_place(c)) {
        return Err(invalid(format!("--checkpoint {}: not a regular file", c.display())));
    }
    if args.proof.as_deref() == Some(c.as_path()) {
        return Err(invalid(format!("--checkpoint and --proof are the same file {}: give two paths", c.display())));
    }
    let inputs = present([("--sgf", &args.sgf), ("--diagram", &args.diagram)]);
    refuse_clashes(&inputs, &present([("--checkpoint", &args.checkpoint), ("--proof", &args.proof)]))
}

/// `task` on the solver: at once, in slices with the checkpoint of `resume`, or in slices that
/// forget ([`Solver::forget`]) without a checkpoint (`--budget` then counts the task's positions).
fn answer<T>(
    solver: &mut Solver,
    resume: &mut Option<Resume>,
    budget: u64,
    mut task: impl FnMut(&mut Solver) -> std::result::Result<T, Aborted>,
) -> Result<T> {
    let no_answer = || invalid(format!("no answer within --budget {budget} positions"));
    match (resume, solver.forget) {
        (Some(r), _) => r.run(solver, task),
        (None, Some(f)) => {
            let start = solver.nodes;
            solver.in_slices(f.slice, task, |s| if s.nodes - start >= budget { Err(no_answer()) } else { Ok(()) })
        }
        (None, None) => task(solver).map_err(|_| no_answer()),
    }
}

/// The solver of `args` for `board`: the node budget and the bound of --forget-above (checked);
/// the slice of --slice (checked).
fn solver_for(args: &HexArgs, board: Board) -> Result<(Solver, u64)> {
    let slice = args.slice.unwrap_or(10_000);
    if args.slice.is_some() && args.checkpoint.is_none() && args.forget_above.is_none() {
        return Err(invalid("--slice belongs to --checkpoint FILE or --forget-above N"));
    }
    if slice == 0 {
        return Err(invalid("--slice 0: give at least 1 position per slice"));
    }
    let mut solver = Solver::new(board);
    solver.budget = args.budget;
    if let Some(above) = args.forget_above {
        if above == 0 {
            return Err(invalid("--forget-above 0: keep at least 1 undecided position"));
        }
        solver.forget = Some(Forget { above, slice });
    }
    Ok((solver, slice))
}

pub fn run(args: HexArgs) -> Result<()> {
    let p = position(&args)?;
    refuse_checkpoint_clashes(&args)?;
    let (mut solver, slice) = solver_for(&args, p.board.clone())?;
    let started = std::time::Instant::now();
    let setting = (args.checkpoint_every, slice, args.budget);
    let mut resume = args.checkpoint.clone().map(|c| Resume::open(c, &p, &mut solver, setting)).transpose()?;
    // A bar on a terminal, a dated status line at most once a minute in a log (`hex/report.rs`).
    solver.progress = super::progress::progress_auto();
    solver.progress.begin("Hex solve, positions searched in this process:", None);
    let before = solver.nodes;
    let proof = answer(&mut solver, &mut resume, args.budget, |s| s.proof(&p))?;
    let moves = match (p.winner(), args.one_move) {
        (Some(_), _) => Vec::new(),
        (None, true) => {
            answer(&mut solver, &mut resume, args.budget, |s| one_winning_move(s, &p, &proof))?.into_iter().collect()
        }
        (None, false) => answer(&mut solver, &mut resume, args.budget, |s| s.winning_moves(&p))?,
    };
    if let Some(r) = &mut resume {
        r.write(&solver)?;
    }
    solver.progress.end();
    print!("{}", p.diagram());
    println!("{} to move; winner: {}", p.to_move.name(), proof.winner.name());
    let names: Vec<String> = moves.iter().map(|&c| p.board.cell_name(c)).collect();
    println!(
        "{} of {}: {}",
        if args.one_move { "a winning move (--one-move)" } else { "winning moves" },
        p.to_move.name(),
        if names.is_empty() { "none".into() } else { names.join(" ") }
    );
    for colour in [Colour::Black, Colour::White] {
        let vcs = solver.edge_vcs(&p, colour, Limits::SOLVER);
        let shown: Vec<String> = vcs.iter().take(5).map(|&c| format!("{{{}}}", p.board.set_names(c))).collect();
        println!("{} edge-to-edge VCs (bounded H-search): {} {}", colour.name(), vcs.len(), shown.join(" "));
    }
    let earlier = if before > 0 { format!(" ({before} of them in earlier runs)") } else { String::new() };
    println!(
        "{} positions searched{earlier}, {:.2} s; proof: {} steps",
        solver.nodes,
        started.elapsed().as_secs_f64(),
        proof.steps.len()
    );
    let report = check_proof(&proof)?;
    println!("proof checked: {}", checked_text(&report));
    if let Some(path) = &args.proof {
        renyi_search::output::write_atomic(path, proof.to_text().as_bytes())?;
        println!("proof written to {}", path.display());
    }
    Ok(())
}

/// One winning move of the side to move (none when it loses): the proof's
/// root move first, then the free cells in order, each confirmed by the solver.
fn one_winning_move(solver: &mut Solver, p: &Position, proof: &Proof) -> std::result::Result<Option<usize>, Aborted> {
    if proof.winner != p.to_move {
        return Ok(None);
    }
    for c in proof.root_move().into_iter().chain(cells_of(p.free())) {
        let mut child = p.clone();
        if child.play(p.to_move, c).is_ok() && (child.winner() == Some(p.to_move) || !solver.mover_wins(&child)?) {
            return Ok(Some(c));
        }
    }
    Ok(None)
}

/// `verify --hex FILE`.
pub fn verify(path: &Path) -> Result<()> {
    let proof = Proof::from_text(&read(path)?)?;
    let report = check_proof(&proof)?;
    println!("proof holds: {} wins ({})", proof.winner.name(), checked_text(&report));
    Ok(())
}

/// What the checker did: positions walked, carriers accepted by their H-search derivation, carrier games played.
fn checked_text(report: &CheckReport) -> String {
    format!(
        "{} positions walked, {} of {} carriers by their derivation, {} by a game on the carrier",
        report.positions,
        report.derived,
        report.carriers,
        report.carriers - report.derived
    )
}
