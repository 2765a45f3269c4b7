//! `reproduce --full hex-witness`: the search for the smallest real-board witnesses of
//! HEX ∖ HEXY (`../shared/reference/seed004-hex.md` §9.16, the library's `witness.rs`) as a
//! sealed target of its own, like the 7×7 map (`hex_map.rs`).
//!
//! Cell counts 1, 2, … are searched in turn, each in full (every board of that many cells,
//! stone counts ascending, a board stopped at the fewest stones with a witness); after each
//! the table `tables/hex-witness.{json,md}` is written and sealed, so the committed table
//! always states what is proven: "none up to N cells" or the witnesses of the first cell count
//! that has them. Then each board shape with both sides ≥ 2 and at most 16 cells ([`shapes`]) is
//! searched on its own for its fewest stones with a witness (the square 4×4 among them), the
//! table sealed after each. A later `--full` run resumes after the sealed table's last cell count (delete
//! the table to start from scratch). Without `--full` the sealed table is read and its witnesses
//! are verified again, each in seconds ([`reverify`]): by the df-pn solver with its proof replayed
//! by the independent checker, by plain minimax, and by exhaustive H-search again.

use crate::cpu_time::process_cpu_seconds;
use crate::error::{Result, invalid};
use crate::output::write_atomic;
use crate::progress::Progress;
use crate::two_player::connection::hex::board::{Board, Colour};
use crate::two_player::connection::hex::check::check_proof;
use crate::two_player::connection::hex::graph::HexGraph;
use crate::two_player::connection::hex::hsearch::{Limits, h_search};
use crate::two_player::connection::hex::plain::board_winner;
use crate::two_player::connection::hex::position::Position;
use crate::two_player::connection::hex::seed_checks::Unproved;
use crate::two_player::connection::hex::solver::Solver;
use crate::two_player::connection::hex::witness::{self, BoardCount, MAX_TABLE_CELLS};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// The target's name (its seal: `runs/sealed/hex-witness.sha256`).
pub const TARGET: &str = "hex-witness";

/// The files of the target (relative to the results directory).
pub fn files() -> Vec<String> {
    vec!["tables/hex-witness.json".into(), "tables/hex-witness.md".into()]
}

/// The sealed table: every cell count searched so far.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WitnessTable {
    /// Every board of at most this many cells is searched (the last to its witnesses' stone count).
    pub searched_to: usize,
    pub rows: Vec<CellsRow>,
    /// The witnesses of the last cell count (empty: none up to `searched_to` cells).
    pub witnesses: Vec<WitnessRow>,
    /// The machine of the last part searched.
    pub machine: String,
    /// Per board shape ([`shapes`]): the fewest stones with a witness, searched after the smallest.
    #[serde(default)]
    pub shapes: Vec<ShapeRow>,
}

/// One board shape searched on its own, stone counts ascending until one has witnesses.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ShapeRow {
    pub count: BoardCount,
    /// The witnesses with the fewest stones on this board (empty: none at any stone count).
    pub witnesses: Vec<WitnessRow>,
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
}

/// The boards of the per-shape part: both sides at least 2, at most [`MAX_TABLE_CELLS`] cells,
/// by cells, then columns (1×n and n×1 boards are decided by one stone).
pub fn shapes() -> Vec<Board> {
    (4..=MAX_TABLE_CELLS).flat_map(witness::boards_of).filter(|b| b.cols >= 2 && b.rows >= 2).collect()
}

/// One cell count: per board its counts, and what it cost.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct CellsRow {
    pub cells: usize,
    pub boards: Vec<BoardCount>,
    /// CPU seconds of the process (all threads) and wall seconds; the load average when it ended.
    pub cpu_seconds: f64,
    pub wall_seconds: f64,
    pub load: String,
}

/// A witness as the table stores it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WitnessRow {
    pub cols: usize,
    pub rows: usize,
    pub stones: usize,
    pub black: String,
    pub white: String,
    pub to_move: String,
    pub connector: String,
}

impl WitnessRow {
    fn of(u: &Unproved) -> WitnessRow {
        let p = &u.position;
        WitnessRow {
            cols: p.board.cols,
            rows: p.board.rows,
            stones: (p.black | p.white).count_ones() as usize,
            black: p.board.set_names(p.black),
            white: p.board.set_names(p.white),
            to_move: p.to_move.name().into(),
            connector: u.connector.name().into(),
        }
    }

    /// The position (validated).
    pub fn position(&self) -> Result<Position> {
        let board = Board::new(self.cols, self.rows)?;
        Position::from_lists(board, &self.black, &self.white, Colour::parse(&self.to_move)?)
    }
}

/// `reproduce --full hex-witness`: resumes after the sealed table's last cell count (from
/// scratch without a table whose seal holds) and searches cell counts up to
/// [`MAX_TABLE_CELLS`] until one has witnesses, writing and sealing the table after each.
pub fn reproduce_full(dir: &Path, progress: &Progress) -> Result<WitnessTable> {
    let mut table = committed(dir).ok().flatten().unwrap_or_default();
    if table.searched_to > 0 {
        progress.note(&format!("hex-witness: resumed after {} cells from the sealed table", table.searched_to));
    }
    while table.witnesses.is_empty() && table.searched_to < MAX_TABLE_CELLS {
        let cells = table.searched_to + 1;
        let (clock, cpu) = (Instant::now(), process_cpu_seconds());
        let result = witness::search_cells(cells, progress);
        let cpu_seconds = cpu.zip(process_cpu_seconds()).map_or(0.0, |(a, b)| b - a);
        table.rows.retain(|r| r.cells < cells);
        table.rows.push(CellsRow {
            cells,
            boards: result.boards,
            cpu_seconds,
            wall_seconds: clock.elapsed().as_secs_f64(),
            load: load(),
        });
        table.witnesses = result.witnesses.iter().map(WitnessRow::of).collect();
        table.searched_to = cells;
        table.machine = machine();
        progress.note(&format!(
            "hex-witness: {cells} cells searched, {} witnesses, {cpu_seconds:.1} CPU-s",
            table.witnesses.len()
        ));
        write(dir, &table)?;
    }
    for board in shapes().into_iter().skip(table.shapes.len()) {
        let (clock, cpu) = (Instant::now(), process_cpu_seconds());
        let (count, found) = witness::search_board(&board, board.cells(), progress);
        table.shapes.push(ShapeRow {
            count,
            witnesses: found.iter().map(WitnessRow::of).collect(),
            cpu_seconds: cpu.zip(process_cpu_seconds()).map_or(0.0, |(a, b)| b - a),
            wall_seconds: clock.elapsed().as_secs_f64(),
        });
        table.machine = machine();
        write(dir, &table)?;
    }
    Ok(table)
}

/// Writes and seals the table.
fn write(dir: &Path, table: &WitnessTable) -> Result<()> {
    let files = files();
    let json = serde_json::to_string_pretty(table).map_err(|e| invalid(e.to_string()))?;
    write_atomic(&dir.join(&files[0]), json.as_bytes())?;
    write_atomic(&dir.join(&files[1]), markdown(table).as_bytes())?;
    super::sealed::write_seal(dir, TARGET, &files)
}

/// The committed table if its seal holds (None if there is no seal yet).
pub fn committed(dir: &Path) -> Result<Option<WitnessTable>> {
    if !super::sealed::seal_path(dir, TARGET).exists() {
        return Ok(None);
    }
    let files = files();
    super::sealed::check_seal(dir, TARGET, &files)?;
    let path = dir.join(&files[0]);
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let table = serde_json::from_str(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    Ok(Some(table))
}

/// Each witness (the smallest, then those per shape) verified again, independently of the
/// search: the df-pn solver proves the connector wins and the checker replays its proof, plain
/// minimax agrees, and exhaustive H-search on the connector's graph derives no edge-to-edge VC.
/// True per witness iff all hold.
pub fn reverify(table: &WitnessTable) -> Result<Vec<bool>> {
    let mut out = Vec::new();
    for w in table.witnesses.iter().chain(table.shapes.iter().flat_map(|s| &s.witnesses)) {
        let p = w.position()?;
        let connector = Colour::parse(&w.connector)?;
        let mut solver = Solver::new(p.board.clone());
        let proved = solver
            .proof(&p)
            .is_ok_and(|proof| proof.winner == connector && proof.position == p && check_proof(&proof).is_ok());
        let pg = HexGraph::from_position(&p, connector);
        let (x, y) = pg.edges;
        let no_vc = x != y && h_search(&pg.graph, Limits::EXHAUSTIVE).vcs(x, y).is_empty();
        out.push(proved && board_winner(&p) == connector && p.to_move == connector.other() && no_vc);
    }
    Ok(out)
}

/// Per shape searched: the board and its fewest stones with a witness, or "none".
pub fn shapes_answer(table: &WitnessTable) -> String {
    let one = |r: &ShapeRow| {
        let b = &r.count;
        let fewest = if b.witnesses > 0 { format!("{} stones", b.stones) } else { "none".into() };
        format!("{}x{} {fewest}", b.cols, b.rows)
    };
    table.shapes.iter().map(one).collect::<Vec<_>>().join(", ")
}

/// The one-line answer of the table (for the summary and the docs).
pub fn answer(table: &WitnessTable) -> String {
    match table.witnesses.first() {
        None => format!("none on boards of up to {} cells", table.searched_to),
        Some(w) => format!(
            "{} witnesses with {} cells and {} stones (first: {}x{}), none on smaller boards",
            table.witnesses.len(),
            w.cols * w.rows,
            w.stones,
            w.cols,
            w.rows
        ),
    }
}

fn markdown(table: &WitnessTable) -> String {
    let mut md = String::from("# Hex: the smallest real-board witnesses of HEX ∖ HEXY (seed 004 §9.16)\n\n");
    md.push_str(
        "A witness: a position on an n×m board (both sides ≤ 11) that play can reach (B = W or B = W + 1 \
         stones, nobody connected), won with perfect play for the player who is not to move (the connector), \
         in which exhaustive H-search (Def 3.1, all rules to the fixpoint) on the connector's graph derives no \
         VC between its two edges. Fewest cells first, then fewest stones. Exact winners by one retrograde \
         pass per board; a bounded H-search (max OR 4, carriers ≤ 12) settles a position when it finds an \
         edge VC (the exhaustive run then finds one too); one position of each half-turn pair searched.\n\n",
    );
    md.push_str(&format!("Answer: {}.\n\n", answer(table)));
    md.push_str(
        "| cells | board | stones | positions | won for the connector | half-turn images | settled by bounded \
         H-search | exhaustive H-search | witnesses |\n|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &table.rows {
        if r.boards.is_empty() {
            md.push_str(&format!("| {} | (no board with both sides ≤ 11) | | | | | | | |\n", r.cells));
        }
        for b in &r.boards {
            md.push_str(&format!(
                "| {} | {}×{} | 0–{} | {} | {} | {} | {} | {} | {} |\n",
                r.cells, b.cols, b.rows, b.stones, b.positions, b.won, b.images, b.filtered, b.exhaustive, b.witnesses
            ));
        }
    }
    md.push_str("\n| cells | CPU-s | wall s | load at the end |\n|---|---|---|---|\n");
    for r in &table.rows {
        md.push_str(&format!("| {} | {:.1} | {:.1} | {} |\n", r.cells, r.cpu_seconds, r.wall_seconds, r.load));
    }
    for w in &table.witnesses {
        let diagram = w.position().map(|p| p.diagram()).unwrap_or_default();
        md.push_str(&format!(
            "\n{}×{}, {} stones, {} connects, {} to move:\n\n```\n{diagram}```\n",
            w.cols, w.rows, w.stones, w.connector, w.to_move
        ));
    }
    shapes_markdown(table, &mut md);
    md.push_str(&format!("\n{}\n", table.machine));
    md
}

/// The per-shape part: a row per board, then up to [`SHOWN`] diagrams per board.
fn shapes_markdown(table: &WitnessTable, md: &mut String) {
    if table.shapes.is_empty() {
        return;
    }
    md.push_str(
        "\n## Per board shape: the fewest stones with a witness\n\nEach board with both sides ≥ 2 and at most 16 \
         cells on its own, stone counts ascending until one has witnesses (to the full board if none has).\n\n\
         | board | fewest stones with a witness | witnesses | positions | won for the connector | half-turn images \
         | settled by bounded H-search | exhaustive H-search | CPU-s | wall s |\n|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for r in &table.shapes {
        let b = &r.count;
        let fewest = if b.witnesses > 0 { b.stones.to_string() } else { format!("none (0–{} searched)", b.stones) };
        md.push_str(&format!(
            "| {}×{} | {fewest} | {} | {} | {} | {} | {} | {} | {:.1} | {:.1} |\n",
            b.cols,
            b.rows,
            b.witnesses,
            b.positions,
            b.won,
            b.images,
            b.filtered,
            b.exhaustive,
            r.cpu_seconds,
            r.wall_seconds
        ));
    }
    for r in table.shapes.iter().filter(|r| !r.witnesses.is_empty()) {
        let (b, shown) = (&r.count, r.witnesses.len().min(SHOWN));
        md.push_str(&format!("\n### {}×{}: {} witnesses with {} stones", b.cols, b.rows, r.witnesses.len(), b.stones));
        md.push_str(&if shown < r.witnesses.len() {
            format!(" (the first {shown}; all in the JSON)\n")
        } else {
            "\n".into()
        });
        for w in &r.witnesses[..shown] {
            let diagram = w.position().map(|p| p.diagram()).unwrap_or_default();
            md.push_str(&format!("\n{} connects, {} to move:\n\n```\n{diagram}```\n", w.connector, w.to_move));
        }
    }
}

/// Diagrams shown per board shape.
const SHOWN: usize = 8;

/// The 1-minute load average.
fn load() -> String {
    let text = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    text.split_whitespace().next().unwrap_or("?").to_string()
}

/// Cores, processor, threads and the program's version.
fn machine() -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("?", |m| m.trim_start_matches([' ', '\t', ':']));
    let cores = std::thread::available_parallelism().map_or(0, |c| c.get());
    format!(
        "machine: {cores} cores ({model}), {} threads; renyi-search {}",
        rayon::current_num_threads(),
        crate::VERSION
    )
}
