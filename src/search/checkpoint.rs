//! The checkpoint of a work-unit run ([`super::units`]): a sealed JSON-lines
//! file (`output::sealed_lines`, the format of the curve runs and the
//! depth-bound, Hex and Bridg-It checkpoints). Line 1 is the run's identity,
//! its [`RunHeader`] without the `crc` field, behind the CRC-32 of its JSON
//! (that CRC is the run's key, the header's `crc`); every other line one
//! [`UnitRecord`] without its `crc` field, behind the CRC-32 of the key and
//! its JSON (the record's `crc`). Records are appended as units finish; the
//! file is locked while a process appends to it.
//!
//! Reading is strict: an identity line or record failing its checksum (so
//! also a record of another run, and any file without the sealed identity
//! line, such as one of the older format with the CRCs inside the JSON), a
//! record that fails its checks ([`UnitRecord::check`]) and a unit recorded
//! twice are errors naming the file and the line. The one exception is the
//! last line when the file does not end with a line break: a record cut off
//! by a kill, which is dropped (and cut from the file when the run resumes,
//! so that every line of a checkpoint stays whole).

use super::run_file::{RunHeader, UnitRecord, alpha_text};
use crate::error::{Result, invalid};
use crate::output::sealed_lines::{SealedLog, SealedReading, for_each_sealed_line};
use std::path::Path;

/// A checkpoint's header (sealed: its `crc` is the run's key) and records
/// (each with its `crc`), checked line by line (see the module doc); `None`
/// for a missing or empty file (e.g. one created by a run killed before it
/// wrote its header). `identity` may refuse the header before any record is read.
fn read_sealed(
    path: &Path,
    identity: impl FnOnce(&RunHeader) -> Result<()>,
) -> Result<Option<(RunHeader, Vec<UnitRecord>)>> {
    let reading = SealedReading {
        what: "work-unit run checkpoint",
        identity: Box::new(identity),
        unit_of: |r: &UnitRecord| r.index,
    };
    let mut records = Vec::new();
    let found = for_each_sealed_line(path, reading, |line, key, record: UnitRecord| {
        let record = UnitRecord { crc: Some(line[..8].to_string()), ..record };
        record.check(key).map_err(|e| e.at(&path.display().to_string()))?;
        records.push(record);
        Ok(())
    })?;
    Ok(found.map(|(header, _)| (header.sealed(), records)))
}

/// A checkpoint's header and records (see [`read_sealed`]); `None` for a
/// missing or empty file.
pub fn read_checkpoint_file(path: &Path) -> Result<Option<(RunHeader, Vec<UnitRecord>)>> {
    read_sealed(path, |_| Ok(()))
}

/// The records of the checkpoint at `path` for the run `header`, and the
/// header the run goes on under: the checkpoint's own, or `header` for a new
/// one. A checkpoint of another run (another α by value, tie rule, problem,
/// levels or version) is refused.
pub(super) fn read_checkpoint(path: &Path, header: &RunHeader) -> Result<(RunHeader, Vec<UnitRecord>)> {
    let same = |theirs: &RunHeader| {
        if theirs.identity() == header.identity() {
            return Ok(());
        }
        Err(invalid(format!(
            "checkpoint {} belongs to another run ({} {} α={} {} levels {}); this run is {} {} α={} {} levels {}; \
             remove it or choose another file",
            path.display(),
            theirs.version,
            theirs.problem,
            alpha_text(theirs.alpha),
            theirs.tie_rule,
            theirs.levels,
            header.version,
            header.problem,
            alpha_text(header.alpha),
            header.tie_rule,
            header.levels
        )))
    };
    Ok(read_sealed(path, same)?.unwrap_or_else(|| (header.clone(), Vec::new())))
}

/// Opens the checkpoint for appending and takes an exclusive advisory lock
/// on it (held until the run ends); a file locked by another run is refused
/// ([`crate::output::sealed_lines::lock`]).
pub(crate) fn lock_checkpoint(path: Option<&Path>) -> Result<Option<std::fs::File>> {
    path.map(crate::output::sealed_lines::lock).transpose()
}

/// Makes the locked checkpoint ready for appending records of the run
/// `header`: an empty file gets the identity line; a last line cut off by a
/// kill (which [`read_checkpoint`] dropped) is cut from the file.
pub(super) fn prepare_checkpoint(
    file: Option<std::fs::File>,
    path: Option<&Path>,
    header: &RunHeader,
) -> Result<Option<SealedLog>> {
    let (Some(file), Some(path)) = (file, path) else { return Ok(None) };
    SealedLog::open(file, path, &header.identity()).map(Some)
}

/// Appends one record (a whole line, its `crc` in front) to the checkpoint,
/// if the run keeps one.
pub(super) fn append_record(log: &Option<SealedLog>, record: &UnitRecord) -> Result<()> {
    match log {
        Some(log) => log.append(&UnitRecord { crc: None, ..record.clone() }),
        None => Ok(()),
    }
}
