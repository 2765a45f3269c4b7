//! Thesis ch. 3: MC(∞) on S(1,2) with static and "intelligent" asymmetric
//! random play, exactly (reference note ../shared/reference/seed002-ch1235.md §3, assertions
//! 3.1–3.19). Ties are decided in exact arithmetic: rationals, and Q(√5) at
//! ε* = 2 − √5; never by float equality.

use num_rational::BigRational;
use renyi_search::graph::explicit::ExplicitGraph;
use renyi_search::graph::mc_select::select_infinity;
use renyi_search::graph::scalar::{QSqrt5, Scalar, sqrt5};
use renyi_search::graph::stochastic::{candidate_values, layers, play_values};
use renyi_search::two_player::nim::mc_asymmetric::{Model, Verdict, errors, first_wrong_heap, take_one, y_values};
use renyi_search::two_player::nim::mc_games::{McState, subtraction};

fn q(n: i64, d: i64) -> BigRational {
    BigRational::ratio(n, d)
}

/// The same values by the general solver: S(1,2) as a game graph, the random
/// games as a stochastic policy (move "take 1" first in each successor list).
fn graph_check(model: Model, eps: &BigRational, upto: usize) {
    let game = subtraction(1, 2, upto as i64).unwrap();
    let g: &ExplicitGraph<McState> = &game.graph;
    let lay = layers(g).unwrap();
    let heap = |v: usize| match g.state(v) {
        McState::Heap(z) => *z as usize,
        _ => 0,
    };
    let x = play_values(g, &lay, |v| {
        let p = take_one(model, eps, heap(v));
        vec![p.clone(), BigRational::one() - p]
    });
    let y = y_values(model, eps, upto);
    for m in 1..=upto {
        let v = g.index_of(&McState::Heap(m as u32)).unwrap();
        assert_eq!(x[v].clone().unwrap(), q(1, 2) + y[m].clone(), "x({m})");
        // MC(∞) on the graph's candidate values chooses as the recurrence says.
        let pick = select_infinity(&candidate_values(g, &x, v));
        let wins_by_one = heap(g.successors(v)[0] as usize) % 3 == 0;
        let expected = renyi_search::two_player::nim::mc_asymmetric::verdict(&y, m);
        let got = match (m % 3, pick[0].clone(), pick[1].clone()) {
            (0, _, _) => None,
            _ if m < 2 => None,
            (_, a, b) if a == b => Some(Verdict::Tie),
            (_, a, _) if (a > BigRational::zero()) == wins_by_one || m == 2 && a == BigRational::zero() => {
                Some(Verdict::Right)
            }
            _ => Some(Verdict::Wrong),
        };
        assert_eq!(got, expected, "heap {m}");
    }
}

use num_traits::{One, Zero};

#[test]
fn static_epsilon_zero_and_the_first_error_at_14() {
    // Assertion 3.1: x(12) = 1013/2048, x(13) = 2025/4096, first wrong heap 14.
    let y = y_values(Model::Static, &q(0, 1), 16);
    assert_eq!(q(1, 2) + y[12].clone(), q(1013, 2048));
    assert_eq!(q(1, 2) + y[13].clone(), q(2025, 4096));
    assert_eq!(errors(&y)[0], (14, Verdict::Wrong));
    assert_eq!(first_wrong_heap(Model::Static, &q(0, 1), 100), Some((14, Verdict::Wrong)));
    // The recurrence equals the general solver with a weighted random policy.
    graph_check(Model::Static, &q(0, 1), 40);
    graph_check(Model::Static, &q(-2, 7), 40);
    graph_check(Model::Intelligent, &q(3, 10), 40);
    graph_check(Model::Intelligent, &q(-1, 3), 40);
}

#[test]
fn static_model_error_patterns() {
    // Assertion 3.3: for ε ∈ (−1, 5−√32], errors exactly at m ≡ 4, 5 (mod 6), m ≥ 4.
    for eps in [q(-4, 5), q(-9, 10), q(-2, 3)] {
        let y = y_values(Model::Static, &eps, 300);
        let heaps: Vec<usize> = errors(&y).iter().map(|e| e.0).collect();
        let expected: Vec<usize> = (4..=300).filter(|m| m % 6 == 4 || m % 6 == 5).collect();
        assert_eq!(heaps, expected, "ε = {eps}");
        assert!(errors(&y).iter().all(|e| e.1 == Verdict::Wrong));
    }
    // Assertion 3.6: ε = 1: y has period (−½, ½, ½, −½); strict errors at 8, 10,
    // ties at 5, 7, 11, period 12. Heap 1 is no error only because both moves win
    // there: from heap 13 on, m ≡ 1 (mod 12) is a tie too (y(12) = y(11) = −½), in
    // line with the reference's list "17, 19, 20, 22, 23, 25, …".
    let y = y_values(Model::Static, &q(1, 1), 120);
    for m in 0..=120 {
        assert_eq!(y[m], [q(-1, 2), q(1, 2), q(1, 2), q(-1, 2)][m % 4]);
    }
    let e = errors(&y);
    for &(m, v) in &e {
        let first = match (m - 1) % 12 + 1 {
            8 | 10 => Verdict::Wrong,
            1 | 5 | 7 | 11 => Verdict::Tie,
            r => panic!("unexpected error at heap {m} (≡ {r})"),
        };
        assert_eq!(v, first, "heap {m}");
    }
    assert_eq!(e.len(), 10 * 6 - 1);
    assert_eq!(e[..6].iter().map(|e| e.0).collect::<Vec<_>>(), [5, 7, 8, 10, 11, 13]);
    // First error heaps of the static model [R]: ε = −0.3 → 4, −0.2 → 74,
    // −0.1 → 23, 0 → 14, 0.1 and 0.2 → 11, 0.3 … 0.99 → 8.
    for (eps, heap) in [(-3, 4), (-2, 74), (-1, 23), (0, 14), (1, 11), (2, 11), (3, 8), (5, 8), (9, 8)] {
        assert_eq!(first_wrong_heap(Model::Static, &q(eps, 10), 1000).map(|e| e.0), Some(heap), "ε = {eps}/10");
    }
    assert_eq!(first_wrong_heap(Model::Static, &q(99, 100), 1000).map(|e| e.0), Some(8));
}

fn eps_star() -> QSqrt5 {
    QSqrt5::ratio(2, 1) - sqrt5()
}

#[test]
fn critical_epsilon_two_minus_sqrt5_ties_exactly() {
    let e = eps_star();
    let y = y_values(Model::Static, &e, 60);
    // Assertion 3.4/3.5: y(3k+1) = −y(3k), y(3k+2) = −(√5−2)·y(3k+1), y(3k+3) = y(3k+2).
    for k in 0..19 {
        assert_eq!(y[3 * k + 1], QSqrt5::zero() - y[3 * k].clone(), "k {k}");
        assert_eq!(y[3 * k + 2], QSqrt5::zero() - (sqrt5() - QSqrt5::ratio(2, 1)) * y[3 * k + 1].clone());
        assert_eq!(y[3 * k + 3], y[3 * k + 2]);
    }
    // MC(∞) ties at every m ≡ 1 (mod 3), m ≥ 4, and never errs at m ≡ 2.
    let expected: Vec<(usize, Verdict)> = (4..=60).filter(|m| m % 3 == 1).map(|m| (m, Verdict::Tie)).collect();
    assert_eq!(errors(&y), expected);
    // Assertion 3.19: (1+ε*)/(1−ε*) = (√5−1)/2 (the golden section).
    let ratio = (QSqrt5::one() + e.clone()) / (QSqrt5::one() - e.clone());
    assert_eq!(ratio, (sqrt5() - QSqrt5::one()) / QSqrt5::ratio(2, 1));
    // Assertion 3.7: heap 4 is an error iff ε < 2 − √5 (exact comparison in Q(√5)).
    for n in -10..=10 {
        let eps = QSqrt5::ratio(n, 10);
        let y = y_values(Model::Static, &eps, 4);
        let v = renyi_search::two_player::nim::mc_asymmetric::verdict(&y, 4).unwrap();
        assert_eq!(v == Verdict::Wrong, eps < e, "ε = {n}/10");
    }
    let y = y_values(Model::Static, &e, 4);
    assert_eq!(renyi_search::two_player::nim::mc_asymmetric::verdict(&y, 4), Some(Verdict::Tie));
}

#[test]
fn intelligent_model_identities_and_exact_cases() {
    // Assertion 3.10: start values and the 3-step recurrence (3.11).
    for eps in [q(0, 1), q(1, 5), q(-3, 7), q(2, 3), q(-1, 1)] {
        let y = y_values(Model::Intelligent, &eps, 60);
        let e = eps.clone();
        let one = BigRational::one();
        assert_eq!(y[2], e.clone() / q(2, 1));
        assert_eq!(y[3], q(-1, 4) * (one.clone() + e.clone()));
        assert_eq!(y[4], (one.clone() + q(3, 1) * e.clone() * e.clone()) / q(8, 1));
        let e2 = e.clone() * e.clone();
        assert_eq!(
            y[5],
            (one.clone() + q(5, 1) * e.clone() - e2.clone() + q(3, 1) * e2.clone() * e.clone()) / q(16, 1)
        );
        for m in 0..=54 {
            let rhs = ((q(5, 1) + q(3, 1) * e2.clone()) * y[m + 3].clone() - (one.clone() - e2.clone()) * y[m].clone())
                / q(8, 1);
            assert_eq!(y[m + 6], rhs, "(3.11) at m {m}, ε {eps}");
        }
        // Assertion 3.11: (3.13) and (3.15), where 1 + ε ≠ 0.
        if eps != q(-1, 1) {
            for k in 1..=19 {
                let (a, b, c) = (y[3 * k].clone(), y[3 * k + 1].clone(), y[3 * k + 3].clone());
                assert_eq!(a.clone() - b, q(4, 1) / (one.clone() + e.clone()) * c, "(3.13) k {k}");
                let lhs = y[3 * k].clone() - y[3 * k - 1].clone();
                let rhs = (q(3, 1) * e.clone() - one.clone()) / (one.clone() + e.clone()) * y[3 * k].clone()
                    + y[3 * k - 3].clone();
                assert_eq!(lhs, rhs, "(3.15) k {k}");
            }
        }
    }
    // Assertion 3.14: ε = −1/3: y(3k) = y(3k−1) exactly and y(3k) = −½·3^−k; 50 % errors at m ≡ 1, m ≥ 4.
    let y = y_values(Model::Intelligent, &q(-1, 3), 90);
    let mut third = q(1, 1);
    for k in 1..=30 {
        third /= q(3, 1);
        assert_eq!(y[3 * k], y[3 * k - 1]);
        assert_eq!(y[3 * k], q(-1, 2) * third.clone());
    }
    let ties: Vec<(usize, Verdict)> = (4..=90).filter(|m| m % 3 == 1).map(|m| (m, Verdict::Tie)).collect();
    assert_eq!(errors(&y), ties);
    // Assertion 3.15: ε = 1/3: y(3k) = −½(1+k)·3^−k.
    let y = y_values(Model::Intelligent, &q(1, 3), 90);
    let mut third = q(1, 1);
    for k in 0..=30 {
        assert_eq!(y[3 * k], q(-1, 2) * q(1 + k as i64, 1) * third.clone());
        third /= q(3, 1);
    }
}

#[test]
fn intelligent_model_error_ranges() {
    // Assertion 3.12: ε ≥ 1/3 never errs (m ≤ 10⁴).
    for eps in [q(1, 3), q(1, 2), q(1, 1)] {
        assert_eq!(first_wrong_heap(Model::Intelligent, &eps, 10_000), None, "ε = {eps}");
    }
    // Assertion 3.13: ε < −1/3 errs exactly at m ≡ 1 (mod 3), m ≥ 4, never at ≡ 2.
    for eps in [q(-1, 2), q(-1, 1), q(-9, 10)] {
        let y = y_values(Model::Intelligent, &eps, 600);
        let wrong: Vec<(usize, Verdict)> = (4..=600).filter(|m| m % 3 == 1).map(|m| (m, Verdict::Wrong)).collect();
        assert_eq!(errors(&y), wrong, "ε = {eps}");
    }
    // First error heaps of the intelligent model [R].
    for (eps, heap) in [(-33, 71), (-30, 26), (-20, 17), (-10, 14), (0, 14), (10, 17), (20, 20), (30, 41), (33, 131)] {
        assert_eq!(first_wrong_heap(Model::Intelligent, &q(eps, 100), 1000).map(|e| e.0), Some(heap), "ε = {eps}/100");
    }
    // Assertion 3.18 (Example 3.18, values of ref. [10]): ε = 1/3 − δ, first wrong heap
    // 74, 767, 7694 for δ = 10⁻², 10⁻⁴, 10⁻⁶.
    for (delta, heap) in [(100, 74), (10_000, 767), (1_000_000, 7694)] {
        let eps = q(1, 3) - q(1, delta);
        assert_eq!(first_wrong_heap(Model::Intelligent, &eps, 20_000).map(|e| e.0), Some(heap), "δ = 1/{delta}");
    }
}

mod theorems {
    use super::q;
    use renyi_search::reproduce::mc_theorems::{
        SERIES_EPS, closed_form, double_root, exact_run, formula_3_7, satz_3_15, satz_3_16,
    };
    use renyi_search::two_player::nim::mc_asymmetric::{Model, Verdict, verdict, y_values};

    #[test]
    fn scaled_integer_run_equals_the_rational_recurrence() {
        for model in [Model::Static, Model::Intelligent] {
            for (n, d) in [(0, 1), (-1, 3), (2, 7), (-33, 100), (1, 1)] {
                let eps = q(n, d);
                let y = y_values(model, &eps, 150);
                let run = exact_run(model, &eps, 150);
                for m in 0..=150 {
                    assert_eq!(run.sign[m], y[m].partial_cmp(&q(0, 1)).unwrap(), "{model:?} ε {eps} m {m}");
                    assert_eq!(run.verdict[m], verdict(&y, m), "{model:?} ε {eps} m {m}");
                }
            }
        }
        // ε = −1/3 (intelligent): exact ties at m ≡ 1 (mod 3) from 4 on.
        let run = exact_run(Model::Intelligent, &q(-1, 3), 30);
        assert_eq!(run.verdict[4], Some(Verdict::Tie));
        assert_eq!(run.verdict[5], Some(Verdict::Right));
    }

    #[test]
    fn double_root_at_five_minus_sqrt32_in_q_sqrt2() {
        // Assertion 3.2: discriminant 0, λ = 1 − √2 double, β₁ = −½, β₂ = −√2/2; errors at m ≡ 4, 5 (mod 6).
        let d = double_root(120);
        assert!(d.discriminant_zero && d.double_root && d.closed_form && d.errors_4_5_mod_6);
    }

    #[test]
    fn closed_forms_3_5_to_3_7_against_the_recurrence() {
        // Assertion 3.8: (3.5) exactly and (3.6) within 1e-12, ε ∈ (5 − √32, 1].
        for (n, d) in [(-3, 5), (-1, 2), (-1, 5), (0, 1), (3, 10), (9, 10), (1, 1)] {
            let f = closed_form(&q(n, d), 60);
            assert!(f.form_3_5 && f.amplitude, "ε = {n}/{d}");
            assert!(f.float_gap <= 1e-12, "ε = {n}/{d}: {}", f.float_gap);
        }
        // Assertion 3.9: (3.7) at ε = 0.
        let (exact, gap) = formula_3_7(60);
        assert!(exact && gap <= 1e-12, "{gap}");
    }

    #[test]
    fn satz_3_15_sign_runs_of_y_3k() {
        for &(n, d) in &SERIES_EPS {
            let r = satz_3_15(&q(n, d), 1000);
            assert!(r.holds(), "ε = {n}/{d}: {r:?}");
            assert!(r.runs.len() >= 4, "ε = {n}/{d}");
            // The first run starts at y(0) = −½ < 0.
            assert_eq!(r.runs[0].0, 0);
        }
        // tan²φ at ε = 0 is exactly 7/25 (φ = arctan(√7/5)), the maximum over |ε| < 1/3.
        assert_eq!(satz_3_15(&q(0, 1), 10).tan2_phi, q(7, 25));
        assert!(satz_3_15(&q(1, 5), 10).tan2_phi < q(7, 25));
    }

    #[test]
    fn satz_3_16_series_of_wrong_moves() {
        for &(n, d) in &SERIES_EPS {
            let s = satz_3_16(&q(n, d), 3000);
            assert!(s.part1 && s.part2 && s.part3, "ε = {n}/{d}: {} complete series", s.complete);
            assert!(s.complete >= 2);
        }
        // ε = 0: ≡ 2 series 14–32, 53–71; ≡ 1 series 22–37, 61–76 (reference note §3.2).
        let s = satz_3_16(&q(0, 1), 3000);
        assert_eq!(s.two[..2], [(14, 32), (53, 71)]);
        assert_eq!(s.one[..2], [(22, 37), (61, 76)]);
        // The ≡ 1 series are symmetric in ε: ±0.3 give (46–85), (133–172), ….
        let (plus, minus) = (satz_3_16(&q(3, 10), 3000), satz_3_16(&q(-3, 10), 3000));
        assert_eq!(plus.one, minus.one);
        assert_eq!(plus.one[..2], [(46, 85), (133, 172)]);
    }
}
