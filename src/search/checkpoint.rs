//! The checkpoint of a work-unit run ([`super::units`]): a JSON-lines file,
//! the run's [`RunHeader`] on line 1, then one sealed [`UnitRecord`] per
//! finished unit, appended as each finishes and locked while a process
//! appends to it.
//!
//! Reading is strict: a header or record without its checksum or failing
//! it, a record line that does not parse or fails its checks, and a unit
//! recorded twice are errors
//! naming the file and the line. The one exception is the last line when the
//! file does not end with a line break: a record cut off by a kill, which is
//! dropped (and cut from the file when the run resumes, so that every line of
//! a checkpoint stays whole).

use super::run_file::{RunHeader, UnitRecord, alpha_text};
use crate::error::{Error, Result, invalid};
use crate::output::sealed_lines::ends_with_newline;
use std::collections::HashMap;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

/// A checkpoint's header and records, checked line by line (see the module
/// doc); `None` for a missing or empty file (e.g. one created by a run
/// killed before it wrote its header).
pub fn read_checkpoint_file(path: &Path) -> Result<Option<(RunHeader, Vec<UnitRecord>)>> {
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    match std::fs::read(path) {
        Ok(text) => parse_checkpoint(path, &text),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(io(e)),
    }
}

/// [`read_checkpoint_file`] on the file's contents `text`, already read
/// (`path` names it in messages).
pub fn parse_checkpoint(path: &Path, text: &[u8]) -> Result<Option<(RunHeader, Vec<UnitRecord>)>> {
    if text.is_empty() {
        return Ok(None);
    }
    let whole = text.ends_with(b"\n");
    let lines: Vec<&[u8]> = text.strip_suffix(b"\n").unwrap_or(text).split(|&b| b == b'\n').collect();
    let line_at = |number: usize| format!("{} line {number}", path.display());
    let header: RunHeader =
        std::str::from_utf8(lines[0]).ok().and_then(|l| serde_json::from_str(l).ok()).ok_or_else(|| {
            invalid(format!("{} is not a checkpoint of this program (unreadable header)", path.display()))
        })?;
    header.check().map_err(|e| e.at(&line_at(1)))?;
    let mut records = Vec::new();
    let mut first_line: HashMap<u64, usize> = HashMap::new();
    for (i, raw) in lines.iter().enumerate().skip(1) {
        let number = i + 1;
        if !whole && i + 1 == lines.len() {
            break; // the last record, cut off by a kill: its unit is evaluated again
        }
        if raw.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        let parsed = std::str::from_utf8(raw).ok().and_then(|l| serde_json::from_str::<UnitRecord>(l).ok());
        let record = parsed.ok_or_else(|| {
            invalid(format!(
                "{}: the record does not parse (edited or damaged; only the last line can be one cut off by a kill)",
                line_at(number)
            ))
        })?;
        record.check(header.record_key()).map_err(|e| e.at(&line_at(number)))?;
        if let Some(before) = first_line.insert(record.index, number) {
            return Err(invalid(format!(
                "{}: unit {} is recorded a second time (first on line {before})",
                line_at(number),
                record.index
            )));
        }
        records.push(record);
    }
    Ok(Some((header, records)))
}

/// The records of the checkpoint at `path` for the run `header`, and the
/// header the run goes on under: the checkpoint's own, or `header` for a new
/// one. A checkpoint of another run (another α by value, tie rule, problem,
/// levels or version) is refused.
pub(super) fn read_checkpoint(path: &Path, header: &RunHeader) -> Result<(RunHeader, Vec<UnitRecord>)> {
    let Some((theirs, records)) = read_checkpoint_file(path)? else { return Ok((header.clone(), Vec::new())) };
    if theirs.identity() != header.identity() {
        return Err(invalid(format!(
            "checkpoint {} belongs to another run ({} {} α={} {} levels {}); this run is {} {} α={} {} levels {}; remove it or choose another file",
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
        )));
    }
    Ok((theirs, records))
}

/// Opens the checkpoint for appending and takes an exclusive advisory lock
/// on it (held until the run ends); a file locked by another run is refused
/// ([`crate::output::sealed_lines::lock`]).
pub(crate) fn lock_checkpoint(path: Option<&Path>) -> Result<Option<std::fs::File>> {
    path.map(crate::output::sealed_lines::lock).transpose()
}

/// Makes the locked checkpoint ready for appending: an empty file gets
/// `header`; a last line cut off by a kill (which [`read_checkpoint_file`]
/// dropped) is cut from the file.
pub(super) fn prepare_checkpoint(
    file: Option<std::fs::File>,
    path: Option<&Path>,
    header: &RunHeader,
) -> Result<Option<std::fs::File>> {
    let (Some(mut file), Some(path)) = (file, path) else { return Ok(None) };
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    if file.metadata().map_err(io)?.len() == 0 {
        writeln!(file, "{}", serde_json::to_string(header).expect("plain data")).map_err(io)?;
    } else if !ends_with_newline(path).map_err(io)? {
        let text = std::fs::read(path).map_err(io)?;
        match text.iter().rposition(|&b| b == b'\n') {
            Some(end) => file.set_len(end as u64 + 1).map_err(io)?,
            // The header alone, without its line break (it was read whole).
            None => writeln!(file).map_err(io)?,
        }
    }
    Ok(Some(file))
}

/// Appends one record (a whole line) to the checkpoint, if the run keeps one.
pub(super) fn append_record(log: &Mutex<Option<std::fs::File>>, record: &UnitRecord) -> Result<()> {
    let mut guard = log.lock().expect("checkpoint lock");
    if let Some(file) = guard.as_mut() {
        let line = serde_json::to_string(record).expect("plain data");
        writeln!(file, "{line}")
            .and_then(|_| file.flush())
            .map_err(|e| Error::Io { path: "checkpoint".into(), source: e })?;
    }
    Ok(())
}
