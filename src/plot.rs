//! Step-function charts as SVG, written by the program itself (no Python or
//! plotting library needed): horizontal segments for the open intervals,
//! dots for values at single points, crosses for published values.
//! Output is deterministic (same chart, same bytes).

use crate::error::{Result, invalid};
use std::fmt::Write;

/// The value `y` on the open interval (lo, hi); `hi` may be ∞.
#[derive(Clone, Debug)]
pub struct Step {
    pub lo: f64,
    pub hi: f64,
    pub y: f64,
}

/// One curve: its steps and its values at single points.
#[derive(Clone, Debug)]
pub struct StepSeries {
    pub label: String,
    pub steps: Vec<Step>,
    pub points: Vec<(f64, f64)>,
}

/// A published value drawn over the curves.
#[derive(Clone, Debug)]
pub struct Marker {
    pub x: f64,
    pub y: f64,
    pub label: String,
}

#[derive(Clone, Debug)]
pub struct Chart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub x_range: (f64, f64),
    pub y_range: Option<(f64, f64)>,
    pub series: Vec<StepSeries>,
    pub markers: Vec<Marker>,
    /// Written at the right edge, e.g. "constant to α = ∞: 4.4583".
    pub tail_note: Option<String>,
}

const W: f64 = 900.0;
const H: f64 = 540.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 30.0;
const TOP: f64 = 50.0;
const BOTTOM: f64 = 80.0;
const COLOURS: [&str; 4] = ["#1f5fa8", "#c0392b", "#2e8b57", "#8e44ad"];

/// Text escaped for SVG.
pub(crate) fn escape(s: &str) -> String {
    s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;")
}

/// Round tick positions covering [lo, hi].
pub(crate) fn ticks(lo: f64, hi: f64) -> Vec<f64> {
    let raw = (hi - lo) / 6.0;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0].iter().map(|m| m * mag).find(|s| *s >= raw).unwrap_or(10.0 * mag);
    let first = (lo / step).ceil() as i64;
    let last = (hi / step).floor() as i64;
    (first..=last).map(|k| k as f64 * step).collect()
}

/// The chart as an SVG document.
// Long: one SVG document written in drawing order (frame, axes, series, legend, markers); its
//   parts share the scales
pub fn render_svg(chart: &Chart) -> Result<String> {
    let (x0, x1) = chart.x_range;
    if !(x0.is_finite() && x1.is_finite() && x0 < x1) {
        return Err(invalid(format!("chart x-range [{x0}, {x1}] is empty or not finite")));
    }
    if chart.series.iter().all(|s| s.steps.is_empty() && s.points.is_empty()) {
        return Err(invalid("chart has no data"));
    }
    let visible = |x: f64| x >= x0 && x <= x1;
    let mut ys: Vec<f64> = Vec::new();
    for s in &chart.series {
        for st in &s.steps {
            if st.lo.is_nan() || st.hi.is_nan() || !st.y.is_finite() || st.lo > st.hi {
                return Err(invalid(format!("bad step ({}, {}) → {}", st.lo, st.hi, st.y)));
            }
            if st.hi > x0 && st.lo < x1 {
                ys.push(st.y);
            }
        }
        ys.extend(s.points.iter().filter(|p| visible(p.0)).map(|p| p.1));
    }
    ys.extend(chart.markers.iter().filter(|m| visible(m.x)).map(|m| m.y));
    let (y0, y1) = chart.y_range.unwrap_or_else(|| {
        let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.06).max(1e-6);
        (lo - pad, hi + pad)
    });
    if !(y0.is_finite() && y1.is_finite() && y0 < y1) {
        return Err(invalid("chart y-range is empty"));
    }
    let px = |x: f64| LEFT + (x.clamp(x0, x1) - x0) / (x1 - x0) * (W - LEFT - RIGHT);
    let py = |y: f64| TOP + (y1 - y) / (y1 - y0) * (H - TOP - BOTTOM);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="28" text-anchor="middle" font-size="16">{}</text>"#,
        W / 2.0,
        escape(&chart.title)
    );
    let (bx0, by0, bx1, by1) = (LEFT, TOP, W - RIGHT, H - BOTTOM);
    let _ = writeln!(
        svg,
        r##"<rect x="{bx0}" y="{by0}" width="{}" height="{}" fill="none" stroke="#333"/>"##,
        bx1 - bx0,
        by1 - by0
    );
    for t in ticks(x0, x1) {
        let x = px(t);
        let _ = writeln!(
            svg,
            r##"<line x1="{x:.2}" y1="{by1}" x2="{x:.2}" y2="{}" stroke="#333"/><text x="{x:.2}" y="{}" text-anchor="middle">{}</text>"##,
            by1 + 5.0,
            by1 + 20.0,
            fmt_tick(t)
        );
    }
    crate::plot::y_ticks(&mut svg, (y0, y1), py, (bx0, bx1));
    let _ = writeln!(
        svg,
        r#"<text x="{}" y="{}" text-anchor="middle">{}</text>"#,
        (bx0 + bx1) / 2.0,
        H - 38.0,
        escape(&chart.x_label)
    );
    let _ = writeln!(
        svg,
        r#"<text x="20" y="{}" text-anchor="middle" transform="rotate(-90 20 {})">{}</text>"#,
        (by0 + by1) / 2.0,
        (by0 + by1) / 2.0,
        escape(&chart.y_label)
    );
    for (i, s) in chart.series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let _ = write!(svg, r#"<path fill="none" stroke="{colour}" stroke-width="2" d=""#);
        for st in s.steps.iter().filter(|st| st.hi > x0 && st.lo < x1) {
            let _ = write!(svg, "M{:.2} {:.2}H{:.2}", px(st.lo), py(st.y), px(st.hi.min(x1)));
        }
        let _ = writeln!(svg, r#""/>"#);
        for &(x, y) in s.points.iter().filter(|p| visible(p.0)) {
            let _ = writeln!(svg, r#"<circle cx="{:.2}" cy="{:.2}" r="2.2" fill="{colour}"/>"#, px(x), py(y));
        }
        // Legend: one row under the x-axis label.
        let (lx, ly) = (bx0 + 170.0 * i as f64, H - 12.0);
        let _ = writeln!(
            svg,
            r#"<line x1="{lx}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2"/><text x="{}" y="{}">{}</text>"#,
            lx + 25.0,
            lx + 30.0,
            ly + 4.0,
            escape(&s.label)
        );
    }
    for m in chart.markers.iter().filter(|m| visible(m.x)) {
        let (x, y) = (px(m.x), py(m.y));
        let _ = writeln!(
            svg,
            r##"<path d="M{:.2} {:.2}l8 8m0 -8l-8 8" stroke="#000" stroke-width="1.6"/>"##,
            x - 4.0,
            y - 4.0
        );
    }
    if !chart.markers.is_empty() {
        let (lx, ly) = (bx0 + 170.0 * chart.series.len() as f64, H - 12.0);
        let _ = writeln!(
            svg,
            r##"<path d="M{:.2} {:.2}l8 8m0 -8l-8 8" stroke="#000" stroke-width="1.6"/><text x="{}" y="{}">thesis</text>"##,
            lx + 8.0,
            ly - 4.0,
            lx + 30.0,
            ly + 4.0
        );
    }
    if let Some(note) = &chart.tail_note {
        let _ = writeln!(
            svg,
            r#"<text x="{bx1}" y="{}" text-anchor="end" font-size="11">{}</text>"#,
            by0 - 6.0,
            escape(note)
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// The y-axis ticks of a chart: a tick mark, a light grid line across the
/// plot box (x from `bx0` to `bx1`) and the label, at round values in [y0, y1].
pub(crate) fn y_ticks(svg: &mut String, (y0, y1): (f64, f64), py: impl Fn(f64) -> f64, (bx0, bx1): (f64, f64)) {
    for t in ticks(y0, y1) {
        let y = py(t);
        let _ = writeln!(
            svg,
            r##"<line x1="{}" y1="{y:.2}" x2="{bx0}" y2="{y:.2}" stroke="#333"/><line x1="{bx0}" y1="{y:.2}" x2="{bx1}" y2="{y:.2}" stroke="#eee"/><text x="{}" y="{:.2}" text-anchor="end">{}</text>"##,
            bx0 - 5.0,
            bx0 - 8.0,
            y + 4.0,
            fmt_tick(t)
        );
    }
}

/// A tick label: at most four decimals, trailing zeros dropped.
pub(crate) fn fmt_tick(t: f64) -> String {
    let s = format!("{t:.4}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// Writes the chart as SVG (temp file + rename).
pub fn write_svg(chart: &Chart, path: &std::path::Path) -> Result<()> {
    crate::output::write_atomic(path, render_svg(chart)?.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> Chart {
        Chart {
            title: "MM-1296".into(),
            x_label: "α".into(),
            y_label: "mean number of queries".into(),
            x_range: (0.0, 4.0),
            y_range: Some((4.0, 5.0)),
            series: vec![StepSeries {
                label: "LEX".into(),
                steps: vec![Step { lo: 0.0, hi: 2.0, y: 4.5 }, Step { lo: 2.0, hi: f64::INFINITY, y: 4.25 }],
                points: vec![(2.0, 4.75)],
            }],
            markers: vec![Marker { x: 1.0, y: 4.5, label: "thesis".into() }],
            tail_note: Some("constant to α = ∞".into()),
        }
    }

    #[test]
    fn steps_points_and_labels_are_drawn() {
        let svg = render_svg(&chart()).unwrap();
        assert!(svg.contains(">MM-1296<") && svg.contains(">mean number of queries<") && svg.contains(">α<"));
        // (0, 2) at y = 4.5: x from 80 to 80 + 0.5·790 = 475, y = 50 + 0.5·410 = 255.
        assert!(svg.contains("M80.00 255.00H475.00"), "{svg}");
        // The step to ∞ ends at the right edge (870).
        assert!(svg.contains("H870.00"));
        assert!(svg.contains(r#"<circle cx="475.00" cy="152.50""#));
        assert_eq!(svg, render_svg(&chart()).unwrap());
    }

    #[test]
    fn bad_charts_are_errors() {
        let mut c = chart();
        c.x_range = (1.0, 1.0);
        assert!(render_svg(&c).is_err());
        let mut c = chart();
        c.series[0].steps[0].y = f64::NAN;
        assert!(render_svg(&c).is_err());
        let mut c = chart();
        c.series.clear();
        assert!(render_svg(&c).is_err());
    }
}
