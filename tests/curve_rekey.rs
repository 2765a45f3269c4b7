//! The one-time conversion of a committed Beams(6c,6p) curve run to a
//! per-unit manifest with exact unit keys (`NAME.units.tsv`: sha256, codes,
//! part, key per unit; docs/runs.md "Unit keys of curve runs"). The run's
//! old parts carry the old printed keys (`TRAIL @ [2, 2.5]`, crossings as
//! decimal enclosures); the manifest names each unit by its exact key
//! (`TRAIL @ [2, 5/2]`, crossings as `root(P|Q)±k`). Run once per run with
//! `--ignored`, as tests/run_upgrade.rs was for the analyze runs:
//!
//! ```text
//! RUN=results/runs/curves/beams-6c6p/lex-c-0.5-1 UNIT_LIST=lex-c-0.5-1.list PARTS_DIR=parts \
//!     cargo test --release --test curve_rekey -- --ignored
//! ```
//!
//! `RUN` names the run (its `RUN.sha256` lists the old parts; `RUN.units.tsv`
//! is written), `UNIT_LIST` is today's `curve … --list-units --units FILE`
//! of the run (its α-range is the run's: each old part's header must name
//! the same one, equal as rationals), `PARTS_DIR` holds the old parts
//! (scripts/fetch-curve-parts.sh), and `RECHECK` (optional) names
//! checkpoints of units computed again by today's program, each compared
//! with the converted manifest.
//!
//! Each old key is matched to exactly one listed unit: the same trail, the
//! same open/closed ends, an exact end equal as a rational, a crossing end
//! whose old printed enclosure overlaps the listed certified one (exact
//! rationals; the old print rounded to nearest, not outward). The old
//! records are taken from the parts (each part's SHA-256 as its manifest
//! lists, each record's old CRC-32, and, where an old per-unit manifest with
//! the old keys exists, each record's content hash as it lists), then sealed
//! again under the new key. Every unit of the listing must be matched by
//! exactly one record, with its codes. The new manifest is written whole or
//! not at all; a manifest already converted is left alone.

mod common;

use num_bigint::BigInt;
use num_rational::BigRational;
use renyi_search::curve::run::unit_file::{PointRecord, StepRecord, ValueRecord};
use renyi_search::output::sealed_lines::parse_keyed_line;
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashMap};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

/// What a unit's content hash covers (scripts/curve-unit-manifest.py).
#[derive(Deserialize)]
struct Unit {
    key: String,
    codes: u64,
    points: Vec<PointRecord>,
    values: Vec<ValueRecord>,
    steps: Vec<StepRecord>,
}

/// SHA-256 of the compact JSON `[key, codes, points, values, steps]`.
fn content_hash(key: &str, u: &Unit) -> String {
    let text = serde_json::to_string(&(key, u.codes, &u.points, &u.values, &u.steps)).unwrap();
    format!("{:x}", Sha256::digest(text.as_bytes()))
}

/// An exact number: `p/q`, or a decimal with an optional exponent.
fn rational(text: &str) -> BigRational {
    if let Some((p, q)) = text.split_once('/') {
        return BigRational::new(p.parse().unwrap(), q.parse().unwrap());
    }
    let (mantissa, exp) = match text.split_once(['e', 'E']) {
        Some((m, e)) => (m, e.parse::<i64>().unwrap()),
        None => (text, 0),
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits: BigInt = format!("{int}{frac}").parse().unwrap_or_else(|_| panic!("not a number: {text:?}"));
    let scale = exp - frac.len() as i64;
    let ten = |n: i64| num_traits::pow(BigInt::from(10), n.unsigned_abs() as usize);
    if scale >= 0 { BigRational::from_integer(digits * ten(scale)) } else { BigRational::new(digits, ten(scale)) }
}

/// A domain's text `[lo, hi]` (brackets turned outward when open): whether
/// each end is closed, and the two ends' texts (an end may be `[a, b]`).
fn split_domain(domain: &str) -> (bool, String, String, bool) {
    let inner = &domain[1..domain.len() - 1];
    let (lo, hi) = match inner.strip_prefix('[') {
        Some(rest) => {
            let (enclosure, hi) = rest.split_once("], ").unwrap();
            (format!("[{enclosure}]"), hi.to_string())
        }
        None => {
            let (lo, hi) = inner.split_once(", ").unwrap();
            (lo.to_string(), hi.to_string())
        }
    };
    (domain.starts_with('['), lo, hi, domain.ends_with(']'))
}

/// Whether an old printed end names the listed end `new` (a PointRecord as JSON).
fn same_end(old: &str, new: &Value) -> bool {
    let text = |field: &str| new[field].as_str().unwrap().to_string();
    match (old.strip_prefix('[').and_then(|o| o.strip_suffix(']')), new["kind"].as_str().unwrap()) {
        (Some(enclosure), "root") => {
            let (lo, hi) = enclosure.split_once(", ").unwrap();
            rational(lo) <= rational(&text("hi")) && rational(&text("lo")) <= rational(hi)
        }
        (None, "exact") => {
            let alpha = text("alpha");
            if old == "inf" || alpha == "inf" { old == alpha } else { rational(old) == rational(&alpha) }
        }
        _ => false,
    }
}

/// The listed units of today's program by trail, and the list's header text.
fn read_listing(path: &Path) -> (String, HashMap<String, Vec<Value>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let (key, header) = lines.next().unwrap().split_once(' ').unwrap();
    assert_eq!(format!("{:08x}", crc32fast::hash(header.as_bytes())), key, "{}: header checksum", path.display());
    let mut by_trail: HashMap<String, Vec<Value>> = HashMap::new();
    for (i, line) in lines.enumerate() {
        let unit: Value =
            parse_keyed_line(key, line).unwrap_or_else(|| panic!("{} line {}: bad checksum", path.display(), i + 2));
        let trail = unit["key"].as_str().unwrap().rsplit_once(" @ ").unwrap().0.to_string();
        by_trail.entry(trail).or_default().push(unit);
    }
    (header.to_string(), by_trail)
}

/// The listed unit an old key names: exactly one, or the conversion stops.
fn matching<'a>(old_key: &str, listing: &'a HashMap<String, Vec<Value>>) -> &'a Value {
    let (trail, domain) = old_key.rsplit_once(" @ ").unwrap();
    let (lo_closed, lo, hi, hi_closed) = split_domain(domain);
    let found: Vec<&Value> = listing
        .get(trail)
        .into_iter()
        .flatten()
        .filter(|u| u["lo_closed"] == lo_closed && u["hi_closed"] == hi_closed)
        .filter(|u| same_end(&lo, &u["lo"]) && same_end(&hi, &u["hi"]))
        .collect();
    assert_eq!(found.len(), 1, "old unit {old_key:?}: {} listed units match, not one", found.len());
    found[0]
}

/// That an old part's header names the listed run (its domain equal as rationals).
fn check_old_header(part: &str, old: &Value, listed: &Value) {
    for field in ["program", "version", "problem", "tie_rule", "levels", "units", "unit_codes"] {
        assert_eq!(old[field], listed[field], "{part}: header field {field}");
    }
    let ends = |d: &Value| {
        let (lc, lo, hi, hc) = split_domain(d.as_str().unwrap());
        (lc, rational(&lo), rational(&hi), hc)
    };
    assert_eq!(ends(&old["domain"]), ends(&listed["domain"]), "{part}: domain");
}

/// The decompressed text of an old part (`.xz`, or `.gz` for some older parts).
fn part_reader<'a>(part: &str, bytes: &'a [u8]) -> Box<dyn Read + 'a> {
    match part.rsplit_once('.').map(|(_, ext)| ext) {
        Some("xz") => Box::new(liblzma::read::XzDecoder::new_multi_decoder(bytes)),
        Some("gz") => Box::new(flate2::read::MultiGzDecoder::new(bytes)),
        _ => panic!("{part}: neither .xz nor .gz"),
    }
}

/// A manifest's units: (hash, codes, part) by key.
fn read_old_manifest(path: &Path) -> BTreeMap<String, (String, u64, String)> {
    let mut out = BTreeMap::new();
    for line in std::fs::read_to_string(path).unwrap().lines().filter(|l| !l.starts_with('#')) {
        let f: Vec<&str> = line.splitn(4, '\t').collect();
        out.insert(f[3].to_string(), (f[0].to_string(), f[1].parse().unwrap(), f[2].to_string()));
    }
    out
}

/// Converts the run `RUN` names (see the module comment; a converted
/// manifest is left alone), then checks the units of `RECHECK`. Prints its counts.
#[test]
#[ignore]
fn rekey_committed_manifest() {
    let env = |name: &str| PathBuf::from(std::env::var(name).unwrap_or_else(|_| panic!("set {name}")));
    let (run, list_path, parts) = (env("RUN"), env("UNIT_LIST"), env("PARTS_DIR"));
    let run = common::root().join(run).display().to_string();
    let (header, listing) = read_listing(&list_path);
    let out = PathBuf::from(format!("{run}.units.tsv"));
    let run_line = format!("# run {}\n", header.replace(",\"keyed\":true", ""));
    let before = std::fs::read_to_string(&out).ok();
    if before.as_deref().is_some_and(|text| text.starts_with(&run_line)) {
        println!("already converted (its run line is the listing's)");
        recheck_against(&out);
        return;
    }
    // An old per-unit manifest (old keys), if the run has one: checked too.
    let old = before.map(|_| read_old_manifest(&out));
    let listed_header: Value = serde_json::from_str(&header).unwrap();
    let (new, roots) = convert_parts(&run, &parts, &listed_header, &listing, old.as_ref());
    if let Some(old) = &old {
        assert_eq!(new.len(), old.len(), "every unit of the old manifest is in the parts");
    }
    assert_eq!(new.len(), listing.values().map(Vec::len).sum::<usize>(), "every listed unit is converted");
    assert_eq!(Some(new.len() as u64), listed_header["units"].as_u64(), "the listing's unit count");
    let codes: u64 = new.values().map(|(_, codes, _)| codes).sum();
    assert_eq!(Some(codes), listed_header["unit_codes"].as_u64(), "the units' codes add up to the run's");
    let mut text = run_line;
    for (key, (hash, codes, part)) in &new {
        text += &format!("{hash}\t{codes}\t{part}\t{key}\n");
    }
    let tmp = out.with_extension("tsv.tmp");
    std::fs::write(&tmp, text).unwrap();
    std::fs::rename(&tmp, &out).unwrap();
    println!("{} units converted ({roots} with a crossing end)", new.len());
    recheck_against(&out);
}

/// The records of the parts `RUN.sha256` lists, each checked and matched to
/// its listed unit: (new content hash, codes, part) by new key, and how many
/// keys have a crossing end.
fn convert_parts(
    run: &str,
    parts: &Path,
    listed_header: &Value,
    listing: &HashMap<String, Vec<Value>>,
    old: Option<&BTreeMap<String, (String, u64, String)>>,
) -> (BTreeMap<String, (String, u64, String)>, usize) {
    let mut new: BTreeMap<String, (String, u64, String)> = BTreeMap::new();
    let mut roots = 0;
    for line in std::fs::read_to_string(format!("{run}.sha256")).unwrap().lines() {
        let (sha256, part) = line.split_once("  ").unwrap();
        let bytes = std::fs::read(parts.join(part)).unwrap();
        assert_eq!(format!("{:x}", Sha256::digest(&bytes)), sha256, "{part}: not the part its manifest lists");
        let mut lines = BufReader::new(part_reader(part, &bytes)).lines();
        let first = lines.next().unwrap().unwrap();
        let (crc, old_header) = first.split_once(' ').unwrap();
        assert_eq!(format!("{:08x}", crc32fast::hash(old_header.as_bytes())), crc, "{part} line 1: old checksum");
        check_old_header(part, &serde_json::from_str(old_header).unwrap(), listed_header);
        for (i, line) in lines.enumerate() {
            let line = line.unwrap();
            let (crc, json) = line.split_once(' ').unwrap();
            let at = format!("{part} line {}", i + 2);
            assert_eq!(format!("{:08x}", crc32fast::hash(json.as_bytes())), crc, "{at}: old checksum");
            let unit: Unit = serde_json::from_str(json).unwrap();
            if let Some(old) = old {
                let (hash, codes, in_part) = &old[&unit.key];
                assert_eq!(
                    (content_hash(&unit.key, &unit), unit.codes, in_part.as_str()),
                    (hash.clone(), *codes, part)
                );
            }
            let listed = matching(&unit.key, listing);
            let key = listed["key"].as_str().unwrap().to_string();
            assert_eq!(listed["codes"].as_u64(), Some(unit.codes), "{at}: codes");
            roots += usize::from(key.contains("root("));
            let sealed = (content_hash(&key, &unit), unit.codes, part.to_string());
            assert!(new.insert(key.clone(), sealed).is_none(), "{at}: a second old unit maps to {key:?}");
        }
    }
    (new, roots)
}

/// With `RECHECK` set (checkpoint files, separated by spaces): every unit in
/// them, computed again by today's program, hashes as the manifest lists.
fn recheck_against(manifest: &Path) {
    let Ok(files) = std::env::var("RECHECK") else { return };
    let listed = read_old_manifest(manifest);
    let mut agreed = 0;
    for file in files.split_whitespace() {
        let text = std::fs::read_to_string(file).unwrap();
        let mut lines = text.lines();
        let (key, _) = lines.next().unwrap().split_once(' ').unwrap();
        for line in lines {
            let unit: Unit = parse_keyed_line(key, line).unwrap_or_else(|| panic!("{file}: bad record"));
            assert_eq!(content_hash(&unit.key, &unit), listed[&unit.key].0, "{file}: unit {}", unit.key);
            agreed += 1;
        }
    }
    assert!(agreed > 0, "RECHECK names no units");
    println!("{agreed} units computed again agree with the manifest");
}
