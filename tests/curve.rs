//! Exact α-curves (issue: expected search length as a function of α):
//! anchors from ../shared/reference/seed002-ch4.md (A12, C7) and agreement with `analyze` at
//! fixed α on every kind of point.

use renyi_search::curve::{Curve, Domain, Point, Span, curve};
use renyi_search::games::mastermind::Mastermind;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::{Exact, RunOptions, SearchProblem, Strategy, TieRule, analyze};

fn full() -> Domain {
    Domain::closed(Point::zero(), Point::infinity())
}

fn total_at(c: &Curve, alpha: &str) -> Exact {
    c.at(alpha.parse().unwrap()).unwrap_or_else(|| panic!("no segment holds {alpha}")).total()
}

fn int(n: i64) -> Exact {
    Exact::from_integer(n.into())
}

/// α = 0, 1, 2, ∞ and 20 pseudo-random rationals p/q (q ≤ 97, α < 6).
fn probe_alphas() -> Vec<Alpha> {
    let mut out: Vec<Alpha> = ["0", "1", "2", "inf"].iter().map(|s| s.parse().unwrap()).collect();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..20 {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        let q = 1 + seed % 97;
        let p = (seed >> 20) % (6 * q);
        out.push(Alpha::ratio(p, q).unwrap());
    }
    out
}

/// The curve's value at every probe α equals a fresh `analyze` there.
fn agrees_with_analyze<P: SearchProblem>(problem: &P, tie: TieRule) {
    let c = curve(problem, tie, &full(), None);
    assert_eq!(c.uncertified, 0, "{}: uncertified breakpoints", c.problem);
    for alpha in probe_alphas() {
        let a = analyze(problem, Strategy::new(alpha, tie), RunOptions::default());
        let seg = c.at(alpha).unwrap_or_else(|| panic!("{}: no segment at {alpha}", c.problem));
        assert_eq!(seg.total(), a.exact_total(), "{} {} at α = {alpha}", c.problem, c.tie_rule);
        assert_eq!(seg.outcome.max_depth(), a.max_depth, "{} at α = {alpha}", c.problem);
    }
}

#[test]
fn mm1296_lex_anchors_c7_and_crossover_a12() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let c = curve(&mm, TieRule::lex(), &full(), None);
    assert_eq!(c.uncertified, 0);
    for (alpha, total) in [("0.85", 5721), ("1.32", 5732), ("1.34", 5680), ("2", 5696)] {
        assert_eq!(total_at(&c, alpha), int(total), "α = {alpha}");
    }
    // The first guess switches from ABCD to AABC at α* = 1.3378999217… (A12).
    let switch = c
        .segments
        .windows(2)
        .find(|w| *w[0].first_queries == ["ABCD"] && *w[1].first_queries == ["AABC"])
        .expect("a switch");
    let Span::At(Point::Root { root, .. }) = &switch[1].span else {
        panic!("the switch is a certified root: {:?}", switch[1].span)
    };
    assert!(root.at.lo <= 1.337_899_921_7 && 1.337_899_921_7 <= root.at.hi + 1e-10);
    assert!(root.at.width() <= 1e-12);
    // Every breakpoint enclosure is narrow.
    for s in &c.segments {
        if let Span::At(Point::Root { root, .. }) = &s.span {
            assert!(root.at.width() <= 1e-12, "{:?}", root.at);
        }
    }
}

#[test]
fn mm360_c7() {
    let mm = Mastermind::new(4, 6, true).unwrap();
    let c = curve(&mm, TieRule::lex(), &full(), None);
    assert_eq!(total_at(&c, "0.68"), int(1450));
}

#[test]
fn mastermind_curves_agree_with_analyze() {
    for (p, colours, distinct) in [(4, 6, false), (4, 6, true), (3, 4, false), (3, 5, true)] {
        let mm = Mastermind::new(p, colours, distinct).unwrap();
        agrees_with_analyze(&mm, TieRule::lex());
        agrees_with_analyze(&mm, TieRule::mix());
    }
}

#[test]
fn sub_domains_are_cut_from_the_whole_curve() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let whole = curve(&mm, TieRule::lex(), &full(), None);
    let part = curve(
        &mm,
        TieRule::lex(),
        &Domain::closed(Point::exact("1.3".parse().unwrap()), Point::exact("1.4".parse().unwrap())),
        None,
    );
    assert!(part.segments.len() >= 3);
    for s in &part.segments {
        let probe = match &s.span {
            Span::At(p) => p.clone(),
            Span::Open(a, b) => Point::exact(renyi_search::curve::point::dyadic_between(a, b).unwrap()),
        };
        let w = whole.segments.iter().find(|w| w.span.holds(&probe)).unwrap();
        assert_eq!(w.total(), s.total());
    }
}

/// Issue 49 item 6: each walk reports its own uncertified events. On a
/// domain [1, 1 + 2⁻⁶²] no u64 fraction separates the ends' enclosures, so
/// every node with a choice counts one uncertified piece: a nonzero count
/// that depends on the game. Two walks run side by side (sharing rayon's pool)
/// report exactly what each reports alone; a process-wide counter read as a
/// before/after difference gave each the other's events too.
#[test]
fn concurrent_walks_count_their_own_uncertified_events() {
    let sliver =
        Domain::closed(Point::exact(Alpha::integer(1)), Point::exact(Alpha::ratio((1 << 62) + 1, 1 << 62).unwrap()));
    let (big, small) = (Mastermind::new(4, 6, false).unwrap(), Mastermind::new(3, 4, false).unwrap());
    let alone = (
        curve(&big, TieRule::lex(), &sliver, None).uncertified,
        curve(&small, TieRule::lex(), &sliver, None).uncertified,
    );
    assert!(alone.0 > alone.1 && alone.1 > 0, "{alone:?}");
    for _ in 0..3 {
        let side_by_side = std::thread::scope(|s| {
            let a = s.spawn(|| curve(&big, TieRule::lex(), &sliver, None).uncertified);
            let b = s.spawn(|| {
                (0..20).map(|_| curve(&small, TieRule::lex(), &sliver, None).uncertified).collect::<Vec<u64>>()
            });
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(side_by_side.0, alone.0);
        assert!(side_by_side.1.iter().all(|&n| n == alone.1), "{side_by_side:?}");
    }
}

mod size_models {
    use super::*;
    use renyi_search::models::curve::model_curve;
    use renyi_search::models::free::FreeSearch;
    use renyi_search::models::wurzel::Wurzel;
    use renyi_search::models::{SizeModel, strategy_totals};
    use renyi_search::search::TieBreak;

    /// C9: the Wurzel model at |C| = 1000.
    #[test]
    fn wurzel_1000_c9() {
        let c = model_curve(&Wurzel, TieBreak::Lex, 1000, &full(), None).unwrap();
        assert_eq!(c.uncertified, 0);
        for (alpha, total) in [("1", 27637), ("1.35", 26521), ("1.5", 26602), ("2", 26919), ("inf", 26919)] {
            assert_eq!(c.at(alpha.parse().unwrap()), Some(&int(total)), "α = {alpha}");
        }
    }

    fn agrees<M: SizeModel>(model: &M, size: u64, tie: TieBreak) {
        let c = model_curve(model, tie, size, &full(), None).unwrap();
        for alpha in probe_alphas() {
            if tie == TieBreak::Mix && !model.mix_exact(alpha) {
                assert!(c.at(alpha).is_none(), "MIX at {alpha} is left out");
                continue;
            }
            let rule = if tie == TieBreak::Lex { TieRule::lex() } else { TieRule::mix() };
            let t = strategy_totals(model, Strategy::new(alpha, rule), size).unwrap();
            assert_eq!(c.at(alpha), Some(&t[size as usize]), "{} |C| = {size} {tie:?} α = {alpha}", model.name());
        }
    }

    #[test]
    fn model_curves_agree_with_the_recursion() {
        for tie in [TieBreak::Lex, TieBreak::Mix] {
            agrees(&Wurzel, 300, tie);
            agrees(&FreeSearch::new(3).unwrap(), 200, tie);
            agrees(&FreeSearch::new(5).unwrap(), 120, tie);
        }
    }
}
