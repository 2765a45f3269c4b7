//! The large opening maps, 7×7 and 8×8 (`reproduce --full hex-7x7`,
//! `hex-8x8`), as checkpointed jobs on all cores.
//!
//! The half turn maps the empty board to itself with the same colours and
//! edges, so an opening and its image have the same winner: one opening per
//! orbit is solved (25 of 49 on 7×7, 32 of 64 on 8×8), each proved and its
//! proof replayed by the independent checker; the image is reported "by the
//! half turn of" its representative, not as solved. The openings are solved
//! several at a time (one worker thread per core, each with its own
//! [`Solver`](crate::two_player::connection::hex::solver::Solver)); the
//! main thread appends each finished opening as one whole record to the
//! checkpoint (`hex_checkpoint.rs`), so a killed job resumes with the rest.
//! The map is assembled in cell order: it does not depend on the order in
//! which the openings finish. CPU seconds per opening are measured on the
//! worker's thread and go into the table with the machine line.

use super::hex::{opening_note, opening_of_replies, replies as replies_of, solve_opening, solve_reply};
use super::hex_checkpoint::{HexRunId, OpeningCheckpoint, OpeningRecord};
use crate::error::{Result, invalid};
use crate::output::{layout, write_atomic};
use crate::progress::Progress;
use crate::two_player::connection::hex::board::Board;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::Sender;

/// The image of `cell` under the half turn of the n×n board: (x, y) ↦ (n−1−x, n−1−y).
pub fn half_turn(n: usize, cell: usize) -> usize {
    n * n - 1 - cell
}

/// One opening per orbit of the half turn: the cells not after their image.
pub fn representatives(n: usize) -> Vec<usize> {
    (0..n * n).filter(|&c| c <= half_turn(n, c)).collect()
}

/// The order in which the openings are started, the costliest expected
/// first, so that the last ones to finish are short. The guide is our 6×6 map
/// (`results/tables/hex.md`): openings on White's edges (the first and last
/// column) cost most (a3 64 051 positions, f4 63 882, a6 12 586, f1 12 057),
/// those near the middle least; on 7×7 a4 took over 762 CPU-s against a1 134
/// and d4 191. So: nearer a White edge first, then nearer the middle row, then
/// cell order. Deterministic; the results do not depend on it.
pub fn schedule(n: usize, cells: &[usize]) -> Vec<usize> {
    let m = n as i64 - 1;
    let mut order = cells.to_vec();
    order.sort_by_key(|&c| {
        let (x, y) = ((c % n) as i64, (c / n) as i64);
        (-(2 * x - m).abs(), (2 * y - m).abs(), c)
    });
    order
}

/// The identity of a map job (the checkpoint's line 1): the openings as a
/// set in cell order, so the schedule may change between sessions; `split`:
/// solved reply by reply.
pub fn map_run_id(n: usize, cells: &[usize], split: bool) -> HexRunId {
    let mut id = super::hex::run_id(n, cells);
    id.program = format!("renyi-search reproduce hex-{n}x{n}");
    id.openings.sort_unstable();
    id.split = split;
    id
}

/// The board side from which `reproduce --full` solves a map's openings reply by reply.
pub const SPLIT_FROM: usize = 8;

/// The solved openings of a map job (cell → record), and whether it finished.
#[derive(Clone, Debug)]
pub struct MapRun {
    pub n: usize,
    pub solved: HashMap<usize, OpeningRecord>,
    /// The openings the job was to solve, in cell order.
    pub openings: Vec<usize>,
    /// Records taken from the checkpoint at the start (openings, or replies in a split run).
    pub resumed: usize,
    pub workers: usize,
    /// A split run: per solved opening, the number of replies its record rests on (empty otherwise).
    pub replies: HashMap<usize, usize>,
    /// A split run: the replies solved by this run (not taken from the checkpoint).
    pub new_replies: usize,
    /// Whether the run solved each opening reply by reply (boards from [`SPLIT_FROM`] up).
    pub split: bool,
}

impl MapRun {
    pub fn complete(&self) -> bool {
        self.openings.iter().all(|c| self.solved.contains_key(c))
    }
}

/// What a worker hands the main thread: a solved opening (split: with the number of replies it
/// rests on; not appended, its replies are), or a solved reply of a split run.
enum Done {
    Opening(OpeningRecord, Option<usize>),
    Reply(OpeningRecord),
}

/// What a worker shares of a map job.
struct Job<'a> {
    board: &'a Board,
    key: &'a str,
    stop: &'a AtomicBool,
    /// New units the job may still start.
    left: &'a AtomicUsize,
}

impl Job<'_> {
    /// Takes one new unit off the job's allowance (false: none left, or the job stops).
    fn take(&self) -> bool {
        !self.stop.load(Ordering::SeqCst)
            && self.left.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |k| k.checked_sub(1)).is_ok()
    }
}

/// Solves the openings `cells` of the empty n×n board with `workers` threads,
/// resuming from and appending to `checkpoint` (kept when the job stops
/// early). `split`: each opening reply by reply (one record per reply, see
/// [`solve_split`]). `max_new`: solve at most this many new units: openings
/// (the first of the schedule not yet recorded), or replies in a split run
/// (with several workers, which replies depends on their timing). Resident
/// memory is checked against the process's budget before each unit is
/// started; beyond it the job stops with an error, its checkpoint intact.
// Long: the worker threads and the main thread's loop share the job's state in one scope
pub fn run_map(
    n: usize,
    cells: &[usize],
    checkpoint: Option<&Path>,
    workers: usize,
    max_new: Option<usize>,
    split: bool,
    progress: &Progress,
) -> Result<MapRun> {
    let board = Board::new(n, n)?;
    let mut saved = OpeningCheckpoint::open(checkpoint, &map_run_id(n, cells, split))?;
    let (key, resumed, recorded) = (saved.key.clone(), saved.resumed(), saved.finished_replies());
    let mut solved: HashMap<usize, OpeningRecord> =
        cells.iter().filter_map(|&c| saved.finished(c).map(|r| (c, r.clone()))).collect();
    let (mut replies, mut orders) = (HashMap::new(), HashMap::new());
    for &c in cells.iter().filter(|_| split) {
        let order = replies_of(&board, c)?;
        if let Some((r, k)) = opening_of_replies(c, &order, &key, |r| recorded.get(&(c, r)).cloned()) {
            solved.insert(c, r);
            replies.insert(c, k);
        }
        orders.insert(c, order);
    }
    if resumed > 0 {
        progress.note(&format!("hex {n}x{n}: resumed with {resumed} records from the checkpoint"));
    }
    let mut todo: Vec<usize> = schedule(n, cells).into_iter().filter(|c| !solved.contains_key(c)).collect();
    let allowance = if split { max_new.unwrap_or(usize::MAX) } else { usize::MAX };
    todo.truncate(if split { usize::MAX } else { max_new.unwrap_or(usize::MAX) });
    let workers = workers.clamp(1, todo.len().max(1));
    let (next, stop, left) = (AtomicUsize::new(0), AtomicBool::new(false), AtomicUsize::new(allowance));
    let (mut failure, mut new_replies) = (None, 0);
    progress.begin(&format!("hex {n}x{n} openings"), Some(cells.len() as u64));
    progress.advance(solved.len() as u64);
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::channel::<Result<Done>>();
        for _ in 0..workers {
            let (send, todo, next, orders, recorded) = (send.clone(), &todo, &next, &orders, &recorded);
            let job = Job { board: &board, key: &key, stop: &stop, left: &left };
            scope.spawn(move || {
                while !job.stop.load(Ordering::SeqCst) {
                    let Some(&cell) = todo.get(next.fetch_add(1, Ordering::SeqCst)) else { break };
                    let outcome = match orders.get(&cell) {
                        Some(order) => solve_split(&job, cell, order, recorded, &send),
                        None => within_memory(n)
                            .and_then(|()| solve_opening(job.board, cell, job.key))
                            .map(|r| Some(Done::Opening(r, None))),
                    };
                    let go_on = match outcome {
                        Ok(Some(done)) => send.send(Ok(done)).is_ok(),
                        Ok(None) => false,
                        Err(e) => {
                            let _ = send.send(Err(e));
                            false
                        }
                    };
                    if !go_on {
                        break;
                    }
                }
            });
        }
        drop(send);
        for outcome in receive {
            let done = outcome.and_then(|done| match done {
                Done::Reply(r) => saved.append(&r).map(|()| {
                    new_replies += 1;
                    progress.note(&reply_note(&board, &r));
                }),
                Done::Opening(r, k) => if k.is_none() { saved.append(&r) } else { Ok(()) }.map(|()| {
                    progress.note(&opening_note(&board, &r));
                    progress.advance(1);
                    replies.extend(k.map(|k| (r.opening, k)));
                    solved.insert(r.opening, r);
                }),
            });
            if let Err(e) = done {
                stop.store(true, Ordering::SeqCst);
                failure.get_or_insert(e);
            }
        }
    });
    progress.end();
    if let Some(e) = failure {
        return Err(e);
    }
    let mut openings = cells.to_vec();
    openings.sort_unstable();
    let run = MapRun { n, solved, openings, resumed, workers, replies, new_replies, split };
    if run.complete() {
        saved.finish()?;
    }
    Ok(run)
}

/// One opening of a split run: its replies in `order` (every free cell, `replies_of`), each
/// taken from `recorded` (the checkpoint) or solved, proved and checked on its own
/// ([`solve_reply`], a fresh solver: its record does not depend on the others) and sent to be
/// appended as it finishes, until White's first winning reply or the last. The opening's record
/// ([`opening_of_replies`]); None when the job's allowance of new units ran out or it stops.
fn solve_split(
    job: &Job,
    cell: usize,
    order: &[usize],
    recorded: &HashMap<(usize, usize), OpeningRecord>,
    send: &Sender<Result<Done>>,
) -> Result<Option<Done>> {
    let mut got = HashMap::new();
    for &reply in order {
        let record = match recorded.get(&(cell, reply)) {
            Some(r) => r.clone(),
            None => {
                if !job.take() {
                    return Ok(None);
                }
                within_memory(job.board.cols)?;
                let r = solve_reply(job.board, cell, reply, job.key)?;
                if send.send(Ok(Done::Reply(r.clone()))).is_err() {
                    return Ok(None);
                }
                r
            }
        };
        let white_wins = !record.black_wins;
        got.insert(reply, record);
        if white_wins {
            break;
        }
    }
    let (r, k) = opening_of_replies(cell, order, job.key, |x| got.get(&x).cloned())
        .ok_or_else(|| invalid("hex split opening: a reply without its record"))?;
    Ok(Some(Done::Opening(r, Some(k))))
}

/// The progress note of a solved reply of a split run.
fn reply_note(board: &Board, r: &OpeningRecord) -> String {
    format!(
        "hex {}x{} {} reply {}: {} wins, {} positions, {} proof steps, proof checked {}, {:.1} CPU-s, {:.1} s",
        board.cols,
        board.rows,
        board.cell_name(r.opening),
        r.reply.map_or("-".into(), |c| board.cell_name(c)),
        if r.black_wins { "black" } else { "white" },
        r.nodes,
        r.proof_steps,
        r.proof_checked,
        r.cpu_seconds,
        r.seconds
    )
}

/// Refuses to start another opening when the process already holds more than its memory budget.
fn within_memory(n: usize) -> Result<()> {
    crate::memory::resident_bytes().map_or(Ok(()), |held| {
        crate::memory::check_budget_at_least(
            &format!("the hex {n}x{n} map (before its next opening or reply)"),
            Some(held),
        )
    })
}

/// One opening of a large map as the results table shows it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct MapRow {
    pub opening: String,
    pub black_wins: bool,
    /// None: solved, proved and checked here; the representative's name: its image under the half turn.
    pub by_half_turn_of: Option<String>,
    pub positions: Option<u64>,
    pub proof_steps: Option<usize>,
    pub proof_checked: Option<bool>,
    /// CPU seconds of solve + proof + check (the worker thread's), and wall seconds.
    pub cpu_seconds: Option<f64>,
    pub wall_seconds: Option<f64>,
    /// A split run: the replies the record rests on (solved, proved, checked; their figures summed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub replies: Option<usize>,
}

/// A finished large map: every cell, in cell order, and the machine it ran on.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct BigMap {
    pub n: usize,
    pub rows: Vec<MapRow>,
    pub machine: String,
    /// The solver's settings (`Solver::describe`; empty in tables written before it was recorded).
    #[serde(default)]
    pub solver: String,
}

impl BigMap {
    /// The table of a complete run (None while openings are missing).
    pub fn of(run: &MapRun, machine: String) -> Option<BigMap> {
        let (n, board) = (run.n, Board::new(run.n, run.n).ok()?);
        let mut rows = Vec::new();
        for cell in 0..n * n {
            let image = half_turn(n, cell);
            let row = match (run.solved.get(&cell), run.solved.get(&image)) {
                (Some(r), _) => MapRow {
                    opening: board.cell_name(cell),
                    black_wins: r.black_wins,
                    by_half_turn_of: None,
                    positions: Some(r.nodes),
                    proof_steps: Some(r.proof_steps),
                    proof_checked: Some(r.proof_checked),
                    cpu_seconds: Some(r.cpu_seconds),
                    wall_seconds: Some(r.seconds),
                    replies: run.replies.get(&cell).copied(),
                },
                (None, Some(r)) => MapRow {
                    opening: board.cell_name(cell),
                    black_wins: r.black_wins,
                    by_half_turn_of: Some(board.cell_name(image)),
                    positions: None,
                    proof_steps: None,
                    proof_checked: None,
                    cpu_seconds: None,
                    wall_seconds: None,
                    replies: None,
                },
                (None, None) => return None,
            };
            rows.push(row);
        }
        Some(BigMap { n, rows, machine, solver: super::hex::solver_text(n) })
    }

    /// Whether every solved opening's proof was replayed by the checker.
    pub fn proofs_checked(&self) -> bool {
        self.rows.iter().all(|r| r.proof_checked != Some(false))
    }

    pub fn markdown(&self) -> String {
        let n = self.n;
        let solved: Vec<&MapRow> = self.rows.iter().filter(|r| r.by_half_turn_of.is_none()).collect();
        let cpu: f64 = solved.iter().filter_map(|r| r.cpu_seconds).sum();
        let mut md = format!("# Hex {n}×{n}: the opening map\n\n");
        md.push_str(
            "Black moves first and connects top and bottom; `B` = the opening wins for Black, `.` = it loses.\n",
        );
        md.push_str(&format!(
            "{} openings solved, proved and their proofs replayed by the independent checker (all checked: {}); \
             the other {} by the half turn (same colours, same edges).\n",
            solved.len(),
            self.proofs_checked(),
            self.rows.len() - solved.len()
        ));
        md.push_str(&format!("{}; {:.0} CPU-s in all.\n", self.machine, cpu));
        md.push_str(&format!("Solver: {}.\n\n", self.solver));
        md.push_str(
            "The reference (seed004-hex.md) publishes no opening map, so there is no published column.\n\n```\n",
        );
        for y in 0..n {
            let row: Vec<&str> = (0..n).map(|x| if self.rows[y * n + x].black_wins { "B" } else { "." }).collect();
            md.push_str(&format!("{}{}\n", " ".repeat(y), row.join(" ")));
        }
        let split = self.rows.iter().any(|r| r.replies.is_some());
        md.push_str("```\n\n");
        if split {
            md.push_str(&format!(
                "Solved reply by reply: each White reply to an opening its own position (Black to move), \
                 solved, proved and checked; the opening is White's at White's first winning reply, Black's when \
                 all {} are refuted; positions, proof steps and seconds are the replies' sums.\n\n",
                n * n - 1
            ));
        }
        md.push_str("| opening | winner | how | positions | proof steps | CPU-s | wall s |");
        md.push_str(if split {
            " replies |\n|---|---|---|---|---|---|---|---|\n"
        } else {
            "\n|---|---|---|---|---|---|---|\n"
        });
        for r in &self.rows {
            let num = |v: Option<String>| v.unwrap_or_default();
            md.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} | {} |",
                r.opening,
                if r.black_wins { "Black" } else { "White" },
                r.by_half_turn_of.as_ref().map_or("solved".to_string(), |of| format!("by the half turn of {of}")),
                num(r.positions.map(|p| p.to_string())),
                num(r.proof_steps.map(|p| p.to_string())),
                num(r.cpu_seconds.map(|s| format!("{s:.1}"))),
                num(r.wall_seconds.map(|s| format!("{s:.1}")))
            ));
            if split {
                md.push_str(&format!(" {} |", num(r.replies.map(|k| k.to_string()))));
            }
            md.push('\n');
        }
        md
    }
}

/// The machine line of a map table: cores, processor, memory, the load when
/// the job ended, openings at a time, the program's version.
pub fn machine_line(workers: usize) -> String {
    let cpuinfo = std::fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map_or("?", |m| m.trim_start_matches([' ', '\t', ':']));
    let cores = std::thread::available_parallelism().map_or(0, |c| c.get());
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let kib: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0);
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let peak = crate::memory::peak_resident_bytes().map_or(0.0, |b| b as f64 / 1e9);
    format!(
        "machine: {cores} cores ({model}), {:.0} GB; load {} at the end; {workers} openings at a time; \
         peak RSS of the last session {peak:.2} GB; renyi-search {}",
        kib as f64 / 1e6 * 1.024,
        load.split_whitespace().next().unwrap_or("?"),
        crate::VERSION
    )
}

/// The files of the map target of `n` (relative to the results directory).
pub fn files(n: usize) -> Vec<String> {
    vec![format!("tables/hex-{n}x{n}.json"), format!("tables/hex-{n}x{n}.md")]
}

/// `reproduce --full hex-NxN`: runs (or resumes) the map job of the
/// representatives with its checkpoint `runs/hex-NxN.ckpt` under `dir`; when
/// every opening is solved, writes and seals the table. Returns the run and
/// the table if it was written.
pub fn reproduce_full(dir: &Path, n: usize, progress: &Progress) -> Result<(MapRun, Option<BigMap>)> {
    let checkpoint = layout::runs(dir, &format!("hex-{n}x{n}.ckpt"));
    let workers = rayon::current_num_threads();
    let run = run_map(n, &representatives(n), Some(&checkpoint), workers, None, n >= SPLIT_FROM, progress)?;
    let Some(map) = BigMap::of(&run, machine_line(workers)) else { return Ok((run, None)) };
    let files = files(n);
    let json = serde_json::to_string_pretty(&map).map_err(|e| invalid(e.to_string()))?;
    write_atomic(&dir.join(&files[0]), json.as_bytes())?;
    write_atomic(&dir.join(&files[1]), map.markdown().as_bytes())?;
    super::sealed::write_seal(dir, &format!("hex-{n}x{n}"), &files)?;
    Ok((run, Some(map)))
}

/// `reproduce hex-NxN` without `--full`: the committed table if its seal
/// holds (None if the map was never finished and sealed).
pub fn committed(dir: &Path, n: usize) -> Result<Option<BigMap>> {
    let target = format!("hex-{n}x{n}");
    if !super::sealed::seal_path(dir, &target).exists() {
        return Ok(None);
    }
    let files = files(n);
    super::sealed::check_seal(dir, &target, &files)?;
    let path = dir.join(&files[0]);
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let map: BigMap = serde_json::from_str(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    Ok(Some(map))
}
