//! The checkpoint of `reproduce bridg-it` (issue 50 item 6): the run is a list
//! of named units (one self-play order, one point of the temperature curve,
//! one agent point); each finished unit is appended to a file, and a run that
//! was stopped (Ctrl-C, a kill) resumes with the units not yet in it.
//!
//! The file is a sealed JSON-lines file (`output::sealed_lines`, the format
//! of the curve runs, depth-bound and Hex checkpoints): line 1 is the run's
//! typed identity ([`ScanId`]: program version and build, orders, agent set,
//! games, seed), every other line one [`ScanRecord`] sealed with the run's key
//! (the CRC-32 of the identity line), so that a record copied from another
//! run's file is refused like a damaged one, as is a unit recorded twice. A
//! last line cut off by a kill is dropped (and cut from the file); the file is
//! locked while a run appends to it, and removed when the run has written its
//! results.
//!
//! Invariant: a unit's row comes either from its computation or from a
//! record of the same run, which holds exactly what that computation
//! returned (floats round-trip through JSON exactly), so a resumed run
//! writes the same bytes as an uninterrupted one.

use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::{self, SealedLog, SealedReading};
use crate::output::work_units::{make_parent, open_checkpoint};
use crate::progress::Progress;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The build of the running program: "sha256:" and the first 16 hex digits of
/// the SHA-256 of its executable file (`unknown` if it cannot be read). It
/// keys a checkpoint by the code that computed its records, which neither the
/// crate version nor a git commit pins down (uncommitted changes, another
/// compiler); a rebuild that leaves the executable byte for byte alike keeps
/// the key. Read once per process (about 14 MB).
pub fn build() -> &'static str {
    static BUILD: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    BUILD.get_or_init(|| {
        use sha2::{Digest, Sha256};
        let bytes = std::env::current_exe().and_then(std::fs::read);
        bytes.map_or("unknown".into(), |b| {
            let digest = Sha256::digest(&b);
            format!("sha256:{}", digest.iter().take(8).map(|x| format!("{x:02x}")).collect::<String>())
        })
    })
}

/// What identifies a `reproduce bridg-it` run: a checkpoint of another run
/// (other orders, agent set, games, seed, program version or build) is refused.
/// The build ([`build`]) keys the records by the code that computed them: two
/// builds of one crate version may compute other values.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScanId {
    pub program: String,
    pub version: String,
    /// [`build`] of the program that started the run.
    pub build: String,
    /// Self-play orders 2..=max_order.
    pub max_order: usize,
    /// Orders of the exact temperature curve (Fig 5.10 top).
    pub temperature_orders: Vec<usize>,
    /// "none", "default" or "full" ([`super::bridg_it_agents::AgentSet`]).
    pub agents: String,
    /// Games per simulated point and the seed of every simulation.
    pub games: u64,
    pub seed: u64,
}

/// One row of the self-play table (Fig 5.8).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct SelfPlayRow {
    pub order: usize,
    pub first_wins: String,
    pub first_wins_decimal: f64,
    pub losing_openings: Vec<String>,
    pub states: usize,
}

/// Short's exact win probability with temperature T against the heuristic Cut (Fig 5.10 top, T_Cut → 0).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TemperatureRow {
    pub order: usize,
    pub temperature: f64,
    pub short_wins: f64,
    pub states: usize,
}

/// Short's win rate for one agent pair, Cut moving first.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AgentPoint {
    /// "5.9", "5.10 middle", "5.10 bottom", "5.11", "5.12".
    pub figure: String,
    pub order: usize,
    pub cut: String,
    pub short: String,
    /// The figure's x value: k for MC(k), else Short's temperature.
    pub x: f64,
    /// The series within the figure (e.g. "M = 3, exact").
    pub series: String,
    /// Simulated games (None: exact over all games).
    pub games: Option<u64>,
    pub seed: Option<u64>,
    pub short_wins: f64,
    /// 95 % Wilson interval (the exact value twice for exact points).
    pub interval: (f64, f64),
    /// The exact value as a rational, where it is known exactly (MC(k) points of `mc_exact`).
    pub exact: Option<String>,
}

/// The result of one unit.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub enum ScanRow {
    SelfPlay(SelfPlayRow),
    Temperature(TemperatureRow),
    /// A whole curve computed on one game graph (M = 4, Fig 5.10 top).
    TemperatureCurve(Vec<TemperatureRow>),
    Agent(AgentPoint),
}

/// One line of the checkpoint after the identity.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ScanRecord {
    /// The CRC-32 of the identity line's JSON: the run the record belongs to.
    pub run: String,
    /// The unit's name, unique within the run.
    pub unit: String,
    pub row: ScanRow,
}

/// A run of named units, with an optional checkpoint, progress reports
/// (status: the unit being computed; one count per unit) and notes.
pub struct Scan<'a> {
    key: String,
    file: Option<(PathBuf, SealedLog)>,
    done: HashMap<String, ScanRow>,
    resumed: usize,
    progress: &'a Progress,
    note: &'a mut dyn FnMut(&str),
}

impl<'a> Scan<'a> {
    /// Opens (or starts) the checkpoint of run `id` at `checkpoint` (none:
    /// nothing is kept) and locks it.
    pub fn open(
        checkpoint: Option<&Path>,
        id: &ScanId,
        progress: &'a Progress,
        note: &'a mut dyn FnMut(&str),
    ) -> Result<Scan<'a>> {
        let key = sealed_lines::run_key(id);
        let mut scan = Scan { key, file: None, done: HashMap::new(), resumed: 0, progress, note };
        let Some(path) = checkpoint else { return Ok(scan) };
        make_parent(path)?;
        let reading = SealedReading {
            what: "Bridg-It run checkpoint",
            identity: Box::new(|found: &ScanId| check_identity(path, found, id)),
            unit_of: |r: &ScanRecord| r.unit.clone(),
        };
        let done = &mut scan.done;
        let log = open_checkpoint(path, id, reading, |_, key, r: ScanRecord| {
            if r.run != key {
                return Err(invalid(format!(
                    "checkpoint {}: a record of unit {} names another run (edited or damaged)",
                    path.display(),
                    r.unit
                )));
            }
            done.insert(r.unit, r.row);
            Ok(())
        })?;
        scan.resumed = scan.done.len();
        scan.file = Some((path.to_path_buf(), log));
        Ok(scan)
    }

    /// Units taken from the checkpoint when the run started.
    pub fn resumed(&self) -> usize {
        self.resumed
    }

    /// A line for the run log (and the progress notes).
    pub fn note(&mut self, text: &str) {
        self.progress.note(text);
        (self.note)(text);
    }

    /// A counted phase of units begins (see [`Progress::begin`]).
    pub fn phase(&self, what: &str, units: usize) {
        self.progress.begin(what, Some(units as u64));
    }

    /// The current phase ends.
    pub fn end_phase(&self) {
        self.progress.end();
    }

    /// The row of unit `name`: from this run (a unit asked for twice is
    /// computed once) or its checkpoint, else computed by `compute` and
    /// appended to the checkpoint as one whole, flushed line.
    pub fn unit<T: UnitRow>(&mut self, name: &str, compute: impl FnOnce() -> Result<T>) -> Result<T> {
        if let Some(row) = self.done.get(name) {
            self.progress.advance(1);
            return T::from_row(row.clone())
                .ok_or_else(|| invalid(format!("checkpoint: unit {name} holds a row of another kind")));
        }
        self.progress.status(name);
        let value = compute()?;
        let row = value.clone().into_row();
        if let Some((_, log)) = &self.file {
            log.append(&ScanRecord { run: self.key.clone(), unit: name.to_string(), row: row.clone() })?;
        }
        self.done.insert(name.to_string(), row);
        self.progress.advance(1);
        Ok(value)
    }

    /// The run is complete and its results written: the checkpoint goes.
    pub fn finish(self) -> Result<()> {
        if let Some((path, log)) = self.file {
            drop(log);
            std::fs::remove_file(&path).map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
        }
        Ok(())
    }
}

/// Refuses a checkpoint whose identity `found` is not this run's `id`; one
/// written by another build of the program is named as such.
fn check_identity(path: &Path, found: &ScanId, id: &ScanId) -> Result<()> {
    if found.build != id.build {
        return Err(invalid(format!(
            "checkpoint {}: written by build {} of the program, this is build {}; its records may differ from \
             what this build computes: remove it, or resume with the build that wrote it",
            path.display(),
            found.build,
            id.build
        )));
    }
    if found != id {
        return Err(invalid(format!(
            "checkpoint {}: line 1 is not this run's identity (other orders, agents, games, seed or program \
             version); remove it or choose another results directory",
            path.display()
        )));
    }
    Ok(())
}

/// A unit's result type, stored as a [`ScanRow`].
pub trait UnitRow: Clone + Sized {
    fn into_row(self) -> ScanRow;
    fn from_row(row: ScanRow) -> Option<Self>;
}

impl UnitRow for SelfPlayRow {
    fn into_row(self) -> ScanRow {
        ScanRow::SelfPlay(self)
    }
    fn from_row(row: ScanRow) -> Option<Self> {
        if let ScanRow::SelfPlay(r) = row { Some(r) } else { None }
    }
}

impl UnitRow for TemperatureRow {
    fn into_row(self) -> ScanRow {
        ScanRow::Temperature(self)
    }
    fn from_row(row: ScanRow) -> Option<Self> {
        if let ScanRow::Temperature(r) = row { Some(r) } else { None }
    }
}

impl UnitRow for Vec<TemperatureRow> {
    fn into_row(self) -> ScanRow {
        ScanRow::TemperatureCurve(self)
    }
    fn from_row(row: ScanRow) -> Option<Self> {
        if let ScanRow::TemperatureCurve(r) = row { Some(r) } else { None }
    }
}

impl UnitRow for AgentPoint {
    fn into_row(self) -> ScanRow {
        ScanRow::Agent(self)
    }
    fn from_row(row: ScanRow) -> Option<Self> {
        if let ScanRow::Agent(r) = row { Some(r) } else { None }
    }
}
