//! Perfect strategies from searches too long for `reproduce` (an hour or
//! more): their committed trees, re-verified here by replaying every code,
//! next to the published values, with the committed run log (nodes, time,
//! machine) cited as it stands.

use super::{Comparison, Published};
use crate::error::{Result, invalid};
use crate::games::GameSpec;
use crate::games::bulls_and_cows::BullsAndCows;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, layout};
use crate::search::outcome::Exact;
use crate::search::strategy_file::{SealCheck, read_strategy_file};
use crate::search::tree::{Replay, verify};
use num_bigint::BigInt;
use serde::Serialize;
use std::path::Path;

/// A committed optimum, replayed.
#[derive(Serialize)]
pub struct CommittedRow {
    pub problem: String,
    pub codes: u64,
    /// Total and worst case of the committed tree, replayed here.
    pub total: u64,
    pub max_depth: u64,
    pub published: (String, Comparison),
    pub published_worst: Option<(String, u64)>,
    pub tree: String,
    /// The search's figures from the committed log (its "nodes" and "worst" lines).
    pub run: String,
}

/// The committed long runs found under `dir` (a missing tree is no row).
pub fn rows(dir: &Path) -> Result<Vec<CommittedRow>> {
    let mut rows = Vec::new();
    let bc = BullsAndCows::new(4, 10)?;
    let published = ("Bulls and Cows, 4 of 10: 26274 (mean 5.2131), worst case 7 (literature)", "26274");
    if let Some(row) = committed_row(&bc, dir, "perfect-bc410", published, Some(7))? {
        rows.push(row);
    }
    Ok(rows)
}

/// The row of `<stem>.json` (a sealed strategy tree) and `<stem>.log` (the
/// search's output) under the trees directory of `dir`, if the tree exists.
pub fn committed_row<P: Replay>(
    problem: &P,
    dir: &Path,
    stem: &str,
    published: (&str, &'static str),
    published_worst: Option<u64>,
) -> Result<Option<CommittedRow>> {
    let path = layout::tree(dir, &format!("{stem}.json"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::error::Error::Io { path: path.display().to_string(), source: e }),
    };
    let (file, seal) = read_strategy_file::<GameSpec>(&text)?;
    if !matches!(seal, SealCheck::Intact) {
        return Err(invalid(format!("{}: the tree's seal does not match its contents (edited?)", path.display())));
    }
    let replayed = verify(problem, &file.tree)?;
    if replayed.total != file.total || file.codes != problem.code_count() as u64 {
        return Err(invalid(format!(
            "{}: the tree replays to total {} over {} codes, the file says {} over {}",
            path.display(),
            replayed.total,
            problem.code_count(),
            file.total,
            file.codes
        )));
    }
    let log = std::fs::read_to_string(layout::tree(dir, &format!("{stem}.log"))).unwrap_or_default();
    let run = log
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("nodes") || l.starts_with("started") || l.starts_with("machine"))
        .collect::<Vec<_>>()
        .join("; ");
    let total = Exact::from_integer(BigInt::from(replayed.total));
    Ok(Some(CommittedRow {
        problem: problem.name(),
        codes: problem.code_count() as u64,
        total: replayed.total,
        max_depth: replayed.max_depth,
        published: (published.0.to_string(), Comparison::new(&total, Published(published.1), 0)),
        published_worst: published_worst.map(|w| (published.0.to_string(), w)),
        tree: path.display().to_string(),
        run,
    }))
}

/// The markdown section for the committed rows.
pub fn markdown(rows: &[CommittedRow]) -> String {
    if rows.is_empty() {
        return "\nBulls and Cows with 4 digits of 10 (published optimum 26274, mean 5.2131, worst case 7): no committed \
run under results/data/trees (perfect-bc410.json).\n"
            .into();
    }
    let mut s = String::from("\n## Long searches (committed trees, replayed here)\n\n");
    s += "Searches that take an hour or more are not re-run by `reproduce`; their sealed trees are committed and every \
code is replayed through them here (the total and worst case below are the replay's), the search's own figures are \
quoted from its committed log.\n\n";
    let mut table = MarkdownTable::new([
        ("game", Left),
        ("codes", Right),
        ("total", Right),
        ("mean", Right),
        ("worst case", Right),
        ("published", Left),
        ("", Left),
        ("search (from its log)", Left),
        ("tree", Left),
    ]);
    for r in rows {
        let worst = match r.published_worst {
            Some((_, w)) if w == r.max_depth => format!("{} (= {w})", r.max_depth),
            Some((_, w)) => format!("{} (≠ {w})", r.max_depth),
            None => r.max_depth.to_string(),
        };
        table.row([
            r.problem.clone(),
            r.codes.to_string(),
            r.total.to_string(),
            format!("{:.4}", r.total as f64 / r.codes as f64),
            worst,
            format!("{} ({})", r.published.1.published, r.published.0),
            r.published.1.mark().to_string(),
            r.run.clone(),
            r.tree.rsplit('/').next().unwrap_or(&r.tree).to_string(),
        ]);
    }
    s += &table.to_string();
    s
}
