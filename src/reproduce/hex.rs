//! `reproduce hex`: the opening maps of empty Hex boards (each opening solved,
//! its proof replayed by the independent checker) and the checks of seed 004
//! (`../shared/reference/seed004-hex.md` §9) into `results/tables/hex.{md,json}`
//! and `results/figures/hex-openings.svg`. Deterministic: node counts, no times
//! (times are returned to the caller for its log).

use super::hex_checkpoint::{HexRunId, OpeningCheckpoint, OpeningRecord};
use crate::cpu_time::thread_cpu_seconds;
use crate::error::{Result, invalid};
use crate::output::layout;
use crate::progress::Progress;
use crate::two_player::connection::hex::board::{Board, Colour};
use crate::two_player::connection::hex::check::check_proof;
use crate::two_player::connection::hex::graph::{HexGraph, figure_4};
use crate::two_player::connection::hex::hsearch::{Limits, h_search};
use crate::two_player::connection::hex::plain::graph_connects;
use crate::two_player::connection::hex::position::Position;
use crate::two_player::connection::hex::seed_checks::{self as checks, Rng, Soundness};
use crate::two_player::connection::hex::solver::Solver;
use crate::two_player::connection::hex::witness;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One empty n×n board: per opening (cell order) Black's result and the cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct OpeningMap {
    pub n: usize,
    pub black_wins: Vec<bool>,
    pub nodes: Vec<u64>,
    pub proof_steps: Vec<usize>,
    pub proofs_checked: bool,
    /// The solver that made the counts ([`Solver::describe`]; empty in files written before it was recorded).
    #[serde(default)]
    pub solver: String,
    #[serde(skip)]
    pub seconds: Vec<f64>,
}

/// The checks of the seed with their verdicts.
#[derive(Clone, Debug, Serialize)]
pub struct SeedChecks {
    pub figure_4: Vec<(String, String, bool)>,
    pub soundness: Vec<(String, Soundness)>,
    pub satz_5_4: (usize, usize),
    pub dvls: (usize, usize, usize),
    pub dvls_boards: Vec<checks::EdgeDvls>,
    /// Def 7.1 within Def 6.8 on the Kor 6.11 graphs and the empty boards: (pairs, VVLS, VVLS without DVLS).
    pub vvls: (usize, usize, usize),
    pub smallest_unproved: Vec<String>,
    pub smallest_cells_searched: usize,
}

/// Solves every opening of the empty n×n board and checks each proof.
pub fn opening_map(n: usize) -> Result<OpeningMap> {
    opening_map_of(n, &(0..n * n).collect::<Vec<_>>(), None, &Progress::none())
}

/// The settings of the solver that solves the openings of n×n ([`Solver::describe`]).
pub fn solver_text(n: usize) -> String {
    Solver::new(Board::new(n, n).expect("a board side 1 to 11")).describe()
}

/// The identity of a map run (the checkpoint's line 1): a checkpoint of another
/// solver (settings, limits) or program version is refused.
pub(super) fn run_id(n: usize, cells: &[usize]) -> HexRunId {
    HexRunId {
        program: "renyi-search reproduce hex".into(),
        version: crate::VERSION.to_string(),
        n,
        solver: solver_text(n),
        openings: cells.to_vec(),
        split: false,
    }
}

/// [`opening_map`] for the openings `cells` only (in that order), each solved
/// opening appended to the `checkpoint` file (if any; resumed from it, removed
/// at the end) and reported to `progress` (status: the opening; a note per opening).
fn opening_map_of(n: usize, cells: &[usize], checkpoint: Option<&Path>, progress: &Progress) -> Result<OpeningMap> {
    let board = Board::new(n, n)?;
    let mut saved = OpeningCheckpoint::open(checkpoint, &run_id(n, cells))?;
    if saved.resumed() > 0 {
        progress.note(&format!("hex {n}x{n}: resumed with {} solved openings from the checkpoint", saved.resumed()));
    }
    let mut map = OpeningMap {
        n,
        black_wins: Vec::new(),
        nodes: Vec::new(),
        proof_steps: Vec::new(),
        proofs_checked: true,
        solver: solver_text(n),
        seconds: Vec::new(),
    };
    progress.begin(&format!("hex {n}x{n} openings"), Some(cells.len() as u64));
    for &cell in cells {
        let record = match saved.finished(cell) {
            Some(r) => r.clone(),
            None => {
                progress.status(&format!("opening {}", board.cell_name(cell)));
                let record = solve_opening(&board, cell, &saved.key)?;
                saved.append(&record)?;
                record
            }
        };
        progress.note(&opening_note(&board, &record));
        progress.advance(1);
        map.seconds.push(record.seconds);
        map.proofs_checked &= record.proof_checked;
        map.black_wins.push(record.black_wins);
        map.nodes.push(record.nodes);
        map.proof_steps.push(record.proof_steps);
    }
    progress.end();
    saved.finish()?;
    Ok(map)
}

/// The progress note of a solved opening.
pub(super) fn opening_note(board: &Board, record: &OpeningRecord) -> String {
    format!(
        "hex {}x{} {}: {} wins, {} positions, {} proof steps, {:.1} CPU-s, {:.1} s",
        board.cols,
        board.rows,
        board.cell_name(record.opening),
        if record.black_wins { "black" } else { "white" },
        record.nodes,
        record.proof_steps,
        record.cpu_seconds,
        record.seconds
    )
}

/// Solves, proves and checks one opening of the empty board (CPU seconds: this thread's).
pub(super) fn solve_opening(board: &Board, cell: usize, run: &str) -> Result<OpeningRecord> {
    solve_stones(board, cell, None, run)
}

/// Solves, proves and checks the position after the opening `cell` and White's `reply` (Black to move),
/// with a solver of its own: the unit of a split map job (`hex_map.rs`); `black_wins`: Black wins it.
pub fn solve_reply(board: &Board, cell: usize, reply: usize, run: &str) -> Result<OpeningRecord> {
    solve_stones(board, cell, Some(reply), run)
}

/// [`solve_opening`] or, with a reply, [`solve_reply`].
fn solve_stones(board: &Board, cell: usize, reply: Option<usize>, run: &str) -> Result<OpeningRecord> {
    let started = std::time::Instant::now();
    let cpu = thread_cpu_seconds();
    let mut solver = Solver::new(board.clone());
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, cell)?;
    if let Some(r) = reply {
        p.play(Colour::White, r)?;
    }
    let proof = solver.proof(&p).map_err(|_| invalid("hex opening: node budget exhausted"))?;
    let proof_checked = check_proof(&proof).is_ok() && proof.position == p;
    Ok(OpeningRecord {
        run: run.to_string(),
        opening: cell,
        reply,
        black_wins: proof.winner == Colour::Black,
        nodes: solver.nodes,
        proof_steps: proof.steps.len(),
        proof_checked,
        seconds: started.elapsed().as_secs_f64(),
        cpu_seconds: cpu.zip(thread_cpu_seconds()).map_or(0.0, |(a, b)| b - a),
    })
}

/// The replies of a split job to the opening `cell`: every free cell, in the order of
/// [`Solver::reply_order`] at the opening (White to move), so that a winning reply of White's
/// likely comes first.
pub fn replies(board: &Board, cell: usize) -> Result<Vec<usize>> {
    let mut p = Position::empty(board.clone());
    p.play(Colour::Black, cell)?;
    Ok(Solver::new(board.clone()).reply_order(&p))
}

/// The record of the opening `cell` from the records of its replies (`order` as [`replies`]
/// gives it, `of` a reply's record): the replies in order up to White's first winning one
/// (then White's) or all of them (then Black's), with the positions, proof steps and times
/// summed and the proofs checked if every one is; with the number of replies it rests on.
/// None while a reply in that stretch has no record.
pub fn opening_of_replies(
    cell: usize,
    order: &[usize],
    run: &str,
    of: impl Fn(usize) -> Option<OpeningRecord>,
) -> Option<(OpeningRecord, usize)> {
    let mut sum = OpeningRecord {
        run: run.to_string(),
        opening: cell,
        reply: None,
        black_wins: true,
        nodes: 0,
        proof_steps: 0,
        proof_checked: true,
        seconds: 0.0,
        cpu_seconds: 0.0,
    };
    for (i, &reply) in order.iter().enumerate() {
        let r = of(reply)?;
        (sum.nodes, sum.proof_steps) = (sum.nodes + r.nodes, sum.proof_steps + r.proof_steps);
        (sum.seconds, sum.cpu_seconds) = (sum.seconds + r.seconds, sum.cpu_seconds + r.cpu_seconds);
        sum.proof_checked &= r.proof_checked;
        if !r.black_wins {
            sum.black_wins = false;
            return Some((sum, i + 1));
        }
    }
    Some((sum, order.len()))
}

/// The largest opening map replayed from the committed, sealed hex.json
/// (issue 52: its 25 solves and proof checks take about a minute of CPU on
/// 5×5; `reproduce --full` recomputes them): which openings were solved and
/// checked again here, and whether result, nodes and proof steps agree.
#[derive(Clone, Debug)]
pub struct ReplayedMap {
    pub n: usize,
    pub openings: Vec<usize>,
    pub agree: usize,
}

/// Openings of the replayed map re-solved by default.
const REPLAY_SAMPLES: usize = 2;

/// The committed map of `n`×`n` (seal checked by the caller) with
/// [`REPLAY_SAMPLES`] openings solved, proved and compared again: the first
/// and a second one from a fixed sequence.
fn replay_map(dir: &Path, n: usize) -> Result<(OpeningMap, ReplayedMap)> {
    let path = dir.join("tables/hex.json");
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let (maps, _): (Vec<OpeningMap>, serde_json::Value) =
        serde_json::from_str(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let committed = maps
        .into_iter()
        .find(|m| m.n == n && m.black_wins.len() == n * n && m.nodes.len() == n * n && m.proof_steps.len() == n * n)
        .ok_or_else(|| invalid(format!("{}: no complete {n}x{n} map", path.display())))?;
    if committed.solver != solver_text(n) {
        return Err(invalid(format!(
            "{}: the {n}x{n} map was made by another solver ({:?}); `reproduce --full hex` makes it with this one",
            path.display(),
            committed.solver
        )));
    }
    let openings: Vec<usize> = [0, (7 * n * n) / 11].into_iter().take(REPLAY_SAMPLES).collect();
    let again = opening_map_of(n, &openings, None, &Progress::none())?;
    let agree = openings
        .iter()
        .enumerate()
        .filter(|&(i, &cell)| {
            again.proofs_checked
                && again.black_wins[i] == committed.black_wins[cell]
                && again.nodes[i] == committed.nodes[cell]
                && again.proof_steps[i] == committed.proof_steps[cell]
        })
        .count();
    Ok((committed, ReplayedMap { n, openings, agree }))
}

fn figure_4_checks() -> Vec<(String, String, bool)> {
    let (g, x, y) = figure_4();
    let found = h_search(&g, Limits::EXHAUSTIVE);
    let mut sound = Soundness::default();
    checks::soundness_on_graph(&g, Limits::EXHAUSTIVE, &mut sound);
    let d = g.names.iter().position(|n| n == "d'").expect("node d'");
    let from_d: Vec<&str> = ["i'", "h'", "b", "a", "f"]
        .into_iter()
        .filter(|z| found.vcs(d, g.names.iter().position(|n| n == z).expect("node")).contains(&0))
        .collect();
    vec![
        ("nodes, edges".into(), format!("{}, {}", g.len(), g.edge_count()), g.len() == 24 && g.edge_count() == 32),
        (
            "White connects x–y with Black to move (exact)".into(),
            "yes".into(),
            graph_connects(&g, x, y, g.free(), false),
        ),
        (
            "x–y VCs / SCs by exhaustive H-search".into(),
            format!("{} / {}", found.vcs(x, y).len(), found.scs(x, y).len()),
            found.vcs(x, y).is_empty() && found.scs(x, y).is_empty(),
        ),
        (
            "minimal VC / SC carriers over all pairs, unsound".into(),
            format!("{} / {}, {}", sound.vcs, sound.scs, sound.unsound),
            sound.vcs == 186 && sound.scs == 568 && sound.unsound == 0,
        ),
        ("(d′, ∅, z) for z = i′ h′ b a f".into(), from_d.join(" "), from_d.len() == 5),
    ]
}

/// The seed's checks; `full` searches bigger instances.
pub fn seed_checks(full: bool) -> SeedChecks {
    let mut rng = Rng::new(2003);
    let mut soundness = Vec::new();
    for (c, r) in [(2, 2), (3, 2), (3, 3)] {
        let board = Board::new(c, r).expect("small board");
        let all = checks::all_positions(&board);
        soundness.push((
            format!("all {c}x{r} positions, exhaustive"),
            checks::soundness_on_positions(&all, Limits::EXHAUSTIVE),
        ));
    }
    for (n, stones, count, limits, mode) in [
        (4, 5, if full { 400 } else { 60 }, Limits::EXHAUSTIVE, "exhaustive"),
        (5, 6, if full { 100 } else { 10 }, Limits::SOLVER, "bounded"),
        (6, 8, if full { 40 } else { 3 }, Limits::SOLVER, "bounded"),
    ] {
        let board = Board::new(n, n).expect("board");
        let sample = checks::random_positions(&board, stones, count, &mut rng);
        let name = format!("{count} random {n}x{n} positions with {stones} stones, {mode}");
        soundness.push((name, checks::soundness_on_positions(&sample, limits)));
    }
    let graphs = if full { 300 } else { 40 };
    let satz_5_4 =
        (0..graphs).filter(|k| checks::av_plus_unneeded(&checks::random_graph(9 + k % 3, 3, 30, &mut rng))).count();
    let (mut dvls, mut vvls) = ((0, 0, 0), (0, 0, 0));
    let mut add_vvls = |g: &HexGraph| {
        let (p, v, bad) = checks::vvls_within_dvls(g);
        vvls = (vvls.0 + p, vvls.1 + v, vvls.2 + bad);
    };
    for k in 0..graphs {
        let graph = checks::random_graph(7 + k % 3, 2 * (k % 2), 35, &mut rng);
        let (pairs, differ) = checks::dvls_agrees(&graph);
        dvls = (dvls.0 + 1, dvls.1 + pairs, dvls.2 + differ);
        add_vvls(&graph);
    }
    for board in checks::empty_boards(12) {
        for player in [Colour::Black, Colour::White] {
            add_vvls(&HexGraph::from_position(&Position::empty(board.clone()), player).graph);
        }
    }
    let max_cells = if full { 12 } else { 9 };
    // The fast search (witness.rs); the same witnesses as `checks::smallest_unproved` (tests/hex_witness.rs).
    let searched = witness::smallest_witnesses(max_cells, &Progress::none());
    let smallest = searched
        .last()
        .map_or(&[][..], |r| r.witnesses.as_slice())
        .iter()
        .map(|u| {
            format!(
                "{} to connect, {} to move:\n{}",
                u.connector.name(),
                u.position.to_move.name(),
                u.position.diagram()
            )
        })
        .collect();
    SeedChecks {
        figure_4: figure_4_checks(),
        soundness,
        satz_5_4: (graphs, satz_5_4),
        dvls,
        dvls_boards: checks::dvls_on_empty_boards(12),
        vvls,
        smallest_unproved: smallest,
        smallest_cells_searched: max_cells,
    }
}

/// The files `reproduce hex` writes (and seals under `--full`), relative to the results directory.
pub const FILES: [&str; 3] = ["tables/hex.json", "tables/hex.md", "figures/hex-openings.svg"];

/// Computes the maps of 1×1 … `max_n`×`max_n` and the checks (`full`: the
/// larger samples); [`super::hex_markdown::write`] writes them. With `replay_largest` the
/// `max_n`×`max_n` map is replayed from the committed, sealed files (two
/// openings solved again, the seal checked first) instead of solved in full, so
/// that the same bytes are written; without it the files are sealed anew. Maps of 6×6 and larger keep
/// a checkpoint (`runs/hex-NxN.ckpt` under `dir`, removed when done), so a
/// stopped run resumes with the openings not yet solved.
pub fn reproduce(
    dir: &Path,
    max_n: usize,
    full: bool,
    replay_largest: bool,
    progress: &Progress,
) -> Result<(Vec<OpeningMap>, SeedChecks, Option<ReplayedMap>)> {
    let files: Vec<String> = FILES.iter().map(|f| f.to_string()).collect();
    let mut replayed = None;
    let mut maps = Vec::new();
    for n in 1..=max_n {
        if replay_largest && n == max_n {
            super::sealed::check_seal(dir, "hex", &files)?;
            let (map, sample) = replay_map(dir, n)?;
            maps.push(map);
            replayed = Some(sample);
        } else {
            let checkpoint = (n >= 6).then(|| layout::runs(dir, &format!("hex-{n}x{n}.ckpt")));
            maps.push(opening_map_of(n, &(0..n * n).collect::<Vec<_>>(), checkpoint.as_deref(), progress)?);
        }
    }
    Ok((maps, seed_checks(full), replayed))
}
