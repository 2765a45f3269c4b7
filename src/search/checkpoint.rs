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
use crate::output::sealed_lines::{IdentityCheck, SealedLog, SealedReading, for_each_sealed_line};
use crate::output::work_units;
use std::path::Path;

/// How a checkpoint is read: its identity checked by `identity`, its records by their unit number.
fn reading(identity: IdentityCheck<'_, RunHeader>) -> SealedReading<'_, RunHeader, UnitRecord, u64> {
    SealedReading { what: "work-unit run checkpoint", identity, unit_of: |r: &UnitRecord| r.index }
}

/// A record read from `line` of the run `key`, its checksum (the line's) set and checked.
fn checked(path: &Path, line: &str, key: &str, record: UnitRecord) -> Result<UnitRecord> {
    let record = UnitRecord { crc: Some(line[..8].to_string()), ..record };
    record.check(key).map_err(|e| e.at(&path.display().to_string()))?;
    Ok(record)
}

/// A checkpoint's header (sealed: its `crc` is the run's key) and records
/// (each with its `crc`), checked line by line (see the module doc), without
/// locking it; `None` for a missing or empty file (e.g. one created by a run
/// killed before it wrote its header).
pub fn read_checkpoint_file(path: &Path) -> Result<Option<(RunHeader, Vec<UnitRecord>)>> {
    let mut records = Vec::new();
    let found = for_each_sealed_line(path, reading(Box::new(|_| Ok(()))), |line, key, record| {
        records.push(checked(path, line, key, record)?);
        Ok(())
    })?;
    Ok(found.map(|(header, _)| (header.sealed(), records)))
}

/// Opens the checkpoint at `path` of the run `header` (locked; a file locked
/// by another run is refused) and returns it ready to append to, with its
/// records ([`crate::output::work_units::open_checkpoint`]). A checkpoint of
/// another run (another α by value, tie rule, problem, levels or version) is
/// refused; a missing or empty file is a new checkpoint.
pub(super) fn open_checkpoint(path: &Path, header: &RunHeader) -> Result<(SealedLog, Vec<UnitRecord>)> {
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
    let mut records = Vec::new();
    let log = work_units::open_checkpoint(path, &header.identity(), reading(Box::new(same)), |line, key, record| {
        records.push(checked(path, line, key, record)?);
        Ok(())
    })?;
    Ok((log, records))
}

/// Appends one record (a whole line, its `crc` in front) to the checkpoint,
/// if the run keeps one.
pub(super) fn append_record(log: &Option<SealedLog>, record: &UnitRecord) -> Result<()> {
    match log {
        Some(log) => log.append(&UnitRecord { crc: None, ..record.clone() }),
        None => Ok(()),
    }
}
