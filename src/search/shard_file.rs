//! The file of a finished shard of a work-unit run ([`super::units`]):
//! sealed lines (`output::sealed_lines`), the one format of the run's
//! checkpoint ([`super::checkpoint`]) and of every other work-unit file
//! (docs/runs.md "File formats").
//!
//! - Line 1, the identity ([`ShardIdentity`]): the run's [`RunHeader`]
//!   (program, version, problem, α as exact rational text, tie rule, levels,
//!   penalty split; without its `crc`), the shard `[i, N]` and the run's unit
//!   and code totals, behind the CRC-32 of its JSON. That CRC is the file's
//!   key.
//! - One line per unit of the shard, in unit order: its [`UnitRecord`]
//!   (without its `crc`), behind the CRC-32 of the key and its JSON, as in
//!   the checkpoint.
//! - One closing line, keyed the same: `{"finished": {...}}`
//!   ([`ShardTotals`]: the units and codes of the file's records, the wall
//!   seconds, peak memory and resumed units of the process that wrote it).
//!
//! Reading ([`read_shard`]) is strict: a line failing its checksum (an edited
//! or damaged line, a line of another run or another shard), a unit recorded
//! twice, a unit of another shard, a record after the closing line, a file
//! without its closing line (cut short) and totals that do not match the
//! records are refused with the file named. The file is written whole or not
//! at all (temporary file + rename).

use super::run_file::{RunHeader, ShardFile, UnitRecord};
use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::{SealedReading, for_each_sealed_line, identity_line, keyed_line, run_key};
use serde::{Deserialize, Serialize};
use std::path::Path;

/// Line 1 of a finished shard file: what the file is a part of.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardIdentity {
    /// The run (its header without the `crc` field).
    pub run: RunHeader,
    /// `[i, N]`: the units numbered ≡ i (mod N).
    pub shard: (u64, u64),
    /// Units and codes of the whole run.
    pub units_total: u64,
    pub codes_total: u64,
}

/// The closing line of a finished shard file: its totals and how it was computed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ShardTotals {
    /// Unit records in the file, and the codes they hold (Σ codes, unweighted).
    pub units: u64,
    pub codes: u64,
    /// Wall seconds of the process that wrote the file (its last session).
    pub seconds: f64,
    /// Peak resident memory of that process, in bytes, where reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub peak_memory_bytes: Option<u64>,
    /// Units taken from the checkpoint rather than evaluated by that process.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resumed_units: Option<u64>,
}

/// The closing line's record.
#[derive(Serialize, Deserialize)]
struct Closing {
    finished: ShardTotals,
}

/// A record line of a shard file: a unit, or the closing line.
#[derive(Deserialize)]
#[serde(untagged)]
enum ShardLine {
    Unit(Box<UnitRecord>),
    Closing(Closing),
}

/// What a line is of: a unit (by number) or the closing line (each once in a file).
#[derive(PartialEq, Eq, Hash)]
struct LineOf(Option<u64>);

impl std::fmt::Debug for LineOf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some(index) => write!(f, "{index}"),
            None => write!(f, "(the closing line)"),
        }
    }
}

impl ShardFile {
    /// The file's identity line: the run, the shard, the run's totals.
    pub fn identity(&self) -> ShardIdentity {
        let (units_total, codes_total) = (self.units_total, self.codes_total);
        ShardIdentity { run: self.header.identity(), shard: self.shard, units_total, codes_total }
    }

    /// The file's closing totals.
    pub fn totals(&self) -> ShardTotals {
        ShardTotals {
            units: self.units.len() as u64,
            codes: self.units.iter().map(|u| u.codes).sum(),
            seconds: self.seconds,
            peak_memory_bytes: self.peak_memory_bytes,
            resumed_units: self.resumed_units,
        }
    }
}

/// The text of a finished shard file (see the module doc).
pub fn shard_text(file: &ShardFile) -> String {
    let identity = file.identity();
    let key = run_key(&identity);
    let mut text = identity_line(&identity) + "\n";
    for unit in &file.units {
        text += &keyed_line(&key, &UnitRecord { crc: None, ..unit.clone() });
        text.push('\n');
    }
    text += &keyed_line(&key, &Closing { finished: file.totals() });
    text.push('\n');
    text
}

/// Writes a finished shard file, whole or not at all (temporary file + rename).
pub fn write_shard(path: &Path, file: &ShardFile) -> Result<()> {
    crate::output::write_atomic(path, shard_text(file).as_bytes())
}

/// Whether line 1 of the file at `path` has the shape of a finished shard's
/// identity line (rather than, say, a checkpoint's): an object with a `shard`
/// field behind its checksum. The checksum is not tested here, so that a
/// damaged shard file goes to [`read_shard`] and is refused for what it is;
/// `false` for an unreadable file.
pub fn is_shard_file(path: &Path) -> bool {
    use std::io::BufRead;
    let Ok(Some(mut reader)) = crate::output::sealed_lines::open_sealed(path) else { return false };
    let mut first = String::new();
    if reader.read_line(&mut first).is_err() {
        return false;
    }
    let json = first.trim_end_matches(['\n', '\r']).split_once(' ').map_or("", |(_, json)| json);
    serde_json::from_str::<serde_json::Value>(json).is_ok_and(|v| v.get("shard").is_some())
}

/// Reads and checks the finished shard file at `path` (see the module doc):
/// its header sealed (its `crc` the run's key) and each record with its `crc`
/// under that key, as a checkpoint's records are read.
pub fn read_shard(path: &Path) -> Result<ShardFile> {
    let name = path.display().to_string();
    std::fs::metadata(path).map_err(|e| Error::Io { path: name.clone(), source: e })?;
    let mut units: Vec<UnitRecord> = Vec::new();
    let mut totals: Option<ShardTotals> = None;
    let reading = SealedReading {
        what: "finished shard of a work-unit run",
        identity: Box::new(|_: &ShardIdentity| Ok(())),
        unit_of: |line: &ShardLine| match line {
            ShardLine::Unit(r) => LineOf(Some(r.index)),
            ShardLine::Closing(_) => LineOf(None),
        },
    };
    let found = for_each_sealed_line(path, reading, |_, _, line| {
        if totals.is_some() {
            return Err(invalid(format!("{name}: a line after the closing line")));
        }
        match line {
            ShardLine::Unit(record) => units.push(*record),
            ShardLine::Closing(closing) => totals = Some(closing.finished),
        }
        Ok(())
    })?;
    let Some((identity, _)) = found else {
        return Err(invalid(format!("{name} is empty, not a finished shard file")));
    };
    let Some(totals) = totals else {
        return Err(invalid(format!(
            "{name} has no closing line: the file was cut short (or is not a finished shard file)"
        )));
    };
    let file = shard_of(identity, totals, units).map_err(|e| e.at(&name))?;
    Ok(file)
}

/// The shard file of a read identity, closing totals and unit records, each
/// record sealed under the run's key and checked, the totals against them.
fn shard_of(identity: ShardIdentity, totals: ShardTotals, units: Vec<UnitRecord>) -> Result<ShardFile> {
    if identity.run.crc.is_some() {
        return Err(invalid("the run header of line 1 carries a checksum inside (not this program's file)"));
    }
    let header = identity.run.sealed();
    let (index, count) = identity.shard;
    if count == 0 || index >= count {
        return Err(invalid(format!("shard {index}/{count} is no shard (write i/N with 0 ≤ i < N)")));
    }
    let key = header.record_key().to_string();
    let mut sealed = Vec::with_capacity(units.len());
    for unit in units {
        if unit.index % count != index || unit.index >= identity.units_total {
            return Err(invalid(format!(
                "unit {} is not a unit of shard {index}/{count} of a run of {} units",
                unit.index, identity.units_total
            )));
        }
        let unit = unit.sealed(&key);
        unit.check(&key)?;
        sealed.push(unit);
    }
    let expected = identity.units_total.saturating_sub(index).div_ceil(count);
    let codes: u64 = sealed.iter().map(|u| u.codes).sum();
    if totals.units != sealed.len() as u64 || totals.codes != codes || expected != totals.units {
        return Err(invalid(format!(
            "the closing line counts {} units and {} codes, the file holds {} units and {codes} codes, \
             the shard has {expected} units (lines were removed or added)",
            totals.units,
            totals.codes,
            sealed.len()
        )));
    }
    Ok(ShardFile {
        header,
        shard: identity.shard,
        units_total: identity.units_total,
        codes_total: identity.codes_total,
        seconds: totals.seconds,
        peak_memory_bytes: totals.peak_memory_bytes,
        resumed_units: totals.resumed_units,
        units: sealed,
    })
}
