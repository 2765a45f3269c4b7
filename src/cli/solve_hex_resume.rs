//! `solve hex --checkpoint FILE`: the solve run in slices of df-pn (`--slice` positions each), its
//! tables written to FILE every `--checkpoint-every` seconds, when `--budget` stops it and when it is
//! finished, and loaded at the start when FILE exists (`hex::snapshot`); progress lines on stderr.

use renyi_search::cpu_time::process_cpu_seconds;
use renyi_search::error::{Result, invalid};
use renyi_search::memory::{peak_resident_bytes, resident_bytes};
use renyi_search::two_player::connection::hex::position::Position;
use renyi_search::two_player::connection::hex::snapshot::{Contents, RunTotals};
use renyi_search::two_player::connection::hex::solver::{Aborted, Solver};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A checkpointed solve: where its file is, when it is written, and the totals before this process.
pub(super) struct Resume {
    path: PathBuf,
    position: Position,
    every: Duration,
    slice: u64,
    budget: u64,
    last: Instant,
    before: RunTotals,
    nodes_start: u64,
}

/// Megabytes of `bytes`.
fn mb(bytes: u64) -> f64 {
    bytes as f64 / 1e6
}

/// `12 decided and 3 undecided positions (2 expanded)`.
fn tables_text(c: &Contents) -> String {
    format!("{} decided and {} undecided positions ({} expanded)", c.table, c.pn_dn, c.moves)
}

impl Resume {
    /// The checkpointed solve of `position` by `solver` at `path`: loaded into the solver when the
    /// file exists (refused with one line if it is foreign or damaged), else started afresh.
    pub(super) fn open(
        path: PathBuf,
        position: &Position,
        solver: &mut Solver,
        (every, slice, budget): (u64, u64, u64),
    ) -> Result<Resume> {
        if slice == 0 {
            return Err(invalid("--slice 0: give at least 1 position per slice"));
        }
        let before = if path.exists() {
            let started = Instant::now();
            let c = solver.load_snapshot(&path, position)?;
            eprintln!(
                "resumed from {}: {}; {} positions searched and {:.0} CPU-s in {} run(s) before; loaded in {:.1} s",
                path.display(),
                tables_text(&c),
                c.totals.positions,
                c.totals.cpu_ms as f64 / 1e3,
                c.totals.runs,
                started.elapsed().as_secs_f64()
            );
            solver.cpu_before = c.totals.cpu_ms as f64 / 1e3;
            c.totals
        } else {
            RunTotals::default()
        };
        let (every, last, nodes_start) = (Duration::from_secs(every), Instant::now(), solver.nodes);
        Ok(Resume { path, position: position.clone(), every, slice, budget, last, before, nodes_start })
    }

    /// Runs `task` in slices, writing the checkpoint after a stopped slice when it is due; past
    /// `--budget` positions in this run, or past 15/16 of the memory budget (`--max-memory`; the memory
    /// guard stops the process at the whole budget), the checkpoint is written and the solve stops.
    pub(super) fn run<T>(
        &mut self,
        solver: &mut Solver,
        task: impl FnMut(&mut Solver) -> std::result::Result<T, Aborted>,
    ) -> Result<T> {
        solver.in_slices(self.slice, task, |s| {
            if s.nodes - self.nodes_start >= self.budget {
                self.write(s)?;
                return Err(invalid(format!(
                    "no answer within --budget {} positions; {} holds the search so far",
                    self.budget,
                    self.path.display()
                )));
            }
            if let Some(held) = super::memory_guard::near_budget() {
                self.write(s)?;
                let kept = format!("{} holds the search so far", self.path.display());
                return Err(super::memory_guard::near_budget_error("the Hex solve", held, &kept));
            }
            if self.last.elapsed() >= self.every {
                self.write(s)?;
            }
            Ok(())
        })
    }

    /// Writes the checkpoint and reports it on stderr.
    pub(super) fn write(&mut self, solver: &Solver) -> Result<()> {
        let (started, cpu) = (Instant::now(), process_cpu_seconds().unwrap_or(0.0));
        let totals = RunTotals {
            positions: solver.nodes,
            cpu_ms: self.before.cpu_ms + (cpu * 1e3) as u64,
            runs: self.before.runs + 1,
        };
        let c = solver.write_snapshot(&self.path, &self.position, totals)?;
        let (bytes, wall) = (std::fs::metadata(&self.path).map_or(0, |m| m.len()), started.elapsed().as_secs_f64());
        let write_cpu = process_cpu_seconds().map_or(0.0, |now| now - cpu);
        eprintln!(
            "checkpoint {}: {}; {} positions searched and {:.0} CPU-s in all ({} and {cpu:.0} in this run); \
             {:.1} MB written in {wall:.1} s ({write_cpu:.1} CPU-s); resident {:.0} MB (peak {:.0})",
            self.path.display(),
            tables_text(&c),
            totals.positions,
            totals.cpu_ms as f64 / 1e3,
            solver.nodes - self.nodes_start,
            mb(bytes),
            mb(resident_bytes().unwrap_or(0)),
            mb(peak_resident_bytes().unwrap_or(0))
        );
        self.last = Instant::now();
        Ok(())
    }
}
