//! Huge α (issue: hardening, silent wrong answers 1 and the size-model
//! panics of 4): integer α ≥ 2^32 used to wrap to another α, 10^7 hung, and
//! power-sum keys overflowed to ∞ (a panic in the size models at α = 110).
//! Beyond α = 2·n·ln n + 2 the order of partitions is the limit α → ∞, which
//! the exact curve gives as its last interval.

use renyi_search::curve::{Domain, Point, Span, curve};
use renyi_search::games::mastermind::Mastermind;
use renyi_search::models::strategy_totals;
use renyi_search::models::wurzel::Wurzel;
use renyi_search::renyi::alpha::Alpha;
use renyi_search::search::{Exact, RunOptions, Strategy, TieRule, analyze};

#[test]
fn huge_alpha_is_the_limit_at_infinity() {
    let mm = Mastermind::new(4, 6, false).unwrap();
    let c = curve(&mm, TieRule::lex(), &Domain::closed(Point::zero(), Point::infinity()), None);
    let tail = c.segments.iter().rev().find(|s| matches!(s.span, Span::Open(..))).unwrap();
    assert_eq!(tail.total(), Exact::from_integer(5778.into()));
    for alpha in
        [Alpha::integer(1 << 32), Alpha::integer(4_294_967_295), Alpha::integer(10_000_000), Alpha::integer(1 << 40)]
    {
        let a = analyze(&mm, Strategy::new(alpha, TieRule::lex()), RunOptions::default());
        assert_eq!(a.exact_total(), tail.total(), "α = {alpha}");
        assert_eq!(a.first_queries[..], tail.first_queries[..], "α = {alpha}");
    }
}

#[test]
fn size_models_take_large_alpha() {
    let at_infinity = strategy_totals(&Wurzel, Strategy::new(Alpha::Infinity, TieRule::lex()), 1000).unwrap();
    for alpha in [Alpha::integer(110), Alpha::integer(200), Alpha::integer(1 << 33)] {
        let t = strategy_totals(&Wurzel, Strategy::new(alpha, TieRule::lex()), 1000).unwrap();
        assert_eq!(t[1000], at_infinity[1000], "α = {alpha}");
    }
    assert_eq!(at_infinity[1000], Exact::from_integer(26919.into()));
}
