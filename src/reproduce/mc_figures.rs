//! Figures of thesis ch. 2 (Figs. 2.3/2.5/2.6 ESR, 2.10–2.12 DSC, 2.15 S(a,b)),
//! drawn by the program as SVG line charts over log k, with the CSV beside
//! them. The step charts of [`crate::plot`] draw single points; these curves
//! need polylines, a log axis and more than four series, so they have their
//! own small renderer here. Output is deterministic (same data, same bytes).

use crate::error::{Result, invalid};
use crate::output::write_atomic;
use std::fmt::Write;
use std::path::Path;

/// One curve.
#[derive(Clone, Debug)]
pub struct Curve {
    pub label: String,
    /// (k, value), k > 0, in increasing k.
    pub points: Vec<(f64, f64)>,
}

/// A chart of curves over k on a logarithmic axis.
#[derive(Clone, Debug)]
pub struct LogChart {
    pub title: String,
    pub subtitle: String,
    pub x_label: String,
    pub y_label: String,
    /// k range shown (both > 0).
    pub k_range: (f64, f64),
    /// y range; `None`: from the data.
    pub y_range: Option<(f64, f64)>,
    pub curves: Vec<Curve>,
    /// A dashed horizontal reference line (e.g. 50 %) and its label.
    pub reference: Option<(f64, String)>,
}

const W: f64 = 960.0;
const H: f64 = 560.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 190.0;
const TOP: f64 = 70.0;
const BOTTOM: f64 = 60.0;
/// Ten distinguishable colours (Tableau 10).
const COLOURS: [&str; 10] =
    ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];

use crate::plot::escape;

/// 1, 10, 100, 1000, 10⁴, 10⁵, …
fn power_label(e: i32) -> String {
    const SUP: [char; 10] = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];
    if e <= 3 {
        return format!("{}", 10u64.pow(e.max(0) as u32));
    }
    let digits: String = e.to_string().chars().map(|c| SUP[c.to_digit(10).unwrap_or(0) as usize]).collect();
    format!("10{digits}")
}

/// The chart as an SVG document.
// Long: one SVG document written in drawing order, its parts sharing the log scales
pub fn render(chart: &LogChart) -> Result<String> {
    let (k0, k1) = chart.k_range;
    if !(k0 > 0.0 && k1 > k0 && k1.is_finite()) {
        return Err(invalid(format!("chart k-range [{k0}, {k1}] must be positive and non-empty")));
    }
    let ys: Vec<f64> = chart.curves.iter().flat_map(|c| c.points.iter().map(|p| p.1)).collect();
    if ys.is_empty() || ys.iter().any(|y| !y.is_finite()) {
        return Err(invalid(format!("chart {:?} has no data or a non-finite value", chart.title)));
    }
    let (y0, y1) = chart.y_range.unwrap_or_else(|| {
        let lo = ys.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = ys.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let pad = ((hi - lo) * 0.06).max(1e-6);
        (lo - pad, hi + pad)
    });
    let (lx0, lx1) = (k0.log10(), k1.log10());
    let (bx0, by0, bx1, by1) = (LEFT, TOP, W - RIGHT, H - BOTTOM);
    let px = |k: f64| bx0 + (k.log10().clamp(lx0, lx1) - lx0) / (lx1 - lx0) * (bx1 - bx0);
    let py = |y: f64| by0 + (y1 - y.clamp(y0, y1)) / (y1 - y0) * (by1 - by0);
    let mut svg = String::new();
    let _ = writeln!(
        svg,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" viewBox="0 0 {W} {H}" font-family="DejaVu Sans, Arial, sans-serif" font-size="13">"#
    );
    let _ = writeln!(svg, r#"<rect width="{W}" height="{H}" fill="white"/>"#);
    let mid = (bx0 + bx1) / 2.0;
    let _ =
        writeln!(svg, r#"<text x="{mid}" y="26" text-anchor="middle" font-size="17">{}</text>"#, escape(&chart.title));
    let _ = writeln!(
        svg,
        r##"<text x="{mid}" y="48" text-anchor="middle" font-size="12" fill="#444">{}</text>"##,
        escape(&chart.subtitle)
    );
    let _ = writeln!(
        svg,
        r##"<rect x="{bx0}" y="{by0}" width="{}" height="{}" fill="none" stroke="#333"/>"##,
        bx1 - bx0,
        by1 - by0
    );
    for e in lx0.floor() as i32..=lx1.ceil() as i32 {
        for m in 1..10 {
            let k = m as f64 * 10f64.powi(e);
            if k < k0 || k > k1 {
                continue;
            }
            let x = px(k);
            if m == 1 {
                let _ = writeln!(
                    svg,
                    r##"<line x1="{x:.2}" y1="{by0}" x2="{x:.2}" y2="{by1}" stroke="#e4e4e4"/><line x1="{x:.2}" y1="{by1}" x2="{x:.2}" y2="{}" stroke="#333"/><text x="{x:.2}" y="{}" text-anchor="middle">{}</text>"##,
                    by1 + 6.0,
                    by1 + 21.0,
                    power_label(e)
                );
            } else {
                let _ =
                    writeln!(svg, r##"<line x1="{x:.2}" y1="{by1}" x2="{x:.2}" y2="{}" stroke="#333"/>"##, by1 + 3.0);
            }
        }
    }
    crate::plot::y_ticks(&mut svg, (y0, y1), py, (bx0, bx1));
    let _ = writeln!(svg, r#"<text x="{mid}" y="{}" text-anchor="middle">{}</text>"#, H - 18.0, escape(&chart.x_label));
    let yc = (by0 + by1) / 2.0;
    let _ = writeln!(
        svg,
        r#"<text x="22" y="{yc}" text-anchor="middle" transform="rotate(-90 22 {yc})">{}</text>"#,
        escape(&chart.y_label)
    );
    if let Some((y, label)) = &chart.reference
        && *y >= y0
        && *y <= y1
    {
        let yy = py(*y);
        let _ = writeln!(
            svg,
            r##"<line x1="{bx0}" y1="{yy:.2}" x2="{bx1}" y2="{yy:.2}" stroke="#555" stroke-dasharray="6 4"/><text x="{}" y="{:.2}" font-size="11" fill="#555">{}</text>"##,
            bx0 + 6.0,
            yy - 5.0,
            escape(label)
        );
    }
    for (i, c) in chart.curves.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let dash = if i >= COLOURS.len() { r#" stroke-dasharray="5 3""# } else { "" };
        let mut d = String::new();
        for (j, &(k, y)) in c.points.iter().filter(|p| p.0 >= k0 && p.0 <= k1).enumerate() {
            let _ = write!(d, "{}{:.2} {:.2}", if j == 0 { "M" } else { "L" }, px(k), py(y));
        }
        let _ = writeln!(svg, r#"<path fill="none" stroke="{colour}" stroke-width="1.8"{dash} d="{d}"/>"#);
        let ly = by0 + 10.0 + 20.0 * i as f64;
        let _ = writeln!(
            svg,
            r#"<line x1="{}" y1="{ly}" x2="{}" y2="{ly}" stroke="{colour}" stroke-width="2.5"{dash}/><text x="{}" y="{}">{}</text>"#,
            bx1 + 14.0,
            bx1 + 40.0,
            bx1 + 46.0,
            ly + 4.0,
            escape(&c.label)
        );
    }
    svg.push_str("</svg>\n");
    Ok(svg)
}

/// Writes the chart as SVG (temp file + rename).
pub fn write(chart: &LogChart, path: &Path) -> Result<()> {
    write_atomic(path, render(chart)?.as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> LogChart {
        LogChart {
            title: "S(1,2): MC(k) against MC(2k)".into(),
            subtitle: "mean win rate of MC(k)".into(),
            x_label: "k (log scale)".into(),
            y_label: "win rate of MC(k)".into(),
            k_range: (1.0, 1000.0),
            y_range: Some((0.0, 1.0)),
            curves: vec![Curve { label: "n = 10".into(), points: vec![(1.0, 0.25), (10.0, 0.5), (1000.0, 1.0)] }],
            reference: Some((0.5, "50 %".into())),
        }
    }

    #[test]
    fn log_axis_curves_and_labels() {
        let svg = render(&chart()).unwrap();
        assert!(svg.contains(">S(1,2): MC(k) against MC(2k)<") && svg.contains(">k (log scale)<"));
        assert!(svg.contains(">win rate of MC(k)<") && svg.contains(">n = 10<") && svg.contains(">1000<"));
        // k = 1 → x = 80, k = 10 → a third of the 690 px axis; y = 0.25 → 70 + 0.75·430.
        assert!(svg.contains("M80.00 392.50L310.00 285.00L770.00 70.00"), "{svg}");
        assert_eq!(svg, render(&chart()).unwrap());
        assert_eq!(power_label(5), "10⁵");
    }

    #[test]
    fn bad_charts_are_errors() {
        let mut c = chart();
        c.k_range = (0.0, 10.0);
        assert!(render(&c).is_err());
        let mut c = chart();
        c.curves[0].points[1].1 = f64::NAN;
        assert!(render(&c).is_err());
        let mut c = chart();
        c.curves.clear();
        assert!(render(&c).is_err());
    }
}
