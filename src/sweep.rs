//! α-sweeps: the same game analysed for a grid of Rényi orders (thesis Fig. 4.6,
//! Table 4.18).

use crate::error::{Result, invalid};
use crate::renyi::alpha::Alpha;
use crate::search::{Analysis, RunOptions, SearchProblem, Strategy, TieRule, analyze};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
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
    // Exact big rationals: u64 ratios would wrap silently on huge ranges
    // (2^64 points came out as none) or on steps with large denominators.
    let rational = |s: &str| -> Result<BigRational> {
        match s.parse::<Alpha>()? {
            Alpha::Finite { num, den } => Ok(BigRational::new(num.into(), den.into())),
            Alpha::Infinity => Err(invalid(format!("α range {spec:?}: ends and step must be finite"))),
        }
    };
    let (from, to, step) = (rational(parts[0])?, rational(parts[1])?, rational(parts[2])?);
    if step.is_zero() {
        return Err(invalid(format!("α range {spec:?}: the step must be positive")));
    }
    if to < from {
        return Err(invalid(format!("α range {spec:?}: the range is reversed (from > to)")));
    }
    let count = ((&to - &from) / &step).floor().to_integer() + BigInt::one();
    if count > BigInt::from(MAX_POINTS) {
        return Err(invalid(format!("α range {spec:?} has {count} points; at most {MAX_POINTS} are allowed")));
    }
    let count = u64::try_from(count).expect("at most MAX_POINTS");
    (0..count)
        .map(|k| {
            let a = &from + &step * BigInt::from(k);
            match (u64::try_from(a.numer()), u64::try_from(a.denom())) {
                (Ok(num), Ok(den)) => Alpha::ratio(num, den),
                _ => {
                    Err(invalid(format!("α range {spec:?}: the point {a} has a numerator or denominator beyond 2^64")))
                }
            }
        })
        .collect()
}

/// The most points an α range may have.
const MAX_POINTS: u64 = 100_000;

/// Analyses `problem` for every α of the grid (in parallel), in grid order.
pub fn sweep<P: SearchProblem>(problem: &P, alphas: &[Alpha], tie: TieRule) -> Vec<Analysis> {
    alphas.par_iter().map(|&alpha| analyze(problem, Strategy::new(alpha, tie), RunOptions::default())).collect()
}

/// CSV of a sweep: one row per α (exact α, its value, total, mean, max depth,
/// first queries).
pub fn sweep_csv(points: &[Analysis]) -> Result<String> {
    crate::output::csv_text(
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

    /// Ranges whose point count or points do not fit u64 arithmetic are
    /// refused, never wrapped: 2^64 points once gave an empty sweep.
    #[test]
    fn huge_ranges_are_refused_not_wrapped() {
        for (spec, needle) in [
            ("0:18446744073709551615:1", "has 18446744073709551616 points"),
            ("0:18446744073709551614:1", "has 18446744073709551615 points"),
            ("0:100000:1", "has 100001 points"),
        ] {
            let message = alpha_grid(spec).unwrap_err().to_string();
            assert!(message.contains(needle), "{spec}: {message}");
        }
        assert_eq!(alpha_grid("0:99999:1").unwrap().len(), 100_000);
        // Steps with large denominators: every point is exact.
        let g = alpha_grid("1/3:1/2:1/18446744073709551615").map(|g| g.len());
        assert!(g.is_err(), "{g:?}");
        let g = alpha_grid("1/3:2/3:1/6").unwrap();
        assert_eq!(g, vec![Alpha::ratio(1, 3).unwrap(), Alpha::ratio(1, 2).unwrap(), Alpha::ratio(2, 3).unwrap()]);
    }
}
