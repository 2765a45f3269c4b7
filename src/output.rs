//! Writing results: files appear complete or not at all (temp file + rename;
//! devices and stdout in place, see [`target`]),
//! and every results file carries what produced it.

use crate::error::{Result, invalid};
use serde::Serialize;
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

pub mod markdown;
pub mod same_file;
pub mod sealed_lines;
pub mod spool;
pub mod target;
pub mod work_units;
pub use markdown::{Align, MarkdownTable};
pub use target::{
    all_or_none, forget_temporary, remove_temporary_files, remove_temporary_files_without_allocating, track_temporary,
};

/// What produced a results file: program, version and command, and for a
/// timed run also when it started, how long it took and on how many threads.
///
/// Invariant: a provenance made by [`Provenance::stable`] (every `reproduce`
/// target) serialises and prints only program, version and command, so that a
/// results file is the same bytes on every run and machine (issue 52 item 3);
/// its time stays in memory for the run log and the terminal.
#[derive(Clone, Debug)]
pub struct Provenance {
    pub program: &'static str,
    pub version: &'static str,
    pub command: String,
    /// UTC start time, ISO 8601.
    pub started: String,
    pub seconds: f64,
    pub threads: usize,
    /// Whether start, seconds and threads belong in the file (false: a results file).
    pub timed: bool,
}

impl Serialize for Provenance {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> std::result::Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut s = serializer.serialize_struct("Provenance", if self.timed { 6 } else { 3 })?;
        s.serialize_field("program", self.program)?;
        s.serialize_field("version", self.version)?;
        s.serialize_field("command", &self.command)?;
        if self.timed {
            s.serialize_field("started", &self.started)?;
            s.serialize_field("seconds", &self.seconds)?;
            s.serialize_field("threads", &self.threads)?;
        }
        s.end()
    }
}

impl Provenance {
    /// A timed provenance (user runs: `curve`, `play`, …): start, seconds and threads are written.
    pub fn new(command: impl Into<String>, started: SystemTime, seconds: f64) -> Provenance {
        Provenance {
            program: "renyi-search",
            version: crate::VERSION,
            command: command.into(),
            started: iso_utc(started),
            seconds,
            threads: rayon::current_num_threads(),
            timed: true,
        }
    }

    /// The provenance of a results file: program, version and command only in
    /// the file; `seconds` is kept for the run log.
    pub fn stable(command: impl Into<String>, seconds: f64) -> Provenance {
        Provenance { timed: false, ..Provenance::new(command, UNIX_EPOCH, seconds) }
    }

    /// The provenance sentence of a results table (without its full stop):
    /// "Produced by renyi-search 0.1.0 (`command`)", and for a timed run
    /// ", started …, 7.7 s on 2 threads" with `scope` after the seconds
    /// (e.g. " in this session").
    pub fn produced_by(&self, scope: &str) -> String {
        let head = format!("Produced by {} {} (`{}`)", self.program, self.version, self.command);
        if !self.timed {
            return head;
        }
        format!("{head}, started {}, {:.1} s{scope} on {} threads", self.started, self.seconds, self.threads)
    }
}

/// The folders of a results directory (ARCHITECTURE.md, "Where things live"): what a reproduce
/// target writes where.
pub mod layout {
    use std::path::{Path, PathBuf};

    /// Reproduced tables: markdown for reading, JSON with provenance.
    pub fn table(results: &Path, file: &str) -> PathBuf {
        results.join("tables").join(file)
    }

    /// Data for users who compute or plot: CSV scans, Monte-Carlo checks.
    pub fn data(results: &Path, file: &str) -> PathBuf {
        results.join("data").join(file)
    }

    /// Exact α-curves (CSV and JSON, one pair per curve).
    pub fn curve(results: &Path, file: &str) -> PathBuf {
        results.join("data").join("curves").join(file)
    }

    /// Strategy trees (`perfect --tree`), re-checked by `verify`, and their certificates (`perfect --certificate`).
    pub fn tree(results: &Path, file: &str) -> PathBuf {
        results.join("data").join("trees").join(file)
    }

    /// Figures (SVG rendered by the program; older PNG by scripts/).
    pub fn figure(results: &Path, file: &str) -> PathBuf {
        results.join("figures").join(file)
    }

    /// Run files of the long computations: checkpoints, unit records, shards.
    pub fn runs(results: &Path, folder: &str) -> PathBuf {
        results.join("runs").join(folder)
    }
}

/// The CRC-32 (IEEE, crc32fast) of `bytes` as 8 lowercase hex digits: the seal
/// every run, strategy, certificate and unit file carries.
pub fn crc32_hex(bytes: &[u8]) -> String {
    format!("{:08x}", crc32fast::hash(bytes))
}

/// A line of a sealed JSON-lines file: the CRC-32 of the JSON text, a space, the text.
pub fn checked_line<T: serde::Serialize>(value: &T) -> String {
    let json = serde_json::to_string(value).unwrap_or_default();
    format!("{} {json}", crc32_hex(json.as_bytes()))
}

/// Reads a [`checked_line`]; `None` if the checksum or the JSON is wrong.
pub fn parse_checked_line<T: for<'de> serde::Deserialize<'de>>(line: &str) -> Option<T> {
    let (crc, json) = line.split_once(' ')?;
    let crc = u32::from_str_radix(crc, 16).ok()?;
    (crc32fast::hash(json.as_bytes()) == crc).then(|| serde_json::from_str(json).ok())?
}

/// The SHA-256 of `bytes` as 64 lowercase hex digits (the seals of sealed
/// targets, the digests of packed proof bodies).
pub fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

/// Writes `contents` to `path`: atomically (a temporary file in the same
/// directory is written, flushed, and renamed over the target), or in place
/// for stdout (`-`), devices and FIFOs ([`target`]).
pub fn write_atomic(path: &Path, contents: &[u8]) -> Result<()> {
    target::write_output(path, |w| w.write_all(contents))
}

/// Writes `path` like [`write_atomic`], its contents streamed by `fill` (for
/// files too large to hold, e.g. a curve of millions of pieces). A path
/// ending in `.gz` or `.xz` is compressed (gzip, or xz at level 6) on the way.
pub fn write_atomic_with(path: &Path, fill: impl FnOnce(&mut dyn std::io::Write) -> std::io::Result<()>) -> Result<()> {
    let name = path.file_name().map(|n| n.to_string_lossy().to_string()).unwrap_or_default();
    target::write_output(path, |file| {
        if name.ends_with(".gz") {
            let mut z = flate2::write::GzEncoder::new(file, flate2::Compression::default());
            fill(&mut z)?;
            z.finish().map(drop)
        } else if name.ends_with(".xz") {
            let mut z = liblzma::write::XzEncoder::new(file, 6);
            fill(&mut z)?;
            z.finish().map(drop)
        } else {
            fill(file)
        }
    })
}

/// CSV text written by the `csv` crate: the header row first (a plain
/// `pandas.read_csv` reads it; provenance belongs in the JSON beside it),
/// then one record per row (tuples or structs of fields; a field with a
/// comma, quote or line break is quoted). Floats are best given as formatted strings:
/// the crate writes `1.0` where Rust's `Display` writes `1`.
pub fn csv_text<R: Serialize>(header: &[&str], rows: impl IntoIterator<Item = R>) -> Result<String> {
    let bad = |e: csv::Error| invalid(format!("CSV: {e}"));
    let mut out: Vec<u8> = Vec::new();
    let mut w = csv::WriterBuilder::new().has_headers(false).from_writer(&mut out);
    w.write_record(header).map_err(bad)?;
    for row in rows {
        w.serialize(row).map_err(bad)?;
    }
    w.flush().map_err(|e| invalid(format!("CSV: {e}")))?;
    drop(w);
    String::from_utf8(out).map_err(|e| invalid(format!("CSV: {e}")))
}

/// Serialises `value` as pretty JSON with a final line break and writes it atomically.
/// The JSON is streamed to the file (and compressed if `path` ends in `.gz`
/// or `.xz`, see [`write_atomic_with`]).
pub fn write_json<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    write_atomic_with(path, |w| {
        serde_json::to_writer_pretty(&mut *w, value).map_err(std::io::Error::other)?;
        w.write_all(b"\n")
    })
}

/// Serialises `value` as compact JSON (one line, no final line break) and writes
/// it atomically: for files too large to read pretty, such as curves with
/// thousands of pieces.
pub fn write_json_compact<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let bytes = serde_json::to_vec(value).map_err(|e| invalid(format!("JSON: {e}")))?;
    write_atomic(path, &bytes)
}

/// Writes a reproduced table as its two files, `tables/<stem>.json` (pretty JSON of
/// `json`, which carries the target's [`Provenance`]; `curves` keeps it in each
/// curve's file instead) and `tables/<stem>.md`: both renamed into place once
/// both were written ([`all_or_none`]).
pub fn write_table<T: Serialize>(results: &Path, stem: &str, json: &T, markdown: &str) -> Result<()> {
    all_or_none(|| {
        write_json(&layout::table(results, &format!("{stem}.json")), json)?;
        write_atomic(&layout::table(results, &format!("{stem}.md")), markdown.as_bytes())
    })
}

/// Formats a time as `YYYY-MM-DDTHH:MM:SSZ` (UTC).
pub fn iso_utc(t: SystemTime) -> String {
    let secs = t.duration_since(UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z", rem / 3600, rem % 3600 / 60, rem % 60)
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn formats_dates() {
        assert_eq!(iso_utc(UNIX_EPOCH), "1970-01-01T00:00:00Z");
        assert_eq!(iso_utc(UNIX_EPOCH + Duration::from_secs(1_795_000_000)), "2026-11-18T11:06:40Z");
    }

    #[test]
    fn atomic_write_leaves_no_temp_file() {
        let dir = std::env::temp_dir().join(format!("rs-out-{}", std::process::id()));
        let path = dir.join("x.json");
        write_json(&path, &vec![1, 2, 3]).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap().split_whitespace().collect::<String>(), "[1,2,3]");
        let leftovers = std::fs::read_dir(&dir).unwrap().count();
        assert_eq!(leftovers, 1);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn streamed_writes_compress_by_extension_and_fail_cleanly() {
        use std::io::Read;
        let dir = std::env::temp_dir().join(format!("rs-out-z-{}", std::process::id()));
        let text = "a,b\n".repeat(1000);
        for name in ["x.csv", "x.csv.gz", "x.csv.xz"] {
            write_atomic_with(&dir.join(name), |w| w.write_all(text.as_bytes())).unwrap();
        }
        let mut gz = String::new();
        flate2::read::GzDecoder::new(std::fs::File::open(dir.join("x.csv.gz")).unwrap())
            .read_to_string(&mut gz)
            .unwrap();
        let mut xz = String::new();
        liblzma::read::XzDecoder::new(std::fs::File::open(dir.join("x.csv.xz")).unwrap())
            .read_to_string(&mut xz)
            .unwrap();
        assert_eq!((std::fs::read_to_string(dir.join("x.csv")).unwrap(), gz), (text.clone(), xz));
        assert!(std::fs::metadata(dir.join("x.csv.xz")).unwrap().len() < 200);
        // A failing writer leaves neither the file nor a temporary one.
        let failed = write_atomic_with(&dir.join("y.csv"), |_| Err(std::io::Error::other("disk full")));
        assert!(failed.is_err());
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
