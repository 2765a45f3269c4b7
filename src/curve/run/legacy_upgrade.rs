//! The one-time converter of curve run parts written before records were
//! keyed to their run (issue 48 item 4; the committed Beams(6c,6p) parts):
//! the only reader of that older format, whose records carry a CRC-32 of
//! their JSON alone. Every other reader refuses such a part
//! ([`super::unit_file::for_each_line`]).
//!
//! A part is converted only after three checks: its bytes are those its
//! manifest lists (SHA-256, `NAME.sha256` beside the run's overview), every
//! record passes its old checksum and is a unit of the run the command
//! names (same game, tie rule, α-range and levels; the unit's codes as
//! listed; each step function rebuilt with its enclosures re-checked, as the
//! merge reads it), and `recheck` of its units, drawn at random from a seed,
//! are computed again and agree point for point and value for value.
//!
//! The keyed part is a pure function of the old part's text: the header gets
//! `keyed: true` and its α-range as exact text ([`exact_domain_text`]),
//! every record keeps its JSON byte for byte under a CRC-32 of the run's key
//! and the JSON ([`super::run_key`]), and the text is xz-compressed at level 6
//! (one stream). So its SHA-256 is the same on every machine with this
//! program's xz library, and can stand in a manifest.

use super::run_key::{CurveRunId, exact_domain_text, file_sha256, parse_domain_text, run_key, same_run};
use super::unit_file::{UnitSteps, checked_line, open_run_file, unit_steps};
use super::units::{list_unit_domains, run_id};
use crate::curve::steps::{Domain, Span};
use crate::curve::walk::{Cut, CutMode, NodeSteps, walk_with_cut};
use crate::error::{Error, Result, invalid};
use crate::output::{crc32_hex, parse_checked_line, write_atomic_with};
use crate::progress::Progress;
use crate::search::play::Rng;
use crate::search::{SearchProblem, TieRule};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// What to convert: the run the parts belong to, and how many of each
/// part's units to compute again.
pub struct Upgrade<'a, P> {
    pub problem: &'a P,
    pub tie: TieRule,
    pub domain: &'a Domain,
    pub levels: usize,
    /// Units of each part computed again, drawn at random (at most all).
    pub recheck: usize,
    pub seed: u64,
}

/// A converted part.
#[derive(Clone, Debug)]
pub struct Upgraded {
    pub keyed: PathBuf,
    pub records: u64,
    /// SHA-256 of the old part (as its manifest lists) and of the keyed one.
    pub old_sha256: String,
    pub new_sha256: String,
    /// The units computed again (all agreed).
    pub rechecked: Vec<String>,
    pub convert_seconds: f64,
    pub recheck_seconds: f64,
}

/// The lines of a manifest (`sha256sum` format): (hash, part file name).
pub fn read_manifest(path: &Path) -> Result<Vec<(String, String)>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::Io { path: path.display().to_string(), source: e })?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
        let bad = || invalid(format!("{} line {}: not a sha256sum line (HASH  FILE)", path.display(), i + 1));
        let (hash, name) = line.split_once(char::is_whitespace).ok_or_else(bad)?;
        let name = name.trim_start().trim_start_matches('*');
        if hash.len() != 64 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) || name.is_empty() || name.contains('/') {
            return Err(bad());
        }
        out.push((hash.to_ascii_lowercase(), name.to_string()));
    }
    Ok(out)
}

/// The keyed part's file name: `X.part-004.units.xz` → `X.part-004.keyed.units.xz`.
pub fn keyed_name(name: &str) -> String {
    let stem = name.trim_end_matches(".xz").trim_end_matches(".gz");
    let stem = stem.strip_suffix(".units").unwrap_or(stem);
    format!("{stem}.keyed.units.xz")
}

/// Converts the old part at `old`, whose manifest lists `sha256`, into the
/// keyed part `keyed` (written atomically: nothing is left if a check fails),
/// every record checked against the run `run` names and `run.recheck` of
/// them computed again.
pub fn upgrade_part<P: SearchProblem>(
    run: &Upgrade<P>,
    old: &Path,
    sha256: &str,
    keyed: &Path,
    progress: &Progress,
) -> Result<Upgraded> {
    check_sha256(old, sha256)?;
    progress.begin("listing the run's units", None);
    let units = list_unit_domains(run.problem, run.tie, run.domain, run.levels);
    progress.end();
    let units = units?;
    let id = run_id(run.problem, run.tie, run.domain, run.levels, &units);
    let codes_of: HashMap<&str, u64> = units.iter().map(|u| (u.key.as_str(), u.codes)).collect();
    let expected = Expected { id: &id, codes_of: &codes_of, sample: run.recheck, seed: run.seed };
    let mut recheck = |sample| recheck(run, old, sample, progress);
    convert_file(old, keyed, Some(&expected), &mut recheck, progress)
}

/// [`upgrade_part`] without a run to check against: the part's SHA-256, every
/// record's old checksum, its step function (enclosures re-checked) and that
/// no unit is recorded twice are checked, but not that the records are units
/// of a run, nor is any unit computed again. For the tests of the committed
/// Beams(6c,6p) part, whose run takes minutes and GBs to list.
pub fn rekey_part_unchecked(old: &Path, sha256: &str, keyed: &Path) -> Result<Upgraded> {
    check_sha256(old, sha256)?;
    convert_file(old, keyed, None, &mut |_| Ok(Vec::new()), &Progress::none())
}

/// That the file at `path` has the SHA-256 its manifest lists.
fn check_sha256(path: &Path, sha256: &str) -> Result<()> {
    let got = file_sha256(path)?;
    if got != sha256 {
        return Err(invalid(format!(
            "{}: its SHA-256 {got} is not the {sha256} its manifest lists: not converted",
            path.display()
        )));
    }
    Ok(())
}

/// The run the records must belong to, and the draw of units to compute again.
struct Expected<'a> {
    id: &'a CurveRunId,
    codes_of: &'a HashMap<&'a str, u64>,
    sample: usize,
    seed: u64,
}

/// Writes the keyed part: converts, then hands the drawn records to
/// `recheck`; the part is renamed into place only if both succeed.
fn convert_file(
    old: &Path,
    keyed: &Path,
    expected: Option<&Expected>,
    recheck: &mut dyn FnMut(Vec<UnitSteps>) -> Result<Vec<String>>,
    progress: &Progress,
) -> Result<Upgraded> {
    let clock = std::time::Instant::now();
    let mut stats = (0u64, Vec::new(), 0.0, 0.0);
    // The refusal itself, kept beside the I/O error that stops the write.
    let mut refused: Option<Error> = None;
    progress.begin("records converted", None);
    let written = write_atomic_with(keyed, |w| {
        let mut fail = |e: Error| {
            refused = Some(e);
            std::io::Error::other("the part was refused")
        };
        let sample = match convert(old, expected, w, &mut stats.0, progress) {
            Ok(sample) => sample,
            Err(e) => return Err(fail(e)),
        };
        stats.2 = clock.elapsed().as_secs_f64();
        progress.end();
        stats.1 = recheck(sample).map_err(&mut fail)?;
        stats.3 = clock.elapsed().as_secs_f64() - stats.2;
        Ok(())
    });
    progress.end();
    if let Some(e) = refused {
        return Err(e);
    }
    written?;
    let (records, rechecked, convert_seconds, recheck_seconds) = stats;
    Ok(Upgraded {
        keyed: keyed.to_path_buf(),
        records,
        old_sha256: file_sha256(old)?,
        new_sha256: file_sha256(keyed)?,
        rechecked,
        convert_seconds,
        recheck_seconds,
    })
}

/// Streams the old part into `w` keyed, checking every record; returns the
/// records drawn for the recheck (a reservoir sample, seeded).
// Long: one pass over the part: header, then per record its old checksum, its unit, its steps and the sample
fn convert(
    old: &Path,
    expected: Option<&Expected>,
    w: &mut dyn Write,
    records: &mut u64,
    progress: &Progress,
) -> Result<Vec<UnitSteps>> {
    let name = old.display();
    let mut reader = open_run_file(old)?.ok_or_else(|| invalid(format!("{name}: no such file")))?;
    let io = |e| Error::Io { path: old.display().to_string(), source: e };
    let mut buf = Vec::new();
    let mut lines = 0usize;
    let mut next = |buf: &mut Vec<u8>| -> Result<Option<(String, bool, usize)>> {
        buf.clear();
        if reader.read_until(b'\n', buf).map_err(io)? == 0 {
            return Ok(None);
        }
        lines += 1;
        let whole = buf.ends_with(b"\n");
        let text = std::str::from_utf8(buf).map_err(|_| invalid(format!("{name} line {lines}: not text")))?;
        Ok(Some((text.trim_end_matches(['\n', '\r']).to_string(), whole, lines)))
    };
    use std::io::BufRead;
    let (first, _, _) = next(&mut buf)?.ok_or_else(|| invalid(format!("{name}: empty")))?;
    let theirs: CurveRunId = parse_checked_line(&first)
        .ok_or_else(|| invalid(format!("{name}: line 1 is not the header of a curve run (or fails its checksum)")))?;
    if theirs.keyed {
        return Err(invalid(format!("{name}: its records are keyed already; nothing to convert")));
    }
    if let Some(id) = expected.map(|e| e.id).filter(|id| !same_run(&theirs, id)) {
        return Err(invalid(format!(
            "{name} belongs to another run ({} {} {} levels {} {} units); this command names {} {} {} levels {} {} units",
            theirs.problem,
            theirs.tie_rule,
            theirs.domain,
            theirs.levels,
            theirs.units,
            id.problem,
            id.tie_rule,
            id.domain,
            id.levels,
            id.units
        )));
    }
    let (lo_closed, lo, hi, hi_closed) = parse_domain_text(&theirs.domain)
        .ok_or_else(|| invalid(format!("{name}: the header's α-range {:?} does not parse", theirs.domain)))?;
    let exact = Domain {
        lo: crate::curve::point::Point::exact(lo),
        lo_closed,
        hi: crate::curve::point::Point::exact(hi),
        hi_closed,
    };
    let header = CurveRunId { keyed: true, domain: exact_domain_text(&exact), ..theirs };
    let key = run_key(&header);
    writeln!(w, "{}", checked_line(&header)).map_err(io)?;
    let (sample_size, seed) = expected.map_or((0, 0), |e| (e.sample, e.seed));
    let mut rng = Rng::new(seed);
    let mut sample: Vec<UnitSteps> = Vec::new();
    let mut seen: HashSet<String> = HashSet::new();
    while let Some((line, whole, at)) = next(&mut buf)? {
        if line.is_empty() {
            continue;
        }
        let parsed = line.split_once(' ').and_then(|(crc, json)| {
            let ok = u32::from_str_radix(crc, 16).ok()? == crc32fast::hash(json.as_bytes());
            Some((json, serde_json::from_str::<UnitSteps>(json).ok().filter(|_| ok)?))
        });
        let Some((json, r)) = parsed else {
            if !whole {
                break; // the last line, cut off by a kill when the run was written
            }
            return Err(invalid(format!("{name} line {at}: the record fails its checksum or does not parse")));
        };
        let bad = |what: String| invalid(format!("{name} line {at}: unit {:?}: {what}", r.key));
        match expected.map(|e| e.codes_of.get(r.key.as_str())) {
            None => {}
            Some(None) => return Err(bad("no unit of this run has this key".into())),
            Some(Some(&n)) if n != r.codes => {
                return Err(bad(format!("recorded with {} codes; the unit has {n}", r.codes)));
            }
            _ => {}
        }
        if !seen.insert(r.key.clone()) {
            return Err(bad("recorded a second time in this part".into()));
        }
        unit_steps(&r).map_err(bad)?;
        writeln!(w, "{} {json}", crc32_hex(format!("{key} {json}").as_bytes())).map_err(io)?;
        *records += 1;
        progress.advance(1);
        let i = *records - 1;
        if sample.len() < sample_size {
            sample.push(r);
        } else if sample_size > 0 {
            let j = rng.below(i + 1) as usize;
            if j < sample_size {
                sample[j] = r;
            }
        }
    }
    Ok(sample)
}

/// Computes the sampled units again and compares them with their records:
/// the same spans (ends equal as points) with the same exact outcomes.
fn recheck<P: SearchProblem>(
    run: &Upgrade<P>,
    old: &Path,
    sample: Vec<UnitSteps>,
    progress: &Progress,
) -> Result<Vec<String>> {
    if sample.is_empty() {
        return Ok(Vec::new());
    }
    let todo: HashSet<String> = sample.iter().map(|r| r.key.clone()).collect();
    progress.begin("units computed again", Some(sample.iter().map(|r| r.codes).sum()));
    let fresh: Mutex<HashMap<String, NodeSteps>> = Mutex::new(HashMap::new());
    let finished = |key: &str, codes: u64, steps: &NodeSteps, _: std::time::Instant| {
        fresh.lock().unwrap_or_else(|e| e.into_inner()).insert(key.to_string(), steps.clone());
        progress.advance(codes);
    };
    let cut = Cut { levels: run.levels, mode: CutMode::Evaluate { todo: &todo, finished: &finished } };
    walk_with_cut(run.problem, run.tie, run.domain, None, Some(&cut));
    drop(cut);
    progress.end();
    let fresh = fresh.into_inner().unwrap_or_else(|e| e.into_inner());
    let mut keys = Vec::new();
    for r in sample {
        let bad = |what: String| invalid(format!("{}: unit {:?}: {what}", old.display(), r.key));
        let stored = unit_steps(&r).map_err(bad)?;
        let again = fresh.get(&r.key).ok_or_else(|| bad("the walk did not reach this unit".into()))?;
        if let Some(i) = first_difference(&stored, again) {
            return Err(bad(format!("computed again, it differs from its record at span {i}: not converted")));
        }
        keys.push(r.key);
    }
    Ok(keys)
}

/// The first span where two step functions differ (ends compared as
/// points, outcomes exactly), or their common length if one is longer.
fn first_difference(a: &NodeSteps, b: &NodeSteps) -> Option<usize> {
    let same_span = |x: &Span, y: &Span| match (x, y) {
        (Span::At(p), Span::At(q)) => p.same(q),
        (Span::Open(p, q), Span::Open(r, s)) => p.same(r) && q.same(s),
        _ => false,
    };
    let differ = a.iter().zip(b).position(|((s, o), (t, u))| !same_span(s, t) || **o != **u);
    differ.or((a.len() != b.len()).then_some(a.len().min(b.len())))
}
