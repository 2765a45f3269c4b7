//! Perfect strategies from searches too long for `reproduce` (twenty
//! minutes or more): their committed trees, re-verified here by replaying every code,
//! next to the published values, with the committed run log (nodes, time,
//! machine) cited as it stands.

use super::perfect_certificates::{CertificateRow, certificate_cell, cheap_to_check};
use super::templates;
use super::{Comparison, Published};
use crate::certificate::{Certify, check_certificate, read_certificate};
use crate::error::{Result, invalid};
use crate::games::GameSpec;
use crate::games::beams::game::{Beams, Penalty, QueryOrder};
use crate::games::beams::patterns::load_or_build;
use crate::games::bulls_and_cows::BullsAndCows;
use crate::games::mastermind::Mastermind;
use crate::output::Align::{Left, Right};
use crate::output::{MarkdownTable, layout};
use crate::progress::Progress;
use crate::search::outcome::Exact;
use crate::search::strategy_file::{SealCheck, read_strategy_file};
use crate::search::tree::verify;
use crate::search::{Presentation, Rules, RunOptions, Strategy, TieRule, analyze};
use num_bigint::BigInt;
use num_traits::ToPrimitive;
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
    /// The literature's value (source, comparison); `None`: none published.
    pub published: Option<(String, Comparison)>,
    pub published_worst: Option<(String, u64)>,
    pub tree: String,
    /// The search's figures from the committed log (its "nodes" and "worst" lines).
    pub run: String,
    /// The committed certificate (`<stem>.cert`), if there is one, checked here in full.
    pub certificate: Option<CertificateRow>,
}

/// A game whose optimum is out of reach: a certified lower bound (a
/// committed `--depth-bound` certificate, its seal and, in `reproduce`, its
/// whole proof checked here) and the best strategy known, an H_α LEX strategy
/// evaluated exactly here.
#[derive(Serialize)]
pub struct BoundsRow {
    pub problem: String,
    pub codes: u64,
    /// K of `--depth-bound K`: queries expanded below the root.
    pub depth: u32,
    pub lower: u64,
    pub certificate: String,
    /// Certificate nodes and bytes (the growth with K).
    pub nodes: u64,
    pub bytes: u64,
    /// The checker's seconds, if the proof was checked in this run (run log only).
    #[serde(skip)]
    pub check_seconds: Option<f64>,
    pub upper: u64,
    pub upper_from: String,
}

/// Beams(6c,3p)'s committed depth-bound certificates, K = 1, 2, 3.
const BEAMS_6C3P_BOUNDS: [(&str, u32); 3] =
    [("bounds-beams-6c3p.cert", 1), ("bounds-beams-6c3p-k2.cert", 2), ("bounds-beams-6c3p-k3.cert", 3)];

/// Beams(6c,3p): a row per committed bound certificate,
/// its seal checked; its proof checked in full with `full` (K = 1 and 2 take
/// 25 and 32 s, K = 3 about 3 minutes on 2 cores: the checker builds its own
/// answer table of the 223920 codes first).
pub fn bounds_rows(dir: &Path, codes: Option<&Path>, full: bool, progress: &Progress) -> Result<Vec<BoundsRow>> {
    let present: Vec<_> =
        BEAMS_6C3P_BOUNDS.iter().map(|&(name, k)| (layout::tree(dir, name), k)).filter(|(p, _)| p.exists()).collect();
    if present.is_empty() {
        return Ok(Vec::new());
    }
    let game = Beams::new(load_or_build("6c3p".parse()?, codes)?.0, QueryOrder::ColourFirst, Penalty::BestGuess)?;
    // The least LEX-c total over all α (results/tables/curves.md): on α ∈ (0.85830, 0.85942).
    let alpha = "1717/2000";
    let analysis = analyze(&game, Strategy::new(alpha.parse()?, TieRule::lex()), RunOptions::default());
    let upper = analysis.exact_total().to_integer().to_u64().ok_or_else(|| invalid("a LEX total is an integer"))?;
    let mut rows = Vec::new();
    for (path, depth) in present {
        let file = read_certificate::<GameSpec>(&path)?;
        if !file.broken.is_empty() {
            return Err(invalid(format!(
                "{}: the certificate's seal does not match ({:?})",
                path.display(),
                file.broken
            )));
        }
        let check = full;
        let check_seconds = if check {
            let checked = check_certificate(&game, &file.body)?;
            if checked.bound != file.header.bound {
                return Err(invalid(format!(
                    "{}: the proof checks to {}, the header says {}",
                    path.display(),
                    checked.bound,
                    file.header.bound
                )));
            }
            Some(checked.seconds)
        } else {
            None
        };
        progress.note(&format!(
            "  {} K = {depth}: ≥ {} ({})",
            path.display(),
            file.header.bound,
            check_seconds.map_or("seal checked".to_string(), |t| format!("proof checked in {t:.1} s"))
        ));
        rows.push(BoundsRow {
            problem: game.name(),
            codes: game.code_count() as u64,
            depth,
            lower: file.header.bound,
            certificate: path.display().to_string(),
            nodes: file.header.nodes,
            bytes: std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0),
            check_seconds,
            upper,
            upper_from: format!("H_{alpha} LEX-c (the least LEX-c total of the α-curve)"),
        });
    }
    Ok(rows)
}

/// The committed long runs found under `dir` (a missing tree is no row);
/// certificates checked in full with `full` or when small (see [`committed_row`]).
pub fn rows(dir: &Path, full: bool) -> Result<Vec<CommittedRow>> {
    let mut rows = Vec::new();
    let bc = BullsAndCows::new(4, 10)?;
    let published = ("Bulls and Cows, 4 of 10: 26274 (mean 5.2131), worst case 7 (literature)", "26274");
    if let Some(row) = committed_row(&bc, dir, "perfect-bc410", Some(published), Some(7), full)? {
        rows.push(row);
    }
    // The next optimum beyond MM(5,5); no published value found.
    let mm48 = Mastermind::new(4, 8, false)?;
    if let Some(row) = committed_row(&mm48, dir, "perfect-mm48", None, None, full)? {
        rows.push(row);
    }
    Ok(rows)
}

/// The row of `<stem>.json` (a sealed strategy tree) and `<stem>.log` (the
/// search's output) under the trees directory of `dir`, if the tree exists;
/// with `<stem>.cert`, the certificate's seal is checked and it must prove
/// the tree's total; its proof is checked by the independent checker when
/// `check_proof` or when it is small ([`cheap_to_check`]).
pub fn committed_row<P: Certify>(
    problem: &P,
    dir: &Path,
    stem: &str,
    published: Option<(&str, &'static str)>,
    published_worst: Option<u64>,
    check_proof: bool,
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
    let cert = layout::tree(dir, &format!("{stem}.cert"));
    let check_proof = check_proof || cheap_to_check(&cert);
    let certificate = committed_certificate(problem, &cert, replayed.total, check_proof)?;
    let total = Exact::from_integer(BigInt::from(replayed.total));
    Ok(Some(CommittedRow {
        problem: problem.name(),
        codes: problem.code_count() as u64,
        total: replayed.total,
        max_depth: replayed.max_depth,
        published: published.map(|(source, value)| (source.to_string(), Comparison::new(&total, Published(value), 0))),
        published_worst: published.zip(published_worst).map(|((source, _), w)| (source.to_string(), w)),
        tree: path.display().to_string(),
        run,
        certificate,
    }))
}

/// The certificate at `path`, if it exists: its seal intact, proving exactly
/// `total` (by its header; with `check_proof`, by the independent checker).
fn committed_certificate<P: Certify>(
    problem: &P,
    path: &Path,
    total: u64,
    check_proof: bool,
) -> Result<Option<CertificateRow>> {
    if !path.exists() {
        return Ok(None);
    }
    let bytes = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
    let file = read_certificate::<GameSpec>(path)?;
    if !file.broken.is_empty() {
        return Err(invalid(format!("{}: the certificate's seal does not match ({:?})", path.display(), file.broken)));
    }
    let (bound, nodes, check_seconds) = if check_proof {
        let checked = check_certificate(problem, &file.body)?;
        (checked.bound, checked.nodes, checked.seconds)
    } else {
        (file.header.bound, file.header.nodes, 0.0)
    };
    if bound != total {
        return Err(invalid(format!(
            "{}: the certificate proves {bound}, the tree's total is {total}",
            path.display()
        )));
    }
    Ok(Some(CertificateRow {
        file: path.display().to_string(),
        nodes,
        bytes,
        bound,
        proof_checked: check_proof,
        build_seconds: 0.0, // built by the committed run (its log)
        check_seconds,
    }))
}

/// The markdown section for the bounds rows.
pub fn bounds_markdown(rows: &[BoundsRow]) -> String {
    if rows.is_empty() {
        return String::new();
    }
    let mut s = String::from("\n## Out of the search's reach: certified bounds\n\n");
    s += templates::PERFECT_DEPTH_BOUNDS;
    let mut table = MarkdownTable::new([
        ("game", Left),
        ("K", Right),
        ("codes", Right),
        ("lower bound (mean)", Right),
        ("upper bound (mean)", Right),
        ("gap", Right),
        ("lower: certificate (nodes, bytes)", Left),
        ("upper: strategy", Left),
    ]);
    for r in rows {
        let mean = |t: u64| format!("{t} ({:.4})", t as f64 / r.codes as f64);
        table.row([
            r.problem.clone(),
            r.depth.to_string(),
            r.codes.to_string(),
            mean(r.lower),
            mean(r.upper),
            format!("{:.1} %", 100.0 * (r.upper - r.lower) as f64 / r.upper as f64),
            format!(
                "{} ({} nodes, {} bytes)",
                r.certificate.rsplit('/').next().unwrap_or(&r.certificate),
                r.nodes,
                r.bytes
            ),
            r.upper_from.clone(),
        ]);
    }
    s += &table.to_string();
    s
}

/// The markdown section for the committed rows.
pub fn markdown(rows: &[CommittedRow]) -> String {
    if rows.is_empty() {
        return "\nBulls and Cows with 4 digits of 10 (published optimum 26274, mean 5.2131, worst case 7): no committed \
run under results/data/trees (perfect-bc410.json).\n"
            .into();
    }
    let mut s = String::from("\n## Long searches (committed trees, replayed here)\n\n");
    s += templates::PERFECT_LONG_SEARCHES;
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
        ("certificate", Left),
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
            r.published.as_ref().map_or("none published".into(), |(source, c)| format!("{} ({source})", c.published)),
            r.published.as_ref().map_or("", |(_, c)| c.mark()).to_string(),
            r.run.clone(),
            r.tree.rsplit('/').next().unwrap_or(&r.tree).to_string(),
            r.certificate.as_ref().map_or(String::new(), certificate_cell),
        ]);
    }
    s += &table.to_string();
    s
}
