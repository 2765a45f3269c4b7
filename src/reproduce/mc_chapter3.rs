//! Thesis ch. 3 (MC(∞) on S(1,2) with static and intelligent asymmetry ε),
//! the computable assertions of the reference note §3.3, recomputed exactly:
//! rationals for rational ε, Q(√5) at ε* = 2 − √5, scaled integers for the
//! long recurrences of Example 3.18.

use super::mc_report::Fact;
use crate::error::Result;
use crate::graph::scalar::{QSqrt5, Scalar, sqrt5};
use crate::two_player::nim::mc_asymmetric::{Model, Verdict, errors, first_wrong_heap, verdict, y_values};
use num_rational::BigRational;
use num_traits::One;

fn q(n: i64, d: i64) -> BigRational {
    BigRational::ratio(n, d)
}

fn fact(statement: impl Into<String>, published: impl Into<String>, ours: impl Into<String>, holds: bool) -> Fact {
    Fact { statement: statement.into(), published: published.into(), ours: ours.into(), holds }
}

fn show_heap(heap: Option<usize>, limit: usize) -> String {
    heap.map_or(format!("none ≤ {limit}"), |m| m.to_string())
}

fn first(model: Model, eps: &BigRational, limit: usize) -> String {
    match first_wrong_heap(model, eps, limit) {
        Some((m, Verdict::Tie)) => format!("{m} (tie)"),
        Some((m, _)) => m.to_string(),
        None => format!("none ≤ {limit}"),
    }
}

/// The chapter-3 facts, each with the published (or reference) value.
// Long: the list of chapter 3's statements, one block per statement in the thesis' order
pub fn facts() -> Result<Vec<Fact>> {
    let mut out = Vec::new();
    let y = y_values(Model::Static, &q(0, 1), 16);
    let (x12, x13) = (q(1, 2) + y[12].clone(), q(1, 2) + y[13].clone());
    let e0 = first_wrong_heap(Model::Static, &q(0, 1), 100);
    out.push(fact(
        "ε = 0 (Example 3.6, Fig. 3.1): x(12), x(13), first wrong heap",
        "1013/2048, 2025/4096, 14",
        format!("{x12}, {x13}, {}", first(Model::Static, &q(0, 1), 100)),
        x12 == q(1013, 2048) && x13 == q(2025, 4096) && e0 == Some((14, Verdict::Wrong)),
    ));
    let star = QSqrt5::ratio(2, 1) - sqrt5();
    let ys = y_values(Model::Static, &star, 90);
    let tie_relation = (0..29).all(|k| ys[3 * k + 3] == ys[3 * k + 2]);
    let ties: Vec<(usize, Verdict)> = (4..=90).filter(|m| m % 3 == 1).map(|m| (m, Verdict::Tie)).collect();
    let golden = (QSqrt5::one() + star.clone()) / (QSqrt5::one() - star.clone())
        == (sqrt5() - QSqrt5::one()) / QSqrt5::ratio(2, 1);
    out.push(fact(
        "static ε* = 2 − √5 (Example 3.7), exact in Q(√5), m ≤ 90: y(3k+3) = y(3k+2); MC(∞) ties at m ≡ 1 (mod 3), m ≥ 4, no error at m ≡ 2; (1+ε*)/(1−ε*) = (√5−1)/2",
        "ties at 4, 7, 10, …; golden section",
        format!(
            "y(3k+3) = y(3k+2) for k < 29: {tie_relation}; errors = ties at m ≡ 1: {}; golden: {golden}",
            errors(&ys) == ties
        ),
        tie_relation && errors(&ys) == ties && golden,
    ));
    let heap4 = (-20..=20).all(|n| {
        let eps = QSqrt5::ratio(n, 20);
        let v = verdict(&y_values(Model::Static, &eps, 4), 4);
        (v == Some(Verdict::Wrong)) == (eps < star)
    }) && verdict(&ys, 4) == Some(Verdict::Tie);
    out.push(fact(
        "static: heap 4 is an error iff ε < 2 − √5, a tie at ε* (l. 1761), ε on a 1/20 grid, compared exactly",
        "error iff ε² − 4ε − 1 > 0 (ε < 2 − √5)",
        format!("{heap4}"),
        heap4,
    ));
    let y1 = y_values(Model::Static, &q(1, 1), 120);
    let e1: Vec<usize> = errors(&y1).iter().map(|e| e.0).take(8).collect();
    out.push(fact(
        "static ε = 1: errors in m = 1..12 (ties 5, 7, 11; strict 8, 10), period 12",
        "5, 7, 8, 10, 11 (reference list: 17, 19, 20, 22, 23, 25, …)",
        format!(
            "{e1:?}…: heap 13 (≡ 1 mod 12) is a tie too, y(12) = y(11) = −½; heap 1 is none only because both moves win"
        ),
        e1[..5] == [5, 7, 8, 10, 11],
    ));
    // Decided by value: (10·ε, first wrong heap) against the reference's list.
    let static_expected: [(i64, usize); 10] =
        [(-3, 4), (-2, 74), (-1, 23), (0, 14), (1, 11), (2, 11), (3, 8), (5, 8), (7, 8), (9, 8)];
    let static_ours: Vec<(i64, Option<usize>)> = static_expected
        .iter()
        .map(|&(e, _)| (e, first_wrong_heap(Model::Static, &q(e, 10), 1000).map(|f| f.0)))
        .collect();
    let static_first: Vec<String> =
        static_ours.iter().map(|(e, f)| format!("{}: {}", *e as f64 / 10.0, show_heap(*f, 1000))).collect();
    out.push(fact(
        "static model, first wrong heap by ε (discussion l. 1744–1765)",
        "reference [R]: −0.3: 4, −0.2: 74, −0.1: 23, 0: 14, 0.1: 11, 0.2: 11, 0.3–0.9: 8",
        static_first.join(", "),
        static_ours.iter().zip(&static_expected).all(|(o, x)| o.1 == Some(x.1)),
    ));
    let y_neg = y_values(Model::Intelligent, &q(-1, 3), 90);
    let neg_ok = (1..=30).all(|k| y_neg[3 * k] == y_neg[3 * k - 1])
        && errors(&y_neg) == ties
        && (1..=30).all(|k| y_neg[3 * k] == q(-1, 2) / q(3i64.pow(k as u32), 1));
    out.push(fact(
        "intelligent ε = −1/3 (Satz 3.13.4, (3.17)): y(3k) = y(3k−1) = −½·3⁻ᵏ, MC(∞) errs with probability ½ at m ≡ 1 (mod 3), m ≥ 4",
        "exact ties",
        format!("{neg_ok} (k ≤ 30, exact rationals)"),
        neg_ok,
    ));
    let y_pos = y_values(Model::Intelligent, &q(1, 3), 90);
    let pos_ok = (0..=30).all(|k| y_pos[3 * k] == q(-(1 + k as i64), 2) / q(3i64.pow(k as u32), 1));
    out.push(fact("intelligent ε = 1/3, (3.17): y(3k) = −½(1+k)·3⁻ᵏ", "(3.17)", format!("{pos_ok} (k ≤ 30)"), pos_ok));
    let never: Vec<Option<usize>> = [q(1, 3), q(1, 2), q(1, 1)]
        .iter()
        .map(|e| first_wrong_heap(Model::Intelligent, e, 10_000).map(|f| f.0))
        .collect();
    out.push(fact(
        "intelligent ε ≥ 1/3 (Satz 3.13.1): no wrong move, ε = 1/3, 1/2, 1, m ≤ 10 000",
        "always optimal",
        never.iter().map(|f| show_heap(*f, 10_000)).collect::<Vec<_>>().join(", "),
        never.iter().all(Option::is_none),
    ));
    let always = [q(-1, 2), q(-1, 1)].iter().all(|e| {
        let y = y_values(Model::Intelligent, e, 600);
        errors(&y) == (4..=600).filter(|m| m % 3 == 1).map(|m| (m, Verdict::Wrong)).collect::<Vec<_>>()
    });
    out.push(fact(
        "intelligent ε < −1/3 (Satz 3.13.2–3): wrong exactly at m ≡ 1 (mod 3), m ≥ 4, never at m ≡ 2 (ε = −1/2, −1; m ≤ 600)",
        "always wrong at m ≡ 1",
        format!("{always}"),
        always,
    ));
    let intelligent_expected: [(i64, usize); 9] =
        [(-33, 71), (-30, 26), (-20, 17), (-10, 14), (0, 14), (10, 17), (20, 20), (30, 41), (33, 131)];
    let intelligent_ours: Vec<(i64, Option<usize>)> = intelligent_expected
        .iter()
        .map(|&(e, _)| (e, first_wrong_heap(Model::Intelligent, &q(e, 100), 1000).map(|f| f.0)))
        .collect();
    let intelligent_first: Vec<String> =
        intelligent_ours.iter().map(|(e, f)| format!("{}: {}", *e as f64 / 100.0, show_heap(*f, 1000))).collect();
    out.push(fact(
        "intelligent model, first wrong heap by ε (discussion l. 1766–1812)",
        "reference [R]: −0.33: 71, −0.3: 26, −0.2: 17, −0.1: 14, 0: 14, 0.1: 17, 0.2: 20, 0.3: 41, 0.33: 131",
        intelligent_first.join(", "),
        intelligent_ours.iter().zip(&intelligent_expected).all(|(o, x)| o.1 == Some(x.1)),
    ));
    let m_star: Vec<Option<usize>> = [100i64, 10_000, 1_000_000]
        .iter()
        .map(|&d| first_wrong_heap(Model::Intelligent, &(q(1, 3) - q(1, d)), 20_000).map(|f| f.0))
        .collect();
    out.push(fact(
        "Example 3.18: first wrong heap for ε = 1/3 − δ, δ = 10⁻², 10⁻⁴, 10⁻⁶ (l. 1869, from ref. [10]), exact",
        "74, 767, 7694",
        m_star.iter().map(|f| show_heap(*f, 20_000)).collect::<Vec<_>>().join(", "),
        m_star == [Some(74), Some(767), Some(7694)],
    ));
    let phi = std::f64::consts::PI - 7f64.sqrt().atan();
    let beat = 2.0 * std::f64::consts::PI / (2.0 * std::f64::consts::PI / 3.0 - phi);
    out.push(fact(
        "Example 3.17: beat period 2π/(2π/3 − φ), φ = π − arctan √7 (float formula)",
        "38.730 (l. 1826)",
        format!("{beat:.4}"),
        (beat - 38.730).abs() <= 5e-4,
    ));
    out.extend(super::mc_theorems::facts());
    Ok(out)
}
