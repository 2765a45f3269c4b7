//! Sealed JSON-lines files: the one line format of the work-unit files
//! (curve runs, `curve::run`; depth-bound certificate checkpoints,
//! `certificate::depth_checkpoint`).
//!
//! Line 1 is the run's typed identity: the CRC-32 (8 hex digits) of its JSON
//! text, a space, the text ([`identity_line`]). That CRC is the run's *key*
//! ([`run_key`]). Every other line is one record: the CRC-32 of the key, a
//! space and the record's JSON, then a space and the JSON ([`keyed_line`]), so
//! an edited or damaged record and a record spliced from another run (whose
//! key differs) fail their checksum where they stand.
//!
//! Reading ([`for_each_sealed_line`]) is strict: an identity line or record
//! that fails its checksum or does not parse, and a unit recorded twice in
//! one file, are errors naming the file and the line. The one exception is
//! the last line when the file does not end with a line break: a record cut
//! off by a kill, which is ignored (its unit is evaluated again) and cut from
//! the file before anything is appended ([`SealedLog::open`]), so that every
//! line of a sealed file stays whole. A file is locked while a process
//! appends to it ([`lock`]).

use crate::error::{Error, Result, invalid};
use serde::Serialize;
use serde::de::DeserializeOwned;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::Path;
use std::sync::Mutex;

/// The CRC-32 of `key`, a space and `json` (computed without joining them).
fn keyed_crc(key: &str, json: &str) -> u32 {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(key.as_bytes());
    hasher.update(b" ");
    hasher.update(json.as_bytes());
    hasher.finalize()
}

/// The identity line of a run: the CRC-32 of the JSON text, a space, the text.
pub fn identity_line<I: Serialize>(id: &I) -> String {
    crate::output::checked_line(id)
}

/// The key the records of run `id` are sealed with: the CRC-32 (hex) of its
/// identity's JSON, i.e. the checksum of its identity line.
pub fn run_key<I: Serialize>(id: &I) -> String {
    crate::output::crc32_hex(serde_json::to_string(id).unwrap_or_default().as_bytes())
}

/// A record line of the run whose key is `key`: the CRC-32 of the key, a
/// space and the JSON, then a space and the JSON.
pub fn keyed_line<T: Serialize>(key: &str, value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    format!("{:08x} {json}", keyed_crc(key, &json))
}

/// The checksum a [`keyed_line`] of `value` in the run `key` starts with (8
/// hex digits): what a record kept inside a JSON document (a shard file of an
/// analyze run) carries as its `crc`.
pub fn keyed_crc_hex<T: Serialize>(key: &str, value: &T) -> String {
    format!("{:08x}", keyed_crc(key, &serde_json::to_string(value).unwrap_or_default()))
}

/// Reads a [`keyed_line`] of the run `key`; `None` if the checksum (so also
/// the run) or the JSON is wrong.
pub fn parse_keyed_line<T: DeserializeOwned>(key: &str, line: &str) -> Option<T> {
    let (crc, json) = line.split_once(' ')?;
    if crc.len() != 8 {
        return None;
    }
    let crc = u32::from_str_radix(crc, 16).ok()?;
    (keyed_crc(key, json) == crc).then(|| serde_json::from_str(json).ok())?
}

/// Opens the file for appending and takes an exclusive advisory lock on it
/// (held until the file is dropped); a file locked by another run is refused.
pub fn lock(path: &Path) -> Result<std::fs::File> {
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    let file = std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(io)?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(invalid(format!(
            "checkpoint {} is in use by another run (locked); wait for it to finish or choose another file",
            path.display()
        ))),
        Err(std::fs::TryLockError::Error(e)) => Err(io(e)),
    }
}

/// Whether the file at `path` is empty or ends with a newline.
pub fn ends_with_newline(path: &Path) -> std::io::Result<bool> {
    use std::io::{Read, Seek, SeekFrom};
    let mut file = std::fs::File::open(path)?;
    if file.seek(SeekFrom::End(0))? == 0 {
        return Ok(true);
    }
    file.seek(SeekFrom::End(-1))?;
    let mut last = [0u8; 1];
    file.read_exact(&mut last)?;
    Ok(last[0] == b'\n')
}

/// Cuts a last line without its line break (cut off by a kill) from the
/// locked `file` at `path`, so that the next record starts a line of its own.
pub fn drop_cut_off_line(file: &std::fs::File, path: &Path) -> Result<()> {
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    if !ends_with_newline(path).map_err(io)? {
        let text = std::fs::read(path).map_err(io)?;
        let keep = text.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        file.set_len(keep as u64).map_err(io)?;
    }
    Ok(())
}

/// A file's text, read through gzip or xz when it is compressed (a finished
/// part of a curve run is kept so: gzip about 7× smaller, xz a third smaller
/// again; measured on part 8 of the 6c6p run); `None` if it is missing.
pub fn open_sealed(path: &Path) -> Result<Option<Box<dyn BufRead>>> {
    let io = |e| Error::Io { path: path.display().to_string(), source: e };
    let mut file = match std::fs::File::open(path) {
        Ok(f) => std::io::BufReader::with_capacity(1 << 20, f),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(e)),
    };
    let head = file.fill_buf().map_err(io)?;
    Ok(Some(if head.starts_with(&[0x1f, 0x8b]) {
        Box::new(std::io::BufReader::with_capacity(1 << 20, flate2::read::MultiGzDecoder::new(file)))
    } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
        Box::new(std::io::BufReader::with_capacity(1 << 20, liblzma::read::XzDecoder::new_multi_decoder(file)))
    } else {
        Box::new(file)
    }))
}

/// Checks a file's identity before any record is read (and may refuse the file).
pub type IdentityCheck<'a, I> = Box<dyn FnOnce(&I) -> Result<()> + 'a>;

/// What a reader of sealed files needs to know of its records.
pub struct SealedReading<'a, I, T, U> {
    /// What the file is, for the message on a bad line 1 (e.g. "curve run").
    pub what: &'a str,
    /// Checks the file's identity (and may refuse the file) before any record is read.
    pub identity: IdentityCheck<'a, I>,
    /// The unit a record is of: a unit recorded twice in one file is refused.
    pub unit_of: fn(&T) -> U,
}

/// Streams the sealed file at `path` (plain, gzip or xz): its identity goes to
/// `reading.identity`, then each record, in file order, to `each` with its
/// whole line (without its line break) and the run's key; nothing is kept, so a
/// file of several GB is checked without holding its text. Returns the
/// identity and the key, or `None` for a missing or empty file.
pub fn for_each_sealed_line<I, T, U>(
    path: &Path,
    reading: SealedReading<I, T, U>,
    mut each: impl FnMut(&str, &str, T) -> Result<()>,
) -> Result<Option<(I, String)>>
where
    I: DeserializeOwned,
    T: DeserializeOwned,
    U: std::hash::Hash + Eq + std::fmt::Debug,
{
    let Some(mut reader) = open_sealed(path)? else { return Ok(None) };
    let mut lines = LineReader { path, reader: &mut *reader, buf: Vec::new(), number: 0 };
    let Some((first, _)) = lines.next()? else { return Ok(None) };
    let id: I = crate::output::parse_checked_line(&first).ok_or_else(|| {
        invalid(format!("{}: line 1 is not the header of a {} (or fails its checksum)", path.display(), reading.what))
    })?;
    (reading.identity)(&id)?;
    let key = first.split_once(' ').map_or("", |(crc, _)| crc).to_string();
    let mut first_line: HashMap<U, usize> = HashMap::new();
    while let Some((line, whole)) = lines.next()? {
        let number = lines.number;
        if !whole {
            break; // the last line, cut off by a kill: its unit is evaluated again
        }
        if line.trim().is_empty() {
            continue;
        }
        let Some(record) = parse_keyed_line::<T>(&key, &line) else {
            return Err(invalid(format!(
                "{} line {number}: the record fails its checksum or does not parse (edited, damaged, or a \
                 record of another run)",
                path.display()
            )));
        };
        let unit = (reading.unit_of)(&record);
        if let Some(before) = first_line.get(&unit) {
            return Err(invalid(format!(
                "{} line {number}: unit {unit:?} is recorded a second time in this file (first on line {before})",
                path.display()
            )));
        }
        first_line.insert(unit, number);
        each(&line, &key, record)?;
    }
    Ok(Some((id, key)))
}

/// The lines of a sealed file, each with whether it ended with a line break.
struct LineReader<'a> {
    path: &'a Path,
    reader: &'a mut dyn BufRead,
    buf: Vec<u8>,
    number: usize,
}

impl LineReader<'_> {
    /// The next line without its line break (`\n` or `\r\n`); a last line
    /// cut off inside a character comes back empty and not whole.
    fn next(&mut self) -> Result<Option<(String, bool)>> {
        self.buf.clear();
        let n = self
            .reader
            .read_until(b'\n', &mut self.buf)
            .map_err(|e| Error::Io { path: self.path.display().to_string(), source: e })?;
        if n == 0 {
            return Ok(None);
        }
        self.number += 1;
        let whole = self.buf.ends_with(b"\n");
        let text = match std::str::from_utf8(&self.buf) {
            Ok(text) => text,
            Err(_) if !whole => "",
            Err(_) => return Err(invalid(format!("{}: not a text file", self.path.display()))),
        };
        Ok(Some((text.strip_suffix('\n').map(|t| t.strip_suffix('\r').unwrap_or(t)).unwrap_or(text).into(), whole)))
    }
}

/// A locked sealed file open for appending the records of one run.
pub struct SealedLog {
    path: String,
    key: String,
    file: Mutex<std::fs::File>,
}

impl SealedLog {
    /// Makes the locked `file` at `path` ready for appending records of run
    /// `id`: an empty file gets the identity line, a last line cut off by a
    /// kill is cut. The caller has read the file and checked its identity.
    pub fn open<I: Serialize>(file: std::fs::File, path: &Path, id: &I) -> Result<SealedLog> {
        let io = |e| Error::Io { path: path.display().to_string(), source: e };
        let mut file = file;
        drop_cut_off_line(&file, path)?;
        // Empty, or its identity line alone without its line break (cut above): the identity goes first.
        if file.metadata().map_err(io)?.len() == 0 {
            writeln!(file, "{}", identity_line(id)).map_err(io)?;
        }
        Ok(SealedLog { path: path.display().to_string(), key: run_key(id), file: Mutex::new(file) })
    }

    /// The run's key its records are sealed with.
    pub fn key(&self) -> &str {
        &self.key
    }

    /// Appends one record: one write of a whole line, flushed.
    pub fn append<T: Serialize>(&self, record: &T) -> Result<()> {
        let line = keyed_line(&self.key, record) + "\n";
        let mut file = self.file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(line.as_bytes())
            .and_then(|_| file.flush())
            .map_err(|e| Error::Io { path: self.path.clone(), source: e })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keyed CRC is the CRC-32 of "key json" (the committed curve parts
    /// are sealed so); a record checks only under its own run's key.
    #[test]
    fn keyed_lines_seal_key_and_record() {
        let line = keyed_line("0badc0de", &vec![1, 2, 3]);
        assert_eq!(line, format!("{} [1,2,3]", crate::output::crc32_hex(b"0badc0de [1,2,3]")));
        assert_eq!(parse_keyed_line::<Vec<u32>>("0badc0de", &line), Some(vec![1, 2, 3]));
        assert_eq!(parse_keyed_line::<Vec<u32>>("0badc0df", &line), None);
        assert_eq!(parse_keyed_line::<Vec<u32>>("0badc0de", &line.replace('2', "4")), None);
        assert_eq!(run_key(&"id"), crate::output::crc32_hex(b"\"id\""));
        assert!(identity_line(&"id").starts_with(&run_key(&"id")));
    }
}
