//! The certified signs of a pair's F(α) = Σ w_b·(b/M)^α (issue 53 item 2):
//! the 128-bit fixed-point tier answers only where the 128-bit floating-point
//! tier answers, and then the same; it refuses a near-cancellation below its
//! margin that the floating-point tier still resolves; and it answers the
//! signs next to roots that f64 intervals cannot settle.

use renyi_search::curve::crossing::{PairFunction, RootFound, SearchEnd};
use renyi_search::curve::fixed_point;
use renyi_search::curve::precise::sign_at_margin_128;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// A small deterministic generator (64-bit LCG, high bits).
struct Draw(u64);

impl Draw {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 33) % n
    }
}

/// (b, w_b) of D = Σ_P c^α − Σ_Q c^α, no weight 0, bases ascending.
fn terms(p: &[u64], q: &[u64]) -> Vec<(u64, i64)> {
    let mut w: BTreeMap<u64, i64> = BTreeMap::new();
    p.iter().for_each(|&c| *w.entry(c).or_default() += 1);
    q.iter().for_each(|&c| *w.entry(c).or_default() -= 1);
    w.into_iter().filter(|t| t.1 != 0).collect()
}

/// A random partition of `n` into classes of at most `most`.
fn partition(draw: &mut Draw, mut n: u64, most: u64) -> Vec<u64> {
    let mut classes = Vec::new();
    while n > 0 {
        let c = 1 + draw.below(n.min(most));
        classes.push(c);
        n -= c;
    }
    classes
}

/// Points at and around a root enclosure [lo, hi], down to single ulps.
fn near(lo: f64, hi: f64) -> Vec<f64> {
    let mut xs = vec![lo, hi, 0.5 * (lo + hi), lo.next_down(), hi.next_up()];
    for d in [1e-15, 1e-14, 1e-13, 1e-12, 1e-11, 1e-9] {
        xs.extend([lo - d, hi + d, lo + d, hi - d]);
    }
    xs.into_iter().filter(|&x| x >= 0.0).collect()
}

/// Both tiers at `alpha`: the fixed-point answer must be the floating-point
/// one whenever it gives one. Returns (fixed answered, 128-bit answered).
fn compare(t: &[(u64, i64)], alpha: f64, margin: f64) -> (bool, bool) {
    let fixed = fixed_point::sign_at_margin(t, alpha, margin);
    let float = sign_at_margin_128(t, alpha, margin);
    if fixed.is_some() {
        assert_eq!(fixed, float, "terms {t:?} at α = {alpha:e}, margin {margin:e}");
    }
    (fixed.is_some(), float.is_some())
}

#[test]
fn fixed_point_tier_agrees_with_the_128_bit_tier_near_roots() {
    let mut draw = Draw(53);
    let (mut points, mut fixed_answers, mut float_answers, mut roots) = (0, 0, 0, 0);
    for round in 0..400 {
        let n = 20 + draw.below(if round % 4 == 0 { 5000 } else { 300 });
        let most = 1 + draw.below(n);
        let (p, q) = (partition(&mut draw, n, most), partition(&mut draw, n, most));
        let Some(pair) = PairFunction::new(&p, &q) else { continue };
        let t = terms(&pair.p, &pair.q);
        let mut xs = vec![0.0, 1.0, 0.5 + draw.below(1000) as f64 / 100.0, 300.0, 5e4];
        let (mut from, to) = (SearchEnd::plain(0.0), SearchEnd::plain(60.0));
        while let Some(RootFound::Certified(lo, hi)) = pair.first_root(from, to) {
            roots += 1;
            xs.extend(near(lo, hi));
            from = SearchEnd::plain(hi.next_up());
            if roots % 50 == 0 {
                break;
            }
        }
        for x in xs {
            for margin in [0.0, 1e-20] {
                let (f, a) = compare(&t, x, margin);
                points += 1;
                fixed_answers += usize::from(f);
                float_answers += usize::from(a);
            }
        }
    }
    assert!(roots >= 100, "{roots} roots");
    // The fixed-point tier must not be idle: it answers nearly every point
    // the 128-bit tier answers.
    assert!(fixed_answers * 100 >= float_answers * 95, "{fixed_answers} of {float_answers} ({points} points)");
}

#[test]
fn fixed_point_tier_agrees_on_random_term_lists() {
    let mut draw = Draw(7);
    let (mut fixed_answers, mut float_answers) = (0, 0);
    for _ in 0..300 {
        let k = 2 + draw.below(12) as usize;
        let mut bases: Vec<u64> =
            (0..k).map(|_| 1 + draw.below(if k.is_multiple_of(2) { 50 } else { 2_000_000 })).collect();
        bases.sort_unstable();
        bases.dedup();
        let t: Vec<(u64, i64)> = bases
            .iter()
            .map(|&b| (b, (1 + draw.below(1000) as i64) * if draw.below(2) == 0 { 1 } else { -1 }))
            .collect();
        for alpha in [0.0, 1e-300, 0.25, 1.0, draw.below(4000) as f64 / 1000.0, 17.5, 1e3, 1e6, 1e9] {
            let (f, a) = compare(&t, alpha, 0.0);
            fixed_answers += usize::from(f);
            float_answers += usize::from(a);
        }
    }
    assert!(fixed_answers * 100 >= float_answers * 90, "{fixed_answers} of {float_answers}");
}

#[test]
fn fixed_point_tier_refuses_a_near_cancellation_below_its_margin() {
    // {4,1,1,1,1} vs {2,2,2,2}: F = 1 − 4·(1/2)^α + 4·(1/4)^α has a double
    // zero at α = 1 (F'(1) = 0, F''(1) = 2·ln²2), so F(1 + ε) ≈ 0.48·ε².
    let t = terms(&[1, 1, 1, 1, 4], &[2, 2, 2, 2]);
    assert_eq!(t, vec![(1, 4), (2, -4), (4, 1)]);
    // ε = 2^-47: F ≈ 2^-95, above the 128-bit tier's bound (2^-98 here),
    // below the fixed-point tier's margin (2^-88): only the former answers.
    let x = 1.0 + 2f64.powi(-47);
    assert_eq!(sign_at_margin_128(&t, x, 0.0), Some(Ordering::Greater));
    assert_eq!(fixed_point::sign_at_margin(&t, x, 0.0), None);
    // ε = 2^-40: F ≈ 2^-81, both answer.
    let x = 1.0 + 2f64.powi(-40);
    assert_eq!(fixed_point::sign_at_margin(&t, x, 0.0), Some(Ordering::Greater));
    assert_eq!(fixed_point::sign_at_margin(&t, x, 1e-20), None);
    // F(1) = 0 exactly: neither answers.
    assert_eq!(fixed_point::sign_at_margin(&t, 1.0, 0.0), None);
    assert_eq!(sign_at_margin_128(&t, 1.0, 0.0), None);
}

#[test]
fn fixed_point_tier_settles_signs_f64_cannot() {
    // F = 2·(2/4)^α − 1: a simple zero at α = 1 with F'(1) = −ln 2, so
    // |F(1 ± 1 ulp)| ≈ 1.5e-16, below what f64 intervals resolve.
    let t = [(2u64, 2i64), (4, -1)];
    assert_eq!(fixed_point::sign_at_margin(&t, 1f64.next_up(), 0.0), Some(Ordering::Less));
    assert_eq!(fixed_point::sign_at_margin(&t, 1f64.next_down(), 0.0), Some(Ordering::Greater));
    assert_eq!(fixed_point::sign_at_margin(&t, 1.0, 0.0), None);
    // {1,5,6} vs {2,3,7}: an exact tie at α = 2, where both tiers refuse, and
    // the signs one ulp either side.
    let t = terms(&[1, 5, 6], &[2, 3, 7]);
    for x in [2f64.next_down(), 2f64.next_up()] {
        let s = fixed_point::sign_at_margin(&t, x, 0.0);
        assert!(s.is_some() && s == sign_at_margin_128(&t, x, 0.0), "α = {x}: {s:?}");
    }
    assert_eq!(fixed_point::sign_at_margin(&t, 2.0, 0.0), None);
    assert_eq!(sign_at_margin_128(&t, 2.0, 0.0), None);
}
