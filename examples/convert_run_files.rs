//! One-time conversion of the committed work-unit runs (results/runs/beams-6c3p,
//! beams-6c6p) to the sealed format: every header and record gets its checksum.
//! Each run is read and verified first (checkpoint and shard file agree record
//! by record, every unit once, totals re-derived by the exact merge), then
//! rewritten, read back and merged again to the same total.
use renyi_search::search::checkpoint::parse_checkpoint;
use renyi_search::search::units::{RunHeader, ShardFile, UnitRecord, merge_named, write_shard};
use std::path::Path;

/// The record without its checksum and its wall seconds (written by older
/// versions with a float parser that was not correctly rounded, so the two
/// files of one run may differ in the last digit of a unit's seconds).
fn bare(r: &UnitRecord) -> String {
    serde_json::to_string(&UnitRecord { crc: None, seconds: 0.0, ..r.clone() }).unwrap()
}

fn convert(stem: &str) -> Result<(), String> {
    let (jsonl, json) = (format!("{stem}.jsonl"), format!("{stem}.json"));
    let text = std::fs::read(&jsonl).map_err(|e| e.to_string())?;
    let (header, records) = parse_checkpoint(Path::new(&jsonl), &text).map_err(|e| e.to_string())?.unwrap();
    let shard: ShardFile = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).map_err(|e| e.to_string())?;
    let (_, before) = merge_named(&[(json.clone(), &shard)]).map_err(|e| e.to_string())?;
    if shard.header.identity() != header.identity() || shard.shard != (0, 1) {
        return Err(format!("{json}: not the one shard of {jsonl}'s run"));
    }
    let mut by_index: std::collections::HashMap<u64, &UnitRecord> = shard.units.iter().map(|u| (u.index, u)).collect();
    for r in &records {
        let same = by_index
            .remove(&r.index)
            .is_some_and(|u| bare(u) == bare(r) && (u.seconds - r.seconds).abs() <= 1e-9 * r.seconds.max(1.0));
        if !same {
            return Err(format!("{jsonl}: unit {} differs from {json} or is not in it", r.index));
        }
    }
    if !by_index.is_empty() {
        return Err(format!("{json}: {} units not in {jsonl}", by_index.len()));
    }
    let alpha: renyi_search::alpha::Alpha =
        header.alpha.parse().map_err(|e: renyi_search::error::Error| e.to_string())?;
    let exact = match alpha {
        renyi_search::alpha::Alpha::Infinity => "inf".to_string(),
        renyi_search::alpha::Alpha::Finite { num, den: 1 } => num.to_string(),
        renyi_search::alpha::Alpha::Finite { num, den } => format!("{num}/{den}"),
    };
    if exact != header.alpha {
        return Err(format!("{jsonl}: α {} is not exact text", header.alpha));
    }
    let sealed = RunHeader { crc: None, ..header.clone() }.sealed();
    if header.crc.is_some() && header.crc != sealed.crc {
        return Err(format!("{jsonl}: header checksum"));
    }
    let key = sealed.record_key().map(str::to_string);
    let seal = |r: &UnitRecord| UnitRecord { crc: None, ..r.clone() }.sealed(key.as_deref());
    let mut out = serde_json::to_string(&sealed).unwrap() + "\n";
    for r in &records {
        out += &(serde_json::to_string(&seal(r)).unwrap() + "\n");
    }
    std::fs::write(&jsonl, out).map_err(|e| e.to_string())?;
    let units: Vec<UnitRecord> = shard.units.iter().map(seal).collect();
    write_shard(Path::new(&json), &ShardFile { header: sealed.clone(), units, crc: None, ..shard.clone() })
        .map_err(|e| e.to_string())?;
    let again: ShardFile = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    let (_, after) = merge_named(&[(json.clone(), &again)]).map_err(|e| e.to_string())?;
    let reread = parse_checkpoint(Path::new(&jsonl), &std::fs::read(&jsonl).unwrap()).map_err(|e| e.to_string())?;
    assert_eq!(reread.unwrap().1.len(), records.len());
    if after.total() != before.total() {
        return Err(format!("{json}: total changed"));
    }
    println!(
        "{stem}: {} units, total {} (α {}, {}), key {}",
        records.len(),
        after.total(),
        header.alpha,
        header.tie_rule,
        sealed.crc.unwrap()
    );
    Ok(())
}

fn main() {
    let mut failed = false;
    for stem in std::env::args().skip(1) {
        if let Err(e) = convert(&stem) {
            eprintln!("{e}");
            failed = true;
        }
    }
    std::process::exit(i32::from(failed) * 2);
}
