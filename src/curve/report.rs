//! A curve as rows for CSV, JSON and plots, with what produced it.

use super::point::{Point, Witness};
use super::steps::Span;
use super::walk::Curve;
use crate::output::Provenance;
use crate::search::outcome::{Exact, exact_f64, exact_string};
use serde::Serialize;
use std::sync::Arc;

/// Where a breakpoint comes from (see [`Witness`]).
#[derive(Clone, Debug, Serialize)]
pub struct Crossing {
    /// |M| at the node whose decision changes.
    pub node_codes: u64,
    pub node_depth: usize,
    /// Class sizes of the partition better just below the point, and just above.
    pub below: Vec<u64>,
    pub above: Vec<u64>,
    pub queries: (String, String),
}

impl From<&Arc<Witness>> for Crossing {
    fn from(w: &Arc<Witness>) -> Crossing {
        Crossing {
            node_codes: w.codes,
            node_depth: w.depth,
            below: w.below.clone(),
            above: w.above.clone(),
            queries: (w.queries.0.to_string(), w.queries.1.to_string()),
        }
    }
}

/// One piece of a curve.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// "interval" (open) or "point".
    pub kind: &'static str,
    /// Interval: its ends (enclosure midpoints for irrational breakpoints).
    /// Point: the lower and upper end of its enclosure (equal if exact).
    pub lo: f64,
    pub hi: f64,
    /// The ends as exact text: a rational, "inf", or "[lo, hi]" for a
    /// certified enclosure of an irrational crossing.
    pub lo_text: String,
    pub hi_text: String,
    /// Exact total (integer or rational) of the codes' search lengths.
    pub total: String,
    pub mean: f64,
    pub max_depth: Option<usize>,
    pub first_queries: Vec<String>,
    /// For a point: the crossing that makes it a breakpoint, if known.
    pub crossing: Option<Crossing>,
    /// For an irrational point: whether its enclosure is certified.
    pub certified: bool,
}

/// A curve with its provenance, ready to write.
#[derive(Clone, Debug, Serialize)]
pub struct CurveReport {
    pub provenance: Provenance,
    pub game: String,
    pub tie_rule: String,
    pub codes: u64,
    pub domain: String,
    pub segments: Vec<Row>,
    /// Indices into `segments` of the least total (the best α).
    pub best: Vec<usize>,
    pub best_total: String,
    pub best_mean: f64,
    /// The same over the open intervals only (α in (0, ∞) away from breakpoints).
    pub best_interval: Vec<usize>,
    pub best_interval_total: String,
    pub nodes_evaluated: u64,
    /// Breakpoints not certified (expected 0).
    pub uncertified: u64,
}

fn point_text(p: &Point) -> String {
    p.to_string()
}

fn point_bounds(p: &Point) -> (f64, f64) {
    let e = p.enclosure();
    (e.lo, e.hi)
}

fn row(span: &Span, total: &Exact, codes: u64, max_depth: Option<usize>, first_queries: Vec<String>) -> Row {
    let (kind, lo, hi, lo_text, hi_text, crossing, certified) = match span {
        Span::At(p) => {
            let (lo, hi) = point_bounds(p);
            let certified = !matches!(p, Point::Root { root, .. } if !root.certified);
            ("point", lo, hi, point_text(p), point_text(p), p.witness().map(Crossing::from), certified)
        }
        Span::Open(a, b) => ("interval", a.approx(), b.approx(), point_text(a), point_text(b), None, true),
    };
    Row {
        kind,
        lo,
        hi,
        lo_text,
        hi_text,
        total: exact_string(total),
        mean: exact_f64(total) / codes as f64,
        max_depth,
        first_queries,
        crossing,
        certified,
    }
}

fn domain_text(d: &super::steps::Domain) -> String {
    format!("{}{}, {}{}", if d.lo_closed { "[" } else { "(" }, d.lo, d.hi, if d.hi_closed { "]" } else { ")" })
}

/// What every report states besides its rows.
struct Header {
    provenance: Provenance,
    game: String,
    tie_rule: String,
    codes: u64,
    domain: String,
    nodes: u64,
    uncertified: u64,
}

fn finish(h: Header, segments: Vec<Row>, totals: Vec<Exact>) -> CurveReport {
    let Header { provenance, game, tie_rule, codes, domain, nodes, uncertified } = h;
    let min = totals.iter().min().cloned().unwrap_or_default();
    let best: Vec<usize> = (0..totals.len()).filter(|&i| totals[i] == min).collect();
    let open: Vec<usize> = (0..totals.len()).filter(|&i| segments[i].kind == "interval").collect();
    let min_open = open.iter().map(|&i| totals[i].clone()).min().unwrap_or_default();
    let best_interval: Vec<usize> = open.into_iter().filter(|&i| totals[i] == min_open).collect();
    CurveReport {
        provenance,
        game,
        tie_rule,
        codes,
        domain,
        best,
        best_total: exact_string(&min),
        best_mean: exact_f64(&min) / codes as f64,
        best_interval,
        best_interval_total: exact_string(&min_open),
        segments,
        nodes_evaluated: nodes,
        uncertified,
    }
}

impl CurveReport {
    /// The report of a search-problem curve.
    pub fn of_curve(c: &Curve, provenance: Provenance) -> CurveReport {
        let rows = c
            .segments
            .iter()
            .map(|s| row(&s.span, &s.total(), c.codes, Some(s.outcome.max_depth()), s.first_queries.clone()))
            .collect();
        let totals = c.segments.iter().map(|s| s.total()).collect();
        let header = Header {
            provenance,
            game: c.problem.clone(),
            tie_rule: c.tie_rule.clone(),
            codes: c.codes,
            domain: domain_text(&c.domain),
            nodes: c.nodes_evaluated,
            uncertified: c.uncertified,
        };
        finish(header, rows, totals)
    }

    /// The report of a curve given as (span, exact total, what is played
    /// there) on `domain` (size-model curves: [`crate::models::curve`]).
    pub fn of_totals(
        game: String,
        tie_rule: String,
        codes: u64,
        domain: &super::steps::Domain,
        segments: &[(Span, Exact, Vec<String>)],
        uncertified: u64,
        provenance: Provenance,
    ) -> CurveReport {
        let rows = segments.iter().map(|(span, total, played)| row(span, total, codes, None, played.clone())).collect();
        let totals = segments.iter().map(|s| s.1.clone()).collect();
        let header = Header { provenance, game, tie_rule, codes, domain: domain_text(domain), nodes: 0, uncertified };
        finish(header, rows, totals)
    }

    /// CSV: one row per interval and per point.
    pub fn csv(&self) -> String {
        let p = &self.provenance;
        let mut out = format!(
            "# {} — {} — domain {} — {} {} — {} — {:.3} s\n",
            self.game, self.tie_rule, self.domain, p.program, p.version, p.command, p.seconds
        );
        out.push_str("kind,lo,hi,lo_exact,hi_exact,total,mean,max_depth,first_queries,crossing_node_codes,crossing_below,crossing_above\n");
        for r in &self.segments {
            let (codes, below, above) = match &r.crossing {
                Some(c) => (c.node_codes.to_string(), sizes(&c.below), sizes(&c.above)),
                None => (String::new(), String::new(), String::new()),
            };
            out.push_str(&format!(
                "{},{:.17},{:.17},\"{}\",\"{}\",{},{:.9},{},\"{}\",{},\"{}\",\"{}\"\n",
                r.kind,
                r.lo,
                r.hi,
                r.lo_text,
                r.hi_text,
                r.total,
                r.mean,
                r.max_depth.map(|d| d.to_string()).unwrap_or_default(),
                r.first_queries.join(" "),
                codes,
                below,
                above
            ));
        }
        out
    }

    /// A few lines for the terminal: the best α and the points of interest.
    pub fn summary(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} — {} — α in {}: {} pieces ({} intervals), {} nodes, {:.3} s{}",
            self.game,
            self.tie_rule,
            self.domain,
            self.segments.len(),
            self.segments.iter().filter(|r| r.kind == "interval").count(),
            self.nodes_evaluated,
            self.provenance.seconds,
            if self.uncertified > 0 {
                format!(", {} UNCERTIFIED breakpoints", self.uncertified)
            } else {
                String::new()
            }
        )];
        let best: Vec<String> = self.best.iter().map(|&i| describe(&self.segments[i])).collect();
        lines.push(format!("  best total {} (mean {:.6}) on {}", self.best_total, self.best_mean, best.join(" and ")));
        let open: Vec<String> = self.best_interval.iter().map(|&i| describe(&self.segments[i])).collect();
        if !open.is_empty() {
            lines.push(format!(
                "  best on an open interval: total {} on {}",
                self.best_interval_total,
                open.join(" and ")
            ));
        }
        lines
    }
}

/// "α in (lo, hi)" or "α = p".
pub fn describe(r: &Row) -> String {
    if r.kind == "point" { format!("α = {}", r.lo_text) } else { format!("α in ({}, {})", r.lo_text, r.hi_text) }
}

fn sizes(s: &[u64]) -> String {
    s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}
