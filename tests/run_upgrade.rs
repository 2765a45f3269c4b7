//! The committed analyze runs (results/runs/beams-6c3p/, beams-6c6p/) in the
//! one sealed line format (issue 49 item 3): every checkpoint (`.jsonl`) and
//! every finished shard file (`.json`, which `reproduce table-4.10` reads)
//! reads with the sealed readers, the checkpoint holds the units of its shard
//! file (equal but for the last bit of a few units' wall seconds), and units
//! drawn at random compute again to their records.
//!
//! The finished shard files were one JSON document each (the CRCs inside:
//! the header's, each record's, one over header, shard and totals) and were
//! converted once by `convert_committed_shard_files` below (run with
//! `--ignored`), whose `OldShardFile` is the only reader of that format left.
//!
//! The checkpoints were written in an older format (the CRCs inside each JSON
//! line) and converted once by `convert_committed_checkpoints` below (run with
//! `--ignored`): the only reader of that format, kept here and not in the
//! program. A line is converted only after its header or record passes its
//! old checksum ([`RunHeader::check`], [`UnitRecord::check`]), and the sealed
//! line carries the very same CRC in front (the old checksums were defined as
//! the sealed format defines them: the header's over its JSON, a record's over
//! the run key, a space and its JSON).

mod common;

use renyi_search::games::beams::Variant;
use renyi_search::games::beams::patterns::enumerate;
use renyi_search::games::beams::rule::BeamsRule;
use renyi_search::output::sealed_lines::{identity_line, keyed_line};
use renyi_search::search::RunOptions;
use renyi_search::search::Strategy;
use renyi_search::search::checkpoint::read_checkpoint_file;
use renyi_search::search::recheck::{check_header, recheck_unit};
use renyi_search::search::units::{RunHeader, ShardFile, UnitRecord, read_shard, write_shard};
use std::path::PathBuf;

/// The committed checkpoints, with their variant, α (as the file names it) and rule.
fn committed() -> Vec<(PathBuf, &'static str, String, BeamsRule)> {
    let mut out = Vec::new();
    for variant in ["6c3p", "6c6p"] {
        let dir = common::root().join(format!("results/runs/beams-{variant}"));
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_name().unwrap().to_str().unwrap().to_string();
            let Some(stem) = name.strip_suffix(".jsonl") else { continue };
            let rest = stem.strip_prefix(&format!("beams-{variant}-h")).unwrap();
            let (alpha, slug) = rest.split_once('-').unwrap();
            let rule = BeamsRule::of_run_name(&format!("{slug}-")).unwrap();
            out.push((path, variant, alpha.to_string(), rule));
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// The sealed text of a checkpoint of the older format, each line checked first.
fn convert(text: &str) -> String {
    assert!(text.ends_with('\n'), "a committed checkpoint ends with its last record whole");
    let mut lines = text.lines();
    let header: RunHeader = serde_json::from_str(lines.next().unwrap()).unwrap();
    header.check().unwrap();
    let key = header.record_key().to_string();
    let identity = identity_line(&header.identity());
    assert_eq!(identity[..8], key);
    let mut out = identity + "\n";
    for line in lines {
        let record: UnitRecord = serde_json::from_str(line).unwrap();
        record.check(&key).unwrap();
        let sealed = keyed_line(&key, &UnitRecord { crc: None, ..record.clone() });
        assert_eq!(Some(&sealed[..8]), record.crc.as_deref(), "unit {}", record.index);
        out += &sealed;
        out += "\n";
    }
    out
}

/// Converts the committed checkpoints still in the older format (run once;
/// a converted file is left alone), then checks them as the default test does.
#[test]
#[ignore]
fn convert_committed_checkpoints() {
    let mut sizes = (0, 0);
    for (path, ..) in committed() {
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.starts_with('{') {
            continue;
        }
        let sealed = convert(&text);
        sizes = (sizes.0 + text.len(), sizes.1 + sealed.len());
        std::fs::write(&path, sealed).unwrap();
    }
    eprintln!("converted: {} bytes before, {} after", sizes.0, sizes.1);
    committed_checkpoints_are_sealed_and_match_their_runs();
}

/// Every committed checkpoint is sealed and holds its finished run's units
/// (same records, same CRCs where the records are equal byte for byte).
#[test]
fn committed_checkpoints_are_sealed_and_match_their_runs() {
    let runs = committed();
    assert_eq!(runs.len(), 14);
    for (path, ..) in &runs {
        let (header, mut records) = read_checkpoint_file(path).unwrap().unwrap();
        let finished = read_shard(&path.with_extension("json")).unwrap();
        assert_eq!(header, finished.header, "{}", path.display());
        records.sort_by_key(|r| r.index);
        assert_eq!(records.len() as u64, finished.units_total, "{}", path.display());
        // Equal but for the wall seconds, which may differ in their last bit:
        // four units of the 6c6p H_1 LEX-d run were written to the shard file
        // through the float parser that was not correctly rounded (docs/runs.md).
        let bare =
            |u: &UnitRecord| serde_json::to_string(&UnitRecord { seconds: 0.0, crc: None, ..u.clone() }).unwrap();
        for (mine, theirs) in records.iter().zip(&finished.units) {
            assert_eq!(bare(mine), bare(theirs), "{}", path.display());
            let off = (mine.seconds - theirs.seconds).abs();
            assert!(off <= 1e-12 * theirs.seconds, "{} unit {}: seconds {off} apart", path.display(), mine.index);
            assert!(mine.crc == theirs.crc || off > 0.0, "{} unit {}", path.display(), mine.index);
        }
    }
}

/// Numbers below `n` drawn at random (a linear congruential generator from `seed`).
fn draws(mut seed: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize % n
    }
}

/// Two units of every committed 6c3p checkpoint and one small unit of every
/// 6c6p checkpoint whose records list their queries, drawn at random (a fixed
/// seed), compute again to their records, on the plain tree (no merging of
/// equivalent nodes).
#[test]
#[ignore]
fn committed_checkpoint_units_drawn_at_random_recompute() {
    let mut draw = draws(0x5eed_0049);
    let plain = RunOptions { merge_equivalent: false, ..RunOptions::default() };
    let mut patterns = std::collections::HashMap::new();
    for (path, variant, alpha, rule) in committed() {
        let (header, records) = read_checkpoint_file(&path).unwrap().unwrap();
        let (draws, bound) = if variant == "6c3p" { (2, 2_000) } else { (1, 5_000) };
        let variant: Variant = variant.parse().unwrap();
        let tables = patterns.entry(variant).or_insert_with(|| enumerate(variant)).clone();
        let g = rule.game(tables).unwrap();
        let strategy = Strategy::new(alpha.parse().unwrap(), rule.tie_rule());
        check_header(&g, strategy, &header).unwrap();
        // Records of versions that did not list the queries on their path
        // (6c6p H_1 LEX-d) are not rebuilt from the root here; tests/beams_6c6p.rs
        // recomputes LEX units from the strategy's own first two queries.
        let small: Vec<&UnitRecord> =
            records.iter().filter(|r| r.codes <= bound && r.queries.len() == r.path.len()).collect();
        if small.is_empty() {
            eprintln!("{}: no unit lists its queries", path.display());
            continue;
        }
        for _ in 0..draws {
            let record = small[draw(small.len())];
            let check = recheck_unit(&g, strategy, record, &plain).unwrap();
            assert!(check.agrees, "{} unit {}: {:?}", path.display(), record.index, check.differences);
            eprintln!("{} unit {} ({} codes): agrees", path.display(), record.index, record.codes);
        }
    }
}

/// A finished shard file of the older format: one JSON document, its CRCs
/// inside (what `search::run_file::ShardFile` read before issue 49 item 3).
#[derive(serde::Deserialize)]
struct OldShardFile {
    header: RunHeader,
    shard: (u64, u64),
    units_total: u64,
    codes_total: u64,
    seconds: f64,
    #[serde(default)]
    peak_memory_bytes: Option<u64>,
    #[serde(default)]
    resumed_units: Option<u64>,
    units: Vec<UnitRecord>,
    crc: Option<String>,
}

/// The shard file of an older-format text, after every checksum in it passed:
/// the header's, the file's over header, shard and totals, each record's.
fn old_shard_file(text: &str) -> ShardFile {
    let old: OldShardFile = serde_json::from_str(text).unwrap();
    old.header.check().unwrap();
    let identity = serde_json::to_string(&(&old.header, old.shard, old.units_total, old.codes_total)).unwrap();
    assert_eq!(old.crc.as_deref(), Some(renyi_search::output::crc32_hex(identity.as_bytes()).as_str()));
    for unit in &old.units {
        unit.check(old.header.record_key()).unwrap();
    }
    let OldShardFile {
        header, shard, units_total, codes_total, seconds, peak_memory_bytes, resumed_units, units, ..
    } = old;
    ShardFile { header, shard, units_total, codes_total, seconds, peak_memory_bytes, resumed_units, units }
}

/// Converts the committed finished shard files still in the older format (run
/// once; a converted file is left alone): each is read and checked with the
/// old reader, written in sealed lines by the program, read back, and must
/// hold the very same units (every field, the wall seconds to the bit) and
/// totals; then the checks of the default test.
#[test]
#[ignore]
fn convert_committed_shard_files() {
    let (mut sizes, mut units) = ((0, 0), 0);
    for (path, ..) in committed() {
        let path = path.with_extension("json");
        let text = std::fs::read_to_string(&path).unwrap();
        if !text.starts_with('{') {
            continue;
        }
        let old = old_shard_file(&text);
        write_shard(&path, &old).unwrap();
        let new = read_shard(&path).unwrap();
        let json = |f: &ShardFile| serde_json::to_string(&f.units).unwrap();
        assert_eq!(json(&new), json(&old), "{}", path.display());
        assert_eq!(new.seconds.to_bits(), old.seconds.to_bits(), "{}", path.display());
        let totals = |f: &ShardFile| {
            (f.header.clone(), f.shard, f.units_total, f.codes_total, f.peak_memory_bytes, f.resumed_units)
        };
        assert_eq!(totals(&new), totals(&old), "{}", path.display());
        let merged =
            |f: &ShardFile| renyi_search::search::units::merge(std::slice::from_ref(f)).unwrap().1.to_strings();
        assert_eq!(merged(&new), merged(&old), "{}", path.display());
        units += new.units.len();
        sizes = (sizes.0 + text.len(), sizes.1 + std::fs::metadata(&path).unwrap().len() as usize);
        eprintln!("{}: {} units converted", path.display(), new.units.len());
    }
    eprintln!("converted: {units} units, {} bytes before, {} after", sizes.0, sizes.1);
    committed_checkpoints_are_sealed_and_match_their_runs();
}

/// Ten units (at most 30 000 codes each, listing their queries) of every
/// committed finished shard file, drawn at random (a fixed seed), compute
/// again to their records on the plain tree (no merging of equivalent nodes).
#[test]
#[ignore]
fn committed_shard_units_drawn_at_random_recompute() {
    let mut draw = draws(0x5eed_0493);
    let plain = RunOptions { merge_equivalent: false, ..RunOptions::default() };
    let mut patterns = std::collections::HashMap::new();
    let mut checked = 0;
    for (checkpoint, variant, alpha, rule) in committed() {
        let path = checkpoint.with_extension("json");
        let file = read_shard(&path).unwrap();
        let variant: Variant = variant.parse().unwrap();
        let tables = patterns.entry(variant).or_insert_with(|| enumerate(variant)).clone();
        let g = rule.game(tables).unwrap();
        let strategy = Strategy::new(alpha.parse().unwrap(), rule.tie_rule());
        check_header(&g, strategy, &file.header).unwrap();
        let mut small: Vec<&UnitRecord> =
            file.units.iter().filter(|r| r.codes <= 30_000 && r.queries.len() == r.path.len()).collect();
        if small.is_empty() {
            eprintln!("{}: no unit lists its queries", path.display());
            continue;
        }
        for _ in 0..10.min(small.len()) {
            let record = small.swap_remove(draw(small.len()));
            let clock = std::time::Instant::now();
            let check = recheck_unit(&g, strategy, record, &plain).unwrap();
            assert!(check.agrees, "{} unit {}: {:?}", path.display(), record.index, check.differences);
            eprintln!(
                "{} unit {} ({} codes): agrees ({:.1} s)",
                path.display(),
                record.index,
                record.codes,
                clock.elapsed().as_secs_f64()
            );
            checked += 1;
        }
    }
    eprintln!("{checked} units recomputed, all agree");
}
