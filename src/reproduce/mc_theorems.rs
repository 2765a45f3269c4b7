//! Thesis ch. 3, the statements beyond single values (reference note §3,
//! assertions 3.2, 3.8, 3.9, 3.16): Satz 3.15 (sign runs of y(3k)), Satz 3.16
//! (series of wrong moves), the double root at ε = 5 − √32 in Q(√2), and the
//! closed forms (3.5)–(3.7) against the recurrence (3.1).
//!
//! Everything that decides a statement is exact: signs and verdicts by scaled
//! integers for rational ε, Q(√2) at the double root, and (3.5) as the rational
//! identity y(m) = ((1+a)·v_m − u_m)/2 with λ₁^m = u_m + i·b·v_m (u, v rational,
//! b² rational). Only the trigonometric forms (3.6)/(3.7) are evaluated in f64,
//! as a numeric illustration with a stated bound, after their amplitude and phase
//! have been checked exactly.

use super::mc_report::{Fact, fact};
use crate::graph::mc_quadratic::QSqrt2;
use crate::graph::scalar::Scalar;
use crate::two_player::nim::mc_asymmetric::{Model, Verdict, doubled_take_one, errors, y_values};
use num_bigint::{BigInt, Sign};
use num_rational::BigRational;
use num_traits::{One, Zero};
use std::cmp::Ordering;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::new(n.into(), d.into())
}

/// Exact signs of y(0..=limit) and MC(∞)'s verdicts at heaps 0..=limit for a
/// rational ε, by the scaled integers Y(m) = 2·Dᵐ·y(m), D = 2q for ε = a/q:
/// Y(m) = −P_m·Y(m−1) − (D − P_m)·D·Y(m−2) with P_m = D·p_m (no gcds).
pub struct ExactRun {
    pub sign: Vec<Ordering>,
    /// `None` at heaps ≡ 0 (lost) and at heaps 0, 1.
    pub verdict: Vec<Option<Verdict>>,
}

pub fn exact_run(model: Model, eps: &BigRational, limit: usize) -> ExactRun {
    let (a, qd) = (eps.numer().clone(), eps.denom().clone());
    let d: BigInt = &qd * BigInt::from(2);
    let sign_of = |x: &BigInt| match x.sign() {
        Sign::Minus => Ordering::Less,
        Sign::NoSign => Ordering::Equal,
        Sign::Plus => Ordering::Greater,
    };
    let mut ys = vec![BigInt::from(-1), d.clone()];
    let mut sign = vec![Ordering::Less, Ordering::Greater];
    let mut verdict = vec![None, None];
    for m in 2..=limit {
        let (y1, y2) = (&ys[1], &ys[0]);
        verdict.push((m % 3 != 0).then(|| {
            // y(m−1) − y(m−2) ∝ Y(m−1) − D·Y(m−2); the winning move leaves ≡ 0.
            let diff = sign_of(&(y1 - &d * y2));
            let good_minus_bad = if m % 3 == 1 { diff } else { diff.reverse() };
            match good_minus_bad {
                Ordering::Less => Verdict::Right,
                Ordering::Equal => Verdict::Tie,
                Ordering::Greater => Verdict::Wrong,
            }
        }));
        let (c0, c1) = doubled_take_one(model, m);
        let p: BigInt = &qd * BigInt::from(c0) + &a * BigInt::from(c1);
        let next = -(&p * y1) - (&d - &p) * &d * y2;
        sign.push(sign_of(&next));
        ys = vec![ys[1].clone(), next];
    }
    sign.truncate(limit + 1);
    verdict.truncate(limit + 1);
    ExactRun { sign, verdict }
}

/// Maximal runs (first, last) of consecutive indices where `pred` holds.
fn runs(len: usize, pred: impl Fn(usize) -> bool) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    for i in (0..len).filter(|&i| pred(i)) {
        match out.last_mut() {
            Some(r) if r.1 + 1 == i => r.1 = i,
            _ => out.push((i, i)),
        }
    }
    out
}

/// Satz 3.15 for one ε with |ε| < 1/3: the sign runs of y(3k), k = 0..=k_max.
#[derive(Debug)]
pub struct SignRuns {
    /// (first k, last k) of each maximal run of equal sign.
    pub runs: Vec<(usize, usize)>,
    /// The shortest run other than the first and the last (which may be cut off).
    pub shortest_inner: Option<usize>,
    /// tan²φ = (7 − 62ε² − 9ε⁴)/(5 + 3ε²)², exactly; the proof needs < 1/3 = tan²(π/6).
    pub tan2_phi: BigRational,
    /// Whether some y(3k) is exactly 0 (a sign run of its own).
    pub zero: bool,
}

impl SignRuns {
    /// Runs ≥ 6 except the first, and tan²φ ≤ 7/25 < 1/3.
    pub fn holds(&self) -> bool {
        self.shortest_inner.is_some_and(|s| s >= 6) && !self.zero && self.tan2_phi <= q(7, 25)
    }
}

pub fn satz_3_15(eps: &BigRational, k_max: usize) -> SignRuns {
    let run = exact_run(Model::Intelligent, eps, 3 * k_max);
    let s: Vec<Ordering> = (0..=k_max).map(|k| run.sign[3 * k]).collect();
    let mut runs: Vec<(usize, usize)> = Vec::new();
    for k in 0..s.len() {
        match runs.last_mut() {
            Some(r) if s[r.0] == s[k] => r.1 = k,
            _ => runs.push((k, k)),
        }
    }
    let inner = if runs.len() > 2 { &runs[1..runs.len() - 1] } else { &[][..] };
    let e2 = eps * eps;
    let den = q(5, 1) + q(3, 1) * &e2;
    let tan2_phi = (q(7, 1) - q(62, 1) * &e2 - q(9, 1) * &e2 * &e2) / (&den * &den);
    SignRuns {
        shortest_inner: inner.iter().map(|r| r.1 - r.0 + 1).min(),
        runs,
        tan2_phi,
        zero: s.contains(&Ordering::Equal),
    }
}

/// Satz 3.16 for one ε with |ε| < 1/3, heaps ≤ `limit`.
#[derive(Debug)]
pub struct WrongSeries {
    /// Series of wrong (or tied) moves at heaps ≡ 2 (mod 3): (first heap, last heap).
    pub two: Vec<(usize, usize)>,
    /// The same at heaps ≡ 1 (mod 3), m ≥ 4.
    pub one: Vec<(usize, usize)>,
    /// Part 1: every complete ≡ 2 series, and every gap between two, has ≥ 6 heaps.
    pub part1: bool,
    /// Part 2: the heap 2 above the first of each ≡ 2 series is played right.
    pub part2: bool,
    /// Part 3: the heap 5 above the last of each complete ≡ 2 series is played wrong.
    pub part3: bool,
    /// Number of complete ≡ 2 series checked.
    pub complete: usize,
}

pub fn satz_3_16(eps: &BigRational, limit: usize) -> WrongSeries {
    let run = exact_run(Model::Intelligent, eps, limit + 5);
    let wrong = |m: usize| matches!(run.verdict[m], Some(Verdict::Wrong | Verdict::Tie));
    let series = |r: usize| -> Vec<(usize, usize)> {
        let kmax = (limit - r) / 3;
        runs(kmax + 1, |k| 3 * k + r >= 4 && wrong(3 * k + r))
            .into_iter()
            .map(|(a, b)| (3 * a + r, 3 * b + r))
            .collect()
    };
    let (two, one) = (series(2), series(1));
    // A series is complete when the heap after its last one (≤ limit) is right.
    let complete: Vec<(usize, usize)> = two.iter().copied().filter(|s| s.1 + 3 <= limit).collect();
    let long = complete.iter().all(|s| (s.1 - s.0) / 3 + 1 >= 6);
    // Between two series lie (first − last)/3 − 1 right heaps ≡ 2.
    let gaps = two.windows(2).all(|w| (w[1].0 - w[0].1) / 3 >= 7);
    let part2 = two.iter().all(|s| run.verdict[s.0 + 2] == Some(Verdict::Right));
    let part3 = complete.iter().all(|s| wrong(s.1 + 5));
    WrongSeries { part1: long && gaps && complete.len() >= 2, part2, part3, complete: complete.len(), two, one }
}

/// Assertion 3.2 in Q(√2): at ε = 5 − √32 the discriminant (5−ε)² − 32 is 0,
/// λ = 1 − √2 is the double root of λ² + (1−ε)/2·λ + (1+ε)/2, and
/// y(m) = (β₁ + β₂m)λᵐ with β₁ = −½, β₂ = −√2/2 equals (3.1) for m ≤ `upto`;
/// also the wrong-move heaps there (Lemma 3.4's pattern m ≡ 4, 5 mod 6).
pub struct DoubleRoot {
    pub discriminant_zero: bool,
    pub double_root: bool,
    pub closed_form: bool,
    pub errors_4_5_mod_6: bool,
}

pub fn double_root(upto: usize) -> DoubleRoot {
    let r2 = QSqrt2::root();
    let n = |k: i64| QSqrt2::ratio(k, 1);
    let eps = n(5) - n(4) * r2.clone();
    let disc = (n(5) - eps.clone()) * (n(5) - eps.clone()) - n(32);
    let lambda = n(1) - r2.clone();
    let poly =
        |l: QSqrt2| l.clone() * l.clone() + (n(1) - eps.clone()) / n(2) * l.clone() + (n(1) + eps.clone()) / n(2);
    // Double root: p(λ) = 0 and p'(λ) = 2λ + (1−ε)/2 = 0.
    let derivative = n(2) * lambda.clone() + (n(1) - eps.clone()) / n(2);
    let y = y_values(Model::Static, &eps, upto);
    let (b1, b2) = (QSqrt2::ratio(-1, 2), QSqrt2::zero() - r2 / n(2));
    let mut power = QSqrt2::one();
    let mut closed_form = true;
    for (m, ym) in y.iter().enumerate() {
        closed_form &= *ym == (b1.clone() + b2.clone() * n(m as i64)) * power.clone();
        power = power * lambda.clone();
    }
    let expected: Vec<(usize, Verdict)> =
        (4..=upto).filter(|m| m % 6 == 4 || m % 6 == 5).map(|m| (m, Verdict::Wrong)).collect();
    DoubleRoot {
        discriminant_zero: disc.is_zero(),
        double_root: poly(lambda).is_zero() && derivative.is_zero(),
        closed_form,
        errors_4_5_mod_6: errors(&y) == expected,
    }
}

/// Assertions 3.8/3.9 for one rational ε in (5 − √32, 1]: (3.5) exactly, the
/// amplitude of (3.6) exactly, and (3.6) in f64 against the exact recurrence.
#[derive(Debug)]
pub struct ClosedForm {
    /// y(m) = ((1+a)·v_m − u_m)/2 for m ≤ upto, with (a + i·b)^m = u_m + i·b·v_m.
    pub form_3_5: bool,
    /// (1+a)² + b² = 1 + ε, so (1+a)·sin x − b·cos x = −√(1+ε)·cos(x + φ₀), tan φ₀ = (1+a)/b.
    pub amplitude: bool,
    /// max over m ≤ upto of |(3.6) in f64 − exact x(m)|.
    pub float_gap: f64,
}

pub fn closed_form(eps: &BigRational, upto: usize) -> ClosedForm {
    let a = (eps - q(1, 1)) / q(4, 1);
    let five = q(5, 1) - eps;
    let b2 = (q(32, 1) - &five * &five) / q(16, 1);
    assert!(b2 > BigRational::zero(), "ε must lie above 5 − √32 (complex roots)");
    let y = y_values(Model::Static, eps, upto);
    let (mut u, mut v) = (BigRational::one(), BigRational::zero());
    let mut form_3_5 = true;
    for ym in &y {
        form_3_5 &= *ym == ((q(1, 1) + &a) * &v - &u) / q(2, 1);
        // (u + i·b·v)(a + i·b) = (u·a − b²·v) + i·b·(u + v·a).
        let next_u = &u * &a - &b2 * &v;
        v = &u + &v * &a;
        u = next_u;
    }
    let one_a = q(1, 1) + &a;
    let amplitude = &one_a * &one_a + &b2 == q(1, 1) + eps;
    let (e, af, bf) = (eps.to_f64(), a.to_f64(), b2.to_f64().sqrt());
    let (r, phi, phi0) = (((1.0 + e) / 2.0).sqrt(), bf.atan2(af), ((1.0 + af) / bf).atan());
    let float_gap = y
        .iter()
        .enumerate()
        .map(|(m, ym)| {
            let x = 0.5 - (1.0 + e).sqrt() / (2.0 * bf) * r.powi(m as i32) * (m as f64 * phi + phi0).cos();
            (x - (0.5 + ym.to_f64())).abs()
        })
        .fold(0.0, f64::max);
    ClosedForm { form_3_5, amplitude, float_gap }
}

/// Assertion 3.9, (3.7) at ε = 0: exactly, tan φ = −√7 with a < 0 < b (so
/// φ = π − arctan √7), amplitude 1 and tan of the phase = √7/3; then (3.7) in
/// f64 against the exact x(m), m ≤ upto: the largest gap.
pub fn formula_3_7(upto: usize) -> (bool, f64) {
    let (a, b2) = (q(-1, 4), q(7, 16));
    let exact = &b2 / (&a * &a) == q(7, 1)
        && (q(1, 1) + &a) * (q(1, 1) + &a) + &b2 == q(1, 1)
        && &b2 / ((q(1, 1) + &a) * (q(1, 1) + &a)) == q(7, 9);
    let y = y_values(Model::Static, &q(0, 1), upto);
    let s7 = 7f64.sqrt();
    let gap = y
        .iter()
        .enumerate()
        .map(|(m, ym)| {
            let m = m as f64;
            let x = 0.5
                + 2f64.powf(1.0 - m / 2.0) / s7 * (m * (std::f64::consts::PI - s7.atan()) - (s7 / 3.0).atan()).sin();
            (x - (0.5 + ym.to_f64())).abs()
        })
        .fold(0.0, f64::max);
    (exact && closed_form(&q(0, 1), upto).form_3_5, gap)
}

/// The ε of the checks of Satz 3.15/3.16: twelve rationals in (−1/3, 1/3).
pub const SERIES_EPS: [(i64, i64); 12] =
    [(-33, 100), (-3, 10), (-2, 7), (-1, 5), (-1, 10), (0, 1), (1, 7), (1, 10), (1, 5), (8, 25), (3, 10), (33, 100)];

/// The statements above as facts for `reproduce mc-agents`.
pub fn facts() -> Vec<Fact> {
    let mut out = Vec::new();
    let d = double_root(120);
    out.push(fact(
        "static ε = 5 − √32 (assertion 3.2, (3.2)/(3.4)), exact in Q(√2): (5−ε)² − 32 = 0, λ = 1 − √2 is a double root, \
y(m) = (−½ − (√2/2)·m)·λᵐ equals (3.1) for m ≤ 120, and MC(∞) errs exactly at m ≡ 4, 5 (mod 6) (Lemma 3.4 at the endpoint)",
        "double root λ = 1 − √2, β₁ = −½, β₂ = −√2/2 (OCR \"\\f\"); errors at 4, 5, 10, 11, …",
        format!(
            "discriminant 0: {}; double root: {}; closed form = recurrence: {}; errors at m ≡ 4, 5 (mod 6), all strict: {}",
            d.discriminant_zero, d.double_root, d.closed_form, d.errors_4_5_mod_6
        ),
        d.discriminant_zero && d.double_root && d.closed_form && d.errors_4_5_mod_6,
    ));
    let grid = [(-3, 5), (-1, 2), (-1, 5), (0, 1), (3, 10), (9, 10), (1, 1)];
    let forms: Vec<ClosedForm> = grid.iter().map(|&(n, d)| closed_form(&q(n, d), 60)).collect();
    let exact = forms.iter().all(|f| f.form_3_5 && f.amplitude);
    let gap = forms.iter().map(|f| f.float_gap).fold(0.0, f64::max);
    out.push(fact(
        "static, Lemma 3.5 (assertion 3.8), ε = −3/5, −1/2, −1/5, 0, 3/10, 9/10, 1, m ≤ 60: (3.5) y(m) = ((1+a)·v_m − u_m)/2 \
with λ₁ᵐ = u_m + i·b·v_m exactly; (1+a)² + b² = 1 + ε exactly (the amplitude √(1+ε) of (3.6)); (3.6) in f64 against the exact x(m)",
        "(3.6) equals (3.1), tolerance 1e-12",
        format!("exact: {exact}; largest |(3.6) − x(m)| in f64: {gap:.1e}"),
        exact && gap <= 1e-12,
    ));
    let (exact7, gap7) = formula_3_7(60);
    out.push(fact(
        "ε = 0, formula (3.7) (assertion 3.9), m ≤ 60: exactly tan φ = −√7 with a < 0 < b (φ = π − arctan √7), amplitude 1, \
tan of the phase √7/3, and (3.5); then (3.7) in f64 against the exact x(m)",
        "(3.7) equals (3.1), tolerance 1e-12",
        format!("exact: {exact7}; largest |(3.7) − x(m)| in f64: {gap7:.1e}"),
        exact7 && gap7 <= 1e-12,
    ));
    let runs: Vec<SignRuns> = SERIES_EPS.iter().map(|&(n, d)| satz_3_15(&q(n, d), 1000)).collect();
    let shortest = runs.iter().filter_map(|r| r.shortest_inner).min();
    let count: usize = runs.iter().map(|r| r.runs.len()).sum();
    let max_tan2 = runs.iter().map(|r| r.tan2_phi.clone()).max().expect("twelve ε");
    out.push(fact(
        "Satz 3.15, intelligent |ε| < 1/3: the signs of y(3k) come in runs of ≥ 6 equal signs, apart from the first \
(12 rational ε in (−1/3, 1/3), k ≤ 1000, exact integer signs); proof step tan²φ ≤ 7/25 < 1/3 = tan²(π/6) exactly",
        "runs ≥ 6 except the first; φ ≤ arctan(√7/5) ≈ 0.48669 < π/6",
        format!(
            "{count} runs; shortest run other than the first and the (cut-off) last: {}; largest tan²φ = {max_tan2}",
            shortest.map_or("none".into(), |s| s.to_string())
        ),
        runs.iter().all(SignRuns::holds),
    ));
    let series: Vec<WrongSeries> = SERIES_EPS.iter().map(|&(n, d)| satz_3_16(&q(n, d), 3000)).collect();
    let complete: usize = series.iter().map(|s| s.complete).sum();
    let (p1, p2, p3) = (series.iter().all(|s| s.part1), series.iter().all(|s| s.part2), series.iter().all(|s| s.part3));
    out.push(fact(
        "Satz 3.16, intelligent −1/3 < ε < 1/3, the same 12 ε, heaps ≤ 3000: (1) wrong moves at m ≡ 2 (mod 3) come in \
series (every complete series and every gap ≥ 6 heaps); (2) after the first wrong move 3k+2 of a series, 3k+4 is right; \
(3) after the last, 3k+7 is wrong",
        "parts 1–3 (reference: checked for 12 ε, m ≤ 3000)",
        format!("{complete} complete series; part 1: {p1}, part 2: {p2}, part 3: {p3}"),
        p1 && p2 && p3,
    ));
    let zero = &series[5];
    let (two, one) = (&zero.two[..2.min(zero.two.len())], &zero.one[..2.min(zero.one.len())]);
    out.push(fact(
        "Satz 3.16 example, ε = 0: the first two series of wrong moves at m ≡ 2 and at m ≡ 1 (mod 3)",
        "≡ 2: 14–32, 53–71; ≡ 1: 22–37, 61–76 (reference)",
        format!("≡ 2: {two:?}; ≡ 1: {one:?}"),
        two == [(14, 32), (53, 71)] && one == [(22, 37), (61, 76)],
    ));
    let (plus, minus) = (&series[10].one, &series[1].one);
    out.push(fact(
        "intelligent model: the series at m ≡ 1 (mod 3) are the same for ε = 0.3 and −0.3 (heaps ≤ 3000)",
        "identical, (46–85), (133–172), … (reference [R])",
        format!("equal: {}; first two: {:?}", plus == minus, &plus[..2.min(plus.len())]),
        plus == minus && plus.len() >= 2 && plus[..2] == [(46, 85), (133, 172)],
    ));
    out
}
