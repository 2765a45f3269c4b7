//! α-sweeps: the same game analysed for a grid of Rényi orders (thesis Fig. 4.6,
//! Table 4.18).

use crate::alpha::Alpha;
use crate::error::{Result, invalid};
use crate::search::{Analysis, RunOptions, SearchProblem, Strategy, TieRule, analyze};
use num_rational::Ratio;
use rayon::prelude::*;

/// Parses `from:to:step` (each a decimal or fraction ≥ 0; `to` may be `inf`
/// only as a single value) into the exact grid from, from+step, … ≤ to.
pub fn alpha_grid(spec: &str) -> Result<Vec<Alpha>> {
    let parts: Vec<&str> = spec.split(':').collect();
    if parts.len() == 1 {
        return Ok(vec![parts[0].parse()?]);
    }
    if parts.len() != 3 {
        return Err(invalid(format!("α range {spec:?}: expected from:to:step, e.g. 0.02:6:0.02")));
    }
    let rational = |s: &str| -> Result<Ratio<u64>> {
        match s.parse::<Alpha>()? {
            Alpha::Finite { num, den } => Ok(Ratio::new(num, den)),
            Alpha::Infinity => Err(invalid(format!("α range {spec:?}: ends and step must be finite"))),
        }
    };
    let (from, to, step) = (rational(parts[0])?, rational(parts[1])?, rational(parts[2])?);
    if step == Ratio::from_integer(0) {
        return Err(invalid(format!("α range {spec:?}: the step must be positive")));
    }
    if to < from {
        return Err(invalid(format!("α range {spec:?}: the range is reversed (from > to)")));
    }
    let count = ((to - from) / step).to_integer() + 1;
    if count > 100_000 {
        return Err(invalid(format!("α range {spec:?} has {count} points; at most 100000 are allowed")));
    }
    (0..count)
        .map(|k| {
            let a = from + step * k;
            Alpha::ratio(*a.numer(), *a.denom())
        })
        .collect()
}

/// Analyses `problem` for every α of the grid (in parallel), in grid order.
pub fn sweep<P: SearchProblem>(problem: &P, alphas: &[Alpha], tie: TieRule) -> Vec<Analysis> {
    alphas.par_iter().map(|&alpha| analyze(problem, Strategy::new(alpha, tie), RunOptions::default())).collect()
}

/// CSV of a sweep: one row per α (exact α, its value, total, mean, max depth,
/// first queries).
pub fn sweep_csv(points: &[Analysis]) -> Result<String> {
    crate::output::csv_text(
        &[],
        &["alpha", "alpha_value", "total", "mean", "max_depth", "first_query"],
        points.iter().map(|p| {
            let (value, mean) = (p.alpha.to_f64().to_string(), p.mean.to_string());
            (p.alpha.to_string(), value, &p.total, mean, p.max_depth, p.first_queries.join(" "))
        }),
    )
}

/// Maximal runs of consecutive grid points with the same total, as
/// (first α, last α, total).
pub fn plateaus(points: &[Analysis]) -> Vec<(Alpha, Alpha, String)> {
    let mut out: Vec<(Alpha, Alpha, String)> = Vec::new();
    for p in points {
        match out.last_mut() {
            Some(last) if last.2 == p.total => last.1 = p.alpha,
            _ => out.push((p.alpha, p.alpha, p.total.clone())),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_is_exact() {
        let g = alpha_grid("0.02:0.1:0.02").unwrap();
        assert_eq!(g.len(), 5);
        assert_eq!(g[4], Alpha::ratio(1, 10).unwrap());
        assert_eq!(alpha_grid("1.34").unwrap(), vec![Alpha::ratio(67, 50).unwrap()]);
    }

    #[test]
    fn bad_ranges_are_rejected() {
        for bad in ["1:0:0.1", "0:1:0", "0:1", "a:b:c", "0:inf:1", "-1:2:1"] {
            assert!(alpha_grid(bad).is_err(), "{bad}");
        }
    }
}
