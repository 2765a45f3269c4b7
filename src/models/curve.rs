//! Exact α-curves of the size models (free search, Wurzel): T(n) as a step
//! function of α for every n up to a bound, by the recursion of
//! [`super::strategy_totals`] carried out piece by piece of the α-axis.

use super::{SizeModel, Split};
use crate::curve::envelope::envelope;
use crate::curve::steps::{Domain, Span, Steps, coalesce, constant, merge, restrict};
use crate::curve::{Point, Verification, Witness};
use crate::error::{Result, invalid};
use crate::search::outcome::Exact;
use crate::search::{TieBreak, TieRule};
use num_bigint::BigInt;
use std::sync::Arc;

/// The step function of T(n) = n·E(n) for one n, with the queries played.
#[derive(Clone, Debug)]
pub struct ModelCurve {
    pub name: String,
    pub size: u64,
    pub tie: TieBreak,
    pub domain: Domain,
    /// (span, exact total T(n), the splits played at n on that span).
    pub segments: Vec<(Span, Exact, Vec<String>)>,
    pub uncertified: u64,
    pub seconds: f64,
}

impl ModelCurve {
    /// The curve's report (as for the games' curves).
    pub fn report(&self, provenance: crate::output::Provenance) -> crate::curve::report::CurveReport {
        crate::curve::report::CurveReport::of_totals(
            format!("{} |C| = {}", self.name, self.size),
            match self.tie {
                TieBreak::Lex => TieRule::lex(),
                TieBreak::Mix => TieRule::mix(),
            },
            self.size,
            &self.domain,
            &self.segments,
            self.uncertified,
            provenance,
        )
    }
}

fn int(x: u64) -> Exact {
    Exact::from_integer(BigInt::from(x))
}

fn label(s: &Split) -> String {
    let runs: Vec<String> =
        s.runs().iter().map(|&(c, k)| if k == 1 { c.to_string() } else { format!("{c}×{k}") }).collect();
    format!("{{{}}}", runs.join(","))
}

/// The exact curve of T(`size`) for H_α with tie rule `tie` on `domain`.
/// MIX is exact only where the model lists every tied query: its α = 0 and
/// α = ∞ are left out of the domain ([`SizeModel::mix_exact`]). Its
/// `uncertified` counts this curve's events only ([`Verification`]).
pub fn model_curve<M: SizeModel>(
    model: &M,
    tie: TieBreak,
    size: u64,
    domain: &Domain,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
) -> Result<ModelCurve> {
    let verification = Verification::new();
    let mut curve = verification.within(|| walk_sizes(model, tie, size, domain, progress))?;
    curve.uncertified = verification.uncertified();
    Ok(curve)
}

/// [`model_curve`] with `uncertified` left 0 (its caller counts).
// Long: one walk over the pieces of the α-domain with its envelope, tie rule and the model's
//   recursion in one state
fn walk_sizes<M: SizeModel>(
    model: &M,
    tie: TieBreak,
    size: u64,
    domain: &Domain,
    progress: Option<&(dyn Fn(u64, u64) + Sync)>,
) -> Result<ModelCurve> {
    let start = std::time::Instant::now();
    if size < 2 {
        return Err(invalid(format!("size {size}: a curve needs at least 2 elements")));
    }
    let mut domain = domain.clone();
    if tie == TieBreak::Mix {
        for (end, closed) in [(&domain.lo, &mut domain.lo_closed), (&domain.hi, &mut domain.hi_closed)] {
            if end.alpha().is_some_and(|a| !model.mix_exact(a)) {
                *closed = false;
            }
        }
        if domain.is_point() && !domain.lo_closed {
            return Err(invalid(format!(
                "MIX at α = {} in the {} is not supported (use --tie lex)",
                domain.lo,
                model.name()
            )));
        }
    }
    let mut t: Vec<Steps<Exact>> = vec![constant(&domain, int(0)); 2];
    let mut candidates = Vec::new();
    let mut played = Vec::new();
    for n in 2..=size {
        model.candidates(n, &mut candidates);
        let mut splits: Vec<(Vec<u64>, Split)> =
            candidates.iter().map(|s| (s.expand(), *s)).filter(|(e, _)| e.len() >= 2).collect();
        splits.sort_by(|a, b| a.0.cmp(&b.0));
        splits.dedup_by(|a, b| a.0 == b.0);
        if splits.is_empty() {
            return Err(invalid(format!("the {} has no admissible query on {n} elements", model.name())));
        }
        let parts: Vec<Vec<u64>> = splits.iter().map(|s| s.0.clone()).collect();
        let witness = |below: usize, above: usize| {
            Arc::new(Witness::new(
                n,
                0,
                parts[below].clone(),
                parts[above].clone(),
                (
                    crate::curve::point::shared_label(&label(&splits[below].1)),
                    crate::curve::point::shared_label(&label(&splits[above].1)),
                ),
            ))
        };
        let mut runs: Vec<(Span, Span, Vec<usize>)> = Vec::new();
        for piece in envelope(&parts, &domain, &witness) {
            let chosen = if tie == TieBreak::Lex { piece.best[..1].to_vec() } else { piece.best.clone() };
            match runs.last_mut() {
                Some(run) if run.2 == chosen => run.1 = piece.span,
                _ => runs.push((piece.span.clone(), piece.span, chosen)),
            }
        }
        let mut steps: Steps<Exact> = Vec::new();
        let mut labels = Vec::new();
        for (first, last, chosen) in runs {
            let sub = Domain::of_run(&first, &last);
            let mut sums: Vec<Steps<Exact>> = Vec::new();
            for &c in &chosen {
                let classes: Vec<Steps<Exact>> =
                    splits[c].1.runs().iter().map(|&(s, k)| scaled(&restrict(&t[s as usize], &sub), k)).collect();
                let refs: Vec<&Steps<Exact>> = classes.iter().collect();
                sums.push(merge(&refs, |v| v.iter().fold(int(0), |a, x| a + *x)));
            }
            let refs: Vec<&Steps<Exact>> = sums.iter().collect();
            let k = int(chosen.len() as u64);
            let mut part = merge(&refs, |v| int(n) + v.iter().fold(int(0), |a, x| a + *x) / &k);
            if n == size {
                let names: Vec<String> = chosen.iter().map(|&c| label(&splits[c].1)).collect();
                labels.extend(std::iter::repeat_n(names, part.len()));
            }
            steps.append(&mut part);
        }
        if n == size {
            played = labels;
        }
        t.push(if n == size { steps } else { coalesce(steps) });
        if let Some(report) = progress {
            report(n, size);
        }
    }
    let last = t.pop().unwrap_or_default();
    let segments = coalesce(last.into_iter().zip(played).map(|((span, v), l)| (span, Keyed(v, l))).collect())
        .into_iter()
        .map(|(span, Keyed(v, l))| (span, v, l))
        .collect();
    Ok(ModelCurve {
        name: model.name(),
        size,
        tie,
        domain,
        segments,
        uncertified: 0,
        seconds: start.elapsed().as_secs_f64(),
    })
}

#[derive(PartialEq)]
struct Keyed(Exact, Vec<String>);

fn scaled(steps: &Steps<Exact>, k: u64) -> Steps<Exact> {
    steps.iter().map(|(s, v)| (s.clone(), v * int(k))).collect()
}

impl ModelCurve {
    /// The total at the exact point α.
    pub fn at(&self, alpha: crate::renyi::alpha::Alpha) -> Option<&Exact> {
        let p = Point::exact(alpha);
        self.segments.iter().find(|(s, _, _)| s.holds(&p)).map(|(_, v, _)| v)
    }
}
