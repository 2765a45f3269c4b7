//! A compact account of a curve too large to keep whole. The exact curve of
//! Beams(6c,6p) on [1, 2] (thesis Fig. 4.12) has millions of pieces: its
//! full CSV is gigabytes, while what a reader asks of it fits in a page. The
//! overview keeps the best α (every piece of least total), the exact value at
//! each point of a grid of rational α, and, per bin of the α-axis, the least
//! and greatest mean of the pieces meeting it: what a figure of the curve
//! can show, and enough to check a published grid value.

use crate::curve::point::Point;
use crate::curve::report::{CurveReport, Least, Row, Rows, segment_row};
use crate::curve::steps::{Domain, Span};
use crate::curve::walk::{Curve, Segment};
use crate::output::Provenance;
use crate::renyi::alpha::Alpha;
use crate::search::TieRule;
use crate::search::outcome::{exact_f64, exact_string};
use serde::Serialize;

/// The exact value of the curve at one α of the grid.
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct GridValue {
    /// In the file as it displays (exact: `1.5`, `4/3`, `inf`), read back strictly.
    #[serde(with = "alpha_display")]
    pub alpha: Alpha,
    pub total: String,
    pub mean: f64,
    pub max_depth: usize,
    pub first_queries: Vec<String>,
}

/// The pieces of the curve meeting [lo, hi] of the α-axis (bounds rounded
/// to floats: a piece meets the bins its float enclosure meets).
#[derive(Clone, Debug, Serialize, serde::Deserialize)]
pub struct Bin {
    pub lo: f64,
    pub hi: f64,
    pub pieces: u64,
    pub least_mean: f64,
    pub greatest_mean: f64,
}

/// A curve's overview (see the module documentation).
#[derive(Clone, Debug, Serialize)]
pub struct Overview {
    pub provenance: Provenance,
    pub game: String,
    /// In the file as it displays (`LEX`, `MIX`, …).
    #[serde(with = "crate::search::run_file::tie_rule_text")]
    pub tie_rule: TieRule,
    pub codes: u64,
    pub domain: String,
    /// The grid's step (the values in `grid` are its multiples in the domain).
    #[serde(with = "alpha_display")]
    pub grid_step: Alpha,
    pub pieces: usize,
    pub intervals: usize,
    pub nodes_evaluated: u64,
    pub uncertified: u64,
    pub best_total: String,
    pub best_mean: f64,
    pub best: Vec<Row>,
    pub best_interval_total: String,
    pub best_interval: Vec<Row>,
    pub grid: Vec<GridValue>,
    pub bins: Vec<Bin>,
}

/// The grid of an overview: the multiples of `step` in the curve's domain
/// (up to its last finite breakpoint if the domain runs to ∞, then ∞
/// itself), at most `limit` of them from the lower end up; `None` if `step`
/// is not a positive finite rational.
pub fn grid(curve: &Curve, step: Alpha, limit: usize) -> Option<Vec<Alpha>> {
    let (lo, hi) = (&curve.domain.lo, &curve.domain.hi);
    let to = if hi.is_infinity() { finite_extent(curve).map_or(lo.enclosure().lo, |r| r.1) } else { hi.enclosure().hi };
    grid_to(&curve.domain, to, step, limit)
}

/// [`grid`] on `domain`, its finite multiples of `step` up to `to`.
pub fn grid_to(domain: &Domain, to: f64, step: Alpha, limit: usize) -> Option<Vec<Alpha>> {
    let Alpha::Finite { num, den } = step else { return None };
    if num == 0 {
        return None;
    }
    let (lo, hi) = (&domain.lo, &domain.hi);
    let from = lo.enclosure().lo;
    let mut out = Vec::new();
    let first = (from * den as f64 / num as f64).floor().max(0.0);
    // A grid starting beyond what k·step can reach in u64 has no finite point.
    let finite_start = from.is_finite() && first < u64::MAX as f64;
    let first = if finite_start { first as u64 } else { u64::MAX };
    for k in (first..u64::MAX).take_while(|_| finite_start) {
        let Some(a) = k.checked_mul(num).and_then(|n| Alpha::ratio(n, den).ok()) else { break };
        if a.to_f64() > to || out.len() == limit {
            break;
        }
        let p = Point::exact(a);
        if lo.order(&p).is_le() && p.order(hi).is_le() {
            out.push(a);
        }
    }
    if hi.is_infinity() && out.len() < limit {
        out.push(Alpha::Infinity);
    }
    Some(out)
}

/// The finite part of the curve's α-axis as floats: from its first finite
/// end to its last finite breakpoint (or end).
fn finite_extent(curve: &Curve) -> Option<(f64, f64)> {
    let finite = |p: &Point| p.enclosure().lo.is_finite().then(|| p.enclosure());
    let lo = curve.segments.iter().find_map(|s| finite(s.span.start()))?.lo;
    let hi = curve.segments.iter().rev().find_map(|s| finite(s.span.end()).or_else(|| finite(s.span.start())))?.hi;
    Some((lo, hi))
}

/// What an overview states besides what is read off the pieces.
pub struct OverviewHead {
    pub provenance: Provenance,
    pub game: String,
    pub tie_rule: TieRule,
    pub domain: String,
    pub nodes_evaluated: u64,
    pub uncertified: u64,
}

impl Overview {
    /// The terminal summary ([`crate::curve::report::Summary`]).
    pub fn summary(&self) -> Vec<String> {
        crate::curve::report::Summary {
            game: &self.game,
            tie_rule: &self.tie_rule,
            domain: &self.domain,
            pieces: self.pieces,
            intervals: self.intervals,
            nodes: self.nodes_evaluated,
            seconds: self.provenance.seconds,
            uncertified: self.uncertified,
            best_total: &self.best_total,
            best_mean: self.best_mean,
            best: &self.best,
            best_interval_total: &self.best_interval_total,
            best_interval: &self.best_interval,
        }
        .lines()
    }

    /// The overview of `curve` (whose report is `report`): its values at
    /// `alphas`, and `bins` bins over the finite part of its domain (from its
    /// lower end to its upper end, or to the last finite breakpoint if that
    /// is ∞).
    pub fn of<S: Rows>(report: &CurveReport<S>, curve: &Curve, step: Alpha, alphas: &[Alpha], bins: usize) -> Overview {
        let mut b = OverviewBuilder::new(curve.codes, step, alphas.to_vec(), finite_extent(curve), bins);
        for s in &curve.segments {
            b.add(s);
        }
        b.finish(OverviewHead {
            provenance: report.provenance.clone(),
            game: report.game.clone(),
            tie_rule: curve.tie_rule,
            domain: report.domain.clone(),
            nodes_evaluated: report.nodes_evaluated,
            uncertified: report.uncertified,
        })
    }
}

/// An overview made as the pieces of a curve go by, in order (a curve
/// merged slice by slice is never held whole).
pub struct OverviewBuilder {
    codes: u64,
    step: Alpha,
    /// The grid, ascending, and the first of it not yet placed.
    alphas: Vec<Alpha>,
    next: usize,
    grid: Vec<GridValue>,
    /// Bins over (lo, hi) of width `width`.
    bins: Vec<Bin>,
    extent: (f64, f64),
    width: f64,
    pieces: usize,
    intervals: usize,
    best: Least<Row>,
    best_interval: Least<Row>,
}

impl OverviewBuilder {
    /// An overview of a curve over `codes` codes with values at `alphas`
    /// (ascending) and `bins` equal bins over `extent` (none without one).
    pub fn new(codes: u64, step: Alpha, alphas: Vec<Alpha>, extent: Option<(f64, f64)>, bins: usize) -> Self {
        let (lo, hi) = extent.filter(|(lo, hi)| bins > 0 && hi > lo).unwrap_or((0.0, 0.0));
        let count = if hi > lo { bins } else { 0 };
        let width = if count > 0 { (hi - lo) / count as f64 } else { 0.0 };
        let bins = (0..count)
            .map(|k| Bin {
                lo: lo + k as f64 * width,
                hi: if k + 1 == count { hi } else { lo + (k + 1) as f64 * width },
                pieces: 0,
                least_mean: f64::INFINITY,
                greatest_mean: f64::NEG_INFINITY,
            })
            .collect();
        OverviewBuilder {
            codes,
            step,
            alphas,
            next: 0,
            grid: Vec::new(),
            bins,
            extent: (lo, hi),
            width,
            pieces: 0,
            intervals: 0,
            best: Least::default(),
            best_interval: Least::default(),
        }
    }

    /// The next piece of the curve.
    pub fn add(&mut self, s: &Segment) {
        let total = s.total();
        let mean = exact_f64(&total) / self.codes as f64;
        self.pieces += 1;
        let open = matches!(s.span, Span::Open(..));
        self.best.offer(&total, || segment_row(s, self.codes));
        if open {
            self.intervals += 1;
            self.best_interval.offer(&total, || segment_row(s, self.codes));
        }
        // Grid points held by this piece; any before it lie in no piece.
        while let Some(&a) = self.alphas.get(self.next) {
            let p = Point::exact(a);
            if s.span.holds(&p) {
                self.grid.push(GridValue {
                    alpha: a,
                    mean,
                    total: exact_string(&total),
                    max_depth: s.outcome.max_depth(),
                    first_queries: s.first_queries.to_vec(),
                });
            } else if p.order(s.span.end()).is_ge() {
                break;
            }
            self.next += 1;
        }
        let (lo, hi) = self.extent;
        let (a, b) = (s.span.start().enclosure().lo, s.span.end().enclosure().hi);
        if self.bins.is_empty() || a > hi || b < lo {
            return;
        }
        let count = self.bins.len();
        let index = |x: f64| (((x - lo) / self.width).floor().max(0.0) as usize).min(count - 1);
        let (first, last) = (index(a), index(b.min(hi)));
        for bin in &mut self.bins[first..=last] {
            bin.pieces += 1;
            bin.least_mean = bin.least_mean.min(mean);
            bin.greatest_mean = bin.greatest_mean.max(mean);
        }
    }

    /// Pieces added so far, and how many of them are open intervals.
    pub fn counts(&self) -> (usize, usize) {
        (self.pieces, self.intervals)
    }

    pub fn finish(self, head: OverviewHead) -> Overview {
        let codes = self.codes;
        let (best, min) = self.best.done();
        let (best_interval, min_open) = self.best_interval.done();
        Overview {
            provenance: head.provenance,
            game: head.game,
            tie_rule: head.tie_rule,
            codes,
            domain: head.domain,
            grid_step: self.step,
            pieces: self.pieces,
            intervals: self.intervals,
            nodes_evaluated: head.nodes_evaluated,
            uncertified: head.uncertified,
            best_total: exact_string(&min),
            best_mean: exact_f64(&min) / codes as f64,
            best,
            best_interval_total: exact_string(&min_open),
            best_interval,
            grid: self.grid,
            bins: self.bins,
        }
    }
}

/// Serde of an exact α as it displays (`0.5`, `4/3`, `inf`: exact, see
/// [`Alpha`]'s `Display`); text that does not display back the same is refused.
/// An α in a file as its exact text (`Alpha`'s display), refused unless it
/// reads back to the same text.
pub mod alpha_display {
    use crate::renyi::alpha::Alpha;
    use serde::{Deserialize, Deserializer, Serializer, de::Error};

    pub fn serialize<S: Serializer>(alpha: &Alpha, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(alpha)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Alpha, D::Error> {
        let text = String::deserialize(d)?;
        let alpha = text.parse::<Alpha>().ok().filter(|a| a.to_string() == text);
        alpha.ok_or_else(|| D::Error::custom(format!("α {text:?} is not an exact α as this program writes it")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_holds_the_multiples_inside_the_domain() {
        use crate::curve::{Domain, curve};
        use crate::games::mastermind::Mastermind;
        use crate::search::TieRule;
        let mm = Mastermind::new(3, 4, false).unwrap();
        let q = |n, d| Point::exact(Alpha::ratio(n, d).unwrap());
        let c = curve(&mm, TieRule::lex(), &Domain::closed(q(1, 1), q(3, 2)), None);
        let g = grid(&c, Alpha::ratio(1, 10).unwrap(), 100).unwrap();
        let text: Vec<String> = g.iter().map(|a| a.to_string()).collect();
        assert_eq!(text, ["1", "1.1", "1.2", "1.3", "1.4", "1.5"]);
        assert_eq!(grid(&c, Alpha::ratio(1, 10).unwrap(), 2).unwrap().len(), 2);
        assert!(grid(&c, Alpha::Infinity, 10).is_none());
        let whole = curve(&mm, TieRule::lex(), &Domain::closed(Point::zero(), Point::infinity()), None);
        let g = grid(&whole, Alpha::ratio(1, 2).unwrap(), 1000).unwrap();
        assert_eq!(g.last(), Some(&Alpha::Infinity));
        assert!(g.len() < 1000, "the grid stops at the last finite breakpoint, then ∞");
        let o = Overview::of(
            &CurveReport::view(&whole, Provenance::new("test", std::time::SystemTime::now(), 0.0)),
            &whole,
            Alpha::ratio(1, 2).unwrap(),
            &g,
            10,
        );
        assert_eq!(o.grid_step.to_string(), "0.5");
        // The grid reads back typed, byte for byte; α text it would not write is refused.
        let json = serde_json::to_string(&o.grid).unwrap();
        let back: Vec<GridValue> = serde_json::from_str(&json).unwrap();
        assert_eq!(serde_json::to_string(&back).unwrap(), json);
        assert_eq!(back.last().map(|v| v.alpha), Some(Alpha::Infinity));
        let third = r#"{"alpha":"1/3","total":"0","mean":0.0,"max_depth":0,"first_queries":[]}"#;
        assert_eq!(serde_json::from_str::<GridValue>(third).unwrap().alpha, Alpha::ratio(1, 3).unwrap());
        for bad in ["0.50", "1/2", "2/6", "Inf"] {
            assert!(serde_json::from_str::<GridValue>(&third.replace("1/3", bad)).is_err(), "{bad}");
        }
        // A domain at ∞ alone has no finite grid point (and does not loop).
        let at_inf = curve(&mm, TieRule::lex(), &Domain::closed(Point::infinity(), Point::infinity()), None);
        assert_eq!(grid(&at_inf, Alpha::ratio(1, 100).unwrap(), 1000).unwrap(), [Alpha::Infinity]);
        let far = Point::exact(Alpha::integer(u64::MAX / 2));
        let beyond = curve(&mm, TieRule::lex(), &Domain::closed(far.clone(), far), None);
        assert!(grid(&beyond, Alpha::ratio(1, 100).unwrap(), 1000).unwrap().len() <= 1);
        for (a, v) in g.iter().zip(&o.grid) {
            assert_eq!(v.total, exact_string(&whole.at(*a).unwrap().total()), "α = {a}");
        }
        assert_eq!(o.bins.len(), 10);
        assert!(o.bins.iter().all(|b| b.pieces > 0 && b.least_mean <= b.greatest_mean));
    }
}
