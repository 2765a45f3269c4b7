//! A curve as rows for CSV, JSON and plots, with what produced it.

use super::point::{Point, Witness, decimal_outward};
use super::steps::Span;
use super::walk::{Curve, Segment, domain_text};
use crate::output::Provenance;
use crate::search::TieRule;
use crate::search::outcome::{Exact, exact_f64, exact_string};
use serde::Serialize;
use std::borrow::Cow;
use std::io::Write;
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

impl Crossing {
    /// The crossing at `at`, if it has a witness.
    fn at(at: &Point) -> Option<Crossing> {
        let w: &Arc<Witness> = at.witness()?;
        let (below, above) = w.partitions(at);
        Some(Crossing {
            node_codes: w.codes,
            node_depth: w.depth,
            below,
            above,
            queries: (w.queries.0.to_string(), w.queries.1.to_string()),
        })
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

/// The rows of a report: held (small curves, size models) or made one at a
/// time from the curve when written ([`CurveRows`]: a curve of millions of
/// pieces, such as Beams(6c,6p) on [1, 2], is never held as rows).
pub trait Rows: Serialize {
    fn count(&self) -> usize;
    fn row(&self, i: usize) -> Cow<'_, Row>;
    /// Whether row `i` is an open interval (without making the row).
    fn is_interval(&self, i: usize) -> bool {
        self.row(i).kind == "interval"
    }
}

impl Rows for Vec<Row> {
    fn count(&self) -> usize {
        self.len()
    }

    fn row(&self, i: usize) -> Cow<'_, Row> {
        Cow::Borrowed(&self[i])
    }
}

/// The rows of a search-problem curve, made from its segments as they are read.
#[derive(Clone, Copy, Debug)]
pub struct CurveRows<'a>(&'a Curve);

impl Rows for CurveRows<'_> {
    fn count(&self) -> usize {
        self.0.segments.len()
    }

    fn is_interval(&self, i: usize) -> bool {
        matches!(self.0.segments[i].span, Span::Open(..))
    }

    fn row(&self, i: usize) -> Cow<'_, Row> {
        Cow::Owned(segment_row(&self.0.segments[i], self.0.codes))
    }
}

impl Serialize for CurveRows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..self.count()).map(|i| self.row(i).into_owned()))
    }
}

/// A curve with its provenance, ready to write; `S` holds or makes its rows.
#[derive(Clone, Debug, Serialize)]
pub struct CurveReport<S = Vec<Row>> {
    pub provenance: Provenance,
    pub game: String,
    /// In the file as it displays (`LEX`, `MIX`, …), read back typed.
    #[serde(with = "crate::search::run_file::tie_rule_text")]
    pub tie_rule: TieRule,
    pub codes: u64,
    pub domain: String,
    pub segments: S,
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

/// The CSV's float column of a row's end: a point's enclosure rounded
/// outward at 17 decimals; an interval's ends (representatives) to nearest.
fn bound_text(r: &Row, upper: bool) -> String {
    let x = if upper { r.hi } else { r.lo };
    if r.kind == "point" && x.is_finite() { decimal_outward(x, 17, upper) } else { format!("{x:.17}") }
}

/// A point as the curve's files write it (`lo_exact`/`hi_exact`, `lo_text`/`hi_text`):
/// an enclosure the walk could not certify is marked "uncertified" wherever it
/// appears, as an end of an interval too, not only counted in the header.
fn point_text(p: &Point) -> String {
    match p {
        Point::Root { root, .. } if !root.certified => format!("{p} uncertified"),
        _ => p.to_string(),
    }
}

fn point_bounds(p: &Point) -> (f64, f64) {
    let e = p.enclosure();
    (e.lo, e.hi)
}

/// The row of one piece of a search-problem curve over `codes` codes.
pub fn segment_row(s: &Segment, codes: u64) -> Row {
    row(&s.span, &s.total(), codes, Some(s.outcome.max_depth()), s.first_queries.to_vec())
}

fn row(span: &Span, total: &Exact, codes: u64, max_depth: Option<usize>, first_queries: Vec<String>) -> Row {
    let (kind, lo, hi, lo_text, hi_text, crossing, certified) = match span {
        Span::At(p) => {
            let (lo, hi) = point_bounds(p);
            let certified = !matches!(p, Point::Root { root, .. } if !root.certified);
            ("point", lo, hi, point_text(p), point_text(p), Crossing::at(p), certified)
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

/// What every report states besides its rows.
struct Header {
    provenance: Provenance,
    game: String,
    tie_rule: TieRule,
    codes: u64,
    domain: String,
    nodes: u64,
    uncertified: u64,
}

/// The least total among the pieces offered, and what was kept of each
/// piece that has it (in the order offered).
pub(super) struct Least<T> {
    min: Option<Exact>,
    at: Vec<T>,
}

impl<T> Default for Least<T> {
    fn default() -> Self {
        Least { min: None, at: Vec::new() }
    }
}

impl<T> Least<T> {
    /// Offers a piece of total `t`; `keep` is called only if it has the least total so far.
    pub(super) fn offer(&mut self, t: &Exact, keep: impl FnOnce() -> T) {
        match self.min.as_ref().map(|m| t.cmp(m)) {
            Some(std::cmp::Ordering::Greater) => {}
            Some(std::cmp::Ordering::Equal) => self.at.push(keep()),
            _ => {
                self.min = Some(t.clone());
                self.at = vec![keep()];
            }
        }
    }

    /// What was kept and the least total (0 if nothing was offered).
    pub(super) fn done(self) -> (Vec<T>, Exact) {
        (self.at, self.min.unwrap_or_default())
    }
}

/// The report of `segments`, whose i-th total is `total(i)`.
fn finish<S: Rows>(h: Header, segments: S, total: impl Fn(usize) -> Exact) -> CurveReport<S> {
    let Header { provenance, game, tie_rule, codes, domain, nodes, uncertified } = h;
    let n = segments.count();
    // One pass, each total made once (a 6c6p curve has 10^7 pieces).
    let (mut all, mut open) = (Least::<usize>::default(), Least::<usize>::default());
    for i in 0..n {
        let t = total(i);
        all.offer(&t, || i);
        if segments.is_interval(i) {
            open.offer(&t, || i);
        }
    }
    let ((best, min), (best_interval, min_open)) = (all.done(), open.done());
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

fn curve_header(c: &Curve, provenance: Provenance) -> Header {
    Header {
        provenance,
        game: c.problem.clone(),
        tie_rule: c.tie_rule,
        codes: c.codes,
        domain: domain_text(&c.domain),
        nodes: c.nodes_evaluated,
        uncertified: c.uncertified,
    }
}

impl<'a> CurveReport<CurveRows<'a>> {
    /// The report of a search-problem curve with rows made when written
    /// (memory: the curve, not its rows).
    pub fn view(c: &'a Curve, provenance: Provenance) -> CurveReport<CurveRows<'a>> {
        finish(curve_header(c, provenance), CurveRows(c), |i| c.segments[i].total())
    }
}

impl CurveReport {
    /// The report of a search-problem curve, its rows held.
    pub fn of_curve(c: &Curve, provenance: Provenance) -> CurveReport {
        let lazy = CurveRows(c);
        let rows: Vec<Row> = (0..lazy.count()).map(|i| lazy.row(i).into_owned()).collect();
        finish(curve_header(c, provenance), rows, |i| c.segments[i].total())
    }

    /// The report of a curve given as (span, exact total, what is played
    /// there) on `domain` (size-model curves: [`crate::models::curve`]).
    pub fn of_totals(
        game: String,
        tie_rule: TieRule,
        codes: u64,
        domain: &super::steps::Domain,
        segments: &[(Span, Exact, Vec<String>)],
        uncertified: u64,
        provenance: Provenance,
    ) -> CurveReport {
        let rows = segments.iter().map(|(span, total, played)| row(span, total, codes, None, played.clone())).collect();
        let header = Header { provenance, game, tie_rule, codes, domain: domain_text(domain), nodes: 0, uncertified };
        finish(header, rows, |i| segments[i].1.clone())
    }
}

impl<S: Rows> CurveReport<S> {
    /// CSV: one row per interval and per point.
    pub fn csv(&self) -> String {
        let mut out = Vec::new();
        self.write_csv(&mut out).unwrap_or_default();
        String::from_utf8(out).unwrap_or_default()
    }

    /// [`Self::csv`], written row by row.
    pub fn write_csv(&self, out: &mut dyn Write) -> std::io::Result<()> {
        write_csv_head(out)?;
        for i in 0..self.segments.count() {
            write_csv_row(out, &self.segments.row(i))?;
        }
        Ok(())
    }

    /// Number of open intervals among the rows.
    fn intervals(&self) -> usize {
        (0..self.segments.count()).filter(|&i| self.segments.is_interval(i)).count()
    }

    /// A few lines for the terminal: the best α and the points of interest.
    pub fn summary(&self) -> Vec<String> {
        let rows = |at: &[usize]| at.iter().map(|&i| self.segments.row(i).into_owned()).collect::<Vec<Row>>();
        Summary {
            game: &self.game,
            tie_rule: &self.tie_rule,
            domain: &self.domain,
            pieces: self.segments.count(),
            intervals: self.intervals(),
            nodes: self.nodes_evaluated,
            seconds: self.provenance.seconds,
            uncertified: self.uncertified,
            best_total: &self.best_total,
            best_mean: self.best_mean,
            best: &rows(&self.best),
            best_interval_total: &self.best_interval_total,
            best_interval: &rows(&self.best_interval),
        }
        .lines()
    }
}

/// What a curve's terminal summary states: what it is, how many pieces, the best α.
pub struct Summary<'a> {
    pub game: &'a str,
    pub tie_rule: &'a TieRule,
    pub domain: &'a str,
    pub pieces: usize,
    pub intervals: usize,
    pub nodes: u64,
    pub seconds: f64,
    pub uncertified: u64,
    pub best_total: &'a str,
    pub best_mean: f64,
    pub best: &'a [Row],
    pub best_interval_total: &'a str,
    pub best_interval: &'a [Row],
}

impl Summary<'_> {
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!(
            "{} — {} — α in {}: {} pieces ({} intervals), {} nodes, {:.3} s{}",
            self.game,
            self.tie_rule,
            self.domain,
            self.pieces,
            self.intervals,
            self.nodes,
            self.seconds,
            if self.uncertified > 0 {
                format!(", {} UNCERTIFIED breakpoints", self.uncertified)
            } else {
                String::new()
            }
        )];
        let best: Vec<String> = self.best.iter().map(describe).collect();
        lines.push(format!("  best total {} (mean {:.6}) on {}", self.best_total, self.best_mean, best.join(" and ")));
        let open: Vec<String> = self.best_interval.iter().map(describe).collect();
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

/// The first line of a curve's CSV: its columns. What produced the curve
/// (game, tie rule, domain, program, command) is in its JSON (issue 49 item 8).
pub fn write_csv_head(out: &mut dyn Write) -> std::io::Result<()> {
    writeln!(
        out,
        "kind,lo,hi,lo_exact,hi_exact,total,mean,max_depth,first_queries,crossing_node_codes,crossing_below,crossing_above"
    )
}

/// One row of a curve's CSV.
pub fn write_csv_row(out: &mut dyn Write, r: &Row) -> std::io::Result<()> {
    let (codes, below, above) = match &r.crossing {
        Some(c) => (c.node_codes.to_string(), sizes(&c.below), sizes(&c.above)),
        None => (String::new(), String::new(), String::new()),
    };
    writeln!(
        out,
        "{},{},{},\"{}\",\"{}\",{},{:.9},{},\"{}\",{},\"{}\",\"{}\"",
        r.kind,
        bound_text(r, false),
        bound_text(r, true),
        r.lo_text,
        r.hi_text,
        r.total,
        r.mean,
        r.max_depth.map(|d| d.to_string()).unwrap_or_default(),
        r.first_queries.join(" "),
        codes,
        below,
        above
    )
}

/// "α in (lo, hi)" or "α = p".
pub fn describe(r: &Row) -> String {
    if r.kind == "point" { format!("α = {}", r.lo_text) } else { format!("α in ({}, {})", r.lo_text, r.hi_text) }
}

fn sizes(s: &[u64]) -> String {
    s.iter().map(|x| x.to_string()).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::curve::crossing::PairFunction;
    use crate::curve::interval::Interval;
    use crate::curve::point::Root;

    fn root(certified: bool) -> Point {
        let pair = Arc::new(PairFunction::new(&[1, 5, 6], &[2, 3, 7]).unwrap());
        Point::Root { root: Arc::new(Root { at: Interval::new(1.5, 1.75), pair, certified }), witness: None }
    }

    #[test]
    fn an_uncertified_enclosure_says_so_in_the_files() {
        assert_eq!(point_text(&root(true)), "[1.500000000000000, 1.750000000000000]");
        assert_eq!(point_text(&root(false)), "[1.500000000000000, 1.750000000000000] uncertified");
    }
}
