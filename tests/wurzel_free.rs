//! Free search problems and the Wurzel model (../shared/reference/seed002-ch4.md §1.4–1.7, §6.2–6.3:
//! B5–B13, C8–C11).

use num_rational::BigRational;
use renyi_search::models::free::{FreeSearch, perfect_total_closed, perfect_totals_recursive};
use renyi_search::models::wurzel::{Wurzel, binary_strategy_totals, budget, perfect_totals};
use renyi_search::models::{SizeModel, strategy_totals};
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::{Strategy, TieRule};

fn ratio(t: u64, m: u64) -> BigRational {
    BigRational::new(t.into(), m.into())
}

fn frac(s: &str) -> BigRational {
    let (n, d) = s.split_once('/').unwrap_or((s, "1"));
    BigRational::new(n.parse::<i64>().unwrap().into(), d.parse::<i64>().unwrap().into())
}

fn lex(alpha: &str, model: &impl SizeModel, upto: u64) -> Vec<String> {
    strategy_totals(model, Strategy::new(alpha.parse().unwrap(), TieRule::lex()), upto)
        .unwrap()
        .iter()
        .map(|x| x.to_string())
        .collect()
}

#[test]
fn b5_binary_closed_form_and_recursion() {
    let rec = perfect_totals_recursive(2, 1000);
    for m in 1..=1000u64 {
        let k = if m > 1 { 64 - (m - 1).leading_zeros() as u64 } else { 0 };
        let closed = m * (k + 1) - (1 << k);
        assert_eq!(rec[m as usize], if m == 1 { 0 } else { closed }, "m = {m}");
    }
    let expected = [
        (1, "0"),
        (2, "1"),
        (3, "5/3"),
        (5, "12/5"),
        (6, "8/3"),
        (7, "20/7"),
        (10, "17/5"),
        (100, "168/25"),
        (1000, "1247/125"),
    ];
    for (m, e) in expected {
        assert_eq!(ratio(rec[m as usize], m), frac(e), "E({m})");
    }
}

/// B6: the recursion against brute force over all partitions with at most a parts.
#[test]
fn b6_recursion_equals_brute_force() {
    fn parts(n: u64, k: u64, max: u64, out: &mut Vec<Vec<u64>>, cur: &mut Vec<u64>) {
        if n == 0 {
            out.push(cur.clone());
            return;
        }
        if k == 0 {
            return;
        }
        for p in (1..=n.min(max)).rev() {
            cur.push(p);
            parts(n - p, k - 1, p, out, cur);
            cur.pop();
        }
    }
    for a in [2u64, 3, 4, 10] {
        let rec = perfect_totals_recursive(a, 30);
        let mut brute = vec![0u64; 31];
        for m in 2..=30u64 {
            let mut all = Vec::new();
            parts(m, a, m - 1, &mut all, &mut Vec::new());
            brute[m as usize] =
                all.iter().map(|p| m + p.iter().map(|&x| brute[x as usize]).sum::<u64>()).min().unwrap();
        }
        assert_eq!(rec, brute, "a = {a}");
    }
}

/// B7 and the closed form of the a-ary Huffman tree against the recursion.
#[test]
fn b7_perfect_values_and_closed_form() {
    let cases3 = [(4, "3/2"), (5, "8/5"), (9, "2"), (10, "11/5"), (27, "3"), (28, "43/14"), (100, "429/100")];
    let cases10 = [(11, "13/11"), (20, "8/5"), (50, "19/10"), (99, "2"), (101, "204/101"), (1000, "3")];
    for (a, cases) in [(3u64, &cases3[..]), (10, &cases10[..])] {
        let rec = perfect_totals_recursive(a, 1000);
        for &(m, e) in cases {
            assert_eq!(ratio(rec[m as usize], m), frac(e), "a = {a}, E({m})");
        }
    }
    for a in 2..=16u64 {
        let rec = perfect_totals_recursive(a, 600);
        for m in 1..=600u64 {
            assert_eq!(perfect_total_closed(a, m), rec[m as usize], "a = {a}, m = {m}");
        }
    }
}

/// B8: Satz 4.4, log_a m ≤ E(m) < 1 + log_a m, equality exactly at powers of a.
#[test]
fn b8_satz_4_4() {
    for a in [2u64, 3, 10] {
        for m in 1..400u64 {
            let e = perfect_total_closed(a, m) as f64 / m as f64;
            let lg = (m as f64).ln() / (a as f64).ln();
            assert!(lg - 1e-12 <= e && e < 1.0 + lg, "a = {a}, m = {m}");
            let power = (0..10).any(|k| a.pow(k) == m);
            assert_eq!((e - lg).abs() < 1e-12, power, "a = {a}, m = {m}");
        }
    }
}

/// B9: the H_α strategy (most even split) against perfect play.
#[test]
fn b9_balanced_versus_perfect() {
    let h1 = |a: u64, upto: u64| lex("1", &FreeSearch::new(a).unwrap(), upto);
    assert_eq!(h1(3, 5)[5], "9");
    assert_eq!(perfect_total_closed(3, 5), 8);
    assert_eq!(h1(10, 12)[12], "16");
    assert_eq!(perfect_total_closed(10, 12), 15);
    let two = h1(2, 299);
    for m in 1..300u64 {
        assert_eq!(two[m as usize], perfect_total_closed(2, m).to_string());
    }
    for alpha in ["0", "0.5", "2", "inf"] {
        assert_eq!(lex(alpha, &FreeSearch::new(3).unwrap(), 60), h1(3, 60), "α = {alpha}");
    }
}

/// B10, B12: Table 4.15 and the binary strategy of the proof.
#[test]
fn b10_b12_table_4_15() {
    let t = perfect_totals(15);
    assert_eq!(&t[1..], &[0, 2, 5, 9, 12, 17, 21, 27, 32, 36, 43, 48, 54, 62, 68]);
    let b = binary_strategy_totals(15);
    assert_eq!(&b[1..], &[0, 2, 5, 9, 12, 17, 21, 27, 32, 36, 43, 49, 54, 62, 69]);
    assert_eq!(budget(2), 2);
    assert_eq!(2u64.isqrt(), 1, "with ⌊√2⌋ = 1 no group of ≥ 1 element fits the budget");
}

/// B13: Lemma A.1 on a grid, and where the binary choice x = ⌈√N⌉ − 1 fails it.
#[test]
fn b13_lemma_a1() {
    let holds = |n: f64, x: f64| 1.0 + 2.0 / n * (x * x.sqrt() + (n - x) * (n - x).sqrt()) <= 2.0 * n.sqrt() + 1e-9;
    for n in 16..=20000u64 {
        let nf = n as f64;
        for i in 0..=20 {
            let x = 0.5 * nf.sqrt() + (nf.sqrt() - 0.5 * nf.sqrt()) * i as f64 / 20.0;
            assert!(holds(nf, x), "N = {n}, x = {x}");
        }
    }
    let fails: Vec<u64> = (2..=20000u64).filter(|&n| !holds(n as f64, (budget(n) - 1) as f64)).collect();
    assert_eq!(fails, vec![2, 3, 4]);
}

/// C8, C11: perfect totals and Satz 4.10 on every n ≤ 10^4.
#[test]
fn c8_c11_perfect_wurzel() {
    let t = perfect_totals(10_000);
    let from16 = [
        75, 80, 88, 96, 102, 110, 119, 127, 135, 144, 148, 158, 167, 176, 182, 191, 202, 212, 220, 229, 239, 245, 257,
        266, 276,
    ];
    assert_eq!(&t[16..=40], &from16);
    for (n, v) in [(100, 1014), (200, 2679), (500, 9823), (1000, 26444), (2000, 71745), (5000, 271009), (10000, 745297)]
    {
        assert_eq!(t[n], v, "T*({n})");
    }
    assert_eq!(t.len(), 10_001);
    for (n, &total) in t.iter().enumerate().skip(2) {
        let e = total as f64 / n as f64;
        let r = (n as f64).sqrt();
        assert!(0.5 * r <= e && e <= 2.0 * r, "Satz 4.10 at {n}");
    }
}

/// C9: H_α totals in the Wurzel model.
#[test]
fn c9_wurzel_renyi_totals() {
    let at = |alpha: &str| lex(alpha, &Wurzel, 1000);
    let (h1, h135, h15, h2, hinf) = (at("1"), at("1.35"), at("1.5"), at("2"), at("inf"));
    assert_eq!((h1[100].as_str(), h15[100].as_str(), h2[100].as_str()), ("1021", "1015", "1015"));
    assert_eq!(
        (h1[500].as_str(), h135[500].as_str(), h15[500].as_str(), h2[500].as_str()),
        ("10217", "9854", "9902", "10006")
    );
    assert_eq!(
        (h1[1000].as_str(), h135[1000].as_str(), h15[1000].as_str(), h2[1000].as_str()),
        ("27637", "26521", "26602", "26919")
    );
    assert_eq!(hinf[1000], "26919");
    assert_eq!(hinf[500], "10006");
}

/// C10: α ≥ 1.6 plays like H_∞ on every n ≤ 1000, α = 1.55 does not; the last n
/// where H_{3/2} is worse than H_1 is 128; the H_α candidates agree with an
/// enumeration of all admissible multisets for small n.
#[test]
fn c10_wurzel_alpha_statements() {
    let hinf = lex("inf", &Wurzel, 1000);
    for alpha in ["1.6", "1.7", "2", "3"] {
        assert_eq!(lex(alpha, &Wurzel, 1000), hinf, "α = {alpha}");
    }
    assert_ne!(lex("1.55", &Wurzel, 1000), hinf);
    let (h1, h15) = (lex("1", &Wurzel, 1000), lex("1.5", &Wurzel, 1000));
    let worse: Vec<usize> =
        (2..=1000).filter(|&n| h15[n].parse::<u64>().unwrap() > h1[n].parse::<u64>().unwrap()).collect();
    assert_eq!(worse.last(), Some(&128));
    let mix = strategy_totals(&Wurzel, Strategy::new(Alpha::ratio(3, 2).unwrap(), TieRule::mix()), 1000).unwrap();
    assert_eq!(mix[1000].to_string(), h15[1000]);
    assert!(strategy_totals(&Wurzel, Strategy::new(Alpha::Infinity, TieRule::mix()), 10).is_err());
}

/// The one-candidate-per-S reduction against every admissible multiset of
/// split-off groups (Σ (1 + |q_i|) ≤ ⌈√n⌉), for n ≤ 300 and several α.
#[test]
fn wurzel_candidates_equal_full_enumeration() {
    use renyi_search::renyi::score::RenyiScore;
    use std::cmp::Ordering;
    fn groups(budget: u64, max: u64, cur: &mut Vec<u64>, out: &mut Vec<Vec<u64>>) {
        if !cur.is_empty() {
            out.push(cur.clone());
        }
        for p in (1..=max.min(budget.saturating_sub(1))).rev() {
            cur.push(p);
            groups(budget - 1 - p, p, cur, out);
            cur.pop();
        }
    }
    for alpha in ["0.5", "1", "1.35", "1.5", "2", "inf"] {
        let score = RenyiScore::new(alpha.parse().unwrap());
        let mut t = vec![0u64; 301];
        for n in 2..=300u64 {
            let mut all = Vec::new();
            groups(budget(n), n - 1, &mut Vec::new(), &mut all);
            let mut best: Option<Vec<u64>> = None;
            for g in all.into_iter().filter(|g| g.iter().sum::<u64>() < n) {
                let mut sizes = g.clone();
                sizes.push(n - g.iter().sum::<u64>());
                sizes.sort_unstable_by(|a, b| b.cmp(a));
                let better = match &best {
                    None => true,
                    Some(b) => match score.compare(&sizes, b) {
                        Ordering::Greater => true,
                        Ordering::Equal => sizes < *b,
                        Ordering::Less => false,
                    },
                };
                if better {
                    best = Some(sizes);
                }
            }
            t[n as usize] = n + best.unwrap().iter().map(|&c| t[c as usize]).sum::<u64>();
        }
        let fast = lex(alpha, &Wurzel, 300);
        let brute: Vec<String> = t.iter().map(|x| x.to_string()).collect();
        assert_eq!(fast, brute, "α = {alpha}");
    }
}
