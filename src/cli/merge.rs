//! `merge …`: the shard files of a work-unit run, added exactly.

use super::outcome_text::{depth_histogram, penalty_split};
use renyi_search::error::Result;
use renyi_search::output::write_json;
use renyi_search::search::outcome::{exact_f64, exact_string};
use renyi_search::search::units::{RunHeader, ShardFile, merge_named, penalty_split_known, read_shard};
use std::path::{Path, PathBuf};

pub(super) fn merge_files(files: &[PathBuf], out: Option<&Path>) -> Result<()> {
    let mut shards = Vec::new();
    for path in files {
        shards.push(read_shard(path)?);
    }
    let named: Vec<(String, &ShardFile)> = files.iter().map(|p| p.display().to_string()).zip(&shards).collect();
    let (header, outcome) = merge_named(&named)?;
    let codes = shards[0].codes_total;
    let total = outcome.total();
    let (histogram, penalty) = outcome.to_strings();
    #[derive(serde::Serialize)]
    struct Merged<'a> {
        header: &'a RunHeader,
        codes: u64,
        total: String,
        mean: f64,
        depth_histogram: Vec<String>,
        penalty_total: String,
        /// Codes by penalty points paid (index p); absent if older records lack the split.
        penalty_histogram: Option<Vec<String>>,
        shard_seconds: f64,
        /// The largest peak memory of the shards' processes, where recorded.
        peak_memory_bytes: Option<u64>,
    }
    let merged = Merged {
        header: &header,
        codes,
        total: exact_string(&total),
        mean: exact_f64(&total) / codes as f64,
        depth_histogram: histogram,
        penalty_total: penalty,
        penalty_histogram: penalty_split_known(&shards).then(|| outcome.penalised_strings()),
        shard_seconds: shards.iter().map(|s| s.seconds).sum(),
        peak_memory_bytes: shards.iter().filter_map(|s| s.peak_memory_bytes).max(),
    };
    // The file first: a reader that closes stdout early (`merge … | head`)
    // must not cost the result.
    if let Some(path) = out {
        write_json(path, &merged)?;
    }
    println!(
        "{} — H_{} {} ({} shard files, {} units)",
        header.problem,
        renyi_search::search::run_file::alpha_text(header.alpha),
        header.tie_rule,
        shards.len(),
        shards[0].units_total
    );
    println!("  total     {} over {} codes, mean {:.6}", merged.total, codes, merged.mean);
    let split = match &merged.penalty_histogram {
        Some(h) => penalty_split(h, " codes"),
        None => "split not recorded".into(),
    };
    println!("  penalty   {} ({split})", merged.penalty_total);
    println!("  histogram {}", depth_histogram(&merged.depth_histogram));
    let peak = merged
        .peak_memory_bytes
        .map_or_else(|| "not recorded".to_string(), |b| format!("{:.2} GiB", b as f64 / (1u64 << 30) as f64));
    println!(
        "  run       {:.0} s (wall times of the shards' last sessions, summed), peak memory {peak}",
        merged.shard_seconds
    );
    Ok(())
}
