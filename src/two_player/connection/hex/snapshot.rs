//! A df-pn solve as a checkpoint file, so that a solve longer than a process lives can resume.
//!
//! df-pn stopped by its node budget ([`Aborted`]) leaves its tables whole: a later call restarts at
//! the root from the numbers stored below it. The checkpoint holds those tables — the decided
//! positions ([`Solver::table`]) with what the proof reads beside them (fills, the loser's SC carriers
//! and left-out cells, supports, cut moves) and the undecided ones' numbers and expansions — so a
//! fresh solver that loads it continues where the writer stopped. Not kept: the counters of
//! [`Solver::counts`] (per process), the H-search results of [`Solver::reuse`] (a cache, off by
//! default; with it on a resumed search may take another path) and H-search's scratch tables.
//!
//! The file: a first line naming the kind, the identity line (format number, program, board,
//! stones, side to move, [`Solver::describe`] and the [`SEARCH_ORDER`]) and the contents line (the run's totals and the
//! tables' lengths), both sealed JSON lines ([`checked_line`]); then the tables in `codec.rs`'s bytes,
//! gzip-compressed, ending with the CRC-32 of those bytes. Written by temp file, fsync and rename
//! (`output::target`), so a kill leaves the previous checkpoint whole; a file of another kind,
//! format, program, search order, position or settings is refused, and a damaged one (a checksum, a length, a value
//! off the board) too, with one line.
//!
//! Soundness: a loaded table can only cost time, never change an answer that the program reports
//! as proved, because every proof is replayed by the independent checker (`check.rs`).

mod codec;

use super::board::{Bits, Board, cells_of};
use super::position::Position;
use super::solver::{Aborted, Solver};
use crate::error::{Error, Result, invalid};
use crate::output::target::write_output;
use crate::output::{checked_line, parse_checked_line};
use codec::{Dec, Enc, damaged};
use serde::{Deserialize, Serialize};
use std::io::{BufRead, Read};
use std::path::Path;

/// The first line of a checkpoint.
const KIND: &str = "renyi-search hex solver checkpoint";

/// The format number of the file; another is refused.
pub const FORMAT: u32 = 1;

/// The version of df-pn's search order: which positions it visits, in which order, under the same
/// [`Solver::describe`] settings. Raise it with every change of the code that makes the search take
/// another path (the move order, the numbers of new children, a rule that decides or prunes): a
/// checkpoint of another order is refused, since a resumed solve is only the uninterrupted one of
/// the same order (an answer would still be sound, as every proof is checked, but not the same
/// search). Files of format 1 written before the field existed (session 26) are of order 1.
pub const SEARCH_ORDER: u32 = 1;

/// The order of a file that does not name one.
fn first_order() -> u32 {
    1
}

/// Who wrote a checkpoint and of what: a file whose identity differs is refused.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SnapshotId {
    pub format: u32,
    /// `renyi-search` and the package version.
    pub program: String,
    pub cols: usize,
    pub rows: usize,
    /// The stones, cell names in index order, comma-separated.
    pub black: String,
    pub white: String,
    /// `black` or `white`.
    pub to_move: String,
    /// [`Solver::describe`].
    pub settings: String,
    /// [`SEARCH_ORDER`] of the program that wrote it.
    #[serde(default = "first_order")]
    pub search_order: u32,
}

/// A solve's totals over the processes that worked on it (the contents line).
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RunTotals {
    /// Positions searched ([`Solver::nodes`]) in all.
    pub positions: u64,
    /// CPU milliseconds in all, as the processes measured them.
    pub cpu_ms: u64,
    /// The processes that wrote the file.
    pub runs: u64,
}

/// The contents line: the totals and the tables' lengths, read before the tables.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Contents {
    pub totals: RunTotals,
    /// Decided positions.
    pub table: u64,
    /// Undecided positions with their numbers, and the expanded ones.
    pub pn_dn: u64,
    pub moves: u64,
    pub loss_scs: u64,
    pub loss_kills: u64,
    pub fills: u64,
    pub supports: u64,
    pub cut: u64,
}

/// The cell names of `set`, comma-separated.
fn names(board: &Board, set: Bits) -> String {
    cells_of(set).map(|c| board.cell_name(c)).collect::<Vec<_>>().join(",")
}

impl SnapshotId {
    /// `8x8, black g2, white none, white to move`.
    fn position_text(&self) -> String {
        let or_none = |s: &str| if s.is_empty() { "none".to_string() } else { s.to_string() };
        format!(
            "{}x{}, black {}, white {}, {} to move",
            self.cols,
            self.rows,
            or_none(&self.black),
            or_none(&self.white),
            self.to_move
        )
    }

    /// Why a checkpoint of identity `self` does not belong to a run of identity `ours`, if it does not.
    fn refusal(&self, ours: &SnapshotId) -> Option<String> {
        if self.format != ours.format {
            return Some(format!("is of format {}, this program reads format {}", self.format, ours.format));
        }
        if self.program != ours.program {
            return Some(format!("was written by {}, this is {}", self.program, ours.program));
        }
        if self.search_order != ours.search_order {
            let (theirs, this) = (self.search_order, ours.search_order);
            return Some(format!("was searched in df-pn's search order {theirs}, this program's is {this}"));
        }
        if self.position_text() != ours.position_text() {
            let (theirs, this) = (self.position_text(), ours.position_text());
            return Some(format!("is of another position ({theirs}) than this one ({this})"));
        }
        (self.settings != ours.settings)
            .then(|| format!("is of other solver settings ({}) than this run's ({})", self.settings, ours.settings))
    }
}

impl Solver {
    /// The identity of a checkpoint of this solver on `position`.
    pub fn snapshot_id(&self, position: &Position) -> SnapshotId {
        SnapshotId {
            format: FORMAT,
            program: format!("renyi-search {}", env!("CARGO_PKG_VERSION")),
            cols: position.board.cols,
            rows: position.board.rows,
            black: names(&position.board, position.black),
            white: names(&position.board, position.white),
            to_move: position.to_move.name().to_string(),
            settings: self.describe(),
            search_order: SEARCH_ORDER,
        }
    }

    /// The tables' lengths, with `totals`.
    pub fn snapshot_contents(&self, totals: RunTotals) -> Contents {
        let len = |n: usize| n as u64;
        Contents {
            totals,
            table: len(self.table.len()),
            pn_dn: len(self.pn_dn.len()),
            moves: len(self.moves.len()),
            loss_scs: len(self.loss_scs.len()),
            loss_kills: len(self.loss_kills.len()),
            fills: len(self.fills.len()),
            supports: len(self.supports.len()),
            cut: len(self.cut.len()),
        }
    }

    /// Writes the solver's tables as the checkpoint `path` of the solve of `position` (module doc),
    /// with the run's `totals`; the previous file at `path` is replaced only when the new one is whole.
    pub fn write_snapshot(&self, path: &Path, position: &Position, totals: RunTotals) -> Result<Contents> {
        let (id, contents) = (self.snapshot_id(position), self.snapshot_contents(totals));
        write_output(path, |out| {
            writeln!(out, "{KIND}\n{}\n{}", checked_line(&id), checked_line(&contents))?;
            let mut e = Enc::new(flate2::write::GzEncoder::new(out, flate2::Compression::fast()), self.board.cells());
            e.map(&self.table)?;
            e.map(&self.pn_dn)?;
            e.map(&self.moves)?;
            e.map(&self.loss_scs)?;
            e.map(&self.loss_kills)?;
            e.map(&self.fills)?;
            e.map(&self.supports)?;
            e.map(&self.cut)?;
            e.seal()?.finish().map(drop)
        })?;
        Ok(contents)
    }

    /// Loads the checkpoint `path` of the solve of `position` into this solver (its tables replaced,
    /// [`Solver::nodes`] set to the file's total) and returns the file's contents line. Refused
    /// (nothing changed): a file of another kind, format, program, search order, position or settings, or a
    /// damaged one.
    pub fn load_snapshot(&mut self, path: &Path, position: &Position) -> Result<Contents> {
        let place = format!("checkpoint {}", path.display());
        let file =
            std::fs::File::open(path).map_err(|source| Error::Io { path: path.display().to_string(), source })?;
        let mut input = std::io::BufReader::with_capacity(1 << 20, file);
        let mut line = |what: &str| -> Result<String> {
            let mut text = String::new();
            let read = input.by_ref().take(1 << 16).read_line(&mut text);
            match read {
                Ok(_) if text.ends_with('\n') => Ok(text.trim_end().to_string()),
                _ => Err(invalid(format!("{place} is not a whole Hex solver checkpoint (its {what} line)"))),
            }
        };
        if line("first")? != KIND {
            return Err(invalid(format!("{place} is not a Hex solver checkpoint (its first line is not {KIND:?})")));
        }
        let id_line = line("identity")?;
        let contents_line = line("contents")?;
        let damaged_line = |what: &str| invalid(format!("{place} is damaged: its {what} line fails its checksum"));
        let id: SnapshotId = parse_checked_line(&id_line).ok_or_else(|| damaged_line("identity"))?;
        if let Some(why) = id.refusal(&self.snapshot_id(position)) {
            return Err(invalid(format!("{place} {why}: give another path, or remove it to start afresh")));
        }
        let contents: Contents = parse_checked_line(&contents_line).ok_or_else(|| damaged_line("contents"))?;
        self.load_tables(input, &contents).map_err(|e| invalid(format!("{place} is damaged: {e}")))?;
        self.nodes = contents.totals.positions;
        Ok(contents)
    }

    /// Reads the tables of a checkpoint after its contents line and installs them once all are read
    /// and their checksum holds (the solver unchanged otherwise).
    fn load_tables<R: BufRead>(&mut self, input: R, n: &Contents) -> std::io::Result<()> {
        let mut d = Dec::new(flate2::bufread::GzDecoder::new(input), self.board.cells());
        let (table, pn_dn, moves) = (d.map(n.table)?, d.map(n.pn_dn)?, d.map(n.moves)?);
        let (loss_scs, loss_kills, fills) = (d.map(n.loss_scs)?, d.map(n.loss_kills)?, d.map(n.fills)?);
        let (supports, cut) = (d.map(n.supports)?, d.map(n.cut)?);
        let mut z = d.unseal()?;
        // The gzip stream ends here (its own check runs at its end), and the file with it.
        if z.read(&mut [0])? != 0 || !z.into_inner().fill_buf()?.is_empty() {
            return Err(damaged("bytes after its seal"));
        }
        (self.table, self.pn_dn, self.moves) = (table, pn_dn, moves);
        (self.loss_scs, self.loss_kills, self.fills) = (loss_scs, loss_kills, fills);
        (self.supports, self.cut) = (supports, cut);
        Ok(())
    }

    /// Runs `task` in slices of at most `slice` searched positions per question (the node budget;
    /// a stopped slice leaves the tables whole, less the undecided positions forgotten above the bound
    /// of [`Solver::forget`], `forget.rs`), calling `between` after each slice that stopped,
    /// until `task` finishes (its value) or `between` fails (its error). The budget is restored.
    pub fn in_slices<T>(
        &mut self,
        slice: u64,
        mut task: impl FnMut(&mut Solver) -> std::result::Result<T, Aborted>,
        mut between: impl FnMut(&mut Solver) -> Result<()>,
    ) -> Result<T> {
        let budget = std::mem::replace(&mut self.budget, slice);
        let result = loop {
            match task(self) {
                Ok(value) => break Ok(value),
                Err(Aborted) => {
                    self.forget_undecided();
                    if let Err(e) = between(self) {
                        break Err(e);
                    }
                }
            }
        };
        self.budget = budget;
        result
    }
}
