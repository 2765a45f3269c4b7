//! The Beams(6c,3p) α-curves replayed from their committed, sealed files
//! (issue 52; each takes tens of CPU-seconds to compute, `reproduce --full`
//! recomputes them): the files' seals are checked ([`super::sealed`]), the
//! report is read back from the committed JSON, and at a few α inside open
//! intervals the curve's exact total is recomputed by `analyze` (H_α under the
//! curve's tie rule) and compared. Method of the curves: docs/curves.md.

use crate::curve::Span;
use crate::curve::report::{Crossing, CurveReport, Row};
use crate::error::{Result, invalid};
use crate::output::{Provenance, layout};
use crate::renyi::alpha::Alpha;
use crate::search::outcome::{Exact, exact_string};
use crate::search::{RunOptions, SearchProblem, Strategy, TieRule, analyze};
use serde::Deserialize;
use std::path::Path;

/// The curves replayed by default (their CSV and JSON are sealed in
/// results/runs/sealed/curves.sha256).
pub const REPLAYED: [&str; 4] = ["beams-6c3p-lex-c", "beams-6c3p-lex-d", "beams-6c3p-mix", "beams-6c3p-mix-reduced"];

/// A replayed curve: its report, its pieces' exact totals, the samples.
pub type Replayed = (CurveReport, Vec<(Option<Span>, Exact)>, Sampled);

/// Open intervals sampled per replayed curve.
const SAMPLES: usize = 2;

/// What the replay recomputed: α sampled inside open intervals and whether
/// `analyze`'s exact total equals the committed piece's at each.
#[derive(Clone, Debug)]
pub struct Sampled {
    pub alphas: Vec<String>,
    pub agree: usize,
    /// The committed best total is the least piece total and the best pieces carry it.
    pub best_consistent: bool,
}

impl Sampled {
    /// Every sample agrees and the best α is consistent.
    pub fn holds(&self) -> bool {
        self.agree == self.alphas.len() && !self.alphas.is_empty() && self.best_consistent
    }
}

#[derive(Deserialize)]
struct CommittedRow {
    kind: String,
    /// JSON writes ∞ as null.
    #[serde(deserialize_with = "infinite_if_null")]
    lo: f64,
    #[serde(deserialize_with = "infinite_if_null")]
    hi: f64,
    lo_text: String,
    hi_text: String,
    total: String,
    mean: f64,
    max_depth: Option<usize>,
    first_queries: Vec<String>,
    crossing: Option<CommittedCrossing>,
    certified: bool,
}

#[derive(Deserialize)]
struct CommittedCrossing {
    node_codes: u64,
    node_depth: usize,
    below: Vec<u64>,
    above: Vec<u64>,
    queries: (String, String),
}

#[derive(Deserialize)]
struct CommittedReport {
    game: String,
    #[serde(with = "crate::search::run_file::tie_rule_text")]
    tie_rule: TieRule,
    codes: u64,
    domain: String,
    segments: Vec<CommittedRow>,
    best: Vec<usize>,
    best_total: String,
    best_mean: f64,
    best_interval: Vec<usize>,
    best_interval_total: String,
    uncertified: u64,
}

fn infinite_if_null<'de, D: serde::Deserializer<'de>>(d: D) -> std::result::Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::INFINITY))
}

fn row(r: CommittedRow) -> Result<Row> {
    let kind = match r.kind.as_str() {
        "interval" => "interval",
        "point" => "point",
        other => return Err(invalid(format!("a curve piece of kind {other:?}"))),
    };
    let crossing = r.crossing.map(|c| Crossing {
        node_codes: c.node_codes,
        node_depth: c.node_depth,
        below: c.below,
        above: c.above,
        queries: c.queries,
    });
    Ok(Row {
        kind,
        lo: r.lo,
        hi: r.hi,
        lo_text: r.lo_text,
        hi_text: r.hi_text,
        total: r.total,
        mean: r.mean,
        max_depth: r.max_depth,
        first_queries: r.first_queries,
        crossing,
        certified: r.certified,
    })
}

/// Reads the committed curve `stem` (its seal checked by the caller) and
/// recomputes its total at [`SAMPLES`] α inside open intervals with `analyze`.
/// Returns the report, the exact total of each piece (no exact spans) and what was sampled.
pub fn replay<P: SearchProblem>(dir: &Path, stem: &str, game: &P, tie: TieRule) -> Result<Replayed> {
    let path = layout::curve(dir, &format!("{stem}.json"));
    let text = std::fs::read_to_string(&path).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let c: CommittedReport = serde_json::from_str(&text).map_err(|e| invalid(format!("{}: {e}", path.display())))?;
    let segments = c.segments.into_iter().map(row).collect::<Result<Vec<Row>>>()?;
    let totals = segments
        .iter()
        .map(|r| r.total.parse::<Exact>().map(|t| (None, t)))
        .collect::<std::result::Result<Vec<_>, _>>()
        .map_err(|e| invalid(format!("{}: a total: {e}", path.display())))?;
    let least = totals.iter().map(|(_, t)| t).min();
    let best_consistent = least.is_some_and(|m| exact_string(m) == c.best_total)
        && c.best.iter().all(|&i| segments.get(i).is_some_and(|r| r.total == c.best_total));
    let mut alphas = Vec::new();
    let mut agree = 0;
    for (i, r) in sample(&segments) {
        let alpha: Alpha = interior_alpha(r).parse()?;
        let ours = analyze(game, Strategy::new(alpha, tie), RunOptions::default()).exact_total();
        agree += usize::from(ours == totals[i].1);
        alphas.push(alpha.to_string());
    }
    let report = CurveReport {
        provenance: Provenance::stable(format!("reproduce curves ({stem})"), 0.0),
        game: c.game,
        tie_rule: c.tie_rule,
        codes: c.codes,
        domain: c.domain,
        segments,
        best: c.best,
        best_total: c.best_total,
        best_mean: c.best_mean,
        best_interval: c.best_interval,
        best_interval_total: c.best_interval_total,
        nodes_evaluated: 0,
        uncertified: c.uncertified,
    };
    Ok((report, totals, Sampled { alphas, agree, best_consistent }))
}

/// [`SAMPLES`] open intervals of finite width at least 10⁻⁶, spread over the
/// curve by a fixed splitmix64 sequence (the same every run).
fn sample(segments: &[Row]) -> Vec<(usize, &Row)> {
    let wide: Vec<(usize, &Row)> =
        segments.iter().enumerate().filter(|(_, r)| r.kind == "interval" && r.hi - r.lo >= 1e-6).collect();
    let mut state = 0x5EA1_ED00_u64 ^ segments.len() as u64;
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    (0..SAMPLES.min(wide.len())).map(|_| wide[(next() % wide.len() as u64) as usize]).collect()
}

/// An exact α well inside the open interval `r` (its ends are certified to
/// 10⁻¹², the interval is at least 10⁻⁶ wide): the midpoint to 9 decimals,
/// or lo + 1 for the unbounded last interval.
fn interior_alpha(r: &Row) -> String {
    let mid = if r.hi.is_finite() { 0.5 * (r.lo + r.hi) } else { r.lo + 1.0 };
    format!("{}/1000000000", (mid * 1e9).round() as u64)
}
